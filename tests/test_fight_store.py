"""Fights kept on the server (#49): the DM's token reopens a fight, the players' token only watches it, and a token
that is not one, or names nothing, is refused plainly."""

import pytest

from combatkit.widgets.state.fights import DATA_ENV, FightNotFound, FightStore, data_folder


def test_the_dm_s_token_saves_and_reopens_and_the_players_token_only_reads(tmp_path):
    store = FightStore(tmp_path)
    dm, players = store.new()
    assert dm != players and len(dm) >= 22
    store.save(dm, "round 1")
    store.save(dm, "round 2")  # written whole over the last
    assert FightStore(tmp_path).load(dm) == "round 2"  # another kernel, the same folder: a restarted server
    assert store.watch(players) == "round 2" and store.changed(players) > 0
    with pytest.raises(FightNotFound, match="no fight has this link"):
        store.load(players)  # the players' token is not the DM's
    with pytest.raises(FightNotFound, match="no fight has this link"):
        store.watch(dm)
    assert not any(dm in p.name or dm in p.read_text() for p in tmp_path.iterdir())  # no file gives the DM's token
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no half-written file left


@pytest.mark.parametrize("token", ["", "short", "../../etc/passwd", "a" * 65, "x" * 30 + "/", None])
def test_a_token_that_is_not_one_is_refused_plainly(tmp_path, token):
    with pytest.raises(FightNotFound, match="this is not a fight's link"):
        FightStore(tmp_path).load(token)
    assert FightStore(tmp_path).changed(token) == 0.0


def test_the_data_folder_is_the_environment_s_or_the_user_s(monkeypatch, tmp_path):
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "mine"))
    assert data_folder() == tmp_path / "mine"
    assert FightStore().folder == tmp_path / "mine" / "fights"
    monkeypatch.delenv(DATA_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_folder() == tmp_path / "xdg" / "combatkit"
