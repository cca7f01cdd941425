"""Exact matchup odds under any registered timing system, through one function.

:func:`matchup_odds` finds the system and asks it: every system's odds come from the one
engine in :meth:`TimingSystem.odds <combatkit.systems.base.TimingSystem.odds>`, which runs
the system's own round once for every outcome of the dice that matter (Phase System I: a
d10 per side, 000 §1 A, and a d20 CON check for a caster hit before casting, 000 §2 A),
each run weighted by that outcome's exact probability, and summarises the runs. The
numbers therefore come from the very code that draws the timeline. Rolls entered in the
encounter are not used: odds are over every roll.

The answer is a :class:`Matchup`, read by field: who acts first, as the chance of each
:class:`Order`; a caster's spell interrupted; each blow's tick (:class:`BlowChance`). The same
question of one round, with its dice as rolled, is :func:`order` (the earlier :func:`first_act`
of the two: a blow struck or a spell gone off, a span of a kind in :data:`ACTS`).

>>> from combatkit import load_example
>>> chances = matchup_odds("phase1", load_example("orc-closes-on-longbowman"), "Aldric", "Grishnak")
>>> chances.a_first, chances.chance(Order.B_FIRST)
(Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

from typing import Any

from combatkit.encounter import Encounter
from combatkit.systems import TimingSystem, find_system
from combatkit.systems._exhaust import ACTS, BlowChance, Matchup, Order, first_act, order

__all__ = ["ACTS", "BlowChance", "Matchup", "Order", "first_act", "matchup_odds", "order"]


def matchup_odds(system: str | TimingSystem, encounter: Encounter, a: str, b: str,
                 options: Any = None, *, limit: int | None = None) -> Matchup:
    """Exact chances for ``a`` against ``b`` under ``system`` (an id, alias or system).

    A :class:`Matchup`: typed fields, and readable by the keys every system's odds
    give (:func:`combatkit.systems._exhaust.matchup`):
    ``"a first"``, ``"simultaneous"``, ``"b first"``, ``"neither"`` (who is first to land a
    blow or complete a spell; they sum to 1), ``"a spell interrupted"`` / ``"b spell
    interrupted"`` for a figure that casts, and ``"a blow N @ T"``: its N-th blow on tick T.
    ``limit`` caps the runs of the round (default: the system's ``odds_limit``). Raises
    RulesError (naming the rule and the value) for a matchup the system cannot rate.
    """
    found = find_system(system) if isinstance(system, str) else system
    return found.odds(encounter, a, b, options, limit=limit)
