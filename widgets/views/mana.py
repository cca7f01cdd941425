"""Mana calculators for a caster's player (000 §5, Combat II Supplemental Magic Rules).

Three thin views over :mod:`combatkit.mana`, each with the same caster and rules-option
controls (class, level, CON, WIS, INT, specialist; Mana System I or II, printed table or
stated rule, Wisdom bonus method, Starting Mana rule and its Option 2, recovery rate):

* :class:`ManaPoolCalculator`: the pools, the free spells, what can be cast now by spell
  level (cast a few to watch them drain), and the printed base-mana table beside its rule;
* :class:`DayPlanner`: casts, rests (with time awake in them) and study across a day,
  the pools over time, and the notes on every recovery the rules blocked;
* :class:`RecoveryCalculator`: "how long until full?" from the points left and the rest taken.

Every change rebuilds the engine's values and redraws. A value the rules reject shows
the engine's message (it names the rule and the value) above the result; the result
keeps the last good values and every control keeps what was typed.

>>> calc = ManaPoolCalculator()
>>> calc.state.points
12
>>> calc.level.value = 0
>>> print(calc.error)
caster level must be 1..20 (the rows of the base-mana table), got 0 (000 §5 Mana System I)
>>> calc.level.value, calc.state.points
(0.0, 12)
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import altair as alt
import ipywidgets as widgets
import pandas as pd

from combatkit.abilities import perception_text
from combatkit.errors import RulesError
from combatkit.mana import (
    BaseManaSource,
    BonusMethod,
    Cast,
    Caster,
    CasterClass,
    ConstitutionRule,
    DayPlan,
    Explanation,
    ManaOptions,
    ManaState,
    ManaSystem,
    Note,
    PlanEvent,
    RecoveryEstimate,
    RecoveryRate,
    Rest,
    Spend,
    Study,
    base_mana_comparison,
    cast,
    cast_refusal,
    duration_text,
    explain_base_mana,
    explain_pool_recovery,
    explain_pools,
    explain_recovery,
    mana_state,
    ordinal,
    plan_day,
    time_to_full,
)
from combatkit.widgets.charts.mana import (
    BLOCK_COLUMNS,
    PLAN_COLUMNS,
    base_mana_chart,
    base_mana_frame,
    clock,
    day_plan_chart,
    plan_blocks_frame,
    plan_frame,
)
from combatkit.widgets.charts.render import chart_view
from combatkit.widgets.state.urlstate import Applied, Param, choice_param, control_param, int_param
from combatkit.widgets.messages import show_alert
from combatkit.widgets.views.hush import Hush
from combatkit.widgets.views.classes import tag

__all__ = [
    "DEFAULT_CASTER",
    "DEFAULT_DAY",
    "DayPlanner",
    "ManaCalculators",
    "ManaPoolCalculator",
    "RecoveryCalculator",
    "parse_clock",
]

DEFAULT_CASTER = Caster(CasterClass.PRIEST, 5)
"""000 §5's example: a fifth-level priest, "barring bonus spells", has twelve points."""

DEFAULT_DAY: tuple[PlanEvent, ...] = (
    Cast(60, 3),
    Cast(120, 3),
    Cast(180, 2),
    Rest(240, 780, interruptions=((480, 540),)),
    Cast(500, 2),
    Study(780, 820),
    Study(880, 920),
    Study(950, 1000),
)
"""The day a new :class:`DayPlanner` opens with: three spells, nine hours in bed with an hour's
watch (a 2nd-level spell cast in it), then study broken twice. The watch does not count as
sleep, so the night is 8 hours; the first break is allowed, the second ends the session
(000 §5 Recovery Limit) with two points still missing."""

_SPELL_LEVELS = [(ordinal(n), n) for n in range(1, 10)]
_SMALL = {"description_width": "initial"}
_CLOCK = re.compile(r"\s*(\d+)(?::([0-5]\d))?\s*")


def parse_clock(text: str, what: str) -> int:
    """Minutes from the plan's start, from ``"7:30"``, ``"26:00"`` or ``"3"`` (hours).

    >>> parse_clock("7:30", "cast at"), parse_clock("26", "rest until")
    (450, 1560)
    >>> parse_clock("8pm", "cast at")
    Traceback (most recent call last):
    ...
    ValueError: cast at: '8pm' is not a time; write hours:minutes from the start of the plan, like 7:30 or 26:00
    """
    match = _CLOCK.fullmatch(text)
    if match is None:
        raise ValueError(f"{what}: {text!r} is not a time; write hours:minutes from the start of the plan, "
                         "like 7:30 or 26:00")
    return int(match[1]) * 60 + int(match[2] or 0)


def _parse_awake(text: str) -> tuple[tuple[int, int], ...]:
    """``"8:00-9:00, 11:00-11:20"`` -> ((480, 540), (660, 680)); empty text: no time awake."""
    spans = []
    for part in (p for p in text.split(",") if p.strip()):
        ends = re.split(r"\s*[-\u2013]\s*", part.strip())
        if len(ends) != 2:
            raise ValueError(f"awake during the rest: {part.strip()!r} is not a from-to span; write e.g. 8:00-9:00")
        spans.append((parse_clock(ends[0], "awake from"), parse_clock(ends[1], "awake until")))
    return tuple(spans)


_LEVEL_RULE = "000 §5 Mana System I"
_ABILITY_RULE = "PH ability scores"


def _whole(value: float, what: str, rule: str) -> int:
    """``value`` as a whole number; a fraction typed in a number box is refused by name, not rounded.

    >>> _whole(5.0, "caster level", _LEVEL_RULE)
    5
    >>> _whole(2.5, "caster level", _LEVEL_RULE)
    Traceback (most recent call last):
    ...
    combatkit.errors.RulesError: caster level must be a whole number, got 2.5 (000 §5 Mana System I)
    """
    if value != int(value):
        raise RulesError(rule, f"{what} must be a whole number, got {value:g}")
    return int(value)


def _rest_minutes(hours: float) -> int:
    return round(hours * 60)


def _said_minute(minute: int) -> str:
    """How the planner's messages name a minute: the engine's count and the hours:minutes its fields take.

    >>> _said_minute(1020)
    'minute 1020 (17:00)'
    """
    return f"minute {minute} ({clock(minute)})"


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], css: str = "") -> str:
    """An HTML table; cells are escaped here."""
    head = "".join(f"<th style='text-align:left;padding:2px 10px 2px 0'>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        f"<tr class='{css}'>" + "".join(f"<td style='padding:2px 10px 2px 0'>{html.escape(c)}</td>" for c in row)
        + "</tr>" for row in rows
    )
    return f"<table style='border-collapse:collapse'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _items(notes: Sequence[Note]) -> str:
    """The engine's notes as list items, as they are."""
    return "".join(f"<li>{html.escape(note.text)}</li>" for note in notes)


def _headline(explanation: Explanation, css: str = "") -> str:
    """The engine's headline as a heading, with a CSS class a page can find it by."""
    attribute = f" class='{css}'" if css else ""
    return f"<h4{attribute} style='margin:6px 0'>{html.escape(explanation.headline)}</h4>"


class _ManaView(widgets.VBox):
    """The caster and rules-option controls the calculators share, and their message box.

    Subclasses build their own controls and outputs, then call :meth:`_start`; their
    ``_refresh`` calls the engine and returns whether the input was applied.
    """

    def __init__(self, caster: Caster, options: ManaOptions) -> None:
        self.error = ""
        """What is wrong with the current input (the engine's message), or ``""``."""
        self._quiet = Hush()
        self.applied = Applied()
        """What the caster and option controls held when the engine last took them."""
        self.caster_class = tag(widgets.Dropdown(
            options=[(c.value, c) for c in CasterClass], value=caster.caster_class, description="class",
            style=_SMALL, layout=widgets.Layout(width="150px")), "class")
        # number boxes that take what is typed: "2.5" is refused by name, not read as 25 (a whole-number box
        # drops the point as it is typed)
        self.level = tag(widgets.FloatText(value=caster.level, description="level", continuous_update=False,
                                           style=_SMALL, layout=widgets.Layout(width="105px")), "level")
        self.constitution = tag(widgets.FloatText(value=caster.constitution, description="CON",
                                                  continuous_update=False, style=_SMALL,
                                                  layout=widgets.Layout(width="95px")), "con")
        self.wisdom = tag(widgets.FloatText(value=caster.wisdom, description="WIS", continuous_update=False,
                                            style=_SMALL, layout=widgets.Layout(width="95px")), "wis")
        self.intelligence = tag(widgets.FloatText(value=caster.intelligence, description="INT",
                                                  continuous_update=False, style=_SMALL,
                                                  layout=widgets.Layout(width="95px")), "int")
        self.specialist = tag(widgets.Checkbox(value=caster.specialist, description="specialist wizard",
                                               indent=False, layout=widgets.Layout(width="140px")), "specialist")
        self.system = tag(widgets.Dropdown(options=[
            ("System I: a pool of points", ManaSystem.POINTS),
            ("System II: slots per spell level", ManaSystem.SLOTS),
        ], value=options.system, description="mana", style=_SMALL, layout=widgets.Layout(width="290px")), "system")
        self.base = tag(widgets.Dropdown(options=[
            ("the printed table", BaseManaSource.PRINTED),
            ("the stated rule: 1 point per spell level per spell", BaseManaSource.COMPUTED),
        ], value=options.base, description="base mana", style=_SMALL, layout=widgets.Layout(width="420px")), "base")
        self.wisdom_bonus = tag(widgets.Dropdown(options=[
            ("method 1: their points join the pool", BonusMethod.ADDED),
            ("method 2: free boxes, used first", BonusMethod.FREE_BOXES),
        ], value=options.wisdom_bonus, description="WIS bonus spells", style=_SMALL,
            layout=widgets.Layout(width="370px")), "wisdom-bonus")
        self.constitution_rule = tag(widgets.Dropdown(options=[
            ("off", ConstitutionRule.OFF),
            ("Starting Mana: CON ÷ 3 while above the base", ConstitutionRule.STARTING),
            ("Option 1: add CON ÷ 3 at every level", ConstitutionRule.ADDED),
        ], value=options.constitution, description="CON", style=_SMALL,
            layout=widgets.Layout(width="370px")), "con-rule")
        self.prime_requisite = tag(widgets.Checkbox(
            value=options.constitution_with_prime_requisite, indent=False,
            description="Option 2: average CON with WIS (priest spells) or INT (wizard spells)",
            layout=widgets.Layout(width="470px")), "prime-requisite")
        self.recovery_rate = tag(widgets.Dropdown(options=[
            ("10 minutes per point (PH p. 81)", RecoveryRate.FLAT),
            ("13 − highest spell level, per point", RecoveryRate.BY_SPELL_LEVEL),
        ], value=options.recovery_rate, description="recovery", style=_SMALL,
            layout=widgets.Layout(width="330px")), "recovery-rate")
        self.message = tag(widgets.HTML(layout=widgets.Layout(display="none")), "message")
        super().__init__()

    # ------------------------------------------------------------ public

    def show_caster(self, caster: Caster, options: ManaOptions | None = None) -> None:
        """Set the controls to ``caster`` (and ``options``) and recompute once."""
        with self._quiet():
            self.caster_class.value = caster.caster_class
            self.level.value = caster.level
            self.constitution.value = caster.constitution
            self.wisdom.value = caster.wisdom
            self.intelligence.value = caster.intelligence
            self.specialist.value = caster.specialist
            if options is not None:
                self.system.value = options.system
                self.base.value = options.base
                self.wisdom_bonus.value = options.wisdom_bonus
                self.constitution_rule.value = options.constitution
                self.prime_requisite.value = options.constitution_with_prime_requisite
                self.recovery_rate.value = options.recovery_rate
        self._refresh()

    # ------------------------------------------------------------ for subclasses

    @property
    def _caster_controls(self) -> tuple[widgets.ValueWidget, ...]:
        return (self.caster_class, self.level, self.constitution, self.wisdom, self.intelligence, self.specialist,
                self.system, self.base, self.wisdom_bonus, self.constitution_rule, self.prime_requisite,
                self.recovery_rate)

    def _start(self, name: str, heading: str, *body: widgets.Widget) -> None:
        """Lay out the heading, the caster and option rows, the message and ``body``; wire the controls."""
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.children = (
            widgets.HTML(heading),
            tag(widgets.HBox([self.caster_class, self.level, self.constitution, self.wisdom, self.intelligence,
                              self.specialist], layout=wrap), "caster"),
            tag(widgets.HBox([self.system, self.base, self.wisdom_bonus, self.constitution_rule,
                              self.prime_requisite, self.recovery_rate], layout=wrap), "options"),
            self.message,
            *body,
        )
        tag(self, "mana", f"mana-{name}")
        for control in self._caster_controls:
            control.observe(self._on_change, "value")

    def _read(self) -> tuple[Caster, ManaOptions]:
        """The engine's values for the controls; raises the engine's error for a value it rejects."""
        caster = Caster(self.caster_class.value, _whole(self.level.value, "caster level", _LEVEL_RULE),
                        constitution=_whole(self.constitution.value, "CON", _ABILITY_RULE),
                        wisdom=_whole(self.wisdom.value, "WIS", _ABILITY_RULE),
                        intelligence=_whole(self.intelligence.value, "INT", _ABILITY_RULE),
                        specialist=self.specialist.value)
        options = ManaOptions(system=self.system.value, base=self.base.value, wisdom_bonus=self.wisdom_bonus.value,
                              constitution=self.constitution_rule.value,
                              constitution_with_prime_requisite=self.prime_requisite.value,
                              recovery_rate=self.recovery_rate.value)
        return caster, options

    def _applied_now(self) -> None:
        """The engine took the caster and options: what a link carries from now on."""
        self.applied.commit(self._caster_controls)

    def _on_change(self, _change) -> None:
        if not self._quiet:
            self._refresh()  # each calculator's own: call the engine, redraw, say whether it was applied

    def _show_error(self, error: ValueError | None, kept: str = "the last result that worked") -> None:
        self.error = "" if error is None else str(error)
        show_alert(self.message, "" if not self.error else (
            f"<b>Not applied:</b> {html.escape(self.error)}<br>Below is still {kept}; your input is kept so you "
            "can fix it."))


class ManaPoolCalculator(_ManaView):
    """A caster's pools under 000 §5 Mana System I or II, what can be cast now, and the base-mana table.

    ``caster`` and ``options`` set the controls it opens with. Press **Cast** to spend a
    spell of the chosen level (the list of what can be cast follows) and **Recover all**
    to start full again; casts are replayed when the caster or the options change.
    """

    def __init__(self, caster: Caster = DEFAULT_CASTER, options: ManaOptions = ManaOptions()) -> None:
        super().__init__(caster, options)
        self.caster: Caster | None = None
        """The last caster that passed the engine's checks."""
        self.options: ManaOptions | None = None
        """Its options."""
        self.full: ManaState | None = None
        """Its pools, fully recovered."""
        self.state: ManaState | None = None
        """Its pools after the casts: what the calculator shows."""
        self.spends: tuple[Spend, ...] = ()
        """What each cast drew, and from where."""
        self._casts: list[tuple[int, bool]] = []
        self.spell_level = tag(widgets.Dropdown(options=_SPELL_LEVELS, value=1, description="spell level",
                                                style=_SMALL, layout=widgets.Layout(width="150px")), "spell-level")
        self.specialty = tag(widgets.Checkbox(description="specialty spell", indent=False,
                                              layout=widgets.Layout(width="130px")), "specialty")
        self.cast_button = tag(widgets.Button(description="Cast", icon="magic", button_style="primary",
                                              tooltip="Spend one spell of this level"), "cast")
        self.recover_button = tag(widgets.Button(description="Recover all", icon="undo",
                                                 tooltip="Forget the casts: every pool full"), "recover")
        self.summary = tag(widgets.HTML(), "summary")
        self.castable = tag(widgets.HTML(), "castable")
        self.comparison = tag(widgets.HTML(), "comparison")
        self.chart: alt.JupyterChart | None = None
        if not self._refresh():  # e.g. options the engine rejects: still draw the caster's class
            self.chart = chart_view(base_mana_chart(base_mana_frame(caster.caster_class, caster.level)))
        tag(self.chart, "chart")
        self._start(
            "pool",
            "<h3 style='margin:4px 0'>Mana pool</h3><div style='color:#4d5656'>What a caster has to spend "
            "under Combat II's mana rules (000 §5), and what it can cast right now.</div>",
            self.summary,
            widgets.HBox([self.spell_level, self.specialty, self.cast_button, self.recover_button],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.castable,
            self.comparison,
            self.chart,
        )
        self.cast_button.on_click(self._on_cast)
        self.recover_button.on_click(self._on_recover)

    def _refresh(self) -> bool:
        try:
            caster, options = self._read()
            full = mana_state(caster, options)
            state, spends = full, []
            for level, specialty in self._casts:
                state, spend = cast(state, level, specialty=specialty)
                spends.append(spend)
        except ValueError as error:
            self._show_error(error)
            return False
        redraw = self.caster is None or (caster.caster_class, caster.level) != (
            self.caster.caster_class, self.caster.level)
        self.caster, self.options, self.full, self.state, self.spends = caster, options, full, state, tuple(spends)
        self.summary.value = self._summary_html()
        self.castable.value = self._castable_html()
        self.comparison.value = self._comparison_html()
        if redraw:
            chart = base_mana_chart(base_mana_frame(caster.caster_class, caster.level))
            if self.chart is None:
                self.chart = chart_view(chart)
            else:
                self.chart.chart = chart
        self._applied_now()
        self._show_error(None)
        return True

    def _on_cast(self, _button) -> None:
        self._casts.append((self.spell_level.value, self.specialty.value))
        if not self._refresh():
            self._casts.pop()

    def _on_recover(self, _button) -> None:
        self._casts.clear()
        self._refresh()

    # ------------------------------------------------------------ what it shows

    def _summary_html(self) -> str:
        caster, state = self.caster, self.state
        explanation = explain_pools(state, caster)
        perception = perception_text(intelligence=caster.intelligence, wisdom=caster.wisdom, level=caster.level,
                                     char_class=caster.caster_class.value)
        items = _items(explanation.notes) + f"<li class='ck-perception'>{html.escape(perception)}.</li>"
        if not state.pools:
            return f"{_headline(explanation)}<ul style='margin:4px 0'>{items}</ul>"
        rows = [(pool.label, str(pool.available), str(pool.maximum), explain_pool_recovery(pool).text)
                for pool in state.pools]
        if self.spends:
            spent = "".join(f"<li>{html.escape(spend.cause)}</li>" for spend in self.spends)
            items += f"<li>Spent so far:<ul class='ck-spends' style='margin:2px 0'>{spent}</ul></li>"
        return (_headline(explanation) + _table(("pool", "now", "full", "comes back"), rows, "ck-pool-row")
                + f"<ul style='margin:4px 0'>{items}</ul>")

    def _castable_html(self) -> str:
        """One row per spell level the caster may cast: whether it can be cast now, how many in a row, and
        what pays for the next one. Every answer comes from :func:`~combatkit.mana.cast` on the current pools."""
        state, caster = self.state, self.caster
        rows = []
        for level in range(1, state.highest_spell_level + 1):
            for specialty in (False, True) if caster.specialist else (False,):
                count, first, why = 0, "", ""
                current = state
                while not why:
                    try:
                        current, spend = cast(current, level, specialty=specialty)
                    except RulesError as error:
                        why = str(error)
                    else:
                        first = first or spend.cause
                        count += 1
                rows.append((f"{ordinal(level)}{' specialty' if specialty else ''}",
                             f"yes, {count} in a row" if count else "no", first or why))
        parts = ["<h4 style='margin:8px 0 2px'>What can be cast now</h4>"]
        if rows:
            parts.append(_table(("spell level", "now", "the next one"), rows, "ck-castable-row"))
        if state.highest_spell_level < 9:
            try:
                cast(state, state.highest_spell_level + 1)
            except RulesError as error:
                parts.append(f"<div class='ck-above'>{ordinal(state.highest_spell_level + 1)} level and up: "
                             f"{html.escape(str(error))}</div>")
        return "".join(parts)

    def _comparison_html(self) -> str:
        caster, options = self.caster, self.options
        explanation = explain_base_mana(caster, options)
        if base_mana_comparison(caster.caster_class)[caster.level - 1].agrees:
            return f"<div class='ck-agree' style='margin:6px 0'>{html.escape(explanation.headline)}</div>"
        using = "the printed table" if options.base is BaseManaSource.PRINTED else "the stated rule"
        change = " Change “base mana” above to use the other." if options.system is ManaSystem.POINTS else ""
        notes = " ".join(html.escape(note.text) for note in explanation.notes)
        return (
            "<div class='ck-differ' role='note' style='border:1px solid #d68910;background:#fef5e7;padding:6px 10px;"
            f"border-radius:4px;margin:6px 0'><b>{html.escape(explanation.headline)}</b> {notes} "
            f"This calculator is using {using}.{change}</div>"
        )


class DayPlanner(_ManaView):
    """Spend and recover across a day (000 §5 Mana Recovery, Bonus Spell Points, Recovery Limit).

    Add casts (a time and a spell level), rests (from, until, and any time awake inside
    them) and study sessions; times are hours:minutes from the start of the plan, so a
    second day runs on from 24:00. The chart shows each pool over time with the rests and
    study shaded, and the notes say why any recovery was blocked, citing the rule.
    ``events`` set the day it opens with (default :data:`DEFAULT_DAY`).
    """

    def __init__(self, caster: Caster = DEFAULT_CASTER, options: ManaOptions = ManaOptions(), *,
                 events: Sequence[PlanEvent] = DEFAULT_DAY, start_empty: bool = False,
                 prior_rest_hours: float = 8) -> None:
        super().__init__(caster, options)
        self._events: list[PlanEvent] = list(events)
        self.plan: DayPlan | None = None
        """The last day that the engine could play: what the chart and the notes show."""
        self.planned: tuple[PlanEvent, ...] = ()
        """The events of :attr:`plan`."""
        self.set_aside: dict[int, str] = {}
        """Casts of the day this caster cannot cast at all (by their place in :attr:`events`), and the engine's
        reason: kept in the day, left out of the plan until the caster can cast them."""
        self.aside = tag(widgets.HTML(layout=widgets.Layout(display="none")), "set-aside")
        self.start_empty = tag(widgets.Checkbox(value=start_empty, description="start with every pool spent",
                                                indent=False, layout=widgets.Layout(width="210px")), "start-empty")
        self.prior_rest = tag(widgets.FloatText(value=prior_rest_hours, description="hours slept before the plan",
                                                continuous_update=False, style=_SMALL,
                                                layout=widgets.Layout(width="230px")), "prior-rest")
        self.kind = tag(widgets.ToggleButtons(options=[("cast", "cast"), ("rest", "rest"), ("study", "study")],
                                              value="cast", style={"button_width": "70px"}), "kind")
        self.start = tag(widgets.Text(value="0:00", description="at / from", style=_SMALL,
                                      layout=widgets.Layout(width="150px")), "start")
        self.end = tag(widgets.Text(value="1:00", description="until", style=_SMALL,
                                    layout=widgets.Layout(width="125px")), "end")
        self.spell_level = tag(widgets.Dropdown(options=_SPELL_LEVELS, value=1, description="spell level",
                                                style=_SMALL, layout=widgets.Layout(width="150px")), "spell-level")
        self.specialty = tag(widgets.Checkbox(description="specialty", indent=False,
                                              layout=widgets.Layout(width="90px")), "specialty")
        self.awake = tag(widgets.Text(description="awake", placeholder="e.g. 3:00-3:30, 5:00-5:10", style=_SMALL,
                                      layout=widgets.Layout(width="260px")), "awake")
        self.add = tag(widgets.Button(description="Add", icon="plus", button_style="primary",
                                      tooltip="Add this cast, rest or study to the day"), "add")
        self.event_list = tag(widgets.Select(rows=9, tooltip="The day's events", layout=widgets.Layout(width="460px")),
                              "events")
        self.remove = tag(widgets.Button(description="Remove", icon="trash", tooltip="Remove the selected event"),
                          "remove")
        self.clear = tag(widgets.Button(description="Clear the day", icon="eraser"), "clear")
        self.summary = tag(widgets.HTML(), "summary")
        self.notes = tag(widgets.HTML(), "notes")
        self.chart: alt.JupyterChart | None = None
        self._enable_form()
        self._show_events()
        if not self._refresh():  # e.g. a day the engine cannot play: an empty chart until it is fixed
            self.chart = chart_view(day_plan_chart(pd.DataFrame(columns=list(PLAN_COLUMNS)),
                                                   pd.DataFrame(columns=list(BLOCK_COLUMNS))))
        tag(self.chart, "chart")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        form = tag(widgets.VBox([
            widgets.HTML("<b>Add to the day</b> (times are hours:minutes from the start of the plan: 7:30, 26:00)"),
            widgets.HBox([self.kind, self.start, self.end], layout=wrap),
            widgets.HBox([self.spell_level, self.specialty, self.awake, self.add], layout=wrap),
        ], layout=widgets.Layout(border="1px solid #d5d8dc", padding="6px", margin="6px 0")), "form")
        self._start(
            "planner",
            "<h3 style='margin:4px 0'>A day of casting, rest and study</h3><div style='color:#4d5656'>"
            "Spend and recover across a day under 000 §5's recovery rules: study after a rest regains points; "
            "under 4 hours' sleep regains nothing; a session survives one break of up to 2 hours; no pool regains "
            "more than its total in 24 hours.</div>",
            widgets.HBox([self.start_empty, self.prior_rest], layout=wrap),
            form,
            widgets.HBox([self.event_list, widgets.VBox([self.remove, self.clear])]),
            self.aside,
            self.chart,
            self.summary,
            self.notes,
        )
        for control in (self.start_empty, self.prior_rest):
            control.observe(self._on_change, "value")
        self.kind.observe(lambda _change: self._enable_form(), "value")
        self.add.on_click(self._on_add)
        self.remove.on_click(self._on_remove)
        self.clear.on_click(self._on_clear)

    @property
    def events(self) -> tuple[PlanEvent, ...]:
        """The day as entered (the list beside the chart), in the order added."""
        return tuple(self._events)

    def add_event(self, event: PlanEvent) -> bool:
        """Add ``event`` to the day if the engine can play the day with it; else show why. Returns whether added."""
        try:
            refusal = cast_refusal(mana_state(*self._read()), event, clock=_said_minute)
        except ValueError:
            refusal = None  # the caster itself is refused: _refresh says so
        if refusal is not None:
            self._show_error(refusal, kept="the last day that worked")
            return False
        self._events.append(event)
        if not self._refresh():
            self._events.pop()
            return False
        self._show_events()
        return True

    # ------------------------------------------------------------ the form

    def _enable_form(self) -> None:
        kind = self.kind.value
        self.end.disabled = kind == "cast"
        self.spell_level.disabled = self.specialty.disabled = kind != "cast"
        self.awake.disabled = kind != "rest"

    def _event_from_form(self) -> PlanEvent:
        start = parse_clock(self.start.value, "at / from")
        if self.kind.value == "cast":
            return Cast(start, self.spell_level.value, specialty=self.specialty.value)
        end = parse_clock(self.end.value, "until")
        if self.kind.value == "rest":
            return Rest(start, end, interruptions=_parse_awake(self.awake.value))
        return Study(start, end)

    def _on_add(self, _button) -> None:
        try:
            event = self._event_from_form()
        except ValueError as error:
            self._show_error(error, kept="the last day that worked")
            return
        self.add_event(event)

    def _on_remove(self, _button) -> None:
        if self.event_list.value is None:
            return
        del self._events[self.event_list.value]
        self._show_events()
        self._refresh()

    def _on_clear(self, _button) -> None:
        self._events.clear()
        self._show_events()
        self._refresh()

    def _show_events(self) -> None:
        order = sorted(range(len(self._events)), key=lambda i: (_event_start(self._events[i]), i))
        aside = getattr(self, "set_aside", {})
        self.event_list.options = [(_event_label(self._events[i]) + (" (not played)" if i in aside else ""), i)
                                   for i in order]
        self.event_list.value = None

    # ------------------------------------------------------------ the engine

    def _refresh(self) -> bool:
        try:
            caster, options = self._read()
            state = mana_state(caster, options)
            aside = {i: str(refusal) for i, event in enumerate(self._events)
                     if (refusal := cast_refusal(state, event)) is not None}
            if self.start_empty.value:
                state = state.emptied()
            played = [event for i, event in enumerate(self._events) if i not in aside]
            plan = plan_day(state, played, prior_rest_minutes=_rest_minutes(self.prior_rest.value), clock=_said_minute)
        except ValueError as error:
            self._show_error(error, kept="the last day that worked")
            return False
        self.plan, self.planned = plan, tuple(played)
        if aside != self.set_aside:
            self.set_aside = aside
            self._show_events()
        self.aside.value = "" if not aside else (
            "<div role='note' style='border:1px solid #d68910;background:#fef5e7;padding:6px 10px;border-radius:4px;"
            "margin:4px 0'><b>Not played for this caster</b> (kept in the day: they play again for a caster who can "
            "cast them):<ul style='margin:2px 0'>" + "".join(
                f"<li>{html.escape(_event_label(self._events[i]))}: {html.escape(why)}</li>" for i, why in aside.items())
            + "</ul></div>")
        self.aside.layout.display = None if aside else "none"
        chart = day_plan_chart(plan_frame(plan), plan_blocks_frame(self.planned, plan))
        if self.chart is None:
            self.chart = chart_view(chart)
        else:
            self.chart.chart = chart
        self.summary.value = _plan_summary_html(plan)
        self.notes.value = _plan_notes_html(plan)
        self._applied_now()
        self._show_error(None)
        return True


def _event_start(event: PlanEvent) -> int:
    return event.minute if isinstance(event, Cast) else event.start


def _event_label(event: PlanEvent) -> str:
    if isinstance(event, Cast):
        specialty = "specialty " if event.specialty else ""
        return f"{clock(event.minute)} cast a {ordinal(event.spell_level)}-level {specialty}spell"
    span = f"{clock(event.start)}-{clock(event.end)}"
    if isinstance(event, Rest):
        awake = ", ".join(f"{clock(a)}-{clock(b)}" for a, b in event.interruptions)
        awake = f"; awake {awake}" if awake else ""
        return f"{span} rest: {duration_text(event.sleep_minutes)} asleep{awake}"
    return f"{span} study"


def _plan_summary_html(plan: DayPlan) -> str:
    if not plan.start.pools:
        return f"<div>{html.escape(plan.start.who)} has no spells, so no mana to plan.</div>"
    rows = [(pool.label, f"{start.available} of {start.maximum}", f"{pool.available} of {pool.maximum}")
            for start, pool in zip(plan.start.pools, plan.final.pools, strict=True)]
    full_at = plan.full_at
    if full_at is None:
        when = "Not full at the end of the plan."
    elif full_at == 0:
        when = "Full all day."
    else:
        when = f"Full again from {clock(full_at)}."
    return (f"<h4 style='margin:6px 0'>{html.escape(plan.start.who)}, 0:00 to {clock(plan.end)}</h4>"
            + _table(("pool", "at 0:00", f"at {clock(plan.end)}"), rows, "ck-plan-row")
            + f"<div class='ck-full-at'>{when}</div>")


def _plan_notes_html(plan: DayPlan) -> str:
    heading = "<h4 style='margin:6px 0'>Blocked recoveries</h4>"
    if not plan.notes:
        return heading + "<div class='ck-no-notes'>None: nothing was blocked.</div>"
    items = "".join(f"<li><b>{clock(note.minute)}</b>: {html.escape(note.text)} "
                    f"<span style='color:#5f6b6d'>[{html.escape(note.rule)}]</span></li>" for note in plan.notes)
    return f"{heading}<ul class='ck-note-list'>{items}</ul>"


class RecoveryCalculator(_ManaView):
    """How long until full? The points (or slots) left in each pool and the rest taken give the
    study time, the minutes per point and each pool's share (000 §5 Mana Recovery).

    The pools start empty: a 20th-level wizard then needs 27 hours, as the seed says.
    """

    def __init__(self, caster: Caster = DEFAULT_CASTER, options: ManaOptions = ManaOptions(), *,
                 rest_hours: float = 8) -> None:
        super().__init__(caster, options)
        self.state: ManaState | None = None
        """The pools as entered, from the last input the engine accepted."""
        self.estimate: RecoveryEstimate | None = None
        """The engine's answer for them."""
        self.current: dict[str, widgets.IntText] = {}
        """One box per pool of the caster, by pool label: points (or boxes) left now."""
        self._kept: dict[str, widgets.IntText] = {}
        self.rest_hours = tag(widgets.FloatText(value=rest_hours, description="hours of rest before studying",
                                                continuous_update=False, style=_SMALL,
                                                layout=widgets.Layout(width="250px")), "rest-hours")
        self.pools_box = tag(widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                             "pools")
        self.answer = tag(widgets.HTML(), "answer")
        self._start(
            "recovery",
            "<h3 style='margin:4px 0'>How long until full?</h3><div style='color:#4d5656'>“It would therefore take "
            "a 20th level mage 27 hours to completely regain his spells (realistically, another night's sleep must "
            "be added to this time).” (000 §5 Mana Recovery)</div>",
            widgets.HBox([widgets.HTML("<b>Left now:</b>"), self.pools_box, self.rest_hours],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.answer,
        )
        self.rest_hours.observe(self._on_change, "value")
        self._refresh()

    def _pool_inputs(self, full: ManaState) -> None:
        """One box per pool of ``full``; a pool seen before keeps what was typed in its box."""
        for pool in full.pools:
            if pool.label not in self._kept:
                box = tag(widgets.IntText(value=0, description=pool.label, continuous_update=False, style=_SMALL,
                                          layout=widgets.Layout(width="170px")), "left")
                box.observe(self._on_change, "value")
                self._kept[pool.label] = box
        self.current = {pool.label: self._kept[pool.label] for pool in full.pools}
        self.pools_box.children = tuple(self.current.values())

    def _refresh(self) -> bool:
        try:
            caster, options = self._read()
            full = mana_state(caster, options)
            self._pool_inputs(full)
            state = full
            for label, box in self.current.items():
                state = state.with_available(label, box.value)
            estimate = time_to_full(state, rest_minutes=_rest_minutes(self.rest_hours.value))
        except ValueError as error:
            self._show_error(error)
            return False
        self.state, self.estimate = state, estimate
        self.answer.value = _recovery_html(state, estimate)
        self._applied_now()
        self._show_error(None)
        return True


def _recovery_html(state: ManaState, estimate: RecoveryEstimate) -> str:
    explanation = explain_recovery(state, estimate)
    rows = []
    for recovery in estimate.pools:
        pool = state.pool(recovery.pool)
        each = recovery.minutes_each
        rows.append((recovery.pool, f"{pool.available} of {pool.maximum}", str(recovery.automatic),
                     str(recovery.studied), _number(recovery.minutes), "—" if each is None else _number(each)))
    table = _table(("pool", "left", "back after sleep", "by study", "study minutes", "minutes each"), rows,
                   "ck-recovery-row") if rows else ""
    items = f"<ul style='margin:4px 0'>{_items(explanation.notes)}</ul>" if explanation.notes else ""
    return _headline(explanation, "ck-headline") + table + items


_URL_CONTROLS = {  # URL key -> the caster or option control every calculator has
    "class": "caster_class", "level": "level", "con": "constitution", "wis": "wisdom", "int": "intelligence",
    "specialist": "specialist", "system": "system", "base": "base", "wis_bonus": "wisdom_bonus",
    "con_rule": "constitution_rule", "prime_req": "prime_requisite", "recovery": "recovery_rate",
}
_CASTER_CONTROLS = tuple(_URL_CONTROLS.values())
"""The caster and rules-option controls every calculator has: linked, so the tabs share one caster."""
_URL_RANGES = {"level": (1, 20), "con": (3, 25), "wis": (3, 25), "int": (3, 25)}
"""The base-mana table's levels and the ability scores a link may carry (the engine checks the rest)."""
_TABS = ("pool", "day", "recovery")


class ManaCalculators(widgets.Tab):
    """The three calculators in tabs, for one caster: what the mana dashboard shows. The caster and its
    options are one: set wizard level 1 in "Mana pool" and the day planner and "How long until full?" show
    that wizard too.

    Its URL (see :mod:`combatkit.widgets.state.urlstate`) carries the open tab and the open tab's
    caster and options; a link opens every calculator with them.
    """

    def __init__(self, caster: Caster = DEFAULT_CASTER, options: ManaOptions = ManaOptions()) -> None:
        self.calculators = (ManaPoolCalculator(caster, options), DayPlanner(caster, options),
                            RecoveryCalculator(caster, options))
        super().__init__(self.calculators, titles=("Mana pool", "Day planner", "How long until full?"),
                         selected_index=0)
        self.add_class("ck-mana-tabs")
        first, *others = self.calculators
        for attr in _CASTER_CONTROLS:  # one caster and one set of options for every tab
            for other in others:
                widgets.link((getattr(first, attr), "value"), (getattr(other, attr), "value"))

    def url_params(self) -> list[Param]:
        def shown() -> _ManaView:
            return self.calculators[self.selected_index or 0]

        def bound(key: str, attr: str) -> Param:
            control = getattr(shown(), attr)

            def set_all(value) -> None:  # the tabs share the caster: setting one sets them all
                control.value = value

            def applied():  # what the open tab's engine last took, never a value it refused
                value = shown().applied.value(getattr(shown(), attr))
                return int(value) if key in _URL_RANGES else value

            if key in _URL_RANGES:
                low, high = _URL_RANGES[key]
                return int_param(key, applied, set_all, low=low, high=high, default=int(control.value))
            return replace(control_param(key, control), get=applied, set=set_all)

        def open_tab(name: str) -> None:
            self.selected_index = _TABS.index(name)

        return [choice_param("tab", _TABS, lambda: _TABS[self.selected_index or 0], open_tab, default="pool"),
                *(bound(key, attr) for key, attr in _URL_CONTROLS.items())]
