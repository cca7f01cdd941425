"""TableView: the DM's page for a whole fight at the table, round after round (#49).

A thin view over :class:`~combatkit.table.TableFight`, which plays each round and carries everything forward, and
:class:`~combatkit.widgets.state.fights.FightStore`, which keeps the fight on the server between visits.

1. **Start**: an encounter (a shipped example, a file from disk or pasted TOML, through the
   :class:`~combatkit.widgets.views.encounter_picker.EncounterPicker` every view shares), the timing system (its
   options as the encounter sets them are named), the side the players play, and a seed for the dice nobody types, or
   **the table rolls everything**. **Start the fight** takes a pair of tokens from the store (the DM's and the
   players') and saves the fight at once; the page's link carries the DM's token (``?fight=<token>``, through
   :func:`~combatkit.widgets.state.urlstate.shareable`), and opening it again reopens the fight, after a closed tab,
   a dead kernel or a restarted server. A link whose token is wrong or names no fight is said so plainly in the alert
   box, and a new fight can still be started.
2. **Each round**: one line per figure on the field (:class:`FigureLine`) with what it means to do, as the engine
   proposes (:meth:`TableFight.intents <combatkit.table.TableFight.intents>`) or as the DM sets it (attack, close in
   and attack, move toward or away, cast, stand ready; its target, its weapon or spell); then every roll the round
   asks for, in order (:meth:`TableFight.preview <combatkit.table.TableFight.preview>`), one box each
   (:class:`DieRow`): a number typed stays until the DM clears it, through every change of intent or die, and typing
   one changes no other box; a seeded fight shows what the seed rolled in grey, and when the table rolls everything
   the first roll still to type is marked and the rolls after it, which depend on it, are greyed. **Play round**
   plays it, saves the fight and redraws the round's timeline (the chart and step-through every timeline has) and the
   roster beside it.
3. **The roster** (:meth:`TableFight.roster <combatkit.table.TableFight.roster>`): each figure's hit points, status,
   conditions with the rounds they have left, spells left and a spell held; beside each foe a **show to players**
   box (:attr:`TableFight.revealed <combatkit.table.TableFight.revealed>`), saved at once.
4. **The DM's hand** (:class:`~combatkit.table.Overrule`): pick a figure, then damage or heal it, give it a
   condition for some rounds or end one, set its status; bring late arrivals from the books (``goblin``, ``3 orcs``,
   ``fighter 3``: :meth:`EncounterDraft.add_from_books <combatkit.widgets.state.draft.EncounterDraft.add_from_books>`)
   on a side; **Undo** the last round or ruling (a round's typed dice and intents come back to the page); **Redo the
   last round with other dice** takes it back with every die it used typed in its box, to change the ones that were
   wrong. Each ruling is saved at once.
5. **The fight log**: every event with its rule (:meth:`TableFight.log_lines <combatkit.table.TableFight.log_lines>`),
   downloadable as CSV and text, and the fight as a file (TOML, :meth:`TableFight.dumps
   <combatkit.table.TableFight.dumps>`), links made while the log is open; the file box opens such a file again as a
   new fight with its own links, and refuses one that does not replay, naming its step and field
   (:class:`~combatkit.table.FightFileError`).
6. **The players' link**: the players' dashboard (``table_players.ipynb``) with the players' token
   (``?watch=<token>``), read-only, to copy (:class:`PlayersLink`).

Every engine refusal goes to the alert box in the engine's words (:func:`~combatkit.errors.error_words`), and what was
typed stays. The fight is saved on the server as its file; the store keeps its players' token beside it
(:meth:`~combatkit.widgets.state.fights.FightStore.players`), so the DM's page reopened from its link shows the
players' link again.

>>> import tempfile
>>> from combatkit.widgets.state.fights import FightStore
>>> view = TableView("orc-closes-on-longbowman", seed=4, store=FightStore(tempfile.mkdtemp()))
>>> view.start.click()
>>> view.fight.round, [row.name for row in view.fight.roster()]
(0, ['Aldric', 'Grishnak'])
>>> view.play.click()
>>> view.fight.round, view.fight.over, view.fight.fight().winner
(1, True, 'archers')
>>> from combatkit.table import loads_fight
>>> loads_fight(view.store.load(view.token)).figures == view.fight.figures
True
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from combatkit.battle import ActiveCondition, is_present
from combatkit.conditions import CONDITIONS
from combatkit.dice import EnteredRollError, Roller
from combatkit.encounter import Encounter
from combatkit.errors import error_words
from combatkit.fight import RoundDie
from combatkit.intent import Intent, IntentKind
from combatkit.systems import SYSTEMS, find_system
from combatkit.table import Overrule, OverruleKind, RosterRow, RoundPreview, Step, TableFight, loads_fight
from combatkit.timeline import Timeline
from combatkit.widgets.charts.document import RoundSection
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.charts.timeline import placeholder_chart, timeline_frame, timeline_spec
from combatkit.widgets.messages import bullets, show_alert
from combatkit.widgets.state.draft import Books, EncounterDraft, read_search
from combatkit.widgets.state.fights import FightNotFound, FightStore
from combatkit.widgets.state.urlstate import COPY_ON_CLICK_JS, Param
from combatkit.widgets.views.classes import slug, tag
from combatkit.widgets.views.dice_entry import Entered, parse_entry
from combatkit.widgets.views.downloads import download_link, round_file, round_link
from combatkit.widgets.views.encounter_picker import EncounterPicker, OpenFileButton
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.options_view import in_force_words
from combatkit.widgets.views.player import RoundPlayer

__all__ = ["PLAYERS_DASHBOARD", "DieRow", "FigureLine", "PlayersLink", "RosterLine", "TableView"]

PLAYERS_DASHBOARD = "table_players.ipynb"
"""The players' dashboard, beside this one: it opens a fight read-only from the players' token (``?watch=``)."""


_DOES = (("as proposed", ""), ("attack", "attack"), ("close in and attack", "close"), ("move toward", "move"),
         ("move away from", "away"), ("cast", "cast"), ("stand ready", "hold"))
"""What a figure's line offers it to do, and the word for each."""

_STATUSES = ("fled", "surrendered", "dead", "unconscious", "active")
"""The statuses the DM's hand sets (:class:`~combatkit.battle.FigureStatus`'s values)."""

_STATUS_COLOURS = {"dead": "#922b21", "unconscious": "#9a5b00", "fled": "#4d5656", "surrendered": "#4d5656"}

_BIG = widgets.Layout(height="48px", min_width="150px")
"""The size of a control used every round: large enough for a finger on a tablet."""

_STYLE = """<style>
.ck-table-view .ck-die-box input, .ck-table-view .ck-amount input { height: 40px; font-size: 1.15em; }
.ck-table-view .ck-die-needed { background: #fef5e7; border-left: 4px solid #9a5b00; padding-left: 4px; }
.ck-table-view .ck-die-provisional .widget-html-content { color: #5f6b6d; }
.ck-table-view .ck-log pre { white-space: pre-wrap; margin: 0; font-size: 0.92em; }
.ck-table-view .ck-roster-info { border-bottom: 1px dotted #d5d8dc; padding: 2px 0; }
.ck-table-view .ck-players-url { flex: 1 1 240px; min-width: 0; }
</style>"""
"""The page's own styles: large number boxes, the roll to type next, greyed provisional rolls."""


def _shown(value: Entered) -> str:
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


# ----------------------------------------------------------------- the players' link


_PLAYERS_LINK_ESM = COPY_ON_CLICK_JS + """
function render({ model, el }) {
  const row = document.createElement("div");
  row.style.display = "flex";
  row.style.flexWrap = "wrap";
  row.style.alignItems = "center";
  row.style.gap = "6px";
  const what = document.createElement("span");
  what.textContent = "The players' link (read-only):";
  const box = document.createElement("input");
  box.className = "widget-input ck-players-url";
  box.readOnly = true;
  box.setAttribute("aria-label", "The players' link: the fight, read-only, for the players' screens");
  const button = document.createElement("button");
  button.className = "jupyter-button widget-button ck-copy-players";
  button.textContent = "Copy the players' link";
  const note = document.createElement("span");
  const show = () => {
    const path = model.get("path");
    box.value = path ? new URL(path, window.location.href).toString() : "";
    row.style.display = path ? "flex" : "none";
    note.textContent = "";
  };
  model.on("change:path", show);
  show();
  copyOnClick(button, box, note);
  row.append(what, box, button, note);
  el.append(row);
}
export default { render };
"""


class PlayersLink(anywidget.AnyWidget):
    """The players' link, to copy: :attr:`path` (the players' dashboard and its token) made a full address in the
    page, beside this dashboard's own; hidden while there is none."""

    _esm = _PLAYERS_LINK_ESM
    path = traitlets.Unicode("").tag(sync=True)
    """``table_players.ipynb?watch=<token>``, relative to this page; ``""``: no fight yet."""


# ----------------------------------------------------------------- one figure's line


class FigureLine(widgets.HBox):
    """What one figure on the field means to do next round: the engine's proposal in words, kept unless the DM
    picks something else for it (:attr:`do`, with :attr:`target` and :attr:`using`, its weapon or spell).
    ``on_change()`` is called after each change the DM makes."""

    def __init__(self, name: str, on_change: Callable[[], None]) -> None:
        self.name = name
        """The figure's name."""
        self.proposed: tuple[Intent, ...] = ()
        """What the figure does if the DM leaves it: the engine's proposal (or what a round taken back played)."""
        self._weapons: tuple[str, ...] = ()
        self._spells: tuple[str, ...] = ()
        self._on_change = on_change
        self._quiet = Hush()
        lay = widgets.Layout
        self.who = widgets.HTML(layout=lay(width="170px"))
        self.do = tag(widgets.Dropdown(options=_DOES, value="", layout=lay(width="170px"),
                                       tooltip=f"What {name} does next round"), "line-do")
        self.target = tag(widgets.Dropdown(options=[("no target", "")], value="", layout=lay(width="170px"),
                                           tooltip=f"Whom {name} does it to"), "line-target")
        self.using = tag(widgets.Dropdown(options=[("its routine", "")], value="", layout=lay(width="190px"),
                                          tooltip=f"The weapon or spell {name} uses"), "line-using")
        self.proposal = tag(widgets.HTML(layout=lay(flex="1 1 220px")), "line-proposal")
        """The proposal in words (shown while the line is "as proposed")."""
        super().__init__([self.who, self.do, self.target, self.using, self.proposal],
                         layout=lay(flex_flow="row wrap", align_items="center", border_bottom="1px dotted #d5d8dc"))
        tag(self, "line", f"line-{slug(name, 'figure')}")
        self.do.observe(self._on_do, "value")
        self.target.observe(self._on_control, "value")
        self.using.observe(self._on_control, "value")

    def show(self, side: str, proposed: tuple[Intent, ...], targets: Sequence[str], weapons: Sequence[str],
             spells: Sequence[str], *, keep: bool = False) -> None:
        """Show the figure of ``side`` with its ``proposed`` intents, the figures it may target, its weapons and the
        spells it has left: "as proposed", or with ``keep`` what the DM chose for it, where that still holds (a
        ruling between two rounds changes no one's choice)."""
        do, target, using = (self.do.value, self.target.value, self.using.value) if keep else ("", "", "")
        self.proposed, self._weapons, self._spells = proposed, tuple(weapons), tuple(spells)
        others = [n for n in targets if n != self.name]
        with self._quiet():
            self.do.value = do
            self.target.options = [("no target", "")] + [(n, n) for n in others]
            self.target.value = target if target in others else ""
        self.who.value = f"<b>{html.escape(self.name)}</b> <span style='color:#4d5656'>({html.escape(side)})</span>"
        self._fit()
        if using in dict(self.using.options).values():
            with self._quiet():
                self.using.value = using

    def intents(self) -> tuple[Intent, ...] | None:
        """The intents the DM set for the figure, or None: as proposed. Intents the rules refuse (a move away from
        no one) raise :class:`~combatkit.errors.RulesError`."""
        do, target, using = self.do.value, self.target.value or None, self.using.value or None
        if not do:
            return None
        if do in ("attack", "close"):
            attack = Intent(self.name, IntentKind.ATTACK, target, weapons=(using,) if using else ())
            return (Intent(self.name, IntentKind.MOVE, target), attack) if do == "close" else (attack,)
        if do in ("move", "away"):
            return (Intent(self.name, IntentKind.MOVE, target, away=do == "away"),)
        if do == "cast":
            return (Intent(self.name, IntentKind.CAST, target, spell=using),)
        return (Intent(self.name, IntentKind.HOLD, target),)

    def _on_do(self, _change: Any) -> None:
        if self._quiet:
            return
        if self.do.value and not self.target.value:  # the target proposed, to start from
            aimed = next((i.target for i in self.proposed if i.target), None)
            if aimed in dict(self.target.options).values():
                with self._quiet():
                    self.target.value = aimed
        self._fit()
        self._on_change()

    def _on_control(self, _change: Any) -> None:
        if not self._quiet:
            self._on_change()

    def _fit(self) -> None:
        """Show the controls the choice takes: a target and a weapon or spell, or the proposal in words."""
        do = self.do.value
        with self._quiet():
            if do in ("attack", "close"):
                self.using.options = [("its routine", "")] + [(w, w) for w in self._weapons]
            elif do == "cast":
                self.using.options = [("its first spell left", "")] + [(s, s) for s in self._spells]
            else:
                self.using.options = [("—", "")]
            self.using.value = ""
        self.target.layout.display = None if do else "none"
        self.using.layout.display = None if do in ("attack", "close", "cast") else "none"
        self.proposal.layout.display = "none" if do else None
        said = "; ".join(i.words() for i in self.proposed) if self.proposed else "nothing (the rules decide)"
        self.proposal.value = f"<span style='color:#4d5656'>{html.escape(said)}</span>"


# ----------------------------------------------------------------- one roll


class DieRow(widgets.HBox):
    """One roll the next round asks for: what it is for and its dice, a box for the number the table rolled, and
    how it stands (typed, rolled by the seed, from the encounter's file, to type next, provisional). ``on_typed(key,
    text)`` is called when the box's text changes."""

    def __init__(self, key: str, on_typed: Callable[[str, str], None]) -> None:
        self.key = key
        """The roll's key (:attr:`RoundDie.key <combatkit.fight.RoundDie.key>`)."""
        self._quiet = Hush()
        self.what = widgets.HTML(layout=widgets.Layout(flex="0 1 360px"))
        self.box = tag(widgets.Text(continuous_update=False, layout=widgets.Layout(width="96px")), "die-box",
                       f"die-{slug(key)}")
        self.state = widgets.HTML(layout=widgets.Layout(flex="1 1 160px"))
        super().__init__([self.what, self.box, self.state],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center", margin="1px 0"))
        tag(self, "table-die")
        self.box.observe(lambda change: None if self._quiet else on_typed(key, change.new), "value")

    def show(self, die: RoundDie, typed: Entered | None, *, seeded: bool, needed: bool, provisional: bool,
             refused: bool) -> None:
        """Show ``die`` as the round on trial asks for it: ``typed``, the number the DM typed (None: none); a box
        whose text was ``refused`` keeps it."""
        self.what.value = f"{html.escape(die.purpose)} <b>({html.escape(die.dice)})</b>"
        with self._quiet():
            if not refused:
                self.box.value = "" if typed is None else _shown(typed)
        known = seeded or die.typed  # the seed's number, or the encounter file's: worth showing
        self.box.placeholder = _shown(die.value) if known and typed is None else ""
        self.box.tooltip = f"What the table rolled for {die.purpose} ({die.dice})"
        if typed is not None:
            state = "typed at the table"
        elif die.typed:
            state = "the encounter file's roll"
        elif needed:
            state = "<b>type this roll next</b>"
        elif provisional:
            state = "provisional: asked for if the rolls above go so"
        else:
            state = f"rolled {html.escape(_shown(die.value))} from the seed"
        self.state.value = f"<span style='font-size:92%'>{state}</span>"
        for mark, on in (("ck-die-needed", needed), ("ck-die-provisional", provisional)):
            if on:
                self.add_class(mark)
            else:
                self.remove_class(mark)


# ----------------------------------------------------------------- the roster


class RosterLine(widgets.HBox):
    """One figure in the roster: its numbers in a line, and for a foe a **show to players** box
    (``on_reveal(name, shown)``)."""

    def __init__(self, name: str, on_reveal: Callable[[str, bool], None]) -> None:
        self.name = name
        self._quiet = Hush()
        self.info = widgets.HTML(layout=widgets.Layout(flex="1 1 220px"))
        self.reveal = tag(widgets.Checkbox(description="show to players", indent=False,
                                           layout=widgets.Layout(width="150px"),
                                           tooltip=f"Show {name} on the players' screen (never its hit points)"),
                          "reveal")
        super().__init__([self.info, self.reveal], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        tag(self, "roster-line", f"roster-{slug(name, 'figure')}")
        self.reveal.observe(lambda change: None if self._quiet else on_reveal(name, change.new), "value")

    def show(self, row: RosterRow, *, foe: bool, shown: bool) -> None:
        """Show ``row``; a ``foe`` gets the box, ticked when ``shown`` to the players."""
        hp = "" if row.hit_points is None else f" · HP <b>{row.hit_points}</b>/{row.max_hit_points}"
        colour = _STATUS_COLOURS.get(row.status, "#1d6b3a" if row.status == "active" else "#4d5656")
        parts = [f"<b>{html.escape(row.name)}</b> <span style='color:#4d5656'>({html.escape(row.side)})</span>{hp} · "
                 f"<span style='color:{colour}'>{html.escape(row.status)}</span>"]
        if row.conditions:
            parts.append("conditions: " + ", ".join(
                html.escape(what) + (" (until removed)" if left is None else f" ({left} round{'s' if left != 1 else ''}"
                                     " left)") for what, left in row.conditions))
        if row.spells_left:
            parts.append("spells left: " + html.escape(", ".join(row.spells_left)))
        if row.holding:
            parts.append(f"holding {html.escape(row.holding)}")
        self.info.value = "<div class='ck-roster-info'>" + " · ".join(parts) + "</div>"
        with self._quiet():
            self.reveal.value = shown
        self.reveal.layout.display = None if foe else "none"


# ----------------------------------------------------------------- the page


class TableView(widgets.VBox):
    """The DM's page for a fight at the table (module docstring).

    ``example`` names the shipped encounter the start panel opens with; ``system`` the system it starts under (None:
    the encounter's own); ``seed`` the seed of the dice nobody types (None: the encounter's own, else 1), or
    ``table_rolls``: the table rolls everything. ``store`` keeps the fights (default: the server's data folder,
    :class:`~combatkit.widgets.state.fights.FightStore`).
    """

    def __init__(self, example: str = "goblin-ambush", *, system: str | None = None, seed: int | None = None,
                 table_rolls: bool = False, store: FightStore | None = None) -> None:
        self.store = store if store is not None else FightStore()
        """Where the fights are kept."""
        self.fight: TableFight | None = None
        """The fight under way (None before one is started or opened)."""
        self.token: str | None = None
        """The DM's token of the fight under way: what the page's link carries."""
        self.players_token: str | None = None
        """The players' token of the fight under way."""
        self.encounter: Encounter | None = None
        """The encounter the start panel holds."""
        self.typed: dict[str, Entered] = {}
        """The numbers typed for the next round's rolls, by key: kept until the DM clears them or the round is
        played."""
        self.refused: dict[str, str] = {}
        """Each die box whose text was not applied, and why."""
        self.errors: dict[str, str] = {}
        """What the alert box says, by what said it (the link, the start, the round, the hand, the file, saving)."""
        self.preview: RoundPreview | None = None
        """The next round as last tried (its dice are the ones listed)."""
        self._proposed: tuple[Intent, ...] = ()
        self._played_as: tuple[Intent, ...] | None = None
        self._lines: dict[str, FigureLine] = {}
        self._lines_round: int | None = None
        self._die_rows: dict[str, DieRow] = {}
        self._roster_lines: dict[str, RosterLine] = {}
        lay = widgets.Layout

        # -- start
        self.picker = EncounterPicker(self._on_encounter, lambda error: self._say("start", error_words(error)))
        self.system = tag(widgets.Dropdown(options=[(s.title, sid) for sid, s in SYSTEMS.items()],
                                           description="System", layout=lay(width="min(100%, 520px)"),
                                           tooltip="The timing system the fight is played under"), "system")
        self.party = tag(widgets.Dropdown(description="Players' side", style={"description_width": "initial"},
                                          layout=lay(width="min(100%, 320px)"),
                                          tooltip="The side the players play: their screen shows it in full"), "party")
        self.dice_mode = tag(widgets.RadioButtons(
            options=[("combatkit rolls what the table does not type (a seed)", "seed"),
                     ("the table rolls everything", "table")], value="table" if table_rolls else "seed",
            layout=lay(width="auto"), tooltip="Who rolls the dice"), "dice-mode")
        self.seed = tag(widgets.IntText(value=1, description="seed",
                                        layout=lay(width="160px"), style={"description_width": "34px"},
                                        tooltip="Seeds the dice nobody types"), "seed")
        self.options_line = tag(widgets.HTML(), "options-in-force")
        self.start = tag(widgets.Button(description="Start the fight", icon="play", button_style="primary",
                                        layout=_BIG, tooltip="Start this encounter as a new fight, with its own link"),
                         "start")
        self.start_box = tag(widgets.Accordion([widgets.VBox([
            self.picker, widgets.HBox([self.system, self.party], layout=lay(flex_flow="row wrap")),
            self.options_line, widgets.HBox([self.dice_mode, self.seed], layout=lay(flex_flow="row wrap",
                                                                                     align_items="center")),
            self.start])], titles=("Start a fight",), selected_index=0), "start-box")

        # -- what stands: heading, links, alert
        self.heading = tag(widgets.HTML(), "heading")
        self.status = tag(widgets.HTML(), "status", "live")
        self.players_link = tag(PlayersLink(), "players-link")
        """The players' link, to copy."""
        self.token_box = tag(widgets.Text(layout=lay(display="none")), "token")
        """The DM's token as a value the page's link follows (hidden)."""
        self.message = tag(widgets.HTML(layout=lay(display="none")), "message")

        # -- the round played: chart and roster
        self.timeline: Timeline | None = None
        """The last round played, as the chart shows it."""
        empty = Timeline("phase1", find_system("phase1").clock, ())
        self.chart = tag(chart_view(placeholder_chart()), "chart")
        self.chart.spec = timeline_spec(timeline_frame(empty), empty.clock)
        self.player = RoundPlayer(lambda: self.timeline, [self.chart])
        self.round_why = tag(widgets.HTML(), "why")
        self.roster = tag(widgets.VBox(), "roster")
        chart_box = widgets.VBox([self.player.controls, self.chart, self.player.now, self.round_why],
                                 layout=lay(flex="1 1 560px", min_width="0"))
        roster_box = widgets.VBox([widgets.HTML("<h4 style='margin:4px 0'>Roster</h4>"), self.roster],
                                  layout=lay(flex="1 1 300px", min_width="0"))
        self.board = tag(widgets.HBox([chart_box, roster_box], layout=lay(flex_flow="row wrap",
                                                                           align_items="flex-start")), "board")

        # -- the next round: intents, dice, play
        self.lines = tag(widgets.VBox(), "lines")
        self.intents_box = tag(widgets.Accordion([self.lines], titles=("What each figure means to do",),
                                                 selected_index=None), "intents-box")
        self.dice_rows = tag(widgets.VBox(), "dice")
        self.clear_dice = tag(widgets.Button(description="Clear the typed dice", icon="eraser",
                                             layout=lay(width="200px"),
                                             tooltip="Empty every box: the seed (or the table) rolls them again"),
                              "clear-dice")
        self.dice_box = tag(widgets.Accordion([widgets.VBox([
            widgets.HTML("<span style='color:#4d5656'>Every roll the round asks for, in the order it is made. Type "
                         "what the table rolled (a total, or each die's face: <code>2, 5</code>) and press Enter; a "
                         "number typed stays until you clear it.</span>"),
            self.dice_rows, self.clear_dice])], titles=("The round's dice",), selected_index=None), "dice-box")
        self.play = tag(widgets.Button(description="Play round", icon="forward", button_style="success",
                                       layout=widgets.Layout(height="56px", min_width="220px"),
                                       tooltip="Play the next round with these intents and dice, and save the fight"),
                        "play")
        self.undo = tag(widgets.Button(description="Undo", icon="undo", layout=_BIG,
                                       tooltip="Take back the last round or ruling"), "undo")
        self.redo = tag(widgets.Button(description="Redo the last round with other dice", icon="repeat",
                                       layout=widgets.Layout(height="48px", min_width="150px", width="auto"),
                                       tooltip="Take back the last round, with every die it used in its box to "
                                               "change"), "redo")
        self.round_heading = tag(widgets.HTML(), "round-heading")
        self.round_box = tag(widgets.VBox([
            self.round_heading, self.intents_box, self.dice_box,
            widgets.HBox([self.play, self.undo, self.redo], layout=lay(flex_flow="row wrap", align_items="center",
                                                                       grid_gap="6px")),
        ]), "round-box")

        # -- the DM's hand
        self.figure = tag(widgets.Dropdown(description="Figure", layout=lay(width="min(100%, 300px)"),
                                           tooltip="The figure the ruling is about"), "hand-figure")
        self.amount = tag(widgets.BoundedIntText(value=1, min=1, max=999, description="hit points",
                                                 style={"description_width": "initial"}, layout=lay(width="190px"),
                                                 tooltip="How many hit points to take or give"), "amount")
        self.damage = tag(widgets.Button(description="Damage", icon="tint", button_style="danger", layout=_BIG,
                                         tooltip="Take these hit points from the figure"), "damage")
        self.heal = tag(widgets.Button(description="Heal", icon="plus", layout=_BIG,
                                       tooltip="Give the figure these hit points back"), "heal")
        self.condition = tag(widgets.Dropdown(options=sorted(((c.name, cid) for cid, c in CONDITIONS.items())),
                                              description="condition", layout=lay(width="min(100%, 300px)"),
                                              tooltip="A condition to put on the figure"), "condition")
        self.rounds = tag(widgets.BoundedIntText(value=1, min=1, max=100, description="rounds",
                                                 layout=lay(width="150px"), tooltip="How many rounds it lasts"),
                          "condition-rounds")
        self.add_condition = tag(widgets.Button(description="Add condition", layout=_BIG,
                                                tooltip="Put the condition on the figure for these rounds"),
                                 "add-condition")
        self.ending = tag(widgets.Dropdown(description="on it", layout=lay(width="min(100%, 300px)"),
                                           tooltip="A condition the figure is under"), "ending")
        self.end_condition = tag(widgets.Button(description="End condition", layout=_BIG,
                                                tooltip="End this condition now"), "end-condition")
        self.new_status = tag(widgets.Dropdown(options=_STATUSES, description="status",
                                               layout=lay(width="min(100%, 240px)"),
                                               tooltip="What becomes of the figure"), "new-status")
        self.set_status = tag(widgets.Button(description="Set status", layout=_BIG,
                                             tooltip="The figure flees, surrenders, dies, falls or is back"),
                              "set-status")
        self.newcomer = tag(widgets.Combobox(placeholder="goblin, 3 orcs, fighter 3", ensure_option=False,
                                             description="Late arrival", style={"description_width": "initial"},
                                             layout=lay(width="min(100%, 320px)"),
                                             tooltip="A monster or a class and level from the books, and how many"),
                            "newcomer")
        self.newcomer_side = tag(widgets.Combobox(description="side", ensure_option=False,
                                                  layout=lay(width="min(100%, 220px)"),
                                                  tooltip="The side they join (a new name makes a new side)"),
                                 "newcomer-side")
        self.join = tag(widgets.Button(description="Join the fight", icon="user-plus", layout=_BIG,
                                       tooltip="They join now, with average hit points"), "join")
        self.ruling_note = tag(widgets.Text(placeholder="why (for the log)", layout=lay(width="min(100%, 300px)"),
                                            tooltip="The DM's reason, logged with the ruling"), "ruling-note")
        row = lay(flex_flow="row wrap", align_items="center", grid_gap="6px")
        self.hand = tag(widgets.VBox([
            widgets.HTML("<h4 style='margin:6px 0'>The DM's hand</h4>"),
            widgets.HBox([self.figure, self.ruling_note], layout=row),
            widgets.HBox([self.amount, self.damage, self.heal], layout=row),
            widgets.HBox([self.condition, self.rounds, self.add_condition], layout=row),
            widgets.HBox([self.ending, self.end_condition], layout=row),
            widgets.HBox([self.new_status, self.set_status], layout=row),
            widgets.HBox([self.newcomer, self.newcomer_side, self.join], layout=row),
        ]), "hand")

        # -- the log and the fight file
        self.fight_log = tag(widgets.HTML(layout=lay(max_height="480px", overflow="auto")), "log")
        self.downloads = tag(widgets.HTML(), "downloads")
        """The log (CSV, text) and the fight's file (TOML) to download, made while the box is open."""
        self.fight_download = round_link(self.fight_document_file, "Download the fight (.html)")
        """The whole fight as one document to print or share, made when clicked (:meth:`fight_document_file`)."""
        self.open_file = tag(OpenFileButton(description="Open a fight file", accept=".toml",
                                            tooltip="Open a fight saved as TOML: it starts again as a new fight, "
                                                    "with its own links"), "open-fight")
        self.log_box = tag(widgets.Accordion([widgets.VBox([
            widgets.HBox([self.downloads, self.fight_download, self.open_file],
                         layout=lay(flex_flow="row wrap", align_items="center")),
            self.fight_log])], titles=("The fight log, and the fight's file",), selected_index=None), "log-box")

        super().__init__([widgets.HTML(_STYLE), self.heading, self.players_link, self.token_box, self.start_box,
                          self.message, self.status, self.board, self.round_box, self.hand, self.log_box])
        tag(self, "table-view", "view")

        self.start.on_click(lambda _: self.start_fight())
        self.play.on_click(lambda _: self.play_round())
        self.undo.on_click(lambda _: self.undo_step())
        self.redo.on_click(lambda _: self.redo_round())
        self.clear_dice.on_click(lambda _: self._clear_dice())
        self.damage.on_click(lambda _: self._rule(OverruleKind.DAMAGE))
        self.heal.on_click(lambda _: self._rule(OverruleKind.HEAL))
        self.add_condition.on_click(lambda _: self._rule(OverruleKind.CONDITION))
        self.end_condition.on_click(lambda _: self._rule(OverruleKind.END_CONDITION))
        self.set_status.on_click(lambda _: self._rule(OverruleKind.STATUS))
        self.join.on_click(lambda _: self.bring_in())
        self.figure.observe(lambda _: self._fill_ending(), "value")
        self.system.observe(lambda _: self._show_options(), "value")
        self.dice_mode.observe(lambda _: self._fit_seed(), "value")
        self.open_file.observe(self._on_file, "value")
        self.log_box.observe(lambda _: self._show_log(), "selected_index")
        self.newcomer.options = tuple(Books().names())

        self.picker.open_example(example)
        if system is not None:
            self.system.value = find_system(system).id
        if seed is not None:
            self.seed.value = seed
        self._fit_seed()
        self._show()

    # ------------------------------------------------------------ links

    def url_params(self) -> list[Param]:
        """The page's link carries the DM's token of the fight under way (``fight``); opening it reopens the fight
        (:meth:`open_fight`), and a token that names none is said so in the alert box."""
        return [Param("fight", _read_token, str, lambda: self.token, self.open_fight)]

    @property
    def players_path(self) -> str:
        """The players' link, relative to this page (``table_players.ipynb?watch=<token>``); ``""``: no fight."""
        return f"{PLAYERS_DASHBOARD}?watch={self.players_token}" if self.players_token else ""

    # ------------------------------------------------------------ starting and opening

    def start_fight(self) -> bool:
        """Start the encounter of the start panel as a new fight (its own tokens, saved at once); False, with the
        reason in the alert box, when it cannot be."""
        if self.encounter is None:
            self._say("start", "Pick an encounter first: an example, a file or pasted TOML.")
            return False
        try:
            fight = TableFight(self.encounter, self.system.value,
                               seed=self.seed.value if self.dice_mode.value == "seed" else None,
                               party=self.party.value)
        except ValueError as error:
            self._say("start", error_words(error))
            return False
        return self._begin(fight, "start")

    def open_fight(self, token: str) -> bool:
        """Open the fight the DM's ``token`` names, as the store keeps it; False, with the reason in the alert box,
        when the token names none or its file does not replay."""
        try:
            text = self.store.load(token)
        except FightNotFound as error:
            self._say("link", f"The fight of this link cannot be opened ({error.why}). Start a new fight below.")
            return False
        except OSError as error:
            self._say("link", f"The fight of this link could not be read from the server's data folder: {error}")
            return False
        try:
            fight = loads_fight(text)
        except ValueError as error:
            self._say("link", f"The fight of this link does not replay: {error_words(error)}")
            return False
        try:
            players: str | None = self.store.players(token)
        except (FightNotFound, OSError):  # kept by a combatkit that did not keep it: the page shows no players' link
            players = None
        self._open(fight, token, players)
        self._say("link", "")
        return True

    def _begin(self, fight: TableFight, source: str) -> bool:
        """Keep ``fight`` under a new pair of tokens and show it; ``source`` says who asked, for the alert box."""
        try:
            dm, players = self.store.new()
        except OSError as error:
            self._say(source, f"The server's data folder cannot keep a fight: {error}")
            return False
        self._open(fight, dm, players)
        self._say(source, "")
        self._say("link", "")
        return True

    def _open(self, fight: TableFight, dm: str, players: str | None) -> None:
        self.fight, self.token, self.players_token = fight, dm, players
        self.typed.clear()
        self.refused.clear()
        self._played_as, self._lines_round = None, None
        self.start_box.selected_index = None
        self.start_box.set_title(0, "Start a new fight")
        self.dice_box.selected_index = 0 if fight.seed is None else None  # every die is typed: the list is open
        self._after_step()
        self.token_box.value = dm

    def _on_encounter(self, encounter: Encounter, _name: str | None) -> None:
        """The start panel's encounter: its own system, seed and sides."""
        self.encounter = encounter
        if encounter.seed is not None:
            self.seed.value = encounter.seed
        self.party.options = encounter.sides
        self.party.value = encounter.combatants[0].side
        try:
            self.system.value = find_system(encounter.system).id
        except ValueError as error:
            self._show_options()
            self._say("start", f"{error_words(error)}: it is played under the system chosen here.")
            return
        self._show_options()
        self._say("start", "")

    def _show_options(self) -> None:
        if self.encounter is None:
            return
        system = find_system(self.system.value)
        words = in_force_words(system.encounter_options(self.encounter), system.options())
        self.options_line.value = (f"<div style='color:#4d5656'><b>Options in force</b> (as the encounter sets "
                                   f"them): {html.escape(words)}</div>")

    def _fit_seed(self) -> None:
        self.seed.layout.display = None if self.dice_mode.value == "seed" else "none"

    # ------------------------------------------------------------ a round

    def play_round(self) -> bool:
        """Play the next round with the intents and the dice as the page holds them, save, and redraw; False, with
        the reason in the alert box, when the rules refuse it (a roll still to type, a number its dice cannot
        roll...), and everything typed stays."""
        fight = self.fight
        if fight is None:
            self._say("round", "Start a fight first.")
            return False
        if self.refused:
            self._say("round", "A die's box holds a number that was not applied: fix it or clear it first.")
            return False
        try:
            fight.play(self.chosen_intents(), self.typed)  # the step keeps the typed rolls the round used
        except ValueError as error:
            self._say("round", error_words(error))
            return False
        self.typed.clear()
        self._played_as = None
        self._after_step()
        return True

    def chosen_intents(self) -> tuple[Intent, ...] | None:
        """The intents the next round is to be played with: None while every line is as the engine proposes, else
        every figure's, the DM's where the DM set them. Raises what the rules refuse of a line."""
        changed: dict[str, tuple[Intent, ...]] = {}
        for name, line in self._lines.items():
            set_here = line.intents()
            if set_here is not None:
                changed[name] = set_here
        if not changed:
            return self._played_as
        kept = tuple(i for i in self._proposed if i.actor not in changed)
        return kept + tuple(i for intents in changed.values() for i in intents)

    def undo_step(self) -> Step | None:
        """Take back the last round or ruling, save, and redraw; a round's typed dice and its intents come back to
        the page. The step taken back, or None (said in the alert box) when there is none."""
        fight = self.fight
        if fight is None:
            return None
        try:
            step = fight.undo()
        except ValueError as error:
            self._say("hand", error_words(error))
            return None
        self.refused.clear()
        if step.overrule is None:
            self.typed = dict(step.rolls or {})
            self._played_as = step.intents
        self._after_step()
        return step

    def redo_round(self) -> bool:
        """Take back the last round with every die it used typed in its box (and its intents), to change the dice
        that were wrong and play it again; refused when the last step is a ruling."""
        fight = self.fight
        if fight is None or not fight.steps:
            self._say("hand", "No round has been played yet.")
            return False
        if fight.steps[-1].overrule is not None:
            self._say("hand", f"The last step is a ruling ({fight.steps[-1].overrule.words()}): undo it first.")
            return False
        used = {d.key: d.value for d in fight.dice}
        if self.undo_step() is None:
            return False
        self.typed = used
        self.dice_box.selected_index = 0
        self._preview()
        return True

    def _on_typed(self, key: str, text: str) -> None:
        """A die's box changed: keep the number (or forget it, for an empty box) and try the round again."""
        die = next((d for d in self.preview.dice if d.key == key), None) if self.preview else None
        try:
            value = parse_entry(text)
            if value is not None and die is not None:
                Roller(entered={key: value}).roll(die.dice, key)  # the dice's own check
        except EnteredRollError as error:
            self.refused[key] = f"{die.purpose if die else key}: {error_words(error)}"
            self._say("dice", bullets(self.refused.values()), escaped=True)
            return
        self.refused.pop(key, None)
        if value is None:
            self.typed.pop(key, None)
        else:
            self.typed[key] = value
        self._say("dice", bullets(self.refused.values()) if self.refused else "", escaped=True)
        self._preview()

    def _clear_dice(self) -> None:
        self.typed.clear()
        self.refused.clear()
        self._say("dice", "")
        self._preview()

    def _preview(self) -> None:
        """Try the next round with the intents and dice the page holds, and list its dice."""
        fight = self.fight
        if fight is None or fight.over:
            self.preview = None
            self.dice_rows.children = ()
            return
        try:
            self.preview = fight.preview(self.chosen_intents(), self.typed)
        except ValueError as error:
            self._say("round", error_words(error))
            return
        self._say("round", "")
        preview, rows = self.preview, []
        for die in preview.dice:
            row = self._die_rows.get(die.key)
            if row is None:
                row = self._die_rows[die.key] = DieRow(die.key, self._on_typed)
            row.show(die, self.typed.get(die.key), seeded=fight.seed is not None,
                     needed=preview.needed is not None and die.key == preview.needed.key,
                     provisional=preview.provisional(die), refused=die.key in self.refused)
            rows.append(row)
        self.dice_rows.children = rows

    # ------------------------------------------------------------ the DM's hand

    def rule(self, ruling: Overrule) -> bool:
        """Apply the DM's ``ruling``, save, and redraw; False, with the reason in the alert box, when the rules
        refuse it."""
        fight = self.fight
        if fight is None:
            self._say("hand", "Start a fight first.")
            return False
        try:
            fight.overrule(ruling)
        except ValueError as error:
            self._say("hand", error_words(error))
            return False
        self._say("hand", "")
        self._after_step()
        return True

    def _rule(self, do: OverruleKind) -> None:
        name = self.figure.value
        if not name:
            self._say("hand", "Pick a figure first.")
            return
        if do is OverruleKind.END_CONDITION and not self.ending.value:
            self._say("hand", f"{name} is under no condition to end.")
            return
        self.rule(Overrule(do, name, amount=self.amount.value, status=self.new_status.value,
                           condition=self.ending.value if do is OverruleKind.END_CONDITION else self.condition.value,
                           rounds=self.rounds.value, note=self.ruling_note.value.strip()))

    def bring_in(self) -> bool:
        """The late arrivals the page names (``3 orcs``, ``fighter 3``) join the fight on the side it names, with
        average hit points, one ruling each; False, with the reason in the alert box, when the books know no such
        thing."""
        fight = self.fight
        if fight is None:
            self._say("hand", "Start a fight first.")
            return False
        what, count = read_search(self.newcomer.value)
        side = self.newcomer_side.value.strip()
        taken = {f.name for f in fight.figures}
        try:
            draft = EncounterDraft.from_encounter(fight.encounter)
            draft.add_from_books(what, count or 1, side=side, average=True)
            newcomers = [c for c in draft.encounter().combatants if c.name not in taken]
            for newcomer in newcomers:
                fight.overrule(Overrule(OverruleKind.JOIN, newcomer.name, combatant=newcomer,
                                        note=self.ruling_note.value.strip()))
        except ValueError as error:
            self._say("hand", error_words(error))
            self._after_step()
            return False
        self._say("hand", "")
        self._after_step()
        return True

    def _on_reveal(self, name: str, shown: bool) -> None:
        if self.fight is None:
            return
        if shown:
            self.fight.revealed.add(name)
        else:
            self.fight.revealed.discard(name)
        self._save()

    def _fill_ending(self) -> None:
        """The conditions the figure picked is under, for **End condition**."""
        on: tuple[ActiveCondition, ...] = ()
        if self.fight is not None and self.figure.value:
            try:
                on = self.fight.figure(self.figure.value).conditions
            except ValueError:
                on = ()
        self.ending.options = [(a.condition.name, a.condition.id) for a in on] or [("none", "")]
        self.ending.value = self.ending.options[0][1]

    # ------------------------------------------------------------ files

    def log_csv_file(self) -> tuple[str, str] | None:
        """The fight log as CSV (:meth:`TableFight.log_rows <combatkit.table.TableFight.log_rows>`): its file name
        and text; None before a fight."""
        if self.fight is None:
            return None
        rows = self.fight.log_rows()
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["round"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return f"{self._file_stem()}-log.csv", out.getvalue()

    def log_text_file(self) -> tuple[str, str] | None:
        """The fight log in words (:meth:`TableFight.log_lines <combatkit.table.TableFight.log_lines>`): its file
        name and text; None before a fight."""
        if self.fight is None:
            return None
        return f"{self._file_stem()}-log.txt", "\n".join(self.fight.log_lines()) + "\n"

    def fight_document_file(self) -> tuple[str, str] | None:
        """The whole fight as one self-contained document (:func:`~combatkit.widgets.views.downloads.round_file`):
        each round's chart, why, what happened (its events and the DM's rulings after it, with their rules) and
        dice; its file name and HTML. None before a round is played."""
        fight = self.fight
        if fight is None or not fight.rounds:
            return None
        system = fight.system
        options = in_force_words(system.encounter_options(fight.start), system.options())
        events = fight.events()
        sections = [RoundSection(f"Round {r.round}", system.title, r.timeline,
                                 timeline_spec(timeline_frame(r.timeline), r.timeline.clock), options,
                                 events=tuple(e.line() for e in events
                                              if e.round == r.round or (r.round == 1 and e.round == 0)))
                    for r in fight.rounds]
        return round_file(fight.start.title, f"{system.id}-fight", sections, seed=fight.seed)

    def fight_toml_file(self) -> tuple[str, str] | None:
        """The fight as a file (TOML) that opens again to this very fight: its name and text; None before a
        fight."""
        if self.fight is None:
            return None
        return f"{self._file_stem()}.toml", self.fight.dumps()

    def open_fight_file(self, text: str) -> bool:
        """Open a fight file's ``text`` as a new fight with its own links; False, with the step and the field in the
        alert box, when it does not replay."""
        try:
            fight = loads_fight(text)
        except ValueError as error:
            self._say("file", f"This fight file does not replay: {error_words(error)}")
            return False
        return self._begin(fight, "file")

    def _on_file(self, change: Any) -> None:
        if not change.new:
            return
        item = change.new[0]
        self.open_file.value = ()  # the same file may be opened again
        try:
            text = bytes(item["content"]).decode("utf-8")
        except UnicodeDecodeError:
            self._say("file", f"{item['name']} is not a fight file: it is not UTF-8 text")
            return
        self.open_fight_file(text)

    def _file_stem(self) -> str:
        assert self.fight is not None
        return f"{slug(self.fight.start.title, 'fight')}-{self.fight.system.id}-round-{self.fight.round}"

    # ------------------------------------------------------------ showing

    def _after_step(self) -> None:
        """The fight changed (started, opened, a round, a ruling, an undo): save it, and show it."""
        self._save()
        self._show()

    def _save(self) -> None:
        if self.fight is None or self.token is None:
            return
        try:
            self.store.save(self.token, self.fight.dumps())
        except (OSError, FightNotFound) as error:
            self._say("save", f"The fight could not be saved on the server, so its link would not reopen this "
                              f"round: {error}. Save the fight's file below to keep it.")
            return
        self._say("save", "")

    def _show(self) -> None:
        """Show the fight as it stands: heading, status, the last round's chart, the roster, the next round's lines
        and dice, the hand's choices, the log."""
        fight = self.fight
        self.players_link.path = self.players_path
        has = fight is not None
        for box in (self.board, self.round_box, self.hand):
            box.layout.display = None if has else "none"
        if fight is None:
            self.heading.value = ("<h3 style='margin:4px 0'>A fight at the table</h3><div style='color:#4d5656'>"
                                  "Pick an encounter, the system and the dice, and start the fight.</div>")
            self.status.value = ""
            return
        self.heading.value = _heading_html(fight)
        self.status.value = _status_html(fight)
        self._show_round()
        self._show_roster()
        self._show_lines()
        self._preview()
        self._show_hand()
        self._show_log()
        over = fight.over
        for box in (self.intents_box, self.dice_box):
            box.layout.display = "none" if over else None
        self.play.disabled = over
        self.play.description = "The fight is over" if over else f"Play round {fight.round + 1}"
        self.undo.disabled = not fight.steps
        self.redo.disabled = not fight.steps or fight.steps[-1].overrule is not None
        self.round_heading.value = ("" if over else f"<h4 style='margin:8px 0 2px'>Round {fight.round + 1}: what "
                                                    "each figure means to do, then the dice</h4>")
        self.dice_box.set_title(0, f"The dice of round {fight.round + 1}" + (
            " (the table rolls everything: type each one)" if fight.seed is None else ""))

    def _show_round(self) -> None:
        """The last round played on the chart, and its events."""
        fight = self.fight
        assert fight is not None
        result = fight.rounds[-1] if fight.rounds else None
        self.timeline = result.timeline if result is not None else Timeline(fight.system.id, fight.system.clock, ())
        self.player.refresh()
        self.chart.spec = timeline_spec(timeline_frame(self.timeline), self.timeline.clock, tick=self.player.tick)
        if result is None:
            self.round_why.value = "<div style='color:#4d5656'>No round played yet.</div>"
            return
        items = "".join(f"<li>{html.escape(line)}</li>" for line in result.why())
        self.round_why.value = (f"<details><summary>Round {result.round}, step by step</summary>"
                                f"<ol style='margin:2px 0'>{items}</ol></details>")

    def _show_roster(self) -> None:
        fight = self.fight
        assert fight is not None
        lines = []
        for row in fight.roster():
            line = self._roster_lines.get(row.name)
            if line is None:
                line = self._roster_lines[row.name] = RosterLine(row.name, self._on_reveal)
            line.show(row, foe=row.side != fight.party, shown=row.name in fight.revealed)
            lines.append(line)
        self.roster.children = lines

    def _show_lines(self) -> None:
        """A line per figure on the field, with what it means to do next round as proposed; the DM's choices stay
        through the rulings before it."""
        fight = self.fight
        assert fight is not None
        keep, self._lines_round = self._lines_round == fight.round, fight.round
        try:
            self._proposed = self._played_as if self._played_as is not None else fight.intents()
        except ValueError as error:
            self._say("round", error_words(error))
            self._proposed = ()
        present = [f for f in fight.figures if is_present(f.status)]
        names = [f.name for f in present]
        lines = []
        for f in present:
            line = self._lines.get(f.name)
            if line is None:
                line = self._lines[f.name] = FigureLine(f.name, self._preview)
            line.show(f.side, tuple(i for i in self._proposed if i.actor == f.name), names,
                      [w.name for w in f.combatant.weapons],
                      [s.name for s in f.combatant.spells if s.name not in f.spells_used], keep=keep)
            lines.append(line)
        self._lines = {line.name: line for line in lines}
        self.lines.children = lines
        self.intents_box.set_title(0, f"What each figure means to do in round {fight.round + 1} (change any)")

    def _show_hand(self) -> None:
        fight = self.fight
        assert fight is not None
        names = [f.name for f in fight.figures]
        keep = self.figure.value
        self.figure.options = names
        self.figure.value = keep if keep in names else (names[0] if names else None)
        self.newcomer_side.options = fight.encounter.sides
        if not self.newcomer_side.value:
            self.newcomer_side.value = next((s for s in fight.encounter.sides if s != fight.party), fight.party)
        self._fill_ending()

    def _show_log(self) -> None:
        """The fight log and the files to download, while their box is open (they grow with every round: sent only
        when read)."""
        if self.fight is None or self.log_box.selected_index is None:
            return
        self.fight_log.value = "<pre>" + html.escape("\n".join(self.fight.log_lines())) + "</pre>"
        files = ((self.log_csv_file(), "text/csv;charset=utf-8", "Download the log (.csv)"),
                 (self.log_text_file(), "text/plain;charset=utf-8", "Download the log (.txt)"),
                 (self.fight_toml_file(), "application/toml", "Save the fight (.toml)"))
        links = [download_link(made[1], made[0], mime, label, style="margin-right:16px")
                 for made, mime, label in files if made is not None]
        self.downloads.value = "".join(link for link in links if link) or (
            "<span>The fight is too long for download links: save it from the notebook with <code>dumps()</code>."
            "</span>")

    def _say(self, source: str, body: str, *, escaped: bool = False) -> None:
        """Say ``body`` in the alert box for ``source`` (``""``: it has nothing more to say); plain text unless
        ``escaped``."""
        if body:
            self.errors[source] = body if escaped else html.escape(body)
        else:
            self.errors.pop(source, None)
        show_alert(self.message, "<br>".join(self.errors.values()))



def _read_token(text: str) -> str:
    """A link's ``fight``: read as given (the store says plainly whether it names a fight), but not overlong."""
    if len(text) > 64:
        raise ValueError("a fight's token is at most 64 letters")
    return text


def _heading_html(fight: TableFight) -> str:
    dice = f"seed {fight.seed}" if fight.seed is not None else "the table rolls everything"
    return (f"<h3 style='margin:4px 0'>{html.escape(fight.start.title)}</h3><div style='color:#4d5656'>"
            f"<b>{html.escape(fight.system.title)}</b> ({html.escape(fight.system.source)}); {html.escape(dice)}; "
            f"the players play {html.escape(fight.party)}.</div>")


def _status_html(fight: TableFight) -> str:
    if fight.over:
        done = fight.fight()
        end = f"side {done.winner} wins" if done.winner else done.undecided_why
        return (f"<div class='ck-round-status' style='font-size:1.1em'><b>The fight is over after round "
                f"{fight.round}</b>: {html.escape(end)}.</div>")
    played = f"Round {fight.round} played" if fight.round else "No round played yet"
    return (f"<div class='ck-round-status' style='font-size:1.1em'><b>{played}.</b> Next: round {fight.round + 1}."
            f"</div>")
