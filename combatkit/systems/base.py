"""The protocol every timing system follows, and the registry that finds them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from combatkit.errors import RulesError

if TYPE_CHECKING:
    from combatkit.dice import Roller
    from combatkit.encounter import Encounter
    from combatkit.timeline import Clock, Timeline

__all__ = ["SYSTEMS", "TimingSystem", "find_system", "register"]


class TimingSystem(Protocol):
    """A seed's way of ordering a round."""

    id: str
    """Registry id, e.g. ``"phase1"``."""
    aliases: tuple[str, ...]
    """Other names it answers to."""
    title: str
    """What a reader sees."""
    source: str
    """The seed section it implements, e.g. ``"000 §1-2"``."""
    clock: Clock
    """Its time axis."""

    def schedule(self, encounter: Encounter, roller: Roller, options: Any = None) -> Timeline:
        """Place every declared action of one round on the clock, or raise a RulesError."""
        ...


SYSTEMS: dict[str, TimingSystem] = {}


def register(system: TimingSystem) -> TimingSystem:
    """Add ``system`` to :data:`SYSTEMS` under its id."""
    SYSTEMS[system.id] = system
    return system


def find_system(name: str) -> TimingSystem:
    """Look a system up by id or alias, case-insensitively.

    >>> find_system("Combat II Phase System I").id
    'phase1'
    """
    key = name.strip().lower()
    for system in SYSTEMS.values():
        if key == system.id or key in (a.lower() for a in system.aliases):
            return system
    known = ", ".join(sorted(SYSTEMS))
    raise RulesError("combatkit systems", f"no timing system called {name!r}; known: {known}")
