"""The DM's page for a fight at the table in a real browser, on a tablet (#49: "a browser test plays an example to
its end at 1024 px: it types dice, overrules once, undoes once, closes the tab, and reopens the link to the same
state"): Debian's chromium, driven by Playwright, against voila on 127.0.0.1 started by
:func:`combatkit.widgets.app.serve.serving` (fixtures: ``conftest.py``, whose server keeps its fights in a folder of
its own, ``COMBATKIT_DATA``). Fails on any page error, any console error and any request that leaves 127.0.0.1.
"""

import re
from urllib.parse import parse_qs, urlparse

import pytest

from combatkit.table import loads_fight
from combatkit.widgets.state.fights import FightStore
from tests.browser.conftest import PageWatch
from tests.browser.test_accessibility import AXE, violations
from tests.browser.test_phone import fits_the_phone

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DASHBOARD = "table.ipynb"
POOL_SIZE = 0  # every test opens its own pages: no kernel waits idle on the shared cores
VIEWPORT = {"width": 1024, "height": 1366}  # a tablet, upright
EXAMPLE = "Fighter and mage vs. orc archer (written for Combat II: Phase System I)"
_DRAWN = "() => [...document.querySelectorAll('.vega-embed')].every((e) => e.querySelector('svg.marks'))"


def open_page(page, url: str) -> None:
    page.goto(url)
    expect(page.locator(".ck-copy-link")).to_be_visible()
    page.wait_for_function(_DRAWN)


def roster(page) -> list[str]:
    return page.locator(".ck-roster-info").all_inner_texts()


def type_die(page, key_class: str, value: str) -> None:
    box = page.locator(f".ck-die-{key_class} input")
    box.fill(value)
    box.press("Enter")


def start(page, server) -> str:
    """The example started, seeded as its file is: the DM's token the page's link now carries."""
    open_page(page, f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(".ck-heading")).to_contain_text("A fight at the table")
    page.locator(".ck-example select").select_option(label=EXAMPLE)
    expect(page.locator(".ck-party select")).to_have_value("party")
    page.locator("button.ck-start").click()
    expect(page.locator(".ck-heading")).to_contain_text("Fighter and mage vs. orc archer")
    expect(page.locator(".ck-round-status")).to_contain_text("No round played yet")
    expect(page).to_have_url(re.compile(r"\?fight=[A-Za-z0-9_-]{22}$"))
    return parse_qs(urlparse(page.url).query)["fight"][0]


def test_a_fight_played_to_its_end_at_a_tablet_reopens_from_its_link(server, page):
    token = start(page, server)
    expect(page.locator(".ck-roster-info")).to_have_count(3)
    players = page.locator(".ck-players-url")
    expect(players).to_have_value(re.compile(r"/voila/render/table_players\.ipynb\?watch=[A-Za-z0-9_-]{22}$"))
    players_link = players.input_value()
    assert loads_fight(FightStore().load(token)).round == 0  # saved at once

    # the dice of round 1: type one, and it stays through a change of intent
    page.get_by_text("The dice of round 1").click()
    type_die(page, "attack-roll-brienne-round-1-1", "15")
    expect(page.locator(".ck-table-die").filter(has=page.locator(".ck-die-attack-roll-brienne-round-1-1"))
           ).to_contain_text("typed at the table")
    page.get_by_text("What each figure means to do in round 1").click()
    page.locator(".ck-line-mira .ck-line-do select").select_option(label="attack")
    expect(page.locator(".ck-line-mira .ck-line-target select")).to_have_value("Ugluk")
    page.locator(".ck-line-mira .ck-line-do select").select_option(label="as proposed")
    expect(page.locator(".ck-die-attack-roll-brienne-round-1-1 input")).to_have_value("15")

    # the DM's hand once, and undo once
    page.locator(".ck-hand-figure select").select_option(label="Brienne")
    amount = page.locator(".ck-amount input")
    amount.fill("3")
    amount.press("Enter")
    page.locator("button.ck-damage").click()
    brienne = page.locator(".ck-roster-brienne")
    expect(brienne).to_contain_text("HP 23/26")
    page.locator("button.ck-undo").click()
    expect(brienne).to_contain_text("HP 26/26")

    # play to the end: each round redraws the chart and the roster, and is saved
    played = 0
    while "over" not in page.locator(".ck-round-status").inner_text():
        assert played < 10, "the fight should be over in a few rounds"
        page.locator("button.ck-play").click()
        played += 1
        expect(page.locator(".ck-round-status")).to_contain_text(
            re.compile(rf"Round {played} played|over after round {played}"))
        page.wait_for_function(_DRAWN)
    expect(page.locator("button.ck-play")).to_be_disabled()
    assert loads_fight(FightStore().load(token)).round == played
    status, seen = page.locator(".ck-round-status").inner_text(), roster(page)
    page.screenshot(path="artifacts/table-tablet.png", full_page=True)
    url = page.url
    context = page.context
    page.close()

    # the link, opened again in a new tab: the same round and roster, and the players' link
    again = context.new_page()
    watch = PageWatch(again)
    open_page(again, url)
    expect(again.locator(".ck-round-status")).to_have_text(status)
    assert roster(again) == seen
    expect(again.locator(".ck-players-url")).to_have_value(players_link)
    again.close()
    assert watch.problems == []


def test_a_wrong_link_says_so_plainly_and_a_fight_can_still_start(server, page):
    open_page(page, f"{server}/voila/render/{DASHBOARD}?fight={'A' * 22}")
    expect(page.locator(".ck-message [role=alert]")).to_contain_text(
        "no fight has this link: it may have been mistyped, or the fight deleted")
    page.locator("button.ck-start").click()
    expect(page.locator(".ck-round-status")).to_contain_text("No round played yet")
    expect(page.locator(".ck-message")).to_be_hidden()


def test_the_table_fits_a_phone_and_meets_wcag_aa(server, page):
    page.set_viewport_size({"width": 390, "height": 844})
    start(page, server)
    page.get_by_text("The dice of round 1").click()
    page.get_by_text("What each figure means to do in round 1").click()
    expect(page.locator(".ck-table-die").first).to_be_visible()
    fits_the_phone(page, "table-phone")
    if AXE.exists():
        assert violations(page) == []
