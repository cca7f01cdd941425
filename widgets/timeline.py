"""TimelineExplorer: edit an encounter and watch who acts when in the round, and why.

A thin view over the engine. Every control writes into an :class:`EncounterDraft`
(the form's working copy); each change rebuilds the encounter with the engine's
reader, schedules the round with the encounter's timing system, and redraws the
chart, the plain-language "why" list and the download link. Bad input never raises
out of a callback: the engine's error (which names the rule or the field and the value
given) is shown above the chart, the chart keeps the last good round, and every
control keeps what was typed.

>>> explorer = TimelineExplorer("orc-closes-on-longbowman")
>>> [row.action.value for row in explorer.phases]
['attack', 'attack', '']
>>> explorer.dex.value = 40
>>> print(explorer.error)
combatants[0].dex (Aldric): must be 1..25, got 40
>>> explorer.dex.value, explorer.timeline.spans[0].actor
(40, 'Aldric')
"""

from __future__ import annotations

import base64
import html
import re
from typing import Any

import ipywidgets as widgets

from combatkit.dice import Roller
from combatkit.encounter import Encounter, dumps_toml, load_example, save_encounter
from combatkit.errors import EncounterFileError, RulesError
from combatkit.model import ActionKind, Combatant, Spell, Weapon, WeaponKind
from combatkit.systems import find_system
from combatkit.systems.phase1 import ATTACK_PHASES, PHASE1, Phase1Options
from combatkit.timeline import Timeline
from combatkit.widgets.charts import timeline_chart, timeline_frame, timeline_spec
from combatkit.widgets.draft import CombatantDraft, EncounterDraft
from combatkit.widgets.encounter_picker import EncounterPicker
from combatkit.widgets.render import chart_view
from combatkit.widgets.urlstate import Param, control_param, int_list_param, int_param, options_params
from combatkit.widgets.messages import bullets, show_alert
from combatkit.widgets.hush import Hush
from combatkit.widgets.classes import slug, tag

__all__ = ["DEFAULT_EXAMPLE", "PhaseRow", "TimelineExplorer"]

DEFAULT_EXAMPLE = "fighter-and-mage-vs-orc-archer"
"""The encounter a new explorer opens with: a first Phase System I round (000 §1)."""

INITIATIVE_DICE = "d10"
"""000 §1 A: "Each group of characters rolls a d10, with the lowest roll winning initiative"."""
INITIATIVE_KEY = "initiative: <side>"
"""What the initiative boxes' rolls are called (``TimingSystem.roll_keys``)."""

NONE = 0
"""Dropdown value for "no target" / "the default weapon or spell" (draft ids start at 1)."""

CLASSES = ("fighter", "ranger", "paladin", "mage", "priest", "thief", "psionicist", "monster")
_COMBATANT = Combatant("-", "-")
_WEAPON = Weapon("-")
_SPELL = Spell("-")
_COMBATANT_FIELDS = {  # control attribute -> (file field, default)
    "name": ("name", ""),
    "side": ("side", ""),
    "char_class": ("class", _COMBATANT.char_class),
    "level": ("level", _COMBATANT.level),
    "dex": ("dex", _COMBATANT.abilities.dexterity),
    "mv": ("mv", _COMBATANT.movement),
}
_WEAPON_FIELDS = {
    "weapon_name": ("name", ""),
    "weapon_sf": ("sf", _WEAPON.speed_factor),
    "weapon_magic": ("magic", _WEAPON.magic_bonus),
    "weapon_kind": ("kind", _WEAPON.kind.value),
}
_SPELL_FIELDS = {
    "spell_name": ("name", ""),
    "spell_ct": ("ct", _SPELL.casting_time),
}


class PhaseRow(widgets.HBox):
    """One combatant's declaration for one phase: action, target, weapon or spell, flags, note."""

    def __init__(self, phase: int) -> None:
        self.phase = phase
        self.action = tag(widgets.Dropdown(
            options=[("—", "")] + [(k.value, k.value) for k in ActionKind], layout=widgets.Layout(width="92px")),
            "action")
        self.target = tag(widgets.Dropdown(options=[("no target", NONE)], layout=widgets.Layout(width="140px")),
                          "target")
        self.using = tag(widgets.Dropdown(options=[("—", NONE)], layout=widgets.Layout(width="190px")), "using")
        self.reposition = tag(widgets.Checkbox(description="reposition step", indent=False,
                                               layout=widgets.Layout(width="125px")), "reposition")
        self.retarget = tag(widgets.Checkbox(description="retarget", indent=False,
                                             layout=widgets.Layout(width="85px")), "retarget")
        self.note = tag(widgets.Text(placeholder="note", continuous_update=False,
                                     layout=widgets.Layout(width="200px")), "note")
        label = widgets.HTML(f"<b>Phase {phase}</b>", layout=widgets.Layout(width="62px"))
        super().__init__([label, self.action, self.target, self.using, self.reposition, self.retarget, self.note])
        tag(self, "phase", f"phase-{phase}")

    @property
    def controls(self) -> tuple[widgets.ValueWidget, ...]:
        return self.action, self.target, self.using, self.reposition, self.retarget, self.note


class TimelineExplorer(widgets.VBox):
    """Choose or load an encounter, edit it, and see its round on the system's clock.

    ``example`` names a shipped encounter (see :func:`~combatkit.example_encounters`);
    ``encounter`` opens any other. ``seed`` seeds the dice nobody entered. ``options``
    go to the timing system's ``schedule`` (e.g. :class:`~combatkit.Phase1Options`).

    The declaration editor is Phase System I's (one action in each of phases 1-3, a d10
    per side), so the example list offers Phase System I encounters. A file written for
    another system still opens: the engine schedules it with that system and the chart
    draws it on that system's clock.
    """

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, *, encounter: Encounter | None = None, seed: int = 1,
                 options: Any = None) -> None:
        self.options = options
        self.encounter: Encounter | None = None
        """The last encounter that passed the engine's checks."""
        self.timeline: Timeline | None = None
        """Its round: what the chart and the why list show."""
        self.error = ""
        """What is wrong with the current input, or ``""``."""
        self.draft = EncounterDraft({}, {})
        self._quiet = Hush()
        self._spare_rolls: dict[str, int] = {}
        self._input_errors: dict[str, str] = {}
        self._current: int | None = None
        self._as_loaded: dict[str, Any] = {}

        self.heading = tag(widgets.HTML(), "heading")
        self.download = tag(widgets.HTML(), "download")
        self.picker = EncounterPicker(lambda encounter, _name: self._load(encounter),
                                      lambda error: self._show_error(error, in_draft=False),
                                      only=PHASE1.id, beside=[self.download])
        self.example = self.picker.example
        """The example dropdown (the picker's): what a link's ``example`` names."""

        self.initiative: dict[str, widgets.IntText] = {}
        self.initiative_box = tag(widgets.HBox(), "initiative")
        self.seed = tag(widgets.IntText(value=seed, description="seed", continuous_update=False,
                                        layout=widgets.Layout(width="140px"), style={"description_width": "34px"}),
                        "seed")
        self.roll = tag(widgets.Button(description=f"Roll {INITIATIVE_DICE}s", icon="dice",
                                       tooltip="Roll initiative for every side with this seed"), "roll")
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.why = tag(widgets.HTML(), "why")

        self.combatant = tag(widgets.Dropdown(description="Combatant", layout=widgets.Layout(width="300px")),
                             "combatant")
        self.add_combatant = tag(widgets.Button(description="Add", icon="plus",
                                                layout=widgets.Layout(width="80px")), "add-combatant")
        self.remove_combatant = tag(widgets.Button(description="Remove", icon="trash",
                                                   layout=widgets.Layout(width="95px")), "remove-combatant")
        small = {"description_width": "initial"}
        self.name = tag(widgets.Text(description="name", continuous_update=False, style=small,
                                     layout=widgets.Layout(width="190px")), "name")
        self.side = tag(widgets.Text(description="side", continuous_update=False, style=small,
                                     layout=widgets.Layout(width="150px")), "side")
        self.char_class = tag(widgets.Combobox(description="class", options=CLASSES, ensure_option=False,
                                               continuous_update=False, style=small,
                                               layout=widgets.Layout(width="160px")), "class")
        self.level = tag(widgets.IntText(description="level", continuous_update=False, style=small,
                                         layout=widgets.Layout(width="110px")), "level")
        self.dex = tag(widgets.IntText(description="DEX", continuous_update=False, style=small,
                                       layout=widgets.Layout(width="100px")), "dex")
        self.mv = tag(widgets.IntText(description="MV", continuous_update=False, style=small,
                                      layout=widgets.Layout(width="100px")), "mv")
        self.weapon = tag(widgets.Dropdown(description="Weapon", layout=widgets.Layout(width="240px")), "weapon")
        self.add_weapon = tag(widgets.Button(icon="plus", tooltip="Add a weapon",
                                             layout=widgets.Layout(width="36px")), "add-weapon")
        self.remove_weapon = tag(widgets.Button(icon="trash", tooltip="Remove this weapon",
                                                layout=widgets.Layout(width="36px")), "remove-weapon")
        self.weapon_name = tag(widgets.Text(description="name", continuous_update=False, style=small,
                                            layout=widgets.Layout(width="190px")), "weapon-name")
        self.weapon_sf = tag(widgets.IntText(description="SF", continuous_update=False, style=small,
                                             layout=widgets.Layout(width="90px")), "weapon-sf")
        self.weapon_magic = tag(widgets.IntText(description="magic +", continuous_update=False, style=small,
                                                layout=widgets.Layout(width="110px")), "weapon-magic")
        self.weapon_kind = tag(widgets.Dropdown(description="kind", options=[k.value for k in WeaponKind],
                                                style=small, layout=widgets.Layout(width="150px")), "weapon-kind")
        self.spell = tag(widgets.Dropdown(description="Spell", layout=widgets.Layout(width="240px")), "spell")
        self.add_spell = tag(widgets.Button(icon="plus", tooltip="Add a spell",
                                            layout=widgets.Layout(width="36px")), "add-spell")
        self.remove_spell = tag(widgets.Button(icon="trash", tooltip="Remove this spell",
                                               layout=widgets.Layout(width="36px")), "remove-spell")
        self.spell_name = tag(widgets.Text(description="name", continuous_update=False, style=small,
                                           layout=widgets.Layout(width="190px")), "spell-name")
        self.spell_ct = tag(widgets.Text(description="CT", continuous_update=False, style=small,
                                         placeholder='1-9 or "1 round"',
                                         layout=widgets.Layout(width="150px")), "spell-ct")
        self.hits = tag(widgets.Text(description="hit at half-segments", continuous_update=False, style=small,
                                     placeholder="e.g. 10, 14", layout=widgets.Layout(width="300px")), "hits")
        self.phases = [PhaseRow(phase) for phase in ATTACK_PHASES]

        first = encounter if encounter is not None else load_example(example or DEFAULT_EXAMPLE)
        self._load(first)
        if encounter is None:
            self.picker.select(example or DEFAULT_EXAMPLE)
        shown = self.timeline or Timeline(first.system, find_system(first.system).clock, ())
        frame = timeline_frame(shown)
        timeline_spec(frame, shown.clock)  # builds the reusable spec now, so the first edit redraws fast
        self.chart = tag(chart_view(timeline_chart(frame, shown.clock)), "chart")
        """The chart widget. Each redraw replaces its ``spec`` in place (``timeline_spec``, a few ms, where
        setting ``.chart`` would rebuild and revalidate the whole chart); ``.chart`` keeps the first round."""

        editor = tag(widgets.VBox([
            widgets.HTML("<b>Edit the encounter</b> (changes apply when you press Enter or leave a field)"),
            widgets.HBox([self.combatant, self.add_combatant, self.remove_combatant]),
            widgets.HBox([self.name, self.side, self.char_class, self.level, self.dex, self.mv]),
            widgets.HBox([self.weapon, self.add_weapon, self.remove_weapon, self.weapon_name, self.weapon_sf,
                         self.weapon_magic, self.weapon_kind]),
            widgets.HBox([self.spell, self.add_spell, self.remove_spell, self.spell_name, self.spell_ct]),
            self.hits,
            widgets.HTML("<b>Declarations</b> (000 §1 C: in each of phases 1-3 a combatant does one thing)"),
            *self.phases,
        ], layout=widgets.Layout(border="1px solid #d5d8dc", padding="6px", margin="8px 0")), "editor")
        super().__init__([
            self.heading,
            self.picker,
            widgets.HBox([widgets.HTML(f"<b>Initiative</b> ({INITIATIVE_DICE} per side, low wins):"),
                          self.initiative_box, self.seed, self.roll],
                         layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
            self.message,
            self.chart,
            editor,
            self.why,
        ])
        tag(self, "explorer")
        self._observe()

    # ------------------------------------------------------------ public

    @property
    def toml(self) -> str:
        """The last good encounter as an encounter file (what the download link holds)."""
        return dumps_toml(self.encounter)

    def save(self, path: str) -> None:
        """Write the last good encounter to ``path`` (``.toml`` or ``.json``)."""
        save_encounter(self.encounter, path)

    def show_encounter(self, encounter: Encounter) -> None:
        """Show ``encounter``, replacing whatever is being edited."""
        self.picker.select(None)
        self._load(encounter)

    def url_params(self) -> list[Param]:
        """The keys this explorer's URL carries (see :mod:`combatkit.widgets.urlstate`): the example, the
        seed and each side's initiative d10 (always written: an example file brings its own), and the
        Phase System I options."""
        return [
            control_param("example", self.example),
            int_param("seed", lambda: self.seed.value, self._set_seed, low=-(2**31), high=2**31 - 1),
            int_list_param("init", lambda: [box.value for box in self.initiative.values()], self._set_initiative,
                           low=1, high=10, most=12),
            *options_params(lambda: self.options or Phase1Options(), self.set_options),
        ]

    def set_options(self, options: Phase1Options) -> None:
        """Schedule the round with ``options`` from now on."""
        self.options = options
        self._refresh()

    def _set_seed(self, seed: int) -> None:
        self.seed.value = seed

    def _set_initiative(self, rolls: list[int]) -> None:
        for box, roll in zip(self.initiative.values(), rolls):
            box.value = roll

    def show_example(self, name: str) -> None:
        """Show the shipped example ``name``; an unknown name is reported, not raised."""
        self.picker.open_example(name)

    def url_caveat(self) -> str:
        """What a link to this view leaves out, in one sentence, or ``""`` for a shipped example as shipped.
        The link carries the seed and the initiative rolls, so changing those is not an edit."""
        return self.picker.url_caveat(edited=_linked_out(self.draft) != self._as_loaded)

    # ------------------------------------------------------------ wiring

    def _observe(self) -> None:
        self.seed.observe(self._on_seed, "value")
        self.roll.on_click(self._on_roll)
        self.combatant.observe(self._on_pick_combatant, "value")
        self.add_combatant.on_click(self._on_add_combatant)
        self.remove_combatant.on_click(self._on_remove_combatant)
        for attr, (key, _) in _COMBATANT_FIELDS.items():
            getattr(self, attr).observe(lambda change, key=key: self._on_combatant_field(key, change.new), "value")
        self.weapon.observe(lambda change: self._when_loud(self._show_weapon), "value")
        for attr, (key, _) in _WEAPON_FIELDS.items():
            getattr(self, attr).observe(lambda change, key=key: self._on_item_field("weapons", key, change.new),
                                        "value")
        self.spell.observe(lambda change: self._when_loud(self._show_spell), "value")
        for attr, (key, _) in _SPELL_FIELDS.items():
            getattr(self, attr).observe(lambda change, key=key: self._on_item_field("spells", key, change.new),
                                        "value")
        self.add_weapon.on_click(lambda _: self._on_add_item("weapons"))
        self.remove_weapon.on_click(lambda _: self._on_remove_item("weapons"))
        self.add_spell.on_click(lambda _: self._on_add_item("spells"))
        self.remove_spell.on_click(lambda _: self._on_remove_item("spells"))
        self.hits.observe(self._on_hits, "value")
        for row in self.phases:
            for control in row.controls:
                control.observe(lambda change, row=row: self._on_phase(row), "value")

    def _when_loud(self, action) -> None:
        if not self._quiet:
            with self._quiet():
                action()

    # ------------------------------------------------------------ loading

    def _load(self, encounter: Encounter) -> None:
        """Replace the draft with ``encounter`` and show it (it passed the reader's checks already)."""
        self.draft = EncounterDraft.from_encounter(encounter)
        self._input_errors.clear()
        self._spare_rolls.clear()
        with self._quiet():
            if encounter.seed is not None:
                self.seed.value = encounter.seed
            self.draft.meta["seed"] = self.seed.value
            self._current = next(iter(self.draft.combatants), None)
            self._sync_sides()
            self._show_combatants()
        self._as_loaded = _linked_out(self.draft)
        self._refresh()

    # ------------------------------------------------------------ initiative and seed

    def _sync_sides(self) -> None:
        """One entry per side, holding the d10 the side rolled (rolled with the seed if none was entered)."""
        rolls = self.draft.meta.setdefault("rolls", {})
        sides = self.draft.sides
        for key in [k for k in rolls if k.startswith("initiative: ") and k[12:] not in sides]:
            self._spare_rolls[key] = rolls.pop(key)
        roller = Roller(seed=self.seed.value)
        for side in sides:
            key = f"initiative: {side}"
            if key not in rolls:
                rolls[key] = self._spare_rolls.pop(key, None) or roller.roll(INITIATIVE_DICE, key).total
        if list(self.initiative) == sides:
            for side, box in self.initiative.items():
                box.value = rolls[f"initiative: {side}"]
            return
        for box in self.initiative.values():
            box.close()
        self.initiative = {}
        for side in sides:
            box = tag(widgets.IntText(value=rolls[f"initiative: {side}"], description=side or "(no side)",
                                      continuous_update=False, style={"description_width": "initial"},
                                      layout=widgets.Layout(width="150px")), "init", f"init-{slug(side, 'encounter')}")
            box.observe(lambda change, side=side: self._on_initiative(side, change.new), "value")
            self.initiative[side] = box
        self.initiative_box.children = tuple(self.initiative.values())

    def _on_initiative(self, side: str, value: int) -> None:
        if self._quiet:
            return
        self.draft.meta["rolls"][f"initiative: {side}"] = value
        self._refresh()

    def _on_seed(self, change) -> None:
        if self._quiet:
            return
        self.draft.meta["seed"] = change.new
        self._refresh()

    def _on_roll(self, _button) -> None:
        roller = Roller(seed=self.seed.value)
        with self._quiet():
            for side, box in self.initiative.items():
                key = f"initiative: {side}"
                box.value = self.draft.meta["rolls"][key] = roller.roll(INITIATIVE_DICE, key).total
            self.seed.value += 1
            self.draft.meta["seed"] = self.seed.value
        self._refresh()

    # ------------------------------------------------------------ the combatant panel

    def _combatant_options(self) -> list[tuple[str, int]]:
        return [(c.name or f"(no name #{n + 1})", ident) for n, (ident, c) in enumerate(self.draft.combatants.items())]

    def _show_combatants(self) -> None:
        """Fill the combatant panel from the draft (called quietly)."""
        self.combatant.options = self._combatant_options()
        self.combatant.value = self._current
        cd = self.draft.combatants.get(self._current)
        for attr, (key, default) in _COMBATANT_FIELDS.items():
            control = getattr(self, attr)
            control.value = cd.fields.get(key, default) if cd else default
            control.disabled = cd is None
        self.remove_combatant.disabled = cd is None
        for name in ("weapons", "spells"):
            items = getattr(cd, name) if cd else {}
            picker = self.weapon if name == "weapons" else self.spell
            picker.options = [(item.get("name") or "(no name)", ident) for ident, item in items.items()]
            picker.value = next(iter(items), None)
        self.hits.value = ", ".join(map(str, self.draft.hits_on(self._current))) if cd else ""
        self.hits.disabled = cd is None
        self._show_weapon()
        self._show_spell()
        self._show_phases()

    def _show_item(self, name: str) -> None:
        cd = self.draft.combatants.get(self._current)
        picker, fields = (self.weapon, _WEAPON_FIELDS) if name == "weapons" else (self.spell, _SPELL_FIELDS)
        item = getattr(cd, name).get(picker.value) if cd else None
        for attr, (key, default) in fields.items():
            control = getattr(self, attr)
            value = item.get(key, default) if item else default
            control.value = str(value) if isinstance(control, widgets.Text) else value
            control.disabled = item is None
        (self.remove_weapon if name == "weapons" else self.remove_spell).disabled = item is None
        (self.add_weapon if name == "weapons" else self.add_spell).disabled = cd is None

    def _show_weapon(self) -> None:
        self._show_item("weapons")

    def _show_spell(self) -> None:
        self._show_item("spells")

    def _show_phases(self) -> None:
        cd = self.draft.combatants.get(self._current)
        targets = [("no target", NONE)] + [(label, ident) for label, ident in self._combatant_options()
                                           if ident != self._current]
        for row in self.phases:
            d = self.draft.declaration(self._current, row.phase) if cd else None
            row.action.value = d["action"] if d else ""
            row.target.options = targets
            target = d.get("target") if d else None
            row.target.value = target if isinstance(target, int) and target in self.draft.combatants else NONE
            self._show_using(row, cd, d)
            row.reposition.value = bool(d and d.get("reposition"))
            row.retarget.value = bool(d and d.get("retarget"))
            row.note.value = d.get("note", "") if d else ""
            for control in row.controls:
                control.disabled = cd is None or (control is not row.action and d is None)

    def _show_using(self, row: PhaseRow, cd: CombatantDraft | None, d: dict[str, Any] | None) -> None:
        """The weapon (for an attack) or spell (for a cast) choices, and the one declared."""
        action = d["action"] if d else ""
        if cd is not None and action in ("attack", "cast"):
            items = cd.weapons if action == "attack" else cd.spells
            what = "weapon" if action == "attack" else "spell"
            first = next(iter(items.values()), {}).get("name", "none")
            row.using.options = [(f"first {what} ({first})", NONE)] + [(item.get("name") or "(no name)", ident)
                                                                       for ident, item in items.items()]
        else:
            row.using.options = [("—", NONE)]
        row.using.value = _shown_using(cd, d)

    def _on_pick_combatant(self, change) -> None:
        if self._quiet:
            return
        self._current = change.new
        with self._quiet():
            self._show_combatants()
        if self._input_errors.pop("hits", None):
            self._refresh()

    def _on_combatant_field(self, key: str, value: Any) -> None:
        if self._quiet or self._current is None:
            return
        self.draft.combatants[self._current].fields[key] = value
        with self._quiet():
            if key == "name":
                self._show_combatants()
            if key == "side":
                self._sync_sides()
        self._refresh()

    def _on_add_combatant(self, _button) -> None:
        sides = self.draft.sides
        count = len(self.draft.combatants) + 1
        self._current = self.draft.add_combatant({
            "name": f"Combatant {count}", "side": sides[0] if sides else "party", "class": _COMBATANT.char_class,
            "level": _COMBATANT.level, "dex": _COMBATANT.abilities.dexterity, "mv": _COMBATANT.movement,
        })
        self.draft.add_weapon(self._current, {"name": "long sword", "sf": 5, "damage": "d8"})
        with self._quiet():
            self._sync_sides()
            self._show_combatants()
        self._refresh()

    def _on_remove_combatant(self, _button) -> None:
        if self._current is None:
            return
        ids = list(self.draft.combatants)
        at = ids.index(self._current)
        self.draft.remove_combatant(self._current)
        rest = list(self.draft.combatants)
        self._current = rest[min(at, len(rest) - 1)] if rest else None
        with self._quiet():
            self._sync_sides()
            self._show_combatants()
        self._refresh()

    def _on_item_field(self, name: str, key: str, value: Any) -> None:
        if self._quiet or self._current is None:
            return
        picker = self.weapon if name == "weapons" else self.spell
        item = getattr(self.draft.combatants[self._current], name).get(picker.value)
        if item is None:
            return
        if key == "ct":
            text = str(value).strip()
            value = int(text) if re.fullmatch(r"[+-]?\d+", text) else text
        item[key] = value
        if key == "name":
            with self._quiet():
                ident = picker.value
                picker.options = [(i.get("name") or "(no name)", k)
                                  for k, i in getattr(self.draft.combatants[self._current], name).items()]
                picker.value = ident
                self._show_phases()
        self._refresh()

    def _on_add_item(self, name: str) -> None:
        if self._current is None:
            return
        cd = self.draft.combatants[self._current]
        if name == "weapons":
            ident = self.draft.add_weapon(self._current, {"name": f"weapon {len(cd.weapons) + 1}",
                                                          "sf": _WEAPON.speed_factor})
        else:
            ident = self.draft.add_spell(self._current, {"name": f"spell {len(cd.spells) + 1}",
                                                         "ct": _SPELL.casting_time})
        with self._quiet():
            self._show_combatants()
            (self.weapon if name == "weapons" else self.spell).value = ident
            self._show_item(name)
        self._refresh()

    def _on_remove_item(self, name: str) -> None:
        picker = self.weapon if name == "weapons" else self.spell
        if self._current is None or picker.value is None:
            return
        if name == "weapons":
            self.draft.remove_weapon(self._current, picker.value)
        else:
            self.draft.remove_spell(self._current, picker.value)
        with self._quiet():
            self._show_combatants()
        self._refresh()

    def _on_hits(self, change) -> None:
        if self._quiet or self._current is None:
            return
        tokens = [t for t in re.split(r"[,\s]+", change.new.strip()) if t]
        bad = [t for t in tokens if not re.fullmatch(r"\d+", t)]
        name = self.draft.combatants[self._current].name
        if bad:
            self._input_errors["hits"] = (f"hits on {name}: {bad[0]!r} is not a half-segment number; "
                                          f"write whole numbers like 10, 14 (not applied)")
        else:
            self._input_errors.pop("hits", None)
            self.draft.set_hits(self._current, sorted({int(t) for t in tokens}), source="entered in the explorer")
        self._refresh()

    # ------------------------------------------------------------ declarations

    def _on_phase(self, row: PhaseRow) -> None:
        if self._quiet or self._current is None:
            return
        target, using, note = row.target.value, row.using.value, row.note.value
        cd = self.draft.combatants[self._current]
        d = self.draft.declare(self._current, row.phase, row.action.value or None)
        if d is not None:
            _put(d, "target", None if target == NONE else target)
            if using != _shown_using(cd, d):  # a routine of several weapons stays until the choice changes
                if d["action"] == "attack":
                    _put(d, "weapons", [using] if using in cd.weapons else None)
                elif d["action"] == "cast":
                    _put(d, "spell", using if using in cd.spells else None)
            for flag in ("reposition", "retarget"):
                _put(d, flag, True if getattr(row, flag).value else None)
            _put(d, "note", note or None)
        with self._quiet():
            self._show_using(row, cd, d)
            for control in row.controls:
                control.disabled = control is not row.action and d is None
        self._refresh()

    # ------------------------------------------------------------ the engine

    def _refresh(self) -> None:
        """Rebuild the encounter, schedule its round and redraw; on bad input show why and keep the last good round."""
        try:
            encounter = self.draft.encounter()
            system = find_system(encounter.system)
            rolls = encounter.rolls
            if INITIATIVE_KEY not in system.roll_keys:  # the boxes' d10s are Phase System I's, not this system's
                rolls = {k: v for k, v in rolls.items() if not k.startswith("initiative: ")}
            timeline = system.schedule(encounter, Roller(seed=encounter.seed, entered=rolls), self.options)
        except ValueError as error:
            self._show_error(error)
            return
        self.encounter, self.timeline = encounter, timeline
        if hasattr(self, "chart"):
            self.chart.spec = timeline_spec(timeline_frame(timeline), timeline.clock)
        self.heading.value = _heading_html(encounter, system.title)
        self.why.value = _why_html(timeline)
        self.download.value = _download_html(encounter)
        self._show_error(None)

    def _show_error(self, error: ValueError | None, in_draft: bool = True) -> None:
        """Show ``error`` (and any entry that could not be read) above the chart, or hide the message."""
        lines = [self._describe(error, in_draft)] if error is not None else []
        lines += self._input_errors.values()
        self.error = "\n".join(lines)
        show_alert(self.message, "" if not lines else (
            f"<b>Not applied:</b>{bullets(lines)}The chart and the explanation still show the last round that "
            "worked; your input is kept so you can fix it."))

    def _describe(self, error: ValueError, in_draft: bool) -> str:
        """The engine's message; for the encounter being edited, a field path like ``combatants[1].dex``
        gets the combatant's name."""
        if isinstance(error, EncounterFileError):
            match = re.match(r"combatants\[(\d+)\]", error.field)
            names = [c.name for c in self.draft.combatants.values()] if in_draft else []
            who = f" ({names[int(match[1])]})" if match and int(match[1]) < len(names) else ""
            return f"{error.field}{who}: {error.message}"
        if isinstance(error, RulesError):
            return f"{error.message} (rule {error.rule})"
        return str(error)


def _linked_out(draft: EncounterDraft) -> dict[str, Any]:
    """The part of the encounter a link to the explorer does not carry: all but the seed and the rolls."""
    return {key: value for key, value in draft.to_dict().items() if key not in ("seed", "rolls")}


def _shown_using(cd: CombatantDraft | None, d: dict[str, Any] | None) -> int:
    """The weapon or spell id a declaration's "using" dropdown shows (NONE: the first one, or a name the
    combatant does not have, which the engine reports)."""
    if cd is None or d is None:
        return NONE
    if d["action"] == "attack":
        chosen, items = (d.get("weapons") or [NONE])[0], cd.weapons
    elif d["action"] == "cast":
        chosen, items = d.get("spell", NONE), cd.spells
    else:
        return NONE
    return chosen if chosen in items else NONE


def _put(table: dict[str, Any], key: str, value: Any) -> None:
    """Set ``table[key]``, or leave the key out (the file's default) when ``value`` is None."""
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value


def _heading_html(encounter: Encounter, system_title: str) -> str:
    description = html.escape(" ".join(encounter.description.split()))
    return (f"<h3 style='margin:4px 0'>{html.escape(encounter.title)}</h3>"
            f"<div style='color:#4d5656'>{html.escape(system_title)}. {description}</div>")


def _why_html(timeline: Timeline) -> str:
    """The round's notes, then one line per action in time order: when in bold, the rule in grey."""
    lines = timeline.why()
    notes, actions = lines[: len(timeline.notes)], lines[len(timeline.notes):]

    def action(text: str) -> str:
        when, _, rest = text.partition(": ")
        body, _, rule = rest.removesuffix("]").rpartition(" [")
        return (f"<li><b>{html.escape(when)}</b>: {html.escape(body)} "
                f"<span style='color:#7f8c8d'>[{html.escape(rule)}]</span></li>")

    items = "".join(action(a) for a in actions) or "<li>Nothing declared yet.</li>"
    return ("<div style='max-width:980px'><h4 style='margin:6px 0'>Why, step by step</h4>"
            f"<ul>{''.join(f'<li>{html.escape(n)}</li>' for n in notes)}</ul><ol>{items}</ol></div>")


def _download_html(encounter: Encounter) -> str:
    payload = base64.b64encode(dumps_toml(encounter).encode("utf-8")).decode("ascii")
    return (f"<a download='{slug(encounter.title, 'encounter')}.toml' href='data:application/toml;base64,{payload}' "
            "style='margin-left:12px'>Save this encounter (.toml)</a>")
