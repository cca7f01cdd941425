"""A round as a document (#50), opened from disk in chromium with the network off, and printed.

The file each view's "Download this round" link gives (:mod:`combatkit.widgets.charts.document`) is written to a
folder and opened as a ``file://`` page, every request but ``file://`` aborted and counted as a problem: its charts
must draw from the JavaScript inside it, with no page error and no console error. Printed to PDF on A4 and on
Letter, a round is one page; the comparison's six rounds are two, their charts on the first. No dashboard server is
started: this module's ``server`` replaces conftest's.
"""

import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.views.timeline import TimelineExplorer
from tests.browser.conftest import ARTIFACTS, CHROMIUM

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
"""A page object of a PDF (not the ``/Pages`` tree)."""


@pytest.fixture(scope="module")
def server():
    """No dashboard server: the pages opened here are files."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    yield None


@contextmanager
def offline(browser):
    """A fresh page that can fetch nothing but files, and the list of what went wrong on it."""
    context = browser.new_context(viewport={"width": 1000, "height": 1300})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))

    def files_only(route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            problems.append(f"request off this disk: {route.request.url}")
            route.abort()

    page.route("**/*", files_only)
    try:
        yield page, problems
    finally:
        context.close()


@pytest.mark.parametrize("make, charts, pages", [
    (TimelineExplorer, 1, 1),
    (lambda: SystemTimeline("segments"), 1, 1),
    (lambda: SystemTimeline("strike_speed"), 1, 1),
    (SystemComparison, 6, 2),
], ids=["phase1", "segments", "strike_speed", "comparison"])
def test_the_round_opens_from_disk_offline_draws_its_charts_and_prints(browser, tmp_path, make, charts, pages):
    view = make()
    name, text = view.round_download.file()
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with offline(browser) as (page, problems):
        page.goto(path.as_uri())
        expect(page.locator("html[data-ck-ready]")).to_have_count(1)
        drawn = page.locator(".ck-doc-chart svg.marks")
        expect(drawn).to_have_count(charts)
        for n in range(charts):
            expect(drawn.nth(n).locator("g.labels_marks text").first).to_be_visible()
        page.screenshot(path=ARTIFACTS / f"document-{path.stem}.png", full_page=True)
        for paper in ("A4", "Letter"):
            pdf = page.pdf(format=paper)
            (ARTIFACTS / f"document-{path.stem}-{paper}.pdf").write_bytes(pdf)
            assert len(PAGE.findall(pdf)) == pages, paper
        paged = "ck-doc-paged" in (page.locator(".ck-doc").get_attribute("class") or "")
        assert paged == (pages > 1)  # charts on the first page, the explanation on the next
    assert problems == []


def test_the_explorer_s_chart_in_the_file_is_the_one_the_dashboard_draws(browser, tmp_path):
    explorer = TimelineExplorer()
    name, text = explorer.round_download.file()
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with offline(browser) as (page, problems):
        page.goto(path.as_uri())
        labels = page.locator(".ck-doc-chart svg g.labels_marks text")
        expect(labels.filter(has_text="casts web")).to_have_count(1)  # the label that fits the page's width
        expect(page.locator(".ck-doc-chart svg g.points_marks path")).to_have_count(
            sum(1 for row in explorer.chart.spec["datasets"]["actions"] if row["mark"] == "point"))
        expect(page.locator(".ck-doc-text")).to_contain_text("Mira: DEX 17 gives Reaction Adjustment +2")
    assert problems == []
