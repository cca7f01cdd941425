"""Getting mana back: 000 §5 Mana Recovery, Bonus Spell Points and Recovery Limit.

Two entry points: :func:`time_to_full` answers "how long until full?", and
:func:`plan_day` plays a day of casting, sleeping and study and returns the pools
over time as long-form rows a chart can draw.

The seed's example: a 20th-level mage needs 27 hours of study to regain all 162 points.

>>> from combatkit.mana.pools import Caster, mana_state
>>> from combatkit.mana.tables import CasterClass
>>> time_to_full(mana_state(Caster(CasterClass.WIZARD, 20)).emptied()).hours
Fraction(27, 1)

Choices this module makes where 000 §5 is silent or open:

* Hours of rest "below 8" are counted in started hours: 7 h 30 min of rest is one hour
  short (+1 minute per point), so any rest under 8 hours costs something.
* A :class:`Rest` is a rest period: it sets the rate for the study after it and begins
  a new recovery session. After a rest under 4 hours study regains nothing until the
  next rest. A short break inside a session is a gap between :class:`Study` blocks.
* "A spell recovery session may not be interrupted for more than one 2 hour period"
  reads as: one interruption (a gap between study blocks after the same rest) of at
  most 2 hours is allowed; a longer one, or a second one, stops recovery until the
  next rest. Study time done before an allowed interruption still counts.
* Points return one at a time, each when its minutes of study are done. Specialist
  points take half the time; the half minutes add up across the session and round up
  at the end, as "round up after totaling the minutes required" asks.
* The Recovery Limit ("no more than the casting total within a 24 hour period") holds
  per pool over any sliding 24 hours, automatic returns included. Study goes to the
  first pool (in order) whose next point may come back at the minute it would be
  done; while no pool may regain anything, study time is lost.
* Bonus points (a priest's Wisdom bonus, free boxes, bonus slots, innate spells) come
  back at the end of a rest of 4+ hours, at most once in any 24 hours.
* Study recovers the pools a :class:`Study` lists in ``order`` (System II: "the caster
  may elect which spell slots to recover"), else every pool in the state's order.
* A rest's length is the sleep in it: its :attr:`Rest.interruptions` (a watch, a fight)
  do not count, and spells may be cast only in them. A cast may not fall inside a
  study block: split the block around it.

For a teaching view, :func:`explain_recovery` tells a :class:`RecoveryEstimate` in sentences
that cite the rule, :func:`explain_pool_recovery` says how one pool's points come back, and
:func:`cast_refusal` says why a cast of a plan can never be made. Messages and notes name a
minute of a plan through the ``clock`` a caller passes (``"minute 1020"`` by default).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from combatkit.errors import RulesError, is_whole
from combatkit.mana.pools import MAX_SPELL_LEVEL, Explanation, ManaState, Note, Pool, RecoveryRate, cast
from combatkit.mana.tables import ordinal

__all__ = [
    "DAY",
    "PLAN_MINUTES",
    "Cast",
    "DayPlan",
    "Minute",
    "PlanEvent",
    "PlanNote",
    "PoolRecovery",
    "PoolSample",
    "Recovery",
    "RecoveryEstimate",
    "Rest",
    "Study",
    "cast_refusal",
    "duration_text",
    "explain_pool_recovery",
    "explain_recovery",
    "minutes_per_point",
    "plan_day",
    "recovery_minutes",
    "time_to_full",
]

Minute: TypeAlias = int
"""Minutes from the start of a plan, 0..10080 (:data:`PLAN_MINUTES`: a week)."""

DAY = 24 * 60
"""Minutes in the Recovery Limit's 24-hour period."""
FULL_REST = 8 * 60
"""The full night's rest the recovery rates assume (000 §5 Mana Recovery)."""
MIN_REST = 4 * 60
"""Under this much sleep no points can be regained (000 §5 Mana Recovery)."""
FLAT_MINUTES_PER_POINT = 10
"""The flat rate, as PH p. 81 (000 §5 Mana Recovery)."""
MAX_INTERRUPTION = 2 * 60
"""The one interruption a recovery session survives (000 §5 Recovery Limit)."""
PLAN_MINUTES = 7 * DAY
"""The last minute a plan may reach: a week, four times the 27 hours of study a 20th-level mage needs to
refill (000 §5). :func:`plan_day` plays study minute by minute, so a week takes it a few hundredths of a
second; a later minute is refused by name."""

_RULE = "000 §5 Mana Recovery"
_RULE_BONUS = "000 §5 Bonus Spell Points"
_RULE_LIMIT = "000 §5 Recovery Limit"


def _check_minute(value: object, what: str) -> None:
    if not is_whole(value) or not 0 <= value <= PLAN_MINUTES:
        raise RulesError(_RULE, f"{what} is a whole number of minutes from the plan's start, at most {PLAN_MINUTES} "
                                f"(a plan covers a week) and 0 or more, got {value!r}")


def _check_rest(rest_minutes: int) -> None:
    if not is_whole(rest_minutes) or not 0 <= rest_minutes <= DAY:
        hours = f" ({duration_text(rest_minutes)})" if isinstance(rest_minutes, int) and rest_minutes > DAY else ""
        raise RulesError(_RULE, f"a rest lasts 0..{DAY} minutes (24 hours) in a day, got {rest_minutes!r}{hours}")


def _minute(minute: Minute) -> str:
    """How messages name a minute of a plan unless the caller passes a clock: ``"minute 1020"``."""
    return f"minute {minute}"


def duration_text(minutes: int) -> str:
    """A span of minutes as spoken, the way the engine's messages write it.

    >>> duration_text(1800), duration_text(200), duration_text(45)
    ('30 hours', '3 hours 20 minutes', '45 minutes')
    """
    hours, rest = divmod(minutes, 60)
    parts = [f"{hours} hour{'s' * (hours != 1)}"] * bool(hours) + [f"{rest} minute{'s' * (rest != 1)}"] * bool(rest)
    return " ".join(parts) or "0 minutes"


def minutes_per_point(
    highest_spell_level: int, *, rate: RecoveryRate = RecoveryRate.FLAT, rest_minutes: int = FULL_REST
) -> int | None:
    """Minutes of study per point after a rest of ``rest_minutes``; None when under 4 hours.

    10 minutes, or with ``RecoveryRate.BY_SPELL_LEVEL`` 13 - highest allowable spell
    level; plus 1 minute per point for each (started) hour of rest below 8.

    >>> minutes_per_point(9, rate=RecoveryRate.BY_SPELL_LEVEL), minutes_per_point(3, rest_minutes=6 * 60)
    (4, 12)
    >>> minutes_per_point(3, rest_minutes=3 * 60) is None
    True
    """
    if not is_whole(highest_spell_level) or not 1 <= highest_spell_level <= MAX_SPELL_LEVEL:
        raise RulesError(
            _RULE, f"the highest allowable spell level is 1..{MAX_SPELL_LEVEL}, got {highest_spell_level!r}"
        )
    _check_rest(rest_minutes)
    if rest_minutes < MIN_REST:
        return None
    return _rested_rate(highest_spell_level, rate) + math.ceil(max(0, FULL_REST - rest_minutes) / 60)


def _rested_rate(highest_spell_level: int, rate: RecoveryRate) -> int:
    """Minutes of study per point after a full night's rest: 10, or 13 - highest allowable spell level."""
    return FLAT_MINUTES_PER_POINT if rate is RecoveryRate.FLAT else 13 - highest_spell_level


def recovery_minutes(points: int, minutes_per_point: int, *, specialist: bool = False) -> int:
    """Minutes of study to regain ``points``; a specialist's take half, rounded up after totaling.

    >>> recovery_minutes(162, 10), recovery_minutes(3, 7, specialist=True)
    (1620, 11)
    """
    for value, what in ((points, "points"), (minutes_per_point, "minutes per point")):
        if not is_whole(value) or value < 0:
            raise RulesError(_RULE, f"{what} must be a whole number, 0 or more, got {value!r}")
    total = points * minutes_per_point
    return math.ceil(Fraction(total, 2)) if specialist else total


@dataclass(frozen=True)
class PoolRecovery:
    """What one pool needs to be full again."""

    pool: str
    """The pool's label."""
    automatic: int
    """Points (or boxes) that come back after 4+ hours' sleep, without study."""
    studied: int
    """Points (or boxes) regained by study."""
    minutes: Fraction
    """Study minutes for them; half minutes for a specialist pool, rounded up only in the total."""

    @property
    def minutes_each(self) -> Fraction | None:
        """Study minutes per point (or box) regained by study; None when study regains none."""
        return self.minutes / self.studied if self.studied else None


@dataclass(frozen=True)
class RecoveryEstimate:
    """The answer to "how long until full?" after one rest."""

    rest_minutes: int
    """The rest taken before studying, 0..1440."""
    minutes_per_point: int | None
    """The study rate after that rest; None when no study is needed or none is possible."""
    pools: tuple[PoolRecovery, ...]
    """Per pool, what comes back and how."""
    study_minutes: int | None
    """Minutes of study in all; None when the rest was under 4 hours, so nothing can be regained."""

    @property
    def hours(self) -> Fraction | None:
        """``study_minutes`` in hours."""
        return None if self.study_minutes is None else Fraction(self.study_minutes, 60)


def time_to_full(state: ManaState, *, rest_minutes: int = FULL_REST) -> RecoveryEstimate:
    """Study time to refill every pool after a rest of ``rest_minutes`` (000 §5 Mana Recovery).

    Assumes the rest is the first in 24 hours (so bonus points return) and that the
    session runs without a break; :func:`plan_day` plays out anything else.
    """
    _check_rest(rest_minutes)
    missing = [pool for pool in state.pools if pool.missing]
    if rest_minutes < MIN_REST:
        return RecoveryEstimate(rest_minutes, None, (), None if missing else 0)
    rate = None
    needs_study = any(pool.missing > pool.automatic for pool in missing)
    if needs_study:
        rate = minutes_per_point(state.highest_spell_level, rate=state.options.recovery_rate, rest_minutes=rest_minutes)
    rows = []
    half_minutes = 0
    for pool in missing:
        automatic = min(pool.automatic, pool.missing)
        studied = pool.missing - automatic
        cost = 0 if rate is None else _half_minutes(pool, rate) * studied
        half_minutes += cost
        rows.append(PoolRecovery(pool.label, automatic, studied, Fraction(cost, 2)))
    return RecoveryEstimate(rest_minutes, rate, tuple(rows), math.ceil(Fraction(half_minutes, 2)))


def _half_minutes(pool: Pool, rate: int) -> int:
    """Half minutes of study for one point (or box) of ``pool``: specialists study at half time."""
    return pool.unit_points * rate * (1 if pool.kind.specialist else 2)


def explain_pool_recovery(pool: Pool) -> Note:
    """How ``pool``'s points (or boxes) come back: after sleep, by study, or both.

    >>> from combatkit.mana.pools import PoolKind
    >>> print(explain_pool_recovery(Pool(PoolKind.POINTS, None, 21, 21, automatic=9)).text)
    9 after 4+ hours' sleep, the rest by study (000 §5 Bonus Spell Points)
    """
    if not pool.studied:
        return Note(f"after 4+ hours' sleep, no study ({_RULE_BONUS})", _RULE_BONUS)
    if pool.automatic:
        return Note(f"{pool.automatic} after 4+ hours' sleep, the rest by study ({_RULE_BONUS})", _RULE_BONUS)
    if pool.kind.specialist:
        return Note(f"by study at half time ({_RULE_BONUS}); pays for specialty spells only", _RULE_BONUS)
    return Note(f"by study ({_RULE})", _RULE)


def explain_recovery(state: ManaState, estimate: RecoveryEstimate) -> Explanation:
    """:func:`time_to_full`'s ``estimate`` for ``state`` in sentences: the study time as the headline,
    then the rate and why, what specialist and bonus points do, and what the estimate assumes.

    The seed's example, a 20th-level mage's 27 hours:

    >>> from combatkit.mana.pools import Caster, mana_state
    >>> from combatkit.mana.tables import CasterClass
    >>> mage = mana_state(Caster(CasterClass.WIZARD, 20)).emptied()
    >>> explanation = explain_recovery(mage, time_to_full(mage))
    >>> print(explanation.headline)
    27 hours of study (1620 minutes) after 8 hours of rest
    >>> print(explanation.notes[0].text)
    10 minutes per point: the flat 10 minutes per point, as PH p. 81 (000 §5 Mana Recovery).
    """
    rest = duration_text(estimate.rest_minutes)
    if not state.pools:
        return Explanation(f"{state.who} has no spells, so nothing to recover.")
    if estimate.study_minutes is None:
        return Explanation(f"Nothing comes back after {rest} of rest.", (Note(
            f"Under 4 hours' sleep no points can be regained, not even bonus points, until the next rest ({_RULE}).",
            _RULE),))
    if not estimate.pools:
        return Explanation("Every pool is full: nothing to recover.")
    if estimate.study_minutes == 0:
        headline = f"No study needed: everything missing comes back after {rest} of sleep."
    else:
        headline = (f"{duration_text(estimate.study_minutes)} of study ({estimate.study_minutes} minutes) "
                    f"after {rest} of rest")
    notes = []
    if estimate.minutes_per_point is not None:
        rate = state.options.recovery_rate
        full_rate = _rested_rate(state.highest_spell_level, rate)
        if rate is RecoveryRate.FLAT:
            why = f"the flat {full_rate} minutes per point, as PH p. 81"
        else:
            why = (f"the option, 13 − highest allowable spell level ({ordinal(state.highest_spell_level)}) = "
                   f"{full_rate} minutes per point")
        if estimate.minutes_per_point > full_rate:
            why += (f", + {estimate.minutes_per_point - full_rate} for a rest of {rest}: 1 minute per point per "
                    "hour below 8")
        notes.append(Note(f"{estimate.minutes_per_point} minutes per point: {why} ({_RULE}).", _RULE))
    if any(state.pool(r.pool).kind.specialist for r in estimate.pools):
        notes.append(Note(f"Specialist points take half the time, rounded up after totaling ({_RULE_BONUS}).",
                          _RULE_BONUS))
    if any(r.automatic for r in estimate.pools):
        notes.append(Note(f"Bonus points come back after 4+ hours' sleep, once a day, without study ({_RULE_BONUS}).",
                          _RULE_BONUS))
    notes.append(Note("This assumes the rest is the first in 24 hours and the study runs without a break; the day "
                      "planner plays out breaks, a second night and the 24-hour Recovery Limit.", _RULE_LIMIT))
    return Explanation(headline, tuple(notes))


@dataclass(frozen=True)
class Cast:
    """A spell cast at ``minute``."""

    minute: Minute
    """When, from the start of the plan."""
    spell_level: int
    """The spell's level, 1..9 (checked against the caster when the plan is played)."""
    specialty: bool = False
    """A specialist's specialty spell (may draw on the specialist pool)."""
    pool: str | None = None
    """The pool to pay from, by label; None: the default order of :func:`~combatkit.mana.pools.cast`."""

    def __post_init__(self) -> None:
        _check_minute(self.minute, "a cast's minute")


def _check_block(block: Rest | Study) -> None:
    _check_minute(block.start, f"{type(block).__name__} start")
    _check_minute(block.end, f"{type(block).__name__} end")
    if block.end <= block.start:
        raise RulesError(_RULE, f"{block!r} must end after it starts")


@dataclass(frozen=True)
class Rest:
    """A rest period from ``start`` to ``end`` (000 §5 Mana Recovery), perhaps broken by
    time awake: "for any reason from insomnia to hot pursuit by enemies"."""

    start: Minute
    """Lies down."""
    end: Minute
    """Gets up; at most 24 hours after ``start``."""
    interruptions: tuple[tuple[Minute, Minute], ...] = ()
    """Times awake inside the rest (a watch, a fight) as (from, to) minutes, in order;
    they do not count as sleep, and spells may be cast during them."""

    def __post_init__(self) -> None:
        _check_block(self)
        _check_rest(self.end - self.start)
        previous = self.start
        for awake in self.interruptions:
            if not (
                isinstance(awake, tuple)
                and len(awake) == 2
                and all(isinstance(m, int) and not isinstance(m, bool) for m in awake)
                and previous <= awake[0] < awake[1] <= self.end
            ):
                raise RulesError(_RULE, f"a rest's interruptions are (from, to) minutes in order inside "
                                 f"{self.start}..{self.end}, got {awake!r}")  # fmt: skip
            previous = awake[1]

    @property
    def sleep_minutes(self) -> int:
        """Minutes actually asleep: the rest less its interruptions."""
        return self.end - self.start - sum(to - since for since, to in self.interruptions)

    def awake_at(self, minute: Minute) -> bool:
        """Whether the caster is up at ``minute`` (outside the rest, or during an interruption)."""
        inside = self.start < minute < self.end
        return not inside or any(since <= minute <= to for since, to in self.interruptions)


@dataclass(frozen=True)
class Study:
    """Study or prayer from ``start`` to ``end``: part of a recovery session."""

    start: Minute
    """Begins."""
    end: Minute
    """Stops."""
    order: tuple[str, ...] = ()
    """The pools to recover, by label, first first; empty: every pool, in the state's order."""

    def __post_init__(self) -> None:
        _check_block(self)
        if not isinstance(self.order, tuple) or not all(isinstance(label, str) for label in self.order):
            raise RulesError(_RULE, f"a study's order is a tuple of pool labels, got {self.order!r}")


PlanEvent: TypeAlias = Cast | Rest | Study
"""One thing the planner plays out."""


@dataclass(frozen=True)
class PoolSample:
    """One pool's level at one minute: a row of the long-form chart data."""

    minute: Minute
    """When."""
    pool: str
    """The pool's label."""
    available: int
    """Points (or boxes) available from this minute on."""
    maximum: int
    """The pool's maximum."""
    points: int
    """``available`` in spell levels (boxes times their level)."""
    cause: str
    """What changed it, citing the rule."""


@dataclass(frozen=True)
class Recovery:
    """Points (or boxes) regained at one minute."""

    minute: Minute
    """When they came back."""
    pool: str
    """The pool's label."""
    units: int
    """How many points (or boxes)."""
    cause: str
    """Study or sleep, citing the rule."""


@dataclass(frozen=True)
class PlanNote:
    """Something the plan did not do, and why: a blocked or wasted recovery."""

    minute: Minute
    """When."""
    text: str
    """What happened."""
    rule: str
    """The rule that decided it."""


@dataclass(frozen=True)
class DayPlan:
    """A day played out: the pools over time and what came back when."""

    start: ManaState
    """The state at minute 0."""
    final: ManaState
    """The state at ``end``."""
    end: Minute
    """The last minute of the plan."""
    samples: tuple[PoolSample, ...]
    """Every pool at minute 0, at each change, and at ``end``, in time order."""
    recoveries: tuple[Recovery, ...]
    """Every return of points, in time order."""
    notes: tuple[PlanNote, ...]
    """Recoveries the rules blocked, in time order."""

    def series(self, pool: str | None = None) -> list[tuple[Minute, int]]:
        """(minute, points) rows: one pool's available points (or boxes), or with no ``pool``
        the spell levels available across all pools. One row per minute with a change."""
        if pool is not None:
            self.start.pool(pool)  # raises for a label the state does not have
            rows = [(sample.minute, sample.available) for sample in self.samples if sample.pool == pool]
        else:
            current: dict[str, int] = {}
            rows = []
            for sample in self.samples:
                current[sample.pool] = sample.points
                rows.append((sample.minute, sum(current.values())))
        collapsed: dict[Minute, int] = {}
        for minute, points in rows:
            collapsed[minute] = points
        return list(collapsed.items())

    @property
    def full_at(self) -> Minute | None:
        """The minute from which every pool stays full to the end; None if not full at the end."""
        if not self.final.full:
            return None
        lacking = {pool.label for pool in self.start.pools if pool.missing}
        since = 0
        for sample in self.samples:
            if sample.available < sample.maximum:
                lacking.add(sample.pool)
            elif sample.pool in lacking:
                lacking.discard(sample.pool)
                if not lacking:
                    since = sample.minute
        return since


def plan_day(
    state: ManaState,
    events: Iterable[PlanEvent],
    *,
    prior_rest_minutes: int = FULL_REST,
    end: Minute | None = None,
    clock: Callable[[Minute], str] = _minute,
) -> DayPlan:
    """Play ``events`` from ``state`` at minute 0 under 000 §5's recovery rules.

    ``prior_rest_minutes`` is the rest taken before the plan starts (it sets the rate of
    any study before the first :class:`Rest`). ``end`` extends the plan past its last event.
    Every minute is 0..:data:`PLAN_MINUTES` (a week), so the longest plan plays in well under a second.
    ``clock`` names a minute in the plan's errors and notes: ``"minute 1020"`` unless the caller
    writes it its own way (a planner that takes hours:minutes: ``"minute 1020 (17:00)"``).

    >>> from combatkit.mana.pools import Caster, mana_state
    >>> from combatkit.mana.tables import CasterClass
    >>> priest = mana_state(Caster(CasterClass.PRIEST, 5))
    >>> plan = plan_day(priest, [Cast(60, 3), Cast(90, 2), Study(120, 180)])
    >>> plan.series()
    [(0, 12), (60, 9), (90, 7), (130, 8), (140, 9), (150, 10), (160, 11), (170, 12), (180, 12)]
    """
    _check_rest(prior_rest_minutes)
    ordered = _validated(events, clock)
    last = max((_span(event)[1] for event in ordered), default=0)
    if end is not None:
        _check_minute(end, "the plan's end")
        if end < last:
            raise RulesError(_RULE, f"the plan's end, {clock(end)}, comes before its last event at {clock(last)}")
    player = _Player(state, prior_rest_minutes, clock)
    for event in ordered:
        if isinstance(event, Cast):
            player.cast(event)
        elif isinstance(event, Rest):
            player.rest(event)
        else:
            player.study(event)
    horizon = last if end is None else end
    for pool in player.state.pools:
        player.sample(horizon, pool, "end of plan")
    return DayPlan(
        state, player.state, horizon, tuple(player.samples), tuple(player.recoveries), tuple(player.notes)
    )


def _span(event: PlanEvent) -> tuple[Minute, Minute]:
    if isinstance(event, Cast):
        return event.minute, event.minute
    return event.start, event.end


def _validated(events: Iterable[PlanEvent], clock: Callable[[Minute], str]) -> list[PlanEvent]:
    events = list(events)
    for event in events:
        if not isinstance(event, Cast | Rest | Study):
            raise RulesError(_RULE, f"a plan holds Cast, Rest and Study events, got {event!r}")
    blocks = sorted((e for e in events if not isinstance(e, Cast)), key=lambda e: e.start)
    for before, after in zip(blocks, blocks[1:]):
        if after.start < before.end:
            raise RulesError(_RULE, f"{after!r} begins before {before!r} ends")
    for event in events:
        if isinstance(event, Cast):
            for block in blocks:
                if isinstance(block, Rest) and not block.awake_at(event.minute):
                    raise RulesError(_RULE, f"a spell cast at {clock(event.minute)} falls while asleep in {block!r}: "
                                     "give the rest an interruption for it")  # fmt: skip
                if isinstance(block, Study) and block.start < event.minute < block.end:
                    raise RulesError(_RULE, f"a spell cast at {clock(event.minute)} falls inside {block!r}: "
                                     "split the block around it")  # fmt: skip
    return sorted(events, key=_play_order)


def _play_order(event: PlanEvent) -> tuple[Minute, int]:
    """When an event takes effect: a rest when it ends (spells cast while it is interrupted come
    first), a cast at its minute, study from its start; at the same minute in that order."""
    if isinstance(event, Rest):
        return event.end, 0
    if isinstance(event, Cast):
        return event.minute, 1
    return event.start, 2


def _at(minute: Minute, error: RulesError, clock: Callable[[Minute], str]) -> RulesError:
    """``error`` as a plan raises it: its message after the minute it happened, named by ``clock``."""
    return RulesError(error.rule, f"{clock(minute)}: {error.message}")


def cast_refusal(
    state: ManaState, event: PlanEvent, *, clock: Callable[[Minute], str] | None = None
) -> RulesError | None:
    """Why the caster of ``state`` could not make ``event`` even with every pool full: the error
    :func:`~combatkit.mana.pools.cast` raises for it (a spell above the highest level the caster may
    cast, a pool it does not have). None for a cast it can make, and for a rest or study.

    With a ``clock`` the message begins with the cast's minute, as :func:`plan_day` raises it.

    >>> from combatkit.mana.pools import Caster, mana_state
    >>> from combatkit.mana.tables import CasterClass
    >>> priest = mana_state(Caster(CasterClass.PRIEST, 5))
    >>> print(cast_refusal(priest, Cast(1020, 9), clock=lambda minute: f"{minute // 60}:00"))  # doctest: +ELLIPSIS
    17:00: a 5th-level priest may not cast a 9th-level spell: ... allows up to 3rd (000 §5 Mana System I)
    >>> cast_refusal(priest.emptied(), Cast(60, 3)) is None  # the pools refill; the PH progression allows it
    True
    """
    if not isinstance(event, Cast):
        return None
    try:
        cast(state.filled(), event.spell_level, specialty=event.specialty, pool=event.pool)
    except RulesError as error:
        return error if clock is None else _at(event.minute, error, clock)
    return None


class _Player:
    """Plays a plan minute by minute through study; the state it holds is frozen values."""

    def __init__(self, state: ManaState, prior_rest_minutes: int, clock: Callable[[Minute], str]) -> None:
        self.state = state
        self.clock = clock
        self.samples: list[PoolSample] = []
        self.recoveries: list[Recovery] = []
        self.notes: list[PlanNote] = []
        self.rest_minutes = prior_rest_minutes
        self.broken = False
        self.interrupted = False
        self.last_study_end: Minute | None = None
        self.progress = 0  # half minutes of study toward the next point
        self.last_automatic: dict[str, Minute] = {}
        self.window: dict[str, deque[tuple[Minute, int]]] = {pool.label: deque() for pool in state.pools}
        self.regained: dict[str, int] = {pool.label: 0 for pool in state.pools}
        for pool in state.pools:
            self.sample(0, pool, "start")

    def sample(self, minute: Minute, pool: Pool, cause: str) -> None:
        self.samples.append(PoolSample(minute, pool.label, pool.available, pool.maximum, pool.points, cause))

    def note(self, minute: Minute, text: str, rule: str) -> None:
        self.notes.append(PlanNote(minute, text, rule))

    def allowance(self, pool: Pool, now: Minute, at: Minute) -> int:
        """Units ``pool`` may regain at minute ``at`` (``now`` or later) under the 24-hour Recovery
        Limit, counting only what it has regained up to ``now``."""
        window = self.window[pool.label]
        while window and window[0][0] <= now - DAY:
            self.regained[pool.label] -= window.popleft()[1]
        expiring = 0
        for minute, units in window:
            if minute > at - DAY:
                break
            expiring += units
        return pool.maximum - self.regained[pool.label] + expiring

    def grant(self, minute: Minute, pool: Pool, units: int, cause: str) -> None:
        self.state = self.state.with_available(pool.label, pool.available + units)
        self.window[pool.label].append((minute, units))
        self.regained[pool.label] += units
        self.recoveries.append(Recovery(minute, pool.label, units, cause))
        self.sample(minute, self.state.pool(pool.label), cause)

    def cast(self, event: Cast) -> None:
        try:
            self.state, spend = cast(self.state, event.spell_level, specialty=event.specialty, pool=event.pool)
        except RulesError as error:
            raise _at(event.minute, error, self.clock) from error
        assert spend.pool is not None, "cast() always draws from a pool; only an innate spell at will does not"
        self.sample(event.minute, self.state.pool(spend.pool), spend.cause)

    def rest(self, event: Rest) -> None:
        self.rest_minutes = event.sleep_minutes
        self.broken = self.interrupted = False
        self.last_study_end = None
        self.progress = 0
        if self.rest_minutes < MIN_REST:
            self.note(event.end, f"{duration_text(self.rest_minutes)} of sleep, under 4 hours: "
                      "no points can be regained until the next rest", _RULE)  # fmt: skip
            return
        for pool in self.state.pools:
            if not (pool.automatic and pool.missing):
                continue
            previous = self.last_automatic.get(pool.label)
            if previous is not None and event.end - previous < DAY:
                self.note(event.end, f"{pool.label}: bonus points already came back at {self.clock(previous)}; "
                          "they return once a day", _RULE_BONUS)  # fmt: skip
                continue
            units = min(pool.automatic, pool.missing, self.allowance(pool, event.end, event.end))
            if units:
                self.last_automatic[pool.label] = event.end
                self.grant(event.end, pool, units, f"back after {duration_text(self.rest_minutes)}' sleep "
                           f"({_RULE_BONUS})")  # fmt: skip
            else:
                self.note(event.end, f"{pool.label}: already regained its total in the last 24 hours", _RULE_LIMIT)

    def study(self, event: Study) -> None:
        order = self._order(event)
        already_over = self.broken
        if self.last_study_end is not None and event.start > self.last_study_end and not self.broken:
            gap = event.start - self.last_study_end
            if gap > MAX_INTERRUPTION or self.interrupted:
                self.broken = True
                why = f"a {gap}-minute break" if gap > MAX_INTERRUPTION else "a second break"
                self.note(event.start, f"the recovery session is over after {why}: "
                          "no more points until the next rest", _RULE_LIMIT)  # fmt: skip
            else:
                self.interrupted = True
        self.last_study_end = event.end
        if already_over:
            self.note(event.start, "study regains nothing: the session is over until the next rest", _RULE_LIMIT)
        if self.broken or not order:
            return
        rate = minutes_per_point(
            self.state.highest_spell_level, rate=self.state.options.recovery_rate, rest_minutes=self.rest_minutes
        )
        if rate is None:
            self.note(event.start, f"study after {duration_text(self.rest_minutes)} of sleep, "
                      "under 4 hours, regains nothing", _RULE)  # fmt: skip
            return
        capped = False
        cause = f"study at {rate} minutes per point ({_RULE})"
        for minute in range(event.start, event.end):
            target = None
            for index in order:
                pool = self.state.pools[index]
                done = minute + max(1, math.ceil(Fraction(_half_minutes(pool, rate) - self.progress, 2)))
                if pool.missing and self.allowance(pool, minute, done):
                    target = pool
                    break
                capped = capped or bool(pool.missing)
            if target is None:
                self.progress = 0
                continue
            self.progress += 2
            cost = _half_minutes(target, rate)
            if self.progress >= cost:
                self.progress -= cost
                self.grant(minute + 1, target, 1, cause)
        if capped:
            self.note(event.start, "study could not regain everything: a pool had already regained "
                      "its total in the last 24 hours", _RULE_LIMIT)  # fmt: skip

    def _order(self, event: Study) -> list[int]:
        index = {pool.label: i for i, pool in enumerate(self.state.pools)}
        if not event.order:
            return [i for i, pool in enumerate(self.state.pools) if pool.studied]
        chosen = []
        for label in event.order:
            pool = self.state.pool(label)
            if not pool.studied:
                raise RulesError(_RULE_BONUS, f"{label} come back after 4+ hours' sleep, not by study")
            chosen.append(index[label])
        return chosen
