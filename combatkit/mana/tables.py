"""The tables the mana engine reads, loaded from ``combatkit/data`` with importlib.resources.

* 000 §5 Mana System I, the base-mana table (``mana_base.csv``, as printed, with its
  ``--`` and ``*`` marks);
* the Player's Handbook (2e) spell progressions it is built on: wizard (PH Table 21),
  priest (PH Table 24), paladin (PH Table 17, Paladin Spell Progression) and ranger
  (PH Table 18);
* priest bonus spells for Wisdom (PH Table 5) and the Intelligence limits on a
  wizard's spells (PH Table 4).

The seed's table and the rule it states ("one point per spell level per spell") agree
for priests and wizards and not for rangers and paladins, whose printed columns are
the PH casting-level column. :func:`base_mana_comparison` lays the two side by side:

>>> [(row.level, row.printed, row.computed) for row in base_mana_comparison(CasterClass.PALADIN)][-1]
(20, 9, 30)

PH Table 17 is the 2nd-edition table, not the 1st-edition one it grew from: the 2e
paladin gets a second 3rd-level spell at 16th level and a third at 17th (the 1st-edition
table: 17th and 18th), so the 2e 17th and 18th rows are the same.

>>> [progression(CasterClass.PALADIN, level).spells for level in (16, 17, 18)]
[(3, 3, 2, 1), (3, 3, 3, 1), (3, 3, 3, 1)]
"""

from __future__ import annotations

import csv
import enum
import functools
import io
from dataclasses import dataclass
from importlib import resources

from combatkit.errors import RulesError, is_whole

__all__ = [
    "MAX_CASTER_LEVEL",
    "BaseManaRow",
    "CasterClass",
    "IntelligenceLimits",
    "ProgressionRow",
    "base_mana_comparison",
    "computed_base_mana",
    "intelligence_limits",
    "ordinal",
    "printed_base_mana",
    "progression",
    "wisdom_bonus_spells",
]

MAX_CASTER_LEVEL = 20
"""The base-mana table's last row (000 §5 Mana System I); the PH wizard and priest tables also stop here."""

_DASH = "--"
_ALL = "All"


class CasterClass(enum.Enum):
    """A class with a PH spell progression that 000 §5's base-mana table covers."""

    PRIEST = "priest"
    WIZARD = "wizard"
    RANGER = "ranger"
    PALADIN = "paladin"

    @property
    def prime_requisite(self) -> str:
        """The ability 000 §5 Starting Mana Option 2 averages with CON: "Wisdom or
        Intelligence depending on the type of magic". Rangers and paladins cast priest
        spells, so theirs is Wisdom."""
        return "intelligence" if self is CasterClass.WIZARD else "wisdom"

    @property
    def progression_table(self) -> str:
        """The PH table of this class's spell progression, as a citation: ``"PH Table 24"`` for priests."""
        return _PROGRESSION_TABLES[self]


_PROGRESSION_TABLES = {
    CasterClass.WIZARD: "PH Table 21",
    CasterClass.PRIEST: "PH Table 24",
    CasterClass.PALADIN: "PH Table 17",
    CasterClass.RANGER: "PH Table 18",
}
_PROGRESSION_FILES = {
    CasterClass.WIZARD: "ph_spells_wizard.csv",
    CasterClass.PRIEST: "ph_spells_priest.csv",
    CasterClass.PALADIN: "ph_spells_paladin.csv",
    CasterClass.RANGER: "ph_spells_ranger.csv",
}


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... as the PH prints spell levels.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 9)]
    ['1st', '2nd', '3rd', '4th', '9th']
    """
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number if number < 20 else number % 10, "th")
    return f"{number}{suffix}"


def _from_ordinal(text: str) -> int:
    return int(text.strip()[:-2])


def _read_csv(name: str) -> list[dict[str, str]]:
    text = (resources.files("combatkit.data") / name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def check_caster_level(level: int) -> None:
    """Raise unless ``level`` is a caster level the base-mana table has a row for (1..20)."""
    if not is_whole(level) or not 1 <= level <= MAX_CASTER_LEVEL:
        raise RulesError(
            "000 §5 Mana System I",
            f"caster level must be 1..{MAX_CASTER_LEVEL} (the rows of the base-mana table), got {level!r}",
        )


@dataclass(frozen=True)
class ProgressionRow:
    """One row of a PH spell progression: how many spells of each level a caster memorizes."""

    caster_class: CasterClass
    """Whose table."""
    level: int
    """Character level, 1..20."""
    spells: tuple[int, ...]
    """Spells per spell level, first entry 1st level; ``()`` for a ranger or paladin who casts none yet."""
    casting_level: int | None
    """The paladin's or ranger's casting level (PH Tables 17, 18); None for priests and wizards,
    and for a ranger or paladin below the table's first row."""

    @property
    def highest_spell_level(self) -> int:
        """The highest spell level with at least one spell; 0 when the caster casts nothing."""
        return max((index + 1 for index, count in enumerate(self.spells) if count), default=0)

    @property
    def points(self) -> int:
        """000 §5 Mana System I's rule: "one point per spell level per spell" over this row."""
        return sum((index + 1) * count for index, count in enumerate(self.spells))


@functools.cache
def _progression_rows(caster_class: CasterClass) -> dict[int, ProgressionRow]:
    rows = {}
    for record in _read_csv(_PROGRESSION_FILES[caster_class]):
        level = int(record.pop("level"))
        casting = record.pop("casting_level", None)
        counts = tuple(0 if cell == _DASH else int(cell) for cell in record.values())
        while counts and not counts[-1]:
            counts = counts[:-1]
        rows[level] = ProgressionRow(caster_class, level, counts, None if casting is None else int(casting))
    return rows


def progression(caster_class: CasterClass, level: int) -> ProgressionRow:
    """The PH spell-progression row for a caster of ``level`` (1..20).

    Below a ranger's or paladin's first row the caster has no spells. Above the ranger
    table's last row (16th) the 16th-level row holds: PH Table 18 marks it "maximum
    spell ability".

    >>> progression(CasterClass.PRIEST, 5).spells
    (3, 3, 1)
    >>> progression(CasterClass.RANGER, 20).spells
    (3, 3, 3)
    """
    check_caster_level(level)
    rows = _progression_rows(caster_class)
    if level in rows:
        return rows[level]
    if level < min(rows):
        return ProgressionRow(caster_class, level, (), None)
    top = rows[max(rows)]
    return ProgressionRow(caster_class, level, top.spells, top.casting_level)


@functools.cache
def _printed_table() -> dict[tuple[CasterClass, int], str]:
    cells = {}
    for record in _read_csv("mana_base.csv"):
        level = int(record.pop("level"))
        for column, text in record.items():
            cells[CasterClass(column), level] = text.strip()
    return cells


def printed_base_mana(caster_class: CasterClass, level: int) -> int:
    """000 §5 Mana System I, the base-mana table as printed; ``--`` (no spells) reads as 0.

    >>> printed_base_mana(CasterClass.WIZARD, 3), printed_base_mana(CasterClass.RANGER, 20)
    (4, 9)
    """
    check_caster_level(level)
    return _printed_points(_printed_table()[caster_class, level]) or 0


def _printed_points(text: str) -> int | None:
    return None if text == _DASH else int(text.rstrip("*"))


def computed_base_mana(caster_class: CasterClass, level: int) -> int:
    """000 §5 Mana System I's rule over the PH progression: one point per spell level per spell.

    >>> computed_base_mana(CasterClass.PRIEST, 5)  # (3 x 1) + (3 x 2) + (1 x 3)
    12
    """
    return progression(caster_class, level).points


@dataclass(frozen=True)
class BaseManaRow:
    """One cell of the base-mana table next to the seed's rule, for a teaching view."""

    caster_class: CasterClass
    """The column."""
    level: int
    """The row, 1..20."""
    printed_text: str
    """The cell exactly as 000 §5 prints it, e.g. ``"12*"`` or ``"--"``."""
    computed: int
    """One point per spell level per spell over the PH progression row."""
    casting_level: int | None
    """The PH casting level of a ranger or paladin (what their printed column matches)."""
    new_spell_level: bool
    """The cell's ``*``: the caster gains a new spell level (above 1st) at this level.
    The seed does not explain the mark; the tests check this reading against every cell."""

    @property
    def printed(self) -> int | None:
        """The printed points, None for ``--``."""
        return _printed_points(self.printed_text)

    @property
    def agrees(self) -> bool:
        """True when the printed cell equals the rule (``--`` counts as 0 points)."""
        return (self.printed or 0) == self.computed


def base_mana_comparison(caster_class: CasterClass | None = None) -> tuple[BaseManaRow, ...]:
    """Every cell of 000 §5's base-mana table beside the computed rule, by class then level.

    >>> sum(not row.agrees for row in base_mana_comparison(CasterClass.WIZARD))
    0
    """
    classes = list(CasterClass) if caster_class is None else [caster_class]
    return tuple(
        BaseManaRow(
            cls,
            level,
            _printed_table()[cls, level],
            computed_base_mana(cls, level),
            progression(cls, level).casting_level,
            _printed_table()[cls, level].endswith("*"),
        )
        for cls in classes
        for level in range(1, MAX_CASTER_LEVEL + 1)
    )


def check_ability(score: int, ability: str, rule: str) -> None:
    """Raise unless ``score`` is an ability score, 1..25."""
    if not is_whole(score) or not 1 <= score <= 25:
        raise RulesError(rule, f"{ability} is an ability score, 1..25, got {score!r}")


@functools.cache
def _wisdom_table() -> dict[int, tuple[int, ...]]:
    table = {}
    for record in _read_csv("ph_wisdom_bonus_spells.csv"):
        text = record["bonus_spells"].strip()
        levels = () if text in (_DASH, "0") else tuple(_from_ordinal(part) for part in text.split(","))
        table[int(record["wisdom"])] = levels
    return table


def wisdom_bonus_spells(wisdom: int) -> tuple[int, ...]:
    """PH Table 5: a priest's bonus spells per spell level, first entry 1st level.

    The table prints what each score adds; the bonuses are cumulative, so WIS 17
    has every bonus from 13 up.

    >>> wisdom_bonus_spells(17)
    (2, 2, 1)
    >>> wisdom_bonus_spells(12)
    ()
    """
    check_ability(wisdom, "WIS", "PH Table 5")
    counts: list[int] = []
    for score, levels in sorted(_wisdom_table().items()):
        if score > wisdom:
            break
        for spell_level in levels:
            counts.extend([0] * (spell_level - len(counts)))
            counts[spell_level - 1] += 1
    return tuple(counts)


@dataclass(frozen=True)
class IntelligenceLimits:
    """PH Table 4, the columns that bound a wizard's list of spells."""

    intelligence: int
    """INT, 1..25."""
    max_spell_level: int | None
    """The highest spell level a wizard of this INT can learn; None below INT 9 (no spells)."""
    max_spells_per_level: int | None
    """Most spells known per spell level, which 000 §5 reads as the memorized list;
    None for the printed "All" (INT 19+) and below INT 9."""


@functools.cache
def _intelligence_table() -> dict[int, IntelligenceLimits]:
    table = {}
    for record in _read_csv("ph_intelligence_spells.csv"):
        score = int(record["intelligence"])
        level_text, most_text = record["spell_level"].strip(), record["max_spells_per_level"].strip()
        table[score] = IntelligenceLimits(
            score,
            None if level_text == _DASH else _from_ordinal(level_text),
            None if most_text in (_DASH, _ALL) else int(most_text),
        )
    return table


def intelligence_limits(intelligence: int) -> IntelligenceLimits:
    """PH Table 4's spell columns for an INT score.

    >>> intelligence_limits(9)
    IntelligenceLimits(intelligence=9, max_spell_level=4, max_spells_per_level=6)
    """
    check_ability(intelligence, "INT", "PH Table 4")
    return _intelligence_table()[intelligence]
