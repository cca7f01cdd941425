"""Five-phase action rounds for OSE/OSRIC (seed 001).

A round of about twenty seconds, step by step (001 THE PROCEDURE FOR ACTION ROUNDS):

A. Declare intentions. A surprised figure declares nothing.
B. Establish order. A d6 per side: the highest roll acts first in every step of every
   phase; tied sides act simultaneously; more than two sides rank from high to low.
   Each action's **Action Facility** (Very Quick, Quick, Moderate, Slow, Very Slow) is
   the phase it acts in, counted from when the figure is free to begin it: a weapon's
   speed (``combatkit/data/five_phase_001.toml`` bands the model's SF), a spell's casting
   time (a scroll's +3), an item's activation speed. Moving first shifts an attack a phase
   later (a half-move, a charge); a shift of up to 10' in phase 1 does not. A figure may
   **rush** an action one phase earlier (-4) or **delay** it. An experienced fighter in a
   round with more attacks makes the first a phase early and the next a phase late (after
   phase five: a Last Action).
C-G. Play out phases 1-5, each in three steps: Movement (delays and distractions at its
   beginning), Missiles & Magic, Melee. In each step the sides act in ordering order.
   Missiles launched and spells loosed take full effect together once all have been
   launched; melee damage applies at once, so side A's blow can tell before side B strikes.
   A charge or clash ignores the ordering: the longest weapon strikes first, equal reach
   together.
H. Last Actions: anything after phase five, all simultaneous.
I. Morale & record keeping: rallies, then the remaining morale checks, then damage and
   status changes are recorded. A resolved round rolls the checks (a giant's charge, a
   side's losses) and the rallies: :mod:`combatkit.resolution.morale` says how.

**Declarations.** A declaration's ``phase`` is when it acts: for an attack, a spell or an
item, the phase it strikes or goes off (its facility says which phase that may be: the
phase it falls due, one earlier if rushed, or any later one if delayed); for a move or any
other action, the phase it begins (its cost in phases follows from 001's list of actions).
Phase 6 is Last Actions, phase 7 the Morale step (for a rally). A declaration's ``maneuver``
makes it a Charge (or, its note saying so, a Counter-Charge), a Withdrawal (a Retreat), a
Break & Run (a Flight), an Overbear or an Unarmed/Body Attack; otherwise its ``note`` names
the action from the rest of the list ("draw & ready: short sword", "imbibe, from the
backpack", "parley"); unnamed moves are half-moves (a full move beyond half the allotment,
a shift for 10' or less in phase 1), unnamed miscellaneous actions take one phase.

**The clock.** Each phase holds a delays-and-distractions tick, then one tick per ordering
place in each of its three steps, with one more after the missiles-and-magic step when
missiles and spells take effect; then Last Actions and the morale step. Ordering places
are the number of sides (at least 2, at most 6, the faces of a d6): see
:class:`PhaseLayout`. :attr:`FivePhase.clock` is the two-sided round; a timeline carries
its own. Hits the referee reports (``Encounter.hits``) are ticks on that clock: one that
lands while a spell is being channelled ruins it.

**Open questions.** 001 marks several of its own rules as open questions in [brackets] or
"(-4?)". Each is an option of :class:`FivePhaseOptions`, **off by default**:

* [Weapon Specialization quickens Weapon Spd by 1 at all times?]: ``specialized``.
* [Monster routines — all at once or spread out? Spread out or just in consecutive phases?
  ... consecutive if on same target, spaced if at different targets ... Perhaps each part of
  sequence has separate Action Facility?]: ``monster_routine`` (default: the listed facility
  used unaltered, every part at once).
* [Continuation: success on attack by 5+ pips on roll results in an added attack w/penalty
  on next phase?]: ``continuation`` (the penalty, unprinted, is ``continuation_penalty``).
* [What sort of check?] for parley, spectacle and bait: ``distraction_check``. Without it the
  distraction is placed and the referee rules on it; with it the check is rolled and a
  successful spectacle (or bait) pauses everyone else (or the foes) for a phase.
* The Optional Rule of Relative Action Facilities ("-2. (-4?)"): ``relative_facility_extra_attack``
  with ``extra_attack_penalty``.

**Other choices** (the seed is silent or contradicts itself; each also an option or data):

* Ties. 001's opening says that with tied ordering rolls "the priority of an action will
  determine resolution timing" (movement, then missiles and magic, then melee); Play Out
  Phases says "all actions within the phase are assumed simultaneous, so moving has no
  priority over missiles or melee". The step order holds by default;
  ``tied_phase_simultaneous=True`` is the other reading.
* The model's SF is banded into facilities (data); a spell's CT 1-5 is its phase, CT 6 or
  more (a scroll's CT + 3 too) and a 1-round spell go off as Last Actions.
* A half-move and a charge take one phase (the Last Actions list puts a Very Slow attack
  after either past phase five); a full move is two half-moves in two phases; flight and
  break & run take the round. Costs 001 prints as ranges are dice: 3-5 is d3+2, 2-5 d4+1,
  2-7 d6+1, 2-12 2d6. The data file marks which costs are the seed's and which are ours.
* Fighters' multiple attacks beyond two (001's example has two): the third and later fall
  one phase after each other, from the second.
* Running is taken as triple move (001 Flight), so charging distance (half running) is
  1.5 moves; a "giant creature" whose charge forces morale checks is Huge or bigger
  (``giant_size``). Melee range is 5'.
* Rushing costs -4 "to check rolls"; 001 promises rushed-casting penalties "later in this
  text" but prints none: the timeline says so.
* A clash (001 Melee: Clash) orders by reach the first blows two foes exchange when one of
  them closed on the other this round and both strike in the same phase; no extra snap
  attacks are added to what was declared.
* A spell's duration counts from the round after it goes off (001 Magic): a one-round hold cast in
  round 1 holds through round 2 (:attr:`~combatkit.systems.rules.SystemRules.durations_from_next_round`).
* A flight planned after a withdrawal or retreat is left for the following round (001 Withdrawal: "may
  flee in the following round"), where it is a Flight while the figure is still clear of the opponent
  (:class:`Disengaged`), else a Break & Run.
* A rally (001 I) is the morale step's, apart from phases 1-5: an intent to rally is placed there beside the
  figure's other intents, a full move or a flight too ("doesn't allow for any other actions" is read of the
  phases' actions), and the actions after it are placed as if it were not there.
* Combat II (000) declaration fields have no 001 meaning except ``reposition`` (a Shift
  before the attack, in phase 1) and ``drop_and_draw`` (Draw & Ready, one phase, first);
  the others, and ``attacks=2``, are refused.
"""

from __future__ import annotations

import enum
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Dice, Roller
from combatkit.encounter import Encounter
from combatkit.errors import IllegalActionError, RulesError
from combatkit.kinds import ActionKind, IntentKind, Length, Maneuver, PlacementKind, Size, WeaponKind
from combatkit.model import Combatant, Declaration, Spell, Weapon
from combatkit.movement import Move001, move_001
from combatkit.systems._order_of_battle import (
    has_word,
    refuse_combat_ii_fields,
)
from combatkit.intent import Intent
from combatkit.systems._memo import by_pair, kept, kit, memo
from combatkit.systems._plan import ActorPlan, _pair, action_declaration, named_words, ready_declaration, routines
from combatkit.systems.base import TimingSystem, check_names, placed_round, register, sides_of
from combatkit.systems.rules import NO_TERMS, BlowTerms, Flight, Retarget, SystemRules
from combatkit.timeline import SPAN_KIND, Clock, Period, Span, SpanKind, Status, Tick, Timeline


__all__ = [
    "FIVE_PHASE",
    "ActionSpec",
    "Check",
    "Disengaged",
    "Facility",
    "FivePhase",
    "FivePhaseOptions",
    "PhaseLayout",
    "Routine",
    "action_for",
    "action_list",
    "attack_phases",
    "odds",
    "routine_phases",
    "spell_facility",
    "weapon_facility",
]

LAST: Final = 6
"""Position of Last Actions, right after phase five (001 H)."""
MORALE: Final = 7
"""Position of the morale step (001 I)."""
NEXT: Final = 8
"""Position of the next round's phase 1: long actions run on past the round."""
REACH: Final = 5  # melee range in feet
_MOVES: Final = {"shift": Move001.SHIFT, "half_move": Move001.HALF_MOVE, "full_move": Move001.FULL_MOVE,
          "take_cover": Move001.TAKE_COVER, "flight": Move001.FLIGHT, "charge": Move001.CHARGE,
          "counter_charge": Move001.CHARGE}
"""Entries of 001's list whose allotment :func:`combatkit.movement.move_001` gives; other moves are half-moves."""
STEPS: Final = ("distractions", "movement", "missiles & magic", "melee", "phase", "rally")


# ----------------------------------------------------------------- facilities and actions


@cache
def _data() -> dict:
    text = resources.files("combatkit.data").joinpath("five_phase_001.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def _facility_names() -> dict[int, str]:
    return {row["phase"]: row["name"] for row in _data()["facility"]}


class Facility(enum.IntEnum):
    """001 B. Action Facility: the phase (1..5) an action acts in."""

    VERY_QUICK = 1
    QUICK = 2
    MODERATE = 3
    SLOW = 4
    VERY_SLOW = 5

    @property
    def label(self) -> str:
        """As printed: ``"Very Quick"``."""
        return _facility_names()[int(self)]

    @classmethod
    def for_speed_factor(cls, sf: int) -> Facility:
        """The facility band of an adjusted speed factor (``five_phase_001.toml``).

        >>> Facility.for_speed_factor(5).label, Facility.for_speed_factor(10).label
        ('Moderate', 'Very Slow')
        """
        return _band(sf)


@lru_cache(maxsize=256)
def _band(sf: int) -> Facility:
    """:meth:`Facility.for_speed_factor`, read from the table once per speed factor."""
    return next(Facility(row["phase"]) for row in _data()["facility"] if sf <= row.get("sf_max", sf))


class Routine(enum.Enum):
    """How a monster's multi-part routine (claw/claw/bite) spreads over the phases (001 B)."""

    ALL_AT_ONCE = "all at once"
    """001 B: "For beasts and monsters, their listed Attack Facilities are used unaltered"."""
    SPREAD = "spread"
    """[bracket] Spread out to phase five: a Quick claw/claw/bite in phases 2, 4 and 5."""
    CONSECUTIVE = "consecutive"
    """[bracket] Consecutive phases: a Quick claw/claw/bite in phases 2, 3 and 4."""
    BY_TARGET = "by target"
    """[bracket] Consecutive phases on one target, a phase between them at different targets."""
    PER_PART = "per part"
    """[bracket] Each part of the sequence has its own Action Facility."""


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class Check:
    """A check for 001's bracketed "[What sort of check?]": roll ``dice``, succeed on ``succeeds_on`` or more."""

    dice: str = "d6"
    """Dice notation."""
    succeeds_on: int = 4
    """The lowest total that succeeds."""


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class FivePhaseOptions:
    """001's open questions (all off by default) and inputs the shared model has no field for."""

    facilities: Mapping[str, Facility] = field(default_factory=dict, hash=False)
    """Action Facility overrides: ``"name/weapon"`` for one weapon, ``"name"`` for all of a figure's attacks."""
    specialized: frozenset[str] = frozenset()
    """[bracket] Figures (``"name"``) or weapons (``"name/weapon"``) whose weapon specialization
    quickens their facility one step."""
    monster_routine: Routine = Routine.ALL_AT_ONCE
    """[bracket] How a monster's routine spreads over the phases."""
    continuation: bool = False
    """[bracket] An attack roll beating the number needed by 5 or more earns an added attack next phase."""
    continuation_penalty: int = -2
    """The penalty on that added attack (001 prints none)."""
    distraction_check: Check | None = None
    """[bracket] The check for parley, spectacle and bait; None leaves it to the referee."""
    relative_facility_extra_attack: bool = False
    """001 B Optional Rule: three facility steps quicker than the foe buys one more attack in its phase."""
    extra_attack_penalty: int = -2
    """That attack's penalty: -2, or the seed's "(-4?)"."""
    tied_phase_simultaneous: bool = False
    """With tied ordering, all of a phase's actions are simultaneous (001 Play Out Phases)."""
    giant_size: Size = Size.HUGE
    """Smallest charger whose charge forces the morale check of 001 Morale Check Due to Charge."""


@dataclass(frozen=True)
class ActionSpec:
    """One entry of 001's A LIST OF ACTIONS (``five_phase_001.toml``)."""

    id: str
    name: str
    section: str
    kind: ActionKind
    """The declaration kind it answers."""
    words: tuple[str, ...]
    """Words in a declaration's note that pick it."""
    default: bool
    """Taken for its kind (and weapon, and maneuver) when no note words match."""
    weapon: str | None
    """``"melee"`` or ``"missile"``: only for attacks with that kind of weapon."""
    step: str
    """When in a phase it happens (one of :data:`STEPS`)."""
    phases: int | str
    """Cost in phases, dice notation for a printed range, or ``"facility"``."""
    cost_from: str
    """``"seed"`` or ``"combatkit"``."""
    penalty: int = 0
    """Added to the attack or check roll."""
    max_feet: int | None = None
    min_feet: int | None = None
    legs: tuple[int, ...] = ()
    """A split-move sequence: phases of move, attack, move."""
    extras: tuple[tuple[tuple[str, ...], int], ...] = ()
    """(words, more phases) when the note says so."""
    effect: str | None = None
    """Dice: phases after the action until its effect."""
    extra_ct: int = 0
    """Added to the casting time (a scroll)."""
    max_activation: int | None = None
    """Highest activation speed (an item)."""
    text: str = ""
    """The seed's words."""
    maneuvers: frozenset[Maneuver] = frozenset()
    """The declaration maneuvers it is a way of doing (a Charge or Counter-Charge is a ``charge``): such
    an entry is only ever a declaration with one of them, and a declaration with a maneuver is one of them."""

    def answers(self, maneuver: Maneuver | None) -> bool:
        """Whether a declaration with ``maneuver`` (None: none) can be this entry."""
        return maneuver in self.maneuvers if maneuver is not None else not self.maneuvers


@cache
def action_list() -> tuple[ActionSpec, ...]:
    """001's A LIST OF ACTIONS, with each action's cost in phases.

    >>> next(a for a in action_list() if a.id == "open_or_close_door").phases
    2
    """
    return tuple(
        ActionSpec(
            id=row["id"], name=row["name"], section=row["section"], kind=ActionKind(row["kind"]),
            words=tuple(row.get("words", ())), default=row.get("default", False), weapon=row.get("weapon"),
            step=row["step"], phases=row["phases"], cost_from=row["cost_from"], penalty=row.get("penalty", 0),
            max_feet=row.get("max_feet"), min_feet=row.get("min_feet"), legs=tuple(row.get("legs", ())),
            extras=tuple((tuple(x["words"]), x["phases"]) for x in row.get("extras", ())),
            effect=row.get("effect"), extra_ct=row.get("extra_ct", 0), max_activation=row.get("max_activation"),
            text=row.get("text", ""), maneuvers=frozenset(Maneuver(m) for m in row.get("maneuvers", ())),
        )
        for row in _data()["action"]
    )


def _weapons(c: Combatant, d: Declaration) -> tuple[Weapon, ...]:
    """The weapons a declaration names, or its figure's first."""
    return kit(c).striking(d.weapons)


def _is_missile(c: Combatant, d: Declaration) -> bool:
    """Whether every weapon of the declaration is a missile weapon (asked for every attack's action: the
    weapons are the figure's kit's, worked out once a run)."""
    return all(w.kind is WeaponKind.MISSILE for w in kit(c).striking(d.weapons))


def action_for(c: Combatant, d: Declaration) -> ActionSpec:
    """The entry of 001's list a declaration is: among the entries of its kind and maneuver (a
    ``charge`` is a Charge or a Counter-Charge, no declaration without one is either), the one its
    note names, else their default. In a fight, worked out once a run for each declaration (the run's memo keeps
    it by the declaration's identity: a run's rounds hold the declarations of the plans it keeps), and its
    figure's weapons and move by its name, which never change in a run.

    >>> from combatkit.model import ActionKind, Declaration, Maneuver
    >>> erik = Combatant("Erik", "a")
    >>> action_for(erik, Declaration("Erik", 1, ActionKind.MISC, note="imbibe from the backpack")).name
    'Imbibe'
    >>> [action_for(erik, Declaration("Erik", 1, ActionKind.MOVE, maneuver=Maneuver.FLEE, note=note)).name
    ...  for note in ("", "flight, now that he is clear", "runs for it")]
    ['Break & Run', 'Flight', 'Break & Run']
    """
    found = memo("five_phase actions")
    known = kept(found, d) if found is not None else None
    if known is not None:
        return known[1]
    weapon = None
    if d.kind is ActionKind.ATTACK:
        weapon = "missile" if _is_missile(c, d) else "melee"
    spec = _action_for(d.kind, weapon, d.maneuver, named_words(d, "five_phase"), d.phase, d.feet, c.movement * 5)
    if found is not None:
        found[id(d)] = (d, spec)  # the declaration kept with it, so that its id is never another's
    return spec


@lru_cache(maxsize=1024)
def _action_for(kind: ActionKind, weapon: str | None, maneuver: Maneuver | None, note: str, phase: int,
                feet: int | None, half_move: int) -> ActionSpec:
    """:func:`action_for` from what it reads of the declaration (``note``: the words it names its entry by,
    :func:`~combatkit.systems._plan.named_words`), worked out once for the same: the fast path asks for every
    declaration of every round. Bounded: the note is the encounter's free text."""
    fits = [a for a in action_list() if a.kind is kind and (a.weapon is None or a.weapon == weapon)
            and a.answers(maneuver)]
    if not fits:  # a pummel, grapple or overbear with a missile weapon
        assert maneuver is not None
        raise IllegalActionError("001 A LIST OF ACTIONS", f"a {maneuver.value} is a melee attack, not one with a "
                                                          f"{weapon} weapon")
    named = [(len(word), a) for a in fits for word in a.words if has_word(note, word)]
    if named:
        return max(named, key=lambda pair: pair[0])[1]
    if maneuver is None and kind is ActionKind.MOVE and phase == 1 and feet is not None and feet <= 10:
        return _spec("shift")
    if maneuver is None and kind is ActionKind.MOVE and feet is not None and feet > half_move:
        return _spec("full_move")
    return next(a for a in fits if a.default)


def _spec(action_id: str) -> ActionSpec:
    return next(a for a in action_list() if a.id == action_id)


def weapon_facility(c: Combatant, w: Weapon, options: FivePhaseOptions = FivePhaseOptions(), *,
                    explain: bool = True) -> tuple[Facility, str]:
    """A weapon's Action Facility (001 B: "A weapon attack uses the Weapon Speed rating") and why (``""`` with
    ``explain=False``: the planner and the extra-attack check use the facility alone).

    >>> weapon_facility(Combatant("Erik", "a"), Weapon("long sword", 5))
    (<Facility.MODERATE: 3>, 'long sword: adjusted SF 5 is Moderate')
    >>> weapon_facility(Combatant("Erik", "a"), Weapon("long sword", 5), explain=False)
    (<Facility.MODERATE: 3>, '')
    """
    own = f"{c.name}/{w.name}"
    given = options.facilities.get(own, options.facilities.get(c.name))  # one weapon's, else all the figure's
    why = ""
    if given is not None:
        facility = Facility(given)
        if explain:
            why = f"{w.name}: {facility.label} (given)"
    else:
        natural = w.kind is WeaponKind.NATURAL
        sf = c.size.natural_sf if natural else w.speed_factor - w.magic_bonus - w.style_bonus
        facility = Facility.for_speed_factor(sf)
        if explain:
            how = f"a {c.size.value} creature's natural attack, SF {sf}" if natural else f"adjusted SF {sf}"
            why = f"{w.name}: {how} is {facility.label}"
    if own in options.specialized or c.name in options.specialized:
        facility = Facility(max(1, facility - 1))
        if explain:
            why += f"; weapon specialization quickens it to {facility.label} (001 B [open question], option)"
    return facility, why


def spell_facility(spell: Spell, spec: ActionSpec) -> tuple[int, str]:
    """The phase a spell or item acts in from the start of the round: its facility, or
    :data:`LAST` for a casting time past five and a 1-round spell (001 B, Magic).

    >>> spell_facility(Spell("sleep", 1, 1), _spec("spell"))
    (1, 'casting time 1 is Very Quick')
    >>> spell_facility(Spell("sleep", 1, 1), _spec("scroll"))
    (4, 'casting time 1 + 3 from a scroll = 4 is Slow')
    """
    if spell.full_round:
        return LAST, "a 1-round spell goes off as a Last Action"
    ct = int(spell.casting_time)
    if spec.max_activation is not None and ct > spec.max_activation:
        raise IllegalActionError("001 Magic: By Item", f"{spell.name}: activation speeds range from 1 to "
                                                       f"{spec.max_activation}, got {ct}")
    total = ct + spec.extra_ct
    what = "activation speed" if spec.max_activation is not None else "casting time"
    shown = f"{what} {ct}" + (f" + {spec.extra_ct} from a scroll = {total}" if spec.extra_ct else "")
    if total > 5:
        return LAST, f"{shown} runs past phase five: a Last Action"
    return total, f"{shown} is {Facility(total).label}"


def attack_phases(facility: Facility, attacks: int) -> tuple[int, ...]:
    """001 B Multiple attack sequences: the phases of an experienced fighter's attacks in a round.

    "In the rounds he's due two attacks, he attacks using a Quick Speed with his first attack,
    and then a Slow Speed with his second" (Erik the Bold, Moderate weapon). Past phase five
    is a Last Action (6).

    >>> attack_phases(Facility.MODERATE, 1), attack_phases(Facility.MODERATE, 2)
    ((3,), (2, 4))
    >>> attack_phases(Facility.VERY_SLOW, 2), attack_phases(Facility.MODERATE, 3)
    ((4, 6), (2, 4, 5))
    """
    if attacks <= 1:
        return (int(facility),)
    return (max(1, facility - 1),) + tuple(min(LAST, facility + k) for k in range(1, attacks))


def _is_monster(c: Combatant) -> bool:
    """A figure of class ``monster``: its several attacks are a routine (001 B, ``monster_routine``)."""
    return c.char_class.strip().lower() == "monster"


def routine_phases(routine: Routine, facilities: list[Facility], targets: list[str | None]) -> tuple[int, ...]:
    """The phases of a monster's routine parts (001 B and its bracketed questions).

    >>> quick = [Facility.QUICK] * 3
    >>> [routine_phases(r, quick, ["x", "x", "y"]) for r in Routine]
    [(2, 2, 2), (2, 4, 5), (2, 3, 4), (2, 3, 5), (2, 2, 2)]
    """
    n, slowest = len(facilities), int(max(facilities))
    if routine is Routine.ALL_AT_ONCE:
        return (slowest,) * n
    if routine is Routine.PER_PART:
        return tuple(int(f) for f in facilities)
    if routine is Routine.CONSECUTIVE:
        return tuple(min(LAST, slowest + i) for i in range(n))
    if routine is Routine.SPREAD:
        if n == 1 or slowest >= 5:
            return (slowest,) * n
        return tuple(slowest + math.ceil(i * (5 - slowest) / (n - 1)) for i in range(n))
    phases = [slowest]
    for i in range(1, n):
        phases.append(min(LAST, phases[-1] + (1 if targets[i] == targets[i - 1] else 2)))
    return tuple(phases)


# ----------------------------------------------------------------- the clock


@dataclass(frozen=True)
class PhaseLayout:
    """The ticks of a five-phase round with ``slots`` ordering places per step.

    >>> layout = PhaseLayout(2)
    >>> layout.distractions(1), layout.movement(1, 1), layout.missiles(1, 2), layout.effects(1), layout.melee(1, 2)
    (1, 2, 5, 6, 8)
    >>> layout.last_actions, layout.clock.ticks
    (41, 44)
    """

    slots: int
    """Ordering places in each step: the number of sides, 2..6."""
    clock: Clock = field(init=False, repr=False, compare=False)
    """The round's clock: its periods, phase by phase and step by step, then last actions and the morale steps."""

    def __init__(self, slots: int) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the clock is made with the layout, once (a
        # compiled class turns functools.cached_property into a plain property, which made it at every look).
        object.__setattr__(self, "slots", slots)
        object.__setattr__(self, "clock", self._clock())

    @property
    def per_phase(self) -> int:
        return 3 * self.slots + 2

    def distractions(self, phase: int) -> Tick:
        """Delays & distractions, at the beginning of the movement step."""
        return (phase - 1) * self.per_phase + 1

    def movement(self, phase: int, slot: int) -> Tick:
        return self.distractions(phase) + slot

    def missiles(self, phase: int, slot: int) -> Tick:
        """When a side launches missiles and looses spells."""
        return self.distractions(phase) + self.slots + slot

    def effects(self, phase: int) -> Tick:
        """When every missile and spell of the phase takes effect, together."""
        return self.distractions(phase) + 2 * self.slots + 1

    def melee(self, phase: int, slot: int) -> Tick:
        return self.effects(phase) + slot

    def end(self, phase: int) -> Tick:
        return self.melee(phase, self.slots)

    @property
    def last_actions(self) -> Tick:
        return 5 * self.per_phase + 1

    @property
    def rally(self) -> Tick:
        return self.last_actions + 1

    @property
    def morale_checks(self) -> Tick:
        return self.last_actions + 2

    @property
    def ticks(self) -> int:
        """Ticks in a round."""
        return self.morale_checks + 1

    def _clock(self) -> Clock:
        periods: list[Period] = []
        for p in range(1, 6):
            periods += [
                Period("phase", self.distractions(p), self.distractions(p), str(p), "delays & distractions"),
                Period("phase", self.movement(p, 1), self.movement(p, self.slots), str(p), "movement"),
                Period("phase", self.missiles(p, 1), self.effects(p), str(p), "missiles & magic"),
                Period("phase", self.melee(p, 1), self.end(p), str(p), "melee"),
            ]
        periods += [
            Period("last actions", self.last_actions, self.last_actions),
            Period("morale", self.rally, self.rally, step="rally"),
            Period("morale", self.morale_checks, self.morale_checks, step="checks"),
            Period("morale", self.morale_checks + 1, self.morale_checks + 1, step="record keeping"),
        ]
        return Clock("turn", self.ticks, tuple(periods), note="a side's go at one step of a phase")


@lru_cache(maxsize=5)
def _layout(slots: int) -> PhaseLayout:
    """The layout of a round with ``slots`` sides (2..6), built once, and so its :attr:`~PhaseLayout.clock`."""
    return PhaseLayout(slots)


_STEP_TICKS: Final[dict[str, Callable[[PhaseLayout, int, int], Tick]]] = {
    "distractions": lambda layout, phase, slot: layout.distractions(phase),
    "phase start": lambda layout, phase, slot: layout.distractions(phase),
    "movement": lambda layout, phase, slot: layout.movement(phase, slot),
    "missiles & magic": lambda layout, phase, slot: layout.missiles(phase, slot),
    "effects": lambda layout, phase, slot: layout.effects(phase),
    "melee": lambda layout, phase, slot: layout.melee(phase, slot),
    "second": lambda layout, phase, slot: layout.melee(phase, 2),
    "phase end": lambda layout, phase, slot: layout.end(phase),
}
"""The tick of each step a span is placed at, in a phase, for a side's slot (:meth:`_Round._tick`)."""

CLOCK: Final = _layout(2).clock


# ----------------------------------------------------------------- positions


def _after(pos: int, n: int) -> int:
    """The regular phase ``n`` phases after phase ``pos`` (past phase five: the next round's)."""
    if pos >= NEXT:
        return pos + n
    q = pos + n
    return q if q <= 5 else NEXT + q - 6


def _following(pos: int) -> int:
    """The position right after ``pos``: phase 5 is followed by Last Actions, those by the next round."""
    if pos < 5 or pos >= NEXT:
        return pos + 1
    return LAST if pos == 5 else NEXT


def _due(ready: int, phase: int) -> int:
    """The position a facility action falls due when the figure is free from ``ready``."""
    if ready >= NEXT:
        return ready
    if ready == LAST or phase == LAST:
        return LAST
    return min(LAST, ready + phase - 1)


def _name(pos: int) -> str:
    if pos == LAST:
        return "Last Actions"
    if pos == MORALE:
        return "the morale step"
    if pos >= NEXT:
        return f"phase {(pos - NEXT) % 5 + 1} of the next round" if pos < NEXT + 5 else \
            f"phase {(pos - NEXT) % 5 + 1}, {(pos - NEXT) // 5 + 1} rounds on"
    return f"phase {pos}"


# ----------------------------------------------------------------- the round


@dataclass
class _Item:
    """One action placed in phases: becomes one span."""

    c: Combatant
    decl: Declaration | None
    spec: ActionSpec
    kind: SpanKind
    action: str
    start: int
    land: int
    rule: str
    why: list[str]
    target: str | None = None
    status: Status = Status.DONE
    weapons: tuple[Weapon, ...] = ()
    missile: bool = False
    slot: str = "side"
    """``side`` (its side's ordering place), ``first`` or ``second`` (a charge or clash by reach)."""
    closes_on: str | None = None
    """For a move: the figure it closes on."""
    feet: int = 0
    rushed: bool = False
    """Taken one phase before it falls due (001 B: -4 to the attack): the span's ``"rushed"`` mark."""
    what: str = ""
    """The action without its target or notes (:attr:`Span.what <combatkit.timeline.Span.what>`): ``"long sword"``."""

    def __init__(self, c: Combatant, decl: Declaration | None, spec: ActionSpec, kind: SpanKind, action: str,
                 start: int, land: int, rule: str, why: list[str], target: str | None = None,
                 status: Status = Status.DONE, weapons: tuple[Weapon, ...] = (), missile: bool = False,
                 slot: str = "side", closes_on: str | None = None, feet: int = 0, rushed: bool = False,
                 what: str = "") -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.c = c
        self.decl = decl
        self.spec = spec
        self.kind = kind
        self.action = action
        self.start = start
        self.land = land
        self.rule = rule
        self.why = why
        self.target = target
        self.status = status
        self.weapons = weapons
        self.missile = missile
        self.slot = slot
        self.closes_on = closes_on
        self.feet = feet
        self.rushed = rushed
        self.what = what


_RUSHED: Final = frozenset({"rushed"})
_RALLY: Final = frozenset({"rally"})
"""A rally's mark, which the resolver rolls (:data:`combatkit.resolution.morale.RALLY`)."""


class _Round:
    def __init__(self, encounter: Encounter, roller: Roller, options: FivePhaseOptions) -> None:
        self.encounter, self.roller, self.options = encounter, roller, options
        self.people = {c.name: c for c in encounter.combatants}
        self.notes: list[str] = []
        self.items: list[_Item] = []
        self.extras: list[tuple[Combatant, Declaration]] = []
        self.distance = by_pair(encounter.distances)  # read only
        self.sides = sides_of(encounter)
        self.layout = _layout(min(max(2, len(self.sides)), 6))

    # ------------------------------------------------------------ ordering (001 B)

    def _ordering(self) -> None:
        """001 B The Ordering Check: a d6 per side, ranked high to low; ties act together."""
        rolls = {side: self.roller.roll_total("d6", f"ordering: {side}").total for side in self.sides}
        values = sorted(set(rolls.values()), reverse=True)
        self.rank = {side: values.index(roll) + 1 for side, roll in rolls.items()}
        self.all_tied = len(values) == 1
        shown = ", ".join(f"{side} {roll}" for side, roll in rolls.items())
        if len(rolls) == 1:
            self.notes.append(f"Only {self.sides[0]} is fighting: it acts first in every step (001 B).")
        elif self.all_tied:
            self.notes.append(f"Ordering check, d6 per side: {shown}. A tie: like actions in each phase are "
                              f"simultaneous (001 B The Ordering Check).")
        else:
            order = " then ".join(" and ".join(s for s in rolls if self.rank[s] == r) for r in range(1, len(values) + 1))
            self.notes.append(f"Ordering check, d6 per side: {shown}. In each step of each phase {order} act, in that "
                              f"order (001 B The Ordering Check).")
        if self.all_tied and self.options.tied_phase_simultaneous and len(rolls) > 1:
            self.notes.append("Ordering is tied: all actions within each phase are simultaneous, so moving has no "
                              "priority over missiles or melee (001 Play Out Phases; option).")

    # ------------------------------------------------------------ the round

    def run(self) -> Timeline:
        check_names(self.encounter)
        self._check()
        self._ordering()
        # A round that rolls nothing more once the sides are ordered (no effect, distraction or clash dice) and has
        # no hit reported on a caster is placed as before when it looks the same (combatkit.systems._memo).
        placed = placed_round("five_phase", self.encounter, self.options, tuple(self.rank.values()))
        known = placed.before() if placed is not None else None
        if known is not None:
            clock, spans, notes = known
            return Timeline(FIVE_PHASE.id, clock, spans, tuple(self.notes) + notes, tuple(self.roller.log))
        after, rolled = len(self.notes), len(self.roller.log)
        for c in self.encounter.combatants:
            self._plan(c)
        self._extra_attacks()
        self._initiative_moves()
        self._charges()
        self._reach()
        self._distractions()
        self._continuations()
        self._clashes()
        timeline = self._timeline()
        if placed is not None and len(self.roller.log) == rolled:
            placed.keep((timeline.clock, timeline.spans, timeline.notes[after:]))
        return timeline

    def _check(self) -> None:
        for key in (*self.options.facilities, *self.options.specialized):
            if key.split("/")[0] not in self.people:
                raise RulesError("001 options", f"an option names {key!r}, and no figure is called {key.split('/')[0]!r}")
        for d in self.encounter.declarations:
            refuse_combat_ii_fields(d, "001 A LIST OF ACTIONS", allowed=frozenset({"reposition", "drop_and_draw"}))
            if d.attacks != 1:
                raise IllegalActionError("001 B. Multiple attack sequences",
                                         f"{d.actor}: attacks={d.attacks} is Combat II's double attack; 001 places "
                                         f"each attack in its own phase: declare one attack per declaration")
            if not 1 <= d.phase <= MORALE:
                raise RulesError("001 THE PROCEDURE FOR ACTION ROUNDS",
                                 f"{d.actor}: phase is 1-5, 6 for Last Actions or 7 for the Morale step, got {d.phase}")
            c = self.people[d.actor]
            if c.surprised:
                raise IllegalActionError("001 A. Declare Intentions",
                                         f"{c.name} is surprised and makes no declarations until the surprise has run "
                                         f"its course; got a {d.kind.value} in phase {d.phase}")

    # ------------------------------------------------------------ each figure's round

    def _plan(self, c: Combatant) -> None:
        given = [(d, action_for(c, d)) for d in self.encounter.declarations if d.actor == c.name]
        ordered = sorted(enumerate(given), key=lambda ids: (ids[1][0].phase, STEPS.index(ids[1][1].step), ids[0]))
        mine, specs = [d for _, (d, _) in ordered], [s for _, (_, s) in ordered]
        if c.surprised:
            self.notes.append(f"{c.name} is surprised: no declarations until the surprise has run its course "
                              f"(001 A. Declare Intentions).")
        lone = [s for s in specs if s.id in ("full_move", "flight", "break_and_run") or s.legs]
        others = [s for s in specs if s.id != "rally"]
        if lone and len(others) > 1:
            raise IllegalActionError(f"001 {lone[0].section}: {lone[0].name}",
                                     f"{c.name}'s {lone[0].name.lower()} takes the whole round and allows no other "
                                     f"action, but {c.name} also declares {', '.join(s.name for s in others if s is not lone[0])}")
        if sum(1 for s in specs if s.id == "half_move") > 1:
            raise IllegalActionError("001 B. Action Facility & Phases",
                                     f"{c.name} declares two half-moves: that is a full move, which "
                                     f"doesn't allow for any other actions; declare it as one full move")
        for d, s in zip(mine, specs, strict=True):
            if s.id in ("withdrawal", "retreat") and (d.target is None or d.target == c.name):
                raise IllegalActionError(f"001 Movement: {s.name}", f"{c.name}'s {s.name.lower()} must name the "
                                                                    f"opponent it is made from, got {d.target!r}")
        if any(s.id in ("withdrawal", "retreat") for s in specs) and any(d.kind is ActionKind.ATTACK for d in mine):
            raise IllegalActionError("001 Movement: Withdrawal, Retreat",
                                     f"{c.name} withdraws or retreats, which foregoes attacking this round")
        attacks = [d for d, s in zip(mine, specs, strict=True) if d.kind is ActionKind.ATTACK and not s.legs
                   and s.id != "overbear"]
        arms = kit(c)
        allowed = max((arms.attacks_in_round(self.encounter.round, w) for d in attacks for w in _weapons(c, d)),
                      default=1)
        regular, self_extras = attacks[:allowed], attacks[allowed:]
        self.extras += [(c, d) for d in self_extras]
        state = _Plan(ready=1, floor=1, regular=regular)
        for d, spec in zip(mine, specs, strict=True):
            if any(d is x for x in self_extras):
                continue
            if d.kind is ActionKind.ATTACK and not spec.legs and spec.id != "overbear":
                self._attack(c, d, spec, state)
            elif d.kind is ActionKind.CAST:
                self._cast(c, d, spec, state)
            elif spec.legs:
                self._split_move(c, d, spec)
            else:
                self._fixed(c, d, spec, state)

    def _busy(self, c: Combatant, d: Declaration, spec: ActionSpec, start: int, state: _Plan) -> bool:
        """Whether ``start`` is too early: an error if it is so whatever the dice, a cancel if dice made it so."""
        if start >= state.ready:
            return False
        if start < state.floor:
            raise IllegalActionError(f"001 {spec.section}: {spec.name}",
                                     f"{c.name} is still busy until {_name(state.floor)} and cannot begin "
                                     f"{spec.name.lower()} in {_name(start)}")
        self.items.append(_Item(c, d, spec, SPAN_KIND[d.kind], f"{spec.name.lower()} (cancelled)", start, start,
                                f"001 {spec.section}: {spec.name}",
                                [f"Cancelled: the dice left {c.name} busy until {_name(state.ready)}."],
                                d.target, Status.CANCELLED, what=spec.name.lower()))
        return True

    # -- moves and other actions with a cost in phases

    def _fixed(self, c: Combatant, d: Declaration, spec: ActionSpec, state: _Plan) -> None:
        rule = f"001 {spec.section}: {spec.name}"
        if spec.id == "rally" or d.phase == MORALE:
            if not (spec.id == "rally" and d.phase == MORALE):
                raise IllegalActionError("001 I. Morale & Record Keeping",
                                         f"{c.name}: the morale step (phase 7) is for rallying allies, and a rally "
                                         f"happens there; got {spec.name.lower()} in phase {d.phase}")
            self.items.append(_Item(c, d, spec, SpanKind.MISC, "rallies close allies", MORALE, MORALE, rule,
                                    ["Rally: an attempt to rally any close allies, before the remaining morale "
                                     "checks (001 I)."], d.target))
            return
        if spec.id == "shift" and d.phase != 1:
            raise IllegalActionError("001 Movement: Shift", f"{c.name}: a shift is made during First Phase, "
                                                            f"not phase {d.phase}")
        start = d.phase
        if self._busy(c, d, spec, start, state):
            return
        cost, cost_min, how = self._cost(c, d, spec)
        if start == LAST and cost > 1:
            raise IllegalActionError("001 H. Last Actions", f"{c.name}: only a brief action can be delayed to Last "
                                                            f"Actions; {spec.name.lower()} takes {cost} phases")
        land = start if start == LAST else _after(start, max(cost, 1) - 1)
        if cost:
            state.ready = _following(land)
            state.floor = _following(start if start == LAST else _after(start, max(cost_min, 1) - 1))
        why = [how] if how else []
        if d.kind is ActionKind.MOVE:
            self._move(c, d, spec, start, land, rule, why)
            return
        if d.kind is ActionKind.READY:
            self.items.append(_Item(c, d, spec, SpanKind.READY, "sets weapon to receive a charge"
                                    + (f" from {d.target}" if d.target else ""), start, LAST if start == LAST else 5,
                                    rule, [*why, "it stays set for the rest of the round, until the charge comes",
                                           _text(spec)], d.target))
            state.ready = state.floor = NEXT
            return
        if d.kind is ActionKind.ATTACK:  # an overbear: a run into the foe, in the melee step
            self.items.append(_Item(c, d, spec, SpanKind.ATTACK, f"overbears {d.target or ''}".strip(), start, land, rule,
                                    [*why, _text(spec)], d.target))
            return
        what = d.note or spec.name.lower()
        self.items.append(_Item(c, d, spec, SpanKind.MISC, what, start, land, rule, why + [_text(spec)], d.target))
        if spec.effect is not None:
            after = self.roller.roll_total(spec.effect, f"{spec.name} takes effect: {c.name}, phase {d.phase}").total
            when = _after(land, after) if land <= 5 or land >= NEXT else _after(NEXT, after - 1)
            self.items.append(_Item(c, d, spec, SpanKind.EFFECT, f"{spec.name.lower()}: takes effect", when, when, rule,
                                    [f"It takes effect {after} phases after it is consumed ({spec.effect})."]))

    def _cost(self, c: Combatant, d: Declaration, spec: ActionSpec) -> tuple[int, int, str]:
        """Phases an action takes (rolled when 001 prints a range), the fewest it could take, and why."""
        extra = sum(more for words, more in spec.extras if any(has_word(d.note, w) for w in words))
        extra_why = f" + {extra} ({d.note})" if extra else ""
        source = "" if spec.cost_from == "seed" else " (combatkit's choice: 001 gives no cost)"
        if isinstance(spec.phases, int):
            total = spec.phases + extra
            return total, total, (f"{spec.name} takes {spec.phases} phase{'s' * (spec.phases != 1)}{extra_why}"
                                  f"{source}." if spec.phases else "")
        dice = Dice.parse(spec.phases)
        rolled = self.roller.roll_total(spec.phases, f"{spec.name}: {c.name}, phase {d.phase}").total
        return (rolled + extra, dice.minimum + extra,
                f"{spec.name} takes {dice.minimum}-{dice.maximum} phases: {spec.phases} rolled {rolled}{extra_why}.")

    def _move(self, c: Combatant, d: Declaration, spec: ActionSpec, start: int, land: int, rule: str,
              why: list[str]) -> None:
        limit = move_001(_MOVES.get(spec.id, Move001.HALF_MOVE), c.movement).feet
        gap = self.distance.get(frozenset((c.name, d.target))) if d.target else None
        toward = spec.id not in ("withdrawal", "retreat", "flight", "break_and_run")
        feet = d.feet if d.feet is not None else (min(limit, max(0, gap - REACH)) if gap is not None and toward
                                                  else limit)
        if feet > limit and spec.id not in ("charge", "counter_charge"):
            raise IllegalActionError(rule, f"{c.name} may move up to {limit}' as a {spec.name.lower()} "
                                           f"(MV {c.movement}), not {feet}'")
        what = {"half_move": "half-moves", "full_move": "full move", "shift": "shifts"}.get(spec.id, spec.name.lower())
        if spec.id == "half_move":
            why.append(f"An attack made with a half-move is at {spec.penalty:+d} and comes a phase later (001 Half-Move).")
        if spec.id in ("charge", "counter_charge"):
            why.append(f"A charge attack is at {spec.penalty:+d} to hit and +2 damage (001 Charge).")
        if spec.id == "shift":
            why.append("A shift in First Phase does not delay an attack or a spell (001 Shift).")
        if not why:
            why.append(_text(spec))
        where = f" toward {d.target}" if d.target and toward else (f" from {d.target}" if d.target else "")
        self.items.append(_Item(c, d, spec, SpanKind.MOVE, f"{what} {feet}'{where}", start, land, rule, why, d.target,
                                feet=feet, closes_on=d.target if toward else None))

    def _split_move(self, c: Combatant, d: Declaration, spec: ActionSpec) -> None:
        """001 Split-Move Attack / Fire: two phases moving, one attacking, two moving."""
        first, strike, second = spec.legs
        rule = f"001 {spec.section}: {spec.name}"
        if d.phase != first + 1:
            raise IllegalActionError(rule, f"{c.name}'s {spec.name.lower()} strikes in phase {first + 1} (after "
                                           f"{first} phases of movement), not phase {d.phase}")
        third = move_001(Move001.SPLIT_MOVE, c.movement).feet
        if d.feet is not None and d.feet > third:
            raise IllegalActionError(rule, f"{c.name} may move up to 1/3 of MV {c.movement} ({third}') before "
                                           f"a split-move attack, not {d.feet}'")
        feet = d.feet if d.feet is not None else third
        self.items.append(_Item(c, d, spec, SpanKind.MOVE, f"moves {feet}' (split-move)", 1, first, rule,
                                [f"Two phases of movement before the attack ({spec.name})."], d.target, feet=feet,
                                closes_on=d.target, what=f"moves {feet}'"))
        weapons = _weapons(c, d)
        names = " + ".join(w.name for w in weapons)
        self.items.append(_Item(c, d, spec, SpanKind.ATTACK, names + (f" -> {d.target}" if d.target else ""),
                                d.phase, d.phase, rule,
                                [f"One phase for the attack, at {spec.penalty} ({spec.name})."], d.target,
                                weapons=weapons, missile=_is_missile(c, d), what=names))
        self.items.append(_Item(c, d, spec, SpanKind.MOVE, "moves on (split-move)", first + strike + 1,
                                first + strike + second, rule, ["Two phases of movement after the attack."],
                                what="moves on"))

    # -- facility actions: attacks, spells, items

    def _check_due(self, c: Combatant, d: Declaration, spec: ActionSpec, due: int, due_floor: int,
                   facility_why: str) -> tuple[int, list[str]] | None:
        """001 B: act in the phase it falls due, one earlier rushed (-4), or later delayed.
        Returns the phase it lands in and the words; None if the dice left it cancelled."""
        rule = "001 B. Action Speeds"
        declared = d.phase
        if declared > LAST:
            raise IllegalActionError(rule, f"{c.name}: an attack or spell acts in phase 1-5 or as a Last Action (6), "
                                           f"not phase {declared}")
        rushed = due - 1
        if declared < due_floor - 1:
            raise IllegalActionError(
                rule, f"{c.name}'s {spec.name.lower()} falls due in {_name(due_floor)} ({facility_why}); it may be "
                      f"rushed one phase, to {_name(due_floor - 1)}, not declared for phase {declared}")
        if declared < rushed:
            self.items.append(_Item(c, d, spec, SPAN_KIND[d.kind], f"{spec.name.lower()} (cancelled)", declared,
                                    declared, rule, [f"Cancelled: the dice left it due in {_name(due)}, too late to "
                                                     f"rush it to phase {declared}."], d.target, Status.CANCELLED,
                                    what=spec.name.lower()))
            return None
        words = [f"{facility_why}: counted from when {c.name} is free, it falls due in {_name(due)}"]
        if declared == rushed:
            words.append(f"rushed one phase earlier, to {_name(declared)}: -4 to check rolls (001 B)")
            if d.kind is ActionKind.CAST:
                words.append("001 promises penalties for rushed casting 'later in this text' but prints none: "
                             "the referee's call")
        elif declared > due:
            words.append(f"delayed to {_name(declared)} (001 B)")
            if declared == LAST:
                words.append("an action delayed past phase five happens right after phase five (001 H)")
        elif due == LAST:
            words.append("past phase five it is a Last Action (001 H)")
        return declared, words

    def _attack(self, c: Combatant, d: Declaration, spec: ActionSpec, state: _Plan) -> None:
        if d.spell is not None:
            raise IllegalActionError("001 A LIST OF ACTIONS", f"{c.name}: 001 has no touch-spell delivery by attack "
                                                              f"({d.spell!r}); declare a cast")
        if d.drop_and_draw:
            self._fixed(c, replace(d, kind=ActionKind.MISC, phase=state.ready, drop_and_draw=False,
                                   note="draw & ready"), _spec("draw_and_ready"), state)
        if d.reposition:
            if state.ready != 1:
                raise IllegalActionError("001 Movement: Shift", f"{c.name}'s repositioning step is a Shift, made "
                                                                f"during First Phase before anything else")
            self._move(c, replace(d, kind=ActionKind.MOVE, phase=1, feet=10, reposition=False), _spec("shift"), 1, 1,
                       "001 Movement: Shift", [])
        weapons = _weapons(c, d)
        k = next(i for i, x in enumerate(state.regular) if x is d)
        if k == 0:
            state.base, state.base_floor = state.ready, state.floor
            state.parts = self._routine(c, state)
        dues = state.parts[k]
        due = max(_due(state.base, dues[0][0]), state.ready if k else 0)
        due_floor = max(_due(state.base_floor, dues[0][0]), state.floor if k else 0)
        placed = self._check_due(c, d, spec, due, due_floor, dues[0][1])
        if placed is None:
            return
        land, words = placed
        rushed = land == due - 1
        before = [i for i in self.items if i.c is c and i.kind is SpanKind.MOVE and i.status is Status.DONE and i.land < land]
        if before and before[-1].spec.id == "half_move":
            words.append(f"with a half-move: {before[-1].spec.penalty:+d} to the attack (001 Half-Move)")
        if before and before[-1].spec.id in ("charge", "counter_charge"):
            words.append(f"after a {before[-1].spec.name.lower()}: {before[-1].spec.penalty:+d} to hit, +2 damage "
                         f"(001 Charge)")
        if spec.penalty:
            words.append(f"{spec.name}: {spec.penalty:+d}")
        target = f" -> {d.target}" if d.target else ""
        missile = _is_missile(c, d)
        routine = sum(len(p) for p in state.parts) > 1
        if _is_monster(c) and routine:
            shift = land - due if land <= 5 and due <= 5 else 0
            lands = [land] + [min(LAST, _due(state.base, phase) + shift) for phase, _, _ in dues[1:]]
            split = len(dues) > 1
            for i, (at, (_, why, _)) in enumerate(zip(lands, dues, strict=True)):
                names = weapons[i].name if split else " + ".join(w.name for w in weapons)
                self.items.append(_Item(c, d, spec, SpanKind.ATTACK, f"{names}{target}", at, at,
                                        f"001 B. Multiple attack sequences: {self.options.monster_routine.value}",
                                        words if i == 0 else [why], d.target,
                                        weapons=(weapons[i],) if split else weapons, missile=missile,
                                        rushed=rushed and i == 0, what=names))
        else:
            lands = [land]
            rule = f"001 B. Action Facility & Phases: {dues[0][2].label}"
            if routine:
                words.append(f"attack {k + 1} of {len(state.regular)} this round: the first comes a phase early, "
                             f"the next ones late (001 B. Multiple attack sequences)")
                rule = "001 B. Multiple attack sequences"
            names = " + ".join(w.name for w in weapons)
            self.items.append(_Item(c, d, spec, SpanKind.ATTACK, names + target, land, land,
                                    rule, words, d.target, weapons=weapons, missile=missile, rushed=rushed, what=names))
        state.ready = state.floor = _following(max(lands))

    def _routine(self, c: Combatant, state: _Plan) -> list[list[tuple[int, str, Facility]]]:
        """For each regular attack this round, (phase from a fresh round, why, facility) of each part."""
        if _is_monster(c):
            parts = [(d, w) for d in state.regular for w in _weapons(c, d)]
            facilities = [weapon_facility(c, w, self.options) for _, w in parts]
            phases = routine_phases(self.options.monster_routine, [f for f, _ in facilities],
                                    [d.target for d, _ in parts])
            if self.options.monster_routine is not Routine.ALL_AT_ONCE:
                self.notes.append(f"{c.name}'s routine is {self.options.monster_routine.value}: parts in "
                                  f"{', '.join(_name(p) for p in phases)} (001 B [open question], option).")
            out: list[list[tuple[int, str, Facility]]] = []
            i = 0
            for d in state.regular:
                n = len(_weapons(c, d))
                if self.options.monster_routine is Routine.ALL_AT_ONCE:
                    slowest = max(facilities[i:i + n], key=lambda fw: fw[0])
                    whole = f"{slowest[1]}, the listed Attack Facility used unaltered" + (" for every part" if n > 1 else "")
                    out.append([(phases[i], whole, slowest[0])] * n)
                else:
                    out.append([(phases[i + j], facilities[i + j][1], facilities[i + j][0]) for j in range(n)])
                i += n
            return out
        slowest_each = [max((weapon_facility(c, w, self.options) for w in _weapons(c, d)), key=lambda fw: fw[0])
                        for d in state.regular]
        phases = attack_phases(slowest_each[0][0], len(state.regular))
        return [[(phases[k], slowest_each[k][1], slowest_each[k][0])] for k in range(len(state.regular))]

    def _cast(self, c: Combatant, d: Declaration, spec: ActionSpec, state: _Plan) -> None:
        spell = c.spell(d.spell)
        phase, why = spell_facility(spell, spec)
        if d.reposition:
            if state.ready != 1:
                raise IllegalActionError("001 Movement: Shift", f"{c.name}'s repositioning step is a Shift, made "
                                                                f"during First Phase")
            self._move(c, replace(d, kind=ActionKind.MOVE, phase=1, feet=10, reposition=False), _spec("shift"), 1, 1,
                       "001 Movement: Shift", [])
        due, due_floor = _due(state.ready, phase), _due(state.floor, phase)
        placed = self._check_due(c, d, spec, due, due_floor, why)
        if placed is None:
            return
        land, words = placed
        if land < state.ready:  # rushed into a phase the caster is still busy in (a move, an item)
            raise IllegalActionError("001 B. Action Speeds", f"{c.name} is busy until {_name(state.ready)}: a spell is "
                                                             f"channelled from when its caster is free, so {spell.name} "
                                                             f"cannot be rushed to {_name(land)}")
        channel = max(state.ready, land - phase + 1)
        words.append(f"channelled from {_name(channel)}; loosed on its side's turn in the missiles & magic step, it "
                     f"takes effect with every missile and spell of the phase (001 Magic)")
        label = ("reads " if spec.id == "scroll" else "uses " if spec.id == "item" else "casts ") + spell.name
        self.items.append(_Item(c, d, spec, SpanKind.CAST, label + (f" -> {d.target}" if d.target else ""), channel, land,
                                f"001 {spec.section}: {spec.name}", words, d.target, what=label))
        state.ready = state.floor = _following(land)

    # ------------------------------------------------------------ extra attacks (001 B Optional Rule)

    def _extra_attacks(self) -> None:
        rule = "001 B. Optional Rule: Relative Action Facilities"
        for c, d in self.extras:
            if not self.options.relative_facility_extra_attack:
                raise IllegalActionError("001 B. Multiple attack sequences",
                                         f"{c.name} has {c.attacks_in_round(self.encounter.round, _weapons(c, d)[0])} "
                                         f"attack(s) in round {self.encounter.round} and declares another")
            if d.target is None:
                raise IllegalActionError(rule, f"{c.name}'s extra attack needs a target whose facility is slower")
            mine = max(weapon_facility(c, w, self.options, explain=False)[0] for w in _weapons(c, d))
            foe = self.people[d.target]
            blows = sorted((i for i in self.items if i.c is foe and i.kind is SpanKind.ATTACK and i.status is Status.DONE),
                           key=lambda i: i.land)
            arms = blows[0].weapons if blows else foe.weapons[:1]
            theirs = max(weapon_facility(foe, w, self.options, explain=False)[0] for w in arms) if arms else None
            slower = blows[0].land if blows else int(theirs or 0)
            if theirs is None or theirs - mine < 3:
                raise IllegalActionError(rule, f"{c.name} ({mine.label}) is not three facility steps quicker than "
                                               f"{foe.name} ({theirs.label if theirs else 'no weapon'})")
            if d.phase != slower:
                raise IllegalActionError(rule, f"{c.name}'s extra attack comes in {foe.name}'s slower phase, "
                                               f"{_name(slower)}, not phase {d.phase}")
            weapons = _weapons(c, d)
            names = " + ".join(w.name for w in weapons)
            self.items.append(_Item(c, d, action_for(c, d), SpanKind.ATTACK, f"{names} -> {d.target} (extra)",
                                    d.phase, d.phase, rule,
                                    [f"{mine.label} against {foe.name}'s {theirs.label}: three steps quicker buys "
                                     f"another attack in that slower phase, at {self.options.extra_attack_penalty:+d} "
                                     f"(optional rule)"], d.target, weapons=weapons, missile=_is_missile(c, d),
                                    what=names))

    def _initiative_moves(self) -> None:
        """001 Withdrawal needs the opponent to possess initiative; 001 Retreat needs the character to."""
        for item in self.items:
            if item.spec.id not in ("withdrawal", "retreat") or item.status is not Status.DONE:
                continue
            mine, theirs = self.rank[item.c.side], self.rank[self.people[str(item.target)].side]
            needs, has = ("the opponent", theirs < mine) if item.spec.id == "withdrawal" else (item.c.name, mine < theirs)
            if has:
                item.why.append(f"{needs} possesses initiative, so the {item.spec.name.lower()} can be tried")
            else:
                item.status = Status.CANCELLED
                item.why.append(f"cancelled: {item.spec.name} needs {needs} to possess initiative, and the ordering "
                                f"check says otherwise")

    # ------------------------------------------------------------ distractions (001 Delays & Distractions)

    def _distractions(self) -> None:
        check = self.options.distraction_check
        for item in [i for i in self.items if i.spec.id in ("parley", "spectacle", "bait")]:
            if check is None:
                item.why.append("001 asks [what sort of check?]: the referee rules whether it works "
                                "(option distraction_check rolls one).")
                continue
            succeeds_on = check.succeeds_on
            total = self.roller.roll_total(check.dice, f"{item.spec.name.lower()}: {item.c.name}, phase {item.start}",
                                           classify=lambda t: t >= succeeds_on).total
            if total < succeeds_on:
                item.why.append(f"The check ({check.dice}, {check.succeeds_on}+) rolls {total}: it fails.")
                continue
            item.why.append(f"The check ({check.dice}, {check.succeeds_on}+) rolls {total}: it works.")
            if item.spec.id == "parley":
                item.why.append("Attention is had; the referee runs the parley.")
                continue
            foes_only = item.spec.id == "bait"
            who = [c for c in self.encounter.combatants
                   if c is not item.c and (not foes_only or c.side != item.c.side)]
            item.why.append(f"{'The foes pause' if foes_only else 'Hostilities stop'} for a phase: "
                            f"{', '.join(c.name for c in who) or 'nobody'} act a phase later from {_name(item.start)} on.")
            paused = {c.name for c in who}
            for other in self.items:
                if (other.c.name in paused and other.status is Status.DONE and other.land != MORALE
                        and other.spec.step != "distractions" and other.land >= item.start):
                    other.land = LAST if other.land == LAST else _following(other.land)
                    if item.start <= other.start < LAST:
                        other.start = _following(other.start)
                    other.why.append(f"a phase later: {item.c.name}'s {item.spec.name.lower()} paused it")

    # ------------------------------------------------------------ continuation ([bracket] option)

    def _continuations(self) -> None:
        if not self.options.continuation:
            return
        for item in [i for i in self.items if i.kind is SpanKind.ATTACK and i.status is Status.DONE and i.target
                     and not i.missile]:
            if item.land >= LAST:
                continue
            foe = self.people[str(item.target)]
            need = item.c.thac0 - foe.armor_class
            roll = self.roller.roll_total("d20", f"to hit: {item.c.name} -> {foe.name}, {_name(item.land)}",
                                          classify=lambda t: t - need >= 5).total
            if roll - need < 5:
                continue
            at = _following(item.land)
            names = " + ".join(w.name for w in item.weapons)
            self.items.append(_Item(item.c, item.decl, item.spec, SpanKind.ATTACK,
                                    f"{names} -> {foe.name} (continuation)", at, at,
                                    "001 B. [Continuation] (open question, option)",
                                    [f"The attack in {_name(item.land)} rolled {roll} against {need} needed: 5 or "
                                     f"more over earns an added attack in {_name(at)}, at "
                                     f"{self.options.continuation_penalty:+d}."], foe.name, weapons=item.weapons,
                                    what=names))

    # ------------------------------------------------------------ charges and clashes (001 Melee)

    def _charge_items(self) -> dict[tuple[str, str], _Item]:
        return {(i.c.name, i.target): i for i in self.items if i.spec.id in ("charge", "counter_charge")
                and i.status is Status.DONE and i.target}

    def _melee(self) -> list[_Item]:
        return [i for i in self.items if i.kind is SpanKind.ATTACK and not i.missile and i.status is Status.DONE and i.target]

    def _charges(self) -> None:
        """001 Charge and Counter-Charge: distances, and the clash both end in."""
        charges = self._charge_items()
        melee = self._melee()
        for (who, target), item in charges.items():
            rule = f"001 Movement: {item.spec.name}"
            back = charges.get((target, who))
            if item.spec.id == "counter_charge" and back is None:
                raise IllegalActionError(rule, f"{who} counter-charges {target}, who does not charge {who}")
            gap = self.distance.get(frozenset((who, target)))
            if gap is not None:
                reach = sum(move_001(Move001.CHARGE, x.c.movement).feet for x in (item, back) if x is not None)
                if gap < (item.spec.min_feet or 20) or gap > reach:
                    raise IllegalActionError(rule, f"{who} charges {target} from {gap}': a charge needs at least 20' "
                                                   f"and at most the charging distance, half running distance ({reach}')")
            if back is not None:
                mine = min((i.land for i in melee if i.c.name == who and i.target == target), default=None)
                theirs = min((i.land for i in melee if i.c.name == target and i.target == who), default=None)
                if mine is not None and theirs is not None and mine != theirs:
                    raise IllegalActionError(rule, f"a Charge & Counter-Charge ends with a Clash in which both attack: "
                                                   f"{who} strikes in {_name(mine)}, {target} in {_name(theirs)}")

    def _reach(self) -> None:
        """A melee attack needs its target within 5' once the movement of its phase is done."""
        for i in self._melee():
            gap = self.distance.get(frozenset((i.c.name, str(i.target))))
            if gap is None:
                continue
            limit = (i.spec.max_feet or REACH) if i.spec.id == "overbear" else REACH
            closing = sum(m.feet for m in self.items if m.kind is SpanKind.MOVE and m.status is Status.DONE
                          and {m.c.name, m.closes_on} == {i.c.name, i.target} and m.land <= i.land)
            if gap - closing > limit:
                raise IllegalActionError("001 Movement",
                                         f"{i.c.name} is {gap}' from {i.target} and the movement up to "
                                         f"{_name(i.land)} closes {closing}': a melee attack needs its target within "
                                         f"{limit}'. Move first")

    def _clashes(self) -> None:
        """001 Melee: Charge Attack Resolution and Clash order blows by reach, ignoring initiative."""
        charges = self._charge_items()
        melee = self._melee()
        seen: set[frozenset[str]] = set()
        for blow in sorted(melee, key=lambda i: i.land):
            who, target = blow.c.name, str(blow.target)
            if frozenset((who, target)) in seen:
                continue
            seen.add(frozenset((who, target)))
            charge = charges.get((who, target))
            answer = min((j for j in melee if j.c.name == target and j.target == who), key=lambda j: j.land,
                         default=None)
            closed = any(m.kind is SpanKind.MOVE and m.status is Status.DONE and m.land <= blow.land
                         and {m.c.name, m.closes_on} == {who, target} for m in self.items)
            setter = next((r for r in self.items if r.kind is SpanKind.READY and r.c.name == target
                           and r.target in (None, who)), None)
            if charge is not None and setter is not None:
                answer = _Item(setter.c, setter.decl, setter.spec, SpanKind.ATTACK, f"set weapon -> {who}", blow.land,
                               blow.land, "001 Movement: Set to Receive Charge",
                               ["the weapon set against the charge strikes at the clash: +2 to attack, an extra "
                                "half die of damage"], who, weapons=setter.c.weapons[:1], what="set weapon")
                self.items.append(answer)
                setter.land = blow.land
            if answer is None or answer.land != blow.land:
                if charge is not None:
                    blow.slot, blow.rule = "first", "001 Melee: Charge Attack Resolution"
                    blow.why.append("attacks at the conclusion of a charge come first in the melee step: "
                                    "initiative is ignored")
                continue
            if charge is None and not closed:
                continue
            mine, theirs = _longest(blow.weapons), _longest(answer.weapons)
            blow.slot = "first" if mine >= theirs else "second"
            answer.slot = "first" if theirs >= mine else "second"
            for it in (blow, answer):
                if it.spec.id != "set_to_receive":
                    it.rule = "001 Melee: Charge Attack Resolution" if charge is not None else "001 Melee: Clash"
                it.why.append("initiative is ignored: the longest reach weapon attacks first; if reach is equal, "
                              "attacks are simultaneous")

    # ------------------------------------------------------------ the timeline

    def _tick(self, pos: int, step: str, slot: int) -> Tick:
        layout = self.layout
        if pos == LAST:
            return layout.last_actions
        if pos == MORALE:
            return layout.rally
        rounds, phase = (0, pos) if pos <= 5 else divmod(pos - NEXT, 5)
        if pos >= NEXT:
            rounds, phase = rounds + 1, phase + 1
        if self.collapse and rounds == 0 and step != "second":
            return layout.melee(phase, 1)
        return _STEP_TICKS[step](layout, phase, slot) + rounds * layout.ticks

    def _timeline(self) -> Timeline:
        self.collapse = self.options.tied_phase_simultaneous and self.all_tied and len(self.sides) > 1
        clock = self.layout.clock
        spans: list[Span] = []
        for item in self.items:
            slot = self.rank[item.c.side]
            spans.append(self._span(item, slot, clock))
        spans += self._morale(spans)
        spans = self._ruin(spans)
        for c in self.encounter.combatants:
            if c.surprised:
                spans.append(Span(c.name, c.side, SpanKind.SURPRISED, "surprised: no declarations", 1,
                                  self.layout.last_actions, SpanKind.SURPRISED, "001 A. Declare Intentions",
                                  f"{c.name} is surprised and acts only once the surprise has run its course."))
        order = {id(s): n for n, s in enumerate(spans)}
        spans.sort(key=lambda s: (s.end, s.start, order[id(s)]))
        self.notes.append("I. Morale & Record Keeping: rally, then all remaining morale checks, then all damage and "
                          "status changes are recorded (001 I).")
        return Timeline(FIVE_PHASE.id, clock, tuple(spans), tuple(self.notes), tuple(self.roller.log))

    def _span(self, item: _Item, slot: int, clock: Clock) -> Span:
        step = item.spec.step
        if item.status is Status.CANCELLED:
            start = end = self._tick(item.start, "phase start", slot)
        elif item.kind is SpanKind.CAST:
            start, end = self._tick(item.start, "phase start", slot), self._tick(item.land, "effects", slot)
        elif item.kind is SpanKind.ATTACK and item.missile:
            start, end = self._tick(item.land, "missiles & magic", slot), self._tick(item.land, "effects", slot)
        elif item.kind is SpanKind.ATTACK:
            how = {"first": ("melee", 1), "second": ("second", 2)}.get(item.slot, ("melee", slot))
            start = end = self._tick(item.land, how[0], how[1])
        elif item.kind is SpanKind.READY:
            start, end = self._tick(item.start, "phase start", slot), self._tick(item.land, "melee", slot)
        elif item.kind is SpanKind.EFFECT:
            start = end = self._tick(item.land, "phase start", slot)
        elif item.kind is SpanKind.MOVE:
            step = "melee" if step == "melee" and not item.spec.legs else "movement"
            start, end = self._tick(item.start, step, slot), self._tick(item.land, step, slot)
        elif step in ("melee", "distractions"):
            start, end = self._tick(item.start, step, slot), self._tick(item.land, step, slot)
        else:
            start, end = self._tick(item.start, "phase start", slot), self._tick(item.land, "phase end", slot)
        period = clock.period_of(end)
        label = period.label if period else ""
        if end > clock.ticks:
            label += " (next round)" if end <= 2 * clock.ticks else " (rounds on)"
        if self.collapse and item.land <= 5 and item.status is Status.DONE:
            label = f"phase {item.land}"
        return Span(item.c.name, item.c.side, item.kind, item.action, start, end, label, item.rule,
                    _sentences(item.why), target=item.target, status=item.status,
                    marks=_RUSHED if item.rushed else _RALLY if item.spec.id == "rally" else frozenset(), what=item.what)

    def _morale(self, spans: list[Span]) -> list[Span]:
        """001 Morale Check Due to Charge; 001 Break & Run's attacks from the rear."""
        out: list[Span] = []
        for item, span in zip(self.items, spans, strict=True):
            if item.status is not Status.DONE:
                continue
            giant_charge = item.spec.id == "charge" and not self.options.giant_size.larger_than(item.c.size)
            if giant_charge and item.target is not None:
                side = self.people[item.target].side
                for c in self.encounter.combatants:
                    if c.side == side and c.level < 4:
                        out.append(Span(c.name, c.side, SpanKind.MORALE, f"morale check: charged by {item.c.name}",
                                        span.end, span.end, span.period, "001 Morale Check Due to Charge",
                                        f"Charged by a {item.c.size.value} creature, every non-Heroic creature "
                                        f"(fewer than 4 HD) makes a morale check at once; its effects apply at once.",
                                        target=item.c.name))
            if item.spec.id == "break_and_run":
                for c in self.encounter.combatants:
                    gap = self.distance.get(frozenset((c.name, item.c.name)))
                    if c.side == item.c.side or gap is None or gap > 10:
                        continue
                    words = ("suffers an immediate attack from the rear" if gap <= REACH else
                             "may be attacked, without bonus, by a close foe free to shift to the line of flight")
                    out.append(Span(c.name, c.side, SpanKind.OPPORTUNITY, f"may attack {item.c.name} as it flees",
                                    span.start, span.start, span.period, "001 Movement: Break & Run",
                                    f"{item.c.name} breaks and runs and {words}.", target=item.c.name))
        return out

    def _ruin(self, spans: list[Span]) -> list[Span]:
        """A hit the referee reports on a caster while the spell is channelled ruins it."""
        out = []
        for span in spans:
            if span.kind is SpanKind.CAST and span.status is Status.DONE:
                ticks = [h.tick for h in self.encounter.hits if h.target == span.actor and span.start <= h.tick < span.end]
                if ticks:
                    hit = min(ticks)
                    span = replace(span, end=hit, status=Status.RUINED,
                                   why=f"{span.actor} is hit at {self.layout.clock.describe(hit)} while channelling "
                                       f"the spell: it is ruined.")
            out.append(span)
        return out


@dataclass(frozen=True)
class Disengaged:
    """What a round with a withdrawal or retreat leaves its figure for the next (:attr:`~combatkit.intent.Plan.carry`):
    001 Withdrawal, "the character may flee in the following round"; 001 Retreat, "Once clear, the character can
    scurry away from the fight beginning the next round"."""

    how: str
    """The action of 001's list it made: ``"withdrawal"`` or ``"retreat"``."""
    opponent: str
    """The figure it was made from."""


@dataclass
class _Plan:
    """Where a figure's round stands while its declarations are placed."""

    ready: int
    """The first position it is free (after the dice)."""
    floor: int
    """The first position it is free whatever the dice (the fewest phases every rolled cost could take)."""
    regular: list[Declaration]
    """Its attacks this round up to its number of attacks (more are extra attacks)."""
    base: int = 1
    """Where it was free when its first attack was placed: the routine counts from here."""
    base_floor: int = 1
    parts: list[list[tuple[int, str, Facility]]] = field(default_factory=list)
    """For each regular attack, (phase from a fresh round, why, facility) of each part."""

    def __init__(self, ready: int, floor: int, regular: list[Declaration], base: int = 1, base_floor: int = 1) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.ready = ready
        self.floor = floor
        self.regular = regular
        self.base = base
        self.base_floor = base_floor
        self.parts: list[list[tuple[int, str, Facility]]] = []


def _longest(weapons: tuple[Weapon, ...]) -> int:
    return max((list(Length).index(w.length) for w in weapons), default=0)


def _sentences(parts: list[str]) -> str:
    """Join reasons into plain sentences.

    >>> _sentences(["rushed one phase: -4", "Delayed."])
    'Rushed one phase: -4. Delayed.'
    """
    out = []
    for part in (p.strip() for p in parts):
        if part:
            out.append(part[0].upper() + part[1:] + ("" if part.endswith(".") else "."))
    return " ".join(out)


def _text(spec: ActionSpec) -> str:
    return f"{spec.name} (001 {spec.section}): {spec.text}" if spec.text else ""


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class FivePhase(TimingSystem):
    """001's five-phase action round as a timing system."""

    id = "five_phase"
    aliases: tuple[str, ...] = ("five phase", "five-phase", "5-phase", "five-phase ordering", "action facility", "001")
    title = "Five-phase action rounds"
    source = "001 A-I, A LIST OF ACTIONS"
    clock = CLOCK
    options_class = FivePhaseOptions
    declaration_phases = tuple(_name(p) for p in range(1, MORALE + 1))  # phases 1-5, Last Actions, morale
    declaration_fields = frozenset({"feet", "reposition", "drop_and_draw"})
    hit_tick = "tick"

    roll_keys: tuple[str, ...] = (
        "ordering: <side>", "<action>: <name>, phase <phase>", "<action> takes effect: <name>, phase <phase>",
        "<check>: <name>, phase <phase>", "to hit: <name> -> <target>, <phase name>",
        "morale: <name> [round <r>, tick <t>]", "rally: <name> [round <r>, tick <t>]",
    )
    """``<action>`` is a name from 001's list of actions whose phase cost or effect is a die roll;
    ``<check>`` a distraction or other check (``FivePhaseOptions``). A resolved round rolls 001's morale checks
    and rallies (``morale: Pip [round 1, tick 2]``; :mod:`combatkit.resolution.morale`)."""

    rules = SystemRules(
        "001", "001 Play Out Phases: a mortal stroke won't result in death until the end of the melee (missiles "
               "and spells: until all have been launched) in the phase",
        "001 Play Out Phases: the fallen figure's later actions do not happen",
        Retarget.LOST, "001 A. Declare Intentions: targets are declared for the round", 5,
        falls_at_step_end=True, flight=Flight.BREAK_AND_RUN, surprised_sits_out="001 A. Declare Intentions",
        durations_from_next_round="001 Magic: for purposes of spell duration, the first round after a spell is cast "
                                  "counts as the first round",
        morale_step="morale: checks",
        rally="001 I. Morale & Record Keeping: Rally (the morale step's, beside any action of the round)")
    maneuvers = frozenset(Maneuver)
    """001's Charge, Withdrawal, Break & Run, Overbear and Unarmed/Body Attack are entries of its list."""

    def _schedule(self, encounter: Encounter, roller: Roller, options: FivePhaseOptions) -> Timeline:
        """Place one round's declarations in its five phases, or raise the rule they break."""
        return _Round(encounter, roller, options).run()

    def note_suggestions(self, kind: ActionKind, maneuver: Maneuver | None = None) -> list[str]:
        """001 A LIST OF ACTIONS: each action of ``kind`` and ``maneuver`` by its name, or else the first of
        its words, that :func:`action_for` reads back as that action (an attack's with a missile or melee
        weapon as the action needs), in the list's order.

        >>> FIVE_PHASE.note_suggestions(ActionKind.MOVE)
        ['shift', 'half-move', 'full move', 'take cover']
        >>> FIVE_PHASE.note_suggestions(ActionKind.MOVE, Maneuver.CHARGE)
        ['charge', 'counter-charge']
        """
        out = []
        for spec in action_list():
            if spec.kind is not kind or not spec.answers(maneuver):
                continue
            weapon = Weapon("w", kind=WeaponKind.MISSILE if spec.weapon == "missile" else WeaponKind.MELEE)
            who = Combatant("x", "x", weapons=(weapon,))
            said = next((text for text in (spec.name.lower(), *spec.words) if action_for(
                who, Declaration("x", 1, kind, note=text, feet=None, maneuver=maneuver)).id == spec.id), None)
            if said and said not in out:
                out.append(said)
        return out

    def _plan_actor(self, ap: ActorPlan) -> None:
        """001: each intent in the phase its facility falls due, counted from when the figure is free
        (001 B): after a shift (10' or less, no delay), a half-move or a charge (a phase: the attack a
        phase later), a full move (two half-moves, no attack), or an action of the list (its cost in
        phases; a printed range counts its most)."""
        c = ap.c
        options = ap.options if isinstance(ap.options, FivePhaseOptions) else FivePhaseOptions()
        ready = 1  # the phase the figure is free from
        disengaging: ActionSpec | None = None  # a withdrawal or retreat placed this round, and from whom
        disengaged_from: str | None = None
        i = 0
        while i < len(ap.steps):
            step, intent = ap.steps[i]
            refined = ap.refined(step, intent)
            if refined is not None:
                ready = max(ready, max(d.phase for d in refined) + 1)
                i += 1
                continue
            intent = ap.unarmed(intent)
            rally = action_declaration(ap, intent, MORALE) if intent.kind is IntentKind.ACTION else None
            if rally is not None and action_for(c, rally).step == "rally":
                # 001 I: a rally is the morale step's, after Last Actions: placed there whatever else the figure does
                # this round (a full move or a flight too, which _Round._plan allows beside it), and no later for it
                ap.add(step, intent, [rally], "001 I. Morale & Record Keeping: Rally",
                       f"{intent.said()}: Rally, in {ap.label(MORALE)}")
                i += 1
                continue
            if ready > LAST:
                ap.defer(step, intent, "001 B, H: a full move allows no other action; after Last Actions the "
                                       "round is over", f"{intent.said()}: nothing of the round is left for it")
                i += 1
                continue
            k = intent.kind
            if k is IntentKind.MOVE and intent.maneuver is Maneuver.FLEE and disengaging is not None:
                # 001 Withdrawal: "the character may flee in the following round" (Retreat: "beginning the next
                # round"); the flight is that round's first intent, and a Flight if the figure is still clear
                ap.defer(step, intent, f"001 Movement: {disengaging.name}",
                         f"{intent.said()}: after a {disengaging.name.lower()} the character may flee in the "
                         f"following round")
                ap.carry = Disengaged(disengaging.id, str(disengaged_from))
                ready = NEXT
                i += 1
                continue
            if k is IntentKind.MOVE and intent.maneuver in (Maneuver.FLEE, Maneuver.WITHDRAW):
                # 001 Movement: a withdrawal names the opponent it is made from (ap.declaration leaves a move
                # away without a target: elsewhere a move's target is the figure it closes on)
                made_from = intent.target if intent.maneuver is Maneuver.WITHDRAW else None
                clear = self._clear(ap) if intent.maneuver is Maneuver.FLEE else None
                out = [ap.declaration(intent, min(ready, 5), ActionKind.MOVE, target=made_from,
                                      **({"note": "flight"} if clear else {}))]
                spec = action_for(c, out[0])
                ap.add(step, intent, out, f"001 Movement: {spec.name}", f"{intent.said()}: "
                                                                         f"{spec.name} ({ap.where(out)})"
                       + (f"; {clear}" if clear else ""))
                if spec.id in ("withdrawal", "retreat"):
                    disengaging, disengaged_from = spec, made_from
                ready = NEXT if intent.maneuver is Maneuver.FLEE else ready + 1
            elif k is IntentKind.ATTACK or (k is IntentKind.MOVE and _pair(ap.steps, i)):
                move = (step, intent) if k is IntentKind.MOVE else None
                attack = ap.steps[i + 1] if move else (step, intent)
                ready = self._plan_attack(ap, move, (attack[0], ap.unarmed(attack[1])), ready, options)
                i += 1 if move else 0
            elif k is IntentKind.MOVE:
                ready = self._plan_move(ap, step, intent, ready)
            elif k is IntentKind.CAST:
                spell = ap.spell(intent)
                d = ap.declaration(intent, 1, ActionKind.CAST)
                phase, how = spell_facility(spell, action_for(c, d))
                due = _due(ready, phase)
                out = [replace(d, phase=due)]
                ap.add(step, intent, out, "001 B. Action Facility & Phases: a spell uses its Casting Time",
                       f"{intent.said()}: {how}, so it goes off in {ap.label(due)}")
                ready = due + 1
            else:
                if k is IntentKind.READY:
                    d = ready_declaration(ap, intent, min(ready, 5), system_reads_components=False)
                elif k is IntentKind.HOLD:
                    d = ap.declaration(intent, min(ready, 5), ActionKind.READY)
                else:
                    d = action_declaration(ap, intent, min(ready, 5))
                spec = action_for(c, d)
                cost = spec.phases if isinstance(spec.phases, int) else Dice.parse(spec.phases).maximum
                ap.add(step, intent, [d], f"001 A LIST OF ACTIONS: {spec.name}",
                       f"{intent.said()}: {spec.name}, from {ap.label(d.phase)}"
                       + (f" ({spec.phases} phases; the next action waits for the most)" if cost > 1 else ""))
                ready = d.phase + max(1, cost)
            i += 1

    @staticmethod
    def _clear(ap: ActorPlan) -> str:
        """Why a flight is a Flight, not a Break & Run: last round the figure withdrew or retreated from an
        opponent who is not within reach now (001 Flight: "After a successful withdrawal or retreat, a character
        has enough space from the opponent to no longer be engaged"); ``""`` when it is not so."""
        left = ap.carried
        if not isinstance(left, Disengaged):
            return ""
        gap = ap.gap(left.opponent)
        if gap is not None and gap <= REACH:
            return ""  # the opponent moved with it and re-engaged (001 Withdrawal): it breaks and runs
        return (f"clear of {left.opponent} after last round's {_spec(left.how).name.lower()}, it flees as a Flight "
                f"(001 Flight)")

    def _plan_move(self, ap: ActorPlan, step: int, intent: Intent, ready: int) -> int:
        """A move of its own: a shift (10' or less), a half-move (half the allotment) or a full move (001 Movement)."""
        c = ap.c
        gap = ap.gap(intent.target)
        feet = intent.feet if intent.feet is not None else (
            max(0, gap - REACH) if gap is not None and intent.target and not intent.away else None)
        if feet is None or feet > 10 or ready > 1:
            how = "half-move" if feet is None or feet <= c.movement * 10 // 2 else "full move"
        else:
            how = "shift"
        if how == "full move" and feet is not None:
            feet = min(feet, c.movement * 10)
        out = [ap.declaration(intent, min(ready, 5), ActionKind.MOVE, feet=feet,
                              note=intent.note or how if intent.maneuver is None else intent.note)]
        spec = action_for(c, out[0])
        ap.add(step, intent, out, f"001 Movement: {spec.name}", f"{intent.said()}: {spec.name}, "
                                                                 f"{ap.where(out)}")
        return ready + {"shift": 0, "half-move": 1}.get(how, NEXT)  # 001 B: a full move allows no other action

    def _plan_attack(self, ap: ActorPlan, move: tuple[int, Intent] | None, attack: tuple[int, Intent], ready: int,
                     options: FivePhaseOptions) -> int:
        """Close first when out of reach (a shift, a half-move: one attack a phase later; a full move: none this
        round), then each attack in the phase its facility falls due (001 B Multiple attack sequences)."""
        c, name = ap.c, ap.name
        step, intent = attack
        weapons = ap.weapons(intent)
        names = ap.named(intent, weapons)
        striking = weapons or c.striking()  # no weapon: its fists, their facility by its size
        facility = max(weapon_facility(c, w, options, explain=False)[0] for w in striking)
        attacks = (routines(c, weapons, ap.round) if not _is_monster(c) or len(weapons) == 1
                   else 1)
        attacks = min(attacks, ap.blows(intent, weapons))
        if attacks <= 0:
            if move is not None:
                ap.defer(move[0], move[1], "001 B. Multiple attack sequences", f"{name} has no attack left this "
                                                                               f"round to close for")
            ap.defer(step, intent, "001 B. Multiple attack sequences", ap.spent(intent, weapons))
            return ready
        gap = ap.gap(intent.target)
        shoot = ap.shoots(weapons)
        close = gap - REACH if not shoot and gap is not None and gap > REACH else 0
        moved: list[Declaration] = []
        if move is not None and move[1].maneuver is Maneuver.CHARGE:
            moved = [ap.declaration(move[1], min(ready, 5), ActionKind.MOVE, target=intent.target)]
            ready, attacks = ready + 1, 1
        elif close:
            # the move that closes: the intent's own, else one made of the attack (only when there is ground to close)
            mover = move[1] if move is not None else replace(intent, kind=IntentKind.MOVE, weapons=(), blows=None,
                                                             maneuver=None)
            if close <= 10 and ready == 1:
                moved = [ap.declaration(mover, 1, ActionKind.MOVE, target=intent.target, feet=close, note="shift")]
            elif close <= c.movement * 10 // 2:
                moved = [ap.declaration(mover, min(ready, 5), ActionKind.MOVE, target=intent.target, feet=close,
                                        note="half-move")]
                ready, attacks = ready + 1, 1
            else:
                moved = [ap.declaration(mover, min(ready, 5), ActionKind.MOVE, target=intent.target,
                                        feet=min(close, c.movement * 10), note="full move")]
                if move is not None:
                    ap.add(move[0], move[1], moved, "001 Movement: Full Move",
                           f"{name} closes on {intent.target} with a full move ({ap.where(moved)})")
                    ap.defer(step, intent, "001 B: a full move involves two half-moves and doesn't allow for any "
                                           "other actions", f"{name} cannot strike {intent.target} after a full move")
                else:
                    ap.add(step, intent, moved, "001 B: a full move involves two half-moves and doesn't allow for "
                                                "any other actions",
                           f"{name} is {gap}' from {intent.target}: it closes with a full move ({ap.where(moved)}) "
                           f"and strikes next round", PlacementKind.NEAREST)
                return NEXT
        blows: list[Declaration] = []
        if _is_monster(c) and attacks > 1 and options.monster_routine is not Routine.ALL_AT_ONCE:
            # a routine spread over the round, in the phases the round gives its parts (_routine); all at once, the
            # first attack a phase early and the next late, as an experienced fighter's
            phases = routine_phases(options.monster_routine, [facility] * attacks, [intent.target] * attacks)
        else:
            phases = attack_phases(facility, attacks)
        for phase in phases:
            due = _due(ready, phase)
            blows.append(ap.declaration(intent, due, ActionKind.ATTACK, weapons=names))
            if due >= LAST:
                break  # one Last Action; a later attack would fall in the next round (001 H)
        ap.spend(striking, blows)
        spec = action_for(c, blows[0])
        rule = f"001 B. Action Facility & Phases: {facility.label}"
        verb = "shoots" if shoot else "strikes"
        whom = f" {intent.target}" if intent.target else ""
        if move is not None:
            how = moved and action_for(c, moved[0]).name
            ap.add(move[0], move[1], moved, f"001 Movement: {how}" if moved else "001 Movement",
                   f"{name} closes on {intent.target}: {how}, {ap.where(moved)}" if moved else
                   f"{name} needs no move to reach {intent.target}",
                   PlacementKind.PLACED if moved else PlacementKind.NEAREST)
            ap.add(step, intent, blows, rule, f"{name} {verb}{whom} with a {facility.label} "
                                              f"{spec.name.lower()}: {ap.where(blows)}")
        elif moved:
            ap.add(step, intent, moved + blows, rule, f"{name} is {gap}' from {intent.target}, so it closes first "
                                                      f"({action_for(c, moved[0]).name}), then {verb}: "
                                                      f"{ap.where(moved + blows)}", PlacementKind.NEAREST)
        else:
            ap.add(step, intent, blows, rule, f"{name} {verb}{whom} with a {facility.label} "
                                              f"{spec.name.lower()}: {ap.where(blows)}")
        return blows[-1].phase + 1

    def blow_terms(self, attacker: Combatant, span: Span, declaration: Declaration, moves: Sequence[Declaration],
                   set_against_charge: bool) -> BlowTerms:
        """001's own terms on a declared blow: the action's penalty (001 A LIST OF ACTIONS), the
        movement before it (a half-move; a charge, +2 damage), a rushed action (-4, 001 B), and a
        weapon set against a charge (+2, an extra half die of damage)."""
        terms: list[tuple[str, int, str]] = []
        damage, half_die = 0, False
        spec = action_for(attacker, declaration)
        if spec.penalty and spec.kind is ActionKind.ATTACK:
            terms.append((spec.name.lower(), spec.penalty, f"001 {spec.section}: {spec.name}"))
        before = [d for d in moves if d.phase <= declaration.phase]
        if before:
            move = action_for(attacker, before[-1])
            if move.id == "half_move":
                terms.append(("with a half-move", move.penalty, "001 Movement: Half-Move"))
            elif move.id in ("charge", "counter_charge"):
                terms.append(("charge", move.penalty, "001 Movement: Charge or Counter-Charge"))
                damage += 2
        if "rushed" in span.marks:
            terms.append(("rushed", -4, "001 B. Action Facility & Phases: rushing"))
        if set_against_charge:
            terms.append(("set to receive a charge", 2, "001 Movement: Set to Receive Charge"))
            half_die = True  # 001 Melee: "inflicts an extra half die of damage on a successful attack"
        if not terms and not damage and not half_die:
            return NO_TERMS
        return BlowTerms(tuple(terms), damage, 1, half_die)


FIVE_PHASE: Final = register(FivePhase())
odds = FIVE_PHASE.odds
