"""The default policy's declarations in the systems' own terms, shared by several systems.

:mod:`combatkit.policy` decides what a figure means to do (an :class:`~combatkit.policy.Intent`:
cast, shoot, close and strike, or flee, and at whom); each system's
:meth:`~combatkit.systems.base.TimingSystem.declare` turns the intent into declarations. The
plans two or more systems share are here: 000's phase by phase (:func:`combat_ii`), and a
move followed by the blow (:func:`move_then_act`, 003 and 004, and the default of a new system).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from combatkit.battle import REACH, REPOSITION, Figure
from combatkit.model import ActionKind, Combatant, Declaration, Maneuver, Weapon, WeaponKind

if TYPE_CHECKING:
    from combatkit.policy import Intent, PolicyRound

__all__ = ["at_once", "attacks_in_round", "combat_ii", "move_then_act", "routines", "weapon_names"]

MOVE, ATTACK, CAST, MISC = ActionKind.MOVE, ActionKind.ATTACK, ActionKind.CAST, ActionKind.MISC


@cache
def attacks_in_round(apr: Fraction, weapon: Weapon, round: int) -> int:
    """:meth:`~combatkit.model.Combatant.attacks_in_round`, remembered (Fraction arithmetic is slow)."""
    return Combatant("x", "x", attacks_per_round=apr).attacks_in_round(round, weapon)


def routines(c: Combatant, weapons: tuple[Weapon, ...], round: int) -> int:
    """Attack routines this round: one for a creature with as many attacks as natural weapons
    (claw/claw/bite, 000 §2 C), else its attacks per round (:mod:`combatkit.policy`, point 5)."""
    naturals = [w for w in weapons if w.kind is WeaponKind.NATURAL]
    if len(naturals) > 1 and Fraction(c.attacks_per_round) <= len(naturals):
        return 1
    return min(attacks_in_round(Fraction(c.attacks_per_round), w, round) for w in weapons)


def weapon_names(weapons: tuple[Weapon, ...]) -> tuple[str, ...]:
    return tuple(w.name for w in weapons)


def combat_ii(f: Figure, intent: Intent, context: PolicyRound,
              table6: Callable[[Fraction], tuple[int, ...]] | None = None) -> list[Declaration]:
    """000 §1-2 (Phase System I) and §3 (Phase System II, one A/B/C cycle): one action a phase.

    Phases 1-3 (2-3 for a surprised figure, which "loses one full phase", 000 §2 F); a move
    is 1/3 MV, a blow is struck when in reach (a repositioning step covers up to 10' more for
    the round's one attack, 000 §2 C); a surprised target is struck at the end of the move; with
    ``PolicyOptions.charge`` a target beyond a walking phase but within a charge is charged
    (000 §2 D). ``table6`` (Phase System II, 000 §3 C Table 6) spaces the attacks by their rate.
    """
    c, name = f.combatant, f.name
    phases = [2, 3] if name in context.surprised else [1, 2, 3]
    allowance = c.movement * 10 // 3
    if intent.mode == "flee":
        return [Declaration(name, p, MOVE, feet=allowance, maneuver=Maneuver.FLEE) for p in phases]
    if intent.mode == "cast":
        assert intent.spell is not None
        out = []
        p = phases[0]
        if intent.ready_first:
            out.append(Declaration(name, p, MISC, readies_components=True, note="readies material components"))
            p += 1
        return out + [Declaration(name, p, CAST, target=intent.target, spell=intent.spell.name)]
    weapons = intent.weapons
    left = routines(c, weapons, context.round)
    single = left == 1
    pattern: tuple[int, ...] = (1,)
    if table6 is not None:
        naturals = len([w for w in weapons if w.kind is WeaponKind.NATURAL])
        rate = Fraction(weapons[0].attacks_per_round or c.attacks_per_round)
        if intent.mode == "shoot":
            rate *= Fraction(weapons[0].rate_of_fire)
        elif naturals > 1 and Fraction(c.attacks_per_round) <= naturals:
            rate = Fraction(1)
        pattern, left = table6(rate), len(phases)
        single = sum(1 for i in range(3) if pattern[i % len(pattern)]) <= 1
    out: list[Declaration] = []
    gap = intent.gap
    first_attack: int | None = None
    target_surprised = intent.target is not None and intent.target in context.surprised
    for p in phases:
        if left <= 0:
            break
        if first_attack is not None and not pattern[(p - first_attack) % len(pattern)]:
            continue
        if intent.mode == "shoot" or gap <= REACH:
            out.append(Declaration(name, p, ATTACK, target=intent.target, weapons=weapon_names(weapons)))
        elif gap <= REACH + REPOSITION and single:
            # The step is taken for the round's one attack: the scheduler keeps the old distance after it.
            out.append(Declaration(name, p, ATTACK, target=intent.target, weapons=weapon_names(weapons),
                                   reposition=True))
            gap = REACH
        elif p == 1 and target_surprised and gap - REACH <= allowance:
            out.append(Declaration(name, p, ATTACK, target=intent.target, weapons=weapon_names(weapons),
                                   feet=gap - REACH))
            gap = REACH
        elif context.options.charge and p == phases[0] and allowance + REACH < gap <= c.movement * 10:
            out.append(Declaration(name, p, MOVE, target=intent.target, feet=allowance, maneuver=Maneuver.CHARGE))
            break
        else:
            step = min(allowance, gap - REACH)
            out.append(Declaration(name, p, MOVE, target=intent.target, feet=step))
            gap -= step
            continue
        left -= 1
        first_attack = p if first_attack is None else first_attack
    return out


def at_once(f: Figure, intent: Intent) -> list[Declaration] | None:
    """What 003, 002 and 004 declare alike in a figure's first step: a flight at its full rate, a
    spell, or a shot or blow already in reach; None when it must first close on its target."""
    name = f.name
    if intent.mode == "flee":
        return [Declaration(name, 1, MOVE, feet=f.combatant.movement * 10, maneuver=Maneuver.FLEE)]
    if intent.mode == "cast":
        assert intent.spell is not None
        return [Declaration(name, 1, CAST, target=intent.target, spell=intent.spell.name)]
    if intent.mode == "shoot" or intent.gap <= REACH:
        return [Declaration(name, 1, ATTACK, target=intent.target, weapons=weapon_names(intent.weapons))]
    return None


def move_then_act(f: Figure, intent: Intent) -> list[Declaration]:
    """003 and 004 (and a system that gives no plan of its own): a move first, the blow after it
    when the move reaches the target. Under 003 the blow is then a double action (003 §III); under
    004 Strike Speed the move happens at the attack's strike speed."""
    at_first = at_once(f, intent)
    if at_first is not None:
        return at_first
    close = intent.gap - REACH
    out = [Declaration(f.name, 1, MOVE, target=intent.target, feet=min(close, f.combatant.movement * 10))]
    if close <= f.combatant.movement * 10:
        out.append(Declaration(f.name, 2, ATTACK, target=intent.target, weapons=weapon_names(intent.weapons)))
    return out
