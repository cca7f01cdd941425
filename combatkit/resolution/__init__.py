"""Resolving a scheduled round: hits, damage, deaths, spells, movement, charges and flight.

A timing system says *when* (a :class:`~combatkit.timeline.Timeline`); this module plays the
round out. :func:`resolve_round` walks the timeline's spans in tick order and

* rolls every attack to hit and for damage through :mod:`combatkit.criticals` (its
  :func:`~combatkit.criticals.setup_attack` gives the number needed with every STR, magic,
  stance, maneuver and condition term; with a critical rule set the whole attack goes
  through :func:`~combatkit.criticals.resolve_attack`, 000 Tables I, 000 Severity Rules II
  or 004), with the situational modifiers of 002 (:mod:`combatkit.modifiers`);
* makes spells go off with their effects (:mod:`combatkit.effects`; one with no effect data is flagged),
  runs on the effects that last (a hold that ends, acid that burns again), or notes spells ruined;
* moves figures along the battle line of :mod:`combatkit.battle`, resolves 000 charges, set
  weapons, withdrawals and flights with their free attacks (:mod:`combatkit.movement`);
* lets figures fall when each seed says they do, and cancels what a fallen figure had
  not yet done, citing the rule.

Every happening is an :class:`Event` (time, actor, what, rule, why), and the round comes
back as a :class:`RoundResult` with the resolved timeline, so any fight can be replayed
and explained. :func:`play_round` schedules and resolves one round of an encounter.

Inside the package, :mod:`~combatkit.resolution.walk` plays the round tick by tick and hands each action
to :mod:`~combatkit.resolution.blows`, :mod:`~combatkit.resolution.spells` or
:mod:`~combatkit.resolution.moves`, which act on the round's state (clock, queue, falls, conditions, damage:
:class:`~combatkit.resolution.state.WalkState`); :class:`Event` and :class:`RoundResult` live in
:mod:`~combatkit.resolution.events`, :class:`ResolutionOptions` in :mod:`~combatkit.resolution.options`.

**When a figure falls, system by system** (each system's :attr:`~combatkit.systems.base.TimingSystem.rules`,
a :class:`~combatkit.systems.rules.SystemRules`; the resolver reads its fields and never asks which system it is):

* 000 (``phase1``, ``phase2``): everything landing on one half-segment is simultaneous;
  dying and incapacitation take effect after it (000 §1 E); a figure killed earlier loses
  its later actions ("killing an opponent on a half-segment prior to the opponent's
  attack preempts the attack"). Targets are locked at impact, so extra blows on a figure
  killed in the same half-segment are wasted (Overkill, 000 §2 C); a blow whose target
  fell on an *earlier* half-segment is retargeted at +3 SF on a foe within striking
  distance if that still lands in the phase, else it is lost (000 §2 C Retargeting).
* 001 (``five_phase``): melee damage applies at once but "a mortal stroke won't result in
  B's death until the end of the melee in the phase"; missiles and spells take full effect
  together when the phase's missiles & magic step ends. Stuns (conditions) apply at once.
* 002 (``short_form``): equal counts are simultaneous; figures fall after their count. A
  figure acts on its own count, so a blow whose target is down goes to another foe in reach.
* 003 (``segments``): "Simultaneous blows, and both hit!": figures fall after the segment;
  with ``dying_blow`` (003 §I Option) a figure killed one segment before its blow still
  strikes on a save vs. death (PH 2e Table 60).
* 004 (``strike_speed``): equal strike speeds are simultaneous; figures fall after theirs.

**Spells and the systems' own rules.** A damaging hit on a figure that is casting, or is
about to cast, is reported to the timing system as an :class:`~combatkit.encounter.Hit`, and
the round is re-scheduled with the same initiative dice: the system itself then ruins the
spell (000 §2 A, 002 III.F, 003 §IV, 001, 004), delays it on a failed CON check (000 §2 A)
or a 1-3 on d6 (003 §IV), or cancels it. What already happened stays; the new timeline is
followed from the hit on. The Segment of Action scheduler rolls its own to-hit d20s; here it
is run for timing only (``kills=False``) and told of hits this way, so the only to-hit roll is
the resolver's.

Readings this module takes (options where they are a real choice):

* Hit points at or below ``dead_at`` (default 0) kill; with the DMG 2e option ``dead_at=-10``
  a figure at 0 to -9 is unconscious. Either way it is out of the fight.
* A figure "falls" (is out of the fight) when its damage is applied at or below 0; the
  seeds' death timing then decides from when it can no longer act.
* Plain attacks (``criticals=None``) are DMG 2e: the number needed is THAC0 minus the
  PH to-hit terms minus AC; a natural 20 hits, a natural 1 misses; damage at least 1.
* 000's charge: a charger starts from a standstill and accelerates as far as it may in one
  phase (3x base MV, :func:`~combatkit.movement.max_speed_next_phase`); set weapons of
  length long or more do double damage (000: "does bonus damage", the PH's double); a
  defender that is not set answers after the blow only if the blow left it above
  ``dead_at`` (the charger's damage "perhaps killing him before he can do so").
* A flight (a move declared with ``maneuver = "flee"``) draws the free attacks of its seed
  (000 §2 D; 001 Break & Run, from the rear; 002's attacks of opportunity are placed by
  the short form itself); a withdrawal (``maneuver = "withdraw"``) draws none and goes 1/3 of
  1/3 MV. A charge is ``maneuver = "charge"``: no word in a note makes a move a charge or a flight.
  A fleeing figure that ends out of every foe's reach, with no foe faster than it, has fled
  the fight (002 Breaking Off II.B).
* A single-target spell whose target fell before it went off is released at the nearest
  other foe (a heal at the most wounded friend); an area spell goes off where aimed.
* Conditions from critical hits and misses last the phases their tables say; a "phase" is
  the system's own phase (000, 001) or a third of the round (003, 002, 004). Their SF
  penalties are reported, not re-timed; dropped items are reported, not applied.
* 002 Prone spellcasters cannot cast: a figure stunned or prone cannot cast either.
* 002's tables apply under every system (``modifiers_002``); a condition a critical hit or miss
  imposes carries its own modifiers (stunned: +4 to AC), so 002's "stunned, prone" row is not
  added on top; asleep and held figures are hit automatically (002 IV).
* Two weapons (``FigureExtras.two_weapons``): the first melee weapon at -2, the second at -4
  (002 VI); a blow declared as a pummel, grapple or overbear (``maneuver``) is 002's unarmed
  attack of that type, and a blow with unarmed weapons (length ``unarmed``) declared as none of
  them pummels for 1d2 (002 Unarmed Combat). A grapple or an overbear that hits does no damage
  (002 Unarmed Combat III.B-C): a grapple holds its victim until the round ends (-2 AC, -2 to
  hit, no movement); an overbear fells a victim that fails its save vs. petrification (+4 to be
  hit, no spellcasting), for the phase and the next (its getting up is not timed).
* 000 §2 C: a defenseless target (the critical miss table's prone and sprawling rows, or a caster
  whose spell has somatic components, from the phase it begins until it goes off) is +4 to be hit and
  loses its Dexterity bonus (:func:`~combatkit.attack.defenseless_terms`). "May be attacked each phase"
  gives no blow beyond a figure's own (any target may be attacked in any phase);
  ``defenseless_each_phase=True`` is the other reading.
* 001's morale checks (a giant's charge; a side's losses in the morale step) and rallies are rolled with OSE's
  2d6 against the morale score; a figure that fails breaks and runs and is out of the fight until rallied
  (:mod:`combatkit.resolution.morale`).
* 000: a spell with a material component uses it up (000 §2 A "components must be in-hand at the
  beginning of a casting phase"): the next one needs them readied again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from combatkit.battle import Figure, figures_from
from combatkit.dice import Roller, check_entered
from combatkit.encounter import Encounter, Hit
from combatkit.model import Declaration
from combatkit.resolution.events import Event, EventKind, RoundResult
from combatkit.resolution.options import MoraleOptions, ResolutionOptions
from combatkit.resolution.state import system_of
from combatkit.resolution.walk import Reschedule, Walk
from combatkit.systems.base import find_system, roll_words
from combatkit.systems.rules import Retarget, SystemRules
from combatkit.timeline import Timeline

__all__ = [
    "ROLL_KEYS",
    "Event",
    "EventKind",
    "MoraleOptions",
    "ResolutionOptions",
    "Retarget",
    "RoundResult",
    "SystemRules",
    "play_round",
    "resolve_round",
    "system_rules",
    "timing_options",
    "timing_roller",
]


def system_rules(system: str) -> SystemRules:
    """The rules of the system registered as ``system`` (:attr:`TimingSystem.rules
    <combatkit.systems.base.TimingSystem.rules>`); a system not registered gets tick-simultaneous rules."""
    return system_of(system).rules


# ----------------------------------------------------------------- entry points

ROLL_KEYS: Final = ("<what>: <name> [<when>]", "DEX check (stopping): <name>")
"""What the rolls of a resolved round are called, besides its timing system's
(:attr:`~combatkit.systems.base.TimingSystem.roll_keys`): ``"attack roll: Brienne [round 1, tick 9]"``,
``"damage: ..."``, ``"save vs spell: ..."``, a spell's own dice (``"magic missile: Mira [round 1, tick 5, 1]"``),
the critical tables' rolls and 001's morale checks and rallies (``"morale: Pip [round 1, tick 2]"``,
``"rally: Pip [round 1, tick 43]"``), each with the round and tick in brackets."""


def timing_roller(system: str) -> type[Roller]:
    """The Roller class to schedule ``system`` with when the round is resolved here
    (:meth:`~combatkit.systems.base.TimingSystem.timing_roller`; see the module docstring)."""
    return find_system(system).timing_roller()


def timing_options(system: str, options: object) -> object:
    """``options`` for scheduling ``system`` when the round is resolved here
    (:meth:`~combatkit.systems.base.TimingSystem.timing_options`: the Segment of Action scheduler
    times only, ``kills=False``; its dying blow is the resolver's, ``ResolutionOptions.dying_blow``)."""
    return find_system(system).timing_options(options)


def resolve_round(timeline: Timeline, figures: Sequence[Figure], declarations: Sequence[Declaration] = (), *,
                  roller: Roller, options: ResolutionOptions = ResolutionOptions(), round: int = 1,
                  encounter_round: int | None = None, system_options: object = None,
                  reschedule: Reschedule | None = None, explain: bool = True, cache: dict | None = None) -> RoundResult:
    """Play one scheduled round out.

    ``figures`` are the figures at the start of the round (their combatants are the ones the
    timeline was scheduled for); ``declarations`` what was declared (for weapons, notes and
    the like). ``reschedule(hits)`` re-times the round with the hits so far (see the module
    docstring); without it a spell is ruined only as the timeline already says.
    ``explain=False`` is the fast path: the same dice and outcomes, no events or explanations.
    """
    run = Walk(timeline, figures, declarations, roller=roller, options=options, round=round,
               encounter_round=encounter_round if encounter_round is not None else round,
               system_options=system_options, reschedule=reschedule, explain=explain,
               cache=cache if cache is not None else {})
    return run.run()


def play_round(encounter: Encounter, system: str | None = None, *, seed: int | None = None,
               roller: Roller | None = None, options: ResolutionOptions = ResolutionOptions(),
               system_options: object = None, opening_gap: int = 30) -> RoundResult:
    """Schedule one round of ``encounter`` with its timing system and play it out.

    Dice: ``roller`` (default a Roller with ``seed``, else the encounter's seed, else 0, and the
    rolls entered in the encounter); a number entered under a key no roll of the round is
    called raises UnknownRollError. Figures stand on :func:`combatkit.battle.layout`'s battle line.
    """
    found = find_system(system or encounter.system)
    if roller is None:
        seed = seed if seed is not None else encounter.seed
        roller = Roller(seed=seed if seed is not None else 0, entered=encounter.rolls)
    figures = figures_from(encounter, opening_gap)
    system_options = found.timing_options(system_options)
    timing = found.timing_roller()
    timeline = found.schedule(encounter, timing(entered=roller.entered, rng=roller.rng), system_options,
                              check_rolls=False)
    base_hits = encounter.hits
    asked = [r.purpose for r in timeline.rolls]

    def again(hits: tuple[Hit, ...]) -> Timeline:
        entered = {**{r.purpose: (r.faces if r.faces else r.total) for r in timeline.rolls}, **roller.entered}
        retimed = found.schedule(replace(encounter, hits=base_hits + hits), timing(entered=entered, rng=roller.rng),
                                 system_options, check_rolls=False)
        asked.extend(r.purpose for r in retimed.rolls)
        return retimed

    result = resolve_round(timeline, figures, encounter.declarations, roller=roller, options=options,
                           round=1, encounter_round=encounter.round, system_options=system_options, reschedule=again)
    check_entered(roller.entered, asked + [r.purpose for r in roller.log], f"{found.title}'s round, as resolved",
                  found.roll_keys + ROLL_KEYS, roll_words(encounter))
    return result
