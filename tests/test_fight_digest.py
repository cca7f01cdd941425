"""Golden digests of Monte Carlo runs (combatkit.simulation): the fights as the engine played them before any
optimisation, held to by every faster engine, and by the explained path (#18).

``tests/data/fight_digests.json`` keeps a sha256 of the canonical JSON of ``simulate(...).fights`` and
``.figures`` for :data:`FIGHTS` four-vs-four fights (``benchmarks/four-vs-four.toml``) under each of the six
timing systems, and for :data:`EXAMPLE_FIGHTS` fights of every shipped example under each system. A faster
engine plays the very same fights: the same dice in the same order, the same rows. A digest that no longer
matches is a bug, unless a rule was changed on purpose; then, and only then, re-record:

    .venv/bin/python -m tests.test_fight_digest --record

and say in the commit which rule changed and why the fights did. ``python -m tests.test_fight_digest`` without
``--record`` prints what differs and writes nothing.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import sys
from functools import cache
from pathlib import Path

import pytest

from combatkit import example_encounters, load_encounter, load_example
from combatkit.simulation import Simulation, replay, simulate

SYSTEMS = ("phase1", "phase2", "segments", "five_phase", "short_form", "strike_speed")
ROOT = Path(__file__).resolve().parents[1]
ENCOUNTER = ROOT / "benchmarks" / "four-vs-four.toml"
DIGESTS = Path(__file__).resolve().parent / "data" / "fight_digests.json"
FIGHTS = 100
"""Four-vs-four fights a system: two chunks of :data:`combatkit.simulation.CHUNK`, about 0.7 s a system."""
EXAMPLE_FIGHTS = 5
"""Fights of each shipped example under each system: 84 runs in about 2 s."""
SEED = 18
REPLAYED = (0, 37, 99)
"""Fights re-played through the explained path (:func:`replay`) and checked against their fast rows."""
RECORD = ".venv/bin/python -m tests.test_fight_digest --record"


def digest(sim: Simulation) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces) of a run's fight and figure rows."""
    text = json.dumps({"fights": sim.fights, "figures": sim.figures}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def four_vs_four(system: str) -> Simulation:
    return simulate(load_encounter(ENCOUNTER), system, n=FIGHTS, seed=SEED)


def example_digests() -> dict[str, dict[str, str]]:
    """The digest of :data:`EXAMPLE_FIGHTS` fights of every shipped example under every system."""
    return {name: {system: digest(simulate(load_example(name), system, n=EXAMPLE_FIGHTS, seed=SEED))
                   for system in SYSTEMS} for name in example_encounters()}


def measured() -> dict[str, object]:
    """What ``tests/data/fight_digests.json`` holds, as the engine plays it now."""
    return {
        "about": "sha256 of the canonical JSON (sort_keys, separators (',', ':')) of {'fights': sim.fights, "
                 "'figures': sim.figures} of simulate(encounter, system, n=fights, seed=seed). Re-record only "
                 f"after a deliberate rules change, said in the commit: {RECORD}",
        "recorded": datetime.date.today().isoformat(),
        "four_vs_four": {"encounter": ENCOUNTER.relative_to(ROOT).as_posix(), "fights": FIGHTS, "seed": SEED,
                         "digests": {system: digest(four_vs_four(system)) for system in SYSTEMS}},
        "examples": {"fights": EXAMPLE_FIGHTS, "seed": SEED, "digests": example_digests()},
    }


def recorded() -> dict:
    return json.loads(DIGESTS.read_text(encoding="utf-8"))


def changed(what: str) -> str:
    return (f"{what}: the fights are not the ones recorded in tests/data/fight_digests.json. A faster engine must "
            f"play the very same fights, dice for dice. Only a deliberate rules change may re-record them: "
            f"`{RECORD}`, saying in the commit which rule changed and why the fights did.")


def test_the_digests_were_recorded_for_these_runs():
    """The file speaks of the runs this test plays: same encounter, fights, seed, systems and examples."""
    four, examples = recorded()["four_vs_four"], recorded()["examples"]
    assert (four["encounter"], four["fights"], four["seed"]) == (ENCOUNTER.relative_to(ROOT).as_posix(), FIGHTS, SEED)
    assert (examples["fights"], examples["seed"]) == (EXAMPLE_FIGHTS, SEED)
    assert sorted(four["digests"]) == sorted(SYSTEMS), f"re-record with `{RECORD}`"
    assert sorted(examples["digests"]) == sorted(example_encounters()), (
        f"the shipped examples changed; a new example's fights may be recorded with `{RECORD}` (check that "
        f"only the new example's digests were added)")


@pytest.mark.parametrize("system", SYSTEMS)
def test_four_vs_four_fights_are_the_recorded_ones(system):
    now, then = digest(four_vs_four(system)), recorded()["four_vs_four"]["digests"][system]
    assert now == then, changed(f"{FIGHTS} four-vs-four fights under {system}")


@pytest.mark.parametrize("system", SYSTEMS)
def test_replayed_fights_are_their_fast_rows(system):
    """The explained path (:func:`replay`) ends fights of the recorded run exactly as the fast path played them."""
    sim = four_vs_four(system)
    for index in REPLAYED:
        fight = replay(load_encounter(ENCOUNTER), index, system, seed=SEED)
        assert fight.events, "the explained path explains"
        assert {"fight": index, **fight.row()} == sim.fights[index], (system, index)
        figures = [{"fight": index, **row, "no_effect_data": ";".join(figure.no_effect_data)}
                   for row, figure in zip(fight.figure_rows(), fight.figures, strict=True)]
        assert figures == [row for row in sim.figures if row["fight"] == index], (system, index)


def test_every_example_under_every_system_plays_the_recorded_fights():
    now, then = example_digests(), recorded()["examples"]["digests"]
    differ = [f"{name} under {system}" for name in now for system in SYSTEMS
              if now[name][system] != then.get(name, {}).get(system)]
    assert not differ, changed(f"{EXAMPLE_FIGHTS} fights of " + ", ".join(differ))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Record (or check) the fight digests of tests/test_fight_digest.py.")
    parser.add_argument("--record", action="store_true",
                        help="write tests/data/fight_digests.json: only after a deliberate rules change")
    args = parser.parse_args(argv)
    now = measured()
    if args.record:
        DIGESTS.parent.mkdir(exist_ok=True)
        DIGESTS.write_text(json.dumps(now, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"recorded {DIGESTS.relative_to(ROOT)}")
        return 0
    then = recorded()
    differ = [f"four-vs-four under {s}" for s in SYSTEMS
              if now["four_vs_four"]["digests"][s] != then["four_vs_four"]["digests"].get(s)]
    differ += [f"{name} under {s}" for name, row in now["examples"]["digests"].items() for s in SYSTEMS
               if row[s] != then["examples"]["digests"].get(name, {}).get(s)]
    print("\n".join(differ) or "every digest matches")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
