"""The mana dashboard in a real browser: Debian's chromium, driven by Playwright, against voila on
127.0.0.1 started by :func:`combatkit.widgets.app.serve.serving`.

Fails on any page error, any console error and any request that leaves 127.0.0.1 (the
dashboard must work offline). Screenshots go to ``artifacts/``.
"""

import re
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: few pages, and the machine's two cores are shared
VIEWPORT = {"width": 1280, "height": 1400}
DASHBOARD = "mana.ipynb"
POOL, PLANNER, RECOVERY = ".ck-mana-pool", ".ck-mana-planner", ".ck-mana-recovery"


def chart(page, view: str, layer: str, element: str = "path"):
    """The SVG elements of one named layer of a calculator's chart (see ``mana_charts``)."""
    return page.locator(f"{view} .ck-chart svg.marks g.{layer}_marks {element}")


def enter(page, selector: str, value: str) -> None:
    box = page.locator(f"{selector} input")
    box.fill(value)
    box.press("Enter")


def test_mana_dashboard_renders_redraws_and_refuses_bad_input(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator("h1").first).to_contain_text("Mana calculators for casters", timeout=60_000)

    # the pool tab: the seed's fifth-level priest, and the base-mana chart with level 5 marked
    expect(page.locator(f"{POOL} .ck-summary")).to_contain_text("12 of 12 spell levels available")
    expect(chart(page, POOL, "points")).to_have_count(40)  # 20 levels x printed and stated rule
    expect(chart(page, POOL, "selected_label", "text")).to_have_text("5")
    page.screenshot(path=ARTIFACTS / "mana-dashboard.png", full_page=True)

    # a control change redraws the chart: a 12th-level ranger, whose printed cell differs from the rule
    page.locator(f"{POOL} .ck-class select").select_option("ranger")
    enter(page, f"{POOL} .ck-level", "12")
    expect(chart(page, POOL, "selected_label", "text")).to_have_text("12")
    expect(page.locator(f"{POOL} .ck-chart svg.marks")).to_contain_text("Base mana by level: ranger")
    expect(page.locator(f"{POOL} .ck-comparison")).to_contain_text("The printed table and the stated rule differ")

    # bad input: the engine's message, naming the rule and the value; the chart and the typed value stay
    enter(page, f"{POOL} .ck-level", "0")
    expect(page.locator(f"{POOL} .ck-message")).to_contain_text("caster level must be 1..20")
    expect(page.locator(f"{POOL} .ck-message")).to_contain_text("got 0 (000 §5 Mana System I)")
    expect(page.locator(f"{POOL} .ck-level input")).to_have_value("0")
    expect(chart(page, POOL, "selected_label", "text")).to_have_text("12")
    page.screenshot(path=ARTIFACTS / "mana-dashboard-bad-input.png", full_page=True)

    # the day planner, for the same caster (the tabs share one): back to the seed's priest first
    page.locator(f"{POOL} .ck-class select").select_option("priest")
    enter(page, f"{POOL} .ck-level", "5")
    expect(page.locator(f"{POOL} .ck-summary")).to_contain_text("5th-level priest")
    # rests and study shaded, the blocked recovery marked and explained
    page.get_by_role("tab", name="Day planner").click()
    expect(chart(page, PLANNER, "blocked", "line")).to_have_count(1)  # vega draws a rule as a <line>
    expect(chart(page, PLANNER, "shading")).to_have_count(6)  # asleep, awake, asleep, three study blocks
    expect(page.locator(f"{PLANNER} .ck-notes")).to_contain_text("after a second break")
    page.screenshot(path=ARTIFACTS / "mana-dashboard-day.png", full_page=True)

    # how long until full: the twentieth-level mage's 27 hours
    page.get_by_role("tab", name="How long until full?").click()
    page.locator(f"{RECOVERY} .ck-class select").select_option("wizard")
    enter(page, f"{RECOVERY} .ck-level", "20")
    expect(page.locator(f"{RECOVERY} .ck-answer")).to_contain_text("27 hours of study (1620 minutes)")
    page.screenshot(path=ARTIFACTS / "mana-dashboard-recovery.png", full_page=True)


def test_a_fraction_typed_as_a_level_is_named_and_kept_and_every_tab_shares_the_caster(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(f"{POOL} .ck-summary")).to_contain_text("12 of 12 spell levels available")
    enter(page, f"{POOL} .ck-level", "2.5")
    expect(page.locator(f"{POOL} .ck-message")).to_contain_text("caster level must be a whole number, got 2.5")
    expect(page.locator(f"{POOL} .ck-level input")).to_have_value("2.5")  # not 25
    expect(page.locator(".ck-link-url")).not_to_have_value(re.compile("level="))  # the link keeps what applied
    page.locator(f"{POOL} .ck-class select").select_option("wizard")
    enter(page, f"{POOL} .ck-level", "1")
    expect(page.locator(f"{POOL} .ck-summary")).to_contain_text("1st-level wizard")
    page.get_by_role("tab", name="Day planner").click()
    expect(page.locator(f"{PLANNER} .ck-summary")).to_contain_text("1st-level wizard")
    expect(page.locator(f"{PLANNER} .ck-set-aside")).to_contain_text("a 1st-level wizard may not cast a 3rd-level")
    page.get_by_role("tab", name="How long until full?").click()
    expect(page.locator(f"{RECOVERY} .ck-level input")).to_have_value("1")
    expect(page.locator(f"{RECOVERY} .ck-class select")).to_have_value(re.compile("wizard|WIZARD|[0-9]+"))
    expect(page.locator(".ck-link-url")).to_have_value(re.compile("class=wizard&level=1"))
    page.screenshot(path=ARTIFACTS / "mana-dashboard-one-caster.png", full_page=True)
