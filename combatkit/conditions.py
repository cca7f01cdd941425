"""Conditions an attack leaves behind, as data a timeline can apply later.

A critical hit dazes or stuns; a critical miss trips the attacker up; a 004 special
effect slows or blinds; a spell webs, blinds, slows, hastes or protects (PH 2e, :mod:`combatkit.effects`). Each is a :class:`Condition` (``conditions.toml``: attack and AC
modifiers, no attacks, no movement...) placed on one side of the attack for a
:class:`Duration` counted from the attack: phase 0 is the phase it happened in.

>>> dazed = Imposed(Who.DEFENDER, CONDITIONS["dazed"], Duration(count=1), "000 §4 Critical Hit table 5-6")
>>> dazed.describe("Aldric", "Grishnak")
'Grishnak: dazed (-2 to attack rolls, +1 to AC) through the following phase'
>>> str(Duration(starts=2, count=2)), str(Duration(count=3, or_next_attack=True))
('during phase +2', 'through the next 3 phases, or until its next attack if that comes first')
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Final

__all__ = ["CONDITIONS", "Condition", "Duration", "ExtraAttack", "Imposed", "ItemEvent", "Until", "Who", "phase_name"]


class Who(enum.Enum):
    """Which side of the attack a condition falls on."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


class Until(enum.Enum):
    """What ends a condition."""

    END_OF_PHASE = "end of phase"
    """The end of a phase, counted from the phase of the attack."""
    END_OF_ROUND = "end of round"
    """The end of a round (004), counted from the round of the attack."""
    END_OF_TURN = "end of turn"
    """The end of the affected figure's turn (004): count 1 is "his next turn"."""
    NEXT_ACTION = "next action"
    """The affected figure's next action."""
    NEXT_ATTACK = "next attack"
    """The affected figure's next attack (which, for "loses its next attack", it loses)."""
    REMOVED = "removed"
    """Until the figure does something about it (gets up)."""


def phase_name(offset: int) -> str:
    """A phase offset in words: ``0`` is ``"this phase"``, ``2`` is ``"phase +2"``."""
    return {0: "this phase", 1: "the next phase"}.get(offset, f"phase +{offset}")


@dataclass(frozen=True)
class Duration:
    """When a condition holds, relative to the attack that imposed it."""

    until: Until = Until.END_OF_PHASE
    """What ends it."""
    count: int = 0
    """For the END_OF_* kinds: which phase/round/turn it ends with; 0 is the present one."""
    starts: int = 0
    """Phase (or round) offset it begins in; 0 is the present one."""
    or_next_attack: bool = False
    """Ends earlier, after the figure's next attack, if that comes first."""

    def __str__(self) -> str:
        """In words: ``"through the following phase"``, ``"during phase +2"``."""
        if self.until is Until.END_OF_PHASE:
            if self.starts == 0:
                text = {0: "until the end of this phase", 1: "through the following phase"}.get(
                    self.count, f"through the next {self.count} phases"
                )
            elif self.starts == self.count:
                text = f"during {phase_name(self.starts)}"
            else:
                text = f"from {phase_name(self.starts)} through {phase_name(self.count)}"
        elif self.until is Until.END_OF_ROUND:
            text = {0: "until the end of this round", 1: "until the end of the next round"}.get(
                self.count, f"until the end of round +{self.count}"
            )
        elif self.until is Until.END_OF_TURN:
            text = "until the end of its next turn" if self.count == 1 else f"until the end of turn +{self.count}"
        elif self.until is Until.REMOVED:
            text = "until it gets up"
        elif self.until is Until.NEXT_ATTACK:
            text = "until its next attack has passed"
        else:
            text = f"until its {self.until.value}"
        return text + (", or until its next attack if that comes first" if self.or_next_attack else "")


@dataclass(frozen=True)
class Condition:
    """A state an attack leaves a figure in (``conditions.toml``)."""

    id: str
    """Key in :data:`CONDITIONS`: ``"dazed"``."""
    name: str
    """As a reader sees it."""
    text: str
    """Its effects in the seed's words."""
    rule: str
    """Where the seed defines it."""
    attack_modifier: int = 0
    """Added to the figure's attack rolls."""
    ac_modifier: int = 0
    """Added to the figure's Armor Class number (+4: four points easier to hit)."""
    sf_modifier: int = 0
    """Added to the SF of the figure's next strike."""
    can_attack: bool = True
    """False: no attacks while it holds."""
    can_move: bool = True
    """False: no movement while it holds."""
    defenseless: bool = False
    """Considered stationary and defenseless."""
    loses_agility_bonus: bool = False
    """Loses Agility (or Dexterity) bonuses."""
    movement_feet: int | None = None
    """Speed cut to this many feet."""
    can_cast: bool = True
    """False: no spellcasting while it holds (a web, nausea)."""
    save_modifier: int = 0
    """Added to the figure's saving throws against spells (protection from evil: +2)."""
    double_rate: bool = False
    """Moves and attacks at double its rate (haste)."""
    half_rate: bool = False
    """Moves and attacks at half its rate (slow)."""


def _load_conditions() -> Mapping[str, Condition]:
    text = resources.files("combatkit.data").joinpath("conditions.toml").read_text(encoding="utf-8")
    return MappingProxyType({key: Condition(id=key, **value) for key, value in tomllib.loads(text).items()})


CONDITIONS: Final[Mapping[str, Condition]] = _load_conditions()
"""Every condition the tables impose, by id."""


@dataclass(frozen=True)
class Imposed:
    """A condition placed on one side of the attack for a duration."""

    who: Who
    """Attacker or defender."""
    condition: Condition
    """What holds."""
    duration: Duration
    """When it holds, relative to the attack."""
    rule: str
    """The table row or rule that imposed it."""

    def describe(self, attacker: str, defender: str) -> str:
        name = attacker if self.who is Who.ATTACKER else defender
        return f"{name}: {self.condition.name} ({self.condition.text}) {self.duration}"


@dataclass(frozen=True)
class ExtraAttack:
    """An attack the table grants the attacker beyond his regular ones."""

    starts: int
    """Phase offset: 0 is immediately, 1 the next phase."""
    text: str
    """As the seed grants it."""
    rule: str
    """The table row."""


@dataclass(frozen=True)
class ItemEvent:
    """Something that happens to an item: dropped, tumbling away, broken."""

    item: str
    """The item: ``"long sword"``, ``"bowstring"``."""
    event: str
    """``"dropped or skewed"``, ``"tumbles away"``, ``"breaks"``, ``"drops"``."""
    feet: int | None
    """How far it lands, where the table says."""
    rule: str
    """The table row."""

    def __str__(self) -> str:
        where = f" {self.feet} ft" if self.feet is not None else ""
        return f"{self.item}: {self.event}{where}"
