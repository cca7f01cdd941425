"""Perception and the thief skill adjustments of 000 Part 4's ability splits, as small pure functions.

**Perception** (000 Part 4, PERCEPTION): "Combining the average of INT and WIS with a bonus of one
point per level, this grab-bag ability is a character's overall chance to perceive any miscellaneous
items, occurrences, or phenomena which fall outside normal detection parameters. Option: Thieves gain
+2 per level."

>>> perception(intelligence=15, wisdom=12, level=3)
16
>>> perception(intelligence=15, wisdom=12, level=3, char_class="thief", thief_bonus=True)
19

The average of INT and WIS is rounded down (15 and 12 average 13): the seed does not say, and the
scores it combines are whole numbers. The thief option is off by default, as the seed marks it.

**Thief skills** (000 Part 4, THIEF ADJUSTMENTS): "Skills are modified by either DEX or AGI. Use Table
28 of PH. Read 'Dexterity' as the applicable ability." AGI adjusts Move Silently, Hide in Shadows and
Climb Walls; DEX adjusts Pick Pockets, Open Locks and Find/Remove Traps. Without the AGI/DEX split
(no AGI score), DEX adjusts all of them, as in the Player's Handbook.

>>> thief_adjustment("hide in shadows", dexterity=12, agility=17)
5
>>> thief_adjustment("pick pockets", dexterity=12, agility=17)
0
>>> [row.text() for row in thief_adjustments(dexterity=18, agility=9)][:2]
['Pick Pockets +10% (DEX 18)', 'Open Locks +15% (DEX 18)']

Table 28 (``data/thief_dexterity_ph2e.toml``) prints scores 9..19 and no Climb Walls column: a score
under 9 is refused (a thief needs Dexterity 9), a score over 19 takes the 19 row, and Climb Walls is
adjusted by 0 whatever the score.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from combatkit.errors import RulesError, is_whole

__all__ = [
    "AGILITY_SKILLS",
    "DEXTERITY_SKILLS",
    "PERCEPTION_RULE",
    "THIEF_RULE",
    "ThiefAdjustment",
    "perception",
    "perception_text",
    "thief_adjustment",
    "thief_adjustments",
]

PERCEPTION_RULE: Final = "000 Part 4 Perception"
THIEF_RULE: Final = "000 Part 4 Thief Adjustments, PH 2e Table 28"

AGILITY_SKILLS: Final = ("move silently", "hide in shadows", "climb walls")
"""The skills AGI adjusts under the AGI/DEX split (000 Part 4)."""
DEXTERITY_SKILLS: Final = ("pick pockets", "open locks", "find/remove traps")
"""The skills DEX adjusts under the AGI/DEX split (000 Part 4)."""


def _score(value: object, what: str, rule: str) -> int:
    if not is_whole(value) or not 1 <= value <= 25:
        raise RulesError(rule, f"{what} is an ability score, 1..25, got {value!r}")
    return value


def perception(*, intelligence: int, wisdom: int, level: int, char_class: str = "fighter",
               thief_bonus: bool = False) -> int:
    """Perception (000 Part 4): the average of INT and WIS (rounded down), plus one per level; with
    ``thief_bonus`` (the seed's option) a thief gains two per level instead. INT and WIS are 1..25,
    level 0..40.

    >>> perception(intelligence=10, wisdom=11, level=1)
    11
    """
    _score(intelligence, "INT", PERCEPTION_RULE)
    _score(wisdom, "WIS", PERCEPTION_RULE)
    if not is_whole(level) or not 0 <= level <= 40:
        raise RulesError(PERCEPTION_RULE, f"level is 0..40, got {level!r}")
    per_level = 2 if thief_bonus and char_class.strip().lower() == "thief" else 1
    return (intelligence + wisdom) // 2 + per_level * level


def perception_text(*, intelligence: int, wisdom: int, level: int, char_class: str = "fighter",
                    thief_bonus: bool = False) -> str:
    """Perception as a line a view shows, with its sum and its rule.

    >>> perception_text(intelligence=15, wisdom=12, level=3)
    'Perception 16: average of INT 15 and WIS 12 (13) + 1 a level x 3 (000 Part 4 Perception)'
    """
    value = perception(intelligence=intelligence, wisdom=wisdom, level=level, char_class=char_class,
                       thief_bonus=thief_bonus)
    per_level = 2 if thief_bonus and char_class.strip().lower() == "thief" else 1
    return (f"Perception {value}: average of INT {intelligence} and WIS {wisdom} ({(intelligence + wisdom) // 2}) "
            f"+ {per_level} a level x {level} ({PERCEPTION_RULE})")


@cache
def _table() -> dict[str, Any]:
    text = resources.files("combatkit.data").joinpath("thief_dexterity_ph2e.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class ThiefAdjustment:
    """One thief skill's adjustment and the ability that sets it."""

    skill: str
    """``"hide in shadows"``."""
    ability: str
    """``"DEX"`` or ``"AGI"``."""
    score: int
    """The score read, 1..25."""
    percent: int
    """Added to the skill's chance, in percent."""

    def text(self) -> str:
        """``'Hide in Shadows +5% (AGI 17)'``."""
        return f"{self.skill.title()} {self.percent:+d}% ({self.ability} {self.score})"


def thief_adjustment(skill: str, *, dexterity: int, agility: int | None = None) -> int:
    """The PH Table 28 adjustment, in percent, of ``skill`` for a thief of ``dexterity`` (and ``agility``
    under 000 Part 4's split: it then adjusts Move Silently, Hide in Shadows and Climb Walls).

    >>> thief_adjustment("move silently", dexterity=9)
    -20
    >>> thief_adjustment("climb walls", dexterity=19)
    0
    """
    return _adjust(skill, dexterity, agility).percent


def thief_adjustments(*, dexterity: int, agility: int | None = None) -> tuple[ThiefAdjustment, ...]:
    """Every skill's adjustment: DEX's three, then AGI's three (all DEX without an AGI score)."""
    return tuple(_adjust(skill, dexterity, agility) for skill in DEXTERITY_SKILLS + AGILITY_SKILLS)


def _adjust(skill: str, dexterity: int, agility: int | None) -> ThiefAdjustment:
    key = skill.strip().lower()
    if key not in DEXTERITY_SKILLS + AGILITY_SKILLS:
        raise RulesError(THIEF_RULE, f"no thief skill is called {skill!r}; Table 28's and 000's are "
                                     f"{', '.join(DEXTERITY_SKILLS + AGILITY_SKILLS)}")
    _score(dexterity, "DEX", THIEF_RULE)
    by_agility = agility is not None and key in AGILITY_SKILLS
    ability, score = ("AGI", _score(agility, "AGI", THIEF_RULE)) if by_agility else ("DEX", dexterity)
    table = _table()
    if score < table["first_score"]:
        raise RulesError(THIEF_RULE, f"Table 28 starts at {ability} {table['first_score']} (a thief needs "
                                     f"Dexterity 9), got {ability} {score}")
    if key not in table["skills"]:  # climb walls: no column in Table 28
        return ThiefAdjustment(key, ability, score, 0)
    row = table["rows"][str(min(score, table["last_score"]))]
    return ThiefAdjustment(key, ability, score, row[table["skills"].index(key)])
