"""000 §2 C Stationary, Defenseless Target: "+4 to its AC, receives no dexterity bonus, and may be attacked
each phase. This category includes spellcasters when invoking magicks requiring somatic components." """

from __future__ import annotations

from fractions import Fraction

import pytest

from combatkit import Abilities, ActionKind, Combatant, Declaration, Encounter, Length, Spell, Weapon
from combatkit.attack import DEFENSELESS_RULE, Attacker, CriticalOptions, Defender, setup_attack
from combatkit.conditions import CONDITIONS
from combatkit.criticals import attack_odds
from combatkit.fight import FightOptions, run_fight
from combatkit.resolution import EventKind, ResolutionOptions

SWORD = Weapon("long sword", 5, damage="d8")
ALDRIC = Attacker("Aldric", SWORD, thac0=15)


def _ac_terms(defender, options=CriticalOptions()):
    return [(m.label, m.value, m.rule) for m in setup_attack(ALDRIC, defender, "000-I", options=options).armor_class]


def test_a_defenseless_target_is_four_easier_to_hit_and_loses_its_dexterity_bonus():
    mira = Defender("Mira", armor_class=5, dexterity=17)  # AC 5 with her DEX 17's -3 in it
    assert setup_attack(ALDRIC, mira, "000-I").needed == 10
    helpless = setup_attack(ALDRIC, Defender("Mira", armor_class=5, dexterity=17, defenseless=True), "000-I")
    assert helpless.needed == 10 - 4 - 3
    assert [(m.label, m.value, m.rule) for m in helpless.armor_class] == [
        ("stationary and defenseless", 4, DEFENSELESS_RULE), ("no Dexterity bonus (DEX 17)", 3, DEFENSELESS_RULE)]


def test_the_defenseless_condition_of_the_critical_miss_table_now_changes_the_number_needed():
    """It changed AC by 0: "considered stationary and defenseless" is 000 §2 C's defenseless target."""
    fallen = Defender("Ugluk", armor_class=6, conditions=(CONDITIONS["defenseless"],))
    assert setup_attack(ALDRIC, fallen, "000-I").needed == setup_attack(ALDRIC, Defender("Ugluk", armor_class=6),
                                                                      "000-I").needed - 4


def test_a_prone_and_defenseless_figure_is_plus_four_once_and_loses_its_dexterity_bonus():
    """One helplessness: prone's "AC +4" and the defenseless target's +4 do not add up (docs/rules-choices.md)."""
    prone = Defender("Ugluk", armor_class=4, dexterity=16, conditions=(CONDITIONS["prone"], CONDITIONS["defenseless"]))
    assert _ac_terms(prone) == [("prone (stunned)", 4, "000 §4 Critical Miss table"),
                                ("no Dexterity bonus (DEX 16)", 2, DEFENSELESS_RULE)]
    dazed = Defender("Ugluk", armor_class=4, conditions=(CONDITIONS["dazed"], CONDITIONS["defenseless"]))
    assert sum(value for _, value, _ in _ac_terms(dazed)) == 4, "dazed +1 tops up to +4"


def test_the_other_reading_of_plus_four_to_its_ac_is_an_option():
    """``defenseless_ac=-4`` reads "+4 to its AC" as a better AC; the Dexterity bonus is lost either way."""
    terms = _ac_terms(Defender("Mira", armor_class=5, dexterity=17, defenseless=True), CriticalOptions(defenseless_ac=-4))
    assert [value for _, value, _ in terms] == [-4, 3]


def test_a_defender_who_lost_its_agility_bonuses_to_a_severity_critical_miss_loses_its_dexterity_bonus():
    """000-II natural 1: "loses Agility bonuses through his or her next attack": AC too, not to hit alone."""
    terms = _ac_terms(Defender("Ugluk", armor_class=4, dexterity=18, conditions=(CONDITIONS["no_agility_bonus"],)))
    assert terms == [("no Dexterity bonus (DEX 18)", 4, "000 §4 Severity Rules: Critical Miss")]


def test_exact_odds_against_a_defenseless_target_are_better_by_the_seeds_terms():
    plain = attack_odds(ALDRIC, Defender("Mira", armor_class=5, dexterity=17), "000-I")
    helpless = attack_odds(ALDRIC, Defender("Mira", armor_class=5, dexterity=17, defenseless=True), "000-I")
    assert helpless.hit - plain.hit == Fraction(7, 20)


def _caster_fight(components: str, criticals: str | None = None):
    mira = Combatant("Mira", "a", char_class="mage", hit_points=30, armor_class=8,
                     abilities=Abilities(dexterity=17), spells=(Spell("sleep", 1, 4, components),),
                     weapons=(Weapon("dagger", 2, damage="d4", length=Length.SHORT),))
    ugluk = Combatant("Ugluk", "b", hit_points=30, weapons=(Weapon("short sword", 3, damage="d6",
                                                                   length=Length.SHORT),))
    encounter = Encounter("a caster in reach", (mira, ugluk),
                          (Declaration("Mira", 1, ActionKind.CAST, spell="sleep", target="Ugluk"),
                           Declaration("Ugluk", 1, ActionKind.ATTACK, target="Mira")), distances=(("Mira", "Ugluk", 5),))
    options = FightOptions(max_rounds=1, resolution=ResolutionOptions(criticals=criticals))
    return [e for e in run_fight(encounter, "phase1", seed=0, options=options).events
            if e.kind is EventKind.ATTACK and e.actor == "Ugluk"]


@pytest.mark.parametrize("criticals", [None, "000-I", "000-II", "004"])
def test_a_blow_on_a_caster_invoking_somatic_components_says_it_is_defenseless(criticals):
    """The blow lands while Mira casts sleep (V,S,M): +4 and no DEX bonus, said in the fight's why line."""
    [blow] = _caster_fight("V,S,M", criticals)
    assert "Mira is casting sleep with its somatic components: a stationary, defenseless target" in blow.why
    assert "stationary and defenseless" in blow.why
    assert blow.why.count("no Dexterity bonus") == 1, "002 III.E already took the DEX bonus: not twice"


def test_a_caster_of_a_spell_without_somatic_components_is_not_defenseless():
    [blow] = _caster_fight("V")
    assert "defenseless" not in blow.why


def test_the_other_reading_of_may_be_attacked_each_phase_gives_a_foe_in_reach_a_blow_a_phase():
    """Default: "may be attacked each phase" adds no blow (every target may be attacked in every phase under
    Phase System I). ``defenseless_each_phase``: a foe in reach that struck nothing that phase strikes the
    defenseless figure at the phase's end, once a phase."""
    mira = Combatant("Mira", "a", char_class="mage", hit_points=60, spells=(Spell("cloudkill", 5, 9, "V,S"),))
    ugluk = Combatant("Ugluk", "b", hit_points=30, weapons=(Weapon("club", 4, damage="d6"),))
    encounter = Encounter("a long casting", (mira, ugluk),
                          (Declaration("Mira", 1, ActionKind.CAST, spell="cloudkill", target="Ugluk"),
                           Declaration("Ugluk", 1, ActionKind.MISC, note="watches")), distances=(("Mira", "Ugluk", 5),))

    def fight(each_phase):
        options = FightOptions(max_rounds=1, resolution=ResolutionOptions(defenseless_each_phase=each_phase))
        played = run_fight(encounter, "phase1", seed=3, options=options)
        assert run_fight(encounter, "phase1", seed=3, options=options, explain=False).figures == played.figures
        return played, [e for e in played.events if e.kind is EventKind.ATTACK and e.actor == "Ugluk"]

    plain, blows = fight(False)
    assert blows == [] and any(e.kind is EventKind.SPELL for e in plain.events), "cloudkill goes off"
    played, blows = fight(True)
    [blow] = blows
    assert blow.tick == 6 and blow.rule == DEFENSELESS_RULE and "stationary and defenseless" in blow.why
    assert any(e.kind is EventKind.SPELL_RUINED for e in played.events), "the end-of-phase blow ruins it (000 §2 A)"


def test_the_criticals_explorer_has_a_defenseless_toggle_that_shows_its_plus_four_and_lost_dex_bonus():
    from combatkit.widgets.views.criticals import CriticalExplorer

    explorer = CriticalExplorer("000-I")
    before = explorer.odds.needed
    explorer.defender_dexterity.value = 17
    explorer.defenseless.value = True
    assert explorer.odds.needed == before - 4 - 3 and explorer.odds.setup.defender.is_defenseless
    assert "+4 stationary and defenseless +3 no Dexterity bonus (DEX 17)" in explorer.summary.value
    explorer.option_controls["defenseless_ac"].value = -4
    assert explorer.odds.needed == before + 4 - 3, "the other reading: an AC bonus, the DEX bonus still lost"
    assert {p.key for p in explorer.url_params()} >= {"defenseless", "defender_dex"}
