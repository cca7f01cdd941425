"""Pure chart functions: long-form rows in, an altair chart out, and the bundle that draws them offline.

No widget state and no rule: each function reads the engine's typed results (spans, rolls, odds).
"""
