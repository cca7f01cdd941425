"""Lakofka's Segment of Action system (seed 003): worked examples, rules, odds, invariants."""

from __future__ import annotations

import itertools
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
    Encounter,
    EnteredRollError,
    Hit,
    Length,
    Roller,
    Spell,
    Weapon,
    WeaponKind,
    load_example,
)
from combatkit.errors import IllegalActionError, RulesError
from combatkit.fight import run_fight
from combatkit.systems._exhaust import matchup
from combatkit.systems.segments import (
    CLOCK,
    LAST,
    SEGMENTS,
    MagicItem,
    SegmentsOptions,
    odds,
    save_vs_death,
    speed_band,
    tick_of,
)
from combatkit.timeline import Status

LONG_SWORD = Weapon("long sword", 5, damage="d8")
TIMING = SegmentsOptions(kills=False)
"""003 §I: "Again let us say neither is slain": timing alone, nobody falls."""


def warrior(**kw) -> Combatant:
    return Combatant("Warrior", "party", armor_class=7, thac0=20, hit_points=kw.pop("hit_points", 12),
                     weapons=kw.pop("weapons", (LONG_SWORD,)), **kw)


def hobgoblin(**kw) -> Combatant:
    return Combatant("Hobgoblin", "hobgoblins", char_class="monster", armor_class=5, thac0=19,
                     hit_points=kw.pop("hit_points", 7), weapons=(LONG_SWORD,), **kw)


def attack(actor: str, target: str | None, phase: int = 1, **kw) -> Declaration:
    return Declaration(actor, phase, ActionKind.ATTACK, target, **kw)


def run(combatants, declarations, rolls=None, options=TIMING, seed=0, hits=(), distances=(), round_number=1):
    encounter = Encounter("test", tuple(combatants), tuple(declarations), hits=tuple(hits),
                          distances=tuple(distances), round=round_number, system="segments")
    return SEGMENTS.schedule(encounter, Roller(seed=seed, entered=rolls or {}), options)


def melee_round(w_segment, w_d20, h_segment, h_d20, options=TIMING, **rolls):
    entered = {"segment: Warrior": w_segment, "to hit: Warrior -> Hobgoblin": w_d20,
               "segment: Hobgoblin": h_segment, "to hit: Hobgoblin -> Warrior": h_d20, **rolls}
    return run([warrior(), hobgoblin()], [attack("Warrior", "Hobgoblin"), attack("Hobgoblin", "Warrior")],
               entered, options)


def acts(timeline, actor=None, kind="attack"):
    return [s for s in timeline.spans if (actor is None or s.actor == actor) and s.kind == kind]


# ----------------------------------------------------------------- 003 §I


def test_warrior_and_hobgoblin_first_round():
    """003 §I: "Warrior rolls 7/17. Hobgoblin rolls 3/5. The Hobgoblin has the chance to strike first
    (segment #3) but misses with a roll of 5 "to hit." The warrior does not get a chance to strike
    until segment 7 but then succeeds with a 17"."""
    timeline = melee_round(7, 17, 3, 5)
    hob, war = timeline.spans
    assert (hob.actor, hob.end, war.actor, war.end) == ("Hobgoblin", 3, "Warrior", 7)
    assert "needs 12: d20 5: miss" in hob.why and "needs 15: d20 17: hit" in war.why
    assert hob.rule == "003 §I: d10 for the segment of the blow"


def test_warrior_and_hobgoblin_simultaneous_blows():
    """003 §I: "Warrior rolls 5/18. Hobgoblin rolls 5/20. Simultaneous blows, and both hit!"."""
    timeline = melee_round(5, 18, 5, 20)
    assert {s.end for s in timeline.spans} == {5}
    assert all(": hit" in s.why for s in timeline.spans)
    assert len(timeline.landing_at(5)) == 2


def test_warrior_kills_the_hobgoblin_before_its_blow():
    """003 §I: "Warrior rolls 4/18. Hobgoblin rolls 7/16. The Warrior goes first and hits. If he kills
    the Hobgoblin, the melee is over since the Hobgoblin's chance to hit does not come until the 7th
    segment"."""
    timeline = melee_round(4, 18, 7, 16, SegmentsOptions(), **{"damage: Warrior -> Hobgoblin": 8})
    war, hob = timeline.spans
    assert (war.end, war.status) == (4, Status.DONE)
    assert (hob.end, hob.status) == (7, Status.CANCELLED)
    assert "Hobgoblin falls at segment 4" in " ".join(timeline.notes)


def test_killed_figure_still_strikes_simultaneously():
    """003 §I Option's first clause, and the base example: simultaneous blows both land."""
    timeline = melee_round(5, 18, 5, 20, SegmentsOptions(), **{"damage: Warrior -> Hobgoblin": 8,
                                                                 "damage: Hobgoblin -> Warrior": 3})
    assert all(s.status is Status.DONE for s in timeline.spans)


@pytest.mark.parametrize(("late", "save", "status"), [(1, 14, Status.DONE), (1, 13, Status.CANCELLED),
                                                      (2, 20, Status.CANCELLED)])
def test_dying_blow_option(late, save, status):
    """003 §I Option: "If "initiative" is off by 2 or more segments the blow is always lost. However,
    if the blow is only 1 segment late the dying figure still is allowed a blow if the dying figure
    makes a normal saving throw versus death"."""
    options = SegmentsOptions(dying_blow=True)
    timeline = melee_round(4, 18, 4 + late, 16, options, **{"damage: Warrior -> Hobgoblin": 8,
                                                           "save vs death: Hobgoblin": save})
    hob = acts(timeline, "Hobgoblin")[0]
    assert hob.status is status
    assert save_vs_death(hobgoblin()) == 14  # a 1 HD monster saves as a 1st-level warrior (PH Table 60)
    without = melee_round(4, 18, 5, 16, SegmentsOptions(), **{"damage: Warrior -> Hobgoblin": 8})
    assert acts(without, "Hobgoblin")[0].status is Status.CANCELLED


# ----------------------------------------------------------------- 003 §II


def fighter_with(blows) -> Combatant:
    return warrior(attacks_per_round=Fraction(blows))


def test_two_blows_on_2d6():
    """003 §II: "The first d6 gives the segment of the first blow, the second d6 added to it gives the
    time of the second blow"."""
    timeline = run([fighter_with(2), hobgoblin()], [attack("Warrior", "Hobgoblin")], {"blows: Warrior": (2, 5)})
    assert [s.end for s in acts(timeline)] == [2, 7]
    assert acts(timeline)[0].rule == "003 §II: 2 blows on 2d6"


def test_two_blows_past_ten_is_the_last_action():
    """003 §II: "If the sum of the two is 11 or 12, then the last blow is still awarded but it is the
    last action of the round"."""
    timeline = run([fighter_with(2), hobgoblin()], [attack("Warrior", "Hobgoblin")], {"blows: Warrior": (6, 6)})
    second = acts(timeline)[1]
    assert (second.end, second.status, second.period) == (LAST, Status.DONE, "last actions")
    assert CLOCK.describe(LAST) == "segment 11 (last actions)"


def test_three_blows_on_3d4():
    """003 §II: "If three blows are allowed, use 3d4 for the first, second and third blows"."""
    timeline = run([fighter_with(3), hobgoblin()], [attack("Warrior", "Hobgoblin")], {"blows: Warrior": (1, 2, 4)})
    assert [s.end for s in acts(timeline)] == [1, 3, 7]


def test_blows_need_each_die_not_a_total():
    with pytest.raises(IllegalActionError) as error:
        run([fighter_with(2), hobgoblin()], [attack("Warrior", "Hobgoblin")], {"blows: Warrior": 7})
    assert error.value.rule == "003 §II" and "total 7" in str(error.value)


def test_three_halves_blows_alternate_by_round():
    """Attacks per round 3/2: one blow (d10) in odd rounds, two (2d6) in even ones."""
    fighter = fighter_with(Fraction(3, 2))
    odd = run([fighter, hobgoblin()], [attack("Warrior", "Hobgoblin")])
    even = run([fighter, hobgoblin()], [attack("Warrior", "Hobgoblin")], round_number=2)
    assert (len(acts(odd)), len(acts(even))) == (1, 2)


def bear(*names) -> Combatant:
    return Combatant("Bear", "beasts", char_class="monster", level=4,
                     weapons=tuple(Weapon(n, kind=WeaponKind.NATURAL, damage="d6") for n in names))


def test_monster_routine_against_one_opponent_one_d10():
    """003 §II: "I suggest only one die for all three attacks if they are all against one opponent"."""
    timeline = run([bear("claw", "bite"), warrior()],
                   [attack("Bear", "Warrior", weapons=("claw", "claw", "bite"))], {"segment: Bear": 6})
    routine = acts(timeline, "Bear")
    assert len(routine) == 1 and routine[0].end == 6 and routine[0].action == "claw + claw + bite -> Warrior"
    assert [r.purpose for r in timeline.rolls if r.purpose.startswith("to hit")] == [
        "to hit: Bear -> Warrior, claw 1", "to hit: Bear -> Warrior, claw 2", "to hit: Bear -> Warrior, bite"]


def test_monster_against_two_opponents_a_d10_each_never_two_in_a_segment():
    """003 §II: "If against more than one opponent, then use a separate d10 for each opponent";
    003 §III: "A figure should NEVER be allowed two actions in one segment"."""
    other = Combatant("Squire", "party", weapons=(LONG_SWORD,))
    declarations = [attack("Bear", "Warrior", weapons=("claw", "claw")), attack("Bear", "Squire", weapons=("bite",))]
    timeline = run([bear("claw", "bite"), warrior(), other], declarations,
                   {"segment: Bear -> Warrior": 6, "segment: Bear -> Squire": 6})
    assert [(s.target, s.end) for s in acts(timeline, "Bear")] == [("Warrior", 6), ("Squire", 7)]
    assert "never two actions in one segment" in acts(timeline, "Bear")[1].rule


def test_demon_with_seven_attacks_three_d10():
    """003 §II: "a Demon Type V gains 7 attacks ... Compromise on 3d10, the first roll for 3 arms, the
    second for 3 more and the last for the tail"."""
    demon = Combatant("Marilith", "demons", char_class="monster", level=7,
                      weapons=(Weapon("arm", kind=WeaponKind.NATURAL), Weapon("tail", kind=WeaponKind.NATURAL)))
    timeline = run([demon, warrior()], [attack("Marilith", "Warrior", weapons=("arm",) * 6 + ("tail",))],
                   {"segment: Marilith": 2, "segment: Marilith, forms 2": 5, "segment: Marilith, forms 3": 9})
    assert [(s.action, s.end) for s in acts(timeline, "Marilith")] == [
        ("arm + arm + arm -> Warrior", 2), ("arm + arm + arm -> Warrior", 5), ("tail -> Warrior", 9)]


# ----------------------------------------------------------------- 003 §III


def archer(shots=2, **kw) -> Combatant:
    bow = Weapon("long bow", 8, kind=WeaponKind.MISSILE, length=Length.LONG, rate_of_fire=Fraction(shots))
    return Combatant("Archer", "party", hit_points=kw.pop("hit_points", 12),
                     weapons=(bow, Weapon("two-handed sword", 10, length=Length.LONG, damage="d10")), **kw)


def test_single_missile_on_d6():
    """003 §III: "d6 or even d4 is used for missiles with only a single firing per round, like a spear"."""
    spear = Weapon("spear", 6, kind=WeaponKind.MISSILE, length=Length.LONG)
    thrower = warrior(weapons=(spear,))
    timeline = run([thrower, hobgoblin()], [attack("Warrior", "Hobgoblin")], {"segment: Warrior": 6})
    assert acts(timeline)[0].end == 6
    assert timeline.rolls[0].dice.sides == 6
    with pytest.raises(EnteredRollError):  # a d6 cannot roll 7
        run([thrower, hobgoblin()], [attack("Warrior", "Hobgoblin")], {"segment: Warrior": 7})
    faster = run([thrower, hobgoblin()], [attack("Warrior", "Hobgoblin")], options=SegmentsOptions(missile_die="d4"))
    assert faster.rolls[0].dice.sides == 4


def test_two_arrows_on_2d6_second_allowed_past_ten():
    """003 §III: "if an archer is allowed two arrows per melee round 2d6 would be used ... Even if the
    total of the 2d6 is 11 or 12, the second arrow is allowed unless the archer is hit/killed"."""
    timeline = run([archer(), hobgoblin()], [attack("Archer", "Hobgoblin")], {"shots: Archer": (5, 6)})
    assert [(s.end, s.status) for s in acts(timeline)] == [(5, Status.DONE), (LAST, Status.DONE)]
    hit = run([archer(), hobgoblin()], [attack("Archer", "Hobgoblin"), attack("Hobgoblin", "Archer")],
              {"shots: Archer": (5, 6), "segment: Hobgoblin": 8, "to hit: Hobgoblin -> Archer": 20,
               "shot delay: Archer": 1})
    assert acts(hit, "Archer")[1].status is Status.CANCELLED


def test_guarding_archer_d4_then_d6():
    """003 §III: "If the archer is ready and "guarding" you might allow d4 for the first arrow and d6
    for the second"."""
    guard = [Declaration("Archer", 1, ActionKind.READY), attack("Archer", "Hobgoblin", phase=2)]
    timeline = run([archer(), hobgoblin()], guard, {"shot 1: Archer, step 2": 4, "shot 2: Archer, step 2": 6})
    assert [s.end for s in acts(timeline)] == [4, 10]
    assert [r.dice.sides for r in timeline.rolls[:2]] == [4, 6]


def test_archer_hit_loses_initiative_on_the_second_arrow():
    """003 §III: "An archer who takes damage ... should lose some initiative when firing. An addition of
    1-4 to the second d6 is a reasonable penalty"."""
    rolls = {"shots: Archer": (2, 3), "segment: Hobgoblin": 3, "to hit: Hobgoblin -> Archer": 20,
             "shot delay: Archer": 4}
    timeline = run([archer(), hobgoblin()], [attack("Archer", "Hobgoblin"), attack("Hobgoblin", "Archer")], rolls)
    assert [s.end for s in acts(timeline, "Archer")] == [2, 9]
    assert "d4 = 4 segment(s) added to the next shot" in acts(timeline, "Archer")[1].why


def orc() -> Combatant:
    return Combatant("Orc", "orcs", char_class="monster", armor_class=6, thac0=19, hit_points=6,
                     weapons=(Weapon("scimitar", 5, damage="d8"),))


def test_spear_throw_then_close_then_short_sword():
    """003 §III: "a fighter has a spear and a short sword. He wishes to throw the spear and then cross
    "three inches" to melee an opponent. Roll d4 for the spear, add '3' for the movement, then since
    the weapon is small (sword) and light he can draw it and still strike (roll another d4)"."""
    spear = Weapon("spear", 6, kind=WeaponKind.MISSILE, length=Length.LONG)
    fighter = warrior(weapons=(spear, Weapon("short sword", 3, length=Length.SHORT)))
    declarations = [attack("Warrior", "Orc", weapons=("spear",)), Declaration("Warrior", 2, ActionKind.MOVE, "Orc"),
                    attack("Warrior", "Orc", phase=3, weapons=("short sword",))]
    rolls = {"segment: Warrior, step 1": 2, "weapon ready: Warrior, step 3": 4}
    timeline = run([fighter, orc()], declarations, rolls, distances=[("Warrior", "Orc", 30)])
    assert [(s.kind, s.start, s.end) for s in timeline.for_actor("Warrior")] == [
        ("attack", 2, 2), ("move", 3, 5), ("attack", 3 + 3, 9)]
    assert [r.dice.sides for r in timeline.rolls if r.purpose.startswith(("segment", "weapon"))] == [4, 4]


@pytest.mark.parametrize(("d8", "status", "end"), [(1, Status.DONE, 9), (2, Status.DONE, 10),
                                                   (3, Status.CANCELLED, LAST), (8, Status.CANCELLED, LAST)])
def test_arrow_drop_bow_two_handed_sword(d8, status, end):
    """003 §III: "Roll d4 for the arrow (let's say a 3), then add '5' for the movement, which means it is
    the 8th segment when the man arrives ... I'd use d8 ... If 1 or 2 comes up, the blow is allowed
    ... But if 11 to 16 comes up the blow should be disallowed altogether"."""
    declarations = [attack("Archer", "Orc"), Declaration("Archer", 2, ActionKind.MOVE, "Orc"),
                    attack("Archer", "Orc", phase=3, weapons=("two-handed sword",))]
    rolls = {"segment: Archer, step 1": 3, "weapon ready: Archer, step 3": d8}
    timeline = run([archer(), orc()], declarations, rolls, distances=[("Archer", "Orc", 50)])
    arrow, move, blow = timeline.for_actor("Archer")
    assert (arrow.end, move.end) == (3, 8)
    assert (blow.status, blow.end) == (status, end)
    assert timeline.rolls[1].dice.sides == 8
    if status is Status.CANCELLED:
        assert "disallowed" in blow.why
        last = run([archer(), orc()], declarations, rolls, options=SegmentsOptions(kills=False,
                                                                                    chain_overflow_last=True),
                   distances=[("Archer", "Orc", 50)])
        assert (last.for_actor("Archer")[2].status, last.for_actor("Archer")[2].end) == (Status.DONE, LAST)


def test_missile_at_a_figure_closing_in_on_d4():
    """003 §III: "(or if he fires and is then closed with by an opponent) the missile is measured by d4"."""
    timeline = run([archer(shots=1), orc()], [attack("Archer", "Orc"), Declaration("Orc", 1, ActionKind.MOVE, "Archer")],
                   distances=[("Archer", "Orc", 40)])
    assert timeline.rolls[0].dice.sides == 4 and "at a foe closing in" in acts(timeline, "Archer")[0].why


# ----------------------------------------------------------------- 003 §IV-V


def mage(**kw) -> Combatant:
    spells = (Spell("sleep", 1, 1, "V,S,M"), Spell("magic missile", 1, 1, "V,S"), Spell("fireball", 3, 3, "V,S,M"),
              Spell("wall of fire", 4, 4, "V,S,M"), Spell("wand of frost", 6, 1, "V"))
    return Combatant("Mage", "party", char_class="mage", level=7, armor_class=10, hit_points=kw.pop("hit_points", 20),
                     spells=spells, **kw)


def cast(spell: str, phase: int = 1, target: str | None = "Orc") -> Declaration:
    return Declaration("Mage", phase, ActionKind.CAST, target, spell=spell)


def test_spell_begins_on_d4_and_goes_off_after_its_casting_time():
    """003 §IV: "if a 1 is rolled on d4 the spell caster begins his/her casting in segment #1 and
    finishes as many segments later as the spell-casting time dictates"."""
    timeline = run([mage(), orc()], [cast("fireball")], {"spell start: Mage": 1})
    spell = acts(timeline, "Mage", "cast")[0]
    assert (spell.start, spell.end, spell.status) == (1, 4, Status.DONE)
    assert timeline.rolls[0].dice.sides == 4


def test_hit_during_casting_ruins_the_spell():
    """003 §IV: "If he/she is hit during the casting, the spell is ruined and useless"."""
    rolls = {"spell start: Mage": 2, "segment: Orc": 4, "to hit: Orc -> Mage": 15}
    timeline = run([mage(), orc()], [cast("fireball"), attack("Orc", "Mage")], rolls)
    spell = acts(timeline, "Mage", "cast")[0]
    assert (spell.status, spell.end) == (Status.RUINED, 4)
    assert "(AC 14: casting, relatively immobile, 003 §IV)" in acts(timeline, "Orc")[0].why


@pytest.mark.parametrize("tick", [2, 3])
def test_a_reported_hit_in_a_segment_where_nothing_else_happens_ruins_the_spell(tick):
    """003 §IV, with a hit the referee reports (Encounter.hits) in a segment where no action begins or lands:
    the round is walked through that segment too, and the spell is ruined there."""
    timeline = run([mage(), orc()], [cast("fireball")], {"spell start: Mage": 1}, hits=[Hit("Mage", tick)])
    spell = acts(timeline, "Mage", "cast")[0]
    assert (spell.start, spell.end, spell.status) == (1, tick, Status.RUINED)


@pytest.mark.parametrize(("d6", "end"), [(2, 7), (5, 5)])
def test_hit_before_casting_throws_a_d6_for_delay(d6, end):
    """003 §IV: "A roll of 4 to 6 means no "surprise" and the figure may cast his/her spell, but a roll
    of 1-3 is added directly to casting time as a delay due to the effects of the hit"."""
    rolls = {"spell start: Mage": 4, "segment: Orc": 2, "to hit: Orc -> Mage": 20, "hit before casting: Mage": d6}
    timeline = run([mage(), orc()], [cast("sleep"), attack("Orc", "Mage")], rolls)
    spell = acts(timeline, "Mage", "cast")[0]
    assert (spell.start, spell.end, spell.status) == (4, end, Status.DONE)
    missed = run([mage(), orc()], [cast("sleep"), attack("Orc", "Mage")], rolls | {"to hit: Orc -> Mage": 2})
    assert acts(missed, "Mage", "cast")[0].end == 5  # "missed ... will not be delayed"


def test_components_not_at_hand_use_a_bigger_die():
    """003 §IV: "material components must be "at hand" before d4 can be used ... If they must be gotten
    out then d6, d8, d10 or worse might be in order!"."""
    timeline = run([mage(components_ready=False), orc()], [cast("sleep")])
    assert timeline.rolls[0].dice.sides == 6
    worse = run([mage(components_ready=False), orc()], [cast("sleep")], options=SegmentsOptions(components_die="d10"))
    assert worse.rolls[0].dice.sides == 10
    no_components = run([mage(components_ready=False), orc()], [cast("magic missile")])
    assert no_components.rolls[0].dice.sides == 4


def test_long_spell_in_melee_option():
    """003 §IV: "the DM might allow quick 1- or 2-segment spells to be attempted ... a longer spell would
    surely be spoiled by the mere fact that the opponent is right on top of the spell caster"."""
    options = SegmentsOptions(kills=False, melee_spell_limit=2)
    close = [("Mage", "Orc", 5)]
    spoiled = run([mage(), orc()], [cast("fireball")], options=options, distances=close)
    assert acts(spoiled, "Mage", "cast")[0].status is Status.RUINED
    quick = run([mage(), orc()], [cast("magic missile")], options=options, distances=close)
    assert acts(quick, "Mage", "cast")[0].status is Status.DONE


def test_breath_weapon_on_d4_or_the_monsters_die():
    """003 §IV: "Breath and Glance Weapons could use d4 ... the slow movement of the catablepas, for
    example, might allow up to d10"."""
    gaze = Combatant("Catoblepas", "beasts", char_class="monster", weapons=(Weapon("gaze", kind=WeaponKind.NATURAL),))
    options = SegmentsOptions(kills=False, breath={"Catoblepas": {"gaze": "d10"}})
    timeline = run([gaze, warrior()], [attack("Catoblepas", "Warrior")], options=options)
    assert timeline.rolls[0].dice.sides == 10 and acts(timeline)[0].rule == "003 §IV: breath and glance weapons"


def test_magic_item_ready_die_plus_casting_time_not_foiled():
    """003 §V: "a wand in a belt would be ready in 1-4 segments ... Items can be used in melee and are
    often not foiled by grappling or even a strike "to hit"."""
    options = SegmentsOptions(kills=False, items={"Mage": {"wand of frost": MagicItem("d4")}})
    rolls = {"item ready: Mage": 3, "segment: Orc": 3, "to hit: Orc -> Mage": 20}
    timeline = run([mage(), orc()], [cast("wand of frost"), attack("Orc", "Mage")], rolls, options)
    wand = acts(timeline, "Mage", "cast")[0]
    assert (wand.start, wand.end, wand.status) == (3, 4, Status.DONE)
    assert wand.action == "discharges wand of frost (CT 1) -> Orc"
    foiled = SegmentsOptions(kills=False, items={"Mage": {"wand of frost": MagicItem("d12", foiled_by_hits=True)}})
    backpack = run([mage(), orc()], [cast("wand of frost"), attack("Orc", "Mage")],
                   rolls | {"item ready: Mage": 3}, foiled)
    assert acts(backpack, "Mage", "cast")[0].status is Status.RUINED
    assert backpack.rolls[0].dice.sides == 12


def test_missile_flight_option():
    """003 §IV: "An arrow/sling bullet might take a segment or two to travel to its target, perhaps
    1 segment consumed per 6" of flight"."""
    options = SegmentsOptions(kills=False, missile_flight_feet=60)
    timeline = run([archer(shots=1), orc()], [attack("Archer", "Orc")], {"segment: Archer": 2}, options,
                   distances=[("Archer", "Orc", 130)])
    arrow = acts(timeline, "Archer")[0]
    assert (arrow.start, arrow.end) == (2, 4)


# ----------------------------------------------------------------- §VI and the closing remarks


def test_fighters_a_b_c_battle_giant_x_orcs_y_z():
    """003: "roll d10 for initiative for A, B & C obtaining 3,5,& 9. The Giant rolls 4, the Orcs 7 and 4
    respectively. Therefore the attack order is: A (with a 3); the giant and last orc (with 4s) ...;
    next fighter B (with a 5); orc Y (with a 7) and Fighter C is last with a 9"."""
    encounter = load_example("segments-fighters-vs-giant-and-orcs")
    timeline = SEGMENTS.schedule(encounter, Roller(seed=encounter.seed, entered=encounter.rolls), TIMING)
    order = [(s.end, s.actor) for s in timeline.spans]
    assert order == [(3, "A"), (4, "X"), (4, "Z"), (5, "B"), (7, "Y"), (9, "C")]
    assert {s.actor for s in timeline.landing_at(4)} == {"X", "Z"}


def test_giant_kills_a_fighter_yet_to_attack():
    """003: "(if either attack kills a fighter yet to attack the giant, that fighter loses his blow)"."""
    encounter = load_example("segments-fighters-vs-giant-and-orcs")
    rolls = dict(encounter.rolls) | {"to hit: Z -> B": 20, "damage: Z -> B": 8}
    b_weak = tuple(c if c.name != "B" else Combatant("B", "fighters", hit_points=5, weapons=c.weapons)
                   for c in encounter.combatants)
    weak = Encounter(encounter.title, b_weak, SEGMENTS.placed(encounter).declarations)
    timeline = SEGMENTS.schedule(weak, Roller(seed=encounter.seed, entered=rolls))
    assert [s for s in timeline.for_actor("B")][0].status is Status.CANCELLED


def test_surprise_per_figure_on_d6_with_dexterity():
    """003 §VI: "I suggest using d6 per character and not for the group ... Dexterity applies to surprise"."""
    options = SegmentsOptions(kills=False, surprise_checks=frozenset({"Warrior", "Hobgoblin"}))
    rolls = {"surprise: Warrior": 2, "surprise: Hobgoblin": 2, "segment: Warrior": 3, "segment: Hobgoblin": 3,
             "to hit: Warrior -> Hobgoblin": 10, "to hit: Hobgoblin -> Warrior": 10}
    quick = warrior(abilities=Abilities(dexterity=16))  # +1: 2 + 1 = 3, not surprised
    timeline = run([quick, hobgoblin()], [attack("Warrior", "Hobgoblin"), attack("Hobgoblin", "Warrior")],
                   rolls, options)
    assert [(s.actor, s.end) for s in timeline.spans] == [("Warrior", 3), ("Hobgoblin", 5)]
    flagged = run([warrior(), hobgoblin(surprised=True)], [attack("Hobgoblin", "Warrior")],
                  {"surprise: Hobgoblin": 2, "segment: Hobgoblin": 9})
    assert acts(flagged)[0].end == LAST  # 9 + 2 lost segments: past 10, the round's last action


def test_weapon_speed_factor_bands_option():
    """003 §VI: "Weapons of speed 1-3, e.g., add no time to melee; those of factor 4-6 add 1 segment;
    7-9, 2 segments; and 10+, 3 segments"."""
    assert [speed_band(sf) for sf in (1, 3, 4, 6, 7, 9, 10, 15)] == [0, 0, 1, 1, 2, 2, 3, 3]
    rolls = {"segment: Warrior": 4, "to hit: Warrior -> Hobgoblin": 10}
    plain = run([warrior(), hobgoblin()], [attack("Warrior", "Hobgoblin")], rolls)
    banded = run([warrior(), hobgoblin()], [attack("Warrior", "Hobgoblin")], rolls,
                 SegmentsOptions(kills=False, speed_bands=True))
    assert (acts(plain)[0].end, acts(banded)[0].end) == (4, 5)


def test_fleeing_figure_that_beats_the_attacker_escapes():
    """003: "If the figure who is fleeing can beat the initiative of his attacker ... he can escape
    jeopardy"."""
    declarations = [Declaration("Warrior", 1, ActionKind.MOVE, feet=30), attack("Hobgoblin", "Warrior")]
    close = [("Warrior", "Hobgoblin", 5)]
    away = run([warrior(), hobgoblin()], declarations, {"segment: Warrior": 3, "segment: Hobgoblin": 6},
               distances=close)
    assert acts(away, "Hobgoblin")[0].status is Status.CANCELLED
    assert acts(away, "Warrior", "move")[0].start == 3
    caught = run([warrior(), hobgoblin()], declarations, {"segment: Warrior": 6, "segment: Hobgoblin": 6,
                                                          "to hit: Hobgoblin -> Warrior": 3}, distances=close)
    assert acts(caught, "Hobgoblin")[0].status is Status.DONE


def test_weapon_set_to_repel_strikes_as_the_foe_arrives():
    """003 §VI: "Weapon length can be considered, especially in a charge ... by dispensing with the
    initiative die when weapons are set to repel"."""
    pike = Weapon("pike", 13, length=Length.POLE_ARM, damage="d6")
    pikeman = warrior(weapons=(pike,))
    declarations = [Declaration("Warrior", 1, ActionKind.READY), Declaration("Orc", 1, ActionKind.MOVE, "Warrior"),
                    attack("Orc", "Warrior", phase=2)]
    timeline = run([pikeman, orc()], declarations, {"weapon ready: Orc, step 2": 2}, distances=[("Warrior", "Orc", 36)])
    set_blow = acts(timeline, "Warrior")[0]
    assert (set_blow.end, set_blow.action, set_blow.status) == (3, "pike (set) -> Orc", Status.DONE)
    assert acts(timeline, "Orc")[0].end == 5
    nobody = run([pikeman, orc()], [Declaration("Warrior", 1, ActionKind.READY)])
    assert acts(nobody, "Warrior")[0].status is Status.CANCELLED


def test_next_round_ticks():
    """A spell finishing past segment 10 goes off in the next round (tick 12 is its segment 1)."""
    assert [tick_of(s) for s in (1, 10, 11, 14)] == [1, 10, 12, 15]
    timeline = run([mage(), orc()], [cast("wall of fire")], {"spell start: Mage": 4})
    spell = acts(timeline, "Mage", "cast")[0]
    assert (spell.end, spell.period) == (tick_of(8), "melee round")
    spill = run([mage(), orc()], [Declaration("Mage", 1, ActionKind.CAST, spell="wall of fire"),
                                  Declaration("Mage", 2, ActionKind.CAST, spell="wall of fire")],
                {"spell start: Mage, step 1": 4, "spell start: Mage, step 2": 3})
    second = acts(spill, "Mage", "cast")[1]
    assert (second.end, second.period) == (tick_of(15), "next round")
    assert CLOCK.describe(second.end) == "segment 5 (melee round) of the next round"


# ----------------------------------------------------------------- errors


@pytest.mark.parametrize(("declaration", "rule", "value"), [
    (attack("Warrior", "Hobgoblin", reposition=True), "003 §III", "reposition"),
    (attack("Warrior", "Hobgoblin", feet=10), "003 §III", "10'"),
    (Declaration("Warrior", 1, ActionKind.MOVE), "003 §III", "needs a distance"),
    (Declaration("Warrior", 0, ActionKind.MISC), "003 §III", "got 0"),
    (attack("Warrior", "Hobgoblin", attacks=2), "003 §II", "1 blow"),
])
def test_bad_declarations_name_the_rule_and_the_value(declaration, rule, value):
    with pytest.raises(IllegalActionError) as error:
        run([warrior(), hobgoblin()], [declaration])
    assert error.value.rule == rule and value in str(error.value)


def test_more_than_three_blows_a_d10_for_every_three_falling_together():
    """003 §II, "more than three attacks per melee round ... Compromise on 3d10, the first roll for 3 arms, the
    second for 3 more and the last for the tail", read for seven blows of one weapon: the blows of one d10 fall
    in its segment, and are one action there (003 §III does not part them)."""
    timeline = run([fighter_with(7), hobgoblin()], [attack("Warrior", "Hobgoblin", attacks=7)],
                   {"segment: Warrior": 4, "segment: Warrior, blows 2": 10, "segment: Warrior, blows 3": 9})
    assert [(s.action, s.end) for s in acts(timeline, "Warrior")] == [
        ("long sword blow 1 -> Hobgoblin", 4), ("long sword blow 2 -> Hobgoblin", 4),
        ("long sword blow 3 -> Hobgoblin", 4), ("long sword blow 7 -> Hobgoblin", 9),
        ("long sword blow 4 -> Hobgoblin", 10), ("long sword blow 5 -> Hobgoblin", 10),
        ("long sword blow 6 -> Hobgoblin", 10)]
    first = acts(timeline, "Warrior")[0]
    assert first.rule == "003 §II: more than three blows, a d10 for every 3"
    assert "d10 = 4, blows 1-3 fall in segment 4" in first.why
    assert "never two actions" not in first.rule


def test_more_than_three_blows_move_together_when_their_segment_is_taken():
    """003 §III, "never two actions in one segment": when another of the figure's actions holds the segment,
    the blows of one d10 move on together."""
    other = Combatant("Squire", "party", weapons=(LONG_SWORD,))
    declarations = [attack("Warrior", "Hobgoblin", attacks=4), attack("Warrior", "Squire", attacks=4)]
    timeline = run([fighter_with(4), hobgoblin(), other], declarations,
                   {"segment: Warrior -> Hobgoblin": 3, "segment: Warrior -> Hobgoblin, blows 2": 8,
                    "segment: Warrior -> Squire": 3, "segment: Warrior -> Squire, blows 2": 6})
    assert [(s.target, s.end) for s in acts(timeline, "Warrior")] == [
        ("Hobgoblin", 3), ("Hobgoblin", 3), ("Hobgoblin", 3), ("Squire", 4), ("Squire", 4), ("Squire", 4),
        ("Squire", 6), ("Hobgoblin", 8)]
    assert all("never two actions in one segment" in s.rule for s in acts(timeline, "Warrior")[3:6])


def test_more_than_three_blows_one_d10_each_is_the_other_reading():
    """``forms_per_die=1``: a d10 for every blow (the text: "you can rule on this any way that is most playable")."""
    rolls = {"segment: Warrior": 2, "segment: Warrior, blows 2": 7, "segment: Warrior, blows 3": 7,
             "segment: Warrior, blows 4": 1}
    timeline = run([fighter_with(4), hobgoblin()], [attack("Warrior", "Hobgoblin", attacks=4)], rolls,
                   replace(TIMING, forms_per_die=1))
    assert [s.end for s in acts(timeline, "Warrior")] == [1, 2, 7, 8]


def test_a_fight_gives_a_four_blow_figure_its_blows():
    """The default policy declares a four-blow monster's blows, and the round places them (it did nothing
    all fight when four blows were refused)."""
    hydra = Combatant("Hydra", "monsters", char_class="monster", level=8, hit_points=60,
                      attacks_per_round=Fraction(4), weapons=(Weapon("bite", 3, kind=WeaponKind.NATURAL, damage="d6"),))
    fight = run_fight(Encounter("hydra", (hydra, warrior(hit_points=40)), distances=(("Hydra", "Warrior", 5),)),
                      "segments", seed=1)
    assert fight.refused == 0
    assert next(f for f in fight.figures if f.name == "Hydra").attacks == 4 * fight.round_count


def test_only_attacks_on_different_opponents_share_a_step():
    with pytest.raises(IllegalActionError) as error:
        run([mage(), orc()], [cast("sleep"), Declaration("Mage", 1, ActionKind.MOVE, feet=10)])
    assert error.value.rule == "003 §III" and "['cast', 'move']" in str(error.value)
    with pytest.raises(IllegalActionError) as error:
        run([bear("claw"), warrior()], [attack("Bear", "Warrior"), attack("Bear", "Warrior")])
    assert error.value.rule == "003 §II"


def test_holding_is_not_part_of_003():
    with pytest.raises(IllegalActionError) as error:
        run([mage(), orc()], [Declaration("Mage", 1, ActionKind.CAST, spell="sleep", hold=2)])
    assert error.value.rule == "003 §IV" and "2 CT" in str(error.value)


def test_bad_options_name_the_rule_and_the_value():
    with pytest.raises(RulesError) as error:
        SegmentsOptions(missile_die="d")
    assert "missile_die" in str(error.value) and "'d'" in str(error.value)
    with pytest.raises(RulesError):
        SegmentsOptions(forms_per_die=0)
    with pytest.raises(RulesError):
        SegmentsOptions(surprised_on=6)
    with pytest.raises(RulesError) as error:
        save_vs_death(Combatant("Odd", "x", char_class="psionicist"))
    assert error.value.rule == "PH Table 60" and "psionicist" in str(error.value)


def test_registered_with_aliases():
    from combatkit.systems.base import find_system

    assert find_system("Segment of Action") is SEGMENTS
    assert SEGMENTS.clock.ticks == 11 and SEGMENTS.clock.describe(7) == "segment 7 (melee round)"


def test_a_fight_s_fast_path_rolls_no_to_hit_the_timing_roller_would_miss(monkeypatch):
    """#18, explanations only when asked for: in a fight the scheduler's own to-hit d20 is answered with a miss
    (the resolver rolls the blows, 003 §I), so on the fast path the scheduler does not swing at all, and writes no
    span's why; explained (and outside a fight) it still writes each blow's "To hit ... needs" words. The spans are
    otherwise the same, and the dice the fight rolls are the same."""
    import combatkit.systems.segments as segments
    from combatkit.fight import FightOptions, run_fight
    from combatkit.systems._memo import remembering

    timing = SEGMENTS.timing_roller()
    encounter = Encounter("test", (warrior(), hobgoblin()), (attack("Warrior", "Hobgoblin"),
                                                             attack("Hobgoblin", "Warrior")), system="segments")
    told = SEGMENTS.schedule(encounter, timing(seed=3), TIMING)
    with remembering({}, explain=False):
        quiet = SEGMENTS.schedule(encounter, timing(seed=3), TIMING)
    assert all("To hit " in s.why and "needs " in s.why for s in told.spans)
    assert [replace(s, why="") for s in told.spans] == list(quiet.spans)
    assert told.rolls == quiet.rolls and all(s.why.startswith("d10 = ") for s in told.spans)
    swung = []
    original = segments._Run._swing
    monkeypatch.setattr(segments._Run, "_swing", lambda self, *a: swung.append(self.swings) or original(self, *a))
    fast = run_fight(encounter, "segments", seed=5, explain=False, options=FightOptions(max_rounds=1))
    explained = run_fight(encounter, "segments", seed=5, options=FightOptions(max_rounds=1))
    assert swung and set(swung) == {False, True} and fast.row() == explained.row()


# ----------------------------------------------------------------- exact odds


def test_odds_one_blow_each():
    """d10 against d10: 45/100 each way, 10/100 simultaneous; every segment 1/10 (003 §I)."""
    encounter = Encounter("duel", (warrior(), hobgoblin()),
                          (attack("Warrior", "Hobgoblin"), attack("Hobgoblin", "Warrior")))
    result = odds(encounter, "Warrior", "Hobgoblin")
    assert (result["a first"], result["simultaneous"], result["b first"]) == (Fraction(9, 20), Fraction(1, 10),
                                                                              Fraction(9, 20))
    assert all(result[f"a blow 1 @ {s}"] == Fraction(1, 10) for s in range(1, 11))


def test_odds_two_blows_against_one():
    """2d6 against d10: the first blow is the first d6, so P(d6 < d10) = 39/60."""
    encounter = Encounter("duel", (fighter_with(2), hobgoblin()),
                          (attack("Warrior", "Hobgoblin"), attack("Hobgoblin", "Warrior")))
    result = odds(encounter, "Warrior", "Hobgoblin")
    assert (result["a first"], result["simultaneous"], result["b first"]) == (Fraction(39, 60), Fraction(6, 60),
                                                                              Fraction(15, 60))
    assert result["a blow 2 @ 11"] == Fraction(3, 36)  # 6+5, 5+6, 6+6: the last action
    assert result["a blow 2 @ 7"] == Fraction(6, 36)


def caster_duel() -> Encounter:
    fighter = Combatant("Orc", "orcs", thac0=15, weapons=(LONG_SWORD,), attacks_per_round=Fraction(2))
    return Encounter("cast", (mage(), fighter), (cast("fireball"), attack("Orc", "Mage")))


def test_odds_spell_interrupted_by_brute_force():
    """d4 start, CT 3 (003 §IV); the orc's two blows on 2d6 (003 §II) hit AC 10 on 5+, AC 14 while the
    mage casts a longer spell on 2+; a hit before casting throws a d6, 1-3 added to the casting time.
    Checked against a direct enumeration of those rules."""
    result = odds(caster_duel(), "Mage", "Orc")
    total = Fraction(0)
    for start, d1, d2, hit1, hit2, d6 in itertools.product(range(1, 5), range(1, 7), range(1, 7), (True, False),
                                                          (True, False), range(1, 7)):
        blows = [(d1, hit1), (min(d1 + d2, LAST), hit2)]
        end = start + 3 + (d6 if d6 <= 3 and any(t < start and h for t, h in blows) else 0)
        weight = Fraction(1, 4 * 36 * 6)
        ruined = False
        for t, h in blows:
            casting = not ruined and start <= t < end
            chance = Fraction(19, 20) if casting else Fraction(16, 20)
            weight *= chance if h else 1 - chance
            ruined = ruined or (casting and h)
        total += weight if ruined else 0
    assert result["a spell interrupted"] == total


def test_odds_match_a_monte_carlo_of_the_schedule():
    encounter = caster_duel()
    exact = odds(encounter, "Mage", "Orc")
    n = 1500
    sample = [(Fraction(1, n), SEGMENTS.schedule(encounter, Roller(seed=seed), TIMING)) for seed in range(n)]
    estimate = matchup(sample, "Mage", "Orc")
    for key in set(exact) | set(estimate):
        p = float(exact.get(key, 0))
        tolerance = 4.5 * math.sqrt(max(p * (1 - p), 1 / n) / n)
        assert abs(float(estimate.get(key, 0)) - p) <= tolerance, key


def test_odds_are_the_two_figures_own_round():
    """The matchup is the two figures' own acts, a blow aimed at a third figure included; the others declare
    nothing, so only the pair's dice are rolled."""
    encounter = load_example("segments-fighters-vs-giant-and-orcs")
    open_pair = odds(encounter, "A", "Y")  # A strikes the giant, Y the fighter B: still d10 against d10
    assert open_pair["simultaneous"] == Fraction(1, 10) and open_pair["a first"] == open_pair["b first"]
    result = odds(encounter, "A", "X")  # A attacks X and X attacks A: d10 against d10
    assert result["simultaneous"] == Fraction(1, 10)
    with pytest.raises(RulesError):
        odds(encounter, "A", "A")


# ----------------------------------------------------------------- invariants

NAMES = ("P1", "P2", "F1", "F2")


@st.composite
def encounters(draw):
    combatants = []
    for name in NAMES:
        kind = draw(st.sampled_from([WeaponKind.MELEE, WeaponKind.MISSILE, WeaponKind.NATURAL]))
        weapons = (Weapon("weapon", draw(st.integers(0, 12)), kind=kind,
                          length=draw(st.sampled_from(list(Length))),
                          rate_of_fire=draw(st.sampled_from([Fraction(1), Fraction(2)]))),
                   Weapon("knife", 2, length=Length.SHORT))
        spells = tuple(Spell(f"spell{i}", 1, draw(st.sampled_from([1, 2, 3, 5, 9, ONE_ROUND])),
                             draw(st.sampled_from(["V", "V,S,M"]))) for i in range(draw(st.integers(0, 2))))
        combatants.append(Combatant(
            name, "party" if name[0] == "P" else "foes", level=draw(st.integers(1, 12)), weapons=weapons,
            spells=spells, attacks_per_round=draw(st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2),
                                                                   Fraction(3)])),
            hit_points=draw(st.integers(1, 20)), thac0=draw(st.integers(5, 20)),
            abilities=Abilities(dexterity=draw(st.integers(3, 18))),
            components_ready=draw(st.booleans()), surprised=draw(st.sampled_from([False, False, False, True]))))
    declarations = []
    for _ in range(draw(st.integers(0, 8))):
        actor = draw(st.sampled_from(NAMES))
        kind = draw(st.sampled_from(list(ActionKind)))
        me = next(c for c in combatants if c.name == actor)
        spell = draw(st.sampled_from([s.name for s in me.spells])) if kind is ActionKind.CAST and me.spells \
            else None
        if kind is ActionKind.CAST and spell is None:
            kind = ActionKind.MISC
        declarations.append(Declaration(
            actor, draw(st.integers(1, 3)), kind, draw(st.sampled_from([None, *[n for n in NAMES if n != actor]])),
            weapons=draw(st.sampled_from([(), ("weapon",), ("knife",), ("weapon", "weapon", "knife", "knife")])),
            spell=spell, feet=draw(st.sampled_from([None, 20, 90])) if kind is ActionKind.MOVE else None))
    hits = tuple(Hit(draw(st.sampled_from(NAMES)), draw(st.integers(1, 11))) for _ in range(draw(st.integers(0, 2))))
    distances = (("P1", "F1", draw(st.sampled_from([0, 5, 30]))), ("P2", "F2", draw(st.sampled_from([5, 60]))))
    return Encounter("random", tuple(combatants), tuple(declarations), hits=hits, distances=distances)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encounters(), st.integers(0, 2**16), st.booleans(), st.booleans(), st.booleans())
def test_any_encounter_schedules_inside_the_round_or_raises_a_rules_error(encounter, seed, kills, bands, dying):
    options = SegmentsOptions(kills=kills, speed_bands=bands, dying_blow=dying,
                              surprise_checks=frozenset({"P1", "F2"}))
    try:
        timeline = SEGMENTS.schedule(encounter, Roller(seed=seed), options)
    except RulesError:
        return
    again = SEGMENTS.schedule(encounter, Roller(seed=seed), options)
    assert again == timeline  # same seed, same timeline
    landings: dict[tuple[str, int], int] = {}
    for span in timeline:
        assert 1 <= span.start <= span.end
        if span.kind == "attack":
            assert span.end <= LAST  # a blow falls in segments 1-10 or is a last action
        if span.status is not Status.CANCELLED and span.kind != "move" and span.end <= 10:
            landings[(span.actor, span.end)] = landings.get((span.actor, span.end), 0) + 1
    assert all(count == 1 for count in landings.values())  # 003 §III: never two actions in one segment
