"""The dashboard server's landing page: every dashboard of a folder with a picture and one line.

Read afresh on each visit, so a notebook dropped into ``dashboards/`` appears without a
restart. A dashboard's title is the first heading of its first markdown cell and its line the
first sentence after it (``metadata.combatkit.title`` / ``summary`` override them); its picture
is ``thumbnails/<notebook name>.png`` (or ``.svg``) next to it, or else a drawn card with its
initials.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

__all__ = ["Dashboard", "THUMBNAILS", "dashboards", "read_dashboard", "thumbnail_svg"]

THUMBNAILS = "thumbnails"
"""The folder, inside the dashboards folder, of each dashboard's picture (served by voila's file handler)."""
_PALETTE = ("#1f618d", "#7d3c98", "#117864", "#b9770e", "#943126", "#2e4053")


@dataclass(frozen=True)
class Dashboard:
    """One card of the landing page."""

    path: str
    """The notebook's path inside the dashboards folder (``mana.ipynb``)."""
    title: str
    """What the dashboard is for, in a few words."""
    summary: str
    """One line: who it is for and what it shows."""
    picture: str
    """The picture's URL, relative to the server's base URL, or a ``data:`` URL."""


def _first_sentence(text: str) -> str:
    """The text up to the first full stop that ends a sentence (not the stops inside "A.D.D.I.C.T.").

    >>> _first_sentence("Watch the A.D.D.I.C.T. short form order a round. Then more.")
    'Watch the A.D.D.I.C.T. short form order a round.'
    """
    text = " ".join(re.sub(r"[*_`]", "", text).split())
    match = re.match(r"(.+?[.!?])(\s+(?=[A-Z0-9(\"'])|$)", text)
    sentence = match[1] if match else text
    return sentence if len(sentence) <= 200 else sentence[:197].rsplit(" ", 1)[0] + "..."


def thumbnail_svg(title: str) -> str:
    """A drawn picture for a dashboard without a thumbnail: its initials on a colour of its own."""
    initials = "".join(word[0] for word in re.findall(r"[A-Za-z]+", title)[:3]).upper() or "?"
    colour = _PALETTE[sum(map(ord, title)) % len(_PALETTE)]
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='320' height='180' viewBox='0 0 320 180'>"
           f"<rect width='320' height='180' rx='8' fill='{colour}'/>"
           f"<text x='160' y='108' font-family='sans-serif' font-size='56' fill='white' text-anchor='middle'>"
           f"{html.escape(initials)}</text></svg>")
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def read_dashboard(notebook: Path, folder: Path) -> Dashboard:
    """The card of ``notebook``; a notebook that cannot be read gets its file name as title."""
    path = notebook.relative_to(folder).as_posix()
    title = summary = ""
    try:
        content = json.loads(notebook.read_text(encoding="utf-8"))
        meta = content.get("metadata", {}).get("combatkit", {})
        markdown = next((cell for cell in content.get("cells", []) if cell.get("cell_type") == "markdown"), None)
        text = "".join(markdown["source"]) if markdown else ""
        lines = text.strip().splitlines()
        if lines and lines[0].startswith("#"):
            title, text = lines[0].lstrip("#").strip(), "\n".join(lines[1:])
        title = str(meta.get("title") or title)
        summary = str(meta.get("summary") or _first_sentence(text))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    title = title or notebook.stem.replace("_", " ").capitalize()
    stem = notebook.relative_to(folder).with_suffix("")
    picture = next((f"voila/files/{quote((THUMBNAILS / stem).as_posix())}{ext}" for ext in (".png", ".svg")
                    if (folder / THUMBNAILS / f"{stem}{ext}").is_file()), None)
    return Dashboard(path, title, summary, picture or thumbnail_svg(title))


def dashboards(folder: Path) -> list[Dashboard]:
    """The cards of every notebook in ``folder`` (not in hidden folders or checkpoints), by title."""
    notebooks = [p for p in folder.rglob("*.ipynb")
                 if not any(part.startswith(".") for part in p.relative_to(folder).parts)]
    return sorted((read_dashboard(p, folder) for p in notebooks), key=lambda d: d.title.lower())
