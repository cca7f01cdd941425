"""The players' view of a fight at the table in a real browser, on a phone (#49: "a second page with the player view
follows it (390 px)"): Debian's chromium, driven by Playwright, against voila on 127.0.0.1 started by
:func:`combatkit.widgets.app.serve.serving` (fixtures: ``conftest.py``, whose server keeps its fights in a folder of
its own, ``COMBATKIT_DATA``).

The test plays the DM's part as the DM's page does: it saves the fight into the server's store
(:class:`~combatkit.widgets.state.fights.FightStore`) after each round, and the players' page, opened by the players'
token, shows each round within a few seconds. Fails on any page error, any console error and any request that leaves
127.0.0.1.
"""

import time

import pytest

from combatkit import load_example
from combatkit.table import TableFight
from combatkit.widgets.state.fights import FightStore
from tests.browser.test_accessibility import AXE, violations
from tests.browser.test_phone import fits_the_phone

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

DASHBOARD = "table_players.ipynb"
PREHEAT = (DASHBOARD,)  # a kernel waits with the view built, as for a player who follows the link
VIEWPORT = {"width": 390, "height": 844}
FOLLOWS_WITHIN = 6.0
"""Seconds from the DM's save to the round on the players' page that the test allows: the page polls once a second
and reads the fight again in well under one; the rest is room for two cores shared with other work."""
_DRAWN = "() => [...document.querySelectorAll('.vega-embed')].every((e) => e.querySelector('svg.marks'))"


def a_fight(revealed: set[str]) -> tuple[FightStore, str, str, TableFight]:
    """A goblin ambush after its first round, saved into the server's store as the DM's page saves it: the store,
    the DM's and the players' tokens, and the fight."""
    store = FightStore()  # the server's folder: the conftest names it in the environment, for the server and here
    dm, players = store.new()
    table = TableFight(load_example("goblin-ambush"), seed=3)
    table.revealed = revealed
    table.play()
    store.save(dm, table.dumps())
    return store, dm, players, table


def open_players_page(page, server, players: str) -> None:
    page.goto(f"{server}/voila/render/{DASHBOARD}?watch={players}")
    expect(page.locator(".ck-round")).to_have_text("Round 1.")
    page.wait_for_function(_DRAWN)


def test_the_players_page_follows_the_dm_s_fight_round_by_round_on_a_phone(server, page):
    store, dm, players, table = a_fight({"Hobgoblin leader"})
    open_players_page(page, server, players)
    expect(page.locator(".ck-party")).to_contain_text("Brienne")
    expect(page.locator(".ck-party")).to_contain_text("16 of 16")
    foes = page.locator(".ck-foes")
    expect(foes).to_contain_text("Hobgoblin leader")
    expect(foes.locator("thead")).not_to_contain_text("hit points")
    expect(page.locator(".ck-roster")).not_to_contain_text("Goblin 1")
    expect(page.locator(".ck-why")).to_contain_text("What the table saw in round 1")
    expect(page.locator(".ck-table-players button, .ck-table-players input")).to_have_count(0)  # nothing to change
    assert dm not in page.content()
    fits_the_phone(page, "table-players-phone-round-1")

    table.play()  # the DM plays round 2: the page follows
    store.save(dm, table.dumps())
    saved = time.monotonic()
    expect(page.locator(".ck-round")).to_have_text("Round 2.", timeout=FOLLOWS_WITHIN * 1000)
    followed = time.monotonic() - saved
    expect(page.locator(".ck-why")).to_contain_text("What the table saw in round 2")
    page.wait_for_function(_DRAWN)
    expect(page.locator(".ck-chart svg.marks")).to_contain_text("Round 2")
    fits_the_phone(page, "table-players-phone-round-2")
    print(f"the players' page showed round 2 {followed:.1f} s after the DM's save")


def test_a_wrong_token_says_so_plainly(server, page):
    store, dm, players, table = a_fight(set())
    page.goto(f"{server}/voila/render/{DASHBOARD}?watch={players[::-1]}")  # mistyped
    message = page.locator(".ck-message [role=alert]")
    expect(message).to_contain_text("No fight to show.")
    expect(message).to_contain_text("no fight has this link: it may have been mistyped, or the fight deleted")
    expect(page.locator(".ck-round")).to_be_hidden()


def test_the_players_page_meets_wcag_aa(server, page):
    if not AXE.exists():
        pytest.skip(f"{AXE} is not installed (make axe)")
    store, dm, players, table = a_fight({"Hobgoblin leader"})
    open_players_page(page, server, players)
    assert violations(page) == []
