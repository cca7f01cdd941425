"""Encounters: who is there, what they declared or mean to do, where they stand and what the dice said.

An :class:`Encounter` is what a timing system schedules and a fight plays out. The encounter file (TOML or JSON)
a DM saves, edits and shares is read and written by :mod:`combatkit.encounter_files`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from combatkit.errors import RulesError, is_whole
from combatkit.intent import Intent, Refinement
from combatkit.model import Combatant, Declaration

__all__ = ["Encounter", "Hit"]


@dataclass(frozen=True, slots=True)
class Hit:
    """A hit the referee reports landing on a combatant: spoils a spell being cast (000 §2 A)."""

    target: str
    """Who was hit."""
    tick: int
    """When it landed, on the system's clock (half-segment 1..20 in Phase System I)."""
    source: str = ""
    """Who or what hit, for the explanation."""


_ITEMS: Final = (("combatants", Combatant), ("declarations", Declaration), ("hits", Hit), ("intents", Intent),
                 ("refinements", Refinement))
"""An encounter's fields that hold a tuple of values of one type (a list given is taken as its tuple)."""


@dataclass(frozen=True, slots=True)
class Encounter:
    """Everything one round needs: who is there, what they declared, what the dice said."""

    title: str
    """A line that says what the fight is."""
    combatants: tuple[Combatant, ...]
    """Every figure, each with its side."""
    declarations: tuple[Declaration, ...] = ()
    """Declarations already in the terms of the system that schedules the round (phases of its own), used as
    given for their figures. Files keep :attr:`intents` instead; a file in the older format, whose
    declarations are written for its :attr:`system`, loads as intents and that system's refinements
    (:func:`~combatkit.intent.derive`)."""
    distances: tuple[tuple[str, str, int], ...] = ()
    """Known gaps between two figures in feet, ``(a, b, feet)``."""
    hits: tuple[Hit, ...] = ()
    """Hits the referee reports (they can spoil spells)."""
    rolls: Mapping[str, int | tuple[int, ...]] = field(default_factory=dict, hash=False)
    """Dice rolled at the table, by purpose (``"initiative: party": 3``); others are rolled."""
    round: int = 1
    """Round number (3/2 attacks per round give 2 attacks in even rounds)."""
    seed: int | None = None
    """Seed for the dice not entered."""
    system: str = "phase1"
    """The timing system the encounter was written for."""
    description: str = ""
    """A paragraph for the reader."""
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    """Options of each timing system by its id, field by field (``{"phase2": {"caster_delay_by_level":
    True}}``, the file's ``[options.phase2]``): :meth:`TimingSystem.schedule
    <combatkit.systems.base.TimingSystem.schedule>` uses them when it is given no options."""
    intents: tuple[Intent, ...] = ()
    """What each figure means to do this round, in words no system owns, in order (:mod:`combatkit.intent`):
    every system places them in its own terms (:meth:`TimingSystem.plan
    <combatkit.systems.base.TimingSystem.plan>`). A figure with :attr:`declarations` keeps those instead."""
    refinements: tuple[Refinement, ...] = ()
    """How one system or another places an intent in its own terms (a phase, a double attack, a hold...);
    the other systems ignore each."""

    def __post_init__(self) -> None:
        # Given in Python (a file's are read and checked by combatkit.encounter_files; a fight's rounds are made
        # without this, combatkit.made): a wrong value is refused here, naming it and the rule, not deep in a system
        # as a TypeError, nor played (round -2, a gap of -5 feet); lists are taken as the tuples they stand for.
        for name, kind in _ITEMS:
            said = f"{name} are a list of {kind.__name__}s"
            for item in self._tuple(name, said):
                if not isinstance(item, kind):
                    raise RulesError("encounter", f"{said}, got {item!r} among them")
        if not isinstance(self.title, str):
            raise RulesError("encounter", f"the title is text, got {self.title!r}")
        if not is_whole(self.round) or self.round < 1:
            raise RulesError("encounter", f"the round is a whole number, 1 or more, got {self.round!r}")
        if self.seed is not None and not is_whole(self.seed):
            raise RulesError("encounter", f"the seed is a whole number, got {self.seed!r}")
        distances = self._tuple("distances", "distances are a list of (a, b, feet)")
        if any(type(gap) is not tuple for gap in distances):
            distances = tuple(tuple(gap) if isinstance(gap, (list, tuple)) else gap for gap in distances)
            object.__setattr__(self, "distances", distances)
        for gap in distances:
            if (len(gap) != 3 or not isinstance(gap[0], str) or not isinstance(gap[1], str) or not is_whole(gap[2])
                    or gap[2] < 0):
                raise RulesError("encounter", f"a distance is (a, b, feet): two figures' names and the feet between "
                                              f"them, a whole number, 0 or more; got {gap!r}")

    def _tuple(self, name: str, said: str) -> tuple:
        """Field ``name``, a list given for it taken as its tuple (and kept so); not a list of values: refused,
        ``said`` saying what it is."""
        value = getattr(self, name)
        if type(value) is not tuple:
            if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
                raise RulesError("encounter", f"{said}, got {value!r}")
            value = tuple(value)
            object.__setattr__(self, name, value)
        return value

    def combatant(self, name: str) -> Combatant:
        """The combatant called ``name``; a RulesError naming the encounter's combatants if there is none
        (a declaration, distance or hit that names a figure the encounter lacks)."""
        for c in self.combatants:
            if c.name == name:
                return c
        raise RulesError("encounter", f"no combatant is called {name!r}; combatants: {[c.name for c in self.combatants]}")

    @property
    def attack_cycle(self) -> int:
        """Rounds after which every figure's attacks in a round repeat (000 §2 C: 3/2 a round gives 1, then 2): the
        least common multiple of the figures' :attr:`~combatkit.model.Combatant.attack_cycle`."""
        return math.lcm(*(c.attack_cycle for c in self.combatants))

    @property
    def sides(self) -> tuple[str, ...]:
        """Sides in order of first appearance."""
        return tuple(dict.fromkeys([c.side for c in self.combatants]))  # a list: a generator resumes once a figure (#18)
