"""One encounter, six systems: intents written once, placed by each system in its own terms (#15).

The shipped examples are written as intents; the older format (declarations in one system's phases)
still loads, its declarations becoming intents and that system's refinements.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from combatkit import (
    ActionKind,
    Combatant,
    Declaration,
    Encounter,
    EncounterFileError,
    RulesError,
    Spell,
    Weapon,
    WeaponKind,
    find_system,
    load_encounter,
    load_example,
    loads_encounter,
)
from combatkit.battle import figures_from
from combatkit.encounter_files import _declaration, dumps_toml, encounter_to_dict, example_encounters
from combatkit.fight import FightOptions, run_fight
from combatkit.intent import COMPONENTS, Intent, IntentKind, PlacementKind, Refinement, derive, named_actions
from combatkit.model import Length, Maneuver, Size
from combatkit.policy import PolicyOptions, intents
from combatkit.resolution import EventKind
from combatkit.systems import SYSTEMS

EXAMPLES = sorted(example_encounters())
LEGACY = sorted((Path(__file__).parent / "data" / "legacy").glob("*.toml"))


def rows(timeline) -> list[dict]:
    """The timeline's rows without how each intent was placed (a round given as declarations says nothing)."""
    return [{k: v for k, v in row.items() if k != "placed"} for row in timeline.rows()]


def pair(encounter: Encounter) -> tuple[str, str]:
    """The first intent aimed at a figure of another side: (actor, target)."""
    side = {c.name: c.side for c in encounter.combatants}
    return next((i.actor, i.target) for i in encounter.intents if i.target and side[i.target] != side[i.actor])


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("sid", sorted(SYSTEMS))
def test_every_example_schedules_fights_and_has_odds_under_every_system(name, sid):
    encounter = load_example(name)
    system = find_system(sid)
    timeline = system.schedule(encounter)
    assert timeline.spans and timeline.plan is not None
    fight = run_fight(encounter, sid, seed=1)
    assert fight.round_count >= 1 and fight.rounds[0].timeline.plan is not None
    assert fight.refused == 0  # every system places what the default policy means to do
    a, b = pair(encounter)
    odds = system.odds(encounter, a, b)
    assert sum(odds[k] for k in ("a first", "simultaneous", "b first", "neither")) == 1


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("sid", sorted(SYSTEMS))
def test_why_says_how_each_intent_was_placed(name, sid):
    encounter = load_example(name)
    timeline = find_system(sid).schedule(encounter)
    placements = timeline.plan.placements
    assert [(p.actor, p.step) for p in placements] == [
        (c.name, n + 1) for c in encounter.combatants
        for n in range(len([i for i in encounter.intents if i.actor == c.name]))]
    why = timeline.why()
    for p in placements:
        assert p.rule and p.why.startswith(p.actor) and p.line() in why
        if p.kind is PlacementKind.DEFERRED:
            assert not p.declarations
    own = find_system(encounter.system)
    if own.id != sid and any(r.system == own.id for r in encounter.refinements):
        assert any(f"{find_system(sid).title} ignores them" in line for line in why)
    placed = [s for s in timeline.spans if s.placed]
    assert placed and all(s.placed in {p.line() for p in placements} for s in placed)


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.stem)
def test_a_file_in_the_older_format_plans_to_its_own_declarations_and_runs_under_all_six(path):
    """Declarations written for one system become intents and that system's refinements; under that system the
    plan is the very declarations of the file, and every other system places the intents its own way."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    encounter = load_encounter(path)
    names = {c.name: c for c in encounter.combatants}
    given = [_declaration(d, f"declarations[{i}]", set(names), names) for i, d in enumerate(raw["declarations"])]
    assert not encounter.declarations and encounter.intents
    own = find_system(encounter.system)
    assert sorted(map(repr, own.plan(encounter).declarations)) == sorted(map(repr, given))
    assert rows(own.schedule(encounter)) == rows(own.schedule(replace(
        encounter, intents=(), refinements=(), declarations=tuple(given))))
    for system in SYSTEMS.values():
        system.schedule(encounter)
        run_fight(encounter, system.id, seed=2)


def test_the_shipped_examples_are_the_older_files_placed_the_same_way():
    for path in LEGACY:
        old, new = load_encounter(path), load_example(path.stem)
        own = find_system(new.system)
        assert rows(own.schedule(old)) == rows(own.schedule(new)), path.stem


def test_derive_makes_one_intent_per_action_and_keeps_the_system_s_fields():
    declarations = (
        Declaration("Erik", 2, ActionKind.ATTACK, target="Orc"),
        Declaration("Erik", 4, ActionKind.ATTACK, target="Orc"),
        Declaration("Mira", 1, ActionKind.MISC, readies_components=True),
        Declaration("Mira", 2, ActionKind.CAST, target="Orc", spell="web", hold=2),
        Declaration("Ugluk", 3, ActionKind.MISC, note="drops the bow and draws the short sword"),
        Declaration("Ugluk", 4, ActionKind.MISC, note="drinks the potion"),
        Declaration("Ugluk", 5, ActionKind.MISC, note="sings a song"),
        Declaration("Pike", 1, ActionKind.READY, target="Orc"),
    )
    intents, refinements = derive(declarations, "phase2", {"Ugluk": ["short bow", "short sword"]})
    assert [(i.actor, i.kind.value, i.blows, i.item, i.action, i.note) for i in intents] == [
        ("Erik", "attack", 2, None, None, ""),
        ("Mira", "ready", None, COMPONENTS, None, ""),
        ("Mira", "cast", None, None, None, ""),
        ("Ugluk", "ready", None, "short sword", None, ""),
        ("Ugluk", "action", None, None, "drink_potion", ""),
        ("Ugluk", "action", None, None, None, "sings a song"),
        ("Pike", "hold", None, None, None, ""),
    ]
    assert [(r.actor, r.step, r.phases) for r in refinements] == [
        ("Erik", 1, (2, 4)), ("Mira", 1, (1,)), ("Mira", 2, (2,)), ("Ugluk", 1, (3,)), ("Ugluk", 2, (4,)),
        ("Ugluk", 3, (5,)), ("Pike", 1, (1,))]
    assert refinements[2].hold == 2 and refinements[1].readies_components


def test_a_refinement_is_followed_by_its_system_and_ignored_by_the_others_who_say_so():
    encounter = load_example("orc-closes-on-longbowman")
    phase1 = find_system("phase1").plan(encounter)
    grishnak = phase1.for_actor("Grishnak")
    assert grishnak[1].kind is PlacementKind.REFINED and grishnak[1].declarations[0].reposition
    segments = find_system("segments").schedule(encounter)
    assert not any(d.reposition for d in segments.plan.declarations)
    assert any("Grishnak's attack Aldric (phase 2, reposition, note covers the last 10' with a repositioning "
               "step)" in line and "Segment of Action (Lakofka, 1980) ignores them" in line for line in segments.why())


def test_a_refinement_of_an_intent_the_figure_does_not_have_is_refused():
    encounter = load_example("orc-closes-on-longbowman")
    bad = replace(encounter, refinements=(Refinement("phase1", "Aldric", 3, phases=(2,)),))
    with pytest.raises(RulesError, match="refines intent 3, but Aldric has 1 intent"):
        find_system("phase1").schedule(bad)
    text = dumps_toml(encounter).replace("step = 2", "step = 9")
    with pytest.raises(EncounterFileError, match=r"refinements\[\d\]\.step: Grishnak has 2 intent\(s\)"):
        loads_encounter(text)


@pytest.mark.parametrize(("extra", "field", "words"), [
    ('do = "dance"', "intents[0].do", "must be one of move, attack, cast, ready, hold, action"),
    ('do = "attack"\nweapon = "axe"', "intents[0].weapons", "A has no weapon 'axe'"),
    ('do = "cast"\nspell = "wish"', "intents[0].spell", "A has no spell 'wish'"),
    ('do = "ready"\nitem = "lute"', "intents[0].item", "an item to ready is one of A's weapons"),
    ('action = "juggle"', "intents[0].action", "no named action 'juggle'"),
    ('do = "move"\nmaneuver = "grapple"', "intents[0]", "cannot grapple: it is a maneuver of a attack"),
    ('do = "attack"\nblows = 40', "intents[0].blows", "blows is 1..12"),
    ('do = "move"\ntarget = "Q"', "intents[0].target", "no combatant is called 'Q'"),
    ('do = "ready"', "intents[0]", "names no item"),
])
def test_bad_intents_are_named(extra, field, words):
    text = ('[[combatants]]\nname = "A"\nside = "a"\nweapons = [{ name = "sword" }]\n\n'
            '[[combatants]]\nname = "B"\nside = "b"\n\n[[intents]]\nactor = "A"\n' + extra + "\n")
    with pytest.raises(EncounterFileError) as error:
        loads_encounter(text)
    assert error.value.field == field and words in str(error.value)


@pytest.mark.parametrize("action", sorted(named_actions()))
@pytest.mark.parametrize("sid", sorted(SYSTEMS))
def test_every_named_action_is_placed_by_every_system(action, sid):
    encounter = Encounter("one action", (Combatant("A", "a", weapons=(Weapon("sword"),)), Combatant("B", "b")),
                          distances=(("A", "B", 30),), intents=(Intent("A", IntentKind.ACTION, action=action),))
    timeline = find_system(sid).schedule(encounter)
    (placement,) = timeline.plan.placements
    assert placement.declarations and placement.kind is PlacementKind.PLACED
    assert [s for s in timeline.for_actor("A") if s.placed]
    assert {d.named_action for d in placement.declarations} == {action}  # the id, carried typed (#47)


def test_a_named_action_is_read_by_its_id_not_by_the_words_of_its_note():
    """#47: a named action's declaration carries its id; 002's action type and 001's list entry come from its entry
    in the actions table, whatever words a note says (a free note the user wrote is still read for its words)."""
    from combatkit.systems.five_phase import action_for
    from combatkit.systems.short_form import misc_type

    erik = Combatant("Erik", "a")
    potion = Declaration("Erik", 1, ActionKind.MISC, note="sings a song", named_action="drink_potion")
    assert (misc_type(potion), action_for(erik, potion).name) == ("minor", "Imbibe")
    free = replace(potion, named_action=None)
    assert (misc_type(free), action_for(erik, free).name) == ("standard", "Unlisted action")
    assert misc_type(replace(free, note="drinks the potion")) == "minor"
    with pytest.raises(RulesError, match="named_action is text, got 3"):
        Declaration("Erik", 1, ActionKind.MISC, named_action=3)


def test_entered_rolls_are_the_file_system_s_dice_and_another_says_which_it_takes():
    encounter = load_example("fighter-and-mage-vs-orc-archer")  # written for Phase System I: d10 initiative
    phase2 = find_system("phase2").schedule(encounter)
    assert {r.purpose: r.total for r in phase2.rolls if r.entered} == {"initiative: party": 6, "initiative: orcs": 4}
    assert any("takes the numbers entered for 'initiative: party', 'initiative: orcs'" in n for n in phase2.notes)
    short = find_system("short_form").schedule(encounter)  # a d12 for initiative: not Phase System I's d10
    assert not any(r.entered for r in short.rolls)
    assert any("'initiative: party', 'initiative: orcs' are Combat II: Phase System I's dice" in n
               and "leaves them to it and rolls its own" in n for n in short.notes)
    segments = find_system("segments").schedule(encounter)  # no initiative roll at all: nothing refused
    assert any("leaves them to it" in n for n in segments.notes)
    misspelled = replace(encounter, rolls={"initative: orcs": 4})
    for system in SYSTEMS.values():
        with pytest.raises(ValueError, match="initative: orcs"):
            system.schedule(misspelled)


def test_a_spell_too_long_for_its_phase_is_begun_next_round_and_the_page_says_so():
    """000 §1 G: CT 7 may not be begun in phase 2; after a move in phase 1 the plan says it is begun next round,
    and a fight plays it first in round 2."""
    mage = Combatant("Mira", "a", char_class="mage", level=9, hit_points=30,
                     spells=(Spell("cloudkill", 5, 7, "V,S,M"),))
    orc = Combatant("Ugluk", "b", hit_points=30, weapons=(Weapon("bow", 7, kind=WeaponKind.MISSILE),))
    encounter = Encounter("late", (mage, orc), distances=(("Mira", "Ugluk", 60),), intents=(
        Intent("Mira", IntentKind.MOVE, "Ugluk", feet=10), Intent("Mira", IntentKind.CAST, "Ugluk", spell="cloudkill")))
    timeline = find_system("phase1").schedule(encounter)
    move, cast = timeline.plan.for_actor("Mira")
    assert cast.kind is PlacementKind.DEFERRED and "000 §1 G" in cast.rule and "begun next round" in cast.why
    assert not [s for s in timeline.for_actor("Mira") if s.kind.value == "cast"]
    fight = run_fight(encounter, "phase1", seed=1, options=FightOptions(max_rounds=2))
    second = fight.rounds[1]
    assert [(d.kind, d.spell) for d in second.declarations if d.actor == "Mira"][0] == (ActionKind.CAST, "cloudkill")


def test_a_figure_with_no_weapon_fights_with_its_fists_rather_than_stand_idle():
    """ct9-spell-vs-sword: the mage's one spell is spent in round 1; from round 2 she punches (002 Unarmed Combat)."""
    encounter = load_example("ct9-spell-vs-sword")
    for sid in SYSTEMS:
        fight = run_fight(encounter, sid, seed=3, options=FightOptions(max_rounds=3))
        later = [e for r in fight.rounds[1:] for e in r.events if e.actor == "Velanna" and e.kind is EventKind.ATTACK]
        assert later and all("fists" in e.why for e in later), sid


def test_a_figure_with_no_weapon_and_no_spell_left_withdraws_under_every_system():
    """strike-speed-ogre-and-goblin: Wenna spends her one spell in round 1 and has no weapon; in reach of the ogre,
    too large for her fists, she withdraws (the policy's point 6). Every system places it: 001 names the opponent
    the withdrawal is made from (001 Movement: Withdrawal), 003, with no withdrawal of its own, moves her away as
    far as its move goes. Both refused it before, and she stood idle the rest of the fight."""
    encounter = load_example("strike-speed-ogre-and-goblin")
    for sid in SYSTEMS:
        for seed in range(5):
            assert run_fight(encounter, sid, seed=seed, explain=False).refused == 0, (sid, seed)
    for sid in ("five_phase", "segments"):
        fight = run_fight(encounter, sid, seed=1, options=FightOptions(max_rounds=2))
        withdrawal = [d for d in fight.rounds[1].declarations if d.actor == "Wenna"]
        assert [(d.kind, d.maneuver) for d in withdrawal] == [(ActionKind.MOVE, Maneuver.WITHDRAW)], sid
        moved = [e for e in fight.rounds[1].events if e.actor == "Wenna" and e.kind is EventKind.FLEE]
        assert moved and "withdraws" in moved[0].why, sid
    placed = find_system("five_phase").plan(replace(
        encounter, intents=(Intent("Wenna", IntentKind.MOVE, "Grol", away=True, maneuver=Maneuver.WITHDRAW),),
        refinements=()))
    assert [d.target for d in placed.declarations] == ["Grol"]
    rooted = replace(encounter, combatants=tuple(replace(c, movement=0) if c.name == "Wenna" else c
                                                 for c in encounter.combatants))
    for sid in SYSTEMS:  # MV 0: no withdrawal, so none to refuse
        fight = run_fight(rooted, sid, seed=1, options=FightOptions(max_rounds=3))
        assert fight.refused == 0, sid
        assert not [d for r in fight.rounds for d in r.declarations if d.actor == "Wenna" and d.kind is ActionKind.MOVE]


def test_a_wounded_figure_with_mv_0_fights_on_instead_of_fleeing_under_every_system():
    """The policy's point 2: with ``flee_below``, a wounded figure in reach of a foe flees; with MV 0 it cannot,
    and fights on. It fled before, and Phase System II (000 §1 F) and the Segment of Action (003 §III) refused
    the move every round it was wounded (found by make fuzz)."""
    sword = Weapon("long sword", 5, damage="d8")
    statue = Combatant("Statue", "a", level=3, hit_points=30, movement=0, weapons=(sword,))
    knight = Combatant("Knight", "b", level=3, hit_points=20, weapons=(sword,))
    encounter = Encounter("rooted", (statue, knight), distances=(("Statue", "Knight", 60),))
    options = FightOptions(policy=PolicyOptions(flee_below=Fraction(1, 2)))
    for sid in SYSTEMS:
        fight = run_fight(encounter, sid, seed=2, options=options)
        assert fight.refused == 0, sid
        wounded = [r for r in fight.rounds if any(d.actor == "Statue" for d in r.declarations)]
        assert all(d.kind is ActionKind.ATTACK for r in wounded for d in r.declarations if d.actor == "Statue"), sid


def test_a_routine_of_unarmed_length_keeps_the_fists_size_limit_under_every_system():
    """The policy's point 6: a cestus is unarmed combat (002 Unarmed Combat: "only on a creature of its own size
    or smaller"), so a small figure with one does not strike at an ogre: it withdraws, or shoots when it has a
    bow. It struck before, and every blow was cancelled (the short form refused it: found by make fuzz)."""
    cestus = Weapon("cestus", 2, damage="d4", length=Length.UNARMED)
    ogre = Combatant("Ogre", "b", level=4, hit_points=30, size=Size.LARGE, weapons=(Weapon("club", 4, damage="d6"),))
    for weapons, kind in (((cestus,), IntentKind.MOVE), ((cestus, Weapon("sling", 6, kind=WeaponKind.MISSILE)),
                                                        IntentKind.ATTACK)):
        pip = Combatant("Pip", "a", level=2, hit_points=12, size=Size.SMALL, weapons=weapons)
        encounter = Encounter("cestus", (pip, ogre), distances=(("Pip", "Ogre", 5),))
        first = intents(figures_from(encounter), system=find_system("short_form"))[0]
        assert first.kind is kind and first.weapons != ("cestus",)
        for sid in SYSTEMS:
            fight = run_fight(encounter, sid, seed=1, options=FightOptions(max_rounds=3))
            assert fight.refused == 0, sid
            assert not any(e.rule == "002 Unarmed Combat" for r in fight.rounds for e in r.events), sid


@pytest.mark.parametrize("weapons", [(), (Weapon("bite", kind=WeaponKind.NATURAL, damage="d3"),
                                          Weapon("claw", kind=WeaponKind.NATURAL, damage="d3"))],
                         ids=["fists", "claw and bite"])
def test_half_an_attack_a_round_strikes_in_even_rounds_and_waits_out_the_odd_ones_under_every_system(weapons):
    """000 §2 C: 1/2 attack a round is one attack every other round, with the fists too, and a routine of natural
    weapons (claw and bite) too. Every system that counts whole attacks a round counts none in an odd round; the
    plan used to give the fists, and the natural routine, one all the same, and the systems refused it (the short
    form's 002 III.B, found by make fuzz). Phase System II paces attacks by its Table 6 (000 §3 C), phase by
    phase, and places it; the natural routine's plan took one a round there (Table 6's 1, not its 1/2)."""
    brawler = Combatant("Brawler", "a", hit_points=30, attacks_per_round=Fraction(1, 2), weapons=weapons)
    orc = Combatant("Ugluk", "b", hit_points=30, weapons=(Weapon("club", 4),))
    for number in (1, 2):
        encounter = Encounter("half", (brawler, orc), distances=(("Brawler", "Ugluk", 5),),
                              intents=(Intent("Brawler", IntentKind.ATTACK, "Ugluk"),), round=number)
        for sid in SYSTEMS:
            placed = find_system(sid).schedule(encounter).plan.for_actor("Brawler")[0]
            if number == 1 and sid != "phase2":
                assert placed.kind is PlacementKind.DEFERRED, sid
                assert "1/2 attacks a round give it none in round 1" in placed.why, sid
            else:
                assert placed.kind is not PlacementKind.DEFERRED and placed.declarations, sid
        for sid in SYSTEMS:
            fight = run_fight(replace(encounter, intents=()), sid, seed=1, options=FightOptions(max_rounds=2))
            assert fight.refused == 0, sid
    # Phase System II: Table 6 extended, one attack every six phases, the sequence begun with the first blow
    fight = run_fight(Encounter("half", (brawler, orc), distances=(("Brawler", "Ugluk", 5),)), "phase2", seed=1,
                      options=FightOptions(max_rounds=4))
    assert [[d.phase for d in r.declarations if d.actor == "Brawler"] for r in fight.rounds] == [[1], [], [1], []]


def test_the_default_policy_and_the_file_use_one_planner():
    """The policy's intents go through the same plan as a file's: a move toward the target, then the blow."""
    encounter = replace(load_example("orc-closes-on-longbowman"), intents=(), refinements=())
    fight = run_fight(encounter, "phase1", seed=4, options=FightOptions(max_rounds=1))
    plan = fight.rounds[0].timeline.plan
    assert [(p.actor, p.intent.kind.value) for p in plan.placements] == [
        ("Aldric", "attack"), ("Grishnak", "move"), ("Grishnak", "attack")]
    assert plan.for_actor("Grishnak")[1].declarations[0].reposition  # 10' left: a repositioning step (000 §2 C)


def test_a_charge_is_placed_by_the_systems_that_have_one_and_a_move_by_those_that_do_not():
    knight = Combatant("Sir Tamsin", "a", hit_points=30, weapons=(Weapon("lance", 8, damage="d8"),))
    orc = Combatant("Ugluk", "b", hit_points=10, weapons=(Weapon("club", 4),))
    encounter = Encounter("charge", (knight, orc), distances=(("Sir Tamsin", "Ugluk", 50),), intents=(
        Intent("Sir Tamsin", IntentKind.MOVE, "Ugluk", maneuver=Maneuver.CHARGE),
        Intent("Sir Tamsin", IntentKind.ATTACK, "Ugluk")))
    for sid in SYSTEMS:
        plan = find_system(sid).schedule(encounter).plan
        charges = [d for d in plan.declarations if d.maneuver is Maneuver.CHARGE]
        if Maneuver.CHARGE in find_system(sid).maneuvers:
            assert charges, sid
        else:
            assert not charges and "has no charge" in plan.for_actor("Sir Tamsin")[0].why, sid


def test_a_surprised_figure_is_closed_on_and_struck_in_one_phase_only_in_the_phase_it_loses():
    """000 §2 F: those moving up to a surprised figure strike at the end of the move, in the phase the surprised
    figure loses (phase 1; Phase System II's phase A). Both sides surprised, the orc's first free phase is 2: the
    plan made its move and blow one declaration there all the same, and both Combat II systems refused the round;
    now it moves in phase 2 and strikes in phase 3."""
    aldric = Combatant("Aldric", "a", hit_points=20, surprised=True, weapons=(Weapon("long sword", 5),))
    ugluk = Combatant("Ugluk", "b", hit_points=20, surprised=True, attacks_per_round=Fraction(2),
                      weapons=(Weapon("long sword", 5),))
    encounter = Encounter("both surprised", (aldric, ugluk), distances=(("Aldric", "Ugluk", 15),),
                          intents=(Intent("Ugluk", IntentKind.ATTACK, "Aldric"),))
    for sid in ("phase1", "phase2"):
        plan = find_system(sid).schedule(encounter).plan
        assert [(d.phase, d.kind, d.feet) for d in plan.declarations] == [
            (2, ActionKind.MOVE, 10), (3, ActionKind.ATTACK, None)], sid


def test_weapons_given_as_a_python_list_are_the_tuple_of_them_and_anything_else_names_the_rule():
    """An intent or a declaration written in a notebook with ``weapons=["long bow"]`` plays as the tuple (the run's
    memo keys on it: a list made every fight fail with a bare "unhashable type: 'list'"); a lone name or anything but
    names is refused with the rule and the value."""
    encounter = load_example("orc-closes-on-longbowman")
    listed = tuple(replace(i, weapons=list(i.weapons) or ["longbow"]) if i.kind is IntentKind.ATTACK
                   and i.actor == "Aldric" else i for i in encounter.intents)
    tupled = tuple(replace(i, weapons=tuple(i.weapons) or ("longbow",)) if i.kind is IntentKind.ATTACK
                   and i.actor == "Aldric" else i for i in encounter.intents)
    assert listed == tupled
    played = [run_fight(replace(encounter, intents=given), seed=1) for given in (listed, tupled)]
    assert played[0] == played[1]
    assert Declaration("Aldric", 1, ActionKind.ATTACK, "Grishnak", weapons=["long bow"]).weapons == ("long bow",)
    for bad in ("long bow", [1], None):
        with pytest.raises(RulesError, match="weapons are a list of weapon names") as refused:
            Intent("Aldric", IntentKind.ATTACK, "Grishnak", weapons=bad)
        assert refused.value.rule == "combatkit intents" and repr(bad) in str(refused.value)
    with pytest.raises(RulesError) as refused:
        Declaration("Aldric", 1, ActionKind.ATTACK, "Grishnak", weapons="long bow")
    assert refused.value.rule == "combatkit declarations" and "'long bow'" in str(refused.value)


@pytest.mark.parametrize(("field", "value", "rule"), [
    ("phase", "1", "combatkit declarations"), ("phase", 1.5, "combatkit declarations"),
    ("phase", True, "combatkit declarations"), ("kind", "stab", "combatkit declarations"),
    ("maneuver", "cartwheel", "combatkit declarations"), ("attacks", "2", "000 §2 C"), ("hold", 1.5, "000 §2 A"),
    ("reposition", "yes", "000 §2 A, C"), ("drop_and_draw", 1, "000 §2 E"), ("feet", -30, "combatkit declarations"),
    ("feet", "30", "combatkit declarations"), ("actor", 3, "combatkit declarations"),
    ("target", 5, "combatkit declarations"), ("spell", 3, "combatkit declarations"),
    ("note", 5, "combatkit declarations")])
def test_a_declaration_given_in_python_refuses_a_value_of_the_wrong_kind_naming_field_value_and_rule(field, value,
                                                                                                      rule):
    """Declarations given directly (in a system's own terms) are used as given: one with a field of the wrong kind was
    taken, and failed deep in a system with a bare TypeError, KeyError or AssertionError (phase "1" in every system;
    a note of 5 under the five-phase system), or played (a repositioning step of "yes"). Their ranges stay each
    system's to refuse under its own rule."""
    given = {"actor": "Aldric", "phase": 1, "kind": ActionKind.ATTACK, "target": "Grishnak", field: value}
    with pytest.raises(RulesError) as refused:
        Declaration(**given)
    assert refused.value.rule == rule and repr(value) in str(refused.value)
    assert field.replace("_", " ") in str(refused.value)


def test_a_declaration_takes_its_kind_and_maneuver_as_their_words_and_a_refinement_checks_its_fields():
    """``kind="attack"`` is :attr:`ActionKind.ATTACK` (an intent takes its kind so too), ``maneuver="charge"``
    :attr:`Maneuver.CHARGE`, and plays as they do; a refinement's fields are checked as a declaration's, and its
    phases are phase numbers."""
    worded = Declaration("Grishnak", 1, "move", "Aldric", feet=30, maneuver="charge")
    assert worded == Declaration("Grishnak", 1, ActionKind.MOVE, "Aldric", feet=30, maneuver=Maneuver.CHARGE)
    with pytest.raises(RulesError, match="cannot charge: charge is a maneuver of a move"):
        Declaration("Grishnak", 1, "attack", "Aldric", maneuver="charge")
    for bad, rule in ((dict(attacks="2"), "000 §2 C"), (dict(reposition=1), "000 §2 A, C"),
                      (dict(phases=(0,)), "combatkit refinements"), (dict(phases="12"), "combatkit refinements")):
        with pytest.raises(RulesError) as refused:
            Refinement("phase1", "Aldric", 1, **bad)
        assert refused.value.rule == rule and repr(next(iter(bad.values()))) in str(refused.value)
    assert Refinement("phase1", "Aldric", 1, phases=[1, 2], attacks=2).phases == (1, 2)


@pytest.mark.parametrize(("change", "said"), [
    ({"round": "1"}, "the round is a whole number, 1 or more, got '1'"),
    ({"round": -2}, "the round is a whole number, 1 or more, got -2"),
    ({"round": True}, "the round is a whole number, 1 or more, got True"),
    ({"distances": (("Aldric", "Grishnak", "30"),)}, "got ('Aldric', 'Grishnak', '30')"),
    ({"distances": (("Aldric", "Grishnak", -5),)}, "got ('Aldric', 'Grishnak', -5)"),
    ({"distances": "Aldric-Grishnak 30"}, "distances are a list of (a, b, feet)"),
    ({"seed": "x"}, "the seed is a whole number, got 'x'"),
    ({"title": 5}, "the title is text, got 5"),
    ({"intents": ("attack Grishnak",)}, "intents are a list of Intents, got 'attack Grishnak' among them")])
def test_an_encounter_given_in_python_refuses_a_value_of_the_wrong_kind(change, said):
    """An encounter made in a notebook with round "1" or a gap of "30" feet failed deep in a system with a bare
    TypeError; round -2 and a gap of -5 feet were played. Each is refused as the encounter is made, named with the
    value (files were checked so already)."""
    with pytest.raises(RulesError, match=re.escape(said)) as refused:
        replace(load_example("orc-closes-on-longbowman"), **change)
    assert refused.value.rule == "encounter"


def test_an_encounter_takes_lists_as_tuples_and_an_intent_of_a_figure_not_there_is_refused():
    """Lists, as Python is often written, are the tuples they stand for (a list of intents played the same fight);
    an intent's kind that is no kind and its fields of the wrong kind name the rule, and an intent of a figure the
    encounter lacks is refused where it had been dropped without a word."""
    encounter = load_example("orc-closes-on-longbowman")
    listed = replace(encounter, combatants=list(encounter.combatants), intents=list(encounter.intents),
                     distances=[list(gap) for gap in encounter.distances])
    assert listed == encounter and run_fight(listed, seed=1) == run_fight(encounter, seed=1)
    with pytest.raises(RulesError, match="kind is one of move, attack, cast, ready, hold, action, got 'stab'"):
        Intent("Aldric", "stab", "Grishnak")
    with pytest.raises(RulesError, match="note is text, got 5"):
        Intent("Aldric", IntentKind.ATTACK, "Grishnak", note=5)
    stray = replace(encounter, intents=(*encounter.intents, Intent("Nobody", IntentKind.ATTACK, "Aldric")))
    for sid in SYSTEMS:
        with pytest.raises(RulesError, match="an intent names 'Nobody', who is not in the encounter"):
            find_system(sid).schedule(stray)


# ----------------------------------------------------------------- the older format keeps every field (#45)


def _older(system: str, declarations: tuple[Declaration, ...], gap: int, mira: dict | None = None,
           ugluk: dict | None = None) -> Encounter:
    """Declarations written in ``system``'s phases, saved in the older format and loaded (as intents and that
    system's refinements)."""
    people = (Combatant("Mira", "party", hit_points=20, weapons=(Weapon("dagger", 2),),
                        spells=(Spell("shocking grasp", 1, 1, touch=True),), **(mira or {})),
              Combatant("Ugluk", "orcs", hit_points=20, weapons=(Weapon("club", 4),), **(ugluk or {})))
    written = Encounter("older", people, declarations, (("Mira", "Ugluk", gap),), system=system)
    assert "declarations" in encounter_to_dict(written)
    loaded = loads_encounter(dumps_toml(written))
    assert not loaded.declarations and find_system(system).plan(loaded).declarations == declarations
    return loaded


def test_an_attack_at_the_end_of_a_move_keeps_its_feet_in_the_older_format():
    """000 §2 F: closing on a surprised figure, the blow follows the move, in one phase; 000 §1 F, §2 D: else no move
    and attack in one phase; 001 Split-Move Attack: at most 1/3 MV before the blow. The feet were dropped on loading:
    the first was refused for want of reach, the other two were taken."""
    closing = (Declaration("Mira", 1, ActionKind.ATTACK, "Ugluk", feet=20),)
    timeline = find_system("phase1").schedule(_older("phase1", closing, 25, ugluk={"surprised": True}))
    (blow,) = [s for s in timeline.for_actor("Mira") if s.kind.value == "attack"]
    assert "000 §2 F" in blow.rule and "moves 20' and strikes at the end of the movement" in blow.why
    with pytest.raises(RulesError, match="may not move and attack in the same phase") as refused:
        find_system("phase1").schedule(_older("phase1", closing, 25))
    assert refused.value.rule == "000 §1 F"
    split = (Declaration("Mira", 3, ActionKind.ATTACK, "Ugluk", feet=50, note="split-move"),)
    with pytest.raises(RulesError, match="before a split-move attack, not 50'") as refused:
        find_system("five_phase").schedule(_older("five_phase", split, 55))
    assert refused.value.rule == "001 Movement: Split-Move Attack"


def test_a_touch_spell_s_touch_keeps_its_spell_in_the_older_format():
    """000 §2 A: a touch spell is cast, then delivered by an attack in a later phase. The attack lost its spell on
    loading, and was refused as casting and attacking in one round."""
    touch = (Declaration("Mira", 1, ActionKind.CAST, "Ugluk", spell="shocking grasp"),
             Declaration("Mira", 2, ActionKind.ATTACK, "Ugluk", spell="shocking grasp"))
    timeline = find_system("phase1").schedule(_older("phase1", touch, 5))
    (blow,) = [s for s in timeline.for_actor("Mira") if s.kind.value == "attack"]
    assert blow.action == "touch: shocking grasp -> Ugluk"


def test_a_withdrawal_keeps_its_opponent_and_a_surprised_five_phase_figure_still_declares_nothing():
    """001 Movement: a withdrawal names the opponent it is made from (it lost it on loading, and was refused for
    naming none); 001 A: a surprised figure makes no declarations until the surprise has run its course (its
    declarations were dropped on loading, and the round played without a word)."""
    withdrawal = (Declaration("Mira", 1, ActionKind.MOVE, "Ugluk", maneuver=Maneuver.WITHDRAW),)
    timeline = find_system("five_phase").schedule(_older("five_phase", withdrawal, 5))
    assert [s.kind.value for s in timeline.for_actor("Mira")] == ["move"]
    blow = (Declaration("Mira", 1, ActionKind.ATTACK, "Ugluk"),)
    with pytest.raises(RulesError, match="Mira is surprised and makes no declarations") as refused:
        find_system("five_phase").schedule(_older("five_phase", blow, 5, mira={"surprised": True}))
    assert refused.value.rule == "001 A. Declare Intentions"
