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
option on :class:`Phase1Options`; the README's "Rules choices" lists them):

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Roller
from combatkit.encounter import Encounter
from combatkit.errors import IllegalActionError
from combatkit.fields import field_specs
from combatkit.kinds import ActionKind, Maneuver, WeaponKind
from combatkit.model import ONE_ROUND, Combatant, Declaration, Refined, Spell, Weapon, reaction_adjustment
from combatkit.movement import phase_allowance, withdraw_allowance
from combatkit.systems._memo import explaining, kit, memo
from combatkit.systems._plan import ActorPlan, combat_ii
from combatkit.systems.base import TimingSystem, check_names, opposing_best, placed_round, register, sides_of
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
    """Readings of 000 where it is ambiguous; defaults are the ones the README explains."""

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


@dataclass
class _State:
    """What one combatant has done so far this round."""

    busy: dict[int, str] = field(default_factory=dict)  # phase -> what fills it
    attacks_used: dict[str, int] = field(default_factory=dict)  # weapon name -> attacks made
    attack_phase: int | None = None
    cast: Spell | None = None
    cast_phase: int | None = None
    ruined_at: Tick | None = None
    components: bool = True
    distance: dict[str, int] = field(default_factory=dict)

    def __init__(self, attack_phase: int | None = None, cast: Spell | None = None, cast_phase: int | None = None,
                 ruined_at: Tick | None = None, components: bool = True) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.busy: dict[int, str] = {}
        self.attacks_used: dict[str, int] = {}
        self.attack_phase = attack_phase
        self.cast = cast
        self.cast_phase = cast_phase
        self.ruined_at = ruined_at
        self.components = components
        self.distance: dict[str, int] = {}


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
        return _Round(encounter, roller, options).run()

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


class _Round:
    def __init__(self, encounter: Encounter, roller: Roller, options: Phase1Options) -> None:
        self.encounter = encounter
        self.roller = roller
        self.options = options
        self.spans: list[Span] = []
        self.notes: list[str] = []
        self.people = {c.name: c for c in encounter.combatants}
        self.state: dict[str, _State] = {}
        """What each figure has done so far as the round is placed (:meth:`_states`, only for a round placed afresh)."""

    def _states(self) -> dict[str, _State]:
        """Each figure's state as the round's placing begins: nothing done, its components, the gaps to the others.
        Made only when the round is placed afresh, not when it is looked up (most rounds of a run, #18)."""
        state = {c.name: _State(components=c.components_ready) for c in self.encounter.combatants}
        for a, b, feet in self.encounter.distances:
            if a in state and b in state:  # a gap to a figure not in this round moves nothing
                state[a].distance[b] = feet
                state[b].distance[a] = feet
        return state

    # -- helpers

    def fail(self, rule: str, message: str) -> IllegalActionError:
        return IllegalActionError(rule, message)

    def add(self, c: Combatant, kind: SpanKind, action: str, start: Tick, end: Tick, phase: int | str, rule: str,
            why: str, target: str | None = None, status: Status = Status.DONE, what: str = "") -> None:
        period = phase if isinstance(phase, str) else f"phase {phase}"
        self.spans.append(
            Span(c.name, c.side, kind, action, start, end, period, rule, why,
                 track=self.tracks[c.name], target=target, status=status, what=what)
        )

    # -- the round

    def run(self) -> Timeline:
        check_names(self.encounter)
        initiative = roll_initiative(self.encounter, self.roller, self.options)
        self.tracks = initiative.tracks
        self.notes.extend(initiative.notes)
        # Once the tracks are known, the round's placing rolls nothing more unless a hit calls for a CON check
        # (000 §2 A): a round that looks the same is placed as before (combatkit.systems._memo).
        placed = placed_round("phase1", self.encounter, self.options, tuple(self.tracks.values()))
        known = placed.before() if placed is not None else None
        if known is not None:
            return Timeline(PHASE1.id, CLOCK, known[0], tuple(self.notes) + known[1], tuple(self.roller.log))
        after = len(self.notes)
        self.state = self._states()
        self.notes.extend(self._declaration_order())
        for c in self.encounter.combatants:
            if c.surprised:
                self.state[c.name].busy[1] = "surprised"
                self.add(c, SpanKind.SURPRISED, "surprised: loses phase 1", 1, 6, 1, "000 §2 F",
                         f"{c.name} is surprised and loses one full phase.")
        ordered = sorted(self.encounter.declarations, key=lambda d: (d.phase, d.actor))
        for d in ordered:
            self._declare(self.people[d.actor], d)
        self.spans.sort(key=lambda s: (s.end, s.start, s.actor, s.kind))
        timeline = Timeline(PHASE1.id, CLOCK, tuple(self.spans), tuple(self.notes), tuple(self.roller.log))
        if placed is not None:
            placed.keep((timeline.spans, timeline.notes[after:]))
        return timeline

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

    def _declare(self, c: Combatant, d: Declaration) -> None:
        st = self.state[c.name]
        if d.phase not in (1, 2, 3, 4):
            raise self.fail("000 Table 1", f"{c.name}: Phase System I has phases 1-4, got phase {d.phase}")
        if d.phase == 4:
            raise self.fail(
                "000 §1 H",
                f"{c.name} declared {d.kind.value} in phase 4: phase 4 only completes 1-round spells; "
                f"no movement or physical attacks (a 1-round spell is begun in phase 1)",
            )
        if d.phase in st.busy:
            if st.busy[d.phase] == "surprised":
                raise self.fail("000 §2 F", f"{c.name} is surprised and loses phase 1, so cannot {d.kind.value} then")
            if st.busy[d.phase].startswith("delayed"):
                self.add(c, SPAN_KIND[d.kind], f"{d.kind.value} (cancelled)", phase_start(d.phase), phase_start(d.phase),
                         d.phase, "000 §2 A", f"Cancelled: {st.busy[d.phase]}.", d.target, Status.CANCELLED,
                         d.kind.value)
                return
            raise self.fail(
                "000 §1 C",
                f"one action per phase: {c.name} is already {st.busy[d.phase]} in phase {d.phase} "
                f"and cannot also {d.kind.value}",
            )
        handler = {
            ActionKind.MOVE: self._move,
            ActionKind.ATTACK: self._attack,
            ActionKind.CAST: self._cast,
            ActionKind.MISC: self._misc,
            ActionKind.READY: self._ready,
        }[d.kind]
        handler(c, d, st)

    # -- movement

    def _move(self, c: Combatant, d: Declaration, st: _State) -> None:
        allowed = c.movement * 10 // 3
        feet = allowed if d.feet is None else d.feet
        if d.feet is None and d.target in st.distance:
            feet = min(allowed, st.distance[d.target])  # stop on reaching the target
        if feet > allowed:
            raise self.fail("000 §1 F", f"{c.name} may move up to 1/3 MV per phase: MV {c.movement} allows "
                                        f"{allowed}' a phase, not {feet}'")
        st.busy[d.phase] = "moving"
        start = phase_start(d.phase)
        where = ""
        if d.target is not None and d.target in st.distance:
            gap = max(0, st.distance[d.target] - feet)
            self._set_distance(c.name, d.target, gap)
            where = f" {c.name} is now {gap}' from {d.target}." if gap else f" {c.name} reaches {d.target}."
        if self.options.incremental_movement:
            first, rule = start, "000 §2 D option, Table 3: movement spread over the phase's half-segments"
            why = f"{c.name} moves {feet}' spread over the six half-segments of phase {d.phase} (1/3 MV {c.movement})."
        else:
            first, rule = start + 5, "000 §1 F: movement after attacks and spells"
            why = (f"{c.name} moves {feet}' (up to 1/3 of MV {c.movement}) after the phase's attacks "
                   f"and spells are resolved.")
        self.add(c, SpanKind.MOVE, f"moves {feet}'" + (f" toward {d.target}" if d.target else ""), first, start + 5,
                 d.phase, rule, why + where, d.target)

    def _set_distance(self, a: str, b: str, feet: int) -> None:
        self.state[a].distance[b] = feet
        self.state[b].distance[a] = feet

    # -- attacks

    def _attack(self, c: Combatant, d: Declaration, st: _State) -> None:
        track = self.tracks[c.name]
        touch = self._touch_spell(c, d, st)
        if st.cast is not None and touch is None:
            raise self.fail("000 §2 A", f"{c.name} is casting {st.cast.name} this round and so cannot attack "
                                        f"(no casting and attacking in one round, touch spells excepted)")
        arms = kit(c)
        if touch is not None:
            weapons = c.weapons[:1]
        else:
            weapons = arms.striking(d.weapons)
        available = min((arms.attacks_in_round(self.encounter.round, w) for w in weapons), default=1)
        if touch is None:
            for w in weapons:
                own = arms.attacks_in_round(self.encounter.round, w)
                used = st.attacks_used.get(w.name, 0)
                if used + d.attacks > own:
                    raise self.fail("000 §2 C", f"{c.name} has {own} attack(s) with the {w.name} in round "
                                                f"{self.encounter.round} and has used {used}; cannot make "
                                                f"{d.attacks} more")
        if d.attacks == 2 and available <= self.options.double_attack_above:
            raise self.fail("000 §2 C", f"{c.name} may attack twice in a phase only with more than "
                                        f"{self.options.double_attack_above} attacks a round, has {available}")
        sfs = [adjusted_speed_factor(c, w, self.options) for w in weapons]
        sf = max(sfs) if sfs else c.size.natural_sf
        base_sf = sf
        penalty, extras = declared_sf_penalties(d)
        sf += penalty
        ranged = all(w.kind is WeaponKind.MISSILE for w in weapons) and weapons
        self._check_reach(c, d, st, bool(ranged))
        target_surprised = (d.target is not None and self.people[d.target].surprised and d.phase == 1)
        start = phase_start(d.phase)
        if d.feet is not None:
            if not target_surprised:
                raise self.fail("000 §1 F", f"{c.name} may not move and attack in the same phase (only a charge, a "
                                            f"short repositioning step, or closing on a surprised figure)")
            allowed = c.movement * 10 // 3
            if d.feet > allowed:
                raise self.fail("000 §1 F", f"{c.name} may move up to {allowed}' a phase, not {d.feet}'")
            if d.target in st.distance:
                self._set_distance(c.name, d.target, max(0, st.distance[d.target] - d.feet))
            hs = start + 5
            rule = "000 §2 F: closing on a surprised figure, the blow follows the movement"
            why = f"{d.target} is surprised, so {c.name} moves {d.feet}' and strikes at the end of the movement."
        else:
            row, label = sf_band(sf, d.phase, self.options.phase2_literal_sf_band)
            hs = strike_half_segment(sf, d.phase, track, self.options.phase2_literal_sf_band)
            rule = f"000 Table 1: {track}, {label}"
            names = " and ".join(w.name for w in weapons) if weapons else "natural attack"
            parts = f" (the slowest of SF {', '.join(map(str, sfs))}, 000 §2 C multi-part routine)" if len(sfs) > 1 else ""
            bumps = f" Then {'; '.join(extras)}: SF {sf}." if extras else ""
            why = (f"The {names} has adjusted SF {base_sf}{parts}.{bumps} On the {track} track the {label} row "
                   f"is half-segment {hs - start + 1} of phase {d.phase}.")
        named = f"touch: {touch.name}" if touch else " + ".join(w.name for w in weapons)
        what = named + (f" -> {d.target}" if d.target else "")
        self.add(c, SpanKind.ATTACK, what, hs, hs, d.phase, rule, why, d.target, what=named)
        if d.attacks == 2:
            second = hs + sf
            if second > start + 5:
                raise self.fail("000 §2 C", f"{c.name}'s double attack: the second blow lands SF {sf} half-segments "
                                            f"after the first, at half-segment {second}, past the end of phase {d.phase}")
            self.add(c, SpanKind.ATTACK, f"second blow{' -> ' + d.target if d.target else ''}", second, second, d.phase,
                     "000 §2 C: double attack, first blow's half-segment + SF",
                     f"More attacks than phases: the second blow of the phase follows the first by the weapon's SF "
                     f"({sf}) half-segments.", d.target, what="second blow")
        st.busy[d.phase] = "attacking"
        if touch is None:
            for w in weapons:
                st.attacks_used[w.name] = st.attacks_used.get(w.name, 0) + d.attacks
        st.attack_phase = st.attack_phase or d.phase

    def _touch_spell(self, c: Combatant, d: Declaration, st: _State) -> Spell | None:
        if d.spell is None:
            return None
        spell = c.spell(d.spell)
        if not spell.touch:
            raise self.fail("000 §2 A", f"{spell.name} is not a touch spell, so {c.name} cannot deliver it by attack")
        if st.cast is None or st.cast.name != spell.name:
            raise self.fail("000 §2 A", f"{c.name} must cast {spell.name} before delivering its touch "
                                        f"(in the attack portion of a later phase)")
        return spell

    def _check_reach(self, c: Combatant, d: Declaration, st: _State, ranged: bool) -> None:
        if ranged or d.target is None or d.target not in st.distance or d.feet is not None:
            return
        reach = MELEE_REACH_FT + (REPOSITION_FT if d.reposition else 0)
        gap = st.distance[d.target]
        if gap > reach:
            hint = "" if d.reposition else "; a repositioning step (+2 SF) covers up to 10'"
            raise self.fail("000 §2 D", f"{c.name} is {gap}' from {d.target} in phase {d.phase}: a melee attack "
                                        f"needs striking distance ({reach}'){hint}. Move first.")

    # -- spells

    def _cast(self, c: Combatant, d: Declaration, st: _State) -> None:
        spell = c.spell(d.spell)
        track = self.tracks[c.name]
        if st.attack_phase is not None:
            raise self.fail("000 §2 A", f"{c.name} attacked in phase {st.attack_phase} and so cannot cast this round "
                                        f"(no casting and attacking in one round)")
        if st.cast is not None:
            if st.ruined_at is not None:
                self.add(c, SpanKind.CAST, f"{spell.name} (cancelled)", phase_start(d.phase), phase_start(d.phase),
                         d.phase, "000 §2 A: caster takes damage",
                         f"{c.name}'s spell was ruined at half-segment {st.ruined_at}; a caster who is hit may "
                         f"defend and move but not begin a new spell this round.", d.target, Status.CANCELLED,
                         spell.name)
                st.busy[d.phase] = "recovering from a ruined spell"
                return
            raise self.fail("000 §2 A", f"only one spell may be completed each round: {c.name} already cast "
                                        f"{st.cast.name}, so cannot begin {spell.name}")
        if d.hold < 0 or d.hold > MAX_HOLD:
            raise self.fail("000 §2 A", f"a spell may be held at most {MAX_HOLD} CT, not {d.hold}")
        needs_m = "M" in spell.component_set
        if needs_m and not st.components:
            raise self.fail("000 §2 A", f"{spell.name} needs material components and {c.name} has none in hand: "
                                        f"spend an earlier phase readying them (a misc action with readies_components)")
        phase, delayed = self._hit_before_casting(c, spell, d.phase, st)
        if phase is None:
            return
        ct_text = "1 round" if spell.full_round else f"CT {spell.casting_time}"
        extra = ""
        if spell.full_round:
            if phase != 1:
                raise self.fail("000 Table 1", f"{spell.name} takes 1 round: it is begun in phase 1 and completes "
                                               f"in phase 4, so it cannot be begun in phase {phase}")
            release = 19 if track is Track.WINNER else 20
            phases = [1, 2, 3]
            rule = f"000 Table 1: {track}, 1-round spell in {'phase 4' if release == 19 else 'the endphase'}"
            why = (f"{spell.name} takes a full round: begun in phase 1, it goes off in half-segment {release} "
                   f"({'phase 4, winner' if release == 19 else 'endphase, loser'}) after all other actions.")
            ct = 10
        else:
            ct = int(spell.casting_time) + (1 if d.reposition else 0)
            if d.reposition:
                extra = f" A repositioning step first adds 1 to CT (000 §2 A): CT {ct}."
            limit = MAX_CT_BEGUN[phase]
            if ct > limit:
                raise self.fail("000 §1 G", f"{spell.name} has CT {ct}; a spell begun in phase {phase} may not exceed "
                                            f"CT {limit} (it must go off by the end of phase 3)")
            release = release_half_segment(ct, phase, track)
            phases = list(range(phase, phase + math.ceil(ct / 3)))
            rule = f"000 Table 1: {track} CT column, {ct_text} begun in phase {phase}"
            active = "odd" if track is Track.WINNER else "even"
            why = (f"Each CT unit takes one active half-segment ({active} ones on the {track} track), "
                   f"three a phase; {ct} units begun in phase {phase} end at half-segment {release}.{extra}")
        if spell.psionic:
            why += " A psionic power counts as spellcasting (000 §2 B)."
        for p in phases:
            if p in st.busy:
                raise self.fail("000 §1 C", f"{c.name}'s {spell.name} runs through phase {p}, where {c.name} is "
                                            f"already {st.busy[p]}: one action per phase")
        for p in phases:
            st.busy[p] = (f"delayed: {c.name}'s {spell.name} slipped into phase {p} after a failed CON check"
                          if delayed else f"casting {spell.name}")
        st.cast, st.cast_phase = spell, phase
        start = phase_start(phase) + (1 if track is Track.LOSER else 0)
        held_to = release + 2 * d.hold
        ruin = self._ruining_hit(c.name, phase_start(phase), held_to)  # "being cast during the current phase"
        casts = f"casts {spell.name}"
        label = f"{casts} ({ct_text})" + (f" -> {d.target}" if d.target else "")
        if ruin is not None and ruin < release:
            st.ruined_at = ruin
            self.add(c, SpanKind.CAST, label, min(start, ruin), ruin, phase, "000 §2 A: caster takes damage",
                     f"{c.name} is hit at half-segment {ruin} while casting: the spell is ruined. {c.name} may defend "
                     f"and move for the rest of the round but not begin a new spell.", d.target, Status.RUINED, casts)
            self._free_after(st, ruin)
            return
        self.add(c, SpanKind.CAST, label, start, release, phase, rule, why, d.target, what=casts)
        if d.hold:
            self._hold(c, d, st, spell, release, held_to, ruin)

    def _hold(self, c: Combatant, d: Declaration, st: _State, spell: Spell, release: Tick, held_to: Tick,
              ruin: Tick | None) -> None:
        for p in range((release - 1) // 6 + 1, 4):
            if spell.name in st.busy.get(p, ""):
                st.busy.pop(p)  # "The caster may move freely while holding a spell"
        nxt = " — into the next round, where it counts as that round's casting" if held_to > HALF_SEGMENTS else ""
        if ruin is not None:
            self.add(c, SpanKind.HOLD, f"holds {spell.name}", release, ruin, "hold", "000 §2 A: holding a spell",
                     f"{c.name} is hit at half-segment {ruin} while holding {spell.name}: the spell is ruined.",
                     d.target, Status.RUINED)
            st.ruined_at = ruin
            return
        holds = f"holds {spell.name} {d.hold} CT, releases"
        self.add(c, SpanKind.HOLD, f"{holds}{' -> ' + d.target if d.target else ''}",
                 release, held_to, CLOCK.period_of(release).label if release <= HALF_SEGMENTS else "next round",  # type: ignore[union-attr]
                 "000 §2 A: holding a spell (max 6 CT)",
                 f"{c.name} holds the completed spell {d.hold} more CT units and releases it at "
                 f"{CLOCK.describe(held_to)}{nxt}. The caster may move while holding; a hit still ruins it.", d.target,
                 what=holds)

    def _free_after(self, st: _State, ruin: Tick) -> None:
        phase_of_ruin = (ruin - 1) // 6 + 1
        for p in list(st.busy):
            if p > phase_of_ruin and ("casting" in st.busy[p] or "slipped" in st.busy[p]):
                st.busy.pop(p)

    def _ruining_hit(self, name: str, start: Tick, end: Tick) -> Tick | None:
        """First hit on ``name`` from ``start`` up to, not including, ``end``: a hit on the same
        half-segment as the release is simultaneous and takes effect after it (000 §1 E)."""
        ticks = [h.tick for h in self.encounter.hits if h.target == name and start <= h.tick < end]
        return min(ticks) if ticks else None

    def _hit_before_casting(self, c: Combatant, spell: Spell, phase: int, st: _State) -> tuple[int | None, bool]:
        """000 §2 A: hit before the casting phase -> CON check, or the casting slips a phase.

        Returns the phase the casting begins in (None: it cannot happen this round) and
        whether it slipped."""
        earlier = [h for h in self.encounter.hits if h.target == c.name and h.tick < phase_start(phase)]
        if not earlier:
            return phase, False
        con = c.abilities.constitution
        check = self.roller.roll("d20", f"CON check: {c.name}")
        if check.total <= con:
            self.notes.append(f"{c.name} was hit before casting but passes a CON check ({check.total} vs CON {con}): "
                              f"{spell.name} begins on time in phase {phase} (000 §2 A).")
            return phase, False
        later = phase + 1
        self.notes.append(f"{c.name} was hit before casting and fails a CON check ({check.total} vs CON {con}): "
                          f"{spell.name} is delayed one phase, to phase {later} (000 §2 A).")
        limit = MAX_CT_BEGUN.get(later, 0)
        ct = 10 if spell.full_round else int(spell.casting_time)
        if spell.full_round or ct > limit:
            self.add(c, SpanKind.CAST, f"{spell.name} (cancelled)", phase_start(phase), phase_start(phase), phase,
                     "000 §2 A: hit before casting, failed CON check",
                     f"Delayed to phase {later}, {spell.name} could no longer go off this round.",
                     None, Status.CANCELLED, spell.name)
            st.busy[phase] = "shaken by a hit"
            return None, True
        st.busy[phase] = "shaken by a hit"
        return later, True

    # -- miscellaneous

    def _misc(self, c: Combatant, d: Declaration, st: _State) -> None:
        st.busy[d.phase] = "busy with a miscellaneous action"
        if d.readies_components:
            st.components = True
        what = d.note or ("readies material components" if d.readies_components else "miscellaneous action")
        start = phase_start(d.phase)
        self.add(c, SpanKind.MISC, what, start, start + 5, d.phase, "000 §2 E: miscellaneous preparation",
                 f"{c.name} spends phase {d.phase} on it, foregoing attacks and movement.", d.target)

    def _ready(self, c: Combatant, d: Declaration, st: _State) -> None:
        st.busy[d.phase] = "readying a weapon"
        start = phase_start(d.phase)
        self.add(c, SpanKind.READY, "sets weapon / readies defense" + (f" against {d.target}" if d.target else ""), start,
                 start + 5, d.phase, "000 §2 D: setting weapons / readying defense",
                 f"In lieu of attacking, {c.name} stands ready: a foe who closes is struck as it arrives.", d.target)


def _fits(spell: Spell, phase: int) -> str | None:
    """None when ``spell`` may be begun in ``phase`` (000 §1 G), else the rule that says it may not."""
    if spell.casting_time == ONE_ROUND:
        return None if phase == 1 else f"000 Table 1: a 1-round spell is begun in phase 1 ({spell.name})"
    limit = MAX_CT_BEGUN.get(phase, 0)
    if int(spell.casting_time) <= limit:
        return None
    return f"000 §1 G: a spell begun in phase {phase} may not exceed CT {limit}; {spell.name} has CT {spell.casting_time}"


PHASE1: Final = register(PhaseSystemI())
