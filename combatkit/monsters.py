"""Monsters and characters from the books: Hit Dice, THAC0, hit points, and N of a kind (#48).

**Monsters.** ``combatkit/data/monsters_mm2e.toml`` holds common foes of the Monstrous Manual (AD&D 2e), kobold to
hill giant, each row cited to its entry: Hit Dice as printed, AC, MV, size, morale, its attacks (natural ones as
natural weapons, or by weapon with its usual weapons from the PH 2e weapon library, :mod:`combatkit.library`) and the
one special a seed's rule reads that the model has no field for (a giant's listed damage bonus, 000 Severity Rules
II). :func:`monster` makes figures of one, named ``Goblin 1`` .. ``Goblin N``, each with hit points of its own:

>>> goblins = monster("goblin", count=3, roller=Roller(seed=1))
>>> [(g.name, g.hit_points, g.thac0, g.level, g.morale) for g in goblins]
[('Goblin 1', 2, 20, 1, 6), ('Goblin 2', 1, 20, 1, 6), ('Goblin 3', 4, 20, 1, 6)]
>>> [(w.name, w.damage) for w in monster("troll", hit_points=HitPoints.AVERAGE)[0].weapons]
[('claw 1', '1d4+4'), ('claw 2', '1d4+4'), ('bite', '2d6')]

Each figure's hit points are rolled from the seed under its own key (``hit points: Goblin 2``, where a number
rolled at the table is entered), averaged (:attr:`HitPoints.AVERAGE`), or given. THAC0 comes from the Hit Dice
(DMG 2e Table 39, :func:`monster_thac0`) unless the Monstrous Manual prints another (the stirge's), and a figure's
level is the level its Hit Dice count as (:attr:`HitDice.level`).

**Characters.** :func:`character_thac0` reads PH 2e Table 53 by class group and level; :func:`character_hit_points`
rolls (or averages) the class's Hit Dice with Table 3's Constitution adjustment; :func:`character` makes a figure
with both, unless given.

>>> character_thac0("paladin", 5), character_thac0("cleric", 4), character_thac0("thief", 3), character_thac0("mage", 4)
(16, 18, 19, 19)
>>> character("Brienne", "party", "fighter", 3, hit_points=HitPoints.AVERAGE).hit_points
16

**N of a kind.** :func:`numbered` names N figures of one kind beside those already there, :func:`copies` duplicates
a figure, :func:`unique_names` numbers names that repeat, and :func:`group_of` is the kind a numbered name belongs to.

>>> numbered("Goblin", 3, taken=["Goblin 1", "Goblin 2"])
('Goblin 3', 'Goblin 4', 'Goblin 5')
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Final

from combatkit.dice import Dice, DiceNotationError, Roller, roll_key
from combatkit.errors import RulesError, is_whole
from combatkit.kinds import Length, Size, WeaponKind
from combatkit.library import Library, builtin
from combatkit.model import MOST_ATTACKS, Abilities, Combatant, Weapon

__all__ = [
    "CHARACTER_THAC0_RULE",
    "CLASS_HIT_DICE_RULE",
    "CONSTITUTION_RULE",
    "HIT_DICE_RULE",
    "MONSTER_TABLE",
    "MONSTER_THAC0_RULE",
    "MORALE_RULE",
    "MOST_OF_A_KIND",
    "ClassHitDice",
    "HitDice",
    "HitDiceError",
    "HitPoints",
    "MonsterEntry",
    "MonsterRowError",
    "MoraleRating",
    "NaturalAttack",
    "UnknownClassError",
    "UnknownMonsterError",
    "UsualWeapon",
    "character",
    "character_hit_points",
    "character_thac0",
    "class_group",
    "class_hit_dice",
    "constitution_adjustment",
    "copies",
    "find_monster",
    "group_of",
    "monster",
    "monster_entries",
    "monster_thac0",
    "monsters",
    "numbered",
    "unique_names",
]

MONSTER_TABLE: Final = "MM 2e monsters (combatkit/data/monsters_mm2e.toml)"
"""The shipped monster table, as a refusal names it."""
HIT_DICE_RULE: Final = "MM 2e Hit Dice"
MONSTER_THAC0_RULE: Final = "DMG 2e Table 39"
MORALE_RULE: Final = "DMG 2e Morale ratings, 001 I. Morale (OSE)"
CHARACTER_THAC0_RULE: Final = "PH 2e Tables 53 and 54"
CLASS_HIT_DICE_RULE: Final = "PH 2e class Hit Dice"
CONSTITUTION_RULE: Final = "PH 2e Table 3"
MOST_OF_A_KIND: Final = 100
"""The most figures :func:`monster`, :func:`numbered` or :func:`copies` makes at once."""


class HitPoints(enum.Enum):
    """How a figure's hit points come from its Hit Dice."""

    ROLLED = "rolled"
    """Rolled, each figure under its own key (``hit points: Goblin 3``): from the seed, or entered from the table."""
    AVERAGE = "average"
    """The dice's average, rounded down (as OSE prints its monsters' hit points: a goblin's 1-1 is 3, an ogre's
    4+1 is 19)."""


# ----------------------------------------------------------------- Hit Dice


class HitDiceError(RulesError):
    """Hit Dice that are not written as the Monstrous Manual writes them, or out of range."""


_HIT_DICE: Final = re.compile(r"^\s*(\d{1,4})\s*(?:/\s*(\d{1,4})|([+-])\s*(\d{1,4})(?:\s*-\s*(\d{1,4}))?)?\s*$")
"""``4``, ``1/2``, ``4+4``, ``1-1``, ``12+1-2``: the dice (or a fraction of one), then points added or taken away,
or a range of points added."""
_MOST_DICE: Final = 100
_MOST_POINTS: Final = 100
_FRACTIONS: Final = {Fraction(1, 2): 4, Fraction(1, 4): 2}
"""Less than one Hit Die: a half is a d4, a quarter a d2 (a d8's half and quarter)."""


@dataclass(frozen=True)
class HitDice:
    """A monster's Hit Dice as the Monstrous Manual prints them: ``HitDice.parse("4+4")``.

    >>> HitDice.parse("4+4")
    HitDice(dice=4, modifier=4, fraction=None, points=None)
    >>> str(HitDice.parse(" 12 + 1-2 ")), HitDice.parse("1/2").level
    ('12+1-2', 0)
    """

    dice: int
    """Eight-sided Hit Dice, 1..100 (0 with a :attr:`fraction`)."""
    modifier: int = 0
    """Hit points added (4+4) or taken away (1-1), -100..+100."""
    fraction: Fraction | None = None
    """Less than one Hit Die: 1/2 (a d4) or 1/4 (a d2)."""
    points: tuple[int, int] | None = None
    """A range of hit points added, as a giant's ``12+1-2`` (low, high; 1..100, low below high)."""

    def __post_init__(self) -> None:
        if not is_whole(self.dice) or not is_whole(self.modifier):
            raise HitDiceError(HIT_DICE_RULE, f"hit dice: dice and modifier are whole numbers, got {self.dice!r} "
                                              f"and {self.modifier!r}")
        if self.fraction is not None:
            if self.fraction not in _FRACTIONS or self.dice or self.modifier or self.points is not None:
                raise HitDiceError(HIT_DICE_RULE, f'hit dice "{self}": less than one Hit Die is 1/2 (a d4) or 1/4 '
                                                  f"(a d2), with nothing added")
            return
        if not 1 <= self.dice <= _MOST_DICE:
            raise HitDiceError(HIT_DICE_RULE, f'hit dice "{self}": a monster has 1..{_MOST_DICE} Hit Dice, or 1/2 '
                                              f"or 1/4 of one")
        if not -_MOST_POINTS <= self.modifier <= _MOST_POINTS or 8 * self.dice + self.modifier < 1:
            raise HitDiceError(HIT_DICE_RULE, f'hit dice "{self}": the points added or taken away are '
                                              f"-{_MOST_POINTS}..+{_MOST_POINTS}, and leave at least 1 hit point "
                                              f"possible")
        if self.points is not None:
            low, high = self.points
            if self.modifier or not (is_whole(low) and is_whole(high) and 1 <= low < high <= _MOST_POINTS):
                raise HitDiceError(HIT_DICE_RULE, f'hit dice "{self}": a range of points added is low-high, '
                                                  f"1..{_MOST_POINTS}, low below high, as 12+1-2")

    @classmethod
    def parse(cls, text: str | HitDice) -> HitDice:
        """Read Hit Dice as printed: ``4``, ``1/2``, ``4+4``, ``1-1``, ``12+1-2``.

        >>> HitDice.parse("4++4")
        Traceback (most recent call last):
        ...
        combatkit.monsters.HitDiceError: hit dice "4++4": write them as the Monstrous Manual does, e.g. 4, 4+4, 1-1, \
1/2 or 12+1-2 (MM 2e Hit Dice)
        """
        if isinstance(text, HitDice):
            return text
        match = _HIT_DICE.match(text) if isinstance(text, str) else None
        if match is None:
            raise HitDiceError(HIT_DICE_RULE, f"hit dice {_quoted(text)}: write them as the Monstrous Manual does, "
                                              f"e.g. 4, 4+4, 1-1, 1/2 or 12+1-2")
        dice, under, sign, added, high = match.groups()
        if under is not None:
            if int(under) == 0:
                raise HitDiceError(HIT_DICE_RULE, f'hit dice "{text.strip()}": less than one Hit Die is 1/2 (a d4) '
                                                  f"or 1/4 (a d2)")
            return cls(0, fraction=Fraction(int(dice), int(under)))
        if high is not None:
            if sign == "-":
                raise HitDiceError(HIT_DICE_RULE, f'hit dice "{text.strip()}": a range of points is added, as '
                                                  f"12+1-2, never taken away")
            return cls(int(dice), points=(int(added), int(high)))
        modifier = 0 if added is None else int(added) * (-1 if sign == "-" else 1)
        return cls(int(dice), modifier)

    def __str__(self) -> str:
        if self.fraction is not None:
            return str(self.fraction)
        if self.points is not None:
            return f"{self.dice}+{self.points[0]}-{self.points[1]}"
        return f"{self.dice}{self.modifier:+d}" if self.modifier else str(self.dice)

    @property
    def sides(self) -> int:
        """The die rolled for each Hit Die: a d8, a d4 for 1/2, a d2 for 1/4."""
        return 8 if self.fraction is None else _FRACTIONS[self.fraction]

    @property
    def level(self) -> int:
        """The level the Hit Dice count as where a rule reads one (``Combatant.level``: Table 39's THAC0, saving
        throws as a warrior, sleep's limit, 004's half the Hit Dice): the dice, and one more when three or more
        points are added (DMG 2e, Calculating THAC0: "When a creature has three or more points added to its Hit
        Dice, count another die"; a range of points counts when its least is 3 or more); 0 for less than one
        die, a level-0 figure that sleep counts as half.

        >>> [HitDice.parse(t).level for t in ("1/2", "1-1", "1+1", "4+2", "4+4", "12+1-2")]
        [0, 1, 1, 4, 5, 12]
        """
        if self.fraction is not None:
            return 0
        added = self.points[0] if self.points is not None else self.modifier
        return self.dice + (1 if added >= 3 else 0)

    def average(self) -> int:
        """Hit points averaged: 4 1/2 a d8 (2 1/2 a d4, 1 1/2 a d2), the points added, rounded down, at least 1.

        >>> [HitDice.parse(t).average() for t in ("1/2", "1-1", "4+1", "6+6", "12+1-2")]
        [2, 3, 19, 33, 55]
        """
        total = self.dice * Fraction(9, 2) + self.modifier
        if self.fraction is not None:
            total = Fraction(self.sides + 1, 2)
        if self.points is not None:
            total += Fraction(sum(self.points), 2)
        return max(1, math.floor(total))

    def roll(self, roller: Roller, purpose: str) -> int:
        """Hit points rolled under the key ``purpose``: a d8 a Hit Die (a d4 for 1/2), the points added, at least 1.
        A range of points added is its own die, under ``purpose`` with ``, points added`` after it.

        >>> HitDice.parse("1-1").roll(Roller(entered={"hit points: Goblin": 0}), "hit points: Goblin")
        1
        >>> HitDice.parse("12+1-2").roll(Roller(seed=2), "hit points: Hill giant")
        48
        """
        if self.fraction is not None:
            return roller.roll(Dice(1, self.sides), purpose).total
        total = roller.roll(Dice(self.dice, 8, self.modifier), purpose).total
        if self.points is not None:
            low, high = self.points
            total += roller.roll(Dice(1, high - low + 1, low - 1), f"{purpose}, points added").total
        return max(1, total)


def _quoted(text: object) -> str:
    """``text`` in double quotes if it is text, else its repr."""
    return f'"{text.strip()}"' if isinstance(text, str) else repr(text)


_TABLE_39: Final = (20, 19, 19, 17, 17, 15, 15, 13, 13, 11, 11, 9, 9, 7, 7, 5, 5)
"""DMG 2e Table 39 (Creature THAC0) by the level the Hit Dice count as (:attr:`HitDice.level`): 0 is "1/2 or
less", then 1 to 16, the last the table's "16+". "1-1" is a column of its own, 20."""


def monster_thac0(hit_dice: HitDice | str) -> int:
    """THAC0 from Hit Dice (DMG 2e Table 39, Creature THAC0), counting another die for three or more points added.

    >>> [monster_thac0(t) for t in ("1/2", "1-1", "1", "1+1", "2", "3+1", "4+1", "4+4", "6+6", "12+1-2", "20")]
    [20, 20, 19, 19, 19, 17, 17, 15, 13, 9, 5]
    """
    dice = HitDice.parse(hit_dice)
    if dice.dice == 1 and dice.modifier < 0:
        return 20
    return _TABLE_39[min(dice.level, len(_TABLE_39) - 1)]


# ----------------------------------------------------------------- morale


_MORALE_RATINGS: Final = {"unreliable": (2, 4), "unsteady": (5, 7), "average": (8, 10), "steady": (11, 12),
                          "elite": (13, 14), "champion": (15, 16), "fanatic": (17, 18), "fearless": (19, 20)}
"""DMG 2e's morale ratings and the 2d10 numbers each covers."""
_SPECIAL: Final = "special"
"""The Monstrous Manual's morale of mindless undead: they never check."""
_RATING: Final = re.compile(r"^\s*([A-Za-z]+)\s*(?:\(\s*(\d{1,2})\s*(?:-\s*(\d{1,2})\s*)?\))?\s*$")


def _holds(dice: int, number: int) -> Fraction:
    """The chance that 2 dice of ``dice`` sides roll ``number`` or under."""
    ways = sum(1 for a in range(1, dice + 1) for b in range(1, dice + 1) if a + b <= number)
    return Fraction(ways, dice * dice)


@dataclass(frozen=True)
class MoraleRating:
    """A morale rating as the Monstrous Manual prints it, ``"Steady (11-12)"``, and the OSE score it is played at.

    >>> [MoraleRating.parse(t).score for t in ("Average (8-10)", "Steady (11-12)", "Elite (14)", "Special")]
    [6, 7, 9, 12]
    """

    word: str
    """``"Steady"``; ``"Special"`` for mindless undead."""
    low: int | None = None
    """The least 2d10 number printed (11 of 11-12); None for Special."""
    high: int | None = None
    """The greatest (12 of 11-12, 14 of a lone 14); None for Special."""

    @classmethod
    def parse(cls, text: str) -> MoraleRating:
        """Read ``"Steady (11-12)"``, ``"Elite (14)"``, ``"Steady"`` (its whole range) or ``"Special"``, checking the
        numbers lie in the word's range."""
        match = _RATING.match(text) if isinstance(text, str) else None
        word = match.group(1).lower() if match else ""
        if match is None or (word not in _MORALE_RATINGS and word != _SPECIAL):
            known = ", ".join(f"{w.title()} ({a}-{b})" for w, (a, b) in _MORALE_RATINGS.items())
            raise RulesError(MORALE_RULE, f"morale {_quoted(text)}: a rating is one of {known}, as \"Steady (11-12)\" "
                                          f"or \"Elite (14)\", or Special")
        if word == _SPECIAL:
            if match.group(2) is not None:
                raise RulesError(MORALE_RULE, f'morale "{text.strip()}": Special takes no numbers')
            return cls(match.group(1))
        least, most = _MORALE_RATINGS[word]
        low, high = least, most
        if match.group(2) is not None:
            low = int(match.group(2))
            high = low if match.group(3) is None else int(match.group(3))
        if not least <= low <= high <= most:
            raise RulesError(MORALE_RULE, f'morale "{text.strip()}": {word.title()} is {least}-{most}')
        return cls(match.group(1), low, high)

    def __str__(self) -> str:
        if self.low is None:
            return self.word
        return f"{self.word} ({self.low})" if self.low == self.high else f"{self.word} ({self.low}-{self.high})"

    @property
    def score(self) -> int:
        """The OSE morale score, 2..12, that a figure holds at or under on 2d6 (001 I. Morale): the one whose chance of
        holding is nearest the rating's on 2d10 at or under it (DMG 2e), a printed range read at its middle (the
        chances averaged), a tie going to the lower score; 12 (never breaks) for Special."""
        if self.low is None or self.high is None:
            return 12
        numbers = range(self.low, self.high + 1)
        chance = sum((_holds(10, n) for n in numbers), Fraction(0)) / len(numbers)
        return min(range(2, 13), key=lambda score: (abs(_holds(6, score) - chance), score))


# ----------------------------------------------------------------- the monster table


class UnknownMonsterError(RulesError):
    """A monster no table has, with the names nearest it."""


class MonsterRowError(RulesError):
    """A row of a monster table with a missing, mistyped or impossible field; ``field`` is its path
    (``monster[3].hit_dice``)."""

    def __init__(self, rule: str, field: str, message: str, name: str = "") -> None:
        super().__init__(rule, f"{field} ({name}): {message}" if name else f"{field}: {message}")
        self.field = field


@dataclass(frozen=True)
class NaturalAttack:
    """One natural attack of a routine: a claw, a bite."""

    name: str
    """``"claw"``; a name that repeats in the routine is numbered on the figure (``claw 1``, ``claw 2``)."""
    damage: str
    """Dice, ``"1d4+4"``."""


@dataclass(frozen=True)
class UsualWeapon:
    """A weapon a monster that attacks by weapon usually carries."""

    name: str
    """By the name of the PH 2e weapon table: ``"short sword"``."""
    damage: str | None = None
    """The damage the Monstrous Manual prints for it (an ogre's club, 1d10); None: the weapon's own."""

    def weapon(self, library: Library, damage: str | None) -> Weapon:
        """The weapon: the library's of its name (:mod:`combatkit.library`), doing the damage printed for it if any;
        a weapon the library lacks is a plain one of its name, doing that damage or else ``damage``."""
        if library.knows(self.name):
            return library.weapon(self.name) if self.damage is None else library.weapon(self.name, damage=self.damage)
        chosen = self.damage or damage
        return Weapon(self.name) if chosen is None else Weapon(self.name, damage=chosen)


@dataclass(frozen=True)
class MonsterEntry:
    """One monster of a table: its numbers as printed, and where they are printed."""

    name: str
    """The name its figures take: ``"Goblin"`` (``Goblin 1`` .. ``Goblin N``)."""
    hit_dice: HitDice
    """As printed: ``1-1``, ``4+4``, ``1/2``, ``12+1-2``."""
    armor_class: int
    """AC, 10 down to -10."""
    movement: int
    """MV on the ground, 0..240."""
    size: Size
    """Size (000 Table 2: the SF of its natural attacks)."""
    morale: MoraleRating
    """As printed; its figures' morale is its :attr:`~MoraleRating.score`."""
    source: str
    """Where its numbers are printed: ``"MM 2e, Troll"``."""
    aliases: tuple[str, ...] = ()
    """Other names it is found by (``"bear"`` for the brown bear)."""
    attacks: tuple[NaturalAttack, ...] = ()
    """Its natural attacks, as many as its attacks a round; none for a monster that attacks by weapon."""
    weapons: tuple[UsualWeapon, ...] = ()
    """Its usual weapons, for a monster that attacks by weapon."""
    damage: str | None = None
    """The damage printed for a monster that attacks by weapon: a usual weapon's that the weapon library lacks."""
    printed_thac0: int | None = None
    """THAC0 where the Monstrous Manual prints other than Table 39 gives for the Hit Dice (a stirge's 17)."""
    listed_damage_bonus: int = 0
    """A damage bonus listed without a to-hit bonus, a giant's Strength (000 Severity Rules II: a fight takes it as
    ``FigureExtras(listed_damage_bonus=...)`` in ``ResolutionOptions.figures``)."""

    @classmethod
    def from_row(cls, row: Mapping[str, Any], where: str, rule: str = MONSTER_TABLE) -> MonsterEntry:
        """A row of a monster table (a ``[[monster]]`` table of TOML), refused by its field: ``where`` is the row's
        path (``monster[3]``), ``rule`` the table it belongs to."""
        return _Row(row, where, rule).entry()

    @property
    def by_weapon(self) -> bool:
        """It attacks by weapon, not with natural attacks."""
        return not self.attacks

    @property
    def thac0(self) -> int:
        """As printed, else from the Hit Dice (:func:`monster_thac0`)."""
        return monster_thac0(self.hit_dice) if self.printed_thac0 is None else self.printed_thac0

    @property
    def attacks_per_round(self) -> int:
        """Its natural attacks (one routine a round, 000 §2 C), else 1."""
        return len(self.attacks) or 1

    def figure_weapons(self, library: Library | None = None) -> tuple[Weapon, ...]:
        """What its figures attack with: its natural attacks as natural weapons (000 Table 2: their SF is the size's)
        of short length, a repeated name numbered; or its usual weapons from ``library`` (default: the shipped PH
        2e weapons), as :meth:`UsualWeapon.weapon` makes them."""
        if not self.by_weapon:
            names = unique_names([a.name for a in self.attacks])
            return tuple(Weapon(name, kind=WeaponKind.NATURAL, length=Length.SHORT, damage=attack.damage)
                         for name, attack in zip(names, self.attacks))
        weapons = builtin() if library is None else library
        return tuple(w.weapon(weapons, self.damage) for w in self.weapons)

    def combatant(self, name: str, side: str, hit_points: int, library: Library | None = None) -> Combatant:
        """One figure of it, a ``"monster"`` of its Hit Dice's level, its usual weapons from ``library``."""
        return Combatant(name, side, level=self.hit_dice.level, char_class="monster", size=self.size,
                         movement=self.movement, armor_class=self.armor_class, thac0=self.thac0,
                         hit_points=hit_points, attacks_per_round=Fraction(self.attacks_per_round),
                         weapons=self.figure_weapons(library), morale=self.morale.score)


_ROW_KEYS: Final = ("name", "aliases", "hit_dice", "ac", "mv", "size", "morale", "attacks", "by_weapon", "weapons",
                    "damage", "thac0", "listed_damage_bonus", "source")
_REQUIRED: Final = ("name", "hit_dice", "ac", "mv", "size", "morale", "source")


class _Row:
    """One row of a monster table being read: each field checked, a refusal naming its path."""

    def __init__(self, row: Mapping[str, Any], where: str, rule: str) -> None:
        self.row = row
        self.where = where
        self.rule = rule

    def bad(self, key: str, message: str) -> MonsterRowError:
        """The refusal of the row's field ``key``, naming the row's monster if it has a name."""
        name = self.row.get("name") if isinstance(self.row, Mapping) else None
        named = name.strip() if isinstance(name, str) else ""
        return MonsterRowError(self.rule, f"{self.where}.{key}", message, named)

    def text(self, key: str, value: Any) -> str:
        """``value`` of the field ``key``, text that is not empty, stripped."""
        if not isinstance(value, str) or not value.strip():
            raise self.bad(key, f"is text, not empty, got {value!r}")
        return value.strip()

    def whole(self, key: str, low: int, high: int) -> int:
        """The field ``key``, a whole number of ``low..high``."""
        value = self.row[key]
        if not is_whole(value) or not low <= value <= high:
            raise self.bad(key, f"is a whole number, {low}..{high}, got {value!r}")
        return value

    def dice(self, key: str, value: Any) -> str:
        """``value`` of the field ``key``, dice notation."""
        try:
            Dice.parse(value)
        except DiceNotationError as error:
            raise self.bad(key, str(error)) from None
        return str(value)

    def entry(self) -> MonsterEntry:
        """The row's entry, each field checked."""
        if not isinstance(self.row, Mapping):
            raise MonsterRowError(self.rule, self.where, f"a monster is a table of fields, got {self.row!r}")
        unknown = [k for k in self.row if k not in _ROW_KEYS]
        if unknown:
            raise self.bad(str(unknown[0]), f"no such field; a monster's are {', '.join(_ROW_KEYS)}")
        missing = [k for k in _REQUIRED if k not in self.row]
        if missing:
            raise self.bad(missing[0], "is missing")
        row = self.row
        printed = self.text("hit_dice", row["hit_dice"]), self.text("morale", row["morale"])
        try:
            hit_dice, morale = HitDice.parse(printed[0]), MoraleRating.parse(printed[1])
        except RulesError as error:
            key = "hit_dice" if isinstance(error, HitDiceError) else "morale"
            raise self.bad(key, error.message) from None
        sizes = {s.value: s for s in Size}
        if not isinstance(row["size"], str) or row["size"] not in sizes:
            raise self.bad("size", f"is one of {', '.join(sizes)}, got {row['size']!r}")
        attacks, weapons, by_weapon = self.attacks(), self.weapons(), row.get("by_weapon", False)
        if type(by_weapon) is not bool:
            raise self.bad("by_weapon", f"is true or false, got {by_weapon!r}")
        if by_weapon is (attacks != ()):
            raise self.bad("by_weapon" if "by_weapon" in row else "attacks",
                           "a monster has natural attacks or attacks by weapon (by_weapon = true): one, not both")
        if by_weapon and ("damage" not in row or not weapons):
            raise self.bad("weapons" if not weapons else "damage",
                           "one that attacks by weapon has its usual weapons and the damage printed for it")
        if not by_weapon and ("damage" in row or "weapons" in row):
            raise self.bad("damage" if "damage" in row else "weapons",
                           "only one that attacks by weapon (by_weapon = true) has weapons and a damage")
        aliases = row.get("aliases", [])
        if not isinstance(aliases, list):
            raise self.bad("aliases", f"is a list of names, got {aliases!r}")
        return MonsterEntry(
            self.text("name", row["name"]), hit_dice, self.whole("ac", -10, 10), self.whole("mv", 0, 240),
            sizes[row["size"]], morale, self.text("source", row["source"]),
            aliases=tuple(self.text(f"aliases[{i}]", a) for i, a in enumerate(aliases)), attacks=attacks,
            weapons=weapons, damage=self.dice("damage", row["damage"]) if "damage" in row else None,
            printed_thac0=self.whole("thac0", -10, 25) if "thac0" in row else None,
            listed_damage_bonus=self.whole("listed_damage_bonus", 0, 20) if "listed_damage_bonus" in row else 0)

    def attacks(self) -> tuple[NaturalAttack, ...]:
        """Its natural attacks, ``{ name, damage }`` each."""
        given = self.row.get("attacks", [])
        if not isinstance(given, list) or len(given) > MOST_ATTACKS:
            raise self.bad("attacks", f"is a list of at most {MOST_ATTACKS} natural attacks, "
                                      f'{{ name = "claw", damage = "1d4" }}, got {given!r}')
        found = []
        for i, attack in enumerate(given):
            where = f"attacks[{i}]"
            if not isinstance(attack, Mapping) or set(attack) != {"name", "damage"}:
                raise self.bad(where, f'is {{ name = "claw", damage = "1d4" }}, got {attack!r}')
            found.append(NaturalAttack(self.text(f"{where}.name", attack["name"]),
                                       self.dice(f"{where}.damage", attack["damage"])))
        return tuple(found)

    def weapons(self) -> tuple[UsualWeapon, ...]:
        """Its usual weapons, a name or ``{ name, damage }`` each, no name twice."""
        given = self.row.get("weapons", [])
        if not isinstance(given, list):
            raise self.bad("weapons", f'is a list of weapon names, or {{ name, damage }} tables, got {given!r}')
        found = []
        for i, weapon in enumerate(given):
            where = f"weapons[{i}]"
            if isinstance(weapon, str):
                found.append(UsualWeapon(self.text(where, weapon)))
            elif isinstance(weapon, Mapping) and set(weapon) == {"name", "damage"}:
                found.append(UsualWeapon(self.text(f"{where}.name", weapon["name"]),
                                         self.dice(f"{where}.damage", weapon["damage"])))
            else:
                raise self.bad(where, f'is a weapon name, or {{ name = "club", damage = "1d10" }}, got {weapon!r}')
            if found[-1].name in [w.name for w in found[:-1]]:
                raise self.bad(where, f"names {found[-1].name!r} twice: a figure's weapons have names of their own")
        return tuple(found)


def monster_entries(rows: Any, rule: str = MONSTER_TABLE) -> tuple[MonsterEntry, ...]:
    """The entries of a table's ``[[monster]]`` rows (a DM's library file takes the shipped table's form:
    ``Library.load(path).monsters``), each refused by its field (``monster[3].hit_dice``), and a name or alias two rows
    share refused, under ``rule`` (the table's name)."""
    if not isinstance(rows, (list, tuple)):
        raise MonsterRowError(rule, "monster", f"is a list of [[monster]] tables, got {rows!r}")
    entries = tuple(MonsterEntry.from_row(row, f"monster[{i}]", rule) for i, row in enumerate(rows))
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        for name in (entry.name, *entry.aliases):
            key = name.lower()
            if key in seen:
                raise MonsterRowError(rule, f"monster[{i}]", f"{name!r} names monster[{seen[key]}] already")
            seen[key] = i
    return entries


@cache
def _entries() -> tuple[MonsterEntry, ...]:
    text = resources.files("combatkit.data").joinpath("monsters_mm2e.toml").read_text(encoding="utf-8")
    return monster_entries(tomllib.loads(text).get("monster"))


@cache
def _index() -> dict[str, MonsterEntry]:
    """Every shipped entry by its name and aliases, lower case."""
    return {name.lower(): entry for entry in _entries() for name in (entry.name, *entry.aliases)}


def monsters() -> tuple[str, ...]:
    """The names of the shipped monsters, in the table's order.

    >>> monsters()[:4]
    ('Kobold', 'Goblin', 'Hobgoblin', 'Orc')
    """
    return tuple(entry.name for entry in _entries())


def find_monster(name: str, own: Sequence[MonsterEntry] = (), table: str = "") -> MonsterEntry:
    """The entry called ``name`` (or one of its aliases), whatever its case: among ``own`` first (a DM's table
    called ``table``, :func:`monster_entries`, whose entries shadow the shipped ones), else the shipped one.

    >>> find_monster("bear").name, find_monster("HILL GIANT").source
    ('Brown bear', 'MM 2e, Giant (hill giant)')
    >>> find_monster("hobgoblyn")
    Traceback (most recent call last):
    ...
    combatkit.monsters.UnknownMonsterError: no monster "hobgoblyn" in the table; did you mean "hobgoblin" or "goblin"? \
(MM 2e monsters (combatkit/data/monsters_mm2e.toml))
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    index = _index() | {n.lower(): entry for entry in own for n in (entry.name, *entry.aliases)}
    if key in index:
        return index[key]
    close = difflib.get_close_matches(key, list(index), n=3, cutoff=0.6)
    names = dict.fromkeys([*(entry.name for entry in own), *monsters()])
    hint = "; did you mean " + " or ".join(f'"{c}"' for c in close) + "?" if close else f"; it has {', '.join(names)}"
    where, rule = ("the table", MONSTER_TABLE) if not own else (f"{table} or the shipped table",
                                                                f"{table}; {MONSTER_TABLE}")
    raise UnknownMonsterError(rule, f"no monster {_quoted(name)} in {where}{hint}")


def monster(name: str | MonsterEntry, *, count: int = 1, name_as: str | None = None,
            hit_points: HitPoints | Sequence[int] = HitPoints.ROLLED, roller: Roller | None = None,
            side: str = "monsters", taken: Iterable[str] = (), library: Library | None = None
            ) -> tuple[Combatant, ...]:
    """``count`` figures of the monster ``name`` (a shipped one, by name or alias, or an entry of a DM's table) on
    ``side``: named ``name_as`` (the entry's name by default), numbered past the names ``taken`` already
    (:func:`numbered`: ``Goblin`` alone, or ``Goblin 1`` .. ``Goblin N``), their hit points each rolled with
    ``roller`` under ``hit points: <name>``, averaged, or the numbers given, one a figure; their usual weapons from
    ``library`` (default: the shipped PH 2e weapons).

    >>> [(g.name, g.hit_points) for g in monster("orc", count=2, hit_points=[5, 8], taken=["Orc 1"])]
    [('Orc 2', 5), ('Orc 3', 8)]
    """
    entry = name if isinstance(name, MonsterEntry) else find_monster(name)
    names = numbered(entry.name if name_as is None else name_as, count, taken)
    if isinstance(hit_points, HitPoints):
        if hit_points is HitPoints.AVERAGE:
            return tuple(entry.combatant(n, side, entry.hit_dice.average(), library) for n in names)
        if roller is None:
            raise RulesError(HIT_DICE_RULE, f"{names[0]}: rolled hit points need a roller (Roller(seed=...), with any "
                                            f"number rolled at the table entered), or HitPoints.AVERAGE, or the "
                                            f"hit points given")
        return tuple(entry.combatant(n, side, entry.hit_dice.roll(roller, roll_key("hit points", n)), library)
                     for n in names)
    given = list(hit_points) if isinstance(hit_points, Sequence) and not isinstance(hit_points, str) else None
    if given is None or len(given) != count or not all(is_whole(p) and p >= 0 for p in given):
        raise RulesError(HIT_DICE_RULE, f"{entry.name}: hit points given are {count} whole numbers, 0 or more, one a "
                                        f"figure; got {hit_points!r}")
    return tuple(entry.combatant(n, side, p, library) for n, p in zip(names, given))


# ----------------------------------------------------------------- N of a kind


_NUMBERED: Final = re.compile(r"^(.*\S) (\d{1,6})$")


def group_of(name: str) -> str:
    """The kind a numbered figure belongs to: ``Goblin`` of ``Goblin 3`` (and of ``Goblin``), the name a group of
    them goes by ("each goblin").

    >>> group_of("Goblin 3"), group_of("Hill giant"), group_of("Goblin")
    ('Goblin', 'Hill giant', 'Goblin')
    """
    match = _NUMBERED.match(name)
    return match.group(1) if match else name


def numbered(base: str, count: int, taken: Iterable[str] = ()) -> tuple[str, ...]:
    """Names for ``count`` figures of the kind ``base`` beside the names ``taken``: ``base`` alone for one when
    none of its kind is there, else ``base 1`` .. ``base N`` numbered on from the highest taken (a lone ``base``
    taken counts as 1).

    >>> numbered("Goblin", 1), numbered("Goblin", 2), numbered("Goblin", 1, taken=["Goblin"])
    (('Goblin',), ('Goblin 1', 'Goblin 2'), ('Goblin 2',))
    """
    if not isinstance(base, str) or not base.strip():
        raise RulesError("encounter", f"a figure needs a name, got {base!r}")
    if not is_whole(count) or not 1 <= count <= MOST_OF_A_KIND:
        raise RulesError("encounter", f"{base}: 1..{MOST_OF_A_KIND} figures of a kind, got {count!r}")
    base = base.strip()
    used = []
    for name in taken:
        match = _NUMBERED.match(name)
        if name == base:
            used.append(1)
        elif match and match.group(1) == base:
            used.append(int(match.group(2)))
    if count == 1 and not used:
        return (base,)
    first = max(used, default=0) + 1
    return tuple(f"{base} {n}" for n in range(first, first + count))


def unique_names(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` in order, each name that repeats numbered (``Goblin 1``, ``Goblin 2``) past any number a name of the
    list has already; a name given once is kept.

    >>> unique_names(["Goblin", "Orc", "Goblin", "Goblin 2"])
    ('Goblin 1', 'Orc', 'Goblin 3', 'Goblin 2')
    """
    names = list(names)
    counts = Counter(names)
    taken = set(names)
    last: dict[str, int] = {}
    found = []
    for name in names:
        if counts[name] == 1:
            found.append(name)
            continue
        n = last.get(name, 0) + 1
        while f"{name} {n}" in taken:
            n += 1
        last[name] = n
        taken.add(f"{name} {n}")
        found.append(f"{name} {n}")
    return tuple(found)


def copies(combatant: Combatant, n: int, taken: Iterable[str] = ()) -> tuple[Combatant, ...]:
    """``n`` figures like ``combatant``, named for its kind (:func:`group_of`) past the names ``taken`` (give the
    encounter's, the original's among them, to duplicate it; leave its own name out to make ``n`` of a template).

    >>> [c.name for c in copies(Combatant("Goblin 2", "monsters"), 2, taken=["Goblin 1", "Goblin 2"])]
    ['Goblin 3', 'Goblin 4']
    >>> [c.name for c in copies(Combatant("Goblin", "monsters"), 3)]
    ['Goblin 1', 'Goblin 2', 'Goblin 3']
    """
    return tuple(dataclasses.replace(combatant, name=name) for name in numbered(group_of(combatant.name), n, taken))


# ----------------------------------------------------------------- characters


class UnknownClassError(RulesError):
    """A character class in no PH 2e class group."""


@cache
def _class_groups() -> dict[str, str]:
    """Each class's group, as ``saving_throws_ph2e.toml`` lists them (PH 2e: warrior, priest, rogue, wizard)."""
    text = resources.files("combatkit.data").joinpath("saving_throws_ph2e.toml").read_text(encoding="utf-8")
    return {name: group for name, group in tomllib.loads(text)["groups"].items() if name != "monster"}


def class_group(char_class: str) -> str:
    """The PH 2e group of a character class: warrior (fighter, paladin, ranger), priest (cleric, druid), rogue
    (thief, bard) or wizard (mage, illusionist). A monster has none: its THAC0 and hit points come from its Hit Dice.

    >>> class_group("Ranger"), class_group("druid"), class_group("bard"), class_group("illusionist")
    ('warrior', 'priest', 'rogue', 'wizard')
    """
    key = char_class.strip().lower() if isinstance(char_class, str) else ""
    groups = _class_groups()
    if key in groups:
        return groups[key]
    if key == "monster":
        raise UnknownClassError(CHARACTER_THAC0_RULE, "a monster has no class group: its THAC0 comes from its Hit "
                                                      "Dice (DMG 2e Table 39), its hit points from them too")
    close = difflib.get_close_matches(key, list(groups), n=1, cutoff=0.6)
    hint = f'; did you mean "{close[0]}"?' if close else f"; known: {', '.join(sorted(groups))}"
    raise UnknownClassError(CHARACTER_THAC0_RULE, f"no character class {_quoted(char_class)} in PH 2e's class "
                                                  f"groups{hint}")


_ADVANCEMENT: Final = {"warrior": (1, 1), "priest": (2, 3), "rogue": (1, 2), "wizard": (1, 3)}
"""PH 2e Table 54 (THAC0 Advancement): a group's THAC0 improves by so many points every so many levels."""


def _level(level: object, rule: str) -> int:
    if not is_whole(level) or not 0 <= level <= 40:
        raise RulesError(rule, f"a level is a whole number, 0..40, got {level!r}")
    return level


def character_thac0(char_class: str, level: int) -> int:
    """A character's THAC0 (PH 2e Table 53, Calculated THAC0s; Table 54's rates past 20th level): 20 at 1st level,
    then a warrior 1 better a level, a priest 2 every 3 levels, a rogue 1 every 2, a wizard 1 every 3. Level 0 is
    taken as 1st (the table starts there).

    >>> [character_thac0("fighter", n) for n in (0, 1, 5, 10, 20)], [character_thac0("wizard", n) for n in (1, 4)]
    ([20, 20, 16, 11, 1], [20, 19])
    """
    group = class_group(char_class)
    level = _level(level, CHARACTER_THAC0_RULE)
    points, levels = _ADVANCEMENT[group]
    thac0 = 20 - points * ((max(level, 1) - 1) // levels)
    if thac0 < -10:
        raise RulesError(CHARACTER_THAC0_RULE, f"a {char_class} of level {level} would need THAC0 {thac0}; "
                                               f"combatkit's THAC0 is -10..25")
    return thac0


@dataclass(frozen=True)
class ClassHitDice:
    """A class group's Hit Dice (PH 2e, each class's description)."""

    sides: int
    """The die a level: d10, d8, d6, d4."""
    dice_levels: int
    """The levels that roll a die (9 or 10); each later level adds :attr:`per_level`."""
    per_level: int
    """Hit points each level past :attr:`dice_levels` adds, without a Constitution adjustment."""


_CLASS_HIT_DICE: Final = {"warrior": ClassHitDice(10, 9, 3), "priest": ClassHitDice(8, 9, 2),
                          "rogue": ClassHitDice(6, 10, 2), "wizard": ClassHitDice(4, 10, 1)}


def class_hit_dice(char_class: str) -> ClassHitDice:
    """A class's Hit Dice, by its group: warrior d10 to 9th level then +3 a level, priest d8 to 9th then +2, rogue
    d6 to 10th then +2, wizard d4 to 10th then +1.

    >>> class_hit_dice("paladin")
    ClassHitDice(sides=10, dice_levels=9, per_level=3)
    """
    return _CLASS_HIT_DICE[class_group(char_class)]


_CON_HIT_POINTS: Final = {1: -3, 2: -2, 3: -2, 4: -1, 5: -1, 6: -1, 15: 1, 16: 2}
"""PH 2e Table 3, Hit Point Adjustment, for CON 1..16 (7..14: 0); 17 and more give +2."""
_CON_WARRIOR: Final = {17: 3, 18: 4, 19: 5, 20: 5, 21: 6, 22: 6, 23: 6, 24: 7, 25: 7}
"""Table 3's adjustment in parentheses, for warriors only, CON 17..25."""
_CON_LEAST_FACE: Final = {20: 2, 21: 3, 22: 3, 23: 4, 24: 4, 25: 4}
"""Table 3's notes for CON 20..25: a Hit Die's 1s count as 2s (20), 1s and 2s as 3s (21, 22), 1s to 3s as 4s."""


def constitution_adjustment(constitution: int, char_class: str) -> int:
    """Hit points added to each Hit Die for a CON of 1..25 (PH 2e Table 3): a warrior's own column from 17 up.

    >>> constitution_adjustment(16, "mage"), constitution_adjustment(18, "mage"), constitution_adjustment(18, "fighter")
    (2, 2, 4)
    """
    if not is_whole(constitution) or not 1 <= constitution <= 25:
        raise RulesError(CONSTITUTION_RULE, f"an ability score is 1..25, got CON {constitution!r}")
    if constitution >= 17:
        return _CON_WARRIOR[constitution] if class_group(char_class) == "warrior" else 2
    return _CON_HIT_POINTS.get(constitution, 0)


def character_hit_points(char_class: str, level: int, *, hit_points: HitPoints = HitPoints.ROLLED,
                         roller: Roller | None = None, constitution: int | None = None, name: str = "") -> int:
    """A character's hit points at ``level`` (1..40) from its class's Hit Dice (:func:`class_hit_dice`): the dice,
    rolled with ``roller`` under ``hit points: <name>`` or averaged (rounded down), each adjusted for
    ``constitution`` (PH 2e Table 3; none when it is None) and at least 1, then the hit points each level past the
    dice adds. A total entered for the roll takes the adjustment once a die, and stands for at least 1 a die.

    >>> character_hit_points("fighter", 10, hit_points=HitPoints.AVERAGE, constitution=16)
    70
    >>> character_hit_points("mage", 1, roller=Roller(entered={"hit points: Mira": 1}), constitution=20, name="Mira")
    4
    """
    sides, dice_levels, per_level = dataclasses.astuple(class_hit_dice(char_class))
    level = _level(level, CLASS_HIT_DICE_RULE)
    if level < 1:
        raise RulesError(CLASS_HIT_DICE_RULE, f"class Hit Dice start at 1st level; give a level-0 figure's hit "
                                              f"points, got level {level}")
    dice = min(level, dice_levels)
    more = per_level * (level - dice)
    adjust = 0 if constitution is None else constitution_adjustment(constitution, char_class)
    least = 1 if constitution is None else _CON_LEAST_FACE.get(constitution, 1)

    def die(face: int) -> int:
        return max(1, max(face, least) + adjust)

    if hit_points is HitPoints.AVERAGE:
        return math.floor(dice * Fraction(sum(die(face) for face in range(1, sides + 1)), sides)) + more
    if roller is None:
        raise RulesError(CLASS_HIT_DICE_RULE, f"{name or char_class}: rolled hit points need a roller "
                                              f"(Roller(seed=...)), or HitPoints.AVERAGE, or the hit points given")
    roll = roller.roll(Dice(dice, sides), roll_key("hit points", name))
    if roll.faces is None:
        return max(dice, roll.total + adjust * dice) + more
    return sum(die(face) for face in roll.faces) + more


def character(name: str, side: str, char_class: str = "fighter", level: int = 1, *,
              hit_points: HitPoints | int = HitPoints.ROLLED, roller: Roller | None = None, thac0: int | None = None,
              constitution_bonus: bool = True, **fields: Any) -> Combatant:
    """A character of ``char_class`` at ``level``: THAC0 from PH 2e Table 53 unless given, hit points from the
    class's Hit Dice (:func:`character_hit_points`, rolled or averaged, with its ``abilities``' Constitution
    adjustment unless ``constitution_bonus`` is False) unless given as a number; ``fields`` are the
    :class:`~combatkit.model.Combatant`'s others (``abilities``, ``weapons``, ``armor_class``...).

    >>> c = character("Mira", "party", "mage", 5, roller=Roller(seed=4), abilities=Abilities(constitution=15))
    >>> c.thac0, c.hit_points
    (19, 19)
    """
    if isinstance(hit_points, HitPoints):
        abilities = fields.get("abilities", Abilities())
        constitution = abilities.constitution if constitution_bonus else None
        hit_points = character_hit_points(char_class, level, hit_points=hit_points, roller=roller,
                                          constitution=constitution, name=name)
    return Combatant(name, side, level=level, char_class=char_class,
                     thac0=character_thac0(char_class, level) if thac0 is None else thac0, hit_points=hit_points,
                     **fields)
