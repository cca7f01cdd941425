"""What a spell does when it goes off, and saving throws (Player's Handbook 2e).

The seeds time spells; they do not say what a spell does. To play a fight out, the resolver
(:mod:`combatkit.resolution.spells`) needs each spell's effect as a :class:`SpellEffect`, found
in this order (:func:`spell_effect`):

1. the spell's own, from the encounter file (``effect = { kind = "damage", dice = "2d4" }`` in a
   spell's table, :attr:`combatkit.model.Spell.effect`; read by :func:`effect_from_table`);
2. a DM's in code, :attr:`combatkit.resolution.ResolutionOptions.spell_effects`, by spell name;
3. the shipped data, ``combatkit/data/spell_effects.toml``: the Player's Handbook (2e) common
   combat spells through 5th level, each citing its spell and the numbers it uses.

A spell with none of these goes off with no effect the engine applies, and the resolver says so
(an event of kind ``no effect data``; :class:`~combatkit.simulation.Simulation` counts them).

>>> effect = spell_effect("magic missile")
>>> effect.kind, effect.units(5), effect.save
(<EffectKind.DAMAGE: 'damage'>, 3, <Save.NONE: 'none'>)
>>> saving_throw(Combatant("Mira", "party", level=3, char_class="mage"), "spell")
12

**How each kind is played** (the simplifications, written again in each entry's ``rule``):

* Figures stand on one line (:mod:`combatkit.fight`); an area is ``radius`` feet about the target
  (a cone or a bolt is taken as so many feet about it) and takes in friend and foe alike unless
  ``selective`` (the caster picks: haste, bless); ``targets_per_level`` caps how many, nearest the
  target first. Touch spells and Melf's acid arrow land when the spell goes off: the touch or the
  arrow's attack roll is not made. Creature types (hold person's "persons", charm person's
  humanoids, undead immunities), Wisdom's adjustments to saves and alignment are not modelled.
* ``damage``: dice per unit plus a bonus, save for half or none. With a duration (Melf's acid
  arrow, flaming sphere) it comes again, with its save, at the start of each later round of it.
* ``heal``: hit points up to the maximum.
* ``sleep``: ``hit_dice`` (2d4) of Hit Dice fall asleep, lowest level first, a level-0 figure
  counting 1/2, partial effects ignored, levels above ``max_level`` unaffected; ``hold``: held.
  Both are helpless and hit automatically (002 Special Types of Attacks IV) until the duration
  ends, when they are back in the fight. The PH's "slapping or wounding awakens" is not modelled.
* ``charm``: the figure leaves the fight for good (it regards the caster as a friend and takes no
  hostile action; the PH's charm lasts days, so a charm takes no duration).
* ``fear``: the figure flees at its full movement for the duration, taking no action (a side all
  frightened has lost): it is put that far away at once (status ``frightened``, still on the field)
  and, when the spell ends, may walk back.
* ``cower`` (scare), ``web``, ``blindness``, ``slow``, ``haste``, ``protection``, ``nausea``
  (stinking cloud) and ``bless`` put a condition of ``conditions.toml`` on the figure for the
  duration (no duration: the rest of the fight); its to-hit and AC terms go through
  :func:`combatkit.attack.setup_attack`. A web holds a figure of Strength 12 or less for the
  spell's duration; 13-17 breaks out in 5 rounds and 18 or more in 3 (5' of a 10'-thick web at 1'
  or 2' a round), a large or bigger creature in 1. Slow and haste change the rate of what the
  timing system placed: a slowed figure's blows are lost every other round and its moves go half
  as far; a hasted figure strikes each blow twice and its moves go twice as far (the extra blows
  are not re-timed). Protection from evil counts every foe as evil (combatkit has no alignments):
  attacks on the figure at -2, its saves against spells at +2. Bless gives +1 to hit to friends in
  the area, engaged in melee or not.

Saving throws are PH 2e Table 60 (``saving_throws_ph2e.toml``); a monster saves as a warrior of
its hit dice (DMG 2e). A save succeeds on a d20 at or above the number, after the effect's
``save_modifier`` and the figure's conditions' (protection +2, cowering -1).
"""

from __future__ import annotations

import difflib
import enum
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from combatkit.errors import EncounterFileError, RulesError, SpellEffectError
from combatkit.model import SAVE_COLUMNS, Combatant, EffectKind, Save, Spell, SpellEffect

if TYPE_CHECKING:
    from combatkit.battle import Figure

__all__ = [
    "CONDITION_OF",
    "SAVE_COLUMNS",
    "SPELL_EFFECTS",
    "EffectKind",
    "Save",
    "SpellEffect",
    "effect_from_table",
    "effect_to_table",
    "saving_throw",
    "spell_effect",
    "takes",
]

SAVES_RULE = "PH 2e Table 60"

CONDITION_OF: Mapping[EffectKind, str] = MappingProxyType({
    EffectKind.COWER: "scare",
    EffectKind.WEB: "web",
    EffectKind.BLINDNESS: "blindness",
    EffectKind.SLOW: "slow",
    EffectKind.HASTE: "haste",
    EffectKind.PROTECTION: "protection_from_evil",
    EffectKind.NAUSEA: "stinking_cloud",
    EffectKind.BLESS: "bless",
})
"""The condition (``conditions.toml``) each condition-kind of effect puts on a figure."""


# ----------------------------------------------------------------- reading and writing


def _field_value(kind: Any, value: Any, where: str) -> Any:
    """``value`` from a file as the annotation ``kind`` of a :class:`SpellEffect` field."""
    rest = [a for a in typing.get_args(kind) if a is not type(None)]
    if rest:  # "int | None": a file writes the int
        kind = rest[0]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        allowed = [str(member.value) for member in kind]
        if isinstance(value, str) and value.lower() in allowed:
            return kind(value.lower())
        raise EncounterFileError(where, f"must be one of {', '.join(allowed)}; got {value!r}")
    names = {bool: "true or false", int: "a whole number", str: "text"}
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise EncounterFileError(where, f"expected {names.get(kind, kind)}, got {value!r}")
    return value


def effect_from_table(data: Any, where: str, name: str) -> SpellEffect:
    """The spell ``name``'s effect from a file's table of :class:`SpellEffect` fields (``name`` comes
    from the spell; ``rule`` may be left out), or an EncounterFileError naming ``where`` and the field.

    >>> effect_from_table({"kind": "damage", "dice": "2d4", "save": "half"}, "effect", "acid spray").dice
    '2d4'
    >>> effect_from_table({"kind": "damage", "dice": "2x4"}, "spells[0].effect", "acid spray")
    Traceback (most recent call last):
    ...
    combatkit.errors.EncounterFileError: spells[0].effect.dice: acid spray: '2x4' is not dice notation: \
write NdS or NdS+M, e.g. d10, 2d6, 3d4+1
    """
    if not isinstance(data, Mapping):
        raise EncounterFileError(where, f"expected a table of the effect's fields (kind, dice, save, radius, "
                                        f"duration...), got {data!r}")
    hints = typing.get_type_hints(SpellEffect)
    known = [f.name for f in fields(SpellEffect) if f.name != "name"]
    for key in data:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise EncounterFileError(f"{where}.{key}", f"is not a field of a spell's effect{hint}; "
                                                       f"fields: {', '.join(known)}")
    if "kind" not in data:
        raise EncounterFileError(f"{where}.kind", f"is required: one of {', '.join(k.value for k in EffectKind)}")
    values: dict[str, Any] = {"name": name, "rule": f"the encounter's own effect for {name}"}
    for key, value in data.items():
        values[key] = _field_value(hints[key], value, f"{where}.{key}")
    try:
        return SpellEffect(**values)
    except SpellEffectError as error:
        raise EncounterFileError(f"{where}.{error.field}", error.message) from None


def effect_to_table(effect: SpellEffect) -> dict[str, Any]:
    """``effect`` as a file writes it (the inverse of :func:`effect_from_table`): its fields but the
    name, defaults left out, enums by value.

    >>> effect_to_table(SpellEffect("acid spray", EffectKind.DAMAGE, "house rule", dice="2d4"))
    {'kind': 'damage', 'rule': 'house rule', 'dice': '2d4'}
    """
    out: dict[str, Any] = {}
    for f in fields(SpellEffect):
        value = getattr(effect, f.name)
        if f.name == "name" or (f.default is not MISSING and value == f.default):
            continue
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


def _load_effects() -> Mapping[str, SpellEffect]:
    text = resources.files("combatkit.data").joinpath("spell_effects.toml").read_text(encoding="utf-8")
    out = {}
    for key, row in tomllib.loads(text).items():
        row = dict(row)
        name = row.pop("name")
        effect = effect_from_table(row, f"spell_effects.toml [{key}]", name)
        out[effect.name.lower()] = effect
    return MappingProxyType(out)


SPELL_EFFECTS: Mapping[str, SpellEffect] = _load_effects()
"""The shipped effects, by lower-case spell name."""


def spell_effect(spell: str | Spell, extra: Mapping[str, SpellEffect] | None = None) -> SpellEffect | None:
    """The effect of ``spell`` (a :class:`~combatkit.model.Spell` or a name): the spell's own
    (:attr:`Spell.effect <combatkit.model.Spell.effect>`), else ``extra``'s by name, else the shipped
    one, else None."""
    if isinstance(spell, Spell):
        if spell.effect is not None:
            return spell.effect
        spell = spell.name
    key = spell.strip().lower()
    if extra:
        for other, effect in extra.items():
            if other.strip().lower() == key:
                return effect
    return SPELL_EFFECTS.get(key)


def takes(effect: SpellEffect, figure: Figure) -> bool:
    """Whether casting ``effect`` at ``figure`` would do anything: it is up and acting, its level is
    within ``max_level``, and it is not under the effect's condition already (the default policy
    aims hold, charm, web, blindness, haste... with it)."""
    if not figure.status.acts:
        return False
    if effect.max_level is not None and figure.combatant.level > effect.max_level:
        return False
    condition = CONDITION_OF.get(effect.kind)
    return condition is None or not any(a.condition.id == condition for a in figure.conditions)


# ----------------------------------------------------------------- saving throws


@cache
def _saves() -> dict[str, Any]:
    text = resources.files("combatkit.data").joinpath("saving_throws_ph2e.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


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
