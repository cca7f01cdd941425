"""Encounter prep by Monte Carlo: N fights from one seed, as plain rows.

A DM asks "how often does the party win, in how many rounds, who goes down, how often does
the mage's spell get off?" under a timing system; :func:`simulate` plays the encounter out
``n`` times with :func:`combatkit.fight.run_fight` and answers in plain rows (lists of dicts)
that a notebook or dashboard turns into a pandas frame (the engine itself never imports pandas):

>>> from combatkit import load_example
>>> sim = simulate(load_example("orc-closes-on-longbowman"), n=20, seed=7)
>>> len(sim.fights), sorted(sim.fights[0])[:4]
(20, ['end', 'fallen', 'fight', 'refused'])
>>> sim.fights == simulate(load_example("orc-closes-on-longbowman"), n=20, seed=7).fights
True

Reproducible: fight ``i`` of a run with master seed ``s`` is played from
:func:`fight_seed` ``(s, i)``, which depends on nothing else, so the first 100 fights of a
10,000-fight run are the 100 fights of a 100-fight run, and :func:`replay` re-plays any one
of them with every event explained.

**On every core.** ``workers=2`` (or ``None``: every core this process may use) plays the
fights in that many processes, handed out in chunks of :data:`CHUNK` fights and gathered back
in index order, so the rows are the very rows of a serial run, in the same order, whatever the
number of workers. A worker keeps what its chunks of a run work out once and look up again (the policies,
plans and placed rounds of :func:`~combatkit.fight.run_fight`'s cache) for all of them, as this process does
for a run it plays alone. The default is ``workers=1``, this process alone: a pool of processes
starts a fresh Python (a *forkserver* where the platform has one, else *spawn*; never a bare
fork, which is unsafe in a Jupyter kernel's threads) that imports the main module again, so a
script that asks for workers must keep its top-level code under ``if __name__ == "__main__":``
and be a file (not piped on stdin); the engine does not impose that on a plain call. Notebooks,
Voila and the REPL need nothing. Runs of fewer than :data:`PARALLEL_FROM` fights are played in this
process whatever ``workers`` says: starting the pool would cost more than it saves.

**Beyond one machine.** ``executor=`` takes any :class:`concurrent.futures.Executor` (anything whose
``submit(fn, *args)`` returns a future with ``.result()``): a ``ThreadPoolExecutor``, a pool of your
own, or a Dask cluster's (``distributed.Client("tcp://scheduler:8786").get_executor()``). The chunks
are submitted to it, at most :data:`IN_FLIGHT` at a time, and gathered back in index order as a pool
of ``workers`` is, so the rows are again the very rows of a serial run; every run is sent there, however
short. The executor is the caller's: :func:`simulate` never shuts it down; when the run stops early
(a precision reached, an error, a progress callback that raised) the chunks not yet begun are
cancelled and the ones being played are left to finish, their rows unused. Its workers must be able
to import combatkit. ``workers`` and ``executor`` are two answers to one question, who plays the
fights: give one (``workers`` other than its default 1 beside an executor is refused).

>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     sim = simulate(load_example("orc-closes-on-longbowman"), n=120, seed=7, executor=pool)
>>> sim.fights == simulate(load_example("orc-closes-on-longbowman"), n=120, seed=7).fights
True

**Stopping early.** ``precision=0.02`` stops the run once every outcome's rate is known to
±2%: each side's win rate and the share of fights nobody won, by the half-width of its 95%
Wilson interval (:func:`wilson_interval`). The check is made after every :data:`CHUNK` fights
in index order (fights 0-49, 0-99, ...), never on whichever process finishes first, so the same
``(seed, n, precision)`` stops after the same fights whatever ``workers`` is. ``n`` is then
the most fights played; :attr:`Simulation.stopped` says why the run ended:

>>> sim = simulate(load_example("orc-closes-on-longbowman"), n=2000, seed=7, precision=0.05)
>>> len(sim.fights) < sim.requested, sim.stopped.value, sim.half_width() <= 0.05
(True, 'precision reached', True)

Every die is rolled: the numbers a referee entered in the encounter (``Encounter.rolls``) and
its seed are not used. Fights run on the fast path (``explain=False``): the same dice and the
same outcome as the explained path, without building the explanations (the test suite checks
the two paths against each other, fight by fight).
"""

from __future__ import annotations

import enum
import functools
import hashlib
import math
import multiprocessing
import numbers
import os
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from combatkit.encounter import Encounter
from combatkit.errors import RulesError, is_whole
from combatkit.fight import Fight, FightOptions, run_fight

__all__ = ["CHUNK", "IN_FLIGHT", "PARALLEL_FROM", "Simulation", "StopReason", "SystemRunError", "available_cores",
           "fight_seed", "replay", "simulate", "simulate_systems", "wilson_interval"]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)``: for a progress bar."""

CHUNK = 50
"""Fights per chunk: what a worker process is handed at a time, and how often ``precision`` is checked
(after fights 50, 100, 150... in index order, whatever the number of workers)."""
PARALLEL_FROM = 2 * CHUNK
"""Fewest fights played in worker processes; shorter runs stay in this process. A pool of two starts
in about 0.03 s once the forkserver runs (0.5 s for the first of a session), and a 4-vs-4 fight
takes 4-10 ms: from two whole chunks on, two cores save more than the pool costs
(``benchmarks/parallel.py``: 100 fights in 0.90 s on one process, 0.70 s on two)."""
IN_FLIGHT = 64
"""Most chunks out at once on a caller's ``executor`` (3,200 fights): two for each of 32 worker threads, so
a cluster of up to 32 is kept busy while the chunk next in index order is awaited. A run stopped early
cancels those not begun. (A pool of ``workers`` processes has two chunks a process out.)"""
_RULE = "combatkit simulation"
_Rows = tuple[dict[str, object], list[dict[str, object]]]


class StopReason(enum.Enum):
    """Why a :func:`simulate` run ended."""

    COUNT = "n reached"
    """All ``n`` fights were played (and, if a precision was asked for, it was not reached by then)."""
    PRECISION = "precision reached"
    """Every outcome's rate was known to the precision asked for, at a :data:`CHUNK` boundary."""


def fight_seed(seed: int, index: int) -> int:
    """The seed of fight ``index`` (from 0) of a run with master ``seed``: 63 bits of BLAKE2b.

    >>> fight_seed(7, 0) == fight_seed(7, 0) != fight_seed(7, 1)
    True
    """
    digest = hashlib.blake2b(f"combatkit simulation {seed} {index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default): a win rate's uncertainty.

    >>> [round(x, 3) for x in wilson_interval(30, 100)]
    [0.219, 0.396]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _widest(counts: dict[str | None, int], trials: int) -> float:
    """The largest half-width of the 95% Wilson intervals of ``counts`` out of ``trials``."""
    return max((high - low) / 2 for low, high in (wilson_interval(k, trials) for k in counts.values()))


def available_cores() -> int:
    """The CPU cores this process may run on (its affinity where the platform says, else every core):
    what ``workers=None`` uses."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Simulation:
    """The rows of a Monte Carlo run."""

    title: str
    """The encounter's title."""
    system: str
    """The timing system's id."""
    seed: int
    """The master seed."""
    fights: list[dict[str, object]] = field(default_factory=list, repr=False)
    """One row per fight played: ``fight`` (index), ``seed``, ``system``, ``winner`` (None: undecided),
    ``end``, ``rounds``, ``fallen`` (figures out of the fight at the end, ``;``-separated),
    ``spells_attempted``, ``spells_succeeded``, ``refused`` (see :meth:`combatkit.fight.Fight.row`)."""
    figures: list[dict[str, object]] = field(default_factory=list, repr=False)
    """One row per figure per fight: ``fight``, ``figure``, ``side``, ``status``, ``fell``,
    ``fell_round``, ``hit_points``, ``damage_dealt``, ``damage_taken``, ``attacks``, ``hits``,
    ``spells_attempted``, ``spells_succeeded``..., and ``no_effect_data``: the spells it cast that went
    off with no effect data (``;``-separated, one name a casting; see :meth:`no_effect_data`)."""
    requested: int = 0
    """``n``: the fights asked for. ``len(fights)`` were played: fewer when ``precision`` was reached first."""
    precision: float | None = None
    """The half-width the run was to stop at (0.02: ±2%), or None: play all ``n``."""
    stopped: StopReason = StopReason.COUNT
    """Why the run ended."""

    @property
    def sides(self) -> list[str]:
        """The encounter's sides, in the order of its figures."""
        return list(dict.fromkeys(str(row["side"]) for row in self.figures))

    def half_width(self) -> float:
        """The widest 95% Wilson half-width among the outcomes: each side's win rate (a side that never
        won too) and the share of fights nobody won; what ``precision`` is checked against. 0.5 when no
        fight was played.

        >>> from combatkit import load_example
        >>> round(simulate(load_example("orc-closes-on-longbowman"), n=100, seed=7).half_width(), 3)
        0.018
        """
        counts: dict[str | None, int] = dict.fromkeys(self.sides, 0) | {None: 0}
        for row in self.fights:
            winner = cast("str | None", row["winner"])
            counts[winner] = counts.get(winner, 0) + 1
        return _widest(counts, len(self.fights))

    def no_effect_data(self) -> dict[str, int]:
        """Castings that went off with no effect data, by spell name: the engine applied nothing for them,
        so a page can flag the spell (give it an ``effect`` in the encounter file,
        :mod:`combatkit.effects`). Empty when every spell cast had its effect.

        >>> from combatkit import load_example
        >>> sorted(simulate(load_example("ct9-spell-vs-sword"), n=10, seed=1).no_effect_data())
        ['time stop']
        """
        counts: dict[str, int] = {}
        for row in self.figures:
            for name in str(row.get("no_effect_data") or "").split(";"):
                if name:
                    counts[name] = counts.get(name, 0) + 1
        return counts

    def undecided(self) -> dict[str, int]:
        """The fights nobody won, by why (:attr:`Fight.undecided_why <combatkit.fight.Fight.undecided_why>`).

        >>> from combatkit import load_example
        >>> simulate(load_example("ct9-spell-vs-sword"), n=10, seed=1).undecided()
        {'still fighting at the round limit': 10}
        """
        counts: dict[str, int] = {}
        for row in self.fights:
            why = str(row.get("undecided") or "")
            if why:
                counts[why] = counts.get(why, 0) + 1
        return counts

    def summary(self) -> dict[str, object]:
        """Plain numbers: wins by side with a 95% Wilson interval, mean rounds, how often each
        figure fell, the spell success rate, the castings with no effect data by spell name
        (:meth:`no_effect_data`), why the fights nobody won ended so (:meth:`undecided`), and the fights asked for
        and why the run stopped."""
        n = len(self.fights)
        wins: dict[str, int] = {}
        for row in self.fights:
            key = str(row["winner"]) if row["winner"] is not None else "undecided"
            wins[key] = wins.get(key, 0) + 1
        fell: dict[str, int] = {}
        for row in self.figures:
            fell[str(row["figure"])] = fell.get(str(row["figure"]), 0) + bool(row["fell"])
        attempted = sum(int(row["spells_attempted"]) for row in self.fights)  # type: ignore[call-overload]
        succeeded = sum(int(row["spells_succeeded"]) for row in self.fights)  # type: ignore[call-overload]
        return {
            "fights": n,
            "wins": {side: {"count": k, "rate": k / n, "interval": wilson_interval(k, n)} for side, k in wins.items()},
            "mean_rounds": sum(int(row["rounds"]) for row in self.fights) / n if n else 0.0,  # type: ignore[call-overload]
            "fell": {name: k / n for name, k in fell.items()},
            "spell_success": succeeded / attempted if attempted else None,
            "no_effect_data": self.no_effect_data(),
            "undecided": self.undecided(),
            "requested": self.requested,
            "stopped": self.stopped.value,
        }


def _prepared(encounter: Encounter) -> Encounter:
    return replace(encounter, rolls={}, seed=None)


def _play(encounter: Encounter, system: str | None, seed: int, index: int, options: FightOptions,
          system_options: object, cache: dict) -> _Rows:
    """Fight ``index``'s row and its figures' rows (``cache``: the chunk's, :func:`~combatkit.fight.run_fight`)."""
    fight = run_fight(encounter, system, seed=fight_seed(seed, index), options=options,
                      system_options=system_options, explain=False, cache=cache)
    figures = fight.figure_rows()
    for row, figure in zip(figures, fight.figures, strict=True):
        row["no_effect_data"] = ";".join(figure.no_effect_data)
    return fight.row(), figures


RUN_CACHES = 4
"""Caches a worker keeps (:func:`_run_cache`), one a run and thread: the most recent ones."""
_RUN_CACHES: OrderedDict[tuple[str, int], dict] = OrderedDict()


def _run_cache(run: str) -> dict:
    """The cache (:func:`~combatkit.fight.run_fight`) this worker's chunks of run ``run`` share, as the chunks of a
    run played in the caller's process share one: the policies, plans and placed rounds a run meets again and
    again are worked out once a worker, not once a chunk of :data:`CHUNK` fights. One a thread (an executor's
    threads may play two chunks of a run at once); the :data:`RUN_CACHES` most recent are kept."""
    key = (run, threading.get_ident())
    cache = _RUN_CACHES.pop(key, None)
    _RUN_CACHES[key] = cache = {} if cache is None else cache
    while len(_RUN_CACHES) > RUN_CACHES:
        _RUN_CACHES.popitem(last=False)
    return cache


def _play_chunk(encounter: Encounter, system: str | None, seed: int, start: int, stop: int, options: FightOptions,
                system_options: object, run: str) -> tuple[list[_Rows], tuple[type, tuple, dict] | None]:
    """Fights ``start`` to ``stop - 1`` of run ``run`` (a token :func:`simulate` draws for each), in a worker
    process or wherever the caller's executor plays it. Bad input (a ``ValueError``, e.g. a declaration the
    system refuses) ends the chunk: the rows before it come back with the error's class, arguments and
    attributes, for the caller to raise after them (combatkit's errors take two arguments, which pickle cannot
    rebuild)."""
    rows: list[_Rows] = []
    cache = _run_cache(run)
    try:
        for index in range(start, stop):
            rows.append(_play(encounter, system, seed, index, options, system_options, cache))
    except ValueError as error:
        return rows, (type(error), error.args, dict(vars(error)))
    return rows, None


def _rebuilt(failure: tuple[type, tuple, dict]) -> ValueError:
    kind, args, attributes = failure
    error = kind.__new__(kind, *args)  # sets args; __init__ is not called
    error.__dict__.update(attributes)
    return error


class _Tally:
    """The rows gathered in index order, the wins counted, and the progress callback fed."""

    def __init__(self, encounter: Encounter, n: int, step: int, progress: Progress | None,
                 precision: float | None) -> None:
        self.fights: list[dict[str, object]] = []
        self.figures: list[dict[str, object]] = []
        self.wins: dict[str | None, int] = dict.fromkeys((c.side for c in encounter.combatants), 0) | {None: 0}
        self.n, self.step, self.progress, self.precision = n, step, progress, precision

    def add(self, rows: _Rows) -> None:
        fight, figures = rows
        index = len(self.fights)
        self.fights.append({"fight": index, **fight})
        self.figures.extend({"fight": index, **row} for row in figures)
        winner = cast("str | None", fight["winner"])
        self.wins[winner] = self.wins.get(winner, 0) + 1
        done = index + 1
        if self.progress is not None and (done % self.step == 0 or done == self.n):
            self.progress(done, self.n)

    def precise(self) -> bool:
        """Every outcome is known to the precision asked for (checked at chunk boundaries only)."""
        return self.precision is not None and _widest(self.wins, len(self.fights)) <= self.precision

    def finish(self) -> None:
        """The last progress call of a run stopped early."""
        done = len(self.fights)
        if self.progress is not None and done < self.n and done % self.step:
            self.progress(done, self.n)


def _context() -> multiprocessing.context.BaseContext:
    """Forkserver where the platform has it (a pool after the first starts in milliseconds, its
    workers forked from a clean server that has imported the engine once), else spawn; never fork.

    The server imports the engine before it is told this process's path (Python 3.11's forkserver
    starts with the working folder first on its path and ignores the one it is given), so from a folder
    holding another ``combatkit`` (a checkout, run with the compiled wheel installed) it would preload
    that one. There the workers import the engine themselves, after their path is set: the same one as
    this process, a little slower to start."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        shadow = Path.cwd() / "combatkit"
        mine = Path(__file__).resolve().parent
        context.set_forkserver_preload([] if shadow.is_dir() and shadow.resolve() != mine else [__name__])
        return context
    return multiprocessing.get_context("spawn")


def _check(n: object, seed: object, every: object, workers: object, precision: object, executor: object) -> None:
    if not is_whole(n) or n < 0:
        raise RulesError(_RULE, f"n is the number of fights, 0 or more; got {n!r}")
    if not is_whole(seed):
        raise RulesError(_RULE, f"seed is a whole number, the master seed of the run's fights; got {seed!r}")
    if every is not None and (not is_whole(every) or every < 1):
        raise RulesError(_RULE, f"every is 1 or more fights, got {every!r}")
    if workers is not None and (not is_whole(workers) or workers < 1):
        raise RulesError(_RULE, f"workers is 1 or more processes (None: every core), got {workers!r}")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, numbers.Real)
                                  or not 0 < float(precision) <= 0.5):
        raise RulesError(_RULE, f"precision is a half-width above 0 and at most 0.5 (0.02: ±2%), or None; "
                                f"got {precision!r}")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise RulesError(_RULE, f"executor is a concurrent.futures.Executor (anything with submit), or None; "
                                f"got {executor!r}")
    if executor is not None and workers != 1:
        raise RulesError(_RULE, f"workers or executor says who plays the fights, not both: an executor plays "
                                f"them all, leave workers at 1; got workers={workers!r} with an executor")


def simulate(encounter: Encounter, system: str | None = None, *, n: int = 1000, seed: int = 0,
             options: FightOptions = FightOptions(), system_options: object = None,
             progress: Progress | None = None, every: int | None = None, workers: int | None = 1,
             precision: float | None = None, executor: Executor | None = None) -> Simulation:
    """Play ``encounter`` ``n`` times under ``system`` (default the encounter's) from master ``seed``.

    ``workers`` processes play the fights (``None``: :func:`available_cores`; 1: this process,
    also for runs under :data:`PARALLEL_FROM` fights); or ``executor``, any
    :class:`concurrent.futures.Executor` (a Dask cluster's ``client.get_executor()``), plays every
    chunk of the run, however short, and is left running: it is the caller's. Give one of the two:
    ``workers`` other than 1 beside an executor is refused. ``precision`` (0.02: ±2%) stops the run
    after the first :data:`CHUNK` boundary at which every outcome's 95% Wilson half-width is at
    most that. The rows are the same whoever plays them (module docstring).

    ``progress(done, n)`` is called in this process every ``every`` fights (default: about 100 times
    a run) and at the end; with workers or an executor, a chunk's calls come together when the chunk
    is back. Raising from it (a Stop button) ends the run, and the pool with it (an executor's chunks
    not yet begun are cancelled).
    """
    _check(n, seed, every, workers, precision, executor)
    prepared = _prepared(encounter)
    tally = _Tally(encounter, n, every if every is not None else max(1, n // 100), progress, precision)
    chunks = [(start, min(start + CHUNK, n)) for start in range(0, n, CHUNK)]
    processes = min(workers if workers is not None else available_cores(), len(chunks))
    if executor is not None:
        reached = _gathered(executor, IN_FLIGHT, prepared, system, seed, options, system_options, chunks, tally)
    elif processes > 1 and n >= PARALLEL_FROM:
        reached = _in_processes(prepared, system, seed, options, system_options, chunks, tally, processes)
    else:
        reached = _here(prepared, system, seed, options, system_options, chunks, tally)
    return _simulation(encounter, system, seed, n, precision, tally, reached)


def _simulation(encounter: Encounter, system: str | None, seed: int, n: int, precision: float | None, tally: _Tally,
                reached: bool) -> Simulation:
    """The run's :class:`Simulation`, once its last rows are in ``tally`` (``reached``: it stopped at the
    precision)."""
    tally.finish()
    system_id = str(tally.fights[0]["system"]) if tally.fights else system or encounter.system
    return Simulation(encounter.title, system_id, seed, tally.fights, tally.figures, requested=n,
                      precision=precision, stopped=StopReason.PRECISION if reached else StopReason.COUNT)


def _here(encounter: Encounter, system: str | None, seed: int, options: FightOptions, system_options: object,
          chunks: list[tuple[int, int]], tally: _Tally) -> bool:
    """The chunks played in this process, sharing one cache; True if the run stopped at the precision asked for."""
    cache: dict = {}
    for start, stop in chunks:
        for index in range(start, stop):
            tally.add(_play(encounter, system, seed, index, options, system_options, cache))
        if tally.precise():
            return True
    return False


def _in_processes(encounter: Encounter, system: str | None, seed: int, options: FightOptions,
                  system_options: object, chunks: list[tuple[int, int]], tally: _Tally, processes: int) -> bool:
    """The chunks played by a pool of ``processes``, two chunks a process in flight (:func:`_gathered`). The
    pool is shut down on the way out, whatever happens: chunks not begun are cancelled, the ones being played
    are waited for."""
    pool = ProcessPoolExecutor(processes, mp_context=_context())
    try:
        return _gathered(pool, 2 * processes, encounter, system, seed, options, system_options, chunks, tally)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _gathered(executor: Executor, width: int, encounter: Encounter, system: str | None, seed: int,
              options: FightOptions, system_options: object, chunks: list[tuple[int, int]], tally: _Tally) -> bool:
    """The chunks submitted to ``executor``, at most ``width`` in flight, and gathered in index order; True if
    the run stopped at the precision asked for. A chunk's error is raised after its rows, as a serial run
    raises it. On the way out, whatever happens, the chunks not begun are cancelled; the executor is left
    as it was (its owner shuts it down)."""
    waiting = iter(chunks)
    flight: deque[Future] = deque()
    run = uuid.uuid4().hex

    def submit() -> None:
        chunk = next(waiting, None)
        if chunk is not None:
            flight.append(executor.submit(_play_chunk, encounter, system, seed, *chunk, options, system_options, run))

    try:
        for _ in range(width):
            submit()
        while flight:
            rows, failure = flight.popleft().result()
            submit()
            for row in rows:
                tally.add(row)
            if failure is not None:
                raise _rebuilt(failure)
            if tally.precise():
                return True
        return False
    finally:
        for future in flight:
            future.cancel()


SystemsProgress = Callable[[str, int, int], None]
"""Called as ``progress(system, done, total)`` by :func:`simulate_systems`."""


class SystemRunError(ValueError):
    """Bad input one system's run of :func:`simulate_systems` met (a declaration that system refuses): the
    ``system``, and the ``error`` its run raised (also this error's cause)."""

    def __init__(self, system: str, error: ValueError) -> None:
        super().__init__(system, error)
        self.system, self.error = system, error

    def __str__(self) -> str:
        return f"under {self.system}: {self.error}"


def simulate_systems(encounter: Encounter, systems: Sequence[str], *, n: int = 1000, seed: int = 0,
                     options: FightOptions = FightOptions(), progress: SystemsProgress | None = None,
                     every: int | None = None, workers: int | None = 1,
                     precision: float | None = None) -> list[Simulation]:
    """``encounter`` played under each of ``systems``, as encounter prep compares them: one :class:`Simulation`
    a system, in their order, each the very run of ``simulate(encounter, system, n=n, seed=seed,
    options=options, precision=precision)``, the runs played side by side.

    With ``workers`` processes (``None``: :func:`available_cores`), each process plays one system's run at a
    time, its chunks in index order sharing one cache (as this process plays a run alone), then begins the
    next system not yet begun; a process with none left to begin helps a run still being played. A run's
    memo is so filled once, not once a process, and the processes start once for all the systems: encounter
    prep's six systems at ±2% take 6-9% less time than six :func:`simulate` calls of two workers each
    (``benchmarks/parallel.py``). With one worker, or fewer than :data:`PARALLEL_FROM` fights in all, this
    process plays the runs one after another.

    ``progress(system, done, n)`` is called in this process every ``every`` fights of a system's run (default:
    about 100 times a run) and at its end; with workers, a chunk's calls come together when the chunk is back
    in index order. Raising from it (a Stop button) ends every run and the processes with them. A
    ``ValueError`` one system's run meets (a declaration that system refuses) ends them all too, raised as a
    :class:`SystemRunError` that names the system.
    """
    for system in systems:
        if not isinstance(system, str):
            raise RulesError(_RULE, f"systems are timing system ids such as 'phase1'; got {system!r}")
    _check(n, seed, every, workers, precision, None)
    step = every if every is not None else max(1, n // 100)
    processes = workers if workers is not None else available_cores()
    if processes > 1 and n * len(systems) >= PARALLEL_FROM:
        return _in_lanes(_prepared(encounter), tuple(systems), seed, options, n, step, precision, progress,
                         processes)
    out = []
    for system in systems:
        told = None if progress is None else functools.partial(progress, system)
        try:
            out.append(simulate(encounter, system, n=n, seed=seed, options=options, progress=told, every=step,
                                precision=precision))
        except SystemRunError:
            raise
        except ValueError as error:
            raise SystemRunError(system, error) from error
    return out


class _Lane:
    """One system's run in :func:`_in_lanes`: its chunks handed out and come back, the rows gathered in index
    order."""

    def __init__(self, encounter: Encounter, system: str, n: int, step: int, precision: float | None,
                 progress: SystemsProgress | None) -> None:
        self.system = system
        told = None if progress is None else functools.partial(progress, system)
        self.tally = _Tally(encounter, n, step, told, precision)
        self.token = uuid.uuid4().hex
        self.sent = 0
        """Chunks handed out, in index order."""
        self.back: dict[int, tuple[list[_Rows], tuple[type, tuple, dict] | None]] = {}
        self.gathered = 0
        """Chunks whose rows are in the tally."""
        self.over = False
        self.reached = False

    def gather(self, chunks: int) -> None:
        """The rows of the chunks back, in index order, up to the first one missing; the run is over at the
        precision or after its last chunk. A chunk's error is raised after its rows, as a serial run raises it."""
        while not self.over and self.gathered in self.back:
            rows, failure = self.back.pop(self.gathered)
            self.gathered += 1
            for row in rows:
                self.tally.add(row)
            if failure is not None:
                error = _rebuilt(failure)
                raise SystemRunError(self.system, error) from error
            self.reached = self.tally.precise()
            self.over = self.reached or self.gathered == chunks


def _in_lanes(encounter: Encounter, systems: tuple[str, ...], seed: int, options: FightOptions, n: int, step: int,
              precision: float | None, progress: SystemsProgress | None, processes: int) -> list[Simulation]:
    """:func:`simulate_systems` on ``processes`` processes, each a pool of one so that a system's chunks go to the
    process that holds its cache, two chunks a process out. The pools are shut down on the way out, whatever
    happens: chunks not begun are cancelled, the ones being played are waited for."""
    chunks = [(start, min(start + CHUNK, n)) for start in range(0, n, CHUNK)]
    runs = [_Lane(encounter, system, n, step, precision, progress) for system in systems]
    pools = [ProcessPoolExecutor(1, mp_context=_context()) for _ in range(min(processes, len(runs) * len(chunks)))]
    owners: list[_Lane | None] = [None] * len(pools)
    waiting = deque(runs)
    flight: dict[Future, tuple[int, _Lane, int]] = {}

    def open_(run: _Lane | None) -> bool:
        return run is not None and not run.over and run.sent < len(chunks)

    def next_for(pool: int) -> _Lane | None:
        if not open_(owners[pool]):
            owners[pool] = waiting.popleft() if waiting else next((run for run in runs if open_(run)), None)
        return owners[pool] if open_(owners[pool]) else None

    def fill() -> None:
        for pool, executor in enumerate(pools):
            while sum(1 for held, _, _ in flight.values() if held == pool) < 2:
                run = next_for(pool)
                if run is None:
                    break
                flight[executor.submit(_play_chunk, encounter, run.system, seed, *chunks[run.sent], options, None,
                                       run.token)] = (pool, run, run.sent)
                run.sent += 1

    try:
        fill()
        while flight:
            finished, _ = wait(list(flight), return_when=FIRST_COMPLETED)
            for future in finished:
                _, run, index = flight.pop(future)
                if not run.over:
                    run.back[index] = future.result()
                    run.gather(len(chunks))
            fill()
    finally:
        for future in flight:
            future.cancel()
        for executor in pools:
            executor.shutdown(wait=True, cancel_futures=True)
    return [_simulation(encounter, run.system, seed, n, precision, run.tally, run.reached) for run in runs]


def replay(encounter: Encounter, index: int, system: str | None = None, *, seed: int = 0,
           options: FightOptions = FightOptions(), system_options: object = None) -> Fight:
    """Fight ``index`` of a :func:`simulate` run with the same arguments, every event explained."""
    return run_fight(_prepared(encounter), system, seed=fight_seed(seed, index), options=options,
                     system_options=system_options, explain=True)
