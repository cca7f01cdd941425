"""The CSS classes every view puts on its widgets (``ck-seed``, ``ck-die-initiative-party-d10``):
what the browser tests, the benchmarks and the page's own styles find a control by.

>>> tag(widgets.Text(), "seed", "init-party")._dom_classes
('ck-seed', 'ck-init-party')
>>> slug("Fighter & Mage vs. Orc"), slug("!!"), slug("!!", "encounter")
('fighter-mage-vs-orc', '', 'encounter')
"""

from __future__ import annotations

import re

import ipywidgets as widgets

__all__ = ["slug", "tag"]


def tag(widget: widgets.DOMWidget, *names: str) -> widgets.DOMWidget:
    """``widget`` with the class ``ck-<name>`` for each name."""
    for name in names:
        widget.add_class(f"ck-{name}")
    return widget


def slug(text: str, empty: str = "") -> str:
    """``text`` in lower case with each run of other characters than a-z and 0-9 made one ``-``
    (for a class or a file name); ``empty`` when nothing is left."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or empty
