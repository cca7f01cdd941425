"""Play a round step by step, the way a referee walks a table through it.

:class:`RoundPlayer` drives one timeline chart: a ``Play`` button (with a slider to scrub) and
"previous" / "next" step buttons move a cursor, the chart's ``tick`` parameter
(:func:`~combatkit.widgets.charts.timeline.timeline_chart`), over the clock; the chart outlines what is under
way at that tick and dims the rest, in the page, without being rebuilt; and :attr:`RoundPlayer.now`
says what happens at that tick, from the engine's own lines (:meth:`~combatkit.Timeline.why_line`).
Tick 0 is the whole round, no cursor. The step buttons stop only where an action begins or lands
(:attr:`~combatkit.Timeline.moments`); Play and the slider go tick by tick.

:class:`MomentPlayer` walks several systems' rounds together (the comparison): step *k* puts each
panel's cursor on the *k*-th moment at which something begins or lands on its own clock, so the
systems can be read side by side in the order things happen under each.

>>> from combatkit import find_system, load_example
>>> from combatkit.widgets.charts.timeline import timeline_chart, timeline_frame
>>> from combatkit.widgets.charts.render import chart_view
>>> encounter = load_example("fighter-and-mage-vs-orc-archer")
>>> timeline = find_system("phase1").schedule(encounter)
>>> chart = chart_view(timeline_chart(timeline_frame(timeline), timeline.clock))
>>> player = RoundPlayer(lambda: timeline, [chart])
>>> player.play.value = 3
>>> int(chart.params.tick), [f"{s.actor}: {s.action}" for s in player.highlighted]
(3, ['Mira: casts web (CT 2) -> Ugluk'])
>>> player.forward.click()
>>> player.tick, player.where
(4, 'half-segment 4 (phase 1)')
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import altair as alt
import ipywidgets as widgets

from combatkit.timeline import Span, Tick, Timeline
from combatkit.widgets.views.classes import tag
from combatkit.widgets.charts.render import ChartSizer

__all__ = ["MomentPlayer", "RoundPlayer", "now_html"]

INTERVAL_MS = 1200
"""How long Play stays on each tick."""


def now_html(timeline: Timeline, tick: Tick) -> str:
    """What happens at ``tick``, for a reader: each action landing then with the engine's line for it, each
    one beginning, and what is still under way; at tick 0, how to start."""
    if tick <= 0:
        return ("<div class='ck-now-line' style='color:#566573'>Press play, or step, to walk through the round "
                "one moment at a time.</div>")
    landing = [s for s in timeline.spans if s.end == tick]
    starting = [s for s in timeline.spans if s.start == tick < s.end]
    going = [s for s in timeline.spans if s.start < tick < s.end]
    parts = []
    for span in landing:
        parts.append(f"<li class='ck-now-line'>{html.escape(timeline.why_line(span))}</li>")
    for span in starting:
        parts.append(f"<li class='ck-now-line'>{html.escape(span.actor)} begins: {html.escape(span.action)} "
                     f"(until {html.escape(timeline.clock.describe(span.end))}). {html.escape(span.why)} "
                     f"<span style='color:#5f6b6d'>[{html.escape(span.rule)}]</span></li>")
    if going:
        names = "; ".join(f"{s.actor}: {s.action}" for s in going)
        parts.append(f"<li class='ck-now-line' style='color:#566573'>Under way: {html.escape(names)}.</li>")
    when = html.escape(timeline.clock.describe(tick))
    if not parts:
        return f"<div class='ck-now-line'><b>{when}</b>: nothing begins or lands.</div>"
    return f"<div><b>{when}</b><ul style='margin:2px 0'>{''.join(parts)}</ul></div>"


def _last_tick(timeline: Timeline | None) -> int:
    if timeline is None:
        return 1
    return max([timeline.clock.ticks, *(s.end for s in timeline.spans)])


class RoundPlayer:
    """A cursor over one round: ``timeline()`` gives the round shown (None: none yet), ``charts`` the
    JupyterCharts whose ``tick`` parameter it moves.

    :attr:`controls` (Play, slider, step buttons, where the cursor is) and :attr:`now` (what happens
    there) are for the view to lay out. A view that redraws calls :meth:`refresh` and builds its new
    spec with :attr:`tick` (``timeline_spec(..., tick=player.tick)``), so the cursor stays where it was.
    """

    def __init__(self, timeline: Callable[[], Timeline | None], charts: Sequence[alt.JupyterChart]) -> None:
        self._timeline = timeline
        self.charts = list(charts)
        self.play = tag(widgets.Play(value=0, min=0, max=_last_tick(timeline()), step=1, interval=INTERVAL_MS,
                                     description="play", tooltip="Play the round one tick at a time",
                                     show_repeat=False), "play")
        self.slider = tag(widgets.IntSlider(value=0, min=0, max=self.play.max, readout=False,
                                            tooltip="The tick shown", layout=widgets.Layout(width="260px")),
                          "play-slider")
        widgets.link((self.play, "value"), (self.slider, "value"))
        widgets.link((self.play, "max"), (self.slider, "max"))
        self.back = tag(widgets.Button(description="previous", icon="step-backward", layout=widgets.Layout(
            width="110px"), tooltip="Back to the last moment an action began or landed"), "step-back")
        self.forward = tag(widgets.Button(description="next", icon="step-forward", layout=widgets.Layout(
            width="90px"), tooltip="On to the next moment an action begins or lands"), "step")
        self.label = tag(widgets.HTML(), "where", "live")  # read out as it changes (aria-live: the page template)
        self.controls = tag(widgets.HBox([widgets.HTML("<b>Step through</b>:"), self.play, self.slider, self.back,
                                          self.forward, self.label, ChartSizer()],
                                         layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
                            "player")
        """The controls, in a row (with the page's :class:`~combatkit.widgets.charts.render.ChartSizer`)."""
        self.now = tag(widgets.HTML(layout=widgets.Layout(max_width="1100px")), "now", "live")
        """What happens at the cursor's tick."""
        self.play.observe(lambda _change: self._show(), "value")
        self.back.on_click(lambda _button: self.step(-1))
        self.forward.on_click(lambda _button: self.step(1))
        self._show()

    @property
    def tick(self) -> Tick:
        """Where the cursor is (0: the whole round, no cursor)."""
        return self.play.value

    @property
    def where(self) -> str:
        """The clock's words for the cursor's tick (``""`` at 0)."""
        timeline = self._timeline()
        return timeline.clock.describe(self.tick) if timeline is not None and self.tick else ""

    @property
    def highlighted(self) -> tuple[Span, ...]:
        """The spans under way at the cursor's tick: what the chart outlines."""
        timeline = self._timeline()
        return timeline.acting_at(self.tick) if timeline is not None and self.tick else ()

    def step(self, direction: int) -> None:
        """Move to the next (``1``) or previous (``-1``) moment at which an action begins or lands; past the
        first, back to the whole round."""
        timeline = self._timeline()
        moments = timeline.moments if timeline is not None else ()
        if direction > 0:
            later = [t for t in moments if t > self.tick]
            self.play.value = later[0] if later else self.tick
        else:
            earlier = [t for t in moments if t < self.tick]
            self.play.value = earlier[-1] if earlier else 0

    def refresh(self) -> None:
        """The round changed: fit the clock, keep the cursor where it was if it is still on it."""
        last = _last_tick(self._timeline())
        if self.play.value > last:
            self.play.value = last
        self.play.max = last
        self._show()

    def _show(self) -> None:
        timeline = self._timeline()
        for chart in self.charts:
            if "tick" in chart.params.trait_names():
                chart.params.tick = self.tick
        self.label.value = (f"<span style='margin-left:8px'>{html.escape(self.where)}</span>"
                            if self.tick else "<span style='margin-left:8px;color:#5f6b6d'>"
                                              "the whole round</span>")
        self.now.value = now_html(timeline, self.tick) if timeline is not None else ""


class MomentPlayer:
    """One cursor for several rounds on different clocks (the comparison): step *k* puts each round's
    cursor on its own *k*-th moment (:attr:`~combatkit.Timeline.moments`), or on its last once it has
    none left. ``rounds()`` gives, for each panel, its round (or None) and its chart and "now" box.
    """

    def __init__(self, rounds: Callable[[], Sequence[tuple[Timeline | None, alt.JupyterChart, widgets.HTML]]]) -> None:
        self._rounds = rounds
        self.play = tag(widgets.Play(value=0, min=0, max=self._most(), step=1, interval=INTERVAL_MS,
                                     description="play", tooltip="Play every round one moment at a time",
                                     show_repeat=False), "play")
        self.slider = tag(widgets.IntSlider(value=0, min=0, max=self.play.max, readout=False,
                                            tooltip="The moment shown", layout=widgets.Layout(width="200px")),
                          "play-slider")
        widgets.link((self.play, "value"), (self.slider, "value"))
        widgets.link((self.play, "max"), (self.slider, "max"))
        self.back = tag(widgets.Button(description="previous", icon="step-backward",
                                       layout=widgets.Layout(width="110px")), "step-back")
        self.forward = tag(widgets.Button(description="next", icon="step-forward",
                                          layout=widgets.Layout(width="90px")), "step")
        self.label = tag(widgets.HTML(), "where", "live")  # read out as it changes (aria-live: the page template)
        self.controls = tag(widgets.HBox([
            widgets.HTML("<b>Step through</b> (each system on its own clock, moment by moment):"), self.play,
            self.slider, self.back, self.forward, self.label, ChartSizer(),
        ], layout=widgets.Layout(align_items="center", flex_flow="row wrap")), "player")
        self.play.observe(lambda _change: self._show(), "value")
        self.back.on_click(lambda _button: setattr(self.play, "value", max(0, self.play.value - 1)))
        self.forward.on_click(lambda _button: setattr(self.play, "value", min(self.play.max, self.play.value + 1)))

    @property
    def step_index(self) -> int:
        """The moment shown (0: the whole rounds)."""
        return self.play.value

    def tick_of(self, timeline: Timeline | None) -> Tick:
        """Where ``timeline``'s cursor is at this step."""
        if timeline is None or not self.step_index or not timeline.moments:
            return 0
        return timeline.moments[min(self.step_index, len(timeline.moments)) - 1]

    def refresh(self) -> None:
        """The rounds changed: fit the steps to the round with the most moments, and show them."""
        most = self._most()
        if self.play.value > most:
            self.play.value = most
        self.play.max = most
        self._show()

    def _most(self) -> int:
        return max([1, *(len(t.moments) for t, _, _ in self._rounds() if t is not None)])

    def _show(self) -> None:
        for timeline, chart, now in self._rounds():
            tick = self.tick_of(timeline)
            if "tick" in chart.params.trait_names():
                chart.params.tick = tick
            now.value = "" if timeline is None or not tick else (
                f"<div style='font-size:90%'>{now_html(timeline, tick)}</div>")
        self.label.value = ("<span style='margin-left:8px;color:#5f6b6d'>the whole rounds</span>"
                            if not self.step_index else
                            f"<span style='margin-left:8px'>moment {self.step_index} of "
                            f"{self.play.max}</span>")
