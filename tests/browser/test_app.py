"""The dashboards as one app, in a real browser: the landing page, links that reproduce a view,
links that cannot be read, and exports (fixtures: ``conftest.py``; the lessons: ``test_learn.py``)."""

import re
from urllib.parse import parse_qs, urlparse

import pytest

from combatkit import load_example
from combatkit.widgets.app.landing import landing
from combatkit.widgets.app.serve import MAIN_DASHBOARD, dashboards_dir, lessons_dir

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

POOL_SIZE = 0  # every test opens its own pages; no kernels wait idle on the shared cores
PHASE1 = f"voila/render/{MAIN_DASHBOARD}"
CHART = ".ck-chart svg.marks"


def test_landing_page_lists_every_dashboard_with_picture_and_line(server, page):
    expected = landing(dashboards_dir(), lessons_dir())
    page.goto(f"{server}/")
    expect(page.locator(".ck-section > h2")).to_have_text(["Dashboards", "Learn"])
    cards = page.locator(".ck-dashboards .ck-card")
    expect(cards).to_have_count(len(expected.dashboards))
    for n, dashboard in enumerate(expected.dashboards):
        card = cards.nth(n)
        expect(card.locator("h3")).to_have_text(dashboard.title)
        expect(card.locator("p")).to_have_text(dashboard.summary)
        assert card.locator("a.ck-open").get_attribute("href") == f"/voila/render/{dashboard.path}"
        lesson = expected.card(dashboard.companion) if dashboard.companion else None
        expect(card.locator("a.ck-companion")).to_have_count(1 if lesson else 0)
        if lesson:
            expect(card.locator("a.ck-companion")).to_have_text(f"Lesson: {lesson.title}")
            assert card.locator("a.ck-companion").get_attribute("href") == f"/voila/render/{lesson.path}"
        image = card.locator("img")
        image.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    page.screenshot(path="artifacts/landing.png", full_page=True)

    page.locator(".ck-dashboards a.ck-open[href$='/phase1_timeline.ipynb']").click()
    expect(page.locator(CHART)).to_be_visible()
    expect(page.locator("h1").first).to_contain_text("Who acts when: a Phase System I round")


MISMATCH = re.compile(r"(Unsatisfied|No satisfying) version")
"""What webpack logs when a widget extension was built against another JupyterLab than the page shares."""


def test_the_widget_extensions_agree_with_the_page_on_jupyterlab_versions(server, page):
    # voila's page shares JupyterLab's packages with every lab extension it loads (its widget manager,
    # jupyterlab_widgets' controls, anywidget): one built against a later JupyterLab than the page's
    # logs a warning for each package it shares (pyproject.toml pins a set that agrees)
    warnings = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    for path in (PHASE1, "voila/render/learn/phase1_teaching.ipynb"):  # a dashboard, a lesson
        page.goto(f"{server}/{path}")
        expect(page.locator("svg.marks").first).to_be_visible()
    assert [text for text in warnings if MISMATCH.search(text)] == []


def test_a_copied_link_reopens_exactly_that_round(server, browser, page):
    page.goto(f"{server}/{PHASE1}?example=ct9-spell-vs-sword&seed=7&init=2,9&tie_track=loser")
    expect(page.locator(".ck-heading")).to_contain_text(load_example("ct9-spell-vs-sword").title)
    boxes = page.locator(".ck-init input")
    expect(boxes).to_have_count(2)
    expect(boxes.nth(0)).to_have_value("2")
    expect(boxes.nth(1)).to_have_value("9")
    expect(page.locator(".ck-seed input")).to_have_value("7")
    expect(page.locator(".ck-url-message")).to_be_hidden()

    # change the round in the page: the link (and the address bar) follow
    boxes.nth(1).fill("1")
    boxes.nth(1).press("Enter")
    link = page.locator(".ck-link-url")
    expect(link).to_have_value(f"{server}/{PHASE1}?example=ct9-spell-vs-sword&seed=7&init=2,1&tie_track=loser")
    expect(page).to_have_url(link.input_value())
    why = page.locator(".ck-why").inner_text()
    page.locator(".ck-copy-link").click()
    expect(page.locator(".ck-link-note")).not_to_be_empty()

    # the link opens the same round in a new visit
    other = browser.new_context(viewport={"width": 1280, "height": 1500}).new_page()
    try:
        other.goto(link.input_value(), timeout=60_000)
        expect(other.locator(".ck-init input").nth(1)).to_have_value("1", timeout=60_000)
        expect(other.locator(".ck-why")).to_contain_text("mage 2, raiders 1")
        assert other.locator(".ck-why").inner_text() == why
        assert parse_qs(urlparse(other.url).query) == parse_qs(urlparse(link.input_value()).query)
    finally:
        other.context.close()


@pytest.mark.parametrize("query, problem", [
    ("example=../../etc/passwd&seed=__import__('os').system('id')", "seed: must be a whole number"),
    ("class=<script>alert(1)</script>&level=99", 'class: must be one of priest, wizard, ranger, paladin, got "<script>'),
])
def test_a_link_that_cannot_be_read_says_so_and_shows_the_default_view(server, page, query, problem):
    notebook = MAIN_DASHBOARD if query.startswith("example") else "mana.ipynb"
    page.goto(f"{server}/voila/render/{notebook}?{query}")
    message = page.locator(".ck-url-message")
    expect(message).to_contain_text("This link's settings could not be used, so the dashboard shows its default view")
    expect(message).to_contain_text(problem)
    if notebook == MAIN_DASHBOARD:
        expect(page.locator(".ck-heading")).to_contain_text(load_example("fighter-and-mage-vs-orc-archer").title)
    else:
        expect(page.locator(".ck-mana-pool .ck-level input")).to_have_value("5")
    expect(page.locator(CHART).first).to_be_visible()
    expect(page.locator("script", has_text="alert(1)")).to_have_count(0)


@pytest.mark.parametrize("action, start", [("Save as SVG", b"<svg"), ("Save as PNG", b"\x89PNG")])
def test_a_chart_downloads_as_svg_and_png_offline(server, page, action, start):
    page.goto(f"{server}/{PHASE1}")
    expect(page.locator(CHART)).to_be_visible()
    page.locator(".ck-chart details summary").click()
    with page.expect_download() as download:
        page.locator(".ck-chart .vega-actions a", has_text=action).click()
    assert download.value.suggested_filename.endswith(action[-3:].lower())
    with open(download.value.path(), "rb") as saved:
        assert saved.read().lstrip().startswith(start)
