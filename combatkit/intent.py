"""What a figure means to do in a round, in words no timing system owns: :class:`Intent`.

One encounter, six systems. A DM writes once what each figure means to do (close on the
orc and strike it, shoot the archer twice, cast web at the ogre, drink a potion) as an
ordered list of intents per figure; each timing system then places them on its own clock
in its own terms (:meth:`TimingSystem.plan <combatkit.systems.base.TimingSystem.plan>`):
phases 1-3 of Phase System I, phases A/B/C of Phase System II, the steps of a Segment of
Action chain, phases 1-5 and Last Actions of the five-phase round, the short form's action
types, Strike Speed rows. Each choice it makes is a cited rule (:class:`Placement`).

What only one system has (a double attack, a repositioning step, holding a spell some CT
units, rushing an action a phase, a Last Action) is a :class:`Refinement` of one intent for
that system; the other systems leave it alone and say so.

A file in the older format, whose declarations are written in one system's phases, still
loads: :func:`derive` turns its declarations into intents and that system's refinements,
so that under that system the plan is the very declarations of the file.

>>> from combatkit.model import ActionKind, Declaration
>>> intents, refinements = derive((Declaration("Grishnak", 1, ActionKind.MOVE, target="Aldric"),
...                                Declaration("Grishnak", 2, ActionKind.ATTACK, target="Aldric", reposition=True)),
...                               "phase1")
>>> [i.words() for i in intents]
['move toward Aldric', 'attack Aldric (1 blow)']
>>> [(r.step, r.phases, r.reposition) for r in refinements]
[(1, (1,), False), (2, (2,), True)]
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from combatkit.errors import RulesError
from combatkit.kinds import IntentKind, PlacementKind
from combatkit.model import (MAX_FEET, MAX_PHASE, MOST_ATTACKS, ActionKind, Declaration, Maneuver, Refined,
                             check_refined, check_text, choice, is_whole, weapon_names)

__all__ = [
    "COMPONENTS",
    "NAMED_FIELDS",
    "REFINEMENT_FIELDS",
    "Intent",
    "IntentKind",
    "NamedAction",
    "Placement",
    "PlacementKind",
    "Plan",
    "Refinement",
    "derive",
    "find_action",
    "named_actions",
]

COMPONENTS = "components"
"""The item of a ``ready`` intent that gets a spell's material components in hand (000 §2 A)."""


_KINDS_OF_MANEUVER = {IntentKind.MOVE: ActionKind.MOVE, IntentKind.ATTACK: ActionKind.ATTACK}
_FITS = (("away", IntentKind.MOVE), ("feet", IntentKind.MOVE), ("weapons", IntentKind.ATTACK),
         ("blows", IntentKind.ATTACK), ("spell", IntentKind.CAST), ("item", IntentKind.READY),
         ("action", IntentKind.ACTION))
"""The fields only one kind of intent has."""


@dataclass(frozen=True, slots=True)
class Intent:
    """One thing a figure means to do this round; a figure's intents are done in order."""

    actor: str
    """Who."""
    kind: IntentKind
    """Move, attack, cast, ready, hold or a named action."""
    target: str | None = None
    """Whom: the figure attacked, spelled, moved toward (or away from), or held against."""
    away: bool = False
    """A move away from ``target`` rather than toward it."""
    feet: int | None = None
    """A move of this many feet (None: as far as it takes to reach the target, or the system's move)."""
    maneuver: Maneuver | None = None
    """A charge, withdrawal or flight (a move); a pummel, grapple or overbear (an attack)."""
    weapons: tuple[str, ...] = ()
    """The weapon or weapons of an attack; none: the figure's routine (its natural attacks, else its first weapon)."""
    blows: int | None = None
    """How many blows or shots; None: every one the round gives the figure."""
    spell: str | None = None
    """The spell of a cast (None: the figure's first)."""
    item: str | None = None
    """What a ``ready`` intent readies: a weapon's name, or :data:`COMPONENTS`."""
    action: str | None = None
    """The named action (:func:`named_actions`, by id) of an ``action`` intent; None: the note says what it is."""
    note: str = ""
    """Free words for the reader."""

    def __post_init__(self) -> None:
        if type(self.kind) is not IntentKind:
            object.__setattr__(self, "kind", choice(IntentKind, self.kind, "kind", "combatkit intents",
                                                    lambda: f"{self.actor}'s intent"))
        where = self._where
        check_text(self, ("actor", "target", "spell", "item", "action", "note"), ("target", "spell", "item", "action"),
                   "combatkit intents", where)
        if type(self.away) is not bool:
            raise RulesError("combatkit intents", f"{where()}: away is true or false, got {self.away!r}")
        if type(self.weapons) is not tuple:
            object.__setattr__(self, "weapons", weapon_names(self.weapons, "combatkit intents", where()))
        if self.maneuver is not None and _KINDS_OF_MANEUVER.get(self.kind) is not self.maneuver.kind:
            raise RulesError("combatkit intents", f"{where()} cannot {self.maneuver.value}: it is a maneuver of a "
                                                  f"{self.maneuver.kind.value}")
        for name, kind in _FITS:
            if self.kind is not kind and getattr(self, name) not in (None, (), False):
                raise RulesError("combatkit intents", f"{where()} sets {name}, which only a {kind.value} intent has")
        if self.feet is not None and (not is_whole(self.feet) or self.feet < 0):
            raise RulesError("combatkit intents", f"{where()}: feet is 0 or more, got {self.feet!r}")
        if self.blows is not None and (not is_whole(self.blows) or not 1 <= self.blows <= MOST_ATTACKS):
            raise RulesError("combatkit intents", f"{where()}: blows is 1..{MOST_ATTACKS}, got {self.blows!r}")
        if self.away and self.target is None:
            raise RulesError("combatkit intents", f"{where()} moves away, but from whom? It names no target")
        if self.kind is IntentKind.READY and not self.item:
            raise RulesError("combatkit intents", f"{where()} names no item: a weapon's name or {COMPONENTS!r}")
        if self.action is not None:
            find_action(self.action)

    def _where(self) -> str:
        """Whose intent a refusal names."""
        return f"{self.actor}'s intent to {self.kind.value}"

    def said(self) -> str:
        """The intent as a sentence's start: ``"Mira means to cast web at Ugluk"`` (free words as they are).

        >>> Intent("Mira", IntentKind.ACTION, note="steps back behind Brienne").said()
        'Mira: steps back behind Brienne'
        """
        if self.kind is IntentKind.ACTION and self.action is None:
            return f"{self.actor}: {self.words()}"
        return f"{self.actor} means to {self.words()}"

    def words(self) -> str:
        """What it is, in plain words: ``"move toward Ugluk"``, ``"attack Ugluk with long sword (2 blows)"``.

        >>> Intent("Mira", IntentKind.CAST, "Ugluk", spell="web").words()
        'cast web at Ugluk'
        """
        k, t = self.kind, self.target
        if k is IntentKind.MOVE:
            how = {Maneuver.CHARGE: "charge", Maneuver.WITHDRAW: "withdraw", Maneuver.FLEE: "flee"}.get(
                self.maneuver, "move")  # type: ignore[arg-type]
            where = (f" away from {t}" if self.away else f" {'at' if how == 'charge' else 'toward'} {t}") if t else ""
            return f"{how}{where}" + (f" {self.feet}'" if self.feet is not None else "")
        if k is IntentKind.ATTACK:
            verb = self.maneuver.value if self.maneuver is not None else "attack"
            with_ = f" with {' and '.join(self.weapons)}" if self.weapons else ""
            blows = f" ({self.blows} blow{'s' if self.blows != 1 else ''})" if self.blows else ""
            return f"{verb}{f' {t}' if t else ''}{with_}{blows}"
        if k is IntentKind.CAST:
            return f"cast {self.spell or 'a spell'}" + (f" at {t}" if t else "")
        if k is IntentKind.READY:
            return "ready material components" if self.item == COMPONENTS else f"draw and ready {self.item}"
        if k is IntentKind.HOLD:
            return "stand ready" + (f" against {t}" if t else "")
        if self.action is not None:
            return find_action(self.action).name.lower() + (f" ({t})" if t else "")
        return self.note or "a miscellaneous action"


@dataclass(frozen=True, slots=True)
class Refinement(Refined):
    """How one system places one of a figure's intents, in that system's own terms; the others ignore it.
    Combat II's terms (a double attack, a repositioning step, a hold...) are :class:`~combatkit.model.Refined`'s
    (keyword arguments)."""

    system: str
    """The id of the system it refines for (``"phase1"``)."""
    actor: str
    """Whose intent."""
    step: int
    """Which of the actor's intents, counted from 1 in the order they are declared."""
    phases: tuple[int, ...] = ()
    """The system's declaration phases it is done in, one per declaration (:attr:`TimingSystem.declaration_phases
    <combatkit.systems.base.TimingSystem.declaration_phases>`: phase 2 of Phase System I, a rushed or delayed
    phase or Last Actions (6) of the five-phase round...); empty: where the system's planner puts it."""
    note: str = ""
    """The system's own words for it: a named action of its list ("half-move", "rushes the shot")."""
    target: str | None = None
    """The figure its declarations name where the intent's words leave none: the opponent a withdrawal is made from
    (001 Movement), the figure a readied action is aimed at; None: the intent's."""
    weapons: tuple[str, ...] = ()
    """The weapons its declarations name where the intent's kind has none (a weapon set against a charge, 000 §2 D);
    none: the intent's."""
    spell: str | None = None
    """The spell its declarations name where the intent's kind has none: a touch spell's touch, an attack in a phase
    after the casting (000 §2 A); None: the intent's."""
    feet: int | None = None
    """The feet its declarations move where the intent's kind has none, 0..:data:`~combatkit.model.MAX_FEET`: an attack
    at the end of a move on a surprised figure (000 §2 F), 001's split-move attack (001 Movement); None: the
    intent's."""

    def __post_init__(self) -> None:
        where = self._where
        if not is_whole(self.step) or self.step < 1:
            raise RulesError("combatkit refinements", f"{where()}: step is the intent's number, 1 or more, got "
                                                      f"{self.step!r}")
        phases = self.phases
        if (isinstance(phases, (str, bytes)) or not isinstance(phases, Sequence)
                or not all(is_whole(p) and 1 <= p <= MAX_PHASE for p in phases)):
            raise RulesError("combatkit refinements", f"{where()}: phases are the phase numbers, each "
                                                      f"1..{MAX_PHASE}, got {phases!r}")
        object.__setattr__(self, "phases", tuple(phases))
        check_refined(self, where)
        check_text(self, ("system", "actor", "note", "target", "spell"), ("target", "spell"), "combatkit refinements",
                   where)
        if type(self.weapons) is not tuple:
            object.__setattr__(self, "weapons", weapon_names(self.weapons, "combatkit refinements", where()))
        if self.feet is not None and (not is_whole(self.feet) or not 0 <= self.feet <= MAX_FEET):
            raise RulesError("combatkit refinements", f"{where()}: feet is a whole number, 0..{MAX_FEET}, got "
                                                      f"{self.feet!r}")

    def _where(self) -> str:
        """Whose refinement a refusal names."""
        return f"{self.actor}'s refinement for {self.system}"

    def changes(self) -> list[str]:
        """The fields it sets, in words: ``["phase 2", "reposition"]`` (phases as numbers)."""
        out = [f"phase {', '.join(map(str, self.phases))}"] if self.phases else []
        for f in fields(self):
            if f.name in REFINEMENT_FIELDS and getattr(self, f.name) != f.default:
                value = getattr(self, f.name)
                value = " and ".join(value) if isinstance(value, tuple) else value
                out.append(f.name.replace("_", " ") if value is True else f"{f.name.replace('_', ' ')} {value}")
        return out

    def declaration_fields(self) -> dict[str, Any]:
        """Its fields a :class:`~combatkit.model.Declaration` takes, the defaults left out."""
        return {name: getattr(self, name) for name in REFINEMENT_FIELDS
                if getattr(self, name) != _REFINEMENT_DEFAULTS[name]}


NAMED_FIELDS = ("target", "weapons", "spell", "feet")
"""The :class:`~combatkit.model.Declaration` fields that name what an action is done to or with, and how far it
moves: an intent gives them (those of its kind), and a refinement where the intent does not."""
REFINEMENT_FIELDS = (*(f.name for f in fields(Refined)), "note", *NAMED_FIELDS)
"""The :class:`~combatkit.model.Declaration` fields a refinement sets, besides the phases."""
_REFINEMENT_DEFAULTS = {f.name: f.default for f in fields(Refinement)}


# ---------------------------------------------------------------- named actions


@dataclass(frozen=True, slots=True)
class NamedAction:
    """An action from the list every system maps (``combatkit/data/actions.toml``)."""

    id: str
    """Its id in a file: ``"drink_potion"``."""
    name: str
    """What a reader sees: ``"Drink a potion"``."""
    note: str
    """The words a declaration's note carries for it, which each system reads for its own named action
    (001's list, 002's action types, 004's table)."""
    text: str
    """What it is."""
    kinds: Mapping[str, ActionKind] = field(default_factory=dict)
    """The declaration kind by system id where it is not a miscellaneous action."""
    notes: Mapping[str, str] = field(default_factory=dict)
    """The note by system id where that system's list names it otherwise."""
    rules: Mapping[str, str] = field(default_factory=dict)
    """By system id, the rule that says what it is there."""

    def kind_for(self, system: str) -> ActionKind:
        return self.kinds.get(system, ActionKind.MISC)

    def note_for(self, system: str) -> str:
        return self.notes.get(system, self.note)


@cache
def named_actions() -> Mapping[str, NamedAction]:
    """The named actions by id, in the data file's order.

    >>> named_actions()["parley"].note_for("short_form")
    'speaks: parleys'
    """
    text = (resources.files("combatkit.data") / "actions.toml").read_text(encoding="utf-8")
    out = {}
    for row in tomllib.loads(text)["action"]:
        systems = row.get("systems", {})
        out[row["id"]] = NamedAction(
            row["id"], row["name"], row["note"], row["text"],
            MappingProxyType({s: ActionKind(v["kind"]) for s, v in systems.items() if "kind" in v}),
            MappingProxyType({s: v["note"] for s, v in systems.items() if "note" in v}),
            MappingProxyType({s: v["rule"] for s, v in systems.items() if "rule" in v}))
    return MappingProxyType(out)


def find_action(action_id: str) -> NamedAction:
    """The named action ``action_id``, or a RulesError naming the ones there are."""
    actions = named_actions()
    if action_id not in actions:
        raise RulesError("combatkit named actions", f"no named action {action_id!r}; they are {', '.join(actions)}")
    return actions[action_id]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z&]+", text.lower()))


def action_named_by(note: str) -> NamedAction | None:
    """The named action a free note names, if its own note's key words are all in it (``"drinks the potion"``
    names ``drink_potion``), the one with the most such words; None when none."""
    said = _words(note)
    best, score = None, 0
    for action in named_actions().values():
        keys = _words(action.note) - _FILLER
        stems = {k.rstrip("s") for k in keys}
        if stems and stems <= {w.rstrip("s") for w in said} and len(stems) > score:
            best, score = action, len(stems)
    return best


_FILLER = {"a", "an", "the", "or", "and", "of", "to", "from", "with", "its", "at", "in"}


# ---------------------------------------------------------------- the older format


_DRAW_WORDS = {"draw", "draws", "ready", "readies", "readying", "drawing"}


def derive(declarations: Sequence[Declaration], system: str,
           weapons: Mapping[str, Sequence[str]] | None = None) -> tuple[tuple[Intent, ...], tuple[Refinement, ...]]:
    """Intents and ``system``'s refinements from declarations written in that system's phases (the format
    before intents): under ``system`` they plan to the very declarations given.

    Each figure's declarations, in phase order, become its intents: a move, an attack (of as many blows as
    declared), a cast; a
    miscellaneous action that readies components or draws a weapon (``weapons``: each figure's weapon
    names) a ``ready``, another a named action when its note names one, else free text; a READY
    declaration (set against a charge) a ``hold``. Attacks in a row with the same target, weapons and
    fields are one intent of that many blows (at most :data:`~combatkit.model.MOST_ATTACKS`, then another).
    Each intent's refinement keeps the phases, every field only that system reads, its note included, and
    what the declaration names that the intent's kind does not say (:data:`NAMED_FIELDS`: an attack's
    feet or spell, a withdrawal's opponent), so that each field of every declaration comes back; a
    miscellaneous action is a named one only where the name keeps its kind in ``system``.
    """
    intents: list[Intent] = []
    refinements: list[Refinement] = []
    steps: dict[str, int] = {}
    by_actor: dict[str, list[Declaration]] = {}
    for d in declarations:
        by_actor.setdefault(d.actor, []).append(d)
    for actor, mine in by_actor.items():
        mine = sorted(mine, key=lambda d: d.phase)
        groups: list[list[Declaration]] = []
        for d in mine:
            last = groups[-1][-1] if groups else None
            if (last is not None and d.kind is ActionKind.ATTACK and last.kind is ActionKind.ATTACK
                    and replace(d, phase=last.phase) == last
                    and sum(g.attacks for g in groups[-1]) + d.attacks <= MOST_ATTACKS):
                groups[-1].append(d)
            else:
                groups.append([d])
        for group in groups:
            d = group[0]
            intent = _intent_of(d, (weapons or {}).get(actor, ()), system)
            if d.kind is ActionKind.ATTACK:
                intent = replace(intent, blows=sum(g.attacks for g in group))
            intents.append(intent)
            steps[actor] = steps.get(actor, 0) + 1
            kept = {name: getattr(d, name) for name in REFINEMENT_FIELDS if name not in NAMED_FIELDS}
            refinements.append(Refinement(system, actor, steps[actor], tuple(g.phase for g in group), **kept,
                                          **_unsaid(d, intent)))
    return tuple(intents), tuple(refinements)


def _unsaid(d: Declaration, intent: Intent) -> dict[str, Any]:
    """What ``d`` names (:data:`NAMED_FIELDS`) that the declaration its intent places would not: a field the intent's
    kind lacks (an attack's feet or spell, a hold's weapons), or a move away's opponent (a declaration of a move
    names the figure it closes on, so one away names none)."""
    out: dict[str, Any] = {}
    if d.target is not None and (d.target != intent.target or intent.away):
        out["target"] = d.target
    for name in ("weapons", "spell", "feet"):
        if getattr(d, name) != getattr(intent, name):
            out[name] = getattr(d, name)
    return out


def _intent_of(d: Declaration, weapon_names: Sequence[str], system: str) -> Intent:
    k = d.kind
    if k is ActionKind.MOVE:
        away = d.maneuver in (Maneuver.WITHDRAW, Maneuver.FLEE) and d.target is not None
        return Intent(d.actor, IntentKind.MOVE, d.target, away=away, feet=d.feet, maneuver=d.maneuver)
    if k is ActionKind.ATTACK:
        return Intent(d.actor, IntentKind.ATTACK, d.target, maneuver=d.maneuver, weapons=d.weapons)
    if k is ActionKind.CAST:
        return Intent(d.actor, IntentKind.CAST, d.target, spell=d.spell)
    if k is ActionKind.READY:
        return Intent(d.actor, IntentKind.HOLD, d.target)
    if d.readies_components:
        return Intent(d.actor, IntentKind.READY, item=COMPONENTS)
    said = _words(d.note)
    if said & _DRAW_WORDS:
        drawn = [w for w in weapon_names if w.lower() in d.note.lower()]
        if drawn:
            return Intent(d.actor, IntentKind.READY, item=max(drawn, key=lambda w: d.note.lower().rfind(w.lower())))
    named = action_named_by(d.note)
    if named is not None and named.kind_for(system) is k:  # 001's take cover is a move: a misc is not it there
        return Intent(d.actor, IntentKind.ACTION, d.target, action=named.id)
    return Intent(d.actor, IntentKind.ACTION, d.target, note=d.note)


# ---------------------------------------------------------------- a system's plan


@dataclass(frozen=True, slots=True)
class Placement:
    """How one system placed one intent: the declarations it became and the rule that says so."""

    actor: str
    """Whose intent."""
    step: int
    """Which of the actor's intents (from 1); 0 for declarations given as such."""
    intent: Intent | None
    """The intent (None for declarations given as such)."""
    declarations: tuple[Declaration, ...]
    """What it became in the system's terms (none when deferred)."""
    kind: PlacementKind
    """Placed, refined, placed the nearest way, deferred, or declared."""
    rule: str
    """The rule that places it, cited."""
    why: str
    """The same in words: ``"Brienne closes, then strikes: a move in phase 1, an attack in phase 2"``."""

    def line(self) -> str:
        return f"{self.why} [{self.rule}]"


@dataclass(frozen=True, slots=True)
class Plan:
    """A round's intents placed by one system (:meth:`TimingSystem.plan
    <combatkit.systems.base.TimingSystem.plan>`)."""

    system: str
    """The system's id."""
    placements: tuple[Placement, ...]
    """Each intent (and each declaration given as such), in the encounter's order of figures."""
    notes: tuple[str, ...] = ()
    """What else it says: refinements it ignores (another system's), rolls it leaves to another system."""
    carry: Mapping[str, object] = field(default_factory=dict, compare=False)
    """What the round leaves each figure for the next one's plan, by name (Phase System II: where its Table 6
    attack sequence stands, 000 §3 C); a fight hands it to the next round's :meth:`TimingSystem.plan
    <combatkit.systems.base.TimingSystem.plan>`."""

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        return tuple(d for p in self.placements for d in p.declarations)

    def for_actor(self, actor: str) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if p.actor == actor)

    def why(self) -> list[str]:
        """One line per intent placed, then the notes."""
        return [p.line() for p in self.placements if p.kind is not PlacementKind.DECLARED] + list(self.notes)

    def changed(self) -> tuple[Placement, ...]:
        """The intents this system could not place as asked (placed the nearest way, or deferred)."""
        return tuple(p for p in self.placements if p.kind in (PlacementKind.NEAREST, PlacementKind.DEFERRED))


def steps_of(intents: Iterable[Intent]) -> list[tuple[int, Intent]]:
    """Each intent with its step, the count of that actor's intents so far (from 1)."""
    seen: dict[str, int] = {}
    out = []
    for intent in intents:
        seen[intent.actor] = seen.get(intent.actor, 0) + 1
        out.append((seen[intent.actor], intent))
    return out
