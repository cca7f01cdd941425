"""Dice a referee rolled at the table, entered once and used by every system that rolls them.

Six timing systems roll different dice for different things: a d10 per side for
Phase Systems I and II, a d10 per figure for the Segment of Action, a d6 per side for
the five-phase ordering and Strike Speed, a d12 for the short form. A number entered
here is keyed by what it is for *and* by the dice (``("initiative: party", "d10")``),
so the d10 a side rolled for Phase System I is also its d10 under Phase System II,
while the short form's d12 for the same side stays its own.

:class:`TableRoller` is the :class:`~combatkit.Roller` that reads those numbers;
:func:`file_entries` finds the dice behind the rolls an encounter file carries;
:class:`DiceEntry` is the form: one box per roll the systems made, showing what was
rolled with the seed or what was entered, and a message naming the roll and the
value when a number cannot have been rolled.

>>> roller = TableRoller(seed=1, by_dice={("initiative: party", "d10"): 3})
>>> roller.roll("d10", "initiative: party").total, roller.roll("d12", "initiative: party").entered
(3, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TypeAlias

import ipywidgets as widgets

from combatkit.dice import EnteredRollError, Roll, Roller
from combatkit.systems.base import TableRoller, file_entries
from combatkit.widgets.messages import bullets, show_alert
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import slug

__all__ = ["DiceEntry", "DiceKey", "Entered", "TableRoller", "file_entries", "parse_entry"]

DiceKey: TypeAlias = tuple[str, str]
"""What a roll is for and the dice rolled, in standard notation: ``("initiative: party", "d10")``."""
Entered: TypeAlias = int | tuple[int, ...]
"""A total, or the face of each die."""


_NUMBERS = re.compile(r"^\s*-?\d+(\s*[, ]\s*-?\d+)*\s*$")


def parse_entry(text: str) -> Entered | None:
    """A typed roll: ``""`` (nothing entered), ``"7"`` (a total) or ``"2, 5"`` (each die's face).

    >>> parse_entry("7"), parse_entry(" 2, 5 "), parse_entry("")
    (7, (2, 5), None)
    >>> parse_entry("seven")
    Traceback (most recent call last):
    ...
    combatkit.dice.EnteredRollError: 'seven' is not a roll: type a total like 7, or each die's face like 2, 5
    """
    if not text.strip():
        return None
    if not _NUMBERS.match(text):
        raise EnteredRollError(f"{text!r} is not a roll: type a total like 7, or each die's face like 2, 5")
    numbers = tuple(int(n) for n in re.split(r"[,\s]+", text.strip()))
    return numbers[0] if len(numbers) == 1 else numbers


def _shown(value: Entered) -> str:
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


class DiceEntry(widgets.VBox):
    """One box per roll the systems made: what it is for, its dice, the number used, who used it.

    :attr:`entries` is the model: the numbers the referee entered, by :data:`DiceKey`.
    A box holds only what was typed: a roll nobody entered shows the seed's number greyed, as the box's
    placeholder, so typing that very number enters it all the same (#45). Typing a number enters it (Enter
    or leaving the box applies it) until the box is cleared, which hands the roll back to the seed; a new
    seed (*Roll again*) rolls only the empty boxes. A number the dice cannot roll is shown as a message
    naming the roll and the value, the typed text stays and the entry is not applied.
    ``on_change`` is called after every applied change.
    """

    def __init__(self, on_change: Callable[[], None]) -> None:
        self.entries: dict[DiceKey, Entered] = {}
        """The numbers entered, by purpose and dice."""
        self.loaded: dict[DiceKey, Entered] = {}
        """The numbers the encounter came with (its file's rolls): what :meth:`reset` last set."""
        self.errors: dict[DiceKey, str] = {}
        """What is wrong with each box whose text was not applied."""
        self._on_change = on_change
        self._boxes: dict[DiceKey, widgets.Text] = {}
        self._rows: dict[DiceKey, widgets.HBox] = {}
        self._notes: dict[DiceKey, widgets.HTML] = {}
        self._quiet = Hush()
        self.message = widgets.HTML(layout=widgets.Layout(display="none"))
        self.message.add_class("ck-dice-message")
        self.clear = widgets.Button(description="Forget entered dice", icon="eraser",
                                    tooltip="Roll everything with the seed again",
                                    layout=widgets.Layout(width="190px"))
        self.clear.add_class("ck-dice-clear")
        self.clear.on_click(self._on_clear)
        self.rows = widgets.VBox()
        super().__init__([
            widgets.HTML("<span style='color:#4d5656'>Each box is one roll a system made: type what was rolled at "
                         "the table (a total, or each die's face: <code>2, 5</code>) and press Enter. The same "
                         "dice for the same purpose are shared by every system that rolls them; an empty box is "
                         "rolled with the seed (its number shows in grey). Roll again keeps every number typed "
                         "here and rolls only the empty boxes; clear a box to hand its roll back to the seed."
                         "</span>"),
            self.message, self.rows, self.clear,
        ])
        self.add_class("ck-dice")

    def reset(self, entries: Mapping[DiceKey, Entered]) -> None:
        """Start over with ``entries`` (a newly loaded encounter's rolls); no callback."""
        self.loaded = dict(entries)
        self.entries = dict(entries)
        self.errors.clear()
        self._show_errors()

    def enter(self, changes: Mapping[DiceKey, Entered | None]) -> None:
        """Enter the encounter's own numbers (:attr:`loaded`) with ``changes`` on top (a None hands that
        roll back to the seed) and apply them (``on_change``), as typing them in would. The numbers
        are not checked here: :func:`~combatkit.widgets.state.urlstate.dice_param` checks a link's, and a
        view's run names any its dice cannot roll."""
        self.entries = dict(self.loaded)
        for key, value in changes.items():
            if value is None:
                self.entries.pop(key, None)
            else:
                self.entries[key] = value
        self.errors.clear()
        self._show_errors()
        self._on_change()

    @property
    def changes(self) -> dict[DiceKey, Entered | None]:
        """What differs from the encounter's own numbers: each number entered over or beside them, then
        None for each of them handed back to the seed (what :meth:`enter` takes, and a link carries)."""
        return {**{key: value for key, value in self.entries.items() if self.loaded.get(key) != value},
                **{key: None for key in self.loaded if key not in self.entries}}

    def show(self, used: Iterable[tuple[Roll, str]]) -> None:
        """Show the rolls made: ``(roll, who used it)`` pairs, in order. A box whose text was
        not applied keeps it."""
        users: dict[DiceKey, list[str]] = {}
        first: dict[DiceKey, Roll] = {}
        for roll, user in used:
            key = (roll.purpose, str(roll.dice))
            first.setdefault(key, roll)
            if user not in users.setdefault(key, []):
                users[key].append(user)
        with self._quiet():
            for key, roll in first.items():
                if key not in self._boxes:
                    self._add_row(key)
                box = self._boxes[key]
                if key not in self.errors:
                    box.value = _shown(self.entries[key]) if key in self.entries else ""
                box.placeholder = "" if roll.entered else _shown(
                    roll.faces if roll.faces and len(roll.faces) > 1 else roll.total)
                how = "entered" if key in self.entries else "rolled with the seed"
                self._notes[key].value = (f"<span style='color:#566573;font-size:90%'>{how}; "
                                          f"{', '.join(users[key])}</span>")
        self.rows.children = [self._rows[key] for key in first]

    def _add_row(self, key: DiceKey) -> None:
        purpose, dice = key
        box = widgets.Text(continuous_update=False, layout=widgets.Layout(width="70px"))
        box.add_class("ck-die")
        box.add_class(f"ck-die-{slug(purpose)}-{slug(dice)}")
        box.observe(lambda change, key=key: self._on_box(key, change.new), "value")
        label = widgets.HTML(f"{purpose} <b>({dice})</b>", layout=widgets.Layout(width="330px"))
        self._boxes[key], self._notes[key] = box, widgets.HTML()
        self._rows[key] = widgets.HBox([label, box, self._notes[key]], layout=widgets.Layout(align_items="center"))

    def _on_box(self, key: DiceKey, text: str) -> None:
        if self._quiet:
            return
        purpose, dice = key
        try:
            value = parse_entry(text)
        except EnteredRollError as error:  # the box's own words, which name no roll
            self._refuse(key, f"{purpose}: {error}")
            return
        try:
            if value is not None:
                Roller(entered={purpose: value}).roll(dice, purpose)  # the dice's own check, naming the roll
        except EnteredRollError as error:
            self._refuse(key, str(error))
            return
        self.errors.pop(key, None)
        if value is None:
            self.entries.pop(key, None)
        else:
            self.entries[key] = value
        self._show_errors()
        self._on_change()

    def _refuse(self, key: DiceKey, message: str) -> None:
        """Show why the number typed for ``key`` is not applied."""
        self.errors[key] = message
        self._show_errors()

    def _on_clear(self, _button) -> None:
        self.entries.clear()
        self.errors.clear()
        self._show_errors()
        self._on_change()

    def _show_errors(self) -> None:
        show_alert(self.message, "" if not self.errors else (
            f"<b>Not applied:</b>{bullets(self.errors.values())}The other dice still hold; fix the number or clear "
            "the box."))
