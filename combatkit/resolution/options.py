"""How rounds are resolved: :class:`ResolutionOptions`, with the :class:`MoraleOptions` of 001's morale checks.
Part of :mod:`combatkit.resolution`, which exports them; the walk of a round and every rule module read them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from combatkit.attack import CriticalOptions, RuleSet, find_rule_set
from combatkit.battle import NO_EXTRAS, FigureExtras
from combatkit.effects import SpellEffect
from combatkit.errors import RulesError, is_whole
from combatkit.systems.rules import Retarget

__all__ = ["MoraleOptions", "ResolutionOptions"]


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class MoraleOptions:
    """How 001's morale checks and rallies are rolled (:mod:`combatkit.resolution.morale`); the defaults are
    combatkit's readings."""

    default: int = 7
    """The morale score of a figure given none (OSE's typical score; 001 gives none)."""
    rally_feet: int = 120
    """How near a broken ally must be for a rally to reach it (001: "any close allies")."""
    side_losses: bool = True
    """A side that lost figures this round checks in the morale step (001 I: "All remaining morale checks")."""
    heroic_side_checks: bool = False
    """Heroic figures (4 HD or more) check for their side's losses too (default: as at a giant's charge, they don't)."""

    def __post_init__(self) -> None:
        given: object = self.default
        if not is_whole(given) or not 2 <= given <= 12:
            raise RulesError("001 I. Morale (OSE)", f"the default morale score is 2..12, got {given!r}")
        given = self.rally_feet
        if not is_whole(given) or given < 0:
            raise RulesError("001 I. Morale: Rally", f"rally_feet is a whole number of feet, 0 or more, got {given!r}")


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class ResolutionOptions:
    """How rounds are resolved; defaults are the seeds' (see :mod:`combatkit.resolution`)."""

    criticals: RuleSet | str | None = None
    """None: plain DMG 2e attacks; ``"000-I"``, ``"000-II"`` or ``"004"``: :mod:`combatkit.criticals`."""
    critical_options: CriticalOptions = CriticalOptions()
    """Readings and options of the critical rule sets."""
    dead_at: int = 0
    """Hit points at or below which a figure is dead; between this and 0 it is unconscious (DMG 2e option: -10)."""
    modifiers_002: bool = True
    """Apply 002's situational modifier tables (:mod:`combatkit.modifiers`) under every system."""
    retarget: Retarget | None = None
    """Override the system's retargeting rule (None: the seed's, :attr:`SystemRules.retarget
    <combatkit.systems.rules.SystemRules.retarget>`)."""
    dying_blow: bool = False
    """003 §I Option: a figure killed one segment before its blow strikes on a save vs. death (under a
    system whose seed offers it, :attr:`SystemRules.dying_blow <combatkit.systems.rules.SystemRules.dying_blow>`)."""
    figures: Mapping[str, FigureExtras] = field(default_factory=dict, hash=False)
    """Per figure, by name: what the shared model has no field for."""
    spell_effects: Mapping[str, SpellEffect] = field(default_factory=dict, hash=False)
    """Spell effects by spell name, added to (or replacing) ``spell_effects.toml``; a spell's own effect
    (:attr:`Spell.effect <combatkit.model.Spell.effect>`, from the encounter file) wins over both."""
    missile_ranges: Mapping[str, tuple[int, int, int]] = field(default_factory=dict, hash=False)
    """Short, medium, long range in tens of feet by weapon name, added to ``missile_ranges_ph2e.toml``."""
    defenseless_each_phase: bool = False
    """000 §2 C, the other reading of "may be attacked each phase": at the end of every phase each foe in
    reach of a defenseless figure (a critical miss's condition, or a caster invoking somatic components)
    that struck no blow that phase strikes it once. Default: the phrase gives no blow beyond a figure's
    own; any foe may aim its blows of any phase at it, as at any target."""
    morale: MoraleOptions = MoraleOptions()
    """How the morale checks and rallies of a seed with a morale step (001 I) are rolled
    (:mod:`combatkit.resolution.morale`)."""

    def __post_init__(self) -> None:
        if self.criticals is not None:
            find_rule_set(self.criticals)
        if self.dead_at > 0:
            raise RulesError("DMG 2e hit points", f"dead_at is 0 or below (e.g. -10), got {self.dead_at}")

    def extras(self, name: str) -> FigureExtras:
        return self.figures.get(name, NO_EXTRAS)
