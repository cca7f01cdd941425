"""The protocol every timing system follows, and the registry that finds them."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache, partial
from typing import Any, Final

from mypy_extensions import mypyc_attr

from combatkit.dice import Dice, Roll, Roller, check_entered, face, matches_form
from combatkit.encounter import Encounter
from combatkit.errors import RulesError
from combatkit.fields import field_docs
from combatkit.kinds import ActionKind, Maneuver, PlacementKind
from combatkit.intent import Placement, Plan, Refinement, derive, steps_of
from combatkit.model import Combatant, Declaration, Spell, Weapon
from combatkit.systems._exhaust import Matchup, check_matchup, exhaust, matchup
from combatkit.systems._memo import explaining, kept, memo, numbered, running, stands_for, table as memo_table
from combatkit.systems._plan import ActorPlan, ChainRules, chain
from combatkit.systems.rules import GENERIC_RULES, NO_TERMS, BlowTerms, SystemRules
from combatkit.timeline import Clock, Span, Tick, Timeline

__all__ = ["SYSTEMS", "FightRound", "GENERIC_CHAIN", "Round", "Switch", "TableRoller", "TimingSystem", "find_system",
           "check_names", "register", "roll_words", "table_rolls", "with_intents"]

GENERIC_CHAIN: Final = ChainRules(
    move="combatkit: a system that gives no plan moves, then acts", strike="combatkit: the blow after the move",
    cast="combatkit: a spell is an action", ready="combatkit: readying is an action", hold="combatkit: standing ready",
    action="combatkit: a named action is an action", flee="combatkit: a flight is a move",
    out_of_reach="combatkit: a blow needs its target in reach")
"""The rules a system with no plan of its own cites (its :meth:`TimingSystem._plan_actor` is the chain)."""


@mypyc_attr(native_class=False)  # a system is its class attributes, which a compiled class cannot default
class TimingSystem:
    """A seed's way of ordering a round: one subclass per system, one instance in :data:`SYSTEMS`.

    A subclass sets the class attributes below and overrides the hook :meth:`_schedule`;
    :meth:`schedule` does what every system shares: the encounter's own dice when no
    roller is given, the options' defaults, and refusing numbers entered for rolls the
    round never asks for.
    """

    id: str
    """Registry id, e.g. ``"phase1"``."""
    aliases: tuple[str, ...] = ()
    """Other names it answers to."""
    title: str
    """What a reader sees."""
    short: str = ""
    """The title without its aside, where a panel or a sentence has little room (``"Combat II: Phase System II"``
    for ``"Combat II: Phase System II (continuous A/B/C phases)"``); ``""`` where the title is short already:
    :attr:`short_title` is the one to read."""
    source: str
    """The seed section it implements, e.g. ``"000 §1-2"``."""
    clock: Clock
    """Its time axis."""
    options_class: type
    """The frozen dataclass of its options; its defaults are the seed's reading."""
    declaration_phases: tuple[str, ...] = ()
    """What a declaration's ``phase`` 1, 2, ... is in this system, one label each from phase 1 (what an
    encounter editor calls them: ``"phase 1"``, ``"step 2"``, ``"phase A, cycle 2"``)."""
    declaration_fields: frozenset[str] = frozenset()
    """The optional :class:`~combatkit.model.Declaration` fields it gives a meaning to (``feet``,
    ``attacks``, ``reposition``...), besides action, target, weapons, spell and note."""
    hit_tick: str = "tick"
    """What a reported hit's ``tick`` (``Encounter.hits``) counts here: ``"half-segment"``, ``"count"``..."""
    roll_keys: tuple[str, ...] = ()
    """What each roll it asks for is called (the key a number rolled at the table is entered
    under), with ``<side>``, ``<name>`` and the like standing for the encounter's own words."""
    odds_limit: int = 100_000
    """Most runs of the round :meth:`odds` makes for one matchup unless told otherwise (``limit``)."""
    rules: SystemRules = GENERIC_RULES
    """What its seed says about playing a round out, each field a rule with its citation (when figures
    fall, retargeting, charges, flight, surprise...): :mod:`combatkit.resolution`, :mod:`combatkit.fight`
    and :mod:`combatkit.policy` read it. Default: :data:`~combatkit.systems.rules.GENERIC_RULES`."""

    @property
    def short_title(self) -> str:
        """What a panel, a table or a sentence calls the system: :attr:`short`, or the title where it has no aside.

        >>> find_system("phase2").short_title, find_system("phase1").short_title
        ('Combat II: Phase System II', 'Combat II: Phase System I')
        """
        return self.short or self.title

    def switches(self) -> tuple[Switch, ...]:
        """The yes/no options of :attr:`options_class`, in field order: each field annotated ``bool`` with a
        ``bool`` default (an optional or bracketed rule of the seed, or a reading of it that can be turned
        off), with the docstring written under it; a view offers a checkbox for each. Read once per options
        class.

        >>> [(s.name, s.default) for s in find_system("segments").switches()][-2:]
        [('dying_blow', False), ('kills', True)]
        """
        return _switches(self.options_class)

    maneuvers: frozenset[Maneuver] = frozenset(Maneuver) - {Maneuver.CHARGE}
    """The declaration maneuvers a round of this system gives a meaning to, itself or as
    :mod:`combatkit.resolution` plays it out (what an encounter editor offers): withdrawing, fleeing and
    002's unarmed attacks under every system; a charge only where :attr:`rules` or the system's own
    scheduling says what one is."""

    def note_suggestions(self, kind: ActionKind, maneuver: Maneuver | None = None) -> list[str]:
        """Notes that name one of this system's own actions for a declaration of ``kind`` (and ``maneuver``)
        (what an encounter editor offers for the note), each one that this system's reading of a note takes
        for that action. Default: ``[]``, the note is free text."""
        return []

    def options(self, given: Any = None) -> Any:
        """``given``, or the seed's defaults when it is None; refused if it is another system's options."""
        if given is None:
            return default_options(self.options_class)
        if not isinstance(given, self.options_class):
            raise RulesError(f"{self.title} options", f"{self.title} takes {self.options_class.__name__}, "
                                                      f"got {type(given).__name__}")
        return given

    def schedule(self, encounter: Encounter, roller: Roller | None = None, options: Any = None, *,
                 check_rolls: bool = True) -> Timeline:
        """Place the round's intents (:meth:`plan`) and every declared action on the clock, or raise a RulesError.

        Dice: ``roller``, or else the numbers entered in the encounter (``[rolls]``: the dice of the system it
        was written for; another system takes each one its round rolls with the same dice for the same
        purpose, :func:`table_rolls`, and says which it leaves) and its ``seed`` (0 if it has none) for the
        rest. Options: ``options``, or else the encounter's own (:meth:`encounter_options`). With
        ``check_rolls`` (the default) a number entered under a key no roll of the system the encounter was
        written for is called raises UnknownRollError naming the keys it does ask for (a misspelled key must
        not be ignored); callers that share the roller with later steps (resolution asks for attack and damage
        rolls) check at their end.
        """
        options = self.options(options if options is not None else self.encounter_options(encounter))
        own_dice = roller is None
        # A round already in this system's terms (no intents, no refinements, as a fight's are once placed) has no
        # plan to make: its plan would list the declarations as given and leave a timeline as it is, unless the
        # round rolls its own dice, whose notes the timeline keeps with the plan.
        plan = self.plan(encounter, options) if encounter.intents or encounter.refinements or own_dice else None
        placed = plan_encounter(encounter, plan) if plan is not None else _in_phase_order(encounter)
        if roller is None:
            roller = table_rolls(encounter, self)
        timeline = self._schedule(placed, roller, options)
        if check_rolls:
            own = _own(encounter)
            if own is self or own is None or not own_dice:
                check_entered(roller.entered, (r.purpose for r in roller.log), f"{self.title}'s round",
                              self.roll_keys, roll_words(encounter))
            else:
                check_entered(encounter.rolls, (r.purpose for r in roller.log), "any timing system's round",
                              tuple(dict.fromkeys(k for s in SYSTEMS.values() for k in s.roll_keys)),
                              roll_words(encounter))
        if plan is None:
            return timeline
        return annotate(timeline, plan, _left_rolls(encounter, self, timeline) if own_dice else ())

    def plan(self, encounter: Encounter, options: Any = None, carry: Mapping[str, Any] | None = None) -> Plan:
        """Turn the round's intents (``Encounter.intents``) into this system's declarations, each with the rule
        that places it (:class:`~combatkit.intent.Placement`); figures the encounter gives declarations of their
        own (``Encounter.declarations``, already in this system's terms) keep them as given.

        This system's refinements of an intent (``Encounter.refinements``) are followed; another system's are
        ignored, and the plan's notes say so. What the system cannot do as asked is placed the nearest legal way
        or left for next round, and said (:meth:`~combatkit.intent.Plan.changed`). A refinement of an intent a
        figure does not have is refused. ``carry`` is what the last round's plan left each figure
        (:attr:`~combatkit.intent.Plan.carry`), when this round follows it in a fight.
        """
        options = self.options(options if options is not None else self.encounter_options(encounter))
        given = {d.actor for d in encounter.declarations}
        placements = [Placement(d.actor, 0, None, (d,), PlacementKind.DECLARED, "", "") for d in
                      encounter.declarations]
        steps: dict[str, list] = {}
        for step, intent in steps_of(encounter.intents):
            steps.setdefault(intent.actor, []).append((step, intent))
        if steps:
            names = {c.name for c in encounter.combatants}
            for actor in steps:
                if actor not in names:  # its intents were dropped unsaid
                    raise RulesError("encounter", f"an intent names {actor!r}, who is not in the encounter")
        mine = [r for r in encounter.refinements if r.system == self.id]
        self._check_refinements(mine, {actor: len(s) for actor, s in steps.items()})
        refined = {(r.actor, r.step): r for r in mine}
        intents = {(intent.actor, step): intent for step, intent in steps_of(encounter.intents)}
        ignored: dict[str, list[str]] = {}
        for r in encounter.refinements:
            if r.system != self.id and (r.actor, r.step) in intents and r.actor not in given:
                ignored.setdefault(r.system, []).append(f"{r.actor}'s {intents[(r.actor, r.step)].words()} "
                                                        f"({', '.join(r.changes())})")
        notes = [f"The encounter refines intents for {SYSTEMS[sid].title if sid in SYSTEMS else sid}, in that "
                 f"system's own terms: {'; '.join(items)}. {self.title} ignores them and places the intents its "
                 f"own way." for sid, items in ignored.items()]
        carried: dict[str, Any] = {}
        for c in encounter.combatants:
            if c.name in given or c.name not in steps:
                continue
            ap = ActorPlan(self, encounter, c, steps[c.name],
                           {step: refined[(c.name, step)] for step, _ in steps[c.name] if (c.name, step) in refined},
                           options, carried=(carry or {}).get(c.name))
            if c.surprised and self.rules.surprised_sits_out is not None:
                for step, intent in ap.steps:
                    # a step the encounter places in this system's phases is placed so, for the round to refuse
                    # it as it refuses those declarations given as such (001 A: none until the surprise is over)
                    if ap.refined(step, intent) is None:
                        ap.defer(step, intent, self.rules.surprised_sits_out,
                                 f"{c.name} is surprised: it sits the round out")
            else:
                self._plan_actor(ap)
            placements += ap.placements
            if ap.carry is not None:
                carried[c.name] = ap.carry
        return Plan(self.id, tuple(placements), tuple(notes), carried)


    def _check_refinements(self, refinements: Sequence[Refinement], steps: dict[str, int]) -> None:
        """Refuse a refinement of a step the actor does not have, or with a phase this system has no declaration
        phase for, naming the refinement and the value."""
        most = len(self.declaration_phases) or 20
        for r in refinements:
            if r.step > steps.get(r.actor, 0):
                raise RulesError("combatkit refinements", f"{r.actor}'s refinement for {self.title} refines intent "
                                                          f"{r.step}, but {r.actor} has {steps.get(r.actor, 0)} "
                                                          f"intent(s)")
            for phase in r.phases:
                if not 1 <= phase <= max(most, 20):
                    raise RulesError("combatkit refinements", f"{r.actor}'s refinement for {self.title}: phase "
                                                              f"{phase} is not one of its phases 1..{most}")
    def placed(self, encounter: Encounter, options: Any = None) -> Encounter:
        """``encounter`` as this system places it: its intents turned into this system's declarations
        (:meth:`plan`), which :meth:`schedule` then takes as given. Each is a declaration as an encounter file gives
        one, which names no named action (:attr:`~combatkit.model.Declaration.named_action`): its note, the actions
        table's words for this system, says it, and this system reads them as it reads the id.

        >>> from combatkit import load_example
        >>> [(d.actor, d.phase, d.kind.value) for d in find_system("segments").placed(
        ...     load_example("orc-closes-on-longbowman")).declarations]
        [('Aldric', 1, 'attack'), ('Grishnak', 1, 'move'), ('Grishnak', 2, 'attack')]
        """
        placed = plan_encounter(encounter, self.plan(encounter, options))
        given = tuple(d if d.named_action is None else replace(d, named_action=None) for d in placed.declarations)
        return replace(placed, declarations=given, intents=(), refinements=())

    chain_rules: ChainRules = GENERIC_CHAIN
    """The rules :meth:`_plan_actor`'s default plan (a chain of actions one after the other) cites."""

    def _plan_actor(self, ap: ActorPlan) -> None:
        """Place one figure's intents (``ap.steps``) with ``ap.add`` / ``ap.defer``. Default: one action after
        the other, a move first and the blow after it when the move reaches the target
        (:func:`~combatkit.systems._plan.chain`)."""
        chain(ap, self.chain_rules)

    def encounter_options(self, encounter: Encounter) -> Any:
        """The options an encounter sets for this system (its file's ``[options.<id>]``), the seed's defaults
        for the rest."""
        given = getattr(encounter, "options", {}).get(self.id)
        return self.options_class(**given) if given else default_options(self.options_class)

    def _schedule(self, encounter: Encounter, roller: Roller, options: Any) -> Timeline:
        """The system's own scheduling: ``options`` is an instance of :attr:`options_class`, and the encounter's
        declarations are in phase order (:meth:`schedule` and :meth:`odds` give them so), each phase's as given."""
        raise NotImplementedError

    def odds(self, encounter: Encounter, a: str, b: str, options: Any = None, *,
             limit: int | None = None) -> Matchup:
        """Exact chances for ``a`` against ``b`` over every roll the round makes, as ``Fraction`` s.

        The round is run once per outcome of the dice that matter, by the code that draws its
        timeline, with an enumerating roller (:mod:`combatkit.systems._exhaust`); rolls entered
        in the encounter are not used. A :class:`~combatkit.systems._exhaust.Matchup`
        (:func:`~combatkit.systems._exhaust.matchup`): who is first to strike a blow or complete a
        spell (``a_first``, ``simultaneous``, ``b_first``, ``neither``; they sum to 1), a figure's
        first spell ruined for one that casts (``a_spell_interrupted``...), and the chance its N-th
        blow to land lands on tick T (``blows``); read as a mapping, by the keys ``"a first"``...
        ``"a blow N @ T"``. Options: ``options``, or else the encounter's own
        (:meth:`encounter_options`), as :meth:`schedule` takes them.

        ``limit`` caps the runs (default :attr:`odds_limit`): a matchup that needs more raises a
        RulesError naming the limit and the matchup rather than running for minutes. So do a
        figure not in the encounter, a figure matched against itself, and a round the system
        refuses.
        """
        options = self.options(options if options is not None else self.encounter_options(encounter))
        check_matchup(encounter, a, b)
        run = self._odds_round(plan_encounter(encounter, self.plan(encounter, options)), a, b, options)
        limit = self.odds_limit if limit is None else limit
        return matchup(exhaust(run, limit, f"{self.title}: the matchup {a} vs {b}"), a, b)

    def _odds_round(self, encounter: Encounter, a: str, b: str, options: Any) -> Callable[[Roller], Timeline]:
        """The round :meth:`odds` runs for each outcome: by default the round as scheduled.

        A system may narrow it to what can move the matchup (the two figures alone, timing only),
        drawing every chance outcome from the roller it is given; it never enumerates itself.
        """
        return partial(_scheduled, self, encounter, options)

    # -- hooks of a resolved fight: combatkit.resolution, combatkit.fight and combatkit.policy call
    # them, so that no code outside combatkit/systems asks which system it is. Each default is what
    # a system whose seed says nothing more needs.

    def timing_roller(self) -> type[Roller]:
        """The Roller class a round is scheduled with when :mod:`combatkit.resolution` plays it out
        (the resolver's attack rolls must be the only ones). Default: :class:`~combatkit.dice.Roller`."""
        return Roller

    def timing_options(self, options: Any) -> Any:
        """``options`` for scheduling a round that :mod:`combatkit.resolution` plays out (a scheduler
        that rolls hits and damage itself is told to time only). Default: ``options`` as given."""
        return options

    def round_options(self, options: Any, fight: FightRound) -> Any:
        """The options for one round of a fight (:func:`combatkit.fight.run_fight`): ``options`` as the
        caller gave them (None: the seed's defaults; the fight passes them through :meth:`timing_options` once,
        so this must give the same for both), with what the fight decides this round (the seed's own surprise
        roll in round 1, the figures' stances...). Default: :meth:`timing_options`."""
        return self.timing_options(options)

    def castable(self, spell: Spell, *, surprised: bool, ready_first: bool) -> bool:
        """Whether the default policy may begin ``spell`` this round: ``surprised``, the caster is
        surprised; ``ready_first``, it must ready its material components first
        (:attr:`SystemRules.components_in_hand <combatkit.systems.rules.SystemRules.components_in_hand>`).
        Default: every spell."""
        return True

    def blow_terms(self, attacker: Combatant, span: Span, declaration: Declaration, moves: Sequence[Declaration],
                   set_against_charge: bool) -> BlowTerms:
        """What the seed itself puts on a declared blow, besides the terms every system shares (to hit,
        damage; the critical and situational tables): ``moves`` are the attacker's move declarations this
        round, ``set_against_charge`` says it readied a weapon and its target declared a charge.
        Default: nothing (:data:`~combatkit.systems.rules.NO_TERMS`)."""
        return NO_TERMS

    def retarget_tick(self, attacker: Combatant, span: Span, declaration: Declaration | None,
                      weapons: tuple[Weapon, ...], options: Any) -> Tick | None:
        """Under :attr:`Retarget.COMBAT_II <combatkit.systems.rules.Retarget.COMBAT_II>` (000 §2 C): when the
        blow of ``span``, its target fallen, lands on a new one at +3 SF; None when that falls past its
        phase and the blow is lost. ``options``: the round's options. Default: None."""
        return None

    def __repr__(self) -> str:
        return f"find_system({self.id!r})"


@dataclass(frozen=True)
class Switch:
    """A yes/no option of a timing system (:meth:`TimingSystem.switches`): a ``bool`` field of its options class."""

    name: str
    """The field's name, e.g. ``"speed_bands"``."""
    default: bool
    """Its default: the seed's reading."""
    doc: str
    """The docstring written under the field, on one line (``""`` if it has none)."""


_DEFAULTS: Final[dict[type, Any]] = {}


def default_options(options_class: type) -> Any:
    """The seed's defaults: one ``options_class()``, kept and shared when the class is a frozen dataclass (as every
    system's is), else a new one each time. A fight's round given no options is then scheduled with the same
    object each time, which the run's memo finds by identity (:func:`~combatkit.systems._memo.stands_for`)."""
    params = getattr(options_class, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return options_class()
    found = _DEFAULTS.get(options_class)
    if found is None:
        found = _DEFAULTS[options_class] = options_class()
    return found


@cache
def _switches(options_class: type) -> tuple[Switch, ...]:
    docs = field_docs(options_class)
    return tuple(Switch(f.name, f.default, docs.get(f.name, "")) for f in fields(options_class)
                 if f.type in (bool, "bool") and isinstance(f.default, bool))


@dataclass(frozen=True)
class FightRound:
    """What a fight tells a timing system of the round it is about to schedule
    (:meth:`TimingSystem.round_options`)."""

    number: int
    """Round of the fight, from 1."""
    names: tuple[str, ...]
    """The figures on the field."""
    surprise_check: bool = True
    """Roll surprise in round 1 where the system's seed gives a roll (``SurpriseOptions.check``)."""
    flagged: bool = False
    """Some figure is surprised this round, flagged by the DM or by the PH 2e roll: the seed's own roll is not made."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """What ``ResolutionOptions.figures`` gives each figure, by name (a :class:`~combatkit.battle.FigureExtras`:
    its 004 stance among them)."""
    carried: Any = None
    """What the last round's timeline left this one (:attr:`Timeline.carry <combatkit.timeline.Timeline.carry>`);
    None in round 1."""

    def __init__(self, number: int, names: tuple[str, ...], surprise_check: bool = True, flagged: bool = False,
                 extras: Mapping[str, Any] | None = None, carried: Any = None) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes one a round (#18).
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "surprise_check", surprise_check)
        object.__setattr__(self, "flagged", flagged)
        object.__setattr__(self, "extras", {} if extras is None else extras)
        object.__setattr__(self, "carried", carried)

    @property
    def first(self) -> bool:
        """Round 1 of the fight."""
        return self.number == 1


def roll_words(encounter: Encounter) -> dict[str, list[str]]:
    """What ``<side>``, ``<name>``, ``<target>`` and ``<tag>`` stand for in :attr:`TimingSystem.roll_keys`."""
    names = [c.name for c in encounter.combatants]
    return {"side": list(encounter.sides), "name": names, "target": names, "tag": names}


SYSTEMS: Final[dict[str, TimingSystem]] = {}


def register(system: TimingSystem) -> TimingSystem:
    """Add ``system`` to :data:`SYSTEMS` under its id."""
    SYSTEMS[system.id] = system
    return system


def find_system(name: str) -> TimingSystem:
    """Look a system up by id or alias, case-insensitively.

    >>> find_system("Combat II Phase System I").id
    'phase1'
    """
    key = name.strip().lower()
    for system in SYSTEMS.values():
        if key == system.id or key in (a.lower() for a in system.aliases):
            return system
    known = ", ".join(sorted(SYSTEMS))
    raise RulesError("combatkit systems", f"no timing system called {name!r}; known: {known}")


def _own(encounter: Encounter) -> TimingSystem | None:
    """The system the encounter was written for (its entered rolls are that system's dice), if registered."""
    try:
        return find_system(encounter.system)
    except RulesError:
        return None


def with_intents(encounter: Encounter) -> Encounter:
    """``encounter`` with its declarations (written for its :attr:`~combatkit.encounter.Encounter.system`, the format
    before intents) turned into intents and that system's refinements (:func:`~combatkit.intent.derive`), so that every
    system can place them; unchanged when it has intents already or no declarations. A system not registered keeps
    its name as written."""
    if encounter.intents or not encounter.declarations:
        return encounter
    own = _own(encounter)
    intents, refinements = derive(encounter.declarations, own.id if own is not None else encounter.system,
                                  {c.name: [w.name for w in c.weapons] for c in encounter.combatants})
    return replace(encounter, declarations=(), intents=intents, refinements=refinements + encounter.refinements)


@dataclass
class TableRoller(Roller):
    """A Roller that first takes the number entered for the same purpose *and* the same dice.

    ``by_dice`` holds those numbers, by ``(purpose, dice)`` (``("initiative: party", "d10")``): the d10
    a side rolled for Phase System I is its d10 under Phase System II too, while the short form's d12
    for the same side stays its own. Anything else comes from ``entered`` (by purpose only, as
    :class:`~combatkit.dice.Roller` reads it) and then from the seeded RNG.

    >>> roller = TableRoller(seed=1, by_dice={("initiative: party", "d10"): 3})
    >>> roller.roll("d10", "initiative: party").total, roller.roll("d12", "initiative: party").entered
    (3, False)

    With a seed, each roll left to it is drawn from a stream of its own, named by the seed and the roll's purpose
    (the second roll for one purpose from that stream's second draw), not from one stream in the order the round
    asks: a page's boxes then never move one another. Entering a number can change which rolls a round asks for
    and in what order (a Segment of Action d10 that changes who swings first), yet every other roll the page shows
    keeps the number the seed gave it (#45). A page of tens of rolls pays a seeding a roll; a Monte Carlo run
    keeps :class:`~combatkit.dice.Roller`'s one stream.

    >>> seeded = [TableRoller(seed=7).roll("d10", p).total for p in ("initiative: party", "initiative: orcs")]
    >>> reversed_order = TableRoller(seed=7)
    >>> [reversed_order.roll("d10", p).total for p in ("initiative: orcs", "initiative: party")] == seeded[::-1]
    True
    """

    by_dice: Mapping[tuple[str, str], int | tuple[int, ...]] = field(default_factory=dict)
    drawn: dict[str, int] = field(default_factory=dict, repr=False)
    """How many rolls each purpose has drawn from its stream so far."""

    def roll(self, dice: str | Dice, purpose: str) -> Roll:
        spec = Dice.parse(dice)
        key = (purpose, str(spec))
        if key in self.by_dice:
            result = self._from_entry(spec, purpose, self.by_dice[key])
        elif purpose in self.entered:
            result = self._from_entry(spec, purpose, self.entered[purpose])
        elif self.seed is None:
            return super().roll(spec, purpose)  # a given RNG's one stream, or a MissingRollError
        else:
            n = self.drawn.get(purpose, 0)
            self.drawn[purpose] = n + 1
            stream = random.Random(f"{self.seed}|{purpose}|{n}")
            faces = tuple(face(stream, spec.sides) for _ in range(spec.count))  # the dice's own draw (dice.face)
            result = Roll(spec, purpose, sum(faces) + spec.modifier, faces, entered=False)
        self.log.append(result)
        return result


def file_entries(encounter: Encounter, seed: int = 1) -> tuple[dict[tuple[str, str], int | tuple[int, ...]],
                                                                 dict[str, int | tuple[int, ...]]]:
    """The rolls an encounter carries (``Encounter.rolls``), keyed by purpose and dice.

    The file names only the purpose (``"initiative: party" = 3``); the system it was written
    for says which dice that is, in a round run with ``seed`` for the rolls the file leaves
    open. Returns ``(by_dice, left)``: ``left`` holds the rolls that system did not use or
    could not take (its own run then reports why), to be given to it by purpose alone.
    """
    rolls = dict(encounter.rolls)
    own = _own(encounter)
    if own is None or not rolls:
        return {}, rolls
    try:
        timeline = own.schedule(encounter, TableRoller(seed=seed, entered=rolls), check_rolls=False)
    except ValueError:
        return {}, rolls
    by_dice: dict[tuple[str, str], int | tuple[int, ...]] = {}
    for roll in timeline.rolls:
        if roll.entered and roll.purpose in rolls:
            by_dice[(roll.purpose, str(roll.dice))] = rolls.pop(roll.purpose)
    return by_dice, rolls


def table_rolls(encounter: Encounter, system: TimingSystem) -> Roller:
    """The roller ``system`` schedules ``encounter`` with when it is given none: the encounter's ``seed`` (0 if
    none) and its entered rolls. A roll called as the system the encounter was written for calls one is
    that system's die: it takes them all; another takes each one its round rolls with the same dice for
    the same purpose (:class:`TableRoller`: Phase System I's d10 for a side's initiative is Phase System
    II's too, not the short form's d12). A roll only another system calls so (the short form's
    ``surprise: party`` in an encounter written for Phase System I) is that system's. What no one entered, the
    seed rolls by purpose (:class:`TableRoller`), as every page does: the round a file's seed gives is the round
    the page that saved it showed."""
    seed = encounter.seed if encounter.seed is not None else 0
    own = _own(encounter)
    if own is None or own is system or not encounter.rolls:
        return TableRoller(seed=seed, entered=dict(encounter.rolls))
    words = roll_words(encounter)
    theirs = {k: v for k, v in encounter.rolls.items() if not matches_form(k, own.roll_keys, words)}
    by_dice, _ = file_entries(encounter, seed)
    return TableRoller(seed=seed, entered={k: v for k, v in theirs.items()
                                           if matches_form(k, system.roll_keys, words)}, by_dice=by_dice)


def _left_rolls(encounter: Encounter, system: TimingSystem, timeline: Timeline) -> tuple[str, ...]:
    """What ``system`` says of the rolls entered for another system: which it takes, which it leaves."""
    own = _own(encounter)
    if own is None or own is system or not encounter.rolls:
        return ()
    words = roll_words(encounter)
    used = {r.purpose for r in timeline.rolls if r.entered}
    mine = [k for k in encounter.rolls if matches_form(k, own.roll_keys, words)]
    taken = [k for k in mine if k in used]
    left = [k for k in mine if k not in used]
    out = []
    if taken:
        out.append(f"It takes the numbers entered for {', '.join(repr(k) for k in taken)} as rolled at the table: "
                   f"the same dice for the same purpose as {own.title}'s.")
    if left:
        out.append(f"The numbers entered for {', '.join(repr(k) for k in left)} are {own.title}'s dice, the system "
                   f"the encounter was written for: {system.title} leaves them to it and rolls its own.")
    return tuple(out)


@dataclass(frozen=True)
class PlacedRound:
    """A round as a scheduler placed it, kept in the run's memo (:mod:`combatkit.systems._memo`) for the rounds
    that look the same once their dice are rolled (:func:`placed_round`)."""

    table: dict
    """The system's table of placed rounds in the run's memo."""
    key: tuple
    """This round's key in it."""

    def __init__(self, table: dict, key: tuple) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes one a round (#18).
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "key", key)

    def before(self) -> Any:
        """What was kept for a round that looked the same, or None."""
        return self.table.get(self.key)

    def keep(self, placed: Any) -> None:
        self.table[self.key] = placed


def derived_options(base: Any, change: Hashable, **fields: Any) -> Any:
    """``replace(base, **fields)``: options a system derives from ``base`` (its :meth:`~TimingSystem.timing_options`
    or :meth:`~TimingSystem.round_options`), made once a run in a fight for each ``base`` (by identity) and
    ``change`` (a hashable name for ``fields``), and the same object after: an options class's ``__init__`` and
    checks are Python (some 100,000 instructions for the Segment of Action's, twice a fight), and the run's memo
    finds options by identity (:func:`~combatkit.systems._memo.stands_for`). Outside a fight, made each time."""
    table = memo("derived options")
    if table is None:
        return replace(base, **fields)
    key = (id(base), change)
    found = table.get(key)
    if found is None or found[0] is not base:  # the entry keeps ``base``, so no other object takes its identity
        found = table[key] = (base, replace(base, **fields))
    return found[1]


def checked_once(system: str, encounter: Encounter, options: Any, check: Callable[[], None],
                 keys: RoundKeys | None = None) -> None:
    """``check()``: a scheduler's checks of a round's declarations, which read no dice, no distances, no hit points,
    and the round's number only for each figure's attacks in it (000 §2 C: a 3/2 figure's 1 or 2). In a fight, a
    round whose declarations, options and figures' spells left passed them once, at the same place in the cycle
    of attack counts (:attr:`~combatkit.model.Combatant.attack_cycle`, worked out once a run), passes again
    without them (the run's memo, :mod:`combatkit.systems._memo`). Only a pass is kept: a refusal is worked out
    afresh, for its words. ``keys``: the round's :class:`RoundKeys`, when the scheduler has them already."""
    passed = memo(f"{system} checked")
    if passed is None:
        check()
        return
    keys = keys if keys is not None else RoundKeys(encounter, options)
    if keys.checked not in passed:
        check()
        passed[keys.checked] = True


def checked_before(system: str, keys: RoundKeys) -> bool:
    """Whether a round like this one (its :class:`RoundKeys`) passed scheduler ``system``'s checks before in the
    run (:func:`checked_once`)."""
    passed = memo(f"{system} checked")
    return passed is not None and keys.checked in passed


def placed_round(system: str, encounter: Encounter, options: Any, dice: Hashable, hits: Hashable = None,
                 keys: RoundKeys | None = None) -> PlacedRound | None:
    """Where scheduler ``system`` keeps this round, keyed on what placing it reads once its dice are rolled:
    ``dice``, the outcome its placing reads (tracks, an order, the side with initiative), the declarations,
    distances and options, the round's place in the cycle of attack counts (a scheduler reads the round's number
    only for each figure's attacks in it, as the checks do: :func:`checked_once`; a refusal that names the round
    is raised, never kept), and each figure's name (for all a run never changes), surprise, spells left and
    components; not its hit points (a scheduler that reads them keeps no memo). None outside a fight, and when a
    hit is reported on a figure (a CON check or a ruined spell: the placing rolls or reads more), unless ``hits``
    says what of the reported hits the scheduler reads, all it reads of them (the short form's 002 III.F, a hit
    before the spell goes off): that joins the key (a round rescheduled for its hits is placed as before when they
    are the same). So does whether the round is explained: on the fast path a scheduler may leave out its words
    (:func:`~combatkit.systems._memo.explaining`), and fights played both ways may share a run's memo. ``keys``:
    the round's :class:`RoundKeys`, when the scheduler has them already (it looks the round up under two keys, or
    checks it too)."""
    table = memo(rounds_table(system)) if hits is not None or not encounter.hits else None
    if table is None:
        return None
    keys = keys if keys is not None else RoundKeys(encounter, options)
    return PlacedRound(table, (dice, keys.declarations, keys.distances, keys.cycle, keys.options, keys.figures,
                               hits, keys.explained))


def round_keys(encounter: Encounter, options: Any) -> RoundKeys | None:
    """The round's :class:`RoundKeys` in a fight, for a scheduler that both checks and places it, or looks it up
    under two keys; None outside one."""
    return RoundKeys(encounter, options) if running() is not None else None


class RoundKeys:
    """What the run's memo keys a round on but its dice (:func:`checked_once`, :func:`placed_round`), worked out
    once for the round, in a fight: the numbers that stand for its declarations, distances and options
    (:func:`~combatkit.systems._memo.stands_for`), its place in the cycle of its figures' attack counts, and each
    figure's state as a number (:func:`_keyed`), so that a key is a short tuple of small numbers, cheap to hash
    and to compare (#18)."""

    declarations: int
    distances: int
    options: int
    cycle: int
    """The round's place in the cycle of attack counts (:attr:`~combatkit.model.Combatant.attack_cycle`, worked out
    once a run): a scheduler reads the round's number only for each figure's attacks in it."""
    spells: tuple[int, ...]
    """Each figure's name and spells left, as a number: what the checks read of it."""
    figures: tuple[int, ...]
    """Each figure's name, surprise, spells left and components, as a number: what the placing reads of it."""
    explained: bool
    """Whether the round is explained (:func:`~combatkit.systems._memo.explaining`)."""
    checked: tuple
    """What :func:`checked_once` keys the round on: its declarations, options, place in the cycle and figures'
    spells left."""

    def __init__(self, encounter: Encounter, options: Any) -> None:
        cache = running()
        assert cache is not None, "in a fight"
        self.declarations = stands_for(encounter.declarations, items=True, cache=cache)
        self.distances = stands_for(encounter.distances, cache=cache)
        self.options = stands_for(options, cache=cache)
        cycles = memo_table(cache, "attack cycle")
        cycle = cycles.get("cycle")
        if cycle is None:
            cycle = cycles["cycle"] = encounter.attack_cycle
        self.cycle = encounter.round % cycle
        seen = memo_table(cache, "figure keys")
        keyed = [_keyed(c, seen, cache) for c in encounter.combatants]
        self.spells = tuple([k[1] for k in keyed])
        self.figures = tuple([k[2] for k in keyed])
        self.explained = explaining()
        self.checked = (self.declarations, self.options, self.cycle, self.spells)


class Round:
    """What a system's round does as its scheduler places it (:meth:`TimingSystem._schedule`), whatever its rules:
    it holds the encounter and its figures by name, adds spans, each with its rank among the spans ending on one tick,
    and notes, and walks the declarations in phase order, each phase's by actor, handing each to the system's
    :meth:`_declare`. Combat II's round (:class:`~combatkit.systems.phase1.CombatIIRound`) is one."""

    def __init__(self, encounter: Encounter) -> None:
        self.encounter = encounter
        self.people = {c.name: c for c in encounter.combatants}
        self.spans: list[tuple[int, Span]] = []
        """The spans placed so far, each with its rank among the spans ending on its tick (:meth:`placed`)."""
        self.notes: list[str] = []
        """What the placing says beside its spans (:attr:`Timeline.notes <combatkit.timeline.Timeline.notes>`)."""

    def add_span(self, span: Span, rank: int = 0) -> None:
        """Place ``span``; ``rank`` orders it among the spans ending on its tick (movement after blows...)."""
        self.spans.append((rank, span))

    def walk(self) -> None:
        """Each declaration to :meth:`_declare`, in phase order, each phase's by actor."""
        for d in sorted(self.encounter.declarations, key=_phase_and_actor):
            self._declare(self.people[d.actor], d)

    def _declare(self, c: Combatant, d: Declaration) -> None:
        """Place one declaration of ``c``'s by the system's rules, or raise the rule it breaks."""
        raise NotImplementedError

    def placed(self) -> tuple[Span, ...]:
        """The spans in a timeline's order: by the tick they end on, then rank, start, actor and kind."""
        ordered = sorted(self.spans, key=_in_order)
        return tuple([span for _, span in ordered])


def _phase_and_actor(d: Declaration) -> tuple[int, str]:
    return d.phase, d.actor


def _in_order(ranked: tuple[int, Span]) -> tuple[Tick, int, Tick, str, str]:
    rank, span = ranked
    return span.end, rank, span.start, span.actor, span.kind


def check_names(encounter: Encounter) -> None:
    """Every declaration's actor and target is in the encounter: each system checks it as it places a round."""
    names = {c.name for c in encounter.combatants}
    for d in encounter.declarations:
        if d.actor not in names:
            raise RulesError("encounter", f"a declaration names {d.actor!r}, who is not in the encounter")
        if d.target is not None and d.target not in names:
            raise RulesError("encounter", f"{d.actor} targets {d.target!r}, who is not in the encounter")


def sides_of(encounter: Encounter) -> tuple[str, ...]:
    """:attr:`Encounter.sides <combatkit.encounter.Encounter.sides>` (in order of first appearance), read where a
    scheduler reads them every round: the property runs as Python, some 7,000 instructions a call in the compiled
    build, this a third of that (#18)."""
    seen: dict[str, None] = {}
    for c in encounter.combatants:
        seen[c.side] = None
    return tuple(seen)


def opposing_best(rolls: Mapping[str, int]) -> dict[str, int]:
    """Each side's best (lowest) opposing roll of ``rolls`` (a d10 a side, low wins: 000 §1 A, §3 A); no entry
    for a side fighting alone."""
    return {side: min([r for other, r in rolls.items() if other != side]) for side in rolls if len(rolls) > 1}


def rounds_table(system: str) -> str:
    """The name of the table of the run's memo where scheduler ``system`` keeps its placed rounds
    (:func:`placed_round`); a run's cache holds it once the system has kept a round."""
    return f"{system} rounds"


def _keyed(c: Combatant, seen: dict, cache: dict) -> tuple[Combatant, int, int]:
    """The figure, and the numbers (:func:`~combatkit.systems._memo.numbered`) that stand for what
    :func:`checked_once` (its name and spells left) and :func:`placed_round` (those, its surprise and its components)
    key on of it: read once a run for each figure in each state (by identity, kept with it in ``seen``, the run's
    table of them as the round found it: a fight's figures are made once for each state,
    :func:`combatkit.made.made`), not field by field each round from its Python value type, nor hashed whole in
    every key (#18)."""
    known = kept(seen, c)
    if known is None:
        spells = tuple([s.name for s in c.spells])
        known = (c, numbered((c.name, spells), cache),
                 numbered((c.name, c.surprised, spells, c.components_ready), cache))
        memo_table(cache, "figure keys")[id(c)] = known  # the table as it is now, started afresh at SIZE entries
    return known


def _scheduled(system: TimingSystem, encounter: Encounter, options: Any, roller: Roller) -> Timeline:
    """:meth:`TimingSystem._odds_round`'s default round: ``encounter`` as ``system`` schedules it."""
    return system._schedule(encounter, roller, options)


def plan_encounter(encounter: Encounter, plan: Plan) -> Encounter:
    """``encounter`` with the plan's declarations, in phase order (what a system's scheduler reads)."""
    return replace(encounter, declarations=in_phase_order(plan.declarations))


def in_phase_order(declarations: tuple[Declaration, ...]) -> tuple[Declaration, ...]:
    """``declarations`` in phase order, each phase's as given: themselves when they are."""
    phases = [d.phase for d in declarations]
    return declarations if phases == sorted(phases) else tuple(sorted(declarations, key=lambda d: d.phase))


def _in_phase_order(encounter: Encounter) -> Encounter:
    """``encounter`` with its own declarations in phase order, as :func:`plan_encounter` gives a plan's: itself
    when they are (a fight's rounds are: :func:`~combatkit.fight.run_fight` orders them so, and a new encounter
    made here each round was 5% of a five-phase fight)."""
    ordered = in_phase_order(encounter.declarations)
    return encounter if ordered is encounter.declarations else replace(encounter, declarations=ordered)


def annotate(timeline: Timeline, plan: Plan, notes: Sequence[str] = ()) -> Timeline:
    """The timeline with its plan: each span says how the intent behind it was placed (``Span.placed``), and
    the timeline keeps the plan (``Timeline.plan``) and ``notes`` for :meth:`~combatkit.timeline.Timeline.why`.

    A span is matched to the intent of the same figure whose declaration is of its kind, in order."""
    if not notes and all(p.kind is PlacementKind.DECLARED for p in plan.placements) and not plan.notes:
        return timeline
    queues: dict[tuple[str, str], list[Placement]] = {}
    for p in plan.placements:
        if p.kind is PlacementKind.DECLARED:
            continue
        for d in sorted(p.declarations, key=lambda d: d.phase):
            queues.setdefault((p.actor, d.kind.value), []).append(p)
    spans = list(timeline.spans)
    last: dict[tuple[str, str], Placement] = {}
    for i in sorted(range(len(spans)), key=lambda i: (spans[i].start, spans[i].end)):
        span = spans[i]
        key = (span.actor, "cast" if span.kind.value == "hold" else span.kind.value)
        queue = queues.get(key)
        placement = queue.pop(0) if queue else last.get(key)
        if placement is not None:
            last[key] = placement
            spans[i] = replace(span, placed=placement.line())
    kept = tuple(spans)
    return replace(timeline, spans=kept, plan=plan, notes=timeline.notes + tuple(notes))
