"""What the walk of a round (:mod:`combatkit.resolution.walk`) carries: each figure as it stands
(:class:`Live`), each action waiting for its tick (:class:`Action`), and the d20."""

from __future__ import annotations

from typing import Final

from combatkit.battle import ActiveCondition, Figure, FigureExtras, FigureStatus, Lasting, is_acting, is_present
from combatkit.dice import Dice
from combatkit.model import Combatant, Declaration, Weapon
from combatkit.modifiers import Situation
from combatkit.timeline import Span, Tick

D20: Final = Dice(1, 20)
"""Attack rolls and saving throws."""


class Live:
    """One figure during the round (mutable), made from the :class:`Figure` the round begins with.

    A plain class with its own ``__init__`` (not a dataclass): in the compiled build a dataclass's generated
    ``__init__`` runs as Python, and a round makes one of these a figure (#18)."""

    def __init__(self, fig: Figure, extras: FigureExtras) -> None:
        self.fig = fig
        self.c: Combatant = fig.combatant
        """Who it is: what never changes in a fight (``fig`` is never replaced; read hundreds of times a round)."""
        self.name: str = fig.combatant.name
        self.extras = extras
        """What ``ResolutionOptions.figures`` gives it (:meth:`ResolutionOptions.extras
        <combatkit.resolution.ResolutionOptions.extras>`), read at every blow."""
        self.hp = fig.hit_points
        self.status = fig.status
        self.position = fig.position
        self.conditions: list[ActiveCondition] = list(fig.conditions)
        self.spells_used: list[str] = list(fig.spells_used)
        self.components = fig.components_ready
        self.fell = fig.fell
        self.down_at: Tick | None = None
        """Tick after which the figure no longer acts (it fell, slept, was held or fled)."""
        self.pending: tuple[Tick, FigureStatus] | None = None
        """A fall not yet in effect: (tick it takes effect, status)."""
        self.attacks_made = 0
        self.struck_phases: set[int] = set()
        # The fight's running totals, counted on from the figure's (plain attributes, not a dict of them: a blow
        # adds to two or three, #18).
        self.attacks = fig.attacks
        self.hits = fig.hits
        self.damage_dealt = fig.damage_dealt
        self.damage_taken = fig.damage_taken
        self.spells_attempted = fig.spells_attempted
        self.spells_succeeded = fig.spells_succeeded
        self.dying_save: bool | None = None
        self.lasting: list[Lasting] = list(fig.lasting)
        """Spells' effects still running on it (:attr:`Figure.lasting <combatkit.battle.Figure.lasting>`)."""
        self.no_effect: list[str] = list(fig.no_effect_data)
        """Spells it cast that had no effect data, one name a casting (this fight's, so far)."""

    def acts_at(self, t: Tick) -> bool:
        return is_acting(self.status) or (self.down_at is not None and t <= self.down_at)

    def present_at(self, t: Tick) -> bool:
        """Still there to be struck or affected at t: present, or fallen no earlier than t."""
        if is_present(self.status):
            return True
        return self.down_at is not None and t <= self.down_at

    def figure(self, holding: str | None) -> Figure:
        """The figure as the round leaves it, ``holding`` the spell it holds into the next round (if any)."""
        return Figure(  # every field given: a new Figure is quicker made than replaced (#18)
            combatant=self.fig.combatant, holding=holding, hit_points=self.hp, position=self.position,
            status=self.status, spells_used=tuple(self.spells_used), components_ready=self.components,
            conditions=tuple(self.conditions), fell=self.fell, attacks=self.attacks, hits=self.hits,
            damage_dealt=self.damage_dealt, damage_taken=self.damage_taken, spells_attempted=self.spells_attempted,
            spells_succeeded=self.spells_succeeded, lasting=tuple(self.lasting), no_effect_data=tuple(self.no_effect),
        )


class Action:
    """A span (or an injected blow) waiting for its tick (a plain class, as :class:`Live` is)."""

    def __init__(self, tick: Tick, span: Span, declaration: Declaration | None, injected: str = "",
                 weapons: tuple[Weapon, ...] = (), target: str | None = None, situation: Situation | None = None,
                 damage_multiplier: int = 1) -> None:
        self.tick = tick
        self.span = span
        self.declaration = declaration
        self.injected = injected
        """Why an action not on the timeline happens: a retarget, a charge's answer, an extra attack."""
        self.weapons = weapons
        self.target = target
        self.situation = situation
        self.damage_multiplier = damage_multiplier
