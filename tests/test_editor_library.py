"""The encounter editor builds from the libraries (#48), headless: set the controls, then check the draft and the
encounter the view reads from it. Figures come from the books as an encounter file makes them, fully filled;
weapons and spells are picked by name; a figure is duplicated; a figure's intents are given to each of its kind."""

import tomllib
from dataclasses import replace

import pytest

from combatkit import Spell, Weapon, load_example
from combatkit.encounter_files import encounter_from_dict, loads_encounter
from combatkit.widgets.state.draft import KITS, EncounterDraft, book_names, book_spell, book_weapon
from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.views.timeline import TimelineExplorer

NEW_CONTROLS = {"books": "From the books", "books-count": "how many", "books-side": "side",
                "books-average": "average hit points", "add-from-books": "Add", "duplicate-combatant": "Duplicate",
                "weapon-pick": "", "spell-pick": "", "same-for-each": "Same for each"}
"""The editor's new controls, by class (``ck-books``), and the words each shows as its label."""


def option(dropdown, label: str):
    return dict(dropdown.options)[label]


def by_class(widget, name: str):
    """The one widget under ``widget`` with the class ``ck-<name>``."""
    found = [w for w in walk(widget) if f"ck-{name}" in getattr(w, "_dom_classes", ())]
    assert len(found) == 1, (name, found)
    return found[0]


def walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def add(edit, name: str, count: int = 1, side: str = "", average: bool = False) -> None:
    """Fill the search, the count, the side and the checkbox, then press Add."""
    edit.books.value, edit.books_count.value, edit.books_side.value = name, count, side
    edit.books_average.value = average
    edit.add_from_books.click()


@pytest.fixture
def blank() -> SystemTimeline:
    """Phase System I's page with a New encounter of its one fighter (the orc removed)."""
    viewer = SystemTimeline("phase1")
    viewer.editor.new.click()
    viewer.editor.pick("Orc")
    viewer.editor.remove_combatant.click()
    assert viewer.error == "" and [c.name for c in viewer.encounter.combatants] == ["Fighter"]
    return viewer


def figures(viewer) -> dict:
    return {c.name: c for c in viewer.encounter.combatants}


# ----------------------------------------------------------------- add from the books


def test_six_goblins_come_filled_in_from_the_monster_book_as_a_file_makes_them(blank):
    edit = blank.editor
    add(edit, "Goblin", 6)
    assert blank.error == ""
    goblins = [c for c in blank.encounter.combatants if c.char_class == "monster"]
    assert [g.name for g in goblins] == [f"Goblin {n}" for n in range(1, 7)]
    # a file's { monster = "goblin", count = 6 } with the encounter's seed (none: 0) rolls the very same figures
    from_file = encounter_from_dict({"combatants": [{"name": "Fighter", "side": "party"},
                                                    {"monster": "goblin", "count": 6}]}).combatants[1:]
    assert tuple(goblins) == from_file
    assert {(g.side, g.armor_class, g.thac0, g.movement, g.morale) for g in goblins} == {("monsters", 6, 20, 6, 6)}
    assert [w.name for w in goblins[0].weapons] == ["short sword", "spear"]
    assert len({g.hit_points for g in goblins}) > 1  # each rolled under its own key, "hit points: Goblin 3"
    # the first is shown, meaning to attack like each of them; the search is cleared and the count is one again
    assert edit.name.value == "Goblin 1" and edit.rows[0].do.value == "attack"
    assert [(i.actor, i.kind.value, i.target) for i in blank.encounter.intents] == [
        (f"Goblin {n}", "attack", None) for n in range(1, 7)]
    assert (edit.books.value, edit.books_count.value) == ("", 1)
    assert list(edit.books_side.options) == ["party", "monsters"]  # the side box offers the encounter's sides


def test_hit_points_are_rolled_from_the_encounter_s_seed_or_averaged():
    viewer = SystemTimeline("phase1", "goblin-ambush")  # seed 48: the file's goblins are the editor's
    shipped = [c for c in viewer.encounter.combatants if c.name.startswith("Goblin")]
    edit = viewer.editor
    for c in shipped:
        edit.pick(c.name)
        edit.remove_combatant.click()
    add(edit, "goblin", 6, side="goblins")
    assert [c for c in viewer.encounter.combatants if c.name.startswith("Goblin")] == shipped
    add(edit, "goblin", 2, average=True)
    assert [(c.name, c.hit_points) for c in viewer.encounter.combatants[-2:]] == [("Goblin 7", 3), ("Goblin 8", 3)]


def test_a_character_by_class_and_level_has_its_thac0_hit_points_and_kit(blank):
    edit = blank.editor
    add(edit, "cleric 3", average=True)
    add(edit, "Mage 3")
    add(edit, "fighter 5", count=2, side="heroes")
    add(edit, "fighter")
    people = figures(blank)
    cleric = people["Cleric"]
    assert (cleric.side, cleric.char_class, cleric.level, cleric.thac0, cleric.hit_points) == (
        "party", "cleric", 3, 20, 13)  # PH 2e Table 53: a priest improves at 4th; 3d8 averaged
    assert [w.name for w in cleric.weapons] == ["footman's mace"]
    assert [(s.name, str(s.casting_time)) for s in cleric.spells] == [("bless", "1 round"), ("cure light wounds", "5")]
    assert [s.name for s in people["Mage"].spells] == list(KITS["mage"].spells)
    assert [(people[n].thac0, people[n].side) for n in ("Fighter 2", "Fighter 3")] == [(16, "heroes")] * 2
    assert (people["Fighter 4"].level, people["Fighter 4"].thac0) == (1, 20)  # a class alone is 1st level
    assert list(people)[:2] == ["Fighter", "Cleric"]  # the fighter of the New encounter keeps its name
    # as a file's character with thac0 = "by class" and hp = "average" has them
    again = encounter_from_dict({"combatants": [{"name": "Cleric", "side": "party", "class": "cleric", "level": 3,
                                                 "thac0": "by class", "hp": "average", "weapons": ["mace"],
                                                 "spells": ["bless", "cure light wounds"]}]})
    assert again.combatants[0] == cleric


def test_the_search_offers_characters_of_each_class_and_the_monsters():
    names = book_names()
    assert {"fighter 3", "cleric 3", "thief 3", "mage 3"} <= set(names)
    assert {"Goblin", "Hobgoblin", "Hill giant"} <= set(names)
    assert SystemTimeline("phase1").editor.books.options == tuple(names)


@pytest.mark.parametrize("typed, said", [
    ("gobln", 'no monster "gobln" in the table; did you mean "goblin"'),
    ("fightr 3", 'no character class "fightr" in PH 2e\'s class groups; did you mean "fighter"?'),
    ("goblin 3", '"goblin 3": a monster is found by its name alone ("goblin", the count says how many)'),
    ("fighter 50", "a level is a whole number, 0..40, got 50"),
    ("   ", 'name a monster ("goblin") or a class and level ("fighter 3")'),
])
def test_a_name_the_books_lack_is_said_in_the_alert_box_and_what_was_typed_stays(blank, typed, said):
    edit = blank.editor
    before = blank.encounter
    add(edit, typed, 3, side="goblins")
    assert said in blank.error and blank.error.startswith("from the books: ")
    assert "Not applied" in blank.message.value and blank.encounter == before
    assert (edit.books.value, edit.books_count.value, edit.books_side.value) == (typed, 3, "goblins")
    assert len(edit.draft.combatants) == 1
    edit.pick("Fighter")  # the search is no combatant's: its message stays while another is shown
    assert said in blank.error
    add(edit, "goblin")
    assert blank.error == "" and "Goblin" in figures(blank)


@pytest.mark.parametrize("count", [0, 101])
def test_a_count_out_of_range_is_said_and_nothing_is_added(blank, count):
    add(blank.editor, "orc", count)
    assert f"Orc: 1..100 figures of a kind, got {count}" in blank.error
    assert blank.editor.books_count.value == count and list(figures(blank)) == ["Fighter"]


# ----------------------------------------------------------------- weapons and spells by name


def test_a_weapon_picked_by_name_is_the_book_s_row_and_another_name_a_new_weapon(blank):
    edit = blank.editor
    edit.weapon_pick.value = "Longbow"
    assert edit.weapon_pick.value == "" and blank.error == ""
    bow = figures(blank)["Fighter"].weapons[-1]
    assert (bow.name, bow.speed_factor, bow.kind.value, str(bow.rate_of_fire), bow.damage) == (
        "long bow", 8, "missile", "2", "d6")
    assert edit.weapon.value == next(reversed(edit.draft.combatants[edit.draft.find("Fighter")].weapons))
    assert edit.weapon_name.value == "long bow" and edit.weapon_sf.value == 8
    edit.weapon_pick.value = "Stinger"  # a name the table lacks: a new weapon of that name, as + makes one
    assert figures(blank)["Fighter"].weapons[-1] == Weapon("Stinger") and book_weapon("Stinger") is None
    assert edit.weapon_name.value == "Stinger"


def test_a_spell_picked_by_name_is_read_from_the_caster_s_list(blank):
    edit = blank.editor
    edit.spell_pick.value = "hold person"  # on both lists, and a fighter casts from neither
    assert '"hold person" is a wizard spell (3rd level) and a priest spell (2nd level)' in blank.error
    assert edit.spell_pick.value == "hold person" and figures(blank)["Fighter"].spells == ()
    edit.char_class.value = "cleric"
    edit.spell_pick.value = ""
    edit.spell_pick.value = "hold person"
    assert blank.error == "" and figures(blank)["Fighter"].spells[0].casting_time == 5  # the priest's
    edit.spell_pick.value = "Mira's mist"
    assert figures(blank)["Fighter"].spells[1] == Spell("Mira's mist")
    assert book_spell("sleep", "mage") == {"name": "sleep", "level": 1, "ct": 1, "components": "V,S,M"}


# ----------------------------------------------------------------- duplicate, and the same for each


def test_a_duplicate_is_numbered_for_its_kind_and_keeps_its_kit_and_intents(blank):
    edit = blank.editor
    add(edit, "thief 3")
    edit.rows[0].target.value = option(edit.rows[0].target, "Fighter")
    edit.rows[0].using.value = option(edit.rows[0].using, "short bow")
    edit.duplicate_combatant.click()
    assert edit.name.value == "Thief 2" and blank.error == ""
    thief, copy = figures(blank)["Thief"], figures(blank)["Thief 2"]
    assert copy == replace(thief, name="Thief 2")
    assert [(i.actor, i.target, i.weapons) for i in blank.encounter.intents if i.actor.startswith("Thief")] == [
        ("Thief", "Fighter", ("short bow",)), ("Thief 2", "Fighter", ("short bow",))]
    draft = edit.draft
    copied = draft.intents_of(draft.find("Thief 2"))[0]["weapons"][0]
    assert copied in draft.combatants[draft.find("Thief 2")].weapons  # the copy's own bow, not the original's
    edit.pick("Fighter")
    edit.duplicate_combatant.click()
    assert list(figures(blank))[-1] == "Fighter 2"


def test_a_figure_s_intents_go_to_each_of_its_kind(blank):
    edit = blank.editor
    assert edit.same_for_each.layout.display == "none"  # the fighter is the only one of its kind
    add(edit, "goblin", 4)
    assert edit.same_for_each.layout.display is None and edit.same_for_each.description == "Same for each Goblin (4)"
    edit.rows[0].do.value = "move"
    edit.rows[0].target.value = option(edit.rows[0].target, "Fighter")
    edit.rows[1].do.value = "attack"
    edit.rows[1].using.value = option(edit.rows[1].using, "spear")
    edit.same_for_each.click()
    assert blank.error == ""
    assert [(i.actor, i.kind.value, i.target, i.weapons) for i in blank.encounter.intents] == [
        (f"Goblin {n}", kind, "Fighter" if kind == "move" else None, ("spear",) if kind == "attack" else ())
        for n in range(1, 5) for kind in ("move", "attack")]
    # what a file's actor = "each goblin" says
    data = tomllib.loads(blank.toml) | {"intents": [{"actor": "each goblin", "do": "move", "target": "Fighter"},
                                                    {"actor": "each goblin", "do": "attack", "weapon": "spear"}]}
    assert sorted(encounter_from_dict(data).intents, key=lambda i: i.actor) == list(blank.encounter.intents)
    draft = edit.draft
    assert draft.kind_of(draft.find("Goblin 3")) == [draft.find(f"Goblin {n}") for n in range(1, 5)]


# ----------------------------------------------------------------- every view, and the page


def test_every_new_control_has_its_class_and_a_label_or_a_name():
    edit = SystemTimeline("phase1").editor
    for name, label in NEW_CONTROLS.items():
        control = by_class(edit, name)
        assert control.description.startswith(label) if label else control.placeholder
        assert control.tooltip  # what it does, on hover and as its accessible description


def test_the_dm_s_goblin_ambush_is_built_in_the_comparison_and_every_system_runs_it():
    """The issue's encounter, from a New encounter: four 3rd-level characters with their weapons and spells, six
    goblins and a hobgoblin leader, an intent each."""
    comparison = SystemComparison("orc-closes-on-longbowman")
    edit = comparison.editor
    edit.new.click()
    edit.remove_combatant.click()
    edit.remove_combatant.click()
    add(edit, "fighter 3")
    add(edit, "hobgoblin")
    edit.rows[0].target.value = option(edit.rows[0].target, "Fighter")
    add(edit, "goblin", 6)
    edit.rows[0].target.value = option(edit.rows[0].target, "Fighter")
    edit.same_for_each.click()
    add(edit, "cleric 3")
    edit.rows[0].target.value = option(edit.rows[0].target, "Goblin 1")
    add(edit, "thief 3")
    edit.rows[0].target.value = option(edit.rows[0].target, "Hobgoblin")
    edit.rows[0].using.value = option(edit.rows[0].using, "short bow")
    add(edit, "mage 3")
    edit.rows[0].do.value = "cast"  # its first spell, sleep
    edit.rows[0].target.value = option(edit.rows[0].target, "Goblin 3")
    edit.pick("Fighter")
    edit.rows[0].target.value = option(edit.rows[0].target, "Hobgoblin")
    assert comparison.error == "" and comparison.errors == {}
    assert sorted(comparison.timelines) == sorted(comparison.panels)
    encounter = comparison.encounter
    assert len(encounter.combatants) == 11 and {c.side for c in encounter.combatants} == {"party", "monsters"}
    assert [i.words() for i in encounter.intents] == [
        "attack Hobgoblin", *["attack Fighter"] * 7, "attack Goblin 1", "attack Hobgoblin with short bow",
        "cast sleep at Goblin 3"]
    assert loads_encounter(comparison.toml) == comparison.saved


def test_the_phase_one_explorer_gets_a_side_s_initiative_for_monsters_added_from_the_books():
    explorer = TimelineExplorer("fighter-and-mage-vs-orc-archer")
    add(explorer.editor, "kobold", 2)
    assert explorer.error == "" and list(explorer.initiative) == ["party", "orcs", "monsters"]
    assert {s.actor for s in explorer.timeline.spans} >= {"Kobold 1", "Kobold 2"}


def test_a_loaded_encounter_reads_back_the_same_through_the_draft_after_figures_are_added():
    draft = EncounterDraft.from_encounter(load_example("goblin-ambush"))
    before = draft.encounter()
    draft.add_from_books("ogre")
    after = draft.encounter()
    assert after.combatants[:-1] == before.combatants and after.combatants[-1].name == "Ogre"
    assert after.intents[:-1] == before.intents and after.intents[-1].actor == "Ogre"
