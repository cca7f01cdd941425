"""TimelineExplorer: edit an encounter and watch who acts when in the round, and why.

A thin view over the engine. Every control writes into an :class:`EncounterDraft`
(the form's working copy); each change rebuilds the encounter with the engine's
reader, schedules its Phase System I round (000 §1), and redraws the
chart, the plain-language "why" list and the download link. Bad input never raises
out of a callback: the engine's error (which names the rule or the field and the value
given) is shown above the chart, the chart keeps the last good round, and every
control keeps what was typed.

>>> explorer = TimelineExplorer("orc-closes-on-longbowman")
>>> [row.do.value for row in explorer.rows]
['attack', '']
>>> explorer.dex.value = 40
>>> print(explorer.error)
combatants[0].dex (Aldric): DEX is 1..25 (PH Table 2), got 40
>>> explorer.dex.value, explorer.timeline.spans[0].actor
(40, 'Aldric')
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any

import ipywidgets as widgets

from combatkit.dice import Roller, key_parts, matches_form, roll_key
from combatkit.encounter import Encounter
from combatkit.encounter_files import load_example
from combatkit.systems import SYSTEMS, TimingSystem
from combatkit.systems.base import roll_words
from combatkit.systems.phase1 import PHASE1, Phase1Options
from combatkit.timeline import Timeline, WhyRow
from combatkit.widgets.charts.timeline import placeholder_chart, timeline_frame, timeline_spec
from combatkit.widgets.state.draft import EncounterDraft
from combatkit.widgets.views.base import EncounterView
from combatkit.widgets.views.editor import NONE, EncounterEditor, IntentRow, with_options
from combatkit.widgets.views.encounter_picker import EncounterPicker
from combatkit.widgets.charts.document import RoundSection
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.views.downloads import round_file, round_link
from combatkit.widgets.views.player import RoundPlayer
from combatkit.widgets.views.options_view import OptionControls, description_html, in_force_words, inert_options
from combatkit.widgets.state.urlstate import Param, int_list_param, options_params
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import slug, tag

__all__ = ["DEFAULT_EXAMPLE", "IntentRow", "NONE", "TimelineExplorer"]

DEFAULT_EXAMPLE = "fighter-and-mage-vs-orc-archer"
"""The encounter a new explorer opens with: a first Phase System I round (000 §1)."""

INITIATIVE_DICE = "d10"
"""000 §1 A: "Each group of characters rolls a d10, with the lowest roll winning initiative"."""

_EDITOR_CONTROLS = (
    "combatant", "add_combatant", "remove_combatant", "name", "side", "char_class", "level", "dex", "mv", "weapon",
    "add_weapon", "remove_weapon", "weapon_name", "weapon_sf", "weapon_magic", "weapon_kind", "spell", "add_spell",
    "remove_spell", "spell_name", "spell_ct", "hits",
)
"""The editor's controls the explorer also answers to (``explorer.dex`` is ``explorer.editor.dex``)."""


class TimelineExplorer(EncounterView):
    """Choose or load an encounter, edit it, and see its round on the system's clock.

    ``example`` names a shipped encounter (see :func:`~combatkit.example_encounters`);
    ``encounter`` opens any other. ``seed`` seeds the dice nobody entered. ``options``
    go to the timing system's ``schedule`` (e.g. :class:`~combatkit.Phase1Options`); without
    them, the encounter's own (its file's ``[options.phase1]``).

    The example list offers Phase System I encounters and the initiative boxes are its d10
    per side. A file written for another system still opens, as a Phase System I round (this is
    Phase System I's page, #45): the initiative boxes decide it, the editor
    (:class:`~combatkit.widgets.views.editor.EncounterEditor`) shows Phase System I's refinements, the
    heading names the system it was written for, and the save link writes it for Phase System I.
    """

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, *, encounter: Encounter | None = None, seed: int = 1,
                 options: Any = None) -> None:
        self.options = options
        """The options chosen in the page (or given), or None: the encounter's own."""
        self._applied_options = options
        self.in_force: Any = None
        """The options of the round shown: :attr:`options`, or the encounter's own."""
        self.saved: Encounter | None = None
        """What the download link holds: the encounter shown, written for Phase System I, with the options in
        force."""
        self.timeline: Timeline | None = None
        """Its round: what the chart and the why list show."""
        self._quiet = Hush()
        self._spare_rolls: dict[str, int] = {}
        self._own_round: Timeline | None = None
        """The round the encounter gave when it was opened: what its description was written for."""

        self.heading = tag(widgets.HTML(), "heading")
        self.download = tag(widgets.HTML(), "download")
        self.round_download = round_link(self.round_file)
        """The link that downloads the round shown as a document (:meth:`round_file`)."""
        self.picker = EncounterPicker(lambda encounter, _name: self._pick(encounter), self._show_load_error,
                                      only=PHASE1.id, beside=[self.download, self.round_download])
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
        self.option_controls = OptionControls(options or Phase1Options(), self._on_option)
        """One control per :class:`~combatkit.Phase1Options` field (``ck-option-<name>``), each saying when it
        changes nothing in this round."""
        self.options_in_force = tag(widgets.HTML(), "options-in-force")
        self.options_box = tag(widgets.Accordion([self.option_controls], titles=(
            "Options: Phase System I's readings of 000 where it is ambiguous (the seed's default unless set)",),
            selected_index=None), "options-box")
        self.editor = EncounterEditor(self._on_edit, PHASE1, on_new=self.show_encounter)
        """The encounter editor: combatants, weapons, spells, hits, intents and refinements."""
        for name in _EDITOR_CONTROLS:
            setattr(self, name, getattr(self.editor, name))

        first = encounter if encounter is not None else load_example(example or DEFAULT_EXAMPLE)
        self._load(first)
        if encounter is None:
            self.picker.select(example or DEFAULT_EXAMPLE)
        shown = self.timeline or Timeline(PHASE1.id, PHASE1.clock, ())
        frame = timeline_frame(shown)
        self.chart = tag(chart_view(placeholder_chart()), "chart")
        """The chart widget. Each draw replaces its ``spec`` in place (``timeline_spec``, a few ms, where
        setting ``.chart`` would rebuild and revalidate the whole chart); its ``.chart`` draws nothing."""
        self.chart.spec = timeline_spec(frame, shown.clock)
        self.player = RoundPlayer(lambda: self.timeline, [self.chart])
        """Play or step through the round: a cursor on the chart, what happens at its tick under it."""

        super().__init__([
            self.heading,
            self.picker,
            widgets.HBox([widgets.HTML(f"<b>Initiative</b> ({INITIATIVE_DICE} per side, low wins):"),
                          self.initiative_box, self.seed, self.roll],
                         layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
            self.options_in_force,
            self.options_box,
            self.message,
            self.player.controls,
            self.chart,
            self.player.now,
            self.editor,
            self.why,
        ])
        tag(self, "explorer")
        self.seed.observe(self._on_seed, "value")
        self.roll.on_click(self._on_roll)

    # ------------------------------------------------------------ public

    @property
    def draft(self) -> EncounterDraft:
        """The encounter being edited (the editor's working copy)."""
        return self.editor.draft

    @property
    def rows(self) -> list[IntentRow]:
        """The current combatant's intent rows (the editor's)."""
        return self.editor.rows

    def _own_params(self) -> list[Param]:
        """After the example and the seed: each side's initiative d10 (always written: an example file brings its
        own), and the Phase System I options. Each is read from the round shown (the last one the engine
        accepted), as the seed is, so a value the explorer refused ("Not applied") never goes into a link."""
        return [
            int_list_param("init", self._applied_initiative, self._set_initiative, low=1, high=10, most=12),
            *options_params(lambda: self._applied_options or Phase1Options(), self.set_options),
        ]

    def round_file(self) -> tuple[str, str] | None:
        """The round shown as a document to print or share (:func:`~combatkit.widgets.views.downloads.round_file`):
        its file name and HTML; None before a round was drawn."""
        if self.timeline is None or self.encounter is None:
            return None
        timeline = self.timeline
        section = RoundSection(PHASE1.title, PHASE1.source, timeline,
                               timeline_spec(timeline_frame(timeline), timeline.clock),
                               in_force_words(self.in_force, Phase1Options()))
        return round_file(self.encounter.title, PHASE1.id, [section], seed=self._applied_seed())

    def _applied_seed(self) -> int:
        return self.encounter.seed if self.encounter is not None and self.encounter.seed is not None \
            else self.seed.value

    def _applied_initiative(self) -> list[int]:
        if self.encounter is None:
            return [box.value for box in self.initiative.values()]
        sides = dict.fromkeys(c.side for c in self.encounter.combatants)
        return [self.encounter.rolls.get(_initiative(side)) for side in sides]

    def set_options(self, options: Phase1Options) -> None:
        """Schedule the round with ``options`` from now on (the option controls show them)."""
        self.options = options
        self.option_controls.show(options)
        self._refresh()

    def _on_option(self) -> None:
        """An option control changed: every option as the controls show them, from now on."""
        self.options = self.option_controls.value
        self._refresh()

    def _pick(self, encounter: Encounter) -> None:
        """An example, a file or pasted text was opened: its own options apply until one is changed."""
        self.options = None
        self._load(encounter)

    def _set_initiative(self, rolls: list[int]) -> None:
        for box, roll in zip(self.initiative.values(), rolls):
            box.value = roll

    # ------------------------------------------------------------ loading

    def _load(self, encounter: Encounter) -> None:
        """Replace the draft with ``encounter`` and show it (it passed the reader's checks already)."""
        self.editor.load(encounter, PHASE1)
        self._spare_rolls.clear()
        self._own_round = None
        with self._quiet():
            if encounter.seed is not None:
                self.seed.value = encounter.seed
            self.draft.meta["seed"] = self.seed.value
            self._sync_sides()
        self._refresh()

    def _on_edit(self) -> None:
        """An edit in the editor: a side may have come or gone, then the round is run again."""
        with self._quiet():
            self._sync_sides()
        self._refresh()

    # ------------------------------------------------------------ initiative and seed

    def _sync_sides(self) -> None:
        """One entry per side, holding the d10 the side rolled (rolled with the seed if none was entered)."""
        rolls = self.draft.meta.setdefault("rolls", {})
        sides = self.draft.sides
        for key in [k for k in rolls if (parts := key_parts(k))[0] == "initiative" and parts[1] not in sides]:
            self._spare_rolls[key] = rolls.pop(key)
        roller = Roller(seed=self.seed.value)
        for side in sides:
            key = _initiative(side)
            if key not in rolls:
                rolls[key] = self._spare_rolls.pop(key, None) or roller.roll(INITIATIVE_DICE, key).total
        if list(self.initiative) == sides:
            for side, box in self.initiative.items():
                box.value = rolls[_initiative(side)]
            return
        for box in self.initiative.values():
            box.close()
        self.initiative = {}
        for side in sides:
            box = tag(widgets.IntText(value=rolls[_initiative(side)], description=side or "(no side)",
                                      continuous_update=False, style={"description_width": "initial"},
                                      layout=widgets.Layout(width="150px")), "init", f"init-{slug(side, 'encounter')}")
            box.observe(lambda change, side=side: self._on_initiative(side, change.new), "value")
            self.initiative[side] = box
        self.initiative_box.children = tuple(self.initiative.values())

    def _on_initiative(self, side: str, value: int) -> None:
        if self._quiet:
            return
        self.draft.meta["rolls"][_initiative(side)] = value
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
                key = _initiative(side)
                box.value = self.draft.meta["rolls"][key] = roller.roll(INITIATIVE_DICE, key).total
            self.seed.value += 1
            self.draft.meta["seed"] = self.seed.value
        self._refresh()

    # ------------------------------------------------------------ the engine

    def _refresh(self) -> None:
        """Rebuild the encounter, schedule its round and redraw; on bad input show why and keep the last good round."""
        try:
            encounter = self.draft.encounter()
            system = PHASE1  # this page's round is always Phase System I's, whatever the file was written for (#45)
            rolls = _phase1_rolls(encounter)
            timeline = system.schedule(encounter, Roller(seed=encounter.seed, entered=rolls), self.options)
        except ValueError as error:
            self.editor.show_plan(None)
            self._show_error(error)
            return
        self.encounter, self.timeline = encounter, timeline
        self.editor.show_plan(timeline.plan)
        self._applied_options = self.options
        self._own_round = timeline if self._own_round is None else self._own_round
        written_for = system.encounter_options(encounter)
        self.in_force = system.options(self.options if self.options is not None else written_for)
        if hasattr(self, "chart"):
            self.player.refresh()
            self.chart.spec = timeline_spec(timeline_frame(timeline), timeline.clock, tick=self.player.tick)
        self._show_options(system, encounter, rolls, timeline)
        self.heading.value = _heading_html(encounter, system.title,
                                           description_html(encounter.description, self.in_force, written_for,
                                                            timeline, self._own_round))
        self.why.value = _why_html(timeline)
        self._offer(with_options(dataclasses.replace(encounter, system=system.id, rolls=rolls), system, self.options))
        self._show_error(None)

    def _show_options(self, system: TimingSystem, encounter: Encounter, rolls: dict, timeline: Timeline) -> None:
        """The options in force, in a line and in the controls, each control saying whether it changes this
        round."""
        self.option_controls.show(self.in_force)
        self.option_controls.show_inert(inert_options(
            lambda options: system.schedule(encounter, Roller(seed=encounter.seed, entered=rolls), options),
            self.in_force, list(self.option_controls.controls), timeline.clock))
        self.options_in_force.value = (f"<div style='color:#4d5656'><b>Options in force</b>: "
                                       f"{html.escape(in_force_words(self.in_force, Phase1Options()))}</div>")


def _phase1_rolls(encounter: Encounter) -> dict[str, Any]:
    """The encounter's rolls this page's round takes: all of a Phase System I file's (the engine names any it
    does not call), only those Phase System I calls (a side's initiative d10, a CON check) of a file written
    for another system, whose other rolls are its own system's dice."""
    if encounter.system == PHASE1.id:
        return dict(encounter.rolls)
    words = roll_words(encounter)
    return {k: v for k, v in encounter.rolls.items() if matches_form(k, PHASE1.roll_keys, words)}


def _heading_html(encounter: Encounter, system_title: str, description: str) -> str:
    """The title, the system (and the one the file was written for, if another) and ``description`` (HTML:
    :func:`~combatkit.widgets.views.options_view.description_html`)."""
    note = ""
    if encounter.system != PHASE1.id:
        written = SYSTEMS[encounter.system].title if encounter.system in SYSTEMS else encounter.system
        note = (f" Written for {html.escape(written)}: this page shows its Phase System I round "
                f"(the comparison shows every system's).")
    return (f"<h3 style='margin:4px 0'>{html.escape(encounter.title)}</h3>"
            f"<div class='ck-description' style='color:#4d5656'>{html.escape(system_title)}.{note} "
            f"{description}</div>")


def _initiative(side: str) -> str:
    """The key a side's initiative d10 is entered under (000 §1 A)."""
    return roll_key("initiative", side)


def _why_html(timeline: Timeline) -> str:
    """The round's notes, then how each intent was placed and one line per action in time order (the engine's
    rows, :meth:`~combatkit.Timeline.why_rows`): when in bold, the rule in grey."""
    rows = timeline.why_rows()
    notes, actions = rows[: len(timeline.notes)], rows[len(timeline.notes):]

    def action(row: WhyRow) -> str:
        if row.span is None:
            return f"<li>{html.escape(row.text)}</li>"
        return (f"<li><b>{html.escape(row.when)}</b>: {html.escape(row.text)} "
                f"<span style='color:#5f6b6d'>[{html.escape(row.rule)}]</span></li>")

    items = "".join(action(a) for a in actions) or "<li>Nothing declared yet.</li>"
    return ("<div style='max-width:980px'><h4 style='margin:6px 0'>Why, step by step</h4>"
            f"<ul>{''.join(f'<li>{html.escape(n.text)}</li>' for n in notes)}</ul><ol>{items}</ol></div>")
