"""Situational attack modifiers: the tables of the A.D.D.I.C.T. short form (seed 002).

Range, cover and concealment (002 Missile Attacks), flank and rear attacks, stunned, prone,
sleeping, held and invisible opponents, two weapons (002 Special Types of Attacks), charging
(002 Charging), breaking off (002 Breaking Off From Melee), mounted and unarmed combat. The
numbers live in ``combatkit/data/modifiers_002.toml``; :func:`situational_modifiers` turns one
attack's :class:`Situation` into to-hit and Armor Class terms (:class:`combatkit.attack.Modifier`)
that the resolver hands to the shared to-hit routine.

>>> adj = situational_modifiers(Situation(position=Position.REAR), shield_ac=1, dex_ac=-2)
>>> [str(m) for m in adj.to_hit], [str(m) for m in adj.armor_class]
(['+2 rear attack'], ['+1 rear attack: no shield bonus', '+2 rear attack: no Dexterity bonus'])

Readings this module takes (the resolver applies them under every timing system, since they
restate the Player's Handbook's own; :class:`combatkit.resolution.ResolutionOptions` has
``modifiers_002=False`` to switch them off):

* "Negates shield and Dexterity bonuses to AC" adds back the shield's AC points and the
  Dexterity Defensive Adjustment (PH 2e Table 2) when that is a bonus; a Dexterity penalty
  stays.
* 002 lists "Rear attacks negate shield and Dexterity bonuses" again under stunned and
  sleeping opponents: it is the rear attack that negates them, not the stun.
* Two weapons: "Dexterity Reaction/Attacking Adjustment applies but can never result in a
  bonus": the penalty plus the PH Reaction Adjustment, at most 0.
* A charger's own AC (002 Charging II): it loses its Dexterity bonus; one without one is one
  AC worse; AC 10 has no penalty.
* Cover and concealment are printed under Missile Attacks; they are applied to whatever
  attack the caller gives them for.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Final

from combatkit.attack import Modifier
from combatkit.conditions import CONDITIONS
from combatkit.errors import IllegalActionError, RulesError
from combatkit.kinds import IdentityEnum, Maneuver, Size
from combatkit.model import reaction_adjustment

__all__ = [
    "Adjustment",
    "Hand",
    "Position",
    "RangeBand",
    "Situation",
    "TargetState",
    "WeaponUse",
    "situational_modifiers",
    "table_002",
    "two_weapon_modifier",
    "wrong_target_chance",
]

MISSILES: Final = "002 Missile Attacks"
SPECIAL: Final = "002 Special Types of Attacks"


@cache
def table_002() -> dict[str, Any]:
    """``modifiers_002.toml``: 002's numbers, by table."""
    text = resources.files("combatkit.data").joinpath("modifiers_002.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


class RangeBand(IdentityEnum):
    """002 Missile Attacks I."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


class Position(IdentityEnum):
    """Where the attacker stands relative to the defender's front (002 Special Types of Attacks, Mounted I)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


class TargetState(IdentityEnum):
    """The defender's state (002 Special Types of Attacks III, IV)."""

    NORMAL = "normal"
    STUNNED = "stunned"
    PRONE = "prone"
    MOTIONLESS = "motionless"
    SLEEPING = "sleeping"
    """Magically sleeping: automatically hit."""
    HELD = "held"
    """Magically held: automatically hit."""


class Hand(IdentityEnum):
    """Which weapon of a two-weapon routine (002 Special Types of Attacks VI)."""

    PRIMARY = "primary"
    SECONDARY = "secondary"


class WeaponUse(IdentityEnum):
    """A weapon's label for mounted combat (002 Mounted Combat II.A)."""

    HORSEMAN = "horseman"
    FOOTMAN = "footman"


@dataclass(frozen=True)
class Situation:
    """Everything about one attack that 002's tables look at. Defaults: a plain frontal melee blow."""

    range: RangeBand | None = None
    """Missile range band; None for melee."""
    cover: int = 0
    """Percent of the target behind cover: 0, 25, 50, 75 or 90."""
    concealment: int = 0
    """Percent of the target concealed: 0, 25, 50, 75 or 90."""
    position: Position = Position.FRONT
    """Front, flank or rear of the defender."""
    target_state: TargetState = TargetState.NORMAL
    """Stunned, prone, motionless, magically sleeping or held."""
    invisible: bool = False
    """The defender is invisible."""
    located: bool = True
    """An invisible defender has been located (or is attacking): it can be attacked."""
    two_weapons: Hand | None = None
    """The attack is one hand of a two-weapon routine."""
    charging: bool = False
    """The attacker is charging (+2 to hit)."""
    target_charging: bool = False
    """The defender is charging (it loses its Dexterity bonus to AC)."""
    set_vs_charge: bool = False
    """The attacker set its weapon against the defender's charge: double damage."""
    mounted: bool = False
    """The attacker is mounted."""
    target_mounted: bool = False
    """The defender is mounted."""
    weapon_use: WeaponUse | None = None
    """The attacker's weapon is labelled "horseman" or "footman"."""
    lance: bool = False
    """A mounted charge with a lance: double damage."""
    unarmed: Maneuver | None = None
    """An unarmed attack and its type (002 Unarmed Combat I): pummel, grapple or overbear."""
    breaking_off: bool = False
    """The defender is breaking off from melee: this is its attack of opportunity."""
    target_casting: bool = False
    """The defender is casting a spell: no Dexterity bonus to AC (002 III.E)."""

    def __post_init__(self) -> None:
        for name in ("cover", "concealment"):
            value = getattr(self, name)
            if str(value) not in table_002()[name] and value != 0:
                raise RulesError(f"{MISSILES}: {name.capitalize()}",
                                 f"{name} is 0, 25, 50, 75 or 90 percent, got {value!r}")
        if self.unarmed is not None and not self.unarmed.unarmed:
            raise RulesError("002 Unarmed Combat I", f"an unarmed attack is a pummel, grapple or overbear, "
                                                     f"got {self.unarmed.value}")


@dataclass(frozen=True)
class Adjustment:
    """What 002's tables make of one attack."""

    to_hit: tuple[Modifier, ...] = ()
    """Terms added to the attack roll."""
    armor_class: tuple[Modifier, ...] = ()
    """Terms added to the defender's Armor Class number."""
    automatic_hit: bool = False
    """The attack hits without a roll (sleeping or held defender)."""
    damage_multiplier: int = 1
    """Damage is multiplied by this (set vs. charge, lance charge)."""
    damage_dice: str | None = None
    """Damage dice replacing the weapon's (a pummel's d2)."""
    notes: tuple[str, ...] = ()
    """Effects for the referee or the resolver to apply (a grapple's hold, an overbear's save)."""
    dexterity_term: Modifier | None = None
    """The term of ``armor_class`` that takes the defender's Dexterity bonus away, if one does (so that a
    rule taking it away too, 000 §2 C's defenseless target, does not take it twice)."""


def two_weapon_modifier(hand: Hand, dexterity: int, weapon_name: str = "") -> int:
    """To-hit modifier of one hand in a two-weapon routine (002 Special Types of Attacks VI):
    -2 primary, -4 secondary, plus the Reaction Adjustment but never a bonus. The off-hand
    weapon must be a dagger or hand axe.

    >>> two_weapon_modifier(Hand.PRIMARY, 17), two_weapon_modifier(Hand.SECONDARY, 17, "dagger")
    (0, -2)
    """
    table = table_002()["two_weapons"]
    if hand is Hand.SECONDARY and weapon_name and not any(w in weapon_name.lower() for w in table["offhand"]):
        raise IllegalActionError(f"{SPECIAL} VI.A", f"the off-hand weapon must be a dagger or hand axe, got {weapon_name!r}")
    return min(0, table[hand.value] + reaction_adjustment(dexterity))


def wrong_target_chance(adjacent: Size) -> Fraction:
    """Chance a missile fired into melee hits an adjacent opponent of this size instead
    (002 Missile Attacks IV.B): 5% small, 10% medium, 20% large (and larger).

    >>> wrong_target_chance(Size.MEDIUM)
    Fraction(1, 10)
    """
    table = table_002()["firing_into_melee"]
    key = {Size.TINY: "small", Size.SMALL: "small", Size.MEDIUM: "medium"}.get(adjacent, "large")
    return Fraction(table[key])


def situational_modifiers(situation: Situation, *, defender_armor_class: int = 5, shield_ac: int = 0,
                          dex_ac: int = 0, attacker_dexterity: int = 10, weapon_name: str = "",
                          attacker_size: Size = Size.MEDIUM, defender_size: Size = Size.MEDIUM) -> Adjustment:
    """002's modifiers for one attack.

    ``shield_ac`` is the AC the defender's shield gives (points, 0 without one); ``dex_ac`` its
    Dexterity Defensive Adjustment (negative is a bonus, :func:`combatkit.model.defensive_adjustment`).

    >>> a = situational_modifiers(Situation(range=RangeBand.LONG, cover=50))
    >>> [str(m) for m in a.to_hit], [str(m) for m in a.armor_class]
    (['-5 long range'], ['+4 50% cover'])
    >>> situational_modifiers(Situation(target_state=TargetState.SLEEPING)).automatic_hit
    True
    """
    t = table_002()
    s = situation
    to_hit: list[Modifier] = []
    armor: list[Modifier] = []
    notes: list[str] = []
    multiplier, dice, automatic = 1, None, False
    negate_shield: str | None = None
    negate_dex: str | None = None

    def hit(label: str, value: int, rule: str) -> None:
        if value:
            to_hit.append(Modifier(label, value, rule))

    def ac(label: str, value: int, rule: str) -> None:
        if value:
            armor.append(Modifier(label, value, rule))

    if s.invisible:
        if not s.located:
            raise IllegalActionError(f"{SPECIAL} V.A", "an invisible opponent can only be attacked if it is "
                                                       "attacking or otherwise located")
        if s.position is not Position.FRONT:
            raise IllegalActionError(f"{SPECIAL} V.C", f"an invisible opponent cannot be attacked from the "
                                                       f"{s.position.value}")
        hit("invisible opponent", t["invisible"]["to_hit"], f"{SPECIAL} V.B")
    if s.range is not None:
        hit(f"{s.range.value} range", t["range"][s.range.value], f"{MISSILES} I")
    if s.cover:
        ac(f"{s.cover}% cover", t["cover"][str(s.cover)], f"{MISSILES} II")
    if s.concealment:
        ac(f"{s.concealment}% concealment", t["concealment"][str(s.concealment)], f"{MISSILES} III")
    if s.position is Position.FLANK:
        negate_shield = "flank attack"
    elif s.position is Position.REAR:
        hit("rear attack", t["rear"]["to_hit"], f"{SPECIAL} II.A")
        negate_shield = negate_dex = "rear attack"
    if s.target_state in (TargetState.STUNNED, TargetState.PRONE, TargetState.MOTIONLESS):
        hit(f"{s.target_state.value} opponent", t["helpless"]["to_hit"], f"{SPECIAL} III.A")
    elif s.target_state in (TargetState.SLEEPING, TargetState.HELD):
        automatic = True
        notes.append(f"A magically {s.target_state.value} opponent is hit automatically ({SPECIAL} IV.A).")
    if s.two_weapons is not None:
        hit(f"two weapons, {s.two_weapons.value} hand", two_weapon_modifier(s.two_weapons, attacker_dexterity,
                                                                            weapon_name), f"{SPECIAL} VI.B-C")
    if s.charging:
        hit("charging", t["charging"]["to_hit"], "002 Charging III.C")
    if s.target_charging:
        if dex_ac < 0:
            negate_dex = "charging"
        elif defender_armor_class < 10:
            ac("charging, no Dexterity bonus", t["charging"]["no_dexterity_bonus_ac"], "002 Charging II.A.i")
    if s.set_vs_charge:
        multiplier *= t["charging"]["set_damage_multiplier"]
        notes.append("Set vs. the charge: resolved first, at double damage (002 Charging III.A).")
    if s.breaking_off:
        hit("opponent breaking off", t["breaking_off"]["to_hit"], "002 Breaking Off I.A")
        negate_shield = negate_dex = "breaking off"
    if s.target_casting and negate_dex is None:
        negate_dex = "casting"
    mounted = t["mounted"]
    if s.mounted and s.weapon_use is not None:
        value = mounted["horseman_weapon"] if s.weapon_use is WeaponUse.HORSEMAN else mounted["footman_weapon"]
        hit(f"{s.weapon_use.value} weapon, mounted", value, "002 Mounted Combat II.A")
    if s.mounted and not s.target_mounted:
        hit("mounted vs. footman", mounted["mounted_vs_footman"], "002 Mounted Combat II.B")
    if s.target_mounted and not s.mounted:
        hit("footman vs. mounted", mounted["footman_vs_mounted"], "002 Mounted Combat II.C")
    if s.lance and s.mounted and s.charging:
        multiplier *= mounted["lance_charge_damage_multiplier"]
        notes.append("A mounted charge with a lance: double damage (002 Mounted Combat III.A).")
    if s.unarmed is not None:
        if defender_size.larger_than(attacker_size):
            raise IllegalActionError("002 Unarmed Combat", f"unarmed combat only on a creature of its own size or "
                                                           f"smaller: {attacker_size.value} vs. {defender_size.value}")
        if s.unarmed is Maneuver.PUMMEL:
            dice = t["unarmed"]["pummel_damage"]
            notes.append("Pummeling does 1d2 (002 Unarmed Combat III.A).")
        elif s.unarmed is Maneuver.GRAPPLE:
            notes.append(f"Grappling does no damage: it holds the opponent up to 1 round, "
                         f"{CONDITIONS['grappled'].text} (002 Unarmed Combat III.B).")
        else:
            notes.append("Overbearing does no damage: the victim saves vs. petrification or falls prone "
                         "(002 Unarmed Combat III.C).")
    if negate_shield and shield_ac:
        ac(f"{negate_shield}: no shield bonus", shield_ac, f"{SPECIAL} I.A" if negate_shield == "flank attack"
           else f"{SPECIAL} II.B" if negate_shield == "rear attack" else "002 Breaking Off I.B")
    dexterity_term = None
    if negate_dex and dex_ac < 0:
        rule = {"rear attack": f"{SPECIAL} II.B", "breaking off": "002 Breaking Off I.B",
                "charging": "002 Charging II.A", "casting": "002 III.E"}[negate_dex]
        ac(f"{negate_dex}: no Dexterity bonus", -dex_ac, rule)
        dexterity_term = armor[-1]
    return Adjustment(tuple(to_hit), tuple(armor), automatic, multiplier, dice, tuple(notes), dexterity_term)
