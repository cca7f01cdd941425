"""What every browser test shares: Debian's chromium driven by Playwright, against voila on 127.0.0.1
started by :func:`combatkit.widgets.app.serve.serving`.

A test module may set ``POOL_SIZE`` (preheated kernels per dashboard; default 1), ``PREHEAT``
(which dashboards get them; default all) and ``VIEWPORT`` (default 1280 x 1500). Every page fails its test on
any page error, any console error, any request that leaves 127.0.0.1 (the dashboards must work offline),
any cell that failed on the server (voila, without tracebacks, only puts :data:`FAILED_CELL` in the
page: no console error), any traceback printed in an output, and any page left saying its kernel or the
server is gone. A notebook a test here opens is not run again by tests/test_notebooks.py (``opened_by``).
Logs and screenshots go to ``artifacts/``.
"""

import os
from pathlib import Path
from urllib.parse import urlparse

import pytest

from combatkit.widgets.app.serve import serving
from combatkit.widgets.state.fights import DATA_ENV

playwright = pytest.importorskip("playwright.sync_api")
playwright.expect.set_options(timeout=60_000)  # a page whose kernel starts cold takes ~10 s on two busy cores

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
FAILED_CELL = "There was an error when executing cell"
"""What voila shows in place of a cell that raised, when it does not show tracebacks."""
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class PageWatch:
    """Everything that went wrong on a page: page errors, console errors, requests off this machine."""

    def __init__(self, page) -> None:
        self.problems: list[str] = []
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        page.route("**/*", self._local_only)

    def _local_only(self, route) -> None:
        url = route.request.url
        if url.startswith("data:") or urlparse(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.problems.append(f"request off this machine: {url}")
            route.abort()


def pytest_collection_modifyitems(items):
    """A browser test that fails is run once more, and fails if it fails again. Rarely (1 of 4 clean CI runs
    here), a voila page stalls for a minute on the stack beneath it, not on anything it shows: the server logs
    "Timeout waiting for IOPub output" and the page never finishes loading (most likely a late IOPub
    subscription, as in jupyter_client #593; not proven here). Each rerun is named in the run's summary (``-ra``: "R")."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=1))


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """The dashboard server's base URL, one server per test module."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    name = request.module.__name__.rsplit(".", 1)[-1]
    os.environ[DATA_ENV] = str(tmp_path_factory.mktemp(f"data-{name}"))  # its fights (and the test's): not the user's
    with serving(pool_size=getattr(request.module, "POOL_SIZE", 1), preheat=getattr(request.module, "PREHEAT", ()),
                 log=ARTIFACTS / f"voila-{name}.log") as running:
        yield running.url


@pytest.fixture(scope="module")
def browser(server):
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def watched(browser, request):
    """A fresh page and its :class:`PageWatch`; the test fails if anything went wrong on the page."""
    viewport = getattr(request.module, "VIEWPORT", {"width": 1280, "height": 1500})
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    # Voila answers a page once its kernel has run the notebook: on two cores that another test is compiling the
    # engine on (tests/test_compiled.py), a cold kernel took over 60 s. A bound on a busy machine, not a timing.
    page.set_default_navigation_timeout(150_000)
    watch = PageWatch(page)
    yield page, watch
    if not page.is_closed():
        failed = page.locator(".jp-OutputArea-output", has_text=FAILED_CELL)
        watch.problems += [f"a cell failed on the server: {text}" for text in failed.all_inner_texts()]
        traced = page.locator(".jp-OutputArea-output", has_text="Traceback")  # printed, not raised
        watch.problems += [f"a traceback on the page: {text[:300]}" for text in traced.all_inner_texts()]
        gone = page.locator("#ck-gone:visible")  # the template's notice that the kernel or the server is gone
        watch.problems += [f"the page says its kernel is gone: {text}" for text in gone.all_inner_texts()]
    context.close()
    assert watch.problems == []


@pytest.fixture
def page(watched):
    return watched[0]


_READABILITY = """(selector) => {
  const problems = [];
  for (const chart of document.querySelectorAll(selector)) {
    if (!chart.offsetParent) continue;  // hidden (a panel whose system cannot run the encounter)
    const svg = chart.querySelector('svg.marks');
    if (!svg) { problems.push(`${selector}: no chart drawn`); continue; }
    const embed = svg.closest('.vega-embed') || chart, style = getComputedStyle(embed);  // less its actions menu
    const room = embed.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const used = svg.getBoundingClientRect().width;
    if (used < 0.97 * room) problems.push(`${selector}: the chart uses ${Math.round(used)} of ${Math.round(room)} px`);
    for (const text of svg.querySelectorAll('text')) {
      const words = text.textContent;
      if (words.endsWith('…')) problems.push(`${selector}: a label is cut: "${words}"`);
    }
  }
  return problems;
}"""


@pytest.fixture
def readability():
    """``readability(page, selector)``: what keeps the charts matching ``selector`` from reading at a glance:
    a chart narrower than its container, a label cut short with an ellipsis."""
    def check(page, selector: str) -> list[str]:
        return page.evaluate(_READABILITY, selector)

    return check
