"""The seeds' tables and the shipped example encounters, read with importlib.resources."""
