"""SystemTimeline: one timing system's round of an encounter, with its dice and its optional rules.

The viewer behind each system's dashboard (``dashboards/<system>_timeline.ipynb``) and
the last cell of its teaching notebook. The system is fixed; the encounter is a shipped
example (those written for the system first), a file or pasted TOML. Each change
schedules the round with the engine and redraws the Gantt chart of
:func:`~combatkit.widgets.charts.timeline_chart` on the system's own clock, and the
plain-language "why" list. The dice are the ones the round rolled, each open to a number
rolled at the table (:class:`~combatkit.widgets.dice_entry.DiceEntry`); every yes/no
option of the system (the seed's bracketed and optional rules, off by default) is a
checkbox. Bad input never raises out of a callback: the engine's message is shown, the
chart keeps the last round that worked and the controls keep what was typed. A link carries
the example, the seed, the options and the entered dice (:meth:`SystemTimeline.url_params`).

>>> viewer = SystemTimeline("segments")
>>> viewer.encounter.title[:34], len(viewer.timeline.spans)
('Segment of Action: fighters A, B a', 6)
>>> [s.actor for s in viewer.timeline.spans][:3]
['A', 'X', 'Z']
"""

from __future__ import annotations

import ast
import dataclasses
import html
import inspect
import textwrap
import types
import typing
from typing import Any

import ipywidgets as widgets

from combatkit.encounter import Encounter, load_example
from combatkit.systems import TimingSystem, find_system
from combatkit.timeline import Timeline
from combatkit.widgets.charts import timeline_chart, timeline_frame, timeline_spec
from combatkit.widgets.compare import describe_error, short_title
from combatkit.widgets.dice_entry import DiceEntry, Entered, TableRoller, file_entries
from combatkit.widgets.encounter_picker import EncounterPicker, example_options
from combatkit.widgets.render import chart_view
from combatkit.widgets.messages import show_alert
from combatkit.widgets.urlstate import Param, control_param, dice_param, int_param
from combatkit.widgets.hush import Hush
from combatkit.widgets.classes import tag

__all__ = ["SystemTimeline", "field_docs", "options_class", "switches"]

_EMBED = {"renderer": "svg", "actions": {"export": True, "source": False, "compiled": False, "editor": False}}


def options_class(system: TimingSystem) -> type:
    """The options dataclass ``system.schedule`` takes (``Phase2Options`` for Phase System II)."""
    return system.options_class


def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of a dataclass (as STYLE.md asks), by field name."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for field, after in zip(body, body[1:], strict=False):
        if (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[field.target.id] = " ".join(after.value.value.split())
    return docs


def switches(cls: type) -> list[tuple[str, bool, str]]:
    """``(name, default, doc)`` of every yes/no option of an options dataclass."""
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    return [(f.name, f.default, docs.get(f.name, "")) for f in dataclasses.fields(cls)
            if hints[f.name] is bool and isinstance(f.default, bool)]


class SystemTimeline(widgets.VBox):
    """One system's round of an encounter, drawn on its clock and explained.

    ``system`` is an id or alias (``"segments"``, ``"003"``). ``example`` names a shipped
    encounter (default: the first written for the system); ``encounter`` opens any other.
    ``seed`` seeds the dice nobody entered.
    """

    def __init__(self, system: str, example: str | None = None, *, encounter: Encounter | None = None,
                 seed: int = 1) -> None:
        self.system = find_system(system)
        self.encounter: Encounter | None = None
        """The encounter shown."""
        self.timeline: Timeline | None = None
        """Its last round that worked: what the chart and the why list show."""
        self.error = ""
        """Why the current input could not be shown (the engine's message), or ``""``."""
        self._left: dict[str, Entered] = {}
        self._quiet = Hush()
        self._options_class = options_class(self.system)

        self.heading = tag(widgets.HTML(), "heading")
        self.picker = EncounterPicker(self._load, self._show_error, first_for=self.system.id)
        self.seed = tag(widgets.IntText(value=seed, description="seed", continuous_update=False,
                                        layout=widgets.Layout(width="150px"), style={"description_width": "34px"}),
                        "seed")
        self.reroll = tag(widgets.Button(description="Roll again", icon="dice",
                                         tooltip="Next seed: every die nobody entered is rolled again"), "reroll")
        self.dice = DiceEntry(self._refresh)
        self.options: dict[str, widgets.Checkbox] = {}
        """One checkbox per yes/no option of the system, by option name."""
        for name, default, doc in switches(self._options_class) if self._options_class else ():
            box = widgets.Checkbox(value=default, description=name.replace("_", " "), indent=False,
                                   tooltip=doc, layout=widgets.Layout(width="auto"))
            self.options[name] = tag(box, "option", f"option-{name.replace('_', '-')}")
        option_rows = [widgets.HBox([box, widgets.HTML(f"<span style='color:#566573;font-size:90%'>"
                                                       f"{html.escape(box.tooltip)}</span>")],
                                    layout=widgets.Layout(align_items="center")) for box in self.options.values()]
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.why = tag(widgets.HTML(), "why")

        name = example or (None if encounter is not None else example_options(self.system.id)[0][1])
        first = encounter if encounter is not None else load_example(name)
        self._load(first, name)
        self.picker.select(name)
        shown = self.timeline or Timeline(self.system.id, self.system.clock, ())
        frame = timeline_frame(shown)
        self.chart = tag(chart_view(timeline_chart(frame, shown.clock), embed_options=_EMBED), "chart")
        """The chart widget; each redraw replaces its ``spec`` in place."""

        accordions = [widgets.Accordion([self.dice], titles=("Dice (enter what was rolled at the table)",),
                                        selected_index=None)]
        if option_rows:
            accordions.append(widgets.Accordion([widgets.VBox(option_rows)],
                                                titles=(f"Optional rules of {self.system.source} "
                                                        "(off: the seed's default)",), selected_index=None))
        super().__init__([
            self.heading,
            self.picker,
            widgets.HBox([self.seed, self.reroll], layout=widgets.Layout(align_items="center")),
            *accordions,
            self.message,
            self.chart,
            self.why,
        ])
        tag(self, "system-timeline", f"system-{self.system.id}")
        self.seed.observe(self._on_seed, "value")
        self.reroll.on_click(lambda _: setattr(self.seed, "value", self.seed.value + 1))
        for box in self.options.values():
            box.observe(lambda _: self._refresh(), "value")

    # ------------------------------------------------------------ public

    def show_example(self, name: str) -> None:
        """Show the shipped example ``name``; an unknown name is reported, not raised."""
        self.picker.open_example(name)

    def show_encounter(self, encounter: Encounter) -> None:
        """Show any encounter."""
        self.picker.select(None)
        self._load(encounter, None)

    def url_params(self) -> list[Param]:
        """The keys this viewer's URL carries (see :mod:`combatkit.widgets.urlstate`), applied in this
        order: the example, the seed (always written: an example file may bring its own), each yes/no
        option under its name (``speed_bands=1``) and the dice entered over the example's own."""
        return [
            control_param("example", self.picker.example),
            int_param("seed", lambda: self.seed.value, self._set_seed, low=-(2**31), high=2**31 - 1),
            *(control_param(name, box) for name, box in self.options.items()),
            dice_param("dice", lambda: self.dice.changes, self.dice.enter),
        ]

    def url_caveat(self) -> str:
        """What a link cannot carry (``""``: nothing): an encounter opened from a file or pasted in."""
        return self.picker.url_caveat()

    @property
    def chosen_options(self) -> Any:
        """The options the checkboxes give (the system's options dataclass), or None."""
        if self._options_class is None:
            return None
        return self._options_class(**{name: box.value for name, box in self.options.items()})

    # ------------------------------------------------------------ loading and running

    def _set_seed(self, seed: int) -> None:
        self.seed.value = seed

    def _on_seed(self, _change) -> None:
        if not self._quiet:
            self._refresh()

    def _load(self, encounter: Encounter, _name: str | None) -> None:
        self.encounter = encounter
        with self._quiet():
            if encounter.seed is not None:
                self.seed.value = encounter.seed
        by_dice, self._left = file_entries(encounter, self.seed.value)
        self.dice.reset(by_dice)
        written = find_system(encounter.system).title
        note = "" if encounter.system == self.system.id else f" Written for {html.escape(written)}."
        self.heading.value = (f"<h3 style='margin:4px 0'>{html.escape(encounter.title)}</h3>"
                              f"<div style='color:#4d5656;max-width:1000px'><b>{html.escape(self.system.title)}</b> "
                              f"({html.escape(self.system.source)}).{note} "
                              f"{html.escape(' '.join(encounter.description.split()))}</div>")
        self._refresh()

    def _refresh(self) -> None:
        """Schedule the round and redraw; on a rules error show it and keep the last round that worked."""
        left = self._left if self.encounter.system == self.system.id else {}
        roller = TableRoller(seed=self.seed.value, entered=dict(left), by_dice=dict(self.dice.entries))
        try:
            timeline = self.system.schedule(self.encounter, roller, self.chosen_options)
        except ValueError as error:
            self._show_error(error)
            return
        self.timeline = timeline
        if hasattr(self, "chart"):
            self.chart.spec = timeline_spec(timeline_frame(timeline), timeline.clock)
        self.why.value = _why_html(timeline)
        self.dice.show((roll, short_title(self.system)) for roll in timeline.rolls)
        self._show_error(None)

    def _show_error(self, error: ValueError | None) -> None:
        self.error = describe_error(error) if error is not None else ""
        show_alert(self.message, "" if not self.error else (
            f"<b>Not applied:</b> {html.escape(self.error)}<br>The chart and the explanation still show the last "
            "round that worked; your input is kept so you can fix it."))


def _why_html(timeline: Timeline) -> str:
    """The round's notes, then one line per action in time order."""
    lines = timeline.why()
    notes, actions = lines[: len(timeline.notes)], lines[len(timeline.notes):]
    items = "".join(f"<li>{html.escape(line)}</li>" for line in actions) or "<li>Nothing declared.</li>"
    return ("<div style='max-width:1000px'><h4 style='margin:6px 0'>Why, step by step</h4>"
            f"<ul>{''.join(f'<li>{html.escape(n)}</li>' for n in notes)}</ul><ol>{items}</ol></div>")
