"""Whole fights and Monte Carlo runs (combatkit.fight, combatkit.simulation): same seed same fight,
the fast path against the explained one, surprise per system, and invariants under hypothesis."""

from __future__ import annotations

import math
import multiprocessing
import pickle
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combatkit import (
    Abilities,
    ActionKind,
    Combatant,
    Declaration,
    Encounter,
    Length,
    Maneuver,
    RulesError,
    Spell,
    Weapon,
    WeaponKind,
    example_encounters,
    find_system,
    load_encounter,
    load_example,
)
from combatkit.fight import End, FightOptions, SurpriseOptions, run_fight
from combatkit.intent import Refinement
from combatkit.policy import PolicyOptions
from combatkit.battle import FigureStatus
from combatkit.resolution import EventKind, ResolutionOptions
from combatkit.simulation import (
    CHUNK,
    PARALLEL_FROM,
    Simulation,
    StopReason,
    SystemRunError,
    fight_seed,
    replay,
    simulate,
    simulate_systems,
    wilson_interval,
)

SYSTEMS = ("phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed")
FOUR = load_encounter(Path(__file__).parents[1] / "benchmarks" / "four-vs-four.toml")
QUICK = load_example("fighter-and-mage-vs-orc-archer")  # three figures, about 2 ms a fight: the party wins
ACTS = {EventKind.ATTACK, EventKind.SPELL, EventKind.MOVE, EventKind.CHARGE, EventKind.FLEE}


def outcome(fight):
    return fight.row(), fight.figure_rows()


# ----------------------------------------------------------------- same seed, same fight


@pytest.mark.parametrize("system", SYSTEMS)
def test_same_seed_same_fight(system):
    first, second = run_fight(FOUR, system, seed=11), run_fight(FOUR, system, seed=11)
    assert first.events == second.events and outcome(first) == outcome(second)
    assert [r.timeline.rolls for r in first.rounds] == [r.timeline.rolls for r in second.rounds]


def test_different_seeds_differ():
    assert len({tuple(run_fight(FOUR, "phase1", seed=s).events) for s in range(5)}) == 5


@pytest.mark.parametrize("system", SYSTEMS)
def test_fast_path_is_the_explained_path(system):
    """The brute-force oracle: fight by fight, the fast path (no explanations) ends exactly as the explained path."""
    for seed in range(25):
        explained, fast = run_fight(FOUR, system, seed=seed), run_fight(FOUR, system, seed=seed, explain=False)
        assert outcome(fast) == outcome(explained), seed
        assert fast.rounds == () and fast.events == ()


PLACED_AGAIN = ("phase1", "phase2", "five_phase", "short_form", "strike_speed")
"""Systems whose rounds, once the dice are rolled, are looked up in the run's memo."""
LOOKED_UP = {
    "default": FightOptions(),
    "fleeing": FightOptions(policy=PolicyOptions(flee_below=Fraction(1, 2))),
    "criticals": FightOptions(resolution=ResolutionOptions(criticals="000-II")),
}
"""Options under which a round's plan and policy are looked up: plain, hit points steering the policy for
every figure (flight), and conditions (the critical tables' stuns and the like)."""


def _alone_and_sharing(system: str, **given) -> tuple[dict, int]:
    """Twelve fights each played alone and again sharing one cache: each pair the same fight (its events and words
    too, when explained). The shared cache, and the rounds the fights played."""
    shared: dict = {}
    rounds = 0
    for seed in range(12):
        alone = run_fight(FOUR, system, seed=seed, **given)
        looked_up = run_fight(FOUR, system, seed=seed, cache=shared, **given)
        assert outcome(looked_up) == outcome(alone), seed
        assert looked_up.events == alone.events and looked_up.why() == alone.why(), seed
        rounds += looked_up.round_count
    return shared, rounds


@pytest.mark.parametrize("options", LOOKED_UP.values(), ids=LOOKED_UP.keys())
@pytest.mark.parametrize("system", SYSTEMS)
def test_a_plan_worked_out_once_is_the_plan_of_every_round_that_looks_the_same(system, options):
    """Fights sharing one cache look each round's policy and plan up (combatkit.fight._policy, _plan), and the
    round a system placed once its dice were rolled (combatkit.systems._memo), and play, explained too, as fights
    that each work them out afresh; the looked-up ones are far fewer than the rounds."""
    shared, rounds = _alone_and_sharing(system, options=options)
    assert 0 < len(shared["plans"]) < rounds and 0 < len(shared["policies"]) < rounds
    if system in PLACED_AGAIN:  # the rounds placed as their dice fell (the short form keeps its reschedules too)
        assert 0 < len([key for key in shared[f"{system} rounds"] if not key[-2]]) < rounds  # [-2]: no hits


@pytest.mark.parametrize("system", SYSTEMS)
def test_fights_played_fast_and_explained_may_share_a_cache(system):
    """A run's memo shared by fights played on the fast path and explained (run_fight's ``cache``): each explained
    fight is the one explained alone, its words too, though a scheduler leaves words out on the fast path (the short
    form's spells: combatkit.systems.base.placed_round keys a placed round on whether it is explained)."""
    shared: dict = {}
    for seed in range(6):
        run_fight(FOUR, system, seed=seed, explain=False, cache=shared)
    for seed in range(6):
        alone, sharing = run_fight(FOUR, system, seed=seed), run_fight(FOUR, system, seed=seed, cache=shared)
        assert sharing.rounds == alone.rounds and sharing.why() == alone.why(), seed


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_round_placed_before_is_walked_from_the_queue_loaded_before(system):
    """On the fast path, the walk queues the actions of a round placed before once (Walk._first_load) and fights
    sharing one cache play as fights that each queue every round afresh; a system that places every round afresh
    keeps nothing for it."""
    shared, rounds = _alone_and_sharing(system, explain=False)
    if system in PLACED_AGAIN:
        assert 0 < len(shared["loaded rounds"]) < rounds
    else:
        assert "loaded rounds" not in shared


def test_a_looked_up_policy_tells_a_figure_already_under_a_spell_from_one_that_is_not():
    """The policy aims blindness at the nearest foe not blind already (combatkit.effects.takes): the same round
    with that foe blinded is another round to the policy, and the one looked up (combatkit.fight._policy) is
    the one worked out afresh."""
    from combatkit.battle import ActiveCondition, figures_from
    from combatkit.conditions import CONDITIONS
    from combatkit.fight import _policy
    from combatkit.policy import intents

    mira = FOUR.combatant("Mira")
    blinder = replace(mira, spells=(Spell("blindness", level=2, casting_time=2, components="V"),))
    encounter = replace(FOUR, combatants=tuple(blinder if c.name == "Mira" else c for c in FOUR.combatants),
                        intents=(), declarations=())
    figures = list(figures_from(encounter, 30))
    caster = next(f for f in figures if f.name == "Mira")
    nearest = min((f for f in figures if f.side != caster.side), key=lambda f: abs(f.position - caster.position))
    blinded = [replace(f, conditions=(ActiveCondition(CONDITIONS["blindness"], 0, 99, "PH 2e blindness"),))
               if f.name == nearest.name else f for f in figures]
    system, options, shared = find_system("phase1"), FightOptions(), {}
    aims = []
    for state in (figures, blinded, figures, blinded):
        looked_up = _policy(state, system, 1, 1, frozenset(), options, frozenset(), shared)
        assert looked_up == intents(state, system=system, round=1)
        aims.append(next(i.target for i in looked_up if i.actor == "Mira"))
    assert aims[0] == nearest.name != aims[1] and aims[2:] == aims[:2]


@pytest.mark.parametrize("system", SYSTEMS)
def test_rounds_a_cycle_of_attack_counts_apart_share_a_plan_and_keep_their_own_words(system):
    """The policy and the plan read a round's number only for the figures' attacks in it (combatkit.fight._in_cycle):
    with a 3/2 fighter, rounds two apart look the same to them and are worked out once; with an ogre at 1/2 as
    well, the plan names the round the ogre has no attack in, and each number stays its own. Either way, fights
    that share a memo are the fights played alone, explained, plan and words included."""
    brienne = replace(FOUR.combatant("Brienne"), attacks_per_round=Fraction(3, 2))
    grol = replace(FOUR.combatant("Grol"), attacks_per_round=Fraction(1, 2))
    for changed, idle in (((brienne,), False), ((brienne, grol), True)):
        by_name = {c.name: c for c in changed}
        encounter = replace(FOUR, combatants=tuple(by_name.get(c.name, c) for c in FOUR.combatants))
        shared: dict = {}
        for seed in range(6):
            fight = run_fight(encounter, system, seed=seed, cache=shared)
            alone = run_fight(encounter, system, seed=seed)
            assert fight == alone
            assert [r.timeline.plan for r in fight.rounds] == [r.timeline.plan for r in alone.rounds]  # the words
        assert shared["round cycle"] == (2, idle)


def test_a_placed_round_is_looked_up_at_its_place_in_the_cycle_of_attack_counts():
    """A scheduler reads a round's number only for each figure's attacks in it (five-phase: a 3/2 figure's second
    declared attack is regular in even rounds, an extra in odd ones), so a round it placed is looked up two
    rounds on, not one (combatkit.systems.base.placed_round)."""
    from combatkit.systems._memo import remembering
    from combatkit.systems.base import placed_round

    brienne = replace(FOUR.combatant("Brienne"), attacks_per_round=Fraction(3, 2))
    encounter = replace(FOUR, combatants=tuple(brienne if c.name == "Brienne" else c for c in FOUR.combatants),
                        round=1)
    with remembering({}):
        placed_round("five_phase", encounter, None, ("party",)).keep("round 1's")
        found = {n: placed_round("five_phase", replace(encounter, round=n), None, ("party",)).before()
                 for n in (2, 3, 4, 5)}
    assert found == {2: None, 3: "round 1's", 4: None, 5: "round 1's"}


def test_options_a_fight_derives_are_made_once_a_run_for_each_options_and_change():
    """The Segment of Action's options timed only, and round 1's with its surprise checks, are made once a run
    (combatkit.systems.base.derived_options) and are the options the system makes of them each time; another
    change or other options make others; outside a fight each call makes them afresh."""
    from combatkit.systems.base import FightRound
    from combatkit.systems._memo import remembering
    from combatkit.systems.segments import SegmentsOptions

    segments = find_system("segments")
    given = SegmentsOptions(misc_die="d8")
    first = FightRound(1, ("Brienne", "Grak"), True, False, {})
    alone = segments.timing_options(given)
    assert alone == replace(given, kills=False, dying_blow=False) and segments.timing_options(given) is not alone
    with remembering({}):
        timed = segments.timing_options(given)
        assert timed == alone and segments.timing_options(given) is timed
        assert segments.timing_options(SegmentsOptions()) is not timed
        assert segments.timing_options(timed) is timed  # timing only already
        round_1 = segments.round_options(timed, first)
        assert round_1 == replace(timed, surprise_checks=frozenset({"Brienne", "Grak"}))
        assert segments.round_options(timed, first) is round_1
        fewer = segments.round_options(timed, replace(first, names=("Brienne",)))
        assert fewer.surprise_checks == {"Brienne"} and fewer is not round_1
        assert segments.round_options(timed, replace(first, number=2)) is timed


def test_a_number_stands_for_equal_values_and_never_for_another():
    """combatkit.systems._memo.stands_for (#18): equal values get one number, by identity, by their items' identities
    or by value; a tuple met again by its own identity is held, so that a tuple freed and another made where it was
    (CPython reuses a freed tuple's memory) is never taken for it."""
    from combatkit.systems._memo import stands_for

    cache: dict = {}
    a, b = Weapon("long sword", 5), Weapon("dagger", 2)
    first = (a, b)
    number = stands_for(first, items=True, cache=cache)
    assert stands_for(tuple([a, b]), items=True, cache=cache) == number  # a new tuple of the same items
    assert stands_for((Weapon("long sword", 5), Weapon("dagger", 2)), cache=cache) == number  # equal, by value
    for _ in range(50):
        again = tuple([a, b])
        assert stands_for(again, items=True, cache=cache) == number
        del again
        other = tuple([b, a])  # often where `again` was
        assert stands_for(other, items=True, cache=cache) != number
        del other


def test_an_entry_kept_by_identity_is_found_only_for_its_own_value():
    """combatkit.systems._memo.kept (#18): an entry kept under a value's id, the value held first in it, is found for
    that value, and not for another object that was given the same id once the first was freed."""
    from combatkit.systems._memo import kept

    table: dict = {}
    value = ("long sword", 5)
    table[id(value)] = (value, "kept")
    assert kept(table, value) == (value, "kept")
    assert kept(table, ("dagger", 2)) is None
    impostor = ("dagger", 2)
    table[id(impostor)] = (value, "kept for another")  # what the table holds once an id is given again
    assert kept(table, impostor) is None


def test_a_figure_s_kit_answers_as_the_figure_does():
    """What the hot paths of a run read of a figure's arms (combatkit.systems._memo.Kit, made once a run by its
    name) is what the figure's own methods say: the weapons a blow names, its whole attacks in each round with each
    (3/2 a round: 1, then 2; a bow's rate of fire on top), and the same refusal of a weapon it does not have."""
    from combatkit.model import FISTS
    from combatkit.systems._memo import kit, remembering

    bow = Weapon("long bow", 8, kind=WeaponKind.MISSILE, rate_of_fire=2)
    c = Combatant("Erik", "party", attacks_per_round=Fraction(3, 2), weapons=(Weapon("long sword", 5), bow))
    with remembering({}):
        arms = kit(c)
        assert kit(replace(c, hit_points=3)) is arms
        for names in ((), ("long bow",), ("long sword", "long bow"), ("fists",)):
            assert arms.striking(names) == c.striking(names)
        assert [arms.weapon(n) for n in (None, "long bow", "fists")] == [c.weapon(n) for n in (None, "long bow",
                                                                                              "fists")]
        for _ in range(2):  # worked out, then looked up
            assert [[arms.attacks_in_round(r, w) for w in (None, *c.weapons, FISTS)] for r in range(1, 5)] == \
                [[c.attacks_in_round(r, w) for w in (None, *c.weapons, FISTS)] for r in range(1, 5)] == \
                [[1, 1, 3, 1], [2, 2, 3, 2], [1, 1, 3, 1], [2, 2, 3, 2]]
        with pytest.raises(RulesError, match="Erik has no weapon 'axe'"):
            arms.weapon("axe")
    assert kit(c) is not kit(c), "outside a fight, made anew"


@pytest.mark.parametrize("system", ["phase1", "phase2"])
def test_what_a_cache_keeps_is_bounded(monkeypatch, system):
    """Each table of a run's memo (combatkit.systems._memo) starts afresh at SIZE entries; the fights are the same."""
    import combatkit.systems._memo

    monkeypatch.setattr(combatkit.systems._memo, "SIZE", 3)
    shared: dict = {}
    for seed in range(6):
        assert outcome(run_fight(FOUR, system, seed=seed, explain=False, cache=shared)) == outcome(
            run_fight(FOUR, system, seed=seed, explain=False)), seed
        assert all(len(table) <= 3 for name, table in shared.items() if isinstance(name, str)), shared.keys()


def test_the_short_form_keeps_more_of_its_rounds_and_is_bounded_still(monkeypatch):
    """Its placed rounds' table starts afresh at TIMES_SIZE times SIZE entries, not SIZE; the fights are the same."""
    import combatkit.systems._memo
    from combatkit.systems._memo import TIMES_SIZE

    monkeypatch.setattr(combatkit.systems._memo, "SIZE", 3)
    shared: dict = {}
    most = 0
    for seed in range(12):
        assert outcome(run_fight(FOUR, "short_form", seed=seed, explain=False, cache=shared)) == outcome(
            run_fight(FOUR, "short_form", seed=seed, explain=False)), seed
        most = max(most, len(shared["short_form rounds"]))
    assert 3 < most <= 3 * TIMES_SIZE["short_form rounds"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_policy_declares_only_what_each_system_allows(system):
    """Every round of every fight is declared by the policy in the system's own terms: nothing refused."""
    for seed in range(8):
        fight = run_fight(FOUR, system, seed=seed)
        assert fight.refused == 0, [e.why for e in fight.events if e.kind is EventKind.REFUSED]
        assert fight.round_count >= 1


def test_a_fight_ends_when_one_side_is_left():
    fight = run_fight(FOUR, "phase1", seed=3, options=FightOptions(max_rounds=30))
    assert fight.winner in ("party", "orcs") and fight.end is End.SIDE_DOWN
    standing = {f.side for f in fight.figures if f.status is FigureStatus.ACTIVE}
    assert standing == {fight.winner}
    assert fight.why()[-1].startswith(f"After {fight.round_count} round(s): side {fight.winner!r} wins")


def test_round_limit():
    fight = run_fight(FOUR, "phase1", seed=3, options=FightOptions(max_rounds=1))
    assert fight.round_count == 1 and fight.winner is None and fight.end is End.ROUND_LIMIT


def test_fleeing_ends_a_fight():
    """Snaga breaks off (its own declaration) and outpaces Brienne: it has fled, and the party wins (002 Breaking Off II.B)."""
    enc = Encounter("flee", (Combatant("Brienne", "party", hit_points=30, movement=6, weapons=(Weapon("sword"),)),
                             Combatant("Snaga", "orcs", hit_points=5, movement=12, weapons=(Weapon("spear"),))),
                    (Declaration("Snaga", 1, ActionKind.MOVE, feet=40, maneuver=Maneuver.FLEE),))
    for seed in range(6):
        fight = run_fight(enc, "phase1", seed=seed, options=FightOptions(opening_gap=5))
        snaga = fight.figure("Snaga")
        assert snaga.status in (FigureStatus.FLED, FigureStatus.DEAD)
        assert fight.winner == "party"
        assert fight.end is (End.FLED if snaga.status is FigureStatus.FLED else End.SIDE_DOWN)
        turned = [e for e in fight.events if e.actor == "Snaga" and (e.kind is EventKind.FLEE or "turns to flee" in e.why)]
        answers = [e.kind for e in fight.events if e.actor == "Brienne" and e.rule == "000 §2 D Withdrawing / Fleeing"]
        if turned:  # Brienne may have killed it before it could turn
            assert EventKind.ATTACK in answers or any("outruns" in e.why for e in fight.events)


def test_the_policy_flees_when_badly_hurt():
    options = FightOptions(policy=PolicyOptions(flee_below=Fraction(1, 2)), opening_gap=5, max_rounds=8)
    fled = [run_fight(FOUR, "phase1", seed=seed, options=options) for seed in range(6)]
    flights = [e for f in fled for e in f.events if e.kind is EventKind.FLEE]
    assert flights and all(e.rule == "000 §2 D Withdrawing / Fleeing" for e in flights)


def test_the_encounters_own_declarations_and_rolls_play_round_1():
    enc = load_example("fighter-and-mage-vs-orc-archer")
    fight = run_fight(enc, seed=5)
    first = fight.rounds[0]
    assert first.declarations[: len(enc.declarations)] == enc.declarations
    assert "Initiative d10 per side (low wins): party 6, orcs 4." in first.timeline.notes[0]
    other = run_fight(enc, "strike_speed", seed=5)  # another system's dice: the entered rolls are not its own
    assert other.refused == 0


# ----------------------------------------------------------------- surprise


def surprised_party(surprised: bool = True, **changes) -> Encounter:
    return Encounter("ambush", (
        Combatant("Brienne", "party", hit_points=30, surprised=surprised, weapons=(Weapon("long sword", damage="d8"),)),
        Combatant("Gorbag", "orcs", char_class="monster", hit_points=12, weapons=(Weapon("scimitar", damage="d8"),)),
    ), (), **changes)


def test_000_a_surprised_figure_loses_a_phase():
    """000 §2 F: the surprised figure loses one full phase; its declarations begin in phase 2."""
    fight = run_fight(surprised_party(), "phase1", seed=1, options=FightOptions(opening_gap=5))
    first = fight.rounds[0]
    assert any(e.kind is EventKind.SURPRISE and e.actor == "Brienne" and e.rule == "000 §2 F" for e in first.events)
    assert all(d.phase >= 2 for d in first.declarations if d.actor == "Brienne")
    assert not [e for e in first.events if e.actor == "Brienne" and e.kind in ACTS and e.tick <= 6]


def test_000_standard_surprise_roll_option():
    enc = surprised_party(False, rolls={"surprise: party": 9, "surprise: orcs": 2}, system="phase1")
    fight = run_fight(enc, seed=1, options=FightOptions(surprise=SurpriseOptions(standard_roll=True)))
    notes = [e for e in fight.rounds[0].events if e.kind is EventKind.SURPRISE]
    assert [(e.actor, e.outcome) for e in notes[:2]] == [("party", "not surprised"), ("orcs", "surprised")]
    assert any(e.actor == "Gorbag" and e.rule == "000 §2 F" for e in notes)


def test_002_d12_surprise_round():
    """002 I.B: 1-4 on the side's d12 (with its figures' modifiers) is surprise: a surprise round follows."""
    enc = surprised_party(False, rolls={"surprise: party": 2, "surprise: orcs": 11}, system="short_form")
    fight = run_fight(enc, seed=1, options=FightOptions(opening_gap=5))
    first = fight.rounds[0]
    assert any("surprise round" in n for n in first.timeline.notes)
    assert not [e for e in first.events if e.actor == "Brienne" and e.kind is EventKind.ATTACK]
    unchecked = run_fight(enc, seed=1, options=FightOptions(opening_gap=5, surprise=SurpriseOptions(check=False)))
    assert not any("surprise round" in n for n in unchecked.rounds[0].timeline.notes)


def test_003_d6_surprise_per_figure():
    """003 §VI: "d6 per character": Brienne rolls 1, loses a segment; Gorbag rolls 6."""
    enc = surprised_party(False, rolls={"surprise: Brienne": 1, "surprise: Gorbag": 6}, system="segments")
    notes = run_fight(enc, seed=1, options=FightOptions(opening_gap=5)).rounds[0].timeline.notes
    assert any("Brienne's surprise d6: 1" in n and "surprised" in n for n in notes)
    assert any("Gorbag's surprise d6: 6" in n and "not surprised" in n for n in notes)


@pytest.mark.parametrize(("system", "rule"), [("five_phase", "001 A. Declare Intentions"),
                                              ("strike_speed", "004 is silent: B/X's surprise round")])
def test_001_and_004_surprised_figures_lose_round_1(system, rule):
    fight = run_fight(surprised_party(), system, seed=1, options=FightOptions(opening_gap=5))
    first = fight.rounds[0]
    assert any(e.kind is EventKind.SURPRISE and e.rule == rule for e in first.events)
    assert not [d for d in first.declarations if d.actor == "Brienne"]


# ----------------------------------------------------------------- Monte Carlo


def test_simulation_is_reproducible_and_fight_seeds_do_not_depend_on_n():
    small = simulate(FOUR, "phase1", n=6, seed=3)
    large = simulate(FOUR, "phase1", n=10, seed=3)
    assert small.fights == large.fights[:6]
    assert [r["seed"] for r in large.fights] == [fight_seed(3, i) for i in range(10)]
    assert simulate(FOUR, "phase1", n=6, seed=4).fights != small.fights


def test_simulation_rows_and_replay():
    sim = simulate(FOUR, "segments", n=8, seed=2)
    row = sim.fights[5]
    fight = replay(FOUR, 5, "segments", seed=2)
    assert {"fight": 5, **fight.row()} == row and fight.events
    names = {r["figure"] for r in sim.figures if r["fight"] == 5}
    assert names == {c.name for c in FOUR.combatants}
    summary = sim.summary()
    assert summary["fights"] == 8 and sum(w["count"] for w in summary["wins"].values()) == 8
    assert set(summary["fell"]) == names


def test_progress_callback():
    calls = []
    simulate(FOUR, "phase1", n=7, seed=1, progress=lambda done, total: calls.append((done, total)), every=3)
    assert calls == [(3, 7), (6, 7), (7, 7)]


def test_a_run_leaves_the_interpreter_as_it_found_it():
    """Fights are played under the interpreter as the caller has it (#45): the cycle collector on, what the caller
    froze still frozen and nothing more frozen, and :class:`enum.EnumType` with its ``__getattr__``, while the
    fights are played and after, in this process and on a caller's executor, also after a run a progress callback
    stopped."""
    import enum
    import gc

    kept = [[] for _ in range(10)]  # the caller's own objects, frozen as a server may freeze what it imported
    gc.freeze()

    def state() -> tuple[bool, bool, object]:
        tracked = {id(thing) for thing in gc.get_objects()}  # every generation but the frozen one
        still_frozen = not any(id(thing) in tracked for thing in kept)
        return gc.isenabled(), still_frozen and gc.get_freeze_count() <= frozen, vars(enum.EnumType).get("__getattr__")

    frozen = gc.get_freeze_count()
    try:
        found = state()
        assert found == (True, True, enum.EnumType.__dict__.get("__getattr__"))
        seen: list[tuple[bool, bool, object]] = []
        simulate(FOUR, "phase1", n=120, seed=1, progress=lambda done, total: seen.append(state()), every=30)
        with ThreadPoolExecutor(2) as pool:
            simulate(FOUR, "phase1", n=120, seed=1, executor=pool, every=30,
                     progress=lambda done, total: seen.append(state()))
        assert seen == [found] * 8 and state() == found
        with pytest.raises(ZeroDivisionError):
            simulate(FOUR, "phase1", n=3, seed=1, progress=lambda done, total: 1 / 0, every=1)
        assert state() == found
    finally:
        gc.unfreeze()


def test_simulation_refuses_a_negative_count():
    with pytest.raises(RulesError, match="got -1"):
        simulate(FOUR, n=-1)


def test_workers_play_the_same_rows_in_the_same_order():
    """Chunks played by two processes come back in index order: the very rows, and progress calls, of a serial run."""
    n = PARALLEL_FROM + CHUNK // 2  # two whole chunks and a part
    calls: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
    runs = {workers: simulate(QUICK, "segments", n=n, seed=8, workers=workers, every=7,
                              progress=lambda done, total, w=workers: calls[w].append((done, total)))
            for workers in (1, 2)}
    assert runs[2] == runs[1] and [r["fight"] for r in runs[2].fights] == list(range(n))
    assert runs[2].requested == n and runs[2].stopped is StopReason.COUNT
    assert calls[2] == calls[1] == [(k, n) for k in range(7, n + 1, 7)] + [(n, n)]


def test_a_worker_s_chunks_of_one_run_share_a_cache():
    """A worker plays each chunk of a run with the cache its earlier chunks of that run filled, one a thread, and
    keeps the most recent RUN_CACHES of them."""
    from combatkit.simulation import RUN_CACHES, _run_cache

    first = _run_cache("run a")
    assert _run_cache("run a") is first
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(_run_cache, "run a").result() is not first
    for i in range(RUN_CACHES):
        _run_cache(f"run {i}")
    assert _run_cache("run a") is not first


def test_workers_run_this_process_s_engine_from_a_folder_that_holds_another(tmp_path):
    """Python 3.11's forkserver starts with the working folder first on its path: run from a checkout with the
    compiled wheel installed, its preload took the checkout's source and every worker played pure Python. In a
    folder whose ``combatkit`` is not this process's, the workers import the engine themselves."""
    import combatkit

    work = tmp_path / "work"
    other = work / "combatkit"  # a copy of the engine whose fights fail, to tell it from this process's
    shutil.copytree(Path(combatkit.__file__).parent, other, ignore=shutil.ignore_patterns("__pycache__"))
    with (other / "__init__.py").open("a") as init:
        init.write("\nimport combatkit.fight as _fight\n\n\ndef _other(*args, **kwargs):\n"
                   "    raise RuntimeError('a fight played by the combatkit of the working folder')\n\n\n"
                   "_fight.run_fight = _other\n")
    script = tmp_path / "play.py"
    script.write_text(
        "from combatkit import load_example\n"
        "from combatkit.simulation import PARALLEL_FROM, simulate\n"
        "if __name__ == '__main__':\n"
        "    encounter = load_example('orc-closes-on-longbowman')\n"
        "    args = dict(n=PARALLEL_FROM, seed=3)\n"
        "    assert simulate(encounter, 'phase1', workers=2, **args) == simulate(encounter, 'phase1', **args)\n"
        "    print('same rows')\n")
    run = subprocess.run([sys.executable, str(script)], cwd=work, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "same rows" in run.stdout, run.stderr[-3000:]


def stopped_here(sim: Simulation, fights: int) -> Simulation:
    """``sim`` as it stood after its first ``fights`` fights."""
    return Simulation(sim.title, sim.system, sim.seed, sim.fights[:fights],
                      [r for r in sim.figures if int(r["fight"]) < fights])


def test_early_stop_is_reproducible_and_the_interval_is_within_precision():
    sim, parallel = (simulate(FOUR, "phase1", n=1000, seed=5, precision=0.08, workers=w) for w in (1, 2))
    assert parallel == sim
    assert sim.stopped is StopReason.PRECISION and sim.requested == 1000 and sim.precision == 0.08
    played = len(sim.fights)
    assert played % CHUNK == 0 and PARALLEL_FROM <= played < 1000  # two processes had a chunk each to play
    outcomes = {side: 0 for side in ("party", "orcs")} | {None: 0}
    for row in sim.fights:
        outcomes[row["winner"]] += 1
    for wins in outcomes.values():  # every side's win rate, and the undecided share, known to ±8%
        low, high = wilson_interval(wins, played)
        assert (high - low) / 2 <= 0.08
    assert sim.half_width() <= 0.08 < stopped_here(sim, played - CHUNK).half_width()  # the first chunk boundary
    assert sim.summary()["stopped"] == "precision reached"


def test_a_precision_not_reached_plays_all_n():
    sim = simulate(QUICK, "phase1", n=60, seed=5, precision=0.01)
    assert len(sim.fights) == 60 and sim.stopped is StopReason.COUNT and sim.half_width() > 0.01
    assert sim.fights == simulate(QUICK, "phase1", n=60, seed=5).fights


def test_a_run_stopped_early_ends_its_progress_at_the_fights_played():
    calls = []
    sim = simulate(QUICK, n=1000, seed=7, precision=0.05, every=40,
                   progress=lambda done, total: calls.append((done, total)))
    assert len(sim.fights) == CHUNK and calls == [(40, 1000), (50, 1000)]


@pytest.mark.parametrize(("keyword", "value", "message"), [
    ("workers", 0, "workers is 1 or more processes (None: every core), got 0"),
    ("workers", -2, "got -2"), ("workers", 1.5, "got 1.5"), ("workers", True, "got True"), ("workers", "2", "got '2'"),
    ("precision", 0, "precision is a half-width above 0 and at most 0.5 (0.02: ±2%), or None; got 0"),
    ("precision", -0.02, "got -0.02"), ("precision", 0.6, "got 0.6"), ("precision", math.nan, "got nan"),
    ("precision", True, "got True"), ("precision", "0.02", "got '0.02'"),
    ("every", 0, "every is 1 or more fights, got 0"),
    ("seed", "x", "seed is a whole number, the master seed of the run's fights; got 'x'"),
    ("seed", 1.5, "got 1.5"), ("seed", None, "got None"),
    ("executor", "pool", "executor is a concurrent.futures.Executor (anything with submit), or None; got 'pool'"),
])
def test_bad_workers_precision_every_seed_and_executor_are_refused(keyword, value, message):
    with pytest.raises(RulesError) as raised:
        simulate(FOUR, n=10, **{keyword: value})
    assert message in raised.value.message and raised.value.rule == "combatkit simulation"


def test_a_rules_error_in_a_worker_is_raised_as_the_serial_run_raises_it():
    """The file's own round-1 placement for the short form, refused by it in fight 0, in a worker process or on an
    executor as here."""
    enc = load_example("strike-speed-ogre-and-goblin")
    enc = replace(enc, refinements=enc.refinements + (Refinement("short_form", "Pike", 1, phases=(1,)),))
    options = FightOptions(declarations=True)
    errors = []
    with ThreadPoolExecutor(2) as pool:
        for players in ({"workers": 1}, {"workers": 2}, {"executor": pool}):
            with pytest.raises(RulesError) as raised:
                simulate(enc, "short_form", n=PARALLEL_FROM, options=options, **players)
            errors.append(raised.value)
    here, *there = errors
    for error in there:
        assert type(error) is type(here)
        assert (error.rule, error.message, error.args) == (here.rule, here.message, here.args)
    assert "a melee attack needs its target within 5'" in here.message


SIDE_BY_SIDE = ("phase1", "segments", "short_form")


@pytest.fixture(scope="module")
def alone() -> tuple[list[Simulation], list[Simulation]]:
    """Each of :data:`SIDE_BY_SIDE`'s runs by itself, played once for both side-by-side tests: to a precision
    (four-vs-four), and a few fights (the quick encounter)."""
    return ([simulate(FOUR, s, n=400, seed=3, precision=0.07) for s in SIDE_BY_SIDE],
            [simulate(QUICK, s, n=20, seed=3) for s in SIDE_BY_SIDE])


@pytest.mark.parametrize("workers", [1, 2])
def test_systems_side_by_side_are_the_very_runs_of_each_system_alone(workers, alone):
    """simulate_systems: each system's run is simulate's, stopped at the same chunk at a precision, its rows in
    the same order; two processes each play a system's chunks in turn and help the runs still going, and the
    progress calls are each run's, named by system."""
    systems = SIDE_BY_SIDE
    calls: dict[str, list[tuple[int, int]]] = {s: [] for s in systems}
    runs = simulate_systems(FOUR, systems, n=400, seed=3, precision=0.07, workers=workers, every=25,
                            progress=lambda system, done, total: calls[system].append((done, total)))
    assert runs == alone[0]
    assert [run.system for run in runs] == list(systems)
    assert {run.stopped for run in runs} == {StopReason.PRECISION} and len({len(run.fights) for run in runs}) > 1
    for run in runs:
        played = len(run.fights)
        assert calls[run.system] == [(k, 400) for k in range(25, played + 1, 25)] + (
            [(played, 400)] if played % 25 else [])
    few = simulate_systems(QUICK, systems, n=20, seed=3, workers=workers)  # 60 fights in all: this process
    assert few == alone[1]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_refusal_in_one_system_s_run_is_raised_naming_that_system(workers):
    enc = load_example("strike-speed-ogre-and-goblin")
    enc = replace(enc, refinements=enc.refinements + (Refinement("short_form", "Pike", 1, phases=(1,)),))
    with pytest.raises(SystemRunError) as raised:
        simulate_systems(enc, ("strike_speed", "short_form"), n=PARALLEL_FROM, workers=workers,
                         options=FightOptions(declarations=True))
    failed = raised.value
    assert failed.system == "short_form" and isinstance(failed.error, RulesError) and failed.__cause__ is failed.error
    assert failed.error.rule == "002 III.D" and isinstance(failed, ValueError)
    assert str(failed).startswith("under short_form: ") and "needs its target within 5'" in str(failed)
    assert multiprocessing.active_children() == []


def test_a_progress_callback_that_raises_ends_every_system_s_run_and_the_processes():
    class Stop(Exception):
        pass

    def stop(system, done, total):
        raise Stop

    with pytest.raises(Stop):
        simulate_systems(QUICK, ("phase1", "segments"), n=1000, seed=1, workers=2, progress=stop)
    assert multiprocessing.active_children() == []
    with pytest.raises(RulesError, match="timing system ids such as 'phase1'; got 7"):
        simulate_systems(QUICK, ("phase1", 7))  # type: ignore[list-item]
    with pytest.raises(RulesError, match="got -1"):
        simulate_systems(QUICK, ("phase1",), n=-1)


def test_a_progress_callback_that_raises_ends_the_run_and_its_pool():
    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop

    with pytest.raises(Stop):
        simulate(QUICK, "phase1", n=1000, seed=1, workers=2, progress=stop)
    assert multiprocessing.active_children() == []


def test_an_executor_stops_at_the_precision_where_a_serial_run_does_and_is_left_running():
    """Any concurrent.futures.Executor plays the chunks, a short run's too; the rows, the stop and the progress
    calls are a serial run's; the executor is the caller's and still takes work afterwards."""
    calls: dict[str, list[tuple[int, int]]] = {"serial": [], "pool": []}
    serial = simulate(FOUR, "phase1", n=1000, seed=5, precision=0.08, every=30,
                      progress=lambda done, total: calls["serial"].append((done, total)))
    with ThreadPoolExecutor(2) as pool:
        pooled = simulate(FOUR, "phase1", n=1000, seed=5, precision=0.08, every=30, executor=pool,
                          progress=lambda done, total: calls["pool"].append((done, total)))
        short = simulate(QUICK, "segments", n=7, seed=2, executor=pool)
        assert pool.submit(abs, -3).result() == 3
    assert pooled == serial and pooled.stopped is StopReason.PRECISION and len(pooled.fights) < 1000
    assert calls["pool"] == calls["serial"] and calls["pool"][-1] == (len(serial.fights), 1000)
    assert short == simulate(QUICK, "segments", n=7, seed=2)


def test_a_progress_callback_that_raises_ends_a_run_on_an_executor_and_leaves_it_running():
    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop

    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(Stop):
            simulate(QUICK, "phase1", n=1000, seed=1, executor=pool, progress=stop)
        assert pool.submit(abs, -1).result() == 1


def test_workers_and_an_executor_together_are_refused():
    with ThreadPoolExecutor(1) as pool:
        for workers in (2, None):
            with pytest.raises(RulesError) as raised:
                simulate(FOUR, n=10, workers=workers, executor=pool)
            assert f"got workers={workers!r} with an executor" in raised.value.message
            assert "workers or executor says who plays the fights, not both" in raised.value.message


def test_a_dask_cluster_plays_the_very_rows_of_a_serial_run(tmp_path):
    """Two worker processes of a dask LocalCluster on 127.0.0.1 play the chunks (client.get_executor()): the rows
    and figures of a serial run; the cluster and its processes are gone afterwards."""
    import dask
    from distributed import Client, LocalCluster

    serial = simulate(FOUR, "phase2", n=150, seed=4)
    with (dask.config.set({"temporary-directory": str(tmp_path)}),  # dask's scratch space, else /tmp's
          LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                       dashboard_address=None) as cluster,
          Client(cluster) as client):
        assert len(multiprocessing.active_children()) >= 2  # the workers are this process's children
        clustered = simulate(FOUR, "phase2", n=150, seed=4, executor=client.get_executor())
    assert clustered.fights == serial.fights and clustered.figures == serial.figures and clustered == serial
    assert multiprocessing.active_children() == []


def test_what_a_worker_is_sent_pickles():
    options = FightOptions(policy=PolicyOptions(flee_below=Fraction(1, 2)),
                           resolution=ResolutionOptions(criticals="004"))
    system_options = [find_system(system).options() for system in SYSTEMS]
    for thing in (FOUR, options, *system_options, *(load_example(name) for name in example_encounters())):
        assert pickle.loads(pickle.dumps(thing)) == thing


def test_wilson_interval_brackets_the_rate():
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and round(high - 0.5, 6) == round(0.5 - low, 6)


def test_the_engine_does_not_import_pandas():
    code = "import sys, combatkit.simulation, combatkit.fight; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# ----------------------------------------------------------------- invariants


@st.composite
def encounters(draw):
    combatants = []
    for side, count in (("a", draw(st.integers(1, 3))), ("b", draw(st.integers(1, 3)))):
        for i in range(count):
            role = draw(st.sampled_from(["fighter", "archer", "mage", "priest", "monster"]))
            kw = dict(
                level=draw(st.integers(1, 8)), hit_points=draw(st.integers(1, 16)),
                armor_class=draw(st.integers(-2, 10)), thac0=draw(st.integers(8, 20)),
                movement=draw(st.sampled_from([6, 9, 12, 15])),
                abilities=Abilities(strength=draw(st.integers(3, 18)), dexterity=draw(st.integers(3, 18)),
                                    constitution=draw(st.integers(3, 18))),
                attacks_per_round=draw(st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2)])),
            )
            sword = Weapon("sword", draw(st.integers(1, 10)), damage=draw(st.sampled_from(["d4", "d6", "d8", "2d4"])))
            if role == "archer":
                kw["weapons"] = (Weapon("short bow", 7, kind=WeaponKind.MISSILE, rate_of_fire=2), sword)
            elif role == "mage":
                kw["char_class"] = "mage"
                kw["weapons"] = (Weapon("dagger", 2, damage="d4", length=Length.SHORT),)
                kw["spells"] = (Spell("magic missile", 1, 1), Spell("sleep", 1, 1, "V,S,M"), Spell("fireball", 3, 3))
                kw["components_ready"] = draw(st.booleans())
            elif role == "priest":
                kw["char_class"] = "priest"
                kw["weapons"] = (Weapon("mace", 7, damage="d6+1"),)
                kw["spells"] = (Spell("cure light wounds", 1, 5), Spell("hold person", 2, 5))
            elif role == "monster":
                kw["char_class"] = "monster"
                kw["weapons"] = (Weapon("claw", kind=WeaponKind.NATURAL, damage="d3"),
                                 Weapon("claw2", kind=WeaponKind.NATURAL, damage="d3"),
                                 Weapon("bite", kind=WeaponKind.NATURAL, damage="d6"))
                kw["attacks_per_round"] = Fraction(3)
            else:
                kw["weapons"] = (sword,)
            combatants.append(Combatant(f"{side}{i}", side, surprised=draw(st.booleans()) and i == 0, **kw))
    maneuver = draw(st.sampled_from([None, *Maneuver]))  # a0's own declaration for round 1, the policy's after
    declared = (Declaration("a0", 1, maneuver.kind, target="b0", maneuver=maneuver),) if maneuver else ()
    return Encounter("random", tuple(combatants), declared)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encounters(), st.sampled_from(SYSTEMS), st.integers(0, 2**31), st.integers(0, 60),
       st.sampled_from([None, "000-I", "000-II", "004"]))
def test_invariants(encounter, system, seed, gap, criticals):
    """Any valid encounter resolves (or raises a rules error); hit points never rise but by healing;
    no one acts after falling, unless 003's dying blow allows it or a spell that felled it ended; same
    seed, same fight; the fast path ends as the explained one."""
    options = FightOptions(opening_gap=gap, max_rounds=4, resolution=ResolutionOptions(criticals=criticals))
    try:
        fight = run_fight(encounter, system, seed=seed, options=options)
    except RulesError:
        return
    hp = {c.name: c.hit_points for c in encounter.combatants}
    for r in fight.rounds:
        healed: dict[str, int] = {}
        for e in r.events:
            if e.kind is EventKind.EFFECT and e.outcome == "healed":
                healed[str(e.target)] = healed.get(str(e.target), 0) + e.amount
        for f in r.figures:
            assert f.hit_points <= hp[f.name] + healed.get(f.name, 0)
            assert f.hit_points <= f.max_hit_points
            hp[f.name] = f.hit_points
    fallen: dict[str, tuple[int, int]] = {}
    dying: set[tuple[str, int]] = set()
    for e in fight.events:
        if e.kind is EventKind.DYING_BLOW and e.outcome == "saved":
            dying.add((e.actor, e.round))
        if e.kind in ACTS and e.actor in fallen and (e.round, e.tick) > fallen[e.actor]:
            assert (e.actor, e.round) in dying, (e.actor, e.round, e.tick, fallen[e.actor])
        if e.kind is EventKind.FALL:
            fallen.setdefault(e.actor, (e.round, e.tick))
        if e.kind is EventKind.RECOVER:  # a spell's sleep or hold ended: it is back in the fight
            fallen.pop(e.actor, None)
    again = run_fight(encounter, system, seed=seed, options=options)
    assert again.events == fight.events
    assert outcome(run_fight(encounter, system, seed=seed, options=options, explain=False)) == outcome(fight)
