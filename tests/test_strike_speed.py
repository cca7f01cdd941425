"""Strike Speed order of battle (seed 004 "Strike Speed Based Order of Battle (Optional)",
"Combat Stance"): the table row by row, each bonus, the tie rule, spells declared before
initiative, exact odds against a Monte Carlo of the scheduler, and invariants."""

from __future__ import annotations

import math
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combatkit import (
    ActionKind, Combatant, Declaration, Encounter, Hit, IllegalActionError, Length, Roller, RulesError, Spell,
    Status, Weapon, WeaponKind, find_system, load_example, loads_encounter,
)
from combatkit.encounter_files import dumps_toml
from combatkit.stances import Stance
from combatkit.systems._exhaust import matchup
from combatkit.systems.strike_speed import (
    STRIKE_SPEED, StrikeSpeedOptions, action_row, action_table, fighter_bonus, strike_speed,
)

A, M, C, X, R = ActionKind.ATTACK, ActionKind.MOVE, ActionKind.CAST, ActionKind.MISC, ActionKind.READY
PARTY_WINS = {"initiative: party": 5, "initiative: foes": 2}
FOES_WIN = {"initiative: party": 1, "initiative: foes": 6}


def fighter(name="Tamsin", side="party", level=1, length=Length.MEDIUM, **kw) -> Combatant:
    kw.setdefault("weapons", (Weapon("sword", 5, length=length),))
    return Combatant(name, side, level=level, **kw)


def orc(name="Ugluk", side="foes", level=1, **kw) -> Combatant:
    kw.setdefault("weapons", (Weapon("short sword", 3, length=Length.SHORT),))
    return Combatant(name, side, level=level, char_class="monster", **kw)


def mage(name="Wenna", side="party", level=3, **kw) -> Combatant:
    return Combatant(name, side, level=level, char_class="mage", spells=(Spell("sleep", 1, 1),), **kw)


def run(combatants, declarations, rolls=PARTY_WINS, options=None, hits=()):
    enc = Encounter("test", tuple(combatants), tuple(declarations), hits=tuple(hits))
    return STRIKE_SPEED.schedule(enc, Roller(entered=rolls), options)


def speed_of(timeline, actor, kind="attack"):
    span = next(s for s in timeline.for_actor(actor) if s.kind == kind)
    return int(timeline.clock.period_of(span.end).label.split()[-1])


# ----------------------------------------------------------------- 004: the Base Strike Speed table

TABLE = [
    (1, "Read Scroll"), (2, "Cast Spell"), (3, "Short Length Weapon"), (4, "Medium Length Weapon"),
    (5, "Long Weapon"), (6, "Very Long Weapon"), (7, "Pole Arms"), (8, "Missile Fire/Arcane Blast"),
    (9, "Breath Weapon"), (10, "Glance"),
]


def test_table_is_the_seeds():
    """004 Strike Speed: the table as printed, in order."""
    assert [(row.strike_speed, row.name) for row in action_table()] == TABLE


@pytest.mark.parametrize(("declaration", "weapons", "base"), [
    (Declaration("X", 1, C, spell="sleep", target="Y", note="reads it from a scroll"), (), 1),
    (Declaration("X", 1, C, spell="sleep", target="Y"), (), 2),
    (Declaration("X", 1, A, target="Y"), (Weapon("dagger", 2, length=Length.SHORT),), 3),
    (Declaration("X", 1, A, target="Y"), (Weapon("fist", 1, length=Length.UNARMED),), 3),
    (Declaration("X", 1, A, target="Y"), (Weapon("mace", 7, length=Length.MEDIUM),), 4),
    (Declaration("X", 1, A, target="Y"), (Weapon("long sword", 5, length=Length.LONG),), 5),
    (Declaration("X", 1, A, target="Y"), (Weapon("spear", 6, length=Length.VERY_LONG),), 6),
    (Declaration("X", 1, A, target="Y"), (Weapon("halberd", 9, length=Length.POLE_ARM),), 7),
    (Declaration("X", 1, A, target="Y"), (Weapon("longbow", 8, kind=WeaponKind.MISSILE),), 8),
    (Declaration("X", 1, C, spell="sleep", target="Y", note="arcane blast"), (), 8),
    (Declaration("X", 1, A, target="Y"), (Weapon("fire breath", 0, kind=WeaponKind.NATURAL),), 9),
    (Declaration("X", 1, A, target="Y", note="petrifying glance"), (Weapon("eyes", 0, kind=WeaponKind.NATURAL),), 10),
])
def test_each_row_gives_its_base_strike_speed(declaration, weapons, base):
    """004 Strike Speed table, row by row; an unarmed blow reads as the Short row (our choice)."""
    c = Combatant("X", "a", char_class="mage", weapons=weapons, spells=(Spell("sleep", 1, 1),))
    row = action_row(c, declaration)
    assert row.strike_speed == base
    assert strike_speed(c, row, has_initiative=False)[0] == base


def test_a_routine_of_several_weapons_strikes_at_its_slowest_row():
    c = Combatant("X", "a", weapons=(Weapon("spear", 6, length=Length.VERY_LONG), Weapon("dagger", 2, length=Length.SHORT)))
    assert action_row(c, Declaration("X", 1, A, weapons=("spear", "dagger"))).strike_speed == 3


# ----------------------------------------------------------------- 004: the bonuses

def test_the_side_with_initiative_gets_plus_5():
    """004 Initiative: "The side with the higher roll gets a +5 to strike speed for the round." """
    people = [fighter(char_class="thief"), orc()]
    decl = [Declaration("Tamsin", 1, A, target="Ugluk"), Declaration("Ugluk", 1, A, target="Tamsin")]
    won = run(people, decl, PARTY_WINS)
    assert (speed_of(won, "Tamsin"), speed_of(won, "Ugluk")) == (4 + 5, 3 + 0)
    lost = run(people, decl, FOES_WIN)
    assert (speed_of(lost, "Tamsin"), speed_of(lost, "Ugluk")) == (4, 3 + 5)
    assert "Side 'foes' has initiative" in lost.notes[0]


def test_a_tie_for_the_highest_roll_gives_nobody_the_bonus():
    people = [fighter(char_class="thief"), orc()]
    decl = [Declaration("Tamsin", 1, A, target="Ugluk"), Declaration("Ugluk", 1, A, target="Tamsin")]
    tied = run(people, decl, {"initiative: party": 4, "initiative: foes": 4})
    assert (speed_of(tied, "Tamsin"), speed_of(tied, "Ugluk")) == (4, 3)
    assert "tie for the highest" in tied.notes[0]


@pytest.mark.parametrize(("level", "bonus"), [(0, 0), (1, 1), (4, 1), (5, 2), (8, 2), (9, 3), (20, 5)])
def test_fighter_strike_bonus_is_level_over_4_rounded_up(level, bonus):
    """004: "Fighters add their Fighter Strike Bonus (plus their Level/4, rounded up)"."""
    assert fighter_bonus(fighter(level=level))[0] == bonus


@pytest.mark.parametrize(("hd", "bonus"), [(1, 0), (3, 1), (4, 2), (9, 4)])
def test_monsters_classed_as_fighters_add_half_their_hit_dice_rounded_down(hd, bonus):
    """004: "Monsters add one-half their hit dice, rounded down if the referee classes them as fighters"."""
    assert fighter_bonus(orc(level=hd))[0] == bonus
    assert fighter_bonus(orc(level=hd), StrikeSpeedOptions(fighters={"Ugluk": False}))[0] == 0


def test_only_fighters_get_a_bonus_unless_the_referee_says_so():
    assert fighter_bonus(mage(level=8))[0] == 0
    assert fighter_bonus(mage(level=8), StrikeSpeedOptions(fighters={"Wenna": True}))[0] == 2
    assert fighter_bonus(fighter(char_class="ranger", level=8))[0] == 0


@pytest.mark.parametrize(("stance", "modifier"), [
    (Stance.FULL_ATTACK, 2), (Stance.ACTIVE_ATTACK, 1), (Stance.STANDARD, 0), (Stance.ACTIVE_DEFENSE, -2),
])
def test_stance_strike_modifier_only_with_the_option(stance, modifier):
    """004 Combat Stance: "The Stance Strike modifier is optional"."""
    people = [fighter(char_class="thief"), orc()]
    decl = [Declaration("Tamsin", 1, A, target="Ugluk")]
    plain = run(people, decl, options=StrikeSpeedOptions(stances={"Tamsin": stance}))
    used = run(people, decl, options=StrikeSpeedOptions(stances={"Tamsin": stance}, stance_strike=True))
    assert speed_of(plain, "Tamsin") == 9
    assert speed_of(used, "Tamsin") == 9 + modifier


def test_full_defense_moves_strike_speed_down_5_for_a_figure_that_does_not_attack():
    people = [fighter(char_class="thief"), orc()]
    t = run(people, [Declaration("Tamsin", 1, M, feet=10)],
            options=StrikeSpeedOptions(stances={"Tamsin": Stance.FULL_DEFENSE}, stance_strike=True))
    assert speed_of(t, "Tamsin", "move") == 0 + 5 - 5


def test_full_defense_allows_no_attack():
    """004 Combat Stance: Full Defense (Attack: no attack possible)."""
    with pytest.raises(IllegalActionError) as err:
        run([fighter(), orc()], [Declaration("Tamsin", 1, A, target="Ugluk")],
            options=StrikeSpeedOptions(stances={"Tamsin": Stance.FULL_DEFENSE}))
    assert err.value.rule == "004 Combat Stance" and "Full Defense" in str(err.value)


def test_a_caster_casting_cannot_take_a_defensive_stance():
    """004 Combat Stance: "Spell casters casting a spell cannot select the Full Defense or Active Defense Stance." """
    with pytest.raises(IllegalActionError) as err:
        run([mage(), orc()], [Declaration("Wenna", 1, C, spell="sleep", target="Ugluk")],
            options=StrikeSpeedOptions(stances={"Wenna": Stance.ACTIVE_DEFENSE}))
    assert err.value.rule == "004 Combat Stance" and "Active Defense" in str(err.value)


# ----------------------------------------------------------------- 004: ties, spells

def test_ties_in_strike_speed_go_to_the_higher_level():
    """004: "Ties in Strike Speed are resolved by Character Level/Monster Hit Dice, with the higher acting first." """
    people = [fighter("Tamsin", level=5, length=Length.LONG), fighter("Pike", level=1, length=Length.VERY_LONG),
              fighter("Ash", level=1, length=Length.VERY_LONG), orc()]
    decl = [Declaration(n, 1, A, target="Ugluk") for n in ("Tamsin", "Pike", "Ash")]
    t = run(people, decl, FOES_WIN)
    tamsin, pike, ash = (t.for_actor(n)[0] for n in ("Tamsin", "Pike", "Ash"))
    assert speed_of(t, "Tamsin") == speed_of(t, "Pike") == 7
    assert tamsin.end < pike.end == ash.end
    assert "the higher level acts first" in pike.why


def test_spells_are_declared_with_their_target_before_initiative():
    """004 Initiative: "Spell casters casting a spell must declare the spell being cast and its target before
    initiative is rolled." """
    t = run([mage(), orc()], [Declaration("Wenna", 1, C, spell="sleep", target="Ugluk")])
    cast = t.for_actor("Wenna")[0]
    assert cast.start == 1 and t.clock.period_of(1).label == "before initiative"
    assert speed_of(t, "Wenna", "cast") == 2 + 5
    for bad, words in [(Declaration("Wenna", 1, C, spell="sleep"), "with no target"),
                       (Declaration("Wenna", 1, C, target="Ugluk"), "naming no spell")]:
        with pytest.raises(IllegalActionError) as err:
            run([mage(), orc()], [bad])
        assert err.value.rule == "004 Strike Speed: Initiative" and words in str(err.value)


@pytest.mark.parametrize(("hit", "status"), [
    (Hit("Wenna", 8, "Ugluk"), Status.RUINED),     # strike speed 8 (3 + 5) before her 2
    (Hit("Wenna", 2, "Ugluk"), Status.DONE),       # same strike speed, lower level: simultaneous
    (Hit("Wenna", 2, "Big"), Status.RUINED),       # same strike speed, higher level acts first
    (Hit("Wenna", 1, "Ugluk"), Status.DONE),       # after she has cast
])
def test_a_hit_before_the_casters_strike_speed_disrupts_the_spell(hit, status):
    people = [mage(), orc(), orc("Big", level=6)]
    t = run(people, [Declaration("Wenna", 1, C, spell="sleep", target="Ugluk")], FOES_WIN, hits=[hit])
    cast = next(s for s in t if s.kind == "cast")
    assert cast.status is status
    if status is Status.RUINED:
        assert "disrupted" in cast.why and cast.end < t.clock.ticks + 1


def test_a_move_happens_at_the_strike_speed_of_the_attack_it_leads_into():
    t = run([fighter(char_class="thief"), orc()],
            [Declaration("Tamsin", 1, M, target="Ugluk", feet=10), Declaration("Tamsin", 2, A, target="Ugluk"),
             Declaration("Ugluk", 1, X, note="howls")])
    move, attack = t.for_actor("Tamsin")
    assert (move.kind, attack.kind) == ("move", "attack") and move.end == attack.end
    assert speed_of(t, "Ugluk", "misc") == 0  # not in the table: base 0 (our choice)


# ----------------------------------------------------------------- bad input names the rule

@pytest.mark.parametrize(("declaration", "rule", "words"), [
    (Declaration("Tamsin", 1, A, target="Ugluk", hold=2), "004 Strike Speed", "hold=2"),
    (Declaration("Tamsin", 1, A, target="Ugluk", attacks=2), "004 Strike Speed", "declares 2"),
    (Declaration("Tamsin", 1, A, target="Nobody"), "encounter", "'Nobody'"),
])
def test_bad_declarations_name_the_rule_and_value(declaration, rule, words):
    with pytest.raises(RulesError) as err:
        run([fighter(), orc()], [declaration])
    assert err.value.rule == rule and words in str(err.value)


def test_a_run_s_memo_of_passed_checks_keeps_the_round_s_attacks_and_the_stances():
    """The checks in a fight's memo (combatkit.systems.base.checked_once): a 3/2 figure's two strikes pass in round
    2 and are refused in round 3; a stance that allows no attack is refused though the same declarations passed
    under the standard stance; a round like one that passed is looked up."""
    from combatkit.systems._memo import remembering

    people = (fighter(attacks_per_round=Fraction(3, 2)), orc())
    twice = (Declaration("Tamsin", 1, A, target="Ugluk", attacks=2),)
    cache: dict = {}
    with remembering(cache):
        for number in (2, 4):
            STRIKE_SPEED.schedule(Encounter("t", people, twice, round=number), Roller(entered=PARTY_WINS))
        with pytest.raises(IllegalActionError) as err:
            STRIKE_SPEED.schedule(Encounter("t", people, twice, round=3), Roller(entered=PARTY_WINS))
        assert err.value.rule == "004 Strike Speed" and "1 attack(s) in round 3" in str(err.value)
        defending = StrikeSpeedOptions(stances={"Tamsin": Stance.FULL_DEFENSE})
        with pytest.raises(IllegalActionError, match="no attack possible"):
            STRIKE_SPEED.schedule(Encounter("t", people, twice, round=2), Roller(entered=PARTY_WINS), defending)
    assert len(cache["strike_speed checked"]) == 1, "the one round that passed"
    assert cache["attack cycle"] == {"cycle": 2}, "a 3/2 figure's attack counts repeat every two rounds"


def test_a_stance_for_someone_absent_is_refused():
    with pytest.raises(RulesError) as err:
        run([fighter(), orc()], [], options=StrikeSpeedOptions(stances={"Zed": Stance.FULL_ATTACK}))
    assert "'Zed'" in str(err.value)


# ----------------------------------------------------------------- the shipped example

def test_shipped_example():
    enc = load_example("strike-speed-ogre-and-goblin")
    assert loads_encounter(dumps_toml(enc)) == enc, "the file round-trips"
    assert find_system(enc.system) is STRIKE_SPEED
    t = STRIKE_SPEED.schedule(enc, Roller(entered=enc.rolls))
    order = [(s.actor, s.kind) for s in t]
    assert order[0] == ("Wenna", "cast") and t.for_actor("Wenna")[0].status is Status.RUINED
    assert [a for a, k in order if k == "attack"] == ["Snitch", "Grol", "Sir Tamsin", "Pike"]
    assert speed_of(t, "Grol") == 11 and speed_of(t, "Sir Tamsin") == speed_of(t, "Pike") == 7


def test_find_by_alias():
    assert find_system("Strike Speed") is STRIKE_SPEED and find_system("004") is STRIKE_SPEED


# ----------------------------------------------------------------- exact odds, and a Monte Carlo of schedule

def duel():
    people = (fighter("Tamsin", level=4, length=Length.LONG),
              orc("Grol", level=4, weapons=(Weapon("club", 4, length=Length.MEDIUM),)),
              mage("Wenna", side="party"))
    decl = (Declaration("Tamsin", 1, A, target="Grol"), Declaration("Grol", 1, A, target="Tamsin"),
            Declaration("Wenna", 1, C, spell="sleep", target="Grol"))
    return Encounter("duel", people, decl, hits=(Hit("Wenna", 4, "Grol"),))


def test_odds_are_exact():
    """Tamsin: long 5 + FSB 1 = 6; Grol: medium 4 + 2 (4 HD) = 6; +5 to the winner; ties by level (both 4)."""
    odds = STRIKE_SPEED.odds(duel(), "Tamsin", "Grol")
    win = (icepool.d6 > icepool.d6).probability(True)
    assert odds["a first"] == win and odds["b first"] == win
    assert odds["simultaneous"] == 1 - 2 * win == Fraction(1, 6)
    # Wenna (2, or 7 with initiative) is disrupted by a hit at strike speed 4 unless her side wins
    wenna = STRIKE_SPEED.odds(duel(), "Wenna", "Grol")
    assert wenna["a spell interrupted"] == 1 - win


def test_odds_match_a_monte_carlo_of_schedule():
    enc = duel()
    exact = STRIKE_SPEED.odds(enc, "Wenna", "Grol")
    n = 1500
    sample = matchup([(Fraction(1, n), STRIKE_SPEED.schedule(enc, Roller(seed=i))) for i in range(n)], "Wenna", "Grol")
    for key in ("a first", "simultaneous", "b first", "a spell interrupted"):
        p = float(exact[key])
        assert abs(float(sample[key]) - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12, key


def test_odds_need_two_figures_of_the_encounter():
    with pytest.raises(RulesError):
        STRIKE_SPEED.odds(duel(), "Tamsin", "Tamsin")
    with pytest.raises(RulesError):
        STRIKE_SPEED.odds(duel(), "Tamsin", "Nobody")


# ----------------------------------------------------------------- invariants

NAMES = ["A", "B", "C", "D"]


@st.composite
def encounters(draw):
    n = draw(st.integers(2, 4))
    people = []
    for i in range(n):
        weapons = tuple(
            Weapon(f"w{j}", draw(st.integers(1, 10)), kind=draw(st.sampled_from(list(WeaponKind))),
                   length=draw(st.sampled_from(list(Length))))
            for j in range(draw(st.integers(0, 2))))
        people.append(Combatant(
            NAMES[i], draw(st.sampled_from(["x", "y", "z"])), level=draw(st.integers(0, 12)),
            char_class=draw(st.sampled_from(["fighter", "mage", "monster", "thief"])),
            attacks_per_round=Fraction(draw(st.integers(1, 4)), draw(st.integers(1, 2))),
            weapons=weapons, spells=(Spell("s0", 1, draw(st.integers(1, 9))),) if draw(st.booleans()) else ()))
    declarations = [
        Declaration(draw(st.sampled_from(NAMES[:n])), draw(st.integers(1, 3)), draw(st.sampled_from(list(ActionKind))),
                    target=draw(st.one_of(st.none(), st.sampled_from(NAMES[:n]))),
                    spell=draw(st.sampled_from([None, "s0"])), attacks=draw(st.integers(1, 2)),
                    note=draw(st.sampled_from(["", "scroll", "breath", "glance"])))
        for _ in range(draw(st.integers(0, 6)))]
    hits = tuple(Hit(draw(st.sampled_from(NAMES[:n])), draw(st.integers(1, 20))) for _ in range(draw(st.integers(0, 2))))
    stances = {name: draw(st.sampled_from(list(Stance))) for name in draw(st.lists(st.sampled_from(NAMES[:n])))}
    options = StrikeSpeedOptions(stances=stances, stance_strike=draw(st.booleans()))
    return Encounter("random", tuple(people), tuple(declarations), hits=hits), options


@settings(max_examples=150, deadline=None)
@given(encounters(), st.integers(0, 2**32))
def test_any_encounter_orders_every_action_or_names_the_rule(case, seed):
    """Every declaration is placed in order of battle, inside the round's clock, the same way for the
    same seed, or the round raises a rules error that names the rule."""
    encounter, options = case
    try:
        timeline = STRIKE_SPEED.schedule(encounter, Roller(seed=seed), options)
    except RulesError as error:
        assert error.rule and str(error)
        return
    assert timeline == STRIKE_SPEED.schedule(encounter, Roller(seed=seed), options)
    assert len(timeline) == len(encounter.declarations)
    speeds = []
    for span in timeline:
        assert 1 <= span.start <= span.end <= timeline.clock.ticks, span
        assert span.rule.startswith("004"), span
        assert timeline.clock.period_of(span.end).label == span.period or span.status is Status.RUINED
        if span.status is Status.DONE:
            speeds.append((span.end, int(span.period.split()[-1])))
    assert [s for _, s in sorted(speeds)] == sorted((s for _, s in speeds), reverse=True), "high to low"
