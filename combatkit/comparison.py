"""One encounter under every timing system: each system's round, where two differ and why two coincide, in words.

:func:`run_systems` schedules an encounter under every registered system (:func:`systems_in_seed_order`) with
the same seed and the same dice entered at the table; a system that cannot run it gives the engine's
message instead (a :class:`SystemRun` each).

Each system counts time on its own clock (half-segments, segments, phases and steps, initiative
counts, strike speeds), so two rounds are compared by their order: the acts of the round (each
blow, shot, spell, move and other action that happened or was ruined) grouped by the moment they
land, from first to last (:func:`acts`). Two systems *coincide* on an encounter when that order
is the same; otherwise :func:`first_difference` names the first moment where they part.

Phase Systems I and II share every rule but the clock (000 §3: "most of the rules for Phase
system I apply to system II"), so on a round where every figure has one attack and every spell
goes off within one phase they time it alike: :func:`why_alike` says so, naming what would make
them differ.

For a matchup of two figures (:func:`default_matchup`), what differs between the systems is said in
words derived from the rounds' typed fields: who acts first with these dice under which systems, and when
each figure's first blow or spell lands on each clock (:func:`matchup_sentences`); where the rounds
coincide and part (:func:`parting_sentences`); and what the exact odds say over every roll
(:func:`odds_sentences`, from :func:`combatkit.odds.matchup_odds`).

>>> from combatkit import find_system, load_example
>>> encounter = load_example("orc-closes-on-longbowman")
>>> one, two = (find_system(s).schedule(encounter) for s in ("phase1", "phase2"))
>>> first_difference(one, two) is None
True
>>> why_alike(encounter, "phase1", "phase2")
"Aldric has more than one attack a round, yet this round's acts fall where Phase System I puts them: Phase System II keeps its rules and changes only the clock (000 §3)"
>>> why_alike(load_example("segments-fighters-vs-giant-and-orcs"), "phase1", "phase2")[:70]
'every figure has one attack a round and every spell goes off within a '
>>> runs = run_systems(encounter, seed=1)
>>> default_matchup(encounter), matchup_sentences(runs, encounter, "Aldric", "Grishnak")[0][:44]
(('Aldric', 'Grishnak'), 'With these dice, Aldric acts first under Com')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from combatkit.encounter import Encounter
from combatkit.errors import RulesError, error_words
from combatkit.model import ONE_ROUND
from combatkit.odds import ACTS, Matchup, Order, first_act, order
from combatkit.systems import SYSTEMS, TimingSystem
from combatkit.systems.base import TableRoller
from combatkit.timeline import Span, SpanKind, Status, Timeline

__all__ = ["Act", "Difference", "SystemRun", "acts", "check_figure", "default_matchup", "first_difference",
           "groups_alike", "matchup_sentences", "odds_sentences", "parting_sentences", "percent", "run_systems",
           "systems_in_seed_order", "why_alike"]

_SHOWN: Final = {SpanKind.MOVE, SpanKind.ATTACK, SpanKind.CAST, SpanKind.MISC, SpanKind.READY, SpanKind.OPPORTUNITY}
_VERBS: Final = {SpanKind.MOVE: "moves", SpanKind.ATTACK: "strikes", SpanKind.CAST: "casts", SpanKind.MISC: "acts",
          SpanKind.READY: "stands ready", SpanKind.OPPORTUNITY: "strikes"}


@dataclass(frozen=True, order=True)
class Act:
    """One act of a round, as the comparison sees it: who, what kind, at whom, and whether it came off."""

    actor: str
    """Who."""
    kind: str
    """The span's kind (move, attack, cast...)."""
    target: str
    """At whom (``""`` for no one)."""
    done: bool
    """It happened (False: ruined, or cancelled when its figure fell)."""

    def words(self) -> str:
        verb = _VERBS.get(SpanKind(self.kind), self.kind)
        at = {"moves": " toward ", "strikes": " ", "casts": " at ", "stands ready": " against "}.get(verb, " at ")
        text = f"{self.actor} {verb}" + (f"{at}{self.target}" if self.target else "")
        return text if self.done else f"{text} (ruined)"


def acts(timeline: Timeline) -> tuple[frozenset[Act], ...]:
    """The round's acts grouped by the moment they land, first to last (acts landing together are one group)."""
    moments: dict[int, set[Act]] = {}
    for span in timeline.spans:
        if span.kind not in _SHOWN or span.status is Status.CANCELLED and span.kind is not SpanKind.CAST:
            continue
        moments.setdefault(span.end, set()).add(_act(span))
    return tuple(frozenset(moments[t]) for t in sorted(moments))


def _act(span: Span) -> Act:
    return Act(span.actor, span.kind.value, span.target or "", span.status is Status.DONE)


@dataclass(frozen=True)
class Difference:
    """The first moment two systems' rounds part."""

    moment: int
    """Which group of acts, from 1."""
    first: frozenset[Act]
    """What lands at that moment under the first system (empty: its round is over)."""
    second: frozenset[Act]
    """The same under the second."""

    def words(self, first: str, second: str) -> str:
        """``"At the 2nd moment, under Phase System I: Aldric strikes Grishnak; under Segment of Action: ..."``."""

        def said(group: frozenset[Act]) -> str:
            return " and ".join(a.words() for a in sorted(group)) if group else "nothing more happens"

        return f"At the {_ordinal(self.moment)} moment, under {first}: {said(self.first)}; under {second}: " \
               f"{said(self.second)}."


def first_difference(a: Timeline, b: Timeline) -> Difference | None:
    """The first moment where ``a`` and ``b`` order the round differently, or None when they coincide."""
    left, right = acts(a), acts(b)
    for i in range(max(len(left), len(right))):
        x = left[i] if i < len(left) else frozenset()
        y = right[i] if i < len(right) else frozenset()
        if x != y:
            return Difference(i + 1, x, y)
    return None


def groups_alike(timelines: Mapping[str, Timeline]) -> list[list[str]]:
    """The systems (by id, in the order given) whose rounds coincide, in groups of two or more."""
    seen: dict[tuple[frozenset[Act], ...], list[str]] = {}
    for sid, timeline in timelines.items():
        seen.setdefault(acts(timeline), []).append(sid)
    return [group for group in seen.values() if len(group) > 1]


def why_alike(encounter: Encounter, a: str, b: str) -> str:
    """Why systems ``a`` and ``b`` (ids) time ``encounter`` alike, in words: for Phase Systems I and II, the
    features of the round that would make them differ and that it lacks; for any other two, that their
    rules happen to put its acts in the same order."""
    if {a, b} == {"phase1", "phase2"}:
        many = [c.name for c in encounter.combatants if _attacks(c, encounter.round) > 1]
        long = [f"{c.name}'s {s.name}" for c in encounter.combatants for s in c.spells
                if s.casting_time == ONE_ROUND or int(s.casting_time) > 3]
        if not many and not long:
            return ("every figure has one attack a round and every spell goes off within a phase (CT 3 or less), so "
                    "Phase System II's continuous A/B/C phases place each act where Phase System I does (000 §3: "
                    "most of the rules for Phase System I apply to System II)")
        what = "; ".join(filter(None, [
            f"{_names(many)} {'has' if len(many) == 1 else 'have'} more than one attack a round" if many else "",
            f"{_names(long)} {'takes' if len(long) == 1 else 'take'} more than one phase to cast" if long else ""]))
        return (f"{what}, yet this round's acts fall where Phase System I puts them: Phase System II keeps its rules "
                f"and changes only the clock (000 §3)")
    return "their rules happen to put this round's acts in the same order"


def _attacks(c, round_number: int) -> int:
    weapons = c.weapons or (None,)
    return max(c.attacks_in_round(round_number, w) for w in weapons)


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# ----------------------------------------------------------------- every system's round


def systems_in_seed_order() -> list[TimingSystem]:
    """Every registered system, in the order of the seeds they come from (000 §1-2, 000 §3, 001, ...)."""
    return sorted(SYSTEMS.values(), key=lambda s: s.source)


@dataclass(frozen=True)
class SystemRun:
    """One system's round of the encounter, or why it has none."""

    system: TimingSystem
    """The timing system."""
    timeline: Timeline | None
    """Its round, or None when it could not run the encounter."""
    error: str = ""
    """The engine's message when it could not (the rule and the value: :func:`~combatkit.errors.error_words`), else
    ``""``."""


def run_systems(encounter: Encounter, seed: int,
                by_dice: Mapping[tuple[str, str], int | tuple[int, ...]] | None = None,
                left: Mapping[str, int | tuple[int, ...]] | None = None,
                systems: Sequence[TimingSystem] | None = None) -> dict[str, SystemRun]:
    """Schedule ``encounter`` under every system (seed order), each with a fresh roller on ``seed``.

    ``by_dice`` are numbers entered for a purpose and its dice (shared by every system);
    ``left`` are the file's rolls that only the system the encounter was written for takes
    (see :func:`~combatkit.systems.base.file_entries`).
    """
    runs = {}
    for system in systems or systems_in_seed_order():
        own = left if (left and system.id == encounter.system) else {}
        roller = TableRoller(seed=seed, entered=dict(own), by_dice=dict(by_dice or {}))
        try:
            runs[system.id] = SystemRun(system, system.schedule(encounter, roller))
        except ValueError as error:
            runs[system.id] = SystemRun(system, None, error_words(error))
    return runs


def default_matchup(encounter: Encounter) -> tuple[str, str]:
    """The first intent (or declaration) aimed at a figure of another side gives the matchup (actor, target);
    without one, the first figures of the first two sides (or the first two figures)."""
    side = {c.name: c.side for c in encounter.combatants}
    aims = [(d.actor, d.target) for d in encounter.declarations] + [(i.actor, i.target) for i in encounter.intents]
    for actor, target in aims:
        if target is not None and side.get(target) not in (None, side.get(actor)):
            return actor, target
    names = [c.name for c in encounter.combatants]
    others = [c.name for c in encounter.combatants if c.side != encounter.combatants[0].side]
    second = others[0] if others else (names[1] if len(names) > 1 else names[0])
    return names[0], second


def check_figure(encounter: Encounter, name: str) -> None:
    """Raise RulesError when ``name`` is not a figure of ``encounter`` (a matchup names two of them), naming the
    ones that are."""
    names = [c.name for c in encounter.combatants]
    if name not in names:
        raise RulesError("a matchup names two of the encounter's combatants",
                         f"{name!r} is not in \"{encounter.title}\": its combatants are {_names(names)}")


# ----------------------------------------------------------------- in words


def _dice_words(timeline: Timeline, encounter: Encounter, names: Sequence[str]) -> str:
    sides = {c.side for c in encounter.combatants if c.name in names}
    mine = [r for r in timeline.rolls if r.subject in {*names, *sides}]
    if not mine:
        return "No die is rolled for them: the rules alone fix these moments."
    shown = [f"{r.purpose} {r.dice} = {r.total} ({'entered' if r.entered else 'rolled'})" for r in mine]
    return f"Dice rolled for them: {'; '.join(shown)}."


def _act_words(timeline: Timeline, name: str) -> str:
    act = first_act(timeline, name)
    clock = timeline.clock
    if act is None:
        lost = next((s for s in timeline.for_actor(name) if s.kind in ACTS), None)
        if lost is None:
            return f"{name} declares no blow and no spell"
        return (f"{name} lands no blow and completes no spell: {lost.action} is {lost.status.value} "
                f"({lost.why.rstrip('.')})")
    what, verb = ("spell", "goes off") if act.kind is SpanKind.CAST else ("blow", "lands")
    together = [s for s in timeline.landing_at(act.end) if s.actor != name and s.status is Status.DONE]
    text = f"{name}'s first {what} ({act.action}) {verb} in {clock.describe(act.end)}"
    if together:
        text += ", simultaneous with " + ", ".join(f"{s.actor} ({s.action})" for s in together)
    ruined = [s for s in timeline.for_actor(name) if s.kind is SpanKind.CAST and s.status is Status.RUINED]
    return text + "".join(f"; {s.action} is ruined in {clock.describe(s.end)}" for s in ruined)


_ORDER_WORDS: Final = {Order.A_FIRST: "{a} acts first", Order.B_FIRST: "{b} acts first",
                       Order.SIMULTANEOUS: "they act at the same moment", Order.NEITHER: "neither acts"}


def _system_sentence(run: SystemRun, encounter: Encounter, a: str, b: str) -> str:
    title = run.system.short_title
    if run.timeline is None:
        return f"{title} cannot run this encounter: {run.error}"
    first = _ORDER_WORDS[order(run.timeline, a, b)].format(a=a, b=b)
    return (f"Under {title}, counting in {run.timeline.clock.unit}s: {first}. {_act_words(run.timeline, a)}. "
            f"{_act_words(run.timeline, b)}. {_dice_words(run.timeline, encounter, (a, b))}")


def matchup_sentences(runs: Mapping[str, SystemRun], encounter: Encounter, a: str, b: str) -> list[str]:
    """What differs between the systems for ``a`` against ``b``, in words, from the timelines:
    first who acts first under which systems (with these dice), then one sentence per system
    saying when each figure's first blow or spell lands on its clock, what lands with it,
    which spell is ruined, and which dice decided it; a system that cannot run the encounter
    says why."""
    groups: dict[Order, list[str]] = {}
    cannot: list[str] = []
    for run in runs.values():
        if run.timeline is None:
            cannot.append(run.system.short_title)
        else:
            groups.setdefault(order(run.timeline, a, b), []).append(run.system.short_title)
    clauses = []
    for key, phrase in ((Order.A_FIRST, f"{a} acts first under "), (Order.B_FIRST, f"{b} acts first under "),
                        (Order.SIMULTANEOUS, f"{a} and {b} act at the same moment under "),
                        (Order.NEITHER, f"neither {a} nor {b} lands a blow or completes a spell under ")):
        if key in groups:
            clauses.append(phrase + _names(groups[key]))
    summary = f"With these dice, {'; '.join(clauses)}." if clauses else ""
    if cannot:
        summary += (f" {_names(cannot)} cannot run this encounter as written (see "
                    f"{'its panel' if len(cannot) == 1 else 'their panels'}).")
    return [summary.strip(), *(_system_sentence(run, encounter, a, b) for run in runs.values())]


def parting_sentences(runs: Mapping[str, SystemRun], encounter: Encounter) -> tuple[list[str], list[tuple[str, str]]]:
    """Where the systems' rounds coincide and where they part: a sentence per group of systems that order this
    round's acts alike (:func:`groups_alike`), with why (:func:`why_alike`), and for each pair that differ the
    first moment they part (:func:`first_difference`), as ``(pair, words)``."""
    timelines = {sid: run.timeline for sid, run in runs.items() if run.timeline is not None}
    titles = {sid: run.system.short_title for sid, run in runs.items()}
    alike = []
    for group in groups_alike(timelines):
        names = _names([titles[sid] for sid in group])
        reason = why_alike(encounter, group[0], group[1]) if len(group) == 2 else \
            "their rules happen to put this round's acts in the same order"
        alike.append(f"{names} time this round alike: {reason}.")
    apart = []
    ids = list(timelines)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            difference = first_difference(timelines[a], timelines[b])
            if difference is not None:
                apart.append((f"{titles[a]} / {titles[b]}", difference.words(titles[a], titles[b])))
    return alike, apart


def percent(p: Fraction) -> str:
    """A chance as a percentage with one decimal: ``Fraction(1, 3)`` as ``"33.3%"``."""
    return f"{float(p) * 100:.1f}%"


def odds_sentences(odds: Mapping[str, Matchup], titles: Mapping[str, str], a: str, b: str) -> list[str]:
    """What the exact odds say across systems (over every roll, not just these dice): the range of
    the chance that ``a`` acts first, where a tie can happen, and the chance a spell is interrupted.
    ``odds`` and ``titles`` are by system id."""
    if not odds:
        return []

    def spread(chance: Callable[[Matchup], Fraction | None], what: str) -> str | None:
        values = {sid: p for sid, chances in odds.items() if (p := chance(chances)) is not None}
        if not values:
            return None
        low, high = min(values.values()), max(values.values())
        at = {p: _names([titles[s] for s, v in values.items() if v == p]) for p in (low, high)}
        if low == high:
            return f"{what} is {percent(low)} under every system that rates this matchup ({at[low]})."
        return f"{what} runs from {percent(low)} under {at[low]} to {percent(high)} under {at[high]}."

    lines = [spread(lambda chances: chances.a_first, f"Over every roll (exact odds), the chance that {a} acts first")]
    ties = {sid: chances.simultaneous for sid, chances in odds.items() if chances.simultaneous}
    if ties:
        lines.append(f"{a} and {b} can act at the same moment only under "
                     + _names([f"{titles[s]} ({percent(p)})" for s, p in ties.items()]) + ".")
    else:
        lines.append(f"No system lets {a} and {b} act at the same moment.")
    for who, name in (("a", a), ("b", b)):
        lines.append(spread(lambda chances: chances.spell_interrupted(who),  # called at once, with this who
                            f"The chance that {name}'s spell is interrupted"))
    return [line for line in lines if line]
