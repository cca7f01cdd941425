"""Engine benchmarks: scheduling every system, exact odds. Print numbers, assert nothing (machines are noisy).

    python benchmarks/engine.py
"""

from __future__ import annotations

import statistics
import time
from fractions import Fraction

from combatkit import (
    Abilities, ActionKind, Combatant, Declaration, Encounter, Roller, RulesError, Spell, Weapon, WeaponKind,
    find_system,
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
    shipped_examples()


def shipped_examples() -> None:
    """Every timing system on its shipped example: scheduling, and the exact odds of its first matchup."""
    from combatkit import example_encounters, load_example
    from combatkit.odds import matchup_odds

    for name in example_encounters():
        encounter = load_example(name)
        system = find_system(encounter.system)
        samples = timed(lambda: system.schedule(encounter, Roller(seed=1, entered=encounter.rolls)), 50)
        print(f"{system.id}: schedule {name!r} ({len(encounter.combatants)} figures): "
              f"median {statistics.median(samples) * 1000:.2f} ms")
        first = encounter.combatants[0]
        target = next((d.target for d in encounter.declarations if d.actor == first.name and d.target), None)
        second = target or next(c.name for c in encounter.combatants if c.side != first.side)
        start = time.perf_counter()
        try:
            odds = matchup_odds(system, encounter, first.name, second)
        except RulesError as error:
            print(f"{system.id}: exact odds {first.name} vs {second}: not computed: {error}")
            continue
        took = time.perf_counter() - start
        print(f"{system.id}: exact odds {first.name} vs {second}: {took * 1000:.0f} ms "
              f"(P({first.name} first) = {odds['a first']}, tie {odds['simultaneous']})")


if __name__ == "__main__":
    main()
