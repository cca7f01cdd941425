"""Instructions a four-vs-four fight takes, by system, counted by valgrind: a measure of the engine's speed that a
busy machine does not move. Prints numbers, asserts nothing.

    python benchmarks/instructions.py [--fights 40] [--warm 0] [--systems phase1,segments,...]

Wall time on the shared 2-core machines here varies by 10-40% from run to run (``farm-bench`` pairs of the same
command have ranged x0.78-x1.14), so a change worth 5% cannot be seen in seconds. valgrind's callgrind counts the
instructions the process executes, the same in every run of the same fights (``PYTHONHASHSEED`` is fixed): a
fight's instructions are those of ``simulate`` of ``--fights`` fights less those of a run of none, over the
count. Fewer instructions is not always less time (a cache miss costs more than an addition), but a change that
removes work shows here. Run it with the interpreter whose engine is to be measured: the checkout's (pure Python)
or a compiled build's (``setup.py``); the first line says which. A run is about 50 times as slow as without
valgrind: the default takes about 4 minutes on 2 cores, compiled or pure. Without valgrind it says so and stops.

A run's first fights work out what its later ones look up (a round's plan, the policy's intents, a placed round:
the run's memo), so 40 fights count that work more than a long run does. ``--warm N`` counts the fights of a run
after its first N instead (valgrind's counts are zeroed when fight N is done; a run of N fights and none after
is the count of everything else): ``--warm 400 --fights 200`` is a run of encounter prep's length, its memo
filled, and takes about 10 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from simulation import build  # this folder's benchmarks/simulation.py: which engine this interpreter imports

ENCOUNTER = Path(__file__).resolve().parent / "four-vs-four.toml"
SYSTEMS = ("phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed")
PLAY = """
import os, subprocess, sys
from pathlib import Path
from combatkit import load_encounter
from combatkit.simulation import simulate
encounter = load_encounter(Path(sys.argv[1]))
warm, fights = int(sys.argv[4]), int(sys.argv[3])

def zero(done, n):
    if done == warm:
        subprocess.run(["callgrind_control", "--zero", str(os.getpid())], capture_output=True, check=True)

if warm or fights:
    simulate(encounter, sys.argv[2], n=warm + fights, seed=1, workers=1, progress=zero if warm else None,
             every=warm or None)
"""
"""What valgrind runs: load the encounter, then play the fights (none, for the count of everything else); with a
warm-up, valgrind's counts are zeroed once its fights are played."""


def instructions(system: str, fights: int, cwd: Path, warm: int = 0) -> int:
    """Instructions of one process that loads the encounter and plays ``fights`` fights of ``system``, or of a run
    of ``warm + fights`` fights counted from fight ``warm`` on."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                           PLAY, str(ENCOUNTER), system, str(fights), str(warm)],
                          capture_output=True, text=True, env=env, cwd=cwd, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed for {system}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=40, help="fights a system (default 40)")
    parser.add_argument("--warm", type=int, default=0,
                        help="count the fights of a run after its first WARM (default 0: from the first)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated system ids")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind): nothing measured")
        return
    cwd = Path(__file__).resolve().parent  # not the checkout's root: the engine is the one this interpreter has
    print(f"engine: {build()}")
    after = f", after a run's first {args.warm}" if args.warm else ""
    print(f"{args.fights} four-vs-four fights a system{after}, seed 1; millions of instructions a fight (valgrind)")
    systems = args.systems.split(",")
    jobs = [(s, n) for s in systems for n in (0, args.fights)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        counts = dict(zip(jobs, pool.map(lambda job: instructions(job[0], job[1], cwd, args.warm), jobs),
                          strict=True))
    for system in systems:
        played = counts[(system, args.fights)] - counts[(system, 0)]
        print(f"{system:>12}: {played / args.fights / 1e6:6.2f} M instructions a fight")


if __name__ == "__main__":
    main()
