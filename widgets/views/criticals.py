"""CriticalExplorer: the exact odds of one attack under a critical hit and miss rule set, and
one attack rolled and explained step by step.

A thin view over :mod:`combatkit.criticals`. Every control change rebuilds the
:class:`~combatkit.attack.Attacker`, :class:`~combatkit.attack.Defender` and
:class:`~combatkit.attack.CriticalOptions` from the controls, asks
:func:`~combatkit.criticals.attack_odds` for the exact odds and
:func:`~combatkit.criticals.resolve_attack` for one attack (the seed rolls whatever the
referee did not enter), and redraws: the odds as a table and three charts, the attack as
numbered steps each citing its rule, and CSV download links. Bad input never raises out of a
callback: the engine's error (it names the rule and the value given) is shown above the
results, which keep the last attack that worked, and every control keeps what was typed.

>>> explorer = CriticalExplorer("000-II")
>>> explorer.odds.needed, explorer.odds.hit
(7, Fraction(7, 10))
>>> explorer.thac0.value = 0
>>> print(explorer.error)
Aldric: THAC0 must be a whole number 1..20, got 0 (rule PH 2e THAC0 tables)
>>> explorer.thac0.value, explorer.odds.needed
(0, 7)
>>> explorer.thac0.value = 15
>>> explorer.entered_d20.value = "20"
>>> explorer.error, explorer.result.outcome.value
('', 'critical hit')

A defender can be stationary and defenseless (000 §2 C): +4 to be hit and no Dexterity bonus.

>>> explorer.defender_dexterity.value = 16
>>> explorer.defenseless.value = True
>>> explorer.odds.setup.explain()
'Aldric needs 1 on d20 to hit orc: THAC0 15, +2 STR 18/91-99, against AC 6 +4 stationary and defenseless +2 no \
Dexterity bonus (DEX 16) = 12'
"""

from __future__ import annotations

import enum
import html
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import pandas as pd

from combatkit.abilities import thief_adjustments
from combatkit.attack import DEFENSELESS_RULE, AttackForm, Attacker, CriticalOptions, Defender, find_rule_set
from combatkit.criticals import AttackOdds, AttackResult, attack_odds, resolve_attack
from combatkit.dice import MAX_EXACT_TOTALS, Dice, Roller
from combatkit.errors import RulesError
from combatkit.model import Weapon, WeaponKind
from combatkit.stances import Role, Shield, Stance
from combatkit.widgets.charts.criticals import (
    damage_chart,
    damage_spec,
    odds_frame,
    outcome_chart,
    outcome_spec,
    sf_penalty_chart,
    sf_penalty_spec,
)
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.state.urlstate import Applied, Param, control_param
from combatkit.widgets.views.downloads import download_link
from combatkit.widgets.messages import bullets, show_alert
from combatkit.widgets.views.options_view import in_force_words
from combatkit.widgets.views.classes import slug, tag

__all__ = [
    "DEFAULT_ATTACKER",
    "DEFAULT_DEFENDER",
    "MAX_DAMAGE_TOTALS",
    "OPTION_GROUPS",
    "RULE_SETS",
    "CriticalExplorer",
    "read_entered",
    "read_strength",
    "strength_text",
]

DEFAULT_ATTACKER = Attacker("Aldric", Weapon("long sword", 5, damage="d8"), thac0=15, strength=18, exceptional=99)
"""A fighter with the 18/99 strength of 000 §4 Severity Rules II's example and a long sword."""
DEFAULT_DEFENDER = Defender("orc", armor_class=6)
"""An orc, AC 6, no shield."""

MAX_DAMAGE_TOTALS = MAX_EXACT_TOTALS
"""The largest number of different totals the damage dice may roll (a 20d50 has 981): the engine's
:data:`~combatkit.dice.MAX_EXACT_TOTALS`, past which it refuses exact odds. Rolling one attack has no
such limit, but the explorer shows both together."""

RULE_SETS = (
    ("000 I: critical tables", "000-I"),
    ("000 II: severity rules", "000-II"),
    ("004: stances", "004"),
)
"""The rule set buttons: label and :func:`~combatkit.attack.find_rule_set` id."""

OPTION_GROUPS: dict[str, dict[str, str]] = {
    "Every rule set": {
        "natural_20_always_hits": "a natural 20 always hits (DMG 2e)",
        "minimum_damage": "least damage of a hit",
        "defenseless_ac": "a defenseless target's AC change (000 §2 C; -4 reads it as an AC bonus)",
    },
    "000 I: critical tables": {
        "severe_hit_with_critical": "a natural 20 also 10 over rolls damage twice (rows 1-4)",
        "reroll_minimum": "row 1-4 rerolls minimums",
        "missile_misfire": "missile misfire (MW)",
    },
    "000 II: severity rules": {
        "strength_split": "STR split",
        "magic_damage_000_ii": "magic adds to damage as well as to hit",
    },
    "004: stances": {
        "body_points": "Body Points option",
        "fighter_criticals_on_19": "Fighters score critical hits on 19-20",
        "critical_hit_effects": "critical hit special effects (Active or Full Attack)",
        "critical_miss_effects": "critical miss special effects (defending Fighter)",
    },
}
"""The :class:`~combatkit.attack.CriticalOptions` fields the explorer offers, by rule set,
with their labels. The control suits the field: a checkbox, a whole number or a dropdown."""

_ROLES = (
    ("Fighter", Role.FIGHTER),
    ("other warrior (ranger, paladin...)", Role.WARRIOR),
    ("priest, wizard or rogue", Role.OTHER),
    ("monster", Role.MONSTER),
)
_SHIELDS = (("no shield", Shield.NONE), ("shield", Shield.SHIELD), ("large shield", Shield.LARGE))
_STRENGTH = re.compile(r"^\s*(\d{1,2})\s*(?:/\s*(\d{1,3}))?\s*$")
_BOTH_KEPT = "The odds and the roll below still show"
_ROLL_KEPT = "The roll below still shows"
_SMALL = {"description_width": "initial"}
_BOX = {"border": "1px solid #d5d8dc", "padding": "4px 8px", "margin": "4px 8px 4px 0"}


def _width(px: int) -> widgets.Layout:
    return widgets.Layout(width=f"{px}px")


def strength_text(score: int, exceptional: int | None) -> str:
    """STR as players write it: ``"17"``, ``"18/99"``, ``"18/00"`` (exceptional 100)."""
    if exceptional is None:
        return str(score)
    return f"{score}/{'00' if exceptional == 100 else f'{exceptional:02d}'}"


def read_strength(text: str) -> tuple[int, int | None]:
    """``"18/99"`` -> ``(18, 99)``, ``"18/00"`` -> ``(18, 100)``, ``"17"`` -> ``(17, None)``.

    Only the writing is checked here; the engine checks the numbers (STR 1..25, 18/01..18/00).

    >>> read_strength("18/00"), read_strength(" 9 ")
    ((18, 100), (9, None))
    >>> read_strength("eighteen")
    Traceback (most recent call last):
    ...
    ValueError: STR 'eighteen': write a score like 17, or 18/xx for exceptional strength (18/00 for 18/100)
    """
    match = _STRENGTH.match(text)
    if not match:
        raise ValueError(
            f"STR {text!r}: write a score like 17, or 18/xx for exceptional strength (18/00 for 18/100)"
        )
    exceptional = match[2]
    return int(match[1]), None if exceptional is None else 100 if exceptional == "00" else int(exceptional)


def read_entered(text: str, what: str) -> int | tuple[int, ...] | None:
    """A number the referee rolled: ``""`` (roll it with the seed), a total, or each die's face.

    >>> read_entered("", "d20"), read_entered("17", "d20"), read_entered("2, 5", "damage")
    (None, 17, (2, 5))
    """
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not all(re.fullmatch(r"[+-]?\d+", t) for t in tokens):
        raise ValueError(
            f"{what} {text!r}: enter the number rolled (7) or each die's face (2, 5); leave it empty to roll "
            f"with the seed"
        )
    if not tokens:
        return None
    return int(tokens[0]) if len(tokens) == 1 else tuple(int(t) for t in tokens)


def _check_size(damage: str) -> None:
    dice = Dice.parse(damage)
    totals = dice.count * (dice.sides - 1) + 1
    if totals > MAX_DAMAGE_TOTALS:
        raise ValueError(
            f"damage {dice} can roll {totals} different totals; the explorer works out exact odds for dice "
            f"with up to {MAX_DAMAGE_TOTALS} (such as 20d50)"
        )


def _describe(error: ValueError) -> str:
    if isinstance(error, RulesError):
        return f"{error.message} (rule {error.rule})"
    return str(error)


def _option_control(name: str, value: Any, label: str) -> widgets.ValueWidget:
    if isinstance(value, bool):
        control = widgets.Checkbox(value=value, description=label, indent=False, layout=_width(400))
    elif isinstance(value, enum.Enum):
        control = widgets.Dropdown(options=[(m.value, m) for m in type(value)], value=value, description=label,
                                   style=_SMALL, layout=_width(400))
    else:
        control = widgets.IntText(value=value, description=label, continuous_update=False, style=_SMALL,
                                  layout=_width(200))
    return tag(control, "option", f"option-{name.replace('_', '-')}")


class CriticalExplorer(widgets.VBox):
    """Pick an attacker, a defender and a rule set; see the attack's exact odds and roll it.

    ``rule_set`` is ``"000-I"``, ``"000-II"`` or ``"004"`` (or an alias
    :func:`~combatkit.attack.find_rule_set` knows). ``attacker``, ``defender`` and
    ``options`` fill the controls; fields without a control (an AGI score, a combat maneuver,
    conditions...) are kept as given. ``seed`` rolls the dice the referee does not enter.
    """

    def __init__(self, rule_set: str = "000-I", *, attacker: Attacker = DEFAULT_ATTACKER,
                 defender: Defender = DEFAULT_DEFENDER, options: CriticalOptions = CriticalOptions(),
                 seed: int = 1) -> None:
        self.attacker = attacker
        """The last attacker the engine accepted."""
        self.defender = defender
        """The last defender the engine accepted."""
        self.options = options
        """The last options the engine accepted."""
        self.odds: AttackOdds | None = None
        """The exact odds of the last attack that worked: what the table and charts show."""
        self.result: AttackResult | None = None
        """The last attack rolled: what the step-by-step explanation shows."""
        self.error = ""
        """What is wrong with the current input, or ``""``."""
        self.entered: dict[str, int | tuple[int, ...]] = {}
        """The numbers the referee entered for the last attack rolled, by the purpose of the roll."""
        self._applied = Applied()

        weapon = attacker.weapon
        self.heading = tag(widgets.HTML(), "heading")
        self.rule_set = tag(widgets.ToggleButtons(options=RULE_SETS, value=find_rule_set(rule_set).value,
                                                  style={"button_width": "180px"}), "rule-set")
        self.attacker_name = tag(widgets.Text(attacker.name, description="attacker", continuous_update=False,
                                              style=_SMALL, layout=_width(200)), "attacker-name")
        self.role = tag(widgets.Dropdown(options=_ROLES, value=attacker.role, description="class", style=_SMALL,
                                         layout=_width(300)), "role")
        self.thac0 = tag(widgets.IntText(attacker.thac0, description="THAC0", continuous_update=False,
                                         style=_SMALL, layout=_width(110)), "thac0")
        self.strength = tag(widgets.Text(strength_text(attacker.strength, attacker.exceptional), description="STR",
                                         placeholder="17 or 18/99", continuous_update=False, style=_SMALL,
                                         layout=_width(120)), "strength")
        self.dexterity = tag(widgets.IntText(attacker.dexterity, description="DEX", continuous_update=False,
                                             style=_SMALL, layout=_width(100)), "dexterity")
        self.specialization_slots = tag(widgets.IntText(
            attacker.specialization_slots, description="specialization slots", continuous_update=False,
            style=_SMALL, layout=_width(190)), "specialization")
        self.stance = tag(widgets.Dropdown(options=[(s.label, s) for s in Stance], value=attacker.stance,
                                           description="stance", style=_SMALL, layout=_width(210)), "stance")
        self.shield = tag(widgets.Dropdown(options=_SHIELDS, value=attacker.shield, description="carries",
                                           style=_SMALL, layout=_width(190)), "shield")
        self.weapon_name = tag(widgets.Text(weapon.name, description="weapon", continuous_update=False,
                                            style=_SMALL, layout=_width(200)), "weapon-name")
        self.damage = tag(widgets.Text(weapon.damage, description="damage", placeholder="d8, 2d4+1",
                                       continuous_update=False, style=_SMALL, layout=_width(140)), "damage")
        self.speed_factor = tag(widgets.IntText(weapon.speed_factor, description="base SF", continuous_update=False,
                                                style=_SMALL, layout=_width(110)), "speed-factor")
        self.magic = tag(widgets.IntText(weapon.magic_bonus, description="magic +", continuous_update=False,
                                         style=_SMALL, layout=_width(110)), "magic")
        self.kind = tag(widgets.Dropdown(options=[(k.value, k) for k in WeaponKind], value=weapon.kind,
                                         description="kind", style=_SMALL, layout=_width(150)), "kind")
        self.form = tag(widgets.Dropdown(options=[(f.value, f) for f in AttackForm], value=attacker.attack_form,
                                         description="used as", style=_SMALL, layout=_width(190)), "form")
        self.defender_name = tag(widgets.Text(defender.name, description="defender", continuous_update=False,
                                              style=_SMALL, layout=_width(200)), "defender-name")
        self.armor_class = tag(widgets.IntText(defender.armor_class, description="AC", continuous_update=False,
                                               style=_SMALL, layout=_width(100)), "armor-class")
        self.defender_role = tag(widgets.Dropdown(options=_ROLES, value=defender.role, description="is a",
                                                  style=_SMALL, layout=_width(290)), "defender-role")
        self.defender_stance = tag(widgets.Dropdown(options=[(s.label, s) for s in Stance], value=defender.stance,
                                                    description="stance", style=_SMALL, layout=_width(210)),
                                   "defender-stance")
        self.defender_shield = tag(widgets.Dropdown(options=_SHIELDS, value=defender.shield, description="carries",
                                                    style=_SMALL, layout=_width(190)), "defender-shield")
        self.defender_dexterity = tag(widgets.IntText(defender.dexterity, description="DEX", continuous_update=False,
                                                      style=_SMALL, layout=_width(100)), "defender-dexterity")
        self.defenseless = tag(widgets.Checkbox(
            value=defender.defenseless, indent=False, layout=_width(300),
            description="stationary and defenseless: +4 to be hit, no DEX bonus",
            tooltip=f"{DEFENSELESS_RULE}: a target unable to move out of the way of a blow, such as a "
                    f"spellcaster invoking somatic components"), "defenseless")
        self.thief_skills = tag(widgets.HTML(layout=widgets.Layout(max_width="580px")), "thief-skills")
        self.option_controls: dict[str, widgets.ValueWidget] = {
            name: _option_control(name, getattr(options, name), label)
            for group in OPTION_GROUPS.values() for name, label in group.items()
        }
        """One control per offered :class:`~combatkit.attack.CriticalOptions` field, by field name."""

        self.seed = tag(widgets.IntText(seed, description="seed", continuous_update=False, style=_SMALL,
                                        layout=_width(120)), "seed")
        self.roll = tag(widgets.Button(description="Roll again", icon="dice",
                                       tooltip="Roll the dice nobody entered with the next seed"), "roll")
        self.entered_d20 = tag(widgets.Text(description="d20 rolled", placeholder="empty: seed",
                                            continuous_update=False, style=_SMALL, layout=_width(170)), "d20")
        self.entered_d10 = tag(widgets.Text(description="d10 on a critical table", placeholder="empty: seed",
                                            continuous_update=False, style=_SMALL, layout=_width(250)), "d10")
        self.entered_damage = tag(widgets.Text(description="damage dice", placeholder="7, or faces 2, 5",
                                               continuous_update=False, style=_SMALL, layout=_width(220)),
                                  "damage-roll")

        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        self.summary = tag(widgets.HTML(), "summary")
        self.table = tag(widgets.HTML(layout=widgets.Layout(margin="0 0 0 16px")), "odds-table")
        self.sf_note = tag(widgets.HTML(
            "<b>Slowed next strike</b><br>No roll of this attack adds to the weapon's SF: only the severe and "
            "critical misses of 000 §4 Severity Rules II do, when the roll falls 6 or more under the number needed.",
            layout=widgets.Layout(max_width="300px", margin="24px 0 0 16px")), "sf-note")
        self.explanation = tag(widgets.HTML(), "explanation")
        self.download = tag(widgets.HTML(), "download")

        first = self._compute(attacker, defender, options)  # the engine checks what was given
        frame = odds_frame(first)
        self.outcome_chart = tag(chart_view(outcome_chart(frame)), "outcome-chart")
        self.damage_chart = tag(chart_view(damage_chart(frame, first.expected_damage)),
                                "damage-chart")
        self.sf_chart = tag(chart_view(sf_penalty_chart(frame)), "sf-chart")

        row = {"align_items": "center", "flex_flow": "row wrap"}
        attacker_box = tag(widgets.VBox([
            widgets.HTML("<b>Attacker</b>"),
            widgets.HBox([self.attacker_name, self.role], layout=widgets.Layout(**row)),
            widgets.HBox([self.thac0, self.strength, self.dexterity, self.specialization_slots],
                        layout=widgets.Layout(**row)),
            widgets.HBox([self.stance, self.shield], layout=widgets.Layout(**row)),
            widgets.HBox([self.weapon_name, self.damage], layout=widgets.Layout(**row)),
            widgets.HBox([self.speed_factor, self.magic, self.kind, self.form], layout=widgets.Layout(**row)),
            self.thief_skills,
        ], layout=widgets.Layout(**_BOX, width="600px")), "attacker")
        defender_box = tag(widgets.VBox([
            widgets.HTML("<b>Defender</b>"),
            widgets.HBox([self.defender_name, self.armor_class], layout=widgets.Layout(**row)),
            self.defender_role,
            widgets.HBox([self.defender_stance, self.defender_shield], layout=widgets.Layout(**row)),
            widgets.HBox([self.defender_dexterity, self.defenseless], layout=widgets.Layout(**row)),
        ], layout=widgets.Layout(**_BOX, width="420px")), "defender")
        options_box = widgets.Accordion([widgets.HBox([
            widgets.VBox([widgets.HTML(f"<b>{html.escape(group)}</b>"),
                          *(self.option_controls[name] for name in names)],
                         layout=widgets.Layout(margin="0 12px 0 0"))
            for group, names in OPTION_GROUPS.items()
        ], layout=widgets.Layout(flex_flow="row wrap"))], titles=("Options: the seeds' readings and optional rules",),
            selected_index=None)
        tag(options_box, "options")
        self.options_box = options_box
        super().__init__([
            self.heading,
            self.rule_set,
            widgets.HBox([attacker_box, defender_box], layout=widgets.Layout(flex_flow="row wrap")),
            options_box,
            self.message,
            self.summary,
            widgets.HBox([self.outcome_chart, self.table], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.damage_chart, self.sf_chart, self.sf_note],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            tag(widgets.VBox([
               widgets.HTML("<h4 style='margin:8px 0 2px'>Roll one attack</h4>"
                            "<div style='color:#4d5656'>Enter what was rolled at the table, or leave a box "
                            "empty to roll that die with the seed.</div>"),
               widgets.HBox([self.entered_d20, self.entered_d10, self.entered_damage, self.seed, self.roll],
                            layout=widgets.Layout(**row)),
               self.explanation,
            ], layout=widgets.Layout(**_BOX)), "roll-box"),
            self.download,
        ])
        tag(self, "critical-explorer")
        self._observe()
        self._refresh()

    # ------------------------------------------------------------ public

    @property
    def frame(self) -> pd.DataFrame:
        """The odds shown, long form (:func:`~combatkit.widgets.charts.criticals.odds_frame`)."""
        return odds_frame(self.odds)

    @property
    def odds_csv(self) -> str:
        """The odds shown as CSV: what the first download link holds."""
        return self.frame.drop(columns=["outcome", "order"]).to_csv(index=False)

    @property
    def steps_csv(self) -> str:
        """The last attack's steps and the rule for each, as CSV: what the second download link holds."""
        steps = [{"step": n, "text": s.text, "rule": s.rule} for n, s in enumerate(self.result.steps, 1)]
        return pd.DataFrame(steps, columns=["step", "text", "rule"]).to_csv(index=False)

    def url_params(self) -> list[Param]:
        """The keys this explorer's URL carries (see :mod:`combatkit.widgets.state.urlstate`): the rule set,
        every attacker and defender field, every offered option, the seed and the dice entered, each as the
        explorer last applied it (a value it refused stays out of the link)."""
        return [control_param(key, control, low=-30, high=2**31 - 1, applied=self._applied) for key, control in {
            "rules": self.rule_set, "attacker": self.attacker_name, "role": self.role, "thac0": self.thac0,
            "str": self.strength, "dex": self.dexterity, "spec": self.specialization_slots,
            "stance": self.stance, "shield": self.shield, "weapon": self.weapon_name, "damage": self.damage,
            "sf": self.speed_factor, "magic": self.magic, "kind": self.kind, "form": self.form,
            "defender": self.defender_name, "ac": self.armor_class, "defender_role": self.defender_role,
            "defender_stance": self.defender_stance, "defender_shield": self.defender_shield,
            "defender_dex": self.defender_dexterity, "defenseless": self.defenseless, **self.option_controls, "seed": self.seed, "d20": self.entered_d20, "d10": self.entered_d10,
            "dmg": self.entered_damage,
        }.items()]

    def show_rule_set(self, name: str) -> None:
        """Switch to the rule set ``name`` (an id or alias); an unknown name is reported, not raised."""
        try:
            rules = find_rule_set(name)
        except ValueError as error:
            self._show_errors([_describe(error)])
            return
        self.rule_set.value = rules.value

    # ------------------------------------------------------------ wiring

    @property
    def _inputs(self) -> tuple[widgets.ValueWidget, ...]:
        return (
            self.rule_set, self.attacker_name, self.role, self.thac0, self.strength, self.dexterity,
            self.specialization_slots, self.stance, self.shield, self.weapon_name, self.damage, self.speed_factor,
            self.magic, self.kind, self.form, self.defender_name, self.armor_class, self.defender_role,
            self.defender_stance, self.defender_shield, self.defender_dexterity, self.defenseless,
            *self.option_controls.values(), self.seed,
            self.entered_d20, self.entered_d10, self.entered_damage,
        )  # fmt: skip

    def _observe(self) -> None:
        for control in self._inputs:
            control.observe(lambda change: self._refresh(), "value")
        self.roll.on_click(self._on_roll)

    def _on_roll(self, _button: widgets.Button) -> None:
        self.seed.value += 1  # the seed's observer rolls the attack again

    # ------------------------------------------------------------ the engine

    def _build(self) -> tuple[Attacker, Defender, CriticalOptions]:
        """The attacker, defender and options the controls describe (the engine checks them)."""
        score, exceptional = read_strength(self.strength.value)
        weapon = replace(self.attacker.weapon, name=self.weapon_name.value, damage=self.damage.value.strip(),
                         speed_factor=self.speed_factor.value, magic_bonus=self.magic.value, kind=self.kind.value)
        attacker = replace(
            self.attacker, name=self.attacker_name.value, weapon=weapon, thac0=self.thac0.value, strength=score,
            exceptional=exceptional, dexterity=self.dexterity.value, role=self.role.value,
            specialization_slots=self.specialization_slots.value, stance=self.stance.value,
            shield=self.shield.value, form=self.form.value,
        )
        defender = replace(self.defender, name=self.defender_name.value, armor_class=self.armor_class.value,
                           role=self.defender_role.value, stance=self.defender_stance.value,
                           shield=self.defender_shield.value, dexterity=self.defender_dexterity.value,
                           defenseless=self.defenseless.value)
        options = replace(self.options, **{name: c.value for name, c in self.option_controls.items()})
        return attacker, defender, options

    def _compute(self, attacker: Attacker, defender: Defender, options: CriticalOptions) -> AttackOdds:
        _check_size(attacker.weapon.damage)
        return attack_odds(attacker, defender, self.rule_set.value, options=options)

    def _entries(self, name: str) -> dict[str, tuple[int | tuple[int, ...] | None, tuple[str, ...]]]:
        """Each entry box: the referee's number (None: roll with the seed) and the purposes
        :func:`~combatkit.criticals.resolve_attack` rolls it under."""
        return {
            "d20": (read_entered(self.entered_d20.value, "d20 rolled"), (f"attack roll: {name}",)),
            "d10": (read_entered(self.entered_d10.value, "d10 on a critical table"),
                    (f"critical hit table: {name}", f"critical miss table: {name}")),
            "damage": (read_entered(self.entered_damage.value, "damage dice"), (f"damage: {name}",)),
        }

    def _refresh(self) -> None:
        """Work out the odds and roll the attack again; on bad input show why and keep the last good ones."""
        try:
            attacker, defender, options = self._build()
            odds = self._compute(attacker, defender, options)
        except ValueError as error:
            self._show_errors([_describe(error)])
            return
        self.attacker, self.defender, self.options, self.odds = attacker, defender, options, odds
        self.thief_skills.value = _thief_skills_html(attacker)
        self.thief_skills.layout.display = None if self.thief_skills.value else "none"
        self._applied.commit(self._inputs[:-4])  # all but the roll's: the seed and the dice entered
        self.options_box.set_title(0, "Options: the seeds' readings and optional rules (in force: "
                                      f"{in_force_words(options, CriticalOptions())})")
        self._draw_odds(odds)
        try:
            entries = self._entries(attacker.name)
            entered = {p: value for value, purposes in entries.values() if value is not None for p in purposes}
            result = resolve_attack(attacker, defender, odds.rule_set, Roller(seed=self.seed.value, entered=entered),
                                    options=options)
        except ValueError as error:
            self.download.value = _download_html(self)
            self._show_errors([_describe(error)], _ROLL_KEPT)
            return
        used = {r.purpose for r in result.rolls}
        unused = [box for box, (value, purposes) in entries.items() if value is not None and not used & set(purposes)]
        self.result, self.entered = result, entered
        self._applied.commit(self._inputs[-4:])
        self.explanation.value = _explanation_html(result, unused, self.seed.value)
        self.download.value = _download_html(self)
        self._show_errors([])

    def _draw_odds(self, odds: AttackOdds) -> None:
        frame = odds_frame(odds)
        self.outcome_chart.spec = outcome_spec(frame)
        self.damage_chart.spec = damage_spec(frame, odds.expected_damage)
        self.sf_chart.spec = sf_penalty_spec(frame)
        slowed = set(odds.sf_penalty) != {0}
        self.sf_chart.layout.display = None if slowed else "none"
        self.sf_note.layout.display = "none" if slowed else None
        self.heading.value = (
            f"<h3 style='margin:4px 0'>{html.escape(odds.rule_set.title)}</h3>"
            "<div style='color:#4d5656'>Set up an attacker and a defender: the table and the charts show exactly "
            "what one attack can do; the roll below shows one attack, step by step, with the rule for each step."
            "</div>"
        )
        self.summary.value = _summary_html(odds)
        self.table.value = _table_html(frame, odds)

    def _show_errors(self, lines: Sequence[str], kept: str = _BOTH_KEPT) -> None:
        """Show ``lines`` above the results (``kept`` says what still shows the last attack that worked),
        or hide the message when there are none."""
        self.error = "\n".join(lines)
        show_alert(self.message, "" if not lines else (
            f"<b>Not applied:</b>{bullets(lines)}{kept} the last attack that worked; your input is kept so you "
            "can fix it."), max_width=980)


def _thief_skills_html(attacker: Attacker) -> str:
    """The attacker's thief skill adjustments if it may be a thief (a rogue: the class "priest, wizard or rogue";
    ``""`` for a fighter, another warrior or a monster): DEX's three and AGI's three (000 Part 4's split; DEX for
    all without an AGI score), from PH Table 28, or why there are none."""
    if attacker.role is not Role.OTHER:
        return ""
    try:
        rows = thief_adjustments(dexterity=attacker.dexterity, agility=attacker.agility)
    except RulesError as error:
        text = f"{error.message} ({error.rule})"
    else:
        text = "; ".join(row.text() for row in rows) + " (000 Part 4 Thief Adjustments, PH Table 28)"
    return (f"<div style='color:#4d5656;font-size:12px'><b>If this rogue is a thief</b>, DEX and AGI adjust its "
            f"thief skills: {html.escape(text)}</div>")


def _fraction(p: Fraction) -> str:
    return f"{p} ({float(p):.2%})"


def _summary_html(odds: AttackOdds) -> str:
    setup = odds.setup
    terms = "".join(f", {html.escape(str(m))}" for m in setup.damage)
    return (
        "<div style='margin:6px 0;max-width:980px'>"
        f"<div><b>{html.escape(setup.explain())}.</b></div>"
        f"<div>Damage on a hit: {html.escape(setup.attacker.weapon.damage)}{terms}.</div>"
        f"<div>Any hit: <b>{_fraction(odds.hit)}</b>; expected damage per attack: "
        f"<b>{odds.expected_damage} ≈ {float(odds.expected_damage):.2f}</b> hit points.</div></div>"
    )


def _table_html(frame: pd.DataFrame, odds: AttackOdds) -> str:
    """The outcomes with their table rows, then any hit, expected damage and (if any) body points."""
    cell = "padding:1px 8px;text-align:right"

    def line(label: str, exact: str, percent: str, indent: bool = False, bold: bool = False) -> str:
        pad = "padding-left:22px;color:#4d5656" if indent else ""
        weight = "font-weight:bold;" if bold else ""
        return (f"<tr style='{weight}'><td style='padding:1px 8px;{pad}'>{html.escape(label)}</td>"
                f"<td style='{cell}'>{html.escape(exact)}</td><td style='{cell}'>{html.escape(percent)}</td></tr>")

    outcomes = frame[frame["measure"].isin(["outcome", "critical miss row", "critical hit row"])]
    rows = [
        line(r.label if r.measure == "outcome" else f"↳ {r.label}", r.exact, r.percent,
             indent=r.measure != "outcome", bold=r.measure == "outcome")
        for r in outcomes.itertuples()
    ]
    rows.append(line("any hit", str(odds.hit), f"{float(odds.hit):.2%}", bold=True))
    rows.append(line("expected damage", str(odds.expected_damage), f"≈ {float(odds.expected_damage):.2f} hp",
                     bold=True))
    if set(odds.body_points) != {0}:
        rows += [line(r.label, r.exact, r.percent) for r in frame[frame["measure"] == "body points"].itertuples()]
    return ("<table style='border-collapse:collapse;font-size:13px'><thead><tr>"
            "<th style='text-align:left;padding:1px 8px'>the d20</th><th style='padding:1px 8px'>exact</th>"
            f"<th style='padding:1px 8px'>percent</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _explanation_html(result: AttackResult, unused: list[str], seed: int) -> str:
    """The outcome in a line, the steps with their rules, the dice, and any entry this attack did not need."""
    head = f"d20 = {result.natural} against {result.needed}: {result.outcome.value}"
    if result.hit:
        head += f", {result.damage} damage"
    if result.table_row:
        head += f" (table row {result.table_row})"
    if result.sf_penalty:
        head += f", +{result.sf_penalty} SF on the next strike"
    if result.body_points:
        head += f", {result.body_points} body point{'' if result.body_points == 1 else 's'}"
    steps = "".join(
        f"<li>{html.escape(s.text)} <span style='color:#5f6b6d'>[{html.escape(s.rule)}]</span></li>"
        for s in result.steps
    )
    rolls = "".join(f"<li>{html.escape(str(r))}</li>" for r in result.rolls)
    spare = (f"<div style='color:#5f6b6d'>Entered but not needed by this attack: the "
             f"{html.escape(' and the '.join(unused))}.</div>" if unused else "")
    return (
        f"<div style='max-width:980px'><div style='font-size:15px;margin:6px 0'><b>{html.escape(head)}</b></div>"
        f"<ol style='margin:2px 0'>{steps}</ol>"
        f"<details><summary>The dice (seed {seed} for the dice nobody entered)</summary><ul>{rolls}</ul></details>"
        f"{spare}</div>"
    )


def _download_html(explorer: CriticalExplorer) -> str:
    """The odds and the attack's steps as CSV files, each behind a link
    (:func:`~combatkit.widgets.views.downloads.download_link`)."""
    who = slug(f"{explorer.attacker.name} vs {explorer.defender.name}", "attack")
    rules = explorer.odds.rule_set.value
    links = [download_link(text, filename, "text/csv;charset=utf-8", label,
                           style="margin-right:16px;color:#1a5276;text-decoration:underline")
             for text, filename, label in ((explorer.odds_csv, f"critical-odds-{rules}-{who}.csv", "the odds"),
                                           (explorer.steps_csv, f"attack-steps-{rules}-{who}.csv",
                                            "this attack, step by step"))]
    return "<div style='margin:6px 0'><b>Download as CSV:</b> " + "".join(filter(None, links)) + "</div>"
