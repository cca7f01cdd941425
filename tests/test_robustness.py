"""No crash, no hang, no silent difference (#16): each failure found from outside, as a plain test
that failed before its fix. The generated-input tests are in ``test_generated.py``."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from combatkit import ActionKind, Combatant, Declaration, Encounter, Length, Maneuver, Spell, Weapon, WeaponKind
from combatkit.attack import Attacker, Defender
from combatkit.model import FISTS
from combatkit.criticals import attack_odds
from combatkit.dice import MAX_EXACT_TOTALS, Dice
from combatkit.encounter_files import dumps_toml, load_encounter, load_example, loads_encounter, save_encounter
from combatkit.errors import DiceNotationError, EncounterFileError, ExactOddsError, RulesError
from combatkit.mana.pools import Caster, mana_state
from combatkit.mana.recovery import PLAN_MINUTES, Study, plan_day
from combatkit.mana.tables import CasterClass
from combatkit.stances import Role
from combatkit.fight import run_fight
from combatkit.model import Size
from combatkit.resolution import EventKind

DAGGER = Weapon("dagger", 2, damage="d4", length=Length.SHORT)


def _attacks(fight, actor=None):
    return [e for e in fight.events if e.kind is EventKind.ATTACK and (actor is None or e.actor == actor)]


# ----------------------------------------------------------------- weaponless figures fight unarmed


@pytest.mark.parametrize("system", ["phase1", "phase2"])
def test_a_weaponless_charger_and_the_weaponless_figure_it_charges_fight_with_their_fists(system):
    """000 §2 D: a charge ends in a blow and the charged figure answers; with no weapon that blow is
    002 Unarmed Combat's pummel, 1d2 (it was an IndexError in the resolver)."""
    encounter = Encounter("bare hands", (Combatant("A", "a", hit_points=5), Combatant("B", "b", hit_points=5)),
                          (Declaration("A", 1, ActionKind.MOVE, target="B", maneuver=Maneuver.CHARGE),))
    for seed in range(6):
        fight = run_fight(encounter, system, seed=seed)
        blows = _attacks(fight)
        assert blows, fight.why()
        assert {e.actor for e in blows} <= {"A", "B"}
        assert all("with the fists" in e.why for e in blows)
        assert all(e.amount <= 2 for e in blows), "a pummel does 1d2 (002 Unarmed Combat III.A)"
        assert run_fight(encounter, system, seed=seed, explain=False).figures == fight.figures


def test_a_weaponless_foe_beside_a_caster_strikes_it_unarmed_under_the_short_form():
    """002 III.C: casting within reach of a foe draws its attack of opportunity; a weaponless foe's is a pummel."""
    mage = Combatant("A", "a", char_class="mage", hit_points=5, spells=(Spell("web", 2, 2),))
    encounter = Encounter("caster in reach", (mage, Combatant("B", "b", hit_points=5)), distances=(("A", "B", 5),))
    for seed in range(6):
        fight = run_fight(encounter, "short_form", seed=seed)
        assert all("with the fists" in e.why for e in _attacks(fight, "B"))
    assert any(_attacks(run_fight(encounter, "short_form", seed=seed), "B") for seed in range(6))


def test_fists_are_a_natural_pummel():
    assert (FISTS.length, FISTS.damage) == (Length.UNARMED, "d2")


def test_a_small_weaponless_charger_may_not_pummel_a_large_foe_and_the_blow_is_refused_by_name():
    """002 Unarmed Combat: "only on a creature of its own size or smaller" (it raised out of the fight)."""
    encounter = Encounter("too big", (Combatant("A", "a", size=Size.SMALL, hit_points=5),
                                      Combatant("B", "b", size=Size.LARGE, hit_points=5)),
                          (Declaration("A", 1, ActionKind.MOVE, target="B", maneuver=Maneuver.CHARGE),))
    fight = run_fight(encounter, "phase1", seed=0)
    refused = [e for e in fight.events if e.kind is EventKind.CANCELLED and e.rule == "002 Unarmed Combat"]
    assert refused and refused[0].actor == "A" and "own size or smaller" in refused[0].why
    assert all(e.actor == "B" for e in _attacks(fight))


# ----------------------------------------------------------------- the fast path is the explained path


def test_a_spell_held_into_the_next_round_plays_the_same_fight_on_the_fast_path():
    """000 §2 A Holding a Spell: a hold past the round's end carries the spell into the next round. The walk
    read that from the spans it records, which only the explained path records: the fast path (``simulate``'s)
    forgot the held spell and played another fight (3 rounds against 4)."""
    aldric = Combatant("Aldric", "a", hit_points=8, weapons=(DAGGER,), spells=(Spell("web", 2, 2),))
    encounter = Encounter("held web", (aldric, Combatant("Ugluk", "b", hit_points=8)),
                          (Declaration("Aldric", 3, ActionKind.CAST, spell="web", hold=4),))
    for seed in range(10):
        explained = run_fight(encounter, "phase1", seed=seed)
        fast = run_fight(encounter, "phase1", seed=seed, explain=False)
        assert (fast.winner, fast.end, fast.round_count, fast.figures) == (
            explained.winner, explained.end, explained.round_count, explained.figures), seed
    assert any(e.rule == "000 §2 A: Holding a Spell" for e in explained.events)


# ----------------------------------------------------------------- encounter files


FIGHTERS = '[[combatants]]\nname = "A"\nside = "a"\n\n[[combatants]]\nname = "B"\nside = "b"\n'


@pytest.mark.parametrize(("text", "fmt"), [
    ("zz = " + "[" * 1000 + "]" * 1000, "toml"),  # a 2 KB file
    ("[" * 100_000 + "]" * 100_000, "json"),
])
def test_values_nested_thousands_deep_are_a_named_file_error_not_a_recursion_error(text, fmt, tmp_path):
    with pytest.raises(EncounterFileError, match="nested too deep") as error:
        loads_encounter(text, fmt)
    assert error.value.field == "file"
    (tmp_path / f"deep.{fmt}").write_text(text, encoding="utf-8")
    with pytest.raises(EncounterFileError, match="nested too deep"):
        load_encounter(tmp_path / f"deep.{fmt}")


def test_every_file_box_shows_a_too_deep_file_as_an_error():
    """The dashboards' file boxes (one picker, shared) catch ValueError: the reader's errors are ValueErrors."""
    from combatkit.widgets.views.encounter_picker import EncounterPicker

    loaded, errors = [], []
    picker = EncounterPicker(lambda encounter, name: loaded.append(encounter), errors.append)
    picker.read("zz = " + "[" * 1000 + "]" * 1000)
    picker.read("[" * 100_000 + "]" * 100_000, "json")
    assert not loaded and [type(e) for e in errors] == [EncounterFileError, EncounterFileError]
    assert issubclass(EncounterFileError, ValueError)


def test_a_latin_1_file_is_named_as_not_utf_8(tmp_path):
    path = tmp_path / "cafe.toml"
    path.write_bytes(('title = "Café"\n' + FIGHTERS).encode("latin-1"))
    with pytest.raises(EncounterFileError, match=r"cafe.toml is not UTF-8 text \(byte 0xe9 at offset 12\).*TOML 1.0"):
        load_encounter(path)
    path.write_bytes(b"\xef\xbb\xbf" + ('title = "Café"\n' + FIGHTERS).encode())  # a byte-order mark is fine
    assert load_encounter(path).title == "Café"


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_a_number_of_thousands_of_digits_is_a_named_file_error(fmt):
    text = ("seed = " + "9" * 5000 + "\n" + FIGHTERS) if fmt == "toml" else '{"seed": ' + "9" * 5000 + "}"
    with pytest.raises(EncounterFileError, match="a number longer than any field takes"):
        loads_encounter(text, fmt)


@pytest.mark.parametrize("system", ["", "  "])
def test_an_empty_system_is_refused_by_name(system):
    """``system = ""`` was accepted, dropped on save and reloaded as phase1."""
    with pytest.raises(EncounterFileError, match=f"system: names no timing system, got '{system}'; leave it out for "
                                                 f"phase1, or give an id: five_phase"):
        loads_encounter(f'system = "{system}"\n' + FIGHTERS)


def test_a_system_alias_is_read_as_its_id_and_one_combatkit_lacks_is_kept_as_written(tmp_path):
    assert loads_encounter('system = "Combat II Phase System I"\n' + FIGHTERS).system == "phase1"
    homebrew = loads_encounter('system = "homebrew"\n' + FIGHTERS)
    save_encounter(homebrew, tmp_path / "e.toml")
    assert load_encounter(tmp_path / "e.toml").system == "homebrew", "saved and loaded as written"


@pytest.mark.parametrize(("declaration", "field", "words"), [
    ('hold = 9', "declarations[0].hold", "hold is 0..6 CT units (000 §2 A), got 9"),
    ('spell = "wish"', "declarations[0].spell", "A has no spell 'wish'; has []"),
    ('weapon = "halberd"', "declarations[0].weapons", "A has no weapon 'halberd'; has []"),
    ('feet = 5000', "declarations[0].feet", "feet is 0..2400, got 5000"),
])
def test_a_declaration_is_checked_as_the_intent_it_loads_as_so_its_saved_file_loads(declaration, field, words):
    """A file's declarations load as intents and refinements, whose reader checks hold 0..6, the actor's spells
    and weapons and feet 0..2400: a declaration that broke them loaded, and saved to a file that did not
    (found by the generated round trip)."""
    text = FIGHTERS + f'\n[[declarations]]\nactor = "A"\nphase = 1\naction = "cast"\ntarget = "B"\n{declaration}\n'
    with pytest.raises(EncounterFileError) as error:
        loads_encounter(text)
    assert (error.value.field, error.value.message) == (field, words)


def test_a_title_with_a_delete_character_saves_to_a_file_that_loads(tmp_path):
    """U+007F (and other control characters) must be escaped in a TOML string: the hand-written writer did not."""
    encounter = replace(load_example("ct9-spell-vs-sword"), title="Ugluk\x7f's \x00last\x1f stand\u2028")
    assert loads_encounter(dumps_toml(encounter)) == encounter
    for suffix in ("toml", "json"):
        save_encounter(encounter, tmp_path / f"e.{suffix}")
        assert load_encounter(tmp_path / f"e.{suffix}") == encounter


def test_a_lone_surrogate_escaped_in_a_json_file_is_named_not_saved_into_a_unicode_error():
    """JSON may write "\\ud800": read as it was, the encounter could not be saved (UnicodeEncodeError)."""
    text = '{"title": "Ugluk\\ud800", "combatants": [{"name": "A", "side": "a"}]}'
    with pytest.raises(EncounterFileError, match=r"title: 'Ugluk\\\\ud800' holds a lone surrogate"):
        loads_encounter(text, "json")


# ----------------------------------------------------------------- bounded work


def _brute_force(dice: Dice) -> dict[int, Fraction]:
    """Every face of every die, counted: the oracle for the exact distribution."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        counts[sum(faces) + dice.modifier] = counts.get(sum(faces) + dice.modifier, 0) + 1
    return {total: Fraction(n, dice.sides**dice.count) for total, n in sorted(counts.items())}


@pytest.mark.parametrize("text", ["d20", "2d6", "3d4+1", "4d3-2", "2d10-1"])
def test_the_exact_distribution_of_dice_is_the_brute_force_count(text):
    assert Dice.parse(text).distribution() == _brute_force(Dice.parse(text))


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", ["100d1000", "55d500", "50d50"])
def test_dice_too_large_for_exact_odds_are_refused_at_once(text):
    """The nested loop took minutes on 100d1000: exact distributions are for dice of up to 1000 totals."""
    with pytest.raises(ExactOddsError, match=f"{text} rolls .* different totals; exact odds .* at most 1000"):
        Dice.parse(text).distribution()


@pytest.mark.timeout(30)
def test_the_largest_dice_worked_out_exactly_are_worked_out_fast():
    for text in ("10d100", "100d10"):
        distribution = Dice.parse(text).distribution()
        assert len(distribution) == Dice.parse(text).totals <= MAX_EXACT_TOTALS and sum(distribution.values()) == 1


@pytest.mark.timeout(60)
def test_attack_odds_with_huge_damage_dice_are_refused_and_large_ones_worked_out():
    """``attack_odds`` with a 100d1000 weapon never ended (50d50 took 9 s)."""
    defender = Defender(role=Role.FIGHTER)
    with pytest.raises(ExactOddsError):
        attack_odds(Attacker(weapon=Weapon("maul", 5, damage="100d1000")), defender, "000-I")
    for rule_set in ("000-I", "000-II", "004"):
        odds = attack_odds(Attacker(weapon=Weapon("maul", 5, damage="10d100"), role=Role.MONSTER), defender, rule_set)
        assert sum(odds.damage.values()) == 1


def test_a_dice_count_of_thousands_of_digits_names_the_range():
    with pytest.raises(DiceNotationError, match="a dice count of 4400 digits is out of range .1..100 dice"):
        Dice.parse("9" * 4400 + "d6")
    with pytest.raises(DiceNotationError, match="a modifier of 5000 digits"):
        Dice.parse("d6+" + "1" * 5000)
    with pytest.raises(DiceNotationError, match="a dice modifier is -1000..\\+1000, got \\+1001"):
        Dice.parse("d6+1001")


@pytest.mark.timeout(30)
def test_a_study_block_longer_than_a_plan_is_refused_not_stepped_through_minute_by_minute():
    """``plan_day(state, [Study(0, 10**8)])`` stepped through 10**8 minutes."""
    with pytest.raises(RulesError, match="Study end .* at most 10080 .a plan covers a week"):
        Study(0, 10**8)
    wizard = mana_state(Caster(CasterClass.WIZARD, 20)).emptied()
    plan = plan_day(wizard, [Study(0, PLAN_MINUTES)])
    assert plan.final.pools == mana_state(Caster(CasterClass.WIZARD, 20)).pools, "a week refills a 20th-level mage"


# ----------------------------------------------------------------- errors that name their rule


def test_a_caster_class_given_by_value_is_read_and_an_unknown_one_named():
    """``Caster("wizard", 5)`` raised KeyError."""
    assert Caster("wizard", 5) == Caster(CasterClass.WIZARD, 5)
    with pytest.raises(RulesError, match="columns for 'priest', 'wizard', 'ranger', 'paladin'; got the caster "
                                         "class 'mage' .000 §5 Mana System I"):
        Caster("mage", 5)


@pytest.mark.parametrize("sf", [None, 2.5, True, "5"])
def test_a_weapon_speed_factor_that_is_not_a_whole_number_is_named(sf):
    """``Weapon(sf=None)`` or a float went through and raised TypeError in the scheduler."""
    with pytest.raises(RulesError, match=r"sword: SF is a whole number, got .* \(000 §1 E\)"):
        Weapon("sword", sf)
    with pytest.raises(RulesError, match=r"sword: SF is -5..20, got 21"):
        Weapon("sword", 21)
    assert Weapon("claw", 99, kind=WeaponKind.NATURAL).speed_factor == 99, "a natural attack's SF is its size's"


@pytest.mark.parametrize(("given", "said"), [
    ({"max_rounds": "3"}, "max_rounds is a whole number, 1 or more, got '3'"),
    ({"max_rounds": True}, "max_rounds is a whole number, 1 or more, got True"),
    ({"opening_gap": 2.5}, "opening_gap is a whole number of feet, 0 or more, got 2.5"),
    ({"declarations": "no"}, "declarations is true or false, got 'no'"),
    ({"policy": 5}, "policy is a PolicyOptions, got 5")])
def test_fight_options_of_the_wrong_kind_name_the_field_and_the_value(given, said):
    """FightOptions(max_rounds="3"), as a notebook might write it, was a bare TypeError ('<' between str and int)."""
    from combatkit.fight import FightOptions

    with pytest.raises(RulesError, match=re.escape(said)) as refused:
        FightOptions(**given)
    assert refused.value.rule == "combatkit fights"


@pytest.mark.parametrize("seed", ["x", 1.5, True])
def test_a_fight_seed_that_is_not_a_whole_number_is_refused_naming_it(seed):
    """run_fight(seed="x") was played: Python's Random takes text, so the fight's seed was not the number asked for."""
    from combatkit.fight import run_fight

    with pytest.raises(RulesError, match=re.escape(f"seed is a whole number (None: the encounter's), got {seed!r}")):
        run_fight(load_example("orc-closes-on-longbowman"), seed=seed)
    assert run_fight(load_example("orc-closes-on-longbowman"), seed=-3).round_count >= 1, "any whole number will do"
