"""A cast intent's default names its spell (#45 item 5): in the editor, in the saved file, and so for every
system, Strike Speed included (004 Strike Speed: Initiative wants "the spell being cast" declared)."""

import dataclasses

import pytest

from combatkit import Roller, loads_encounter
from combatkit.encounter_files import load_example
from combatkit.systems import SYSTEMS
from combatkit.widgets.state.draft import EncounterDraft
from combatkit.widgets.views.timeline import TimelineExplorer


def option(dropdown, label):
    return dict(dropdown.options)[label]


@pytest.fixture
def explorer() -> TimelineExplorer:
    """Mira's cast, made again as a user makes one: what she does set to something else, then to cast."""
    explorer = TimelineExplorer("fighter-and-mage-vs-orc-archer")
    explorer.editor.pick("Mira")
    row = explorer.rows[0]
    row.do.value = "attack"
    row.do.value = "cast"
    explorer.rows[0].target.value = option(explorer.rows[0].target, "Ugluk")
    assert explorer.error == ""
    return explorer


def test_the_default_spell_is_named_in_the_row(explorer):
    using = explorer.rows[0].using
    assert using.label == "web"  # Mira's first spell, by its name
    assert all(not label.startswith("first spell") for label, _ in using.options)


def test_the_saved_file_names_the_spell(explorer):
    saved = loads_encounter(explorer.toml)
    casts = [i for i in saved.intents if i.actor == "Mira" and i.kind.value == "cast"]
    assert [(i.spell, i.target) for i in casts] == [("web", "Ugluk")]
    assert 'spell = "web"' in explorer.toml


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_system_plans_and_schedules_the_saved_cast(explorer, system):
    saved = dataclasses.replace(loads_encounter(explorer.toml), rolls={})  # the file's d10s are Phase System I's
    SYSTEMS[system].plan(saved)
    timeline = SYSTEMS[system].schedule(saved, Roller(seed=1))
    assert any(s.actor == "Mira" and "web" in s.action for s in timeline.spans)


def test_a_removed_spell_leaves_its_casts_naming_the_first_one_left():
    draft = EncounterDraft.from_encounter(load_example("fighter-and-mage-vs-orc-archer"))
    mira = draft.find("Mira")
    web = draft.combatants[mira].spell_id("web")
    draft.remove_spell(mira, web)
    casts = [i for i in draft.to_dict()["intents"] if i["do"] == "cast"]
    assert [i["spell"] for i in casts] == ["magic missile"]


def test_a_file_s_cast_without_a_spell_opens_naming_the_first():
    text = load_example("fighter-and-mage-vs-orc-archer")
    bare = dataclasses.replace(text, intents=tuple(dataclasses.replace(i, spell=None) for i in text.intents))
    draft = EncounterDraft.from_encounter(bare)
    assert [i["spell"] for i in draft.to_dict()["intents"] if i["do"] == "cast"] == ["web"]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_hand_written_cast_naming_no_spell_casts_the_first_under_every_system(system):
    """An intent's ``spell`` left out is the figure's first spell (the intents' documented default) under every
    system: the declaration it is placed as names it, so Strike Speed's caster declares the spell before
    initiative (004 Strike Speed: Initiative) instead of being refused."""
    encounter = load_example("fighter-and-mage-vs-orc-archer")
    casts = [i for i in encounter.intents if i.kind.value == "cast"]
    assert casts, "the example has a cast"
    unnamed = dataclasses.replace(encounter, rolls={}, intents=tuple(
        dataclasses.replace(i, spell=None) if i.kind.value == "cast" else i for i in encounter.intents))
    plan = SYSTEMS[system].plan(unnamed)
    first = {c.name: c.spells[0].name for c in encounter.combatants if c.spells}
    placed = [d for d in plan.declarations if d.kind.value == "cast"]
    assert placed and all(d.spell in (None, first[d.actor]) for d in placed)
    if system == "strike_speed":  # 004 asks for the spell by name before initiative
        assert all(d.spell == first[d.actor] for d in placed)
    timeline = SYSTEMS[system].schedule(unnamed, Roller(seed=1))
    assert any(s.actor == casts[0].actor and first[casts[0].actor] in s.action for s in timeline.spans)
