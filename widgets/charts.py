"""A round as a Gantt chart: combatants down, the system's clock across, one mark per action.

:func:`timeline_frame` turns a :class:`~combatkit.Timeline` into long-form rows (one per
span, plus the columns a chart needs); :func:`timeline_chart` draws those rows on any
:class:`~combatkit.Clock`, so the 20 half-segments of Phase System I (000 Table 1), a
10-segment round or five phases plus last actions all use the same code: the axis
title is ``clock.unit``, the axis runs over ``clock.ticks`` and the shaded bands are
``clock.periods``. Both are pure functions.

The chart reads its rows from two named datasets, ``actions`` and ``periods``, so
everything else in the spec depends only on the clock, the title, any action kinds
beyond Phase System I's and whether an action spills into the next round.
:func:`timeline_spec` uses that to give ``timeline_chart(...).to_dict()`` for a new
round in a few milliseconds instead of over a hundred: it reuses the rest of the spec
and swaps the rows (the widgets redraw through it).

>>> from combatkit import Roller, find_system, load_example
>>> encounter = load_example("orc-closes-on-longbowman")
>>> timeline = find_system("phase1").schedule(encounter, Roller(entered=encounter.rolls))
>>> frame = timeline_frame(timeline)
>>> frame[["actor", "kind", "end", "lane"]].head(2).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
[{'actor': 'Aldric', 'kind': 'attack', 'end': 4, 'lane': 'Aldric (archers, winner)'},
 {'actor': 'Aldric', 'kind': 'attack', 'end': 10, 'lane': 'Aldric (archers, winner)'}]
>>> spec = timeline_chart(frame, timeline.clock).to_dict()
>>> spec["layer"][0]["encoding"]["x"]["axis"]["title"]
'half-segment (3 seconds)'
>>> timeline_spec(frame, timeline.clock) == spec
True
"""

from __future__ import annotations

import copy
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd

from combatkit.timeline import Clock, SpanKind, Status, Timeline, Track

__all__ = [
    "DURATIVE_KINDS",
    "KIND_COLOURS",
    "KIND_SHAPES",
    "STATUS_STYLE",
    "TRACK_ORDER",
    "timeline_chart",
    "timeline_frame",
    "timeline_spec",
]

KIND_COLOURS: dict[SpanKind, str] = {
    SpanKind.ATTACK: "#c0392b",
    SpanKind.MOVE: "#1e8449",
    SpanKind.CAST: "#2471a3",
    SpanKind.HOLD: "#8e44ad",
    SpanKind.MISC: "#7f8c8d",
    SpanKind.READY: "#d68910",
    SpanKind.SURPRISED: "#34495e",
}
"""Fixed colour per action kind, so a kind keeps its colour when others come and go."""
_SPARE_COLOURS = ("#16a085", "#a04000", "#5b2c6f", "#1b4f72", "#7d6608")

KIND_SHAPES: dict[SpanKind, str] = {SpanKind.ATTACK: "diamond", SpanKind.MOVE: "triangle-right"}
"""Instant actions are points: a blow lands at a diamond, a move ends at an arrowhead; others are circles."""

DURATIVE_KINDS = frozenset({SpanKind.CAST, SpanKind.HOLD, SpanKind.MISC, SpanKind.READY, SpanKind.SURPRISED})
"""Kinds drawn as a bar from start to end even when they last one tick (a cancelled spell)."""

STATUS_STYLE: dict[str, tuple[float, float, list[int]]] = {
    Status.DONE.value: (0.55, 1.0, [1, 0]),
    Status.RUINED.value: (0.22, 0.4, [5, 3]),
    Status.CANCELLED.value: (0.08, 0.2, [2, 2]),
}
"""Status -> (bar fill opacity, point opacity, bar outline dash): ruined is faded and dashed,
cancelled more so. Bars stay light enough for their dark labels to read on top."""

TRACK_ORDER = (Track.WINNER, Track.LOSER, None)
"""Lanes list the winner track first, as Table 1 reads its winner columns first (000 Table 1)."""

WIDTH = 800
"""Plot width in pixels."""
LANE_STEP = 34
"""Pixels per combatant lane."""
_CHAR_PX = 5.6  # average width of a character of the 10 px label font
_PERIOD_CHAR_PX = 6.6  # the same for the 11 px bold period labels
_LABEL_DX = 10  # pixels between a mark (a point's centre, a bar's left edge) and its label
_RIGHT_SLACK_PX = 80  # how far a label may run past the last tick
_SPAN_COLUMNS = ("actor", "side", "kind", "action", "start", "end", "period", "rule", "why", "track", "target",
                 "status")
_CHART_COLUMNS = ("lane", "lane_order", "x0", "x1", "mark", "when", "label", "label_x")
COLUMNS = _SPAN_COLUMNS + _CHART_COLUMNS
"""Columns of :func:`timeline_frame`: a span's fields, then the chart's."""


def _unit(clock: Clock) -> str:
    """``"half-segment (3 seconds)"`` -> ``"half-segment"``."""
    return clock.unit.split(" (")[0]


def _last_tick(clock: Clock, ends: list[int]) -> int:
    """The axis runs to the clock's last tick, or further when an action spills into the next round."""
    return max([clock.ticks, *ends])


def timeline_frame(timeline: Timeline) -> pd.DataFrame:
    """One row per span: the span's own fields (``track`` and ``target`` as ``""`` when
    absent), then the columns :func:`timeline_chart` draws:

    ``lane``
        the y label, ``"Mira (party, winner)"``;
    ``lane_order``
        lanes top to bottom: winner track, loser track, no track; then side, then first action;
    ``x0``, ``x1``
        the edges of the action's cells (half a tick either side of ``start`` and ``end``);
    ``mark``
        ``"bar"`` for actions that take time, ``"point"`` for instants (a blow, the end of a move);
    ``when``
        the clock's words for when it happens;
    ``label``, ``label_x``
        the text written beside the mark (cut short to fit before the next mark in its
        lane, with the status when not done) and where it starts.
    """
    clock = timeline.clock
    spans = timeline.spans
    if not spans:
        return pd.DataFrame({name: pd.Series(dtype="object") for name in COLUMNS})
    sides = list(dict.fromkeys(s.side for s in spans))
    lane_of: dict[str, tuple[int, int, int, str]] = {}
    for i, s in enumerate(spans):
        if s.actor not in lane_of:
            lane_of[s.actor] = (TRACK_ORDER.index(s.track), sides.index(s.side), i,
                                f"{s.actor} ({s.side}, {s.track.value})" if s.track else f"{s.actor} ({s.side})")
    order = {actor: n for n, actor in enumerate(sorted(lane_of, key=lambda a: lane_of[a][:3]))}
    rows: list[dict[str, Any]] = []
    for s in spans:
        row = s.row()
        row["track"] = row["track"] or ""
        row["target"] = s.target or ""
        bar = s.kind in DURATIVE_KINDS or s.end > s.start
        row.update(
            lane=lane_of[s.actor][3],
            lane_order=order[s.actor],
            x0=s.start - 0.5,
            x1=s.end + 0.5,
            mark="bar" if bar else "point",
            when=clock.describe(s.end) if s.start == s.end else f"{clock.describe(s.start)} to {clock.describe(s.end)}",
            label=s.action if s.status is Status.DONE else f"{s.action}: {s.status.value.upper()}",
            label_x=s.start - 0.5 if bar else s.end,
        )
        rows.append(row)
    rows.sort(key=lambda r: (r["lane_order"], r["x0"], r["x1"]))
    last = _last_tick(clock, [s.end for s in spans])
    tick_px = WIDTH / last
    for row, after in zip(rows, [*rows[1:], None], strict=True):
        if after is not None and after["lane_order"] == row["lane_order"]:
            room = (after["x0"] if after["mark"] == "bar" else after["end"]) * tick_px - 8  # a point's half-width
        else:
            room = (last + 0.5) * tick_px + _RIGHT_SLACK_PX
        row["label"] = _fit(row["label"], room - row["label_x"] * tick_px - _LABEL_DX, _CHAR_PX)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _fit(text: str, pixels: float, char_px: float) -> str:
    """``text``, cut with an ellipsis to fit ``pixels`` (empty when not even a few characters fit)."""
    chars = int(pixels / char_px)
    if len(text) <= chars:
        return text
    return text[: chars - 1].rstrip() + "…" if chars > 3 else ""


def _period_records(clock: Clock, last_tick: int) -> list[dict[str, Any]]:
    """One row per period band. A label that does not fit over its band goes on the upper or lower
    of two lines, alternating with its crowded neighbours, and may then spread over them; what
    still does not fit is cut short (the band's tooltip has it in full)."""
    unit = _unit(clock)
    tick_px = WIDTH / last_tick
    bands = [(p.label, p.start, p.end) for p in clock.periods]
    if last_tick > clock.ticks:
        bands.append(("next round", clock.ticks + 1, last_tick))
    widths = [(end - start + 1) * tick_px for _, start, end in bands]
    needs = [len(label) * _PERIOD_CHAR_PX for label, _, _ in bands]
    crowded = [need > width for need, width in zip(needs, widths, strict=True)]
    # what a label may borrow from a neighbour on each side: half of it if the neighbour's label is on the
    # other line (the label beyond may borrow the other half), else what the neighbour's own centred label
    # leaves free; past either end, some slack
    spare = [width / 2 if crowd else (width - need) / 2 for width, need, crowd in zip(widths, needs, crowded,
                                                                                     strict=True)]
    out = []
    run = 0
    for i, (label, start, end) in enumerate(bands):
        run = run + 1 if crowded[i] else 0
        room = widths[i]
        if crowded[i]:  # centred, it may spread as far into both neighbours as the tighter side allows
            room += 2 * min(spare[j] if 0 <= j < len(bands) else _RIGHT_SLACK_PX for j in (i - 1, i + 1))
        spill = start > clock.ticks  # the band past the clock's end
        first, last = (start - clock.ticks, end - clock.ticks) if spill else (start, end)
        covers = f"{unit}s {first}-{last}" if last > first else f"{unit} {first}"
        out.append({
            "label": label, "text": _fit(label, room - 4, _PERIOD_CHAR_PX), "x0": start - 0.5, "x1": end + 0.5,
            "mid": (start + end) / 2, "shade": 2 if spill else i % 2, "level": 1 if run and run % 2 == 0 else 0,
            "covers": covers + (" of the next round" if spill else ""),
        })
    return out


def _kinds(frame: pd.DataFrame) -> tuple[str, ...]:
    """The kinds the colour and shape scales know: every Phase System I kind, so the legend and the
    colours stay put as actions come and go, then any other kind present (other systems)."""
    return tuple(k.value for k in KIND_COLOURS) + tuple(sorted(set(frame["kind"]) - set(KIND_COLOURS)))


def _chart(clock: Clock, title: str | None, kinds: tuple[str, ...], last_tick: int, has_lanes: bool,
           has_tracks: bool, datasets: dict[str, Any]) -> alt.LayerChart:
    unit = _unit(clock)
    x_scale = alt.Scale(domain=[0.5, last_tick + 0.5], nice=False, zero=False)
    x_axis = alt.Axis(title=clock.unit, values=list(range(1, last_tick + 1)), format="d", grid=False,
                      labelOverlap=False, tickCount=last_tick)
    y = alt.Y("lane:N", sort=alt.EncodingSortField("lane_order", op="min"), title=None,
              axis=alt.Axis(labelLimit=260, labelFontSize=12, ticks=False, domain=False, labelPadding=8))
    spare = iter(_SPARE_COLOURS * (1 + len(kinds)))
    kind_legend = alt.Legend(orient="bottom", direction="horizontal")  # colour and shape share one legend
    colours = [KIND_COLOURS.get(k) or next(spare) for k in kinds]
    kind_colour = alt.Color("kind:N", title="action", scale=alt.Scale(domain=list(kinds), range=colours),
                            legend=kind_legend)
    statuses = list(STATUS_STYLE)
    styles = list(STATUS_STYLE.values())
    status_legend = alt.Legend(orient="bottom", direction="horizontal", symbolType="square", symbolSize=160,
                               symbolStrokeWidth=1.5, symbolStrokeColor="#1c2833", symbolFillColor="#5d6d7e")
    tooltip = [
        alt.Tooltip("action:N", title="action"),
        alt.Tooltip("actor:N", title="who"),
        alt.Tooltip("track:N", title="track"),
        alt.Tooltip("when:N", title="when"),
        alt.Tooltip("status:N", title="status"),
        alt.Tooltip("why:N", title="why"),
        alt.Tooltip("rule:N", title="rule"),
    ]
    actions = alt.Data(name="actions")
    periods = alt.Data(name="periods")

    bands = alt.Chart(periods).mark_rect().encode(
        x=alt.X("x0:Q", scale=x_scale, axis=x_axis),
        x2="x1:Q",
        fill=alt.Fill("shade:O", scale=alt.Scale(domain=[0, 1, 2], range=["#f4f6f7", "#e5e8e8", "#fdf2e9"]),
                      legend=None),
        tooltip=[alt.Tooltip("label:N", title="period"), alt.Tooltip("covers:N", title="covers")],
    ).properties(name="periods")
    band_labels = [
        alt.Chart(periods).mark_text(baseline="bottom", fontSize=11, fontWeight="bold", color="#4d5656")
        .encode(x=alt.X("mid:Q", scale=x_scale), y=alt.value(-4 - 14 * level), text="text:N")
        .transform_filter(f"datum.level == {level}").properties(name=f"period_labels_{level}")
        for level in (0, 1)
    ]
    bars = alt.Chart(actions).mark_bar(height={"band": 0.56}, cornerRadius=3, stroke="#1c2833",
                                       strokeWidth=1.2).encode(
        x=alt.X("x0:Q", scale=x_scale),
        x2="x1:Q",
        y=y,
        color=kind_colour,
        strokeDash=alt.StrokeDash("status:O", title="status", sort=statuses, legend=status_legend,
                                  scale=alt.Scale(domain=statuses, range=[s[2] for s in styles])),
        fillOpacity=alt.FillOpacity("status:O", title="status", sort=statuses, legend=status_legend,
                                    scale=alt.Scale(domain=statuses, range=[s[0] for s in styles])),
        tooltip=tooltip,
    ).transform_filter("datum.mark == 'bar'").properties(name="bars")
    points = alt.Chart(actions).mark_point(filled=True, size=190, stroke="#1c2833", strokeWidth=1).encode(
        x=alt.X("end:Q", scale=x_scale),
        y=y,
        color=kind_colour,
        shape=alt.Shape("kind:N", title="action", legend=kind_legend,
                        scale=alt.Scale(domain=list(kinds), range=[KIND_SHAPES.get(k, "circle") for k in kinds])),
        opacity=alt.Opacity("status:O", title="status", sort=statuses, legend=status_legend,
                            scale=alt.Scale(domain=statuses, range=[s[1] for s in styles])),
        tooltip=tooltip,
    ).transform_filter("datum.mark == 'point'").properties(name="points")
    ruins = alt.Chart(actions).mark_point(shape="cross", size=230, filled=True, color="#7b241c", angle=45).encode(
        x=alt.X("end:Q", scale=x_scale), y=y, tooltip=tooltip,
    ).transform_filter(f"datum.status == '{Status.RUINED.value}'").properties(name="ruins")
    labels = alt.Chart(actions).mark_text(align="left", baseline="middle", dx=_LABEL_DX, fontSize=10,
                                          color="#17202a").encode(
        x=alt.X("label_x:Q", scale=x_scale), y=y, text="label:N", tooltip=tooltip,
    ).properties(name="labels")
    return alt.layer(bands, *band_labels, bars, points, ruins, labels).properties(
        width=WIDTH,
        height=alt.Step(LANE_STEP) if has_lanes else 40,
        title=alt.Title(title or "Who acts when", anchor="start", offset=30, fontSize=15,
                        subtitle=f"{unit}s 1-{clock.ticks} across, grouped in {len(clock.periods)} periods; "
                                 + ("winner track first; " if has_tracks else "")
                                 + "hover a mark for why and the rule"),
        datasets=datasets,
    ).configure_view(stroke=None).configure_legend(labelFontSize=11, titleFontSize=11)


def _shape_of(frame: pd.DataFrame, clock: Clock, title: str | None) -> tuple[Hashable, ...]:
    """Everything besides the rows that the spec depends on."""
    has_tracks = bool((frame["track"] != "").any())
    return clock, title, _kinds(frame), _last_tick(clock, frame["end"].tolist()), not frame.empty, has_tracks


def _datasets(frame: pd.DataFrame, clock: Clock) -> dict[str, list[dict[str, Any]]]:
    last_tick = _last_tick(clock, frame["end"].tolist())
    return {"actions": frame.to_dict("records"), "periods": _period_records(clock, last_tick)}


def timeline_chart(frame: pd.DataFrame, clock: Clock, title: str | None = None) -> alt.LayerChart:
    """A Gantt chart of ``frame`` (from :func:`timeline_frame`) on ``clock``.

    Layers, bottom to top (each named, so its SVG group is ``g.<name>_marks``): shaded
    period bands (``periods``), labelled above the plot (``period_labels_0``/``_1``); bars for
    actions that take time (``bars``: casting from its start to its release, misc,
    ready, hold); ``points`` for instants (a diamond where a blow lands, an arrowhead
    where a move ends); a cross where a spell was ruined (``ruins``); a text label
    beside every action (``labels``).
    Colour is the action kind; a faded fill and a dashed outline mark a ruined or
    cancelled action; each lane's label names the combatant's side and initiative
    track. Every action mark has a tooltip with the action, who, when, status, the
    plain-language why and the rule cited.
    """
    return _chart(*_shape_of(frame, clock, title), datasets=_datasets(frame, clock))


@lru_cache(maxsize=64)
def _spec_without_rows(shape: tuple[Hashable, ...]) -> dict[str, Any]:
    spec = _chart(*shape, datasets={"actions": [], "periods": []}).to_dict()
    del spec["datasets"]
    return spec


def timeline_spec(frame: pd.DataFrame, clock: Clock, title: str | None = None) -> dict[str, Any]:
    """``timeline_chart(frame, clock, title).to_dict()``, fast: the spec without its rows is
    built and validated once per clock, title, set of kinds and axis length, then reused."""
    spec = copy.deepcopy(_spec_without_rows(_shape_of(frame, clock, title)))
    spec["datasets"] = _datasets(frame, clock)
    return spec
