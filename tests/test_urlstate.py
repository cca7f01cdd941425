"""URL state without a browser: the whitelist, hostile query strings, and each dashboard's round trip."""

import pytest

from combatkit.widgets.criticals import CriticalExplorer
from combatkit.widgets.landing import dashboards, read_dashboard
from combatkit.widgets.mana import ManaCalculators
from combatkit.widgets.serve import dashboards_dir
from combatkit.widgets.timeline import TimelineExplorer
from combatkit.widgets.urlstate import MAX_QUERY, parse_query, shareable


@pytest.mark.parametrize("query, problem", [
    ("seed=1;import os", "seed: must be a whole number"),
    ("seed=1&seed=2", "seed: given more than once"),
    ("__class__=1", '"__class__" is not a setting of this dashboard'),
    ("example=../../etc/passwd", "example: must be one of"),
    ("init=1,2,3,4,5,6,7,8,9,10,11,12,13", "init: at most 12 numbers"),
    ("tie_track=WINNER", "tie_track: must be one of winner, loser"),
    ("agility_split=true", "agility_split: must be 1 (yes) or 0 (no)"),
    ("seed", "not key=value pairs"),
    ("seed=" + "9" * MAX_QUERY, f"at most {MAX_QUERY} are read"),
])
def test_a_hostile_or_malformed_query_changes_nothing_and_says_why(query, problem):
    explorer = TimelineExplorer()
    before = explorer.timeline
    view = shareable(explorer, query)
    assert problem in " ".join(parse_query(query, explorer.url_params()).problems)
    assert "default view" in view.children[0].value and view.children[0].layout.display is None
    assert explorer.timeline == before


def test_phase1_link_round_trip():
    first = TimelineExplorer()
    link = shareable(first, "example=ct9-spell-vs-sword&seed=7&init=2,9&incremental_movement=1").children[1]
    assert first.encounter.title == TimelineExplorer("ct9-spell-vs-sword").encounter.title
    assert first.options.incremental_movement
    first.initiative[list(first.initiative)[1]].value = 1  # a control change updates the link
    assert link.query == "example=ct9-spell-vs-sword&seed=7&init=2,1&incremental_movement=1"
    second = TimelineExplorer()
    shareable(second, link.query)
    assert second.timeline == first.timeline


def test_mana_link_opens_every_calculator_with_the_caster():
    first = ManaCalculators()
    link = shareable(first, "tab=recovery&class=wizard&level=9&int=17").children[1]
    assert first.selected_index == 2
    assert {c.caster_class.value.value for c in first.calculators} == {"wizard"}
    first.calculators[2].level.value = 10
    assert link.query == "tab=recovery&class=wizard&level=10&int=17"


def test_criticals_link_round_trip():
    first = CriticalExplorer()
    link = shareable(first, "rules=000-II&ac=2&str=18/50").children[1]
    first.thac0.value = 12
    second = CriticalExplorer()
    shareable(second, link.query)
    assert (second.attacker, second.defender, second.rule_set.value) == (first.attacker, first.defender, "000-II")


def test_landing_cards_come_from_each_notebook(tmp_path):
    cards = {card.path: card for card in dashboards(dashboards_dir())}
    assert cards["mana.ipynb"].title == "Mana calculators for casters (Combat II, Mana Systems I and II)"
    assert cards["mana.ipynb"].picture == "voila/files/thumbnails/mana.png"
    (tmp_path / "new.ipynb").write_text('{"cells": [{"cell_type": "markdown", "source": ["# New one\\n", '
                                        '"Shows *this*. And more."]}], "metadata": {}}')
    (tmp_path / "broken.ipynb").write_text("{not json")
    new = read_dashboard(tmp_path / "new.ipynb", tmp_path)
    assert (new.title, new.summary, new.picture[:26]) == ("New one", "Shows this.", "data:image/svg+xml;base64,")
    assert read_dashboard(tmp_path / "broken.ipynb", tmp_path).title == "Broken"
