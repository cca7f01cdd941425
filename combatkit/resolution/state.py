"""What the walk of a round (:mod:`combatkit.resolution.walk`) carries: each figure as it stands
(:class:`Live`), each action waiting for its tick (:class:`Action`), the d20, and the round as the rule modules
see it (:class:`WalkState`).

:class:`WalkState` holds the round being played (the clock's phases, the queue of actions by tick, the live
figures, what happened) and does what every rule shares: dice, events, resolved spans, conditions, damage, falls.
The rule modules (:mod:`~combatkit.resolution.spells`, :mod:`~combatkit.resolution.blows`,
:mod:`~combatkit.resolution.moves`, :mod:`~combatkit.resolution.morale`) are handed one and act on it;
:class:`~combatkit.resolution.walk.Walk` extends it with the walk itself, which hands each action to them. So the
modules stand in a line, each importing only those below it: state, spells, blows, moves, morale, walk.
"""

from __future__ import annotations

import functools
import heapq
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from combatkit.attack import find_rule_set
from combatkit.battle import (NO_EXTRAS, ActiveCondition, Figure, FigureExtras, FigureStatus, Lasting, is_acting,
                              is_present)
from combatkit.conditions import Condition, Duration, Imposed, Until, Who
from combatkit.dice import Dice, Roller, face
from combatkit.errors import IllegalActionError
from combatkit.kinds import Maneuver
from combatkit.model import Combatant, Declaration, Weapon
from combatkit.modifiers import Situation
from combatkit.resolution.events import Event, EventKind
from combatkit.resolution.options import ResolutionOptions
from combatkit.systems._memo import stands_for, table as memo_table
from combatkit.systems.base import SYSTEMS, TimingSystem
from combatkit.systems.rules import AFTER_THE_COUNTS, BEFORE_THE_COUNTS, ChargeRule
from combatkit.timeline import SPAN_KIND, Span, SpanKind, Status, Tick, Timeline

D20: Final = Dice(1, 20)
"""Attack rolls and saving throws."""


class Live:
    """One figure during the round (mutable), made from the :class:`Figure` the round begins with.

    A plain class with its own ``__init__`` (not a dataclass): in the compiled build a dataclass's generated
    ``__init__`` runs as Python, and a round makes one of these a figure (#18)."""

    def __init__(self, fig: Figure, extras: FigureExtras) -> None:
        self.fig = fig
        self.c: Combatant = fig.combatant
        """Who it is: what never changes in a fight (``fig`` is never replaced; read hundreds of times a round)."""
        self.name: str = fig.combatant.name
        self.extras = extras
        """What ``ResolutionOptions.figures`` gives it (:meth:`ResolutionOptions.extras
        <combatkit.resolution.ResolutionOptions.extras>`), read at every blow."""
        self.hp = fig.hit_points
        self.status = fig.status
        self.position = fig.position
        self.conditions: list[ActiveCondition] = list(fig.conditions)
        self.spells_used: list[str] = list(fig.spells_used)
        self.components = fig.components_ready
        self.fell = fig.fell
        self.down_at: Tick | None = None
        """Tick after which the figure no longer acts (it fell, slept, was held or fled)."""
        self.pending: tuple[Tick, FigureStatus] | None = None
        """A fall not yet in effect: (tick it takes effect, status)."""
        self.attacks_made = 0
        self.struck_phases: set[int] = set()
        # The fight's running totals, counted on from the figure's (plain attributes, not a dict of them: a blow
        # adds to two or three, #18).
        self.attacks = fig.attacks
        self.hits = fig.hits
        self.damage_dealt = fig.damage_dealt
        self.damage_taken = fig.damage_taken
        self.spells_attempted = fig.spells_attempted
        self.spells_succeeded = fig.spells_succeeded
        self.dying_save: bool | None = None
        self.lasting: list[Lasting] = list(fig.lasting)
        """Spells' effects still running on it (:attr:`Figure.lasting <combatkit.battle.Figure.lasting>`)."""
        self.no_effect: list[str] = list(fig.no_effect_data)
        """Spells it cast that had no effect data, one name a casting (this fight's, so far)."""

    def acts_at(self, t: Tick) -> bool:
        return is_acting(self.status) or (self.down_at is not None and t <= self.down_at)

    def present_at(self, t: Tick) -> bool:
        """Still there to be struck or affected at t: present, or fallen no earlier than t."""
        if is_present(self.status):
            return True
        return self.down_at is not None and t <= self.down_at

    def figure(self, holding: str | None) -> Figure:
        """The figure as the round leaves it, ``holding`` the spell it holds into the next round (if any)."""
        return Figure(  # every field given: a new Figure is quicker made than replaced (#18)
            combatant=self.fig.combatant, holding=holding, hit_points=self.hp, position=self.position,
            status=self.status, spells_used=tuple(self.spells_used), components_ready=self.components,
            conditions=tuple(self.conditions), fell=self.fell, attacks=self.attacks, hits=self.hits,
            damage_dealt=self.damage_dealt, damage_taken=self.damage_taken, spells_attempted=self.spells_attempted,
            spells_succeeded=self.spells_succeeded, lasting=tuple(self.lasting), no_effect_data=tuple(self.no_effect),
        )


class Action:
    """A span (or an injected blow) waiting for its tick (a plain class, as :class:`Live` is)."""

    def __init__(self, tick: Tick, span: Span, declaration: Declaration | None, injected: str = "",
                 weapons: tuple[Weapon, ...] = (), target: str | None = None, situation: Situation | None = None,
                 damage_multiplier: int = 1) -> None:
        self.tick = tick
        self.span = span
        self.declaration = declaration
        self.injected = injected
        """Why an action not on the timeline happens: a retarget, a charge's answer, an extra attack."""
        self.weapons = weapons
        self.target = target
        self.situation = situation
        self.damage_multiplier = damage_multiplier


CASTS: Final = frozenset({SpanKind.CAST, SpanKind.HOLD})
"""The kinds of span that cast a spell: a casting, and one that holds it (000 §2 A)."""
FOREVER: Final = 10**9
"""A tick after every round's end: a condition that lasts until something ends it, the walk's last falls."""
_MOVES_FIRST: Final = {SpanKind.MOVE: 0}
_MOVES_LAST: Final = {SpanKind.MOVE: 3, SpanKind.MISC: 4, SpanKind.READY: 2}


def system_of(system: str) -> TimingSystem:
    """The registered system of a timeline's id; a bare :class:`TimingSystem` (the generic rules and
    hooks) for an id no system is registered under."""
    return SYSTEMS.get(system) or _UNREGISTERED


_UNREGISTERED: Final = TimingSystem()


class WalkState:
    """One round being played out, as the rule modules see it: its clock's phases, the queue of actions by tick,
    the live figures, what happened (events and resolved spans), and what every rule does to them.
    :class:`~combatkit.resolution.walk.Walk` takes the actions in turn."""

    def __init__(self, timeline: Timeline, figures: Sequence[Figure], declarations: Sequence[Declaration], *,
                 roller: Roller, options: ResolutionOptions, round: int, encounter_round: int,
                 system_options: object, explain: bool, cache: dict) -> None:
        self.timeline = timeline
        self.system = timeline.system
        self.found = system_of(self.system)
        self.rules = self.found.rules
        self.own_blow_terms = type(self.found).blow_terms is not TimingSystem.blow_terms
        """Whether the system puts terms of its own on a declared blow (:meth:`TimingSystem.blow_terms
        <combatkit.systems.base.TimingSystem.blow_terms>`; 001's): its Python method is asked at every blow only
        then, not for the default's nothing (#18)."""
        self.options = options
        self.roller = roller
        self.fast_rng = roller.rng if not explain and not roller.entered else None
        """The fast path's generator: dice drawn straight from it, no roll logged or explained."""
        self.explain = explain
        self.round = round
        self.encounter_round = encounter_round
        self.system_options = system_options
        self.cache = cache
        self.modifiers_002 = options.modifiers_002
        """:attr:`ResolutionOptions.modifiers_002`, and below the critical options' least damage, read once a round,
        not from the Python options at every blow (#18)."""
        self.minimum_damage = options.critical_options.minimum_damage
        self.given_extras = options.figures
        """The figures the options give extras (what :attr:`ResolutionOptions.extras` answers), read once a round, not
        from the Python options for each figure and at every blow (#18)."""
        self.live = {f.name: Live(f, self.given_extras.get(f.name, NO_EXTRAS)) for f in figures}
        self.declarations = tuple(declarations)
        self.events: list[Event] = []
        self.spans: list[Span] = []
        self.hits: list[tuple[str, int, str]] = []
        """Each hit of the round so far as a :class:`~combatkit.encounter.Hit`'s fields, made a Hit only when a
        reschedule reads them (a fight deals dozens of blows for every reschedule, #18)."""
        self.grid = self._grid(timeline)
        self.queue: list[tuple[Tick, int, int, Action]] = []
        self.seq = 0
        self.ranks = _MOVES_FIRST if self.rules.moves_first else _MOVES_LAST
        """Where each kind of action goes among those of its tick (1: any other)."""
        self.pending = 0
        """Falls not yet in effect (:attr:`Live.pending <combatkit.resolution.state.Live.pending>`)."""
        self.wants_reschedule = False
        self.charging_now: set[str] = set()  # 000: "loses AC bonus from Dexterity while charging"
        self.held_past_end: set[str] = set()  # a completed hold running past the round's end (000 §2 A)
        self.readied: dict[str, list[Span]] = {}
        self.cast_windows: dict[str, list[tuple[Tick, Tick]]] = {}
        self.somatic_windows: dict[str, list[tuple[Tick, Tick, str]]] = {}  # defenseless while casting (000 §2 C)
        self.touchy: dict[str, int] = {}
        self.rule_set = find_rule_set(options.criticals) if options.criticals is not None else None
        self.by_actor: dict[tuple[str, SpanKind], list[Declaration]]
        """Each figure's declarations by the kind of span they make (read only)."""
        self.chargers: set[str]
        """The figures that declared a charge this round (002 Charging: a charging creature), asked at every blow."""
        self.declared = stands_for(self.declarations, items=True, cache=cache)
        """The number that stands for the round's declarations' value (:func:`~combatkit.systems._memo.stands_for`),
        what the run's memo keys them on here."""
        self.by_actor, self.chargers = self._sorted_declarations()

    def _sorted_declarations(self) -> tuple[dict[tuple[str, SpanKind], list[Declaration]], set[str]]:
        """:attr:`by_actor` and :attr:`chargers`, which follow from the round's declarations: sorted once a run for
        each value of them (:attr:`declared`; Phase System II's rounds hold equal declarations in another tuple one
        time in five), not once a round (#18); both are only read, and hold declarations equal to the round's."""
        sorted_before = memo_table(self.cache, "declarations by actor")
        declarations = self.declarations
        found = sorted_before.get(self.declared)
        if found is not None:
            return found
        by_actor: dict[tuple[str, SpanKind], list[Declaration]] = {}
        chargers: set[str] = set()
        for d in declarations:
            kind = SPAN_KIND[d.kind]
            by_actor.setdefault((d.actor, kind), []).append(d)
            if d.maneuver is not Maneuver.CHARGE:
                continue
            if kind is SpanKind.MOVE:
                chargers.add(d.actor)
            if self.rules.charge is ChargeRule.COMBAT_II and not d.target:
                raise IllegalActionError("000 §2 D Charging", f"{d.actor} announces a charge in phase {d.phase} "
                                                             f"without a target: a charge and its target are "
                                                             f"announced at the beginning of the phase")
        sorted_before[self.declared] = (by_actor, chargers)
        return by_actor, chargers

    # -- time

    def _grid(self, timeline: Timeline) -> list[tuple[int, int]]:
        """The round's phases (:attr:`Clock.phases <combatkit.timeline.Clock.phases>`), as many as the system has."""
        phases = timeline.clock.phases
        if timeline.clock.periods and timeline.clock.periods[0].name == "phase":
            return list(phases[: self.rules.phases])
        return list(phases)

    def phase_index(self, t: Tick) -> int:
        for i, (start, end) in enumerate(self.grid):
            if start <= t <= end:
                return i
        return len(self.grid) if t > self.grid[-1][1] else 0

    def global_phase(self, t: Tick) -> int:
        return (self.round - 1) * self.rules.phases + self.phase_index(t)

    def when(self, t: Tick) -> str:
        return self.timeline.clock.describe(t) if self.explain else ""

    def impact(self, span: Span) -> Tick:
        """When a span takes effect: its end; for 001, missiles and spells when the step ends."""
        if self.rules.falls_at_step_end and span.kind in (SpanKind.ATTACK, SpanKind.CAST):
            period = self.timeline.clock.period_of(span.end)
            if period is not None and period.label.endswith("missiles & magic"):
                return period.end
        return span.end

    def fall_tick(self, t: Tick) -> Tick:
        if self.rules.falls_at_step_end:
            period = self.timeline.clock.period_of(t)
            if period is not None:
                return period.end + (t - 1) // self.timeline.clock.ticks * self.timeline.clock.ticks
        return t

    # -- the queue

    def push(self, action: Action) -> None:
        self.seq += 1
        heapq.heappush(self.queue, (action.tick, self.ranks.get(action.span.kind, 1), self.seq, action))

    def withdraw(self, actor: str, kind: SpanKind) -> list[tuple[Tick, Action]]:
        """Take ``actor``'s actions of ``kind`` still to come out of the queue; each with its tick."""
        taken = [entry for entry in self.queue if entry[3].span.actor == actor and entry[3].span.kind is kind]
        for entry in taken:
            self.queue.remove(entry)
            if self.is_touchy(entry[3]):
                self.touchy[actor] -= 1
        heapq.heapify(self.queue)
        return [(tick, action) for tick, _, _, action in taken]

    def somatic_spell(self, name: str, t: Tick) -> str | None:
        """The somatic spell ``name`` is casting at t, if any (000 §2 C: it is then defenseless)."""
        windows = self.somatic_windows.get(name)
        if not windows:
            return None
        return next((spell for start, end, spell in windows if start <= t < end), None)

    # -- what happened

    def fall(self, live: Live, t: Tick, status: FigureStatus, rule: str | None = None) -> None:
        """``live`` is out of the fight from tick t: dead, unconscious, asleep, held, fled, charmed or
        frightened (``rule``: what put it there, if not the seed's rule for that status)."""
        if not is_present(live.status):
            return
        live.status = status
        live.down_at = t
        live.fell = (self.round, t)
        if not self.explain:  # the rest is the event's
            return
        if rule is None and status.fallen:
            rule = self.rules.falls
        elif rule is None:
            rule = {FigureStatus.ASLEEP: "002 Special Types of Attacks IV", FigureStatus.HELD:
                    "002 Special Types of Attacks IV", FigureStatus.FLED: "002 Breaking Off II.B",
                    FigureStatus.CHARMED: "PH 2e charm person", FigureStatus.FRIGHTENED: "PH 2e fear"}[status]
        what = {FigureStatus.DEAD: "dies", FigureStatus.UNCONSCIOUS: "falls unconscious",
                FigureStatus.ASLEEP: "falls asleep", FigureStatus.HELD: "is held",
                FigureStatus.FLED: "has fled the fight", FigureStatus.CHARMED: "is charmed",
                FigureStatus.FRIGHTENED: "flees in panic"}[status]
        why = f"{live.name} {what} ({live.hp} hp)." if status.fallen else f"{live.name} {what}."
        self.event(t, live.name, EventKind.FALL, rule, why, outcome=status.value, hit_points=live.hp)

    def event(self, t: Tick, actor: str, kind: EventKind, rule: str, why: str = "", **fields: object) -> None:
        if self.explain:
            self.events.append(Event(self.round, t, actor, kind, rule, why, when=self.when(t), **fields))  # type: ignore[arg-type]

    def record(self, span: Span, status: Status | None = None, rule: str | None = None, why: str | None = None,
               **changes: object) -> None:
        """Keep ``span`` as resolved (explained path only), noting on both paths a hold that runs past the
        round's end (its spell goes off next round, :meth:`Walk._held_over
        <combatkit.resolution.walk.Walk._held_over>`)."""
        if (span.kind is SpanKind.HOLD and (status or span.status) is Status.DONE
                and span.end > self.timeline.clock.ticks):
            self.held_past_end.add(span.actor)
        if not self.explain:
            return
        if status is not None:
            changes["status"] = status
        if rule is not None:
            changes["rule"] = rule
        if why is not None:
            changes["why"] = f"{span.why} {why}".strip()
        self.spans.append(replace(span, **changes) if changes else span)  # type: ignore[arg-type]

    def cancel(self, live: Live, span: Span, t: Tick, rule: str, why: str) -> None:
        self.event(t, live.name, EventKind.CANCELLED, rule, why, target=span.target)
        self.record(span, Status.CANCELLED, rule, why if self.explain else None)

    # -- dice

    def roll(self, dice: Dice, purpose: Callable[[], str]) -> int:
        rng = self.fast_rng
        if rng is not None:
            if dice.count == 1:
                return face(rng, dice.sides) + dice.modifier
            return sum(face(rng, dice.sides) for _ in range(dice.count)) + dice.modifier
        return self.roller.roll(dice, purpose()).total

    # -- conditions

    def conditions_on(self, live: Live, t: Tick) -> tuple[Condition, ...]:
        if not live.conditions:
            return ()
        g = self.global_phase(t)
        return tuple(a.condition for a in live.conditions if a.first <= g <= a.last)

    def impose(self, imposed: Sequence[Imposed], attacker: Live, defender: Live, t: Tick) -> None:
        g = self.global_phase(t)
        per_round = self.rules.phases
        for item in imposed:
            who = attacker if item.who is Who.ATTACKER else defender
            d: Duration = item.duration
            until_attack = d.or_next_attack
            if d.until is Until.END_OF_PHASE:
                first, last = g + d.starts, g + d.count
            elif d.until in (Until.END_OF_ROUND, Until.END_OF_TURN):
                first, last = g + d.starts, (g // per_round + d.count) * per_round + per_round - 1
            elif d.until is Until.REMOVED:
                first, last = g, g + 1
            else:
                first, last, until_attack = g, FOREVER, True
            who.conditions.append(ActiveCondition(item.condition, first, last, item.rule, until_attack))
            self.event(t, who.name, EventKind.CONDITION, item.rule,
                       f"{item.describe(attacker.name, defender.name)}." if self.explain else "",
                       outcome=item.condition.id)

    def expire(self, live: Live, t: Tick, round_end: bool = False, attacked: bool = False) -> None:
        if not live.conditions:
            return
        g = self.global_phase(t)
        end = self.round * self.rules.phases - 1
        live.conditions = [a for a in live.conditions
                           if not (attacked and a.until_attack and a.first <= g)
                           and not (round_end and a.last <= end) and not a.last < g]

    # -- hits

    def damage(self, target: Live, amount: int, t: Tick, source: Live | None) -> None:
        """Take ``amount`` hit points from ``target`` at tick t; it falls when its seed says."""
        target.hp -= amount
        target.damage_taken += amount
        if source is not None:
            source.damage_dealt += amount
        hit_tick = t
        if self.rules.hits_as_counts:
            period = self.timeline.clock.period_of(t)
            count = _count_of(period.label) if period is not None else None
            hit_tick = count if count is not None else (BEFORE_THE_COUNTS if t <= 1 else AFTER_THE_COUNTS)
        self.hits.append((target.name, hit_tick, source.name if source is not None else ""))
        if self._sensitive(target):
            self.wants_reschedule = True
        if target.hp <= 0 and target.pending is None and is_present(target.status):
            status = FigureStatus.DEAD if target.hp <= self.options.dead_at else FigureStatus.UNCONSCIOUS
            target.pending = (self.fall_tick(t), status)
            self.pending += 1

    def is_touchy(self, action: Action) -> bool:
        """An action whose timing the system may change after a hit on its actor: a spell under way
        or to come; an archer's next shot (003 §III, :attr:`SystemRules.hits_delay_shots
        <combatkit.systems.rules.SystemRules.hits_delay_shots>`)."""
        if action.injected or action.span.status is not Status.DONE:
            return False
        if action.span.kind in CASTS:
            return True
        return self.rules.hits_delay_shots and action.span.kind is SpanKind.ATTACK and _names_a_shot(action.span.action)

    def _sensitive(self, target: Live) -> bool:
        """Whether a hit on ``target`` now may change the rest of the round's timing."""
        return self.touchy.get(target.name, 0) > 0


def _names_a_shot(action: str) -> bool:
    """Whether a span's action names a shot (the word ``shot``: "long bow shot 2 -> Grak"), as ``" shot " in
    f" {action} "`` says, without making that string at every check (#18)."""
    return " shot " in action or action.startswith("shot ") or action.endswith(" shot") or action == "shot"


@functools.lru_cache(maxsize=256)
def _count_of(label: str) -> int | None:
    """The count a period's label ends in (``"count 7"``: 7), where a system counts down a round; read once a
    label, not once a hit (#18)."""
    found = re.search(r"(-?\d+)$", label)
    return int(found.group(1)) if found else None
