"""Choose an encounter: a shipped example, a file from disk, or TOML pasted in.

Shared by :class:`~combatkit.widgets.compare.SystemComparison` and
:class:`~combatkit.widgets.system_timeline.SystemTimeline`. The picker only reads:
what it read goes to ``on_load(encounter, example_name_or_None)``; what it could not
read goes to ``on_error(error)`` (the engine's reader names the field and the value),
and the pasted text stays in its box.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from combatkit.encounter import Encounter, example_encounters, load_example, loads_encounter
from combatkit.errors import EncounterFileError
from combatkit.systems import find_system

__all__ = ["EncounterPicker", "example_options"]


def example_options(first_for: str | None = None) -> list[tuple[str, str]]:
    """``(label, name)`` of every shipped example, the label saying which system it was written
    for; examples written for ``first_for`` (a system id) come first."""
    out = []
    for name, title in example_encounters().items():
        system = load_example(name).system
        out.append((system != first_for, f"{title} (written for {find_system(system).title})", name))
    return [(label, name) for _, label, name in sorted(out, key=lambda item: item[0])]


class EncounterPicker(widgets.VBox):
    """An example dropdown, a file upload and a paste box; reports what it read."""

    def __init__(self, on_load: Callable[[Encounter, str | None], None], on_error: Callable[[ValueError], None],
                 first_for: str | None = None) -> None:
        self._on_load, self._on_error = on_load, on_error
        self._quiet = False
        self.example = widgets.Dropdown(options=example_options(first_for), value=None, description="Example",
                                        layout=widgets.Layout(width="640px"))
        self.example.add_class("ck-example")
        self.upload = widgets.FileUpload(accept=".toml,.json", multiple=False, description="Open file")
        self.upload.add_class("ck-upload")
        self.paste = widgets.Textarea(placeholder="Paste an encounter file (TOML) here",
                                      layout=widgets.Layout(width="98%", height="160px"))
        self.paste.add_class("ck-paste")
        self.paste_load = widgets.Button(description="Load pasted TOML", icon="upload")
        self.paste_load.add_class("ck-paste-load")
        paste_box = widgets.Accordion([widgets.VBox([self.paste, self.paste_load])],
                                      titles=("Paste an encounter file",), selected_index=None)
        super().__init__([widgets.HBox([self.example, self.upload],
                                       layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
                          paste_box])
        self.example.observe(self._on_example, "value")
        self.upload.observe(self._on_upload, "value")
        self.paste_load.on_click(lambda _: self._read(self.paste.value, "toml"))

    def select(self, name: str | None) -> None:
        """Show ``name`` in the dropdown (None: nothing, e.g. for a file) without loading it again."""
        self._quiet = True
        try:
            self.example.value = name if name in dict(self.example.options).values() else None
        finally:
            self._quiet = False

    def open_example(self, name: str) -> None:
        """Load the shipped example ``name``; an unknown name goes to ``on_error``."""
        try:
            encounter = load_example(name)
        except ValueError as error:
            self._on_error(error)
            return
        self.select(name)
        self._on_load(encounter, name)

    def _on_example(self, change) -> None:
        if not self._quiet and change.new is not None:
            self.open_example(change.new)

    def _on_upload(self, change) -> None:
        if self._quiet or not change.new:
            return
        item = change.new[0]
        self._quiet = True
        try:
            self.upload.value = ()
        finally:
            self._quiet = False
        try:
            text = bytes(item["content"]).decode("utf-8")
        except UnicodeDecodeError:
            self._on_error(EncounterFileError("file", f"{item['name']} is not UTF-8 text"))
            return
        self._read(text, item["name"].rsplit(".", 1)[-1].lower())

    def _read(self, text: str, fmt: str) -> None:
        try:
            encounter = loads_encounter(text, fmt)
        except ValueError as error:
            self._on_error(error)
            return
        self.select(None)
        self._on_load(encounter, None)
