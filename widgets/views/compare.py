"""SystemComparison: one encounter under all six timing systems, side by side, with exact odds.

The encounter can be edited in the page (:class:`~combatkit.widgets.views.editor.EncounterEditor`:
what each figure means to do, once for every system, and the refinements of the system it is
written for, which a dropdown sets) and saved as TOML: every panel, the odds and the words follow
each edit.

Each system schedules the same encounter with the same seed and the same entered dice
(:mod:`combatkit.widgets.views.dice_entry`: a number entered for a purpose and its dice is used
by every system that rolls those dice for it). Each round is drawn small, on its own
clock (:func:`~combatkit.widgets.charts.compare.panel_chart`); a system that cannot run
the encounter shows the engine's message (the rule and the value) in its panel while the
others still draw. For a matchup of two combatants the exact odds of who acts first, of a
tie and of a spell being interrupted come from the engine
(:func:`combatkit.odds.matchup_odds`, a :class:`~combatkit.systems._exhaust.Matchup` read by field), beside
the timelines as a table and a chart; and what differs between the systems is said in words derived from the
timelines' typed fields (:func:`matchup_sentences`, :func:`odds_sentences`): who acts first in a round
(:func:`~combatkit.systems._exhaust.order`), a roll's subject, a clock's unit, a system's short title.

Exact odds can take from milliseconds to tens of seconds (the number of dice outcomes
that matter): :class:`OddsJobs` computes each system's odds once per encounter and
matchup and caches them, off the kernel's main thread when an event loop is running (in
Jupyter and Voila), so the timelines stay responsive and each system's odds appear as
they are ready; outside one (a script, a test) they are computed at once. The dashboard calls
:meth:`SystemComparison.settle` last, so the page voila sends already has the odds that take a
second or two. A link carries the
example, the seed, the matchup and the entered dice (:meth:`SystemComparison.url_params`), not edits: it
says so under itself. Options an encounter file sets (``[options.<system>]``) apply to that system's
timeline and odds.

>>> comparison = SystemComparison("orc-closes-on-longbowman")
>>> comparison.a.value, comparison.b.value
('Aldric', 'Grishnak')
>>> comparison.errors
{}
>>> comparison.odds["phase1"].a_first
Fraction(1, 1)
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import ipywidgets as widgets

from combatkit.comparison import first_difference, groups_alike, why_alike
from combatkit.encounter import Encounter
from combatkit.encounter_files import dumps_toml, load_example, save_encounter
from combatkit.errors import RulesError
from combatkit.odds import matchup_odds
from combatkit.systems import SYSTEMS, TimingSystem, find_system
from combatkit.systems._exhaust import ACTS, Matchup, Order, first_act, order
from combatkit.timeline import SpanKind, Status, Timeline
from combatkit.widgets.charts.timeline import placeholder_chart
from combatkit.widgets.charts.compare import odds_chart, odds_frame, odds_spec, panel_frame, panel_spec
from combatkit.widgets.views.dice_entry import DiceEntry, DiceKey, Entered, TableRoller, file_entries
from combatkit.widgets.views.editor import EncounterEditor, describe_error, download_html, saved_rolls
from combatkit.widgets.views.encounter_picker import EncounterPicker
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.views.messages import bullets, show_alert
from combatkit.widgets.views.options_view import description_html, in_force_words
from combatkit.widgets.views.player import MomentPlayer
from combatkit.widgets.state.urlstate import Param, control_param, dice_param, int_param, text_param
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import tag

__all__ = [
    "DEFAULT_EXAMPLE",
    "OddsJobs",
    "SystemComparison",
    "SystemPanel",
    "SystemRun",
    "default_matchup",
    "describe_error",
    "matchup_sentences",
    "odds_sentences",
    "parting_sentences",
    "run_systems",
    "systems_in_seed_order",
]

DEFAULT_EXAMPLE = "five-phase-erik-the-bold"
"""The encounter a new comparison opens with: five of the six systems can run it."""

_EMBED = {"renderer": "svg", "actions": False}


def systems_in_seed_order() -> list[TimingSystem]:
    """Every registered system, in the order of the seeds they come from (000 §1-2, 000 §3, 001, ...)."""
    return sorted(SYSTEMS.values(), key=lambda s: s.source)


@dataclass(frozen=True)
class SystemRun:
    """One system's round of the encounter, or why it has none."""

    system: TimingSystem
    """The timing system."""
    timeline: Timeline | None
    """Its round, or None when it could not run the encounter."""
    error: str = ""
    """The engine's message when it could not (the rule and the value), else ``""``."""


def run_systems(encounter: Encounter, seed: int, by_dice: Mapping[DiceKey, Entered] | None = None,
                left: Mapping[str, Entered] | None = None,
                systems: Sequence[TimingSystem] | None = None) -> dict[str, SystemRun]:
    """Schedule ``encounter`` under every system (seed order), each with a fresh roller on ``seed``.

    ``by_dice`` are numbers entered for a purpose and its dice (shared by every system);
    ``left`` are the file's rolls that only the system the encounter was written for takes
    (see :func:`~combatkit.widgets.views.dice_entry.file_entries`).
    """
    runs = {}
    for system in systems or systems_in_seed_order():
        own = left if (left and system.id == encounter.system) else {}
        roller = TableRoller(seed=seed, entered=dict(own), by_dice=dict(by_dice or {}))
        try:
            runs[system.id] = SystemRun(system, system.schedule(encounter, roller))
        except ValueError as error:
            runs[system.id] = SystemRun(system, None, describe_error(error))
    return runs


def default_matchup(encounter: Encounter) -> tuple[str, str]:
    """The first intent (or declaration) aimed at a figure of another side gives the matchup (actor, target);
    without one, the first figures of the first two sides (or the first two figures)."""
    side = {c.name: c.side for c in encounter.combatants}
    for d in (*encounter.declarations, *encounter.intents):
        if d.target is not None and side.get(d.target) not in (None, side.get(d.actor)):
            return d.actor, d.target
    names = [c.name for c in encounter.combatants]
    others = [c.name for c in encounter.combatants if c.side != encounter.combatants[0].side]
    second = others[0] if others else (names[1] if len(names) > 1 else names[0])
    return names[0], second


# ----------------------------------------------------------------- words


def _dice_words(timeline: Timeline, encounter: Encounter, names: Sequence[str]) -> str:
    sides = {c.side for c in encounter.combatants if c.name in names}
    mine = [r for r in timeline.rolls if r.subject in {*names, *sides}]
    if not mine:
        return "No die is rolled for them: the rules alone fix these moments."
    shown = [f"{r.purpose} {r.dice} = {r.total} ({'entered' if r.entered else 'rolled'})" for r in mine]
    return f"Dice rolled for them: {'; '.join(shown)}."


def _act_words(timeline: Timeline, name: str) -> str:
    act = first_act(timeline, name)
    clock = timeline.clock
    if act is None:
        lost = next((s for s in timeline.for_actor(name) if s.kind in ACTS), None)
        if lost is None:
            return f"{name} declares no blow and no spell"
        return (f"{name} lands no blow and completes no spell: {lost.action} is {lost.status.value} "
                f"({lost.why.rstrip('.')})")
    what, verb = ("spell", "goes off") if act.kind is SpanKind.CAST else ("blow", "lands")
    together = [s for s in timeline.landing_at(act.end) if s.actor != name and s.status is Status.DONE]
    text = f"{name}'s first {what} ({act.action}) {verb} in {clock.describe(act.end)}"
    if together:
        text += ", simultaneous with " + ", ".join(f"{s.actor} ({s.action})" for s in together)
    ruined = [s for s in timeline.for_actor(name) if s.kind is SpanKind.CAST and s.status is Status.RUINED]
    return text + "".join(f"; {s.action} is ruined in {clock.describe(s.end)}" for s in ruined)


_ORDER_WORDS = {Order.A_FIRST: "{a} acts first", Order.B_FIRST: "{b} acts first",
                Order.SIMULTANEOUS: "they act at the same moment", Order.NEITHER: "neither acts"}


def _system_sentence(run: SystemRun, encounter: Encounter, a: str, b: str) -> str:
    title = run.system.short_title
    if run.timeline is None:
        return f"{title} cannot run this encounter: {run.error}"
    first = _ORDER_WORDS[order(run.timeline, a, b)].format(a=a, b=b)
    return (f"Under {title}, counting in {run.timeline.clock.unit}s: {first}. {_act_words(run.timeline, a)}. "
            f"{_act_words(run.timeline, b)}. {_dice_words(run.timeline, encounter, (a, b))}")


def _join(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def matchup_sentences(runs: Mapping[str, SystemRun], encounter: Encounter, a: str, b: str) -> list[str]:
    """What differs between the systems for ``a`` against ``b``, in words, from the timelines:
    first who acts first under which systems (with these dice), then one sentence per system
    saying when each figure's first blow or spell lands on its clock, what lands with it,
    which spell is ruined, and which dice decided it; a system that cannot run the encounter
    says why."""
    groups: dict[Order, list[str]] = {}
    cannot: list[str] = []
    for run in runs.values():
        if run.timeline is None:
            cannot.append(run.system.short_title)
        else:
            groups.setdefault(order(run.timeline, a, b), []).append(run.system.short_title)
    clauses = []
    for key, phrase in ((Order.A_FIRST, f"{a} acts first under "), (Order.B_FIRST, f"{b} acts first under "),
                        (Order.SIMULTANEOUS, f"{a} and {b} act at the same moment under "),
                        (Order.NEITHER, f"neither {a} nor {b} lands a blow or completes a spell under ")):
        if key in groups:
            clauses.append(phrase + _join(groups[key]))
    summary = f"With these dice, {'; '.join(clauses)}." if clauses else ""
    if cannot:
        summary += (f" {_join(cannot)} cannot run this encounter as written (see "
                    f"{'its panel' if len(cannot) == 1 else 'their panels'}).")
    return [summary.strip(), *(_system_sentence(run, encounter, a, b) for run in runs.values())]


def parting_sentences(runs: Mapping[str, SystemRun], encounter: Encounter) -> tuple[list[str], list[tuple[str, str]]]:
    """Where the systems' rounds coincide and where they part (:mod:`combatkit.comparison`): a sentence per
    group of systems that order this round's acts alike, with why, and for each pair that differ the first
    moment they part, as ``(pair, words)``."""
    timelines = {sid: run.timeline for sid, run in runs.items() if run.timeline is not None}
    titles = {sid: run.system.short_title for sid, run in runs.items()}
    alike = []
    for group in groups_alike(timelines):
        names = _join([titles[sid] for sid in group])
        reason = why_alike(encounter, group[0], group[1]) if len(group) == 2 else \
            "their rules happen to put this round's acts in the same order"
        alike.append(f"{names} time this round alike: {reason}.")
    apart = []
    ids = list(timelines)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            difference = first_difference(timelines[a], timelines[b])
            if difference is not None:
                apart.append((f"{titles[a]} / {titles[b]}", difference.words(titles[a], titles[b])))
    return alike, apart


def _parting_html(alike: list[str], apart: list[tuple[str, str]]) -> str:
    cell = "padding:2px 6px;border-bottom:1px solid #e5e8e8;vertical-align:top"
    rows = "".join(f"<tr><td style='{cell};white-space:nowrap'>{html.escape(pair)}</td>"
                   f"<td style='{cell}'>{html.escape(words)}</td></tr>" for pair, words in apart)
    said = "".join(f"<p style='margin:2px 0'>{html.escape(line)}</p>" for line in alike)
    table = (f"<table style='border-collapse:collapse;font-size:90%;max-width:1400px'><tr><th style='{cell};"
             f"text-align:left'>systems</th><th style='{cell};text-align:left'>the first moment they part</th></tr>"
             f"{rows}</table>") if apart else "<p>Every system orders this round's acts alike.</p>"
    return said + table


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def odds_sentences(odds: Mapping[str, Matchup], titles: Mapping[str, str], a: str, b: str) -> list[str]:
    """What the exact odds say across systems (over every roll, not just these dice): the range of
    the chance that ``a`` acts first, where a tie can happen, and the chance a spell is interrupted."""
    if not odds:
        return []

    def spread(chance: Callable[[Matchup], Fraction | None], what: str) -> str | None:
        values = {sid: p for sid, chances in odds.items() if (p := chance(chances)) is not None}
        if not values:
            return None
        low, high = min(values.values()), max(values.values())
        at = {p: _join([titles[s] for s, v in values.items() if v == p]) for p in (low, high)}
        if low == high:
            return f"{what} is {_percent(low)} under every system that rates this matchup ({at[low]})."
        return f"{what} runs from {_percent(low)} under {at[low]} to {_percent(high)} under {at[high]}."

    lines = [spread(lambda chances: chances.a_first, f"Over every roll (exact odds), the chance that {a} acts first")]
    ties = {sid: chances.simultaneous for sid, chances in odds.items() if chances.simultaneous}
    if ties:
        lines.append(f"{a} and {b} can act at the same moment only under "
                     + _join([f"{titles[s]} ({_percent(p)})" for s, p in ties.items()]) + ".")
    else:
        lines.append(f"No system lets {a} and {b} act at the same moment.")
    for who, name in (("a", a), ("b", b)):
        lines.append(spread(lambda chances, who=who: chances.spell_interrupted(who),
                            f"The chance that {name}'s spell is interrupted"))
    return [line for line in lines if line]


# ----------------------------------------------------------------- odds, lazily


OddsKey = tuple[str, Encounter, str, str]


@lru_cache(maxsize=256)
def _exact_odds(system: str, encounter: Encounter, a: str, b: str) -> tuple[Matchup, float]:
    """The exact odds of ``a`` against ``b`` under ``system`` with the options ``encounter`` sets for it, and the
    seconds they took: worked out once in a kernel, for every comparison it opens (a cell run again, a lesson's
    later cells). A matchup the system refuses raises each time, and is not kept."""
    start = time.perf_counter()
    odds = matchup_odds(system, encounter, a, b, SYSTEMS[system].encounter_options(encounter))
    return odds, time.perf_counter() - start


class OddsJobs:
    """Exact odds computed once per (system, encounter, a, b) in a kernel (:func:`_exact_odds`).

    With an event loop running (Jupyter, Voila), each job runs in a thread of its own,
    one at a time per system, started on the loop's next turn (so a matchup replaced in the
    same cell, as a link sets ``a`` and then ``b``, is dropped before it begins), and
    ``notify`` is called on the loop when it ends: the kernel keeps answering the page
    meanwhile. Without one, jobs run at once.
    """

    def __init__(self, notify: Callable[[], None]) -> None:
        self._notify = notify
        self._told = False
        """A redraw for odds that arrived is queued on the event loop (read and set only there)."""
        self._futures: dict[OddsKey, Future] = {}
        self._locks: dict[str, threading.Lock] = {}
        self.seconds: dict[OddsKey, float] = {}
        """How long each finished job's odds took to work out (the first time in the kernel)."""

    def get(self, system: str, encounter: Encounter, a: str, b: str) -> Future:
        """The future odds of ``a`` against ``b`` under ``system``: cached, running, waiting or started now."""
        key = (system, encounter, a, b)
        future = self._futures.get(key)
        if future is not None:
            return future
        future = self._futures[key] = Future()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._run(key, future)
            return future
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._arrived, loop))
        lock = self._locks.setdefault(system, threading.Lock())

        def work() -> None:
            with lock:
                self._run(key, future)

        loop.call_soon(threading.Thread(target=work, daemon=True, name=f"combatkit odds: {system}").start)
        return future

    def _arrived(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop: odds arrived. The odds that arrive while the loop is busy (drawing the last ones, or a new
        encounter's panels) are drawn together, once."""
        if not self._told:
            self._told = True
            loop.call_soon(self._tell)

    def _tell(self) -> None:
        self._told = False
        self._notify()

    def drop_waiting(self, keep: set[OddsKey]) -> None:
        """Cancel the jobs not yet begun that are not in ``keep`` (one already running finishes and is kept)."""
        for key, future in list(self._futures.items()):
            if key not in keep and future.cancel():
                del self._futures[key]

    @property
    def pending(self) -> list[Future]:
        """Jobs not finished yet."""
        return [f for f in self._futures.values() if not f.done()]

    def settle(self, keys: Sequence[OddsKey], seconds: float) -> None:
        """Work out here and now, one after another, the jobs of ``keys`` not begun yet, starting none after
        ``seconds``; a job another thread is playing is waited for within that time. What is left goes on in
        its thread. A page's first view is then whole when it is sent: odds that arrive while the page is
        still building its widgets can be lost to it (the table stayed at "computing…")."""
        deadline = time.monotonic() + seconds
        for key in keys:
            future = self._futures.get(key)
            left = deadline - time.monotonic()
            if future is None or future.done() or left <= 0:
                continue
            lock = self._locks.setdefault(key[0], threading.Lock())
            if lock.acquire(timeout=left):
                try:
                    self._run(key, future)
                finally:
                    lock.release()

    def _run(self, key: OddsKey, future: Future) -> None:
        if future.done() or not future.set_running_or_notify_cancel():  # done: settled before its thread began
            return
        start = time.perf_counter()
        try:
            odds, seconds = _exact_odds(*key)
        except Exception as error:  # handed to whoever reads the future: a ValueError is shown, others raise there
            self.seconds[key] = time.perf_counter() - start
            future.set_exception(error)
            return
        self.seconds[key] = seconds
        future.set_result(odds)


# ----------------------------------------------------------------- widgets


class SystemPanel(widgets.VBox):
    """One system's small timeline, or the engine's message when it cannot run the encounter,
    and the matchup's odds under it."""

    def __init__(self, system: TimingSystem) -> None:
        self.system = system
        self.heading = tag(widgets.HTML(f"<b>{html.escape(system.title)}</b> "
                                        f"<span style='color:#5f6b6d'>({html.escape(system.source)})</span>"),
                           "panel-heading")
        self.chart = tag(chart_view(placeholder_chart(), embed_options=_EMBED), "panel-chart")
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "panel-message")
        self.odds = tag(widgets.HTML(), "panel-odds")
        self.options = tag(widgets.HTML(), "panel-options")
        self.now = tag(widgets.HTML(), "panel-now")
        """What happens at the step-through cursor's tick (see :class:`~combatkit.widgets.views.player.MomentPlayer`)."""
        super().__init__([self.heading, self.options, self.message, self.chart, self.now, self.odds],
                         layout=widgets.Layout(border="1px solid #d5d8dc", padding="4px", margin="2px",
                                               min_width="0", overflow="hidden"))
        tag(self, "panel", f"panel-{system.id}")

    def show(self, run: SystemRun, order: Sequence[str], options: Any = None, tick: int = 0) -> None:
        """Draw ``run`` with lanes in ``order`` and the cursor on ``tick``; ``options`` (the system's options in
        force) are named above."""
        if options is not None:
            self.options.value = (f"<span style='font-size:90%;color:#566573'>Options in force: "
                                  f"{html.escape(in_force_words(options, self.system.options()))}</span>")
        if run.timeline is None:
            show_alert(self.message, html.escape(f"Cannot run this encounter: {run.error}"))
            self.chart.layout.display = "none"
            return
        show_alert(self.message, "")
        self.chart.layout.display = None
        self.chart.spec = panel_spec(panel_frame(run.timeline, order), run.timeline.clock, self.system.title,
                                     tick=tick)


class SystemComparison(widgets.VBox):
    """One encounter under every timing system: small-multiple timelines, differences in words,
    and the exact odds of a matchup beside them.

    ``example`` names a shipped encounter; ``encounter`` opens any other. ``seed`` seeds the
    dice nobody entered. ``a`` and ``b`` pick the matchup (default: :func:`default_matchup`).
    """

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, *, encounter: Encounter | None = None, seed: int = 1,
                 a: str | None = None, b: str | None = None) -> None:
        self.systems = systems_in_seed_order()
        self.encounter: Encounter | None = None
        """The encounter shown."""
        self.runs: dict[str, SystemRun] = {}
        """Each system's round (or error), by system id."""
        self._own_round: Timeline | None = None
        """The round the system the encounter is written for gave when it was opened: what its description
        was written for."""
        self.error = ""
        """What could not be read or applied (a file, a pasted text), or ``""``."""
        self.sentences: list[str] = []
        """The differences in words (see :func:`matchup_sentences` and :func:`odds_sentences`)."""
        self.saved: Encounter | None = None
        """What the save link holds: the encounter shown, with the seed and the dice entered that the
        system it is written for used."""
        self._left: dict[str, Entered] = {}
        self._quiet = Hush()

        self.heading = tag(widgets.HTML(), "heading")
        self.download = tag(widgets.HTML(), "download")
        self.picker = EncounterPicker(self._load, lambda error: self._show_error(error, in_draft=False),
                                      beside=[self.download])
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.seed = tag(widgets.IntText(value=seed, description="seed", continuous_update=False,
                                        layout=widgets.Layout(width="150px"), style={"description_width": "34px"}),
                        "seed")
        self.reroll = tag(widgets.Button(description="Roll again", icon="dice",
                                         tooltip="Next seed: every die nobody entered is rolled again"), "reroll")
        self.dice = DiceEntry(self._redraw)
        dice_box = widgets.Accordion([self.dice], titles=("Dice (enter what was rolled at the table)",),
                                     selected_index=None)
        self.editor = EncounterEditor(self._on_edit, find_system("phase1"), on_new=self.show_encounter,
                                      choose_system=True)
        """The encounter editor: what each figure means to do, and the refinements of the system it is written for."""
        self.edit_box = tag(widgets.Accordion([self.editor], titles=(
            "Edit the encounter (what each figure means to do, once for every system)",),
            selected_index=None), "edit")
        self.a = tag(widgets.Dropdown(description="Matchup", layout=widgets.Layout(width="260px")), "a")
        self.b = tag(widgets.Dropdown(description="against", layout=widgets.Layout(width="240px")), "b")
        self.panels = {s.id: SystemPanel(s) for s in self.systems}
        self.odds_table = tag(widgets.HTML(), "odds-table")
        self.odds_chart = tag(chart_view(odds_chart(odds_frame({}, "a", "b"), "a", "b"), embed_options=_EMBED),
                              "odds-chart")
        self.words = tag(widgets.HTML(layout=widgets.Layout(max_width="1400px")), "words")
        self.parting = tag(widgets.HTML(layout=widgets.Layout(max_width="1400px")), "parting")
        """Which systems time the round alike, and why; where each other pair parts first."""
        self.jobs = OddsJobs(self._show_odds)
        self.player = MomentPlayer(lambda: [(self.runs[sid].timeline if sid in self.runs else None, panel.chart,
                                             panel.now) for sid, panel in self.panels.items()])
        """Step through every system's round at once, each on its own clock."""

        grid = tag(widgets.GridBox(list(self.panels.values()), layout=widgets.Layout(
            grid_template_columns="repeat(auto-fill, minmax(380px, 1fr))", width="100%")), "panels")
        odds_box = tag(widgets.VBox([widgets.HTML("<h4 style='margin:4px 0'>Exact odds of the matchup</h4>"),
                                     widgets.HBox([self.odds_table, self.odds_chart],
                                                  layout=widgets.Layout(flex_flow="row wrap",
                                                                        align_items="flex-start"))],
                                    layout=widgets.Layout(width="100%", margin="6px 0 0 0")), "odds")
        super().__init__([
            self.heading,
            self.picker,
            widgets.HBox([self.seed, self.reroll, self.a, self.b],
                         layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
            dice_box,
            self.edit_box,
            self.message,
            self.player.controls,
            widgets.HBox([grid, odds_box], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            widgets.HTML("<h4 style='margin:6px 0'>Where the systems part</h4>"),
            self.parting,
            widgets.HTML("<h4 style='margin:6px 0'>What differs for the matchup, in words</h4>"),
            self.words,
        ])
        tag(self, "comparison")

        if encounter is not None:
            self._load(encounter, None)
        else:
            name = example or DEFAULT_EXAMPLE
            self._load(load_example(name), name)
            self.picker.select(name)
        if a is not None or b is not None:
            self.set_matchup(a or self.a.value, b or self.b.value)
        self.seed.observe(self._on_seed, "value")
        self.reroll.on_click(lambda _: setattr(self.seed, "value", self.seed.value + 1))
        self.a.observe(self._on_matchup, "value")
        self.b.observe(self._on_matchup, "value")

    # ------------------------------------------------------------ public

    def show_example(self, name: str) -> None:
        """Show the shipped example ``name``; an unknown name is reported, not raised."""
        self.picker.open_example(name)

    def show_encounter(self, encounter: Encounter) -> None:
        """Show any encounter."""
        self.picker.select(None)
        self._load(encounter, None)

    def set_matchup(self, a: str, b: str) -> None:
        """Rate ``a`` against ``b``; a name not in the encounter is reported, not raised."""
        for name in (a, b):
            if (error := self._not_in_encounter(name)) is not None:
                self._show_error(error)
                return
        with self._quiet():
            self.a.value, self.b.value = a, b
        self._show_error(None)
        self._show_matchup()

    def url_params(self) -> list[Param]:
        """The keys this comparison's URL carries (see :mod:`combatkit.widgets.state.urlstate`), applied in this
        order: the example, the seed and the matchup ``a`` and ``b`` (always written: an example file may
        bring its own seed, and each example its own matchup), and the dice entered over the example's own.
        A name the encounter the link opens does not have is refused: the link's problem is shown over the
        default view."""
        return [
            control_param("example", self.picker.example),
            int_param("seed", lambda: self.seed.value, self._set_seed, low=-(2**31), high=2**31 - 1),
            text_param("a", lambda: self.a.value, lambda name: self._link_matchup(name, self.b.value)),
            text_param("b", lambda: self.b.value, lambda name: self._link_matchup(self.a.value, name)),
            dice_param("dice", lambda: self.dice.changes, self.dice.enter),
        ]

    def url_caveat(self) -> str:
        """What a link cannot carry (``""``: nothing): an encounter opened from a file or pasted in, or edits."""
        return self.picker.url_caveat(edited=self.editor.edited)

    @property
    def toml(self) -> str:
        """The encounter shown as an encounter file (what the save link holds: :attr:`saved`)."""
        return dumps_toml(self.saved)

    def save(self, path: str) -> None:
        """Write :attr:`saved` to ``path`` (``.toml`` or ``.json``)."""
        save_encounter(self.saved, path)

    @property
    def timelines(self) -> dict[str, Timeline]:
        """The systems that could run the encounter, and their rounds."""
        return {sid: run.timeline for sid, run in self.runs.items() if run.timeline is not None}

    @property
    def errors(self) -> dict[str, str]:
        """The systems that could not, and the engine's message."""
        return {sid: run.error for sid, run in self.runs.items() if run.timeline is None}

    @property
    def odds(self) -> dict[str, Matchup]:
        """The matchup's exact odds under each system whose odds are ready (a bug in computing them raises here)."""
        odds, _, bugs = self._finished()
        if bugs:
            raise next(iter(bugs.values()))
        return odds

    @property
    def odds_errors(self) -> dict[str, str]:
        """Systems that ran the encounter but cannot rate the matchup, and why."""
        return self._finished()[1]

    def _finished(self) -> tuple[dict[str, Matchup], dict[str, str], dict[str, BaseException]]:
        """The finished odds, by system: the odds, the engine's refusals (a ValueError, said) and the bugs (any
        other exception)."""
        odds, refused, bugs = {}, {}, {}
        for sid, future in self._futures().items():
            if not future.done() or future.cancelled():
                continue
            error = future.exception()
            if error is None:
                odds[sid] = future.result()
            elif isinstance(error, ValueError):
                refused[sid] = describe_error(error)
            else:
                bugs[sid] = error
        return odds, refused, bugs

    @property
    def pending(self) -> list[Future]:
        """Odds still being computed for the current matchup."""
        return [f for f in self._futures().values() if not f.done()]

    def settle(self, seconds: float = 2.0) -> None:
        """Work out the current matchup's odds in this cell, system by system, beginning none after ``seconds``
        (the rest go on in their threads), and show them: a dashboard calls it last, so the page it sends has
        them (:meth:`OddsJobs.settle`)."""
        self._futures()  # started, or found
        self.jobs.settle(self._keys(), seconds)
        self._show_odds()

    # ------------------------------------------------------------ loading and running

    def _load(self, encounter: Encounter, _name: str | None) -> None:
        self.encounter = encounter
        self._own_round = None
        with self._quiet():
            if encounter.seed is not None:
                self.seed.value = encounter.seed
            names = [c.name for c in encounter.combatants]
            a, b = default_matchup(encounter)
            self.a.options, self.b.options = names, names
            self.a.value, self.b.value = a, b
        by_dice, self._left = file_entries(encounter, self.seed.value)
        self.dice.reset(by_dice)
        self.editor.load(encounter, SYSTEMS.get(encounter.system, self.editor.system))
        self._show_error(None)
        self._redraw()

    def _on_edit(self) -> None:
        """An edit in the editor: read the encounter again and run it under every system, or say what is wrong.
        The matchup keeps its figures while they are there (renamed ones are followed by their place)."""
        try:
            encounter = self.editor.draft.encounter()
        except ValueError as error:
            self._show_error(error)
            return
        before = [c.name for c in self.encounter.combatants]
        names = [c.name for c in encounter.combatants]
        self.encounter = encounter
        with self._quiet():
            pair = []
            for chosen in (self.a.value, self.b.value):
                if chosen not in names and chosen in before and before.index(chosen) < len(names) and \
                        len(before) == len(names):
                    chosen = names[before.index(chosen)]  # renamed in place
                pair.append(chosen)
            if not all(name in names for name in pair):
                pair = list(default_matchup(encounter))
            self.a.options, self.b.options = names, names
            self.a.value, self.b.value = pair
        self._show_error(None)
        self._redraw()

    def _redraw(self) -> None:
        """Schedule the encounter under every system and redraw every panel, the dice, the words and the save
        link."""
        encounter = self.encounter
        self.runs = run_systems(self.encounter, self.seed.value, self.dice.entries, self._left, self.systems)
        own = self.runs.get(encounter.system)
        description = html.escape(" ".join(encounter.description.split()))
        if own is not None and own.timeline is not None:  # the prose holds for that system's own round only
            self._own_round = own.timeline if self._own_round is None else self._own_round
            options = own.system.encounter_options(encounter)
            description = description_html(encounter.description, options, options, own.timeline, self._own_round)
        written = next((s.title for s in self.systems if s.id == encounter.system), encounter.system)
        self.heading.value = (f"<h3 style='margin:4px 0'>{html.escape(encounter.title)}</h3>"
                              f"<div style='color:#4d5656;max-width:1000px'>Written for {html.escape(written)}. "
                              f"{description}</div>")
        rolls = saved_rolls(own.timeline, self.dice.entries, self._left) if own and own.timeline else encounter.rolls
        self.saved = dataclasses.replace(encounter, seed=self.seed.value, rolls=rolls)
        self.download.value = download_html(self.saved)
        order = [c.name for c in self.encounter.combatants]
        self.player.refresh()
        for sid, run in self.runs.items():
            self.panels[sid].show(run, order, run.system.encounter_options(encounter), self.player.tick_of(run.timeline))
        self.parting.value = _parting_html(*parting_sentences(self.runs, encounter))
        mine = self.runs.get(self.editor.system.id)
        self.editor.show_plan(mine.timeline.plan if mine is not None and mine.timeline is not None else None)
        self.dice.show((roll, run.system.short_title) for run in self.runs.values() if run.timeline is not None
                       for roll in run.timeline.rolls)
        self._show_matchup()

    def _set_seed(self, seed: int) -> None:
        self.seed.value = seed

    def _link_matchup(self, a: str, b: str) -> None:
        """A link's matchup; raises for a name the encounter does not have (set_matchup only reports it)."""
        for name in (a, b):
            if (error := self._not_in_encounter(name)) is not None:
                raise error
        self.set_matchup(a, b)

    def _not_in_encounter(self, name: str) -> RulesError | None:
        names = [c.name for c in self.encounter.combatants]
        return None if name in names else RulesError(
            "a matchup names two of the encounter's combatants",
            f"{name!r} is not in \"{self.encounter.title}\": its combatants are {_join(names)}")

    def _on_seed(self, _change) -> None:
        if not self._quiet:
            self._redraw()

    def _on_matchup(self, _change) -> None:
        if not self._quiet:
            self._show_matchup()

    # ------------------------------------------------------------ odds and words

    def _keys(self) -> list[OddsKey]:
        """The current matchup's odds jobs: one for every system that ran the encounter."""
        if self.encounter is None or self.a.value is None or self.b.value is None:
            return []
        return [(sid, self.encounter, self.a.value, self.b.value)
                for sid, run in self.runs.items() if run.timeline is not None]

    def _futures(self) -> dict[str, Future]:
        return {key[0]: self.jobs.get(*key) for key in self._keys()}

    def _show_matchup(self) -> None:
        """Start (or find) the matchup's odds under every system that ran, drop stale jobs, show what is known."""
        self._futures()
        self.jobs.drop_waiting(set(self._keys()))
        self._show_odds()

    def _show_odds(self) -> None:
        """Show the odds known so far (and what is still being computed), in the panels, the table, the
        chart and the words."""
        a, b = self.a.value, self.b.value
        if self.encounter is None or a is None or b is None:
            return
        futures = self._futures()
        odds, errors, bugs = self._finished()
        # told from a done callback, where a raise would leave the table at "computing…" and say nothing
        errors |= {sid: f"combatkit failed to work these odds out ({type(bug).__name__}: {bug}); this is a bug in "
                        f"combatkit, please report it with the encounter" for sid, bug in bugs.items()}
        titles = {s.id: s.short_title for s in self.systems}
        for sid, panel in self.panels.items():
            if sid in odds:
                p = odds[sid]
                panel.odds.value = (f"<span style='font-size:90%'>Exact odds: {html.escape(a)} first "
                                    f"<b>{_percent(p.a_first)}</b> · together <b>{_percent(p.simultaneous)}</b>"
                                    f" · {html.escape(b)} first <b>{_percent(p.b_first)}</b></span>")
            elif sid in errors:
                panel.odds.value = (f"<span style='font-size:90%;color:#78281f'>No odds: "
                                    f"{html.escape(errors[sid])}</span>")
            elif sid in futures:
                panel.odds.value = "<span style='font-size:90%;color:#5f6b6d'>Exact odds: computing…</span>"
            else:
                panel.odds.value = ""
        self.odds_table.value = self._odds_table_html(futures, odds, errors)
        shown = {titles[sid]: odds[sid] for sid in self.runs if sid in odds}
        self.odds_chart.spec = odds_spec(odds_frame(shown, a, b), a, b)
        if a == b:  # the engine's own message, from the odds it refused
            self.sentences = list(dict.fromkeys(errors.values()))
        else:
            self.sentences = [*matchup_sentences(self.runs, self.encounter, a, b), *odds_sentences(odds, titles, a, b)]
        items = "".join(f"<li style='margin:3px 0'>{html.escape(s)}</li>" for s in self.sentences)
        self.words.value = f"<ul style='max-width:1300px'>{items}</ul>"

    def _odds_table_html(self, futures: Mapping[str, Future], odds: Mapping[str, Matchup],
                         errors: Mapping[str, str]) -> str:
        a, b = html.escape(self.a.value), html.escape(self.b.value)
        columns: list[tuple[str, Callable[[Matchup], Fraction | None]]] = [
            (f"{a} first", lambda m: m.a_first), ("together", lambda m: m.simultaneous),
            (f"{b} first", lambda m: m.b_first), ("neither", lambda m: m.neither)]
        for who, figure in (("a", a), ("b", b)):
            if any(m.spell_interrupted(who) is not None for m in odds.values()):
                columns.append((f"{figure}'s spell interrupted", lambda m, who=who: m.spell_interrupted(who)))
        cell = "padding:2px 6px;border-bottom:1px solid #e5e8e8;text-align:right"
        rows = []
        for system in self.systems:
            sid = system.id
            name = f"<td style='{cell};text-align:left'>{html.escape(system.short_title)}</td>"
            if sid in odds:
                chances = [chance(odds[sid]) for _, chance in columns]
                values = "".join(
                    f"<td style='{cell}' title='{p} exactly'>{_percent(p)}"
                    f"<br><span style='color:#5f6b6d;font-size:85%'>{p}</span></td>"
                    if p is not None else f"<td style='{cell}'>—</td>" for p in chances)
                seconds = self.jobs.seconds.get((sid, self.encounter, self.a.value, self.b.value), 0.0)
                rows.append(f"<tr class='ck-odds-row ck-odds-{sid}'>{name}{values}"
                            f"<td style='{cell};color:#5f6b6d;white-space:nowrap'>{seconds:.2f} s</td></tr>")
                continue
            if sid in errors:
                why = f"no odds: {errors[sid]}"
            elif sid in futures:
                why = "computing…"
            else:
                why = "cannot run this encounter"
            rows.append(f"<tr class='ck-odds-row ck-odds-{sid}'>{name}<td colspan='{len(columns) + 1}' "
                        f"style='{cell};text-align:left;color:#5f6b6d'>{html.escape(why)}</td></tr>")
        head = "".join(f"<th style='{cell}'>{words}</th>" for words, _ in columns)
        return (f"<table style='border-collapse:collapse;font-size:12px'><tr><th style='{cell};text-align:left'>"
                f"system</th>{head}<th style='{cell}'>time</th></tr>{''.join(rows)}</table>"
                "<div style='color:#5f6b6d;font-size:11px;margin-top:2px'>Over every roll of the dice, not just "
                "these: who first lands a blow or completes a spell, and the chance a caster's spell is ruined.</div>")

    # ------------------------------------------------------------ messages

    def _show_error(self, error: ValueError | None, in_draft: bool = True) -> None:
        lines = [(self.editor.describe(error) if in_draft else describe_error(error))] if error is not None else []
        lines += self.editor.entry_errors.values()
        self.error = "\n".join(lines)
        show_alert(self.message, "" if not lines else (
            f"<b>Not applied:</b>{bullets(lines)}The timelines still show the last encounter that worked; "
            "your input is kept so you can fix it."))
