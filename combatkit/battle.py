"""Figures on a battle line: who stands where, in what state, with what the model lacks.

A fight is played on one line, in feet (:func:`layout`): the first side at 0, each later side
further on, figures the encounter gives distances for placed by them. A :class:`Figure` is a
combatant's state between rounds (hit points, position, status, spells used, conditions) and its
tally for the fight; :class:`FigureExtras` carries what the shared
:class:`~combatkit.model.Combatant` has no field for (shield, stance, mounted, cover...).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Final

from combatkit.attack import AttackForm
from combatkit.conditions import Condition
from combatkit.encounter import Encounter
from combatkit.kinds import IdentityEnum, WeaponKind
from combatkit.model import FISTS, Combatant, SpellEffect, Weapon
from combatkit.modifiers import Position, WeaponUse
from combatkit.stances import CombatManeuver, Shield, Stance

__all__ = [
    "NO_EXTRAS",
    "REACH",
    "REPOSITION",
    "ActiveCondition",
    "Figure",
    "FigureExtras",
    "FigureStatus",
    "Lasting",
    "attack_form",
    "figures_from",
    "layout",
    "missile_range",
    "routine",
]

REACH: Final = 5
"""Melee striking distance in feet (000 §2 D "within 5' or so"; 002 III.G "5' (1 square)")."""
REPOSITION: Final = 10
"""A repositioning step before an attack (000 §2 C: "max. 10'")."""


# ----------------------------------------------------------------- figures


class FigureStatus(IdentityEnum):
    """Where a figure stands in the fight."""

    ACTIVE = "active"
    DEAD = "dead"
    UNCONSCIOUS = "unconscious"
    """At 0 hit points or below but above ``dead_at`` (DMG 2e option)."""
    ASLEEP = "asleep"
    """Magical sleep: helpless, hit automatically."""
    HELD = "held"
    """Magically held: helpless, hit automatically."""
    FLED = "fled"
    """Left the fight."""
    CHARMED = "charmed"
    """Charmed by a foe's spell: it takes no hostile action, out of the fight."""
    SURRENDERED = "surrendered"
    """Gave up the fight: out of it, and no longer a foe (a DM's ruling at the table: :mod:`combatkit.table`)."""
    FRIGHTENED = "frightened"
    """Fleeing in panic from a spell's fear: it takes no action, but is still on the field (far off)
    and comes back when the spell ends."""

    @property
    def acts(self) -> bool:
        """Takes actions (:func:`is_acting`)."""
        return is_acting(self)

    @property
    def fallen(self) -> bool:
        """Dead or unconscious."""
        return self in (FigureStatus.DEAD, FigureStatus.UNCONSCIOUS)

    @property
    def present(self) -> bool:
        """Still on the field: active, asleep, held (helpless figures can be attacked) or frightened (running,
        and back when the spell ends)."""
        return is_present(self)


def is_acting(status: FigureStatus) -> bool:
    """Whether a figure with ``status`` takes actions (:attr:`FigureStatus.acts`). The engine asks this and
    :func:`is_present` some 70,000 times in 200 short-form four-vs-four fights, as functions: the compiled build
    reads an enum's property through Python's attribute lookup, some 260 instructions each time (#18)."""
    return status is FigureStatus.ACTIVE


def is_present(status: FigureStatus) -> bool:
    """Whether a figure with ``status`` is still on the field (:attr:`FigureStatus.present`)."""
    return status in (FigureStatus.ACTIVE, FigureStatus.ASLEEP, FigureStatus.HELD, FigureStatus.FRIGHTENED)


@dataclass(frozen=True)
class ActiveCondition:
    """A condition on a figure, over a window of the system's phases."""

    condition: Condition
    """What holds (``combatkit.conditions.CONDITIONS``)."""
    first: int
    """First phase it holds, counted over the whole fight from 0 (round 1's first phase)."""
    last: int
    """Last phase it holds."""
    rule: str
    """What imposed it."""
    until_attack: bool = False
    """It also ends after the figure's next attack."""


@dataclass(frozen=True)
class Lasting:
    """A spell's effect on a figure that lasts past the moment it went off: a sleep, hold, charm or
    fear that ends (and the figure is back in the fight), damage that comes again each round
    (:mod:`combatkit.resolution.spells`). Conditions it imposes are :class:`ActiveCondition` s."""

    effect: SpellEffect
    """The spell's effect."""
    caster: str
    """Who cast it."""
    level: int
    """The caster's level (dice units)."""
    since: int
    """Round of the fight it took hold in."""
    until: int | None
    """Last round of the fight it lasts; None: the rest of the fight."""
    status: FigureStatus | None = None
    """The status it put the figure in (asleep, held, charmed, frightened); None for damage."""
    last_phase: int | None = None
    """Where the system counts durations in phases (:attr:`SystemRules.durations_in_phases
    <combatkit.systems.rules.SystemRules.durations_in_phases>`, 000 §3 B), the last phase of the fight the status holds
    in (counted as :meth:`Walk.global_phase <combatkit.resolution.walk.Walk.global_phase>` counts them): it ends at
    that phase's end, not with the round ``until``. None: with the round."""


@dataclass(frozen=True)
class Figure:
    """A combatant's state between rounds, and its tally for the fight so far."""

    combatant: Combatant
    """As in the encounter; its ``hit_points`` are the figure's maximum."""
    hit_points: int
    """Current hit points (may be below 0)."""
    position: int
    """Feet along the battle line."""
    status: FigureStatus = FigureStatus.ACTIVE
    """Active, dead, unconscious, asleep, held, fled, charmed or frightened."""
    spells_used: tuple[str, ...] = ()
    """Spells begun (a ruined spell is used up too): no longer castable this fight."""
    components_ready: bool = True
    """Material components in hand (000 §2 A)."""
    conditions: tuple[ActiveCondition, ...] = ()
    """Conditions carried into later rounds."""
    fell: tuple[int, int] | None = None
    """(round, tick) it fell, fled or was put out of action; None while it is in the fight."""
    attacks: int = 0
    """Attack rolls made (and automatic hits)."""
    hits: int = 0
    """Attacks that hit."""
    damage_dealt: int = 0
    """Hit points of damage dealt, by blows and spells."""
    damage_taken: int = 0
    """Hit points of damage taken."""
    spells_attempted: int = 0
    """Spells declared (or begun) that reached their moment: went off, ruined or cancelled."""
    spells_succeeded: int = 0
    """Spells that went off."""
    holding: str | None = None
    """A spell held past the end of the last round, which goes off in this one: it counts as this
    round's casting, so no new spell may be begun (000 §2 A, Holding a Spell)."""
    lasting: tuple[Lasting, ...] = ()
    """Spells' effects on it still running: a sleep, hold, charm or fear to end, damage to come again."""
    no_effect_data: tuple[str, ...] = ()
    """Spells it cast that went off with no effect data (one name a casting): the engine applied nothing."""
    name: str = field(init=False, repr=False, compare=False)
    """Its combatant's name, kept beside it: a fight reads it hundreds of times, and the combatant is a Python
    value type, slow to read in the compiled build (#18)."""
    side: str = field(init=False, repr=False, compare=False)
    """Its combatant's side, likewise."""

    def __init__(self, combatant: Combatant, hit_points: int, position: int,
                 status: FigureStatus = FigureStatus.ACTIVE, spells_used: tuple[str, ...] = (),
                 components_ready: bool = True, conditions: tuple[ActiveCondition, ...] = (),
                 fell: tuple[int, int] | None = None, attacks: int = 0, hits: int = 0, damage_dealt: int = 0,
                 damage_taken: int = 0, spells_attempted: int = 0, spells_succeeded: int = 0,
                 holding: str | None = None, lasting: tuple[Lasting, ...] = (),
                 no_effect_data: tuple[str, ...] = ()) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        object.__setattr__(self, "combatant", combatant)
        object.__setattr__(self, "hit_points", hit_points)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "spells_used", spells_used)
        object.__setattr__(self, "components_ready", components_ready)
        object.__setattr__(self, "conditions", conditions)
        object.__setattr__(self, "fell", fell)
        object.__setattr__(self, "attacks", attacks)
        object.__setattr__(self, "hits", hits)
        object.__setattr__(self, "damage_dealt", damage_dealt)
        object.__setattr__(self, "damage_taken", damage_taken)
        object.__setattr__(self, "spells_attempted", spells_attempted)
        object.__setattr__(self, "spells_succeeded", spells_succeeded)
        object.__setattr__(self, "holding", holding)
        object.__setattr__(self, "lasting", lasting)
        object.__setattr__(self, "no_effect_data", no_effect_data)
        object.__setattr__(self, "name", combatant.name)
        object.__setattr__(self, "side", combatant.side)

    @property
    def max_hit_points(self) -> int:
        return self.combatant.hit_points


@dataclass(frozen=True)
class FigureExtras:
    """What one figure brings that the shared :class:`~combatkit.model.Combatant` has no field for."""

    shield: Shield = Shield.NONE
    """Shield carried (004 stances' AC bonus; 002 flank and rear attacks negate it)."""
    shield_ac: int = 1
    """AC points the shield gives (PH 2e: 1), negated from the flank and rear (002)."""
    stance: Stance = Stance.STANDARD
    """004 combat stance, held every round."""
    maneuver: CombatManeuver | None = None
    """A 004 combat maneuver made with every attack."""
    specialization_slots: int = 0
    """Weapon specialization slots (PH 2e, 000 Severity Rules II)."""
    exceptional_strength: int | None = None
    """18/xx strength, 1..100."""
    listed_damage_bonus: int = 0
    """A creature's listed damage bonus (000 Severity Rules II)."""
    attack_forms: Mapping[str, AttackForm] = field(default_factory=dict, hash=False)
    """How each missile weapon is used, by weapon name (default: bow, crossbow or thrown, by its name)."""
    mounted: bool = False
    """Mounted (002 Mounted Combat; 000 Charging: -2 AC when charging)."""
    weapon_uses: Mapping[str, WeaponUse] = field(default_factory=dict, hash=False)
    """A weapon's "horseman" or "footman" label, by weapon name (002 Mounted Combat II.A)."""
    lance: str | None = None
    """The weapon that is a lance (002 Mounted Combat III.A: double damage on a mounted charge)."""
    two_weapons: bool = False
    """Fights with its first two melee weapons as primary and off hand (002 Special Types of Attacks VI)."""
    cover: int = 0
    """Percent of the figure behind cover against missiles: 0, 25, 50, 75, 90 (002 Missile Attacks II)."""
    concealment: int = 0
    """Percent concealed: 0, 25, 50, 75, 90 (002 Missile Attacks III)."""
    invisible: bool = False
    """Invisible (002 Special Types of Attacks V): -4 to be hit, once it has attacked."""
    position: Position = Position.FRONT
    """Where this figure's attacks come from on its foe: front, flank or rear (002)."""


NO_EXTRAS: Final = FigureExtras()
"""A figure with nothing the model lacks."""


# ----------------------------------------------------------------- the battle line


def layout(encounter: Encounter, opening_gap: int = 30) -> dict[str, int]:
    """Positions in feet on one battle line, in encounter order: the first side at 0 and each later
    side ``opening_gap`` further on, except that a figure with a known distance to one already
    placed (``Encounter.distances``) stands that far from it, on its own side's side of it.

    >>> from combatkit import load_example
    >>> layout(load_example("fighter-and-mage-vs-orc-archer"))
    {'Brienne': 0, 'Mira': -30, 'Ugluk': 30}
    """
    index = {side: i for i, side in enumerate(encounter.sides)}
    side_of = {c.name: c.side for c in encounter.combatants}
    links: dict[str, list[tuple[str, int]]] = {c.name: [] for c in encounter.combatants}
    for a, b, feet in encounter.distances:
        links[a].append((b, feet))
        links[b].append((a, feet))
    pos: dict[str, int] = {}
    for c in encounter.combatants:
        if c.name in pos:
            continue
        pos[c.name] = index[c.side] * opening_gap
        todo = [c.name]
        while todo:
            here = todo.pop(0)
            for other, feet in links[here]:
                if other in pos:
                    continue
                mine, theirs = index[side_of[here]], index[side_of[other]]
                sign = 1 if theirs > mine else -1 if theirs < mine else (-1 if mine == 0 else 1)
                pos[other] = pos[here] + sign * feet
                todo.append(other)
    return dict(sorted(pos.items()))


def figures_from(encounter: Encounter, opening_gap: int = 30) -> tuple[Figure, ...]:
    """The encounter's combatants as figures at the start of a fight, on :func:`layout`'s line.
    A combatant entered with 0 hit points starts the fight down."""
    pos = layout(encounter, opening_gap)
    return tuple(
        Figure(c, c.hit_points, pos[c.name], FigureStatus.ACTIVE if c.hit_points > 0 else FigureStatus.UNCONSCIOUS,
               components_ready=c.components_ready, fell=None if c.hit_points > 0 else (0, 0))
        for c in encounter.combatants
    )


@cache
def _ranges() -> dict[str, tuple[int, int, int]]:
    text = resources.files("combatkit.data").joinpath("missile_ranges_ph2e.toml").read_text(encoding="utf-8")
    return {k: tuple(v) for k, v in tomllib.loads(text).items()}


def missile_range(weapon: Weapon, extra: Mapping[str, tuple[int, int, int]] | None = None) -> tuple[int, int, int] | None:
    """Short, medium and long range in feet of a missile weapon (PH 2e, tens of feet), or None if unknown.

    >>> missile_range(Weapon("long bow", 8, kind=WeaponKind.MISSILE))
    (70, 140, 210)
    """
    table = {**_ranges(), **(extra or {})}
    name = weapon.name.lower()
    key = name if name in table else max((k for k in table if k in name), key=len, default=None)
    if key is None:
        return None
    short, medium, long = table[key]
    return short * 10, medium * 10, long * 10


def attack_form(weapon: Weapon, extras: FigureExtras) -> AttackForm | None:
    """How a missile weapon is used, for its STR and DEX columns (:class:`combatkit.attack.AttackForm`):
    as ``extras`` says, else by its name (crossbow, bow, or thrown); None for melee and natural weapons.

    >>> attack_form(Weapon("heavy crossbow", 10, kind=WeaponKind.MISSILE), NO_EXTRAS)
    <AttackForm.CROSSBOW: 'crossbow'>
    """
    if weapon.kind is not WeaponKind.MISSILE:
        return None
    if weapon.name in extras.attack_forms:
        return extras.attack_forms[weapon.name]
    name = weapon.name.lower()
    if "crossbow" in name:
        return AttackForm.CROSSBOW
    if "bow" in name:
        return AttackForm.BOW
    return AttackForm.THROWN


def routine(c: Combatant, extras: FigureExtras = NO_EXTRAS) -> tuple[Weapon, ...]:
    """A figure's melee routine: all its natural attacks (claw/claw/bite, 000 §2 C), else its
    first melee weapon (its first two with ``two_weapons``), else its first weapon; with no weapon at
    all, its :data:`~combatkit.model.FISTS` (002 Unarmed Combat).

    >>> routine(Combatant("Ugluk", "orcs"))
    (Weapon(name='fists', speed_factor=5, magic_bonus=0, style_bonus=0, kind=<WeaponKind.NATURAL: 'natural'>, \
length=<Length.UNARMED: 'unarmed'>, damage='d2', rate_of_fire=Fraction(1, 1), attacks_per_round=None),)
    """
    naturals = tuple(w for w in c.weapons if w.kind is WeaponKind.NATURAL)
    if naturals:
        return naturals
    melee = tuple(w for w in c.weapons if w.kind is WeaponKind.MELEE)
    if melee:
        return melee[:2] if extras.two_weapons and len(melee) > 1 else melee[:1]
    return c.weapons[:1] or (FISTS,)
