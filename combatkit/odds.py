"""Exact matchup odds under any registered timing system, through one function.

Five of the six systems ship their own exact ``odds(encounter, a, b, options)`` in their
module (:func:`combatkit.systems.phase2.odds` and the others); :func:`matchup_odds` calls
it. A system whose module has none but which draws every chance outcome from the
:class:`~combatkit.Roller` it is given (Phase System I: a d10 per side, 000 §1 A, and a
d20 CON check for a caster hit before casting, 000 §2 A) is run once for every total of
every roll it asks for, each run weighted by that total's exact probability
(:meth:`~combatkit.dice.Dice.distribution`), and the runs summarised exactly as the
systems' own odds are. The numbers therefore come from the very code that draws the
timeline. Rolls entered in the encounter are not used: odds are over every roll.

>>> from combatkit import load_example
>>> chances = matchup_odds("phase1", load_example("orc-closes-on-longbowman"), "Aldric", "Grishnak")
>>> chances["a first"], chances["b first"]
(Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any

from combatkit.dice import Dice, Roll, Roller
from combatkit.encounter import Encounter
from combatkit.systems import TimingSystem, find_system
from combatkit.systems._exhaust import Branches, check_matchup, exhaust, matchup

__all__ = ["ENUMERATION_LIMIT", "OddsFunction", "matchup_odds", "odds_function"]

OddsFunction = Callable[[Encounter, str, str, Any], dict[str, Fraction]]

ENUMERATION_LIMIT = 12_000
"""Most runs of a roller-driven system one matchup may take (Phase System I: 10**sides
initiative outcomes, so up to four sides, about 5 s); past it the matchup is refused with a RulesError."""


class _EnumeratingRoller(Roller):
    """A Roller whose every roll is a branch: one run per total, weighted by its chance."""

    def __init__(self, decided: Mapping[Hashable, object]) -> None:
        super().__init__()
        self._branches = Branches(decided)

    def roll(self, dice: str | Dice, purpose: str) -> Roll:
        spec = Dice.parse(dice)
        total: int = self._branches.choose(purpose, lambda: list(spec.distribution().items()))
        result = Roll(spec, purpose, total, None, entered=False)
        self.log.append(result)
        return result


def odds_function(system: str | TimingSystem) -> OddsFunction:
    """The exact-odds function for ``system``: its module's ``odds``, or an enumeration of its Roller."""
    found = find_system(system) if isinstance(system, str) else system
    own = getattr(sys.modules[type(found).__module__], "odds", None)
    if own is not None:
        return own

    def by_rolls(encounter: Encounter, a: str, b: str, options: Any = None) -> dict[str, Fraction]:
        check_matchup(encounter, a, b)
        runs = exhaust(lambda roller: found.schedule(encounter, roller, options), _EnumeratingRoller,
                       limit=ENUMERATION_LIMIT)
        return matchup(runs, a, b)

    return by_rolls


def matchup_odds(system: str | TimingSystem, encounter: Encounter, a: str, b: str,
                 options: Any = None) -> dict[str, Fraction]:
    """Exact chances for ``a`` against ``b`` under ``system`` (an id, alias or system).

    Keys as every system's odds give them (:func:`combatkit.systems._exhaust.matchup`):
    ``"a first"``, ``"simultaneous"``, ``"b first"``, ``"neither"`` (who is first to land a
    blow or complete a spell; they sum to 1), ``"a spell interrupted"`` / ``"b spell
    interrupted"`` for a figure that casts, and ``"a blow N @ T"``: its N-th blow on tick T.
    Raises RulesError (naming the rule and the value) for a matchup the system cannot rate.
    """
    return odds_function(system)(encounter, a, b, options)
