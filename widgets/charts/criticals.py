"""One attack's exact odds as long-form rows, and the charts drawn from them.

:func:`odds_frame` turns the engine's :class:`~combatkit.criticals.AttackOdds` into one
row per (measure, value): the d20's outcomes with the d10 rows of 000 §4's critical
tables under the outcome that leads to them, then the damage, SF-penalty and
body-point distributions. Every probability is there twice: exact (``"1/200"``) and
as a float, plus the percentage as shown. :func:`outcome_chart`, :func:`damage_chart`
and :func:`sf_penalty_chart` are pure functions of that frame. Each reads its rows from
named datasets (``outcomes``; ``damage`` and ``expected``; ``sf_penalty``), so nothing
else in its spec depends on the attack: :func:`outcome_spec`, :func:`damage_spec` and
:func:`sf_penalty_spec` give the same ``.to_dict()`` in well under a millisecond instead
of tens, by building and validating the spec without rows once and swapping the rows in
(the explorer redraws through them).

>>> from combatkit.attack import Attacker, Defender
>>> from combatkit.criticals import attack_odds
>>> from combatkit.model import Weapon
>>> aldric = Attacker("Aldric", Weapon("long sword", 5, damage="d8"), thac0=15, strength=18, exceptional=99)
>>> odds = attack_odds(aldric, Defender("orc", armor_class=6), "000-I")
>>> frame = odds_frame(odds)
>>> frame[frame.measure == "critical hit row"][["label", "exact", "percent"]].head(2).to_dict("records")
... # doctest: +NORMALIZE_WHITESPACE
[{'label': 'd10 1-4: double base damage, reroll minimums', 'exact': '1/50', 'percent': '2.00%'},
 {'label': 'd10 5-6: double base damage, best of two rolls', 'exact': '1/100', 'percent': '1.00%'}]
>>> spec = damage_chart(frame, odds.expected_damage).to_dict()
>>> spec["datasets"]["expected"][0]["text"]
'expected 7.31 (11689/1600)'
>>> damage_spec(frame, odds.expected_damage) == spec
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

import altair as alt
import pandas as pd

from combatkit.criticals import CRITICAL_HIT_TABLE, CRITICAL_MISS_TABLE, AttackOdds, Outcome

__all__ = [
    "COLUMNS",
    "OUTCOME_COLOURS",
    "damage_chart",
    "damage_spec",
    "odds_frame",
    "outcome_chart",
    "outcome_spec",
    "sf_penalty_chart",
    "sf_penalty_spec",
]

OUTCOME_COLOURS: dict[str, str] = {
    Outcome.CRITICAL_MISS.value: "#7b241c",
    Outcome.SEVERE_MISS.value: "#c0392b",
    Outcome.MISS.value: "#e6b0aa",
    Outcome.HIT.value: "#85c1e9",
    Outcome.SEVERE_HIT.value: "#2e86c1",
    Outcome.CRITICAL_HIT.value: "#1b4f72",
}
"""A fixed colour per outcome, misses red and hits blue, darker the more severe."""

COLUMNS = ("measure", "value", "label", "outcome", "exact", "probability", "percent", "order")
"""Columns of :func:`odds_frame`."""

_ROW_NAMES = {
    "critical miss row": {r.label: r.name for r in CRITICAL_MISS_TABLE},
    "critical hit row": {r.label: r.name for r in CRITICAL_HIT_TABLE},
}
"""The short name of each d10 row of 000 §4 Tables I, by its faces."""
_MISFIRE_LABEL = "MW: missile weapon misfire"
_WIDTH = 300
_TITLE = {"anchor": "start", "fontSize": 14}

Datasets = dict[str, list[dict[str, Any]]]


def odds_frame(odds: AttackOdds) -> pd.DataFrame:
    """One row per outcome, critical table row and distribution value, in reading order:

    ``measure``
        ``"outcome"``, ``"critical miss row"``, ``"critical hit row"`` (000-I's d10 tables,
        listed right after their outcome), ``"damage"``, ``"SF penalty"``, ``"body points"``;
    ``value``
        the outcome (``"severe hit"``), the row's d10 faces (``"1-4"``, or ``"MW"``) or the number;
    ``label``
        what a reader sees: ``"d10 9: prone"``, ``"12 damage"``, ``"+2 SF"``;
    ``outcome``
        the outcome a table row belongs to (the outcome itself for an outcome row), else ``""``;
    ``exact``, ``probability``, ``percent``
        the probability as a fraction (``"1/200"``), a float, and a percentage to two places;
    ``order``
        the row's position, top to bottom.
    """
    rows: list[dict[str, Any]] = []

    def add(measure: str, value: Any, label: str, p: Fraction, outcome: str = "") -> None:
        rows.append({
            "measure": measure, "value": value, "label": label, "outcome": outcome, "exact": str(p),
            "probability": float(p), "percent": f"{float(p):.2%}", "order": len(rows),
        })  # fmt: skip

    tables = {
        Outcome.CRITICAL_MISS.value: ("critical miss row", odds.critical_miss_rows),
        Outcome.CRITICAL_HIT.value: ("critical hit row", odds.critical_hit_rows),
    }
    for outcome, p in odds.outcomes.items():
        add("outcome", outcome, outcome, p, outcome)
        if outcome in tables:
            measure, table = tables[outcome]
            names = _ROW_NAMES[measure]
            for row, q in table.items():
                add(measure, row, f"d10 {row}: {names[row]}" if row in names else _MISFIRE_LABEL, q, outcome)
    for value, p in odds.damage.items():
        add("damage", value, f"{value} damage", p)
    for value, p in odds.sf_penalty.items():
        add("SF penalty", value, f"+{value} SF", p)
    for value, p in odds.body_points.items():
        add("body points", value, f"{value} body point{'' if value == 1 else 's'}", p)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _tooltip(what: str) -> list[alt.Tooltip]:
    return [
        alt.Tooltip("label:N", title=what),
        alt.Tooltip("exact:N", title="exact"),
        alt.Tooltip("percent:N", title="percent"),
    ]


def _spec(layers: Callable[[], alt.LayerChart], datasets: Datasets) -> dict[str, Any]:
    spec = copy.deepcopy(_spec_without_rows(layers))
    spec["datasets"] = datasets
    return spec


@cache
def _spec_without_rows(layers: Callable[[], alt.LayerChart]) -> dict[str, Any]:
    return layers().to_dict()


# ------------------------------------------------------------------ outcomes


def _outcome_rows(frame: pd.DataFrame) -> Datasets:
    shown = frame[frame["measure"].isin(["outcome", *_ROW_NAMES])].assign(
        axis_label=lambda f: f["label"].where(f["measure"] == "outcome", "↳ " + f["label"]),
        text=lambda f: f["exact"] + " · " + f["percent"],
        is_row=lambda f: f["measure"] != "outcome",
    )
    return {"outcomes": shown.to_dict("records")}


def _outcome_layers() -> alt.LayerChart:
    data = alt.Data(name="outcomes")
    y = alt.Y("axis_label:N", sort=alt.EncodingSortField("order", op="min"), title=None,
              axis=alt.Axis(labelLimit=330, labelFontSize=11, ticks=False, domain=False))
    x = alt.X("probability:Q", scale=alt.Scale(domain=[0, 1], nice=False),
              axis=alt.Axis(format="%", title="probability", tickCount=5))
    bars = alt.Chart(data).mark_bar(height={"band": 0.75}, cornerRadiusEnd=2).encode(
        x=x,
        y=y,
        color=alt.Color("outcome:N", legend=None,
                        scale=alt.Scale(domain=list(OUTCOME_COLOURS), range=list(OUTCOME_COLOURS.values()))),
        opacity=alt.Opacity("is_row:N", legend=None, scale=alt.Scale(domain=[False, True], range=[1.0, 0.5])),
        tooltip=_tooltip("outcome"),
    ).properties(name="bars")
    labels = alt.Chart(data).mark_text(align="left", baseline="middle", dx=4, fontSize=11, color="#17202a").encode(
        x=alt.X("probability:Q"), y=y, text="text:N", tooltip=_tooltip("outcome"),
    ).properties(name="labels")
    return alt.layer(bars, labels).properties(
        width=_WIDTH - 40,
        height=alt.Step(20),
        title=alt.Title("What the d20 does", subtitle="each bar: exact fraction · percentage", **_TITLE),
    ).configure_view(stroke=None)


def outcome_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """A horizontal bar per outcome of the d20, from critical miss down to critical hit, with
    each 000-I critical table row (``↳ d10 9: prone``) under its outcome in a lighter shade.

    The axis runs from 0 to 100% whatever the odds, so bars can be compared as the inputs
    change; every bar is labelled with its exact fraction and percentage. Layers:
    ``bars`` and ``labels``; rows: dataset ``outcomes``.
    """
    return _outcome_layers().properties(datasets=_outcome_rows(frame))


def outcome_spec(frame: pd.DataFrame) -> dict[str, Any]:
    """``outcome_chart(frame).to_dict()``, fast."""
    return _spec(_outcome_layers, _outcome_rows(frame))


# ------------------------------------------------------------------ damage


def _damage_rows(frame: pd.DataFrame, expected: Fraction) -> Datasets:
    damage = frame[frame["measure"] == "damage"]
    points = damage["value"].astype(int)
    shown = damage.assign(damage=points, x0=points - 0.45, x1=points + 0.45, miss=points == 0)
    mean = float(expected)
    return {
        "damage": shown.to_dict("records"),
        "expected": [{"expected": mean, "exact": str(expected), "text": f"expected {mean:.2f} ({expected})"}],
    }


def _damage_layers() -> alt.LayerChart:
    bars = alt.Chart(alt.Data(name="damage")).mark_bar().encode(
        x=alt.X("x0:Q", title="damage (hit points)", scale=alt.Scale(nice=False),
                axis=alt.Axis(format="d", tickMinStep=1)),
        x2="x1:Q",
        y=alt.Y("probability:Q", axis=alt.Axis(format="%", title="probability")),
        y2=alt.datum(0),
        color=alt.Color("miss:N", legend=None, scale=alt.Scale(domain=[True, False], range=["#b3b6b7", "#2e86c1"])),
        tooltip=_tooltip("damage"),
    ).properties(name="bars")
    expected = alt.Data(name="expected")
    rule = alt.Chart(expected).mark_rule(color="#922b21", strokeDash=[5, 3], strokeWidth=2).encode(
        x=alt.X("expected:Q"), tooltip=alt.Tooltip("text:N", title="expected damage"),
    ).properties(name="expected")
    label = alt.Chart(expected).mark_text(
        align="left", baseline="top", dx=5, y=2, fontSize=11, fontWeight="bold", color="#922b21",
    ).encode(x=alt.X("expected:Q"), text="text:N").properties(name="expected_label")
    return alt.layer(bars, rule, label).properties(
        width=_WIDTH + 60,
        height=180,
        title=alt.Title("Damage of one attack", subtitle="grey: no damage (a miss); dashed: the expected damage",
                        **_TITLE),
    ).configure_view(stroke=None)


def damage_chart(frame: pd.DataFrame, expected: Fraction) -> alt.LayerChart:
    """A bar per damage total (0 is a miss, in grey) and a dashed rule at ``expected``, the
    expected damage (:attr:`~combatkit.criticals.AttackOdds.expected_damage`), labelled with its
    exact value. Layers: ``bars``, ``expected`` and ``expected_label``; rows: datasets
    ``damage`` and ``expected``."""
    return _damage_layers().properties(datasets=_damage_rows(frame, expected))


def damage_spec(frame: pd.DataFrame, expected: Fraction) -> dict[str, Any]:
    """``damage_chart(frame, expected).to_dict()``, fast."""
    return _spec(_damage_layers, _damage_rows(frame, expected))


# ------------------------------------------------------------------ SF penalty


def _sf_penalty_rows(frame: pd.DataFrame) -> Datasets:
    return {"sf_penalty": frame[frame["measure"] == "SF penalty"].to_dict("records")}


def _sf_penalty_layers() -> alt.LayerChart:
    data = alt.Data(name="sf_penalty")
    x = alt.X("label:N", sort=alt.EncodingSortField("order", op="min"), title="SF added to the next strike",
              axis=alt.Axis(labelAngle=0))
    bars = alt.Chart(data).mark_bar(color="#a04000").encode(
        x=x, y=alt.Y("probability:Q", axis=alt.Axis(format="%", title="probability")), tooltip=_tooltip("penalty"),
    ).properties(name="bars")
    labels = alt.Chart(data).mark_text(baseline="bottom", dy=-2, fontSize=10, color="#17202a").encode(
        x=x, y=alt.Y("probability:Q"), text="percent:N",
    ).properties(name="labels")
    return alt.layer(bars, labels).properties(
        width=alt.Step(36),
        height=180,
        title=alt.Title("Slowed next strike", subtitle="000 §4 Severity Rules II: Severe and Critical Miss",
                        **_TITLE),
    ).configure_view(stroke=None)


def sf_penalty_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """A bar per SF penalty on the weapon's next strike (000 §4 Severity Rules II: Severe
    Miss and Critical Miss), ``+0 SF`` included, labelled with its percentage. Layers:
    ``bars`` and ``labels``; rows: dataset ``sf_penalty``."""
    return _sf_penalty_layers().properties(datasets=_sf_penalty_rows(frame))


def sf_penalty_spec(frame: pd.DataFrame) -> dict[str, Any]:
    """``sf_penalty_chart(frame).to_dict()``, fast."""
    return _spec(_sf_penalty_layers, _sf_penalty_rows(frame))
