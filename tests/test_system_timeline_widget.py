"""SystemTimeline, headless: one system's round, its dice and its optional rules; and the dice entry it shares."""

import doctest
import html
import re
from dataclasses import replace

import pytest

from combatkit import ActionKind, Maneuver, Roller, dumps_toml, find_system, load_encounter, load_example, loads_encounter
from combatkit.dice import EnteredRollError
from combatkit.encounter_files import example_encounters
from combatkit.intent import Refinement
from combatkit.systems import SegmentsOptions
from combatkit.widgets.charts import compare as compare_charts
from combatkit.widgets.state import draft
from combatkit.widgets.views import compare, dice_entry, editor, system_timeline
from combatkit.widgets.views.dice_entry import TableRoller, file_entries, parse_entry
from combatkit.widgets.views.encounter_picker import example_options
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.state.urlstate import build_query, current_state


def rows(viewer: SystemTimeline) -> list[dict]:
    return viewer.chart.spec["datasets"]["actions"]


def option(dropdown, label: str):
    return dict(dropdown.options)[label]


def shown(row) -> dict[str, object]:
    """The refinement fields an intent row shows for the viewer's system, and their values."""
    return {name: control.value for name, control in row.fields.items() if control.layout.display is None}


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").replace("&gt;", ">")


@pytest.mark.parametrize("system", ["phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed"])
def test_opens_with_the_system_s_own_example_on_its_own_clock(system):
    viewer = SystemTimeline(system)
    assert viewer.error == "" and viewer.encounter.system == system
    expected = find_system(system).schedule(viewer.encounter, TableRoller(seed=viewer.encounter.seed or 1,
                                                                     entered=viewer.encounter.rolls))
    assert sorted((r["actor"], r["end"]) for r in rows(viewer)) == sorted((s.actor, s.end) for s in expected.spans)
    assert viewer.chart.spec["layer"][0]["encoding"]["x"]["axis"]["title"] == expected.clock.unit_words
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
    """Every system places every shipped example; a refinement it cannot follow (Velanna's spell placed as Strike
    Speed's first action, with no target, which 004 asks for before initiative) is named and the last round stays."""
    viewer = SystemTimeline("strike_speed")
    before = rows(viewer)
    ct9 = load_example("ct9-spell-vs-sword")
    viewer.show_encounter(replace(ct9, refinements=ct9.refinements + (Refinement("strike_speed", "Velanna", 1,
                                                                                 phases=(1,)),)))
    assert viewer.error == ("Velanna must declare the spell being cast and its target before initiative is rolled; "
                            "Velanna declares time stop with no target (rule 004 Strike Speed: Initiative)")
    assert "Not applied" in viewer.message.value and viewer.message.layout.display is None
    assert rows(viewer) == before
    viewer.show_example("ct9-spell-vs-sword")  # unrefined, Strike Speed places it at the caster, and says so
    assert viewer.error == "" and "declares itself" in text(viewer.why.value)
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
"""Where the test refines its archer's shot, in each system's own terms: Phase System I's phase 2, Phase System
II's phase A of the second cycle, the first step of a Segment of Action chain, five-phase phase 5 (a Slow bow
delayed, 001 B), the first action of the short form and of Strike Speed."""


def placements(viewer: SystemTimeline, actor: str) -> list[tuple[int, str]]:
    """Where the system placed each of ``actor``'s declarations: (phase, kind)."""
    return [(d.phase, d.kind.value) for p in viewer.timeline.plan.for_actor(actor) for d in p.declarations]


@pytest.mark.parametrize("system", list(ARCHER_PHASE))
def test_an_encounter_built_in_the_page_runs_in_the_system_s_terms_and_saves(system, tmp_path):
    viewer = SystemTimeline(system)
    edit, found = viewer.editor, find_system(system)
    edit.new.click()
    assert "an encounter needs at least one combatant" in viewer.error and edit.draft.combatants == {}
    for name, side in (("Fighter", "party"), ("Orc", "foes")):
        edit.add_combatant.click()
        edit.name.value, edit.side.value = name, side
    assert viewer.error == "" and viewer.encounter.title == "New encounter" and viewer.encounter.intents == ()
    assert [c.name for c in viewer.encounter.combatants] == ["Fighter", "Orc"]
    before = rows(viewer)
    edit.add_combatant.click()
    edit.name.value = "Archer"
    edit.add_weapon.click()
    edit.weapon_name.value = "short bow"
    edit.weapon_kind.value = "missile"
    edit.weapon_sf.value = 7
    edit.weapon_damage.value = "1d6"  # a bow of its own numbers, written out: one arrow a round
    row = edit.rows[0]
    row.do.value = "attack"
    row.target.value = option(row.target, "Orc")
    row.using.value = option(row.using, "short bow")
    assert viewer.error == ""
    assert [(i.kind.value, i.target, i.weapons) for i in viewer.encounter.intents] == [("attack", "Orc", ("short bow",))]
    assert [kind for _, kind in placements(viewer, "Archer")] == ["attack"]  # where the system's own rules put it
    assert "Archer shoots Orc" in row.placement.value
    labels = [label for label, _ in row.placed.options][1:]
    assert labels[: len(found.declaration_phases)] == list(found.declaration_phases)
    row.placed.value = str(ARCHER_PHASE[system])  # the system's own refinement of it
    assert viewer.error == "" and placements(viewer, "Archer") == [(ARCHER_PHASE[system], "attack")]
    shot = [s for s in viewer.timeline.spans if s.actor == "Archer" and s.kind == "attack"]
    assert [s.action for s in shot] == ["short bow -> Orc"]
    assert rows(viewer) != before and any(r["actor"] == "Archer" and r["kind"] == "attack" for r in rows(viewer))
    if system in ("phase1", "phase2"):  # their periods are the declaration phases
        assert shot[0].period == found.declaration_phases[ARCHER_PHASE[system] - 1]

    # the save link holds the round as shown: read back alone, the file gives the same round
    saved = loads_encounter(viewer.toml)
    assert saved == viewer.saved and saved.system == system and saved.seed == viewer.seed.value
    assert [(r.system, r.actor, r.step, r.phases) for r in saved.refinements] == [
        (system, "Archer", 1, (ARCHER_PHASE[system],))]
    again = find_system(system).schedule(saved)
    assert [(s.actor, s.action, s.end) for s in again.spans] == [(s.actor, s.action, s.end)
                                                                 for s in viewer.timeline.spans]
    viewer.save(tmp_path / "built.toml")
    assert load_encounter(tmp_path / "built.toml") == saved
    assert viewer.url_caveat() == "" and viewer._linked_encounter() == viewer.encounter  # in the link (#50)


def test_each_system_offers_the_refinements_it_reads():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    first = viewer.editor.rows[0]  # A attacks X
    assert shown(first) == {"attacks": False}  # no Combat II repositioning in 003
    viewer.editor.rows[1].do.value = "ready"
    assert shown(viewer.editor.rows[1]) == {"readies_components": False}
    phase1 = SystemTimeline("phase1", "orc-closes-on-longbowman")
    phase1.editor.pick("Grishnak")
    assert shown(phase1.editor.rows[0]) == {}  # a move: its feet are the intent's, for every system
    assert shown(phase1.editor.rows[1]) == {"attacks": False, "reposition": True, "retarget": False,
                                           "drop_and_draw": False}
    assert phase1.editor.hits.description == "hit at half-segments"
    five = SystemTimeline("five_phase", "five-phase-erik-the-bold")
    assert shown(five.editor.rows[0]) == {"reposition": False, "drop_and_draw": False}  # Erik's blows
    assert five.editor.hits.description == "hit at ticks"
    assert [label for label, _ in five.editor.rows[0].placed.options][-2:] == ["Last Actions", "the morale step"]


def test_another_system_s_refinement_is_ignored_here_and_said():
    viewer = SystemTimeline("segments", "orc-closes-on-longbowman")
    assert viewer.error == ""
    viewer.editor.pick("Grishnak")
    attack = viewer.editor.rows[1]
    assert shown(attack) == {"attacks": False}  # Phase System I's repositioning step is not the Segment of Action's
    assert "Grishnak's attack Aldric (phase 2, reposition" in text(viewer.why.value)
    assert "Segment of Action (Lakofka, 1980) ignores them" in text(viewer.why.value)


def test_the_system_s_own_words_are_suggested():
    viewer = SystemTimeline("five_phase", "five-phase-erik-the-bold")
    row = viewer.editor.rows[0]
    row.do.value = "move"
    assert {"half-move", "full move", "take cover"} <= set(row.system_note.options)
    assert "charge" not in row.system_note.options
    row.do.value = "action"
    assert "draw & ready" in row.system_note.options and "charge" not in row.system_note.options
    assert list(row.system_note.options) == find_system("five_phase").note_suggestions(ActionKind.MISC)
    short = SystemTimeline("short_form")
    short.editor.rows[0].do.value = "action"
    assert "drink a potion" in short.editor.rows[0].system_note.options
    assert "Drink a potion" in [label for label, _ in short.editor.rows[0].using.options]  # the list every system maps
    phase1 = SystemTimeline("phase1")
    phase1.editor.rows[0].do.value = "move"
    assert phase1.editor.rows[0].system_note.options == ()


def test_a_maneuver_is_the_intent_s_and_each_system_places_it_its_own_way():
    viewer = SystemTimeline("five_phase", "five-phase-erik-the-bold")
    row = viewer.editor.rows[0]
    row.do.value = "move"
    assert [value for _, value in row.maneuver.options] == ["", "charge", "withdraw", "flee"]
    row.target.value = option(row.target, "Grishnak")
    row.maneuver.value = "charge"
    assert list(row.system_note.options) == ["charge", "counter-charge"]  # 001: a Charge, or a Counter-Charge
    erik = [i for i in viewer.editor.draft.encounter().intents if i.actor == "Erik the Bold"]
    assert [(i.kind.value, i.maneuver) for i in erik] == [("move", Maneuver.CHARGE)]
    assert viewer.error.startswith("Erik the Bold charges Grishnak from 5': a charge needs at least 20'")  # 001's own
    assert 'maneuver = "charge"' in dumps_toml(viewer.editor.draft.encounter())  # kept while the error stands
    row.do.value = "attack"  # a charge is no way to attack: it is dropped, not refused
    assert [value for _, value in row.maneuver.options] == ["", "pummel", "grapple", "overbear"]
    assert [i.maneuver for i in viewer.editor.draft.encounter().intents if i.actor == "Erik the Bold"] == [None]
    segments = SystemTimeline("segments", "charge-against-a-set-spear")  # 003 has no charge rule: a move, said
    segments.editor.pick("Sir Tamsin")
    assert "for Segment of Action (Lakofka, 1980) has no charge" in segments.editor.rows[0].placement.value


def test_intents_are_added_reordered_and_removed():
    viewer = SystemTimeline("strike_speed", "strike-speed-ogre-and-goblin")
    edit = viewer.editor
    edit.pick("Sir Tamsin")
    assert [row.do.value for row in edit.rows] == ["move", "attack", ""]
    assert edit.rows[0].feet.value == "5"
    edit.rows[0].down.click()
    assert [i.kind.value for i in viewer.encounter.intents if i.actor == "Sir Tamsin"] == ["attack", "move"]
    edit.rows[1].up.click()
    edit.rows[0].do.value = ""  # the move goes: the attack is now the first intent
    assert [i.kind.value for i in viewer.encounter.intents if i.actor == "Sir Tamsin"] == ["attack"]
    assert [row.do.value for row in edit.rows] == ["attack", ""]
    edit.rows[0].add.click()
    assert [i.kind.value for i in viewer.encounter.intents if i.actor == "Sir Tamsin"] == ["attack", "attack"]

    segments = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    segments.editor.pick("X")
    second = segments.editor.rows[1]
    second.do.value = "attack"  # the giant also swings at C
    second.target.value = option(second.target, "C")
    second.placed.value = "1"  # in the same step as its blow at A (003 §II: attacks on different opponents)
    segments.editor.rows[0].placed.value = "1"
    assert segments.error == ""
    assert sorted((s.action, s.end) for s in segments.timeline.spans if s.actor == "X") == [("club -> A", 2),
                                                                                           ("club -> C", 1)]
    second.target.value = option(second.target, "A")  # two attacks on one opponent in a step: 003 §II says no
    assert segments.error.endswith("(rule 003 §II)") and "attacks in one step go to different" in segments.error
    assert second.target.value == option(second.target, "A")


def test_a_bad_entry_is_named_not_applied_and_kept():
    viewer = SystemTimeline("strike_speed", "strike-speed-ogre-and-goblin")
    viewer.editor.pick("Sir Tamsin")
    move = viewer.editor.rows[0]
    before = rows(viewer)
    move.feet.value = "five"
    assert viewer.error == ("Sir Tamsin, intent 1: 'five' is not a number; write a whole number of feet like 30, or "
                            "leave it empty (not applied)")
    assert move.feet.value == "five" and rows(viewer) == before and viewer.message.layout.display is None
    move.feet.value = "10"
    assert viewer.error == "" and [i.feet for i in viewer.encounter.intents if i.actor == "Sir Tamsin"] == [10, None]
    viewer.editor.dex.value = 40
    assert viewer.error == "combatants[0].dex (Sir Tamsin): DEX is 1..25 (PH Table 2), got 40" and viewer.editor.dex.value == 40


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


def test_edits_go_into_the_link():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    assert viewer._linked_encounter() is None  # the link names the example
    viewer.editor.rows[0].note.value = "swings high"
    assert viewer._linked_encounter() == viewer.encounter and viewer.url_caveat() == ""  # #50


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


@pytest.mark.parametrize("system", ["phase2", "segments", "five_phase", "short_form", "strike_speed"])
def test_a_typed_roll_is_entered_whatever_its_value_and_roll_again_keeps_it(system):
    """#45 item 3 on each system's page: the seed's own number typed is entered, the link carries it, and
    Roll again keeps it (and rolls the others) until the box is cleared."""
    from combatkit.widgets.state.urlstate import CopyLink, shareable

    viewer = SystemTimeline(system)
    view = shareable(viewer, "")
    roll = viewer.timeline.rolls[0]
    key = (roll.purpose, str(roll.dice))
    box = viewer.dice._boxes[key]
    box.value = ""  # handed back to the seed (an example may bring its own number)
    assert key not in viewer.dice.entries and "rolled with the seed" in viewer.dice._notes[key].value
    seeded = box.placeholder
    assert box.value == "" and seeded != ""  # the seed's number is shown, not held as if typed
    box.value = seeded  # the very number the seed rolled, typed at the table
    assert key in viewer.dice.entries and "entered;" in viewer.dice._notes[key].value
    link = next(child for child in view.children if isinstance(child, CopyLink))
    again = SystemTimeline(system)
    shareable(again, link.query)  # the link reopens it entered (or the example brings that very number)
    assert again.dice.entries[key] == viewer.dice.entries[key] and again.timeline == viewer.timeline
    viewer.reroll.click()
    assert box.value == seeded and key in viewer.dice.entries
    used = [r for r in viewer.timeline.rolls if (r.purpose, str(r.dice)) == key]
    assert used and all(r.entered for r in used)
    box.value = ""
    assert key not in viewer.dice.entries and box.placeholder != ""
