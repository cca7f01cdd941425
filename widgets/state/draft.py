"""An encounter being edited: the working copy behind :class:`~combatkit.widgets.views.timeline.TimelineExplorer`.

A form keeps whatever the user typed, including values the rules reject, so the
working copy cannot be a frozen :class:`~combatkit.Encounter`. It holds the encounter
file's fields (the format of docs/encounter-format.md) as plain data, with two changes:
intents, distances and hits point at combatants, weapons and spells by a stable id
instead of by name, and each intent carries its refinements by system (the file's
``[[refinements]]`` number a figure's intents, which shift as intents come and go).
Renaming a combatant (or giving two the same name for a moment) then never loses or
mixes up who means to do what. :meth:`EncounterDraft.to_dict` writes the names back, and
the engine's own reader checks the result, naming any bad field
(``combatants[1].dex: DEX is 1..25 (PH Table 2), got 40``).

>>> from combatkit import load_example
>>> draft = EncounterDraft.from_encounter(load_example("orc-closes-on-longbowman"))
>>> orc = draft.find("Grishnak")
>>> draft.combatants[orc].fields["name"] = "Gorbag"
>>> [(i["actor"], i["do"]) for i in draft.to_dict()["intents"]]
[('Aldric', 'attack'), ('Gorbag', 'move'), ('Gorbag', 'attack')]

Figures come from the books as an encounter file's ``monster = "goblin"`` and ``thac0 = "by class"`` make them
(:meth:`EncounterDraft.add_from_books`: the Monstrous Manual's monsters, characters by class and level with a kit
from the Player's Handbook, and a DM's own library over them, :class:`Books`), each meaning to attack the first foe
there is (:meth:`EncounterDraft.first_foe`), are copied (:meth:`EncounterDraft.duplicate`), and a figure's intents
are given to each of its kind (:meth:`EncounterDraft.same_for_each`, what a file's ``actor = "each goblin"`` says):

>>> goblins = draft.add_from_books("goblin", 3, side="orcs")
>>> [(c.name, c.side, c.hit_points, c.thac0) for c in draft.encounter().combatants[2:]]
[('Goblin 1', 'orcs', 5, 20), ('Goblin 2', 'orcs', 1, 20), ('Goblin 3', 'orcs', 7, 20)]
>>> [i.words() for i in draft.encounter().intents if i.actor.startswith("Goblin")]
['attack Aldric', 'attack Aldric', 'attack Aldric']
"""

from __future__ import annotations

import copy
import itertools
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from combatkit.encounter import Encounter
from combatkit.encounter_files import encounter_from_dict, encounter_to_dict, with_intents
from combatkit.errors import is_whole
from combatkit.intent import COMPONENTS
from combatkit.library import Library, builtin
from combatkit.model import Combatant
from combatkit.monsters import (CHARACTER_THAC0_RULE, HitPoints, MonsterEntry, UnknownClassError, UnknownMonsterError,
                                character, class_group, find_monster, group_of, monster, monster_entries, monsters,
                                numbered)
from combatkit.systems.base import TableRoller

__all__ = ["GROUP_KITS", "KITS", "Books", "CombatantDraft", "EncounterDraft", "Kit", "Ref", "read_search"]

Ref = int | str
"""A combatant, weapon or spell id; a name the encounter does not know stays a ``str`` (the engine reports it)."""

_ids = itertools.count(1)


@dataclass(frozen=True)
class Kit:
    """What a character from the books starts with: the weapons and spells a DM's ready-made figure of its class
    might carry, by their names in the Player's Handbook (2e) library (:mod:`combatkit.library`)."""

    weapons: tuple[str, ...]
    """Weapons, by their names in PH 2e Table 44 (its first is the one it strikes with unless told)."""
    spells: tuple[str, ...] = ()
    """Spells, by their names in the PH 2e spell lists."""


KITS: Final = {
    "fighter": Kit(("long sword",)),
    "paladin": Kit(("long sword",)),
    "ranger": Kit(("long sword", "long bow")),
    "cleric": Kit(("mace",), ("bless", "cure light wounds")),
    "druid": Kit(("scimitar",), ("cure light wounds",)),
    "thief": Kit(("short sword", "short bow")),
    "bard": Kit(("long sword",), ("charm person",)),
    "mage": Kit(("dagger",), ("sleep", "magic missile")),
    "illusionist": Kit(("dagger",), ("color spray",)),
}
"""Each class's kit, for a character added from the books; a class not here takes its class group's (PH 2e: a
``magic-user`` a mage's, a ``cavalier`` a fighter's, :data:`GROUP_KITS`)."""
GROUP_KITS: Final = {"warrior": "fighter", "priest": "cleric", "rogue": "thief", "wizard": "mage"}
"""The class of :data:`KITS` whose kit a class of each PH 2e class group takes when it has none of its own."""
TEMPLATE_LEVELS: Final = (1, 3, 5)
"""The levels the search offers each class at (``"fighter 3"``); any other is typed (``"fighter 7"``)."""
_CHARACTER: Final = re.compile(r"(?P<cls>[^\d]*?)\s*(?P<level>\d+)?")
"""A character by class and level, ``"fighter 3"`` (a class alone is 1st level)."""
_COUNT_FIRST: Final = re.compile(r"(?P<count>\d+)\s*[x×]?\s+(?P<name>\D.*)")
"""How many, before what: ``"6 goblins"``, ``"6 x goblin"``, ``"2 fighter 3"``."""
_COUNT_AFTER: Final = re.compile(r"(?P<name>.*\S)\s+[x×]\s*(?P<count>\d+)")
"""How many, after what: ``"goblin x6"``, ``"fighter 3 x 2"``."""
_PLURALS: Final = (("ies", "y"), ("ves", "f"), ("ves", "fe"), ("es", ""), ("s", ""))
"""English plural endings and the singular endings they may stand for (``wolves``: ``wolf``)."""


def read_search(text: str) -> tuple[str, int | None]:
    """A search of the books as typed: what it names, and how many when it says (``"6 goblins"``, ``"goblin x6"``);
    a number after a class is its level (``"fighter 3"``), not a count.

    >>> read_search(" 6 goblins"), read_search("Goblin x 6"), read_search("fighter 3"), read_search("2 mage 5")
    (('goblins', 6), ('Goblin', 6), ('fighter 3', None), ('mage 5', 2))
    """
    text = " ".join(text.split())
    for pattern in (_COUNT_FIRST, _COUNT_AFTER):
        match = pattern.fullmatch(text)
        if match:
            return match["name"], int(match["count"])
    return text, None


def _singulars(name: str) -> list[str]:
    """``name``, then what it names if its last word is a plural (``"hill giants"``: ``"hill giant"``), in order.

    >>> _singulars("dire wolves"), _singulars("ogre")
    (['dire wolves', 'dire wolf', 'dire wolfe', 'dire wolv', 'dire wolve'], ['ogre'])
    """
    *first, last = name.split(" ")
    found = [name]
    for plural, singular in _PLURALS:
        if last.lower().endswith(plural) and len(last) > len(plural):
            found.append(" ".join([*first, last[: -len(plural)] + singular]))
    return found


def _is_class(name: str) -> bool:
    try:
        class_group(name)
    except UnknownClassError:
        return False
    return True


def _written(figures: Sequence[Combatant]) -> list[dict[str, Any]]:
    """``figures`` as an encounter file writes them (:func:`~combatkit.encounter_to_dict`): the fields that differ
    from their defaults, every weapon and spell written out."""
    return encounter_to_dict(Encounter("", tuple(figures)))["combatants"]


@dataclass(frozen=True)
class Books:
    """What a search of the books finds: the Monstrous Manual's monsters (:mod:`combatkit.monsters`), characters by
    class and level with a kit (:data:`KITS`), and weapons and spells by name (:mod:`combatkit.library`), with a DM's
    own library file over them (:meth:`load`), whose entries shadow the books'.

    >>> Books().weapon("Longsword")
    {'name': 'long sword', 'sf': 5, 'damage': 'd8'}
    >>> Books().find("fighter 3"), Books().find("hill giants").name
    (('fighter', 3), 'Hill giant')
    """

    library: Library = field(default_factory=builtin)
    """Weapons and spells by name: the Player's Handbook's, or a DM's library over them (its ``weapon_table`` is its
    file's name)."""
    monsters: tuple[MonsterEntry, ...] = ()
    """A DM's own monsters (its library's ``[[monster]]`` rows), found before the book's."""

    @classmethod
    def load(cls, name: str, content: bytes) -> Books:
        """The books with a DM's library file over them: ``content`` is the file called ``name`` (TOML, UTF-8, as
        :meth:`Library.load <combatkit.library.Library.load>` reads it), its ``[[monster]]`` rows read at once. A bad
        row is refused by its field: a :class:`~combatkit.library.LibraryFileError` (``weapon[3].sf``; ``file`` for
        the file itself) or a :class:`~combatkit.monsters.MonsterRowError` (``monster[0].hit_dice``)."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / (Path(name).name or "library.toml")
            path.write_bytes(content)
            library = Library.load(path)
        return cls(library, monster_entries(library.monsters, library.weapon_table) if library.monsters else ())

    @property
    def own(self) -> str:
        """The DM's library file's name, or ``""`` for the books alone."""
        return self.library.weapon_table if self.library.parent is not None else ""

    def names(self) -> list[str]:
        """What the search offers: the DM's monsters, a character of each class with a kit at a few levels
        (``"fighter 3"``), then the Monstrous Manual's monsters in its table's order
        (:func:`~combatkit.monsters.monsters`) but those the DM's shadow."""
        shadowed = {n.lower() for m in self.monsters for n in (m.name, *m.aliases)}
        return ([m.name for m in self.monsters] + [f"{cls} {level}" for cls in KITS for level in TEMPLATE_LEVELS]
                + [m for m in monsters() if m.lower() not in shadowed])

    def find(self, text: str) -> MonsterEntry | tuple[str, int]:
        """What a search names, whatever its case, in the singular or the plural (``"goblins"``, ``"dire wolves"``):
        a monster's entry (the DM's before the book's), or a character's class and level (``"fighter 3"``; a class
        alone is 1st level). A name neither is refused with the closest names; a number after a monster's name is
        refused too (``"goblin 3"``: the count says how many)."""
        match = _CHARACTER.fullmatch(text.strip())
        words = " ".join(match["cls"].split()).lower() if match else ""
        level = match["level"] if match else None
        cls = next((form for form in _singulars(words) if _is_class(form)), None)
        if cls is not None:
            return cls, 1 if level is None else int(level)
        if level is not None:
            if any(self._is_monster(form) for form in _singulars(words)):
                raise UnknownClassError(CHARACTER_THAC0_RULE, f'"{text.strip()}": a monster is found by its name '
                                                              f'alone ("{words}", the count says how many), a '
                                                              f'character by its class and level ("fighter 3")')
            class_group(words)  # a class of no group: refused, with the closest names
        return self._monster(" ".join(text.split()))

    def _monster(self, name: str) -> MonsterEntry:
        """The monster ``name`` names, or the one its singular does; a miss is refused as typed."""
        try:
            return find_monster(name, self.monsters, self.library.weapon_table)
        except UnknownMonsterError:
            for form in _singulars(name)[1:]:
                if self._is_monster(form):
                    return find_monster(form, self.monsters, self.library.weapon_table)
            raise

    def _is_monster(self, name: str) -> bool:
        try:
            find_monster(name, self.monsters, self.library.weapon_table)
        except UnknownMonsterError:
            return False
        return True

    def kit(self, cls: str) -> Kit:
        """A character's kit by its class (:data:`KITS`), else by its class group's (:data:`GROUP_KITS`)."""
        return KITS.get(cls) or KITS[GROUP_KITS[class_group(cls)]]

    def weapon(self, name: str) -> dict[str, Any] | None:
        """The weapon called ``name`` (by alias, whatever its case) as a file writes it out, or None when the library
        has none of that name."""
        if not self.library.knows(name):
            return None
        return _written([Combatant("-", "-", weapons=(self.library.weapon(name),))])[0]["weapons"][0]

    def spell(self, name: str, caster_class: str) -> dict[str, Any] | None:
        """The spell called ``name`` (on both lists, the one ``caster_class`` casts from) as a file writes it out, or
        None when the library has none of that name; a name on both lists that the class does not settle is refused
        (:class:`~combatkit.library.LibraryNameError`, naming how to write it)."""
        if not self.library.knows(name, "spell"):
            return None
        spell = self.library.spell(name, caster_class=caster_class)
        return _written([Combatant("-", "-", spells=(spell,))])[0]["spells"][0]


@dataclass
class CombatantDraft:
    """One combatant's table, with its weapons and spells keyed by id."""

    fields: dict[str, Any]
    """Every field of the combatant's table except ``weapons`` and ``spells`` (``name``, ``side``, ``dex``...)."""
    weapons: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Weapon tables (``name``, ``sf``, ``magic``, ``kind``...) by id, in file order."""
    spells: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Spell tables (``name``, ``ct``...) by id, in file order."""

    @property
    def name(self) -> str:
        return str(self.fields.get("name", ""))

    def weapon_id(self, name: str) -> Ref:
        return next((i for i, w in self.weapons.items() if w.get("name") == name), name)

    def spell_id(self, name: str) -> Ref:
        return next((i for i, s in self.spells.items() if s.get("name") == name), name)

    @property
    def first_spell(self) -> int | None:
        """The id of the figure's first spell (what a cast casts unless it names another), or None."""
        return next(iter(self.spells), None)


@dataclass
class EncounterDraft:
    """An editable encounter in file form, with references by id."""

    meta: dict[str, Any]
    """Top-level fields: ``title``, ``description``, ``seed``, ``rolls`` (a dict), ``round``, ``system``,
    ``options`` (a dict of tables by system id)."""
    combatants: dict[int, CombatantDraft]
    """Combatants by id, in file order."""
    intents: list[dict[str, Any]] = field(default_factory=list)
    """Intent tables in file order (each figure's in the order it means to do them); ``actor`` and ``target``
    are combatant ids, ``weapons`` a list of weapon ids, ``spell`` a spell id and ``item`` a weapon id (or
    ``"components"``) of the actor; ``refine`` holds the intent's refinements by system id (each a
    ``[[refinements]]`` table without ``system``, ``actor`` and ``step``)."""
    distances: list[dict[str, Any]] = field(default_factory=list)
    """``{"a": id, "b": id, "feet": n}``."""
    hits: list[dict[str, Any]] = field(default_factory=list)
    """``{"target": id, "tick": n, "source": text}``."""
    waiting: list[dict[str, Any]] = field(default_factory=list)
    """Intents of figures added from the books while they had no foe, each an attack at no one: each is given its
    figure's first foe when one arrives (:meth:`first_foe`), unless it was changed first (:meth:`set_intent`)."""

    # ------------------------------------------------------------ in and out

    @classmethod
    def from_encounter(cls, encounter: Encounter) -> EncounterDraft:
        return cls.from_dict(encounter_to_dict(with_intents(encounter)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EncounterDraft:
        """From file data (as :func:`~combatkit.encounter_to_dict` writes it); declarations written in the
        older format are read as the engine reads them (intents and that system's refinements)."""
        if data.get("declarations"):
            data = encounter_to_dict(with_intents(encounter_from_dict(data)))
        data = copy.deepcopy(data)
        draft = cls({}, {})
        draft._add_tables(data.pop("combatants", []))
        combatants = draft.combatants
        steps: dict[str, list[dict[str, Any]]] = {}
        for i in data.pop("intents", []):
            steps.setdefault(i["actor"], []).append(i)
            actor = draft.find(i["actor"])
            i["actor"] = actor
            if i.get("target") is not None:
                i["target"] = draft.find(i["target"])
            who = combatants.get(actor) if isinstance(actor, int) else None
            names = i.pop("weapons", []) + ([i.pop("weapon")] if "weapon" in i else [])
            if names:
                i["weapons"] = [who.weapon_id(n) if who else n for n in names]
            if i.get("spell") is not None:
                i["spell"] = who.spell_id(i["spell"]) if who else i["spell"]
            elif i.get("do") == "cast" and who is not None and who.spells:
                i["spell"] = who.first_spell  # the file's "the figure's first", by its name from now on
            if i.get("item") not in (None, COMPONENTS):
                i["item"] = who.weapon_id(i["item"]) if who else i["item"]
            i["refine"] = {}
            draft.intents.append(i)
        for r in data.pop("refinements", []):
            mine = steps.get(r["actor"], [])
            if 1 <= r["step"] <= len(mine):
                table = {k: v for k, v in r.items() if k not in ("system", "actor", "step")}
                if "phase" in table:
                    table["phases"] = [table.pop("phase")]
                mine[r["step"] - 1]["refine"][r["system"]] = table
        for item in data.pop("distances", []):
            draft.distances.append(item | {"a": draft.find(item["a"]), "b": draft.find(item["b"])})
        for item in data.pop("hits", []):
            draft.hits.append(item | {"target": draft.find(item["target"])})
        data.pop("declarations", None)
        data["rolls"] = dict(data.get("rolls", {}))
        draft.meta = data
        return draft

    def to_dict(self) -> dict[str, Any]:
        """The encounter file data, names in place of ids."""

        def name(ref: Ref | None) -> str | None:
            if isinstance(ref, int):
                return self.combatants[ref].name if ref in self.combatants else str(ref)
            return ref

        out: dict[str, Any] = {k: copy.deepcopy(v) for k, v in self.meta.items() if k != "rolls" or v}
        out["combatants"] = [
            c.fields | ({"weapons": list(c.weapons.values())} if c.weapons else {})
            | ({"spells": list(c.spells.values())} if c.spells else {})
            for c in self.combatants.values()
        ]
        intents, refinements = [], []
        steps: dict[Ref, int] = {}
        for i in self.intents:
            who = self.combatants.get(i["actor"]) if isinstance(i["actor"], int) else None
            item = {k: v for k, v in i.items() if k != "refine"} | {"actor": name(i["actor"])}
            if i.get("target") is not None:
                item["target"] = name(i["target"])
            if i.get("weapons"):
                item["weapons"] = [who.weapons[w]["name"] if who and w in who.weapons else w for w in i["weapons"]]
            if i.get("spell") is not None:
                item["spell"] = who.spells[i["spell"]]["name"] if who and i["spell"] in who.spells else i["spell"]
            if i.get("item") not in (None, COMPONENTS):
                item["item"] = who.weapons[i["item"]]["name"] if who and i["item"] in who.weapons else i["item"]
            intents.append(item)
            steps[i["actor"]] = steps.get(i["actor"], 0) + 1
            for system, table in i.get("refine", {}).items():
                if table:
                    refinements.append({"system": system, "actor": name(i["actor"]), "step": steps[i["actor"]]}
                                       | copy.deepcopy(table))
        if intents:
            out["intents"] = intents
        if refinements:
            out["refinements"] = refinements
        if self.distances:
            out["distances"] = [item | {"a": name(item["a"]), "b": name(item["b"])} for item in self.distances]
        if self.hits:
            out["hits"] = [item | {"target": name(item["target"])} for item in self.hits]
        return out

    def encounter(self) -> Encounter:
        """The frozen encounter, checked field by field (raises EncounterFileError)."""
        return encounter_from_dict(self.to_dict())

    # ------------------------------------------------------------ lookups

    def read_alone(self, ident: int) -> Combatant | None:
        """The combatant ``ident`` as the engine reads its table on its own, or None while the engine refuses it: what
        a field the table leaves out comes to (a character's THAC0 is its class's at its level, PH 2e Table 53)."""
        try:
            return encounter_from_dict({"combatants": [copy.deepcopy(self.combatants[ident].fields)]}).combatants[0]
        except ValueError:
            return None

    def find(self, name: str) -> Ref:
        """The id of the first combatant called ``name`` (or ``name`` itself if none is)."""
        return next((i for i, c in self.combatants.items() if c.name == name), name)

    @property
    def sides(self) -> list[str]:
        """Sides in order of first appearance, as the encounter lists them."""
        return list(dict.fromkeys(str(c.fields.get("side", "")) for c in self.combatants.values()))

    def intents_of(self, actor: Ref | None) -> list[dict[str, Any]]:
        """``actor``'s intent tables, in the order it means to do them."""
        return [i for i in self.intents if i["actor"] == actor]

    def set_intent(self, actor: int, index: int, do: str | None) -> dict[str, Any] | None:
        """Set what ``actor``'s ``index``-th intent (from 0) does (``None`` removes it) and return its table; an
        index one past the last adds an intent after the others.

        Changing what it does keeps what the user typed that still fits (the target, the note); a weapon,
        spell, item, named action or maneuver that belongs to the old kind is dropped, and so are its
        refinements (a phase placed for a move is no place for a spell)."""
        mine = self.intents_of(actor)
        current = mine[index] if index < len(mine) else None
        self.waiting = [i for i in self.waiting if i is not current]  # the DM has said what it does
        if do is None:
            if current is not None:
                self.intents.remove(current)
            return None
        if current is None:
            current = {"actor": actor, "do": do, "refine": {}}
            self.intents.append(current)
            self._name_first_spell(current)
        elif current["do"] != do:
            current["do"] = do
            for key in ("weapons", "spell", "item", "action", "maneuver", "blows", "feet", "away"):
                current.pop(key, None)
            current["refine"] = {}
            self._name_first_spell(current)
        return current

    def _name_first_spell(self, intent: dict[str, Any]) -> None:
        """A cast that names no spell names its actor's first (if it has one), so that the file says which:
        Strike Speed refuses a cast that does not (004 Strike Speed: Initiative)."""
        who = self.combatants.get(intent["actor"]) if isinstance(intent["actor"], int) else None
        if intent["do"] == "cast" and intent.get("spell") is None and who is not None and who.spells:
            intent["spell"] = who.first_spell

    def insert_intent(self, actor: int, index: int, do: str) -> dict[str, Any]:
        """A new intent of ``actor`` before its ``index``-th (at the end past its last)."""
        mine = self.intents_of(actor)
        table: dict[str, Any] = {"actor": actor, "do": do, "refine": {}}
        at = self.intents.index(mine[index]) if index < len(mine) else len(self.intents)
        self.intents.insert(at, table)
        self._name_first_spell(table)
        return table

    def move_intent(self, actor: int, index: int, by: int) -> None:
        """Move ``actor``'s ``index``-th intent ``by`` places among its own (-1: one earlier)."""
        mine = self.intents_of(actor)
        other = index + by
        if not (0 <= index < len(mine) and 0 <= other < len(mine)):
            return
        a, b = self.intents.index(mine[index]), self.intents.index(mine[other])
        self.intents[a], self.intents[b] = self.intents[b], self.intents[a]

    def hits_on(self, target: int) -> list[int]:
        return [h["tick"] for h in self.hits if h["target"] == target]

    def set_hits(self, target: int, ticks: list[int], source: str = "") -> None:
        """Replace the hits reported on ``target`` (keeping the source of ticks already there)."""
        old = {h["tick"]: h for h in self.hits if h["target"] == target}
        self.hits = [h for h in self.hits if h["target"] != target] + [
            old.get(t, {"target": target, "tick": t} | ({"source": source} if source else {})) for t in ticks
        ]

    # ------------------------------------------------------------ adding and removing

    def add_combatant(self, fields: dict[str, Any]) -> int:
        """Add a combatant of its file fields (no weapons, no intents) and return its id; figures waiting for a foe
        (:attr:`waiting`) may have one now."""
        ident = next(_ids)
        self.combatants[ident] = CombatantDraft(dict(fields))
        self._aim_the_waiting()
        return ident

    def _add_tables(self, tables: list[dict[str, Any]]) -> list[int]:
        """Add combatants from their file tables (their ``weapons`` and ``spells`` given ids); their ids."""
        added = []
        for table in tables:
            weapons = {next(_ids): w for w in table.pop("weapons", [])}
            spells = {next(_ids): s for s in table.pop("spells", [])}
            added.append(next(_ids))
            self.combatants[added[-1]] = CombatantDraft(table, weapons, spells)
        return added

    def add_from_books(self, name: str, count: int = 1, *, side: str = "", average: bool = False,
                       books: Books | None = None) -> list[int]:
        """Add ``count`` figures (1..100) from ``books`` (default: the books alone, :class:`Books`) and return their
        ids: a monster (``"goblin"`` or ``"goblins"``, by name or alias whatever its case, the DM's before the
        Monstrous Manual's: :func:`~combatkit.monsters.monster`, its stats and usual weapons), or a character by class
        and level (``"fighter 3"``: :func:`~combatkit.monsters.character`, its THAC0 from PH 2e Tables 53-54, its
        weapons and spells its class's kit, :meth:`Books.kit`). Each is named for its kind past every name there
        (``Goblin 7`` ..; ``Fighter``, then ``Fighter 2``), on ``side`` (left empty: ``monsters`` for monsters,
        ``party`` for characters), its hit points averaged or rolled from the encounter's ``seed`` (0 when it has
        none) under ``hit points: Goblin 3``, as the file's ``monster = "goblin"`` or ``hp = "rolled"`` rolls them.
        Each means to attack its first foe (:meth:`first_foe`); one with none yet waits for one (:attr:`waiting`),
        and the figures that waited have theirs now. A name neither a monster nor a class, or a count out of range,
        is refused with the closest names, and nothing is added."""
        books = Books() if books is None else books
        taken = [c.name for c in self.combatants.values()]
        how = HitPoints.AVERAGE if average else HitPoints.ROLLED
        seed = self.meta.get("seed")
        roller = TableRoller(seed=seed if is_whole(seed) else 0)
        found = books.find(name)
        if isinstance(found, MonsterEntry):
            figures = monster(found, count=count, hit_points=how, roller=roller, side=side.strip() or "monsters",
                              taken=taken, library=books.library)
        else:
            cls, level = found
            kit = books.kit(cls)
            weapons = tuple(books.library.weapon(w) for w in kit.weapons)
            spells = tuple(books.library.spell(s, caster_class=cls) for s in kit.spells)
            figures = tuple(character(each, side.strip() or "party", cls, level, hit_points=how, roller=roller,
                                      weapons=weapons, spells=spells)
                            for each in numbered(cls.title(), count, taken))
        added = self._add_tables(_written(figures))
        for ident in added:
            foe = self.first_foe(ident)
            intent: dict[str, Any] = {"actor": ident, "do": "attack", "refine": {}}
            if foe is None:
                self.waiting.append(intent)
            else:
                intent["target"] = foe
            self.intents.append(intent)
        self._aim_the_waiting()
        return added

    def first_foe(self, ident: int) -> int | None:
        """The first figure, in the encounter's order, on another side than ``ident``'s, or None: whom a figure from
        the books means to attack."""
        side = self.combatants[ident].fields.get("side")
        return next((i for i, c in self.combatants.items() if c.fields.get("side") != side), None)

    def _aim_the_waiting(self) -> None:
        """Give each intent still waiting for a foe (:attr:`waiting`) its figure's first foe, if it has one now; an
        intent changed since, or gone with its figure, waits no more."""
        still = []
        for intent in self.waiting:
            actor = intent["actor"]
            untouched = intent == {"actor": actor, "do": "attack", "refine": {}}
            if not (untouched and actor in self.combatants and any(intent is i for i in self.intents)):
                continue
            foe = self.first_foe(actor)
            if foe is None:
                still.append(intent)
            else:
                intent["target"] = foe
        self.waiting = still

    def duplicate(self, ident: int) -> int:
        """Add a copy of the combatant ``ident`` after the others and return its id: named for its kind past every
        name there (``Goblin 7`` of ``Goblin 3``, ``Brienne 2``: :func:`~combatkit.monsters.numbered`), with its
        fields, weapons and spells, and its intents with their targets and refinements, naming the copy's own
        weapons and spells. Figures waiting for a foe (:attr:`waiting`) may have one now."""
        original = self.combatants[ident]
        name = numbered(group_of(original.name), 1, [c.name for c in self.combatants.values()])[0]
        copied = self._add_tables([copy.deepcopy(original.fields) | {
            "name": name, "weapons": copy.deepcopy(list(original.weapons.values())),
            "spells": copy.deepcopy(list(original.spells.values()))}])[0]
        self.intents += [self._given(i, copied) for i in self.intents_of(ident)]
        self._aim_the_waiting()
        return copied

    def kind_of(self, ident: int) -> list[int]:
        """The combatants of ``ident``'s kind, it among them, in order: those named as it is or with a number after
        (``Goblin``, ``Goblin 1`` .. ``Goblin 6``: :func:`~combatkit.monsters.group_of`), as a file's ``"each
        goblin"`` finds them."""
        kind = group_of(self.combatants[ident].name).lower()
        return [i for i, c in self.combatants.items() if group_of(c.name).lower() == kind]

    def same_for_each(self, ident: int) -> list[int]:
        """Give each other combatant of ``ident``'s kind (:meth:`kind_of`) ``ident``'s intents in place of its own,
        as a file's ``actor = "each goblin"`` gives each the same; return their ids. A weapon or spell is named by
        its name among the figure's own (one it lacks stays a name the engine reports)."""
        others = [i for i in self.kind_of(ident) if i != ident]
        mine = self.intents_of(ident)
        self.intents = [i for i in self.intents if i["actor"] not in others]
        for other in others:
            self.intents += [self._given(i, other) for i in mine]
        return others

    def _given(self, intent: dict[str, Any], actor: int) -> dict[str, Any]:
        """A copy of ``intent`` for ``actor``, its weapons, spell and item named among ``actor``'s own by name."""
        owner = self.combatants.get(intent["actor"]) if isinstance(intent["actor"], int) else None
        who = self.combatants[actor]

        def weapon(ref: Ref) -> Ref:
            return who.weapon_id(owner.weapons[ref]["name"]) if owner and ref in owner.weapons else ref

        out = copy.deepcopy(intent) | {"actor": actor}
        if intent.get("weapons"):
            out["weapons"] = [weapon(w) for w in intent["weapons"]]
        if intent.get("item") not in (None, COMPONENTS):
            out["item"] = weapon(intent["item"])
        if intent.get("spell") is not None and owner and intent["spell"] in owner.spells:
            out["spell"] = who.spell_id(owner.spells[intent["spell"]]["name"])
        return out

    def remove_combatant(self, ident: int) -> None:
        """Remove a combatant with its intents, distances and hits; aims at it become aimless."""
        del self.combatants[ident]
        self.intents = [i for i in self.intents if i["actor"] != ident]
        for i in self.intents:
            if i.get("target") == ident:
                del i["target"]
                i.pop("away", None)
        self.distances = [x for x in self.distances if ident not in (x["a"], x["b"])]
        self.hits = [h for h in self.hits if h["target"] != ident]

    def add_weapon(self, owner: int, table: dict[str, Any]) -> int:
        ident = next(_ids)
        self.combatants[owner].weapons[ident] = dict(table)
        return ident

    def set_first_weapon(self, owner: int, key: str, value: Any) -> None:
        """Set the field ``key`` (``name``, ``sf``, ``damage``...) of ``owner``'s first weapon, the one it strikes with
        unless told, to ``value`` as typed; a figure with no weapon (it fights with its fists) is given one with that
        field, unless ``value`` is None (nothing typed)."""
        weapons = self.combatants[owner].weapons
        if weapons:
            next(iter(weapons.values()))[key] = value
        elif value is not None:
            self.add_weapon(owner, {key: value})

    def remove_weapon(self, owner: int, ident: int) -> None:
        """Remove a weapon; intents that named it fall back to the figure's routine (an intent to draw it goes
        with it)."""
        del self.combatants[owner].weapons[ident]
        self.intents = [i for i in self.intents if not (i["actor"] == owner and i.get("item") == ident)]
        for i in self.intents:
            if i["actor"] == owner and ident in i.get("weapons", []):
                i["weapons"] = [w for w in i["weapons"] if w != ident]
                if not i["weapons"]:
                    del i["weapons"]

    def add_spell(self, owner: int, table: dict[str, Any]) -> int:
        """Add a spell; casts of ``owner`` that named none (it had none) name it."""
        ident = next(_ids)
        self.combatants[owner].spells[ident] = dict(table)
        for i in self.intents:
            if i["actor"] == owner:
                self._name_first_spell(i)
        return ident

    def remove_spell(self, owner: int, ident: int) -> None:
        """Remove a spell; intents that named it name the first spell left (none if none is)."""
        del self.combatants[owner].spells[ident]
        for i in self.intents:
            if i["actor"] == owner and i.get("spell") == ident:
                del i["spell"]
                self._name_first_spell(i)
