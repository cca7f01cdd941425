"""Encounter files: the shipped examples load, round-trip, and a bad field is named."""

from __future__ import annotations

import json

import pytest

from combatkit import (
    EncounterFileError, Roller, encounter_to_dict, example_encounters, find_system, load_encounter, load_example,
    loads_encounter, save_encounter,
)
from combatkit.encounter import dumps_toml


def test_examples_ship_and_schedule():
    examples = example_encounters()
    assert {"orc-closes-on-longbowman", "ct9-spell-vs-sword", "fighter-and-mage-vs-orc-archer"} <= set(examples)
    for name in examples:
        enc = load_example(name)
        system = find_system(enc.system)
        assert len(system.schedule(enc, Roller(seed=1, entered=enc.rolls))) > 0


@pytest.mark.parametrize("name", ["orc-closes-on-longbowman", "fighter-and-mage-vs-orc-archer", "ct9-spell-vs-sword"])
def test_round_trip_toml_and_json(tmp_path, name):
    enc = load_example(name)
    assert loads_encounter(dumps_toml(enc)) == enc
    for suffix in (".toml", ".json"):
        path = tmp_path / f"e{suffix}"
        save_encounter(enc, path)
        assert load_encounter(path) == enc
    json.dumps(encounter_to_dict(enc))


BASE = """
title = "t"
[[combatants]]
name = "A"
side = "x"
[[combatants]]
name = "B"
side = "y"
"""


@pytest.mark.parametrize(("extra", "field", "words"), [
    ('[[declarations]]\nactor = "A"\nphase = 1\naction = "dance"\n', "declarations[0].action", "move, attack"),
    ('[[declarations]]\nactor = "Zed"\nphase = 1\naction = "move"\n', "declarations[0].actor", "'Zed'"),
    ('[[distances]]\na = "A"\nb = "B"\nfeet = -5\n', "distances[0].feet", "-5"),
    ('[rolls]\n"initiative: x" = "three"\n', "rolls.initiative: x", "'three'"),
])
def test_bad_fields_are_named(extra, field, words):
    with pytest.raises(EncounterFileError) as err:
        loads_encounter(BASE + extra)
    assert err.value.field == field and words in str(err.value)


@pytest.mark.parametrize(("combatant", "field", "words"), [
    ("dex = 40", "combatants[0].dex", "1..25, got 40"),
    ("level = -2", "combatants[0].level", "0..40, got -2"),
    ("size = \"enormous\"", "combatants[0].size", "'enormous'"),
    ("hp = true", "combatants[0].hp", "True"),
    ("speed = 3", "combatants[0].speed", "not a field"),
    ("weapons = [{ name = \"axe\", damage = \"2x6\" }]", "combatants[0].weapons[0].damage", "'2x6'"),
    ("spells = [{ name = \"s\", ct = \"fast\" }]", "combatants[0].spells[0].ct", "'fast'"),
    ("attacks_per_round = \"0\"", "combatants[0].attacks_per_round", "more than 0"),
])
def test_bad_combatant_fields_are_named(combatant, field, words):
    text = f'title = "t"\n[[combatants]]\nname = "A"\nside = "x"\n{combatant}\n'
    with pytest.raises(EncounterFileError) as err:
        loads_encounter(text)
    assert err.value.field == field and words in str(err.value)


def test_not_toml_and_duplicate_names():
    with pytest.raises(EncounterFileError, match="not valid TOML"):
        loads_encounter("title = ")
    with pytest.raises(EncounterFileError, match="used twice"):
        loads_encounter('[[combatants]]\nname = "A"\nside = "x"\n[[combatants]]\nname = "A"\nside = "y"\n')
    with pytest.raises(EncounterFileError, match="no shipped encounter"):
        load_example("nope")
