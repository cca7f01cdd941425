"""Spells do what they do (PH 2e, combatkit.effects): each kind of effect played in a resolved round
and cited, what lasts ending when it should, the shipped data, a spell's own effect in the encounter
file, and the flag on a spell that has no effect data."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from combatkit import (
    Abilities,
    ActionKind,
    Combatant,
    Declaration,
    EffectKind,
    Encounter,
    EncounterFileError,
    Length,
    Size,
    Spell,
    SpellEffect,
    Weapon,
    dumps_toml,
    encounter_from_dict,
    encounter_to_dict,
    loads_encounter,
)
from combatkit.battle import FigureStatus, figures_from
from combatkit.dice import Dice
from combatkit.effects import SPELL_EFFECTS, effect_from_table, effect_to_table, spell_effect
from combatkit.fight import FightOptions, run_fight
from combatkit.intent import IntentKind
from combatkit.policy import intents
from combatkit.resolution import EventKind, play_round
from combatkit.simulation import simulate

A, M, C = ActionKind.ATTACK, ActionKind.MOVE, ActionKind.CAST
SWORD = Weapon("long sword", 5, damage="d8")
WINNER_A = {"initiative: a": 1, "initiative: b": 10}
"""Side a wins 000's initiative: Mira's CT 1 spell in phase 1 goes off on half-segment 1."""
ON_B = "save vs spell: B [round 1, tick 1]"
"""B's saving throw against the spell that goes off on half-segment 1."""


def fighter(name, side, hp=30, **kw) -> Combatant:
    kw.setdefault("weapons", (SWORD,))
    kw.setdefault("thac0", 15)
    kw.setdefault("armor_class", 5)
    return Combatant(name, side, hit_points=hp, **kw)


def mage(*spells: str | Spell, name="Mira", side="a", level=3, **kw) -> Combatant:
    kw.setdefault("weapons", (Weapon("dagger", 2, damage="d4", length=Length.SHORT),))
    return Combatant(name, side, char_class="mage", level=level, hit_points=kw.pop("hp", 20),
                     spells=tuple(s if isinstance(s, Spell) else Spell(s, 1, 1, "V") for s in spells), **kw)


def cast(spell, target="B", *, caster=None, others=(), declarations=(), rolls=None, distances=None, seed=1,
         melee=True):
    """One phase-1 round: Mira (0') casts ``spell`` at ``target`` on half-segment 1; B stands 30' off with
    Brienne 5' in front of it, and (``melee``) each strikes the other in phase 2."""
    caster = caster or mage(spell)
    people = (caster, fighter("Brienne", "a"), fighter("B", "b"), *others)
    blows = (Declaration("Brienne", 2, A, target="B"), Declaration("B", 2, A, target="Brienne")) if melee else ()
    decls = (Declaration(caster.name, 1, C, target=target, spell=caster.spells[0].name), *blows, *declarations)
    distances = distances if distances is not None else [(caster.name, "B", 30), ("Brienne", "B", 5)]
    enc = Encounter("spells", people, decls, tuple(distances), (), {**WINNER_A, **(rolls or {})})
    return play_round(enc, "phase1", seed=seed, opening_gap=30)


def events(result, kind=None, actor=None, target=None):
    return [e for e in result.events if (kind is None or e.kind is kind) and (actor is None or e.actor == actor)
            and (target is None or e.target == target)]


def effects_on(result, name):
    return [e for e in events(result, EventKind.EFFECT, target=name)]


# ----------------------------------------------------------------- the shipped data


PH_COMBAT_SPELLS = {
    # wizard 1-5
    "magic missile", "burning hands", "shocking grasp", "chill touch", "charm person", "protection from evil",
    "sleep", "Melf's acid arrow", "flaming sphere", "blindness", "scare", "stinking cloud", "web", "fireball",
    "lightning bolt", "haste", "slow", "hold person", "protection from evil, 10' radius", "ice storm", "fear",
    "charm monster", "cone of cold", "hold monster",
    # priest 1-5
    "cure light wounds", "cause light wounds", "bless", "cause fear", "charm person or mammal",
    "cause blindness or deafness", "cure serious wounds", "cause serious wounds", "cure critical wounds",
    "cause critical wounds", "flame strike",
}


def test_the_shipped_data_covers_the_ph_combat_spells_each_citing_its_numbers():
    assert {name.lower() for name in PH_COMBAT_SPELLS} <= set(SPELL_EFFECTS)
    assert {e.kind for e in SPELL_EFFECTS.values()} == set(EffectKind)  # every kind has a shipped spell
    for effect in SPELL_EFFECTS.values():
        assert effect.rule.startswith(f"PH 2e {effect.name}"), effect.rule
        for text in (effect.dice, effect.hit_dice, effect.duration_dice):
            if text:
                Dice.parse(text)
        assert effect_from_table(effect_to_table(effect), "x", effect.name) == effect


@pytest.mark.parametrize("name", sorted(SPELL_EFFECTS))
def test_every_shipped_effect_is_played(name):
    """Each entry goes off in a resolved round and lands on someone, citing its PH rule."""
    effect = SPELL_EFFECTS[name]
    spell = Spell(effect.name, 1, 1, "V")
    result = cast(spell, "Brienne" if not effect.hostile else "B", caster=mage(spell),
                  rolls={"save vs spell: B [round 1, tick 1]": 2, "save vs death: B [round 1, tick 1]": 2})
    landed = events(result, EventKind.EFFECT)
    assert landed and all(e.rule == effect.rule for e in landed)
    assert not events(result, EventKind.NO_EFFECT_DATA)


# ----------------------------------------------------------------- a spell with no effect data


def test_a_spell_without_effect_data_goes_off_flagged():
    result = cast("time stop")
    (flag,) = events(result, EventKind.NO_EFFECT_DATA)
    assert flag.why == ("time stop has no effect data in combatkit: it goes off with no effect the engine applies "
                        "(give it an `effect` in the encounter file).")
    assert flag.outcome == "no effect data" and flag.actor == "Mira" and flag.target == "B"
    assert any("time stop has no effect data" in line for line in result.why())
    assert result.figure("Mira").no_effect_data == ("time stop",)
    assert result.figure("Mira").spells_succeeded == 1  # it went off; nothing was applied


def test_the_simulation_counts_castings_without_effect_data_by_spell():
    far = Encounter("flag", (mage("time stop", "magic missile"), fighter("B", "b")), (), (("Mira", "B", 300),))
    sim = simulate(far, "phase1", n=20, seed=3, options=FightOptions(max_rounds=2))
    assert sim.no_effect_data() == {"time stop": 20}  # cast once a fight, out of every foe's reach
    assert sim.summary()["no_effect_data"] == {"time stop": 20}
    assert {row["no_effect_data"] for row in sim.figures if row["figure"] == "Mira"} == {"time stop"}
    assert simulate(far, "phase1", n=5, seed=3, options=FightOptions(max_rounds=1),
                    workers=1).no_effect_data() == {"time stop": 5}


# ----------------------------------------------------------------- each kind in a round


def test_damage_that_lasts_comes_again_the_next_round():
    """PH 2e Melf's acid arrow: at 3rd level the acid lasts 2 rounds: 2d4 now, 2d4 again at the start of round 2."""
    enc = Encounter("acid", (mage("Melf's acid arrow", weapons=(), movement=0),
                             fighter("B", "b", hp=200, weapons=(), movement=0)),  # 60' apart, neither can close
                    (Declaration("Mira", 1, C, target="B", spell="Melf's acid arrow"),), (("Mira", "B", 60),),
                    (), {**WINNER_A, "Melf's acid arrow: Mira [round 1, tick 1, 1]": 5}, system="phase1")
    fight = run_fight(enc, "phase1", seed=4, options=FightOptions(max_rounds=3))
    acid = [e for e in fight.events if e.kind is EventKind.EFFECT and "Melf's acid arrow" in e.rule]
    assert [(e.round, e.tick) for e in acid] == [(1, 1), (2, 1)]
    assert acid[0].amount == 5 and 2 <= acid[1].amount <= 8
    assert "goes on (round 2 of 2)" in acid[1].why and acid[1].rule.startswith("PH 2e Melf's acid arrow")
    assert fight.figure("B").hit_points == 200 - 5 - acid[1].amount
    assert fight.figure("B").lasting == ()


def test_hold_person_saves_at_minus_2_and_ends_after_2_rounds_a_level():
    """PH 2e hold person from a 1st-level priest: 2 rounds. B's 18 would save (17 needed) but for the -2;
    held through round 2, B is back in the fight for round 3 and closes on the priest."""
    priest = Combatant("Ansel", "a", char_class="priest", level=1, hit_points=200, movement=0,
                       spells=(Spell("hold person", 2, 1, "V,S,M"),))  # stands where he is: B must come to him
    watcher = Combatant("C", "b", hit_points=10, movement=0)  # keeps side b in the fight, does nothing
    enc = Encounter("hold", (priest, fighter("B", "b", hp=200), watcher),
                    (Declaration("Ansel", 1, C, target="B", spell="hold person"),),
                    (("Ansel", "B", 60), ("Ansel", "C", 200)), (), {**WINNER_A, ON_B: 18}, system="phase1")
    fight = run_fight(enc, "phase1", seed=2, options=FightOptions(max_rounds=3))
    (held,) = [e for e in fight.events if e.kind is EventKind.EFFECT and e.outcome == "held"]
    assert "d20 18 -2 against 17, failed" in held.why and "for 2 rounds" in held.why
    assert held.rule.startswith("PH 2e hold person")
    (back,) = [e for e in fight.events if e.kind is EventKind.RECOVER]
    assert (back.round, back.actor, back.outcome) == (2, "B", "recovered") and back.rule == held.rule
    assert not [e for e in fight.events if e.actor == "B" and e.round == 2 and e.kind is EventKind.MOVE]
    assert [e for e in fight.events if e.actor == "B" and e.round == 3 and e.kind is EventKind.MOVE]
    assert fight.figure("B").status is FigureStatus.ACTIVE


def test_sleep_takes_2d4_hit_dice_lowest_first_partial_effects_ignored():
    """PH 2e sleep: 2 Hit Dice rolled; the kobold (level 0: 1/2) and the orc (1) sleep, 1 1/2 Hit Dice;
    the gnoll's 2 more would pass 2 and are ignored; the ogre (level 5) is beyond 4+3."""
    foes = (fighter("kobold", "b", level=0), fighter("orc", "b", level=1), fighter("gnoll", "b", level=2),
            fighter("ogre", "b", level=5))
    enc = Encounter("sleep", (mage("sleep"), *foes), (Declaration("Mira", 1, C, target="orc", spell="sleep"),),
                    tuple(("Mira", f.name, 30) for f in foes), (),
                    {**WINNER_A, "sleep: Mira [round 1, tick 1, Hit Dice affected]": 2})
    result = play_round(enc, "phase1", opening_gap=30)
    asleep = {f.name for f in result.figures if f.status is FigureStatus.ASLEEP}
    assert asleep == {"kobold", "orc"}
    (orc,) = effects_on(result, "orc")
    assert "for 15 rounds" in orc.why and "3/2 of 2 Hit Dice" in orc.why  # 5 rounds a level
    assert {e.target for e in events(result, EventKind.EFFECT)} == {"kobold", "orc"}


def test_charm_takes_the_figure_out_of_the_fight():
    result = cast("charm person", rolls={ON_B: 5})
    b = result.figure("B")
    assert b.status is FigureStatus.CHARMED and not b.status.present
    (fall,) = events(result, EventKind.FALL, "B")
    assert fall.outcome == "charmed" and fall.rule.startswith("PH 2e charm person")
    assert not events(result, EventKind.ATTACK, "B")
    enc = Encounter("charm", (mage("charm person"), fighter("B", "b")),
                    (Declaration("Mira", 1, C, target="B", spell="charm person"),), (("Mira", "B", 30),), (),
                    {**WINNER_A, ON_B: 5}, system="phase1")
    fight = run_fight(enc, "phase1", seed=1)
    assert fight.winner == "a" and fight.round_count == 1


def test_fear_sends_the_figure_off_at_full_movement_and_it_may_come_back():
    """PH 2e cause fear: B (MV 12) flees for 1d4 = 1 round, 120' away, and is back in the fight after it."""
    result = cast("cause fear", rolls={ON_B: 5, "cause fear duration: B [round 1, tick 1]": 1})
    (fled,) = [e for e in effects_on(result, "B") if e.outcome == "frightened"]
    assert "120' away" in fled.why and fled.rule.startswith("PH 2e cause fear")
    assert [e.kind for e in events(result, actor="B") if e.kind in (EventKind.FALL, EventKind.RECOVER)] == [
        EventKind.FALL, EventKind.RECOVER]
    b = result.figure("B")
    assert b.status is FigureStatus.ACTIVE and b.position == 30 + 120


def test_a_figure_frightened_for_rounds_sits_them_out_far_off_then_walks_back():
    """1d4 = 2 rounds: B runs 240' at once, does nothing in round 2, is back at its end and closes in round 3
    (a watcher keeps B's side in the fight meanwhile)."""
    priest = Combatant("Ansel", "a", char_class="priest", level=1, hit_points=200, spells=(Spell("cause fear", 1, 1),))
    watcher = Combatant("C", "b", hit_points=10, movement=0)
    enc = Encounter("fear", (priest, fighter("B", "b", hp=200), watcher),
                    (Declaration("Ansel", 1, C, target="B", spell="cause fear"),), (("Ansel", "B", 30),
                                                                                     ("Ansel", "C", 300)), (),
                    {**WINNER_A, "save vs spell: B [round 1, tick 1]": 5,
                     "cause fear duration: B [round 1, tick 1]": 2}, system="phase1")
    fight = run_fight(enc, "phase1", seed=2, options=FightOptions(max_rounds=3))
    one, two, three = fight.rounds
    assert one.figure("B").status is FigureStatus.FRIGHTENED and one.figure("B").position == 30 + 240
    assert not [e for e in two.events if e.actor == "B" and e.kind in (EventKind.MOVE, EventKind.ATTACK)]
    (back,) = [e for e in two.events if e.kind is EventKind.RECOVER]
    assert back.actor == "B" and back.rule.startswith("PH 2e cause fear")
    assert [e for e in three.events if e.actor == "B" and e.kind is EventKind.MOVE]


@pytest.mark.parametrize(("strength", "size", "rounds"), [(10, Size.MEDIUM, None), (15, Size.MEDIUM, 5),
                                                         (18, Size.MEDIUM, 3), (10, Size.LARGE, 1)])
def test_a_web_holds_by_strength(strength, size, rounds):
    """PH 2e web: save at -2 or stuck: no attacks, no movement, no spells; Strength or mass breaks out."""
    b = fighter("B", "b", abilities=Abilities(strength=strength), size=size)
    enc = Encounter("web", (mage("web"), fighter("Brienne", "a"), b),
                    (Declaration("Mira", 1, C, target="B", spell="web"), Declaration("B", 2, M, target="Brienne"),
                     Declaration("B", 3, A, target="Brienne")),
                    (("Mira", "B", 30), ("Brienne", "B", 40)), (), {**WINNER_A, ON_B: 18})
    result = play_round(enc, "phase1", opening_gap=30)
    (stuck,) = effects_on(result, "B")
    assert stuck.outcome == "web" and "d20 18 -2 against 17, failed" in stuck.why
    assert (f"free after {rounds}" in stuck.why) if rounds else "stuck until the web is gone" in stuck.why
    assert [e.why.split(": ")[-1] for e in events(result, EventKind.CANCELLED, "B")] == ["no movement.",
                                                                                         "no attacks."]
    assert {e.rule for e in events(result, EventKind.CANCELLED, "B")} == {"PH 2e web"}
    phases = 4  # Phase System I; a 1-round web is gone at the end of this one
    assert [c.last for c in result.figure("B").conditions] == ([] if rounds == 1 else [(rounds or 60) * phases - 1])


def test_blindness_is_minus_4_to_hit_and_plus_4_to_be_hit():
    result = cast("blindness", rolls={ON_B: 5})
    (blinded,) = effects_on(result, "B")
    assert blinded.outcome == "blindness" and "for the rest of the fight" in blinded.why
    (hers,) = events(result, EventKind.ATTACK, "Brienne")
    (his,) = events(result, EventKind.ATTACK, "B")
    assert "needs 6 (THAC0 15 against AC 5, +4 AC blinded (spell))" in hers.why
    assert "needs 14 (THAC0 15, -4 blinded (spell) against AC 5)" in his.why


def test_slow_halves_the_blows_and_haste_doubles_them():
    """PH 2e slow from a 1st-level mage takes B alone (one creature a level), -4 to its save: B strikes in
    the round it was slowed, loses its blows in round 2, strikes in round 3, each at -4."""
    slower = mage(Spell("slow", 3, 1, "V,S,M"), level=1, hp=200)
    enc = Encounter("slow", (slower, fighter("Brienne", "a", hp=300), fighter("B", "b", hp=300)),
                    (Declaration("Mira", 1, C, target="B", spell="slow"), Declaration("B", 2, A, target="Brienne")),
                    (("Mira", "B", 60), ("Brienne", "B", 5)), (), {**WINNER_A, ON_B: 15}, system="phase1")
    fight = run_fight(enc, "phase1", seed=5, options=FightOptions(max_rounds=3))
    (slowed,) = [e for e in fight.events if e.kind is EventKind.EFFECT and e.outcome == "slow"]
    assert slowed.target == "B" and "d20 15 -4 against 17, failed" in slowed.why and "for 4 rounds" in slowed.why
    blows = [e for e in fight.events if e.actor == "B" and e.kind is EventKind.ATTACK]
    assert {e.round for e in blows} == {1, 3} and all("-4 slowed (spell)" in e.why for e in blows)
    lost = [e for e in fight.events if e.actor == "B" and e.kind is EventKind.CANCELLED]
    assert lost and {e.round for e in lost} == {2} and all(e.rule == "PH 2e slow" for e in lost)


def test_haste_strikes_each_blow_twice_and_doubles_a_move():
    """PH 2e haste on Brienne: her phase-2 move (1/3 MV 12 = 40') goes 80', so she closes 60' to striking
    distance; her phase-2 blow is struck twice on its half-segment."""
    def hasted(declaration, feet):
        enc = Encounter("haste", (mage("haste"), fighter("Brienne", "a"), fighter("B", "b", hp=300)),
                        (Declaration("Mira", 1, C, target="Brienne", spell="haste"), declaration),
                        (("Mira", "B", 100), ("Brienne", "B", feet)), (), WINNER_A)
        result = play_round(enc, "phase1", seed=3, opening_gap=30)
        (haste,) = effects_on(result, "Brienne")
        assert haste.outcome == "haste" and "for 6 rounds" in haste.why  # 3 rounds + 1 a level
        return result

    (move,) = events(hasted(Declaration("Brienne", 2, M, target="B"), 60), EventKind.MOVE, "Brienne")
    assert move.amount == 55 and "now 5' away" in move.why
    first, second = events(hasted(Declaration("Brienne", 2, A, target="B"), 5), EventKind.ATTACK, "Brienne")
    assert first.tick == second.tick and second.rule == "PH 2e haste" and first.rule.startswith("000 Table 1")


def test_protection_from_evil_minus_2_to_be_hit_and_plus_2_to_save():
    """Mira wards Brienne (half-segment 1); the orc shaman's blindness at Brienne later in the phase meets
    her save at +2; B's blow at her is at -2."""
    shaman = mage("blindness", name="Hexa", side="b")
    result = cast("protection from evil", "Brienne", others=(shaman,),
                  declarations=(Declaration("Hexa", 1, C, target="Brienne", spell="blindness"),),
                  distances=[("Mira", "B", 30), ("Brienne", "B", 5), ("Hexa", "B", 0)])
    (ward,) = [e for e in effects_on(result, "Brienne") if e.outcome == "protection_from_evil"]
    assert "for 6 rounds" in ward.why  # 2 rounds a level
    (save,) = [e for e in effects_on(result, "Brienne") if "blindness" in e.rule]
    assert "+2 against 17" in save.why
    (his,) = events(result, EventKind.ATTACK, "B")
    assert "-2 AC protected from evil" in his.why


def test_stinking_cloud_saves_vs_poison_and_the_reeling_cannot_attack_or_cast():
    shaman = mage("magic missile", name="Hexa", side="b")
    result = cast("stinking cloud", others=(shaman,), rolls={"save vs death: B [round 1, tick 1]": 3,
                                                            "save vs death: Hexa [round 1, tick 1]": 3,
                                                            "save vs death: Brienne [round 1, tick 1]": 20},
                  declarations=(Declaration("Hexa", 2, C, target="Brienne", spell="magic missile"),),
                  distances=[("Mira", "B", 30), ("Brienne", "B", 5), ("Hexa", "B", 0)])
    reeling = [e for e in events(result, EventKind.EFFECT) if e.outcome == "stinking_cloud"]
    assert {e.target for e in reeling} == {"B", "Hexa"} and all("save vs. death" in e.why for e in reeling)
    cancelled = {e.actor: e for e in events(result, EventKind.CANCELLED)}
    assert "no attacks" in cancelled["B"].why and "cannot cast" in cancelled["Hexa"].why
    assert not events(result, EventKind.SPELL, "Hexa")


def test_scare_makes_the_weak_cower_in_place():
    """PH 2e scare: fewer than 6 Hit Dice cower (no movement, -1 to hit); the 6th-level ogre is unaffected."""
    ogre = fighter("Ogre", "b", level=6)
    result = cast("scare", others=(ogre,), declarations=(Declaration("B", 1, M, target="Mira"),), melee=False,
                  distances=[("Mira", "B", 30), ("Brienne", "B", 40), ("Ogre", "B", 0)],
                  rolls={"scare duration: B [round 1, tick 1]": 2})
    (cower,) = effects_on(result, "B")
    assert cower.outcome == "scare" and "for 5 rounds" in cower.why  # 1d4 (2) + 1 a level
    (ogre_e,) = effects_on(result, "Ogre")
    assert ogre_e.outcome == "unaffected"
    assert any("cowering: no movement" in e.why for e in events(result, EventKind.CANCELLED, "B"))


def test_bless_is_plus_1_to_hit_for_friends_only():
    result = cast("bless", "Brienne")
    blessed = {e.target for e in events(result, EventKind.EFFECT) if e.outcome == "bless"}
    assert "Brienne" in blessed and "B" not in blessed
    (hers,) = events(result, EventKind.ATTACK, "Brienne")
    assert "+1 blessed" in hers.why


# ----------------------------------------------------------------- a spell's own effect, in the file


FILE = """
title = "An acid spray"
system = "phase1"

[[combatants]]
name = "Mira"
side = "a"
class = "mage"
level = 3
spells = [
  { name = "acid spray", level = 2, ct = 1, effect = { kind = "damage", dice = "2d4", save = "half", radius = 10, duration = 3 } },
  { name = "magic missile", ct = 1, effect = { kind = "damage", dice = "d6+10", rule = "house rule: a heavy missile" } },
]

[[combatants]]
name = "B"
side = "b"
hp = 40
"""


def test_an_encounter_file_gives_a_spell_its_effect_and_writes_it_back():
    enc = loads_encounter(FILE)
    spray, missile = enc.combatants[0].spells
    assert spray.effect == SpellEffect("acid spray", EffectKind.DAMAGE, "the encounter's own effect for acid spray",
                                       dice="2d4", save=spray.effect.save, radius=10, duration=3)
    assert spray.effect.save.value == "half" and spell_effect(spray) is spray.effect
    assert loads_encounter(dumps_toml(enc)) == enc
    assert encounter_from_dict(json.loads(json.dumps(encounter_to_dict(enc)))) == enc
    assert 'kind = "damage"\nrule = "house rule: a heavy missile"\ndice = "d6+10"\n' in dumps_toml(enc)  # tomli-w


def test_a_spells_own_effect_is_preferred_to_the_shipped_data():
    """The file's magic missile does d6+10 (shipped: two 1d4+1 missiles at 3rd level, at most 10)."""
    enc = replace(loads_encounter(FILE), declarations=(Declaration("Mira", 1, C, target="B", spell="magic missile"),),
                  distances=(("Mira", "B", 30),), rolls={**WINNER_A, "magic missile: Mira [round 1, tick 1, 1]": 16})
    result = play_round(enc, "phase1", opening_gap=30)
    (hit,) = effects_on(result, "B")
    assert hit.amount == 16 and hit.rule == "house rule: a heavy missile"


@pytest.mark.parametrize(("effect", "field", "words"), [
    ('{ kind = "damage", dice = "2x4" }', "dice", "is not dice notation"),
    ('{ kind = "fire" }', "kind", "must be one of damage, heal, sleep"),
    ('{ dice = "d4" }', "kind", "is required"),
    ('{ kind = "damage" }', "dice", "a damage effect needs dice"),
    ('{ kind = "hold", save = "half" }', "save", "half is for damage"),
    ('{ kind = "damage", dice = "d4", radius = "ten" }', "radius", "expected a whole number"),
    ('{ kind = "damage", dice = "d4", radus = 10 }', "radus", "did you mean radius?"),
    ('{ kind = "hold", save = "negates", save_column = "poison" }', "save_column", "death, wand, petrification"),
    ('{ kind = "damage", dice = "d4", radius = -5 }', "radius", "is 0 or more"),
    ('{ kind = "charm", save = "negates", duration = 3 }', "duration", "a charm lasts the fight"),
    ('"fireball"', None, "expected a table of the effect's fields"),
])
def test_a_bad_effect_is_refused_naming_its_field(effect, field, words):
    text = f'[[combatants]]\nname = "Mira"\nside = "a"\nspells = [{{ name = "zap", effect = {effect} }}]\n'
    with pytest.raises(EncounterFileError) as error:
        loads_encounter(text)
    assert error.value.field == "combatants[0].spells[0].effect" + (f".{field}" if field else "")
    assert words in error.value.message


# ----------------------------------------------------------------- whom the default policy casts at


def test_the_policy_casts_friendly_spells_at_friends_and_holds_at_foes_still_standing():
    enc = Encounter("aim", (mage("haste", "hold person"), fighter("Brienne", "a"), fighter("B", "b"),
                            fighter("C", "b")), (), (("Mira", "B", 30), ("Brienne", "B", 5), ("C", "B", 0)))
    figures = list(figures_from(enc))

    def mira(figures):
        return [i for i in intents(figures, system="phase1") if i.actor == "Mira"][-1]

    assert (mira(figures).spell, mira(figures).target) == ("haste", "Brienne")  # the friend nearest the foe
    cast_once = replace(figures[0], spells_used=("haste",))
    held = replace(figures[2], status=FigureStatus.HELD)
    assert (mira([cast_once, figures[1], held, figures[3]]).spell,
            mira([cast_once, figures[1], held, figures[3]]).target) == ("hold person", "C")  # B is held already
    everyone_held = [cast_once, figures[1], held, replace(figures[3], status=FigureStatus.HELD)]
    assert mira(everyone_held).kind is IntentKind.ATTACK  # no hold on the held: her dagger
