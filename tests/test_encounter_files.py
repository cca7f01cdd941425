"""Encounter files: the shipped examples load, round-trip, and a bad field is named."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from combatkit import (
    EncounterFileError, Maneuver, Roller, encounter_to_dict, example_encounters, find_system, load_encounter, load_example,
    loads_encounter, save_encounter,
)
from combatkit.encounter_files import dumps_toml
from combatkit.errors import RulesError
from combatkit.model import Combatant, Weapon, WeaponKind


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
    ('[[declarations]]\nactor = "A"\nphase = 1\naction = "move"\nmaneuver = "charges"\n', "declarations[0].maneuver",
     "one of charge, withdraw, flee, pummel, grapple, overbear; got 'charges'"),
    ('[[declarations]]\nactor = "A"\nphase = 1\naction = "attack"\nmaneuver = "flee"\n', "declarations[0].maneuver",
     "flee is a maneuver of a move (charge, withdraw, flee); this action is 'attack'"),
])
def test_bad_fields_are_named(extra, field, words):
    with pytest.raises(EncounterFileError) as err:
        loads_encounter(BASE + extra)
    assert err.value.field == field and words in str(err.value)


def test_a_maneuver_is_a_field_read_and_written_back():
    text = BASE + '[[declarations]]\nactor = "A"\nphase = 1\naction = "move"\ntarget = "B"\nmaneuver = "charge"\n'
    encounter = loads_encounter(text)
    assert encounter.intents[0].maneuver is Maneuver.CHARGE
    assert 'maneuver = "charge"' in dumps_toml(encounter) and loads_encounter(dumps_toml(encounter)) == encounter


@pytest.mark.parametrize(("combatant", "field", "words"), [
    ("dex = 40", "combatants[0].dex", "DEX is 1..25 (PH Table 2), got 40"),
    ("level = -2", "combatants[0].level", "level is 0..40 (PH levels), got -2"),
    ("size = \"enormous\"", "combatants[0].size", "'enormous'"),
    ("hp = true", "combatants[0].hp", "True"),
    ("speed = 3", "combatants[0].speed", "not a field"),
    ("weapons = [{ name = \"axe\", damage = \"2x6\" }]", "combatants[0].weapons[0].damage", "'2x6'"),
    ("spells = [{ name = \"s\", ct = \"fast\" }]", "combatants[0].spells[0].ct", "'fast'"),
    ("attacks_per_round = \"0\"", "combatants[0].attacks_per_round", "more than 0"),
    ("attacks_per_round = 1000000000000000000", "combatants[0].attacks_per_round",
     "attacks per round are more than 0 and at most 12 (000 §2 C), got 1000000000000000000"),
    ("weapons = [{ name = \"axe\", attacks_per_round = \"25/2\" }]", "combatants[0].weapons[0].attacks_per_round",
     "attacks per round are more than 0 and at most 12 (000 §2 C), got '25/2'"),
    ("weapons = [{ name = \"dart\", kind = \"missile\", rate_of_fire = 13 }]", "combatants[0].weapons[0].rate_of_fire",
     "a rate of fire is more than 0 and at most 12 (000 §3 C), got 13"),
])
def test_bad_combatant_fields_are_named(combatant, field, words):
    text = f'title = "t"\n[[combatants]]\nname = "A"\nside = "x"\n{combatant}\n'
    with pytest.raises(EncounterFileError) as err:
        loads_encounter(text)
    assert err.value.field == field and words in str(err.value)


def test_attacks_a_round_are_bounded_by_range_wherever_they_are_given():
    """#45: 10**18 attacks a round kept a five-phase round's ``schedule`` (and the Segment of Action's) busy for
    minutes. The count is refused by its range, naming the rule, given in a file (above) or in Python; so are a
    weapon's own rate and its rate of fire, which multiply it (000 §3 C)."""
    for given in (Fraction(10**18), 13, Fraction(25, 2), 0, Fraction(-1, 2)):
        with pytest.raises(RulesError) as refused:
            Combatant("Erik", "party", attacks_per_round=given)
        assert str(refused.value) == f"Erik: attacks per round are more than 0 and at most 12, got {given} (000 §2 C)"
    with pytest.raises(RulesError, match="attacks/round is a number like 1, 2 or Fraction\\(3, 2\\), got '3/2'"):
        Combatant("Erik", "party", attacks_per_round="3/2")
    for field, rule in (("attacks_per_round", "000 §2 C"), ("rate_of_fire", "000 §3 C")):
        with pytest.raises(RulesError, match="more than 0 and at most 12, got 13") as refused:
            Weapon("dart", kind=WeaponKind.MISSILE, **{field: Fraction(13)})
        assert refused.value.rule == rule
    assert Combatant("Hydra", "foes", attacks_per_round=12).attacks_in_round(1) == 12


def test_not_toml_and_duplicate_names():
    with pytest.raises(EncounterFileError, match="not valid TOML"):
        loads_encounter("title = ")
    with pytest.raises(EncounterFileError, match="used twice"):
        loads_encounter('[[combatants]]\nname = "A"\nside = "x"\n[[combatants]]\nname = "A"\nside = "y"\n')
    with pytest.raises(EncounterFileError, match="no shipped encounter"):
        load_example("nope")


# ---------------------------------------------------------------- system options


OPTIONS = """
[options.phase2]
caster_delay_by_level = true

[options.phase1]
tie_track = "loser"
double_attack_above = 4

[options.segments]
missile_die = "d4"
guard_dice = ["d4", "d8"]
surprise_checks = ["A", "B"]
"""


def test_system_options_are_read_typed_and_written_back(tmp_path):
    from combatkit.systems import Phase1Options, SegmentsOptions
    from combatkit.timeline import Track

    encounter = loads_encounter(BASE + OPTIONS)
    assert encounter.options == {
        "phase2": {"caster_delay_by_level": True},
        "phase1": {"tie_track": Track.LOSER, "double_attack_above": 4},
        "segments": {"missile_die": "d4", "guard_dice": ("d4", "d8"), "surprise_checks": frozenset({"A", "B"})},
    }
    assert find_system("phase1").encounter_options(encounter) == Phase1Options(tie_track=Track.LOSER,
                                                                               double_attack_above=4)
    assert find_system("segments").encounter_options(encounter).guard_dice == SegmentsOptions(
        guard_dice=("d4", "d8")).guard_dice
    text = dumps_toml(encounter)
    assert "[options.phase2]\ncaster_delay_by_level = true\n" in text
    assert 'surprise_checks = [\n    "A",\n    "B",\n]' in text and 'tie_track = "loser"' in text
    assert loads_encounter(text) == encounter
    for suffix in (".toml", ".json"):
        save_encounter(encounter, tmp_path / f"e{suffix}")
        assert load_encounter(tmp_path / f"e{suffix}") == encounter
    assert "options" not in encounter_to_dict(loads_encounter(BASE))  # none given, none written


@pytest.mark.parametrize(("table", "field", "words"), [
    ("[options.phase2]\ncaster_delay_by_lvl = true", "options.phase2.caster_delay_by_lvl",
     "Combat II: Phase System II (continuous A/B/C phases) has no such option (did you mean caster_delay_by_level?); "
     "it has phases, tie_track, agility_split, caster_delay_by_level"),
    ("[options.phase2]\ncaster_delay_by_level = 1", "options.phase2.caster_delay_by_level",
     "expected true or false, got 1"),
    ('[options.phase1]\ntie_track = "middle"', "options.phase1.tie_track", "must be one of 'winner', 'loser'; got 'middle'"),
    ("[options.phase1]\ndouble_attack_above = \"4\"", "options.phase1.double_attack_above", "a whole number, got '4'"),
    ('[options.segments]\nmissile_die = "d7x"', "options.segments.missile_die", "'d7x' is not dice notation"),
    ('[options.segments]\nsurprise_checks = "A"', "options.segments.surprise_checks", "expected a list, got 'A'"),
    ('[options.segments]\nguard_dice = ["d4"]', "options.segments.guard_dice", "expected a list of 2, got ['d4']"),
    ("[options.segments]\nsurprise_checks = [1]", "options.segments.surprise_checks[0]", "expected text, got 1"),
    ("[options.phase2]\nschedules = { A = [1, 0] }", "options.phase2.schedules",
     "cannot be set in an encounter file (its kind is a table of settings by name); set it in code: "
     "Phase2Options(schedules=...)"),
    ("[options.five_phase]\ndistraction_check = 4", "options.five_phase.distraction_check",
     "cannot be set in an encounter file (its kind is Check)"),
    ("[options.phase9]\nx = 1", "options.phase9", "no timing system has the id 'phase9'; ids: five_phase, phase1"),
    ("[options]\nphase2 = 3", "options.phase2", "expected a table of Combat II: Phase System II"),
])
def test_a_bad_option_is_named_with_its_value(table, field, words):
    with pytest.raises(EncounterFileError) as err:
        loads_encounter(f'title = "t"\n{table}\n' + BASE.replace('title = "t"', ""))
    assert err.value.field == field and words in str(err.value)


def test_a_shipped_example_turns_an_option_on():
    """003 §VI weapon speed bands, turned on by the file: the dagger (SF 2) now beats the two-handed sword (SF 10)."""
    from dataclasses import replace

    from combatkit.systems import SegmentsOptions

    encounter = load_example("segments-speed-bands-dagger-vs-two-handed-sword")
    assert encounter.options == {"segments": {"speed_bands": True}}
    segments = find_system("segments")

    def order(timeline):
        return [(s.actor, s.end) for s in timeline.spans]

    own = segments.schedule(encounter)  # no options given: the file's
    assert order(own) == [("Pip", 5), ("Wulf", 6)]
    assert "The two-handed sword's speed factor 10 adds 3 segment(s) (003 §VI)" in " ".join(own.why())
    assert order(segments.schedule(encounter, options=SegmentsOptions(speed_bands=True))) == order(own)
    assert order(segments.schedule(encounter, options=SegmentsOptions())) == [("Wulf", 3), ("Pip", 5)]  # given wins
    assert order(segments.schedule(replace(encounter, options={}))) == [("Wulf", 3), ("Pip", 5)]  # the plain d10s
    assert loads_encounter(dumps_toml(encounter)) == encounter
