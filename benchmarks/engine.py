"""Engine benchmarks: print numbers, assert nothing (machines are noisy).

    python benchmarks/engine.py
"""

from __future__ import annotations

import statistics
import time
from fractions import Fraction

from combatkit import (
    Abilities, ActionKind, Combatant, Declaration, Encounter, Roller, Spell, Weapon, WeaponKind, find_system,
)


def twenty_combatant_round() -> Encounter:
    """Ten a side: fighters who close and strike, archers, and casters with long spells."""
    combatants, declarations = [], []
    for i in range(20):
        side = "party" if i % 2 == 0 else "horde"
        name = f"{side}-{i}"
        role = i % 5
        combatants.append(Combatant(
            name, side, level=1 + i % 9, abilities=Abilities(dexterity=3 + i % 16),
            attacks_per_round=Fraction(3, 2) if role == 0 else Fraction(2),
            weapons=(Weapon("long sword", 5), Weapon("long bow", 8, kind=WeaponKind.MISSILE,
                                                     rate_of_fire=2)),
            spells=(Spell("fireball", 3, 3), Spell("cloudkill", 5, 5)),
        ))
        if role in (0, 1):
            declarations += [Declaration(name, 1, ActionKind.MOVE), Declaration(name, 2, ActionKind.ATTACK),
                             Declaration(name, 3, ActionKind.ATTACK, reposition=True)]
        elif role == 2:
            declarations += [Declaration(name, p, ActionKind.ATTACK, weapons=("long bow",)) for p in (1, 2)]
        elif role == 3:
            declarations += [Declaration(name, 1, ActionKind.CAST, spell="cloudkill"),
                             Declaration(name, 3, ActionKind.MOVE)]
        else:
            declarations += [Declaration(name, 2, ActionKind.CAST, spell="fireball", hold=2)]
    return Encounter("benchmark: 20 combatants", tuple(combatants), tuple(declarations), round=2)


def timed(fn, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    system = find_system("phase1")
    encounter = twenty_combatant_round()
    timeline = system.schedule(encounter, Roller(seed=1))
    samples = timed(lambda: system.schedule(encounter, Roller(seed=1)), 300)
    median = statistics.median(samples) * 1000
    p95 = sorted(samples)[int(0.95 * len(samples))] * 1000
    print(f"phase1: schedule a 20-combatant round ({len(timeline)} spans): "
          f"median {median:.2f} ms, p95 {p95:.2f} ms (target <= 5 ms)")
    why = timed(lambda: system.schedule(encounter, Roller(seed=1)).why(), 100)
    print(f"phase1: schedule + plain-language why list: median {statistics.median(why) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
