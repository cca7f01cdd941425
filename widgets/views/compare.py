"""SystemComparison: one encounter under all six timing systems, side by side, with exact odds.

The encounter can be edited in the page (:class:`~combatkit.widgets.views.editor.EncounterEditor`:
what each figure means to do, once for every system, and the refinements of the system it is
written for, which a dropdown sets) and saved as TOML: every panel, the odds and the words follow
each edit.

The comparison itself is the engine's (:mod:`combatkit.comparison`): each system schedules the same
encounter with the same seed and the same entered dice (:func:`~combatkit.comparison.run_systems`;
:mod:`combatkit.widgets.views.dice_entry`: a number entered for a purpose and its dice is used by every
system that rolls those dice for it), and what differs between the systems is said in its words
(:func:`~combatkit.comparison.matchup_sentences`, :func:`~combatkit.comparison.parting_sentences`,
:func:`~combatkit.comparison.odds_sentences`). This view draws it. Each round is drawn small, on its own
clock (:func:`~combatkit.widgets.charts.compare.panel_chart`); a system that cannot run
the encounter shows the engine's message (the rule and the value) in its panel while the
others still draw. For a matchup of two combatants the exact odds of who acts first, of a
tie and of a spell being interrupted come from the engine
(:func:`combatkit.odds.matchup_odds`, a :class:`~combatkit.odds.Matchup` read by field), beside
the timelines as a table and a chart.

Exact odds can take from milliseconds to tens of seconds (the number of dice outcomes
that matter): :class:`~combatkit.comparison_jobs.OddsJobs` computes each system's odds once per encounter
and matchup and caches them, off the kernel's main thread when an event loop is running (in
Jupyter and Voila), so the timelines stay responsive and each system's odds appear as
they are ready; outside one (a script, a test) they are computed at once. The dashboard calls
:meth:`SystemComparison.settle` last, so the page voila sends already has the odds that take a
second or two. Saving, the link and the alert box are every encounter view's
(:class:`~combatkit.widgets.views.base.EncounterView`): a link carries the example (or the encounter itself,
edited, opened from a file or pasted in), the seed, the matchup and the entered dice
(:meth:`SystemComparison.url_params`). Options an encounter file sets (``[options.<system>]``) apply to that system's timeline and odds.

>>> comparison = SystemComparison("orc-closes-on-longbowman")
>>> comparison.a.value, comparison.b.value
('Aldric', 'Grishnak')
>>> comparison.errors
{}
>>> comparison.odds["phase1"].a_first
Fraction(1, 1)
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from combatkit.comparison import (
    SystemRun,
    check_figure,
    default_matchup,
    matchup_sentences,
    odds_sentences,
    parting_sentences,
    percent,
    run_systems,
    systems_in_seed_order,
)
from combatkit.comparison_jobs import OddsJobs, OddsKey
from combatkit.encounter import Encounter
from combatkit.encounter_files import load_example
from combatkit.errors import RulesError
from combatkit.odds import Matchup
from combatkit.systems import SYSTEMS, TimingSystem, find_system
from combatkit.timeline import Timeline
from combatkit.widgets.charts.timeline import placeholder_chart
from combatkit.widgets.charts.compare import odds_chart, odds_frame, odds_spec, panel_frame, panel_spec
from combatkit.widgets.views.base import EncounterView
from combatkit.widgets.views.dice_entry import DiceEntry, Entered, file_entries
from combatkit.widgets.views.editor import EncounterEditor, saved_rolls
from combatkit.widgets.views.encounter_picker import EncounterPicker
from combatkit.widgets.charts.document import RoundSection
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.messages import show_alert
from combatkit.widgets.views.options_view import description_html, in_force_words
from combatkit.widgets.views.downloads import round_file, round_link
from combatkit.widgets.views.player import MomentPlayer
from combatkit.widgets.state.urlstate import Param, dice_param, text_param
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import tag

__all__ = ["DEFAULT_EXAMPLE", "SystemComparison", "SystemPanel"]

DEFAULT_EXAMPLE = "five-phase-erik-the-bold"
"""The encounter a new comparison opens with: five figures, and every system runs it."""

_EMBED = {"renderer": "svg", "actions": False}


def _parting_html(alike: list[str], apart: list[tuple[str, str]]) -> str:
    cell = "padding:2px 6px;border-bottom:1px solid #e5e8e8;vertical-align:top"
    rows = "".join(f"<tr><td style='{cell};white-space:nowrap'>{html.escape(pair)}</td>"
                   f"<td style='{cell}'>{html.escape(words)}</td></tr>" for pair, words in apart)
    said = "".join(f"<p style='margin:2px 0'>{html.escape(line)}</p>" for line in alike)
    table = (f"<table style='border-collapse:collapse;font-size:90%;max-width:1400px'><tr><th style='{cell};"
             f"text-align:left'>systems</th><th style='{cell};text-align:left'>the first moment they part</th></tr>"
             f"{rows}</table>") if apart else "<p>Every system orders this round's acts alike.</p>"
    return said + table


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


class SystemComparison(EncounterView):
    """One encounter under every timing system: small-multiple timelines, differences in words,
    and the exact odds of a matchup beside them.

    ``example`` names a shipped encounter; ``encounter`` opens any other. ``seed`` seeds the
    dice nobody entered. ``a`` and ``b`` pick the matchup (default: :func:`~combatkit.comparison.default_matchup`).
    """

    _still_shown = "The timelines still show the last encounter that worked"

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, *, encounter: Encounter | None = None, seed: int = 1,
                 a: str | None = None, b: str | None = None) -> None:
        self.systems = systems_in_seed_order()
        self.runs: dict[str, SystemRun] = {}
        """Each system's round (or error), by system id."""
        self._own_round: Timeline | None = None
        """The round the system the encounter is written for gave when it was opened: what its description
        was written for."""
        self.sentences: list[str] = []
        """The differences in words (see :func:`~combatkit.comparison.matchup_sentences` and
        :func:`~combatkit.comparison.odds_sentences`)."""
        self.saved: Encounter | None = None
        """What the save link holds: the encounter shown, with the seed and the dice entered that the
        system it is written for used."""
        self._left: dict[str, Entered] = {}
        self._quiet = Hush()

        self.heading = tag(widgets.HTML(), "heading")
        self.download = tag(widgets.HTML(), "download")
        self.round_download = round_link(self.round_file)
        """The link that downloads the six rounds shown as one document (:meth:`round_file`)."""
        self.picker = EncounterPicker(self._load, self._show_load_error, beside=[self.download, self.round_download])
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
            self._load(encounter)
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

    def set_matchup(self, a: str, b: str) -> None:
        """Rate ``a`` against ``b``; a name not in the encounter is reported, not raised."""
        try:
            for name in (a, b):
                check_figure(self.encounter, name)
        except RulesError as error:
            self._show_error(error)
            return
        with self._quiet():
            self.a.value, self.b.value = a, b
        self._show_error(None)
        self._show_matchup()

    def _own_params(self) -> list[Param]:
        """After the example and the seed: the matchup ``a`` and ``b`` (always written: each example has its
        own), and the dice entered over the example's own. A name the encounter the link opens does not have is
        refused: the link's problem is shown over the default view."""
        return [
            text_param("a", lambda: self.a.value, lambda name: self._link_matchup(name, self.b.value)),
            text_param("b", lambda: self.b.value, lambda name: self._link_matchup(self.a.value, name)),
            dice_param("dice", lambda: self.dice.changes, self.dice.enter),
        ]

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
        """The current matchup's finished odds, by system: the odds, the engine's refusals (a ValueError, said)
        and the bugs (any other exception)."""
        return self.jobs.finished(self._keys())

    @property
    def pending(self) -> list[Future]:
        """Odds still being computed for the current matchup."""
        return [f for f in self._futures().values() if not f.done()]

    def settle(self, seconds: float = 2.0) -> None:
        """Work out the current matchup's odds in this cell, system by system, beginning none after ``seconds``
        (the rest go on in their threads), and show them: a dashboard calls it last, so the page it sends has
        them (:meth:`~combatkit.comparison_jobs.OddsJobs.settle`)."""
        self._futures()  # started, or found
        self.jobs.settle(self._keys(), seconds)
        self._show_odds()

    # ------------------------------------------------------------ loading and running

    def _load(self, encounter: Encounter, _name: str | None = None) -> None:
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
            if not all(name in names for name in pair) or (pair[0] == pair[1] and len(names) > 1):
                pair = list(default_matchup(encounter))  # a matchup of one figure against itself: the first foes
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
        self._offer(dataclasses.replace(encounter, seed=self.seed.value, rolls=rolls))
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

    def round_file(self) -> tuple[str, str] | None:
        """The rounds shown as one document to print or share (:func:`~combatkit.widgets.views.downloads.round_file`):
        each system's chart and options in force side by side, then its actions and dice; its file name and HTML.
        None before the rounds were drawn."""
        if self.encounter is None or not self.runs:
            return None
        order = [c.name for c in self.encounter.combatants]
        sections = []
        for run in self.runs.values():
            timeline, system = run.timeline, run.system
            spec = panel_spec(panel_frame(timeline, order), timeline.clock, system.title) if timeline else None
            sections.append(RoundSection(system.title, system.source, timeline, spec,
                                         in_force_words(system.encounter_options(self.encounter), system.options()),
                                         run.error or ""))
        return round_file(self.encounter.title, "six-systems", sections, seed=self._applied_seed())

    def _link_matchup(self, a: str, b: str) -> None:
        """A link's matchup; raises for a name the encounter does not have (set_matchup only reports it)."""
        for name in (a, b):
            check_figure(self.encounter, name)
        self.set_matchup(a, b)

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
                                    f"<b>{percent(p.a_first)}</b> · together <b>{percent(p.simultaneous)}</b>"
                                    f" · {html.escape(b)} first <b>{percent(p.b_first)}</b></span>")
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
                    f"<td style='{cell}' title='{p} exactly'>{percent(p)}"
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

