"""Encounter prep results as long-form frames, and the charts drawn from them.

A prep run is one :class:`~combatkit.simulation.Simulation` per timing system, all of the
same encounter from the same master seed. The frame functions turn a list of them into
pandas frames, one row per thing a DM asks about:

* :func:`wins_frame`: how often each side wins under each system, with the 95% Wilson
  interval (:func:`~combatkit.simulation.wilson_interval`); "undecided" counts fights with
  no winner (the round limit, or no one left standing);
* :func:`rounds_frame`: how many rounds the fights took, split into finished fights and
  fights stopped by the round limit;
* :func:`falls_frame`: how often each figure is out of the fight at the end (dead,
  unconscious, asleep, held or fled), with its interval;
* :func:`spells_frame`: how often each caster's spells went off, per cast, with its interval;
* :func:`systems_frame`: one line per system (fights played and asked for, why the run stopped,
  mean rounds, undecided, spells, refusals);
* :func:`fights_frame`: every fight's row, as the CSV export holds it.

:func:`wins_chart`, :func:`falls_chart` and :func:`spells_chart` draw a rate with its
interval per (category, system); :func:`rounds_chart` draws the rounds distribution. All are
pure functions of those frames; each system keeps its colour (:data:`SYSTEM_COLOURS`) in every
chart.

>>> from combatkit import load_example
>>> from combatkit.fight import FightOptions
>>> from combatkit.simulation import simulate
>>> encounter = load_example("fighter-and-mage-vs-orc-archer")
>>> runs = [simulate(encounter, s, n=20, seed=1, options=FightOptions(declarations=False))
...         for s in ("phase1", "segments")]
>>> wins = wins_frame(runs)
>>> wins[["system", "side", "wins", "fights", "label"]].to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
[{'system': 'phase1', 'side': 'party', 'wins': 20, 'fights': 20, 'label': '100% (84–100%)'},
 {'system': 'phase1', 'side': 'orcs', 'wins': 0, 'fights': 20, 'label': '0% (0–16%)'},
 {'system': 'segments', 'side': 'party', 'wins': 20, 'fights': 20, 'label': '100% (84–100%)'},
 {'system': 'segments', 'side': 'orcs', 'wins': 0, 'fights': 20, 'label': '0% (0–16%)'}]
>>> [layer["name"] for layer in wins_chart(wins).to_dict()["layer"]]
['bars', 'interval', 'labels']
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from combatkit.simulation import Simulation, wilson_interval

__all__ = [
    "FALLS_COLUMNS",
    "FIGHT_COLUMNS",
    "ROUNDS_COLUMNS",
    "SPELLS_COLUMNS",
    "SYSTEMS_COLUMNS",
    "SYSTEM_COLOURS",
    "UNDECIDED",
    "WINS_COLUMNS",
    "falls_chart",
    "falls_frame",
    "fights_frame",
    "rounds_chart",
    "rounds_frame",
    "spells_chart",
    "spells_frame",
    "systems_frame",
    "wins_chart",
    "wins_frame",
]

SYSTEM_COLOURS: dict[str, str] = {
    "phase1": "#4e79a7",
    "phase2": "#f28e2b",
    "segments": "#e15759",
    "five_phase": "#76b7b2",
    "short_form": "#59a14f",
    "strike_speed": "#b07aa1",
}
"""A fixed colour per timing system, so a system keeps its colour whichever others are run."""
_SPARE_COLOURS = ("#9c755f", "#bab0ac", "#edc948", "#ff9da7")

UNDECIDED = "undecided"
"""The "side" of fights nobody won (as :meth:`~combatkit.simulation.Simulation.summary` counts them)."""

FIGHT_COLUMNS = ("system", "fight", "seed", "winner", "end", "rounds", "fallen", "spells_attempted",
                 "spells_succeeded", "refused")
"""Columns of :func:`fights_frame` (see :attr:`~combatkit.simulation.Simulation.fights`)."""
WINS_COLUMNS = ("system", "side", "wins", "fights", "rate", "low", "high", "label")
"""Columns of :func:`wins_frame`; ``low`` and ``high`` bound the 95% Wilson interval."""
ROUNDS_COLUMNS = ("system", "rounds", "finished", "fights", "share", "ends")
"""Columns of :func:`rounds_frame`; ``ends`` says how those fights ended, e.g. ``"a side down: 40"``."""
FALLS_COLUMNS = ("system", "figure", "side", "lane", "fell", "fights", "rate", "low", "high", "label")
"""Columns of :func:`falls_frame`."""
SPELLS_COLUMNS = ("system", "figure", "side", "lane", "attempted", "succeeded", "rate", "low", "high", "label")
"""Columns of :func:`spells_frame`; a rate per cast, for figures that cast at least once."""
SYSTEMS_COLUMNS = ("system", "fights", "requested", "stopped", "mean_rounds", "undecided", "spells_attempted",
                   "spells_succeeded", "spell_success", "refused")
"""Columns of :func:`systems_frame`; ``fights`` were played of the ``requested``, and ``stopped`` says why the
run ended (``"n reached"`` or ``"precision reached"``: :class:`~combatkit.simulation.StopReason`)."""

WIDTH = 360
"""Plot width in pixels: two charts with their labels side by side fit a 1280-pixel page."""
_BAND = 22  # pixels per bar of a rate chart
_TITLE = {"anchor": "start", "fontSize": 13, "subtitleFontSize": 11, "subtitleColor": "#566573"}


def _percent(rate: float) -> str:
    return f"{rate:.0%}"


def _rate_label(count: int, trials: int) -> tuple[float, float, float, str]:
    """Rate, interval and its label, ``"62% (55–69%)"`` (``trials`` is at least 1: rows come from fights)."""
    low, high = wilson_interval(count, trials)
    rate = count / trials
    return rate, low, high, f"{_percent(rate)} ({_percent(low).rstrip('%')}–{_percent(high)})"


# ---------------------------------------------------------------- frames


def fights_frame(simulations: Sequence[Simulation]) -> pd.DataFrame:
    """One row per fight of every run; ``winner`` is ``""`` for a fight nobody won."""
    rows = [{key: row[key] for key in FIGHT_COLUMNS} | {"winner": row["winner"] or ""}
            for sim in simulations for row in sim.fights]
    return pd.DataFrame(rows, columns=list(FIGHT_COLUMNS))


def _sides(simulations: Sequence[Simulation]) -> list[str]:
    """Sides in the encounter's order (first appearance among the figures)."""
    return list(dict.fromkeys(str(row["side"]) for sim in simulations for row in sim.figures))


def wins_frame(simulations: Sequence[Simulation]) -> pd.DataFrame:
    """Per system, one row per side (a side that never won too), then ``undecided`` if any run had
    fights nobody won: wins, fights, rate and its 95% Wilson interval."""
    sides = _sides(simulations)
    counts = [{side: 0 for side in sides} for _ in simulations]
    for count, sim in zip(counts, simulations):
        for row in sim.fights:
            key = UNDECIDED if row["winner"] is None else str(row["winner"])
            count[key] = count.get(key, 0) + 1
    if any(count.get(UNDECIDED) for count in counts):
        for count in counts:
            count.setdefault(UNDECIDED, 0)
    rows = []
    for count, sim in zip(counts, simulations):
        n = len(sim.fights)
        for side, wins in count.items():
            rate, low, high, label = _rate_label(wins, n)
            rows.append({"system": sim.system, "side": side, "wins": wins, "fights": n, "rate": rate, "low": low,
                         "high": high, "label": label})
    return pd.DataFrame(rows, columns=list(WINS_COLUMNS))


def rounds_frame(simulations: Sequence[Simulation]) -> pd.DataFrame:
    """How many fights took each number of rounds, per system: ``finished`` fights ended with a side
    down, fled or no one left; the others were stopped by the round limit. ``share`` is of the
    system's fights."""
    rows = []
    for sim in simulations:
        groups: dict[tuple[int, bool], dict[str, int]] = {}
        for row in sim.fights:
            finished = row["end"] != "round limit"
            ends = groups.setdefault((int(row["rounds"]), finished), {})  # type: ignore[call-overload]
            ends[str(row["end"])] = ends.get(str(row["end"]), 0) + 1
        n = len(sim.fights)
        for (rounds, finished), ends in sorted(groups.items()):
            fights = sum(ends.values())
            rows.append({"system": sim.system, "rounds": rounds, "finished": finished, "fights": fights,
                         "share": fights / n, "ends": ", ".join(f"{end}: {k}" for end, k in ends.items())})
    return pd.DataFrame(rows, columns=list(ROUNDS_COLUMNS))


def falls_frame(simulations: Sequence[Simulation]) -> pd.DataFrame:
    """Per system, one row per figure: in how many fights it was out of the fight at the end."""
    rows = []
    for sim in simulations:
        fell: dict[tuple[str, str], int] = {}
        for row in sim.figures:
            key = (str(row["figure"]), str(row["side"]))
            fell[key] = fell.get(key, 0) + bool(row["fell"])
        n = len(sim.fights)
        for (figure, side), k in fell.items():
            rate, low, high, label = _rate_label(k, n)
            rows.append({"system": sim.system, "figure": figure, "side": side, "lane": f"{figure} ({side})",
                         "fell": k, "fights": n, "rate": rate, "low": low, "high": high, "label": label})
    return pd.DataFrame(rows, columns=list(FALLS_COLUMNS))


def spells_frame(simulations: Sequence[Simulation]) -> pd.DataFrame:
    """Per system, one row per figure that began a spell: spells begun, spells that went off, the
    rate per cast and its interval. Empty when nobody cast."""
    rows = []
    for sim in simulations:
        casts: dict[tuple[str, str], list[int]] = {}
        for row in sim.figures:
            tally = casts.setdefault((str(row["figure"]), str(row["side"])), [0, 0])
            tally[0] += int(row["spells_attempted"])  # type: ignore[call-overload]
            tally[1] += int(row["spells_succeeded"])  # type: ignore[call-overload]
        for (figure, side), (attempted, succeeded) in casts.items():
            if attempted:
                rate, low, high, label = _rate_label(succeeded, attempted)
                rows.append({"system": sim.system, "figure": figure, "side": side, "lane": f"{figure} ({side})",
                             "attempted": attempted, "succeeded": succeeded, "rate": rate, "low": low,
                             "high": high, "label": f"{label}, {succeeded}/{attempted} casts"})
    return pd.DataFrame(rows, columns=list(SPELLS_COLUMNS))


def systems_frame(simulations: Sequence[Simulation]) -> pd.DataFrame:
    """One row per system, from :meth:`~combatkit.simulation.Simulation.summary` and the fight rows:
    fights played and asked for and why the run stopped, mean rounds, fights nobody won, spells
    begun and gone off (``spell_success`` is empty when nobody cast), policy declarations the system
    refused."""
    rows = []
    for sim in simulations:
        summary = sim.summary()
        rows.append({
            "system": sim.system, "fights": summary["fights"], "requested": summary["requested"],
            "stopped": summary["stopped"], "mean_rounds": summary["mean_rounds"],
            "undecided": summary["wins"].get(UNDECIDED, {"count": 0})["count"],  # type: ignore[union-attr]
            "spells_attempted": sum(int(r["spells_attempted"]) for r in sim.fights),  # type: ignore[call-overload]
            "spells_succeeded": sum(int(r["spells_succeeded"]) for r in sim.fights),  # type: ignore[call-overload]
            "spell_success": summary["spell_success"],
            "refused": sum(int(r["refused"]) for r in sim.fights),  # type: ignore[call-overload]
        })
    return pd.DataFrame(rows, columns=list(SYSTEMS_COLUMNS))


# ---------------------------------------------------------------- charts


def _system_colour(frame: pd.DataFrame) -> alt.Color:
    systems = list(dict.fromkeys(frame["system"]))
    spare = iter(_SPARE_COLOURS * (1 + len(systems) // len(_SPARE_COLOURS)))
    colours = [SYSTEM_COLOURS.get(s) or next(spare) for s in systems]
    return alt.Color("system:N", title="timing system", scale=alt.Scale(domain=systems, range=colours),
                     legend=alt.Legend(orient="bottom", direction="horizontal"))


def _rate_chart(frame: pd.DataFrame, category: str, category_title: str, title: str, subtitle: str,
                tooltip: list[alt.Tooltip]) -> alt.LayerChart:
    """A bar per (category, system) for ``rate``, a rule from ``low`` to ``high``, and the label in a column
    right of the plot."""
    categories = list(dict.fromkeys(frame[category]))
    systems = list(dict.fromkeys(frame["system"]))
    y = alt.Y(f"{category}:N", sort=categories, title=None, axis=alt.Axis(labelLimit=200, ticks=False, domain=False))
    y_offset = alt.YOffset("system:N", sort=systems)
    x = alt.X("rate:Q", scale=alt.Scale(domain=[0, 1], nice=False),
              axis=alt.Axis(format="%", title=category_title, tickCount=5))
    base = alt.Chart(frame)
    bars = base.mark_bar(opacity=0.85).encode(x=x, y=y, yOffset=y_offset, color=_system_colour(frame),
                                              tooltip=tooltip).properties(name="bars")
    interval = base.mark_rule(color="#17202a", strokeWidth=1.5).encode(
        x="low:Q", x2="high:Q", y=y, yOffset=y_offset, tooltip=tooltip).properties(name="interval")
    labels = base.mark_text(align="left", baseline="middle", dx=6, fontSize=10, color="#17202a").encode(
        x=alt.datum(1), y=y, yOffset=y_offset, text="label:N").properties(name="labels")
    return alt.layer(bars, interval, labels).properties(
        width=WIDTH, height=max(_BAND, _BAND * len(frame)),
        title=alt.Title(title, subtitle=subtitle, **_TITLE),
    )


def _rate_tooltip(category: str, title: str, count: str, count_title: str, trials: str,
                  trials_title: str) -> list[alt.Tooltip]:
    return [alt.Tooltip("system:N", title="timing system"), alt.Tooltip(f"{category}:N", title=title),
            alt.Tooltip(f"{count}:Q", title=count_title), alt.Tooltip(f"{trials}:Q", title=trials_title),
            alt.Tooltip("label:N", title="rate (95% interval)")]


def wins_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Win rate per side and system (:func:`wins_frame`), the 95% interval as a line through the bar's end."""
    return _rate_chart(frame, "side", "fights won", "Who wins",
                       "bar: share of fights won · line: 95% Wilson interval · undecided: nobody won",
                       _rate_tooltip("side", "side", "wins", "fights won", "fights", "fights"))


def falls_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """How often each figure is out of the fight at the end (:func:`falls_frame`), with its interval."""
    return _rate_chart(frame, "lane", "fights in which it fell", "Who falls",
                       "dead, unconscious, asleep, held or fled at the end of the fight",
                       _rate_tooltip("lane", "figure", "fell", "fights it fell in", "fights", "fights"))


def spells_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Each caster's spells that went off, per spell begun (:func:`spells_frame`), with its interval."""
    return _rate_chart(frame, "lane", "spells that went off", "Spells that got off",
                       "per spell begun: the others were ruined, lost or cancelled",
                       _rate_tooltip("lane", "caster", "succeeded", "went off", "attempted", "begun"))


def rounds_chart(frame: pd.DataFrame) -> alt.Chart:
    """Rounds each fight took (:func:`rounds_frame`): a bar per (rounds, system), faded where the round
    limit stopped the fight."""
    systems = list(dict.fromkeys(frame["system"]))
    x = alt.X("rounds:O", title="rounds", axis=alt.Axis(labelAngle=0))
    tooltip = [alt.Tooltip("system:N", title="timing system"), alt.Tooltip("rounds:O", title="rounds"),
               alt.Tooltip("fights:Q", title="fights"), alt.Tooltip("share:Q", title="share", format=".1%"),
               alt.Tooltip("ends:N", title="how they ended")]
    return alt.Chart(frame).mark_bar().encode(
        x=x, xOffset=alt.XOffset("system:N", sort=systems),
        y=alt.Y("share:Q", stack="zero", axis=alt.Axis(format="%", title="share of fights")),
        color=_system_colour(frame),
        opacity=alt.Opacity("finished:N", scale=alt.Scale(domain=[True, False], range=[0.9, 0.35]), legend=None),
        tooltip=tooltip,
    ).properties(
        name="bars", width=WIDTH, height=200,
        title=alt.Title("How many rounds", subtitle="faded: stopped by the round limit (undecided)", **_TITLE),
    )
