"""The walk of one round (:func:`combatkit.resolution.resolve_round`).

:class:`Walk` plays the round out on its :class:`~combatkit.resolution.state.WalkState` (the clock's phases, a
queue of actions by tick, each figure as it now stands, what happened). It takes the actions in tick order and
hands each to the module that plays it out: :func:`blows.strike <combatkit.resolution.blows.strike>`,
:func:`spells.cast <combatkit.resolution.spells.cast>` or :func:`moves.move <combatkit.resolution.moves.move>`,
which act on the state for what they share: dice, conditions, damage, falls, events. After each tick the falls that
are due take effect and, if a caster was hit, the timing system re-times the rest of the round (see
:mod:`combatkit.resolution`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import replace

from combatkit.attack import DEFENSELESS_RULE
from combatkit.battle import REACH, Figure, is_acting, routine
from combatkit.dice import Roller
from combatkit.effects import saving_throw
from combatkit.encounter import Hit
from combatkit.model import Declaration
import combatkit.resolution.blows as blows
import combatkit.resolution.morale as morale
import combatkit.resolution.moves as moves
import combatkit.resolution.spells as spells
from combatkit.resolution.events import EventKind, RoundResult
from combatkit.resolution.options import ResolutionOptions
from combatkit.resolution.state import CASTS, D20, FOREVER, Action, Live, WalkState
from combatkit.systems._memo import kept, table as memo_table
from combatkit.systems.base import rounds_table
from combatkit.timeline import UNDER_WAY, Span, SpanKind, Status, Tick, Timeline

Reschedule = Callable[[tuple[Hit, ...]], Timeline]


class Walk(WalkState):
    """One round being played out: each action in turn, on the round's state."""

    def __init__(self, timeline: Timeline, figures: Sequence[Figure], declarations: Sequence[Declaration], *,
                 roller: Roller, options: ResolutionOptions, round: int, encounter_round: int,
                 system_options: object, reschedule: Reschedule | None, explain: bool, cache: dict) -> None:
        super().__init__(timeline, figures, declarations, roller=roller, options=options, round=round,
                         encounter_round=encounter_round, system_options=system_options, explain=explain, cache=cache)
        self.reschedule_fn = reschedule
        self.rolled_before = len(roller.log)
        self.morale_at = self._morale_step(timeline)
        """The tick of the seed's remaining morale checks (:attr:`SystemRules.morale_step`), until they are rolled."""
        self._first_load(timeline)

    # -- time

    def _morale_step(self, timeline: Timeline) -> Tick | None:
        """The tick of the clock period :attr:`SystemRules.morale_step` names (None: the seed has none)."""
        label = self.rules.morale_step
        if label is None:
            return None
        return next((p.start for p in timeline.clock.periods if p.label == label), None)

    # -- the queue

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
            elif span.kind in CASTS and span.actor in ruined_now and span.status is not Status.DONE:
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
        self._after(FOREVER)
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
        if self.wants_reschedule and self.reschedule_fn is not None and t < FOREVER:
            self.wants_reschedule = False
            casters = frozenset(a.span.actor for _, _, _, a in self.queue if a.span.kind in CASTS)
            timeline = self.reschedule_fn(tuple(Hit(*hit) for hit in self.hits))
            self.timeline = replace(timeline, notes=self.timeline.notes + tuple(
                n for n in timeline.notes if n not in self.timeline.notes))
            kept = [entry for entry in self.queue if entry[3].injected]
            self.queue = kept
            heapq.heapify(self.queue)
            self._load(timeline.spans, after=t, ruined_now=casters)

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
            if kind in CASTS and not action.injected:
                spells.not_done(self, live, span, t)
            self.record(span)
            return
        if not live.acts_at(t) and not self._dying_blow(live, span, t):
            if kind in CASTS and not spells.held_later(self, live.name, span):
                live.spells_attempted += 1
            self.cancel(live, span, t, self.rules.preempts if live.status.fallen else
                        f"{live.name} is {live.status.value}", f"{live.name} is {live.status.value} and cannot act.")
            return
        if kind in (SpanKind.ATTACK, SpanKind.OPPORTUNITY):
            blows.strike(self, live, action, t)
        elif kind in CASTS:
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
