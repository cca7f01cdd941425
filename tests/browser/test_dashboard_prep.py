"""The encounter-prep dashboard in a real browser: Debian's chromium, driven by Playwright, against
voila on 127.0.0.1 started by :func:`combatkit.widgets.app.serve.serving` (the fixtures are in conftest.py).

Fails on any page error, any console error and any request that leaves 127.0.0.1 (the
dashboard must work offline). A roster line's edit opens the figure in the encounter editor, where its spells and
intents are added. Screenshots go to ``artifacts/``.
"""

from pathlib import Path

import pytest

from combatkit import load_example
from combatkit.fight import FightOptions
from combatkit.simulation import simulate
from combatkit.widgets.charts.prep import falls_frame, rounds_frame, spells_frame, wins_frame

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POOL_SIZE = 0  # no preheated kernels: one page, and the machine's two cores are shared
VIEWPORT = {"width": 1280, "height": 2700}  # voila's page scrolls inside itself: a tall one shows it all
DASHBOARD = "encounter_prep.ipynb"
EXAMPLE = "strike-speed-ogre-and-goblin"  # the dashboard's parameters cell opens it under these two systems
SYSTEMS = ("strike_speed", "short_form")


def bars(page, chart: str):
    """The bars of one of the prep charts (every chart names its bar layer ``bars``)."""
    return page.locator(f".ck-{chart}-chart svg.marks g.bars_marks path")


def expected(fights: int, seed: int, systems: tuple[str, ...]) -> dict[str, object]:
    """What the charts should draw, from the engine directly."""
    runs = [simulate(load_example(EXAMPLE), s, n=fights, seed=seed, options=FightOptions())
            for s in systems]
    wins = wins_frame(runs)
    return {"wins": len(wins), "rounds": len(rounds_frame(runs)), "falls": len(falls_frame(runs)),
            "spells": len(spells_frame(runs)), "labels": list(wins["label"])}


def enter(page, selector: str, value: str) -> None:
    box = page.locator(f"{selector} input")
    box.fill(value)
    box.press("Enter")


def run(page) -> None:
    page.locator("button.ck-run").click()


def test_prep_dashboard_runs_redraws_replays_and_refuses_bad_input(server, page):
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(".ck-heading")).to_contain_text("Strike speed: a spear, a spell, an ogre and a goblin archer")
    expect(page.locator(".ck-status")).to_contain_text("No fights run yet")
    expect(page.locator(".ck-combatant-row")).to_have_count(5)
    expect(page.locator(".ck-system-strike_speed input")).to_be_checked()
    expect(page.locator(".ck-system-short_form input")).to_be_checked()
    expect(page.locator(".ck-charts svg")).to_have_count(0)  # nothing is played when the page opens

    # a small run: the charts appear with one bar per row of the engine's frames
    first = expected(20, 1, SYSTEMS)
    enter(page, ".ck-fights", "20")
    run(page)
    expect(page.locator(".ck-status")).to_contain_text("40 fights (20 × 2 systems) in", timeout=90_000)
    for chart in ("wins", "rounds", "falls", "spells"):
        expect(bars(page, chart)).to_have_count(first[chart])
    labels = page.locator(".ck-wins-chart svg.marks g.labels_marks text")
    expect(labels).to_have_count(len(first["labels"]))
    assert sorted(labels.all_text_contents()) == sorted(first["labels"])  # vega draws them in its own order
    expect(page.locator(".ck-summary")).to_contain_text("The A.D.D.I.C.T. short form (short_form)")
    # the first system of the run in the seeds' order: 002 before 004
    expect(page.locator(".ck-replay-why")).to_contain_text("Fight #0 under The A.D.D.I.C.T. short form")
    expect(page.locator(".ck-downloads a")).to_have_count(4)
    page.screenshot(path=ARTIFACTS / "encounter-prep-dashboard.png", full_page=True)

    # another run redraws the same charts: one system, another seed
    second = expected(10, 2, SYSTEMS[:1])
    page.locator(".ck-system-short_form input").uncheck()
    enter(page, ".ck-fights", "10")
    enter(page, ".ck-seed", "2")
    run(page)
    expect(page.locator(".ck-status")).to_contain_text("10 fights (10 × 1 system) in", timeout=90_000)
    for chart in ("wins", "rounds", "falls", "spells"):
        expect(bars(page, chart)).to_have_count(second[chart])
    expect(labels).to_have_count(len(second["labels"]))
    assert sorted(labels.all_text_contents()) == sorted(second["labels"])

    # the page stays live while fights are played: the bar moves, and Stop ends the run
    enter(page, ".ck-fights", "2000")
    run(page)
    expect(page.locator(".ck-status")).to_contain_text(" of 2000 fights")
    expect(page.locator("button.ck-run")).to_be_disabled()
    page.locator("button.ck-stop").click()
    expect(page.locator(".ck-status")).to_contain_text("Stopped after")
    expect(page.locator(".ck-status")).to_contain_text("the results below are the last complete run's")
    expect(page.locator("button.ck-run")).to_be_enabled()
    assert sorted(labels.all_text_contents()) == sorted(second["labels"])
    enter(page, ".ck-fights", "10")

    # replay a fight of the run by its number
    enter(page, ".ck-replay-index", "7")
    page.locator("button.ck-replay").click()
    expect(page.locator(".ck-replay-why")).to_contain_text("Fight #7 under Strike Speed order of battle")
    expect(page.locator(".ck-replay-why")).to_contain_text("round 1 (strike_speed)")

    # bad input: the message names the field and the value; the charts and the typed value stay
    enter(page, ".ck-fights", "0")
    run(page)
    expect(page.locator(".ck-message")).to_contain_text("fights: 1..2500 fights per system in the dashboard, got 0")
    expect(page.locator(".ck-fights input")).to_have_value("0")
    assert sorted(labels.all_text_contents()) == sorted(second["labels"])
    page.locator(".ck-combatant-row").nth(1).locator(".ck-c-hp input").fill("-3")
    page.locator(".ck-combatant-row").nth(1).locator(".ck-c-hp input").press("Enter")
    expect(page.locator(".ck-message")).to_contain_text("combatants[1].hp (Pike): hit points are 0 or more, got -3")
    expect(page.locator(".ck-combatant-row").nth(1).locator(".ck-c-hp input")).to_have_value("-3")
    page.screenshot(path=ARTIFACTS / "encounter-prep-dashboard-bad-input.png", full_page=True)

    # a figure's spells and intents are added from its roster line: edit opens the editor's form on it (#48)
    wenna = page.locator(".ck-combatant-row").nth(2)
    wenna.locator("button.ck-c-edit").click()
    expect(page.locator(".ck-editor .ck-name input")).to_have_value("Wenna")
    enter(page, ".ck-spell-pick", "sleep")
    expect(wenna.locator(".ck-c-spells")).to_contain_text("sleep")
    page.locator(".ck-editor .ck-intent-2 .ck-do select").select_option(label="cast")
    expect(wenna.locator(".ck-c-intents")).to_contain_text("2. cast magic missile")


def test_at_900_px_high_the_progress_of_a_run_shows_beside_run(server, page):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server}/voila/render/{DASHBOARD}")
    expect(page.locator(".ck-combatant-row")).to_have_count(5)
    run(page)  # Playwright scrolls Run into view just as far as a reader would
    progress = page.locator(".ck-progress")
    expect(page.locator(".ck-status")).not_to_contain_text("No fights run yet")
    box, button = progress.bounding_box(), page.locator("button.ck-run").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 901, box  # in sight, not below the fold
    assert abs((box["y"] + box["height"] / 2) - (button["y"] + button["height"] / 2)) < 20  # on Run's row
    status = page.locator(".ck-status").bounding_box()
    assert status["y"] + status["height"] <= 900 + 40, status
    page.screenshot(path=ARTIFACTS / "prep-dashboard-run-900.png")
    expect(page.locator(".ck-status")).to_contain_text("fights", timeout=120_000)
