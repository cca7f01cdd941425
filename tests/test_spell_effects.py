"""Spells do what they do (PH 2e, combatkit.effects): the flag on a spell that has no effect data."""

from __future__ import annotations

from combatkit import ActionKind, Combatant, Declaration, Encounter, Length, Spell, Weapon
from combatkit.fight import FightOptions
from combatkit.resolution import EventKind, play_round
from combatkit.simulation import simulate

A, M, C = ActionKind.ATTACK, ActionKind.MOVE, ActionKind.CAST
SWORD = Weapon("long sword", 5, damage="d8")
WINNER_A = {"initiative: a": 1, "initiative: b": 10}
"""Side a wins 000's initiative: Mira's CT 1 spell in phase 1 goes off on half-segment 1."""


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
