"""RosterTable: every figure of an encounter on one line, edited in place (#48).

The table of who is in the fight, shown by the encounter editor
(:class:`~combatkit.widgets.views.editor.EncounterEditor`) and by encounter prep as its roster: a line per figure
with the fields declared for it (:attr:`FieldSpec.roster <combatkit.fields.FieldSpec.roster>`: name, side, level,
hit points, AC, THAC0, DEX, MV) and its class, its first weapon's name, SF and damage (the one it strikes with
unless told), its other weapons, its spells and what it means to do this round, in words
(:meth:`Intent.words <combatkit.intent.Intent.words>`); at its head, **edit** (the figure in the editor's form, for
its weapons, spells and intents), **Duplicate** and **Remove**. A figure with no weapon shows blank boxes that say what it
fights with instead (its fists), and typing in one gives it a first weapon.

The table only shows a draft and says what was typed: each edit goes to a callback, whose owner writes it into the
draft. The lines are kept and refilled in order when the draft changes, never closed, so a page keeps the controls it
shows; the figure shown in the editor's form is marked.

>>> from combatkit import load_example
>>> from combatkit.widgets.state.draft import EncounterDraft
>>> typed = []
>>> table = RosterTable(on_field=lambda *edit: typed.append(edit))
>>> draft = EncounterDraft.from_encounter(load_example("orc-closes-on-longbowman"))
>>> table.show(draft)
>>> [(row.fields["name"].value, row.fields["hp"].value, row.weapon["name"].value) for row in table.rows]
[('Aldric', 22, 'longbow'), ('Grishnak', 6, 'short sword')]
>>> intent_words(draft)[table.rows[1].ident]
['move toward Aldric', 'attack Aldric']
>>> table.rows[1].fields["hp"].value = 3
>>> typed == [(table.rows[1].ident, "hp", 3)]
True
"""

from __future__ import annotations

import enum
import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from combatkit.errors import is_whole
from combatkit.fields import Declared, declared
from combatkit.intent import Intent
from combatkit.model import FISTS, Abilities, Combatant, Maneuver, Weapon
from combatkit.widgets.state.draft import CombatantDraft, EncounterDraft
from combatkit.widgets.views.classes import tag
from combatkit.widgets.views.hush import Hush

__all__ = ["EMPTY", "ROW_FIELDS", "WEAPON_FIELDS", "CombatantRow", "RosterTable", "intent_words", "shown"]

ROW_FIELDS = tuple(sorted((d for d in declared(Combatant, Abilities) if d.spec.roster), key=lambda d: d.spec.roster))
"""A figure's columns, as declared once in :mod:`combatkit.model` (:attr:`FieldSpec.roster
<combatkit.fields.FieldSpec.roster>`)."""
WEAPON_FIELDS = tuple(sorted((d for d in declared(Weapon) if d.spec.roster), key=lambda d: d.spec.roster))
"""Its first weapon's columns."""
EMPTY = ("No figures yet: type a monster or a class and level in <i>From the books</i> (<code>goblin</code>, "
         "<code>6 goblins</code>, <code>fighter 3</code>) and press Enter, or pick one from its list.")
"""What the table says while the encounter has no one in it."""

_WIDTHS = {"name": "115px", "side": "90px", "class": "75px", "level": "50px", "hp": "52px", "ac": "48px",
           "thac0": "56px", "dex": "48px", "mv": "48px", "weapon name": "110px", "weapon sf": "60px",
           "weapon damage": "62px", "weapons": "105px", "spells": "120px", "intents": "215px"}
"""A column's width by its key (a figure's file field, ``weapon <field>`` for its first weapon's; others: 52px)."""
_HEADINGS = {"weapon name": "first weapon", "weapons": "other weapons", "intents": "means to do"}
_TAGS = {"weapon name": "c-weapon"}
"""A column's class where it is not ``c-<field>`` (``c-sf`` for the first weapon's SF)."""
_FISTS_SHOWN = {"name": "fists", "sf": "by size", "damage": FISTS.damage}
"""What the first-weapon boxes of a figure with no weapon show, greyed: what it fights with instead."""
_UNARMED = ("No weapon: it fights with its fists (002 Unarmed Combat: a pummel, 1d2; SF by its size, 000 Table 2). "
            "Type a name, SF or damage to give it a first weapon.")
_TEXT = "color:#4d5656;white-space:normal;line-height:1.3"


def _cell(key: str) -> widgets.Layout:
    """A column's cell: its width, neither shrinking nor growing, so every line lines up under the header."""
    width = _WIDTHS.get(key, "52px")
    return widgets.Layout(width=width, min_width=width, flex="0 0 auto")


def _button() -> widgets.Layout:
    """A line's button's cell (and the header's over it)."""
    return widgets.Layout(width="34px", min_width="34px", flex="0 0 auto")


def intent_words(draft: EncounterDraft) -> dict[int, list[str]]:
    """What each figure of ``draft`` means to do, in order, in words (:meth:`Intent.words
    <combatkit.intent.Intent.words>`), by its id; an intent the engine would refuse as it stands (a move away from no
    one) is said by what it does."""
    written = draft.to_dict().get("intents", [])
    said: dict[int, list[str]] = {}
    for table, item in zip(draft.intents, written):
        if isinstance(table["actor"], int):
            said.setdefault(table["actor"], []).append(_words(item))
    return said


def _words(item: Mapping[str, Any]) -> str:
    """An intent of a file (names in place of ids) in words."""
    try:
        maneuver = Maneuver(item["maneuver"]) if item.get("maneuver") else None
        return Intent(str(item["actor"]), item["do"], target=item.get("target"), away=bool(item.get("away", False)),
                      feet=item.get("feet"), maneuver=maneuver, weapons=tuple(item.get("weapons", ())),
                      blows=item.get("blows"), spell=item.get("spell"), item=item.get("item"),
                      action=item.get("action"), note=item.get("note", "")).words()
    except ValueError:
        return str(item.get("do", ""))


def _listed(lines: Sequence[str], numbered: bool = False) -> str:
    """Lines as a cell's text: each on its own line (numbered from 1 if asked), or a dash for none."""
    if not lines:
        return f"<span style='{_TEXT}'>—</span>"
    shown = [f"{n}. {html.escape(line)}" if numbered else html.escape(line) for n, line in enumerate(lines, 1)]
    return f"<div style='{_TEXT}'>{'<br>'.join(shown)}</div>"


class CombatantRow(widgets.HBox):
    """One figure's line: its declared fields (:attr:`fields`), its class, its first weapon (:attr:`weapon`: a
    weapon's boxes, or blank boxes that say "fists" when it has none), its other weapons, spells and intents, and its
    buttons. A line shows one figure after another as the table refills it (:meth:`fill`)."""

    def __init__(self, ident: int, combatant: CombatantDraft, intents: Sequence[str] = ()) -> None:
        self.ident = ident
        """The id of the figure shown, in the :class:`~combatkit.widgets.state.draft.EncounterDraft`."""
        self.armed = True
        """Whether the figure shown has a weapon (its weapon's boxes are shown, else the blank ones)."""
        self.fields: dict[str, widgets.ValueWidget] = {d.spec.file: _field_control(d) for d in ROW_FIELDS}
        """The figure's own fields by file field (``name``, ``hp``, ``ac``...)."""
        self.boxes: dict[bool, dict[str, widgets.ValueWidget]] = {
            armed: {d.spec.file: _weapon_control(d, armed) for d in WEAPON_FIELDS} for armed in (True, False)}
        """The first weapon's boxes by field, for a figure with a weapon (True) and for one with none (False)."""
        self.weapon = self.boxes[True]
        """The first weapon's boxes shown (``name``, ``sf``, ``damage``)."""
        self.char_class = tag(widgets.HTML(layout=_cell("class")), "c-class")
        self.weapons = tag(widgets.HTML(layout=_cell("weapons")), "c-weapons")
        """Its other weapons, by name."""
        self.spells = tag(widgets.HTML(layout=_cell("spells")), "c-spells")
        self.intents = tag(widgets.HTML(layout=_cell("intents")), "c-intents")
        """What it means to do, in words."""
        self.edit = tag(widgets.Button(icon="pencil", layout=_button(),
                                       tooltip="Edit this figure in the form below: its weapons, spells, intents and "
                                               "every other field"), "c-edit")
        self.duplicate = tag(widgets.Button(icon="copy", layout=_button(),
                                            tooltip="Duplicate this figure: another like it, named for its kind "
                                                    "(Goblin 7), with its weapons, spells and intents"), "c-duplicate")
        self.remove = tag(widgets.Button(icon="trash", layout=_button(),
                                         tooltip="Remove this figure, with its intents"), "c-remove")
        cells = list(self.fields.values())
        cells.insert([d.spec.file for d in ROW_FIELDS].index("level"), self.char_class)
        super().__init__([self.edit, self.duplicate, self.remove, *cells, *self.boxes[True].values(),
                          *self.boxes[False].values(), self.weapons, self.spells, self.intents],
                         layout=widgets.Layout(align_items="center", min_width="max-content",
                                               border_left="3px solid transparent"))
        tag(self, "combatant-row")
        self.fill(ident, combatant, intents)

    @property
    def controls(self) -> tuple[widgets.DOMWidget, ...]:
        """What a user can change on the line."""
        return (*self.fields.values(), *self.boxes[True].values(), *self.boxes[False].values(), self.edit,
                self.duplicate, self.remove)

    def fill(self, ident: int, combatant: CombatantDraft, intents: Sequence[str], current: bool = False,
             figure: Combatant | None = None) -> None:
        """Show the figure ``ident``, ``combatant``, and its ``intents`` in words, a field it leaves out as ``figure``
        has it (:func:`shown`); ``current``: it is the figure the editor's form shows."""
        self.ident = ident
        for d in ROW_FIELDS:
            _show(self.fields[d.spec.file], d, combatant.fields, figure)
        first = next(iter(combatant.weapons.values()), None)
        self.armed = first is not None
        self.weapon = self.boxes[self.armed]
        for armed, boxes in self.boxes.items():
            for d in WEAPON_FIELDS:
                box = boxes[d.spec.file]
                box.layout.display = None if armed == self.armed else "none"
                if armed and first is not None:
                    _show(box, d, first)
                elif not armed and first is not None:
                    box.value = ""  # ready for the next figure with none
        self.char_class.value = f"<span style='{_TEXT}'>{html.escape(str(combatant.fields.get('class', '')))}</span>"
        self.weapons.value = _listed([str(w.get("name", "")) for w in list(combatant.weapons.values())[1:]])
        self.spells.value = _listed([str(s.get("name", "")) for s in combatant.spells.values()])
        self.intents.value = _listed(intents, numbered=True)
        self.layout.border_left = f"3px solid {'#1a5fb4' if current else 'transparent'}"


def _field_control(d: Declared) -> widgets.ValueWidget:
    """A box of a figure's field: a number's or a text's, with the field's doc, range and rule on hover."""
    kind = widgets.IntText if d.kind == "number" else widgets.Text
    return tag(kind(continuous_update=False, tooltip=d.spec.tooltip(d.doc), layout=_cell(d.spec.file)),
               f"c-{d.spec.file}")


def _weapon_control(d: Declared, armed: bool) -> widgets.ValueWidget:
    """A box of the first weapon's field; for a figure with no weapon, blank text that says what it fights with
    instead and takes a first weapon's field when typed in."""
    key = f"weapon {d.spec.file}"
    look: dict[str, Any] = {"continuous_update": False, "tooltip": d.spec.tooltip(d.doc), "layout": _cell(key)}
    if not armed:
        control = widgets.Text(value="", placeholder=_FISTS_SHOWN[d.spec.file], **look | {
            "tooltip": f"{_UNARMED} {look['tooltip']}"})
    else:
        control = (widgets.IntText if d.kind == "number" else widgets.Text)(**look)
    return tag(control, _TAGS.get(key, f"c-{d.spec.file}"), *(() if armed else ("c-unarmed",)))


def shown(d: Declared, table: Mapping[str, Any], figure: Combatant | None = None) -> Any:
    """What a control shows for the field ``d`` of a draft's ``table``: what was typed; for a field the table leaves
    out, what ``figure`` (the table as the engine reads it, :meth:`EncounterDraft.read_alone
    <combatkit.widgets.state.draft.EncounterDraft.read_alone>`) has, a character's THAC0 its class's at its level;
    else the declared default."""
    if d.spec.file in table:
        return table[d.spec.file]
    if figure is None:
        return d.shown
    value = getattr(figure, d.name) if hasattr(figure, d.name) else getattr(figure.abilities, d.name)
    if isinstance(value, enum.Enum):
        return value.value
    if value is None:
        return ""
    return str(value) if d.kind in ("fraction", "number text") else value


def _show(control: widgets.ValueWidget, d: Declared, table: Mapping[str, Any], figure: Combatant | None = None) -> None:
    """Show the field ``d`` of a draft's ``table`` (:func:`shown`); a number box shows the default for what it cannot
    hold."""
    value = shown(d, table, figure)
    if isinstance(control, widgets.IntText):
        control.value = value if is_whole(value) else d.shown
    else:
        control.value = str(value)


def _typed(d: Declared, value: Any, armed: bool) -> Any:
    """What a first-weapon box holds for the draft: what was typed; in the blank boxes of a figure with no weapon
    (not ``armed``), a whole number typed for a number field as that number, and nothing as None."""
    if armed or not isinstance(value, str):
        return value
    text = value.strip()
    if d.kind == "number" and re.fullmatch(r"[+-]?\d{1,6}", text):
        return int(text)
    return value if text else None


class RosterTable(widgets.VBox):
    """Every figure of a draft on a line under a header, or :data:`EMPTY` while there is none.

    What is typed is reported, never written: ``on_field(ident, key, value)`` for a figure's field,
    ``on_weapon(ident, key, value)`` for its first weapon's (``value`` None: a blank box of a figure with no weapon
    left blank); ``on_edit``, ``on_duplicate`` and ``on_remove`` take the figure's id.
    """

    def __init__(self, *, on_field: Callable[[int, str, Any], None] = lambda *_: None,
                 on_weapon: Callable[[int, str, Any], None] = lambda *_: None,
                 on_edit: Callable[[int], None] = lambda _: None, on_duplicate: Callable[[int], None] = lambda _: None,
                 on_remove: Callable[[int], None] = lambda _: None) -> None:
        self.rows: list[CombatantRow] = []
        """The lines shown, one per figure in the encounter's order."""
        self._lines: list[CombatantRow] = []
        self._quiet = Hush()
        self._on_field, self._on_weapon = on_field, on_weapon
        self._on_edit, self._on_duplicate, self._on_remove = on_edit, on_duplicate, on_remove
        self.empty = tag(widgets.HTML(f"<i style='color:#4d5656'>{EMPTY}</i>"), "roster-empty")
        headings = [(d.spec.label, d.spec.file) for d in ROW_FIELDS]
        headings.insert([d.spec.file for d in ROW_FIELDS].index("level"), ("class", "class"))
        headings += [(_HEADINGS.get(f"weapon {d.spec.file}", d.spec.label), f"weapon {d.spec.file}")
                     for d in WEAPON_FIELDS]
        headings += [(_HEADINGS.get(key, key), key) for key in ("weapons", "spells", "intents")]
        self.header = widgets.HBox([*(widgets.HTML(layout=_button()) for _ in range(3)),  # over the buttons
                                    *(widgets.HTML(f"<b>{html.escape(label)}</b>", layout=_cell(key))
                                      for label, key in headings)],
                                   layout=widgets.Layout(min_width="max-content", border_left="3px solid transparent"))
        self.header.layout.display = "none"  # until there is someone to head
        self.lines = tag(widgets.VBox(), "roster-lines")
        super().__init__([self.empty, self.header, self.lines], layout=widgets.Layout(overflow="auto",
                                                                                        max_width="100%"))
        tag(self, "roster")

    @property
    def controls(self) -> list[widgets.DOMWidget]:
        """Every control of every line shown."""
        return [control for row in self.rows for control in row.controls]

    def show(self, draft: EncounterDraft, current: int | None = None) -> None:
        """Show ``draft``'s figures, ``current`` marked: a line each, in order. Lines are kept and refilled, never
        closed: a line no figure needs waits, out of the table, for the next."""
        said = intent_words(draft)
        with self._quiet():
            for n, (ident, combatant) in enumerate(draft.combatants.items()):
                if n == len(self._lines):
                    self._lines.append(self._line(ident, combatant))
                self._lines[n].fill(ident, combatant, said.get(ident, []), ident == current, draft.read_alone(ident))
        self.rows = self._lines[:len(draft.combatants)]
        if self.lines.children != tuple(self.rows):
            self.lines.children = tuple(self.rows)
        self.empty.layout.display = "none" if self.rows else None
        self.header.layout.display = None if self.rows else "none"

    def _line(self, ident: int, combatant: CombatantDraft) -> CombatantRow:
        """A new line, its edits reported for the figure it shows then."""
        row = CombatantRow(ident, combatant)

        def field_typed(key: str, value: Any) -> None:
            if not self._quiet:
                self._on_field(row.ident, key, value)

        def weapon_typed(d: Declared, armed: bool, value: Any) -> None:
            if not self._quiet:
                self._on_weapon(row.ident, d.spec.file, _typed(d, value, armed))

        for key, control in row.fields.items():
            control.observe(lambda change, key=key: field_typed(key, change.new), "value")
        for armed, boxes in row.boxes.items():
            for d in WEAPON_FIELDS:
                boxes[d.spec.file].observe(lambda change, d=d, armed=armed: weapon_typed(d, armed, change.new),
                                           "value")
        row.edit.on_click(lambda _: self._on_edit(row.ident))
        row.duplicate.on_click(lambda _: self._on_duplicate(row.ident))
        row.remove.on_click(lambda _: self._on_remove(row.ident))
        return row
