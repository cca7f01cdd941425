"""URL state without a browser: the whitelist, hostile query strings, and each dashboard's round trip."""

import ast
import asyncio
import html
import re

import nbformat
import pytest

from combatkit import load_example
from combatkit.encounter_files import dumps_toml
from combatkit.systems import SYSTEMS as REGISTRY
from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.criticals import CriticalExplorer
from combatkit.widgets.app.landing import dashboards, read_dashboard
from combatkit.widgets.views.mana import ManaCalculators
from combatkit.widgets.app.serve import dashboards_dir
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.views.timeline import TimelineExplorer
from combatkit.widgets.state.urlstate import MAX_QUERY, CopyLink, pack_encounter, parse_query, shareable


@pytest.mark.parametrize("query, problem", [
    ("seed=1;import os", "seed: must be a whole number"),
    ("seed=1&seed=2", "seed: given more than once"),
    ("__class__=1", '"__class__" is not a setting of this dashboard'),
    ("example=../../etc/passwd", "example: must be one of"),
    ("init=1,2,3,4,5,6,7,8,9,10,11,12,13", "init: at most 12 numbers"),
    ("tie_track=WINNER", "tie_track: must be one of winner, loser"),
    ("agility_split=true", "agility_split: must be 1 (yes) or 0 (no)"),
    ("seed", "not key=value pairs"),
    ("seed=" + "9" * MAX_QUERY, f"at most {MAX_QUERY} are read"),
])
def test_a_hostile_or_malformed_query_changes_nothing_and_says_why(query, problem):
    explorer = TimelineExplorer()
    before = explorer.timeline
    view = shareable(explorer, query)
    assert problem in " ".join(parse_query(query, explorer.url_params()).problems)
    assert "default view" in view.children[0].value and view.children[0].layout.display is None
    assert explorer.timeline == before


def test_phase1_link_round_trip():
    first = TimelineExplorer()
    link = shareable(first, "example=ct9-spell-vs-sword&seed=7&init=2,9&incremental_movement=1").children[1]
    assert first.encounter.title == TimelineExplorer("ct9-spell-vs-sword").encounter.title
    assert first.options.incremental_movement
    first.initiative[list(first.initiative)[1]].value = 1  # a control change updates the link
    assert link.query == "example=ct9-spell-vs-sword&seed=7&init=2,1&incremental_movement=1"
    second = TimelineExplorer()
    shareable(second, link.query)
    assert second.timeline == first.timeline


def test_mana_link_opens_every_calculator_with_the_caster():
    first = ManaCalculators()
    link = shareable(first, "tab=recovery&class=wizard&level=9&int=17").children[1]
    assert first.selected_index == 2
    assert {c.caster_class.value.value for c in first.calculators} == {"wizard"}
    first.calculators[2].level.value = 10
    assert link.query == "tab=recovery&class=wizard&level=10&int=17"


def test_criticals_link_round_trip():
    first = CriticalExplorer()
    link = shareable(first, "rules=000-II&ac=2&str=18/50").children[1]
    first.thac0.value = 12
    second = CriticalExplorer()
    shareable(second, link.query)
    assert (second.attacker, second.defender, second.rule_set.value) == (first.attacker, first.defender, "000-II")


def test_landing_cards_come_from_each_notebook(tmp_path):
    cards = {card.path: card for card in dashboards(dashboards_dir())}
    assert cards["mana.ipynb"].title == "Mana calculators for casters (Combat II, Mana Systems I and II)"
    assert cards["mana.ipynb"].picture == "voila/files/thumbnails/mana.png"
    (tmp_path / "new.ipynb").write_text('{"cells": [{"cell_type": "markdown", "source": ["# New one\\n", '
                                        '"Shows *this*. And more."]}], "metadata": {}}')
    (tmp_path / "broken.ipynb").write_text("{not json")
    new = read_dashboard(tmp_path / "new.ipynb", tmp_path)
    assert (new.title, new.summary, new.picture[:26]) == ("New one", "Shows this.", "data:image/svg+xml;base64,")
    assert read_dashboard(tmp_path / "broken.ipynb", tmp_path).title == "Broken"


# ------------------------------------------------ the comparison and the five per-system dashboards

SYSTEMS = ["phase2", "segments", "five_phase", "short_form", "strike_speed"]


def link_of(view) -> CopyLink:
    return next(child for child in view.children if isinstance(child, CopyLink))


def typed(viewer, purpose: str, dice: str, text: str) -> None:
    """Type ``text`` into the dice box of ``purpose`` and ``dice``, as a referee does."""
    viewer.dice._boxes[(purpose, dice)].value = text


@pytest.mark.parametrize("system", SYSTEMS)
def test_system_timeline_link_round_trip(system):
    first = SystemTimeline(system)
    link = link_of(shareable(first, ""))
    assert link.query == f"seed={first.seed.value}" and link.caveat == ""
    first.seed.value = -7  # any seed the box takes, negative too
    name, box = next(iter(first.options.items()))
    box.value = not box.value
    roll = first.timeline.rolls[-1]
    other = roll.dice.minimum if roll.total != roll.dice.minimum else roll.dice.maximum
    typed(first, roll.purpose, str(roll.dice), str(other))
    given = next(iter(first.dice.loaded), None)  # an example file's roll, handed back to the seed
    if given is not None and given != (roll.purpose, str(roll.dice)):
        typed(first, *given, "")
    assert f"&{name}={int(box.value)}&dice=" in link.query
    assert first.error == "" and (roll.purpose, str(roll.dice)) in first.dice.changes

    second = SystemTimeline(system)
    view = shareable(second, link.query)
    assert view.children[0].layout.display == "none"
    assert second.timeline == first.timeline and second.dice.entries == first.dice.entries
    assert link_of(view).query == link.query


def test_a_link_s_dice_go_over_the_example_s_own_and_show_in_their_boxes():
    viewer = SystemTimeline("segments")
    link = link_of(shareable(viewer, "seed=3&dice=segment:+A~d10~9;segment:+B~d10~seed"))
    assert link.query == "seed=3&dice=segment:+A~d10~9;segment:+B~d10~seed"
    entries = {purpose: value for (purpose, _), value in viewer.dice.entries.items()}
    assert entries == {"segment: A": 9, "segment: C": 9, "segment: X": 4, "segment: Y": 7, "segment: Z": 4}
    assert viewer.dice._boxes[("segment: A", "d10")].value == "9"
    assert "entered" in viewer.dice._notes[("segment: A", "d10")].value
    assert [(s.actor, s.end) for s in viewer.timeline.spans if s.actor == "A"] == [("A", 9)]  # 003: its own d10
    viewer.dice.clear.click()  # "Forget entered dice": every example roll handed back to the seed, in the link too
    assert link.query == "seed=3&dice=" + ";".join(f"segment:+{n}~d10~seed" for n in "ABCXYZ")


def test_comparison_link_round_trip():
    first = SystemComparison()
    link = link_of(shareable(first, ""))
    assert link.query == "seed=1&a=Erik+the+Bold&b=Grishnak"
    first.seed.value = 2
    first.b.value = "Snaga"
    typed(first, "ordering: orcs", "d6", "6")
    assert link.query == "seed=2&a=Erik+the+Bold&b=Snaga&dice=ordering:+orcs~d6~6"
    first.picker.example.value = "phase2-tenth-level-caster"  # its file brings seed 10 and six initiative dice
    assert link.query == "example=phase2-tenth-level-caster&seed=10&a=Finchfingle&b=Grulk"
    first.seed.value = 2
    first.a.value, first.b.value = "Grulk", "Finchfingle"
    typed(first, "initiative: party, cycle 2", "d10", "1")
    typed(first, "initiative: ogre", "d10", "")  # handed back to the seed
    blows = next(r for r in first.timelines["segments"].rolls if r.dice.count > 1)
    faces = ["1"] * blows.dice.count
    typed(first, blows.purpose, str(blows.dice), ", ".join(faces))  # each die's face
    assert link.query == ("example=phase2-tenth-level-caster&seed=2&a=Grulk&b=Finchfingle&dice=initiative:+party,+cycle"
                          f"+2~d10~1;{blows.purpose.replace(' ', '+')}~{blows.dice}~{','.join(faces)}"
                          ";initiative:+ogre~d10~seed")

    second = SystemComparison()
    view = shareable(second, link.query)
    assert view.children[0].layout.display == "none"
    assert second.timelines == first.timelines and second.errors == first.errors
    assert (second.a.value, second.b.value, second.odds) == ("Grulk", "Finchfingle", first.odds)
    assert second.sentences == first.sentences
    assert link_of(view).query == link.query


def test_a_link_s_matchup_computes_only_its_own_odds_when_an_event_loop_runs():
    async def scenario():
        comparison = SystemComparison("phase2-tenth-level-caster")
        shareable(comparison, "a=Sir+Hadrek&b=Finchfingle")  # half set, Sir Hadrek against Grulk takes ~30 s
        while comparison.pending:  # a finished job may start the next system's
            await asyncio.gather(*(asyncio.wrap_future(f) for f in comparison.pending), return_exceptions=True)
            await asyncio.sleep(0)
        assert {(a, b) for _, _, a, b in comparison.jobs.seconds} == {("Sir Hadrek", "Finchfingle")}
        assert {*comparison.odds, *comparison.odds_errors} == set(REGISTRY)  # every system places the intents

    asyncio.run(scenario())


DICE_PROBLEMS = [
    ("dice=<script>alert(1)</script>~d10~3", 'dice: "<script>alert(1)</script>~d10~3" is not what~dice~number'),
    ("dice=segment:+A%0A~d10~3", "is not what~dice~number"),
    ("dice=segment:+A~2x6~3", "dice: segment: A: '2x6' is not dice notation"),
    ("dice=segment:+A~0d10~1", "dice: segment: A: dice count must be 1..100, got 0"),
    ("dice=segment:+A~d10~11", "dice: segment: A: d10 rolls 1..10, so 11 cannot have been rolled"),
    ("dice=segment:+A~2d6~7,7", "dice: segment: A: 2d6 needs 2 face(s) of 1..6, got [7, 7]"),
    ("dice=segment:+A~d10~3;segment:+A~d10~4", "dice: segment: A (d10) is given twice"),
    ("dice=" + ";".join(f"segment:+A{n}~d10~1" for n in range(33)), "dice: at most 32 dice, 33 given"),
    ("dice=segment:+" + "A" * 81 + "~d10~1", "is not what~dice~number"),
]


@pytest.mark.parametrize("query, problem", [
    *DICE_PROBLEMS,
    ("speed_bands=yes", "speed_bands: must be 1 (yes) or 0 (no)"),
    ("ticks=1", '"ticks" is not a setting of this dashboard'),
    ("example=segments-fighters-vs-giant-and-orcs&example=ct9-spell-vs-sword", "example: given more than once"),
])
def test_a_bad_system_timeline_link_changes_nothing_and_says_why(query, problem):
    viewer = SystemTimeline("segments")
    before, entries = viewer.timeline, dict(viewer.dice.entries)
    view = shareable(viewer, query)
    message = view.children[0]
    assert "default view" in message.value and message.layout.display is None
    assert problem in " ".join(parse_query(query, viewer.url_params()).problems)
    assert html.escape(problem) in message.value  # shown escaped, never as markup
    assert viewer.timeline == before and viewer.dice.entries == entries
    assert link_of(view).query == "seed=3"


@pytest.fixture(scope="module")
def default_comparison() -> tuple:
    comparison = SystemComparison()
    return comparison.timelines, (comparison.a.value, comparison.b.value), link_of(shareable(comparison, "")).query


@pytest.mark.parametrize("query, problem", [
    ("a=Gandalf", "a: 'Gandalf' is not in \"Five phases: Erik the Bold's second round\": its combatants are Erik the "
                  "Bold, Mira, Tam, Grishnak and Snaga (a matchup names two of the encounter's combatants)"),
    ("a=<b>Erik</b>", "a: must be at most 40 letters"),
    ("dice=ordering:+orcs~d6~11", "dice: ordering: orcs: d6 rolls 1..6, so 11 cannot have been rolled"),
])
def test_a_bad_comparison_link_shows_the_default_view_and_says_why(default_comparison, query, problem):
    comparison = SystemComparison()
    view = shareable(comparison, query)
    message = view.children[0]
    assert "default view" in message.value and html.escape(problem) in message.value
    timelines, matchup, default_query = default_comparison
    assert comparison.timelines == timelines and (comparison.a.value, comparison.b.value) == matchup
    assert comparison.encounter.title == "Five phases: Erik the Bold's second round" and comparison.seed.value == 1
    assert comparison.error == "" and link_of(view).query == default_query


@pytest.mark.parametrize("make", [lambda: SystemTimeline("short_form"), SystemComparison], ids=["system", "compare"])
def test_a_pasted_encounter_goes_into_the_link_in_place_of_the_example(make):
    view = make()
    link = link_of(shareable(view, ""))
    view.picker.read(dumps_toml(load_example("strike-speed-ogre-and-goblin")))
    assert view.encounter.title.startswith("Strike speed") and "example=" not in link.query
    assert link.query.startswith(f"enc={pack_encounter(view.encounter)}&") and link.caveat == ""
    view.show_example("ct9-spell-vs-sword")
    assert link.caveat == "" and link.query.startswith("example=ct9-spell-vs-sword&") and "enc=" not in link.query


@pytest.mark.parametrize("notebook", ["compare_systems", *(f"{system}_timeline" for system in SYSTEMS)])
def test_each_dashboard_s_example_link_opens_without_a_problem(notebook):
    cells = {cell.id: cell.source for cell in nbformat.read(dashboards_dir() / f"{notebook}.ipynb", as_version=4).cells}
    parameters = {node.targets[0].id: ast.literal_eval(node.value) for node in ast.parse(cells["parameters"]).body}
    query = re.match(r"# \?(\S+) in the URL", cells["show"]).group(1)
    if notebook == "compare_systems":
        view = SystemComparison(**parameters)
    else:
        view = SystemTimeline(notebook.removesuffix("_timeline"), **parameters)
    shown = shareable(view, query)
    assert shown.children[0].layout.display == "none" and view.error == ""
    assert link_of(shown).query == query


# ------------------------------------------------ a link carries only what the page applied (#17)


def test_a_refused_initiative_stays_out_of_the_link_and_the_address_bar():
    explorer = TimelineExplorer()
    link = link_of(shareable(explorer, ""))
    assert link.query == "seed=1&init=6,4"
    explorer.initiative["party"].value = 11  # no d10 rolls 11: "Not applied"
    assert "Not applied" in explorer.message.value
    assert link.query == "seed=1&init=6,4"  # what the chart shows, not what the box holds
    explorer.initiative["party"].value = 3
    assert link.query == "seed=1&init=3,4"


def test_a_refused_mana_level_stays_out_of_the_link():
    calculators = ManaCalculators()
    link = link_of(shareable(calculators, "level=7"))
    pool = calculators.calculators[0]
    pool.level.value = 41  # the base-mana table has rows 1..20
    assert pool.error and link.query == "level=7"
    pool.level.value = 9
    assert link.query == "level=9"


@pytest.mark.parametrize("control, typed", [("strength", "abc"), ("armor_class", -12)])
def test_a_refused_critical_input_stays_out_of_the_link(control, typed):
    explorer = CriticalExplorer()
    link = link_of(shareable(explorer, "ac=4"))
    setattr(getattr(explorer, control), "value", typed)
    assert explorer.error and link.query == "ac=4"
    second = CriticalExplorer()
    assert link_of(shareable(second, link.query)).query == "ac=4" and second.error == ""


def test_a_link_with_one_bad_value_applies_the_rest_and_names_the_bad_one():
    comparison = SystemComparison()
    view = shareable(comparison, "example=ct9-spell-vs-sword&seed=5&a=Nobody&b=Velanna")
    message = view.children[0]
    assert comparison.encounter.title == "A CT 9 spell against a sword" and comparison.seed.value == 5
    assert comparison.b.value == "Velanna"
    assert "Applied: example, seed, b" in message.value
    assert html.escape("a: 'Nobody' is not in \"A CT 9 spell against a sword\": its combatants are Velanna and "
                       "Korg") in message.value
    assert "[" not in message.value.split("left out:")[1]  # no Python list in a reader's face
    assert link_of(view).query == f"example=ct9-spell-vs-sword&seed=5&a={comparison.a.value}&b=Velanna"

    viewer = SystemTimeline("segments")
    view = shareable(viewer, "seed=3&ticks=1&speed_bands=1")
    assert viewer.seed.value == 3 and viewer.options["speed_bands"].value
    assert html.escape('"ticks" is not a setting of this dashboard') in view.children[0].value
    assert link_of(view).query == "seed=3&speed_bands=1"
