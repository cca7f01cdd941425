"""Where two timing systems differ on one encounter, and why two coincide.

Each system counts time on its own clock (half-segments, segments, phases and steps, initiative
counts, strike speeds), so two rounds are compared by their order: the acts of the round (each
blow, shot, spell, move and other action that happened or was ruined) grouped by the moment they
land, from first to last (:func:`acts`). Two systems *coincide* on an encounter when that order
is the same; otherwise :func:`first_difference` names the first moment where they part.

Phase Systems I and II share every rule but the clock (000 §3: "most of the rules for Phase
system I apply to system II"), so on a round where every figure has one attack and every spell
goes off within one phase they time it alike: :func:`why_alike` says so, naming what would make
them differ.

>>> from combatkit import find_system, load_example
>>> encounter = load_example("orc-closes-on-longbowman")
>>> one, two = (find_system(s).schedule(encounter) for s in ("phase1", "phase2"))
>>> first_difference(one, two) is None
True
>>> why_alike(encounter, "phase1", "phase2")
"Aldric has more than one attack a round, yet this round's acts fall where Phase System I puts them: Phase System II keeps its rules and changes only the clock (000 §3)"
>>> why_alike(load_example("segments-fighters-vs-giant-and-orcs"), "phase1", "phase2")[:70]
'every figure has one attack a round and every spell goes off within a '
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from combatkit.encounter import Encounter
from combatkit.model import ONE_ROUND
from combatkit.timeline import Span, SpanKind, Status, Timeline

__all__ = ["Act", "Difference", "acts", "first_difference", "groups_alike", "why_alike"]

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
