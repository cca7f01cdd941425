"""A timing system's options as a reader meets them: one control each, the options in force in words,
which of them change this round, and words about the round that follow them.

* :class:`OptionControls`: one control per field of a system's options dataclass (a checkbox for a
  yes/no field, a dropdown for a choice or a number), each with the doc written under its field, and
  beside it, when it changes nothing in the round shown, a note saying so and why.
* :func:`inert_options`: which options change nothing in a round, found the plain way: the round is
  scheduled again with each option switched (one extra schedule per option) and the two timelines'
  spans compared. Its words come from the option's doc, never from a list kept by hand.
* :func:`in_force_words`: the options in force, in a line ("tie track: loser; the rest as the seed reads
  it").
* :func:`description_html`: an example's description as written while the round shown is the example's own
  (its options, its dice, its figures); otherwise the round's own notes from the engine, since fixed prose
  ("Mira's DEX 17 pulls her onto the winner track") may no longer hold.

>>> from combatkit import find_system, load_example
>>> from combatkit.systems.phase1 import Phase1Options
>>> system, encounter = find_system("phase1"), load_example("orc-closes-on-longbowman")
>>> inert = inert_options(lambda o: system.schedule(encounter, None, o), Phase1Options(), ["incremental_movement",
...                       "phase2_literal_sf_band"], system.clock)
>>> inert["incremental_movement"]
''
>>> print(inert["phase2_literal_sf_band"][:88])
No effect on this round: on or off, every action falls on the same half-segment. What it
>>> in_force_words(Phase1Options(incremental_movement=True), Phase1Options())
'incremental movement: on; the rest as the seed reads it'
"""

from __future__ import annotations

import dataclasses
import enum
import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from combatkit.fields import field_docs
from combatkit.timeline import Clock, Span, Timeline
from combatkit.widgets.views.classes import tag
from combatkit.widgets.views.hush import Hush

__all__ = ["OptionControls", "description_html", "in_force_words", "inert_options", "option_label"]


def option_label(name: str) -> str:
    """``"tie_track"`` -> ``"tie track"``."""
    return name.replace("_", " ")


def _alternatives(value: Any, default: Any) -> list[Any]:
    """The other values an option is tried at: the other answer of a yes/no, every other member of a
    choice, and for a number its default (or, at the default, the next number: 000's literal "more than 4"
    against the default 3)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, enum.Enum):
        return [member for member in type(value) if member is not value]
    if isinstance(value, int):
        return [default if value != default else default + 1]
    return []


def _timing(span: Span) -> tuple:
    """What a reader of the chart sees of a span: who does what, when, on which track, and how it ends."""
    return span.actor, span.kind, span.action, span.start, span.end, span.status, span.track, span.target


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return value.value if isinstance(value, enum.Enum) else str(value)


def inert_options(schedule: Callable[[Any], Timeline], options: Any, names: Sequence[str],
                  clock: Clock) -> dict[str, str]:
    """For each option in ``names``: ``""`` when switching it changes the round ``schedule(options)``
    (who acts when, on which track, how it ends), else a sentence saying it has no effect and what it
    governs, from the doc under its field. ``schedule`` runs the round with given options (with the same
    dice each time). An option whose other value the engine refuses counts as having an effect."""
    docs = field_docs(type(options))
    defaults = type(options)()
    unit = clock.unit
    shown = [_timing(s) for s in schedule(options).spans]
    out = {}
    for name in names:
        value = getattr(options, name)
        same = True
        for other in _alternatives(value, getattr(defaults, name)):
            try:
                changed = schedule(dataclasses.replace(options, **{name: other}))
            except ValueError:
                same = False
                break
            if [_timing(s) for s in changed.spans] != shown:
                same = False
                break
        if not same:
            out[name] = ""
            continue
        either = "on or off" if isinstance(value, bool) else "whichever is chosen"
        doc = docs.get(name, "").rstrip(".")
        if doc[1:2].islower():
            doc = doc[0].lower() + doc[1:]
        governs = f" What it governs: {doc}; nothing in this round is that." if doc else ""
        out[name] = f"No effect on this round: {either}, every action falls on the same {unit}.{governs}"
    return out


def in_force_words(options: Any, defaults: Any) -> str:
    """The options that differ from ``defaults``, in a line, or that there are none."""
    changed = [f"{option_label(f.name)}: {_value_words(getattr(options, f.name))}"
               for f in dataclasses.fields(options) if getattr(options, f.name) != getattr(defaults, f.name)]
    if not changed:
        return "the seed's defaults"
    return "; ".join(changed) + "; the rest as the seed reads it"


def description_html(description: str, in_force: Any, written_for: Any, timeline: Timeline,
                     own: Timeline | None = None) -> str:
    """The words under a round's title. ``description`` is prose written for the example's own round: its options
    ``written_for``, and the dice it rolled and the figures it placed as ``own`` (the round the example gave when
    it was opened; None: ``timeline`` is that round). It is shown while ``timeline`` is that round, under the
    options ``in_force``; otherwise ("The orcs win initiative" after the party rolled better) the engine's own
    notes on ``timeline``, which follow its dice, options and figures, with a line saying what differs."""
    text = html.escape(" ".join(description.split()))
    differs = []
    if in_force != written_for:
        differs.append(f"its own options ({in_force_words(written_for, type(written_for)())}), not the options in "
                       f"force ({in_force_words(in_force, type(in_force)())})")
    if own is not None:
        ours, these = _dice(own), _dice(timeline)
        changed = [purpose for purpose in dict.fromkeys([*ours, *these]) if ours.get(purpose) != these.get(purpose)]
        if changed:
            differs.append(f"its own dice ({_dice_words(ours, changed)}), not this round's "
                           f"({_dice_words(these, changed)})")
        elif not differs and (own.spans, own.notes) != (timeline.spans, timeline.notes):
            differs.append("the example as it was opened, not as edited here")
    if not differs:
        return text
    lead = (f"<span class='ck-description-replaced'>This example's description is written for "
            f"{html.escape(' and for '.join(differs))}, so it is not shown")
    if not timeline.notes:
        return f"{lead}: the chart and the steps below follow this round.</span>"
    items = "".join(f"<li>{html.escape(note)}</li>" for note in timeline.notes)
    return f"{lead}; the engine reads this round so:</span><ul style='margin:2px 0'>{items}</ul>"


def _dice(timeline: Timeline) -> dict[str, int]:
    """What each roll of ``timeline`` was for, and its total."""
    return {roll.purpose: roll.total for roll in timeline.rolls}


def _dice_words(dice: Mapping[str, int], purposes: Sequence[str], most: int = 4) -> str:
    """``"initiative: party = 6; initiative: orcs = 4"``: the rolls ``purposes`` (the first ``most`` of them)."""
    words = [f"{purpose} = {dice[purpose]}" if purpose in dice else f"{purpose}: not rolled"
             for purpose in purposes[:most]]
    more = len(purposes) - most
    return "; ".join(words) + (f"; {more} more" if more > 0 else "")


class OptionControls(widgets.VBox):
    """One control per option field of ``options`` (a frozen dataclass instance) named in ``names`` (default:
    every field), each with its field's doc beside it and a note (hidden unless :meth:`show_inert` has one)
    saying the option changes nothing in the round shown. ``on_change()`` is called when a user changes one.

    :attr:`controls` maps each field name to its control (``ck-option-<name>``); :attr:`value` is the
    options the controls describe; :meth:`show` sets them from options without calling ``on_change``.
    """

    def __init__(self, options: Any, on_change: Callable[[], None], names: Sequence[str] | None = None) -> None:
        self._type = type(options)
        self._defaults = self._type()
        self._base = options
        self._on_change = on_change
        self._quiet = Hush()
        docs = field_docs(self._type)
        names = list(names) if names is not None else [f.name for f in dataclasses.fields(options)]
        self.controls: dict[str, widgets.ValueWidget] = {}
        """Each option's control, by field name."""
        self.notes: dict[str, widgets.HTML] = {}
        """Each option's "no effect" note, by field name."""
        rows = []
        for name in names:
            control = self._control(name, getattr(options, name), docs.get(name, ""))
            self.controls[name] = tag(control, "option", f"option-{name.replace('_', '-')}")
            note = tag(widgets.HTML(layout=widgets.Layout(display="none")), "option-note")
            self.notes[name] = note
            doc = html.escape(docs.get(name, ""))
            rows.append(widgets.VBox([
                widgets.HBox([control, widgets.HTML(f"<span style='color:#566573;font-size:90%'>{doc}</span>")],
                             layout=widgets.Layout(align_items="center")),
                note,
            ]))
            control.observe(self._changed, "value")
        super().__init__(rows)
        tag(self, "options")

    def _control(self, name: str, value: Any, doc: str) -> widgets.ValueWidget:
        label = option_label(name)
        if isinstance(value, bool):
            return widgets.Checkbox(value=value, description=label, indent=False, tooltip=doc,
                                    layout=widgets.Layout(width="auto"))
        if isinstance(value, enum.Enum):
            return widgets.Dropdown(options=[(m.value, m) for m in type(value)], value=value, description=label,
                                    tooltip=doc, style={"description_width": "initial"},
                                    layout=widgets.Layout(width="220px"))
        default = getattr(self._defaults, name)
        choices = [(f"{default} (default)", default), (str(default + 1), default + 1)]
        if value not in (default, default + 1):
            choices.append((str(value), value))
        return widgets.Dropdown(options=choices, value=value, description=label, tooltip=doc,
                                style={"description_width": "initial"}, layout=widgets.Layout(width="260px"))

    @property
    def value(self) -> Any:
        """The options the controls describe (fields without a control as given)."""
        return dataclasses.replace(self._base, **{name: c.value for name, c in self.controls.items()})

    def show(self, options: Any) -> None:
        """Set every control from ``options`` (a number no choice holds is added to its choices)."""
        self._base = options
        with self._quiet():
            for name, control in self.controls.items():
                value = getattr(options, name)
                if isinstance(control, widgets.Dropdown) and value not in [v for _, v in control.options]:
                    control.options = [*control.options, (str(value), value)]
                control.value = value

    def show_inert(self, inert: Mapping[str, str]) -> None:
        """Show, beside each option, the sentence :func:`inert_options` gave it (none when it has an effect)."""
        for name, note in self.notes.items():
            text = inert.get(name, "")
            note.value = (f"<span class='ck-no-effect' style='color:#7e5109;font-size:90%;margin-left:24px'>"
                          f"{html.escape(text)}</span>") if text else ""
            note.layout.display = None if text else "none"

    def _changed(self, _change: Any) -> None:
        if not self._quiet:
            self._on_change()
