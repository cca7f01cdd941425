"""Learning new spells and forgetting old ones (000 §5 Learning New Spells).

Under the mana rules a wizard's memorized list is permanent, bounded per spell level
by PH Table 4's "maximum number of spells per level". Learning past the bound makes
the DM roll for a spell of that level to drop off the list; five spells the player
marks as most used are exempt. Every draw goes through a :class:`~combatkit.dice.Roller`,
so the referee can enter the roll under the purpose ``"forget: 3rd-level spell"``.

>>> from combatkit.dice import Roller
>>> book = Repertoire(intelligence=9, memorized=tuple(KnownSpell(f"spell {n}", 1) for n in range(6)))
>>> learned = learn(book, "sleep", 1, roller=Roller(entered={"forget: 1st-level spell": 2}))
>>> learned.forgotten.name, learned.research_days
('spell 1', Fraction(1, 2))

Choices this module makes where 000 §5 is silent or open:

* "The player marks off five spells" reads as five on the whole list
  (``ExemptScope.WHOLE_LIST``, the default); ``ExemptScope.PER_LEVEL`` allows five per
  spell level.
* The spell forgotten is drawn among the non-exempt spells of the new spell's level,
  numbered in alphabetical order (:func:`forget_candidates` shows the numbering), with
  one die of that many sides; with a single candidate there is nothing to roll.
* PH Table 4's "Spell Level" column bounds the spells a wizard can learn at all.
* Re-learning a forgotten spell (it stays in the spell book) costs the same research as
  a new one; a re-learned spell must have the level it had.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from fractions import Fraction

from combatkit.dice import MissingRollError, Roll, Roller
from combatkit.errors import RulesError, is_whole
from combatkit.mana.pools import MAX_SPELL_LEVEL, ManaState, Spend, article, cast
from combatkit.mana.tables import intelligence_limits, ordinal

__all__ = [
    "EXEMPT_SPELLS",
    "ExemptScope",
    "KnownSpell",
    "Learned",
    "Repertoire",
    "cast_known",
    "forget_candidates",
    "learn",
    "research_days",
    "set_exempt",
]

EXEMPT_SPELLS = 5
"""Spells the player may mark as exempt from forgetting (000 §5 Learning New Spells)."""
_RULE = "000 §5 Learning New Spells"
_RULE_TABLE_4 = "PH Table 4"


def _check_spell_level(level: object) -> None:
    if not is_whole(level) or not 1 <= level <= MAX_SPELL_LEVEL:
        raise RulesError(_RULE, f"a spell's level is 1..{MAX_SPELL_LEVEL}, got {level!r}")


def research_days(spell_level: int, *, library: bool = True) -> Fraction:
    """Days of research to add a spell to the list: 1/2 day per spell level with an arcane
    library and workshop, 1 day per level without.

    >>> research_days(3), research_days(3, library=False)
    (Fraction(3, 2), Fraction(3, 1))
    """
    _check_spell_level(spell_level)
    return Fraction(spell_level, 2 if library else 1)


class ExemptScope(enum.Enum):
    """How the five exempt spells are counted."""

    WHOLE_LIST = "whole list"
    """Five on the whole memorized list (the default reading)."""
    PER_LEVEL = "per level"
    """Five at each spell level."""


@dataclass(frozen=True)
class KnownSpell:
    """A spell on the memorized list."""

    name: str
    """The spell's name, unique on the list."""
    level: int
    """Its spell level, 1..9."""
    exempt: bool = False
    """Marked as one of the five most used: never forgotten."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise RulesError(_RULE, f"a spell needs a name, got {self.name!r}")
        _check_spell_level(self.level)


@dataclass(frozen=True)
class Repertoire:
    """A wizard's memorized list, and the spell book it is drawn from."""

    intelligence: int
    """INT, 1..25: PH Table 4 bounds the list (9 or more to learn spells at all)."""
    memorized: tuple[KnownSpell, ...] = ()
    """The list "in memory", kept there by daily review."""
    forgotten: tuple[KnownSpell, ...] = ()
    """Spells that dropped off the list but stay in the spell book, to be re-learned later."""
    exempt_scope: ExemptScope = ExemptScope.WHOLE_LIST
    """How the five exempt spells are counted."""

    def __post_init__(self) -> None:
        limits = intelligence_limits(self.intelligence)
        names = [spell.name for spell in self.memorized + self.forgotten]
        if len(set(names)) != len(names):
            raise RulesError(_RULE, f"each spell is in the spell book once, memorized or forgotten, got {names}")
        for spell in self.memorized:
            self._check_learnable(spell.level)
        most = limits.max_spells_per_level
        for level in {spell.level for spell in self.memorized}:
            if most is not None and len(self.known(level)) > most:
                raise RulesError(_RULE_TABLE_4, f"INT {self.intelligence} holds at most {most} spells per level, "
                                 f"got {len(self.known(level))} of {ordinal(level)} level")  # fmt: skip
        self._check_exempt()

    def _check_learnable(self, level: int) -> None:
        top = intelligence_limits(self.intelligence).max_spell_level
        if top is None:
            raise RulesError(_RULE_TABLE_4, f"INT {self.intelligence} learns no spells (PH Table 4 starts at INT 9)")
        if level > top:
            raise RulesError(_RULE_TABLE_4, f"INT {self.intelligence} learns spells up to {ordinal(top)} level, "
                             f"not {ordinal(level)}")  # fmt: skip

    def _check_exempt(self) -> None:
        groups = (
            [self.memorized]
            if self.exempt_scope is ExemptScope.WHOLE_LIST
            else [self.known(level) for level in {spell.level for spell in self.memorized}]
        )
        for group in groups:
            marked = [spell.name for spell in group if spell.exempt]
            if len(marked) > EXEMPT_SPELLS:
                scope = "on the list" if self.exempt_scope is ExemptScope.WHOLE_LIST else "at one spell level"
                raise RulesError(_RULE, f"at most {EXEMPT_SPELLS} spells {scope} are exempt, got {marked}")

    @property
    def spellbook(self) -> tuple[str, ...]:
        """Every spell in the spell book: the memorized list and the forgotten spells."""
        return tuple(spell.name for spell in self.memorized + self.forgotten)

    def known(self, level: int) -> tuple[KnownSpell, ...]:
        """The memorized spells of one spell level."""
        return tuple(spell for spell in self.memorized if spell.level == level)

    def spell(self, name: str) -> KnownSpell:
        """The memorized spell ``name``."""
        for spell in self.memorized:
            if spell.name == name:
                return spell
        raise RulesError(_RULE, f"{name!r} is not on the memorized list; it holds {[s.name for s in self.memorized]}")


def set_exempt(repertoire: Repertoire, name: str, exempt: bool = True) -> Repertoire:
    """Mark (or unmark) a memorized spell as one of the five exempt from forgetting."""
    repertoire.spell(name)
    memorized = tuple(replace(s, exempt=exempt) if s.name == name else s for s in repertoire.memorized)
    return replace(repertoire, memorized=memorized)


def forget_candidates(repertoire: Repertoire, level: int) -> tuple[KnownSpell, ...]:
    """The spells of ``level`` that may be forgotten, in the order the die numbers them (face 1 first)."""
    _check_spell_level(level)
    return tuple(sorted((s for s in repertoire.known(level) if not s.exempt), key=lambda s: s.name))


@dataclass(frozen=True)
class Learned:
    """The outcome of learning one spell."""

    repertoire: Repertoire
    """The list afterwards."""
    spell: KnownSpell
    """The spell learned."""
    forgotten: KnownSpell | None
    """The spell that dropped off the list to make room, if any."""
    roll: Roll | None
    """The draw that chose it; None when no draw was needed."""
    research_days: Fraction
    """Days of research spent; 0 for spells gained with a new class level."""
    cause: str
    """What happened, citing the rule."""


def learn(
    repertoire: Repertoire,
    name: str,
    level: int,
    *,
    roller: Roller | None = None,
    library: bool = True,
    advancement: bool = False,
) -> Learned:
    """Add ``name`` (a spell of ``level``) to the memorized list (000 §5 Learning New Spells).

    Research takes :func:`research_days`, or none for a spell gained with a class level
    (``advancement=True``: "accounted for in the time spent training"). When the level is
    already at PH Table 4's maximum, a non-exempt spell of that level is forgotten; the
    ``roller`` draws it under ``"forget: <level>-level spell"``.
    """
    spell = KnownSpell(name, level)
    repertoire._check_learnable(level)
    for old in repertoire.forgotten:
        if old.name == name and old.level != level:
            raise RulesError(_RULE, f"{name!r} is in the spell book as {article(ordinal(old.level) + '-level')} "
                             f"spell, not {ordinal(level)}-level")  # fmt: skip
    if any(known.name == name for known in repertoire.memorized):
        raise RulesError(_RULE, f"{name!r} is already on the memorized list")
    days = Fraction(0) if advancement else research_days(level, library=library)
    how = "gained with a new level" if advancement else f"{days} days of research"
    most = intelligence_limits(repertoire.intelligence).max_spells_per_level
    memorized = repertoire.memorized
    forgotten = None
    roll = None
    if most is not None and len(repertoire.known(level)) >= most:
        candidates = forget_candidates(repertoire, level)
        if len(candidates) == 1:
            forgotten = candidates[0]
        else:
            purpose = f"forget: {ordinal(level)}-level spell"
            if roller is None:
                raise MissingRollError(
                    f"learning {name!r} forgets {article(ordinal(level) + '-level')} spell at random: "
                    f"pass a Roller (seeded, or with the referee's d{len(candidates)} entered under {purpose!r})"
                )
            roll = roller.roll(f"d{len(candidates)}", purpose)
            forgotten = candidates[roll.total - 1]
        memorized = tuple(s for s in memorized if s.name != forgotten.name)
        how += f"; {forgotten.name} drops off the list (INT {repertoire.intelligence}: {most} per level)"
    in_book = tuple(s for s in repertoire.forgotten if s.name != name)
    if forgotten is not None:
        in_book += (forgotten,)
    after = replace(repertoire, memorized=memorized + (spell,), forgotten=in_book)
    return Learned(after, spell, forgotten, roll, days, f"learned {name}: {how} ({_RULE})")


def cast_known(
    state: ManaState, repertoire: Repertoire, name: str, *, specialty: bool = False, pool: str | None = None
) -> tuple[ManaState, Spend]:
    """Cast a memorized spell: any spell on the list, paid at its level (000 §5 Mana Systems I and II)."""
    return cast(state, repertoire.spell(name).level, specialty=specialty, pool=pool)
