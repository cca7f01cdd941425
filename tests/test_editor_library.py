"""The encounter editor builds from the libraries (#48), headless: set the controls, then check the draft and the
encounter the view reads from it. A New encounter starts with no one; figures come from the books as an encounter
file makes them, fully filled, as many as the search or the count says, each meaning to attack its first foe;
weapons and spells are picked by name; a DM's own library file loads from the file box; a figure is duplicated; a
figure's intents are given to each of its kind."""

import tomllib
from dataclasses import replace
from datetime import datetime, timezone

import pytest

from combatkit import Spell, Weapon, load_example
from combatkit.encounter_files import encounter_from_dict, loads_encounter
from combatkit.widgets.state.draft import KITS, Books, EncounterDraft, read_search
from combatkit.widgets.views.roster import EMPTY
from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.views.timeline import TimelineExplorer

NEW_CONTROLS = {"books": "From the books", "books-count": "how many", "books-side": "side",
                "books-average": "average hit points", "library-file": "Your library",
                "duplicate-combatant": "Duplicate", "weapon-pick": "", "spell-pick": "",
                "same-for-each": "Same for each"}
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
    """Fill the count, the side and the checkbox, then the search: a search given adds, as Enter or a pick does."""
    edit.books_count.value, edit.books_side.value = count, side
    edit.books_average.value = average
    edit.books.value = name


@pytest.fixture
def blank() -> SystemTimeline:
    """Phase System I's page with a New encounter of one fighter from the books."""
    viewer = SystemTimeline("phase1")
    viewer.editor.new.click()
    add(viewer.editor, "fighter")
    assert viewer.error == "" and [c.name for c in viewer.encounter.combatants] == ["Fighter"]
    return viewer


def upload(edit, name: str, text: str) -> None:
    """Read ``text`` into the library's file box as a file called ``name``, as the page sends one (ipywidgets 8's
    FileUpload value)."""
    content = text.encode("utf-8")
    edit.library_file.value = ({"name": name, "type": "", "size": len(content), "content": memoryview(content),
                                "last_modified": datetime.now(timezone.utc)},)


CAMPAIGN = """
[[weapon]]
name = "Stinger"
sf = 3
magic = 1
damage = "d6"
length = "short"

[[spell]]
name = "acid spray"
class = "wizard"
level = 2
ct = 1
effect = { kind = "damage", dice = "2d4", save = "half" }

[[monster]]
name = "Cave troll"
aliases = ["troll of the caves"]
hit_dice = "7+7"
ac = 3
mv = 9
size = "large"
morale = "Elite (14)"
attacks = [{ name = "claw", damage = "1d6" }, { name = "bite", damage = "2d6" }]
source = "my campaign"
"""
"""A DM's library file, as docs/encounter-format.md writes one."""


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
    # the first is shown, meaning to attack like each of them their first foe, the fighter; the fighter, who had no
    # foe when it came, has the first goblin now; the search is cleared and the count is one again
    assert edit.name.value == "Goblin 1" and edit.rows[0].do.value == "attack"
    assert [(i.actor, i.kind.value, i.target) for i in blank.encounter.intents] == [
        ("Fighter", "attack", "Goblin 1"), *((f"Goblin {n}", "attack", "Fighter") for n in range(1, 7))]
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
    assert list(people)[:2] == ["Fighter", "Cleric"]  # the first fighter keeps its name
    # as a file's character with thac0 = "by class" and hp = "average" has them
    again = encounter_from_dict({"combatants": [{"name": "Cleric", "side": "party", "class": "cleric", "level": 3,
                                                 "thac0": "by class", "hp": "average", "weapons": ["mace"],
                                                 "spells": ["bless", "cure light wounds"]}]})
    assert again.combatants[0] == cleric


def test_the_search_offers_characters_of_each_class_and_the_monsters():
    names = Books().names()
    assert {"fighter 3", "cleric 3", "thief 3", "mage 3"} <= set(names)
    assert {"Goblin", "Hobgoblin", "Hill giant"} <= set(names)
    assert SystemTimeline("phase1").editor.books.options == tuple(names)


@pytest.mark.parametrize("typed, said", [
    ("gobln", 'no monster "gobln" in the table; did you mean "goblin"'),
    ("fightr 3", 'no character class "fightr" in PH 2e\'s class groups; did you mean "fighter"?'),
    ("goblin 3", '"goblin 3": a monster is found by its name alone ("goblin", the count says how many)'),
    ("fighter 50", "a level is a whole number, 0..40, got 50"),
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


def test_a_search_cleared_takes_its_message_with_it(blank):
    add(blank.editor, "gobln")
    assert 'no monster "gobln"' in blank.error
    blank.editor.books.value = ""
    assert blank.error == "" and list(figures(blank)) == ["Fighter"]


@pytest.mark.parametrize("typed, names", [
    ("6 goblins", [f"Goblin {n}" for n in range(1, 7)]),
    ("goblin x3", ["Goblin 1", "Goblin 2", "Goblin 3"]),
    ("2 x Dire Wolves", ["Dire wolf 1", "Dire wolf 2"]),
    ("hill giants", [f"Hill giant {n}" for n in range(1, 6)]),  # no count in the search: the box's
    ("2 thieves 3", ["Thief 1", "Thief 2"]),
    ("mage 3 x2", ["Mage 1", "Mage 2"]),
])
def test_how_many_is_typed_in_the_search_in_the_singular_or_the_plural(blank, typed, names):
    add(blank.editor, typed, count=5)  # a count in the search wins over the box's
    assert blank.error == "" and list(figures(blank))[1:] == names


def test_the_search_reads_a_count_before_or_after_the_name_and_a_level_after_a_class():
    assert [read_search(t) for t in ("6 goblins", "goblin x6", "goblin ×6", "6x goblin", "fighter 3", "goblin")] == [
        ("goblins", 6), ("goblin", 6), ("goblin", 6), ("goblin", 6), ("fighter 3", None), ("goblin", None)]
    assert Books().find("Wolves").name == "Wolf" and Books().find("Magic-User 3") == ("magic-user", 3)


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
    assert figures(blank)["Fighter"].weapons[-1] == Weapon("Stinger") and Books().weapon("Stinger") is None
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
    assert Books().spell("sleep", "mage") == {"name": "sleep", "level": 1, "ct": 1, "components": "V,S,M"}


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
    goblins = [i for i in blank.encounter.intents if i.actor != "Fighter"]
    assert [(i.actor, i.kind.value, i.target, i.weapons) for i in goblins] == [
        (f"Goblin {n}", kind, "Fighter" if kind == "move" else None, ("spear",) if kind == "attack" else ())
        for n in range(1, 5) for kind in ("move", "attack")]
    # what a file's actor = "each goblin" says
    data = tomllib.loads(blank.toml) | {"intents": [{"actor": "each goblin", "do": "move", "target": "Fighter"},
                                                    {"actor": "each goblin", "do": "attack", "weapon": "spear"}]}
    assert sorted(encounter_from_dict(data).intents, key=lambda i: i.actor) == goblins
    draft = edit.draft
    assert draft.kind_of(draft.find("Goblin 3")) == [draft.find(f"Goblin {n}") for n in range(1, 5)]


# ----------------------------------------------------------------- every view, and the page


def test_every_new_control_has_its_class_and_a_label_or_a_name():
    edit = SystemTimeline("phase1").editor
    for name, label in NEW_CONTROLS.items():
        control = by_class(edit, name)
        assert control.description.startswith(label) if label else control.placeholder
        assert control.tooltip  # what it does, on hover and as its accessible description


def test_the_dm_s_goblin_ambush_is_built_in_the_comparison_in_eleven_entries_and_every_system_runs_it():
    """The issue's encounter, from a New encounter: four 3rd-level characters with their weapons and spells, six
    goblins and a hobgoblin leader, an intent each; eleven entries, as the browser test counts them."""
    comparison = SystemComparison("orc-closes-on-longbowman")
    edit = comparison.editor
    edit.new.click()
    for search in ("fighter 3", "hobgoblin", "6 goblins", "cleric 3"):
        edit.books.value = search
    edit.rows[0].target.value = option(edit.rows[0].target, "Goblin 1")
    edit.books.value = "thief 3"
    edit.rows[0].using.value = option(edit.rows[0].using, "short bow")
    edit.books.value = "mage 3"
    edit.rows[0].do.value = "cast"  # its first spell, sleep, at its first foe until told
    edit.rows[0].target.value = option(edit.rows[0].target, "Goblin 3")
    assert comparison.error == "" and comparison.errors == {}
    assert sorted(comparison.timelines) == sorted(comparison.panels)
    encounter = comparison.encounter
    assert len(encounter.combatants) == 11 and {c.side for c in encounter.combatants} == {"party", "monsters"}
    assert [i.words() for i in encounter.intents] == [
        "attack Hobgoblin", *["attack Fighter"] * 7, "attack Goblin 1", "attack Hobgoblin with short bow",
        "cast sleep at Goblin 3"]
    assert [row.intents.value.count("attack Fighter") for row in edit.roster.rows] == [0] + [1] * 7 + [0] * 3
    # a character's THAC0 is its class's at its level (PH 2e Table 53): the roster and the form show it
    people = {row.fields["name"].value: row for row in edit.roster.rows}
    assert [people[n].fields["thac0"].value for n in ("Fighter", "Cleric", "Thief", "Mage")] == [18, 20, 19, 20]
    people["Fighter"].fields["level"].value = 5
    assert people["Fighter"].fields["thac0"].value == 16 and comparison.encounter.combatants[0].thac0 == 16
    edit.pick("Fighter")
    assert edit.thac0.value == 16 and edit.level.value == 5
    assert loads_encounter(comparison.toml) == comparison.saved


# ----------------------------------------------------------------- a new encounter, and whom a figure attacks


def test_a_new_encounter_has_no_one_and_says_so_until_someone_comes_from_the_books():
    viewer = SystemTimeline("segments")
    edit = viewer.editor
    edit.new.click()
    assert edit.draft.combatants == {} and edit.roster.rows == [] and edit.roster.empty.layout.display is None
    assert EMPTY in edit.roster.empty.value and edit.roster.header.layout.display == "none"
    assert "an encounter needs at least one combatant" in viewer.error
    assert viewer.editor.title.value == "New encounter" and viewer.editor.written_for.value == "segments"
    for button in (edit.remove_combatant, edit.duplicate_combatant, edit.add_weapon, edit.add_spell):
        assert button.disabled
        button.click()  # nothing to do it to: nothing happens
    edit.same_for_each.click()
    edit.hits.value = "3"
    assert edit.draft.combatants == {} and "an encounter needs at least one combatant" in viewer.error
    add(edit, "ogre")
    assert viewer.error == "" and [c.name for c in viewer.encounter.combatants] == ["Ogre"]
    assert edit.roster.empty.layout.display == "none" and len(edit.roster.rows) == 1
    assert viewer.encounter.title == "New encounter" and viewer.encounter.system == "segments"


def test_a_figure_from_the_books_attacks_its_first_foe_and_one_that_had_none_the_first_to_come(blank):
    edit = blank.editor
    add(edit, "cleric 3")
    add(edit, "thief 3")
    edit.pick("Cleric")
    edit.rows[0].do.value = "cast"  # the DM's own intent: it stays as it is
    add(edit, "hobgoblin")
    add(edit, "2 orcs")
    said = {i.actor: i.words() for i in blank.encounter.intents}
    assert said == {"Fighter": "attack Hobgoblin", "Cleric": "cast bless", "Thief": "attack Hobgoblin",
                    "Hobgoblin": "attack Fighter", "Orc 1": "attack Fighter", "Orc 2": "attack Fighter"}
    edit.pick("Thief")
    edit.rows[0].target.value = option(edit.rows[0].target, "Orc 2")
    edit.duplicate_combatant.click()  # a copy's intents are the original's
    assert {i.actor: i.target for i in blank.encounter.intents}["Thief 2"] == "Orc 2"
    assert "one added while it has no foe" in edit.roster_help.value  # the help says so


# ----------------------------------------------------------------- the roster


def test_the_roster_shows_every_figure_on_a_line_and_edits_it_in_place(blank):
    edit = blank.editor
    add(edit, "2 goblins")
    add(edit, "mage 3")
    rows = edit.roster.rows
    assert [row.fields["name"].value for row in rows] == ["Fighter", "Goblin 1", "Goblin 2", "Mage"]
    assert rows[1].fields["side"].value == "monsters" and "short sword" == rows[1].weapon["name"].value
    assert "spear" in rows[1].weapons.value and "sleep" in rows[3].spells.value
    assert "1. attack Goblin 1" in rows[3].intents.value
    assert rows[3].layout.border_left.endswith("#1a5fb4") and not rows[0].layout.border_left.endswith("#1a5fb4")
    rows[1].fields["name"].value = "Snaga"
    rows[1].fields["hp"].value = 4
    rows[1].fields["ac"].value = 5
    rows[1].fields["thac0"].value = 19
    rows[0].fields["side"].value = "heroes"
    snaga = figures(blank)["Snaga"]
    assert (snaga.hit_points, snaga.armor_class, snaga.thac0) == (4, 5, 19)
    assert figures(blank)["Fighter"].side == "heroes" and "heroes" in edit.books_side.options
    assert "attack Snaga" in rows[0].intents.value  # the intents follow a rename
    rows[1].edit.click()
    assert edit.name.value == "Snaga" and edit.hp.value == 4 and rows[1].layout.border_left.endswith("#1a5fb4")
    rows[2].duplicate.click()
    assert list(figures(blank))[-1] == "Goblin 3" and edit.name.value == "Goblin 3"
    edit.roster.rows[1].remove.click()
    assert "Snaga" not in figures(blank) and edit.name.value == "Goblin 3"  # the form keeps its figure
    assert [row.fields["name"].value for row in edit.roster.rows] == ["Fighter", "Goblin 2", "Mage", "Goblin 3"]
    edit.roster.rows[0].fields["hp"].value = -3
    assert "combatants[0].hp (Fighter): hit points are 0 or more, got -3" in blank.error
    assert edit.roster.rows[0].fields["hp"].value == -3  # what was typed stays


# ----------------------------------------------------------------- a DM's own library


def test_a_dm_s_library_file_loads_and_the_books_find_its_monsters_weapons_and_spells(blank):
    edit = blank.editor
    upload(edit, "my-campaign.toml", CAMPAIGN)
    assert blank.error == "" and edit.library_file.value == ()
    assert "my-campaign.toml: 1 monster, 1 weapon, 1 spell" in edit.library_status.value
    assert edit.books.options[0] == "Cave troll" and "Stinger" in edit.weapon_pick.options
    assert "acid spray" in edit.spell_pick.options and "long sword" in edit.weapon_pick.options  # the books too
    add(edit, "2 cave trolls")
    trolls = [c for c in blank.encounter.combatants if c.name.startswith("Cave troll")]
    assert [(t.name, t.armor_class, t.movement, t.level) for t in trolls] == [("Cave troll 1", 3, 9, 8),
                                                                              ("Cave troll 2", 3, 9, 8)]
    assert [w.name for w in trolls[0].weapons] == ["claw", "bite"]
    add(edit, "troll of the caves")
    assert list(figures(blank))[-1] == "Cave troll 3"
    edit.pick("Fighter")
    edit.weapon_pick.value = "stinger"
    stinger = figures(blank)["Fighter"].weapons[-1]
    assert (stinger.name, stinger.speed_factor, stinger.magic_bonus, stinger.damage) == ("Stinger", 3, 1, "d6")
    edit.char_class.value = "mage"
    edit.spell_pick.value = "Acid Spray"
    spray = figures(blank)["Fighter"].spells[-1]
    assert (spray.name, spray.level, spray.casting_time, spray.effect.dice) == ("acid spray", 2, 1, "2d4")
    saved = loads_encounter(blank.toml)  # written out in full: the file reads back without the library
    assert saved.combatant("Fighter").spells[-1] == spray and saved.combatant("Cave troll 1") == trolls[0]


@pytest.mark.parametrize("text, said", [
    (CAMPAIGN.replace("sf = 3", "sf = 40"),
     "library: my-campaign.toml, weapon[0].sf: SF is -5..20 (000 §1 E), got 40"),
    (CAMPAIGN.replace('hit_dice = "7+7"', 'hit_dice = "seven"'),
     "library: my-campaign.toml, monster[0].hit_dice (Cave troll): "),
    (CAMPAIGN.replace("level = 2", "level = 12"), "library: my-campaign.toml, spell[0].level: spell level is 0..9"),
    ("[[weapon]\nname =", "library: my-campaign.toml is not valid TOML"),
    ("[[ogre]]\nname = 'x'", "library: my-campaign.toml, ogre: is not a table a library has"),
])
def test_a_bad_library_file_is_refused_by_its_field_and_nothing_typed_is_lost(blank, text, said):
    edit = blank.editor
    add(edit, "goblin")
    edit.books_count.value, edit.books_side.value = 4, "goblins"
    before = blank.encounter
    upload(edit, "my-campaign.toml", text)
    assert said in blank.error and "(not loaded: the books are as they were)" in blank.error
    assert "Not applied" in blank.message.value and blank.encounter == before
    assert (edit.books_count.value, edit.books_side.value) == (4, "goblins")
    assert "Cave troll" not in edit.books.options and edit.library_status.value == ""
    add(edit, "cave troll", 4, side="goblins")  # the books are the books alone
    assert 'no monster "cave troll"' in blank.error and blank.encounter == before
    edit.books.value = ""
    edit.pick("Goblin")  # the file's message is no figure's: it stays until a good file comes
    assert said in blank.error
    upload(edit, "my-campaign.toml", CAMPAIGN)
    assert blank.error == "" and "Cave troll" in edit.books.options


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
