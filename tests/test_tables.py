"""The lessons' tables (combatkit.widgets.views.tables): headings over each column, never an index column."""

import pandas as pd
import pytest

from combatkit.widgets.views.tables import table, table_html


def cells(html: str, tag: str) -> list[str]:
    return [line.strip()[len(tag) + 2: -len(tag) - 3] for line in html.splitlines() if line.strip().startswith(f"<{tag}>")]


def test_a_frame_shows_without_its_index():
    html = table_html(pd.DataFrame({"who": ["Ranger"], "surprises": [2]}, index=[7]))
    assert cells(html, "th") == ["who", "surprises"] and cells(html, "td") == ["Ranger", "2"]


def test_a_frame_s_row_labels_become_a_named_column():
    frame = pd.DataFrame({"SF 1": {"winner": 1, "loser": 2}})
    assert cells(table_html(frame, index="track"), "th") == ["track", "SF 1"]
    assert cells(table_html(frame, index="track"), "td") == ["winner", "1", "loser", "2"]


def test_a_dict_is_a_key_and_a_value_a_row():
    assert cells(table_html({"Mira": 2}, ["figure", "DEX modifier"]), "td") == ["Mira", "2"]


def test_rows_of_values_take_the_headings_given_and_rows_of_dicts_their_keys():
    assert cells(table_html([("phase 1", 1, 6)], ["phase", "from", "to"]), "th") == ["phase", "from", "to"]
    assert cells(table_html([{"a": 1, "b": "<x>"}]), "td") == ["1", "&lt;x&gt;"]  # text is escaped


def test_rows_of_values_without_headings_or_with_the_wrong_number_are_refused():
    with pytest.raises(ValueError, match="needs a heading for each column"):
        table_html([(1, 2)])
    with pytest.raises(ValueError, match=r"2 headings \(a, b\) for rows of \[3\] values"):
        table_html([(1, 2, 3)], ["a", "b"])


def test_table_is_the_html_for_a_notebook():
    assert table({"Mira": 2}, ["figure", "DEX modifier"]).data == table_html({"Mira": 2}, ["figure", "DEX modifier"])
