"""Morale checks and rallies (001 I. Morale & Record Keeping), rolled as the walk of a round reaches them.

001 names when a morale check is made and what failing one does, not the roll itself:

* **A giant's charge** (001 Morale Check Due to Charge): "If Charged by a dragon or other giant creature, all
  non-Heroic creatures (those with fewer than 4HD) must make a morale check immediately. The effects are applied
  immediately." The timing system places these checks (:attr:`SpanKind.MORALE <combatkit.timeline.SpanKind.MORALE>`
  spans at the charge's arrival); the walk rolls them there (:func:`check_span`), if the charger still comes on.
* **The remaining checks** (001 I. Morale: "Morale Checks: All remaining morale checks") in the morale step, after
  Last Actions and the rallies (:attr:`SystemRules.morale_step <combatkit.systems.rules.SystemRules.morale_step>`).
  001 names no other cause; combatkit reads "a side's losses" (OSE's cause) as: each side that lost figures this
  round (figures acting when the round began and no longer acting: killed, knocked out, asleep, held, charmed,
  fled or broken) checks, every non-Heroic figure of it still acting (:func:`losses`;
  ``MoraleOptions.side_losses``, ``MoraleOptions.heroic_side_checks``).
* **The roll** is OSE's, as the seed is written for OSE/OSRIC: 2d6, made at or under the figure's morale score
  (:attr:`Combatant.morale <combatkit.model.Combatant.morale>`, 2..12; none given: ``MoraleOptions.default``, 7);
  a score of 12 never breaks.
* **Failure** (001 Break & Run): "A character failing a morale check ... will simply try to flee without regard to
  the enemy. Such a character will suffer an immediate attack from the rear by an engaged foe." It draws those
  attacks (:func:`combatkit.resolution.moves.free_attacks`), runs a move away and is out of the fight, broken
  (status ``frightened``, with no spell behind it), round after round, until rallied; a side whose figures are all
  down or broken has lost.
* **Rally** (001 I. Morale: "Rally: Attempt to rally any close allies"), a declared action of the morale step, before
  the remaining checks: each broken ally within ``MoraleOptions.rally_feet`` (001 says "close"; combatkit reads
  120', a round's run at MV 12) rolls its morale check again; made, it is back in the fight where it stands.

Every roll is entered under ``morale: <name> [round r, tick t]`` or ``rally: <name> [round r, tick t]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from combatkit.battle import FigureStatus, Lasting, is_acting
from combatkit.dice import Dice
import combatkit.resolution.moves as moves
from combatkit.resolution.events import EventKind
from combatkit.resolution.options import MoraleOptions
from combatkit.resolution.state import Live, WalkState
from combatkit.timeline import Span, SpanKind, Tick

__all__ = ["HEROIC", "MORALE_DICE", "RALLY", "MoraleOptions", "check_span", "is_broken", "losses", "rally"]

MORALE_DICE: Final = Dice(2, 6)
"""OSE's morale roll: made at or under the morale score."""
HEROIC: Final = 4
"""001 Morale Check Due to Charge: "non-Heroic creatures (those with fewer than 4HD)"."""
RALLY: Final = "rally"
"""The mark (:attr:`Span.marks <combatkit.timeline.Span.marks>`) of a rally the timing system placed."""
_CHARGE_RULE: Final = "001 Morale Check Due to Charge"
_CHECKS_RULE: Final = "001 I. Morale & Record Keeping: Morale Checks"
_RALLY_RULE: Final = "001 I. Morale & Record Keeping: Rally"
_BREAK_RULE: Final = "001 Movement: Break & Run"


def score(walk: WalkState, live: Live) -> int:
    """``live``'s morale score: its own, else the default."""
    own = live.c.morale
    return own if own is not None else walk.options.morale.default


def _roll(walk: WalkState, live: Live, what: str, t: Tick) -> tuple[int, int, bool]:
    """Roll ``live``'s check (``what``: ``"morale"`` or ``"rally"``): the roll, the score, and whether it is made."""
    need = score(walk, live)
    rolled = walk.roll(MORALE_DICE, lambda: f"{what}: {live.name} [round {walk.round}, tick {t}]")
    return rolled, need, rolled <= need


def broken(live: Live) -> bool:
    """Whether ``live`` broke in a morale check and is not back (:func:`is_broken`)."""
    return is_broken(live.status, live.lasting)


def is_broken(status: FigureStatus, lasting: Sequence[Lasting]) -> bool:
    """Whether a figure with ``status`` and the spells' effects ``lasting`` on it broke in a morale check and is not
    back: out of the fight, fleeing, with no spell's fear behind it (a spell's fear is a
    :class:`~combatkit.battle.Lasting` that ends by itself). The default policy asks it of a
    :class:`~combatkit.battle.Figure` between rounds, the rally of a :class:`~combatkit.resolution.state.Live`."""
    return status is FigureStatus.FRIGHTENED and not any(item.status is FigureStatus.FRIGHTENED for item in lasting)


def check_span(walk: WalkState, live: Live, span: Span, t: Tick) -> None:
    """A morale check the timeline places (001 Morale Check Due to Charge), rolled at its tick."""
    charger = walk.live.get(span.target or "")
    if not is_acting(live.status) or (charger is not None and not charger.acts_at(t)):
        why = (f"{live.name} is {live.status.value} and makes no check." if not is_acting(live.status) else
               f"{span.target} no longer comes on: no check.")
        walk.cancel(live, span, t, _CHARGE_RULE, why)
        return
    rolled, need, made = _roll(walk, live, "morale", t)
    why = ""
    if walk.explain:
        size = charger.c.size.value if charger is not None else "giant"
        why = (f"{live.name} is charged by {span.target}, a {size} creature, and being non-Heroic (fewer than {HEROIC} "
               f"HD) makes a morale check at once: 2d6 rolled {rolled} against morale {need}, "
               + ("made: it stands its ground." if made else "failed: it breaks and runs."))
    walk.event(t, live.name, EventKind.MORALE, _CHARGE_RULE, why, target=span.target,
               outcome="held" if made else "broke", amount=rolled)
    walk.record(span)
    if not made:
        _break(walk, live, span, t)


def losses(walk: WalkState, t: Tick) -> None:
    """The morale step's remaining checks (001 I): each side that lost figures this round checks, at tick t."""
    if not walk.options.morale.side_losses:
        return
    period = walk.timeline.clock.period_of(t)
    label = period.label if period is not None else ""
    sides: dict[str, list[str]] = {}
    for live in walk.live.values():
        if is_acting(live.fig.status) and not is_acting(live.status):
            sides.setdefault(live.fig.side, []).append(live.name)
    heroic = walk.options.morale.heroic_side_checks
    for side, lost in sides.items():
        for live in walk.live.values():
            if live.fig.side != side or not is_acting(live.status) or (live.c.level >= HEROIC and not heroic):
                continue
            rolled, need, made = _roll(walk, live, "morale", t)
            why = ""
            if walk.explain:
                why = (f"{live.name}'s side lost {', '.join(lost)} this round, so {live.name} makes a morale check in "
                       f"the morale step: 2d6 rolled {rolled} against morale {need}, "
                       + ("made: it fights on." if made else "failed: it breaks and runs."))
            walk.event(t, live.name, EventKind.MORALE, _CHECKS_RULE, why, outcome="held" if made else "broke",
                       amount=rolled)
            span = Span(live.name, side, SpanKind.MORALE, "morale check: its side's losses", t, t, label, _CHECKS_RULE,
                        f"{live.name}'s side lost {', '.join(lost)} this round." if walk.explain else "")
            walk.record(span)
            if not made:
                _break(walk, live, span, t)


def rally(walk: WalkState, live: Live, span: Span, t: Tick) -> None:
    """001 I. Morale: Rally: each broken ally within ``rally_feet`` of ``live`` rolls its morale check again."""
    reach = walk.options.morale.rally_feet
    near = [a for a in walk.live.values() if a is not live and a.fig.side == live.fig.side and broken(a)
            and abs(a.position - live.position) <= reach]
    walk.record(span)
    if not near:
        walk.event(t, live.name, EventKind.RALLY, _RALLY_RULE,
                   f"{live.name} calls to rally its allies, but none within {reach}' has broken." if walk.explain
                   else "", outcome="none")
        return
    for ally in near:
        rolled, need, made = _roll(walk, ally, "rally", t)
        why = ""
        if walk.explain:
            why = (f"{live.name} rallies {ally.name}, who broke and is {abs(ally.position - live.position)}' away: "
                   f"2d6 rolled {rolled} against morale {need}, "
                   + ("made: it is back in the fight." if made else "failed: it keeps running."))
        walk.event(t, ally.name, EventKind.RALLY, _RALLY_RULE, why, target=live.name,
                   outcome="rallied" if made else "failed", amount=rolled)
        if made:
            ally.status, ally.down_at, ally.fell = FigureStatus.ACTIVE, None, None


def _break(walk: WalkState, live: Live, span: Span, t: Tick) -> None:
    """001 Break & Run: the engaged foes strike from the rear, then the figure runs a move away, broken."""
    moves.free_attacks(walk, live, span, t, _BREAK_RULE)
    if live.hp <= 0:
        return  # cut down as it turns: it falls when its seed says
    foes = [f for f in walk.live.values() if f.fig.side != live.fig.side and f.acts_at(t)]
    nearest = min(foes, key=lambda f: abs(f.position - live.position), default=None)
    feet = walk.rules.move_allowance(live.c.movement)
    live.position += (-1 if nearest is not None and nearest.position >= live.position else 1) * feet
    walk.event(t, live.name, EventKind.FLEE, _BREAK_RULE,
               f"{live.name} breaks and runs {feet}' without regard to the enemy, out of the fight until rallied."
               if walk.explain else "", amount=feet)
    walk.fall(live, t, FigureStatus.FRIGHTENED, rule=_BREAK_RULE)
