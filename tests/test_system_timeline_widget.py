"""SystemTimeline, headless: one system's round, its dice and its optional rules; and the dice entry it shares."""

import doctest
import re
from dataclasses import replace

import pytest

from combatkit import Roller, find_system, load_example
from combatkit.dice import EnteredRollError
from combatkit.encounter import example_encounters
from combatkit.systems import Phase2Options, Phase1Options, SegmentsOptions
from combatkit.widgets import compare, compare_charts, dice_entry, system_timeline
from combatkit.widgets.dice_entry import TableRoller, file_entries, parse_entry
from combatkit.widgets.encounter_picker import example_options
from combatkit.widgets.system_timeline import SystemTimeline, field_docs, options_class, switches


def rows(viewer: SystemTimeline) -> list[dict]:
    return viewer.chart.spec["datasets"]["actions"]


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").replace("&gt;", ">")


@pytest.mark.parametrize("system", ["phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed"])
def test_opens_with_the_system_s_own_example_on_its_own_clock(system):
    viewer = SystemTimeline(system)
    assert viewer.error == "" and viewer.encounter.system == system
    expected = find_system(system).schedule(viewer.encounter, Roller(seed=viewer.encounter.seed or 1,
                                                                     entered=viewer.encounter.rolls))
    assert sorted((r["actor"], r["end"]) for r in rows(viewer)) == sorted((s.actor, s.end) for s in expected.spans)
    assert viewer.chart.spec["layer"][0]["encoding"]["x"]["axis"]["title"] == expected.clock.unit
    assert viewer.picker.example.options[0][1] == viewer.picker.example.value  # its own examples come first
    assert "Why, step by step" in viewer.why.value


def test_the_segment_example_gives_the_seed_s_order():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    order = [(s.actor, s.end) for s in viewer.timeline.spans]
    assert order == [("A", 3), ("X", 4), ("Z", 4), ("B", 5), ("Y", 7), ("C", 9)]  # 003, closing remarks


def test_every_yes_no_option_is_a_checkbox_that_reschedules():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    assert set(viewer.options) == {"chain_overflow_last", "speed_bands", "dying_blow", "kills"}
    assert viewer.options["kills"].value is True and viewer.options["speed_bands"].value is False
    viewer.options["speed_bands"].value = True
    assert viewer.chosen_options == SegmentsOptions(speed_bands=True)
    assert [(s.actor, s.end) for s in viewer.timeline.spans] == [("A", 4), ("X", 5), ("Z", 5), ("B", 7), ("Y", 8),
                                                                 ("C", 10)]  # 003 §VI weapon speed bands
    assert sorted(r["end"] for r in rows(viewer)) == [4, 5, 5, 7, 8, 10]


def test_option_tooltips_are_the_docstrings_of_the_fields():
    assert options_class(find_system("phase2")) is Phase2Options
    tie = field_docs(Phase1Options)["tie_track"]
    assert tie == "Track for a figure whose adjusted roll ties the best opposing roll."
    names = [name for name, _, _ in switches(Phase2Options)]
    assert names == ["agility_split", "caster_delay_by_level", "attack_forms"]
    viewer = SystemTimeline("phase2")
    assert viewer.options["caster_delay_by_level"].tooltip.startswith("Optional Table 5 (000 §3 B)")


def test_table5_lets_the_tenth_level_caster_cast_again_sooner():
    viewer = SystemTimeline("phase2", "phase2-tenth-level-caster")
    notes = " ".join(viewer.timeline.notes)
    assert "delays through phase C, cycle 2 (000 §3 B)" in notes
    viewer.options["caster_delay_by_level"].value = True
    assert "delays through phase B, cycle 2 (000 §3 B Table 5)" in " ".join(viewer.timeline.notes)


def test_an_entered_die_moves_the_round_and_a_bad_one_is_named():
    viewer = SystemTimeline("phase2", "phase2-tenth-level-caster")
    cone = next(s for s in viewer.timeline.spans if "cone of cold" in s.action)
    assert cone.end == 22
    box = viewer.dice._boxes[("initiative: party, cycle 2", "d10")]
    box.value = "1"  # the party wins the second phase A: Finchfingle stays on the winner track
    cone = next(s for s in viewer.timeline.spans if "cone of cold" in s.action)
    assert cone.end == 21
    box.value = "0"
    message = text(viewer.dice.message.value)
    assert "initiative: party, cycle 2: d10 rolls 1..10, so 0 cannot have been rolled" in message
    assert box.value == "0" and cone.end == 21 and viewer.dice.entries[("initiative: party, cycle 2", "d10")] == 1
    viewer.dice.clear.click()
    assert viewer.dice.entries == {} and viewer.dice.message.layout.display == "none"


def test_an_encounter_the_system_cannot_run_is_named_and_the_last_round_stays():
    viewer = SystemTimeline("strike_speed")
    before = rows(viewer)
    viewer.show_example("ct9-spell-vs-sword")
    assert viewer.error == ("Velanna must declare the spell being cast and its target before initiative is rolled; "
                            "Velanna declares time stop with no target (rule 004 Strike Speed: Initiative)")
    assert "Not applied" in viewer.message.value and viewer.message.layout.display is None
    assert rows(viewer) == before
    assert "Written for Combat II: Phase System I" in viewer.heading.value
    viewer.show_example("strike-speed-ogre-and-goblin")
    assert viewer.error == "" and viewer.message.layout.display == "none"


def test_a_new_seed_rolls_again_and_keeps_entered_dice():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    hits = [r.total for r in viewer.timeline.rolls if r.purpose.startswith("to hit")]
    viewer.reroll.click()
    assert viewer.seed.value == 4
    assert [r.total for r in viewer.timeline.rolls if r.purpose.startswith("to hit")] != hits
    assert [(s.actor, s.end) for s in viewer.timeline.spans][0] == ("A", 3)


# ----------------------------------------------------------------- the dice entry's parts


def test_table_roller_takes_only_the_same_dice_for_the_same_purpose():
    roller = TableRoller(seed=1, entered={"other": 2}, by_dice={("initiative: party", "d10"): 3,
                                                                 ("blows: A", "2d6"): (2, 5)})
    assert roller.roll("d10", "initiative: party").total == 3
    assert roller.roll("d6", "initiative: party").entered is False
    assert roller.roll("2d6", "blows: A").faces == (2, 5)
    assert roller.roll("d4", "other").total == 2
    assert [r.entered for r in roller.log] == [True, False, True, True]
    with pytest.raises(EnteredRollError, match="d4 rolls 1..4, so 9 cannot have been rolled"):
        TableRoller(by_dice={("x", "d4"): 9}).roll("d4", "x")


def test_file_entries_find_the_dice_of_the_file_s_rolls():
    by_dice, left = file_entries(load_example("segments-fighters-vs-giant-and-orcs"))
    assert by_dice[("segment: A", "d10")] == 3 and len(by_dice) == 6 and left == {}
    short = load_example("short-form-spear-web-and-ready-bow")
    assert file_entries(short)[0][("initiative: orcs", "d12")] == 7
    by_dice, left = file_entries(replace(short, system="strike_speed"))  # a d12's 7 is no d6 of Strike Speed
    assert by_dice == {} and left["initiative: orcs"] == 7


def test_typed_rolls():
    assert parse_entry("7") == 7 and parse_entry("2, 5") == (2, 5) and parse_entry("2 5") == (2, 5)
    assert parse_entry("  ") is None
    with pytest.raises(EnteredRollError, match="'3d6' is not a roll"):
        parse_entry("3d6")


def test_example_list_says_which_system_each_was_written_for():
    options = example_options("segments")
    assert options[0] == ("Segment of Action: fighters A, B and C battle Giant X; Orcs Y and Z attack A and B "
                          "(written for Segment of Action (Lakofka, 1980))", "segments-fighters-vs-giant-and-orcs")
    assert len(options) == len({name for _, name in options}) == len(example_encounters())


@pytest.mark.parametrize("module", [compare, compare_charts, dice_entry, system_timeline])
def test_docstring_examples(module):
    # widgets/ is outside pytest's testpaths, so its doctests run here
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
