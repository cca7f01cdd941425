"""Combat stances and combat maneuvers (004 "Combat Stance", "Combat Maneuvers").

A stance is chosen for the round before initiative (default Standard) and moves the
figure's attack rolls, Armor Class and, with the optional Strike Speed order of battle,
its strike speed:

>>> Stance.FULL_DEFENSE.ac_bonus(Shield.LARGE)
6
>>> Stance.FULL_ATTACK.attack_modifier, Stance.FULL_ATTACK.ac_bonus(Shield.NONE)
(2, -2)

An AC *bonus* lowers the Armor Class number (AC 4 in Full Defense with a large shield
is AC -2). The bonus with a shield is the stance's whole bonus, on top of the shield
already counted in the AC. A fighter's maneuver trades penalties for bonuses, one for one, up to
2 + level/3 (rounded up) in penalties:

>>> maneuver_penalty_limit(5)
4
>>> CombatManeuver(to_hit=-2, armor_class=-2, damage=4).check(level=5, role=Role.FIGHTER)
CombatManeuver(to_hit=-2, damage=4, armor_class=-2, strike=0)
"""

from __future__ import annotations

import enum
import math
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from combatkit.errors import IllegalActionError, RulesError, is_whole
from combatkit.kinds import IdentityEnum

__all__ = [
    "CombatManeuver",
    "Role",
    "Shield",
    "Stance",
    "StanceRules",
    "check_stance",
    "maneuver_penalty_limit",
]

_STANCE_RULE: Final = "004 Combat Stance"
_MANEUVER_RULE: Final = "004 Combat Maneuvers"


class Role(enum.Enum):
    """Which of 004's class wordings a figure meets."""

    FIGHTER = "fighter"
    """A Fighter proper: 19-20 criticals (option), critical-miss effects, maneuvers."""
    WARRIOR = "warrior"
    """Another Fighting Class (ranger, paladin...): critical-hit special effects only."""
    OTHER = "other"
    """Priest, wizard, rogue: none of 004's fighter options."""
    MONSTER = "monster"
    """A monster: has no body points; special effects and maneuvers at the referee's option."""

    @classmethod
    def from_class(cls, char_class: str) -> Role:
        """Read a class name such as :class:`combatkit.model.Combatant` stores.

        >>> Role.from_class("Paladin"), Role.from_class("mage")
        (<Role.WARRIOR: 'warrior'>, <Role.OTHER: 'other'>)
        """
        name = char_class.strip().lower()
        if name == "fighter":
            return cls.FIGHTER
        if name in {"ranger", "paladin", "barbarian", "cavalier", "warrior"}:
            return cls.WARRIOR
        if name == "monster":
            return cls.MONSTER
        return cls.OTHER


class Shield(enum.Enum):
    """What the figure carries on its arm, for the defensive stances' AC bonus."""

    NONE = "none"
    SHIELD = "shield"
    LARGE = "large_shield"


@dataclass(frozen=True)
class StanceRules:
    """One row of 004's stance list, as ``stances_004.toml`` holds it."""

    name: str
    """As printed: ``"Full Defense"``."""
    text: str
    """The seed's wording of the row."""
    can_attack: bool
    """False for Full Defense ("no attack possible")."""
    attack: int
    """Added to attack rolls."""
    ac_bonus: dict[Shield, int]
    """AC bonus by shield carried; positive lowers the Armor Class number."""
    strike: int
    """Added to strike speed, only with 004's optional Strike Speed order of battle."""
    defensive: bool
    """Full or Active Defense: closed to a caster casting a spell."""


class Stance(IdentityEnum):
    """The five stances of 004; Standard unless announced before initiative."""

    FULL_DEFENSE = "full_defense"
    ACTIVE_DEFENSE = "active_defense"
    STANDARD = "standard"
    ACTIVE_ATTACK = "active_attack"
    FULL_ATTACK = "full_attack"

    @property
    def rules(self) -> StanceRules:
        """The stance's row of 004 (from ``stances_004.toml``)."""
        return _stance_rules()[self]

    @property
    def label(self) -> str:
        return self.rules.name

    @property
    def attack_modifier(self) -> int:
        return self.rules.attack

    @property
    def strike_modifier(self) -> int:
        return self.rules.strike

    @property
    def can_attack(self) -> bool:
        """False for Full Defense (:func:`may_attack`)."""
        return may_attack(self)

    @property
    def defensive(self) -> bool:
        return self.rules.defensive

    @property
    def attacking(self) -> bool:
        """Active or Full Attack: opens 004's critical-hit special effects."""
        return self in (Stance.ACTIVE_ATTACK, Stance.FULL_ATTACK)

    def ac_bonus(self, shield: Shield) -> int:
        """The stance's AC bonus with ``shield`` (positive lowers the AC number)."""
        return self.rules.ac_bonus[shield]


def may_attack(stance: Stance) -> bool:
    """Whether a figure in ``stance`` may attack (004: Full Defense, "no attack possible"): :attr:`Stance.can_attack`
    as a function, which the walk asks at every blow, and the compiled build calls directly (it reads an enum's
    property through Python's attribute lookup, #18)."""
    return _stance_rules()[stance].can_attack


@cache
def _stance_rules() -> dict[Stance, StanceRules]:
    text = resources.files("combatkit.data").joinpath("stances_004.toml").read_text(encoding="utf-8")
    rows: list[dict[str, Any]] = tomllib.loads(text)["stance"]
    return {
        Stance(row["id"]): StanceRules(
            name=row["name"],
            text=row["text"],
            can_attack=row["can_attack"],
            attack=row["attack"],
            ac_bonus={Shield(key): value for key, value in row["ac_bonus"].items()},
            strike=row["strike"],
            defensive=row["defensive"],
        )
        for row in rows
    }


def check_stance(stance: Stance, *, casting: bool, who: str = "a caster") -> Stance:
    """Refuse Full or Active Defense to a spell caster casting a spell (004 Combat Stance).

    >>> check_stance(Stance.ACTIVE_DEFENSE, casting=True, who="Mirela")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    combatkit.errors.IllegalActionError: Mirela is casting a spell and cannot select the Active Defense stance (...)
    """
    if not isinstance(stance, Stance):
        raise RulesError(_STANCE_RULE, f"{who}: a stance is one of {[s.label for s in Stance]}, got {stance!r}")
    if casting and stance.defensive:
        raise IllegalActionError(
            _STANCE_RULE, f"{who} is casting a spell and cannot select the {stance.label} stance"
        )
    return stance


def maneuver_penalty_limit(level: int) -> int:
    """Most penalty points a Fighter may take on one attack: 2 + level/3, rounded up (004)."""
    if not is_whole(level) or level < 0:
        raise RulesError(_MANEUVER_RULE, f"a level is a whole number 0 or more, got {level!r}")
    return 2 + math.ceil(level / 3)


@dataclass(frozen=True)
class CombatManeuver:
    """A stunt: each -1 taken in one area buys +1 in another (004 Combat Maneuvers).

    Every field is a modifier *for the maneuvering fighter*: ``armor_class=-2`` means his
    AC is 2 worse (the number 2 higher) until his next action.
    """

    to_hit: int = 0
    """Added to this attack's roll."""
    damage: int = 0
    """Added to this attack's damage."""
    armor_class: int = 0
    """His AC until his next action: negative is worse (the AC number rises by that much)."""
    strike: int = 0
    """Added to his strike speed (004 Strike Speed order of battle)."""

    @property
    def penalties(self) -> int:
        """Penalty points taken (a positive number)."""
        return -sum(v for v in self._values() if v < 0)

    @property
    def bonuses(self) -> int:
        """Bonus points bought."""
        return sum(v for v in self._values() if v > 0)

    def _values(self) -> tuple[int, ...]:
        return (self.to_hit, self.damage, self.armor_class, self.strike)

    def check(self, *, level: int, role: Role, referee_allows: bool = False) -> CombatManeuver:
        """This maneuver if ``level`` and ``role`` may take it, else a :class:`RulesError`.

        Fighters may; other intelligent opponents (monsters included) only when
        ``referee_allows``. Bonuses may not exceed penalties, and penalties may not
        exceed :func:`maneuver_penalty_limit`.
        """
        if any(not is_whole(v) for v in self._values()):
            raise RulesError(_MANEUVER_RULE, f"maneuver modifiers are whole numbers, got {self!r}")
        if role is not Role.FIGHTER and not referee_allows:
            raise IllegalActionError(
                _MANEUVER_RULE,
                f"only Fighters make combat maneuvers unless the referee allows it; got a {role.value}",
            )
        limit = maneuver_penalty_limit(level)
        if self.penalties > limit:
            raise RulesError(
                _MANEUVER_RULE,
                f"a level {level} fighter may take up to -{limit} in penalties (2 + level/3 rounded up), "
                f"got -{self.penalties}",
            )
        if self.bonuses > self.penalties:
            raise RulesError(
                _MANEUVER_RULE,
                f"each +1 must be paid for with a -1 elsewhere: +{self.bonuses} bought with only -{self.penalties}",
            )
        return self
