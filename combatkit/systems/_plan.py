"""Placing a figure's intents in a system's own terms: the plans several systems share.

Every system's :meth:`~combatkit.systems.base.TimingSystem.plan` walks each figure's
intents in order (:class:`ActorPlan`) and turns each into declarations on its own clock,
with the rule that puts it there (:class:`~combatkit.intent.Placement`). The plans two or
more systems share are here: Combat II's one action a phase (:func:`combat_ii`, Phase
Systems I and II), and a chain of actions one after the other, a move followed by the blow
(:func:`chain`, 003 and 004, and the default of a new system). Two things every plan does
alike are here too: a step the file refines for this system is placed as the refinement
says (:meth:`ActorPlan.refined`), and what the system cannot do as asked is placed the
nearest legal way with the reason said (:attr:`~combatkit.intent.PlacementKind.NEAREST`),
or left for next round (:attr:`~combatkit.intent.PlacementKind.DEFERRED`): never dropped
in silence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Final

from combatkit.battle import REACH, REPOSITION, missile_range, routine
from combatkit.encounter import Encounter
from combatkit.kinds import ActionKind, IntentKind, Maneuver, PlacementKind, WeaponKind
from combatkit.intent import COMPONENTS, NAMED_FIELDS, Intent, Placement, Refinement, find_action
from combatkit.made import made
from combatkit.model import FISTS, Combatant, Declaration, Spell, Weapon
from combatkit.systems._memo import kit


__all__ = ["ActorPlan", "chain", "combat_ii", "named_words", "routines", "weapon_names"]

MOVE, ATTACK, CAST, MISC, READY = ActionKind.MOVE, ActionKind.ATTACK, ActionKind.CAST, ActionKind.MISC, ActionKind.READY


def routines(c: Combatant, weapons: tuple[Weapon, ...], round: int) -> int:
    """Attack routines this round: one for a creature with as many attacks as natural weapons
    (claw/claw/bite, 000 §2 C), in a round it has an attack at all (none in odd rounds at 1/2 a round), else
    its attacks per round (:mod:`combatkit.policy`, point 5)."""
    arms = kit(c)
    naturals = sum(1 for w in weapons if w.kind is WeaponKind.NATURAL)
    num, den = arms.rate
    if naturals > 1 and num <= naturals * den:
        return 1 if arms.attacks_in_round(round) else 0
    if not weapons:
        return arms.attacks_in_round(round, FISTS)
    return min(arms.attacks_in_round(round, w) for w in weapons)


def weapon_names(weapons: tuple[Weapon, ...]) -> tuple[str, ...]:
    return tuple(w.name for w in weapons)


_WORDS: Final = {MOVE: "a move", ATTACK: "an attack", CAST: "a cast", MISC: "a miscellaneous action",
          READY: "a readied weapon"}
_MANEUVER_WORDS: Final = {Maneuver.CHARGE: "a charge", Maneuver.WITHDRAW: "a withdrawal", Maneuver.FLEE: "a flight",
                   Maneuver.PUMMEL: "a pummel", Maneuver.GRAPPLE: "a grapple",
                   Maneuver.OVERBEAR: "an overbearing attack"}
"""What :meth:`ActorPlan.where` calls a declaration: by its maneuver when it has one, else by its kind."""


def _placement(actor: str, step: int, intent: Intent | None, declarations: tuple[Declaration, ...],
               kind: PlacementKind, rule: str, why: str) -> Placement:
    """``Placement(actor, step, ...)``, made in compiled code (:func:`~combatkit.made.made`): a plan makes one an
    intent."""
    return made(Placement, {"actor": actor, "step": step, "intent": intent, "declarations": declarations, "kind": kind,
                            "rule": rule, "why": why})


@dataclass
class ActorPlan:
    """One figure's intents on their way into one system's declarations."""

    system: Any
    """The system placing them, a :class:`~combatkit.systems.base.TimingSystem`: typed loosely because
    base imports this module, and a compiled build (``setup.py``) looks a field's type up when the class
    is made."""
    encounter: Encounter
    """The round: who is there, the distances known."""
    c: Combatant
    """The figure."""
    steps: list[tuple[int, Intent]]
    """Its intents with their step numbers, in order."""
    refinements: dict[int, Refinement]
    """This system's refinements of them, by step."""
    options: Any
    """The system's options for the round."""
    placements: list[Placement] = field(default_factory=list)
    """What the plan has placed so far."""
    used: dict[str, int] = field(default_factory=dict)
    """Blows placed so far this round, by weapon name (:meth:`blows`)."""
    closed: dict[str, int] = field(default_factory=dict)
    """Feet the figure's moves placed so far this round closed on each figure (negative: moved away)."""
    sequence: int | None = None
    """The phase the figure's attack sequence began in (000 §3 C Table 6: a later attack keeps its spacing);
    0 or less: in an earlier round (from :attr:`carried`)."""
    carried: Any = None
    """What the figure's last round left it (:attr:`~combatkit.intent.Plan.carry`); None in a first round."""
    carry: Any = None
    """What this round leaves it for the next."""

    def __init__(self, system: Any, encounter: Encounter, c: Combatant, steps: list[tuple[int, Intent]],
                 refinements: dict[int, Refinement], options: Any, sequence: int | None = None, carried: Any = None,
                 carry: Any = None) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.system = system
        self.encounter = encounter
        self.c = c
        self.steps = steps
        self.refinements = refinements
        self.options = options
        self.placements: list[Placement] = []
        self.used: dict[str, int] = {}
        self.closed: dict[str, int] = {}
        self.sequence = sequence
        self.carried = carried
        self.carry = carry

    @property
    def name(self) -> str:
        return self.c.name

    @property
    def surprised(self) -> bool:
        return self.c.surprised

    @property
    def round(self) -> int:
        return self.encounter.round

    def gap(self, other: str | None) -> int | None:
        """Feet to ``other`` when the encounter knows them (less what the figure's moves placed so far this round
        closed), else None."""
        if other is None:
            return None
        me = self.c.name
        for a, b, feet in self.encounter.distances:  # the pair either way round (no set built for each)
            if (a == me and b == other) or (a == other and b == me):
                return max(0, feet - self.closed.get(other, 0))
        return None

    def _moved(self, intent: Intent, declarations: Sequence[Declaration]) -> None:
        """Count what ``declarations`` move the figure toward (or away from) its target (:meth:`gap`)."""
        for d in declarations:
            if d.kind is not MOVE:
                continue
            toward = d.target if d.target is not None else (intent.target if intent.kind is IntentKind.MOVE
                                                            and intent.away else None)
            gap = self.gap(toward)
            if toward is None or gap is None:
                continue
            reach = max(0, gap - REACH) if d.target is not None else gap
            feet = d.feet if d.feet is not None else min(self.system.rules.move_allowance(self.c.movement), reach)
            self.closed[toward] = self.closed.get(toward, 0) + (feet if d.target is not None else -feet)

    def target_surprised(self, other: str | None) -> bool:
        return any(c.name == other and c.surprised for c in self.encounter.combatants)

    def label(self, phase: int) -> str:
        """The system's name for a declaration phase (``"phase 2"``, ``"step 1"``, ``"Last Actions"``)."""
        labels = self.system.declaration_phases
        return labels[phase - 1] if 1 <= phase <= len(labels) else f"phase {phase}"

    def where(self, declarations: Sequence[Declaration]) -> str:
        """``"a move in phase 1, an attack in phase 2"``."""
        return ", ".join(f"{_WORDS[d.kind] if d.maneuver is None else _MANEUVER_WORDS[d.maneuver]} in "
                         f"{self.label(d.phase)}" for d in declarations)

    # ---------------------------------------------------------------- what the intent names

    def weapons(self, intent: Intent) -> tuple[Weapon, ...]:
        """The weapons an attack intent names; none named: a shot with its first missile weapon when the
        target is beyond striking distance and the figure has one, else its routine
        (:func:`~combatkit.battle.routine`: natural attacks, else its first melee weapon)."""
        if intent.weapons:
            return kit(self.c).striking(intent.weapons)
        gap = self.gap(intent.target)
        missiles = [w for w in self.c.weapons if w.kind is WeaponKind.MISSILE]
        if missiles and (gap is not None and gap > REACH or not any(w.kind is not WeaponKind.MISSILE
                                                                    for w in self.c.weapons)):
            ranges = missile_range(missiles[0])
            if ranges is None or gap is None or gap <= ranges[2]:
                return (missiles[0],)
        return routine(self.c) if self.c.weapons else ()

    def named(self, intent: Intent, weapons: tuple[Weapon, ...]) -> tuple[str, ...]:
        """The weapon names a declaration of the attack gives: the intent's, else none when the system's own
        default (the figure's first weapon, :meth:`~combatkit.model.Combatant.weapon`) is the one chosen."""
        if intent.weapons or weapons == self.c.striking():
            return intent.weapons
        return weapon_names(weapons)

    def spell(self, intent: Intent) -> Spell:
        return self.c.spell(intent.spell)

    def shoots(self, weapons: tuple[Weapon, ...]) -> bool:
        return bool(weapons) and weapons[0].kind is WeaponKind.MISSILE

    def blows(self, intent: Intent, weapons: tuple[Weapon, ...]) -> int:
        """Blows the round gives this attack: the intent's, at most the figure's routines this round less the
        blows its earlier attacks took with the same weapons (000 §2 C: each weapon to its attacks per round)."""
        most = routines(self.c, weapons, self.round) - max((self.used.get(w.name, 0) for w in weapons), default=0)
        most = max(0, most)
        return most if intent.blows is None else min(intent.blows, most)

    def spent(self, intent: Intent, weapons: tuple[Weapon, ...], what: str = "attack") -> str:
        """Why :meth:`blows` gives ``intent`` none: the round gives the figure none (1/2 attack a round: none in
        odd rounds, 000 §2 C), or its earlier attacks took them."""
        if routines(self.c, weapons, self.round) <= 0:
            return (f"{intent.said()}: {self.name}'s {self.c.attacks_per_round} attacks a round give it none in "
                    f"round {self.round}")
        return f"{intent.said()}: its earlier attacks took every {what} the round gives it"

    def spend(self, weapons: tuple[Weapon, ...], declarations: Sequence[Declaration]) -> None:
        """Count the blows ``declarations`` strike with ``weapons`` (:meth:`blows`)."""
        self.spend_blows(weapons, sum(d.attacks for d in declarations if d.kind is ATTACK))

    def spend_blows(self, weapons: tuple[Weapon, ...], n: int) -> None:
        """Count ``n`` blows struck with ``weapons`` (:meth:`blows`)."""
        for w in weapons:
            self.used[w.name] = self.used.get(w.name, 0) + n

    # ---------------------------------------------------------------- placing

    def declaration(self, intent: Intent, phase: int, kind: ActionKind | None = None, **fields: Any) -> Declaration:
        """The declaration of ``intent`` in ``phase`` with its target, weapons, spell and note (the
        intent's unless ``fields`` say otherwise)."""
        kind = kind or _KIND[intent.kind]
        base: dict[str, Any] = {"target": intent.target}
        if intent.kind is IntentKind.MOVE:
            base.update(feet=intent.feet, maneuver=intent.maneuver)
            if intent.away:
                base["target"] = None
        elif intent.kind is IntentKind.ATTACK:
            base.update(weapons=intent.weapons, maneuver=intent.maneuver)
        elif intent.kind is IntentKind.CAST:
            base.update(spell=intent.spell)
        if intent.note and kind is not MISC:
            base["note"] = intent.note
        base.update(fields)
        if base.get("maneuver") is not None and base["maneuver"].kind is not kind:
            base["maneuver"] = None  # what Declaration's check asks: a maneuver of its own kind (made() skips it)
        return made(Declaration, {"actor": self.name, "phase": phase, "kind": kind, **base})

    def add(self, step: int, intent: Intent, declarations: Sequence[Declaration], rule: str, why: str,
            kind: PlacementKind = PlacementKind.PLACED) -> None:
        """Place ``intent`` as ``declarations``, applying this system's refinement of its fields (the phases
        of a refinement are :meth:`refined`'s): a double attack to its attacks, what it names (:data:`NAMED_FIELDS
        <combatkit.intent.NAMED_FIELDS>`: the feet of an attack at the end of a move...) to the declarations of
        the intent's own kind, not to the moves that close for it."""
        refinement = self.refinements.get(step)
        if refinement is not None and declarations and kind is PlacementKind.PLACED:
            extra = refinement.declaration_fields()
            if extra:
                own = _refined_kind(intent, self.system.id)
                declarations = [replace(d, **{k: v for k, v in extra.items()
                                              if (k != "attacks" or d.kind is ATTACK)
                                              and (k not in NAMED_FIELDS or d.kind is own)}) for d in declarations]
                why += f"; refined for {self.system.title}: {', '.join(refinement.changes())}"
                kind = PlacementKind.REFINED
        self._moved(intent, declarations)
        self.placements.append(_placement(self.name, step, intent, tuple(declarations), kind, rule, why))

    def defer(self, step: int, intent: Intent, rule: str, why: str) -> None:
        """Not this round: ``why`` says what stands in the way."""
        self.placements.append(_placement(self.name, step, intent, (), PlacementKind.DEFERRED, rule, why))

    def refined(self, step: int, intent: Intent) -> list[Declaration] | None:
        """The declarations a refinement with phases gives ``intent`` (as the file placed it for this
        system: every field the refinement gives; a plan asks before :meth:`unarmed` makes a weaponless figure's
        attack a pummel), added as a placement; None when this system's refinement gives no phases."""
        refinement = self.refinements.get(step)
        if refinement is None or not refinement.phases:
            return None
        fields_ = refinement.declaration_fields()
        kind = _refined_kind(intent, self.system.id)
        declarations = []
        for phase in refinement.phases:
            extra = dict(fields_)
            if intent.kind is IntentKind.ACTION and "note" not in extra:
                extra.update(_action_fields(intent, self.system.id))
            declarations.append(self.declaration(intent, phase, kind, **extra))
        why = f"{intent.said()}: {self.where(declarations)}, as the encounter places it for " \
              f"{self.system.title}"
        self._moved(intent, declarations)
        if kind is ATTACK:
            self.spend(self.weapons(intent) or self.c.striking(), declarations)
        self.placements.append(_placement(self.name, step, intent, tuple(declarations), PlacementKind.REFINED,
                                         "the encounter's own placement", why))
        return declarations

    def unarmed(self, intent: Intent) -> Intent:
        """An attack by a figure with no weapon is a pummel (002 Unarmed Combat I.A: punch, kick)."""
        if intent.kind is IntentKind.ATTACK and not self.c.weapons and intent.maneuver is None:
            return replace(intent, maneuver=Maneuver.PUMMEL)
        return intent


_KIND: Final = {IntentKind.MOVE: MOVE, IntentKind.ATTACK: ATTACK, IntentKind.CAST: CAST, IntentKind.READY: MISC,
         IntentKind.HOLD: READY, IntentKind.ACTION: MISC}


def _refined_kind(intent: Intent, system: str) -> ActionKind:
    """The kind of the declarations ``intent`` is placed as in ``system``: its own, or its named action's there."""
    if intent.kind is IntentKind.ACTION and intent.action is not None:
        return find_action(intent.action).kind_for(system)
    return _KIND[intent.kind]


def _action_fields(intent: Intent, system: str) -> dict[str, Any]:
    """What an ``action`` intent's declarations say of it in ``system``: a named action's id and the note the
    actions table gives it there (its words in the span and the why); a free one's note, as the user wrote it."""
    if intent.action is not None:
        return {"note": find_action(intent.action).note_for(system), "named_action": intent.action}
    return {"note": intent.note}


def named_words(d: Declaration, system: str) -> str:
    """The words a system with a list of its own (001's actions, 002's action types) picks ``d``'s entry by: its
    named action's in the actions table for ``system`` (:attr:`~combatkit.model.Declaration.named_action`), not the
    words a plan wrote in its note; a declaration's own note, as the user wrote it, when it places no named action.

    >>> named_words(Declaration("Kell", 1, ActionKind.MISC, note="he parleys", named_action="parley"), "short_form")
    'speaks: parleys'
    """
    return find_action(d.named_action).note_for(system) if d.named_action is not None else d.note


def ready_declaration(ap: ActorPlan, intent: Intent, phase: int, system_reads_components: bool = True) -> Declaration:
    """A ``ready`` intent as a miscellaneous action: material components in hand (000 §2 A; 003 §IV), or a
    weapon drawn and readied (000 §2 E; 001 Draw & Ready; 002 Minor Action)."""
    if intent.item == COMPONENTS:
        return ap.declaration(intent, phase, MISC, readies_components=system_reads_components,
                              note="readies material components")
    return ap.declaration(intent, phase, MISC, note=f"draws and readies {intent.item}")


def action_declaration(ap: ActorPlan, intent: Intent, phase: int) -> Declaration:
    """A named (or free-text) action as the system's declaration: its kind there, the named action's id (which a
    system reads for its own named action: 001's list, 002's action types) and its note."""
    kind = find_action(intent.action).kind_for(ap.system.id) if intent.action else MISC
    return ap.declaration(intent, phase, kind, **_action_fields(intent, ap.system.id))


def _pair(steps: list[tuple[int, Intent]], i: int) -> bool:
    """Step ``i`` is a move toward a figure and step ``i + 1`` an attack on it: close, then strike."""
    if i + 1 >= len(steps):
        return False
    move, attack = steps[i][1], steps[i + 1][1]
    return (move.kind is IntentKind.MOVE and move.target is not None and not move.away and move.feet is None
            and move.maneuver in (None, Maneuver.CHARGE) and attack.kind is IntentKind.ATTACK
            and attack.target == move.target)


# ---------------------------------------------------------------- Combat II: one action a phase


_ONE_A_PHASE: Final = "000 §1 C: one action a phase (move, attack, cast or a miscellaneous action)"


def combat_ii(ap: ActorPlan, phases: Sequence[int], castable: Callable[[Spell, int], str | None],
              table6: Callable[[Fraction | int], tuple[int, ...]] | None = None,
              cast_rule: str = "000 §1 G: a spell is begun in a phase that takes its casting time",
              forms: Callable[[Combatant, tuple[Weapon, ...]], tuple[int, ...] | None] | None = None) -> None:
    """000 §1-2 (Phase System I) and §3 (Phase System II, one A/B/C cycle): one action a phase.

    ``phases`` are the phases the figure may declare in (a surprised figure "loses one full
    phase", 000 §2 F); each intent takes the next free ones. A move is 1/3 MV a phase (000 §1 F);
    a blow is struck when in reach: a move toward the target comes first, a repositioning step
    covers up to 10' more for the round's one attack (000 §2 C), a surprised target is struck at
    the end of the move (000 §2 F), a charge is the move and the blow together (000 §2 D).
    ``castable(spell, phase)`` is None when the spell may be begun in that phase, else the rule
    it breaks; ``cast_rule`` is the rule a spell begun is placed by. ``table6`` (Phase System II, 000 §3 C
    Table 6) spaces the attacks by their rate; ``forms(c, weapons)``, when it gives a sequence (Table 7's attack
    forms a phase), spaces a routine of attack forms by it instead, each blow naming no form: the scheduler uses
    the forms the phase allows.
    """
    c, name = ap.c, ap.name
    allowance = c.movement * 10 // 3  # 000 §1 F: 1/3 MV a phase
    free = list(phases)
    if table6 is not None and isinstance(ap.carried, int):
        ap.sequence = ap.carried  # the Table 6 sequence goes on from the last cycle (000 §3 C)
    i = 0
    steps = ap.steps
    while i < len(steps):
        step, intent = steps[i]
        refined = ap.refined(step, intent)
        if refined is not None:
            free = [p for p in free if p > max(d.phase for d in refined)]
            i += 1
            continue
        intent = ap.unarmed(intent)
        if not free:
            ap.defer(step, intent, _ONE_A_PHASE, f"{intent.said()}: no phase is left for it this round")
            i += 1
            continue
        k = intent.kind
        if k is IntentKind.MOVE and intent.maneuver is Maneuver.FLEE:
            out = [ap.declaration(intent, p, MOVE, feet=allowance, maneuver=Maneuver.FLEE) for p in free]
            ap.add(step, intent, out, "000 §2 D Withdrawing / Fleeing",
                   f"{name} flees: a full move in every phase left ({ap.where(out)})")
            free = []
        elif k is IntentKind.MOVE and intent.maneuver is Maneuver.WITHDRAW:
            out = [ap.declaration(intent, free[0], MOVE, maneuver=Maneuver.WITHDRAW)]
            ap.add(step, intent, out, "000 §2 D Withdrawing / Fleeing",
                   f"{name} withdraws: 1/3 of its 1/3 MV, in {ap.label(free[0])}")
            free = free[1:]
        elif k is IntentKind.MOVE and intent.maneuver is Maneuver.CHARGE:
            out = [ap.declaration(intent, free[0], MOVE, feet=allowance if intent.feet is None else intent.feet,
                                  maneuver=Maneuver.CHARGE)]
            why = f"{name} charges {intent.target}: announced at the start of {ap.label(free[0])}, the blow struck " \
                  f"on arrival"
            ap.add(step, intent, out, "000 §2 D Charging", why)
            free = free[1:]
            if i + 1 < len(steps) and steps[i + 1][1].kind is IntentKind.ATTACK and \
                    steps[i + 1][1].target == intent.target:
                ap.add(steps[i + 1][0], steps[i + 1][1], (), "000 §2 D Charging",
                       f"{name}'s attack on {intent.target} is the charge's blow", PlacementKind.NEAREST)
                i += 1
        elif k is IntentKind.MOVE and _pair(steps, i):
            attack_step, attack = steps[i + 1]
            free = _close_and_strike(ap, (step, intent), (attack_step, ap.unarmed(attack)), free, allowance, table6,
                                     forms)
            i += 1
        elif k is IntentKind.MOVE:
            free = _move(ap, step, intent, free, allowance)
        elif k is IntentKind.ATTACK:
            free = _close_and_strike(ap, None, (step, intent), free, allowance, table6, forms)
        elif k is IntentKind.CAST:
            free = _cast(ap, step, intent, free, castable, cast_rule)
        elif k is IntentKind.READY:
            out = [ready_declaration(ap, intent, free[0])]
            ap.add(step, intent, out, "000 §2 A, E: readying components or a weapon takes a phase",
                   f"{intent.said()}: {ap.where(out)}")
            free = free[1:]
        elif k is IntentKind.HOLD:
            out = [ap.declaration(intent, free[0], READY)]
            ap.add(step, intent, out, "000 §2 D Setting Weapons / Readying Defense",
                   f"{name} stands ready in lieu of attacking, from {ap.label(free[0])}")
            free = free[1:]
        else:
            out = [action_declaration(ap, intent, free[0])]
            ap.add(step, intent, out, "000 §1: a brief miscellaneous action takes a phase",
                   f"{intent.said()}: {ap.where(out)}")
            free = free[1:]
        i += 1
    if table6 is not None:
        attacked = any(d.kind is ATTACK for p in ap.placements for d in p.declarations)
        # 000 §3 C: "In the event of an unexpected or even voluntary phase delay, the sequence starts over"
        ap.carry = ap.sequence - 3 if attacked and ap.sequence is not None else None


def _move(ap: ActorPlan, step: int, intent: Intent, free: list[int], allowance: int) -> list[int]:
    """A move of its own: toward a figure until in reach, away from it, or a distance, 1/3 MV a phase."""
    name = ap.name
    gap = ap.gap(intent.target)
    if intent.feet is not None:
        left = intent.feet
    elif intent.target is not None and not intent.away and gap is not None:
        left = max(0, gap - REACH)
    else:
        left = None
    out: list[Declaration] = []
    if left is None:
        out.append(ap.declaration(intent, free[0], MOVE, feet=None))
    else:
        while left > 0 and len(out) < len(free):
            feet = min(allowance, left)
            out.append(ap.declaration(intent, free[len(out)], MOVE, feet=feet))
            left -= feet
    if not out:
        ap.add(step, intent, (), "000 §2 D Closing Movement", f"{name} is already within striking distance of "
                                                              f"{intent.target}: no move needed", PlacementKind.NEAREST)
        return free
    why = f"{intent.said()}: {ap.where(out)} (1/3 MV, {allowance}', a phase)"
    kind = PlacementKind.PLACED
    if left:
        why += f"; {left}' are left for next round"
        kind = PlacementKind.NEAREST
    ap.add(step, intent, out, "000 §1 F: a move is up to 1/3 MV a phase", why, kind)
    return free[len(out):]


def _close_and_strike(ap: ActorPlan, move: tuple[int, Intent] | None, attack: tuple[int, Intent], free: list[int],
                      allowance: int, table6: Callable[[Fraction | int], tuple[int, ...]] | None,
                      forms: Callable[[Combatant, tuple[Weapon, ...]], tuple[int, ...] | None] | None = None
                      ) -> list[int]:
    """Moves until in reach, then one attack a phase while the round gives blows (000 §1 C, F; §2 C, D, F)."""
    c, name = ap.c, ap.name
    step, intent = attack
    weapons = ap.weapons(intent)
    names = ap.named(intent, weapons)
    shoot = ap.shoots(weapons)
    left = ap.blows(intent, weapons)
    if left <= 0 and table6 is None:
        if move is not None:
            ap.defer(move[0], move[1], "000 §2 C: attacks per round", f"{name} has no attack left this round to "
                                                                     f"close for")
        ap.defer(step, intent, "000 §2 C: each weapon attacks up to its attacks per round",
                 ap.spent(intent, weapons, "blow"))
        return free
    single = left == 1
    pattern: tuple[int, ...] = (1,)
    by_form = forms(c, weapons) if forms is not None and table6 is not None else None
    if table6 is not None:
        if by_form is not None:  # 000 §3 C Table 7: the forms a phase allows, chosen by the scheduler
            pattern, names = by_form, ()
        else:
            naturals = len([w for w in weapons if w.kind is WeaponKind.NATURAL])
            # table6 takes the rate as a Fraction or a whole number: none is built here (#18)
            rate: Fraction | int = (weapons[0].attacks_per_round or c.attacks_per_round) if weapons else \
                c.attacks_per_round
            if shoot:
                rate = rate * weapons[0].rate_of_fire
            elif naturals > 1 and 1 <= c.attacks_per_round <= naturals:
                rate = 1  # one routine a round (claw/claw/bite); below one a round, its own rate (routines())
            pattern = table6(rate)
        left = len(free) if intent.blows is None else min(len(free), intent.blows)
        single = sum(1 for i in range(3) if pattern[i % len(pattern)]) <= 1
    gap = ap.gap(intent.target)
    gap = REACH if gap is None else gap
    if not shoot and gap > REACH + REPOSITION and not allowance:
        if move is not None:
            ap.defer(move[0], move[1], "000 §1 F", f"{name} has MV 0: it cannot move")
        ap.defer(step, intent, "000 §2 D Closing Movement", f"{name} has MV 0 and {intent.target} is {gap}' away: "
                                                            f"it cannot close to strike")
        return free
    target_surprised = ap.target_surprised(intent.target)
    moves: list[Declaration] = []
    blows: list[Declaration] = []
    rules: list[str] = []
    first_attack: int | None = ap.sequence if table6 is not None else None
    used = 0
    for k, p in enumerate(free):
        if left <= 0:
            break
        if first_attack is not None and not pattern[(p - first_attack) % len(pattern)]:
            continue  # a delay (000 §3 C Table 6): free for anything but an attack or a spell
        used = k + 1
        if shoot or gap <= REACH:
            blows.append(ap.declaration(intent, p, ATTACK, weapons=names))
        elif gap <= REACH + REPOSITION and single:
            # The step is taken for the round's one attack: the scheduler keeps the old distance after it.
            blows.append(ap.declaration(intent, p, ATTACK, weapons=names, reposition=True))
            rules.append("000 §2 C Repositioning Movement: a step of up to 10' before the attack, +2 SF")
            gap = REACH
        elif p == 1 and target_surprised and gap - REACH <= allowance:  # in the phase the target loses
            blows.append(ap.declaration(intent, p, ATTACK, weapons=names, feet=gap - REACH))
            rules.append("000 §2 F: those moving up to a surprised figure attack at the end of their move")
            gap = REACH
        else:
            feet = min(allowance, gap - REACH)
            mover = move[1] if move is not None else replace(intent, kind=IntentKind.MOVE, weapons=(), blows=None,
                                                             maneuver=None)
            moves.append(ap.declaration(mover, p, MOVE, target=intent.target, feet=feet))
            gap -= feet
            continue
        left -= 1
        first_attack = p if first_attack is None else first_attack
    ap.sequence = first_attack
    ap.spend(weapons or ap.c.striking(), blows)
    rule = "; ".join(dict.fromkeys(rules + (["000 §1 F: a move is up to 1/3 MV a phase, then the blow a phase "
                                             "later"] if moves else []) + ["000 §1 C: one attack a phase"]))
    if table6 is not None:
        rule += "; 000 §3 C Table 7" if by_form is not None else "; 000 §3 C Table 6"
    if move is not None:
        if moves:
            ap.add(move[0], move[1], moves, "000 §1 F: a move is up to 1/3 MV a phase",
                   f"{name} closes on {intent.target}: {ap.where(moves)} ({allowance}' a phase)")
        else:
            ap.add(move[0], move[1], (), "000 §2 D Closing Movement",
                   f"{name} needs no move to reach {intent.target}", PlacementKind.NEAREST)
    elif moves:
        blows = moves + blows  # the moves are the attack's, placed the nearest way
    if blows and any(d.kind is ATTACK for d in blows):
        verb = "shoots" if shoot else "strikes"
        kind = PlacementKind.PLACED
        whom = f" {intent.target}" if intent.target else ""
        why = f"{name} {verb}{whom}: {ap.where(blows)}"
        if move is None and moves:
            kind = PlacementKind.NEAREST
            why = f"{name} is {ap.gap(intent.target)}' from {intent.target}, so it closes first, then {verb}: " \
                  f"{ap.where(blows)}"
        if intent.blows is not None and intent.blows > len([d for d in blows if d.kind is ATTACK]):
            kind = PlacementKind.NEAREST
            why += f"; the round gives {len([d for d in blows if d.kind is ATTACK])} of the {intent.blows} blows asked"
        ap.add(step, intent, blows, rule, why, kind)
    elif blows:
        ap.add(step, intent, blows, rule, f"{name} cannot reach {intent.target} this round: it closes "
                                          f"({ap.where(blows)}) and strikes next round", PlacementKind.NEAREST)
    else:
        ap.defer(step, intent, rule, f"{name} cannot reach {intent.target} to strike this round")
    return free[used:]


def _cast(ap: ActorPlan, step: int, intent: Intent, free: list[int],
          castable: Callable[[Spell, int], str | None], cast_rule: str) -> list[int]:
    """Components readied first if they are not in hand (000 §2 A), then the spell begun in the next phase
    that takes its casting time (000 §1 G); too long for any phase left, it is begun next round."""
    c, name = ap.c, ap.name
    spell = ap.spell(intent)
    out: list[Declaration] = []
    readied = any(i.kind is IntentKind.READY and i.item == COMPONENTS for s, i in ap.steps if s < step)
    if ("M" in spell.component_set and not c.components_ready and ap.system.rules.components_in_hand
            and not readied and step not in ap.refinements):
        out.append(ap.declaration(intent, free[0], MISC, readies_components=True, note="readies material components",
                                  target=None, spell=None))
        free = free[1:]
        if not free:
            ap.add(step, intent, out, "000 §2 A: material components must be in hand at the beginning of a "
                                      "casting phase", f"{name} readies its components for {spell.name}; no phase is "
                                                       f"left to begin it: it is begun next round",
                   PlacementKind.NEAREST)
            return free
    refusal = castable(spell, free[0])
    if refusal is not None:
        if out:
            ap.add(step, intent, out, refusal, f"{name} readies its components; {spell.name} cannot be begun in "
                                               f"{ap.label(free[0])}: it is begun next round", PlacementKind.NEAREST)
        else:
            ap.defer(step, intent, refusal, f"{name} cannot begin {spell.name} in {ap.label(free[0])}: it is begun "
                                            f"next round")
        return free
    out.append(ap.declaration(intent, free[0], CAST))
    rule = cast_rule
    if len(out) > 1:
        rule = "000 §2 A: components in hand first (a phase); " + rule
    ap.add(step, intent, out, rule, f"{intent.said()}: {ap.where(out)}")
    return free[1:]


# ---------------------------------------------------------------- a chain: one action after the other


def chain(ap: ActorPlan, rules: ChainRules) -> None:
    """003 and 004 (and a system that gives no plan of its own): each intent one step after the
    other: a move first and the blow after it when the move reaches the target. Under 003 the blow
    is then a double action (003 §III); under 004 Strike Speed the move happens at the attack's
    strike speed."""
    name = ap.name
    rate = ap.c.movement * 10
    last = len(ap.system.declaration_phases) or 20
    n = 1
    steps = ap.steps
    i = 0
    while i < len(steps):
        step, intent = steps[i]
        refined = ap.refined(step, intent)
        if refined is not None:
            n, i = max(d.phase for d in refined) + 1, i + 1
            continue
        intent = ap.unarmed(intent)
        if n > last:
            ap.defer(step, intent, f"{ap.system.title}: a round has {last} steps", f"{intent.said()}: the "
                                                                                  f"round has no step left for it")
            i += 1
            continue
        k = intent.kind
        no_charge = intent.maneuver is Maneuver.CHARGE and Maneuver.CHARGE not in ap.system.maneuvers
        if no_charge:
            intent = replace(intent, maneuver=None)
        if k is IntentKind.MOVE and _pair([(step, intent), *steps[i + 1:i + 2]], 0):
            n = _close_then_strike(ap, (step, intent), steps[i + 1], n, rules, charge_note=no_charge)
            i += 2
            continue
        if k is IntentKind.ATTACK:
            n = _close_then_strike(ap, None, (step, intent), n, rules)
            i += 1
            continue
        if k is IntentKind.MOVE and intent.maneuver is Maneuver.FLEE:
            out = [ap.declaration(intent, n, MOVE, feet=rate, maneuver=Maneuver.FLEE)]
            ap.add(step, intent, out, rules.flee, f"{name} flees at its full rate: {ap.where(out)}")
        elif k is IntentKind.MOVE:
            out = [ap.declaration(intent, n, MOVE, feet=_feet(ap, intent, rate))]
            if no_charge:
                ap.add(step, steps[i][1], out, rules.move, f"{name} moves toward {intent.target}, for "
                                                            f"{ap.system.title} has no charge ({ap.where(out)})",
                       PlacementKind.NEAREST)
            else:
                ap.add(step, intent, out, rules.move, f"{intent.said()}: {ap.where(out)}")
        elif k is IntentKind.CAST and rules.cast_needs_target and intent.target is None:
            out = [ap.declaration(intent, n, CAST, target=name, spell=ap.spell(intent).name)]
            ap.add(step, intent, out, rules.cast, f"{name} casts {ap.spell(intent).name}, which names no target: "
                                                  f"{ap.system.title} asks for one, so {name} declares itself "
                                                  f"({ap.where(out)})", PlacementKind.NEAREST)
        elif k is IntentKind.CAST:
            # 004 Strike Speed: Initiative: the spell is declared before initiative; an intent naming none casts the
            # figure's first spell, so its declaration names it (#45). Other chains read no spell as the first.
            named = {"spell": ap.spell(intent).name} if rules.cast_needs_target and intent.spell is None else {}
            out = [ap.declaration(intent, n, CAST, **named)]
            ap.add(step, intent, out, rules.cast, f"{intent.said()}: {ap.where(out)}")
        elif k is IntentKind.READY:
            out = [ready_declaration(ap, intent, n, "readies_components" in ap.system.declaration_fields)]
            ap.add(step, intent, out, rules.ready, f"{intent.said()}: {ap.where(out)}")
        elif k is IntentKind.HOLD:
            out = [ap.declaration(intent, n, READY)]
            ap.add(step, intent, out, rules.hold, f"{name} stands ready: {ap.where(out)}")
        else:
            out = [action_declaration(ap, intent, n)]
            ap.add(step, intent, out, rules.action, f"{intent.said()}: {ap.where(out)}")
        n += 1
        i += 1


@dataclass(frozen=True)
class ChainRules:
    """The rules a chain plan cites, by what it places."""

    move: str
    """A move."""
    strike: str
    """A blow or shot, in reach or at the end of a move."""
    cast: str
    """A spell."""
    ready: str
    """Readying components or a weapon."""
    hold: str
    """Standing ready."""
    action: str
    """A named action."""
    flee: str
    """A flight."""
    out_of_reach: str
    """Why a blow after a move that does not reach the target is not struck this round."""
    cast_needs_target: bool = False
    """004: a caster declares the spell and its target before initiative; a spell that names none is declared at
    the caster."""
    double_move: bool = False
    """002 Action Types: a standard action may be taken as a move, so a target beyond one move is closed on
    with two."""


def _feet(ap: ActorPlan, intent: Intent, rate: int) -> int | None:
    gap = ap.gap(intent.target)
    if intent.feet is not None:
        return min(intent.feet, rate)
    if intent.target is not None and intent.away:
        return rate  # away from a figure, no distance given: as far as the round's move goes
    if intent.target is not None and gap is not None:
        return min(max(0, gap - REACH), rate)
    return None


def _close_then_strike(ap: ActorPlan, move: tuple[int, Intent] | None, attack: tuple[int, Intent], n: int,
                       rules: ChainRules, charge_note: bool = False) -> int:
    """A shot, or a blow already in reach, at step ``n``; else a move to the target at ``n`` and the blow at
    ``n + 1`` when the move reaches it. The next step."""
    name, rate = ap.name, ap.c.movement * 10
    step, intent = attack
    weapons = ap.weapons(intent)
    names = ap.named(intent, weapons)
    gap = ap.gap(intent.target)
    shoot = ap.shoots(weapons)
    if ap.blows(intent, weapons) <= 0:
        if move is not None:
            ap.defer(move[0], move[1], rules.strike, f"{name} has no attack left this round to close for")
        ap.defer(step, intent, rules.strike, ap.spent(intent, weapons))
        return n
    ap.spend_blows(weapons or ap.c.striking(), 1)
    if shoot or gap is None or gap <= REACH:
        if move is not None:
            ap.add(move[0], move[1], (), rules.move, f"{name} needs no move to reach {intent.target}",
                   PlacementKind.NEAREST)
        out = [ap.declaration(intent, n, ATTACK, weapons=names)]
        whom = f" {intent.target}" if intent.target else ""
        ap.add(step, intent, out, rules.strike, f"{name} {'shoots' if shoot else 'strikes'}{whom}: {ap.where(out)}")
        return n + 1
    close = gap - REACH
    mover = move[1] if move is not None else replace(intent, kind=IntentKind.MOVE, weapons=(), blows=None,
                                                     maneuver=None)
    charge = mover.maneuver is Maneuver.CHARGE
    moved = [ap.declaration(mover, n, MOVE, target=intent.target, feet=None if charge else min(close, rate),
                            maneuver=mover.maneuver)]
    note = f", for {ap.system.title} has no charge" if charge_note else ""
    if move is not None:
        verb = "charges" if charge else "closes on"
        ap.add(move[0], move[1], moved, rules.move, f"{name} {verb} {intent.target}{note}: {ap.where(moved)}",
               PlacementKind.NEAREST if charge_note else PlacementKind.PLACED)
    if (charge or close <= rate) and n + 1 <= (len(ap.system.declaration_phases) or 20):
        out = [ap.declaration(intent, n + 1, ATTACK, weapons=names)]
        if move is None:
            ap.add(step, intent, moved + out, rules.strike, f"{name} is {gap}' from {intent.target}, so it closes "
                                                            f"first, then strikes: {ap.where(moved + out)}",
                   PlacementKind.NEAREST)
        else:
            ap.add(step, intent, out, rules.strike, f"{name} strikes {intent.target} at the end of the move: "
                                                    f"{ap.where(out)}")
        return n + 2
    more: list[Declaration] = []
    if rules.double_move:
        more = [ap.declaration(mover, n + 1, MOVE, target=intent.target, feet=min(rate, close - rate), maneuver=None)]
        if move is not None:
            ap.placements[-1] = replace(ap.placements[-1], declarations=tuple(moved + more),
                                        why=f"{name} closes on {intent.target} with two moves: {ap.where(moved + more)}")
            moved = []
    if move is None:
        ap.add(step, intent, moved + more, rules.out_of_reach, f"{name} is {gap}' from {intent.target}, beyond its "
                                                               f"move this round ({rate}'): it closes "
                                                               f"({ap.where(moved + more)}) and strikes next round",
               PlacementKind.NEAREST)
    else:
        ap.defer(step, intent, rules.out_of_reach, f"{name}'s move does not reach {intent.target} this round "
                                                   f"({gap}' away, {rate}' a move): it strikes next round")
    return n + 1 + len(more)
