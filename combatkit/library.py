"""Weapons and spells by name: the Player's Handbook (2e) weapon table and spell lists as data, and a DM's own.

An encounter file names a weapon or a spell instead of writing it out (``weapons = ["long sword"]``,
``spells = ["sleep"]``, docs/encounter-format.md); this module finds it. The shipped rows are
``combatkit/data/weapons_ph2e.toml`` (PH 2e Table 44, with Table 45's rates of fire; the ranges stay in
``missile_ranges_ph2e.toml``, joined by the weapon's name) and ``combatkit/data/spells_ph2e.toml`` (the PH 2e spell
lists: level, casting time, components and touch). What a spell does is ``spell_effects.toml``'s, found by the
spell's name when it goes off (:func:`combatkit.effects.spell_effect`), as for a spell a file writes out. A DM's
library is a TOML file of the same rows (:meth:`Library.load`) whose entries shadow the book's.

Names match whatever their case, by alias too, and ``-``, ``,`` and ``'`` are not told apart; a miss names the
table and the closest names:

>>> weapon("Longsword", magic=1)
Weapon(name='long sword', speed_factor=5, magic_bonus=1, style_bonus=0, kind=<WeaponKind.MELEE: 'melee'>, \
length=<Length.MEDIUM: 'medium'>, damage='d8', rate_of_fire=Fraction(1, 1), attacks_per_round=None)
>>> spell("web").level, spell("web").casting_time, spell("web").components
(2, 2, 'V,S,M')
>>> find("long swrod")
Traceback (most recent call last):
...
combatkit.library.LibraryNameError: no weapon "long swrod" in PH 2e Table 44; did you mean "long sword" or "long bow"?

A name on both spell lists is the caster's list's, or named outright:

>>> spell("hold person", caster_class="cleric").casting_time, spell("hold person (wizard)").casting_time
(5, 3)
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Literal, TypeVar

from mypy_extensions import mypyc_attr

from combatkit.battle import missile_range
from combatkit.dice import Dice, DiceNotationError
from combatkit.effects import effect_from_table
from combatkit.errors import EncounterFileError, RulesError, is_whole
from combatkit.fields import Declared, declared
from combatkit.model import Spell, Weapon

__all__ = [
    "SPELL_LISTS",
    "WEAPON_TABLE",
    "Library",
    "LibraryFileError",
    "LibraryNameError",
    "SpellEntry",
    "WeaponEntry",
    "builtin",
    "find",
    "spell",
    "spells",
    "weapon",
    "weapons",
]

WEAPON_TABLE: Final = "PH 2e Table 44"
"""The shipped weapons' table, as a refusal names it."""
SPELL_LISTS: Final = "the PH 2e spell lists"
"""The shipped spells' lists, as a refusal names them."""
LISTS: Final = ("wizard", "priest")
"""The spell lists a spell's ``class`` names (PH 2e Chapter 3)."""
SIZES: Final = ("S", "M", "L")
"""Table 44's sizes."""

Kind = Literal["weapon", "spell"]
"""Which table :meth:`Library.find` searches."""

T = TypeVar("T")

_TYPE = re.compile(r"[SPB](/[SPB])*|—")
"""Table 44's damage types: S, P, B or two of them ("P/S"), or "—" where it prints none."""
_QUALIFIED = re.compile(r"(.*?)\s*\((wizard|priest)\)\s*", re.IGNORECASE)
"""A spell named with its list: ``"hold person (priest)"``."""
_FOLD = str.maketrans({"-": " ", ",": " ", "'": "", "’": ""})


def _key(name: str) -> str:
    """How names are matched: lower case, ``-`` and ``,`` as spaces, ``'`` dropped, spaces collapsed.

    >>> _key("Footman's  Flail"), _key("bastard sword, two-handed")
    ('footmans flail', 'bastard sword two handed')
    """
    return " ".join(name.lower().translate(_FOLD).split())


@mypyc_attr(native_class=False)  # beside RulesError, a Python class
class LibraryNameError(RulesError):
    """A name a library cannot resolve to one entry: no row has it (``near`` holds the closest names), or it is a
    wizard's spell and a priest's and nothing says whose. ``rule`` is the table or lists searched."""

    def __init__(self, table: str, message: str, near: tuple[str, ...] = ()) -> None:
        super().__init__(table, message)
        self.args = (message,)  # the message names the table already
        self.near = near


@mypyc_attr(native_class=False)  # beside EncounterFileError, a Python class
class LibraryFileError(EncounterFileError):
    """A library's row with a missing, mistyped or impossible field; ``field`` is the path to the value in the file
    (``weapon[3].sf``; ``file`` for the file itself)."""


@dataclass(frozen=True)
class WeaponEntry:
    """One row of a weapon table: the weapon as the engine plays it, and the columns of the book's table it does
    not."""

    weapon: Weapon
    """The weapon: its SF, its damage against small and medium creatures, kind, length and rate of fire."""
    size: str = ""
    """S, M or L (PH 2e Table 44); empty where a DM's row gives none."""
    damage_type: str = ""
    """S, P, B or two of them (``"P/S"``), ``"—"`` for none (PH 2e Table 44, "Type"); empty where a DM's row gives
    none."""
    damage_large: str = ""
    """Damage against large creatures: dice, or a whole number (``"1"``) where the table prints one."""
    aliases: tuple[str, ...] = ()
    """Other names it is found by."""
    source: str = ""
    """Where its numbers come from (``"PH 2e Table 44"``)."""

    @property
    def name(self) -> str:
        """The weapon's name."""
        return self.weapon.name

    @property
    def ranges(self) -> tuple[int, int, int] | None:
        """Short, medium and long range in feet, from ``missile_ranges_ph2e.toml`` by the weapon's name, as the engine
        finds them (:func:`combatkit.battle.missile_range`); None for a weapon it has none for.

        >>> find("long bow").ranges, find("long sword").ranges
        ((70, 140, 210), None)
        """
        return missile_range(self.weapon)


@dataclass(frozen=True)
class SpellEntry:
    """One row of a spell list: the spell as the engine times it, the list it is on and where it comes from."""

    spell: Spell
    """The spell: level, casting time, components, touch (its effect, if the row gives one)."""
    caster: str = ""
    """The list it is on: ``"wizard"`` or ``"priest"``; empty where a DM's row names none."""
    aliases: tuple[str, ...] = ()
    """Other names it is found by."""
    source: str = ""
    """Where its numbers come from (``"PH 2e, wizard spells, 1st level"``)."""

    @property
    def name(self) -> str:
        """The spell's name."""
        return self.spell.name


@mypyc_attr(native_class=False)  # built from files and by hand, checked as Python checks it
@dataclass(frozen=True)
class Library:
    """Weapons and spells to find by name, with a library below whose entries its own shadow (a DM's library over
    the shipped one, :func:`builtin`). A name two of its own rows share is refused by the row's field."""

    weapon_table: str
    """What its weapons are, as a refusal names them (``"PH 2e Table 44"``, a DM's file's name)."""
    spell_table: str
    """What its spells are, as a refusal names them."""
    weapon_entries: tuple[WeaponEntry, ...] = ()
    """Its weapons, in the file's order."""
    spell_entries: tuple[SpellEntry, ...] = ()
    """Its spells, in the file's order."""
    casters: Mapping[str, str] = field(default_factory=dict)
    """The list each class casts from, by class name in lower case (``"cleric"``: ``"priest"``)."""
    monsters: tuple[Mapping[str, Any], ...] = ()
    """A DM's ``[[monster]]`` rows, kept as written for the monster library."""
    parent: Library | None = None
    """The library below, searched for a name this one lacks."""
    _weapons: Mapping[str, WeaponEntry] = field(init=False, repr=False, compare=False)
    """Its weapons by each of their names, as :func:`_key` matches them."""
    _spells: Mapping[str, tuple[SpellEntry, ...]] = field(init=False, repr=False, compare=False)
    """Its spells by each of their names: one, or a wizard's and a priest's."""
    _named: Mapping[Kind, Mapping[str, str]] = field(init=False, repr=False, compare=False)
    """The name of the entry each key (a name or an alias) finds, for the closest names a refusal offers."""

    def __post_init__(self) -> None:
        weapons: dict[str, WeaponEntry] = {}
        spells: dict[str, tuple[SpellEntry, ...]] = {}
        named: dict[Kind, dict[str, str]] = {"weapon": {}, "spell": {}}
        for i, w in enumerate(self.weapon_entries):
            for where, name in _names_of(f"weapon[{i}]", w.name, w.aliases):
                key = _key(name)
                if key in weapons:
                    raise LibraryFileError(where, f"{name!r} is a name of {weapons[key].name!r} already")
                weapons[key] = w
                named["weapon"][key] = w.name
        for i, s in enumerate(self.spell_entries):
            for where, name in _names_of(f"spell[{i}]", s.name, s.aliases):
                key = _key(name)
                if any(other.caster == s.caster for other in spells.get(key, ())):
                    whose = f"a {s.caster} spell" if s.caster else "a spell of no list"
                    raise LibraryFileError(where, f"{name!r} is a name of {whose} already")
                spells[key] = (*spells.get(key, ()), s)
                named["spell"][key] = s.name
        object.__setattr__(self, "_weapons", MappingProxyType(weapons))
        object.__setattr__(self, "_spells", MappingProxyType(spells))
        object.__setattr__(self, "_named", MappingProxyType({k: MappingProxyType(v) for k, v in named.items()}))

    @classmethod
    def load(cls, path: str | Path, *, parent: Library | None = None) -> Library:
        """A DM's library: the TOML file at ``path`` (UTF-8), of ``[[weapon]]`` and ``[[spell]]`` rows written as the
        shipped ones are (an encounter file's weapon or spell table, with the book's columns), ``[[monster]]`` rows
        kept as written, and a ``[casters]`` table adding classes to the lists. Its entries shadow ``parent``'s
        (default: the shipped library). A bad row is refused by its field: ``weapon[3].sf: SF is -5..20 (000 §1 E),
        got 40``."""
        path = Path(path)
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except OSError as error:
            raise LibraryFileError("file", f"cannot read {path.name}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise LibraryFileError("file", f"{path.name} is not UTF-8 text: save it as UTF-8") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise LibraryFileError("file", f"{path.name} is not valid TOML: {error}") from None
        return _library(data, path.name, path.name, builtin() if parent is None else parent)

    def find(self, name: str, kind: Kind = "weapon", *, caster_class: str | None = None) -> WeaponEntry | SpellEntry:
        """The entry called ``name`` (or by an alias) in this library, else in the one below; for a spell on both
        lists, the list of ``caster_class``'s (a class in an encounter file: ``"mage"``, ``"cleric"``), or the
        one a name like ``"hold person (priest)"`` gives. A miss is a :class:`LibraryNameError` naming the table and
        the closest names."""
        return self._weapon_entry(name) if kind == "weapon" else self._spell_entry(name, caster_class)

    def knows(self, name: str, kind: Kind = "weapon") -> bool:
        """Whether this library, or one below, has an entry called ``name``.

        >>> builtin().knows("Long Sword"), builtin().knows("great club"), builtin().knows("hold person (priest)", "spell")
        (True, False, True)
        """
        key = _key(_unqualified(name)[0] if kind == "spell" else name)
        return any(key in (lib._weapons if kind == "weapon" else lib._spells) for lib in self._chain())

    def weapon(self, name: str, *, magic: int | None = None, **fields: Any) -> Weapon:
        """The weapon of the entry called ``name``, its fields replaced by ``fields`` (a :class:`Weapon`'s, by
        attribute: ``length=Length.LONG``) and its +N by ``magic`` if given; refused by the weapon's own check if
        they are out of range."""
        changes = fields if magic is None else {**fields, "magic_bonus": magic}
        return replace(self._weapon_entry(name).weapon, **changes)

    def spell(self, name: str, *, caster_class: str | None = None, **fields: Any) -> Spell:
        """The spell of the entry called ``name`` (for a spell on both lists, ``caster_class``'s list's: see
        :meth:`find`), its fields replaced by ``fields`` (a :class:`Spell`'s, by attribute)."""
        return replace(self._spell_entry(name, caster_class).spell, **fields)

    def weapons(self) -> tuple[str, ...]:
        """The names of its weapons and those below it it does not shadow, in alphabetical order."""
        return self._names("weapon")

    def spells(self) -> tuple[str, ...]:
        """The names of its spells and those below it it does not shadow (one for a name on both lists), in
        alphabetical order."""
        return self._names("spell")

    # ----------------------------------------------------------------- finding

    def _chain(self) -> Iterator[Library]:
        lib: Library | None = self
        while lib is not None:
            yield lib
            lib = lib.parent

    def _names(self, kind: Kind) -> tuple[str, ...]:
        names: dict[str, str] = {}
        for lib in self._chain():
            entries = lib.weapon_entries if kind == "weapon" else lib.spell_entries
            for entry in entries:
                names.setdefault(_key(entry.name), entry.name)
        return tuple(sorted(names.values(), key=str.lower))

    def _tables(self, kind: Kind) -> str:
        """The tables a search went through, for a refusal: ``"my-campaign.toml or PH 2e Table 44"``."""
        return " or ".join(lib.weapon_table if kind == "weapon" else lib.spell_table for lib in self._chain())

    def _weapon_entry(self, name: str) -> WeaponEntry:
        key = _key(name)
        for lib in self._chain():
            if key in lib._weapons:
                return lib._weapons[key]
        raise self._missing(name, "weapon")

    def _spell_entry(self, name: str, caster_class: str | None) -> SpellEntry:
        plain, listed = _unqualified(name)
        key = _key(plain)
        for lib in self._chain():
            if key in lib._spells:
                return self._pick(plain, lib._spells[key], listed, caster_class)
        raise self._missing(plain, "spell")

    def _pick(self, name: str, rows: tuple[SpellEntry, ...], listed: str | None, caster_class: str | None
              ) -> SpellEntry:
        """The one of ``rows`` (spells sharing a name) a caster means: the list named with it, else the only one,
        else the caster's class's list's."""
        tables = self._tables("spell")
        if listed is not None:
            for row in rows:
                if row.caster == listed:
                    return row
            lists = " and ".join(f"a {r.caster} spell" if r.caster else "a spell of no list" for r in rows)
            raise LibraryNameError(tables, f'no {listed} spell "{name}" in {tables}; it is {lists}')
        if len(rows) == 1:
            return rows[0]
        caster = self._list_of(caster_class)
        for row in rows:
            if row.caster == caster:
                return row
        both = " and ".join(f"a {r.caster} spell ({_ordinal(r.spell.level)} level)" for r in rows)
        whose = (f"a {caster_class} casts from neither list" if caster_class else "nothing says whose")
        named = _either([f'"{name} ({r.caster})"' for r in rows])
        raise LibraryNameError(tables, f'"{name}" is {both} in {tables}, and {whose}: write {named}')

    def _list_of(self, caster_class: str | None) -> str | None:
        """The spell list ``caster_class`` casts from, by the first library that says."""
        if not caster_class:
            return None
        for lib in self._chain():
            if caster_class.strip().lower() in lib.casters:
                return lib.casters[caster_class.strip().lower()]
        return None

    def _missing(self, name: str, kind: Kind) -> LibraryNameError:
        """The refusal of a name no row has: the tables searched and the closest names (difflib)."""
        named: dict[str, str] = {}
        for lib in reversed(list(self._chain())):  # a DM's entry shadows the one below
            named.update(lib._named[kind])
        near = tuple(dict.fromkeys(named[k] for k in difflib.get_close_matches(_key(name), list(named), n=3)))
        tables = self._tables(kind)
        quoted = [f'"{n}"' for n in near]
        hint = f"; did you mean {_either(quoted)}?" if near else ""
        return LibraryNameError(tables, f'no {kind} "{name}" in {tables}{hint}', near)


def _either(words: list[str]) -> str:
    """Alternatives in words: ``a``, ``a or b``, ``a, b or c``."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _unqualified(name: str) -> tuple[str, str | None]:
    """A spell's name and the list a ``"(wizard)"`` or ``"(priest)"`` after it names, if any."""
    match = _QUALIFIED.fullmatch(name)
    return (match[1], match[2].lower()) if match else (name, None)


def _names_of(where: str, name: str, aliases: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """A row's names with the field each is written in: its ``name``, then its ``aliases``."""
    yield f"{where}.name", name
    for i, alias in enumerate(aliases):
        yield f"{where}.aliases[{i}]", alias


# ----------------------------------------------------------------- reading rows


def _library(data: Mapping[str, Any], weapon_table: str, spell_table: str, parent: Library | None) -> Library:
    """A library of a parsed file (or the shipped two, merged): its rows read and checked by their fields."""
    for key in data:
        if key not in ("weapon", "spell", "monster", "casters"):
            raise LibraryFileError(str(key), "is not a table a library has: [[weapon]], [[spell]], [[monster]] "
                                             "and [casters]")
    monsters = []
    for i, row in enumerate(_rows(data, "monster")):
        if not isinstance(row, Mapping):
            raise LibraryFileError(f"monster[{i}]", f"expected a table of the monster's fields, got {row!r}")
        monsters.append(MappingProxyType(dict(row)))
    return Library(weapon_table, spell_table,
                   tuple(_weapon_row(row, f"weapon[{i}]") for i, row in enumerate(_rows(data, "weapon"))),
                   tuple(_spell_row(row, f"spell[{i}]") for i, row in enumerate(_rows(data, "spell"))),
                   MappingProxyType(_casters(data.get("casters", {}))), tuple(monsters), parent)


def _rows(data: Mapping[str, Any], key: str) -> list[Any]:
    rows = data.get(key, [])
    if not isinstance(rows, list):
        raise LibraryFileError(key, f"expected [[{key}]] tables, got {rows!r}")
    return rows


def _casters(table: Any) -> dict[str, str]:
    """``[casters]``: for each list, the classes that cast from it."""
    if not isinstance(table, Mapping):
        raise LibraryFileError("casters", f"expected a table of lists of class names (wizard = [...]), got {table!r}")
    out: dict[str, str] = {}
    for listed, classes in table.items():
        if listed not in LISTS:
            raise LibraryFileError(f"casters.{listed}", f"the lists are {' and '.join(LISTS)}")
        if not isinstance(classes, list) or not all(isinstance(c, str) and c.strip() for c in classes):
            raise LibraryFileError(f"casters.{listed}", f"expected a list of class names, got {classes!r}")
        out.update({c.strip().lower(): listed for c in classes})
    return out


_WEAPON_COLUMNS: Final = ("size", "type", "damage_large", "aliases", "source")
_SPELL_COLUMNS: Final = ("class", "aliases", "source", "effect")


def _weapon_row(row: Any, where: str) -> WeaponEntry:
    """One ``[[weapon]]`` row: a weapon table as an encounter file writes it, with Table 44's other columns."""
    values = _values(row, where, Weapon, _WEAPON_COLUMNS, "weapon")
    weapon = _made(lambda: Weapon(**values), where)
    size = _text(row, "size", where)
    if size and size not in SIZES:
        raise LibraryFileError(f"{where}.size", f"a size is {', '.join(SIZES)}; got {size!r}")
    damage_type = _text(row, "type", where)
    if damage_type and not _TYPE.fullmatch(damage_type):
        raise LibraryFileError(f"{where}.type", f'a type is S, P, B or two of them ("P/S"), or "—"; got {damage_type!r}')
    return WeaponEntry(weapon, size, damage_type, _large(row, where), _aliases(row, where), _text(row, "source", where))


def _spell_row(row: Any, where: str) -> SpellEntry:
    """One ``[[spell]]`` row: a spell table as an encounter file writes it, with the list it is on."""
    values = _values(row, where, Spell, _SPELL_COLUMNS, "spell")
    if "effect" in row:
        try:
            values["effect"] = effect_from_table(row["effect"], f"{where}.effect", values["name"])
        except EncounterFileError as error:
            raise LibraryFileError(error.field, error.message) from None
    spell = _made(lambda: Spell(**values), where)
    caster = _text(row, "class", where)
    if caster and caster not in LISTS:
        raise LibraryFileError(f"{where}.class", f"the lists are {' and '.join(LISTS)}; got {caster!r}")
    return SpellEntry(spell, caster, _aliases(row, where), _text(row, "source", where))


def _values(row: Any, where: str, cls: type, columns: tuple[str, ...], kind: str) -> dict[str, Any]:
    """The values ``row`` gives the declared fields of ``cls`` (:mod:`combatkit.fields`), by attribute, each checked
    as an encounter file's is; a key that is neither one of them nor one of ``columns`` is refused."""
    if not isinstance(row, Mapping):
        raise LibraryFileError(where, f"expected a table of the {kind}'s fields, got {row!r}")
    fields_ = {d.spec.file: d for d in declared(cls)}
    known = [*fields_, *columns]
    for key in row:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise LibraryFileError(f"{where}.{key}", f"is not a field of a {kind}{hint}; fields: {', '.join(known)}")
    if "name" not in row:
        raise LibraryFileError(f"{where}.name", "is required")
    return {d.name: _value(d, row[file], f"{where}.{file}") for file, d in fields_.items() if file in row}


_KINDS: Final[Mapping[str, tuple[type, ...]]] = {"text": (str,), "number": (int,), "flag": (bool,),
                                                 "number text": (int, str)}
_WORDS: Final[Mapping[type, str]] = {int: "a whole number", str: "text", bool: "true or false"}


def _value(d: Declared, value: Any, where: str) -> Any:
    """``value`` for the declared field ``d``, as an encounter file's reader takes it (a choice by its value, a
    fraction as ``2`` or ``"1/2"``), or refused naming ``where``, its range and rule and the value."""
    s = d.spec
    if d.choice is not None:
        if isinstance(value, str) and value.lower() in d.choices:
            return d.choice(value.lower())
        raise LibraryFileError(where, f"must be one of {', '.join(d.choices)}; got {value!r}")
    if d.kind == "fraction":
        try:
            number = Fraction(value) if is_whole(value) or isinstance(value, str) else None
        except (ValueError, ZeroDivisionError):
            number = None
        if number is None:
            raise LibraryFileError(where, f'expected a number like 1, 2 or "3/2", got {value!r}')
        if number <= 0 or not s.fits(number):
            raise LibraryFileError(where, f"{s.cited()}, got {value!r}")
        return number
    kinds = _KINDS[d.kind]
    if isinstance(value, bool) != (bool in kinds) or not isinstance(value, kinds):
        raise LibraryFileError(where, f"expected {' or '.join(_WORDS[k] for k in kinds)}, got {value!r}")
    if not s.fits(value):
        raise LibraryFileError(where, f"{s.cited()}, got {value!r}")
    problem = s.valid(value) if s.valid is not None and isinstance(value, str) else ""
    if problem:
        raise LibraryFileError(where, problem)
    return value


def _made(make: Callable[[], T], where: str) -> T:
    """``make()``, a value type built from checked fields; a combination its own check refuses is refused by the
    row."""
    try:
        return make()
    except RulesError as error:
        raise LibraryFileError(where, f"{error.message} ({error.rule})") from None


def _text(row: Mapping[str, Any], key: str, where: str) -> str:
    value = row.get(key, "")
    if not isinstance(value, str):
        raise LibraryFileError(f"{where}.{key}", f"expected text, got {value!r}")
    return value.strip()


def _large(row: Mapping[str, Any], where: str) -> str:
    """``damage_large``: dice, or a whole number of 0 or more where the table prints one."""
    value = row.get("damage_large", "")
    if is_whole(value) and value >= 0:
        return str(value)
    if isinstance(value, str):
        try:
            return str(Dice.parse(value)) if value else ""
        except DiceNotationError as error:
            raise LibraryFileError(f"{where}.damage_large", str(error)) from None
    raise LibraryFileError(f"{where}.damage_large", f"expected dice or a whole number, got {value!r}")


def _aliases(row: Mapping[str, Any], where: str) -> tuple[str, ...]:
    value = row.get("aliases", [])
    if not isinstance(value, list) or not all(isinstance(a, str) and _key(a) for a in value):
        raise LibraryFileError(f"{where}.aliases", f"expected a list of names, got {value!r}")
    return tuple(a.strip() for a in value)


# ----------------------------------------------------------------- the shipped library


@cache
def builtin() -> Library:
    """The shipped library: PH 2e Table 44's weapons (``weapons_ph2e.toml``) and the PH 2e spells
    (``spells_ph2e.toml``), read once."""
    folder = resources.files("combatkit.data")
    data = {}
    for name in ("weapons_ph2e.toml", "spells_ph2e.toml"):
        data.update(tomllib.loads(folder.joinpath(name).read_text(encoding="utf-8")))
    return _library(data, WEAPON_TABLE, SPELL_LISTS, None)


def find(name: str, kind: Kind = "weapon", *, caster_class: str | None = None) -> WeaponEntry | SpellEntry:
    """The shipped entry called ``name`` (:meth:`Library.find`)."""
    return builtin().find(name, kind, caster_class=caster_class)


def weapon(name: str, *, magic: int | None = None, **fields: Any) -> Weapon:
    """The shipped weapon called ``name``, with ``fields`` replaced (:meth:`Library.weapon`).

    >>> weapon("two-handed sword").speed_factor, weapon("dagger").damage, weapon("heavy crossbow").rate_of_fire
    (10, 'd4', Fraction(1, 2))
    """
    return builtin().weapon(name, magic=magic, **fields)


def spell(name: str, *, caster_class: str | None = None, **fields: Any) -> Spell:
    """The shipped spell called ``name``, with ``fields`` replaced (:meth:`Library.spell`)."""
    return builtin().spell(name, caster_class=caster_class, **fields)


def weapons() -> tuple[str, ...]:
    """The shipped weapons' names."""
    return builtin().weapons()


def spells() -> tuple[str, ...]:
    """The shipped spells' names."""
    return builtin().spells()
