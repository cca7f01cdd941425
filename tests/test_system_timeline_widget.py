"""SystemTimeline, headless: one system's round, its dice and its optional rules; and the dice entry it shares."""

import doctest
import html
import re
from dataclasses import replace

import pytest

from combatkit import ActionKind, Maneuver, Roller, dumps_toml, find_system, load_encounter, load_example, loads_encounter
from combatkit.dice import EnteredRollError
from combatkit.encounter import example_encounters
from combatkit.systems import SegmentsOptions
from combatkit.widgets import compare, compare_charts, dice_entry, draft, editor, system_timeline
from combatkit.widgets.dice_entry import TableRoller, file_entries, parse_entry
from combatkit.widgets.encounter_picker import example_options
from combatkit.widgets.system_timeline import SystemTimeline
from combatkit.widgets.urlstate import build_query, current_state


def rows(viewer: SystemTimeline) -> list[dict]:
    return viewer.chart.spec["datasets"]["actions"]


def option(dropdown, label: str):
    return dict(dropdown.options)[label]


def shown(row) -> dict[str, object]:
    """The optional fields a declaration row shows, and their values."""
    return {name: control.value for name, control in row.fields.items() if control.layout.display is None}


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


def test_option_checkboxes_are_the_system_s_switches_with_their_docstrings_as_tooltips():
    viewer = SystemTimeline("phase2")
    assert [(name, box.value, box.tooltip) for name, box in viewer.options.items()] == [
        (s.name, s.default, s.doc) for s in find_system("phase2").switches()]
    assert list(viewer.options) == ["agility_split", "caster_delay_by_level", "attack_forms"]
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


@pytest.mark.parametrize("module", [compare, compare_charts, dice_entry, draft, editor, system_timeline])
def test_docstring_examples(module):
    # widgets/ is outside pytest's testpaths, so its doctests run here
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# ----------------------------------------------------------------- the encounter editor, in each system's terms


ARCHER_PHASE = {"phase1": 2, "phase2": 4, "segments": 1, "five_phase": 5, "short_form": 1, "strike_speed": 1}
"""Where the test's archer shoots, in each system's own terms: Phase System I's phase 2, Phase System II's
phase A of the second cycle, the first step of a Segment of Action chain, five-phase phase 5 (a Slow bow
delayed, 001 B), the first action of the short form and of Strike Speed."""


@pytest.mark.parametrize("system", list(ARCHER_PHASE))
def test_an_encounter_built_in_the_page_runs_in_the_system_s_terms_and_saves(system, tmp_path):
    viewer = SystemTimeline(system)
    edit, found = viewer.editor, find_system(system)
    labels = [row.label.value for row in edit.phases]
    assert labels[: len(found.declaration_phases)] == [f"<b>{label}</b>" for label in found.declaration_phases]
    edit.new.click()
    assert viewer.error == "" and viewer.encounter.title == "New encounter" and viewer.encounter.declarations == ()
    assert [c.name for c in viewer.encounter.combatants] == ["Fighter", "Orc"]
    before = rows(viewer)
    edit.add_combatant.click()
    edit.name.value = "Archer"
    edit.add_weapon.click()
    edit.weapon_name.value = "short bow"
    edit.weapon_kind.value = "missile"
    edit.weapon_sf.value = 7
    row = edit.phases[ARCHER_PHASE[system] - 1]
    row.action.value = "attack"
    row.target.value = option(row.target, "Orc")
    row.using.value = option(row.using, "short bow")
    assert viewer.error == ""
    declared = [(d.phase, d.kind.value, d.target, d.weapons) for d in viewer.encounter.declarations]
    assert declared == [(ARCHER_PHASE[system], "attack", "Orc", ("short bow",))]
    shot = [s for s in viewer.timeline.spans if s.actor == "Archer" and s.kind == "attack"]
    assert [s.action for s in shot] == ["short bow -> Orc"]
    assert rows(viewer) != before and any(r["actor"] == "Archer" and r["kind"] == "attack" for r in rows(viewer))
    if system in ("phase1", "phase2"):  # their periods are the declaration phases
        assert shot[0].period == found.declaration_phases[ARCHER_PHASE[system] - 1]

    # the save link holds the round as shown: read back alone, the file gives the same round
    saved = loads_encounter(viewer.toml)
    assert saved == viewer.saved and saved.system == system and saved.seed == viewer.seed.value
    again = find_system(system).schedule(saved)
    assert [(s.actor, s.action, s.end) for s in again.spans] == [(s.actor, s.action, s.end)
                                                                 for s in viewer.timeline.spans]
    viewer.save(tmp_path / "built.toml")
    assert load_encounter(tmp_path / "built.toml") == saved
    assert viewer.url_caveat().startswith("This link carries only the settings")


def test_each_system_shows_the_declaration_fields_it_reads():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    first = viewer.editor.phases[0]  # A attacks X
    assert shown(first) == {"attacks": False}  # no Combat II repositioning in 003
    viewer.editor.phases[1].action.value = "misc"
    assert shown(viewer.editor.phases[1]) == {"readies_components": False}
    phase1 = SystemTimeline("phase1", "orc-closes-on-longbowman")
    phase1.editor.pick("Grishnak")
    assert shown(phase1.editor.phases[0]) == {"feet": ""}
    assert shown(phase1.editor.phases[1]) == {"attacks": False, "reposition": True, "retarget": False,
                                             "drop_and_draw": False}
    assert phase1.editor.hits.description == "hit at half-segments"
    five = SystemTimeline("five_phase", "five-phase-erik-the-bold")
    assert shown(five.editor.phases[1]) == {"reposition": False, "drop_and_draw": False}  # Erik's Quick blow
    assert five.editor.hits.description == "hit at ticks"
    assert [row.label.value for row in five.editor.phases][-2:] == ["<b>Last Actions</b>", "<b>the morale step</b>"]


def test_a_field_the_system_does_not_read_stays_visible_and_can_be_undone():
    viewer = SystemTimeline("segments", "orc-closes-on-longbowman")
    assert viewer.error.startswith("Grishnak declares reposition, a Phase System rule (000 §2)")
    viewer.editor.pick("Grishnak")
    attack = viewer.editor.phases[1]
    assert shown(attack) == {"attacks": False, "reposition": True}  # set by the file: shown although 003 has none
    attack.reposition.value = False
    assert "reposition" not in viewer.error and "reposition" not in shown(attack)


def test_notes_suggest_the_system_s_own_actions():
    viewer = SystemTimeline("five_phase", "five-phase-erik-the-bold")
    row = viewer.editor.phases[0]
    row.action.value = "move"
    assert {"half-move", "full move", "take cover"} <= set(row.note.options) and "charge" not in row.note.options
    row.action.value = "misc"
    assert "draw & ready" in row.note.options and "charge" not in row.note.options
    assert list(row.note.options) == find_system("five_phase").note_suggestions(ActionKind.MISC)
    row.action.value = ""
    assert row.note.options == ()
    short = SystemTimeline("short_form")
    short.editor.phases[0].action.value = "misc"
    assert "drink a potion" in short.editor.phases[0].note.options
    phase1 = SystemTimeline("phase1")
    phase1.editor.phases[0].action.value = "move"
    assert phase1.editor.phases[0].note.options == ()


def test_a_maneuver_is_chosen_in_the_system_s_terms_and_its_note_suggestions_follow():
    viewer = SystemTimeline("five_phase", "five-phase-erik-the-bold")
    row = viewer.editor.phases[0]
    row.action.value = "move"
    assert [value for _, value in row.maneuver.options] == ["", "charge", "withdraw", "flee"]
    row.maneuver.value = "charge"
    assert list(row.note.options) == ["charge", "counter-charge"]  # 001: a Charge, or a Counter-Charge
    mine = [d for d in viewer.editor.draft.encounter().declarations if d.actor == "Erik the Bold" and d.phase == 1]
    assert [(d.kind, d.maneuver) for d in mine] == [(ActionKind.MOVE, Maneuver.CHARGE)]
    assert viewer.error == "" and 'maneuver = "charge"' in dumps_toml(viewer.saved)
    row.action.value = "attack"  # a charge is no way to attack: it is dropped, not refused
    assert [value for _, value in row.maneuver.options] == ["", "pummel", "grapple", "overbear"]
    assert [d.maneuver for d in viewer.editor.draft.encounter().declarations
            if d.actor == "Erik the Bold" and d.phase == 1] == [None]
    segments = SystemTimeline("segments")  # 003 has no charge rule: it offers none
    segments.editor.phases[0].action.value = "move"
    assert [value for _, value in segments.editor.phases[0].maneuver.options] == ["", "withdraw", "flee"]


def test_several_actions_in_one_phase_each_have_a_row():
    viewer = SystemTimeline("strike_speed", "strike-speed-ogre-and-goblin")
    edit = viewer.editor
    edit.pick("Sir Tamsin")
    block = edit.phase_box.children[0]
    assert [row.action.value for row in block.children] == ["move", "attack"]
    assert shown(block.children[0]) == {"feet": "5"}
    edit.phases[0].action.value = ""  # the move goes: the attack is now the first row
    assert [d.kind.value for d in viewer.encounter.declarations if d.actor == "Sir Tamsin"] == ["attack"]
    assert edit.phases[0].action.value == "attack" and edit.phase_box.children[0].children == (edit.phases[0],)

    segments = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    segments.editor.pick("X")
    segments.editor.phases[0].add.click()  # the giant also swings at C in the same step (003 §II)
    second = segments.editor.phase_box.children[0].children[1]
    assert second.action.value == "" and second.target.disabled
    second.action.value = "attack"
    second.target.value = option(second.target, "C")
    assert segments.error == ""
    assert [(s.action, s.end) for s in segments.timeline.spans if s.actor == "X"] == [("club -> A", 4),
                                                                                     ("club -> C", 10)]
    second.target.value = option(second.target, "A")  # two attacks on one opponent in a step: 003 §II says no
    assert segments.error.endswith("(rule 003 §II)") and "attacks in one step go to different" in segments.error
    assert second.target.value == option(second.target, "A")


def test_a_bad_entry_is_named_not_applied_and_kept():
    viewer = SystemTimeline("strike_speed", "strike-speed-ogre-and-goblin")
    viewer.editor.pick("Sir Tamsin")
    move = viewer.editor.phases[0]
    before = rows(viewer)
    move.feet.value = "five"
    assert viewer.error == ("Sir Tamsin, action 1: 'five' is not a number of feet; write a whole number like 30, "
                            "or leave it empty (not applied)")
    assert move.feet.value == "five" and rows(viewer) == before and viewer.message.layout.display is None
    move.feet.value = "10"
    assert viewer.error == "" and [d.feet for d in viewer.encounter.declarations if d.actor == "Sir Tamsin"] == [10, None]
    viewer.editor.dex.value = 40
    assert viewer.error == "combatants[0].dex (Sir Tamsin): must be 1..25, got 40" and viewer.editor.dex.value == 40


def test_an_encounter_file_s_options_tick_the_boxes_and_a_link_carries_only_what_differs():
    viewer = SystemTimeline("segments")  # the dashboard's default view: no speed bands
    params = viewer.url_params()
    viewer.show_example("segments-speed-bands-dagger-vs-two-handed-sword")
    box = viewer.options["speed_bands"]
    assert box.value is True and viewer.error == ""
    assert [(s.actor, s.end) for s in viewer.timeline.spans] == [("Pip", 5), ("Wulf", 6)]  # 003 §VI, as the file says
    query = build_query(current_state(params), params)
    assert query == "example=segments-speed-bands-dagger-vs-two-handed-sword&seed=4"  # the example sets the option
    assert "[options.segments]\nspeed_bands = true" in viewer.toml
    box.value = False
    assert [(s.actor, s.end) for s in viewer.timeline.spans] == [("Wulf", 3), ("Pip", 5)]
    assert build_query(current_state(params), params) == query + "&speed_bands=0"
    assert "\n[options.segments]" not in viewer.toml and viewer.saved.options == {}
    viewer.options["dying_blow"].value = True
    assert viewer.saved.options == {"segments": {"dying_blow": True}}
    viewer.show_example("segments-fighters-vs-giant-and-orcs")
    assert box.value is False and viewer.options["dying_blow"].value is False


def test_edits_are_not_in_a_link_and_it_says_so():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    assert viewer.url_caveat() == ""
    viewer.editor.phases[0].note.value = "swings high"
    assert viewer.url_caveat().startswith('This link opens the shipped example "Segment of Action: fighters A, B')
    assert "not your edits" in viewer.url_caveat()


# ---------------------------------------------------------------- options that change nothing (#17)


@pytest.mark.parametrize("system", ["segments", "phase2", "short_form", "strike_speed", "five_phase"])
def test_a_checkbox_that_changes_nothing_in_this_round_says_so_and_why(system):
    import dataclasses

    viewer = SystemTimeline(system)
    docs = {switch.name: switch.doc for switch in find_system(system).switches()}
    for name, box in viewer.options.items():
        other = dataclasses.replace(viewer.chosen_options, **{name: not box.value})
        encounter = viewer.encounter
        by_dice, left = file_entries(encounter, viewer.seed.value)
        flipped = find_system(system).schedule(encounter, TableRoller(seed=viewer.seed.value, entered=dict(left),
                                                                      by_dice=by_dice), other)
        same = [(s.actor, s.action, s.start, s.end, s.status, s.track) for s in flipped.spans] == \
            [(s.actor, s.action, s.start, s.end, s.status, s.track) for s in viewer.timeline.spans]
        note = viewer.option_controls.notes[name]
        assert ("No effect on this round" in note.value) is same, name
        assert (note.layout.display is None) is same
        if same:
            assert html.escape(docs[name][1:40]) in note.value  # its why, in the option's own words


def test_ticking_an_option_that_has_an_effect_changes_the_round_and_the_line_in_force():
    viewer = SystemTimeline("segments", "segments-speed-bands-dagger-vs-two-handed-sword")
    assert "speed bands: on" in viewer.options_in_force.value
    assert viewer.option_controls.notes["speed_bands"].value == ""
    viewer.options["speed_bands"].value = False
    assert "Options in force</b>: the seed&#x27;s defaults<" in viewer.options_in_force.value
    assert "ck-description-replaced" in viewer.heading.value  # the file's prose was written with speed bands on


@pytest.mark.parametrize("system", ["segments", "phase2", "short_form", "strike_speed", "five_phase"])
def test_each_system_s_round_steps_moment_by_moment_on_its_own_clock(system):
    viewer = SystemTimeline(system)
    player, timeline = viewer.player, viewer.timeline
    for moment in timeline.moments:
        player.forward.click()
        assert player.tick == moment and viewer.chart.params.tick == moment
        assert player.highlighted == timeline.acting_at(moment) != ()
        text = html.unescape(re.sub(r"<[^>]+>", "", player.now.value))
        assert timeline.clock.describe(moment) in text
        for span in timeline.spans:
            if span.end == moment:
                assert timeline.why_line(span) in text
    player.forward.click()  # the last moment stays
    assert player.tick == timeline.moments[-1]
    assert player.play.max == max(timeline.clock.ticks, *(s.end for s in timeline.spans))
