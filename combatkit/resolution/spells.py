"""Spells: a cast span goes off, or is noted ruined or cancelled, and its effect (:mod:`combatkit.effects`)
lands with its saving throws; an effect that lasts runs on from round to round.

A figure stunned or prone, stuck in a web or reeling in a stinking cloud cannot cast (002 Prone
spellcasters; PH 2e); a completed cast held (000 §2 A) goes off when its hold ends. A
single-target spell whose target is gone goes at the nearest other foe (a heal at the most wounded
friend, haste or protection at the nearest friend it would help); an area spell goes off where
aimed. A spell with no effect data goes off with no effect and says so (``EventKind.NO_EFFECT_DATA``).
Damage is the walk's (:meth:`WalkState.damage <combatkit.resolution.state.WalkState.damage>`), and so is
re-timing the round when it hits a caster.

What lasts (:class:`~combatkit.battle.Lasting` on the figure, or a condition for so many phases):
a sleep, hold or fear ends at the end of its last round and the figure is back in the fight
(``EventKind.RECOVER``; a charm lasts the fight), or, where the system counts durations in phases (000 §3 B), at
the end of the phase it went off in so many rounds later (:func:`phase_ends`); damage that lasts (Melf's acid arrow, flaming sphere) comes again at the
first tick of each later round of it (:func:`round_starts`); the conditions of web, blindness, slow,
haste, protection, stinking cloud, scare and bless end with the phase the walk computed for them.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import Final

from combatkit.battle import ActiveCondition, FigureStatus, Lasting, is_acting, is_present
from combatkit.conditions import CONDITIONS
from combatkit.dice import Dice
from combatkit.effects import CONDITION_OF, EffectKind, Save, SpellEffect, saving_throw, spell_effect
from combatkit.kinds import Size
from combatkit.model import Combatant
from combatkit.resolution.events import EventKind
from combatkit.resolution.state import D20, FOREVER, Action, Live, WalkState
from combatkit.timeline import Span, SpanKind, Status, Tick

_CANNOT_CAST: Final = frozenset({"stunned", "prone", "knocked_prone", "overborne"})
_STATUS: Final = {EffectKind.SLEEP: FigureStatus.ASLEEP, EffectKind.HOLD: FigureStatus.HELD,
           EffectKind.CHARM: FigureStatus.CHARMED, EffectKind.FEAR: FigureStatus.FRIGHTENED}
"""The effects that take a figure out of the fight, and the status each leaves it in."""
_OPPOSITE: Final = {"haste": "slow", "slow": "haste"}
"""PH 2e haste "negates the effects of a slow spell", and slow negates a haste."""
_BIG: Final = frozenset({Size.LARGE, Size.HUGE, Size.GARGANTUAN})
NO_EFFECT_RULE: Final = "combatkit/data/spell_effects.toml"
"""What an event about a spell with no effect data cites."""
WEB_RULE: Final = "PH 2e web: Strength 13-17 breaks 1' a round, 18+ 2', large creatures 10'"


def held_later(walk: WalkState, name: str, span: Span) -> bool:
    """A completed cast whose release waits on a hold span still to come."""
    return span.kind is SpanKind.CAST and any(a.span.actor == name and a.span.kind is SpanKind.HOLD for _, _, _, a in walk.queue)


def under_way(walk: WalkState, live: Live, span: Span, t: Tick) -> None:
    """A spell still being cast at the end of the round (:data:`~combatkit.timeline.UNDER_WAY`, 000 §3 B): it goes
    off in the next round, whose timeline places it again; being cast, it is spent now (the caster begins it no
    second time)."""
    name = spell_name(live.c, span)
    if name and name not in live.spells_used:
        live.spells_used.append(name)
    walk.event(t, live.name, EventKind.NOTE, span.rule,
               f"{live.name}'s {name or 'spell'} is still being cast at the end of the round: it goes off in the next "
               f"round, unless a hit ruins it first (000 §2 A, §3 B)." if walk.explain else "", target=span.target)
    walk.record(span)


def not_done(walk: WalkState, live: Live, span: Span, t: Tick) -> None:
    """A cast the timing system ruined or cancelled: it is reported, and a ruined spell is used up."""
    live.spells_attempted += 1
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


def cast(walk: WalkState, live: Live, action: Action, t: Tick) -> None:
    """A completed cast goes off at tick t (unless its caster cannot cast), then takes effect."""
    span = action.span
    c = live.c
    name = spell_name(c, span)
    for condition in walk.conditions_on(live, t):
        if condition.id in _CANNOT_CAST or not condition.can_cast:
            live.spells_attempted += 1
            rule = condition.rule if condition.id == "stunned" or not condition.can_cast \
                else "002 Special Types of Attacks III.C"
            walk.cancel(live, span, t, rule, f"{live.name} is {condition.name} and cannot cast.")
            return
    live.spells_attempted += 1
    if name is None:
        walk.event(t, live.name, EventKind.SPELL, span.rule, f"{live.name}: {span.action}.")
        walk.record(span)
        return
    spell = c.spell(name)
    if "M" in spell.component_set and walk.rules.components_in_hand:
        live.components = False
    if name not in live.spells_used:
        live.spells_used.append(name)
    live.spells_succeeded += 1
    effect = spell_effect(spell, walk.options.spell_effects)
    walk.event(t, live.name, EventKind.SPELL, span.rule,
               f"{live.name}'s {name} goes off" + (f" at {span.target}" if span.target else "") + "." if walk.explain
               else "", target=span.target, outcome="done")
    walk.record(span)
    if effect is None:
        live.no_effect.append(spell.name)
        walk.event(t, live.name, EventKind.NO_EFFECT_DATA, NO_EFFECT_RULE,
                   f"{spell.name} has no effect data in combatkit: it goes off with no effect the engine applies "
                   f"(give it an `effect` in the encounter file)." if walk.explain else "",
                   target=span.target, outcome="no effect data")
        return
    _effect(walk, live, effect, span.target, t, spell.name)


# ----------------------------------------------------------------- the effect lands


def _effect(walk: WalkState, caster: Live, effect: SpellEffect, aimed: str | None, t: Tick, spell: str) -> None:
    friends = not effect.hostile
    target = walk.live.get(aimed) if aimed else None
    if target is None or not target.present_at(t) or (target.fig.side == caster.fig.side) != friends:
        target = _spell_target(walk, caster, effect, t)
        if target is None:
            walk.event(t, caster.name, EventKind.NOTE, effect.rule, f"{spell} finds no one to affect.")
            return
    level = caster.c.level
    affected = _area(walk, caster, effect, target, t)
    key = f"round {walk.round}, tick {t}"
    if effect.kind is EffectKind.SLEEP:
        _sleep(walk, caster, effect, affected, t, key, spell)
        return
    amount = _amount(walk, effect, level, caster.name, spell, key) if effect.dice else 0
    for figure in affected:
        if effect.max_level is not None and figure.c.level > effect.max_level:
            walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
                       f"{figure.name} (level {figure.c.level}) is beyond {spell}: it affects level "
                       f"{effect.max_level} or lower." if walk.explain else "", target=figure.name,
                       outcome="unaffected")
            continue
        saved, save_text = _save(walk, effect, figure, key, t)
        if effect.kind is EffectKind.HEAL:
            before = figure.hp
            figure.hp = min(figure.fig.max_hit_points, figure.hp + amount)
            walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
                       f"{spell} heals {figure.name} {figure.hp - before} ({figure.hp} hp).", target=figure.name,
                       outcome="healed", amount=figure.hp - before, hit_points=figure.hp)
        elif effect.kind is EffectKind.DAMAGE:
            _damage(walk, caster.name, caster, effect, figure, amount, saved, save_text, t, spell)
            rounds = _rounds(walk, effect, level, figure, key, spell)
            if rounds is not None and rounds > 1 and is_present(figure.status):
                figure.lasting.append(Lasting(effect, caster.name, level, walk.round, _until(walk, rounds)))
        elif saved:
            walk.event(t, caster.name, EventKind.EFFECT, effect.rule, f"{figure.name} resists {spell}{save_text}."
                       if walk.explain else "", target=figure.name, outcome="saved")
        elif effect.kind in _STATUS:
            _out_of_the_fight(walk, caster, effect, figure, t, key, spell, save_text)
        else:
            _condition(walk, caster, effect, figure, t, key, spell, save_text)


def _area(walk: WalkState, caster: Live, effect: SpellEffect, target: Live, t: Tick) -> list[Live]:
    """Who the spell takes in: the target, or everyone present within ``radius`` of it (the caster's foes
    or friends only when ``selective``), at most ``targets_per_level`` a caster level, nearest first."""
    if not effect.radius:
        return [target]
    pool = [f for f in walk.live.values() if f.present_at(t) and abs(f.position - target.position) <= effect.radius
            and (not effect.selective or (f.fig.side == caster.fig.side) != effect.hostile)]
    if effect.targets_per_level:
        order = list(walk.live)
        nearest = sorted(pool, key=lambda f: (abs(f.position - target.position), order.index(f.name)))
        chosen = {f.name for f in nearest[:effect.targets_per_level * max(caster.c.level, 1)]}
        pool = [f for f in pool if f.name in chosen]
    return pool


def _amount(walk: WalkState, effect: SpellEffect, level: int, caster: str, spell: str, key: str) -> int:
    """Damage or healing: the dice once per unit, plus the bonus."""
    dice = Dice.parse(effect.dice)
    total = effect.bonus(level)
    for i in range(effect.units(level)):
        total += walk.roll(dice, partial("{}: {} [{}, {}]".format, spell, caster, key, i + 1))
    return total


def _save(walk: WalkState, effect: SpellEffect, figure: Live, key: str, t: Tick) -> tuple[bool, str]:
    """Whether ``figure`` saves against ``effect`` (PH 2e Table 60, the effect's modifier and the figure's
    conditions'), and the numbers in words."""
    if effect.save is Save.NONE:
        return False, ""
    need = saving_throw(figure.c, effect.save_column)
    roll = walk.roll(D20, lambda: f"save vs {effect.save_column}: {figure.name} [{key}]")
    bonus = effect.save_modifier + sum(c.save_modifier for c in walk.conditions_on(figure, t))
    saved = roll + bonus >= need
    text = ""
    if walk.explain:
        text = (f" (save vs. {effect.save_column}: d20 {roll}" + (f" {bonus:+d}" if bonus else "")
                + f" against {need}, {'made' if saved else 'failed'})")
    return saved, text


def _rounds(walk: WalkState, effect: SpellEffect, level: int, figure: Live, key: str, spell: str) -> int | None:
    """Rounds the effect lasts on ``figure``, counting this one; None: the rest of the fight (an effect that
    is not damage and gives no duration). The system's options may name them (``Phase2Options.durations``, 000 §3 B),
    in place of the effect data's."""
    # read by name, not by a runtime-checked protocol: the compiled build makes a protocol a native class
    durations = getattr(walk.system_options, "durations", None)
    given = durations.get(spell) if durations is not None else None
    if given is not None:
        return given  # the system's options name it (Phase2Options.durations, 000 §3 B): as its timeline shows
    if not effect.lasts:
        return None if effect.kind is not EffectKind.DAMAGE else 1
    rounds = effect.rounds(level)
    if effect.duration_dice:
        rounds += walk.roll(Dice.parse(effect.duration_dice), lambda: f"{spell} duration: {figure.name} [{key}]")
    return max(1, rounds)


def _until(walk: WalkState, rounds: int | None) -> int | None:
    """The last round of the fight an effect lasting ``rounds`` holds in (None: the rest of the fight)."""
    return None if rounds is None else walk.round + rounds - 1 + _free(walk)


def _free(walk: WalkState) -> int:
    """1 where the system counts a duration from the round after the spell goes off (the rest of its own round
    comes free: :attr:`~combatkit.systems.rules.SystemRules.durations_from_next_round`, 001 Magic), else 0."""
    return 1 if walk.rules.durations_from_next_round is not None else 0


def _last_phase(walk: WalkState, rounds: int | None, t: Tick) -> int | None:
    """Where the system counts durations in phases (:attr:`~combatkit.systems.rules.SystemRules.durations_in_phases`,
    000 §3 B: "if a spell cast in phase B lasts one round, it expires at the end of the next phase B"), the last
    phase of the fight (:meth:`WalkState.global_phase <combatkit.resolution.state.WalkState.global_phase>`) an effect
    that goes off at t and lasts ``rounds`` holds in: the phase it went off in, ``rounds`` rounds of phases later.
    None: the system ends it with a round, or it lasts the rest of the fight."""
    if rounds is None or walk.rules.durations_in_phases is None:
        return None
    return walk.global_phase(t) + rounds * walk.rules.phases


def _out_for(walk: WalkState, effect: SpellEffect, caster: Live, rounds: int | None, t: Tick,
             status: FigureStatus) -> Lasting:
    """A sleep, hold, charm or fear that went off at t, on its figure for ``rounds`` (None: the rest of the fight):
    to the end of a round, or of a phase (:func:`_last_phase`)."""
    last = _last_phase(walk, rounds, t)
    until = _until(walk, rounds) if last is None else last // walk.rules.phases + 1
    return Lasting(effect, caster.name, caster.c.level, walk.round, until, status, last)


def _phase_words(walk: WalkState, phase: int) -> str:
    """A phase of the fight in words: ``"phase B of round 2"`` (phases lettered A, B, C... as 000 §3 letters them)."""
    return f"phase {chr(ord('A') + phase % walk.rules.phases)} of round {phase // walk.rules.phases + 1}"


def _ending(walk: WalkState, rounds: int | None, t: Tick) -> str:
    """``", to the end of phase B of round 2 (000 §3 B ...)"`` where the duration ends with a phase, else nothing."""
    last = _last_phase(walk, rounds, t)
    return "" if last is None else f", to the end of {_phase_words(walk, last)} ({walk.rules.durations_in_phases})"


def _for(rounds: int | None) -> str:
    return " for the rest of the fight" if rounds is None else f" for {rounds} round{'s' if rounds != 1 else ''}"


def _damage(walk: WalkState, actor: str, caster: Live | None, effect: SpellEffect, figure: Live, amount: int,
            saved: bool, save_text: str, t: Tick, spell: str, again: str = "") -> None:
    """``amount`` of the effect's damage on ``figure`` (none or half if it saved); ``caster`` is credited
    (None: it is no longer in the fight)."""
    dealt = 0 if saved and effect.save is Save.NEGATES else amount // 2 if saved else amount
    walk.event(t, actor, EventKind.EFFECT, effect.rule,
               f"{again}{spell} hits {figure.name} for {dealt}{save_text}." if walk.explain else "",
               target=figure.name, outcome="saved" if saved else "hit", amount=dealt, hit_points=figure.hp - dealt)
    if dealt:
        walk.damage(figure, dealt, t, caster)


def _out_of_the_fight(walk: WalkState, caster: Live, effect: SpellEffect, figure: Live, t: Tick, key: str, spell: str,
                      save_text: str) -> None:
    """Hold, charm or fear: the figure is out of the fight until the effect ends (held, charmed, frightened)."""
    if not is_acting(figure.status):
        return  # already asleep, held, charmed or fled
    status = _STATUS[effect.kind]
    rounds = _rounds(walk, effect, caster.c.level, figure, key, spell)
    where = ""
    if effect.kind is EffectKind.FEAR and rounds is not None:
        feet = rounds * figure.c.movement * 10  # MV 1 = 10' a round, at its fastest for every round of it
        figure.position += feet if figure.position >= caster.position else -feet
        where = f", {feet}' away at its full movement"
    walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
               f"{figure.name} is {_WORDS[status]} by {spell}{_for(rounds)}{_ending(walk, rounds, t)}{where}"
               f"{save_text}." if walk.explain else "", target=figure.name, outcome=status.value)
    figure.lasting.append(_out_for(walk, effect, caster, rounds, t, status))
    walk.fall(figure, t, status, rule=effect.rule if status in (FigureStatus.CHARMED, FigureStatus.FRIGHTENED)
              else None)


_WORDS: Final = {FigureStatus.ASLEEP: "put to sleep", FigureStatus.HELD: "held", FigureStatus.CHARMED: "charmed",
          FigureStatus.FRIGHTENED: "sent fleeing in panic"}


def _condition(walk: WalkState, caster: Live, effect: SpellEffect, figure: Live, t: Tick, key: str, spell: str,
               save_text: str) -> None:
    """Web, blindness, slow, haste, protection, stinking cloud, scare, bless: a condition for the rounds it lasts."""
    condition = CONDITIONS[CONDITION_OF[effect.kind]]
    g = walk.global_phase(t)
    opposite = _OPPOSITE.get(condition.id)
    undone = [a for a in figure.conditions if a.condition.id == opposite and a.first <= g <= a.last]
    if undone:
        figure.conditions = [a for a in figure.conditions if a not in undone]
        walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
                   f"{spell} undoes {figure.name}'s {undone[0].condition.name}{save_text}." if walk.explain else "",
                   target=figure.name, outcome="negated")
        return
    rounds = _rounds(walk, effect, caster.c.level, figure, key, spell)
    why = ""
    if effect.kind is EffectKind.WEB:
        rounds, why = _web_rounds(figure.c, rounds)
    until, last_phase = _until(walk, rounds), _last_phase(walk, rounds, t)
    last = FOREVER if until is None else last_phase if last_phase is not None else until * walk.rules.phases - 1
    figure.conditions = [a for a in figure.conditions if a.condition.id != condition.id]  # a second casting renews
    figure.conditions.append(ActiveCondition(condition, g, last, effect.rule))
    walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
               f"{figure.name} is {condition.name} ({condition.text}){_for(rounds)}{_ending(walk, rounds, t)}{why}"
               f"{save_text}." if walk.explain
               else "", target=figure.name, outcome=condition.id)


def _web_rounds(c: Combatant, rounds: int | None) -> tuple[int | None, str]:
    """How long a web holds ``c``: a large creature tears out in 1 round, Strength 18+ in 3 and 13-17 in 5
    (5' of a 10'-thick web at 2' or 1' a round), weaker figures until the spell ends (PH 2e web)."""
    if c.size in _BIG:
        out, why = 1, f"{c.size.value}, it tears through 10' a round"
    elif c.abilities.strength >= 18:
        out, why = 3, f"Strength {c.abilities.strength} breaks 2' a round"
    elif c.abilities.strength >= 13:
        out, why = 5, f"Strength {c.abilities.strength} breaks 1' a round"
    else:
        return rounds, f" (Strength {c.abilities.strength}: stuck until the web is gone)"
    out = out if rounds is None else min(out, rounds)
    return out, f" ({why}: free after {out})"


def _sleep(walk: WalkState, caster: Live, effect: SpellEffect, affected: list[Live], t: Tick, key: str,
           spell: str) -> None:
    """PH 2e sleep: ``hit_dice`` of Hit Dice, lowest level first (a level-0 figure counts 1/2), partial effects
    ignored, levels above ``max_level`` unaffected."""
    top = effect.max_level if effect.max_level is not None else 40
    order = list(walk.live)
    sleepers = sorted((f for f in affected if is_acting(f.status) and f.c.level <= top),
                      key=lambda f: (f.c.level, order.index(f.name)))
    if not sleepers:
        walk.event(t, caster.name, EventKind.EFFECT, effect.rule, f"{spell}: no one in the area can be affected.")
        return
    pool = walk.roll(Dice.parse(effect.hit_dice), lambda: f"{spell}: {caster.name} [{key}, Hit Dice affected]")
    used = Fraction(0)
    for figure in sleepers:
        cost = Fraction(figure.c.level) if figure.c.level else Fraction(1, 2)
        if used + cost > pool:
            break  # partial effects are ignored
        used += cost
        rounds = _rounds(walk, effect, caster.c.level, figure, key, spell)
        walk.event(t, caster.name, EventKind.EFFECT, effect.rule,
                   f"{figure.name} falls asleep{_for(rounds)}{_ending(walk, rounds, t)} ({used} of {pool} Hit Dice)."
                   if walk.explain else "",
                   target=figure.name, outcome="asleep")
        figure.lasting.append(_out_for(walk, effect, caster, rounds, t, FigureStatus.ASLEEP))
        walk.fall(figure, t, FigureStatus.ASLEEP)


# ----------------------------------------------------------------- what lasts


def round_starts(walk: WalkState) -> None:
    """Damage that lasts (Melf's acid arrow, flaming sphere) comes again at the round's first tick, with its save;
    a figure held or asleep into this round's first phases (:func:`round_ends`) is so from its first tick."""
    t = 1
    for live in list(walk.live.values()):
        for item in live.lasting:
            if item.last_phase is not None and item.status is not None and is_acting(live.status):
                live.status = item.status  # 000 §3 B: still held (asleep) until its phase ends (phase_ends)
                walk.event(t, live.name, EventKind.NOTE, walk.rules.durations_in_phases or item.effect.rule,
                           f"{live.name} is still {item.status.value} by {item.caster}'s {item.effect.name}, to the "
                           f"end of {_phase_words(walk, item.last_phase)}." if walk.explain else "")
                continue
            if (item.status is None and item.effect.kind is EffectKind.DAMAGE and is_present(live.status)
                    and item.since < walk.round and (item.until is None or walk.round <= item.until)):
                key = f"round {walk.round}, tick {t}"
                caster = walk.live.get(item.caster)
                amount = _amount(walk, item.effect, item.level, item.caster, item.effect.name, key)
                saved, save_text = _save(walk, item.effect, live, key, t)
                free = _free(walk)
                of = "" if item.until is None else f" of {item.until - item.since + 1 - free}"
                _damage(walk, item.caster, caster, item.effect, live, amount, saved, save_text, t, "it",
                        again=f"{item.caster}'s {item.effect.name} goes on (round "
                              f"{walk.round - item.since + 1 - free}{of}): ")


def phase_ends(walk: WalkState, index: int) -> None:
    """The end of the round's phase ``index`` (0: the first), where the system counts durations in phases (000 §3 B:
    a spell "expires at the end of the next phase B after all movement and combat has been resolved"): a figure
    asleep, held or frightened by a spell whose last phase this was is back in the fight from the next phase on (an
    event of kind ``recover``)."""
    if walk.rules.durations_in_phases is None:
        return
    phase = (walk.round - 1) * walk.rules.phases + index
    t = walk.grid[index][1]
    for live in walk.live.values():
        ended = [item for item in live.lasting if item.last_phase is not None and item.last_phase <= phase
                 and item.status is not None and live.status is item.status]
        if not ended:
            continue
        live.lasting = [item for item in live.lasting if item not in ended]
        live.status, live.down_at, live.fell = FigureStatus.ACTIVE, None, None
        item = ended[0]
        walk.event(t, live.name, EventKind.RECOVER, walk.rules.durations_in_phases,
                   f"{live.name} is back in the fight: {item.caster}'s {item.effect.name} ends with "
                   f"{_phase_words(walk, phase)}, after all movement and combat in it." if walk.explain else "",
                   outcome="recovered")


def round_ends(walk: WalkState) -> None:
    """Effects whose last round this was end: a figure asleep, held or frightened by a spell is back in the
    fight (an event of kind ``recover``); what it no longer applies to (its figure died) is dropped. Where the
    system counts durations in phases (000 §3 B), one that ends in the next round's first phases leaves its
    figure in that round's fight, held (asleep) from its first tick (:func:`round_starts`) to the end of the phase
    (:func:`phase_ends`); what the round leaves the next (``Phase2Carry.out_of_action``) gives it
    nothing to do until then."""
    end = walk.timeline.clock.ticks
    next_round = walk.round * walk.rules.phases  # the next round's first phase
    for live in walk.live.values():
        if not live.lasting:
            continue
        keep = []
        for item in live.lasting:
            gone = (live.status is not item.status) if item.status is not None else not is_present(live.status)
            if gone:
                continue
            last = item.last_phase
            if last is not None and item.status is not None and next_round <= last < next_round + walk.rules.phases - 1:
                live.status = FigureStatus.ACTIVE  # in the next round's fight; held again from its first tick
                out_of_action = getattr(walk.timeline.carry, "out_of_action", None)  # Phase2Carry's
                if out_of_action is not None:
                    why = (f"{live.name} is {item.status.value} by {item.caster}'s {item.effect.name} to the end of "
                           f"{_phase_words(walk, last)}")
                    walk.timeline = replace(walk.timeline, carry=out_of_action(live.name, last - next_round + 1, why))
                keep.append(item)
                continue
            if item.until is not None and item.until <= walk.round:
                if item.status is not None:
                    live.status, live.down_at, live.fell = FigureStatus.ACTIVE, None, None
                    walk.event(end, live.name, EventKind.RECOVER, item.effect.rule,
                               f"{live.name} is back in the fight: {item.caster}'s {item.effect.name} has run its "
                               f"{item.until - item.since + 1 - _free(walk)} round(s)"
                               + (f", counted from the round after it was cast ({walk.rules.durations_from_next_round})"
                                  if _free(walk) else "") + "." if walk.explain else "",
                               outcome="recovered")
                continue
            keep.append(item)
        live.lasting = keep


def pace(walk: WalkState, live: Live, t: Tick) -> Fraction:
    """How fast ``live`` moves and attacks at t: 2 hasted, 1/2 slowed (PH 2e haste, slow), else 1."""
    conditions = walk.conditions_on(live, t)
    if any(c.double_rate for c in conditions):
        return Fraction(2)
    if any(c.half_rate for c in conditions):
        return Fraction(1, 2)
    return Fraction(1)


def slowed_out(walk: WalkState, live: Live, t: Tick) -> bool:
    """A slowed figure's blows are lost every other round, counting from the round the slow took hold
    (PH 2e slow: it attacks at half its rate)."""
    if not live.conditions:
        return False
    g = walk.global_phase(t)
    return any(a.condition.half_rate and a.first <= g <= a.last
               and (walk.round - 1 - a.first // walk.rules.phases) % 2 for a in live.conditions)


def hasted(walk: WalkState, live: Live, t: Tick) -> bool:
    """A hasted figure strikes each blow twice (PH 2e haste: double its attack rate)."""
    return any(c.double_rate for c in walk.conditions_on(live, t))


# ----------------------------------------------------------------- whom


def _spell_target(walk: WalkState, caster: Live, effect: SpellEffect, t: Tick) -> Live | None:
    if effect.kind is EffectKind.HEAL:
        friends = [f for f in walk.live.values() if f.fig.side == caster.fig.side and is_acting(f.status)
                   and f.hp < f.fig.max_hit_points]
        return min(friends, key=lambda f: f.hp - f.fig.max_hit_points, default=None)
    order = list(walk.live)
    if not effect.hostile:  # haste, protection, bless: the nearest friend it would help
        condition = CONDITION_OF.get(effect.kind)
        friends = [f for f in walk.live.values() if f.fig.side == caster.fig.side and is_acting(f.status)
                   and not any(a.condition.id == condition for a in f.conditions)]
        return min(friends, key=lambda f: (abs(f.position - caster.position), order.index(f.name)), default=None)
    foes = [f for f in walk.live.values() if f.fig.side != caster.fig.side and f.present_at(t)
            and is_present(f.status)]
    return min(foes, key=lambda f: (abs(f.position - caster.position), order.index(f.name)), default=None)


def spell_name(c: Combatant, span: Span) -> str | None:
    """The spell a cast span casts: the longest of ``c``'s spell names in its action (None: none)."""
    names = sorted((s.name for s in c.spells), key=len, reverse=True)
    return next((n for n in names if n in span.action), None)
