"""Each timing system's own dashboard in a real browser (Debian's chromium, Playwright, voila on 127.0.0.1; the
fixtures are in conftest.py): its round drawn on its clock and readable at 1280 px, a control that redraws it, an
intent edited in the page and saved, no page or console error and no request off this machine. Screenshots go to
``artifacts/``.
"""

import base64
import re
from pathlib import Path

import pytest

from combatkit import Maneuver, find_system, load_example, loads_encounter
from combatkit.encounter_files import dumps_toml
from combatkit.widgets.charts.timeline import timeline_frame
from combatkit.widgets.views.dice_entry import TableRoller, file_entries
from combatkit.widgets.views.encounter_picker import example_options
from combatkit.widgets.views.system_timeline import SystemTimeline

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: one page at a time, and the machine's two cores are shared
VIEWPORT = {"width": 1280, "height": 2000}
EXAMPLES = {"phase2": "phase2-tenth-level-caster", "segments": "segments-fighters-vs-giant-and-orcs",
            "five_phase": "five-phase-erik-the-bold", "short_form": "short-form-spear-web-and-ready-bow",
            "strike_speed": "strike-speed-ogre-and-goblin"}
"""Each dashboard's parameters cell opens the shipped example written for its system."""
OTHERS = {"phase2": "ct9-spell-vs-sword", "segments": "ct9-spell-vs-sword", "five_phase": "orc-closes-on-longbowman",
          "short_form": "ct9-spell-vs-sword", "strike_speed": "fighter-and-mage-vs-orc-archer"}
"""Another example to pick from the list: one the system runs, or (five-phase) one it names a rule against."""


def points(system: str, example: str) -> int:
    encounter = load_example(example)
    by_dice, left = file_entries(encounter)
    own = left if encounter.system == system else {}
    timeline = find_system(system).schedule(encounter, TableRoller(seed=1, entered=own, by_dice=by_dice))
    return int((timeline_frame(timeline)["mark"] == "point").sum())


@pytest.mark.parametrize("system", list(EXAMPLES))
def test_system_dashboard_draws_its_round_readably_at_1280_px_and_redraws(server, page, readability, system):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server}/voila/render/{system}_timeline.ipynb")
    expect(page.locator(".ck-heading")).to_contain_text(load_example(EXAMPLES[system]).title)
    marks = page.locator(".ck-chart svg g.points_marks path")
    expect(marks).to_have_count(points(system, EXAMPLES[system]))
    page.screenshot(path=ARTIFACTS / f"{system}-dashboard-1280.png")
    assert readability(page, ".ck-chart") == []  # each chart fills its width, no label is cut
    if system == "phase2":  # Grulk wins cycle 2: his lane does not say "loser", his marks say which
        expect(page.locator(".ck-chart svg.marks")).to_contain_text("Grulk (ogre)")
        expect(page.locator(".ck-chart svg.marks")).not_to_contain_text("Grulk (ogre, loser)")
        expect(page.locator(".ck-chart svg g.labels_marks")).to_contain_text("club -> Sir Hadrek · winner")
    expect(page.locator(".ck-chart svg.marks")).to_contain_text(find_system(system).clock.unit.split(" (")[0])
    expect(page.locator(".ck-why")).to_contain_text("Why, step by step")
    page.screenshot(path=ARTIFACTS / f"{system}-dashboard.png", full_page=True)

    # another example from the list: drawn, or (when the system cannot run it) the rule named, the round kept
    other = OTHERS[system]
    label = next(label for label, name in example_options(system) if name == other)
    page.locator(".ck-example select").select_option(label=label)
    expect(page.locator(".ck-heading")).to_contain_text(load_example(other).title)
    viewer = SystemTimeline(system, other)
    if viewer.error:
        expect(page.locator(".ck-message")).to_contain_text(viewer.error)
        expect(marks).to_have_count(points(system, EXAMPLES[system]))
    else:
        expect(page.locator(".ck-message")).to_be_hidden()
        expect(marks).to_have_count(points(system, other))
    page.screenshot(path=ARTIFACTS / f"{system}-dashboard-{other}.png", full_page=True)


def test_a_link_reopens_the_round_with_its_entered_die(server, browser, page):
    dashboard = f"{server}/voila/render/segments_timeline.ipynb"
    page.goto(f"{dashboard}?seed=3&dice=segment:+A~d10~9")  # the example's own d10s, but A's is a 9
    expect(page.locator(".ck-heading")).to_contain_text(load_example(EXAMPLES["segments"]).title)
    expect(page.locator(".ck-url-message")).to_be_hidden()
    page.get_by_text("Dice (enter what was rolled at the table)").click()
    expect(page.locator(".ck-die-segment-a-d10 input")).to_have_value("9")
    viewer = SystemTimeline("segments")
    viewer.dice.enter({("segment: A", "d10"): 9})
    blow = next(line for line in viewer.timeline.why() if " A long sword" in line)
    expect(page.locator(".ck-why")).to_contain_text(blow)

    # a control changed in the page: the link and the address bar follow
    page.get_by_text("Optional rules of").click()
    page.locator(".ck-option-speed-bands input").check()
    link = page.locator(".ck-link-url")
    expect(link).to_have_value(f"{dashboard}?seed=3&speed_bands=1&dice=segment:+A~d10~9")
    expect(page).to_have_url(link.input_value())
    expect(page.locator(".ck-link-caveat")).to_be_hidden()
    viewer.options["speed_bands"].value = True
    last = viewer.timeline.why()[-1]
    expect(page.locator(".ck-why")).to_contain_text(last)
    why = page.locator(".ck-why").inner_text()

    # the link opens the same round in a new visit
    other = browser.new_context(viewport=VIEWPORT).new_page()
    try:
        other.goto(link.input_value(), timeout=60_000)
        expect(other.locator(".ck-why")).to_contain_text(last, timeout=60_000)
        expect(other.locator(".ck-option-speed-bands input")).to_be_checked()
        assert other.locator(".ck-why").inner_text() == why
    finally:
        other.context.close()

    # an encounter pasted in goes into the link in place of the example (#50)
    pasted = load_example("ct9-spell-vs-sword")
    page.get_by_text("Paste an encounter file").click()
    page.locator(".ck-paste textarea").fill(dumps_toml(pasted))
    page.locator(".ck-paste-load").click()
    expect(page.locator(".ck-heading")).to_contain_text(pasted.title)
    expect(link).to_have_value(re.compile(re.escape(f"{dashboard}?enc=")))
    expect(page.locator(".ck-link-caveat")).to_be_hidden()
    page.screenshot(path=ARTIFACTS / "segments-dashboard-link-pasted.png", full_page=True)


def test_an_intent_edited_in_the_page_redraws_the_round_and_saves(server, page):
    """The Segment of Action's page: Giant X also swings at C, in the same step as its blow at A (the
    Segment of Action's own refinement; 003 §II: one d10 for each opponent), then a move of "ten" feet is
    refused with the entry kept; the save link holds the edit."""
    expected = SystemTimeline("segments")
    expected.editor.pick("X")
    second = expected.editor.rows[1]
    second.do.value = "attack"
    second.target.value = dict(second.target.options)["C"]
    second.placed.value = "1"
    expected.editor.rows[0].placed.value = "1"
    blow = next(line for line in expected.timeline.why() if "X club -> C" in line)
    drawn = int((timeline_frame(expected.timeline)["mark"] == "point").sum())

    page.goto(f"{server}/voila/render/segments_timeline.ipynb")
    marks = page.locator(".ck-chart svg g.points_marks path")
    expect(marks).to_have_count(points("segments", EXAMPLES["segments"]))
    expect(page.locator(".ck-editor .ck-intent-1 .ck-do select")).to_have_value("attack")
    expect(page.locator(".ck-editor")).to_contain_text("What this figure means to do")
    expect(page.locator(".ck-editor .ck-intent-1 .ck-placement")).to_contain_text("A strikes X: an attack in step 1")
    page.locator(".ck-editor .ck-combatant select").select_option(label="X")
    expect(page.locator(".ck-editor .ck-name input")).to_have_value("X")
    page.locator(".ck-editor .ck-intent-1 .ck-placed select").select_option(label="step 1")
    page.locator(".ck-editor .ck-intent-2 .ck-do select").select_option("attack")
    page.locator(".ck-editor .ck-intent-2 .ck-target select").select_option(label="C")
    page.locator(".ck-editor .ck-intent-2 .ck-placed select").select_option(label="step 1")
    expect(marks).to_have_count(drawn)
    expect(page.locator(".ck-why")).to_contain_text(blow)
    expect(page.locator(".ck-message")).to_be_hidden()
    expect(page.locator(".ck-link-url")).to_have_value(re.compile(r"\?enc="))

    href = page.locator(".ck-download a").get_attribute("href")
    saved = loads_encounter(base64.b64decode(href.split("base64,", 1)[1]).decode("utf-8"))
    assert saved.system == "segments"
    assert [(i.kind.value, i.target) for i in saved.intents if i.actor == "X"] == [("attack", "A"), ("attack", "C")]
    assert [(r.step, r.phases) for r in saved.refinements if r.actor == "X"] == [(1, (1,)), (2, (1,))]
    page.screenshot(path=ARTIFACTS / "segments-dashboard-edited.png", full_page=True)

    # an entry the form cannot read: named, not applied, kept; the round stays
    page.locator(".ck-editor .ck-intent-3 .ck-do select").select_option("move")
    feet = page.locator(".ck-editor .ck-intent-3 .ck-feet input")
    feet.fill("ten")
    feet.press("Enter")
    expect(page.locator(".ck-message")).to_contain_text("X, intent 3: 'ten' is not a number")
    expect(feet).to_have_value("ten")
    page.screenshot(path=ARTIFACTS / "segments-dashboard-edited-bad-entry.png", full_page=True)

    # fixed, and meant as a flight: the maneuver goes into the saved encounter
    feet.fill("10")
    feet.press("Enter")
    expect(page.locator(".ck-message")).to_be_hidden()
    maneuver = page.locator(".ck-editor .ck-intent-3 .ck-maneuver select")
    expect(maneuver.locator("option")).to_have_text(["no maneuver", "charge", "withdraw", "flee"])
    maneuver.select_option("flee")

    def x_third() -> list[tuple]:
        link = page.locator(".ck-download a").get_attribute("href")
        saved = loads_encounter(base64.b64decode(link.split("base64,", 1)[1]).decode("utf-8"))
        return [(i.kind.value, i.feet, i.maneuver) for i in saved.intents if i.actor == "X"][2:]

    for _ in range(100):  # the link is rewritten once the kernel has the edit
        if x_third() == [("move", 10, Maneuver.FLEE)]:
            break
        page.wait_for_timeout(100)
    assert x_third() == [("move", 10, Maneuver.FLEE)]
    page.screenshot(path=ARTIFACTS / "segments-dashboard-maneuver.png", full_page=True)

