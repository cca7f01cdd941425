"""The words shown beside a round describe that round (#45 item 4): an example's prose is shown for its own
dice, options and figures; with others, the engine's own words about the round shown, and a line saying why."""

import html
import re

import pytest

from combatkit import example_encounters, load_example
from combatkit.systems import SYSTEMS
from combatkit.widgets.views.system_timeline import SystemTimeline


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def own_examples(system: str) -> list[str]:
    return [name for name in example_encounters() if load_example(name).system == system]


@pytest.mark.parametrize("system, name", [(s, n) for s in SYSTEMS for n in own_examples(s)])
def test_each_system_s_examples_keep_their_words_only_for_their_own_dice(system, name):
    viewer = SystemTimeline(system, name)
    description = " ".join(load_example(name).description.split())
    assert description[:60] in text(viewer.heading.value)
    roll = next(r for r in viewer.timeline.rolls if r.dice.count == 1 and r.dice.sides > 1)
    other = 1 if roll.total != 1 + roll.dice.modifier else 2
    box = viewer.dice._boxes[(roll.purpose, str(roll.dice))]
    box.value = str(other)
    assert viewer.error == ""
    shown = text(viewer.heading.value)
    assert description[:60] not in shown
    assert f"{roll.purpose} = {roll.total}" in shown and f"{roll.purpose} = {other + roll.dice.modifier}" in shown
    assert all(note in shown for note in viewer.timeline.notes)  # the engine's words about the round shown
    box.value = str(roll.total)  # the example's own die again: its own words again
    assert description[:60] in text(viewer.heading.value)


def test_a_round_without_notes_says_that_the_chart_and_the_steps_follow_it():
    viewer = SystemTimeline("segments", "segments-fighters-vs-giant-and-orcs")
    viewer.dice._boxes[("segment: A", "d10")].value = "8"
    shown = text(viewer.heading.value)
    # only the die entered differs: every other roll keeps the seed's number (#45 item 3)
    assert viewer.timeline.notes == () and "its own dice (segment: A = 3)" in shown
    assert "not this round's (segment: A = 8)" in shown
    assert "the chart and the steps below follow this round" in shown


def test_another_seed_that_rolls_no_die_of_the_example_keeps_its_words():
    viewer = SystemTimeline("phase1", "fighter-and-mage-vs-orc-archer")
    viewer.seed.value += 1  # every die this round rolls is entered in the file
    assert "The orcs win initiative" in text(viewer.heading.value)


def test_the_comparison_shows_the_example_s_words_only_for_its_own_dice():
    from combatkit.widgets.views.compare import SystemComparison

    view = SystemComparison("fighter-and-mage-vs-orc-archer")
    assert "The orcs win initiative" in text(view.heading.value)
    box = view.dice._boxes[("initiative: party", "d10")]
    box.value = "2"
    shown = text(view.heading.value)
    assert "The orcs win initiative" not in shown and "Written for Combat II: Phase System I." in shown
    assert "its own dice (initiative: party = 6), not this round's (initiative: party = 2)" in shown
    assert "Side 'party' wins (000 §1 A)" in shown  # Phase System I's own words on the round it drew
    box.value = "6"
    assert "The orcs win initiative" in text(view.heading.value)
