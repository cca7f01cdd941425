"""Five-phase action rounds (seed 001): the ordering check, Action Facilities, rushing and delaying,
Erik the Bold's multiple attacks, the three steps of a phase and when effects land, Last Actions, the
morale step, the list of actions and their costs, charges and clashes, each bracketed open question as
an option; exact odds against a Monte Carlo of the scheduler; invariants."""

from __future__ import annotations

import math
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combatkit import (
    ActionKind, Combatant, Declaration, Encounter, Hit, IllegalActionError, Length, Maneuver, Roller, RulesError, Size,
    Spell, Status, Weapon, WeaponKind, find_system, load_example, loads_encounter,
)
from combatkit.encounter_files import dumps_toml
from combatkit.fight import FightOptions, run_fight
from combatkit.systems._exhaust import matchup
from combatkit.systems.five_phase import (
    FIVE_PHASE, Check, Facility, FivePhaseOptions, PhaseLayout, Routine, action_for, action_list, attack_phases,
    routine_phases,
)

A, M, C, X, R = ActionKind.ATTACK, ActionKind.MOVE, ActionKind.CAST, ActionKind.MISC, ActionKind.READY
PARTY_FIRST = {"ordering: party": 5, "ordering: orcs": 2}
ORCS_FIRST = {"ordering: party": 1, "ordering: orcs": 4}
TIED = {"ordering: party": 3, "ordering: orcs": 3}
LAYOUT = PhaseLayout(2)
SWORD = Weapon("long sword", 5, length=Length.LONG)          # Moderate
DAGGER = Weapon("dagger", 2, length=Length.SHORT)            # Very Quick
SPEAR = Weapon("spear", 6, length=Length.VERY_LONG)          # Moderate
GREATSWORD = Weapon("two-handed sword", 10, length=Length.VERY_LONG)  # Very Slow
BOW = Weapon("short bow", 7, kind=WeaponKind.MISSILE)        # Slow


def fighter(name="Erik", side="party", weapons=(SWORD,), **kw) -> Combatant:
    return Combatant(name, side, weapons=weapons, **kw)


def orc(name="Grishnak", weapons=(DAGGER,), **kw) -> Combatant:
    return Combatant(name, "orcs", char_class="monster", weapons=weapons, **kw)


def mage(name="Mira", ct=1, side="party", **kw) -> Combatant:
    return Combatant(name, side, char_class="mage", spells=(Spell("spell", 1, ct),), **kw)


def run(people, decls, rolls=PARTY_FIRST, options=None, distances=(), hits=(), round=1):
    enc = Encounter("test", tuple(people), tuple(decls), tuple(distances), tuple(hits), rolls, round)
    return FIVE_PHASE.schedule(enc, Roller(entered=rolls), options)


def span(t, actor, kind="attack", n=0):
    return [s for s in t.for_actor(actor) if s.kind == kind][n]


def where(t, s):
    return t.clock.period_of(s.end).label


# ----------------------------------------------------------------- 001 B: the ordering check

def test_higher_d6_acts_first_in_each_step():
    """001 B The Ordering Check: "Those characters making a Quick Action on Side A will act during that phase
    before characters from other sides act in that phase." """
    people = [fighter(), orc()]
    decls = [Declaration("Erik", 3, A, target="Grishnak"), Declaration("Grishnak", 3, A, target="Erik")]
    t = run(people, decls, ORCS_FIRST, FivePhaseOptions(facilities={"Grishnak": Facility.MODERATE}))
    assert span(t, "Grishnak").end == LAYOUT.melee(3, 1) < span(t, "Erik").end == LAYOUT.melee(3, 2)


def test_a_tie_makes_like_actions_simultaneous():
    """001 B: "a tie in rolls means all actions are simultaneous with like actions in each phase"."""
    people = [fighter(), orc(weapons=(SPEAR,))]
    t = run(people, [Declaration("Erik", 3, A, target="Grishnak"), Declaration("Grishnak", 3, A, target="Erik")], TIED)
    assert span(t, "Grishnak").end == span(t, "Erik").end
    assert "A tie" in t.notes[0]


def test_more_than_two_sides_rank_from_high_to_low():
    """001 B: "If more than two sides are involved, the die rolls rank from highest to lowest"."""
    people = [fighter("A", "x"), fighter("B", "y"), fighter("C", "z")]
    decls = [Declaration(n, 3, A, target="A" if n != "A" else "B") for n in "ABC"]
    rolls = {"ordering: x": 2, "ordering: y": 6, "ordering: z": 4}
    t = run(people, decls, rolls)
    layout = PhaseLayout(3)
    assert t.clock == layout.clock
    assert [span(t, n).end for n in "BCA"] == [layout.melee(3, 1), layout.melee(3, 2), layout.melee(3, 3)]
    t = run(people, decls, {"ordering: x": 6, "ordering: y": 3, "ordering: z": 6})
    assert span(t, "A").end == span(t, "C").end == layout.melee(3, 1) < span(t, "B").end == layout.melee(3, 2)


# ----------------------------------------------------------------- 001 B: Action Facility & Phases

def test_facilities_are_the_five_phases():
    """001 B: "The Action Facilities are Very Quick, Quick, Moderate, Slow, and Very Slow. These correspond with
    each of the phases, first through fifth, in order." """
    assert [(f.label, int(f)) for f in Facility] == [
        ("Very Quick", 1), ("Quick", 2), ("Moderate", 3), ("Slow", 4), ("Very Slow", 5)]


@pytest.mark.parametrize(("sf", "phase"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5)])
def test_a_weapon_attack_acts_in_its_facilitys_phase(sf, phase):
    """001 B: "A weapon attack uses the Weapon Speed rating as Action Facility" (the model's SF, banded)."""
    people = [fighter(weapons=(Weapon("w", sf),)), orc()]
    t = run(people, [Declaration("Erik", phase, A, target="Grishnak")])
    assert where(t, span(t, "Erik")) == f"phase {phase}: melee"
    assert Facility(phase).label in span(t, "Erik").rule


@pytest.mark.parametrize(("ct", "note", "phase"), [(1, "", 1), (3, "", 3), (5, "", 5), (6, "", 6), (2, "from a scroll", 5),
                                                   (3, "from a scroll", 6), (4, "waves the wand", 4)])
def test_a_spell_acts_in_its_casting_time_phase(ct, note, phase):
    """001 B: "A spell uses the Casting Time as Action Facility"; 001 Magic: a scroll's casting time is +3."""
    t = run([mage(ct=ct), orc()], [Declaration("Mira", phase, C, target="Grishnak", note=note)])
    cast = span(t, "Mira", "cast")
    assert cast.status is Status.DONE
    assert where(t, cast) == ("last actions" if phase == 6 else f"phase {phase}: missiles & magic")


def test_an_items_activation_speed_is_1_to_5():
    """001 Magic: By Item: "these Activation Speeds range from 1 to 5"."""
    with pytest.raises(IllegalActionError) as err:
        run([mage(ct=7), orc()], [Declaration("Mira", 6, C, note="uses the wand")])
    assert err.value.rule == "001 Magic: By Item" and "got 7" in str(err.value)


def test_rushing_one_phase_costs_4_and_no_more_is_allowed():
    """001 B: "The action may be moved ahead one phase in this fashion, the PC suffers a penalty of -4"."""
    people = [fighter(), orc()]
    t = run(people, [Declaration("Erik", 2, A, target="Grishnak")])
    assert where(t, span(t, "Erik")) == "phase 2: melee" and "-4" in span(t, "Erik").why
    with pytest.raises(IllegalActionError) as err:
        run(people, [Declaration("Erik", 1, A, target="Grishnak")])
    assert err.value.rule == "001 B. Action Speeds" and "not declared for phase 1" in str(err.value)


def test_rushing_a_spell_says_its_penalties_are_missing():
    t = run([mage(ct=3), orc()], [Declaration("Mira", 2, C, target="Grishnak")])
    assert "prints none" in span(t, "Mira", "cast").why


def test_delaying_to_any_later_phase_or_past_phase_five():
    """001 B: "A character may act on a later phase by delaying their action." 001 H: "Any action delayed to
    happen after Phase Five happens immediately after the regular Phase Five actions"."""
    people = [fighter(), orc()]
    t = run(people, [Declaration("Erik", 5, A, target="Grishnak")])
    assert where(t, span(t, "Erik")) == "phase 5: melee" and "Delayed to phase 5" in span(t, "Erik").why
    t = run(people, [Declaration("Erik", 6, A, target="Grishnak"), Declaration("Grishnak", 6, M, feet=20)])
    assert span(t, "Erik").end == span(t, "Grishnak", "move").end == LAYOUT.last_actions


# ----------------------------------------------------------------- 001 B: movement shifts attacks

def test_a_half_move_shifts_the_attack_a_phase_and_costs_3():
    """001 Half-Move: "The character may attack with a penalty of -3 in conjunction with a half-move"; 001
    Last Actions: "Half-Move & Attack: Very Slow Melee Attacks happen" there."""
    people = [fighter(weapons=(SWORD, GREATSWORD)), orc()]
    t = run(people, [Declaration("Erik", 1, M, target="Grishnak", feet=20),
                     Declaration("Erik", 4, A, target="Grishnak")], distances=[("Erik", "Grishnak", 25)])
    assert where(t, span(t, "Erik", "move")) == "phase 1: movement"
    assert where(t, span(t, "Erik")) == "phase 4: melee" and "-3" in span(t, "Erik").why
    t = run(people, [Declaration("Erik", 1, M, target="Grishnak", feet=20),
                     Declaration("Erik", 6, A, target="Grishnak", weapons=("two-handed sword",))],
            distances=[("Erik", "Grishnak", 25)])
    assert where(t, span(t, "Erik")) == "last actions" and "Last Action" in span(t, "Erik").why


def test_a_shift_in_the_first_phase_does_not_delay():
    """001 Shift: "The character may attack normally after having shifted during First Phase. Spell casters may
    shift during First Phase, as they begin their channeling." """
    t = run([fighter(weapons=(DAGGER,)), orc()],
            [Declaration("Erik", 1, M, target="Grishnak", feet=10), Declaration("Erik", 1, A, target="Grishnak")],
            distances=[("Erik", "Grishnak", 15)])
    assert span(t, "Erik", "move").action.startswith("shifts")
    assert where(t, span(t, "Erik")) == "phase 1: melee"
    t = run([mage(ct=2), orc()], [Declaration("Mira", 1, M, feet=5), Declaration("Mira", 2, C)])
    assert where(t, span(t, "Mira", "cast")) == "phase 2: missiles & magic"
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Erik", 2, M, feet=5, note="shift")])
    assert err.value.rule == "001 Movement: Shift" and "not phase 2" in str(err.value)


def test_a_full_move_is_two_half_moves_and_nothing_else():
    """001 B: "A full move involves two half-moves and doesn't allow for any other actions." """
    t = run([fighter(), orc()], [Declaration("Erik", 1, M, feet=100)])
    move = span(t, "Erik", "move")
    assert move.action.startswith("full move") and where(t, move) == "phase 2: movement"
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Erik", 1, M, feet=100), Declaration("Erik", 4, A, target="Grishnak")])
    assert "Full Move" in err.value.rule and "allows no other action" in str(err.value)
    with pytest.raises(IllegalActionError):
        run([fighter(), orc()], [Declaration("Erik", 1, M, feet=20), Declaration("Erik", 3, M, feet=20)])
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Erik", 1, M, feet=200)])
    assert "up to 120'" in str(err.value)


# ----------------------------------------------------------------- 001 B: Erik the Bold

def test_erik_the_bold():
    """001 B Multiple attack sequences, worked example: "Erik the Bold now has 3 attacks every 2 rounds. He has a
    Moderate Facility weapon. In the rounds where he's due a single attack, he operates with an Action Facility of
    Moderate. In the rounds he's due two attacks, he attacks using a Quick Speed with his first attack, and then a
    Slow Speed with his second." """
    people = [fighter("Erik the Bold", level=7, attacks_per_round=Fraction(3, 2)), orc()]
    one = run(people, [Declaration("Erik the Bold", 3, A, target="Grishnak")], round=1)
    assert where(one, span(one, "Erik the Bold")) == "phase 3: melee"
    two = run(people, [Declaration("Erik the Bold", 2, A, target="Grishnak"),
                       Declaration("Erik the Bold", 4, A, target="Grishnak")], round=2)
    first, second = (span(two, "Erik the Bold", n=i) for i in (0, 1))
    assert (where(two, first), where(two, second)) == ("phase 2: melee", "phase 4: melee")
    assert first.rule == second.rule == "001 B. Multiple attack sequences"
    with pytest.raises(IllegalActionError) as err:
        run(people, [Declaration("Erik the Bold", 2, A, target="Grishnak"),
                     Declaration("Erik the Bold", 4, A, target="Grishnak")], round=1)
    assert err.value.rule == "001 B. Multiple attack sequences"


def test_a_multiple_attack_moved_past_phase_five_is_a_last_action():
    """001 B: "if the attack would be moved after Phase Five, the character will attack as a Last Action." """
    assert attack_phases(Facility.VERY_SLOW, 2) == (4, 6)
    assert attack_phases(Facility.VERY_QUICK, 2) == (1, 2)
    people = [fighter(weapons=(GREATSWORD,), attacks_per_round=Fraction(2)), orc()]
    t = run(people, [Declaration("Erik", 4, A, target="Grishnak"), Declaration("Erik", 6, A, target="Grishnak")])
    assert [where(t, span(t, "Erik", n=i)) for i in (0, 1)] == ["phase 4: melee", "last actions"]


# ----------------------------------------------------------------- C-G: within each phase; effects

def test_movement_then_missiles_and_magic_then_melee():
    """001 Within Each Phase: Movement, Missiles & Magic, Melee -- even for the side that lost the ordering."""
    people = [fighter(weapons=(Weapon("dirk", 3),)), mage(ct=2), orc(weapons=(Weapon("sling", 4, kind=WeaponKind.MISSILE),)),
              orc("Snaga")]
    decls = [Declaration("Erik", 2, A, target="Grishnak"), Declaration("Mira", 2, C, target="Grishnak"),
             Declaration("Grishnak", 2, A, target="Mira"), Declaration("Snaga", 2, M, feet=20)]
    t = run(people, decls, ORCS_FIRST)
    move, sling, spell, blow = span(t, "Snaga", "move"), span(t, "Grishnak"), span(t, "Mira", "cast"), span(t, "Erik")
    assert move.end < sling.start < spell.end == sling.end < blow.end
    assert where(t, blow) == "phase 2: melee"


def test_missiles_and_spells_take_effect_together_after_all_are_loosed():
    """001 Play Out Phases: "Missiles launched and spells loosed will have full effect simultaneously after all such
    attacks have been completed"; 001 Magic: the winning side's caster looses before receiving missile fire."""
    people = [mage(ct=3), orc(weapons=(BOW,))]
    decls = [Declaration("Mira", 3, C, target="Grishnak"), Declaration("Grishnak", 3, A, target="Mira")]
    t = run(people, decls, PARTY_FIRST, hits=[Hit("Mira", LAYOUT.effects(3), "Grishnak")])
    spell, arrow = span(t, "Mira", "cast"), span(t, "Grishnak")
    assert arrow.start == LAYOUT.missiles(3, 2) and spell.end == arrow.end == LAYOUT.effects(3)
    assert spell.status is Status.DONE  # the arrow's hit lands with the spell, not before it


def test_melee_of_the_first_side_lands_before_the_second_sides():
    """001 Melee: "All melee damage and special effects are applied immediately. The other side's damage and special
    effects are applied after their turn"; with tied ordering a pair can kill each other."""
    people = [fighter(), orc(weapons=(SPEAR,))]
    decls = [Declaration("Erik", 3, A, target="Grishnak"), Declaration("Grishnak", 3, A, target="Erik")]
    first = run(people, decls, PARTY_FIRST)
    assert span(first, "Erik").end < span(first, "Grishnak").end
    tied = run(people, decls, TIED)
    assert span(tied, "Erik").end == span(tied, "Grishnak").end


def test_a_hit_while_a_spell_is_channelled_ruins_it():
    people = [mage(ct=3), orc()]
    t = run(people, [Declaration("Mira", 3, C, target="Grishnak")], hits=[Hit("Mira", LAYOUT.melee(2, 2))])
    assert span(t, "Mira", "cast").status is Status.RUINED
    t = run(people, [Declaration("Mira", 3, C, target="Grishnak")], hits=[Hit("Mira", LAYOUT.melee(3, 2))])
    assert span(t, "Mira", "cast").status is Status.DONE


def test_option_tied_ordering_makes_the_whole_phase_simultaneous():
    """001 Play Out Phases: "If Ordering is tied, all actions within the phase are assumed simultaneous, so moving has
    no priority over missiles or melee" (option; by default the step order holds, 001 Elements of the Abstraction)."""
    people = [mage(ct=2), orc()]
    decls = [Declaration("Mira", 2, C, target="Grishnak"), Declaration("Grishnak", 2, A, target="Mira")]
    default = run(people, decls, TIED)
    assert span(default, "Mira", "cast").end < span(default, "Grishnak").end
    flat = run(people, decls, TIED, FivePhaseOptions(tied_phase_simultaneous=True))
    assert span(flat, "Mira", "cast").end == span(flat, "Grishnak").end
    assert span(flat, "Grishnak").period == "phase 2"


# ----------------------------------------------------------------- H, I: Last Actions and morale

def test_rally_is_in_the_morale_step():
    """001 I. Morale: "Rally: Attempt to rally any close allies", then the remaining morale checks."""
    t = run([fighter(), orc()], [Declaration("Erik", 7, X, note="rallies the party")])
    assert span(t, "Erik", "misc").end == LAYOUT.rally and where(t, span(t, "Erik", "misc")) == "morale: rally"
    for bad in (Declaration("Erik", 7, X, note="hides"), Declaration("Erik", 3, X, note="rally")):
        with pytest.raises(IllegalActionError) as err:
            run([fighter(), orc()], [bad])
        assert err.value.rule == "001 I. Morale & Record Keeping"


def test_a_giants_charge_forces_morale_checks_on_the_non_heroic():
    """001 Morale Check Due to Charge: "If Charged by a dragon or other giant creature, all non-Heroic creatures
    (those with fewer than 4HD) must make a morale check immediately." """
    people = [Combatant("Gog", "giants", char_class="monster", level=12, size=Size.HUGE, weapons=(SPEAR,)),
              fighter("Erik", "party", level=6), fighter("Pip", "party", level=1)]
    decls = [Declaration("Gog", 1, M, target="Erik", maneuver=Maneuver.CHARGE), Declaration("Gog", 4, A, target="Erik")]
    t = run(people, decls, {"ordering: giants": 4, "ordering: party": 2}, distances=[("Gog", "Erik", 40)])
    checks = [s for s in t if s.kind == "morale"]
    assert [s.actor for s in checks] == ["Pip"] and checks[0].end == span(t, "Gog", "move").end


@pytest.mark.parametrize(("size", "checked"), [(Size.LARGE, []), (Size.HUGE, ["Pip"]), (Size.GARGANTUAN, ["Pip"])])
def test_only_a_charge_of_giant_size_or_more_forces_morale_checks(size, checked):
    """001 Morale Check Due to Charge, "a dragon or other giant creature": from ``giant_size`` (huge) up; a large
    creature's charge forces none."""
    people = [Combatant("Gog", "giants", char_class="monster", level=12, size=size, weapons=(SPEAR,)),
              fighter("Erik", "party", level=6), fighter("Pip", "party", level=1)]
    decls = [Declaration("Gog", 1, M, target="Erik", maneuver=Maneuver.CHARGE), Declaration("Gog", 4, A, target="Erik")]
    t = run(people, decls, {"ordering: giants": 4, "ordering: party": 2}, distances=[("Gog", "Erik", 40)])
    assert [s.actor for s in t if s.kind == "morale"] == checked


# ----------------------------------------------------------------- A LIST OF ACTIONS

def test_guard_delays_a_phase_at_the_beginning_of_movement():
    """001 Delays & Distractions: "These actions happen at the beginning of the movement phase." Guard: "The player
    may choose to delay one phase at a time"."""
    t = run([fighter(), orc()], [Declaration("Erik", 1, X, note="guards"), Declaration("Erik", 4, A, target="Grishnak")])
    assert span(t, "Erik", "misc").end == LAYOUT.distractions(1) and "+2 defensive bonus" in span(t, "Erik", "misc").why
    assert "falls due in phase 4" in span(t, "Erik").why


@pytest.mark.parametrize(("note", "name", "phases"), [
    ("opens the door", "Open or Close Door", 2), ("braces the door", "Brace Door", 2),
    ("bends the bars", "Bend Bars or Lift Gate", 5), ("draw & ready: dagger", "Draw & Ready", 1),
    ("snatches the idol", "Snatch Item", 1), ("hides", "Hide", 1), ("hammers a spike", "Hammer a spike", 1),
    ("hammers a spike, stowed", "Hammer a spike", 2), ("sings a song", "Unlisted action", 1),
])
def test_fixed_phase_costs(note, name, phases):
    """001 A LIST OF ACTIONS: "Open or Close Door: 2 phases", "Bend Bars or Lift Gate: 5 phases", ..."""
    t = run([fighter(), orc()], [Declaration("Erik", 1, X, note=note)])
    s = span(t, "Erik", "misc")
    assert action_for(fighter(), Declaration("Erik", 1, X, note=note)).name == name
    assert (s.start, s.end) == (1, LAYOUT.end(phases))


@pytest.mark.parametrize(("note", "purpose", "low", "high"), [
    ("imbibes a potion", "Imbibe", 3, 5), ("binds wounds", "Bind wounds", 2, 5), ("lights a torch", "Light a torch, lamp, or taper", 2, 7),
    ("finishes picking the lock", "Finish Activity", 2, 12), ("retrieves rope", "Retrieve/Stow", 2, 5),
])
def test_ranged_phase_costs_are_rolled(note, purpose, low, high):
    """001 A LIST OF ACTIONS: "Imbibe ... 3 - 5 phases", "Finish Activity ... 2 - 12 phases" ... as dice."""
    for phases in (low, high):
        key = f"{purpose}: Erik, phase 1"
        rolls = {**PARTY_FIRST, key: phases, "Imbibe takes effect: Erik, phase 1": 2}
        t = run([fighter(), orc()], [Declaration("Erik", 1, X, note=note)], rolls)
        end = span(t, "Erik", "misc").end
        rounds, phase = divmod(phases - 1, 5)
        expected = LAYOUT.end(phase + 1) + rounds * LAYOUT.clock.ticks
        assert end == expected, (phases, end)


def test_imbibing_from_the_backpack_and_the_potions_effect():
    """001 Imbibe: "in backpack, +5 phases; stowed in belt pouch or pocket, +1 phase"; "The potion will take effect
    2-5 phases after it's consumed." """
    rolls = {**PARTY_FIRST, "Imbibe: Erik, phase 1": 3, "Imbibe takes effect: Erik, phase 1": 2}
    pouch = run([fighter(), orc()], [Declaration("Erik", 1, X, note="imbibes from the belt pouch")], rolls)
    assert span(pouch, "Erik", "misc").end == LAYOUT.end(4)
    assert span(pouch, "Erik", "effect").end == LAYOUT.distractions(1) + LAYOUT.clock.ticks  # phase 4 + 2
    pack = run([fighter(), orc()], [Declaration("Erik", 1, X, note="imbibes, from the backpack")], rolls)
    assert span(pack, "Erik", "misc").end == LAYOUT.end(3) + LAYOUT.clock.ticks  # 8 phases: next round's 3rd
    assert "next round" in span(pack, "Erik", "misc").period


def test_an_action_cannot_begin_while_busy():
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Erik", 1, X, note="opens the door"), Declaration("Erik", 2, X, note="hides")])
    assert err.value.rule == "001 Other Actions: Hide" and "busy until phase 3" in str(err.value)


def test_dice_that_leave_a_figure_busy_cancel_rather_than_refuse():
    rolls = {**PARTY_FIRST, "Imbibe: Erik, phase 1": 5, "Imbibe takes effect: Erik, phase 1": 2}
    t = run([fighter(), orc()], [Declaration("Erik", 1, X, note="imbibe"), Declaration("Erik", 4, X, note="hides")], rolls)
    assert [s for s in t.for_actor("Erik") if s.status is Status.CANCELLED][0].action.startswith("hide")


def test_draw_and_ready_before_an_attack():
    """001 Draw & Ready: "It takes but a phase" (the model's drop_and_draw)."""
    t = run([fighter(weapons=(DAGGER,)), orc()], [Declaration("Erik", 2, A, target="Grishnak", drop_and_draw=True)])
    assert where(t, span(t, "Erik", "misc")) == "phase 1: melee" and where(t, span(t, "Erik")) == "phase 2: melee"


@pytest.mark.parametrize(("note", "name"), [
    ("split-move attack", "Split-Move Attack"), ("cleaves", "Feat"), ("subdues", "Subdual Stroke"),
    ("fires", "Weapon Attack"),
])
def test_melee_actions_from_the_list(note, name):
    """001 Melee: the kinds of attack; a note naming one picks it (for a melee weapon)."""
    assert action_for(fighter(), Declaration("Erik", 3, A, note=note)).name == name


@pytest.mark.parametrize(("kind", "maneuver", "note", "name"), [
    (M, Maneuver.CHARGE, "", "Charge"), (M, Maneuver.CHARGE, "counter-charges the ogre", "Counter-Charge"),
    (M, Maneuver.WITHDRAW, "", "Withdrawal"), (M, Maneuver.WITHDRAW, "retreats", "Retreat"),
    (M, Maneuver.FLEE, "", "Break & Run"), (M, Maneuver.FLEE, "flight", "Flight"),
    (A, Maneuver.OVERBEAR, "", "Overbear"), (A, Maneuver.PUMMEL, "punches", "Unarmed/Body Attack"),
    (A, Maneuver.GRAPPLE, "", "Unarmed/Body Attack"),
])
def test_a_maneuver_is_one_of_its_own_entries_of_the_list(kind, maneuver, note, name):
    """001 Movement and Melee: a charge, a withdrawal, a flight and the unarmed attacks are the declaration's
    maneuver; its note picks among that maneuver's entries."""
    assert action_for(fighter(), Declaration("Erik", 1, kind, maneuver=maneuver, note=note)).name == name


@pytest.mark.parametrize("note", ["charges the ogre", "runs to the door", "withdraws the dagger", "overbears"])
def test_a_note_never_makes_a_maneuver(note):
    """Words in a note pick among the plain entries only: a move whose note says "charges" is a move."""
    kind = A if note == "overbears" else M
    assert not action_for(fighter(), Declaration("Erik", 1, kind, note=note)).maneuvers


def test_a_spell_cannot_be_rushed_into_a_phase_its_caster_is_still_moving_in():
    """001 B: an action counts "from when the character is free" and may be rushed one phase; a spell is channelled
    from then, so a half-move in phase 3 leaves a CT 1 spell due in phase 4, and rushing it to phase 3 is refused
    (a blow, rushed the same way, is a half-move attack)."""
    mage = Combatant("Mira", "party", spells=(Spell("magic missile", 1, 1),))
    with pytest.raises(IllegalActionError, match=r"Mira is busy until phase 4: a spell is channelled from when its "
                                                 r"caster is free, so magic missile cannot be rushed to phase 3"):
        run([mage, orc()], [Declaration("Mira", 3, M), Declaration("Mira", 3, C, spell="magic missile")])
    t = run([mage, orc()], [Declaration("Mira", 3, M), Declaration("Mira", 4, C, spell="magic missile")])
    assert span(t, "Mira", "cast").start <= span(t, "Mira", "cast").end


def test_missile_actions_from_the_list():
    """001 Missiles: Pass-Through Fire at -2; a bow's attack is Missile Fire by default."""
    archer = fighter(weapons=(BOW,))
    assert action_for(archer, Declaration("Erik", 4, A, note="pass-through fire")).name == "Pass-Through Fire"
    assert action_for(archer, Declaration("Erik", 4, A)).name == "Missile Fire"
    t = run([archer, orc()], [Declaration("Erik", 4, A, target="Grishnak", note="pass-through")])
    assert "Pass-Through Fire: -2" in span(t, "Erik").why


def test_split_move_attack_is_two_one_two():
    """001 Split-Move Attack: "two phases for the initial move; one phase for the attack; then two phases for the
    second move", at -4; no other action."""
    t = run([fighter(weapons=(DAGGER,)), orc()], [Declaration("Erik", 3, A, target="Grishnak", feet=30, note="split-move")],
            distances=[("Erik", "Grishnak", 35)])
    legs = [(where(t, s), s.kind) for s in t.for_actor("Erik")]
    assert legs == [("phase 2: movement", "move"), ("phase 3: melee", "attack"), ("phase 5: movement", "move")]
    with pytest.raises(IllegalActionError):
        run([fighter(), orc()], [Declaration("Erik", 2, A, target="Grishnak", note="split-move")])


def test_data_says_which_costs_are_the_seeds():
    costs = {a.id: (a.phases, a.cost_from) for a in action_list()}
    assert costs["open_or_close_door"] == (2, "seed") and costs["imbibe"] == ("d3+2", "seed")
    assert costs["charge"][1] == costs["parley"][1] == "combatkit"


# ----------------------------------------------------------------- charges and clashes

def charge_round(defender_weapons=(SPEAR,), decl=None, gap=40, rolls=ORCS_FIRST):
    people = [fighter(weapons=(DAGGER,)), orc(weapons=defender_weapons)]
    decls = [Declaration("Erik", 1, M, target="Grishnak", maneuver=Maneuver.CHARGE), Declaration("Erik", 2, A, target="Grishnak")]
    decls.append(decl or Declaration("Grishnak", 2, A, target="Erik", note=""))
    return run(people, decls, rolls, distances=[("Erik", "Grishnak", gap)])


def test_charge_attack_ignores_initiative_and_the_longer_reach_strikes_first():
    """001 Charge Attack Resolution: "Initiative is ignored; the longest reach weapon attacks first; if reach is
    equal, attacks are simultaneous." """
    t = charge_round(rolls=PARTY_FIRST, decl=Declaration("Grishnak", 3, A, target="Erik"))
    assert where(t, span(t, "Erik")) == "phase 2: melee"
    assert span(t, "Erik").rule == "001 Melee: Charge Attack Resolution" and "-2" in span(t, "Erik").why


def test_set_to_receive_strikes_first_with_a_longer_weapon():
    """001 Set to Receive Charge: "the weapon set may attack first if its reach is longer than the weapon being used
    in the charge"."""
    t = charge_round(decl=Declaration("Grishnak", 1, R, target="Erik"), rolls=PARTY_FIRST)
    strike = span(t, "Grishnak")
    assert strike.rule == "001 Movement: Set to Receive Charge" and strike.end < span(t, "Erik").end


def test_a_charge_needs_twenty_feet_and_a_counter_charge_needs_a_charge():
    """001 Charge: "A Charge requires at least 20' between the character charging and the target"."""
    with pytest.raises(IllegalActionError) as err:
        charge_round(gap=15)
    assert err.value.rule == "001 Movement: Charge" and "from 15'" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Grishnak", 1, M, target="Erik", maneuver=Maneuver.CHARGE, note="counter-charge")])
    assert err.value.rule == "001 Movement: Counter-Charge"


def test_a_clash_orders_the_first_blows_by_reach():
    """001 Clash: "When two foes come together and begin fighting. Longest weapon strikes first"."""
    people = [fighter(weapons=(DAGGER,)), orc(weapons=(SPEAR,))]
    decls = [Declaration("Erik", 1, M, target="Grishnak", feet=20), Declaration("Erik", 3, A, target="Grishnak"),
             Declaration("Grishnak", 3, A, target="Erik")]
    t = run(people, decls, PARTY_FIRST, distances=[("Erik", "Grishnak", 25)])
    assert span(t, "Grishnak").end == LAYOUT.melee(3, 1) < span(t, "Erik").end == LAYOUT.melee(3, 2)
    assert span(t, "Erik").rule == "001 Melee: Clash"


def test_melee_needs_the_target_within_reach():
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Erik", 3, A, target="Grishnak")], distances=[("Erik", "Grishnak", 30)])
    assert err.value.rule == "001 Movement" and "30'" in str(err.value)


def test_withdrawal_needs_the_foe_to_have_initiative():
    """001 Withdrawal: "If the opponent possesses initiative, a character may try to back away"."""
    decl = [Declaration("Erik", 1, M, target="Grishnak", maneuver=Maneuver.WITHDRAW)]
    assert span(run([fighter(), orc()], decl, ORCS_FIRST), "Erik", "move").status is Status.DONE
    assert span(run([fighter(), orc()], decl, PARTY_FIRST), "Erik", "move").status is Status.CANCELLED
    with pytest.raises(IllegalActionError):
        run([fighter(), orc()], decl + [Declaration("Erik", 3, A, target="Grishnak")], ORCS_FIRST)


def test_break_and_run_suffers_attacks_from_the_rear():
    """001 Break & Run: "Such a character will suffer an immediate attack from the rear by an engaged foe." """
    t = run([fighter(), orc(), orc("Snaga")], [Declaration("Erik", 1, M, maneuver=Maneuver.FLEE)],
            distances=[("Erik", "Grishnak", 5), ("Erik", "Snaga", 10)])
    rear = {s.actor: s.why for s in t if s.kind == "opportunity"}
    assert "from the rear" in rear["Grishnak"] and "without bonus" in rear["Snaga"]


def test_surprised_figures_declare_nothing():
    """001 A. Declare Intentions: "If one side is surprised, it makes no declarations until after the surprise has run
    its course"."""
    with pytest.raises(IllegalActionError) as err:
        run([fighter(surprised=True), orc()], [Declaration("Erik", 3, A, target="Grishnak")])
    assert err.value.rule == "001 A. Declare Intentions"
    t = run([fighter(surprised=True), orc()], [])
    assert span(t, "Erik", "surprised")


@pytest.mark.parametrize(("declaration", "rule", "words"), [
    (Declaration("Erik", 3, A, target="Grishnak", hold=1), "001 A LIST OF ACTIONS", "hold=1"),
    (Declaration("Erik", 3, A, target="Grishnak", attacks=2), "001 B. Multiple attack sequences", "attacks=2"),
    (Declaration("Erik", 9, A, target="Grishnak"), "001 THE PROCEDURE FOR ACTION ROUNDS", "got 9"),
    (Declaration("Erik", 3, A, target="Nobody"), "encounter", "'Nobody'"),
])
def test_bad_declarations_name_the_rule_and_value(declaration, rule, words):
    with pytest.raises(RulesError) as err:
        run([fighter(), orc()], [declaration])
    assert err.value.rule == rule and words in str(err.value)


# ----------------------------------------------------------------- the open questions, as options

def test_option_specialization_quickens_a_step():
    """001 B: "[Hmm. Weapon Specialization quickens Weapon Spd by 1 at all times?]" -- off by default."""
    decl = [Declaration("Erik", 2, A, target="Grishnak")]
    t = run([fighter(), orc()], decl, options=FivePhaseOptions(specialized=frozenset({"Erik"})))
    assert "-4" not in span(t, "Erik").why and "specialization" in span(t, "Erik").why


def test_option_monster_routines():
    """001 B: "[Monster routines — e.g., claw/claw/bite — all at once or spread out? ... So, Speed of Quick would claw
    in phase two and four, then bite last in phase five? Or act in phases two, three, and four consecutively?]" """
    assert routine_phases(Routine.SPREAD, [Facility.QUICK] * 3, ["x"] * 3) == (2, 4, 5)
    assert routine_phases(Routine.CONSECUTIVE, [Facility.QUICK] * 3, ["x"] * 3) == (2, 3, 4)
    assert routine_phases(Routine.BY_TARGET, [Facility.QUICK] * 3, ["x", "x", "y"]) == (2, 3, 5)
    assert routine_phases(Routine.PER_PART, [Facility.QUICK, Facility.QUICK, Facility.SLOW], [None] * 3) == (2, 2, 4)
    claws = (Weapon("claw", 3, kind=WeaponKind.NATURAL), Weapon("other claw", 3, kind=WeaponKind.NATURAL),
             Weapon("bite", 3, kind=WeaponKind.NATURAL))
    bear = Combatant("Bear", "orcs", char_class="monster", weapons=claws)  # medium natural attacks: SF 3, Quick
    decl = [Declaration("Bear", 2, A, target="Erik", weapons=("claw", "other claw", "bite"))]
    default = run([fighter(), bear], decl)
    assert [where(default, s) for s in default.for_actor("Bear")] == ["phase 2: melee"] * 3
    spread = run([fighter(), bear], decl, options=FivePhaseOptions(monster_routine=Routine.SPREAD))
    assert [where(spread, s) for s in spread.for_actor("Bear")] == ["phase 2: melee", "phase 4: melee", "phase 5: melee"]


def test_the_plan_spreads_a_monster_s_attacks_as_the_round_does():
    """A monster's two attacks with one claw, under each routine option: the plan declares them in the phases the
    round gives the routine (spread: 2 and 5), not in an experienced fighter's (a phase early, then late: 1 and
    3), which the round refused under the spread option (make fuzz). All at once keeps the fighter's phases, as
    the recorded fights have them."""
    ogre = Combatant("Grol", "orcs", char_class="monster", hit_points=40, attacks_per_round=2,
                     weapons=(Weapon("claw", 3, kind=WeaponKind.NATURAL, damage="d4"),))
    encounter = Encounter("claws", (fighter(hit_points=40), ogre), distances=(("Erik", "Grol", 5),))
    expected = {Routine.ALL_AT_ONCE: [1, 3], Routine.SPREAD: [2, 5], Routine.CONSECUTIVE: [2, 3],
                Routine.BY_TARGET: [2, 3], Routine.PER_PART: [2, 2]}
    for routine, phases in expected.items():
        fight = run_fight(encounter, "five_phase", seed=1, options=FightOptions(max_rounds=2),
                          system_options=FivePhaseOptions(monster_routine=routine))
        assert fight.refused == 0, routine
        assert [d.phase for d in fight.rounds[0].declarations if d.actor == "Grol"] == phases, routine


def test_option_continuation():
    """001 B: "[Continuation: success on attack by 5+ pips on roll results in an added attack w/penalty on next
    phase?]" -- THAC0 20 against AC 10 needs 10: a 15 earns it, a 14 does not."""
    people = [fighter(thac0=20), orc(armor_class=10)]
    decl = [Declaration("Erik", 3, A, target="Grishnak")]
    options = FivePhaseOptions(continuation=True)
    for roll, added in ((15, True), (14, False)):
        rolls = {**PARTY_FIRST, "to hit: Erik -> Grishnak, phase 3": roll}
        t = run(people, decl, rolls, options)
        assert (len(t.for_actor("Erik")) == 2) is added
    t = run(people, decl, {**PARTY_FIRST, "to hit: Erik -> Grishnak, phase 3": 20}, options)
    assert where(t, span(t, "Erik", n=1)) == "phase 4: melee" and "-2" in span(t, "Erik", n=1).why


def test_option_distraction_check():
    """001 Spectacle: "a successful attempt [what sort of check?] will result in hostilities stopping for a phase";
    without the option the referee rules on it."""
    people = [fighter("Pip"), fighter(), orc()]
    decls = [Declaration("Pip", 1, X, note="spectacle"), Declaration("Erik", 3, A, target="Grishnak"),
             Declaration("Grishnak", 1, A, target="Erik")]
    plain = run(people, decls)
    assert "referee rules" in span(plain, "Pip", "misc").why and where(plain, span(plain, "Erik")) == "phase 3: melee"
    option = FivePhaseOptions(distraction_check=Check("d6", 4))
    works = run(people, decls, {**PARTY_FIRST, "spectacle: Pip, phase 1": 5}, option)
    assert where(works, span(works, "Erik")) == "phase 4: melee"
    assert where(works, span(works, "Grishnak")) == "phase 2: melee"
    fails = run(people, decls, {**PARTY_FIRST, "spectacle: Pip, phase 1": 2}, option)
    assert where(fails, span(fails, "Erik")) == "phase 3: melee"


def test_option_relative_facility_extra_attack():
    """001 B Optional Rule: "If a character is acting with an Action Facility three steps quicker (e.g., Quick vs Very
    Slow), that character may make another attack in that same slower phase with a penalty of -2. (-4?)" """
    people = [fighter(weapons=(Weapon("short sword", 3),)), orc(weapons=(GREATSWORD,))]
    decls = [Declaration("Erik", 2, A, target="Grishnak"), Declaration("Erik", 5, A, target="Grishnak"),
             Declaration("Grishnak", 5, A, target="Erik")]
    with pytest.raises(IllegalActionError):
        run(people, decls)
    t = run(people, decls, options=FivePhaseOptions(relative_facility_extra_attack=True, extra_attack_penalty=-4))
    extra = span(t, "Erik", n=1)
    assert where(t, extra) == "phase 5: melee" and "-4" in extra.why
    with pytest.raises(IllegalActionError) as err:
        run(people, decls[:1] + [Declaration("Erik", 4, A, target="Grishnak")] + decls[2:],
            options=FivePhaseOptions(relative_facility_extra_attack=True))
    assert "slower phase" in str(err.value)


# ----------------------------------------------------------------- the shipped example

def test_shipped_example():
    enc = load_example("five-phase-erik-the-bold")
    assert loads_encounter(dumps_toml(enc)) == enc, "the file round-trips"
    assert find_system(enc.system) is FIVE_PHASE
    t = FIVE_PHASE.schedule(enc, Roller(entered=enc.rolls))
    erik = [where(t, s) for s in t.for_actor("Erik the Bold")]
    assert erik == ["phase 2: melee", "phase 4: melee"]
    assert span(t, "Mira", "cast").end == span(t, "Snaga").end == LAYOUT.effects(3)
    assert where(t, span(t, "Tam")) == "last actions"


def test_find_by_alias():
    assert find_system("five-phase") is FIVE_PHASE and find_system("001") is FIVE_PHASE


# ----------------------------------------------------------------- exact odds, and a Monte Carlo of schedule

def duel():
    people = (fighter(), orc(weapons=(SPEAR,)), mage(ct=3, side="orcs"))
    decls = (Declaration("Erik", 3, A, target="Grishnak"), Declaration("Grishnak", 3, A, target="Erik"),
             Declaration("Mira", 3, C, target="Erik"), Declaration("Erik", 4, X, note="binds wounds"))
    return Encounter("duel", people, decls)


def test_odds_are_exact():
    """Both strike in phase 3's melee: who is first is the ordering d6s (001 B)."""
    odds = FIVE_PHASE.odds(duel(), "Erik", "Grishnak")
    assert odds["a first"] == (icepool.d6 > icepool.d6).probability(True) == Fraction(5, 12)
    assert odds["simultaneous"] == Fraction(1, 6) and odds["b first"] == Fraction(5, 12)
    assert FIVE_PHASE.odds(duel(), "Mira", "Erik")["a first"] == 1  # phase 3 missiles & magic before melee


def test_odds_match_a_monte_carlo_of_schedule():
    enc = duel()
    exact = FIVE_PHASE.odds(enc, "Erik", "Grishnak")
    n = 1500
    sample = matchup([(Fraction(1, n), FIVE_PHASE.schedule(enc, Roller(seed=i))) for i in range(n)], "Erik", "Grishnak")
    for key in ("a first", "simultaneous", "b first"):
        p = float(exact[key])
        assert abs(float(sample[key]) - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12, key


# ----------------------------------------------------------------- invariants

NAMES = ["A", "B", "C", "D"]
NOTES = ["", "charge", "draw & ready", "imbibe", "guard", "spectacle", "opens the door", "scroll", "split-move", "rally"]


@st.composite
def encounters(draw):
    n = draw(st.integers(2, 4))
    people = []
    for i in range(n):
        weapons = tuple(
            Weapon(f"w{j}", draw(st.integers(0, 12)), kind=draw(st.sampled_from(list(WeaponKind))),
                   length=draw(st.sampled_from(list(Length))))
            for j in range(draw(st.integers(0, 2))))
        people.append(Combatant(
            NAMES[i], draw(st.sampled_from(["x", "y", "z"])), level=draw(st.integers(1, 10)),
            char_class=draw(st.sampled_from(["fighter", "mage", "monster"])), size=draw(st.sampled_from(list(Size))),
            attacks_per_round=Fraction(draw(st.integers(1, 4)), draw(st.integers(1, 2))), weapons=weapons,
            surprised=draw(st.integers(0, 7)) == 0,
            spells=(Spell("s0", 1, draw(st.one_of(st.integers(1, 9), st.just("1 round")))),) if draw(st.booleans()) else ()))
    declarations = [
        Declaration(draw(st.sampled_from(NAMES[:n])), draw(st.integers(1, 7)), (kind := draw(st.sampled_from(list(ActionKind)))),
                    target=draw(st.one_of(st.none(), st.sampled_from(NAMES[:n]))), spell=draw(st.sampled_from([None, "s0"])),
                    feet=draw(st.one_of(st.none(), st.integers(0, 130))), note=draw(st.sampled_from(NOTES)),
                    maneuver=draw(st.sampled_from([None, *(m for m in Maneuver if m.kind is kind)])))
        for _ in range(draw(st.integers(0, 6)))]
    distances = tuple((a, b, draw(st.integers(0, 60))) for a, b in draw(
        st.lists(st.tuples(st.sampled_from(NAMES[:n]), st.sampled_from(NAMES[:n])).filter(lambda p: p[0] != p[1]),
                 max_size=3, unique_by=lambda p: frozenset(p))))
    hits = tuple(Hit(draw(st.sampled_from(NAMES[:n])), draw(st.integers(1, 44))) for _ in range(draw(st.integers(0, 2))))
    options = FivePhaseOptions(
        monster_routine=draw(st.sampled_from(list(Routine))), continuation=draw(st.booleans()),
        distraction_check=draw(st.sampled_from([None, Check()])), tied_phase_simultaneous=draw(st.booleans()),
        relative_facility_extra_attack=draw(st.booleans()))
    return Encounter("random", tuple(people), tuple(declarations), distances, hits), options


@settings(max_examples=150, deadline=None)
@given(encounters(), st.integers(0, 2**32))
def test_any_encounter_places_every_action_in_its_phases_or_names_the_rule(case, seed):
    """Every declaration is placed, starting inside the round's clock, the same way for the same seed, or the
    round raises a rules error that names the rule."""
    encounter, options = case
    try:
        timeline = FIVE_PHASE.schedule(encounter, Roller(seed=seed), options)
    except RulesError as error:
        assert error.rule and str(error)
        return
    assert timeline == FIVE_PHASE.schedule(encounter, Roller(seed=seed), options)
    placed = {id(d) for d in encounter.declarations}
    assert len([s for s in timeline if s.kind in ("move", "attack", "cast", "misc", "ready")]) >= len(placed)
    for s in timeline:
        assert 1 <= s.start <= s.end, s
        assert s.start <= timeline.clock.ticks or s.kind == "effect", s
        assert s.rule.startswith("001"), s
        if s.end <= timeline.clock.ticks and s.status is Status.DONE and not options.tied_phase_simultaneous:
            period = timeline.clock.period_of(s.end).label
            step = {"move": ("movement", "melee", "last actions"), "cast": ("missiles & magic", "last actions"),
                    "morale": ("movement",)}.get(s.kind)
            if step:
                assert any(word in period for word in step), (s, period)


def test_a_weaponless_large_creature_s_blow_is_planned_when_its_fists_fall_due():
    """001 B. Action Speeds: a large creature's fists (SF 6) are a Moderate attack, due in phase 3. The plan of an
    ogre with no weapon that means to attack put the blow in phase 1 (it took a weaponless attack as Very Quick),
    and the round was refused: "may be rushed one phase, to phase 2, not declared for phase 1"."""
    from combatkit.intent import Intent, IntentKind

    ogre = Combatant("Grol", "orcs", char_class="monster", level=4, size=Size.LARGE, hit_points=30)
    encounter = Encounter("fists", (ogre, fighter()), distances=(("Grol", "Erik", 5),),
                          intents=(Intent("Grol", IntentKind.ATTACK, "Erik"),))
    plan = FIVE_PHASE.plan(encounter)
    assert [(d.phase, d.maneuver) for d in plan.declarations] == [(3, Maneuver.PUMMEL)]
    assert "Moderate" in plan.for_actor("Grol")[0].why
    blow = next(s for s in FIVE_PHASE.schedule(encounter, Roller(seed=1)).spans if s.actor == "Grol")
    assert blow.action == "fists -> Erik" and "large creature's natural attack" in blow.why


# ----------------------------------------------------------------- whole fights across rounds (#46)

def _fight_events(fight, round_number, actor=None, kind=None):
    return [e for e in fight.rounds[round_number - 1].events
            if (actor is None or e.actor == actor) and (kind is None or e.kind.value == kind)]


def test_a_one_round_hold_lasts_through_the_round_after_it_is_cast():
    """001 Magic: "For purposes of spell duration, the first round after a spell is cast counts as the first
    round, even if the spell activates in an early segment." A one-round hold cast in round 1 holds the orc
    through round 2; it is back in the fight at round 2's record keeping and strikes in round 3 (#46 item 4: it
    was back at round 1's record keeping and struck in round 2)."""
    from combatkit.effects import EffectKind, Save
    from combatkit.intent import Intent, IntentKind
    from combatkit.model import SpellEffect

    hold = SpellEffect("hold", EffectKind.HOLD, "a one-round hold", save=Save.NEGATES, duration=1)
    mira = Combatant("Mira", "party", char_class="mage", hit_points=20, thac0=25,
                     spells=(Spell("hold", 1, 1, effect=hold),))
    grishnak = orc(hit_points=30, weapons=(Weapon("dagger", 2, damage="d4"),))
    ugluk = orc("Ugluk", hit_points=30)  # far off: the fight goes on while Grishnak is held
    rolls = {**PARTY_FIRST, "save vs spell: Grishnak [round 1, tick 6]": 2}
    encounter = Encounter("hold", (mira, grishnak, ugluk), distances=(("Mira", "Grishnak", 5), ("Mira", "Ugluk", 300)),
                          rolls=rolls,
                          intents=(Intent("Mira", IntentKind.CAST, target="Grishnak", spell="hold"),),
                          system="five_phase")
    fight = run_fight(encounter, "five_phase", seed=1, options=FightOptions(max_rounds=3))
    assert [e.outcome for e in _fight_events(fight, 1, kind="effect")][:1] == ["held"]
    assert not _fight_events(fight, 1, kind="recover")
    assert not [e for e in _fight_events(fight, 2, "Grishnak") if e.kind.value == "attack"]
    recovered = _fight_events(fight, 2, "Grishnak", "recover")
    assert len(recovered) == 1 and "1 round" in recovered[0].why
    assert fight.rounds[1].timeline.clock.period_of(recovered[0].tick).label == "morale: record keeping"
    assert [e for e in _fight_events(fight, 3, "Grishnak") if e.kind.value == "attack"]
    assert fight.row() == run_fight(encounter, "five_phase", seed=1, options=FightOptions(max_rounds=3),
                                    explain=False).row()


def test_a_withdrawal_is_followed_by_a_flight_in_the_following_round():
    """001 Withdrawal: "If the opponent fails to strike the character, then some space between the two has opened
    up and the character may flee in the following round"; 001 Flight: "After a successful withdrawal or retreat,
    a character has enough space from the opponent to no longer be engaged and can flee at triple move rate."
    Hero withdraws from the orc (who has initiative) and means to flee: the flight is left for round 2, where it is
    a Flight, not a Break & Run (#46 item 5: it was placed in round 1 and the round refused)."""
    from combatkit.intent import Intent, IntentKind, PlacementKind

    hero = fighter("Hero", hit_points=20)
    grishnak = orc(hit_points=30, movement=3)  # too slow to catch up and re-engage
    encounter = Encounter("withdraw", (hero, grishnak), distances=(("Hero", "Grishnak", 5),), rolls=ORCS_FIRST,
                          intents=(Intent("Hero", IntentKind.MOVE, "Grishnak", away=True, maneuver=Maneuver.WITHDRAW),
                                   Intent("Hero", IntentKind.MOVE, maneuver=Maneuver.FLEE)),
                          system="five_phase")
    plan = FIVE_PHASE.plan(encounter)
    withdrawal, flight = plan.for_actor("Hero")
    assert withdrawal.kind is PlacementKind.PLACED and flight.kind is PlacementKind.DEFERRED
    assert flight.rule.startswith("001 Movement: Withdrawal") and "following round" in flight.why
    fight = run_fight(encounter, "five_phase", seed=1, options=FightOptions(max_rounds=2))
    assert fight.refused == 0
    first, second = ([s for s in r.timeline.for_actor("Hero") if s.kind == "move"] for r in fight.rounds)
    assert [s.rule for s in first] == ["001 Movement: Withdrawal"]
    assert [s.rule for s in second] == ["001 Movement: Flight"]
    assert fight.figure("Hero").status.value == "fled"
    assert not [e for e in _fight_events(fight, 2, "Grishnak") if e.kind.value == "attack"]


# ----------------------------------------------------------------- morale checks and Rally in whole fights (#46 item 8)

def _giant_charge(pip_intents=(), erik_intents=(), rolls=None, pip=None):
    """Gog, a huge giant, charges Erik (6th level, Heroic); Pip (1st level, morale 7) stands beside Erik."""
    from combatkit.intent import Intent, IntentKind

    gog = Combatant("Gog", "giants", char_class="monster", level=12, size=Size.HUGE, hit_points=80,
                    weapons=(SPEAR,))
    erik = fighter("Erik", level=6, hit_points=60)
    pip = pip or fighter("Pip", level=1, hit_points=30, morale=7)
    intents = (Intent("Gog", IntentKind.MOVE, "Erik", maneuver=Maneuver.CHARGE), Intent("Gog", IntentKind.ATTACK, "Erik"),
               *pip_intents, *erik_intents)
    return Encounter("giant", (gog, erik, pip), distances=(("Gog", "Erik", 40), ("Gog", "Pip", 40), ("Erik", "Pip", 5)),
                     rolls={"ordering: giants": 4, "ordering: party": 2, **(rolls or {})}, intents=intents,
                     system="five_phase")


def _morale_events(fight, round_number, kind="morale"):
    return [e for e in fight.rounds[round_number - 1].events if e.kind.value == kind]


CHARGE_TICK = LAYOUT.movement(1, 1)  # Gog's side won the ordering: its charge lands at its place in phase 1's movement


def test_a_giants_charge_rolls_morale_and_a_failure_breaks_and_runs_for_the_rest_of_the_fight():
    """001 Morale Check Due to Charge: "all non-Heroic creatures (those with fewer than 4HD) must make a morale check
    immediately. The effects are applied immediately." 001 Break & Run: "A character failing a morale check ... will
    simply try to flee without regard to the enemy." Pip (morale 7) rolls 11 on 2d6: he breaks at once, does not
    strike in phase 3, and is still broken in round 2 (#46 item 8: the check was placed and never rolled): the
    policy has Erik rally him there, and Pip's rally roll (12) fails."""
    from combatkit.intent import Intent, IntentKind

    encounter = _giant_charge(pip_intents=(Intent("Pip", IntentKind.ATTACK, "Gog"),),
                              rolls={f"morale: Pip [round 1, tick {CHARGE_TICK}]": 11,
                                     f"rally: Pip [round 2, tick {LAYOUT.rally}]": 12})
    fight = run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=2))
    check, = _morale_events(fight, 1)
    assert check.actor == "Pip" and check.outcome == "broke" and check.tick == CHARGE_TICK
    assert check.rule == "001 Morale Check Due to Charge"
    assert "2d6" in check.why and "11" in check.why and "morale 7" in check.why and "Gog" in check.why
    assert not [e for e in fight.rounds[0].events if e.actor == "Pip" and e.kind.value == "attack"]
    assert not [e for e in fight.rounds[1].events if e.actor == "Pip" and e.kind.value == "attack"]
    assert fight.rounds[0].figure("Pip").status.value == "frightened"
    assert [e.outcome for e in _morale_events(fight, 2, "rally")] == ["failed"]
    assert fight.figure("Pip").status.value == "frightened"
    assert fight.row() == run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=2),
                                    explain=False).row()


def test_a_morale_check_made_holds_the_figure_in_the_fight():
    """001 Morale Check Due to Charge: a check made (2d6 at or under the morale score) leaves the figure fighting."""
    from combatkit.intent import Intent, IntentKind

    encounter = _giant_charge(pip_intents=(Intent("Pip", IntentKind.ATTACK, "Gog"),),
                              rolls={f"morale: Pip [round 1, tick {CHARGE_TICK}]": 7})
    fight = run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=1))
    check, = _morale_events(fight, 1)
    assert check.outcome == "held" and fight.figure("Pip").status.value == "active"


def test_a_rally_after_last_actions_brings_a_broken_ally_back():
    """001 I. Morale: "Rally: Attempt to rally any close allies", before all remaining morale checks. Pip breaks at
    Gog's charge; Erik rallies in the morale step and Pip's rally roll (2d6, 5 against morale 7) brings him back into
    the fight: he comes on again in round 2."""
    from combatkit.intent import Intent, IntentKind

    rally = LAYOUT.rally
    encounter = _giant_charge(
        pip_intents=(Intent("Pip", IntentKind.ATTACK, "Gog"),),
        erik_intents=(Intent("Erik", IntentKind.ATTACK, "Gog"), Intent("Erik", IntentKind.ACTION, note="rally")),
        rolls={f"morale: Pip [round 1, tick {CHARGE_TICK}]": 12, f"rally: Pip [round 1, tick {rally}]": 5})
    fight = run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=2))
    rallied, = _morale_events(fight, 1, "rally")
    assert rallied.actor == "Pip" and rallied.outcome == "rallied" and rallied.tick == rally
    assert rallied.rule == "001 I. Morale & Record Keeping: Rally" and "Erik" in rallied.why
    assert fight.rounds[0].figure("Pip").status.value == "active"
    assert [e for e in fight.rounds[1].events if e.actor == "Pip" and e.kind.value in ("move", "attack")]
    assert fight.row() == run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=2),
                                    explain=False).row()


def test_a_sides_losses_call_for_morale_checks_in_the_morale_step():
    """001 I. Morale: "Morale Checks: All remaining morale checks". A side that lost a figure this round checks at
    the morale step: Grishnak falls to Erik's blow and Ugluk (morale 6) rolls 9: he breaks, his side is down and
    the party wins (#46 item 8: no loss ever called for a check)."""
    from combatkit.intent import Intent, IntentKind

    erik = fighter("Erik", level=6, hit_points=60, thac0=1, weapons=(Weapon("long sword", 5, damage="d8+20"),))
    grishnak = orc(hit_points=5, morale=6)
    ugluk = orc("Ugluk", hit_points=20, morale=6)
    checks = LAYOUT.morale_checks
    encounter = Encounter("losses", (erik, grishnak, ugluk),
                          distances=(("Erik", "Grishnak", 5), ("Erik", "Ugluk", 5), ("Grishnak", "Ugluk", 5)),
                          rolls={**PARTY_FIRST, f"attack roll: Erik [round 1, tick {LAYOUT.melee(3, 1)}]": 15,
                                 f"morale: Ugluk [round 1, tick {checks}]": 9},
                          intents=(Intent("Erik", IntentKind.ATTACK, "Grishnak"),), system="five_phase")
    fight = run_fight(encounter, "five_phase", seed=2, options=FightOptions(max_rounds=3))
    assert fight.rounds[0].figure("Grishnak").status.value == "dead"
    check, = [e for e in _morale_events(fight, 1) if e.actor == "Ugluk"]
    assert check.outcome == "broke" and check.tick == checks
    assert check.rule == "001 I. Morale & Record Keeping: Morale Checks" and "Grishnak" in check.why
    assert fight.winner == "party" and fight.round_count == 1
    assert fight.row() == run_fight(encounter, "five_phase", seed=2, options=FightOptions(max_rounds=3),
                                    explain=False).row()


def test_the_policy_rallies_a_broken_ally_in_its_next_round():
    """001 I. Morale: "Rally: Attempt to rally any close allies" (#46 item 8). Pip breaks at Gog's charge in round 1
    (the DM's round: Erik only attacks); from round 2 the default policy writes Erik's intents, and with Pip broken
    within ``rally_feet`` it has him rally besides attacking: Pip's rally roll (2d6, 5 against morale 7) brings him
    back in the morale step, and he fights again in round 3."""
    from combatkit.intent import Intent, IntentKind

    rally = LAYOUT.rally
    encounter = _giant_charge(
        pip_intents=(Intent("Pip", IntentKind.ATTACK, "Gog"),),
        erik_intents=(Intent("Erik", IntentKind.ATTACK, "Gog"),),
        rolls={f"morale: Pip [round 1, tick {CHARGE_TICK}]": 12, f"rally: Pip [round 2, tick {rally}]": 5},
        pip=fighter("Pip", level=1, hit_points=30, morale=7, movement=6))
    fight = run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=3))
    assert not _morale_events(fight, 1, "rally") and fight.rounds[0].figure("Pip").status.value == "frightened"
    rallied, = _morale_events(fight, 2, "rally")
    assert rallied.actor == "Pip" and rallied.outcome == "rallied" and rallied.tick == rally and rallied.amount == 5
    assert rallied.rule == "001 I. Morale & Record Keeping: Rally" and rallied.target == "Erik"
    assert fight.rounds[1].figure("Pip").status.value == "active"
    assert [e for e in fight.rounds[2].events if e.actor == "Pip" and e.kind.value in ("move", "attack")]
    assert fight.row() == run_fight(encounter, "five_phase", seed=3, options=FightOptions(max_rounds=3),
                                    explain=False).row()


def test_a_rally_intent_is_placed_in_the_morale_step_beside_a_full_move():
    """001 B: "A full move involves two half-moves and doesn't allow for any other actions", in phases 1-5; the
    rally is the morale step's (001 I), so an intent to rally is placed beside it, and one written first holds
    nothing after it back."""
    from combatkit.intent import Intent, IntentKind

    rally = Intent("Erik", IntentKind.ACTION, action="rally")
    move = Intent("Erik", IntentKind.MOVE, feet=100)
    for intents in ((move, rally), (rally, move)):
        encounter = Encounter("rally", (fighter(), orc()), distances=(("Erik", "Grishnak", 200),), intents=intents,
                              system="five_phase")
        placed = FIVE_PHASE.plan(encounter).declarations
        assert sorted((d.phase, d.kind, action_for(fighter(), d).id) for d in placed) == [
            (1, M, "full_move"), (7, X, "rally")]
        t = run([fighter(), orc()], placed, distances=[("Erik", "Grishnak", 200)])
        assert span(t, "Erik", "misc").end == LAYOUT.rally
