"""The DM's own encounter in a link (#50), in a real browser (Debian's chromium, Playwright, voila on 127.0.0.1; the
fixtures are in conftest.py): an encounter edited in the comparison goes into the page's link, which opens the same
encounter and view in a fresh browser; hostile encounters in a link are refused by name in the alert box while the
link's other values are applied. Screenshots go to ``artifacts/``."""

import base64
import re
import zlib
from pathlib import Path
from urllib.parse import quote

import pytest

from combatkit import load_example
from combatkit.encounter_files import dumps_toml
from combatkit.widgets.state.urlstate import MAX_ENCOUNTER, MAX_ENCOUNTER_BYTES
from combatkit.widgets.views.compare import SystemComparison
from tests.browser.conftest import PageWatch

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: one page at a time, and the machine's two cores are shared
VIEWPORT = {"width": 1500, "height": 2000}
DEFAULT_TITLE = "Five phases: Erik the Bold's second round"
SEGMENTS_TITLE = load_example("segments-fighters-vs-giant-and-orcs").title
"""The Segment of Action's page's own example, which a refused link leaves it showing."""
"""The comparison's default encounter: what a link whose encounter is refused still shows."""


def packed(data: bytes) -> str:
    """``data`` packed as a link packs an encounter's file: raw deflate, URL-safe base64 without padding."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.urlsafe_b64encode(deflate.compress(data) + deflate.flush()).decode().rstrip("=")


HOSTILE = {
    "too long": ("A" * (MAX_ENCOUNTER + 1), f"{MAX_ENCOUNTER + 1:,} characters long; a link carries at most "
                                            f"{MAX_ENCOUNTER:,}"),
    "not base64": ("not*base64!", "the encounter in this link is damaged: it is not URL-safe base64"),
    "a compression bomb": (packed(b" " * (4 * 2**20)), f"unpacks to more than {MAX_ENCOUNTER_BYTES:,} bytes"),
    "a bad field": (packed(dumps_toml(load_example("ct9-spell-vs-sword")).replace("dex = 14", "dex = 99").encode()),
                    "cannot be read: combatants[0].dex: DEX is 1..25 (PH Table 2), got 99"),
}
"""Each hostile encounter a link may carry, and the words that name its problem."""


def test_an_edited_encounter_s_link_opens_it_in_a_fresh_browser_and_hostile_ones_are_refused(server, browser, page):
    expected = SystemComparison()  # what the page should show, worked out here
    expected.editor.name.value = "Erik the Brave"
    expected.seed.value = 7
    expected.settle(120)
    dashboard = f"{server}/voila/render/compare_systems.ipynb"
    page.goto(dashboard)
    expect(page.locator(".ck-panel")).to_have_count(6)
    link = page.locator(".ck-link-url")
    expect(link).to_have_value(f"{dashboard}?seed=1&a=Erik+the+Bold&b=Grishnak")

    # the DM's own encounter: Erik renamed in the editor, another seed
    page.get_by_text("Edit the encounter (what each figure means to do, once for every system)").click()
    name = page.locator(".ck-editor .ck-name input")
    expect(name).to_have_value("Erik the Bold")
    name.fill("Erik the Brave")
    name.press("Enter")
    expect(page.locator(".ck-a select")).to_have_value("Erik the Brave")
    seed = page.locator(".ck-seed input")
    seed.fill("7")
    seed.press("Enter")
    expect(link).to_have_value(re.compile(re.escape(f"{dashboard}?enc=") + r"[A-Za-z0-9_-]+"
                                          + re.escape("&seed=7&a=Erik+the+Brave&b=Grishnak") + "$"))
    expect(page).to_have_url(link.input_value())  # the address bar follows
    expect(page.locator(".ck-link-caveat")).to_be_hidden()  # the link carries it all
    expect(page.locator(".ck-words li")).to_have_text(expected.sentences)
    shared = link.input_value()
    save = page.locator(".ck-download a").get_attribute("href")
    page.screenshot(path=ARTIFACTS / "link-encounter-edited.png", full_page=True)

    # the link, opened in a fresh browser context: the same encounter and view
    context = browser.new_context(viewport=VIEWPORT)
    try:
        other = context.new_page()
        other.set_default_timeout(60_000)
        watch = PageWatch(other)
        other.goto(shared, timeout=150_000)
        expect(other.locator(".ck-panel")).to_have_count(6)
        expect(other.locator(".ck-url-message")).to_be_hidden()
        expect(other.locator(".ck-heading")).to_contain_text(DEFAULT_TITLE)
        expect(other.locator(".ck-a select")).to_have_value("Erik the Brave")
        expect(other.locator(".ck-seed input")).to_have_value("7")
        expect(other.locator(".ck-example select")).to_have_value("")  # not a shipped example as shipped
        expect(other.locator(".ck-link-url")).to_have_value(shared)
        assert other.locator(".ck-download a").get_attribute("href") == save  # the encounter, seed and dice saved
        expect(other.locator(".ck-words li")).to_have_text(expected.sentences)
        other.screenshot(path=ARTIFACTS / "link-encounter-opened.png", full_page=True)
        assert watch.problems == []
    finally:
        context.close()

    # hostile encounters: each named in the alert box, the link's seed applied over the default encounter; on one
    # system's page (every encounter view reads enc= alike, tests/test_link_encounter.py), six systems' a page less
    one = f"{server}/voila/render/segments_timeline.ipynb"
    message = page.locator(".ck-url-message")
    for payload, problem in HOSTILE.values():
        page.goto(f"{one}?enc={quote(payload)}&seed=5")
        expect(message).to_contain_text("Part of this link could not be used. Applied: seed; left out:")
        expect(message).to_contain_text("enc: the encounter in this link")
        expect(message).to_contain_text(problem)
        expect(page.locator(".ck-seed input")).to_have_value("5")
        expect(page.locator(".ck-heading")).to_contain_text(SEGMENTS_TITLE)
        expect(page.locator(".ck-link-url")).to_have_value(f"{one}?seed=5")
    page.screenshot(path=ARTIFACTS / "link-encounter-refused.png", full_page=True)
