"""EncounterPrep and its charts, headless: set controls, press Run with a few fights, and check the
frames, the charts' specs and the messages against the engine's own :func:`simulate`. The prep
notebooks also run in tests/test_notebooks.py, which executes every notebook."""

import base64
import doctest
import html
import io
import os
import re
from datetime import datetime, timezone
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import nbformat
import pandas as pd
import pytest
import vl_convert as vlc
from nbclient import NotebookClient

import combatkit.widgets.views.downloads as download_links
import combatkit.widgets.views.prep as prep_widgets
import combatkit.widgets.charts.prep as prep_charts
from combatkit import SYSTEMS, loads_encounter
from combatkit.encounter_files import dumps_toml, encounter_from_dict, encounter_to_dict, load_example
from combatkit.intent import Refinement
from combatkit.fight import FightOptions
from combatkit.model import Weapon
from combatkit.policy import PolicyOptions
from combatkit.simulation import replay, simulate, simulate_systems
from combatkit.widgets.views.prep import FLEE_CHOICES, MAX_FIGHTS, SYSTEM_ORDER, EncounterPrep
from combatkit.widgets.charts.prep import (
    SYSTEM_COLOURS,
    falls_chart,
    falls_frame,
    fights_frame,
    rounds_chart,
    rounds_frame,
    spells_chart,
    spells_frame,
    systems_frame,
    wins_chart,
    wins_frame,
)
from combatkit.widgets.state.urlstate import CopyLink, shareable

ROOT = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
QUICK = "fighter-and-mage-vs-orc-archer"  # three figures, a spell, about 2 ms a fight
SPELL_AND_UNDECIDED = "strike-speed-ogre-and-goblin"  # five figures; some fights reach the round limit
DEFAULT = FightOptions()  # the page's defaults: round 1 plays the encounter's intents


def shown(widget) -> str:
    """The text an HTML widget shows: tags dropped, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", widget.value)).split())


def all_classes(widget) -> set[str]:
    found = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found |= all_classes(child)
    return found


def linked(widget, name: str) -> str:
    """The text behind the data: link whose file name ends with ``name``."""
    match = re.search(rf"download='[^']*{re.escape(name)}' href='data:[^;]+;base64,([A-Za-z0-9+/=]+)'", widget.value)
    assert match, f"no link to {name}"
    return base64.b64decode(match[1]).decode("utf-8")


def ran(prep: EncounterPrep) -> EncounterPrep:
    """Press Run and wait for the fights."""
    prep.run_button.click()
    assert prep.wait(timeout=120)
    return prep


def tick(prep: EncounterPrep, *systems: str) -> None:
    for sid, box in prep.system_boxes.items():
        box.value = sid in systems


def runs(name: str, systems: tuple[str, ...], n: int, seed: int, options: FightOptions = DEFAULT):
    return [simulate(load_example(name), s, n=n, seed=seed, options=options) for s in systems]


@pytest.fixture
def prep() -> EncounterPrep:
    return EncounterPrep(QUICK, systems=("phase1", "segments"), fights=12, seed=3)


# ---------------------------------------------------------------- opening


def test_opens_fast_without_running_anything(prep):
    assert prep.results is None and prep.wins_chart is None and prep.charts.children == ()
    assert prep.error == "" and prep.example.value == QUICK
    assert "Fighter and mage vs. orc archer" in prep.heading.value
    assert "Written for Combat II: Phase System I." in shown(prep.heading)
    assert [sid for sid, box in prep.system_boxes.items() if box.value] == ["phase1", "segments"]
    assert "press Run" in shown(prep.status)
    assert prep.replay_button.disabled and prep.stop_button.layout.display == "none"
    assert loads_encounter(prep.file_text.value) == load_example(QUICK)


def test_the_encounters_own_system_is_ticked_by_default_and_systems_follow_the_seeds():
    assert set(SYSTEM_ORDER) == set(SYSTEMS)
    assert SYSTEM_ORDER[:2] == ("phase1", "phase2") and SYSTEM_ORDER[-1] == "strike_speed"
    prep = EncounterPrep(SPELL_AND_UNDECIDED)
    assert [sid for sid, box in prep.system_boxes.items() if box.value] == ["strike_speed"]
    assert prep.fights.value == prep_widgets.DEFAULT_FIGHTS


def test_controls_carry_classes_a_browser_test_can_find(prep):
    expected = {"prep", "heading", "example", "upload", "save", "file-text", "file-load", "editor", "roster",
                "combatant-row", "c-name", "c-side", "c-level", "c-hp", "c-ac", "c-thac0", "c-dex", "c-mv",
                "c-weapon", "c-sf", "c-damage", "c-class", "c-weapons", "c-spells", "c-intents", "c-edit",
                "c-duplicate", "c-remove", "books", "books-count", "library-file", "add-combatant", "system",
                "system-phase1", "system-strike_speed", "fights", "precision", "seed", "max-rounds", "gap", "flee",
                "declarations", "run", "stop", "progress", "status", "message", "stale", "summary", "downloads",
                "charts", "no-spells", "replay-box", "replay-system", "replay-index", "replay", "replay-why"}
    assert {f"ck-{name}" for name in expected} <= all_classes(prep)
    ran(prep)
    assert {"ck-wins-chart", "ck-rounds-chart", "ck-falls-chart", "ck-spells-chart"} <= all_classes(prep)


def test_the_compact_editor_shows_each_combatant_and_its_first_weapon():
    prep = EncounterPrep(SPELL_AND_UNDECIDED)
    assert [row.fields["name"].value for row in prep.rows] == ["Sir Tamsin", "Pike", "Wenna", "Grol", "Snitch"]
    tamsin, _, wenna, grol, _ = prep.rows
    assert {k: c.value for k, c in tamsin.fields.items()} == {
        "name": "Sir Tamsin", "side": "party", "level": 5, "hp": 38, "ac": 3, "thac0": 16, "dex": 12, "mv": 12}
    assert {k: c.value for k, c in grol.weapon.items()} == {"name": "club", "sf": 4, "damage": "2d6"}
    assert wenna.weapon["name"].value == "" and "magic missile" in shown(wenna.spells)
    # no weapon: blank boxes that say what it fights with instead, not a long sword's numbers
    assert {k: (c.value, c.placeholder) for k, c in wenna.weapon.items()} == {
        "name": ("", "fists"), "sf": ("", "by size"), "damage": ("", "d2")}
    assert "fights with its fists" in wenna.weapon["sf"].tooltip
    assert shown(wenna.char_class) == "mage" and "1. cast magic missile at Grol" in shown(wenna.intents)
    assert shown(grol.weapons) == "—"  # a club alone: no other weapon


def test_prep_s_roster_is_the_editor_s_and_a_line_s_edit_opens_the_figure_for_its_spells_and_intents():
    """#48: prep's quick roster could not add spells or intents; its roster is the encounter editor's, and a line's
    edit opens the editor's form on that figure, where both are added."""
    prep = EncounterPrep(SPELL_AND_UNDECIDED)
    assert prep.roster is prep.editor.roster and prep.form.selected_index is None
    pike = prep.rows[1]
    pike.edit.click()
    edit = prep.editor
    assert prep.form.selected_index == 0 and edit.name.value == "Pike"
    edit.char_class.value = "cleric"
    edit.spell_pick.value = "cure light wounds"
    edit.rows[len(edit.draft.intents_of(pike.ident))].do.value = "cast"
    assert prep.error == ""
    assert [s.name for s in prep.encounter.combatant("Pike").spells] == ["cure light wounds"]
    assert [i.words() for i in prep.encounter.intents if i.actor == "Pike"][-1] == "cast cure light wounds"
    assert "cure light wounds" in shown(prep.rows[1].spells) and "cast cure light wounds" in shown(prep.rows[1].intents)
    assert 'name = "cure light wounds"' in prep.file_text.value
    edit.books.value = "3 kobolds"  # from the books, in prep's roster
    assert [row.fields["name"].value for row in prep.rows][-3:] == ["Kobold 1", "Kobold 2", "Kobold 3"]
    assert prep.encounter.combatants[-1].name == "Kobold 3"
    prep.rows[-1].duplicate.click()
    assert [c.name for c in prep.encounter.combatants][-1] == "Kobold 4"


# ---------------------------------------------------------------- running


def test_run_shows_what_the_engine_gives_for_the_same_fights(prep):
    ran(prep)
    expected = runs(QUICK, ("phase1", "segments"), 12, 3)
    results = prep.results
    pd.testing.assert_frame_equal(results.wins, wins_frame(expected))
    pd.testing.assert_frame_equal(results.fights, fights_frame(expected))
    assert results.setup.systems == ("phase1", "segments") and results.setup.fights == 12
    # the charts draw those frames
    assert list(prep.charts.children) == [prep.wins_chart, prep.rounds_chart, prep.falls_chart, prep.spells_chart]
    spec = prep.wins_chart.chart.to_dict()
    assert spec == wins_chart(results.wins).to_dict()
    assert prep.falls_chart.chart.to_dict() == falls_chart(results.falls).to_dict()
    assert prep.rounds_chart.chart.to_dict() == rounds_chart(results.rounds).to_dict()
    # the table says the same
    text = shown(prep.summary)
    for line in results.wins.itertuples():
        assert line.label in text
    assert "Combat II: Phase System I (phase1)" in text and "Segment of Action (Lakofka, 1980) (segments)" in text
    # progress and status
    assert prep.progress.value == prep.progress.max == 24 and prep.progress.bar_style == "success"
    assert re.fullmatch(r"24 fights \(12 × 2 systems\) in \d+\.\d s, seed 3; every fight asked for was played\.",
                        shown(prep.status))
    assert not prep.run_button.disabled and not prep.replay_button.disabled
    assert prep.stop_button.layout.display == "none"


def test_the_progress_bar_is_fed_as_the_fights_are_played(prep):
    prep.fights.value = 100
    seen = []
    prep.progress.observe(lambda change: seen.append(change.new), "value")
    ran(prep)
    assert seen == list(range(2, 201, 2))  # every 2% of each system's 100 fights


def test_same_seed_same_results_another_seed_other_results(prep):
    first = ran(prep).results
    again = ran(prep).results
    assert again is not first
    pd.testing.assert_frame_equal(again.fights, first.fights)
    prep.seed.value = 4
    other = ran(prep).results
    assert not other.fights["seed"].equals(first.fights["seed"])
    assert other.setup.seed == 4


def test_the_run_options_reach_the_engine():
    prep = EncounterPrep(SPELL_AND_UNDECIDED, systems=("strike_speed",), fights=10, seed=2)
    prep.max_rounds.value = 3
    prep.gap.value = 60
    prep.flee.value = [label for label, _ in FLEE_CHOICES].index("flee at ½ hit points or less")
    ran(prep)
    options = FightOptions(max_rounds=3, opening_gap=60, policy=PolicyOptions(flee_below=Fraction(1, 2)))
    assert prep.results.setup.options == options
    pd.testing.assert_frame_equal(prep.results.fights,
                                  fights_frame(runs(SPELL_AND_UNDECIDED, ("strike_speed",), 10, 2, options)))
    assert prep.results.fights["rounds"].max() <= 3


def test_spells_are_charted_only_when_someone_casts():
    prep = ran(EncounterPrep("orc-closes-on-longbowman", systems=("phase1",), fights=5))
    assert prep.results.spells.empty and "none begun" in shown(prep.summary)
    assert prep.spells_chart.layout.display == "none" and prep.no_spells.layout.display is None
    prep.show_example(QUICK)
    ran(prep)
    assert not prep.results.spells.empty
    assert prep.spells_chart.layout.display is None and prep.no_spells.layout.display == "none"
    assert prep.spells_chart.chart.to_dict() == spells_chart(prep.results.spells).to_dict()


def test_the_csv_links_hold_the_frames(prep):
    ran(prep)
    for name, frame in (("fights", prep.results.fights), ("wins", prep.results.wins),
                        ("falls", prep.results.falls), ("spells", prep.results.spells)):
        assert linked(prep.downloads, f"-{name}.csv") == frame.to_csv(index=False)
    back = pd.read_csv(io.StringIO(linked(prep.downloads, "-fights.csv")), keep_default_na=False)
    assert list(back.columns) == list(prep_charts.FIGHT_COLUMNS) and len(back) == 24


def test_a_csv_too_large_for_a_link_is_not_offered_as_a_dead_one(prep, monkeypatch):
    ran(prep)
    fights = len(linked(prep.downloads, "-fights.csv"))
    monkeypatch.setattr(download_links, "LINK_LIMIT", fights)  # its link, in base64, is longer than the CSV
    html_of = prep_widgets._downloads_html(prep.results)
    assert "-fights.csv" not in html_of and "-wins.csv" in html_of
    assert "every fight: too large for a link in the page (24 fights)" in html_of


def test_the_dashboard_runs_enough_fights_to_stop_at_2_percent_on_an_even_fight():
    from combatkit.simulation import _widest

    even = {"party": MAX_FIGHTS // 2, "orcs": MAX_FIGHTS - MAX_FIGHTS // 2, None: 0}
    assert _widest(even, MAX_FIGHTS) <= 0.02  # 2,000 (the old cap) left an even fight at ±2.2%


def test_stop_ends_the_run_and_keeps_the_last_results():
    prep = EncounterPrep(SPELL_AND_UNDECIDED, systems=("strike_speed",), fights=5)
    done = ran(prep).results
    prep.fights.value = MAX_FIGHTS
    assert prep.run() and prep.running
    assert not prep.run()  # one run at a time
    assert prep.run_button.disabled and prep.rows[0].fields["hp"].disabled and prep.stop_button.layout.display is None
    prep.stop_button.click()
    assert prep.wait(timeout=60)
    assert prep.results is done and prep.progress.bar_style == "warning"
    assert re.fullmatch(rf"Stopped after \d+ of {MAX_FIGHTS} fights; the results below are the last complete run's\.",
                        shown(prep.status))
    assert prep.progress.value < MAX_FIGHTS
    assert not prep.run_button.disabled and not prep.rows[0].fields["hp"].disabled


def test_precision_stops_each_system_once_its_win_rates_are_known_and_says_so():
    """The party always wins the quick example: ±5% is known after the first 50 fights, ±1% not by 100."""
    prep = EncounterPrep(QUICK, systems=("phase1", "segments"), fights=100, seed=3, precision=5)
    ran(prep)
    results = prep.results
    assert results.setup.precision == 0.05
    expected = [simulate(load_example(QUICK), s, n=100, seed=3, options=DEFAULT, precision=0.05)
                for s in ("phase1", "segments")]
    assert [len(sim.fights) for sim in expected] == [50, 50]
    pd.testing.assert_frame_equal(results.fights, fights_frame(expected))
    assert re.fullmatch(r"100 fights in \d+\.\d s, seed 3; stop early at ±5%: phase1 stopped after 50 \(±5% "
                        r"reached\), segments stopped after 50 \(±5% reached\)\.", shown(prep.status))
    assert "50 of 100 (±5% reached)" in shown(prep.summary)
    assert results.systems[["fights", "requested", "stopped"]].values.tolist() == [[50, 100, "precision reached"]] * 2
    assert prep.progress.value == prep.progress.max == 200 and prep.progress.bar_style == "success"
    prep.replay_index.value = 50
    prep.replay_button.click()
    assert prep.error == "fight #: 0..49 (the fights of the last run under phase1), got 50"
    prep.precision.value = 1
    ran(prep)
    assert [len(sim.fights) for sim in prep.results.simulations] == [100, 100]
    assert shown(prep.status).endswith("stop early at ±1%: phase1 played all 100 (±1% not reached), segments played "
                                       "all 100 (±1% not reached).")
    assert "100 of 100 (±1% not reached)" in shown(prep.summary)


def test_the_view_plays_on_every_core_unless_told_otherwise(prep, monkeypatch):
    asked = []

    def recording(*args, **kwargs):
        asked.append(kwargs["workers"])
        return simulate_systems(*args, **kwargs)

    monkeypatch.setattr(prep_widgets, "simulate_systems", recording)
    ran(prep)
    assert asked == [None]  # None: every core
    one = EncounterPrep(QUICK, systems=("phase1",), fights=12, seed=3, workers=1)
    ran(one)
    assert asked[-1] == 1
    pd.testing.assert_frame_equal(one.results.fights, prep.results.fights.query("system == 'phase1'"))


def test_bad_workers_are_shown_not_raised():
    prep = EncounterPrep(QUICK, systems=("phase1",), fights=12, workers=0)
    assert not prep.run()
    assert prep.error == "workers: 1 or more processes (None: every core), got 0"
    assert "Not run:" in shown(prep.message) and prep.message.layout.display is None


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_an_engine_bug_is_raised_by_wait_and_the_controls_come_back(prep, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(prep_widgets, "simulate_systems", broken)
    prep.run_button.click()
    with pytest.raises(RuntimeError, match="a bug"):
        prep.wait(timeout=60)
    assert prep.results is None and "internal error (RuntimeError)" in shown(prep.status)
    assert not prep.run_button.disabled and prep.replay_button.disabled


# ---------------------------------------------------------------- replaying


def test_replay_explains_the_very_fight_of_the_table(prep):
    ran(prep)
    prep.replay_system.value = "segments"
    prep.replay_index.value = 7
    prep.replay_button.click()
    fight = prep.replayed
    row = prep.results.fights.query("system == 'segments' and fight == 7").iloc[0]
    assert (fight.system, fight.winner or "", fight.round_count, fight.end.value) == (
        "segments", row.winner, row.rounds, row.end)
    text = shown(prep.replay_why)
    assert text.startswith("Fight #7 under Segment of Action (Lakofka, 1980): After")
    assert "round 1 (segments)" in text
    assert fight.why()[1] in text  # the first event of round 1, as the engine words it


def test_a_run_replays_the_chosen_fight_at_once(prep):
    ran(prep)
    assert prep.replayed is not None and prep.replayed.system == "phase1"
    assert shown(prep.replay_why).startswith("Fight #0 under Combat II: Phase System I:")


def test_a_fight_outside_the_run_is_refused_and_the_last_replay_stays(prep):
    ran(prep)
    before = prep.replay_why.value
    prep.replay_index.value = 12
    prep.replay_button.click()
    assert prep.error == "fight #: 0..11 (the fights of the last run under phase1), got 12"
    assert "Not replayed:" in shown(prep.message) and prep.message.layout.display is None
    assert prep.replay_why.value == before and prep.replay_index.value == 12
    prep.replay_index.value = 11
    prep.replay_button.click()
    assert prep.error == "" and prep.message.layout.display == "none"


# ---------------------------------------------------------------- bad input


def test_a_bad_field_names_the_field_and_value_and_keeps_the_input(prep):
    ran(prep)
    before = prep.results
    mira = next(row for row in prep.rows if row.fields["name"].value == "Mira")
    mira.fields["hp"].value = -3
    assert prep.error == "combatants[1].hp (Mira): hit points are 0 or more, got -3"
    assert shown(prep.message).startswith("Not applied: combatants[1].hp (Mira)")
    assert mira.fields["hp"].value == -3
    assert prep.encounter == load_example(QUICK)  # the last good encounter
    assert not prep.run() and prep.results is before
    assert "Not run: combatants[1].hp (Mira): hit points are 0 or more, got -3" in shown(prep.message)
    mira.fields["hp"].value = 12
    assert "Not applied" not in shown(prep.message)


@pytest.mark.parametrize(("control", "value", "message"), [
    ("fights", 0, f"fights: 1..{MAX_FIGHTS} fights per system in the dashboard, got 0"),
    ("fights", MAX_FIGHTS + 1, f"fights: 1..{MAX_FIGHTS} fights per system in the dashboard, got {MAX_FIGHTS + 1}"),
    ("max_rounds", 0, "max_rounds is a whole number, 1 or more, got 0 (rule combatkit fights)"),
    ("gap", -5, "opening_gap is a whole number of feet, 0 or more, got -5 (rule combatkit fights)"),
])
def test_bad_run_settings_are_refused_with_the_value_and_kept(prep, control, value, message):
    getattr(prep, control).value = value
    assert not prep.run()
    assert prep.error == message and shown(prep.message).startswith(f"Not run: {message}")
    assert getattr(prep, control).value == value and prep.results is None and not prep.running


def test_no_system_ticked_is_refused(prep):
    tick(prep)
    assert not prep.run() and prep.error == "timing systems: tick at least one system to run"


def test_a_refusal_is_reported_under_the_system_that_refuses():
    """Every system places the encounter's intents; a refinement one system cannot follow (Pike's blow placed
    as the first action, 10' from Grol with no move) is refused by that system alone, and said under it."""
    encounter = load_example(SPELL_AND_UNDECIDED)
    encounter = replace(encounter, refinements=encounter.refinements + (Refinement("short_form", "Pike", 1,
                                                                                   phases=(1,)),))
    prep = EncounterPrep(encounter=encounter, systems=("strike_speed", "short_form"), fights=5)
    assert prep.declarations.value  # round 1: the encounter's intents, by default
    ran(prep)
    refused = ("under short_form: Pike and Grol are 10' apart and neither moves toward the other: "
               "a melee attack needs its target within 5' (rule 002 III.D)")
    assert prep.error == refused and prep.results is None and prep.progress.bar_style == "danger"
    assert shown(prep.status) == "Stopped at a rules error under short_form; nothing to show yet."
    assert prep.declarations.value and not prep.run_button.disabled
    tick(prep, "strike_speed")
    done = ran(prep).results  # Strike Speed ignores the short form's refinement
    assert prep.error == "" and done.setup.options.declarations
    tick(prep, "strike_speed", "short_form")
    ran(prep)
    assert prep.error == refused and prep.results is done
    assert shown(prep.status) == ("Stopped at a rules error under short_form; the results below are the last "
                                  "complete run's.")


def test_the_findings_say_why_systems_coincide_and_why_fights_end_undecided():
    prep = ran(EncounterPrep("two-swords-random-segments-against-fixed-phases", systems=("phase1", "phase2"), fights=20))
    text = shown(prep.findings)
    assert ("Combat II: Phase System I and Combat II: Phase System II give the very same fights here: every figure "
            "has one attack a round") in text
    assert "fights ended with no winner" in text and "still fighting at the round limit" in text
    parted = ran(EncounterPrep("phase1-and-phase2-part-ways", systems=("phase1", "phase2"), fights=20))
    assert "give the very same fights" not in shown(parted.findings)
    spells = ran(EncounterPrep("ct9-spell-vs-sword", systems=("phase1",), fights=5))
    assert "Spells with no effect data went off and did nothing the engine could apply: time stop" in shown(
        spells.findings)


def test_a_link_opens_the_setup_it_names_and_follows_the_controls():
    prep = EncounterPrep(SPELL_AND_UNDECIDED, systems=("strike_speed",))
    query = ("example=fighter-and-mage-vs-orc-archer&phase1=1&strike_speed=0&fights=50&precision=2&seed=9&rounds=5"
             "&flee=1")
    view = shareable(prep, query)
    assert prep.encounter == load_example(QUICK) and prep.example.value == QUICK
    assert [sid for sid, box in prep.system_boxes.items() if box.value] == ["phase1"]
    assert (prep.fights.value, prep.precision.value, prep.seed.value, prep.max_rounds.value, prep.flee.value) == (
        50, 2, 9, 5, 1)
    link = next(child for child in view.children if isinstance(child, CopyLink))
    assert link.query == query
    prep.system_boxes["segments"].value = True
    assert link.query == query.replace("&strike_speed", "&segments=1&strike_speed")
    assert prep.results is None  # a link sets the run up; Run plays it


def test_a_link_with_a_value_the_view_cannot_read_applies_the_rest_and_names_it():
    prep = EncounterPrep(QUICK, systems=("phase1",))
    view = shareable(prep, "fights=0&seed=2")
    assert (prep.fights.value, prep.seed.value) == (prep_widgets.DEFAULT_FIGHTS, 2)  # the seed is read
    assert f'fights: must be a whole number 1..{MAX_FIGHTS}, got "0"' in shown(view.children[0])
    view = shareable(prep, "precision=3")
    assert prep.precision.value == 0 and 'precision: must be one of 0, 5, 2, 1, got "3"' in shown(view.children[0])


# ---------------------------------------------------------------- the encounter


def test_editing_combatants_changes_the_encounter_and_marks_the_results_stale(prep):
    ran(prep)
    assert prep.stale.layout.display == "none"
    brienne = prep.rows[0]
    brienne.fields["name"].value = "Brianna"
    brienne.weapon["damage"].value = "2d4"
    encounter = prep.encounter
    assert encounter.combatants[0].name == "Brianna" and encounter.combatants[0].weapons[0].damage == "2d4"
    assert [i.actor for i in encounter.intents].count("Brianna") == 2  # her intents followed the rename
    assert prep.stale.layout.display is None
    assert 'name = "Brianna"' in prep.file_text.value and linked(prep.save_link, ".toml") == dumps_toml(encounter)
    ran(prep)
    assert prep.stale.layout.display == "none" and "Brianna" in set(prep.results.falls["figure"])


def test_adding_and_removing_combatants():
    prep = EncounterPrep(QUICK)
    prep.add_combatant.click()
    assert len(prep.rows) == 4
    added = prep.encounter.combatants[-1]
    assert (added.name, added.side, added.hit_points, added.armor_class, added.weapons[0].name) == (
        "Combatant 4", "orcs", 8, 5, "long sword")
    prep.rows[-1].weapon["name"].value = ""
    assert prep.error == "combatants[3].weapons[0].name (Combatant 4): must not be empty, got ''"
    prep.rows[-1].remove.click()
    assert len(prep.rows) == 3 and prep.error == "" and prep.encounter == load_example(QUICK)
    while prep.rows:  # a line shows the next figure once its own is gone
        prep.rows[0].remove.click()
    assert prep.error.startswith("combatants: an encounter needs at least one combatant")
    assert [c.name for c in prep.encounter.combatants] == ["Ugluk"]  # the last good encounter: one left
    prep.add_combatant.click()
    assert [(c.name, c.side) for c in prep.encounter.combatants] == [("Combatant 1", "party")]


def test_a_weapon_typed_for_a_combatant_without_one_gives_it_that_weapon():
    prep = EncounterPrep(SPELL_AND_UNDECIDED)
    prep.rows[2].weapon["sf"].value = "2"  # the blank box is text: a whole number typed there is the SF
    assert prep.error == "combatants[2].weapons[0].name (Wenna): is required"
    wenna = prep.rows[2]  # her line shows a weapon's boxes now
    assert wenna.armed and wenna.weapon["sf"].value == 2 and "fists" not in wenna.weapon["name"].tooltip
    wenna.weapon["name"].value = "dagger"
    wenna.weapon["damage"].value = "d4"
    assert prep.error == "" and prep.encounter.combatant("Wenna").weapons == (Weapon("dagger", 2, damage="d4"),)
    wenna.weapon["damage"].value = "quick"
    assert prep.error.startswith("combatants[2].weapons[0].damage (Wenna): ")
    assert wenna.weapon["damage"].value == "quick"  # what was typed stays
    assert prep.encounter.combatant("Wenna").weapons == (Weapon("dagger", 2, damage="d4"),)  # the last good one


def test_a_blank_box_of_a_figure_without_a_weapon_left_blank_leaves_it_its_fists():
    prep = EncounterPrep(SPELL_AND_UNDECIDED)
    wenna = prep.rows[2]
    wenna.weapon["sf"].value = "  "
    assert prep.error == "" and prep.encounter.combatant("Wenna").weapons == () and not wenna.armed


def test_the_file_text_loads_and_bad_text_is_reported_and_kept(prep):
    text = dumps_toml(load_example("ct9-spell-vs-sword"))
    prep.file_text.value = text.replace("dex = 14", "dex = 0")
    prep.file_load.click()
    assert prep.error == "combatants[0].dex: DEX is 1..25 (PH Table 2), got 0"
    assert "dex = 0" in prep.file_text.value and prep.encounter == load_example(QUICK)
    prep.rows[0].fields["hp"].value = 30  # an edit elsewhere does not overwrite what was typed
    assert "dex = 0" in prep.file_text.value
    prep.file_text.value = text
    prep.file_load.click()
    assert prep.error == "" and prep.encounter.title == "A CT 9 spell against a sword"
    assert prep.example.value is None and [row.fields["name"].value for row in prep.rows] == ["Velanna", "Korg"]


def test_an_uploaded_file_loads_and_a_bad_one_is_reported(prep):
    def upload(name: str, content: bytes) -> None:
        prep.picker.upload.value = ({"name": name, "type": "", "size": len(content),
                                     "content": memoryview(content), "last_modified": datetime.now(timezone.utc)},)

    upload("orc.toml", dumps_toml(load_example("orc-closes-on-longbowman")).encode())
    assert prep.encounter.title == "An orc closes 40' on a longbowman" and prep.picker.upload.value == ()
    upload("bad.toml", b"x =")
    assert prep.error.startswith("file: not valid TOML")
    upload("latin.toml", "title = 'Orc\xe9'".encode("latin-1"))
    assert prep.error == "file: latin.toml is not UTF-8 text"
    assert prep.encounter.title == "An orc closes 40' on a longbowman"


def test_examples_switch_and_unknown_names_are_reported(prep):
    prep.example.value = "segments-fighters-vs-giant-and-orcs"
    assert len(prep.rows) == 6 and prep.encounter.system == "segments"
    prep.show_example("no-such-fight")
    assert prep.error.startswith("example: no shipped encounter 'no-such-fight'")
    assert len(prep.rows) == 6


def test_an_edited_or_opened_encounter_goes_into_the_link_with_the_run_s_setup(prep):
    link = next(child for child in shareable(prep, "").children if isinstance(child, CopyLink))
    assert "enc=" not in link.query  # a shipped example as shipped: the link names it
    prep.fights.value, prep.seed.value = 30, 8
    prep.rows[0].fields["hp"].value = 30
    assert link.query.startswith("enc=") and "example=" not in link.query and link.caveat == ""  # #50
    again = EncounterPrep(QUICK, systems=("phase1", "segments"), fights=12, seed=3)
    view = shareable(again, link.query)
    assert view.children[0].layout.display == "none"
    assert again.encounter == prep.encounter and (again.fights.value, again.seed.value) == (30, 8)
    prep.example.value = "ct9-spell-vs-sword"
    assert link.query.startswith("example=ct9-spell-vs-sword&")
    prep.add_combatant.click()
    assert link.query.startswith("enc=")
    prep.file_text.value = dumps_toml(load_example("orc-closes-on-longbowman"))
    prep.file_load.click()
    assert link.query.startswith("enc=") and prep.encounter.title == load_example("orc-closes-on-longbowman").title


def test_an_encounter_for_a_system_combatkit_lacks_still_runs_under_the_ones_ticked(tmp_path):
    data = encounter_to_dict(load_example("orc-closes-on-longbowman"))
    data = {k: v for k, v in data.items() if k not in ("declarations", "rolls")} | {"system": "homebrew"}
    prep = EncounterPrep(encounter=encounter_from_dict(data), fights=4)
    assert "Written for homebrew." in shown(prep.heading) and prep.example.value is None
    assert [sid for sid, box in prep.system_boxes.items() if box.value] == [SYSTEM_ORDER[0]]
    ran(prep)
    assert prep.results.setup.systems == (SYSTEM_ORDER[0],) and len(prep.results.fights) == 4
    prep.save(tmp_path / "homebrew.toml")
    assert loads_encounter((tmp_path / "homebrew.toml").read_text()) == prep.encounter
    assert prep.encounter.system == "homebrew"


# ---------------------------------------------------------------- frames and charts


@pytest.fixture(scope="module")
def two_runs():
    return runs(SPELL_AND_UNDECIDED, ("strike_speed", "short_form"), 40, 5)


def test_win_rates_agree_with_the_engines_summary(two_runs):
    wins = wins_frame(two_runs)
    for sim in two_runs:
        mine = wins[wins["system"] == sim.system].set_index("side")
        summary = sim.summary()["wins"]
        for side, numbers in summary.items():
            assert mine.loc[side, "wins"] == numbers["count"] and mine.loc[side, "rate"] == numbers["rate"]
            assert (mine.loc[side, "low"], mine.loc[side, "high"]) == numbers["interval"]
        assert mine["wins"].sum() == mine["fights"].iloc[0] == 40
    assert list(dict.fromkeys(wins["side"])) == ["party", "monsters", "undecided"]


def test_a_side_that_never_wins_is_shown_and_undecided_only_when_some_fight_was():
    wins = wins_frame(runs(QUICK, ("phase1",), 10, 1))
    assert wins[["side", "wins", "label"]].to_dict("records") == [
        {"side": "party", "wins": 10, "label": "100% (72–100%)"},
        {"side": "orcs", "wins": 0, "label": "0% (0–28%)"},
    ]


def test_rounds_falls_spells_and_systems_frames_add_up(two_runs):
    rounds = rounds_frame(two_runs)
    assert rounds.groupby("system")["share"].sum().round(9).eq(1).all()
    assert set(rounds.loc[~rounds["finished"], "rounds"]) <= {FightOptions().max_rounds}
    falls = falls_frame(two_runs)
    for sim in two_runs:
        rates = falls[falls["system"] == sim.system].set_index("figure")["rate"].to_dict()
        assert rates == sim.summary()["fell"]
    spells = spells_frame(two_runs)
    systems = systems_frame(two_runs).set_index("system")
    for line in spells.itertuples():
        assert line.figure == "Wenna" and line.attempted == systems.loc[line.system, "spells_attempted"]
        assert line.succeeded / line.attempted == systems.loc[line.system, "spell_success"]
    assert list(systems.index) == ["strike_speed", "short_form"]
    assert systems.loc["strike_speed", ["fights", "requested", "stopped"]].tolist() == [40, 40, "n reached"]
    assert systems.loc["strike_speed", "undecided"] == sum(r["winner"] is None for r in two_runs[0].fights)


def test_no_one_casts_no_spell_rows():
    assert spells_frame(runs("orc-closes-on-longbowman", ("phase1",), 5, 1)).empty


def test_rate_charts_draw_each_row_with_its_interval_and_system_colour(two_runs):
    for frame, chart in ((wins_frame(two_runs), wins_chart), (falls_frame(two_runs), falls_chart),
                         (spells_frame(two_runs), spells_chart)):
        spec = chart(frame).to_dict()
        assert [layer["name"] for layer in spec["layer"]] == ["bars", "interval", "labels"]
        bars, interval, _ = spec["layer"]
        assert bars["encoding"]["x"]["scale"]["domain"] == [0, 1]
        assert (interval["encoding"]["x"]["field"], interval["encoding"]["x2"]["field"]) == ("low", "high")
        scale = bars["encoding"]["color"]["scale"]
        assert scale["domain"] == ["strike_speed", "short_form"]
        assert scale["range"] == [SYSTEM_COLOURS["strike_speed"], SYSTEM_COLOURS["short_form"]]
        rows = spec["datasets"][spec["data"]["name"]]
        assert [r["label"] for r in rows] == list(frame["label"])
        drawn = rendered_marks(spec)
        assert drawn["bars"] == drawn["interval"] == drawn["labels"] == len(frame)


def test_the_rounds_chart_fades_fights_the_round_limit_stopped(two_runs):
    frame = rounds_frame(two_runs)
    spec = rounds_chart(frame).to_dict()
    assert spec["encoding"]["opacity"]["scale"] == {"domain": [True, False], "range": [0.9, 0.35]}
    assert spec["encoding"]["xOffset"]["field"] == "system" and spec["encoding"]["y"]["stack"] == "zero"
    assert rendered_marks(spec)["bars"] == len(frame)


def test_an_unknown_system_still_gets_a_colour():
    frame = pd.DataFrame([{"system": "homebrew", "side": "a", "wins": 1, "fights": 2, "rate": 0.5, "low": 0.1,
                           "high": 0.9, "label": "50%"}])
    assert wins_chart(frame).to_dict()["layer"][0]["encoding"]["color"]["scale"]["range"] == ["#9c755f"]


def rendered_marks(spec: dict) -> dict[str, int]:
    """SVG elements per named layer, rendered offline by vl-convert."""
    svg = vlc.vegalite_to_svg(spec)
    counts = {}
    for group in re.finditer(r'<g class="mark-\w+ role-mark (\w+)_marks"[^>]*?(?:/>|>(.*?)</g>)', svg, re.S):
        counts[group[1]] = len(re.findall(r"<(?:path|text|line)\b", group[2] or ""))
    return counts


@pytest.mark.parametrize("module", [prep_widgets, prep_charts])
def test_docstring_examples(module):
    # widgets/ is outside pytest's testpaths, so its doctests run here
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# ---------------------------------------------------------------- the notebooks


def execute(path: Path, *extra: str) -> list[dict]:
    """Run the notebook, then ``extra`` cells in its kernel; every output."""
    notebook = nbformat.read(path, as_version=4)
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in extra]
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]


@pytest.mark.notebook
def test_the_walk_through_replays_a_fight_as_the_table_has_it():
    outputs = execute(ROOT / "notebooks" / "encounter_prep.ipynb")
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "400 fights in" in printed
    assert "Grol is 10' from Sir Tamsin, so it closes first, then strikes" in printed  # the short form's own terms
    assert "undecided:" in printed
    table, replayed = re.search(r"Fight #\d+ in the table: (.*)\nReplayed: +(.*)\n", printed).groups()
    assert table.replace("nobody", "") == replayed.replace("nobody", "") and "spells went off" in replayed
    assert re.search(r"short_form +party +\d+ of 200: \d+% \(\d+–\d+%\)", printed)
    assert re.search(r"\d+ of 2000 fights \(precision reached\): every win rate known to ±\d\.\d%\n"
                     r"The same fights as the first ones above: True", printed)
    assert len([o for o in outputs if WIDGET_VIEW in o.get("data", {})]) == 5  # four charts, then the view


@pytest.mark.notebook
def test_the_dashboard_has_parameters_and_reads_the_query_string(monkeypatch):
    path = ROOT / "dashboards" / "encounter_prep.ipynb"
    assert [c for c in nbformat.read(path, as_version=4).cells if "parameters" in c.metadata.get("tags", [])]
    # as voila sets it
    monkeypatch.setitem(os.environ, "QUERY_STRING", "example=segments-fighters-vs-giant-and-orcs&fights=50")
    outputs = execute(path, "print(prep.encounter.title, prep.fights.value, prep.results)")
    assert len([o for o in outputs if WIDGET_VIEW in o.get("data", {})]) == 1
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert printed.startswith("Segment of Action: fighters A, B and C battle Giant X; Orcs Y and Z attack A and B 50 None")


def test_the_heading_names_the_timing_options_the_file_sets():
    prep = EncounterPrep("segments-speed-bands-dagger-vs-two-handed-sword", systems=("segments",))
    assert "Timing options in force</b>: Segment of Action (Lakofka, 1980): speed bands: on" in prep.heading.value
    prep.show_example(QUICK)
    assert "every system&#x27;s own defaults (the file sets none)" in prep.heading.value


def test_round_1_intents_are_edited_in_the_shared_editor_and_reach_the_run():
    prep = EncounterPrep(QUICK, systems=("phase1", "short_form"), fights=6)
    edit = prep.editor
    edit.pick("Mira")
    assert [row.do.value for row in edit.rows][:2] == ["cast", "action"]
    assert "Mira means to cast web at Ugluk: a cast in phase 1" in edit.rows[0].placement.value
    edit.rows[0].using.value = dict(edit.rows[0].using.options)["magic missile"]
    assert [(i.kind.value, i.spell) for i in prep.encounter.intents if i.actor == "Mira"][0] == ("cast",
                                                                                               "magic missile")
    assert 'spell = "magic missile"' in prep.file_text.value
    ran(prep)
    first = replay(prep.encounter, 0, "short_form", seed=1, options=prep.results.setup.options)
    assert any(e.actor == "Mira" and "magic missile" in e.why for e in first.rounds[0].events)
    prep.rows[1].fields["name"].value = "Mirabel"  # the roster's edit reaches the editor
    assert [c.name for c in edit.draft.encounter().combatants][1] == "Mirabel"


def test_what_the_encounter_editor_could_not_read_is_said_in_prep_s_alert_box_too():
    """A name the books lack, typed in prep's encounter editor, is said in prep's own alert box and nothing else
    changes; the next good entry clears it."""
    prep = prep_widgets.EncounterPrep()
    before = prep.encounter
    edit = prep.editor
    edit.books_count.value, edit.books_side.value = 2, "goblins"
    edit.books.value = "gobln"
    assert 'no monster "gobln"' in prep.error and "Not applied" in prep.message.value
    assert prep.encounter == before and edit.books.value == "gobln"
    edit.books.value = "goblin"
    assert prep.error == "" and prep.message.value == ""
    assert [c.name for c in prep.encounter.combatants][-2:] == ["Goblin 1", "Goblin 2"]
