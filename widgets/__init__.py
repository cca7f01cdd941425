"""combatkit.widgets: thin ipywidgets + altair views over the engine.

Installed from the top-level ``widgets/`` folder (see pyproject.toml). Importing
this package pulls in ipywidgets and altair; ``import combatkit`` does not.
"""
