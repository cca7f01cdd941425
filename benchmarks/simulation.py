"""Monte Carlo benchmark: the fast path's fights a second on one core, against the goal, the recorded baseline and
a straightforward loop. Prints numbers, asserts nothing.

    python benchmarks/simulation.py [--fights 200] [--systems phase1,segments,...]

The goal (#18): :data:`GOAL` four-vs-four fights a second on one core, aiming for :data:`AIM`. Each system's line
gives the runner's fights a second beside them, and the speed-up over :data:`BASELINE`: the same command's
figures before any optimisation, measured on the 2-core development machine (shared with other work, so a
speed-up under about x1.05 is noise). The fights themselves must not change: ``tests/test_fight_digest.py``
holds the engine to the fights recorded then.

For each timing system, 4-vs-4 fights (``benchmarks/four-vs-four.toml``) are played

* by a straightforward loop: one :func:`combatkit.fight.run_fight` per fight through the full
  explained path (every event and explanation built), then the fight's row;
* by :func:`combatkit.simulation.simulate`: the fast path (same dice, same outcome, nothing
  explained), rows for every fight and figure, a progress callback;

and both print fights per second and the time 100,000 fights would take on this core
(earlier target: minutes, not hours). The two must agree fight by fight; a mismatch is printed.

Each chunk is a run of its own, and a run gets quicker as it goes: what it meets again (a round's policy and
plan, a round placed once its dice are rolled) is looked up (``combatkit.systems._memo``). The default, four
chunks of 50, measures short runs; ``--fights 2400 --chunks 1`` one run of an encounter prep's length (about
what ±2% takes).
``benchmarks/parallel.py`` measures the runner on every core (``workers``) and stopping at a precision.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from combatkit import load_encounter
from combatkit.fight import run_fight
from combatkit.simulation import fight_seed, simulate

ENCOUNTER = Path(__file__).resolve().parent / "four-vs-four.toml"
TARGET = 100_000
GOAL, AIM = 1_000, 2_000
"""Four-vs-four fights a second on one core that the fast path is to reach (#18), and what it aims for."""
BASELINE = {
    "date": "2026-11-27",
    "machine": "the 2-core development machine (AMD EPYC, shared: load average 1.8-1.9 while measured)",
    "command": "python benchmarks/simulation.py --fights 200, the quickest of three runs",
    "fights_per_second": {"phase1": 165.6, "phase2": 156.1, "segments": 131.3, "five_phase": 111.9,
                          "short_form": 113.7, "strike_speed": 154.1},
}
"""The runner's fights a second before any optimisation (the engine of tests/data/fight_digests.json)."""
SYSTEMS = ("phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed")


def straightforward(encounter, system: str, n: int, seed: int) -> list[dict[str, object]]:
    prepared = replace(encounter, rolls={}, seed=None)
    rows = []
    for i in range(n):
        fight = run_fight(prepared, system, seed=fight_seed(seed, i), explain=True)
        rows.append({"fight": i, **fight.row()})
    return rows


def build() -> str:
    """Which engine is measured: the pure-Python package, or the compiled variant (setup.py)."""
    import combatkit.fight

    where = Path(combatkit.fight.__file__)
    return f"compiled with mypyc ({where.parent})" if where.suffix != ".py" else f"pure Python ({where.parent})"


def projected(seconds_per_fight: float) -> str:
    total = seconds_per_fight * TARGET
    return f"{total / 60:.1f} min" if total < 3600 else f"{total / 3600:.1f} h"


def best_of(chunks: list[float]) -> float:
    """Seconds a fight in the quickest chunk: the shared machine's noise only ever adds time."""
    return min(chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=200, help="fights per measurement (default 200)")
    parser.add_argument("--chunks", type=int, default=4, help="alternating chunks; the quickest counts (default 4)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated system ids")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    encounter = load_encounter(ENCOUNTER)
    size = max(1, args.fights // args.chunks)
    print(f"{encounter.title}: {len(encounter.combatants)} figures; {args.chunks} alternating chunks of {size} "
          f"fights per path, the quickest chunk counted; projected to {TARGET:,} fights on one core")
    print(f"goal {GOAL:,} fights/s on one core, aim {AIM:,}; baseline of {BASELINE['date']} on {BASELINE['machine']}")
    print(f"engine: {build()}")
    for system in args.systems.split(","):
        loop_times, fast_times, agree, rounds, calls = [], [], True, 0, 0
        for chunk in range(args.chunks):
            seed = args.seed * 1000 + chunk
            start = time.perf_counter()
            loop_rows = straightforward(encounter, system, size, seed)
            loop_times.append((time.perf_counter() - start) / size)
            ticks: list[int] = []
            start = time.perf_counter()
            sim = simulate(encounter, system, n=size, seed=seed, progress=lambda done, total: ticks.append(done))
            fast_times.append((time.perf_counter() - start) / size)
            agree = agree and loop_rows == sim.fights
            rounds += sum(int(r["rounds"]) for r in sim.fights)  # type: ignore[call-overload]
            calls += len(ticks)
        loop, fast = best_of(loop_times), best_of(fast_times)
        base = BASELINE["fights_per_second"].get(system)
        over = f"x{1 / fast / base:.2f} over the baseline's {base:.1f}" if base else "no baseline"
        print(f"{system:>12}: runner {1 / fast:6.1f} fights/s on one core (goal {GOAL:,}, aim {AIM:,}: "
              f"{1 / fast / GOAL:.0%} of the goal); {over}; {projected(fast)} for {TARGET:,}\n"
              f"{'':>12}  straightforward loop {1 / loop:6.1f} fights/s ({projected(loop)}): the runner "
              f"x{loop / fast:.2f} over it; "
              f"{rounds / (size * args.chunks):.1f} rounds a fight; {calls} progress calls; "
              f"rows {'agree' if agree else 'DISAGREE'}")


if __name__ == "__main__":
    main()
