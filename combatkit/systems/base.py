"""The protocol every timing system follows, and the registry that finds them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from combatkit.dice import Roller, check_entered
from combatkit.errors import RulesError

if TYPE_CHECKING:
    from combatkit.encounter import Encounter
    from combatkit.timeline import Clock, Timeline

__all__ = ["SYSTEMS", "TimingSystem", "find_system", "register", "roll_words"]


class TimingSystem:
    """A seed's way of ordering a round: one subclass per system, one instance in :data:`SYSTEMS`.

    A subclass sets the class attributes below and overrides the hook :meth:`_schedule`;
    :meth:`schedule` does what every system shares: the encounter's own dice when no
    roller is given, the options' defaults, and refusing numbers entered for rolls the
    round never asks for.
    """

    id: str
    """Registry id, e.g. ``"phase1"``."""
    aliases: tuple[str, ...] = ()
    """Other names it answers to."""
    title: str
    """What a reader sees."""
    source: str
    """The seed section it implements, e.g. ``"000 §1-2"``."""
    clock: Clock
    """Its time axis."""
    options_class: type
    """The frozen dataclass of its options; its defaults are the seed's reading."""
    roll_keys: tuple[str, ...] = ()
    """What each roll it asks for is called (the key a number rolled at the table is entered
    under), with ``<side>``, ``<name>`` and the like standing for the encounter's own words."""

    def options(self, given: Any = None) -> Any:
        """``given``, or the seed's defaults when it is None; refused if it is another system's options."""
        if given is None:
            return self.options_class()
        if not isinstance(given, self.options_class):
            raise RulesError(f"{self.title} options", f"{self.title} takes {self.options_class.__name__}, "
                                                      f"got {type(given).__name__}")
        return given

    def schedule(self, encounter: Encounter, roller: Roller | None = None, options: Any = None, *,
                 check_rolls: bool = True) -> Timeline:
        """Place every declared action of one round on the clock, or raise a RulesError.

        Dice: ``roller``, or else the numbers entered in the encounter (``[rolls]``) and its
        ``seed`` (0 if it has none) for the rest. With ``check_rolls`` (the default) a number
        entered under a key the round never asks for raises UnknownRollError naming the keys
        it does ask for (a misspelled key must not be ignored); callers that share the roller
        with later steps (resolution asks for attack and damage rolls) check at their end.
        """
        if roller is None:
            roller = Roller(seed=encounter.seed if encounter.seed is not None else 0, entered=encounter.rolls)
        timeline = self._schedule(encounter, roller, self.options(options))
        if check_rolls:
            check_entered(roller.entered, (r.purpose for r in roller.log), f"{self.title}'s round", self.roll_keys,
                          roll_words(encounter))
        return timeline

    def _schedule(self, encounter: Encounter, roller: Roller, options: Any) -> Timeline:
        """The system's own scheduling: ``options`` is an instance of :attr:`options_class`."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"find_system({self.id!r})"


def roll_words(encounter: Encounter) -> dict[str, list[str]]:
    """What ``<side>``, ``<name>``, ``<target>`` and ``<tag>`` stand for in :attr:`TimingSystem.roll_keys`."""
    names = [c.name for c in encounter.combatants]
    return {"side": list(encounter.sides), "name": names, "target": names, "tag": names}


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
