"""The table (#49): a fight stepped round by round is the fight :func:`run_fight` plays, with the same dice typed at
the table or rolled from the same seed; the DM's hand, undo, and a fight saved and replayed to the same state."""

import tomllib

import pytest
import tomli_w

from combatkit import loads_encounter
from combatkit.battle import FigureStatus
from combatkit.dice import EnteredRollError, UnknownRollError
from combatkit.encounter_files import example_encounters, load_example
from combatkit.errors import RulesError
from combatkit.fight import run_fight
from combatkit.intent import Intent, IntentKind
from combatkit.resolution import EventKind
from combatkit.systems import SYSTEMS
from combatkit.table import (FightFileError, Overrule, OverruleKind, RollNeededError, TableFight, loads_fight)

EXAMPLES = sorted(example_encounters())


def _to_the_end(table: TableFight, rounds: int = 10) -> TableFight:
    while not table.over and table.round < rounds:
        table.play()
    return table


def _happened(table: TableFight) -> list[tuple]:
    """What each event did, without its words (a die typed at the table is told as typed)."""
    return [(e.round, e.actor, e.kind, e.target, e.outcome, e.amount, e.hit_points) for e in table.events()]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("example", EXAMPLES)
def test_a_fight_stepped_at_the_table_is_the_fight_run_fight_plays(example, system):
    encounter = load_example(example)
    options = SYSTEMS[system].encounter_options(encounter)
    fight = run_fight(encounter, system, seed=11, system_options=options)
    table = _to_the_end(TableFight(encounter, system, seed=11))
    assert table.fight() == fight
    fast = run_fight(encounter, system, seed=11, system_options=options, explain=False)
    assert (fast.winner, fast.round_count, fast.figures) == (fight.winner, fight.round_count, fight.figures)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("example", EXAMPLES)
def test_the_same_dice_typed_at_the_table_give_the_same_fight(example, system):
    encounter = load_example(example)
    seeded = TableFight(encounter, system, seed=5)
    table = TableFight(encounter, system)  # the table rolls everything
    while not seeded.over and seeded.round < 6:
        seeded.play()
        table.play(rolls={d.key: d.value for d in seeded.dice if not d.typed})
        assert all(d.typed for d in table.dice)
    assert table.figures == seeded.figures
    assert _happened(table) == _happened(seeded)


def test_the_table_rolls_everything_names_the_first_roll_missing_and_keeps_the_fight_as_it_was():
    table = TableFight(load_example("orc-closes-on-longbowman"))
    preview = table.preview()
    assert preview.needed is not None and preview.needed.purpose == "attack roll: Aldric [round 1, tick 4]"
    assert preview.dice[0].typed and preview.dice[0].key == "initiative: archers [round 1]"  # the file's own roll
    with pytest.raises(RollNeededError, match=r"round 1 needs 'attack roll: Aldric \[round 1, tick 4\]' \(d20\)"):
        table.play()
    assert table.round == 0 and table.steps == []
    shots = {"attack roll: Aldric [round 1, #1]": 2, "attack roll: Aldric [round 1, #2]": 3}  # two arrows a round
    miss = table.preview(rolls=shots)
    assert [d.key for d in miss.dice if d.key.startswith("damage")] == []  # a miss asks for no damage
    assert miss.needed is not None and miss.needed.key == "attack roll: Grishnak [round 1, #1]"
    hit = table.preview(rolls={**shots, "attack roll: Aldric [round 1, #2]": 20})
    assert hit.needed is not None and hit.needed.key == "damage: Aldric [round 1, #1]"
    assert hit.provisional(hit.dice[-1]) == (hit.dice[-1] != hit.needed)
    played = table.play(rolls={**shots, "attack roll: Aldric [round 1, #2]": 20, "damage: Aldric [round 1, #1]": 6,
                               "attack roll: Grishnak [round 1, #1]": 1})
    assert played.round == 1
    assert {d.key: d.value for d in table.dice}["damage: Aldric [round 1, #1]"] == 6


def test_a_typed_number_its_dice_cannot_roll_or_a_key_no_roll_has_is_refused_by_name():
    table = TableFight(load_example("orc-closes-on-longbowman"), seed=4)
    with pytest.raises(EnteredRollError, match="d20 rolls 1..20, so 21 cannot have been rolled"):
        table.play(rolls={"attack roll: Aldric [round 1, #1]": 21})
    with pytest.raises(UnknownRollError, match="initative: orcs"):
        table.play(rolls={"initative: orcs": 3})
    assert table.round == 0
    table.play(rolls={"initiative: orcs": 9})
    assert {d.key: (d.value, d.typed) for d in table.dice}["initiative: orcs [round 1]"] == (9, True)


def test_three_attacks_in_two_rounds_give_one_then_two():
    encounter = loads_encounter("""
title = "3/2 attacks a round across rounds"
system = "phase1"
[[combatants]]
name = "Sir Kay"
side = "knights"
hp = 200
thac0 = 20
attacks_per_round = "3/2"
weapons = ["long sword"]
[[combatants]]
name = "Ogre"
side = "giants"
hp = 300
ac = 10
weapons = ["club"]
[[distances]]
a = "Sir Kay"
b = "Ogre"
feet = 5
""")
    table = TableFight(encounter, seed=2)
    counts = []
    for _ in range(4):
        result = table.play()
        counts.append(sum(1 for e in result.events if e.kind is EventKind.ATTACK and e.actor == "Sir Kay"))
    assert counts == [1, 2, 1, 2]  # 000 §2 C: 3/2 attacks are 1 in odd rounds, 2 in even


def test_the_segment_of_action_rolls_surprise_in_the_first_round_only():
    table = TableFight(load_example("segments-fighters-vs-giant-and-orcs"), seed=3)
    table.play()
    assert [d.key for d in table.dice if d.key.startswith("surprise")] == [
        f"surprise: {name} [round 1]" for name in "ABCXYZ"]  # 003 §VI: d6 per character, on meeting
    table.play()
    assert table.round == 2 and not [d for d in table.dice if d.key.startswith("surprise")]


def test_the_dm_s_hand_damages_heals_rules_and_brings_a_late_arrival():
    encounter = load_example("goblin-ambush")
    table = TableFight(encounter, seed=1)
    table.play()
    goblin = next(f for f in table.figures if f.name.startswith("Goblin") and f.status is FigureStatus.ACTIVE)
    table.overrule(Overrule(OverruleKind.DAMAGE, goblin.name, amount=goblin.hit_points, note="a falling rock"))
    assert table.figure(goblin.name).status is FigureStatus.DEAD  # 0 hit points: dead (dead_at 0)
    fighter = table.figures[0]
    table.overrule(Overrule(OverruleKind.CONDITION, fighter.name, condition="prone", rounds=1))
    assert [a.condition.id for a in table.figure(fighter.name).conditions] == ["prone"]
    table.overrule(Overrule(OverruleKind.END_CONDITION, fighter.name, condition="prone"))
    assert table.figure(fighter.name).conditions == ()
    wolf = loads_encounter('title = "x"\n[[combatants]]\nmonster = "wolf"\nside = "goblins"\n').combatants[0]
    table.overrule(Overrule(OverruleKind.JOIN, wolf.name, combatant=wolf))
    assert table.figure(wolf.name).hit_points == wolf.hit_points
    table.overrule(Overrule(OverruleKind.STATUS, wolf.name, status="surrendered"))
    assert table.figure(wolf.name).status is FigureStatus.SURRENDERED
    rulings = [e for e in table.events() if e.rule == "the DM's ruling"]
    assert [e.outcome for e in rulings] == ["damage", "condition", "end condition", "join", "status"]
    assert "a falling rock" in rulings[0].why
    table.play()
    again = loads_fight(table.dumps())
    assert again.figures == table.figures and again.rounds == table.rounds and again.events() == table.events()


def test_a_ruling_the_rules_refuse_is_refused_by_name_and_changes_nothing():
    table = TableFight(load_example("goblin-ambush"), seed=1)
    before = table.figures
    with pytest.raises(RulesError, match="no figure called 'Goblin 9'"):
        table.overrule(Overrule(OverruleKind.DAMAGE, "Goblin 9", amount=3))
    with pytest.raises(RulesError, match="1 or more, got -2"):
        table.overrule(Overrule(OverruleKind.DAMAGE, "Goblin 1", amount=-2))
    with pytest.raises(RulesError, match="no condition 'sleepy'"):
        table.overrule(Overrule(OverruleKind.CONDITION, "Goblin 1", condition="sleepy"))
    assert table.figures == before and table.steps == []


def test_undo_takes_back_the_last_round_or_ruling_and_a_round_redone_with_other_dice():
    table = TableFight(load_example("orc-closes-on-longbowman"), seed=4)
    table.play()
    after_one = table.figures
    table.undo()
    assert table.round == 0 and table.figures == TableFight(load_example("orc-closes-on-longbowman"), seed=4).figures
    table.play(rolls={"attack roll: Aldric [round 1, #1]": 1})  # the same round, another die: a miss
    assert table.figures != after_one
    with pytest.raises(RulesError, match="nothing to undo"):
        TableFight(load_example("orc-closes-on-longbowman")).undo()


def test_later_rounds_propose_the_policy_s_intents_and_the_dm_s_own_are_played():
    table = TableFight(load_example("goblin-ambush"), seed=2)
    assert table.intents()[: len(table.encounter.intents)] == table.encounter.intents
    table.play()
    proposed = table.intents()
    assert proposed and {i.actor for i in proposed} <= {f.name for f in table.figures}
    actor = proposed[0].actor
    side = table.figure(actor).side
    foe = next(f.name for f in table.figures if f.side != side and f.status is FigureStatus.ACTIVE)
    mine = (Intent(actor=actor, kind=IntentKind.MOVE, target=foe, feet=10, away=True),)
    result = table.play(mine)
    assert any(d.actor == actor for d in result.declarations)
    again = loads_fight(table.dumps())
    assert again.steps[1].intents == mine and again.figures == table.figures


@pytest.mark.parametrize("text, where", [
    ("combatkit_fight = 2\n", "combatkit_fight"),
    ("not toml [", "fight file"),
    ('combatkit_fight = 1\nsystem = "phase1"\nseed = "x"\n', "seed"),
])
def test_a_fight_file_that_is_not_one_is_refused_by_field(text, where):
    with pytest.raises(FightFileError) as error:
        loads_fight(text)
    assert error.value.field == where


def test_a_fight_file_edited_into_a_roll_no_die_makes_is_refused_naming_the_step_and_round():
    table = TableFight(load_example("orc-closes-on-longbowman"), seed=4)
    table.play(rolls={"attack roll: Aldric [round 1, #1]": 20})
    text = table.dumps().replace('"attack roll: Aldric [round 1, #1]" = 20', '"attack roll: Aldric [round 1, #1]" = 40')
    with pytest.raises(FightFileError, match=r"steps\[0\] \(after round 0\)\.rolls: .*40 cannot have been rolled"):
        loads_fight(text)
    bad = table.dumps().replace('do = "round"', 'do = "fireball"')
    with pytest.raises(FightFileError, match=r"steps\[0\] \(after round 0\)\.do: is round or one of"):
        loads_fight(bad)


def test_the_fight_is_over_and_says_so():
    table = _to_the_end(TableFight(load_example("orc-closes-on-longbowman"), seed=4))
    assert table.over
    with pytest.raises(RulesError, match="the fight is over after round 1: side 'archers' wins"):
        table.play()


def test_the_roster_shows_the_players_their_party_and_only_the_foes_the_dm_revealed():
    table = TableFight(load_example("goblin-ambush"), seed=1)
    table.play()
    full = {row.name: row for row in table.roster()}
    assert set(full) == {f.name for f in table.figures}
    assert full["Mira"].spells_left == ("magic missile",) and full["Mira"].hit_points is not None
    asleep = [row for row in full.values() if row.status == "asleep"]
    assert asleep and all(any(what == "sleep" for what, _ in row.conditions) for row in asleep)
    assert [row.name for row in table.roster(for_players=True)] == ["Brienne", "Tobias", "Pip", "Mira"]
    table.revealed.add("Hobgoblin leader")
    seen = {row.name: row for row in table.roster(for_players=True)}
    assert seen["Hobgoblin leader"].hit_points is None and seen["Hobgoblin leader"].spells_left == ()
    again = loads_fight(table.dumps())
    assert again.revealed == {"Hobgoblin leader"} and again.party == "party"
    with pytest.raises(FightFileError, match="revealed: names no figure of the fight: 'Nobody'"):
        loads_fight(tomli_w.dumps(tomllib.loads(table.dumps()) | {"revealed": ["Nobody"]}))
    with pytest.raises(RulesError, match="the party is one of the sides, party, goblins; got 'elves'"):
        TableFight(load_example("goblin-ambush"), party="elves")
