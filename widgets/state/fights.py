"""Fights kept on the server between visits: the table's fight saves itself after every round (#49).

Each fight is a file in the server's data folder (:func:`data_folder`: ``$COMBATKIT_DATA``, else
``$XDG_DATA_HOME/combatkit``, else ``~/.local/share/combatkit``; under it ``fights/``), named by the DM's token, an
unguessable word (:func:`secrets.token_urlsafe`, 128 bits) that the table's link carries (``?fight=<token>``): a closed
tab, a dead kernel or a restarted server reopens the same fight from the link. The players' link carries another
token (``?watch=<token>``), which opens the fight read-only and cannot be turned into the DM's: the file of the
players' token holds only the name of the fight's file, never the DM's token, behind a one-way hash. The DM's token
finds the players' (:meth:`FightStore.players`), so a reopened table shows the players' link again.

A token that is not one (the wrong length or letters) or names no fight is refused by :class:`FightNotFound`,
which says so plainly. Files are written whole and then renamed over the old one, so a reader never sees half.

>>> import tempfile
>>> store = FightStore(tempfile.mkdtemp())
>>> dm, players = store.new()
>>> store.save(dm, "combatkit_fight = 1")
>>> store.load(dm), store.watch(players), store.players(dm) == players
('combatkit_fight = 1', 'combatkit_fight = 1', True)
>>> try:
...     store.load(players)
... except FightNotFound as error:
...     print(error.why)
no fight has this link: it may have been mistyped, or the fight deleted
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from pathlib import Path
from typing import Final

__all__ = ["DATA_ENV", "FightNotFound", "FightStore", "data_folder"]

DATA_ENV: Final = "COMBATKIT_DATA"
"""The environment variable that names the server's data folder."""

_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{22,64}")
"""What a token looks like (:func:`secrets.token_urlsafe` of 16 bytes gives 22 letters)."""


class FightNotFound(LookupError):
    """A link's token that is not one, or that names no fight kept here."""

    def __init__(self, why: str = "no fight has this link: it may have been mistyped, or the fight deleted") -> None:
        super().__init__(why)
        self.why = why


def data_folder() -> Path:
    """The server's data folder (module docstring)."""
    given = os.environ.get(DATA_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "combatkit"


def _name(token: str) -> str:
    """The file name a DM's token keeps its fight under: a hash, so that a listing of the folder shows no token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()[:40]


class FightStore:
    """The fights of one data folder (default :func:`data_folder`)."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else data_folder() / "fights"

    def new(self) -> tuple[str, str]:
        """A new fight's two tokens: the DM's, and the players'."""
        dm, players = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._write(self.folder / f"{_name(players)}.watch", _name(dm))
        self._write(self.folder / f"{_name(dm)}.players", players)
        return dm, players

    def players(self, dm: str) -> str:
        """The players' token of the fight the DM's token ``dm`` names."""
        return self._read(self.folder / f"{_name(self._check(dm))}.players").strip()

    def save(self, dm: str, text: str) -> None:
        """Keep the fight of the DM's token ``dm``."""
        self._check(dm)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._write(self.folder / f"{_name(dm)}.toml", text)

    def load(self, dm: str) -> str:
        """The fight the DM's token ``dm`` names."""
        return self._read(self.folder / f"{_name(self._check(dm))}.toml")

    def watch(self, players: str) -> str:
        """The fight the players' token ``players`` names, read-only."""
        name = self._read(self.folder / f"{_name(self._check(players))}.watch").strip()
        return self._read(self.folder / f"{name}.toml")

    def changed(self, players: str) -> float:
        """When the fight the players' token names was last saved (a file time: larger is later), 0 if never."""
        try:
            name = self._read(self.folder / f"{_name(self._check(players))}.watch").strip()
            return (self.folder / f"{name}.toml").stat().st_mtime_ns / 1e9
        except (FightNotFound, OSError):
            return 0.0

    @staticmethod
    def _check(token: str) -> str:
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise FightNotFound("this is not a fight's link: its token is missing or mistyped")
        return token

    @staticmethod
    def _read(path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise FightNotFound() from None

    @staticmethod
    def _write(path: Path, text: str) -> None:
        part = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        part.write_text(text, encoding="utf-8")
        os.replace(part, path)
