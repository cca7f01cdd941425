"""EncounterView: what every view that shows an encounter shares.

The comparison (:class:`~combatkit.widgets.views.compare.SystemComparison`), a system's timeline
(:class:`~combatkit.widgets.views.system_timeline.SystemTimeline`), Phase System I's explorer
(:class:`~combatkit.widgets.views.timeline.TimelineExplorer`) and encounter prep
(:class:`~combatkit.widgets.views.prep.EncounterPrep`) each open an encounter with an
:class:`~combatkit.widgets.views.encounter_picker.EncounterPicker`, and each:

* saves what it shows as an encounter file: :attr:`~EncounterView.saved`, :attr:`~EncounterView.toml`,
  :meth:`~EncounterView.save` and a link beside the picker (:func:`~combatkit.widgets.views.downloads.encounter_link`);
* carries its state in a link (:meth:`~EncounterView.url_params`): the example, or the encounter itself when it
  is not a shipped example as shipped (opened from a file, pasted in, edited: ``enc``, packed by
  :func:`~combatkit.widgets.state.urlstate.pack_encounter`), and the seed, then the view's own keys; and, for an
  encounter too big for a link, says so under the link and offers its file there (:meth:`~EncounterView.url_caveat`,
  :meth:`~EncounterView.url_offer`);
* says what it could not read or apply in one alert box (:mod:`combatkit.widgets.messages`), in the
  engine's words (:func:`~combatkit.widgets.views.editor.describe_error`), while the last encounter that worked
  stays shown and the input stays for the user to fix.

A view overrides only what differs: its own link keys, the seed its round was drawn with, what it still shows
when input is refused.
"""

from __future__ import annotations

import dataclasses

import ipywidgets as widgets

from combatkit.encounter import Encounter
from combatkit.encounter_files import dumps_toml, save_encounter
from combatkit.widgets.state.urlstate import MAX_ENCOUNTER, Param, control_param, encounter_param, int_param, \
    pack_encounter
from combatkit.widgets.views.downloads import encounter_link
from combatkit.widgets.views.editor import EncounterEditor, describe_error
from combatkit.widgets.views.encounter_picker import EncounterPicker
from combatkit.widgets.messages import bullets, show_alert

__all__ = ["EncounterView"]


class EncounterView(widgets.VBox):
    """A view of one encounter, opened with :attr:`picker` and edited in :attr:`editor`.

    A subclass builds the widgets this base reads (:attr:`picker`, :attr:`editor`, :attr:`seed`,
    :attr:`message`; :attr:`download` where it saves with :meth:`_offer`) and ``_load(encounter)``, which shows an
    encounter opened anew.
    """

    picker: EncounterPicker
    """Opens a shipped example, a file or pasted text."""
    editor: EncounterEditor
    """The encounter editor."""
    seed: widgets.IntText
    """Seeds the dice nobody entered."""
    message: widgets.HTML
    """The alert box: what was not applied (hidden when there is nothing to say)."""
    download: widgets.HTML
    """The link that saves :attr:`saved` as an encounter file."""

    encounter: Encounter | None = None
    """The encounter shown: the last one the engine accepted (one it refuses leaves it as it was)."""
    saved: Encounter | None = None
    """What the save link, :attr:`toml` and :meth:`save` hold: the encounter shown, as this view draws it."""
    error: str = ""
    """What could not be read or applied, a line each in the engine's words, or ``""``."""

    _still_shown = "The chart and the explanation still show the last round that worked"
    """What the alert box says stays on the page while input is not applied."""

    # ------------------------------------------------------------ opening

    def show_example(self, name: str) -> None:
        """Show the shipped example ``name``; an unknown name is reported, not raised."""
        self.picker.open_example(name)

    def show_encounter(self, encounter: Encounter) -> None:
        """Show ``encounter``, replacing whatever is being edited."""
        self.picker.select(None)
        self._load(encounter)

    # ------------------------------------------------------------ saving

    @property
    def toml(self) -> str:
        """:attr:`saved` as an encounter file (what the save link holds)."""
        return dumps_toml(self.saved)

    def save(self, path: str) -> None:
        """Write :attr:`saved` to ``path`` (``.toml`` or ``.json``)."""
        save_encounter(self.saved, path)

    def _offer(self, saved: Encounter, label: str = "Save this encounter (.toml)") -> None:
        """Hold ``saved`` as what this view saves, and offer it in the save link, showing ``label``."""
        self.saved = saved
        self.download.value = encounter_link(saved, label)

    # ------------------------------------------------------------ links

    def url_params(self) -> list[Param]:
        """The keys this view's URL carries (see :mod:`combatkit.widgets.state.urlstate`), applied in this order:
        the example or the encounter (:meth:`_encounter_params`), the seed of the round shown (always written: an
        example file may bring its own), then the view's own keys."""
        return [*self._encounter_params(), self._seed_param(), *self._own_params()]

    def _encounter_params(self) -> list[Param]:
        """``example``, the shipped example shown as shipped, else ``enc``, the encounter shown
        (:meth:`_linked_encounter`); a link that gives both opens the example, then the encounter."""
        example = self._example_param()
        return [dataclasses.replace(example, get=lambda: None if self._linked_encounter() is not None
                                    else example.get()),
                encounter_param("enc", self._linked_encounter, self.picker.open_encounter)]

    def _example_param(self) -> Param:
        return control_param("example", self.picker.example)

    def _shipped(self) -> bool:
        """The encounter shown is a shipped example as shipped (or none is shown yet): a link names it."""
        return self.encounter is None or self.picker.example.value is not None and not self._edited()

    def _linked_encounter(self) -> Encounter | None:
        """The encounter a link carries: the one shown, unless it is a shipped example as shipped (the link names
        it) or too big for a link (:func:`~combatkit.widgets.state.urlstate.pack_encounter`)."""
        if self._shipped() or pack_encounter(self.encounter) is None:
            return None
        return self.encounter

    def _seed_param(self) -> Param:
        return int_param("seed", self._applied_seed, self._set_seed, low=-(2**31), high=2**31 - 1)

    def _own_params(self) -> list[Param]:
        """The keys only this view carries, after the example and the seed."""
        return []

    def _applied_seed(self) -> int:
        """The seed of the round shown."""
        return self.seed.value

    def _set_seed(self, seed: int) -> None:
        self.seed.value = seed

    def url_caveat(self) -> str:
        """What a link to this view leaves out, in one sentence: an encounter too big for a link; ``""`` when the
        link carries what is shown."""
        if self._shipped() or self._linked_encounter() is not None:
            return ""
        return (f"This encounter is too big for a link (over {MAX_ENCOUNTER:,} characters packed). "
                + self.picker.url_caveat(edited=self._edited()))

    def url_offer(self) -> str:
        """The link that saves :attr:`saved` as an encounter file, offered beside :meth:`url_caveat`."""
        return encounter_link(self.saved, "Save the encounter file (.toml)", style="") if self.saved else ""

    def _edited(self) -> bool:
        """The encounter was changed since it was opened."""
        return self.editor.edited

    # ------------------------------------------------------------ messages

    def _show_load_error(self, error: ValueError) -> None:
        """A file or pasted text that could not be read: its own field paths, not the draft's."""
        self._show_error(error, in_draft=False)

    def _show_error(self, error: ValueError | None, in_draft: bool = True) -> None:
        """Show ``error`` (and any entry the editor could not read) in the alert box, or hide it."""
        lines = [self._describe(error, in_draft)] if error is not None else []
        lines += self.editor.entry_errors.values()
        self.error = "\n".join(lines)
        show_alert(self.message, "" if not lines else (
            f"<b>Not applied:</b>{bullets(lines)}{self._still_shown}; your input is kept so you can fix it."))

    def _describe(self, error: ValueError, in_draft: bool = True) -> str:
        """The engine's message; for the encounter being edited (``in_draft``), a field path like
        ``combatants[1].dex`` names the combatant too."""
        return self.editor.describe(error) if in_draft else describe_error(error)
