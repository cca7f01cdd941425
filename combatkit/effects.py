"""What a spell does when it goes off, and saving throws (Player's Handbook 2e).

The seeds time spells; they do not say what a spell does. To play a fight out, the
resolver needs a few spells' effects in hit points and helplessness: they are data
(``combatkit/data/spell_effects.toml``), simplified from the Player's Handbook, and a DM
adds or replaces them with :class:`SpellEffect` values in
:attr:`combatkit.resolution.ResolutionOptions.spell_effects`. A spell with no effect data
goes off (and counts as a success) with no effect the engine applies.

>>> effect = spell_effect("magic missile")
>>> effect.kind, effect.units(5), effect.save
(<EffectKind.DAMAGE: 'damage'>, 3, <Save.NONE: 'none'>)
>>> saving_throw(Combatant("Mira", "party", level=3, char_class="mage"), "spell")
12

Saving throws are PH 2e Table 60 (``saving_throws_ph2e.toml``); a monster saves as a
warrior of its hit dice (DMG 2e). A save succeeds on a d20 at or above the number.
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from combatkit.dice import Dice
from combatkit.errors import RulesError
from combatkit.model import Combatant

__all__ = [
    "SAVE_COLUMNS",
    "SPELL_EFFECTS",
    "EffectKind",
    "Save",
    "SpellEffect",
    "saving_throw",
    "spell_effect",
]

SAVES_RULE = "PH 2e Table 60"


class EffectKind(enum.Enum):
    """What a spell does to the figures it affects."""

    DAMAGE = "damage"
    """Hit points of damage."""
    HEAL = "heal"
    """Hit points restored, up to the figure's maximum."""
    SLEEP = "sleep"
    """Magical sleep: helpless, hit automatically (002 Special Types of Attacks IV)."""
    HOLD = "hold"
    """Magically held: helpless, hit automatically (002 Special Types of Attacks IV)."""


class Save(enum.Enum):
    """What a successful saving throw does."""

    NONE = "none"
    HALF = "half"
    NEGATES = "negates"


@dataclass(frozen=True)
class SpellEffect:
    """One spell's effect, simplified to what a fight simulation needs."""

    name: str
    """The spell's name, as combatants list it (matched case-insensitively)."""
    kind: EffectKind
    """Damage, heal, sleep or hold."""
    rule: str
    """Where the effect comes from (PH 2e spell description)."""
    dice: str = ""
    """Dice rolled per unit (damage or healing); empty for sleep and hold."""
    levels_per_unit: int = 0
    """One more unit every this many caster levels past 1st; 0: always one unit."""
    max_units: int | None = None
    """Most units, if capped."""
    bonus_per_level: int = 0
    """Added once per caster level (burning hands' +2)."""
    max_bonus: int | None = None
    """Cap on that bonus."""
    save: Save = Save.NONE
    """Saving throw vs. spell: none, half damage, or negates."""
    radius: int = 0
    """Feet about the target that the spell also takes in, friend or foe; 0: the target only."""
    max_level: int | None = None
    """Highest level (hit dice) affected (sleep: 4, for 4+3 HD)."""
    count_by_level: tuple[str | int, ...] = ()
    """Sleep: how many creatures are affected, by the lowest level in the area (index = level)."""

    def __post_init__(self) -> None:
        if self.dice:
            Dice.parse(self.dice)
        if self.kind in (EffectKind.DAMAGE, EffectKind.HEAL) and not self.dice:
            raise RulesError(self.rule, f"{self.name}: a {self.kind.value} effect needs dice")
        for count in self.count_by_level:
            if isinstance(count, str):
                Dice.parse(count)

    def units(self, level: int) -> int:
        """Dice units for a caster of ``level`` (magic missile's missiles, fireball's d6s)."""
        n = 1 + (max(level, 1) - 1) // self.levels_per_unit if self.levels_per_unit else 1
        return min(n, self.max_units) if self.max_units is not None else n

    def bonus(self, level: int) -> int:
        """The flat bonus for a caster of ``level``."""
        value = self.bonus_per_level * max(level, 1)
        return min(value, self.max_bonus) if self.max_bonus is not None else value

    @property
    def hostile(self) -> bool:
        """Cast at a foe (damage, sleep, hold) rather than a friend (heal)."""
        return self.kind is not EffectKind.HEAL


def _load_effects() -> Mapping[str, SpellEffect]:
    text = resources.files("combatkit.data").joinpath("spell_effects.toml").read_text(encoding="utf-8")
    out = {}
    for row in tomllib.loads(text).values():
        row = dict(row)
        row["kind"] = EffectKind(row["kind"])
        row["save"] = Save(row.get("save", "none"))
        row["count_by_level"] = tuple(row.get("count_by_level", ()))
        effect = SpellEffect(**row)
        out[effect.name.lower()] = effect
    return MappingProxyType(out)


SPELL_EFFECTS: Mapping[str, SpellEffect] = _load_effects()
"""The shipped effects, by lower-case spell name."""


def spell_effect(name: str, extra: Mapping[str, SpellEffect] | None = None) -> SpellEffect | None:
    """The effect of the spell called ``name`` (``extra`` first, then the shipped ones), or None."""
    key = name.strip().lower()
    if extra:
        for other, effect in extra.items():
            if other.strip().lower() == key:
                return effect
    return SPELL_EFFECTS.get(key)


@cache
def _saves() -> dict[str, Any]:
    text = resources.files("combatkit.data").joinpath("saving_throws_ph2e.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


SAVE_COLUMNS = ("death", "wand", "petrification", "breath", "spell")
"""PH 2e Table 60's columns: paralyzation/poison/death magic, rod/staff/wand,
petrification/polymorph, breath weapon, spell."""


def saving_throw(combatant: Combatant, column: str) -> int:
    """The d20 roll ``combatant`` needs to save in ``column`` (PH 2e Table 60).

    >>> saving_throw(Combatant("Hob", "orcs", level=1, char_class="monster"), "death")
    14
    """
    table = _saves()
    if column not in SAVE_COLUMNS:
        raise RulesError(SAVES_RULE, f"saving throw columns are {', '.join(SAVE_COLUMNS)}; got {column!r}")
    group = table["groups"].get(combatant.char_class.strip().lower())
    if group is None:
        raise RulesError(SAVES_RULE, f"{combatant.name}: no saving-throw group for class {combatant.char_class!r}; "
                                     f"known: {', '.join(sorted(table['groups']))}")
    index = SAVE_COLUMNS.index(column) + 1
    return next(row[index] for row in table[group] if combatant.level <= row[0])
