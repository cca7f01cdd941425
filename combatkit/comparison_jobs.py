"""Exact odds of a matchup under every system, worked out off the main thread and kept for the kernel.

Exact odds (:func:`combatkit.odds.matchup_odds`) take from milliseconds to tens of seconds (the number
of dice outcomes that matter). :class:`OddsJobs` works each system's odds out once per encounter and
matchup in a kernel (:func:`_exact_odds` keeps them), off the main thread when an asyncio event loop is
running (in Jupyter and Voila), so a page stays responsive and each system's odds can be shown as they
are ready; outside one (a script, a test) they are worked out at once. ``notify`` is called on the loop
when odds arrive: the page redraws then, reading what is ready (:meth:`OddsJobs.finished`).
:meth:`OddsJobs.settle` works the rest out in the calling thread, for a page that must be whole when it is
sent.

>>> from combatkit import load_example
>>> told = []
>>> jobs = OddsJobs(lambda: told.append(1))
>>> future = jobs.get("phase1", load_example("orc-closes-on-longbowman"), "Aldric", "Grishnak")
>>> future.result().a_first, jobs.pending, told
(Fraction(1, 1), [], [])
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from functools import lru_cache
from typing import TypeAlias

from combatkit.encounter import Encounter
from combatkit.errors import error_words
from combatkit.odds import Matchup, matchup_odds
from combatkit.systems import SYSTEMS

__all__ = ["OddsJobs", "OddsKey"]

OddsKey: TypeAlias = tuple[str, Encounter, str, str]
"""One job: a system's id, the encounter and the matchup's two figures, ``a`` and ``b``."""


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

    def finished(self, keys: Sequence[OddsKey]) -> tuple[dict[str, Matchup], dict[str, str], dict[str, BaseException]]:
        """The jobs of ``keys`` (started now where they were not) that have finished, by system: their odds, the
        engine's refusals (a ValueError, in its words: :func:`~combatkit.errors.error_words`) and the bugs (any
        other exception)."""
        odds: dict[str, Matchup] = {}
        refused: dict[str, str] = {}
        bugs: dict[str, BaseException] = {}
        for key in keys:
            future = self.get(*key)
            if not future.done() or future.cancelled():
                continue
            error = future.exception()
            if error is None:
                odds[key[0]] = future.result()
            elif isinstance(error, ValueError):
                refused[key[0]] = error_words(error)
            else:
                bugs[key[0]] = error
        return odds, refused, bugs

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
