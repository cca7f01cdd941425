"""The walk of one round (:func:`combatkit.resolution.resolve_round`).

:class:`Walk` holds the round as it is being played: the clock's phases, a queue of actions by
tick, each figure as it now stands (:class:`~combatkit.resolution.state.Live`), and what happened
(events and resolved spans). It takes the actions in tick order and hands each to the module that
plays it out: :func:`blows.strike <combatkit.resolution.blows.strike>`, :func:`spells.cast
<combatkit.resolution.spells.cast>` or :func:`moves.move <combatkit.resolution.moves.move>`, which
call back into the walk for what they share: dice, conditions, damage, falls, events. After each
tick the falls that are due take effect and, if a caster was hit, the timing system re-times the
rest of the round (see :mod:`combatkit.resolution`).
"""

from __future__ import annotations

import functools
import heapq
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final, TYPE_CHECKING

from combatkit.attack import DEFENSELESS_RULE, find_rule_set
from combatkit.battle import NO_EXTRAS, REACH, ActiveCondition, Figure, FigureStatus, is_acting, is_present, routine
from combatkit.conditions import Condition, Duration, Imposed, Until, Who
from combatkit.dice import Dice, Roller, face
from combatkit.effects import saving_throw
from combatkit.encounter import Hit
from combatkit.errors import IllegalActionError
from combatkit.kinds import Maneuver
from combatkit.model import Declaration
from combatkit.resolution import blows, morale, moves, spells
from combatkit.resolution.events import Event, EventKind, RoundResult
from combatkit.resolution.state import D20, Action, Live
from combatkit.systems._memo import kept, stands_for, table as memo_table
from combatkit.systems.base import SYSTEMS, TimingSystem, rounds_table
from combatkit.systems.rules import AFTER_THE_COUNTS, BEFORE_THE_COUNTS, ChargeRule
from combatkit.timeline import SPAN_KIND, UNDER_WAY, Span, SpanKind, Status, Tick, Timeline

if TYPE_CHECKING:
    from combatkit.resolution import ResolutionOptions

_CASTS: Final = frozenset({SpanKind.CAST, SpanKind.HOLD})
_MOVES_FIRST: Final = {SpanKind.MOVE: 0}
_MOVES_LAST: Final = {SpanKind.MOVE: 3, SpanKind.MISC: 4, SpanKind.READY: 2}
_FOREVER: Final = 10**9


def system_of(system: str) -> TimingSystem:
    """The registered system of a timeline's id; a bare :class:`TimingSystem` (the generic rules and
    hooks) for an id no system is registered under."""
    return SYSTEMS.get(system) or _UNREGISTERED


_UNREGISTERED: Final = TimingSystem()


Reschedule = Callable[[tuple[Hit, ...]], Timeline]


class Walk:
    """One round being played out: its clock's phases, the queue of actions by tick, the live
    figures, what happened (events and resolved spans), and each action in turn."""

    def __init__(self, timeline: Timeline, figures: Sequence[Figure], declarations: Sequence[Declaration], *,
                 roller: Roller, options: ResolutionOptions, round: int, encounter_round: int,
                 system_options: object, reschedule: Reschedule | None, explain: bool, cache: dict) -> None:
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
        self.reschedule_fn = reschedule
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
        self.rolled_before = len(roller.log)
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
        self.morale_at = self._morale_step(timeline)
        """The tick of the seed's remaining morale checks (:attr:`SystemRules.morale_step`), until they are rolled."""
        self._first_load(timeline)

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

    def _morale_step(self, timeline: Timeline) -> Tick | None:
        """The tick of the clock period :attr:`SystemRules.morale_step` names (None: the seed has none)."""
        label = self.rules.morale_step
        if label is None:
            return None
        return next((p.start for p in timeline.clock.periods if p.label == label), None)

    def _grid(self, timeline: Timeline) -> list[tuple[int, int]]:
        """The round's phases (:attr:`Clock.phases <combatkit.timeline.Clock.phases>`), as many as the system has."""
        phases = timeline.clock.phases
        if timeline.clock.periods and timeline.clock.periods[0].label.startswith("phase"):
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

    def _load(self, spans: Sequence[Span], after: Tick, ruined_now: frozenset[str] = frozenset()) -> None:
        ordinal: dict[tuple[str, str], int] = {}
        # by (start, end, actor), stably: sorted as tuples, not through a key function called once a span (#18)
        for _, _, _, _, span in sorted([(s.start, s.end, s.actor, i, s) for i, s in enumerate(spans)]):
            key = (span.actor, span.kind)
            k = ordinal.get(key, 0)
            ordinal[key] = k + 1
            tick = self.impact(span)
            if tick > after:
                self.push(Action(tick, span, self._declaration(span, k)))
            elif span.kind in _CASTS and span.actor in ruined_now and span.status is not Status.DONE:
                self.push(Action(after, span, self._declaration(span, k)))  # a spell under way, ruined now
        self.cast_windows = {}
        self.somatic_windows = {}
        self.touchy = {}
        for _, _, _, a in self.queue:
            if a.span.kind is SpanKind.CAST and a.span.status is Status.DONE:
                # a spell under way at the round's end is still being cast on its last tick (000 §3 B)
                end = a.tick + 1 if UNDER_WAY in a.span.marks else a.tick
                self.cast_windows.setdefault(a.span.actor, []).append((a.span.start, end))
                somatic = self._somatic(a.span)
                if somatic is not None:
                    self.somatic_windows.setdefault(a.span.actor, []).append((a.span.start, end, somatic))
            if self.is_touchy(a):
                self.touchy[a.span.actor] = self.touchy.get(a.span.actor, 0) + 1

    def _first_load(self, timeline: Timeline) -> None:
        """Queue the round's actions (:meth:`_load`). A system that keeps its placed rounds in the run's memo
        (:func:`~combatkit.systems.base.placed_round`) hands the walk the very spans of a round it placed before, most
        rounds of a long run: their queue, cast windows and spells under way are then made once a run for each (kept
        by the identity of the spans and clock, with them, and by the declarations' value), not once a round (#18).
        Nothing in the queue is changed by the walk but its order, and the count of spells under way, which are
        copied. The declarations are compared by the number that stands for their value
        (:func:`~combatkit.systems._memo.stands_for`), as the placed round's key holds them: a round placed again for
        equal declarations in another tuple (Phase System II: seven rounds in ten) has the queue of the first, whose
        actions hold declarations equal to the round's own, which is all the walk reads of them."""
        # Not for a round placed afresh each time (the Segment of Action), outside a run, or explained (its spans
        # are annotated afresh each round).
        if self.explain or rounds_table(self.system) not in self.cache:
            self._load(timeline.spans, after=0)
            return
        loaded = memo_table(self.cache, "loaded rounds")
        spans, clock, declared = timeline.spans, timeline.clock, self.declared
        found = kept(loaded, spans)
        if found is None or found[1] is not clock or found[2] != declared:
            self._load(spans, after=0)
            found = loaded[id(spans)] = (spans, clock, declared, tuple(self.queue), self.seq, self.cast_windows,
                                         self.somatic_windows, self.touchy)
            self.touchy = dict(self.touchy)
            return
        self.queue = list(found[3])
        self.seq = found[4]
        self.cast_windows = found[5]
        self.somatic_windows = found[6]
        self.touchy = dict(found[7])

    def _somatic(self, span: Span) -> str | None:
        """The spell a cast span invokes, if it has somatic components: its caster is then a stationary,
        defenseless target until it goes off (000 §2 C)."""
        live = self.live.get(span.actor)
        name = spells.spell_name(live.c, span) if live is not None else None
        if name is None or "S" not in live.c.spell(name).component_set:  # type: ignore[union-attr]
            return None
        return name

    def somatic_spell(self, name: str, t: Tick) -> str | None:
        """The somatic spell ``name`` is casting at t, if any (000 §2 C: it is then defenseless)."""
        windows = self.somatic_windows.get(name)
        if not windows:
            return None
        return next((spell for start, end, spell in windows if start <= t < end), None)

    def _declaration(self, span: Span, k: int) -> Declaration | None:
        """The declaration behind a span: the k-th span of its actor and kind answers the
        k-th declaration of that kind (the last one for the rest), preferring its target."""
        mine = self.by_actor.get((span.actor, SpanKind.CAST if span.kind is SpanKind.HOLD else span.kind), [])
        if not mine:
            return None
        targeted = [d for d in mine if d.target == span.target] or mine
        return targeted[min(k, len(targeted) - 1)]

    # -- the round

    def run(self) -> RoundResult:
        spells.round_starts(self)  # damage a spell goes on doing (Melf's acid arrow, flaming sphere)
        ended = 0  # phases whose end the walk has passed
        while True:
            while self.queue:
                t = self.queue[0][0]
                if ended < len(self.grid) and self.grid[ended][1] < t:
                    self._phase_end(ended)
                    ended += 1
                    continue
                if self.morale_at is not None and self.morale_at < t:
                    self._morale_checks()
                    continue
                while self.queue and self.queue[0][0] == t:
                    _, _, _, action = heapq.heappop(self.queue)
                    if self.is_touchy(action):
                        self.touchy[action.span.actor] -= 1
                    self._do(action, t)
                self._after(t)
            if ended >= len(self.grid):
                break
            self._phase_end(ended)
            ended += 1
        if self.morale_at is not None:
            self._morale_checks()
        self._after(_FOREVER)
        spells.round_ends(self)  # a spell's sleep, hold or fear that ends with this round
        for live in self.live.values():
            self.expire(live, 0, round_end=True)
        spans = tuple(sorted(self.spans, key=lambda s: (s.end, s.start, s.actor, s.kind)))
        rolls = self.timeline.rolls + tuple(self.roller.log[self.rolled_before:])
        resolved = self.timeline.resolved(spans, rolls)
        return RoundResult(self.round, self.system, resolved, tuple(self.events),
                           tuple(live.figure(self._held_over(live)) for live in self.live.values()), self.declarations)

    def _phase_end(self, index: int) -> None:
        """The end of phase ``index``: with ``defenseless_each_phase`` (000 §2 C, "may be attacked each
        phase"), each foe in reach of a defenseless figure that struck no blow this phase strikes it now. First, a
        spell's hold or sleep whose last phase this was ends (:func:`spells.phase_ends
        <combatkit.resolution.spells.phase_ends>`, 000 §3 B)."""
        spells.phase_ends(self, index)
        if not self.options.defenseless_each_phase:
            return
        t = self.grid[index][1]
        for target in self.live.values():
            if not target.present_at(t):
                continue
            spell = self.somatic_spell(target.name, t)
            if spell is None and not any(c.defenseless for c in self.conditions_on(target, t)):
                continue
            why = f"casting {spell} with its somatic components" if spell else "stationary and defenseless"
            for foe in self.live.values():
                if (foe.fig.side == target.fig.side or not foe.acts_at(t) or index in foe.struck_phases
                        or abs(foe.position - target.position) > REACH):
                    continue
                weapons = routine(foe.c, foe.extras)
                span = Span(foe.name, foe.fig.side, SpanKind.ATTACK,
                            f"{' + '.join(w.name for w in weapons)} -> {target.name} (defenseless)", t, t, "",
                            DEFENSELESS_RULE, f"{target.name} is {why}: it may be attacked each phase.",
                            target=target.name)
                self.event(t, foe.name, EventKind.NOTE, DEFENSELESS_RULE,
                           f"{target.name} is {why} and {foe.name} has struck no blow this phase: it strikes "
                           f"now (the option that reads 'may be attacked each phase' as a blow a phase).",
                           target=target.name)
                self.push(Action(t, span, None, "a blow on a defenseless target", weapons, target.name))

    def _morale_checks(self) -> None:
        """The morale step's remaining checks (:func:`combatkit.resolution.morale.losses`), once the falls before it
        have taken effect; the falls the breaking figures' free attacks cause take effect there too."""
        t = self.morale_at
        assert t is not None
        self.morale_at = None
        self._after(t)
        morale.losses(self, t)
        self._after(t)

    def _held_over(self, live: Live) -> str | None:
        """The spell ``live`` holds past the round's end, unspoilt: the next round's casting (000 §2 A).
        Read from :attr:`held_past_end`, which the fast path keeps too (it records no spans)."""
        if not is_acting(live.status) or live.name not in self.held_past_end:
            return None
        return next((d.spell for d in self.by_actor.get((live.name, SpanKind.CAST), ()) if d.hold), None)

    def _after(self, t: Tick) -> None:
        """Falls whose moment has come; then, if a caster was hit, the system re-times the round."""
        if self.pending:
            for live in self.live.values():
                if live.pending is not None and live.pending[0] <= t:
                    at, status = live.pending
                    live.pending = None
                    self.pending -= 1
                    self.fall(live, at, status)
        if self.wants_reschedule and self.reschedule_fn is not None and t < _FOREVER:
            self.wants_reschedule = False
            casters = frozenset(a.span.actor for _, _, _, a in self.queue if a.span.kind in _CASTS)
            timeline = self.reschedule_fn(tuple(Hit(*hit) for hit in self.hits))
            self.timeline = replace(timeline, notes=self.timeline.notes + tuple(
                n for n in timeline.notes if n not in self.timeline.notes))
            kept = [entry for entry in self.queue if entry[3].injected]
            self.queue = kept
            heapq.heapify(self.queue)
            self._load(timeline.spans, after=t, ruined_now=casters)

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
        round's end (its spell goes off next round, :meth:`_held_over`)."""
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

    # -- one action

    def _do(self, action: Action, t: Tick) -> None:
        span = action.span
        live = self.live.get(span.actor)
        if live is None:
            return
        kind = span.kind
        if kind is SpanKind.SURPRISED:
            self.event(t, live.name, EventKind.SURPRISE, span.rule, f"{live.name}: {span.action}.")
            self.record(span)
            return
        if span.status is not Status.DONE:
            if kind in _CASTS and not action.injected:
                spells.not_done(self, live, span, t)
            self.record(span)
            return
        if not live.acts_at(t) and not self._dying_blow(live, span, t):
            if kind in _CASTS and not spells.held_later(self, live.name, span):
                live.spells_attempted += 1
            self.cancel(live, span, t, self.rules.preempts if live.status.fallen else
                        f"{live.name} is {live.status.value}", f"{live.name} is {live.status.value} and cannot act.")
            return
        if kind in (SpanKind.ATTACK, SpanKind.OPPORTUNITY):
            blows.strike(self, live, action, t)
        elif kind in _CASTS:
            if UNDER_WAY in span.marks:
                spells.under_way(self, live, span, t)
            elif spells.held_later(self, live.name, span):
                self.record(span)  # completed, held: it goes off when the hold ends (000 §2 A)
            else:
                spells.cast(self, live, action, t)
        elif kind is SpanKind.READY:
            self.readied.setdefault(live.name, []).append(span)
            self.record(span)
        elif kind is SpanKind.MOVE:
            moves.move(self, live, action, t)
        elif kind is SpanKind.MISC and morale.RALLY in span.marks:
            morale.rally(self, live, span, t)
        elif kind is SpanKind.MISC:
            if action.declaration is not None and action.declaration.readies_components:
                live.components = True
            self.record(span)
        elif kind is SpanKind.MORALE:
            morale.check_span(self, live, span, t)
        else:
            self.record(span)

    def cancel(self, live: Live, span: Span, t: Tick, rule: str, why: str) -> None:
        self.event(t, live.name, EventKind.CANCELLED, rule, why, target=span.target)
        self.record(span, Status.CANCELLED, rule, why if self.explain else None)

    def _dying_blow(self, live: Live, span: Span, t: Tick) -> bool:
        """003 §I Option (:attr:`SystemRules.dying_blow`): a blow one segment after its striker fell lands
        on a save vs. death."""
        if not (self.options.dying_blow and self.rules.dying_blow is not None and span.kind is SpanKind.ATTACK
                and live.status.fallen and live.down_at is not None and t == live.down_at + 1):
            return False
        if live.dying_save is None:
            need = saving_throw(live.c, "death")
            roll = self.roll(D20, lambda: f"save vs death: {live.name} [round {self.round}]")
            live.dying_save = roll >= need
            self.event(t, live.name, EventKind.DYING_BLOW, self.rules.dying_blow,
                       f"{live.name} fell a segment before this blow: save vs. death {roll} against {need}, "
                       f"{'made: the blow still falls' if live.dying_save else 'failed: the blow is lost'}.",
                       outcome="saved" if live.dying_save else "failed")
        return live.dying_save

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
                first, last, until_attack = g, _FOREVER, True
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
        or to come; an archer's next shot (003 §III, :attr:`SystemRules.hits_delay_shots`)."""
        if action.injected or action.span.status is not Status.DONE:
            return False
        if action.span.kind in _CASTS:
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
