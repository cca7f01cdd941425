"""Movement: how far a figure goes in a phase, how fast it may speed up or slow down, and
what a charge, a withdrawal or a flight costs (000 §1 F, §2 D; 001 Movement; 002 III.D,
Charging, Breaking Off).

Every function is pure: numbers in, numbers (or a small frozen value) out, the seed rule
cited where it is defined. The resolver (:mod:`combatkit.resolution`) calls them to move
figures and resolve charges; a teaching view can call them directly.

Units. MV is the movement rate per round: MV 1 is 10 feet a round indoors and 10 yards
outdoors (PH 2e), so a "square" of 000 Table 3 is 10 feet (or yards). Distances returned
here are in the :class:`Scale`'s unit (feet indoors, yards outdoors).

>>> table_3(12)
Table3Row(mv=12, squares_per_phase=4, max_per_half_segment=1, min_per_half_segment=0)
>>> phase_allowance(12)
40
>>> charge(Speed(base=18, current=54), 130, Scale.OUTDOORS).overrun
50

Readings this module takes where the seeds are silent or inconsistent (the other reading
is an argument where it is a real choice):

* 000 Table 3 prints rows for MV 3, 6, ... 72 and "etc.". Its columns are MV/3 squares a
  phase, at most ceil(squares / 6) and at least floor(squares / 6) a half-segment (the
  minimum is printed only where it changes, "the previously listed minimum" holding for
  the rows between). An MV that is not a multiple of 3 gets ``MV // 3`` whole squares a
  phase (never more than 1/3 MV); :func:`phase_allowance` keeps the exact feet
  (``MV * 10 // 3``), as Phase System I's scheduler does.
* 000's paladin example says the horse is "spurred to triple movement--48" and then that
  "the paladin will cover 180 yards during the phase". 180 yards is 1/3 of MV 54 (a medium
  warhorse's 18, tripled); 1/3 of 48 is 160 yards. The yards and the overrun (180 - 130 =
  50) are what the example works out, so its test uses MV 54; with 48 the same rule gives
  160 yards and an overrun of 30 (also a test).
* 000 Acceleration: "from standstill to walking speed (base MV) is automatic", and
  "additionally" up to 2x base more a phase: a standing figure can reach 3x base in one
  phase, 5x in two. The PH Strength roll for the new speed and the Constitution checks for
  top speed are the Player's Handbook's (p. 120), not in the seeds: not modelled.
* 000 Deceleration: "at least half his current MV per phase" is rounded up to a whole
  square; the DEX check is d20 at or under DEX plus the (negative) modifier.
* 000 Withdrawing: "cut movement to 1/3 MV base" is 1/3 of the phase's 1/3 MV ("a 12 MV
  into just over 1 per phase"): ``MV * 10 // 9`` feet a phase.
* 002 III.D "Faster movement comes at the sacrifice of any combat": the standard action
  taken as a second move (002 Action Types I.A), i.e. twice the standard rate.
* 001 running is triple move (001 Flight), so charging distance (half running) is 1.5
  moves, as :mod:`combatkit.systems.five_phase` reads it.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from combatkit.dice import Roller
from combatkit.errors import RulesError, is_whole

__all__ = [
    "CHARGE_MIN_FACTOR",
    "MAX_FACTOR",
    "PRONE_AFTER_FAILED_STOP",
    "SQUARE",
    "ChargePlan",
    "ChargeResponse",
    "Deceleration",
    "FlightAttack",
    "Move001",
    "MoveAllowance",
    "MovementError",
    "Scale",
    "Speed",
    "Table3Row",
    "accelerate",
    "charge",
    "charge_rate_002",
    "charge_response",
    "deceleration_check",
    "decelerate",
    "flight_free_attack",
    "half_segment_squares",
    "max_speed_next_phase",
    "move_001",
    "move_002",
    "phase_allowance",
    "split_move_002",
    "table_3",
    "withdraw_allowance",
]

SQUARE: Final = 10
"""Feet (indoors) or yards (outdoors) in one 000 Table 3 square; also MV 1 for a round."""
MAX_FACTOR: Final = 5
"""000 §2 D Acceleration: "reaching maximum movement of 5x MV"."""
ACCELERATION_PER_PHASE: Final = 2
"""000 §2 D Acceleration: "up to 2x base MV per phase" beyond walking."""
DECELERATION_FACTORS: Final = 2
"""000 §2 D Deceleration: "may decelerate by 2 factors immediately"."""
CHARGE_MIN_FACTOR: Final = 2
"""000 §2 D Charging: "minimum of jogging speed, or base MV x 2"."""
PRONE_AFTER_FAILED_STOP: Final = "d4"
"""000 §2 D Deceleration: a failed DEX check means falling prone for 1d4 phases."""
PHASES_PER_ROUND: Final = 3
"""000 §1: movement happens in the three action phases, 1/3 MV each."""
HALF_SEGMENTS_PER_PHASE: Final = 6
"""000 Table 1: six half-segments in each of phases 1-3."""


class MovementError(RulesError):
    """A move the rules do not allow; ``rule`` cites the seed, the message names the value."""


class Scale(enum.Enum):
    """What MV 1 (one square) measures: 10 feet a round indoors, 10 yards outdoors (PH 2e)."""

    INDOORS = "feet"
    OUTDOORS = "yards"


def _mv(mv: int, what: str = "MV") -> int:
    if not is_whole(mv) or mv < 0:
        raise MovementError("000 §2 D Table 3", f"{what} is a whole number 0 or more, got {mv!r}")
    return mv


# ---------------------------------------------------------------- 000 §2 D Table 3


@dataclass(frozen=True)
class Table3Row:
    """One row of 000 §2 D Table 3: Movement Conversions."""

    mv: int
    """Current movement per round."""
    squares_per_phase: int
    """Total squares allowed per phase; "may not be exceeded regardless of half-segment movements"."""
    max_per_half_segment: int
    """Most squares in a single half-segment."""
    min_per_half_segment: int
    """Fewest squares in each half-segment "in order to maintain speed"."""


def table_3(mv: int) -> Table3Row:
    """000 §2 D Table 3 for a current MV: squares a phase, max and min squares a half-segment.

    >>> table_3(18), table_3(21)
    (Table3Row(mv=18, squares_per_phase=6, max_per_half_segment=1, min_per_half_segment=1), Table3Row(mv=21, squares_per_phase=7, max_per_half_segment=2, min_per_half_segment=1))
    """
    squares = _mv(mv) // PHASES_PER_ROUND
    return Table3Row(
        mv=mv,
        squares_per_phase=squares,
        max_per_half_segment=-(-squares // HALF_SEGMENTS_PER_PHASE),
        min_per_half_segment=squares // HALF_SEGMENTS_PER_PHASE,
    )


def phase_allowance(mv: int, scale: Scale = Scale.INDOORS) -> int:
    """Feet (or yards) a figure may move in one phase: 1/3 MV (000 §1 F, "a walking knight
    with a 12 MV can move 4 per phase"), rounded down.

    >>> phase_allowance(12), phase_allowance(10), phase_allowance(54, Scale.OUTDOORS)
    (40, 33, 180)
    """
    return _mv(mv) * SQUARE // PHASES_PER_ROUND


def half_segment_squares(mv: int, squares: int | None = None) -> tuple[int, ...]:
    """Squares moved in each of a phase's six half-segments (000 §2 D, Half-Segment
    Incremental Movement): ``squares`` (default the phase's full allowance) "divided evenly",
    each within Table 3's max and, while moving the full allowance, its min.

    >>> half_segment_squares(12), half_segment_squares(36), half_segment_squares(12, 2)
    ((0, 1, 1, 0, 1, 1), (2, 2, 2, 2, 2, 2), (0, 0, 1, 0, 0, 1))
    """
    row = table_3(mv)
    wanted = row.squares_per_phase if squares is None else squares
    if not is_whole(wanted) or not 0 <= wanted <= row.squares_per_phase:
        raise MovementError(
            "000 §2 D Table 3",
            f"MV {mv} allows 0..{row.squares_per_phase} squares a phase (may not be exceeded), got {wanted!r}",
        )
    n = HALF_SEGMENTS_PER_PHASE
    return tuple((i + 1) * wanted // n - i * wanted // n for i in range(n))


# ---------------------------------------------------------------- speed changes


@dataclass(frozen=True)
class Speed:
    """A figure's base MV and the MV it is moving at now (000 §2 D, Change of Current MV)."""

    base: int
    """Walking speed: the figure's MV."""
    current: int = 0
    """MV it is moving at now; 0 is standing still."""

    def __post_init__(self) -> None:
        _mv(self.base, "base MV")
        _mv(self.current, "current MV")
        if self.base == 0 and self.current:
            raise MovementError("000 §2 D", f"a figure with MV 0 cannot move, got current MV {self.current}")
        if self.base and self.current > MAX_FACTOR * self.base:
            raise MovementError(
                "000 §2 D Acceleration",
                f"the most is 5x base MV ({MAX_FACTOR * self.base} for base {self.base}), got {self.current}",
            )

    @property
    def factor(self) -> Fraction:
        """Current MV in multiples of base MV (jogging is 2, full speed 5)."""
        return Fraction(self.current, self.base) if self.base else Fraction(0)

    @property
    def accelerated(self) -> bool:
        """Faster than walking."""
        return self.current > self.base


def max_speed_next_phase(speed: Speed) -> int:
    """The highest MV a figure may announce for the next phase (000 §2 D Acceleration):
    walking speed automatically, then up to 2x base more, never over 5x base.

    >>> max_speed_next_phase(Speed(12)), max_speed_next_phase(Speed(12, 36))
    (36, 60)
    """
    return min(MAX_FACTOR * speed.base, max(speed.current, speed.base) + ACCELERATION_PER_PHASE * speed.base)


def accelerate(speed: Speed, to: int) -> Speed:
    """Announce a faster MV at the beginning of a phase (000 §2 D Acceleration).

    >>> accelerate(Speed(12), 36)
    Speed(base=12, current=36)
    >>> accelerate(Speed(12), 48)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    combatkit.movement.MovementError: from MV 0 (base 12) a figure may reach at most MV 36 this phase ...
    """
    _mv(to, "the new MV")
    if to < speed.current:
        raise MovementError("000 §2 D Acceleration", f"MV {to} is slower than the current {speed.current}: decelerate")
    top = max_speed_next_phase(speed)
    if to > top:
        raise MovementError(
            "000 §2 D Acceleration",
            f"from MV {speed.current} (base {speed.base}) a figure may reach at most MV {top} this phase "
            f"(base automatically, then up to 2x base more, 5x at most), not {to}",
        )
    return Speed(speed.base, to)


@dataclass(frozen=True)
class Deceleration:
    """What slowing down costs this phase (000 §2 D Deceleration)."""

    speed: Speed
    """The speed after the immediate cut of up to 2 factors (or to the wanted MV, if that is less of a cut)."""
    wanted: int
    """The MV the figure wants to reach by the end of the phase."""
    momentum_squares: int
    """Squares the figure must still move this phase: half the cut MV's phase allowance while
    it is still accelerated, else 0."""
    stop_within: int | None
    """Squares the figure asked to stop within (None: it takes its momentum)."""
    dex_check_modifier: int
    """The DEX check's modifier (-1 a square cut from the momentum); 0 when no check is needed."""

    @property
    def needs_check(self) -> bool:
        """Whether a DEX check is needed to stop that short."""
        return self.dex_check_modifier != 0


def decelerate(speed: Speed, to: int, within: int | None = None) -> Deceleration:
    """Slow from ``speed`` to MV ``to`` (000 §2 D Deceleration), stopping within ``within``
    squares if given.

    The seed's example: a human running at full speed (base 12 x 5 = 60) slows to a walk. She
    subtracts two factors at once, to MV 36 (12 squares a phase), must move at least 6 squares
    and may then stop; to "stop on a silver piece" she passes a DEX check at -6:

    >>> d = decelerate(Speed(12, 60), 12)
    >>> d.speed.current, d.momentum_squares, d.dex_check_modifier
    (36, 6, 0)
    >>> decelerate(Speed(12, 60), 0, within=0).dex_check_modifier
    -6
    """
    _mv(to, "the wanted MV")
    if to > speed.current:
        raise MovementError("000 §2 D Deceleration", f"MV {to} is faster than the current {speed.current}: accelerate")
    cut = max(to, speed.current - DECELERATION_FACTORS * speed.base)
    after = Speed(speed.base, cut)
    momentum = math.ceil(Fraction(cut // PHASES_PER_ROUND, 2)) if after.accelerated and to < cut else 0
    if within is not None and (not is_whole(within) or within < 0):
        raise MovementError("000 §2 D Deceleration", f"stopping distance is 0 or more squares, got {within!r}")
    short = max(0, momentum - within) if within is not None else 0
    return Deceleration(after, to, momentum, within, -short)


def deceleration_check(roller: Roller, name: str, dexterity: int, deceleration: Deceleration) -> tuple[bool, str]:
    """Roll the DEX check for stopping short (000 §2 D Deceleration): d20 at or under DEX plus
    the modifier; a failure means falling prone for 1d4 phases (no attacks, no dexterity bonus,
    opponents +4 to hit). Returns (passed, why). The roll's purpose is ``"DEX check (stopping): <name>"``.

    >>> deceleration_check(Roller(entered={"DEX check (stopping): Ria": 9}), "Ria", 16, decelerate(Speed(12, 60), 0, 0))
    (True, 'DEX check at -6 to stop within 0 squares: d20 = 9 against 10: passed')
    """
    if not deceleration.needs_check:
        return True, "no check needed: the figure takes its momentum"
    target = dexterity + deceleration.dex_check_modifier
    roll = roller.roll("d20", f"DEX check (stopping): {name}").total
    passed = roll <= target
    return passed, (
        f"DEX check at {deceleration.dex_check_modifier} to stop within {deceleration.stop_within} squares: "
        f"d20 = {roll} against {target}: {'passed' if passed else f'failed, prone for {PRONE_AFTER_FAILED_STOP} phases'}"
    )


# ---------------------------------------------------------------- charging (000 §2 D)


@dataclass(frozen=True)
class ChargePlan:
    """A charge worked out (000 §2 D Charging): how far, whether it reaches, how far it overruns."""

    covered: int
    """Distance moved in the phase at the charging speed (feet or yards)."""
    to_target: int
    """Distance to the target at the start of the phase."""
    reaches: bool
    """Whether the target is within this phase's movement; otherwise there is no charging attack."""
    overrun: int
    """"Continue to move past the target the full remaining movement": covered - to_target (0 if short)."""
    scale: Scale
    """Feet or yards."""

    def __str__(self) -> str:
        unit = self.scale.value
        if not self.reaches:
            return f"covers {self.covered} {unit} but the target is {self.to_target} {unit} away: no charging attack"
        return (f"covers {self.covered} {unit}, {self.to_target} to the target, overruns it by "
                f"{self.covered} - {self.to_target} = {self.overrun} {unit}")


def charge(speed: Speed, distance: int, scale: Scale = Scale.INDOORS) -> ChargePlan:
    """A charge at ``speed`` on a target ``distance`` away (000 §2 D Charging).

    The charger must be at least at jogging speed (2x base), covers its phase allowance at
    that speed, attacks on reaching the target and overruns it by the rest of the movement.
    The paladin example (see the module docstring for its MV):

    >>> str(charge(Speed(base=18, current=54), 130, Scale.OUTDOORS))
    'covers 180 yards, 130 to the target, overruns it by 180 - 130 = 50 yards'
    """
    if not is_whole(distance) or distance < 0:
        raise MovementError("000 §2 D Charging", f"the distance to the target is 0 or more, got {distance!r}")
    if speed.current < CHARGE_MIN_FACTOR * speed.base or speed.base == 0:
        raise MovementError(
            "000 §2 D Charging",
            f"a charger must be at least at jogging speed (base MV {speed.base} x 2 = {CHARGE_MIN_FACTOR * speed.base}), "
            f"got MV {speed.current}",
        )
    covered = phase_allowance(speed.current, scale)
    reaches = distance <= covered
    return ChargePlan(covered, distance, reaches, covered - distance if reaches else 0, scale)


class ChargeResponse(enum.Enum):
    """How a charged defender may answer (000 §2 D Charging)."""

    SIMULTANEOUS = "simultaneous"
    """It stated it was readying its weapon to receive the charge: a simultaneous return swing."""
    AFTER = "after"
    """It may counterattack after the charger's blow, if it survives it."""
    NONE = "none"
    """It already attacked this phase or has used its attacks for the round."""


def charge_response(*, set_to_receive: bool, attacked_this_phase: bool, attacks_left: int) -> tuple[ChargeResponse, str]:
    """The defender's answer to a charge, and why (000 §2 D Charging; the paladin-and-troll example).

    >>> charge_response(set_to_receive=False, attacked_this_phase=False, attacks_left=1)[0]
    <ChargeResponse.AFTER: 'after'>
    >>> charge_response(set_to_receive=True, attacked_this_phase=False, attacks_left=1)[0]
    <ChargeResponse.SIMULTANEOUS: 'simultaneous'>
    """
    if attacked_this_phase or attacks_left <= 0:
        why = "it has already attacked this phase" if attacked_this_phase else "it has used its attacks this round"
        return ChargeResponse.NONE, f"The defender may not respond: {why}."
    if set_to_receive:
        return ChargeResponse.SIMULTANEOUS, ("The defender readied its weapon to receive the charge: its return "
                                             "swing is simultaneous.")
    return ChargeResponse.AFTER, ("The charger's damage is applied before the defender can respond; if it survives "
                                  "it counterattacks before the charger moves out of range.")


# ---------------------------------------------------------------- withdrawing and fleeing (000 §2 D)


def withdraw_allowance(mv: int, scale: Scale = Scale.INDOORS) -> int:
    """Feet (or yards) a phase for a figure withdrawing from melee: 1/3 of its 1/3 MV
    (000 §2 D Withdrawing / Fleeing: "making a 12 MV into just over 1 per phase").

    >>> withdraw_allowance(12)
    13
    """
    return _mv(mv) * SQUARE // (PHASES_PER_ROUND * PHASES_PER_ROUND)


@dataclass(frozen=True)
class FlightAttack:
    """Whether an engaged opponent gets its free attack on a fleeing figure (000 §2 D)."""

    free_attack: bool
    """True: the opponent may make a free attack as the figure flees."""
    why: str
    """The reason, in words."""
    rule: str = "000 §2 D Withdrawing / Fleeing"
    """The seed rule."""


def flight_free_attack(*, fleeing_won_initiative: bool, opponent_struck_this_phase: bool, opponent_mv: int,
                       fleeing_mv: int, interposed: bool = False) -> FlightAttack:
    """A fleeing figure "may make a normal move, but is still a ripe target for a free attack",
    except that an initiative winner outruns it when the opponent struck earlier in the same
    phase and is no faster; and a party member interposing himself lets it flee unmolested.

    >>> flight_free_attack(fleeing_won_initiative=True, opponent_struck_this_phase=True, opponent_mv=9,
    ...                    fleeing_mv=12).free_attack
    False
    """
    if interposed:
        return FlightAttack(False, "Another party member interposes himself: the figure flees unmolested.")
    if fleeing_won_initiative and opponent_struck_this_phase and opponent_mv <= fleeing_mv:
        return FlightAttack(False, f"The initiative winner outruns the free attack: the opponent struck earlier this "
                                   f"phase and its MV {opponent_mv} is no greater than {fleeing_mv}.")
    return FlightAttack(True, "A fleeing figure makes a normal move but is a ripe target for a free attack.")


# ---------------------------------------------------------------- 001 and 002


class Move001(enum.Enum):
    """001's movement actions (A LIST OF ACTIONS: Movement), with their allotments."""

    SHIFT = "shift"
    """Up to 10' within the starting position; in First Phase it delays nothing."""
    HALF_MOVE = "half-move"
    """Half the move allotment; an attack with it is at -3 (and a phase later)."""
    FULL_MOVE = "full move"
    """Two half-moves; no other action."""
    SPLIT_MOVE = "split-move"
    """Up to 1/3 of the movement rate before the attack (-4), the rest after."""
    TAKE_COVER = "take cover"
    """Up to 1/3 of the movement to reach adjacent cover."""
    CHARGE = "charge"
    """At least 20' away, the target within charging distance (half of running, triple move)."""
    FLIGHT = "flight"
    """After a successful withdrawal or retreat: triple move."""


@dataclass(frozen=True)
class MoveAllowance:
    """How far a move may go and what it costs an attack made with it."""

    feet: int
    """The most the move covers."""
    attack_modifier: int
    """To-hit modifier of an attack made with this move."""
    damage_modifier: int
    """Damage modifier of an attack made with this move."""
    rule: str
    """The seed rule."""


def move_001(kind: Move001, mv: int) -> MoveAllowance:
    """001's allotment for a movement action (allotment = MV x 10 feet a round).

    >>> move_001(Move001.HALF_MOVE, 12)
    MoveAllowance(feet=60, attack_modifier=-3, damage_modifier=0, rule='001 Movement: Half-Move')
    >>> move_001(Move001.CHARGE, 12).feet
    180
    """
    allot = _mv(mv) * SQUARE
    table = {
        Move001.SHIFT: (10, 0, 0, "001 Movement: Shift"),
        Move001.HALF_MOVE: (allot // 2, -3, 0, "001 Movement: Half-Move"),
        Move001.FULL_MOVE: (allot, 0, 0, "001 B. Action Facility & Phases: full move"),
        Move001.SPLIT_MOVE: (allot // 3, -4, 0, "001 Movement: Split-Move Attack"),
        Move001.TAKE_COVER: (allot // 3, 0, 0, "001 Movement: Take Cover"),
        Move001.CHARGE: (allot * 3 // 2, -2, 2, "001 Movement: Charge or Counter-Charge"),
        Move001.FLIGHT: (allot * 3, 0, 0, "001 Movement: Flight"),
    }
    feet, hit, damage, rule = table[kind]
    return MoveAllowance(feet, hit, damage, rule)


def move_002(mv: int, *, attacking: bool) -> MoveAllowance:
    """002 III.D: every figure may move its standard rate (MV x 10 feet a round) and still
    make its full attack routine or cast; faster movement gives up the attack (the standard
    action taken as a second move, 002 Action Types I.A).

    >>> move_002(12, attacking=True).feet, move_002(12, attacking=False).feet
    (120, 240)
    """
    rate = _mv(mv) * SQUARE
    if attacking:
        return MoveAllowance(rate, 0, 0, "002 III.D")
    return MoveAllowance(2 * rate, 0, 0, "002 III.D, Action Types I.A: the standard action taken as a move")


def split_move_002(mv: int, before: int, after: int) -> int:
    """002 III.D: "Movement may be split as desired before and/or after attacking/casting":
    the two parts together within the standard rate. Returns the total.

    >>> split_move_002(12, 70, 50)
    120
    >>> split_move_002(12, 100, 30)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    combatkit.movement.MovementError: MV 12 allows 120' a round with an attack; 100' before and 30' after is 130' (002 III.D)
    """
    for what, feet in (("before", before), ("after", after)):
        if not is_whole(feet) or feet < 0:
            raise MovementError("002 III.D", f"feet moved {what} the attack are 0 or more, got {feet!r}")
    rate = move_002(mv, attacking=True).feet
    if before + after > rate:
        raise MovementError("002 III.D", f"MV {mv} allows {rate}' a round with an attack; {before}' before and "
                                         f"{after}' after is {before + after}'")
    return before + after


def charge_rate_002(mv: int, *, outdoors: bool, quadruped: bool = False) -> int:
    """Feet a round a charger covers (002 Charging I): outdoors bipeds +1/3 (33.3%), quadrupeds
    +1/2; indoors double. Rounded down.

    >>> charge_rate_002(12, outdoors=False), charge_rate_002(12, outdoors=True), charge_rate_002(18, outdoors=True, quadruped=True)
    (240, 160, 270)
    """
    rate = _mv(mv) * SQUARE
    if not outdoors:
        return 2 * rate
    return math.floor(rate * (Fraction(3, 2) if quadruped else Fraction(4, 3)))
