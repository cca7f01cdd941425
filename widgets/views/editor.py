"""EncounterEditor: build or change an encounter in a timing system's own terms.

The one encounter editor of the dashboards: :class:`~combatkit.widgets.views.timeline.TimelineExplorer`
(Phase System I), :class:`~combatkit.widgets.views.system_timeline.SystemTimeline` (each other
system) and :class:`~combatkit.widgets.views.compare.SystemComparison` (all six) each hold one.
Every control writes into an :class:`~combatkit.widgets.state.draft.EncounterDraft` (the form's
working copy, which keeps whatever was typed) and then calls the view's ``on_change``; the
view rebuilds the encounter with the engine's reader, schedules it and redraws, or shows the
engine's message (:meth:`EncounterEditor.describe` names the combatant behind a field path).
An entry the form itself cannot read (a hit at "1x", a move of "ten" feet) is not applied and
is listed in :attr:`EncounterEditor.entry_errors` until it is fixed.

Figures come from the books (#48). The roster (:class:`~combatkit.widgets.views.roster.RosterTable`) shows every
figure on a line, its numbers edited in place, with **edit** (the figure in the form below), **Duplicate** and
**Remove**. Above it, a search of the Monstrous Manual's monsters and of characters by class and level adds what it
names on Enter or a pick, as many as it says (``goblin``, ``6 goblins``, ``goblin x6``, ``fighter 3``) or the count
box does, filled in: hit points rolled from the encounter's seed or averaged, and each meaning to attack its first
foe, the first figure on another side; one added while it has no foe attacks the first to come, unless it was given
an intent meanwhile (:meth:`EncounterDraft.add_from_books
<combatkit.widgets.state.draft.EncounterDraft.add_from_books>`). A DM's own library file (TOML, as
docs/encounter-format.md writes it) loads from the file box, and the search and the weapon and spell pickers find its
monsters, weapons and spells too (:class:`~combatkit.widgets.state.draft.Books`); a bad row is refused by its field
in the alert box and the books stay as they were. A weapon or a spell is picked by name (another name adds a new one
of that name). **New encounter** starts with no one, to fill from the books. **Same for each** gives a figure's
intents to each of its kind (Goblin 1 .. Goblin 6), as a file's ``actor = "each goblin"`` does.

What each figure means to do is written once for every system, as intents
(:mod:`combatkit.intent`): one row per intent, in the order the figure does them (move toward or
away from a figure, or a distance, with a charge, withdrawal or flight; attack with a weapon, a
routine or unarmed, with a pummel, grapple or overbear; cast a spell; ready a weapon or material
components; stand ready; a named action from the list every system maps), with ``+`` to add one
after it and arrows to reorder. Beneath each row, the current system's refinement of it, in that
system's own terms (:attr:`~combatkit.systems.TimingSystem.declaration_phases`: where it is
placed, phases 1-3 of Phase System I, phases A/B/C over three cycles of Phase System II, steps of
a Segment of Action chain, phases 1-5 with Last Actions of the five-phase round, a figure's
actions in order in the short form and Strike Speed; and the fields only it reads,
:attr:`~combatkit.systems.TimingSystem.declaration_fields`: a double attack, Combat II's
repositioning step, a hold...; and a note of its own named actions,
:meth:`~combatkit.systems.TimingSystem.note_suggestions`), and how the system placed the intent,
with the rule (:meth:`EncounterEditor.show_plan`). Other systems ignore the refinement.

>>> changes = []
>>> editor = EncounterEditor(lambda: changes.append(1), find_system("segments"))
>>> editor.load(load_example("segments-fighters-vs-giant-and-orcs"))
>>> [row.do.value for row in editor.rows]
['attack', '']
>>> editor.rows[1].do.value = "hold"
>>> [(i.actor, i.kind.value) for i in editor.draft.encounter().intents if i.actor == "A"]
[('A', 'attack'), ('A', 'hold')]
>>> len(changes)
1
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from combatkit.encounter import Encounter
from combatkit.encounter_files import load_example, option_value, plain_option
from combatkit.errors import EncounterFileError, error_words
from combatkit.library import LibraryFileError
from combatkit.monsters import MOST_OF_A_KIND, MonsterRowError, group_of
from combatkit.intent import COMPONENTS, Plan, PlacementKind, named_actions
from combatkit.fields import Declared, declared
from combatkit.model import Abilities, ActionKind, Combatant, Maneuver, Refined, Spell, Weapon
from combatkit.systems import SYSTEMS, TimingSystem, find_system
from combatkit.widgets.views.classes import tag
from combatkit.widgets.state.draft import Books, CombatantDraft, EncounterDraft, read_search
from combatkit.widgets.views.encounter_picker import OpenFileButton
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.roster import RosterTable, shown

__all__ = ["CLASSES", "EncounterEditor", "IntentRow", "NONE", "describe_error", "new_encounter", "saved_rolls",
           "with_options"]

NONE = 0
"""Dropdown value for "no target" / "the default weapon or spell" (draft ids start at 1)."""

CLASSES = ("fighter", "ranger", "paladin", "mage", "priest", "thief", "psionicist", "monster")
MOST_PHASES = 20
"""The highest declaration phase an encounter file takes."""
DOES = ("move", "attack", "cast", "ready", "hold", "action")
"""What an intent does (:class:`~combatkit.intent.IntentKind`), in the dropdown's order."""

_BOOKS = "from the books"
"""The entry error of an add from the books (it stays while another combatant is shown: the search is no panel's)."""
_LIBRARY = "library"
"""The entry error of a DM's library file refused (it stays, like the search's, until another file loads)."""
_KEPT = (_BOOKS, _LIBRARY)
"""Entry errors that are no figure's panel's: they stay while another figure is shown."""
_COMBATANT = Combatant("-", "-")
_WEAPON = Weapon("-")
_SPELL = Spell("-")
_PANELS = {"": declared(Combatant, Abilities), "weapon_": declared(Weapon), "spell_": declared(Spell)}
"""The fields each panel shows (a combatant's, its weapon's, its spell's), as declared once in
:mod:`combatkit.model` (:attr:`FieldSpec.form <combatkit.fields.FieldSpec.form>`), by control prefix."""
_CONTROLS = {prefix: {prefix + d.spec.form: d for d in fields if d.spec.form} for prefix, fields in _PANELS.items()}
"""Each panel's controls: control attribute (``mv``, ``weapon_sf``) -> the field it edits."""
_LOOK = {  # control -> width, placeholder: how a control looks; what it edits is its field's declaration
    "name": ("190px", ""), "side": ("150px", ""), "char_class": ("160px", ""), "level": ("110px", ""),
    "ac": ("90px", ""), "thac0": ("115px", ""), "hp": ("95px", ""), "apr": ("165px", "1, 2 or 3/2"),
    "components_ready": ("160px", ""), "weapon_name": ("190px", ""), "weapon_magic": ("110px", ""),
    "weapon_length": ("165px", ""), "spell_name": ("190px", ""), "spell_ct": ("150px", '1-9 or "1 round"'),
    "spell_components": ("170px", "V,S,M"),
}
_WIDTHS = {"number": "100px", "text": "140px", "choice": "150px", "flag": "95px", "fraction": "150px",
           "number text": "150px"}
_NUMBER_TEXT = {d.spec.file for fields in _PANELS.values() for d in fields if d.kind in ("fraction", "number text")}
"""Text fields that hold a number when one is typed (``2``) and text otherwise (``3/2``, ``1 round``)."""

_FLAGS = {  # refinement field -> (width, the intents it belongs to); its label and doc are declared on Refined
    "reposition": ("125px", {"attack", "cast"}),
    "retarget": ("85px", {"attack"}),
    "drop_and_draw": ("105px", {"attack"}),
    "readies_components": ("170px", {"ready", "action"}),
}
_ROSTER_HELP = (
    "<b>Who is in the fight</b>: type a monster or a class and level in <i>From the books</i> and press Enter, or "
    "pick one: <code>goblin</code>, <code>6 goblins</code> (or <code>goblin x6</code>), <code>fighter 3</code>. "
    "They come filled in from the books, each meaning to attack its first foe (the first figure on another side); "
    "one added while it has no foe (the first of a party) attacks the first foe to come, unless you gave it an intent "
    "meanwhile. Each line below is edited in place; its <b>edit</b> button shows the figure in the form under the "
    "table, for its weapons, spells and intents.")
"""The roster's help: how the search adds, and whom a figure from the books attacks."""
_REFINED = {d.name: d for d in declared(Refined)}
_FIELD_INTENTS = {"attacks": {"attack"}, "hold": {"cast"}} | {
    name: does for name, (_, does) in _FLAGS.items()}


def new_encounter(system: TimingSystem) -> Encounter:
    """A blank encounter to build on: two figures of two sides, each with a weapon, nothing declared (what a view
    opens for **New encounter**, before the editor takes its figures away to be filled from the books)."""
    from combatkit.encounter_files import encounter_from_dict

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
    """The engine's message for a reader (:func:`~combatkit.errors.error_words`): a rule's message and its
    citation, a file field's path and what is wrong; with the combatants' ``names``, a path like
    ``combatants[1].dex`` names the combatant too (:attr:`EncounterFileError.combatant
    <combatkit.errors.EncounterFileError.combatant>`).

    >>> describe_error(EncounterFileError("combatants[1].dex", "DEX is 1..25 (PH Table 2), got 40"), ["Brienne", "Mira"])
    'combatants[1].dex (Mira): DEX is 1..25 (PH Table 2), got 40'
    """
    if isinstance(error, EncounterFileError) and error.combatant is not None and error.combatant < len(names):
        return f"{error.field} ({names[error.combatant]}): {error.message}"
    return error_words(error)


# ----------------------------------------------------------------- one intent


class IntentRow(widgets.VBox):
    """One intent of one combatant (its ``index``-th, from 0), and beneath it the current system's refinement
    of it and how that system placed it."""

    def __init__(self, index: int) -> None:
        self.index = index
        lay = widgets.Layout
        self.label = widgets.HTML(f"<b>{index + 1}.</b>", layout=lay(width="28px"))
        self.do = tag(widgets.Dropdown(options=[("—", "")] + [(d, d) for d in DOES], layout=lay(width="92px"),
                                       tooltip="what the figure means to do"), "do")
        self.target = tag(widgets.Dropdown(options=[("no target", NONE)], layout=lay(width="140px"),
                                           tooltip="whom it is done to"), "target")
        self.away = tag(widgets.Checkbox(description="away from it", indent=False, layout=lay(width="105px"),
                                         tooltip="a move away from the target rather than toward it"), "away")
        self.using = tag(widgets.Dropdown(options=[("—", NONE)], layout=lay(width="200px"),
                                          tooltip="the weapon or spell it uses"), "using")
        self.blows = tag(widgets.Text(description="blows", placeholder="all", continuous_update=False,
                                      style={"description_width": "38px"}, layout=lay(width="100px"),
                                      tooltip="how many blows or shots (empty: every one the round gives)"), "blows")
        self.feet = tag(widgets.Text(description="feet", placeholder="to reach", continuous_update=False,
                                     style={"description_width": "28px"}, layout=lay(width="110px"),
                                     tooltip="feet moved (empty: as far as it takes to reach the target, or the "
                                             "system's move)"), "feet")
        self.maneuver = tag(widgets.Dropdown(options=[("no maneuver", "")], layout=lay(width="125px"),
                                             tooltip="a charge, withdrawal or flight (a move); a pummel, grapple "
                                                     "or overbear (an attack)"), "maneuver")
        self.note = tag(widgets.Text(placeholder="note", continuous_update=False, layout=lay(width="180px")), "note")
        self.up = tag(widgets.Button(icon="arrow-up", tooltip="Do this one earlier", layout=lay(width="34px")), "up")
        self.down = tag(widgets.Button(icon="arrow-down", tooltip="Do this one later", layout=lay(width="34px")),
                        "down")
        self.add = tag(widgets.Button(icon="plus", tooltip="Another intent after this one", layout=lay(width="34px")),
                       "add-intent")

        self.system_label = widgets.HTML(layout=lay(width="190px"))
        self.placed = tag(widgets.Dropdown(options=[("as it places it", "")], layout=lay(width="170px"),
                                           tooltip="where this system places the intent; 'as it places it' lets "
                                                   "its own rules decide"), "placed")
        attacks, hold = _REFINED["attacks"], _REFINED["hold"]
        self.double = tag(widgets.Checkbox(description="double attack", indent=False, layout=lay(width="115px"),
                                           tooltip=f"attacks = 2: {attacks.spec.tooltip(attacks.doc)}"), "double")
        self.hold = tag(widgets.IntText(description=hold.spec.label, continuous_update=False,
                                        style={"description_width": "30px"}, tooltip=hold.spec.tooltip(hold.doc),
                                        layout=lay(width="95px")), "hold")
        self.flags: dict[str, widgets.Checkbox] = {}
        for name, (width, _) in _FLAGS.items():
            d = _REFINED[name]
            self.flags[name] = tag(widgets.Checkbox(description=d.spec.label, indent=False, layout=lay(width=width),
                                                    tooltip=d.spec.tooltip(d.doc)), name.replace("_", "-"))
        self.reposition, self.retarget = self.flags["reposition"], self.flags["retarget"]
        self.system_note = tag(widgets.Combobox(placeholder="its own words", ensure_option=False,
                                                continuous_update=False, layout=lay(width="180px")), "system-note")
        self.placement = tag(widgets.HTML(layout=lay(width="100%")), "placement")
        self.fields = {"attacks": self.double, "hold": self.hold, **self.flags}
        """The refinement's optional fields' controls, by file field."""
        wrap = lay(flex_flow="row wrap", align_items="center")
        self.intent_line = widgets.HBox([self.label, self.do, self.target, self.away, self.using, self.blows,
                                         self.feet, self.maneuver, self.note, self.up, self.down, self.add], layout=wrap)
        self.refine_line = tag(widgets.HBox([self.system_label, self.placed, self.double, *self.flags.values(),
                                             self.hold, self.system_note], layout=lay(flex_flow="row wrap",
                                                                                       align_items="center",
                                                                                       margin="0 0 0 28px")),
                               "refinement")
        super().__init__([self.intent_line, self.refine_line, self.placement],
                         layout=lay(border_bottom="1px dotted #d5d8dc", padding="2px 0"))
        tag(self, "intent", f"intent-{index + 1}")

    @property
    def intent_controls(self) -> tuple[widgets.ValueWidget, ...]:
        return self.do, self.target, self.away, self.using, self.blows, self.feet, self.maneuver, self.note

    @property
    def refine_controls(self) -> tuple[widgets.ValueWidget, ...]:
        return self.placed, *self.fields.values(), self.system_note


# ----------------------------------------------------------------- the editor


class EncounterEditor(widgets.VBox):
    """The combatants, their weapons and spells, reported hits and every declaration, in ``system``'s terms.

    ``on_change()`` is called after every edit (the view rebuilds and redraws); ``on_new(encounter)``
    (optional: a "New encounter" button) opens a blank encounter. With ``choose_system`` a "written
    for" dropdown sets the encounter's own system, and the declarations follow its terms. The roster (its help,
    :attr:`roster_help`; the books' search and a DM's library file, :attr:`books_line`; the table of every figure,
    :attr:`roster`) heads the editor, or, with ``roster=False``, is left to the view to place (encounter prep shows
    it apart, above its run); ``on_figure(ident)`` is called when a roster line's **edit** has shown its figure in
    the form.
    """

    def __init__(self, on_change: Callable[[], None], system: TimingSystem, *,
                 on_new: Callable[[Encounter], None] | None = None, choose_system: bool = False, roster: bool = True,
                 on_figure: Callable[[int], None] | None = None) -> None:
        self.system = system
        """Whose terms the declarations are in."""
        self.fresh_system = system
        """What a new encounter is written for: the system the editor was made for, not the one the encounter shown
        last was written for (#45: a new encounter in the comparison was "written for" the example before it)."""
        self.draft = EncounterDraft({}, {})
        """The working copy."""
        self.library = Books()
        """What the search and the pickers search: the books, and a DM's library file once one is loaded."""
        self.entry_errors: dict[str, str] = {}
        """Entries the form could not read (not applied), by what they are."""
        self._on_change = on_change
        self._on_figure = on_figure
        self._quiet = Hush()
        self._current: int | None = None
        self._as_loaded: dict[str, Any] = {}
        self._rows: list[IntentRow] = []
        self._plan: Plan | None = None

        small = {"description_width": "initial"}
        lay = widgets.Layout

        def text(name: str, description: str, width: str, **kw: Any) -> widgets.Text:
            return tag(widgets.Text(description=description, continuous_update=False, style=small,
                                    layout=lay(width=width), **kw), name)

        self.title = text("title", "title", "520px")
        self.written_for = tag(widgets.Dropdown(description="written for", style=small, layout=lay(width="330px"),
                                                options=[(s.title, s.id) for s in SYSTEMS.values()]), "written-for")
        self.new = tag(widgets.Button(description="New encounter", icon="file",
                                      tooltip="Start an encounter with no one in it, to fill from the books"),
                       "new-encounter")
        self.combatant = tag(widgets.Dropdown(description="Combatant", layout=lay(width="300px")), "combatant")
        self.add_combatant = tag(widgets.Button(description="Add", icon="plus", layout=lay(width="80px")),
                                 "add-combatant")
        self.remove_combatant = tag(widgets.Button(description="Remove", icon="trash", layout=lay(width="95px")),
                                    "remove-combatant")
        self.duplicate_combatant = tag(widgets.Button(
            description="Duplicate", icon="copy", layout=lay(width="110px"),
            tooltip="Another figure like this one, named for its kind (Goblin 7, Brienne 2), with its weapons, spells "
                    "and intents"), "duplicate-combatant")
        self.books_count = tag(widgets.IntText(
            value=1, description="how many", continuous_update=False, style=small, layout=lay(width="125px"),
            tooltip=f"1..{MOST_OF_A_KIND} figures of a kind, named Goblin 1 .. Goblin N: the next figures from the "
                    f"books (a number in the search, '6 goblins', says it too)"), "books-count")
        self.books_side = tag(widgets.Combobox(
            description="side", placeholder="party or monsters", ensure_option=False, continuous_update=False,
            style=small, layout=lay(width="210px"),
            tooltip="The side they join; left empty, party for characters and monsters for monsters"), "books-side")
        self.books_average = tag(widgets.Checkbox(
            description="average hit points", indent=False, layout=lay(width="150px"),
            tooltip="The dice's average, rounded down; unticked, each figure's hit points are rolled from the "
                    "encounter's seed under 'hit points: <its name>', as a file's are"), "books-average")
        self.books = tag(widgets.Combobox(
            description="From the books", placeholder="goblin, 6 goblins, fighter 3: Enter adds",
            options=self.library.names(), ensure_option=False, continuous_update=False, style=small,
            layout=lay(width="430px", max_width="100%"),
            tooltip="A monster of the Monstrous Manual (2e) or of your library, by name, or a character by class and "
                    "level, with how many if more than one (6 goblins, goblin x6): added on Enter or a pick, its "
                    "stats, THAC0, hit points, weapons and spells from the books, meaning to attack its first foe"),
            "books")
        self.library_file = tag(OpenFileButton(
            description="Your library", accept=".toml",
            tooltip="Load your own library (a TOML file of [[monster]], [[weapon]] and [[spell]] rows, as "
                    "docs/encounter-format.md writes them): the search and the weapon and spell pickers find its "
                    "entries too, over the books'"), "library-file")
        self.library_status = tag(widgets.HTML(), "library-status")
        for prefix, controls in _CONTROLS.items():
            for attr, d in controls.items():
                setattr(self, attr, _control(attr, d))
        self.weapon = tag(widgets.Dropdown(description="Weapon", layout=lay(width="240px")), "weapon")
        self.add_weapon = tag(widgets.Button(icon="plus", tooltip="Add a weapon", layout=lay(width="36px")),
                              "add-weapon")
        self.weapon_pick = tag(widgets.Combobox(
            placeholder="+ a weapon: long sword…", options=self.library.library.weapons(), ensure_option=False,
            continuous_update=False, layout=lay(width="200px"),
            tooltip="Add a weapon of PH 2e Table 44 (or of your library) by name, filled in from the table; another "
                    "name adds a new weapon of that name"), "weapon-pick")
        self.remove_weapon = tag(widgets.Button(icon="trash", tooltip="Remove this weapon", layout=lay(width="36px")),
                                 "remove-weapon")
        self.spell = tag(widgets.Dropdown(description="Spell", layout=lay(width="240px")), "spell")
        self.add_spell = tag(widgets.Button(icon="plus", tooltip="Add a spell", layout=lay(width="36px")), "add-spell")
        self.spell_pick = tag(widgets.Combobox(
            placeholder="+ a spell: sleep…", options=self.library.library.spells(), ensure_option=False,
            continuous_update=False, layout=lay(width="200px"),
            tooltip="Add a spell of the PH 2e spell lists (or of your library) by name, filled in from its list; "
                    "another name adds a new spell of that name"), "spell-pick")
        self.remove_spell = tag(widgets.Button(icon="trash", tooltip="Remove this spell", layout=lay(width="36px")),
                                "remove-spell")
        self.hits = text("hits", "hit at", "300px")
        self.roster = RosterTable(on_field=self._on_roster_field, on_weapon=self._on_roster_weapon,
                                  on_edit=self._on_roster_edit, on_duplicate=self._duplicate, on_remove=self._remove)
        """Every figure on a line, edited in place."""
        self.roster_help = tag(widgets.HTML(_ROSTER_HELP), "roster-help")
        """How the search adds and whom a figure from the books attacks."""
        self.books_line = tag(widgets.HBox([self.books_count, self.books_side, self.books_average, self.books,
                                            self.library_file, self.library_status],
                                           layout=lay(flex_flow="row wrap", align_items="center")), "books-line")
        """The books' search with its count, side and hit points, and a DM's library file."""
        self.rows: list[IntentRow] = []
        """The current combatant's intent rows, in order, and one empty row after them for the next."""
        self.intent_box = tag(widgets.VBox(), "intents")
        self.intent_heading = widgets.HTML()
        self.same_for_each = tag(widgets.Button(
            description="Same for each", icon="users", layout=lay(width="auto"),
            tooltip="Give every figure of this one's kind (Goblin 1 .. Goblin 6) these intents in place of its own, "
                    "as a file's actor = \"each goblin\" does"), "same-for-each")

        self._choose_system = choose_system
        self._on_new = on_new
        top = [self.title] + ([self.written_for] if choose_system else []) + ([self.new] if on_new else [])
        wrap = lay(flex_flow="row wrap", align_items="center")
        super().__init__([
            widgets.HTML("<b>Edit the encounter</b> (changes apply when you press Enter or leave a field)"),
            widgets.HBox(top, layout=wrap),
            *([self.roster_help, self.books_line, self.roster] if roster else []),
            widgets.HTML("<b>One figure</b>, every field: choose it here or with a line's edit button above",
                         layout=lay(margin="8px 0 0 0")),
            widgets.HBox([self.combatant, self.add_combatant, self.remove_combatant, self.duplicate_combatant],
                         layout=wrap),
            widgets.HBox([self.name, self.side, self.char_class, self.level, self.size], layout=wrap),
            widgets.HBox([self.dex, self.con, self.mv, self.ac, self.thac0, self.hp, self.apr, self.surprised,
                          self.components_ready], layout=wrap),
            widgets.HBox([self.weapon, self.add_weapon, self.weapon_pick, self.remove_weapon, self.weapon_name,
                          self.weapon_sf, self.weapon_magic, self.weapon_kind, self.weapon_length, self.weapon_damage],
                         layout=wrap),
            widgets.HBox([self.spell, self.add_spell, self.spell_pick, self.remove_spell, self.spell_name,
                          self.spell_ct, self.spell_level, self.spell_components], layout=wrap),
            self.hits,
            self.intent_heading,
            self.same_for_each,
            self.intent_box,
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
        self._plan = None
        if system is not None:
            self.system = system
        with self._quiet():
            self.title.value = encounter.title
            self.written_for.value = encounter.system if encounter.system in SYSTEMS else None
            self._current = next(iter(self.draft.combatants), None)
            self._describe_system()
            self._show_combatants()

    def set_system(self, system: TimingSystem) -> None:
        """Show each intent's refinement in ``system``'s terms; no ``on_change``."""
        self.system = system
        self._plan = None
        with self._quiet():
            self._describe_system()
            self._show_intents()

    def show_plan(self, plan: Plan | None) -> None:
        """Say under each intent how the system placed it, with the rule (:meth:`TimingSystem.plan
        <combatkit.systems.base.TimingSystem.plan>`; None: the round could not be placed)."""
        self._plan = plan
        with self._quiet():
            self._show_placements()

    @property
    def edited(self) -> bool:
        """Whether the encounter differs from the one loaded in more than its seed and its rolls (which a
        link carries; the rest it cannot)."""
        return _linked_out(self.draft) != self._as_loaded

    def pick(self, name: str) -> None:
        """Show the combatant called ``name`` in the panel."""
        self.combatant.value = self.draft.find(name)

    def refresh(self, current: int | None = None) -> None:
        """Show the draft again after it was changed from outside the editor (encounter prep's **Add combatant**),
        the figure ``current`` in the form if given; ``on_change`` is called."""
        if current is not None:
            self._current = current
        with self._quiet():
            self._show_combatants()
        self._changed()

    def describe(self, error: ValueError) -> str:
        """The engine's message for the person editing (:func:`describe_error`): a field path like
        ``combatants[1].dex`` gets the name of that combatant of the draft."""
        return describe_error(error, [c.name for c in self.draft.combatants.values()])

    # ------------------------------------------------------------ wiring

    def _observe(self) -> None:
        self.title.observe(lambda change: self._on_meta("title", change.new or "Untitled encounter"), "value")
        self.written_for.observe(self._on_written_for, "value")
        self.new.on_click(self._on_new_encounter)
        self.combatant.observe(lambda change: self._when_loud(lambda: self._show_figure(change.new)), "value")
        self.add_combatant.on_click(self._on_add_combatant)
        self.remove_combatant.on_click(self._on_remove_combatant)
        self.duplicate_combatant.on_click(self._on_duplicate)
        self.books.observe(self._on_books, "value")
        self.library_file.observe(self._on_library_file, "value")
        self.same_for_each.on_click(self._on_same_for_each)
        for attr, d in _CONTROLS[""].items():
            getattr(self, attr).observe(lambda change, key=d.spec.file: self._on_combatant_field(key, change.new),
                                        "value")
        self.weapon.observe(lambda change: self._when_loud(lambda: self._show_item("weapons")), "value")
        for attr, d in _CONTROLS["weapon_"].items():
            getattr(self, attr).observe(lambda change, key=d.spec.file: self._on_item_field("weapons", key, change.new),
                                        "value")
        self.spell.observe(lambda change: self._when_loud(lambda: self._show_item("spells")), "value")
        for attr, d in _CONTROLS["spell_"].items():
            getattr(self, attr).observe(lambda change, key=d.spec.file: self._on_item_field("spells", key, change.new),
                                        "value")
        self.add_weapon.on_click(lambda _: self._on_add_item("weapons"))
        self.remove_weapon.on_click(lambda _: self._on_remove_item("weapons"))
        self.weapon_pick.observe(lambda change: self._on_pick_item("weapons", change.new), "value")
        self.add_spell.on_click(lambda _: self._on_add_item("spells"))
        self.spell_pick.observe(lambda change: self._on_pick_item("spells", change.new), "value")
        self.remove_spell.on_click(lambda _: self._on_remove_item("spells"))
        self.hits.observe(self._on_hits, "value")

    def _when_loud(self, action: Callable[[], None]) -> None:
        if not self._quiet:
            with self._quiet():
                action()

    def _changed(self) -> None:
        """After an edit: the roster follows the draft, then the view reads it."""
        self.roster.show(self.draft, self._current)
        self._on_change()

    def _refuse(self, entry: str, words: str) -> None:
        """Say in the view's alert box that ``entry`` was not applied, in ``words``; what was typed stays."""
        self.entry_errors[entry] = words
        self._changed()

    def _describe_system(self) -> None:
        system = self.system
        self.hits.description = f"hit at {system.hit_tick}s"
        self.hits.placeholder = "e.g. 10, 14"
        self.hits.tooltip = (f"hits the referee reports on this figure, by {system.hit_tick} on {system.title}'s "
                             "clock: a hit spoils a spell being cast")
        self.intent_heading.value = (
            "<b>What this figure means to do</b>, in order, in words every system reads (<b>+</b> adds one after, "
            f"the arrows reorder); beneath each, <i>{html.escape(system.title)}</i>'s own terms for it "
            f"({html.escape(system.source)}): where it is placed, and what only it has")

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
        figure = self.draft.read_alone(self._current) if cd else None
        for attr, d in _CONTROLS[""].items():
            _show(getattr(self, attr), d, cd.fields if cd else None, figure)
        self.remove_combatant.disabled = self.duplicate_combatant.disabled = cd is None
        self.books_side.options = self._sides()
        self.roster.show(self.draft, self._current)
        for name in ("weapons", "spells"):
            items = getattr(cd, name) if cd else {}
            picker = self.weapon if name == "weapons" else self.spell
            picker.options = [(item.get("name") or "(no name)", ident) for ident, item in items.items()]
            picker.value = next(iter(items), None)
        self.hits.value = ", ".join(map(str, self.draft.hits_on(self._current))) if cd else ""
        self.hits.disabled = cd is None
        self._show_item("weapons")
        self._show_item("spells")
        self._show_intents()

    def _show_item(self, name: str) -> None:
        cd = self.draft.combatants.get(self._current)
        picker, prefix = (self.weapon, "weapon_") if name == "weapons" else (self.spell, "spell_")
        item = getattr(cd, name).get(picker.value) if cd else None
        for attr, d in _CONTROLS[prefix].items():
            _show(getattr(self, attr), d, item)
        (self.remove_weapon if name == "weapons" else self.remove_spell).disabled = item is None
        (self.add_weapon if name == "weapons" else self.add_spell).disabled = cd is None
        (self.weapon_pick if name == "weapons" else self.spell_pick).disabled = cd is None

    def _show_figure(self, ident: int | None) -> None:
        """Show the figure ``ident`` in the form (called quietly): what was typed and refused in the last one's panel
        goes with it."""
        self._current = ident
        self._show_combatants()
        panel = [key for key in self.entry_errors if key not in _KEPT]
        if panel:
            for key in panel:
                del self.entry_errors[key]
            self._on_change()

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
        elif key == "side":
            self.books_side.options = self._sides()
        self._changed()

    def _sides(self) -> list[str]:
        """The sides a figure from the books may join: the encounter's, in order."""
        return [side for side in self.draft.sides if side]

    def _on_add_combatant(self, _button) -> None:
        sides = self.draft.sides
        count = len(self.draft.combatants) + 1
        self._current = self.draft.add_combatant({
            "name": f"Combatant {count}", "side": sides[0] if sides else "party", "class": _COMBATANT.char_class,
            "level": _COMBATANT.level, "dex": _COMBATANT.abilities.dexterity, "mv": _COMBATANT.movement,
        })
        self.draft.add_weapon(self._current, {"name": "long sword", "sf": 5, "length": "long", "damage": "d8"})
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _on_new_encounter(self, _button) -> None:
        """A new encounter with no one in it: the view opens :func:`new_encounter` (dropping what it held for the last
        one: the example chosen, the dice entered), whose figures are then taken away, to be filled from the books.
        Until someone is added the roster says so, and the view that the encounter needs someone."""
        if self._on_new is None:
            return
        self._on_new(new_encounter(self.fresh_system))
        for ident in list(self.draft.combatants):
            self.draft.remove_combatant(ident)
        self._as_loaded = _linked_out(self.draft)
        self._current = None
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _on_books(self, change) -> None:
        """What the search names, added on Enter or a pick (:meth:`EncounterDraft.add_from_books
        <combatkit.widgets.state.draft.EncounterDraft.add_from_books>`): as many as it says (``6 goblins``,
        :func:`~combatkit.widgets.state.draft.read_search`) or the count box does, on the side given, the first
        shown in the form; the search is cleared for the next. A name or count the books refuse is said in the alert
        box and what was typed stays; a search cleared takes its message with it."""
        if self._quiet:
            return
        name, count = read_search(change.new)
        if not name:
            if self.entry_errors.pop(_BOOKS, None) is not None:
                self._changed()
            return
        try:
            added = self.draft.add_from_books(name, self.books_count.value if count is None else count,
                                              side=self.books_side.value, average=self.books_average.value,
                                              books=self.library)
        except ValueError as error:
            self._refuse(_BOOKS, f"{_BOOKS}: {error_words(error)} (nothing added)")
            return
        self.entry_errors.pop(_BOOKS, None)
        self._current = added[0]
        with self._quiet():
            self.books.value = ""
            self.books_count.value = 1
            self._show_combatants()
        self._changed()

    def _on_library_file(self, change) -> None:
        """A DM's library file read from the file box (:meth:`Books.load
        <combatkit.widgets.state.draft.Books.load>`): the search and the weapon and spell pickers find its entries
        from now on. A bad row is refused by its field in the alert box, and the books stay as they were."""
        if self._quiet or not change.new:
            return
        item = change.new[0]
        with self._quiet():
            self.library_file.value = ()
        name = str(item["name"])
        try:
            books = Books.load(name, bytes(item["content"]))
        except ValueError as error:
            self._refuse(_LIBRARY, f"library: {_library_words(name, error)} (not loaded: the books are as they were)")
            return
        self.library = books
        self.entry_errors.pop(_LIBRARY, None)
        with self._quiet():
            self.books.options = books.names()
            self.weapon_pick.options = books.library.weapons()
            self.spell_pick.options = books.library.spells()
            own = books.library
            self.library_status.value = (
                f"<span style='color:#4d5656'>{html.escape(books.own)}: {_many(len(books.monsters), 'monster')}, "
                f"{_many(len(own.weapon_entries), 'weapon')}, {_many(len(own.spell_entries), 'spell')}</span>")
        self._changed()

    def _on_roster_field(self, ident: int, key: str, value: Any) -> None:
        """A figure's field typed in its roster line; the form follows."""
        self.draft.combatants[ident].fields[key] = value
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _on_roster_weapon(self, ident: int, key: str, value: Any) -> None:
        """A figure's first weapon's field typed in its roster line (:meth:`EncounterDraft.set_first_weapon
        <combatkit.widgets.state.draft.EncounterDraft.set_first_weapon>`); the form follows."""
        self.draft.set_first_weapon(ident, key, value)
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _on_roster_edit(self, ident: int) -> None:
        """A roster line's **edit**: its figure in the form."""
        with self._quiet():
            self._show_figure(ident)
        if self._on_figure is not None:
            self._on_figure(ident)

    def _on_duplicate(self, _button) -> None:
        if self._current is not None:
            self._duplicate(self._current)

    def _on_remove_combatant(self, _button) -> None:
        if self._current is not None:
            self._remove(self._current)

    def _duplicate(self, ident: int) -> None:
        """Add a copy of the figure ``ident`` (:meth:`EncounterDraft.duplicate
        <combatkit.widgets.state.draft.EncounterDraft.duplicate>`) and show it in the form."""
        try:
            copied = self.draft.duplicate(ident)
        except ValueError as error:  # a figure with no name has no kind to number
            self._refuse("duplicate", f"duplicate: {error_words(error)}")
            return
        self.entry_errors.pop("duplicate", None)
        self._current = copied
        with self._quiet():
            self._show_combatants()
        self._changed()

    def _remove(self, ident: int) -> None:
        """Remove the figure ``ident``; if the form showed it, it shows the one after it (before it, for the last)."""
        ids = list(self.draft.combatants)
        at = ids.index(ident)
        self.draft.remove_combatant(ident)
        rest = list(self.draft.combatants)
        if ident == self._current:
            self._current = rest[min(at, len(rest) - 1)] if rest else None
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
                self._show_intents()
        self._changed()

    def _on_add_item(self, name: str) -> None:
        if self._current is None:
            return
        cd = self.draft.combatants[self._current]
        self._add_item(self._current, name, _new_item(name, f"{name[:-1]} {len(getattr(cd, name)) + 1}"))

    def _on_pick_item(self, name: str, typed: str) -> None:
        """A weapon or spell named in its picker: the book's row or the DM's library's (:meth:`Books.weapon
        <combatkit.widgets.state.draft.Books.weapon>`, :meth:`Books.spell <combatkit.widgets.state.draft.Books.spell>`),
        or a new one of a name they lack."""
        picker = self.weapon_pick if name == "weapons" else self.spell_pick
        if self._quiet or self._current is None or not typed.strip():
            return
        cd = self.draft.combatants[self._current]
        entry = f"{name} picked"
        try:
            table = self.library.weapon(typed) if name == "weapons" else self.library.spell(
                typed, str(cd.fields.get("class", _COMBATANT.char_class)))
        except ValueError as error:  # a spell on both lists that the figure's class does not settle
            self._refuse(entry, f"{cd.name}: {error_words(error)} (not added)")
            return
        self.entry_errors.pop(entry, None)
        with self._quiet():
            picker.value = ""
        self._add_item(self._current, name, table or _new_item(name, typed.strip()))

    def _add_item(self, owner: int, name: str, table: dict[str, Any]) -> None:
        """Give ``owner`` (the combatant shown) the weapon or spell ``table`` and show it."""
        if name == "weapons":
            ident = self.draft.add_weapon(owner, table)
        else:
            ident = self.draft.add_spell(owner, table)
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

    # ------------------------------------------------------------ intents

    def _row(self, index: int) -> IntentRow:
        while len(self._rows) <= index:
            row = IntentRow(len(self._rows))
            for control in row.intent_controls:
                control.observe(lambda change, row=row: self._on_intent(row, change), "value")
            for control in row.refine_controls:
                control.observe(lambda change, row=row: self._on_refine(row, change), "value")
            row.add.on_click(lambda _, row=row: self._on_add_intent(row.index))
            row.up.on_click(lambda _, row=row: self._on_move(row.index, -1))
            row.down.on_click(lambda _, row=row: self._on_move(row.index, 1))
            self._rows.append(row)
        return self._rows[index]

    def _show_intents(self) -> None:
        """A row per intent of the current combatant and an empty one after them (called quietly). Rows are
        kept and refilled, never rebuilt: a page keeps the controls it shows."""
        cd = self.draft.combatants.get(self._current)
        mine = self.draft.intents_of(self._current) if cd else []
        targets = [("no target", NONE)] + [(label, ident) for label, ident in self._combatant_options()
                                           if ident != self._current]
        self.rows = [self._row(i) for i in range(len(mine) + 1)]
        for row, table in zip(self.rows, mine + [None]):
            row.target.options = targets
            self._show_row(row, cd, table)
        self.intent_box.children = tuple(self.rows)
        kind = self.draft.kind_of(self._current) if cd else []
        self.same_for_each.layout.display = None if len(kind) > 1 else "none"
        if cd is not None:
            self.same_for_each.description = f"Same for each {group_of(cd.name)} ({len(kind)})"
        self._show_placements()

    def _show_row(self, row: IntentRow, cd: CombatantDraft | None, i: dict[str, Any] | None) -> None:
        """Fill one row from its intent table (None: the empty row for the next intent)."""
        do = i["do"] if i else ""
        row.do.value = do
        target = i.get("target") if i else None
        row.target.value = target if isinstance(target, int) and target in self.draft.combatants else NONE
        row.away.value = bool(i and i.get("away"))
        self._show_using(row, cd, i)
        if f"blows {row.index}" not in self.entry_errors:
            row.blows.value = str(i["blows"]) if i and i.get("blows") is not None else ""
        if f"feet {row.index}" not in self.entry_errors:
            row.feet.value = str(i["feet"]) if i and i.get("feet") is not None else ""
        offered = [m for m in Maneuver if m.kind.value == do]
        row.maneuver.options = [("no maneuver", "")] + [(m.value, m.value) for m in offered]
        row.maneuver.value = i.get("maneuver", "") if i and i.get("maneuver") in {m.value for m in offered} else ""
        row.note.value = i.get("note", "") if i else ""
        for control, shown in ((row.target, i is not None), (row.away, do == "move"),
                               (row.using, do in ("attack", "cast", "ready", "action")), (row.blows, do == "attack"),
                               (row.feet, do == "move"), (row.maneuver, do in ("move", "attack")),
                               (row.note, i is not None), (row.up, i is not None and row.index > 0),
                               (row.down, i is not None and row.index < len(self.rows) - 2),
                               (row.add, i is not None)):
            control.layout.display = None if shown else "none"
        row.do.disabled = cd is None
        self._show_refinement(row, i)

    def _show_using(self, row: IntentRow, cd: CombatantDraft | None, i: dict[str, Any] | None) -> None:
        """The weapon (an attack), spell (a cast), item (a ready) or named action choices, and the one chosen."""
        do = i["do"] if i else ""
        options: list[tuple[str, Any]] = [("—", NONE)]
        chosen: Any = NONE
        if cd is not None and do == "attack":
            options = [("its routine" if cd.weapons else "its fists", NONE)] + [
                (w.get("name") or "(no name)", ident) for ident, w in cd.weapons.items()]
            chosen = (i.get("weapons") or [NONE])[0] if i else NONE
        elif cd is not None and do == "cast":
            # a cast names its spell, the first by default (the draft fills it in): Strike Speed wants it named
            options = [(x.get("name") or "(no name)", ident) for ident, x in cd.spells.items()] or [
                ("no spell: add one to the figure", NONE)]
            chosen = i.get("spell", NONE) if i else NONE
        elif cd is not None and do == "ready":
            options = [("material components", COMPONENTS)] + [(f"draw {w.get('name') or '(no name)'}", ident)
                                                               for ident, w in cd.weapons.items()]
            chosen = i.get("item", COMPONENTS) if i else COMPONENTS
        elif do == "action":
            options = [("other (say it in the note)", NONE)] + [(a.name, a.id) for a in named_actions().values()]
            chosen = i.get("action", NONE) if i else NONE
        row.using.options = options
        row.using.value = chosen if chosen in {v for _, v in options} else options[0][1]

    def _show_refinement(self, row: IntentRow, i: dict[str, Any] | None) -> None:
        """The current system's refinement of the intent: where it is placed and the fields only it reads."""
        system = self.system
        table = (i.get("refine", {}).get(system.id, {}) if i else {})
        do = i["do"] if i else ""
        row.refine_line.layout.display = None if i is not None else "none"
        row.system_label.value = f"<i>{html.escape(system.short_title)}</i>:"
        labels = list(system.declaration_phases) or [f"phase {p}" for p in range(1, 4)]
        options = [("as it places it", "")] + [(label, str(p)) for p, label in enumerate(labels, 1)]
        phases = table.get("phases", [])
        key = ",".join(map(str, phases))
        if len(phases) > 1 or (phases and phases[0] > len(labels)):
            options.append((", ".join(labels[p - 1] if p <= len(labels) else f"phase {p}" for p in phases), key))
        row.placed.options = options
        row.placed.value = key
        for name, control in row.fields.items():
            value = table.get(name)
            shown = i is not None and ((name in system.declaration_fields and do in _FIELD_INTENTS[name])
                                       or _set(table, name))
            control.layout.display = None if shown else "none"
            if name == "attacks":
                control.value = value == 2
            elif name == "hold":
                control.value = int(value) if isinstance(value, int) else 0
            else:
                control.value = bool(value)
        kind = {"move": ActionKind.MOVE, "attack": ActionKind.ATTACK, "cast": ActionKind.CAST,
                "hold": ActionKind.READY}.get(do, ActionKind.MISC)
        maneuver = Maneuver(i["maneuver"]) if i and i.get("maneuver") else None
        row.system_note.options = system.note_suggestions(kind, maneuver) if i else []
        row.system_note.value = table.get("note", "")

    def _show_placements(self) -> None:
        """Under each intent row, how the system placed it (from the last plan shown)."""
        mine = self.draft.intents_of(self._current) if self._current is not None else []
        placements = self._plan.for_actor(self._name(self._current)) if self._plan is not None else ()
        by_step = {p.step: p for p in placements}
        for row in self.rows:
            p = by_step.get(row.index + 1) if row.index < len(mine) else None
            if p is None:
                row.placement.value = ""
                continue
            colour = "#a04000" if p.kind in (PlacementKind.NEAREST, PlacementKind.DEFERRED) else "#4d5656"
            row.placement.value = (f"<div style='margin-left:28px;color:{colour};font-size:90%'>"
                                   f"{html.escape(p.why)} <i>[{html.escape(p.rule)}]</i></div>")

    def _name(self, ident: Any) -> str:
        cd = self.draft.combatants.get(ident)
        return cd.name if cd else ""

    def _on_add_intent(self, index: int) -> None:
        if self._current is None:
            return
        self.draft.insert_intent(self._current, index + 1, "attack")
        with self._quiet():
            self._show_intents()
        self._changed()

    def _on_same_for_each(self, _button) -> None:
        if self._current is None:
            return
        self.draft.same_for_each(self._current)
        self._changed()

    def _on_move(self, index: int, by: int) -> None:
        if self._current is None:
            return
        self.draft.move_intent(self._current, index, by)
        with self._quiet():
            self._show_intents()
        self._changed()

    def _on_intent(self, row: IntentRow, change) -> None:
        if self._quiet or self._current is None:
            return
        cd = self.draft.combatants[self._current]
        mine = self.draft.intents_of(self._current)
        had = mine[row.index]["do"] if row.index < len(mine) else None
        i = self.draft.set_intent(self._current, row.index, row.do.value or None)
        if i is not None and not (change.owner is row.do and had != i["do"]):
            self._read_row(row, cd, i)
        with self._quiet():
            if change.owner is row.do:
                self._show_intents()
            elif i is not None:
                self._show_refinement(row, i)  # the system's words follow the maneuver
        self._changed()

    def _read_row(self, row: IntentRow, cd: CombatantDraft, i: dict[str, Any]) -> None:
        """Write the row's intent controls into its table."""
        target = row.target.value
        _put(i, "target", None if target == NONE else target)
        _put(i, "away", True if row.away.value and i["do"] == "move" and i.get("target") is not None else None)
        using = row.using.value
        if i["do"] == "attack":
            _put(i, "weapons", [using] if using in cd.weapons else None)
        elif i["do"] == "cast":
            _put(i, "spell", using if using in cd.spells else None)
        elif i["do"] == "ready":
            _put(i, "item", using if using in cd.weapons else COMPONENTS)
        elif i["do"] == "action":
            _put(i, "action", using if using in named_actions() else None)
        for key, control, words in (("blows", row.blows, "a number of blows like 2, or leave it empty for all"),
                                    ("feet", row.feet, "a whole number of feet like 30, or leave it empty")):
            text = control.value.strip()
            entry = f"{key} {row.index}"
            if text and not re.fullmatch(r"\d+", text):
                self.entry_errors[entry] = (f"{cd.name}, intent {row.index + 1}: {text!r} is not a number; write "
                                            f"{words} (not applied)")
            else:
                self.entry_errors.pop(entry, None)
                _put(i, key, int(text) if text else None)
        maneuver = row.maneuver.value
        _put(i, "maneuver", maneuver if maneuver and Maneuver(maneuver).kind.value == i["do"] else None)
        _put(i, "note", row.note.value or None)

    def _on_refine(self, row: IntentRow, change) -> None:
        if self._quiet or self._current is None:
            return
        mine = self.draft.intents_of(self._current)
        if row.index >= len(mine):
            return
        i = mine[row.index]
        table = dict(i.get("refine", {}).get(self.system.id, {}))
        placed = row.placed.value
        _put(table, "phases", [int(p) for p in placed.split(",")] if placed else None)
        _put(table, "attacks", 2 if row.double.value else None)
        _put(table, "hold", row.hold.value or None)
        for name, box in row.flags.items():
            _put(table, name, True if box.value else None)
        _put(table, "note", row.system_note.value or None)
        refine = dict(i.get("refine", {}))
        if table:
            refine[self.system.id] = table
        else:
            refine.pop(self.system.id, None)
        i["refine"] = refine
        self._changed()


def _library_words(name: str, error: ValueError) -> str:
    """A DM's library file's refusal, as an encounter file that names it gets it: the file, the row's field and
    what is wrong there (``my-campaign.toml, weapon[3].sf: SF is -5..20 (000 §1 E), got 40``)."""
    if isinstance(error, LibraryFileError):
        return error.message if error.field == "file" else f"{name}, {error.field}: {error.message}"
    if isinstance(error, MonsterRowError):
        return f"{name}, {error.message}"
    return f"{name}: {error_words(error)}"


def _many(count: int, thing: str) -> str:
    """``3 monsters``, ``1 weapon``."""
    return f"{count} {thing}{'' if count == 1 else 's'}"


def _linked_out(draft: EncounterDraft) -> dict[str, Any]:
    """The part of an encounter a link to a view does not carry: all but the seed and the rolls."""
    return {key: value for key, value in draft.to_dict().items() if key not in ("seed", "rolls")}


def _set(d: dict[str, Any], name: str) -> bool:
    value = d.get(name)
    return value is not None and value is not False and value != 0 and not (name == "attacks" and value == 1)


def _tag(attr: str, d: Declared) -> str:
    """A control's class for a browser test: its field's name in a file, prefixed by its panel's
    (``ck-mv``, ``ck-class``, ``ck-weapon-sf``)."""
    prefix = attr[: len(attr) - len(d.spec.form)]
    return (prefix + d.spec.file).replace("_", "-")


def _show(control: widgets.ValueWidget, d: Declared, table: Mapping[str, Any] | None,
          figure: Combatant | None = None) -> None:
    """Show the field ``d`` of a draft's ``table`` (a combatant's fields, a weapon, a spell) in its control,
    as typed (a Text shows text); when the table leaves it out, what the ``figure`` the table reads as has, else its
    default (:func:`~combatkit.widgets.views.roster.shown`); disabled when there is no table."""
    value = shown(d, table, figure) if table is not None else d.shown
    control.value = str(value) if isinstance(control, widgets.Text) else value
    control.disabled = table is None


def _control(attr: str, d: Declared) -> widgets.ValueWidget:
    """The panel's control ``attr`` for the declared field ``d``: labelled as declared, with its doc, its range and
    its rule on hover."""
    width, placeholder = _LOOK.get(attr, (_WIDTHS[d.kind], ""))
    look: dict[str, Any] = {"description": d.spec.label, "tooltip": d.spec.tooltip(d.doc),
                            "layout": widgets.Layout(width=width)}
    small = {"description_width": "initial"}
    control: widgets.ValueWidget
    if d.kind == "flag":
        control = widgets.Checkbox(indent=False, **look)
    elif d.kind == "choice":
        control = widgets.Dropdown(options=d.choices, style=small, **look)
    elif attr == "char_class":  # any class may be typed; the list only suggests
        control = widgets.Combobox(options=CLASSES, ensure_option=False, continuous_update=False, style=small, **look)
    elif d.kind == "number":
        control = widgets.IntText(continuous_update=False, style=small, **look)
    else:
        control = widgets.Text(continuous_update=False, style=small, placeholder=placeholder, **look)
    return tag(control, _tag(attr, d))


def _new_item(name: str, called: str) -> dict[str, Any]:
    """A new weapon or spell (``name``: ``"weapons"`` or ``"spells"``) called ``called``, its other fields the
    defaults a table leaves out but its speed: a weapon's SF, a spell's CT."""
    if name == "weapons":
        return {"name": called, "sf": _WEAPON.speed_factor}
    return {"name": called, "ct": _SPELL.casting_time}


def _number_or_text(value: Any) -> Any:
    """A typed number as a number (``"2"`` -> 2), other text as text, empty as None (the file's default)."""
    text = str(value).strip()
    if not text:
        return None
    return int(text) if re.fullmatch(r"[+-]?\d+", text) else text


def _put(table: dict[str, Any], key: str, value: Any) -> None:
    """Set ``table[key]``, or leave the key out (the file's default) when ``value`` is None."""
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
