"""Tables a lesson shows: rows as a reader meets them, with headings and no index column.

A teaching notebook's last line is what a reader sees. A dict, a list of tuples or a pandas
``DataFrame`` shows as Python wrote it (braces, brackets and quotes, or an index column of 0, 1, 2
nobody asked for); :func:`table` shows the same rows as an HTML table with a heading over each column.

>>> html = table_html({"Brienne": 0, "Mira": 2}, ["figure", "DEX modifier"])
>>> [line.strip() for line in html.splitlines() if "<th>" in line or "<td>" in line]
['<th>figure</th>', '<th>DEX modifier</th>', '<td>Brienne</td>', '<td>0</td>', '<td>Mira</td>', '<td>2</td>']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
from IPython.display import HTML

__all__ = ["table", "table_html"]


def _frame(rows: Any, columns: Sequence[str] | None, index: str | None) -> pd.DataFrame:
    if isinstance(rows, pd.DataFrame):
        frame = rows.reset_index(names=index) if index is not None else rows
        return frame.set_axis(list(columns), axis=1) if columns is not None else frame
    if isinstance(rows, Mapping):
        rows = list(rows.items())
    rows = list(rows)
    if rows and isinstance(rows[0], Mapping):
        frame = pd.DataFrame(rows)
        return frame.set_axis(list(columns), axis=1) if columns is not None else frame
    if columns is None:
        raise ValueError(f"a table of {len(rows)} rows of values needs a heading for each column")
    widths = {len(row) for row in rows}
    if widths - {len(columns)}:
        raise ValueError(f"{len(columns)} headings ({', '.join(columns)}) for rows of {sorted(widths)} values")
    return pd.DataFrame([list(row) for row in rows], columns=list(columns))


def table_html(rows: pd.DataFrame | Mapping[Any, Any] | Iterable[Any], columns: Sequence[str] | None = None, *,
               index: str | None = None) -> str:
    """``rows`` as an HTML table without an index column. ``rows`` is a DataFrame (``index``: keep its index as
    a first column under that heading, as for a pivot table's row labels), a dict (a key and its value a row),
    or rows of values (tuples: ``columns`` gives their headings) or of dicts (their keys are the headings).
    ``columns`` renames the headings; a row of values whose length differs from them is a ``ValueError``."""
    return _frame(rows, columns, index).to_html(index=False, border=0, classes="ck-table", justify="left", escape=True)


def table(rows: pd.DataFrame | Mapping[Any, Any] | Iterable[Any], columns: Sequence[str] | None = None, *,
          index: str | None = None) -> HTML:
    """:func:`table_html`, for a notebook to display."""
    return HTML(table_html(rows, columns, index=index))
