"""The views: ipywidgets over the engine, one per dashboard and its parts (editor, dice, step-through).

A view calls the engine and draws what it returns with :mod:`combatkit.widgets.charts`; it holds no rule.
"""
