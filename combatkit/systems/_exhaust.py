"""Exact odds by running a timing system's round once for every outcome of the dice that matter.

A system draws every chance outcome from the :class:`~combatkit.dice.Roller` it is given.
:meth:`TimingSystem.schedule <combatkit.systems.base.TimingSystem.schedule>` gives it one
that rolls (or takes the numbers the referee entered): one timeline.
:meth:`TimingSystem.odds <combatkit.systems.base.TimingSystem.odds>` gives it an
:class:`EnumeratingRoller` instead: whenever a run asks for an outcome nobody has decided
yet, :func:`exhaust` runs the round again once per possible outcome, each weighted by its
exact probability. The answers are ``Fraction`` s that come from the very code that draws
the timeline, so the odds and the timelines cannot disagree about a rule.

What a round tells its roller keeps the enumeration small and exact:

* :meth:`~combatkit.dice.Roller.roll` branches on every face of the dice (a round may read
  each die, as the Segment of Action's 2d6 of blows does);
* :meth:`~combatkit.dice.Roller.roll_total` branches on each total, and with ``classify``
  on each class of totals that lead to the same round (a to-hit d20 is a hit or a miss:
  two runs, not twenty); a class is run once, as its lowest total;
* :meth:`EnumeratingRoller.choose` branches on any outcome whose exact distribution the
  round works out itself (Phase System II: the pair of tracks two figures end up on).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Final, TypeVar

from combatkit.dice import Dice, Roll, Roller
from combatkit.encounter import Encounter
from combatkit.errors import RulesError
from combatkit.timeline import Span, SpanKind, Status, Timeline

__all__ = ["ACTS", "EnumeratingRoller", "check_matchup", "exhaust", "first_act", "matchup"]

T = TypeVar("T")
R = TypeVar("R")

ACTS: Final = frozenset({SpanKind.ATTACK, SpanKind.CAST})
"""Span kinds that count as *acting* in a matchup: a blow struck or a spell gone off."""


class _Undecided(Exception):
    """Raised by an :class:`EnumeratingRoller` for an outcome not yet decided; caught by :func:`exhaust`."""

    def __init__(self, key: Hashable, outcomes: Sequence[tuple[object, Fraction]]) -> None:
        super().__init__(key)
        self.key = key
        self.outcomes = outcomes


@dataclass
class EnumeratingRoller(Roller):
    """A Roller whose rolls branch: one run of the round per outcome, for :func:`exhaust`.

    ``decided`` holds the outcomes of this run, by purpose; an outcome not in it stops the
    run, which :func:`exhaust` then repeats once per possibility. Numbers entered at the table
    play no part: exact odds are over every roll.
    """

    decided: Mapping[Hashable, object] = field(default_factory=dict)

    def choose(self, purpose: Hashable, outcomes: Callable[[], Sequence[tuple[T, Fraction]]]) -> T:
        """The outcome decided for ``purpose``, or a branch over ``outcomes()``: (value, probability) pairs.

        An outcome that is certain (one class of totals: a hit and a miss lead to the same round)
        is no branch: the run goes on with it."""
        if purpose in self.decided:
            return self.decided[purpose]  # type: ignore[return-value]
        possible = tuple(outcomes())
        if len(possible) == 1:
            return possible[0][0]
        raise _Undecided(purpose, possible)

    def roll(self, dice: str | Dice, purpose: str) -> Roll:
        """Every face of every die is a branch (a round may read each die's face)."""
        spec = _parse(dice)
        chosen: tuple[int, ...] = self.decided[purpose] if purpose in self.decided else self.choose(
            purpose, lambda: _faces(spec))  # type: ignore[assignment]
        result = Roll(spec, purpose, sum(chosen) + spec.modifier, chosen, entered=False)
        self.log.append(result)
        return result

    def roll_total(self, dice: str | Dice, purpose: str, classify: Callable[[int], Hashable] | None = None) -> Roll:
        """Every total (every class of totals, with ``classify``) is a branch, run as its lowest total."""
        spec = _parse(dice)
        total: int = self.decided[purpose] if purpose in self.decided else self.choose(
            purpose, lambda: grouped_totals(spec, classify))  # type: ignore[assignment]
        faces = (total - spec.modifier,) if spec.count == 1 else None
        result = Roll(spec, purpose, total, faces, entered=False)
        self.log.append(result)
        return result


@lru_cache(maxsize=1024)
def grouped_totals(dice: Dice, classify: Callable[[int], Hashable] | None) -> tuple[tuple[int, Fraction], ...]:
    """Each total of ``dice`` with its chance, lowest first; totals of one class merge into the lowest.

    ``classify`` is a pure function of the total, so the answer is kept for the same function:
    a round that asks with one function per kind of roll (a to-hit d20 per number needed)
    has its totals grouped once, not once a run.

    >>> grouped_totals(Dice.parse("d12"), lambda t: t <= 4)
    ((1, Fraction(1, 3)), (5, Fraction(2, 3)))
    >>> grouped_totals(Dice.parse("d20"), lambda t: "a hit or a miss alike")
    ((1, Fraction(1, 1)),)
    """
    totals, ways, outcomes = _ways(dice)
    if classify is None:
        return tuple((total, Fraction(n, outcomes)) for total, n in zip(totals, ways))
    keys = list(map(classify, totals))
    if keys.count(keys[0]) == len(keys):  # one class: the total cannot change the round
        return ((totals[0], Fraction(1)),)
    groups: dict[Hashable, list[int]] = {}
    for total, n, key in zip(totals, ways, keys):
        if key in groups:
            groups[key][1] += n
        else:
            groups[key] = [total, n]
    return tuple((first, Fraction(n, outcomes)) for first, n in groups.values())


@lru_cache(maxsize=256)
def _parse(dice: str | Dice) -> Dice:
    """:meth:`Dice.parse`, once per notation: a round asks for the same few dice in every run."""
    return Dice.parse(dice)


@lru_cache(maxsize=256)
def _ways(dice: Dice) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Every total of ``dice``, lowest first, the number of ways to roll each, and the number of ways in all."""
    outcomes = dice.sides**dice.count
    distribution = dice.distribution()
    return tuple(distribution), tuple(int(chance * outcomes) for chance in distribution.values()), outcomes


MAX_FACE_BRANCHES: Final = 100_000
"""The most ways a roll's dice may fall for :meth:`EnumeratingRoller.roll` to branch on each (3d20: 8000)."""
KEPT_FACES: Final = 10_000
"""The most ways of a roll whose list of faces is kept for the next run (a kernel's memory stays bounded:
at most 64 such lists, about 1 MB each); bigger ones are listed again each time."""


def _faces(dice: Dice) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every face of every die of ``dice``, each with its chance; more than :data:`MAX_FACE_BRANCHES`
    ways are refused by name, before a single one is listed."""
    if dice.sides**dice.count > MAX_FACE_BRANCHES:
        raise RulesError("combatkit odds", f"{dice} falls {dice.sides}^{dice.count} ways, and exact odds branch on "
                                           f"every face of at most {MAX_FACE_BRANCHES:,} ways: give the roll "
                                           f"smaller dice, or simulate")
    return _kept_faces(dice) if dice.sides**dice.count <= KEPT_FACES else _listed_faces(dice)


def _listed_faces(dice: Dice) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    chance = Fraction(1, dice.sides**dice.count)
    return tuple((faces, chance) for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count))


_kept_faces = lru_cache(maxsize=64)(_listed_faces)


def exhaust(run: Callable[[EnumeratingRoller], R], limit: int, what: str = "this matchup") -> list[tuple[Fraction, R]]:
    """Every result of ``run`` with its exact probability.

    ``run(roller)`` plays the round once with an :class:`EnumeratingRoller`; a run that
    meets an undecided outcome is repeated once per outcome. More than ``limit`` runs raise
    a RulesError naming the limit and ``what`` is being enumerated.

    >>> sorted(exhaust(lambda roller: roller.roll_total("d6", "x", classify=lambda t: t >= 5).total, 10))
    [(Fraction(1, 3), 5), (Fraction(2, 3), 1)]
    >>> sorted(exhaust(lambda roller: roller.roll("2d2", "x").faces, 10))
    [(Fraction(1, 4), (1, 1)), (Fraction(1, 4), (1, 2)), (Fraction(1, 4), (2, 1)), (Fraction(1, 4), (2, 2))]
    """
    results: list[tuple[Fraction, R]] = []
    stack: list[tuple[dict[Hashable, object], Fraction]] = [({}, Fraction(1))]
    runs = 0
    while stack:
        decided, weight = stack.pop()
        runs += 1
        if runs > limit:
            raise RulesError("combatkit odds", f"{what} needs more than limit={limit} runs of the round to "
                                               f"enumerate; give a larger limit or simplify the matchup")
        try:
            results.append((weight, run(EnumeratingRoller(decided=decided))))
        except _Undecided as branch:
            for value, chance in reversed(branch.outcomes):
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
            casts = [s for s in spans if s.kind is SpanKind.CAST]
            if casts:
                key = f"{who} spell interrupted"
                result[key] = result.get(key, Fraction(0)) + (weight if casts[0].status is Status.RUINED else 0)
            done = sorted((s for s in spans if s.kind is SpanKind.ATTACK and s.status is Status.DONE), key=lambda s: s.end)
            for number, blow in enumerate(done, 1):
                key = f"{who} blow {number} @ {blow.end}"
                result[key] = result.get(key, Fraction(0)) + weight
    head = ["a first", "simultaneous", "b first", "neither", "a spell interrupted", "b spell interrupted"]
    blows = sorted((k for k in result if k not in head), key=lambda k: (k[0], *map(int, k[7:].split(" @ "))))
    return {k: result[k] for k in head + blows if k in result}
