"""Combat II, Phase System I (seed 000 §1 and the timing rules of §2).

A round is 20 half-segments in four phases (000 Table 1). Phases 1-3 each hold
six half-segments; in each a combatant does ONE thing: move 1/3 MV, make one
attack routine, begin or continue a spell, or a brief miscellaneous action.
Phase 4 (half-segment 19 for winners, the endphase half-segment 20 for losers)
only completes 1-round spells.

Who is on which track: each side rolls a d10, low wins (000 §1 A); each figure
subtracts its DEX Reaction Adjustment from its side's roll (000 §1 B). A figure
whose adjusted roll beats the best roll of the other sides is on the winner
track; one that is beaten is on the loser track.

Choices this module makes where the seed is silent or inconsistent (each is an
option on :class:`Phase1Options`; docs/rules-choices.md lists them):

* A tie between an adjusted roll and the best opposing roll (including tied
  group rolls) puts the figure on the winner track: everyone involved then acts
  on the same half-segments, which is what "simultaneous" means in Table 1.
  ``tie_track=Track.LOSER`` is the other reading.
* Table 1 prints "SF 7-8" in phase 2 where phases 1 and 3 print "SF 7-9". We read
  it as 7-9 (SF 9 would otherwise have no row). ``phase2_literal_sf_band=True``
  reads it literally: an SF 9 attack in phase 2 strikes on the SF 10+ row.
* The spell limits of 000 §1 C ("finish a spell with less than 4 remaining CT
  units") and §1 G (begun in phase 2: CT at most 6; phase 3: at most 3) are one
  rule: three CT units per phase, finished by phase 3. There is no second reading.
* Double attacks (000 §2 C) are allowed once a creature has more attacks than
  the three attack phases; the text's "(i.e. more than 4)" is the option
  ``double_attack_above=4``.
* With the AGI/DEX split (000 Part 4) the prose says DEX's Reaction Adjustment
  lowers SF while the printed formula says "AGI bonus"; 000's Severe Miss example
  2 counts the DEX bonus. Default DEX; ``sf_uses_agility=True`` is the literal formula.
* A touch spell's touch uses the caster's first weapon's SF, or the natural SF
  for its size (000 Table 2) when it has none; the seed gives no SF for a touch.
* Holding a spell (000 §2 A: "The caster may move freely while holding a spell"): in the
  phases a hold fills, and after the release in the phase the spell is completed in, the
  caster may move, and do nothing else.

The round is Combat II's (:class:`CombatIIRound`): Phase System II's round subclasses it
(:mod:`combatkit.systems.phase2`), overriding only its hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from combatkit.dice import Roller
from combatkit.encounter import Encounter
from combatkit.errors import IllegalActionError
from combatkit.fields import field_specs
from combatkit.kinds import ActionKind, Maneuver, WeaponKind
from combatkit.model import ONE_ROUND, Combatant, Declaration, Refined, Spell, Weapon, reaction_adjustment
from combatkit.movement import phase_allowance, withdraw_allowance
from combatkit.systems._memo import by_pair, explaining, kit, memo
from combatkit.systems._plan import ActorPlan, combat_ii
from combatkit.systems.base import (
    PlacedRound, Round, TimingSystem, check_names, opposing_best, placed_round, register, sides_of,
)
from combatkit.systems.rules import ChargeRule, Flight, Retarget, SystemRules
from combatkit.timeline import SPAN_KIND, Clock, Period, Span, SpanKind, Status, Tick, Timeline, Track


__all__ = [
    "COMBAT_II_RULES", "PHASE1", "Phase1Options", "PhaseSystemI", "adjusted_speed_factor", "declared_sf_penalties",
    "reaction_terms", "retarget_half_segment", "sf_band", "strike_half_segment",
]  # fmt: skip

HALF_SEGMENTS: Final = 20
ATTACK_PHASES: Final = (1, 2, 3)
MAX_CT_BEGUN: Final = {1: 9, 2: 6, 3: 3}  # 000 §1 G and Table 1's CT columns
MAX_HOLD: Final[int] = field_specs(Refined)["hold"].high  # type: ignore[assignment]  # 000 §2 A, Holding a Spell: 6
MELEE_REACH_FT: Final = 5  # 000 §2 D, Closing Movement: "within 5' or so"
REPOSITION_FT: Final = 10  # 000 §2 A, §2 C: "a step or two (max. 10')"

CLOCK: Final = Clock(
    unit="half-segment",
    note="3 seconds",
    ticks=HALF_SEGMENTS,
    periods=(
        Period("phase", 1, 6, "1"),
        Period("phase", 7, 12, "2"),
        Period("phase", 13, 18, "3"),
        Period("phase", 19, 19, "4"),
        Period("endphase", 20, 20),
    ),
)


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class Phase1Options:
    """Readings of 000 where it is ambiguous; defaults are the ones docs/rules-choices.md explains."""

    tie_track: Track = Track.WINNER
    """Track for a figure whose adjusted roll ties the best opposing roll."""
    phase2_literal_sf_band: bool = False
    """Read Table 1's phase-2 "SF 7-8" literally (SF 9 strikes on the 10+ row)."""
    agility_split: bool = False
    """AGI/DEX split (000 Part 4): AGI's Reaction Adjustment sets the track, DEX's lowers SF."""
    sf_uses_agility: bool = False
    """With the split, take the printed formula literally: AGI bonus lowers SF."""
    double_attack_above: int = 3
    """Attacks per round beyond this allow two attacks in one phase (text: "more than 4")."""
    incremental_movement: bool = False
    """Half-segment incremental movement (000 §2 D option): a move spans the phase."""


def phase_start(phase: int) -> Tick:
    """First half-segment of a phase: 1, 7, 13, 19."""
    return 6 * (phase - 1) + 1


def phase_of(tick: Tick) -> int:
    """The phase of six half-segments ``tick`` falls in: 1 for half-segments 1-6, 2 for 7-12... (the half-segments of
    a Phase System I round's phases 1-3 and of every Phase System II phase, 000 Tables 1 and 4)."""
    return (tick - 1) // 6 + 1


def sf_band(sf: int, phase: int, literal_phase2: bool = False) -> tuple[int, str]:
    """Table 1 row for an adjusted SF: (row 1..5 within the phase, its label).

    >>> sf_band(5, 1)
    (3, 'SF 4-6')
    >>> sf_band(9, 2, literal_phase2=True)
    (5, 'SF 10+')
    """
    if sf < 2:
        return 1, "SF < 2"
    if sf <= 3:
        return 2, "SF 2-3"
    if sf <= 6:
        return 3, "SF 4-6"
    top = 8 if (phase == 2 and literal_phase2) else 9
    if sf <= top:
        return 4, f"SF 7-{top}"
    return 5, "SF 10+"


def strike_half_segment(sf: int, phase: int, track: Track, literal_phase2: bool = False) -> Tick:
    """The half-segment a physical attack lands (000 Table 1, Melee/Move columns).

    >>> strike_half_segment(3, 1, Track.WINNER), strike_half_segment(3, 1, Track.LOSER)
    (2, 3)
    >>> strike_half_segment(8, 1, Track.WINNER)
    4
    """
    row, _ = sf_band(sf, phase, literal_phase2)
    return phase_start(phase) + row - 1 + (1 if track is Track.LOSER else 0)


def release_half_segment(ct: int, phase: int, track: Track) -> Tick:
    """The half-segment a spell of CT ``ct`` begun in ``phase`` goes off (000 Table 1, CT columns).

    Each CT unit is one active half-segment: odd ones for winners, even for losers.

    >>> release_half_segment(9, 1, Track.WINNER), release_half_segment(9, 1, Track.LOSER)
    (17, 18)
    >>> release_half_segment(6, 2, Track.WINNER)
    17
    """
    return phase_start(phase) + 2 * (ct - 1) + (1 if track is Track.LOSER else 0)


def adjusted_speed_factor(combatant: Combatant, weapon: Weapon, options: Phase1Options = Phase1Options()) -> int:
    """Adjusted SF (000 §1 E): base SF - magic bonus - style specialization, plus the
    size adjustment for weapons (000 Table 2); natural attacks take the size's SF.
    With the AGI/DEX split (000 Part 4) the DEX Reaction Adjustment is subtracted too.

    >>> from combatkit.model import Abilities
    >>> thief = Combatant("thief", "a", abilities=Abilities(dexterity=16))
    >>> adjusted_speed_factor(thief, Weapon("long sword +2", 5, magic_bonus=2), Phase1Options(agility_split=True))
    2
    """
    if weapon.kind is WeaponKind.NATURAL:
        return combatant.size.natural_sf
    sf = weapon.speed_factor - weapon.magic_bonus - weapon.style_bonus + combatant.size.weapon_sf_adjustment
    if options.agility_split:
        score = combatant.abilities.agility if options.sf_uses_agility else combatant.abilities.dexterity
        sf -= reaction_adjustment(score if score is not None else combatant.abilities.dexterity)
    return sf


def retarget_half_segment(combatant: Combatant, span: Span, declaration: Declaration | None,
                          weapons: tuple[Weapon, ...], options: Phase1Options = Phase1Options(),
                          band_phase: int | None = None) -> Tick | None:
    """000 §2 C Retargeting: the half-segment a blow lands on a new target when its own fell first:
    the weapons' adjusted SF, the declaration's penalties and +3, on Table 1's row for the span's
    phase (``band_phase``: that phase's row instead) and track; None when that falls past the
    phase (the attack is lost).

    >>> blow = Span("Aldric", "a", SpanKind.ATTACK, "long sword -> orc", 3, 3, "phase 1", "", "", track=Track.WINNER)
    >>> retarget_half_segment(Combatant("Aldric", "a"), blow, None, (Weapon("long sword", 5),))  # SF 5 + 3: row 7-9
    4
    """
    sf = max(adjusted_speed_factor(combatant, w, options) for w in weapons)
    if declaration is not None:
        sf += 2 * declaration.reposition + 3 * declaration.retarget + 3 * declaration.drop_and_draw
    sf += 3
    first = (span.end - 1) // 6 * 6 + 1
    phase = (span.end - 1) // 6 + 1
    row, _ = sf_band(sf, phase if band_phase is None else band_phase, options.phase2_literal_sf_band)
    tick = first + row - 1 + (1 if span.track is Track.LOSER else 0)
    return tick if tick <= first + 5 else None


def declared_sf_penalties(d: Declaration) -> tuple[int, list[str]]:
    """SF added by how an attack is declared, with the reason for each part: a repositioning
    step +2, retargeting +3 (000 §2 C), dropping one weapon to draw another +3 (000 §2 E).

    >>> declared_sf_penalties(Declaration("x", 1, ActionKind.ATTACK, reposition=True, retarget=True))
    (5, ['+2 for a repositioning step (000 §2 C)', '+3 for retargeting (000 §2 C)'])
    """
    parts = [
        (d.reposition, 2, "+2 for a repositioning step (000 §2 C)"),
        (d.retarget, 3, "+3 for retargeting (000 §2 C)"),
        (d.drop_and_draw, 3, "+3 to drop one weapon and draw another (000 §2 E)"),
    ]
    return sum(n for on, n, _ in parts if on), [why for on, _, why in parts if on]


# ----------------------------------------------------------------- initiative


@dataclass(frozen=True)
class Initiative:
    """The round's initiative: group rolls and each figure's track."""

    group_rolls: dict[str, int]
    tracks: dict[str, Track]
    notes: tuple[str, ...]


def roll_initiative(encounter: Encounter, roller: Roller, options: Phase1Options) -> Initiative:
    """000 §1 A-B: a d10 per side, low wins; each figure's Reaction Adjustment may change its track. The notes
    are written only when the round is explained (:func:`~combatkit.systems._memo.explaining`)."""
    sides = sides_of(encounter)
    rolls = {side: roller.roll("d10", f"initiative: {side}").total for side in sides}
    explain = explaining()
    notes = []
    if explain and len(sides) == 1:
        notes.append(f"Only {sides[0]} is fighting: everyone is on the winner track.")
    elif explain:
        best = min(rolls.values())
        winners = [s for s in sides if rolls[s] == best]
        shown = ", ".join(f"{s} {rolls[s]}" for s in sides)
        if len(winners) == 1:
            notes.append(f"Initiative d10 per side (low wins): {shown}. Side {winners[0]!r} wins (000 §1 A).")
        else:
            notes.append(f"Initiative d10 per side (low wins): {shown}. {' and '.join(winners)} tie (000 §1 A).")
    tracks: dict[str, Track] = {}
    opposing_of = opposing_best(rolls)
    split, tie_track = options.agility_split, options.tie_track  # read once: the options are a Python class
    for c in encounter.combatants:
        side, name = c.side, c.name
        opposing = opposing_of.get(side)
        if opposing is None:
            tracks[name] = Track.WINNER
            continue
        score_name, score, adj = reaction_terms(c, split)
        own = rolls[side] - adj
        if own < opposing:
            track = Track.WINNER
        elif own > opposing:
            track = Track.LOSER
        else:
            track = tie_track
        tracks[name] = track
        if not explain:
            continue
        side_won = rolls[side] < opposing or (rolls[side] == opposing and tie_track is Track.WINNER)
        if adj and (track is Track.WINNER) != side_won:
            moved = "onto the winner track" if track is Track.WINNER else "onto the loser track"
            notes.append(
                f"{c.name}: {score_name} {score} gives Reaction Adjustment {adj:+d}; {rolls[c.side]} - ({adj:+d}) = "
                f"{own} against the best opposing roll {opposing} moves {c.name} {moved} (000 §1 B)."
            )
        elif adj and own == opposing and track is not Track.WINNER:
            notes.append(
                f"{c.name}: {score_name} {score} gives Reaction Adjustment {adj:+d}; {rolls[c.side]} - ({adj:+d}) = "
                f"{own} ties the best opposing roll {opposing}, and a tie stays on the {track} track "
                f"(option tie_track={track}; 000 §1 B)."
            )
    return Initiative(rolls, tracks, tuple(notes))


def reaction_terms(c: Combatant, agility_split: bool) -> tuple[str, int, int]:
    """The score that moves a figure's initiative track, its value and its Reaction Adjustment (000 §1 B; its
    Agility with ``agility_split`` when it has one, 000 Part 4), for Phase Systems I and II: in a fight, worked out
    once a run (abilities never change in one)."""
    found = memo("reaction terms")
    made = found.get((c.name, agility_split)) if found is not None else None
    if made is None:
        agility = c.abilities.agility if agility_split else None
        score = c.abilities.dexterity if agility is None else agility
        made = ("DEX" if agility is None else "AGI", score, reaction_adjustment(score))
        if found is not None:
            found[(c.name, agility_split)] = made
    return made


# ----------------------------------------------------------------- scheduling

ACTION_RANK: Final = 0
MOVEMENT_RANK: Final = 1
AFTER_ALL_RANK: Final = 2
"""The order of the spans ending on one tick, where a round orders them by rank (:attr:`CombatIIRound.ranked`): blows
and spells, then movement and other actions, then 1-round spells and expiring effects (000 §1 F, §3 B)."""
ROUND_PHASES: Final = 4  # 000 Table 1: phases 1-4 (the endphase closes phase 4)


@dataclass
class _State:
    """What one figure has done so far in a Combat II round (:class:`CombatIIRound`), and what it may no longer do.
    Phase System II's figure adds what its phases carry on (:class:`combatkit.systems.phase2._Figure`)."""

    components: bool
    """Material components in hand (000 §2 A)."""
    busy: dict[int, str] = field(default_factory=dict)
    """Phase -> what fills it (000 §1 C: one action a phase)."""
    involuntary: set[int] = field(default_factory=set)
    """Phases filled by surprise or a slipped spell: later declarations there are cancelled, not refused."""
    holding: set[int] = field(default_factory=set)
    """Phases a completed spell is held in: the caster may move (000 §2 A)."""
    attacked: set[int] = field(default_factory=set)
    """Phases it attacked in (a touch spell's touch too in Phase System I, where it counts as the round's attack)."""
    cast: Spell | None = None
    """The spell it began this round: Phase System I allows one, and no attack beside it (000 §2 A)."""
    attacks_used: dict[str, int] = field(default_factory=dict)
    """Phase System I: weapon name -> attacks made with it this round (000 §2 C)."""
    ruined_through: int = 0
    """Through this phase a spell of its ruined by a hit leaves it defending and moving only (000 §2 A)."""
    ruin_reason: str = ""
    """Why, in the words a cancelled declaration gives."""

    def __init__(self, components: bool, cast: Spell | None = None, ruined_through: int = 0,
                 ruin_reason: str = "") -> None:
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


S = TypeVar("S", bound=_State)


@dataclass(frozen=True)
class Casting:
    """When a spell begun in a phase is cast (:meth:`CombatIIRound._casting`): the system's CT columns."""

    start: Tick
    """Its first casting unit."""
    release: Tick
    """The tick it goes off."""
    last: int
    """The last phase its casting fills (000 §1 C: one action a phase)."""
    exposed: Tick
    """The first tick a hit on the caster ruins it (000 §2 A: "being cast during the current phase")."""
    rule: str
    """The rule that places its casting units."""
    why: str
    """How, in words."""
    rank: int = ACTION_RANK
    """Its order among the spans ending on its tick (a 1-round spell after all other actions, 000 §3 B)."""
    full: bool = False
    """A spell of one round."""
    units: tuple[Tick, ...] = ()
    """Its casting units, where the system counts them one by one (000 Table 4)."""


COMBAT_II_RULES: Final = SystemRules(
    "000", "000 §1 E Simultaneous Actions: dying or incapacitation occur after the half-segment's actions",
    "000 §1 E: killing an opponent on a half-segment prior to the opponent's attack preempts the attack",
    Retarget.COMBAT_II, "000 §2 C Retargeting", 4, moves_first=False, flight=Flight.COMBAT_II,
    flee_rule="000 §2 D Withdrawing / Fleeing", charge=ChargeRule.COMBAT_II, reach_rule="000 §2 D Closing Movement",
    move_allowance=phase_allowance, withdraw_allowance=withdraw_allowance, components_in_hand=True)
"""What Combat II says about playing a round out (Phase System I: four phases a round; Phase System II
counts three)."""


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class PhaseSystemI(TimingSystem):
    """Combat II Phase System I as a timing system (000 §1-2)."""

    id = "phase1"
    aliases: tuple[str, ...] = ("phase system i", "combat ii phase system i", "combat ii", "c2", "000")
    title = "Combat II: Phase System I"
    source = "000 §1-2, Table 1"
    clock = CLOCK
    options_class = Phase1Options
    declaration_phases: tuple[str, ...] = ("phase 1", "phase 2", "phase 3")  # 000 §1 C: phase 4 only completes 1-round spells
    declaration_fields = frozenset({"feet", "attacks", "reposition", "retarget", "drop_and_draw", "readies_components",
                                    "hold"})
    hit_tick = "half-segment"
    roll_keys: tuple[str, ...] = ('initiative: <side>', 'CON check: <name>')
    odds_limit = 12_000
    """Every initiative d10 is a branch: 10**sides runs (four sides, about 5 s) and more with CON checks."""

    rules = COMBAT_II_RULES
    maneuvers = frozenset(Maneuver)
    """000 §2 D Charging, Withdrawing / Fleeing; 002's unarmed attacks as the resolver plays every system's."""

    def _schedule(self, encounter: Encounter, roller: Roller, options: Phase1Options) -> Timeline:
        """Place one round's declarations on Table 1, or raise the rule they break."""
        return CombatIIRound(encounter, roller, options, _State).run()

    def _plan_actor(self, ap: ActorPlan) -> None:
        """One action a phase in phases 1-3 (2-3 for a surprised figure, 000 §2 F;
        :func:`~combatkit.systems._plan.combat_ii`); a spell is begun where its CT fits (000 §1 G)."""
        combat_ii(ap, [2, 3] if ap.surprised else [1, 2, 3], _fits)

    def castable(self, spell: Spell, *, surprised: bool, ready_first: bool) -> bool:
        """000 §1 G: begun in phase 1 (phase 2 when surprised, 000 §2 F; a phase later when the
        components are readied first), a spell may not exceed CT 9 begun in phase 1, 6 in phase 2,
        3 in phase 3; a 1-round spell is begun in phase 1."""
        start = (2 if surprised else 1) + (1 if ready_first else 0)
        if spell.casting_time == ONE_ROUND:
            return start == 1
        return start in MAX_CT_BEGUN and int(spell.casting_time) <= MAX_CT_BEGUN[start]

    def retarget_tick(self, attacker: Combatant, span: Span, declaration: Declaration | None,
                      weapons: tuple[Weapon, ...], options: Phase1Options | None) -> Tick | None:
        """000 §2 C Retargeting on Table 1 (:func:`retarget_half_segment`)."""
        return retarget_half_segment(attacker, span, declaration, weapons,
                                     options if isinstance(options, Phase1Options) else Phase1Options())


class CombatIIRound(Round, Generic[S]):
    """One round placed by Combat II's rules (000 §1-2): Phase System I's round, and the round Phase System II's
    (:class:`combatkit.systems.phase2._Run`) subclasses, overriding only the hooks where 000 §3 differs, as
    python-chess's ``GiveawayBoard(SuicideBoard)`` overrides hooks, not copies: its clock of A/B/C phases running on
    (:meth:`_check_phase`, :meth:`_phase_name`, :meth:`_period`, :meth:`_describe`, :meth:`_placing`, and the class
    attributes below), its tracks rolled at every phase A (:meth:`_rolled`, :meth:`track`), its spells begun in any
    phase and followed by a delay (Tables 4-5: :meth:`_may_begin`, :meth:`_casting`, :meth:`_goes_on`,
    :meth:`_after_casting`, :meth:`_after_ruin`, :meth:`_hit_before`, :meth:`_con_check`, :meth:`_shaken`), its moves
    spilling over (:meth:`_move_phases`) and its blows on Tables 6-7 (:meth:`_blow`, :meth:`_touch`).

    Each rule of 000 §1-2 is written here once: one action a phase and surprise (:meth:`_declare`), movement
    (:meth:`_move`), blows (:meth:`_attack`, :meth:`_strike`, :meth:`_check_reach`), spells, holding them and a hit
    ruining or delaying them (:meth:`_cast`, :meth:`_hold`, :meth:`_ruin`, :meth:`_ruining_hit`,
    :meth:`_hit_before_casting`), miscellaneous actions and readying (:meth:`_misc`, :meth:`_ready`); and the run's
    memo is looked up and kept in :meth:`run` only."""

    system: ClassVar[str] = "phase1"
    """The timing system's id: its timelines' and its placed rounds' (:func:`~combatkit.systems.base.placed_round`)."""
    table: ClassVar[str] = "000 Table 1"
    """The table of the round's blows and casting units."""
    first_phase: ClassVar[str] = "phase 1"
    """The phase a surprised figure loses (000 §2 F)."""
    rest_of_round: ClassVar[str] = "for the rest of the round"
    """How long a caster whose spell a hit ruined may only defend and move (000 §2 A)."""
    ranked: ClassVar[bool] = False
    """Whether the spans ending on one tick are ordered by rank (movement after blows, 1-round spells after all):
    Phase System I's ticks order them already (movement on a phase's last half-segment, 1-round spells in phase 4)."""
    ruin_stops_attacks: ClassVar[bool] = False
    """Whether a ruined spell cancels its caster's attacks for the rest of the round too, as its spells; Phase System
    I refuses an attack beside a spell anyway (000 §2 A)."""
    closes_within_phase: ClassVar[bool] = True
    """Whether a move closes its gap for the declarations placed after it in its own phase (Phase System I), or from
    the next phase on, movement coming after the phase's attacks (000 §1 F)."""

    def __init__(self, encounter: Encounter, roller: Roller, readings: Phase1Options,
                 figure: Callable[[bool], S]) -> None:
        super().__init__(encounter)
        self.roller = roller
        self.readings = readings
        """The readings of 000 the blows and moves are placed by (:class:`Phase1Options`)."""
        self.figure = figure
        """A figure's state as the round begins, given its components in hand."""
        self.state: dict[str, S] = {}
        """What each figure has done so far as the round is placed (made only for a round placed afresh, not for one
        looked up: most rounds of a run, #18)."""
        self.tracks: dict[str, Track] = {}
        """Each figure's track this round (000 §1 A-B: :meth:`_rolled`)."""
        self.dice_notes: list[str] = []
        """What the round's dice say (the initiative), before the placing's notes."""
        self.gaps: dict[frozenset[str], int] = {}
        """The distances the round begins with, by pair (read only)."""
        self.closures: list[tuple[frozenset[str], int, int]] = []
        """The moves closing a gap so far: (pair, phase, feet)."""

    # -- the round

    def run(self) -> Timeline:
        """The round placed, or, in a fight, a round placed before that looks the same once its dice are rolled (the
        run's memo, :mod:`combatkit.systems._memo`: looked up and kept here only)."""
        check_names(self.encounter)
        placed = self._rolled()
        known = placed.before() if placed is not None else None
        if known is None:
            known = self._place()
            if placed is not None and self._keeps():
                placed.keep(known)
        clock, spans, notes, carry = known
        return Timeline(self.system, clock, spans, tuple(self.dice_notes) + notes, tuple(self.roller.log), carry=carry)

    def _rolled(self) -> PlacedRound | None:
        """Roll what the placing reads first, 000 §1 A-B's initiative, and say where the run keeps a round that looks
        the same once it is known (None outside a fight): its placing rolls nothing more unless a hit calls for a CON
        check (000 §2 A)."""
        initiative = roll_initiative(self.encounter, self.roller, self.readings)
        self.tracks = initiative.tracks
        self.dice_notes.extend(initiative.notes)
        return placed_round(self.system, self.encounter, self.readings, tuple(self.tracks.values()))

    def _keeps(self) -> bool:
        """Whether the round placed afresh is kept for the rounds that look the same."""
        return True

    def _place(self) -> tuple[Clock, tuple[Span, ...], tuple[str, ...], Any]:
        """Place the round afresh: its clock, spans and notes, and what it leaves the next round (:meth:`_placing`)."""
        self.gaps = by_pair(self.encounter.distances)
        self.state = {c.name: self.figure(c.components_ready) for c in self.encounter.combatants}
        self._begin()
        for c in self.encounter.combatants:
            if c.surprised:
                self._surprised(c)
        self.walk()
        clock, carry = self._placing()
        return clock, self.placed(), tuple(self.notes), carry

    def _begin(self) -> None:
        """What the placing says before any declaration: who states intentions first (000 §1 C)."""
        self.notes.extend(self._declaration_order())

    def _placing(self) -> tuple[Clock, Any]:
        """The clock that shows the round, and what it leaves the next (nothing: Phase System I's rounds stand
        alone)."""
        return CLOCK, None

    def _declaration_order(self) -> list[str]:
        losers = [c.name for c in self.encounter.combatants if self.tracks[c.name] is Track.LOSER]
        winners = [c.name for c in self.encounter.combatants if self.tracks[c.name] is Track.WINNER]
        if not losers:
            return [f"Everyone is on the winner track: {', '.join(winners)}."]
        if not winners:
            return [f"Everyone is on the loser track: {', '.join(losers)}."]
        return [
            f"Winner track (odd half-segments for casting, one row ahead for blows): {', '.join(winners)}.",
            f"Loser track: {', '.join(losers)}. In each phase the losers state their intentions first, "
            f"then the winners, who may react to them (000 §1 C).",
        ]

    # -- the clock and the tracks

    def track(self, name: str, phase: int) -> Track:
        """``name``'s track in ``phase``: the round's (000 §1 A-B)."""
        return self.tracks[name]

    def _phase_name(self, phase: int) -> str:
        """What a reader calls ``phase``: ``"phase 2"``."""
        return f"phase {phase}"

    def _period(self, start: Tick, end: Tick) -> str:
        """The period a span is shown in: the phase it begins in (a spell in the phase it is begun in)."""
        return CLOCK.period_of(start).label  # type: ignore[union-attr]  # every tick of the round has one

    def _describe(self, tick: Tick) -> str:
        """``"half-segment 9 (phase 2)"``, and what a tick past the round means (000 §2 A, Holding a Spell)."""
        nxt = " — into the next round, where it counts as that round's casting" if tick > HALF_SEGMENTS else ""
        return CLOCK.describe(tick) + nxt

    def _check_phase(self, c: Combatant, d: Declaration) -> None:
        """000 Table 1: phases 1-4, of which phase 4 only completes 1-round spells (000 §1 H)."""
        if d.phase not in (1, 2, 3, 4):
            raise IllegalActionError("000 Table 1", f"{c.name}: Phase System I has phases 1-4, got phase {d.phase}")
        if d.phase == 4:
            raise IllegalActionError(
                "000 §1 H",
                f"{c.name} declared {d.kind.value} in phase 4: phase 4 only completes 1-round spells; "
                f"no movement or physical attacks (a 1-round spell is begun in phase 1)",
            )

    # -- spans

    def add(self, c: Combatant, kind: SpanKind, action: str, start: Tick, end: Tick, rule: str, why: str,
            target: str | None = None, status: Status = Status.DONE, rank: int = ACTION_RANK, *,
            on_track: bool = True, marks: frozenset[str] = frozenset(), what: str = "") -> None:
        """Place a span on ``c``'s track (``on_track``) in its period (:meth:`_period`); ``rank`` orders it among the
        spans ending on its tick, where the round orders them so (:attr:`ranked`); ``what``: the action without its
        target or notes (:attr:`Span.what <combatkit.timeline.Span.what>`)."""
        track = self.track(c.name, phase_of(end)) if on_track else None
        self.add_span(Span(c.name, c.side, kind, action, start, end, self._period(start, end), rule, why, track=track,
                           target=target, status=status, marks=marks, what=what),
                      rank if self.ranked else ACTION_RANK)

    def _surprised(self, c: Combatant) -> None:
        """000 §2 F: a surprised figure loses the first phase."""
        st = self.state[c.name]
        st.busy[1] = "surprised"
        st.involuntary.add(1)
        self.add(c, SpanKind.SURPRISED, f"surprised: loses {self.first_phase}", 1, 6, "000 §2 F",
                 f"{c.name} is surprised and loses one full phase.", rank=MOVEMENT_RANK)

    def _declare(self, c: Combatant, d: Declaration) -> None:
        """000 §1 C: one action a phase (a held spell's phases leave room for a move, 000 §2 A); a declaration in a
        phase that surprise or a slipped spell filled is refused or cancelled (000 §2 F, §2 A)."""
        st = self.state[c.name]
        p = d.phase
        self._check_phase(c, d)
        if p in st.busy and not (p in st.holding and d.kind is ActionKind.MOVE):
            if p in st.involuntary:
                if st.busy[p] == "surprised":
                    raise IllegalActionError("000 §2 F", f"{c.name} is surprised and loses {self._phase_name(p)}, "
                                                         f"so cannot {d.kind.value} then")
                self.add(c, SPAN_KIND[d.kind], f"{d.kind.value} (cancelled)", phase_start(p), phase_start(p),
                         "000 §2 A", f"Cancelled: {st.busy[p]}.", d.target, Status.CANCELLED, MOVEMENT_RANK,
                         what=d.kind.value)
                return
            raise IllegalActionError("000 §1 C", f"one action per phase: {c.name} is already {st.busy[p]} in "
                                                 f"{self._phase_name(p)} and cannot also {d.kind.value}")
        {
            ActionKind.MOVE: self._move,
            ActionKind.ATTACK: self._attack,
            ActionKind.CAST: self._cast,
            ActionKind.MISC: self._misc,
            ActionKind.READY: self._ready,
        }[d.kind](c, d, st)

    # -- movement

    def _gap(self, a: str, b: str, before: int) -> int | None:
        """The distance between ``a`` and ``b`` as a declaration of phase ``before`` finds it (None: not given): the
        round's, less the moves closing it in earlier phases, and in its own (:attr:`closes_within_phase`)."""
        pair = frozenset((a, b))
        given = self.gaps.get(pair)
        if given is None:
            return None
        last = before if self.closes_within_phase else before - 1
        return max(0, given - sum(feet for p, when, feet in self.closures if p == pair and when <= last))

    def _move(self, c: Combatant, d: Declaration, st: S) -> None:
        """000 §1 F: up to 1/3 MV a phase, after the phase's attacks and spells, stopping on reaching its target."""
        per_phase = c.movement * 10 // 3
        gap = self._gap(c.name, d.target, d.phase) if d.target is not None else None
        feet = d.feet if d.feet is not None else (min(gap, per_phase) if gap is not None else per_phase)
        phases = self._move_phases(c, d, st, feet, per_phase)
        left = feet
        for k, q in enumerate(range(d.phase, d.phase + phases), 1):
            step = min(per_phase, left)
            left -= step
            st.busy[q] = "moving"
            st.holding.discard(q)  # a held spell's phase leaves room for one move, not two (000 §1 C)
            where = ""
            if gap is not None:
                self.closures.append((frozenset((c.name, d.target)), q, step))  # type: ignore[arg-type]
                now = self._gap(c.name, d.target, q + 1)  # type: ignore[arg-type]
                where = f" {c.name} is now {now}' from {d.target}." if now else f" {c.name} reaches {d.target}."
            end = phase_start(q) + 5
            toward = f" toward {d.target}" if d.target else ""
            if self.readings.incremental_movement:
                self.add(c, SpanKind.MOVE, f"moves {step}'{toward}", phase_start(q), end,
                         "000 §2 D option, Table 3: movement spread over the phase's half-segments",
                         f"{c.name} moves {step}' spread over the six half-segments of {self._phase_name(q)} "
                         f"(1/3 MV {c.movement}).{where}", d.target, rank=MOVEMENT_RANK)
                continue
            part, spill = (f" ({k} of {phases} phases)", " A move longer than 1/3 MV spills over into the next "
                                                          "phase (000 §3).") if phases > 1 else ("", "")
            self.add(c, SpanKind.MOVE, f"moves {step}'{toward}{part}", end, end,
                     "000 §1 F, §3: movement after attacks and spells, spilling over" if phases > 1 else
                     "000 §1 F: movement after attacks and spells",
                     f"{c.name} moves {step}' (up to 1/3 of MV {c.movement}) after the phase's attacks and spells "
                     f"are resolved.{spill}{where}", d.target, rank=MOVEMENT_RANK)

    def _move_phases(self, c: Combatant, d: Declaration, st: S, feet: int, per_phase: int) -> int:
        """The phases a move of ``feet`` fills: one, up to 1/3 MV (000 §1 F)."""
        if feet > per_phase:
            raise IllegalActionError("000 §1 F", f"{c.name} may move up to 1/3 MV per phase: MV {c.movement} allows "
                                                 f"{per_phase}' a phase, not {feet}'")
        return 1

    # -- attacks

    def _attack(self, c: Combatant, d: Declaration, st: S) -> None:
        """000 §2 C: a blow (:meth:`_blow`), or the touch of a touch spell (000 §2 A: :meth:`_touch`)."""
        if self.ruin_stops_attacks and st.ruined_through >= d.phase:
            self._recovering(c, d, st, SpanKind.ATTACK, "attack")
            return
        if d.spell is None:
            self._blow(c, d, st)
            return
        spell = c.spell(d.spell)
        if not spell.touch:
            raise IllegalActionError("000 §2 A", f"{spell.name} is not a touch spell, so {c.name} cannot deliver it "
                                                 f"by attack")
        self._touch(c, d, st, spell)

    def _blow(self, c: Combatant, d: Declaration, st: S) -> None:
        """000 §2 C: the round's attacks, at most one a phase (two once a figure has more than the phases hold); no
        attack in a round with a spell (000 §2 A)."""
        if st.cast is not None:
            raise IllegalActionError("000 §2 A", f"{c.name} is casting {st.cast.name} this round and so cannot attack "
                                                 f"(no casting and attacking in one round, touch spells excepted)")
        arms = kit(c)
        weapons = arms.striking(d.weapons)
        for w in weapons:
            own = arms.attacks_in_round(self.encounter.round, w)
            used = st.attacks_used.get(w.name, 0)
            if used + d.attacks > own:
                raise IllegalActionError("000 §2 C", f"{c.name} has {own} attack(s) with the {w.name} in round "
                                                     f"{self.encounter.round} and has used {used}; cannot make "
                                                     f"{d.attacks} more")
        self._double_attack(c, d, weapons)
        self._strike(c, d, st, weapons, d.attacks, " + ".join(w.name for w in weapons), "", "")
        for w in weapons:
            st.attacks_used[w.name] = st.attacks_used.get(w.name, 0) + d.attacks
        st.attacked.add(d.phase)

    def _touch(self, c: Combatant, d: Declaration, st: S, spell: Spell) -> None:
        """000 §2 A Touch Spells: the touch of the spell cast this round, in the attack portion of a later phase."""
        if st.cast is None or st.cast.name != spell.name:
            raise IllegalActionError("000 §2 A", f"{c.name} must cast {spell.name} before delivering its touch "
                                                 f"(in the attack portion of a later phase)")
        weapons = c.weapons[:1]
        self._double_attack(c, d, weapons)
        self._strike(c, d, st, weapons, d.attacks, f"touch: {spell.name}", "", "")
        st.attacked.add(d.phase)

    def _double_attack(self, c: Combatant, d: Declaration, weapons: tuple[Weapon, ...]) -> None:
        """000 §2 C Multiple Attacks: two attacks in one phase only with more attacks a round than the phases."""
        if d.attacks != 2:
            return
        arms = kit(c)
        available = min((arms.attacks_in_round(self.encounter.round, w) for w in weapons), default=1)
        if available <= self.readings.double_attack_above:
            raise IllegalActionError("000 §2 C", f"{c.name} may attack twice in a phase only with more than "
                                                 f"{self.readings.double_attack_above} attacks a round, has {available}")

    def _strike(self, c: Combatant, d: Declaration, st: S, weapons: tuple[Weapon, ...], count: int, what: str,
                touch_rule: str, explain: str) -> None:
        """The blow (``count`` 2: and a second, 000 §2 C) on the speed-factor row of its phase and track (000 §1 E,
        the system's :attr:`table`): the weapons' adjusted SF, the slowest of a multi-part routine, plus the
        declaration's penalties (000 §2 C, E); or, closing on a surprised figure, at the end of the move (000 §2 F).
        ``touch_rule``: the rule a touch cites instead; ``explain``: what the system adds to why."""
        p = d.phase
        start = phase_start(p)
        track = self.track(c.name, p)
        sfs = [adjusted_speed_factor(c, w, self.readings) for w in weapons]
        base = max(sfs) if sfs else c.size.natural_sf
        penalty, extras = declared_sf_penalties(d)
        sf = base + penalty
        target = f" -> {d.target}" if d.target else ""
        if d.feet is not None:
            tick = self._close_on_surprised(c, d)
            rule = "000 §2 F: closing on a surprised figure, the blow follows the movement"
            why = f"{d.target} is surprised, so {c.name} moves {d.feet}' and strikes at the end of the movement."
        else:
            self._check_reach(c, d, bool(weapons) and all(w.kind is WeaponKind.MISSILE for w in weapons))
            literal = self.readings.phase2_literal_sf_band
            _, band = sf_band(sf, p, literal)
            tick = strike_half_segment(sf, p, track, literal)
            names = " and ".join(w.name for w in weapons) if weapons else "natural attack"
            parts = f" (the slowest of SF {', '.join(map(str, sfs))}, 000 §2 C multi-part routine)" if len(sfs) > 1 \
                else ""
            bumps = f" Then {'; '.join(extras)}: SF {sf}." if extras else ""
            rule = touch_rule or f"{self.table}: {track}, {band}"
            why = (f"The {names} has adjusted SF {base}{parts}.{bumps} On the {track} track the {band} row is "
                   f"half-segment {tick - start + 1} of {self._phase_name(p)}.")
        self.add(c, SpanKind.ATTACK, what + target, tick, tick, rule, f"{why} {explain}" if explain else why, d.target,
                 what=what)
        if count == 2:
            gap = max(sf, 1)  # an SF below 1 still leaves the second blow a half-segment behind the first
            second = tick + gap
            if second > start + 5:
                raise IllegalActionError("000 §2 C", f"{c.name}'s double attack: the second blow lands SF {sf} "
                                                     f"half-segments after the first, at half-segment {second}, past "
                                                     f"the end of {self._phase_name(p)}")
            self.add(c, SpanKind.ATTACK, f"second blow{target}", second, second,
                     "000 §2 C: double attack, first blow's half-segment + SF",
                     f"More attacks than phases: the second blow of the phase follows the first by the weapon's SF "
                     f"({gap}) half-segments.", d.target, what="second blow")
        st.busy[p] = "attacking"

    def _close_on_surprised(self, c: Combatant, d: Declaration) -> Tick:
        """000 §2 F: moving up to a surprised figure in the phase it loses, the blow lands at the end of the move."""
        target = self.people.get(d.target) if d.target else None
        if target is None or not target.surprised or d.phase != 1:
            raise IllegalActionError("000 §1 F", f"{c.name} may not move and attack in the same phase (only a charge, "
                                                 f"a short repositioning step, or closing on a surprised figure in its "
                                                 f"lost {self.first_phase})")
        allowed = c.movement * 10 // 3
        if d.feet > allowed:  # type: ignore[operator]
            raise IllegalActionError("000 §1 F", f"{c.name} may move up to {allowed}' a phase, not {d.feet}'")
        if self._gap(c.name, target.name, d.phase) is not None:
            self.closures.append((frozenset((c.name, target.name)), d.phase, d.feet))  # type: ignore[arg-type]
        return phase_start(d.phase) + 5

    def _check_reach(self, c: Combatant, d: Declaration, ranged: bool) -> None:
        """000 §2 D Closing Movement: a melee blow needs its target within 5', 10' with a repositioning step."""
        if ranged or d.target is None:
            return
        gap = self._gap(c.name, d.target, d.phase)
        reach = MELEE_REACH_FT + (REPOSITION_FT if d.reposition else 0)
        if gap is not None and gap > reach:
            hint = "" if d.reposition else "; a repositioning step (+2 SF) covers up to 10'"
            raise IllegalActionError("000 §2 D", f"{c.name} is {gap}' from {d.target} in {self._phase_name(d.phase)}: "
                                                 f"a melee attack needs striking distance ({reach}'){hint}. Move first.")

    # -- spells

    def _cast(self, c: Combatant, d: Declaration, st: S) -> None:
        """000 §2 A: a spell begun in its phase (a phase later after a hit and a failed CON check), cast on the
        caster's active half-segments (:meth:`_casting`), one action a phase through its release; ruined by a hit
        while it is cast or held; held ``hold`` CT units more."""
        spell = c.spell(d.spell)
        p = d.phase
        if not self._may_begin(c, d, st, spell):
            return
        if not 0 <= d.hold <= MAX_HOLD:
            raise IllegalActionError("000 §2 A", f"a spell may be held at most {MAX_HOLD} CT, not {d.hold}")
        if "M" in spell.component_set and not st.components:
            raise IllegalActionError("000 §2 A", f"{spell.name} needs material components and {c.name} has none in "
                                                 f"hand: spend an earlier phase readying them (a misc action with "
                                                 f"readies_components)")
        begin = self._hit_before_casting(c, spell, p, st)
        if begin is None:
            return
        casting = self._casting(c, d, st, spell, begin)
        phases = range(begin, casting.last + 1)
        for q in phases:
            if q in st.busy:
                raise IllegalActionError("000 §1 C", f"{c.name}'s {spell.name} runs through {self._phase_name(q)}, "
                                                     f"where {c.name} is already {st.busy[q]}: one action per phase")
        slipped = begin != p
        for q in phases:
            if slipped:
                st.busy[q] = (f"{c.name}'s {spell.name} slipped into {self._phase_name(begin)} after a failed CON "
                              f"check")
                st.involuntary.add(q)
            else:
                st.busy[q] = f"casting {spell.name}"
        if "M" in spell.component_set:
            st.components = False  # used up: the next such spell needs them readied again
        st.cast = spell
        casts = f"casts {spell.name}"
        label = f"{casts} ({'1 round' if casting.full else f'CT {spell.casting_time}'})" + (
            f" -> {d.target}" if d.target else "")
        ruin = self._ruining_hit(c.name, casting.exposed, casting.release)
        if ruin is not None:
            self._ruin(c, st, spell, label, casting.start, ruin, d.target, "casting", what=casts)
            return
        why = casting.why + (" A psionic power counts as spellcasting (000 §2 B)." if spell.psionic else "")
        if self._goes_on(c, d, st, spell, casting, label, why, begin, slipped):
            return
        self.add(c, SpanKind.CAST, label, casting.start, casting.release, casting.rule, why, d.target,
                 rank=casting.rank, what=casts)
        done = self._hold(c, d, st, spell, casting.release) if d.hold else casting.release
        if done is not None:
            self._after_casting(c, st, spell, done, begin, slipped)

    def _may_begin(self, c: Combatant, d: Declaration, st: S, spell: Spell) -> bool:
        """000 §2 A: one spell a round, none in a round with an attack; after a ruined spell, a later one is
        cancelled (False: nothing more to place)."""
        if st.attacked:
            raise IllegalActionError("000 §2 A", f"{c.name} attacked in phase {min(st.attacked)} and so cannot cast "
                                                 f"this round (no casting and attacking in one round)")
        if st.cast is None:
            return True
        if st.ruined_through >= d.phase:
            self._recovering(c, d, st, SpanKind.CAST, spell.name)
            return False
        raise IllegalActionError("000 §2 A", f"only one spell may be completed each round: {c.name} already cast "
                                             f"{st.cast.name}, so cannot begin {spell.name}")

    def _casting(self, c: Combatant, d: Declaration, st: S, spell: Spell, begin: int) -> Casting:
        """000 Table 1's CT columns: each CT unit one active half-segment of the caster's track (odd ones for
        winners, even for losers), three a phase, a spell begun in phase 2 at most CT 6, in phase 3 at most CT 3
        (000 §1 G); a 1-round spell begun in phase 1 goes off in phase 4 (winners) or the endphase (losers)."""
        track = self.tracks[c.name]
        start = phase_start(begin) + (1 if track is Track.LOSER else 0)
        if spell.full_round:
            if begin != 1:
                raise IllegalActionError("000 Table 1", f"{spell.name} takes 1 round: it is begun in phase 1 and "
                                                        f"completes in phase 4, so it cannot be begun in phase {begin}")
            release = 19 if track is Track.WINNER else 20
            return Casting(
                start, release, 3, phase_start(begin),
                f"000 Table 1: {track}, 1-round spell in {'phase 4' if release == 19 else 'the endphase'}",
                f"{spell.name} takes a full round: begun in phase 1, it goes off in half-segment {release} "
                f"({'phase 4, winner' if release == 19 else 'endphase, loser'}) after all other actions.", full=True)
        ct = int(spell.casting_time) + (1 if d.reposition else 0)
        limit = MAX_CT_BEGUN[begin]
        if ct > limit:
            raise IllegalActionError("000 §1 G", f"{spell.name} has CT {ct}; a spell begun in phase {begin} may not "
                                                 f"exceed CT {limit} (it must go off by the end of phase 3)")
        release = release_half_segment(ct, begin, track)
        extra = f" A repositioning step first adds 1 to CT (000 §2 A): CT {ct}." if d.reposition else ""
        active = "odd" if track is Track.WINNER else "even"
        return Casting(
            start, release, phase_of(release), phase_start(begin),
            f"000 Table 1: {track} CT column, CT {spell.casting_time} begun in phase {begin}",
            f"Each CT unit takes one active half-segment ({active} ones on the {track} track), three a phase; {ct} "
            f"units begun in phase {begin} end at half-segment {release}.{extra}")

    def _goes_on(self, c: Combatant, d: Declaration, st: S, spell: Spell, casting: Casting, label: str, why: str,
                 begin: int, slipped: bool) -> bool:
        """Whether the spell, not ruined, goes off in a later round, placed there (True); a Phase System I round's
        spells go off in it."""
        return False

    def _after_casting(self, c: Combatant, st: S, spell: Spell, done: Tick, begin: int, slipped: bool) -> None:
        """What follows a spell completed (and released) on tick ``done``: nothing more in Phase System I."""

    def _active_after(self, name: str, after: Tick, units: int) -> list[Tick]:
        """The next ``units`` active half-segments after tick ``after`` (000 Table 1's CT columns), each on the
        track of its phase (odd ones for winners, even for losers)."""
        ticks: list[Tick] = []
        q = phase_of(after + 1)
        while len(ticks) < units:
            offset = 0 if self.track(name, q) is Track.WINNER else 1
            ticks += [t for t in range(phase_start(q) + offset, phase_start(q) + 6, 2) if t > after][:units - len(ticks)]
            q += 1
        return ticks

    def _hold(self, c: Combatant, d: Declaration, st: S, spell: Spell, release: Tick) -> Tick | None:
        """000 §2 A Holding a Spell: the spell held ``d.hold`` CT units after its release; the tick it goes off,
        None when a hit ruins it."""
        held = self._hold_phases(c, st, spell, release, d.hold)
        return self._hold_span(c, st, spell, d.hold, d.target, release, held)

    def _hold_phases(self, c: Combatant, st: S, spell: Spell, release: Tick, hold: int) -> Tick:
        """Fill the phases a spell held ``hold`` CT units after ``release`` takes, on active half-segments, leaving the
        caster free to move in them, and after the release in its own phase (000 §2 A: "The caster may move freely
        while holding a spell"); the tick it ends."""
        held = self._active_after(c.name, release, hold)[-1]
        st.holding.add(phase_of(release))
        for q in range(phase_of(release) + 1, phase_of(held) + 1):
            if q in st.busy:
                raise IllegalActionError("000 §1 C", f"{c.name} holds {spell.name} into {self._phase_name(q)}, where "
                                                     f"{c.name} is already {st.busy[q]}")
            st.busy[q] = f"holding {spell.name}"
            st.holding.add(q)
        return held

    def _hold_span(self, c: Combatant, st: S, spell: Spell, hold: int, target: str | None, release: Tick,
                   held: Tick) -> Tick | None:
        """The hold's span, or its ruin by a hit (000 §2 A): the tick it ends, None when ruined."""
        ruin = self._ruining_hit(c.name, release, held)
        holds = f"holds {spell.name} {hold} CT, releases"
        label = holds + (f" -> {target}" if target else "")
        if ruin is not None:
            self._ruin(c, st, spell, label, release, ruin, target, "holding", kind=SpanKind.HOLD, what=holds)
            return None
        self.add(c, SpanKind.HOLD, label, release, held, "000 §2 A: holding a spell (max 6 CT)",
                 f"{c.name} holds the completed spell {hold} more CT units and releases it at {self._describe(held)}. "
                 f"The caster may move while holding; a hit still ruins it.", target, what=holds)
        return held

    def _ruin(self, c: Combatant, st: S, spell: Spell, label: str, start: Tick, ruin: Tick, target: str | None,
              doing: str, kind: SpanKind = SpanKind.CAST, what: str = "") -> None:
        """000 §2 A Caster Takes Damage: the spell cast or held is ruined; for the rest of the round
        (:meth:`_after_ruin`) its caster may defend and move but begin no spell, and its later phases are free.
        ``what``: the span's action without its target (:attr:`Span.what <combatkit.timeline.Span.what>`)."""
        ruined = phase_of(ruin)
        st.ruined_through, st.ruin_reason = self._after_ruin(c, spell, ruin)
        self.add(c, kind, label, min(start, ruin), ruin, "000 §2 A: caster takes damage",
                 f"{c.name} is hit at half-segment {ruin} while {doing}: the spell is ruined. {c.name} may defend and "
                 f"move {self.rest_of_round} but not begin a new spell.", target, Status.RUINED, what=what)
        for q in [q for q in st.busy if q > ruined and spell.name in st.busy[q]]:
            del st.busy[q]
            st.involuntary.discard(q)
            st.holding.discard(q)

    def _after_ruin(self, c: Combatant, spell: Spell, ruin: Tick) -> tuple[int, str]:
        """The last phase of "the remainder of the round" after a spell ruined on tick ``ruin`` (000 §2 A), and why
        a spell declared in it is cancelled."""
        return ROUND_PHASES, (f"{c.name}'s spell was ruined at half-segment {ruin}; a caster who is hit may defend "
                              f"and move but not begin a new spell this round")

    def _recovering(self, c: Combatant, d: Declaration, st: S, kind: SpanKind, what: str) -> None:
        """A declaration after a ruined spell, cancelled (000 §2 A): the caster recovers instead. ``what``: the action
        cancelled, ``"attack"`` or the spell's name."""
        p = d.phase
        self.add(c, kind, f"{what} (cancelled)", phase_start(p), phase_start(p), "000 §2 A: caster takes damage",
                 f"Cancelled: {st.ruin_reason}.", d.target, Status.CANCELLED, MOVEMENT_RANK, what=what)
        st.busy[p] = "recovering from a ruined spell"

    def _ruining_hit(self, name: str, start: Tick, end: Tick) -> Tick | None:
        """First hit on ``name`` from ``start`` up to, not including, ``end``: a hit on the same
        half-segment as the release is simultaneous and takes effect after it (000 §1 E)."""
        ticks = [h.tick for h in self.encounter.hits if h.target == name and start <= h.tick < end]
        return min(ticks) if ticks else None

    def _hit_before_casting(self, c: Combatant, spell: Spell, p: int, st: S) -> int | None:
        """000 §2 A: "If the caster is hit PRIOR to the phase in which he will begin a spell, the casting phase is
        not forfeited, but will be delayed one extra phase if the caster fails a CON check." The phase the casting
        begins in, or None when, delayed, it can no longer go off this round (:meth:`_shaken`)."""
        when = self._hit_before(c.name, p)
        if when is None:
            return p
        passed, shown = self._con_check(c, p)
        if passed:
            self.notes.append(f"{c.name} was hit {when} but passes a CON check ({shown}): {spell.name} begins on "
                              f"time in {self._phase_name(p)} (000 §2 A).")
            return p
        self.notes.append(f"{c.name} was hit {when} and fails a CON check ({shown}): {spell.name} is delayed one "
                          f"phase, to {self._phase_name(p + 1)} (000 §2 A).")
        st.busy[p] = "shaken by a hit"
        return self._shaken(c, spell, p)

    def _hit_before(self, name: str, phase: int) -> str | None:
        """When ``name`` was hit before the phase a spell of its begins in, in words; None: it was not."""
        start = phase_start(phase)
        return "before casting" if any(h.target == name and h.tick < start for h in self.encounter.hits) else None

    def _con_check(self, c: Combatant, phase: int) -> tuple[bool, str]:
        """The CON check of a caster hit before casting (000 §2 A): passed, and the roll against the score."""
        con = c.abilities.constitution
        check = self.roller.roll("d20", f"CON check: {c.name}")
        return check.total <= con, f"{check.total} vs CON {con}"

    def _shaken(self, c: Combatant, spell: Spell, p: int) -> int | None:
        """The phase a casting delayed from ``p`` begins in; None when it no longer fits the round (000 §1 G)."""
        if _fits(spell, p + 1) is None:
            return p + 1
        self.add(c, SpanKind.CAST, f"{spell.name} (cancelled)", phase_start(p), phase_start(p),
                 "000 §2 A: hit before casting, failed CON check",
                 f"Delayed to {self._phase_name(p + 1)}, {spell.name} could no longer go off this round.",
                 None, Status.CANCELLED, what=spell.name)
        return None

    # -- miscellaneous

    def _misc(self, c: Combatant, d: Declaration, st: S) -> None:
        """000 §2 E: a phase spent on a miscellaneous action (readying material components among them)."""
        st.busy[d.phase] = "busy with a miscellaneous action"
        if d.readies_components:
            st.components = True
        what = d.note or ("readies material components" if d.readies_components else "miscellaneous action")
        start = phase_start(d.phase)
        self.add(c, SpanKind.MISC, what, start, start + 5, "000 §2 E: miscellaneous preparation",
                 f"{c.name} spends {self._phase_name(d.phase)} on it, foregoing attacks and movement.", d.target,
                 rank=MOVEMENT_RANK)

    def _ready(self, c: Combatant, d: Declaration, st: S) -> None:
        """000 §2 D: a weapon set, or a defense readied, for a foe who closes."""
        st.busy[d.phase] = "readying a weapon"
        start = phase_start(d.phase)
        self.add(c, SpanKind.READY, "sets weapon / readies defense" + (f" against {d.target}" if d.target else ""),
                 start, start + 5, "000 §2 D: setting weapons / readying defense",
                 f"In lieu of attacking, {c.name} stands ready: a foe who closes is struck as it arrives.", d.target,
                 rank=MOVEMENT_RANK)


def _fits(spell: Spell, phase: int) -> str | None:
    """None when ``spell`` may be begun in ``phase`` (000 §1 G), else the rule that says it may not."""
    if spell.casting_time == ONE_ROUND:
        return None if phase == 1 else f"000 Table 1: a 1-round spell is begun in phase 1 ({spell.name})"
    limit = MAX_CT_BEGUN.get(phase, 0)
    if int(spell.casting_time) <= limit:
        return None
    return f"000 §1 G: a spell begun in phase {phase} may not exceed CT {limit}; {spell.name} has CT {spell.casting_time}"


PHASE1: Final = register(PhaseSystemI())
