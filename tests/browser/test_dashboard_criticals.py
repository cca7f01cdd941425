"""The critical-table explorer dashboard in a real browser: Debian's chromium, driven by Playwright,
against voila on 127.0.0.1 started by :func:`combatkit.widgets.app.serve.serving`.

Fails on any page error, any console error and any request that leaves 127.0.0.1 (the
dashboard must work offline). Screenshots go to ``artifacts/``.
"""

import base64
import re
from dataclasses import replace
from pathlib import Path

import pytest

from combatkit.criticals import attack_odds
from combatkit.widgets.views.criticals import DEFAULT_ATTACKER, DEFAULT_DEFENDER
from combatkit.widgets.charts.criticals import odds_frame

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: few pages, and the machine's two cores are shared
VIEWPORT = {"width": 1280, "height": 2400}  # the whole explorer in view
DASHBOARD = "criticals.ipynb"


def chart(page, view: str, layer: str, element: str = "path"):
    """The SVG elements of one named layer of one of the explorer's charts (see ``criticals_charts``)."""
    return page.locator(f".ck-{view} svg.marks g.{layer}_marks {element}")


def bars(rules: str) -> int:
    """How many bars the outcome chart draws for the default attack under ``rules``: the engine says."""
    odds = attack_odds(DEFAULT_ATTACKER, DEFAULT_DEFENDER, rules)
    return int(odds_frame(odds)["measure"].isin(["outcome", "critical hit row", "critical miss row"]).sum())


def penalties(armor_class: int) -> int:
    """How many different SF penalties (000-II) the default attack can cost against ``armor_class``."""
    return len(attack_odds(DEFAULT_ATTACKER, replace(DEFAULT_DEFENDER, armor_class=armor_class), "000-II").sf_penalty)


def enter(page, selector: str, value: str) -> None:
    box = page.locator(f"{selector} input")
    box.fill(value)
    box.press("Enter")


def test_dashboard_renders_redraws_rolls_and_refuses_bad_input(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator("h1").first).to_contain_text("Critical hits and misses", timeout=60_000)

    # 000 §4 Tables I: every outcome and every row of both d10 tables, exact and in percent
    expect(page.locator(".ck-summary")).to_contain_text("Aldric needs 7 on d20 to hit orc")
    expect(chart(page, "outcome-chart", "bars")).to_have_count(bars("000-I"))
    expect(chart(page, "outcome-chart", "labels", "text").filter(has_text="1/200 · 0.50%")).to_have_count(4)
    expect(chart(page, "damage-chart", "expected_label", "text")).to_have_text("expected 7.31 (11689/1600)")
    expect(page.locator(".ck-odds-table")).to_contain_text("d10 9: prone")
    expect(page.locator(".ck-sf-chart")).to_be_hidden()
    page.screenshot(path=ARTIFACTS / "criticals-dashboard.png", full_page=True)

    # every bar explains itself
    chart(page, "outcome-chart", "bars").first.hover()
    expect(page.locator("#vg-tooltip-element")).to_contain_text("1/20")

    # a control change redraws the charts: the Severity Rules have no tables, and slow the next strike
    page.locator(".ck-rule-set button", has_text="000 II").click()
    expect(chart(page, "outcome-chart", "bars")).to_have_count(bars("000-II"))
    expect(chart(page, "outcome-chart", "labels", "text").filter(has_text="3/5 · 60.00%")).to_have_count(1)
    expect(page.locator(".ck-summary")).to_contain_text("Damage on a hit: d8, +3 STR 18/91-99.")
    enter(page, ".ck-armor-class", "-2")  # needs 15: rolls 2-9 are severe misses
    expect(page.locator(".ck-sf-chart")).to_be_visible()
    assert penalties(-2) == 7  # +0, +1 ... +5 (the long sword's base SF), and the natural 1's uncapped +9
    expect(chart(page, "sf-chart", "bars")).to_have_count(penalties(-2))
    expect(chart(page, "damage-chart", "expected_label", "text")).to_contain_text("expected")
    page.screenshot(path=ARTIFACTS / "criticals-dashboard-severity.png", full_page=True)

    # bad input: the engine's message, naming the rule and the value; the charts and the typed value stay
    enter(page, ".ck-thac0", "0")
    expect(page.locator(".ck-message")).to_contain_text("Aldric: THAC0 must be a whole number 1..20, got 0")
    expect(page.locator(".ck-message")).to_contain_text("(rule PH 2e THAC0 tables)")
    expect(page.locator(".ck-thac0 input")).to_have_value("0")
    expect(chart(page, "sf-chart", "bars")).to_have_count(penalties(-2))
    page.screenshot(path=ARTIFACTS / "criticals-dashboard-bad-input.png", full_page=True)

    # the referee's natural 20, explained step by step with the rule for each step
    enter(page, ".ck-thac0", "15")
    expect(page.locator(".ck-message")).to_be_hidden()
    enter(page, ".ck-d20", "20")
    expect(page.locator(".ck-explanation")).to_contain_text("d20 = 20 against 15: critical hit")
    expect(page.locator(".ck-explanation")).to_contain_text("[000 §4 Severity Rules II: Critical Hit]")
    page.screenshot(path=ARTIFACTS / "criticals-dashboard-roll.png", full_page=True)

    # the odds download as CSV from a data: link, built in the page (no server round trip, no network)
    link = page.locator(".ck-download a").first
    expect(link).to_have_attribute("download", "critical-odds-000-II-aldric-vs-orc.csv")
    href = link.get_attribute("href")
    assert re.match(r"data:text/csv;charset=utf-8;base64,", href)
    csv = base64.b64decode(href.split(",", 1)[1]).decode("utf-8").splitlines()
    assert csv[0] == "measure,value,label,exact,probability,percent"
    assert "outcome,critical hit,critical hit,1/20,0.05,5.00%" in csv


def test_query_string_opens_another_rule_set(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}?rules=004")
    expect(page.locator(".ck-heading")).to_contain_text("Stances, critical hits and misses (004)", timeout=60_000)
    expect(chart(page, "outcome-chart", "bars")).to_have_count(bars("004"))
