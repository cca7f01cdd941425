"""Errors that name the rule that was broken and the value given.

Every error is a ``ValueError`` so a caller can catch bad input in one place; the
message is written for the person who typed the value, and ``rule`` holds the seed
citation (``"000 §1 G"``) for tools that want to link to it. :func:`error_words` is what a
page shows for any of them.
"""

from __future__ import annotations

import re
from typing import Final, TypeGuard

from combatkit.dice import DiceNotationError, EnteredRollError, ExactOddsError, MissingRollError

__all__ = [
    "DiceNotationError",
    "EncounterFileError",
    "EnteredRollError",
    "ExactOddsError",
    "IllegalActionError",
    "MissingRollError",
    "RulesError",
    "SpellEffectError",
    "error_words",
    "is_whole",
]


class RulesError(ValueError):
    """A value the rules do not allow; ``rule`` cites the seed section."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class IllegalActionError(RulesError):
    """A declaration the timing system forbids (two actions in a phase, CT 7 begun in phase 2...)."""


class SpellEffectError(RulesError):
    """A spell's effect (:class:`combatkit.model.SpellEffect`) with an impossible field.

    ``field`` names it (``"dice"``), so an encounter file can point at
    ``combatants[1].spells[0].effect.dice``.
    """

    def __init__(self, rule: str, field: str, message: str) -> None:
        super().__init__(rule, message)
        self.field = field


_COMBATANT: Final = re.compile(r"combatants\[(\d+)\]")
"""The head of a field path inside a combatant's table: ``combatants[1]``."""


class EncounterFileError(ValueError):
    """An encounter file or mapping with a missing, mistyped or impossible field.

    ``field`` is the path to the bad value, e.g. ``combatants[1].dex``; :attr:`combatant` reads the
    combatant's place from it.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    @property
    def combatant(self) -> int | None:
        """The place (from 0) of the combatant whose field is wrong, or None for a field outside the combatants.

        >>> EncounterFileError("combatants[1].dex", "DEX is 1..25 (PH Table 2), got 40").combatant
        1
        >>> EncounterFileError("rolls", "must be a table").combatant is None
        True
        """
        match = _COMBATANT.match(self.field)
        return int(match[1]) if match else None


def error_words(error: ValueError) -> str:
    """What a page shows for ``error``: a rule's message with its citation, a file field's path with what is
    wrong there, or any other error's own message.

    >>> error_words(RulesError("000 §2 A", "Mira is hit in phase 1, so cannot begin magic missile"))
    'Mira is hit in phase 1, so cannot begin magic missile (rule 000 §2 A)'
    >>> error_words(EncounterFileError("combatants[1].dex", "DEX is 1..25 (PH Table 2), got 40"))
    'combatants[1].dex: DEX is 1..25 (PH Table 2), got 40'
    """
    if isinstance(error, RulesError):
        return f"{error.message} (rule {error.rule})"
    return str(error)


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (``True`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)
