"""Strike Speed order of battle (seed 004, "Strike Speed Based Order of Battle (Optional)").

A round, step by step:

1. Every spell caster declares the spell and its target before initiative is rolled
   (004 Strike Speed: Initiative); every figure's stance is announced (004 Combat Stance:
   a figure that announces none is in Standard).
2. Initiative "as described in the standard rules": a die per side, high wins. The side
   with the higher roll gets +5 strike speed for the round.
3. Everyone acts from high strike speed to low (004 Strike Speed). Strike speed =
   base strike speed of the action (004's table, ``combatkit/data/strike_speed_004.toml``)
   + 5 if the figure's side has initiative
   + the Fighter Strike Bonus (level/4, rounded up) for a fighter,
     or half the hit dice (rounded down) for a monster the referee classes as a fighter
   + the stance's Strike modifier, if the referee uses that option (``stance_strike``).
4. Ties in strike speed go to the higher level (or hit dice); equal levels are simultaneous.

The clock is the order of battle itself: one tick per moment that happens, from the
spells declared before initiative, through each strike speed from high to low (a speed
shared by figures of different levels holds one moment per level). Its periods are
labelled ``"strike speed 11"``. :attr:`StrikeSpeed.clock` is the nominal round, one tick
per strike speed from 17 down to 1.

Choices this module makes where 004 is silent (each also in :class:`StrikeSpeedOptions`):

* "The standard rules" for initiative are B/X's: a d6 per side, high wins
  (``initiative_die``). A tie for the highest roll gives no side the +5.
* "Fighter Strike Bonus (plus their Level/4, rounded up)" is read as: the bonus *is*
  level/4 rounded up (004 defines no other). Fighters are figures of class ``fighter``;
  monsters are classed as fighters (B/X monsters fight as fighters) unless the referee
  says otherwise per figure in ``fighters``, which can also class anyone else as one.
* An unarmed attack, absent from the table, uses the shortest weapon row (Short, 3).
* A declaration with several weapons strikes at the slowest of their rows.
* Movement and miscellaneous actions are not in the table. A move leading into an attack
  or spell (or following one) happens at that action's strike speed; a figure that only
  moves, readies or does something miscellaneous acts at base ``unlisted_base`` (0).
* Declaring spells before initiative exists so that a caster hit first loses the spell
  (the standard rules' disruption): a hit the referee reports (``Encounter.hits``, its
  ``tick`` read as the strike speed it landed at) before the caster's strike speed ruins
  the spell. A hit at the caster's own strike speed is simultaneous, unless its ``source``
  names a figure of higher level, who acts first (004's tie rule).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Roller
from combatkit.encounter import Encounter, Hit
from combatkit.errors import IllegalActionError, RulesError
from combatkit.kinds import ActionKind, Length, Maneuver, WeaponKind
from combatkit.model import Combatant, Declaration, Weapon
from combatkit.stances import Stance, check_stance, may_attack
from combatkit.systems._memo import kit
from combatkit.systems._order_of_battle import (
    Moment,
    check_action_number,
    has_word,
    moment_clock,
    refuse_combat_ii_fields,
)
from combatkit.systems._plan import ChainRules
from combatkit.systems.base import (
    FightRound,
    RoundKeys,
    TimingSystem,
    check_names,
    checked_once,
    default_options,
    derived_options,
    placed_round,
    register,
    round_keys,
    sides_of,
)
from combatkit.systems.rules import Retarget, SystemRules
from combatkit.timeline import SPAN_KIND, Clock, Period, Span, SpanKind, Status, Timeline

__all__ = [
    "STRIKE_SPEED",
    "ActionRow",
    "StrikeSpeed",
    "StrikeSpeedOptions",
    "action_row",
    "action_table",
    "fighter_bonus",
    "odds",
    "strike_speed",
]

RULE: Final = "004 Strike Speed"
INITIATIVE_BONUS: Final = 5  # 004: "The side with the higher roll gets a +5 to strike speed for the round."
UNIT: Final = "moment"
UNIT_NOTE: Final = "strike speed, high to low; ties by level"
BEFORE: Final = Moment((0,), "before initiative")

CLOCK: Final = Clock(
    unit=UNIT,
    note=UNIT_NOTE,
    ticks=18,
    periods=(Period("before initiative", 1, 1),) + tuple(Period("strike speed", i + 2, i + 2, str(17 - i)) for i in range(17)),
)
"""The nominal round: spells declared, then strike speeds 17 (a glance, +5, Full Attack) down to 1."""


@dataclass(frozen=True)
class ActionRow:
    """One row of 004's Base Strike Speed table."""

    strike_speed: int
    """Base strike speed, 1..10."""
    id: str
    """Short name used in code and data."""
    name: str
    """As printed: ``"Long Weapon"``."""
    words: tuple[str, ...] = ()
    """Words in a declaration's note (or weapon name) that pick this row."""
    lengths: tuple[Length, ...] = ()
    """Melee weapon lengths that pick this row."""
    missile: bool = False
    """A missile weapon picks this row."""
    cast: bool = False
    """A spell picks this row."""


@cache
def action_table() -> tuple[ActionRow, ...]:
    """004's Base Strike Speed table, from ``strike_speed_004.toml``.

    >>> [(row.strike_speed, row.name) for row in action_table()][:3]
    [(1, 'Read Scroll'), (2, 'Cast Spell'), (3, 'Short Length Weapon')]
    """
    text = resources.files("combatkit.data").joinpath("strike_speed_004.toml").read_text(encoding="utf-8")
    return tuple(
        ActionRow(
            strike_speed=row["strike_speed"],
            id=row["id"],
            name=row["name"],
            words=tuple(row.get("words", ())),
            lengths=tuple(Length(v) for v in row.get("length", ())),
            missile=row.get("missile", False),
            cast=row.get("cast", False),
        )
        for row in tomllib.loads(text)["action"]
    )


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class StrikeSpeedOptions:
    """Readings of 004 where it leaves a choice; defaults are those the module docstring explains."""

    initiative_die: str = "d6"
    """The standard rules' initiative die, rolled per side, high wins (B/X: d6)."""
    stances: Mapping[str, Stance] = field(default_factory=dict, hash=False)
    """Stances announced before initiative, by figure name; anyone else is in Standard (004 Combat Stance)."""
    stance_strike: bool = False
    """Add the stance's Strike modifier to strike speed (004: "The Stance Strike modifier is optional")."""
    fighters: Mapping[str, bool] = field(default_factory=dict, hash=False)
    """The referee's call, by figure name: True classes a figure as a fighter, False does not.
    Unnamed figures: class ``fighter`` and class ``monster`` are fighters, others are not."""
    unlisted_base: int = 0
    """Base strike speed of an action 004's table does not list (moving only, miscellaneous)."""


def action_row(c: Combatant, d: Declaration) -> ActionRow | None:
    """The row of 004's table a declaration strikes by, or None for an action it does not list.

    >>> from combatkit.model import ActionKind, Declaration, Weapon
    >>> archer = Combatant("Aldric", "a", weapons=(Weapon("longbow", kind=WeaponKind.MISSILE),))
    >>> action_row(archer, Declaration("Aldric", 1, ActionKind.ATTACK)).name
    'Missile Fire/Arcane Blast'
    """
    if d.kind is ActionKind.CAST:
        return _row(d.kind, d.note, ())
    if d.kind is not ActionKind.ATTACK:
        return None
    weapons = kit(c).striking(d.weapons)
    return _row(d.kind, d.note + " " + " ".join(w.name for w in weapons),
                tuple((w.kind is WeaponKind.MISSILE, w.length) for w in weapons))


@lru_cache(maxsize=1024)
def _row(kind: ActionKind, text: str, arms: tuple[tuple[bool, Length], ...]) -> ActionRow:
    """:func:`action_row` from what it reads: the words of the note (and of an attack's weapon names), else each
    weapon's kind (missile or not) and length. Worked out once for the same (every declaration of every round asks,
    each word of the table a search); bounded, the text being the encounter's own."""
    table = action_table()
    named = [(len(word), row) for row in table for word in row.words if has_word(text, word)]
    if named:
        return max(named, key=lambda pair: pair[0])[1]
    if kind is ActionKind.CAST:
        return next(row for row in table if row.cast)
    rows = []
    for missile, length in arms:
        rows.append(next(row for row in table if (row.missile if missile else length in row.lengths)))
    return min(rows, key=lambda row: row.strike_speed)


def fighter_bonus(c: Combatant, options: StrikeSpeedOptions = StrikeSpeedOptions()) -> tuple[int, str]:
    """The fighter's bonus to strike speed and how it was found (004 Strike Speed).

    >>> fighter_bonus(Combatant("Erik", "a", level=5))
    (2, 'Fighter Strike Bonus +2 (level 5/4, rounded up)')
    >>> fighter_bonus(Combatant("ogre", "b", level=4, char_class="monster"))
    (2, 'monster classed as a fighter: +2 (half of 4 HD, rounded down)')
    """
    kind = c.char_class.strip().lower()
    classed = options.fighters.get(c.name, kind in ("fighter", "monster"))
    if not classed:
        return 0, ""
    if kind == "monster":
        bonus = c.level // 2
        return bonus, f"monster classed as a fighter: +{bonus} (half of {c.level} HD, rounded down)"
    bonus = math.ceil(c.level / 4)
    return bonus, f"Fighter Strike Bonus +{bonus} (level {c.level}/4, rounded up)"


def strike_speed(c: Combatant, row: ActionRow | None, has_initiative: bool,
                 options: StrikeSpeedOptions = StrikeSpeedOptions()) -> tuple[int, list[str]]:
    """A figure's strike speed for one action, and the parts it is made of (004 Strike Speed).

    >>> row = next(r for r in action_table() if r.id == "long_weapon")
    >>> strike_speed(Combatant("Erik", "a", level=5), row, True)
    (12, ['base 5 (Long Weapon)', '+5 for the side with initiative', 'Fighter Strike Bonus +2 (level 5/4, rounded up)'])
    """
    if row is None:
        value, parts = options.unlisted_base, [f"base {options.unlisted_base} (an action 004's table does not list)"]
    else:
        value, parts = row.strike_speed, [f"base {row.strike_speed} ({row.name})"]
    if has_initiative:
        value += INITIATIVE_BONUS
        parts.append(f"+{INITIATIVE_BONUS} for the side with initiative")
    bonus, why = fighter_bonus(c, options)
    if bonus:
        value += bonus
        parts.append(why)
    stance = options.stances.get(c.name, Stance.STANDARD)
    if options.stance_strike and stance.strike_modifier:
        value += stance.strike_modifier
        parts.append(f"{stance.strike_modifier:+d} for the {stance.label} stance")
    return value, parts


# ----------------------------------------------------------------- the round


@dataclass(frozen=True)
class _Act:
    """One declaration placed in the order of battle."""

    combatant: Combatant
    declaration: Declaration
    row: ActionRow | None
    speed: int
    parts: tuple[str, ...]
    anchor: Declaration
    """The attack or spell a move leads into (itself for everything else)."""

    def __init__(self, combatant: Combatant, declaration: Declaration, row: ActionRow | None, speed: int,
                 parts: tuple[str, ...], anchor: Declaration) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        object.__setattr__(self, "combatant", combatant)
        object.__setattr__(self, "declaration", declaration)
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "speed", speed)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "anchor", anchor)

    @property
    def moment(self) -> Moment:
        return Moment((1, -self.speed, -self.combatant.level), "strike speed", str(self.speed))


class _Round:
    def __init__(self, encounter: Encounter, roller: Roller, options: StrikeSpeedOptions) -> None:
        self.encounter, self.roller, self.options = encounter, roller, options
        self.people = {c.name: c for c in encounter.combatants}
        self.notes: list[str] = []
        self.tied: dict[int, set[tuple[str, int]]] = {}
        """Strike speed -> (figure, level) of everyone acting at it."""

    def run(self) -> Timeline:
        keys = round_keys(self.encounter, self.options)
        self._check(keys)
        winner = self._initiative()
        # The initiative roll is the round's only die: a round that looks the same once the side with initiative
        # is known, and with no hit reported on a caster, is placed as before (combatkit.systems._memo).
        placed = placed_round("strike_speed", self.encounter, self.options, winner, keys=keys)
        known = placed.before() if placed is not None else None
        if known is not None:
            clock, spans, notes = known
            return Timeline(STRIKE_SPEED.id, clock, spans, tuple(self.notes) + notes, tuple(self.roller.log))
        after = len(self.notes)
        acts = [act for c in self.encounter.combatants for act in self._acts(c, c.side == winner)]
        ruins = {i: hit for i, act in enumerate(acts) if (hit := self._ruining_hit(act)) is not None}
        moments = [BEFORE] + [act.moment for act in acts] + [self._hit_moment(h) for h in ruins.values()]
        clock, ticks = moment_clock(UNIT, moments, UNIT_NOTE)
        for act in acts:
            self.tied.setdefault(act.speed, set()).add((act.combatant.name, act.combatant.level))
        spans = [self._span(act, ticks, ruins.get(i)) for i, act in enumerate(acts)]
        order = {id(span): i for i, span in enumerate(spans)}
        spans.sort(key=lambda s: (s.end, s.start, order[id(s)]))
        if placed is not None:
            placed.keep((clock, tuple(spans), tuple(self.notes[after:])))
        return Timeline(STRIKE_SPEED.id, clock, tuple(spans), tuple(self.notes), tuple(self.roller.log))

    # -- checks that need no dice

    def _check(self, keys: RoundKeys | None) -> None:
        # The checks read no dice, no distances, no hit points, and the round's number only for each figure's
        # attacks in it (004 Strike Speed): in a fight, a round like one that passed them passes again.
        checked_once("strike_speed", self.encounter, self.options, self._check_all, keys)

    def _check_all(self) -> None:
        check_names(self.encounter)
        for name, stance in self.options.stances.items():
            if name not in self.people:
                raise RulesError("004 Combat Stance", f"a stance is given for {name!r}, who is not in the encounter")
            casting = any(d.actor == name and d.kind is ActionKind.CAST for d in self.encounter.declarations)
            check_stance(stance, casting=casting, who=name)
        for c in self.encounter.combatants:
            mine = [d for d in self.encounter.declarations if d.actor == c.name]
            for d in mine:
                check_action_number(d, RULE)
                refuse_combat_ii_fields(d, RULE)
                if d.kind is ActionKind.CAST:
                    spell = c.spell(d.spell)
                    if d.spell is None or d.target is None:
                        given = f"declares {spell.name} with no target" if d.spell else "declares a cast naming no spell"
                        raise IllegalActionError(
                            "004 Strike Speed: Initiative",
                            f"{c.name} must declare the spell being cast and its target before initiative is rolled; "
                            f"{c.name} {given}")
            attacks = [d for d in mine if d.kind is ActionKind.ATTACK]
            stance = self.options.stances.get(c.name, Stance.STANDARD)
            if attacks and not may_attack(stance):
                raise IllegalActionError("004 Combat Stance",
                                         f"{c.name} is in {stance.label}: no attack possible, yet declares one")
            if attacks:
                arms = kit(c)
                weapons = {w for d in attacks for w in arms.striking(d.weapons)}
                allowed = max(arms.attacks_in_round(self.encounter.round, w) for w in weapons)
                declared = sum(d.attacks for d in attacks)
                if declared > allowed:
                    raise IllegalActionError(RULE, f"{c.name} has {allowed} attack(s) in round {self.encounter.round}, "
                                                   f"declares {declared}: each attack is one strike in the order")

    # -- initiative

    def _initiative(self) -> str | None:
        """004: the side with the higher roll gets +5; a tie for the highest gives it to nobody."""
        die = self.options.initiative_die
        rolls = {side: self.roller.roll_total(die, f"initiative: {side}").total for side in sides_of(self.encounter)}
        best = max(rolls.values())
        top = [side for side, roll in rolls.items() if roll == best]
        shown = ", ".join(f"{side} {roll}" for side, roll in rolls.items())
        if len(top) == 1:
            self.notes.append(f"Initiative, {die} per side (high wins): {shown}. Side {top[0]!r} has initiative and "
                              f"gets +{INITIATIVE_BONUS} strike speed this round (004 Strike Speed: Initiative).")
            return top[0]
        self.notes.append(f"Initiative, {die} per side (high wins): {shown}. {' and '.join(top)} tie for the highest "
                          f"roll, so no side gets the +{INITIATIVE_BONUS} (004 Strike Speed: Initiative).")
        return None

    # -- placing each figure's declarations

    def _acts(self, c: Combatant, has_initiative: bool) -> list[_Act]:
        mine = sorted((d for d in self.encounter.declarations if d.actor == c.name), key=lambda d: d.phase)
        listed = [d for d in mine if d.kind in (ActionKind.ATTACK, ActionKind.CAST)]
        stance = self.options.stances.get(c.name, Stance.STANDARD)
        if c.name in self.options.stances:
            self.notes.append(f"{c.name} is in the {stance.label} stance (004 Combat Stance): attack "
                              f"{stance.attack_modifier:+d}, strike {stance.strike_modifier:+d}"
                              + ("" if self.options.stance_strike else " (the Strike modifier is not in use)") + ".")
        acts = []
        for d in mine:
            anchor = d
            if d.kind is ActionKind.MOVE and listed:
                later = [x for x in listed if x.phase >= d.phase]
                anchor = later[0] if later else listed[-1]
            row = action_row(c, anchor)
            speed, parts = strike_speed(c, row, has_initiative, self.options)
            acts.append(_Act(c, d, row, speed, tuple(parts), anchor))
        return acts

    def _hit_moment(self, hit: Hit) -> Moment:
        source = self.people.get(hit.source)
        return Moment((1, -hit.tick, -(source.level if source else 0)), "strike speed", str(hit.tick))

    def _ruining_hit(self, act: _Act) -> Hit | None:
        """A reported hit on a caster before the spell's strike speed (the standard rules' disruption)."""
        if act.declaration.kind is not ActionKind.CAST:
            return None
        early = [h for h in self.encounter.hits if h.target == act.combatant.name and self._hit_moment(h) < act.moment]
        return min(early, key=self._hit_moment, default=None)

    # -- spans

    def _span(self, act: _Act, ticks: dict[Moment, int], hit: Hit | None) -> Span:
        c, d = act.combatant, act.declaration
        tick = ticks[act.moment]
        rule = f"{RULE}: {act.speed} = {', '.join(act.parts)}"
        why = f"Strike speed {act.speed}: {'; '.join(act.parts)}. Higher strike speeds act first."
        others = sorted((lv, name) for name, lv in self.tied[act.speed] if name != c.name)
        if others:
            shown = ", ".join(f"{name} (level {lv})" for lv, name in others)
            why += (f" Tied with {shown} at strike speed {act.speed}: the higher level acts first, equal levels "
                    f"together (004 Strike Speed).")
        target = f" -> {d.target}" if d.target else ""
        if d.kind is ActionKind.ATTACK:
            names = " + ".join(w.name for w in kit(c).striking(d.weapons))
            times = f" ({d.attacks} attacks)" if d.attacks > 1 else ""
            return Span(c.name, c.side, SpanKind.ATTACK, f"{names}{times}{target}", tick, tick, act.moment.label, rule, why,
                        target=d.target, what=names)
        if d.kind is ActionKind.CAST:
            spell = c.spell(d.spell)
            reading = "reads " if act.row is not None and act.row.id == "read_scroll" else "casts "
            casts = f"{reading}{spell.name}"
            label = casts + target
            why = f"{c.name} declared {spell.name} at {d.target} before initiative. " + why
            if hit is not None:
                at = ticks[self._hit_moment(hit)]
                by = f" by {hit.source}" if hit.source else ""
                return Span(c.name, c.side, SpanKind.CAST, label, ticks[BEFORE], at, act.moment.label,
                            f"{RULE}: spells declared before initiative",
                            f"{c.name} is hit{by} at strike speed {hit.tick}, before acting at strike speed "
                            f"{act.speed}: the spell is disrupted and lost.", target=d.target, status=Status.RUINED,
                            what=casts)
            return Span(c.name, c.side, SpanKind.CAST, label, ticks[BEFORE], tick, act.moment.label, rule, why,
                        target=d.target, what=casts)
        if d.kind is ActionKind.MOVE:
            feet = f" {d.feet}'" if d.feet is not None else ""
            if act.anchor is not d:
                why = f"{c.name} moves as part of the action at strike speed {act.speed}. " + why
            return Span(c.name, c.side, SpanKind.MOVE, f"moves{feet}{target}", tick, tick, act.moment.label, rule, why,
                        target=d.target, what=f"moves{feet}")
        what = "sets weapon / readies" if d.kind is ActionKind.READY else (d.note or "miscellaneous action")
        return Span(c.name, c.side, SPAN_KIND[d.kind], f"{what}{target}", tick, tick, act.moment.label, rule, why,
                    target=d.target, what=what)


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class StrikeSpeed(TimingSystem):
    """004's Strike Speed order of battle as a timing system."""

    id = "strike_speed"
    aliases: tuple[str, ...] = ("strike speed", "strike-speed", "order of battle", "strike speed order of battle", "004")
    title = "Strike Speed order of battle"
    source = "004 Strike Speed Based Order of Battle, Combat Stance"
    clock = CLOCK
    options_class = StrikeSpeedOptions
    declaration_phases: tuple[str, ...] = ("action 1", "action 2", "action 3")  # a figure's actions in order
    declaration_fields = frozenset({"feet", "attacks"})
    hit_tick = "strike speed"
    roll_keys: tuple[str, ...] = ('initiative: <side>',)

    rules = SystemRules(
        "004", "004 Strike Speed: equal strike speeds (and levels) are simultaneous; a figure falls after its moment",
        "004 Strike Speed: figures act from high strike speed to low; a fallen figure's turn does not come",
        Retarget.LOST, "004 Strike Speed: actions are declared before initiative", 3, hits_as_counts=True,
        surprised_sits_out="004 is silent: B/X's surprise round")

    chain_rules = ChainRules(
        move="004 Strike Speed: a move is an action of the order", strike="004 Strike Speed: the move happens at the "
        "attack's strike speed, the blow at its end", cast="004 Strike Speed: spell casters declare the spell and its "
        "target before initiative", ready="004 lists no strike speed for it: a miscellaneous action",
        hold="004 lists no strike speed for it: standing ready", action="004 lists no strike speed for it: a "
        "miscellaneous action", flee="004 Strike Speed: a flight is a move of the order",
        out_of_reach="004 Strike Speed: a blow needs its target within reach by the end of the move",
        cast_needs_target=True)
    """004 places a figure's intents one after the other; each acts at its strike speed."""

    def _schedule(self, encounter: Encounter, roller: Roller, options: StrikeSpeedOptions) -> Timeline:
        """Put every declared action in strike-speed order, or raise the rule it breaks."""
        return _Round(encounter, roller, options).run()

    def note_suggestions(self, kind: ActionKind, maneuver: Maneuver | None = None) -> list[str]:
        """004's Base Strike Speed table: for an attack or a spell, each row picked by words, by its name or
        else the first of its words that :func:`action_row` reads back as that row. Moves and miscellaneous
        actions are not in the table: ``[]``.

        >>> STRIKE_SPEED.note_suggestions(ActionKind.ATTACK)
        ['read scroll', 'missile fire/arcane blast', 'breath weapon', 'glance']
        """
        if kind not in (ActionKind.ATTACK, ActionKind.CAST):
            return []
        who = Combatant("x", "x", weapons=(Weapon("w"),))
        out = []
        for row in action_table():
            if not row.words:
                continue
            said = next((text for text in (row.name.lower(), *row.words)
                         if action_row(who, Declaration("x", 1, kind, note=text)) == row), None)
            if said:
                out.append(said)
        return out

    def round_options(self, options: StrikeSpeedOptions | None, fight: FightRound) -> StrikeSpeedOptions:
        """The figures' 004 Combat Stances: options that name none take each figure's from the fight
        (``ResolutionOptions.figures``), so that the stance that changes its blows changes its strike speed."""
        base = options if isinstance(options, StrikeSpeedOptions) else default_options(StrikeSpeedOptions)
        if not base.stances:
            stances = {n: e.stance for n, e in fight.extras.items() if e.stance is not Stance.STANDARD}
            if stances:  # none: the options as they are, the same object each round
                base = derived_options(base, tuple(stances.items()), stances=stances)
        return base


STRIKE_SPEED: Final = register(StrikeSpeed())
odds = STRIKE_SPEED.odds
