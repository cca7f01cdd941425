"""Every page meets WCAG 2.1 AA, as axe-core sees it: the landing page, every dashboard and every lesson
(its code folded, then shown), in a real browser (fixtures: ``conftest.py``). A test fails on any critical or
serious violation of the WCAG 2.0/2.1 A and AA rules or of axe's best practices.

axe-core comes from the npm registry: ``make axe`` (run by ``make test``) installs the pinned version into
``.axe/``, and each page gets its ``axe.min.js``."""

import re
from pathlib import Path

import pytest

from combatkit.widgets.app.landing import landing
from combatkit.widgets.app.serve import dashboards_dir, lessons_dir

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

POOL_SIZE = 0  # every test opens its own page; no kernels wait idle on the shared cores
AXE = Path(__file__).resolve().parents[2] / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
FAILING = {"critical", "serious"}
LANDING = landing(dashboards_dir(), lessons_dir())

_RUN_AXE = """async (tags) => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));  // the page's own fixes
  const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                                         nodes: v.nodes.map((n) => n.target.join(" ")) }));
}"""

_DRAWN = """() => [...document.querySelectorAll(".vega-embed")].every((e) => e.querySelector("svg.marks"))"""


def violations(page) -> list[str]:
    """What axe-core finds wrong on ``page`` at a critical or serious level, one line each."""
    if not AXE.exists():
        pytest.skip(f"{AXE} is not installed (make axe)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(_RUN_AXE, TAGS)
    return [f"{v['impact']} {v['id']} ({v['help']}): {len(v['nodes'])} nodes, e.g. {v['nodes'][:3]}"
            for v in found if v["impact"] in FAILING]


def test_the_landing_page_meets_wcag_aa(server, page):
    page.goto(f"{server}/")
    expect(page.locator(".ck-card").first).to_be_visible()
    assert violations(page) == []


@pytest.mark.parametrize("dashboard", LANDING.dashboards, ids=lambda d: d.path.removesuffix(".ipynb"))
def test_each_dashboard_meets_wcag_aa(server, page, dashboard):
    page.goto(f"{server}/voila/render/{dashboard.path}")
    expect(page.locator(".ck-copy-link")).to_be_visible()  # every dashboard is shareable: its view is drawn
    page.wait_for_function(_DRAWN)
    assert violations(page) == []


@pytest.mark.parametrize("lesson", LANDING.lessons, ids=lambda d: d.path.rsplit("/", 1)[-1].removesuffix(".ipynb"))
def test_each_lesson_meets_wcag_aa_with_its_code_folded_and_shown(server, page, lesson):
    page.goto(f"{server}/voila/render/{lesson.path}")
    expect(page.locator(".ck-show-code")).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('.jupyter-widgets').length > 0")
    page.wait_for_function(_DRAWN)
    expect(page.locator(".jp-InputArea-editor").first).to_be_hidden()  # the code folds away until asked for
    folded = violations(page)
    page.locator(".ck-show-code").click()
    expect(page.locator(".jp-InputArea-editor").first).to_be_visible()
    assert folded + violations(page) == []


def test_a_chart_is_a_named_image_with_its_data_as_a_table_and_the_step_through_is_read_out(server, page):
    page.goto(f"{server}/voila/render/phase1_timeline.ipynb")
    chart = page.locator(".ck-chart svg.marks")
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_attribute("aria-label", re.compile(r"a chart of \d+ marks; the table after it lists them"))
    why = page.locator(".ck-why")
    assert chart.get_attribute("aria-describedby") == why.get_attribute("id")  # the list that says why
    table = page.locator(".ck-chart-data").first
    expect(table.locator("caption")).to_contain_text("The data of the chart")
    assert table.locator("tbody tr").count() > 0 and table.locator("thead th").count() > 1
    for live in (".ck-now", ".ck-where"):  # the step-through's text is read out as it changes
        expect(page.locator(live)).to_have_attribute("aria-live", "polite")
    page.locator("button.ck-step").click()
    expect(page.locator(".ck-now")).not_to_be_empty()
