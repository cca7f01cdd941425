"""What every timing system shares (combatkit.systems.base.TimingSystem): the encounter's own
dice when no roller is given, the seed's options by default, no entered number ignored, its yes/no
options stated with their docs, and the notes that name its own actions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from combatkit import ActionKind, Maneuver, Roller, load_example
from combatkit.dice import UnknownRollError
from combatkit.encounter_files import example_encounters
from combatkit.errors import RulesError
from combatkit.fight import run_fight
from combatkit.resolution import play_round
from combatkit.systems import SYSTEMS, Switch, TimingSystem, find_system
from combatkit.systems.base import TableRoller

EXAMPLES = sorted(example_encounters())
WITH_ROLLS = [name for name in EXAMPLES if load_example(name).rolls]


def spans(timeline):
    return [(s.actor, s.kind, s.start, s.end, s.status) for s in timeline.spans]


@pytest.mark.parametrize("name", EXAMPLES)
def test_schedule_without_a_roller_uses_the_encounters_rolls_and_seed(name):
    """The seed rolls what is not entered by purpose (TableRoller), as the pages do (#45)."""
    encounter = load_example(name)
    system = find_system(encounter.system)
    seed = encounter.seed if encounter.seed is not None else 0
    given = system.schedule(encounter, TableRoller(seed=seed, entered=encounter.rolls))
    own = system.schedule(encounter)
    assert spans(own) == spans(given)
    assert [(r.purpose, r.total, r.entered) for r in own.rolls] == [(r.purpose, r.total, r.entered) for r in given.rolls]
    assert {r.purpose for r in own.rolls if r.entered} == set(encounter.rolls) & {r.purpose for r in own.rolls}


@pytest.mark.parametrize("sid", sorted(SYSTEMS))
def test_declarations_given_out_of_phase_order_are_scheduled_in_it(sid):
    # TimingSystem._schedule reads them in phase order, each phase's as given: schedule puts them so
    system = find_system(sid)
    reordered = 0
    for name in EXAMPLES:
        encounter = load_example(name)
        declared = system.plan(encounter).declarations
        ordered = replace(encounter, intents=(), refinements=(),
                          declarations=tuple(sorted(declared, key=lambda d: d.phase)))
        backwards = tuple(sorted(declared, key=lambda d: -d.phase))
        reordered += backwards != ordered.declarations
        given = system.schedule(replace(ordered, declarations=backwards), Roller(seed=3))
        assert spans(given) == spans(system.schedule(ordered, Roller(seed=3))), name
    assert reordered >= 9


@pytest.mark.parametrize("name", WITH_ROLLS)
def test_a_misspelled_roll_key_is_refused_naming_the_keys(name):
    """A number entered under a key no roll is called must never be ignored silently (issue #11)."""
    encounter = load_example(name)
    key, value = next(iter(encounter.rolls.items()))
    typo = key.replace(":", ";", 1)
    bad = replace(encounter, rolls={**{k: v for k, v in encounter.rolls.items() if k != key}, typo: value})
    system = find_system(encounter.system)
    with pytest.raises(UnknownRollError) as error:
        system.schedule(bad)
    message = str(error.value)
    assert repr(typo) in message and f"did you mean {key!r}" in message
    assert system.title in message and repr(system.roll_keys[0]) in message
    with pytest.raises(UnknownRollError):
        system.schedule(encounter, Roller(seed=1, entered=bad.rolls))
    with pytest.raises(UnknownRollError):
        play_round(bad)
    with pytest.raises(UnknownRollError):
        run_fight(bad, seed=1, explain=False)
    assert isinstance(error.value, ValueError)


def test_a_roll_the_round_does_not_reach_is_still_a_known_key():
    """000 §3: a referee may enter initiative for a cycle the round never reaches."""
    encounter = load_example("phase2-tenth-level-caster")
    assert "initiative: party, cycle 3" in encounter.rolls
    later = replace(encounter, rolls={**encounter.rolls, "initiative: party, cycle 9": 4})
    find_system("phase2").schedule(later)
    with pytest.raises(UnknownRollError, match="'initiative: <side>, cycle <n>'"):
        find_system("phase2").schedule(replace(encounter, rolls={"initiative: nobody, cycle 2": 4}))


def test_schedule_can_leave_the_check_to_a_later_step():
    encounter = load_example("orc-closes-on-longbowman")
    rolls = {**encounter.rolls, "attack roll: Aldric [round 1, tick 4]": 20}
    find_system("phase1").schedule(encounter, Roller(seed=1, entered=rolls), check_rolls=False)
    with pytest.raises(UnknownRollError):
        find_system("phase1").schedule(encounter, Roller(seed=1, entered=rolls))
    play_round(replace(encounter, rolls=rolls))  # resolution asks for it: known


@pytest.mark.parametrize("sid", sorted(SYSTEMS))
def test_options_default_to_the_seeds_and_another_systems_are_refused(sid):
    system = SYSTEMS[sid]
    assert system.options(None) == system.options_class()
    other = next(s for s in SYSTEMS.values() if s.options_class is not system.options_class)
    with pytest.raises(RulesError, match=f"takes {system.options_class.__name__}, got {other.options_class.__name__}"):
        system.options(other.options_class())
    assert system.roll_keys and repr(system) == f"find_system({sid!r})"


def test_switches_are_the_bool_options_with_the_docstring_under_each():
    phase1 = find_system("phase1").switches()
    assert [s.name for s in phase1] == ["phase2_literal_sf_band", "agility_split", "sf_uses_agility",
                                        "incremental_movement"]  # not tie_track: a Track, not a yes/no
    assert phase1[1] == Switch("agility_split", False,
                               "AGI/DEX split (000 Part 4): AGI's Reaction Adjustment sets the track, DEX's lowers SF.")
    assert [s.name for s in find_system("phase2").switches()] == ["agility_split", "caster_delay_by_level",
                                                                  "attack_forms"]
    assert [(s.name, s.default) for s in find_system("short_form").switches()][:2] == [("surprise_check", True),
                                                                                        ("tie_weapon_speed", False)]
    assert find_system("phase2").switches() is find_system("phase2").switches()  # read once


@pytest.mark.parametrize("sid", sorted(SYSTEMS))
def test_every_switch_is_a_bool_field_with_its_default_and_a_doc(sid):
    system = SYSTEMS[sid]
    defaults = system.options_class()
    assert system.switches()
    for switch in system.switches():
        assert getattr(defaults, switch.name) is switch.default
        assert switch.doc and "\n" not in switch.doc


def test_a_switch_whose_source_cannot_be_read_has_no_doc():
    namespace: dict = {}
    exec("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Made:\n    on: bool = True\n"
         "    '''Never read.'''\n    n: int = 2\n", namespace)
    system = type("Made", (TimingSystem,), {"id": "made", "options_class": namespace["Made"]})()
    assert system.switches() == (Switch("on", True, ""),)


def test_five_phase_suggests_001_s_list_of_actions_by_the_words_it_reads():
    five = find_system("five_phase")
    assert five.note_suggestions(ActionKind.MOVE) == ["shift", "half-move", "full move", "take cover"]
    by_maneuver = {m: five.note_suggestions(ActionKind.MOVE, m) for m in (Maneuver.CHARGE, Maneuver.WITHDRAW, Maneuver.FLEE)}
    assert by_maneuver == {Maneuver.CHARGE: ["charge", "counter-charge"], Maneuver.WITHDRAW: ["withdrawal", "retreat"],
                           Maneuver.FLEE: ["flight", "break & run"]}  # a maneuver's own entries of 001's list
    assert five.note_suggestions(ActionKind.ATTACK, Maneuver.GRAPPLE) == ["unarmed/body attack"]
    assert five.note_suggestions(ActionKind.READY) == ["set to receive charge"]  # 001 Movement
    assert five.note_suggestions(ActionKind.CAST) == ["by caster", "by scroll", "by item"]
    misc = five.note_suggestions(ActionKind.MISC)
    assert misc[:3] == ["guard", "parley", "spectacle"] and "draw & ready" in misc and len(misc) == len(set(misc))


def test_strike_speed_suggests_004_s_rows_picked_by_words_for_blows_and_spells_only():
    strike = find_system("strike_speed")
    rows = ["read scroll", "missile fire/arcane blast", "breath weapon", "glance"]
    assert strike.note_suggestions(ActionKind.ATTACK) == strike.note_suggestions(ActionKind.CAST) == rows
    assert strike.note_suggestions(ActionKind.MOVE) == strike.note_suggestions(ActionKind.MISC) == []


def test_short_form_suggests_002_s_action_type_examples_for_a_miscellaneous_action():
    short = find_system("short_form")
    misc = short.note_suggestions(ActionKind.MISC)
    assert misc[:2] == ["use non-weapon proficiency", "administer a potion"] and "drink a potion" in misc
    assert short.note_suggestions(ActionKind.ATTACK) == []


@pytest.mark.parametrize("sid", ["phase1", "phase2", "segments"])
def test_a_system_that_reads_the_note_as_free_text_suggests_nothing(sid):
    assert all(SYSTEMS[sid].note_suggestions(kind) == [] for kind in ActionKind)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_sides_a_scheduler_reads_are_the_encounters_in_order_of_first_appearance(name):
    """base.sides_of, what the schedulers read every round, is Encounter.sides (a Python property)."""
    from combatkit.systems.base import sides_of

    encounter = load_example(name)
    assert sides_of(encounter) == encounter.sides


def test_each_side_is_held_to_the_best_of_the_other_sides_rolls():
    """000 §1 A, §3 A: a d10 a side, low wins; a side is held to the lowest roll of the others, and a side alone has
    no opposing roll."""
    from combatkit.systems.base import opposing_best

    assert opposing_best({"party": 4, "orcs": 7, "wolves": 2}) == {"party": 2, "orcs": 2, "wolves": 4}
    assert opposing_best({"party": 5, "orcs": 5}) == {"party": 5, "orcs": 5}
    assert opposing_best({"party": 3}) == {}


def a_declaration_with_a_target(system):
    """The first shipped example the system plans a targeted declaration in, and that declaration."""
    return next((e, d) for e in map(load_example, EXAMPLES)
                for d in system.plan(e).declarations if d.target is not None)


@pytest.mark.parametrize("sid", sorted(SYSTEMS))
@pytest.mark.parametrize("field", ["actor", "target"])
def test_a_declaration_naming_a_figure_not_in_the_encounter_is_refused_naming_it(sid, field):
    system = find_system(sid)
    encounter, declared = a_declaration_with_a_target(system)
    stray = replace(declared, **{field: "Nobody"})
    said = "a declaration names 'Nobody'" if field == "actor" else f"{declared.actor} targets 'Nobody'"
    with pytest.raises(RulesError, match=fr"^{said}, who is not in the encounter \(encounter\)$"):
        system.schedule(replace(encounter, intents=(), refinements=(), declarations=(stray,)), Roller(seed=1))


@pytest.mark.parametrize("sid", sorted(SYSTEMS))
@pytest.mark.parametrize("phase", [0, -1])
def test_every_system_refuses_a_declaration_before_its_first_phase_naming_it(sid, phase):
    """A declaration's phase is each system's to read: a phase of its clock (000, 001), or the order of a figure's
    steps (003) or actions (002, 004). Numbered from 1 in every one: the short form and Strike Speed played action 0
    and -1 as firsts."""
    system = find_system(sid)
    encounter, declared = a_declaration_with_a_target(system)
    early = replace(encounter, intents=(), refinements=(), declarations=(replace(declared, phase=phase),))
    with pytest.raises(RulesError, match=rf"got (phase )?{phase} \(\d{{3}} .+\)$"):
        system.schedule(early, Roller(seed=1))
