"""The six-system comparison dashboard in a real browser: Debian's chromium, driven by Playwright,
against voila on 127.0.0.1 started by :func:`combatkit.widgets.app.serve.serving` (the fixtures are in
conftest.py).

Fails on any page error, any console error and any request that leaves 127.0.0.1 (the dashboard
must work offline). Screenshots go to ``artifacts/``.
"""

import re
from pathlib import Path

import pytest

from combatkit import load_example
from combatkit.encounter_files import example_encounters
from combatkit.systems import SYSTEMS
from combatkit.comparison import default_matchup, matchup_sentences, run_systems
from combatkit.widgets.charts.compare import panel_frame
from combatkit.widgets.views.dice_entry import file_entries
from combatkit.widgets.views.encounter_picker import example_options

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: one page at a time, and the machine's two cores are shared
VIEWPORT = {"width": 1500, "height": 2600}  # voila's page scrolls inside itself: a tall one shows it all
DASHBOARD = "compare_systems.ipynb"
EXAMPLE = "five-phase-erik-the-bold"  # the dashboard's parameters cell opens it
A, B = "Erik the Bold", "Grishnak"  # its first attack on a foe: the default matchup


def expected(seed: int, entered: dict | None = None, example: str = EXAMPLE) -> dict:
    """What each panel should draw and what the words should say, from the engine directly."""
    encounter = load_example(example)
    by_dice, left = file_entries(encounter, seed)
    runs = run_systems(encounter, seed, {**by_dice, **(entered or {})}, left)
    order = [c.name for c in encounter.combatants]
    matchup = (A, B) if example == EXAMPLE else default_matchup(encounter)  # the one the dashboard opens it with
    marks = {}
    for sid, run in runs.items():
        if run.timeline is not None:
            frame = panel_frame(run.timeline, order)
            marks[sid] = {"points": int((frame["mark"] == "point").sum()), "bars": int((frame["mark"] == "bar").sum())}
    return {"marks": marks, "errors": {sid: run.error for sid, run in runs.items() if run.timeline is None},
            "words": matchup_sentences(runs, encounter, *matchup)}


def layer(page, system: str, name: str):
    return page.locator(f".ck-panel-{system} .ck-panel-chart svg g.{name}_marks path")


def check_panels(page, want: dict) -> None:
    for sid, counts in want["marks"].items():
        expect(layer(page, sid, "points")).to_have_count(counts["points"])
        expect(layer(page, sid, "bars")).to_have_count(counts["bars"])
        expect(page.locator(f".ck-panel-{sid} .ck-panel-chart")).to_be_visible()
    for sid, error in want["errors"].items():
        message = page.locator(f".ck-panel-{sid} .ck-panel-message")
        expect(message).to_contain_text(f"Cannot run this encounter: {error}")
        expect(page.locator(f".ck-panel-{sid} .ck-panel-chart")).to_be_hidden()


def test_six_timelines_odds_and_words_follow_the_controls(server, page):
    first = expected(1)
    assert len(first["marks"]) == 6 and first["errors"] == {}  # every system places the encounter's intents
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(".ck-heading")).to_contain_text("Five phases: Erik the Bold's second round")
    expect(page.locator(".ck-panel")).to_have_count(6)
    check_panels(page, first)

    # each panel says what a tick is
    expect(page.locator(".ck-panel-segments .ck-panel-chart svg")).to_contain_text("One tick = one segment")
    expect(page.locator(".ck-panel-short_form .ck-panel-chart svg")).to_contain_text("moments, in order")

    # exact odds arrive from the kernel's worker threads, beside the timelines
    table = page.locator(".ck-odds-table")
    expect(table).to_contain_text(f"{A} first")
    expect(table).not_to_contain_text("computing", timeout=90_000)
    expect(page.locator(".ck-odds-five_phase")).to_contain_text("41.7%")
    expect(page.locator(".ck-odds-phase1")).to_contain_text("%")
    expect(page.locator(".ck-parting")).to_contain_text("the first moment they part")
    expect(page.locator(".ck-panel-segments .ck-panel-odds")).to_contain_text(f"Exact odds: {A} first")
    expect(page.locator(".ck-odds-chart svg g.first_marks path")).to_have_count(6 * 4)  # a bar per outcome
    words = page.locator(".ck-words")
    expect(words).to_contain_text(first["words"][0])
    expect(words).to_contain_text("Over every roll (exact odds)")
    page.screenshot(path=ARTIFACTS / "compare-dashboard.png", full_page=True)

    # a control change redraws the timelines: a new seed rolls every die nobody entered
    second = expected(2)
    assert second["marks"] != first["marks"] or second["words"] != first["words"]
    seed = page.locator(".ck-seed input")
    seed.fill("2")
    seed.press("Enter")
    expect(words).to_contain_text(second["words"][0])
    check_panels(page, second)

    # a die entered at the table: the orcs' ordering d6 of 001 is a 6, so they act first in every step
    entered = {("ordering: orcs", "d6"): 6}
    third = expected(2, entered)
    page.get_by_text("Dice (enter what was rolled at the table)").click()
    die = page.locator(".ck-die-ordering-orcs-d6 input")
    die.fill("6")
    die.press("Enter")
    five = next(s for s in third["words"] if s.startswith("Under Five-phase action rounds"))
    assert "Grishnak acts first" in five
    expect(words).to_contain_text(five)
    check_panels(page, third)

    # bad input: the dice's own message names the roll and the value; the typed text stays
    die.fill("7")
    die.press("Enter")
    expect(page.locator(".ck-dice-message")).to_contain_text(
        "ordering: orcs: d6 rolls 1..6, so 7 cannot have been rolled")
    expect(die).to_have_value("7")
    expect(words).to_contain_text(five)
    page.screenshot(path=ARTIFACTS / "compare-dashboard-dice.png", full_page=True)


def test_every_shipped_example_draws_six_timelines(server, page):
    """Done when #15: the comparison shows six timelines for every shipped example, in chromium."""
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(".ck-heading")).to_contain_text("Five phases: Erik the Bold's second round")
    titles = example_encounters()
    for label, name in example_options():
        page.locator(".ck-example select").select_option(label=label)
        expect(page.locator(".ck-heading")).to_contain_text(titles[name])
        want = expected(int(page.locator(".ck-seed input").input_value()), example=name)
        assert sorted(want["marks"]) == sorted(SYSTEMS), want["errors"]
        check_panels(page, want)  # this example's marks, not the last one's left in place
        for sid in SYSTEMS:
            expect(page.locator(f".ck-panel-{sid} .ck-panel-message")).to_be_hidden()
    page.screenshot(path=ARTIFACTS / "compare-dashboard-last-example.png", full_page=True)


def test_another_encounter_from_the_list(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}?example=fighter-and-mage-vs-orc-archer")
    expect(page.locator(".ck-heading")).to_contain_text("Fighter and mage vs. orc archer")
    expect(page.locator(".ck-panel-phase1 .ck-panel-chart svg g.points_marks path")).not_to_have_count(0)
    expect(page.locator(".ck-panel-five_phase .ck-panel-chart svg.marks")).to_be_visible()
    expect(page.locator(".ck-odds-table")).not_to_contain_text("computing", timeout=90_000)
    expect(page.locator(".ck-odds-phase1")).to_contain_text("%")
    page.screenshot(path=ARTIFACTS / "compare-dashboard-fighter-and-mage.png", full_page=True)


def test_a_link_reopens_the_matchup_and_the_seed(server, browser, page):
    encounter = load_example(EXAMPLE)
    words = matchup_sentences(run_systems(encounter, 2, *file_entries(encounter, 2)), encounter, "Mira", "Snaga")
    page.goto(f"{server}/voila/render/{DASHBOARD}?seed=2&a=Mira&b=Snaga")
    expect(page.locator(".ck-words")).to_contain_text(words[0])
    expect(page.locator(".ck-a select")).to_have_value("Mira")
    expect(page.locator(".ck-b select")).to_have_value("Snaga")
    expect(page.locator(".ck-seed input")).to_have_value("2")
    expect(page.locator(".ck-url-message")).to_be_hidden()

    # a control changed in the page: the link and the address bar follow
    page.locator(".ck-b select").select_option(label="Grishnak")
    link = page.locator(".ck-link-url")
    expect(link).to_have_value(f"{server}/voila/render/{DASHBOARD}?seed=2&a=Mira&b=Grishnak")
    expect(page).to_have_url(link.input_value())
    words = matchup_sentences(run_systems(encounter, 2, *file_entries(encounter, 2)), encounter, "Mira", "Grishnak")
    expect(page.locator(".ck-words")).to_contain_text(words[1])

    # the link opens the same comparison in a new visit; a name the encounter lacks is named, the rest applied
    other = browser.new_context(viewport=VIEWPORT).new_page()
    try:
        other.goto(link.input_value(), timeout=60_000)
        expect(other.locator(".ck-words")).to_contain_text(words[1], timeout=60_000)
        expect(other.locator(".ck-b select")).to_have_value("Grishnak")
        other.goto(f"{server}/voila/render/{DASHBOARD}?seed=2&a=Mira&b=Gandalf", timeout=60_000)
        expect(other.locator(".ck-url-message")).to_contain_text(
            "b: 'Gandalf' is not in \"Five phases: Erik the Bold's second round\": its combatants are Erik the Bold, "
            "Mira, Tam, Grishnak and Snaga")
        expect(other.locator(".ck-seed input")).to_have_value("2")
        expect(other.locator(".ck-a select")).to_have_value("Mira")
        expect(other.locator(".ck-b select")).to_have_value(B)
        expect(other.locator(".ck-link-url")).to_have_value(re.compile(r"seed=2&a=Mira&b=Grishnak$"))
    finally:
        other.context.close()


def test_at_1280_px_every_panel_fills_its_width_no_label_is_cut_and_the_odds_read_whole(server, page, readability):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    check_panels(page, expected(1))
    expect(page.locator(".ck-odds-phase2")).to_contain_text(" s", timeout=120_000)  # its odds: a few ms
    for sid in expected(1)["marks"]:
        expect(page.locator(f".ck-panel-{sid} .ck-panel-chart svg g.labels_marks text").first).to_be_visible()
    page.screenshot(path=ARTIFACTS / "compare-dashboard-1280.png", full_page=True)
    assert readability(page, ".ck-panel-chart") == []
    lines = page.evaluate("""() => Array.from(document.querySelectorAll('.ck-odds-row td:last-child'))
        .filter(td => td.textContent.endsWith(' s')).map(td => {
        const range = document.createRange(); range.selectNodeContents(td);
        return [td.textContent, range.getClientRects().length, td.scrollWidth <= td.clientWidth]; })""")
    assert lines and all(count == 1 and whole for _, count, whole in lines), lines  # "0.02 s" on one line


def test_stepping_moves_every_panel_s_cursor_to_its_own_next_moment(server, page):
    encounter = load_example(EXAMPLE)
    runs = run_systems(encounter, 1, *file_entries(encounter, 1))
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    check_panels(page, expected(1))
    page.locator(".ck-step").click()
    page.locator(".ck-step").click()
    expect(page.locator(".ck-where")).to_contain_text("moment 2 of")
    for sid, run in runs.items():
        cursor = page.locator(f".ck-panel-{sid} .ck-panel-chart svg g.cursor_marks line")
        if run.timeline is None:
            continue
        expect(cursor).to_have_count(1)
        expect(page.locator(f".ck-panel-{sid} .ck-panel-now")).to_contain_text(
            run.timeline.clock.describe(run.timeline.moments[1]))
    page.screenshot(path=ARTIFACTS / "compare-dashboard-stepping.png", full_page=True)


def test_the_seed_s_own_number_typed_at_the_table_is_entered_and_kept(server, page):
    """#45 item 3, in the page: typing into a dice box the very number the seed rolled enters it (the box
    holds only what was typed, the seed's number is its grey placeholder), the link carries it and Roll
    again keeps it."""
    encounter = load_example(EXAMPLE)
    phase1 = run_systems(encounter, 1, *file_entries(encounter, 1))["phase1"].timeline
    seeded = next(r.total for r in phase1.rolls if r.purpose == "initiative: orcs")
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    page.get_by_text("Dice (enter what was rolled at the table)").click()
    die = page.locator(".ck-die-initiative-orcs-d10 input")
    row = page.locator(".ck-die-initiative-orcs-d10").locator("xpath=..")
    expect(die).to_have_value("")
    expect(die).to_have_attribute("placeholder", str(seeded))
    expect(row).to_contain_text("rolled with the seed")
    die.fill(str(seeded))
    die.press("Enter")
    expect(row).to_contain_text("entered;")
    link = page.locator(".ck-link-url")
    expect(link).to_have_value(re.compile(rf"dice=initiative:\+orcs~d10~{seeded}(&|$)"))
    expect(page.locator(".ck-dice")).to_contain_text("Roll again keeps every number typed here")
    page.locator(".ck-reroll").click()
    expect(page.locator(".ck-seed input")).to_have_value("2")
    expect(die).to_have_value(str(seeded))
    expect(row).to_contain_text("entered;")
    expect(link).to_have_value(re.compile(rf"seed=2.*dice=initiative:\+orcs~d10~{seeded}(&|$)"))
