"""The Phase System I dashboard in a real browser: Debian's chromium, driven by Playwright,
against voila on 127.0.0.1 started by ``python -m combatkit.widgets.app.serve``.

Fails on any page error, any console error and any request that leaves 127.0.0.1 (the
dashboard must work offline). Screenshots go to ``artifacts/``; with
``COMBATKIT_UPDATE_SCREENSHOT=1`` the first one also refreshes ``docs/phase1-dashboard.png``.
"""

import contextlib
import os
import re
import shutil
from pathlib import Path

import pytest

from combatkit import Roller, find_system, load_example
from combatkit.widgets.charts.timeline import timeline_frame
from combatkit.widgets.app.serve import MAIN_DASHBOARD

PREHEAT = (MAIN_DASHBOARD,)  # one kernel waits for the page under test, as a shared link gets it

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHART = ".ck-chart svg"


def marks(page, layer: str):
    """The SVG paths of one named chart layer (see ``timeline_chart``)."""
    return page.locator(f"{CHART} g.{layer}_marks path")


def expected_marks(example: str) -> dict[str, int]:
    encounter = load_example(example)
    frame = timeline_frame(find_system("phase1").schedule(encounter, Roller(entered=encounter.rolls)))
    return {"bars": int((frame["mark"] == "bar").sum()), "points": int((frame["mark"] == "point").sum()),
            "ruins": int((frame["status"] == "ruined").sum())}


def test_dashboard_renders_redraws_and_refuses_bad_input(server, page):
    expected = expected_marks("fighter-and-mage-vs-orc-archer")
    page.goto(f"{server}/voila/render/{MAIN_DASHBOARD}")
    expect(marks(page, "points")).to_have_count(expected["points"])
    expect(marks(page, "bars")).to_have_count(expected["bars"])
    expect(page.locator(f"{CHART} g.labels_marks text").filter(has_text="casts web (CT 2) -> Ugluk")).to_have_count(1)
    expect(page.locator(".ck-why")).to_contain_text("Mira: DEX 17 gives Reaction Adjustment +2")
    screenshot = ARTIFACTS / "phase1-dashboard.png"
    page.screenshot(path=screenshot, full_page=True)
    if os.environ.get("COMBATKIT_UPDATE_SCREENSHOT") == "1":
        (ROOT / "docs").mkdir(exist_ok=True)
        shutil.copyfile(screenshot, ROOT / "docs" / "phase1-dashboard.png")

    # every mark explains itself: hover Ugluk's first arrow
    marks(page, "points").first.hover()
    expect(page.locator("#vg-tooltip-element")).to_contain_text("000 Table 1")

    # a control change redraws the chart: Brienne (shown first) spends phase 2 on something else
    page.locator(".ck-intent-2 .ck-do select").select_option("action")
    expect(marks(page, "points")).to_have_count(expected["points"] - 1)
    expect(marks(page, "bars")).to_have_count(expected["bars"] + 1)
    expect(page.locator(".ck-why")).to_contain_text("Brienne spends phase 2")

    # bad input: a visible message naming the field and value, the chart and the typed value stay
    dex = page.locator(".ck-dex input")
    dex.fill("40")
    dex.press("Enter")
    expect(page.locator(".ck-message")).to_contain_text("combatants[0].dex (Brienne): DEX is 1..25 (PH Table 2), got 40")
    expect(marks(page, "points")).to_have_count(expected["points"] - 1)
    expect(dex).to_have_value("40")
    page.screenshot(path=ARTIFACTS / "phase1-dashboard-bad-input.png", full_page=True)


def test_query_string_opens_another_example(server, page):
    expected = expected_marks("ct9-spell-vs-sword")
    page.goto(f"{server}/voila/render/{MAIN_DASHBOARD}?example=ct9-spell-vs-sword")
    expect(page.locator(".ck-heading")).to_contain_text("A CT 9 spell against a sword")
    expect(marks(page, "ruins")).to_have_count(expected["ruins"])
    expect(page.locator(f"{CHART} g.labels_marks text").filter(has_text="RUINED")).to_have_count(1)
    page.screenshot(path=ARTIFACTS / "phase1-dashboard-ct9.png", full_page=True)


def test_at_1280_px_the_chart_fills_its_width_and_no_label_is_cut(server, browser, readability):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{server}/voila/render/{MAIN_DASHBOARD}")
        expect(marks(page, "points")).to_have_count(expected_marks("fighter-and-mage-vs-orc-archer")["points"])
        expect(page.locator(f"{CHART} g.labels_marks text").filter(has_text="short bow -> Brienne")).to_have_count(1)
        page.screenshot(path=ARTIFACTS / "phase1-dashboard-1280.png")
        assert readability(page, ".ck-chart") == []
        # the container changes size without the window doing so (as when a chart is drawn before its widget is
        # in the page): the chart follows
        page.evaluate("document.querySelector('.ck-chart').style.width = '760px'")
        expect(page.locator(f"{CHART}.marks")).to_have_attribute("width", re.compile(r"^7[0-2]\d$"))
        assert readability(page, ".ck-chart") == []
    finally:
        page.close()


_CURSOR_MOVED = """([selector, seen]) => {
  const line = document.querySelector(selector);
  const at = line && (line.getAttribute('transform') || line.getAttribute('d'));
  return Boolean(at) && !seen.includes(at);
}"""
"""Whether the chart's cursor stands somewhere it has not stood before (its line's transform or path)."""
_OUTLINED = ("Array.from(document.querySelectorAll(selector))"
             ".filter(p => parseFloat(p.getAttribute('stroke-width')) >= 3).length")
"""How many of the chart's marks are outlined (what is under way at the cursor)."""


def test_stepping_moves_the_cursor_outlines_what_is_under_way_and_says_why(server, page):
    timeline = find_system("phase1").schedule(load_example("fighter-and-mage-vs-orc-archer"))
    page.goto(f"{server}/voila/render/{MAIN_DASHBOARD}")
    cursor = page.locator(f"{CHART} g.cursor_marks line")
    expect(marks(page, "points")).to_have_count(expected_marks("fighter-and-mage-vs-orc-archer")["points"])
    expect(cursor).to_have_count(0)  # the whole round: no cursor
    step = page.locator(".ck-step")
    positions: list[str] = []
    for moment in timeline.moments[:3]:
        step.click()
        expect(page.locator(".ck-where")).to_have_text(timeline.clock.describe(moment))
        expect(cursor).to_have_count(1)
        expect(page.locator(".ck-now")).to_contain_text(timeline.clock.describe(moment))
        # the chart redraws after the words (the line from the step before stands until then): wait for it to move
        page.wait_for_function(_CURSOR_MOVED, arg=[f"{CHART} g.cursor_marks line", positions])
        positions.append(cursor.get_attribute("transform") or cursor.get_attribute("d"))
    assert len(set(positions)) == 3  # the cursor moved each step
    landing = next(s for s in timeline.spans if s.end == timeline.moments[2])
    expect(page.locator(".ck-now")).to_contain_text(timeline.why_line(landing))
    selector = f"{CHART} g.points_marks path, {CHART} g.bars_marks path"
    acting = len(timeline.acting_at(timeline.moments[2]))
    with contextlib.suppress(playwright.TimeoutError):  # the outlines are redrawn with the cursor; the assert says
        page.wait_for_function(f"(selector) => ({_OUTLINED}) === {acting}", arg=selector, timeout=10_000)
    assert page.evaluate(f"(selector) => {_OUTLINED}", selector) == acting
    page.screenshot(path=ARTIFACTS / "phase1-dashboard-stepping.png")

    # an edit redraws with the cursor where it was; stepping on still works (no console error: see conftest)
    page.locator(".ck-init-party input").fill("3")
    page.locator(".ck-init-party input").press("Enter")
    expect(page.locator(".ck-where")).to_have_text(timeline.clock.describe(timeline.moments[2]))
    step.click()
    expect(cursor).to_have_count(1)
    page.locator(".ck-step-back").click()
    expect(cursor).to_have_count(1)


def test_the_open_file_button_reads_open_file_before_and_after_a_file_is_read(server, page):
    from combatkit.encounter_files import dumps_toml

    page.goto(f"{server}/voila/render/{MAIN_DASHBOARD}")
    button = page.locator(".ck-upload button")
    expect(button).to_have_text("Open file")  # no count beside it
    encounter = load_example("ct9-spell-vs-sword")
    page.locator(".ck-upload input[type=file]").set_input_files(
        files=[{"name": "ct9.toml", "mimeType": "application/toml", "buffer": dumps_toml(encounter).encode()}])
    expect(page.locator(".ck-heading")).to_contain_text(encounter.title)
    expect(marks(page, "ruins")).to_have_count(expected_marks("ct9-spell-vs-sword")["ruins"])
    expect(button).to_have_text("Open file")  # not "Open file (0)"
    expect(page.locator(".ck-link-url")).to_have_value(re.compile(r"\?enc=[A-Za-z0-9_-]+&seed="))
