"""What the order-of-battle systems share: moment clocks and declaration checks.

Used by :mod:`~combatkit.systems.five_phase` (001), :mod:`~combatkit.systems.short_form`
(002) and :mod:`~combatkit.systems.strike_speed` (004). Each draws every chance outcome
through ``roller.roll_total(dice, purpose, classify)``: ``classify`` says which totals lead
to the same round (a surprise d12 only matters as *who* it surprises), so that their exact
odds (:meth:`~combatkit.systems.base.TimingSystem.odds`) run the round once per class.

**Moment clocks.** In 002 (initiative counts) and 004 (strike speeds) a round is an
order, not a stretch of seconds, and inside one count the tie rules can put several
moments one after another. A scheduled round's clock has one tick per moment that
happens, in order; its periods name the count or strike speed each tick belongs to.

>>> clock, ticks = moment_clock("moment", [Moment((1, -9, 0), "count", "9"), Moment((0,), "before initiative"),
...                                        Moment((1, -9, 1), "count", "9")])
>>> [ticks[m] for m in sorted(ticks)], [p.label for p in clock.periods]
([1, 2, 3], ['before initiative', 'count 9'])
>>> clock.describe(3)
'moment 3 (count 9)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from combatkit.encounter import Encounter
from combatkit.errors import IllegalActionError
from combatkit.model import Declaration
from combatkit.timeline import Clock, Period, Tick

__all__ = [
    "Moment",
    "check_action_number",
    "has_word",
    "moment_clock",
    "refuse_combat_ii_fields",
]


# ----------------------------------------------------------------- moment clocks


@dataclass(frozen=True)
class Moment:
    """A point in a round's order: sorted by ``key``, earliest first; equal (one moment) when their keys are."""

    key: tuple[int, ...]
    """Sort key; moments with equal keys are one moment (simultaneous)."""
    name: str = field(compare=False)
    """The name of the period it belongs to (:attr:`Period.name <combatkit.timeline.Period.name>`): ``"count"``,
    ``"before initiative"``."""
    number: str = field(default="", compare=False)
    """Which one of its name (:attr:`Period.number <combatkit.timeline.Period.number>`): ``"9"``; ``""`` for
    none."""
    label: str = field(init=False, compare=False)
    """The period it belongs to, as a reader sees it: ``"count 9"``; its spans' period."""

    def __init__(self, key: tuple[int, ...], name: str, number: str = "") -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "label", f"{name} {number}" if number else name)

    # Written out too, as the dataclass's ``order=True`` and ``eq`` would make them (a moment is sorted, and looked
    # up as a clock's tick, many times a round): by the key alone.
    def __eq__(self, other: object) -> bool:
        return other.key == self.key if isinstance(other, Moment) else NotImplemented

    def __hash__(self) -> int:
        return hash((self.key,))

    def __lt__(self, other: Moment) -> bool:
        return self.key < other.key

    def __le__(self, other: Moment) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Moment) -> bool:
        return self.key > other.key

    def __ge__(self, other: Moment) -> bool:
        return self.key >= other.key


def moment_clock(unit: str, moments: Iterable[Moment], note: str = "") -> tuple[Clock, dict[Moment, Tick]]:
    """The clock of ``moments`` (one tick each, in order) and each moment's tick; ``unit`` and ``note`` are the
    clock's (:class:`~combatkit.timeline.Clock`)."""
    ordered = sorted(set(moments))
    ticks = {moment: tick for tick, moment in enumerate(ordered, 1)}
    periods: list[Period] = []
    for moment, tick in ticks.items():
        if periods and periods[-1].label == moment.label:
            periods[-1] = Period(moment.name, periods[-1].start, tick, moment.number)
        else:
            periods.append(Period(moment.name, tick, tick, moment.number))
    return Clock(unit, len(ordered), tuple(periods), note), ticks


# ----------------------------------------------------------------- declarations

_COMBAT_II_FIELDS: Final = {
    "hold": "holding a completed spell (000 §2 A)",
    "reposition": "a repositioning step (000 §2 A, C)",
    "retarget": "retargeting (000 §2 C)",
    "drop_and_draw": "dropping one weapon and drawing another (000 §2 E)",
    "readies_components": "readying material components (000 §2 A)",
}


def check_action_number(d: Declaration, rule: str) -> None:
    """A declaration's phase, where it only orders a figure's actions (002, 004: "action 1", "action 2", ...), is
    numbered from 1."""
    if d.phase < 1:
        raise IllegalActionError(rule, f"{d.actor}: a figure's actions in a round are numbered from 1 (action 1, "
                                       f"action 2, ...), got {d.phase}")


def refuse_combat_ii_fields(d: Declaration, rule: str, allowed: frozenset[str] = frozenset()) -> None:
    """Refuse a declaration field that only Combat II (000) gives a meaning to.

    >>> from combatkit.model import ActionKind
    >>> refuse_combat_ii_fields(Declaration("Ann", 1, ActionKind.CAST, hold=2), "004 Strike Speed")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    combatkit.errors.IllegalActionError: Ann: hold=2 asks for holding a completed spell (000 §2 A), ...
    """
    for name, what in _COMBAT_II_FIELDS.items():
        value = getattr(d, name)
        if value and name not in allowed:
            raise IllegalActionError(
                rule, f"{d.actor}: {name}={value!r} asks for {what}, a Combat II rule this system does not have"
            )


def has_word(text: str, word: str) -> bool:
    """``word`` (or phrase) occurs in ``text`` as whole words, ignoring case.

    >>> has_word("Counter-charge the ogre", "charge"), has_word("recharge", "charge")
    (True, False)
    """
    return _pattern(word).search(text) is not None


@cache
def _pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(word)}(?![\w])", re.IGNORECASE)
