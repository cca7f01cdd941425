"""What a timing system's seed says about playing a round out, as data: :class:`SystemRules`.

A timing system says *when* each action happens; :mod:`combatkit.resolution` plays the round
out, and the seeds differ on more than timing: when a figure hit to 0 goes down, what becomes
of a blow at a fallen target, what a charge or a flight is, what surprise costs. Each system
gives its readings as one :class:`SystemRules` (:attr:`TimingSystem.rules
<combatkit.systems.base.TimingSystem.rules>`), every field a rule with its citation; the
resolver, the fight and the default policy read the fields and never ask which system it is.
A new system that sets none of them gets :data:`GENERIC_RULES`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = ["AFTER_THE_COUNTS", "BEFORE_THE_COUNTS", "GENERIC_RULES", "NO_TERMS", "BlowTerms", "ChargeRule", "Flight",
           "Retarget", "SystemRules", "full_move"]


class Retarget(enum.Enum):
    """What becomes of a blow whose target fell before it landed."""

    COMBAT_II = "+3 SF, within the phase"
    """000 §2 C Retargeting: a new target within striking distance at +3 SF, or lost
    (:meth:`~combatkit.systems.base.TimingSystem.retarget_tick` says when it lands)."""
    FREE = "another foe in reach"
    """002 III.B: the figure acts on its own count and strikes another foe in reach."""
    LOST = "lost"
    """The blow is lost."""


class ChargeRule(enum.Enum):
    """What the resolver makes of a move declared as a charge (``maneuver = "charge"``)."""

    TIMED = "the timing system's own"
    """The timing system places and prices a charge itself (001's Charge, 004): the resolver moves the figure."""
    COMBAT_II = "000 §2 D Charging"
    """The resolver plays the charge: from a standstill the charger accelerates as far as one phase
    allows, strikes and overruns; a weapon set against it answers with the blow, a defender that is
    not set may counterattack after it; a charge is announced with its target."""
    SITUATIONAL = "002 Charging"
    """A charging figure takes 002's charging modifiers to hit and to AC, and so does its target; a
    weapon set (readied) against a charging foe does double damage."""


class Flight(enum.Enum):
    """Whose free attacks a figure fleeing melee draws (a withdrawal draws none)."""

    COMBAT_II = "000 §2 D Withdrawing / Fleeing"
    """From the front, by each engaged opponent the rule allows (:func:`~combatkit.movement.flight_free_attack`)."""
    BREAK_AND_RUN = "001 Movement: Break & Run"
    """From the rear, by every engaged foe able to attack."""


def full_move(mv: int) -> int:
    """Feet a move covers when no distance is given: the figure's full MV (10' a point) a round.

    >>> full_move(12)
    120
    """
    return mv * 10


@dataclass(frozen=True)
class BlowTerms:
    """What a system's own seed puts on one blow (:meth:`~combatkit.systems.base.TimingSystem.blow_terms`)."""

    hit: tuple[tuple[str, int, str], ...] = ()
    """To-hit terms: (label, value, rule)."""
    damage: int = 0
    """Added to the damage of a hit."""
    multiplier: int = 1
    """Damage multiplier."""
    half_die: bool = False
    """An extra half die of damage (001 Set to Receive Charge)."""


NO_TERMS: Final = BlowTerms()
"""A blow the system's seed adds nothing to."""


BEFORE_THE_COUNTS: Final = 99
"""A hit reported as counts (:attr:`SystemRules.hits_as_counts`) that landed before the round's first count: above
every count a round has."""
AFTER_THE_COUNTS: Final = -99
"""One that landed after its last: below every count."""


@dataclass(frozen=True)
class SystemRules:
    """What a timing system's seed says about the moment-to-moment of a fight; each field is a
    rule, cited. The defaults are :data:`GENERIC_RULES`' readings, where the seed is silent."""

    seed: str
    """The seed: ``"000"``, ``"001"``... (for ordering and display; no rule depends on it)."""
    falls: str
    """When a figure hit to 0 goes down, cited."""
    preempts: str
    """The rule that cancels a fallen figure's later actions."""
    retarget: Retarget
    """What a blow at a fallen target does."""
    retarget_rule: str
    """Its citation."""
    phases: int
    """Phases a round is counted in, for conditions' durations."""
    falls_at_step_end: bool = False
    """001: a mortal stroke takes effect at the end of the step (melee, or missiles & magic)."""
    moves_first: bool = True
    """Within one tick, movement before blows (False for 000: movement after attacks, 000 §1 F)."""
    flight: Flight | None = None
    """Whose free attacks a fleeing figure draws; None: none (or the system places them itself, 002)."""
    flee_rule: str | None = None
    """The rule a flight or withdrawal is cited under; None: the one the system placed the move by."""
    hits_as_counts: bool = False
    """The system reads :class:`~combatkit.encounter.Hit` ticks as the count (strike speed) in its period label: a hit
    in no counted period as :data:`BEFORE_THE_COUNTS` or :data:`AFTER_THE_COUNTS`."""
    charge: ChargeRule = ChargeRule.TIMED
    """What a declared charge is."""
    reach_rule: str = "002 III.G: melee range is 5' (1 square)"
    """The rule a melee blow from beyond striking distance breaks."""
    move_allowance: Callable[[int], int] = full_move
    """Feet a move with no distance given covers, from MV (000: one phase's walk, 1/3 MV,
    :func:`~combatkit.movement.phase_allowance`)."""
    withdraw_allowance: Callable[[int], int] | None = None
    """Feet a withdrawal covers, from MV (000 §2 D: 1/3 of 1/3 MV, :func:`~combatkit.movement.withdraw_allowance`);
    None: as far as the move goes."""
    components_in_hand: bool = False
    """000 §2 A: material components must be in hand at the beginning of a casting phase: a spell
    with a material component uses them up, and a caster without them readies them first."""
    dying_blow: str | None = None
    """The seed's option that a figure killed one segment before its blow still strikes on a save
    vs. death, cited (003 §I Option; played when ``ResolutionOptions.dying_blow`` is set); None: no such rule."""
    hits_delay_shots: bool = False
    """003 §III: a hit on an archer delays its next shot (the system re-times the round after the hit)."""
    max_missiles: int | None = None
    """Most missiles a round the system times (003 §III: one, two or three); the default policy does
    not shoot a weapon with more. None: no limit."""
    own_surprise: str | None = None
    """The seed's own surprise roll, cited (002 I: a d12 a side; 003 §VI: a d6 a figure): a fight does
    not roll the PH 2e surprise (``SurpriseOptions.standard_roll``) for it. None: the seed prints none."""
    surprised_sits_out: str | None = None
    """A figure surprised in round 1 declares nothing that round, cited (001 A; 004 is silent, so B/X's
    surprise round). None: the system's own rule says what surprise costs (000 §2 F: a phase)."""
    durations_from_next_round: str | None = None
    """A spell's duration is counted from the round after the one it goes off in, cited (001 Magic: "the first
    round after a spell is cast counts as the first round"): the rest of its own round comes free. None: the
    round it goes off in is its first."""
    durations_in_phases: str | None = None
    """A spell's duration ends at the end of the phase it went off in, so many rounds of :attr:`phases` phases later,
    cited (000 §3 B: "if a spell cast in phase B lasts one round, it expires at the end of the next phase B"): a
    figure it holds or puts to sleep is back in the fight from the next phase on. None: it ends with a round."""
    morale_step: str | None = None
    """The label of the clock period in which the seed rolls its remaining morale checks (001 I. Morale & Record
    Keeping: ``"morale: checks"``): there the resolver rolls a check for each figure of a side that lost figures this
    round (:mod:`combatkit.resolution.morale`). None: the seed has no morale step."""
    rally: str | None = None
    """A figure may declare a Rally (the named action ``"rally"``) for the round's morale step besides its other
    actions, cited (001 I. Morale & Record Keeping: "Rally: Attempt to rally any close allies"): the default policy
    has a figure with a broken ally near declare one (:mod:`combatkit.policy`, point 7). None: the seed has no rally."""


GENERIC_RULES: Final = SystemRules("?", "figures fall after the moment they are hit", "a fallen figure does not act",
                            Retarget.LOST, "a blow at a fallen figure is lost", 3)
"""The rules of a system that gives none: figures fall after the tick they are hit, a blow at a
fallen figure is lost, a round is counted in three phases."""
