"""The encounter editor builds from the libraries (#48), in a real browser (Debian's chromium, Playwright, voila on
127.0.0.1; the fixtures are in conftest.py): the DM's encounter of the issue, four 3rd-level characters with their
weapons and spells, six goblins and a hobgoblin, an intent each, is built in the comparison from a New encounter,
every entry counted, its roster shows every figure on a line, every system draws it, and the editor open meets
WCAG 2.1 AA as axe sees it. A name the books lack is said in the alert box, the text kept; a roster line is edited in
place; a DM's library file is read from the file box and the search finds its monsters. Screenshots go to
``artifacts/``."""

import base64
from pathlib import Path

import pytest

from combatkit import Encounter, loads_encounter
from combatkit.comparison import run_systems
from combatkit.systems import SYSTEMS
from combatkit.widgets.charts.compare import panel_frame
from combatkit.widgets.views.dice_entry import file_entries
from tests.browser.test_accessibility import violations

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: one page at a time, and the machine's two cores are shared
VIEWPORT = {"width": 1500, "height": 2600}
DASHBOARD = "compare_systems.ipynb"
ENTRIES = 11
"""The entries the DM's encounter takes here, every click, pick and typed value counted (the issue asks for 15 at
most, #48):

1. New encounter (it starts with no one);
2. ``fighter 3`` typed in the search, and Enter;
3. ``hobgoblin`` and Enter;
4. ``6 goblins`` and Enter;
5. ``cleric 3`` and Enter;
6. the cleric's target, Goblin 1;
7. ``thief 3`` and Enter;
8. the thief's weapon, the short bow;
9. ``mage 3`` and Enter;
10. the mage's intent, cast (its first spell, sleep);
11. the mage's target, Goblin 3.

The fighter, the hobgoblin and the goblins need nothing more: a figure from the books means to attack its first foe
(the first figure on another side), and the fighter, who came first, attacks the first foe to come, the hobgoblin."""
INTENTS = ["attack Hobgoblin", *["attack Fighter"] * 7, "attack Goblin 1", "attack Hobgoblin with short bow",
           "cast sleep at Goblin 3"]
"""What each figure means to do, in the encounter's order: the fighter, the hobgoblin, the goblins, the cleric, the
thief and the mage."""


class Entries:
    """The user's entries on a page, each done and counted: a click, a pick from a list, a value typed and Enter."""

    def __init__(self, page) -> None:
        self.page = page
        self.made: list[str] = []

    def click(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.made.append(f"click {selector}")

    def pick(self, selector: str, label: str) -> None:
        self.page.locator(selector).select_option(label=label)
        self.made.append(f"pick {label!r} in {selector}")

    def type(self, selector: str, text: str) -> None:
        box = self.page.locator(selector)
        box.fill(text)
        box.press("Enter")
        self.made.append(f"type {text!r} in {selector}")


def saved(page) -> Encounter:
    """The encounter the save link holds."""
    href = page.locator(".ck-download a").get_attribute("href")
    return loads_encounter(base64.b64decode(href.split("base64,", 1)[1]).decode("utf-8"))


def test_the_dm_s_encounter_is_built_from_the_books_in_the_comparison_and_every_system_draws_it(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(".ck-panel")).to_have_count(6)
    page.get_by_text("Edit the encounter (what each figure means to do, once for every system)").click()
    name = page.locator(".ck-editor .ck-name input")
    entries = Entries(page)

    def add(search: str, first: str) -> None:
        entries.type(".ck-books input", search)  # Enter adds
        expect(name).to_have_value(first)  # added, and shown: the search is cleared for the next

    def aim(target: str) -> None:
        entries.pick(".ck-editor .ck-intent-1 .ck-target select", target)

    entries.click("button.ck-new-encounter")
    expect(page.locator(".ck-heading")).to_contain_text("New encounter")
    expect(page.locator(".ck-roster-empty")).to_contain_text("No figures yet")
    expect(page.locator(".ck-message")).to_contain_text("an encounter needs at least one combatant")

    add("fighter 3", "Fighter")
    add("hobgoblin", "Hobgoblin")
    add("6 goblins", "Goblin 1")
    add("cleric 3", "Cleric")
    aim("Goblin 1")
    add("thief 3", "Thief")
    entries.pick(".ck-editor .ck-intent-1 .ck-using select", "short bow")
    add("mage 3", "Mage")
    entries.pick(".ck-editor .ck-intent-1 .ck-do select", "cast")  # its first spell, sleep
    aim("Goblin 3")

    for _ in range(100):  # the link is rewritten once the kernel has the last entry
        if [i.words() for i in saved(page).intents] == INTENTS:
            break
        page.wait_for_timeout(100)
    encounter = saved(page)
    assert [i.words() for i in encounter.intents] == INTENTS
    people = {c.name: c for c in encounter.combatants}
    assert list(people) == ["Fighter", "Hobgoblin", *[f"Goblin {n}" for n in range(1, 7)], "Cleric", "Thief", "Mage"]
    assert [(people[n].level, people[n].thac0) for n in ("Fighter", "Cleric", "Thief", "Mage")] == [
        (3, 18), (3, 20), (3, 19), (3, 20)]  # PH 2e Table 53, by class and level
    assert [s.name for s in people["Mage"].spells] == ["sleep", "magic missile"]
    assert [w.name for w in people["Thief"].weapons] == ["short sword", "short bow"]
    assert len(entries.made) == ENTRIES <= 15, entries.made
    expect(page.locator(".ck-message")).to_be_hidden()
    lines = page.locator(".ck-roster .ck-combatant-row")  # every figure's whole line, its intent in words
    expect(lines).to_have_count(11)
    expect(lines.nth(0).locator(".ck-c-intents")).to_have_text("1. attack Hobgoblin")
    expect(lines.nth(0).locator(".ck-c-thac0 input")).to_have_value("18")  # PH 2e Table 53: a 3rd-level fighter
    expect(lines.nth(10).locator(".ck-c-spells")).to_contain_text("magic missile")

    # every system draws the DM's round: the marks the engine gives each, none refused
    seed = int(page.locator(".ck-seed input").input_value())
    runs = run_systems(encounter, seed, *file_entries(encounter, seed))
    assert {sid for sid, run in runs.items() if run.timeline is not None} == set(SYSTEMS)
    order = [c.name for c in encounter.combatants]
    for sid, run in runs.items():
        frame = panel_frame(run.timeline, order)
        chart = page.locator(f".ck-panel-{sid} .ck-panel-chart")
        expect(chart).to_be_visible()
        expect(chart.locator("svg g.points_marks path")).to_have_count(int((frame["mark"] == "point").sum()))
        expect(page.locator(f".ck-panel-{sid} .ck-panel-message")).to_be_hidden()
    page.screenshot(path=ARTIFACTS / "editor-library-goblin-ambush.png", full_page=True)
    assert violations(page) == []  # the editor open, its roster full, meets WCAG 2.1 AA as axe sees it


LIBRARY = b"""
[[monster]]
name = "Cave troll"
hit_dice = "7+7"
ac = 3
mv = 9
size = "large"
morale = "Elite (14)"
attacks = [{ name = "claw", damage = "1d6" }, { name = "bite", damage = "2d6" }]
source = "my campaign"
"""
"""A DM's library file of one monster."""


def test_a_name_the_books_lack_is_named_a_line_is_edited_in_place_and_a_dm_s_library_is_read(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    page.get_by_text("Edit the encounter (what each figure means to do, once for every system)").click()
    search = page.locator(".ck-books input")
    search.fill("gobln")
    search.press("Enter")
    expect(page.locator(".ck-message")).to_contain_text(
        'from the books: no monster "gobln" in the table; did you mean "goblin"')
    expect(search).to_have_value("gobln")
    search.fill("goblin")
    search.press("Enter")
    expect(page.locator(".ck-editor .ck-name input")).to_have_value("Goblin")
    expect(page.locator(".ck-message")).to_be_hidden()
    weapon = page.locator(".ck-weapon-pick input")
    weapon.fill("long bow")
    weapon.press("Enter")
    expect(page.locator(".ck-editor .ck-weapon-name input")).to_have_value("long bow")
    expect(weapon).to_have_value("")

    goblin = page.locator(".ck-roster .ck-combatant-row").last  # its line, edited in place: the form follows
    expect(goblin.locator(".ck-c-weapons")).to_contain_text("long bow")
    hp = goblin.locator(".ck-c-hp input")
    hp.fill("4")
    hp.press("Enter")
    expect(page.locator(".ck-editor .ck-hp input")).to_have_value("4")

    page.locator(".ck-library-file input[type=file]").set_input_files(
        files=[{"name": "my-campaign.toml", "mimeType": "application/toml", "buffer": LIBRARY}])
    expect(page.locator(".ck-library-status")).to_contain_text("my-campaign.toml: 1 monster, 0 weapons, 0 spells")
    search.fill("cave troll")
    search.press("Enter")
    expect(page.locator(".ck-editor .ck-name input")).to_have_value("Cave troll")
    troll = page.locator(".ck-roster .ck-combatant-row").last
    expect(troll.locator(".ck-c-weapon:not(.ck-c-unarmed) input")).to_have_value("claw")
    page.screenshot(path=ARTIFACTS / "editor-library-search.png", full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the table scrolls in its own box
    roster = page.locator(".ck-editor .ck-roster")
    roster.scroll_into_view_if_needed()
    assert roster.evaluate("b => b.getBoundingClientRect().right <= 391 && b.scrollWidth > b.clientWidth"
                           " && /auto|scroll/.test(getComputedStyle(b).overflowX)")
    page.screenshot(path=ARTIFACTS / "editor-library-phone.png")
