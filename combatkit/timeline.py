"""What happens when, in long form: a clock, spans on it, and why each span is where it is.

Every timing system of the seeds answers the same question on a different clock:
20 half-segments in four phases (000 Phase System I), continuous A/B/C phases
(000 Phase System II), ten segments (003), five phases and last actions (001),
initiative counts (002), strike speed (004). A :class:`Clock` names the ticks and
groups them into periods; a :class:`Span` is one action from ``start`` to ``end``
ticks (inclusive) with the rule that put it there; a :class:`Timeline` is a clock,
the spans and the explanations.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, Final, TypeAlias

from combatkit.dice import Roll
from combatkit.intent import Plan
from combatkit.kinds import ActionKind

__all__ = ["SPAN_KIND", "UNDER_WAY", "Clock", "Period", "Span", "SpanKind", "Status", "Tick", "Timeline", "Track",
           "WhyRow"]

Tick: TypeAlias = int
"""A position on a system's clock, counted from 1. Ticks past the clock's end
fall in the next round (tick 23 on a 20-tick clock is the next round's tick 3)."""


class Track(enum.StrEnum):
    """Initiative track of 000 Table 1: winners act a half-segment ahead of losers."""

    WINNER = "winner"
    LOSER = "loser"


class SpanKind(enum.StrEnum):
    """What a span is: a declared action's kind (:class:`~combatkit.model.ActionKind`), or one of the
    spans a system places of its own accord.

    A ``StrEnum``: a kind is its own value in a long-form row, a chart or a file.
    """

    MOVE = "move"
    """A move, a charge, a flight or a withdrawal."""
    ATTACK = "attack"
    """A blow or a shot (one attack routine)."""
    CAST = "cast"
    """A spell (or psionic power) from its first casting unit to its release."""
    MISC = "misc"
    """A brief miscellaneous action: draw, ready components, re-string a bow, drink a potion."""
    READY = "ready"
    """A weapon set, or a defense readied, against a charge."""
    HOLD = "hold"
    """A completed spell held before release (000 §2 A Holding a Spell)."""
    OPPORTUNITY = "opportunity"
    """An attack the system grants outside the declarations: 002's attacks of opportunity, a free
    attack on a figure breaking off (001 Break & Run)."""
    SURPRISED = "surprised"
    """A surprised figure doing nothing (001 A, 002 I)."""
    MORALE = "morale"
    """A morale check the system calls for (001: charged by a giant creature)."""
    EFFECT = "effect"
    """Something in effect, or taking effect, after the action that caused it (000 §3 B: a spell's duration;
    001: a potion 2-5 phases after it is drunk)."""


SPAN_KIND: Final[dict[ActionKind, SpanKind]] = {kind: SpanKind(kind.value) for kind in ActionKind}
"""The span kind of each kind of declaration (looked up, not made from its value: a fight asks it of every span)."""


UNDER_WAY: Final = "under way"
"""A cast span's mark (:attr:`Span.marks`): the spell is still being cast at the end of the round, whose span ends
there, and goes off in the next round of the fight, which shows it again from its first tick to its release (Phase
System II: casting "continuing beyond the end of phase C [is] picked up in the next phase A", 000 §3, §3 B). The
resolver does not set it off; the spell is spent (it is being cast), and a hit on its caster in the round still
ruins it (000 §2 A)."""


class Status(enum.Enum):
    """How a span ended."""

    DONE = "done"
    """Happens as declared."""
    RUINED = "ruined"
    """Begun but spoilt, e.g. a spell whose caster was hit while casting."""
    CANCELLED = "cancelled"
    """Declared but never begun."""


@dataclass(frozen=True)
class Period:
    """A named stretch of ticks: a phase, a step of one, a count, last actions. Its label is made of its parts,
    which a chart reads apart (a band per phase, its steps named once, a count's number where its name has no room):
    ``Period("phase", 7, 12, number="2", step="movement")`` is ``"phase 2: movement"``."""

    name: str
    """What it is called, before any number: ``"phase"``, ``"count"``, ``"strike speed"``, ``"endphase"``,
    ``"last actions"``. The periods named ``"phase"`` are the clock's phases (:attr:`Clock.phases`)."""
    start: Tick
    """First tick, inclusive."""
    end: Tick
    """Last tick, inclusive."""
    number: str = ""
    """Which one of its name: ``"2"``, ``"A, cycle 1"``, ``"17"``; ``""`` for a period that is the only one so
    called."""
    step: str = ""
    """The step of a phase it is, where a phase has steps: ``"movement"``; ``""`` for none."""
    band: str = field(init=False, repr=False)
    """Its name and number, what the periods of one phase share: ``"phase 2"``, ``"last actions"``."""
    label: str = field(init=False, repr=False)
    """As a reader sees it: ``"phase 2"``, ``"phase 2: movement"``, ``"endphase"``; a span's :attr:`Span.period`."""

    def __init__(self, name: str, start: Tick, end: Tick, number: str = "", step: str = "") -> None:
        # Written out (tests/test_resolution.py holds it to the fields): a round's clock makes several (#18).
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "step", step)
        band = f"{name} {number}" if number else name
        object.__setattr__(self, "band", band)
        object.__setattr__(self, "label", f"{band}: {step}" if step else band)


@dataclass(frozen=True)
class Clock:
    """A system's time axis."""

    unit: str
    """What one tick is, in a word or two: ``"half-segment"``, ``"moment"``."""
    ticks: int
    """Ticks in one round (or cycle)."""
    periods: tuple[Period, ...]
    """The phases (or other groupings) marked on charts."""
    note: str = ""
    """What more there is to say of a tick, for an axis title: ``"3 seconds"`` (:attr:`unit_words`); ``""`` for
    nothing."""
    phases: tuple[tuple[Tick, Tick], ...] = field(init=False, repr=False, compare=False)
    """The first and last tick of each phase the clock marks: its periods named ``"phase"`` grouped by their
    band (a phase's steps are one phase), each with the periods that follow it up to the next phase; a clock
    with no phase periods, in thirds. Worked out as the clock is made (a round's walk reads it, #18)."""
    _period_at: dict[Tick, Period | None] = field(init=False, repr=False, compare=False)
    """:meth:`period_of` each tick of a round as it is asked (a round's walk asks of every blow, #18)."""

    def __init__(self, unit: str, ticks: int, periods: tuple[Period, ...], note: str = "") -> None:
        # Written out (tests/test_resolution.py holds it to the fields): what the clock answers again and again is
        # kept on it, in attributes of its own (a compiled class has no __dict__ for functools.cached_property).
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "ticks", ticks)
        object.__setattr__(self, "periods", periods)
        object.__setattr__(self, "note", note)
        object.__setattr__(self, "phases", _phases(ticks, periods))
        object.__setattr__(self, "_period_at", {})

    @property
    def unit_words(self) -> str:
        """The unit with its note, as an axis title says it: ``"half-segment (3 seconds)"``."""
        return f"{self.unit} ({self.note})" if self.note else self.unit

    def period_of(self, tick: Tick) -> Period | None:
        """The period holding ``tick`` in its own round, or None."""
        local = (tick - 1) % self.ticks + 1
        memo = self._period_at
        if local not in memo:
            memo[local] = next((p for p in self.periods if p.start <= local <= p.end), None)
        return memo[local]

    def describe(self, tick: Tick) -> str:
        """``"half-segment 9 (phase 2)"``, or ``"... of the next round"`` past the end."""
        rounds_on, local = divmod(tick - 1, self.ticks)
        local += 1
        period = self.period_of(tick)
        text = f"{self.unit} {local}" + (f" ({period.label})" if period else "")
        if rounds_on == 1:
            text += " of the next round"
        elif rounds_on > 1:
            text += f" of round +{rounds_on}"
        return text


def _phases(ticks: int, periods: tuple[Period, ...]) -> tuple[tuple[Tick, Tick], ...]:
    """:attr:`Clock.phases` of a clock of ``ticks`` marked with ``periods``."""
    if periods and periods[0].name == "phase":
        groups: dict[str, list[int]] = {}
        key = ""
        for p in periods:
            if p.name == "phase":
                key = p.band
            groups.setdefault(key, []).extend([p.start, p.end])
        return tuple((min(v), max(v)) for v in groups.values())
    return tuple(((k * ticks) // 3 + 1, ((k + 1) * ticks) // 3) for k in range(3))


@dataclass(frozen=True)
class Span:
    """One action placed on the clock: who, what, from when to when, and why."""

    actor: str
    """The combatant's name."""
    side: str
    """The combatant's side."""
    kind: SpanKind
    """What it is: a move, an attack, a cast... (a kind's value, ``"attack"``, is taken too)."""
    action: str
    """What a reader sees: ``"long sword -> Grishnak"``, ``"casting sleep"``."""
    start: Tick
    """First tick of the action, inclusive."""
    end: Tick
    """Tick the action lands (strike, release, arrival), inclusive."""
    period: str
    """Label of the period the action belongs to (``"phase 1"``)."""
    rule: str
    """The seed rule that placed it, cited: ``"000 Table 1: loser, SF 4-6"``."""
    why: str
    """The same in plain words for a new player."""
    track: Track | None = None
    """The initiative track it is on, where the system has tracks (a value, ``"winner"``, is taken too)."""
    target: str | None = None
    """Whom it is aimed at."""
    status: Status = Status.DONE
    """Done, ruined or cancelled."""
    placed: str = ""
    """How the intent behind it was placed in this system's terms, with its rule (:class:`~combatkit.intent.Placement`);
    ``""`` for a declaration given in the system's own terms, or a span the system places of its own accord."""
    marks: frozenset[str] = frozenset()
    """What the system's placing it says that resolution reads, beside the words: ``"rushed"``, an action taken
    one phase before it falls due (001 B: -4, :meth:`FivePhase.blow_terms
    <combatkit.systems.five_phase.FivePhase.blow_terms>`); :data:`UNDER_WAY`, a spell still being cast at the end
    of a round of a fight, which goes off in the next."""
    what: str = ""
    """What the action is, without its target or notes, where :attr:`action` says more: ``"casts web"`` for
    ``"casts web (CT 2) -> Ugluk"``, the words a chart writes where the whole action has no room. ``""``: the action
    says no more than what it is. Words that do not begin the action (a copy whose action was written anew, a
    charge's blow made of a move) are dropped: a short form never says what the action does not."""

    def __init__(self, actor: str, side: str, kind: SpanKind | str, action: str, start: Tick, end: Tick, period: str,
                 rule: str, why: str, track: Track | str | None = None, target: str | None = None,
                 status: Status = Status.DONE, placed: str = "", marks: frozenset[str] = frozenset(),
                 what: str = "") -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and every system makes thousands of spans a run (#18). A kind and a track
        # given as their text values are taken as them.
        try:
            kind = kind if type(kind) is SpanKind else SpanKind(kind)
            track = track if track is None or type(track) is Track else Track(track)
        except ValueError as error:
            raise ValueError(f"{actor}'s span {action!r}: {error}; kinds: "
                             f"{', '.join(SpanKind)}; tracks: {', '.join(Track)}") from None
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "period", period)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "track", track)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "placed", placed)
        object.__setattr__(self, "marks", marks)
        object.__setattr__(self, "what", what if action.startswith(what) else "")

    @property
    def short(self) -> str:
        """:attr:`what` the action is, or the whole action where it says no more."""
        return self.what or self.action

    def in_period(self, period: str) -> Span:
        """The same span in the period labelled ``period``: every field given (quicker than ``replace`` in the
        compiled build, #18; tests/test_timeline.py holds it to the fields)."""
        return Span(self.actor, self.side, self.kind, self.action, self.start, self.end, period, self.rule, self.why,
                    self.track, self.target, self.status, self.placed, self.marks, self.what)

    def row(self) -> dict[str, object]:
        """The span as one long-form row (plain types only)."""
        data = asdict(self)
        data["kind"] = self.kind.value
        data["track"] = None if self.track is None else self.track.value
        data["status"] = self.status.value
        data["marks"] = ", ".join(sorted(self.marks))
        return data


@dataclass(frozen=True)
class WhyRow:
    """One line of a timeline's explanation (:meth:`Timeline.why_rows`), in its parts: a view writes them its own
    way, :meth:`line` as :meth:`Timeline.why` does."""

    text: str
    """What happens and why, ``"Aldric long bow -> Grishnak. On the winner track..."``; a note whole."""
    when: str = ""
    """When it lands, in the clock's words (``"half-segment 4 (phase 1)"``); ``""`` for a note."""
    rule: str = ""
    """The rule that placed it, cited; ``""`` for a note (its words cite their own)."""
    span: Span | None = None
    """The span it explains; None for a note on the round or on how an intent was placed."""

    def line(self) -> str:
        """The row as one line: ``"half-segment 4 (phase 1): Aldric long bow -> Grishnak. ... [000 Table 1]"``, a
        note as it is."""
        return self.text if self.span is None else f"{self.when}: {self.text} [{self.rule}]"


@dataclass(frozen=True)
class Timeline:
    """A round (or stretch of rounds) on one clock, with its explanation."""

    system: str
    """Registry id of the timing system that made it."""
    clock: Clock
    """Its time axis."""
    spans: tuple[Span, ...]
    """Every action, sorted by landing tick then actor."""
    notes: tuple[str, ...] = ()
    """Round-level explanations: initiative, tracks, declaration order."""
    rolls: tuple[Roll, ...] = field(default=(), repr=False)
    """Every roll used, rolled or entered."""
    plan: Plan | None = field(default=None, repr=False, compare=False)
    """How the round's intents were placed (:meth:`TimingSystem.plan <combatkit.systems.base.TimingSystem.plan>`),
    when it had intents."""
    carry: Any = field(default=None, repr=False, compare=False)
    """What the round leaves the next one of a fight, for a system whose actions run on across rounds (Phase System
    II's attack sequences, delays and spells under way, 000 §3); the fight hands it to the next round
    (:attr:`FightRound.carried <combatkit.systems.base.FightRound.carried>`). None: nothing."""

    def __init__(self, system: str, clock: Clock, spans: tuple[Span, ...], notes: tuple[str, ...] = (),
                 rolls: tuple[Roll, ...] = (), plan: Plan | None = None, carry: Any = None) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): a round makes one or two (#18).
        object.__setattr__(self, "system", system)
        object.__setattr__(self, "clock", clock)
        object.__setattr__(self, "spans", spans)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "rolls", rolls)
        object.__setattr__(self, "plan", plan)
        object.__setattr__(self, "carry", carry)

    def resolved(self, spans: tuple[Span, ...], rolls: tuple[Roll, ...]) -> Timeline:
        """This timeline as a round's resolution leaves it: its spans as they ended, every roll made
        (``dataclasses.replace`` of those two, without its look at every field: once a round, #18)."""
        return Timeline(self.system, self.clock, spans, self.notes, rolls, self.plan, self.carry)

    def __iter__(self) -> Iterator[Span]:
        return iter(self.spans)

    def __len__(self) -> int:
        return len(self.spans)

    def rows(self) -> list[dict[str, object]]:
        """Long-form rows, one per span: what charts and frames are built from."""
        return [span.row() for span in self.spans]

    def for_actor(self, actor: str) -> tuple[Span, ...]:
        return tuple(s for s in self.spans if s.actor == actor)

    def landing_at(self, tick: Tick) -> tuple[Span, ...]:
        """Spans whose action lands on ``tick``: simultaneous with each other."""
        return tuple(s for s in self.spans if s.end == tick and s.status is not Status.CANCELLED)

    def acting_at(self, tick: Tick) -> tuple[Span, ...]:
        """Spans under way at ``tick``: begun at or before it and landing at or after it (a blow or an
        arrival on its own tick, a spell from its first casting unit to its release)."""
        return tuple(s for s in self.spans if s.start <= tick <= s.end)

    @property
    def moments(self) -> tuple[Tick, ...]:
        """The ticks at which some action begins or lands, in order: where a referee walking the table
        through the round stops."""
        return tuple(sorted({t for s in self.spans for t in (s.start, s.end)}))

    def why_row(self, span: Span) -> WhyRow:
        """The explanation of ``span`` in its parts: when it lands, who does what, why and who acts at the same
        moment, and the rule."""
        together = [s.actor for s in self.landing_at(span.end) if s is not span and s.actor != span.actor]
        also = f" Simultaneous with {', '.join(together)}." if together else ""
        return WhyRow(f"{span.actor} {span.action}. {span.why}{also}", self.clock.describe(span.end), span.rule, span)

    def why_line(self, span: Span) -> str:
        """The plain-language line for ``span`` (:meth:`why_row`; one line of :meth:`why`)."""
        return self.why_row(span).line()

    def why_rows(self) -> list[WhyRow]:
        """The explanation in time order, row by row: the notes, how each intent was placed, then one row per
        span (:meth:`why_row`)."""
        notes = [*self.notes, *(self.plan.why() if self.plan is not None else ())]
        return [*(WhyRow(note) for note in notes), *(self.why_row(span) for span in self.spans)]

    def why(self) -> list[str]:
        """Plain-language lines in time order: the notes, how each intent was placed, then one line per span."""
        return [row.line() for row in self.why_rows()]
