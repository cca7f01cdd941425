"""Spells: a cast span goes off, or is noted ruined or cancelled, and its effect (:mod:`combatkit.effects`)
lands with its saving throws.

A figure stunned or prone cannot cast (002 Prone spellcasters); a completed cast held
(000 §2 A) goes off when its hold ends. A single-target spell whose target is gone goes at
the nearest other foe (a heal at the most wounded friend); an area spell goes off where aimed.
Damage is the walk's (:meth:`Walk.damage <combatkit.resolution.walk.Walk.damage>`), and so is
re-timing the round when it hits a caster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from combatkit.battle import FigureStatus
from combatkit.dice import Dice
from combatkit.effects import EffectKind, Save, SpellEffect, saving_throw, spell_effect
from combatkit.model import Combatant
from combatkit.resolution.events import EventKind
from combatkit.resolution.state import D20, Action, Live
from combatkit.timeline import Span, SpanKind, Status, Tick

if TYPE_CHECKING:
    from combatkit.resolution.walk import Walk

_CANNOT_CAST = frozenset({"stunned", "prone", "knocked_prone", "overborne"})


def held_later(walk: Walk, name: str, span: Span) -> bool:
    """A completed cast whose release waits on a hold span still to come."""
    return span.kind is SpanKind.CAST and any(a.span.actor == name and a.span.kind is SpanKind.HOLD for _, _, _, a in walk.queue)


def not_done(walk: Walk, live: Live, span: Span, t: Tick) -> None:
    """A cast the timing system ruined or cancelled: it is reported, and a ruined spell is used up."""
    live.tally["spells_attempted"] += 1
    name = spell_name(live.c, span)
    if span.status is Status.RUINED:
        if name and name not in live.spells_used:
            live.spells_used.append(name)
        walk.event(t, live.name, EventKind.SPELL_RUINED, span.rule,
                   f"{live.name}'s {name or 'spell'} is ruined. {span.why}" if walk.explain else "",
                   outcome="ruined")
    else:
        walk.event(t, live.name, EventKind.SPELL_CANCELLED, span.rule,
                   f"{live.name}'s {name or 'spell'} does not go off. {span.why}" if walk.explain else "",
                   outcome="cancelled")


def cast(walk: Walk, live: Live, action: Action, t: Tick) -> None:
    """A completed cast goes off at tick t (unless its caster cannot cast), then takes effect."""
    span = action.span
    c = live.c
    name = spell_name(c, span)
    for condition in walk.conditions_on(live, t):
        if condition.id in _CANNOT_CAST:
            live.tally["spells_attempted"] += 1
            walk.cancel(live, span, t, "002 Special Types of Attacks III.C" if condition.id != "stunned"
                        else condition.rule, f"{live.name} is {condition.name} and cannot cast.")
            return
    live.tally["spells_attempted"] += 1
    if name is None:
        walk.event(t, live.name, EventKind.SPELL, span.rule, f"{live.name}: {span.action}.")
        walk.record(span)
        return
    spell = c.spell(name)
    if "M" in spell.component_set and walk.rules.components_in_hand:
        live.components = False
    if name not in live.spells_used:
        live.spells_used.append(name)
    live.tally["spells_succeeded"] += 1
    effect = spell_effect(name, walk.options.spell_effects)
    walk.event(t, live.name, EventKind.SPELL, span.rule,
               f"{live.name}'s {name} goes off" + (f" at {span.target}" if span.target else "") + "." if walk.explain
               else "", target=span.target, outcome="done")
    walk.record(span)
    if effect is None:
        walk.event(t, live.name, EventKind.NOTE, "combatkit spell effects",
                   f"No effect data for {name}: the referee applies it.")
        return
    _effect(walk, live, effect, span.target, t, spell.name)


def _effect(walk: Walk, caster: Live, effect: SpellEffect, aimed: str | None, t: Tick, spell: str) -> None:
    friends = not effect.hostile
    target = walk.live.get(aimed) if aimed else None
    if target is None or not target.present_at(t) or (target.fig.side == caster.fig.side) != friends:
        target = _spell_target(walk, caster, effect, t)
        if target is None:
            walk.event(t, caster.name, EventKind.NOTE, effect.rule, f"{spell} finds no one to affect.")
            return
    level = caster.c.level
    if effect.radius:
        affected = [f for f in walk.live.values() if f.present_at(t)
                    and abs(f.position - target.position) <= effect.radius]
    else:
        affected = [target]
    key = f"round {walk.round}, tick {t}"
    if effect.kind is EffectKind.SLEEP:
        _sleep(walk, caster, effect, affected, t, key, spell)
        return
    amount = 0
    if effect.kind in (EffectKind.DAMAGE, EffectKind.HEAL):
        dice = Dice.parse(effect.dice)
        units = effect.units(level)
        amount = sum(walk.roll(dice, lambda i=i: f"{spell}: {caster.name} [{key}, {i + 1}]") for i in range(units))
        amount += effect.bonus(level)
    for figure in affected:
        saved = False
        if effect.save is not Save.NONE:
            need = saving_throw(figure.c, "spell")
            roll = walk.roll(D20, lambda f=figure: f"save vs spell: {f.name} [{key}]")
            saved = roll >= need
        if effect.kind is EffectKind.HEAL:
            before = figure.hp
            figure.hp = min(figure.fig.max_hit_points, figure.hp + amount)
            walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
                       f"{spell} heals {figure.name} {figure.hp - before} ({figure.hp} hp).", target=figure.name,
                       outcome="healed", amount=figure.hp - before, hit_points=figure.hp)
            continue
        if effect.kind is EffectKind.HOLD:
            if saved:
                walk.event(t, caster.name, EventKind.EFFECT, effect.rule, f"{figure.name} saves vs. {spell}.",
                           target=figure.name, outcome="saved")
            elif figure.status.acts:
                walk.event(t, caster.name, EventKind.EFFECT, effect.rule, f"{figure.name} is held by {spell}.",
                           target=figure.name, outcome="held")
                walk.fall(figure, t, FigureStatus.HELD)
            continue
        dealt = 0 if saved and effect.save is Save.NEGATES else amount // 2 if saved else amount
        walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
                   f"{spell} hits {figure.name} for {dealt}" + (" (saved)" if saved else "") + ".",
                   target=figure.name, outcome="saved" if saved else "hit", amount=dealt,
                   hit_points=figure.hp - dealt)
        if dealt:
            walk.damage(figure, dealt, t, caster)


def _sleep(walk: Walk, caster: Live, effect: SpellEffect, affected: list[Live], t: Tick, key: str, spell: str) -> None:
    top = effect.max_level if effect.max_level is not None else 40
    sleepers = sorted((f for f in affected if f.status.acts and f.c.level <= top),
                      key=lambda f: (f.c.level, list(walk.live).index(f.name)))
    if not sleepers:
        walk.event(t, caster.name, EventKind.EFFECT, effect.rule, f"{spell}: no one in the area can be affected.")
        return
    table = effect.count_by_level
    count_spec = table[min(sleepers[0].c.level, len(table) - 1)] if table else 1
    count = count_spec if isinstance(count_spec, int) else walk.roll(
        Dice.parse(count_spec), lambda: f"{spell}: {caster.name} [{key}, number affected]")
    for figure in sleepers[:count]:
        walk.event(t, caster.name, EventKind.EFFECT, effect.rule, f"{figure.name} falls asleep.",
                   target=figure.name, outcome="asleep")
        walk.fall(figure, t, FigureStatus.ASLEEP)


def _spell_target(walk: Walk, caster: Live, effect: SpellEffect, t: Tick) -> Live | None:
    if effect.kind is EffectKind.HEAL:
        friends = [f for f in walk.live.values() if f.fig.side == caster.fig.side and f.status.acts
                   and f.hp < f.fig.max_hit_points]
        return min(friends, key=lambda f: f.hp - f.fig.max_hit_points, default=None)
    foes = [f for f in walk.live.values() if f.fig.side != caster.fig.side and f.present_at(t)
            and f.status.present]
    return min(foes, key=lambda f: (abs(f.position - caster.position), list(walk.live).index(f.name)),
               default=None)


def spell_name(c: Combatant, span: Span) -> str | None:
    """The spell a cast span casts: the longest of ``c``'s spell names in its action (None: none)."""
    names = sorted((s.name for s in c.spells), key=len, reverse=True)
    return next((n for n in names if n in span.action), None)
