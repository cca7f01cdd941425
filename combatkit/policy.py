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
   that is in melee reach of a foe flees (000 §2 D; 001 Break & Run; 002 Breaking Off).
3. **Cast**: a figure with spells casts its first castable one: a healing spell (by touch
   too) on the most wounded friend at half its hit points or less; any other spell at the
   target, unless it is a touch spell (the policy does not deliver touches), an area spell
   would take in a friend, a sleep would find no one it can affect, or a hold the target is
   already held or asleep. A spell with no effect data is cast at the target all the same.
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

How a system takes the intent is the system's own hook,
:meth:`TimingSystem.declare <combatkit.systems.base.TimingSystem.declare>` (each cites its rules;
the shared plans are in :mod:`combatkit.systems._policy`): 000 Phase System I uses phases 1-3, one
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

from combatkit.effects import EffectKind, spell_effect, takes
from combatkit.model import Declaration, Spell, Weapon, WeaponKind
from combatkit.battle import REACH, Figure, missile_range, routine
from combatkit.resolution import ResolutionOptions
from combatkit.systems._policy import attacks_in_round
from combatkit.systems.base import TimingSystem, find_system

__all__ = ["Intent", "PolicyOptions", "PolicyRound", "declare", "intents"]


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


@dataclass(frozen=True)
class Intent:
    """What a figure means to do this round, before a system's terms."""

    actor: str
    """Who."""
    mode: str
    """``"cast"``, ``"shoot"``, ``"melee"`` or ``"flee"``."""
    target: str | None
    """Whom (None for a flight)."""
    gap: int
    """Feet to the target now."""
    spell: Spell | None = None
    """The spell, for a cast."""
    weapons: tuple[Weapon, ...] = ()
    """The weapon (missile) or routine (melee)."""
    ready_first: bool = False
    """Material components must be readied before casting (000 §2 A,
    :attr:`SystemRules.components_in_hand <combatkit.systems.rules.SystemRules.components_in_hand>`)."""


@dataclass(frozen=True)
class PolicyRound:
    """What a system's :meth:`~combatkit.systems.base.TimingSystem.declare` knows of the round
    besides the figure and its intent."""

    round: int
    """The encounter's round number (3/2 attacks per round give 2 in even rounds)."""
    surprised: frozenset[str] = frozenset()
    """The figures surprised this round."""
    options: PolicyOptions = PolicyOptions()
    """The policy's choices (``charge``...)."""
    system_options: object = None
    """The system's options for the round (None: the seed's defaults)."""


def _found(system: str | TimingSystem) -> TimingSystem:
    return find_system(system) if isinstance(system, str) else system


def intents(figures: Sequence[Figure], *, system: str | TimingSystem, round: int = 1,
            surprised: frozenset[str] = frozenset(), options: PolicyOptions = PolicyOptions(),
            resolution: ResolutionOptions = ResolutionOptions()) -> dict[str, Intent]:
    """Each active figure's intent for the round (module docstring, points 1-5) under ``system``
    (an id, alias or system: which spells it lets a caster begin, how many missiles it times)."""
    system = _found(system)
    claims: dict[str, int] = {}
    order = {f.name: i for i, f in enumerate(figures)}
    out: dict[str, Intent] = {}
    for f in figures:
        if not f.status.acts or f.holding is not None:  # 000 §2 A: the held spell is this round's casting
            continue
        c = f.combatant
        foes = [o for o in figures if o.side != f.side and o.status.present]
        if not foes:
            continue
        extras = resolution.extras(f.name)

        def nearest(pool: list[Figure]) -> Figure:
            return min(pool, key=lambda o: (abs(o.position - f.position),
                                            claims.get(o.name, 0) if options.spread else 0, order[o.name]))

        target = nearest(foes)
        gap = abs(target.position - f.position)
        if (options.flee_below is not None and f.hit_points <= options.flee_below * f.max_hit_points
                and any(abs(o.position - f.position) <= REACH for o in foes if o.status.acts)):
            out[f.name] = Intent(f.name, "flee", None, gap)
            continue
        intent = None
        if options.cast and c.spells and not extras.stance.defensive:
            intent = _spell_intent(f, figures, target, foes, system, surprised, resolution)
        if intent is None and extras.stance.can_attack:  # 004 Full Defense: "no attack possible"
            intent = _weapon_intent(f, target, gap, round, system)
        if intent is None:
            continue
        if intent.target is not None and intent.mode != "cast":
            claims[intent.target] = claims.get(intent.target, 0) + 1
        out[f.name] = intent
    return out


def _spell_intent(f: Figure, figures: Sequence[Figure], target: Figure, foes: list[Figure], system: TimingSystem,
                  surprised: frozenset[str], resolution: ResolutionOptions) -> Intent | None:
    c = f.combatant
    for spell in c.spells:
        if spell.name in f.spells_used:
            continue
        ready_first = "M" in spell.component_set and not f.components_ready and system.rules.components_in_hand
        if not system.castable(spell, surprised=f.name in surprised, ready_first=ready_first):
            continue
        effect = spell_effect(spell, resolution.spell_effects)
        if effect is not None and effect.kind is EffectKind.HEAL:
            hurt = [o for o in figures if o.side == f.side and o.status.acts and 2 * o.hit_points <= o.max_hit_points]
            if hurt:
                friend = min(hurt, key=lambda o: o.hit_points - o.max_hit_points)
                return Intent(f.name, "cast", friend.name, abs(friend.position - f.position), spell,
                              ready_first=ready_first)
            continue
        if effect is not None and not effect.hostile:  # haste, protection, bless: the friend nearest the foe
            ready = [o for o in figures if o.side == f.side and takes(effect, o)]
            if not ready:
                continue
            friend = min(ready, key=lambda o: abs(o.position - target.position))
            return Intent(f.name, "cast", friend.name, abs(friend.position - f.position), spell,
                          ready_first=ready_first)
        if spell.touch:
            continue
        aim = target
        if effect is not None:
            if effect.kind not in (EffectKind.DAMAGE, EffectKind.SLEEP):  # hold, charm, web...: a foe it works on
                awake = [o for o in foes if takes(effect, o)]
                if not awake:
                    continue
                aim = min(awake, key=lambda o: abs(o.position - f.position))
            friends = [o for o in figures if o.side == f.side and o.status.present]
            if (effect.radius and not effect.selective
                    and any(abs(o.position - aim.position) <= effect.radius for o in friends)):
                continue
            if effect.kind is EffectKind.SLEEP and not any(
                    abs(o.position - aim.position) <= effect.radius and o.status.acts
                    and (effect.max_level is None or o.combatant.level <= effect.max_level) for o in foes):
                continue
        return Intent(f.name, "cast", aim.name, abs(aim.position - f.position), spell, ready_first=ready_first)
    return None


def _weapon_intent(f: Figure, target: Figure, gap: int, round: int, system: TimingSystem) -> Intent | None:
    c = f.combatant
    missiles = [w for w in c.weapons if w.kind is WeaponKind.MISSILE]
    most = system.rules.max_missiles  # 003 §III times one, two or three missiles a round, no more
    if most is not None:
        missiles = [w for w in missiles if attacks_in_round(Fraction(c.attacks_per_round), w, round) <= most]
    melee = routine(c) if any(w.kind is not WeaponKind.MISSILE for w in c.weapons) else ()
    if missiles and (gap > REACH or not melee):
        ranges = missile_range(missiles[0])
        if ranges is None or gap <= ranges[2] or not melee:
            return Intent(f.name, "shoot", target.name, gap, weapons=(missiles[0],))
    if melee:
        return Intent(f.name, "melee", target.name, gap, weapons=melee)
    return None


# ----------------------------------------------------------------- per system


def declare(system: str | TimingSystem, figures: Sequence[Figure], *, round: int = 1,
            surprised: frozenset[str] = frozenset(), options: PolicyOptions = PolicyOptions(),
            resolution: ResolutionOptions = ResolutionOptions(), skip: frozenset[str] = frozenset(),
            system_options: object = None) -> tuple[Declaration, ...]:
    """Declarations for every active figure not in ``skip``, in ``system``'s terms (an id, alias or
    system; its :meth:`~combatkit.systems.base.TimingSystem.declare`).

    ``round`` is the encounter's round number (3/2 attacks give 2 in even rounds);
    ``surprised`` the figures surprised this round: where the system's surprised figures sit the
    round out (:attr:`SystemRules.surprised_sits_out <combatkit.systems.rules.SystemRules.surprised_sits_out>`)
    they declare nothing.
    """
    system = _found(system)
    plans = intents(figures, round=round, system=system, surprised=surprised, options=options,
                    resolution=resolution)
    people = {f.name: f for f in figures}
    context = PolicyRound(round, surprised, options, system_options)
    sits_out = system.rules.surprised_sits_out is not None
    out: list[Declaration] = []
    for name, intent in plans.items():
        if name in skip or (sits_out and name in surprised):
            continue
        out += system.declare(people[name], intent, context)
    return tuple(out)
