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

Every die is rolled: the numbers a referee entered in the encounter (``Encounter.rolls``) and
its seed are not used. Fights run on the fast path (``explain=False``): the same dice and the
same outcome as the explained path, without building the explanations (the test suite checks
the two paths against each other, fight by fight).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from combatkit.encounter import Encounter
from combatkit.errors import RulesError
from combatkit.fight import Fight, FightOptions, run_fight

__all__ = ["Simulation", "fight_seed", "replay", "simulate", "wilson_interval"]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)``: for a progress bar."""


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
    """One row per fight: ``fight`` (index), ``seed``, ``system``, ``winner`` (None: undecided),
    ``end``, ``rounds``, ``fallen`` (figures out of the fight at the end, ``;``-separated),
    ``spells_attempted``, ``spells_succeeded``, ``refused`` (see :meth:`combatkit.fight.Fight.row`)."""
    figures: list[dict[str, object]] = field(default_factory=list, repr=False)
    """One row per figure per fight: ``fight``, ``figure``, ``side``, ``status``, ``fell``,
    ``fell_round``, ``hit_points``, ``damage_dealt``, ``damage_taken``, ``attacks``, ``hits``,
    ``spells_attempted``, ``spells_succeeded``..."""

    def summary(self) -> dict[str, object]:
        """Plain numbers: wins by side with a 95% Wilson interval, mean rounds, how often each
        figure fell, and the spell success rate."""
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
        }


def _prepared(encounter: Encounter) -> Encounter:
    return replace(encounter, rolls={}, seed=None)


def simulate(encounter: Encounter, system: str | None = None, *, n: int = 1000, seed: int = 0,
             options: FightOptions = FightOptions(), system_options: object = None,
             progress: Progress | None = None, every: int | None = None) -> Simulation:
    """Play ``encounter`` ``n`` times under ``system`` (default the encounter's) from master ``seed``.

    ``progress(done, n)`` is called every ``every`` fights (default: about 100 times a run) and
    at the end.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RulesError("combatkit simulation", f"n is the number of fights, 0 or more; got {n!r}")
    prepared = _prepared(encounter)
    step = every if every is not None else max(1, n // 100)
    if step < 1:
        raise RulesError("combatkit simulation", f"every is 1 or more fights, got {every!r}")
    fights: list[dict[str, object]] = []
    figures: list[dict[str, object]] = []
    system_id = system
    for i in range(n):
        fight = run_fight(prepared, system, seed=fight_seed(seed, i), options=options, system_options=system_options,
                          explain=False)
        system_id = fight.system
        fights.append({"fight": i, **fight.row()})
        figures.extend({"fight": i, **row} for row in fight.figure_rows())
        if progress is not None and ((i + 1) % step == 0 or i + 1 == n):
            progress(i + 1, n)
    return Simulation(encounter.title, system_id or encounter.system, seed, fights, figures)


def replay(encounter: Encounter, index: int, system: str | None = None, *, seed: int = 0,
           options: FightOptions = FightOptions(), system_options: object = None) -> Fight:
    """Fight ``index`` of a :func:`simulate` run with the same arguments, every event explained."""
    return run_fight(_prepared(encounter), system, seed=fight_seed(seed, index), options=options,
                     system_options=system_options, explain=True)
