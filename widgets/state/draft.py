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
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import Any

from combatkit.encounter import Encounter
from combatkit.encounter_files import encounter_from_dict, encounter_to_dict, with_intents
from combatkit.intent import COMPONENTS

__all__ = ["CombatantDraft", "EncounterDraft", "Ref"]

Ref = int | str
"""A combatant, weapon or spell id; a name the encounter does not know stays a ``str`` (the engine reports it)."""

_ids = itertools.count(1)


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
        combatants: dict[int, CombatantDraft] = {}
        for table in data.pop("combatants", []):
            weapons = {next(_ids): w for w in table.pop("weapons", [])}
            spells = {next(_ids): s for s in table.pop("spells", [])}
            combatants[next(_ids)] = CombatantDraft(table, weapons, spells)
        draft = cls({}, combatants)
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
        ident = next(_ids)
        self.combatants[ident] = CombatantDraft(dict(fields))
        return ident

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
