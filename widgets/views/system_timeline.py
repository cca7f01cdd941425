"""SystemTimeline: one timing system's round of an encounter, with its dice and its optional rules.

The viewer behind each system's dashboard (``dashboards/<system>_timeline.ipynb``) and
the last cell of its teaching notebook. The system is fixed; the encounter is a shipped
example (those written for the system first), a file or pasted TOML, edited in the page
with the encounter editor in the system's own terms
(:class:`~combatkit.widgets.views.editor.EncounterEditor`: combatants, weapons, spells, hits, what each
figure means to do, and this system's refinements of it, placed in its phases, steps or actions). Each change
schedules the round with the engine and redraws the Gantt chart of
:func:`~combatkit.widgets.charts.timeline.timeline_chart` on the system's own clock, and the
plain-language "why" list. The dice are the ones the round rolled, each open to a number
rolled at the table (:class:`~combatkit.widgets.views.dice_entry.DiceEntry`); every yes/no
option of the system (the seed's bracketed and optional rules, off by default, or as the
encounter file's ``[options.<system>]`` sets them) is a checkbox. Bad input never raises out
of a callback: the engine's message is shown, the chart keeps the last round that worked and
the controls keep what was typed. The save link holds the round as shown: the encounter as
edited, written for this system, with the seed, the dice entered and the options
(:attr:`SystemTimeline.saved`). A link carries the example (or the encounter itself, edited, opened from a file
or pasted in), the seed, the options and the entered dice (:meth:`SystemTimeline.url_params`).

>>> viewer = SystemTimeline("segments")
>>> viewer.encounter.title[:34], len(viewer.timeline.spans)
('Segment of Action: fighters A, B a', 6)
>>> [s.actor for s in viewer.timeline.spans][:3]
['A', 'X', 'Z']
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any

import ipywidgets as widgets

from combatkit.encounter import Encounter
from combatkit.encounter_files import load_example
from combatkit.systems import TimingSystem, find_system
from combatkit.timeline import Timeline
from combatkit.widgets.charts.timeline import placeholder_chart, timeline_frame, timeline_spec
from combatkit.widgets.views.base import EncounterView
from combatkit.widgets.views.dice_entry import DiceEntry, Entered, TableRoller, file_entries
from combatkit.widgets.views.editor import EncounterEditor, saved_rolls, with_options
from combatkit.widgets.views.encounter_picker import EncounterPicker, example_options
from combatkit.widgets.charts.document import RoundSection
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.views.downloads import round_file, round_link
from combatkit.widgets.views.player import RoundPlayer
from combatkit.widgets.views.options_view import OptionControls, description_html, in_force_words, inert_options
from combatkit.widgets.state.urlstate import Param, bool_param, dice_param
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import tag

__all__ = ["SystemTimeline"]

_EMBED = {"renderer": "svg", "actions": {"export": True, "source": False, "compiled": False, "editor": False}}


class SystemTimeline(EncounterView):
    """One system's round of an encounter, drawn on its clock, explained, and open to edits.

    ``system`` is an id or alias (``"segments"``, ``"003"``). ``example`` names a shipped
    encounter (default: the first written for the system); ``encounter`` opens any other.
    ``seed`` seeds the dice nobody entered.
    """

    def __init__(self, system: str, example: str | None = None, *, encounter: Encounter | None = None,
                 seed: int = 1) -> None:
        self.system = find_system(system)
        self.loaded: Encounter | None = None
        """The encounter as it was opened (its file's rolls and options are what the dice and the
        checkboxes start from)."""
        self.encounter: Encounter | None = None
        """The encounter shown: the one opened with the edits made since, as last read without error."""
        self.timeline: Timeline | None = None
        """Its last round that worked: what the chart and the why list show."""
        self._own_round: Timeline | None = None
        """The round the encounter gave when it was opened: what its description was written for."""
        self.saved: Encounter | None = None
        """That round as an encounter (what the save link holds): the encounter written for this system,
        with the seed, the dice entered and the options in force."""
        self._left: dict[str, Entered] = {}
        self._quiet = Hush()

        self.heading = tag(widgets.HTML(), "heading")
        self.download = tag(widgets.HTML(), "download")
        self.round_download = round_link(self.round_file)
        """The link that downloads the round shown as a document (:meth:`round_file`)."""
        self.picker = EncounterPicker(self._load, self._show_load_error, first_for=self.system.id,
                                      beside=[self.download, self.round_download])
        self.seed = tag(widgets.IntText(value=seed, description="seed", continuous_update=False,
                                        layout=widgets.Layout(width="150px"), style={"description_width": "34px"}),
                        "seed")
        self.reroll = tag(widgets.Button(description="Roll again", icon="dice",
                                         tooltip="Next seed: every die nobody entered is rolled again"), "reroll")
        self.dice = DiceEntry(self._refresh)
        self.option_controls = OptionControls(self.system.options(), lambda: self._on_option(None),
                                              [switch.name for switch in self.system.switches()])
        """The yes/no options' checkboxes, each with its doc and, when it changes nothing in the round shown,
        a note saying so and why."""
        self.options: dict[str, widgets.Checkbox] = self.option_controls.controls
        """One checkbox per yes/no option of the system (:meth:`~combatkit.systems.TimingSystem.switches`), by
        option name."""
        self._applied_options: Any = None
        self.options_in_force = tag(widgets.HTML(), "options-in-force")
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.why = tag(widgets.HTML(), "why")
        self.editor = EncounterEditor(self._on_edit, self.system, on_new=self.show_encounter)
        """The encounter editor, in this system's terms."""

        name = example or (None if encounter is not None else example_options(self.system.id)[0][1])
        first = encounter if encounter is not None else load_example(name)
        self._load(first, name)
        self.picker.select(name)
        shown = self.timeline or Timeline(self.system.id, self.system.clock, ())
        frame = timeline_frame(shown)
        self.chart = tag(chart_view(placeholder_chart(), embed_options=_EMBED), "chart")
        """The chart widget; each redraw replaces its ``spec`` in place."""
        self.chart.spec = timeline_spec(frame, shown.clock)
        self.player = RoundPlayer(lambda: self.timeline, [self.chart])
        """Play or step through the round: a cursor on the chart, what happens at its tick under it."""

        accordions = [widgets.Accordion([self.dice], titles=("Dice (enter what was rolled at the table)",),
                                        selected_index=None)]
        if self.options:
            accordions.append(widgets.Accordion([self.option_controls],
                                                titles=(f"Optional rules of {self.system.source} "
                                                        "(off: the seed's default)",), selected_index=None))
        super().__init__([
            self.heading,
            self.picker,
            widgets.HBox([self.seed, self.reroll], layout=widgets.Layout(align_items="center")),
            self.options_in_force,
            *accordions,
            self.message,
            self.player.controls,
            self.chart,
            self.player.now,
            self.editor,
            self.why,
        ])
        tag(self, "system-timeline", f"system-{self.system.id}")
        self.seed.observe(self._on_seed, "value")
        self.reroll.on_click(lambda _: setattr(self.seed, "value", self.seed.value + 1))

    # ------------------------------------------------------------ public

    def _own_params(self) -> list[Param]:
        """After the example and the seed: each yes/no option under its name (``speed_bands=1``) where it differs
        from what the example sets, and the dice entered over the example's own."""
        return [
            *(bool_param(name, lambda name=name: self._option_change(name),
                         lambda value, box=box: setattr(box, "value", value)) for name, box in self.options.items()),
            dice_param("dice", lambda: self.dice.changes, self.dice.enter),
        ]

    def round_file(self) -> tuple[str, str] | None:
        """The round shown as a document to print or share (:func:`~combatkit.widgets.views.downloads.round_file`):
        its file name and HTML; None before a round was drawn."""
        if self.timeline is None or self.saved is None:
            return None
        timeline, system = self.timeline, self.system
        section = RoundSection(system.title, system.source, timeline,
                               timeline_spec(timeline_frame(timeline), timeline.clock),
                               in_force_words(self._applied_options, system.options()))
        return round_file(self.saved.title, system.id, [section], seed=self._applied_seed())

    def _applied_seed(self) -> int:
        return self.saved.seed if self.saved is not None else self.seed.value

    @property
    def chosen_options(self) -> Any:
        """The options in force (the system's options dataclass): the encounter's own, with the checkboxes'."""
        own = self.system.encounter_options(self.encounter) if self.encounter is not None else self.system.options()
        return dataclasses.replace(own, **{name: box.value for name, box in self.options.items()})

    # ------------------------------------------------------------ loading and running

    def _on_seed(self, _change) -> None:
        if not self._quiet:
            self._refresh()

    def _on_option(self, _change) -> None:
        if not self._quiet:
            self._refresh()

    def _file_option(self, name: str) -> Any:
        """What the encounter as opened sets option ``name`` to (the seed's default if it sets nothing)."""
        return getattr(self.system.encounter_options(self.loaded), name)

    def _option_change(self, name: str) -> bool | None:
        """The option in force in the round shown where it differs from what the encounter as opened sets, else
        None (a link leaves it out: the example sets it)."""
        applied = self._applied_options if self._applied_options is not None else self.chosen_options
        value = getattr(applied, name)
        return value if value != self._file_option(name) else None

    def _load(self, encounter: Encounter, _name: str | None = None) -> None:
        self.loaded = self.encounter = encounter
        self._own_round = None
        with self._quiet():
            if encounter.seed is not None:
                self.seed.value = encounter.seed
            for name, box in self.options.items():
                box.value = self._file_option(name)
        by_dice, self._left = file_entries(encounter, self.seed.value)
        self.dice.reset(by_dice)
        self.editor.load(encounter)
        self.heading.value = _heading_html(encounter, self.system)
        self._refresh()

    def _on_edit(self) -> None:
        """An edit in the editor: read the encounter again and run its round, or say what is wrong."""
        try:
            self.encounter = self.editor.draft.encounter()
        except ValueError as error:
            self._show_error(error)
            return
        self.heading.value = _heading_html(self.encounter, self.system)
        self._refresh()

    def _refresh(self) -> None:
        """Schedule the round and redraw; on a rules error show it and keep the last round that worked."""
        encounter = self.encounter
        left = self._left if encounter.system == self.system.id else {}

        def roller() -> TableRoller:
            return TableRoller(seed=self.seed.value, entered=dict(left), by_dice=dict(self.dice.entries))

        try:
            options = self.chosen_options
            timeline = self.system.schedule(encounter, roller(), options)
        except ValueError as error:
            self.editor.show_plan(None)
            self._show_error(error)
            return
        self.timeline, self._applied_options = timeline, options
        self._own_round = timeline if self._own_round is None else self._own_round
        self._show_options(lambda given: self.system.schedule(encounter, roller(), given), options, timeline)
        self.editor.show_plan(timeline.plan)
        self._offer(with_options(dataclasses.replace(encounter, system=self.system.id, seed=self.seed.value,
                                                     rolls=saved_rolls(timeline, self.dice.entries, left)),
                                 self.system, options),
                    f"Save this round (.toml, for {self.system.short_title})")
        if hasattr(self, "chart"):
            self.player.refresh()
            self.chart.spec = timeline_spec(timeline_frame(timeline), timeline.clock, tick=self.player.tick)
        self.why.value = _why_html(timeline)
        self.dice.show((roll, self.system.short_title) for roll in timeline.rolls)
        self._show_error(None)

    def _show_options(self, schedule, options: Any, timeline: Timeline) -> None:
        """The options in force in a line, the description only where they are the ones it was written for,
        and beside each checkbox whether it changes this round (one more schedule per checkbox)."""
        written_for = self.system.encounter_options(self.encounter)
        self.options_in_force.value = (f"<div style='color:#4d5656'><b>Options in force</b>: "
                                       f"{html.escape(in_force_words(options, self.system.options()))}</div>")
        self.heading.value = _heading_html(self.encounter, self.system,
                                           description_html(self.encounter.description, options, written_for,
                                                            timeline, self._own_round))
        self.option_controls.show_inert(inert_options(schedule, options, list(self.options), timeline.clock))


def _heading_html(encounter: Encounter, system: TimingSystem, description: str | None = None) -> str:
    """The title, the system and ``description`` (HTML; default: the encounter's own, escaped)."""
    try:
        written = find_system(encounter.system).title
    except ValueError:
        written = encounter.system
    note = "" if encounter.system == system.id else f" Written for {html.escape(written)}."
    if description is None:
        description = html.escape(" ".join(encounter.description.split()))
    return (f"<h3 style='margin:4px 0'>{html.escape(encounter.title)}</h3>"
            f"<div class='ck-description' style='color:#4d5656;max-width:1000px'><b>{html.escape(system.title)}</b> "
            f"({html.escape(system.source)}).{note} {description}</div>")


def _why_html(timeline: Timeline) -> str:
    """The round's notes, then one line per action in time order."""
    lines = timeline.why()
    notes, actions = lines[: len(timeline.notes)], lines[len(timeline.notes):]
    items = "".join(f"<li>{html.escape(line)}</li>" for line in actions) or "<li>Nothing declared.</li>"
    return ("<div style='max-width:1000px'><h4 style='margin:6px 0'>Why, step by step</h4>"
            f"<ul>{''.join(f'<li>{html.escape(n)}</li>' for n in notes)}</ul><ol>{items}</ol></div>")
