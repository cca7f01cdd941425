"""Monsters and characters from the books (#48): the monster table pinned to its printed rows, DMG 2e Table 39 and
PH 2e Table 53, Hit Dice as printed, hit points rolled from a seed or averaged, and N of a kind with unique names."""

import dataclasses
import re
from fractions import Fraction

import pytest

from combatkit import Encounter, Roller, RulesError, Size, WeaponKind, library
from combatkit.battle import FigureExtras
from combatkit.fight import FightOptions, run_fight
from combatkit.kinds import Length
from combatkit.model import Abilities, Combatant, Weapon
from combatkit.monsters import (
    HitDice,
    HitDiceError,
    HitPoints,
    MonsterRowError,
    MoraleRating,
    UnknownClassError,
    UnknownMonsterError,
    character,
    character_hit_points,
    character_thac0,
    class_hit_dice,
    constitution_adjustment,
    copies,
    find_monster,
    group_of,
    monster,
    monster_entries,
    monster_thac0,
    monsters,
    numbered,
    unique_names,
)
from combatkit.resolution import ResolutionOptions

# (name, Hit Dice, AC, MV, size, THAC0, morale as printed, damage a round as printed, source)
PRINTED = [
    ("kobold", "1/2", 7, 6, Size.SMALL, 20, "Average (8-10)", ["1d4"], "MM 2e, Kobold"),
    ("goblin", "1-1", 6, 6, Size.SMALL, 20, "Average (10)", ["1d6"], "MM 2e, Goblin"),
    ("hobgoblin", "1+1", 5, 9, Size.MEDIUM, 19, "Steady (11)", ["1d8"], "MM 2e, Hobgoblin"),
    ("orc", "1", 6, 9, Size.MEDIUM, 19, "Steady (11-12)", ["1d8"], "MM 2e, Orc"),
    ("gnoll", "2", 5, 9, Size.LARGE, 19, "Steady (11-12)", ["2d4"], "MM 2e, Gnoll"),
    ("bugbear", "3+1", 5, 9, Size.LARGE, 17, "Steady (11-12)", ["2d4"], "MM 2e, Bugbear"),
    ("ogre", "4+1", 5, 9, Size.LARGE, 17, "Steady (11-12)", ["1d10"], "MM 2e, Ogre"),
    ("troll", "6+6", 4, 12, Size.LARGE, 13, "Elite (14)", ["1d4+4", "1d4+4", "2d6"], "MM 2e, Troll"),
    ("hill giant", "12+1-2", 3, 12, Size.HUGE, 9, "Elite (13-14)", ["1d6"], "MM 2e, Giant (hill giant)"),
    ("skeleton", "1", 7, 12, Size.MEDIUM, 19, "Special", ["1d6"], "MM 2e, Skeleton"),
    ("zombie", "2", 8, 6, Size.MEDIUM, 19, "Special", ["1d8"], "MM 2e, Zombie"),
    ("ghoul", "2", 6, 9, Size.MEDIUM, 19, "Steady (11-12)", ["1d3", "1d3", "1d6"], "MM 2e, Ghoul (ghoul)"),
    ("giant rat", "1/2", 7, 12, Size.SMALL, 20, "Unsteady (5-7)", ["1d3"], "MM 2e, Rat (giant rat)"),
    ("wolf", "2+2", 7, 18, Size.SMALL, 19, "Average (10)", ["1d4+1"], "MM 2e, Wolf (wolf)"),
    ("brown bear", "5+5", 6, 12, Size.LARGE, 15, "Average (8-10)", ["1d6", "1d6", "1d8"], "MM 2e, Bear (brown)"),
    ("giant spider", "4+4", 4, 3, Size.LARGE, 15, "Elite (13)", ["1d8"], "MM 2e, Spider (giant)"),
    ("stirge", "1+1", 8, 3, Size.SMALL, 17, "Average (8-10)", ["1d3"], "MM 2e, Stirge"),
    ("owlbear", "5+2", 5, 12, Size.LARGE, 15, "Steady (11-12)", ["1d6", "1d6", "2d6"], "MM 2e, Owlbear"),
    ("umber hulk", "8+8", 2, 6, Size.LARGE, 11, "Elite (13-14)", ["3d4", "3d4", "1d10"], "MM 2e, Umber Hulk"),
]


@pytest.mark.parametrize(("name", "hit_dice", "ac", "mv", "size", "thac0", "morale", "damage", "source"), PRINTED)
def test_rows_are_the_printed_numbers(name, hit_dice, ac, mv, size, thac0, morale, damage, source):
    entry = find_monster(name)
    assert (str(entry.hit_dice), entry.armor_class, entry.movement, entry.size, entry.thac0, str(entry.morale),
            entry.source) == (hit_dice, ac, mv, size, thac0, morale, source)
    printed = [a.damage for a in entry.attacks] if entry.attacks else [entry.damage]
    assert printed == damage


def test_the_issue_s_thirteen_foes_are_there():
    names = {name.lower() for name in monsters()}
    assert {"goblin", "hobgoblin", "orc", "gnoll", "bugbear", "ogre", "troll", "skeleton", "zombie", "ghoul",
            "giant rat", "wolf"} <= names
    assert find_monster("bear").name == "Brown bear" and len(monsters()) >= 40


def test_every_entry_loads_into_combatants_rolled_and_averaged():
    for name in monsters():
        entry = find_monster(name)
        rolled = monster(name, count=2, roller=Roller(seed=5), side="foes")
        averaged = monster(name, hit_points=HitPoints.AVERAGE)
        for figure in (*rolled, *averaged):
            assert figure.char_class == "monster" and figure.level == entry.hit_dice.level
            assert (figure.armor_class, figure.movement, figure.size, figure.thac0) == \
                (entry.armor_class, entry.movement, entry.size, entry.thac0)
            assert 1 <= figure.hit_points <= 8 * max(entry.hit_dice.dice, 1) + max(entry.hit_dice.modifier, 0) + 2
            assert figure.morale == entry.morale.score and figure.weapons
        assert averaged[0].hit_points == entry.hit_dice.average()
        assert [f.name for f in rolled] == [f"{entry.name} 1", f"{entry.name} 2"] and averaged[0].name == entry.name
        if entry.printed_thac0 is None:
            assert entry.thac0 == monster_thac0(entry.hit_dice), name


def test_natural_attacks_are_natural_weapons_and_a_routine_a_round():
    troll = monster("troll", hit_points=HitPoints.AVERAGE)[0]
    assert [(w.name, w.kind, w.length, w.damage) for w in troll.weapons] == [
        ("claw 1", WeaponKind.NATURAL, Length.SHORT, "1d4+4"), ("claw 2", WeaponKind.NATURAL, Length.SHORT, "1d4+4"),
        ("bite", WeaponKind.NATURAL, Length.SHORT, "2d6")]
    assert troll.attacks_per_round == Fraction(3) and troll.hit_points == 33


def test_by_weapon_monsters_carry_their_usual_weapons_from_the_weapon_library():
    goblin = monster("goblin", hit_points=[4])[0]
    assert goblin.weapons == (library.weapon("short sword"), library.weapon("spear")) and goblin.attacks_per_round == 1
    assert (goblin.weapons[0].speed_factor, goblin.weapons[0].length) == (3, Length.SHORT)
    ogre = monster("ogre", hit_points=[19])[0]
    assert ogre.weapons == (library.weapon("club", damage="1d10"),)
    for name in monsters():
        assert all(library.builtin().knows(w.name) for w in find_monster(name).weapons), name


def test_a_dm_s_library_gives_its_weapons_and_its_monsters(tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text('''
[[weapon]]
name = "great club"
sf = 7
damage = "2d4"
size = "L"
type = "B"
source = "my campaign"

[[monster]]
name = "Cave troll"
hit_dice = "7+7"
ac = 3
mv = 9
size = "large"
morale = "Elite (14)"
by_weapon = true
weapons = ["great club", "rock maul"]
damage = "2d6"
source = "my campaign"
''', encoding="utf-8")
    campaign = library.Library.load(path)
    troll, = monster_entries(campaign.monsters, path.name)
    figure = monster(troll, hit_points=HitPoints.AVERAGE, library=campaign)[0]
    assert [(w.name, w.speed_factor, w.damage) for w in figure.weapons] == [("great club", 7, "2d4"),
                                                                             ("rock maul", 5, "2d6")]
    assert (figure.name, figure.hit_points, figure.thac0, figure.level) == ("Cave troll", 38, 13, 8)
    with pytest.raises(MonsterRowError, match="campaign.toml"):
        monster_entries([{**dict(campaign.monsters[0]), "ac": 20}], path.name)


def test_a_giant_lists_its_damage_bonus_for_the_severity_rules():
    """000 Severity Rules II: "Larger humanoids get such bonus damage without a 'to hit' bonus (giants being a prime
    example)"; a fight takes it among a figure's extras."""
    giant = find_monster("hill giant")
    assert giant.listed_damage_bonus == 7 and find_monster("ogre").listed_damage_bonus == 0
    figure = monster(giant, hit_points=HitPoints.AVERAGE)[0]
    assert figure.hit_points == 55 and figure.level == 12 and figure.size is Size.HUGE
    options = FightOptions(resolution=ResolutionOptions(figures={
        figure.name: FigureExtras(listed_damage_bonus=giant.listed_damage_bonus)}))
    fighter = character("Brienne", "party", "fighter", 9, hit_points=80, armor_class=2)
    fight = run_fight(Encounter("giant", (fighter, figure)), "phase1", seed=2, options=options)
    assert any("+7 listed damage bonus" in line for line in fight.why())


def test_a_fighter_and_a_pack_of_goblins_fight_it_out():
    goblins = monster("goblin", count=4, roller=Roller(seed=9), side="goblins")
    fighter = character("Brienne", "party", "fighter", 5, roller=Roller(seed=9), armor_class=3,
                        weapons=(Weapon("long sword", 5, damage="d8"),))
    fight = run_fight(Encounter("goblins", (fighter, *goblins)), "phase1", seed=1, options=FightOptions(max_rounds=40))
    assert fight.winner in ("party", "goblins")
    assert any("Goblin 4 attacks Brienne with the short sword: needs 17 (THAC0 20 against AC 3)" in line
               for line in fight.why())


# ----------------------------------------------------------------- Hit Dice


@pytest.mark.parametrize(("text", "dice", "modifier", "fraction", "points", "level"), [
    ("1/2", 0, 0, Fraction(1, 2), None, 0),
    ("1/4", 0, 0, Fraction(1, 4), None, 0),
    ("1-1", 1, -1, None, None, 1),
    ("1", 1, 0, None, None, 1),
    ("1+1", 1, 1, None, None, 1),
    ("4+2", 4, 2, None, None, 4),
    ("4+3", 4, 3, None, None, 5),
    ("4+4", 4, 4, None, None, 5),
    (" 6 + 6 ", 6, 6, None, None, 7),
    ("12+1-2", 12, 0, None, (1, 2), 12),
    ("15+3-6", 15, 0, None, (3, 6), 16),
])
def test_hit_dice_as_printed(text, dice, modifier, fraction, points, level):
    """DMG 2e, Calculating THAC0: "When a creature has three or more points added to its Hit Dice, count another
    die"."""
    parsed = HitDice.parse(text)
    assert (parsed.dice, parsed.modifier, parsed.fraction, parsed.points, parsed.level) == \
        (dice, modifier, fraction, points, level)
    assert HitDice.parse(str(parsed)) == parsed and eval(repr(parsed)) == parsed


@pytest.mark.parametrize(("text", "says"), [
    ("4++4", "write them as the Monstrous Manual does"),
    ("d8", "write them as the Monstrous Manual does"),
    ("", "write them as the Monstrous Manual does"),
    (4, "write them as the Monstrous Manual does"),
    ("0", "a monster has 1..100 Hit Dice"),
    ("101", "a monster has 1..100 Hit Dice"),
    ("1/3", "less than one Hit Die is 1/2 (a d4) or 1/4 (a d2)"),
    ("1/0", "less than one Hit Die is 1/2"),
    ("1-8", "leave at least 1 hit point possible"),
    ("4+200", "-100..+100"),
    ("12+2-1", "low below high"),
    ("12-1-2", "never taken away"),
])
def test_bad_hit_dice_are_refused_by_name(text, says):
    with pytest.raises(HitDiceError, match="hit dice") as refused:
        HitDice.parse(text)
    assert says in str(refused.value) and refused.value.rule == "MM 2e Hit Dice"


def test_hit_points_rolled_from_the_seed_each_under_its_own_key():
    first = monster("hobgoblin", count=6, roller=Roller(seed=11))
    again = monster("hobgoblin", count=6, roller=Roller(seed=11))
    assert [g.hit_points for g in first] == [g.hit_points for g in again]
    assert len({g.hit_points for g in first}) > 1
    roller = Roller(seed=11, entered={"hit points: Hobgoblin 3": 9})
    table = monster("hobgoblin", count=6, roller=roller)
    assert table[2].hit_points == 9
    others = [i for i in range(6) if i != 2]  # an entered number moves no other roll
    assert [table[i].hit_points for i in others] == [first[i].hit_points for i in others]
    assert [r.purpose for r in roller.log] == [f"hit points: Hobgoblin {n}" for n in range(1, 7)]


def test_hit_points_at_least_one_and_averaged_rounded_down():
    assert HitDice.parse("1-1").roll(Roller(entered={"k": 0}), "k") == 1
    assert [HitDice.parse(t).average() for t in ("1/2", "1/4", "1-1", "1", "4+1", "4+4", "6+6", "12+1-2")] == \
        [2, 1, 3, 4, 19, 22, 33, 55]
    roller = Roller(entered={"hit points: Hill giant": 60, "hit points: Hill giant, points added": 2})
    assert monster("hill giant", roller=roller)[0].hit_points == 62


def test_rolled_hit_points_need_a_roller_and_given_ones_one_a_figure():
    with pytest.raises(RulesError, match="need a roller"):
        monster("orc")
    with pytest.raises(RulesError, match="3 whole numbers"):
        monster("orc", count=3, hit_points=[4, 5])
    with pytest.raises(RulesError, match="whole numbers, 0 or more"):
        monster("orc", count=1, hit_points=[-1])


# ----------------------------------------------------------------- THAC0 tables


@pytest.mark.parametrize(("hit_dice", "thac0"), [
    ("1/2", 20), ("1/4", 20), ("1-1", 20), ("1", 19), ("1+2", 19), ("1+3", 19), ("2", 19), ("2+2", 19), ("3", 17),
    ("3+3", 17), ("4", 17), ("4+1", 17), ("4+4", 15), ("5", 15), ("6", 15), ("6+3", 13), ("7", 13), ("8", 13),
    ("8+8", 11), ("9", 11), ("10", 11), ("11", 9), ("12", 9), ("13", 7), ("14", 7), ("15", 5), ("16", 5), ("30", 5),
])
def test_dmg_table_39_creature_thac0(hit_dice, thac0):
    assert monster_thac0(hit_dice) == thac0


PH_TABLE_53 = {
    "priest": [20, 20, 20, 18, 18, 18, 16, 16, 16, 14, 14, 14, 12, 12, 12, 10, 10, 10, 8, 8],
    "rogue": [20, 20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11],
    "warrior": [20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    "wizard": [20, 20, 20, 19, 19, 19, 18, 18, 18, 17, 17, 17, 16, 16, 16, 15, 15, 15, 14, 14],
}


@pytest.mark.parametrize(("classes", "group"), [
    (("fighter", "paladin", "ranger"), "warrior"), (("cleric", "druid", "priest"), "priest"),
    (("thief", "bard"), "rogue"), (("mage", "illusionist", "wizard"), "wizard")])
def test_ph_table_53_calculated_thac0s(classes, group):
    for char_class in classes:
        assert [character_thac0(char_class, level) for level in range(1, 21)] == PH_TABLE_53[group]
        assert character_thac0(char_class.title(), 0) == 20


def test_past_20th_level_table_54_s_rates():
    assert [character_thac0("fighter", 21), character_thac0("cleric", 22), character_thac0("thief", 23),
            character_thac0("mage", 23)] == [0, 6, 9, 13]
    with pytest.raises(RulesError, match="would need THAC0 -11"):
        character_thac0("fighter", 32)


def test_an_unknown_class_is_refused_by_name():
    with pytest.raises(UnknownClassError, match='no character class "figher" in PH 2e') as refused:
        character_thac0("figher", 1)
    assert 'did you mean "fighter"?' in str(refused.value)
    with pytest.raises(UnknownClassError, match="a monster has no class group"):
        character_thac0("monster", 3)
    with pytest.raises(RulesError, match="0..40"):
        character_thac0("fighter", 41)


# ----------------------------------------------------------------- characters' hit points


def test_class_hit_dice_and_constitution():
    assert [dataclasses.astuple(class_hit_dice(c)) for c in ("fighter", "cleric", "thief", "mage")] == \
        [(10, 9, 3), (8, 9, 2), (6, 10, 2), (4, 10, 1)]
    assert [constitution_adjustment(con, "thief") for con in (1, 3, 6, 7, 14, 15, 16, 17, 25)] == \
        [-3, -2, -1, 0, 0, 1, 2, 2, 2]
    assert [constitution_adjustment(con, "paladin") for con in (16, 17, 18, 19, 20, 21, 24)] == [2, 3, 4, 5, 5, 6, 7]


def test_character_hit_points_averaged():
    assert character_hit_points("fighter", 1, hit_points=HitPoints.AVERAGE) == 5
    assert character_hit_points("fighter", 9, hit_points=HitPoints.AVERAGE) == 49
    assert character_hit_points("fighter", 12, hit_points=HitPoints.AVERAGE) == 58
    assert character_hit_points("thief", 12, hit_points=HitPoints.AVERAGE, constitution=16) == 59
    assert character_hit_points("mage", 3, hit_points=HitPoints.AVERAGE, constitution=3) == 3
    assert character_hit_points("mage", 1, hit_points=HitPoints.AVERAGE, constitution=20) == 4  # 1s count as 2s


def test_character_hit_points_rolled():
    roller = Roller(entered={"hit points: Erik": (1, 10, 4)})
    assert character_hit_points("fighter", 3, roller=roller, constitution=18, name="Erik") == 5 + 14 + 8
    total = Roller(entered={"hit points: Erik": 3})
    assert character_hit_points("fighter", 3, roller=total, constitution=5, name="Erik") == 3
    seeded = [character_hit_points("cleric", 4, roller=Roller(seed=3), name="Ann") for _ in range(2)]
    assert seeded[0] == seeded[1] and 4 <= seeded[0] <= 32
    with pytest.raises(RulesError, match="need a roller"):
        character_hit_points("cleric", 4)
    with pytest.raises(RulesError, match="start at 1st level"):
        character_hit_points("cleric", 0, hit_points=HitPoints.AVERAGE)


def test_a_character_s_thac0_and_hit_points_unless_given():
    mira = character("Mira", "party", "mage", 4, hit_points=HitPoints.AVERAGE, abilities=Abilities(constitution=16))
    assert (mira.thac0, mira.hit_points, mira.char_class, mira.level) == (19, 18, "mage", 4)
    plain = character("Mira", "party", "mage", 4, hit_points=HitPoints.AVERAGE, constitution_bonus=False,
                      abilities=Abilities(constitution=16))
    assert plain.hit_points == 10
    given = character("Erik", "party", "fighter", 7, hit_points=44, thac0=12)
    assert (given.thac0, given.hit_points) == (12, 44)


# ----------------------------------------------------------------- N of a kind


def test_n_of_a_kind_named_uniquely():
    assert [g.name for g in monster("goblin", count=6, hit_points=HitPoints.AVERAGE)] == \
        [f"Goblin {n}" for n in range(1, 7)]
    assert [g.name for g in monster("goblin", hit_points=HitPoints.AVERAGE)] == ["Goblin"]
    assert [g.name for g in monster("goblin", count=2, hit_points=HitPoints.AVERAGE, name_as="Snaga",
                                    taken=["Snaga 4", "Goblin 9"])] == ["Snaga 5", "Snaga 6"]
    assert numbered("Goblin", 6, taken=["Goblin 1"]) == tuple(f"Goblin {n}" for n in range(2, 8))
    assert numbered("Goblin", 2, taken=["Goblin"]) == ("Goblin 2", "Goblin 3")
    assert numbered("Goblin", 1, taken=["Goblin king", "Hobgoblin 1"]) == ("Goblin",)
    with pytest.raises(RulesError, match="1..100 figures of a kind"):
        numbered("Goblin", 0)
    with pytest.raises(RulesError, match="needs a name"):
        numbered(" ", 2)


def test_copies_unique_names_and_groups():
    ugluk = Combatant("Ugluk", "orcs", hit_points=7)
    assert [(c.name, c.hit_points) for c in copies(ugluk, 2, taken=["Ugluk"])] == [("Ugluk 2", 7), ("Ugluk 3", 7)]
    assert unique_names(["Orc", "Orc", "Troll", "Orc 2", "Orc"]) == ("Orc 1", "Orc 3", "Troll", "Orc 2", "Orc 4")
    assert unique_names(["a", "b"]) == ("a", "b")
    assert {group_of(n) for n in ("Goblin 1", "Goblin 12", "Goblin")} == {"Goblin"}
    assert group_of("Hill giant 2") == "Hill giant"


# ----------------------------------------------------------------- the table and a DM's rows


@pytest.mark.parametrize(("rating", "score"), [
    ("Unreliable (2-4)", 2), ("Unsteady (5-7)", 4), ("Average (8-10)", 6), ("Average (10)", 6), ("Steady (11-12)", 7),
    ("Steady", 7), ("Elite (13-14)", 8), ("Elite (14)", 9), ("Champion (15-16)", 9), ("Fanatic (17-18)", 11),
    ("Fearless (19-20)", 12), ("Special", 12)])
def test_morale_ratings_map_to_ose_scores(rating, score):
    assert MoraleRating.parse(rating).score == score


@pytest.mark.parametrize("rating", ["Steady (13)", "Brave (12)", "Special (20)", "Average (8-11)", ""])
def test_bad_morale_ratings_are_refused(rating):
    with pytest.raises(RulesError, match="morale"):
        MoraleRating.parse(rating)


def test_names_and_aliases_find_one_entry_and_a_miss_suggests():
    assert find_monster(" Worg ").name == "Dire wolf" and find_monster("GOBLIN").name == "Goblin"
    with pytest.raises(UnknownMonsterError, match='did you mean "troll"') as refused:
        find_monster("trol")
    assert "monsters_mm2e.toml" in refused.value.rule


GOOD = {"name": "Orog", "hit_dice": "3", "ac": 10, "mv": 9, "size": "medium", "morale": "Elite (13)",
        "by_weapon": True, "weapons": ["long sword"], "damage": "1d8", "source": "my campaign"}


@pytest.mark.parametrize(("change", "field", "says"), [
    ({"hit_dice": "3++1"}, "monster[0].hit_dice", 'hit dice "3++1"'),
    ({"hit_dice": 3}, "monster[0].hit_dice", "is text"),
    ({"morale": 12}, "monster[0].morale", "is text"),
    ({"ac": 11}, "monster[0].ac", "-10..10"),
    ({"mv": "9"}, "monster[0].mv", "whole number"),
    ({"size": "big"}, "monster[0].size", "tiny, small, medium"),
    ({"morale": "Brave"}, "monster[0].morale", "a rating is one of"),
    ({"damage": "2x4"}, "monster[0].damage", "not dice notation"),
    ({"weapons": []}, "monster[0].weapons", "usual weapons"),
    ({"weapons": [{"name": "club"}]}, "monster[0].weapons[0]", "weapon name"),
    ({"weapons": ["club", {"name": "club", "damage": "1d10"}]}, "monster[0].weapons[1]", "names 'club' twice"),
    ({"attacks": [{"name": "claw", "damage": "1d4"}]}, "monster[0].by_weapon", "not both"),
    ({"by_weapon": False}, "monster[0].by_weapon", "natural attacks or attacks by weapon"),
    ({"by_weapon": "yes"}, "monster[0].by_weapon", "true or false"),
    ({"size": ["large"]}, "monster[0].size", "tiny, small, medium"),
    ({"speed": 3}, "monster[0].speed", "no such field"),
    ({"name": ""}, "monster[0].name", "not empty"),
    ({"thac0": 30}, "monster[0].thac0", "-10..25"),
])
def test_a_dm_s_bad_row_is_refused_by_its_field(change, field, says):
    with pytest.raises(MonsterRowError, match=re.escape(says)) as refused:
        monster_entries([{**GOOD, **change}], "my campaign")
    assert refused.value.field == field and refused.value.rule == "my campaign"


def test_a_dm_s_rows_make_figures():
    zombie = {k: v for k, v in GOOD.items() if k not in ("by_weapon", "weapons", "damage")} | {
        "name": "Orc zombie", "attacks": [{"name": "fist", "damage": "1d6"}]}
    orog, orc_zombie = monster_entries([GOOD, zombie])
    assert [(w.name, w.kind, w.damage) for w in orc_zombie.figure_weapons()] == [("fist", WeaponKind.NATURAL, "1d6")]
    figures = monster(orog, count=2, hit_points=HitPoints.AVERAGE, side="tribe")
    assert [(f.name, f.hit_points, f.thac0, f.morale, f.side) for f in figures] == [
        ("Orog 1", 13, 17, 8, "tribe"), ("Orog 2", 13, 17, 8, "tribe")]
    with pytest.raises(MonsterRowError, match="names monster\\[0\\] already"):
        monster_entries([GOOD, {**GOOD, "aliases": ["orog"], "name": "Other"}])
