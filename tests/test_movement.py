"""Movement (seed 000 §1 F, §2 D; 001 Movement; 002 III.D, Charging): Table 3 row by row, and the worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combatkit.dice import Roller
from combatkit.errors import RulesError
from combatkit.movement import (
    PRONE_AFTER_FAILED_STOP,
    ChargeResponse,
    Move001,
    MovementError,
    Scale,
    Speed,
    accelerate,
    charge,
    charge_rate_002,
    charge_response,
    deceleration_check,
    decelerate,
    flight_free_attack,
    half_segment_squares,
    max_speed_next_phase,
    move_001,
    move_002,
    phase_allowance,
    split_move_002,
    table_3,
    withdraw_allowance,
)

# 000 §2 D Table 3, as printed: MV, sq./phase, max sq./half-seg, and the "(min N)" printed on a row.
TABLE_3 = [
    (3, 1, 1, 0), (6, 2, 1, None), (9, 3, 1, None), (12, 4, 1, None), (15, 5, 1, None), (18, 6, 1, 1),
    (21, 7, 2, None), (24, 8, 2, None), (27, 9, 2, None), (30, 10, 2, None), (33, 11, 2, None), (36, 12, 2, 2),
    (39, 13, 3, None), (42, 14, 3, None), (45, 15, 3, None), (48, 16, 3, None), (51, 17, 3, None), (54, 18, 3, 3),
    (57, 19, 4, None), (60, 20, 4, None), (63, 21, 4, None), (66, 22, 4, None), (69, 23, 4, None), (72, 24, 4, 4),
]


@pytest.mark.parametrize(("mv", "squares", "most", "printed_min"), TABLE_3)
def test_table_3_row(mv, squares, most, printed_min):
    """000 §2 D Table 3: every printed row; a row without "(min N)" keeps "the previously listed minimum"."""
    row = table_3(mv)
    assert (row.mv, row.squares_per_phase, row.max_per_half_segment) == (mv, squares, most)
    previous = max((m for v, _, _, m in TABLE_3 if m is not None and v < mv), default=0)
    assert row.min_per_half_segment == (printed_min if printed_min is not None else previous)


def test_table_3_continues_past_the_printed_rows():
    """"etc.": MV 75 is 25 squares, at most 5 and at least 4 a half-segment."""
    assert (table_3(75).squares_per_phase, table_3(75).max_per_half_segment, table_3(75).min_per_half_segment) == (25, 5, 4)


@pytest.mark.parametrize("mv", [v for v, *_ in TABLE_3])
def test_half_segment_squares_keep_table_3(mv):
    """000 §2 D incremental movement: six half-segments, each within Table 3's max and min, the phase's total exactly."""
    row = table_3(mv)
    steps = half_segment_squares(mv)
    assert len(steps) == 6 and sum(steps) == row.squares_per_phase
    assert all(row.min_per_half_segment <= s <= row.max_per_half_segment for s in steps)


def test_half_segment_squares_refuse_more_than_the_phase():
    with pytest.raises(MovementError, match=r"MV 12 allows 0..4 squares a phase.*got 5") as info:
        half_segment_squares(12, 5)
    assert info.value.rule == "000 §2 D Table 3"


def test_one_third_mv_a_phase():
    """000 §1 F: "a walking knight with a 12 MV can move 4 per phase" (40 feet indoors)."""
    assert phase_allowance(12) == 40
    assert phase_allowance(12, Scale.OUTDOORS) == 40  # 40 yards outdoors
    assert phase_allowance(9) == 30


def test_acceleration_to_five_times_in_two_phases():
    """000 §2 D Acceleration: walking is automatic, then up to 2x base more a phase, 5x at most."""
    standing = Speed(12)
    assert max_speed_next_phase(standing) == 36
    running = accelerate(standing, 36)
    assert max_speed_next_phase(running) == 60
    assert accelerate(running, 60).factor == 5
    assert max_speed_next_phase(Speed(12, 60)) == 60


def test_acceleration_error_names_rule_and_value():
    with pytest.raises(MovementError) as info:
        accelerate(Speed(12), 48)
    assert info.value.rule == "000 §2 D Acceleration" and "not 48" in str(info.value)
    assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)
    with pytest.raises(MovementError, match="5x base MV"):
        Speed(12, 61)


def test_deceleration_example():
    """000 §2 D Deceleration, the worked example: full speed 60 (20 a phase) to a walk: two factors
    off at once to 36 (12 a phase), at least 6 squares of momentum, then stop or walk; to "stop on
    a silver piece" a DEX check at -6."""
    d = decelerate(Speed(12, 60), 12)
    assert phase_allowance(60) == 200  # 20 squares a phase at full speed
    assert d.speed.current == 36 and phase_allowance(36) == 120  # 12 squares a phase
    assert d.momentum_squares == 6 and not d.needs_check
    silver_piece = decelerate(Speed(12, 60), 0, within=0)
    assert silver_piece.dex_check_modifier == -6
    assert decelerate(Speed(12, 60), 0, within=4).dex_check_modifier == -2


def test_deceleration_from_jogging_has_no_momentum():
    """Two factors off 24 (2x base 12) is a standstill at once; off 36 it is walking, no longer
    accelerated: either way no momentum and no check."""
    assert decelerate(Speed(12, 24), 0, within=0).speed.current == 0
    d = decelerate(Speed(12, 36), 0, within=0)
    assert d.speed.current == 12 and d.momentum_squares == 0 and d.dex_check_modifier == 0


def test_deceleration_dex_check_entered_at_the_table():
    d = decelerate(Speed(12, 60), 0, within=0)
    passed, why = deceleration_check(Roller(entered={"DEX check (stopping): Ria": 10}), "Ria", 16, d)
    assert passed and "d20 = 10 against 10" in why
    failed, why = deceleration_check(Roller(entered={"DEX check (stopping): Ria": 11}), "Ria", 16, d)
    assert not failed and f"prone for {PRONE_AFTER_FAILED_STOP} phases" in why


def test_paladin_charges_the_troll():
    """000 §2 D Charging example: 180 yards covered in the phase, the troll 130 yards away, so the
    paladin overruns it by 180 - 130 = 50 yards. 180 yards is 1/3 of MV 54 (a warhorse's 18 tripled)."""
    plan = charge(Speed(base=18, current=54), 130, Scale.OUTDOORS)
    assert (plan.covered, plan.to_target, plan.reaches, plan.overrun) == (180, 130, True, 50)
    assert str(plan) == "covers 180 yards, 130 to the target, overruns it by 180 - 130 = 50 yards"


def test_paladin_example_with_the_printed_48():
    """The example's "triple movement--48" read literally: 160 yards, an overrun of 30 (module docstring)."""
    plan = charge(Speed(base=16, current=48), 130, Scale.OUTDOORS)
    assert (plan.covered, plan.overrun) == (160, 30)


def test_charge_needs_jogging_speed_and_may_fall_short():
    with pytest.raises(MovementError, match=r"base MV 12 x 2 = 24\), got MV 12") as info:
        charge(Speed(12, 12), 30)
    assert info.value.rule == "000 §2 D Charging"
    short = charge(Speed(12, 24), 100)
    assert not short.reaches and short.overrun == 0 and short.covered == 80


def test_charge_responses():
    """000 §2 D: a set weapon answers simultaneously; otherwise after the blow, unless the defender
    already attacked this phase or has no attacks left."""
    def answer(**kw):
        return charge_response(**kw)[0]

    assert answer(set_to_receive=True, attacked_this_phase=False, attacks_left=1) is ChargeResponse.SIMULTANEOUS
    assert answer(set_to_receive=False, attacked_this_phase=False, attacks_left=1) is ChargeResponse.AFTER
    assert answer(set_to_receive=True, attacked_this_phase=True, attacks_left=1) is ChargeResponse.NONE
    assert answer(set_to_receive=False, attacked_this_phase=False, attacks_left=0) is ChargeResponse.NONE


def test_withdrawing_is_a_third_of_a_third():
    """000 §2 D: withdrawing cuts movement to 1/3 MV "making a 12 MV into just over 1 per phase"."""
    assert withdraw_allowance(12) == 13
    assert Fraction(withdraw_allowance(12), 10) > 1


def test_fleeing_free_attack_exception_is_the_only_escape():
    """000 §2 D: the free attack on a fleeing figure is outrun only by an initiative winner whose
    opponent struck earlier in the same phase and is no faster (or when someone interposes)."""
    for won in (False, True):
        for struck in (False, True):
            for opponent_mv, fleeing_mv in ((9, 12), (12, 12), (15, 12)):
                verdict = flight_free_attack(fleeing_won_initiative=won, opponent_struck_this_phase=struck,
                                             opponent_mv=opponent_mv, fleeing_mv=fleeing_mv)
                escapes = won and struck and opponent_mv <= fleeing_mv
                assert verdict.free_attack is not escapes
                assert verdict.rule == "000 §2 D Withdrawing / Fleeing"
    assert not flight_free_attack(fleeing_won_initiative=False, opponent_struck_this_phase=False, opponent_mv=24,
                                  fleeing_mv=6, interposed=True).free_attack


def test_five_phase_movement():
    """001: half-move (attack at -3), split-move (1/3 before, -4), charge within half running (triple) distance."""
    assert move_001(Move001.HALF_MOVE, 12).feet == 60 and move_001(Move001.HALF_MOVE, 12).attack_modifier == -3
    assert move_001(Move001.FULL_MOVE, 12).feet == 120
    assert move_001(Move001.SPLIT_MOVE, 12).feet == 40 and move_001(Move001.SPLIT_MOVE, 12).attack_modifier == -4
    charge_001 = move_001(Move001.CHARGE, 12)
    assert (charge_001.feet, charge_001.attack_modifier, charge_001.damage_modifier) == (180, -2, 2)
    assert move_001(Move001.FLIGHT, 12).feet == 360
    assert move_001(Move001.SHIFT, 12).feet == 10


def test_short_form_movement():
    """002 III.D: the standard rate with a full attack, split before and after; double without attacking."""
    assert move_002(9, attacking=True).feet == 90 and move_002(9, attacking=False).feet == 180
    assert split_move_002(9, 40, 50) == 90
    with pytest.raises(MovementError, match="40' before and 60' after is 100'") as info:
        split_move_002(9, 40, 60)
    assert info.value.rule == "002 III.D"
    assert charge_rate_002(12, outdoors=False) == 240
    assert charge_rate_002(12, outdoors=True) == 160
    assert charge_rate_002(12, outdoors=True, quadruped=True) == 180
