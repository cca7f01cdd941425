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

The runs are summed up as a :class:`Matchup` (:func:`matchup`): who is first to act, with what
chance (an :class:`Order` each), a caster's spell interrupted, each blow's tick.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Hashable, ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Final, TypeVar

from combatkit.dice import Dice, Roll, Roller
from combatkit.encounter import Encounter
from combatkit.errors import RulesError
from combatkit.timeline import Span, SpanKind, Status, Tick, Timeline

__all__ = ["ACTS", "BlowChance", "EnumeratingRoller", "Matchup", "Order", "check_matchup", "exhaust", "first_act",
           "matchup", "order"]

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


class Order(enum.Enum):
    """Who of a matchup's two figures, ``a`` and ``b``, is first to strike a blow or complete a spell in a round
    (:func:`order`): one of four outcomes, each excluding the others. Its value is its key in a :class:`Matchup`
    read as a mapping."""

    A_FIRST = "a first"
    SIMULTANEOUS = "simultaneous"
    """Both at the same moment."""
    B_FIRST = "b first"
    NEITHER = "neither"
    """Neither lands a blow nor completes a spell."""


def order(timeline: Timeline, a: str, b: str) -> Order:
    """Who of ``a`` and ``b`` acts first in ``timeline``: the earlier :func:`first_act` of the two."""
    first_a, first_b = first_act(timeline, a), first_act(timeline, b)
    if first_a is None and first_b is None:
        return Order.NEITHER
    if first_b is None or (first_a is not None and first_a.end < first_b.end):
        return Order.A_FIRST
    if first_a is None or first_b.end < first_a.end:
        return Order.B_FIRST
    return Order.SIMULTANEOUS


@dataclass(frozen=True)
class BlowChance:
    """The chance that a figure's ``number``-th blow to land lands on ``tick`` (:attr:`Matchup.blows`)."""

    who: str
    """``"a"`` or ``"b"``: which figure of the matchup strikes it."""
    number: int
    """1 for its first blow to land, 2 for its second..."""
    tick: Tick
    """The tick it lands on."""
    chance: Fraction
    """Its chance."""

    @property
    def key(self) -> str:
        """Its key in a :class:`Matchup` read as a mapping: ``"a blow 1 @ 4"``."""
        return f"{self.who} blow {self.number} @ {self.tick}"


@dataclass(frozen=True)
class Matchup:
    """The chances of a matchup of ``a`` against ``b`` (:func:`matchup`), field by field: who acts first
    (:meth:`chance` of each :class:`Order`; they sum to 1), a caster's spell interrupted, each blow's tick.

    It reads as a mapping too (a :class:`~collections.abc.Mapping`), by the keys
    :meth:`TimingSystem.odds <combatkit.systems.base.TimingSystem.odds>` has always given (``odds["a first"]``,
    ``odds["a blow 1 @ 4"]``), made from the fields.

    >>> m = Matchup(Fraction(1, 2), Fraction(0), Fraction(1, 2), Fraction(0), blows=(BlowChance("a", 1, 4, Fraction(1, 2)),))
    >>> m.chance(Order.A_FIRST), m["a first"], list(m)[-1]
    (Fraction(1, 2), Fraction(1, 2), 'a blow 1 @ 4')
    """

    a_first: Fraction
    """The chance that ``a`` acts first."""
    simultaneous: Fraction
    """The chance that both act at the same moment."""
    b_first: Fraction
    """The chance that ``b`` acts first."""
    neither: Fraction
    """The chance that neither acts."""
    a_spell_interrupted: Fraction | None = None
    """The chance that ``a``'s first spell is ruined; None when it declares none."""
    b_spell_interrupted: Fraction | None = None
    """The same of ``b``'s."""
    blows: tuple[BlowChance, ...] = ()
    """Each figure's blows that land, by figure, number and tick, with their chances."""
    _keyed: dict[str, Fraction] = field(init=False, repr=False, compare=False)
    """The mapping's keys and chances, made from the fields."""

    def __post_init__(self) -> None:
        keyed = {o.value: self.chance(o) for o in Order}
        for who in ("a", "b"):
            chance = self.spell_interrupted(who)
            if chance is not None:
                keyed[f"{who} spell interrupted"] = chance
        for blow in self.blows:
            keyed[blow.key] = blow.chance
        object.__setattr__(self, "_keyed", keyed)

    def chance(self, outcome: Order) -> Fraction:
        """The chance of ``outcome``."""
        if outcome is Order.A_FIRST:
            return self.a_first
        if outcome is Order.SIMULTANEOUS:
            return self.simultaneous
        return self.b_first if outcome is Order.B_FIRST else self.neither

    def spell_interrupted(self, who: str) -> Fraction | None:
        """:attr:`a_spell_interrupted` for ``"a"``, :attr:`b_spell_interrupted` for ``"b"``."""
        return self.a_spell_interrupted if who == "a" else self.b_spell_interrupted

    # The mapping, written out: a compiled class cannot subclass Mapping (it is registered as one below).
    def __getitem__(self, key: str) -> Fraction:
        return self._keyed[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keyed)

    def __len__(self) -> int:
        return len(self._keyed)

    def __contains__(self, key: object) -> bool:
        return key in self._keyed

    def keys(self) -> KeysView[str]:
        return self._keyed.keys()

    def items(self) -> ItemsView[str, Fraction]:
        return self._keyed.items()

    def values(self) -> ValuesView[Fraction]:
        return self._keyed.values()

    def get(self, key: str, default: Fraction | None = None) -> Fraction | None:
        return self._keyed.get(key, default)


Mapping.register(Matchup)


def matchup(outcomes: Sequence[tuple[Fraction, Timeline]], a: str, b: str) -> Matchup:
    """Summarise weighted timelines of a matchup between ``a`` and ``b``: who is first to strike a blow or complete
    a spell (:func:`order`), each figure's first spell ruined when it declares one, and the chance that its N-th
    blow to land lands on tick T. The same function summarises a Monte Carlo sample (each timeline weighted 1/n),
    which is how the tests compare the two.
    """
    first = dict.fromkeys(Order, Fraction(0))
    interrupted: dict[str, Fraction] = {}
    blows: dict[tuple[str, int, Tick], Fraction] = {}
    for weight, timeline in outcomes:
        first[order(timeline, a, b)] += weight
        for who, name in (("a", a), ("b", b)):
            spans = timeline.for_actor(name)
            casts = [s for s in spans if s.kind is SpanKind.CAST]
            if casts:
                interrupted[who] = interrupted.get(who, Fraction(0)) + (weight if casts[0].status is Status.RUINED else 0)
            done = sorted((s for s in spans if s.kind is SpanKind.ATTACK and s.status is Status.DONE), key=lambda s: s.end)
            for number, blow in enumerate(done, 1):
                key = (who, number, blow.end)
                blows[key] = blows.get(key, Fraction(0)) + weight
    return Matchup(first[Order.A_FIRST], first[Order.SIMULTANEOUS], first[Order.B_FIRST], first[Order.NEITHER],
                   interrupted.get("a"), interrupted.get("b"),
                   tuple(BlowChance(who, number, tick, chance) for (who, number, tick), chance in sorted(blows.items())))
