"""The default declaration policy: what a figure with no declarations does in a round.

A DM prepping an encounter declares nothing for the hundredth simulated round; this policy
does it for every figure, in each timing system's own terms, so that every system can play
the same fight. It is deliberately simple and documented, so a reader can tell what the
numbers of a Monte Carlo run assume:

1. **Target**: the nearest foe still on the field (asleep and held foes included: they are
   hit automatically). Ties go to the foe fewest of its side have already picked this round
   (so four fighters pair off with four orcs), then to encounter order
   (``PolicyOptions.spread=False``: everyone picks the first, "focus fire").
2. **Flee**: with ``flee_below`` set, a figure at or below that fraction of its hit points
   that is in melee reach of a foe flees (000 §2 D; 001 Break & Run; 002 Breaking Off), unless
   it has MV 0: it cannot move, and fights on.
3. **Cast**: a figure with spells casts its first castable one: a healing spell (by touch
   too) on the most wounded friend at half its hit points or less; a helping spell (haste,
   protection, bless) on the friend nearest the foe; a hold, charm, web, blindness and the
   like on the nearest foe it would still work on (up, not already under it); any other
   spell at the target, unless it is a touch spell (the policy does not deliver touches), an
   area spell that does not pick its targets would take in a friend, or a sleep would find
   no one it can affect. A spell with no effect data is cast at the target all the same.
   Castable also means the system allows it (000: CT 9 at most from phase 1, 6 from phase 2;
   material components readied first if not in hand). A figure in a defensive 004 stance
   does not cast, and one in Full Defense does not attack (004 Combat Stance). Each spell is
   cast once a fight. A caster whose held spell goes off this round, held over from the last
   (``Figure.holding``), declares nothing: that spell "counts as that round's casting (no new
   spell may be started)", and a caster does not attack in a round it casts (000 §2 A).
4. **Shoot**: a figure with a missile weapon shoots when its target is out of melee reach
   (or it has no melee weapon) and within the weapon's long range (when the range is known).
5. **Melee**: otherwise it closes on its target and attacks with its routine (all its
   natural attacks, else its first melee weapon): one routine a round for a creature with
   as many attacks as natural weapons (claw/claw/bite, 000 §2 C), else its attacks per round.
   ``charge=True`` lets 000 figures charge a target beyond a walking phase but within reach
   of a charge (000 §2 D).
6. **Never idle**: a figure with no weapon, its spells spent or not castable, fights with
   its fists (002 Unarmed Combat: a pummel, 1d2) when its target is no larger than it is; one
   whose melee weapons are all of unarmed length (a cestus) fights with them on the same terms,
   and shoots instead, if it can, at a larger target. One that cannot fight (a pixie before an
   ogre) and stands in reach of a foe withdraws (000 §2 D, 001 Withdrawal, 002 Breaking Off),
   unless it has MV 0.
7. **Rally**: under a system whose round has a rally step
   (:attr:`SystemRules.rally <combatkit.systems.rules.SystemRules.rally>`: 001's morale step, "Rally: Attempt to
   rally any close allies", 001 I. Morale & Record Keeping), a figure with a broken ally (one that failed a morale
   check and has not come back, 001 Break & Run; :func:`~combatkit.resolution.morale.is_broken`) within
   ``MoraleOptions.rally_feet`` of it where the round begins also declares a Rally (the named action ``"rally"``),
   besides whatever else it does: 001 lists the rally as the morale step's own, after Last Actions, and the
   five-phase round places it beside any action, a whole-round move or flight too. 001 says nothing of how many
   figures may rally: one rally reaches every broken ally near the rallier, so a figure rallies only when a broken
   ally near it is not near one its side already declared this round (in figure order; where the broken stand
   together, one rally a side a round). A figure that flees (point 2) does not rally: it leaves the fight.

The policy writes what each figure means to do as :class:`~combatkit.intent.Intent` s, in words no
system owns, and each system places them in its own terms with the planner that places an encounter
file's intents, :meth:`TimingSystem.plan <combatkit.systems.base.TimingSystem.plan>` (each cites its
rules; the shared plans are in :mod:`combatkit.systems._plan`): 000 Phase System I uses phases 1-3, one
action each, moving 1/3 MV and attacking when in reach (a repositioning step covers up to 10' more,
+2 SF; a surprised foe is struck at the end of the move, 000 §2 F); Phase System II plays one A/B/C
cycle a round, attacks spaced by Table 6; the Segment of Action moves then strikes as a double
action; the five-phase system declares each action for the phase its facility falls due (a shift,
a half-move or a full move first); the short form moves (split as it likes) and attacks on its
count; Strike Speed (and a system with no plan of its own) moves into its attack. Which spells a
system lets a caster begin is its :meth:`~combatkit.systems.base.TimingSystem.castable`, and
whether it times more than a few missiles its ``rules.max_missiles``. A surprised figure loses
what its system says: 000 its first phase, 001 and 004 the round
(:attr:`SystemRules.surprised_sits_out <combatkit.systems.rules.SystemRules.surprised_sits_out>`:
the policy declares nothing for it), the short form and the Segment of Action decide surprise themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mypy_extensions import mypyc_attr

from combatkit.battle import REACH, Figure, is_acting, is_present, missile_range, routine
from combatkit.encounter import Encounter
from combatkit.effects import EffectKind, spell_effect, takes
from combatkit.kinds import IntentKind, Length, Maneuver, WeaponKind
from combatkit.intent import COMPONENTS, Intent
from combatkit.made import made
from combatkit.model import Combatant, Declaration, Spell, Weapon
from combatkit.resolution import ResolutionOptions
from combatkit.resolution.morale import is_broken
from combatkit.stances import may_attack
from combatkit.systems.base import TimingSystem, find_system
from combatkit.systems.rules import ChargeRule

__all__ = ["PolicyOptions", "declare", "intents"]


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class PolicyOptions:
    """Choices of the default declaration policy."""

    spread: bool = True
    """Ties for the nearest foe go to the one fewest friends have picked (False: encounter order)."""
    cast: bool = True
    """Spellcasters cast (False: they fight with their weapons)."""
    charge: bool = False
    """000 systems: charge a target beyond one phase's walk but within a charge (000 §2 D)."""
    flee_below: Fraction | None = None
    """Flee when at or below this fraction of maximum hit points and in melee reach; None: fight on."""


def _found(system: str | TimingSystem) -> TimingSystem:
    return find_system(system) if isinstance(system, str) else system


def intents(figures: Sequence[Figure], *, system: str | TimingSystem, round: int = 1,
            surprised: frozenset[str] = frozenset(), options: PolicyOptions = PolicyOptions(),
            resolution: ResolutionOptions = ResolutionOptions(),
            skip: frozenset[str] = frozenset()) -> tuple[Intent, ...]:
    """Each active figure's intents for the round (module docstring, points 1-7) under ``system`` (an id,
    alias or system: which spells it lets a caster begin, how many missiles it times, whether it charges and
    rallies), in figure order; none for the figures in ``skip``, for a figure whose held spell goes off this round, and
    for one surprised where the system's surprised figures sit the round out
    (:attr:`SystemRules.surprised_sits_out <combatkit.systems.rules.SystemRules.surprised_sits_out>`).

    ``round`` is the encounter's round number (3/2 attacks give 2 in even rounds); ``surprised`` the figures
    surprised this round. The system places them (:meth:`~combatkit.systems.base.TimingSystem.plan`)."""
    system = _found(system)
    claims: dict[str, int] = {}
    order = {f.name: i for i, f in enumerate(figures)}
    sits_out = system.rules.surprised_sits_out is not None
    out: list[Intent] = []
    rallied: set[str] = set()  # broken figures a rally declared this round reaches (point 7)
    for f in figures:
        if not is_acting(f.status) or f.holding is not None:  # 000 §2 A: the held spell is this round's casting
            continue
        c = f.combatant
        foes = [o for o in figures if o.side != f.side and is_present(o.status)]
        if not foes:
            continue
        extras = resolution.extras(f.name)

        def nearest(pool: list[Figure]) -> Figure:
            return min(pool, key=lambda o: (abs(o.position - f.position),
                                            claims.get(o.name, 0) if options.spread else 0, order[o.name]))

        target = nearest(foes)
        gap = abs(target.position - f.position)
        in_reach = any(abs(o.position - f.position) <= REACH for o in foes if is_acting(o.status))
        flees = (options.flee_below is not None and f.hit_points <= options.flee_below * f.max_hit_points
                 and in_reach and bool(c.movement))  # MV 0: it cannot flee, and fights on
        if flees:
            mine: tuple[Intent, ...] = (_intent(f.name, IntentKind.MOVE, maneuver=Maneuver.FLEE),)
        else:
            mine = ()
            if options.cast and c.spells and not extras.stance.defensive:
                mine = _spell_intents(f, figures, target, foes, system, surprised, resolution)
            if not mine and may_attack(extras.stance):  # 004 Full Defense: "no attack possible"
                mine = _weapon_intents(f, target, gap, round, system, options)
            if not mine and in_reach and _unarmed_only(c) and c.movement:  # MV 0: it cannot withdraw either
                mine = (_intent(f.name, IntentKind.MOVE, target.name, away=True, maneuver=Maneuver.WITHDRAW),)
        if mine:
            aimed = mine[-1]
            if aimed.target is not None and aimed.kind is not IntentKind.CAST and not aimed.away:
                claims[aimed.target] = claims.get(aimed.target, 0) + 1
        if f.name in skip or (sits_out and f.name in surprised):
            continue
        out.extend(mine)
        reached = () if flees else _rally_reaches(f, figures, system, resolution, rallied)
        if reached:  # point 7: 001 I. Morale & Record Keeping, "Rally: Attempt to rally any close allies"
            rallied.update(reached)
            out.append(_intent(f.name, IntentKind.ACTION, action="rally"))
    return tuple(out)


def _rally_reaches(f: Figure, figures: Sequence[Figure], system: TimingSystem, resolution: ResolutionOptions,
                   rallied: set[str]) -> tuple[str, ...]:
    """The broken allies within ``MoraleOptions.rally_feet`` of ``f`` that no rally its side declared this round
    reaches already (module docstring, point 7; 001 I: "Rally: Attempt to rally any close allies"): those a rally
    of ``f``'s would bring a roll to. None where the system's round has no rally step (``rules.rally`` is None)."""
    if system.rules.rally is None:
        return ()
    feet = resolution.morale.rally_feet
    return tuple(o.name for o in figures if o.side == f.side and o.name not in rallied
                 and is_broken(o.status, o.lasting) and abs(o.position - f.position) <= feet)


def _spell_intents(f: Figure, figures: Sequence[Figure], target: Figure, foes: list[Figure], system: TimingSystem,
                   surprised: frozenset[str], resolution: ResolutionOptions) -> tuple[Intent, ...]:
    c = f.combatant
    for spell in c.spells:
        if spell.name in f.spells_used:
            continue
        ready_first = "M" in spell.component_set and not f.components_ready and system.rules.components_in_hand
        if not system.castable(spell, surprised=f.name in surprised, ready_first=ready_first):
            continue
        aim = _spell_target(f, figures, target, foes, spell, resolution)
        if aim is None:
            continue
        ready = (_intent(f.name, IntentKind.READY, item=COMPONENTS),) if ready_first else ()
        return ready + (_intent(f.name, IntentKind.CAST, aim.name, spell=spell.name),)
    return ()


def _spell_target(f: Figure, figures: Sequence[Figure], target: Figure, foes: list[Figure], spell: Spell,
                  resolution: ResolutionOptions) -> Figure | None:
    """Whom the policy casts ``spell`` at (module docstring, point 3), or None to pass it by."""
    effect = spell_effect(spell, resolution.spell_effects)
    if effect is not None and effect.kind is EffectKind.HEAL:
        hurt = [o for o in figures if o.side == f.side and is_acting(o.status) and 2 * o.hit_points <= o.max_hit_points]
        return min(hurt, key=lambda o: o.hit_points - o.max_hit_points) if hurt else None
    if effect is not None and not effect.hostile:  # haste, protection, bless: the friend nearest the foe
        ready = [o for o in figures if o.side == f.side and takes(effect, o)]
        return min(ready, key=lambda o: abs(o.position - target.position)) if ready else None
    if spell.touch:
        return None
    aim = target
    if effect is not None:
        if effect.kind not in (EffectKind.DAMAGE, EffectKind.SLEEP):  # hold, charm, web...: a foe it works on
            awake = [o for o in foes if takes(effect, o)]
            if not awake:
                return None
            aim = min(awake, key=lambda o: abs(o.position - f.position))
        friends = [o for o in figures if o.side == f.side and is_present(o.status)]
        if (effect.radius and not effect.selective
                and any(abs(o.position - aim.position) <= effect.radius for o in friends)):
            return None
        if effect.kind is EffectKind.SLEEP and not any(
                abs(o.position - aim.position) <= effect.radius and is_acting(o.status)
                and (effect.max_level is None or o.combatant.level <= effect.max_level) for o in foes):
            return None
    return aim


def _intent(actor: str, kind: IntentKind, target: str | None = None, **fields: Any) -> Intent:
    """``Intent(actor, kind, target, **fields)``, made in compiled code (:func:`~combatkit.made.made`; #18): the
    policy's intents are valid as written here (a maneuver of their own kind, a target to move away from, an item
    to ready), and the checks of ``Intent`` are its ``__post_init__``'s."""
    return made(Intent, {"actor": actor, "kind": kind, "target": target, **fields})


def _weapon_intents(f: Figure, target: Figure, gap: int, round: int, system: TimingSystem,
                    options: PolicyOptions) -> tuple[Intent, ...]:
    c = f.combatant
    missiles = [w for w in c.weapons if w.kind is WeaponKind.MISSILE]
    most = system.rules.max_missiles  # 003 §III times one, two or three missiles a round, no more
    if most is not None:
        missiles = [w for w in missiles if c.attacks_in_round(round, w) <= most]
    melee = routine(c) if any(w.kind is not WeaponKind.MISSILE for w in c.weapons) else ()
    if melee and all(w.length is Length.UNARMED for w in melee) and target.combatant.size.larger_than(c.size):
        melee = ()  # a routine of unarmed length (a cestus) is unarmed combat, with the fists' size limit
    if missiles and (gap > REACH or not melee):
        ranges = missile_range(missiles[0])
        if ranges is None or gap <= ranges[2] or not melee:
            return (_intent(f.name, IntentKind.ATTACK, target.name, weapons=(missiles[0].name,)),)
    if not melee and not c.weapons:
        if target.combatant.size.larger_than(c.size):
            return ()  # 002 Unarmed Combat: only on a creature of its own size or smaller
        attack = _intent(f.name, IntentKind.ATTACK, target.name, maneuver=Maneuver.PUMMEL)
    elif melee:
        attack = _intent(f.name, IntentKind.ATTACK, target.name, weapons=_names(melee))
    else:
        return ()
    if gap <= REACH:
        return (attack,)
    if not c.movement:
        return ()  # MV 0: it cannot close
    allowance = c.movement * 10 // 3
    if (options.charge and system.rules.charge is ChargeRule.COMBAT_II and Maneuver.CHARGE in system.maneuvers
            and allowance + REACH < gap <= c.movement * 10):
        return (_intent(f.name, IntentKind.MOVE, target.name, maneuver=Maneuver.CHARGE), attack)
    return (_intent(f.name, IntentKind.MOVE, target.name), attack)


def _unarmed_only(c: Combatant) -> bool:
    """No weapon, or none but of unarmed length: all its blows are unarmed combat (002 Unarmed Combat)."""
    return all(w.length is Length.UNARMED for w in c.weapons)


def _names(weapons: tuple[Weapon, ...]) -> tuple[str, ...]:
    return tuple(w.name for w in weapons)


def declare(system: str | TimingSystem, figures: Sequence[Figure], *, round: int = 1,
            surprised: frozenset[str] = frozenset(), options: PolicyOptions = PolicyOptions(),
            resolution: ResolutionOptions = ResolutionOptions(), skip: frozenset[str] = frozenset(),
            system_options: object = None) -> tuple[Declaration, ...]:
    """The policy's declarations for every active figure not in ``skip``, in ``system``'s terms: its
    :func:`intents` placed by the system's planner (:meth:`~combatkit.systems.base.TimingSystem.plan`), the
    figures where they stand (their positions give the distances) and as they are now.

    >>> from combatkit import load_example
    >>> from combatkit.battle import figures_from
    >>> [(d.actor, d.phase, d.kind.value) for d in declare("phase1", figures_from(load_example("orc-closes-on-longbowman")))]
    [('Aldric', 1, 'attack'), ('Aldric', 2, 'attack'), ('Grishnak', 1, 'move'), ('Grishnak', 2, 'attack')]
    """
    system = _found(system)
    present = [f for f in figures if is_present(f.status)]
    combatants = tuple(f.combatant if f.name not in surprised else _surprised(f) for f in present)
    distances = tuple((a.name, b.name, abs(a.position - b.position))
                      for i, a in enumerate(present) for b in present[i + 1:])
    planned = intents(present, system=system, round=round, surprised=surprised, options=options,
                      resolution=resolution, skip=skip)
    encounter = Encounter("policy", combatants, (), distances, round=round, system=system.id, intents=planned)
    return system.plan(encounter, system_options).declarations


def _surprised(f: Figure):
    from dataclasses import replace

    return replace(f.combatant, surprised=True)
