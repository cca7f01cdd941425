"""Resolving scheduled rounds (combatkit.resolution): each seed's death timing, spells, charges,
flight and the situational modifiers, with the dice entered at the table; exact cases against
enumeration."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from combatkit import (
    Abilities,
    ActionKind,
    Combatant,
    Declaration,
    Encounter,
    IllegalActionError,
    Length,
    Maneuver,
    Spell,
    Status,
    Weapon,
    WeaponKind,
)
from combatkit.attack import Attacker, Defender
from combatkit.criticals import attack_odds
from combatkit.dice import Dice, Roller
from combatkit.battle import FigureExtras, FigureStatus, figures_from, layout, missile_range
from combatkit.resolution import EventKind, ResolutionOptions, Retarget, play_round, resolve_round
from combatkit.model import Size
from combatkit.modifiers import Position, WeaponUse
from combatkit.stances import Shield, Stance
from combatkit.systems.base import find_system
from combatkit.timeline import SpanKind

A, M, C, X, R = ActionKind.ATTACK, ActionKind.MOVE, ActionKind.CAST, ActionKind.MISC, ActionKind.READY
SWORD = Weapon("long sword", 5, damage="d8")


def fighter(name, side, hp=20, **kw) -> Combatant:
    kw.setdefault("weapons", (SWORD,))
    kw.setdefault("thac0", 15)
    kw.setdefault("armor_class", 5)
    return Combatant(name, side, hit_points=hp, **kw)


def mage(name="Mira", side="a", hp=8, spells=(Spell("sleep", 1, 1, "V,S,M"),), **kw) -> Combatant:
    return Combatant(name, side, char_class="mage", level=3, hit_points=hp, spells=spells,
                     weapons=(Weapon("dagger", 2, damage="d4", length=Length.SHORT),), **kw)


def play(combatants, declarations, rolls, system="phase1", distances=(), gap=5, options=ResolutionOptions(), seed=1,
         system_options=None):
    enc = Encounter("test", tuple(combatants), tuple(declarations), tuple(distances), (), rolls)
    return play_round(enc, system, seed=seed, options=options, opening_gap=gap, system_options=system_options)


def events(result, kind=None, actor=None):
    return [e for e in result.events if (kind is None or e.kind is kind) and (actor is None or e.actor == actor)]


WINNER_A = {"initiative: a": 1, "initiative: b": 10}
CLOSE = [("A", "B", 5), ("C", "B", 5), ("A", "D", 5)]
"""A and C at 0, B and D at 5: everyone within striking distance of a foe."""
SAME = {"initiative: a": 5, "initiative: b": 5}


# ----------------------------------------------------------------- 000: simultaneity, preemption, overkill


def test_000_blows_on_one_half_segment_are_simultaneous():
    """000 §1 E: "dying or other forms of incapacitation occur AFTER actions are performed": two
    fighters on the same half-segment kill each other."""
    rolls = {**SAME, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 8,
             "attack roll: B [round 1, tick 3]": 18, "damage: B [round 1, tick 3]": 8}
    result = play([fighter("A", "a", hp=5), fighter("B", "b", hp=5)],
                  [Declaration("A", 1, A, target="B"), Declaration("B", 1, A, target="A")], rolls)
    assert [e.actor for e in events(result, EventKind.ATTACK)] == ["A", "B"]
    falls = events(result, EventKind.FALL)
    assert {(e.actor, e.tick, e.outcome) for e in falls} == {("A", 3, "dead"), ("B", 3, "dead")}
    assert falls[0].rule.startswith("000 §1 E")


def test_000_a_kill_on_an_earlier_half_segment_preempts_the_blow():
    """000 §1 E: 'Killing an opponent on a half-segment prior to the opponent's attack preempts the attack'."""
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 8}
    result = play([fighter("A", "a", hp=5), fighter("B", "b", hp=5)],
                  [Declaration("A", 1, A, target="B"), Declaration("B", 1, A, target="A")], rolls)
    assert [e.actor for e in events(result, EventKind.ATTACK)] == ["A"]
    (cancel,) = events(result, EventKind.CANCELLED, "B")
    assert cancel.tick == 4 and "preempts the attack" in cancel.rule
    span = next(s for s in result.timeline.spans if s.actor == "B" and s.kind == "attack")
    assert span.status is Status.CANCELLED and "preempts" in span.rule
    assert result.figure("B").status is FigureStatus.DEAD and result.figure("B").fell == (1, 3)


def test_000_overkill_targets_are_locked_at_impact():
    """000 §2 C Overkill: a second blow landing on the same half-segment as the kill still falls on the dying target."""
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 8,
             "attack roll: C [round 1, tick 3]": 17, "damage: C [round 1, tick 3]": 4}
    result = play([fighter("A", "a"), fighter("C", "a"), fighter("B", "b", hp=5), fighter("D", "b")],
                  [Declaration("A", 1, A, target="B"), Declaration("C", 1, A, target="B")], rolls)
    blows = events(result, EventKind.ATTACK)
    assert [(e.actor, e.target, e.amount) for e in blows] == [("A", "B", 8), ("C", "B", 4)]
    assert result.figure("B").hit_points == -7 and result.figure("D").hit_points == 20


def test_000_retargeting_at_plus_3_sf():
    """000 §2 C Retargeting: B fell on half-segment 3, before C's blow (loser, SF 5: half-segment 4);
    C turns on D within striking distance at +3 SF: SF 8, the loser's SF 7-9 row, half-segment 5."""
    rolls = {"initiative: a": 1, "initiative: c": 10, "initiative: b": 10, "attack roll: A [round 1, tick 3]": 18,
             "damage: A [round 1, tick 3]": 8, "attack roll: C [round 1, tick 5]": 17, "damage: C [round 1, tick 5]": 2}
    result = play([fighter("A", "a"), fighter("C", "c"), fighter("B", "b", hp=5), fighter("D", "b")],
                  [Declaration("A", 1, A, target="B"), Declaration("C", 1, A, target="B")], rolls, distances=CLOSE)
    (turn,) = events(result, EventKind.RETARGET)
    assert turn.actor == "C" and turn.target in ("A", "D") and turn.rule == "000 §2 C Retargeting"
    blow = events(result, EventKind.ATTACK, "C")[0]
    assert blow.tick == 5 and blow.target == turn.target


def test_000_retargeting_past_the_phase_is_lost():
    """A loser's SF 10+ blow already lands on the phase's last half-segment: +3 SF cannot fit, the blow is lost."""
    slow = Weapon("halberd", 10, damage="d10", length=Length.POLE_ARM)
    rolls = {**WINNER_A, "initiative: c": 10, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 8}
    result = play([fighter("A", "a"), fighter("C", "c", weapons=(slow,)), fighter("B", "b", hp=5), fighter("D", "b")],
                  [Declaration("A", 1, A, target="B"), Declaration("C", 1, A, target="B")], rolls, distances=CLOSE)
    (lost,) = events(result, EventKind.CANCELLED, "C")
    assert lost.tick == 6
    assert "the attack is lost" in lost.why and lost.rule == "000 §2 C Retargeting"


def test_a_dead_figures_later_actions_are_cancelled_with_the_rule():
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 8}
    result = play([fighter("A", "a"), fighter("B", "b", hp=5)],
                  [Declaration("A", 1, A, target="B"), Declaration("B", 2, M, target="A", feet=0),
                   Declaration("B", 3, A, target="A")], rolls)
    cancelled = events(result, EventKind.CANCELLED, "B")
    assert len(cancelled) == 2 and all("preempts" in e.rule for e in cancelled)


# ----------------------------------------------------------------- 001, 002, 003


def test_001_a_mortal_stroke_takes_effect_at_the_end_of_the_melee():
    """001 Play Out Phases: side A strikes first, "a mortal stroke won't result in B's death until
    the end of the melee in the phase": B still strikes back in that phase, then falls."""
    rolls = {"ordering: a": 6, "ordering: b": 1, "attack roll: A [round 1, tick 23]": 18,
             "damage: A [round 1, tick 23]": 8, "attack roll: B [round 1, tick 24]": 18, "damage: B [round 1, tick 24]": 3}
    result = play([fighter("A", "a"), fighter("B", "b", hp=5)],
                  [Declaration("A", 3, A, target="B"), Declaration("B", 3, A, target="A")], rolls, system="five_phase")
    assert [(e.actor, e.tick) for e in events(result, EventKind.ATTACK)] == [("A", 23), ("B", 24)]
    (fall,) = events(result, EventKind.FALL)
    assert (fall.actor, fall.tick) == ("B", 24) and fall.rule.startswith("001 Play Out Phases")
    assert result.figure("A").hit_points == 17


def test_001_stuns_take_effect_at_once():
    """001: "a stun result would take effect": A's severe hit (000 Tables I) dazes B for the rest of
    the phase, so B's blow later in the same melee step is at -2."""
    rolls = {"ordering: a": 6, "ordering: b": 1, "attack roll: A [round 1, tick 23]": 15,
             "damage: A [round 1, tick 23]": 1, "damage, second roll: A [round 1, tick 23]": 1,
             "attack roll: B [round 1, tick 24]": 12, "damage: B [round 1, tick 24]": 3}
    options = ResolutionOptions(criticals="000-I")
    result = play([fighter("A", "a", thac0=5), fighter("B", "b", hp=30)],
                  [Declaration("A", 3, A, target="B"), Declaration("B", 3, A, target="A")], rolls, system="five_phase",
                  options=options)
    assert any(e.kind is EventKind.CONDITION and e.actor == "B" for e in result.events)
    b_blow = events(result, EventKind.ATTACK, "B")[0]
    assert "dazed" in b_blow.why and "-2" in b_blow.why


def test_001_charge_and_rushing_modifiers():
    """001 Charge: -2 to hit, +2 damage; the attack rushed a phase early (due in phase 4): -4 (001 B)."""
    rolls = {"ordering: a": 6, "ordering: b": 1, "attack roll: A [round 1, tick 23]": 19,
             "damage: A [round 1, tick 23]": 3}
    result = play([fighter("A", "a"), fighter("B", "b", hp=30)],
                  [Declaration("A", 1, M, target="B", maneuver=Maneuver.CHARGE), Declaration("A", 3, A, target="B")], rolls,
                  system="five_phase", distances=[("A", "B", 60)])
    (blow,) = events(result, EventKind.ATTACK, "A")
    assert "-2 charge" in blow.why and "-4 rushed" in blow.why and "needs 16" in blow.why  # 15 + 2 + 4 - AC 5
    assert blow.amount == 3 + 2
    # The -4 is read from the span's mark, not its words (which a fast round need not build).
    (span,) = [s for s in result.timeline.spans if s.actor == "A" and s.kind is SpanKind.ATTACK]
    assert span.marks == {"rushed"} and span.row()["marks"] == "rushed"


def test_002_a_blow_at_a_fallen_target_goes_to_another_in_reach():
    """002 III.B: all of a figure's attacks are resolved on its own count, so it strikes whoever is there."""
    from combatkit.systems.short_form import ShortFormOptions

    rolls = {"initiative: a": 12, "initiative: b": 1}
    options = ShortFormOptions(surprise_check=False)
    enc = Encounter("t", (fighter("A", "a"), fighter("C", "a", abilities=Abilities(dexterity=3)),
                          fighter("B", "b", hp=5), fighter("D", "b")),
                    (Declaration("A", 1, A, target="B"), Declaration("C", 1, A, target="B")), (), (), rolls)
    timeline = find_system("short_form").schedule(enc, Roller(entered=rolls), options)
    a_tick = next(s.end for s in timeline.spans if s.actor == "A")
    result = play(list(enc.combatants), enc.declarations,
                  {**rolls, f"attack roll: A [round 1, tick {a_tick}]": 19, f"damage: A [round 1, tick {a_tick}]": 8},
                  system="short_form", system_options=options)
    (turn,) = events(result, EventKind.RETARGET)
    assert turn.actor == "C" and turn.target == "D" and turn.rule.startswith("002 III.B")


def test_003_simultaneous_blows_both_hit():
    """003 §I: "Simultaneous blows, and both hit!"."""
    rolls = {"segment: A": 5, "segment: B": 5, "attack roll: A [round 1, tick 5]": 18, "damage: A [round 1, tick 5]": 8,
             "attack roll: B [round 1, tick 5]": 18, "damage: B [round 1, tick 5]": 8}
    result = play([fighter("A", "a", hp=5), fighter("B", "b", hp=5)],
                  [Declaration("A", 1, A, target="B"), Declaration("B", 1, A, target="A")], rolls, system="segments")
    assert {e.actor for e in events(result, EventKind.FALL)} == {"A", "B"}


@pytest.mark.parametrize(("save", "strikes"), [(14, True), (13, False)])
def test_003_dying_blow_on_a_save_vs_death(save, strikes):
    """003 §I Option: B, killed in segment 3, swings in segment 4 if it saves vs. death (a level 1
    fighter needs 14, PH 2e Table 60); a blow 2 segments late is always lost."""
    rolls = {"segment: A": 3, "segment: B": 4, "attack roll: A [round 1, tick 3]": 18,
             "damage: A [round 1, tick 3]": 8, "save vs death: B [round 1]": save,
             "attack roll: B [round 1, tick 4]": 18, "damage: B [round 1, tick 4]": 2}
    options = ResolutionOptions(dying_blow=True)
    result = play([fighter("A", "a"), fighter("B", "b", hp=5)],
                  [Declaration("A", 1, A, target="B"), Declaration("B", 1, A, target="A")], rolls, system="segments",
                  options=options)
    (verdict,) = events(result, EventKind.DYING_BLOW)
    assert verdict.outcome == ("saved" if strikes else "failed") and verdict.rule == "003 §I Option"
    assert bool(events(result, EventKind.ATTACK, "B")) is strikes


# ----------------------------------------------------------------- spells


def test_a_hit_while_casting_ruins_the_spell():
    """000 §2 A: the orc's blow lands on half-segment 4 while Mira's CT 5 spell runs to 9."""
    spell = Spell("fireball", 3, 5, "V,S")
    rolls = {**WINNER_A, "attack roll: B [round 1, tick 4]": 19, "damage: B [round 1, tick 4]": 2}
    result = play([mage(spells=(spell,), hp=9), fighter("B", "b")],
                  [Declaration("Mira", 1, C, target="B", spell="fireball"), Declaration("B", 1, A, target="Mira")],
                  rolls)
    (ruined,) = events(result, EventKind.SPELL_RUINED)
    assert ruined.actor == "Mira" and ruined.tick == 4 and "000 §2 A" in ruined.rule
    mira = result.figure("Mira")
    assert mira.spells_attempted == 1 and mira.spells_succeeded == 0 and "fireball" in mira.spells_used
    assert not events(result, EventKind.SPELL)


def test_a_miss_leaves_the_spell_alone():
    spell = Spell("magic missile", 1, 5, "V,S")  # casting with S, Mira is defenseless (000 §2 C): only a 1 misses
    rolls = {**WINNER_A, "attack roll: B [round 1, tick 4]": 1, "magic missile: Mira [round 1, tick 9, 1]": 4,
             "magic missile: Mira [round 1, tick 9, 2]": 3}
    result = play([mage(spells=(spell,)), fighter("B", "b")],
                  [Declaration("Mira", 1, C, target="B", spell="magic missile"),
                   Declaration("B", 1, A, target="Mira")], rolls)
    (went,) = events(result, EventKind.SPELL)
    assert went.tick == 9
    (effect,) = events(result, EventKind.EFFECT)
    assert effect.amount == 7 and result.figure("B").hit_points == 13  # level 3: two missiles, 4 + 3


def test_a_hit_before_the_casting_phase_delays_it_on_a_failed_con_check():
    """000 §2 A: hit in phase 1, Mira fails her CON check (20 against CON 10): her phase-2 spell slips
    to phase 3, where the system itself re-times it (CT 3 on the winner track: half-segment 17)."""
    spell = Spell("magic missile", 1, 3, "V,S")
    rolls = {**WINNER_A, "attack roll: B [round 1, tick 4]": 19, "damage: B [round 1, tick 4]": 2,
             "CON check: Mira": 20}
    result = play([mage(spells=(spell,)), fighter("B", "b")],
                  [Declaration("Mira", 2, C, target="B", spell="magic missile"),
                   Declaration("B", 1, A, target="Mira")], rolls)
    (went,) = events(result, EventKind.SPELL)
    assert went.tick == 17
    assert any("fails a CON check" in note for note in result.timeline.notes)


@pytest.mark.parametrize(("d6", "goes_off"), [(2, 8), (5, 6)])
def test_003_a_hit_before_casting_adds_1_to_3_segments(d6, goes_off):
    """003 §IV: hit in segment 2, before her casting begins in segment 3, Mira throws a d6: 1-3 is
    added to the casting time (3 segments), 4-6 no delay. The Segment of Action scheduler re-times it."""
    spell = Spell("magic missile", 1, 3, "V,S")
    rolls = {"spell start: Mira": 3, "segment: B": 2, "attack roll: B [round 1, tick 2]": 19,
             "damage: B [round 1, tick 2]": 3, "hit before casting: Mira": d6}
    result = play([mage(spells=(spell,)), fighter("B", "b")],
                  [Declaration("Mira", 1, C, target="B", spell="magic missile"),
                   Declaration("B", 1, A, target="Mira")], rolls, system="segments")
    (went,) = events(result, EventKind.SPELL)
    assert went.tick == goes_off and result.figure("Mira").spells_succeeded == 1


def test_sleep_then_an_automatic_hit():
    """Sleep (PH 2e) takes 2 orcs (2d4 = 2 Hit Dice, one each); a blow at a magically sleeping foe hits
    automatically (002 Special Types IV)."""
    orcs = [fighter(f"orc{i}", "b", hp=6, level=1) for i in range(2)]
    rolls = {**WINNER_A, "sleep: Mira [round 1, tick 1, Hit Dice affected]": 2, "damage: Brienne [round 1, tick 9]": 3}
    result = play([mage(), fighter("Brienne", "a", level=5)] + orcs,
                  [Declaration("Mira", 1, C, target="orc0", spell="sleep"),
                   Declaration("Brienne", 2, A, target="orc0")], rolls,
                  distances=[("Mira", "orc0", 20), ("Brienne", "orc0", 5), ("orc1", "orc0", 0)])
    assert {f.name for f in result.figures if f.status is FigureStatus.ASLEEP} == {"orc0", "orc1"}
    (blow,) = events(result, EventKind.ATTACK, "Brienne")
    assert blow.outcome == "hit" and "hit automatically" in blow.why


def test_healing_is_the_only_way_hit_points_rise():
    cure = Spell("cure light wounds", 1, 1, "V,S")
    priest = Combatant("Ansel", "a", char_class="priest", hit_points=10, spells=(cure,), weapons=(SWORD,))
    hurt = fighter("Brienne", "a", hp=20)
    figures = list(figures_from(Encounter("t", (priest, hurt, fighter("B", "b")), ()), 5))
    figures[1] = replace(figures[1], hit_points=4)
    enc = Encounter("t", (priest, hurt, fighter("B", "b")), (Declaration("Ansel", 1, C, target="Brienne",
                                                                       spell="cure light wounds"),), (), (), WINNER_A)
    roller = Roller(entered={**WINNER_A, "cure light wounds: Ansel [round 1, tick 1, 1]": 6})
    timeline = find_system("phase1").schedule(enc, roller, check_rolls=False)  # the roller goes on to resolve_round
    result = resolve_round(timeline, figures, enc.declarations, roller=roller)
    (heal,) = [e for e in events(result, EventKind.EFFECT) if e.outcome == "healed"]
    assert heal.amount == 6 and result.figure("Brienne").hit_points == 10


# ----------------------------------------------------------------- charges and flight (000 §2 D)


def knight(**kw) -> Combatant:
    return fighter("Sir Roland", "a", hp=30, movement=12, weapons=(Weapon("lance", 7, damage="d8",
                                                                          length=Length.VERY_LONG),), **kw)


def test_000_charge_overruns_and_the_defender_answers_after():
    """000 §2 D Charging: from a standstill the knight reaches 3x base (MV 36, 120' a phase); the orc is
    100' away, so he strikes it and overruns by 20'. It survives, has not attacked this phase: it answers."""
    rolls = {**WINNER_A, "attack roll: Sir Roland [round 1, tick 6]": 15, "damage: Sir Roland [round 1, tick 6]": 3,
             "attack roll: Grak [round 1, tick 6]": 16, "damage: Grak [round 1, tick 6]": 5}
    result = play([knight(), fighter("Grak", "b")], [Declaration("Sir Roland", 1, M, target="Grak", feet=40,
                                                                 maneuver=Maneuver.CHARGE)],
                  rolls, distances=[("Sir Roland", "Grak", 100)])
    (rush,) = events(result, EventKind.CHARGE)
    assert rush.amount == 120 and "overruns it by 120 - 100 = 20" in rush.why
    assert [e.actor for e in events(result, EventKind.ATTACK)] == ["Sir Roland", "Grak"]
    roland, grak = result.figure("Sir Roland"), result.figure("Grak")
    assert roland.position - grak.position == 20


def test_000_a_charger_loses_its_dexterity_bonus_while_charging():
    """000 §2 D: "The attacker loses AC bonus from Dexterity while charging": Grak's answer needs 2 less
    against DEX 16 (Defensive Adjustment -2), and only during the charge."""
    rolls = {**WINNER_A, "attack roll: Sir Roland [round 1, tick 6]": 2, "attack roll: Grak [round 1, tick 6]": 2}
    quick = knight(abilities=Abilities(dexterity=16))
    result = play([quick, fighter("Grak", "b")], [Declaration("Sir Roland", 1, M, target="Grak", feet=40, maneuver=Maneuver.CHARGE)],
                  rolls, distances=[("Sir Roland", "Grak", 100)])
    (answer,) = events(result, EventKind.ATTACK, "Grak")
    assert "+2 AC charging: no Dexterity bonus" in answer.why and "needs 8" in answer.why  # 15 - (AC 5 + 2)


def test_paladin_charges_the_troll_and_the_troll_has_already_attacked():
    """The paladin-and-troll example (000 §2 D), on foot indoors: MV 18 tripled is 180' a phase, the troll
    130' away, an overrun of 50'. The troll struck the squire earlier this phase, so it may not respond."""
    paladin = Combatant("Paladin", "a", char_class="paladin", movement=18, hit_points=40, thac0=14,
                        weapons=(Weapon("lance", 7, damage="d8", length=Length.VERY_LONG),))
    troll = Combatant("Troll", "b", char_class="monster", level=6, movement=12, hit_points=40, thac0=13,
                      armor_class=4, size=Size.LARGE, weapons=(Weapon("claw", kind=WeaponKind.NATURAL,
                                                                                      damage="d4+4"),))
    squire = fighter("Squire", "a", hp=10)
    rolls = {**WINNER_A, "attack roll: Troll [round 1, tick 4]": 5,
             "attack roll: Paladin [round 1, tick 6]": 12, "damage: Paladin [round 1, tick 6]": 6}
    result = play([paladin, squire, troll], [Declaration("Paladin", 1, M, target="Troll", feet=60, maneuver=Maneuver.CHARGE),
                                             Declaration("Troll", 1, A, target="Squire")], rolls,
                  distances=[("Paladin", "Troll", 130), ("Squire", "Troll", 5)])
    (rush,) = events(result, EventKind.CHARGE)
    assert "covers 180 feet, 130 to the target, overruns it by 180 - 130 = 50 feet" in rush.why
    assert result.figure("Paladin").position - result.figure("Troll").position == 50
    assert [e.actor for e in events(result, EventKind.ATTACK)] == ["Troll", "Paladin"]
    assert any("already attacked this phase" in e.why for e in events(result, EventKind.NOTE, "Troll"))


def test_000_a_set_weapon_answers_a_charge_simultaneously_at_double_damage():
    """000 §2 D Setting Weapons: the pike set against the charge strikes as the charger arrives,
    simultaneously; a set weapon of some length does double damage."""
    pike = Weapon("pike", 13, damage="d6", length=Length.POLE_ARM)
    rolls = {**WINNER_A, "attack roll: Sir Roland [round 1, tick 6]": 15, "damage: Sir Roland [round 1, tick 6]": 8,
             "attack roll: Grak [round 1, tick 6]": 16, "damage: Grak [round 1, tick 6]": 5}
    result = play([knight(), fighter("Grak", "b", hp=8, weapons=(pike,))],
                  [Declaration("Sir Roland", 1, M, target="Grak", feet=40, maneuver=Maneuver.CHARGE),
                   Declaration("Grak", 1, R, target="Sir Roland")], rolls, distances=[("Sir Roland", "Grak", 100)])
    blows = events(result, EventKind.ATTACK)
    assert [(e.actor, e.amount) for e in blows] == [("Sir Roland", 8), ("Grak", 10)]
    assert result.figure("Grak").status is FigureStatus.DEAD


def test_000_a_charge_needs_a_target():
    with pytest.raises(IllegalActionError, match="announces a charge in phase 1 without a target") as info:
        play([knight(), fighter("Grak", "b")], [Declaration("Sir Roland", 1, M, feet=40, maneuver=Maneuver.CHARGE)], WINNER_A)
    assert info.value.rule == "000 §2 D Charging"


def test_000_fleeing_draws_a_free_attack_and_leaves_the_fight():
    rolls = {**WINNER_A, "attack roll: Brienne [round 1, tick 6]": 3}
    result = play([fighter("Brienne", "b"), fighter("Snaga", "a", hp=3, movement=12)],
                  [Declaration("Snaga", 1, M, feet=40, maneuver=Maneuver.FLEE)], rolls)
    (free,) = events(result, EventKind.ATTACK, "Brienne")
    assert free.rule == "000 §2 D Withdrawing / Fleeing" and free.outcome == "miss"
    assert result.figure("Snaga").status is FigureStatus.FLED


def test_000_withdrawing_draws_no_free_attack_and_goes_a_third_of_a_third():
    """000 §2 D: "a retreating character must further cut movement to 1/3 MV base in order to withdraw from
    combat (making a 12 MV into just over 1 per phase)"; only a FLEEING combatant is a ripe target."""
    result = play([fighter("Brienne", "b"), fighter("Snaga", "a", hp=3, movement=12)],
                  [Declaration("Snaga", 1, M, feet=40, maneuver=Maneuver.WITHDRAW)], WINNER_A)
    assert not events(result, EventKind.ATTACK, "Brienne")
    (away,) = events(result, EventKind.FLEE, "Snaga")
    assert away.amount == 13 and away.why == "Snaga withdraws 13'." and away.rule == "000 §2 D Withdrawing / Fleeing"
    assert result.figure("Snaga").status is FigureStatus.ACTIVE  # a withdrawal leaves no one fled


def test_000_an_initiative_winner_outruns_an_opponent_that_struck_this_phase():
    rolls = {**WINNER_A, "attack roll: Brienne [round 1, tick 4]": 3}
    result = play([fighter("Brienne", "b", movement=9), fighter("Snaga", "a", hp=3, movement=12)],
                  [Declaration("Snaga", 1, M, feet=40, maneuver=Maneuver.FLEE), Declaration("Brienne", 1, A, target="Snaga")],
                  rolls)
    assert [e.tick for e in events(result, EventKind.ATTACK, "Brienne")] == [4]
    assert any("outruns the free attack" in e.why for e in events(result, EventKind.NOTE))


# ----------------------------------------------------------------- to hit: 002 tables, 004 stances, criticals


def test_rear_attack_and_cover_from_002():
    """002: a rear attack is +2 and negates shield and Dexterity bonuses; 50% cover is +4 AC against missiles."""
    options = ResolutionOptions(figures={"A": FigureExtras(position=Position.REAR),
                                         "B": FigureExtras(shield=Shield.SHIELD)})
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 2}
    result = play([fighter("A", "a"), fighter("B", "b", abilities=Abilities(dexterity=16))],
                  [Declaration("A", 1, A, target="B")], rolls, options=options)
    why = events(result, EventKind.ATTACK, "A")[0].why
    assert "+2 rear attack" in why and "no shield bonus" in why and "no Dexterity bonus" in why
    assert "needs 5" in why  # THAC0 15 - 2 rear - (AC 5 + 1 shield + 2 DEX)


def test_missile_range_and_cover():
    bow = Weapon("long bow", 8, kind=WeaponKind.MISSILE, damage="d6")
    assert missile_range(bow) == (70, 140, 210)
    options = ResolutionOptions(figures={"B": FigureExtras(cover=50)})
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 4]": 2}
    result = play([fighter("A", "a", weapons=(bow,)), fighter("B", "b")], [Declaration("A", 1, A, target="B")],
                  rolls, distances=[("A", "B", 100)], options=options)
    why = events(result, EventKind.ATTACK, "A")[0].why
    assert "-2 medium range" in why and "+4 AC 50% cover" in why


def test_004_stance_through_criticals():
    options = ResolutionOptions(figures={"A": FigureExtras(stance=Stance.FULL_ATTACK),
                                         "B": FigureExtras(stance=Stance.ACTIVE_DEFENSE)})
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 2}
    result = play([fighter("A", "a"), fighter("B", "b")], [Declaration("A", 1, A, target="B")], rolls, options=options)
    why = events(result, EventKind.ATTACK, "A")[0].why
    assert "+2 Full Attack" in why and "Active Defense" in why


def test_severity_rules_through_resolve_attack():
    options = ResolutionOptions(criticals="000-II")
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 4}
    result = play([fighter("A", "a"), fighter("B", "b", hp=40)], [Declaration("A", 1, A, target="B")], rolls,
                  options=options)
    blow = events(result, EventKind.ATTACK, "A")[0]
    assert blow.outcome == "severe hit" and "Severity Rules II" in blow.why
    assert blow.amount == 4 + (18 - 10)  # +1 a point over the 10 needed


def test_two_weapons_unarmed_and_mounted_from_002():
    """002 VI: two weapons at -2 and -4; 002 Unarmed Combat: a pummel does 1d2; 002 Mounted Combat II:
    a horseman's weapon +1 mounted, +2 against a footman."""
    dagger = Weapon("dagger", 2, damage="d4", length=Length.SHORT)
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3, long sword]": 2, "attack roll: A [round 1, tick 3, dagger]": 2}
    result = play([fighter("A", "a", weapons=(SWORD, dagger)), fighter("B", "b")],
                  [Declaration("A", 1, A, target="B", weapons=("long sword", "dagger"))], rolls,
                  options=ResolutionOptions(figures={"A": FigureExtras(two_weapons=True)}))
    primary, secondary = events(result, EventKind.ATTACK, "A")
    assert "-2 two weapons, primary hand" in primary.why and "-4 two weapons, secondary hand" in secondary.why
    fists = Weapon("fists", 1, damage="d6", length=Length.UNARMED)
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 1]": 19, "damage: A [round 1, tick 1]": 2}  # SF 1: the "SF < 2" row
    (pummel,) = events(play([fighter("A", "a", weapons=(fists,)), fighter("B", "b")],
                            [Declaration("A", 1, A, target="B")], rolls), EventKind.ATTACK)
    assert "d2 rolled 2" in pummel.why and pummel.amount == 2
    lance = Weapon("lance", 7, damage="d8", length=Length.VERY_LONG)
    options = ResolutionOptions(figures={"A": FigureExtras(mounted=True, weapon_uses={"lance": WeaponUse.HORSEMAN})})
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 4]": 2}
    (ride,) = events(play([fighter("A", "a", weapons=(lance,)), fighter("B", "b")], [Declaration("A", 1, A, target="B")],
                          rolls, options=options), EventKind.ATTACK)
    assert "+1 horseman weapon, mounted" in ride.why and "+2 mounted vs. footman" in ride.why


def test_a_grapple_holds_and_an_overbear_fells_instead_of_doing_damage():
    """002 Unarmed Combat III.B: "Grappling holds an opponent in one square for up to 1 round (grapple automatically
    broken at start of next round). While held, grappled creature is -2 AC and suffers -2 penalty to hit."
    III.C: "Victim of overbearing attack must Save vs. Petrification or fall prone in current square." """
    people = [fighter("A", "a"), fighter("B", "b")]  # A grapples with a long sword in hand: the maneuver says how
    rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 19}
    result = play(people, [Declaration("A", 1, A, target="B", maneuver=Maneuver.GRAPPLE),
                           Declaration("B", 2, A, target="A")], rolls)
    grapple, = events(result, EventKind.ATTACK, "A")
    assert (grapple.outcome, grapple.amount) == ("hit", 0) and "Grappling does no damage" in grapple.why
    held, = events(result, EventKind.CONDITION)
    assert (held.actor, held.outcome, held.rule) == ("B", "grappled", "002 Unarmed Combat III.B")
    answer, = events(result, EventKind.ATTACK, "B")
    assert "-2 grappled" in answer.why and result.figure("B").hit_points == 20  # held: -2 to hit, and no damage
    assert not play(people, [Declaration("A", 1, A, target="B", note="grapples")], {
        **WINNER_A, "attack roll: A [round 1, tick 3]": 19, "damage: A [round 1, tick 3]": 5}).figure("B").conditions
    for save, fell in ((14, True), (15, False)):  # a 1st-level warrior saves vs. petrification on 15 (PH Table 60)
        rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": 19, "save vs petrification: B [round 1, tick 3]": save}
        result = play(people, [Declaration("A", 1, A, target="B", maneuver=Maneuver.OVERBEAR)], rolls)
        assert events(result, EventKind.ATTACK, "A")[0].amount == 0
        assert [e.outcome for e in events(result, EventKind.CONDITION)] == (["overborne"] if fell else [])


# ----------------------------------------------------------------- exact odds by enumeration


@pytest.mark.parametrize(("thac0", "ac", "damage"), [(15, 5, "d8"), (19, 2, "d6+1"), (20, -2, "2d4"), (5, 8, "d3")])
def test_plain_attack_matches_enumeration(thac0, ac, damage):
    """Every d20 face and every damage face, entered at the table: the resolver's hit chance and
    mean damage equal the exact odds (criticals.attack_odds under 004 for the hit chance; the plain
    DMG damage, at least 1, by enumeration)."""
    weapon = Weapon("blade", 5, damage=damage)
    dice = Dice.parse(damage)
    hits, total = 0, Fraction(0)
    for natural in range(1, 21):
        for dmg, chance in dice.distribution().items():
            rolls = {**WINNER_A, "attack roll: A [round 1, tick 3]": natural, "damage: A [round 1, tick 3]": dmg}
            result = play([fighter("A", "a", thac0=thac0, weapons=(weapon,)), fighter("B", "b", hp=100,
                                                                                     armor_class=ac)],
                          [Declaration("A", 1, A, target="B")], rolls)
            blow = events(result, EventKind.ATTACK, "A")[0]
            weight = Fraction(1, 20) * chance
            hits += blow.outcome == "hit" and dmg == dice.minimum
            total += weight * blow.amount
    odds = attack_odds(Attacker(thac0=thac0, weapon=weapon), Defender(armor_class=ac), "004")
    assert Fraction(hits, 20) == odds.hit
    needed = thac0 - ac
    p_hit = Fraction(sum(1 for n in range(1, 21) if n != 1 and (n >= needed or n == 20)), 20)
    expected = p_hit * sum(max(1, k) * p for k, p in dice.distribution().items())
    assert total == expected


# ----------------------------------------------------------------- the battle line


def test_layout_honours_known_distances():
    enc = Encounter("t", (fighter("A", "a"), fighter("B", "b"), fighter("C", "a")), (),
                    (("A", "B", 40), ("C", "B", 10)))
    assert layout(enc) == {"A": 0, "B": 40, "C": 30}
    assert layout(Encounter("t", (fighter("A", "a"), fighter("B", "b")), ()), opening_gap=25) == {"A": 0, "B": 25}


def test_retarget_option_overrides_the_seed():
    rolls = {**WINNER_A, "initiative: c": 10, "attack roll: A [round 1, tick 3]": 18, "damage: A [round 1, tick 3]": 8}
    result = play([fighter("A", "a"), fighter("C", "c"), fighter("B", "b", hp=5), fighter("D", "b")],
                  [Declaration("A", 1, A, target="B"), Declaration("C", 1, A, target="B")], rolls, distances=CLOSE,
                  options=ResolutionOptions(retarget=Retarget.LOST))
    assert not events(result, EventKind.RETARGET)
    assert any(e.rule == "combatkit option: retarget lost" for e in events(result, EventKind.CANCELLED, "C"))


# ----------------------------------------------------------------- 000 §2 A: a spell held into the next round


def _held_over_fight(hold: int, seed: int = 0):
    """Mira casts magic missile (CT 1) in phase 3 and holds it ``hold`` CT; a sturdy B stands 5' off and cannot
    hit her (THAC0 25 against AC -10)."""
    from combatkit.fight import FightOptions, run_fight

    spells = (Spell("magic missile", 1, 1, "V,S"), Spell("shocking grasp", 1, 1, "V,S", touch=True),
              Spell("blindness", 2, 2, "V"))  # not web: its 10' would take in Mira herself, so she would not cast it
    enc = Encounter("held", (mage(spells=spells, hp=60, armor_class=-10), fighter("B", "b", hp=200, thac0=25)),
                    (Declaration("Mira", 3, C, target="B", spell="magic missile", hold=hold),),
                    (("Mira", "B", 5),), (), {}, system="phase1")
    return run_fight(enc, "phase1", seed=seed, options=FightOptions(max_rounds=3))


@pytest.mark.parametrize("seed", range(4))
def test_000_a_spell_held_into_the_next_round_is_that_rounds_casting(seed):
    """000 §2 A, Holding a Spell: "If the spell is held into the next round, it counts as that
    round's casting (no new spell may be started)". CT 1 begun in phase 3 ends by half-segment
    14; held 6 CT it goes off in round 2, so Mira begins nothing in round 2 and casts again in round 3."""
    fight = _held_over_fight(hold=6, seed=seed)
    one, two, three = fight.rounds
    (held,) = [s for s in one.timeline.spans if s.actor == "Mira" and s.kind == "hold"]
    assert held.end > 20 and held.status is Status.DONE
    assert one.figure("Mira").holding == "magic missile"
    assert not [s for s in two.timeline.spans if s.actor == "Mira"]  # no new spell, no attack
    (note,) = [e for e in two.events if e.actor == "Mira" and e.kind is EventKind.NOTE]
    assert "000 §2 A" in note.rule and "magic missile" in note.why and "no new spell" in note.why
    assert two.figure("Mira").holding is None
    assert [s.kind for s in three.timeline.spans if s.actor == "Mira"] == ["cast"]


def test_000_a_spell_held_within_the_round_leaves_the_next_round_free():
    fight = _held_over_fight(hold=1)
    one, two = fight.rounds[:2]
    assert one.figure("Mira").holding is None
    assert [s.kind for s in two.timeline.spans if s.actor == "Mira"] == ["cast"]


def _hand_written_inits():
    """The engine's dataclasses whose ``__init__`` is written out, not made by the dataclass (#18)."""
    import importlib
    import pkgutil
    from dataclasses import is_dataclass

    import combatkit

    found = {}
    for module in pkgutil.walk_packages(combatkit.__path__, "combatkit."):
        if ".widgets" in module.name or module.name.endswith("__main__"):
            continue
        for cls in vars(importlib.import_module(module.name)).values():
            if (isinstance(cls, type) and is_dataclass(cls) and cls.__module__ == module.name
                    and "__init__" in vars(cls) and cls.__init__.__code__.co_filename != "<string>"):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


HAND_WRITTEN = _hand_written_inits()


def test_the_hot_dataclasses_write_their_init_out():
    """The ones a fight makes dozens of: the compiled build runs a dataclass's own __init__ as Python."""
    assert {name.rsplit(".", 1)[1] for name in HAND_WRITTEN} >= {
        "Figure", "Moment", "Roll", "_Node", "_Act", "_State", "_Figure", "_Item", "_Plan", "ActorPlan", "Span", "Period",
        "Timeline", "Clock", "RoundResult", "PlacedRound", "FightRound"}


@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_a_written_out_init_sets_every_field_with_its_default(name):
    """A field added to one of them, or a default changed, must be carried into its __init__ too."""
    import inspect
    import re
    from dataclasses import MISSING, fields

    cls = HAND_WRITTEN[name]
    source = inspect.getsource(cls.__init__)
    parameters = inspect.signature(cls.__init__).parameters
    declared = fields(cls)
    assert set(parameters) - {"self"} <= {f.name for f in declared}
    for f in declared:
        assert re.search(rf'self\.{f.name}\b[^=\n]* = |object\.__setattr__\(self, "{f.name}", ', source), \
            f"{name}.__init__ does not set {f.name}"
        if f.name in parameters:
            given = parameters[f.name].default
            if f.default is MISSING and f.default_factory is not MISSING:  # None: a fresh container made in __init__
                assert given is None and re.search(rf"if {f.name} is None", source), f"{name}: {f.name}"
            else:
                assert given == (inspect.Parameter.empty if f.default is MISSING else f.default), f"{name}: {f.name}"
        else:  # made in __init__: a fresh container, or what the class works out of its other fields
            assert f.default is MISSING and (f.default_factory is not MISSING or not f.init), \
                f"{name}: {f.name} is not a parameter"


def test_made_makes_the_value_the_class_makes():
    """The engine makes combatants, declarations, intents, placements and a round's encounter from values it has
    checked, without their ``__init__`` (#18: :func:`combatkit.made.made`): the very value the class makes, every
    field carried or defaulted, a field added to the class included."""
    from combatkit.intent import Intent, IntentKind, Placement
    from combatkit.kinds import PlacementKind
    from combatkit.made import made

    spells = (Spell("magic missile", 1, 1, "V,S"), Spell("blindness", 2, 2, "V"))
    c = mage(spells=spells, hp=12, armor_class=4, attacks_per_round=Fraction(3, 2))
    for changes in ({"hit_points": 0}, {"surprised": True, "spells": spells[1:], "components_ready": False}):
        assert made(Combatant, changes, like=c) == replace(c, **changes)
    d = Declaration("Mira", 2, A, target="B", weapons=("dagger",), reposition=True)
    assert made(Declaration, {"actor": "Mira", "phase": 2, "kind": A, "target": "B", "weapons": ("dagger",),
                              "reposition": True}) == d
    intent = Intent("Mira", IntentKind.MOVE, "B", maneuver=Maneuver.WITHDRAW, away=True)
    assert made(Intent, {"actor": "Mira", "kind": IntentKind.MOVE, "target": "B", "maneuver": Maneuver.WITHDRAW,
                         "away": True}) == intent
    placement = Placement("Mira", 1, intent, (d,), PlacementKind.PLACED, "000 §1 F", "why")
    assert made(Placement, {"actor": "Mira", "step": 1, "intent": intent, "declarations": (d,),
                            "kind": PlacementKind.PLACED, "rule": "000 §1 F", "why": "why"}) == placement
    enc = made(Encounter, {"title": "t", "combatants": (c,), "declarations": (d,), "round": 2})
    assert enc == Encounter("t", (c,), (d,), round=2) and enc.rolls == {} and enc.rolls is not made(
        Encounter, {"title": "t", "combatants": (c,)}).rolls  # a default factory's fresh dict each time
    with pytest.raises(TypeError, match="no field"):
        made(Declaration, {"actor": "Mira", "phase": 2, "kind": A, "phases": (3,)})
    with pytest.raises(TypeError, match="needs its kind"):
        made(Declaration, {"actor": "Mira", "phase": 2})


@pytest.mark.parametrize("system", ["phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed"])
def test_what_the_engine_makes_unchecked_passes_the_checks(system):
    """The policy's intents and the planner's declarations and placements, made without their checks (#18), pass
    them: each is the value its class makes of the same fields, in fights with spells, missiles and melee."""
    from dataclasses import fields

    from combatkit import load_example
    from combatkit.fight import FightOptions, run_fight
    from combatkit.intent import Intent, Placement

    def remade(value):
        return type(value)(**{f.name: getattr(value, f.name) for f in fields(value) if f.init})

    seen = 0
    for example in ("fighter-and-mage-vs-orc-archer", "short-form-spear-web-and-ready-bow"):
        for seed in range(3):
            fight = run_fight(load_example(example), system, seed=seed, options=FightOptions(max_rounds=4))
            for result in fight.rounds:
                for placement in result.timeline.plan.placements if result.timeline.plan else ():
                    assert isinstance(placement, Placement) and remade(placement) == placement
                    if placement.intent is not None:
                        assert isinstance(placement.intent, Intent) and remade(placement.intent) == placement.intent
                    for d in placement.declarations:
                        assert remade(d) == d
                        seen += 1
    assert seen > 20


def test_a_round_builds_each_figure_from_every_field():
    """``Live.figure`` builds the figure a round leaves field by field (quicker than ``replace``, #18); a field
    added to Figure's ``__init__`` must be carried there too, or a round would drop it back to its default (its
    name and side it takes from its combatant itself)."""
    from dataclasses import fields

    from combatkit.battle import Figure

    assert [f.name for f in fields(Figure) if f.init] == [
        "combatant", "hit_points", "position", "status", "spells_used", "components_ready", "conditions", "fell",
        "attacks", "hits", "damage_dealt", "damage_taken", "spells_attempted", "spells_succeeded", "holding",
        "lasting", "no_effect_data"], "a new Figure field: carry it in combatkit.resolution.state.Live.figure"


@pytest.mark.parametrize("action", ["long bow shot 2 -> Grak", "shot 1 -> Grak", "sling shot", "shot", "shots -> Grak",
                                    "long bow -> Grak", "bowshot 2", "a  shot", "", " shot"])
def test_a_span_names_a_shot_as_the_word_shot(action):
    """003 §III: an archer's later shots are what a hit delays (WalkState.is_touchy); a span names one by the word."""
    from combatkit.resolution.state import _names_a_shot

    assert _names_a_shot(action) == (" shot " in f" {action} ")
