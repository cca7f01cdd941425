"""Blows: every attack of a round, whether the timeline placed it or a retarget, a charge, a flight or
a critical hit put it in.

:func:`strike` plays one attack out: striking distance and repositioning (000 §2 C), a new
target when the first fell (the system's :class:`~combatkit.systems.rules.Retarget`), 002's
situational modifiers (:func:`situation_of`), the system's own terms on the blow, then for each
weapon the roll to hit and for damage, plain DMG 2e or through a critical rule set
(:func:`combatkit.criticals.resolve_attack`). What a hit does to its target is the walk's
(:meth:`WalkState.damage <combatkit.resolution.state.WalkState.damage>`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Final

from combatkit.attack import DEFENSELESS_RULE, Attacker, Defender, RuleSet, setup_attack
from combatkit.battle import REACH, REPOSITION, FigureExtras, FigureStatus, attack_form, missile_range, routine
from combatkit.conditions import CONDITIONS, Condition, Duration, Imposed, Until, Who
from combatkit.criticals import resolve_attack
from combatkit.dice import Dice
from combatkit.effects import saving_throw
from combatkit.kinds import Length, Maneuver, WeaponKind
from combatkit.model import Declaration, Weapon, defensive_adjustment
from combatkit.modifiers import Hand, RangeBand, Situation, TargetState, situational_modifiers
import combatkit.resolution.spells as spells
from combatkit.resolution.events import EventKind
from combatkit.resolution.state import D20, Action, Live, WalkState
from combatkit.stances import Shield, may_attack
from combatkit.systems.rules import NO_TERMS, BlowTerms, ChargeRule, Retarget
from combatkit.timeline import Span, SpanKind, Status, Tick


def strike(walk: WalkState, live: Live, action: Action, t: Tick) -> None:
    """``live`` strikes at tick t: an attack or opportunity span, or a blow injected with its weapons,
    target and situation (a retarget, a charge, its answer, a free or an extra attack)."""
    span, decl = action.span, action.declaration
    target_name = action.target or span.target
    if target_name is None or target_name not in walk.live:
        walk.record(span)
        return
    if live.conditions:
        for condition in walk.conditions_on(live, t):
            if not condition.can_attack:
                walk.cancel(live, span, t, condition.rule, f"{live.name} is {condition.name}: no attacks.")
                walk.expire(live, t, attacked=True)  # "loses its next attack": that was it
                return
        if not action.injected and spells.slowed_out(walk, live, t):
            walk.cancel(live, span, t, "PH 2e slow", f"{live.name} is slowed: it attacks at half its rate, and "
                                                     f"this round its blows are lost.")
            return
    extras = live.extras
    if not may_attack(extras.stance):
        walk.cancel(live, span, t, "004 Combat Stance", f"{live.name} is in {extras.stance.label}: no attack.")
        return
    if action.weapons:
        weapons = action.weapons
        missile = all(w.kind is WeaponKind.MISSILE for w in weapons)
    else:
        weapons, missile = _weapons(walk, live, span, decl)
    target = walk.live[target_name]
    if not target.present_at(t):
        retarget = _retarget(walk, live, action, target, weapons, missile, t)
        if retarget is None:
            return
        target = retarget
    if not missile and span.kind is not SpanKind.OPPORTUNITY and not action.injected:
        reposition = decl is not None and decl.reposition  # a Python value type's field, read once (#18)
        reach = REACH + (REPOSITION if reposition else 0)
        gap = abs(live.position - target.position)
        if reposition and REACH < gap <= reach:
            step = gap - REACH  # 000 §2 C: a step or two (max. 10') before the attack
            live.position += step if target.position > live.position else -step
            walk.event(t, live.name, EventKind.MOVE, "000 §2 C Repositioning Movement",
                       f"{live.name} steps {step}' toward {target.name} before striking (+2 SF).",
                       target=target.name, amount=step)
            gap = REACH
        if gap > reach:
            walk.cancel(live, span, t, walk.rules.reach_rule,
                        f"{target.name} is {gap}' away: out of striking distance ({reach}').")
            return
    situation = action.situation or situation_of(walk, live, target, span, decl, missile, weapons)
    if situation is None:
        return
    if situation.unarmed is not None and walk.modifiers_002 and target.c.size.larger_than(live.c.size):
        walk.cancel(live, span, t, "002 Unarmed Combat",
                    f"{live.name} ({live.c.size.value}) may fight unarmed only a creature of its own size or smaller, "
                    f"and {target.name} is {target.c.size.value}: no {situation.unarmed.value}.")
        return
    terms = _system_terms(walk, live, target, span, decl, action)
    if action.damage_multiplier != 1:
        terms = replace(terms, multiplier=terms.multiplier * action.damage_multiplier)
    names = [w.name for w in weapons] if len(weapons) > 1 else []
    outcomes = []
    for i, weapon in enumerate(weapons):
        suffix = ""
        if names:
            repeated = names.count(weapon.name) > 1
            suffix = f", {weapon.name}" + (f" {names[:i + 1].count(weapon.name)}" if repeated else "")
        hand = situation
        if situation.two_weapons is not None and i:
            hand = replace(situation, two_weapons=Hand.SECONDARY)  # 002 Special Types of Attacks VI: -4
        outcome, damage, ends = _attack(walk, live, target, weapon, t, suffix, hand, terms, span.rule)
        outcomes.append((weapon.name, outcome, damage))
        if ends:
            _end_sequence(walk, live, t)
            break
    live.attacks_made += 1
    live.struck_phases.add(walk.phase_index(t))
    walk.expire(live, t, attacked=True)
    if walk.explain:
        parts = "; ".join(f"{w} {o}" + (f" for {d}" if d else "") for w, o, d in outcomes)
        walk.record(span, why=f"Resolved: {parts}." if parts else None, target=target.name)
    if live.conditions and action.injected != "haste" and spells.hasted(walk, live, t):
        _hasted(walk, live, target, weapons, span, t)


def _weapons(walk: WalkState, live: Live, span: Span, decl: Declaration | None) -> tuple[tuple[Weapon, ...], bool]:
    """The weapons a blow strikes with: those its span names (a system may split a routine
    into several spans), else the declaration's, else the first weapon (as every system does); a
    figure with no weapon strikes with its :data:`~combatkit.model.FISTS` (002 Unarmed Combat). With them,
    whether they are all missile weapons. Read once a run for each figure, span wording and declared weapons
    (the figure's weapons never change)."""
    key = ("weapons", live.name, span.kind is SpanKind.OPPORTUNITY, span.action,
           decl.weapons if decl is not None else None)
    found = walk.cache.get(key)
    if found is None:
        weapons = _read_weapons(walk, live, span, decl)
        found = walk.cache[key] = (weapons, all(w.kind is WeaponKind.MISSILE for w in weapons))
    return found


def _read_weapons(walk: WalkState, live: Live, span: Span, decl: Declaration | None) -> tuple[Weapon, ...]:
    c = live.c
    if span.kind is SpanKind.OPPORTUNITY:
        return routine(c, live.extras)
    declared = c.striking(decl.weapons if decl is not None else ())
    pool = list(declared)
    chosen = []
    for part in span.action.split(" -> ")[0].split(" + "):
        found = next((w for w in pool if w.name == part.strip()), None)
        if found is not None:
            chosen.append(found)
            pool.remove(found)
    return tuple(chosen) or declared


def _retarget(walk: WalkState, live: Live, action: Action, fallen: Live, weapons: tuple[Weapon, ...], missile: bool,
              t: Tick) -> Live | None:
    span = action.span
    mode = walk.options.retarget or walk.rules.retarget
    rule = walk.rules.retarget_rule if walk.options.retarget is None else f"combatkit option: retarget {mode.value}"
    foes = [f for f in walk.live.values() if f.fig.side != live.fig.side and f.present_at(t)
            and (missile or abs(f.position - live.position) <= REACH)]
    foes.sort(key=lambda f: (abs(f.position - live.position), list(walk.live).index(f.name)))
    if mode is Retarget.LOST or action.injected or not foes:
        why = f"{fallen.name} is already down" + ("" if mode is Retarget.LOST or action.injected else
                                                   " and no other foe is " + ("left to shoot at" if missile
                                                                              else "within striking distance"))
        walk.cancel(live, span, t, rule, f"{why}: the blow is lost.")
        return None
    if mode is Retarget.FREE:
        walk.event(t, live.name, EventKind.RETARGET, rule,
                   f"{fallen.name} is down: {live.name} strikes {foes[0].name} instead.", target=foes[0].name)
        return foes[0]
    new_tick = walk.found.retarget_tick(live.c, span, action.declaration, weapons, walk.system_options)
    if new_tick is None or new_tick <= t:
        walk.cancel(live, span, t, rule, f"{fallen.name} fell before the blow; a new target at +3 SF would "
                                         f"strike past the end of the phase: the attack is lost.")
        return None
    walk.event(t, live.name, EventKind.RETARGET, rule,
               f"{fallen.name} fell before the blow: {live.name} turns on {foes[0].name} at +3 SF, striking at "
               f"{walk.when(new_tick)}.", target=foes[0].name)
    walk.record(span, Status.CANCELLED, rule, "Retargeted at +3 SF." if walk.explain else None)
    moved = replace(span, start=new_tick, end=new_tick, target=foes[0].name,
                    action=f"{span.short} -> {foes[0].name} (retargeted)",
                    rule=rule, why=f"Its first target fell: a new one at +3 SF ({rule}).")
    walk.push(Action(new_tick, moved, action.declaration, "retarget", weapons, foes[0].name))
    return None


def situation_of(walk: WalkState, live: Live, target: Live, span: Span, decl: Declaration | None, missile: bool,
                 weapons: tuple[Weapon, ...]) -> Situation | None:
    """The 002 situation of a blow (None: out of range, cancelled); the shared plain one when nothing applies."""
    if (not missile and span.kind is not SpanKind.OPPORTUNITY and target.status is FigureStatus.ACTIVE
            and live.name not in walk.given_extras and target.name not in walk.given_extras
            and weapons[0].length is not Length.UNARMED and _unarmed(decl) is None
            and not _casting(walk, target.name, span)
            and not (walk.rules.charge is ChargeRule.SITUATIONAL
                     and (_charging(walk, live.name) or _charging(walk, target.name)))):
        return _PLAIN
    extras, theirs = live.extras, target.extras
    range_band = None
    if missile:
        key = ("range", weapons[0].name)
        if key not in walk.cache:
            walk.cache[key] = missile_range(weapons[0], walk.options.missile_ranges)
        ranges = walk.cache[key]
        gap = abs(live.position - target.position)
        if ranges is not None:
            short, medium, long = ranges
            if gap > long:
                walk.cancel(live, span, walk.impact(span), "002 Missile Attacks I",
                            f"{target.name} is {gap}' away, beyond the {weapons[0].name}'s long range ({long}').")
                return None
            range_band = RangeBand.SHORT if gap <= short else RangeBand.MEDIUM if gap <= medium else RangeBand.LONG
    state = {FigureStatus.ASLEEP: TargetState.SLEEPING, FigureStatus.HELD: TargetState.HELD}.get(
        target.status, TargetState.NORMAL)
    breaking = span.kind is SpanKind.OPPORTUNITY and any(
        d.maneuver in (Maneuver.FLEE, Maneuver.WITHDRAW) for d in walk.by_actor.get((target.name, SpanKind.MOVE), ()))
    fields = dict(
        range=range_band, cover=theirs.cover if missile else 0, concealment=theirs.concealment if missile else 0,
        position=extras.position, target_state=state, invisible=theirs.invisible,
        charging=walk.rules.charge is ChargeRule.SITUATIONAL and _charging(walk, live.name),
        target_charging=walk.rules.charge is ChargeRule.SITUATIONAL and _charging(walk, target.name),
        mounted=extras.mounted, target_mounted=theirs.mounted, weapon_use=extras.weapon_uses.get(weapons[0].name),
        lance=extras.lance == weapons[0].name, breaking_off=breaking,
        target_casting=_casting(walk, target.name, span),
        two_weapons=Hand.PRIMARY if extras.two_weapons and len(weapons) > 1 else None,
        unarmed=_unarmed(decl) or (Maneuver.PUMMEL if weapons[0].length is Length.UNARMED else None),
    )
    kept = ("situation", *fields.values())  # one Situation a run for each, a value (its __init__ is Python, #18)
    found = walk.cache.get(kept)
    if found is None:
        plain = all(value == _PLAIN_FIELDS[name] for name, value in fields.items())
        found = walk.cache[kept] = _PLAIN if plain else Situation(**fields)  # type: ignore[arg-type]
    return found


def _unarmed(decl: Declaration | None) -> Maneuver | None:
    """The unarmed attack a blow is declared as (002 Unarmed Combat I: pummel, grapple or overbear), or None."""
    return decl.maneuver if decl is not None and decl.maneuver is not None and decl.maneuver.unarmed else None


def _charging(walk: WalkState, name: str) -> bool:
    """A figure that declared a charge this round (002 Charging: a charging creature)."""
    return name in walk.chargers


def _casting(walk: WalkState, name: str, span: Span) -> bool:
    """Whether ``name`` is in the middle of casting when ``span`` takes effect (002 III.E: no Dexterity bonus to
    AC); the moment is worked out only for a figure that casts this round."""
    windows = walk.cast_windows.get(name)
    if windows is None:
        return False
    t = walk.impact(span)
    return any(start <= t < end for start, end in windows)


def _system_terms(walk: WalkState, live: Live, target: Live, span: Span, decl: Declaration | None,
                  action: Action) -> BlowTerms:
    """What the system's own seed puts on this blow: its :meth:`~combatkit.systems.base.TimingSystem.blow_terms`
    on a declared blow (001's movement penalties, charges and set weapons), and under
    :attr:`ChargeRule.SITUATIONAL <combatkit.systems.rules.ChargeRule.SITUATIONAL>` double damage for a
    weapon set against a charge (002 Charging)."""
    set_against_charge = (live.name, SpanKind.READY) in walk.by_actor and _charging(walk, target.name)
    terms = NO_TERMS
    if decl is not None and not action.injected and walk.own_blow_terms:
        terms = walk.found.blow_terms(live.c, span, decl, walk.by_actor.get((live.name, SpanKind.MOVE), ()),
                                      set_against_charge)
    if walk.rules.charge is ChargeRule.SITUATIONAL and set_against_charge:
        terms = replace(terms, multiplier=terms.multiplier * 2)
    return terms


def _end_sequence(walk: WalkState, live: Live, t: Tick) -> None:
    """000-I critical miss: the rest of the attack sequence is lost for the round."""
    for tick, action in walk.withdraw(live.name, SpanKind.ATTACK):
        walk.cancel(live, action.span, tick, "000 §4 Critical Miss table",
                    f"{live.name}'s critical miss ends its attack sequence for the round.")


def _attack(walk: WalkState, live: Live, target: Live, weapon: Weapon, t: Tick, suffix: str, situation: Situation,
            terms: BlowTerms, span_rule: str) -> tuple[str, int, bool]:
    """One attack roll and its damage; returns (outcome, damage, whether it ends the attack sequence)."""
    c, foe = live.c, target.c
    damage_bonus, multiplier = terms.damage, terms.multiplier
    extras, theirs = live.extras, target.extras
    rules = walk.rule_set
    # what the rolls are logged under; on the fast path only a critical rule set reads it (its steps name it)
    key = f"round {walk.round}, tick {t}{suffix}" if walk.fast_rng is None or rules is not None else ""
    adjustment = None
    if walk.modifiers_002 and situation is not _PLAIN:
        adjustment = _adjustment(walk, situation, live, target, weapon)
    attacker_terms = tuple(_term(*x) for x in terms.hit) if terms.hit else ()
    defender_terms: tuple[Condition, ...] = ()
    if adjustment is not None:
        attacker_terms += tuple(_term(m.label, m.value, m.rule) for m in adjustment.to_hit)
        defender_terms += tuple(_term(m.label, m.value, m.rule, armor=True, dexterity=m is adjustment.dexterity_term)
                                for m in adjustment.armor_class)
        multiplier *= adjustment.damage_multiplier
    if target.name in walk.charging_now:
        dex = defensive_adjustment(foe.abilities.dexterity)
        if dex < 0:
            defender_terms += (_term("charging: no Dexterity bonus", -dex, "000 §2 D Charging", armor=True,
                                     dexterity=True),)
        if theirs.mounted:
            defender_terms += (_term("charging mounted", -2, "000 §2 D Charging", armor=True),)
    given = c.thac0
    thac0 = min(20, max(1, given))
    if thac0 != given:
        attacker_terms += (_term(f"THAC0 {given}", thac0 - given, "PH 2e THAC0"),)
    somatic = walk.somatic_spell(target.name, t)  # 000 §2 C: a caster invoking somatic components is defenseless
    akey = (live.name, weapon.name, walk.conditions_on(live, t) + attacker_terms)
    dkey = (target.name, walk.conditions_on(target, t) + defender_terms, somatic is not None)
    defenseless = f" {target.name} is casting {somatic} with its somatic components: a stationary, defenseless " \
                  f"target ({DEFENSELESS_RULE})." if somatic is not None and walk.explain else ""
    automatic = adjustment is not None and adjustment.automatic_hit
    dice_text = adjustment.damage_dice if adjustment is not None and adjustment.damage_dice else None
    holds = situation.unarmed if adjustment is not None and situation.unarmed in _HOLDS else None
    live.attacks += 1
    if rules is not None and not automatic and dice_text is None and holds is None:
        attacker = _attacker(walk, akey, live, weapon, extras, thac0)
        defender = _defender(walk, dkey, target, theirs)
        result = resolve_attack(attacker, defender, rules, walk.roller, options=walk.options.critical_options,
                                key=key)
        outcome, damage = result.outcome.value, result.damage
        if result.hit:
            damage = damage * multiplier + damage_bonus + _half_die(walk, terms, weapon, live.name, key)
        if result.conditions:
            walk.impose(result.conditions, live, target, t)
        for extra in result.extra_attacks:
            if extra.starts == 0:
                _extra(walk, live, target, weapon, t, extra.rule, result.defender_now().conditions)
            else:
                nxt = walk.phase_index(t) + extra.starts
                if nxt < len(walk.grid):
                    _extra(walk, live, target, weapon, walk.grid[nxt][0], extra.rule, ())
        why = ""
        if walk.explain:
            why = f"{live.name} attacks {target.name} with the {weapon.name}: " + "; ".join(
                str(s) for s in result.steps)
            why += "." + defenseless if defenseless else ""
            for item in result.items:
                walk.event(t, live.name, EventKind.NOTE, item.rule, f"{live.name}'s {item}.")
        _land(walk, live, target, damage if result.hit else 0, t, outcome, why, span_rule)
        return outcome, damage if result.hit else 0, result.ends_attack_sequence
    setup = _setup(walk, akey, dkey, live, target, weapon, extras, theirs, thac0)
    needed = setup.needed
    if automatic:
        natural, hit = 0, True
    else:
        natural = walk.roll(D20, lambda: f"attack roll: {live.name} [{key}]")
        hit = natural != 1 and (natural >= needed or natural == 20)
    damage = base = 0
    dice = Dice.parse(dice_text or weapon.damage)
    if hit and holds is None:
        base = walk.roll(dice, lambda: f"damage: {live.name} [{key}]")
        damage = max(walk.minimum_damage, base + setup.damage_bonus) * multiplier
        damage = max(0, damage + damage_bonus + _half_die(walk, terms, weapon, live.name, key))
    why = ""
    if walk.explain:
        to_hit_terms = "".join(f", {m}" for m in setup.to_hit)
        ac_terms = "".join(f", {m.value:+d} AC {m.label}" for m in setup.armor_class)
        if automatic:
            roll_text = "hit automatically (" + "; ".join(adjustment.notes) + ")"  # type: ignore[union-attr]
        else:
            roll_text = f"needs {needed} (THAC0 {thac0}{to_hit_terms} against AC {foe.armor_class}{ac_terms}); d20 = {natural}"
        dmg_text = ""
        if hit and holds is None:
            bonus = "".join(f" {m}" for m in setup.damage)
            scaled = (f" x{multiplier}" if multiplier != 1 else "") + (f" {damage_bonus:+d}" if damage_bonus else "")
            dmg_text = f", {dice} rolled {base}{bonus}{scaled} = {damage} damage"
        why = (f"{live.name} attacks {target.name} with the {weapon.name}: {roll_text}: "
               f"{'hit' if hit else 'miss'}{dmg_text}.")
        if hit and not automatic and adjustment is not None and adjustment.notes:
            why += " " + " ".join(adjustment.notes)  # what 002 says of the hit: a grapple holds, an overbear fells
        why += defenseless
    _land(walk, live, target, damage, t, "hit" if hit else "miss", why, span_rule)
    if hit and holds is not None:
        _hold(walk, live, target, holds, t, key)
    return ("hit" if hit else "miss"), damage, False


_HOLDS: Final = frozenset({Maneuver.GRAPPLE, Maneuver.OVERBEAR})
"""002 Unarmed Combat III.B-C: the unarmed attacks that do no damage, but hold or fell the one they hit."""


def _hold(walk: WalkState, live: Live, target: Live, unarmed: Maneuver, t: Tick, key: str) -> None:
    """What a grapple or an overbear that hits does (002 Unarmed Combat III): a grapple holds the victim in its
    square until the round ends ("automatically broken at start of next round"); an overbear fells it unless it
    saves vs. petrification, and it lies prone until it gets up."""
    if unarmed is Maneuver.GRAPPLE:
        walk.impose((Imposed(Who.DEFENDER, CONDITIONS["grappled"], Duration(Until.END_OF_ROUND),
                             "002 Unarmed Combat III.B"),), live, target, t)
        return
    need = saving_throw(target.c, "petrification")
    roll = walk.roll(D20, lambda: f"save vs petrification: {target.name} [{key}]")
    walk.event(t, target.name, EventKind.NOTE, "002 Unarmed Combat III.C",
               f"{target.name} saves vs. petrification against the overbear: {roll} against {need}, "
               f"{'made: it keeps its feet' if roll >= need else 'failed: it falls prone'}.",
               outcome="saved" if roll >= need else "failed")
    if roll < need:
        walk.impose((Imposed(Who.DEFENDER, CONDITIONS["overborne"], Duration(Until.REMOVED),
                             "002 Unarmed Combat III.C"),), live, target, t)


def _half_die(walk: WalkState, terms: BlowTerms, weapon: Weapon, name: str, key: str) -> int:
    """001 Set to Receive Charge: an extra half die of damage (the weapon's dice, halved, rounded down)."""
    if not terms.half_die:
        return 0
    return walk.roll(Dice.parse(weapon.damage), lambda: f"damage, extra half die: {name} [{key}]") // 2


def _adjustment(walk: WalkState, situation: Situation, live: Live, target: Live, weapon: Weapon):
    """002's situational modifiers (:func:`situational_modifiers`) to ``live``'s blow with ``weapon`` at ``target``:
    once a fight for each situation."""
    key = ("adj", situation, target.name, live.name, weapon.name)
    adj = walk.cache.get(key)
    if adj is None:
        c, foe, theirs = live.c, target.c, target.extras
        adj = walk.cache[key] = situational_modifiers(
            situation, defender_armor_class=foe.armor_class,
            shield_ac=theirs.shield_ac if theirs.shield is not Shield.NONE else 0,
            dex_ac=defensive_adjustment(foe.abilities.dexterity), attacker_dexterity=c.abilities.dexterity,
            weapon_name=weapon.name, attacker_size=c.size, defender_size=foe.size)
    return adj


def _attacker(walk: WalkState, key: tuple, live: Live, weapon: Weapon, extras: FigureExtras, thac0: int) -> Attacker:
    """The :class:`~combatkit.criticals.Attacker` for (name, weapon, conditions), built once a fight."""
    attacker = walk.cache.get(("att", key))
    if attacker is None:
        attacker = walk.cache[("att", key)] = Attacker.from_combatant(
            live.c, weapon, thac0=thac0, exceptional=extras.exceptional_strength,
            specialization_slots=extras.specialization_slots, form=attack_form(weapon, extras),
            listed_damage_bonus=extras.listed_damage_bonus, stance=extras.stance, shield=extras.shield,
            maneuver=extras.maneuver, conditions=key[2])
    return attacker


def _defender(walk: WalkState, key: tuple, live: Live, extras: FigureExtras) -> Defender:
    """The :class:`~combatkit.criticals.Defender` for (name, conditions), built once a fight."""
    defender = walk.cache.get(("def", key))
    if defender is None:
        defender = walk.cache[("def", key)] = Defender.from_combatant(
            live.c, stance=extras.stance, shield=extras.shield, conditions=key[1], defenseless=key[2])
    return defender


def _setup(walk: WalkState, akey: tuple, dkey: tuple, live: Live, target: Live, weapon: Weapon, extras: FigureExtras,
           theirs: FigureExtras, thac0: int):
    """The number needed and the damage terms (:func:`~combatkit.criticals.setup_attack`) of the attacker and
    defender that ``akey`` and ``dkey`` name (:func:`_attacker`, :func:`_defender`), once a fight."""
    key = ("setup", akey, dkey)
    setup = walk.cache.get(key)
    if setup is None:
        setup = walk.cache[key] = setup_attack(_attacker(walk, akey, live, weapon, extras, thac0),
                                               _defender(walk, dkey, target, theirs), RuleSet.STANCES_004,
                                               options=walk.options.critical_options)
    return setup


def _extra(walk: WalkState, live: Live, target: Live, weapon: Weapon, tick: Tick, rule: str,
           conditions: tuple[Condition, ...]) -> None:
    span = Span(live.name, live.fig.side, SpanKind.ATTACK, f"{weapon.name} -> {target.name} (extra attack)", tick, tick,
                "extra", rule, "An extra attack the critical hit table grants.", target=target.name)
    walk.push(Action(tick, span, None, "extra attack", (weapon,), target.name))


def _hasted(walk: WalkState, live: Live, target: Live, weapons: tuple[Weapon, ...], span: Span, t: Tick) -> None:
    """PH 2e haste: a hasted figure attacks at double its rate; its blow is struck again at once (the extra
    blow is not re-timed by the system)."""
    names = " + ".join(w.name for w in weapons)
    again = Span(live.name, live.fig.side, SpanKind.ATTACK, f"{names} -> {target.name} (hasted)", t, t, span.period,
                 "PH 2e haste", "A hasted figure's second blow.", target=target.name)
    walk.push(Action(t, again, None, "haste", weapons, target.name))


def _land(walk: WalkState, live: Live, target: Live, damage: int, t: Tick, outcome: str, why: str, rule: str) -> None:
    if outcome in ("hit", "severe hit", "critical hit"):
        live.hits += 1
    if damage > 0:
        walk.damage(target, damage, t, live)
    if walk.explain:
        walk.event(t, live.name, EventKind.ATTACK, rule, why, target=target.name, outcome=outcome, amount=damage,
                   hit_points=target.hp)


_PLAIN: Final = Situation()
"""A frontal blow at a figure in no special state: 002's tables add nothing."""


_PLAIN_FIELDS: Final = {name: getattr(_PLAIN, name) for name in Situation.__dataclass_fields__}


@lru_cache(maxsize=1024)
def _term(label: str, value: int, rule: str, armor: bool = False, dexterity: bool = False) -> Condition:
    """A situational to-hit (or AC) term, carried to :func:`combatkit.criticals.setup_attack` as a condition;
    ``dexterity``: the AC term that takes the defender's Dexterity bonus away (so no other rule takes it again).
    Made once for each (a condition is a value, and its ``__init__`` is Python: a five-phase blow has its terms)."""
    if armor:
        return Condition("situational", label, f"{value:+d} AC", rule, ac_modifier=value, loses_agility_bonus=dexterity)
    return Condition("situational", label, f"{value:+d} to hit", rule, attack_modifier=value)
