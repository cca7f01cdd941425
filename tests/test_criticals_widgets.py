"""CriticalExplorer and its charts, headless: set a control, then check what the table, the charts,
the step-by-step explanation and the CSV links show, with the engine (combatkit.criticals) as the
oracle. Worked examples cite 000 §4 (Critical Hit and Miss Tables I, Severity Rules II) and 004."""

import base64
import html
import io
import re
from dataclasses import replace
from fractions import Fraction

import pandas as pd
import pytest

from combatkit import Roller
from combatkit.attack import AttackForm, Attacker, CriticalOptions, Defender
from combatkit.criticals import Outcome, attack_odds, resolve_attack
from combatkit.model import Weapon, WeaponKind
from combatkit.stances import Role, Shield, Stance
from combatkit.widgets.views.criticals import (
    DEFAULT_ATTACKER,
    DEFAULT_DEFENDER,
    OPTION_GROUPS,
    CriticalExplorer,
    read_entered,
    read_strength,
    strength_text,
)
from combatkit.widgets.charts.criticals import (
    OUTCOME_COLOURS,
    damage_chart,
    damage_spec,
    odds_frame,
    outcome_chart,
    outcome_spec,
    sf_penalty_chart,
    sf_penalty_spec,
)


def text(markup: str) -> str:
    """What a reader sees: tags gone, spaces collapsed, no space before punctuation."""
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())
    return re.sub(r" ([;,.])", r"\1", plain)


def rows(chart, name: str) -> list[dict]:
    """The rows a chart widget currently draws from its dataset ``name``."""
    return chart.spec["datasets"][name]


def by_label(chart, name: str) -> dict[str, dict]:
    return {r["label"]: r for r in rows(chart, name)}


def downloads(explorer: CriticalExplorer) -> dict[str, str]:
    """File name -> decoded content of each download link."""
    links = re.findall(r"download='([^']+)' href='data:text/csv;charset=utf-8;base64,([^']+)'", explorer.download.value)
    return {name: base64.b64decode(payload).decode("utf-8") for name, payload in links}


def all_classes(widget) -> set[str]:
    found = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found |= all_classes(child)
    return found


def shown(widget) -> bool:
    return widget.layout.display != "none"


ALDRIC = replace(DEFAULT_ATTACKER, form=AttackForm.MELEE)
"""The explorer's default attacker, as its controls spell it out (the form chosen, not implied)."""
MAGE = Attacker("Mirela", Weapon("quarterstaff", 4, damage="d6"), thac0=20, role=Role.OTHER)
"""000 §4 Severe Miss, Example 1: "a mage needs a 17 to hit with a quarterstaff (sf 4)"."""
GUARD = Defender("guard", armor_class=3)


@pytest.fixture
def explorer() -> CriticalExplorer:
    return CriticalExplorer()


# ---------------------------------------------------------------- what it opens with


def test_opens_with_the_engines_odds_for_the_default_attack(explorer):
    assert explorer.error == "" and not shown(explorer.message)
    assert explorer.odds == attack_odds(ALDRIC, DEFAULT_DEFENDER, "000-I")
    summary = text(explorer.summary.value)
    assert "Aldric needs 7 on d20 to hit orc: THAC0 15, +2 STR 18/91-99, against AC 6." in summary
    assert "Damage on a hit: d8, +5 STR 18/91-99." in summary
    assert "Any hit: 7/10 (70.00%); expected damage per attack: 11689/1600 ≈ 7.31 hit points." in summary
    assert "Combat II: Critical Hit and Miss Tables I" in text(explorer.heading.value)


def test_controls_carry_classes_a_browser_test_can_find(explorer):
    expected = {"critical-explorer", "rule-set", "attacker", "attacker-name", "role", "thac0", "strength",
                "dexterity", "specialization", "stance", "shield", "weapon-name", "damage", "speed-factor", "magic",
                "kind", "form", "defender", "defender-name", "armor-class", "defender-role", "defender-stance",
                "defender-shield", "options", "option", "option-body-points", "seed", "roll", "d20", "d10",
                "damage-roll", "message", "summary", "odds-table", "outcome-chart", "damage-chart", "sf-chart",
                "sf-note", "explanation", "download", "roll-box"}
    assert {f"ck-{name}" for name in expected} <= all_classes(explorer)


def test_every_offered_option_is_a_field_of_critical_options(explorer):
    names = [name for group in OPTION_GROUPS.values() for name in group]
    assert list(explorer.option_controls) == names
    assert explorer.options == CriticalOptions()


# ---------------------------------------------------------------- 000 §4 Tables I


def test_the_critical_table_odds_in_the_table_and_the_chart(explorer):
    # 000 §4 Critical Hit table: a natural 20 (1/20) then a d10; rows 1-4, 5-6, 7-8, 9, 10
    expected = {"1-4": Fraction(1, 50), "5-6": Fraction(1, 100), "7-8": Fraction(1, 100), "9": Fraction(1, 200),
                "10": Fraction(1, 200)}  # fmt: skip
    assert explorer.odds.critical_hit_rows == expected == explorer.odds.critical_miss_rows
    chart = by_label(explorer.outcome_chart, "outcomes")
    assert chart["d10 9: prone"]["exact"] == "1/200" and chart["d10 9: prone"]["percent"] == "0.50%"
    assert chart["d10 10: double maximum total damage, 2 extra attacks"]["axis_label"].startswith("↳ ")
    assert chart["d10 10: double maximum total damage, 2 extra attacks"]["outcome"] == "critical hit"
    assert [r["label"] for r in rows(explorer.outcome_chart, "outcomes")][:3] == [
        "critical miss", "d10 1-4: misstep", "d10 5-6: fumble"]
    table = text(explorer.table.value)
    assert "↳ d10 1-4: double base damage, reroll minimums 1/50 2.00%" in table
    assert "↳ d10 7-8: fall to knees 1/100 1.00%" in table
    assert "severe hit 3/20 15.00%" in table  # 17-19 beat the 7 needed by 10 or more
    assert "expected damage 11689/1600 ≈ 7.31 hp" in table


def test_a_missile_attack_misfires_instead_of_the_critical_miss_table(explorer):
    explorer.kind.value = WeaponKind.MISSILE
    explorer.form.value = AttackForm.BOW
    explorer.damage.value = "d6"
    assert explorer.error == ""
    assert explorer.odds.critical_miss_rows == {"MW": Fraction(1, 20)}
    assert "↳ MW: missile weapon misfire 1/20 5.00%" in text(explorer.table.value)


# ---------------------------------------------------------------- 000 §4 Severity Rules II


def test_the_18_99_strength_example(explorer):
    # "a fighter with 18/99 strength would get +2/+5 under 2nd ed rules. Under my rules, he'd get +2/+3"
    assert "+2 STR 18/91-99" in text(explorer.summary.value)
    assert "Damage on a hit: d8, +5 STR 18/91-99." in text(explorer.summary.value)
    explorer.rule_set.value = "000-II"
    assert "Damage on a hit: d8, +3 STR 18/91-99." in text(explorer.summary.value)
    assert explorer.odds == attack_odds(ALDRIC, DEFAULT_DEFENDER, "000-II")
    explorer.strength.value = "18/00"
    assert "+3 STR 18/00" in text(explorer.summary.value)
    assert explorer.attacker.exceptional == 100


@pytest.mark.parametrize(("rolled", "penalty"), [(10, 2), (6, 4), (12, 0)])
def test_severe_miss_example_1_rolled_at_the_table(rolled, penalty):
    # "a mage needs a 17 to hit with a quarterstaff (sf 4), and rolls a 10 ... 2 points are added to the
    # next attack's sf. If a 6 were rolled, the penalty would nevertheless not exceed +4."
    explorer = CriticalExplorer("000-II", attacker=MAGE, defender=GUARD)
    explorer.entered_d20.value = str(rolled)
    assert explorer.result.needed == 17 and explorer.result.sf_penalty == penalty
    head = text(explorer.explanation.value)
    assert head.startswith(f"d20 = {rolled} against 17: {'severe miss' if penalty else 'miss'}")
    if penalty:
        assert f"+{penalty} SF on the next strike" in head
        assert "[000 §4 Severity Rules II: Severe Miss]" in head


def test_the_sf_penalty_chart_shows_for_severity_rules_only():
    explorer = CriticalExplorer("000-II", attacker=MAGE, defender=GUARD)
    odds = explorer.odds
    assert shown(explorer.sf_chart) and not shown(explorer.sf_note)
    chart = by_label(explorer.sf_chart, "sf_penalty")
    assert {label: r["exact"] for label, r in chart.items()} == {f"+{k} SF": str(p) for k, p in odds.sf_penalty.items()}
    assert chart["+4 SF"]["exact"] == "7/20"  # rolls 2-8: 12 - roll, at most the quarterstaff's SF 4
    assert chart["+11 SF"]["exact"] == "1/20"  # a natural 1 has no cap: 17 - 5 - 1
    explorer.rule_set.value = "000-I"
    assert not shown(explorer.sf_chart) and shown(explorer.sf_note)
    assert "only the severe and critical misses of 000 §4 Severity Rules II" in text(explorer.sf_note.value)


def test_severe_miss_example_2_the_cap_is_the_base_sf():
    # "A thief attacks with a +2 longsword ... a penalty of up to +5 may be incurred"
    thief = Attacker("Vex", Weapon("long sword", 5, magic_bonus=2, damage="d8"), thac0=20, role=Role.OTHER)
    explorer = CriticalExplorer("000-II", attacker=thief, defender=Defender("guard", armor_class=2))
    explorer.entered_d20.value = "2"
    assert explorer.result.needed == 16 and explorer.result.sf_penalty == 5
    assert max(explorer.odds.sf_penalty) == 16 - 5 - 1  # the natural 1
    assert max(k for k in explorer.odds.sf_penalty if k != 10) == 5


# ---------------------------------------------------------------- 004


def test_stances_shift_the_odds(explorer):
    explorer.rule_set.value = "004"
    base = explorer.odds
    explorer.stance.value = Stance.FULL_ATTACK  # +2 to attack
    assert explorer.odds.needed == base.needed - 2
    explorer.defender_shield.value = Shield.LARGE
    explorer.armor_class.value = 5  # AC 6 with the large shield... counted in the AC
    explorer.defender_stance.value = Stance.FULL_DEFENSE  # +6 with a large shield
    assert explorer.odds.needed == base.needed - 2 + 1 + 6
    attacker = replace(ALDRIC, stance=Stance.FULL_ATTACK)
    defender = Defender("orc", armor_class=5, stance=Stance.FULL_DEFENSE, shield=Shield.LARGE)
    assert explorer.odds == attack_odds(attacker, defender, "004")
    chart = by_label(explorer.outcome_chart, "outcomes")
    assert chart["hit"]["exact"] == str(explorer.odds.outcomes["hit"])
    assert "Full Defense with large shield" in text(explorer.summary.value)


def test_004_options(explorer):
    explorer.rule_set.value = "004"
    explorer.option_controls["fighter_criticals_on_19"].value = True
    assert explorer.odds.outcomes["critical hit"] == Fraction(1, 10)
    explorer.option_controls["body_points"].value = True
    explorer.defender_role.value = Role.FIGHTER
    assert explorer.options == CriticalOptions(fighter_criticals_on_19=True, body_points=True)
    assert "1 body point 1/10 10.00%" in text(explorer.table.value)


def test_special_effects_are_offered_in_the_roll(explorer):
    explorer.rule_set.value = "004"
    explorer.option_controls["critical_hit_effects"].value = True
    explorer.stance.value = Stance.ACTIVE_ATTACK
    explorer.entered_d20.value = "20"
    steps = text(explorer.explanation.value)
    assert "Aldric is in Active Attack: may impose one of Trip" in steps
    assert "[004 Critical Hit Special Effects]" in steps


# ---------------------------------------------------------------- rolling one attack


@pytest.mark.parametrize("rules", ["000-I", "000-II", "004"])
def test_rolling_an_entered_d20_of_20_shows_a_critical_hit(explorer, rules):
    explorer.rule_set.value = rules
    explorer.entered_d20.value = "20"
    assert explorer.error == ""
    assert explorer.result.outcome is Outcome.CRITICAL_HIT
    assert text(explorer.explanation.value).startswith("d20 = 20 against 7: critical hit")
    assert "attack roll: Aldric: d20 entered by the referee = 20" in text(explorer.explanation.value)


def test_the_referees_d10_and_damage_are_used(explorer):
    explorer.entered_d20.value = "20"
    explorer.entered_d10.value = "9"
    steps = text(explorer.explanation.value)
    assert "Critical hit table: d10 = 9, row 9: DOUBLE MAXIMUM TOTAL DAMAGE." in steps
    assert "Damage: 2 x (d8 at maximum 8, +5 STR 18/91-99) = 26 [000 §4 Critical Hit table 9]" in steps
    assert explorer.result.damage == 26 and explorer.result.table_row == "9"
    explorer.entered_d10.value = "5"
    explorer.entered_damage.value = "3"
    assert "Damage: 2 x (best of d8 rolled 3 and d8 rolled" in text(explorer.explanation.value)


def test_the_explanation_is_the_engines(explorer):
    explorer.seed.value = 11
    roller = Roller(seed=11)
    expected = resolve_attack(ALDRIC, DEFAULT_DEFENDER, "000-I", roller)
    assert explorer.result == expected
    steps = text(explorer.explanation.value)
    for step in expected.steps:
        assert f"{step.text} [{step.rule}]" in steps
    assert "seed 11 for the dice nobody entered" in steps


def test_roll_again_moves_to_the_next_seed(explorer):
    first = explorer.result
    explorer.roll.click()
    assert explorer.seed.value == 2
    assert explorer.result == resolve_attack(ALDRIC, DEFAULT_DEFENDER, "000-I", Roller(seed=2))
    explorer.seed.value = 1
    assert explorer.result == first


def test_entries_the_attack_did_not_need_are_named(explorer):
    explorer.entered_d20.value = "5"
    explorer.entered_d10.value = "9"
    assert "Entered but not needed by this attack: the d10." in text(explorer.explanation.value)
    explorer.entered_d20.value = "1"
    assert "not needed" not in text(explorer.explanation.value)
    assert "Critical miss table: d10 = 9, row 9: PRONE" in text(explorer.explanation.value)


# ---------------------------------------------------------------- bad input


BAD = [
    ("thac0", 0, "Aldric: THAC0 must be a whole number 1..20, got 0 (rule PH 2e THAC0 tables)"),
    ("strength", "26", "STR must be a whole number 1..25, got 26 (rule PH 2e Table 1 (Strength))"),
    ("strength", "17/50", "given only with STR 18, got 50"),
    ("strength", "strong", "STR 'strong': write a score like 17, or 18/xx"),
    ("damage", "2x6", "'2x6' is not dice notation"),
    ("damage", "50d100", "damage 50d100 can roll 4951 different totals"),
    ("armor_class", 11, "orc: AC must be a whole number -10..10, got 11"),
    ("stance", Stance.FULL_DEFENSE, "Aldric is in Full Defense: no attack possible (rule 004 Combat Stance)"),
    ("kind", WeaponKind.MISSILE, "Aldric: a long sword is not a melee weapon"),
]  # fmt: skip


@pytest.mark.parametrize(("control", "value", "message"), BAD)
def test_bad_values_show_the_engines_error_and_keep_the_input_and_the_last_attack(explorer, control, value, message):
    odds, result, spec = explorer.odds, explorer.result, explorer.outcome_chart.spec
    getattr(explorer, control).value = value
    assert message in explorer.error
    assert shown(explorer.message) and 'role="alert"' in explorer.message.value
    assert message in html.unescape(explorer.message.value)
    assert "The odds and the roll below still show the last attack that worked" in text(explorer.message.value)
    assert getattr(explorer, control).value == value
    assert explorer.odds is odds and explorer.result is result and explorer.outcome_chart.spec == spec
    explorer.dexterity.value = 12  # another change while the bad value stays: still refused, still kept
    assert message in explorer.error and explorer.odds is odds


def test_fixing_the_input_clears_the_message(explorer):
    explorer.thac0.value = 0
    explorer.thac0.value = 13
    assert explorer.error == "" and not shown(explorer.message)
    assert explorer.odds.needed == 5


def test_a_bad_option_is_refused(explorer):
    explorer.option_controls["minimum_damage"].value = -1
    assert "minimum damage must be a whole number 0 or more, got -1" in explorer.error


@pytest.mark.parametrize(("box", "value", "message"), [
    ("entered_d20", "21", "attack roll: Aldric: d20 rolls 1..20, so 21 cannot have been rolled"),
    ("entered_d20", "x", "d20 rolled 'x': enter the number rolled (7) or each die's face (2, 5)"),
    ("entered_d10", "11", "critical hit table: Aldric: d10 rolls 1..10, so 11 cannot have been rolled"),
])  # fmt: skip
def test_a_bad_entered_roll_keeps_the_odds_up_to_date_and_the_last_roll(explorer, box, value, message):
    explorer.entered_d20.value = "20"
    result = explorer.result
    getattr(explorer, box).value = value
    assert message in explorer.error
    explorer.armor_class.value = 4
    assert message in explorer.error
    assert "The roll below still shows the last attack that worked" in text(explorer.message.value)
    assert explorer.odds.needed == 9  # AC 4 applied: the odds are not held back by the roll
    assert explorer.result is result
    assert getattr(explorer, box).value == value
    odds_file = next(content for name, content in downloads(explorer).items() if name.startswith("critical-odds"))
    assert odds_file == explorer.odds_csv  # the download follows the odds shown


def test_show_rule_set_takes_aliases_and_reports_unknown_names(explorer):
    explorer.show_rule_set("severity")
    assert explorer.rule_set.value == "000-II"
    explorer.show_rule_set("001")
    assert "no critical hit rule set called '001'" in explorer.error
    assert explorer.rule_set.value == "000-II" and shown(explorer.message)


def test_fields_without_a_control_are_kept():
    agile = Attacker("Aldric", DEFAULT_ATTACKER.weapon, thac0=15, agility=16, level=7)
    explorer = CriticalExplorer(attacker=agile)
    explorer.thac0.value = 12
    assert (explorer.attacker.agility, explorer.attacker.level, explorer.attacker.thac0) == (16, 7, 12)


# ---------------------------------------------------------------- CSV downloads


def test_the_odds_and_the_steps_download_as_csv(explorer):
    explorer.entered_d20.value = "20"
    files = downloads(explorer)
    assert set(files) == {"critical-odds-000-I-aldric-vs-orc.csv", "attack-steps-000-I-aldric-vs-orc.csv"}
    odds = pd.read_csv(io.StringIO(files["critical-odds-000-I-aldric-vs-orc.csv"]), dtype=str)
    assert list(odds.columns) == ["measure", "value", "label", "exact", "probability", "percent"]
    assert len(odds) == len(explorer.frame)
    outcomes = odds[odds.measure == "outcome"].set_index("value")["exact"].to_dict()
    assert outcomes == {k: str(v) for k, v in explorer.odds.outcomes.items()}
    damage = odds[odds.measure == "damage"]
    assert {int(v): Fraction(e) for v, e in zip(damage.value, damage.exact)} == explorer.odds.damage
    steps = pd.read_csv(io.StringIO(files["attack-steps-000-I-aldric-vs-orc.csv"]))
    assert list(steps.rule) == [s.rule for s in explorer.result.steps]
    assert steps.text[1] == "Attack roll: d20 = 20 against 7: critical hit"


# ---------------------------------------------------------------- the charts, through to_dict()


def frame_of(rules: str = "000-I", **attacker):
    odds = attack_odds(Attacker("Aldric", DEFAULT_ATTACKER.weapon, thac0=15, strength=18, exceptional=99,
                                **attacker), DEFAULT_DEFENDER, rules)
    return odds, odds_frame(odds)


def layers(spec: dict) -> dict[str, dict]:
    return {layer["name"]: layer for layer in spec["layer"]}


def test_the_frame_lists_outcomes_with_their_table_rows_then_the_distributions():
    odds, frame = frame_of()
    assert list(frame.measure.unique()) == ["outcome", "critical miss row", "critical hit row", "damage",
                                            "SF penalty", "body points"]
    assert list(frame.order) == list(range(len(frame)))
    assert sum(Fraction(e) for e in frame[frame.measure == "outcome"].exact) == 1
    assert sum(Fraction(e) for e in frame[frame.measure == "damage"].exact) == 1
    assert frame.loc[frame.label == "0 damage", "exact"].item() == str(1 - odds.hit)


def test_outcome_chart_spec():
    odds, frame = frame_of()
    spec = outcome_chart(frame).to_dict()
    bars = layers(spec)["bars"]
    assert bars["encoding"]["x"]["scale"]["domain"] == [0, 1]  # comparable as the inputs change
    assert bars["encoding"]["color"]["scale"] == {"domain": list(OUTCOME_COLOURS),
                                                  "range": list(OUTCOME_COLOURS.values())}
    assert set(layers(spec)) == {"bars", "labels"}
    texts = {r["label"]: r["text"] for r in spec["datasets"]["outcomes"]}
    assert texts["hit"] == "1/2 · 50.00%" and texts["critical hit"] == "1/20 · 5.00%"
    assert outcome_spec(frame) == spec


def test_damage_chart_spec_marks_the_expected_damage():
    odds, frame = frame_of("000-II")
    spec = damage_chart(frame, odds.expected_damage).to_dict()
    assert set(layers(spec)) == {"bars", "expected", "expected_label"}
    (line,) = spec["datasets"]["expected"]
    assert line["expected"] == float(odds.expected_damage) == 9.975
    assert line["text"] == f"expected {9.975:.2f} (399/40)"
    bars = {r["damage"]: r for r in spec["datasets"]["damage"]}
    assert bars[0]["miss"] and not bars[9]["miss"]
    assert {k: Fraction(r["exact"]) for k, r in bars.items()} == odds.damage
    assert damage_spec(frame, odds.expected_damage) == spec


def test_sf_penalty_chart_spec():
    odds = attack_odds(MAGE, GUARD, "000-II")
    frame = odds_frame(odds)
    spec = sf_penalty_chart(frame).to_dict()
    assert [r["label"] for r in spec["datasets"]["sf_penalty"]] == ["+0 SF", "+1 SF", "+2 SF", "+3 SF", "+4 SF",
                                                                    "+11 SF"]
    assert layers(spec)["bars"]["encoding"]["x"]["sort"] == {"field": "order", "op": "min"}
    assert sf_penalty_spec(frame) == spec


# ---------------------------------------------------------------- reading what was typed


def test_strength_is_read_and_written_as_players_do():
    assert [read_strength(t) for t in ("17", "18/01", "18/99", "18/00")] == [(17, None), (18, 1), (18, 99), (18, 100)]
    assert [strength_text(*read_strength(t)) for t in ("17", "18/01", "18/99", "18/00")] == [
        "17", "18/01", "18/99", "18/00"]


def test_entered_rolls_are_a_total_or_faces():
    assert read_entered(" ", "d20") is None
    assert read_entered("2 5", "damage") == (2, 5)
    with pytest.raises(ValueError, match="damage '2d6'"):
        read_entered("2d6", "damage")


def test_the_options_box_names_the_options_in_force():
    explorer = CriticalExplorer()
    assert explorer.options_box.get_title(0).endswith("(in force: the seed's defaults)")
    explorer.option_controls["body_points"].value = True
    assert "in force: body points: on; the rest as the seed reads it" in explorer.options_box.get_title(0)


# ---------------------------------------------------------------- thief skills only where they apply (#45 item 11)


def test_the_thief_skills_show_only_for_a_class_that_may_be_a_thief(explorer):
    assert explorer.role.value is Role.FIGHTER  # the default attacker: a fighter has no thief skills
    assert not shown(explorer.thief_skills) and "Pick Pockets" not in explorer.thief_skills.value
    explorer.role.value = Role.OTHER  # "priest, wizard or rogue": a rogue may be a thief
    assert shown(explorer.thief_skills)
    assert text(explorer.thief_skills.value).startswith("If this rogue is a thief, DEX and AGI adjust")
    assert "Pick Pockets" in explorer.thief_skills.value
    for role in (Role.WARRIOR, Role.MONSTER):
        explorer.role.value = role
        assert not shown(explorer.thief_skills)
