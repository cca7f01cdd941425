"""The table: a fight played round after round as it happens, with the table's own dice and the DM's hand (#49).

A :class:`TableFight` is one fight under way. Each round:

1. **The intents.** :meth:`TableFight.intents` proposes what the figures on the field mean to do: the encounter's in
   round 1, later what the last round left over (a spell too long to begin) and then the default policy
   (:mod:`combatkit.policy`). The DM changes any of them and gives :meth:`~TableFight.play` the ones to play; the
   policy decides for any figure not named.
2. **The dice.** :meth:`TableFight.preview` plays the round on trial and lists every roll it asks for, in the order
   they are made (its timing rolls as the round is placed, then attack, damage, save and morale rolls as it is
   resolved), each typed at the table or rolled. A number typed is never replaced, and typing one never changes
   another (:meth:`combatkit.dice.Roller.from_table`). With a ``seed``, combatkit rolls what the table does not
   type, the very dice :func:`~combatkit.fight.run_fight` rolls from that seed; with none, **the table rolls
   everything**: a round is played only when every roll it asks for is typed, and the first one missing is named
   (:class:`RollNeededError`). The rolls after the first one missing are provisional: a typed miss asks for no
   damage roll.
3. **The round**, resolved as it goes by the one engine every fight uses (:class:`~combatkit.fight.FightRun`):
   its timeline, its events with their rules, and every figure carried into the next round (hit points,
   conditions and what is left of them, spells cast, held spells and spells under way, who fell or fled).

**The DM's hand** (:class:`Overrule`) changes the fight between rounds where the rules did not: damage or heal a
figure, add or end a condition, a figure flees, surrenders, dies or is back, a late arrival joins. Each is logged
as a ruling. :meth:`~TableFight.undo` takes back the last round or ruling.

**Nothing is lost.** The fight is the encounter and each step since (a round's intents and typed dice, a ruling):
:meth:`~TableFight.dumps` writes them as TOML, and :func:`loads_fight` replays them to the same state, refusing a
file the rules refuse with the step and the field (:class:`FightFileError`).

>>> from combatkit import load_example
>>> table = TableFight(load_example("orc-closes-on-longbowman"), seed=4)
>>> table.play().round, table.over, table.fight().winner
(1, True, 'archers')
>>> loads_fight(table.dumps()).fight() == table.fight()
True
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

import tomli_w

from combatkit.battle import ActiveCondition, Figure, FigureStatus, is_present
from combatkit.conditions import CONDITIONS
from combatkit.dice import EnteredRollError
from combatkit.encounter import Encounter
from combatkit.encounter_files import encounter_from_dict, encounter_to_dict
from combatkit.errors import EncounterFileError, RulesError, is_whole
from combatkit.fight import Fight, FightRun, RoundDie, in_round
from combatkit.intent import Intent
from combatkit.model import Combatant
from combatkit.resolution import Event, EventKind, RoundResult
from combatkit.resolution.state import FOREVER
from combatkit.systems import find_system

__all__ = ["FORMAT", "FightFileError", "Overrule", "OverruleKind", "RosterRow", "RoundPreview", "RollNeededError",
           "Step", "TableFight", "loads_fight"]

FORMAT: Final = 1
"""The version of the fight file :meth:`TableFight.dumps` writes."""

RULING: Final = "the DM's ruling"
"""The rule a ruling cites: the DM's, over the engine's (:class:`Overrule`)."""

_STAND_IN_SEED: Final = 0
"""The seed that stands in for the table's dice while a round is tried with rolls still to type (the table rolls
everything): it decides only the provisional rolls after the first one missing, never a round played."""


class RollNeededError(RulesError):
    """A round the table rolls for needs a roll nobody typed: :attr:`die` names it (its key, purpose and dice)."""

    def __init__(self, die: RoundDie, round: int) -> None:
        super().__init__("the table rolls everything (combatkit.table)",
                         f"round {round} needs {die.purpose!r} ({die.dice}): type what the table rolled, "
                         f"under {die.key!r}")
        self.die = die


class FightFileError(EncounterFileError):
    """A fight file that does not replay: the step (``steps[3]``, round 2) and the field, and the rule refused."""


class OverruleKind(enum.Enum):
    """What the DM's hand does (:class:`Overrule`)."""

    DAMAGE = "damage"
    HEAL = "heal"
    STATUS = "status"
    CONDITION = "condition"
    END_CONDITION = "end condition"
    JOIN = "join"


_STATUSES: Final = {s.value: s for s in FigureStatus}


@dataclass(frozen=True)
class Overrule:
    """One ruling of the DM's between rounds.

    ``damage``/``heal`` ``amount`` hit points (a figure at 0 or below falls, unconscious or dead by the fight's
    ``dead_at``; healed above 0 an unconscious figure is back); ``status``: ``status`` (``fled``, ``surrendered``,
    ``dead``, ``unconscious``, ``active``...); ``condition``: ``condition`` (an id of
    :data:`~combatkit.conditions.CONDITIONS`) for the next ``rounds`` rounds; ``end condition``: ``condition`` ends
    now; ``join``: ``combatant`` joins the fight beside its side."""

    do: OverruleKind
    figure: str
    amount: int = 0
    status: str = ""
    condition: str = ""
    rounds: int = 1
    combatant: Combatant | None = None
    note: str = ""
    """The DM's reason, logged with the ruling."""

    def words(self) -> str:
        """The ruling in a few words: ``Goblin 2 takes 4 damage``."""
        what = {
            OverruleKind.DAMAGE: f"{self.figure} takes {self.amount} damage",
            OverruleKind.HEAL: f"{self.figure} is healed {self.amount} hit points",
            OverruleKind.STATUS: f"{self.figure} is {self.status}",
            OverruleKind.CONDITION: f"{self.figure} is {self.condition.replace('_', ' ')} for {self.rounds} "
                                    f"round{'s' if self.rounds != 1 else ''}",
            OverruleKind.END_CONDITION: f"{self.figure} is no longer {self.condition.replace('_', ' ')}",
            OverruleKind.JOIN: f"{self.figure} joins the fight",
        }[self.do]
        return f"{what} ({self.note})" if self.note else what


@dataclass(frozen=True)
class Step:
    """One thing done at the table: a round played (its ``intents``, None for the proposed ones, and the ``rolls``
    typed for it) or a ruling (``overrule``)."""

    intents: tuple[Intent, ...] | None = None
    rolls: Mapping[str, int | tuple[int, ...]] | None = None
    overrule: Overrule | None = None


@dataclass(frozen=True)
class RoundPreview:
    """A round tried before it is played (:meth:`TableFight.preview`)."""

    result: RoundResult
    """The round as the dice so far make it."""
    dice: tuple[RoundDie, ...]
    """Every roll it asked for, in order."""
    needed: RoundDie | None
    """The first roll the table has still to type (the table rolls everything); None when none is missing."""

    def provisional(self, die: RoundDie) -> bool:
        """Whether ``die`` comes after the first roll still to type: asked for by the stand-in dice, and may
        not be asked for at all once that one is typed."""
        return self.needed is not None and self.dice.index(die) > self.dice.index(self.needed)


@dataclass(frozen=True)
class RosterRow:
    """One figure as the roster beside the chart shows it (:meth:`TableFight.roster`)."""

    name: str
    side: str
    hit_points: int | None
    """Now; None where the players are not to see it (a foe, :meth:`TableFight.roster` ``for_players``)."""
    max_hit_points: int | None
    status: str
    """``active``, ``dead``, ``unconscious``, ``asleep``, ``held``, ``fled``, ``surrendered``..."""
    conditions: tuple[tuple[str, int | None], ...]
    """Each condition on it and the rounds it has left after this one (None: until removed)."""
    spells_left: tuple[str, ...]
    """Spells it has not begun (its own only, for players)."""
    holding: str | None
    """A spell held into the next round (000 §2 A)."""


class TableFight:
    """A fight at the table (module docstring). ``seed``: the dice combatkit rolls for what the table does not
    type; None, the table rolls everything. ``party``: the side the players play (default: the encounter's first
    figure's), whom the player view shows in full; of the others it shows only those the DM has revealed
    (:attr:`revealed`)."""

    def __init__(self, encounter: Encounter, system: str | None = None, *, seed: int | None = None,
                 party: str | None = None) -> None:
        if seed is not None and not is_whole(seed):
            raise RulesError("combatkit fights", f"seed is a whole number, or none for the table's dice, got {seed!r}")
        sides = encounter.sides
        if party is not None and party not in sides:
            raise RulesError("combatkit fights", f"the party is one of the sides, {', '.join(sides)}; got {party!r}")
        self.start = encounter
        self.system = find_system(system or encounter.system)
        self.seed = seed
        self.party = party if party is not None else encounter.combatants[0].side
        self.revealed: set[str] = set()
        """The foes the DM has shown the players (their names); they see no foe's hit points."""
        self.steps: list[Step] = []
        self._rulings: list[Event] = []
        self._run = self._new_run(encounter)

    def _new_run(self, encounter: Encounter) -> FightRun:
        return FightRun(encounter, self.system.id, seed=_STAND_IN_SEED if self.seed is None else self.seed,
                        system_options=self.system.encounter_options(encounter))

    # -- what stands

    @property
    def encounter(self) -> Encounter:
        """The encounter as it stands: the one begun with, and any late arrivals."""
        return self._run.encounter

    @property
    def round(self) -> int:
        """Rounds played."""
        return self._run.played

    @property
    def figures(self) -> tuple[Figure, ...]:
        """Every figure as the last round (and the rulings since) left it."""
        return tuple(self._run.figures)

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        """Each round played, in order."""
        return tuple(self._run.rounds)

    @property
    def dice(self) -> tuple[RoundDie, ...]:
        """The rolls of the last round played."""
        return self._run.dice

    @property
    def over(self) -> bool:
        """Whether one side, or none, is left acting."""
        return self._run.over

    def fight(self) -> Fight:
        """The fight so far as :func:`~combatkit.fight.run_fight` reports one."""
        return self._run.fight()

    def figure(self, name: str) -> Figure:
        for f in self._run.figures:
            if f.name == name:
                return f
        raise RulesError("the DM's ruling", f"no figure called {name!r}; they are "
                                            f"{', '.join(f.name for f in self._run.figures)}")

    def events(self) -> tuple[Event, ...]:
        """Every event of every round, with the rulings between them, in order."""
        out: list[Event] = []
        rulings = iter(self._rulings)
        ruling = next(rulings, None)
        for r in self._run.rounds:
            while ruling is not None and ruling.round < r.round:
                out.append(ruling)
                ruling = next(rulings, None)
            out.extend(r.events)
        while ruling is not None:
            out.append(ruling)
            ruling = next(rulings, None)
        return tuple(out)

    def roster(self, *, for_players: bool = False) -> list[RosterRow]:
        """Every figure as it stands, in the encounter's order: hit points, status, conditions and the rounds they
        have left, spells left, a spell held. ``for_players``: the party in full, the foes the DM revealed without
        their hit points or spells, the others not at all."""
        per_round = self.system.rules.phases
        rows = []
        for f in self._run.figures:
            ours = f.side == self.party
            if for_players and not ours and f.name not in self.revealed:
                continue
            secret = for_players and not ours
            conditions = tuple((a.condition.name, None if a.last >= FOREVER else
                                max(0, (a.last + 1 + per_round - 1) // per_round - self.round))
                               for a in f.conditions if a.last >= self.round * per_round)
            lasting = tuple((x.effect.kind.value, None if x.until is None else max(0, x.until - self.round))
                            for x in f.lasting)
            rows.append(RosterRow(
                f.name, f.side, None if secret else f.hit_points, None if secret else f.max_hit_points,
                f.status.value, conditions + lasting,
                () if secret else tuple(s.name for s in f.combatant.spells if s.name not in f.spells_used),
                None if secret else f.holding))
        return rows

    def log_rows(self) -> list[dict[str, object]]:
        """The fight log: one plain row per event (:meth:`~combatkit.resolution.Event.row`), rulings included."""
        return [e.row() for e in self.events()]

    def log_lines(self) -> list[str]:
        """The fight log in words, a heading per round."""
        lines: list[str] = [f"{self.start.title}: a fight under {self.system.title}, "
                            + (f"seed {self.seed}" if self.seed is not None else "the table's dice")]
        heading = 0
        for e in self.events():
            if e.round > heading and e.rule != RULING:
                heading = e.round
                lines.append(f"--- round {heading} ---")
            lines.append(e.line())
        return lines

    # -- a round

    def intents(self) -> tuple[Intent, ...]:
        """What the figures on the field mean to do next round unless the DM says otherwise."""
        return self._run.next_intents()

    def preview(self, intents: tuple[Intent, ...] | None = None,
                rolls: Mapping[str, int | tuple[int, ...]] | None = None) -> RoundPreview:
        """The next round tried with ``intents`` and the ``rolls`` typed so far, not played: its result and every
        roll it asks for. A number its dice cannot roll, or typed under a key no roll of the round is called,
        raises :class:`~combatkit.dice.EnteredRollError` naming it."""
        tried: list[tuple[RoundDie, ...]] = []
        result = self._run.play_round(intents, rolls, accept=tried.append, trial=True)
        assert result is not None  # a table fight is explained
        dice = tried[0]
        return RoundPreview(result, dice, _first_untyped(dice) if self.seed is None else None)

    def play(self, intents: tuple[Intent, ...] | None = None,
             rolls: Mapping[str, int | tuple[int, ...]] | None = None) -> RoundResult:
        """Play the next round with ``intents`` (None: :meth:`intents`) and the ``rolls`` typed at the table
        (keys as :attr:`RoundDie.key` gives them), and carry everything forward. The table rolls everything
        (no seed): refused with :class:`RollNeededError` while a roll it asks for is not typed. The step kept (and
        saved) holds the typed rolls the round used."""
        if self.over:
            raise RulesError("combatkit fights", f"the fight is over after round {self.round}: "
                                                 f"{self.fight().undecided_why or 'side ' + repr(self.fight().winner) + ' wins'}")
        r = self.round + 1

        def all_typed(dice: tuple[RoundDie, ...]) -> None:
            needed = _first_untyped(dice)
            if needed is not None:
                raise RollNeededError(needed, r)

        result = self._run.play_round(intents, rolls, accept=all_typed if self.seed is None else None)
        assert result is not None
        used = {d.key for d in self._run.dice}
        self.steps.append(Step(intents=intents, rolls={k: v for k, v in (rolls or {}).items()
                                                       if in_round(k, r) in used}))
        return result

    # -- the DM's hand

    def overrule(self, ruling: Overrule) -> None:
        """Apply the DM's ``ruling`` now, and log it (:class:`Overrule`)."""
        run = self._run
        if ruling.do is OverruleKind.JOIN:
            self._join(ruling)
        else:
            i = run.figures.index(self.figure(ruling.figure))
            run.figures[i] = self._ruled(run.figures[i], ruling)
        self.steps.append(Step(overrule=ruling))
        self._rulings.append(Event(self.round, 0, ruling.figure, EventKind.NOTE, RULING,
                                   f"The DM rules: {ruling.words()}.", outcome=ruling.do.value,
                                   amount=ruling.amount, hit_points=self._hit_points(ruling.figure),
                                   when=f"after round {self.round}" if self.round else "before round 1"))

    def _hit_points(self, name: str) -> int | None:
        return next((f.hit_points for f in self._run.figures if f.name == name), None)

    def _ruled(self, f: Figure, ruling: Overrule) -> Figure:
        do = ruling.do
        if do in (OverruleKind.DAMAGE, OverruleKind.HEAL):
            if not is_whole(ruling.amount) or ruling.amount < 1:
                raise RulesError(RULING, f"{do.value} is a whole number of hit points, 1 or more, got "
                                         f"{ruling.amount!r}")
            if do is OverruleKind.HEAL:
                hp = min(f.max_hit_points, f.hit_points + ruling.amount)
                status = FigureStatus.ACTIVE if f.status is FigureStatus.UNCONSCIOUS and hp > 0 else f.status
                return replace(f, hit_points=hp, status=status, fell=None if status is FigureStatus.ACTIVE else f.fell)
            hp = f.hit_points - ruling.amount
            status = f.status
            if hp <= 0 and f.status is not FigureStatus.DEAD:
                status = (FigureStatus.DEAD if hp <= self._run.options.resolution.dead_at
                          else FigureStatus.UNCONSCIOUS)
            return replace(f, hit_points=hp, damage_taken=f.damage_taken + ruling.amount, status=status,
                           fell=f.fell if status is f.status else (self.round, 0))
        if do is OverruleKind.STATUS:
            ruled = _STATUSES.get(ruling.status)
            if ruled is None:
                raise RulesError(RULING, f"a figure's status is one of {', '.join(_STATUSES)}, got {ruling.status!r}")
            return replace(f, status=ruled, fell=None if ruled is FigureStatus.ACTIVE else (f.fell or (self.round, 0)))
        condition = CONDITIONS.get(ruling.condition)
        if condition is None:
            raise RulesError(RULING, f"no condition {ruling.condition!r}; they are {', '.join(sorted(CONDITIONS))}")
        if do is OverruleKind.END_CONDITION:
            return replace(f, conditions=tuple(a for a in f.conditions if a.condition.id != condition.id))
        if not is_whole(ruling.rounds) or ruling.rounds < 1:
            raise RulesError(RULING, f"a condition lasts a whole number of rounds, 1 or more, got {ruling.rounds!r}")
        per_round = self.system.rules.phases
        kept = tuple(a for a in f.conditions if a.condition.id != condition.id)
        return replace(f, conditions=kept + (ActiveCondition(condition, self.round * per_round,
                                                             (self.round + ruling.rounds) * per_round - 1, RULING),))

    def _join(self, ruling: Overrule) -> None:
        c = ruling.combatant
        if c is None or c.name != ruling.figure:
            raise RulesError(RULING, f"a late arrival names the combatant that joins, got {c!r}")
        run = self._run
        if any(f.name == c.name for f in run.figures):
            raise RulesError(RULING, f"a figure called {c.name!r} is in the fight already: give the newcomer "
                                     f"another name")
        side = [f.position for f in run.figures if f.side == c.side and is_present(f.status)]
        others = [f.position for f in run.figures if f.side != c.side]
        position = side[0] if side else (max(others) + run.options.opening_gap if others else 0)
        run.encounter = replace(run.encounter, combatants=run.encounter.combatants + (c,))
        run.figures.append(Figure(c, c.hit_points, position))
        run.cache.clear()  # keyed on the encounter's figures by name: worked out afresh with the newcomer

    # -- undo, save, load

    def undo(self) -> Step:
        """Take back the last round or ruling (replayed from the start without it); the step undone."""
        if not self.steps:
            raise RulesError("combatkit fights", "nothing to undo: no round played and no ruling made yet")
        kept = self.steps[:-1]
        undone = self.steps[-1]
        again = _replayed(self.start, self.system.id, self.seed, kept)
        self.steps, self._rulings, self._run = again.steps, again._rulings, again._run
        return undone

    def dumps(self) -> str:
        """The fight as TOML: the encounter begun with, the system, the seed, and every step (:func:`loads_fight`)."""
        data: dict[str, Any] = {"combatkit_fight": FORMAT, "system": self.system.id, "party": self.party}
        if self.seed is not None:
            data["seed"] = self.seed
        if self.revealed:
            data["revealed"] = sorted(self.revealed)
        data["encounter"] = encounter_to_dict(self.start)
        data["steps"] = [self._step_table(s) for s in self.steps]
        return tomli_w.dumps(data)

    def _step_table(self, step: Step) -> dict[str, Any]:
        if step.overrule is None:
            out: dict[str, Any] = {"do": "round"}
            if step.intents is not None:
                out["intents"] = encounter_to_dict(replace(self.encounter, intents=step.intents)).get("intents", [])
            if step.rolls:
                out["rolls"] = {k: list(v) if isinstance(v, tuple) else v for k, v in step.rolls.items()}
            return out
        o = step.overrule
        out = {"do": o.do.value, "figure": o.figure}
        if o.do in (OverruleKind.DAMAGE, OverruleKind.HEAL):
            out["amount"] = o.amount
        elif o.do is OverruleKind.STATUS:
            out["status"] = o.status
        elif o.do in (OverruleKind.CONDITION, OverruleKind.END_CONDITION):
            out["condition"] = o.condition
            if o.do is OverruleKind.CONDITION:
                out["rounds"] = o.rounds
        else:
            assert o.combatant is not None
            out["combatant"] = encounter_to_dict(replace(_alone(self.encounter), combatants=(o.combatant,))
                                                 )["combatants"][0]
        if o.note:
            out["note"] = o.note
        return out


def _alone(encounter: Encounter) -> Encounter:
    """``encounter`` with nothing that names its figures (intents, refinements, declarations, distances, hits,
    rolls): the frame a late arrival's combatant is written in and read back."""
    return replace(encounter, intents=(), refinements=(), declarations=(), distances=(), hits=(), rolls={})


def _first_untyped(dice: tuple[RoundDie, ...]) -> RoundDie | None:
    """The first of a round's rolls the table has not typed."""
    return next((d for d in dice if not d.typed), None)


def _replayed(encounter: Encounter, system: str, seed: int | None, steps: list[Step]) -> TableFight:
    table = TableFight(encounter, system, seed=seed)
    for step in steps:
        if step.overrule is not None:
            table.overrule(step.overrule)
        else:
            table.play(step.intents, step.rolls)
    return table


def loads_fight(text: str) -> TableFight:
    """The fight a file written by :meth:`TableFight.dumps` holds, replayed step by step to the same state. A file
    the rules refuse (edited by hand into a roll no die makes, a figure no one is) is refused naming the step, its
    round and the field (:class:`FightFileError`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FightFileError("fight file", f"is not TOML: {error}") from None
    version = data.get("combatkit_fight")
    if version != FORMAT:
        raise FightFileError("combatkit_fight", f"is the fight file's version, {FORMAT}, got {version!r}")
    seed = data.get("seed")
    if seed is not None and not is_whole(seed):
        raise FightFileError("seed", f"is a whole number, or left out for the table's dice, got {seed!r}")
    try:
        encounter = encounter_from_dict(data.get("encounter", {}))
    except EncounterFileError as error:
        raise FightFileError(f"encounter.{error.field}", error.message) from None
    try:
        table = TableFight(encounter, data.get("system"), seed=seed, party=data.get("party"))
    except RulesError as error:
        raise FightFileError("system" if "party" not in error.message else "party", error.message) from None
    revealed = data.get("revealed", [])
    names = {c.name for c in encounter.combatants}
    if not isinstance(revealed, list) or not all(isinstance(n, str) for n in revealed):
        raise FightFileError("revealed", f"is a list of the foes' names shown to the players, got {revealed!r}")
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise FightFileError("steps", f"is a list of steps, got {steps!r}")
    for n, raw in enumerate(steps):
        where = f"steps[{n}] (after round {table.round})"
        if not isinstance(raw, dict):
            raise FightFileError(where, f"is a table, got {raw!r}")
        try:
            _replay_step(table, raw, where)
        except FightFileError:
            raise
        except EncounterFileError as error:
            raise FightFileError(f"{where}.{error.field}", error.message) from None
        except (RulesError, EnteredRollError) as error:
            field = "rolls" if isinstance(error, EnteredRollError) else raw.get("do", "do")
            raise FightFileError(f"{where}.{field}", getattr(error, "message", str(error))) from None
    names |= {f.name for f in table.figures}
    unknown = [n for n in revealed if n not in names]
    if unknown:
        raise FightFileError("revealed", f"names no figure of the fight: {unknown[0]!r}")
    table.revealed = set(revealed)
    return table


def _replay_step(table: TableFight, raw: dict[str, Any], where: str) -> None:
    do = raw.get("do")
    if do == "round":
        known = {"do", "intents", "rolls"}
        _only(raw, known, where)
        intents = None
        if "intents" in raw:
            intents = encounter_from_dict(encounter_to_dict(replace(table.encounter, intents=(), refinements=())) | {
                "intents": raw["intents"]}).intents  # the DM's own: the encounter's refinements are not of them
        rolls = raw.get("rolls", {})
        if not isinstance(rolls, dict):
            raise FightFileError(f"{where}.rolls", f"is a table of rolls, got {rolls!r}")
        table.play(intents, {k: tuple(v) if isinstance(v, list) else v for k, v in rolls.items()})
        return
    kinds = {k.value: k for k in OverruleKind}
    if do not in kinds:
        raise FightFileError(f"{where}.do", f"is round or one of {', '.join(kinds)}, got {do!r}")
    kind = kinds[do]
    _only(raw, {"do", "figure", "amount", "status", "condition", "rounds", "combatant", "note"}, where)
    combatant = None
    if kind is OverruleKind.JOIN:
        combatant = encounter_from_dict(encounter_to_dict(_alone(table.encounter)) | {
            "combatants": [raw.get("combatant", {})]}).combatants[0]
    table.overrule(Overrule(kind, str(raw.get("figure", combatant.name if combatant else "")),
                            amount=raw.get("amount", 0), status=raw.get("status", ""),
                            condition=raw.get("condition", ""), rounds=raw.get("rounds", 1), combatant=combatant,
                            note=raw.get("note", "")))


def _only(raw: Mapping[str, Any], known: set[str], where: str) -> None:
    extra = sorted(set(raw) - known)
    if extra:
        raise FightFileError(f"{where}.{extra[0]}", f"is not a field of this step; it has {', '.join(sorted(known))}")
