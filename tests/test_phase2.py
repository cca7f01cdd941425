"""Combat II Phase System II (seed 000 §3, Tables 4-7): worked examples, rules, odds, invariants."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combatkit import (
    ONE_ROUND,
    Abilities,
    ActionKind,
    Combatant,
    Declaration,
    EffectKind,
    Encounter,
    Hit,
    Roller,
    Save,
    Spell,
    SpellEffect,
    Weapon,
    WeaponKind,
    load_example,
    loads_encounter,
)
from combatkit.encounter_files import dumps_toml
from combatkit.errors import IllegalActionError, RulesError
from combatkit.fight import FightOptions, run_fight
from combatkit.resolution.events import EventKind
from combatkit.systems._exhaust import matchup
from combatkit.systems.phase2 import (
    PHASE2,
    TABLE_6,
    Phase2Options,
    attack_schedule,
    clock_for,
    forms_schedule,
    odds,
    phase_label,
    spell_expiry,
    table5_delay,
)
from combatkit.timeline import UNDER_WAY, Status, Track

WIN = {"initiative: party": 2, "initiative: foes": 6}
"""The party wins every cycle these tests look at (later cycles are entered too)."""
for _cycle in range(2, 8):
    WIN |= {f"initiative: party, cycle {_cycle}": 2, f"initiative: foes, cycle {_cycle}": 6}

SWORD = Weapon("long sword", 5, damage="d8")
DAGGER = Weapon("dagger", 2, damage="d4")


def foe(**kw) -> Combatant:
    return Combatant("Orc", "foes", char_class="monster", weapons=(SWORD,), **kw)


def mage(level: int = 10, **kw) -> Combatant:
    spells = (
        Spell("cone of cold", 5, 5, "V,S"),
        Spell("magic missile", 1, 1, "V,S"),
        Spell("web", 2, 2, "V,S,M"),
        Spell("bless", 1, ONE_ROUND, "V,S"),
        Spell("shocking grasp", 1, 1, "V,S", touch=True),
    )
    return Combatant("Finch", "party", level=level, char_class="mage", weapons=(DAGGER,), spells=spells, **kw)


def run(combatants, declarations, rolls=WIN, options=None, hits=(), distances=()):
    encounter = Encounter("test", tuple(combatants), tuple(declarations), hits=tuple(hits),
                          distances=tuple(distances), rolls=rolls, system="phase2")
    return PHASE2.schedule(encounter, Roller(seed=0, entered=rolls), options)


def cast(actor: str, phase: int, spell: str, **kw) -> Declaration:
    return Declaration(actor, phase, ActionKind.CAST, spell=spell, **kw)


def attack(actor: str, phase: int, target: str | None = "Orc", **kw) -> Declaration:
    return Declaration(actor, phase, ActionKind.ATTACK, target, **kw)


def only(timeline, actor, kind, status=Status.DONE):
    return [s for s in timeline.for_actor(actor) if s.kind == kind and s.status is status]


# ----------------------------------------------------------------- 000 §3 B worked example


def test_tenth_level_caster_ct5_spell_begun_in_phase_c_table5():
    """000 §3 B Table 5 example: "a 10th level caster begins a CT 5 spell on phase C. Three of its
    casting segments occur in C, but it is not completed until A. The caster delays only during
    phase B (being 10th level), then can begin casting again on phase C."""
    options = Phase2Options(caster_delay_by_level=True)
    timeline = run([mage(10), foe()], [cast("Finch", 3, "cone of cold"), cast("Finch", 6, "magic missile")],
                   options=options)
    cone, missile = only(timeline, "Finch", "cast")
    assert phase_label(3) == "phase C, cycle 1"
    assert (cone.start, cone.end) == (13, 21)  # C half-segment 1 .. the next A's half-segment 3
    assert cone.period == "phase A, cycle 2"
    assert "3 in phase C, cycle 1 (winner: half-segment 1, 3, 5); 2 in phase A, cycle 2" in cone.why
    assert missile.start == 31 and missile.period == "phase C, cycle 2"
    with pytest.raises(IllegalActionError) as error:  # phase B of cycle 2 is the one-phase delay
        run([mage(10), foe()], [cast("Finch", 3, "cone of cold"), cast("Finch", 5, "magic missile")], options=options)
    assert error.value.rule == "000 §3 B Table 5"
    assert "phase B, cycle 2" in str(error.value)


def test_tenth_level_caster_under_the_base_rule_waits_two_phases():
    """000 §3 B Casting Delay: without Table 5 the caster waits B and C and begins again at A."""
    with pytest.raises(IllegalActionError) as error:
        run([mage(10), foe()], [cast("Finch", 3, "cone of cold"), cast("Finch", 6, "magic missile")])
    assert error.value.rule == "000 §3 B"
    assert "two phases" in str(error.value)
    timeline = run([mage(10), foe()], [cast("Finch", 3, "cone of cold"), cast("Finch", 7, "magic missile")])
    assert only(timeline, "Finch", "cast")[1].period == "phase A, cycle 3"


def test_spell_begun_as_winner_can_end_as_loser():
    """000 §3 A: "a caster may begin a long spell as a winner and end on the loser schedule"."""
    rolls = WIN | {"initiative: party, cycle 2": 9, "initiative: foes, cycle 2": 1}
    timeline = run([mage(), foe()], [cast("Finch", 3, "cone of cold")], rolls=rolls)
    cone = only(timeline, "Finch", "cast")[0]
    assert (cone.start, cone.end, cone.track) == (13, 22, "loser")  # A half-segment 4 on the loser track
    assert "(loser: half-segment 2, 4)" in cone.why


def test_initiative_is_rolled_at_every_phase_a():
    """000 §3 A: "Roll for initiative at the beginning of each A phase"."""
    timeline = run([mage(), foe()], [cast("Finch", 4, "magic missile")])
    purposes = [r.purpose for r in timeline.rolls]
    assert purposes == ["initiative: party", "initiative: foes", "initiative: party, cycle 2",
                        "initiative: foes, cycle 2"]
    assert timeline.clock.ticks == 36 and timeline.clock.periods[3].label == "phase A, cycle 2"


# ----------------------------------------------------------------- 000 §3 C worked example


def specialist(dagger_rate: Fraction | None = Fraction(3, 2)) -> Combatant:
    """Saska swings her short sword twice a round; her dagger keeps its own rate (``Weapon.attacks_per_round``)."""
    return Combatant("Saska", "party", level=7, attacks_per_round=Fraction(2),
                     weapons=(Weapon("short sword", 3, damage="d6"),
                              Weapon("dagger", 2, damage="d4", attacks_per_round=dagger_rate)))


BOTH, ALONE = ("short sword", "dagger"), ("short sword",)
SPECIALIST_ROUTINE = [attack("Saska", 1, weapons=BOTH), attack("Saska", 2, weapons=ALONE),
                      attack("Saska", 4, weapons=BOTH), attack("Saska", 5, weapons=ALONE)]
"""000 §3 C: both weapons, the short sword alone, (delay), and the sequence anew."""
SPECIALIST_BLOWS = [("short sword + dagger -> Orc", 2), ("short sword -> Orc", 8),
                    ("short sword + dagger -> Orc", 20), ("short sword -> Orc", 26)]


def check_specialist_with_dagger(people) -> None:
    """000 §3 C example: a 7th-level short-sword specialist "attacks with both weapons on the first
    phase, then with the short sword alone on the second phase. The third phase is her normal
    delay. The next phase begins the sequence anew"."""
    timeline = run(people, SPECIALIST_ROUTINE)
    blows = only(timeline, "Saska", "attack")
    assert [(s.action, s.end) for s in blows] == SPECIALIST_BLOWS
    assert "'attack, attack, delay' sequence (Table 6, 2 attacks per round)" in blows[0].why
    assert "attack 2 since it began in phase A, cycle 1" in blows[1].why
    assert "it begins anew here" in blows[2].why
    with pytest.raises(IllegalActionError) as error:  # the third phase is her delay
        run(people, SPECIALIST_ROUTINE[:2] + [attack("Saska", 3, weapons=ALONE)])
    assert error.value.rule == "000 §3 C Table 6" and "phase C, cycle 1 is a delay" in str(error.value)
    with pytest.raises(IllegalActionError) as error:  # the second phase is the short sword alone
        run(people, [attack("Saska", 1, weapons=BOTH), attack("Saska", 2, weapons=BOTH)])
    assert error.value.rule == "000 §3 C" and "short sword alone" in str(error.value)
    assert "short sword 2, dagger 3/2" in str(error.value)


def test_short_sword_specialist_with_dagger():
    check_specialist_with_dagger([specialist(), foe()])


SPECIALIST_FILE = """
title = "000 §3 C: a 7th-level short-sword specialist with a dagger"
system = "phase2"

[rolls]
"initiative: party" = 2
"initiative: foes" = 6
"initiative: party, cycle 2" = 2
"initiative: foes, cycle 2" = 6

[[combatants]]
name = "Saska"
side = "party"
level = 7
attacks_per_round = "{wielder}"
weapons = [
  {{ name = "short sword", sf = 3, length = "short", damage = "d6"{sword} }},
  {{ name = "dagger", sf = 2, length = "short", damage = "d4"{dagger} }},
]

[[combatants]]
name = "Orc"
side = "foes"
class = "monster"
weapons = [{{ name = "long sword", sf = 5, damage = "d8" }}]

[[declarations]]
actor = "Saska"
phase = 1
action = "attack"
target = "Orc"
weapons = ["short sword", "dagger"]

[[declarations]]
actor = "Saska"
phase = 2
action = "attack"
target = "Orc"
weapons = ["short sword"]

[[declarations]]
actor = "Saska"
phase = 4
action = "attack"
target = "Orc"
weapons = ["short sword", "dagger"]

[[declarations]]
actor = "Saska"
phase = 5
action = "attack"
target = "Orc"
weapons = ["short sword"]
"""


@pytest.mark.parametrize(("wielder", "sword", "dagger"), [
    pytest.param("2", "", ', attacks_per_round = "3/2"', id="dagger-3/2"),  # the dagger's own, lower rate
    pytest.param("3/2", ", attacks_per_round = 2", "", id="sword-2"),  # a 7th-level fighter's 3/2, 2 with her sword
])
def test_specialist_with_dagger_from_an_encounter_file(wielder, sword, dagger):
    """Issue #11: Phase System II reads each weapon's own ``attacks_per_round`` from an encounter
    file (000 §3 C example), as Phase System I does; before, it used the wielder's rate for both
    weapons and let her pair them every phase (or put her on the 3/2 "attack, delay" schedule)."""
    encounter = loads_encounter(SPECIALIST_FILE.format(wielder=wielder, sword=sword, dagger=dagger))
    saska = encounter.combatant("Saska")
    assert {w.name: w.attacks_per_round for w in saska.weapons} == {
        "short sword": Fraction(2) if sword else None, "dagger": Fraction(3, 2) if dagger else None}
    timeline = PHASE2.schedule(encounter, Roller(entered=encounter.rolls))
    assert [(s.action, s.end) for s in only(timeline, "Saska", "attack")] == SPECIALIST_BLOWS
    check_specialist_with_dagger(list(encounter.combatants))


def test_two_weapons_with_the_same_rate_always_pair():
    """000 §2 C: "each weapon may attack to the maximum applicable attacks per round, but only in
    paired fashion" when the weapons yield the same number of attacks."""
    timeline = run([specialist(dagger_rate=None), foe()],
                   [attack("Saska", 1, weapons=BOTH), attack("Saska", 2, weapons=BOTH)])
    assert len(only(timeline, "Saska", "attack")) == 2


# ----------------------------------------------------------------- Table 6, Table 7


@pytest.mark.parametrize("rate", list(TABLE_6))
def test_table6_sequence_is_followed_and_repeats(rate):
    """000 §3 C Table 6: attack on every attack entry for two repetitions; the first delay refuses."""
    schedule = attack_schedule(rate)
    fast = Weapon("fist", 1, damage="d2")
    fighter = Combatant("Vala", "party", level=13, attacks_per_round=rate, weapons=(fast,))
    phases = [p for p in range(1, 2 * len(schedule) + 1) if schedule[(p - 1) % len(schedule)]]
    declarations = [attack("Vala", p, attacks=schedule[(p - 1) % len(schedule)]) for p in phases]
    timeline = run([fighter, foe()], declarations)
    assert len(only(timeline, "Vala", "attack")) == sum(schedule) * 2
    if 0 in schedule:
        delay = schedule.index(0) + 1
        with pytest.raises(IllegalActionError) as error:
            run([fighter, foe()], [d for d in declarations if d.phase < delay] + [attack("Vala", delay)])
        assert error.value.rule == "000 §3 C Table 6"


def test_table6_rows():
    """000 §3 C Table 6 as printed."""
    assert attack_schedule(1) == (1, 0, 0)
    assert attack_schedule(Fraction(3, 2)) == (1, 0)
    assert attack_schedule(2) == (1, 1, 0)
    assert attack_schedule(Fraction(5, 2)) == (1, 1, 1, 0, 1, 1)
    assert attack_schedule(4) == (1, 2, 1)
    assert attack_schedule(5) == (2, 2, 1)
    assert attack_schedule(6) == (2, 2, 2)


def test_five_halves_repeats_as_printed():
    """Table 6, 5/2: "attack, attack, attack, delay, attack, attack", repeated: phase 10 is the next delay."""
    fighter = Combatant("Vala", "party", level=13, attacks_per_round=Fraction(5, 2), weapons=(SWORD,))
    ok = [attack("Vala", p) for p in (1, 2, 3, 5, 6, 7, 8, 9)]
    assert len(only(run([fighter, foe()], ok), "Vala", "attack")) == 8
    with pytest.raises(IllegalActionError):
        run([fighter, foe()], ok + [attack("Vala", 10)])


def test_sequence_starts_over_after_a_voluntary_delay():
    """000 §3 C: "In the event of an unexpected or even voluntary phase delay, the sequence starts
    over with the next attack"."""
    fighter = Combatant("Vala", "party", level=13, attacks_per_round=Fraction(2), weapons=(SWORD,))
    timeline = run([fighter, foe()], [attack("Vala", 1), attack("Vala", 3), attack("Vala", 4)])
    assert "a new sequence begins here" in only(timeline, "Vala", "attack")[1].why
    with pytest.raises(IllegalActionError):  # 3, 4 attack; 5 is the new sequence's delay
        run([fighter, foe()], [attack("Vala", 1), attack("Vala", 3), attack("Vala", 4), attack("Vala", 5)])


def test_missile_fire_rate_times_attacks_per_round():
    """000 §3 C Missile Fire: "Multiply the fire rate by number of attacks per round"."""
    bow = Weapon("short bow", 7, kind=WeaponKind.MISSILE, rate_of_fire=Fraction(2))
    archer = Combatant("Ash", "party", level=7, attacks_per_round=Fraction(3, 2), weapons=(bow,))
    timeline = run([archer, foe()], [attack("Ash", p) for p in (1, 2, 3, 4)])
    assert "Table 6, 3 attacks per round, fire rate x attacks per round" in only(timeline, "Ash", "attack")[0].why
    novice = Combatant("Ash", "party", weapons=(bow,))
    with pytest.raises(IllegalActionError):  # 1 x 2 = 2 a round: attack, attack, delay
        run([novice, foe()], [attack("Ash", p) for p in (1, 2, 3)])


def test_heavy_crossbow_half_a_shot_a_round():
    """Below one a round the pattern extends: 1/2 is one shot every six phases."""
    crossbow = Weapon("heavy crossbow", 10, kind=WeaponKind.MISSILE, rate_of_fire=Fraction(1, 2))
    archer = Combatant("Ash", "party", weapons=(crossbow,))
    assert len(run([archer, foe()], [attack("Ash", 1), attack("Ash", 7)]).spans) == 2
    with pytest.raises(IllegalActionError):
        run([archer, foe()], [attack("Ash", 1), attack("Ash", 6)])


def test_rate_table6_does_not_list_names_the_rule_and_value():
    with pytest.raises(IllegalActionError) as error:
        attack_schedule(Fraction(7, 2))
    assert error.value.rule == "000 §3 C Table 6" and "7/2" in str(error.value)
    fighter = Combatant("Vala", "party", attacks_per_round=Fraction(7, 2), weapons=(SWORD,))
    timeline = run([fighter, foe()], [attack("Vala", 1), attack("Vala", 2)],
                   options=Phase2Options(schedules={"Vala": (1, 1, 2, 1, 1, 1, 0)}))
    assert len(timeline.spans) == 2


def test_attack_forms_option_table7():
    """000 §3 C Table 7 (optional rule of 000 §2 C): 4 forms go "1 form, 2 forms, 1 form"."""
    forms = tuple(Weapon(name, kind=WeaponKind.NATURAL) for name in ("claws", "bite", "tail", "wings"))
    dragon = Combatant("Wyrm", "foes", char_class="monster", weapons=forms)
    hero = Combatant("Orc", "party", weapons=(SWORD,))  # named Orc so the default target fits
    options = Phase2Options(attack_forms=True)
    declarations = [Declaration("Wyrm", 1, ActionKind.ATTACK, "Orc", weapons=("claws",)),
                    Declaration("Wyrm", 2, ActionKind.ATTACK, "Orc", weapons=("bite", "tail")),
                    Declaration("Wyrm", 3, ActionKind.ATTACK, "Orc"),
                    Declaration("Wyrm", 4, ActionKind.ATTACK, "Orc", weapons=("claws",))]
    timeline = run([hero, dragon], declarations, options=options)
    assert [s.action for s in only(timeline, "Wyrm", "attack")] == [
        "claws -> Orc", "bite + tail -> Orc", "wings -> Orc", "claws -> Orc"]
    assert forms_schedule(4) == (1, 2, 1)
    with pytest.raises(IllegalActionError) as error:
        run([hero, dragon], declarations[:1] + [Declaration("Wyrm", 2, ActionKind.ATTACK, "Orc",
                                                            weapons=("claws", "bite"))], options=options)
    assert error.value.rule == "000 §3 C Table 7"
    # without the option the forms are one routine on the 1-attack schedule
    routine = run([hero, dragon], [Declaration("Wyrm", 1, ActionKind.ATTACK, "Orc", weapons=("claws", "bite"))])
    assert "attack, delay, delay" in only(routine, "Wyrm", "attack")[0].why


def test_the_plan_places_attack_forms_by_table7():
    """With ``attack_forms`` the planner spaces a routine of forms by Table 7, naming no form, so the scheduler
    uses the ones each phase allows: the default policy's routine, all four forms in one phase, was refused
    every round (make fuzz)."""
    forms = tuple(Weapon(name, kind=WeaponKind.NATURAL, damage="d4") for name in ("claws", "bite", "tail", "wings"))
    dragon = Combatant("Wyrm", "foes", char_class="monster", hit_points=80, attacks_per_round=4, weapons=forms)
    hero = Combatant("Orc", "party", hit_points=80, weapons=(SWORD,))
    encounter = Encounter("forms", (hero, dragon), distances=(("Orc", "Wyrm", 5),))
    fight = run_fight(encounter, "phase2", seed=1, options=FightOptions(max_rounds=2),
                      system_options=Phase2Options(attack_forms=True))
    assert fight.refused == 0
    for r in fight.rounds:
        assert [(d.phase, d.weapons) for d in r.declarations if d.actor == "Wyrm"] == [(1, ()), (2, ()), (3, ())]
        assert [s.action for s in r.timeline.spans if s.actor == "Wyrm" and s.kind == "attack"] == [
            "claws -> Orc", "bite + tail -> Orc", "wings -> Orc"]
        assert "000 §3 C Table 7" in r.timeline.plan.for_actor("Wyrm")[0].rule
    hydra = replace(dragon, attacks_per_round=7, weapons=tuple(Weapon(f"head {i}", kind=WeaponKind.NATURAL)
                                                             for i in range(1, 8)))
    past = run_fight(replace(encounter, combatants=(hero, hydra)), "phase2", seed=1, options=FightOptions(max_rounds=1),
                     system_options=Phase2Options(attack_forms=True))  # past Table 7: the round names the rule
    assert past.refused == 1 and any("Table 7 covers 1 to 6" in e.why for e in past.rounds[0].events)


def test_double_attack_lands_sf_half_segments_later_inside_the_phase():
    """Table 6, 4 attacks: "attack, 2 attacks, attack"; the second blow of a phase is + SF (000 §2 C)."""
    fighter = Combatant("Vala", "party", attacks_per_round=Fraction(4), weapons=(Weapon("knife", 1),))
    timeline = run([fighter, foe()], [attack("Vala", 1), attack("Vala", 2, attacks=2)])
    assert [s.end for s in only(timeline, "Vala", "attack")] == [1, 7, 8]
    slow = Combatant("Vala", "party", attacks_per_round=Fraction(4), weapons=(SWORD,))
    with pytest.raises(IllegalActionError) as error:
        run([slow, foe()], [attack("Vala", 1), attack("Vala", 2, attacks=2)])
    assert error.value.rule == "000 §2 C"


# ----------------------------------------------------------------- spells


def test_one_round_spell_goes_off_after_everything_at_the_end_of_its_third_phase():
    """000 §3 B: "If a spell has a one round CT (10 seg) it goes off after all other actions
    (including movement) at the end of the third phase of casting"."""
    runner = Combatant("Orc", "foes", weapons=(SWORD,))
    timeline = run([mage(), runner], [cast("Finch", 2, "bless"), Declaration("Orc", 4, ActionKind.MOVE, feet=30)])
    assert [(s.actor, s.kind, s.end) for s in timeline.spans[-2:]] == [("Orc", "move", 24), ("Finch", "cast", 24)]
    assert timeline.spans[-1].period == "phase A, cycle 2"


def test_spell_duration_in_phases():
    """000 §3 B: "if a spell cast in phase B lasts one round, it expires at the end of the next phase B"."""
    assert spell_expiry(2, 1) == 5
    timeline = run([mage(), foe()], [cast("Finch", 2, "magic missile")],
                   options=Phase2Options(durations={"magic missile": 1}))
    effect = only(timeline, "Finch", "effect")[0]
    assert (effect.end, effect.period) == (30, "phase B, cycle 2")
    with pytest.raises(RulesError):
        spell_expiry(0, 1)


def test_table5_schedule():
    """000 §3 B Table 5."""
    assert [table5_delay(level) for level in (1, 6, 7, 12)] == [2, 2, 1, 1]
    assert table5_delay(13) == 0 and table5_delay(13, second_in_a_row=True) == 1


def test_thirteenth_level_casts_twice_then_delays_once():
    """Table 5, 13+: "cast spell, cast spell, delay 1 phase"."""
    options = Phase2Options(caster_delay_by_level=True)
    pair = [cast("Finch", 1, "magic missile"), cast("Finch", 2, "magic missile")]
    timeline = run([mage(13), foe()], pair + [cast("Finch", 4, "magic missile")], options=options)
    assert len(only(timeline, "Finch", "cast")) == 3
    with pytest.raises(IllegalActionError) as error:
        run([mage(13), foe()], pair + [cast("Finch", 3, "magic missile")], options=options)
    assert error.value.rule == "000 §3 B Table 5"


def test_caster_attacking_after_casting_waits_two_phases_even_at_high_level():
    """000 §3 B: "If either a priest or mage wishes to physically attack after casting, the delay is
    automatically 2 phases"."""
    options = Phase2Options(caster_delay_by_level=True)
    with pytest.raises(IllegalActionError) as error:
        run([mage(13), foe()], [cast("Finch", 1, "magic missile"), attack("Finch", 2)], options=options)
    assert error.value.rule == "000 §3 B"
    timeline = run([mage(13), foe()], [cast("Finch", 1, "magic missile"), attack("Finch", 4)], options=options)
    assert only(timeline, "Finch", "attack")[0].period == "phase A, cycle 2"


def test_caster_delays_two_phases_after_a_physical_attack():
    """000 §3 C: "casters MUST delay two phases after a physical attack regardless of their delay
    time between spells"."""
    options = Phase2Options(caster_delay_by_level=True)
    with pytest.raises(IllegalActionError) as error:
        run([mage(13), foe()], [attack("Finch", 1), cast("Finch", 3, "magic missile")], options=options)
    assert error.value.rule == "000 §3 C"
    timeline = run([mage(13), foe()], [attack("Finch", 1), cast("Finch", 4, "magic missile")], options=options)
    assert len(only(timeline, "Finch", "cast")) == 1


def test_hit_while_casting_ruins_the_spell_until_the_next_phase_a():
    """000 §2 A: a hit while casting ruins the spell; no new spell "for the remainder of the round",
    here the rest of the A/B/C cycle."""
    declarations = [cast("Finch", 1, "cone of cold"), cast("Finch", 3, "magic missile"),
                    cast("Finch", 4, "magic missile")]
    timeline = run([mage(), foe()], declarations, hits=[Hit("Finch", 8, "Orc")])
    statuses = [(s.status, s.end) for s in timeline.for_actor("Finch") if s.kind == "cast"]
    assert statuses == [(Status.RUINED, 8), (Status.CANCELLED, 13), (Status.DONE, 19)]


def test_hit_in_the_phase_before_casting_and_a_failed_con_check_delays_a_phase():
    """000 §2 A: hit prior to the casting phase: delayed one phase on a failed CON check."""
    declarations = [cast("Finch", 2, "magic missile"), Declaration("Finch", 3, ActionKind.MISC, note="looks around")]
    failed = run([mage(abilities=Abilities(constitution=9)), foe()], declarations,
                 rolls=WIN | {"CON check: Finch, phase 2": 15}, hits=[Hit("Finch", 4, "Orc")])
    spell = only(failed, "Finch", "cast")[0]
    assert spell.period == "phase C, cycle 1"
    assert only(failed, "Finch", "misc", Status.CANCELLED)
    passed = run([mage(abilities=Abilities(constitution=9)), foe()], declarations,
                 rolls=WIN | {"CON check: Finch, phase 2": 9}, hits=[Hit("Finch", 4, "Orc")])
    assert only(passed, "Finch", "cast")[0].period == "phase B, cycle 1"


def test_components_must_be_readied_and_are_used_up():
    """000 §2 A: material components in hand at the start of casting; 000 §3 B: gathered anew."""
    ready = Declaration("Finch", 1, ActionKind.MISC, readies_components=True)
    timeline = run([mage(components_ready=False), foe()], [ready, cast("Finch", 2, "web")])
    assert only(timeline, "Finch", "cast")
    with pytest.raises(IllegalActionError) as error:
        run([mage(), foe()], [cast("Finch", 1, "web"), cast("Finch", 4, "web")])
    assert error.value.rule == "000 §2 A" and "material components" in str(error.value)


def test_touch_spell_delivered_in_a_later_phase():
    """000 §2 A Touch Spells: "The actual touch may be attempted during the attack portion of the
    next phase or later"."""
    timeline = run([mage(), foe()], [cast("Finch", 1, "shocking grasp", target="Orc"),
                                     attack("Finch", 2, spell="shocking grasp")])
    assert only(timeline, "Finch", "attack")[0].action == "touch: shocking grasp -> Orc"
    with pytest.raises(IllegalActionError):
        run([mage(), foe()], [attack("Finch", 2, spell="shocking grasp")])


def test_holding_a_spell_lets_the_caster_move():
    """000 §2 A Holding a Spell: up to 6 CT; "The caster may move freely while holding a spell"."""
    declarations = [cast("Finch", 1, "magic missile", hold=4), Declaration("Finch", 2, ActionKind.MOVE, feet=20)]
    timeline = run([mage(), foe()], declarations)
    hold = only(timeline, "Finch", "hold")[0]
    assert (hold.start, hold.end) == (1, 9)
    assert only(timeline, "Finch", "move")
    with pytest.raises(IllegalActionError):
        run([mage(), foe()], [cast("Finch", 1, "magic missile", hold=7)])


# ----------------------------------------------------------------- movement, surprise, errors


def test_long_move_spills_over_into_the_next_phases():
    """000 §3: "Actions such as movement and casting may 'spill over' into the next phase"."""
    runner = Combatant("Orc", "foes", weapons=(SWORD,))
    timeline = run([mage(), runner], [Declaration("Orc", 1, ActionKind.MOVE, feet=100)])
    assert [s.end for s in only(timeline, "Orc", "move")] == [6, 12, 18]
    with pytest.raises(IllegalActionError) as error:
        run([mage(), runner], [Declaration("Orc", 1, ActionKind.MOVE, feet=100), attack("Orc", 2, "Finch")])
    assert error.value.rule == "000 §1 C"


def test_closing_then_attacking_as_soon_as_able():
    """000 §3: "he attacks as soon as he is able": close 40' at MV 12 in A, strike in B."""
    timeline = run([mage(), foe()], [Declaration("Orc", 1, ActionKind.MOVE, "Finch"), attack("Orc", 2, "Finch")],
                   distances=[("Finch", "Orc", 40)])
    assert [s.kind for s in timeline.for_actor("Orc")] == ["move", "attack"]
    with pytest.raises(IllegalActionError) as error:
        run([mage(), foe()], [attack("Orc", 1, "Finch")], distances=[("Finch", "Orc", 40)])
    assert error.value.rule == "000 §2 D"


def test_surprised_figure_loses_the_first_phase():
    """000 §2 F, carried into Phase System II."""
    with pytest.raises(IllegalActionError) as error:
        run([mage(surprised=True), foe()], [cast("Finch", 1, "magic missile")])
    assert error.value.rule == "000 §2 F"


def test_bad_input_names_the_rule_and_the_value():
    with pytest.raises(IllegalActionError) as error:
        run([mage(), foe()], [cast("Finch", 0, "magic missile")])
    assert error.value.rule == "000 §3" and "got 0" in str(error.value)
    with pytest.raises(RulesError) as options_error:
        Phase2Options(schedules={"Vala": (0, 1)})
    assert options_error.value.rule == "000 §3 C Table 6" and "(0, 1)" in str(options_error.value)
    with pytest.raises(RulesError):
        Phase2Options(phases=0)
    with pytest.raises(RulesError):
        clock_for(0)
    with pytest.raises(IllegalActionError) as error:
        run([mage(), foe()], [cast("Finch", 1, "cone of cold"), Declaration("Finch", 2, ActionKind.MOVE, feet=10)])
    assert error.value.rule == "000 §1 C" and "casting cone of cold" in str(error.value)


def test_shipped_example_loads_and_schedules():
    encounter = load_example("phase2-tenth-level-caster")
    assert encounter.system == "phase2"
    for options in (Phase2Options(), Phase2Options(caster_delay_by_level=True)):
        timeline = PHASE2.schedule(encounter, Roller(seed=encounter.seed, entered=encounter.rolls), options)
        cone = [s for s in timeline.for_actor("Finchfingle") if "cone of cold" in s.action][0]
        assert (cone.start, cone.end) == (13, 22)  # begun as a winner in C, finished as a loser in A


def test_shipped_specialist_example_follows_the_favored_short_sword():
    """000 §3 C example as a shipped file: the short sword's own attacks_per_round (2) sets the schedule."""
    encounter = load_example("phase2-two-weapon-specialist")
    assert loads_encounter(dumps_toml(encounter)) == encounter  # the weapon's rate survives a round trip
    assert encounter.combatant("Saska").weapon("short sword").attacks_per_round == 2
    timeline = PHASE2.schedule(encounter, Roller(seed=encounter.seed, entered=encounter.rolls))
    blows = only(timeline, "Saska", "attack")
    assert [(s.action, s.period) for s in blows] == [
        ("short sword + dagger -> Ugluk", "phase A, cycle 1"), ("short sword -> Ugluk", "phase B, cycle 1"),
        ("short sword + dagger -> Ugluk", "phase A, cycle 2"), ("short sword -> Ugluk", "phase B, cycle 2"),
    ]
    assert [s.track for s in blows] == ["winner", "winner", "loser", "loser"]  # the orcs win the second A


def test_registered_with_aliases():
    from combatkit.systems.base import find_system

    assert find_system("Phase System II") is PHASE2
    assert PHASE2.clock.ticks == 18 and PHASE2.clock.describe(9) == "half-segment 9 (phase B, cycle 1)"


# ----------------------------------------------------------------- exact odds


def duel() -> Encounter:
    fighter = Combatant("Brienne", "party", weapons=(SWORD,), abilities=Abilities(dexterity=16))
    caster = Combatant("Mira", "foes", char_class="mage", spells=(Spell("sleep", 1, 3, "V,S"),))
    return Encounter("duel", (fighter, caster), (attack("Brienne", 1, "Mira"), cast("Mira", 1, "sleep", target="Brienne")),
                     hits=(Hit("Mira", 5, "Brienne"),))


def test_odds_are_exact():
    """Brienne (DEX 16, +1) strikes at half-segment 3 (winner) or 4 (loser); Mira's CT 3 sleep goes
    off at 5 (winner) or 6 (loser); a reported hit at 5 spoils it only on the loser track."""
    result = odds(duel(), "Brienne", "Mira")
    assert result["a first"] == 1
    # Mira is a loser when her d10 is higher than Brienne's side's: 45/100
    assert result["b spell interrupted"] == Fraction(45, 100)
    # Brienne is a winner unless her side's roll - 1 is higher than Mira's: P(rB - 1 <= rM) = 64/100
    assert result["a blow 1 @ 3"] == Fraction(64, 100)
    assert sum(v for k, v in result.items() if k in ("a first", "simultaneous", "b first", "neither")) == 1


def test_odds_of_a_plain_duel():
    """Two SF 5 swords, equal DEX: 9/20 each, 1/10 simultaneous (a tie puts both on the winner track)."""
    a = Combatant("A", "one", weapons=(SWORD,))
    b = Combatant("B", "two", weapons=(SWORD,))
    result = odds(Encounter("d", (a, b), (attack("A", 1, "B"), attack("B", 1, "A"))), "A", "B")
    assert (result["a first"], result["simultaneous"], result["b first"]) == (Fraction(9, 20), Fraction(1, 10),
                                                                              Fraction(9, 20))


def test_odds_match_a_monte_carlo_of_the_schedule():
    encounter = duel()
    exact = odds(encounter, "Brienne", "Mira")
    n = 1500
    sample = [(Fraction(1, n), PHASE2.schedule(encounter, Roller(seed=seed))) for seed in range(n)]
    estimate = matchup(sample, "Brienne", "Mira")
    for key in set(exact) | set(estimate):
        p = float(exact.get(key, 0))
        tolerance = 4.5 * math.sqrt(max(p * (1 - p), 1 / n) / n)
        assert abs(float(estimate.get(key, 0)) - p) <= tolerance, key


def test_odds_branch_on_the_con_check():
    """000 §2 A: hit in the phase before casting; on a failed CON check (d20 over CON 12) the CT 1 spell
    slips from phase B to C, behind the halberd that lands at the end of B either way."""
    halberd = Combatant("Orc", "foes", weapons=(Weapon("halberd", 9, magic_bonus=-1),))
    caster = mage(abilities=Abilities(constitution=12))
    encounter = Encounter("con", (halberd, caster), (attack("Orc", 2, "Finch"), cast("Finch", 2, "magic missile")),
                          hits=(Hit("Finch", 3, "arrow"),))
    result = odds(encounter, "Orc", "Finch")
    assert result["b first"] == Fraction(12, 20) and result["a first"] == Fraction(8, 20)
    n = 1000
    sample = [(Fraction(1, n), PHASE2.schedule(encounter, Roller(seed=seed))) for seed in range(n)]
    estimate = matchup(sample, "Orc", "Finch")["b first"]
    assert abs(float(estimate) - 0.6) <= 4.5 * math.sqrt(0.24 / n)


def test_phases_option_sets_the_clock_and_grows_to_fit():
    timeline = run([mage(), foe()], [cast("Finch", 1, "magic missile")], options=Phase2Options(phases=5))
    assert timeline.clock.ticks == 30 and timeline.clock.periods[-1].label == "phase B, cycle 2"
    grown = run([mage(), foe()], [cast("Finch", 7, "magic missile")], options=Phase2Options(phases=2))
    assert grown.clock.ticks == 42
    assert run([mage(), foe()], [cast("Finch", 1, "magic missile")]).clock.ticks == 18


def test_odds_reject_unknown_figures():
    with pytest.raises(RulesError):
        odds(duel(), "Brienne", "Nobody")
    with pytest.raises(RulesError):
        odds(duel(), "Mira", "Mira")


# ----------------------------------------------------------------- invariants

NAMES = ("P1", "P2", "F1", "F2")


@st.composite
def encounters(draw):
    combatants = []
    for name in NAMES:
        weapons = tuple(Weapon(f"w{i}", draw(st.integers(0, 12)), kind=draw(st.sampled_from(list(WeaponKind))),
                               rate_of_fire=draw(st.sampled_from([Fraction(1), Fraction(2)])),
                               attacks_per_round=draw(st.sampled_from([None, None, *TABLE_6])))
                        for i in range(draw(st.integers(1, 3))))
        spells = tuple(Spell(f"spell{i}", 1, draw(st.sampled_from([1, 2, 3, 4, 5, 7, 9, 10, ONE_ROUND])),
                             draw(st.sampled_from(["V", "V,S,M"]))) for i in range(draw(st.integers(0, 2))))
        combatants.append(Combatant(
            name, "party" if name[0] == "P" else "foes", level=draw(st.integers(1, 15)), weapons=weapons,
            spells=spells, attacks_per_round=draw(st.sampled_from(list(TABLE_6))),
            abilities=Abilities(dexterity=draw(st.integers(3, 18)), constitution=draw(st.integers(3, 18))),
            components_ready=draw(st.booleans()), surprised=draw(st.sampled_from([False, False, False, True]))))
    declarations = []
    for _ in range(draw(st.integers(0, 10))):
        actor = draw(st.sampled_from(NAMES))
        kind = draw(st.sampled_from(list(ActionKind)))
        me = next(c for c in combatants if c.name == actor)
        spell = draw(st.sampled_from([s.name for s in me.spells])) if kind is ActionKind.CAST and me.spells \
            else None
        if kind is ActionKind.CAST and spell is None:
            kind = ActionKind.MISC
        declarations.append(Declaration(
            actor, draw(st.integers(1, 9)), kind, draw(st.sampled_from([None, *[n for n in NAMES if n != actor]])),
            weapons=draw(st.sampled_from([(), ("w0",), ("w0", "w1"), ("w1", "w2")])) if kind is ActionKind.ATTACK
            and len(me.weapons) == 3 else (),
            spell=spell, attacks=draw(st.sampled_from([1, 1, 2])), hold=draw(st.sampled_from([0, 0, 2])),
            feet=draw(st.sampled_from([None, 20, 90])) if kind is ActionKind.MOVE else None,
            readies_components=draw(st.booleans()) if kind is ActionKind.MISC else False))
    hits = tuple(Hit(draw(st.sampled_from(NAMES)), draw(st.integers(1, 54))) for _ in range(draw(st.integers(0, 3))))
    return Encounter("random", tuple(combatants), tuple(declarations), hits=hits,
                     distances=(("P1", "F1", draw(st.sampled_from([0, 5, 30]))),))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encounters(), st.integers(0, 2**16), st.booleans(), st.booleans())
def test_any_encounter_schedules_inside_its_phases_or_raises_a_rules_error(encounter, seed, table5, forms):
    options = Phase2Options(caster_delay_by_level=table5, attack_forms=forms)
    try:
        timeline = PHASE2.schedule(encounter, Roller(seed=seed), options)
    except RulesError:
        return
    again = PHASE2.schedule(encounter, Roller(seed=seed), options)
    assert again == timeline  # same seed, same timeline
    declared = {(d.actor, d.phase) for d in encounter.declarations}
    for span in timeline:
        assert 1 <= span.start <= span.end <= timeline.clock.ticks
        phase = (span.end - 1) // 6 + 1
        assert span.period == phase_label(phase)
        assert span.track in (Track.WINNER.value, Track.LOSER.value, None)
        if span.kind == "attack" and span.status is Status.DONE:
            assert (span.actor, phase) in declared  # a blow lands in the phase it was declared for
        if span.kind == "cast" and span.status is Status.DONE:
            begun = (span.start - 1) // 6 + 1
            assert (span.actor, begun) in declared or (span.actor, begun - 1) in declared  # on time or slipped


# ----------------------------------------------------------------- whole fights: one continuous run of phases (#46)


def fight_of(combatants, declarations, rolls=WIN, options=None, rounds=2, distances=(("Finch", "Orc", 5),)):
    """A fight whose round 1 is the given declarations (the encounter's own, with its entered dice), the policy's
    after it."""
    encounter = Encounter("continuous", tuple(combatants), tuple(declarations), distances=distances, rolls=rolls,
                          system="phase2")
    return run_fight(encounter, "phase2", seed=3, options=FightOptions(max_rounds=rounds), system_options=options)


def phases_of(fight, r, actor, kind):
    return [d.phase for d in fight.rounds[r - 1].declarations if d.actor == actor and d.kind is kind]


def sturdy(c: Combatant) -> Combatant:
    return replace(c, hit_points=500)


@pytest.mark.parametrize(("rate", "round1", "round2"), [
    (Fraction(1), [3], [3]),  # attack (C), delay (A), delay (B), attack (C)
    (Fraction(2), [2, 3], [2, 3]),  # attack (B), attack (C), delay (A), attack (B), attack (C)
])
def test_attack_sequence_runs_on_across_the_round_boundary(rate, round1, round2):
    """000 §3 C: "The sequence may begin on any phase"; 000 §3: after an attack the combatant "must wait a certain
    number of phases (typically 2)". A sequence begun late in one cycle goes on in the next: one attack begun in C
    waits through the next A and B; two begun in B give B, C, (delay) A, B, not three attacks in a row."""
    hero = Combatant("Vala", "party", level=13, char_class="fighter", hit_points=500, attacks_per_round=rate,
                     weapons=(SWORD,))
    fight = fight_of([hero, sturdy(foe())], [attack("Vala", p) for p in round1], distances=(("Vala", "Orc", 5),))
    assert phases_of(fight, 1, "Vala", ActionKind.ATTACK) == round1
    assert phases_of(fight, 2, "Vala", ActionKind.ATTACK) == round2
    blows = [s for s in fight.rounds[1].timeline.spans if s.actor == "Vala" and s.kind == "attack"]
    assert "last round" in blows[0].why  # the sequence it goes on with was begun in the round before


def test_a_spell_spilling_into_the_next_cycle_carries_its_casting_and_its_delay():
    """000 §3 B: a 10th-level caster's CT 5 spell begun in C "is not completed until A. The caster delays only during
    phase B (being 10th level), then can begin casting again on phase C" (Table 5). In a fight that A, B and C are
    the next round's: Finch is still casting in its phase A, delays in B, and begins no spell (nor strikes) before
    C; the next round's tracks are the ones rolled at that phase A (000 §3 A: one roll at each phase A)."""
    rolls = WIN | {"initiative: party, cycle 2": 9, "initiative: foes, cycle 2": 1}  # the party loses at cycle 2's A
    fight = fight_of([sturdy(mage(10)), sturdy(foe())], [cast("Finch", 3, "cone of cold")], rolls=rolls,
                     options=Phase2Options(caster_delay_by_level=True))
    first, second = fight.rounds[0].timeline, fight.rounds[1].timeline
    assert [s.period for s in first.spans if s.actor == "Finch" and s.kind == "cast"] == ["phase C, cycle 1"]
    acts = [(d.phase, d.kind) for d in fight.rounds[1].declarations if d.actor == "Finch"]
    assert acts and min(p for p, kind in acts if kind in (ActionKind.CAST, ActionKind.ATTACK)) == 3
    assert not any(r.purpose.startswith("initiative") for r in second.rolls)  # no second roll at the same phase A
    assert [s.track for s in second.spans if s.actor == "Finch" and s.kind == "cast"][0] == Track.LOSER
    assert any("cone of cold" in n and "last round" in n for n in second.notes)


LOSE_CYCLE_2 = WIN | {"initiative: party, cycle 2": 9, "initiative: foes, cycle 2": 1}
"""The party wins round 1's phase A and loses the next, round 2's: there the Orc strikes (SF 5, winner track) on
half-segment 3, before Finch's last casting unit (loser track) on half-segment 4."""


def spilling_fight(round2_roll: int):
    """Finch (10th level) begins cone of cold (CT 5) in round 1's C; the Orc's blows in round 1's A (a miss) and
    round 2's A (``round2_roll``) are entered."""
    rolls = LOSE_CYCLE_2 | {"attack roll: Orc [round 1, tick 4]": 1, "attack roll: Orc [round 2, tick 3]": round2_roll}
    return fight_of([sturdy(mage(10)), sturdy(foe())], [cast("Finch", 3, "cone of cold", target="Orc")], rolls=rolls)


def cone_events(fight, r):
    return [(e.kind, e.tick) for e in fight.rounds[r - 1].events if e.actor == "Finch"
            and e.kind in (EventKind.SPELL, EventKind.SPELL_RUINED)]


def test_a_spell_running_on_past_phase_c_goes_off_in_the_next_round():
    """000 §3: casting "continuing beyond the end of phase C [is] picked up in the next phase A"; 000 §3 B. The phases
    run on, a round of a fight is one A/B/C cycle of them. Round 1 shows its own cycle only: Finch's cone of cold begun
    in its C (3 CT units there) is still under way at its end and does not go off in it; round 2 shows it from its first
    half-segment to its release on its own phase A's half-segment 4 (the last 2 units, loser track), where it goes
    off."""
    fight = spilling_fight(round2_roll=1)
    first, second = fight.rounds[0].timeline, fight.rounds[1].timeline
    assert first.clock.ticks == 18 and [p.label for p in first.clock.periods][-1] == "phase C, cycle 1"
    [begun] = [s for s in first.spans if s.actor == "Finch" and s.kind == "cast"]
    assert (begun.start, begun.end, begun.marks) == (13, 18, frozenset({UNDER_WAY}))
    assert "goes off in the next round's phase A" in begun.why
    assert cone_events(fight, 1) == []
    [done] = [s for s in second.spans if s.actor == "Finch" and s.kind == "cast" and "cone of cold" in s.action]
    assert (done.start, done.end, done.period, done.status, done.track) == (1, 4, "phase A, cycle 1", Status.DONE,
                                                                            Track.LOSER)
    assert done.rule.startswith("000 §3 B")
    assert cone_events(fight, 2)[0] == (EventKind.SPELL, 4)
    finch = fight.figure("Finch")
    assert finch.spells_attempted >= 1 and "cone of cold" in finch.spells_used


def test_a_hit_in_the_next_round_ruins_a_spell_still_under_way():
    """000 §2 A: a hit on the caster while casting ruins the spell; no spell or attack for the rest of the cycle. The
    Orc's blow lands on round 2's half-segment 3, before Finch's cone of cold (begun in round 1's C) goes off on 4:
    it is ruined (and spent)."""
    fight = spilling_fight(round2_roll=20)
    assert cone_events(fight, 1) == []
    assert cone_events(fight, 2)[0] == (EventKind.SPELL_RUINED, 3)
    second = fight.rounds[1].timeline
    [ruined] = [s for s in second.spans if s.actor == "Finch" and "cone of cold" in s.action]
    assert (ruined.start, ruined.end, ruined.status) == (1, 3, Status.RUINED)
    assert "cone of cold" in fight.figure("Finch").spells_used


def test_a_spell_slipped_past_phase_c_by_a_failed_con_check_begins_and_goes_off_in_the_next_round():
    """000 §2 A: a hit in the phase before casting and a failed CON check delay the casting a phase. Begun in C, that
    phase is the next round's A: round 1 shows Finch shaken in C and no casting; round 2 casts cone of cold from its
    half-segment 1 and sets it off (000 §3 B)."""
    rolls = WIN | {"attack roll: Orc [round 1, tick 10]": 20, "CON check: Finch, phase 3": 20}
    fight = fight_of([sturdy(mage(10)), sturdy(foe())],
                     [attack("Orc", 2, target="Finch"), cast("Finch", 3, "cone of cold", target="Orc")], rolls=rolls)
    first, second = fight.rounds[0].timeline, fight.rounds[1].timeline
    assert [s.kind for s in first.spans if s.actor == "Finch"] == ["misc"]
    assert any("slipped a phase, begins in the next round" in n for n in first.notes)
    [done] = [s for s in second.spans if s.actor == "Finch" and "cone of cold" in s.action]
    assert (done.start, done.status) == (1, Status.DONE)
    assert cone_events(fight, 2)[0] == (EventKind.SPELL, done.end)


def test_casting_delay_carries_under_the_base_rule():
    """000 §3 B Casting Delay: "the caster must wait two phases before casting again or attacking physically". A
    spell completed in C leaves the next round's A and B to the delay."""
    fight = fight_of([sturdy(mage(3)), sturdy(foe())], [cast("Finch", 3, "magic missile")])
    acts = [(d.phase, d.kind) for d in fight.rounds[1].declarations if d.actor == "Finch"]
    assert acts and min(p for p, kind in acts if kind in (ActionKind.CAST, ActionKind.ATTACK)) == 3


# ----------------------------------------------------------------- durations counted in phases in a fight (#46)

ONE_ROUND_HOLD = SpellEffect("hold", EffectKind.HOLD, "a hold of one round (test)", save=Save.NEGATES, duration=1)
SAVE_FAILED = WIN | {"CON check: Finch, phase 2": 1, "save vs spell: Orc [round 1, tick 11]": 1}
"""The Orc's blow in phase A does not delay Finch's hold (000 §2 A: its CON check made), which is completed on
half-segment 11 (phase B) and finds the Orc's save failed."""


def hold_caster(spell: Spell) -> Combatant:
    return Combatant("Finch", "party", level=10, char_class="mage", hit_points=500, weapons=(DAGGER,), spells=(spell,))


def orc_blows(fight, r):
    return [s.period for s in fight.rounds[r - 1].timeline.spans if s.actor == "Orc" and s.kind == "attack"
            and s.status is Status.DONE]


def recovered(fight, r):
    return [(e.actor, e.when) for e in fight.rounds[r - 1].events if e.kind is EventKind.RECOVER]


def test_a_hold_cast_in_phase_b_holds_through_the_next_phase_b():
    """000 §3 B: "if a spell cast in phase B lasts one round, it expires at the end of the next phase B after all
    movement and combat has been resolved". Finch's one-round hold takes the Orc in round 1's B (its save failed):
    the Orc strikes in neither A nor B of round 2, is back in the fight at the end of that B, and strikes in its C."""
    fight = fight_of([hold_caster(Spell("hold", 3, 3, "V,S", effect=ONE_ROUND_HOLD)), sturdy(foe())],
                     [cast("Finch", 2, "hold", target="Orc")], rolls=SAVE_FAILED)
    assert [e.outcome for e in fight.rounds[0].events if e.kind is EventKind.EFFECT] == ["held"]
    assert recovered(fight, 1) == []
    assert recovered(fight, 2) == [("Orc", "half-segment 12 (phase B, cycle 1)")]
    assert orc_blows(fight, 2) == ["phase C, cycle 1"]
    assert [n for n in fight.rounds[1].timeline.notes if "Orc" in n and "000 §3 B" in n]  # the schedule says why


def test_durations_option_and_the_resolver_end_the_hold_together():
    """``Phase2Options.durations`` names the rounds a spell lasts: the timeline's effect span and the resolver's hold
    end at the end of the same phase (000 §3 B), not with the spell's effect data (hold person: 2 rounds a level)."""
    options = Phase2Options(durations={"hold person": 1})
    fight = fight_of([hold_caster(Spell("hold person", 3, 3, "V,S")), sturdy(foe())],
                     [cast("Finch", 2, "hold person", target="Orc")], rolls=SAVE_FAILED, options=options)
    effect = only(fight.rounds[0].timeline, "Finch", "effect")[0]
    assert (effect.end, effect.period) == (30, "phase B, cycle 2")  # round 2's half-segment 12
    assert recovered(fight, 2) == [("Orc", "half-segment 12 (phase B, cycle 1)")]
    assert orc_blows(fight, 2) == ["phase C, cycle 1"]


def test_a_condition_cast_in_phase_b_lasts_to_the_next_phase_b():
    """000 §3 B for a condition (a web): cast in round 1's B and lasting one round, it holds through round 2's B
    (the fight's phases counted from 0: B of round 1 is 1, B of round 2 is 4), and the fast path plays the same."""
    web = SpellEffect("web", EffectKind.WEB, "a web of one round (test)", save=Save.NEGATES, duration=1)
    combatants = (hold_caster(Spell("web", 2, 3, "V,S", effect=web)), sturdy(foe()))
    declarations = (cast("Finch", 2, "web", target="Orc"),)
    fight = fight_of(combatants, declarations, rolls=SAVE_FAILED)
    orc = next(f for f in fight.rounds[0].figures if f.name == "Orc")
    assert [(a.condition.id, a.first, a.last) for a in orc.conditions] == [("web", 1, 4)]
    encounter = Encounter("continuous", combatants, declarations, distances=(("Finch", "Orc", 5),), rolls=SAVE_FAILED,
                          system="phase2")
    fast = run_fight(encounter, "phase2", seed=3, options=FightOptions(max_rounds=2), explain=False)
    assert fast.figures == fight.figures
