"""Choose an encounter: a shipped example, a file from disk, or TOML pasted in.

Shared by :class:`~combatkit.widgets.views.compare.SystemComparison`,
:class:`~combatkit.widgets.views.system_timeline.SystemTimeline`,
:class:`~combatkit.widgets.views.timeline.TimelineExplorer` and
:class:`~combatkit.widgets.views.prep.EncounterPrep`. The picker only reads: what it read goes to
``on_load(encounter, example_name_or_None)``; what it could not read goes to
``on_error(error)`` (the engine's reader names the field and the value), and the pasted
text stays in its box.

>>> loaded, errors = [], []
>>> picker = EncounterPicker(lambda encounter, name: loaded.append(name), errors.append, only="phase1")
>>> picker.open_example("ct9-spell-vs-sword")
>>> loaded, picker.example.value, picker.url_caveat()
(['ct9-spell-vs-sword'], 'ct9-spell-vs-sword', '')
>>> picker.read("title = 'x'")
>>> print(errors[0])
combatants: is required
>>> print(picker.url_caveat(edited=True))
The link opens the shipped example "A CT 9 spell against a sword" as shipped, not your edits:
send the encounter file with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from combatkit.encounter import Encounter
from combatkit.encounter_files import example_encounters, load_example, loads_encounter
from combatkit.errors import EncounterFileError
from combatkit.systems import find_system
from combatkit.widgets.views.hush import Hush

__all__ = ["EncounterPicker", "OpenFileButton", "example_options"]


def example_options(first_for: str | None = None, only: str | None = None) -> list[tuple[str, str]]:
    """``(label, name)`` of every shipped example, the label saying which system it was written
    for; examples written for ``first_for`` (a system id) come first. With ``only`` (a system id),
    just the examples written for that system, labelled by their title alone."""
    out = []
    for name, title in example_encounters().items():
        system = load_example(name).system
        if only is None:
            out.append((system != first_for, f"{title} (written for {find_system(system).title})", name))
        elif system == only:
            out.append((False, title, name))
    return [(label, name) for _, label, name in sorted(out, key=lambda item: item[0])]


_OPEN_FILE_ESM = """
function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "jupyter-widgets jupyter-button widget-button";
  button.title = model.get("tooltip");
  const icon = document.createElement("i");
  icon.className = "fa fa-upload";
  const label = document.createElement("span");
  label.style.marginLeft = "4px";
  const input = document.createElement("input");
  input.type = "file";
  input.style.display = "none";
  const update = () => {
    label.textContent = model.get("description");
    input.accept = model.get("accept");
    button.disabled = model.get("disabled");
  };
  model.on("change:description", update);
  model.on("change:accept", update);
  model.on("change:disabled", update);
  update();
  button.addEventListener("click", () => input.click());
  input.addEventListener("click", () => { input.value = ""; });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    const content = await file.arrayBuffer();
    model.send({ event: "file", name: file.name, type: file.type, size: file.size,
                 last_modified: file.lastModified }, undefined, [content]);
  });
  button.append(icon, label);
  el.append(button, input);
}
export default { render };
"""


class OpenFileButton(anywidget.AnyWidget):
    """A button that reads one file from the reader's disk: it always reads ``description`` ("Open file"),
    where ipywidgets' FileUpload writes its count beside it ("Open file (0)" after a file was read).

    :attr:`value` is what FileUpload's would be, so code and tests use it alike: a tuple holding one
    ``{"name", "type", "size", "last_modified", "content"}`` (``content`` a memoryview of the bytes) once a
    file is read; setting it to ``()`` forgets it.
    """

    _esm = _OPEN_FILE_ESM
    description = traitlets.Unicode("Open file").tag(sync=True)
    """The button's label."""
    tooltip = traitlets.Unicode("Open an encounter file (.toml or .json) from your disk").tag(sync=True)
    accept = traitlets.Unicode(".toml,.json").tag(sync=True)
    """The file types offered."""
    disabled = traitlets.Bool(False).tag(sync=True)
    value = traitlets.Tuple()
    """The file read, as FileUpload gives it (kept in Python only: the page sends it once, as a message)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._on_message)

    def _on_message(self, _widget: Any, content: dict, buffers: list) -> None:
        if not isinstance(content, dict) or content.get("event") != "file" or not buffers:
            return
        data = memoryview(buffers[0])
        self.value = ({"name": str(content.get("name", "")), "type": str(content.get("type", "")),
                       "size": data.nbytes, "last_modified": content.get("last_modified"), "content": data},)


class EncounterPicker(widgets.VBox):
    """An example dropdown, a file upload and a paste box; reports what it read.

    ``first_for`` and ``only`` choose the examples listed (see :func:`example_options`).
    ``beside`` are widgets shown on the dropdown's row after the upload button (a view's
    save link). ``paste=False`` leaves the paste box out, for a view with a text box of its
    own for the encounter file, whose button calls :meth:`read`.
    """

    def __init__(self, on_load: Callable[[Encounter, str | None], None], on_error: Callable[[ValueError], None],
                 first_for: str | None = None, *, only: str | None = None, beside: Sequence[widgets.Widget] = (),
                 paste: bool = True) -> None:
        self._on_load, self._on_error = on_load, on_error
        self._quiet = Hush()
        self.example = widgets.Dropdown(options=example_options(first_for, only), value=None, description="Example",
                                        layout=widgets.Layout(width="640px"))
        self.example.add_class("ck-example")
        self.upload = OpenFileButton()
        """Open a file (``value``: as ipywidgets' FileUpload gives it)."""
        self.upload.add_class("ck-upload")
        self.paste: widgets.Textarea | None = None
        """The paste box (None with ``paste=False``)."""
        self.paste_load: widgets.Button | None = None
        """Its "Load pasted TOML" button."""
        children: list[widgets.Widget] = [widgets.HBox([self.example, self.upload, *beside],
                                                       layout=widgets.Layout(align_items="center",
                                                                             flex_flow="row wrap"))]
        if paste:
            self.paste = widgets.Textarea(placeholder="Paste an encounter file (TOML) here",
                                          layout=widgets.Layout(width="98%", height="160px"))
            self.paste.add_class("ck-paste")
            self.paste_load = widgets.Button(description="Load pasted TOML", icon="upload")
            self.paste_load.add_class("ck-paste-load")
            self.paste_load.on_click(lambda _: self.read(self.paste.value))
            children.append(widgets.Accordion([widgets.VBox([self.paste, self.paste_load])],
                                              titles=("Paste an encounter file",), selected_index=None))
        super().__init__(children)
        self.example.observe(self._on_example, "value")
        self.upload.observe(self._on_upload, "value")

    def select(self, name: str | None) -> None:
        """Show ``name`` in the dropdown (None: nothing, e.g. for a file) without loading it again."""
        with self._quiet():
            self.example.value = name if name in dict(self.example.options).values() else None

    def open_example(self, name: str) -> None:
        """Load the shipped example ``name``; an unknown name goes to ``on_error``."""
        try:
            encounter = load_example(name)
        except ValueError as error:
            self._on_error(error)
            return
        self.select(name)
        self._on_load(encounter, name)

    def read(self, text: str, fmt: str = "toml") -> None:
        """Load an encounter file's text (``"toml"`` or ``"json"``); what cannot be read goes to ``on_error``."""
        try:
            encounter = loads_encounter(text, fmt)
        except ValueError as error:
            self._on_error(error)
            return
        self.open_encounter(encounter)

    def open_encounter(self, encounter: Encounter) -> None:
        """Load an encounter read already (a link's), as a file is: not one of the examples."""
        self.select(None)
        self._on_load(encounter, None)

    def url_caveat(self, edited: bool = False) -> str:
        """What a link that names at most the example in the dropdown opens instead of the encounter shown, in one
        sentence, or ``""`` when that is the example as shipped (``edited``: the view changed the encounter)."""
        if self.example.value is None:
            return "The link carries only the settings: send the encounter file with it."
        if edited:
            return (f'The link opens the shipped example "{example_encounters()[self.example.value]}" as shipped, '
                    "not your edits: send the encounter file with it.")
        return ""

    def _on_example(self, change) -> None:
        if not self._quiet and change.new is not None:
            self.open_example(change.new)

    def _on_upload(self, change) -> None:
        if self._quiet or not change.new:
            return
        item = change.new[0]
        with self._quiet():
            self.upload.value = ()
        try:
            text = bytes(item["content"]).decode("utf-8")
        except UnicodeDecodeError:
            self._on_error(EncounterFileError("file", f"{item['name']} is not UTF-8 text"))
            return
        self.read(text, item["name"].rsplit(".", 1)[-1].lower())
