"""Every roll of every round of a fight can be entered, under a key the referee can write before the round is
placed (#46 item 7): a timing roll as ``<key> [round <r>]``, a resolved roll by its count in the round,
``<what>: <name> [round <r>, #<n>]`` (``[round <r>]`` for the first), as docs/engine.md's roll-key table says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from combatkit import load_example
from combatkit.dice import UnknownRollError
from combatkit.fight import round_rolls, run_fight

EXAMPLE = "fighter-and-mage-vs-orc-archer"  # written for Phase System I


def rolls_of(fight, r):
    return {roll.purpose: (roll.total, roll.entered) for roll in fight.rounds[r - 1].timeline.rolls}


def test_a_later_round_s_initiative_is_entered_by_its_round():
    encounter = load_example(EXAMPLE)
    plain = run_fight(encounter, seed=3)
    assert plain.round_count >= 2
    seeded = rolls_of(plain, 2)
    wanted = {side: 10 if seeded[f"initiative: {side}"][0] != 10 else 1 for side in ("party", "orcs")}
    entered = replace(encounter, rolls={**encounter.rolls,
                                        **{f"initiative: {side} [round 2]": n for side, n in wanted.items()}})
    fight = run_fight(entered, seed=3)
    assert {side: rolls_of(fight, 2)[f"initiative: {side}"] for side in wanted} == {
        side: (n, True) for side, n in wanted.items()}
    assert rolls_of(fight, 1) == rolls_of(plain, 1)  # round 1 keeps the file's own dice


def test_a_resolved_roll_is_entered_by_its_count_in_the_round_whatever_its_tick():
    encounter = load_example(EXAMPLE)
    plain = run_fight(encounter, seed=3)
    attacks = [(p, t) for p, (t, _) in rolls_of(plain, 1).items() if p.startswith("attack roll: Brienne [round 1")]
    assert attacks, "Brienne attacks in round 1"
    purpose, total = attacks[0]
    other = 20 if total != 20 else 1
    fight = run_fight(replace(encounter, rolls={**encounter.rolls, "attack roll: Brienne [round 1]": other}), seed=3)
    assert rolls_of(fight, 1)[purpose] == (other, True)
    again = run_fight(replace(encounter, rolls={**encounter.rolls, "attack roll: Brienne [round 1, #1]": other}),
                      seed=3)
    assert rolls_of(again, 1)[purpose] == (other, True)


def test_two_attacks_on_one_count_are_entered_each_by_its_number():
    """The short form strikes all of a figure's attacks on its count (002 III.B): one tick, two rolls, each of
    which the referee enters by its number."""
    encounter = load_example("short-form-spear-web-and-ready-bow")
    plain = run_fight(encounter, seed=1)
    kell = [roll for roll in plain.rounds[0].timeline.rolls if roll.purpose.startswith("attack roll: Kell [round 1")]
    assert len(kell) == 2 and kell[0].purpose == kell[1].purpose  # one tick: the tick key names both
    fight = run_fight(replace(encounter, rolls={**encounter.rolls, "attack roll: Kell [round 1, #1]": 2,
                                                "attack roll: Kell [round 1, #2]": 19}), seed=1)
    assert [(r.total, r.entered) for r in fight.rounds[0].timeline.rolls
            if r.purpose.startswith("attack roll: Kell [round 1")] == [(2, True), (19, True)]


def test_a_misspelled_round_key_is_refused_by_name():
    encounter = load_example(EXAMPLE)
    with pytest.raises(UnknownRollError, match="initative: party \\[round 2\\]"):
        run_fight(replace(encounter, rolls={**encounter.rolls, "initative: party [round 2]": 3}), seed=3)


def test_round_rolls_takes_a_round_s_own_keys_and_round_one_the_plain_ones():
    rolls = {"initiative: party": 4, "initiative: orcs [round 1]": 2, "initiative: party [round 3]": 9,
             "attack roll: A [round 3, #2]": 17}
    assert round_rolls(rolls, 1) == {"initiative: party": 4, "initiative: orcs": 2}
    assert round_rolls(rolls, 3) == {"initiative: party": 9}
    assert round_rolls(rolls, 2) == {}
