"""The A.D.D.I.C.T. short form (seed 002): surprise, initiative counts, and who strikes first.

A round, step by step:

1. Surprise (002 I). The DM may simply know who is surprised (I.A): a figure flagged
   ``surprised`` in the encounter. Otherwise, in the first round, each side rolls a d12
   (I.B, "a 1-4 ... indicates surprise"); each figure adds its Dexterity modifier
   ("Individual Dexterity modifiers apply") and the Surprise Modifiers of
   ``combatkit/data/short_form_002.toml`` move the range. If some side has surprised
   figures and another side has none, this round is the surprise round (I.C, I.D): the
   surprised do nothing; the others act from highest to lowest Dexterity.
2. Initiative, every other round (002 II.A): a d12 per side, each figure adds its
   Dexterity modifier: its *count*. Counts resolve from high to low; equal counts are
   simultaneous, except by the tie rules below.
3. A figure that begins the round with a missile ready fires before initiative is rolled
   (III.A). All of a figure's attacks are resolved on its count (III.B); movement may be
   split before and after (III.D).
4. A spell is begun on the caster's count and occupies it for the casting time: it goes
   off CT counts later (II.C). A full-round spell goes off at the very end of the round.
   An attack that damages the caster before the spell goes off disrupts it (III.F): hits
   the referee reports (``Encounter.hits``, ``tick`` read as the count it landed on)
   before the caster's count cancel the casting; hits while casting ruin the spell.
5. Closing (II.D, Charging III): when one figure enters melee range of another, the
   longer weapon strikes first regardless of initiative (not in a surprise round); a
   weapon set against a charge strikes first; against a charged spellcaster the lower of
   the charger's WSF and the spell's casting time goes first. Weapons beat unarmed
   attackers to the blow (II.D), monks excepted.
6. Ties (II.E): a figure with more attacks goes first; other ties are simultaneous. The
   three options of II.F, off by default: melee ties by Weapon Speed Factor
   (``tie_weapon_speed``), spell completion against a melee strike by the lower of CT and
   WSF (``tie_spell_vs_melee``), missile fire before a completing spell whose casting
   time is higher than the caster's initiative die (``tie_missile_vs_spell``).
7. Attacks of opportunity (III.C, III.G, Breaking Off) are placed on the timeline as
   ``opportunity`` spans at the moment they are drawn: firing a missile at an adjacent
   opponent who attacks you in melee, casting within 5' of an opponent, moving more than
   5' from within an opponent's reach (breaking off: a move declared to ``flee`` or
   ``withdraw``). One per
   opponent per round.

The clock is the order itself (see :mod:`combatkit.systems._order_of_battle`): one tick per
moment, periods labelled ``"count 9"`` (``"Dex 16"`` in a surprise round), with "before
initiative" first and "end of round" last. :attr:`ShortForm.clock` is the nominal round,
one tick per count from 17 (12 + Dex 25) down to -5.

In a fight, a round like one placed before is looked up instead: speed only, in
:mod:`combatkit.systems.short_form_fast` (the hook :func:`fast_path`). Where it rolls a
round's dice before setting the round up, it calls this module's rules for who is
surprised (:func:`_surprised`) and for the counts (:func:`_counts`).

Choices this module makes where 002 is silent (each also in :class:`ShortFormOptions`):

* The Dexterity modifier is the Player's Handbook Reaction Adjustment (the one the shared
  model carries); ``dex_scale`` offers B/X's and d20's, ``dex_modifiers`` sets one per figure.
* Surprise is checked (I.B) only in round 1 and only when no figure is flagged surprised
  (a flag is the DM's own call, I.A); ``surprise_check=False`` is "the DM rules there is none".
  One d12 per side, as for initiative; a side's "surprises" bonus is the best of its
  figures'; modifiers of one figure add up. "Neither side / both sides surprised" (I.C)
  is read figure by figure: a surprise round needs a side with surprised figures *and* a
  side with none.
* In the surprise round no tie rules, closing order or missile-ready fire apply: the
  order is Dexterity (I.D).
* The caster's "initiative die result" of II.F's third option is the caster's side's d12.
* A Weapon Speed Factor is the weapon's listed (base) speed factor; a routine with
  several weapons uses the slowest. Melee range is 5' (III.G: "5' (1 square)").
* A miscellaneous declaration costs the action type its note names (Action Types); one
  whose note names none is a standard action. Dropping a weapon and drawing another
  (``drop_and_draw``) is a minor action.
* Closing: the figure whose move brings the pair within 5' is the one "entering"; the other's
  melee attack on it waits for that moment when its own count came first (it had no one
  in reach) and strikes before the entering blow if its weapon is longer, with it if equal,
  after it if shorter. A move with no distance given (``feet``) stops at 5' from its target.
"""

from __future__ import annotations

import enum
import math
import tomllib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Roller
from combatkit.encounter import Encounter, Hit
from combatkit.errors import IllegalActionError, RulesError
from combatkit.kinds import ActionKind, IntentKind, Length, Maneuver, PlacementKind, WeaponKind
from combatkit.model import Combatant, Declaration, Spell, Weapon, reaction_adjustment
from combatkit.modifiers import Hand, two_weapon_modifier
from combatkit.movement import charge_rate_002
from combatkit.systems._memo import by_pair, explaining, kept, kit, memo
from combatkit.systems._order_of_battle import (
    Moment,
    check_action_number,
    has_word,
    moment_clock,
    refuse_combat_ii_fields,
)
from combatkit.systems._plan import ActorPlan, ChainRules, chain, named_words, routines
from combatkit.systems.base import (
    FightRound,
    RoundKeys,
    TimingSystem,
    check_names,
    checked_once,
    default_options,
    derived_options,
    register,
    sides_of,
)
from combatkit.systems.rules import ChargeRule, Retarget, SystemRules
from combatkit.timeline import SPAN_KIND, Clock, Period, Span, SpanKind, Status, Tick, Timeline

__all__ = [
    "SHORT_FORM",
    "ActionType",
    "DexScale",
    "ShortForm",
    "ShortFormOptions",
    "SurpriseModifier",
    "action_types",
    "dex_modifier",
    "layers",
    "odds",
    "surprise_modifiers",
    "surprise_table",
]

REACH: Final = 5  # 002 III.G: "5' (1 square)"
UNIT: Final = "moment"
UNIT_NOTE: Final = "initiative count, high to low"
BEFORE: Final = (0,)
END: Final = (2,)
_LENGTH_ORDER: Final = list(Length)

CLOCK: Final = Clock(
    unit=UNIT,
    note=UNIT_NOTE,
    ticks=25,
    periods=(Period("before initiative", 1, 1),)
    + tuple(Period("count", i + 2, i + 2, str(17 - i)) for i in range(23))
    + (Period("end of round", 25, 25),),
)
"""The nominal round: before initiative, counts 17 down to -5, end of round."""


# ----------------------------------------------------------------- tables and options


class DexScale(enum.Enum):
    """Which Dexterity modifier 002 II.A's "Dexterity modifier" is (the seed does not say)."""

    REACTION_ADJUSTMENT = "reaction adjustment"
    """Player's Handbook Table 2 Reaction Adjustment (:func:`combatkit.model.reaction_adjustment`)."""
    BX = "b/x"
    """B/X: 3 -3, 4-5 -2, 6-8 -1, 9-12 0, 13-15 +1, 16-17 +2, 18 and up +3."""
    D20 = "d20"
    """d20 System: (score - 10) / 2, rounded down."""

    def modifier(self, score: int) -> int:
        """The modifier for a score of 1..25.

        >>> DexScale.BX.modifier(16), DexScale.D20.modifier(7), DexScale.REACTION_ADJUSTMENT.modifier(17)
        (2, -2, 2)
        """
        if self is DexScale.REACTION_ADJUSTMENT:
            return reaction_adjustment(score)
        if self is DexScale.D20:
            return (score - 10) // 2
        return next(mod for top, mod in ((3, -3), (5, -2), (8, -1), (12, 0), (15, 1), (17, 2), (25, 3)) if score <= top)


@mypyc_attr(native_class=False)  # options a user or a file gives: checked as Python checks them
@dataclass(frozen=True)
class ShortFormOptions:
    """Readings of 002 where it leaves a choice, and inputs the shared model has no field for."""

    dex_scale: DexScale = DexScale.REACTION_ADJUSTMENT
    """The scale of 002 II.A's Dexterity modifier."""
    dex_modifiers: Mapping[str, int] = field(default_factory=dict, hash=False)
    """A figure's Dexterity modifier by name, instead of the scale's."""
    surprise_check: bool = True
    """Roll 002 I.B's d12 in round 1 when no figure is flagged surprised (False: the DM rules no surprise)."""
    on_point: frozenset[str] = frozenset()
    """Elves or halflings "on point" (Surprise Modifiers: surprises +4), by name."""
    monster_surprise_die: Mapping[str, int] = field(default_factory=dict, hash=False)
    """Monsters normally surprised on 1d8 (8) or 1d10 or better (10+), by name."""
    missile_ready: Mapping[str, bool] = field(default_factory=dict, hash=False)
    """Who begins the round with a missile ready and target in sight (III.A), by name.
    Unnamed figures: those whose first declaration is a missile attack."""
    tie_weapon_speed: bool = False
    """II.F option: ties in melee go to the lower Weapon Speed Factor."""
    tie_spell_vs_melee: bool = False
    """II.F option: a spell completing and a melee strike tied go by the lower of CT and WSF."""
    tie_missile_vs_spell: bool = False
    """II.F option: missile fire tied with a completing spell goes first if the CT is higher
    than the caster's initiative die."""
    outdoors: bool = False
    """Charging I: outdoors a charger gains a third (bipeds) or half (quadrupeds) its move; indoors double."""
    quadrupeds: frozenset[str] = frozenset()
    """Figures that charge as quadrupeds (Charging I.A), by name."""


@dataclass(frozen=True)
class SurpriseModifier:
    """One row of 002's Surprise Modifiers."""

    who: str
    """As printed."""
    surprises: int = 0
    """Added to the range in which this figure's opponents are surprised."""
    is_surprised: int = 0
    """Added to the range in which this figure is surprised."""
    char_class: str | None = None
    """The class it applies to."""
    levels: tuple[int, int] = (0, 40)
    """The levels it applies to, inclusive."""
    option: str | None = None
    """The ShortFormOptions input that says who it applies to."""


@dataclass(frozen=True)
class ActionType:
    """One of 002's Action Types."""

    id: str
    name: str
    becomes: str | None
    """The cheaper type this one can be taken as."""
    examples: tuple[str, ...]
    words: tuple[str, ...]


@cache
def _data() -> dict:
    text = resources.files("combatkit.data").joinpath("short_form_002.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def surprise_table() -> tuple[SurpriseModifier, ...]:
    """002's Surprise Modifiers, from ``short_form_002.toml`` (read once: a surprise check asks for them for
    every figure)."""
    return tuple(
        SurpriseModifier(row["who"], row.get("surprises", 0), row.get("is_surprised", 0), row.get("class"),
                         tuple(row.get("levels", (0, 40))), row.get("option"))
        for row in _data()["surprise_modifier"]
    )


def action_types() -> dict[str, ActionType]:
    """002's Action Types by id (standard, move, minor, free)."""
    return {row["id"]: ActionType(row["id"], row["name"], row.get("becomes"), tuple(row["examples"]),
                                  tuple(row["words"])) for row in _data()["action_type"]}


def dex_modifier(c: Combatant, options: ShortFormOptions = ShortFormOptions()) -> int:
    """The figure's Dexterity modifier for 002 II.A (and I, "Individual Dexterity modifiers apply")."""
    if c.name in options.dex_modifiers:
        return options.dex_modifiers[c.name]
    return options.dex_scale.modifier(c.abilities.dexterity)


def surprise_modifiers(c: Combatant, options: ShortFormOptions = ShortFormOptions()) -> list[SurpriseModifier]:
    """The rows of 002's Surprise Modifiers that apply to ``c``.

    >>> [m.who for m in surprise_modifiers(Combatant("Quen", "a", level=9, char_class="monk"))]
    ['Monk (level 9-12)']
    """
    die = options.monster_surprise_die.get(c.name, 0)
    present = {"on_point": c.name in options.on_point, "monster_d8": 8 <= die < 10, "monster_d10": die >= 10}
    out = []
    for row in surprise_table():
        if row.option is not None:
            if present[row.option]:
                out.append(row)
        elif row.char_class == c.char_class.strip().lower() and row.levels[0] <= c.level <= row.levels[1]:
            out.append(row)
    return out


def _fits(needs: dict[str, int]) -> bool:
    """Whether a round's actions fit its one action of each type, a type taken as the one it ``becomes``
    (002 Action Types: a standard as a move, a move as a minor); free actions always fit.

    >>> _fits({"standard": 0, "move": 2, "minor": 1}), _fits({"standard": 1, "move": 1, "minor": 2})
    (True, False)
    """
    taken = 0
    for k, kind in enumerate(_becoming(), 1):
        taken += needs.get(kind, 0)
        if taken > k:
            return False
    return True


@cache
def _becoming() -> tuple[str, ...]:
    """The action types from standard down, each the one the type before it ``becomes`` (002 Action Types):
    the first k of them fit in k actions. Read once from the table (:func:`_fits` asks thousands of times a run)."""
    types = action_types()
    chain = ["standard"]
    while types[chain[-1]].becomes is not None:
        chain.append(str(types[chain[-1]].becomes))
    return tuple(chain)


def misc_type(d: Declaration) -> str:
    """The costliest action type a miscellaneous action names (002 Action Types), its named action's entry in the
    actions table or else its note (:func:`~combatkit.systems._plan.named_words`); standard if it names none.

    >>> misc_type(Declaration("Mira", 1, ActionKind.MISC, note="drinks a potion"))
    'minor'
    """
    words = named_words(d, "short_form")
    named = [t.id for t in action_types().values() if any(has_word(words, w) for w in t.words)]
    order = ["standard", "move", "minor", "free"]
    return min(named, key=order.index) if named else "standard"


def action_budget(c: Combatant, declarations: Sequence[Declaration]) -> tuple[dict[str, int], int]:
    """The action types a figure's declarations take (002 Action Types), and the feet it moves: every attack
    together is one standard action (III.B), a cast or a weapon set one standard each, a miscellaneous action
    the type its note names (:func:`misc_type`), a weapon dropped and drawn a minor one; movement is one move
    action per MV's worth of feet (III.D), a charge one more."""
    budget = {"standard": 0, "move": 0, "minor": 0, "free": 0}
    moved, charged = 0, False
    rate = c.movement * 10
    for d in declarations:
        if d.drop_and_draw:
            budget["minor"] += 1
        if d.kind in (ActionKind.CAST, ActionKind.READY):
            budget["standard"] += 1
        elif d.kind is ActionKind.MISC:
            budget[misc_type(d)] += 1
        elif d.kind is ActionKind.MOVE:
            if _is_charge(d):
                charged = True
            else:
                moved += d.feet if d.feet is not None else rate
    if any(d.kind is ActionKind.ATTACK for d in declarations):
        budget["standard"] += 1
    budget["move"] += (math.ceil(moved / rate) if moved and rate else 0) + (1 if charged else 0)
    return budget, moved


def fits(c: Combatant, declarations: Sequence[Declaration]) -> bool:
    """Whether a figure's declarations fit a round's action types (:func:`action_budget`, :func:`_fits`)."""
    return _fits(action_budget(c, declarations)[0])


def layers(nodes: Sequence[Hashable], hard: list[tuple[Hashable, Hashable]],
           soft: list[tuple[Hashable, Hashable]]) -> dict[Hashable, int]:
    """Order the moments inside one count: each node's layer (0 first), the longest chain of
    "goes before" edges leading to it. ``hard`` edges are rules that must hold (closing, II.E);
    a ``soft`` edge (II.F's options) is kept only if it does not contradict those already kept.

    >>> layers(["x", "y", "z"], hard=[("x", "y"), ("y", "z")], soft=[("z", "x")])
    {'x': 0, 'y': 1, 'z': 2}
    """
    after: dict[Hashable, list[Hashable]] = {n: [] for n in nodes}

    def reaches(start: Hashable, goal: Hashable) -> bool:
        stack, seen = [start], {start}
        while stack:
            node = stack.pop()
            if node == goal:
                return True
            for nxt in after[node]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    for a, b in hard:
        after[a].append(b)
    for a, b in soft:
        if not reaches(b, a):
            after[a].append(b)
    level = {n: 0 for n in nodes}
    incoming = {n: 0 for n in nodes}
    for a in nodes:
        for b in after[a]:
            incoming[b] += 1
    ready = [n for n in nodes if incoming[n] == 0]
    while ready:
        node = ready.pop(0)
        for nxt in after[node]:
            level[nxt] = max(level[nxt], level[node] + 1)
            incoming[nxt] -= 1
            if incoming[nxt] == 0:
                ready.append(nxt)
    return level


# ----------------------------------------------------------------- the round


def _is_charge(d: Declaration) -> bool:
    return d.maneuver is Maneuver.CHARGE


def _breaking_off(d: Declaration) -> bool:
    """002 Breaking Off From Melee: a flight or a withdrawal alike (002 has no other way out of melee)."""
    return d.maneuver in (Maneuver.FLEE, Maneuver.WITHDRAW)


@dataclass
class _Figure:
    """One combatant's round."""

    c: Combatant
    decls: list[Declaration]
    count: int | None = None
    """Its count (initiative, or Dex in a surprise round); None when surprised."""
    die: int | None = None
    """Its side's initiative d12."""
    ready: bool = False
    """Fires its missiles before initiative (III.A)."""
    name: str = field(init=False, repr=False, compare=False)
    """Its combatant's name and side, kept beside it: the round reads them dozens of times, and the combatant is
    a Python value type, slow to read in the compiled build (#18)."""
    side: str = field(init=False, repr=False, compare=False)
    attacks: int = field(default=0, repr=False, compare=False)
    """Its attacks this round, all its attack declarations' (002 III.B)."""
    cast: Declaration | None = field(default=None, repr=False, compare=False)
    """Its spell this round, if it casts one: its declarations never change in the round, and the round asks
    these dozens of times."""

    def __init__(self, c: Combatant, decls: list[Declaration], count: int | None = None, die: int | None = None,
                 ready: bool = False, attacks: int = 0, cast: Declaration | None = None) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        self.c = c
        self.decls = decls
        self.count = count
        self.die = die
        self.ready = ready
        self.name = c.name
        self.side = c.side
        self.attacks = attacks
        self.cast = cast


_NONE_DECLARED: Final[tuple[list[Declaration], int, Declaration | None]] = ([], 0, None)
"""What a figure that declares nothing has declared (:func:`_declared`): read only."""


def _declared(declarations: tuple[Declaration, ...]) -> dict[str, tuple[list[Declaration], int, Declaration | None]]:
    """Each figure's declarations in order, with its attacks in all (002 III.B) and its spell (the first it casts):
    :class:`_Figure`'s, worked out once a run for each declarations tuple (by identity, kept with it: a run's rounds
    hold the declarations of the plans it keeps), else once a round (#18). Read only."""
    table = memo("short_form declarations by actor")
    known = kept(table, declarations) if table is not None else None
    if known is not None:
        return known[1]
    mine: dict[str, list[Declaration]] = {}
    for d in declarations:  # in phase order (TimingSystem._schedule), so each figure's are
        mine.setdefault(d.actor, []).append(d)
    grouped = {}
    for actor, decls in mine.items():
        attacks, cast = 0, None
        for d in decls:
            if d.kind is ActionKind.ATTACK:
                attacks += d.attacks
            elif d.kind is ActionKind.CAST and cast is None:
                cast = d
        grouped[actor] = (decls, attacks, cast)
    if table is not None:
        table[id(declarations)] = (declarations, grouped)
    return grouped


@dataclass(frozen=True)
class _Node:
    """What happens together at one count: a figure's turn, a spell going off, or a pulled strike."""

    key: tuple[str, ...]
    """``("turn", name)``, ``("done", name)`` or ``("pull", striker, closer)``."""
    attacks: int = 0
    """The figure's attacks this round (002 II.E)."""
    wsf: int | None = None
    """Weapon Speed Factor of its melee strikes (002 II.F)."""
    missile: bool = False
    """It fires missiles (002 II.F)."""
    ct: int | None = None
    """The casting time of a spell going off (002 II.F)."""
    die: int | None = None
    """The caster's initiative die (002 II.F)."""

    def __init__(self, key: tuple[str, ...], attacks: int = 0, wsf: int | None = None, missile: bool = False,
                 ct: int | None = None, die: int | None = None) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "attacks", attacks)
        object.__setattr__(self, "wsf", wsf)
        object.__setattr__(self, "missile", missile)
        object.__setattr__(self, "ct", ct)
        object.__setattr__(self, "die", die)


@dataclass
class _Pull:
    """A strike moved to the moment another figure enters reach (II.D, Charging III)."""

    striker: str
    decl: Declaration | None
    """The attack moved; None for a weapon set against a charge that declared no attack."""
    closer: str
    entry: int
    how: str
    """'first', 'with' or 'after' the closer's blow."""
    rule: str
    why: str


class _Arms:
    """The weapons a declaration strikes with, and what the round reads of them."""

    def __init__(self, weapons: tuple[Weapon, ...]) -> None:
        self.weapons = weapons
        self.missile = all(w.kind is WeaponKind.MISSILE for w in weapons)
        """All are missile weapons: not a melee attack (002 II.F)."""
        self.unarmed = all(w.length is Length.UNARMED for w in weapons)
        """All are unarmed (a figure's fists): 002 Unarmed Combat."""
        self.length = max((w.length for w in weapons), key=_LENGTH_ORDER.index)
        """A routine's reach: its longest weapon (002 II.D)."""
        self.wsf = max(w.speed_factor for w in weapons)
        """Weapon Speed Factor of a routine: the slowest listed SF (002 II.F)."""


def _pairs(names: tuple[str, ...]) -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """Each figure's others, each with the pair's key in a round's distances: once a run for the figures on the
    field."""
    table = _table("short_form pairs")
    found = table.get(names)
    if found is None:
        found = table[names] = {a: tuple((b, frozenset((a, b))) for b in names if b != a) for a in names}
    return found


_LABELS: Final[dict[tuple[bool, int], str]] = {}
"""A count's label (:meth:`_Round._label`), by whether the round is a surprise round."""


def _count_label(count: int) -> str:
    """What a count is called outside the surprise round (:meth:`_Round._label`)."""
    label = _LABELS.get((False, count))
    if label is None:
        label = _LABELS[(False, count)] = f"count {count}"
    return label


def _table(name: str) -> dict:
    """The run's memo table ``name`` (:mod:`combatkit.systems._memo`); outside a fight, a new one for the round."""
    found = memo(name)
    return {} if found is None else found


def _kept_dex(c: Combatant, options: ShortFormOptions, dex: dict[str, int]) -> int:
    """The figure's Dexterity modifier (:func:`dex_modifier`), kept in ``dex`` (the run's memo table): once a run,
    for a figure's Dexterity and the options' modifiers do not change in one."""
    mod = dex.get(c.name)
    if mod is None:
        mod = dex[c.name] = dex_modifier(c, options)
    return mod


def _initiative_dice(roller: Roller, sides: tuple[str, ...]) -> dict[str, int]:
    """002 II.A: a d12 for each side, in order."""
    return {side: roller.roll_total("d12", f"initiative: {side}").total for side in sides}


_SurpriseSide = tuple[str, str, tuple[tuple[str, int, int], ...], Callable[[int], Hashable]]
"""A side's surprise check (:func:`_surprise_ranges`): the side, the purpose its die is rolled for, each member's
name, Dexterity modifier and surprise range, and what the die's total is read as (:meth:`Roller.roll_total`)."""


def _surprise_ranges(combatants: tuple[Combatant, ...], sides: tuple[str, ...], options: ShortFormOptions
                     ) -> tuple[_SurpriseSide, ...]:
    """002 I.B, Surprise Modifiers: for each side, in order, what its surprise check reads: each member's Dexterity
    modifier, and its surprise range, the rule's 1-4 widened by its foes' modifiers (the largest) and its own. The
    fast path works them out once a run for each set of figures
    (:class:`~combatkit.systems.short_form_fast._Cast`), not once a fight (#18)."""
    table = _table("short_form surprise terms")
    dex = _table("short_form dex")
    terms = {c.name: _surprise_terms(c, options, table) for c in combatants}
    out = []
    for side in sides:
        members = [c for c in combatants if c.side == side]
        bonus = max((s for o in combatants if o.side != side for s in terms[o.name][0]), default=0)
        rows = tuple([(c.name, _kept_dex(c, options, dex), _data()["surprise_range"] + bonus + terms[c.name][1])
                      for c in members])
        out.append((side, f"surprise: {side}", rows, _surprised_by(rows)))
    return tuple(out)


def _surprised_by(rows: tuple[tuple[str, int, int], ...]) -> Callable[[int], Hashable]:
    """Which of a side's members a total of its surprise die surprises: all an enumerating roller need tell apart."""
    return lambda total: tuple([total + mod <= top for _, mod, top in rows])


def _surprise_check(ranges: tuple[_SurpriseSide, ...], roller: Roller, notes: list[str] | None) -> dict[str, bool]:
    """002 I.B: a d12 for each side, in order; a member is surprised when the die plus its Dexterity modifier is
    within its surprise range (:func:`_surprise_ranges`). Who is surprised. ``notes``: where an explained round says
    how each figure read its side's die."""
    surprised = {}
    die, usual = _data()["surprise_die"], _data()["surprise_range"]
    for side, purpose, rows, classify in ranges:
        roll = roller.roll_total(die, purpose, classify=classify).total
        for name, mod, top in rows:
            surprised[name] = roll + mod <= top
            if notes is not None:
                notes.append(f"Surprise, side {side!r} rolls {roll} on the d12: {name} {roll} {mod:+d} (Dex) = "
                             f"{roll + mod} against a range of 1-{top}: "
                             f"{'surprised' if surprised[name] else 'not surprised'} (002 I.B"
                             + (", Surprise Modifiers" if top != usual else "") + ").")
    return surprised


def _surprise_terms(c: Combatant, options: ShortFormOptions, terms: dict[str, tuple[tuple[int, ...], int]]
                    ) -> tuple[tuple[int, ...], int]:
    """What 002's Surprise Modifiers that apply to the figure (:func:`surprise_modifiers`) add to its foes'
    surprise ranges, row by row, and to its own, in all: in ``terms`` (the run's memo table), once a run, for
    its class, its level and the options' rows for it do not change in one."""
    found = terms.get(c.name)
    if found is None:
        rows = surprise_modifiers(c, options)
        found = terms[c.name] = (tuple(m.surprises for m in rows), sum(m.is_surprised for m in rows))
    return found


def _surprised_sides(surprised: dict[str, bool], combatants: tuple[Combatant, ...], sides: tuple[str, ...]
                     ) -> set[str]:
    """The sides with a surprised figure: a surprise round when some are and some are not (002 I.C, D)."""
    return {side for side in sides if any(surprised[c.name] for c in combatants if c.side == side)}


def _surprised(encounter: Encounter, sides: tuple[str, ...], options: ShortFormOptions, roller: Roller,
               ranges: Callable[[], tuple[_SurpriseSide, ...]], notes: list[str] | None) -> dict[str, bool] | None:
    """002 I: who is surprised, if this round is the surprise round; None if it is not. The DM may simply know who
    is (I.A: a figure flagged ``surprised``); else, in round 1, with more than one side and ``options``'
    ``surprise_check``, each side rolls its check (I.B: :func:`_surprise_check`, reading ``ranges()``, the sides'
    :func:`_surprise_ranges`). The surprise round needs a side with surprised figures and a side with none (I.C,
    D). ``notes``: where an explained round says how it was decided.

    The one definition of the decision: the round makes it (:meth:`_Round.count`), and so does the fast path,
    which rolls a round's dice before it sets the round up (:mod:`combatkit.systems.short_form_fast`)."""
    combatants = encounter.combatants
    flagged = [c.name for c in combatants if c.surprised]
    if flagged:
        surprised = {c.name: c.surprised for c in combatants}
        if notes is not None:
            notes.append(f"The DM has determined that {', '.join(flagged)} "
                         f"{'is' if len(flagged) == 1 else 'are'} surprised (002 I.A).")
    elif options.surprise_check and encounter.round == 1 and len(sides) > 1:
        surprised = _surprise_check(ranges(), roller, notes)
    else:
        return None
    hit = _surprised_sides(surprised, combatants, sides)
    if hit and len(hit) < len(sides):
        if notes is not None:
            notes.append("This is the surprise round: the surprised do nothing; everyone else acts from highest to "
                         "lowest Dexterity (002 I.D).")
        return surprised
    if notes is not None:
        notes.append(f"No surprise round: {'both sides are' if hit else 'neither side is'} surprised (002 I.C).")
    return None


def _counts(combatants: Sequence[Combatant], mods: Sequence[int], surprised: Mapping[str, bool] | None,
            dice: Mapping[str, int]) -> list[int | None]:
    """Each figure's count, in order: in the surprise round (``surprised``, :func:`_surprised`) its Dexterity, or
    None if it is surprised and does nothing (002 I.D); in any other, its side's initiative d12 (``dice``,
    :func:`_initiative_dice`) plus its Dexterity modifier (``mods``, :func:`dex_modifier`; 002 II.A).

    The one definition of the counts: the round works them out with it (:meth:`_Round.count`), and so does the
    fast path (:mod:`combatkit.systems.short_form_fast`)."""
    if surprised is not None:
        return [None if surprised[c.name] else c.abilities.dexterity for c in combatants]
    return [dice[c.side] + mod for c, mod in zip(combatants, mods, strict=True)]


class _Round:
    def __init__(self, encounter: Encounter, roller: Roller, options: ShortFormOptions) -> None:
        self.encounter, self.roller, self.options = encounter, roller, options
        self.explain = explaining()
        """Whether to write each span's why and the round's notes (a fight's fast path does not)."""
        self.notes: list[str] = []
        declared = _declared(encounter.declarations)
        self.people: dict[str, Combatant] = {}
        self.figures: dict[str, _Figure] = {}
        for c in encounter.combatants:  # each figure's name read once (a Python value type's field, #18)
            name = c.name
            decls, attacks, cast = declared.get(name, _NONE_DECLARED)
            self.figures[name] = _Figure(c, decls, attacks=attacks, cast=cast)
            self.people[name] = c
        self.sides = sides_of(encounter)
        """The encounter's sides in order of first appearance (:func:`~combatkit.systems.base.sides_of`)."""
        self.distance = by_pair(encounter.distances)
        """Each pair's distance (read, never changed: :meth:`_opportunities` walks a copy)."""
        self.surprise_round = False
        self.pulls: list[_Pull] = []
        self.early_completion: dict[str, tuple[int, str, str]] = {}
        """Charged caster -> (count its spell now goes off on, the charger, why) (002 Charging III.B.i)."""
        self.cancelled: dict[int, tuple[str, str]] = {}
        """id(declaration) -> (rule, why) for declarations the dice made impossible."""
        self.hits: dict[str, tuple[Hit, Moment]] = {}
        """Caster -> the reported hit that disrupts its spell, and its moment (002 III.F)."""
        self.arms: dict[int, tuple[Declaration, _Arms, bool]] = _table("short_form declaration arms")
        """id(declaration) -> the declaration, its weapons and whether it is a melee attack (:meth:`_weapons`,
        :meth:`_melee`: asked some fifty times a round), found in :attr:`weapons` once a run (a run's rounds hold the
        declarations of the plans it keeps; the declaration is kept with them, so that its id is never another's),
        else once a round."""
        self.dex: dict[str, int] = _table("short_form dex")
        """Each figure's Dexterity modifier (:meth:`_dex`)."""
        self.said: dict[int, tuple[Declaration, SpanKind, str, str, str]] = _table("short_form declaration words")
        """id(declaration) -> the declaration and what its span says (:meth:`_said`)."""
        self.weapons: dict[tuple[str, tuple[str, ...]], _Arms] = _table("short_form arms")
        """(actor, the weapons a declaration names) -> what they are to the round: worked out once a run, for a
        figure's weapons never change in one (:mod:`combatkit.systems._memo`), else once a round."""

    # ------------------------------------------------------------ a declaration's weapons

    def _arms(self, d: Declaration) -> tuple[Declaration, _Arms, bool]:
        """The declaration, its weapons, and whether it is a melee attack."""
        known = kept(self.arms, d)
        if known is not None:
            return known
        key = (d.actor, d.weapons)
        found = self.weapons.get(key)
        if found is None:
            found = self.weapons[key] = _Arms(self.people[d.actor].striking(d.weapons))
        known = self.arms[id(d)] = (d, found, d.kind is ActionKind.ATTACK and not found.missile)
        return known

    def _weapons(self, d: Declaration) -> tuple[Weapon, ...]:
        """The weapons a declaration names, or its actor's first."""
        return self._arms(d)[1].weapons

    def _melee(self, d: Declaration) -> bool:
        return self._arms(d)[2]

    def _unarmed(self, d: Declaration) -> bool:
        return self._arms(d)[1].unarmed or (d.maneuver is not None and d.maneuver.unarmed)

    def _length(self, d: Declaration) -> Length:
        """A routine's reach: its longest weapon."""
        return self._arms(d)[1].length

    def _wsf(self, d: Declaration) -> int:
        """Weapon Speed Factor of a routine: the slowest listed SF."""
        return self._arms(d)[1].wsf

    # ------------------------------------------------------------ checks that need no dice

    def _check(self, keys: RoundKeys | None) -> None:
        # The checks read no dice, no distances, no hit points, and the round's number only for each figure's
        # attacks in it (002 III.B): in a fight, a round like one that passed them passes again.
        checked_once("short_form", self.encounter, self.options, self._check_all, keys)

    def _check_all(self) -> None:
        check_names(self.encounter)
        for name in (*self.options.dex_modifiers, *self.options.on_point, *self.options.monster_surprise_die,
                     *self.options.missile_ready, *self.options.quadrupeds):
            if name not in self.people:
                raise RulesError("002 options", f"an option names {name!r}, who is not in the encounter")
        for f in self.figures.values():
            self._check_figure(f)

    def _check_figure(self, f: _Figure) -> None:
        c = f.c
        rate = c.movement * 10
        charged = False
        for i, d in enumerate(f.decls):
            check_action_number(d, "002 Action Types")
            refuse_combat_ii_fields(d, "002 Action Types", allowed=frozenset({"drop_and_draw"}))
            if d.kind is ActionKind.ATTACK:
                self._check_attack(c, d)
            elif d.kind is ActionKind.CAST:
                c.spell(d.spell)
            elif _is_charge(d):
                if charged:
                    raise IllegalActionError("002 Charging", f"{c.name} declares two charges in one round")
                charged = True
                limit = self._charge_rate(c)
                feet = d.feet if d.feet is not None else limit
                if feet > limit:
                    raise IllegalActionError("002 Charging I", f"{c.name} charges at most {limit}' "
                                                               f"({self._charge_words(c)}), not {feet}'")
                follow = [x for x in f.decls[i + 1:] if x.kind is ActionKind.ATTACK and x.target == d.target]
                if d.target is None or not follow or not self._melee(follow[0]):
                    raise IllegalActionError("002 Charging III", f"{c.name}'s charge must end in melee: declare a "
                                                                 f"melee attack on the charge's target after it")
        budget, moved = action_budget(c, f.decls)
        if moved and not rate:
            raise IllegalActionError("002 III.D", f"{c.name} has MV 0 and cannot move")
        s, m, n = budget["standard"], budget["move"], budget["minor"]
        if not _fits(budget):
            raise IllegalActionError(
                "002 Action Types",
                f"{c.name} declares {s} standard, {m} move and {n} minor action(s); a round holds one standard "
                f"(which may be taken as a move), one move (which may be taken as a minor) and one minor action"
                + (f" (moving {moved}' is {m} move actions at {rate}' each: faster movement gives up combat and "
                   f"casting, III.D)" if moved > rate else ""))
        attacks = [d for d in f.decls if d.kind is ActionKind.ATTACK]
        if attacks:
            arms = kit(c)
            allowed = max(arms.attacks_in_round(self.encounter.round, w) for d in attacks for w in self._weapons(d))
            if f.attacks > allowed:
                raise IllegalActionError("002 III.B", f"{c.name} has {allowed} attack(s) in round "
                                                      f"{self.encounter.round}, declares {f.attacks}")

    def _check_attack(self, c: Combatant, d: Declaration) -> None:
        wielded = [w for w in self._weapons(d) if w.kind is WeaponKind.MELEE]
        if len(wielded) > 1:
            two_weapon_modifier(Hand.SECONDARY, c.abilities.dexterity, wielded[-1].name)
        if d.target is not None and self._unarmed(d):
            target = self.people[d.target]
            if target.size.larger_than(c.size):
                raise IllegalActionError("002 Unarmed Combat",
                                         f"{c.name} ({c.size.value}) may use unarmed combat only on a creature of its "
                                         f"own size or smaller; {target.name} is {target.size.value}")

    def _charge_rate(self, c: Combatant) -> int:
        """002 Charging I: outdoors +1/3 (bipeds) or +1/2 (quadrupeds); indoors double."""
        return charge_rate_002(c.movement, outdoors=self.options.outdoors, quadruped=c.name in self.options.quadrupeds)

    def _charge_words(self, c: Combatant) -> str:
        if not self.options.outdoors:
            return "indoors, double MV"
        return "outdoors, a quadruped's +50%" if c.name in self.options.quadrupeds else "outdoors, a biped's +33.3%"

    # ------------------------------------------------------------ surprise and initiative

    def count(self, keys: RoundKeys | None = None,
              dice: tuple[dict[str, bool] | None, dict[str, int]] | None = None) -> list[int | None]:
        """The round's checks, then whether it is the surprise round and who is surprised (002 I: :func:`_surprised`)
        or else its initiative dice (002 II.A), and each figure's count (:func:`_counts`), in order. ``keys``: the
        round's :class:`RoundKeys`, in a fight; ``dice``: who is surprised and the initiative dice, rolled already
        (the fast path rolls a round's dice before it sets the round up: :mod:`combatkit.systems.short_form_fast`)."""
        self._check(keys)
        explain, sides, people = self.explain, self.sides, tuple(self.people.values())
        if dice is None:
            surprised = _surprised(self.encounter, sides, self.options, self.roller,
                                   lambda: _surprise_ranges(self.encounter.combatants, sides, self.options),
                                   self.notes if explain else None)
            rolls = {} if surprised is not None else _initiative_dice(self.roller, sides)
        else:
            surprised, rolls = dice
        self.surprise_round = surprised is not None
        mods = [] if surprised is not None else [self._dex(c) for c in people]
        counts = _counts(people, mods, surprised, rolls)
        for f, count in zip(self.figures.values(), counts, strict=True):
            f.count = count
            if surprised is None:
                f.die = rolls[f.side]
        if explain and surprised is None:  # its notes come before the placing's
            parts = [f"{f.name} {f.die} {mod:+d} = {f.count}" for f, mod in zip(self.figures.values(), mods)]
            self.notes.append(f"Initiative, d12 per side plus each figure's Dexterity modifier, high to low "
                              f"(002 II.A): {'; '.join(parts)}.")
            self._readiness()
        return counts

    def _dex(self, c: Combatant) -> int:
        """The figure's Dexterity modifier (:func:`_kept_dex`)."""
        return _kept_dex(c, self.options, self.dex)

    # ------------------------------------------------------------ the round

    def run(self) -> Timeline:
        """The round: who is surprised and each figure's count (:meth:`count`), then what happens on each count
        (:meth:`place`)."""
        self.count()
        return self.place()

    def place(self) -> Timeline:
        """What happens on each count, once every figure's count is known (:meth:`count`): missiles fired before
        initiative (III.A), closing (II.D, Charging III), weapons against the unarmed (II.D), spells disrupted
        (III.F), and the moments of each count in order (II.E, F). It rolls nothing and reads no hit points."""
        if not self.explain and not self.surprise_round:
            self._readiness()
        self._closing()
        self._armed_against_unarmed()
        self.hits = self._disruptions()
        return self._place()

    def _readiness(self) -> None:
        """002 III.A: who begins the round with a missile ready and a target in sight, and fires before initiative
        (:attr:`_Figure.ready`): only the placing reads it, so a round looked up leaves it unread."""
        for f in self.figures.values():
            first = f.decls[0] if f.decls else None
            default = first is not None and first.kind is ActionKind.ATTACK and not self._melee(first)
            f.ready = self.options.missile_ready.get(f.name, default)
            if self.explain and any(self._early(f, d) for d in f.decls):
                self.notes.append(f"{f.name} begins the round with a missile ready and target in sight: "
                                  f"fires before initiative is rolled (002 III.A).")

    def _moment(self, key: tuple[int, ...], count: int) -> Moment:
        """The moment of ``key``, on ``count``: in the period :meth:`_label` names."""
        return Moment(key, "Dex" if self.surprise_round else "count", str(count))

    def _label(self, count: int) -> str:
        """What a count is called: made once for each (kept rounds share them)."""
        if not self.surprise_round:
            return _count_label(count)
        label = _LABELS.get((True, count))
        if label is None:
            label = _LABELS[(True, count)] = f"Dex {count}"
        return label

    def _acting(self, name: str) -> bool:
        return self.figures[name].count is not None

    def _count(self, name: str) -> int:
        count = self.figures[name].count
        assert count is not None, f"{name} does not act this round"
        return count

    def _completion(self, f: _Figure) -> int | None:
        """The count a figure's spell goes off on (None: at the end of the round)."""
        cast, count = f.cast, f.count
        assert cast is not None and count is not None, "only an acting caster's spell goes off"
        if f.name in self.early_completion:
            return self.early_completion[f.name][0]
        spell = f.c.spell(cast.spell)
        return None if spell.full_round else count - int(spell.casting_time)

    # ------------------------------------------------------------ closing (II.D, Charging III)

    def _moves_toward(self, mover: str, other: str) -> list[Declaration]:
        return [d for d in self.figures[mover].decls if d.kind is ActionKind.MOVE and d.target == other]

    def _move_feet(self, c: Combatant, d: Declaration, gap: int | None) -> int:
        rate = self._charge_rate(c) if _is_charge(d) else c.movement * 10
        if d.feet is not None:
            return d.feet
        return rate if gap is None else min(rate, max(0, gap - REACH))

    def _closing(self) -> None:
        done: set[tuple[str, str]] = set()
        for f in self.figures.values():
            for d in f.decls:
                if not (self._melee(d) and d.target is not None):
                    continue
                pair = (f.name, d.target) if f.name < d.target else (d.target, f.name)
                if pair in done:
                    continue
                done.add(pair)
                self._close(f.name, d.target)

    def _close(self, a: str, b: str) -> None:
        """Where ``a`` and ``b`` (one attacking the other in melee) come within reach of each other."""
        gap = self.distance.get(frozenset((a, b)))
        movers = [(name, m) for name, other in ((a, b), (b, a)) for m in self._moves_toward(name, other)]
        if gap is not None and gap > REACH:
            total = sum(self._move_feet(self.people[name], m, gap) for name, m in movers)
            if gap - total > REACH:
                closing = f"close only {total}'" if movers else "neither moves toward the other"
                raise IllegalActionError("002 III.D", f"{a} and {b} are {gap}' apart and {closing}: a melee attack "
                                                      f"needs its target within {REACH}'")
        elif gap is not None or not movers:
            return  # already within reach
        acting = sorted(((name, m) for name, m in movers if self._acting(name)),
                        key=lambda nm: -self._count(nm[0]))
        covered = 0
        for name, m in acting:
            covered += self._move_feet(self.people[name], m, gap)
            if gap is None or gap - covered <= REACH:
                self._entry(name, m, b if name == a else a)
                return
        for name, other in ((a, b), (b, a)):
            for d in self.figures[name].decls:
                if self._melee(d) and d.target == other:
                    self.cancelled[id(d)] = ("002 I.D", f"The surprised do not move, so {name} and {other} never come "
                                                        f"within {REACH}' of each other this round.")

    def _entry(self, closer: str, move: Declaration, other: str) -> None:
        """``closer`` comes within reach of ``other`` on its count: who strikes first there."""
        fc, fo = self.figures[closer], self.figures[other]
        if fo.count is None:
            return
        entry = fc.count
        assert entry is not None
        charge = _is_charge(move)
        blow = next((d for d in fc.decls if d.kind is ActionKind.ATTACK and d.target == other and self._melee(d)),
                    None)
        answer = next((d for d in fo.decls if d.kind is ActionKind.ATTACK and d.target == closer
                       and self._melee(d)), None)
        set_vs = next((d for d in fo.decls if d.kind is ActionKind.READY and d.target in (None, closer)), None)
        if charge and set_vs is not None and blow is not None and not self.surprise_round:
            self.pulls.append(_Pull(other, None, closer, entry, "first", "002 Charging III.A",
                                    f"{other} has set a weapon against {closer}'s charge: that attack is resolved "
                                    f"first, at double damage."))
            return
        cast = fo.cast
        if charge and cast is not None and blow is not None and not self.surprise_round:
            completes = self._completion(fo)
            if fo.count >= entry and (completes is None or completes < entry):
                ct, wsf = fo.c.spell(cast.spell).casting_time, self._wsf(blow)
                if ct != "1 round" and int(ct) < wsf:
                    self.early_completion[other] = (entry, closer, f"{closer} charges the spellcaster {other}: the lower of "
                                                           f"{closer}'s WSF {wsf} and the casting time {ct} goes "
                                                           f"first, so the spell goes off first (002 Charging III.B.i).")
                elif self.explain:
                    self.notes.append(f"{closer} charges the spellcaster {other}: the lower of {closer}'s WSF {wsf} "
                                      f"and the casting time {ct} goes first, so {closer} strikes first "
                                      f"(002 Charging III.B.i).")
        if answer is None or blow is None:
            return
        own_first = fo.count >= entry
        mine, theirs = self._length(blow), self._length(answer)
        longer = _LENGTH_ORDER.index(theirs) > _LENGTH_ORDER.index(mine)
        if self.surprise_round:
            if own_first:
                self.pulls.append(_Pull(other, answer, closer, entry, "with", "002 I.D",
                                        f"{other} had no one in reach on its own turn and strikes as {closer} "
                                        f"comes in; in the surprise round the longer weapon has no priority."))
            return
        rule = "002 Charging III.B" if charge else "002 II.D"
        if longer:
            self.pulls.append(_Pull(other, answer, closer, entry, "first", rule,
                                    f"{closer} {'charges' if charge else 'enters'} into melee range of {other}: "
                                    f"{other}'s {theirs.value} weapon is longer than {closer}'s {mine.value} one and "
                                    f"strikes first, regardless of initiative."))
        elif own_first:
            how = "with" if theirs is mine else "after"
            self.pulls.append(_Pull(other, answer, closer, entry, how, rule,
                                    f"{other} had no one in reach on its own count; as {closer} enters melee range "
                                    + ("both weapons are the same length and strike together."
                                       if how == "with" else
                                       f"{closer}'s {mine.value} weapon, the longer, strikes first and {other} answers.")))

    def _armed_against_unarmed(self) -> None:
        """002 II.D: "Weapons always win initiative vs. unarmed unless special abilities apply [monk]"."""
        if self.surprise_round:
            return
        pulled = {(p.striker, p.closer) for p in self.pulls}
        for f in self.figures.values():
            for d in f.decls:
                if not (self._melee(d) and d.target is not None and not self._unarmed(d)):
                    continue
                other = self.figures[d.target]
                answer = next((x for x in other.decls if x.kind is ActionKind.ATTACK and x.target == f.name
                               and self._unarmed(x)), None)
                if (answer is None or other.count is None or f.count is None or other.c.char_class == "monk"
                        or other.count < f.count or (f.name, d.target) in pulled or (d.target, f.name) in pulled):
                    continue
                self.pulls.append(_Pull(f.name, d, d.target, other.count, "first", "002 II.D",
                                        f"{d.target} attacks {f.name} unarmed: weapons always win initiative against "
                                        f"unarmed attacks, so {f.name} strikes first."))

    # ------------------------------------------------------------ groups, layers, moments

    def _place(self) -> Timeline:
        """Group what happens at each count, order the groups inside it, and make the moments."""
        nodes: dict[int, list[_Node]] = {}
        hard: list[tuple[Hashable, Hashable]] = []
        soft: list[tuple[Hashable, Hashable]] = []
        for f in self.figures.values():
            if f.count is None or not f.decls:
                continue
            name = f.name
            turn = False
            wsf: int | None = None
            missile = False
            for d in f.decls:
                if self._pulled(name, d) or self._early(f, d):
                    continue
                turn = True
                _, arms, melee = self._arms(d)
                if melee:
                    wsf = arms.wsf if wsf is None else max(wsf, arms.wsf)
                elif d.kind is ActionKind.ATTACK:
                    missile = True
            if turn:
                nodes.setdefault(f.count, []).append(_Node(("turn", name), attacks=f.attacks, wsf=wsf,
                                                           missile=missile))
            completes = self._completion(f) if f.cast is not None and name not in self.hits else None
            if f.cast is not None and completes is not None:
                ct = int(f.c.spell(f.cast.spell).casting_time)
                nodes.setdefault(completes, []).append(_Node(("done", name), ct=ct, die=f.die))
                if name in self.early_completion:
                    hard.append((("done", name), ("turn", self.early_completion[name][1])))
        for p in self.pulls:
            if p.how == "with":
                continue
            key = ("pull", p.striker, p.closer)
            wsf = self._wsf(p.decl) if p.decl is not None else None
            nodes.setdefault(p.entry, []).append(_Node(key, wsf=wsf))
            hard.append((key, ("turn", p.closer)) if p.how == "first" else (("turn", p.closer), key))
        groups: dict[Hashable, Moment] = {}
        for count, group in nodes.items():
            keys = [n.key for n in group]
            if not self.surprise_round:
                self._tie_edges(group, hard, soft)
            level = layers(keys, [e for e in hard if e[0] in keys and e[1] in keys],
                           [e for e in soft if e[0] in keys and e[1] in keys])
            for node in keys:
                groups[node] = self._moment((1, -count, level[node]), count)
        return self._spans(groups)

    def _pulled(self, name: str, d: Declaration) -> bool:
        return self._pull(name, d) is not None

    def _pull(self, name: str, d: Declaration) -> _Pull | None:
        """The pull that moves ``name``'s declaration ``d``, if any (loops, not a generator: most rounds have no
        pull, and a compiled generator is a Python object, #18)."""
        for p in self.pulls:
            if p.striker == name and p.decl is d:
                return p
        return None

    def _early(self, f: _Figure, d: Declaration) -> bool:
        """Fired before initiative (III.A)."""
        return f.ready and d.kind is ActionKind.ATTACK and not self._melee(d)

    def _tie_edges(self, group: list[_Node], hard: list[tuple[Hashable, Hashable]],
                   soft: list[tuple[Hashable, Hashable]]) -> None:
        """002 II.E (a rule: hard edges) and II.F's options (soft edges) inside one count."""
        turns = [n for n in group if n.key[0] == "turn"]
        if any(n.attacks >= 2 for n in turns):
            for x in turns:
                for y in turns:
                    if x.attacks > y.attacks:
                        hard.append((x.key, y.key))
                        if self.explain:
                            self.notes.append(f"{x.key[1]} and {y.key[1]} tie on their count; {x.key[1]} has more "
                                              f"attacks ({x.attacks} to {y.attacks}) and goes first (002 II.E).")
        melee = [(n, n.wsf) for n in group if n.wsf is not None]
        spells = [(n, n.ct, n.die) for n in group if n.ct is not None and n.die is not None]
        if self.options.tie_weapon_speed:
            soft += [(x.key, y.key) for x, a in melee for y, b in melee if a < b]
        if self.options.tie_spell_vs_melee:
            soft += [(s.key, m.key) if ct < wsf else (m.key, s.key) for s, ct, _ in spells for m, wsf in melee
                     if ct != wsf]
        if self.options.tie_missile_vs_spell:
            soft += [(m.key, s.key) for s, ct, die in spells for m in group if m.missile and ct > die]

    # ------------------------------------------------------------ spans

    def _spans(self, groups: dict[Hashable, Moment]) -> Timeline:
        before = Moment(BEFORE, "surprise round" if self.surprise_round else "before initiative")
        end = Moment(END, "end of round")
        hits = self.hits
        moments = [before, end, *groups.values(), *[m for _, m in hits.values()]]
        clock, ticks = moment_clock(UNIT, moments, UNIT_NOTE)
        placed: list[tuple[Span, Declaration | None]] = []
        for f in self.figures.values():
            name, side = f.name, f.side
            if f.count is None:
                placed.append((Span(name, side, SpanKind.SURPRISED, "surprised: does nothing this round", ticks[before],
                                    ticks[end], "surprise round", "002 I.D",
                                    f"{name} is surprised and loses the surprise round."), None))
                for d in f.decls:
                    placed.append((self._span(f, d, ticks[before], ticks[before], "surprise round", "002 I.D",
                                              f"{name} is surprised: this is not done.", Status.CANCELLED), d))
                continue
            turn_moment = groups.get(("turn", name))
            for d in f.decls:
                placed_span = self._place_declaration(f, d, groups, ticks, before, end, hits, turn_moment)
                if d.kind is ActionKind.ATTACK and d.attacks > 1:
                    # 002 III.B: all of its attacks on its turn, each a blow of its own at the same moment
                    placed += [(replace(placed_span, action=f"{placed_span.action} (attack {k} of {d.attacks})"), d)
                               for k in range(1, d.attacks + 1)]
                else:
                    placed.append((placed_span, d))
            for p in self.pulls:
                if p.striker == name and p.decl is None:
                    moment = groups[("pull", name, p.closer)]
                    placed.append((Span(name, side, SpanKind.ATTACK, f"set weapon -> {p.closer}", ticks[moment],
                                        ticks[moment], moment.label, p.rule, p.why, target=p.closer, what="set weapon"),
                                   None))
        spans = [span for span, _ in placed] + self._opportunities(placed)
        # by (end, start), stably: sorted as tuples, not through a key function called once a span (#18)
        ordered = tuple([span for _, _, _, span in sorted([(s.end, s.start, i, s) for i, s in enumerate(spans)])])
        return Timeline(SHORT_FORM.id, clock, ordered, tuple(self.notes), tuple(self.roller.log))

    def _place_declaration(self, f: _Figure, d: Declaration, groups: dict[Hashable, Moment],
                           ticks: dict[Moment, Tick], before: Moment, end: Moment,
                           hits: dict[str, tuple[Hit, Moment]], turn_moment: Moment | None) -> Span:
        name = f.name
        if self._early(f, d):
            return self._span(f, d, ticks[before], ticks[before], before.label, "002 III.A",
                              f"{name} began the round with a missile ready and target in sight, so fires before "
                              f"initiative is rolled.")
        pull = self._pull(name, d)
        if pull is not None:
            moment = groups[("turn", pull.closer)] if pull.how == "with" else groups[("pull", name, pull.closer)]
            return self._span(f, d, ticks[moment], ticks[moment], moment.label, pull.rule, pull.why)
        assert turn_moment is not None
        tick = ticks[turn_moment]
        if id(d) in self.cancelled:
            rule, why = self.cancelled[id(d)]
            return self._span(f, d, tick, tick, turn_moment.label, rule, why, Status.CANCELLED)
        if d.kind is ActionKind.CAST:
            return self._cast_span(f, d, tick, turn_moment.label, groups, ticks, end, hits)
        return self._span(f, d, tick, tick, turn_moment.label, self._turn_rule(f), self._turn_why(f, d))

    def _turn_rule(self, f: _Figure) -> str:
        return "002 I.D: highest to lowest Dexterity" if self.surprise_round else "002 II.A, III.B: on its count"

    def _turn_why(self, f: _Figure, d: Declaration) -> str:
        if not self.explain:
            return ""
        if self.surprise_round:
            return f"In the surprise round {f.name} acts on Dexterity {f.count}, highest first."
        count, die = self._count(f.name), f.die or 0
        base = f"{f.name} acts on count {count} ({die} on the d12 {count - die:+d} Dexterity)."
        if d.kind is ActionKind.MOVE:
            return base + " Movement may be split before and after attacking or casting (002 III.D)."
        if d.kind is ActionKind.ATTACK:
            return base + " All of its attacks are resolved on its count (002 III.B)."
        return base

    def _span(self, f: _Figure, d: Declaration, start: Tick, end: Tick, period: str, rule: str, why: str,
              status: Status = Status.DONE) -> Span:
        _, kind, action, what, more = self._said(f, d)
        return Span(f.name, f.side, kind, action, start, end, period, rule, why + more, target=d.target, status=status,
                    what=what)

    def _said(self, f: _Figure, d: Declaration) -> tuple[Declaration, SpanKind, str, str, str]:
        """The declaration, what its span is, says it does and does without its target, and what a miscellaneous
        action's why adds: once a run for each declaration (by identity, kept with it as :attr:`arms` keeps its
        weapons), for none of it reads the round."""
        known = kept(self.said, d)
        if known is not None:
            return known
        target = f" -> {d.target}" if d.target else ""
        more = ""
        if d.kind is ActionKind.ATTACK:
            what = " + ".join(w.name for w in self._weapons(d))  # several attacks: a span each (_spans)
        elif d.kind is ActionKind.MOVE:
            what = ("charges" if _is_charge(d) else "moves") + (f" {d.feet}'" if d.feet is not None else "")
        elif d.kind is ActionKind.CAST:
            what = f"casts {f.c.spell(d.spell).name}"
        elif d.kind is ActionKind.READY:
            what = "sets weapon against a charge"
        else:
            what = d.note or "miscellaneous action"
        if d.kind is ActionKind.MISC:
            kind = action_types()[misc_type(d)]
            more = f" A {kind.name.lower()} (002 Action Types), like: {'; '.join(kind.examples)}."
        known = self.said[id(d)] = (d, SPAN_KIND[d.kind], what + target, what, more)
        return known

    def _cast_span(self, f: _Figure, d: Declaration, tick: Tick, period: str, groups: dict[Hashable, Moment],
                   ticks: dict[Moment, Tick], end: Moment, hits: dict[str, tuple[Hit, Moment]]) -> Span:
        spell: Spell = f.c.spell(d.spell)
        completes = self._completion(f)
        done = groups.get(("done", f.name), end)
        ct = "a full round" if spell.full_round else f"CT {spell.casting_time}"
        if not self.explain:  # the fast path's spans say nothing of why (and so name no count: its _like)
            why = ""
        elif f.name in self.early_completion:
            why = self.early_completion[f.name][2]
        elif completes is None:
            why = f"{spell.name} takes a full round: it resolves at the very end of the round (002 II.C)."
        else:
            why = (f"{f.name} begins {spell.name} on {self._label(self._count(f.name))} and is occupied casting "
                   f"for {ct}: it goes off on {self._label(completes)} (002 II.C).")
        if self.explain:
            why += " No Dexterity bonus to AC while casting (002 III.E)."
        if f.name in hits:
            hit, moment = hits[f.name]
            by = f" by {hit.source}" if hit.source else ""
            if hit.tick > self._count(f.name):
                return self._span(f, d, tick, tick, period, "002 III.F",
                                  f"{f.name} is hit{by} on {self._label(hit.tick)}, before beginning {spell.name}: "
                                  f"the casting is disrupted (the spell is not lost)." if self.explain else "",
                                  Status.CANCELLED)
            return self._span(f, d, tick, ticks[moment], period, "002 III.F",
                              f"{f.name} is hit{by} on {self._label(hit.tick)} while casting {spell.name}: "
                              f"the spell is lost." if self.explain else "", Status.RUINED)
        rule = "002 II.C" if f.name not in self.early_completion else "002 Charging III.B.i"
        return self._span(f, d, tick, ticks[done], done.label, rule, why)

    def _disruptions(self) -> dict[str, tuple[Hit, Moment]]:
        """002 III.F: the first reported hit on each caster before its spell goes off."""
        out = {}
        for f in self.figures.values():
            if f.count is None or f.cast is None:
                continue
            completes = self._completion(f)
            early = [h for h in self.encounter.hits if h.target == f.name
                     and (completes is None or h.tick > completes)]
            if early:
                hit = max(early, key=lambda h: h.tick)
                out[f.name] = (hit, self._moment((1, -hit.tick, 0), hit.tick))
        return out

    # ------------------------------------------------------------ attacks of opportunity

    def _opportunities(self, placed: list[tuple[Span, Declaration | None]]) -> list[Span]:
        """002 III.C, III.G, Breaking Off: who may make an attack of opportunity, and when.

        Walks the round in order, keeping the distances up to date as figures move toward
        their targets; each opponent is offered at most one (III.G: "Generally only 1 AoO
        per round per character")."""
        gaps = dict(self.distance)
        used: set[str] = set()
        out: list[Span] = []
        melee_on = {(f.name, d.target) for f in self.figures.values() for d in f.decls if self._melee(d)}

        def offer(who: str, provoker: Span, rule: str, why: str) -> None:
            if who in used or not self._acting(who) or self.people[who].side == provoker.side:
                return
            used.add(who)
            out.append(Span(who, self.people[who].side, SpanKind.OPPORTUNITY,
                            f"may make an attack of opportunity -> {provoker.actor}", provoker.start, provoker.start,
                            provoker.period, rule, why, target=provoker.actor, what="may make an attack of opportunity"))

        pairs = _pairs(tuple(self.people))

        def near(name: str) -> list[str]:
            return [o for o, pair in pairs[name] if gaps.get(pair, REACH + 1) <= REACH]

        events = sorted(((span, d) for span, d in placed if d is not None and span.status is Status.DONE),
                        key=lambda sd: sd[0].start)
        for span, d in events:
            actor, c = span.actor, self.people[span.actor]
            if d.kind is ActionKind.CAST:
                for o in near(actor):
                    offer(o, span, "002 III.C", f"{actor} casts within melee range of {o}: "
                                                f"{o} may make an attack of opportunity.")
            elif d.kind is ActionKind.ATTACK and d.target is not None and not self._melee(d):
                if d.target in near(actor) and (d.target, actor) in melee_on:
                    offer(d.target, span, "002 III.C",
                          f"{actor} fires at {d.target}, an adjacent opponent attacking {actor} in melee: "
                          f"{d.target} may make an attack of opportunity.")
            elif d.kind is ActionKind.MOVE:
                key = frozenset((actor, d.target)) if d.target else None
                feet = self._move_feet(c, d, gaps.get(key) if key else None)
                if feet > REACH:
                    for o in near(actor):
                        if o == d.target:
                            continue
                        if _breaking_off(d):
                            offer(o, span, "002 Breaking Off From Melee I",
                                  f"{actor} breaks off from melee with {o}: {o} may attack at +4 to hit, ignoring "
                                  f"{actor}'s shield and Dexterity bonuses to AC.")
                        else:
                            offer(o, span, "002 III.G",
                                  f"{actor} moves {feet}' from within {o}'s melee range: {o} may make an attack of "
                                  f"opportunity at its best bonus.")
                if key is not None:
                    gaps[key] = max(0, gaps[key] - feet) if key in gaps else REACH
        return out


_FAST_PATH: Final[list[Callable[[Encounter, Roller, ShortFormOptions], Timeline]]] = []
"""The round's fast path, once registered (:func:`fast_path`)."""


def fast_path(schedule: Callable[[Encounter, Roller, ShortFormOptions], Timeline]) -> None:
    """Make ``schedule`` what :meth:`ShortForm._schedule` calls to place a round: the fast path of
    :mod:`combatkit.systems.short_form_fast` (#18), speed only, which registers itself here when it is imported
    (``combatkit.systems`` imports it, after this module). It keeps the rounds a fight's run has placed, looks up a
    round met again, and sets up and places any other with :class:`_Round`, calling this module's rules. It imports
    this module, so this module imports nothing of it: the hook keeps the imports one way, from the shortcut to the
    rule. Without it, every round is placed afresh."""
    _FAST_PATH[:] = [schedule]


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class ShortForm(TimingSystem):
    """002's A.D.D.I.C.T. short form as a timing system."""

    id = "short_form"
    aliases: tuple[str, ...] = ("short form", "short-form", "a.d.d.i.c.t.", "addict", "a.d.d.i.c.t. short form", "002")
    title = "The A.D.D.I.C.T. short form"
    source = "002 I-III, Charging, Breaking Off, Unarmed Combat, Action Types"
    clock = CLOCK
    options_class = ShortFormOptions
    declaration_phases: tuple[str, ...] = ("action 1", "action 2", "action 3")  # a figure's actions in order (002 Action Types)
    declaration_fields = frozenset({"feet", "attacks", "drop_and_draw"})
    hit_tick = "count"
    roll_keys: tuple[str, ...] = ('surprise: <side>', 'initiative: <side>')

    rules = SystemRules(
        "002", "002 II.A: equal counts are simultaneous; a figure falls after its count",
        "002 II.A: actions resolve from the highest count down; a fallen figure's count does not come",
        Retarget.FREE, "002 III.B: all of a character's attacks are resolved on his turn", 3,
        hits_as_counts=True, charge=ChargeRule.SITUATIONAL, own_surprise="002 I")
    maneuvers = frozenset(Maneuver)
    """002 Charging, Breaking Off From Melee, Unarmed Combat."""

    def _schedule(self, encounter: Encounter, roller: Roller, options: ShortFormOptions) -> Timeline:
        """Order one round by initiative count (or surprise), or raise the rule a declaration breaks: through the
        fast path (:func:`fast_path`), which looks a fight's round up where one like it was placed before."""
        if _FAST_PATH:
            return _FAST_PATH[0](encounter, roller, options)
        return _Round(encounter, roller, options).run()

    def note_suggestions(self, kind: ActionKind, maneuver: Maneuver | None = None) -> list[str]:
        """002 Action Types, for a miscellaneous action: each type's examples that name its words and no other
        type's, so that the round reads the note as that type (the costliest type a note names). Other
        actions: ``[]``.

        >>> SHORT_FORM.note_suggestions(ActionKind.MISC)[:2]
        ['use non-weapon proficiency', 'administer a potion']
        """
        if kind is not ActionKind.MISC:
            return []
        types = action_types().values()
        return [example for t in types for example in t.examples
                if [u.id for u in types if any(has_word(example, w) for w in u.words)] == [t.id]]

    def round_options(self, options: ShortFormOptions | None, fight: FightRound) -> ShortFormOptions:
        """002 I: the d12 surprise roll (round 1, no figure flagged) unless ``SurpriseOptions.check`` is off."""
        base = options if isinstance(options, ShortFormOptions) else default_options(ShortFormOptions)
        check = base.surprise_check and fight.surprise_check
        if check == base.surprise_check:
            return base
        return derived_options(base, "no surprise check", surprise_check=False)

    chain_rules = ChainRules(
        move="002 III.D: all characters may move their standard rate and still attack or cast",
        strike="002 III.B, D: all of a character's attacks on its turn, after the move",
        cast="002 II.C: the caster decides on his initiative what spell to cast", ready="002 Action Types III: "
        "draw or sheathe a weapon is a minor action", hold="002 Charging III.A: set vs. charge",
        action="002 Action Types: the action type the note names", flee="002 Breaking Off From Melee: full movement",
        out_of_reach="002 Action Types I.A: a standard action can be converted to a movement action",
        double_move=True)
    """002 places a figure's actions in order; beyond one move, the standard action is a second move."""

    def _plan_actor(self, ap: ActorPlan) -> None:
        """002: the actions in order (:func:`~combatkit.systems._plan.chain`); an intent that no longer fits the
        round's action types (one standard, one move, one minor: 002 Action Types) is left for next round."""
        chain(ap, self.chain_rules)
        self._every_attack(ap)
        kept: list[Declaration] = []
        for i, p in enumerate(ap.placements):
            if not p.declarations or p.kind is PlacementKind.REFINED:
                kept.extend(p.declarations)
                continue
            if fits(ap.c, kept + list(p.declarations)):
                kept.extend(p.declarations)
            elif p.intent is not None:
                budget = action_budget(ap.c, kept)[0]
                used = ", ".join(f"{n} {t}" for t, n in budget.items() if n)
                ap.placements[i] = replace(p, declarations=(), kind=PlacementKind.DEFERRED, rule="002 Action Types",
                                           why=f"{p.intent.said()}: the round's actions are used ({used}; "
                                               f"a round holds one standard, one move and one minor action): it is "
                                               f"left for next round")

    @staticmethod
    def _every_attack(ap: ActorPlan) -> None:
        """002 III.B: "ALL of a character's attacks will be resolved ON his turn": each attack the chain placed
        strikes as many blows as the round gives the figure with its weapons (2 a round; 3/2: 2 in even rounds),
        or fewer if the intent says so (``blows``), less what its earlier attacks this round took; one left none
        is left for next round."""
        used: dict[str, int] = {}
        for i, p in enumerate(ap.placements):
            intent = p.intent
            if intent is None or intent.kind is not IntentKind.ATTACK or p.kind is PlacementKind.REFINED:
                continue
            blows = [d for d in p.declarations if d.kind is ActionKind.ATTACK]
            if not blows:
                continue
            weapons = ap.weapons(intent)
            striking = weapons or ap.c.striking()
            most = max(0, routines(ap.c, weapons, ap.round) - max(used.get(w.name, 0) for w in striking))
            n = most if intent.blows is None else min(intent.blows, most)
            if n <= 0:
                ap.placements[i] = replace(p, declarations=(), kind=PlacementKind.DEFERRED, rule="002 III.B",
                                           why=ap.spent(intent, weapons))
                continue
            for w in striking:
                used[w.name] = used.get(w.name, 0) + n
            if n != blows[0].attacks:
                ap.placements[i] = replace(p, declarations=tuple(replace(d, attacks=n) if d is blows[0] else d
                                                                 for d in p.declarations),
                                           why=p.why + (f"; all {n} of its attacks on its count (002 III.B)"
                                                        if n > 1 else ""))


SHORT_FORM: Final = register(ShortForm())
odds = SHORT_FORM.odds
