"""The weapon and spell libraries (#48): the Player's Handbook (2e) rows pinned to their printed values, every row
a valid weapon or spell, names found by alias and refused with the closest ones, a DM's library refused by its
field and shadowing the book's, and encounter files that name weapons and spells instead of writing them out."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from fractions import Fraction
from importlib import resources

import pytest

from combatkit import EncounterFileError, RulesError, load_encounter, load_example, loads_encounter
from combatkit.dice import Dice
from combatkit.effects import SPELL_EFFECTS, spell_effect
from combatkit.encounter_files import dumps_toml
from combatkit.kinds import Length, WeaponKind
from combatkit.library import (
    Library, LibraryFileError, LibraryNameError, SpellEntry, WeaponEntry, builtin, find, spell, spells, weapon, weapons,
)
from combatkit.model import ONE_ROUND, Spell, Weapon


def _weapon_entry(name: str) -> WeaponEntry:
    entry = find(name)
    assert isinstance(entry, WeaponEntry)
    return entry


def _spell_entry(name: str) -> SpellEntry:
    entry = find(name, "spell")
    assert isinstance(entry, SpellEntry)
    return entry


# ----------------------------------------------------------------- the book's numbers

@pytest.mark.parametrize(("name", "size", "kind_of_damage", "sf", "small_medium", "large"), [
    ("long sword", "M", "S", 5, "d8", "d12"),
    ("two-handed sword", "L", "S", 10, "d10", "3d6"),
    ("dagger", "S", "P", 2, "d4", "d3"),
    ("short sword", "S", "P", 3, "d6", "d8"),
    ("battle axe", "M", "S", 7, "d8", "d8"),
    ("footman's mace", "M", "B", 7, "d6+1", "d6"),
    ("halberd", "L", "P/S", 9, "d10", "2d6"),
    ("awl pike", "L", "P", 13, "d6", "d12"),
    ("spear", "M", "P", 6, "d6", "d8"),
    ("heavy horse lance", "L", "P", 8, "d8+1", "3d6"),
    ("jousting lance", "L", "P", 10, "d3-1", "d2-1"),
    ("bastard sword, two-handed", "M", "S", 8, "2d4", "2d8"),
    ("whip", "M", "—", 8, "d2", "1"),
])
def test_a_weapon_row_is_its_table_44_row(name, size, kind_of_damage, sf, small_medium, large):
    """PH 2e Table 44: size, type, speed factor, damage against small-medium and large."""
    entry = _weapon_entry(name)
    assert (entry.size, entry.damage_type, entry.weapon.speed_factor, entry.weapon.damage, entry.damage_large) == (
        size, kind_of_damage, sf, small_medium, large)
    assert entry.source.startswith("PH 2e Table 44")


@pytest.mark.parametrize(("name", "sf", "damage", "rate"), [
    ("short bow", 7, "d6", Fraction(2)),
    ("long bow", 8, "d6", Fraction(2)),
    ("composite short bow", 6, "d6", Fraction(2)),
    ("light crossbow", 7, "d4", Fraction(1)),
    ("heavy crossbow", 10, "d4+1", Fraction(1, 2)),
    ("hand crossbow", 5, "d3", Fraction(1)),
    ("sling", 6, "d4+1", Fraction(1)),
    ("dart", 2, "d3", Fraction(3)),
    ("arquebus", 15, "d10", Fraction(1, 3)),
])
def test_a_missile_weapon_row_has_its_table_45_rate_of_fire(name, sf, damage, rate):
    """PH 2e Tables 44 and 45: a launcher's SF, its usual missile's damage, and the rate of fire (bows 2/1, the
    heavy crossbow 1/2)."""
    w = weapon(name)
    assert (w.kind, w.speed_factor, w.damage, w.rate_of_fire) == (WeaponKind.MISSILE, sf, damage, rate)
    assert "Table 45" in _weapon_entry(name).source


def test_a_thrown_weapon_is_melee_with_its_rate_of_fire_and_is_thrown_by_its_kind():
    dagger = weapon("dagger")
    assert (dagger.kind, dagger.length, dagger.rate_of_fire) == (WeaponKind.MELEE, Length.SHORT, Fraction(2))
    thrown = weapon("dagger", kind=WeaponKind.MISSILE)
    assert (thrown.kind, thrown.rate_of_fire) == (WeaponKind.MISSILE, Fraction(2))


def test_lengths_read_size_but_for_spears_lances_and_polearms():
    """The PH prints no length: S short, M medium, L long; spears and lances very long; polearms pole arm."""
    assert [weapon(n).length for n in ("knife", "long sword", "quarterstaff", "spear", "medium horse lance", "glaive")
            ] == [Length.SHORT, Length.MEDIUM, Length.LONG, Length.VERY_LONG, Length.VERY_LONG, Length.POLE_ARM]
    by_size = {"S": Length.SHORT, "M": Length.MEDIUM, "L": Length.LONG}
    for entry in builtin().weapon_entries:
        if entry.weapon.length not in (Length.VERY_LONG, Length.POLE_ARM):
            assert entry.weapon.length is by_size[entry.size], entry.name
        elif entry.weapon.length is Length.POLE_ARM:
            assert entry.source == "PH 2e Table 44 (polearm)", entry.name


def test_ranges_are_joined_from_the_missile_ranges_file_not_copied():
    assert _weapon_entry("long bow").ranges == (70, 140, 210)
    assert _weapon_entry("dagger").ranges == (10, 20, 30)
    assert _weapon_entry("long sword").ranges is None
    missiles = [e for e in builtin().weapon_entries if e.weapon.kind is WeaponKind.MISSILE]
    assert {e.name for e in missiles if e.ranges is None} == {"arquebus", "blowgun"}  # not in the ranges file


@pytest.mark.parametrize(("name", "caster", "level", "ct", "components", "touch"), [
    ("sleep", "wizard", 1, 1, "V,S,M", False),
    ("magic missile", "wizard", 1, 1, "V,S", False),
    ("shocking grasp", "wizard", 1, 1, "V,S", True),
    ("web", "wizard", 2, 2, "V,S,M", False),
    ("fireball", "wizard", 3, 3, "V,S,M", False),
    ("Evard's black tentacles", "wizard", 4, ONE_ROUND, "V,S,M", False),
    ("cone of cold", "wizard", 5, 5, "V,S,M", False),
    ("cure light wounds", "priest", 1, 5, "V,S", True),
    ("bless", "priest", 1, ONE_ROUND, "V,S,M", False),
    ("command", "priest", 1, 1, "V", False),
    ("spiritual hammer", "priest", 2, 5, "V,S,M", False),
    ("silence, 15' radius", "priest", 2, 5, "V,S", False),
    ("flame strike", "priest", 5, 8, "V,S,M", False),
    ("hold person (wizard)", "wizard", 3, 3, "V,S,M", False),
    ("hold person (priest)", "priest", 2, 5, "V,S,M", False),
])
def test_a_spell_row_is_its_ph_header(name, caster, level, ct, components, touch):
    """PH 2e spell headers: level, casting time, components, and range "Touch"."""
    entry = _spell_entry(name)
    s = entry.spell
    assert (entry.caster, s.level, s.casting_time, s.components, s.touch) == (caster, level, ct, components, touch)
    assert entry.source.startswith(f"PH 2e, {caster} spells, {level}")


# ----------------------------------------------------------------- every row

def test_every_weapon_row_loads_as_a_valid_weapon_citing_its_table():
    entries = builtin().weapon_entries
    assert len(entries) == len(weapons()) == 62
    for entry in entries:
        assert dataclasses.replace(entry.weapon) == entry.weapon  # the weapon's own check passes again
        assert entry.weapon.kind in (WeaponKind.MELEE, WeaponKind.MISSILE), entry.name
        assert entry.size in ("S", "M", "L") and re.fullmatch(r"[SPB](/[SPB])*|—", entry.damage_type), entry.name
        assert entry.damage_large.isdigit() or Dice.parse(entry.damage_large), entry.name
        assert entry.source.startswith("PH 2e Table 44"), entry.name
        if entry.weapon.kind is WeaponKind.MISSILE or entry.weapon.rate_of_fire != 1:
            assert "rate of fire Table 45" in entry.source, entry.name


def test_every_spell_row_loads_as_a_valid_spell_on_its_list_and_level():
    ordinals = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}
    for entry in builtin().spell_entries:
        s = entry.spell
        assert dataclasses.replace(s) == s and s.effect is None, entry.name
        assert entry.caster in ("wizard", "priest"), entry.name
        assert entry.source.startswith(f"PH 2e, {entry.caster} spells, {ordinals[s.level]} level"), entry.name


def test_every_spell_with_a_shipped_effect_is_in_the_library_and_finds_its_effect():
    for key, effect in SPELL_EFFECTS.items():
        for caster_class in ("mage", "cleric"):
            s = spell(key, caster_class=caster_class)
            assert s.name.lower() == key and spell_effect(s) is effect
    for name in ("command", "color spray", "light", "darkness", "silence 15' radius", "spiritual hammer",
                 "protection from evil", "cause fear", "hold person"):  # the common ones beside them
        spell(name, caster_class="cleric")
    assert len(spells()) == 55 and len(builtin().spell_entries) == 60  # five names are on both lists


def test_the_data_files_are_what_the_library_reads():
    """One row a weapon: the file's rows and the library's entries agree one to one."""
    text = resources.files("combatkit.data").joinpath("weapons_ph2e.toml").read_text(encoding="utf-8")
    assert [row["name"] for row in tomllib.loads(text)["weapon"]] == [e.name for e in builtin().weapon_entries]


# ----------------------------------------------------------------- names

@pytest.mark.parametrize(("written", "name"), [
    ("LONG SWORD", "long sword"), ("longsword", "long sword"), ("Longbow", "long bow"), ("two handed sword",
    "two-handed sword"), ("footmans flail", "footman's flail"), ("dirk", "dagger"), ("throwing axe", "hand axe"),
    ("bastard sword", "bastard sword, one-handed"), ("bastard sword two-handed", "bastard sword, two-handed"),
])
def test_a_weapon_is_found_by_any_case_and_alias(written, name):
    assert find(written).name == weapon(written).name == name


@pytest.mark.parametrize(("written", "name"), [
    ("Magic Missile", "magic missile"), ("Melfs acid arrow", "Melf's acid arrow"), ("acid arrow", "Melf's acid arrow"),
    ("silence 15' radius", "silence, 15' radius"), ("protection from evil 10' radius", "protection from evil, 10' radius"),
])
def test_a_spell_is_found_by_any_case_and_alias(written, name):
    assert find(written, "spell", caster_class="mage").name == spell(written, caster_class="mage").name == name


def test_a_miss_is_a_rules_error_naming_the_table_and_the_closest_names():
    with pytest.raises(LibraryNameError) as miss:
        find("long swrod")
    assert isinstance(miss.value, RulesError) and miss.value.rule == "PH 2e Table 44"
    assert str(miss.value).startswith('no weapon "long swrod" in PH 2e Table 44; did you mean "long sword"')
    assert miss.value.near[0] == "long sword"
    with pytest.raises(LibraryNameError, match=r'no spell "fire bolt" in the PH 2e spell lists; did you mean'):
        spell("fire bolt")


def test_a_spell_on_both_lists_is_the_casters_lists_or_named_outright():
    assert spell("hold person", caster_class="mage").casting_time == 3
    assert spell("hold person", caster_class="Cleric").casting_time == 5
    assert spell("darkness", caster_class="druid").name == "darkness"
    assert spell("darkness", caster_class="illusionist").name == "darkness, 15' radius"
    assert spell("cure light wounds", caster_class="mage").casting_time == 5  # on one list only: that one
    with pytest.raises(LibraryNameError, match=r'write "hold person \(wizard\)" or "hold person \(priest\)"'):
        spell("hold person", caster_class="fighter")
    with pytest.raises(LibraryNameError, match="no wizard spell \"cure light wounds\".*it is a priest spell"):
        spell("cure light wounds (wizard)")


def test_fields_given_win_over_the_row():
    assert weapon("long sword", magic=2, length=Length.LONG) == Weapon("long sword", 5, magic_bonus=2,
                                                                       length=Length.LONG, damage="d8")
    assert spell("sleep", casting_time=2) == Spell("sleep", 1, 2, "V,S,M")
    with pytest.raises(RulesError, match="SF is -5..20"):
        weapon("dagger", speed_factor=40)


# ----------------------------------------------------------------- a DM's library

DM_LIBRARY = """
[[weapon]]
name = "long sword"
sf = 4
damage = "d8"
length = "long"
source = "house rule: our long swords are quicker"

[[weapon]]
name = "Stinger"
aliases = ["bilbo's sword"]
sf = 3
magic = 1
damage = "d6"
length = "short"

[[spell]]
name = "acid spray"
class = "wizard"
level = 2
ct = 1
components = "V,S"
effect = { kind = "damage", dice = "2d4", save = "half" }

[[monster]]
name = "orc"
hd = 1

[casters]
wizard = ["hedge mage"]
"""


def test_a_dms_library_shadows_the_books_and_keeps_monster_rows_as_written(tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(DM_LIBRARY, encoding="utf-8")
    lib = Library.load(path)
    assert lib.weapon("long sword") == Weapon("long sword", 4, length=Length.LONG, damage="d8")
    assert lib.weapon("dagger") == weapon("dagger")  # the book's, below
    assert lib.weapon("bilbos sword").magic_bonus == 1
    acid = lib.spell("acid spray")
    assert (acid.level, acid.casting_time, acid.effect.dice if acid.effect else None) == (2, 1, "2d4")
    assert lib.spell("hold person", caster_class="hedge mage").casting_time == 3
    assert dict(lib.monsters[0]) == {"name": "orc", "hd": 1}
    assert "Stinger" in lib.weapons() and "long sword" in lib.weapons() and len(lib.weapons()) == 63
    with pytest.raises(LibraryNameError, match='no weapon "stingr" in campaign.toml or PH 2e Table 44; did you mean '
                                               '"Stinger"'):
        lib.find("stingr")


@pytest.mark.parametrize(("rows", "field", "words"), [
    ('[[weapon]]\nname = "a"\n[[weapon]]\nname = "b"\nsf = 40\n', "weapon[1].sf", "SF is -5..20 (000 §1 E), got 40"),
    ('[[weapon]]\nname = "a"\nspeed = 4\n', "weapon[0].speed", "is not a field of a weapon"),
    ('[[weapon]]\nsf = 4\n', "weapon[0].name", "is required"),
    ('[[weapon]]\nname = "a"\nsize = "XL"\n', "weapon[0].size", "a size is S, M, L"),
    ('[[weapon]]\nname = "a"\ntype = "X"\n', "weapon[0].type", "a type is S, P, B"),
    ('[[weapon]]\nname = "a"\ndamage = "2x6"\n', "weapon[0].damage", "'2x6' is not dice notation"),
    ('[[weapon]]\nname = "a"\nkind = "thrown"\n', "weapon[0].kind", "must be one of melee, missile, natural"),
    ('[[weapon]]\nname = "a"\nrate_of_fire = "1/0"\n', "weapon[0].rate_of_fire", "expected a number"),
    ('[[weapon]]\nname = "a"\n[[weapon]]\nname = "b"\naliases = ["A"]\n', "weapon[1].aliases[0]",
     "is a name of 'a' already"),
    ('[[spell]]\nname = "s"\nct = 30\n', "spell[0].ct", "casting time is 1..20 segments"),
    ('[[spell]]\nname = "s"\nclass = "bard"\n', "spell[0].class", "the lists are wizard and priest"),
    ('[[spell]]\nname = "s"\neffect = { kind = "damage", dice = "2x4" }\n', "spell[0].effect.dice", "'2x4'"),
    ('monster = ["orc"]\n', "monster[0]", "expected a table of the monster's fields"),
    ('[[monsters]]\nname = "orc"\n', "monsters", "is not a table a library has"),
])
def test_a_bad_row_of_a_dms_library_is_refused_by_its_field(tmp_path, rows, field, words):
    path = tmp_path / "lib.toml"
    path.write_text(rows, encoding="utf-8")
    with pytest.raises(LibraryFileError) as refused:
        Library.load(path)
    assert refused.value.field == field and words in str(refused.value), str(refused.value)
    assert isinstance(refused.value, EncounterFileError)


def test_a_library_file_that_is_not_toml_is_refused_as_a_file(tmp_path):
    path = tmp_path / "lib.toml"
    path.write_text("[[weapon]\n", encoding="utf-8")
    with pytest.raises(LibraryFileError, match="lib.toml is not valid TOML") as refused:
        Library.load(path)
    assert refused.value.field == "file"
    with pytest.raises(LibraryFileError, match="cannot read"):
        Library.load(tmp_path / "missing.toml")


# ----------------------------------------------------------------- encounter files

def _combatant(text: str) -> str:
    return f'title = "t"\n[[combatants]]\nname = "Mira"\nside = "party"\nclass = "mage"\n{text}\n'


def test_a_file_names_weapons_and_spells_mixing_names_overrides_and_full_tables():
    encounter = loads_encounter(_combatant(
        'weapons = ["long sword", { name = "dagger", magic = 1 }, { name = "claw", kind = "natural", damage = "d4" }]\n'
        'spells = ["sleep", "magic missile", { name = "web", components = "V,S" }, "hold person"]'))
    mira = encounter.combatants[0]
    assert mira.weapons == (weapon("long sword"), weapon("dagger", magic=1),
                            Weapon("claw", kind=WeaponKind.NATURAL, damage="d4"))
    assert mira.spells == (spell("sleep"), spell("magic missile"), spell("web", components="V,S"),
                           spell("hold person (wizard)"))
    assert loads_encounter(dumps_toml(encounter)) == encounter


def test_a_table_with_its_own_sf_and_damage_is_written_out_and_reads_as_before_the_library():
    """A file written before the library names library weapons in tables of their own numbers; what they leave out
    takes the defaults, not the row: the shipped examples read as they did. A table giving one of the two starts
    from the library's row, and the field it gives wins (#48: a long sword of speed 4 still does d8)."""
    mira = loads_encounter(_combatant(
        'weapons = [{ name = "short bow", sf = 7, kind = "missile", damage = "d6" }, { name = "long sword", sf = 4 }]'
        '\nspells = [{ name = "cure light wounds", level = 1, ct = 5 }, { name = "sleep", ct = 2 }]')).combatants[0]
    assert mira.weapons[0].rate_of_fire == 1 and weapon("short bow").rate_of_fire == 2
    assert mira.weapons[1] == weapon("long sword", speed_factor=4) and mira.weapons[1].damage == "d8"
    assert mira.spells == (Spell("cure light wounds", 1, 5), spell("sleep", casting_time=2))
    assert spell("cure light wounds").touch and mira.spells[1].components == spell("sleep").components
    erik = load_example("five-phase-erik-the-bold")
    archer = next(c for c in erik.combatants if c.weapons and c.weapons[0].name == "short bow")
    assert archer.weapons[0] == Weapon("short bow", 7, kind=WeaponKind.MISSILE, damage="d6")
    fighter_and_mage = load_example("fighter-and-mage-vs-orc-archer")
    assert fighter_and_mage.combatants[1].weapons[0] == Weapon("dagger", 2, length=Length.SHORT, damage="d4")
    assert fighter_and_mage.combatants[1].spells[0] == Spell("web", 2, 2, "V,S,M")


def test_an_unknown_name_in_a_file_is_refused_by_its_field_with_the_closest_names():
    with pytest.raises(EncounterFileError) as refused:
        loads_encounter(_combatant('weapons = ["dagger", "long swrod"]'))
    assert refused.value.field == "combatants[0].weapons[1]"
    assert str(refused.value).startswith('combatants[0].weapons[1]: no weapon "long swrod" in PH 2e Table 44; '
                                         'did you mean "long sword"')
    fighter = 'title = "t"\n[[combatants]]\nname = "Aldric"\nside = "a"\nspells = ["hold person"]\n'
    with pytest.raises(EncounterFileError, match=r'combatants\[0\].spells\[0\]: "hold person" is a wizard spell'):
        loads_encounter(fighter)
    with pytest.raises(EncounterFileError, match=r"combatants\[0\].weapons\[0\].sf: SF is -5..20"):
        loads_encounter(_combatant('weapons = [{ name = "dagger", sf = 40 }]'))


def test_a_caster_reads_a_spell_on_both_lists_from_its_own():
    text = 'title = "t"\n[[combatants]]\nname = "Osric"\nside = "a"\nclass = "cleric"\nspells = ["hold person"]\n'
    assert loads_encounter(text).combatants[0].spells[0].casting_time == 5


def test_the_writer_writes_tables_in_full_so_they_read_back_whatever_the_library(tmp_path):
    encounter = loads_encounter(_combatant('weapons = ["long sword"]\nspells = ["sleep"]'))
    text = dumps_toml(encounter)
    assert 'sf = 5' in text and 'damage = "d8"' in text and 'level = 1' in text and 'ct = 1' in text
    (tmp_path / "campaign.toml").write_text(DM_LIBRARY, encoding="utf-8")
    (tmp_path / "e.toml").write_text('library = "campaign.toml"\n' + text, encoding="utf-8")
    assert load_encounter(tmp_path / "e.toml") == encounter  # the DM's long sword does not replace the written one


def test_a_file_names_a_dms_library_by_its_path_from_the_file(tmp_path):
    (tmp_path / "campaign.toml").write_text(DM_LIBRARY, encoding="utf-8")
    text = 'library = "campaign.toml"\n' + _combatant('weapons = ["Stinger", "long sword"]\nspells = ["acid spray"]')
    (tmp_path / "e.toml").write_text(text, encoding="utf-8")
    mira = load_encounter(tmp_path / "e.toml").combatants[0]
    assert [w.speed_factor for w in mira.weapons] == [3, 4] and mira.spells[0].effect is not None
    with pytest.raises(EncounterFileError, match="names a library file") as refused:
        loads_encounter(text)  # text with no folder to read it from
    assert refused.value.field == "library"
    (tmp_path / "campaign.toml").write_text('[[weapon]]\nname = "Stinger"\nsf = 40\n', encoding="utf-8")
    with pytest.raises(EncounterFileError, match=r"^library: campaign.toml, weapon\[0\].sf: SF is -5..20"):
        load_encounter(tmp_path / "e.toml")
