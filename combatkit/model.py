"""Value types: combatants, weapons, spells and the actions they declare.

All are frozen dataclasses; change one with :func:`dataclasses.replace`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Final, TypeVar

from combatkit.dice import Dice, DiceNotationError
from combatkit.errors import RulesError, SpellEffectError, is_whole
from combatkit.fields import check, field_specs, field_table, spec
from combatkit.kinds import ActionKind, IdentityEnum, Length, Maneuver, Size, SpeedFactor, WeaponKind

__all__ = [
    "FISTS",
    "Abilities",
    "ActionKind",
    "Combatant",
    "Declaration",
    "EffectKind",
    "IdentityEnum",
    "ONE_ROUND",
    "Length",
    "MOST_ATTACKS",
    "Maneuver",
    "Refined",
    "SAVE_COLUMNS",
    "Save",
    "Size",
    "Spell",
    "SpellEffect",
    "Weapon",
    "WeaponKind",
    "defensive_adjustment",
    "reaction_adjustment",
    "readme_tables",
]

ONE_ROUND = "1 round"
"""The casting time of a spell that takes the whole round (000 Table 1, phase 4)."""

MOST_ATTACKS: Final = 12
"""The most attacks a round a figure or a weapon is given, the most missiles a weapon looses at one attack a round,
and the most blows an intent asks for. The seeds go to 6 attacks a round (000 §3 C Table 6); 12 leaves room for a
creature of many heads, and bounds the work a round makes (#45: 10**18 attacks a round kept ``schedule`` busy for
minutes)."""


# Player's Handbook (2e) Table 2, Dexterity "Reaction Adjustment", which 000 §1 B
# applies to the group initiative roll (and Part 4, AGI/DEX split, to SF).
_REACTION_ADJUSTMENT = {
    1: -6, 2: -4, 3: -3, 4: -2, 5: -1,
    16: 1, 17: 2, 18: 2, 19: 3, 20: 3, 21: 4, 22: 4, 23: 4, 24: 5, 25: 5,
}  # fmt: skip


@lru_cache(maxsize=None, typed=True)  # asked for every figure of every round; typed: True is not the score 1
def reaction_adjustment(score: int) -> int:
    """The PH Reaction Adjustment for a DEX (or AGI) score of 1..25.

    Positive is faster. >>> reaction_adjustment(17)
    2
    """
    if isinstance(score, bool) or not isinstance(score, int) or not 1 <= score <= 25:
        raise RulesError("PH Table 2", f"an ability score is 1..25, got {score!r}")
    return _REACTION_ADJUSTMENT.get(score, 0)


# PH 2e Table 2 (Dexterity): Defensive Adjustment, negative is a bonus to AC.
_DEFENSIVE = {1: 5, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, 15: -1, 16: -2, 17: -3, 18: -4, 19: -4, 20: -4, 21: -5, 22: -5,
              23: -5, 24: -6, 25: -6}  # fmt: skip


def defensive_adjustment(dexterity: int) -> int:
    """The PH 2e Table 2 Defensive Adjustment to AC for a DEX (or AGI) of 1..25; negative is a bonus.

    >>> defensive_adjustment(17), defensive_adjustment(10), defensive_adjustment(4)
    (-3, 0, 3)
    """
    reaction_adjustment(dexterity)  # validates 1..25
    return _DEFENSIVE.get(dexterity, 0)


def _named(text: str) -> str:
    """What is wrong with a name: only that it is empty."""
    return "" if text.strip() else f"must not be empty, got {text!r}"


def _dice_problem(text: str) -> str:
    """What is wrong with a damage field's dice notation, or ``""``."""
    try:
        Dice.parse(text)
    except DiceNotationError as error:
        return str(error)
    return ""


def _one_round(text: str) -> str:
    """A casting time in words is ``"1 round"`` (000 Table 1)."""
    return "" if text == ONE_ROUND else f'casting time is 1..20 segments or "1 round", got {text!r}'


def _components(text: str) -> str:
    """Components are V, S and M (PH)."""
    bad = {c.strip().upper() for c in text.split(",") if c.strip()} - {"V", "S", "M"}
    return f'components are V, S and M, e.g. "V,S,M"; got {text!r}' if bad else ""


@dataclass(frozen=True, slots=True)
class Abilities:
    """The six abilities, plus the optional Agility split of 000 Part 4."""

    strength: int = field(default=10, metadata=spec("str", "STR", 1, 25, rule="PH Table 1"))
    """STR (exceptional strength is not needed for timing)."""
    dexterity: int = field(default=10, metadata=spec("dex", "DEX", 1, 25, rule="PH Table 2", form="dex", roster=7))
    """DEX. Its Reaction Adjustment moves a figure between tracks (000 §1 B)."""
    constitution: int = field(default=10, metadata=spec("con", "CON", 1, 25, rule="PH Table 3", form="con"))
    """CON. A CON check decides a hit caster's delay (000 §2 A)."""
    intelligence: int = field(default=10, metadata=spec("int", "INT", 1, 25, rule="PH Table 4"))
    """INT (with WIS, Perception: 000 Part 4)."""
    wisdom: int = field(default=10, metadata=spec("wis", "WIS", 1, 25, rule="PH Table 5"))
    """WIS."""
    charisma: int = field(default=10, metadata=spec("cha", "CHA", 1, 25, rule="PH Table 6"))
    """CHA."""
    agility: int | None = field(default=None, metadata=spec("agi", "AGI", 1, 25, rule="000 Part 4"))
    """AGI, only with the AGI/DEX split (000 Part 4): then AGI sets the track."""

    def __post_init__(self) -> None:
        check(self, "abilities")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon or natural attack."""

    name: str = field(metadata=spec("name", "name", form="name", roster=1, valid=_named))
    """Shown in the timeline and used in intents; not empty."""
    speed_factor: SpeedFactor = field(default=5, metadata=spec("sf", "SF", -5, 20, rule="000 §1 E", form="sf",
                                                               roster=2))
    """Base SF (PH weapon table). Ignored for natural attacks, whose SF comes from size."""
    magic_bonus: int = field(default=0, metadata=spec("magic", "magic +", -5, 6, rule="000 §1 E", form="magic"))
    """The weapon's +N; subtracted from SF (000 §1 E)."""
    style_bonus: int = field(default=0, metadata=spec("style_bonus", "style bonus", 0, 5, rule="000 §1 E"))
    """Style (two-handed) specialization bonus; subtracted from SF (000 §1 E)."""
    kind: WeaponKind = field(default=WeaponKind.MELEE, metadata=spec("kind", "kind", form="kind"))
    """Melee, missile or natural."""
    length: Length = field(default=Length.MEDIUM, metadata=spec("length", "length", form="length"))
    """For strike speed (004) and closing order (002)."""
    damage: str = field(default="d6", metadata=spec("damage", "damage", form="damage", roster=3, valid=_dice_problem))
    """Damage dice, e.g. ``"d8"`` or ``"2d4+1"``."""
    rate_of_fire: Fraction = field(default=Fraction(1), metadata=spec(
        "rate_of_fire", "rate of fire", high=MOST_ATTACKS, rule="000 §3 C",
        said=f"a rate of fire is more than 0 and at most {MOST_ATTACKS}"))
    """Missiles per round at one attack per round (PH); 000 §3 C multiplies it by APR."""
    attacks_per_round: Fraction | None = field(default=None, metadata=spec(
        "attacks_per_round", "attacks/round", high=MOST_ATTACKS, rule="000 §2 C",
        said=f"attacks per round are more than 0 and at most {MOST_ATTACKS}"))
    """Attacks per round with this weapon when it differs from the wielder's, e.g. a
    specialist's favoured weapon in a two-weapon routine (000 §2 C); None: the wielder's."""

    def __post_init__(self) -> None:
        check(self, self.name, skip=lambda name: name == "speed_factor" and self.kind is WeaponKind.NATURAL)


FISTS = Weapon("fists", kind=WeaponKind.NATURAL, length=Length.UNARMED, damage="d2")
"""What a figure with no weapon attacks with: punch, kick, elbow, knee (002 Unarmed Combat I.A), 1d2
damage (III.A); a natural attack, so its SF is its size's (000 Table 2)."""


SAVE_COLUMNS = ("death", "wand", "petrification", "breath", "spell")
"""PH 2e Table 60's columns: paralyzation/poison/death magic, rod/staff/wand,
petrification/polymorph, breath weapon, spell."""


class EffectKind(enum.Enum):
    """What a spell does to the figures it affects (:mod:`combatkit.effects` says how each is played)."""

    DAMAGE = "damage"
    """Hit points of damage; with a duration, the damage comes again at the start of each later round
    of it (Melf's acid arrow, flaming sphere)."""
    HEAL = "heal"
    """Hit points restored, up to the figure's maximum."""
    SLEEP = "sleep"
    """Magical sleep: helpless, hit automatically (002 Special Types of Attacks IV), for the duration."""
    HOLD = "hold"
    """Magically held: helpless, hit automatically (002 Special Types of Attacks IV), for the duration."""
    CHARM = "charm"
    """Charmed: the figure regards the caster as a friend and leaves the fight (it takes no hostile action);
    a charm lasts the fight (the PH's lasts days), so it takes no duration."""
    FEAR = "fear"
    """Flees in panic at its full movement for the duration, taking no action; it may walk back after."""
    COWER = "cower"
    """Trembles and cowers in place (scare): no movement, -1 to attack rolls and saving throws."""
    WEB = "web"
    """Stuck in a web: no attacks, no movement, no spellcasting, until its Strength breaks it out."""
    BLINDNESS = "blindness"
    """Blinded: -4 to its attack rolls, +4 to the attack rolls against it."""
    SLOW = "slow"
    """Moves and attacks at half rate, +4 AC (worse), -4 to hit, no Dexterity bonus to AC."""
    HASTE = "haste"
    """Moves and attacks at double rate (spellcasting is not sped up)."""
    PROTECTION = "protection"
    """Protection from evil: attacks on it at -2, its saving throws at +2."""
    NAUSEA = "nausea"
    """Reeling with nausea (stinking cloud): no attacks, no spellcasting."""
    BLESS = "bless"
    """+1 to attack rolls."""

    @property
    def hostile(self) -> bool:
        """Cast at a foe (damage, sleep, hold...) rather than a friend (heal, haste, protection, bless)."""
        return self not in _FRIENDLY


_FRIENDLY = frozenset({EffectKind.HEAL, EffectKind.HASTE, EffectKind.PROTECTION, EffectKind.BLESS})


class Save(enum.Enum):
    """What a successful saving throw does."""

    NONE = "none"
    """No saving throw."""
    HALF = "half"
    """Half damage (damage effects only)."""
    NEGATES = "negates"
    """No effect at all."""


def _dice_field(effect: SpellEffect, name: str) -> None:
    text = getattr(effect, name)
    if text:
        try:
            Dice.parse(text)
        except DiceNotationError as error:
            raise SpellEffectError(effect.rule or "spell effects", name, f"{effect.name}: {error}") from None


@dataclass(frozen=True, slots=True)
class SpellEffect:
    """What one spell does when it goes off, simplified to what a fight on a battle line needs.

    The shipped effects are ``combatkit/data/spell_effects.toml``; an encounter file gives a spell
    its own as a table of these fields (``effect = { kind = "damage", dice = "2d4" }``). The number
    of rounds it lasts is :meth:`rounds` plus a roll of ``duration_dice``, counting the round it goes
    off; an effect that is not damage and has no duration at all lasts the fight.
    """

    name: str
    """The spell's name, as combatants list it (matched case-insensitively)."""
    kind: EffectKind
    """What it does: damage, heal, sleep, hold, charm, fear, cower, web, blindness, slow, haste,
    protection, nausea or bless."""
    rule: str
    """Where the effect comes from, with the numbers it uses (``"PH 2e fireball: 1d6 a level..."``)."""
    dice: str = ""
    """Dice rolled per unit of damage or healing (``"d4+1"``); empty for the other kinds."""
    levels_per_unit: int = 0
    """One more unit every this many caster levels past 1st (magic missile: 2; fireball: 1, a d6 a level);
    0: one unit."""
    max_units: int | None = None
    """Most units, if capped (fireball: 10)."""
    bonus_per_level: int = 0
    """Added once per caster level (burning hands: 2; shocking grasp: 1)."""
    max_bonus: int | None = None
    """Cap on that bonus (burning hands: 20)."""
    save: Save = Save.NONE
    """Saving throw: none, half damage, or negates."""
    save_column: str = "spell"
    """PH 2e Table 60 column saved in: spell (the default), death (paralyzation, poison, death magic), wand,
    petrification, breath."""
    save_modifier: int = 0
    """Added to each saving throw's roll, -10..10 (hold person cast at one person: -2; slow: -4; web: -2)."""
    radius: int = 0
    """Feet about the target that the spell also takes in (friend or foe, unless ``selective``); 0: the target only."""
    selective: bool = False
    """The area takes in only the caster's foes (a hostile spell) or friends (haste, bless): the caster picks."""
    targets_per_level: int = 0
    """At most this many creatures a caster level, nearest the target first (haste, slow: 1); 0: every one."""
    max_level: int | None = None
    """Highest level (hit dice) affected, 0..40 (sleep: 4, for 4+3 HD; scare: 5, fewer than 6)."""
    hit_dice: str = ""
    """Dice of Hit Dice affected, lowest first, partial effects ignored (sleep: ``"2d4"``); a level-0 figure counts
    1/2."""
    duration: int = 0
    """Rounds it lasts, counting the round it goes off (0..1000), before the per-level terms and the dice."""
    duration_per_level: int = 0
    """Rounds more per caster level (hold person: 2; sleep: 5)."""
    levels_per_round: int = 0
    """One round more every this many caster levels (Melf's acid arrow: 3)."""
    duration_dice: str = ""
    """Dice of rounds more (stinking cloud: ``"d4+1"``)."""

    def __post_init__(self) -> None:
        rule = self.rule or "spell effects"

        def bad(name: str, why: str) -> SpellEffectError:
            return SpellEffectError(rule, name, f"{self.name}: {why}, got {getattr(self, name)!r}")

        if not self.name:
            raise bad("name", "a spell's effect needs the spell's name")
        if not self.rule:
            raise bad("rule", "a spell's effect cites where it comes from")
        for name in ("dice", "hit_dice", "duration_dice"):
            _dice_field(self, name)
        if self.kind in (EffectKind.DAMAGE, EffectKind.HEAL) and not self.dice:
            raise bad("dice", f"a {self.kind.value} effect needs dice")
        if self.kind is EffectKind.SLEEP and not self.hit_dice:
            raise bad("hit_dice", "a sleep effect needs the dice of Hit Dice it affects")
        if self.save is Save.HALF and self.kind is not EffectKind.DAMAGE:
            raise bad("save", "half is for damage; a save against any other effect negates it")
        if self.kind is EffectKind.CHARM and self.lasts:
            name = next(n for n in ("duration", "duration_per_level", "levels_per_round", "duration_dice")
                        if getattr(self, n))
            raise bad(name, "a charm lasts the fight here (the PH's lasts days): give it no duration")
        if self.save_column not in SAVE_COLUMNS:
            raise bad("save_column", f"saving throw columns are {', '.join(SAVE_COLUMNS)}")
        if not -10 <= self.save_modifier <= 10:
            raise bad("save_modifier", "a saving throw modifier is -10..10")
        if self.max_level is not None and not 0 <= self.max_level <= 40:
            raise bad("max_level", "a level is 0..40")
        if self.max_units is not None and self.max_units < 1:
            raise bad("max_units", "is 1 or more")
        if self.max_bonus is not None and self.max_bonus < 0:
            raise bad("max_bonus", "is 0 or more")
        for name in ("levels_per_unit", "bonus_per_level", "radius", "targets_per_level", "duration_per_level",
                     "levels_per_round"):
            if getattr(self, name) < 0:
                raise bad(name, "is 0 or more")
        if not 0 <= self.duration <= 1000:
            raise bad("duration", "is 0..1000 rounds")

    def units(self, level: int) -> int:
        """Dice units for a caster of ``level`` (magic missile's missiles, fireball's d6s)."""
        n = 1 + (max(level, 1) - 1) // self.levels_per_unit if self.levels_per_unit else 1
        return min(n, self.max_units) if self.max_units is not None else n

    def bonus(self, level: int) -> int:
        """The flat bonus for a caster of ``level``."""
        value = self.bonus_per_level * max(level, 1)
        return min(value, self.max_bonus) if self.max_bonus is not None else value

    def rounds(self, level: int) -> int:
        """Rounds it lasts for a caster of ``level``, before ``duration_dice``: ``duration``, plus
        ``duration_per_level`` a level, plus one every ``levels_per_round`` levels.

        >>> SpellEffect("hold person", EffectKind.HOLD, "PH 2e", duration_per_level=2).rounds(3)
        6
        """
        level = max(level, 1)
        extra = level // self.levels_per_round if self.levels_per_round else 0
        return self.duration + self.duration_per_level * level + extra

    @property
    def lasts(self) -> bool:
        """It has a duration (rounds, per level or dice), rather than being over when it goes off."""
        return bool(self.duration or self.duration_per_level or self.levels_per_round or self.duration_dice)

    @property
    def hostile(self) -> bool:
        """Cast at a foe (damage, sleep, hold...) rather than a friend (heal, haste, protection, bless)."""
        return self.kind.hostile


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell or psionic power."""

    name: str = field(metadata=spec("name", "name", form="name", valid=_named))
    """Shown in the timeline and used in intents; not empty."""
    level: int = field(default=1, metadata=spec("level", "level", 0, 9, rule="PH spell levels",
                                                said="spell level is 0..9", form="level"))
    """Spell level (0: a psionic power or a cantrip)."""
    casting_time: int | str = field(default=1, metadata=spec(
        "ct", "CT", 1, 20, rule="000 Table 1", said='casting time is 1..20 segments or "1 round"', form="ct",
        valid=_one_round))
    """CT in segments (at most 9 in Phase System I), or ``"1 round"``."""
    components: str = field(default="V,S", metadata=spec("components", "components", rule="PH spell components",
                                                         form="components", valid=_components))
    """Any of V, S, M, comma separated. M needs components in hand (000 §2 A)."""
    touch: bool = field(default=False, metadata=spec("touch", "touch"))
    """A touch spell: the touch is an attack in a later phase (000 §2 A)."""
    psionic: bool = field(default=False, metadata=spec("psionic", "psionic"))
    """A psionic power: spellcasting with CT 1 unless given (000 §2 B)."""
    effect: SpellEffect | None = None
    """What it does when it goes off, if the encounter says (else the shipped data,
    :func:`combatkit.effects.spell_effect`)."""

    def __post_init__(self) -> None:
        check(self, self.name)

    @property
    def component_set(self) -> frozenset[str]:
        return _component_set(self.components)

    @property
    def full_round(self) -> bool:
        return self.casting_time == ONE_ROUND


@lru_cache(maxsize=256)
def _component_set(components: str) -> frozenset[str]:
    """The letters of a spell's components (``"V, S,m"``: V, S and M), read once for each text: the systems and the
    resolver ask a caster's spell for them every round (#18)."""
    return frozenset(c.strip().upper() for c in components.split(",") if c.strip())


def _ratio(value: Fraction | int) -> tuple[int, int]:
    """``value`` as whole numerator and (positive) denominator: attacks per round and rates of fire are counted in
    integers on the fast path, where building a :class:`~fractions.Fraction` each time was slow."""
    exact = value if isinstance(value, (int, Fraction)) else Fraction(value)
    return exact.numerator, exact.denominator


def _truncated(num: int, den: int) -> int:
    """``int(Fraction(num, den))`` for a positive ``den``: rounded toward zero."""
    return num // den if num >= 0 else -(-num // den)


@dataclass(frozen=True, slots=True)
class Combatant:
    """A figure in the fight."""

    name: str = field(metadata=spec("name", "name", form="name", roster=1, valid=_named))
    """Unique within an encounter; not empty."""
    side: str = field(metadata=spec("side", "side", form="side", roster=2, valid=_named))
    """The group that rolls initiative together (000 §1 A); not empty."""
    level: int = field(default=1, metadata=spec("level", "level", 0, 40, rule="PH levels", form="level", roster=3))
    """Level or hit dice (0: a level-0 figure, a man-at-arms)."""
    char_class: str = field(default="fighter", metadata=spec("class", "class", form="char_class"))
    """Class (fighter, mage, priest, thief, ranger, paladin, monster...)."""
    size: Size = field(default=Size.MEDIUM, metadata=spec("size", "size", form="size"))
    """Size, for natural-attack SF and weapon SF adjustment (000 Table 2)."""
    abilities: Abilities = field(default_factory=Abilities)
    """Ability scores (written in the combatant's own table of a file: ``dex = 16``)."""
    movement: int = field(default=12, metadata=spec("mv", "MV", 0, 240, rule="000 Table 3", form="mv", roster=8))
    """MV: movement rate per round (1 = 10 feet per round indoors)."""
    armor_class: int = field(default=10, metadata=spec("ac", "AC", -10, 10, form="ac", roster=5))
    """AC, 10 (unarmoured) down to -10."""
    thac0: int = field(default=20, metadata=spec("thac0", "THAC0", -10, 25, form="thac0", roster=6))
    """To hit armour class 0."""
    hit_points: int = field(default=1, metadata=spec("hp", "HP", 0, None, said="hit points are 0 or more", form="hp",
                                                     roster=4))
    """Current hit points."""
    attacks_per_round: Fraction = field(default=Fraction(1), metadata=spec(
        "attacks_per_round", "attacks/round", high=MOST_ATTACKS, rule="000 §2 C",
        said=f"attacks per round are more than 0 and at most {MOST_ATTACKS}", form="apr"))
    """Attacks per round; 3/2 means 1 in odd rounds and 2 in even rounds."""
    weapons: tuple[Weapon, ...] = ()
    """What it can attack with; the first is the default."""
    spells: tuple[Spell, ...] = ()
    """Spells (or psionic powers) it can cast this round."""
    components_ready: bool = field(default=True, metadata=spec("components_ready", "components in hand",
                                                                form="components_ready"))
    """Material components in hand at the start of the round (000 §2 A)."""
    surprised: bool = field(default=False, metadata=spec("surprised", "surprised", rule="000 §2 F", form="surprised"))
    """Surprised: loses the first phase (000 §2 F)."""
    morale: int | None = field(default=None, metadata=spec("morale", "morale", 2, 12, rule="001 I. Morale (OSE)"))
    """Morale score: a morale check is made on 2d6 at or under it (001 I. Morale, read with OSE's check; 12 never
    breaks). Left out: 7 (``ResolutionOptions.morale``)."""

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise RulesError("encounter", f"a combatant needs a name, got {self.name!r}")
        check(self, self.name)  # attacks per round among the rest: more than 0, at most MOST_ATTACKS (000 §2 C)
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise RulesError("encounter", f"{self.name}: two weapons share a name in {names}")

    def weapon(self, name: str | None) -> Weapon:
        """The named weapon, or the first one; a figure with no weapon at all attacks with :data:`FISTS`."""
        if name is None:
            return self.weapons[0] if self.weapons else FISTS
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        if name == FISTS.name:
            return FISTS
        raise RulesError("encounter", f"{self.name} has no weapon {name!r}; has {[w.name for w in self.weapons]}")

    def striking(self, names: Sequence[str] = ()) -> tuple[Weapon, ...]:
        """The weapons a blow that names ``names`` strikes with: those, or, when it names none, the first
        (:meth:`weapon`: its :data:`FISTS` when it has no weapon, 002 Unarmed Combat)."""
        return tuple(self.weapon(name) for name in names) or (self.weapon(None),)

    def spell(self, name: str | None) -> Spell:
        """The named spell, or the first one."""
        if not self.spells:
            raise RulesError("000 §2 A", f"{self.name} has no spell to cast")
        if name is None:
            return self.spells[0]
        for spell in self.spells:
            if spell.name == name:
                return spell
        raise RulesError("encounter", f"{self.name} has no spell {name!r}; has {[s.name for s in self.spells]}")

    def attacks_in_round(self, round_number: int, weapon: Weapon | None = None) -> int:
        """Whole attacks this round: 3/2 gives 1 in odd rounds, 2 in even ones. A missile
        weapon multiplies by its rate of fire (000 §3 C: "Multiply the fire rate by number
        of attacks per round").

        >>> Combatant("x", "a", attacks_per_round=Fraction(3, 2)).attacks_in_round(2)
        2
        >>> Combatant("x", "a").attacks_in_round(1, Weapon("long bow", 8, kind=WeaponKind.MISSILE, rate_of_fire=2))
        2
        """
        num, den = self.attack_rate(weapon)
        return _truncated(num * round_number, den) - _truncated(num * (round_number - 1), den)

    @property
    def attack_cycle(self) -> int:
        """Rounds after which :meth:`attacks_in_round` repeats, with every weapon: the least common multiple of
        the rates' denominators (3/2 attacks a round: 2, an odd round and an even one).

        >>> Combatant("x", "a", attacks_per_round=Fraction(3, 2)).attack_cycle
        2
        """
        return math.lcm(*(self.attack_rate(w)[1] for w in (None, *self.weapons)))

    def attack_rate(self, weapon: Weapon | None) -> tuple[int, int]:
        """Attacks a round with ``weapon`` as whole numerator and denominator (a missile's times its rate of fire)."""
        apr = self.attacks_per_round
        if weapon is not None and weapon.attacks_per_round is not None:
            apr = weapon.attacks_per_round
        num, den = _ratio(apr)
        if weapon is not None and weapon.kind is WeaponKind.MISSILE:
            fire_num, fire_den = _ratio(weapon.rate_of_fire)
            num, den = num * fire_num, den * fire_den
        return num, den


@dataclass(frozen=True, kw_only=True, slots=True)
class Refined:
    """Combat II's own terms for how an action is done (000 §2), shared by a :class:`Declaration` and an intent's
    :class:`~combatkit.intent.Refinement`: each declared once here, for the file reader, the editor and the
    systems that read them (a system that takes a hold refuses one past its range when it schedules, naming
    its rule; the others ignore it)."""

    attacks: int = field(default=1, metadata=spec("attacks", "attacks", 1, 2, rule="000 §2 C",
                                                  said="one or two attacks in a phase"))
    """Attacks in one phase: 2 is a double attack (000 §2 C, more attacks than opportunities)."""
    reposition: bool = field(default=False, metadata=spec("reposition", "reposition step", rule="000 §2 A, C"))
    """A step of up to 10' first: +2 SF for an attack, +1 CT for a spell (000 §2 A, C)."""
    retarget: bool = field(default=False, metadata=spec("retarget", "retarget", rule="000 §2 C"))
    """A new target after the first fell: +3 SF (000 §2 C)."""
    drop_and_draw: bool = field(default=False, metadata=spec("drop_and_draw", "drop & draw", rule="000 §2 E"))
    """Drop one weapon and draw another as part of the attack: +3 SF (000 §2 E)."""
    readies_components: bool = field(default=False, metadata=spec("readies_components", "readies components",
                                                                  rule="000 §2 A"))
    """Gets material components in hand for a later spell (000 §2 A; 003 §IV)."""
    hold: int = field(default=0, metadata=spec("hold", "hold", 0, 6, rule="000 §2 A",
                                               said="hold is 0..6 CT units"))
    """CT units a completed spell is held before release (000 §2 A Holding a Spell)."""


@dataclass(frozen=True, slots=True)
class Declaration(Refined):
    """What one combatant states it will do in one phase (000 §1 C); how it is done, in Combat II's terms, is
    :class:`Refined`'s (keyword arguments)."""

    actor: str
    """The combatant's name."""
    phase: int
    """Phase number in the system's clock (1..4 in Phase System I)."""
    kind: ActionKind
    """Move, attack, cast, misc or ready."""
    target: str | None = None
    """Whom the attack or spell is aimed at, or whom a move closes on (a 001 withdrawal: the opponent it is made
    from)."""
    weapons: tuple[str, ...] = ()
    """Weapons used; several make a multi-part routine at the slowest SF (000 §2 C)."""
    spell: str | None = None
    """The spell begun, for a cast."""
    feet: int | None = None
    """For a move: feet moved (default: the full 1/3 MV)."""
    maneuver: Maneuver | None = None
    """A charge, withdrawal or flight (for a move), or a pummel, grapple or overbear (for an attack)."""
    note: str = ""
    """Free text, e.g. what a misc action is. A system with a list of its own named actions (001's,
    004's table, 002's action types) reads its words to pick one (:meth:`~combatkit.systems.base.TimingSystem.note_suggestions`)."""
    named_action: str | None = None
    """The named action it places, by its id in ``combatkit/data/actions.toml`` (``"drink_potion"``), when a round's
    plan made it of an intent's named action (:attr:`Intent.action <combatkit.intent.Intent.action>`): a system
    with a list of its own reads that entry's, not the note's words. None for a declaration given as such."""

    def __post_init__(self) -> None:
        # Given in Python (a file's are read and checked by combatkit.encounter_files, the planner's are made without
        # this, combatkit.made): a wrong value is refused here, naming it, not deep in a system as a TypeError.
        if type(self.kind) is not ActionKind:
            object.__setattr__(self, "kind", choice(ActionKind, self.kind, "kind", _DECLARATIONS, self._where))
        if self.maneuver is not None and type(self.maneuver) is not Maneuver:
            object.__setattr__(self, "maneuver", choice(Maneuver, self.maneuver, "maneuver", _DECLARATIONS,
                                                        self._where))
        if not is_whole(self.phase):  # its range is the system's clock, which each system refuses under its rule
            raise RulesError(_DECLARATIONS, f"{self._where()}: phase is a whole number, got {self.phase!r}")
        if type(self.weapons) is not tuple:
            object.__setattr__(self, "weapons", weapon_names(self.weapons, _DECLARATIONS, self._where()))
        check_text(self, ("actor", "target", "spell", "note", "named_action"), ("target", "spell", "named_action"),
                   _DECLARATIONS, self._where)
        if self.feet is not None and (not is_whole(self.feet) or not 0 <= self.feet <= MAX_FEET):
            raise RulesError(_DECLARATIONS, f"{self._where()}: feet is a whole number, 0..{MAX_FEET}, got "
                                            f"{self.feet!r}")
        check_refined(self, self._where)
        if self.maneuver is not None and self.maneuver.kind is not self.kind:
            raise RulesError(_DECLARATIONS, f"{self._where()} cannot {self.maneuver.value}: {self.maneuver.value} is "
                                            f"a maneuver of a {self.maneuver.kind.value}")

    def _where(self) -> str:
        """Whose declaration a refusal names."""
        kind = self.kind.value if isinstance(self.kind, ActionKind) else repr(self.kind)
        return f"{self.actor}'s phase {self.phase} {kind}"


_DECLARATIONS: Final = "combatkit declarations"
"""The rule a declaration given in Python is refused under when a field is of the wrong kind or out of range."""
MAX_PHASE: Final = 20
"""The highest phase a refinement may name (an encounter file's limit for a declaration too); each system refuses
one past its own clock, naming its rule."""
MAX_FEET: Final = 2400
"""The most feet a declared move may cover (an encounter file's limit too)."""
_FLAGS: Final = ("reposition", "retarget", "drop_and_draw", "readies_components")
""":class:`Refined`'s fields that are true or false."""


E = TypeVar("E", bound=enum.Enum)


def choice(kind: type[E], value: object, name: str, rule: str, where: Callable[[], str]) -> E:
    """``value`` as a member of the enumeration ``kind``: a member, or a member's value (``"attack"``, as a file has
    it); anything else refused under ``rule``, naming ``where``, the field and the choices."""
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(m.value) for m in kind)
        raise RulesError(rule, f"{where()}: {name} is one of {choices}, got {value!r}") from None


def check_text(obj: object, names: Sequence[str], optional: Sequence[str], rule: str, where: Callable[[], str]
               ) -> None:
    """Refuse a field of ``obj`` among ``names`` that is not text (None is allowed for those in ``optional``) under
    ``rule``, naming ``where``, the field and the value."""
    for name in names:
        value = getattr(obj, name)
        if not isinstance(value, str) and not (value is None and name in optional):
            raise RulesError(rule, f"{where()}: {name} is text, got {value!r}")


def check_refined(refined: Refined, where: Callable[[], str]) -> None:
    """Refuse a :class:`Refined` field (a declaration's, a refinement's) of the wrong kind, naming ``where``, the field,
    the value and its rule: ``attacks`` and ``hold`` whole numbers, the steps true or false. Their ranges are each
    system's to refuse, under its own rule (the Segment of Action counts blows where Combat II allows a double
    attack; a hold past 6 CT units is refused by the systems that hold)."""
    for name in ("attacks", "hold"):
        value = getattr(refined, name)
        if not is_whole(value):
            raise RulesError(field_specs(Refined)[name].rule, f"{where()}: {name} is a whole number, got {value!r}")
    for name in _FLAGS:
        value = getattr(refined, name)
        if type(value) is not bool:
            raise RulesError(field_specs(Refined)[name].rule,
                             f"{where()}: {name.replace('_', ' ')} is true or false, got {value!r}")


def weapon_names(value: object, rule: str, where: str) -> tuple[str, ...]:
    """A declaration's or an intent's weapons given as other than a tuple: a list (or any sequence) of weapon names,
    as Python is often written, taken as the tuple of them, which the engine keys its memo on (a list cannot be a
    key); a single name, or anything but names, refused under ``rule``, naming ``where`` and the value."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not all(isinstance(w, str) for w in value):
        raise RulesError(rule, f"{where}: weapons are a list of weapon names, e.g. ['long sword'], got {value!r}")
    return tuple(value)


def readme_tables() -> str:
    """README.md's tables of a combatant's, a weapon's and a spell's fields, as declared
    (:func:`combatkit.fields.field_table`).

    ``python -c "from combatkit.model import readme_tables; print(readme_tables())"`` prints them."""
    return "\n\n".join(f"{heading}:\n\n{field_table(*classes)}" for heading, classes in (
        ("A combatant (its abilities are written in its own table)", (Combatant, Abilities)),
        ("A weapon", (Weapon,)), ("A spell", (Spell,))))
