"""The roster table (#48), headless: every figure of a draft on a line under a header, its declared fields and first
weapon in boxes, its other weapons, spells and intents in words; a line kept while its figure is there; what is typed
reported to the owner, never written by the table itself."""

import html
import re

import pytest

from combatkit import load_example
from combatkit.fields import declared
from combatkit.model import Abilities, Combatant
from combatkit.widgets.state.draft import EncounterDraft
from combatkit.widgets.views.roster import EMPTY, ROW_FIELDS, WEAPON_FIELDS, CombatantRow, RosterTable, intent_words

EXAMPLE = "strike-speed-ogre-and-goblin"  # five figures: a spear, a club, a caster with no weapon, a bow


class Recorder:
    """A roster's owner that only notes what it is told."""

    def __init__(self) -> None:
        self.told: list[tuple] = []

    def table(self) -> RosterTable:
        return RosterTable(on_field=lambda *e: self.told.append(("field", *e)),
                           on_weapon=lambda *e: self.told.append(("weapon", *e)),
                           on_edit=lambda i: self.told.append(("edit", i)),
                           on_duplicate=lambda i: self.told.append(("duplicate", i)),
                           on_remove=lambda i: self.told.append(("remove", i)))


@pytest.fixture
def shown():
    """A table showing the example's draft, with what it reports."""
    owner = Recorder()
    table = owner.table()
    draft = EncounterDraft.from_encounter(load_example(EXAMPLE))
    table.show(draft)
    return table, draft, owner


def html_text(widget) -> str:
    """The text an HTML cell shows: tags dropped, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", widget.value)).split())


def test_the_columns_are_the_declared_roster_fields_with_the_class_before_the_level_then_the_first_weapon():
    roster = sorted((d for d in declared(Combatant, Abilities) if d.spec.roster), key=lambda d: d.spec.roster)
    assert [d.spec.file for d in ROW_FIELDS] == [d.spec.file for d in roster]
    assert [d.spec.file for d in WEAPON_FIELDS] == ["name", "sf", "damage"]
    table = RosterTable()
    assert [html_text(cell) for cell in table.header.children] == [
        "", "", "",  # over each line's buttons
        "name", "side", "class", "level", "HP", "AC", "THAC0", "DEX", "MV", "first weapon", "SF", "damage",
        "other weapons", "spells", "means to do"]


def test_every_figure_has_its_line_with_its_whole_line_shown(shown):
    table, draft, _ = shown
    assert [row.fields["name"].value for row in table.rows] == ["Sir Tamsin", "Pike", "Wenna", "Grol", "Snitch"]
    assert list(table.lines.children) == table.rows and table.empty.layout.display == "none"
    snitch = table.rows[4]
    assert {k: c.value for k, c in snitch.fields.items()} == {
        "name": "Snitch", "side": "monsters", "level": 1, "hp": 4, "ac": 6, "thac0": 19, "dex": 10, "mv": 12}
    assert html_text(snitch.char_class) == "monster" and snitch.weapon["name"].value == "short bow"
    assert html_text(snitch.weapons) == "—"  # its first weapon alone: no other
    assert html_text(table.rows[2].spells) == "magic missile"
    assert [html_text(row.intents) for row in table.rows] == [
        "1. move toward Grol 5' 2. attack Grol", "1. attack Grol", "1. cast magic missile at Grol",
        "1. attack Sir Tamsin", "1. attack Wenna"]  # each intent on a line of its own, in order


def test_the_lines_are_kept_and_refilled_in_order_never_closed(shown):
    table, draft, owner = shown
    first = list(table.rows)
    tamsin, pike = first[0].ident, first[1].ident
    draft.combatants[pike].fields["hp"] = 3
    draft.add_weapon(pike, {"name": "dagger"})
    draft.remove_combatant(tamsin)
    table.show(draft, current=pike)
    assert table.rows == first[:4] and table.rows[0].ident == pike  # the first line shows Pike now
    assert table.rows[0].fields["name"].value == "Pike" and table.rows[0].fields["hp"].value == 3
    assert html_text(table.rows[0].weapons) == "dagger"  # its other weapons, by name
    assert first[4].comm is not None and first[4] not in table.lines.children  # kept, out of the table, for the next
    added = draft.add_from_books("kobold")
    table.show(draft, current=pike)
    assert table.rows == first and table.rows[-1].ident == added[0]  # the line kept serves the next figure
    assert table.rows[-1].fields["name"].value == "Kobold"
    assert [row.layout.border_left.endswith("#1a5fb4") for row in table.rows] == [True, False, False, False, False]
    table.rows[-1].fields["hp"].value = 2
    assert owner.told == [("field", added[0], "hp", 2)]  # an edit names the figure the line shows now


def test_a_figure_with_no_weapon_shows_blank_boxes_and_its_weapon_s_once_it_has_one(shown):
    table, draft, owner = shown
    wenna = table.rows[2]
    assert not wenna.armed and wenna.weapon is wenna.boxes[False]
    assert {k: (c.value, c.placeholder) for k, c in wenna.weapon.items()} == {
        "name": ("", "fists"), "sf": ("", "by size"), "damage": ("", "d2")}
    assert all(box.layout.display == "none" for box in wenna.boxes[True].values())
    assert all("ck-c-unarmed" in box._dom_classes for box in wenna.weapon.values())  # for a browser test
    wenna.weapon["sf"].value = "3"  # a whole number typed in a blank box is a number
    wenna.weapon["damage"].value = "1d3"
    wenna.weapon["damage"].value = ""  # cleared: nothing typed
    assert owner.told == [("weapon", wenna.ident, "sf", 3), ("weapon", wenna.ident, "damage", "1d3"),
                          ("weapon", wenna.ident, "damage", None)]
    draft.set_first_weapon(wenna.ident, "name", "dagger")
    table.show(draft)
    assert table.rows[2] is wenna and wenna.armed and wenna.weapon is wenna.boxes[True]
    assert wenna.weapon["name"].value == "dagger" and wenna.weapon["sf"].value == 5  # the default, in a number box
    assert all(box.layout.display == "none" for box in wenna.boxes[False].values())
    assert wenna.boxes[False]["sf"].value == ""  # blank again, for a figure with none
    wenna.weapon["name"].value = ""  # a weapon's box cleared is reported as typed
    assert owner.told[-1] == ("weapon", wenna.ident, "name", "")


def test_what_is_typed_and_pressed_on_a_line_is_reported_with_its_figure(shown):
    table, draft, owner = shown
    grol = table.rows[3]
    grol.fields["hp"].value = 30
    grol.fields["side"].value = "ogres"
    grol.weapon["sf"].value = 6
    for button in (grol.edit, grol.duplicate, grol.remove):
        button.click()
    assert owner.told == [("field", grol.ident, "hp", 30), ("field", grol.ident, "side", "ogres"),
                          ("weapon", grol.ident, "sf", 6), ("edit", grol.ident), ("duplicate", grol.ident),
                          ("remove", grol.ident)]
    assert draft.combatants[grol.ident].fields["hp"] == 26  # the table writes nothing itself


def test_an_empty_draft_says_how_to_fill_it():
    table = RosterTable()
    assert table.empty.layout.display is None and table.header.layout.display == "none"
    table.show(EncounterDraft({}, {}))
    assert table.rows == [] and EMPTY in table.empty.value and table.header.layout.display == "none"
    draft = EncounterDraft({}, {})
    draft.add_from_books("fighter 3")
    table.show(draft)
    assert len(table.rows) == 1 and table.empty.layout.display == "none" and table.header.layout.display is None


def test_intents_in_words_even_those_the_engine_would_refuse():
    draft = EncounterDraft.from_encounter(load_example("orc-closes-on-longbowman"))
    aldric, grishnak = list(draft.combatants)
    assert intent_words(draft) == {aldric: ["attack Grishnak"], grishnak: ["move toward Aldric", "attack Aldric"]}
    moving = draft.intents_of(grishnak)[0]
    del moving["target"]
    moving["away"] = True  # away from no one: the engine refuses it, the roster says what it does
    assert intent_words(draft)[grishnak] == ["move", "attack Aldric"]


def test_every_control_has_a_name_for_a_reader_and_a_class(shown):
    table, _, _ = shown
    for row in table.rows:
        for control in row.controls:
            assert control.tooltip, control
            assert any(c.startswith("ck-c-") for c in control._dom_classes)
    assert "ck-roster" in table._dom_classes and all("ck-combatant-row" in row._dom_classes for row in table.rows)


def test_a_line_is_made_from_a_figure_alone():
    draft = EncounterDraft.from_encounter(load_example(EXAMPLE))
    ident, combatant = next(iter(draft.combatants.items()))
    row = CombatantRow(ident, combatant, ["attack Grol with spear"])
    assert row.ident == ident and row.armed and row.weapon["name"].value == "long sword"
    assert row.fields["name"].value == "Sir Tamsin" and "attack Grol" in html_text(row.intents)
