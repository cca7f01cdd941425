"""A page whose kernel is gone says so, in a real browser: Debian's chromium, driven by Playwright, against voila
on 127.0.0.1 started by :func:`combatkit.widgets.app.serve.serving`.

A kernel that dies (killed here as the out-of-memory killer would kill it) is not restarted, for a new one would
have none of its page's widgets; before this notice, its page went on showing controls that did nothing, and
said nothing. Fails on any page error, any console error and any request that leaves 127.0.0.1.
"""

import os
import re
import signal
from pathlib import Path

import pytest

from combatkit.widgets.app.serve import serving
from tests.kernels import kernel_processes

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150),
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the kernel in Linux's /proc")]

POOL_SIZE = 0  # the visit starts its own kernel: the one the test stops
VIEWPORT = {"width": 1280, "height": 700}  # shorter than the page: the notice stays in view as the cells scroll
DASHBOARD = "mana.ipynb"
NOTICE = "#ck-gone"


def test_a_page_whose_kernel_died_says_so_and_offers_to_reload(server, page):
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(f"{server}/voila/render/{DASHBOARD}?level=7")
    expect(page.locator("h1").first).to_contain_text("Mana calculators for casters", timeout=60_000)
    expect(page.locator(".ck-mana-pool .ck-chart svg.marks")).to_be_visible()
    expect(page.locator(NOTICE)).to_have_count(0)  # nothing while the kernel lives
    kernels = {m.group(1) for url in sockets if (m := re.search(r"/api/kernels/([^/?]+)/channels", url))}
    assert len(kernels) == 1, sockets
    [process] = [pid for pid, kernel in kernel_processes().items() if kernel in kernels]
    os.kill(process, signal.SIGKILL)

    notice = page.locator(NOTICE)
    expect(notice).to_be_visible(timeout=30_000)  # the server looks at its kernels every 3 s
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_contain_text("This page's kernel has stopped")
    expect(notice).to_contain_text("Reload the page to start again")
    bar, cells = page.locator(".ck-nav").bounding_box(), page.locator("#rendered_cells")
    assert notice.bounding_box()["y"] + notice.bounding_box()["height"] <= bar["y"]  # above the bar, not over it
    cells.evaluate("cells => cells.scrollTo(0, cells.scrollHeight)")
    assert page.locator(".ck-nav").bounding_box()["y"] < 0  # scrolled out of view; the notice is not
    assert notice.bounding_box()["y"] <= 0 <= notice.bounding_box()["y"] + 10  # flush with the top: nothing above it
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "artifacts" / "kernel-gone.png"))

    notice.get_by_role("button", name="Reload").click()  # a new kernel, and the address's level
    expect(page.locator(".ck-mana-pool .ck-chart svg.marks")).to_be_visible(timeout=60_000)
    expect(page.locator(NOTICE)).to_have_count(0)
    assert "level=7" in page.url


def test_a_page_that_lost_its_server_says_so(browser, tmp_path):
    """The server stopped (restarted, or its machine did): the page's reconnections fail, and after 10 s without
    a connection it says so. Failed reconnections are console errors of voila's own; page errors are not allowed."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serving(pool_size=0, log=tmp_path / "voila.log") as running:
        page.goto(f"{running.url}/voila/render/{DASHBOARD}")
        expect(page.locator(".ck-mana-pool .ck-chart svg.marks")).to_be_visible(timeout=60_000)
    notice = page.locator(NOTICE)
    expect(notice).to_be_visible(timeout=40_000)
    expect(notice).to_contain_text("This page has lost the server")
    expect(notice).to_contain_text("Reload the page to start again")
    assert errors == []
    context.close()
