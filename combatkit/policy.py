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

How a system takes the intent (each function below cites its rules): 000 Phase System I
uses phases 1-3, one action each, moving 1/3 MV and attacking when in reach (a repositioning
step covers up to 10' more, +2 SF; a surprised foe is struck at the end of the move, 000 §2 F);
Phase System II plays one A/B/C cycle a round, attacks spaced by Table 6; the Segment of
Action moves then strikes as a double action; the five-phase system declares each action for
the phase its facility falls due (a shift, a half-move or a full move first); the short form
moves (split as it likes) and attacks on its count; Strike Speed moves into its attack.
A surprised figure loses what its system says: 000 its first phase, 001 and 004 the round
(the short form and the Segment of Action decide surprise themselves).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from combatkit.effects import EffectKind, spell_effect
from combatkit.model import ONE_ROUND, ActionKind, Combatant, Declaration, Spell, Weapon, WeaponKind
from combatkit.battle import REACH, REPOSITION, Figure, missile_range, routine
from combatkit.resolution import ResolutionOptions
from combatkit.systems.phase1 import MAX_CT_BEGUN

__all__ = ["Intent", "PolicyOptions", "declare", "intents"]

MOVE, ATTACK, CAST, MISC = ActionKind.MOVE, ActionKind.ATTACK, ActionKind.CAST, ActionKind.MISC


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
    """000: material components must be readied before casting."""


@cache
def _attacks(apr: Fraction, weapon: Weapon, round: int) -> int:
    """:meth:`~combatkit.model.Combatant.attacks_in_round`, remembered (Fraction arithmetic is slow)."""
    return Combatant("x", "x", attacks_per_round=apr).attacks_in_round(round, weapon)


def _routines(c: Combatant, weapons: tuple[Weapon, ...], round: int) -> int:
    """Attack routines this round (see the module docstring, point 5)."""
    naturals = [w for w in weapons if w.kind is WeaponKind.NATURAL]
    if len(naturals) > 1 and Fraction(c.attacks_per_round) <= len(naturals):
        return 1
    return min(_attacks(Fraction(c.attacks_per_round), w, round) for w in weapons)


def _castable_000(spell: Spell, first_phase: int, ready_first: bool) -> bool:
    start = first_phase + (1 if ready_first else 0)
    if spell.casting_time == ONE_ROUND:
        return start == 1
    return start in MAX_CT_BEGUN and int(spell.casting_time) <= MAX_CT_BEGUN[start]


def intents(figures: Sequence[Figure], *, round: int = 1, system: str = "phase1",
            surprised: frozenset[str] = frozenset(), options: PolicyOptions = PolicyOptions(),
            resolution: ResolutionOptions = ResolutionOptions()) -> dict[str, Intent]:
    """Each active figure's intent for the round (module docstring, points 1-5)."""
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


def _spell_intent(f: Figure, figures: Sequence[Figure], target: Figure, foes: list[Figure], system: str,
                  surprised: frozenset[str], resolution: ResolutionOptions) -> Intent | None:
    c = f.combatant
    first_phase = 2 if f.name in surprised else 1
    for spell in c.spells:
        if spell.name in f.spells_used:
            continue
        ready_first = "M" in spell.component_set and not f.components_ready and system in ("phase1", "phase2")
        if system == "phase1" and not _castable_000(spell, first_phase, ready_first):
            continue
        effect = spell_effect(spell.name, resolution.spell_effects)
        if effect is not None and effect.kind is EffectKind.HEAL:
            hurt = [o for o in figures if o.side == f.side and o.status.acts and 2 * o.hit_points <= o.max_hit_points]
            if hurt:
                friend = min(hurt, key=lambda o: o.hit_points - o.max_hit_points)
                return Intent(f.name, "cast", friend.name, abs(friend.position - f.position), spell,
                              ready_first=ready_first)
            continue
        if spell.touch:
            continue
        aim = target
        if effect is not None:
            friends = [o for o in figures if o.side == f.side and o.status.present]
            if effect.radius and any(abs(o.position - aim.position) <= effect.radius for o in friends):
                continue
            if effect.kind is EffectKind.SLEEP and not any(
                    abs(o.position - aim.position) <= effect.radius and o.status.acts
                    and (effect.max_level is None or o.combatant.level <= effect.max_level) for o in foes):
                continue
            if effect.kind is EffectKind.HOLD:
                awake = [o for o in foes if o.status.acts]
                if not awake:
                    continue
                aim = min(awake, key=lambda o: abs(o.position - f.position))
        return Intent(f.name, "cast", aim.name, abs(aim.position - f.position), spell, ready_first=ready_first)
    return None


def _weapon_intent(f: Figure, target: Figure, gap: int, round: int, system: str) -> Intent | None:
    c = f.combatant
    missiles = [w for w in c.weapons if w.kind is WeaponKind.MISSILE]
    if system == "segments":  # 003 §III times one, two or three missiles a round, no more
        missiles = [w for w in missiles if _attacks(Fraction(c.attacks_per_round), w, round) <= 3]
    melee = routine(c) if any(w.kind is not WeaponKind.MISSILE for w in c.weapons) else ()
    if missiles and (gap > REACH or not melee):
        ranges = missile_range(missiles[0])
        if ranges is None or gap <= ranges[2] or not melee:
            return Intent(f.name, "shoot", target.name, gap, weapons=(missiles[0],))
    if melee:
        return Intent(f.name, "melee", target.name, gap, weapons=melee)
    return None


# ----------------------------------------------------------------- per system


def declare(system: str, figures: Sequence[Figure], *, round: int = 1, surprised: frozenset[str] = frozenset(),
            options: PolicyOptions = PolicyOptions(), resolution: ResolutionOptions = ResolutionOptions(),
            skip: frozenset[str] = frozenset(), system_options: object = None) -> tuple[Declaration, ...]:
    """Declarations for every active figure not in ``skip``, in ``system``'s terms.

    ``round`` is the encounter's round number (3/2 attacks give 2 in even rounds);
    ``surprised`` the figures surprised this round.
    """
    plans = intents(figures, round=round, system=system, surprised=surprised, options=options,
                    resolution=resolution)
    people = {f.name: f for f in figures}
    out: list[Declaration] = []
    for name, intent in plans.items():
        if name in skip:
            continue
        f = people[name]
        target = people.get(intent.target) if intent.target else None
        if system in ("phase1", "phase2"):
            out += _combat_ii(system, f, intent, target, round, surprised, options)
        elif system == "segments":
            out += _move_then_act(f, intent)
        elif system == "five_phase":
            if name not in surprised:
                out += _five_phase(f, intent, round, system_options)
        elif system == "short_form":
            out += _short_form(f, intent)
        elif name not in surprised:
            out += _move_then_act(f, intent)
    return tuple(out)


def _names(weapons: tuple[Weapon, ...]) -> tuple[str, ...]:
    return tuple(w.name for w in weapons)


def _combat_ii(system: str, f: Figure, intent: Intent, target: Figure | None, round: int,
               surprised: frozenset[str], options: PolicyOptions) -> list[Declaration]:
    """000 §1-2 (Phase System I) and §3 (Phase System II, one A/B/C cycle): one action a phase."""
    c, name = f.combatant, f.name
    phases = [2, 3] if name in surprised else [1, 2, 3]
    allowance = c.movement * 10 // 3
    if intent.mode == "flee":
        return [Declaration(name, p, MOVE, feet=allowance, note="flee") for p in phases]
    if intent.mode == "cast":
        assert intent.spell is not None
        out = []
        p = phases[0]
        if intent.ready_first:
            out.append(Declaration(name, p, MISC, readies_components=True, note="readies material components"))
            p += 1
        return out + [Declaration(name, p, CAST, target=intent.target, spell=intent.spell.name)]
    weapons = intent.weapons
    left = _routines(c, weapons, round)
    single = left == 1
    pattern: tuple[int, ...] = (1,)
    if system == "phase2":
        from combatkit.systems.phase2 import attack_schedule  # 000 §3 C Table 6

        naturals = len([w for w in weapons if w.kind is WeaponKind.NATURAL])
        rate = Fraction(weapons[0].attacks_per_round or c.attacks_per_round)
        if intent.mode == "shoot":
            rate *= Fraction(weapons[0].rate_of_fire)
        elif naturals > 1 and Fraction(c.attacks_per_round) <= naturals:
            rate = Fraction(1)
        pattern, left = attack_schedule(rate), len(phases)
        single = sum(1 for i in range(3) if pattern[i % len(pattern)]) <= 1
    out: list[Declaration] = []
    gap = intent.gap
    first_attack: int | None = None
    target_surprised = target is not None and target.name in surprised
    for p in phases:
        if left <= 0:
            break
        if first_attack is not None and system == "phase2" and not pattern[(p - first_attack) % len(pattern)]:
            continue
        if intent.mode == "shoot" or gap <= REACH:
            out.append(Declaration(name, p, ATTACK, target=intent.target, weapons=_names(weapons)))
        elif gap <= REACH + REPOSITION and single:
            # The step is taken for the round's one attack: the scheduler keeps the old distance after it.
            out.append(Declaration(name, p, ATTACK, target=intent.target, weapons=_names(weapons), reposition=True))
            gap = REACH
        elif p == 1 and target_surprised and gap - REACH <= allowance:
            out.append(Declaration(name, p, ATTACK, target=intent.target, weapons=_names(weapons),
                                   feet=gap - REACH))
            gap = REACH
        elif options.charge and p == phases[0] and allowance + REACH < gap <= c.movement * 10:
            out.append(Declaration(name, p, MOVE, target=intent.target, feet=allowance, note="charge"))
            break
        else:
            step = min(allowance, gap - REACH)
            out.append(Declaration(name, p, MOVE, target=intent.target, feet=step))
            gap -= step
            continue
        left -= 1
        first_attack = p if first_attack is None else first_attack
    return out


def _at_once(f: Figure, intent: Intent, flee_note: str) -> list[Declaration] | None:
    """What 003, 002 and 004 declare alike in a figure's first step: a flight at its full rate, a
    spell, or a shot or blow already in reach; None when it must first close on its target."""
    name = f.name
    if intent.mode == "flee":
        return [Declaration(name, 1, MOVE, feet=f.combatant.movement * 10, note=flee_note)]
    if intent.mode == "cast":
        assert intent.spell is not None
        return [Declaration(name, 1, CAST, target=intent.target, spell=intent.spell.name)]
    if intent.mode == "shoot" or intent.gap <= REACH:
        return [Declaration(name, 1, ATTACK, target=intent.target, weapons=_names(intent.weapons))]
    return None


def _move_then_act(f: Figure, intent: Intent) -> list[Declaration]:
    """003 and 004: a move first, the blow after it when the move reaches the target. Under 003 the
    blow is then a double action (003 §III); under 004 Strike Speed the move happens at the
    attack's strike speed."""
    at_once = _at_once(f, intent, "flee")
    if at_once is not None:
        return at_once
    close = intent.gap - REACH
    out = [Declaration(f.name, 1, MOVE, target=intent.target, feet=min(close, f.combatant.movement * 10))]
    if close <= f.combatant.movement * 10:
        out.append(Declaration(f.name, 2, ATTACK, target=intent.target, weapons=_names(intent.weapons)))
    return out


def _five_phase(f: Figure, intent: Intent, round: int, system_options: object) -> list[Declaration]:
    """001: each action in the phase its facility falls due (001 B), after a shift, half-move or full move."""
    from combatkit.systems.five_phase import FivePhaseOptions, action_for, attack_phases, spell_facility, weapon_facility

    c, name = f.combatant, f.name
    options = system_options if isinstance(system_options, FivePhaseOptions) else FivePhaseOptions()
    if intent.mode == "flee":
        return [Declaration(name, 1, MOVE, note="break & run")]
    if intent.mode == "cast":
        assert intent.spell is not None
        d = Declaration(name, 1, CAST, target=intent.target, spell=intent.spell.name)
        phase, _ = spell_facility(intent.spell, action_for(c, d))
        return [Declaration(name, phase, CAST, target=intent.target, spell=intent.spell.name)]
    weapons = intent.weapons
    facility = max(weapon_facility(c, w, options)[0] for w in weapons)
    attacks = _routines(c, weapons, round) if c.char_class.strip().lower() != "monster" or len(weapons) == 1 else 1
    out: list[Declaration] = []
    shift = 0
    close = intent.gap - REACH if intent.mode == "melee" and intent.gap > REACH else 0
    if close:
        if close <= 10:
            out.append(Declaration(name, 1, MOVE, target=intent.target, feet=close, note="shift"))
        elif close <= c.movement * 10 // 2:
            out.append(Declaration(name, 1, MOVE, target=intent.target, feet=close, note="half-move"))
            shift, attacks = 1, 1
        else:
            return [Declaration(name, 1, MOVE, target=intent.target, feet=min(close, c.movement * 10),
                                note="full move")]
    for phase in attack_phases(facility, attacks):
        out.append(Declaration(name, min(6, phase + shift), ATTACK, target=intent.target, weapons=_names(weapons)))
        if phase + shift >= 6:
            break  # one Last Action; a later attack would fall in the next round (001 H)
    return out


def _short_form(f: Figure, intent: Intent) -> list[Declaration]:
    """002: move the standard rate and attack or cast on the count (III.D); farther, two moves."""
    at_once = _at_once(f, intent, "breaking off")
    if at_once is not None:
        return at_once
    name, rate, close = f.name, f.combatant.movement * 10, intent.gap - REACH
    if close <= rate:
        return [Declaration(name, 1, MOVE, target=intent.target, feet=close),
                Declaration(name, 2, ATTACK, target=intent.target, weapons=_names(intent.weapons))]
    return [Declaration(name, 1, MOVE, target=intent.target, feet=rate),
            Declaration(name, 2, MOVE, target=intent.target, feet=min(rate, close - rate))]
