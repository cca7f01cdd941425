"""The one way a dashboard tells a user their input was not applied: a red box screen readers
announce (``role="alert"``), shown above what still holds, hidden when there is nothing to say.

Beside the four sub-packages, not in one: the views show alerts, and the page state tells what a link could not
apply in the same box."""

from __future__ import annotations

import html
from collections.abc import Iterable

import ipywidgets as widgets

__all__ = ["alert_html", "bullets", "show_alert"]

_STYLE = "border:1px solid #c0392b;background:#fdedec;color:#78281f;padding:6px 10px;border-radius:4px;margin:4px 0"


def alert_html(body: str, *, max_width: int | None = None) -> str:
    """``body`` (HTML whose text the caller escaped) in the alert box.

    >>> alert_html("<b>Not applied:</b> x")[:17]
    '<div role="alert"'
    """
    width = f";max-width:{max_width}px" if max_width else ""
    return f'<div role="alert" style="{_STYLE}{width}">{body}</div>'


def bullets(lines: Iterable[str]) -> str:
    """Plain-text ``lines`` as an escaped HTML list."""
    return '<ul style="margin:4px 0">' + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul>"


def show_alert(message: widgets.HTML, body: str, *, max_width: int | None = None) -> None:
    """Show ``body`` in ``message`` as an alert, or hide ``message`` when ``body`` is empty; ``message`` is
    marked ``ck-live``, a live region (the page template makes it one), so what it says next is read out too."""
    message.add_class("ck-live")
    message.value = alert_html(body, max_width=max_width) if body else ""
    message.layout.display = None if body else "none"
