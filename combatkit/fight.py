"""Whole fights: each round declared, scheduled by a timing system and resolved, to the end.

:func:`run_fight` plays an encounter round after round until one side is left standing,
the other having fallen or fled, or until a round limit:

1. Figures stand on a battle line (:func:`combatkit.battle.layout`).
2. Each round, every figure still on the field is handed to the timing system with its
   current hit points and its unused spells. In round 1 the encounter's own intents are
   played (``FightOptions.declarations``), under every system: each places them in its own
   terms, with its own refinements (:meth:`~combatkit.systems.base.TimingSystem.plan`); an
   intent a system leaves for next round (a spell too long to begin) is that figure's first
   intent in round 2. :mod:`combatkit.policy` says what everyone else means to do (and
   everyone, in every later round), and the same planner places it.
3. The system schedules the round (:meth:`~combatkit.systems.base.TimingSystem.schedule`),
   :func:`combatkit.resolution.resolve_round` plays it out, and the figures carry their
   hit points, positions, spells used and conditions into the next round; the system carries
   what its own timing runs on with (:attr:`~combatkit.timeline.Timeline.carry`: Phase System
   II's attack sequences, delays and spells under way, 000 §3).

Same seed, same fight: one seed gives every die of the fight (initiative and other timing
dice from one stream, attacks, damage and saves from another). The numbers a referee entered
in the encounter (``Encounter.rolls``) are used when the fight is run under the system the
encounter was written for (they are that system's dice): a timing key with no round in round 1,
``<key> [round <r>]`` in round r (:func:`round_rolls`), and a resolved roll under its tick key or
its count in the round (``attack roll: Kell [round 1, #2]``,
:meth:`~combatkit.dice.Roller.by_count`). The hits it reports (``Encounter.hits``) are not used:
in a resolved fight the dice decide who is hit.

**Surprise**, per system (:class:`SurpriseOptions`):

* 000 (``phase1``, ``phase2``): a surprised figure "loses one full phase" (000 §2 F); foes
  closing on it strike at the end of their move. 000 says what surprise costs, not how it is
  found: the encounter's ``surprised`` flags (the DM's call), or with
  ``standard_roll=True`` the PH 2e roll (d10 a side, 1-3 surprised).
* 002 (``short_form``): the short form rolls its own d12 with the Surprise Modifiers in round
  1 when no figure is flagged (002 I), unless ``check=False``.
* 003 (``segments``): "d6 per character" (003 §VI): every figure rolls in round 1 when none
  is flagged, unless ``check=False``; a flagged figure loses a d2 of segments.
* 001 and 004 print no surprise roll: flags (or ``standard_roll``); a surprised figure makes
  no declarations in round 1 (001 A; 004 is silent, so B/X's surprise round is used).

Each system says which of these it is through its rules (:class:`~combatkit.systems.rules.SystemRules`:
``own_surprise``, a seed that rolls its own; ``surprised_sits_out``, a surprised figure that sits
round 1 out) and makes its own roll in :meth:`~combatkit.systems.base.TimingSystem.round_options`.

**Declarations the system refuses.** A declaration placed from the encounter's intents is the
DM's and a refusal is raised. A policy declaration a system refuses (a corner the policy does not
foresee) is dropped, the figure does nothing that round, and a ``refused`` event names the rule.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Roll, Roller, check_entered, count_keys
from combatkit.effects import EffectKind, spell_effect
from combatkit.encounter import Encounter, Hit
from combatkit.errors import RulesError, is_whole
from combatkit.model import Combatant, Declaration
from combatkit.kinds import PlacementKind
from combatkit.made import made
from combatkit.intent import Intent, Plan
from combatkit.policy import PolicyOptions, intents
from combatkit.battle import Figure, FigureStatus, figures_from, is_acting, is_present
from combatkit.resolution import (
    ROLL_KEYS,
    Event,
    EventKind,
    ResolutionOptions,
    RoundResult,
    resolve_round,
)
from combatkit.resolution.morale import is_broken
from combatkit.systems._memo import remembering, stands_for, table
from combatkit.systems.base import FightRound, annotate, find_system, in_phase_order, roll_words, with_intents
from combatkit.timeline import Timeline

__all__ = ["STALEMATE", "End", "Fight", "FightOptions", "FightRun", "RoundDie", "SurpriseOptions", "in_round", "round_rolls", "run_fight"]

STALEMATE: Final = 3
"""Rounds in a row with nobody hurt that make an undecided fight a stalemate (:attr:`Fight.undecided_why`)."""


_STATUS_TEXT: Final = {status: status.value for status in FigureStatus}
"""Each status as its figure row gives it, read once: an enumeration's ``value`` is a Python property (#18)."""


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class SurpriseOptions:
    """How surprise is found in round 1 (module docstring)."""

    check: bool = True
    """Roll where the system's seed gives a roll: 002's d12 (short form), 003's d6 a figure (segments)."""
    standard_roll: bool = False
    """000, 001, 004 (whose seeds give no roll): the PH 2e roll, d10 a side, 1-3 surprised."""


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class FightOptions:
    """How a fight is run; defaults are the ones the module docstrings explain."""

    max_rounds: int = 10
    """Stop after this many rounds (the fight is then undecided)."""
    opening_gap: int = 30
    """Feet between the sides at the start, for figures the encounter gives no distance for."""
    declarations: bool = True
    """Play the encounter's own intents in round 1, under every system (False: the policy decides for everyone)."""
    policy: PolicyOptions = PolicyOptions()
    """The default declaration policy."""
    resolution: ResolutionOptions = ResolutionOptions()
    """How rounds are resolved."""
    surprise: SurpriseOptions = SurpriseOptions()
    """How surprise is found."""

    def __post_init__(self) -> None:
        given: object = self.max_rounds  # whatever was given: a native int field would not say which it was
        if not is_whole(given) or given < 1:
            raise RulesError("combatkit fights", f"max_rounds is a whole number, 1 or more, got {given!r}")
        given = self.opening_gap
        if not is_whole(given) or given < 0:
            raise RulesError("combatkit fights", f"opening_gap is a whole number of feet, 0 or more, got {given!r}")
        given = self.declarations
        if not isinstance(given, bool):
            raise RulesError("combatkit fights", f"declarations is true or false, got {given!r}")
        for name, kind in (("policy", PolicyOptions), ("resolution", ResolutionOptions),
                           ("surprise", SurpriseOptions)):
            given = getattr(self, name)
            if not isinstance(given, kind):
                raise RulesError("combatkit fights", f"{name} is a {kind.__name__}, got {given!r}")


@dataclass(frozen=True)
class RoundDie:
    """One roll a round of a fight made, as the table enters it (:attr:`FightRun.dice`)."""

    key: str
    """What a number for it is entered under (:meth:`FightRun.play_round`'s ``rolls``): ``initiative: party``,
    ``attack roll: Kell [round 2, #1]``."""
    purpose: str
    """What the roll was for, as the round called it (``attack roll: Kell [round 2, tick 9]``)."""
    dice: str
    """The dice, in standard notation."""
    value: int | tuple[int, ...]
    """The total, or each die's face where the round reads the faces."""
    typed: bool
    """A number entered at the table (else rolled from the seed)."""
    timing: bool
    """A timing system's roll (surprise, initiative...), made as the round is placed; else one the round's
    resolution made (attack, damage, save, morale...)."""


class End(enum.Enum):
    """Why a fight ended."""

    SIDE_DOWN = "a side down"
    FLED = "fled"
    NO_ONE_LEFT = "no one left"
    ROUND_LIMIT = "round limit"


@dataclass(frozen=True)
class Fight:
    """A fight played out."""

    title: str
    """The encounter's title."""
    system: str
    """The timing system's id."""
    seed: int
    """The seed every die came from."""
    figures: tuple[Figure, ...]
    """Every figure at the end."""
    winner: str | None
    """The side left standing; None if no one, or at the round limit."""
    end: End
    """Why it ended."""
    round_count: int
    """Rounds played."""
    rounds: tuple[RoundResult, ...] = field(default=(), repr=False)
    """Each round as played (empty on the fast path)."""
    refused: int = 0
    """Policy declarations the system refused (see the module docstring)."""
    quiet_rounds: int = 0
    """Rounds at the end of the fight in which nobody's hit points changed."""

    @property
    def undecided_why(self) -> str:
        """Why a fight nobody won ended so, in a few words (``""`` when a side won): no one left standing; a
        stalemate (nobody hurt anybody in its last :data:`STALEMATE` rounds: out of reach, no way to hurt); or
        still fighting at the round limit."""
        if self.winner is not None:
            return ""
        if self.end is End.NO_ONE_LEFT:
            return "no one left standing"
        if self.quiet_rounds >= STALEMATE:
            return f"stalemate: nobody hurt anybody in the last {self.quiet_rounds} rounds"
        return "still fighting at the round limit"

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for r in self.rounds for e in r.events)

    def figure(self, name: str) -> Figure:
        return next(f for f in self.figures if f.name == name)

    def why(self) -> list[str]:
        """Every round's notes and events, in order, then the outcome."""
        lines: list[str] = []
        for r in self.rounds:
            lines.append(f"--- round {r.round} ({r.system}) ---")
            lines.extend(r.why())
        who = f"side {self.winner!r} wins" if self.winner else "no winner"
        lines.append(f"After {self.round_count} round(s): {who} ({self.end.value}).")
        return lines

    def row(self) -> dict[str, object]:
        """The fight as one plain row: who won, why it ended (``undecided``: why nobody won, :attr:`undecided_why`),
        how many rounds, who fell (``fallen``:
        the figures out of the fight at the end, dead, unconscious, asleep, held or fled), spells
        attempted and succeeded, declarations refused."""
        fell = sorted(f.name for f in self.figures if f.status is not FigureStatus.ACTIVE)
        return {
            "system": self.system, "seed": self.seed, "winner": self.winner, "end": self.end.value,
            "undecided": self.undecided_why,
            "rounds": self.round_count, "fallen": ";".join(fell), "refused": self.refused,
            "spells_attempted": sum(f.spells_attempted for f in self.figures),
            "spells_succeeded": sum(f.spells_succeeded for f in self.figures),
        }

    def figure_rows(self) -> list[dict[str, object]]:
        """One plain row per figure: how it ended and what it did."""
        return [{
            "system": self.system, "seed": self.seed, "figure": f.name, "side": f.side,
            "status": _STATUS_TEXT[f.status],
            "fell": f.status is not FigureStatus.ACTIVE, "fell_round": f.fell[0] if f.fell else None,
            "hit_points": f.hit_points, "max_hit_points": f.max_hit_points, "attacks": f.attacks, "hits": f.hits,
            "damage_dealt": f.damage_dealt, "damage_taken": f.damage_taken,
            "spells_attempted": f.spells_attempted, "spells_succeeded": f.spells_succeeded,
        } for f in self.figures]


def _as_now(f: Figure, surprised: bool, cache: dict) -> Combatant:
    """The figure's combatant as the timing system should see it this round: its hit points now,
    its unused spells, its components, whether it is surprised (built once per state, from the checked one:
    :func:`~combatkit.made.made`)."""
    key = ("now", f.name, max(0, f.hit_points), surprised, f.spells_used, f.components_ready)
    found = cache.get(key)  # one look-up, not a test and a read (#18)
    if found is None:
        planned = _as_planned(f, surprised, cache)
        found = cache[key] = made(Combatant, {"hit_points": max(0, f.hit_points)}, like=planned)
    return found


def _as_planned(f: Figure, surprised: bool, cache: dict) -> Combatant:
    """The figure's combatant as a system's planner sees it (:meth:`~combatkit.systems.base.TimingSystem.plan`):
    :func:`_as_now` without its wounds. Where a figure stands, what it has left and whether it is surprised
    decide where its intents go; its hit points do not (a plan places what the figure means to do; the policy
    has decided that from its wounds already), so a plan is the same for every wound it could carry and one
    worked out is looked up again (:func:`_plan`). Built once per state."""
    key = ("planned", f.name, surprised, f.spells_used, f.components_ready)
    found = cache.get(key)
    if found is None:
        found = cache[key] = made(Combatant, {
            "surprised": surprised, "spells": tuple(s for s in f.combatant.spells if s.name not in f.spells_used),
            "components_ready": f.components_ready}, like=f.combatant)
    return found


def _start(encounter: Encounter, opening_gap: int, cache: dict) -> tuple[Figure, ...]:
    """The figures as a fight starts (:func:`~combatkit.battle.figures_from`), laid out once for the fights that
    share ``cache`` (kept with the combatants and distances they were laid out from)."""
    found = cache.get(("start", opening_gap))
    if found is None or found[0] is not encounter.combatants or found[1] is not encounter.distances:
        found = cache[("start", opening_gap)] = (encounter.combatants, encounter.distances,
                                                  figures_from(encounter, opening_gap))
    return found[2]


def _in_cycle(encounter: Encounter, number: int, cache: dict) -> int:
    """Round ``number`` as the policy and the plan read it, for their keys (:func:`_policy`, :func:`_plan`): its place
    in the cycle of the figures' attack counts. Both read a round's number only for each figure's attacks in it
    (000 §2 C: 3/2 attacks a round give 1 in odd rounds and 2 in even ones; a missile's rate of fire), which repeat
    every :attr:`~combatkit.model.Combatant.attack_cycle` rounds, so rounds a cycle apart look the same to them
    (the checks' memo does the same: :func:`~combatkit.systems.base.checked_once`). Where a figure has a round with
    no attack (1/2 a round), the plan names that round in its words, and the number itself is kept. Worked out
    once for the fights that share ``cache``."""
    found = cache.get("round cycle")
    if found is None:
        cycle = encounter.attack_cycle
        idle = any(c.attacks_in_round(r, w) <= 0 for c in encounter.combatants for w in (None, *c.weapons)
                   for r in range(1, cycle + 1))
        found = cache["round cycle"] = (cycle, idle)
    cycle, idle = found
    return number if idle else number % cycle


def _plan(found, distances: tuple[tuple[str, str, int], ...], seen: tuple[Combatant, ...], intents: tuple[Intent, ...],
          refinements: tuple, options: object, carry: Mapping[str, object], in_cycle: int, cache: dict,
          planned: Callable[[], Encounter]) -> Plan:
    """The system's plan of the round ``planned()`` makes, its figures as the planner sees them (``seen``,
    :func:`_as_planned`), worked out once for each round that looks the same to it: the same figures in
    the same states, distances, intents, refinements, place in the cycle of attack counts (``in_cycle``,
    :func:`_in_cycle`), options and what the last round left them. A run's fights meet the same rounds again and
    again (400 four-vs-four fights: two rounds in three under Phase System II, nine in ten under Phase System I;
    #18), and a plan is a function of these alone; the round's encounter is made only to work one out."""
    plans = table(cache, "plans")
    key: tuple | None = None
    try:
        key = (found.id, tuple(map(id, seen)), stands_for(distances, cache=cache),
               stands_for(intents, items=True, cache=cache), refinements, in_cycle, stands_for(options, cache=cache),
               tuple(carry.items()))
        plan = plans.get(key)
    except TypeError:  # an option or a carry that cannot be a key (a seventh system's): worked out each time
        key, plan = None, None
    if plan is None:
        plan = found.plan(planned(), options, carry)
        if key is not None:
            plans[key] = plan
    return plan


def _distances(names: tuple[str, ...], at: list[int], cache: dict) -> tuple[tuple[str, str, int], ...]:
    """Each pair of the round's figures and the feet between them (:attr:`~combatkit.encounter.Encounter.distances`),
    made once for each layout a run meets: the keys of its memo find the very tuple again by identity
    (:func:`~combatkit.systems._memo.stands_for`, :func:`~combatkit.systems._memo.by_pair`) instead of hashing its
    pairs, three times a round (#18)."""
    layouts = table(cache, "layouts")
    key = (names, tuple(at))
    found = layouts.get(key)
    if found is None:
        found = layouts[key] = tuple([(names[i], names[j], abs(at[i] - at[j]))
                                      for i in range(len(names)) for j in range(i + 1, len(names))])
    return found


def _round_declarations(plan: Plan, mine: frozenset[str], cache: dict
                        ) -> tuple[tuple[Declaration, ...], tuple[Declaration, ...]]:
    """The declarations of the plan's figures that have intents of their own (``mine``: the user's), and all of the
    plan's in phase order (what the system schedules), made once for each plan a run meets again: the keys of its
    memo then find the very tuple by identity (:func:`~combatkit.systems._memo.stands_for`, #18)."""
    kept = table(cache, "round declarations")
    key = (id(plan), mine)
    found = kept.get(key)
    if found is None or found[0] is not plan:  # kept with the plan, so that its id is never another's
        user = tuple([d for p in plan.placements if p.actor in mine for d in p.declarations])
        others = tuple([d for p in plan.placements if p.actor not in mine for d in p.declarations])
        found = kept[key] = (plan, user, in_phase_order(user + others))
    return found[1], found[2]


def _policy(present: list[Figure], found, number: int, in_cycle: int, surprised: frozenset[str],
            options: FightOptions, skip: frozenset[str], cache: dict) -> tuple[Intent, ...]:
    """The default policy's intents for the round ``number`` (:func:`combatkit.policy.intents`), worked out once
    for each round that looks the same to the policy: at the same place in the cycle of attack counts
    (``in_cycle``, :func:`_in_cycle`), with its figures as the key below holds them. It reads each figure's state
    there; its hit points only to flee (``PolicyOptions.flee_below``: whether it is at or below that fraction) and
    to heal (the most wounded friend at half its hit points or less), so the key holds whether each figure would
    flee, and the hit points of those at half or less on a side with a healing spell left; of a frightened figure's
    spells' effects only whether one is a fear (a figure frightened without one broke in a morale check: its allies
    rally it, point 7), so the key holds whether it is broken; everything else it
    reads of a figure (its weapons, spells, size, level, maximum hit points) is the same all run. Kept in the
    run's cache beside the plans (:mod:`combatkit.systems._memo`)."""
    flee = options.policy.flee_below
    heal = {f.side for f in present if _heals(f, options, cache) and is_acting(f.status)}
    key = ("policy", found.id, in_cycle, surprised, skip, stands_for(options.policy, cache=cache),
           stands_for(options.resolution, cache=cache),
           tuple((f.name, f.status, f.holding, f.position, f.spells_used, f.components_ready,
                  tuple(a.condition.id for a in f.conditions) if f.conditions else (),
                  flee is not None and f.hit_points <= flee * f.max_hit_points,
                  f.hit_points if f.side in heal and 2 * f.hit_points <= f.max_hit_points else None,
                  is_broken(f.status, f.lasting))
                 for f in present))
    policies = table(cache, "policies")
    found_intents = policies.get(key)
    if found_intents is None:
        found_intents = intents(present, system=found, round=number, surprised=surprised, options=options.policy,
                                resolution=options.resolution, skip=skip)
        policies[key] = found_intents
    return found_intents


def _heals(f: Figure, options: FightOptions, cache: dict) -> bool:
    """Whether ``f`` has a healing spell left (:func:`_policy`: its side's hit points then steer the policy)."""
    if not f.combatant.spells:
        return False
    key = ("heals", f.name, f.spells_used)
    if key not in cache:
        effects = [spell_effect(s, options.resolution.spell_effects) for s in f.combatant.spells
                   if s.name not in f.spells_used]
        cache[key] = any(e is not None and e.kind is EffectKind.HEAL for e in effects)
    return cache[key]


def _over(figures: list[Figure]) -> bool:
    return len({f.side for f in figures if is_acting(f.status)}) <= 1


def run_fight(encounter: Encounter, system: str | None = None, *, seed: int | None = None,
              options: FightOptions = FightOptions(), system_options: object = None,
              explain: bool = True, cache: dict | None = None) -> Fight:
    """Play ``encounter`` out under ``system`` (default the encounter's) from ``seed`` (default
    the encounter's, else 0). ``explain=False`` is the fast path: the same fight, without
    events, explanations or per-round records.

    ``cache`` holds what is worked out once and then looked up (a figure's combatant in a given state, an
    attack's number needed, a round's policy and plan, a round a system placed once its dice were rolled:
    :mod:`combatkit.systems._memo`), each keyed on the figures' names and states it depends on. Default: a new
    one for this fight. Fights of the same encounter under the same system and options may share one (as
    :func:`~combatkit.simulation.simulate` does: one a run in its own process, one a run and thread in each
    worker): the same fights, each value worked out once for all of them.

    The rounds are played by a :class:`FightRun`, one at a time, as the table plays them (:mod:`combatkit.table`).

    >>> from combatkit import load_example
    >>> fight = run_fight(load_example("orc-closes-on-longbowman"), seed=4)
    >>> fight.winner, fight.round_count, fight.end.value
    ('archers', 1, 'a side down')
    """
    run = FightRun(encounter, system, seed=seed, options=options, system_options=system_options, explain=explain,
                   cache=cache)
    with remembering(run.cache, explain):  # the rounds a system placed, looked up again (combatkit.systems._memo)
        while run.played < options.max_rounds and not run.over:
            run.step()
    return run.fight()


class FightRun:
    """A fight under way: the figures as the last round left them, and what the next round starts from. Each
    :meth:`play_round` plays one round with the rules of the module docstring; :func:`run_fight` plays them to the
    end, and the table (:mod:`combatkit.table`) one at a time, with the intents and the dice the DM gives.

    ``entered``: the numbers typed for the fight's rolls (default: the encounter's own, when it is played under
    the system it was written for); :meth:`play_round` takes each round's too.
    """

    def __init__(self, encounter: Encounter, system: str | None = None, *, seed: int | None = None,
                 options: FightOptions = FightOptions(), system_options: object = None, explain: bool = True,
                 cache: dict | None = None, entered: Mapping[str, int | tuple[int, ...]] | None = None) -> None:
        if seed is not None and not is_whole(seed):
            raise RulesError("combatkit fights", f"seed is a whole number (None: the encounter's), got {seed!r}")
        self.found = found = find_system(system or encounter.system)
        self.encounter = encounter = with_intents(encounter)
        self.seed = seed if seed is not None else (encounter.seed if encounter.seed is not None else 0)
        self.options, self.explain = options, explain
        own = _own_system(encounter) == found.id
        self.table_rolls: dict[str, int | tuple[int, ...]] = (
            dict(entered) if entered is not None else dict(encounter.rolls) if own else {})
        self.master = random.Random(self.seed)
        self.resolve_roller = Roller(rng=random.Random(self.master.getrandbits(64)), entered=self.table_rolls)
        self.cache = cache if cache is not None else {}
        self.figures = list(_start(encounter, options.opening_gap, self.cache))
        self.flagged = any(c.surprised for c in encounter.combatants)
        self.surprised = frozenset(c.name for c in encounter.combatants if c.surprised)
        self.rounds: list[RoundResult] = []
        self.refused = 0
        self.carried: dict[str, list[Intent]] = {}
        self.carry: Mapping[str, object] = {}
        self.held_over: object = None  # the last round's Timeline.carry: 000 §3's phases run on
        self.quiet = 0
        self.played = 0
        self.dice: tuple[RoundDie, ...] = ()
        """Every roll of the last round played, in the order made: its timing rolls, then its resolution's."""
        with remembering(self.cache, explain):
            # The system's options timed only, worked out once a fight (once a run: derived_options), not each round
            # (003's are built and their dice checked each time); each round's own (round_options) start from them.
            self.timed = found.timing_options(system_options)

    @property
    def over(self) -> bool:
        """Whether one side or none is left acting."""
        return _over(self.figures)

    def present(self) -> list[Figure]:
        """The figures still on the field."""
        return [f for f in self.figures if is_present(f.status)]

    def next_intents(self) -> tuple[Intent, ...]:
        """What the figures on the field mean to do in the next round, if nobody says otherwise: the encounter's
        intents in round 1 (when played), else what the system left over from the round before, then the default
        policy's for everyone else (the intents :meth:`play_round` plays when given none)."""
        with remembering(self.cache, self.explain):
            r = self.played + 1
            present = self.present()
            names = tuple(f.name for f in present)
            planned = _round_intents(self.encounter, names, r == 1 and self.options.declarations, self.carried)
            mine = frozenset(i.actor for i in planned)
            round_surprised = self.surprised if r == 1 else frozenset()
            number = self.encounter.round + r - 1
            return planned + _policy(present, self.found, number, _in_cycle(self.encounter, number, self.cache),
                                     round_surprised, self.options, mine, self.cache)

    def play_round(self, intents: tuple[Intent, ...] | None = None,
                   rolls: Mapping[str, int | tuple[int, ...]] | None = None, *,
                   accept: Callable[[tuple[RoundDie, ...]], None] | None = None,
                   trial: bool = False) -> RoundResult | None:
        """Play the next round and carry its figures forward; the round played (None on the fast path).

        ``intents``: what the figures they name mean to do this round, in place of the encounter's (round 1) or
        what the last round left over; the policy decides for the others. ``rolls``: numbers entered for this
        round, keyed as a fight's are (:func:`round_rolls`: a timing roll by its key, ``initiative: party``; a
        resolved one by its count, ``attack roll: Kell [round 2, #1]``). A round that cannot be played (a number
        its dice cannot roll, a roll it needs that nobody entered and no seed rolls) raises and leaves the fight
        as it was; so does one that ``accept``, shown the round's dice (:attr:`dice`), refuses by raising.
        ``trial``: the round is played, then the fight is left as it was (its :attr:`dice` read first)."""
        mark = self._mark()
        try:
            with remembering(self.cache, self.explain):
                result = self.step(intents, rolls or {})
            if accept is not None:
                accept(self.dice)
        except BaseException:
            self._restore(mark)
            raise
        if trial:
            self._restore(mark)
        return result

    def fight(self) -> Fight:
        """The fight as it stands: its winner, if one side is left, else why not."""
        figures = self.figures
        standing = sorted({f.side for f in figures if is_acting(f.status)})
        if len(standing) == 1 and _over(figures):
            winner: str | None = standing[0]
            losers = [f for f in figures if f.side != winner]
            end = End.FLED if losers and any(f.status is FigureStatus.FLED for f in losers) else End.SIDE_DOWN
        elif not standing:
            winner, end = None, End.NO_ONE_LEFT
        else:
            winner, end = None, End.ROUND_LIMIT
        return Fight(self.encounter.title, self.found.id, self.seed, tuple(figures), winner, end, self.played,
                     tuple(self.rounds), self.refused, self.quiet)

    def _mark(self) -> tuple:
        """Everything a round changes, to put back when it cannot be played (:meth:`play_round`)."""
        roller = self.resolve_roller
        return (list(self.figures), self.surprised, list(self.rounds), self.refused, dict(self.carried), self.carry,
                self.held_over, self.quiet, self.played, self.dice, self.master.getstate(),
                roller.rng.getstate() if roller.rng else None, dict(roller.counted), len(roller.log),
                dict(roller.entered), dict(self.table_rolls))

    def _restore(self, mark: tuple) -> None:
        roller = self.resolve_roller
        (self.figures, self.surprised, self.rounds, self.refused, self.carried, self.carry, self.held_over,
         self.quiet, self.played, self.dice, master, rng, roller.counted, logged, roller.entered, self.table_rolls) = mark
        self.master.setstate(master)
        if roller.rng is not None:
            roller.rng.setstate(rng)
        del roller.log[logged:]

    def step(self, given: tuple[Intent, ...] | None = None,
             rolls: Mapping[str, int | tuple[int, ...]] | None = None) -> RoundResult | None:
        """:meth:`play_round` as :func:`run_fight` plays it, in the run's memo already (:func:`remembering`): a round
        that raises leaves the fight part played."""
        found, encounter, options, explain, cache = self.found, self.encounter, self.options, self.explain, self.cache
        sid = found.id
        r = self.played = self.played + 1
        first = r == 1
        typed = {in_round(key, r): value for key, value in rolls.items()} if rolls else {}
        if typed:
            self.table_rolls.update(typed)
            self.resolve_roller.entered = {**self.resolve_roller.entered, **typed}
        table_rolls = self.table_rolls
        schedule_seed: int | None = self.master.getrandbits(64)
        schedule_rng = random.Random(schedule_seed)
        entered = round_rolls(table_rolls, r) if table_rolls else {}
        extra_events: list[Event] = []
        asked: list[str] = []
        timing_rolls: list[Roll] = []
        if first and options.surprise.standard_roll and found.rules.own_surprise is None and not self.flagged:
            surprise_roller = Roller(rng=schedule_rng, entered=entered)
            schedule_seed = None  # the schedule goes on from the surprise roll's dice
            self.surprised = _standard_surprise(encounter, surprise_roller, extra_events)
            asked.extend(roll.purpose for roll in surprise_roller.log)
            timing_rolls.extend(surprise_roller.log)
        round_surprised = self.surprised if first else frozenset()
        present = self.present()
        number = encounter.round + r - 1
        combatants = tuple(_as_now(f, f.name in round_surprised, cache) for f in present)
        names = tuple(f.name for f in present)
        sys_opts = found.round_options(self.timed, FightRound(r, names, options.surprise.check,
                                                              self.flagged or bool(round_surprised),
                                                              options.resolution.figures, self.held_over))
        if given is None:
            planned = _round_intents(encounter, names, first and options.declarations, self.carried)
        else:
            planned = tuple(i for i in given if i.actor in names)
        mine = frozenset(i.actor for i in planned)
        in_cycle = _in_cycle(encounter, number, cache)
        policy = _policy(present, found, number, in_cycle, round_surprised, options, mine, cache)
        distances = _distances(names, [f.position for f in present], cache)
        refinements = (tuple(x for x in encounter.refinements if x.actor in mine and (
                           given is None or _intents_of(planned, x.actor) == _intents_of(encounter.intents, x.actor)))
                       if first and options.declarations else ())  # a figure given other intents: none refine them
        seen = tuple(_as_planned(f, f.name in round_surprised, cache) for f in present)
        meant = planned + policy
        plan = _plan(found, distances, seen, meant, refinements, sys_opts, self.carry, in_cycle, cache,
                     lambda: made(Encounter, {"title": encounter.title, "combatants": seen, "distances": distances,
                                              "rolls": entered, "round": number, "system": sid,
                                              "description": encounter.description, "intents": meant,
                                              "refinements": refinements}))
        self.carry = plan.carry
        self.carried = {p.actor: [p.intent] for p in plan.placements
                        if p.kind is PlacementKind.DEFERRED and p.actor in mine and p.intent is not None}
        user, declarations = _round_declarations(plan, mine, cache)
        for f in present:
            if f.holding is not None and is_acting(f.status):
                extra_events.append(Event(r, 1, f.name, EventKind.NOTE, "000 §2 A: Holding a Spell",
                                          f"{f.name}'s {f.holding}, held over from round {r - 1}, goes off this "
                                          f"round and counts as its casting: {f.name} begins no new spell and "
                                          f"does not attack." if explain else ""))
        sits_out = found.rules.surprised_sits_out
        for name in sorted(round_surprised):
            if sits_out is not None and name in names:
                extra_events.append(Event(r, 1, name, EventKind.SURPRISE, sits_out,
                                          f"{name} is surprised and declares nothing this round."
                                          if explain else ""))
        round_encounter = made(Encounter, {
            "title": encounter.title, "combatants": combatants,
            "declarations": declarations, "distances": distances, "rolls": entered,
            "round": number, "system": sid, "description": encounter.description})
        timing = found.timing_roller()
        timeline, round_encounter, refusals = _schedule(found, round_encounter, user, timing, schedule_rng,
                                                        schedule_seed, entered, sys_opts, r, explain)
        if explain:
            timeline = annotate(timeline, plan)
        self.refused += len(refusals)
        extra_events.extend(refusals)
        known = {roll.purpose: (roll.faces if roll.faces else roll.total) for roll in timeline.rolls}
        asked.extend(known)
        known.update(entered)
        timing_rolls.extend(timeline.rolls)

        def reschedule(hits: tuple[Hit, ...], enc: Encounter = round_encounter, known: dict = known,
                       roller_type: type = timing, rng: random.Random = schedule_rng,
                       opts: object = sys_opts, plan: Plan = plan) -> Timeline:
            again = found.schedule(made(Encounter, {"hits": hits}, like=enc),
                                   roller_type(entered=dict(known), rng=rng), opts, check_rolls=False)
            new = [roll for roll in again.rolls if roll.purpose not in known]
            known.update({roll.purpose: (roll.faces if roll.faces else roll.total) for roll in new})
            asked.extend(roll.purpose for roll in again.rolls)
            timing_rolls.extend(new)
            return annotate(again, plan) if explain else again

        logged = len(self.resolve_roller.log)
        result = resolve_round(timeline, present, round_encounter.declarations, roller=self.resolve_roller,
                               options=options.resolution, round=r, encounter_round=number, system_options=sys_opts,
                               reschedule=reschedule, explain=explain, cache=cache)
        if (first and table_rolls) or typed:
            check_entered(table_rolls if first else typed,
                          [*asked, *(roll.purpose for roll in self.resolve_roller.log[logged:])],
                          f"round {r} of the fight under {found.title}",
                          found.roll_keys + ROLL_KEYS + _SURPRISE_KEYS + tuple(
                              f"{key} [round <r>]" for key in found.roll_keys + _SURPRISE_KEYS),
                          roll_words(encounter))
        if explain:
            resolved = self.resolve_roller.log[logged:]
            self.dice = tuple(
                [RoundDie(in_round(roll.purpose, r), roll.purpose, str(roll.dice),
                          roll.faces if roll.faces and len(roll.faces) > 1 else roll.total, roll.entered, True)
                 for roll in timing_rolls]
                + [RoundDie(key, roll.purpose, str(roll.dice), roll.faces if roll.faces and len(roll.faces) > 1
                            else roll.total, roll.entered, False)
                   for key, roll in zip(count_keys(roll.purpose for roll in resolved), resolved)])
        self.held_over = result.timeline.carry
        after = {f.name: f for f in result.figures}
        hurt = any(after[f.name].hit_points != f.hit_points for f in self.figures if f.name in after)
        self.quiet = 0 if hurt else self.quiet + 1
        self.figures = [after.get(f.name, f) for f in self.figures]
        if not explain:
            return None
        played = replace(result, events=tuple(extra_events) + result.events)
        self.rounds.append(played)
        return played


def _round_intents(encounter: Encounter, names: tuple[str, ...], first: bool,
                   carried: dict[str, list[Intent]]) -> tuple[Intent, ...]:
    """The DM's intents this round: the encounter's in round 1 (when played), else what the system left
    over from the round before, for the figures still on the field."""
    if first:
        return tuple(i for i in encounter.intents if i.actor in names)
    return tuple(i for name in names for i in carried.get(name, ()))


def _intents_of(intents: tuple[Intent, ...], actor: str) -> tuple[Intent, ...]:
    """``actor``'s intents among ``intents``, in order."""
    return tuple([i for i in intents if i.actor == actor])


_SURPRISE_KEYS: Final = ("surprise: <side>",)
"""The PH 2e surprise roll's key (``SurpriseOptions.standard_roll``)."""


def round_rolls(rolls: Mapping[str, int | tuple[int, ...]], r: int) -> dict[str, int | tuple[int, ...]]:
    """The numbers entered for round ``r``'s timing dice: ``<key> [round <r>]`` for any round (``initiative: party
    [round 3]``), and a key with no round for round 1, as an encounter's own ``[rolls]`` are (#46). A key with
    its round wins over the same key without.

    >>> round_rolls({"initiative: party": 4, "initiative: party [round 1]": 6, "ordering: orcs [round 2]": 3}, 2)
    {'ordering: orcs': 3}
    >>> round_rolls({"initiative: party": 4, "initiative: party [round 1]": 6}, 1)
    {'initiative: party': 6}
    """
    out: dict[str, int | tuple[int, ...]] = {}
    mark = f" [round {r}]"
    for key, value in rolls.items():
        if key.endswith(mark):
            out[key[:-len(mark)]] = value
        elif r == 1 and " [round " not in key and key not in out:
            out[key] = value
    return out


def in_round(key: str, r: int) -> str:
    """A roll's key as a fight keeps it for round ``r`` (:func:`round_rolls`): a timing roll's with its round, a
    resolved roll's (which names its round) as it is.

    >>> in_round("initiative: party", 3), in_round("attack roll: Kell [round 3, #2]", 3)
    ('initiative: party [round 3]', 'attack roll: Kell [round 3, #2]')
    """
    return key if " [round " in key else f"{key} [round {r}]"


def _own_system(encounter: Encounter) -> str | None:
    """The id of the system the encounter was written for (its rolls are that system's dice), if registered."""
    try:
        return find_system(encounter.system).id
    except RulesError:
        return None


def _standard_surprise(encounter: Encounter, roller: Roller, events: list[Event]) -> frozenset[str]:
    """PH 2e surprise: d10 a side, 1-3 surprised (the option for seeds that give no roll)."""
    out = set()
    for side in encounter.sides:
        roll = roller.roll("d10", f"surprise: {side}").total
        if roll <= 3:
            out |= {c.name for c in encounter.combatants if c.side == side}
        events.append(Event(1, 1, side, EventKind.SURPRISE, "PH 2e surprise (combatkit option)",
                            f"Side {side!r} rolls {roll} on d10 for surprise: {'surprised' if roll <= 3 else 'not surprised'}.",
                            outcome="surprised" if roll <= 3 else "not surprised"))
    return frozenset(out)


def _schedule(found, encounter: Encounter, user: tuple[Declaration, ...], roller_type: type, rng: random.Random,
              seed: int | None, entered: Mapping[str, object], options: object, r: int, explain: bool
              ) -> tuple[Timeline, Encounter, list[Event]]:
    """Schedule the round; drop policy declarations the system refuses (module docstring). Each attempt
    after the first starts the dice again from where the first did: ``rng`` seeded with ``seed`` again, or (with
    no seed, ``rng`` having rolled already) its state as the first found it."""
    state = rng.getstate() if seed is None else None

    def attempt(enc: Encounter, again: bool = True) -> Timeline:
        if again and state is not None:
            rng.setstate(state)
        elif again:
            rng.seed(seed)
        return found.schedule(enc, roller_type(entered=dict(entered), rng=rng), options, check_rolls=False)

    try:
        return attempt(encounter, again=False), encounter, []
    except RulesError as error:
        first_error = error
    if user:
        try:
            attempt(replace(encounter, declarations=user))
        except RulesError:
            raise first_error from None
    refusals: list[Event] = []
    kept = list(encounter.declarations)
    for actor in dict.fromkeys(d.actor for d in encounter.declarations if d not in user):
        mine = tuple(d for d in kept if d.actor == actor)
        try:
            attempt(replace(encounter, declarations=user + mine))
        except RulesError as error:
            kept = [d for d in kept if d.actor != actor]
            refusals.append(Event(r, 1, actor, EventKind.REFUSED, error.rule,
                                  f"{actor}'s declarations were refused and it does nothing this round: {error.message}"
                                  if explain else "", outcome="refused"))
    encounter = replace(encounter, declarations=tuple(kept))
    try:
        return attempt(encounter), encounter, refusals
    except RulesError:
        encounter = replace(encounter, declarations=user)
        refusals = [Event(r, 1, actor, EventKind.REFUSED, first_error.rule,
                          f"The round's declarations were refused together: {first_error.message}" if explain else "",
                          outcome="refused") for actor in dict.fromkeys(d.actor for d in kept if d not in user)]
        return attempt(encounter), encounter, refusals
