"""Critical hits and misses, three ways: 000 §4 Tables I, 000 §4 Severity Rules II, and 004.

One attack, rolled and explained step by step (every roll can be entered by the
referee under its purpose, ``"attack roll: Aldric"``, ``"damage: Aldric"``...):

>>> from combatkit.attack import Attacker, Defender
>>> from combatkit.dice import Roller
>>> from combatkit.model import Weapon
>>> aldric = Attacker("Aldric", Weapon("long sword", 5, damage="d8"), thac0=15, strength=18, exceptional=99)
>>> orc = Defender("orc", armor_class=6)
>>> result = resolve_attack(aldric, orc, "000-II", Roller(entered={"attack roll: Aldric": 17, "damage: Aldric": 5}))
>>> result.outcome, result.needed, result.damage
(<Outcome.SEVERE_HIT: 'severe hit'>, 7, 18)
>>> print(result.steps[-1])
Damage: d8 rolled 5, +3 STR 18/91-99, +10 rolled 10 over the 7 needed = 18 (000 §4 Severity Rules II: Severe Hit)

The same attack's exact odds, as plain dicts of ``Fraction`` a chart can use:

>>> odds = attack_odds(aldric, orc, "000-II")
>>> odds.outcomes["critical hit"], odds.outcomes["critical miss"], odds.hit
(Fraction(1, 20), Fraction(1, 20), Fraction(7, 10))
>>> odds.expected_damage, float(odds.expected_damage)
(Fraction(399, 40), 9.975)

The rule sets
-------------
``"000-I"`` (000 §4 *Critical Hit and Miss Tables I*): beat the number needed by 10
or more for a severe hit (best of two damage rolls, opponent dazed); a natural 20
rolls on the d10 critical hit table; a natural 1 on the d10 critical miss table
(missile weapons misfire instead).

``"000-II"`` (000 §4 *Critical Hit and Miss II: Severity Rules*): +1 damage per point
rolled over the number needed; STR, specialization and magic mostly go to THAC0; a
natural 20 rolls maximum base damage plus that bonus; a roll 5 or more under the number
needed slows the weapon's next strike; a natural 1 slows it without a cap and costs
Agility bonuses.

``"004"`` (004 *Critical Hits*, *Critical Misses*): a natural 20 that hits does
maximum damage; options for body points, fighters' 19-20, and the special effects
that 004's stances open.

004's stances (:mod:`combatkit.stances`) and combat maneuvers change the attack and
Armor Class under every rule set; they are terms of the number needed
(:mod:`combatkit.attack`), not a critical-hit system.

Readings chosen where the seeds are ambiguous
---------------------------------------------
Where the other reading is a real choice it is an option of
:class:`~combatkit.attack.CriticalOptions`, named below; the rest are AD&D 2e conventions,
stated so a reader can check them. The readings of the number needed itself (STR, DEX,
specialization, magic, stances) are :mod:`combatkit.attack`'s.

* Margins ("exceeds the roll needed by 10", "5 OR MORE LESS") compare the natural d20
  with the number needed (:func:`~combatkit.attack.setup_attack`).
* A natural 20 always hits and a natural 1 always misses (DMG 2e, "Impossible to-hit
  numbers"). ``natural_20_always_hits=False`` reads 004's "a natural 20 that would
  otherwise hit" literally.
* 000-I: a natural 20 goes to the critical hit table *instead of* the severe-hit rule.
  ``severe_hit_with_critical=True`` also lets a natural 20 that beats the number by 10
  take the better of two rolls on rows 1-4 (rows 5-10 already roll twice or at maximum).
* 000-I: "base damage" is the weapon's dice (with any fixed part of its notation);
  "total damage" adds every damage modifier. "Double base damage" doubles the dice
  and adds modifiers once; "double maximum total damage" doubles both.
* "Roll all damage dice twice and take the best score": the better of two totals.
* "Reroll all minimum rolls": each die showing 1 is rolled once more and the new face
  stands. ``reroll_minimum=RerollMinimum.UNTIL_ABOVE`` rerolls until it is not a 1.
* Durations count phases from the phase of the attack (0): "until end of phase" ends
  phase 0, "until end of following phase" and "through the following phase" phase 1,
  "through the next 2 phases" phase 2. The rolled periods (prone 2-3 phases, sprawl 3-5)
  and Severity II's "maximum duration ... 3 phases" include the phase of the attack;
  ``periods_include_current_phase=False`` starts them the next phase.
* Checks a table calls for later (the AGI check at the end of a prone period, a
  misstep "next phase") are rolled at once and scheduled; their purpose names say what
  they decide. Ability checks succeed on d20 at or under the score plus the modifier;
  AGI is DEX unless 000 Part 4's AGI/DEX split gives an Agility.
* "Weapon dropped or skewed" is one event; the referee says which.
* 000-I misfire (MW): a missile attack's natural 1 misfires *instead of* rolling the
  d10. ``missile_misfire=Misfire.ALSO`` rolls the d10 row as well.
* 000-II: any hit above the number needed is a severe hit (its bonus is at least +1).
* 000-II severe miss: penalty = needed - 5 - roll, capped at the weapon's BASE SF.
  Example 1 (needs 17, rolls 10: +2; rolls 6: +4 at most with a quarterstaff, SF 4) fixes
  the offset, Example 2 (a +2 long sword adjusted to SF 2 may still take +5, to SF 7)
  fixes the cap. A roll exactly 5 under therefore costs +0 and counts as a plain miss.
  The penalty applies to the weapon's next strike and lasts at most 3 phases.
* 000-II natural 1: the same formula without the cap, and Agility bonuses lost
  through the next attack or the next 3 phases.
* A hit does at least 1 point of damage (``minimum_damage=0`` allows none). Damage is
  never negative.
* 004 "maximum damage" is the dice at maximum plus the usual modifiers. Against a
  monster with the Body Points option, "plus a normal damage roll" includes the
  modifiers; ``monster_extra_roll_with_modifiers=False`` adds the dice alone.
* 004's optional rules (19-20, body points, special effects) are off by default.
  "Fighting Class" is :attr:`Role.FIGHTER` or :attr:`Role.WARRIOR`; "Fighter" is
  :attr:`Role.FIGHTER`. Special-effect distances halve the damage rounding down.
* "Stationary and defenseless" (the prone and sprawling rows) is 000 §2 C's defenseless target:
  +4 to be hit (``defenseless_ac``) and no Dexterity bonus, not on top of the row's own AC +4
  (:func:`combatkit.attack.defenseless_terms`); no automatic hit.
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from importlib import resources
from typing import Any

import icepool

from combatkit.attack import (
    CRITICALS_004,
    SEVERITY,
    TO_HIT_RULE,
    AttackForm,
    Attacker,
    AttackSetup,
    CriticalOptions,
    Defender,
    Misfire,
    RerollMinimum,
    RuleSet,
    setup_attack,
)
from combatkit.conditions import (
    CONDITIONS,
    Condition,
    Duration,
    ExtraAttack,
    Imposed,
    ItemEvent,
    Until,
    Who,
    phase_name,
)
from combatkit.dice import Dice, EnteredRollError, Roll, Roller, sum_of
from combatkit.errors import RulesError
from combatkit.stances import Role, Shield

__all__ = [
    "CONDITIONS",
    "CRITICAL_HIT_EFFECTS",
    "CRITICAL_HIT_TABLE",
    "CRITICAL_MISS_EFFECTS",
    "CRITICAL_MISS_TABLE",
    "MISFIRE",
    "SEVERE_HIT",
    "AbilityCheck",
    "AttackOdds",
    "AttackResult",
    "Condition",
    "CriticalHitRow",
    "CriticalMissRow",
    "DamageDice",
    "Doubling",
    "Duration",
    "ExtraAttack",
    "ImpossibleRollError",
    "Imposed",
    "ItemEvent",
    "MisfireRules",
    "Outcome",
    "SevereHitRule",
    "SpecialEffect",
    "Step",
    "Until",
    "Who",
    "attack_odds",
    "resolve_attack",
    "severe_miss_penalty",
]

TABLES_I = "000 §4 Critical Hit and Miss Tables I"
CRIT_HIT_TABLE = "000 §4 Critical Hit table"
CRIT_MISS_TABLE = "000 §4 Critical Miss table"
MISSES_004 = "004 Critical Misses"


# ------------------------------------------------------------------ errors


class ImpossibleRollError(RulesError, EnteredRollError):
    """A number entered for a roll that its dice cannot show (a d20 entered as 21)."""


# ------------------------------------------------------------------ the tables as data


def _data(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files("combatkit.data").joinpath(name).read_text(encoding="utf-8"))


def _imposed(spec: Mapping[str, Any], rule: str, who: Who = Who.ATTACKER) -> Imposed:
    return Imposed(
        who=Who(spec.get("who", who.value)),
        condition=CONDITIONS[spec["condition"]],
        duration=Duration(
            until=Until(spec.get("until", "end of phase")),
            count=spec.get("count", 0),
            starts=spec.get("starts", 0),
        ),
        rule=rule,
    )



class DamageDice(enum.Enum):
    """How a table reads the weapon's damage dice."""

    NORMAL = "normal"
    BEST_OF_TWO = "best_of_two"
    REROLL_MINIMUM = "reroll_minimum"
    MAXIMUM = "maximum"


class Doubling(enum.Enum):
    """What a critical doubles."""

    NONE = "none"
    BASE = "base"
    """The dice only; modifiers added once ("DOUBLE BASE DAMAGE")."""
    TOTAL = "total"
    """Dice plus modifiers ("DOUBLE MAXIMUM TOTAL DAMAGE")."""


@dataclass(frozen=True)
class SevereHitRule:
    """000 §4 Tables I, Severe Hit."""

    margin: int
    """Beat the number needed by this much or more."""
    text: str
    """The seed's words."""
    dice: DamageDice
    """How damage dice are read."""
    imposes: tuple[Imposed, ...]
    """On the defender."""


@dataclass(frozen=True)
class CriticalHitRow:
    """One row of the 000 §4 critical hit table (d10)."""

    label: str
    """The d10 faces: ``"1-4"``."""
    rolls: tuple[int, int]
    """Lowest and highest face."""
    name: str
    """Short name."""
    text: str
    """The seed's words."""
    dice: DamageDice
    """How damage dice are read."""
    double: Doubling
    """What is doubled."""
    imposes: tuple[Imposed, ...]
    """On the defender."""
    extra_attacks: tuple[ExtraAttack, ...]
    """Granted to the attacker."""


@dataclass(frozen=True)
class AbilityCheck:
    """A check a critical miss row calls for: d20 at or under the score plus ``modifier``."""

    ability: str
    """``"AGI"`` or ``"DEX"``."""
    modifier: int
    """Added to the score (DEX-2 is -2)."""
    label: str
    """What it decides; part of the roll's purpose."""
    on_failure: tuple[Imposed, ...] = ()
    """Conditions a failure imposes."""
    on_failure_drop: str | None = None
    """Item dropped or skewed on a failure (``"weapon"``)."""
    on_failure_row: str | None = None
    """Name of the row whose result follows a failure."""
    row_starts: str | None = None
    """``"next phase"`` or ``"after period"``: when that row's result begins."""


@dataclass(frozen=True)
class CriticalMissRow:
    """One row of the 000 §4 critical miss table (d10)."""

    label: str
    """The d10 faces: ``"1-4"``."""
    rolls: tuple[int, int]
    """Lowest and highest face."""
    name: str
    """Short name: ``"misstep"``."""
    text: str
    """The seed's words."""
    imposes: tuple[Imposed, ...]
    """On the attacker, phase-relative."""
    checks: tuple[AbilityCheck, ...]
    """Checks in the order the seed lists them."""
    lasts: Dice | None = None
    """A period rolled in phases (prone d2+1 = 2-3)."""
    period_imposes: tuple[tuple[Condition, int | None], ...] = ()
    """Conditions over that period: its first N phases, or (None) all of it."""
    item_check: AbilityCheck | None = None
    """One check per held item; failure drops it."""
    items_tumble: Dice | None = None
    """Every held item tumbles away this many feet."""


@dataclass(frozen=True)
class MisfireRules:
    """000 §4 Tables I, MW: missile weapon misfire."""

    text: str
    """The seed's words."""
    thrown_drop_feet: int
    """A thrown weapon drops within this many feet."""
    chances: tuple[tuple[str, int], ...]
    """Independent percent chances for bows and crossbows: (what breaks, percent)."""


@dataclass(frozen=True)
class SpecialEffect:
    """A 004 special effect one side may impose after a critical hit or miss."""

    id: str
    """``"trip"``, ``"feint"``..."""
    name: str
    """As printed."""
    text: str
    """The seed's words."""
    rule: str
    """004 section."""
    imposes: tuple[Imposed, ...] = ()
    """Conditions it imposes if chosen."""
    feet: int | None = None
    """Distance for this attack (half the damage, plus STR bonus where the seed says)."""
    feet_rule: str | None = None
    """``"half_damage"`` or ``"half_damage_plus_str"``; how ``feet`` is worked out."""
    requires_shield: bool = False
    """Only for an attacker wielding a shield."""
    hazard_save: bool = False
    """A target forced toward a cliff or the like gets a DEX save to stop at the edge."""
    extra_attack: bool = False
    """Grants a melee attack in addition to the round's others."""
    level_penalty: bool = False
    """The imposed condition's modifier is minus the chooser's level (Feint)."""


def _range(rolls: list[int]) -> tuple[int, int]:
    return rolls[0], rolls[1]


def _label(rolls: tuple[int, int]) -> str:
    return str(rolls[0]) if rolls[0] == rolls[1] else f"{rolls[0]}-{rolls[1]}"


def _check(spec: Mapping[str, Any], rule: str) -> AbilityCheck:
    return AbilityCheck(
        ability=spec["ability"],
        modifier=spec.get("modifier", 0),
        label=spec.get("label", ""),
        on_failure=tuple(_imposed(s, rule) for s in spec.get("on_failure", ())),
        on_failure_drop=spec.get("on_failure_drop"),
        on_failure_row=spec.get("on_failure_row"),
        row_starts=spec.get("row_starts"),
    )


def _load_tables() -> tuple[SevereHitRule, tuple[CriticalHitRow, ...], tuple[CriticalMissRow, ...], MisfireRules]:
    hits = _data("critical_hits_000.toml")
    severe = hits["severe_hit"]
    severe_rule = SevereHitRule(
        margin=severe["margin"],
        text=severe["text"],
        dice=DamageDice(severe["damage"]),
        imposes=tuple(_imposed(s, f"{TABLES_I}: Severe Hit") for s in severe["imposes"]),
    )
    hit_rows = []
    for row in hits["critical_hit"]["row"]:
        rolls = _range(row["rolls"])
        rule = f"{CRIT_HIT_TABLE} {_label(rolls)}"
        hit_rows.append(CriticalHitRow(
            label=_label(rolls), rolls=rolls, name=row["name"], text=row["text"],
            dice=DamageDice(row["damage"]), double=Doubling(row["double"]),
            imposes=tuple(_imposed(s, rule) for s in row.get("imposes", ())),
            extra_attacks=tuple(ExtraAttack(e["starts"], e["text"], rule) for e in row.get("extra_attacks", ())),
        ))  # fmt: skip
    misses = _data("critical_misses_000.toml")
    miss_rows = []
    for row in misses["critical_miss"]["row"]:
        rolls = _range(row["rolls"])
        rule = f"{CRIT_MISS_TABLE} {_label(rolls)}"
        fixed = [s for s in row.get("imposes", ()) if "period" not in s]
        over_period = [s for s in row.get("imposes", ()) if "period" in s]
        miss_rows.append(CriticalMissRow(
            label=_label(rolls), rolls=rolls, name=row["name"], text=row["text"],
            imposes=tuple(_imposed(s, rule) for s in fixed),
            checks=tuple(_check(c, rule) for c in row.get("checks", ())),
            lasts=Dice.parse(row["lasts"]) if "lasts" in row else None,
            period_imposes=tuple(
                (CONDITIONS[s["condition"]], None if s["period"] == "all" else s["period"]) for s in over_period
            ),
            item_check=_check(row["item_check"], rule) if "item_check" in row else None,
            items_tumble=Dice.parse(row["items_tumble"]) if "items_tumble" in row else None,
        ))  # fmt: skip
    mw = misses["missile"]
    misfire = MisfireRules(
        text=mw["text"],
        thrown_drop_feet=mw["thrown_drop_feet"],
        chances=tuple((c["label"], c["percent"]) for c in mw["chances"]),
    )
    return severe_rule, tuple(hit_rows), tuple(miss_rows), misfire


SEVERE_HIT, CRITICAL_HIT_TABLE, CRITICAL_MISS_TABLE, MISFIRE = _load_tables()
"""000 §4 Tables I as data: the severe hit, the d10 critical hit and miss tables, MW."""


def _load_effects(kind: str, rule: str, who: Who) -> tuple[SpecialEffect, ...]:
    return tuple(
        SpecialEffect(
            id=e["id"], name=e["name"], text=e["text"], rule=rule,
            imposes=tuple(_imposed(s, f"{rule}: {e['name']}", who) for s in e.get("imposes", ())),
            feet_rule=e.get("feet"), requires_shield=e.get("requires_shield", False),
            hazard_save=e.get("hazard_save", False), extra_attack=e.get("extra_attack", False),
            level_penalty=e.get("level_penalty", False),
        )
        for e in _data("stances_004.toml")[kind]
    )  # fmt: skip


CRITICAL_HIT_EFFECTS = _load_effects("critical_hit_effect", "004 Critical Hit Special Effects", Who.DEFENDER)
"""004's critical hit special effects, imposed at the attacker's option."""
CRITICAL_MISS_EFFECTS = _load_effects("critical_miss_effect", "004 Critical Miss Special Effects", Who.ATTACKER)
"""004's critical miss special effects, imposed at the (defending) Fighter's option."""


# ------------------------------------------------------------------ outcome of the d20


class Outcome(enum.Enum):
    """What the d20 made of the attack."""

    CRITICAL_MISS = "critical miss"
    SEVERE_MISS = "severe miss"
    """000-II only: a miss that slows the weapon's next strike."""
    MISS = "miss"
    HIT = "hit"
    SEVERE_HIT = "severe hit"
    """000-I: beat the number by 10+; 000-II: any hit above the number needed."""
    CRITICAL_HIT = "critical hit"

    @property
    def hits(self) -> bool:
        return self in (Outcome.HIT, Outcome.SEVERE_HIT, Outcome.CRITICAL_HIT)


def severe_miss_penalty(needed: int, rolled: int, base_sf: int, *, critical: bool = False) -> int:
    """000-II Severe Miss: SF added to the weapon's next strike.

    One point per point rolled beyond 5 under the number needed, up to the weapon's BASE
    SF; a critical miss (natural 1) has no cap. Example 1 of the seed: a mage needing 17
    with a quarterstaff (SF 4):

    >>> severe_miss_penalty(17, 10, 4), severe_miss_penalty(17, 12, 4), severe_miss_penalty(17, 6, 4)
    (2, 0, 4)

    Example 2: a +2 long sword (base SF 5, adjusted to SF 2) can still take +5, to SF 7:

    >>> 2 + severe_miss_penalty(16, 2, 5)
    7
    """
    points = needed - 5 - rolled
    if points <= 0:
        return 0
    return points if critical else min(points, base_sf)


def _outcome(natural: int, setup: AttackSetup) -> Outcome:
    needed, rules = setup.needed, setup.rule_set
    if natural == 1:
        return Outcome.CRITICAL_MISS
    hits = natural >= needed or (natural == 20 and setup.options.natural_20_always_hits)
    if not hits:
        slowed = severe_miss_penalty(needed, natural, setup.attacker.base_speed_factor)
        return Outcome.SEVERE_MISS if rules is RuleSet.SEVERITY_000 and slowed else Outcome.MISS
    if natural >= setup.critical_from:
        return Outcome.CRITICAL_HIT
    if rules is RuleSet.TABLES_000 and natural - needed >= SEVERE_HIT.margin:
        return Outcome.SEVERE_HIT
    if rules is RuleSet.SEVERITY_000 and natural > needed:
        return Outcome.SEVERE_HIT
    return Outcome.HIT


@dataclass(frozen=True)
class _Plan:
    """How one hit's damage is made: the dice, what is doubled, what is added."""

    dice: DamageDice
    best_of_two: bool = False
    double: Doubling = Doubling.NONE
    bonus: int = 0
    extra_roll_bonus: int | None = None
    """004 monster critical: plus a normal damage roll with this bonus."""

    def total(self, base: int, extra: int = 0) -> int:
        if self.double is Doubling.BASE:
            value = 2 * base + self.bonus
        elif self.double is Doubling.TOTAL:
            value = 2 * (base + self.bonus)
        else:
            value = base + self.bonus
        if self.extra_roll_bonus is not None:
            value += extra + self.extra_roll_bonus
        return value


def _plans(natural: int, outcome: Outcome, setup: AttackSetup) -> list[tuple[Fraction, _Plan, str | None]]:
    """Every way the hit's damage can be made, with its probability and table row."""
    bonus, rules = setup.damage_bonus, setup.rule_set
    if rules is RuleSet.SEVERITY_000:
        margin = max(0, natural - setup.needed)
        dice = DamageDice.MAXIMUM if outcome is Outcome.CRITICAL_HIT else DamageDice.NORMAL
        return [(Fraction(1), _Plan(dice, bonus=bonus + margin), None)]
    if rules is RuleSet.TABLES_000:
        if outcome is Outcome.SEVERE_HIT:
            return [(Fraction(1), _Plan(DamageDice.NORMAL, best_of_two=True, bonus=bonus), None)]
        if outcome is Outcome.CRITICAL_HIT:
            stack = setup.options.severe_hit_with_critical and natural - setup.needed >= SEVERE_HIT.margin
            return [
                (Fraction(r.rolls[1] - r.rolls[0] + 1, 10), _row_plan(r, bonus, stack), r.label)
                for r in CRITICAL_HIT_TABLE
            ]
        return [(Fraction(1), _Plan(DamageDice.NORMAL, bonus=bonus), None)]
    if outcome is Outcome.CRITICAL_HIT:
        monster = setup.options.body_points and setup.defender.role is Role.MONSTER
        extra = (bonus if setup.options.monster_extra_roll_with_modifiers else 0) if monster else None
        return [(Fraction(1), _Plan(DamageDice.MAXIMUM, bonus=bonus, extra_roll_bonus=extra), None)]
    return [(Fraction(1), _Plan(DamageDice.NORMAL, bonus=bonus), None)]


def _row_plan(row: CriticalHitRow, bonus: int, severe_too: bool) -> _Plan:
    if row.dice is DamageDice.BEST_OF_TWO:
        return _Plan(DamageDice.NORMAL, best_of_two=True, double=row.double, bonus=bonus)
    stack = severe_too and row.dice is DamageDice.REROLL_MINIMUM
    return _Plan(row.dice, best_of_two=stack, double=row.double, bonus=bonus)


# ------------------------------------------------------------------ rolling one attack


@dataclass(frozen=True)
class Step:
    """One line of an attack's explanation."""

    text: str
    """Plain words: what happened and the numbers."""
    rule: str
    """The seed section (or PH/DMG rule) it follows."""

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


@dataclass(frozen=True)
class AttackResult:
    """One attack, resolved: what happened, what it left behind, and why, step by step."""

    rule_set: RuleSet
    """Which critical rules were in play."""
    setup: AttackSetup
    """The terms and the number needed."""
    natural: int
    """The d20 as rolled (or entered)."""
    outcome: Outcome
    """Critical miss .. critical hit."""
    damage: int = 0
    """Hit points of damage dealt (0 on a miss)."""
    body_points: int = 0
    """Body points of damage (004 Body Points option)."""
    table_row: str | None = None
    """The d10 row used: ``"9"``, ``"1-4"``, or ``"MW"`` for a misfire (000-I)."""
    sf_penalty: int = 0
    """SF added to the weapon's next strike (000-II)."""
    conditions: tuple[Imposed, ...] = ()
    """Conditions imposed, phase-relative, for a timeline to apply."""
    extra_attacks: tuple[ExtraAttack, ...] = ()
    """Attacks granted beyond the regular ones (000-I rows 9 and 10)."""
    items: tuple[ItemEvent, ...] = ()
    """Items dropped, flung or broken."""
    special_effects: tuple[SpecialEffect, ...] = ()
    """004 special effects open to choose from (one may be imposed)."""
    effects_chosen_by: Who | None = None
    """Who chooses among ``special_effects``: the attacker (critical hit) or defender (miss)."""
    ends_attack_sequence: bool = False
    """000-I critical miss: the rest of the attack sequence is lost."""
    steps: tuple[Step, ...] = ()
    """The explanation, in order."""
    rolls: tuple[Roll, ...] = field(default=(), repr=False)
    """Every roll used, rolled or entered."""

    @property
    def needed(self) -> int:
        return self.setup.needed

    @property
    def hit(self) -> bool:
        return self.outcome.hits

    def explain(self) -> str:
        """The steps as numbered lines."""
        return "\n".join(f"{i}. {step}" for i, step in enumerate(self.steps, 1))

    def defender_now(self) -> Defender:
        """The defender with the conditions this attack put on him in this phase: the
        target of an immediate extra attack ("include opponent's +4 AC penalty")."""
        now = tuple(
            i.condition for i in self.conditions if i.who is Who.DEFENDER and i.duration.starts == 0
        )
        return replace(self.setup.defender, conditions=self.setup.defender.conditions + now)


class _Resolution:
    """Accumulates one attack's rolls, steps and consequences."""

    def __init__(self, setup: AttackSetup, roller: Roller, key: str) -> None:
        self.setup = setup
        self.options = setup.options
        self.attacker = setup.attacker
        self.roller = roller
        self.key = key
        self.first_roll = len(roller.log)
        self.steps: list[Step] = []
        self.conditions: list[Imposed] = []
        self.extra: list[ExtraAttack] = []
        self.items: list[ItemEvent] = []
        self.fields: dict[str, Any] = {}

    def step(self, text: str, rule: str) -> None:
        self.steps.append(Step(text, rule))

    def roll(self, dice: str | Dice, what: str, rule: str) -> Roll:
        purpose = f"{what}: {self.attacker.name}" + (f" [{self.key}]" if self.key else "")
        try:
            return self.roller.roll(dice, purpose)
        except EnteredRollError as error:
            raise ImpossibleRollError(rule, str(error)) from error

    def item(self, event: ItemEvent) -> None:
        self.items.append(event)
        self.step(str(event), event.rule)

    def impose(self, imposed: Iterable[Imposed]) -> None:
        names = (self.attacker.name, self.setup.defender.name)
        for item in imposed:
            self.conditions.append(item)
            self.step(item.describe(*names), item.rule)

    def result(self, natural: int, outcome: Outcome) -> AttackResult:
        return AttackResult(
            rule_set=self.setup.rule_set,
            setup=self.setup,
            natural=natural,
            outcome=outcome,
            conditions=tuple(self.conditions),
            extra_attacks=tuple(self.extra),
            items=tuple(self.items),
            steps=tuple(self.steps),
            rolls=tuple(self.roller.log[self.first_roll :]),
            **self.fields,
        )

    # -- damage

    def damage(self, plan: _Plan, rule: str) -> int:
        dice = Dice.parse(self.attacker.weapon.damage)
        base, how = self._dice(dice, plan, "damage", rule)
        extra, extra_how = 0, ""
        if plan.extra_roll_bonus is not None:
            extra, extra_roll = self._dice(dice, _Plan(DamageDice.NORMAL), "damage, extra roll", rule)
            extra_how = f", plus a normal damage roll: {extra_roll}" + (
                f" {plan.extra_roll_bonus:+d}" if plan.extra_roll_bonus else ""
            )
        value = plan.total(base, extra)
        terms = "".join(f", {m}" for m in self.setup.damage)
        margin = plan.bonus - self.setup.damage_bonus
        if margin:
            terms += f", +{margin} rolled {margin} over the {self.setup.needed} needed"
        if plan.double is Doubling.BASE:
            how = f"2 x ({how}){terms}"
        elif plan.double is Doubling.TOTAL:
            how = f"2 x ({how}{terms})"
        else:
            how = f"{how}{terms}"
        final = max(value, self.options.minimum_damage)
        floor = f", at least {self.options.minimum_damage}" if final != value else ""
        self.step(f"Damage: {how}{extra_how} = {final}{floor}", rule)
        return final

    def _dice(self, dice: Dice, plan: _Plan, what: str, rule: str) -> tuple[int, str]:
        if plan.dice is DamageDice.MAXIMUM:
            return dice.maximum, f"{dice} at maximum {dice.maximum}"
        first, text = self._one_roll(dice, plan.dice, what, rule)
        if not plan.best_of_two:
            return first, text
        second, text2 = self._one_roll(dice, plan.dice, f"{what}, second roll", rule)
        return max(first, second), f"best of {text} and {text2}: {max(first, second)}"

    def _one_roll(self, dice: Dice, mode: DamageDice, what: str, rule: str) -> tuple[int, str]:
        roll = self.roll(dice, what, rule)
        if mode is not DamageDice.REROLL_MINIMUM:
            return roll.total, f"{dice} rolled {roll.total}"
        if roll.faces is None:
            raise RulesError(
                rule, f"enter each die's face for {roll.purpose!r} (e.g. {tuple(range(1, dice.count + 1))}) "
                f"so that minimum rolls can be rerolled; got only the total {roll.total}"
            )  # fmt: skip
        faces = list(roll.faces)
        rerolled = False
        for i, face in enumerate(faces):
            tries = 0
            while face == 1 and (tries == 0 or self.options.reroll_minimum is RerollMinimum.UNTIL_ABOVE):
                tries += 1
                again = f" again ({tries})" if tries > 1 else ""
                face = self.roll(f"d{dice.sides}", f"{what}, reroll die {i + 1}{again}", rule).total
                rerolled = True
            faces[i] = face
        total = sum(faces) + dice.modifier
        first = roll.faces[0] if dice.count == 1 else list(roll.faces)
        if not rerolled:
            return total, f"{dice} rolled {roll.total} (no 1 to reroll)"
        now = faces[0] if dice.count == 1 else f"{faces}"
        return total, f"{dice} rolled {first}, 1s rerolled: {now} = {total}"

    # -- ability checks and the critical miss table

    def ability_check(self, check: AbilityCheck, label: str, rule: str) -> bool:
        score = self.attacker.check_score(check.ability)
        mod = f"{check.modifier:+d}" if check.modifier else ""
        roll = self.roll("d20", f"{check.ability}{mod} check ({label})", rule)
        target = score + check.modifier
        passed = roll.total <= target
        uses = "" if check.ability == "DEX" or self.attacker.agility is not None else " (DEX: no AGI/DEX split)"
        self.step(
            f"{check.ability}{mod} check ({label}): d20 = {roll.total} against {target}{uses}: "
            f"{'passed' if passed else 'failed'}",
            rule,
        )
        return passed

    def miss_row(self, row: CriticalMissRow, shift: int = 0, not_before: int = 0) -> None:
        rule = f"{CRIT_MISS_TABLE} {row.label}"

        def moved(item: Imposed) -> Imposed:
            starts = max(item.duration.starts + shift, not_before)
            count = max(item.duration.count + shift, starts)
            return replace(item, duration=replace(item.duration, starts=starts, count=count))

        if shift or not_before:
            self.step(f"The {row.name} result follows, from {phase_name(max(shift, not_before))}", rule)
        self.impose(moved(i) for i in row.imposes)
        period_end = shift
        if row.lasts is not None:
            length = self.roll(row.lasts, f"{row.name} length", rule).total
            first = shift + (0 if self.options.periods_include_current_phase else 1)
            period_end = first + length - 1
            self.step(f"{row.name.capitalize()} lasts {row.lasts} = {length} phases", rule)
            for condition, n in row.period_imposes:
                last = period_end if n is None else first + n - 1
                self.impose([Imposed(Who.ATTACKER, condition, Duration(starts=first, count=last), rule)])
        for item in self.attacker.held_items:
            if row.item_check is not None and not self.ability_check(row.item_check, item, rule):
                self.item(ItemEvent(item, "dropped", None, rule))
            if row.items_tumble is not None:
                feet = self.roll(row.items_tumble, f"{item} tumbles", rule).total
                self.item(ItemEvent(item, "tumbles away in a random direction", feet, rule))
        for check in row.checks:
            lost = {event.item for event in self.items}
            if check.on_failure_drop is not None and self.attacker.weapon.name in lost:
                self.step(f"No {check.ability} check for the {self.attacker.weapon.name}: it is already gone", rule)
                continue
            if self.ability_check(check, check.label, rule):
                continue
            self.impose(moved(i) for i in check.on_failure)
            if check.on_failure_drop is not None:
                what = "dropped or skewed (the referee says which)"
                self.item(ItemEvent(self.attacker.weapon.name, what, None, rule))
            if check.on_failure_row is not None:
                follow = next(r for r in CRITICAL_MISS_TABLE if r.name == check.on_failure_row)
                if check.row_starts == "next phase":
                    self.miss_row(follow, shift + 1)
                else:
                    self.miss_row(follow, period_end, period_end + 1)

    def misfire(self) -> None:
        form, weapon = self.attacker.attack_form, self.attacker.weapon.name
        rule = f"{TABLES_I}: MW"
        if form is AttackForm.THROWN:
            self.item(ItemEvent(weapon, "drops within", MISFIRE.thrown_drop_feet, rule))
            return
        for what, percent in MISFIRE.chances:
            roll = self.roll("d100", what, rule)
            broke = roll.total <= percent
            self.step(f"Misfire, {what} on 1-{percent}: d100 = {roll.total}: {'yes' if broke else 'no'}", rule)
            if broke:
                self.item(ItemEvent(what.removesuffix(" breaks"), "breaks", None, rule))


def resolve_attack(
    attacker: Attacker,
    defender: Defender,
    rule_set: str | RuleSet,
    roller: Roller,
    *,
    options: CriticalOptions = CriticalOptions(),
    key: str = "",
) -> AttackResult:
    """Roll one attack under ``rule_set`` and explain it step by step.

    Rolls go through ``roller`` under purposes such as ``"attack roll: Aldric"``,
    ``"damage: Aldric"``, ``"critical hit table: Aldric"``, ``"AGI check (misstep): Aldric"``,
    so a referee can enter what was rolled at the table (faces as a tuple for several dice).
    ``key`` is appended to every purpose (``"attack roll: Aldric [phase 2]"``) to tell
    several attacks apart. Raises a :class:`RulesError` for impossible input.
    """
    setup = setup_attack(attacker, defender, rule_set, options=options)
    rules = setup.rule_set
    r = _Resolution(setup, roller, key)
    r.step(setup.explain(), TO_HIT_RULE)
    natural = r.roll("d20", "attack roll", TO_HIT_RULE).total
    outcome = _outcome(natural, setup)
    needed = setup.needed
    always = " (a natural 20 always hits: DMG 2e)" if outcome.hits and natural < needed else ""
    rule = _outcome_rule(natural, outcome, setup)
    r.step(f"Attack roll: d20 = {natural} against {needed}: {outcome.value}{always}", rule)
    if attacker.maneuver is not None and attacker.maneuver.armor_class:
        ac = attacker.maneuver.armor_class
        text = f"AC {abs(ac)} {'worse' if ac < 0 else 'better'}"
        guard = replace(CONDITIONS["maneuver_guard"], ac_modifier=-ac, text=text)
        r.impose([Imposed(Who.ATTACKER, guard, Duration(until=Until.NEXT_ACTION), "004 Combat Maneuvers")])

    if outcome is Outcome.CRITICAL_MISS:
        _critical_miss(r, needed)
    elif outcome is Outcome.SEVERE_MISS:
        penalty = severe_miss_penalty(needed, natural, attacker.base_speed_factor)
        _sf_penalty(r, penalty, needed, natural, critical=False)
    elif outcome.hits:
        plans = _plans(natural, outcome, setup)
        if rules is RuleSet.TABLES_000 and outcome is Outcome.CRITICAL_HIT:
            face = r.roll("d10", "critical hit table", CRIT_HIT_TABLE).total
            row = next(row for row in CRITICAL_HIT_TABLE if row.rolls[0] <= face <= row.rolls[1])
            r.step(f"Critical hit table: d10 = {face}, row {row.label}: {row.text}", f"{CRIT_HIT_TABLE} {row.label}")
            plan = next(p for _, p, label in plans if label == row.label)
            if plan.best_of_two and row.dice is DamageDice.REROLL_MINIMUM:
                r.step(f"The roll also beats {needed} by 10 or more: damage rolled twice", f"{TABLES_I}: Severe Hit")
            r.fields.update(table_row=row.label, damage=r.damage(plan, f"{CRIT_HIT_TABLE} {row.label}"))
            r.impose(row.imposes)
            r.extra.extend(row.extra_attacks)
            for extra in row.extra_attacks:
                r.step(f"{attacker.name} gets {extra.text}", extra.rule)
        else:
            plan = plans[0][1]
            r.fields["damage"] = r.damage(plan, _damage_rule(outcome, setup))
            if rules is RuleSet.TABLES_000 and outcome is Outcome.SEVERE_HIT:
                r.impose(SEVERE_HIT.imposes)
            if rules is RuleSet.STANCES_004 and outcome is Outcome.CRITICAL_HIT:
                _critical_004(r)
    elif rules is RuleSet.SEVERITY_000 and needed - natural >= 5:
        _sf_penalty(r, 0, needed, natural, critical=False)
    else:
        r.step(f"{attacker.name} misses {defender.name}", TO_HIT_RULE)
    return r.result(natural, outcome)


def _outcome_rule(natural: int, outcome: Outcome, setup: AttackSetup) -> str:
    rules = setup.rule_set
    if outcome is Outcome.CRITICAL_MISS:
        return {RuleSet.TABLES_000: CRIT_MISS_TABLE, RuleSet.SEVERITY_000: f"{SEVERITY}: Critical Miss"}.get(
            rules, MISSES_004
        )
    if outcome is Outcome.CRITICAL_HIT:
        return {RuleSet.TABLES_000: CRIT_HIT_TABLE, RuleSet.SEVERITY_000: f"{SEVERITY}: Critical Hit"}.get(
            rules, CRITICALS_004 + (" (Fighters' 19-20 option)" if natural == 19 else "")
        )
    if outcome is Outcome.SEVERE_HIT:
        return f"{TABLES_I}: Severe Hit" if rules is RuleSet.TABLES_000 else f"{SEVERITY}: Severe Hit"
    if outcome is Outcome.SEVERE_MISS:
        return f"{SEVERITY}: Severe Miss"
    return TO_HIT_RULE


def _damage_rule(outcome: Outcome, setup: AttackSetup) -> str:
    if setup.rule_set is RuleSet.SEVERITY_000:
        return {Outcome.CRITICAL_HIT: f"{SEVERITY}: Critical Hit", Outcome.SEVERE_HIT: f"{SEVERITY}: Severe Hit"}.get(
            outcome, f"{SEVERITY}: Procedure for Determining Damage"
        )
    if outcome is Outcome.SEVERE_HIT:
        return f"{TABLES_I}: Severe Hit"
    if outcome is Outcome.CRITICAL_HIT:
        return CRITICALS_004
    return "PH 2e weapon damage"


def _sf_penalty(r: _Resolution, penalty: int, needed: int, natural: int, *, critical: bool) -> None:
    rule = f"{SEVERITY}: {'Critical' if critical else 'Severe'} Miss"
    base = r.attacker.base_speed_factor
    cap = "no maximum on a natural 1" if critical else f"at most the weapon's base SF {base}"
    r.fields["sf_penalty"] = penalty
    r.step(
        f"{natural} is {needed - natural} under the {needed} needed: +1 SF per point beyond 5 "
        f"({cap}) = +{penalty} SF on the {r.attacker.weapon.name}'s next strike",
        rule,
    )
    if penalty:
        phases = 2 if r.options.periods_include_current_phase else 3
        condition = replace(
            CONDITIONS["unbalanced"], sf_modifier=penalty, text=f"+{penalty} SF on the weapon's next strike"
        )
        r.impose([Imposed(Who.ATTACKER, condition, Duration(count=phases, or_next_attack=True), rule)])


def _critical_miss(r: _Resolution, needed: int) -> None:
    rules, a = r.setup.rule_set, r.attacker
    if rules is RuleSet.SEVERITY_000:
        _sf_penalty(r, severe_miss_penalty(needed, 1, a.base_speed_factor, critical=True), needed, 1, critical=True)
        rule = f"{SEVERITY}: Critical Miss"
        lost = Duration(count=3, or_next_attack=True)
        r.impose([Imposed(Who.ATTACKER, CONDITIONS["no_agility_bonus"], lost, rule)])
        return
    if rules is RuleSet.STANCES_004:
        r.step("A natural 1 always fails, whatever the modifiers", MISSES_004)
        d, options = r.setup.defender, r.options
        may = d.role is Role.FIGHTER or (d.role is Role.MONSTER and options.monsters_use_effects)
        if options.critical_miss_effects and may and d.stance.defensive:
            effects = tuple(_effect_for_miss(e, d) for e in CRITICAL_MISS_EFFECTS)
            r.fields.update(special_effects=effects, effects_chosen_by=Who.DEFENDER)
            r.step(
                f"{d.name} is in {d.stance.label}: may impose one of {', '.join(e.name for e in effects)}",
                "004 Critical Miss Special Effects",
            )
        return
    r.fields["ends_attack_sequence"] = True
    r.step(
        f"{a.name} loses the rest of the attack sequence; if the critical miss delay is less than the "
        f"regular delay, the regular delay is completed before the next attack",
        CRIT_MISS_TABLE,
    )
    misfire = a.attack_form.missile
    if misfire:
        r.fields["table_row"] = "MW"
        r.step(f"Missile weapon misfire: {MISFIRE.text}", f"{TABLES_I}: MW")
        r.misfire()
    if not misfire or r.options.missile_misfire is Misfire.ALSO:
        face = r.roll("d10", "critical miss table", CRIT_MISS_TABLE).total
        row = next(row for row in CRITICAL_MISS_TABLE if row.rolls[0] <= face <= row.rolls[1])
        r.fields["table_row"] = row.label if not misfire else f"MW, {row.label}"
        r.step(f"Critical miss table: d10 = {face}, row {row.label}: {row.text}", f"{CRIT_MISS_TABLE} {row.label}")
        r.miss_row(row)


def _effect_for_miss(effect: SpecialEffect, defender: Defender) -> SpecialEffect:
    if not effect.level_penalty:
        return effect
    level = defender.level
    imposes = tuple(
        replace(i, condition=replace(i.condition, attack_modifier=-level, text=f"-{level} to all actions"))
        for i in effect.imposes
    )
    return replace(effect, imposes=imposes)


def _critical_004(r: _Resolution) -> None:
    a, d, options = r.attacker, r.setup.defender, r.options
    dice = Dice.parse(a.weapon.damage)
    if options.body_points and d.role is Role.MONSTER:
        rule = f"{CRITICALS_004} (Body Points option)"
        r.impose([Imposed(Who.DEFENDER, CONDITIONS["loses_next_attack"], Duration(until=Until.NEXT_ATTACK), rule)])
    elif options.body_points:
        r.fields["body_points"] = dice.count
        rule = f"{CRITICALS_004} (Body Points option)"
        r.step(f"{d.name} also takes {dice.count} body point(s), one per damage die", rule)
    fighting = a.role in (Role.FIGHTER, Role.WARRIOR) or (a.role is Role.MONSTER and options.monsters_use_effects)
    if not (options.critical_hit_effects and fighting and a.stance.attacking and a.attack_form is AttackForm.MELEE):
        return
    half = r.fields["damage"] // 2
    effects = []
    for effect in CRITICAL_HIT_EFFECTS:
        if effect.requires_shield and a.shield is Shield.NONE:
            continue
        distances = {None: None, "half_damage": half, "half_damage_plus_str": half + r.setup.strength_damage}
        feet = distances[effect.feet_rule]
        effects.append(replace(effect, feet=None if feet is None else max(0, feet)))
    r.fields.update(special_effects=tuple(effects), effects_chosen_by=Who.ATTACKER)
    listed = ", ".join(e.name + (f" ({e.feet} ft)" if e.feet is not None else "") for e in effects)
    r.step(f"{a.name} is in {a.stance.label}: may impose one of {listed}", "004 Critical Hit Special Effects")


# ------------------------------------------------------------------ exact odds


@dataclass(frozen=True)
class AttackOdds:
    """Exact probabilities of one attack, as plain dicts of ``Fraction``."""

    setup: AttackSetup
    """The terms and the number needed."""
    outcomes: dict[str, Fraction]
    """Every :class:`Outcome` value (``"critical hit"``...) to its probability."""
    critical_hit_rows: dict[str, Fraction]
    """000-I: each critical hit row (``"1-4"``...) to the probability of the attack landing there."""
    critical_miss_rows: dict[str, Fraction]
    """000-I: each critical miss row, and ``"MW"`` for missile attacks, likewise."""
    damage: dict[int, Fraction]
    """Damage dealt (0 for a miss) to its probability."""
    sf_penalty: dict[int, Fraction]
    """000-II: SF penalty on the next strike (0 when none) to its probability."""
    body_points: dict[int, Fraction]
    """004 Body Points option: body points dealt to its probability."""

    @property
    def rule_set(self) -> RuleSet:
        return self.setup.rule_set

    @property
    def needed(self) -> int:
        return self.setup.needed

    @property
    def hit(self) -> Fraction:
        """Probability of any hit."""
        return sum((self.outcomes[o.value] for o in Outcome if o.hits), Fraction(0))

    @property
    def expected_damage(self) -> Fraction:
        return sum((k * p for k, p in self.damage.items()), Fraction(0))

    @property
    def damage_on_hit(self) -> dict[int, Fraction]:
        """Damage given that the attack hits."""
        hit = self.hit
        if hit == 0:
            return {}
        misses = 1 - hit
        out = {k: (p - (misses if k == 0 else 0)) / hit for k, p in self.damage.items()}
        return {k: p for k, p in out.items() if p}

    def rows(self) -> list[dict[str, Any]]:
        """Long-form rows for a chart: measure, value, probability (float) and exact (str)."""
        tables: dict[str, Mapping[Any, Fraction]] = {
            "outcome": self.outcomes, "critical hit row": self.critical_hit_rows,
            "critical miss row": self.critical_miss_rows, "damage": self.damage,
            "SF penalty": self.sf_penalty, "body points": self.body_points,
        }  # fmt: skip
        return [
            {"measure": measure, "value": value, "probability": float(p), "exact": str(p)}
            for measure, table in tables.items()
            for value, p in table.items()
        ]


def _dice_distribution(dice: Dice, mode: DamageDice, best_of_two: bool, reroll: RerollMinimum) -> dict[int, Fraction]:
    """The damage dice's exact distribution as ``mode`` rolls them; dice of over
    :data:`~combatkit.dice.MAX_EXACT_TOTALS` totals are refused (:class:`~combatkit.dice.ExactOddsError`)."""
    dice.check_exact()
    if mode is DamageDice.MAXIMUM:
        total = icepool.Die([dice.maximum])
    else:
        die = icepool.d(dice.sides)
        if mode is DamageDice.REROLL_MINIMUM:
            die = die.reroll([1], depth=1 if reroll is RerollMinimum.ONCE else "inf")
        total = sum_of(die, dice.count) + dice.modifier
    if best_of_two:
        total = icepool.highest(total, total)
    denominator = total.denominator()
    return {int(outcome): Fraction(quantity, denominator) for outcome, quantity in total.items()}


def attack_odds(
    attacker: Attacker,
    defender: Defender,
    rule_set: str | RuleSet,
    *,
    options: CriticalOptions = CriticalOptions(),
) -> AttackOdds:
    """The exact odds of every outcome, table row, damage total and SF penalty of one attack.

    For damage dice of up to :data:`~combatkit.dice.MAX_EXACT_TOTALS` different totals (10d100), in
    well under a second; larger dice raise :class:`~combatkit.dice.ExactOddsError`."""
    setup = setup_attack(attacker, defender, rule_set, options=options)
    rules = setup.rule_set
    dice = Dice.parse(attacker.weapon.damage)
    outcomes = {o.value: Fraction(0) for o in Outcome}
    hit_rows = {r.label: Fraction(0) for r in CRITICAL_HIT_TABLE} if rules is RuleSet.TABLES_000 else {}
    miss_rows: dict[str, Fraction] = {}
    damage: dict[int, Fraction] = {}
    sf: dict[int, Fraction] = {}
    body: dict[int, Fraction] = {}
    normal = _dice_distribution(dice, DamageDice.NORMAL, False, options.reroll_minimum)
    cache: dict[tuple[DamageDice, bool], dict[int, Fraction]] = {}

    def add(table: dict[Any, Fraction], key: Any, p: Fraction) -> None:
        table[key] = table.get(key, Fraction(0)) + p

    die_face = Fraction(1, 20)
    for natural in range(1, 21):
        outcome = _outcome(natural, setup)
        add(outcomes, outcome.value, die_face)
        penalty = 0
        if outcome is Outcome.SEVERE_MISS:
            penalty = severe_miss_penalty(setup.needed, natural, attacker.base_speed_factor)
        elif outcome is Outcome.CRITICAL_MISS and rules is RuleSet.SEVERITY_000:
            penalty = severe_miss_penalty(setup.needed, natural, attacker.base_speed_factor, critical=True)
        add(sf, penalty, die_face)
        if outcome is Outcome.CRITICAL_MISS and rules is RuleSet.TABLES_000:
            missile = attacker.attack_form.missile
            if missile:
                add(miss_rows, "MW", die_face)
            if not missile or options.missile_misfire is Misfire.ALSO:
                for row in CRITICAL_MISS_TABLE:
                    add(miss_rows, row.label, die_face * Fraction(row.rolls[1] - row.rolls[0] + 1, 10))
        critical_body = (
            rules is RuleSet.STANCES_004 and outcome is Outcome.CRITICAL_HIT
            and options.body_points and defender.role is not Role.MONSTER
        )  # fmt: skip
        add(body, dice.count if critical_body else 0, die_face)
        if not outcome.hits:
            add(damage, 0, die_face)
            continue
        for weight, plan, label in _plans(natural, outcome, setup):
            p = die_face * weight
            if label is not None:
                add(hit_rows, label, p)
            if (plan.dice, plan.best_of_two) not in cache:  # once each: setdefault would work it out every time
                cache[plan.dice, plan.best_of_two] = _dice_distribution(dice, plan.dice, plan.best_of_two,
                                                                        options.reroll_minimum)
            base = cache[plan.dice, plan.best_of_two]
            extras = normal if plan.extra_roll_bonus is not None else {0: Fraction(1)}
            for b, pb in base.items():
                for e, pe in extras.items():
                    add(damage, max(plan.total(b, e), options.minimum_damage), p * pb * pe)
    return AttackOdds(
        setup=setup,
        outcomes=outcomes,
        critical_hit_rows=hit_rows,
        critical_miss_rows=miss_rows,
        damage=dict(sorted(damage.items())),
        sf_penalty=dict(sorted(sf.items())),
        body_points=dict(sorted(body.items())),
    )
