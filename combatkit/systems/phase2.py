"""Combat II, Phase System II: continuous combat in A/B/C phases (seed 000 §3, Tables 4-7).

There are no rounds. Phases A, B, C of six half-segments each follow one another
for as long as the fight lasts (000 §3 Table 4); any three consecutive phases count
as a round for durations. An :class:`~combatkit.encounter.Encounter`'s declaration
``phase`` numbers are read as consecutive phases: 1 = A, 2 = B, 3 = C, 4 = the next
A, and so on. Ticks are half-segments counted from the first phase A shown.

What the module does, rule by rule:

* Initiative (000 §3 A): each side rolls a d10 at the beginning of every phase A,
  low wins; each figure's DEX Reaction Adjustment may move it between tracks as in
  Phase System I (000 §1 B). The tracks hold through the end of phase C. The first
  cycle's rolls are entered under ``"initiative: <side>"`` (the Phase System I key),
  later ones under ``"initiative: <side>, cycle <n>"``.
* Blows (000 Table 4): the Phase System I rows, "SF 7-9" in every phase.
* Spells (000 §3 B): a spell may begin in any phase; each CT unit takes one active
  half-segment of the caster's *current* track (odd ones for winners, even ones for
  losers), three a phase, spilling into later phases and cycles, so a spell begun as
  a winner may end as a loser. A 1-round spell (CT ``"1 round"`` or 10 segments)
  goes off after every other action, movement included, at the end of its third phase.
* Durations (000 §3 B): :func:`spell_expiry`. The resolver ends a spell's hold, sleep, fear or
  condition at the end of the phase it went off in, so many rounds (three phases each) later
  (:attr:`~combatkit.systems.rules.SystemRules.durations_in_phases`); a figure held into the next
  round's first phases is scheduled nothing to do in them (:meth:`Phase2Carry.out_of_action`). With
  ``Phase2Options.durations`` the timeline shows each spell's effect until the end of the phase it
  expires in, and the resolver ends it there.
* Casting delay (000 §3 B): after completing a spell the caster waits two phases
  before casting again or attacking. With ``caster_delay_by_level=True`` (the optional
  Table 5) the wait between spells shortens with level: :func:`table5_delay`. A caster
  who attacks after casting always waits two phases; a caster who attacks physically
  waits two phases before casting (000 §3 C).
* Attack schedules (000 §3 C Table 6): the attack/delay sequence for the figure's
  attacks per round, times the rate of fire for missiles (:func:`attack_schedule`).
  A sequence may begin in any phase, repeats, and starts over after any unscheduled
  delay. Each weapon's attacks per round is its own ``Weapon.attacks_per_round`` (the
  encounter file's per-weapon ``attacks_per_round``), else the wielder's, as in every other
  system (:meth:`~combatkit.model.Combatant.attacks_in_round`). Two-weapon routines whose
  weapons differ in attacks per round follow the favored weapon's schedule, alternating
  paired and single (favored) attacks (000 §3 C's short-sword specialist with a dagger).
* Attack forms (000 §3 C Table 7): with ``attack_forms=True`` (the optional rule of
  000 §2 C) a creature with several natural attack forms uses them one or two a phase.
* Everything else is Phase System I's: this module's round subclasses Combat II's
  (:class:`~combatkit.systems.phase1.CombatIIRound`) and overrides only what the points above
  change. One action per phase, 1/3 MV a
  phase (a longer move spills over), repositioning (+2 SF, +1 CT), retargeting and
  drop-and-draw (+3 SF), double attacks (second blow SF half-segments after the
  first, inside the phase), touch spells, holding a spell (at most 6 CT), material
  components in hand, a hit ruining a spell being cast, a hit in the phase before
  casting delaying it a phase on a failed CON check, surprise costing the first phase.

Choices this module makes where the seed is silent (each documented where it is used):

* Table 6's 5/2 sequence "attack, attack, attack, delay, attack, attack" repeats as
  printed: 5 attacks in every 6 phases, the rate the row names.
* The FAVORED weapon of a two-weapon routine (000 §3 C) is the one with the most attacks
  per round: the specialist's weapon, whose rate specialization raises.
* Rates Table 6 does not list: below 1 a round (a heavy crossbow's 1/2), "attack"
  then delays for 3/rate phases in all (1/2: one shot every 6 phases); others raise
  and can be given per combatant in ``Phase2Options.schedules``.
* "For the remainder of the round" after a ruined spell (000 §2 A) is the rest of the
  current A/B/C cycle, the span initiative holds for (000 §3 A): no new spell and no
  attack until the next phase A; later declarations in it are cancelled, not refused.
* A hit "prior to the phase" of casting (000 §2 A) is a hit in the phase just before it.
* Casting a spell with a material component uses the components up: the next such
  spell needs them readied again (000 §3 B: "the caster may certainly gather new spell
  components" during the delay).
* The touch of a touch spell is the spell's delivery: it needs no attack opportunity
  and does not start an attack sequence.
* Table 5's "13+: cast spell, cast spell, delay 1 phase": the second spell must begin
  in the phase right after the first is completed, or the sequence starts over.
* A whole fight (:func:`~combatkit.fight.run_fight`) is one run of phases, each round one
  A/B/C cycle of it (000 §3: "divided into phases only, not rounds"). A round leaves the next a
  :class:`Phase2Carry` (:attr:`Timeline.carry <combatkit.timeline.Timeline.carry>`, given back
  through :meth:`PhaseSystemII.round_options`): each figure's attack sequence where it stands
  (000 §3 C), its attack and casting delays left (000 §3 B, Table 5), the phases a spell or move
  begun before still fills, and the tracks rolled at a phase A the round ran on into (000 §3 A:
  one roll at each phase A). A round of a fight shows its own cycle only: a spell whose casting
  runs past its phase C (000 §3: casting "continuing beyond the end of phase C [is] picked up in
  the next phase A"; 000 §3 B: a caster "may continue for the appropriate number of CT
  segments") is shown there up to the end of C, marked :data:`~combatkit.timeline.UNDER_WAY`, and
  carried (:class:`UnderWay`); the next round shows it from its first half-segment and sets it
  off at its release, where a hit on the caster before then ruins it as any spell being cast
  (000 §2 A). In a round of a fight, phase 0 and below are the last round's phases.
* A round scheduled on its own (:meth:`~combatkit.systems.base.TimingSystem.schedule` outside a
  fight: the dashboards, the seed's worked examples) is one stretch of phases: its clock grows by
  whole cycles to hold every action, and a spell running on into the next cycle goes off there,
  as the seed draws its 10th-level caster's CT 5 spell ("not completed until A").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, ClassVar, Final, cast

import icepool
from mypy_extensions import mypyc_attr

from combatkit.dice import Roller
from combatkit.encounter import Encounter
from combatkit.errors import IllegalActionError, RulesError
from combatkit.kinds import ActionKind, IntentKind, Maneuver, WeaponKind
from combatkit.model import Combatant, Declaration, Spell, Weapon
from combatkit.systems._exhaust import EnumeratingRoller
from combatkit.systems._memo import explaining, kit, memo
from combatkit.systems._plan import ActorPlan, combat_ii
from combatkit.systems.base import (
    FightRound, PlacedRound, TimingSystem, default_options, opposing_best, placed_round, register, sides_of,
)
from combatkit.systems.phase1 import (
    AFTER_ALL_RANK, COMBAT_II_RULES, MOVEMENT_RANK, Casting, CombatIIRound, Phase1Options, _State, phase_of,
    phase_start, reaction_terms, retarget_half_segment,
)
from combatkit.timeline import UNDER_WAY, SPAN_KIND, Clock, Period, Span, SpanKind, Status, Tick, Timeline, Track


__all__ = [
    "PHASE2",
    "TABLE_6",
    "TABLE_7",
    "FigureCarry",
    "Phase2Carry",
    "Phase2Options",
    "PhaseSystemII",
    "UnderWay",
    "attack_schedule",
    "clock_for",
    "describe_schedule",
    "forms_schedule",
    "odds",
    "phase_label",
    "spell_expiry",
    "table5_delay",
]

HALF_SEGMENTS: Final = 6  # per phase, 000 Table 4
LETTERS: Final = "ABC"
CT_PER_PHASE: Final = 3  # active half-segments a phase, 000 Table 4 "C" marks
ONE_ROUND_SEGMENTS: Final = 10  # 000 §3 B: "a one round CT (10 seg)"
BASE_CASTING_DELAY: Final = 2  # 000 §3 B: "the caster must wait two phases"
CASTER_ATTACK_DELAY: Final = 2  # 000 §3 B-C: casters delay 2 phases around a physical attack
DURATION_RULE: Final = ('000 §3 B Spell Duration: "if a spell cast in phase B lasts one round, it expires at the end '
                         'of the next phase B"')

# 000 §3 C Table 6: attacks per round -> attack/delay sequence (number of attacks each phase).
TABLE_6: Final[dict[Fraction, tuple[int, ...]]] = {
    Fraction(1): (1, 0, 0),
    Fraction(3, 2): (1, 0),
    Fraction(2): (1, 1, 0),
    Fraction(5, 2): (1, 1, 1, 0, 1, 1),
    Fraction(3): (1, 1, 1),
    Fraction(4): (1, 2, 1),
    Fraction(5): (2, 2, 1),
    Fraction(6): (2, 2, 2),
}
_TABLE_6_TERMS: Final = {(rate.numerator, rate.denominator): sequence for rate, sequence in TABLE_6.items()}
"""Table 6 by the rate's numerator and denominator in lowest terms: :func:`attack_schedule` is asked thousands of
times a run, where building, hashing and comparing a Fraction each time was slow (#18)."""

# 000 §3 C Table 7: number of attack forms -> forms used each phase.
TABLE_7: Final[dict[int, tuple[int, ...]]] = {
    1: (1, 0, 0),
    2: (1, 1, 0),
    3: (1, 1, 1),
    4: (1, 2, 1),
    5: (2, 2, 1),
    6: (2, 2, 2),
}


def phase_label(phase: int) -> str:
    """``"phase C, cycle 1"`` for phase 3, ``"phase A, cycle 2"`` for phase 4; in a fight, phase 0 and below are
    the phases of the rounds before (a sequence or a delay carried over, :class:`Phase2Carry`).

    >>> phase_label(4), phase_label(0)
    ('phase A, cycle 2', 'phase C of the last round')
    """
    return f"phase {_phase_number(phase)}"


def _phase_number(phase: int) -> str:
    """Which phase ``phase`` is, as :func:`phase_label` names it after the word "phase": ``"A, cycle 2"``."""
    letter = LETTERS[(phase - 1) % 3]
    if phase < 1:
        back = (3 - phase) // 3
        return f"{letter} of the last round" if back == 1 else f"{letter}, {back} rounds back"
    return f"{letter}, cycle {(phase - 1) // 3 + 1}"


@lru_cache(maxsize=64)
def clock_for(phases: int) -> Clock:
    """A clock of ``phases`` consecutive phases of six half-segments (000 Table 4); made once for each count of
    phases (a clock is a value, and every round shows one: #18)."""
    if phases < 1:
        raise RulesError("000 §3", f"a Phase System II clock shows at least one phase, got {phases}")
    return Clock(
        unit="half-segment",
        note="3 seconds; six a phase, counted from the first phase A shown",
        ticks=HALF_SEGMENTS * phases,
        periods=tuple(Period("phase", phase_start(p), phase_start(p) + 5, _phase_number(p))
                      for p in range(1, phases + 1)),
    )


def spell_expiry(phase: int, rounds: int) -> int:
    """The phase at whose end a spell completed in ``phase`` and lasting ``rounds`` expires.

    000 §3 B: "if a spell cast in phase B lasts one round, it expires at the end of the
    next phase B after all movement and combat has been resolved."

    >>> phase_label(spell_expiry(2, 1))
    'phase B, cycle 2'
    """
    if phase < 1 or rounds < 1:
        raise RulesError("000 §3 B", f"a spell is completed in phase 1 or later and lasts 1 round or more, got "
                                     f"phase {phase}, {rounds} round(s)")
    return phase + 3 * rounds


def table5_delay(level: int, second_in_a_row: bool = False) -> int:
    """Phases a caster waits after completing a spell, by caster level (000 §3 B Table 5, optional).

    1-6: "cast spell, delay 2 phases"; 7-12: "cast spell, delay 1 phase"; 13+: "cast spell,
    cast spell, delay 1 phase" (no wait after the first spell of the pair).

    >>> table5_delay(10), table5_delay(13), table5_delay(13, second_in_a_row=True)
    (1, 0, 1)
    """
    if level <= 6:
        return 2
    if level <= 12:
        return 1
    return 1 if second_in_a_row else 0


def attack_schedule(rate: Fraction | int) -> tuple[int, ...]:
    """The attack/delay sequence for ``rate`` attacks (or missiles) per round (000 §3 C Table 6).

    Each entry is the number of attacks in one phase, 0 for a delay; the sequence repeats.
    Rates below one a round extend the table's pattern: one attack in every 3/rate phases.

    >>> attack_schedule(Fraction(3, 2)), attack_schedule(Fraction(1, 2))
    ((1, 0), (1, 0, 0, 0, 0, 0))
    """
    exact = rate if isinstance(rate, (int, Fraction)) else Fraction(rate)
    num, den = exact.numerator, exact.denominator
    listed = _TABLE_6_TERMS.get((num, den))
    if listed is not None:
        return listed
    if 0 < num < den and 3 * den % num == 0:  # 3/rate phases a whole number
        return (1,) + (0,) * (3 * den // num - 1)
    raise IllegalActionError(
        "000 §3 C Table 6",
        f"Table 6 has no attack/delay sequence for {exact} attacks per round (it lists 1, 3/2, 2, 5/2, 3, 4, 5 "
        f"and 6); give the figure's sequence in Phase2Options.schedules",
    )


def forms_schedule(forms: int) -> tuple[int, ...]:
    """Attack forms used each phase for a creature with ``forms`` forms (000 §3 C Table 7).

    >>> forms_schedule(4)
    (1, 2, 1)
    """
    if forms not in TABLE_7:
        raise IllegalActionError("000 §3 C Table 7", f"Table 7 covers 1 to 6 attack forms, got {forms}; give the "
                                                     f"sequence in Phase2Options.schedules")
    return TABLE_7[forms]


def natural_forms(c: Combatant) -> tuple[Weapon, ...]:
    """A creature's attack forms: its natural weapons (000 §3 C Table 7 counts them)."""
    return tuple(w for w in c.weapons if w.kind is WeaponKind.NATURAL)


def forms_mode(options: Phase2Options, c: Combatant, named: tuple[Weapon, ...]) -> bool:
    """Optional rule (000 §2 C, §3 C): a creature with several natural forms, striking with them (``named``: the
    forms a blow names, none for the scheduler to choose), uses Table 7."""
    return (options.attack_forms and len(natural_forms(c)) > 1 and c.name not in options.schedules
            and all(w.kind is WeaponKind.NATURAL for w in named))


def describe_schedule(schedule: tuple[int, ...], forms: bool = False) -> str:
    """``"attack, attack, delay"`` for (1, 1, 0); ``"1 form, 2 forms, 1 form"`` with ``forms``.

    >>> describe_schedule((1, 2, 1))
    'attack, 2 attacks, attack'
    """
    one, many = ("1 form", "{} forms") if forms else ("attack", "{} attacks")
    return ", ".join("delay" if n == 0 else one if n == 1 else many.format(n) for n in schedule)


def _end(phase: int) -> Tick:
    return HALF_SEGMENTS * phase


def _cycle_of(phase: int) -> int:
    return (phase - 1) // 3 + 1


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class Phase2Options:
    """Readings and optional rules of 000 §3; every default is the seed's base rule."""

    phases: int | None = None
    """Phases on the clock, at least (3 = one A/B/C cycle). None: whole cycles. The clock
    always grows to hold every action placed."""
    tie_track: Track = Track.WINNER
    """Track for a figure whose adjusted initiative ties the best opposing roll (as Phase System I)."""
    agility_split: bool = False
    """AGI/DEX split (000 Part 4): AGI's Reaction Adjustment sets the track, DEX's lowers SF."""
    caster_delay_by_level: bool = False
    """Optional Table 5 (000 §3 B): the delay between spells shortens with caster level."""
    attack_forms: bool = False
    """Optional rule (000 §2 C, §3 C Table 7): separate attack forms, one or two a phase."""
    schedules: Mapping[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    """Per combatant name, an attack/delay sequence replacing Table 6/7 (attacks each phase, 0 = delay)."""
    durations: Mapping[str, int] = field(default_factory=dict, hash=False)
    """Per spell name, duration in rounds (000 §3 B): the timeline shows the effect until the end of the phase it
    expires in, and the resolver ends the spell's hold, sleep or condition at the end of that same phase (in place of
    the rounds its effect data gives)."""

    def __post_init__(self) -> None:
        if self.phases is not None and self.phases < 1:
            raise RulesError("000 §3", f"Phase2Options.phases shows at least one phase, got {self.phases}")
        for name, sequence in self.schedules.items():
            if not sequence or sequence[0] < 1 or any(n < 0 or n > 2 for n in sequence):
                raise RulesError("000 §3 C Table 6", f"{name}'s schedule must begin with an attack and give 0-2 "
                                                     f"attacks a phase, got {tuple(sequence)}")
        for spell, rounds in self.durations.items():
            if rounds < 1:
                raise RulesError("000 §3 B", f"{spell} lasts 1 round or more, got {rounds}")


@dataclass(frozen=True)
class FigureCarry:
    """What one figure's last round leaves it in a fight (000 §3: the phases run on, a round is only their
    display), in this round's phase numbers: 1-3 this round's A, B, C; 0 and below the rounds before. Each field is
    the scheduler's figure state's of the same name (:class:`_Figure`), read off it by name as a round ends
    (:func:`_snapshot`, then :meth:`later`) and written back as the next begins (:meth:`_Run._take_over`)."""

    busy: tuple[tuple[int, str], ...] = ()
    """Phases of this round still filled by what the figure began before (a spell being cast or held, a long move)."""
    holding: tuple[int, ...] = ()
    """Of those, the phases a completed spell is held in (the caster may move, 000 §2 A)."""
    seq_start: int | None = None
    """Where its Table 6/7 attack sequence began (000 §3 C), when it runs on into this round; None: it begins anew."""
    seq_schedule: tuple[int, ...] = ()
    """That sequence (attacks each phase, 0 = delay)."""
    attacked: tuple[int, ...] = ()
    """The phases of that sequence it attacked in."""
    forms_used: tuple[str, ...] = ()
    """Attack forms used in the sequence's current pass (000 §3 C Table 7)."""
    attack_from: int = 1
    """The first phase it may attack in (a caster's two-phase delay, 000 §3 B-C)."""
    attack_block: tuple[str, str, bool] = ("", "", False)
    cast_from: int = 1
    """The first phase it may begin a spell in (casting delay, 000 §3 B and Table 5)."""
    cast_block: tuple[str, str, bool] = ("", "", False)
    pair_phase: int | None = None
    """Table 5, 13+: a spell begun in this phase is the second of the pair."""
    ruined_through: int = 0
    ruin_reason: str = ""
    completed: tuple[tuple[str, int], ...] = ()
    """Touch spells completed and not yet delivered, with the phase they were completed in."""
    under_way: UnderWay | None = None
    """The spell it was still casting at the end of the last round, which goes off in this one (000 §3 B)."""

    def later(self, phases: int) -> FigureCarry:
        """This carry in the phase numbers of a round ``phases`` phases later (a round of a fight is one cycle, three):
        what still lies ahead kept, what is past dropped, and the attack sequence given up where it let a scheduled
        attack pass (000 §3 C: after a delay "the sequence starts over with the next attack")."""
        ticks = HALF_SEGMENTS * phases
        start, schedule = self.seq_start, self.seq_schedule
        if start is not None and any([schedule[(q - start) % len(schedule)] > 0 and q not in self.attacked
                                      for q in range(start, phases + 1)]):
            start = None
        uw = self.under_way
        return FigureCarry(
            busy=tuple([(q - phases, text) for q, text in self.busy if q > phases]),
            holding=tuple([q - phases for q in self.holding if q > phases]),
            seq_start=None if start is None else start - phases,
            seq_schedule=() if start is None else schedule,
            attacked=() if start is None else tuple([q - phases for q in self.attacked if q >= start]),
            forms_used=() if start is None else self.forms_used,
            attack_from=max(1, self.attack_from - phases),
            attack_block=_later(self.attack_block) if self.attack_from > phases + 1 else _NO_BLOCK,
            cast_from=max(1, self.cast_from - phases),
            cast_block=_later(self.cast_block) if self.cast_from > phases + 1 else _NO_BLOCK,
            pair_phase=self.pair_phase - phases if self.pair_phase is not None and self.pair_phase > phases else None,
            ruined_through=max(0, self.ruined_through - phases),
            ruin_reason=self.ruin_reason + _LAST_ROUND if self.ruined_through > phases else "",
            completed=tuple([(spell, done - phases) for spell, done in self.completed]),
            under_way=None if uw is None else replace(
                uw, start=uw.start - ticks, release=uw.release - ticks, units=tuple([t - ticks for t in uw.units
                                                                                     if t > ticks]), held=uw.held - ticks))


_NO_BLOCK: Final = ("", "", False)
_LAST_ROUND: Final = " (last round)"


def _later(block: tuple[str, str, bool]) -> tuple[str, str, bool]:
    """A delay's reason as the next round reads it: its phases were the last round's."""
    rule, reason, _ = block
    return rule, reason + _LAST_ROUND, False


@dataclass(frozen=True)
class UnderWay:
    """A spell still being cast at the end of a round of a fight (000 §3: casting "continuing beyond the end of phase C
    [is] picked up in the next phase A", the next round's; 000 §3 B): what the next round needs to set it off at its
    release, or to see it ruined by a hit before then (000 §2 A). In the next round's ticks, as :class:`FigureCarry`
    gives them (0 and below: the last round's). The delays that follow it are carried with the figure's, worked out with
    it, so that the next round's plan goes round them; the next round words them again, or drops them if it is
    ruined."""

    spell: Spell
    label: str
    """The cast span's action: ``"casts cone of cold (CT 5) -> Orc"``."""
    target: str | None
    start: Tick
    """Its first casting unit: 0 and below when it was begun in the last round (1 and more: a failed CON check
    after a hit slipped its start into this round, 000 §2 A)."""
    release: Tick
    """The tick it goes off."""
    rule: str
    """The rule that placed its casting units (000 Table 4, or 000 §3 B's 1-round spell)."""
    rank: int
    """Its order among the spans of its tick (a 1-round spell after all other actions)."""
    units: tuple[Tick, ...] = ()
    """Its casting units in this round (none for a 1-round spell), for its explanation."""
    hold: int = 0
    """CT units it is held after its release (000 §2 A), ending at ``held``."""
    held: Tick = 0
    second: bool = False
    """Table 5, 13+: the second spell of a pair (000 §3 B)."""
    slipped: bool = False
    """Its start slipped a phase after a hit (000 §2 A): the delay after it cancels, not refuses, an action."""


@dataclass(frozen=True)
class Phase2Carry:
    """What a Phase System II round of a fight leaves the next (:attr:`Timeline.carry
    <combatkit.timeline.Timeline.carry>`): each figure's :class:`FigureCarry`, and the tracks of the cycles the round
    ran on into, rolled at their phase A (000 §3 A: one roll at each phase A), from the next round's first cycle on."""

    figures: tuple[tuple[str, FigureCarry], ...] = ()
    tracks: tuple[tuple[tuple[str, Track], ...], ...] = ()

    def of(self, name: str) -> FigureCarry | None:
        return next((held for who, held in self.figures if who == name), None)

    def out_of_action(self, name: str, through: int, why: str) -> Phase2Carry:
        """This carry with ``name`` held or asleep (``why``) through phase ``through`` of the next round (1 = A),
        as the resolver found it (:mod:`combatkit.resolution.spells`, 000 §3 B: a spell's duration ends with a
        phase): those phases are filled, an attack or a spell waits for the phase after, and its attack sequence
        starts over (000 §3 C: after any unscheduled delay). What it was casting is lost: it could not act."""
        held = self.of(name) or _NOTHING_HELD
        block = (DURATION_RULE.split(":")[0], why, False)
        after = through + 1
        figure = replace(
            held, busy=tuple((p, why) for p in range(1, after)), holding=(), seq_start=None, seq_schedule=(),
            attacked=(), forms_used=(), completed=(), pair_phase=None, under_way=None,
            attack_from=max(held.attack_from, after),
            attack_block=block if after > held.attack_from else held.attack_block, cast_from=max(held.cast_from, after),
            cast_block=block if after > held.cast_from else held.cast_block)
        return replace(self, figures=tuple((who, figure if who == name else f) for who, f in self.figures)
                       + (() if self.of(name) else ((name, figure),)))


@mypyc_attr(native_class=False)  # as Phase2Options
@dataclass(frozen=True)
class _InFight(Phase2Options):
    """The options of one round of a fight: the caller's, with what the last round left it
    (:meth:`PhaseSystemII.round_options`)."""

    carried: Phase2Carry | None = None


def _carried(options: Phase2Options) -> Phase2Carry | None:
    return options.carried if isinstance(options, _InFight) else None


def _in_fight(options: Phase2Options) -> bool:
    """Whether the round is one of a fight (:func:`~combatkit.fight.run_fight`): then it shows its own A/B/C cycle
    only, and a spell still being cast at its end goes off in the next round (:class:`UnderWay`)."""
    return isinstance(options, _InFight)


# ----------------------------------------------------------------- initiative


def _track(own: int, adjustment: int, opposing: int | None, tie: Track) -> Track:
    """000 §1 B: the side roll less the Reaction Adjustment against the best opposing roll."""
    if opposing is None:
        return Track.WINNER
    adjusted = own - adjustment
    if adjusted < opposing:
        return Track.WINNER
    if adjusted > opposing:
        return Track.LOSER
    return tie


def _tracks(encounter: Encounter, rolls: Mapping[str, int], cycle: int,
            options: Phase2Options) -> tuple[dict[str, Track], list[str]]:
    """Each figure's track for one cycle from the side rolls, and the notes that explain it, written only when the
    round is explained (:func:`~combatkit.systems._memo.explaining`), as Phase System I's initiative does."""
    sides = sides_of(encounter)
    explain = explaining()
    phases = f"phases {cycle * 3 - 2}-{cycle * 3}"
    notes = []
    if explain and len(sides) == 1:
        notes.append(f"Cycle {cycle} ({phases}): only {sides[0]} is fighting, everyone is on the winner track.")
    elif explain:
        shown = ", ".join(f"{s} {rolls[s]}" for s in sides)
        best = min(rolls.values())
        winners = [s for s in sides if rolls[s] == best]
        verdict = f"side {winners[0]!r} wins" if len(winners) == 1 else f"{' and '.join(winners)} tie"
        notes.append(f"Cycle {cycle} ({phases}): initiative d10 per side at phase A (low wins): {shown}; {verdict}. "
                     f"The tracks hold through phase C (000 §3 A).")
    tracks = {}
    opposing_of = opposing_best(rolls)
    split, tie_track = options.agility_split, options.tie_track  # read once: the options are a Python class
    for c in encounter.combatants:
        side, name = c.side, c.name
        opposing = opposing_of.get(side)
        score, _, adjustment = reaction_terms(c, split)
        track = _track(rolls[side], adjustment, opposing, tie_track)
        tracks[name] = track
        if explain and track is not _track(rolls[side], 0, opposing, tie_track):
            notes.append(f"Cycle {cycle}: {name}'s {score} Reaction Adjustment {adjustment:+d} moves {name} onto "
                         f"the {track} track ({rolls[side]} - ({adjustment:+d}) against {opposing}, 000 §1 B).")
    if explain:
        losers = [name for name, track in tracks.items() if track is Track.LOSER]
        if losers:
            winners = [name for name, track in tracks.items() if track is Track.WINNER] or ["nobody"]
            notes.append(f"Cycle {cycle}: winner track {', '.join(winners)}; loser track {', '.join(losers)}, who "
                         f"state their intentions first in each phase (000 Table 4).")
    return tracks, notes


class _Dice:
    """Where a run's initiative and CON checks come from: the Roller it is given.

    Scheduled, every side rolls its d10 at every phase A shown and every figure's track
    follows (with the notes that explain it). For the exact odds of a matchup (``pair``, with
    an :class:`~combatkit.systems._exhaust.EnumeratingRoller`) only the tracks of the two
    figures can move it: each cycle asked about is one branch per pair of tracks, weighted
    exactly (:meth:`_pair_tracks`), everyone else stays on the winner track, and cycles
    nobody asks about are not rolled.
    """

    def __init__(self, encounter: Encounter, roller: Roller, options: Phase2Options,
                 pair: tuple[str, str] | None = None) -> None:
        self.encounter, self.roller, self.options, self.pair = encounter, roller, options, pair
        carried = _carried(options)
        # 000 §3 A: the tracks rolled at a phase A the last round ran on into hold here; no second roll.
        self.cycles: list[dict[str, Track]] = [dict(t) for t in carried.tracks] if carried and pair is None else []
        self.given = len(self.cycles)
        self.notes: list[str] = []
        if self.cycles and explaining():
            self.notes.append("Cycle 1: the tracks rolled at this phase A as the last round ran on into it hold "
                              "(000 §3 A: one initiative roll at the beginning of each phase A): " + "; ".join(
                                  f"{name} {track}" for name, track in self.cycles[0].items()) + ".")

    def track(self, name: str, cycle: int) -> Track:
        if self.pair is not None:
            if name not in self.pair:
                return Track.WINNER  # nobody else's track moves the pair's actions
            tracks = cast(EnumeratingRoller, self.roller).choose(("tracks", cycle), self._pair_tracks)
            return tracks[self.pair.index(name)]
        while len(self.cycles) < cycle:
            self._roll_cycle(len(self.cycles) + 1)
        return self.cycles[cycle - 1][name]

    def roll_through(self, cycle: int) -> None:
        """Initiative is rolled at every phase A shown, whether or not anyone needed it."""
        while self.pair is None and len(self.cycles) < cycle:
            self._roll_cycle(len(self.cycles) + 1)

    def _roll_cycle(self, cycle: int) -> None:
        suffix = "" if cycle == 1 else f", cycle {cycle}"
        rolls = {side: self.roller.roll("d10", f"initiative: {side}{suffix}").total for side in sides_of(self.encounter)}
        tracks, notes = _tracks(self.encounter, rolls, cycle, self.options)
        self.cycles.append(tracks)
        self.notes.extend(notes)

    def _pair_tracks(self) -> list[tuple[tuple[Track, Track], Fraction]]:
        """Exact distribution of the pair's tracks in one cycle: a d10 per side (000 §3 A).

        Only three numbers matter: the first figure's side roll, the second's and the best roll
        of every other side (icepool's ``lowest``)."""
        assert self.pair is not None
        a, b = (self.encounter.combatant(name) for name in self.pair)
        apart = a.side != b.side
        others = len([s for s in self.encounter.sides if s not in (a.side, b.side)])
        dice = [icepool.d10] * (2 if apart else 1) + ([icepool.lowest(*[icepool.d10] * others)] if others else [])
        adj_a, adj_b = (reaction_terms(c, self.options.agility_split)[2] for c in (a, b))
        tie = self.options.tie_track

        def best(*rolls: int | None) -> int | None:
            known = [r for r in rolls if r is not None]
            return min(known) if known else None

        def tracks(*rolls: int) -> tuple[str, str]:
            roll_a = rolls[0]
            roll_b = rolls[1] if apart else roll_a
            rest = rolls[-1] if others else None
            against_a = best(roll_b if apart else None, rest)
            against_b = best(roll_a if apart else None, rest)
            return _track(roll_a, adj_a, against_a, tie).value, _track(roll_b, adj_b, against_b, tie).value

        die = icepool.map(tracks, *dice, star=False)  # said, not read from the signature a compiled build lacks
        total = die.denominator()
        return [((Track(ta), Track(tb)), Fraction(n, total)) for (ta, tb), n in die.items()]

    def con_check(self, c: Combatant, purpose: str) -> tuple[bool, str]:
        con = c.abilities.constitution
        roll = self.roller.roll_total("d20", purpose, classify=lambda t: t <= con)
        return roll.total <= con, f"{roll.total} vs CON {con}"


# ----------------------------------------------------------------- the run


@dataclass
class _Figure(_State):
    """What one figure has done so far in a run of phases, and what it still owes: Combat II's figure state and what
    000 §3 carries from phase to phase. Its fields named as :class:`FigureCarry`'s are what a round of a fight takes over
    from the last and leaves the next (:meth:`_Run._take_over`, :meth:`_Run._carry`), read and written by name."""

    seq_start: int | None = None
    """Where its Table 6/7 attack sequence began (000 §3 C); None: the next attack begins one."""
    seq_schedule: tuple[int, ...] = ()
    """That sequence (attacks each phase, 0 = delay)."""
    forms_used: set[str] = field(default_factory=set)
    """Attack forms used in the sequence's current pass (000 §3 C Table 7)."""
    attack_from: int = 1
    """The first phase it may attack in (000 §3 B-C)."""
    attack_block: tuple[str, str, bool] = ("", "", False)
    """Why attacks wait until ``attack_from``: (rule, reason, whether a slipped spell caused it)."""
    cast_from: int = 1
    """The first phase it may begin a spell in (000 §3 B, Table 5)."""
    cast_block: tuple[str, str, bool] = ("", "", False)
    """Why spells wait until ``cast_from``: (rule, reason, whether a slipped spell caused it)."""
    pair_phase: int | None = None
    """Table 5, 13+: a spell begun in this phase is the second of the pair."""
    completed: dict[str, int] = field(default_factory=dict)
    """Touch spells completed, by name -> the phase they were completed in."""
    under_way: UnderWay | None = None
    """In a fight, the spell still being cast at the end of the round (in this round's ticks), which goes off in the
    next."""

    def __init__(self, components: bool, cast: Spell | None = None, ruined_through: int = 0, ruin_reason: str = "",
                 seq_start: int | None = None, seq_schedule: tuple[int, ...] = (), attack_from: int = 1,
                 attack_block: tuple[str, str, bool] = ("", "", False), cast_from: int = 1,
                 cast_block: tuple[str, str, bool] = ("", "", False), pair_phase: int | None = None,
                 under_way: UnderWay | None = None) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.components = components
        self.busy: dict[int, str] = {}
        self.involuntary: set[int] = set()
        self.holding: set[int] = set()
        self.attacked: set[int] = set()
        self.cast = cast
        self.attacks_used: dict[str, int] = {}
        self.ruined_through = ruined_through
        self.ruin_reason = ruin_reason
        self.seq_start = seq_start
        self.seq_schedule = seq_schedule
        self.forms_used: set[str] = set()
        self.attack_from = attack_from
        self.attack_block = attack_block
        self.cast_from = cast_from
        self.cast_block = cast_block
        self.pair_phase = pair_phase
        self.completed: dict[str, int] = {}
        self.under_way = under_way


_NOTHING_HELD: Final = FigureCarry()
_UNDER_WAY: Final = frozenset({UNDER_WAY})


def _carried_fields() -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """:class:`FigureCarry`'s fields, in order, each with the container (dict or set) the scheduler's figure state
    holds it in while a round is placed (:class:`_Figure`'s field of that name: one it lacks fails here), or None."""
    live = {f.name: f.default_factory for f in fields(_Figure)}
    return tuple((f.name, cast(Callable[[Any], Any], live[f.name]) if live[f.name] in (dict, set) else None)
                 for f in fields(FigureCarry))


_CARRIED: Final = _carried_fields()
"""What a round of a fight leaves the next of each figure, read off and written back to its live state by name."""


def _snapshot(st: _Figure) -> FigureCarry:
    """``st``'s fields that carry (:data:`_CARRIED`) as they stand, in this round's phase numbers: a set or a mapping
    as its sorted items."""
    return FigureCarry(*[_frozen(getattr(st, name)) for name, _ in _CARRIED])


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    if isinstance(value, set):
        return tuple(sorted(value))
    return value


_NO_SF_OPTIONS: Final = Phase1Options()
"""What :attr:`_Run.readings` holds until the round is placed afresh."""


class _Run(CombatIIRound[_Figure]):
    """A Phase System II round: Combat II's (:class:`~combatkit.systems.phase1.CombatIIRound`), on a clock of A/B/C
    phases running on (000 §3), with tracks rolled at every phase A (000 §3 A), spells begun in any phase, cast on the
    current track's active half-segments and followed by a delay (Tables 4-5, 000 §3 B), and blows spaced by Tables 6-7
    (000 §3 C); in a fight, one cycle of a run of phases that goes on from round to round (:class:`Phase2Carry`)."""

    system: ClassVar[str] = "phase2"
    table: ClassVar[str] = "000 Table 4"
    first_phase: ClassVar[str] = "phase A"
    rest_of_round: ClassVar[str] = "until the next phase A"
    ranked: ClassVar[bool] = True
    ruin_stops_attacks: ClassVar[bool] = True
    closes_within_phase: ClassVar[bool] = False

    def __init__(self, encounter: Encounter, dice: _Dice, options: Phase2Options) -> None:
        # Phase System I's options, for its speed factors, are made once the round is to be placed afresh (not when
        # it is looked up, most rounds of a run, #18).
        super().__init__(encounter, dice.roller, _NO_SF_OPTIONS, _Figure)
        self.dice, self.options = dice, options
        self.dice_notes = dice.notes

    # -- the clock and the tracks (000 §3 A, Table 4)

    def track(self, name: str, phase: int) -> Track:
        """``name``'s track in ``phase``: the one rolled at the phase A of its cycle (000 §3 A)."""
        return self.dice.track(name, _cycle_of(phase))

    def _phase_name(self, phase: int) -> str:
        """``"phase B, cycle 1"``."""
        return phase_label(phase)

    def _period(self, start: Tick, end: Tick) -> str:
        """The phase a span ends in."""
        return phase_label(phase_of(end))

    def _describe(self, tick: Tick) -> str:
        """``"half-segment 3 of phase B, cycle 1"``."""
        phase = phase_of(tick)
        return f"half-segment {tick - phase_start(phase) + 1} of {phase_label(phase)}"

    def _check_phase(self, c: Combatant, d: Declaration) -> None:
        """Phases are numbered from 1, phase A of the first cycle (000 §3)."""
        if d.phase < 1:
            raise IllegalActionError("000 §3", f"{d.actor}: phases are numbered from 1 (phase A), got {d.phase}")

    # -- the run

    def _rolled(self) -> PlacedRound | None:
        """The first cycle's d10s are the round's first dice; unless a hit calls for a CON check (000 §2 A), they are
        all it rolls while it is placed in one cycle, and a round that looks the same once its tracks are known is
        placed as before."""
        if self.encounter.hits or self.dice.pair is not None:  # a CON check could come before them
            return None
        self.dice.roll_through(1)
        return placed_round(self.system, self.encounter, self.options, tuple(self.dice.cycles[0].values()))

    def _keeps(self) -> bool:
        """Kept only when no cycle was rolled beyond the first (or the ones the last round rolled)."""
        return len(self.dice.cycles) == max(1, self.dice.given)

    def _begin(self) -> None:
        """In a fight, each figure takes over where the last round left it (:meth:`_take_over`); then Phase System
        I's options for the speed factors (000 §1 E) are made."""
        carried = _carried(self.options)
        if carried is not None:
            for c in self.encounter.combatants:
                held = carried.of(c.name)
                if held is not None:
                    self._take_over(c, held)
        self.readings = Phase1Options(agility_split=self.options.agility_split)

    def _placing(self) -> tuple[Clock, Any]:
        """The clock grows by whole cycles to hold every action (or shows ``Phase2Options.phases``), initiative is
        rolled at each phase A it shows, and the round leaves the next its :class:`Phase2Carry`."""
        last = max([phase_of(s.end) for _, s in self.spans] + [d.phase for d in self.encounter.declarations] + [1])
        shown = max(last, self.options.phases or 0)
        if self.options.phases is None:
            shown = 3 * math.ceil(shown / 3)
        self.dice.roll_through(_cycle_of(shown))
        return clock_for(shown), self._carry() if self.dice.pair is None else None

    # -- one continuous run of phases (000 §3): what a round of a fight takes over from the last and leaves the next

    def _take_over(self, c: Combatant, held: FigureCarry) -> None:
        """Start ``c`` where the last round left it (each field of its :class:`FigureCarry` to the live state's field of
        that name), and say so."""
        st = self.state[c.name]
        for name, container in _CARRIED:
            value = getattr(held, name)
            setattr(st, name, value if container is None else container(value))
        under_way, st.under_way = st.under_way, None  # it goes off in this round (:meth:`_finish`)
        said = []
        blocks = (held.attack_block[1], held.cast_block[1])  # a hold or sleep's phases (out_of_action): said below
        for text in dict.fromkeys(text for _, text in held.busy if text not in blocks):
            where = ", ".join(phase_label(p) for p, t in held.busy if t == text)
            said.append(f"still {text} in {where}, begun in the last round (000 §3: actions spill over into the "
                        f"next phase)")
        if held.seq_start is not None:
            said.append(f"its '{describe_schedule(held.seq_schedule)}' sequence begun in {phase_label(held.seq_start)} "
                        f"goes on (000 §3 C: the sequence may begin on any phase)")
        # The delays after a spell still under way are its own (they outlast any before it): said as it goes off.
        if held.attack_from > 1 and under_way is None:
            said.append(f"no attack before {phase_label(held.attack_from)} ({held.attack_block[0]}: "
                        f"{held.attack_block[1]})")
        if held.cast_from > 1 and under_way is None:
            said.append(f"no spell begun before {phase_label(held.cast_from)} ({held.cast_block[0]}: "
                        f"{held.cast_block[1]})")
        if said:
            self.notes.append(f"Carried from the last round, {c.name}: " + "; ".join(said) + ".")
        if under_way is not None:
            self._finish(c, st, under_way)

    def _finish(self, c: Combatant, st: _Figure, uw: UnderWay) -> None:
        """000 §3 B: the spell ``c`` was still casting at the end of the last round goes off in this one, at its
        release, unless a hit on ``c`` before then ruins it, as it ruins any spell being cast (000 §2 A)."""
        spell = uw.spell
        start = max(1, uw.start)
        ruin = self._ruining_hit(c.name, start, uw.release)
        if ruin is not None:
            self._unfinished(st, spell)
            self._ruin(c, st, spell, uw.label, start, ruin, uw.target, "casting", what=f"casts {spell.name}")
            return
        begun = ("begun in the last round and still being cast at its end" if uw.start < 1 else
                 "its start slipped into this round by a failed CON check after a hit (000 §2 A)")
        if uw.units:
            how = (f"Each CT unit takes one active half-segment of {c.name}'s current track (000 Table 4), here "
                   f"{self._unit_story(c.name, list(uw.units))}.")
        else:
            how = (f"It takes one round (10 segments) and goes off after every other action, movement included, at "
                   f"the end of {phase_label(phase_of(uw.release))}.")
        self.add(c, SpanKind.CAST, uw.label, start, uw.release,
                 f"000 §3 B: a spell begun in the last round, picked up in the next phase A (000 §3); {uw.rule}",
                 f"{c.name}'s {spell.name}, {begun}, goes off in this round: the phases run on from round to round "
                 f"(000 §3). {how}", uw.target, rank=uw.rank, what=f"casts {spell.name}")
        done = self._hold_span(c, st, spell, uw.hold, uw.target, uw.release, uw.held) if uw.hold else uw.release
        if done is None:
            self._unfinished(st, spell)
            return
        self._after_spell(c, st, spell, phase_of(done), uw.second, uw.slipped)  # the delays, in this round's words

    def _unfinished(self, st: _Figure, spell: Spell) -> None:
        """A spell carried under way and ruined here: the delays the last round worked out for its completion go
        with it (000 §3 B: the delay follows a completed spell). Any delay from before it ends by this round's phase
        C (begun by the last round's C, it waited out every delay to begin; a 13th-level caster's pair leaves its
        attacks two phases more), which the ruin fills anyway: no spell and no attack for the rest of the cycle
        (000 §2 A, §3 A)."""
        st.completed.pop(spell.name, None)
        st.attack_from, st.attack_block = 1, _NO_BLOCK
        st.cast_from, st.cast_block = 1, _NO_BLOCK
        st.pair_phase = None

    def _carry(self) -> Phase2Carry:
        """What this round leaves the next, a cycle (three phases) later: each figure's :class:`FigureCarry` in the
        next round's phase numbers (:meth:`FigureCarry.later`), and the tracks of the cycles it ran on into (000 §3,
        §3 A)."""
        figures = []
        for name, st in self.state.items():
            held = _snapshot(st).later(3)
            if held != _NOTHING_HELD:
                figures.append((name, held))
        tracks = tuple(tuple(cycle.items()) for cycle in self.dice.cycles[1:])
        return Phase2Carry(tuple(figures), tracks)

    # -- movement (000 §3: "movement ... may spill over")

    def _move_phases(self, c: Combatant, d: Declaration, st: _Figure, feet: int, per_phase: int) -> int:
        """The phases a move of ``feet`` fills, 1/3 MV each: a longer move spills over into the following phases
        (000 §3), each of them free or a held spell's."""
        if per_phase == 0:
            raise IllegalActionError("000 §1 F", f"{c.name} has MV {c.movement} and cannot move")
        if feet <= 0:
            raise IllegalActionError("000 §1 F", f"{c.name} moves 0' in {phase_label(d.phase)}: "
                                                 f"{'already at ' + d.target if d.target else 'give feet'}")
        phases = math.ceil(feet / per_phase)
        for q in range(d.phase, d.phase + phases):
            if q in st.busy and q not in st.holding:
                raise IllegalActionError("000 §1 C", f"{c.name}'s {feet}' move needs {phases} phases and runs into "
                                                     f"{phase_label(q)}, where {c.name} is already {st.busy[q]}")
        return phases

    # -- attacks (000 §3 C, Tables 6-7)

    def _schedule_for(self, c: Combatant, weapons: tuple[Weapon, ...], forms: bool) -> tuple[tuple[int, ...], str, str]:
        """The attack/delay sequence for an attack: (sequence, rule, where it comes from). In a fight, worked out
        once a run for each figure and its weapons (#18: the rates are Fractions, read in Python)."""
        if c.name in self.options.schedules:
            return tuple(self.options.schedules[c.name]), "000 §3 C", "Phase2Options.schedules"
        known = memo("phase2 schedules")
        key = (c.name, tuple(w.name for w in weapons), forms)
        found = known.get(key) if known is not None else None
        if found is None:
            found = self._table_schedule(c, weapons, forms)
            if known is not None:
                known[key] = found
        return found

    def _table_schedule(self, c: Combatant, weapons: tuple[Weapon, ...],
                        forms: bool) -> tuple[tuple[int, ...], str, str]:
        """:meth:`_schedule_for` from 000 §3 C Tables 6 and 7."""
        if forms:
            count = len(natural_forms(c))
            return forms_schedule(count), "000 §3 C Table 7", f"Table 7, {count} attack forms"
        rate = max(self._rate(c, w) for w in weapons)
        missile = ", fire rate x attacks per round" if any(w.kind is WeaponKind.MISSILE for w in weapons) else ""
        return attack_schedule(rate), "000 §3 C Table 6", f"Table 6, {rate} attack{'' if rate == 1 else 's'} per round{missile}"

    def _rate(self, c: Combatant, w: Weapon) -> Fraction:
        """Attacks (or missiles) per round with ``w``: the weapon's own rate, else the wielder's,
        times the fire rate for a missile weapon (000 §3 C; the short-sword specialist's dagger
        keeps its own, lower rate, so her routine follows the favored short sword's schedule)."""
        rate = c.attacks_per_round if w.attacks_per_round is None else w.attacks_per_round
        if w.kind is WeaponKind.MISSILE:
            rate = rate * w.rate_of_fire
        return rate if isinstance(rate, Fraction) else Fraction(rate)  # a Fraction already: not built again

    def _sequence(self, st: _Figure, p: int, schedule: tuple[int, ...]) -> tuple[int, int, bool]:
        """(attacks allowed in phase p, attacks already made in this sequence, whether it starts over)."""
        if st.seq_start is None or st.seq_schedule != schedule:
            return schedule[0], 0, True
        s = st.seq_start
        for q in range(s, p):
            if schedule[(q - s) % len(schedule)] > 0 and q not in st.attacked:
                return schedule[0], 0, True  # 000 §3 C: after any delay the sequence starts over
        made = sum(1 for q in range(s, p) if q in st.attacked)
        return schedule[(p - s) % len(schedule)], made, False

    def _blocked(self, c: Combatant, d: Declaration, st: _Figure, what: str, until: int,
                 block: tuple[str, str, bool]) -> bool:
        """Refuse (or, when only a slipped spell caused it, cancel) an action inside a delay."""
        if until <= d.phase:
            return False
        rule, reason, slipped = block
        if slipped and d.phase == until - 1:
            self.add(c, SPAN_KIND[d.kind], f"{what} (cancelled)", phase_start(d.phase), phase_start(d.phase), rule,
                     f"Cancelled: the failed CON check pushed {c.name}'s delay one phase later. {reason}.",
                     d.target, Status.CANCELLED, MOVEMENT_RANK, what=what)
            return True
        raise IllegalActionError(rule, f"{c.name} cannot {what} in {phase_label(d.phase)}: {reason}")

    def _blow(self, c: Combatant, d: Declaration, st: _Figure) -> None:
        """000 §3 C: a blow on the figure's attack/delay sequence (Table 6, or Table 7's attack forms), after any delay
        a spell left (000 §3 B); a caster who attacks delays two phases before casting."""
        p = d.phase
        if self._blocked(c, d, st, "attack", st.attack_from, st.attack_block):
            return
        if d.attacks < 1:
            raise IllegalActionError("000 §2 C", f"{c.name} declares {d.attacks} attacks; at least one")
        named = kit(c).striking(d.weapons) if d.weapons else ()
        forms = forms_mode(self.options, c, named)
        weapons = named or (() if forms else c.striking())
        schedule, rule, source = self._schedule_for(c, weapons, forms)
        allowed, made, restart = self._sequence(st, p, schedule)
        plan = describe_schedule(schedule, forms)
        if allowed == 0:
            raise IllegalActionError(rule, f"{c.name} is on the '{plan}' sequence ({source}) begun in "
                                           f"{phase_label(st.seq_start or p)}: {phase_label(p)} is a delay, no attack")
        if restart:
            st.seq_start, st.seq_schedule = p, schedule
        if restart or (p - st.seq_start) % len(schedule) == 0:  # type: ignore[operator]
            st.forms_used = set()
        if forms:
            weapons = weapons or tuple(w for w in natural_forms(c) if w.name not in st.forms_used)[:allowed]
            names = [w.name for w in weapons]
            if not names or len(names) > allowed or set(names) & st.forms_used or len(set(names)) < len(names):
                raise IllegalActionError(rule, f"{c.name} may use {allowed} attack form(s) in {phase_label(p)}, each "
                                               f"form once a sequence; declared {names}, already used "
                                               f"{sorted(st.forms_used)}")
            st.forms_used.update(names)
            count = 1
        else:
            count = d.attacks
            if count > allowed:
                raise IllegalActionError(rule, f"{c.name}'s '{plan}' sequence ({source}) allows {allowed} attack(s) "
                                               f"in {phase_label(p)}, not {count}")
            self._check_pairing(c, weapons, made)
        st.attacked.add(p)
        if c.spells:
            st.cast_from = max(st.cast_from, p + CASTER_ATTACK_DELAY + 1)
            st.cast_block = ("000 §3 C", f"a caster delays two phases after a physical attack ({c.name} attacked in "
                                         f"{phase_label(p)})", False)
        if restart:
            state = "a new sequence begins here"
        else:
            anew = "it begins anew here; " if (p - st.seq_start) % len(schedule) == 0 else ""  # type: ignore[operator]
            state = f"{anew}attack {made + 1} since it began in {phase_label(st.seq_start)}"  # type: ignore[arg-type]
        self._strike(c, d, st, weapons, count, " + ".join(w.name for w in weapons), "",
                     f"On the '{plan}' sequence ({source}), {state}.")

    def _check_pairing(self, c: Combatant, weapons: tuple[Weapon, ...], made: int) -> None:
        """000 §3 C: weapons of different attack rates alternate paired and single (favored) attacks."""
        if len(weapons) < 2:
            return
        rates = {w.name: self._rate(c, w) for w in weapons}
        if len(set(rates.values())) == 1 or made % 2 == 0:
            return
        favored = max(weapons, key=lambda w: rates[w.name])
        raise IllegalActionError(
            "000 §3 C",
            f"{c.name}'s weapons differ in attacks per round ({', '.join(f'{n} {r}' for n, r in rates.items())}): "
            f"on the favored {favored.name}'s schedule paired and single attacks alternate, and attack "
            f"{made + 1} of this sequence is the {favored.name} alone",
        )

    def _touch(self, c: Combatant, d: Declaration, st: _Figure, spell: Spell) -> None:
        """000 §2 A: the touch of a touch spell, in a phase after it was completed; the spell's own delivery, it needs
        no attack opportunity and starts no attack sequence."""
        done = st.completed.get(spell.name)
        if done is None or done >= d.phase:
            raise IllegalActionError("000 §2 A", f"the touch of {spell.name} comes in a phase after {c.name} "
                                                 f"completes casting it, not in {phase_label(d.phase)}")
        del st.completed[spell.name]
        self._strike(c, d, st, c.weapons[:1], 1, f"touch: {spell.name}", "000 §2 A: touch spell, a later phase",
                     f"{c.name} delivers the touch of {spell.name}, completed in {phase_label(done)}; the touch is "
                     f"the spell's own delivery, not a new attack.")

    # -- spells (000 §3 B, Tables 4-5)

    def _may_begin(self, c: Combatant, d: Declaration, st: _Figure, spell: Spell) -> bool:
        """After a ruined spell, none begins for the rest of the cycle (000 §2 A, §3 A); none inside the delay after a
        spell or an attack (000 §3 B-C). False: cancelled."""
        if st.ruined_through >= d.phase:
            self._recovering(c, d, st, SpanKind.CAST, spell.name)
            return False
        return not self._blocked(c, d, st, f"begin {spell.name}", st.cast_from, st.cast_block)

    def _casting(self, c: Combatant, d: Declaration, st: _Figure, spell: Spell, begin: int) -> Casting:
        """000 Table 4: each CT unit one active half-segment of the caster's current track, three a phase, spilling
        into the next phases and cycles; a 1-round spell (10 segments) goes off after every other action at the end
        of its third phase (000 §3 B)."""
        full = spell.full_round or spell.casting_time == ONE_ROUND_SEGMENTS
        if full and d.reposition:
            raise IllegalActionError("000 §2 A", f"{spell.name} takes a full round; a repositioning step adds a CT "
                                                 f"unit it does not have: step in an earlier phase")
        if full:
            start, release = phase_start(begin), _end(begin + 2)
            return Casting(start, release, begin + 2, start,
                           "000 §3 B: 1-round spell, after all other actions at the end of its third phase",
                           f"{spell.name} takes one round (10 segments): begun in {phase_label(begin)}, it goes off "
                           f"after every other action, movement included, at the end of {phase_label(begin + 2)}.",
                           AFTER_ALL_RANK, True)
        units = int(spell.casting_time) + (1 if d.reposition else 0)
        ticks = self._active_after(c.name, phase_start(begin) - 1, units)
        return Casting(ticks[0], ticks[-1], phase_of(ticks[-1]), ticks[0],
                       f"000 Table 4: CT {units} on the active half-segments of the current track",
                       f"Each CT unit takes one active half-segment of {c.name}'s current track, three a phase "
                       f"(000 Table 4): {self._unit_story(c.name, ticks)}."
                       + (" A repositioning step first adds 1 to CT (000 §2 A)." if d.reposition else ""),
                       units=tuple(ticks))

    def _goes_on(self, c: Combatant, d: Declaration, st: _Figure, spell: Spell, casting: Casting, label: str,
                 why: str, begin: int, slipped: bool) -> bool:
        """In a fight, a spell whose casting runs past this round's phase C goes off in the next round
        (:meth:`_under_way`)."""
        if not _in_fight(self.options) or casting.release <= _end(3):
            return False
        self._under_way(c, d, st, UnderWay(spell, label, d.target, casting.start, casting.release, casting.rule,
                                           casting.rank, casting.units), why, self._second(st, begin), slipped)
        return True

    def _after_casting(self, c: Combatant, st: _Figure, spell: Spell, done: Tick, begin: int, slipped: bool) -> None:
        """The delay after the spell (000 §3 B, Table 5), and its duration."""
        self._after_spell(c, st, spell, phase_of(done), self._second(st, begin), slipped)

    def _second(self, st: _Figure, begin: int) -> bool:
        """Table 5, 13+: whether a spell begun in phase ``begin`` is the second of a pair (000 §3 B)."""
        return self.options.caster_delay_by_level and st.pair_phase == begin

    def _unit_story(self, name: str, ticks: list[Tick]) -> str:
        parts = []
        for q in sorted({phase_of(t) for t in ticks}):
            here = [str(t - phase_start(q) + 1) for t in ticks if phase_of(t) == q]
            parts.append(f"{len(here)} in {phase_label(q)} ({self.track(name, q)}: half-segment "
                         f"{', '.join(here)})")
        return "; ".join(parts)

    def _under_way(self, c: Combatant, d: Declaration, st: _Figure, uw: UnderWay, why: str, second: bool,
                   slipped: bool) -> None:
        """000 §3 B in a fight: a spell whose casting runs past this round's phase C is still being cast at its end.
        Its span here ends there, marked :data:`~combatkit.timeline.UNDER_WAY` (the resolver spends the spell and a
        hit still ruins it, 000 §2 A); the next round sets it off (:meth:`_finish`). The phases it and its hold fill
        and the delays after it are worked out now, and carried: the next round's plan goes round them."""
        end = _end(3)
        held = self._hold_phases(c, st, uw.spell, uw.release, d.hold) if d.hold else uw.release
        self._after_spell(c, st, uw.spell, phase_of(held), second, slipped, shown=False)
        st.under_way = replace(uw, hold=d.hold, held=held, second=second, slipped=slipped)
        then = f"the next round's phase {LETTERS[(phase_of(uw.release) - 1) % 3]}"
        if uw.start <= end:
            self.add(c, SpanKind.CAST, f"{uw.label}, under way", uw.start, end, uw.rule,
                     f"{why} At the end of {phase_label(3)} it is still being cast: it goes off in {then}, on that "
                     f"round's half-segment {uw.release - end}, and a hit on {c.name} before then still ruins it "
                     f"(000 §2 A, §3 B).", uw.target, rank=uw.rank, marks=_UNDER_WAY, what=f"casts {uw.spell.name}")
        else:
            self.notes.append(f"{c.name}'s {uw.spell.name}, slipped a phase, begins in the next round and goes off in "
                              f"{then}, on that round's half-segment {uw.release - end} (000 §2 A, §3 B).")

    def _after_spell(self, c: Combatant, st: _Figure, spell: Spell, done: int, second: bool, slipped: bool,
                     shown: bool = True) -> None:
        """The delays after a spell completed in phase ``done`` (000 §3 B, Table 5); with ``shown``, its note and
        the span of its duration (:meth:`_completed`)."""
        if spell.touch:
            st.completed[spell.name] = done
        if self.options.caster_delay_by_level:
            wait = table5_delay(c.level, second)
            st.pair_phase = done + 1 if c.level >= 13 and not second else None
            rule = "000 §3 B Table 5"
            why = f"at level {c.level} Table 5 gives " + ("no delay after the first spell of a pair" if wait == 0
                                                         else f"a delay of {wait} phase(s)")
        else:
            wait, rule, why = BASE_CASTING_DELAY, "000 §3 B", "the caster waits two phases"
        st.cast_from = max(st.cast_from, done + 1 + wait)
        st.cast_block = (rule, f"{c.name} completed {spell.name} in {phase_label(done)} and {why}", slipped)
        st.attack_from = max(st.attack_from, done + CASTER_ATTACK_DELAY + 1)
        st.attack_block = ("000 §3 B", f"{c.name} completed {spell.name} in {phase_label(done)}, and a caster who "
                                       f"attacks physically after casting waits two phases", slipped)
        if shown:
            self._completed(c, spell, done, wait, rule)

    def _completed(self, c: Combatant, spell: Spell, done: int, wait: int, rule: str) -> None:
        """Say when the caster may cast again, and show the spell's duration (000 §3 B)."""
        if wait:
            self.notes.append(f"{c.name} completes {spell.name} in {phase_label(done)} and delays through "
                              f"{phase_label(done + wait)} ({rule}); the next spell may begin in "
                              f"{phase_label(done + wait + 1)}.")
        else:
            self.notes.append(f"{c.name} completes {spell.name} in {phase_label(done)}; at level {c.level} a second "
                              f"spell may begin at once, in {phase_label(done + 1)} ({rule}).")
        rounds = self.options.durations.get(spell.name)
        if rounds is not None:
            expires = spell_expiry(done, rounds)
            self.add(c, SpanKind.EFFECT, f"{spell.name} in effect", _end(done), _end(expires),
                     "000 §3 B: spell duration, three phases a round",
                     f"{spell.name} lasts {rounds} round(s) = {3 * rounds} phases from {phase_label(done)}: it expires "
                     f"at the end of {phase_label(expires)}, after all movement and combat.", rank=AFTER_ALL_RANK,
                     on_track=False)

    def _after_ruin(self, c: Combatant, spell: Spell, ruin: Tick) -> tuple[int, str]:
        """"For the remainder of the round" is the rest of the cycle, the span initiative holds for (000 §3 A): no new
        spell and no attack until the next phase A."""
        through = 3 * _cycle_of(phase_of(ruin))
        return through, (f"{c.name}'s {spell.name} was ruined by a hit at half-segment {ruin}; for the rest of the "
                         f"cycle (through {phase_label(through)}) the caster may defend and move, but not begin a "
                         f"spell or attack (000 §2 A, §3 A)")

    def _hit_before(self, name: str, phase: int) -> str | None:
        """A hit "prior to the phase" of casting is a hit in the phase just before it."""
        if phase == 1 or not any(h.target == name and phase_start(phase - 1) <= h.tick < phase_start(phase)
                                 for h in self.encounter.hits):
            return None
        return f"in {phase_label(phase - 1)}"

    def _con_check(self, c: Combatant, phase: int) -> tuple[bool, str]:
        """Rolled under the phase's own key (:meth:`_Dice.con_check`)."""
        return self.dice.con_check(c, f"CON check: {c.name}, phase {phase}")

    def _shaken(self, c: Combatant, spell: Spell, p: int) -> int | None:
        """The shaken phase is lost; the casting begins in the next, in any phase (000 §3 B)."""
        self.add(c, SpanKind.MISC, f"shaken, {spell.name} delayed", phase_start(p), _end(p),
                 "000 §2 A: hit before casting", f"A failed CON check after last phase's hit costs {c.name} this "
                 f"phase.", rank=MOVEMENT_RANK)
        return p + 1


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class PhaseSystemII(TimingSystem):
    """Combat II Phase System II as a timing system (000 §3, Tables 4-7)."""

    id = "phase2"
    aliases: tuple[str, ...] = ("phase system ii", "combat ii phase system ii", "continuous combat", "000 §3")
    title = "Combat II: Phase System II (continuous A/B/C phases)"
    short = "Combat II: Phase System II"
    source = "000 §3, Tables 4-7"
    clock = clock_for(3)
    options_class = Phase2Options
    declaration_phases = tuple(phase_label(p) for p in range(1, 10))  # three A/B/C cycles
    declaration_fields = frozenset({"feet", "attacks", "reposition", "retarget", "drop_and_draw", "readies_components",
                                    "hold"})
    hit_tick = "half-segment"
    roll_keys: tuple[str, ...] = ('initiative: <side>', 'initiative: <side>, cycle <n>', 'CON check: <name>, phase <phase>')

    rules = replace(COMBAT_II_RULES, phases=3, durations_in_phases=DURATION_RULE)
    maneuvers = frozenset(Maneuver)
    """As Phase System I's (000 §2 D), which it keeps (000 §3)."""

    def _schedule(self, encounter: Encounter, roller: Roller, options: Phase2Options) -> Timeline:
        """Place every declaration on consecutive A/B/C phases, or raise the rule it breaks."""
        return _Run(encounter, _Dice(encounter, roller, options), options).run()

    def round_options(self, options: Phase2Options | None, fight: FightRound) -> Phase2Options:
        """The round's options with what the last round of the fight left it (:class:`Phase2Carry`; nothing in
        round 1): the phases are continuous (000 §3), a round of a fight is one A/B/C cycle of them, and a spell
        still being cast at its end goes off in the next (:class:`UnderWay`)."""
        given = options if options is not None else default_options(Phase2Options)
        carried = fight.carried if isinstance(fight.carried, Phase2Carry) else None
        return _InFight(**{f.name: getattr(given, f.name) for f in fields(Phase2Options)}, carried=carried)

    def _plan_actor(self, ap: ActorPlan) -> None:
        """One A/B/C cycle, one action a phase, attacks spaced by Table 6 (000 §3 C); a spell may be begun in
        any phase (000 §3 B) (:func:`~combatkit.systems._plan.combat_ii`). In a fight the cycle goes on from the
        last round's (:class:`FigureCarry`): phases a spell begun then still fills are not free, an attack
        sequence goes on where it stands, and an attack or a spell waits out a delay carried over."""
        phases = [2, 3] if ap.surprised else [1, 2, 3]
        castable = _any_phase
        carried = _carried(ap.options)
        if carried is not None:
            held = carried.of(ap.name) or _NOTHING_HELD
            filled = {p for p, _ in held.busy}
            kinds = {intent.kind for _, intent in ap.steps}
            waits = ([held.attack_from] if IntentKind.ATTACK in kinds else []) + (
                [held.cast_from] if IntentKind.CAST in kinds else [])
            # A blow or a spell waits out its delay; the plan gives it the phases after, and what comes before it
            # in the figure's intents (a move to close) goes there too (the planner places intents in order).
            first = min(waits) if waits else 1
            phases = [p for p in phases if p not in filled and p >= first]
            ap.carried = held.seq_start  # the scheduler's sequence, not the plan's guess (000 §3 C)
            if held.cast_from > 1 or held.under_way is not None:
                castable = partial(_after_delay, held)
        combat_ii(ap, phases, castable, table6=attack_schedule,
                  cast_rule="000 §3 B: a spell may be begun in any phase, its casting spilling into the next",
                  forms=partial(_planned_forms, ap.options))

    def retarget_tick(self, attacker: Combatant, span: Span, declaration: Declaration | None,
                      weapons: tuple[Weapon, ...], options: object) -> Tick | None:
        """000 §2 C Retargeting at +3 SF, on Table 1's phase-1 rows within the span's phase
        (:func:`~combatkit.systems.phase1.retarget_half_segment`; SF as Phase System I's defaults adjust it)."""
        return retarget_half_segment(attacker, span, declaration, weapons, band_phase=1)

    def _odds_round(self, encounter: Encounter, a: str, b: str, options: Phase2Options) -> Callable[[Roller], Timeline]:
        """Only a's and b's tracks (and CON checks) can move their matchup: see :class:`_Dice`."""
        return partial(_pair_round, encounter, options, (a, b))


PHASE2: Final = register(PhaseSystemII())


odds = PHASE2.odds


def _planned_forms(options: Phase2Options, c: Combatant, weapons: tuple[Weapon, ...]) -> tuple[int, ...] | None:
    """The plan of a routine of attack forms under the optional rule (000 §3 C Table 7): the forms used each
    phase, or None when the figure strikes by Table 6."""
    count = len(natural_forms(c))
    if not forms_mode(options, c, weapons) or count not in TABLE_7:
        return None  # past six forms the round refuses the blow, naming Table 7 and Phase2Options.schedules
    return TABLE_7[count]


def _any_phase(spell: Spell, phase: int) -> str | None:
    """000 §3 B: a spell may be begun in any phase: nothing stands in its way."""
    return None


def _after_delay(held: FigureCarry, spell: Spell, phase: int) -> str | None:
    """000 §3 B: a spell may be begun in any phase after the casting delay carried from the last round, but for the
    spell still being cast from it (:class:`UnderWay`)."""
    if held.under_way is not None and held.under_way.spell.name == spell.name:
        return "000 §3 B"
    return held.cast_block[0] or "000 §3 B" if phase < held.cast_from else None


def _pair_round(encounter: Encounter, options: Phase2Options, pair: tuple[str, str], roller: Roller) -> Timeline:
    """The round :meth:`PhaseSystemII._odds_round` runs: only the pair's tracks drawn (:class:`_Dice`)."""
    return _Run(encounter, _Dice(encounter, roller, options, pair=pair), options).run()
