"""The dashboards on a phone, 390 px wide, as a shared link is often opened (issue #45): the comparison's
panels one under another, nothing wider than the screen but tables and rows that scroll inside their own box,
and each dashboard's introduction folded under its title (fixtures: ``conftest.py``)."""

import pytest

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

POOL_SIZE = 0  # every test opens its own page
VIEWPORT = {"width": 390, "height": 844}

_OVERFLOW = """() => {
  // what reaches past the right edge of the screen, unless a box that scrolls on its own (and fits) holds it
  const width = innerWidth, problems = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > width) problems.push(`the page is ${page.scrollWidth} px wide`);
  const cells = document.getElementById("rendered_cells");
  if (cells.scrollWidth > cells.clientWidth + 1) problems.push(`the cells are ${cells.scrollWidth} px wide`);
  const scrolls = (box) => /auto|scroll/.test(getComputedStyle(box).overflowX);
  for (const el of cells.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.right <= width + 1 || el.closest(".ck-sr-only")) continue;
    let holder = el.parentElement;
    while (holder && holder !== cells && !(scrolls(holder) && holder.getBoundingClientRect().right <= width + 1)) {
      holder = holder.parentElement;
    }
    if (holder === cells || !holder) {
      problems.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} reaches ${Math.round(box.right)} px`);
    }
  }
  return [...new Set(problems)].slice(0, 12);
}"""

_WIDE_TABLES = """() => [...document.querySelectorAll("#rendered_cells table")]
  .filter((t) => t.offsetParent && t.scrollWidth > t.clientWidth + 1)
  .map((t) => ({ scrolls: /auto|scroll/.test(getComputedStyle(t).overflowX),
                 right: Math.round(t.getBoundingClientRect().right) }))"""


def open_dashboard(page, server, path: str) -> None:
    page.goto(f"{server}/voila/render/{path}")
    expect(page.locator(".ck-copy-link")).to_be_visible()
    page.wait_for_function("() => [...document.querySelectorAll('.vega-embed')].every((e) => e.querySelector('svg.marks'))")


def folded_introduction(page) -> None:
    expect(page.locator(".jp-MarkdownOutput h1").first).to_be_in_viewport()
    intro = page.locator("details.ck-intro")
    expect(intro).to_have_count(1)
    assert intro.evaluate("d => !d.open")
    intro.locator("summary").click()
    expect(intro.locator("p").first).to_be_visible()


def fits_the_phone(page, shot: str, *, wide_tables: bool = False) -> None:
    """Every wide table (if asked) scrolls in its own box within the 390 px screen, and nothing else reaches past
    the screen's edge; the page is kept as ``artifacts/<shot>.png``."""
    if wide_tables:
        wide = page.evaluate(_WIDE_TABLES)
        assert all(table["scrolls"] and table["right"] <= 390 for table in wide), wide
    page.screenshot(path=f"artifacts/{shot}.png", full_page=True)
    overflow = page.evaluate(_OVERFLOW)
    assert overflow == [], "\n".join(overflow)


def test_the_comparison_stacks_its_panels_and_its_odds_table_scrolls_in_its_box(server, page):
    open_dashboard(page, server, "compare_systems.ipynb")
    folded_introduction(page)
    panels = page.locator(".ck-panels > .ck-panel")
    expect(panels.first).to_be_visible()
    boxes = [panels.nth(n).bounding_box() for n in range(panels.count())]
    assert len(boxes) > 1
    assert len({round(box["x"]) for box in boxes}) == 1  # one column
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes)
    expect(page.locator(".ck-odds table").first).to_be_visible()
    fits_the_phone(page, "phone-compare", wide_tables=True)


def test_prep_fits_the_phone_with_its_roster_and_results_scrolling_in_their_boxes(server, page):
    open_dashboard(page, server, "encounter_prep.ipynb")
    folded_introduction(page)
    box = page.locator(".ck-fights input")
    box.fill("10")
    box.press("Enter")
    page.locator("button.ck-run").click()
    expect(page.locator(".ck-status")).to_contain_text("fights (10 × 2 systems) in", timeout=90_000)
    expect(page.locator(".ck-summary table").first).to_be_visible()
    roster = page.locator(".ck-roster-box")
    assert roster.evaluate("b => b.scrollWidth > b.clientWidth && /auto|scroll/.test(getComputedStyle(b).overflowX)")
    fits_the_phone(page, "phone-prep", wide_tables=True)


def test_a_timeline_dashboard_fits_the_phone(server, page):
    open_dashboard(page, server, "phase1_timeline.ipynb")
    folded_introduction(page)
    fits_the_phone(page, "phone-phase1")
