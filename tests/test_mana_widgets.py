"""The mana calculators (000 §5), headless: set a control, assert on what the widget now shows
and on the chart's spec; the chart functions through ``chart.to_dict()``. The mana notebooks
run in tests/test_notebooks.py, which executes every notebook."""

import html
import re

from combatkit.mana import (
    BaseManaSource,
    BonusMethod,
    Cast,
    Caster,
    CasterClass,
    ConstitutionRule,
    ManaOptions,
    ManaSystem,
    RecoveryRate,
    Rest,
    Study,
    mana_state,
    plan_day,
)
from combatkit.widgets.views.mana import DEFAULT_DAY, DayPlanner, ManaCalculators, ManaPoolCalculator, RecoveryCalculator
from combatkit.widgets.charts.mana import (
    base_mana_chart,
    base_mana_frame,
    day_plan_chart,
    plan_blocks_frame,
    plan_frame,
)

WIZARD, PRIEST, RANGER, PALADIN = CasterClass.WIZARD, CasterClass.PRIEST, CasterClass.RANGER, CasterClass.PALADIN


def shown(widget) -> str:
    """The text an HTML widget shows: inline tags dropped, others a space, whitespace collapsed."""
    text = re.sub(r"<[^>]+>", " ", re.sub(r"</?(?:b|span)\b[^>]*>", "", widget.value))
    return " ".join(html.unescape(text).split())


def layers(spec: dict) -> dict[str, dict]:
    return {layer["name"]: layer for layer in spec["layer"]}


def rows(spec: dict, layer: dict) -> list[dict]:
    """The rows a layer draws: its own data or the top level's, by dataset name."""
    data = layer.get("data") or spec["data"]
    return spec["datasets"][data["name"]]


def assert_error_shown(widget, *fragments: str) -> None:
    assert widget.message.layout.display != "none"
    message = shown(widget.message)
    assert message.startswith("Not applied:")
    for fragment in fragments:
        assert fragment in widget.error and fragment in message


def assert_no_error(widget) -> None:
    assert widget.error == "" and widget.message.layout.display == "none"


# ---------------------------------------------------------------- ManaPoolCalculator


def test_pool_opens_on_the_seeds_fifth_level_priest_with_twelve_points():
    calc = ManaPoolCalculator()
    assert_no_error(calc)
    assert calc.state.points == 12
    # 000 §5 Mana System I: (3 x 1) + (3 x 2) + (1 x 3) = 12
    assert "5th-level priest, Mana System I (points): 12 of 12 spell levels available" in shown(calc.summary)
    assert "3 × 1st + 3 × 2nd + 1 × 3rd" in shown(calc.summary)
    castable = shown(calc.castable)
    assert "1st yes, 12 in a row" in castable and "3rd yes, 4 in a row" in castable
    assert "4th level and up: a 5th-level priest may not cast a 4th-level spell" in castable


def test_pool_level_20_wizard_and_the_chart_marks_the_level():
    calc = ManaPoolCalculator()
    calc.caster_class.value = WIZARD
    calc.level.value = 20
    assert calc.state.points == 162
    assert "20th-level wizard, Mana System I (points): 162 of 162" in shown(calc.summary)
    assert "9th yes, 18 in a row" in shown(calc.castable)
    spec = calc.chart.spec
    assert spec["title"]["text"] == "Base mana by level: wizard"
    data = rows(spec, layers(spec)["lines"])
    selected = {(r["source"], r["points"]) for r in data if r["selected"]}
    assert selected == {("printed table", 162), ("stated rule", 162)}


def test_pool_ranger_shows_printed_and_computed_and_says_they_differ():
    calc = ManaPoolCalculator(Caster(RANGER, 12))
    # 000 §5 prints 5* for a 12th-level ranger; the rule over PH Table 18 (2, 2, 1) gives 9
    text = shown(calc.comparison)
    assert "The printed table and the stated rule differ here." in text
    assert "prints 5* points for a 12th-level ranger" in text and "PH casting level (5)" in text
    assert "2 × 1st + 2 × 2nd + 1 × 3rd = 9" in text and "using the printed table" in text
    assert calc.state.points == 5
    calc.base.value = BaseManaSource.COMPUTED
    assert calc.state.points == 9 and "using the stated rule" in shown(calc.comparison)
    spec = calc.chart.spec
    assert "differ at 11 of 20 levels" in spec["title"]["subtitle"]
    chosen = {r["source"]: r["points"] for r in rows(spec, layers(spec)["lines"]) if r["selected"]}
    assert chosen == {"printed table": 5, "stated rule": 9}


def test_pool_priest_table_agrees_and_says_so():
    calc = ManaPoolCalculator()
    assert calc.comparison.value.count("ck-agree") == 1 and "ck-differ" not in calc.comparison.value
    assert "prints 12* for this priest" in shown(calc.comparison)


def test_pool_third_level_mage_with_con_18_has_six_points():
    calc = ManaPoolCalculator(Caster(WIZARD, 3, constitution=18))
    assert calc.state.points == 4
    calc.constitution_rule.value = ConstitutionRule.STARTING
    # 000 §5 Starting Mana: "as many as 6 with an 18 constitution"
    assert calc.state.points == 6
    assert "After the CON rule (000 §5 Starting Mana, CON 18): 6 points." in shown(calc.summary)
    calc.constitution_rule.value = ConstitutionRule.ADDED
    assert calc.state.points == 10


def test_pool_wisdom_bonus_as_free_boxes_pays_first():
    calc = ManaPoolCalculator(Caster(PRIEST, 5, wisdom=17), ManaOptions(wisdom_bonus=BonusMethod.FREE_BOXES))
    assert [p.label for p in calc.state.pools] == ["mana", "free spells 1st", "free spells 2nd", "free spells 3rd"]
    assert "2 × 1st + 2 × 2nd + 1 × 3rd, kept as boxes" in shown(calc.summary)
    calc.spell_level.value = 1
    calc.cast_button.click()
    assert calc.spends[0].pool == "free spells 1st"
    assert "1st-level spell: 1 box from the free spells 1st pool" in shown(calc.summary)
    calc.wisdom_bonus.value = BonusMethod.ADDED
    assert calc.state.pool("mana").available == 21 - 1  # the cast is replayed on the new pools


def test_pool_casts_drain_the_pool_and_recover_all_refills_it():
    calc = ManaPoolCalculator()
    calc.spell_level.value = 3
    for _ in range(4):
        calc.cast_button.click()
    assert calc.state.points == 0 and "3rd no" in shown(calc.castable)
    calc.cast_button.click()
    assert_error_shown(calc, "cannot pay for a 3rd-level spell (mana: 0 left)", "000 §5 Mana System I")
    assert len(calc.spends) == 4
    calc.recover_button.click()
    assert_no_error(calc)
    assert calc.state.points == 12 and calc.spends == ()


def test_pool_ninth_level_spell_at_level_5_shows_the_rule_and_keeps_inputs():
    calc = ManaPoolCalculator(Caster(WIZARD, 5))
    calc.spell_level.value = 9
    calc.cast_button.click()
    assert_error_shown(calc, "a 5th-level wizard may not cast a 9th-level spell", "allows up to 3rd",
                       "000 §5 Mana System I")
    assert calc.spell_level.value == 9 and calc.state.points == 11 and calc.spends == ()


def test_pool_level_0_shows_the_rule_and_keeps_the_last_good_result():
    calc = ManaPoolCalculator()
    before = (calc.summary.value, calc.chart.spec)
    calc.level.value = 0
    assert_error_shown(calc, "caster level must be 1..20", "got 0", "000 §5 Mana System I")
    assert calc.level.value == 0
    assert (calc.summary.value, calc.chart.spec) == before and calc.state.points == 12
    calc.level.value = 3
    assert_no_error(calc)
    assert calc.state.points == 4


def test_pool_system_ii_shows_slots_and_refuses_the_con_rule():
    calc = ManaPoolCalculator()
    calc.system.value = ManaSystem.SLOTS
    assert [(p.label, p.maximum) for p in calc.state.pools] == [("slots 1st", 3), ("slots 2nd", 3), ("slots 3rd", 1)]
    assert "Mana System II (slots)" in shown(calc.summary) and "3rd yes, 1 in a row" in shown(calc.castable)
    calc.constitution_rule.value = ConstitutionRule.STARTING
    assert_error_shown(calc, "Mana System II has none to adjust", "000 §5 Starting Mana")
    assert calc.options.system is ManaSystem.SLOTS and calc.options.constitution is ConstitutionRule.OFF


def test_pool_specialist_has_its_own_pool_for_specialty_spells():
    calc = ManaPoolCalculator(Caster(WIZARD, 3))
    calc.specialist.value = True
    assert calc.state.pool("specialist mana").maximum == 3
    assert "1st specialty yes, 7 in a row" in shown(calc.castable)
    calc.caster_class.value = PRIEST
    assert_error_shown(calc, "only a wizard can be a specialist")
    assert calc.caster.caster_class is WIZARD


def test_pool_ranger_below_eighth_level_has_no_spells():
    calc = ManaPoolCalculator(Caster(RANGER, 5))
    assert calc.state.pools == () and "no spells yet" in shown(calc.summary)
    assert "1st level and up: a 5th-level ranger may not cast a 1st-level spell" in shown(calc.castable)


def test_show_caster_sets_every_control_and_recomputes_once():
    calc = ManaPoolCalculator()
    calc.show_caster(Caster(PALADIN, 20, wisdom=13), ManaOptions(base=BaseManaSource.COMPUTED))
    assert (calc.caster_class.value, calc.level.value, calc.wisdom.value, calc.base.value) == (
        PALADIN, 20, 13, BaseManaSource.COMPUTED)
    assert calc.state.points == 30


def test_a_calculator_opened_with_input_the_engine_rejects_says_why_and_still_draws():
    calc = ManaPoolCalculator(options=ManaOptions(system=ManaSystem.SLOTS, constitution=ConstitutionRule.STARTING))
    assert_error_shown(calc, "Mana System II has none to adjust")
    assert calc.state is None and calc.chart.spec["title"]["text"] == "Base mana by level: priest"
    calc.constitution_rule.value = ConstitutionRule.OFF
    assert_no_error(calc)
    assert calc.state.maximum_points == 12 and "slots 3rd" in shown(calc.summary)

    planner = DayPlanner(Caster(WIZARD, 1))  # the default day casts 3rd-level spells: they are not played
    assert_no_error(planner)
    assert planner.plan.start.who == "1st-level wizard" and len(planner.set_aside) == 4  # every cast
    assert "a 1st-level wizard may not cast a 3rd-level spell" in shown(planner.aside)
    planner.level.value = 5
    assert_no_error(planner)
    assert planner.plan.start.who == "5th-level wizard" and planner.set_aside == {}


# ---------------------------------------------------------------- DayPlanner


def test_planner_opens_on_a_day_whose_second_break_ends_the_session():
    planner = DayPlanner()
    assert_no_error(planner)
    assert planner.events == DEFAULT_DAY and planner.plan.final.pool("mana").available == 10
    notes = shown(planner.notes)
    assert "15:50: the recovery session is over after a second break" in notes
    assert "[000 §5 Recovery Limit]" in notes
    assert "Not full at the end of the plan." in shown(planner.summary)
    labels = [label for label, _ in planner.event_list.options]
    assert "4:00-13:00 rest: 8 hours asleep; awake 8:00-9:00" in labels


def test_planner_chart_shades_rests_interruptions_and_study_and_marks_the_block():
    spec = DayPlanner().chart.spec
    named = layers(spec)
    shading = [(r["kind"], r["when"]) for r in rows(spec, named["shading"])]
    assert ("asleep", "4:00-8:00") in shading and ("awake", "8:00-9:00") in shading
    assert ("asleep", "9:00-13:00") in shading and ("study", "13:00-13:40") in shading
    assert named["pools"]["mark"]["interpolate"] == "step-after"
    blocked = [r for r in rows(spec, named["blocked"]) if r["kind"] == "blocked"]
    assert [(r["when"], r["rule"]) for r in blocked] == [("15:50", "000 §5 Recovery Limit")]
    assert named["blocked"]["transform"] == [{"filter": "datum.kind == 'blocked'"}]
    levels = [(r["when"], r["available"]) for r in rows(spec, named["pools"])]
    assert levels[:4] == [("0:00", 12), ("1:00", 9), ("2:00", 6), ("3:00", 4)]


def test_planner_adding_a_rest_and_study_finishes_the_recovery():
    planner = DayPlanner()
    planner.kind.value = "rest"
    planner.start.value, planner.end.value = "17:00", "25:00"
    planner.add.click()
    planner.kind.value = "study"
    planner.start.value, planner.end.value = "25:00", "25:30"
    planner.add.click()
    assert_no_error(planner)
    assert len(planner.events) == len(DEFAULT_DAY) + 2
    assert planner.plan.final.full and "Full again from 25:20." in shown(planner.summary)
    assert rows(planner.chart.spec, layers(planner.chart.spec)["pools"])[-1]["when"] == "25:30"


def test_planner_sleeping_30_hours_is_refused_and_the_form_keeps_it():
    planner = DayPlanner()
    spec = planner.chart.spec
    planner.kind.value = "rest"
    planner.start.value, planner.end.value = "0:00", "30:00"
    planner.add.click()
    assert_error_shown(planner, "a rest lasts 0..1440 minutes (24 hours) in a day, got 1800 (30 hours)",
                       "000 §5 Mana Recovery")
    assert (planner.kind.value, planner.start.value, planner.end.value) == ("rest", "0:00", "30:00")
    assert planner.events == DEFAULT_DAY and planner.chart.spec == spec


def test_planner_ninth_level_spell_at_level_5_is_refused_with_the_time():
    planner = DayPlanner()
    planner.start.value = "17:00"
    planner.spell_level.value = 9
    planner.add.click()
    assert_error_shown(planner, "minute 1020 (17:00): a 5th-level priest may not cast a 9th-level spell",
                       "000 §5 Mana System I")
    assert planner.error.endswith("allows up to 3rd (000 §5 Mana System I)")  # the rule cited once, the cast's own
    assert planner.events == DEFAULT_DAY and planner.spell_level.value == 9


def test_planner_a_time_it_cannot_read_is_named():
    planner = DayPlanner()
    planner.start.value = "8pm"
    planner.add.click()
    assert_error_shown(planner, "at / from: '8pm' is not a time")
    planner.kind.value = "rest"
    planner.start.value, planner.end.value, planner.awake.value = "17:00", "25:00", "20:00"
    planner.add.click()
    assert_error_shown(planner, "'20:00' is not a from-to span")
    assert planner.events == DEFAULT_DAY


def test_planner_a_level_change_plays_the_day_without_the_casts_it_cannot_cast_and_keeps_them():
    planner = DayPlanner()
    planner.level.value = 3
    assert_no_error(planner)
    assert planner.events == DEFAULT_DAY and planner.plan.start.who == "3rd-level priest"
    assert [DEFAULT_DAY[i] for i in planner.set_aside] == [Cast(60, 3), Cast(120, 3)]
    assert "1:00 cast a 3rd-level spell: a 3rd-level priest may not cast a 3rd-level spell" in shown(planner.aside)
    assert [label for label, _ in planner.event_list.options][:2] == [
        "1:00 cast a 3rd-level spell (not played)", "2:00 cast a 3rd-level spell (not played)"]
    planner.level.value = 9
    assert_no_error(planner)
    assert planner.plan.start.who == "9th-level priest" and planner.planned == DEFAULT_DAY
    assert planner.aside.layout.display == "none"


def test_planner_remove_and_clear():
    planner = DayPlanner()
    cast_at_one = next(value for label, value in planner.event_list.options if label.startswith("1:00"))
    planner.event_list.value = cast_at_one
    planner.remove.click()
    assert Cast(60, 3) not in planner.events and len(planner.events) == len(DEFAULT_DAY) - 1
    assert planner.plan.final.pool("mana").available == 12  # 3 points fewer to recover
    planner.clear.click()
    assert planner.events == () and planner.event_list.options == ()
    assert "Full all day." in shown(planner.summary) and "None: nothing was blocked." in shown(planner.notes)


def test_planner_start_empty_and_a_short_night():
    planner = DayPlanner(events=(Rest(0, 360), Study(360, 600)))
    planner.start_empty.value = True
    # 6 hours' sleep: 10 + 2 minutes per point (000 §5 Mana Recovery); 12 points take 144 minutes
    assert planner.plan.full_at == 360 + 144
    planner.prior_rest.value = 30
    assert_error_shown(planner, "got 1800 (30 hours)")
    assert planner.prior_rest.value == 30


def test_planner_form_enables_the_fields_of_the_kind():
    planner = DayPlanner()
    assert planner.end.disabled and not planner.spell_level.disabled and planner.awake.disabled
    planner.kind.value = "rest"
    assert not planner.end.disabled and planner.spell_level.disabled and not planner.awake.disabled
    planner.kind.value = "study"
    assert not planner.end.disabled and planner.awake.disabled


# ---------------------------------------------------------------- RecoveryCalculator


def test_recovery_twentieth_level_mage_needs_27_hours():
    calc = RecoveryCalculator()
    calc.caster_class.value = WIZARD
    calc.level.value = 20
    # 000 §5 Mana Recovery: "it would therefore take a 20th level mage 27 hours"
    assert calc.estimate.study_minutes == 1620
    answer = shown(calc.answer)
    assert answer.startswith("27 hours of study (1620 minutes) after 8 hours of rest")
    assert "10 minutes per point: the flat 10 minutes per point, as PH p. 81 (000 §5 Mana Recovery)" in answer
    assert "mana 0 of 162 0 162 1620 10" in answer


def test_recovery_faster_rate_and_short_rest():
    calc = RecoveryCalculator(Caster(WIZARD, 20))
    calc.recovery_rate.value = RecoveryRate.BY_SPELL_LEVEL
    assert shown(calc.answer).startswith("10 hours 48 minutes of study (648 minutes)")
    assert "13 − highest allowable spell level (9th) = 4 minutes per point" in shown(calc.answer)
    calc.rest_hours.value = 6
    assert calc.estimate.minutes_per_point == 6
    assert "+ 2 for a rest of 6 hours: 1 minute per point per hour below 8" in shown(calc.answer)
    calc.rest_hours.value = 3
    assert "Under 4 hours' sleep no points can be regained" in shown(calc.answer)


def test_recovery_current_points_per_pool():
    calc = RecoveryCalculator(Caster(WIZARD, 20))
    calc.current["mana"].value = 100
    assert calc.estimate.study_minutes == 620
    calc.current["mana"].value = 162
    assert "Every pool is full" in shown(calc.answer)


def test_recovery_specialist_pool_at_half_time_and_free_points_after_sleep():
    calc = RecoveryCalculator(Caster(WIZARD, 20))
    calc.specialist.value = True
    assert list(calc.current) == ["mana", "specialist mana"]
    answer = shown(calc.answer)
    assert "specialist mana 0 of 45 0 45 225 5" in answer and "Specialist points take half the time" in answer
    calc.show_caster(Caster(PRIEST, 5, wisdom=17))
    assert list(calc.current) == ["mana"]
    assert "mana 0 of 21 9 12 120 10" in shown(calc.answer)
    assert "Bonus points come back after 4+ hours' sleep" in shown(calc.answer)


def test_recovery_sleeping_30_hours_is_refused_and_the_answer_kept():
    calc = RecoveryCalculator(Caster(WIZARD, 20))
    answer = calc.answer.value
    calc.rest_hours.value = 30
    assert_error_shown(calc, "a rest lasts 0..1440 minutes (24 hours) in a day, got 1800 (30 hours)",
                       "000 §5 Mana Recovery")
    assert calc.rest_hours.value == 30 and calc.answer.value == answer and calc.estimate.study_minutes == 1620


def test_recovery_points_above_the_pool_are_refused_and_kept_by_pool():
    calc = RecoveryCalculator(Caster(WIZARD, 20))
    calc.current["mana"].value = 170
    assert_error_shown(calc, "mana: available must be 0..162, got 170")
    calc.level.value = 0
    assert_error_shown(calc, "got 0")
    calc.level.value = 19
    assert_error_shown(calc, "available must be 0..147, got 170")
    assert calc.current["mana"].value == 170
    calc.current["mana"].value = 147
    assert_no_error(calc)


# ---------------------------------------------------------------- the chart functions


def test_base_mana_chart_paladin_printed_against_the_rule():
    frame = base_mana_frame(PALADIN, 20)
    spec = base_mana_chart(frame).to_dict()
    data = rows(spec, layers(spec)["lines"])
    by_source = {(r["source"], r["level"]): r["points"] for r in data}
    # 000 §5 prints 9 for a 20th-level paladin; the rule over PH Table 15 (3, 3, 3, 3) gives 30
    assert by_source["printed table", 20] == 9 and by_source["stated rule", 20] == 30
    assert by_source["printed table", 8] == 0 and next(r["printed_text"] for r in data if r["level"] == 8) == "--"
    encoding = layers(spec)["lines"]["encoding"]
    assert encoding["color"]["scale"]["domain"] == ["printed table", "stated rule"]
    assert encoding["x"]["axis"]["values"] == list(range(1, 21))
    assert layers(spec)["selected"]["transform"] == [
        {"filter": "datum.selected && datum.source == 'printed table'"}]


def test_base_mana_chart_wizard_lines_agree():
    spec = base_mana_chart(base_mana_frame(WIZARD)).to_dict()
    assert spec["title"]["subtitle"].endswith("agree at every level")
    assert not any(r["selected"] for r in rows(spec, layers(spec)["lines"]))


def test_day_plan_chart_of_a_specialist_draws_a_line_per_pool():
    state = mana_state(Caster(WIZARD, 3, specialist=True)).emptied()
    events = (Study(0, 100),)
    plan = plan_day(state, events)
    spec = day_plan_chart(plan_frame(plan), plan_blocks_frame(events, plan)).to_dict()
    pools = {r["pool"] for r in rows(spec, layers(spec)["pools"])}
    assert pools == {"mana", "specialist mana"}
    assert layers(spec)["pools"]["encoding"]["x"]["scale"]["domain"] == [0, 100 / 60]
    assert [r["kind"] for r in rows(spec, layers(spec)["shading"])] == ["study"]


def test_plan_blocks_frame_splits_a_rest_around_its_interruptions():
    events = (Rest(0, 540, interruptions=((0, 30), (120, 180))), Cast(150, 1))
    plan = plan_day(mana_state(Caster(PRIEST, 5)), events)
    frame = plan_blocks_frame(events, plan)
    assert frame[["kind", "when"]].values.tolist() == [
        ["awake", "0:00-0:30"], ["asleep", "0:30-2:00"], ["awake", "2:00-3:00"], ["asleep", "3:00-9:00"],
        ["cast", "2:30"]]


# ---------------------------------------------------------------- one caster, whole numbers (#17)


def test_the_tabs_share_one_caster():
    tabs = ManaCalculators()
    pool, planner, recovery = tabs.calculators
    pool.caster_class.value = WIZARD
    pool.level.value = 1
    for calculator in tabs.calculators:
        assert (calculator.caster_class.value, calculator.level.value) == (WIZARD, 1)
        assert_no_error(calculator)
    assert planner.plan.start.who == recovery.state.who == pool.caster.__str__() == "1st-level wizard"
    assert "1st-level wizard" in shown(recovery.answer) or recovery.estimate is not None
    recovery.recovery_rate.value = RecoveryRate.BY_SPELL_LEVEL  # an option set in any tab holds in every tab
    assert pool.options.recovery_rate is RecoveryRate.BY_SPELL_LEVEL


def test_a_fraction_typed_as_a_level_is_refused_by_name_and_kept():
    calc = ManaPoolCalculator()
    calc.level.value = 2.5  # what a number box sends for "2.5" (a whole-number box would have made it 25)
    assert_error_shown(calc, "caster level must be a whole number, got 2.5", "000 §5 Mana System I")
    assert calc.level.value == 2.5 and calc.caster.level == 5
    calc.wisdom.value = 13.5
    assert calc.level.value == 2.5 and "got 2.5" in calc.error
    calc.level.value = 3
    assert_error_shown(calc, "WIS must be a whole number, got 13.5")
