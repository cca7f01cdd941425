"""Exact matchup odds: one engine (TimingSystem.odds) for every system, one function (matchup_odds) to call it,
one type (Matchup) read by field."""

import itertools
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from combatkit import ActionKind, Declaration, Hit, Roller, RulesError, find_system, load_example
from combatkit.dice import Dice, Roll
from combatkit.odds import matchup_odds
from combatkit.systems import SYSTEMS, TimingSystem, five_phase, phase2, segments, short_form, strike_speed
from combatkit.systems._exhaust import BlowChance, Matchup, Order, matchup, order


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_s_odds_come_from_the_one_engine(system):
    found = find_system(system)
    assert type(found).odds is TimingSystem.odds  # a system narrows the round it enumerates, never enumerates itself
    name, a, b = {"phase1": ("orc-closes-on-longbowman", "Aldric", "Grishnak"),
                  "phase2": ("phase2-two-weapon-specialist", "Saska", "Ugluk"),
                  "segments": ("segments-fighters-vs-giant-and-orcs", "A", "X"),
                  "five_phase": ("five-phase-erik-the-bold", "Erik the Bold", "Grishnak"),
                  "short_form": ("short-form-spear-web-and-ready-bow", "Kell", "Snaga"),
                  "strike_speed": ("strike-speed-ogre-and-goblin", "Sir Tamsin", "Grol")}[system]
    encounter = load_example(name)
    chances = matchup_odds(system, encounter, a, b)
    assert isinstance(chances, Matchup) and chances == found.odds(encounter, a, b)
    assert sum(chances.chance(o) for o in Order) == 1


@pytest.mark.parametrize("system, module", [("phase2", phase2), ("segments", segments), ("five_phase", five_phase),
                                            ("short_form", short_form), ("strike_speed", strike_speed)])
def test_a_system_module_s_odds_is_its_systems(system, module):
    assert module.odds == find_system(system).odds  # what the notebooks import


def test_a_roller_that_overrides_roll_answers_every_roll_a_system_makes():
    """Systems ask for totals through roll_total (with a classify only exact odds use); a Roller
    subclass that overrides roll alone (a dashboard's TableRoller) still answers them."""
    class Ones(Roller):
        def roll(self, dice, purpose):
            spec = Dice.parse(dice)
            result = Roll(spec, purpose, spec.minimum, (1,) * spec.count, entered=True)
            self.log.append(result)
            return result

    timeline = find_system("short_form").schedule(load_example("short-form-spear-web-and-ready-bow"), Ones())
    assert {r.purpose for r in timeline.rolls} >= {"surprise: party", "surprise: orcs"}  # classified d12s
    assert {r.total for r in timeline.rolls} == {1}


def brute_force(encounter, a, b, dice: dict[str, int]) -> dict[Order, Fraction]:
    """Who acts first over every combination of the named rolls, entered one by one as a referee would."""
    phase1 = find_system("phase1")
    counts = dict.fromkeys(Order, 0)
    combos = list(itertools.product(*(range(1, sides + 1) for sides in dice.values())))
    for faces in combos:
        timeline = phase1.schedule(encounter, Roller(entered=dict(zip(dice, faces, strict=True))))
        counts[order(timeline, a, b)] += 1
    return {key: Fraction(n, len(combos)) for key, n in counts.items()}


def test_phase1_odds_equal_a_count_over_every_pair_of_d10s():
    """000 §1 A: a d10 per side decides the tracks."""
    encounter = load_example("fighter-and-mage-vs-orc-archer")
    chances = matchup_odds("phase1", encounter, "Mira", "Ugluk")
    expected = brute_force(encounter, "Mira", "Ugluk", {"initiative: party": 10, "initiative: orcs": 10})
    assert {o: chances.chance(o) for o in expected} == expected
    # Mira's web (CT 2) ties Ugluk's arrow only when she is a loser and he a winner: 6 - 2 > orcs, 28 of 100
    assert chances.simultaneous == Fraction(7, 25) and chances.a_spell_interrupted == 0


def test_phase1_odds_branch_on_the_con_check_of_a_caster_hit_before_casting():
    """000 §2 A: a caster hit before the casting phase makes a CON check (d20) or the spell slips a phase."""
    encounter = load_example("fighter-and-mage-vs-orc-archer")
    placed = find_system("phase1").placed(encounter)
    later = replace(placed, hits=(Hit("Mira", 2, "a thrown rock"),), declarations=tuple(
        replace(d, phase=2) if d.actor == "Mira" and d.kind is ActionKind.CAST else d
        for d in placed.declarations if not (d.actor == "Mira" and d.kind is ActionKind.MISC)))
    assert "CON check: Mira" in [r.purpose for r in find_system("phase1").schedule(later, Roller(seed=1)).rolls]
    chances = matchup_odds("phase1", later, "Mira", "Ugluk")
    expected = brute_force(later, "Mira", "Ugluk",
                           {"initiative: party": 10, "initiative: orcs": 10, "CON check: Mira": 20})
    assert {o: chances.chance(o) for o in expected} == expected
    assert chances.b_first > 0  # a failed check pushes the web to phase 3, after Ugluk's arrow


def test_phase1_odds_match_a_monte_carlo_of_the_schedule():
    encounter = load_example("segments-fighters-vs-giant-and-orcs")  # three sides: 1000 initiative outcomes
    chances = matchup_odds("phase1", encounter, "A", "X")
    phase1, rng, n = find_system("phase1"), random.Random(5), 3000
    counts = dict.fromkeys(Order, 0)
    for _ in range(n):
        counts[order(phase1.schedule(encounter, Roller(rng=rng)), "A", "X")] += 1
    for key, count in counts.items():
        p = float(chances.chance(key))
        assert abs(count / n - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-9, key
    assert sum(chances.chance(o) for o in counts) == 1


def test_bad_matchups_name_the_rule_and_the_value():
    encounter = load_example("orc-closes-on-longbowman")
    with pytest.raises(RulesError, match=r"'Gandalf' is not in the encounter; combatants: \['Aldric', 'Grishnak'\]"):
        matchup_odds("phase1", encounter, "Aldric", "Gandalf")
    with pytest.raises(RulesError, match="a matchup needs two different figures, got 'Aldric' twice"):
        matchup_odds("phase1", encounter, "Aldric", "Aldric")
    with pytest.raises(RulesError, match="no timing system called 'chess'"):
        matchup_odds("chess", encounter, "Aldric", "Grishnak")
    late = replace(encounter, declarations=(Declaration("Aldric", 4, ActionKind.ATTACK, target="Grishnak"),))
    with pytest.raises(RulesError, match="phase 4 only completes 1-round spells"):
        matchup_odds("phase1", late, "Aldric", "Grishnak")


def test_too_many_outcomes_to_enumerate_are_refused_not_run_for_ever(monkeypatch):
    encounter = load_example("segments-fighters-vs-giant-and-orcs")  # three sides: 1000 initiative outcomes
    with pytest.raises(RulesError, match=r"^Combat II: Phase System I: the matchup A vs X needs more than limit=999 "
                                         r"runs of the round to enumerate; give a larger limit"):
        matchup_odds("phase1", encounter, "A", "X", limit=999)
    limit = 1 + 10 + 100 + 1000  # each die asked for is one run more
    assert matchup_odds("phase1", encounter, "A", "X", limit=limit).simultaneous == Fraction(17, 50)
    monkeypatch.setattr(find_system("phase1"), "odds_limit", limit - 1)  # the system's own default
    with pytest.raises(RulesError, match=f"limit={limit - 1} runs"):
        find_system("phase1").odds(encounter, "A", "X")


def test_the_faces_kept_between_runs_stay_bounded():
    """Exact odds keep a roll's list of faces for the next run only up to KEPT_FACES ways and 64 lists, so a
    kernel that is asked for many big dice does not grow without end."""
    from combatkit.systems import _exhaust

    big = Dice(3, 30)  # 27,000 ways: listed, not kept
    before = _exhaust._kept_faces.cache_info().currsize
    assert _exhaust._faces(big) == _exhaust._faces(big)
    assert len(_exhaust._faces(big)) == 27_000
    assert _exhaust._kept_faces.cache_info().currsize == before
    for sides in range(2, 80):  # more small dice than the cache holds
        _exhaust._faces(Dice(2, sides))
    assert _exhaust._kept_faces.cache_info().currsize == _exhaust._kept_faces.cache_info().maxsize == 64


def test_a_matchup_reads_by_field_and_as_the_mapping_of_its_keys():
    """#47: the odds are a type, read by field; the mapping of the words it was always keyed by is made from the
    fields (``"a blow N @ T"`` built, never parsed back), in the order the keys always came."""
    encounter = load_example("fighter-and-mage-vs-orc-archer")
    timelines = [find_system("phase1").schedule(encounter, Roller(seed=seed)) for seed in range(40)]
    chances = matchup([(Fraction(1, 40), t) for t in timelines], "Mira", "Ugluk")
    assert all(chances.chance(o) == chances[o.value] for o in Order)
    assert chances.a_spell_interrupted == chances["a spell interrupted"] and chances.b_spell_interrupted is None
    assert "b spell interrupted" not in chances
    blows = [k for k in chances if " blow " in k]
    assert blows == [blow.key for blow in chances.blows] and blows
    assert list(chances.blows) == sorted(chances.blows, key=lambda blow: (blow.who, blow.number, blow.tick))
    assert all(chances[blow.key] == blow.chance for blow in chances.blows)
    assert dict(chances) == {k: chances[k] for k in chances} and len(chances) == len(dict(chances))
    assert BlowChance("b", 2, 14, Fraction(1, 3)).key == "b blow 2 @ 14"
