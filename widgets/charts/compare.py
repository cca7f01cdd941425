"""Charts for comparing timing systems: a small timeline per system, and the odds of a matchup.

Pure functions of long-form rows, like :mod:`combatkit.widgets.charts.timeline`:

* :func:`panel_chart` draws one system's round small enough for six side by side: one
  lane per combatant in the encounter's order (the same in every panel), the system's
  own clock across, its periods shaded, the axis titled with what a tick is. The steps
  of one phase (``"phase 2: movement"``, ``"phase 2: melee"``...) are shaded as one band,
  ``"phase 2"``; a clock with nearly a period per tick (an order of battle:
  ``"count 10"``, ``"strike speed 13"``) names its moments on the axis instead.
  :func:`panel_spec` gives its ``to_dict()`` fast, reusing the spec of an earlier
  round on the same clock.
* :func:`odds_frame` and :func:`odds_chart`: who acts first in a matchup under each
  system (each :class:`~combatkit.odds.Matchup`'s fields), as stacked bars, beside the chance
  that a caster's spell is interrupted; :func:`odds_spec` its ``to_dict()``, unvalidated, for a view that
  redraws it often.

>>> from combatkit import Roller, find_system, load_example
>>> encounter = load_example("orc-closes-on-longbowman")
>>> timeline = find_system("phase1").schedule(encounter, Roller(entered=encounter.rolls))
>>> frame = panel_frame(timeline, ["Aldric", "Grishnak"])
>>> frame[["lane", "kind", "end"]].head(2).to_dict("records")
[{'lane': 'Aldric (winner)', 'kind': 'attack', 'end': 4}, {'lane': 'Aldric (winner)', 'kind': 'attack', 'end': 10}]
>>> spec = panel_chart(frame, timeline.clock, "Phase System I").to_dict()
>>> spec["layer"][0]["encoding"]["x"]["axis"]["title"]
'half-segments'
>>> panel_spec(frame, timeline.clock, "Phase System I") == spec
True
"""

from __future__ import annotations

import copy
import math
import textwrap
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd

from combatkit.odds import Matchup, Order
from combatkit.timeline import Clock, Timeline
from combatkit.widgets.charts.timeline import (
    ACTIVE,
    DIMMED,
    KIND_COLOURS,
    KIND_SHAPES,
    STATUS_STYLE,
    band_records,
    fitted_text,
    merged_periods,
    overlays,
    steps_words,
    timeline_frame,
)

__all__ = [
    "OUTCOME_COLOURS",
    "PANEL_WIDTH",
    "odds_chart",
    "odds_frame",
    "odds_spec",
    "panel_bands",
    "panel_chart",
    "panel_frame",
    "panel_spec",
]

PANEL_WIDTH = 300
"""The plot width of one panel, in pixels, that band labels are laid out for (one line or two): each panel
fills its container (``width="container"``), and each label's text is chosen in the page for the width it
gets."""
LANE_STEP = 22
"""Pixels per combatant lane."""
_SPARE_COLOURS = ("#16a085", "#a04000", "#5b2c6f", "#1b4f72", "#7d6608")
_BAND_CHAR_PX = 5.8  # average width of a character of the 10 px band labels
_UNIT_LINE = 58  # characters per subtitle line
_RIGHT_SLACK_PX = 40  # how far a band label may run past the plot's ends

_LEGENDS_STACKED = alt.ExprRef(expr="{bottom: {anchor: 'start', direction: 'vertical', margin: 4}}")
"""The kinds' legend above the statuses', so both fit a narrow panel."""

OUTCOMES = tuple(Order)
"""The four exclusive outcomes of a matchup, in the order the bars stack."""
OUTCOME_COLOURS = ("#2471a3", "#b7950b", "#c0392b", "#aab7b8")
"""Their colours: the first figure blue, the second red, together ochre, neither grey."""


def panel_frame(timeline: Timeline, order: Sequence[str]) -> pd.DataFrame:
    """:func:`~combatkit.widgets.charts.timeline.timeline_frame`'s rows, with lanes for a small panel:
    the lane is the combatant's name (and its initiative track, where the system has tracks and the
    figure keeps one all round; a track that changes, as Phase System II's does each cycle, is in each
    label instead), and lanes run in ``order`` (the encounter's combatants), so every panel lists them
    alike."""
    frame = timeline_frame(timeline)
    if frame.empty:
        return frame
    rank = {name: n for n, name in enumerate(order)}
    steady = frame.groupby("actor")["track"].nunique() <= 1
    frame["lane"] = [f"{actor} ({track})" if track and steady[actor] else actor
                     for actor, track in zip(frame["actor"], frame["track"], strict=True)]
    frame["lane_order"] = [rank.get(actor, len(rank)) for actor in frame["actor"]]
    return frame


def _last_tick(clock: Clock, frame: pd.DataFrame) -> int:
    return max([clock.ticks, *frame["end"].tolist()]) if not frame.empty else clock.ticks


def _ordinal(clock: Clock) -> bool:
    """Nearly every tick has a period of its own (at least 3 ticks in 4): the ticks are the moments
    of an order of battle (``"count 10"``, ``"strike speed 13"``), named on the axis."""
    return 4 * len(clock.periods) >= 3 * clock.ticks


def panel_bands(clock: Clock, last_tick: int, width: int = PANEL_WIDTH) -> list[dict[str, Any]]:
    """The shaded bands of a panel: the steps of one phase (``"phase 2: movement"``, ``"phase 2: melee"``)
    make one band (:func:`~combatkit.widgets.charts.timeline.merged_periods`); past the clock's end, one band
    for the next round (:func:`~combatkit.widgets.charts.timeline.band_records`: ``label``, ``short``, the
    ``room`` a label may take and its ``level``). An order of battle names its ticks on the axis instead:
    its bands carry no text (``room`` 0)."""
    bands = band_records(merged_periods(clock), clock, last_tick, width, _BAND_CHAR_PX, _RIGHT_SLACK_PX)
    if _ordinal(clock):
        for band in bands:
            band["room"] = 0
    return bands


def _axis_names(clock: Clock, last_tick: int) -> tuple[list[float], str]:
    """For an order of battle: the axis values (each band's middle) and a label expression naming them."""
    bands = [(band.label, (band.start + band.end) / 2) for band in merged_periods(clock)]
    if last_tick > clock.ticks:
        bands.append(("next round", (clock.ticks + 1 + last_tick) / 2))
    expr = "".join(f"datum.value == {mid!r} ? {label!r} : " for label, mid in bands) + "''"
    return [mid for _, mid in bands], expr


def _kinds(frame: pd.DataFrame) -> tuple[str, ...]:
    present = set(frame["kind"]) if not frame.empty else set()
    return tuple(k.value for k in KIND_COLOURS if k in present) + tuple(sorted(present - set(KIND_COLOURS)))


def _chart(clock: Clock, title: str, kinds: tuple[str, ...], last_tick: int, lanes: int, width: int,
           datasets: dict[str, Any]) -> alt.LayerChart:
    unit = clock.unit
    ordinal = _ordinal(clock)
    x_scale = alt.Scale(domain=[0.5, last_tick + 0.5], nice=False, zero=False)
    if ordinal:
        values, names = _axis_names(clock, last_tick)
        x_axis = alt.Axis(title=f"{unit}s, in order", values=values, grid=False, labelAngle=-35,
                          labelAlign="right", labelOverlap=False, labelLimit=0, labelExpr=names)
    else:
        x_axis = alt.Axis(title=f"{unit}s", values=list(range(1, last_tick + 1)), format="d", grid=False,
                          labelOverlap=True)
    y = alt.Y("lane:N", sort=alt.EncodingSortField("lane_order", op="min"), title=None,
              axis=alt.Axis(labelLimit=0, labelFontSize=11, ticks=False, domain=False, labelPadding=6))
    spare = iter(_SPARE_COLOURS * (1 + len(kinds)))
    legend = alt.Legend(orient="bottom", direction="horizontal", title=None, labelFontSize=10, symbolSize=70) \
        if kinds else None  # vega cannot size a legend with no entries
    colour = alt.Color("kind:N", scale=alt.Scale(domain=list(kinds),
                                                 range=[KIND_COLOURS.get(k) or next(spare) for k in kinds]),
                       legend=legend)
    statuses = list(STATUS_STYLE)
    styles = list(STATUS_STYLE.values())
    status_legend = alt.Legend(orient="bottom", direction="horizontal", title=None, labelFontSize=10,
                               symbolType="square", symbolSize=90, symbolStrokeColor="#1c2833",
                               symbolFillColor="#5d6d7e") if kinds else None
    tooltip = [alt.Tooltip("action:N", title="action"), alt.Tooltip("actor:N", title="who"),
               alt.Tooltip("side:N", title="side"), alt.Tooltip("when:N", title="when"),
               alt.Tooltip("status:N", title="status"), alt.Tooltip("why:N", title="why"),
               alt.Tooltip("rule:N", title="rule"), alt.Tooltip("placed:N", title="the intent behind it")]
    actions = alt.Data(name="actions")
    bands_data = alt.Data(name="bands")
    tick = alt.param(name="tick", value=0)

    bands = alt.Chart(bands_data).mark_rect().encode(
        x=alt.X("x0:Q", scale=x_scale, axis=x_axis),
        x2=alt.X2("x1"),
        fill=alt.Fill("shade:O", scale=alt.Scale(domain=[0, 1, 2], range=["#f4f6f7", "#e5e8e8", "#fdf2e9"]),
                      legend=None),
        tooltip=[alt.Tooltip("label:N", title="period")],
    ).properties(name="bands")
    band_labels = [
        alt.Chart(bands_data).mark_text(baseline="bottom", fontSize=10, fontWeight="bold", color="#4d5656").encode(
            x=alt.X("mid:Q", scale=x_scale), y=alt.YValue(-3 - 12 * level), text=alt.Text("text:N"),
        ).transform_filter(f"datum.level == {level}").transform_calculate(
            text=fitted_text("datum.room", last_tick)).properties(name=f"band_labels_{level}")
        for level in (0, 1)
    ]
    bars = alt.Chart(actions).mark_bar(height={"band": 0.6}, cornerRadius=2, stroke="#1c2833").encode(
        x=alt.X("x0:Q", scale=x_scale), x2=alt.X2("x1"), y=y, color=colour,
        fillOpacity=alt.condition(DIMMED, alt.value(0.1), alt.FillOpacity(
            "status:O", sort=statuses, legend=status_legend,
            scale=alt.Scale(domain=statuses, range=[s[0] for s in styles]))),
        strokeDash=alt.StrokeDash("status:O", sort=statuses, legend=status_legend,
                                  scale=alt.Scale(domain=statuses, range=[s[2] for s in styles])),
        strokeWidth=alt.StrokeWidthValue(1, condition={"test": ACTIVE, "value": 3}),
        tooltip=tooltip,
    ).transform_filter("datum.mark == 'bar'").properties(name="bars")
    points = alt.Chart(actions).mark_point(filled=True, size=110, stroke="#1c2833").encode(
        x=alt.X("end:Q", scale=x_scale), y=y, color=colour,
        shape=alt.Shape("kind:N", legend=legend,
                        scale=alt.Scale(domain=list(kinds), range=[KIND_SHAPES.get(k, "circle") for k in kinds])),
        opacity=alt.condition(DIMMED, alt.value(0.15), alt.Opacity(
            "status:O", sort=statuses, legend=status_legend,
            scale=alt.Scale(domain=statuses, range=[s[1] for s in styles]))),
        strokeWidth=alt.StrokeWidthValue(1, condition={"test": ACTIVE, "value": 3}),
        tooltip=tooltip,
    ).transform_filter("datum.mark == 'point'").properties(name="points")
    ruins, labels, cursor = overlays(actions, x_scale, y, tooltip, last_tick, cross=140, font=9)
    steps = steps_words(clock)
    subtitle = textwrap.wrap(f"One tick = one {clock.unit_words}." + (f" Phases run {steps}." if steps else ""),
                             _UNIT_LINE)
    return alt.LayerChart(
        layer=[bands, *band_labels, bars, points, ruins, labels, cursor],
        params=[tick.param],
        width="container",
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        height=LANE_STEP * lanes if lanes else 30,  # a number, not a step: "fit-x" then sizes only the width
        title=alt.Title(title, anchor="start", fontSize=13, subtitle=subtitle, subtitleFontSize=10,
                        subtitleColor="#566573", offset=26),
        datasets=datasets,
        config=alt.Config(view=alt.ViewConfig(stroke=None),
                          legend=alt.LegendConfig(labelLimit=0, layout=_LEGENDS_STACKED, offset=22)),
    )


def _shape_of(frame: pd.DataFrame, clock: Clock, title: str, width: int) -> tuple[Hashable, ...]:
    lanes = frame["lane"].nunique() if not frame.empty else 0
    return clock, title, _kinds(frame), _last_tick(clock, frame), lanes, width


def _datasets(frame: pd.DataFrame, clock: Clock, width: int) -> dict[str, list[dict[str, Any]]]:
    return {"actions": frame.to_dict("records"), "bands": panel_bands(clock, _last_tick(clock, frame), width)}


def panel_chart(frame: pd.DataFrame, clock: Clock, title: str, width: int = PANEL_WIDTH,
                tick: int = 0) -> alt.LayerChart:
    """A small timeline of ``frame`` (from :func:`panel_frame`) on ``clock``, titled ``title``, as wide as its
    container.

    Layers (each named, so its SVG group is ``g.<name>_marks``): ``bands`` (the clock's
    periods, :func:`panel_bands`) with their labels (``band_labels_0``, and ``band_labels_1`` above
    them for crowded neighbours); ``bars`` for actions that take
    time; ``points`` for instants (a diamond where a blow lands, an arrowhead where a move
    ends); ``ruins``, a cross where a spell was ruined; ``labels``, each action's label where it has room
    (the full one, else a shorter one, never cut); and the ``cursor`` at the chart's ``tick`` parameter
    (0: none), where the marks acting are outlined and the others dimmed. The subtitle says what one tick
    is; the legends name every kind and every status drawn; every action mark has a tooltip with when, why
    and the rule.
    """
    chart = _chart(*_shape_of(frame, clock, title, width), datasets=_datasets(frame, clock, width))
    if tick:
        chart.params[0].value = tick
    return chart


@lru_cache(maxsize=128)
def _spec_without_rows(shape: tuple[Hashable, ...]) -> dict[str, Any]:
    spec = _chart(*shape, datasets={"actions": [], "bands": []}).to_dict(validate=False)
    for name in ("actions", "bands"):  # the rows; the cursor's own one-row dataset stays
        del spec["datasets"][name]
    return spec


def panel_spec(frame: pd.DataFrame, clock: Clock, title: str, width: int = PANEL_WIDTH, tick: int = 0) -> dict[str, Any]:
    """``panel_chart(frame, clock, title, width, tick).to_dict()``, fast: the spec without its rows is built
    once per clock, title, set of kinds, axis length and lane count, then reused. It is not validated against
    Vega-Lite's schema here, as :func:`panel_chart`'s is (an example brings six new shapes: about 80 ms more each);
    ``tests/test_compare_widget.py`` holds the two equal."""
    spec = copy.deepcopy(_spec_without_rows(_shape_of(frame, clock, title, width)))
    spec["datasets"].update(_datasets(frame, clock, width))
    spec["params"][0]["value"] = tick
    return spec


# ----------------------------------------------------------------- odds


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def odds_frame(odds: Mapping[str, Matchup], a: str, b: str) -> pd.DataFrame:
    """Long-form rows of matchup odds, one per system and outcome.

    ``odds`` maps a system's title to its exact odds (a :class:`~combatkit.odds.Matchup`, read by
    field: the chance of each :class:`~combatkit.odds.Order`, and of each caster's spell
    interrupted). Columns: ``system``, ``order`` (its place in ``odds``), ``measure`` (``"first"`` for the four
    exclusive outcomes, ``"spell interrupted"`` for the casters), ``outcome`` (in words, with the
    figures' names), ``key`` (the outcome's key in the engine's mapping), ``p`` (a float for the chart),
    ``exact`` (the fraction as text) and ``percent``.

    >>> from fractions import Fraction as F
    >>> rows = odds_frame({"Strike Speed": Matchup(F(7, 12), F(0), F(5, 12), F(0))}, "Erik", "Grishnak")
    >>> rows[["outcome", "exact", "percent"]].head(3).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'outcome': 'Erik first', 'exact': '7/12', 'percent': '58.3%'},
     {'outcome': 'together', 'exact': '0', 'percent': '0.0%'},
     {'outcome': 'Grishnak first', 'exact': '5/12', 'percent': '41.7%'}]
    """
    words = {Order.A_FIRST: f"{a} first", Order.SIMULTANEOUS: "together", Order.B_FIRST: f"{b} first",
             Order.NEITHER: "neither acts"}
    rows = []

    def row(system: str, order: int, measure: str, outcome: str, key: str, p: Fraction) -> None:
        rows.append({"system": system, "order": order, "measure": measure, "outcome": outcome, "key": key,
                     "p": float(p), "exact": str(p), "percent": _percent(p)})

    for order, (system, chances) in enumerate(odds.items()):
        for outcome in OUTCOMES:
            row(system, order, "first", words[outcome], outcome.value, chances.chance(outcome))
        for who, name in (("a", a), ("b", b)):
            interrupted = chances.spell_interrupted(who)
            if interrupted is not None:
                row(system, order, "spell interrupted", f"{name}'s spell", f"{who} spell interrupted", interrupted)
    return pd.DataFrame(rows, columns=["system", "order", "measure", "outcome", "key", "p", "exact", "percent"])


def odds_chart(frame: pd.DataFrame, a: str, b: str, width: int = 190) -> alt.HConcatChart | alt.Chart:
    """Who acts first under each system as one stacked bar per system (``first`` rows of
    :func:`odds_frame`), and beside it, when either figure casts, the chance its spell is
    interrupted (``spell`` rows). Tooltips give the exact fraction."""
    outcomes = [f"{a} first", "together", f"{b} first", "neither acts"]
    systems = list(dict.fromkeys(frame.sort_values("order")["system"])) if not frame.empty else []
    y = alt.Y("system:N", sort=systems, title=None, axis=alt.Axis(labelLimit=240, labelFontSize=11))
    tooltip = [alt.Tooltip("system:N"), alt.Tooltip("outcome:N"), alt.Tooltip("exact:N", title="exact"),
               alt.Tooltip("percent:N", title="chance")]
    first = frame[frame["measure"] == "first"].assign(rank=lambda f: f["outcome"].map(outcomes.index))
    who = alt.Chart(first).mark_bar(height={"band": 0.7}).encode(
        x=alt.X("sum(p):Q", title="who acts first", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        y=y,
        color=alt.Color("outcome:N", scale=alt.Scale(domain=outcomes, range=list(OUTCOME_COLOURS)),
                        legend=alt.Legend(orient="bottom", title=None, columns=2, labelLimit=200)),
        order=alt.Order("rank:Q"),
        tooltip=tooltip,
    ).properties(width=width, height=alt.Step(24), name="first")
    spells = frame[frame["measure"] == "spell interrupted"]
    if spells.empty:
        return who.properties(title=alt.Title(f"{a} against {b}: exact odds", anchor="start", fontSize=13))
    base = alt.Chart(spells).encode(
        x=alt.X("p:Q", title="spell interrupted", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        y=alt.Y("system:N", sort=systems, title=None, axis=None),
        yOffset=alt.YOffset("outcome:N"),
        tooltip=tooltip,
    )
    spell = alt.LayerChart(layer=[
        base.mark_bar(height={"band": 0.7}, color="#7b241c").encode(
            opacity=alt.Opacity("outcome:N", legend=alt.Legend(orient="bottom", title=None),
                                scale=alt.Scale(range=[1, 0.5]))),
        base.mark_text(align="left", dx=3, fontSize=10, color="#4d5656").encode(text=alt.Text("percent:N")),
    ], width=math.ceil(width / 2), height=alt.Step(24), name="spells")
    return alt.HConcatChart(hconcat=[who, spell], spacing=8,  # one call, as charts._chart says
                            resolve=alt.Resolve(scale=alt.ScaleResolveMap(y="shared")),
                            title=alt.Title(f"{a} against {b}: exact odds", anchor="start", fontSize=13))


def odds_spec(frame: pd.DataFrame, a: str, b: str, width: int = 190) -> dict[str, Any]:
    """``odds_chart(frame, a, b, width).to_dict()``, not validated against Vega-Lite's schema: the comparison
    draws it again as each system's odds arrive, and the validation was 70 of the 110 ms each took;
    ``tests/test_compare_widget.py`` holds the two equal."""
    return odds_chart(frame, a, b, width).to_dict(validate=False)
