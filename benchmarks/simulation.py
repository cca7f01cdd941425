"""Monte Carlo benchmark: the simulation runner against a straightforward loop. Prints numbers, asserts nothing.

    python benchmarks/simulation.py [--fights 200] [--systems phase1,segments,...]

For each timing system, 4-vs-4 fights (``benchmarks/four-vs-four.toml``) are played

* by a straightforward loop: one :func:`combatkit.fight.run_fight` per fight through the full
  explained path (every event and explanation built), then the fight's row;
* by :func:`combatkit.simulation.simulate`: the fast path (same dice, same outcome, nothing
  explained), rows for every fight and figure, a progress callback;

and both print fights per second and the time 100,000 fights would take on this core
(target: minutes, not hours). The two must agree fight by fight; a mismatch is printed.
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
SYSTEMS = ("phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed")


def straightforward(encounter, system: str, n: int, seed: int) -> list[dict[str, object]]:
    prepared = replace(encounter, rolls={}, seed=None)
    rows = []
    for i in range(n):
        fight = run_fight(prepared, system, seed=fight_seed(seed, i), explain=True)
        rows.append({"fight": i, **fight.row()})
    return rows


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
        print(f"{system:>12}: straightforward loop {1 / loop:6.1f} fights/s ({projected(loop)} for {TARGET:,}); "
              f"runner {1 / fast:6.1f} fights/s ({projected(fast)}); x{loop / fast:.2f}; "
              f"{rounds / (size * args.chunks):.1f} rounds a fight; {calls} progress calls; "
              f"rows {'agree' if agree else 'DISAGREE'}")


if __name__ == "__main__":
    main()
