"""Download links: text the page holds, offered as a file behind a ``data:`` link (no server round trip, no
network).

One builder for every view: :func:`download_link` makes the ``<a download=...>`` for any text (the CSV of a run's
fights, an attack's steps), :func:`encounter_link` the one that saves an encounter as an encounter file (TOML).
The file name and the label are escaped; a link longer than :data:`LINK_LIMIT` would be a dead one, so none is
made.

>>> download_link("a,b\\n1,2\\n", "odds.csv", "text/csv", "the odds")
"<a download='odds.csv' href='data:text/csv;base64,YSxiCjEsMgo='>the odds</a>"
"""

from __future__ import annotations

import base64
import html

from combatkit.encounter import Encounter
from combatkit.encounter_files import dumps_toml
from combatkit.widgets.views.classes import slug

__all__ = ["LINK_LIMIT", "download_link", "encounter_link"]

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
