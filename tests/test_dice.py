"""Dice notation, seeded rolls, and numbers the referee rolled at the table."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combatkit import Dice, DiceNotationError, EnteredRollError, MissingRollError, Roller
from combatkit.dice import face
from combatkit.systems.base import TableRoller


@pytest.mark.parametrize(("text", "dice"), [
    ("d10", Dice(1, 10)), ("2d6", Dice(2, 6)), ("3d4+1", Dice(3, 4, 1)), ("d12", Dice(1, 12)),
    ("1d20-2", Dice(1, 20, -2)), (" 2 D 8 + 3 ", Dice(2, 8, 3)),
])
def test_standard_notation(text, dice):
    assert Dice.parse(text) == dice
    assert Dice.parse(str(dice)) == dice


@pytest.mark.parametrize("text", ["", "d", "2x6", "d1", "0d6", "d6+", "3d4+1d6", "ten", "101d6", "d6*2"])
def test_malformed_notation_names_the_value(text):
    with pytest.raises(DiceNotationError) as err:
        Dice.parse(text)
    assert isinstance(err.value, ValueError)
    assert repr(text) in str(err.value) or text.strip().lstrip("0123456789") in str(err.value)


def test_exact_distribution():
    dist = Dice.parse("3d4+1").distribution()
    assert sum(dist.values()) == 1
    assert min(dist) == 4 and max(dist) == 13
    assert dist[4] == Fraction(1, 64)
    assert Dice.parse("2d6").distribution()[7] == Fraction(6, 36)


def test_same_seed_same_rolls_and_an_injected_rng():
    a = [Roller(seed=5).roll("2d6", "x").faces for _ in range(3)]
    assert len(set(a)) == 1
    rng = random.Random(5)
    assert Roller(rng=rng).roll("2d6", "x").faces == a[0]


def test_a_face_is_what_randint_gives_from_the_same_generator():
    # face() draws as random.Random.randint draws (CPython's _randbelow): the fights' dice are the ones the
    # recorded digests were made with, on this Python and the next. Every die the seeds use, and awkward sizes.
    for sides in (1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 7, 1000, 2**31 + 1):
        ours, theirs = random.Random(sides), random.Random(sides)
        assert [face(ours, sides) for _ in range(500)] == [theirs.randint(1, sides) for _ in range(500)]
        assert ours.getstate() == theirs.getstate()


def test_a_random_subclass_draws_its_own_way_through_face():
    class Loaded(random.Random):
        def randint(self, a, b):
            return b

    assert [face(Loaded(1), 6) for _ in range(3)] == [6, 6, 6]
    assert Roller(rng=Loaded(1)).roll("2d6", "x").faces == (6, 6)


def test_referee_entered_values_win_and_are_checked():
    roller = Roller(seed=1, entered={"init": 10, "blows": (2, 5)})
    assert roller.roll("d10", "init").total == 10 and roller.log[-1].entered
    blows = roller.roll("2d6", "blows")
    assert blows.faces == (2, 5) and blows.total == 7
    with pytest.raises(EnteredRollError, match="init: d10 rolls 1..10, so 11 cannot have been rolled"):
        Roller(entered={"init": 11}).roll("d10", "init")
    with pytest.raises(EnteredRollError, match="needs 2 face"):
        Roller(entered={"blows": (2,)}).roll("2d6", "blows")
    with pytest.raises(EnteredRollError, match="whole number"):
        Roller(entered={"init": "7"}).roll("d10", "init")


def test_a_roll_with_no_entry_and_no_seed_asks_for_one():
    with pytest.raises(MissingRollError, match="'initiative: orcs' \\(d10\\)"):
        Roller().roll("d10", "initiative: orcs")


@given(seed=st.integers(0, 2**32), dice=st.lists(st.sampled_from(["d6", "d10", "2d6", "d20"]), min_size=2, max_size=6),
       which=st.integers(0, 5), data=st.data())
def test_entering_one_roll_leaves_every_other_seeded_roll_as_it_was(seed, dice, which, data):
    """#45: a number entered for one roll never changes another roll of the same run (an entered roll
    still takes its draw from the seed, so every later seeded roll stays where it was)."""
    which %= len(dice)
    purposes = [f"roll {i}" for i in range(len(dice))]
    spec = Dice.parse(dice[which])
    value = data.draw(st.integers(spec.minimum, spec.maximum))
    seeded = Roller(seed=seed)
    before = [seeded.roll(d, p).total for d, p in zip(dice, purposes)]
    roller = Roller(seed=seed, entered={purposes[which]: value})
    after = [roller.roll(d, p) for d, p in zip(dice, purposes)]
    assert [r.total for r in after] == [value if i == which else t for i, t in enumerate(before)]
    assert [r.entered for r in after] == [i == which for i in range(len(dice))]


def test_a_number_entered_by_dice_leaves_the_other_seeded_rolls_as_they_were():
    """#45, the dashboards' roller: the party's d10 entered, the goblins' d10 is what the seed rolled."""
    seeded = [TableRoller(seed=3).roll("d10", f"initiative: {side}").total for side in ("party", "goblins")]
    other = 1 if seeded[0] != 1 else 2
    table = TableRoller(seed=3, by_dice={("initiative: party", "d10"): other})
    assert [table.roll("d10", f"initiative: {side}").total for side in ("party", "goblins")] == [other, seeded[1]]


@given(seed=st.integers(0, 2**32), purposes=st.permutations([f"roll {i}" for i in range(5)]))
def test_the_dashboards_roller_gives_each_purpose_its_number_whatever_the_order_asked(seed, purposes):
    """#45: a page's round may ask for its rolls in another order once a number is entered (a Segment of Action
    d10 that changes who swings first); each roll the seed makes keeps its number all the same."""
    in_order = {p: TableRoller(seed=seed).roll("2d6", p).faces for p in sorted(purposes)}
    shuffled = TableRoller(seed=seed)
    assert {p: shuffled.roll("2d6", p).faces for p in purposes} == in_order


def test_entering_any_box_of_a_segment_of_action_round_moves_no_other_box():
    """#45 item 3 on the page that broke it: every roll of the Segment of Action's example, entered in turn with
    another number, leaves every other roll the round makes as the seed gave it."""
    from combatkit import find_system, load_example

    system = find_system("segments")
    for name in ("segments-fighters-vs-giant-and-orcs", "fighter-and-mage-vs-orc-archer"):
        encounter = load_example(name)
        plain = {r.purpose: r.total for r in system.schedule(encounter, TableRoller(seed=5)).rolls}
        assert len(plain) > 3
        for purpose, total in plain.items():
            dice = next(r.dice for r in system.schedule(encounter, TableRoller(seed=5)).rolls if r.purpose == purpose)
            other = dice.minimum if total != dice.minimum else dice.maximum
            rolls = system.schedule(encounter, TableRoller(seed=5, entered={purpose: other})).rolls
            moved = {r.purpose: (plain[r.purpose], r.total) for r in rolls
                     if r.purpose != purpose and r.purpose in plain and r.total != plain[r.purpose]}
            assert not moved, f"{name}: entering {purpose} = {other} moved {moved}"


def test_a_roll_says_what_it_is_for_and_whom_for_without_its_key_taken_apart_by_a_view():
    """#47: a view reads a roll's ``what`` and ``subject``; the engine's one reader of its keys (``key_parts``, the
    inverse of ``roll_key``) finds them, for every roll every system makes of every shipped example, in a round and
    in a fight (a fight's keys name their round)."""
    from combatkit import example_encounters, load_example
    from combatkit.dice import Roll, key_parts, roll_key
    from combatkit.fight import FightOptions, run_fight
    from combatkit.systems import SYSTEMS

    assert key_parts(roll_key("segment", "Ugluk", "step 1")) == ("segment", "Ugluk")
    assert key_parts(roll_key("initiative", "party")) == ("initiative", "party") and key_parts("x") == ("x", "")
    roll = Roll(Dice(1, 20), "damage, extra half die: Kell [round 2, tick 5]", 7, (7,), entered=False)
    assert (roll.what, roll.subject) == ("damage, extra half die", "Kell")
    seen = 0
    for name in example_encounters():
        encounter = load_example(name)
        whom = {c.name for c in encounter.combatants} | set(encounter.sides)
        for system in SYSTEMS.values():
            try:
                rounds = [system.schedule(encounter)]
            except ValueError:
                continue
            fight = run_fight(encounter, system.id, seed=1, options=FightOptions(max_rounds=2))
            rounds += [r.timeline for r in fight.rounds]
            for timeline in rounds:
                for r in timeline.rolls:
                    assert r.subject in whom and r.purpose.startswith(f"{r.what}: {r.subject}"), r.purpose
                    seen += 1
    assert seen > 500
