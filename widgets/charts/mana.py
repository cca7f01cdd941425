"""Charts of the mana engine (000 §5): pure functions of long-form frames.

* :func:`base_mana_frame` / :func:`base_mana_chart`: a class's base mana by level, the
  seed's printed table beside the rule it states (one point per spell level per spell),
  with the caster's level marked. The two lines part for rangers and paladins, whose
  printed column is the PH casting level.
* :func:`plan_frame`, :func:`plan_blocks_frame` / :func:`day_plan_chart`: a day played by
  :func:`~combatkit.mana.plan_day`: each pool's level over time as a step line, with
  rests, the time awake inside them and study shaded behind it, and a red rule wherever
  the recovery rules blocked something (hover it for the reason and the rule).

>>> from combatkit.mana import CasterClass
>>> frame = base_mana_frame(CasterClass.PALADIN, 20)
>>> frame.query("level == 20")[["source", "points"]].to_dict("records")
[{'source': 'printed table', 'points': 9}, {'source': 'stated rule', 'points': 30}]
>>> spec = base_mana_chart(frame).to_dict()
>>> [layer["name"] for layer in spec["layer"]]
['lines', 'points', 'selected', 'selected_label']
"""

from __future__ import annotations

from collections.abc import Iterable

import altair as alt
import pandas as pd

from combatkit.mana import (
    MAX_CASTER_LEVEL,
    Cast,
    CasterClass,
    DayPlan,
    PlanEvent,
    Rest,
    Study,
    base_mana_comparison,
    ordinal,
)

__all__ = [
    "BASE_COLUMNS",
    "BLOCK_COLOURS",
    "BLOCK_COLUMNS",
    "PLAN_COLUMNS",
    "SOURCES",
    "base_mana_chart",
    "base_mana_frame",
    "clock",
    "day_plan_chart",
    "plan_blocks_frame",
    "plan_frame",
]

SOURCES: dict[str, str] = {"printed table": "#2471a3", "stated rule": "#d35400"}
"""The two readings of 000 §5's base mana, and their colours."""
BASE_COLUMNS = ("caster_class", "level", "source", "points", "printed_text", "computed", "casting_level", "agrees",
                "selected")
"""Columns of :func:`base_mana_frame`."""
PLAN_COLUMNS = ("minute", "hour", "when", "pool", "available", "maximum", "points", "cause")
"""Columns of :func:`plan_frame`."""
BLOCK_COLUMNS = ("kind", "start", "end", "when", "label", "rule")
"""Columns of :func:`plan_blocks_frame`; ``start`` and ``end`` are hours from the plan's start."""
BLOCK_COLOURS: dict[str, str] = {"asleep": "#d6eaf8", "awake": "#fad7a0", "study": "#d5f5e3"}
"""Shading behind the day plan: sleep, time awake inside a rest, study."""
WIDTH = 560
"""Plot width in pixels."""


def clock(minute: int) -> str:
    """Minutes from the plan's start as hours:minutes, the way the planner's fields take them.

    >>> clock(0), clock(95), clock(1620)
    ('0:00', '1:35', '27:00')
    """
    hours, minutes = divmod(minute, 60)
    return f"{hours}:{minutes:02d}"


# ---------------------------------------------------------------- base mana by level


def base_mana_frame(caster_class: CasterClass, level: int | None = None) -> pd.DataFrame:
    """Two rows per level 1..20 of 000 §5's base-mana table for ``caster_class``: the
    ``"printed table"`` (``--`` drawn as 0 points) and the ``"stated rule"`` over the PH
    progression. ``selected`` marks ``level``'s rows (none when ``level`` is None or off the table)."""
    rows = []
    for row in base_mana_comparison(caster_class):
        for source, points in (("printed table", row.printed or 0), ("stated rule", row.computed)):
            rows.append({
                "caster_class": caster_class.value, "level": row.level, "source": source, "points": points,
                "printed_text": row.printed_text, "computed": row.computed,
                "casting_level": "" if row.casting_level is None else str(row.casting_level),
                "agrees": row.agrees, "selected": row.level == level,
            })
    return pd.DataFrame(rows, columns=list(BASE_COLUMNS))


def base_mana_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Base mana by caster level (from :func:`base_mana_frame`): one line per source, the
    printed table solid and the stated rule dashed on top, so both show where they agree;
    a grey rule at the selected level. Layers: ``lines``, ``points`` (with tooltips),
    ``selected``, ``selected_label``."""
    caster_class = frame["caster_class"].iloc[0] if len(frame) else ""
    differ = int((~frame["agrees"]).sum() // 2)
    subtitle = ("000 §5's printed table and its rule (one point per spell level per spell) "
                + (f"differ at {differ} of {MAX_CASTER_LEVEL} levels" if differ else "agree at every level"))
    x = alt.X("level:Q", title="caster level",
              scale=alt.Scale(domain=[1, MAX_CASTER_LEVEL], nice=False),
              axis=alt.Axis(values=list(range(1, MAX_CASTER_LEVEL + 1)), format="d", grid=False))
    y = alt.Y("points:Q", title="base mana (points)")
    colour = alt.Color("source:N", title=None, legend=alt.Legend(orient="top-left"),
                       scale=alt.Scale(domain=list(SOURCES), range=list(SOURCES.values())))
    tooltip = [
        alt.Tooltip("level:Q", title="level"),
        alt.Tooltip("printed_text:N", title="printed"),
        alt.Tooltip("computed:Q", title="stated rule"),
        alt.Tooltip("casting_level:N", title="PH casting level"),
    ]
    base = alt.Chart(frame)
    lines = base.mark_line(strokeWidth=2.5).encode(
        x=x, y=y, color=colour,
        strokeDash=alt.StrokeDash("source:N", legend=None,
                                  scale=alt.Scale(domain=list(SOURCES), range=[[1, 0], [6, 3]])),
    ).properties(name="lines")
    points = base.mark_point(filled=True, size=40).encode(x=x, y=y, color=colour, tooltip=tooltip).properties(
        name="points")
    chosen = base.transform_filter("datum.selected && datum.source == 'printed table'")
    selected = chosen.mark_rule(color="#7f8c8d", strokeWidth=1.5).encode(x=x).properties(name="selected")
    label = chosen.mark_text(align="left", dx=4, dy=-6, color="#4d5656", fontWeight="bold").encode(
        x=x, y=alt.value(0), text=alt.Text("level:Q", format="d"),
    ).properties(name="selected_label")
    return alt.layer(lines, points, selected, label).properties(
        width=WIDTH, height=200,
        title=alt.Title(f"Base mana by level: {caster_class}", anchor="start", fontSize=14, subtitle=subtitle),
    )


# ---------------------------------------------------------------- a day of casting and rest


def plan_frame(plan: DayPlan) -> pd.DataFrame:
    """One row per :class:`~combatkit.mana.PoolSample` of ``plan``: a pool's level from that minute on,
    and what changed it."""
    rows = [{
        "minute": s.minute, "hour": s.minute / 60, "when": clock(s.minute), "pool": s.pool,
        "available": s.available, "maximum": s.maximum, "points": s.points, "cause": s.cause,
    } for s in plan.samples]
    return pd.DataFrame(rows, columns=list(PLAN_COLUMNS))


def plan_blocks_frame(events: Iterable[PlanEvent], plan: DayPlan) -> pd.DataFrame:
    """What to draw behind and over the pools: one row per span of sleep (``"asleep"``),
    time awake inside a rest (``"awake"``) and study (``"study"``), then one per cast
    (``"cast"``) and per note of ``plan`` (``"blocked"``: a recovery the rules stopped)."""
    rows = []

    def add(kind: str, start: int, end: int, label: str, rule: str = "") -> None:
        when = clock(start) if start == end else f"{clock(start)}-{clock(end)}"
        rows.append({"kind": kind, "start": start / 60, "end": end / 60, "when": when, "label": label, "rule": rule})

    for event in sorted(events, key=lambda e: e.minute if isinstance(e, Cast) else e.start):
        if isinstance(event, Rest):
            since = event.start
            for awake_from, awake_to in event.interruptions:
                if awake_from > since:
                    add("asleep", since, awake_from, "asleep")
                add("awake", awake_from, awake_to, "awake during the rest: does not count as sleep")
                since = awake_to
            if event.end > since:
                add("asleep", since, event.end, "asleep")
        elif isinstance(event, Study):
            order = ", ".join(event.order) if event.order else "every pool, in order"
            add("study", event.start, event.end, f"study ({order})")
        else:
            specialty = "specialty " if event.specialty else ""
            add("cast", event.minute, event.minute, f"casts a {ordinal(event.spell_level)}-level {specialty}spell")
    for note in plan.notes:
        add("blocked", note.minute, note.minute, note.text, note.rule)
    return pd.DataFrame(rows, columns=list(BLOCK_COLUMNS))


def day_plan_chart(samples: pd.DataFrame, blocks: pd.DataFrame) -> alt.LayerChart:
    """The pools over a day (``samples`` from :func:`plan_frame`, ``blocks`` from
    :func:`plan_blocks_frame`), hours from the plan's start across.

    Layers, bottom to top: ``shading`` (sleep, time awake inside a rest, study), ``pools``
    (each pool's available points, boxes or slots as a step line), ``changes`` (a point at
    each change, hover for its cause), ``casts`` (a tick along the top of the plot), and
    ``blocked`` (a red rule where a recovery was blocked, with the reason and the rule).
    """
    last = max([1.0, *samples["hour"].tolist(), *blocks["end"].tolist()])
    x_scale = alt.Scale(domain=[0, last], nice=False, zero=True)
    x_axis = alt.Axis(title="hours from the start of the plan", tickMinStep=1, grid=False)
    top = max([1, *samples["maximum"].tolist()])
    y_scale = alt.Scale(domain=[0, top], nice=False)
    shaded = blocks[blocks["kind"].isin(list(BLOCK_COLOURS))]
    instants = blocks[~blocks["kind"].isin(list(BLOCK_COLOURS))]
    shading = alt.Chart(shaded).mark_rect(opacity=0.8).encode(
        x=alt.X("start:Q", scale=x_scale, axis=x_axis),
        x2="end:Q",
        fill=alt.Fill("kind:N", title="shaded",
                      scale=alt.Scale(domain=list(BLOCK_COLOURS), range=list(BLOCK_COLOURS.values())),
                      legend=alt.Legend(orient="bottom", direction="horizontal")),
        tooltip=[alt.Tooltip("label:N", title="what"), alt.Tooltip("when:N", title="when")],
    ).properties(name="shading")
    pool_colour = alt.Color("pool:N", title="pool", legend=alt.Legend(orient="bottom", direction="horizontal"))
    x = alt.X("hour:Q", scale=x_scale, axis=x_axis)
    y = alt.Y("available:Q", scale=y_scale, title="available (points, boxes or slots)")
    lines = alt.Chart(samples).mark_line(interpolate="step-after", strokeWidth=2.5).encode(
        x=x, y=y, color=pool_colour,
    ).properties(name="pools")
    changes = alt.Chart(samples).mark_point(filled=True, size=36).encode(
        x=x, y=y, color=pool_colour,
        tooltip=[alt.Tooltip("when:N", title="when"), alt.Tooltip("pool:N", title="pool"),
                 alt.Tooltip("available:Q", title="available"), alt.Tooltip("maximum:Q", title="of"),
                 alt.Tooltip("cause:N", title="why")],
    ).properties(name="changes")
    casts = alt.Chart(instants).mark_tick(color="#2471a3", thickness=2, size=14).encode(
        x=alt.X("start:Q", scale=x_scale), y=alt.value(0),
        tooltip=[alt.Tooltip("when:N", title="when"), alt.Tooltip("label:N", title="what")],
    ).transform_filter("datum.kind == 'cast'").properties(name="casts")
    blocked = alt.Chart(instants).mark_rule(color="#c0392b", strokeWidth=2, strokeDash=[4, 3]).encode(
        x=alt.X("start:Q", scale=x_scale),
        tooltip=[alt.Tooltip("when:N", title="when"), alt.Tooltip("label:N", title="blocked"),
                 alt.Tooltip("rule:N", title="rule")],
    ).transform_filter("datum.kind == 'blocked'").properties(name="blocked")
    return alt.layer(shading, lines, changes, casts, blocked).properties(
        width=WIDTH, height=220,
        title=alt.Title("Mana over the day", anchor="start", fontSize=14,
                        subtitle="ticks along the top: casts; shaded: sleep, awake inside a rest, study; "
                                 "red: a recovery the rules blocked (hover for why)"),
    )
