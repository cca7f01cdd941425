"""The short form's fast path (#18): speed only. Every rule of 002 is in :mod:`combatkit.systems.short_form`; this
module keeps the rounds a fight's run has placed and finds a round met again among them, and where it rolls a round's
dice before setting the round up, it calls the very functions the round calls: who is surprised
(:func:`~combatkit.systems.short_form._surprised`) and each figure's count
(:func:`~combatkit.systems.short_form._counts`). The golden digests (``tests/test_fight_digest.py``) hold the fights
played through it to the fights recorded, and ``tests/test_short_form.py`` each round it finds to the round placed
afresh.

A round, in a fight (:func:`schedule`; outside one, every round is placed afresh):

1. On the fast path, a round like one that passed its checks before is looked up before it is set up
   (:func:`_looked_up`): its dice rolled, its counts worked out, the round kept for them found.
2. Any other is set up and counted (:meth:`~combatkit.systems.short_form._Round.count`), then found by its counts
   the same way (:func:`_kept`).
3. A round not found is placed (:meth:`~combatkit.systems.short_form._Round.place`) and kept: by its counts, and on
   the fast path by their order or by the counts less the lowest too (:func:`_like`), so that a round met again with
   its dice moved is the one kept, relabelled (:func:`_moved`).

How it is wired: :meth:`ShortForm._schedule <combatkit.systems.short_form.ShortForm._schedule>` places a round
through the fast path registered with :func:`~combatkit.systems.short_form.fast_path`, and this module registers
:func:`schedule` when it is imported (``combatkit.systems`` imports it, after the short form). The imports run one
way, from the shortcut to the rules: the short form imports nothing of this module, and without it places every
round itself.
"""

from __future__ import annotations

from typing import Final

from combatkit.dice import Roller
from combatkit.encounter import Encounter
from combatkit.model import Declaration
from combatkit.systems.base import PlacedRound, RoundKeys, checked_before, placed_round, round_keys, sides_of
from combatkit.systems.rules import AFTER_THE_COUNTS, BEFORE_THE_COUNTS
from combatkit.systems.short_form import (
    SHORT_FORM,
    ShortFormOptions,
    _counts,
    _declared,
    _initiative_dice,
    _kept_dex,
    _Round,
    _surprise_ranges,
    _surprised,
    _SurpriseSide,
    _table,
    fast_path,
)
from combatkit.timeline import Clock, Period, Span, Timeline

__all__ = ["schedule"]


_UNCOUNTED: Final = frozenset({BEFORE_THE_COUNTS, AFTER_THE_COUNTS})
"""The counts a reported hit that landed before or after every count of its round is read at (002 III.F)."""


def schedule(encounter: Encounter, roller: Roller, options: ShortFormOptions) -> Timeline:
    """The round (:class:`~combatkit.systems.short_form._Round`), found among those the fight's run kept where one
    like it was placed before, else placed and kept there; outside a fight, placed.

    Once every figure's count is known, the round's placing rolls nothing more and reads no hit points: a round that
    looks the same is placed as before, its reported hits too (002 III.F reads them, and rolls nothing for them). A
    figure's die and readiness follow from its count, its Dexterity, its declarations and the options."""
    keys = round_keys(encounter, options)
    if keys is None:
        return _Round(encounter, roller, options).run()
    rolled: _Rolled | None = None
    if not keys.explained and checked_before("short_form", keys):
        found, rolled = _looked_up(encounter, roller, options, keys)
        if found is not None:
            return found
    placing = _Round(encounter, roller, options)
    if rolled is not None:  # looked up, and not there
        placing.count(keys, (rolled.surprised, rolled.rolls))
        placed, like, levels = rolled.placed, rolled.like, rolled.levels
    else:
        counts = placing.count(keys)
        known, placed, like, levels = _kept(encounter, options, keys, placing.surprise_round, counts,
                                            _casters(encounter.declarations), placing.explain)
        if known is not None:
            return Timeline(SHORT_FORM.id, known[0], known[1], tuple(placing.notes) + known[2], tuple(roller.log))
    after = len(placing.notes)
    timeline = placing.place()
    if placed is not None:
        kept = (timeline.clock, timeline.spans, timeline.notes[after:], levels)
        placed.keep(kept)
        if like is not None and not kept[2]:
            like.keep(kept)
    return timeline


def _looked_up(encounter: Encounter, roller: Roller, options: ShortFormOptions, keys: RoundKeys
               ) -> tuple[Timeline | None, _Rolled | None]:
    """A fight's round on the fast path that passed its checks before, looked up without being set up: whether it is
    the surprise round (:func:`~combatkit.systems.short_form._surprised`, its surprise dice rolled where 002 I.B
    checks), else its initiative dice (002 II.A), and each figure's count
    (:func:`~combatkit.systems.short_form._counts`), as the round works them out
    (:meth:`~combatkit.systems.short_form._Round.count`); and the round kept for its counts found (:func:`_kept`).
    The timeline if it was there; else the dice rolled, with where the round is kept, which the round is then counted
    with, placed and kept under (:func:`schedule`).

    Until the first round, which checks for surprise, was looked up too, every fight's was set up (its surprise
    ranges worked out again) before its placing was found kept."""
    casts = _table("short_form casts")
    key = (keys.figures, keys.declarations, keys.options)
    cast: _Cast | None = casts.get(key)  # typed, so that the compiled build reads its fields directly (#18)
    if cast is None:
        cast = casts[key] = _Cast(encounter, options, _table("short_form dex"))
    surprised = _surprised(encounter, cast.sides, options, roller, cast.ranges, None)
    rolls = {} if surprised is not None else _initiative_dice(roller, cast.sides)
    counts = _counts(encounter.combatants, cast.mods, surprised, rolls)
    known, placed, like, levels = _kept(encounter, options, keys, surprised is not None, counts, cast.casters, False)
    if known is None:
        return None, _Rolled(rolls, surprised, placed, like, levels)
    return Timeline(SHORT_FORM.id, known[0], known[1], known[2], tuple(roller.log)), None


class _Cast:
    """What a round reads of its figures before its dice are rolled, as :func:`_looked_up` reads it: the sides in
    order, each figure's Dexterity modifier (002 II.A), the figures that cast, and what a surprise check reads
    (002 I.B). Once a run for each set of figures' states, declarations and options."""

    def __init__(self, encounter: Encounter, options: ShortFormOptions, dex: dict[str, int]) -> None:
        self.sides = sides_of(encounter)
        self.mods = [_kept_dex(c, options, dex) for c in encounter.combatants]
        """Each figure's Dexterity modifier, in the encounter's order."""
        self.casters = _casters(encounter.declarations)
        self.combatants = encounter.combatants
        self.options = options
        self.surprise: tuple[_SurpriseSide, ...] | None = None

    def ranges(self) -> tuple[_SurpriseSide, ...]:
        """What the first round's surprise check reads (:func:`~combatkit.systems.short_form._surprise_ranges`),
        worked out the first time it is asked for: the figures' classes, levels and Dexterity, and the options, never
        change in a run."""
        if self.surprise is None:
            self.surprise = _surprise_ranges(self.combatants, self.sides, self.options)
        return self.surprise


class _Rolled:
    """A round :func:`_looked_up` rolled the dice of and did not find: the initiative dice, or who is surprised in a
    surprise round (which rolls none), and where the round is kept (:func:`_kept`)."""

    def __init__(self, rolls: dict[str, int], surprised: dict[str, bool] | None, placed: PlacedRound | None,
                 like: PlacedRound | None, levels: tuple[int, ...]) -> None:
        self.rolls = rolls
        self.surprised = surprised
        self.placed = placed
        self.like = like
        self.levels = levels


def _kept(encounter: Encounter, options: ShortFormOptions, keys: RoundKeys | None, surprise_round: bool,
          counts: list[int | None], casters: frozenset[str], explain: bool
          ) -> tuple[tuple | None, PlacedRound | None, PlacedRound | None, tuple[int, ...]]:
    """The round kept in the run's memo for these counts (:func:`~combatkit.systems.base.placed_round`), else the
    one kept like it, relabelled (:func:`_like`, :func:`_moved`), if either is there; with where this round is kept
    under both, and its counts (:func:`_like`)."""
    placed = placed_round("short_form", encounter, options, (surprise_round, tuple(counts)), hits=encounter.hits,
                          keys=keys)
    known = placed.before() if placed is not None else None
    levels, ranked, like = (_like(encounter, options, keys, surprise_round, counts, casters, explain)
                            if placed is not None and known is None else ((), False, None))
    if like is not None:
        found = like.before()
        if found is not None:
            known = _moved(found, levels, ranked)
            placed.keep(known)  # type: ignore[union-attr]
    return known, placed, like, levels


def _like(encounter: Encounter, options: ShortFormOptions, keys: RoundKeys | None, surprise_round: bool,
          counts: list[int | None], casters: frozenset[str], explain: bool
          ) -> tuple[tuple[int, ...], bool, PlacedRound | None]:
    """The round's counts (each once, low to high), whether it is kept by their order (below), and where the round
    is kept with the rounds placed alike but for the counts their moments are labelled with (:func:`_moved`): on
    the fast path (whose spans name no count otherwise), not the surprise round, without II.F's missile-against-spell
    option (it reads a die against a casting time).

    Every other rule of the placing reads the counts only against each other: initiative order, ties (II.E, II.F),
    who enters reach first and who answers (II.D, Charging III), armed against unarmed (II.D); and, of a figure
    casting this round (``casters``), its count less its spell's casting time (II.C, Charging III.B.i) and a
    reported hit against those (III.F). So:

    * a round where no one casts and no hit is reported is kept by the order of its counts, which are equal and
      which higher (each figure's place among them): with two sides, every difference of the dice great enough to
      put each figure of one side before each of the other gives one order;
    * any other, by its counts less the lowest (its dice moved by as much on every side), and of the reported hits
      what the placing reads: each caster's earliest (III.F reads the first hit before the spell goes off, so when
      the earliest is after it, so are the rest), by target and count less the lowest (a hit before or after every
      count stays so), not who struck (only the explained words say).

    A run of prep's length (2,400 four-vs-four fights, seed 1) places 2,640 of its 23,866 rounds afresh (11%); with
    every hit on a caster in the key, 2,903; kept by their counts less the lowest alone, 5,235 (22%) (#18)."""
    if explain or surprise_round or options.tie_missile_vs_spell:
        return (), False, None
    known = [c for c in counts if c is not None]
    levels = tuple(sorted(set(known)))
    if not casters and not encounter.hits:
        place = {count: i for i, count in enumerate(levels)}
        return levels, True, placed_round("short_form ranked", encounter, options, tuple([place[c] for c in known]),
                                          keys=keys)
    low = levels[0]
    first: dict[str, int] = {}  # each caster's earliest hit: the highest count (_Round._disruptions)
    for h in encounter.hits:
        if h.target in casters and (h.target not in first or h.tick > first[h.target]):
            first[h.target] = h.tick
    hits = tuple([(name, tick if tick in _UNCOUNTED else tick - low) for name, tick in first.items()])
    return levels, False, placed_round("short_form shifted", encounter, options, tuple([c - low for c in known]),
                                       hits=hits, keys=keys)


def _moved(kept: tuple, counts: tuple[int, ...], ranked: bool) -> tuple[Clock, tuple[Span, ...], tuple[str, ...],
                                                                    tuple[int, ...]]:
    """A placed round kept with its counts (:func:`_like`), given again for a round whose counts are ``counts``:
    each moment labelled ``count N`` is relabelled, on the clock and the spans; nothing else changes. ``ranked``
    (kept by the order of its counts), to the count in the same place among ``counts``, where every count a label
    names is a figure's; else (kept by its counts less the lowest) to ``count N + by``, ``by`` what the lowest
    count moved, for a round met with its dice moved by as much on every side (but a reported hit's before or after
    every count: :data:`_UNCOUNTED`)."""
    # typed, so that the compiled build reads the clock's and spans' fields directly (#18)
    clock: Clock = kept[0]
    spans: tuple[Span, ...] = kept[1]
    before: tuple[int, ...] = kept[3]
    if counts == before:
        return kept
    to = dict(zip(before, counts, strict=True)) if ranked else {}
    by = counts[0] - before[0]
    labels: dict[str, str] = {}
    periods: list[Period] = []
    for p in clock.periods:
        count = int(p.number) if p.name == "count" else None
        if count is None or count in _UNCOUNTED:
            periods.append(p)
            continue
        moved_to = Period(p.name, p.start, p.end, str(to[count] if ranked else count + by))
        labels[p.label] = moved_to.label
        periods.append(moved_to)
    moved = tuple([s.in_period(labels[s.period]) if s.period in labels else s for s in spans])
    return Clock(clock.unit, clock.ticks, tuple(periods), clock.note), moved, kept[2], counts


def _casters(declarations: tuple[Declaration, ...]) -> frozenset[str]:
    """The figures that cast a spell this round (:func:`~combatkit.systems.short_form._declared`)."""
    return frozenset([actor for actor, (_, _, cast) in _declared(declarations).items() if cast is not None])


fast_path(schedule)
