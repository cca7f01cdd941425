"""Mana pools: what a caster has to spend under 000 §5 Mana System I (points) or II (slots).

A :class:`ManaState` is a tuple of :class:`Pool` values, one per thing the record sheet
tracks: the mana total, a specialist's separate pool, a priest's free-spell boxes,
or (System II) the check boxes of each spell level. Casting returns a new state:

>>> priest = mana_state(Caster(CasterClass.PRIEST, 5))
>>> priest.points
12
>>> after, spend = cast(priest, 3)
>>> after.points, spend.cause
(9, '3rd-level spell: 3 points from the mana pool (000 §5 Mana System I)')

Choices this module makes where 000 §5 is silent or open (the alternatives are options
on :class:`ManaOptions` where the seed offers them):

* The base-mana table is the default source of points (``base=BaseManaSource.PRINTED``);
  ``BaseManaSource.COMPUTED`` applies the stated rule instead. They differ only for
  rangers and paladins (see :func:`~combatkit.mana.tables.base_mana_comparison`).
* Starting Mana is optional in the seed, so ``constitution=ConstitutionRule.OFF`` is the
  default. ``STARTING`` gives ceil(CON / 3) while that beats the base; ``ADDED`` is
  Option 1 and reads "CON bonus" as that same ceil(CON / 3), added at every level.
  Option 2 (``constitution_with_prime_requisite=True``) replaces CON by the average of
  CON and the prime requisite, rounded down, before the division by 3 rounded up; the
  seed applies it to "bonus mana or initial mana", so it combines with either rule.
  CON adjusts the base only: Wisdom bonus points are added after it, the specialist
  pool is never adjusted, and a ranger or paladin who casts no spells yet gets none.
* Wisdom bonus spells (PH Table 5) go to priests only: the PH gives rangers and
  paladins none. As in the PH they count only for spell levels the priest can cast.
* A specialist's pool holds one extra spell per castable spell level (PH), i.e.
  1 + 2 + ... + highest level points, and pays for specialty spells only.
* "May not cast spells of a higher level than the PH progression charts allow"
  includes PH Table 24's footnotes: a priest needs WIS 17 for 6th-level and WIS 18
  for 7th-level spells. The base-mana table ignores them, so points are unchanged.
* Under System II the Wisdom bonus and specialist slots are their own check boxes
  ("be sure that the caster record differentiates between bonus, specialist and
  normal spell slots"); CON does not apply (there are no points to adjust).
* Innate spells (000 §5 Innate Spells, method 2) are a pool "for the day": it comes
  back whole after a rest of 4+ hours, once a day, with no study. Spells used at will
  or per hour cost nothing and are kept out of the pool ("account for these
  separately"). Method 1, "keep them as is", needs no engine.

Results explain themselves for a teaching view: :func:`explain_pools` says what a caster's
pools hold and why, :func:`explain_base_mana` sets the printed base-mana cell beside the
rule it states, each as :class:`Note` lines that cite the rule.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from combatkit.errors import RulesError, is_whole
from combatkit.mana.tables import (
    CasterClass,
    base_mana_comparison,
    check_ability,
    check_caster_level,
    computed_base_mana,
    ordinal,
    printed_base_mana,
    progression,
    wisdom_bonus_spells,
)

__all__ = [
    "BaseManaSource",
    "BonusMethod",
    "Caster",
    "ConstitutionRule",
    "Explanation",
    "InnateSpell",
    "ManaOptions",
    "ManaState",
    "ManaSystem",
    "Note",
    "Pool",
    "PoolKind",
    "RecoveryRate",
    "Spend",
    "base_mana",
    "cast",
    "cast_innate",
    "explain_base_mana",
    "explain_pools",
    "innate_state",
    "mana_state",
    "starting_mana",
]

MAX_SPELL_LEVEL = 9
"""Spell levels run 1..9 (PH)."""
_RULE_I = "000 §5 Mana System I"
_RULE_II = "000 §5 Mana System II"
_RULE_CON = "000 §5 Starting Mana"
_RULE_INNATE = "000 §5 Innate Spells"
_RULE_BONUS = "000 §5 Bonus Spell Points"
_RULE_TABLE_5 = "PH Table 5"


class ManaSystem(enum.Enum):
    """Which of 000 §5's two mana systems is in play."""

    POINTS = "I"
    """Mana System I: one pool of points, a spell costs its level."""
    SLOTS = "II"
    """Mana System II: the PH progression's slots, any known spell of the slot's level."""


class BaseManaSource(enum.Enum):
    """Where Mana System I's base points come from (000 §5)."""

    PRINTED = "printed"
    """The base-mana table as the seed prints it (the default)."""
    COMPUTED = "computed"
    """The seed's stated rule: one point per spell level per spell of the PH progression."""


class BonusMethod(enum.Enum):
    """How a priest's Wisdom bonus spells are kept under Mana System I (000 §5)."""

    ADDED = 1
    """Method 1 (the default): their points are added to the mana total."""
    FREE_BOXES = 2
    """Method 2: a box per bonus spell; the first spells of each level check a box instead of costing mana."""


class ConstitutionRule(enum.Enum):
    """000 §5 Starting Mana: the optional CON adjustment of the base points."""

    OFF = "off"
    """Base points only (the rule is optional; the default)."""
    STARTING = "starting"
    """ceil(CON / 3) points while that is more than the base, the base afterwards."""
    ADDED = "added"
    """Option 1: ceil(CON / 3) added to the base at every level."""


class RecoveryRate(enum.Enum):
    """Minutes of study per point recovered (000 §5 Mana Recovery)."""

    FLAT = "flat"
    """10 minutes per point, as PH p. 81 (the default)."""
    BY_SPELL_LEVEL = "by spell level"
    """The option: 13 - highest allowable spell level minutes per point."""


@dataclass(frozen=True)
class ManaOptions:
    """The readings and options of 000 §5; every default is the seed's basic rule."""

    system: ManaSystem = ManaSystem.POINTS
    """Mana System I (points) or II (slots)."""
    base: BaseManaSource = BaseManaSource.PRINTED
    """System I: the printed base-mana table or the rule it states."""
    wisdom_bonus: BonusMethod = BonusMethod.ADDED
    """System I: a priest's Wisdom bonus spells added as points, or kept as free boxes."""
    constitution: ConstitutionRule = ConstitutionRule.OFF
    """System I: the optional Starting Mana rule, or its Option 1."""
    constitution_with_prime_requisite: bool = False
    """Starting Mana Option 2: use the average of CON and the prime requisite (rounded down)."""
    recovery_rate: RecoveryRate = RecoveryRate.FLAT
    """10 minutes per point, or 13 - highest spell level."""


@dataclass(frozen=True)
class Caster:
    """A priest, wizard, ranger or paladin, with the abilities the mana rules read."""

    caster_class: CasterClass
    """Which PH spell progression applies (its value, ``"wizard"``, will do)."""
    level: int
    """Character level, 1..20 (the base-mana table's rows)."""
    constitution: int = 10
    """CON, 1..25: Starting Mana (000 §5)."""
    wisdom: int = 10
    """WIS, 1..25: a priest's bonus spells (PH Table 5); the prime requisite of priest magic."""
    intelligence: int = 10
    """INT, 1..25: the prime requisite of wizard magic; a wizard's list limits (PH Table 4)."""
    specialist: bool = False
    """A specialist wizard: one extra spell per castable spell level, in a separate pool."""

    def __post_init__(self) -> None:
        if not isinstance(self.caster_class, CasterClass):  # given by value: Caster("wizard", 5)
            try:
                object.__setattr__(self, "caster_class", CasterClass(self.caster_class))
            except (ValueError, TypeError):
                allowed = ", ".join(repr(c.value) for c in CasterClass)
                raise RulesError("000 §5 Mana System I", f"the base-mana table has columns for {allowed}; "
                                                         f"got the caster class {self.caster_class!r}") from None
        check_caster_level(self.level)
        check_ability(self.constitution, "CON", _RULE_CON)
        check_ability(self.wisdom, "WIS", _RULE_TABLE_5)
        check_ability(self.intelligence, "INT", "PH Table 4")
        if self.specialist and self.caster_class is not CasterClass.WIZARD:
            raise RulesError(
                "PH specialist wizards", f"only a wizard can be a specialist, not a {self.caster_class.value}"
            )

    def __str__(self) -> str:
        specialist = "specialist " if self.specialist else ""
        return f"{ordinal(self.level)}-level {specialist}{self.caster_class.value}"

    @property
    def prime_requisite(self) -> int:
        """WIS for priest magic, INT for wizard magic (000 §5 Starting Mana, Option 2)."""
        return getattr(self, self.caster_class.prime_requisite)

    @property
    def spells(self) -> tuple[int, ...]:
        """Spells per spell level this caster may use (the PH progression, within PH Table 24's
        Wisdom footnotes for priests), first entry 1st level."""
        counts = progression(self.caster_class, self.level).spells
        return counts[: self.highest_spell_level]

    @property
    def highest_spell_level(self) -> int:
        """The highest spell level this caster may cast; 0 when none (a 5th-level ranger)."""
        highest = progression(self.caster_class, self.level).highest_spell_level
        if self.caster_class is CasterClass.PRIEST:
            # PH Table 24 footnotes: 6th-level spells need WIS 17, 7th-level need WIS 18.
            if self.wisdom < 17:
                highest = min(highest, 5)
            elif self.wisdom < 18:
                highest = min(highest, 6)
        return highest

    @property
    def bonus_spells(self) -> tuple[int, ...]:
        """A priest's Wisdom bonus spells per castable spell level (PH Table 5); () for others."""
        if self.caster_class is not CasterClass.PRIEST:
            return ()
        return wisdom_bonus_spells(self.wisdom)[: self.highest_spell_level]


@dataclass(frozen=True)
class Note:
    """One sentence of an explanation and the rule it rests on; a view shows the sentence as it is."""

    text: str
    """The sentence, citing its rule where it reads best: ``"Base mana (printed table, 000 §5 Mana System I):
    12 points."``."""
    rule: str
    """That rule on its own (``"000 §5 Mana System I"``), for a view that links to the seed or groups by rule."""


@dataclass(frozen=True)
class Explanation:
    """A result told for people: a headline, and the notes under it that say why."""

    headline: str
    """The result in a line: ``"5th-level priest, Mana System I (points): 12 of 12 spell levels available"``."""
    notes: tuple[Note, ...] = ()
    """Why, a rule to a note, in reading order."""


def _spells_text(counts: Sequence[int]) -> str:
    """(3, 3, 1) -> ``"3 × 1st + 3 × 2nd + 1 × 3rd"``: spells per spell level, first entry 1st level."""
    return " + ".join(f"{n} × {ordinal(i + 1)}" for i, n in enumerate(counts) if n) or "no spells"


def base_mana(caster_class: CasterClass, level: int, *, source: BaseManaSource = BaseManaSource.PRINTED) -> int:
    """000 §5 Mana System I base points: the printed table, or the rule it states.

    >>> base_mana(CasterClass.RANGER, 12), base_mana(CasterClass.RANGER, 12, source=BaseManaSource.COMPUTED)
    (5, 9)
    """
    if source is BaseManaSource.PRINTED:
        return printed_base_mana(caster_class, level)
    return computed_base_mana(caster_class, level)


def starting_mana(
    base: int,
    constitution: int,
    *,
    rule: ConstitutionRule = ConstitutionRule.STARTING,
    prime_requisite: int | None = None,
) -> int:
    """000 §5 Starting Mana: the CON adjustment of a caster's base points.

    ``STARTING``: ceil(CON / 3) points while that is more than the base. ``ADDED``
    (Option 1): ceil(CON / 3) added to the base regardless of level. With a
    ``prime_requisite`` (Option 2) the score divided is the average of CON and the
    prime requisite, rounded down. ``OFF`` returns the base.

    The seed's example, a third-level mage (4 points) with CON 18:

    >>> starting_mana(4, 18)
    6
    >>> starting_mana(4, 18, rule=ConstitutionRule.ADDED), starting_mana(4, 18, prime_requisite=13)
    (10, 5)
    """
    check_ability(constitution, "CON", _RULE_CON)
    if not is_whole(base) or base < 0:
        raise RulesError(_RULE_CON, f"base mana is a whole number of points, 0 or more, got {base!r}")
    score = constitution
    if prime_requisite is not None:
        check_ability(prime_requisite, "the prime requisite", f"{_RULE_CON}, Option 2")
        score = (constitution + prime_requisite) // 2
    con_points = math.ceil(score / 3)
    if rule is ConstitutionRule.STARTING:
        return max(base, con_points)
    if rule is ConstitutionRule.ADDED:
        return base + con_points
    return base


def explain_base_mana(caster: Caster, options: ManaOptions = ManaOptions()) -> Explanation:
    """000 §5's printed base-mana cell for ``caster`` beside the rule the table states.

    For priests and wizards they agree, and the headline says so. For rangers and paladins the
    printed column is the PH casting level: the headline says they differ and the notes give each
    side, and under Mana System II (in ``options``) why the difference does not matter.

    >>> print(explain_base_mana(Caster(CasterClass.PRIEST, 5)).headline)  # doctest: +ELLIPSIS
    000 §5's base-mana table prints 12* for this priest; ... gives the same: 3 × 1st + 3 × 2nd + 1 × 3rd = 12.
    >>> for note in explain_base_mana(Caster(CasterClass.RANGER, 12)).notes:  # doctest: +ELLIPSIS
    ...     print(note.text)
    000 §5's table prints 5* points for a 12th-level ranger, which matches the PH casting level (5).
    The rule the table states, ... gives 9: 2 × 1st + 2 × 2nd + 1 × 3rd = 9.
    """
    row = base_mana_comparison(caster.caster_class)[caster.level - 1]
    rule_text = f"{_spells_text(progression(caster.caster_class, caster.level).spells)} = {row.computed}"
    if row.agrees:
        return Explanation(
            f"000 §5's base-mana table prints {row.printed_text} for this {caster.caster_class.value}; its stated "
            f"rule, one point per spell level per spell over the PH progression, gives the same: {rule_text}."
        )
    notes = [
        Note(f"000 §5's table prints {row.printed_text} points for {article(str(caster))}, which matches the PH "
             f"casting level ({row.casting_level}).", _RULE_I),
        Note(f"The rule the table states, one point per spell level per spell over the PH progression, gives "
             f"{row.computed}: {rule_text}.", _RULE_I),
    ]
    if options.system is ManaSystem.SLOTS:
        notes.append(Note("Under Mana System II the PH slots are used directly, so the difference does not change "
                          "the pools.", _RULE_II))
    return Explanation("The printed table and the stated rule differ here.", tuple(notes))


def _whole(value: object, low: int, high: int | None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and low <= value
        and (high is None or value <= high)
    )


def article(text: str) -> str:
    """``text`` with "a" or "an" before it, as spoken: "an 8th-level spell", "a 5th-level wizard".

    >>> article("8th-level spell"), article("11th-level priest"), article("3rd-level spell")
    ('an 8th-level spell', 'an 11th-level priest', 'a 3rd-level spell')
    """
    return f"{'an' if text.startswith(('8', '11', '18')) else 'a'} {text}"


class PoolKind(enum.Enum):
    """What a pool is on the record sheet (000 §5)."""

    POINTS = "mana"
    """System I: the mana total (base, CON adjustment, Wisdom bonus method 1)."""
    SPECIALIST_POINTS = "specialist mana"
    """System I: a specialist's separate pool, for specialty spells only."""
    FREE_SPELLS = "free spells"
    """System I, Wisdom bonus method 2: boxes of one spell level, checked before mana is spent."""
    SLOTS = "slots"
    """System II: the PH progression's slots of one spell level."""
    BONUS_SLOTS = "bonus slots"
    """System II: a priest's Wisdom bonus slots of one spell level."""
    SPECIALIST_SLOTS = "specialist slots"
    """System II: a specialist's extra slot of one spell level, for specialty spells only."""

    @property
    def specialist(self) -> bool:
        """Recovered at half time (000 §5 Mana Recovery) and spent on specialty spells only."""
        return self in (PoolKind.SPECIALIST_POINTS, PoolKind.SPECIALIST_SLOTS)

    @property
    def per_level(self) -> bool:
        """Boxes of one spell level each, rather than points."""
        return self not in (PoolKind.POINTS, PoolKind.SPECIALIST_POINTS)


@dataclass(frozen=True)
class Pool:
    """One pool on the record sheet."""

    kind: PoolKind
    """Mana points, specialist points, free boxes or slots."""
    spell_level: int | None
    """The spell level of boxes and slots, 1..9; None for point pools."""
    available: int
    """Points (or boxes) left, 0..maximum."""
    maximum: int
    """Points (or boxes) when fully recovered; also the most this pool may regain in 24 hours."""
    automatic: int = 0
    """Points (or boxes) that return without study after 4+ hours' sleep, once a day
    (000 §5 Bonus Spell Points); the rest are recovered by study."""

    def __post_init__(self) -> None:
        rule = _RULE_I if not self.kind.per_level or self.kind is PoolKind.FREE_SPELLS else _RULE_II
        if self.kind.per_level != (self.spell_level is not None) or (
            self.spell_level is not None and not _whole(self.spell_level, 1, MAX_SPELL_LEVEL)
        ):
            raise RulesError(rule, f"{self.kind.value}: spell level 1..{MAX_SPELL_LEVEL} for boxes and slots, "
                             f"None for points; got {self.spell_level!r}")  # fmt: skip
        if not _whole(self.maximum, 0, None):
            raise RulesError(rule, f"{self.label}: the maximum is a whole number, 0 or more, got {self.maximum!r}")
        if not _whole(self.available, 0, self.maximum):
            raise RulesError(rule, f"{self.label}: available must be 0..{self.maximum}, got {self.available!r}")
        if not _whole(self.automatic, 0, self.maximum):
            raise RulesError(rule, f"{self.label}: automatic must be 0..{self.maximum}, got {self.automatic!r}")

    @property
    def label(self) -> str:
        """A unique name within a state, e.g. ``"mana"`` or ``"slots 3rd"``."""
        if self.spell_level is None:
            return self.kind.value
        return f"{self.kind.value} {ordinal(self.spell_level)}"

    @property
    def unit_points(self) -> int:
        """Spell levels per box: 1 for point pools, the spell level for boxes and slots."""
        return self.spell_level or 1

    @property
    def points(self) -> int:
        """The available spell levels, comparable across pools."""
        return self.available * self.unit_points

    @property
    def missing(self) -> int:
        """Points (or boxes) to recover."""
        return self.maximum - self.available

    @property
    def studied(self) -> bool:
        """Whether study recovers this pool (it does unless it all comes back by itself)."""
        return self.automatic < self.maximum


@dataclass(frozen=True)
class ManaState:
    """Everything a caster has to spend, as pools; change it with :func:`cast` or the planner."""

    who: str
    """Whose pools, for messages: ``"5th-level priest"``."""
    highest_spell_level: int
    """The highest spell level the caster may cast; 0 when none."""
    pools: tuple[Pool, ...]
    """The pools, in the default order of study."""
    options: ManaOptions = ManaOptions()
    """The options the pools were built with; the planner reads the recovery rate here."""

    def __post_init__(self) -> None:
        labels = [pool.label for pool in self.pools]
        if len(set(labels)) != len(labels):
            raise RulesError(_RULE_I, f"{self.who}: two pools share a label in {labels}")

    def pool(self, label: str) -> Pool:
        """The pool named ``label``."""
        for pool in self.pools:
            if pool.label == label:
                return pool
        raise RulesError(_RULE_I, f"{self.who} has no pool {label!r}; has {[p.label for p in self.pools]}")

    def with_available(self, label: str, available: int) -> ManaState:
        """A copy with one pool's available points (or boxes) set."""
        return replace(
            self, pools=tuple(replace(p, available=available) if p.label == label else p for p in self.pools)
        )

    def emptied(self) -> ManaState:
        """A copy with every pool spent, e.g. to plan a full recovery."""
        return replace(self, pools=tuple(replace(p, available=0) for p in self.pools))

    def filled(self) -> ManaState:
        """A copy with every pool full again."""
        return replace(self, pools=tuple(replace(p, available=p.maximum) for p in self.pools))

    @property
    def points(self) -> int:
        """Spell levels available across all pools."""
        return sum(pool.points for pool in self.pools)

    @property
    def maximum_points(self) -> int:
        """Spell levels when every pool is full."""
        return sum(pool.maximum * pool.unit_points for pool in self.pools)

    @property
    def full(self) -> bool:
        """Every pool at its maximum."""
        return all(pool.available == pool.maximum for pool in self.pools)


def mana_state(caster: Caster, options: ManaOptions = ManaOptions()) -> ManaState:
    """A fully recovered caster's pools under ``options``.

    The seed's example, a fifth-level priest "barring bonus spells", has 12 points;
    with WIS 17 he adds (2 x 1) + (2 x 2) + (1 x 3) bonus points:

    >>> mana_state(Caster(CasterClass.PRIEST, 5, wisdom=17)).points
    21
    >>> [p.label for p in mana_state(Caster(CasterClass.WIZARD, 3, specialist=True)).pools]
    ['mana', 'specialist mana']
    """
    highest = caster.highest_spell_level
    if options.system is ManaSystem.SLOTS:
        if options.constitution is not ConstitutionRule.OFF:
            raise RulesError(
                _RULE_CON,
                f"CON adjusts Mana System I points; Mana System II has none to adjust "
                f"(got constitution={options.constitution.value!r})",
            )
        return ManaState(str(caster), highest, _slot_pools(caster), options)
    return ManaState(str(caster), highest, _point_pools(caster, options), options)


def explain_pools(state: ManaState, caster: Caster) -> Explanation:
    """What ``caster``'s pools hold and why, under the options ``state`` was built with: the spells
    of the PH progression, the base mana and its source, the CON rule, the Wisdom bonus spells and
    how they are kept. The headline counts what ``state`` (the pools now, after any casts) has left.

    The seed's examples, a fifth-level priest's twelve points and a third-level mage's six with CON 18:

    >>> priest = Caster(CasterClass.PRIEST, 5)
    >>> print(explain_pools(mana_state(priest), priest).headline)
    5th-level priest, Mana System I (points): 12 of 12 spell levels available
    >>> mage = Caster(CasterClass.WIZARD, 3, constitution=18)
    >>> for note in explain_pools(mana_state(mage, ManaOptions(constitution=ConstitutionRule.STARTING)), mage).notes:
    ...     print(note.text)
    Spells by the PH progression: 2 × 1st + 1 × 2nd; highest spell level 2nd.
    Base mana (printed table, 000 §5 Mana System I): 4 points.
    After the CON rule (000 §5 Starting Mana, CON 18): 6 points.
    """
    options = state.options
    if not state.pools:
        return Explanation(f"{state.who}: no spells yet", (Note(
            f"The PH progression gives a {caster.caster_class.value} of this level no spells, so there is no mana "
            f"({_RULE_I}).", _RULE_I),))
    system = "Mana System I (points)" if options.system is ManaSystem.POINTS else "Mana System II (slots)"
    notes = [Note(f"Spells by the PH progression: {_spells_text(caster.spells)}; highest spell level "
                  f"{ordinal(state.highest_spell_level)}.", caster.caster_class.progression_table)]
    if options.system is ManaSystem.POINTS:
        base = base_mana(caster.caster_class, caster.level, source=options.base)
        source = "printed table" if options.base is BaseManaSource.PRINTED else "stated rule"
        notes.append(Note(f"Base mana ({source}, {_RULE_I}): {base} points.", _RULE_I))
        if options.constitution is not ConstitutionRule.OFF:
            prime = caster.prime_requisite if options.constitution_with_prime_requisite else None
            adjusted = starting_mana(base, caster.constitution, rule=options.constitution, prime_requisite=prime)
            option_2 = ", Option 2" if prime is not None else ""
            notes.append(Note(f"After the CON rule ({_RULE_CON}{option_2}, CON {caster.constitution}): "
                              f"{adjusted} points.", _RULE_CON))
    if caster.bonus_spells:
        free = f"Free spells for WIS {caster.wisdom} ({_RULE_TABLE_5}): {_spells_text(caster.bonus_spells)}"
        if options.system is ManaSystem.SLOTS:
            kept, rule = f", kept as bonus slots ({_RULE_II}).", _RULE_II
        elif options.wisdom_bonus is BonusMethod.ADDED:
            kept, rule = ", their points added to the mana pool (000 §5, method 1).", _RULE_I
        else:
            kept, rule = ", kept as boxes checked before any mana is spent (000 §5, method 2).", _RULE_I
        notes.append(Note(f"{free}{kept} They come back after 4+ hours' sleep without study ({_RULE_BONUS}).", rule))
    elif caster.caster_class is CasterClass.PRIEST:
        notes.append(Note(f"No free spells: WIS {caster.wisdom} gives none ({_RULE_TABLE_5} starts at 13).",
                          _RULE_TABLE_5))
    headline = f"{state.who}, {system}: {state.points} of {state.maximum_points} spell levels available"
    return Explanation(headline, tuple(notes))


def _point_pools(caster: Caster, options: ManaOptions) -> tuple[Pool, ...]:
    if caster.highest_spell_level == 0:
        return ()
    base = base_mana(caster.caster_class, caster.level, source=options.base)
    prime = caster.prime_requisite if options.constitution_with_prime_requisite else None
    base = starting_mana(base, caster.constitution, rule=options.constitution, prime_requisite=prime)
    bonus = caster.bonus_spells
    pools = []
    if options.wisdom_bonus is BonusMethod.ADDED:
        bonus_points = sum((index + 1) * count for index, count in enumerate(bonus))
        pools.append(Pool(PoolKind.POINTS, None, base + bonus_points, base + bonus_points, bonus_points))
    else:
        pools.append(Pool(PoolKind.POINTS, None, base, base))
        pools.extend(
            Pool(PoolKind.FREE_SPELLS, index + 1, count, count, count) for index, count in enumerate(bonus) if count
        )
    if caster.specialist:
        specialist = sum(range(1, caster.highest_spell_level + 1))
        pools.append(Pool(PoolKind.SPECIALIST_POINTS, None, specialist, specialist))
    return tuple(pools)


def _slot_pools(caster: Caster) -> tuple[Pool, ...]:
    pools = [Pool(PoolKind.SLOTS, index + 1, count, count) for index, count in enumerate(caster.spells) if count]
    pools.extend(
        Pool(PoolKind.BONUS_SLOTS, index + 1, count, count, count)
        for index, count in enumerate(caster.bonus_spells)
        if count
    )
    if caster.specialist:
        pools.extend(Pool(PoolKind.SPECIALIST_SLOTS, level, 1, 1) for level in range(1, caster.highest_spell_level + 1))
    return tuple(pools)


@dataclass(frozen=True)
class Spend:
    """What one spell drew, and from where."""

    spell_level: int
    """The spell's level, 1..9."""
    pool: str | None
    """The label of the pool it drew on; None when nothing was drawn (an innate spell at will)."""
    units: int
    """Points (System I mana) or boxes (free spells, slots) taken."""
    cause: str
    """Why, citing the rule: ``"3rd-level spell: 3 points from the mana pool (000 §5 Mana System I)"``."""


def cast(
    state: ManaState, spell_level: int, *, specialty: bool = False, pool: str | None = None
) -> tuple[ManaState, Spend]:
    """Pay for one spell; return the new state and what was spent.

    A spell costs its level in points (System I) or one slot of its level (System II),
    never more than one pool pays. By default a priest's free box of that level pays
    first, then (for a ``specialty`` spell) the specialist pool, then the mana pool or
    bonus slot before a normal slot. ``pool`` names the one to use instead.

    >>> mage = mana_state(Caster(CasterClass.WIZARD, 5))
    >>> cast(mage, 9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    combatkit.errors.RulesError: a 5th-level wizard may not cast a 9th-level spell: ... allows up to 3rd (...)
    """
    rule = _RULE_II if state.options.system is ManaSystem.SLOTS else _RULE_I
    if not _whole(spell_level, 1, MAX_SPELL_LEVEL):
        raise RulesError(rule, f"a spell's level is 1..{MAX_SPELL_LEVEL}, got {spell_level!r}")
    if spell_level > state.highest_spell_level:
        allowed = f"up to {ordinal(state.highest_spell_level)}" if state.highest_spell_level else "no spells"
        raise RulesError(
            rule,
            f"{article(state.who)} may not cast {_describe(spell_level, False)}: the PH progression allows {allowed}",
        )
    candidates = [p for p in state.pools if _pays(p, spell_level, specialty)]
    if pool is not None:
        chosen = state.pool(pool)
        if chosen not in candidates:
            raise RulesError(rule, f"the {pool} pool cannot pay for {_describe(spell_level, specialty)}")
        candidates = [chosen]
    candidates.sort(key=_payment_order)
    for payer in candidates:
        units = 1 if payer.kind.per_level else spell_level
        if payer.available >= units:
            spent = state.with_available(payer.label, payer.available - units)
            if payer.kind is PoolKind.FREE_SPELLS:
                what = "1 box"
            elif payer.kind.per_level:
                what = "1 slot"
            else:
                what = f"{units} point{'s' * (units != 1)}"
            return spent, Spend(spell_level, payer.label, units, f"{ordinal(spell_level)}-level spell: "
                                f"{what} from the {payer.label} pool ({rule})")  # fmt: skip
    left = ", ".join(f"{p.label}: {p.available}" for p in candidates)
    left = f"{left} left" if candidates else "no pool of that level"
    raise RulesError(rule, f"{article(state.who)} cannot pay for {_describe(spell_level, specialty)} ({left})")


def _describe(spell_level: int, specialty: bool) -> str:
    return article(f"{ordinal(spell_level)}-level {'specialty ' * specialty}spell")


def _pays(pool: Pool, spell_level: int, specialty: bool) -> bool:
    if pool.kind.specialist and not specialty:
        return False
    return not pool.kind.per_level or pool.spell_level == spell_level


_PAYMENT_ORDER = (
    PoolKind.FREE_SPELLS,
    PoolKind.SPECIALIST_POINTS,
    PoolKind.SPECIALIST_SLOTS,
    PoolKind.BONUS_SLOTS,
    PoolKind.POINTS,
    PoolKind.SLOTS,
)


def _payment_order(pool: Pool) -> int:
    return _PAYMENT_ORDER.index(pool.kind)


@dataclass(frozen=True)
class InnateSpell:
    """A spell a monster casts innately (000 §5 Innate Spells)."""

    name: str
    """The equivalent priest or wizard spell."""
    level: int
    """Its spell level, 1..9."""
    per_day: int | None = 1
    """Uses per day; None for at will or per hour, which stay outside the pool."""

    def __post_init__(self) -> None:
        if not _whole(self.level, 1, MAX_SPELL_LEVEL):
            raise RulesError(_RULE_INNATE, f"{self.name}: a spell's level is 1..{MAX_SPELL_LEVEL}, got {self.level!r}")
        if self.per_day is not None and not _whole(self.per_day, 1, None):
            raise RulesError(
                _RULE_INNATE, f"{self.name}: uses per day is 1 or more (None: at will), got {self.per_day!r}"
            )


def innate_state(
    spells: Sequence[InnateSpell], *, system: ManaSystem = ManaSystem.POINTS, who: str = "monster"
) -> ManaState:
    """000 §5 Innate Spells, method 2: a monster's daily list as a mana pool or as slots.

    System I totals "all its possible points for the day"; System II reserves a slot
    per use at the spell's level. Either comes back whole after a rest of 4+ hours.

    >>> lamia = [InnateSpell("charm person", 1), InnateSpell("mirror image", 2), InnateSpell("suggestion", 3)]
    >>> innate_state(lamia).points, [p.label for p in innate_state(lamia, system=ManaSystem.SLOTS).pools]
    (6, ['slots 1st', 'slots 2nd', 'slots 3rd'])
    """
    names = [spell.name for spell in spells]
    if len(set(names)) != len(names):
        raise RulesError(_RULE_INNATE, f"{who}: each innate spell is listed once, got {names}")
    daily = [spell for spell in spells if spell.per_day is not None]
    highest = max((spell.level for spell in spells), default=0)
    options = ManaOptions(system=system)
    if system is ManaSystem.POINTS:
        total = sum(spell.level * (spell.per_day or 0) for spell in daily)
        return ManaState(who, highest, (Pool(PoolKind.POINTS, None, total, total, total),) if total else (), options)
    per_level: dict[int, int] = {}
    for spell in daily:
        per_level[spell.level] = per_level.get(spell.level, 0) + (spell.per_day or 0)
    pools = tuple(Pool(PoolKind.SLOTS, level, n, n, n) for level, n in sorted(per_level.items()))
    return ManaState(who, highest, pools, options)


def cast_innate(state: ManaState, spells: Sequence[InnateSpell], name: str) -> tuple[ManaState, Spend]:
    """Cast the innate spell ``name`` from ``spells``: at its level's cost, or free when at will.

    >>> darkness = [InnateSpell("darkness", 2, per_day=None)]
    >>> spend = cast_innate(innate_state(darkness), darkness, "darkness")[1]
    >>> spend.units, spend.cause
    (0, '2nd-level spell: at will, accounted separately (000 §5 Innate Spells)')
    """
    for spell in spells:
        if spell.name == name:
            if spell.per_day is None:
                return state, Spend(spell.level, None, 0, f"{ordinal(spell.level)}-level spell: at will, "
                                    f"accounted separately ({_RULE_INNATE})")  # fmt: skip
            return cast(state, spell.level)
    raise RulesError(_RULE_INNATE, f"{state.who} has no innate spell {name!r}; has {[s.name for s in spells]}")
