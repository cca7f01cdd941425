"""EncounterEditor: build or change an encounter in a timing system's own terms.

The one encounter editor of the dashboards: :class:`~combatkit.widgets.timeline.TimelineExplorer`
(Phase System I), :class:`~combatkit.widgets.system_timeline.SystemTimeline` (each other
system) and :class:`~combatkit.widgets.compare.SystemComparison` (all six) each hold one.
Every control writes into an :class:`~combatkit.widgets.draft.EncounterDraft` (the form's
working copy, which keeps whatever was typed) and then calls the view's ``on_change``; the
view rebuilds the encounter with the engine's reader, schedules it and redraws, or shows the
engine's message (:meth:`EncounterEditor.describe` names the combatant behind a field path).
An entry the form itself cannot read (a hit at "1x", a move of "ten" feet) is not applied and
is listed in :attr:`EncounterEditor.entry_errors` until it is fixed.

The declarations are the timing system's: one row per phase it has, labelled as it labels
them (:attr:`~combatkit.systems.TimingSystem.declaration_phases`: phases 1-3 of Phase System I,
phases A/B/C over three cycles of Phase System II, steps of a Segment of Action chain, phases
1-5 with Last Actions and morale in the five-phase system, a figure's actions in order in the
short form and Strike Speed), with the optional fields that system reads
(:attr:`~combatkit.systems.TimingSystem.declaration_fields`: a move's feet, a double attack,
Combat II's repositioning step...), a maneuver where the system gives one a meaning
(:attr:`~combatkit.systems.TimingSystem.maneuvers`: a charge, withdrawal or flight for a move;
a pummel, grapple or overbear for an attack), a note whose suggestions are the system's named actions
(:meth:`~combatkit.systems.TimingSystem.note_suggestions`: 001's list of actions, 002's action
types, 004's table rows) and a ``+`` for another action in
the same phase (a move and an attack, or attacks on several opponents, where the system allows
it). A field the system does not read is still shown while a declaration sets it (a file
written for another system), so nothing in force is hidden.

>>> changes = []
>>> editor = EncounterEditor(lambda: changes.append(1), find_system("segments"))
>>> editor.load(load_example("segments-fighters-vs-giant-and-orcs"))
>>> [row.label.value for row in editor.phases]
['<b>step 1</b>', '<b>step 2</b>', '<b>step 3</b>']
>>> editor.phases[1].action.value = "attack"
>>> [(d.actor, d.phase, d.kind.value) for d in editor.draft.encounter().declarations if d.phase == 2]
[('A', 2, 'attack')]
>>> len(changes)
1
"""

from __future__ import annotations

import base64
import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from combatkit.encounter import Encounter, dumps_toml, load_example, option_value, plain_option
from combatkit.errors import EncounterFileError, RulesError
from combatkit.model import ActionKind, Combatant, Length, Maneuver, Size, Spell, Weapon, WeaponKind
from combatkit.systems import SYSTEMS, TimingSystem, find_system
from combatkit.widgets.classes import slug, tag
from combatkit.widgets.draft import CombatantDraft, EncounterDraft
from combatkit.widgets.hush import Hush

__all__ = ["CLASSES", "EncounterEditor", "NONE", "PhaseRow", "describe_error", "download_html", "new_encounter",
           "saved_rolls", "with_options"]

NONE = 0
"""Dropdown value for "no target" / "the default weapon or spell" (draft ids start at 1)."""

CLASSES = ("fighter", "ranger", "paladin", "mage", "priest", "thief", "psionicist", "monster")
MOST_PHASES = 20
"""The highest declaration phase an encounter file takes."""

_COMBATANT = Combatant("-", "-")
_WEAPON = Weapon("-")
_SPELL = Spell("-")
_COMBATANT_FIELDS = {  # control attribute -> (file field, default)
    "name": ("name", ""),
    "side": ("side", ""),
    "char_class": ("class", _COMBATANT.char_class),
    "level": ("level", _COMBATANT.level),
    "size": ("size", _COMBATANT.size.value),
    "dex": ("dex", _COMBATANT.abilities.dexterity),
    "con": ("con", _COMBATANT.abilities.constitution),
    "mv": ("mv", _COMBATANT.movement),
    "ac": ("ac", _COMBATANT.armor_class),
    "thac0": ("thac0", _COMBATANT.thac0),
    "hp": ("hp", _COMBATANT.hit_points),
    "apr": ("attacks_per_round", 1),
    "surprised": ("surprised", _COMBATANT.surprised),
    "components_ready": ("components_ready", _COMBATANT.components_ready),
}
_WEAPON_FIELDS = {
    "weapon_name": ("name", ""),
    "weapon_sf": ("sf", _WEAPON.speed_factor),
    "weapon_magic": ("magic", _WEAPON.magic_bonus),
    "weapon_kind": ("kind", _WEAPON.kind.value),
    "weapon_length": ("length", _WEAPON.length.value),
    "weapon_damage": ("damage", _WEAPON.damage),
}
_SPELL_FIELDS = {
    "spell_name": ("name", ""),
    "spell_ct": ("ct", _SPELL.casting_time),
    "spell_level": ("level", _SPELL.level),
    "spell_components": ("components", _SPELL.components),
}
_NUMBER_TEXT = {"attacks_per_round", "ct"}
"""Text fields that hold a number when one is typed (``2``) and text otherwise (``3/2``, ``1 round``)."""

_FLAGS = {  # declaration field -> (label, width, the actions it belongs to)
    "reposition": ("reposition step", "125px", {"attack", "cast"}),
    "retarget": ("retarget", "85px", {"attack"}),
    "drop_and_draw": ("drop & draw", "105px", {"attack"}),
    "readies_components": ("readies components", "170px", {"misc"}),
}
_FIELD_ACTIONS = {"feet": {"move"}, "attacks": {"attack"}, "hold": {"cast"}} | {
    name: actions for name, (_, _, actions) in _FLAGS.items()}


def new_encounter(system: TimingSystem) -> Encounter:
    """A blank encounter to build on: two figures of two sides, each with a weapon, nothing declared."""
    from combatkit.encounter import encounter_from_dict

    sword = {"name": "long sword", "sf": 5, "length": "long", "damage": "d8"}
    return encounter_from_dict({
        "title": "New encounter", "system": system.id,
        "combatants": [{"name": "Fighter", "side": "party", "weapons": [sword]},
                       {"name": "Orc", "side": "foes", "class": "monster", "weapons": [sword]}],
    })


def with_options(encounter: Encounter, system: TimingSystem, options: Any) -> Encounter:
    """``encounter`` with ``options`` (``system``'s options dataclass; None leaves it as it is) as its own
    ``[options.<id>]``: each field that differs from the seed's default and that a file can hold.

    >>> from combatkit.systems import Phase2Options
    >>> with_options(load_example("phase2-tenth-level-caster"), find_system("phase2"),
    ...              Phase2Options(caster_delay_by_level=True)).options
    {'phase2': {'caster_delay_by_level': True}}
    """
    if options is None or not isinstance(options, system.options_class):
        return encounter
    table = {}
    for item in dataclasses.fields(options):
        value = getattr(options, item.name)
        if value == getattr(system.options_class(), item.name):
            continue
        try:
            table[item.name] = option_value(system.id, item.name, plain_option(value))
        except (ValueError, TypeError):  # a per-figure table: set in code, not in a file
            continue
    others = {sid: t for sid, t in encounter.options.items() if sid != system.id}
    return dataclasses.replace(encounter, options=others | ({system.id: table} if table else {}))


def saved_rolls(timeline: Any, by_dice: Mapping[tuple[str, str], Any], left: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers entered at the table that ``timeline``'s round used, by what each roll was for (what an
    encounter file's ``[rolls]`` holds): ``by_dice`` by purpose and dice (a dice entry's), ``left`` by
    purpose alone (the file's own that only its system takes)."""
    out: dict[str, Any] = {}
    for roll in timeline.rolls:
        if roll.entered:
            value = by_dice.get((roll.purpose, str(roll.dice)), left.get(roll.purpose))
            if value is not None:
                out[roll.purpose] = value
    return out


def describe_error(error: ValueError, names: Sequence[str] = ()) -> str:
    """The engine's message for a reader: a rule's message and its citation, a file field's path and what is
    wrong; with the combatants' ``names``, a path like ``combatants[1].dex`` names the combatant too.

    >>> describe_error(EncounterFileError("combatants[1].dex", "must be 1..25, got 40"), ["Brienne", "Mira"])
    'combatants[1].dex (Mira): must be 1..25, got 40'
    """
    if isinstance(error, EncounterFileError):
        match = re.match(r"combatants\[(\d+)\]", error.field)
        who = f" ({names[int(match[1])]})" if match and int(match[1]) < len(names) else ""
        return f"{error.field}{who}: {error.message}"
    if isinstance(error, RulesError):
        return f"{error.message} (rule {error.rule})"
    return str(error)


def download_html(encounter: Encounter, label: str = "Save this encounter (.toml)") -> str:
    """A link that downloads ``encounter`` as an encounter file (TOML), named after its title."""
    payload = base64.b64encode(dumps_toml(encounter).encode("utf-8")).decode("ascii")
    return (f"<a download='{slug(encounter.title, 'encounter')}.toml' href='data:application/toml;base64,{payload}' "
            f"style='margin-left:12px'>{label}</a>")


# ----------------------------------------------------------------- one declaration


class PhaseRow(widgets.HBox):
    """One declaration of one combatant: action, target, weapon or spell, the system's fields, note.

    ``index`` 0 is the phase's first declaration (its row has the ``+`` for another one).
    """

    def __init__(self, phase: int, label: str, index: int = 0) -> None:
        self.phase, self.index = phase, index
        small = widgets.Layout
        self.label = widgets.HTML(f"<b>{label}</b>" if index == 0 else "", layout=small(width="120px"))
        self.action = tag(widgets.Dropdown(options=[("—", "")] + [(k.value, k.value) for k in ActionKind],
                                           layout=small(width="92px")), "action")
        self.target = tag(widgets.Dropdown(options=[("no target", NONE)], layout=small(width="140px")), "target")
        self.using = tag(widgets.Dropdown(options=[("—", NONE)], layout=small(width="190px")), "using")
        self.feet = tag(widgets.Text(description="feet", placeholder="full", continuous_update=False,
                                     style={"description_width": "28px"}, tooltip="feet moved (empty: the system's "
                                     "default distance)", layout=small(width="100px")), "feet")
        self.double = tag(widgets.Checkbox(description="double attack", indent=False, layout=small(width="115px"),
                                           tooltip="two attacks in this phase (attacks = 2)"), "double")
        self.hold = tag(widgets.IntText(description="hold", continuous_update=False, style={"description_width": "30px"},
                                        tooltip="CT units a completed spell is held", layout=small(width="95px")),
                        "hold")
        self.flags: dict[str, widgets.Checkbox] = {}
        for name, (text, width, _) in _FLAGS.items():
            self.flags[name] = tag(widgets.Checkbox(description=text, indent=False, layout=small(width=width)),
                                   name.replace("_", "-"))
        self.reposition, self.retarget = self.flags["reposition"], self.flags["retarget"]
        self.maneuver = tag(widgets.Dropdown(options=[("no maneuver", "")], layout=small(width="125px"),
                                             tooltip="a charge, withdrawal or flight (a move); a pummel, grapple "
                                                     "or overbear (an attack)"), "maneuver")
        self.note = tag(widgets.Combobox(placeholder="note", ensure_option=False, continuous_update=False,
                                         layout=small(width="200px")), "note")
        self.add = tag(widgets.Button(icon="plus", tooltip="Another action in this phase (e.g. a move and an attack, "
                                      "or attacks on several opponents, where the system allows it)",
                                      layout=small(width="36px", visibility="visible" if index == 0 else "hidden")),
                       "add-declaration")
        self.fields = {"feet": self.feet, "attacks": self.double, "hold": self.hold, **self.flags}
        """The optional declaration fields' controls, by file field."""
        super().__init__([self.label, self.action, self.target, self.using, self.maneuver, self.feet, self.double,
                          *self.flags.values(), self.hold, self.note, self.add],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        tag(self, "phase", f"phase-{phase}" if index == 0 else f"phase-{phase}-{index + 1}")

    @property
    def controls(self) -> tuple[widgets.ValueWidget, ...]:
        return self.action, self.target, self.using, self.maneuver, *self.fields.values(), self.note


# ----------------------------------------------------------------- the editor


class EncounterEditor(widgets.VBox):
    """The combatants, their weapons and spells, reported hits and every declaration, in ``system``'s terms.

    ``on_change()`` is called after every edit (the view rebuilds and redraws); ``on_new(encounter)``
    (optional: a "New encounter" button) opens a blank encounter. With ``choose_system`` a "written
    for" dropdown sets the encounter's own system, and the declarations follow its terms.
    """

    def __init__(self, on_change: Callable[[], None], system: TimingSystem, *,
                 on_new: Callable[[Encounter], None] | None = None, choose_system: bool = False) -> None:
        self.system = system
        """Whose terms the declarations are in."""
        self.draft = EncounterDraft({}, {})
        """The working copy."""
        self.entry_errors: dict[str, str] = {}
        """Entries the form could not read (not applied), by what they are."""
        self._on_change = on_change
        self._quiet = Hush()
        self._current: int | None = None
        self._as_loaded: dict[str, Any] = {}
        self._spare: set[int] = set()
        self._rows: dict[int, list[PhaseRow]] = {}
        self._blocks: dict[int, widgets.VBox] = {}

        small = {"description_width": "initial"}
        lay = widgets.Layout

        def text(name: str, description: str, width: str, **kw: Any) -> widgets.Text:
            return tag(widgets.Text(description=description, continuous_update=False, style=small,
                                    layout=lay(width=width), **kw), name)

        def number(name: str, description: str, width: str) -> widgets.IntText:
            return tag(widgets.IntText(description=description, continuous_update=False, style=small,
                                       layout=lay(width=width)), name)

        self.title = text("title", "title", "520px")
        self.written_for = tag(widgets.Dropdown(description="written for", style=small, layout=lay(width="330px"),
                                                options=[(s.title, s.id) for s in SYSTEMS.values()]), "written-for")
        self.new = tag(widgets.Button(description="New encounter", icon="file",
                                      tooltip="Start from two figures and no declarations"), "new-encounter")
        self.combatant = tag(widgets.Dropdown(description="Combatant", layout=lay(width="300px")), "combatant")
        self.add_combatant = tag(widgets.Button(description="Add", icon="plus", layout=lay(width="80px")),
                                 "add-combatant")
        self.remove_combatant = tag(widgets.Button(description="Remove", icon="trash", layout=lay(width="95px")),
                                    "remove-combatant")
        self.name = text("name", "name", "190px")
        self.side = text("side", "side", "150px")
        self.char_class = tag(widgets.Combobox(description="class", options=CLASSES, ensure_option=False,
                                               continuous_update=False, style=small, layout=lay(width="160px")),
                              "class")
        self.level = number("level", "level", "110px")
        self.size = tag(widgets.Dropdown(description="size", options=[s.value for s in Size], style=small,
                                         layout=lay(width="150px")), "size")
        self.dex = number("dex", "DEX", "100px")
        self.con = number("con", "CON", "100px")
        self.mv = number("mv", "MV", "100px")
        self.ac = number("ac", "AC", "90px")
        self.thac0 = number("thac0", "THAC0", "115px")
        self.hp = number("hp", "HP", "95px")
        self.apr = text("apr", "attacks/round", "165px", placeholder="1, 2 or 3/2")
        self.surprised = tag(widgets.Checkbox(description="surprised", indent=False, layout=lay(width="95px")),
                             "surprised")
        self.components_ready = tag(widgets.Checkbox(description="components in hand", indent=False,
                                                     layout=lay(width="160px")), "components-ready")
        self.weapon = tag(widgets.Dropdown(description="Weapon", layout=lay(width="240px")), "weapon")
        self.add_weapon = tag(widgets.Button(icon="plus", tooltip="Add a weapon", layout=lay(width="36px")),
                              "add-weapon")
        self.remove_weapon = tag(widgets.Button(icon="trash", tooltip="Remove this weapon", layout=lay(width="36px")),
                                 "remove-weapon")
        self.weapon_name = text("weapon-name", "name", "190px")
        self.weapon_sf = number("weapon-sf", "SF", "90px")
        self.weapon_magic = number("weapon-magic", "magic +", "110px")
        self.weapon_kind = tag(widgets.Dropdown(description="kind", options=[k.value for k in WeaponKind],
                                                style=small, layout=lay(width="150px")), "weapon-kind")
        self.weapon_length = tag(widgets.Dropdown(description="length", options=[k.value for k in Length],
                                                  style=small, layout=lay(width="165px")), "weapon-length")
        self.weapon_damage = text("weapon-damage", "damage", "140px")
        self.spell = tag(widgets.Dropdown(description="Spell", layout=lay(width="240px")), "spell")
        self.add_spell = tag(widgets.Button(icon="plus", tooltip="Add a spell", layout=lay(width="36px")), "add-spell")
        self.remove_spell = tag(widgets.Button(icon="trash", tooltip="Remove this spell", layout=lay(width="36px")),
                                "remove-spell")
        self.spell_name = text("spell-name", "name", "190px")
        self.spell_ct = text("spell-ct", "CT", "150px", placeholder='1-9 or "1 round"')
        self.spell_level = number("spell-level", "level", "100px")
        self.spell_components = text("spell-components", "components", "170px", placeholder="V,S,M")
        self.hits = text("hits", "hit at", "300px")
        self.phases: list[PhaseRow] = []
        """The first declaration row of each phase, from phase 1."""
        self.phase_box = tag(widgets.VBox(), "declarations")
        self.phase_heading = widgets.HTML()

        self._choose_system = choose_system
        self._on_new = on_new
        top = [self.title] + ([self.written_for] if choose_system else []) + ([self.new] if on_new else [])
        wrap = lay(flex_flow="row wrap", align_items="center")
        super().__init__([
            widgets.HTML("<b>Edit the encounter</b> (changes apply when you press Enter or leave a field)"),
            widgets.HBox(top, layout=wrap),
            widgets.HBox([self.combatant, self.add_combatant, self.remove_combatant], layout=wrap),
            widgets.HBox([self.name, self.side, self.char_class, self.level, self.size], layout=wrap),
            widgets.HBox([self.dex, self.con, self.mv, self.ac, self.thac0, self.hp, self.apr, self.surprised,
                          self.components_ready], layout=wrap),
            widgets.HBox([self.weapon, self.add_weapon, self.remove_weapon, self.weapon_name, self.weapon_sf,
                          self.weapon_magic, self.weapon_kind, self.weapon_length, self.weapon_damage], layout=wrap),
            widgets.HBox([self.spell, self.add_spell, self.remove_spell, self.spell_name, self.spell_ct,
                          self.spell_level, self.spell_components], layout=wrap),
            self.hits,
            self.phase_heading,
            self.phase_box,
        ], layout=lay(border="1px solid #d5d8dc", padding="6px", margin="8px 0"))
        tag(self, "editor")
        self._describe_system()
        self._observe()

    # ------------------------------------------------------------ public

    def load(self, encounter: Encounter, system: TimingSystem | None = None) -> None:
        """Edit ``encounter`` from now on (in ``system``'s terms, if given); no ``on_change``."""
        self.draft = EncounterDraft.from_encounter(encounter)
        self._as_loaded = _linked_out(self.draft)
        self.entry_errors.clear()
        self._spare.clear()
        if system is not None:
            self.system = system
        with self._quiet():
            self.title.value = encounter.title
            self.written_for.value = encounter.system if encounter.system in SYSTEMS else None
            self._current = next(iter(self.draft.combatants), None)
            self._describe_system()
            self._show_combatants()

    def set_system(self, system: TimingSystem) -> None:
        """Label and fill the declarations in ``system``'s terms; no ``on_change``."""
        self.system = system
        with self._quiet():
            self._describe_system()
            self._show_phases()

    @property
    def edited(self) -> bool:
        """Whether the encounter differs from the one loaded in more than its seed and its rolls (which a
        link carries; the rest it cannot)."""
        return _linked_out(self.draft) != self._as_loaded

    def pick(self, name: str) -> None:
        """Show the combatant called ``name`` in the panel."""
        self.combatant.value = self.draft.find(name)

    def describe(self, error: ValueError) -> str:
        """The engine's message for the person editing (:func:`describe_error`): a field path like
        ``combatants[1].dex`` gets the name of that combatant of the draft."""
        return describe_error(error, [c.name for c in self.draft.combatants.values()])

    # ------------------------------------------------------------ wiring

    def _observe(self) -> None:
        self.title.observe(lambda change: self._on_meta("title", change.new or "Untitled encounter"), "value")
        self.written_for.observe(self._on_written_for, "value")
        self.new.on_click(lambda _: self._on_new and self._on_new(new_encounter(self.system)))
        self.combatant.observe(self._on_pick_combatant, "value")
        self.add_combatant.on_click(self._on_add_combatant)
        self.remove_combatant.on_click(self._on_remove_combatant)
        for attr, (key, _) in _COMBATANT_FIELDS.items():
            getattr(self, attr).observe(lambda change, key=key: self._on_combatant_field(key, change.new), "value")
        self.weapon.observe(lambda change: self._when_loud(lambda: self._show_item("weapons")), "value")
        for attr, (key, _) in _WEAPON_FIELDS.items():
            getattr(self, attr).observe(lambda change, key=key: self._on_item_field("weapons", key, change.new),
                                        "value")
        self.spell.observe(lambda change: self._when_loud(lambda: self._show_item("spells")), "value")
        for attr, (key, _) in _SPELL_FIELDS.items():
            getattr(self, attr).observe(lambda change, key=key: self._on_item_field("spells", key, change.new),
                                        "value")
        self.add_weapon.on_click(lambda _: self._on_add_item("weapons"))
        self.remove_weapon.on_click(lambda _: self._on_remove_item("weapons"))
        self.add_spell.on_click(lambda _: self._on_add_item("spells"))
        self.remove_spell.on_click(lambda _: self._on_remove_item("spells"))
        self.hits.observe(self._on_hits, "value")

    def _when_loud(self, action: Callable[[], None]) -> None:
        if not self._quiet:
            with self._quiet():
                action()

    def _changed(self) -> None:
        self._on_change()

    def _describe_system(self) -> None:
        system = self.system
        self.hits.description = f"hit at {system.hit_tick}s"
        self.hits.placeholder = "e.g. 10, 14"
        self.hits.tooltip = (f"hits the referee reports on this figure, by {system.hit_tick} on {system.title}'s "
                             "clock: a hit spoils a spell being cast")
        self.phase_heading.value = (f"<b>Declarations</b>, as {system.title} reads them ({system.source}): one row "
                                    f"per {_phase_word(system)}; <b>+</b> adds another action in the same one")

    def _on_meta(self, key: str, value: Any) -> None:
        if not self._quiet:
            self.draft.meta[key] = value
            self._changed()

    def _on_written_for(self, change) -> None:
        if self._quiet or change.new is None:
            return
        self.draft.meta["system"] = change.new
        if self._choose_system:
            self.set_system(find_system(change.new))
        self._changed()

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
            value = cd.fields.get(key, default) if cd else default
            control.value = str(value) if isinstance(control, widgets.Text) else value
            control.disabled = cd is None
        self.remove_combatant.disabled = cd is None
        for name in ("weapons", "spells"):
            items = getattr(cd, name) if cd else {}
            picker = self.weapon if name == "weapons" else self.spell
            picker.options = [(item.get("name") or "(no name)", ident) for ident, item in items.items()]
            picker.value = next(iter(items), None)
        self.hits.value = ", ".join(map(str, self.draft.hits_on(self._current))) if cd else ""
        self.hits.disabled = cd is None
        self._show_item("weapons")
        self._show_item("spells")
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

    def _on_pick_combatant(self, change) -> None:
        if self._quiet:
            return
        self._current = change.new
        self._spare.clear()
        with self._quiet():
            self._show_combatants()
        if self.entry_errors:  # what was typed for the last combatant went with its panel
            self.entry_errors.clear()
            self._changed()

    def _on_combatant_field(self, key: str, value: Any) -> None:
        if self._quiet or self._current is None:
            return
        fields = self.draft.combatants[self._current].fields
        if key in _NUMBER_TEXT:
            _put(fields, key, _number_or_text(value))
        else:
            fields[key] = value
        if key == "name":
            with self._quiet():
                self._show_combatants()
        self._changed()

    def _on_add_combatant(self, _button) -> None:
        sides = self.draft.sides
        count = len(self.draft.combatants) + 1
        self._current = self.draft.add_combatant({
            "name": f"Combatant {count}", "side": sides[0] if sides else "party", "class": _COMBATANT.char_class,
            "level": _COMBATANT.level, "dex": _COMBATANT.abilities.dexterity, "mv": _COMBATANT.movement,
        })
        self.draft.add_weapon(self._current, {"name": "long sword", "sf": 5, "length": "long", "damage": "d8"})
        self._spare.clear()
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _on_remove_combatant(self, _button) -> None:
        if self._current is None:
            return
        ids = list(self.draft.combatants)
        at = ids.index(self._current)
        self.draft.remove_combatant(self._current)
        rest = list(self.draft.combatants)
        self._current = rest[min(at, len(rest) - 1)] if rest else None
        self._spare.clear()
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _on_item_field(self, name: str, key: str, value: Any) -> None:
        if self._quiet or self._current is None:
            return
        picker = self.weapon if name == "weapons" else self.spell
        item = getattr(self.draft.combatants[self._current], name).get(picker.value)
        if item is None:
            return
        if key in _NUMBER_TEXT:
            value = _number_or_text(value)
        _put(item, key, value)
        if key == "name":
            with self._quiet():
                ident = picker.value
                picker.options = [(i.get("name") or "(no name)", k)
                                  for k, i in getattr(self.draft.combatants[self._current], name).items()]
                picker.value = ident
                self._show_phases()
        self._changed()

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
        self._changed()

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
        self._changed()

    def _on_hits(self, change) -> None:
        if self._quiet or self._current is None:
            return
        tokens = [t for t in re.split(r"[,\s]+", change.new.strip()) if t]
        bad = [t for t in tokens if not re.fullmatch(r"\d+", t)]
        name = self.draft.combatants[self._current].name
        if bad:
            self.entry_errors["hits"] = (f"hits on {name}: {bad[0]!r} is not a {self.system.hit_tick} number; "
                                         f"write whole numbers like 10, 14 (not applied)")
        else:
            self.entry_errors.pop("hits", None)
            self.draft.set_hits(self._current, sorted({int(t) for t in tokens}), source="entered in the editor")
        self._changed()

    # ------------------------------------------------------------ declarations

    def _labels(self) -> list[str]:
        """One label per phase row: the system's, then "phase N" for any later phase a declaration uses."""
        labels = list(self.system.declaration_phases) or ["phase 1"]
        last = min(self.draft.last_phase, MOST_PHASES)
        return labels + [f"phase {p}" for p in range(len(labels) + 1, last + 1)]

    def _row(self, phase: int, index: int, label: str) -> PhaseRow:
        rows = self._rows.setdefault(phase, [])
        while len(rows) <= index:
            row = PhaseRow(phase, label, len(rows))
            for control in row.controls:
                control.observe(lambda change, row=row: self._on_row(row, change), "value")
            row.add.on_click(lambda _, row=row: self._on_add_declaration(row.phase))
            rows.append(row)
        row = rows[index]
        if index == 0:
            row.label.value = f"<b>{label}</b>"
        return row

    def _show_phases(self) -> None:
        """One block per phase: a row per declaration of the current combatant, at least one (called quietly).
        Blocks and rows are kept and refilled, never rebuilt: a page keeps the controls it shows (a box whose
        children change redraws every child after the first change)."""
        cd = self.draft.combatants.get(self._current)
        targets = [("no target", NONE)] + [(label, ident) for label, ident in self._combatant_options()
                                           if ident != self._current]
        blocks = []
        self.phases = []
        for phase, label in enumerate(self._labels(), 1):
            found = self.draft.declarations_of(self._current, phase) if cd else []
            shown = [self._row(phase, i, label) for i in range(max(1, len(found) + (phase in self._spare)))]
            for row, d in zip(shown, found + [None] * len(shown)):
                row.target.options = targets
                self._show_row(row, cd, d)
            self.phases.append(shown[0])
            block = self._blocks.setdefault(phase, tag(widgets.VBox(), "phase-block"))
            block.children = tuple(shown)
            blocks.append(block)
        self.phase_box.children = tuple(blocks)

    def _show_row(self, row: PhaseRow, cd: CombatantDraft | None, d: dict[str, Any] | None) -> None:
        """Fill one row from its declaration (None: empty)."""
        row.action.value = d["action"] if d else ""
        target = d.get("target") if d else None
        row.target.value = target if isinstance(target, int) and target in self.draft.combatants else NONE
        self._show_using(row, cd, d)
        if (row.phase, row.index) not in self._feet_errors():
            row.feet.value = str(d["feet"]) if d and d.get("feet") is not None else ""
        row.double.value = bool(d and d.get("attacks", 1) == 2)
        row.hold.value = int(d.get("hold", 0)) if d and isinstance(d.get("hold", 0), int) else 0
        for name, box in row.flags.items():
            box.value = bool(d and d.get(name))
        row.note.value = d.get("note", "") if d else ""
        self._show_fields(row, cd, d)

    def _feet_errors(self) -> set[tuple[int, int]]:
        return {(int(m[1]), int(m[2])) for key in self.entry_errors if (m := re.fullmatch(r"feet (\d+) (\d+)", key))}

    def _show_fields(self, row: PhaseRow, cd: CombatantDraft | None, d: dict[str, Any] | None) -> None:
        """Show the fields this system reads for the row's action, and any the declaration sets."""
        action = d["action"] if d else ""
        for name, control in row.fields.items():
            shown = d is not None and ((name in self.system.declaration_fields and action in _FIELD_ACTIONS[name])
                                       or _set(d, name) or (name == "feet" and (row.phase, row.index)
                                                             in self._feet_errors()))
            control.layout.display = None if shown else "none"
            control.disabled = not shown
        declared = d.get("maneuver", "") if d else ""
        offered = [m for m in Maneuver if m.kind.value == action and (m in self.system.maneuvers or m.value == declared)]
        row.maneuver.options = [("no maneuver", "")] + [(m.value, m.value) for m in offered]
        row.maneuver.value = declared if declared in (m.value for m in offered) else ""
        row.maneuver.layout.display = None if d is not None and offered else "none"
        row.maneuver.disabled = d is None or not offered
        maneuver = Maneuver(row.maneuver.value) if row.maneuver.value else None
        row.note.options = self.system.note_suggestions(ActionKind(action), maneuver) if action else []
        for control in (row.action, row.target, row.using, row.note):
            control.disabled = cd is None or (control is not row.action and d is None)
        row.add.disabled = d is None

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

    def _on_add_declaration(self, phase: int) -> None:
        if self._current is None:
            return
        self._spare.add(phase)
        with self._quiet():
            self._show_phases()

    def _on_row(self, row: PhaseRow, change) -> None:
        if self._quiet or self._current is None:
            return
        cd = self.draft.combatants[self._current]
        before = self.draft.declaration(self._current, row.phase, row.index)
        had = before["action"] if before else None
        d = self.draft.declare(self._current, row.phase, row.action.value or None, row.index)
        if d is not None:
            if change.owner is row.action and had is None:  # a new declaration: what the row showed is stale
                self._spare.discard(row.phase)
            else:
                self._read_row(row, cd, d)
        if change.owner is row.action and (d is None or had is None):  # rows come and go
            with self._quiet():
                self._show_phases()
        else:
            with self._quiet():
                self._show_using(row, cd, d)
                self._show_fields(row, cd, d)
        self._changed()

    def _read_row(self, row: PhaseRow, cd: CombatantDraft, d: dict[str, Any]) -> None:
        """Write the row's controls into its declaration."""
        target, using = row.target.value, row.using.value
        _put(d, "target", None if target == NONE else target)
        if using != _shown_using(cd, d):  # a routine of several weapons stays until the choice changes
            if d["action"] == "attack":
                _put(d, "weapons", [using] if using in cd.weapons else None)
            elif d["action"] == "cast":
                _put(d, "spell", using if using in cd.spells else None)
        key = f"feet {row.phase} {row.index}"
        text = row.feet.value.strip()
        if text and not re.fullmatch(r"\d+", text):
            self.entry_errors[key] = (f"{cd.name}, {self._labels()[row.phase - 1]}: {text!r} is not a number of "
                                      "feet; write a whole number like 30, or leave it empty (not applied)")
        else:
            self.entry_errors.pop(key, None)
            _put(d, "feet", int(text) if text else None)
        _put(d, "attacks", 2 if row.double.value else None)
        _put(d, "hold", row.hold.value or None)
        for name, box in row.flags.items():
            _put(d, name, True if box.value else None)
        maneuver = row.maneuver.value
        _put(d, "maneuver", maneuver if maneuver and Maneuver(maneuver).kind.value == d["action"] else None)
        _put(d, "note", row.note.value or None)


def _linked_out(draft: EncounterDraft) -> dict[str, Any]:
    """The part of an encounter a link to a view does not carry: all but the seed and the rolls."""
    return {key: value for key, value in draft.to_dict().items() if key not in ("seed", "rolls")}


def _phase_word(system: TimingSystem) -> str:
    """What one declaration row stands for: ``"phase"``, ``"step"`` or ``"action"``."""
    return (system.declaration_phases or ("phase 1",))[0].split(" ", 1)[0]


def _set(d: dict[str, Any], name: str) -> bool:
    value = d.get(name)
    return value is not None and value is not False and value != 0 and not (name == "attacks" and value == 1)


def _number_or_text(value: Any) -> Any:
    """A typed number as a number (``"2"`` -> 2), other text as text, empty as None (the file's default)."""
    text = str(value).strip()
    if not text:
        return None
    return int(text) if re.fullmatch(r"[+-]?\d+", text) else text


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
