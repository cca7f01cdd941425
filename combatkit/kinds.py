"""The engine's kinds: what a figure, a weapon, an action, an intent or a placement is, as enumerations.

They are re-exported where they belong (:mod:`combatkit.model`, :mod:`combatkit.intent`) and live here, apart from
the value types, so that the compiled build (docs/at-scale.md, *A compiled build*) compiles them: a compiled module
reads a member of an enumeration it compiled (``ActionKind.ATTACK``) as a constant, and one of a module left as
Python by looking the class up in its globals and the member up on the class, thousands of times a fight (#18).
"""

from __future__ import annotations

import enum
from typing import Final, TypeAlias

__all__ = ["ActionKind", "IdentityEnum", "IntentKind", "Length", "Maneuver", "PlacementKind", "Size", "SpeedFactor",
           "WeaponKind"]

SpeedFactor: TypeAlias = int
"""A weapon's speed factor; lower is faster. May fall below 1 after bonuses."""


class IdentityEnum(enum.Enum):
    """An enumeration whose members hash as the objects they are, in C: :class:`enum.Enum` hashes a member's name
    in Python, and a fight looks its kinds up in tables hundreds of times. A member equals only itself, so the
    two hashes agree on what is equal."""

    __hash__ = object.__hash__


class Size(IdentityEnum):
    """Creature size, with 000 §1 E Table 2 (Speed Factor Based on Size)."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"

    @property
    def natural_sf(self) -> SpeedFactor:
        """SF of a natural attack (claw, bite...) for this size (000 Table 2)."""
        return _TABLE_2[self][0]

    @property
    def weapon_sf_adjustment(self) -> int:
        """Added to a wielded weapon's SF for this size (000 Table 2)."""
        return _TABLE_2[self][1]

    def larger_than(self, other: Size) -> bool:
        """Whether this size is above ``other``, tiny to gargantuan: what 002 Unarmed Combat asks of a target ("A
        creature may only use unarmed combat on a creature of its own size or smaller").

        >>> Size.LARGE.larger_than(Size.MEDIUM), Size.MEDIUM.larger_than(Size.MEDIUM)
        (True, False)
        """
        return _SIZE_RANK[self] > _SIZE_RANK[other]


# 000 §1 E, Table 2: Speed Factor Based on Size -> (SF for natural attack, SF adj. for weapon)
_TABLE_2: Final[dict[Size, tuple[int, int]]] = {
    Size.TINY: (0, -1),
    Size.SMALL: (2, -1),
    Size.MEDIUM: (3, 0),
    Size.LARGE: (6, 1),
    Size.HUGE: (8, 2),
    Size.GARGANTUAN: (10, 4),
}

_SIZE_RANK: Final = {size: rank for rank, size in enumerate(Size)}
"""Each size's place, tiny (0) to gargantuan (:meth:`Size.larger_than`)."""


class WeaponKind(IdentityEnum):
    """How a weapon attacks."""

    MELEE = "melee"
    MISSILE = "missile"
    NATURAL = "natural"
    """Claw, bite...: SF comes from size (000 Table 2), not the weapon."""


class Length(IdentityEnum):
    """Weapon length, used for strike speed (004) and closing order (002 II D)."""

    UNARMED = "unarmed"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    VERY_LONG = "very long"
    POLE_ARM = "pole arm"


class ActionKind(IdentityEnum):
    """What a combatant does with one phase (000 §1: one of these per phase)."""

    MOVE = "move"
    """Move up to 1/3 MV (000 §1 F)."""
    ATTACK = "attack"
    """One attack routine, melee or missile (000 §2 C)."""
    CAST = "cast"
    """Begin a spell (or psionic power); later phases continue it automatically (000 §2 A)."""
    MISC = "misc"
    """A brief miscellaneous action: draw, ready components, re-string a bow (000 §2 E)."""
    READY = "ready"
    """Set a weapon or ready a defense against a charge, in lieu of attacking (000 §2 D)."""


class Maneuver(enum.Enum):
    """What a declaration does that the rules treat apart from a plain move or blow: a field of the
    declaration (``maneuver = "charge"`` in a file), never words found in its note."""

    CHARGE = "charge"
    """A move that ends in a blow on its target: 000 §2 D Charging (announced with its target, from
    a run, overrunning), 001 Charge (a Counter-Charge when the note says so), 002 Charging."""
    WITHDRAW = "withdraw"
    """Backing out of melee without attacking: 000 §2 D Withdrawing (1/3 of 1/3 MV, no free attack),
    001 Withdrawal (a Retreat when the note says so); under 002 any breaking off draws its attack
    of opportunity."""
    FLEE = "flee"
    """Running from melee: 000 §2 D Fleeing (engaged foes may take a free attack), 001 Break & Run
    (attacks from the rear; a Flight when the note says so), 002 Breaking Off From Melee."""
    PUMMEL = "pummel"
    """An unarmed blow: punch, kick, elbow, knee (002 Unarmed Combat I.A; 1d2, III.A)."""
    GRAPPLE = "grapple"
    """Grabbing and wrestling (002 Unarmed Combat I.B): the victim is held in its square (III.B)."""
    OVERBEAR = "overbear"
    """Knocking the foe down (002 Unarmed Combat I.C, 001 Overbear): it saves or falls prone (III.C)."""

    @property
    def kind(self) -> ActionKind:
        """The action it is a way of doing: a move (charge, withdraw, flee) or an attack (the unarmed three)."""
        return ActionKind.MOVE if self in (Maneuver.CHARGE, Maneuver.WITHDRAW, Maneuver.FLEE) else ActionKind.ATTACK

    @property
    def unarmed(self) -> bool:
        """One of 002's unarmed attack types (pummel, grapple, overbear)."""
        return self.kind is ActionKind.ATTACK


class IntentKind(enum.StrEnum):
    """What a figure means to do, before any system's terms (a ``StrEnum``: its own value in a file)."""

    MOVE = "move"
    """Move toward or away from a figure, or a distance; a charge, a withdrawal or a flight."""
    ATTACK = "attack"
    """Strike or shoot a target with a weapon, a routine of weapons, or unarmed."""
    CAST = "cast"
    """Cast a spell (or use a psionic power) at a target."""
    READY = "ready"
    """Ready or draw an item: a weapon, or a spell's material components."""
    HOLD = "hold"
    """Stand ready: set a weapon against a charge, cover a space, wait for a foe to come."""
    ACTION = "action"
    """A named action from the list every system maps (drink a potion, parley, take cover...), or free text."""


class PlacementKind(enum.StrEnum):
    """How a system placed an intent."""

    PLACED = "placed"
    """In the system's own terms, as its rules put it."""
    REFINED = "refined"
    """As this system's refinement of the intent says."""
    NEAREST = "nearest"
    """The system cannot do it as asked: placed the nearest legal way (the reason says how)."""
    DEFERRED = "deferred"
    """Not this round: begun next round, or no phase left for it."""
    DECLARED = "declared"
    """Given as the system's own declarations (no intent behind them)."""
