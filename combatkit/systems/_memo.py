"""A run's memo: what the fights of one Monte Carlo run work out once and then look up (#18).

A fight's ``cache`` (:func:`combatkit.fight.run_fight`) holds what its fights share: each round's policy and plan for
every round that looks the same to them, and, while the fight is played, the rounds a timing system placed
(:func:`remembering`): a scheduler whose round, once its dice are rolled, depends on nothing a round changes but what
its key holds looks up what it placed before (:func:`memo`, through :func:`combatkit.systems.base.placed_round`): Phase
System I once the tracks are known, Phase System II once the first cycle's are, the five-phase system once the sides are
ordered (when nothing else is rolled), Strike Speed once a side has initiative, the short form once every figure's count
is known (a d12 a side, or Dexterity in a surprise round; and the hits reported, which it reads and rolls nothing for),
and, on the fast path, once the order of the counts is (where no one casts) or the counts less the lowest are (a round
met before with its counts in the same order, or with both dice moved together, its counts relabelled:
:func:`combatkit.systems.short_form_fast._like`);
none of the others when a hit on a caster calls for more dice or reads its moment. The Segment of Action rolls through
its rounds (a die a figure) and is placed afresh each time. The short form and Strike Speed look up whether a round's
declarations passed their checks, which read no dice (:func:`combatkit.systems.base.checked_once`). The walk of a round
(:class:`combatkit.resolution.walk.Walk`) keeps a round's declarations sorted by figure (by the number that stands for
their value: :func:`stands_for`), and, on the fast path, the queue of actions of each placed round it is handed again
(the very spans the memo kept, with declarations of that value). The memo also says
whether the round is to be explained (:func:`explaining`). Outside a fight (a round scheduled on its own, exact odds)
there is no memo and every round is worked out afresh. Each table is emptied when it holds :data:`SIZE` entries
(:data:`TIMES_SIZE` as many for the short form's placed rounds), so a long run's memory stays bounded.

A key may name a figure by its name alone for what never changes in a run (its weapons, abilities, spells
known): the fights that share a cache are of one encounter, under one system and one set of options. A key holds
a round's intents, declarations and options by the number :func:`stands_for` gives them, found by identity: a
run's rounds mostly hold the very objects of the plans and policies it keeps.

What a figure fights with never changes in a run, so the hot paths read it from its :class:`Kit`, made once a run
(:func:`kit`), instead of asking the figure's Python value type each round.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final

from combatkit.model import Combatant, Weapon

__all__ = ["SIZE", "TIMES_SIZE", "Kit", "by_pair", "explaining", "kept", "kit", "memo", "numbered", "remembering",
           "running", "stands_for", "table"]

SIZE = 4096
"""Entries a table of the memo keeps before it starts afresh."""

TIMES_SIZE = {"short_form rounds": 4, "short_form shifted rounds": 2}
"""Tables that keep so many times :data:`SIZE` entries. The short form's placed rounds: its key holds every figure's
count (a d12 a side and each figure's Dexterity), and a run of encounter prep's length (2,000 four-vs-four fights)
meets some 9,000 rounds, half of them met before. Emptied at 4,096, the table found a quarter of its 17,500 rounds;
at 16,384 it finds 47% (the most there is), for 16-28 MiB more at the run's peak (compiled, pure Python; #18).
Its rounds kept by their counts less the lowest, those rescheduled for hits among them: emptied at 4,096, a run of
2,400 fights placed 6,795 rounds afresh, at 8,192 (or more) 5,235, the same peak. Since the rounds where no one casts
are kept by the order of their counts instead, the same run keeps 2,134 rounds there and 765 by order."""

_RUN: Final[ContextVar[dict | None]] = ContextVar("combatkit run memo", default=None)
_EXPLAIN: Final[ContextVar[bool]] = ContextVar("combatkit explaining", default=True)


@contextmanager
def remembering(cache: dict, explain: bool = True) -> Iterator[None]:
    """While the block runs (a fight), ``cache`` is the run's memo :func:`memo` finds, and :func:`explaining`
    says ``explain``."""
    token, told = _RUN.set(cache), _EXPLAIN.set(explain)
    try:
        yield
    finally:
        _EXPLAIN.reset(told)
        _RUN.reset(token)


def explaining() -> bool:
    """Whether the round being worked out is to be explained: False only in a fight played on its fast path
    (:func:`~combatkit.fight.run_fight` with ``explain=False``), where a scheduler may leave out the words it
    writes for its spans (``why``) and its notes; never what a span is or does (its ``action``, which
    resolution reads). #18: explanations are built only when they are asked for."""
    return _EXPLAIN.get()


def running() -> dict | None:
    """The run's memo (the fight's ``cache``), or None outside a fight."""
    return _RUN.get()


def memo(name: str) -> dict | None:
    """The table ``name`` of the run's memo (:func:`table`), or None outside a fight."""
    cache = _RUN.get()
    return None if cache is None else table(cache, name)


def table(cache: dict, name: str) -> dict:
    """The table ``name`` of ``cache``: a new one when there was none, or when it held :data:`SIZE` entries
    (:data:`TIMES_SIZE` as many for some)."""
    found = cache.get(name)
    # TIMES_SIZE is looked up only once a table holds SIZE entries: a table is asked for many times a round
    if found is None or (len(found) >= SIZE and len(found) >= SIZE * TIMES_SIZE.get(name, 1)):
        found = cache[name] = {}
    return found


_NUMBERS: Final = itertools.count()


def kept(table: dict, value: object) -> Any:
    """The entry ``table`` keeps for ``value`` under its identity (:func:`id`), or None. Such an entry holds the value
    itself as its first item, so that no other object takes its id while the entry lives: an entry whose first item
    is not ``value`` was kept for another object, freed since, whose id was given again."""
    found = table.get(id(value))
    return found if found is not None and found[0] is value else None


def stands_for(value: Hashable, items: bool = False, cache: dict | None = None) -> int:
    """A number that stands for ``value`` in the keys of the run's memo (the fight's, or ``cache``): equal values get
    the same number, different values never do. A key that held a round's intents, declarations or options hashed each
    of them field by field in Python, though a run's rounds mostly hold the very objects of the plans and policies it
    keeps, and the options it was given. So ``value`` is looked up by identity (with ``items``, by its own identity,
    then by the identity of each of its items: a tuple a round may build anew from kept objects), and by value only the
    first time it is met. The table keeps what it met, so that an identity it holds is never another object's. When a
    table starts afresh (:data:`SIZE`), a value met again may get a new number: a miss in the keys, never a wrong hit.
    Raises TypeError for a value that cannot be a key, as hashing it would."""
    cache = _RUN.get() if cache is None else cache
    assert cache is not None, "in a fight, or given a run's memo"
    met = table(cache, "met")
    found = met.get(id(value))  # the very value met before: a fight's rounds share their distances and declarations
    if found is not None:
        return found[1]
    identity: Hashable = tuple(map(id, value)) if items else id(value)  # type: ignore[call-overload]
    found = met.get(identity)
    if found is None:  # hashed once: a value met for the first time takes the next number
        found = met[identity] = (value, numbered(value, cache))
    if items:  # the tuple itself, met again as the rounds that hold it recur (in the table as it is now: SIZE),
        table(cache, "met")[id(value)] = (value, found[1])  # kept with it: the one met first may be another tuple
    return found[1]


def numbered(value: Hashable, cache: dict) -> int:
    """The number that stands for ``value`` in the keys of the run's memo ``cache``, found by value (hashed): equal
    values get the same number, different values never do (:func:`stands_for`, which finds a value by identity first,
    hashes it here the first time). For a small value a key would otherwise hold and hash whole each time it is
    looked up (a figure's state in a round: :class:`combatkit.systems.base.RoundKeys`)."""
    return table(cache, "numbers").setdefault(value, next(_NUMBERS))


def by_pair(distances: tuple[tuple[str, str, int], ...]) -> dict[frozenset[str], int]:
    """A round's distances (:attr:`~combatkit.encounter.Encounter.distances`) by pair of figures. In a fight it is
    made once a run for each layout of the figures the run meets (the fight's one tuple for it, found by identity)
    and shared by the rounds that meet it again: read it, or copy it to change it."""
    found = memo("distances by pair")
    known = kept(found, distances) if found is not None else None
    if known is not None:  # a fight's rounds share the layouts they meet again (#18)
        return known[1]
    pairs = {frozenset((a, b)): feet for a, b, feet in distances}
    if found is not None:
        found[id(distances)] = (distances, pairs)  # kept with it, so that its id is never another's
    return pairs


class Kit:
    """What a figure fights with, as the hot paths of a run read it (:func:`kit`): a weapon by name, the weapons
    a blow names (:meth:`~combatkit.model.Combatant.striking`) and its whole attacks in a round with each
    (:meth:`~combatkit.model.Combatant.attacks_in_round`), each worked out by the figure the first time it is
    asked and looked up after. The figure's own methods remain the rule; this only remembers their answers."""

    def __init__(self, c: Combatant) -> None:
        self.c = c
        self.rate = c.attack_rate(None)
        """Its attacks a round as whole numerator and denominator."""
        self._weapon: dict[str | None, Weapon] = {}
        self._striking: dict[tuple[str, ...], tuple[Weapon, ...]] = {}
        self._attacks: dict[tuple[int, int], tuple[Weapon | None, int]] = {}

    def weapon(self, name: str | None) -> Weapon:
        """:meth:`~combatkit.model.Combatant.weapon`."""
        found = self._weapon.get(name)
        if found is None:
            found = self._weapon[name] = self.c.weapon(name)
        return found

    def striking(self, names: tuple[str, ...] = ()) -> tuple[Weapon, ...]:
        """:meth:`~combatkit.model.Combatant.striking`."""
        found = self._striking.get(names)
        if found is None:
            found = self._striking[names] = self.c.striking(names)
        return found

    def attacks_in_round(self, round: int, weapon: Weapon | None = None) -> int:
        """:meth:`~combatkit.model.Combatant.attacks_in_round`, by the weapon's identity (kept with the answer,
        so that it is never another weapon's)."""
        key = (id(weapon), round)
        found = self._attacks.get(key)
        if found is None:
            found = self._attacks[key] = (weapon, self.c.attacks_in_round(round, weapon))
        return found[1]


def kit(c: Combatant) -> Kit:
    """The figure's :class:`Kit`: in a fight, made once a run by its name (its weapons and attacks per round never
    change in a run); outside one, anew."""
    found = memo("kits")
    if found is None:
        return Kit(c)
    made = found.get(c.name)
    if made is None:
        made = found[c.name] = Kit(c)
    return made
