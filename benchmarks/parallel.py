"""Monte Carlo on every core: one process against a pool, and stopping at a precision. Prints numbers, asserts nothing.

    python benchmarks/parallel.py [--fights 1000] [--workers 2] [--repeat 2] [--precision 0.02] [--systems ids]

For each timing system, ``--fights`` 4-vs-4 fights (``benchmarks/four-vs-four.toml``) are played by
:func:`combatkit.simulation.simulate` with ``workers=1`` (this process) and with ``--workers``
processes, side by side: fights per second, the speed-up, and whether the two runs gave the
same rows (they must). Each column is timed ``--repeat`` times, the two alternating, and the
quickest counts: the shared machine's noise only ever adds time. Then one run per system with
``precision`` (default 0.02: stop once every side's win rate is known to ±2%), at most ``--cap``
fights: how many fights that took, a :func:`~combatkit.simulation.simulate` a system one after another, and
the systems side by side with :func:`~combatkit.simulation.simulate_systems`, as encounter prep plays them (the time
held against prep's goal).

First, what a pool costs to start (the first of a session starts the forkserver; later ones fork
from it) and a short run on one process against the pool: why runs under
:data:`~combatkit.simulation.PARALLEL_FROM` fights stay in one process. The machine's load average
is printed before and after: other work on the cores slows both columns.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from combatkit import load_encounter
from combatkit.simulation import CHUNK, PARALLEL_FROM, _context, available_cores, simulate, simulate_systems

ENCOUNTER = Path(__file__).resolve().parent / "four-vs-four.toml"
SYSTEMS = ("phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed")
PREP_GOAL = 10
"""Seconds in which encounter prep is to have every system's odds at ±2% on 2 cores (#18)."""


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def pool_start(workers: int) -> float:
    """Seconds to start a pool of ``workers`` in the context :func:`simulate` uses, get a trivial answer from each,
    and shut it down."""

    start = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        list(pool.map(abs, range(workers)))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=1000, help="fights per system and column (default 1000)")
    parser.add_argument("--workers", type=int, default=2, help="processes of the pool column (default 2)")
    parser.add_argument("--repeat", type=int, default=2, help="timings per column, the quickest counted (default 2)")
    parser.add_argument("--precision", type=float, default=0.02, help="half-width to stop at (default 0.02)")
    parser.add_argument("--cap", type=int, default=10_000, help="most fights of a precision run (default 10,000)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated system ids")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    encounter = load_encounter(ENCOUNTER)
    systems = args.systems.split(",")
    print(f"{encounter.title}: {len(encounter.combatants)} figures; {available_cores()} cores available; "
          f"start method {_context().get_start_method()}; chunks of {CHUNK} fights; {load()}")

    first, later = pool_start(args.workers), min(pool_start(args.workers) for _ in range(3))
    print(f"pool of {args.workers}: first start {first:.2f} s, later starts {later:.3f} s")
    for n in (CHUNK, PARALLEL_FROM, 2 * PARALLEL_FROM):
        one = timed(lambda: simulate(encounter, systems[0], n=n, seed=args.seed))[1]
        many = timed(lambda: simulate(encounter, systems[0], n=n, seed=args.seed, workers=args.workers))[1]
        where = "one process (under PARALLEL_FROM)" if n < PARALLEL_FROM else f"{args.workers} processes"
        print(f"{n:>5} {systems[0]} fights: 1 process {one:.2f} s; workers={args.workers}: {many:.2f} s, "
              f"played in {where}")

    print(f"\n{args.fights} fights a system: 1 process against {args.workers} worker processes, the quickest of "
          f"{args.repeat}")
    totals = [0.0, 0.0]
    for system in systems:
        ones, manys = [], []
        for _ in range(args.repeat):
            serial, one = timed(lambda: simulate(encounter, system, n=args.fights, seed=args.seed))
            pooled, many = timed(lambda: simulate(encounter, system, n=args.fights, seed=args.seed,
                                                  workers=args.workers))
            ones.append(one)
            manys.append(many)
        one, many = min(ones), min(manys)
        totals[0] += one
        totals[1] += many
        print(f"{system:>12}: 1 process {args.fights / one:6.1f} fights/s; {args.workers} workers "
              f"{args.fights / many:6.1f} fights/s; x{one / many:.2f}; "
              f"rows {'identical' if pooled == serial else 'DIFFER'}")
    count = args.fights * len(systems)
    print(f"{'all':>12}: 1 process {count / totals[0]:6.1f} fights/s ({totals[0]:.1f} s); {args.workers} workers "
          f"{count / totals[1]:6.1f} fights/s ({totals[1]:.1f} s); x{totals[0] / totals[1]:.2f}")

    print(f"\nprecision {args.precision} (±{args.precision:.0%}), at most {args.cap} fights, {args.workers} workers: "
          f"one simulate a system, one after another")
    each = 0.0
    for system in systems:
        sim, seconds = timed(lambda: simulate(encounter, system, n=args.cap, seed=args.seed, workers=args.workers,
                                              precision=args.precision))
        wins = ", ".join(f"{side} {w['rate']:.1%}" for side, w in sim.summary()["wins"].items())
        print(f"{system:>12}: {len(sim.fights):>5} fights ({sim.stopped.value}), widest half-width "
              f"{sim.half_width():.4f}, {seconds:.1f} s; {wins}")
        each += seconds
    print(f"{'all':>12}: {each:.1f} s")
    sims, prep = timed(lambda: simulate_systems(encounter, systems, n=args.cap, seed=args.seed, workers=args.workers,
                                                precision=args.precision))
    same = all(sim == simulate(encounter, sim.system, n=args.cap, seed=args.seed, precision=args.precision)
               for sim in sims[:1])
    print(f"side by side (simulate_systems, what encounter prep runs): {prep:.1f} s for the {len(systems)} systems "
          f"({', '.join(f'{sim.system} {len(sim.fights)}' for sim in sims)} fights; the first system's rows "
          f"{'identical to' if same else 'DIFFER from'} a serial run's), x{each / prep:.2f} over one simulate a "
          f"system, against encounter prep's goal of {PREP_GOAL} s (#18: all six at ±2% on 2 cores)")
    print(load())


if __name__ == "__main__":
    main()
