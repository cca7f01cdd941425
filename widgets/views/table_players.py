"""TablePlayersView: the players' view of a fight at the table, read-only, following the DM's page (#49 item 7).

The DM's page (:mod:`combatkit.table` under it) saves the fight to the server's store after every round and ruling
(:class:`~combatkit.widgets.state.fights.FightStore`) and gives the players a link of their own,
``table_players.ipynb?watch=<players' token>``. This view opens the fight that token names, read-only
(:meth:`FightStore.watch <combatkit.widgets.state.fights.FightStore.watch>`: the token cannot be turned into the
DM's), and shows:

* the round number, and who won once the fight is over;
* the current round's timeline, the chart every timeline draws
  (:func:`~combatkit.widgets.charts.timeline.timeline_spec`);
* the party in full (hit points, status, conditions and the rounds they have left), and only the foes the DM has
  revealed (:attr:`TableFight.revealed <combatkit.table.TableFight.revealed>`), with their status and conditions
  and never their hit points (:meth:`TableFight.roster <combatkit.table.TableFight.roster>` ``for_players``);
* the round's events, **what the table saw**: each done by a figure the players see, in the engine's words, and
  each blow or spell that reached one of them from a foe not shown yet, in the view's own words from the event's
  typed fields, which do not name it. The chart has a lane for each figure the players see and none for the others:
  a foe the DM has not revealed has no line in the roster and no lane in the chart, and is named only in what the
  party did to it (they know what they struck). An event whose words would give a foe's hit points as they stand
  (a foe falling dead or unconscious, the engine's ``dies (-3 hp)``; a foe healed) is said in the view's own words
  too.

It follows the DM's fight: about once a second (:attr:`~TablePlayersView.every`) a task on the kernel's event loop
looks at when the fight was last saved (:meth:`FightStore.changed
<combatkit.widgets.state.fights.FightStore.changed>`, a file's time) and, when that changed, reads the fight again
and redraws (:meth:`~TablePlayersView.poll`); the widgets' new values reach the page over the kernel's socket. The
task goes with the kernel, and :meth:`~TablePlayersView.close` cancels it. Where no event loop runs (a script, a
test), nothing polls: call :meth:`~TablePlayersView.poll`.

A viewer changes nothing: the page has no control that acts on the fight and holds no DM's token. A link whose
token is missing, mistyped or names no fight (a fight deleted) says so in the alert box
(:attr:`FightNotFound.why <combatkit.widgets.state.fights.FightNotFound>`), and a link that names no fight yet
is still followed: the fight shows as soon as the DM's page first saves it.

>>> import tempfile
>>> from combatkit import load_example
>>> from combatkit.table import TableFight
>>> from combatkit.widgets.state.fights import FightStore
>>> store = FightStore(tempfile.mkdtemp())
>>> dm, players = store.new()
>>> table = TableFight(load_example("orc-closes-on-longbowman"), seed=4)
>>> table.play().round
1
>>> store.save(dm, table.dumps())
>>> view = TablePlayersView(store)
>>> view.watch(players)
>>> view.table.round, [row.name for row in view.roster]
(1, ['Aldric'])
>>> view.watch("not-a-token")
>>> view.error
"this is not a fight's link: its token is missing or mistyped"
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

import ipywidgets as widgets

from combatkit.battle import FigureStatus
from combatkit.errors import error_words
from combatkit.resolution import Event, EventKind
from combatkit.table import RosterRow, TableFight, loads_fight
from combatkit.timeline import Timeline
from combatkit.widgets.charts.render import ChartSizer, chart_view
from combatkit.widgets.charts.timeline import placeholder_chart, timeline_frame, timeline_spec
from combatkit.widgets.messages import bullets, show_alert
from combatkit.widgets.state.fights import FightNotFound, FightStore
from combatkit.widgets.state.urlstate import Param, parse_query
from combatkit.widgets.views.classes import tag

__all__ = ["TablePlayersView", "seen_events"]

EVERY = 1.0
"""Seconds between two looks at the DM's fight: a round shows on the players' page within about this, plus the
time to read the fight again and redraw."""

_GREY = "color:#4d5656"
_CELL = "padding:2px 10px 2px 0;text-align:left;vertical-align:top"
_UNSEEN_KINDS = frozenset({EventKind.ATTACK, EventKind.EFFECT})
"""What a foe not shown yet does that the table sees: a blow or a spell reaching a figure it sees."""
_FALLEN = frozenset(s.value for s in FigureStatus if s.fallen)
"""The outcomes of a fall whose words give the hit points: dead, unconscious."""
_UNSEEN = "a foe not shown yet"


def _seen(table: TableFight) -> set[str]:
    """The figures the players see: the party, and the foes the DM revealed."""
    return {row.name for row in table.roster(for_players=True)}


def seen_events(table: TableFight) -> list[Event]:
    """The current round's events the table saw (module docstring): each a figure the players see did, and each
    blow or spell that reached one of them from a foe not shown yet."""
    if not table.rounds:
        return []
    seen = _seen(table)
    return [e for e in table.rounds[-1].events
            if e.actor in seen or e.kind in _UNSEEN_KINDS and e.target in seen]


def _states_hit_points(event: Event) -> str | None:
    """The figure whose hit points as they stand ``event``'s words give, or None: a figure falling dead or
    unconscious (the resolution's fall, ``dies (0 hp)``) or healed (``(9 hp)``)."""
    if event.kind is EventKind.FALL and event.outcome in _FALLEN:
        return event.actor
    if event.kind is EventKind.EFFECT and event.outcome == "healed":
        return event.target
    return None


def _words(event: Event, seen: set[str], party: set[str]) -> str:
    """What the players read of ``event``: the engine's words, or the view's own, from its typed fields, where
    those would name a foe not shown yet or give a foe's hit points (:func:`_states_hit_points`)."""
    if event.actor not in seen:
        if event.kind is EventKind.EFFECT:
            result = f"{event.outcome} for {event.amount}" if event.amount else event.outcome
            return f"{event.target} is reached by a spell of {_UNSEEN}: {result}."
        if event.outcome == "hit":
            return f"{_UNSEEN.capitalize()} hits {event.target} for {event.amount}."
        return f"{_UNSEEN.capitalize()} attacks {event.target}: {event.outcome}."
    about = _states_hit_points(event)
    if about is None or about in party:
        return event.why
    return f"{about} is {event.outcome}." if event.kind is EventKind.FALL else f"{about} is healed."


def _event_html(event: Event, seen: set[str], party: set[str]) -> str:
    """One event for the players: when, what (:func:`_words`), and its rule."""
    return (f"<li><b>{html.escape(event.when)}</b>: {html.escape(_words(event, seen, party))} "
            f"<span style='{_GREY};font-size:90%'>[{html.escape(event.rule)}]</span></li>")


def _left(rounds: int | None) -> str:
    return "until removed" if rounds is None else f"{rounds} round{'s' if rounds != 1 else ''} left"


def _conditions(row: RosterRow) -> str:
    """A figure's conditions and the rounds each has left, in words."""
    return "; ".join(f"{name} ({_left(rounds)})" for name, rounds in row.conditions) or "none"


def _roster_html(rows: list[RosterRow], party: str) -> str:
    """The party with its hit points, then the foes the DM revealed without theirs: two tables, each with its
    caption and column headings."""
    def table(caption: str, heads: list[str], lines: list[list[str]], css: str) -> str:
        head = "".join(f"<th scope='col' style='{_CELL}'>{html.escape(h)}</th>" for h in heads)
        body = "".join("<tr>" + f"<th scope='row' style='{_CELL}'>{html.escape(cells[0])}</th>"
                       + "".join(f"<td style='{_CELL}'>{html.escape(c)}</td>" for c in cells[1:]) + "</tr>"
                       for cells in lines)
        return (f"<table class='{css}' style='border-collapse:collapse;margin:4px 0 10px'>"
                f"<caption style='text-align:left;font-weight:bold;padding:2px 0'>{html.escape(caption)}</caption>"
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")

    ours = [r for r in rows if r.side == party]
    foes = [r for r in rows if r.side != party]
    caption = "The party" if party.lower() == "party" else f"The party ({party})"
    out = table(caption, ["figure", "hit points", "status", "conditions"],
                [[r.name, f"{r.hit_points} of {r.max_hit_points}", r.status
                  + (f", holding {r.holding}" if r.holding else ""), _conditions(r)] for r in ours], "ck-party")
    if foes:
        out += table("Foes in sight", ["figure", "side", "status", "conditions"],
                     [[r.name, r.side, r.status, _conditions(r)] for r in foes], "ck-foes")
    else:
        out += f"<p class='ck-foes' style='{_GREY}'>No foe shown yet: the DM shows each as the party sees it.</p>"
    return out


def _seen_timeline(table: TableFight) -> Timeline:
    """The current round's timeline with a lane for each figure the players see, and none for the others."""
    timeline = table.rounds[-1].timeline
    seen = _seen(table)
    spans = tuple(s for s in timeline.spans if s.actor in seen)
    return Timeline(timeline.system, timeline.clock, spans)


class TablePlayersView(widgets.VBox):
    """The players' view of the fight a players' token names (module docstring). ``store``: the fights of the
    server (default: its data folder); ``every``: seconds between two looks at the DM's fight."""

    def __init__(self, store: FightStore | None = None, *, every: float = EVERY) -> None:
        self.store = store if store is not None else FightStore()
        self.every = every
        """Seconds between two looks at the DM's fight."""
        self.token = ""
        """The players' token of the fight shown (``""``: none given)."""
        self.table: TableFight | None = None
        """The fight as last read; None before one was."""
        self.roster: list[RosterRow] = []
        """What the roster shows: the party in full, the revealed foes without their hit points."""
        self.events: list[Event] = []
        """What the events list shows: the current round's events the table saw (:func:`seen_events`)."""
        self.error = ""
        """What the alert box says, in words (``""``: nothing)."""
        self.link_problems: list[str] = []
        """What the page's link held that is not a fight's players' token (:meth:`open_link`)."""
        self._stamp: float | None = None
        self._task: asyncio.Task | None = None

        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.heading = tag(widgets.HTML(), "heading")
        self.status = tag(widgets.HTML(), "status", "live")
        self.chart = tag(chart_view(placeholder_chart()), "chart")
        """The current round's timeline; each redraw replaces its ``spec``."""
        self.roster_box = tag(widgets.HTML(), "roster", "wide")
        self.why = tag(widgets.HTML(), "why")
        self.body = widgets.VBox([self.heading, self.status, self.chart, self.roster_box, self.why],
                                 layout=widgets.Layout(display="none"))
        super().__init__([self.message, ChartSizer(), self.body])
        tag(self, "table-players")

    # ------------------------------------------------------------ the link

    def url_params(self) -> list[Param]:
        """The one key the page's link carries: ``watch``, the players' token (the store judges it)."""
        return [Param("watch", str, str, lambda: self.token, self.watch)]

    def open_link(self, query: str | None) -> None:
        """Open the fight the page's query string names (``watch=<players' token>``), read against
        :meth:`url_params`; anything else the link holds is named in the alert box and left out."""
        parsed = parse_query(query, self.url_params())
        self.link_problems = parsed.problems
        self.watch(parsed.values.get("watch", ""))

    def watch(self, token: str) -> None:
        """Show the fight of the players' token ``token`` and follow it (or say why there is none)."""
        self._stop()
        self.token, self._stamp, self.table = token, None, None
        self.poll()
        if token:
            self._follow()

    # ------------------------------------------------------------ following the DM's fight

    def poll(self) -> bool:
        """Look once at when the fight was last saved and, if that changed, read it again and redraw; whether it
        redrew."""
        stamp = self.store.changed(self.token)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        self._read()
        return True

    def _follow(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop runs (a script, a test): poll() by hand
            return
        self._task = loop.create_task(self._following())

    async def _following(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.poll()

    def _stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def close(self) -> None:
        """Stop following the fight, and close the view's widgets."""
        self._stop()
        super().close()

    # ------------------------------------------------------------ drawing

    def _read(self) -> None:
        """Read the fight again and show it; a token that names none, or a file that does not replay, is said in
        the alert box."""
        try:
            table = loads_fight(self.store.watch(self.token))
        except FightNotFound as error:
            self.table = None
            self._say(error.why)
            return
        except ValueError as error:  # a fight file the rules refuse (edited by hand): the last one read stays
            self._say(f"This fight's file does not replay: {error_words(error)}")
            return
        self.table = table
        self._say("")
        self._draw(table)

    def _say(self, words: str) -> None:
        """Say ``words`` (and what the link held besides a token) in the alert box, or hide it; show the fight
        only while there is one."""
        self.error = words
        lines = ([words] if words else []) + self.link_problems
        headline = ("No fight to show." if self.table is None else "The page shows the last state it read.") \
            if words else "Part of this link was left out."
        show_alert(self.message, f"<b>{headline}</b>{bullets(lines)}" if lines else "")
        self.body.layout.display = "none" if self.table is None else None

    def _draw(self, table: TableFight) -> None:
        party = table.party
        self.roster = table.roster(for_players=True)
        self.events = seen_events(table)
        self.heading.value = (f"<h2 style='margin:4px 0;font-size:1.3em'>{html.escape(table.start.title)}</h2>"
                              f"<div style='{_GREY}'>{html.escape(table.system.title)}: the players' view, "
                              f"read-only. It follows the DM's page.</div>")
        if not table.round:
            where = "The fight has not begun: round 1 shows here once the DM plays it."
        elif table.over:
            fight = table.fight()
            outcome = f"{fight.winner} win" if fight.winner else fight.undecided_why
            where = f"Round {table.round}: the fight is over ({outcome})."
        else:
            where = f"Round {table.round}."
        self.status.value = (f"<div class='ck-round' style='font-size:1.15em;font-weight:bold;margin:6px 0'>"
                             f"{html.escape(where)}</div>")
        if table.rounds:
            timeline = _seen_timeline(table)
            self.chart.spec = timeline_spec(timeline_frame(timeline), timeline.clock, title=f"Round {table.round}")
        self.chart.layout.display = None if table.rounds else "none"
        self.roster_box.value = _roster_html(self.roster, party)
        seen = {row.name for row in self.roster}
        ours = {row.name for row in self.roster if row.side == party}
        items = "".join(_event_html(e, seen, ours) for e in self.events) or "<li>Nothing the party saw.</li>"
        self.why.value = ("" if not table.rounds else
                          f"<div style='max-width:1000px'><h3 style='margin:6px 0;font-size:1.1em'>What the table "
                          f"saw in round {table.round}</h3><ol style='padding-left:1.4em'>{items}</ol></div>")
