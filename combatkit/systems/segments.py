"""Lakofka's Segment of Action system (seed 003, The Dragon IV/8, 1980).

A melee round is ten segments. Each figure rolls a d10 with its d20 "to hit": the d10
is the segment its blow falls in (003 §I). Everything else is the same idea with
other dice:

* Two blows a round: 2d6, the first die the first blow's segment, the second die
  added to it for the second; three blows: 3d4 the same way. A sum past 10 is still
  awarded, as the last action of the round (003 §II).
* A monster's multi-part routine against one opponent: one d10 for all of it; against
  several opponents (several attack declarations in the same step): one d10 each; more
  than three attacks: a d10 for every three, e.g. 3d10 for a Type V demon's 7 (003 §II).
* Missiles: a single firing on a d6 (``missile_die``; "or even d4"); two a round on
  2d6 like blows; ready and guarding (a READY declaration before the shot) d4 then d6;
  a missile that is part of a double action (shot then close, or shot at a figure
  closing in) a d4. An archer who takes damage adds a d4 (``shot_delay_die``) to its
  next shot, and loses a shot pushed or already past segment 10 (003 §III).
* Spells: a d4 (``spell_die``) for the segment casting begins, then the casting time:
  the spell goes off in segment d4 + CT. A hit during casting ruins it; a hit before it
  begins throws a d6: 1-3 is added to the casting time (003 §IV). Material components
  not at hand: ``components_die`` (d6) instead of the d4.
* Breath and glance weapons (``breath``): a d4, or a die per monster (003 §IV).
* Magic items (``items``): a d4 (or the item's die) to get the item out, plus its
  casting time; items are not foiled by a hit unless marked (003 §V).
* Double actions (a figure's declarations in later phase numbers are later steps of
  its round): a move takes ceil(feet / MV) segments (MV feet a segment: "cross three
  inches" takes 3 segments at MV 12), a strike after it a die by the weapon's weight
  (``chain_dice``: d4 light, d6, d8 heavy). A strike that would fall past segment 10
  is disallowed ("the fellow got there but the weapon was not in place"), or with
  ``chain_overflow_last=True`` comes last (003 §III).
* A figure never acts twice in one segment: a clash moves the later action on (003 §III).
* Surprise (003 §VI): a d6 per figure named in ``surprise_checks`` (plus its DEX
  Reaction Adjustment): on 1-2 it loses that many segments; a figure the encounter
  marks ``surprised`` loses a d2 of segments (the d6 given that it came up 1-2).
* Fleeing: a figure in melee reach that moves first breaks away in the segment of its
  d10; blows at it falling later are lost (003, closing remarks).
* Set to repel (a READY declaration with a melee weapon): no initiative die; the blow
  falls the segment the foe arrives (003 §VI, weapon length).

Options, off by default, that the text offers as such:

* ``speed_bands=True``: weapon speed factor 1-3 adds 0 segments, 4-6 one, 7-9 two,
  10+ three (003 §VI, :func:`speed_band`).
* ``dying_blow=True``: a figure killed gets a blow falling one segment later on a save
  vs. death (003 §I Option). Simultaneous blows always land: "Simultaneous blows, and
  both hit!" (003 §I).
* ``melee_spell_limit=2``: a caster within melee reach of a foe spoils any spell longer
  than 2 segments (003 §IV: "the DM might allow quick 1- or 2-segment spells").
* ``missile_flight_feet=60``: a missile takes a segment per 6" (60') of flight (003 §IV).

Choices this module makes where the seed is silent:

* The weapon speed band shifts every blow of a first-step attack; a strike after a move
  uses the weapon's die instead (it already stands for the weapon's weight).
* Three missiles a round (darts) use 3d4, like three blows; more than three shots a round
  are not in 003 and raise.
* More than three blows a round with one weapon (a monster's 4 bites, a figure at 7/2 in an
  even round) are read as 003 §II's "more than three attacks per melee round": a d10 for
  every three (``forms_per_die``), the blows of one d10 falling together in its segment, as
  one action (003 §III's "never two actions in one segment" does not part them). The text
  says so of monsters and leaves the rest to the referee ("you can rule on this any way that
  is most playable"); ``forms_per_die=1`` is its other reading, a d10 for every blow.
* A move as the first step starts in segment 1; a figure in reach of a foe that moves
  first is fleeing and rolls a d10 for the segment it breaks away.
* "Dexterity applies to surprise": the Reaction Adjustment (PH Table 2) is added to the
  d6; a surprised figure loses the adjusted roll's segments, at least one, and its whole
  round happens that many segments later.
* A blow at a figure already down, or already fled, is lost. Hits count for spells,
  arrows and deaths in the segment they land; deaths take effect after the segment.
* Save vs. death is the PH (2e) Table 60 column for the figure's class group (monsters
  as warriors of their hit dice) unless given in ``death_saves``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Dice, DiceNotationError, Roll, Roller
from combatkit.encounter import Encounter
from combatkit.errors import IllegalActionError, RulesError
from combatkit.kinds import ActionKind, Length, WeaponKind
from combatkit.model import ONE_ROUND, Combatant, Declaration, Spell, Weapon, reaction_adjustment
from combatkit.systems._memo import by_pair, explaining, kept, kit, memo
from combatkit.systems._plan import ChainRules
from combatkit.systems.base import FightRound, TimingSystem, check_names, default_options, derived_options, register
from combatkit.systems.rules import Retarget, SystemRules
from combatkit.timeline import Clock, Period, Span, SpanKind, Status, Tick, Timeline

__all__ = [
    "CLOCK",
    "SEGMENTS",
    "MagicItem",
    "SegmentOfAction",
    "SegmentsOptions",
    "odds",
    "save_vs_death",
    "speed_band",
    "tick_of",
]

ROUND: Final = 10  # segments in a melee round, 003 §I
LAST: Final = 11  # the tick of the round's last actions, 003 §II
MELEE_REACH_FT: Final = 5  # "in melee": within 5' (as 000 §2 D)
ONE_ROUND_SEGMENTS: Final = 10  # a casting time of "1 round"

CLOCK: Final = Clock(
    unit="segment",
    note="6 seconds; tick 11 is the round's last actions, 12 on the next round",
    ticks=LAST,
    periods=(Period("melee round", 1, ROUND), Period("last actions", LAST, LAST)),
)

DEFAULT_CHAIN_DICE: Final[Mapping[Length, str]] = {
    Length.UNARMED: "d4",
    Length.SHORT: "d4",
    Length.MEDIUM: "d6",
    Length.LONG: "d8",
    Length.VERY_LONG: "d8",
    Length.POLE_ARM: "d8",
}
"""003 §III: the strike after a move: "another d4 (or perhaps d6 or even d8 for a large, heavy weapon)"."""


_NEVER: Final = 1 << 30
"""Later than any tick a round has (:meth:`_Run._resolve`'s search for the next one)."""


def tick_of(segment: int) -> Tick:
    """The tick of an absolute segment: 1-10 this round, then 12-21 for the next (11 is last actions).

    >>> tick_of(7), tick_of(12)
    (7, 13)
    """
    return (segment - 1) // ROUND * LAST + (segment - 1) % ROUND + 1  # not divmod(): a Python call, 40 times a round


def speed_band(speed_factor: int) -> int:
    """Segments a weapon's speed factor adds (003 §VI): 1-3 none, 4-6 one, 7-9 two, 10+ three.

    >>> [speed_band(sf) for sf in (2, 5, 8, 12)]
    [0, 1, 2, 3]
    """
    return 0 if speed_factor <= 3 else 1 if speed_factor <= 6 else 2 if speed_factor <= 9 else 3


# PH (2e) Table 60, "Paralyzation, Poison, or Death Magic": (highest level of the band, save).
_SAVES: Final = {
    "warrior": ((0, 16), (2, 14), (4, 13), (6, 11), (8, 10), (10, 8), (12, 7), (14, 5), (16, 4), (40, 3)),
    "priest": ((3, 10), (6, 9), (9, 7), (12, 6), (15, 5), (18, 4), (40, 2)),
    "rogue": ((4, 13), (8, 12), (12, 11), (16, 10), (20, 9), (40, 8)),
    "wizard": ((5, 14), (10, 13), (15, 11), (20, 10), (40, 8)),
}
_GROUPS: Final = {
    "fighter": "warrior", "warrior": "warrior", "ranger": "warrior", "paladin": "warrior", "monster": "warrior",
    "priest": "priest", "cleric": "priest", "druid": "priest",
    "thief": "rogue", "rogue": "rogue", "bard": "rogue",
    "mage": "wizard", "wizard": "wizard", "illusionist": "wizard",
}  # fmt: skip


def save_vs_death(combatant: Combatant) -> int:
    """The d20 roll a figure needs to save vs. death (PH 2e Table 60; monsters as warriors of their HD).

    >>> save_vs_death(Combatant("Hob", "orcs", level=1, char_class="monster"))
    14
    """
    group = _GROUPS.get(combatant.char_class.lower())
    if group is None:
        raise RulesError("PH Table 60", f"{combatant.name}: no saving-throw column for class "
                                        f"{combatant.char_class!r}; give it in SegmentsOptions.death_saves")
    return next(save for top, save in _SAVES[group] if combatant.level <= top)


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class MagicItem:
    """How a magic item is discharged (003 §V); its casting time is the spell's of the same name."""

    ready: str = "d4"
    """Die for getting the item out and ready: d4 for a wand in a belt, up to d12 for a backpack."""
    foiled_by_hits: bool = False
    """Whether a hit spoils the discharge; "items ... are often not foiled by ... a strike"."""


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class SegmentsOptions:
    """The dice 003 leaves to the referee, and its optional rules; defaults are the text's."""

    missile_die: str = "d6"
    """A single firing a round (spear, dagger, sling, a manticore's volley): "d6 or even d4" (003 §III)."""
    guard_dice: tuple[str, str] = ("d4", "d6")
    """First and second shot of an archer ready and guarding (003 §III)."""
    chain_missile_die: str = "d4"
    """A missile that is part of a double action (003 §III)."""
    shot_delay_die: str = "d4"
    """Added to an archer's next shot after it takes damage: "an addition of 1-4" (003 §III)."""
    spell_die: str = "d4"
    """The segment casting begins (003 §IV)."""
    components_die: str = "d6"
    """Instead of the d4 when material components must be got out: "d6, d8, d10 or worse" (003 §IV)."""
    hit_before_casting_die: str | None = "d6"
    """Thrown when the caster was hit before casting: 1-3 is added to the casting time (003 §IV). None: no delay."""
    breath: Mapping[str, Mapping[str, str]] = field(default_factory=dict, hash=False)
    """Per combatant, breath or glance weapon name -> die ("d4"; "up to d10" for a catoblepas) (003 §IV)."""
    items: Mapping[str, Mapping[str, MagicItem]] = field(default_factory=dict, hash=False)
    """Per combatant, spell name -> the magic item that discharges it (003 §V)."""
    misc_die: str = "d4"
    """A miscellaneous action such as getting something out and ready (003 §V: "1-4 segments")."""
    chain_dice: Mapping[Length, str] = field(default_factory=lambda: dict(DEFAULT_CHAIN_DICE), hash=False)
    """The strike after a move (or another action), by weapon length (003 §III)."""
    weapon_dice: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Per weapon name, a die replacing ``chain_dice`` (e.g. ``{"two-handed sword": "d8"}``)."""
    forms_per_die: int = 3
    """Attack forms, or blows of one weapon, on one d10 when a figure has more than three (003 §II: 3d10 for 7
    attacks); 1 is a d10 for every one."""
    chain_overflow_last: bool = False
    """A strike after a move that falls past segment 10 comes last instead of being disallowed (003 §III)."""
    speed_bands: bool = False
    """Add weapon speed-factor bands to blows (003 §VI)."""
    dying_blow: bool = False
    """003 §I Option: a killed figure whose blow falls one segment later strikes on a save vs. death."""
    death_saves: Mapping[str, int] = field(default_factory=dict, hash=False)
    """Per combatant, the d20 roll needed to save vs. death (default: PH Table 60)."""
    kills: bool = True
    """Roll damage and let figures fall. False: timing only, "let us say neither is slain" (003 §I)."""
    surprise_checks: frozenset[str] = frozenset()
    """Figures that each roll a d6 for surprise (003 §VI)."""
    surprised_on: int = 2
    """A surprise d6 (with DEX) at or below this means surprised, losing that many segments."""
    melee_spell_limit: int | None = None
    """Longest spell a caster in melee reach of a foe may complete (003 §IV suggests 2); None: no limit."""
    immobile_ac_penalty: int = 4
    """AC worsens this much while casting a spell longer than ``quick_spell`` segments (003 §IV)."""
    quick_spell: int = 2
    """Spells of at most this many segments need no "relative immobility" (003 §IV)."""
    missile_flight_feet: int | None = None
    """Feet a missile flies in a segment (003 §IV: "1 segment ... per 6"" = 60'); None: no flight time."""

    def __post_init__(self) -> None:
        if len(self.guard_dice) != 2:
            raise RulesError("003 §III", f"guard_dice is two dice (first shot, second shot), got {self.guard_dice}")
        dice = [("missile_die", self.missile_die), ("guard_dice", self.guard_dice[0]),
                ("guard_dice", self.guard_dice[1]), ("chain_missile_die", self.chain_missile_die),
                ("shot_delay_die", self.shot_delay_die), ("spell_die", self.spell_die),
                ("components_die", self.components_die), ("misc_die", self.misc_die),
                ("hit_before_casting_die", self.hit_before_casting_die or "d6")]
        dice += [("chain_dice", text) for text in self.chain_dice.values()]
        dice += [("weapon_dice", text) for text in self.weapon_dice.values()]
        dice += [("breath", text) for table in self.breath.values() for text in table.values()]
        dice += [("items", item.ready) for table in self.items.values() for item in table.values()]
        for name, text in dice:
            try:
                Dice.parse(text)
            except DiceNotationError as error:
                raise RulesError("003 §VI", f"SegmentsOptions.{name}: the referee's die for this must be dice "
                                            f"notation; {error}") from None
        if self.forms_per_die < 1:
            raise RulesError("003 §II", f"forms_per_die is at least 1, got {self.forms_per_die}")
        if not 1 <= self.surprised_on <= 5:
            raise RulesError("003 §VI", f"surprised_on is 1..5 on a d6, got {self.surprised_on}")
        if self.missile_flight_feet is not None and self.missile_flight_feet < 1:
            raise RulesError("003 §IV", f"missile_flight_feet is 1 or more, got {self.missile_flight_feet}")


# ----------------------------------------------------------------- actions


@dataclass
class _Act:
    """One action of one figure on the segment clock, as planned and then as it happened."""

    actor: Combatant
    kind: SpanKind
    """``attack``, ``cast``, ``move``, ``misc`` or ``ready``."""
    label: str
    step: int
    """Position in the figure's round: later steps shift when an earlier one is delayed."""
    start: int
    """First segment (absolute; past 10 is the next round)."""
    segment: int
    """Segment it lands, goes off or arrives."""
    overflow: str
    """Past segment 10: ``last`` (last action), ``chain`` (disallowed or last), ``spill`` (next round)."""
    rule: str
    why: str
    target: str | None = None
    weapons: tuple[Weapon, ...] = ()
    hit_tag: str = ""
    """Names the to-hit and damage rolls of this blow."""
    shot: int = 0
    """For missiles: 1 for the round's first shot, 2 for the second..."""
    spell: Spell | None = None
    item: MagicItem | None = None
    flees: bool = False
    repel: bool = False
    """A weapon set to repel: it strikes when the foe arrives."""
    status: Status = Status.DONE
    notes: list[str] = field(default_factory=list)
    resolved: bool = False
    delayed: bool = False
    ended: Tick | None = None
    """Set when an event ends the action early (a ruined spell) or places it (a set weapon striking)."""
    together: int = 0
    """Blows that fall together on one d10 (003 §II, more than three blows) share this number, and one segment;
    0 for any other action."""
    what: str = ""
    """The label without its target or notes (:attr:`Span.what <combatkit.timeline.Span.what>`): ``"long sword"``."""

    def __init__(self, actor: Combatant, kind: SpanKind, label: str, step: int, start: int, segment: int,
                 overflow: str, rule: str, why: str, target: str | None = None, weapons: tuple[Weapon, ...] = (),
                 hit_tag: str = "", shot: int = 0, spell: Spell | None = None, item: MagicItem | None = None,
                 flees: bool = False, repel: bool = False, status: Status = Status.DONE, resolved: bool = False,
                 delayed: bool = False, ended: Tick | None = None, together: int = 0, what: str = "") -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.actor = actor
        self.kind = kind
        self.label = label
        self.step = step
        self.start = start
        self.segment = segment
        self.overflow = overflow
        self.rule = rule
        self.why = why
        self.target = target
        self.weapons = weapons
        self.hit_tag = hit_tag
        self.shot = shot
        self.spell = spell
        self.item = item
        self.flees = flees
        self.repel = repel
        self.status = status
        self.notes: list[str] = []
        self.resolved = resolved
        self.delayed = delayed
        self.ended = ended
        self.together = together
        self.what = what

    @property
    def tick(self) -> Tick:
        """Where the action sits on the clock, after the overflow rules."""
        if self.ended is not None:
            return self.ended
        if self.segment <= ROUND:
            return self.segment
        return tick_of(self.segment) if self.overflow == "spill" else LAST

    @property
    def start_tick(self) -> Tick:
        return min(tick_of(self.start), self.tick)


@cache
def _hits_on(threshold: int) -> Callable[[int], bool]:
    """A to-hit d20's two classes, hit and miss: one function per number needed, so that exact
    odds group the d20's totals once (:func:`~combatkit.systems._exhaust.grouped_totals`)."""
    return lambda total: total >= threshold


def _alike(total: int) -> None:
    """A to-hit d20 whose hit cannot change what the timeline shows: every total one class."""
    return None


class _Run:
    def __init__(self, encounter: Encounter, roller: Roller, options: SegmentsOptions) -> None:
        self.encounter, self.roller, self.options = encounter, roller, options
        self.people = {c.name: c for c in encounter.combatants}
        self.gaps = dict(by_pair(encounter.distances))  # a copy: a charge that lands closes its gap
        self.notes: list[str] = []
        self.acts: list[_Act] = []
        self.groups = 0
        """Sets of blows placed on one d10 so far (:attr:`_Act.together`)."""
        self.hp = {c.name: c.hit_points for c in encounter.combatants}
        self.hits: dict[str, list[Tick]] = {c.name: [] for c in encounter.combatants}
        self.fallen: dict[str, Tick] = {}
        self.fled: dict[str, Tick] = {}
        self.saved: dict[str, bool] = {}
        self.shot_delayed: set[str] = set()
        for h in encounter.hits:
            self.hits[h.target].append(h.tick)
        self.explain = explaining()
        """Whether the round's words are asked for: a fight's fast path leaves out each span's why (#18)."""
        self.swings = self.explain or not isinstance(roller, _TimingRoller)
        """Whether a blow's to-hit d20 is rolled here (:meth:`_swing`): not on a fight's fast path, where the timing
        roller answers each with a miss (the resolver rolls the blows, 003 §I) and the words it leaves are not
        asked for (#18)."""

    # -- helpers

    def gap(self, a: str, b: str) -> int | None:
        return self.gaps.get(frozenset((a, b)))

    def engaged(self, c: Combatant) -> list[str]:
        """Foes known to be within melee reach at the start of the round (asked while the round is planned, before
        a landed charge closes a gap). In a fight, worked out once a run for each layout of the figures it meets (the
        fight's one tuple of distances for it, found by identity and kept with it, as :func:`by_pair` keeps its
        pairs): the figures a round holds are those its distances name, and their sides never change in a run (#18).
        Only read."""
        table = memo("segments engaged")
        if table is None:
            return self._engaged(c)
        distances = self.encounter.distances
        found = kept(table, distances)
        if found is None:
            found = table[id(distances)] = (distances, {})
        foes = found[1].get(c.name)
        if foes is None:
            foes = found[1][c.name] = self._engaged(c)
        return foes

    def _engaged(self, c: Combatant) -> list[str]:
        return [o.name for o in self.encounter.combatants
                if o.side != c.side and (g := self.gap(c.name, o.name)) is not None and g <= MELEE_REACH_FT]

    def roll(self, dice: str, purpose: str) -> Roll:
        return self.roller.roll(dice, purpose)

    def to_hit(self, threshold: int, purpose: str, matters: bool) -> tuple[bool, str]:
        """The d20 to hit (003 §I); when a hit cannot change what the timeline shows (``matters``
        is False), exact odds take hit and miss as one outcome."""
        roll = self.roller.roll_total("d20", purpose, classify=_hits_on(threshold) if matters else _alike)
        return roll.total >= threshold, f"d20 {roll.total}"

    # -- the round

    def run(self) -> Timeline:
        check_names(self.encounter)
        mine: dict[str, list[Declaration]] = {}
        for d in self.encounter.declarations:  # in phase order (TimingSystem._schedule), so each figure's are
            mine.setdefault(d.actor, []).append(d)
        closers = {d.target for d in self.encounter.declarations if d.kind is ActionKind.MOVE and d.target
                   and self.people[d.target].side != self.people[d.actor].side}
        for c in self.encounter.combatants:
            self._plan(c, closers, mine.get(c.name, []))
        self._no_two_in_a_segment()
        self._resolve()
        spans = [self._span(a) for a in self.acts]
        # by (end, start, actor, kind), stably: sorted as tuples, not through a key function called once a span (#18)
        ordered = tuple([s for _, _, _, _, _, s in sorted([(s.end, s.start, s.actor, s.kind, i, s)
                                                           for i, s in enumerate(spans)])])
        return Timeline(SEGMENTS.id, CLOCK, ordered, tuple(self.notes), tuple(self.roller.log))

    # -- planning: each figure's round, step by step

    def _surprise(self, c: Combatant) -> int:
        """003 §VI: segments the figure loses to surprise."""
        explain = self.explain  # the notes only when they are asked for (#18)
        if c.surprised:
            top = self.options.surprised_on
            lost = self.roll(f"d{top}", f"surprise: {c.name}").total if top > 1 else 1
            if explain:
                self.notes.append(f"{c.name} is surprised and loses {lost} segment(s): its round begins late "
                                  f"(003 §VI).")
            return lost
        if c.name not in self.options.surprise_checks:
            return 0
        face = self.roll("d6", f"surprise: {c.name}").total
        adjustment = reaction_adjustment(c.abilities.dexterity)
        adjusted = face + adjustment
        if adjusted > self.options.surprised_on:
            if explain:
                self.notes.append(f"{c.name}'s surprise d6: {face} ({adjustment:+d} DEX) = {adjusted}, not surprised "
                                  f"(003 §VI).")
            return 0
        lost = max(1, adjusted)
        if explain:
            self.notes.append(f"{c.name}'s surprise d6: {face} ({adjustment:+d} DEX) = {adjusted}: surprised, loses "
                              f"{lost} segment(s) (003 §VI).")
        return lost

    def _plan(self, c: Combatant, closers: set[str], mine: list[Declaration]) -> None:
        """Place ``c``'s declarations, ``mine``, in phase (step) order."""
        if not mine:
            return
        checked = memo("segments checked")
        for d in mine:
            if checked is None or checked.get(id(d)) is not d:
                self._check_declaration(c, d)
                if checked is not None:  # in a fight, once a run: the check reads the declaration alone
                    checked[id(d)] = d
        steps: list[list[Declaration]] = []  # the declarations of each step (a phase), in order
        step = 0
        for d in mine:
            if steps and d.phase == step:
                steps[-1].append(d)
            else:
                steps.append([d])
                step = d.phase
        lost = self._surprise(c)
        at = lost  # the segment the previous step ended in (0: the round has not begun for this figure)
        timed = False  # whether a step that takes time came before
        guarding = False
        components = c.components_ready
        name = c.name  # read once (a Python value type's field, #18)
        closed_on = name in closers
        for index, group in enumerate(steps):
            if len(group) > 1:
                self._check_parallel(c, group)
            later = index < len(steps) - 1
            placed = False  # whether the step placed an action that takes time
            end = 0  # the step's last segment (loops, not max(): a Python call, #18)
            for d in group:
                kind = d.kind
                tag = name + (f", step {d.phase}" if len(steps) > 1 else "") + (
                    f" -> {d.target}" if len(group) > 1 else "")
                if kind is ActionKind.READY:
                    guarding = self._ready(c, d, index, at, later)
                    continue
                if kind is ActionKind.MISC and d.readies_components:
                    components = True
                acts = self._step(c, d, tag, index, at, timed, later, closed_on, guarding, components)
                if kind is ActionKind.ATTACK:
                    guarding = False
                self.acts.extend(acts)
                assert acts, f"{name}'s {kind.value} places no action"
                placed = True
                for a in acts:
                    if a.segment > end:
                        end = a.segment
            if placed:
                at, timed = end, True

    def _check_declaration(self, c: Combatant, d: Declaration) -> None:
        if d.phase < 1:
            raise IllegalActionError("003 §III", f"{c.name}: steps are numbered from 1, got {d.phase}")
        for flag, value in (("reposition", d.reposition), ("retarget", d.retarget),
                            ("drop_and_draw", d.drop_and_draw)):
            if value:
                raise IllegalActionError("003 §III", f"{c.name} declares {flag}, a Phase System rule (000 §2): in the "
                                                     f"Segment of Action system a change of place is a move step, "
                                                     f"and a weapon change is part of the next step's die")
        if d.hold:
            raise IllegalActionError("003 §IV", f"{c.name} holds a spell {d.hold} CT: the Segment of Action system "
                                                f"has no holding; the spell goes off at d4 + casting time")
        if d.feet is not None and d.kind is not ActionKind.MOVE:
            raise IllegalActionError("003 §III", f"{c.name} moves {d.feet}' as part of a {d.kind.value}: declare the "
                                                 f"move as its own step (a lower phase number) before it")

    def _check_parallel(self, c: Combatant, group: list[Declaration]) -> None:
        """003 §II: several declarations in one step are one monster's attacks on several opponents."""
        if any(d.kind is not ActionKind.ATTACK for d in group):
            kinds = [d.kind.value for d in group]
            raise IllegalActionError("003 §III", f"{c.name} declares {kinds} in step {group[0].phase}: only attacks on "
                                                 f"different opponents share a step; give later actions later "
                                                 f"phase numbers")
        targets = [d.target for d in group]
        if None in targets or len(set(targets)) < len(targets):
            raise IllegalActionError("003 §II", f"{c.name} attacks {targets} in step {group[0].phase}: attacks in one "
                                                f"step go to different, named opponents (list every attack form on "
                                                f"one opponent in one declaration: one die for them all)")

    def _ready(self, c: Combatant, d: Declaration, index: int, at: int, later: bool) -> bool:
        """A READY step takes no time: an archer guards, a melee weapon is set to repel."""
        weapon = kit(c).weapon(d.weapons[0] if d.weapons else None)
        if weapon.kind is WeaponKind.MISSILE:
            return True
        if later:
            raise IllegalActionError("003 §VI", f"{c.name} sets a weapon to repel and then acts again: a weapon set "
                                                f"to repel stays set for the rest of the round (make it the last step)")
        self.acts.append(_Act(c, SpanKind.ATTACK, f"{weapon.name} set" + (f" against {d.target}" if d.target else ""),
                              index, at + 1, LAST, "last", "003 §VI: weapon set to repel, no initiative die",
                              f"{c.name} sets the {weapon.name} and strikes the moment a foe arrives.", d.target,
                              (weapon,), repel=True))
        return False

    def _step(self, c: Combatant, d: Declaration, tag: str, index: int, at: int, timed: bool, later: bool,
              closed_on: bool, guarding: bool, components: bool) -> list[_Act]:
        """The actions of one declaration, starting after segment ``at``; ``timed``: an earlier step took time."""
        if d.kind is ActionKind.MOVE:
            return [self._move(c, d, tag, index, at, timed)]
        if d.kind is ActionKind.CAST:
            return [self._cast(c, d, tag, index, at, components)]
        if d.kind is ActionKind.MISC:
            face = self.roll(self.options.misc_die, f"segment: {tag}").total
            what = d.note or ("gets material components out" if d.readies_components else "miscellaneous action")
            return [_Act(c, SpanKind.MISC, what, index, at + 1, at + face, "spill", "003 §V: getting something out and ready",
                         f"{self.options.misc_die} = {face}: done in segment {at + face}." if self.explain else "",
                         d.target)]
        if d.spell is not None:
            return [self._touch(c, d, tag, index, at, timed)]
        named = kit(c).striking(d.weapons)
        breath = self.options.breath.get(c.name)
        if breath and all(w.name in breath for w in named):  # most figures breathe nothing: no generator made
            die = breath[named[0].name]
            face = self.roll(die, f"segment: {tag}").total
            names = " + ".join(w.name for w in named)
            return [_Act(c, SpanKind.ATTACK, names + _arrow(d.target), index, at + face, at + face,
                         "last", "003 §IV: breath and glance weapons",
                         f"Breath and glance weapons are very rapid: {die} = {face}, segment {at + face}; the breath "
                         f"reaches its full extent in that segment." if self.explain else "", d.target, named,
                         _hit_tag(tag, d.target), what=names)]
        if _all_missile(named):
            return self._missile(c, d, tag, index, at, (timed, later, closed_on), guarding, named[0])
        if timed:
            if d.attacks > 1:
                raise IllegalActionError("003 §III", f"{c.name} strikes after an earlier step: a double action "
                                                     f"leaves time for one blow, not {d.attacks}")
            return [self._strike_after(c, d, tag, index, at, named)]
        if len(named) > 1:
            return self._forms(c, d, tag, index, at, named)
        return self._blows(c, d, tag, index, at, named[0])

    def _blows(self, c: Combatant, d: Declaration, tag: str, index: int, at: int, weapon: Weapon) -> list[_Act]:
        """003 §I-II: one blow on a d10, two on 2d6, three on 3d4."""
        blows = kit(c).attacks_in_round(self.encounter.round, weapon)
        if d.attacks > blows:
            raise IllegalActionError("003 §II", f"{c.name} has {blows} blow(s) in round {self.encounter.round}, not "
                                                f"{d.attacks}")
        band = self._band((weapon,))
        explain = self.explain  # the words below only when they are asked for (#18)
        extra = (f" The {weapon.name}'s speed factor {weapon.speed_factor} adds {band} segment(s) (003 §VI)."
                 if explain and self.options.speed_bands and weapon.kind is not WeaponKind.NATURAL else "")
        late = f" {at} segment(s) lost to surprise come first." if explain and at else ""
        if blows == 1:
            face = self.roll("d10", f"segment: {tag}").total
            return [_Act(c, SpanKind.ATTACK, weapon.name + _arrow(d.target), index, at + face + band, at + face + band, "last",
                         "003 §I: d10 for the segment of the blow",
                         f"d10 = {face}: the blow falls in segment {face}.{extra}{late}" if explain else "", d.target,
                         (weapon,), _hit_tag(tag, d.target), what=weapon.name)]
        if blows > 3:
            return self._many_blows(c, d, tag, index, at, weapon, blows, band, extra + late)
        dice = "2d6" if blows == 2 else "3d4"
        faces = self._faces(self.roll(dice, f"blows: {tag}"))
        acts, total = [], at + band
        for n, face in enumerate(faces, 1):
            total += face
            how = "the first die" if n == 1 else f"plus die {n} ({face})"
            acts.append(_Act(c, SpanKind.ATTACK, f"{weapon.name} blow {n}" + _arrow(d.target), index, total, total, "last",
                             f"003 §II: {blows} blows on {dice}" + (", past 10: last action" if total > ROUND else ""),
                             f"{dice} = {list(faces)}: blow {n} is {how}, segment {total - at - band}.{extra}{late}"
                             + (" Past segment 10, the blow is still awarded as the last action of the round."
                                if total > ROUND else "") if explain else "",
                             d.target, (weapon,), _hit_tag(tag, d.target) + f", blow {n}", what=f"{weapon.name} blow {n}"))
        return acts

    def _many_blows(self, c: Combatant, d: Declaration, tag: str, index: int, at: int, weapon: Weapon, blows: int,
                    band: int, notes: str) -> list[_Act]:
        """003 §II: "Monsters with more than three attacks per melee round ... should likely be measured by
        multiple d10 ... Compromise on 3d10, the first roll for 3 arms, the second for 3 more and the last for the
        tail": a d10 for every ``forms_per_die`` blows, and the blows of one d10 fall together in its segment."""
        size = self.options.forms_per_die
        acts = []
        for n, first in enumerate(range(1, blows + 1, size), 1):
            last = min(first + size - 1, blows)
            face = self.roll("d10", f"segment: {tag}" + (f", blows {n}" if n > 1 else "")).total
            segment = at + face + band
            self.groups += 1
            which = f"blows {first}-{last} fall" if last > first else f"blow {first} falls"
            for blow in range(first, last + 1):
                acts.append(_Act(c, SpanKind.ATTACK, f"{weapon.name} blow {blow}" + _arrow(d.target), index, segment,
                                 segment, "last", f"003 §II: more than three blows, a d10 for every {size}",
                                 f"{c.name} has {blows} blows, a d10 for every {size}: d10 = {face}, {which} in "
                                 f"segment {face}.{notes}", d.target, (weapon,), _hit_tag(tag, d.target) + f", blow {blow}",
                                 together=self.groups, what=f"{weapon.name} blow {blow}"))
        return acts

    def _band(self, weapons: tuple[Weapon, ...]) -> int:
        """003 §VI option: the slowest wielded weapon's speed band (natural attacks have none)."""
        if not self.options.speed_bands:
            return 0
        return max((speed_band(w.speed_factor) for w in weapons if w.kind is not WeaponKind.NATURAL), default=0)

    def _forms(self, c: Combatant, d: Declaration, tag: str, index: int, at: int,
               named: tuple[Weapon, ...]) -> list[_Act]:
        """003 §II: a multi-part routine on one d10 per opponent; a d10 for every three forms past three."""
        size = self.options.forms_per_die
        groups = [named[i:i + size] for i in range(0, len(named), size)] if len(named) > 3 else [named]
        band = self._band(named)
        explain = self.explain  # the words below only when they are asked for (#18)
        extra = f" Speed factor adds {band} segment(s) (003 §VI)." if band and explain else ""
        acts = []
        for n, group in enumerate(groups, 1):
            purpose = f"segment: {tag}" + (f", forms {n}" if n > 1 else "")
            face = self.roll("d10", purpose).total
            rule = "003 §II: one d10 for the routine" if len(groups) == 1 else \
                f"003 §II: more than three attacks, a d10 for every {size}"
            names = " + ".join(w.name for w in group)
            acts.append(_Act(c, SpanKind.ATTACK, names + _arrow(d.target), index,
                             at + face + band, at + face + band, "last", rule,
                             f"d10 = {face}: {', '.join(w.name for w in group)} strike together in segment "
                             f"{face}.{extra}" if explain else "",
                             d.target, group, _hit_tag(tag, d.target) + (f", forms {n}" if len(groups) > 1 else ""),
                             what=names))
        return acts

    def _strike_after(self, c: Combatant, d: Declaration, tag: str, index: int, at: int,
                      named: tuple[Weapon, ...]) -> _Act:
        """003 §III: after a move (or another action) the strike takes the weapon's die."""
        dice = [self.options.weapon_dice.get(w.name) or self.options.chain_dice[w.length] for w in named]
        die = max(dice, key=lambda text: Dice.parse(text).maximum)
        face = self.roll(die, f"weapon ready: {tag}").total
        segment = at + face
        why = ""
        if self.explain:  # the words only when they are asked for (#18)
            verdict = ("" if segment <= ROUND else
                       " Past segment 10: " + ("it comes last in the round." if self.options.chain_overflow_last else
                                               "the blow is disallowed, the weapon was not in place."))
            why = (f"{c.name} is ready in segment {at}; the {named[0].name} takes {die} = {face} more: segment "
                   f"{segment}.{verdict}")
        names = " + ".join(w.name for w in named)
        return _Act(c, SpanKind.ATTACK, names + _arrow(d.target), index, at + 1, segment, "chain",
                    f"003 §III: double action, {die} for the weapon after segment {at}", why, d.target, named,
                    _hit_tag(tag, d.target), what=names)

    def _touch(self, c: Combatant, d: Declaration, tag: str, index: int, at: int, timed: bool) -> _Act:
        spell = c.spell(d.spell)
        cast_before = any(a.actor is c and a.kind is SpanKind.CAST and a.spell == spell for a in self.acts)
        if not spell.touch or not cast_before or not timed:
            raise IllegalActionError("003 §III", f"{c.name}: an attack naming {spell.name} delivers a touch spell "
                                                 f"cast in an earlier step")
        face = self.roll(self.options.chain_dice[Length.UNARMED], f"weapon ready: {tag}").total
        return _Act(c, SpanKind.ATTACK, f"touch: {spell.name}" + _arrow(d.target), index, at + 1, at + face, "chain",
                    "003 §III: double action, the touch after the casting",
                    f"The touch follows the casting by {face} segment(s): segment {at + face}." if self.explain else "",
                    d.target, (),
                    _hit_tag(tag, d.target), what=f"touch: {spell.name}")

    def _missile(self, c: Combatant, d: Declaration, tag: str, index: int, at: int,
                 double: tuple[bool, bool, bool], guarding: bool, weapon: Weapon) -> list[_Act]:
        """003 §III: missile fire. ``double``: (after an earlier step, before a later one, a foe closes in)."""
        target = _arrow(d.target)
        flight = self._flight(c, d)
        hit_tag = _hit_tag(tag, d.target)
        after, before, closed_on = double
        if after or before or closed_on:
            die = self.options.chain_missile_die
            face = self.roll(die, f"segment: {tag}").total
            why = ("after an earlier action" if after else "before closing for melee" if before
                   else "at a foe closing in")
            return [_Act(c, SpanKind.ATTACK, weapon.name + target, index, at + face, at + face + flight,
                         "chain" if after else "last", f"003 §III: {die} for a missile in a double action",
                         f"A missile loosed {why} is measured by {die} = {face}: segment {at + face}, one shot."
                         f"{self._flight_note(flight)}" if self.explain else "", d.target, (weapon,), hit_tag, shot=1,
                         what=weapon.name)]
        shots = kit(c).attacks_in_round(self.encounter.round, weapon)
        if shots > 3:
            raise IllegalActionError("003 §III", f"{c.name} fires {shots} missiles in round {self.encounter.round}: "
                                                 f"003 covers one (d6), two (2d6) and, like blows, three (3d4)")
        if shots == 1:
            die = self.options.guard_dice[0] if guarding else self.options.missile_die
            faces = [self.roll(die, f"segment: {tag}").total]
            how = f"{die} for a single firing" + (" by an archer ready and guarding" if guarding else "")
        elif guarding:
            faces = [self.roll(self.options.guard_dice[0], f"shot 1: {tag}").total,
                     self.roll(self.options.guard_dice[1], f"shot 2: {tag}").total]
            how = f"{' then '.join(self.options.guard_dice)}, ready and guarding"
            if shots == 3:
                faces.append(self.roll(self.options.guard_dice[1], f"shot 3: {tag}").total)
        else:
            dice = "2d6" if shots == 2 else "3d4"
            faces = list(self._faces(self.roll(dice, f"shots: {tag}")))
            how = f"{dice}, {shots} missiles a round"
        acts, total = [], at
        for n, face in enumerate(faces, 1):
            total += face
            fired = weapon.name + (f" shot {n}" if shots > 1 else "")
            past = " Past segment 10, the shot is still allowed, last, unless the archer is hit." if total > ROUND \
                else ""
            acts.append(_Act(c, SpanKind.ATTACK, fired + target, index, total, total + flight, "last", f"003 §III: {how}",
                             f"{how}: {faces[:n]} puts shot {n} in segment {total}.{past}"
                             f"{self._flight_note(flight)}" if self.explain else "", d.target, (weapon,),
                             hit_tag + (f", shot {n}" if shots > 1 else ""), shot=n, what=fired))
        return acts

    def _flight(self, c: Combatant, d: Declaration) -> int:
        feet = self.options.missile_flight_feet
        gap = self.gap(c.name, d.target) if d.target else None
        return 0 if feet is None or gap is None else gap // feet

    @staticmethod
    def _flight_note(flight: int) -> str:
        return f" It flies {flight} segment(s) to the target (003 §IV)." if flight else ""

    def _cast(self, c: Combatant, d: Declaration, tag: str, index: int, at: int, components: bool) -> _Act:
        """003 §IV-V: d4 (or the item's die) for the segment casting begins, plus the casting time."""
        spell = c.spell(d.spell)
        item = self.options.items.get(c.name, {}).get(spell.name)
        ct = ONE_ROUND_SEGMENTS if spell.casting_time == ONE_ROUND else int(spell.casting_time)
        if item is not None:
            die, purpose, what = item.ready, f"item ready: {tag}", f"getting the item ready ({item.ready})"
            rule = "003 §V: magic item, die to get it out plus its casting time"
        elif "M" in spell.component_set and not components:
            die, purpose = self.options.components_die, f"spell start: {tag}"
            what = f"material components not at hand ({die} instead of {self.options.spell_die})"
            rule = "003 §IV: components must be got out"
        else:
            die, purpose, what = self.options.spell_die, f"spell start: {tag}", f"{self.options.spell_die}"
            rule = "003 §IV: spell begins on d4, goes off after its casting time"
        face = self.roll(die, purpose).total
        start = at + face
        casts = f"{'discharges' if item else 'casts'} {spell.name}"
        act = _Act(c, SpanKind.CAST, f"{casts} (CT {ct})" + _arrow(d.target), index,
                   start, start + ct, "spill", rule,
                   f"{what} = {face}: begins in segment {start}, goes off {ct} segment(s) later, in segment "
                   f"{start + ct}" + (" of the next round" if start + ct > ROUND else "") + "." if self.explain else "",
                   d.target,
                   spell=spell, item=item, what=casts)
        limit = self.options.melee_spell_limit
        foes = self.engaged(c)
        if limit is not None and ct > limit and foes and item is None:
            act.status, act.ended = Status.RUINED, tick_of(start)
            act.rule = "003 §IV: a longer spell in melee is spoiled"
            act.notes.append(f"{c.name} is in melee with {', '.join(foes)}: a spell longer than {limit} segments is "
                             f"spoiled by the foe on top of the caster.")
        return act

    def _move(self, c: Combatant, d: Declaration, tag: str, index: int, at: int, timed: bool) -> _Act:
        """003 §III: a move takes the segments its distance needs at MV feet a segment."""
        if c.movement == 0:
            raise IllegalActionError("003 §III", f"{c.name} has MV 0 and cannot move")
        gap = self.gap(c.name, d.target) if d.target else None
        feet = d.feet if d.feet is not None else gap
        if feet is None:
            raise IllegalActionError("003 §III", f"{c.name}'s move needs a distance: give feet, or a target at a known "
                                                 f"distance")
        if feet <= 0:
            raise IllegalActionError("003 §III", f"{c.name} moves 0' {'to ' + d.target if d.target else ''}: "
                                                 f"already there, drop the move")
        segments = math.ceil(feet / c.movement)
        foes = self.engaged(c)
        flees = not timed and bool(foes) and d.target not in foes
        explain = self.explain  # the words only when they are asked for (#18)
        why = ""
        if flees:
            face = self.roll("d10", f"segment: {tag}").total
            start, end = at + face, at + face + segments - 1
            rule = "003: fleeing, d10 for the segment the figure breaks away"
            if explain:
                why = (f"{c.name} is in melee with {', '.join(foes)} and flees: d10 = {face}, away in segment "
                       f"{start}; a blow falling later misses its chance. {feet}' at MV {c.movement} takes "
                       f"{segments} segment(s).")
        else:
            start, end = at + 1, at + segments
            rule = "003 §III: movement, MV feet a segment"
            if explain:
                why = (f"{feet}' at MV {c.movement} ({c.movement}' a segment) takes {segments} segment(s): "
                       f"segments {start}-{end}" + (", arriving in the next round." if end > ROUND else "."))
        return _Act(c, SpanKind.MOVE, f"moves {feet}'" + (f" to {d.target}" if d.target else ""), index, start, end,
                    "spill", rule, why, d.target, flees=flees)

    @staticmethod
    def _faces(roll: Roll) -> tuple[int, ...]:
        """The faces of a several-dice roll; a referee must enter them (each blow needs its own die)."""
        if roll.faces is None:
            raise IllegalActionError("003 §II", f"{roll.purpose}: enter each die's face (e.g. [2, 5]), not the "
                                                f"total {roll.total}: each die places one blow")
        return roll.faces

    # -- never two actions in a segment

    def _no_two_in_a_segment(self) -> None:
        """003 §III: "A figure should NEVER be allowed two actions in one segment". Each figure's actions are
        gathered in one pass over the round's (by the figure's identity), and only a figure with two or more is looked
        at: not a generator over every action and a sort for each figure, most of which have one (#18)."""
        mine: dict[int, list[_Act]] = {}
        for a in self.acts:
            if not a.repel:
                mine.setdefault(id(a.actor), []).append(a)
        for acts in mine.values():
            if len(acts) < 2:
                continue
            name = acts[0].actor.name
            taken: dict[Tick, int] = {}  # a segment -> the blows falling together there (0: another action)

            def clash(act: _Act) -> bool:  # blows of one d10 (003 §II) are one action
                return act.tick in taken and not (act.together and taken[act.tick] == act.together)

            for act in sorted(acts, key=lambda a: (a.segment, a.step)):
                if not clash(act):
                    taken[act.tick] = act.together
                    continue
                was = act.segment
                while clash(act) and act.segment <= ROUND:
                    act.segment += 1
                    act.start = min(act.start + 1, act.segment)
                act.rule += "; 003 §III: never two actions in one segment"
                if clash(act):
                    act.status = Status.CANCELLED
                    act.notes.append(f"It would share segment {was} with another of {name}'s actions and no "
                                     f"segment is left: lost.")
                    continue
                taken[act.tick] = act.together
                act.notes.append(f"Segment {was} already holds another of {name}'s actions: moved to "
                                 f"{'the last action' if act.tick == LAST else 'segment ' + str(act.segment)}.")

    # -- resolving the round, segment by segment

    def _resolve(self) -> None:
        """003 §I: the round segment by segment, up to the last tick an open action lands on. A tick at which no
        open action begins or lands, that is not the last actions' (LAST) and holds no reported hit, changes
        nothing: the walk goes from one tick that may change something to the next, and reads the open actions'
        ticks once a tick. What begins at t cannot move what lands at t: a casting delayed by a hit as it begins
        (003 §IV) goes off, and the figure's later actions land, after t, or at LAST whatever the delay."""
        for act in self.acts:
            if act.overflow == "chain" and act.segment > ROUND and not self.options.chain_overflow_last:
                act.status = Status.CANCELLED
        order = {c.name: i for i, c in enumerate(self.encounter.combatants)}
        reported = [h.tick for h in self.encounter.hits]
        t = 1
        while True:
            # One pass over the actions a step (#18): the open ones with the tick each lands on, the last of those,
            # the tick each that goes ahead begins on, and the next tick from t that any of these, the last actions
            # (LAST) or a reported hit falls on; loops, not max()/min() of generators (Python calls).
            open_: list[tuple[_Act, Tick]] = []
            begins: list[tuple[_Act, Tick]] = []
            last = 0
            upcoming = LAST if LAST >= t else _NEVER
            for a in self.acts:
                if a.resolved:
                    continue
                tick = a.tick
                open_.append((a, tick))
                if tick > last:
                    last = tick
                if t <= tick < upcoming:
                    upcoming = tick
                if a.status is Status.DONE:
                    begin = tick_of(a.start)
                    if tick < begin:
                        begin = tick
                    begins.append((a, begin))
                    if t <= begin < upcoming:
                        upcoming = begin
            if not open_ or t > last:
                return
            for tick in reported:
                if t <= tick < upcoming:
                    upcoming = tick
            t = upcoming
            self._begin(t, [a for a, tick in begins if tick == t])
            landed = [a for a, tick in open_ if tick == t and not a.repel]
            if len(landed) > 1:  # most ticks land one action or none: no sort, no key function called
                landed.sort(key=lambda a: (order[a.actor.name], a.step, a.segment))
            for act in landed:
                self._land(act, t)
            if t == LAST:
                for act in [a for a in self.acts if a.repel and not a.resolved]:
                    self._unused_repel(act)
            self._after_segment(t)
            t += 1

    def _begin(self, t: Tick, beginning: list[_Act]) -> None:
        """Casting that begins, and fleeing figures breaking away, at tick t (``beginning``: the open actions
        begun then)."""
        for act in beginning:
            if act.kind is SpanKind.CAST and not act.delayed and self.options.hit_before_casting_die:
                before = [h for h in self.hits[act.actor.name] if h < t]
                if before and (act.item is None or act.item.foiled_by_hits):
                    act.delayed = True
                    die = self.options.hit_before_casting_die
                    face = self.roll(die, f"hit before casting: {act.actor.name}").total
                    if face <= 3:
                        self._shift(act, face, casting_time=True)
                        act.notes.append(f"Hit before casting began (tick {before[0]}): {die} = {face}, added to the "
                                         f"casting time; it goes off in segment {act.segment} (003 §IV).")
                    else:
                        act.notes.append(f"Hit before casting began: {die} = {face}, no delay (003 §IV).")
            if act.flees:
                self.fled[act.actor.name] = t

    def _shift(self, act: _Act, by: int, casting_time: bool = False) -> None:
        """Delay ``act`` and every later action of the same figure by ``by`` segments; with
        ``casting_time`` only the spell's end moves (its casting has begun)."""
        original = act.segment
        act.segment += by
        act.start += 0 if casting_time else by
        for other in self.acts:
            if other.actor is act.actor and other is not act and not other.resolved and (
                    other.step > act.step or (other.step == act.step and other.segment > original)):
                other.start += by
                other.segment += by

    def _land(self, act: _Act, t: Tick) -> None:
        act.resolved = True
        if act.status is not Status.DONE:
            return
        name = act.actor.name
        if name in self.fallen and self.fallen[name] < t and not self._dying_blow(act, t):
            act.status = Status.CANCELLED
            act.notes.append(f"{name} fell at {CLOCK.describe(self.fallen[name])}: the action is lost.")
            return
        if act.kind is SpanKind.MOVE:
            self._arrive(act, t)
        if act.kind is not SpanKind.ATTACK:
            return
        target = self.people.get(act.target) if act.target else None
        if target is None:
            return
        if target.name in self.fled and self.fled[target.name] < t and not act.repel:
            act.status = Status.CANCELLED
            act.notes.append(f"{target.name} broke away at {CLOCK.describe(self.fled[target.name])}, before the "
                             f"blow: it misses its chance (003).")
            return
        if target.name in self.fallen and self.fallen[target.name] < t:
            act.status = Status.CANCELLED
            act.notes.append(f"{target.name} is already down: the blow is lost.")
            return
        self._swing(act, target, t)

    def _dying_blow(self, act: _Act, t: Tick) -> bool:
        """003 §I Option: a blow one segment late still falls if the dying figure saves vs. death."""
        name = act.actor.name
        if not (self.options.dying_blow and act.kind is SpanKind.ATTACK and t == self.fallen[name] + 1):
            return False
        if name not in self.saved:
            need = self.options.death_saves.get(name) or save_vs_death(act.actor)
            roll = self.roll("d20", f"save vs death: {name}").total
            self.saved[name] = roll >= need
            act.notes.append(f"{name} fell a segment before this blow: save vs. death {roll} against {need}, "
                             f"{'made' if self.saved[name] else 'failed'} (003 §I Option).")
        return self.saved[name]

    def _swing(self, act: _Act, target: Combatant, t: Tick) -> None:
        """The d20 to hit rolled with the segment die (003 §I), one per form; damage when figures can fall."""
        if not self.swings:
            return
        casting = self._casting(target, t)
        ac = target.armor_class
        if casting is not None and casting.segment - casting.start > self.options.quick_spell:
            ac += self.options.immobile_ac_penalty
        threshold = min(20, max(2, act.actor.thac0 - ac))
        matters = self._hit_matters(target, t)
        forms = act.weapons or (None,)
        names = [w.name for w in act.weapons]
        results = []
        for n, weapon in enumerate(forms):
            suffix = ""
            if len(forms) > 1 and weapon is not None:
                repeats = names.count(weapon.name) > 1
                suffix = f", {weapon.name}" + (f" {names[:n + 1].count(weapon.name)}" if repeats else "")
            hit, shown = self.to_hit(threshold, act.hit_tag + suffix, matters)
            results.append(f"{shown}: {'hit' if hit else 'miss'}")
            if not hit:
                continue
            self.hits[target.name].append(t)
            if self.options.kills and weapon is not None:
                damage = self.roll(weapon.damage, act.hit_tag.replace("to hit:", "damage:", 1) + suffix).total
                self.hp[target.name] -= damage
                results[-1] += f" for {damage}"
        immobile = f" (AC {ac}: casting, relatively immobile, 003 §IV)" if ac != target.armor_class else ""
        act.notes.append(f"To hit {target.name}{immobile} needs {threshold}: {'; '.join(results)}.")

    def _casting(self, c: Combatant, t: Tick) -> _Act | None:
        return next((a for a in self.acts if a.actor is c and a.kind is SpanKind.CAST and a.status is Status.DONE
                     and tick_of(a.start) <= t < a.tick), None)

    def _hit_matters(self, target: Combatant, t: Tick) -> bool:
        """Whether a hit on ``target`` at t can change anything the timeline shows."""
        if self.options.kills:
            return True
        for a in self.acts:
            if a.actor is not target or a.status is not Status.DONE or a.resolved:
                continue
            if a.kind is SpanKind.CAST and (a.item is None or a.item.foiled_by_hits) and a.tick > t:
                return True
            if a.shot > 1 and target.name not in self.shot_delayed:
                return True
        return False

    def _arrive(self, act: _Act, t: Tick) -> None:
        """A mover arrives: close the gap, and a weapon set to repel it strikes at once."""
        if act.target is None:
            return
        if act.flees:
            return
        self.gaps[frozenset((act.actor.name, act.target))] = 0
        for repel in [a for a in self.acts if a.repel and not a.resolved and a.actor.name == act.target
                      and a.target in (None, act.actor.name) and a.status is Status.DONE and a.start <= t]:
            repel.ended, repel.target, repel.resolved = t, act.actor.name, True
            repel.label, repel.what = f"{repel.weapons[0].name} (set) -> {act.actor.name}", repel.weapons[0].name
            repel.hit_tag = f"to hit: {act.target} -> {act.actor.name}, set weapon"
            repel.notes.append(f"{act.actor.name} arrives in segment {t}: the set weapon strikes at once, with no "
                               f"initiative die.")
            if act.actor.name in self.fallen and self.fallen[act.actor.name] < t:
                continue
            if repel.actor.name in self.fallen and self.fallen[repel.actor.name] < t:
                repel.status = Status.CANCELLED
                continue
            self._swing(repel, act.actor, t)

    def _unused_repel(self, act: _Act) -> None:
        act.resolved = True
        act.status = Status.CANCELLED
        act.notes.append("No foe arrived this round: the weapon stays set.")

    def _after_segment(self, t: Tick) -> None:
        """Hits of tick t take effect: spells ruined, arrows delayed, figures fall (after the segment)."""
        for name, ticks in self.hits.items():
            if t not in ticks:
                continue
            c = self.people[name]
            for act in [a for a in self.acts if a.actor is c and a.status is Status.DONE and not a.resolved]:
                if act.kind is SpanKind.CAST and tick_of(act.start) <= t < act.tick and (
                        act.item is None or act.item.foiled_by_hits):
                    act.status, act.resolved, act.ended = Status.RUINED, True, t
                    act.notes.append(f"{name} is hit at {CLOCK.describe(t)} while casting: the spell is ruined "
                                     f"(003 §IV).")
            pending = [a for a in self.acts if a.actor is c and a.shot > 1 and not a.resolved
                       and a.status is Status.DONE]
            if pending and name not in self.shot_delayed:
                self.shot_delayed.add(name)
                first = min(pending, key=lambda a: a.segment)
                die = self.options.shot_delay_die
                face = self.roll(die, f"shot delay: {name}").total
                self._shift(first, face)
                first.notes.append(f"{name} took damage at {CLOCK.describe(t)}: {die} = {face} segment(s) added to "
                                   f"the next shot (003 §III).")
            for act in pending:
                if act.segment > ROUND:
                    act.status = Status.CANCELLED
                    act.notes.append(f"{name} was hit: a shot past segment 10 is no longer allowed (003 §III).")
            if self.options.kills and self.hp[name] <= 0 and name not in self.fallen:
                self.fallen[name] = t
                if self.explain:
                    self.notes.append(f"{name} falls at {CLOCK.describe(t)} ({self.hp[name]} hp): anything it had not "
                                      f"yet done is lost.")

    # -- spans

    def _span(self, act: _Act) -> Span:
        tick = act.tick
        period = "next round" if tick > LAST else CLOCK.period_of(tick).label  # type: ignore[union-attr]
        why = " ".join([act.why, *act.notes]) if self.explain else ""
        start = min(act.start_tick, tick)
        return Span(act.actor.name, act.actor.side, act.kind, act.label, start, tick, period, act.rule, why,
                    target=act.target, status=act.status, what=act.what)


def _all_missile(weapons: tuple[Weapon, ...]) -> bool:
    """Whether every weapon is a missile weapon (a loop: ``all()`` of a generator is a Python call and object, #18)."""
    for w in weapons:
        if w.kind is not WeaponKind.MISSILE:
            return False
    return True


def _arrow(target: str | None) -> str:
    return f" -> {target}" if target else ""


def _hit_tag(tag: str, target: str | None) -> str:
    """The purpose of a to-hit roll: ``"to hit: Warrior -> Hobgoblin"`` (the tag may name the target already)."""
    return f"to hit: {tag}" + ("" if target is None or "->" in tag else f" -> {target}")


class _TimingRoller(Roller):
    """The Segment of Action scheduler rolls its own d20 to hit (003 §I); in a resolved round the
    resolver's attack roll is the only one, so the scheduler's is answered with a miss (the hits
    reach it through ``Encounter.hits``) and not kept in the log."""

    def roll(self, dice: str | Dice, purpose: str) -> Roll:
        if purpose.startswith("to hit: "):
            spec = Dice.parse(dice)
            return Roll(spec, purpose, spec.minimum, (1,) * spec.count, entered=True)
        return super().roll(dice, purpose)


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class SegmentOfAction(TimingSystem):
    """Lakofka's Segment of Action system as a timing system (003)."""

    id = "segments"
    aliases: tuple[str, ...] = ("segment of action", "segment of action system", "lakofka", "003")
    title = "Segment of Action (Lakofka, 1980)"
    short = "Segment of Action"
    source = "003 §I-VI"
    clock = CLOCK
    options_class = SegmentsOptions
    declaration_phases: tuple[str, ...] = ("step 1", "step 2", "step 3")  # same number: parallel; later: later steps (003 §III)
    declaration_fields = frozenset({"feet", "attacks", "readies_components"})
    hit_tick = "segment"
    roll_keys: tuple[str, ...] = (
        "surprise: <name>", "segment: <tag>", "segment: <tag>, forms <n>", "segment: <tag>, blows <n>",
        "blows: <tag>", "weapon ready: <tag>",
        "shots: <tag>", "shot 1: <tag>", "shot 2: <tag>", "shot 3: <tag>", "shot delay: <name>", "spell start: <tag>",
        "item ready: <tag>", "hit before casting: <name>", "to hit: <tag> -> <target>", "damage: <tag> -> <target>",
        "save vs death: <name>",
    )
    """``<tag>`` is the figure's name, with ``, step <n>`` in a chain of steps and `` -> <target>``
    when one step holds several actions."""

    rules = SystemRules(
        "003", "003 §I: simultaneous blows both land; a figure falls after the segment",
        "003 §I: if he kills the Hobgoblin, the melee is over since the Hobgoblin's chance to hit does not come "
        "until the 7th segment", Retarget.LOST, "003: a blow at a figure already down is lost", 3,
        dying_blow="003 §I Option", hits_delay_shots=True, max_missiles=3, own_surprise="003 §VI")

    chain_rules = ChainRules(
        move="003 §III: a move is a step of its own, its segments counted from the feet covered",
        strike="003 §III: a move, then the blow as a double action (or a blow already in reach, 003 §I)",
        cast="003 §IV: spell casting is measured from a base of d4", ready="003 §IV, V: getting something out and ready",
        hold="003 §III, VI: an archer guarding, or a weapon set to repel", action="003 §V: getting something out "
        "and using it", flee="003: the figure who is fleeing can beat the initiative of his attacker",
        out_of_reach="003 §III: a double action needs the move to reach the foe within the round")
    """003 places a figure's intents as a chain of steps, one after the other (003 §III, "double actions")."""

    def _schedule(self, encounter: Encounter, roller: Roller, options: SegmentsOptions) -> Timeline:
        """Roll every figure's segments for the round and play it out segment by segment."""
        return _Run(encounter, roller, options).run()

    def timing_roller(self) -> type[Roller]:
        """A roller that answers the scheduler's own to-hit d20 (003 §I) with a miss: the resolver's
        attack roll is the only one, and its hits reach the scheduler as ``Encounter.hits``."""
        return _TimingRoller

    def timing_options(self, options: SegmentsOptions | None) -> SegmentsOptions:
        """Timing only (``kills=False``); the dying blow is the resolver's (``ResolutionOptions.dying_blow``)."""
        base = options if isinstance(options, SegmentsOptions) else default_options(SegmentsOptions)
        if not base.kills and not base.dying_blow:
            return base  # timing only already (the fight's round options): not built and checked again
        return derived_options(base, "timing only", kills=False, dying_blow=False)

    def round_options(self, options: SegmentsOptions | None, fight: FightRound) -> SegmentsOptions:
        """003 §VI: "d6 per character": in round 1 every figure rolls for surprise when none is
        flagged surprised (unless ``SurpriseOptions.check`` is off); no surprise after round 1."""
        base = self.timing_options(options)
        checks = frozenset(fight.names) if fight.first and fight.surprise_check and not fight.flagged else frozenset()
        surprise_checks = (base.surprise_checks | checks) if fight.first else frozenset()
        if surprise_checks == base.surprise_checks:
            return base
        return derived_options(base, surprise_checks, surprise_checks=surprise_checks)

    def _odds_round(self, encounter: Encounter, a: str, b: str,
                    options: SegmentsOptions) -> Callable[[Roller], Timeline]:
        """The matchup is the two figures' own round: their declarations (a blow or shot aimed at a third
        figure is still their act; the others stand and declare nothing, so their dice are not rolled), the
        distances and the hits the referee reported on them; timing only (``kills=False``: "let us say
        neither is slain", 003 §I), so nobody falls. A hit is a branch only while it can ruin a spell or
        delay a shot."""
        pair = {a, b}
        alone = replace(
            encounter,
            declarations=tuple(d for d in encounter.declarations if d.actor in pair),
            hits=tuple(h for h in encounter.hits if h.target in pair),
        )
        timing = replace(options, kills=False)
        return partial(_alone_round, alone, timing)


SEGMENTS: Final = register(SegmentOfAction())


odds = SEGMENTS.odds


def _alone_round(encounter: Encounter, options: SegmentsOptions, roller: Roller) -> Timeline:
    """The round :meth:`SegmentOfAction._odds_round` runs: the pair alone, nobody falling."""
    return _Run(encounter, roller, options).run()
