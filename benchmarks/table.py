"""The table's engine (#49): a round played at the table, a saved fight reopened, and a long fight's memory.
Prints numbers beside the targets, asserts nothing.

    python benchmarks/table.py [--repeat 7]

* **next round**: from "next round" to the round played and carried forward (:meth:`combatkit.table.TableFight.play`)
  for an encounter of 12 figures (the goblin ambush with a seventh goblin), median over the rounds of a 10-round fight,
  each system. Target: the whole step, chart and roster redrawn included, in 300 ms; this is the engine's part.
* **the page**: from "Play round" to the redrawn chart and roster in the DM's page
  (:class:`~combatkit.widgets.views.table.TableView`, Python side: the round played, saved to a folder of fights, its
  chart's spec, the roster, the next round's lines and dice), median and slowest over the rounds of a 10-round fight
  of the same 12 figures, each system. Target: 300 ms.
* **reopen**: a saved 10-round fight read and replayed (:func:`combatkit.table.loads_fight`). Target: 1 s.
* **memory**: what a 20-round fight holds (its rounds, events and timelines, traced by tracemalloc), against the
  kernel's plan of about 200 MiB.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from dataclasses import replace

from combatkit import load_example
from combatkit.systems import SYSTEMS
from combatkit.table import TableFight, loads_fight

ROUNDS = 10
LONG = 20


def _encounter():
    """The goblin ambush with a seventh goblin (12 figures), everyone tough enough to fight 20 rounds, and no spell
    that puts the goblins to sleep (every figure acts every round)."""
    ambush = load_example("goblin-ambush")
    goblin = next(c for c in ambush.combatants if c.name == "Goblin 6")
    figures = (*ambush.combatants, replace(goblin, name="Goblin 7"))
    return replace(ambush, combatants=tuple(replace(c, hit_points=c.hit_points * 12, spells=()) for c in figures),
                   intents=tuple(i for i in ambush.intents if i.spell is None))


def _fight(system: str, rounds: int) -> tuple[TableFight, list[float]]:
    table = TableFight(_encounter(), system, seed=7)
    times = []
    while table.round < rounds and not table.over:
        start = time.perf_counter()
        table.play()
        times.append(time.perf_counter() - start)
    return table, times


def _page(system: str, rounds: int, folder: str) -> list[float]:
    """Each "Play round" of a fight in the DM's page, from the click to the chart and roster redrawn."""
    from combatkit.widgets.state.fights import FightStore
    from combatkit.widgets.views.table import TableView

    view = TableView(store=FightStore(folder))
    view.picker.open_encounter(_encounter())
    view.system.value, view.seed.value = system, 7
    view.start.click()
    times = []
    while view.fight.round < rounds and not view.fight.over:
        start = time.perf_counter()
        view.play.click()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="reopenings timed per system (default 5)")
    args = parser.parse_args()
    print(f"{'system':<14}{'rounds':>7}{'next round (median, max)':>28}{'reopen (median)':>18}{'steps in file':>15}")
    for sid in SYSTEMS:
        table, times = _fight(sid, ROUNDS)
        text = table.dumps()
        reopen = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            loads_fight(text)
            reopen.append(time.perf_counter() - start)
        print(f"{sid:<14}{table.round:>7}{statistics.median(times) * 1000:>16.1f} ms, {max(times) * 1000:>5.1f} ms"
              f"{statistics.median(reopen) * 1000:>15.0f} ms{len(table.steps):>15}")
    print("targets: next round (engine and redraw) <= 300 ms; reopen a 10-round fight <= 1 s")
    print(f"{'system':<14}{'rounds':>7}{'the page: Play round to chart and roster (median, max)':>58}")
    with tempfile.TemporaryDirectory() as folder:
        for sid in SYSTEMS:
            times = _page(sid, ROUNDS, folder)
            print(f"{sid:<14}{len(times):>7}{statistics.median(times) * 1000:>46.1f} ms, {max(times) * 1000:>5.1f} ms")
    print("target: <= 300 ms from Play round to the chart and roster redrawn (Python side)")
    tracemalloc.start()
    table, _ = _fight("phase1", LONG)
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"a {table.round}-round Phase System I fight of 12 figures holds {held / 2**20:.1f} MiB "
          f"(peak {peak / 2**20:.1f} MiB while played); the kernel's plan: about 200 MiB in all")


if __name__ == "__main__":
    main()
