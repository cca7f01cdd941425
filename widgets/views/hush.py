"""Hush: set controls from code without their observers answering as if a user had.

A view that fills its own controls (a loaded encounter's seed, a link's matchup) would
otherwise run its callbacks once per control it sets. The view holds one :class:`Hush`;
the code that sets controls runs inside ``with self._quiet():`` and every observer starts
with ``if self._quiet: return``. Nesting is allowed: the view is quiet until the outermost
block ends.

>>> hush = Hush()
>>> bool(hush)
False
>>> with hush():
...     with hush():
...         pass
...     bool(hush)
True
>>> bool(hush)
False
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Hush"]


class Hush:
    """True while at least one ``with hush():`` block is running."""

    def __init__(self) -> None:
        self._depth = 0

    def __bool__(self) -> bool:
        return self._depth > 0

    @contextmanager
    def __call__(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
