"""Movement: moves along the battle line (:mod:`combatkit.battle`), flights and withdrawals with
their free attacks, and 000's charges (:mod:`combatkit.movement`).

A move toward a target stops at striking distance. A flight (a move declared with
``maneuver = "flee"``) draws the free attacks of its seed (:attr:`SystemRules.flight
<combatkit.systems.rules.SystemRules.flight>`); withdrawing draws none and goes the seed's
withdrawal allowance; a fleeing figure out of every foe's reach, with no foe faster than it,
has fled the fight (002 Breaking Off II.B). A charge under :attr:`ChargeRule.COMBAT_II
<combatkit.systems.rules.ChargeRule.COMBAT_II>` accelerates, strikes and overruns, and the
defender answers (000 §2 D). The blows themselves are :func:`~combatkit.resolution.blows.strike`'s.
"""
from __future__ import annotations

import functools
import re
from dataclasses import replace

from combatkit.battle import REACH, FigureStatus, is_acting, is_present, routine
from combatkit.kinds import Length, Maneuver
from combatkit.model import Declaration
from combatkit.modifiers import Position, Situation
from combatkit.movement import (
    ChargeResponse,
    Speed,
    charge,
    charge_response,
    flight_free_attack,
    max_speed_next_phase,
)
import combatkit.resolution.blows as blows
import combatkit.resolution.spells as spells
from combatkit.resolution.events import EventKind
from combatkit.resolution.state import Action, Live, WalkState
from combatkit.systems.rules import ChargeRule, Flight
from combatkit.timeline import Span, SpanKind, Status, Tick


def move(walk: WalkState, live: Live, action: Action, t: Tick) -> None:
    """A move span at tick t: a flight or withdrawal, a charge, or a move (toward its target, if any)."""
    span, decl = action.span, action.declaration
    for condition in walk.conditions_on(live, t):
        if not condition.can_move:
            walk.cancel(live, span, t, condition.rule, f"{live.name} is {condition.name}: no movement.")
            return
    maneuver = decl.maneuver if decl is not None else None
    if maneuver in (Maneuver.WITHDRAW, Maneuver.FLEE):
        _flee(walk, live, span, decl, t, withdraw=maneuver is Maneuver.WITHDRAW)
        return
    target = walk.live.get(span.target or (decl.target if decl else None) or "")
    if maneuver is Maneuver.CHARGE and target is not None and walk.rules.charge is ChargeRule.COMBAT_II:
        _charge(walk, live, target, span, t)
        return
    feet = _paced(walk, live, t, _feet(walk, live, span, decl))
    if target is None or not is_present(target.status):
        walk.event(t, live.name, EventKind.MOVE, span.rule, f"{live.name}: {span.action}.", amount=feet)
        walk.record(span)
        return
    gap = abs(target.position - live.position)
    step = min(feet, max(0, gap - REACH))
    live.position += step if target.position > live.position else -step
    walk.event(t, live.name, EventKind.MOVE, span.rule,
               f"{live.name} moves {step}' toward {target.name}, now {abs(target.position - live.position)}' "
               f"away." if walk.explain else "", target=target.name, amount=step)
    walk.record(span)


def _feet(walk: WalkState, live: Live, span: Span, decl: Declaration | None) -> int:
    if decl is not None and decl.feet is not None:
        return decl.feet
    feet = _feet_in(span.action)
    return feet if feet is not None else walk.rules.move_allowance(live.c.movement)


@functools.lru_cache(maxsize=1024)
def _feet_in(action: str) -> int | None:
    """The feet a move's action names (``"move 30' -> orc"``: 30), read once an action's text (#18)."""
    found = re.search(r"(\d+)'", action)
    return int(found.group(1)) if found else None


def _paced(walk: WalkState, live: Live, t: Tick, feet: int) -> int:
    """A hasted figure's move goes twice as far, a slowed one's half as far (PH 2e haste, slow)."""
    if not live.conditions:  # no haste or slow to read: the move as declared, with no Fraction built (#18)
        return feet
    return int(feet * spells.pace(walk, live, t))


def _flee(walk: WalkState, live: Live, span: Span, decl: Declaration | None, t: Tick, withdraw: bool) -> None:
    foes = [f for f in walk.live.values() if f.fig.side != live.fig.side and f.acts_at(t)]
    rule = walk.rules.flee_rule or span.rule
    if not withdraw:
        rule = free_attacks(walk, live, span, t, rule)
    if live.hp <= 0:
        walk.cancel(live, span, t, rule, f"{live.name} is cut down as it turns to flee.")
        return
    allowance = walk.rules.withdraw_allowance
    feet = _paced(walk, live, t, allowance(live.c.movement) if withdraw and allowance is not None
                  else _feet(walk, live, span, decl))
    nearest = min(foes, key=lambda f: abs(f.position - live.position), default=None)
    away = -1 if nearest is not None and nearest.position >= live.position else 1
    live.position += away * feet
    walk.event(t, live.name, EventKind.FLEE, rule,
               f"{live.name} {'withdraws' if withdraw else 'flees'} {feet}'." if walk.explain else "", amount=feet)
    walk.record(span)
    clear = all(abs(f.position - live.position) > REACH for f in foes)
    faster = any(f.c.movement > live.c.movement for f in foes if is_acting(f.status))
    if clear and not faster and not withdraw:
        walk.fall(live, t, FigureStatus.FLED)


def free_attacks(walk: WalkState, live: Live, span: Span, t: Tick, rule: str) -> str:
    """The free attacks ``live``, fleeing melee at tick t (``span``: its flight), draws from the foes engaged with it
    (:attr:`SystemRules.flight <combatkit.systems.rules.SystemRules.flight>`; none without one); returns the rule the
    last was made under, else ``rule``."""
    if walk.rules.flight is None:
        return rule
    foes = [f for f in walk.live.values() if f.fig.side != live.fig.side and f.acts_at(t)]
    engaged = [f for f in foes if abs(f.position - live.position) <= REACH]
    for foe in engaged:
        if any(not c.can_attack for c in walk.conditions_on(foe, t)):
            continue
        if walk.rules.flight is Flight.COMBAT_II:
            allies = [a for a in walk.live.values() if a.fig.side == live.fig.side and a is not live
                      and is_acting(a.status) and abs(a.position - foe.position) <= REACH]
            verdict = flight_free_attack(
                fleeing_won_initiative=span.track == "winner",
                opponent_struck_this_phase=walk.phase_index(t) in foe.struck_phases,
                opponent_mv=foe.c.movement, fleeing_mv=live.c.movement, interposed=bool(allies))
            rule, position = verdict.rule, Position.FRONT
            if not verdict.free_attack:
                walk.event(t, foe.name, EventKind.NOTE, rule, verdict.why, target=live.name)
                continue
        else:
            rule, position = walk.rules.flight.value, Position.REAR
        weapons = routine(foe.c, foe.extras)
        free = Span(foe.name, foe.fig.side, SpanKind.ATTACK, f"free attack -> {live.name}", t, t, span.period, rule,
                    f"{live.name} flees: {foe.name} gets a free attack.", target=live.name, what="free attack")
        walk.event(t, foe.name, EventKind.NOTE, rule, f"{live.name} flees: {foe.name} gets a free attack.",
                   target=live.name)
        situation = replace(blows.situation_of(walk, foe, live, free, None, False, weapons) or Situation(),
                            position=position)
        blows.strike(walk, foe, Action(t, free, None, "free attack on a fleeing figure", weapons, live.name,
                                       situation), t)
    return rule


def _charge(walk: WalkState, live: Live, target: Live, span: Span, t: Tick) -> None:
    """000 §2 D Charging: accelerate, reach the target, strike, overrun; the defender answers."""
    base = live.c.movement
    gap = abs(target.position - live.position)
    speed = Speed(base, max_speed_next_phase(Speed(base)))
    plan = charge(speed, gap)
    direction = 1 if target.position >= live.position else -1
    walk.event(t, live.name, EventKind.CHARGE, "000 §2 D Charging",
               f"{live.name} charges {target.name} at MV {speed.current} (from a standstill, 000 §2 D "
               f"Acceleration): {plan}." if walk.explain else "", target=target.name, amount=plan.covered)
    if not plan.reaches or not is_present(target.status):
        step = min(plan.covered, max(0, gap - REACH))
        live.position += direction * step
        walk.record(span)
        return
    readied = [a.span for _, _, _, a in walk.queue if a.span.actor == target.name and a.span.kind is SpanKind.READY]
    readied += walk.readied.get(target.name, [])
    is_set = target.acts_at(t) and any(s.status is Status.DONE and s.start <= t <= s.end
                                       and s.target in (None, live.name) for s in readied)
    mine = routine(live.c, live.extras)
    theirs = routine(target.c, target.extras)
    rule = "000 §2 D Charging"
    attack_span = replace(span, kind=SpanKind.ATTACK, action=f"charge: {' + '.join(w.name for w in mine)} -> {target.name}",
                          target=target.name, rule=rule, what="charge: " + ' + '.join(w.name for w in mine))
    walk.charging_now.add(live.name)
    blows.strike(walk, live, Action(t, attack_span, None, "charge", mine, target.name,
                                    blows.situation_of(walk, live, target, attack_span, None, False, mine)), t)
    if is_set:
        answer = replace(attack_span, actor=target.name, side=target.fig.side,
                         action=f"set: {' + '.join(w.name for w in theirs)} -> {live.name}", target=live.name,
                         what="set: " + ' + '.join(w.name for w in theirs), rule=rule, why="Set to receive the charge: a simultaneous return swing.")
        long = any(w.length in (Length.LONG, Length.VERY_LONG, Length.POLE_ARM) for w in theirs)
        blows.strike(walk, target, Action(t, answer, None, "set weapon", theirs, live.name,
                                          blows.situation_of(walk, target, live, answer, None, False, theirs),
                                          2 if long else 1), t)
    else:
        attacked = walk.phase_index(t) in target.struck_phases
        allowed = max((target.c.attacks_in_round(walk.encounter_round, w) for w in theirs), default=1)
        response, why = charge_response(set_to_receive=False, attacked_this_phase=attacked,
                                        attacks_left=allowed - target.attacks_made)
        if response is ChargeResponse.AFTER and target.hp > 0 and target.acts_at(t):
            answer = replace(attack_span, actor=target.name, side=target.fig.side,
                             action=f"counterattack: {' + '.join(w.name for w in theirs)} -> {live.name}",
                             what="counterattack: " + ' + '.join(w.name for w in theirs), target=live.name, rule=rule, why=why)
            blows.strike(walk, target, Action(t, answer, None, "counterattack", theirs, live.name,
                                              blows.situation_of(walk, target, live, answer, None, False, theirs)), t)
        else:
            walk.event(t, target.name, EventKind.NOTE, rule,
                       why if target.hp > 0 else f"{target.name} falls before it can respond.")
    walk.charging_now.discard(live.name)
    live.position = target.position + direction * plan.overrun
    walk.record(span, why=f"Charge: {plan}." if walk.explain else None)
