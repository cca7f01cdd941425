"""The lessons (the teaching notebooks, served under learn/) in a real browser: the landing page's Learn
section, every lesson opened from it in turn against one voila server, and the links between a dashboard
and its lesson (fixtures: ``conftest.py``, which also fails a page on a cell that raised on the server)."""

import nbformat
import pytest

from combatkit.widgets.app.landing import LEARN, landing
from combatkit.widgets.app.serve import MAIN_DASHBOARD, dashboards_dir, lessons_dir

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

POOL_SIZE = 0  # lessons never get a waiting kernel; no dashboard's kernel waits idle on the shared cores either
LANDING = landing(dashboards_dir(), lessons_dir())


def name(lesson) -> str:
    return lesson.path.removeprefix(f"{LEARN}/")


def code_cells(lesson) -> list[str]:
    notebook = nbformat.read(lessons_dir() / name(lesson), as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def test_the_learn_section_lists_every_lesson_in_order(server, page):
    page.goto(f"{server}/")
    page.locator("header a[href='#learn']").click()
    learn = page.locator("#learn")
    expect(learn.locator("h2")).to_have_text("Learn")
    expect(learn.locator("h2")).to_be_in_viewport()
    items = learn.locator(".ck-lesson")
    expect(items).to_have_count(len(LANDING.lessons))
    expect(items.first.locator("h3")).to_have_text("Phase System I: who acts when in a round")  # where a new player begins
    for n, lesson in enumerate(LANDING.lessons):
        item = items.nth(n)
        expect(item.locator("h3")).to_have_text(lesson.title)
        expect(item.locator("p")).to_have_text(lesson.summary)
        assert item.locator("a.ck-open").get_attribute("href") == f"/voila/render/{lesson.path}"
        dashboard = LANDING.card(lesson.companion)
        expect(item.locator("a.ck-companion")).to_have_text(f"Dashboard: {dashboard.title}")
        assert item.locator("a.ck-companion").get_attribute("href") == f"/voila/render/{dashboard.path}"
    learn.screenshot(path="artifacts/learn.png")


@pytest.mark.parametrize("lesson", LANDING.lessons, ids=lambda lesson: name(lesson).removesuffix(".ipynb"))
def test_each_lesson_opens_from_the_landing_page_with_its_code_outputs_and_charts(server, page, lesson):
    page.goto(f"{server}/#learn")
    page.locator(f"#learn a.ck-open[href='/voila/render/{lesson.path}']").click()
    expect(page).to_have_url(f"{server}/voila/render/{lesson.path}")
    expect(page.locator("#rendered_cells")).to_be_visible()
    expect(page.locator(".jp-MarkdownOutput h1").first).to_contain_text(lesson.title)

    sources = code_cells(lesson)
    editors = page.locator(".jp-InputArea-editor")  # a lesson shows its code, without prompts
    expect(editors).to_have_count(len(sources))
    expect(editors.first).to_contain_text(sources[0].splitlines()[0])
    expect(page.locator(".jp-InputPrompt")).to_have_count(0)
    assert page.locator(".jp-OutputArea-output").count() > 0
    charts = sum("chart_view(" in source for source in sources)  # each draws one chart; live views draw more
    page.wait_for_function("n => document.querySelectorAll('svg.marks').length >= n", arg=max(charts, 1))

    dashboard = LANDING.card(lesson.companion)
    back = page.locator(".ck-nav a.ck-nav-dashboard")
    expect(back).to_have_text(f"Dashboard: {dashboard.title}")
    assert back.get_attribute("href") == f"/voila/render/{dashboard.path}"
    assert page.locator(".ck-nav a.ck-nav-home").get_attribute("href") == "/"
    expect(page.locator(".ck-nav-note")).to_have_text(
        f"To change the code and run it again: jupyter lab notebooks/{name(lesson)}")
    page.screenshot(path=f"artifacts/learn-{name(lesson).removesuffix('.ipynb')}.png")


def test_a_dashboard_hides_its_code_and_links_to_its_lesson(server, page):
    page.goto(f"{server}/voila/render/{MAIN_DASHBOARD}")  # straight from a shared link, not the landing page
    expect(page.locator(".ck-chart svg.marks")).to_be_visible()
    # the page sets the cookie its shutdown message carries when left: no 403, its kernel stops at once
    assert "_xsrf" in {cookie["name"] for cookie in page.context.cookies()}
    expect(page.locator(".jp-CodeCell .jp-InputArea")).to_have_count(0)  # strip_sources still holds for dashboards
    expect(page.locator(".ck-nav-note")).to_have_count(0)
    lesson = page.locator(".ck-nav a.ck-nav-lesson")
    expect(lesson).to_have_text("Lesson: Phase System I: who acts when in a round")
    lesson.click()
    expect(page).to_have_url(f"{server}/voila/render/{LEARN}/phase1_teaching.ipynb")
    expect(page.locator(".jp-InputArea-editor").first).to_contain_text("from dataclasses import replace")
