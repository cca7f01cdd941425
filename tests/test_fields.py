"""Each encounter field declared once (combatkit/fields.py): the model's check, the file reader and writer,
the editor's controls, prep's table and docs/encounter-format.md all follow the one declaration."""

from __future__ import annotations

from pathlib import Path

import pytest

from combatkit.encounter_files import dumps_toml, encounter_from_dict, loads_encounter
from combatkit.errors import EncounterFileError, RulesError
from combatkit.fields import declared, field_specs
from combatkit.model import Abilities, Combatant, Spell, Weapon, readme_tables
from combatkit.systems import find_system
from combatkit.widgets.views.editor import EncounterEditor
from combatkit.widgets.views.prep import CombatantRow
from combatkit.widgets.state.draft import EncounterDraft

ROOT = Path(__file__).resolve().parents[1]
FIGHTER = {"name": "Brienne", "side": "party", "weapons": [{"name": "sword"}], "spells": [{"name": "web"}]}
WHERE = {Combatant: ("combatants[0]", lambda v: {}), Abilities: ("combatants[0]", lambda v: {}),
         Weapon: ("combatants[0].weapons[0]", lambda v: {"name": "sword"}),
         Spell: ("combatants[0].spells[0]", lambda v: {"name": "web"})}
BOUNDED = [(cls, d) for cls in WHERE for d in declared(cls) if d.spec.bounded]


def _file_with(cls: type, key: str, value: object) -> dict:
    combatant = dict(FIGHTER)
    if cls in (Combatant, Abilities):
        combatant[key] = value
    else:
        name = "weapons" if cls is Weapon else "spells"
        combatant[name] = [dict(combatant[name][0], **{key: value})]
    return {"combatants": [combatant]}


def _outside(d) -> list[int]:
    return [v for v in (None if d.spec.low is None else d.spec.low - 1, None if d.spec.high is None
                        else d.spec.high + 1) if v is not None]


@pytest.mark.parametrize(("cls", "d"), BOUNDED, ids=[f"{c.__name__}.{d.spec.file}" for c, d in BOUNDED])
def test_a_bounded_field_takes_its_range_and_refuses_one_past_either_end_in_the_file_and_in_the_engine(cls, d):
    path = WHERE[cls][0]
    for edge in (d.spec.low, d.spec.high):
        if edge is not None:
            encounter_from_dict(_file_with(cls, d.spec.file, edge))  # the ends are in range
    for value in _outside(d):
        with pytest.raises(EncounterFileError) as error:
            encounter_from_dict(_file_with(cls, d.spec.file, value))
        assert str(error.value) == f"{path}.{d.spec.file}: {d.spec.cited()}, got {value}"
        made = {"name": "x"} if cls in (Weapon, Spell) else {"name": "x", "side": "a"} if cls is Combatant else {}
        with pytest.raises(RulesError) as refused:
            cls(**made, **{d.name: value})
        assert refused.value.rule == d.spec.rule and f"{d.spec.words()}, got {value}" in str(refused.value)


def test_spell_level_0_is_taken_as_its_doc_says():
    """#16: Spell.level was documented as 1..9 but checked as 0..9."""
    assert Spell("mind thrust", 0, psionic=True).level == 0
    assert field_specs(Spell)["level"].low == 0
    assert "1..9" not in " ".join(d.doc for d in declared(Spell))


def test_ac_and_thac0_are_checked_by_the_engine_not_only_by_the_file_reader():
    """#16: SF and AC limits were checked only in the reader."""
    with pytest.raises(RulesError, match=r"x: AC is -10..10, got 11"):
        Combatant("x", "a", armor_class=11)
    with pytest.raises(RulesError, match=r"x: THAC0 is -10..25, got 26"):
        Combatant("x", "a", thac0=26)
    with pytest.raises(RulesError, match=r"x, side: must not be empty"):
        Combatant("x", " ")


def test_every_declared_field_is_written_under_its_file_name_and_read_back():
    every = encounter_from_dict({"combatants": [{
        "name": "Mira", "side": "party", "level": 0, "class": "mage", "size": "small", "mv": 9, "ac": -2,
        "thac0": 21, "hp": 7, "attacks_per_round": "3/2", "components_ready": False, "surprised": True,
        "morale": 8, "str": 8, "dex": 17, "con": 9, "int": 18, "wis": 12, "cha": 11, "agi": 15,
        "weapons": [{"name": "dagger", "sf": 2, "magic": 1, "style_bonus": 1, "kind": "missile", "length": "short",
                     "damage": "d4", "rate_of_fire": 2, "attacks_per_round": "1/2"}],
        "spells": [{"name": "web", "level": 2, "ct": 2, "components": "V,S,M", "touch": True, "psionic": True}],
    }]})
    text = dumps_toml(every)
    for cls in (Combatant, Abilities, Weapon, Spell):
        for d in declared(cls):
            assert f"\n{d.spec.file} = " in text or f" {d.spec.file} = " in text, d.spec.file
    assert loads_encounter(text) == every


def test_the_editor_shows_each_declared_form_field_as_its_control_with_its_range_and_rule():
    editor = EncounterEditor(lambda: None, find_system("phase1"))
    editor.load(encounter_from_dict({"combatants": [FIGHTER]}))
    for prefix, cls in (("", (Combatant, Abilities)), ("weapon_", (Weapon,)), ("spell_", (Spell,))):
        for d in declared(*cls):
            if not d.spec.form:
                continue
            control = getattr(editor, prefix + d.spec.form)
            assert control.description == d.spec.label and d.doc in control.tooltip
            if d.spec.bounded:
                assert d.spec.words() in control.tooltip
    editor.mv.value = 400  # the engine refuses it, naming the field; the draft keeps what was typed
    assert editor.draft.combatants[editor._current].fields["mv"] == 400
    with pytest.raises(EncounterFileError, match=r"combatants\[0\]\.mv: MV is 0..240 \(000 Table 3\), got 400"):
        editor.draft.encounter()


def test_prep_columns_are_the_declared_roster_fields_in_their_order():
    draft = EncounterDraft.from_encounter(encounter_from_dict({"combatants": [FIGHTER]}))
    ident, combatant = next(iter(draft.combatants.items()))
    row = CombatantRow(ident, combatant)
    roster = sorted((d for d in declared(Combatant, Abilities) if d.spec.roster), key=lambda d: d.spec.roster)
    assert list(row.fields) == [d.spec.file for d in roster] == ["name", "side", "level", "hp", "ac", "thac0",
                                                                 "dex", "mv"]
    assert list(row.weapon) == ["name", "sf", "damage"]
    assert row.fields["mv"].value == 12 and row.weapon["sf"].value == 5  # the declared defaults


def test_the_docs_document_every_field_as_declared():
    assert readme_tables() in (ROOT / "docs" / "encounter-format.md").read_text(encoding="utf-8"), (
        'docs/encounter-format.md\'s field tables differ from the declarations: paste the output of python -c "from '
        'combatkit.model import readme_tables; print(readme_tables())"')
