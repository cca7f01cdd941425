"""Errors that name the rule that was broken and the value given.

Every error is a ``ValueError`` so a caller can catch bad input in one place; the
message is written for the person who typed the value, and ``rule`` holds the seed
citation (``"000 §1 G"``) for tools that want to link to it.
"""

from __future__ import annotations

from typing import TypeGuard

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


class EncounterFileError(ValueError):
    """An encounter file or mapping with a missing, mistyped or impossible field.

    ``field`` is the path to the bad value, e.g. ``combatants[1].dex``.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (``True`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)
