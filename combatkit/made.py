"""Values the engine makes from values it has checked already, made without checking them again (#18).

A frozen dataclass's ``__init__`` is Python that sets each field through ``object.__setattr__``: some 5 µs for a
:class:`~combatkit.model.Declaration`'s fifteen fields, more with a ``__post_init__`` check. A fight makes dozens
of declarations and placements a round it plans, the round's encounter, and a combatant for each state it meets
a figure in, each from values checked before: a combatant's hit points down to 0, the declaration of an intent
in the planner's own terms. :func:`made` sets their fields in compiled code. Everything a user, a file or a
notebook gives goes through the class itself, and is checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any, Final, TypeVar

__all__ = ["made"]

T = TypeVar("T")

_FIELDS: Final[dict[type, tuple[tuple[str, Any, Any], ...]]] = {}
"""Each class's fields as :func:`made` reads them: name, default, default factory."""


def made(cls: type[T], values: Mapping[str, Any], like: T | None = None) -> T:
    """``cls(**values)``, or ``dataclasses.replace(like, **values)``, without ``cls``'s ``__init__`` and its checks:
    each field is ``values``'s, else ``like``'s, else its default. Only for values that would pass the checks.

    >>> from combatkit.model import Declaration
    >>> from combatkit.kinds import ActionKind
    >>> declared = made(Declaration, {"actor": "Mira", "phase": 2, "kind": ActionKind.MOVE})
    >>> declared == Declaration("Mira", 2, ActionKind.MOVE)
    True
    """
    spec = _FIELDS.get(cls)
    if spec is None:
        found = fields(cls)  # type: ignore[arg-type]
        spec = _FIELDS[cls] = tuple((f.name, f.default, f.default_factory) for f in found)
    new = object.__new__(cls)
    used = 0
    for name, default, factory in spec:
        if name in values:
            value = values[name]
            used += 1
        elif like is not None:
            value = getattr(like, name)
        elif default is not MISSING:
            value = default
        elif factory is not MISSING:
            value = factory()
        else:
            raise TypeError(f"{cls.__name__} needs its {name}")
        object.__setattr__(new, name, value)
    if used != len(values):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(values) - {name for name, _, _ in spec})}")
    return new
