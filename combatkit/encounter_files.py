"""The encounter file (TOML or JSON) a DM saves, edits and shares: reading it into an
:class:`~combatkit.encounter.Encounter`, checking every field, and writing one back.

The file format is documented in docs/encounter-format.md; the shipped
examples live in ``combatkit/data/encounters/``. Loading checks every field and
names the one that is wrong: ``combatants[2].dex: DEX is 1..25 (PH Table 2), got 40``. Each field of a combatant,
weapon and spell is declared once, on its value type in :mod:`combatkit.model` (:mod:`combatkit.fields`): the
reader and the writer here follow those declarations. A weapon or a spell may be named instead of written out, from
the Player's Handbook's tables or a DM's library file (:mod:`combatkit.library`); a combatant may stand for N of a
kind (``count = 6``) or for figures of a monster of the Monstrous Manual or of that file (``monster = "goblin"``,
:mod:`combatkit.monsters`), their hit points rolled from the file's seed; an intent may be each figure's of a group
(``actor = "each goblin"``). Saving writes every figure and intent out in full. A file names its timing system and
that system's options, so this module reads the systems' registry (:mod:`combatkit.systems`): it sits above them,
and the :class:`~combatkit.encounter.Encounter` they schedule sits below.
"""

from __future__ import annotations

import difflib
import enum
import json
import tomllib
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, fields, replace
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Final

import tomli_w

from combatkit.dice import EnteredRollError, Roller
from combatkit.effects import effect_from_table, effect_to_table
from combatkit.encounter import Encounter, Hit
from combatkit.errors import EncounterFileError, RulesError, is_whole
from combatkit.fields import FieldSpec, declared, default_of, field_specs, type_hints
from combatkit.kinds import ActionKind, IntentKind, Maneuver
from combatkit.intent import COMPONENTS, Intent, Refinement, derive, named_actions
from combatkit.library import Library, LibraryFileError, LibraryNameError, builtin
from combatkit.model import (MAX_FEET, MAX_PHASE, MOST_ATTACKS, Abilities, Combatant, Declaration, Refined, Spell,
                             Weapon)
from combatkit.monsters import (MOST_OF_A_KIND, HitPoints, MonsterEntry, MonsterRowError, character_hit_points,
                                character_thac0, class_group, find_monster, group_of, monster, monster_entries, numbered)
from combatkit.systems import SYSTEMS, find_system
from combatkit.systems.base import TableRoller, with_intents

__all__ = [
    "dumps_toml",
    "encounter_from_dict",
    "encounter_to_dict",
    "example_encounters",
    "load_encounter",
    "load_example",
    "option_value",
    "plain_option",
    "save_encounter",
    "with_intents",
]


# ---------------------------------------------------------------- reading


class _Reader:
    """Pulls typed fields out of a mapping, naming the path of any bad value."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, Mapping):
            raise EncounterFileError(path or "file", f"expected a table of fields, got {type(data).__name__}")
        self.data = data
        self.path = path
        self.used: set[str] = set()

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., check=None, why: str = "") -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is ...:
                raise EncounterFileError(self.at(key), "is required")
            return default
        value = self.data[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise EncounterFileError(self.at(key), f"expected {_kind_name(kind)}, got {value!r}")
        if not isinstance(value, kind):
            raise EncounterFileError(self.at(key), f"expected {_kind_name(kind)}, got {value!r}")
        if check is not None and not check(value):
            raise EncounterFileError(self.at(key), f"{why}, got {value!r}")
        return value

    def enum(self, key: str, enum_type: type[enum.Enum], default: Any) -> Any:
        text = self.get(key, str, None if default is None else default.value)
        if text is None:
            return None
        try:
            return enum_type(text.lower())
        except ValueError:
            allowed = ", ".join(e.value for e in enum_type)
            raise EncounterFileError(self.at(key), f"must be one of {allowed}; got {text!r}") from None

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            raise EncounterFileError(self.at(extra[0]), "is not a field this format knows (check the spelling)")


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _fraction(reader: _Reader, s: FieldSpec, default: str) -> Fraction:
    """The fraction field ``s`` (attacks per round, a rate of fire): more than 0 and in its range, or refused naming
    the field, its range and rule and the value."""
    key = s.file
    value = reader.get(key, (int, str), default)
    try:
        result = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise EncounterFileError(reader.at(key), f"expected a number like 1, 2 or \"3/2\", got {value!r}") from None
    if result <= 0 or not s.fits(result):
        raise EncounterFileError(reader.at(key), f"{s.cited()}, got {value!r}")
    return result


def _fields(r: _Reader, cls: type, *, given_only: bool = False) -> dict[str, Any]:
    """The keyword arguments of ``cls`` that its declared fields (:mod:`combatkit.fields`) read from ``r``, each
    checked against its declaration: ``combatants[2].dex: DEX is 1..25 (PH Table 2), got 40``; with ``given_only``,
    only those ``r`` gives (the fields a monster entry writes out over its row's)."""
    out: dict[str, Any] = {}
    for d in declared(cls):
        s, default = d.spec, ... if d.default is MISSING else d.default
        if given_only and s.file not in r.data:
            continue
        if d.choice is not None:
            out[d.name] = r.enum(s.file, d.choice, default)
        elif d.kind == "fraction":
            if default is None and s.file not in r.data:
                r.used.add(s.file)
                continue
            out[d.name] = _fraction(r, s, str(default or 1))
        else:
            kinds: dict[str, type | tuple[type, ...]] = {"text": str, "number": int, "flag": bool, "number text": (int, str)}
            kind = kinds[d.kind]
            value = r.get(s.file, kind, default, check=s.fits, why=s.cited())
            problem = s.valid(value) if s.valid is not None and isinstance(value, str) else ""
            if problem:
                raise EncounterFileError(r.at(s.file), problem)
            out[d.name] = value
    return out


_WRITTEN_OUT: Final[Mapping[type, tuple[str, str]]] = types.MappingProxyType({Weapon: ("sf", "damage"),
                                                                              Spell: ("level", "ct")})
"""The fields a weapon's or a spell's own numbers are (those encounter prep's table shows of a weapon): a table that
gives both is one written out, as every file was before the library, whose other fields take their defaults and not
the library's row, so that a file written then reads as it did. The writer writes both in every table
(:func:`encounter_to_dict`). A table naming a weapon of the library with one of them (``{ name = "long sword",
sf = 4 }``) starts from the library's row, and the fields it gives win (#48)."""


def _weapon(data: Any, path: str, library: Library) -> Weapon:
    """One of a combatant's ``weapons``: a name in the library (``"long sword"``), a table naming one with the fields
    that differ from its row (``{ name = "long sword", magic = 1 }``, ``{ name = "long sword", sf = 4 }``), or a weapon
    written out, whose fields left out take their defaults (a table with its own ``sf`` and ``damage``, or naming no
    weapon of the library). One from the
    library takes the library's name (``"longsword"`` reads as ``"long sword"``)."""
    if isinstance(data, str):
        return _looked_up(path, lambda: library.weapon(data))
    r = _Reader(data, path)
    kw = _fields(r, Weapon)
    r.done()
    if not _from_library(r.data, Weapon, library.knows(kw["name"], "weapon")):
        return Weapon(**kw)
    return _looked_up(path, lambda: library.weapon(kw["name"], **_given(r.data, Weapon, kw)))


def _spell(data: Any, path: str, library: Library, caster_class: str) -> Spell:
    """One of a combatant's ``spells``: a name in the library (``"sleep"``; on both lists, the list ``caster_class``
    casts from, or the one ``"hold person (priest)"`` names), a table naming one with the fields that differ, or a
    spell written out (a table with its own ``level`` and ``ct``, or naming no spell of the library), as
    :func:`_weapon`. Its effect is the table's ``effect``, else the shipped one by its name when it goes off."""
    if isinstance(data, str):
        return _looked_up(path, lambda: library.spell(data, caster_class=caster_class))
    r = _Reader(data, path)
    kw = _fields(r, Spell)
    effect = effect_from_table(r.data["effect"], r.at("effect"), kw["name"]) if "effect" in r.data else None
    r.used.add("effect")  # checked field by field by effect_from_table
    r.done()
    if not _from_library(r.data, Spell, library.knows(kw["name"], "spell")):
        return Spell(**kw, effect=effect)
    given = _given(r.data, Spell, kw) | ({"effect": effect} if effect is not None else {})
    return _looked_up(path, lambda: library.spell(kw["name"], caster_class=caster_class, **given))


def _from_library(data: Mapping[str, Any], cls: type, known: bool) -> bool:
    """Whether a weapon's or a spell's table starts from its library row: it names one, and is not written out
    (:data:`_WRITTEN_OUT`)."""
    return known and not all(key in data for key in _WRITTEN_OUT[cls])


def _given(data: Mapping[str, Any], cls: type, kw: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a table gives besides the name that finds its row, by attribute, as :func:`_fields` read them."""
    return {d.name: kw[d.name] for d in declared(cls) if d.spec.file in data and d.name != "name"}


T = typing.TypeVar("T")


def _looked_up(path: str, make: Callable[[], T]) -> T:
    """``make()``, a weapon or spell from the library (a figure from the books), or a refusal naming ``path``: a name
    the library lacks (with the closest), or a field the value's own check refuses."""
    try:
        return make()
    except LibraryNameError as error:
        raise EncounterFileError(path, error.message) from None
    except RulesError as error:
        raise EncounterFileError(path, f"{error.message} ({error.rule})") from None


class _Monsters:
    """The monsters a file's entries name: its DM library's ``[[monster]]`` rows over the shipped table, the rows
    read (each refused by its field) when an entry first names a monster."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.entries: tuple[MonsterEntry, ...] | None = None

    def find(self, name: str, path: str) -> MonsterEntry:
        """The entry called ``name``, the DM's before the shipped one; a miss refused at ``path`` with the closest
        names."""
        table = self.library.weapon_table  # a DM's library: its file's name
        if self.entries is None:
            try:
                self.entries = monster_entries(self.library.monsters, table) if self.library.monsters else ()
            except MonsterRowError as error:
                raise EncounterFileError("library", f"{table}, {error.message}") from None
        try:
            return find_monster(name, self.entries, table)
        except RulesError as error:
            raise EncounterFileError(path, f"{error.message} ({error.rule})") from None


_BY_CLASS: Final = "by class"
"""A character's ``thac0`` read from its class group and level (PH 2e Tables 53-54)."""


def _figures(data: Any, path: str, library: Library, monsters: _Monsters, roller: Roller,
             taken: list[str]) -> tuple[Combatant, ...]:
    """One entry of ``combatants``: a combatant written out, ``count`` copies of one (``Guard 1`` .. ``Guard N``),
    or ``count`` figures of a ``monster`` (:func:`_of_monster`), named past the names ``taken`` by the entries
    before it. ``hp`` may be ``"rolled"`` or ``"average"`` (a monster's from its Hit Dice, a character's from its
    class's, each figure rolled with ``roller`` under ``hit points: <name>``), or a list of one number a figure;
    a character's ``thac0`` may be ``"by class"`` (PH 2e Tables 53-54)."""
    r = _Reader(data, path)
    count = r.get("count", int, None, check=lambda v: 1 <= v <= MOST_OF_A_KIND,
                  why=f"count is 1..{MOST_OF_A_KIND} figures of a kind")
    kind = r.get("monster", str, None, check=lambda v: bool(v.strip()), why="names no monster")
    hit_points = _hit_points(r, count or 1)
    by_class = _by_class(r)
    rest = _Reader({k: v for k, v in r.data.items() if k not in r.used}, path)
    if kind is not None:
        if by_class:
            raise EncounterFileError(r.at("thac0"), f'a monster\'s THAC0 comes from its Hit Dice (DMG 2e Table 39); '
                                                    f'"{_BY_CLASS}" is a character\'s')
        return _of_monster(rest, monsters.find(kind, r.at("monster")), count or 1, hit_points, library, roller, taken)
    combatant = _combatant(rest, library)
    if not by_class and "thac0" not in r.data and _has_group(combatant.char_class):
        combatant = replace(combatant, thac0=_class_thac0(combatant))
    names = (combatant.name,) if count is None else numbered(combatant.name, count, taken)
    figures = []
    for i, name in enumerate(names):
        figure = replace(combatant, name=name)
        if by_class:
            figure = replace(figure, thac0=_looked_up(r.at("thac0"), lambda: character_thac0(figure.char_class,
                                                                                              figure.level)))
        if isinstance(hit_points, HitPoints):
            figure = replace(figure, hit_points=_looked_up(r.at("hp"), lambda: character_hit_points(
                figure.char_class, figure.level, hit_points=hit_points, roller=roller,
                constitution=figure.abilities.constitution, name=name)))
        elif hit_points is not None:
            figure = replace(figure, hit_points=hit_points[i])
        figures.append(figure)
    return tuple(figures)


def _has_group(char_class: str) -> bool:
    """Whether ``char_class`` is a character class of PH 2e's groups, whose THAC0 a level gives (Table 53): a
    character that gives no ``thac0`` takes its class's; a ``monster`` or a class of the DM's own keeps 20."""
    try:
        class_group(char_class)
    except RulesError:
        return False
    return True


def _class_thac0(c: Combatant) -> int:
    """The THAC0 of a character that gives none: its class's at its level (PH 2e Tables 53-54), and -10 past the
    level where the tables pass combatkit's lowest THAC0 (a 32nd-level fighter's): -10 hits the best Armor Class
    combatkit takes, -10, on any roll the tables' lower numbers would, so the fight is the same."""
    try:
        return character_thac0(c.char_class, c.level)
    except RulesError:
        lowest = field_specs(Combatant)["thac0"].low
        assert lowest is not None  # THAC0 is bounded: -10..25
        return lowest


def _hit_points(r: _Reader, count: int) -> HitPoints | tuple[int, ...] | None:
    """An entry's ``hp`` when it is not one number: ``"rolled"`` or ``"average"``, or a list of ``count`` numbers,
    one a figure; None for a number (a field as the others) or none."""
    value = r.data.get("hp")
    if isinstance(value, str):
        r.used.add("hp")
        by_word = {h.value: h for h in HitPoints}
        if value.strip().lower() not in by_word:
            raise EncounterFileError(r.at("hp"), f'hit points are a number, "rolled" or "average" (from the Hit '
                                                 f"Dice), or a list of one number a figure; got {value!r}")
        return by_word[value.strip().lower()]
    if isinstance(value, list):
        r.used.add("hp")
        if len(value) != count or not all(is_whole(v) and v >= 0 for v in value):
            raise EncounterFileError(r.at("hp"), f"a list of hit points gives one number, 0 or more, a figure "
                                                 f"({count} here); got {value!r}")
        return tuple(value)
    return None


def _by_class(r: _Reader) -> bool:
    """Whether an entry's ``thac0`` is ``"by class"``; any other text is refused, a number is read as a field."""
    value = r.data.get("thac0")
    if not isinstance(value, str):
        return False
    r.used.add("thac0")
    if value.strip().lower() != _BY_CLASS:
        raise EncounterFileError(r.at("thac0"), f'THAC0 is a number, -10..25, or "{_BY_CLASS}" (PH 2e Tables 53-54, '
                                                f"from the class and level); got {value!r}")
    return True


def _of_monster(r: _Reader, entry: MonsterEntry, count: int, hit_points: HitPoints | tuple[int, ...] | None,
                library: Library, roller: Roller, taken: list[str]) -> tuple[Combatant, ...]:
    """``count`` figures of ``entry`` (:func:`~combatkit.monsters.monster`): named for the entry, or for the
    ``name`` ``r`` gives, on the side ``monsters`` unless it gives one, their hit points rolled with ``roller``
    unless given; every other field ``r`` gives, weapons and spells too, wins over the entry's."""
    kw = _combatant_fields(r, library, given_only=True)
    name, side = kw.pop("name", None), kw.pop("side", "monsters")
    given = kw.pop("hit_points", None)
    how = hit_points if hit_points is not None else HitPoints.ROLLED if given is None else (given,) * count
    figures = _looked_up(r.path, lambda: monster(entry, count=count, name_as=name, hit_points=how, roller=roller,
                                                 side=side, taken=taken, library=library))
    abilities = kw.pop("abilities")
    return tuple(replace(figure, **kw, abilities=replace(figure.abilities, **abilities)) for figure in figures)


def _combatant_fields(r: _Reader, library: Library, *, given_only: bool) -> dict[str, Any]:
    """A combatant's fields read from ``r`` (:func:`_fields`), its weapons and spells from ``library``; with
    ``given_only``, those ``r`` gives, its ``abilities`` those of its abilities it gives, by attribute."""
    abilities = _fields(r, Abilities, given_only=given_only)
    kw = _fields(r, Combatant, given_only=given_only)
    caster_class = kw.get("char_class", "monster")  # a monster entry's, unless it gives a class
    for key, read in (("weapons", lambda x, where: _weapon(x, where, library)),
                      ("spells", lambda x, where: _spell(x, where, library, caster_class))):
        if not given_only or key in r.data:
            kw[key] = tuple(read(x, f"{r.at(key)}[{i}]") for i, x in enumerate(r.get(key, list, [])))
    r.done()
    return kw | {"abilities": abilities}


def _combatant(r: _Reader, library: Library) -> Combatant:
    """A combatant written out in full, each field left out taking its default."""
    kw = _combatant_fields(r, library, given_only=False)
    return Combatant(**kw | {"abilities": Abilities(**kw["abilities"])})


def _library(r: _Reader, folder: Path | None) -> Library:
    """The file's ``library``: a DM's library file, by its path from the encounter file's folder, whose weapons and
    spells shadow the shipped PH 2e ones (:meth:`~combatkit.library.Library.load`); without one, the shipped library.
    Text given without a folder (pasted into a dashboard) cannot name one: it would be read from wherever the
    reader runs."""
    name = r.get("library", str, None, check=lambda v: bool(v.strip()), why="names no library file")
    if name is None:
        return builtin()
    if folder is None:
        raise EncounterFileError(r.at("library"), f"names a library file ({name!r}), read from the encounter file's "
                                                  f"folder: load the file itself (load_encounter), or give the folder")
    try:
        return Library.load(folder / name)
    except LibraryFileError as error:
        where = "" if error.field == "file" else f", {error.field}"
        raise EncounterFileError(r.at("library"), f"{name}{where}: {error.message}") from None


def _feet(r: _Reader) -> int | None:
    """A declaration's, an intent's or a refinement's ``feet``: 0..MAX_FEET, or None when not given."""
    return r.get("feet", int, None, check=lambda v: 0 <= v <= MAX_FEET, why=f"feet is 0..{MAX_FEET}")


def _declaration(data: Any, path: str, names: set[str], combatants: Mapping[str, Combatant]) -> Declaration:
    r = _Reader(data, path)
    known = _known(r, names)
    actor: str = r.get("actor", str)
    known("actor", actor)
    # what the intent a declaration loads as is checked for (_intent), so that the file it saves to loads
    weapons, spell = _gear(r, combatants[actor])
    declaration = Declaration(
        actor=actor,
        phase=r.get("phase", int, check=lambda v: 1 <= v <= MAX_PHASE, why=f"phase is 1..{MAX_PHASE}"),
        kind=r.enum("action", ActionKind, ActionKind.MISC) if "action" in r.data else _missing(r, "action"),
        target=known("target", r.get("target", str, None)),
        weapons=tuple(weapons),
        spell=spell,
        **_fields(r, Refined),
        feet=_feet(r),
        maneuver=_maneuver(r),
        note=r.get("note", str, ""),
    )
    r.done()
    return declaration


def _known(r: _Reader, names: set[str]) -> Callable[[str, str | None], str | None]:
    """A check that a field of ``r`` names a combatant of the encounter (or nobody)."""
    def known(key: str, value: str | None) -> str | None:
        if value is not None and value not in names:
            raise EncounterFileError(r.at(key), f"no combatant is called {value!r}; combatants: {sorted(names)}")
        return value

    return known


def _gear(r: _Reader, c: Combatant) -> tuple[list[str], str | None]:
    """The weapons (``weapon`` or ``weapons``) and the spell a declaration or an intent names, each one
    ``c`` has."""
    weapons = r.get("weapons", list, [])
    if "weapon" in r.data:
        weapons = [r.get("weapon", str)]
    if not all(isinstance(w, str) for w in weapons):
        raise EncounterFileError(r.at("weapons"), f"expected a list of weapon names, got {weapons!r}")
    for w in weapons:
        if w not in {x.name for x in c.weapons}:
            raise EncounterFileError(r.at("weapons"), f"{c.name} has no weapon {w!r}; has {[x.name for x in c.weapons]}")
    spell = r.get("spell", str, None)
    if spell is not None and spell not in {x.name for x in c.spells}:
        raise EncounterFileError(r.at("spell"), f"{c.name} has no spell {spell!r}; has {[x.name for x in c.spells]}")
    return weapons, spell


def _maneuver(r: _Reader) -> Maneuver | None:
    """A declaration's ``maneuver``, one its action can be: a move charges, withdraws or flees; an attack
    pummels, grapples or overbears."""
    maneuver = r.enum("maneuver", Maneuver, None)
    action = r.data.get("action")
    if maneuver is not None and isinstance(action, str) and maneuver.kind.value != action.lower():
        fits = ", ".join(m.value for m in Maneuver if m.kind is maneuver.kind)
        raise EncounterFileError(r.at("maneuver"), f"{maneuver.value} is a maneuver of a "
                                                   f"{maneuver.kind.value} ({fits}); this action is {action!r}")
    return maneuver


def _missing(r: _Reader, key: str):
    raise EncounterFileError(r.at(key), "is required (move, attack, cast, misc or ready)")


def _intent(data: Any, path: str, names: set[str], combatants: Mapping[str, Combatant]) -> Intent:
    """One ``[[intents]]`` entry: ``actor``, ``do`` (move, attack, cast, ready, hold, action) and what it names."""
    r = _Reader(data, path)
    known = _known(r, names)
    actor = known("actor", r.get("actor", str))
    assert actor is not None
    c = combatants[actor]
    action = r.get("action", str, None)
    if action is not None and action not in named_actions():
        raise EncounterFileError(r.at("action"), f"no named action {action!r}; they are {', '.join(named_actions())}")
    kind = r.enum("do", IntentKind, IntentKind.ACTION if action is not None else None)
    if kind is None:
        raise EncounterFileError(r.at("do"), f"is required: {', '.join(k.value for k in IntentKind)}")
    weapons, spell = _gear(r, c)
    item = r.get("item", str, None)
    if item is not None and item != COMPONENTS and item not in {x.name for x in c.weapons}:
        raise EncounterFileError(r.at("item"), f"an item to ready is one of {actor}'s weapons "
                                               f"{[x.name for x in c.weapons]} or {COMPONENTS!r}, got {item!r}")
    try:
        intent = Intent(
            actor=actor, kind=kind, target=known("target", r.get("target", str, None)),
            away=r.get("away", bool, False),
            feet=_feet(r),
            maneuver=r.enum("maneuver", Maneuver, None), weapons=tuple(weapons),
            blows=r.get("blows", int, None, check=lambda v: 1 <= v <= MOST_ATTACKS, why=f"blows is 1..{MOST_ATTACKS}"),
            spell=spell, item=item, action=action, note=r.get("note", str, ""))
    except RulesError as error:
        raise EncounterFileError(path, error.message) from None
    r.done()
    return intent


def _refinement(data: Any, path: str, names: set[str], combatants: Mapping[str, Combatant]) -> Refinement:
    """One ``[[refinements]]`` entry: ``system``, ``actor``, ``step`` (the actor's intent, from 1) and the
    system's own fields, with what its declarations name where the intent does not (``target``, ``weapon`` or
    ``weapons``, ``spell``, ``feet``)."""
    r = _Reader(data, path)
    known = _known(r, names)
    system = r.get("system", str)
    if system not in SYSTEMS:
        raise EncounterFileError(r.at("system"), f"no timing system has the id {system!r}; ids: {', '.join(sorted(SYSTEMS))}")
    actor = r.get("actor", str)
    if actor not in names:
        raise EncounterFileError(r.at("actor"), f"no combatant is called {actor!r}; combatants: {sorted(names)}")
    weapons, spell = _gear(r, combatants[actor])
    phases = r.get("phases", list, [])
    if "phase" in r.data:
        phases = [r.get("phase", int)]
    if not all(is_whole(p) and 1 <= p <= MAX_PHASE for p in phases):
        raise EncounterFileError(r.at("phases"), f"phases are numbers 1..{MAX_PHASE} of {system}'s declaration phases, got {phases!r}")
    refinement = Refinement(
        system=system, actor=actor, step=r.get("step", int, check=lambda v: v >= 1, why="step is the intent's number, from 1"),
        phases=tuple(phases),
        **_fields(r, Refined),
        note=r.get("note", str, ""),
        target=known("target", r.get("target", str, None)), weapons=tuple(weapons), spell=spell,
        feet=_feet(r))
    r.done()
    return refinement


# ---------------------------------------------------------------- system options


def _options(data: Any, path: str = "options") -> dict[str, dict[str, Any]]:
    """``[options.<system id>]`` tables: each field checked against that system's options dataclass."""
    if not isinstance(data, Mapping):
        raise EncounterFileError(path, f"expected a table per timing system ([options.phase2]), got {data!r}")
    out: dict[str, dict[str, Any]] = {}
    for sid, table in data.items():
        where = f"{path}.{sid}"
        if sid not in SYSTEMS:
            raise EncounterFileError(where, f"no timing system has the id {sid!r}; ids: {', '.join(sorted(SYSTEMS))}")
        if not isinstance(table, Mapping):
            raise EncounterFileError(where, f"expected a table of {SYSTEMS[sid].title}'s options, got {table!r}")
        if table:
            out[sid] = {name: option_value(sid, name, value, f"{where}.{name}") for name, value in table.items()}
    return out


def option_value(system_id: str, name: str, value: Any, where: str | None = None) -> Any:
    """``value`` as read from a file (TOML or JSON) for the field ``name`` of the options dataclass of
    the timing system ``system_id``, converted to the field's type, or an EncounterFileError naming
    ``where`` (default ``options.<id>.<name>``), the option and the value.

    Files can set the simple fields: yes/no, whole numbers, text (dice notation too), one of an
    enum's values, and lists of names (sets and tuples). Per-figure tables and nested settings
    are set in code.

    >>> option_value("phase2", "caster_delay_by_level", True)
    True
    >>> option_value("phase1", "tie_track", "loser")
    <Track.LOSER: 'loser'>
    >>> option_value("phase2", "caster_delay_by_lvl", True)
    Traceback (most recent call last):
    ...
    combatkit.errors.EncounterFileError: options.phase2.caster_delay_by_lvl: Combat II: Phase System II \
(continuous A/B/C phases) has no such option (did you mean caster_delay_by_level?); it has phases, tie_track, agility_split, caster_delay_by_level, \
attack_forms, schedules, durations
    """
    system = find_system(system_id)
    cls = system.options_class
    where = where or f"options.{system.id}.{name}"
    names = [f.name for f in fields(cls)]
    if name not in names:
        near = difflib.get_close_matches(name, names, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise EncounterFileError(where, f"{system.title} has no such option{hint}; it has {', '.join(names)}")
    kind = type_hints(cls)[name]
    typed = _typed(kind, value, where, f"set it in code: {cls.__name__}({name}=...)")
    try:
        cls(**{name: typed})
    except (ValueError, TypeError) as error:
        raise EncounterFileError(where, f"{error}; got {value!r}") from None
    return typed


def _typed(kind: Any, value: Any, where: str, in_code: str) -> Any:
    """``value`` as an instance of the annotation ``kind``; a kind a file cannot write is refused."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:  # "X | None": a file writes an X (TOML has no None)
            return _typed(rest[0], value, where, in_code)
    elif kind is bool or kind is int or kind is str:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise EncounterFileError(where, f"expected {_kind_name(kind)}, got {value!r}")
        return value
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        by_value = {str(member.value).lower(): member for member in kind}
        if not isinstance(value, str) or value.lower() not in by_value:
            raise EncounterFileError(where, f"must be one of {', '.join(map(repr, by_value))}; got {value!r}")
        return by_value[value.lower()]
    elif origin in (frozenset, tuple) and args:
        if not isinstance(value, list):
            raise EncounterFileError(where, f"expected a list, got {value!r}")
        fixed = origin is tuple and args[-1] is not Ellipsis
        if fixed and len(value) != len(args):
            raise EncounterFileError(where, f"expected a list of {len(args)}, got {value!r}")
        items = args if fixed else (args[0],) * len(value)
        if all(item in (bool, int, str) or (isinstance(item, type) and issubclass(item, enum.Enum)) for item in items):
            typed = [_typed(item, v, f"{where}[{i}]", in_code) for i, (item, v) in enumerate(zip(items, value))]
            return origin(typed)
    raise EncounterFileError(where, f"cannot be set in an encounter file (its kind is {_type_words(kind)}); {in_code}")


def _type_words(kind: Any) -> str:
    origin = typing.get_origin(kind)
    if origin is not None and issubclass(origin, Mapping):
        return "a table of settings by name"
    return getattr(kind, "__name__", None) or str(kind).replace("typing.", "")


def plain_option(value: Any) -> Any:
    """An option value as a file writes it (the inverse of :func:`option_value`): an enum by its value, a
    set as a sorted list, a tuple as a list.

    >>> plain_option(frozenset({"Ugluk", "Grishnak"}))
    ['Grishnak', 'Ugluk']
    """
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(plain_option(v) for v in value)
    if isinstance(value, tuple):
        return [plain_option(v) for v in value]
    return value


def encounter_from_dict(data: Mapping[str, Any], *, folder: str | Path | None = None) -> Encounter:
    """Build an encounter from a parsed file, checking every field. ``folder`` is the file's, which a ``library``
    path is read from (:func:`_library`).

    >>> goblins = encounter_from_dict({"combatants": [{"monster": "goblin", "count": 2, "hp": "average"}],
    ...                                "intents": [{"actor": "each goblin", "do": "attack"}]})
    >>> [(c.name, c.hit_points) for c in goblins.combatants], [i.actor for i in goblins.intents]
    ([('Goblin 1', 3), ('Goblin 2', 3)], ['Goblin 1', 'Goblin 2'])
    """
    r = _Reader(data, "")
    combatant_list = r.get("combatants", list, check=bool, why="an encounter needs at least one combatant")
    library = _library(r, None if folder is None else Path(folder))
    rolls = _rolls(r)
    seed = r.get("seed", int, None)
    # hit points rolled as a page rolls: by purpose from the seed, a number entered winning (table_rolls)
    roller = TableRoller(seed=0 if seed is None else seed, entered=dict(rolls))
    monsters = _Monsters(library)
    made: dict[str, Combatant] = {}
    for i, item in enumerate(combatant_list):
        where = f"combatants[{i}]"
        try:
            figures = _figures(item, where, library, monsters, roller, list(made))
        except EnteredRollError as error:
            raise EncounterFileError("rolls", str(error)) from None
        for figure in figures:
            if figure.name in made:
                raise EncounterFileError(f"{where}.name", f"{figure.name!r} is used twice; names must be unique")
            made[figure.name] = figure
    combatants = tuple(made.values())
    rolls = _rolls_left(rolls, roller)
    names = list(made)
    known = set(names)
    by_name = made
    declarations = tuple(
        _declaration(d, f"declarations[{i}]", known, by_name) for i, d in enumerate(r.get("declarations", list, []))
    )
    intents = tuple(_intent(each, f"intents[{i}]", known, by_name)
                    for i, d in enumerate(r.get("intents", list, [])) for each in _each(d, f"intents[{i}]", names))
    refinements = tuple(_refinement(d, f"refinements[{i}]", known, by_name)
                        for i, d in enumerate(r.get("refinements", list, [])))
    system = _system(r)
    if declarations:
        if intents:
            raise EncounterFileError("declarations", "a file with [[intents]] places them for a system with "
                                                     "[[refinements]], not [[declarations]]")
        intents, derived = derive(declarations, _system_id(system), {c.name: [w.name for w in c.weapons]
                                                                      for c in combatants})
        refinements = derived + refinements
        declarations = ()
    steps: dict[str, int] = {}
    for intent in intents:
        steps[intent.actor] = steps.get(intent.actor, 0) + 1
    for i, refinement in enumerate(refinements):
        if refinement.step > steps.get(refinement.actor, 0):
            raise EncounterFileError(f"refinements[{i}].step", f"{refinement.actor} has {steps.get(refinement.actor, 0)} "
                                                                f"intent(s), so there is no intent {refinement.step} to refine")
    distances = []
    for i, item in enumerate(r.get("distances", list, [])):
        dr = _Reader(item, f"distances[{i}]")
        a, b = dr.get("a", str), dr.get("b", str)
        for key, value in (("a", a), ("b", b)):
            if value not in known:
                raise EncounterFileError(dr.at(key), f"no combatant is called {value!r}")
        distances.append((a, b, dr.get("feet", int, check=lambda v: v >= 0, why="feet is 0 or more")))
        dr.done()
    hits = []
    for i, item in enumerate(r.get("hits", list, [])):
        hr = _Reader(item, f"hits[{i}]")
        target = hr.get("target", str)
        if target not in known:
            raise EncounterFileError(hr.at("target"), f"no combatant is called {target!r}")
        hits.append(Hit(target, hr.get("tick", int, check=lambda v: v >= 1, why="tick is 1 or more"), hr.get("source", str, "")))
        hr.done()
    encounter = Encounter(
        title=r.get("title", str, "Untitled encounter"),
        description=r.get("description", str, ""),
        system=system,
        round=r.get("round", int, 1, check=lambda v: v >= 1, why="round is 1 or more"),
        seed=seed,
        combatants=combatants,
        declarations=declarations,
        distances=tuple(distances),
        hits=tuple(hits),
        rolls=rolls,
        options=_options(r.get("options", dict, {})),
        intents=intents,
        refinements=refinements,
    )
    r.done()
    return encounter


def _rolls(r: _Reader) -> dict[str, int | tuple[int, ...]]:
    """The file's ``[rolls]``: dice rolled at the table, by purpose, a total or a list of faces each."""
    rolls: dict[str, int | tuple[int, ...]] = {}
    for key, value in r.get("rolls", Mapping, {}).items():
        if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            rolls[key] = tuple(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            rolls[key] = value
        else:
            raise EncounterFileError(f"rolls.{key}", f"a roll is a whole number or a list of faces, got {value!r}")
    return rolls


_HIT_POINTS: Final = "hit points: "
"""How the key of a figure's hit points' roll starts, its name after it (``hit points: Goblin 3``,
:func:`~combatkit.monsters.monster`)."""


def _rolls_left(rolls: Mapping[str, int | tuple[int, ...]], roller: Roller) -> dict[str, int | tuple[int, ...]]:
    """``rolls`` without the hit points ``roller`` took from them as the figures were made (those hit points are
    the figures', written as such when the file is saved); a number entered for hit points no figure rolls is
    refused, as a round refuses a number no roll of it is called."""
    rolled = [roll.purpose for roll in roller.log]
    for key in rolls:
        if key.startswith(_HIT_POINTS) and key not in rolled:
            said = ", ".join(repr(k) for k in rolled) or "none: each figure's are given"
            raise EncounterFileError(f"rolls.{key}", f"no figure's hit points are rolled under this key, so the number "
                                                     f"entered would be ignored; the hit points rolled are {said}")
    return {k: v for k, v in rolls.items() if k not in rolled}


def _each(data: Any, path: str, names: list[str]) -> list[Any]:
    """An intent whose ``actor`` is ``"each goblin"`` (whatever its case; not a figure's own name) as one intent a
    figure of the group: every figure named ``Goblin`` or ``Goblin N`` (:func:`~combatkit.monsters.group_of`), in
    the encounter's order; any other intent as it is."""
    actor = data.get("actor") if isinstance(data, Mapping) else None
    if not isinstance(actor, str) or actor in names or actor[:5].lower() != "each ":
        return [data]
    group = actor[5:].strip()
    figures = [name for name in names if group_of(name).lower() == group.lower()]
    if not figures:
        groups = {group_of(name).lower(): group_of(name) for name in names}
        near = difflib.get_close_matches(group.lower(), list(groups), n=1, cutoff=0.6)
        hint = f" (did you mean \"each {groups[near[0]]}\"?)" if near else ""
        raise EncounterFileError(f"{path}.actor", f"{actor!r} names no figure (none is called {group!r}, "
                                                  f"{group + ' 1'!r}, {group + ' 2'!r}...){hint}; the groups are "
                                                  f"{', '.join(groups.values())}")
    return [{**data, "actor": name} for name in figures]


def _system_id(name: str) -> str:
    """The registered id of the system called ``name`` (an id or alias), else ``name`` as given."""
    try:
        return find_system(name).id
    except RulesError:
        return name


def _system(r: _Reader) -> str:
    """The file's ``system``: a registered system's id (an alias is read as its id), or the name of one
    combatkit lacks, kept as written (a homebrew system: the encounter still runs under the others). An
    empty name is refused: it was dropped on save and came back as phase1."""
    text = r.get("system", str, "phase1")
    if not text.strip():
        raise EncounterFileError(r.at("system"), f"names no timing system, got {text!r}; leave it out for phase1, "
                                                 f"or give an id: {', '.join(sorted(SYSTEMS))}")
    return _system_id(text)


_TOO_DEEP = ("nested too deep to read: an encounter file's values go a few levels deep at most (a list of "
             "tables holding lists), see docs/encounter-format.md")


def load_encounter(path: str | Path) -> Encounter:
    """Read a ``.toml`` or ``.json`` encounter file: UTF-8 text (a byte-order mark is allowed), as TOML 1.0
    and JSON (RFC 8259) files are; anything else is an :class:`~combatkit.errors.EncounterFileError`."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise EncounterFileError("file", f"{path.name} is not UTF-8 text (byte {data[error.start]:#04x} at offset "
                                         f"{error.start}); TOML and JSON files are UTF-8 (TOML 1.0, RFC 8259): "
                                         f"save it as UTF-8") from None
    return loads_encounter(text, fmt=path.suffix.lstrip(".").lower(), folder=path.parent)


def loads_encounter(text: str, fmt: str = "toml", *, folder: str | Path | None = None) -> Encounter:
    """Parse encounter text in ``toml`` or ``json``. Whatever the text, the answer is an encounter or an
    :class:`~combatkit.errors.EncounterFileError` naming what is wrong (never a ``RecursionError`` for
    values nested thousands deep, nor Python's message for a number of 4300 digits and more). ``folder`` is where
    a ``library`` the text names is read from; without it, the text can name none."""
    if fmt not in ("json", "toml"):
        raise EncounterFileError("file", f"encounter files are .toml or .json, got .{fmt}")
    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise EncounterFileError("file", f"not valid {fmt.upper()}: {error}") from None
    except RecursionError:
        raise EncounterFileError("file", _TOO_DEEP) from None
    except ValueError as error:  # int(): a number of over 4300 digits
        raise EncounterFileError("file", f"not valid {fmt.upper()} for an encounter: a number longer than any "
                                         f"field takes ({str(error).split(':')[0]})") from None
    if fmt == "json":
        _no_surrogates(data)
    try:
        return encounter_from_dict(data, folder=folder)
    except RecursionError:
        raise EncounterFileError("file", _TOO_DEEP) from None


def _no_surrogates(data: Any) -> None:
    """Refuse text holding a lone surrogate (JSON can escape one, ``"\\ud800"``): it is no character, so no
    file can be saved with it (RFC 8259 §8.2: strings of Unicode characters)."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
            texts: Iterable[str] = value.keys()
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
            texts = ()
        else:
            texts = (value,) if isinstance(value, str) else ()
        for text in texts:
            if any("\ud800" <= ch <= "\udfff" for ch in text):
                raise EncounterFileError(path or "file", f"{text.encode('utf-8', 'backslashreplace').decode()!r} holds "
                                                         f"a lone surrogate, which is no character: a file's text is "
                                                         f"Unicode (RFC 8259 §8.2)")


# ---------------------------------------------------------------- writing


def _without_defaults(obj: Any, names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``obj``'s fields that differ from their defaults, by their names in a file (a declared field's
    :attr:`~combatkit.fields.FieldSpec.file`, else ``names`` or the attribute's own)."""
    specs = field_specs(obj.__class__)
    out: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if value != default_of(f):
            out[specs[f.name].file if f.name in specs else (names or {}).get(f.name, f.name)] = value
    return out


def _written_out(obj: Weapon | Spell) -> dict[str, Any]:
    """The fields that make ``obj``'s table one written out (:data:`_WRITTEN_OUT`), by their names in a file."""
    return {d.spec.file: getattr(obj, d.name) for d in declared(type(obj)) if d.spec.file in _WRITTEN_OUT[type(obj)]}


def encounter_to_dict(encounter: Encounter) -> dict[str, Any]:
    """The encounter as plain data in the file format (defaults left out). Every weapon and spell is written out in
    full, its ``sf`` and ``damage`` (``level`` and ``ct``) always, so that it reads back as written whatever library
    the reader has (:data:`_WRITTEN_OUT`); the ``library`` a file was read with is not kept."""

    def plain(value: Any) -> Any:
        if isinstance(value, Fraction):
            return int(value) if value.denominator == 1 else str(value)
        if hasattr(value, "value") and not isinstance(value, int):  # enums
            return value.value
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    def combatant(c: Combatant) -> dict[str, Any]:
        out = _without_defaults(c)
        if _has_group(c.char_class):  # a character's THAC0 is its class's at its level unless written (_figures)
            out.pop("thac0", None)
            if c.thac0 != _class_thac0(c):
                out["thac0"] = c.thac0
        out.pop("abilities", None)
        out.update(_without_defaults(c.abilities))
        out["weapons"] = [{"name": w.name} | _written_out(w) | _without_defaults(w) for w in c.weapons]
        out["spells"] = [{"name": s.name} | _written_out(s) | _without_defaults(s)
                         | ({"effect": effect_to_table(s.effect)} if s.effect is not None else {}) for s in c.spells]
        for key in ("weapons", "spells"):
            if not out[key]:
                del out[key]
        return {k: plain(v) for k, v in out.items() if k not in ("weapons", "spells")} | {
            k: [{kk: plain(vv) for kk, vv in item.items()} for item in out[k]] for k in ("weapons", "spells") if k in out
        }

    def declaration(d: Declaration) -> dict[str, Any]:
        out = {"actor": d.actor, "phase": d.phase, "action": d.kind.value}
        out.update(_without_defaults(d, {}))
        out.pop("kind", None)
        return {k: plain(v) for k, v in out.items()}

    def intent(i: Intent) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": i.actor, "do": i.kind.value}
        out.update(_without_defaults(i, {}))
        out.pop("kind", None)
        if len(i.weapons) == 1:
            out["weapon"] = out.pop("weapons")[0]
        return {k: plain(v) for k, v in out.items()}

    def refinement(x: Refinement) -> dict[str, Any]:
        out: dict[str, Any] = {"system": x.system, "actor": x.actor, "step": x.step}
        if len(x.phases) == 1:
            out["phase"] = x.phases[0]
        out.update({k: v for k, v in _without_defaults(x, {}).items() if len(x.phases) != 1 or k != "phases"})
        if len(x.weapons) == 1:
            out["weapon"] = out.pop("weapons")[0]
        return {k: plain(v) for k, v in out.items()}

    data: dict[str, Any] = {"title": encounter.title}
    for key in ("description", "system", "round", "seed"):
        value = getattr(encounter, key)
        if value not in ("", None) and not (key == "round" and value == 1):
            data[key] = value
    if encounter.rolls:
        data["rolls"] = {k: list(v) if isinstance(v, tuple) else v for k, v in encounter.rolls.items()}
    options = {sid: {name: plain_option(value) for name, value in table.items()}
               for sid, table in encounter.options.items() if table}
    if options:
        data["options"] = options
    data["combatants"] = [combatant(c) for c in encounter.combatants]
    if encounter.intents:
        data["intents"] = [intent(i) for i in encounter.intents]
    if encounter.refinements:
        data["refinements"] = [refinement(x) for x in encounter.refinements]
    if encounter.declarations:
        data["declarations"] = [declaration(d) for d in encounter.declarations]
    if encounter.distances:
        data["distances"] = [{"a": a, "b": b, "feet": f} for a, b, f in encounter.distances]
    if encounter.hits:
        data["hits"] = [_without_defaults(h, {}) | {"target": h.target, "tick": h.tick} for h in encounter.hits]
    return data


def dumps_toml(encounter: Encounter) -> str:
    """The encounter as TOML text that :func:`loads_encounter` reads back, written by tomli-w (which
    escapes what TOML forbids in a string, such as U+007F).

    >>> loads_encounter(dumps_toml(load_example("ct9-spell-vs-sword"))) == load_example("ct9-spell-vs-sword")
    True
    """
    return tomli_w.dumps(encounter_to_dict(encounter))


def save_encounter(encounter: Encounter, path: str | Path) -> None:
    """Write ``.toml`` or ``.json`` by the path's suffix."""
    path = Path(path)
    if path.suffix == ".json":
        path.write_text(json.dumps(encounter_to_dict(encounter), indent=2) + "\n", encoding="utf-8")
    elif path.suffix == ".toml":
        path.write_text(dumps_toml(encounter), encoding="utf-8")
    else:
        raise EncounterFileError("file", f"encounter files are .toml or .json, got {path.suffix or 'no suffix'}")


# ---------------------------------------------------------------- shipped examples


def example_encounters() -> dict[str, str]:
    """Shipped example encounters: file stem -> title."""
    folder = resources.files("combatkit.data") / "encounters"
    out = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            out[item.name.removesuffix(".toml")] = tomllib.loads(item.read_text(encoding="utf-8"))["title"]
    return out


def load_example(name: str) -> Encounter:
    """Load a shipped example by its file stem, e.g. ``"fighter-and-mage-vs-orc-archer"``."""
    folder = resources.files("combatkit.data") / "encounters"
    item = folder / f"{name}.toml"
    if not item.is_file():
        raise EncounterFileError("example", f"no shipped encounter {name!r}; have {sorted(example_encounters())}")
    return loads_encounter(item.read_text(encoding="utf-8"), "toml")
