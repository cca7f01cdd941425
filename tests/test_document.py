"""A round as a document (#50): :mod:`combatkit.widgets.charts.document` writes one self-contained HTML file, and the
three views that draw rounds offer it behind a link made when clicked (:mod:`combatkit.widgets.views.downloads`).
What the file holds is checked here, headlessly; tests/browser/test_document.py opens it in chromium, offline, and
prints it."""

import html
import json
import re
from dataclasses import replace

import pytest

from combatkit import Roller, find_system, load_example
from combatkit.intent import Refinement
from combatkit.widgets.charts.document import RoundSection, chart_script, round_document
from combatkit.widgets.charts.render import BUNDLE_ENV, bundle_data, bundle_path
from combatkit.widgets.charts.timeline import timeline_frame, timeline_spec
from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.downloads import LazyDownloadLink
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.views.timeline import TimelineExplorer

SCRIPT = "export default { render: () => null };"
"""A stand-in for the charts' bundle, where only the file's own text is checked."""


def segments_round(seed: int = 3):
    """The Segment of Action's own example: six figures, rolls entered and rolled."""
    encounter = load_example("segments-fighters-vs-giant-and-orcs")
    system = find_system("segments")
    timeline = system.schedule(encounter, Roller(seed=seed, entered=encounter.rolls))
    return encounter, system, timeline


def specs_of(page: str) -> dict[str, dict]:
    return {name: json.loads(text) for name, text in
            re.findall(r"<script type='application/json' id='(ck-doc-spec-\d+)'>(.*?)</script>", page, re.S)}


def bundle_of(page: str) -> str:
    return re.search(r"<script type='text/plain' id='ck-doc-bundle'>(.*?)</script>", page, re.S)[1]


def test_the_document_holds_the_chart_the_why_lines_the_dice_the_options_and_the_seed():
    encounter, system, timeline = segments_round()
    spec = timeline_spec(timeline_frame(timeline), timeline.clock)
    page = round_document(encounter.title, [RoundSection(system.title, system.source, timeline, spec,
                                                         "speed bands: on; the rest as the seed reads it")],
                          seed=3, script=SCRIPT)
    assert f"<h1>{html.escape(encounter.title)}</h1>" in page
    assert "Seed 3: every die nobody entered was rolled with it" in page
    assert html.escape("Options in force: speed bands: on; the rest as the seed reads it") in page
    for row in timeline.why_rows():
        assert html.escape(row.text) in page and html.escape(row.rule) in page
    for roll in timeline.rolls:
        assert (f"<tr><td>{html.escape(roll.purpose)}</td><td>{roll.dice}</td><td>{roll.total}"
                in page), roll
    assert {roll.entered for roll in timeline.rolls} == {True, False}  # the table says which is which
    assert "<td>entered</td>" in page and "<td>seed</td>" in page
    assert specs_of(page) == {"ck-doc-spec-1": spec}  # the chart's spec, as the dashboard draws it
    assert page.count("class='ck-doc-chart' data-spec='ck-doc-spec-1'") == 1
    assert bundle_of(page) == SCRIPT  # the JavaScript inline
    assert "@page" in page and "@media print" in page  # the print stylesheet


def test_nothing_in_the_file_asks_the_network_for_anything():
    encounter, system, timeline = segments_round()
    page = round_document(encounter.title, [RoundSection(system.title, system.source, timeline,
                                                         timeline_spec(timeline_frame(timeline), timeline.clock))],
                          seed=3, script=SCRIPT)
    outside = page.replace(bundle_of(page), "")
    assert not re.search(r"\b(src|href)\s*=|<link\b|@import|url\(", outside)


def test_no_text_ends_a_script_element_early():
    """A title or a bundle holding ``</script>`` or ``<!--`` is written so that the element holding it ends where
    it should, and each reads back as it was."""
    encounter, system, timeline = segments_round()
    spec = {**timeline_spec(timeline_frame(timeline), timeline.clock), "title": "</script><script>alert(1)</script>"}
    script = 'const a = "</script>", b = "<!-- x -->"; export default {};'
    page = round_document("<b>Ambush</b>", [RoundSection(system.title, system.source, timeline, spec)], seed=1,
                          script=script)
    assert page.count("</script>") == 3  # the spec's, the bundle's and the drawing's
    assert "<b>Ambush</b>" not in page and "&lt;b&gt;Ambush&lt;/b&gt;" in page
    assert specs_of(page)["ck-doc-spec-1"] == spec
    assert bundle_of(page) == 'const a = "<\\/script>", b = "<\\!-- x -->"; export default {};'  # the same string


def test_six_systems_side_by_side_in_brief_and_one_that_cannot_run_says_why():
    encounter = load_example("orc-closes-on-longbowman")
    refined = Refinement("segments", "Grishnak", 2, reposition=True)  # Combat II's step, written for 003
    comparison = SystemComparison(encounter=replace(encounter, refinements=encounter.refinements + (refined,)))
    name, page = comparison.round_download.file()
    assert name == "an-orc-closes-40-on-a-longbowman-six-systems-seed-1.html"
    assert "class='ck-doc ck-doc-many'" in page
    for system in comparison.systems:
        assert f"<h2>{html.escape(system.title)} ({html.escape(system.source)})" in page
    assert len(specs_of(page)) == 5 and page.count("class='ck-doc-chart'") == 5
    assert ("Cannot run this encounter: " + html.escape(comparison.errors["segments"])) in page
    phase1 = comparison.timelines["phase1"]
    for span, row in zip(phase1.spans, phase1.why_rows()[-len(phase1.spans):], strict=True):  # a line each, in brief
        assert (f"<li><b>{html.escape(row.when)}</b>: {html.escape(f'{span.actor} {span.action}')} "
                f"<span class='ck-doc-rule'>[{html.escape(span.rule)}]</span></li>") in page


@pytest.mark.parametrize("make, name", [
    (TimelineExplorer, "fighter-and-mage-vs-orc-archer-phase1-seed-1.html"),
    (lambda: SystemTimeline("segments"),
     "segment-of-action-fighters-a-b-and-c-battle-giant-x-orcs-y-and-z-attack-a-and-b-segments-seed-3.html"),
    (SystemComparison, "five-phases-erik-the-bold-s-second-round-six-systems-seed-1.html"),
], ids=["phase1", "system", "comparison"])
def test_each_view_offers_its_round_beside_the_save_link(make, name):
    view = make()
    row = view.picker.children[0].children
    assert row.index(view.round_download) == row.index(view.download) + 1
    assert "ck-round-download" in view.round_download._dom_classes
    assert view.round_download.label == "Download this round (.html)"
    filename, page = view.round_download.file()
    assert filename == name
    assert f"<h1>{html.escape(view.encounter.title)}</h1>" in page and "Seed " in page
    assert bundle_of(page) == chart_script().replace("</script", "<\\/script").replace("<!--", "<\\!--")


def test_the_explorer_s_document_follows_the_round_shown_and_keeps_it_while_input_is_refused():
    explorer = TimelineExplorer("orc-closes-on-longbowman")
    explorer.seed.value = 5
    name, page = explorer.round_download.file()
    assert name.endswith("-phase1-seed-5.html") and "Seed 5:" in page
    assert specs_of(page)["ck-doc-spec-1"]["datasets"] == explorer.chart.spec["datasets"]
    explorer.dex.value = 40  # refused: the chart keeps the last round that worked, and so does the document
    assert explorer.error
    assert explorer.round_download.file() == (name, page)


def test_a_click_asks_the_kernel_and_the_file_goes_to_the_page_as_bytes(monkeypatch):
    link = LazyDownloadLink(lambda: ("round.html", "<p>é</p>"), "Download", mime="text/html;charset=utf-8")
    sent = []
    monkeypatch.setattr(link, "send", lambda content, buffers=None: sent.append((content, buffers)))
    link._on_message(link, {"event": "other"}, [])
    assert sent == []
    link._on_message(link, {"event": "make"}, [])
    assert sent == [({"event": "made", "filename": "round.html", "mime": "text/html;charset=utf-8"},
                     ["<p>é</p>".encode()])]
    nothing = LazyDownloadLink(lambda: None, "Download")
    monkeypatch.setattr(nothing, "send", lambda content, buffers=None: sent.append((content, buffers)))
    nothing._on_message(nothing, {"event": "make"}, [])
    assert sent[-1][0]["filename"] == ""  # the page then saves nothing


def test_the_script_is_the_charts_bundle_wherever_it_is_kept(monkeypatch, tmp_path):
    script = chart_script()
    assert script == bundle_path().read_text(encoding="utf-8")
    assert " as default}" in script  # an ES module with a default export
    # served: the cache's copy gone, the one the server wrote among the template's static files
    monkeypatch.setenv("COMBATKIT_CACHE", str(tmp_path))
    static = bundle_data() / "voila" / "templates" / "combatkit" / "static"
    static.mkdir(parents=True)
    (static / "jupyterchart-served.js").write_text(script, encoding="utf-8")
    monkeypatch.setenv(BUNDLE_ENV, "jupyterchart-served.js")
    assert chart_script() == script
