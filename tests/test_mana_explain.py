"""The mana engine's explanations (000 §5): the sentences a teaching view shows as they are,
pinned against the seed's worked examples, each citing its rule."""

import itertools
from fractions import Fraction

import pytest

from combatkit.errors import RulesError
from combatkit.mana import (
    BaseManaSource,
    BonusMethod,
    Cast,
    Caster,
    CasterClass,
    ConstitutionRule,
    ManaOptions,
    ManaSystem,
    Pool,
    PoolKind,
    RecoveryRate,
    Rest,
    Study,
    cast,
    cast_refusal,
    explain_base_mana,
    explain_pool_recovery,
    explain_pools,
    explain_recovery,
    mana_state,
    plan_day,
    time_to_full,
)

PRIEST, WIZARD, RANGER, PALADIN = CasterClass.PRIEST, CasterClass.WIZARD, CasterClass.RANGER, CasterClass.PALADIN


def texts(explanation) -> list[str]:
    return [note.text for note in explanation.notes]


# ---------------------------------------------------------------- what the pools hold


def test_fifth_level_priest_twelve_points_explained():
    # 000 §5 Mana System I: "(3 x 1) + (3 x 2) + (1 x 3) = 12", barring bonus spells
    priest = Caster(PRIEST, 5)
    explanation = explain_pools(mana_state(priest), priest)
    assert explanation.headline == "5th-level priest, Mana System I (points): 12 of 12 spell levels available"
    assert texts(explanation) == [
        "Spells by the PH progression: 3 × 1st + 3 × 2nd + 1 × 3rd; highest spell level 3rd.",
        "Base mana (printed table, 000 §5 Mana System I): 12 points.",
        "No free spells: WIS 10 gives none (PH Table 5 starts at 13).",
    ]
    assert [note.rule for note in explanation.notes] == ["PH Table 24", "000 §5 Mana System I", "PH Table 5"]


def test_the_headline_counts_what_is_left_after_casts():
    # "the priest could cast four 3rd level spells": after one, nine points are left
    priest = Caster(PRIEST, 5)
    after, _ = cast(mana_state(priest), 3)
    assert explain_pools(after, priest).headline.endswith(": 9 of 12 spell levels available")


def test_third_level_mage_con_18_explained_under_each_con_rule():
    # 000 §5 Starting Mana: "Instead of a mage's third level total of 4 points, he could conceivably have as many
    # as 6 with an 18 constitution"; Option 1 adds it, Option 2 averages CON with INT (18 and 13: 15, so 5)
    mage = Caster(WIZARD, 3, constitution=18, intelligence=13)

    def con_note(options: ManaOptions) -> str:
        return texts(explain_pools(mana_state(mage, options), mage))[2]

    assert con_note(ManaOptions(constitution=ConstitutionRule.STARTING)) == (
        "After the CON rule (000 §5 Starting Mana, CON 18): 6 points.")
    assert con_note(ManaOptions(constitution=ConstitutionRule.ADDED)) == (
        "After the CON rule (000 §5 Starting Mana, CON 18): 10 points.")
    option_2 = ManaOptions(constitution=ConstitutionRule.STARTING, constitution_with_prime_requisite=True)
    assert con_note(option_2) == "After the CON rule (000 §5 Starting Mana, Option 2, CON 18): 5 points."
    assert explain_pools(mana_state(mage, option_2), mage).notes[2].rule == "000 §5 Starting Mana"
    assert len(explain_pools(mana_state(mage), mage).notes) == 2  # the rule is off: no CON note


@pytest.mark.parametrize(("options", "kept", "rule"), [
    (ManaOptions(), "their points added to the mana pool (000 §5, method 1)", "000 §5 Mana System I"),
    (ManaOptions(wisdom_bonus=BonusMethod.FREE_BOXES),
     "kept as boxes checked before any mana is spent (000 §5, method 2)", "000 §5 Mana System I"),
    (ManaOptions(system=ManaSystem.SLOTS), "kept as bonus slots (000 §5 Mana System II)", "000 §5 Mana System II"),
])
def test_wisdom_17_bonus_spells_and_how_they_are_kept(options, kept, rule):
    # PH Table 5: WIS 17 gives two 1st, two 2nd and one 3rd-level bonus spell; 000 §5 keeps them two ways
    wise = Caster(PRIEST, 5, wisdom=17)
    note = explain_pools(mana_state(wise, options), wise).notes[-1]
    assert note.text == (f"Free spells for WIS 17 (PH Table 5): 2 × 1st + 2 × 2nd + 1 × 3rd, {kept}. "
                         "They come back after 4+ hours' sleep without study (000 §5 Bonus Spell Points).")
    assert note.rule == rule


def test_system_ii_has_no_base_mana_note():
    priest = Caster(PRIEST, 5)
    explanation = explain_pools(mana_state(priest, ManaOptions(system=ManaSystem.SLOTS)), priest)
    assert explanation.headline == "5th-level priest, Mana System II (slots): 12 of 12 spell levels available"
    assert not any("Base mana" in text for text in texts(explanation))


def test_a_ranger_below_eighth_level_has_no_mana_and_says_why():
    ranger = Caster(RANGER, 5)
    explanation = explain_pools(mana_state(ranger), ranger)
    assert explanation.headline == "5th-level ranger: no spells yet"
    assert texts(explanation) == [
        "The PH progression gives a ranger of this level no spells, so there is no mana (000 §5 Mana System I)."]


def test_every_pool_note_cites_a_rule():
    casters = [Caster(PRIEST, 12, wisdom=18), Caster(WIZARD, 9, specialist=True), Caster(RANGER, 10),
               Caster(PALADIN, 9), Caster(RANGER, 3)]
    options = [ManaOptions(system=system, wisdom_bonus=method, constitution=con, base=base)
               for system, method, con, base in itertools.product(ManaSystem, BonusMethod, ConstitutionRule,
                                                                  BaseManaSource)
               if not (system is ManaSystem.SLOTS and con is not ConstitutionRule.OFF)]
    for caster, option in itertools.product(casters, options):
        state = mana_state(caster, option)
        for note in explain_pools(state, caster).notes + explain_base_mana(caster, option).notes:
            assert note.rule.startswith(("000 §5 ", "PH Table ")) and note.text
        for pool in state.pools:
            assert explain_pool_recovery(pool).rule.startswith("000 §5 ")


# ---------------------------------------------------------------- the printed table and the stated rule


def test_base_mana_priest_agrees():
    explanation = explain_base_mana(Caster(PRIEST, 5))
    assert explanation.headline == (
        "000 §5's base-mana table prints 12* for this priest; its stated rule, one point per spell level per spell "
        "over the PH progression, gives the same: 3 × 1st + 3 × 2nd + 1 × 3rd = 12.")
    assert explanation.notes == ()


def test_base_mana_paladin_differs_and_system_ii_says_it_does_not_matter():
    # 000 §5 prints 9 for a 20th-level paladin; the rule over PH Table 17 (3, 3, 3, 3) gives 30
    paladin = Caster(PALADIN, 20)
    explanation = explain_base_mana(paladin)
    assert explanation.headline == "The printed table and the stated rule differ here."
    assert texts(explanation) == [
        "000 §5's table prints 9 points for a 20th-level paladin, which matches the PH casting level (9).",
        "The rule the table states, one point per spell level per spell over the PH progression, gives 30: "
        "3 × 1st + 3 × 2nd + 3 × 3rd + 3 × 4th = 30.",
    ]
    slots = explain_base_mana(paladin, ManaOptions(system=ManaSystem.SLOTS))
    assert slots.notes[-1].text == (
        "Under Mana System II the PH slots are used directly, so the difference does not change the pools.")
    assert slots.notes[-1].rule == "000 §5 Mana System II"


# ---------------------------------------------------------------- getting mana back


def test_twentieth_level_mage_27_hours_explained():
    # 000 §5 Mana Recovery: "It would therefore take a 20th level mage 27 hours to completely regain his spells"
    mage = mana_state(Caster(WIZARD, 20)).emptied()
    explanation = explain_recovery(mage, time_to_full(mage))
    assert explanation.headline == "27 hours of study (1620 minutes) after 8 hours of rest"
    assert texts(explanation) == [
        "10 minutes per point: the flat 10 minutes per point, as PH p. 81 (000 §5 Mana Recovery).",
        "This assumes the rest is the first in 24 hours and the study runs without a break; the day planner plays "
        "out breaks, a second night and the 24-hour Recovery Limit.",
    ]
    assert [note.rule for note in explanation.notes] == ["000 §5 Mana Recovery", "000 §5 Recovery Limit"]


def test_the_optional_rate_and_a_short_rest_explained():
    # "13 - highest allowable spell level = number of minutes per point", and "add 1 additional minute per spell
    # point PER HOUR'S REST BELOW 8"
    mage = mana_state(Caster(WIZARD, 20), ManaOptions(recovery_rate=RecoveryRate.BY_SPELL_LEVEL)).emptied()
    assert explain_recovery(mage, time_to_full(mage)).notes[0].text == (
        "4 minutes per point: the option, 13 − highest allowable spell level (9th) = 4 minutes per point "
        "(000 §5 Mana Recovery).")
    short = explain_recovery(mage, time_to_full(mage, rest_minutes=6 * 60))
    assert short.headline == "16 hours 12 minutes of study (972 minutes) after 6 hours of rest"  # 162 x 6
    assert short.notes[0].text == (
        "6 minutes per point: the option, 13 − highest allowable spell level (9th) = 4 minutes per point, + 2 for a "
        "rest of 6 hours: 1 minute per point per hour below 8 (000 §5 Mana Recovery).")


def test_under_four_hours_nothing_comes_back():
    # "If the caster gets less than 4 hours sleep, no points can be regained."
    mage = mana_state(Caster(WIZARD, 20)).emptied()
    explanation = explain_recovery(mage, time_to_full(mage, rest_minutes=3 * 60))
    assert explanation.headline == "Nothing comes back after 3 hours of rest."
    assert texts(explanation) == ["Under 4 hours' sleep no points can be regained, not even bonus points, until "
                                  "the next rest (000 §5 Mana Recovery)."]


def test_full_pools_and_no_spells_need_nothing():
    full = mana_state(Caster(WIZARD, 20))
    assert explain_recovery(full, time_to_full(full)).headline == "Every pool is full: nothing to recover."
    none = mana_state(Caster(RANGER, 5))
    assert explain_recovery(none, time_to_full(none)).headline == (
        "5th-level ranger has no spells, so nothing to recover.")


def test_bonus_and_specialist_points_explained():
    # 000 §5 Bonus Spell Points: bonus points come back with sleep; "Specialist points are recovered at half the
    # required time per point (round up after totaling the minutes required)"
    wise = mana_state(Caster(PRIEST, 5, wisdom=17))
    bonus_only = wise.with_available("mana", 21 - 9)
    explanation = explain_recovery(bonus_only, time_to_full(bonus_only))
    assert explanation.headline == "No study needed: everything missing comes back after 8 hours of sleep."
    assert "Bonus points come back after 4+ hours' sleep, once a day, without study (000 §5 Bonus Spell Points)." in (
        texts(explanation))
    specialist = mana_state(Caster(WIZARD, 20, specialist=True)).emptied()
    estimate = time_to_full(specialist)
    assert "Specialist points take half the time, rounded up after totaling (000 §5 Bonus Spell Points)." in (
        texts(explain_recovery(specialist, estimate)))
    assert [(row.pool, row.minutes_each) for row in estimate.pools] == [("mana", 10), ("specialist mana", 5)]


def test_minutes_each_of_a_pool_with_nothing_to_study_is_none():
    wise = mana_state(Caster(PRIEST, 5, wisdom=17), ManaOptions(wisdom_bonus=BonusMethod.FREE_BOXES)).emptied()
    rows = {row.pool: row for row in time_to_full(wise).pools}
    assert rows["free spells 1st"].minutes_each is None and rows["mana"].minutes_each == Fraction(10)


@pytest.mark.parametrize(("pool", "text", "rule"), [
    (Pool(PoolKind.POINTS, None, 12, 12), "by study (000 §5 Mana Recovery)", "000 §5 Mana Recovery"),
    (Pool(PoolKind.POINTS, None, 21, 21, 9), "9 after 4+ hours' sleep, the rest by study (000 §5 Bonus Spell Points)",
     "000 §5 Bonus Spell Points"),
    (Pool(PoolKind.FREE_SPELLS, 1, 2, 2, 2), "after 4+ hours' sleep, no study (000 §5 Bonus Spell Points)",
     "000 §5 Bonus Spell Points"),
    (Pool(PoolKind.SPECIALIST_POINTS, None, 6, 6),
     "by study at half time (000 §5 Bonus Spell Points); pays for specialty spells only",
     "000 §5 Bonus Spell Points"),
])
def test_how_each_pool_comes_back(pool, text, rule):
    note = explain_pool_recovery(pool)
    assert (note.text, note.rule) == (text, rule)


# ---------------------------------------------------------------- a cast the caster can never make, and the clock


def at_clock(minute: int) -> str:
    return f"minute {minute} ({minute // 60}:{minute % 60:02d})"


def test_cast_refusal_is_the_error_the_plan_raises():
    # 000 §5 Mana System I: "The priest may not cast spells of a higher level than the PH progression charts allows"
    priest = mana_state(Caster(PRIEST, 5))
    refusal = cast_refusal(priest, Cast(1020, 9))
    assert str(refusal) == ("a 5th-level priest may not cast a 9th-level spell: the PH progression allows up to 3rd "
                            "(000 §5 Mana System I)")
    timed = cast_refusal(priest, Cast(1020, 9), clock=at_clock)
    assert timed.rule == "000 §5 Mana System I"
    assert timed.message.startswith("minute 1020 (17:00): a 5th-level priest may not cast a 9th-level spell")
    with pytest.raises(RulesError) as raised:
        plan_day(priest, [Cast(1020, 9)], clock=at_clock)
    assert str(raised.value) == str(timed)


def test_cast_refusal_reads_the_pools_full_and_ignores_rests_and_study():
    priest = mana_state(Caster(PRIEST, 5)).emptied()
    assert cast_refusal(priest, Cast(60, 3)) is None
    assert cast_refusal(priest, Rest(0, 480)) is None and cast_refusal(priest, Study(0, 60)) is None
    assert "5th-level priest has no pool 'slots 1st'" in str(cast_refusal(priest, Cast(0, 1, pool="slots 1st")))


def test_a_plan_names_its_minutes_with_the_callers_clock():
    priest = mana_state(Caster(PRIEST, 5))
    with pytest.raises(RulesError, match=r"a spell cast at minute 300 \(5:00\) falls while asleep"):
        plan_day(priest, [Rest(240, 780), Cast(300, 1)], clock=at_clock)
    with pytest.raises(RulesError, match=r"the plan's end, minute 60 \(1:00\), comes before its last event at "
                                         r"minute 120 \(2:00\)"):
        plan_day(priest, [Cast(120, 1)], end=60, clock=at_clock)
    wise = mana_state(Caster(PRIEST, 5, wisdom=17)).emptied()
    plan = plan_day(wise, [Rest(0, 480), Rest(600, 1080)], clock=at_clock)
    assert [note.text for note in plan.notes] == [
        "mana: bonus points already came back at minute 480 (8:00); they return once a day"]
    assert [note.text for note in plan_day(wise, [Rest(0, 480), Rest(600, 1080)]).notes] == [
        "mana: bonus points already came back at minute 480; they return once a day"]
