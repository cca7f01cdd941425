"""An encounter being edited: the working copy behind :class:`~combatkit.widgets.timeline.TimelineExplorer`.

A form keeps whatever the user typed, including values the rules reject, so the
working copy cannot be a frozen :class:`~combatkit.Encounter`. It holds the encounter
file's fields (the README's "Encounter files" format) as plain data, with one change:
declarations, distances and hits point at combatants, weapons and spells by a stable
id instead of by name. Renaming a combatant (or giving two the same name for a
moment) then never loses or mixes up who declared what. :meth:`EncounterDraft.to_dict`
writes the names back, and the engine's own reader checks the result, naming any bad
field (``combatants[1].dex: must be 1..25, got 40``).

>>> from combatkit import load_example
>>> draft = EncounterDraft.from_encounter(load_example("orc-closes-on-longbowman"))
>>> orc = draft.find("Grishnak")
>>> draft.combatants[orc].fields["name"] = "Gorbag"
>>> [d["actor"] for d in draft.to_dict()["declarations"]]
['Aldric', 'Gorbag', 'Aldric', 'Gorbag']
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import Any

from combatkit.encounter import Encounter, encounter_from_dict, encounter_to_dict

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


@dataclass
class EncounterDraft:
    """An editable encounter in file form, with references by id."""

    meta: dict[str, Any]
    """Top-level fields: ``title``, ``description``, ``seed``, ``rolls`` (a dict), ``round``, ``system``,
    ``options`` (a dict of tables by system id)."""
    combatants: dict[int, CombatantDraft]
    """Combatants by id, in file order."""
    declarations: list[dict[str, Any]] = field(default_factory=list)
    """Declaration tables; ``actor`` and ``target`` are combatant ids, ``weapons`` a list of weapon
    ids and ``spell`` a spell id of the actor."""
    distances: list[dict[str, Any]] = field(default_factory=list)
    """``{"a": id, "b": id, "feet": n}``."""
    hits: list[dict[str, Any]] = field(default_factory=list)
    """``{"target": id, "tick": n, "source": text}``."""

    # ------------------------------------------------------------ in and out

    @classmethod
    def from_encounter(cls, encounter: Encounter) -> EncounterDraft:
        return cls.from_dict(encounter_to_dict(encounter))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EncounterDraft:
        """From file data (as :func:`~combatkit.encounter_to_dict` writes it)."""
        data = copy.deepcopy(data)
        combatants: dict[int, CombatantDraft] = {}
        for table in data.pop("combatants", []):
            weapons = {next(_ids): w for w in table.pop("weapons", [])}
            spells = {next(_ids): s for s in table.pop("spells", [])}
            combatants[next(_ids)] = CombatantDraft(table, weapons, spells)
        draft = cls({}, combatants)
        for d in data.pop("declarations", []):
            actor = draft.find(d["actor"])
            d["actor"] = actor
            if d.get("target") is not None:
                d["target"] = draft.find(d["target"])
            who = combatants.get(actor) if isinstance(actor, int) else None
            names = d.pop("weapons", []) + ([d.pop("weapon")] if "weapon" in d else [])
            if names:
                d["weapons"] = [who.weapon_id(n) if who else n for n in names]
            if d.get("spell") is not None:
                d["spell"] = who.spell_id(d["spell"]) if who else d["spell"]
            draft.declarations.append(d)
        for item in data.pop("distances", []):
            draft.distances.append(item | {"a": draft.find(item["a"]), "b": draft.find(item["b"])})
        for item in data.pop("hits", []):
            draft.hits.append(item | {"target": draft.find(item["target"])})
        data["rolls"] = dict(data.get("rolls", {}))
        draft.meta = data
        return draft

    def to_dict(self) -> dict[str, Any]:
        """The encounter file data, names in place of ids."""

        def name(ref: Ref | None) -> str | None:
            if isinstance(ref, int):
                return self.combatants[ref].name
            return ref

        out: dict[str, Any] = {k: copy.deepcopy(v) for k, v in self.meta.items() if k != "rolls" or v}
        out["combatants"] = [
            c.fields | ({"weapons": list(c.weapons.values())} if c.weapons else {})
            | ({"spells": list(c.spells.values())} if c.spells else {})
            for c in self.combatants.values()
        ]
        declarations = []
        for d in self.declarations:
            who = self.combatants.get(d["actor"]) if isinstance(d["actor"], int) else None
            item = dict(d, actor=name(d["actor"]))
            if d.get("target") is not None:
                item["target"] = name(d["target"])
            if d.get("weapons"):
                item["weapons"] = [who.weapons[w]["name"] if who and isinstance(w, int) else w for w in d["weapons"]]
            if d.get("spell") is not None:
                item["spell"] = who.spells[d["spell"]]["name"] if who and isinstance(d["spell"], int) else d["spell"]
            declarations.append(item)
        if declarations:
            out["declarations"] = declarations
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

    def declaration(self, actor: int, phase: int, index: int = 0) -> dict[str, Any] | None:
        """The ``index``-th declaration (in file order, from 0) of ``actor`` for ``phase``, or None."""
        found = self.declarations_of(actor, phase)
        return found[index] if index < len(found) else None

    def declarations_of(self, actor: int, phase: int) -> list[dict[str, Any]]:
        """Every declaration of ``actor`` for ``phase``, in file order (several in one phase: a move and an
        attack, or attacks on several opponents, where the timing system allows it)."""
        return [d for d in self.declarations if d["actor"] == actor and d["phase"] == phase]

    @property
    def last_phase(self) -> int:
        """The highest phase number any declaration uses (0 with none)."""
        return max((d["phase"] for d in self.declarations if isinstance(d.get("phase"), int)), default=0)

    def declare(self, actor: int, phase: int, action: str | None, index: int = 0) -> dict[str, Any] | None:
        """Set the action of the ``index``-th declaration of ``actor`` in ``phase`` (``None`` clears it) and
        return its table; an index one past the last adds a declaration to the phase.

        Changing the action keeps the table's other fields (target, flags, note) that the
        user typed; only a weapon or spell choice that belongs to the old action is dropped.
        """
        current = self.declaration(actor, phase, index)
        if action is None:
            if current is not None:
                self.declarations.remove(current)
            return None
        if current is None:
            current = {"actor": actor, "phase": phase, "action": action}
            self.declarations.append(current)
        elif current["action"] != action:
            current["action"] = action
            if action != "attack":
                current.pop("weapons", None)
            if action not in ("cast", "attack"):
                current.pop("spell", None)
        return current

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
        """Remove a combatant with its declarations, distances and hits; aims at it become aimless."""
        del self.combatants[ident]
        self.declarations = [d for d in self.declarations if d["actor"] != ident]
        for d in self.declarations:
            if d.get("target") == ident:
                del d["target"]
        self.distances = [x for x in self.distances if ident not in (x["a"], x["b"])]
        self.hits = [h for h in self.hits if h["target"] != ident]

    def add_weapon(self, owner: int, table: dict[str, Any]) -> int:
        ident = next(_ids)
        self.combatants[owner].weapons[ident] = dict(table)
        return ident

    def remove_weapon(self, owner: int, ident: int) -> None:
        """Remove a weapon; declarations that named it fall back to the first weapon."""
        del self.combatants[owner].weapons[ident]
        for d in self.declarations:
            if d["actor"] == owner and ident in d.get("weapons", []):
                d["weapons"] = [w for w in d["weapons"] if w != ident]
                if not d["weapons"]:
                    del d["weapons"]

    def add_spell(self, owner: int, table: dict[str, Any]) -> int:
        ident = next(_ids)
        self.combatants[owner].spells[ident] = dict(table)
        return ident

    def remove_spell(self, owner: int, ident: int) -> None:
        """Remove a spell; declarations that named it fall back to the first spell."""
        del self.combatants[owner].spells[ident]
        for d in self.declarations:
            if d["actor"] == owner and d.get("spell") == ident:
                del d["spell"]
