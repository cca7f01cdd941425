"""The DM's page for a fight at the table (#49), headless: controls set and buttons clicked as a DM would, the
roster, the dice boxes and the fight the store keeps read back. Each test keeps its fights in its own folder."""

import html
import json

import pytest

from combatkit.resolution import EventKind
from combatkit.table import loads_fight
from combatkit.widgets.app.landing import LEARN, dashboards, landing
from combatkit.widgets.app.serve import dashboards_dir, lessons_dir
from combatkit.widgets.state.fights import FightStore
from combatkit.widgets.state.urlstate import CopyLink, shareable
from combatkit.widgets.views.table import TableView


@pytest.fixture
def store(tmp_path):
    return FightStore(tmp_path / "fights")


def view_of(store, example="goblin-ambush", **kwargs) -> TableView:
    view = TableView(example, store=store, **kwargs)
    view.start.click()
    assert view.errors == {}
    return view


def link_of(page) -> str:
    return next(w for w in page.children if isinstance(w, CopyLink)).query


def boxes(view) -> dict[str, str]:
    return {row.key: row.box.value for row in view.dice_rows.children}


def row_of(view, key):
    return next(row for row in view.dice_rows.children if row.key == key)


def alert(view) -> str:
    """What the alert box says, as the page shows it (its HTML's text unescaped)."""
    return html.unescape(view.message.value) if view.message.layout.display != "none" else ""


def saved(view, store):
    return loads_fight(store.load(view.token))


# ------------------------------------------------------------ start, link, reopen


def test_a_fight_started_is_saved_at_once_and_the_page_s_link_carries_the_dm_s_token(store):
    view = TableView("goblin-ambush", seed=3, store=store)
    page = shareable(view, "")
    assert link_of(page) == "" and view.fight is None and view.board.layout.display == "none"
    view.start.click()
    assert link_of(page) == f"fight={view.token}"
    again = saved(view, store)
    assert again.round == 0 and again.seed == 3 and again.system.id == "phase1" and again.party == "party"
    assert view.players_path == f"table_players.ipynb?watch={view.players_token}"
    assert view.players_link.path == view.players_path
    assert store.watch(view.players_token) == store.load(view.token)  # the players' page reads this very fight
    assert "Goblin ambush" in view.heading.value and "seed 3" in view.heading.value
    assert [line.info.value.count("HP") for line in view.roster.children] == [1] * 11
    assert view.play.description == "Play round 1" and view.undo.disabled and view.start_box.selected_index is None


def test_the_start_panel_takes_the_system_the_side_and_the_table_s_dice(store):
    view = TableView("fighter-and-mage-vs-orc-archer", store=store)
    assert view.system.value == "phase1" and view.party.options == ("party", "orcs")
    assert "Options in force" in view.options_line.value
    view.system.value, view.party.value, view.dice_mode.value = "segments", "orcs", "table"
    assert view.seed.layout.display == "none"
    view.start.click()
    fight = saved(view, store)
    assert (fight.system.id, fight.party, fight.seed) == ("segments", "orcs", None)
    assert "the table rolls everything" in view.heading.value


def test_a_link_reopens_the_fight_as_it_stood_with_the_players_link(store):
    view = view_of(store, seed=2)
    view.play.click()
    view.figure.value, view.amount.value = "Brienne", 3
    view.damage.click()
    view.play.click()
    reopened = TableView(store=store)
    page = shareable(reopened, f"fight={view.token}")
    assert reopened.errors == {} and reopened.fight.round == 2
    assert reopened.fight.roster() == view.fight.roster() and reopened.fight.events() == view.fight.events()
    assert reopened.players_path == view.players_path and link_of(page) == f"fight={view.token}"
    assert [line.info.value for line in reopened.roster.children] == [line.info.value for line in view.roster.children]
    assert reopened.play.description == "Play round 3"


@pytest.mark.parametrize("token, said", [
    ("nonsense", "this is not a fight's link: its token is missing or mistyped"),
    ("A" * 22, "no fight has this link: it may have been mistyped, or the fight deleted"),
])
def test_a_wrong_or_stale_link_is_said_plainly_and_a_new_fight_can_still_start(store, token, said):
    view = TableView(store=store)
    page = shareable(view, f"fight={token}")
    assert view.fight is None and said in alert(view) and 'role="alert"' in alert(view)
    assert link_of(page) == ""  # the link does not keep a token that opens nothing
    view.start.click()
    assert view.fight is not None and alert(view) == "" and link_of(page) == f"fight={view.token}"


def test_a_saved_fight_that_no_longer_replays_is_said_plainly(store):
    view = view_of(store, seed=1)
    store.save(view.token, store.load(view.token).replace('system = "phase1"', 'system = "phase9"'))
    other = TableView(store=store)
    assert not other.open_fight(view.token)
    assert "does not replay" in alert(other) and "phase9" in alert(other)


# ------------------------------------------------------------ a round: intents and dice


def test_every_roll_of_the_round_is_listed_with_the_seed_s_number_greyed(store):
    view = view_of(store, "orc-closes-on-longbowman", seed=4)
    keys = [d.key for d in view.preview.dice]
    assert [row.key for row in view.dice_rows.children] == keys
    first = row_of(view, keys[0])
    assert first.box.value == "" and first.box.placeholder  # the encounter file's initiative, greyed
    assert "encounter file" in first.state.value
    rolled = row_of(view, "attack roll: Aldric [round 1, #1]")
    assert rolled.box.placeholder and "from the seed" in rolled.state.value
    assert "attack roll: Aldric [round 1, tick 4]" in rolled.what.value and "(d20)" in rolled.what.value


def test_a_typed_number_stays_through_every_change_and_never_changes_another_box(store):
    view = view_of(store, "orc-closes-on-longbowman", seed=4)
    shot, other = "attack roll: Aldric [round 1, #1]", "attack roll: Aldric [round 1, #2]"
    assert other not in boxes(view)  # the seed's first arrow kills: no second shot
    row_of(view, shot).box.value = "2"  # the table's first arrow misses: a second shot is asked for
    assert view.typed == {shot: 2} and boxes(view)[other] == ""
    assert "typed at the table" in row_of(view, shot).state.value
    line = view._lines["Grishnak"]
    line.do.value = "attack"  # a change of intent tries the round again: the typed number stays
    assert boxes(view)[shot] == "2" and view.typed == {shot: 2}
    row_of(view, other).box.value = "21"  # a d20 cannot roll 21: refused, the text kept, the others unchanged
    assert "cannot have been rolled" in alert(view) and boxes(view)[other] == "21" and view.typed == {shot: 2}
    assert not view.play_round() and view.fight.round == 0
    row_of(view, other).box.value = "3"
    assert alert(view) == "" and view.typed == {shot: 2, other: 3}
    row_of(view, shot).box.value = "20"  # the first arrow kills after all: no second shot, its number kept
    assert other not in boxes(view) and view.typed == {shot: 20, other: 3}
    row_of(view, shot).box.value = "2"
    assert boxes(view)[other] == "3"
    row_of(view, shot).box.value = "20"
    view.play.click()
    played = {d.key: d.value for d in view.fight.dice}
    assert view.fight.round == 1 and played[shot] == 20 and other not in played
    assert saved(view, store).steps[0].rolls == {shot: 20}  # only the rolls the round asked for
    assert view.typed == {} and view.fight.over and boxes(view) == {} and view.play.disabled


def test_the_table_rolls_everything_marks_the_roll_to_type_next_and_greys_the_rest(store):
    view = view_of(store, "orc-closes-on-longbowman", table_rolls=True)
    assert view.dice_box.selected_index == 0
    needed = view.preview.needed
    assert needed.key == "attack roll: Aldric [round 1, #1]"
    marked = [row.key for row in view.dice_rows.children if "ck-die-needed" in row._dom_classes]
    greyed = [row.key for row in view.dice_rows.children if "ck-die-provisional" in row._dom_classes]
    assert marked == [needed.key] and greyed == [d.key for d in view.preview.dice if view.preview.provisional(d)]
    assert greyed and all(row_of(view, key).box.placeholder == "" for key in greyed)  # the stand-in dice say nothing
    assert "type this roll next" in row_of(view, needed.key).state.value
    view.play.click()
    assert view.fight.round == 0 and "round 1 needs 'attack roll: Aldric [round 1, tick 4]' (d20)" in alert(view)
    while view.preview.needed is not None:
        row_of(view, view.preview.needed.key).box.value = "2"  # every shot and blow misses
    view.play.click()
    assert view.fight.round == 1 and alert(view) == ""
    assert all(d.typed for d in view.fight.dice)


def test_a_figure_s_line_changes_what_it_does_and_the_rest_play_as_proposed(store):
    view = view_of(store, seed=1)
    assert view.chosen_intents() is None  # as proposed: the engine's own intents
    mira = view._lines["Mira"]
    assert "cast sleep at Goblin 3" in mira.proposal.value
    mira.do.value = "attack"
    assert mira.target.value == "Goblin 3" and mira.using.options[0] == ("its routine", "")
    mira.target.value = "Goblin 1"
    view.figure.value = "Goblin 2"
    view.damage.click()  # a ruling before the round changes no one's choice
    assert (mira.do.value, mira.target.value) == ("attack", "Goblin 1")
    chosen = view.chosen_intents()
    assert [i.words() for i in chosen if i.actor == "Mira"] == ["attack Goblin 1"]
    assert [i for i in chosen if i.actor != "Mira"] == [i for i in view.fight.intents() if i.actor != "Mira"]
    view.play.click()
    result = view.fight.rounds[-1]
    assert [(e.kind, e.target) for e in result.events if e.actor == "Mira" and e.kind is EventKind.ATTACK] == [
        (EventKind.ATTACK, "Goblin 1")]
    assert not [e for e in result.events if e.kind is EventKind.SPELL and e.actor == "Mira"]
    assert saved(view, store).steps[1].intents == chosen
    assert view._lines["Mira"].do.value == ""  # the next round starts as proposed


def test_a_line_the_rules_refuse_is_said_and_the_round_is_not_played(store):
    view = view_of(store, seed=1)
    line = view._lines["Brienne"]
    line.do.value = "away"
    line.target.value = ""
    assert "moves away, but from whom" in alert(view)
    view.play.click()
    assert view.fight.round == 0 and line.do.value == "away"  # the choice stays, to fix


# ------------------------------------------------------------ the DM's hand, undo, redo


def test_the_dm_s_hand_rules_and_each_ruling_is_logged_and_saved(store):
    view = view_of(store, seed=1)
    view.play.click()
    view.figure.value, view.amount.value, view.ruling_note.value = "Brienne", 4, "a falling rock"
    before = view.fight.figure("Brienne").hit_points
    view.damage.click()
    assert view.fight.figure("Brienne").hit_points == before - 4
    assert f"HP <b>{before - 4}</b>" in view._roster_lines["Brienne"].info.value
    view.heal.click()
    view.condition.value, view.rounds.value = "prone", 2
    view.add_condition.click()
    assert "prone (stunned) (2 rounds left)" in view._roster_lines["Brienne"].info.value
    assert view.ending.options == (("prone (stunned)", "prone"),)
    view.end_condition.click()
    view.new_status.value = "fled"
    view.set_status.click()
    view.newcomer.value, view.newcomer_side.value = "2 wolves", "goblins"
    view.join.click()
    assert alert(view) == "" and {"Wolf 1", "Wolf 2"} <= {f.name for f in view.fight.figures}
    rulings = [e for e in saved(view, store).events() if e.rule == "the DM's ruling"]
    assert [e.outcome for e in rulings] == ["damage", "heal", "condition", "end condition", "status", "join", "join"]
    assert "a falling rock" in rulings[0].why
    assert "Wolf 1" in view._lines and view._roster_lines["Brienne"].info.value.count("fled") == 1


def test_a_ruling_the_rules_refuse_is_said_and_nothing_changes(store):
    view = view_of(store, seed=1)
    view.newcomer.value = "dragonfly of doom"
    view.join.click()
    assert "dragonfly of doom" in alert(view) and view.fight.steps == []
    view.figure.value = "Mira"
    view.end_condition.click()  # she is under none
    assert view.fight.steps == [] and alert(view)


def test_undo_takes_back_a_round_with_its_typed_dice_and_a_ruling(store):
    view = view_of(store, "orc-closes-on-longbowman", seed=4)
    shot = "attack roll: Aldric [round 1, #1]"
    row_of(view, shot).box.value = "3"
    view.play.click()
    view.figure.value = "Grishnak"
    view.damage.click()
    view.undo.click()  # the ruling
    assert len(view.fight.steps) == 1 and saved(view, store).steps == view.fight.steps
    view.undo.click()  # the round: its typed die comes back
    assert view.fight.round == 0 and view.typed == {shot: 3} and boxes(view)[shot] == "3"
    assert view.undo.disabled and saved(view, store).round == 0


def test_redo_takes_back_the_last_round_with_every_die_in_its_box_to_change(store):
    view = view_of(store, "orc-closes-on-longbowman", seed=1)
    view.play.click()
    played = view.fight.figures
    used = {d.key: d.value for d in view.fight.dice}
    view.redo.click()
    assert view.fight.round == 0 and view.typed == used and view.dice_box.selected_index == 0
    assert all(boxes(view)[key] for key in used)
    view.play.click()
    assert view.fight.figures == played  # the same dice: the same round
    view.figure.value = "Grishnak"
    view.damage.click()
    view.redo.click()  # a ruling came after: undo it first
    assert "undo it first" in alert(view) and view.fight.round == 1


def test_show_to_players_marks_a_foe_revealed_and_saves_it(store):
    view = view_of(store, seed=1)
    assert view._roster_lines["Brienne"].reveal.layout.display == "none"
    leader = view._roster_lines["Hobgoblin leader"]
    leader.reveal.value = True
    assert view.fight.revealed == {"Hobgoblin leader"} and saved(view, store).revealed == {"Hobgoblin leader"}
    view.play.click()
    view.undo.click()  # the players keep seeing him
    assert saved(view, store).revealed == {"Hobgoblin leader"} and leader.reveal.value


# ------------------------------------------------------------ the log and the fight's file


def test_the_log_downloads_as_csv_and_text_and_the_fight_as_a_file_that_opens_again(store):
    view = view_of(store, seed=1)
    assert view.fight_log.value == view.downloads.value == ""  # sent only when read
    view.play.click()
    view.log_box.selected_index = 0
    assert "Goblin ambush" in view.fight_log.value and view.downloads.value.count("<a download=") == 3
    name, text = view.log_csv_file()
    assert name == "goblin-ambush-a-party-of-four-against-six-goblins-and-a-hobgoblin-phase1-round-1-log.csv"
    assert text.splitlines()[0] == "round,tick,when,actor,kind,target,outcome,amount,hit_points,rule,why"
    assert len(text.splitlines()) == len(view.fight.events()) + 1
    assert view.log_text_file()[1].splitlines() == view.fight.log_lines()
    name, toml = view.fight_toml_file()
    assert name.endswith("-round-1.toml") and toml == view.fight.dumps()
    first = view.token
    assert view.open_fight_file(toml)
    assert view.token != first and view.fight.figures == loads_fight(toml).figures
    assert saved(view, store).figures == view.fight.figures and loads_fight(store.load(first)).round == 1


def test_a_fight_file_that_does_not_replay_is_refused_by_its_step_and_field(store):
    view = view_of(store, "orc-closes-on-longbowman", seed=4)
    row_of(view, "attack roll: Aldric [round 1, #1]").box.value = "20"
    view.play.click()
    token = view.token
    bad = view.fight.dumps().replace("= 20", "= 40")
    view.open_file.value = ({"name": "fight.toml", "content": memoryview(bad.encode())},)
    assert not view.open_file.value and view.token == token
    assert "steps[0] (after round 0).rolls" in alert(view) and "40 cannot have been rolled" in alert(view)


# ------------------------------------------------------------ the landing page and the lesson


def test_the_landing_page_lists_the_table_first_for_dms_and_not_the_players_view():
    page = landing(dashboards_dir(), lessons_dir())
    assert page.dashboards[0].path == "table.ipynb" and page.dashboards[0].order == 1
    assert "table_players.ipynb" not in {card.path for card in page.dashboards}
    assert page.card("table.ipynb").companion == f"{LEARN}/table_teaching.ipynb"
    lesson = page.card(f"{LEARN}/table_teaching.ipynb")
    assert lesson.title == "Running a fight at the table" and lesson.companion == "table.ipynb"


def test_a_hidden_notebook_has_no_card_and_numbered_dashboards_come_first(tmp_path):
    for name, meta in (("zeta", {"order": 1}), ("alpha", {}), ("secret", {"hidden": True}),
                       ("shown", {"hidden": "yes"})):
        cells = [{"cell_type": "markdown", "id": "intro", "metadata": {}, "source": [f"# {name.title()}\n", "Line."]}]
        (tmp_path / f"{name}.ipynb").write_text(json.dumps({"cells": cells, "metadata": {"combatkit": meta},
                                                            "nbformat": 4, "nbformat_minor": 5}))
    assert [card.title for card in dashboards(tmp_path)] == ["Zeta", "Alpha", "Shown"]


def test_the_whole_fight_downloads_as_one_document_with_each_round_and_its_rulings(tmp_path):
    from combatkit.table import Overrule, OverruleKind

    view = TableView("orc-closes-on-longbowman", seed=4, store=FightStore(tmp_path))
    assert view.fight_document_file() is None  # nothing played yet
    view.start_fight()
    view.fight.overrule(Overrule(OverruleKind.DAMAGE, "Grishnak", amount=1, note="a thrown stone"))
    view.play_round()
    name, text = view.fight_document_file()
    assert name.endswith("-phase1-fight-seed-4.html")
    assert "Round 1 (Combat II: Phase System I" in text and "What happened" in text
    assert "The DM rules: Grishnak takes 1 damage (a thrown stone)." in text
    assert "Seed 4: every die nobody entered was rolled with it" in text
