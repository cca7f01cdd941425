"""A round as a Gantt chart: combatants down, the system's clock across, one mark per action.

:func:`timeline_frame` turns a :class:`~combatkit.Timeline` into long-form rows (one per
span, plus the columns a chart needs); :func:`timeline_chart` draws those rows on any
:class:`~combatkit.Clock`, so the 20 half-segments of Phase System I (000 Table 1), a
10-segment round or five phases plus last actions all use the same code: the axis
title is the clock's unit with its note (``clock.unit_words``), the axis runs over
``clock.ticks`` and the shaded bands are ``clock.periods``. Both are pure functions, of
typed fields only: a span's short form is its own (:attr:`~combatkit.Span.what`), a band is
read from its periods' parts (:class:`~combatkit.timeline.Period`), never cut out of words.

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

from combatkit.timeline import Clock, Period, Span, SpanKind, Status, Timeline, Track

__all__ = [
    "ACTIVE",
    "DIMMED",
    "band_records",
    "DURATIVE_KINDS",
    "KIND_COLOURS",
    "KIND_SHAPES",
    "STATUS_STYLE",
    "TRACK_ORDER",
    "fitted_text",
    "label_placement",
    "merged_periods",
    "overlays",
    "placeholder_chart",
    "steps_words",
    "text_px",
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
    Status.DONE.value: (0.7, 1.0, [1, 0]),
    Status.RUINED.value: (0.22, 0.4, [5, 3]),
    Status.CANCELLED.value: (0.08, 0.2, [2, 2]),
}
"""Status -> (bar fill opacity, point opacity, bar outline dash): ruined is faded and dashed,
cancelled more so. A bar that was done keeps its kind's colour close to its legend's, and light enough
for a dark label to read on top."""

TRACK_ORDER = (Track.WINNER, Track.LOSER, None)
"""Lanes list the winner track first, as Table 1 reads its winner columns first (000 Table 1)."""

LAYOUT_WIDTH = 900
"""The plot width, in pixels, that period labels are laid out for (one line or two): the chart itself
fills its container (``width="container"``), and each label's text is chosen in the page for the width
it gets."""
LANE_STEP = 34
"""Pixels per combatant lane."""
_LABEL_PAD = 4  # pixels between a bar's edge (or a point's edge) and its label
_POINT_HALF = 8  # half a point mark's width, in pixels
_SPAN_COLUMNS = ("actor", "side", "kind", "action", "start", "end", "period", "rule", "why", "track", "target",
                 "status", "placed")
_CHART_COLUMNS = ("lane", "lane_order", "x0", "x1", "mark", "when", "label", "short", "label_px", "short_px",
                  "room_in", "room_after", "after_x")
COLUMNS = _SPAN_COLUMNS + _CHART_COLUMNS
"""Columns of :func:`timeline_frame`: a span's fields, then the chart's."""

ACTIVE = "tick > 0 && datum.start <= tick && tick <= datum.end"
"""Vega expression: the mark is acting at the cursor's tick (the chart's ``tick`` parameter)."""
DIMMED = "tick > 0 && !(datum.start <= tick && tick <= datum.end)"
"""Vega expression: the cursor is on, and the mark is not acting at its tick."""


def _last_tick(clock: Clock, ends: list[int]) -> int:
    """The axis runs to the clock's last tick, or further when an action spills into the next round."""
    return max([clock.ticks, *ends])


def text_px(text: str, size: float = 10, bold: bool = False) -> float:
    """About how many pixels ``text`` takes in the charts' sans-serif font, a little more rather than less
    (measured in chromium: 4.2-5.1 px a character at 10 px, 8.9 for capitals like M and W).

    >>> round(text_px("short bow -> Mira")), round(text_px("RUINED"))
    (79, 39)
    """
    wide, narrow = "MWmw@%", "ijlftrI.,:;'!|()[] -"
    units = sum(0.95 if c in wide else 0.3 if c in narrow else 0.72 if c.isupper() or c.isdigit() else 0.52
                for c in text)
    return units * size * (1.08 if bold else 1.0)


def _labels(span: Span) -> tuple[str, str]:
    """What is written beside a span's mark: its action, and a shorter way to say it where that has no room (what
    it is, :attr:`~combatkit.Span.short`: without its target or notes; the tooltip has it all), each with its
    status when it was not done."""
    if span.status is Status.DONE:
        return span.action, span.short
    status = span.status.value.upper()
    return f"{span.action}: {status}", f"{span.short}: {status}"


def timeline_frame(timeline: Timeline) -> pd.DataFrame:
    """One row per span: the span's own fields (``track`` and ``target`` as ``""`` when
    absent), then the columns :func:`timeline_chart` draws:

    ``lane``
        the y label, ``"Mira (party, winner)"``; a figure whose track changes in the course of the
        round (Phase System II rolls again at every phase A) is ``"Grulk (ogre)"``, and each of its
        labels names the track of that action;
    ``lane_order``
        lanes top to bottom: winner track, loser track, no track; then side, then first action;
    ``x0``, ``x1``
        the edges of the action's cells (half a tick either side of ``start`` and ``end``);
    ``mark``
        ``"bar"`` for actions that take time, ``"point"`` for instants (a blow, the end of a move);
    ``when``
        the clock's words for when it happens;
    ``label``, ``short``, ``label_px``, ``short_px``
        the text written beside the mark (with the status when not done), a shorter one
        (:attr:`Span.short <combatkit.Span.short>`), and about how many pixels each takes;
    ``room_in``, ``room_after``, ``after_x``
        the room for a label inside a bar (ticks), after the mark up to the next mark in its lane or the
        axis end (ticks), and where "after" starts. The chart picks, for the width it is drawn at, the
        full label inside the bar or after the mark, else the short one, else none: a label is never cut,
        and never runs into the next mark (the tooltip always has everything).
    """
    clock = timeline.clock
    spans = timeline.spans
    if not spans:
        return pd.DataFrame({name: pd.Series(dtype="object") for name in COLUMNS})
    sides = list(dict.fromkeys(s.side for s in spans))
    tracks: dict[str, set] = {}
    for s in spans:
        tracks.setdefault(s.actor, set()).add(s.track)
    lane_of: dict[str, tuple[int, int, int, str]] = {}
    for i, s in enumerate(spans):
        if s.actor not in lane_of:
            steady = len(tracks[s.actor]) == 1
            name = f"{s.actor} ({s.side}, {s.track.value})" if s.track and steady else f"{s.actor} ({s.side})"
            lane_of[s.actor] = (TRACK_ORDER.index(s.track), sides.index(s.side), i, name)
    order = {actor: n for n, actor in enumerate(sorted(lane_of, key=lambda a: lane_of[a][:3]))}
    rows: list[dict[str, Any]] = []
    for s in spans:
        row = s.row()
        row["track"] = row["track"] or ""
        row["target"] = s.target or ""
        bar = s.kind in DURATIVE_KINDS or s.end > s.start
        label, short = _labels(s)
        if s.track and len(tracks[s.actor]) > 1:  # the track changes in this lane: each label says its own
            label, short = f"{label} · {s.track.value}", f"{short} · {s.track.value}"
        row.update(
            lane=lane_of[s.actor][3],
            lane_order=order[s.actor],
            x0=s.start - 0.5,
            x1=s.end + 0.5,
            mark="bar" if bar else "point",
            when=clock.describe(s.end) if s.start == s.end else f"{clock.describe(s.start)} to {clock.describe(s.end)}",
            label=label,
            short=short,
            label_px=round(text_px(label), 1),
            short_px=round(text_px(short), 1),
            room_in=(s.end - s.start + 1) if bar else 0,
            after_x=s.end + 0.5 if bar else s.end,
        )
        rows.append(row)
    rows.sort(key=lambda r: (r["lane_order"], r["x0"], r["x1"]))
    last = _last_tick(clock, [s.end for s in spans])
    for row, after in zip(rows, [*rows[1:], None], strict=True):
        if after is not None and after["lane_order"] == row["lane_order"]:
            edge = after["x0"] if after["mark"] == "bar" else after["end"] - 0.5  # a point: half a tick's room
        else:
            edge = last + 0.5
        row["room_after"] = max(0.0, edge - row["after_x"])
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _band_short(band: Period, shared: str) -> str:
    """A band's shorter name: its number where its neighbours share its name (``"phase 1"`` -> ``"1"``), else
    its name (``"last actions"``)."""
    return band.number if band.number and band.name == shared else band.name


def merged_periods(clock: Clock) -> list[Period]:
    """The clock's bands: consecutive periods of one band, the steps of one phase (``"phase 2: movement"``,
    ``"phase 2: melee"``), make one period, ``"phase 2"``, without a step."""
    bands: list[Period] = []
    for p in clock.periods:
        if bands and bands[-1].band == p.band and bands[-1].end == p.start - 1:
            bands[-1] = Period(p.name, bands[-1].start, p.end, p.number)
        else:
            bands.append(Period(p.name, p.start, p.end, p.number))
    return bands


def steps_words(clock: Clock) -> str:
    """What the steps inside a merged band are (``"each phase: delays & distractions, movement, missiles &
    magic, melee; morale: rally, checks, record keeping"``), or ``""`` when no period has steps."""
    steps: dict[str, list[str]] = {}
    name: dict[str, str] = {}
    for p in clock.periods:
        if p.step:
            steps.setdefault(p.band, []).append(p.step)
            name[p.band] = p.name
    said: dict[tuple[str, ...], list[str]] = {}
    for band, named in steps.items():
        said.setdefault(tuple(named), []).append(band)
    parts = []
    for named, bands in said.items():
        who = f"each {name[bands[0]]}" if len(bands) > 1 else bands[0]
        parts.append(f"{who}: {', '.join(named)}")
    return "; ".join(parts)


def band_records(bands: list[Period], clock: Clock, last_tick: int, width: float, char_px: float,
                 slack: float) -> list[dict[str, Any]]:
    """One row per band (:func:`merged_periods`; and one for the next round when ``last_tick`` runs past the
    clock), laid out for a plot ``width`` pixels wide with ``char_px`` pixels a character. A label too
    wide for its band spreads over what its neighbours' labels leave free; if that is still too little it
    goes on the upper line (``level`` 1, never two neighbours there), where it may take half of each
    neighbour. ``room`` is how many ticks it may take; the chart writes the label, else its ``short``
    name (its number, where its neighbours share its name), else nothing, whichever fits the width it is drawn
    at (the band's tooltip has the full name). Past either end of the plot a label may take ``slack`` pixels."""
    tick_px = width / last_tick
    if last_tick > clock.ticks:
        bands = [*bands, Period("next round", clock.ticks + 1, last_tick)]
    numbered = [b.name for b in bands if b.number]
    shared = max(dict.fromkeys(numbered), key=numbered.count) if len(set(numbered)) < len(numbered) else ""
    widths = [b.end - b.start + 1 for b in bands]
    needs = [len(b.label) * char_px / tick_px for b in bands]
    spare = [max(0.0, (w - need) / 2) for w, need in zip(widths, needs, strict=True)]
    end_slack = slack / tick_px
    out = []
    for i, band in enumerate(bands):
        label, start, end = band.label, band.start, band.end
        room, level = widths[i], 0
        if needs[i] > room:
            spread = room + 2 * min(spare[j] if 0 <= j < len(bands) else end_slack for j in (i - 1, i + 1))
            upper = room + sum(widths[j] / 2 if 0 <= j < len(bands) else end_slack for j in (i - 1, i + 1))
            if needs[i] <= spread or (out and out[-1]["level"] == 1):
                room = spread
            else:
                room, level = upper, 1
        spill = start > clock.ticks
        first, last = (start - clock.ticks, end - clock.ticks) if spill else (start, end)
        covers = f"{clock.unit}s {first}-{last}" if last > first else f"{clock.unit} {first}"
        short = _band_short(band, shared)
        out.append({
            "label": label, "short": short, "label_px": round(len(label) * char_px, 1),
            "short_px": round(len(short) * char_px, 1), "room": round(room, 3), "x0": start - 0.5,
            "x1": end + 0.5, "mid": (start + end) / 2, "shade": 2 if spill else i % 2, "level": level,
            "covers": covers + (" of the next round" if spill else ""),
        })
    return out


_PERIOD_CHAR_PX = 6.2  # a character of the 11 px bold period labels, a little more rather than less


def _period_records(clock: Clock, last_tick: int) -> list[dict[str, Any]]:
    """The shaded bands: one per period, except that periods that are steps of one phase
    (``"phase 2: movement"``...) make one band, ``"phase 2"``, whose steps the subtitle names."""
    return band_records(merged_periods(clock), clock, last_tick, LAYOUT_WIDTH, _PERIOD_CHAR_PX, 60)


def fitted_text(room: str, x_count: int) -> str:
    """Vega expression: the band label that fits ``room`` ticks at the width drawn, else its short name,
    else nothing (``x_count``: ticks on the axis)."""
    px = f"({room}) * width / {x_count}"
    return (f"datum.label_px <= {px} ? datum.label : datum.short_px <= {px} ? datum.short : ''")


def overlays(actions: alt.Data, x_scale: alt.Scale, y: Any, tooltip: list, last_tick: int, *, cross: int,
             font: int) -> tuple[alt.Chart, alt.Chart, alt.Chart]:
    """The layers drawn over a timeline's bars: a cross on each ruined action (``cross``: its size), each
    action's label where it fits (``font``: its size, :func:`label_placement`) and the step-through cursor
    at the ``tick`` parameter."""
    ruins = alt.Chart(actions).mark_point(shape="cross", size=cross, filled=True, color="#7b241c", angle=45).encode(
        x=alt.X("end:Q", scale=x_scale), y=y, tooltip=tooltip,
    ).transform_filter(f"datum.status == '{Status.RUINED.value}'").properties(name="ruins")
    labels = alt.Chart(actions).mark_text(align="left", baseline="middle", fontSize=font, color="#17202a").encode(
        x=alt.X("label_at:Q", scale=x_scale), y=y, text=alt.Text("label_text:N"), tooltip=tooltip,
        opacity=alt.OpacityValue(1, condition={"test": DIMMED, "value": 0.25}),
    ).transform_calculate(**label_placement(last_tick)).transform_filter("datum.label_text != ''").properties(
        name="labels")
    cursor = alt.Chart(alt.InlineData(values=[{"cursor": 0}])).mark_rule(color="#b03a2e", strokeWidth=2).encode(
        x=alt.X("at:Q", scale=x_scale),
    ).transform_calculate(at="tick").transform_filter("tick > 0").properties(name="cursor")
    return ruins, labels, cursor


def label_placement(x_count: int, *, inside: bool = True) -> dict[str, str]:
    """Vega expressions placing each action's label for the width drawn (``x_count`` ticks on the axis):
    the full label inside its bar (``inside``), else after the mark, else the short label inside, else after,
    else none; ``label_text``, ``label_at`` (in ticks) and ``label_colour``."""
    ppt = f"(width / {x_count})"
    room_in = f"(datum.mark == 'bar' ? datum.room_in * {ppt} - {2 * _LABEL_PAD} : -1)" if inside else "-1"
    room_after = f"(datum.room_after * {ppt} - (datum.mark == 'bar' ? {2 * _LABEL_PAD} : {_POINT_HALF + 2 * _LABEL_PAD}))"
    place = (f"datum.label_px <= {room_in} ? 'in' : datum.label_px <= {room_after} ? 'after' : "
             f"datum.short_px <= {room_in} ? 'in-short' : datum.short_px <= {room_after} ? 'after-short' : ''")
    pad_after = f"(datum.mark == 'bar' ? {_LABEL_PAD} : {_POINT_HALF + _LABEL_PAD})"
    return {
        "label_place": place,
        "label_text": "datum.label_place == '' ? '' : indexof(datum.label_place, 'short') >= 0 ? datum.short "
                      ": datum.label",
        "label_at": f"indexof(datum.label_place, 'in') == 0 ? datum.x0 + {_LABEL_PAD} / {ppt} "
                    f": datum.after_x + {pad_after} / {ppt}",
    }


def _kinds(frame: pd.DataFrame) -> tuple[str, ...]:
    """The kinds the colour and shape scales know: every Phase System I kind, so the legend and the
    colours stay put as actions come and go, then any other kind present (other systems)."""
    return tuple(k.value for k in KIND_COLOURS) + tuple(sorted(set(frame["kind"]) - set(KIND_COLOURS)))


# How the timeline charts are built, for speed (a chart of a new shape is built while its user waits: a comparison
# builds six for each example it has not drawn yet). Every channel is given as its class (alt.X2("x1"),
# alt.Text(...), alt.YValue(...), alt.StrokeWidthValue(..., condition=...)), never as shorthand text or a dict,
# which altair resolves to a class by searching and validating against Vega-Lite's schema; and the layer chart is
# made in one call with its params, properties and config: alt.layer(...).add_params(...).properties(...)
# .configure_*(...) copies every layer again at each step. The same specs, built faster: a timeline chart and its
# validated spec 294 -> 128 ms, a comparison panel's spec 232 -> 58 ms (mean of the shipped examples' 84 rounds).
def _chart(clock: Clock, title: str | None, kinds: tuple[str, ...], last_tick: int, lanes: int,
           has_tracks: bool | str, datasets: dict[str, Any]) -> alt.LayerChart:
    unit = clock.unit
    x_scale = alt.Scale(domain=[0.5, last_tick + 0.5], nice=False, zero=False)
    x_axis = alt.Axis(title=clock.unit_words, values=list(range(1, last_tick + 1)), format="d", grid=False,
                      labelOverlap=True, tickCount=last_tick)
    y = alt.Y("lane:N", sort=alt.EncodingSortField("lane_order", op="min"), title=None,
              axis=alt.Axis(labelLimit=0, labelFontSize=12, ticks=False, domain=False, labelPadding=8))
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
        alt.Tooltip("placed:N", title="the intent behind it"),
    ]
    actions = alt.Data(name="actions")
    periods = alt.Data(name="periods")
    tick = alt.param(name="tick", value=0)
    outline = alt.StrokeWidthValue(1.2, condition={"test": ACTIVE, "value": 3.2})

    bands = alt.Chart(periods).mark_rect().encode(
        x=alt.X("x0:Q", scale=x_scale, axis=x_axis),
        x2=alt.X2("x1"),
        fill=alt.Fill("shade:O", scale=alt.Scale(domain=[0, 1, 2], range=["#f4f6f7", "#e5e8e8", "#fdf2e9"]),
                      legend=None),
        tooltip=[alt.Tooltip("label:N", title="period"), alt.Tooltip("covers:N", title="covers")],
    ).properties(name="periods")
    band_labels = [
        alt.Chart(periods).mark_text(baseline="bottom", fontSize=11, fontWeight="bold", color="#4d5656")
        .encode(x=alt.X("mid:Q", scale=x_scale), y=alt.YValue(-4 - 14 * level), text=alt.Text("text:N"))
        .transform_filter(f"datum.level == {level}")
        .transform_calculate(text=fitted_text("datum.room", last_tick))
        .properties(name=f"period_labels_{level}")
        for level in (0, 1)
    ]
    bars = alt.Chart(actions).mark_bar(height={"band": 0.56}, cornerRadius=3, stroke="#1c2833").encode(
        x=alt.X("x0:Q", scale=x_scale),
        x2=alt.X2("x1"),
        y=y,
        color=kind_colour,
        strokeDash=alt.StrokeDash("status:O", title="status", sort=statuses, legend=status_legend,
                                  scale=alt.Scale(domain=statuses, range=[s[2] for s in styles])),
        fillOpacity=alt.condition(DIMMED, alt.value(0.1), alt.FillOpacity(
            "status:O", title="status", sort=statuses, legend=status_legend,
            scale=alt.Scale(domain=statuses, range=[s[0] for s in styles]))),
        strokeWidth=outline,
        tooltip=tooltip,
    ).transform_filter("datum.mark == 'bar'").properties(name="bars")
    points = alt.Chart(actions).mark_point(filled=True, size=190, stroke="#1c2833").encode(
        x=alt.X("end:Q", scale=x_scale),
        y=y,
        color=kind_colour,
        shape=alt.Shape("kind:N", title="action", legend=kind_legend,
                        scale=alt.Scale(domain=list(kinds), range=[KIND_SHAPES.get(k, "circle") for k in kinds])),
        opacity=alt.condition(DIMMED, alt.value(0.15), alt.Opacity(
            "status:O", title="status", sort=statuses, legend=status_legend,
            scale=alt.Scale(domain=statuses, range=[s[1] for s in styles]))),
        strokeWidth=alt.StrokeWidthValue(1, condition={"test": ACTIVE, "value": 3}),
        tooltip=tooltip,
    ).transform_filter("datum.mark == 'point'").properties(name="points")
    ruins, labels, cursor = overlays(actions, x_scale, y, tooltip, last_tick, cross=230, font=10)
    steps = steps_words(clock)
    return alt.LayerChart(
        layer=[bands, *band_labels, bars, points, ruins, labels, cursor],
        params=[tick.param],
        width="container",
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        height=LANE_STEP * lanes if lanes else 40,  # a number, not a step: "fit-x" then sizes only the width
        title=alt.Title(title or "Who acts when", anchor="start", offset=30, fontSize=15,
                        subtitle=f"{unit}s 1-{clock.ticks} across, grouped in {len(merged_periods(clock))} periods"
                                 + (f" ({steps})" if steps else "") + "; "
                                 + ("winner track first; " if has_tracks else "")
                                 + ("a figure whose track changes has it in each label; " if has_tracks == "changing"
                                    else "")
                                 + "hover a mark for why and the rule"),
        datasets=datasets,
        config=alt.Config(view=alt.ViewConfig(stroke=None),
                          legend=alt.LegendConfig(labelFontSize=11, titleFontSize=11)),
    )


def _shape_of(frame: pd.DataFrame, clock: Clock, title: str | None) -> tuple[Hashable, ...]:
    """Everything besides the rows that the spec depends on."""
    has_tracks = bool((frame["track"] != "").any())
    if has_tracks and (frame.groupby("actor")["track"].nunique() > 1).any():
        has_tracks = "changing"  # a figure changes track in the course of the round (Phase System II's cycles)
    lanes = frame["lane"].nunique() if not frame.empty else 0
    return clock, title, _kinds(frame), _last_tick(clock, frame["end"].tolist()), lanes, has_tracks


def _datasets(frame: pd.DataFrame, clock: Clock) -> dict[str, list[dict[str, Any]]]:
    last_tick = _last_tick(clock, frame["end"].tolist())
    return {"actions": frame.to_dict("records"), "periods": _period_records(clock, last_tick)}


def timeline_chart(frame: pd.DataFrame, clock: Clock, title: str | None = None, tick: int = 0) -> alt.LayerChart:
    """A Gantt chart of ``frame`` (from :func:`timeline_frame`) on ``clock``, as wide as its container.

    Layers, bottom to top (each named, so its SVG group is ``g.<name>_marks``): shaded
    period bands (``periods``; steps of one phase, as five-phase rounds have, make one band and
    the subtitle names them), labelled above the plot (``period_labels_0``/``_1``); bars for
    actions that take time (``bars``: casting from its start to its release, misc,
    ready, hold); ``points`` for instants (a diamond where a blow lands, an arrowhead
    where a move ends); a cross where a spell was ruined (``ruins``); a text label
    beside every action that has room for one (``labels``: the full label inside its bar or after
    its mark, else a shorter one, never cut); and the ``cursor``, a rule at the chart's ``tick``
    parameter (0: none; see :mod:`combatkit.widgets.views.player`), where the marks acting at that tick are
    outlined and the others dimmed.
    Colour is the action kind; a faded fill and a dashed outline mark a ruined or
    cancelled action; each lane's label names the combatant's side and initiative
    track. Every action mark has a tooltip with the action, who, when, status, the
    plain-language why and the rule cited.
    """
    chart = _chart(*_shape_of(frame, clock, title), datasets=_datasets(frame, clock))
    if tick:
        chart.params[0].value = tick
    return chart


def placeholder_chart() -> alt.Chart:
    """What a timeline's chart view (``chart_view``) is made with before its first spec (:func:`timeline_spec`,
    or a compare panel's) replaces the one it makes: nothing drawn, and the ``tick`` parameter every timeline has,
    which the view wires up from the chart it is made with (the step-through cursor sets it). Building a whole
    timeline chart only for the view to validate it again took most of the time a timeline widget or a comparison
    took to open: 0.1-0.2 s a chart."""
    return alt.Chart(alt.Data(values=[])).mark_point().add_params(alt.param(name="tick", value=0))


@lru_cache(maxsize=64)
def _spec_without_rows(shape: tuple[Hashable, ...]) -> dict[str, Any]:
    spec = _chart(*shape, datasets={"actions": [], "periods": []}).to_dict()
    for name in ("actions", "periods"):  # the rows; the cursor's own one-row dataset stays
        del spec["datasets"][name]
    return spec


def timeline_spec(frame: pd.DataFrame, clock: Clock, title: str | None = None, tick: int = 0) -> dict[str, Any]:
    """``timeline_chart(frame, clock, title, tick).to_dict()``, fast: the spec without its rows is
    built and validated once per clock, title, set of kinds and axis length, then reused."""
    spec = copy.deepcopy(_spec_without_rows(_shape_of(frame, clock, title)))
    spec["datasets"].update(_datasets(frame, clock))
    spec["params"][0]["value"] = tick
    return spec
