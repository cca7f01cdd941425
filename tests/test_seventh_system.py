"""A seventh timing system touches only combatkit/systems/ (#11): a toy system defined here, in the
test, subclasses TimingSystem, registers, and plays whole fights, Monte Carlo runs, the default
policy and exact odds, and the widgets show it (its timeline viewer with its options, a panel of
the comparison, the encounter editor in its terms), with no code outside the systems package
naming it."""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import pytest

from combatkit import ActionKind, IllegalActionError, find_system, load_example, loads_encounter
from combatkit.battle import figures_from
from combatkit.dice import Roller, UnknownRollError
from combatkit.encounter import Encounter
from combatkit.fight import run_fight
from combatkit.model import ONE_ROUND, Declaration, Maneuver
from combatkit.odds import matchup_odds
from combatkit.policy import declare
from combatkit.resolution import EventKind
from combatkit.simulation import simulate
from combatkit.systems import SYSTEMS, Switch, TimingSystem, register
from combatkit.systems.base import FightRound
from combatkit.systems.rules import GENERIC_RULES, BlowTerms
from combatkit.timeline import Clock, Period, Span, Status, Timeline
from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.system_timeline import SystemTimeline

CLOCK = Clock("tick", 10, (Period("step 1", 1, 5), Period("step 2", 6, 10)))


@dataclass(frozen=True)
class ToyOptions:
    """The toy's options."""

    die: str = "d6"
    """Each side's initiative die (toy §1)."""
    losers_last: bool = False
    """Optional rule (toy §2): the side that lost initiative acts at the end of each step (tick 5 or 10)."""


class Toy(TimingSystem):
    """Toy rules. §1: each side rolls a die, high acts first, a tie together. §2: a figure's step 1
    lands on tick 2 (first) or 3, its step 2 on 7 or 8 (the optional rule ``losers_last``: the loser's
    on 5 and 10); a spell goes off its CT later, ruined by a hit while it is cast; a move noted
    "retreat" backs away. Every other rule is the generic one."""

    id = "toy"
    aliases = ("seventh system",)
    title = "Toy: two steps a round"
    source = "toy §1-2"
    clock = CLOCK
    options_class = ToyOptions
    declaration_phases = ("step 1", "step 2")
    declaration_fields = frozenset({"feet"})
    roll_keys = ("initiative: <side>",)

    def note_suggestions(self, kind: ActionKind, maneuver: Maneuver | None = None) -> list[str]:
        """Toy §2: a move noted "retreat" backs away."""
        return ["retreat"] if kind is ActionKind.MOVE else []

    def _schedule(self, encounter: Encounter, roller: Roller, options: ToyOptions) -> Timeline:
        rolls = {side: roller.roll(options.die, f"initiative: {side}").total for side in encounter.sides}
        best = max(rolls.values())
        spans = []
        for d in encounter.declarations:
            if d.phase not in (1, 2):
                raise IllegalActionError("toy §2", f"{d.actor} declares step {d.phase}: a round has steps 1 and 2")
            c = encounter.combatant(d.actor)
            first = rolls[c.side] == best
            start = 5 * (d.phase - 1) + (2 if first else 5 if options.losers_last else 3)
            track, period = ("winner" if first else "loser"), f"step {d.phase}"
            if d.kind is ActionKind.CAST:
                spell = c.spell(d.spell)
                end = min(10, start + (10 if spell.casting_time == ONE_ROUND else int(spell.casting_time)))
                ruined = any(h.target == c.name and start <= h.tick < end for h in encounter.hits)
                spans.append(Span(c.name, c.side, "cast", f"casting {spell.name}", start, end, period, "toy §2",
                                  "A spell goes off its CT after the step.", track, d.target,
                                  Status.RUINED if ruined else Status.DONE))
            elif d.kind is ActionKind.MOVE:
                feet = d.feet if d.feet is not None else c.movement * 10
                verb = "retreats" if d.note.strip().lower() == "retreat" else "moves"
                spans.append(Span(c.name, c.side, "move", f"{verb} {feet}'", start, start, period, "toy §2",
                                  "A move takes its step.", track, d.target))
            else:
                weapons = " + ".join(d.weapons or (c.weapons[0].name,))
                spans.append(Span(c.name, c.side, d.kind.value, f"{weapons} -> {d.target}", start, start, period,
                                  "toy §2", "A blow lands on its step.", track, d.target))
        notes = ("Initiative: " + ", ".join(f"{side} {roll}" for side, roll in rolls.items()) + " (toy §1).",)
        return Timeline(self.id, CLOCK, tuple(sorted(spans, key=lambda s: (s.end, s.start, s.actor))), notes,
                        tuple(roller.log))


@pytest.fixture(autouse=True)
def toy():
    system = register(Toy())
    yield system
    SYSTEMS.pop("toy", None)


def _party(encounter: Encounter | None = None) -> Encounter:
    """Fighter and mage vs. orc archer, written for the toy: no intents, no entered rolls."""
    base = encounter or load_example("fighter-and-mage-vs-orc-archer")
    return replace(base, system="toy", declarations=(), intents=(), refinements=(), rolls={}, hits=())


def test_it_is_found_like_any_other(toy):
    assert find_system("toy") is toy and find_system("Seventh System") is toy
    assert toy.rules is GENERIC_RULES  # what a system that says nothing more gets


def test_a_fight_runs_to_an_end_and_is_the_same_from_the_same_seed():
    encounter = _party()
    for seed in range(6):
        fight = run_fight(encounter, "toy", seed=seed)
        assert fight.system == "toy" and fight.round_count >= 1
        assert fight.winner in ("party", "orcs", None)
        assert fight.row() == run_fight(encounter, "toy", seed=seed).row()
        assert fight.row() == run_fight(encounter, "toy", seed=seed, explain=False).row()
        assert any(e.rule == "toy §2" for e in fight.events)
        falls = [e for e in fight.events if e.kind is EventKind.FALL and e.outcome == "dead"]
        assert all(e.rule == GENERIC_RULES.falls for e in falls)
    assert {run_fight(encounter, "toy", seed=s).winner for s in range(6)} - {None}


def test_its_options_need_not_be_hashable():
    """A fight looks a round's plan up by its options too; a system whose options cannot be a key (a plain,
    unfrozen dataclass) has each plan worked out, and plays the same fights."""

    @dataclass
    class LooseOptions:
        die: str = "d6"
        losers_last: bool = False

    class Loose(Toy):
        id = "toy-loose"
        aliases = ()
        options_class = LooseOptions

    loose = register(Loose())
    try:
        encounter = _party()
        for seed in range(4):
            fight = run_fight(encounter, "toy-loose", seed=seed, system_options=LooseOptions())
            assert fight.row() | {"system": "toy"} == run_fight(encounter, "toy", seed=seed).row()
    finally:
        SYSTEMS.pop(loose.id, None)


def test_the_encounters_own_rolls_are_its_dice_and_a_misspelled_key_is_refused():
    encounter = replace(_party(), rolls={"initiative: party": 6, "initiative: orcs": 1})
    fight = run_fight(encounter, seed=0)
    assert fight.system == "toy"
    assert fight.rounds[0].timeline.notes[0] == "Initiative: party 6, orcs 1 (toy §1)."
    with pytest.raises(UnknownRollError, match="initative: orcs"):
        run_fight(replace(encounter, rolls={"initative: orcs": 1}), seed=0)


def test_simulate_plays_it():
    encounter = _party()
    run = simulate(encounter, "toy", n=40, seed=1)
    summary = run.summary()
    assert sum(side["count"] for side in summary["wins"].values()) <= 40
    assert len(run.fights) == 40 and {row["system"] for row in run.fights} == {"toy"}
    assert simulate(encounter, "toy", n=40, seed=1).fights == run.fights


def test_the_default_policy_declares_through_the_generic_hook():
    figures = figures_from(_party(), 30)
    declarations = declare("toy", figures)
    by_actor: dict[str, list[Declaration]] = {}
    for d in declarations:
        by_actor.setdefault(d.actor, []).append(d)
    assert {d.phase for d in declarations} <= {1, 2}
    brienne = by_actor["Brienne"]  # 30' from the orc: a move, then the blow (move_then_act)
    assert [d.kind for d in brienne] == [ActionKind.MOVE, ActionKind.ATTACK] and brienne[0].feet == 25
    assert [d.kind for d in by_actor["Mira"]] == [ActionKind.CAST]
    assert [d.kind for d in by_actor["Ugluk"]] == [ActionKind.ATTACK]  # the archer shoots


def _duel(**changes) -> Encounter:
    """Brienne and Ugluk strike at each other in step 1, written for the toy."""
    party = _party()
    return replace(party, combatants=tuple(c for c in party.combatants if c.name != "Mira"),
                   distances=tuple(d for d in party.distances if "Mira" not in d[:2]), declarations=(
        Declaration("Brienne", 1, ActionKind.ATTACK, target="Ugluk"),
        Declaration("Ugluk", 1, ActionKind.ATTACK, target="Brienne", weapons=("short sword",)),
    ), **changes)


def test_exact_odds_of_a_matchup():
    duel = _duel()
    chances = matchup_odds("toy", duel, "Brienne", "Ugluk")
    # toy §1: a d6 a side, high first: a tie (1/6) is simultaneous, either side wins 5/12
    assert (chances["a first"], chances["simultaneous"], chances["b first"]) == (
        Fraction(5, 12), Fraction(1, 6), Fraction(5, 12))
    assert chances["a blow 1 @ 2"] == Fraction(7, 12) and chances["a blow 1 @ 3"] == Fraction(5, 12)


# ----------------------------------------------------------------- the widgets show it, unchanged


def _drawn(chart) -> list[tuple[str, str, int]]:
    return sorted((r["actor"], r["action"], r["end"]) for r in chart.spec["datasets"]["actions"])


def _spans(timeline: Timeline) -> list[tuple[str, str, int]]:
    return sorted((s.actor, s.action, s.end) for s in timeline.spans)


def test_its_timeline_viewer_draws_its_round_with_a_checkbox_per_yes_no_option(toy):
    duel = _duel(rolls={"initiative: party": 5, "initiative: orcs": 2})
    viewer = SystemTimeline("toy", encounter=duel)
    assert viewer.error == "" and viewer.message.layout.display == "none"
    assert _spans(viewer.timeline) == _spans(toy.schedule(duel)) == [
        ("Brienne", "long sword -> Ugluk", 2), ("Ugluk", "short sword -> Brienne", 3)]
    assert _drawn(viewer.chart) == _spans(viewer.timeline)
    assert viewer.chart.spec["layer"][0]["encoding"]["x"]["axis"]["title"] == "tick"
    assert "Toy: two steps a round" in viewer.heading.value
    assert "Initiative: party 5, orcs 2 (toy §1)." in viewer.why.value

    switch = toy.switches()
    assert switch == (Switch("losers_last", False, "Optional rule (toy §2): the side that lost initiative acts at the "
                                                   "end of each step (tick 5 or 10)."),)
    assert [(name, box.value, box.tooltip) for name, box in viewer.options.items()] == [
        (s.name, s.default, s.doc) for s in switch]
    viewer.options["losers_last"].value = True
    assert viewer.error == "" and viewer.chosen_options == ToyOptions(losers_last=True)
    assert _drawn(viewer.chart) == [("Brienne", "long sword -> Ugluk", 2), ("Ugluk", "short sword -> Brienne", 5)]
    assert loads_encounter(viewer.toml).options == {"toy": {"losers_last": True}}


def test_its_timeline_viewer_edits_intents_and_its_own_refinements(toy):
    viewer = SystemTimeline("toy", encounter=_duel(rolls={"initiative: party": 5, "initiative: orcs": 2}))
    edit = viewer.editor
    assert [label for label, _ in edit.rows[0].placed.options] == ["as it places it", "step 1", "step 2"]
    assert "<i>Toy: two steps a round</i>'s own terms for it (toy §1-2)" in edit.intent_heading.value
    edit.pick("Brienne")
    first = edit.rows[0]
    first.do.value = "move"  # a move first, then the blow
    first.target.value = dict(first.target.options)["Ugluk"]
    first.feet.value = "10"
    second = edit.rows[1]
    second.do.value = "attack"
    second.target.value = dict(second.target.options)["Ugluk"]
    assert list(first.system_note.options) == toy.note_suggestions(ActionKind.MOVE) == ["retreat"]
    assert second.system_note.options == ()
    assert not [c for c in first.fields.values() if c.layout.display is None]  # it reads no refinement field
    first.placed.value, second.placed.value = "1", "2"
    first.system_note.value = "retreat"
    assert viewer.error == ""
    assert [(d.phase, d.kind, d.target, d.feet, d.note) for d in viewer.timeline.plan.declarations
            if d.actor == "Brienne"] == [(1, ActionKind.MOVE, "Ugluk", 10, "retreat"),
                                         (2, ActionKind.ATTACK, "Ugluk", None, "")]
    assert _drawn(viewer.chart) == [("Brienne", "long sword -> Ugluk", 7), ("Brienne", "retreats 10'", 2),
                                    ("Ugluk", "short sword -> Brienne", 3)]


def test_the_comparison_has_a_panel_for_it_with_its_odds_and_edits_in_its_terms(toy):
    duel = _duel(rolls={"initiative: party": 5, "initiative: orcs": 2})
    comparison = SystemComparison(encounter=duel)
    assert list(comparison.panels)[-1] == "toy"  # seed order: its source, "toy §1-2", sorts last
    assert "ck-panel-toy" in comparison.panels["toy"]._dom_classes
    assert _drawn(comparison.panels["toy"].chart) == _spans(toy.schedule(duel))
    assert comparison.odds["toy"] == matchup_odds("toy", duel, "Brienne", "Ugluk")
    assert comparison.odds["toy"]["simultaneous"] == Fraction(1, 6)
    assert "ck-odds-toy" in comparison.odds_table.value
    assert any(s.startswith("Under Toy: two steps a round, counting in ticks: Brienne acts first.")
               for s in comparison.sentences)

    edit = comparison.editor
    assert edit.system is toy and edit.written_for.value == "toy"
    assert ("Toy: two steps a round", "toy") in edit.written_for.options
    assert [label for label, _ in edit.rows[0].placed.options] == ["as it places it", "step 1", "step 2"]
    edit.written_for.value = "phase1"  # refined in another system's terms, and back
    assert [label for label, _ in edit.rows[0].placed.options] == ["as it places it", "phase 1", "phase 2",
                                                                   "phase 3"]
    edit.written_for.value = "toy"
    assert comparison.encounter.system == "toy" and "Written for Toy: two steps a round" in comparison.heading.value


class StrictToy(Toy):
    """The toy with its own rules and hooks: surprised figures sit round 1 out, casters may not
    cast, and every fight round is recorded."""

    id = "strict_toy"
    aliases = ()
    rules = replace(GENERIC_RULES, seed="toy", surprised_sits_out="toy §3: the surprised do nothing")
    seen: list[FightRound] = []

    def castable(self, spell, *, surprised, ready_first):
        return False

    def round_options(self, options, fight):
        self.seen.append(fight)
        return super().round_options(options, fight)


def test_its_rules_and_hooks_are_what_the_fight_and_the_policy_follow():
    strict = register(StrictToy())
    try:
        encounter = _party()
        surprised = replace(encounter, combatants=tuple(replace(c, surprised=c.side == "orcs")
                                                        for c in encounter.combatants))
        fight = run_fight(surprised, "strict_toy", seed=2)
        first = fight.rounds[0]
        assert [e.rule for e in first.events if e.kind is EventKind.SURPRISE] == ["toy §3: the surprised do nothing"]
        assert not [d for d in first.declarations if d.actor == "Ugluk"]
        assert fight.row()["spells_attempted"] == 0  # castable() says no
        assert [r.number for r in strict.seen] == list(range(1, fight.round_count + 1))
        assert strict.seen[0].flagged and strict.seen[0].names == ("Brienne", "Mira", "Ugluk")
    finally:
        SYSTEMS.pop("strict_toy", None)


class HeavyToy(Toy):
    """The toy with a term of its own on every declared blow (toy §4: +100 damage), as 001 puts its own."""

    id = "heavy_toy"
    aliases = ()

    def blow_terms(self, attacker, span, declaration, moves, set_against_charge):
        return BlowTerms(damage=100)


def test_its_own_terms_on_a_blow_are_what_the_blow_deals():
    """A system that puts terms of its own on a declared blow (TimingSystem.blow_terms) has them asked at every
    blow, explained or not; one that does not deals its weapons' damage."""
    heavy = register(HeavyToy())
    try:
        encounter = _party()
        for explain in (True, False):
            struck = [f for seed in range(6) for f in run_fight(encounter, "heavy_toy", seed=seed,
                                                                explain=explain).figures if f.hits]
            assert struck and all(f.damage_dealt >= 100 * f.hits for f in struck)
        plain = [f for seed in range(6) for f in run_fight(encounter, "toy", seed=seed, explain=False).figures
                 if f.hits]
        assert plain and all(f.damage_dealt < 100 * f.hits for f in plain)
    finally:
        SYSTEMS.pop(heavy.id, None)


def test_no_code_outside_the_systems_package_names_a_system():
    """The acceptance test of #11: fight, policy and resolution hold no system id or seed number
    as a string to compare against (docstrings may name them)."""
    forbidden = set(SYSTEMS) | {"000", "001", "002", "003", "004"}
    root = Path(__file__).parents[1] / "combatkit"
    for name in ("fight.py", "policy.py", "resolution/__init__.py", "resolution/events.py", "resolution/state.py",
                 "resolution/walk.py", "resolution/blows.py", "resolution/spells.py", "resolution/moves.py"):
        source = (root / name).read_text()
        literals = {ast.literal_eval(tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                    if tok.type == tokenize.STRING and not tok.string.startswith(('"""', "f", 'r"""'))}
        assert not literals & forbidden, (name, literals & forbidden)
