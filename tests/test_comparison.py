"""The comparison model, in the engine (#47): one encounter under every system, the matchup in words, and the
exact odds worked out as jobs; no widget needed, and no UI library imported."""

import subprocess
import sys
from dataclasses import replace
from fractions import Fraction

import pytest

from combatkit import RulesError, load_example
from combatkit.comparison import (
    check_figure,
    default_matchup,
    matchup_sentences,
    odds_sentences,
    run_systems,
    systems_in_seed_order,
)
from combatkit.comparison_jobs import OddsJobs
from combatkit.errors import EncounterFileError
from combatkit.intent import Refinement
from combatkit.odds import Matchup, matchup_odds


def test_the_comparison_and_its_jobs_import_no_ui_library():
    code = ("import sys, combatkit.comparison, combatkit.comparison_jobs; "
            "print(sorted({'ipywidgets', 'altair', 'pandas'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_system_runs_the_encounter_or_says_why_in_the_engine_s_words():
    encounter = load_example("orc-closes-on-longbowman")
    refined = Refinement("segments", "Grishnak", 2, reposition=True)  # Combat II's step, written for 003
    encounter = replace(encounter, refinements=encounter.refinements + (refined,))
    runs = run_systems(encounter, 1)
    assert list(runs) == [s.id for s in systems_in_seed_order()]
    assert {sid for sid, run in runs.items() if run.timeline is None} == {"segments"}
    assert runs["segments"].error.startswith("Grishnak declares reposition, a Phase System rule (000 §2)")
    assert runs["segments"].error.endswith("(rule 003 §III)")  # the rule's message with its citation
    assert all(run.error == "" for run in runs.values() if run.timeline is not None)
    words = matchup_sentences(runs, encounter, "Aldric", "Grishnak")
    assert words[0].endswith("Segment of Action cannot run this encounter as written (see its panel).")
    assert f"Segment of Action cannot run this encounter: {runs['segments'].error}" in words


def test_default_matchup_is_the_first_attack_on_a_foe():
    assert default_matchup(load_example("five-phase-erik-the-bold")) == ("Erik the Bold", "Grishnak")
    assert default_matchup(load_example("short-form-spear-web-and-ready-bow")) == ("Kell", "Snaga")


def test_a_matchup_names_two_of_the_encounter_s_figures():
    encounter = load_example("ct9-spell-vs-sword")
    check_figure(encounter, "Velanna")
    with pytest.raises(RulesError, match="'Nobody' is not in \"A CT 9 spell against a sword\": its combatants are"):
        check_figure(encounter, "Nobody")


def test_words_follow_a_change_of_dice():
    encounter = load_example("segments-fighters-vs-giant-and-orcs")
    runs = run_systems(encounter, 1, by_dice={("segment: A", "d10"): 9, ("segment: X", "d10"): 2})
    words = matchup_sentences({"segments": runs["segments"]}, encounter, "A", "X")
    assert words[0] == "With these dice, X acts first under Segment of Action."
    assert "X's first blow (club -> A) lands in segment 2 (melee round)" in words[1]
    assert "segment: X d10 = 2 (entered)" in words[1]


def test_odds_sentences_give_the_range_across_systems():
    odds = {"one": Matchup(Fraction(1, 4), Fraction(0), Fraction(3, 4), Fraction(0)),
            "two": Matchup(Fraction(1, 2), Fraction(1, 10), Fraction(2, 5), Fraction(0),
                           b_spell_interrupted=Fraction(1, 3))}
    lines = odds_sentences(odds, {"one": "One", "two": "Two"}, "Ann", "Bo")
    assert lines == [
        "Over every roll (exact odds), the chance that Ann acts first runs from 25.0% under One to 50.0% under Two.",
        "Ann and Bo can act at the same moment only under Two (10.0%).",
        "The chance that Bo's spell is interrupted is 33.3% under every system that rates this matchup (Two).",
    ]


def test_finished_jobs_are_odds_refusals_in_the_engine_s_words_or_bugs(monkeypatch):
    import combatkit.comparison_jobs as comparison_jobs

    def broken(system, encounter, a, b, options):
        if system == "segments":
            raise TypeError("unsupported operand")
        return matchup_odds(system, encounter, a, b, options)

    monkeypatch.setattr(comparison_jobs, "matchup_odds", broken)
    comparison_jobs._exact_odds.cache_clear()
    encounter = load_example("orc-closes-on-longbowman")
    told = []
    jobs = OddsJobs(lambda: told.append(1))
    keys = [("phase1", encounter, "Aldric", "Grishnak"), ("phase2", encounter, "Aldric", "Aldric"),
            ("segments", encounter, "Aldric", "Grishnak")]
    odds, refused, bugs = jobs.finished(keys)  # no event loop: each is worked out at once
    assert odds["phase1"] == matchup_odds("phase1", encounter, "Aldric", "Grishnak")
    assert refused == {"phase2": "a matchup needs two different figures, got 'Aldric' twice (rule combatkit odds)"}
    assert list(bugs) == ["segments"] and isinstance(bugs["segments"], TypeError)
    assert jobs.pending == [] and told == [] and set(jobs.seconds) == set(keys)
    comparison_jobs._exact_odds.cache_clear()


def test_an_encounter_file_error_names_its_combatant_by_place():
    assert EncounterFileError("combatants[12].weapons[0].sf", "SF is 0..20, got 30").combatant == 12
    assert EncounterFileError("rolls.initiative: party", "must be a whole number").combatant is None
