"""Critical hits and misses: 000 §4 Tables I, 000 §4 Severity Rules II, 004.

The seed's tables are transcribed here a second time, independently of the data files,
and every worked example of the seeds is a test. Exact odds are checked two ways: against
an exhaustive enumeration of every roll ``resolve_attack`` can consume, and against a
seeded Monte Carlo of ``resolve_attack`` with a tolerance from the standard error.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combatkit.attack import (
    AttackForm,
    Attacker,
    CriticalOptions,
    Defender,
    ListedBonus,
    Misfire,
    OutOfRangeError,
    RerollMinimum,
    RuleSet,
    StrengthSplit,
    UnknownRuleSetError,
    find_rule_set,
    missile_adjustment,
    setup_attack,
    strength_damage_000_ii,
    strength_row,
)
from combatkit.criticals import (
    CONDITIONS,
    CRITICAL_HIT_EFFECTS,
    CRITICAL_HIT_TABLE,
    CRITICAL_MISS_EFFECTS,
    CRITICAL_MISS_TABLE,
    Duration,
    ImpossibleRollError,
    Outcome,
    Until,
    Who,
    attack_odds,
    resolve_attack,
    severe_miss_penalty,
)
from combatkit.dice import Dice, EnteredRollError, Roll, Roller
from combatkit.errors import IllegalActionError, RulesError
from combatkit.model import Abilities, Combatant, Weapon, WeaponKind
from combatkit.stances import CombatManeuver, Role, Shield, Stance, maneuver_penalty_limit

SWORD = Weapon("long sword", 5, magic_bonus=1, damage="d8")


def entered(attacker: Attacker, defender: Defender, rule_set: str, rolls: dict, options=CriticalOptions()):
    """Resolve with the rolls entered by the referee, keyed by what they are for."""
    return resolve_attack(
        attacker, defender, rule_set,
        Roller(entered={f"{k}: {attacker.name}": v for k, v in rolls.items()}), options=options,
    )  # fmt: skip


def durations(result, condition_id):
    return [i.duration for i in result.conditions if i.condition.id == condition_id]


# ================================================================ 000 §4 Tables I

# Needed 9: THAC0 20, +1 magic, AC 10. Flat damage +1 (magic).
FIGHTER = Attacker("Aldric", SWORD, thac0=20)
ORC = Defender("orc", armor_class=10)

# 000 §4 Critical Hit table, transcribed from the seed: d10 faces -> (damage entered,
# damage expected, condition on the opponent, phases it lasts past this one, extra attacks).
#   1-4 DOUBLE BASE DAMAGE, reroll minimums, DAZED until end of phase
#   5-6 DOUBLE BASE DAMAGE, best of two rolls, DAZED until end of following phase
#   7-8 DOUBLE MAXIMUM BASE DAMAGE, STUNNED through the following phase
#   9   DOUBLE MAXIMUM TOTAL DAMAGE, STUNNED through the following phase, 1 extra attack now
#   10  DOUBLE MAXIMUM TOTAL DAMAGE, stunned through the next 2 phases, 1 now + 1 free next phase
SEED_CRITICAL_HITS = {
    1: ({"damage": 3}, 2 * 3 + 1, "dazed", 0, []),
    2: ({"damage": 1, "damage, reroll die 1": 5}, 2 * 5 + 1, "dazed", 0, []),
    3: ({"damage": 8}, 2 * 8 + 1, "dazed", 0, []),
    4: ({"damage": 2}, 2 * 2 + 1, "dazed", 0, []),
    5: ({"damage": 3, "damage, second roll": 6}, 2 * 6 + 1, "dazed", 1, []),
    6: ({"damage": 7, "damage, second roll": 2}, 2 * 7 + 1, "dazed", 1, []),
    7: ({}, 2 * 8 + 1, "stunned", 1, []),
    8: ({}, 2 * 8 + 1, "stunned", 1, []),
    9: ({}, 2 * (8 + 1), "stunned", 1, [0]),
    10: ({}, 2 * (8 + 1), "stunned", 2, [0, 1]),
}


@pytest.mark.parametrize("face", range(1, 11))
def test_every_critical_hit_row(face):
    rolls, damage, condition, lasts, extra = SEED_CRITICAL_HITS[face]
    result = entered(FIGHTER, ORC, "000-I", {"attack roll": 20, "critical hit table": face, **rolls})
    assert result.outcome is Outcome.CRITICAL_HIT
    assert result.damage == damage
    assert [(i.who, i.condition.id, i.duration) for i in result.conditions] == [
        (Who.DEFENDER, condition, Duration(Until.END_OF_PHASE, count=lasts))
    ]
    assert [e.starts for e in result.extra_attacks] == extra
    assert all("000 §4" in s.rule or "DMG" in s.rule for s in result.steps)


def test_critical_hit_table_data_matches_the_seed():
    assert [(r.label, r.dice.value, r.double.value) for r in CRITICAL_HIT_TABLE] == [
        ("1-4", "reroll_minimum", "base"), ("5-6", "best_of_two", "base"), ("7-8", "maximum", "base"),
        ("9", "maximum", "total"), ("10", "maximum", "total"),
    ]  # fmt: skip
    assert CRITICAL_HIT_TABLE[0].text.startswith("DOUBLE BASE DAMAGE. Reroll all minimum rolls.")


def test_critical_miss_table_data_matches_the_seed():
    assert [(r.label, r.name, r.lasts and str(r.lasts)) for r in CRITICAL_MISS_TABLE] == [
        ("1-4", "misstep", None), ("5-6", "fumble", None), ("7-8", "fall to knees", None),
        ("9", "prone", "d2+1"), ("10", "sprawling weapon fling", "d3+2"),
    ]  # fmt: skip
    assert [r.title for r in RuleSet] == [
        "Combat II: Critical Hit and Miss Tables I", "Combat II: Critical Hit and Miss II, Severity Rules",
        "Stances, critical hits and misses (004)"]


def test_dazed_and_stunned_as_the_seed_prints_them():
    # "(-2 to attack rolls, +1 to AC)" and "(no attacks, +4 to AC)"
    dazed, stunned = CONDITIONS["dazed"], CONDITIONS["stunned"]
    assert (dazed.attack_modifier, dazed.ac_modifier, dazed.can_attack) == (-2, 1, True)
    assert (stunned.can_attack, stunned.ac_modifier) == (False, 4)


def test_severe_hit_beats_the_number_by_ten():
    # 000 §4 Severe Hit: needed 9, a 19 beats it by 10: best of two damage rolls, dazed.
    result = entered(FIGHTER, ORC, "000-I", {"attack roll": 19, "damage": 3, "damage, second roll": 6})
    assert result.outcome is Outcome.SEVERE_HIT
    assert result.damage == 6 + 1
    assert [(i.condition.id, i.duration) for i in result.conditions] == [("dazed", Duration())]
    assert entered(FIGHTER, ORC, "000-I", {"attack roll": 18, "damage": 3}).outcome is Outcome.HIT


def test_immediate_extra_attack_sees_the_stunned_opponent():
    # Row 9: "include opponent's +4 AC penalty"
    result = entered(FIGHTER, ORC, "000-I", {"attack roll": 20, "critical hit table": 9})
    follow_up = setup_attack(FIGHTER, result.defender_now(), "000-I")
    assert follow_up.needed == result.needed - 4


def test_reroll_minimum_until_above_and_severe_stacking_options():
    options = CriticalOptions(reroll_minimum=RerollMinimum.UNTIL_ABOVE)
    rolls = {"attack roll": 20, "critical hit table": 1, "damage": 1, "damage, reroll die 1": 1,
             "damage, reroll die 1 again (2)": 4}  # fmt: skip
    assert entered(FIGHTER, ORC, "000-I", rolls, options).damage == 2 * 4 + 1
    assert entered(FIGHTER, ORC, "000-I", rolls).damage == 2 * 1 + 1  # the default rerolls once
    stacked = {"attack roll": 20, "critical hit table": 1, "damage": 2, "damage, second roll": 7}
    assert entered(FIGHTER, ORC, "000-I", stacked, CriticalOptions(severe_hit_with_critical=True)).damage == 15
    assert entered(FIGHTER, ORC, "000-I", stacked).damage == 5


def test_reroll_minimum_needs_the_faces_of_several_dice():
    axe = Attacker("Brom", Weapon("two-handed sword", 10, damage="3d6"))
    with pytest.raises(RulesError, match="enter each die's face"):
        entered(axe, ORC, "000-I", {"attack roll": 20, "critical hit table": 1, "damage": 9})
    result = entered(axe, ORC, "000-I", {"attack roll": 20, "critical hit table": 1, "damage": (1, 4, 1),
                                         "damage, reroll die 1": 6, "damage, reroll die 3": 2})  # fmt: skip
    assert result.damage == 2 * (6 + 4 + 2)


# 000 §4 Critical Miss table, transcribed from the seed.
#   1-4 MISSTEP: lose movement this phase; AGI check or +2 SF and -1 to hit next phase
#   5-6 FUMBLE: lose movement; DEX check failure = weapon dropped or skewed; AGI or misstep next phase
#   7-8 FALL TO KNEES: lose attacks through next phase, AC +2; DEX-1 or weapon dropped/skewed
#   9   PRONE: 2-3 phases, DEX-2 per item held, no attacks/movement, AC +4, AGI at the end
#       or fall to knees; stationary and defenseless for the first phase
#   10  SPRAWLING WEAPON FLING: 3-5 phases, no attacks/movement, AC +4, items tumble 1d12 ft,
#       AGI at the end or fall to knees; defenseless for the first 3 phases
CLUMSY = Attacker("Clumsy", SWORD, dexterity=12)


@pytest.mark.parametrize("face", [1, 2, 3, 4])
def test_misstep(face):
    passed = entered(CLUMSY, ORC, "000-I", {"attack roll": 1, "critical miss table": face, "AGI check (misstep)": 12})
    assert passed.outcome is Outcome.CRITICAL_MISS and passed.ends_attack_sequence
    assert [(i.condition.id, i.duration) for i in passed.conditions] == [("no_movement", Duration())]
    failed = entered(CLUMSY, ORC, "000-I", {"attack roll": 1, "critical miss table": face, "AGI check (misstep)": 13})
    assert durations(failed, "misstep") == [Duration(starts=1, count=1)]
    misstep = CONDITIONS["misstep"]
    assert (misstep.sf_modifier, misstep.attack_modifier) == (2, -1)


@pytest.mark.parametrize("face", [5, 6])
def test_fumble(face):
    rolls = {"attack roll": 1, "critical miss table": face, "DEX check (fumble)": 13,
             "AGI check (misstep next phase)": 13, "AGI check (misstep)": 20}  # fmt: skip
    result = entered(CLUMSY, ORC, "000-I", rolls)
    assert [str(e) for e in result.items] == ["long sword: dropped or skewed (the referee says which)"]
    assert durations(result, "no_movement") == [Duration(), Duration(starts=1, count=1)]  # this phase, and next
    assert durations(result, "misstep") == [Duration(starts=2, count=2)]  # the misstep's own AGI check failed
    steady = entered(CLUMSY, ORC, "000-I", {**rolls, "DEX check (fumble)": 12, "AGI check (misstep next phase)": 12})
    assert steady.items == () and durations(steady, "no_movement") == [Duration()]


@pytest.mark.parametrize("face", [7, 8])
def test_fall_to_knees(face):
    rolls = {"attack roll": 1, "critical miss table": face, "DEX-1 check (fall to knees)": 11}
    kept = entered(CLUMSY, ORC, "000-I", rolls)
    assert durations(kept, "kneeling") == [Duration(count=1)] and kept.items == ()
    assert (CONDITIONS["kneeling"].can_attack, CONDITIONS["kneeling"].ac_modifier) == (False, 2)
    lost = entered(CLUMSY, ORC, "000-I", {**rolls, "DEX-1 check (fall to knees)": 12})
    assert [e.item for e in lost.items] == ["long sword"]


def test_prone():
    holding = replace(CLUMSY, shield=Shield.SHIELD)
    rolls = {"attack roll": 1, "critical miss table": 9, "prone length": 2, "DEX-2 check (long sword)": 10,
             "DEX-2 check (shield)": 11, "AGI check (regain footing)": 13,
             "DEX-1 check (fall to knees)": 1}  # fmt: skip
    result = entered(holding, ORC, "000-I", rolls)
    assert durations(result, "prone") == [Duration(count=1)]  # 2 phases: this one and the next
    assert durations(result, "defenseless") == [Duration()]  # the first phase
    assert [e.item for e in result.items] == ["shield"]  # DEX-2 = 10: a 10 keeps it, an 11 drops it
    assert durations(result, "kneeling") == [Duration(starts=2, count=2)]  # failed AGI: fall to knees after
    prone = CONDITIONS["prone"]
    assert (prone.can_attack, prone.can_move, prone.ac_modifier) == (False, False, 4)
    later = entered(holding, ORC, "000-I", rolls, CriticalOptions(periods_include_current_phase=False))
    assert durations(later, "prone") == [Duration(starts=1, count=2)]


def test_sprawling_weapon_fling():
    rolls = {"attack roll": 1, "critical miss table": 10, "sprawling weapon fling length": 4,
             "long sword tumbles": 7, "AGI check (regain footing)": 20}  # fmt: skip
    result = entered(CLUMSY, ORC, "000-I", rolls)
    assert durations(result, "prone") == [Duration(count=3)]  # 4 phases
    assert durations(result, "defenseless") == [Duration(count=2)]  # the first 3 phases
    assert [(e.item, e.feet) for e in result.items] == [("long sword", 7)]
    assert durations(result, "kneeling") == [Duration(starts=4, count=4)]
    assert any("already gone" in s.text for s in result.steps)  # no DEX-1 check for a flung sword


def test_missile_misfire():
    dagger = Attacker("Pip", Weapon("dagger", 2, damage="d4"), form=AttackForm.THROWN)
    thrown = entered(dagger, ORC, "000-I", {"attack roll": 1})
    assert thrown.table_row == "MW" and [(e.item, e.feet) for e in thrown.items] == [("dagger", 1)]
    bow = Attacker("Lira", Weapon("long bow", 8, kind=WeaponKind.MISSILE, damage="d6"), form="bow")
    result = entered(bow, ORC, "000-I", {"attack roll": 1, "bowstring breaks": 50, "missile breaks": 51})
    assert [str(e) for e in result.items] == ["bowstring: breaks"]
    both = entered(bow, ORC, "000-I", {"attack roll": 1, "bowstring breaks": 90, "missile breaks": 1,
                                       "critical miss table": 1, "AGI check (misstep)": 1},
                   CriticalOptions(missile_misfire=Misfire.ALSO))  # fmt: skip
    assert both.table_row == "MW, 1-4" and [str(e) for e in both.items] == ["missile: breaks"]


def test_critical_table_odds():
    odds = attack_odds(FIGHTER, ORC, "000-I")
    assert odds.critical_hit_rows == {"1-4": Fraction(4, 200), "5-6": Fraction(2, 200), "7-8": Fraction(2, 200),
                                      "9": Fraction(1, 200), "10": Fraction(1, 200)}  # fmt: skip
    assert odds.critical_miss_rows == {"1-4": Fraction(4, 200), "5-6": Fraction(2, 200), "7-8": Fraction(2, 200),
                                       "9": Fraction(1, 200), "10": Fraction(1, 200)}  # fmt: skip
    # needed 9: 9..18 hit, 19 and 20 are 10+ over (20 goes to the table instead)
    assert odds.outcomes == {"critical miss": Fraction(1, 20), "severe miss": 0, "miss": Fraction(7, 20),
                             "hit": Fraction(10, 20), "severe hit": Fraction(1, 20),
                             "critical hit": Fraction(1, 20)}  # fmt: skip


# ================================================================ 000 §4 Severity Rules II

# PH 2e Table 1, transcribed again: (STR, exceptional) -> (to hit, damage) and the
# Severity II damage bonus "damage column minus to-hit column, keeping +1 or below as is".
STRENGTH = {
    (1, None): (-5, -4, -4), (2, None): (-3, -2, -2), (3, None): (-3, -1, -1), (4, None): (-2, -1, -1),
    (5, None): (-2, -1, -1), (6, None): (-1, 0, 0), (7, None): (-1, 0, 0), (8, None): (0, 0, 0),
    (15, None): (0, 0, 0), (16, None): (0, 1, 1), (17, None): (1, 1, 1), (18, None): (1, 2, 1),
    (18, 1): (1, 3, 2), (18, 50): (1, 3, 2), (18, 51): (2, 3, 1), (18, 75): (2, 3, 1), (18, 76): (2, 4, 2),
    (18, 90): (2, 4, 2), (18, 91): (2, 5, 3), (18, 99): (2, 5, 3), (18, 100): (3, 6, 3), (19, None): (3, 7, 4),
    (20, None): (3, 8, 5), (21, None): (4, 9, 5), (22, None): (4, 10, 6), (23, None): (5, 11, 6),
    (24, None): (6, 12, 6), (25, None): (7, 14, 7),
}  # fmt: skip


@pytest.mark.parametrize(("score", "exceptional"), list(STRENGTH))
def test_strength_table_and_the_severity_split(score, exceptional):
    hit, damage, split = STRENGTH[(score, exceptional)]
    row = strength_row(score, exceptional)
    assert (row.hit, row.damage) == (hit, damage)
    assert strength_damage_000_ii(row) == split


def test_the_seeds_18_99_example():
    # 000 §4 Severity II, STRENGTH: "18/99 ... +2/+5 under 2nd ed rules ... he'd get +2/+3 (5 - 2)"
    fighter = Attacker("Hrolf", Weapon("long sword", 5, damage="d8"), strength=18, exceptional=99)
    ph = setup_attack(fighter, ORC, "000-I")
    severity = setup_attack(fighter, ORC, "000-II")
    assert (ph.to_hit_bonus, ph.damage_bonus) == (2, 5)
    assert (severity.to_hit_bonus, severity.damage_bonus) == (2, 3)
    other = StrengthSplit.TO_HIT_AT_MOST_1
    assert strength_damage_000_ii(strength_row(18, 99), other) == 3  # both readings agree on the example
    assert [strength_damage_000_ii(strength_row(18, e), other) for e in (None, 1)] == [2, 3]


# 000 §4 Severe Miss, Example 1: "a mage needs a 17 to hit with a quarterstaff (sf 4), and
# rolls a 10. Anything over 12 would have been at no penalty, but in this case 2 points are
# added to the next attack's sf. If a 6 were rolled, the penalty would nevertheless not exceed +4."
MAGE = Attacker("Mirela", Weapon("quarterstaff", 4, damage="d6"), thac0=20, role=Role.OTHER)
NEEDS_17 = Defender("guard", armor_class=3)


@pytest.mark.parametrize(("rolled", "penalty", "outcome"), [
    (10, 2, Outcome.SEVERE_MISS), (6, 4, Outcome.SEVERE_MISS), (5, 4, Outcome.SEVERE_MISS),
    (11, 1, Outcome.SEVERE_MISS), (12, 0, Outcome.MISS), (13, 0, Outcome.MISS), (16, 0, Outcome.MISS),
])  # fmt: skip
def test_severe_miss_example_1(rolled, penalty, outcome):
    result = entered(MAGE, NEEDS_17, "000-II", {"attack roll": rolled})
    assert result.needed == 17
    assert (result.sf_penalty, result.outcome) == (penalty, outcome)
    assert severe_miss_penalty(17, rolled, 4) == penalty
    if penalty:
        (imposed,) = result.conditions
        assert imposed.condition.sf_modifier == penalty
        assert imposed.duration == Duration(count=2, or_next_attack=True)  # next strike, at most 3 phases


def test_severe_miss_example_2_caps_at_the_base_sf():
    # "A thief attacks with a +2 longsword (its sf adjusted downward from 5 to 2, counting dex
    # bonus of +1 and magic of +2). Despite the sf 2, a penalty of up to +5 may be incurred,
    # raising the weapon to its slowest speed of sf 7."
    thief = Attacker("Vex", Weapon("long sword", 5, magic_bonus=2, damage="d8"), thac0=20, role=Role.OTHER)
    result = entered(thief, Defender("guard", armor_class=2), "000-II", {"attack roll": 2})
    assert result.needed == 16
    adjusted_sf = thief.weapon.speed_factor - thief.weapon.magic_bonus - 1  # dex bonus +1
    assert adjusted_sf == 2
    assert result.sf_penalty == 5 and adjusted_sf + result.sf_penalty == 7


def test_critical_miss_has_no_cap_and_costs_agility():
    thief = Attacker("Vex", Weapon("long sword", 5, magic_bonus=2, damage="d8"), thac0=20, role=Role.OTHER)
    result = entered(thief, Defender("guard", armor_class=2), "000-II", {"attack roll": 1})
    assert result.outcome is Outcome.CRITICAL_MISS and result.sf_penalty == 16 - 5 - 1
    assert durations(result, "no_agility_bonus") == [Duration(count=3, or_next_attack=True)]


def test_severe_hit_adds_a_point_per_point_over_and_natural_20_is_maximum():
    hrolf = Attacker("Hrolf", Weapon("long sword", 5, magic_bonus=2, damage="d8"), strength=18, exceptional=99)
    # needed: 20 - 2 (STR) - 2 (magic) - AC 5 = 11; damage adds STR +3 only (magic goes to THAC0)
    assert entered(hrolf, Defender(armor_class=5), "000-II", {"attack roll": 11, "damage": 4}).damage == 4 + 3
    assert entered(hrolf, Defender(armor_class=5), "000-II", {"attack roll": 16, "damage": 4}).damage == 4 + 3 + 5
    natural_20 = entered(hrolf, Defender(armor_class=5), "000-II", {"attack roll": 20})
    assert (natural_20.outcome, natural_20.damage) == (Outcome.CRITICAL_HIT, 8 + 3 + 9)
    with_magic = CriticalOptions(magic_damage_000_ii=True)
    assert entered(hrolf, Defender(armor_class=5), "000-II", {"attack roll": 11, "damage": 4}, with_magic).damage == 9


def test_no_damage_cap():
    titan = Attacker("Titan", Weapon("club", 4, damage="d6"), thac0=1, strength=25)
    result = entered(titan, Defender(armor_class=10), "000-II", {"attack roll": 19, "damage": 6})
    assert result.damage == 6 + 7 + (19 - (1 - 7 - 10))


def test_creature_with_listed_damage_bonus():
    giant = Attacker("Hill giant", Weapon("club", 4, damage="2d6"), thac0=9, role=Role.MONSTER, listed_damage_bonus=7)
    full = setup_attack(giant, ORC, "000-II")
    half = setup_attack(giant, ORC, "000-II", options=CriticalOptions(listed_damage_bonus=ListedBonus.HALF_TO_HIT))
    assert (full.to_hit_bonus, full.damage_bonus) == (0, 7)
    assert (half.to_hit_bonus, half.damage_bonus) == (3, 4)  # half of 7 rounded down, and the rest


def test_specialization_slots():
    spec = Attacker("Ulf", Weapon("long sword", 5, damage="d8"), specialization_slots=3)
    assert [(m.value, m.label) for m in setup_attack(spec, ORC, "000-II").to_hit] == [(3, "specialization (3 slots)")]
    assert setup_attack(spec, ORC, "000-II").damage_bonus == 0
    ph = setup_attack(spec, ORC, "000-I")
    assert (ph.to_hit_bonus, ph.damage_bonus) == (1, 2)


@pytest.mark.parametrize(("form", "rules", "to_hit", "damage"), [
    (AttackForm.THROWN, "000-II", 3, 3),  # greater of STR +3 (18/00) and DEX +2; 000-II damage +3
    (AttackForm.STRENGTH_BOW, "000-II", 3, 3),
    (AttackForm.BOW, "000-II", 2, 0),  # DEX only, no STR damage bonus
    (AttackForm.CROSSBOW, "000-II", 2, 0),
    (AttackForm.THROWN, "000-I", 5, 6),  # PH: STR and DEX both, full STR damage
    (AttackForm.BOW, "004", 2, 0),
])  # fmt: skip
def test_missile_weapons_strength_or_dexterity(form, rules, to_hit, damage):
    thrown = form is AttackForm.THROWN
    weapon = Weapon("spear", 6, damage="d6") if thrown else Weapon("bow", 7, kind=WeaponKind.MISSILE)
    archer = Attacker("Ana", weapon, strength=18, exceptional=100, dexterity=17, form=form)
    setup = setup_attack(archer, ORC, rules)
    assert (setup.to_hit_bonus, setup.damage_bonus) == (to_hit, damage)
    assert missile_adjustment(17) == 2


def test_dex_wins_when_greater_for_thrown_weapons():
    archer = Attacker("Ana", Weapon("dagger", 2, damage="d4"), strength=17, dexterity=19, form="thrown")
    (term,) = setup_attack(archer, ORC, "000-II").to_hit
    assert term.value == 3 and "DEX 19" in term.label


# ================================================================ 004

BRUTE = Attacker("Brute", Weapon("broad sword", 5, damage="2d4"), thac0=15, strength=17, stance=Stance.FULL_ATTACK)


def test_natural_20_that_hits_is_maximum_damage():
    result = entered(BRUTE, ORC, "004", {"attack roll": 20})
    assert (result.outcome, result.damage, result.body_points) == (Outcome.CRITICAL_HIT, 8 + 1, 0)
    hopeless = Attacker("Weakling", Weapon("dagger", 2, damage="d4"), thac0=20, strength=3)
    plate = Defender(armor_class=-5)  # needs 28
    lucky = entered(hopeless, plate, "004", {"attack roll": 20})
    assert lucky.outcome is Outcome.CRITICAL_HIT and "always hits" in lucky.steps[1].text
    literal = CriticalOptions(natural_20_always_hits=False)
    assert entered(hopeless, plate, "004", {"attack roll": 20}, literal).outcome is Outcome.MISS


def test_body_points_option():
    options = CriticalOptions(body_points=True)
    pc = Defender("Sir Hugh", armor_class=5, role=Role.FIGHTER)
    assert entered(BRUTE, pc, "004", {"attack roll": 20}, options).body_points == 2  # 2d4: two dice
    monster = entered(BRUTE, ORC, "004", {"attack roll": 20, "damage, extra roll": 3}, options)
    assert monster.damage == (8 + 1) + (3 + 1) and monster.body_points == 0
    imposed = [(i.condition.id, i.duration.until) for i in monster.conditions]
    assert imposed == [("loses_next_attack", Until.NEXT_ATTACK)]
    bare = replace(options, monster_extra_roll_with_modifiers=False)
    assert entered(BRUTE, ORC, "004", {"attack roll": 20, "damage, extra roll": 3}, bare).damage == 9 + 3


def test_fighters_critical_on_19_option():
    options = CriticalOptions(fighter_criticals_on_19=True)
    assert entered(BRUTE, ORC, "004", {"attack roll": 19}, options).outcome is Outcome.CRITICAL_HIT
    assert entered(BRUTE, ORC, "004", {"attack roll": 19, "damage": 2}).outcome is Outcome.HIT
    ranger = replace(BRUTE, role=Role.WARRIOR)
    assert entered(ranger, ORC, "004", {"attack roll": 19, "damage": 2}, options).outcome is Outcome.HIT
    # THAC0 15, +1 STR, +2 Full Attack: AC -8 needs 20, so a natural 19 misses and is no critical
    assert setup_attack(BRUTE, Defender(armor_class=-8), "004").needed == 20
    assert entered(BRUTE, Defender(armor_class=-8), "004", {"attack roll": 19}, options).outcome is Outcome.MISS


def test_critical_hit_special_effects():
    options = CriticalOptions(critical_hit_effects=True)
    result = entered(BRUTE, ORC, "004", {"attack roll": 20}, options)  # 9 damage, STR 17: +1
    assert result.effects_chosen_by is Who.ATTACKER
    assert {e.id: e.feet for e in result.special_effects} == {
        "trip": None, "disarm": 4, "reposition": 5, "disorient": None, "hinder": None,
    }  # no Shield Slam without a shield
    with_shield = entered(replace(BRUTE, shield=Shield.SHIELD), ORC, "004", {"attack roll": 20}, options)
    assert "shield_slam" in {e.id for e in with_shield.special_effects}
    hinder = next(e for e in result.special_effects if e.id == "hinder")
    assert hinder.imposes[0].condition.movement_feet == 5
    assert hinder.imposes[0].duration == Duration(Until.END_OF_TURN, 1)
    for attacker in (replace(BRUTE, stance=Stance.STANDARD), replace(BRUTE, role=Role.OTHER),
                     replace(BRUTE, role=Role.MONSTER)):  # fmt: skip
        assert entered(attacker, ORC, "004", {"attack roll": 20}, options).special_effects == ()
    monster = replace(options, monsters_use_effects=True)
    assert entered(replace(BRUTE, role=Role.MONSTER), ORC, "004", {"attack roll": 20}, monster).special_effects
    assert entered(BRUTE, ORC, "004", {"attack roll": 20}).special_effects == ()  # optional rule off
    assert [e.name for e in CRITICAL_HIT_EFFECTS] == [
        "Trip", "Disarm", "Reposition", "Shield Slam", "Disorient", "Hinder"]


def test_critical_miss_special_effects():
    options = CriticalOptions(critical_miss_effects=True)
    guard = Defender("Sir Hugh", armor_class=3, role=Role.FIGHTER, level=6, stance=Stance.ACTIVE_DEFENSE)
    result = entered(BRUTE, guard, "004", {"attack roll": 1}, options)
    assert result.outcome is Outcome.CRITICAL_MISS and result.effects_chosen_by is Who.DEFENDER
    assert [e.name for e in result.special_effects] == [e.name for e in CRITICAL_MISS_EFFECTS] == [
        "Counterattack", "Disengage", "Blind", "Redirect Attack", "Feint", "Steal"]
    feint = next(e for e in result.special_effects if e.id == "feint")
    assert feint.imposes[0].condition.attack_modifier == -6 and feint.imposes[0].who is Who.ATTACKER
    blind = next(e for e in result.special_effects if e.id == "blind")
    assert blind.imposes[0].duration == Duration(Until.END_OF_ROUND, 1)
    assert next(e for e in result.special_effects if e.id == "counterattack").extra_attack
    standard = replace(guard, stance=Stance.STANDARD)
    assert entered(BRUTE, standard, "004", {"attack roll": 1}, options).special_effects == ()
    assert entered(BRUTE, replace(guard, role=Role.WARRIOR), "004", {"attack roll": 1}, options).special_effects == ()


# 004 Combat Stance, transcribed: attack, AC bonus (none / shield / large shield), strike
SEED_STANCES = {
    Stance.FULL_DEFENSE: (None, (2, 4, 6), -5),
    Stance.ACTIVE_DEFENSE: (-2, (1, 2, 2), -2),
    Stance.STANDARD: (0, (0, 0, 0), 0),
    Stance.ACTIVE_ATTACK: (1, (-1, -1, -1), 1),
    Stance.FULL_ATTACK: (2, (-2, -2, -2), 2),
}


@pytest.mark.parametrize("stance", list(Stance))
def test_stances(stance):
    attack_mod, ac, strike = SEED_STANCES[stance]
    assert stance.can_attack is (attack_mod is not None)
    if attack_mod is not None:
        assert stance.attack_modifier == attack_mod
        assert setup_attack(replace(BRUTE, stance=stance), ORC, "004").to_hit_bonus == 1 + attack_mod
    assert tuple(stance.ac_bonus(s) for s in (Shield.NONE, Shield.SHIELD, Shield.LARGE)) == ac
    assert stance.strike_modifier == strike
    for shield, bonus in zip(Shield, ac):
        defender = Defender(armor_class=4, stance=stance, shield=shield)
        assert setup_attack(BRUTE, defender, "000-I").effective_ac == 4 - bonus


def test_casters_cannot_defend_and_full_defense_cannot_attack():
    with pytest.raises(IllegalActionError, match="004 Combat Stance"):
        Defender("Mirela", stance=Stance.FULL_DEFENSE, casting=True)
    with pytest.raises(IllegalActionError, match="casting"):
        Attacker("Mirela", stance=Stance.ACTIVE_DEFENSE, casting=True)
    with pytest.raises(IllegalActionError, match="no attack possible"):
        Attacker("Hugh", stance=Stance.FULL_DEFENSE)
    assert Defender("Mirela", stance=Stance.FULL_ATTACK, casting=True).stance is Stance.FULL_ATTACK


@pytest.mark.parametrize(("level", "limit"), [(0, 2), (1, 3), (3, 3), (4, 4), (5, 4), (6, 4), (7, 5), (20, 9)])
def test_maneuver_penalty_limit(level, limit):
    assert maneuver_penalty_limit(level) == limit  # 2 plus level/3 rounded up


def test_the_seeds_maneuver_example():
    # "a 5th level fighter (maximum combat maneuver penalty of -4) ... +4 to damage, -2 to AC
    # and -2 to hit would balance the bonuses and penalties."
    blow = CombatManeuver(to_hit=-2, damage=4, armor_class=-2)
    fighter = replace(BRUTE, level=5, stance=Stance.STANDARD, maneuver=blow)
    setup = setup_attack(fighter, ORC, "004")
    assert [(m.label, m.value) for m in setup.to_hit] == [("STR 17", 1), ("combat maneuver", -2)]
    assert setup.damage_bonus == 1 + 4
    result = entered(fighter, ORC, "004", {"attack roll": 12, "damage": 5})
    assert result.damage == 5 + 1 + 4
    (guard,) = result.conditions
    assert (guard.who, guard.condition.ac_modifier, guard.duration.until) == (Who.ATTACKER, 2, Until.NEXT_ACTION)
    with pytest.raises(RulesError, match="up to -4"):
        setup_attack(replace(fighter, maneuver=CombatManeuver(to_hit=-3, armor_class=-2, damage=5)), ORC, "004")
    with pytest.raises(RulesError, match="paid for"):
        setup_attack(replace(fighter, maneuver=CombatManeuver(to_hit=-1, damage=2)), ORC, "004")
    with pytest.raises(IllegalActionError, match="only Fighters"):
        setup_attack(replace(fighter, role=Role.MONSTER), ORC, "004")
    allowed = CriticalOptions(maneuvers_for_others=True)
    assert setup_attack(replace(fighter, role=Role.MONSTER), ORC, "004", options=allowed).damage_bonus == 5


# ================================================================ impossible input


@pytest.mark.parametrize(("make", "rule", "value"), [
    (lambda: Defender(armor_class=15), "Armor Class", "15"),
    (lambda: Attacker(strength=26), "Table 1", "26"),
    (lambda: Attacker(strength=17, exceptional=50), "Table 1", "50"),
    (lambda: Attacker(strength=18, exceptional=101), "Table 1", "101"),
    (lambda: Attacker(thac0=0), "THAC0", "0"),
    (lambda: Attacker(dexterity=0), "ability", "0"),
    (lambda: Attacker(specialization_slots=-1), "000 §4", "-1"),
])  # fmt: skip
def test_impossible_numbers_name_the_rule_and_value(make, rule, value):
    with pytest.raises(OutOfRangeError) as error:
        make()
    assert isinstance(error.value, RulesError) and isinstance(error.value, ValueError)
    assert rule in error.value.rule and value in str(error.value)


def test_unknown_rule_set():
    with pytest.raises(UnknownRuleSetError, match="'001'"):
        attack_odds(FIGHTER, ORC, "001")
    assert find_rule_set("000-ii") is RuleSet.SEVERITY_000 and find_rule_set(RuleSet.TABLES_000) is RuleSet.TABLES_000


def test_a_d20_entered_as_21():
    with pytest.raises(ImpossibleRollError) as error:
        entered(FIGHTER, ORC, "000-I", {"attack roll": 21})
    assert isinstance(error.value, RulesError) and isinstance(error.value, EnteredRollError)
    assert "21" in str(error.value) and "THAC0" in error.value.rule
    with pytest.raises(ImpossibleRollError, match="11"):
        entered(FIGHTER, ORC, "000-I", {"attack roll": 20, "critical hit table": 11})


def test_a_missile_weapon_needs_a_form_and_a_stunned_attacker_cannot_attack():
    with pytest.raises(RulesError, match="thrown, bow"):
        Attacker("Lira", Weapon("long bow", 8, kind=WeaponKind.MISSILE))
    with pytest.raises(RulesError, match="form is one of"):
        Attacker("Lira", Weapon("long bow", 8, kind=WeaponKind.MISSILE), form="sling")
    assert Attacker("Lira", Weapon("long bow", 8, kind=WeaponKind.MISSILE), form="bow").form is AttackForm.BOW
    by_value = Defender("Hugh", stance="full_defense", shield="large_shield", role="fighter")
    assert (by_value.stance, by_value.shield, by_value.role) == (Stance.FULL_DEFENSE, Shield.LARGE, Role.FIGHTER)
    with pytest.raises(RulesError, match="stance is one of"):
        Defender("Hugh", stance="turtle")
    with pytest.raises(IllegalActionError, match="stunned"):
        setup_attack(replace(FIGHTER, conditions=(CONDITIONS["stunned"],)), ORC, "000-I")
    dazed = setup_attack(replace(FIGHTER, conditions=(CONDITIONS["dazed"],)), ORC, "000-I")
    assert dazed.needed == 9 + 2


# ================================================================ explanation and plumbing


def test_one_attack_explains_itself():
    result = entered(FIGHTER, ORC, "000-I", {"attack roll": 20, "critical hit table": 9})
    lines = result.explain().splitlines()
    assert lines[0].startswith("1. Aldric needs 9 on d20 to hit orc: THAC0 20, +1 magic +1")
    assert "critical hit" in lines[1] and "(000 §4 Critical Hit table 9)" in lines[2]
    assert [r.purpose for r in result.rolls] == ["attack roll: Aldric", "critical hit table: Aldric"]
    assert all(r.entered for r in result.rolls)


def test_key_tells_attacks_apart():
    roller = Roller(entered={"attack roll: Aldric [phase 2]": 20, "critical hit table: Aldric [phase 2]": 7})
    result = resolve_attack(FIGHTER, ORC, "000-I", roller, key="phase 2")
    assert result.table_row == "7-8"


def test_from_combatant():
    hero = Combatant("Aldric", "party", level=5, char_class="Paladin", thac0=16, armor_class=3,
                     abilities=Abilities(strength=17, dexterity=15), weapons=(SWORD,))  # fmt: skip
    attacker = Attacker.from_combatant(hero, specialization_slots=1)
    assert (attacker.role, attacker.strength, attacker.thac0, attacker.weapon) == (Role.WARRIOR, 17, 16, SWORD)
    assert Defender.from_combatant(hero).armor_class == 3


def test_odds_rows_for_a_chart():
    odds = attack_odds(FIGHTER, ORC, "000-I")
    rows = odds.rows()
    assert {r["measure"] for r in rows} >= {"outcome", "damage", "critical hit row"}
    assert math.isclose(sum(r["probability"] for r in rows if r["measure"] == "damage"), 1.0)
    assert sum(odds.damage_on_hit.values()) == 1 and 0 not in odds.damage_on_hit


# ================================================================ exact odds: two oracles


class _Branch(Exception):
    def __init__(self, dice: Dice) -> None:
        self.dice = dice


_DECIDING = ("attack roll", "damage", "critical hit table")


class _Scripted(Roller):
    """Plays back the faces of the rolls that decide outcome and damage; every other roll
    (ability checks, lengths, breakages) shows all 1s. Asks to branch when the script ends."""

    def __init__(self, script: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.script = list(script)

    def roll(self, dice, purpose):
        spec = Dice.parse(dice)
        if not purpose.startswith(_DECIDING):
            faces = (1,) * spec.count
        elif self.script:
            faces = self.script.pop(0)
        else:
            raise _Branch(spec)
        result = Roll(spec, purpose, sum(faces) + spec.modifier, faces, entered=False)
        self.log.append(result)
        return result


def exhaustive(attacker, defender, rule_set, options=CriticalOptions()):
    """Every sequence of deciding rolls ``resolve_attack`` can meet, with its probability."""
    tables = {"outcome": {}, "damage": {}, "sf": {}, "body": {}, "row": {}}
    stack = [((), Fraction(1))]
    while stack:
        script, weight = stack.pop()
        try:
            result = resolve_attack(attacker, defender, rule_set, _Scripted(script), options=options)
        except _Branch as branch:
            spec = branch.dice
            for faces in itertools.product(range(1, spec.sides + 1), repeat=spec.count):
                stack.append((script + (faces,), weight / spec.sides**spec.count))
            continue
        for name, key in (("outcome", result.outcome.value), ("damage", result.damage), ("sf", result.sf_penalty),
                          ("body", result.body_points)):  # fmt: skip
            tables[name][key] = tables[name].get(key, 0) + weight
        if result.outcome is Outcome.CRITICAL_HIT and result.table_row:
            tables["row"][result.table_row] = tables["row"].get(result.table_row, 0) + weight
    return tables


def nonzero(table):
    return {k: v for k, v in table.items() if v}


def assert_same_as_exhaustive(attacker, defender, rule_set, options=CriticalOptions()):
    odds = attack_odds(attacker, defender, rule_set, options=options)
    brute = exhaustive(attacker, defender, rule_set, options)
    assert nonzero(odds.outcomes) == brute["outcome"]
    assert odds.damage == brute["damage"]
    assert odds.sf_penalty == brute["sf"]
    assert odds.body_points == brute["body"]
    assert nonzero(odds.critical_hit_rows) == brute["row"]


@pytest.mark.parametrize(("attacker", "defender", "rule_set", "options"), [
    (FIGHTER, ORC, "000-I", CriticalOptions()),
    (replace(FIGHTER, weapon=Weapon("morning star", 7, damage="2d4")), Defender(armor_class=2), "000-I",
     CriticalOptions(severe_hit_with_critical=True)),
    (Attacker("Weak", Weapon("club", 4, damage="d3"), strength=1), Defender(armor_class=-2), "000-I",
     CriticalOptions(minimum_damage=0)),
    (Attacker("Hrolf", SWORD, strength=18, exceptional=99, thac0=12), Defender(armor_class=-3), "000-II",
     CriticalOptions()),
    (MAGE, NEEDS_17, "000-II", CriticalOptions(natural_20_always_hits=False)),
    (BRUTE, ORC, "004", CriticalOptions(body_points=True, fighter_criticals_on_19=True)),
    (BRUTE, Defender(role=Role.FIGHTER, armor_class=0), "004", CriticalOptions(body_points=True)),
])  # fmt: skip
def test_exact_odds_equal_exhaustive_enumeration(attacker, defender, rule_set, options):
    assert_same_as_exhaustive(attacker, defender, rule_set, options)


def standard_error_bound(p: float, n: int) -> float:
    return 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.parametrize(("attacker", "defender", "rule_set", "options", "seed"), [
    (replace(FIGHTER, weapon=Weapon("morning star", 7, damage="2d4"), strength=18, exceptional=80), ORC, "000-I",
     CriticalOptions(reroll_minimum=RerollMinimum.UNTIL_ABOVE), 11),
    (Attacker("Hrolf", SWORD, strength=18, exceptional=99, thac0=14), Defender(armor_class=-4), "000-II",
     CriticalOptions(), 12),
    (BRUTE, ORC, "004", CriticalOptions(body_points=True, fighter_criticals_on_19=True), 13),
])  # fmt: skip
def test_exact_odds_agree_with_monte_carlo(attacker, defender, rule_set, options, seed):
    odds = attack_odds(attacker, defender, rule_set, options=options)
    rng = random.Random(seed)
    n = 20000
    outcomes: dict[str, int] = {}
    rows: dict[str, int] = {}
    sf: dict[int, int] = {}
    total = 0.0
    for _ in range(n):
        result = resolve_attack(attacker, defender, rule_set, Roller(rng=rng), options=options)
        outcomes[result.outcome.value] = outcomes.get(result.outcome.value, 0) + 1
        sf[result.sf_penalty] = sf.get(result.sf_penalty, 0) + 1
        if result.outcome is Outcome.CRITICAL_HIT and result.table_row:
            rows[result.table_row] = rows.get(result.table_row, 0) + 1
        total += result.damage
    for table, counts in ((odds.outcomes, outcomes), (odds.critical_hit_rows, rows), (odds.sf_penalty, sf)):
        assert set(counts) <= {k for k, p in table.items() if p}
        for key, p in table.items():
            assert abs(counts.get(key, 0) / n - float(p)) <= standard_error_bound(float(p), n), (key, p)
    mean = float(odds.expected_damage)
    sd = math.sqrt(sum(float(p) * (k - mean) ** 2 for k, p in odds.damage.items()))
    assert abs(total / n - mean) <= 4.5 * sd / math.sqrt(n)


def test_reroll_until_above_the_minimum_is_exact():
    # A d4 club needing 10: 10..19 hit for d4 (no severe hit: 20 goes to the table). On the
    # table: 1-4 doubles a d4 rerolled until it is not 1 (2, 3, 4 alike); 5-6 doubles the
    # better of two d4 (k with chance (2k-1)/16); 7-8 and 9-10 do 2 x 4.
    club = replace(FIGHTER, weapon=Weapon("club", 4, damage="d4"))
    odds = attack_odds(club, ORC, "000-I", options=CriticalOptions(reroll_minimum=RerollMinimum.UNTIL_ABOVE))
    hand = {0: Fraction(9, 20)}
    for k in range(1, 5):
        hand[k] = hand.get(k, 0) + Fraction(10, 20) / 4
    table = Fraction(1, 20)
    for k in (2, 3, 4):
        hand[2 * k] = hand.get(2 * k, 0) + table * Fraction(4, 10) / 3
    for k in range(1, 5):
        hand[2 * k] = hand.get(2 * k, 0) + table * Fraction(2, 10) * Fraction(2 * k - 1, 16)
    hand[8] += table * Fraction(4, 10)
    assert odds.damage == dict(sorted(hand.items()))


# ================================================================ invariants


weapons = st.builds(
    lambda count, sides, magic: Weapon("w", 5, magic_bonus=magic, damage=f"{count}d{sides}"),
    st.integers(1, 2), st.sampled_from([2, 3, 4, 6]), st.integers(-1, 3),
)
attackers = st.builds(
    Attacker,
    name=st.just("A"),
    weapon=weapons,
    thac0=st.integers(1, 20),
    strength=st.integers(1, 25),
    dexterity=st.integers(1, 25),
    level=st.integers(0, 20),
    role=st.sampled_from(list(Role)),
    specialization_slots=st.integers(0, 3),
    listed_damage_bonus=st.integers(0, 8),
    stance=st.sampled_from([s for s in Stance if s.can_attack]),
    shield=st.sampled_from(list(Shield)),
)
defenders = st.builds(
    Defender,
    armor_class=st.integers(-10, 10),
    stance=st.sampled_from(list(Stance)),
    shield=st.sampled_from(list(Shield)),
    role=st.sampled_from(list(Role)),
    level=st.integers(0, 20),
)
option_sets = st.builds(
    CriticalOptions,
    natural_20_always_hits=st.booleans(),
    minimum_damage=st.integers(0, 1),
    severe_hit_with_critical=st.booleans(),
    strength_split=st.sampled_from(list(StrengthSplit)),
    magic_damage_000_ii=st.booleans(),
    listed_damage_bonus=st.sampled_from(list(ListedBonus)),
    body_points=st.booleans(),
    monster_extra_roll_with_modifiers=st.booleans(),
    fighter_criticals_on_19=st.booleans(),
)
rule_sets = st.sampled_from(["000-I", "000-II", "004"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attackers, defenders, rule_sets, option_sets, st.integers(0, 2**32))
def test_odds_are_distributions_and_every_roll_lands_in_them(attacker, defender, rule_set, options, seed):
    odds = attack_odds(attacker, defender, rule_set, options=options)
    for table in (odds.outcomes, odds.damage, odds.sf_penalty, odds.body_points):
        assert sum(table.values()) == 1
        assert all(p >= 0 for p in table.values())
    assert all(p * 20 == int(p * 20) for p in odds.outcomes.values())  # one d20
    assert min(odds.damage) >= 0
    assert all(k >= options.minimum_damage for k in odds.damage_on_hit)
    assert sum(odds.critical_hit_rows.values()) == (odds.outcomes["critical hit"] if rule_set == "000-I" else 0)
    assert sum(odds.critical_miss_rows.values()) == (odds.outcomes["critical miss"] if rule_set == "000-I" else 0)
    assert odds.outcomes["critical miss"] == Fraction(1, 20)  # a natural 1 always fails
    if rule_set != "000-II":
        assert odds.sf_penalty == {0: 1} and odds.outcomes["severe miss"] == 0
    result = resolve_attack(attacker, defender, rule_set, Roller(seed=seed), options=options)
    assert odds.outcomes[result.outcome.value] > 0
    assert odds.damage[result.damage] > 0 and odds.sf_penalty[result.sf_penalty] > 0
    assert result.steps and all(step.rule for step in result.steps)


small_weapons = st.builds(
    lambda damage, magic: Weapon("w", 5, magic_bonus=magic, damage=damage),
    st.sampled_from(["d2", "d3", "d4", "d6", "2d2", "2d3", "d4+1"]), st.integers(-1, 3),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attackers, defenders, rule_sets, option_sets, small_weapons)
def test_odds_equal_exhaustive_enumeration_for_any_attack(attacker, defender, rule_set, options, weapon):
    assert_same_as_exhaustive(replace(attacker, weapon=weapon), defender, rule_set, options)


@settings(max_examples=60, deadline=None)
@given(st.integers(-20, 40), st.integers(1, 20), st.integers(0, 12))
def test_severe_miss_penalty_bounds(needed, rolled, base_sf):
    penalty = severe_miss_penalty(needed, rolled, base_sf)
    assert 0 <= penalty <= base_sf
    assert (penalty > 0) == (needed - rolled > 5 and base_sf > 0)
    assert severe_miss_penalty(needed, rolled, base_sf, critical=True) == max(0, needed - 5 - rolled)
