"""The general attack: who attacks whom, with what, and the number needed on the d20.

An :class:`Attacker` (THAC0, STR, DEX, the weapon and how it is used, stance, maneuver,
conditions) and a :class:`Defender` (AC, stance, shield, conditions) make, under one of
the three rule sets, an :class:`AttackSetup`: every to-hit, damage and Armor Class term
as a :class:`Modifier` citing its rule, and the natural d20 roll needed to hit. What the
roll then does (severe and critical hits and misses, damage, exact odds) is
:mod:`combatkit.criticals`; 002's situational tables (:mod:`combatkit.modifiers`) add
their terms to the same sums.

>>> from combatkit.model import Weapon
>>> aldric = Attacker("Aldric", Weapon("long sword", 5, damage="d8"), thac0=15, strength=18, exceptional=99)
>>> orc = Defender("orc", armor_class=6)
>>> setup = setup_attack(aldric, orc, "000-II")
>>> print(setup.explain())
Aldric needs 7 on d20 to hit orc: THAC0 15, +2 STR 18/91-99, against AC 6
>>> [str(m) for m in setup.damage], [str(m) for m in setup_attack(aldric, orc, "000-I").damage]
(['+3 STR 18/91-99'], ['+5 STR 18/91-99'])

The rule set (:class:`RuleSet`, looked up by :func:`find_rule_set`) is chosen here
because it shapes the sums before the die is rolled: the Player's Handbook's STR, DEX,
specialization and magic columns under ``"000-I"`` and ``"004"``, 000-II's own split
(STR, specialization and magic mostly to THAC0) under ``"000-II"``. One
:class:`CriticalOptions` holds the readings of all three rule sets, those of the sums
below and those of the critical tables alike, and goes with the attack from its setup
to its result.

Readings chosen where the seeds are ambiguous
---------------------------------------------
Where the other reading is a real choice it is an option of :class:`CriticalOptions`,
named below; the rest are AD&D 2e conventions, stated so a reader can check them.

* The number needed is THAC0 minus every to-hit bonus minus the (stance-adjusted)
  AC; :mod:`combatkit.criticals` compares the natural d20 with it.
* 000-II STR "(keeping +1 or below as is)": rows whose *damage* column is +1 or below
  keep it as printed. ``strength_split=StrengthSplit.TO_HIT_AT_MOST_1`` reads it as the
  to-hit column. Both give 18/99 +2/+3, the seed's example.
* 000-II magical plusses "adjust THAC0" and are "NOT automatically added" to damage:
  they add to hit only. ``magic_damage_000_ii=True`` adds them to damage too.
* 000-II creatures with a listed damage bonus: the first reading (in full, as damage)
  is the default; ``listed_damage_bonus=ListedBonus.HALF_TO_HIT`` is the second.
* Under the Player's Handbook (000-I, 004): specialization (one slot) is +1 to hit and
  +2 damage, more slots add nothing; thrown weapons and strength bows add STR to hit and
  damage and DEX to hit; bows and crossbows DEX only. Severity II: +1 to hit per slot,
  and the greater of STR and DEX for thrown weapons and strength bows.
* 004 stances: "+4 bonus with shield" is the stance's whole bonus with a shield (not
  +2 and +4 more), on top of the shield already counted in the defender's AC; Active
  Defense's "+2 with shield" holds for a large shield too. The Strike modifier only
  matters to 004's Strike Speed order of battle and is reported, not applied here.
"""

from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any

from combatkit.conditions import CONDITIONS, Condition
from combatkit.errors import IllegalActionError, RulesError, is_whole
from combatkit.kinds import Size, WeaponKind
from combatkit.model import Combatant, Weapon, defensive_adjustment
from combatkit.stances import CombatManeuver, Role, Shield, Stance, check_stance

__all__ = [
    "AttackForm",
    "AttackSetup",
    "Attacker",
    "CriticalOptions",
    "Defender",
    "ListedBonus",
    "Misfire",
    "Modifier",
    "OutOfRangeError",
    "RerollMinimum",
    "RuleSet",
    "StrengthRow",
    "StrengthSplit",
    "UnknownRuleSetError",
    "find_rule_set",
    "missile_adjustment",
    "setup_attack",
    "strength_damage_000_ii",
    "strength_row",
]

SEVERITY = "000 §4 Severity Rules II"
STANCE_RULE = "004 Combat Stance"
CRITICALS_004 = "004 Critical Hits"
PH_STRENGTH = "PH 2e Table 1 (Strength)"
PH_DEXTERITY = "PH 2e Table 2 (Dexterity)"
TO_HIT_RULE = "DMG 2e: number needed = THAC0 - AC"


# ------------------------------------------------------------------ errors


class UnknownRuleSetError(RulesError):
    """A rule set that is not ``"000-I"``, ``"000-II"`` or ``"004"``."""


class OutOfRangeError(RulesError):
    """A number the rules cannot produce: AC 15, STR 26, THAC0 0."""

    def __init__(self, rule: str, what: str, value: object, allowed: str) -> None:
        super().__init__(rule, f"{what} must be {allowed}, got {value!r}")
        self.value = value


def _whole(value: object, low: int, high: int | None, rule: str, what: str) -> int:
    if not is_whole(value) or value < low or (high is not None and value > high):
        allowed = f"a whole number {low}..{high}" if high is not None else f"a whole number {low} or more"
        raise OutOfRangeError(rule, what, value, allowed)
    return value


# ------------------------------------------------------------------ rule sets and options


class RuleSet(enum.Enum):
    """Which critical hit and miss rules are in play."""

    TABLES_000 = "000-I"
    """000 §4 Critical Hit and Miss Tables I."""
    SEVERITY_000 = "000-II"
    """000 §4 Critical Hit and Miss II: Severity Rules."""
    STANCES_004 = "004"
    """004 Critical Hits / Critical Misses (with its options)."""

    @property
    def title(self) -> str:
        return {
            RuleSet.TABLES_000: "Combat II: Critical Hit and Miss Tables I",
            RuleSet.SEVERITY_000: "Combat II: Critical Hit and Miss II, Severity Rules",
            RuleSet.STANCES_004: "Stances, critical hits and misses (004)",
        }[self]


_RULE_SET_ALIASES = {
    "000-i": RuleSet.TABLES_000, "000 i": RuleSet.TABLES_000, "tables": RuleSet.TABLES_000,
    "000-ii": RuleSet.SEVERITY_000, "000 ii": RuleSet.SEVERITY_000, "severity": RuleSet.SEVERITY_000,
    "004": RuleSet.STANCES_004, "stances": RuleSet.STANCES_004,
}  # fmt: skip


def find_rule_set(name: str | RuleSet) -> RuleSet:
    """Look a rule set up by id (``"000-I"``, ``"000-II"``, ``"004"``) or alias.

    >>> find_rule_set("severity")
    <RuleSet.SEVERITY_000: '000-II'>
    >>> find_rule_set("001")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    combatkit.attack.UnknownRuleSetError: no critical hit rule set called '001'; known: 000-I, 000-II, 004 (...)
    """
    if isinstance(name, RuleSet):
        return name
    if isinstance(name, str) and name.strip().lower() in _RULE_SET_ALIASES:
        return _RULE_SET_ALIASES[name.strip().lower()]
    known = ", ".join(r.value for r in RuleSet)
    raise UnknownRuleSetError("combatkit criticals", f"no critical hit rule set called {name!r}; known: {known}")


class StrengthSplit(enum.Enum):
    """How 000-II reads "(keeping +1 or below as is)"."""

    DAMAGE_AT_MOST_1 = "damage column +1 or below kept"
    """Rows whose damage column is +1 or below keep it (default)."""
    TO_HIT_AT_MOST_1 = "to-hit column +1 or below: damage kept"
    """Rows whose to-hit column is +1 or below keep their damage column."""


class ListedBonus(enum.Enum):
    """000-II: a creature with a listed damage bonus and no to-hit bonus (giants)."""

    FULL_DAMAGE = "in full as damage"
    """Apply the bonus in full with any successful hit (the seed's first reading)."""
    HALF_TO_HIT = "half to THAC0, the rest damage"
    """Half (rounded down) to THAC0, the remainder as bonus damage."""


class RerollMinimum(enum.Enum):
    """000-I critical row 1-4, "Reroll all minimum rolls"."""

    ONCE = "once"
    """Each die showing 1 is rolled again once; the new face stands."""
    UNTIL_ABOVE = "until above the minimum"
    """Each die is rolled again until it shows more than 1."""


class Misfire(enum.Enum):
    """000-I: how the MW line meets the d10 critical miss table."""

    INSTEAD = "instead of the d10 row"
    ALSO = "as well as the d10 row"


@dataclass(frozen=True)
class CriticalOptions:
    """The readings and optional rules of the three rule sets; defaults are the seeds'."""

    natural_20_always_hits: bool = True
    """DMG 2e: a natural 20 hits whatever the number needed. False: only if 20 would hit."""
    minimum_damage: int = 1
    """Least damage a hit does, 0 or more."""
    reroll_minimum: RerollMinimum = RerollMinimum.ONCE
    """000-I row 1-4: how minimum rolls are rerolled."""
    severe_hit_with_critical: bool = False
    """000-I: a natural 20 that also beats the number by 10 rolls twice on rows 1-4."""
    missile_misfire: Misfire = Misfire.INSTEAD
    """000-I: MW replaces the d10 critical miss row for missile attacks, or adds to it."""
    periods_include_current_phase: bool = True
    """Rolled periods (prone 2-3 phases...) and 000-II's 3 phases count the attack's phase."""
    strength_split: StrengthSplit = StrengthSplit.DAMAGE_AT_MOST_1
    """000-II: which column "keeping +1 or below as is" reads."""
    magic_damage_000_ii: bool = False
    """000-II: magical plusses add to damage as well as to hit."""
    listed_damage_bonus: ListedBonus = ListedBonus.FULL_DAMAGE
    """000-II: how a creature's listed damage bonus applies."""
    body_points: bool = False
    """004 option: the Body Points rules (critical hits do body points; monsters lose an attack)."""
    monster_extra_roll_with_modifiers: bool = True
    """004 body points: a monster's extra "normal damage roll" includes damage modifiers."""
    fighter_criticals_on_19: bool = False
    """004 option: Fighters score a critical hit on a natural 19 or 20 that would hit."""
    critical_hit_effects: bool = False
    """004 option: Critical Hit Special Effects in Active or Full Attack."""
    critical_miss_effects: bool = False
    """004 option: Critical Miss Special Effects for a defender in Active or Full Defense."""
    monsters_use_effects: bool = False
    """004, the referee's option: monsters may use both special-effect lists."""
    maneuvers_for_others: bool = False
    """004, the referee's option: intelligent opponents other than Fighters may maneuver."""
    defenseless_ac: int = 4
    """000 §2 C: what a stationary, defenseless target's AC number changes by. +4, four points easier to
    hit, as this seed's "+1 to AC" (dazed) and "+4 to AC" (stunned) read; -4 reads "+4 to its AC" as a
    better AC. Either way the target loses its Dexterity bonus."""

    def __post_init__(self) -> None:
        _whole(self.minimum_damage, 0, None, "combatkit criticals", "minimum damage")
        _whole(self.defenseless_ac, -10, 10, DEFENSELESS_RULE, "a defenseless target's AC change")


# ------------------------------------------------------------------ ability tables


def _data(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files("combatkit.data").joinpath(name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class StrengthRow:
    """A row of the PH 2e Strength table's Hit Prob. and Dmg. Adj. columns."""

    label: str
    """As printed: ``"18/91-99"``."""
    hit: int
    """Hit probability adjustment."""
    damage: int
    """Damage adjustment."""


_ABILITIES = _data("abilities_ph2e.toml")


def strength_row(score: int, exceptional: int | None = None) -> StrengthRow:
    """The PH 2e Table 1 row for STR ``score`` (and 18's percentile, 100 meaning 18/00).

    >>> strength_row(18, 99)
    StrengthRow(label='18/91-99', hit=2, damage=5)
    >>> strength_row(26)
    Traceback (most recent call last):
    ...
    combatkit.attack.OutOfRangeError: STR must be a whole number 1..25, got 26 (PH 2e Table 1 (Strength))
    """
    _whole(score, 1, 25, PH_STRENGTH, "STR")
    if exceptional is not None:
        if score != 18:
            what = f"exceptional strength with STR {score}"
            raise OutOfRangeError(PH_STRENGTH, what, exceptional, "given only with STR 18")
        _whole(exceptional, 1, 100, PH_STRENGTH, "exceptional strength (18/01..18/00 as 1..100)")
    for row in _ABILITIES["strength"]:
        low, high = row["scores"]
        percentile = row.get("exceptional")
        if low <= score <= high and (
            (percentile is None and exceptional is None)
            or (percentile is not None and exceptional is not None and percentile[0] <= exceptional <= percentile[1])
        ):
            return StrengthRow(row["label"], row["hit"], row["damage"])
    raise AssertionError(f"abilities_ph2e.toml has no row for STR {score}/{exceptional}")


def strength_damage_000_ii(row: StrengthRow, split: StrengthSplit = StrengthSplit.DAMAGE_AT_MOST_1) -> int:
    """000-II's damage bonus: damage column minus to-hit column, keeping +1 or below as is.

    >>> strength_damage_000_ii(strength_row(18, 99))  # the seed's example: +2/+5 becomes +2/+3
    3
    >>> strength_damage_000_ii(strength_row(17)), strength_damage_000_ii(strength_row(3))
    (1, -1)
    """
    kept = row.damage if split is StrengthSplit.DAMAGE_AT_MOST_1 else row.hit
    return row.damage if kept <= 1 else row.damage - row.hit


def missile_adjustment(dexterity: int) -> int:
    """PH 2e Table 2, Missile Attack Adjustment for DEX 1..25.

    >>> missile_adjustment(17)
    2
    """
    _whole(dexterity, 1, 25, PH_DEXTERITY, "DEX")
    return next(r["missile"] for r in _ABILITIES["dexterity"] if r["scores"][0] <= dexterity <= r["scores"][1])


# ------------------------------------------------------------------ who attacks whom


class AttackForm(enum.Enum):
    """How the weapon is used: it decides which STR and DEX columns apply."""

    MELEE = "melee"
    THROWN = "thrown"
    BOW = "bow"
    """A bow of normal draw weight: DEX only."""
    STRENGTH_BOW = "strength bow"
    """A bow made for the archer's strength (000-II: "custom bows")."""
    CROSSBOW = "crossbow"
    """DEX only."""

    @property
    def missile(self) -> bool:
        return self is not AttackForm.MELEE

    @property
    def uses_strength(self) -> bool:
        """Melee, thrown weapons and strength bows take STR bonuses."""
        return self in (AttackForm.MELEE, AttackForm.THROWN, AttackForm.STRENGTH_BOW)


def _coerce(figure: Any, name: str, kind: type[enum.Enum], rule: str) -> None:
    """Turn a field given by value (``"full_attack"``) into its enum member, or refuse it."""
    value = getattr(figure, name)
    if isinstance(value, kind):
        return
    try:
        object.__setattr__(figure, name, kind(value))
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in kind)
        raise RulesError(rule, f"{figure.name}: {name} is one of {allowed}, got {value!r}") from None


_THAC0_RULE = "PH 2e THAC0 tables"
_AC_RULE = "PH 2e Armor Class (10 to -10)"
_ABILITY_RULE = "PH 2e ability scores"


@dataclass(frozen=True)
class Attacker:
    """The figure rolling the attack and what it wields."""

    name: str = "attacker"
    """Shown in the explanation and in every roll's purpose."""
    weapon: Weapon = Weapon("long sword", 5, damage="d8")
    """Damage dice, magic (its +N), base SF (the 000-II severe-miss cap) and kind."""
    thac0: int = 20
    """Base THAC0 before any bonus, 1..20."""
    strength: int = 10
    """STR 1..25."""
    exceptional: int | None = None
    """Exceptional strength with STR 18: 1..100, 100 meaning 18/00."""
    dexterity: int = 10
    """DEX 1..25: missile attack adjustment and DEX checks."""
    agility: int | None = None
    """AGI 1..25 with 000 Part 4's AGI/DEX split; AGI checks use DEX without it."""
    level: int = 1
    """Level or hit dice, 0..40: the combat maneuver budget."""
    role: Role = Role.FIGHTER
    """Fighter, other warrior, other class or monster (004's class wordings)."""
    specialization_slots: int = 0
    """Extra proficiency slots spent on the weapon (0 = not specialized)."""
    form: AttackForm | None = None
    """Melee, thrown, bow, strength bow or crossbow. None: melee, unless the weapon is a missile weapon."""
    listed_damage_bonus: int = 0
    """A creature's listed damage bonus without a to-hit bonus (a giant's), 0 or more."""
    stance: Stance = Stance.STANDARD
    """004 combat stance for the round."""
    shield: Shield = Shield.NONE
    """Shield carried (Shield Slam needs one; it is a held item)."""
    casting: bool = False
    """Casting a spell this round (no defensive stance)."""
    maneuver: CombatManeuver | None = None
    """A 004 combat maneuver for this attack."""
    size: Size = Size.MEDIUM
    """For a natural attack's base SF (000 Table 2)."""
    held: tuple[str, ...] | None = None
    """Items in hand, for critical misses. None: the weapon, and the shield if any."""
    conditions: tuple[Condition, ...] = ()
    """Conditions now on the attacker (dazed: -2 to attack)."""

    def __post_init__(self) -> None:
        _coerce(self, "stance", Stance, STANCE_RULE)
        _coerce(self, "shield", Shield, STANCE_RULE)
        _coerce(self, "role", Role, CRITICALS_004)
        if self.form is not None:
            _coerce(self, "form", AttackForm, f"{SEVERITY}: Missile Weapons")
        if not isinstance(self.weapon, Weapon):
            raise RulesError("combatkit criticals", f"{self.name}: weapon must be a Weapon, got {self.weapon!r}")
        _whole(self.thac0, 1, 20, _THAC0_RULE, f"{self.name}: THAC0")
        strength_row(self.strength, self.exceptional)
        _whole(self.dexterity, 1, 25, _ABILITY_RULE, f"{self.name}: DEX")
        if self.agility is not None:
            _whole(self.agility, 1, 25, "000 Part 4 AGI/DEX split", f"{self.name}: AGI")
        _whole(self.level, 0, 40, "PH 2e levels", f"{self.name}: level")
        _whole(self.specialization_slots, 0, None, SEVERITY, f"{self.name}: specialization slots")
        _whole(self.listed_damage_bonus, 0, None, SEVERITY, f"{self.name}: listed damage bonus")
        check_stance(self.stance, casting=self.casting, who=self.name)
        if not self.stance.can_attack:
            raise IllegalActionError(STANCE_RULE, f"{self.name} is in {self.stance.label}: no attack possible")
        form = self.attack_form
        if self.weapon.kind is WeaponKind.MISSILE and not form.missile:
            raise RulesError("combatkit criticals", f"{self.name}: a {self.weapon.name} is not a melee weapon")
        if self.weapon.kind is WeaponKind.NATURAL and form.missile:
            raise RulesError("combatkit criticals", f"{self.name}: a natural attack is melee, not {form.value}")
        if self.weapon.kind is WeaponKind.MELEE and form not in (AttackForm.MELEE, AttackForm.THROWN):
            raise RulesError(
                "combatkit criticals", f"{self.name}: a {self.weapon.name} cannot be used as a {form.value}"
            )

    @property
    def attack_form(self) -> AttackForm:
        """The form in use (a missile weapon without one is refused)."""
        if self.form is not None:
            return self.form
        if self.weapon.kind is WeaponKind.MISSILE:
            raise RulesError(
                "000 §4 Severity Rules II: Missile Weapons",
                f"{self.name}: say how the {self.weapon.name} is used: thrown, bow, strength bow or crossbow",
            )
        return AttackForm.MELEE

    @property
    def held_items(self) -> tuple[str, ...]:
        if self.held is not None:
            return self.held
        return (self.weapon.name,) + (() if self.shield is Shield.NONE else (self.shield.value.replace("_", " "),))

    @property
    def base_speed_factor(self) -> int:
        """The weapon's BASE SF (a natural attack's comes from size, 000 Table 2)."""
        if self.weapon.kind is WeaponKind.NATURAL:
            return self.size.natural_sf
        return self.weapon.speed_factor

    def check_score(self, ability: str) -> int:
        """The score an ``"AGI"`` or ``"DEX"`` check is made against."""
        if ability == "AGI" and self.agility is not None:
            return self.agility
        return self.dexterity

    @classmethod
    def from_combatant(cls, combatant: Combatant, weapon: str | Weapon | None = None, **changes: Any) -> Attacker:
        """An attacker from a :class:`combatkit.model.Combatant` and one of its weapons, by name (None: its
        first), or a :class:`~combatkit.model.Weapon` it strikes with (a weaponless figure's fists)."""
        return cls(**{
            "name": combatant.name, "thac0": combatant.thac0,
            "weapon": weapon if isinstance(weapon, Weapon) else combatant.weapon(weapon),
            "strength": combatant.abilities.strength, "dexterity": combatant.abilities.dexterity,
            "agility": combatant.abilities.agility, "level": combatant.level,
            "role": Role.from_class(combatant.char_class), "size": combatant.size, **changes,
        })  # fmt: skip


@dataclass(frozen=True)
class Defender:
    """The figure attacked."""

    name: str = "defender"
    """Shown in the explanation."""
    armor_class: int = 10
    """AC, 10 (unarmoured) down to -10, shield included."""
    stance: Stance = Stance.STANDARD
    """004 combat stance for the round."""
    shield: Shield = Shield.NONE
    """Shield carried: sets the defensive stances' AC bonus."""
    role: Role = Role.MONSTER
    """A monster has no body points (004); a Fighter may use critical miss effects."""
    level: int = 1
    """Level or hit dice, 0..40: a Feint's penalty (004)."""
    casting: bool = False
    """Casting a spell this round (no defensive stance)."""
    conditions: tuple[Condition, ...] = ()
    """Conditions now on the defender (stunned: +4 to AC)."""
    dexterity: int = 10
    """DEX (its AGI under 000 Part 4's split, which sets the Defensive Adjustment), 1..25. Its Defensive
    Adjustment is already in ``armor_class``; a defender that loses its Dexterity bonus gives it back."""
    defenseless: bool = False
    """Stationary and defenseless (000 §2 C): unable to move out of the way of a blow, as a spellcaster
    invoking somatic components is: +4 to be hit and no Dexterity bonus (:data:`DEFENSELESS_RULE`)."""

    def __post_init__(self) -> None:
        _coerce(self, "stance", Stance, STANCE_RULE)
        _coerce(self, "shield", Shield, STANCE_RULE)
        _coerce(self, "role", Role, CRITICALS_004)
        _whole(self.armor_class, -10, 10, _AC_RULE, f"{self.name}: AC")
        _whole(self.level, 0, 40, "PH 2e levels", f"{self.name}: level")
        _whole(self.dexterity, 1, 25, _ABILITY_RULE, f"{self.name}: DEX")
        check_stance(self.stance, casting=self.casting, who=self.name)

    @property
    def is_defenseless(self) -> bool:
        """Defenseless now: so flagged, or under a condition that makes it so (a prone fall's first phase)."""
        return self.defenseless or any(c.defenseless for c in self.conditions)

    @classmethod
    def from_combatant(cls, combatant: Combatant, **changes: Any) -> Defender:
        """A defender from a :class:`combatkit.model.Combatant` (its AGI, if it has one, as its DEX)."""
        agility = combatant.abilities.agility
        return cls(**{
            "name": combatant.name, "armor_class": combatant.armor_class, "level": combatant.level,
            "role": Role.from_class(combatant.char_class),
            "dexterity": agility if agility is not None else combatant.abilities.dexterity, **changes,
        })  # fmt: skip


# ------------------------------------------------------------------ the number needed


@dataclass(frozen=True)
class Modifier:
    """One term of the to-hit, damage or AC sum, with the rule that puts it there."""

    label: str
    """``"STR 18/91-99"``."""
    value: int
    """Signed amount."""
    rule: str
    """Seed or PH citation."""

    def __str__(self) -> str:
        return f"{self.value:+d} {self.label}"


@dataclass(frozen=True)
class AttackSetup:
    """Everything fixed before the die is rolled: the sums and the number needed."""

    rule_set: RuleSet
    """Which critical rules are in play."""
    attacker: Attacker
    """Who attacks."""
    defender: Defender
    """Who is attacked."""
    options: CriticalOptions
    """Readings and optional rules."""
    to_hit: tuple[Modifier, ...]
    """Every to-hit term (they lower the number needed)."""
    damage: tuple[Modifier, ...]
    """Every flat damage term added to a hit."""
    armor_class: tuple[Modifier, ...]
    """Terms added to the defender's AC number (stance, conditions)."""
    strength_damage: int
    """The STR damage bonus in use (004's Reposition and Shield Slam add it)."""

    # The sums are worked out once a setup (a fight looks a setup up for every blow of the same attacker, weapon,
    # target and conditions): cached_property keeps them beside the frozen fields, outside equality.
    @cached_property
    def to_hit_bonus(self) -> int:
        return sum(m.value for m in self.to_hit)

    @cached_property
    def damage_bonus(self) -> int:
        return sum(m.value for m in self.damage)

    @cached_property
    def effective_ac(self) -> int:
        return self.defender.armor_class + sum(m.value for m in self.armor_class)

    @cached_property
    def needed(self) -> int:
        """The natural d20 roll that hits: THAC0 - to-hit bonuses - AC."""
        return self.attacker.thac0 - self.to_hit_bonus - self.effective_ac

    @property
    def critical_from(self) -> int:
        """The lowest natural roll that is a critical hit when it hits (20, or 19 by 004's option)."""
        if (
            self.rule_set is RuleSet.STANCES_004
            and self.options.fighter_criticals_on_19
            and self.attacker.role is Role.FIGHTER
        ):
            return 19
        return 20

    def explain(self) -> str:
        """``"needs 7: THAC0 15, +2 STR 18/91-99, AC 6"`` in words."""
        a, d = self.attacker, self.defender
        terms = "".join(f", {m}" for m in self.to_hit)
        ac_terms = "".join(f" {m.value:+d} {m.label}" for m in self.armor_class)
        ac = f"AC {d.armor_class}{ac_terms} = {self.effective_ac}" if self.armor_class else f"AC {d.armor_class}"
        return f"{a.name} needs {self.needed} on d20 to hit {d.name}: THAC0 {a.thac0}{terms}, against {ac}"


DEFENSELESS_RULE = "000 §2 C Stationary, Defenseless Target"
"""'A defenseless target unable to move out of the way of a blow is at +4 to its AC, receives no dexterity
bonus, and may be attacked each phase. This category includes spellcasters when invoking magicks requiring
somatic components.'"""


def defenseless_terms(defender: Defender, options: CriticalOptions = CriticalOptions()) -> tuple[Modifier, ...]:
    """The AC terms of a stationary, defenseless target (000 §2 C), and of a defender whose conditions cost
    it its Agility bonuses (000-II's natural 1): its Dexterity bonus back (a Defensive Adjustment below 0,
    unless a term of 002's already gave it back), and for a defenseless one +4 (``options.defenseless_ac``),
    not on top of a condition that already makes it +4 or worse to hit (prone, stunned: one helplessness).

    >>> [str(m) for m in defenseless_terms(Defender("Mira", armor_class=5, dexterity=17, defenseless=True))]
    ['+4 stationary and defenseless', '+3 no Dexterity bonus (DEX 17)']
    >>> from combatkit.conditions import CONDITIONS
    >>> prone = Defender("Mira", conditions=(CONDITIONS["prone"], CONDITIONS["defenseless"]))
    >>> defenseless_terms(prone)
    ()
    """
    terms: list[Modifier] = []
    if defender.is_defenseless:
        worse = sum(c.ac_modifier for c in defender.conditions if c.ac_modifier > 0 and c.id in CONDITIONS)
        change = options.defenseless_ac
        value = max(0, change - worse) if change > 0 else change
        if value:
            terms.append(Modifier("stationary and defenseless", value, DEFENSELESS_RULE))
    loses = [c for c in defender.conditions if c.loses_agility_bonus and not c.ac_modifier]
    given_back = any(c.loses_agility_bonus and c.ac_modifier for c in defender.conditions)
    dex = defensive_adjustment(defender.dexterity)
    if dex < 0 and not given_back and (defender.is_defenseless or loses):
        rule = DEFENSELESS_RULE if defender.is_defenseless else loses[0].rule
        terms.append(Modifier(f"no Dexterity bonus (DEX {defender.dexterity})", -dex, rule))
    return tuple(terms)


def setup_attack(
    attacker: Attacker,
    defender: Defender,
    rule_set: str | RuleSet,
    *,
    options: CriticalOptions = CriticalOptions(),
) -> AttackSetup:
    """Work out the to-hit and damage terms and the number needed under ``rule_set``.

    >>> s = setup_attack(Attacker(strength=18, exceptional=99), Defender(armor_class=5), "000-II")
    >>> [str(m) for m in s.to_hit], [str(m) for m in s.damage], s.needed
    (['+2 STR 18/91-99'], ['+3 STR 18/91-99'], 13)
    """
    rules = find_rule_set(rule_set)
    severity = rules is RuleSet.SEVERITY_000
    to_hit: list[Modifier] = []
    damage: list[Modifier] = []

    def add(terms: list[Modifier], label: str, value: int, rule: str) -> None:
        if value:
            terms.append(Modifier(label, value, rule))

    form = attacker.attack_form
    row = strength_row(attacker.strength, attacker.exceptional)
    str_label = f"STR {row.label}"
    dex = missile_adjustment(attacker.dexterity)
    strength_damage = 0
    if form is AttackForm.MELEE:
        add(to_hit, str_label, row.hit, f"{SEVERITY}: Strength" if severity else PH_STRENGTH)
    elif form.uses_strength and severity:
        better = (str_label, row.hit) if row.hit >= dex else (f"DEX {attacker.dexterity} missile adj.", dex)
        add(to_hit, f"{better[0]} (the greater of STR and DEX)", better[1], f"{SEVERITY}: Missile Weapons")
    elif form.uses_strength:
        add(to_hit, str_label, row.hit, f"{PH_STRENGTH}, missile combat")
        add(to_hit, f"DEX {attacker.dexterity} missile adj.", dex, PH_DEXTERITY)
    else:
        rule = f"{SEVERITY}: Missile Weapons" if severity else PH_DEXTERITY
        add(to_hit, f"DEX {attacker.dexterity} missile adj.", dex, rule)
    if form.uses_strength:
        strength_damage = strength_damage_000_ii(row, options.strength_split) if severity else row.damage
        add(damage, str_label, strength_damage, f"{SEVERITY}: Strength" if severity else PH_STRENGTH)

    slots = attacker.specialization_slots
    if slots and severity:
        add(to_hit, f"specialization ({slots} slot{'s' if slots > 1 else ''})", slots, f"{SEVERITY}: Specialization")
    elif slots:
        add(to_hit, "specialization", 1, "PH 2e weapon specialization")
        add(damage, "specialization", 2, "PH 2e weapon specialization")

    magic = attacker.weapon.magic_bonus
    add(to_hit, f"magic +{magic}" if magic > 0 else "magic", magic, "PH 2e magical weapons")
    if not severity or options.magic_damage_000_ii:
        add(damage, f"magic +{magic}" if magic > 0 else "magic", magic, "PH 2e magical weapons")

    listed = attacker.listed_damage_bonus
    if severity and options.listed_damage_bonus is ListedBonus.HALF_TO_HIT:
        rule = f"{SEVERITY}: Creatures With Listed Damage Bonus"
        add(to_hit, "half the listed damage bonus", listed // 2, rule)
        add(damage, "the rest of the listed damage bonus", listed - listed // 2, rule)
    else:
        add(damage, "listed damage bonus", listed, "monster listing")

    add(to_hit, attacker.stance.label, attacker.stance.attack_modifier, STANCE_RULE)
    if attacker.maneuver is not None:
        attacker.maneuver.check(
            level=attacker.level, role=attacker.role, referee_allows=options.maneuvers_for_others
        )
        add(to_hit, "combat maneuver", attacker.maneuver.to_hit, "004 Combat Maneuvers")
        add(damage, "combat maneuver", attacker.maneuver.damage, "004 Combat Maneuvers")
    for condition in attacker.conditions:
        if not condition.can_attack:
            raise IllegalActionError(condition.rule, f"{attacker.name} is {condition.name}: {condition.text}")
        add(to_hit, condition.name, condition.attack_modifier, condition.rule)

    armor: list[Modifier] = []
    shield = "" if defender.shield is Shield.NONE else f" with {defender.shield.value.replace('_', ' ')}"
    add(armor, f"{defender.stance.label}{shield}", -defender.stance.ac_bonus(defender.shield), STANCE_RULE)
    for condition in defender.conditions:
        add(armor, condition.name, condition.ac_modifier, condition.rule)
    armor += defenseless_terms(defender, options)
    return AttackSetup(
        rules, attacker, defender, options, tuple(to_hit), tuple(damage), tuple(armor), strength_damage
    )
