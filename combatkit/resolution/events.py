"""What a resolved round reports: each :class:`Event` (time, actor, what, rule, why) and the
:class:`RoundResult`. Part of :mod:`combatkit.resolution`, which exports them."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from combatkit.battle import Figure
from combatkit.model import Declaration
from combatkit.timeline import Timeline

__all__ = ["Event", "EventKind", "RoundResult"]


class EventKind(enum.Enum):
    """What happened."""

    ATTACK = "attack"
    """An attack rolled (or an automatic hit): ``outcome`` says hit or miss, ``amount`` the damage."""
    SPELL = "spell"
    """A spell went off."""
    SPELL_RUINED = "spell ruined"
    SPELL_CANCELLED = "spell cancelled"
    EFFECT = "effect"
    """A spell's effect on one figure (damage, healing, sleep, hold, a condition...), after its saving throw:
    ``outcome`` says which (``"hit"``, ``"healed"``, ``"held"``, ``"web"``, ``"saved"``...)."""
    NO_EFFECT_DATA = "no effect data"
    """A spell went off that has no effect data (:func:`combatkit.effects.spell_effect`): the engine applied
    nothing. ``outcome`` is ``"no effect data"``."""
    RECOVER = "recover"
    """A figure a spell put out of the fight (asleep, held, frightened) is back in it: the spell ended."""
    MOVE = "move"
    CHARGE = "charge"
    FLEE = "flee"
    FALL = "fall"
    """A figure dies, falls unconscious, sleeps, is held, is charmed, flees the fight or flees in a spell's
    fear: ``outcome`` says which."""
    CANCELLED = "cancelled"
    """An action that did not happen: its actor fell, its target was gone, it could not reach."""
    RETARGET = "retarget"
    CONDITION = "condition"
    SURPRISE = "surprise"
    REFUSED = "refused"
    """A declaration the timing system refused (the figure does nothing instead)."""
    DYING_BLOW = "dying blow"
    """003 §I Option: the save vs. death of a figure killed one segment before its blow."""
    MORALE = "morale"
    """A morale check rolled (001 I. Morale): ``outcome`` ``"held"`` or ``"broke"``, ``amount`` the 2d6 roll."""
    RALLY = "rally"
    """A rally (001 I. Morale: Rally): ``outcome`` ``"rallied"`` or ``"failed"`` for a broken ally's roll, ``"none"``
    when no broken ally is near."""
    NOTE = "note"


@dataclass(frozen=True)
class Event:
    """One happening, with its time and the rule that made it so."""

    round: int
    """Round of the fight, from 1."""
    tick: int
    """Tick on the round's clock."""
    actor: str
    """Who acted (or to whom it happened)."""
    kind: EventKind
    """What happened."""
    rule: str
    """The seed (or PH/DMG) rule, cited."""
    why: str = ""
    """In plain words, with the numbers (empty on the fast path)."""
    target: str | None = None
    """Whom it was aimed at."""
    outcome: str = ""
    """``"hit"``, ``"miss"``, ``"dead"``, ``"saved"``..."""
    amount: int = 0
    """Damage dealt or hit points healed."""
    hit_points: int | None = None
    """The target's (or actor's) hit points after it."""
    when: str = ""
    """The tick in words (empty on the fast path)."""

    def row(self) -> dict[str, object]:
        """One long-form row (plain types)."""
        return {"round": self.round, "tick": self.tick, "when": self.when, "actor": self.actor,
                "kind": self.kind.value, "target": self.target, "outcome": self.outcome, "amount": self.amount,
                "hit_points": self.hit_points, "rule": self.rule, "why": self.why}

    def line(self) -> str:
        """``"round 1, half-segment 4 (phase 1): Aldric hits Grishnak for 6. ... [000 ...]"``."""
        when = self.when or f"tick {self.tick}"
        return f"round {self.round}, {when}: {self.why} [{self.rule}]"


@dataclass(frozen=True)
class RoundResult:
    """One round played out."""

    round: int
    """Round of the fight, from 1."""
    system: str
    """The timing system's id."""
    timeline: Timeline
    """The round as it happened: each span's final status, and why."""
    events: tuple[Event, ...]
    """Everything that happened, in order (empty on the fast path)."""
    figures: tuple[Figure, ...]
    """Every figure after the round."""
    declarations: tuple[Declaration, ...] = ()
    """What was declared."""

    def __init__(self, round: int, system: str, timeline: Timeline, events: tuple[Event, ...],
                 figures: tuple[Figure, ...], declarations: tuple[Declaration, ...] = ()) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes one a round (#18).
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "system", system)
        object.__setattr__(self, "timeline", timeline)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "figures", figures)
        object.__setattr__(self, "declarations", declarations)

    def figure(self, name: str) -> Figure:
        return next(f for f in self.figures if f.name == name)

    def why(self) -> list[str]:
        """The timeline's notes, then one line per event."""
        return [*self.timeline.notes, *(e.line() for e in self.events)]
