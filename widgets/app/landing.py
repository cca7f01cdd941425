"""The dashboard server's landing page: every dashboard with a picture and one line, then every
lesson (teaching notebook) in the order to learn them.

Read afresh on each visit, so a notebook dropped into ``dashboards/`` or ``notebooks/`` appears
without a restart. A notebook's title is the first heading of its first markdown cell and its line
the first sentence after it; its ``metadata.combatkit`` may override them and say more:

``title``, ``summary``
    the card's title and line;
``order``
    where the notebook stands in its section (dashboards: 1 is the table, what a DM opens first; lessons: 1 is
    Phase System I, where a new player begins); notebooks without one come after those with one, by title;
``dashboard``
    a lesson's dashboard (its file name in ``dashboards/``): the landing page and both pages link
    one to the other, so a player who was sent a dashboard finds its lesson, and back;
``hidden``
    ``true``: no card, for a page opened only by a link that carries what it needs (the players' view of a fight
    at the table, by the players' token).

A dashboard's picture is ``thumbnails/<notebook name>.png`` (or ``.svg``) next to it, or else a drawn
card with its initials. Lessons are served under :data:`LEARN` (``/voila/render/learn/<notebook>``,
see :mod:`combatkit.widgets.app.serve`) and listed as a numbered path, without pictures.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import quote

__all__ = ["LEARN", "THUMBNAILS", "Dashboard", "Landing", "dashboards", "landing", "read_dashboard", "thumbnail_svg"]

LEARN = "learn"
"""The folder, in the server's URLs, of the lessons: ``voila/render/learn/phase1_teaching.ipynb``."""
THUMBNAILS = "thumbnails"
"""The folder, inside the dashboards folder, of each dashboard's picture (served by voila's file handler)."""
_PALETTE = ("#1f618d", "#7d3c98", "#117864", "#b9770e", "#943126", "#2e4053")


@dataclass(frozen=True)
class Dashboard:
    """One card of the landing page: a dashboard, or a lesson."""

    path: str
    """The notebook's path in the server's URLs, after ``voila/render/`` (``mana.ipynb``,
    ``learn/mana_teaching.ipynb``)."""
    title: str
    """What the notebook is for, in a few words."""
    summary: str
    """One line: who it is for and what it shows."""
    picture: str
    """The picture's URL, relative to the server's base URL, or a ``data:`` URL."""
    order: int | None = None
    """Its place in its section (``metadata.combatkit.order``); None: after the numbered ones, by title."""
    companion: str = ""
    """The path of the page that goes with it: a lesson's dashboard, or the lesson of a dashboard ("": none)."""
    hidden: bool = False
    """Listed nowhere (``metadata.combatkit.hidden``): a page opened only by a link that carries what it needs."""


@dataclass(frozen=True)
class Landing:
    """What the landing page lists: its two sections."""

    dashboards: list[Dashboard]
    """Every dashboard but the hidden ones, in order."""
    lessons: list[Dashboard]
    """Every lesson, in the order to learn them."""

    def card(self, path: str) -> Dashboard | None:
        """The card of the notebook at ``path`` (a dashboard's or a lesson's), if there is one."""
        return next((card for card in (*self.dashboards, *self.lessons) if card.path == path), None)


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


def read_dashboard(notebook: Path, folder: Path, *, under: str = "") -> Dashboard:
    """The card of ``notebook``; a notebook that cannot be read gets its file name as title.

    ``under`` is the folder the server shows ``folder`` as (``"learn"`` for the lessons; "" for the root).
    """
    path = notebook.relative_to(folder).as_posix()
    title = summary = companion = ""
    order = None
    hidden = False
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
        order = meta["order"] if isinstance(meta.get("order"), int) else None
        companion = str(meta.get("dashboard") or "")
        hidden = meta.get("hidden") is True
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    title = title or notebook.stem.replace("_", " ").capitalize()
    stem = notebook.relative_to(folder).with_suffix("")
    picture = next((f"voila/files/{quote((THUMBNAILS / stem).as_posix())}{ext}" for ext in (".png", ".svg")
                    if (folder / THUMBNAILS / f"{stem}{ext}").is_file()), None)
    return Dashboard(f"{under}/{path}" if under else path, title, summary, picture or thumbnail_svg(title), order,
                     companion, hidden)


def dashboards(folder: Path, *, under: str = "") -> list[Dashboard]:
    """The cards of every notebook in ``folder`` (not in hidden folders or checkpoints, nor marked ``hidden``), in
    order: the numbered ones first (``metadata.combatkit.order``), then by title."""
    notebooks = [p for p in folder.rglob("*.ipynb")
                 if not any(part.startswith(".") for part in p.relative_to(folder).parts)]
    cards = [card for card in (read_dashboard(p, folder, under=under) for p in notebooks) if not card.hidden]
    return sorted(cards, key=lambda d: (d.order is None, d.order or 0, d.title.lower()))


def landing(dashboards_folder: Path, lessons_folder: Path | None = None) -> Landing:
    """The landing page of a server showing ``dashboards_folder`` at its root and ``lessons_folder``
    (if any) under :data:`LEARN`, each lesson paired with the dashboard it names and back."""
    boards = dashboards(dashboards_folder)
    lessons = dashboards(lessons_folder, under=LEARN) if lessons_folder else []
    served = {card.path for card in boards}
    lessons = [replace(lesson, companion=lesson.companion if lesson.companion in served else "")
               for lesson in lessons]
    lesson_of: dict[str, str] = {}
    for lesson in lessons:  # the first lesson (in order) that names a dashboard is its lesson
        if lesson.companion:
            lesson_of.setdefault(lesson.companion, lesson.path)
    boards = [replace(board, companion=lesson_of.get(board.path, "")) for board in boards]
    return Landing(boards, lessons)
