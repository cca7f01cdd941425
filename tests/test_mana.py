"""The mana engine against 000 §5 (Supplemental Magic Rules) and the PH tables under it.

The seed's base-mana table and the PH tables are transcribed here a second time, by
hand and in a different shape from the data files, so a typo in either shows up.
"""

import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combatkit.dice import MissingRollError, Roller
from combatkit.errors import RulesError
from combatkit.mana import (
    DAY,
    ManaState,
    Pool,
    BaseManaSource,
    BonusMethod,
    Cast,
    Caster,
    CasterClass,
    ConstitutionRule,
    ExemptScope,
    InnateSpell,
    KnownSpell,
    ManaOptions,
    ManaSystem,
    PoolKind,
    RecoveryRate,
    Repertoire,
    Rest,
    Study,
    base_mana,
    base_mana_comparison,
    cast,
    cast_innate,
    cast_known,
    computed_base_mana,
    forget_candidates,
    innate_state,
    intelligence_limits,
    learn,
    mana_state,
    minutes_per_point,
    plan_day,
    printed_base_mana,
    progression,
    recovery_minutes,
    research_days,
    set_exempt,
    starting_mana,
    time_to_full,
    wisdom_bonus_spells,
)

PRIEST, WIZARD, RANGER, PALADIN = CasterClass.PRIEST, CasterClass.WIZARD, CasterClass.RANGER, CasterClass.PALADIN

# 000 §5 Mana System I, the base-mana table, column by column as printed (levels 1..20).
SEED_TABLE = {
    PRIEST: "1 2 4* 7 12* 15 19* 26 34* 43 53* 65 74 90* 99 111 127 148 151 165",
    WIZARD: "1 2 4* 7 11* 14 20* 27 32* 39 51 66* 78 85* 94 115* 130 139* 147 162",
    RANGER: "-- -- -- -- -- -- -- 1 2 3* 4 5* 6 7 8 9 9 9 9 9",
    PALADIN: "-- -- -- -- -- -- -- -- 1 2 3* 4 5* 6 7* 8 9 9 9 9",
}
SEED_CELLS = [
    (cls, level, text) for cls, column in SEED_TABLE.items() for level, text in enumerate(column.split(), start=1)
]

# PH Table 17 (paladin) and PH Table 18 (ranger): level -> (casting level, spells per spell level).
PH_PALADIN = {
    9: (1, "1"), 10: (2, "2"), 11: (3, "21"), 12: (4, "22"), 13: (5, "221"), 14: (6, "321"),
    15: (7, "3211"), 16: (8, "3321"), 17: (9, "3331"), 18: (9, "3331"), 19: (9, "3332"), 20: (9, "3333"),
}  # fmt: skip
PH_RANGER = {
    8: (1, "1"), 9: (2, "2"), 10: (3, "21"), 11: (4, "22"), 12: (5, "221"),
    13: (6, "321"), 14: (7, "322"), 15: (8, "332"), 16: (9, "333"),
}  # fmt: skip
# The rule applied to those rows by hand: the "computed" column the seed does not print.
RANGER_COMPUTED = {8: 1, 9: 2, 10: 4, 11: 6, 12: 9, 13: 10, 14: 13, 15: 15, 16: 18, 17: 18, 18: 18, 19: 18, 20: 18}
PALADIN_COMPUTED = {9: 1, 10: 2, 11: 4, 12: 6, 13: 9, 14: 10, 15: 14, 16: 19, 17: 22, 18: 22, 19: 26, 20: 30}

# PH Table 5, bonus spells, as the cumulative totals per spell level a priest gets.
PH_WISDOM = {
    13: (1,), 14: (2,), 15: (2, 1), 16: (2, 2), 17: (2, 2, 1), 18: (2, 2, 1, 1), 19: (3, 2, 2, 1),
    20: (3, 3, 2, 2), 21: (3, 3, 3, 2, 1), 22: (3, 3, 3, 3, 2), 23: (4, 3, 3, 3, 2, 1),
    24: (4, 3, 3, 3, 3, 2), 25: (4, 3, 3, 3, 3, 3, 1),
}  # fmt: skip
# PH Table 4: INT -> (highest spell level, most spells per level; None is "All").
PH_INTELLIGENCE = {
    9: (4, 6), 10: (5, 7), 11: (5, 7), 12: (6, 7), 13: (6, 9), 14: (7, 9), 15: (7, 11), 16: (8, 11),
    17: (8, 14), 18: (9, 18), **{score: (9, None) for score in range(19, 26)},
}  # fmt: skip


# --- 000 §5 Mana System I: the base-mana table and the rule it states -------------------------


@pytest.mark.parametrize(("cls", "level", "text"), SEED_CELLS)
def test_base_mana_table_cell_as_printed(cls, level, text):
    (row,) = [r for r in base_mana_comparison(cls) if r.level == level]
    assert row.printed_text == text
    assert printed_base_mana(cls, level) == (0 if text == "--" else int(text.rstrip("*")))


@pytest.mark.parametrize(("cls", "level", "text"), [cell for cell in SEED_CELLS if cell[0] in (PRIEST, WIZARD)])
def test_priest_and_wizard_columns_equal_the_stated_rule(cls, level, text):
    """000 §5: "one point per spell level per spell" over PH Tables 21 and 24 gives the printed cell."""
    assert computed_base_mana(cls, level) == int(text.rstrip("*"))


@pytest.mark.parametrize(("cls", "level", "text"), [cell for cell in SEED_CELLS if cell[0] in (RANGER, PALADIN)])
def test_ranger_and_paladin_columns_are_the_casting_level_not_the_rule(cls, level, text):
    ph, computed = (PH_RANGER, RANGER_COMPUTED) if cls is RANGER else (PH_PALADIN, PALADIN_COMPUTED)
    (row,) = [r for r in base_mana_comparison(cls) if r.level == level]
    casting = ph[min(level, max(ph))][0] if level >= min(ph) else None
    assert row.casting_level == casting
    assert row.printed == casting
    assert row.computed == computed.get(level, 0)
    assert row.agrees is (level < 10 if cls is RANGER else level < 11)


def test_comparison_flags_exactly_the_ranger_and_paladin_cells_that_disagree():
    disagree = {(r.caster_class, r.level) for r in base_mana_comparison() if not r.agrees}
    assert disagree == {(RANGER, level) for level in range(10, 21)} | {(PALADIN, level) for level in range(11, 21)}
    assert len(base_mana_comparison()) == 80


@pytest.mark.parametrize("cls", list(CasterClass))
def test_the_asterisk_marks_a_new_spell_level_above_first(cls):
    for row in base_mana_comparison(cls):
        before = progression(cls, row.level - 1).highest_spell_level if row.level > 1 else 0
        now = progression(cls, row.level).highest_spell_level
        assert row.new_spell_level is (now > before and now > 1), row


@pytest.mark.parametrize(("cls", "ph"), [(PALADIN, PH_PALADIN), (RANGER, PH_RANGER)])
def test_ph_paladin_and_ranger_progressions(cls, ph):
    for level in range(1, 21):
        row = progression(cls, level)
        if level < min(ph):
            assert row.spells == () and row.casting_level is None and row.highest_spell_level == 0
        else:
            casting, spells = ph[min(level, max(ph))]  # PH Table 18: 16th is "maximum spell ability"
            assert (row.casting_level, row.spells) == (casting, tuple(int(c) for c in spells))


def test_ph_table_17_paladin_rows_16_and_17_are_the_2e_rows():
    """PH (2e) Table 17, Paladin Spell Progression: 3rd-level spells 2 at 16th level and 3 at 17th.

    The 1st-edition paladin table has 1 and 2 there (3 only at 18th); issue #11 found those
    rows in the data. In 2e the 17th and 18th rows are alike.
    """
    assert progression(PALADIN, 16).spells == (3, 3, 2, 1)
    assert progression(PALADIN, 17).spells == (3, 3, 3, 1)
    assert progression(PALADIN, 18).spells == progression(PALADIN, 17).spells
    assert [progression(PALADIN, level).casting_level for level in (16, 17)] == [8, 9]
    # The stated rule, one point per spell level per spell: 3 + 6 + 6 + 4 and 3 + 6 + 9 + 4.
    assert [computed_base_mana(PALADIN, level) for level in (15, 16, 17, 18)] == [14, 19, 22, 22]
    # The printed column is the casting level and does not change.
    assert [printed_base_mana(PALADIN, level) for level in (16, 17)] == [8, 9]
    assert base_mana(PALADIN, 16, source=BaseManaSource.COMPUTED) == 19
    assert mana_state(Caster(PALADIN, 17), ManaOptions(base=BaseManaSource.COMPUTED)).points == 22


def test_ph_wizard_and_priest_progressions_spot_rows():
    assert progression(WIZARD, 12).spells == (4, 4, 4, 4, 4, 1)
    assert progression(WIZARD, 20).spells == (5, 5, 5, 5, 5, 4, 3, 3, 2)
    assert progression(PRIEST, 19).spells == (9, 9, 8, 8, 6, 4, 2)
    assert progression(PRIEST, 9).casting_level is None


@pytest.mark.parametrize("wisdom", range(1, 26))
def test_ph_table_5_bonus_spells(wisdom):
    assert wisdom_bonus_spells(wisdom) == PH_WISDOM.get(wisdom, ())


@pytest.mark.parametrize("intelligence", range(1, 26))
def test_ph_table_4_spell_limits(intelligence):
    limits = intelligence_limits(intelligence)
    assert (limits.max_spell_level, limits.max_spells_per_level) == PH_INTELLIGENCE.get(intelligence, (None, None))


def test_printed_table_is_the_default_and_the_rule_an_option():
    ranger = Caster(RANGER, 12)
    assert mana_state(ranger).points == 5
    assert mana_state(ranger, ManaOptions(base=BaseManaSource.COMPUTED)).points == 9
    assert base_mana(PALADIN, 20, source=BaseManaSource.COMPUTED) == 30


def test_fifth_level_priest_has_twelve_points():
    """000 §5 Mana System I: (3 x 1) + (3 x 2) + (1 x 3) = 12."""
    priest = mana_state(Caster(PRIEST, 5))
    assert priest.points == 12
    assert progression(PRIEST, 5).spells == (3, 3, 1)


@pytest.mark.parametrize(("level", "casts"), [(3, 4), (1, 12), (2, 6)])
def test_fifth_level_priest_spends_twelve_points_any_way(level, casts):
    """ "...could cast four 3rd level spells, twelve 1st level spells, six 2nd level spells"."""
    state = mana_state(Caster(PRIEST, 5))
    for _ in range(casts):
        state, spend = cast(state, level)
        assert spend.units == level
    assert state.points == 0
    with pytest.raises(RulesError, match="cannot pay for a 1st-level spell"):
        cast(state, 1)


def test_fifth_level_priest_mixes_levels():
    state = mana_state(Caster(PRIEST, 5))
    for level in (3, 3, 2, 1, 1, 1, 1):
        state, _ = cast(state, level)
    assert state.points == 0


def test_no_spell_above_the_progression():
    with pytest.raises(RulesError, match="5th-level wizard may not cast a 9th-level spell") as error:
        cast(mana_state(Caster(WIZARD, 5)), 9)
    assert error.value.rule == "000 §5 Mana System I"


@pytest.mark.parametrize("bad", [0, 10, -1, True, "3"])
def test_spell_level_out_of_range_names_rule_and_value(bad):
    with pytest.raises(RulesError, match=f"got {bad!r}"):
        cast(mana_state(Caster(WIZARD, 20)), bad)


@pytest.mark.parametrize("bad", [0, 21, -3, 2.5, None])
def test_caster_level_out_of_range_names_rule_and_value(bad):
    with pytest.raises(RulesError, match=r"caster level must be 1\.\.20") as error:
        Caster(WIZARD, bad)
    assert error.value.rule == "000 §5 Mana System I"
    assert repr(bad) in str(error.value)


def test_ranger_below_eighth_level_has_no_mana_and_casts_nothing():
    state = mana_state(Caster(RANGER, 5, constitution=18), ManaOptions(constitution=ConstitutionRule.STARTING))
    assert state.pools == () and state.highest_spell_level == 0
    with pytest.raises(RulesError, match="allows no spells"):
        cast(state, 1)


# --- Wisdom bonus spells ----------------------------------------------------------------------


def test_bonus_spells_added_to_the_pool():
    state = mana_state(Caster(PRIEST, 5, wisdom=17))
    assert state.points == 12 + (2 * 1 + 2 * 2 + 1 * 3)
    assert state.pool("mana").automatic == 9


def test_bonus_spells_as_free_boxes_are_spent_first():
    state = mana_state(Caster(PRIEST, 5, wisdom=17), ManaOptions(wisdom_bonus=BonusMethod.FREE_BOXES))
    assert [(p.label, p.available) for p in state.pools] == [
        ("mana", 12), ("free spells 1st", 2), ("free spells 2nd", 2), ("free spells 3rd", 1),
    ]  # fmt: skip
    state, first = cast(state, 3)
    assert first.pool == "free spells 3rd" and state.pool("mana").available == 12
    state, second = cast(state, 3)
    assert second.pool == "mana" and state.pool("mana").available == 9


def test_bonus_spells_only_for_castable_levels():
    """PH Table 5: a 1st-level priest with WIS 18 gets only the 1st-level bonus spells."""
    assert Caster(PRIEST, 1, wisdom=18).bonus_spells == (2,)
    assert mana_state(Caster(PRIEST, 1, wisdom=18)).points == 1 + 2


@pytest.mark.parametrize("cls", [RANGER, PALADIN, WIZARD])
def test_no_wisdom_bonus_outside_priests(cls):
    assert mana_state(Caster(cls, 20, wisdom=18)).points == printed_base_mana(cls, 20)


@pytest.mark.parametrize(("wisdom", "highest"), [(16, 5), (17, 6), (18, 7)])
def test_ph_table_24_footnotes_gate_sixth_and_seventh_level_priest_spells(wisdom, highest):
    state = mana_state(Caster(PRIEST, 14, wisdom=wisdom))
    assert state.highest_spell_level == highest
    assert state.points == 90 + sum((i + 1) * n for i, n in enumerate(wisdom_bonus_spells(wisdom)[:highest]))
    if highest < 7:
        with pytest.raises(RulesError, match=f"allows up to {highest}th"):
            cast(state, highest + 1)


# --- Specialists ------------------------------------------------------------------------------


def test_specialist_pool_one_extra_spell_per_castable_level():
    state = mana_state(Caster(WIZARD, 7, specialist=True))
    assert state.pool("specialist mana").maximum == 1 + 2 + 3 + 4
    assert state.pool("mana").maximum == 20


def test_a_named_pool_pays():
    state = mana_state(Caster(WIZARD, 3, specialist=True))
    state, spend = cast(state, 1, specialty=True, pool="mana")
    assert spend.pool == "mana" and state.pool("specialist mana").available == 3
    assert (state.points, state.maximum_points) == (6, 7)


def test_specialist_pool_pays_only_for_specialty_spells():
    state = mana_state(Caster(WIZARD, 3, specialist=True))
    state, spend = cast(state, 2, specialty=True)
    assert spend.pool == "specialist mana" and state.pool("mana").available == 4
    state, spend = cast(state, 2, specialty=True)  # 1 specialist point left: the mana pool pays
    assert spend.pool == "mana"
    with pytest.raises(RulesError, match="cannot pay for a 1st-level spell"):
        cast(state, 1, pool="specialist mana")


def test_only_wizards_specialize():
    with pytest.raises(RulesError, match="only a wizard"):
        Caster(PRIEST, 3, specialist=True)


# --- Starting Mana ----------------------------------------------------------------------------


def test_third_level_mage_has_four_points_up_to_six_with_18_con():
    """000 §5 Starting Mana: "Instead of a mage's third level total of 4 points, ... as many as 6 with an 18 CON"."""
    mage = Caster(WIZARD, 3, constitution=18)
    assert mana_state(mage).points == 4
    assert mana_state(mage, ManaOptions(constitution=ConstitutionRule.STARTING)).points == 6


@pytest.mark.parametrize(("base", "con", "expected"), [(4, 18, 6), (4, 12, 4), (4, 10, 4), (7, 18, 7), (1, 3, 1)])
def test_starting_mana_uses_the_base_once_it_is_larger(base, con, expected):
    assert starting_mana(base, con) == expected


def test_option_1_adds_con_bonus_regardless_of_level():
    options = ManaOptions(constitution=ConstitutionRule.ADDED)
    assert mana_state(Caster(WIZARD, 3, constitution=18), options).points == 4 + 6
    assert mana_state(Caster(WIZARD, 20, constitution=16), options).points == 162 + 6


def test_option_2_averages_con_and_prime_requisite_rounded_down_then_divides_rounded_up():
    options = ManaOptions(constitution=ConstitutionRule.STARTING, constitution_with_prime_requisite=True)
    # (18 + 19) / 2 = 18.5 -> 18; 18 / 3 = 6 (unrounded, 18.5 / 3 would round up to 7)
    assert mana_state(Caster(WIZARD, 1, constitution=18, intelligence=19), options).points == 6
    # priest magic: Wisdom; (17 + 12) / 2 = 14.5 -> 14; 14 / 3 -> 5
    assert mana_state(Caster(PRIEST, 2, constitution=17, wisdom=12), options).points == 5
    # rangers cast priest spells: Wisdom too
    assert Caster(RANGER, 8, wisdom=14, intelligence=3).prime_requisite == 14


def test_con_does_not_adjust_mana_system_ii():
    with pytest.raises(RulesError, match="Mana System II has none to adjust"):
        mana_state(Caster(WIZARD, 3), ManaOptions(system=ManaSystem.SLOTS, constitution=ConstitutionRule.STARTING))


@pytest.mark.parametrize("con", [-3, 0, 26, 18.0])
def test_impossible_con_names_rule_and_value(con):
    with pytest.raises(RulesError, match="CON is an ability score") as error:
        Caster(WIZARD, 3, constitution=con)
    assert error.value.rule == "000 §5 Starting Mana" and repr(con) in str(error.value)
    with pytest.raises(RulesError, match=repr(con)):
        starting_mana(4, con)


# --- Mana recovery ----------------------------------------------------------------------------


def test_twentieth_level_mage_needs_27_hours():
    """000 §5 Mana Recovery: 162 points x 10 minutes = 1620 minutes = 27 hours."""
    mage = mana_state(Caster(WIZARD, 20)).emptied()
    estimate = time_to_full(mage)
    assert estimate.study_minutes == 1620 and estimate.hours == 27
    plan = plan_day(mage, [Rest(0, 480), Study(480, 480 + 1620)])
    assert plan.full_at == 480 + 1620


def test_twentieth_level_mage_with_another_nights_sleep():
    """ "(realistically, another night's sleep must be added to this time)"."""
    mage = mana_state(Caster(WIZARD, 20)).emptied()
    plan = plan_day(mage, [Rest(0, 480), Study(480, 1440), Rest(1440, 1920), Study(1920, 2700)])
    assert plan.final.full and plan.full_at == 1920 + (1620 - 960)
    assert plan.notes == ()


@pytest.mark.parametrize(("highest", "rate", "rest", "expected"), [
    (9, RecoveryRate.FLAT, 480, 10), (9, RecoveryRate.BY_SPELL_LEVEL, 480, 4),
    (1, RecoveryRate.BY_SPELL_LEVEL, 480, 12),
    (5, RecoveryRate.FLAT, 600, 10), (5, RecoveryRate.FLAT, 420, 11), (5, RecoveryRate.FLAT, 450, 11),
    (5, RecoveryRate.FLAT, 360, 12), (5, RecoveryRate.FLAT, 240, 14), (9, RecoveryRate.BY_SPELL_LEVEL, 300, 7),
    (5, RecoveryRate.FLAT, 239, None), (5, RecoveryRate.FLAT, 0, None),
])  # fmt: skip
def test_minutes_per_point(highest, rate, rest, expected):
    assert minutes_per_point(highest, rate=rate, rest_minutes=rest) == expected


@pytest.mark.parametrize("rest", [1800, -60, 1441])
def test_impossible_rest_names_rule_and_value(rest):
    with pytest.raises(RulesError, match=f"got {rest}") as error:
        minutes_per_point(5, rest_minutes=rest)
    assert error.value.rule == "000 §5 Mana Recovery"
    with pytest.raises(RulesError, match="a rest lasts"):
        plan_day(mana_state(Caster(WIZARD, 5)), [Rest(100, 100 + rest)] if rest > 0 else [], prior_rest_minutes=rest)


def test_sleeping_30_hours_in_a_plan():
    with pytest.raises(RulesError, match=r"got 1800 \(30 hours\)"):
        plan_day(mana_state(Caster(WIZARD, 5)), [Rest(0, 1800)])


def test_specialist_points_take_half_time_rounded_up_after_totaling():
    assert recovery_minutes(3, 7, specialist=True) == 11  # 10.5 -> 11, not 3 x 4
    state = mana_state(Caster(WIZARD, 3, specialist=True), ManaOptions(recovery_rate=RecoveryRate.BY_SPELL_LEVEL))
    estimate = time_to_full(state.emptied())  # 11 minutes per point: 4 x 11 + 3 x 5.5 = 60.5
    assert [(p.pool, p.minutes) for p in estimate.pools] == [("mana", 44), ("specialist mana", Fraction(33, 2))]
    assert estimate.study_minutes == 61
    plan = plan_day(state.emptied(), [Study(0, 100)])
    assert plan.full_at == 61


def test_short_rest_adds_a_minute_per_point_per_hour():
    state = mana_state(Caster(PRIEST, 5)).emptied()
    assert time_to_full(state, rest_minutes=6 * 60).study_minutes == 12 * 12
    plan = plan_day(state, [Rest(0, 360), Study(360, 600)])
    assert plan.full_at == 360 + 144


def test_a_rest_with_interruptions_counts_only_the_sleep():
    state = mana_state(Caster(PRIEST, 5)).emptied()
    night = Rest(0, 540, interruptions=((120, 180),))  # 9 hours in bed, 1 awake: 8 hours of sleep
    assert night.sleep_minutes == 480
    assert plan_day(state, [night, Study(540, 700)]).full_at == 540 + 120
    short = Rest(0, 480, interruptions=((100, 130), (300, 330)))  # 7 hours of sleep: 11 minutes per point
    assert plan_day(state, [short, Study(480, 700)]).full_at == 480 + 132


def test_spells_are_cast_only_while_awake_during_a_rest():
    state = mana_state(Caster(PRIEST, 5, wisdom=17))  # 21 points, 9 bonus
    night = Rest(0, 480, interruptions=((120, 150),))
    plan = plan_day(state, [Cast(130, 3), night, Cast(480, 3)])  # the fight, then the morning
    assert [(s.minute, s.available) for s in plan.samples] == [(0, 21), (130, 18), (480, 21), (480, 18), (480, 18)]
    assert plan.recoveries[0].cause == "back after 7 hours 30 minutes' sleep (000 §5 Bonus Spell Points)"
    with pytest.raises(RulesError, match="falls while asleep"):
        plan_day(state, [Cast(200, 3), night])
    with pytest.raises(RulesError, match=re.escape("in order inside 0..480, got (500, 520)")):
        Rest(0, 480, interruptions=((500, 520),))


def test_no_recovery_after_less_than_four_hours_sleep():
    state = mana_state(Caster(PRIEST, 5, wisdom=17)).emptied()
    assert time_to_full(state, rest_minutes=180).study_minutes is None
    plan = plan_day(state, [Rest(0, 180), Study(180, 600)])
    assert plan.final.points == 0 and plan.recoveries == ()
    assert [n.rule for n in plan.notes] == ["000 §5 Mana Recovery", "000 §5 Mana Recovery"]


def test_bonus_points_return_after_four_hours_sleep_without_study():
    state = mana_state(Caster(PRIEST, 5, wisdom=17)).emptied()  # 12 + 9 bonus
    plan = plan_day(state, [Rest(0, 240)])
    assert plan.final.points == 9
    assert plan.recoveries[0].cause.endswith("(000 §5 Bonus Spell Points)")
    estimate = time_to_full(state, rest_minutes=240)
    assert estimate.pools[0].automatic == 9 and estimate.study_minutes == 12 * 14


def test_free_boxes_return_after_sleep_and_are_not_studied():
    state = mana_state(Caster(PRIEST, 5, wisdom=17), ManaOptions(wisdom_bonus=BonusMethod.FREE_BOXES)).emptied()
    plan = plan_day(state, [Rest(0, 480), Study(480, 480 + 120)])
    assert plan.final.full and plan.full_at == 480 + 120
    with pytest.raises(RulesError, match="come back after 4\\+ hours' sleep, not by study"):
        plan_day(state, [Study(0, 60, order=("free spells 1st",))])


def test_bonus_points_count_toward_the_recovery_limit():
    state = mana_state(Caster(PRIEST, 5, wisdom=17)).emptied()  # 21 points, 9 of them bonus
    plan = plan_day(state, [Study(0, 210), Cast(210, 3), Rest(300, 780)])
    assert plan.final.points == 18
    assert plan.notes[-1].text == "mana: already regained its total in the last 24 hours"


def test_bonus_points_return_once_a_day():
    state = mana_state(Caster(PRIEST, 5, wisdom=17))
    events = [Cast(0, 3), Cast(0, 3), Cast(0, 3), Rest(60, 360), Cast(400, 3), Cast(400, 3), Rest(500, 800)]
    plan = plan_day(state, events)
    assert plan.final.points == 21 - 9 + 9 - 6  # the second night's sleep brings no bonus
    assert plan.notes[-1].rule == "000 §5 Bonus Spell Points"
    later = plan_day(state, [*events, Cast(900, 3), Rest(1440 + 360, 1440 + 700)])
    assert later.final.points == 15 - 3 + 9  # 24 hours after the first return


def test_recovery_limit_casting_total_per_24_hours():
    """ "they may not replenish all points, use a few, and then regain some more"."""
    state = mana_state(Caster(PRIEST, 5)).emptied()
    events = [Study(0, 120), Cast(120, 3), Cast(120, 3), Study(120, 600)]
    plan = plan_day(state, events)
    assert plan.full_at is None and plan.final.points == 6
    assert plan.notes[-1].rule == "000 §5 Recovery Limit"
    # the first point came back at minute 10; from minute 1450 the window has room again
    later = plan_day(state, [*events, Rest(800, 1280), Study(1440, 1440 + 120)])
    assert later.final.full
    assert [r.minute for r in later.recoveries][-6:] == [1450, 1460, 1470, 1480, 1490, 1500]


def test_one_interruption_of_up_to_two_hours_is_allowed():
    state = mana_state(Caster(PRIEST, 5)).emptied()
    plan = plan_day(state, [Study(0, 55), Study(175, 240)])  # a 2-hour break
    assert plan.final.full and plan.full_at == 175 + 65
    assert plan.recoveries[5].minute == 180  # the sixth point: 5 minutes before the break, 5 after


def test_a_longer_or_second_interruption_ends_the_session_until_the_next_rest():
    state = mana_state(Caster(PRIEST, 5)).emptied()
    longer = plan_day(state, [Study(0, 60), Study(181, 300)])
    assert longer.final.points == 6 and "121-minute break" in longer.notes[0].text
    second = plan_day(state, [Study(0, 30), Study(40, 60), Study(70, 200)])
    assert second.final.points == 5 and "second break" in second.notes[0].text
    after = plan_day(state, [Study(0, 60), Study(181, 300), Study(300, 400)])
    assert after.final.points == 6 and after.notes[-1].text.startswith("study regains nothing")
    resumed = plan_day(state, [Study(0, 30), Study(40, 60), Study(70, 200), Rest(200, 680), Study(680, 800)])
    assert resumed.final.full


# --- Mana System II ---------------------------------------------------------------------------


def test_slots_per_level_from_the_progression():
    state = mana_state(Caster(WIZARD, 9, specialist=True), ManaOptions(system=ManaSystem.SLOTS))
    slots = {p.label: p.maximum for p in state.pools}
    assert slots == {
        "slots 1st": 4, "slots 2nd": 3, "slots 3rd": 3, "slots 4th": 2, "slots 5th": 1,
        "specialist slots 1st": 1, "specialist slots 2nd": 1, "specialist slots 3rd": 1,
        "specialist slots 4th": 1, "specialist slots 5th": 1,
    }  # fmt: skip


def test_any_known_spell_of_the_slot_level():
    state = mana_state(Caster(WIZARD, 3), ManaOptions(system=ManaSystem.SLOTS))
    book = Repertoire(14, (KnownSpell("knock", 2), KnownSpell("web", 2), KnownSpell("sleep", 1)))
    state, spend = cast_known(state, book, "knock")
    assert spend.pool == "slots 2nd" and spend.units == 1
    with pytest.raises(RulesError, match="cannot pay for a 2nd-level spell"):
        cast_known(state, book, "web")
    state, _ = cast_known(state, book, "sleep")
    with pytest.raises(RulesError, match="not on the memorized list"):
        cast_known(state, book, "fireball")


def test_bonus_slots_are_kept_apart_and_spent_first():
    state = mana_state(Caster(PRIEST, 3, wisdom=15), ManaOptions(system=ManaSystem.SLOTS))
    assert [(p.label, p.maximum) for p in state.pools] == [
        ("slots 1st", 2), ("slots 2nd", 1), ("bonus slots 1st", 2), ("bonus slots 2nd", 1),
    ]  # fmt: skip
    state, spend = cast(state, 1)
    assert spend.pool == "bonus slots 1st"


def test_system_ii_caster_elects_which_slots_to_recover():
    state = mana_state(Caster(WIZARD, 5), ManaOptions(system=ManaSystem.SLOTS)).emptied()
    plan = plan_day(state, [Study(0, 30, order=("slots 3rd",))])
    assert [(r.minute, r.pool) for r in plan.recoveries] == [(30, "slots 3rd")]
    default = plan_day(state, [Study(0, 30)])
    assert [(r.minute, r.pool) for r in default.recoveries] == [(10, "slots 1st"), (20, "slots 1st"), (30, "slots 1st")]


def test_system_ii_specialist_slots_at_half_time():
    state = mana_state(Caster(WIZARD, 5, specialist=True), ManaOptions(system=ManaSystem.SLOTS)).emptied()
    plan = plan_day(state, [Study(0, 60, order=("specialist slots 3rd", "specialist slots 1st"))])
    assert [(r.minute, r.pool) for r in plan.recoveries] == [(15, "specialist slots 3rd"), (20, "specialist slots 1st")]
    assert time_to_full(state).study_minutes == (4 * 1 + 2 * 2 + 1 * 3) * 10 + (1 + 2 + 3) * 5


# --- Learning and forgetting ------------------------------------------------------------------


@pytest.mark.parametrize(("level", "library", "days"), [(1, True, Fraction(1, 2)), (9, True, Fraction(9, 2)),
                                                        (1, False, 1), (9, False, 9)])  # fmt: skip
def test_research_days(level, library, days):
    assert research_days(level, library=library) == days


def test_learning_below_the_maximum_forgets_nothing():
    learned = learn(Repertoire(9), "magic missile", 1, library=False)
    assert learned.forgotten is None and learned.roll is None and learned.research_days == 1
    assert learned.repertoire.memorized == (KnownSpell("magic missile", 1),)
    assert learn(Repertoire(9), "sleep", 1, advancement=True).research_days == 0


def _full_first_level(intelligence=9, exempt=()):
    most = intelligence_limits(intelligence).max_spells_per_level
    spells = tuple(KnownSpell(f"spell {chr(97 + n)}", 1, exempt=f"spell {chr(97 + n)}" in exempt) for n in range(most))
    return Repertoire(intelligence, spells)


def test_learning_past_the_maximum_forgets_a_random_non_exempt_spell():
    book = _full_first_level(exempt=("spell a", "spell c"))
    assert [s.name for s in forget_candidates(book, 1)] == ["spell b", "spell d", "spell e", "spell f"]
    learned = learn(book, "sleep", 1, roller=Roller(entered={"forget: 1st-level spell": 3}))
    assert learned.forgotten.name == "spell e" and learned.roll.entered
    assert learned.roll.dice.sides == 4
    assert len(learned.repertoire.known(1)) == 6
    assert "spell e" in learned.repertoire.spellbook and "spell e" not in [s.name for s in learned.repertoire.memorized]
    seeded = learn(book, "sleep", 1, roller=Roller(seed=3))
    assert seeded.forgotten in forget_candidates(book, 1)


def test_forgetting_needs_a_roll():
    with pytest.raises(MissingRollError, match="forget: 1st-level spell"):
        learn(_full_first_level(), "sleep", 1)


def test_five_exempt_spells_leave_one_candidate_and_no_roll():
    book = _full_first_level(exempt=("spell a", "spell b", "spell c", "spell d", "spell e"))
    learned = learn(book, "sleep", 1)
    assert learned.forgotten.name == "spell f" and learned.roll is None


def test_at_most_five_exempt_spells():
    book = _full_first_level(intelligence=18)
    for name in ("spell a", "spell b", "spell c", "spell d", "spell e"):
        book = set_exempt(book, name)
    with pytest.raises(RulesError, match="at most 5 spells on the list are exempt"):
        set_exempt(book, "spell f")
    fireball = KnownSpell("fireball", 3, exempt=True)
    per_level = Repertoire(18, (*book.memorized, fireball), exempt_scope=ExemptScope.PER_LEVEL)
    assert len([s for s in per_level.memorized if s.exempt]) == 6
    with pytest.raises(RulesError, match="at one spell level"):
        set_exempt(per_level, "spell f")


def test_relearning_a_forgotten_spell():
    book = _full_first_level()
    learned = learn(book, "sleep", 1, roller=Roller(entered={"forget: 1st-level spell": 1}))
    assert learned.forgotten.name == "spell a"
    back = learn(learned.repertoire, "spell a", 1, roller=Roller(entered={"forget: 1st-level spell": 6}))
    assert back.forgotten.name == "spell f" and back.research_days == Fraction(1, 2)
    assert sorted(s.name for s in back.repertoire.forgotten) == ["spell f"]
    with pytest.raises(RulesError, match="in the spell book as a 1st-level spell"):
        learn(back.repertoire, "spell f", 2)


def test_int_limits_the_spell_level_and_all_means_no_maximum():
    with pytest.raises(RulesError, match="INT 9 learns spells up to 4th level, not 5th") as error:
        learn(Repertoire(9), "cone of cold", 5)
    assert error.value.rule == "PH Table 4"
    with pytest.raises(RulesError, match="INT 8 learns no spells"):
        learn(Repertoire(8), "sleep", 1)
    book = Repertoire(19, tuple(KnownSpell(f"s{n}", 1) for n in range(30)))
    assert learn(book, "sleep", 1).forgotten is None
    with pytest.raises(RulesError, match="already on the memorized list"):
        learn(book, "s1", 1)


# --- Impossible values -----------------------------------------------------------------------


@pytest.mark.parametrize(("make", "message"), [
    (lambda: starting_mana(-1, 12), "base mana is a whole number of points, 0 or more, got -1"),
    (lambda: starting_mana(4, 12, prime_requisite=30), "the prime requisite is an ability score, 1..25, got 30"),
    (lambda: Pool(PoolKind.SLOTS, None, 1, 1), "spell level 1..9 for boxes and slots, None for points; got None"),
    (lambda: Pool(PoolKind.POINTS, 2, 1, 1), "got 2"),
    (lambda: Pool(PoolKind.POINTS, None, 0, -1), "the maximum is a whole number, 0 or more, got -1"),
    (lambda: Pool(PoolKind.POINTS, None, 5, 4), "available must be 0..4, got 5"),
    (lambda: Pool(PoolKind.POINTS, None, 4, 4, 5), "automatic must be 0..4, got 5"),
    (lambda: ManaState("x", 1, (Pool(PoolKind.POINTS, None, 1, 1),) * 2), "two pools share a label"),
    (lambda: InnateSpell("wish", 10), "a spell's level is 1..9, got 10"),
    (lambda: InnateSpell("light", 1, per_day=0), "uses per day is 1 or more"),
    (lambda: innate_state([InnateSpell("light", 1)] * 2), "each innate spell is listed once"),
    (lambda: minutes_per_point(0), "the highest allowable spell level is 1..9, got 0"),
    (lambda: recovery_minutes(-2, 10), "points must be a whole number, 0 or more, got -2"),
    (lambda: research_days(0), "a spell's level is 1..9, got 0"),
    (lambda: KnownSpell("", 1), "a spell needs a name"),
    (lambda: Repertoire(12, (KnownSpell("sleep", 1), KnownSpell("sleep", 1))), "each spell is in the spell book once"),
    (lambda: Repertoire(8, (KnownSpell("sleep", 1),)), "INT 8 learns no spells"),
    (lambda: Repertoire(9, (KnownSpell("fireball", 5),)), "INT 9 learns spells up to 4th level, not 5th"),
    (lambda: Repertoire(9, tuple(KnownSpell(f"s{n}", 1) for n in range(7))), "at most 6 spells per level, got 7"),
    (lambda: Repertoire(9, (KnownSpell("sleep", 1),), forgotten=(KnownSpell("sleep", 1),)), "memorized or forgotten"),
])  # fmt: skip
def test_impossible_values_name_the_value(make, message):
    with pytest.raises(RulesError, match=re.escape(message)):
        make()


# --- Innate spells ----------------------------------------------------------------------------

LAMIA = [
    InnateSpell("charm person", 1),
    InnateSpell("mirror image", 2),
    InnateSpell("suggestion", 3),
    InnateSpell("illusion", 1, per_day=None),
]


def test_innate_spells_system_i_total_points_any_combination():
    state = innate_state(LAMIA)
    assert state.points == 1 + 2 + 3
    state, _ = cast_innate(state, LAMIA, "suggestion")
    state, _ = cast_innate(state, LAMIA, "suggestion")  # any combination at their normal cost
    state, spend = cast_innate(state, LAMIA, "illusion")
    assert state.points == 0 and spend.units == 0 and spend.pool is None
    with pytest.raises(RulesError, match="cannot pay"):
        cast_innate(state, LAMIA, "charm person")


def test_innate_spells_system_ii_slot_per_spell_by_level():
    state = innate_state(LAMIA, system=ManaSystem.SLOTS)
    assert [(p.label, p.maximum) for p in state.pools] == [("slots 1st", 1), ("slots 2nd", 1), ("slots 3rd", 1)]
    state, spend = cast_innate(state, LAMIA, "charm person")
    assert spend.pool == "slots 1st"
    plan = plan_day(state, [Rest(60, 300)])
    assert plan.final.full and plan.recoveries[0].minute == 300


def test_unknown_innate_spell():
    with pytest.raises(RulesError, match="no innate spell 'fireball'"):
        cast_innate(innate_state(LAMIA), LAMIA, "fireball")


# --- The day planner --------------------------------------------------------------------------


def test_planner_rows_explain_themselves():
    plan = plan_day(mana_state(Caster(PRIEST, 5)), [Cast(60, 3), Study(90, 120)], end=200)
    assert [(s.minute, s.pool, s.available) for s in plan.samples] == [
        (0, "mana", 12), (60, "mana", 9), (100, "mana", 10), (110, "mana", 11), (120, "mana", 12), (200, "mana", 12),
    ]  # fmt: skip
    assert plan.samples[1].cause == "3rd-level spell: 3 points from the mana pool (000 §5 Mana System I)"
    assert plan.samples[2].cause == "study at 10 minutes per point (000 §5 Mana Recovery)"
    assert plan.series("mana") == plan.series()
    assert plan.full_at == 120


def test_planner_rejects_impossible_plans():
    state = mana_state(Caster(WIZARD, 5))
    with pytest.raises(RulesError, match="minute 30: a 5th-level wizard may not cast a 4th-level spell"):
        plan_day(state, [Cast(30, 4)])
    with pytest.raises(RulesError, match="falls inside"):
        plan_day(state, [Study(0, 60), Cast(30, 1)])
    with pytest.raises(RulesError, match="falls while asleep"):
        plan_day(state, [Rest(0, 480), Cast(30, 1)])
    with pytest.raises(RulesError, match="begins before"):
        plan_day(state, [Rest(0, 480), Study(400, 500)])
    with pytest.raises(RulesError, match="must end after it starts"):
        plan_day(state, [Study(60, 60)])
    with pytest.raises(RulesError, match="0 or more, got -5"):
        plan_day(state, [Cast(-5, 1)])
    with pytest.raises(RulesError, match="comes before its last event"):
        plan_day(state, [Study(0, 60)], end=30)
    with pytest.raises(RulesError, match="no pool 'slots 9th'"):
        plan_day(state, [Study(0, 60, order=("slots 9th",))])
    with pytest.raises(RulesError, match="a tuple of pool labels, got 'mana'"):
        Study(0, 60, order="mana")
    with pytest.raises(RulesError, match="a plan holds Cast, Rest and Study events"):
        plan_day(state, ["cast fireball"])


# --- Invariants -------------------------------------------------------------------------------

CASTERS = st.builds(
    Caster,
    st.sampled_from(list(CasterClass)),
    st.integers(1, 20),
    constitution=st.integers(3, 19),
    wisdom=st.integers(3, 19),
    intelligence=st.integers(9, 19),
)
OPTIONS = st.builds(
    ManaOptions,
    system=st.sampled_from(list(ManaSystem)),
    base=st.sampled_from(list(BaseManaSource)),
    wisdom_bonus=st.sampled_from(list(BonusMethod)),
    recovery_rate=st.sampled_from(list(RecoveryRate)),
)


@st.composite
def days(draw):
    caster = draw(CASTERS)
    if caster.caster_class is WIZARD:
        caster = Caster(WIZARD, caster.level, intelligence=caster.intelligence, specialist=draw(st.booleans()))
    state = mana_state(caster, draw(OPTIONS))
    if draw(st.booleans()):
        state = state.emptied()
    events: list = []
    minute = 0
    def affordable(event):  # keep only casts the pools can pay for at that minute
        try:
            cast(plan_day(state, events).final, event.spell_level, specialty=event.specialty)
        except RulesError:
            return False
        return True

    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["cast", "cast", "rest", "study", "study", "wait"]))
        if kind == "cast" and state.highest_spell_level:
            event = Cast(minute, draw(st.integers(1, state.highest_spell_level)), specialty=draw(st.booleans()))
            if affordable(event):
                events.append(event)
        elif kind == "rest":
            length = draw(st.integers(30, 720))
            awake = ()
            if draw(st.booleans()):  # woken once, perhaps to cast
                since = draw(st.integers(minute, minute + length - 1))
                awake = ((since, draw(st.integers(since + 1, minute + length))),)
                if state.highest_spell_level and draw(st.booleans()):
                    event = Cast(since, draw(st.integers(1, state.highest_spell_level)))
                    if affordable(event):
                        events.append(event)
            events.append(Rest(minute, minute + length, interruptions=awake))
            minute += length
        elif kind == "study":
            length = draw(st.integers(5, 600))
            events.append(Study(minute, minute + length))
            minute += length
        else:
            minute += draw(st.integers(1, 300))
    return state, events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(days())
def test_pools_stay_in_range_and_recovery_respects_the_24_hour_limit(day):
    state, events = day
    plan = plan_day(state, events)
    maxima = {pool.label: pool.maximum for pool in state.pools}
    for sample in plan.samples:
        assert 0 <= sample.available <= sample.maximum == maxima[sample.pool]
    assert [s.minute for s in plan.samples] == sorted(s.minute for s in plan.samples)
    for recovery in plan.recoveries:
        since = recovery.minute - DAY
        window = [r for r in plan.recoveries if r.pool == recovery.pool and since < r.minute <= recovery.minute]
        assert sum(r.units for r in window) <= maxima[recovery.pool]
    last = {s.pool: s.available for s in plan.samples}
    assert last == {pool.label: pool.available for pool in plan.final.pools}


@settings(max_examples=60, deadline=None)
@given(CASTERS, OPTIONS, st.lists(st.integers(1, 9), max_size=8), st.integers(240, 720))
def test_time_to_full_matches_the_planner(caster, options, levels, rest):
    """The closed form against the minute-by-minute planner (a brute-force oracle)."""
    state = mana_state(caster, options)
    for level in levels:
        try:
            state, _ = cast(state, level)
        except RulesError:
            continue
    estimate = time_to_full(state, rest_minutes=rest)
    plan = plan_day(state, [Rest(0, rest), Study(rest, rest + estimate.study_minutes + 30)])
    assert plan.final.full
    if state.full:
        assert plan.full_at == 0
    else:
        assert plan.full_at == rest + estimate.study_minutes
