"""The players' view of a fight at the table (#49 item 7): what it shows and hides, how it follows the DM's saves,
and what a bad link says (:mod:`combatkit.widgets.views.table_players`)."""

import asyncio
import html
import json
import time
import tomllib
from pathlib import Path

import ipywidgets as widgets
import pytest
import tomli_w

from combatkit import example_encounters, load_example
from combatkit.resolution import EventKind
from combatkit.table import TableFight
from combatkit.widgets.state.fights import FightStore
from combatkit.widgets.views.table_players import TablePlayersView

ROOT = Path(__file__).resolve().parents[1]


def saved(store: FightStore, dm: str, table: TableFight) -> None:
    """Save ``table`` as the DM's page does, a little after the last save (a file's time moves in steps of a few
    milliseconds)."""
    time.sleep(0.02)
    store.save(dm, table.dumps())


@pytest.fixture
def fight(tmp_path):
    """A goblin ambush after round 1, the hobgoblin leader shown to the players, saved; the store and both
    tokens."""
    store = FightStore(tmp_path)
    dm, players = store.new()
    table = TableFight(load_example("goblin-ambush"), seed=3)
    table.revealed = {"Hobgoblin leader"}
    table.play()
    saved(store, dm, table)
    return table, store, dm, players


def opened(store: FightStore, players: str) -> TablePlayersView:
    view = TablePlayersView(store)
    view.open_link(f"watch={players}")
    return view


def texts(widget: widgets.Widget) -> list[str]:
    """Every value the view's widgets send to the page: HTML, and each chart's spec as JSON."""
    out, stack = [], [widget]
    while stack:
        item = stack.pop()
        if isinstance(item, widgets.HTML):
            out.append(item.value)
        if hasattr(item, "spec"):
            out.append(json.dumps(item.spec))
        stack.extend(getattr(item, "children", ()))
    return out


def test_it_shows_the_round_the_party_in_full_and_only_the_foes_shown_without_their_hit_points(fight):
    table, store, dm, players = fight
    view = opened(store, players)
    assert view.error == "" and view.body.layout.display is None and view.message.layout.display == "none"
    assert "Round 1." in view.status.value and "goblin ambush" in view.heading.value.lower()
    party = [f for f in table.figures if f.side == table.party]
    assert [row.name for row in view.roster] == [f.name for f in party] + ["Hobgoblin leader"]
    for f in party:
        assert f"{f.hit_points} of {f.max_hit_points}" in view.roster_box.value
    leader = table.figure("Hobgoblin leader")
    assert view.roster[-1].hit_points is None and view.roster[-1].max_hit_points is None
    assert f"of {leader.max_hit_points}<" not in view.roster_box.value.split("Foes in sight")[1]
    assert "Goblin 1" not in view.roster_box.value  # asleep, and never shown to the players
    lanes = {row["actor"] for row in view.chart.spec["datasets"]["actions"]}
    assert lanes == {f.name for f in party} | {"Hobgoblin leader"}
    assert view.chart.spec["title"]["text"] == "Round 1"
    seen = {row.name for row in view.roster}
    assert view.events and all(e.actor in seen or e.target in seen for e in view.events)
    assert {e.round for e in view.events} == {1}


def test_no_control_on_the_page_and_no_dm_s_token(fight):
    table, store, dm, players = fight
    view = opened(store, players)
    stack, found = [view], []
    while stack:
        item = stack.pop()
        found.append(item)
        stack.extend(getattr(item, "children", ()))
    assert not [w for w in found if isinstance(w, widgets.Button)]
    assert {type(w) for w in found if isinstance(w, widgets.ValueWidget)} == {widgets.HTML}  # words, no input
    assert not [text for text in texts(view) if dm in text]
    assert dm not in repr(vars(view)) and view.token == players


def test_a_foe_not_shown_yet_has_no_lane_and_its_blows_on_the_party_are_told_without_its_name(tmp_path):
    store = FightStore(tmp_path)
    dm, players = store.new()
    table = TableFight(load_example("orc-closes-on-longbowman"), seed=3)  # Grishnak, never shown, strikes Aldric
    table.play()
    saved(store, dm, table)
    view = opened(store, players)
    assert [row.name for row in view.roster] == ["Aldric"]
    assert "No foe shown yet" in view.roster_box.value
    assert {row["actor"] for row in view.chart.spec["datasets"]["actions"]} == {"Aldric"}
    blows = [e for e in table.rounds[-1].events if e.actor == "Grishnak" and e.kind is EventKind.ATTACK]
    assert blows and all(e in view.events for e in blows)
    for blow in blows:
        assert html.escape(blow.why) not in view.why.value
    assert "A foe not shown yet attacks Aldric: miss." in view.why.value
    assert not [e for e in view.events if e.actor == "Grishnak" and e.kind is EventKind.MOVE]  # unseen: not told


@pytest.mark.parametrize("example", sorted(example_encounters()))
def test_no_foe_s_hit_points_are_told_in_any_round_of_any_example(tmp_path, example):
    store = FightStore(tmp_path)
    dm, players = store.new()
    table = TableFight(load_example(example), seed=3)
    table.revealed = {f.name for f in table.figures if f.side != table.party}  # every foe shown: every event told
    view = TablePlayersView(store)
    while not table.over and table.round < 6:
        table.play()
        saved(store, dm, table)
        view.watch(players)
        foes = {f.name for f in table.figures if f.side != table.party}
        for e in table.rounds[-1].events:
            tells = (e.kind is EventKind.FALL and e.outcome in ("dead", "unconscious") and e.actor in foes
                     or e.outcome == "healed" and e.target in foes)
            if tells:
                assert html.escape(e.why) not in view.why.value
                assert html.escape(f"{e.target if e.outcome == 'healed' else e.actor} is ") in view.why.value
        assert all(row.hit_points is None for row in view.roster if row.name in foes)


def test_the_poll_redraws_when_the_dm_saves_another_round_and_only_then(fight):
    table, store, dm, players = fight
    view = opened(store, players)
    assert view.poll() is False  # nothing saved since
    table.revealed.add("Goblin 1")
    table.play()
    saved(store, dm, table)
    assert view.poll() is True
    assert "Round 2." in view.status.value and {e.round for e in view.events} == {2}
    assert "Goblin 1" in [row.name for row in view.roster]
    assert view.chart.spec["datasets"]["actions"] and view.poll() is False


def test_it_follows_on_the_kernel_s_event_loop_and_stops_when_closed(fight):
    table, store, dm, players = fight

    async def at_the_table() -> tuple[int, bool]:
        view = TablePlayersView(store, every=0.05)
        view.open_link(f"watch={players}")
        task = view._task
        table.play()
        saved(store, dm, table)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if view.table.round == 2:
                break
        view.close()
        await asyncio.sleep(0)
        return view.table.round, task.cancelled()

    assert asyncio.run(at_the_table()) == (2, True)


def test_without_an_event_loop_nothing_polls(fight):
    table, store, dm, players = fight
    assert opened(store, players)._task is None


@pytest.mark.parametrize("query, why", [
    ("", "this is not a fight's link: its token is missing or mistyped"),
    ("watch=", "this is not a fight's link: its token is missing or mistyped"),
    ("watch=../../etc/passwd", "this is not a fight's link: its token is missing or mistyped"),
    ("watch=" + "x" * 22, "no fight has this link: it may have been mistyped, or the fight deleted"),
])
def test_a_missing_wrong_or_unknown_token_says_so_plainly(tmp_path, query, why):
    view = TablePlayersView(FightStore(tmp_path))
    view.open_link(query)
    assert view.error == why and view.table is None
    assert 'role="alert"' in view.message.value and html.escape(why) in view.message.value
    assert view.message.layout.display is None and view.body.layout.display == "none"
    assert "Traceback" not in view.message.value


def test_a_stale_link_says_so_and_a_file_that_does_not_replay_keeps_the_last_round(fight):
    table, store, dm, players = fight
    view = opened(store, players)
    time.sleep(0.02)
    edited = tomllib.loads(table.dumps())
    edited["steps"].append({"do": "jump"})  # edited by hand into a step no one makes
    store.save(dm, tomli_w.dumps(edited))
    assert view.poll() is True
    assert "does not replay: steps[1] (after round 1).do: is round or one of damage" in view.error
    assert view.body.layout.display is None and "Round 1." in view.status.value
    assert "last state it read" in view.message.value
    for path in store.folder.glob("*.toml"):
        path.unlink()  # the fight deleted: the players' link is stale
    assert view.poll() is True
    assert view.error == "no fight has this link: it may have been mistyped, or the fight deleted"
    assert view.body.layout.display == "none"


def test_what_else_the_link_holds_is_named_and_left_out(fight):
    table, store, dm, players = fight
    view = TablePlayersView(store)
    view.open_link(f"watch={players}&fight={dm}")
    assert view.table is not None and view.error == ""
    assert "Part of this link was left out" in view.message.value
    assert "is not a setting of this dashboard (it knows watch)" in view.message.value
    assert dm not in view.message.value  # a key's value is never echoed


def test_a_fight_not_saved_yet_shows_once_the_dm_s_page_saves_it(tmp_path):
    store = FightStore(tmp_path)
    dm, players = store.new()
    view = opened(store, players)
    assert view.error.startswith("no fight has this link") and view.poll() is False
    saved(store, dm, TableFight(load_example("orc-closes-on-longbowman"), seed=4))
    assert view.poll() is True and view.error == ""
    assert "The fight has not begun" in view.status.value and view.chart.layout.display == "none"


def test_the_dashboard_is_hidden_from_the_landing_page_and_reads_watch_from_its_link():
    notebook = json.loads((ROOT / "dashboards" / "table_players.ipynb").read_text(encoding="utf-8"))
    assert notebook["metadata"]["combatkit"]["hidden"] is True
    last = "".join(notebook["cells"][-1]["source"])
    assert "viewer.open_link(get_query_string())" in last
