"""Exact odds by running a timing system once for every outcome of the dice that matter.

A system that draws every chance outcome from a *fate* object can be run with a
Roller-backed fate (one timeline, as :meth:`schedule` does) or, here, exhaustively:
whenever a run asks for an outcome nobody has decided yet, it is re-run once per
possible outcome, each weighted by that outcome's exact probability. The answers
are ``Fraction`` s that come from the very code that draws the timeline, so the
odds and the timelines cannot disagree about a rule.

Used by :func:`combatkit.systems.phase2.odds` and :func:`combatkit.systems.segments.odds`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from combatkit.encounter import Encounter
from combatkit.errors import RulesError
from combatkit.timeline import Span, Status, Timeline

__all__ = ["ACTS", "Branches", "Undecided", "exhaust", "first_act", "matchup"]

T = TypeVar("T")
F = TypeVar("F")
R = TypeVar("R")

ACTS = frozenset({"attack", "cast"})
"""Span kinds that count as *acting* in a matchup: a blow struck or a spell gone off."""


class Undecided(Exception):
    """Raised by a :class:`Branches` fate for an outcome not yet decided; caught by :func:`exhaust`."""

    def __init__(self, key: Hashable, outcomes: Sequence[tuple[object, Fraction]]) -> None:
        super().__init__(key)
        self.key = key
        self.outcomes = outcomes


class Branches:
    """Base of an enumerating fate: the outcomes decided so far, and a way to ask for more."""

    def __init__(self, decided: Mapping[Hashable, object]) -> None:
        self.decided = decided

    def choose(self, key: Hashable, outcomes: Callable[[], Sequence[tuple[T, Fraction]]]) -> T:
        """The decided outcome for ``key``, or a branch over ``outcomes()`` (value, probability)."""
        if key in self.decided:
            return self.decided[key]  # type: ignore[return-value]
        raise Undecided(key, tuple(outcomes()))


def exhaust(run: Callable[[F], R], fate: Callable[[dict[Hashable, object]], F], limit: int = 100_000) -> list[tuple[Fraction, R]]:
    """Every result of ``run`` with its exact probability.

    ``fate(decided)`` builds the fate for one run; a run that meets an undecided
    outcome is repeated once per outcome. ``limit`` caps the number of runs.

    >>> class Coin(Branches):
    ...     def flip(self, n):
    ...         return self.choose(n, lambda: [("H", Fraction(1, 2)), ("T", Fraction(1, 2))])
    >>> sorted(exhaust(lambda f: f.flip(1) + f.flip(2), Coin))
    [(Fraction(1, 4), 'HH'), (Fraction(1, 4), 'HT'), (Fraction(1, 4), 'TH'), (Fraction(1, 4), 'TT')]
    """
    results: list[tuple[Fraction, R]] = []
    stack: list[tuple[dict[Hashable, object], Fraction]] = [({}, Fraction(1))]
    runs = 0
    while stack:
        decided, weight = stack.pop()
        runs += 1
        if runs > limit:
            raise RulesError("combatkit odds", f"more than {limit} outcomes to enumerate; simplify the matchup")
        try:
            results.append((weight, run(fate(decided))))
        except Undecided as branch:
            for value, chance in reversed(branch.outcomes):
                if chance:
                    stack.append(({**decided, branch.key: value}, weight * chance))
    return results


def check_matchup(encounter: Encounter, a: str, b: str) -> None:
    """What every system's exact odds require of a matchup: two different figures of the encounter;
    raises RulesError naming the one that is not there (and the ones that are)."""
    names = {c.name for c in encounter.combatants}
    for name in (a, b):
        if name not in names:
            raise RulesError("combatkit odds", f"{name!r} is not in the encounter; combatants: {sorted(names)}")
    if a == b:
        raise RulesError("combatkit odds", f"a matchup needs two different figures, got {a!r} twice")


def first_act(timeline: Timeline, actor: str) -> Span | None:
    """The actor's earliest blow or spell that happened (status done), or None."""
    acts = [s for s in timeline.for_actor(actor) if s.kind in ACTS and s.status is Status.DONE]
    return min(acts, key=lambda s: s.end, default=None)


def matchup(outcomes: Sequence[tuple[Fraction, Timeline]], a: str, b: str) -> dict[str, Fraction]:
    """Summarise weighted timelines of a matchup between ``a`` and ``b``.

    Keys: ``"a first"``, ``"simultaneous"``, ``"b first"``, ``"neither"`` (who is first to
    strike a blow or complete a spell; they sum to 1); ``"a spell interrupted"`` /
    ``"b spell interrupted"`` when that figure declared a spell (its first spell was
    ruined); and ``"a blow N @ T"`` / ``"b blow N @ T"``: the chance that the figure's
    N-th blow to land lands on tick T. The same function summarises a Monte Carlo sample
    (each timeline weighted 1/n), which is how the tests compare the two.
    """
    result = {"a first": Fraction(0), "simultaneous": Fraction(0), "b first": Fraction(0), "neither": Fraction(0)}
    for weight, timeline in outcomes:
        first_a, first_b = first_act(timeline, a), first_act(timeline, b)
        if first_a is None and first_b is None:
            key = "neither"
        elif first_b is None or (first_a is not None and first_a.end < first_b.end):
            key = "a first"
        elif first_a is None or first_b.end < first_a.end:
            key = "b first"
        else:
            key = "simultaneous"
        result[key] += weight
        for who, name in (("a", a), ("b", b)):
            spans = timeline.for_actor(name)
            casts = [s for s in spans if s.kind == "cast"]
            if casts:
                key = f"{who} spell interrupted"
                result[key] = result.get(key, Fraction(0)) + (weight if casts[0].status is Status.RUINED else 0)
            blows = sorted((s for s in spans if s.kind == "attack" and s.status is Status.DONE), key=lambda s: s.end)
            for number, blow in enumerate(blows, 1):
                key = f"{who} blow {number} @ {blow.end}"
                result[key] = result.get(key, Fraction(0)) + weight
    head = ["a first", "simultaneous", "b first", "neither", "a spell interrupted", "b spell interrupted"]
    blows = sorted((k for k in result if k not in head), key=lambda k: (k[0], *map(int, k[7:].split(" @ "))))
    return {k: result[k] for k in head + blows if k in result}
