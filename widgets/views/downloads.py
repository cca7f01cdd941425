"""Download links: text the page holds, offered as a file behind a ``data:`` link (no server round trip, no
network), or a file made when its link is clicked.

One builder for every view: :func:`download_link` makes the ``<a download=...>`` for any text (the CSV of a run's
fights, an attack's steps), :func:`encounter_link` the one that saves an encounter as an encounter file (TOML).
The file name and the label are escaped; a link longer than :data:`LINK_LIMIT` would be a dead one, so none is
made.

A round as a document (:mod:`combatkit.widgets.charts.document`, ~1 MB with its charts' JavaScript) is not held in the
page: :func:`round_link` is a :class:`LazyDownloadLink`, which asks the kernel for the file when it is clicked, so
no redraw sends a megabyte to the browser; :func:`round_file` makes that file.

>>> download_link("a,b\\n1,2\\n", "odds.csv", "text/csv", "the odds")
"<a download='odds.csv' href='data:text/csv;base64,YSxiCjEsMgo='>the odds</a>"
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import traitlets

from combatkit.encounter import Encounter
from combatkit.encounter_files import dumps_toml
from combatkit.widgets.charts.document import RoundSection, chart_script, round_document
from combatkit.widgets.views.classes import slug, tag

__all__ = ["LINK_LIMIT", "LazyDownloadLink", "download_link", "encounter_link", "round_file", "round_link"]

LINK_LIMIT = 2_000_000
"""The longest ``data:`` link a download is offered as (chromium takes no URL over 2 MiB). Six systems of
2,500 four-vs-four fights make a fights CSV of 1.8 MB as a link; a larger one is not offered as a link, and the
view says how to get it instead."""


def download_link(text: str, filename: str, mime: str, label: str, *, style: str = "") -> str | None:
    """A link, showing ``label``, that downloads ``text`` (UTF-8) as ``filename`` of type ``mime`` (with any
    parameter: ``"text/csv;charset=utf-8"``); ``style`` is the link's CSS. None when the link would be longer than
    :data:`LINK_LIMIT`."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    css = f" style='{style}'" if style else ""
    link = (f"<a download='{html.escape(filename)}' href='data:{mime};base64,{payload}'{css}>"
            f"{html.escape(label)}</a>")
    return link if len(link) <= LINK_LIMIT else None


def encounter_link(encounter: Encounter, label: str = "Save this encounter (.toml)", *,
                   style: str = "margin-left:12px") -> str:
    """A link that downloads ``encounter`` as an encounter file (TOML), named after its title (nothing for one too
    large for a link)."""
    return download_link(dumps_toml(encounter), f"{slug(encounter.title, 'encounter')}.toml", "application/toml",
                         label, style=style) or ""


_LAZY_LINK_ESM = """
function render({ model, el }) {
  const link = document.createElement("a");
  link.href = "#";
  link.style.marginLeft = "12px";
  const show = () => { link.textContent = model.get("label"); link.title = model.get("hint"); };
  model.on("change:label", show);
  model.on("change:hint", show);
  show();
  let asked = false;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    asked = true;
    link.setAttribute("aria-busy", "true");
    model.send({ event: "make" });
  });
  const made = (message, buffers) => {
    if (!asked || !message || message.event !== "made") return;
    asked = false;
    link.removeAttribute("aria-busy");
    if (!message.filename || !buffers || !buffers.length) return;
    const file = URL.createObjectURL(new Blob([buffers[0]], { type: message.mime }));
    const save = document.createElement("a");
    save.href = file;
    save.download = message.filename;
    save.style.display = "none";
    el.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(file), 60000);
  };
  model.on("msg:custom", made);
  el.append(link);
  return () => model.off("msg:custom", made);
}
export default { render };
"""


class LazyDownloadLink(anywidget.AnyWidget):
    """A link, showing :attr:`label`, that downloads a file made only when it is clicked: the page asks the kernel,
    ``make()`` gives the file's name and text (or None: nothing to download yet), and the page saves it (a
    ``blob:`` URL, in the page: no request leaves the machine). :meth:`file` is what a click downloads."""

    _esm = _LAZY_LINK_ESM
    label = traitlets.Unicode("").tag(sync=True)
    """The link's words."""
    hint = traitlets.Unicode("").tag(sync=True)
    """What the file holds, shown on hover (the link's own title: a widget's ``tooltip`` would want a
    ``description``)."""

    def __init__(self, make: Callable[[], tuple[str, str] | None], label: str, *, mime: str = "text/html",
                 hint: str = "") -> None:
        super().__init__(label=label, hint=hint)
        self._make = make
        self.mime = mime
        """The file's type, as the page saves it."""
        self.on_msg(self._on_message)

    def file(self) -> tuple[str, str] | None:
        """The file a click downloads now, as ``(name, text)``; None when there is none."""
        return self._make()

    def _on_message(self, _widget: Any, content: Any, _buffers: list) -> None:
        if not isinstance(content, dict) or content.get("event") != "make":
            return
        made = self.file()
        name, text = made if made is not None else ("", "")
        self.send({"event": "made", "filename": name, "mime": self.mime}, [text.encode("utf-8")])


ROUND_HINT = ("One page to print or share, opening offline in any browser: the chart, why each action lands where "
                 "it does, the dice, the options in force and the seed")


def round_link(make: Callable[[], tuple[str, str] | None],
               label: str = "Download this round (.html)") -> LazyDownloadLink:
    """The link that downloads a view's round as a document (``make``: :func:`round_file` of what it shows),
    tagged ``ck-round-download``."""
    return tag(LazyDownloadLink(make, label, mime="text/html;charset=utf-8", hint=ROUND_HINT),
               "round-download")


def round_file(title: str, system: str, sections: Sequence[RoundSection], *, seed: int | None) -> tuple[str, str]:
    """An encounter's round as a document (:func:`~combatkit.widgets.charts.document.round_document`, its charts
    drawn by the offline bundle), and its file name, after the encounter's ``title``, the ``system`` (an id,
    ``"six-systems"``, or a fight's ``"<id>-fight"``) and the seed (None: the table's dice)."""
    name = f"{slug(title, 'encounter')}-{slug(system)}-{'seed-' + str(seed) if seed is not None else 'table-dice'}.html"
    return name, round_document(title, sections, seed=seed, script=chart_script())
