"""000 Part 4: Perception, and the thief skills adjusted by DEX or AGI through PH 2e Table 28."""

from __future__ import annotations

import pytest

from combatkit.abilities import (
    AGILITY_SKILLS,
    DEXTERITY_SKILLS,
    perception,
    perception_text,
    thief_adjustment,
    thief_adjustments,
)
from combatkit.errors import RulesError


def test_perception_is_the_average_of_int_and_wis_plus_one_point_per_level():
    """"Combining the average of INT and WIS with a bonus of one point per level" (000 Part 4)."""
    assert perception(intelligence=14, wisdom=14, level=0) == 14
    assert perception(intelligence=16, wisdom=12, level=5) == 14 + 5
    assert perception(intelligence=15, wisdom=12, level=3) == 13 + 3, "an average of 13.5 rounds down"


def test_the_thief_option_gives_thieves_two_points_per_level():
    """"Option: Thieves gain +2 per level." Off unless asked for, and only for thieves."""
    assert perception(intelligence=12, wisdom=10, level=4, char_class="thief") == 11 + 4
    assert perception(intelligence=12, wisdom=10, level=4, char_class="Thief", thief_bonus=True) == 11 + 8
    assert perception(intelligence=12, wisdom=10, level=4, char_class="fighter", thief_bonus=True) == 11 + 4


def test_perception_names_its_rule_and_refuses_scores_out_of_range():
    assert perception_text(intelligence=14, wisdom=14, level=1).startswith("Perception 15: average of INT 14")
    with pytest.raises(RulesError, match=r"INT is an ability score, 1..25, got 30 \(000 Part 4 Perception\)"):
        perception(intelligence=30, wisdom=10, level=1)
    with pytest.raises(RulesError, match="level is 0..40"):
        perception(intelligence=10, wisdom=10, level=41)


def test_agility_adjusts_move_silently_hide_in_shadows_and_climb_walls_and_dexterity_the_rest():
    """"AGI: Move Silently, Hide in Shadows, Climb Walls ... DEX: Pick Pockets, Open Locks, Find/Remove Traps"."""
    assert AGILITY_SKILLS == ("move silently", "hide in shadows", "climb walls")
    assert DEXTERITY_SKILLS == ("pick pockets", "open locks", "find/remove traps")
    rows = {row.skill: row for row in thief_adjustments(dexterity=18, agility=10)}
    assert {skill: row.ability for skill, row in rows.items()} == {
        "pick pockets": "DEX", "open locks": "DEX", "find/remove traps": "DEX",
        "move silently": "AGI", "hide in shadows": "AGI", "climb walls": "AGI"}
    assert rows["open locks"].percent == 15 and rows["hide in shadows"].percent == -5


@pytest.mark.parametrize(("agility", "percent"), [(9, -10), (10, -5), (17, 5), (18, 10), (19, 15)])
def test_the_seeds_agility_sample_is_table_28s_hide_in_shadows_column(agility, percent):
    """000 Part 4 prints "(AGI 9 = -10%, 10 = -5%, 17 = +5%, 18 = +10%, 19 = +15%)"."""
    assert thief_adjustment("hide in shadows", dexterity=14, agility=agility) == percent


def test_without_the_split_dexterity_adjusts_every_skill_as_in_the_players_handbook():
    assert thief_adjustment("move silently", dexterity=9) == -20
    assert thief_adjustment("pick pockets", dexterity=19) == 15
    assert thief_adjustment("climb walls", dexterity=19, agility=19) == 0, "Table 28 has no Climb Walls column"


def test_table_28_stops_at_19_and_starts_at_9():
    assert thief_adjustment("open locks", dexterity=22) == thief_adjustment("open locks", dexterity=19) == 20
    with pytest.raises(RulesError, match=r"Table 28 starts at AGI 9 .* got AGI 5 \(000 Part 4 Thief Adjustments"):
        thief_adjustment("hide in shadows", dexterity=12, agility=5)
    with pytest.raises(RulesError, match="no thief skill is called 'backstab'"):
        thief_adjustment("backstab", dexterity=12)


def test_the_mana_calculator_shows_the_casters_perception_with_its_rule():
    from combatkit.widgets.views.mana import ManaPoolCalculator

    view = ManaPoolCalculator()
    view.intelligence.value, view.wisdom.value, view.level.value = 17, 12, 6
    assert "Perception 20: average of INT 17 and WIS 12 (14) + 1 a level x 6 (000 Part 4 Perception)" \
        in view.summary.value


def test_the_criticals_explorer_shows_the_attackers_thief_skills_by_dex_and_agi():
    from dataclasses import replace

    from combatkit.widgets.views.criticals import DEFAULT_ATTACKER, CriticalExplorer

    from combatkit.stances import Role

    rogue = replace(DEFAULT_ATTACKER, dexterity=18, agility=9, role=Role.OTHER)  # a fighter has no thief skills
    explorer = CriticalExplorer("000-I", attacker=rogue)
    line = explorer.thief_skills.value
    assert "Open Locks +15% (DEX 18)" in line and "Move Silently -20% (AGI 9)" in line and "PH Table 28" in line
    explorer.dexterity.value = 17
    assert "Pick Pockets +5% (DEX 17)" in explorer.thief_skills.value
