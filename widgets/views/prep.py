"""EncounterPrep: play an encounter out many times under the timing systems a DM picks, and read the odds.

A thin view over :mod:`combatkit.simulation`. Load a shipped example, an uploaded file or
edited file text; build or change the roster (:class:`~combatkit.widgets.views.roster.RosterTable`: every figure on
a line, its numbers and first weapon edited in place, figures added from the books or a DM's library, each line's
**edit** opening the figure in the encounter editor every view shares, for its weapons, spells and what it means to
do in round 1); tick the timing
systems, the number of fights and the seed; press **Run**. The fights are played from a
background thread by :func:`~combatkit.simulation.simulate_systems`, the systems side by side on every
core of the machine (worker processes; each system's rows are the same as on one core), feeding the
progress bar every 2% of a system's fights, so the page stays live and **Stop** works. **Stop early at**
±5%, ±2% or ±1% ends a system's fights once every side's win rate is known that closely (its
95% Wilson interval, checked every :data:`~combatkit.simulation.CHUNK` fights); the fights per
system are then the most a system plays, and the status line and the table say how many each
played and why it stopped. Then:

* the win rate of each side under each system with its 95% Wilson interval, the rounds
  the fights took, who falls how often and how often each caster's spells went off
  (:mod:`combatkit.widgets.charts.prep`), and a table with one line per system;
* the results as pandas frames (:class:`PrepResults`) and as CSV files behind offline
  ``data:`` links;
* any fight of the run replayed with every event explained (:meth:`Fight.why
  <combatkit.fight.Fight.why>`);
* the encounter saved as TOML (a ``data:`` link, or :meth:`EncounterPrep.save`).

A shared link carries the setup (example, systems, fights, precision, seed, options:
:meth:`EncounterPrep.url_params`).
Nothing is played when the view opens. Round 1 plays what the encounter says each figure means to
do (its intents, edited in the shared :class:`~combatkit.widgets.views.editor.EncounterEditor`), each system
placing them in its own terms; later rounds follow combatkit's default policy
(:mod:`combatkit.policy`). Bad input
never raises out of a callback: the engine's message, naming the field or rule and the value,
is shown above the results; the results stay those of the last complete run and every control
keeps what was typed.

>>> prep = EncounterPrep("fighter-and-mage-vs-orc-archer", systems=("phase1", "segments"), fights=20)
>>> prep.run(), prep.wait()
(True, True)
>>> prep.results.wins.query("side == 'party'")[["system", "label"]].to_dict("records")
[{'system': 'phase1', 'label': '100% (84–100%)'}, {'system': 'segments', 'label': '100% (84–100%)'}]
>>> prep.fights.value = 0
>>> prep.run()
False
>>> print(prep.error)
fights: 1..2500 fights per system in the dashboard, got 0
>>> prep.fights.value, prep.precision.value = 2500, 5
>>> prep.run(), prep.wait()
(True, True)
>>> print(prep.results.status().split("; ")[1])
stop early at ±5%: phase1 stopped after 50 (±5% reached), segments stopped after 50 (±5% reached).
"""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import altair as alt
import ipywidgets as widgets
import pandas as pd

from combatkit.comparison import why_alike
from combatkit.encounter import Encounter
from combatkit.encounter_files import dumps_toml, load_example
from combatkit.errors import RulesError, is_whole
from combatkit.fight import Fight, FightOptions
from combatkit.policy import PolicyOptions
from combatkit.resolution import system_rules
from combatkit.simulation import CHUNK, Simulation, StopReason, SystemRunError, replay, simulate_systems
from combatkit.systems import SYSTEMS, find_system
from combatkit.widgets.state.draft import EncounterDraft
from combatkit.widgets.views.base import EncounterView
from combatkit.widgets.views.downloads import download_link, encounter_link
from combatkit.widgets.views.editor import EncounterEditor, describe_error
from combatkit.widgets.views.encounter_picker import EncounterPicker
from combatkit.widgets.charts.prep import (
    UNDECIDED,
    falls_chart,
    falls_frame,
    fights_frame,
    rounds_chart,
    rounds_frame,
    spells_chart,
    spells_frame,
    systems_frame,
    wins_chart,
    wins_frame,
)
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.state.urlstate import Param, control_param
from combatkit.widgets.messages import show_alert
from combatkit.widgets.views.options_view import in_force_words
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import slug, tag
from combatkit.widgets.views.roster import CombatantRow

__all__ = [
    "DEFAULT_EXAMPLE",
    "DEFAULT_FIGHTS",
    "FLEE_CHOICES",
    "MAX_FIGHTS",
    "PRECISION_CHOICES",
    "SYSTEM_ORDER",
    "CombatantRow",
    "EncounterPrep",
    "PrepResults",
    "PrepSetup",
]

DEFAULT_EXAMPLE = "strike-speed-ogre-and-goblin"
"""The encounter a new view opens with: five figures, a spell, and fights that can go either way."""
DEFAULT_FIGHTS = 200
"""Fights per system a new view runs: a few seconds for a handful of figures."""
MAX_FIGHTS = 2500
"""The most fights per system the view runs: enough to stop early at ±2% (:data:`PRECISION_CHOICES`) on an even
fight, whose 95% interval narrows to ±2% at about 2,400 fights (2,000 stopped short of it: #18). For more, call
:func:`~combatkit.simulation.simulate` directly."""
PROGRESS_STEPS = 50
"""Progress-bar updates per system (every 2% of its fights)."""
SYSTEM_ORDER: tuple[str, ...] = tuple(sorted(SYSTEMS, key=lambda sid: (system_rules(sid).seed, sid)))
"""The registered timing systems in the order of their seeds (000, 001, ... 004)."""
FLEE_CHOICES: tuple[tuple[str, Fraction | None], ...] = (
    ("fight to the end", None),
    ("flee at ½ hit points or less", Fraction(1, 2)),
    ("flee at ¼ hit points or less", Fraction(1, 4)),
)
"""Morale choices: :attr:`PolicyOptions.flee_below <combatkit.policy.PolicyOptions.flee_below>`."""
PRECISION_CHOICES: tuple[tuple[str, int], ...] = (
    ("off (play them all)", 0),
    ("±5%", 5),
    ("±2%", 2),
    ("±1%", 1),
)
"""Stop-early choices, in percentage points: a system's fights stop once every side's win rate has a 95%
interval this narrow (``precision`` of :func:`~combatkit.simulation.simulate`); 0 plays every fight."""
NEW_COMBATANT: dict[str, Any] = {"level": 1, "hp": 8, "ac": 5, "thac0": 20}
"""The fields a combatant added with **Add combatant** starts with (a first-level fighter in chain mail)."""
NEW_WEAPON: dict[str, Any] = {"name": "long sword", "sf": 5, "damage": "d8"}
"""Its weapon."""

_EMBED = {"renderer": "svg", "actions": {"export": True, "source": False, "compiled": False, "editor": False}}
_MESSAGE_TITLES = {"encounter": "Not applied", "run": "Not run", "replay": "Not replayed"}


def _registered(name: str) -> str | None:
    """The id of the registered system ``name`` names (an id or an alias), or None: an encounter file
    may be written for a system combatkit does not have."""
    try:
        return find_system(name).id
    except RulesError:
        return None


def _system_title(name: str, short: bool = False) -> str:
    """The registered system's title (``short``: its :attr:`~combatkit.systems.TimingSystem.short_title`), or the
    name as the file gives it."""
    sid = _registered(name)
    if sid is None:
        return name
    return SYSTEMS[sid].short_title if short else SYSTEMS[sid].title


# ---------------------------------------------------------------- what a run is


@dataclass(frozen=True)
class PrepSetup:
    """Everything one run was played from: replaying fight ``k`` needs exactly this."""

    encounter: Encounter
    """The encounter as it was when Run was pressed."""
    systems: tuple[str, ...]
    """Timing system ids, in the order they were run."""
    fights: int
    """Fights per system."""
    seed: int
    """The master seed: fight ``k`` of every system is played from ``fight_seed(seed, k)``."""
    options: FightOptions
    """Round limit, opening gap, round 1 from the encounter's intents, morale."""
    precision: float | None = None
    """Stop a system's fights once every side's win rate is known to this (0.02: ±2%); None: play them all."""


@dataclass(frozen=True)
class PrepResults:
    """A complete run: one :class:`~combatkit.simulation.Simulation` per system, and its frames."""

    setup: PrepSetup
    """What was run."""
    simulations: tuple[Simulation, ...]
    """The runs, in the order of ``setup.systems``."""
    seconds: float
    """Wall-clock time the fights took."""

    def played(self, system: str) -> int:
        """How many fights were played under ``system``."""
        return len(self.simulations[self.setup.systems.index(system)].fights)

    def status(self) -> str:
        """What was played and why each system stopped, in a line:

        ``"24 fights (12 × 2 systems) in 0.4 s, seed 3; every fight asked for was played."``"""
        setup, sims = self.setup, self.simulations
        total = sum(len(sim.fights) for sim in sims)
        count = len(sims)
        whole = all(len(sim.fights) == setup.fights for sim in sims)
        head = f"{total} fights" + (f" ({setup.fights} × {count} system{'s' * (count > 1)})" if whole else "")
        head += f" in {self.seconds:.1f} s, seed {setup.seed}"
        if setup.precision is None:
            return f"{head}; every fight asked for was played."
        aim = _percent(setup.precision)
        why = [f"{sim.system} stopped after {len(sim.fights)} ({aim} reached)" if sim.stopped is StopReason.PRECISION
               else f"{sim.system} played all {len(sim.fights)} ({aim} not reached)" for sim in sims]
        return f"{head}; stop early at {aim}: {', '.join(why)}."

    def findings(self) -> list[str]:
        """What a DM should know about the run, in sentences: which systems gave the very same fights and why
        they coincide, why the fights nobody won ended so, and which spells went off with no effect data (the
        engine applied nothing for them)."""
        setup, sims = self.setup, self.simulations
        out = []
        groups: dict[str, list[str]] = {}
        for sim in sims:
            key = repr([{k: v for k, v in row.items() if k != "system"} for row in sim.fights])
            groups.setdefault(key, []).append(sim.system)
        for group in (g for g in groups.values() if len(g) > 1):
            names = " and ".join(_system_title(s, short=True) for s in group)
            reason = (why_alike(setup.encounter, group[0], group[1]) if len(group) == 2
                      else "their rules happen to play these fights alike")
            out.append(f"{names} give the very same fights here: {reason}.")
        for sim in sims:
            why = sim.undecided()
            if why:
                n = sum(why.values())
                parts = "; ".join(f"{count} {what}" for what, count in why.items())
                out.append(f"Under {_system_title(sim.system, short=True)}, {n} of {len(sim.fights)} fights ended "
                           f"with no winner: "
                           f"{parts} (round limit {setup.options.max_rounds}).")
        missing: dict[str, int] = {}
        for sim in sims:
            for name, count in sim.no_effect_data().items():
                missing[name] = missing.get(name, 0) + count
        if missing:
            spells = ", ".join(f"{name} ({count} casting{'s' * (count != 1)})" for name, count in missing.items())
            out.append(f"Spells with no effect data went off and did nothing the engine could apply: {spells}. Give "
                       "each an effect in the encounter file (README: Encounter files) to play it.")
        return out

    @cached_property
    def wins(self) -> pd.DataFrame:
        """:func:`~combatkit.widgets.charts.prep.wins_frame`: win rate per side and system, with its interval."""
        return wins_frame(self.simulations)

    @cached_property
    def fights(self) -> pd.DataFrame:
        """:func:`~combatkit.widgets.charts.prep.fights_frame`: one row per fight (the CSV export)."""
        return fights_frame(self.simulations)

    @cached_property
    def rounds(self) -> pd.DataFrame:
        """:func:`~combatkit.widgets.charts.prep.rounds_frame`: rounds the fights took."""
        return rounds_frame(self.simulations)

    @cached_property
    def falls(self) -> pd.DataFrame:
        """:func:`~combatkit.widgets.charts.prep.falls_frame`: how often each figure falls."""
        return falls_frame(self.simulations)

    @cached_property
    def spells(self) -> pd.DataFrame:
        """:func:`~combatkit.widgets.charts.prep.spells_frame`: how often each caster's spells go off."""
        return spells_frame(self.simulations)

    @cached_property
    def systems(self) -> pd.DataFrame:
        """:func:`~combatkit.widgets.charts.prep.systems_frame`: one line per system."""
        return systems_frame(self.simulations)


class _Stopped(Exception):
    """Raised from the progress callback to end a run when Stop was pressed."""


# ---------------------------------------------------------------- the view


class EncounterPrep(EncounterView):
    """Load or build an encounter, pick timing systems, run many fights, and read the odds.

    ``example`` names a shipped encounter (see :func:`~combatkit.example_encounters`);
    ``encounter`` opens any other. ``systems`` are the timing systems ticked at first (ids
    or aliases; default: the one the encounter was written for), ``fights`` the fights per
    system and ``seed`` the master seed; ``precision`` (a value of :data:`PRECISION_CHOICES`: 2 for
    ±2%) stops a system's fights early. The fights are played by ``workers`` processes (default
    every core). :meth:`run` is the Run button; :meth:`wait` blocks until the run in progress is
    over (for notebooks and tests).
    """

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, *, encounter: Encounter | None = None,
                 systems: Sequence[str] | None = None, fights: int = DEFAULT_FIGHTS, seed: int = 1,
                 precision: int = 0, workers: int | None = None) -> None:
        self.workers = workers
        """Processes that play the fights (``workers`` of :func:`~combatkit.simulation.simulate_systems`); None:
        every core."""
        self.results: PrepResults | None = None
        """The last complete run, or None before the first."""
        self.replayed: Fight | None = None
        """The fight last replayed."""
        self._problems: dict[str, str] = {}
        self._quiet = Hush()
        self._file_edited = False
        self._as_loaded: dict[str, Any] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._failure: BaseException | None = None
        self.editor = EncounterEditor(self._refresh, find_system("phase1"), choose_system=True, roster=False,
                                      on_figure=lambda _: self._open_form())
        """The encounter editor every view shares: its roster shown as this view's, and its form for one figure
        (its weapons and spells, what it means to do in round 1 in words every system reads, with the refinements of
        the system the encounter is written for) folded under it."""

        first = encounter if encounter is not None else load_example(example or DEFAULT_EXAMPLE)
        own = _registered(first.system)
        ticked = {find_system(s).id for s in systems} if systems is not None else {own or SYSTEM_ORDER[0]}

        self.heading = tag(widgets.HTML(), "heading")
        self.save_link = tag(widgets.HTML(), "save")
        self.picker = EncounterPicker(lambda encounter, _name: self._load(encounter), self._show_load_error,
                                      beside=[self.save_link], paste=False)
        self.example = self.picker.example
        """The example dropdown (the picker's): what a link's ``example`` names."""
        self.file_text = tag(widgets.Textarea(layout=widgets.Layout(width="98%", height="260px")), "file-text")
        self.file_load = tag(widgets.Button(description="Load this file", icon="upload"), "file-load")
        file_box = widgets.Accordion(
            [widgets.VBox([widgets.HTML("The encounter file (TOML, as the README describes it). Edit anything "
                                        "here, or paste another file, then press <b>Load this file</b>."),
                           self.file_text, self.file_load])],
            titles=("Encounter file",), selected_index=None)

        self.roster = self.editor.roster
        """Every figure on a line (the editor's :class:`~combatkit.widgets.views.roster.RosterTable`)."""
        self.add_combatant = tag(widgets.Button(description="Add combatant", icon="plus"), "add-combatant")

        self.system_boxes: dict[str, widgets.Checkbox] = {
            sid: tag(widgets.Checkbox(value=sid in ticked, description=f"{SYSTEMS[sid].title} ({sid})",
                                      tooltip=f"{SYSTEMS[sid].title} ({sid})", indent=False,
                                      layout=widgets.Layout(width="auto", margin="0 16px 0 0")),
                     "system", f"system-{sid}")
            for sid in SYSTEM_ORDER
        }
        small = {"description_width": "initial"}
        self.fights = tag(widgets.IntText(value=fights, description="fights per system", style=small,
                                          layout=widgets.Layout(width="190px")), "fights")
        self.precision = tag(widgets.Dropdown(
            options=PRECISION_CHOICES, value=precision, description="stop early at", style=small,
            tooltip=(f"Stop a system's fights once every side's win rate is known this closely (95% interval), "
                     f"checked every {CHUNK} fights; the fights per system are then the most a system plays"),
            layout=widgets.Layout(width="250px")), "precision")
        self.seed = tag(widgets.IntText(value=seed, description="seed", style=small,
                                        layout=widgets.Layout(width="150px")), "seed")
        self.max_rounds = tag(widgets.IntText(value=FightOptions.max_rounds, description="round limit", style=small,
                                              layout=widgets.Layout(width="150px")), "max-rounds")
        self.gap = tag(widgets.IntText(value=FightOptions.opening_gap, description="sides start (feet apart)",
                                       style=small, layout=widgets.Layout(width="230px")), "gap")
        self.flee = tag(widgets.Dropdown(options=[(label, i) for i, (label, _) in enumerate(FLEE_CHOICES)],
                                         value=0, description="morale", style=small,
                                         layout=widgets.Layout(width="300px")), "flee")
        self.declarations = tag(widgets.Checkbox(
            value=True, indent=False, description="round 1: the encounter's intents",
            tooltip="Round 1 plays what the encounter says each figure means to do, placed by each system in its "
                    "own terms; the default policy decides every later round (untick: the policy from round 1)",
            layout=widgets.Layout(width="260px")), "declarations")
        self.run_button = tag(widgets.Button(description="Run", icon="play", button_style="primary"), "run")
        self.stop_button = tag(widgets.Button(description="Stop", icon="stop", button_style="warning",
                                              layout=widgets.Layout(display="none")), "stop")
        self.progress = tag(widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(width="300px")),
                            "progress")
        self.status = tag(widgets.HTML("No fights run yet: tick the systems to compare and press <b>Run</b>."),
                          "status")
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.stale = tag(widgets.HTML(
            "<i>The encounter has changed since this run: press <b>Run</b> to see its odds.</i>",
            layout=widgets.Layout(display="none")), "stale")

        self.summary = tag(widgets.HTML(), "summary")
        self.findings = tag(widgets.HTML(), "findings")
        """Which systems gave the same fights and why, why fights ended undecided, spells without effect data."""
        self.downloads = tag(widgets.HTML(), "downloads")
        self.wins_chart: alt.JupyterChart | None = None
        """Win rates (created by the first run, redrawn in place by later ones)."""
        self.rounds_chart: alt.JupyterChart | None = None
        self.falls_chart: alt.JupyterChart | None = None
        self.spells_chart: alt.JupyterChart | None = None
        self.no_spells = tag(widgets.HTML("<i>Nobody began a spell in these fights.</i>",
                                          layout=widgets.Layout(display="none")), "no-spells")
        self.charts = tag(widgets.Box(layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
                          "charts")

        self.replay_system = tag(widgets.Dropdown(description="replay under", style=small,
                                                  layout=widgets.Layout(width="420px"), disabled=True),
                                 "replay-system")
        self.replay_index = tag(widgets.IntText(value=0, description="fight #", style=small, disabled=True,
                                                layout=widgets.Layout(width="140px")), "replay-index")
        self.replay_button = tag(widgets.Button(description="Replay", icon="film", disabled=True), "replay")
        self.replay_why = tag(widgets.HTML(), "replay-why")

        self.form = tag(widgets.Accordion([self.editor], titles=(
            "One figure, every field: its weapons, spells and what it means to do in round 1 (once for every "
            "system)",), selected_index=None), "intents-box")
        """The encounter editor's form, folded until a roster line's **edit** opens it."""

        self._load(first)
        if encounter is None:
            self.picker.select(example or DEFAULT_EXAMPLE)

        super().__init__([
            self.heading,
            self.picker,
            file_box,
            tag(widgets.VBox([
               widgets.HTML("<b>Combatants</b> (changes apply when you press Enter or leave a field; a line's "
                            "<b>edit</b> opens the figure below, with its weapons, spells and what it means to do)"),
               self.editor.roster_help, self.editor.books_line, tag(widgets.VBox([self.roster]), "roster-box"),
               self.add_combatant,
            ], layout=widgets.Layout(border="1px solid #d5d8dc", padding="6px", margin="8px 0")), "roster-frame"),
            self.form,
            widgets.HTML("<b>Timing systems to compare</b>"),
            widgets.HBox(list(self.system_boxes.values()), layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.fights, self.precision, self.seed, self.max_rounds, self.gap],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([self.flee, self.declarations, self.run_button, self.stop_button, self.progress],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.status,  # beside Run, where the eye is when it is pressed: not below the note
            self.message,
            widgets.HTML("<div style='color:#4d5656;max-width:980px'>Round 1 plays what the encounter says each "
                         "figure means to do, placed by every system in its own terms (untick <i>round 1: the "
                         "encounter's intents</i> to leave it to the policy). Every later round, and every figure the "
                         "encounter gives no intents, follows combatkit's default policy: each figure goes for the "
                         "nearest foe, casters use their spells first, archers shoot while foes are out of reach, a "
                         "figure with no weapon fights with its fists (see <code>combatkit.policy</code>).</div>"),
            self.stale,
            self.summary,
            self.findings,
            self.downloads,
            self.charts,
            self.no_spells,
            tag(widgets.VBox([
               widgets.HTML("<b>Replay a fight</b>: any fight of the run, every event explained with its rule"),
               widgets.HBox([self.replay_system, self.replay_index, self.replay_button],
                            layout=widgets.Layout(align_items="center")),
               self.replay_why,
            ], layout=widgets.Layout(margin="8px 0")), "replay-box"),
        ])
        tag(self, "prep")
        self._observe()

    # ------------------------------------------------------------ public

    @property
    def running(self) -> bool:
        """A run is in progress."""
        return self._thread is not None and self._thread.is_alive()

    def url_params(self) -> list[Param]:
        """The keys this view's URL carries (see :mod:`combatkit.widgets.state.urlstate`): the example, or the
        encounter itself (``enc``) when it is not a shipped example as shipped (edited, opened from a file or pasted
        in), each timing system ticked or not (``phase1=1``), the fights per system, the stop-early precision
        (``precision=2``: ±2%), the seed and the run options. A link reproduces the run's setup; press
        Run to play it."""
        return [
            *self._encounter_params(),
            *(control_param(sid, box) for sid, box in self.system_boxes.items()),
            control_param("fights", self.fights, low=1, high=MAX_FIGHTS),
            control_param("precision", self.precision),
            control_param("seed", self.seed),
            control_param("rounds", self.max_rounds, low=1, high=100),
            control_param("gap", self.gap, low=0, high=1000),
            control_param("flee", self.flee),
            control_param("declarations", self.declarations),
        ]

    @property
    def draft(self) -> EncounterDraft:
        """The encounter being edited (the encounter editor's working copy)."""
        return self.editor.draft

    @property
    def rows(self) -> list[CombatantRow]:
        """The roster's lines, one per combatant."""
        return self.roster.rows

    def _edited(self) -> bool:
        """The encounter differs from the one opened (a link then carries the encounter itself)."""
        return self.draft.to_dict() != self._as_loaded

    def run(self) -> bool:
        """What the Run button does: read the controls and start playing the fights in the background.
        Returns False, with the reason shown, when the input is refused or a run is already going."""
        if self.running:
            return False
        try:
            setup = self._setup()
        except ValueError as error:
            self._set_problem("run", error)
            return False
        self._set_problem("run", None)
        self._stop.clear()
        self._failure = None
        self._set_running(True)
        self.progress.max = setup.fights * len(setup.systems)
        self.progress.value = 0
        self.progress.bar_style = ""
        self._thread = threading.Thread(target=self._work, args=(setup,), name="combatkit-prep", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """What the Stop button does: end the run in progress (its fights are dropped)."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the run in progress is over; False if ``timeout`` seconds passed first.
        Re-raises an unexpected error of the run (an engine bug, not bad input)."""
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                return False
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure
        return True

    # ------------------------------------------------------------ wiring

    def _observe(self) -> None:
        self.file_load.on_click(lambda _: self.picker.read(self.file_text.value))
        self.file_text.observe(self._on_file_text, "value")
        self.add_combatant.on_click(self._on_add_combatant)
        self.run_button.on_click(lambda _: self.run())
        self.stop_button.on_click(lambda _: self.stop())
        self.replay_button.on_click(lambda _: self._show_replay())

    def _inputs(self) -> list[widgets.DOMWidget]:
        """Every control a run must not see change under it."""
        return [self.picker.example, self.picker.upload, self.file_text, self.file_load, self.add_combatant,
                self.editor.books, self.editor.library_file, *self.roster.controls, *self.system_boxes.values(),
                self.fights, self.precision, self.seed, self.max_rounds, self.gap, self.flee, self.declarations,
                self.run_button, self.replay_system, self.replay_index, self.replay_button]

    def _set_running(self, running: bool) -> None:
        for control in self._inputs():
            control.disabled = running
        if not running and self.results is None:
            for control in (self.replay_system, self.replay_index, self.replay_button):
                control.disabled = True
        self.stop_button.layout.display = None if running else "none"

    # ------------------------------------------------------------ loading

    def _load(self, encounter: Encounter) -> None:
        """Edit ``encounter`` (it passed the reader's checks) and show it."""
        self._file_edited = False
        self.editor.load(encounter, find_system(_registered(encounter.system) or "phase1"))
        self._as_loaded = self.draft.to_dict()
        self._refresh()

    def _open_form(self) -> None:
        """Unfold the encounter editor's form (a roster line's **edit** has shown its figure there)."""
        self.form.selected_index = 0

    def _on_file_text(self, change) -> None:
        if not self._quiet:
            self._file_edited = True

    def _on_add_combatant(self, _button) -> None:
        sides = self.draft.sides
        ident = self.draft.add_combatant({"name": f"Combatant {len(self.draft.combatants) + 1}",
                                          "side": sides[-1] if sides else "party", **NEW_COMBATANT})
        self.draft.add_weapon(ident, NEW_WEAPON)
        self.editor.refresh(ident)

    # ------------------------------------------------------------ the encounter

    def _refresh(self) -> None:
        """Read the encounter from the draft again (after any edit, in the roster or the editor's form); on bad input
        show why and keep the last good one."""
        try:
            encounter = self.draft.encounter()
        except ValueError as error:
            self._set_problem("encounter", error)
            return
        self.encounter = self.saved = encounter
        try:
            self.editor.show_plan(self.editor.system.plan(encounter))
        except ValueError:
            self.editor.show_plan(None)
        self.heading.value = _heading_html(encounter)
        self.save_link.value = encounter_link(encounter, style="margin-right:14px")
        if not self._file_edited:
            with self._quiet():
                self.file_text.value = dumps_toml(encounter)
        self._set_problem("encounter", None)
        self._show_stale()

    def _show_stale(self) -> None:
        changed = self.results is not None and self.results.setup.encounter != self.encounter
        self.stale.layout.display = None if changed else "none"

    # ------------------------------------------------------------ running

    def _setup(self) -> PrepSetup:
        """The run the controls ask for; raises ValueError naming what is wrong."""
        encounter = self.draft.encounter()
        systems = tuple(sid for sid, box in self.system_boxes.items() if box.value)
        if not systems:
            raise ValueError("timing systems: tick at least one system to run")
        if not 1 <= self.fights.value <= MAX_FIGHTS:
            raise ValueError(f"fights: 1..{MAX_FIGHTS} fights per system in the dashboard, got {self.fights.value}")
        workers = self.workers
        if workers is not None and (not is_whole(workers) or workers < 1):
            raise ValueError(f"workers: 1 or more processes (None: every core), got {workers!r}")
        options = FightOptions(max_rounds=self.max_rounds.value, opening_gap=self.gap.value,
                               declarations=self.declarations.value,
                               policy=PolicyOptions(flee_below=FLEE_CHOICES[self.flee.value][1]))
        precision = self.precision.value / 100 if self.precision.value else None
        return PrepSetup(encounter, systems, self.fights.value, self.seed.value, options, precision)

    def _work(self, setup: PrepSetup) -> None:
        """The run, in the background thread."""
        try:
            self._play(setup)
        except BaseException as error:
            self._failure = error
            self.progress.bar_style = "danger"
            self.status.value = (f"The run failed with an internal error ({html.escape(type(error).__name__)}); "
                                 "the results below are the last complete run's.")
            raise
        finally:
            self._set_running(False)

    def _play(self, setup: PrepSetup) -> None:
        started = time.perf_counter()
        kept = "the results below are the last complete run's" if self.results else "nothing to show yet"
        done_by: dict[str, int] = {}

        def progress(system: str, done: int, total: int) -> None:
            if self._stop.is_set():
                raise _Stopped
            done_by[system] = done
            self.progress.value = sum(done_by.values())
            self.status.value = f"{html.escape(system)}: {done} of {total} fights"

        try:
            simulations = simulate_systems(setup.encounter, setup.systems, n=setup.fights, seed=setup.seed,
                                           options=setup.options, progress=progress,
                                           every=max(1, setup.fights // PROGRESS_STEPS), workers=self.workers,
                                           precision=setup.precision)
        except _Stopped:
            self.progress.bar_style = "warning"
            self.status.value = f"Stopped after {self.progress.value} of {self.progress.max} fights; {kept}."
            return
        except SystemRunError as failed:
            self._set_problem("run", failed.error, under=failed.system)
            self.progress.bar_style = "danger"
            self.status.value = f"Stopped at a rules error under {html.escape(failed.system)}; {kept}."
            return
        self.progress.value = self.progress.max  # the share of the systems that stopped early
        self._show_results(PrepResults(setup, tuple(simulations), time.perf_counter() - started))

    def _show_results(self, results: PrepResults) -> None:
        self.results = results
        setup = results.setup
        self.summary.value = _summary_html(results)
        self.findings.value = "".join(f"<p style='margin:3px 0;max-width:980px'>{html.escape(line)}</p>"
                                      for line in results.findings())
        self.downloads.value = _downloads_html(results)
        charts = {"wins": wins_chart(results.wins), "rounds": rounds_chart(results.rounds),
                  "falls": falls_chart(results.falls), "spells": spells_chart(results.spells)}
        if self.wins_chart is None:
            for name, chart in charts.items():
                setattr(self, f"{name}_chart", tag(chart_view(chart, embed_options=_EMBED), f"{name}-chart"))
            self.charts.children = (self.wins_chart, self.rounds_chart, self.falls_chart, self.spells_chart)
        else:
            for name, chart in charts.items():
                getattr(self, f"{name}_chart").chart = chart
        casts = not results.spells.empty
        self.spells_chart.layout.display = None if casts else "none"
        self.no_spells.layout.display = "none" if casts else None
        self.replay_system.options = [(f"{_system_title(s)} ({s})", s) for s in setup.systems]
        self.replay_system.value = setup.systems[0]
        if not 0 <= self.replay_index.value < results.played(setup.systems[0]):
            self.replay_index.value = 0
        self.progress.bar_style = "success"
        self.status.value = html.escape(results.status())
        self._show_stale()
        self._show_replay()

    # ------------------------------------------------------------ replaying

    def _show_replay(self) -> None:
        results = self.results
        if results is None:
            return
        setup, index = results.setup, self.replay_index.value
        played = results.played(self.replay_system.value)
        if not 0 <= index < played:
            self._set_problem("replay", ValueError(
                f"fight #: 0..{played - 1} (the fights of the last run under {self.replay_system.value}), "
                f"got {index}"))
            return
        fight = replay(setup.encounter, index, self.replay_system.value, seed=setup.seed, options=setup.options)
        self.replayed = fight
        self.replay_why.value = _why_html(fight, index)
        self._set_problem("replay", None)

    # ------------------------------------------------------------ messages

    def _set_problem(self, key: str, error: ValueError | None, *, in_draft: bool = True, under: str = "") -> None:
        """Show (or clear) what is wrong with one kind of input: the encounter, the run or the replay."""
        if error is None:
            self._problems.pop(key, None)
        else:
            text = self._describe(error, in_draft)
            self._problems[key] = f"under {under}: {text}" if under else text
        entries = list(self.editor.entry_errors.values())  # what the encounter editor could not read
        self.error = "\n".join([*self._problems.values(), *entries])
        items = "".join(f"<li><b>{_MESSAGE_TITLES[key]}:</b> {html.escape(text)}</li>"
                        for key, text in self._problems.items())
        items += "".join(f"<li><b>{_MESSAGE_TITLES['encounter']}:</b> {html.escape(text)}</li>" for text in entries)
        show_alert(self.message, "" if not items else (
            f'<ul style="margin:4px 0">{items}</ul>The results below are still the last complete run\'s; your input '
            "is kept so you can fix it."))

    def _show_error(self, error: ValueError | None, in_draft: bool = True) -> None:
        """The encounter's problem, among the run's and the replay's (:meth:`_set_problem`)."""
        self._set_problem("encounter", error, in_draft=in_draft)

    def _describe(self, error: ValueError, in_draft: bool = True) -> str:
        """The engine's message; a field path like ``combatants[1].hp`` names the combatant of the roster being
        edited too."""
        return describe_error(error, [c.name for c in self.draft.combatants.values()] if in_draft else ())


# ---------------------------------------------------------------- helpers


def _heading_html(encounter: Encounter) -> str:
    description = html.escape(" ".join(encounter.description.split()))
    set_by_file = [f"{_system_title(sid)}: "
                   f"{in_force_words(SYSTEMS[sid].encounter_options(encounter), SYSTEMS[sid].options())}"
                   for sid in encounter.options if sid in SYSTEMS]
    in_force = ("; ".join(set_by_file) if set_by_file else "every system's own defaults (the file sets none)")
    return (f"<h3 style='margin:4px 0'>{html.escape(encounter.title)}</h3>"
            f"<div style='color:#4d5656;max-width:980px'>Written for {html.escape(_system_title(encounter.system))}. "
            f"{description}</div><div class='ck-options-in-force' style='color:#4d5656'><b>Timing options in force"
            f"</b>: {html.escape(in_force)}</div>")


def _downloads_html(results: PrepResults) -> str:
    stem = slug(results.setup.encounter.title, 'encounter')
    links = [(results.fights, "fights", "every fight"), (results.wins, "wins", "win rates"),
             (results.falls, "falls", "who falls"), (results.spells, "spells", "spells")]
    shown, left = [], []
    for frame, name, label in links:
        link = download_link(frame.to_csv(index=False), f"{stem}-{name}.csv", "text/csv", label,
                             style="margin-right:14px")
        if link is not None:
            shown.append(link)
        else:
            left.append(label)
    if left:  # a link over the limit would be a dead one
        shown.append(f"<span class='ck-too-big' style='color:#4d5656'>{html.escape(', '.join(left))}: too large for a "
                     f"link in the page ({len(results.fights):,} fights); fewer fights make it one, or "
                     f"<code>combatkit.simulation.simulate</code> in a notebook gives every row</span>")
    return "Download as CSV: " + "".join(shown)


def _percent(precision: float) -> str:
    """``0.02`` as ``"±2%"``."""
    return f"±{precision * 100:g}%"


def _fights_cell(results: PrepResults, system: str) -> str:
    """The fights a system played, and why it stopped when a precision was asked for."""
    sim = results.simulations[results.setup.systems.index(system)]
    played, precision = len(sim.fights), results.setup.precision
    if precision is None:
        return str(played)
    reached = "reached" if sim.stopped is StopReason.PRECISION else "not reached"
    return f"{played} of {sim.requested} ({_percent(precision)} {reached})"


def _summary_html(results: PrepResults) -> str:
    """One line per system: fights, each side's win rate with its interval, rounds, spells, refusals."""
    sides = list(dict.fromkeys(results.wins["side"]))
    head = ["timing system", "fights", *sides, "mean rounds", "spells that went off", "refused declarations"]
    body = []
    for line in results.systems.itertuples():
        wins = results.wins[results.wins["system"] == line.system].set_index("side")["label"]
        spells = (f"{line.spells_succeeded} of {line.spells_attempted} ({line.spell_success:.0%})"
                  if line.spells_attempted else "none begun")
        body.append([f"{_system_title(line.system)} ({line.system})", _fights_cell(results, line.system),
                     *(wins.get(side, "") for side in sides), f"{line.mean_rounds:.1f}", spells, str(line.refused)])
    cell = "padding:2px 12px 2px 0;text-align:left"
    rows = "".join("<tr>" + "".join(f"<td style='{cell}'>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body)
    header = "".join(f"<th style='{cell}'>{html.escape(h)}</th>" for h in head)
    note = (f"Win rates with their 95% Wilson interval; <i>{UNDECIDED}</i>: nobody won (the round limit, or no one "
            "left standing)." if UNDECIDED in sides else "Win rates with their 95% Wilson interval.")
    return (f"<table style='border-collapse:collapse;margin:6px 0'><thead><tr>{header}</tr></thead>"
            f"<tbody>{rows}</tbody></table><div style='color:#4d5656'>{note}</div>")


def _why_html(fight: Fight, index: int) -> str:
    """The fight's explanation, read from its rounds: a heading per round, one line per note and event (the
    engine's own lines, :meth:`RoundResult.why <combatkit.resolution.RoundResult.why>`), the outcome (the last of
    :meth:`Fight.why <combatkit.fight.Fight.why>`) in bold."""
    outcome = fight.why()[-1]
    parts = []
    for r in fight.rounds:
        parts.append(f"<div style='font-weight:bold;margin-top:4px'>round {r.round} ({html.escape(r.system)})</div>")
        lines = r.why()
        if lines:
            parts.append("<ul style='margin:2px 0 6px 0'>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines)
                         + "</ul>")
    return (f"<div style='max-width:980px'><h4 style='margin:6px 0'>Fight #{index} under "
            f"{html.escape(_system_title(fight.system))}: {html.escape(outcome)}</h4>"
            f"<div style='max-height:420px;overflow-y:auto;border:1px solid #eaeded;padding:4px 8px'>"
            f"{''.join(parts)}</div></div>")
