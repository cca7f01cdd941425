"""A round as a document: one HTML file, self-contained, that opens offline in any browser and prints on one page.

:func:`round_document` writes what a player asks for as "the round as it went": each system's chart, drawn in the
file by the charts' own offline bundle (:mod:`combatkit.widgets.charts.render`), inline; the round's "why" lines,
the rule of each in grey (:meth:`~combatkit.Timeline.why_rows`); every die it rolled, entered at the table or
drawn from the seed (:attr:`~combatkit.Timeline.rolls`); the options in force; and the seed, cited, with which the
same encounter gives the same round again. One system's round (a timeline dashboard), or six (the comparison): their
charts side by side, then each one's actions in brief, a line each (when, who, what, the rule).

It is pure: data in, an HTML string out; the bundle's JavaScript is passed in (:func:`chart_script` reads it). Nothing
in the file asks for anything over the network: the chart's specs sit in ``<script type="application/json">``
elements, the bundle in a ``<script type="text/plain">`` imported as a module from a ``blob:`` URL, and each chart is
drawn by the same ``render`` the dashboards' charts run, given the spec as a widget model would.

A print stylesheet puts it on one page of A4 or Letter, whichever the printer has: the document is laid out in the
box both pages leave inside 10 mm margins (:data:`PAGE_WIDTH_MM` by :data:`PAGE_HEIGHT_MM`), and once its charts are
drawn the page measures it and scales it (CSS ``zoom``) to fit that box when printed, should it be taller, down to
:data:`MIN_SCALE`. What would need a smaller print than that (six systems' explanations beside their six charts)
prints in two parts, each scaled to a page: the charts, then the explanation.

>>> from combatkit import Roller, find_system, load_example
>>> encounter = load_example("orc-closes-on-longbowman")
>>> timeline = find_system("phase1").schedule(encounter, Roller(seed=1, entered=encounter.rolls))
>>> page = round_document(encounter.title, [RoundSection("Phase System I", "000 §1", timeline)], seed=1,
...                       script="export default {};")
>>> page.startswith("<!DOCTYPE html>"), "Seed 1" in page, "[000 Table 1" in page
(True, True, True)
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from combatkit.dice import Roll
from combatkit.timeline import Timeline, WhyRow

__all__ = ["EMBED", "MIN_SCALE", "PAGE_HEIGHT_MM", "PAGE_WIDTH_MM", "RoundSection", "chart_script", "round_document"]

PAGE_WIDTH_MM = 190
"""The width the document is laid out in: A4's 210 mm less two margins of 10 mm (Letter leaves 195.9 mm)."""
PAGE_HEIGHT_MM = 259
"""The height it is scaled to fit in print: Letter's 279.4 mm less two margins of 10 mm (A4 leaves 277 mm)."""
MIN_SCALE = 0.7
"""The smallest it is scaled to in print (9-point text printed at 6.3 points): a round that would need less (six
systems' explanations, a crowded melee) prints its charts on the first page and its explanation on the next."""
EMBED = {"renderer": "svg", "actions": False}
"""vega-embed options of a document's charts: SVG marks, no actions menu (the file is the download)."""


@dataclass(frozen=True)
class RoundSection:
    """One system's round, as a document shows it."""

    system: str
    """The system's title, ``"Combat II: Phase System I"``."""
    source: str
    """Where its rules are, ``"000 §1-2, Table 1"``."""
    timeline: Timeline | None
    """Its round, whose why rows and dice are written out; None when the system cannot run the encounter."""
    spec: dict[str, Any] | None = None
    """Its chart's Vega-Lite spec (``timeline_spec`` or ``panel_spec``); None: no chart."""
    options: str = ""
    """The options in force, in words (:func:`~combatkit.widgets.views.options_view.in_force_words`)."""
    error: str = ""
    """Why the system cannot run the encounter (the engine's message), when :attr:`timeline` is None."""
    events: tuple[str, ...] = ()
    """What happened as the round was resolved, each line with its rule (a fight's round: its events and the DM's
    rulings, :meth:`~combatkit.table.TableFight.log_lines`); empty for a round scheduled only."""

    @property
    def name(self) -> str:
        """The system and its source, as a heading names it."""
        return f"{self.system} ({self.source})"


def chart_script() -> str:
    """The JavaScript of the charts' offline bundle (an ES module whose default export has ``render``), as the
    dashboards' charts load it: the copy cached in the user's cache folder
    (:func:`~combatkit.widgets.charts.render.bundle_path`), built there if it is not; served, the copy the server
    wrote among the template's static files."""
    import altair as alt

    from combatkit.widgets.charts.render import BUNDLE_ENV, bundle_data, bundle_path, enable_offline_charts

    enable_offline_charts()
    cached = bundle_path()
    if cached.is_file():
        return cached.read_text(encoding="utf-8")
    served = os.environ.get(BUNDLE_ENV)
    if served:  # each chart's module is a loader of the copy the server wrote (render.bundle_loader)
        return next(bundle_data().glob(f"voila/templates/*/static/{served}")).read_text(encoding="utf-8")
    return alt.JupyterChart._esm  # built in this process; the cache folder could not keep it


def round_document(title: str, sections: Sequence[RoundSection], *, seed: int | None, script: str) -> str:
    """The HTML file of an encounter's round under one system or several, or of a fight's rounds: ``title`` (the
    encounter's), then each of ``sections``: its chart first, its why lines, what happened and the dice after
    (several: the charts side by side, then each one's actions in brief), with the ``seed`` cited (None: the table
    rolled every die) and ``script`` (:func:`chart_script`) drawing the charts."""
    many = len(sections) > 1
    systems = ", ".join(section.system for section in sections)
    specs: list[dict[str, Any]] = []
    overview = []
    for section in sections:
        chart = None
        if section.spec is not None and section.timeline is not None:
            specs.append(section.spec)
            chart = len(specs)
        overview.append(_overview(section, chart, many))
    explained = "".join(_explained(section.name, section.timeline, many, section.events) for section in sections
                        if section.timeline is not None)
    held = "".join(f"<script type='application/json' id='ck-doc-spec-{n}'>{_json(spec)}</script>"
                   for n, spec in enumerate(specs, 1))
    cited = (f"Seed {seed}: every die nobody entered was rolled with it, so the same encounter with the same seed and "
             f"the same dice entered gives this round again." if seed is not None else
             "The table rolled every die: each was entered as rolled.")
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        f"<title>{_e(title)}: {_e(systems)}{f', seed {seed}' if seed is not None else ''}</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<div class='ck-sheet'><main class='ck-doc{' ck-doc-many' if many else ''}'>\n"
        f"<div class='ck-doc-part'><header><h1>{_e(title)}</h1>"
        f"<p class='ck-doc-seed'>{_e(cited)}</p></header>\n"
        f"<div class='ck-doc-charts'>{''.join(overview)}</div></div>\n"
        f"<div class='ck-doc-part'><div class='ck-doc-text'>{explained}</div>\n"
        "<footer>Made with combatkit: who acts when inside an old-school combat round, and why. "
        "Each line cites the rule that placed it.</footer></div>\n</main></div>\n"
        f"{held}\n<script type='text/plain' id='ck-doc-bundle'>{_script_text(script)}</script>\n"
        f"<script type='module'>{_DRAW % {'embed': json.dumps(EMBED), 'height': PAGE_HEIGHT_MM, 'least': MIN_SCALE}}"
        "</script>\n</body>\n</html>\n"
    )


def _overview(section: RoundSection, chart: int | None, many: bool) -> str:
    """One system's name, the options in force and its chart (``chart``: the number of its spec), or why the system
    cannot run the encounter."""
    options = f"Options in force: {section.options}" if section.options else ""
    if many:
        head = f"<h2>{_e(section.name)} <span class='ck-doc-options'>{_e(options)}</span></h2>"
    else:
        head = f"<p class='ck-doc-system'>{_e(section.name)}</p><p class='ck-doc-options'>{_e(options)}</p>"
    if section.timeline is None:
        body = f"<p class='ck-doc-error'>Cannot run this encounter: {_e(section.error)}</p>"
    elif chart is None:
        body = ""
    else:
        body = (f"<div class='ck-doc-chart' data-spec='ck-doc-spec-{chart}' role='img' "
                f"aria-label='{_e(section.system)}: the round as a chart'></div>")
    return f"<section class='ck-doc-round'>{head}{body}</section>"


def _explained(system: str, timeline: Timeline, many: bool, events: Sequence[str] = ()) -> str:
    """One system's why lines, what happened and dice (several systems or rounds: under its name, in brief)."""
    name = f"<h2>{_e(system)}</h2>" if many else ""
    happened = (f"<h3>What happened</h3><ol>{''.join(f'<li>{_e(line)}</li>' for line in events)}</ol>"
                if events else "")
    return (f"<div class='ck-doc-why'>{name}<h3>Why, step by step</h3>{_why_html(timeline, brief=many)}"
            f"{happened}<h3>The dice</h3>{_dice_html(timeline.rolls, brief=many)}</div>")


def _why_html(timeline: Timeline, *, brief: bool = False) -> str:
    """The round's notes, then how each intent was placed and each action in time order: when in bold, the rule in
    grey. ``brief`` (several systems side by side): the notes, then each action as when, who, what and the rule."""
    rows = timeline.why_rows()
    notes, actions = rows[: len(timeline.notes)], rows[len(timeline.notes):]

    def action(row: WhyRow) -> str:
        if row.span is None:
            return f"<li>{_e(row.text)}</li>"
        text = f"{row.span.actor} {row.span.action}" if brief else row.text
        return f"<li><b>{_e(row.when)}</b>: {_e(text)} <span class='ck-doc-rule'>[{_e(row.rule)}]</span></li>"

    listed = "".join(action(row) for row in actions if row.span is not None or not brief)
    return (f"<ul>{''.join(f'<li>{_e(n.text)}</li>' for n in notes)}</ul>"
            f"<ol>{listed or '<li>Nothing declared.</li>'}</ol>")


def _dice_html(rolls: Sequence[Roll], *, brief: bool = False) -> str:
    """Every roll of the round: what it decides, the dice, the result (each die's face, where several) and whether
    it was entered or drawn from the seed; a table, or ``brief``, one paragraph."""
    if not rolls:
        return "<p>No dice: nothing in this round was left to chance.</p>"

    def result(roll: Roll) -> str:
        faces = f" {list(roll.faces)}" if roll.faces and len(roll.faces) > 1 else ""
        return f"{roll.total}{faces}"

    if brief:
        return "<p>" + "; ".join(f"{_e(roll.purpose)}: {_e(str(roll.dice))} <b>{_e(result(roll))}</b>"
                                 f"{' (entered)' if roll.entered else ''}" for roll in rolls) + ".</p>"
    cells = "".join(f"<tr><td>{_e(roll.purpose)}</td><td>{_e(str(roll.dice))}</td><td>{_e(result(roll))}</td>"
                    f"<td>{'entered' if roll.entered else 'seed'}</td></tr>" for roll in rolls)
    return ("<table><thead><tr><th>roll for</th><th>dice</th><th>result</th><th>from</th></tr></thead>"
            f"<tbody>{cells}</tbody></table>")


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _json(value: Any) -> str:
    """``value`` as JSON that cannot end the ``<script>`` element holding it (every ``<`` escaped)."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")


def _script_text(script: str) -> str:
    """JavaScript source that cannot end the ``<script>`` element holding it: ``</script`` and ``<!--`` written with a
    backslash, which means the same inside a string, a regular expression or a comment, the only places they occur."""
    return script.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT").replace("<!--", "<\\!--")


_STYLE = f"""
@page {{ margin: 10mm; }}
html {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
body {{ margin: 0; background: #eaeded; color: #1c2833;
       font: 9pt/1.3 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }}
.ck-sheet {{ width: {PAGE_WIDTH_MM}mm; margin: 8mm auto; padding: 10mm; background: white;
            box-shadow: 0 1px 8px rgba(0, 0, 0, .2); }}
.ck-doc, .ck-doc-part {{ width: {PAGE_WIDTH_MM}mm; }}
h1 {{ font-size: 15pt; margin: 0 0 2pt; }}
h2, .ck-doc-system {{ font-size: 10.5pt; font-weight: 600; margin: 6pt 0 2pt; }}
h3 {{ font-size: 9pt; margin: 4pt 0 2pt; break-after: avoid; }}
p {{ margin: 2pt 0; }}
.ck-doc-seed, .ck-doc-options, .ck-doc-rule, footer {{ color: #4d5656; }}
.ck-doc-error {{ color: #78281f; }}
footer {{ margin-top: 6pt; font-size: 7.5pt; }}
.ck-doc-chart {{ width: 100%; margin: 4pt 0; }}
.ck-doc-text {{ columns: 2; column-gap: 10pt; }}
ul, ol {{ margin: 0; padding-left: 14pt; }}
li {{ margin: 0 0 1pt; }}
li, tr, table {{ break-inside: avoid; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; vertical-align: top; padding: 0 4pt 1pt 0; border-bottom: 1px solid #e5e8e8; }}
.ck-doc-many {{ font-size: 7.5pt; }}
.ck-doc-many .ck-doc-charts {{ display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 10pt; }}
.ck-doc-many .ck-doc-text {{ columns: 3; }}
.ck-doc-many h2 {{ font-size: 8.5pt; margin-top: 4pt; }}
.ck-doc-many h2 .ck-doc-options {{ font-weight: normal; }}
.ck-doc-many h3 {{ font-size: 7.5pt; margin-top: 2pt; }}
.ck-doc-many .ck-doc-why:first-child h2 {{ margin-top: 0; }}
@media print {{
  body {{ background: none; }}
  .ck-sheet {{ width: auto; margin: 0; padding: 0; box-shadow: none; }}
  .ck-doc-part {{ zoom: var(--ck-fit, 1); }}
  .ck-doc-paged .ck-doc-part + .ck-doc-part {{ break-before: page; }}
}}
"""
"""The same layout on screen and on paper, where the page scales it (``--ck-fit``, measured on screen); on screen,
a white sheet on grey."""

_DRAW = """
const bundle = document.getElementById("ck-doc-bundle").textContent;
const url = URL.createObjectURL(new Blob([bundle], { type: "text/javascript" }));
const root = document.documentElement, page = document.querySelector(".ck-doc");
try {
  const chart = (await import(url)).default;
  await Promise.all([...document.querySelectorAll(".ck-doc-chart")].map((el) => {
    const values = { spec: JSON.parse(document.getElementById(el.dataset.spec).textContent),
                     embed_options: %(embed)s, _vl_selections: {}, _params: {}, _js_watch_plan: [],
                     debounce_wait: 10, max_wait: true };
    const model = { get: (key) => values[key], set: (key, value) => { values[key] = value; },
                    on: () => {}, save_changes: () => {} };
    return chart.render({ model, el });
  }));
} finally {
  URL.revokeObjectURL(url);
  const probe = document.createElement("div");
  probe.style.height = "%(height)smm";
  document.body.append(probe);
  const room = 0.99 * probe.getBoundingClientRect().height;
  probe.remove();
  const parts = [...page.querySelectorAll(".ck-doc-part")];
  const fit = (el) => Math.min(1, room / el.getBoundingClientRect().height);
  const whole = fit(page);
  page.classList.toggle("ck-doc-paged", whole < %(least)s);
  for (const part of parts) {
    part.style.setProperty("--ck-fit", String(whole < %(least)s ? Math.max(%(least)s, fit(part)) : whole));
  }
  root.dataset.ckReady = "true";
}
"""
"""Draws each chart with the bundle's ``render`` (a widget model's ``get`` answering with the spec), then sets each
part's ``--ck-fit``: the scale that fits the whole in :data:`PAGE_HEIGHT_MM` on paper, or, under :data:`MIN_SCALE`,
the charts on the first page and the explanation from the next (``ck-doc-paged``); and marks the page ready."""
