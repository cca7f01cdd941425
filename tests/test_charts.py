"""The round's Gantt chart, tested through ``chart.to_dict()`` (as Altair tests its own charts)
and through the SVG that vl-convert renders from it, offline."""

import html
import re

import pytest
import vl_convert as vlc

from combatkit import Roller, example_encounters, find_system, load_example
from combatkit.timeline import Clock, Period, Span, Status, Timeline
from combatkit.widgets.charts.compare import panel_frame
from combatkit.widgets.charts.timeline import (
    KIND_COLOURS,
    merged_periods,
    text_px,
    timeline_chart,
    timeline_frame,
    timeline_spec,
)

PHASE1 = find_system("phase1")


def round_of(name: str) -> Timeline:
    encounter = load_example(name)
    return find_system(encounter.system).schedule(encounter, Roller(seed=1, entered=encounter.rolls))


def layers(spec: dict) -> dict[str, dict]:
    return {layer["name"]: layer for layer in spec["layer"]}


def rendered_marks(spec: dict) -> dict[str, int]:
    """How many SVG elements each named layer draws (vl-convert runs vega itself, no network)."""
    svg = vlc.vegalite_to_svg(spec)
    counts = {}
    for group in re.finditer(r'<g class="mark-\w+ role-mark (\w+)_marks"[^>]*?(?:/>|>(.*?)</g>)', svg, re.S):
        counts[group[1]] = len(re.findall(r"<(?:path|text)\b", group[2] or ""))
    return counts


TEN_SEGMENTS = Clock("segment", 10, (Period("A", 1, 3), Period("B", 4, 7), Period("C", 8, 10)), note="6 seconds")


def ten_segment_round(*extra: Span) -> Timeline:
    spans = (
        Span("Ann", "party", "cast", "casts fireball", 1, 3, "A", "003 §2", "Three segments of casting."),
        Span("Bob", "orcs", "attack", "axe -> Ann", 5, 5, "B", "003 §3", "The axe lands in segment 5."),
        Span("Bob", "orcs", "effect", "potion: takes effect", 7, 8, "C", "001", "It works for two segments."),
        *extra,
    )
    return Timeline("ten", TEN_SEGMENTS, spans)


# ---------------------------------------------------------------- the frame


def test_frame_has_a_row_per_span_with_lanes_winner_track_first():
    timeline = round_of("fighter-and-mage-vs-orc-archer")
    frame = timeline_frame(timeline)
    assert len(frame) == len(timeline.spans)
    lanes = frame.drop_duplicates("lane").sort_values("lane_order")["lane"].tolist()
    # 000 §1 B: Mira's DEX 17 puts her on the winner track with the orc; Brienne is the loser
    assert lanes == ["Mira (party, winner)", "Ugluk (orcs, winner)", "Brienne (party, loser)"]


def test_frame_draws_spells_as_bars_from_start_to_release_and_blows_as_points():
    frame = timeline_frame(round_of("fighter-and-mage-vs-orc-archer")).set_index(["actor", "kind", "start"])
    web = frame.loc[("Mira", "cast", 1)]
    # 000 Table 1: CT 2 on the winner track goes off in half-segment 3
    assert (web["mark"], web["end"], web["x0"], web["x1"]) == ("bar", 3, 0.5, 3.5)
    arrow = frame.loc[("Ugluk", "attack", 4)]
    assert (arrow["mark"], arrow["when"]) == ("point", "half-segment 4 (phase 1)")
    assert frame.loc[("Brienne", "move", 6)]["mark"] == "point"


def test_frame_labels_carry_the_status_a_shorter_form_and_the_room_to_the_next_mark():
    frame = timeline_frame(round_of("ct9-spell-vs-sword")).set_index(["actor", "kind"])
    assert frame.loc[("Velanna", "cast")]["label"] == "casts time stop (CT 9): RUINED"
    assert frame.loc[("Velanna", "cast")]["short"] == "casts time stop: RUINED"
    assert frame.loc[("Korg", "attack")]["label"] == "long sword -> Velanna"
    frame = timeline_frame(round_of("fighter-and-mage-vs-orc-archer")).set_index(["actor", "start"])
    arrow = frame.loc[("Ugluk", 10)]  # the misc bar from half-segment 13 leaves 2.5 half-segments after it
    assert (arrow["label"], arrow["short"], arrow["room_after"], arrow["after_x"]) == (
        "short bow -> Brienne", "short bow", 2.5, 10)
    web = frame.loc[("Mira", 1)]  # a bar: room inside it, and after it up to her next bar (6.5)
    assert (web["room_in"], web["room_after"], web["after_x"]) == (3, 3.0, 3.5)


def labels_drawn(spec: dict, width: int) -> tuple[list[tuple[str, float]], float, float]:
    """The label texts vega draws when the chart is ``width`` pixels wide (lane names and plot together, as in
    a container that wide), where each starts, and the pixel position of tick 0 and the pixels of one tick
    (read from the x axis)."""
    svg = vlc.vegalite_to_svg({**spec, "width": width})
    text = r'<text[^>]*transform="translate\(([-\d.]+),[-\d.]+\)"[^>]*>([^<]*)</text>'
    group = re.search(r'<g class="mark-text role-mark labels_marks"[^>]*?(?:/>|>(.*?)</g>)', svg, re.S)
    axis = re.search(r'role-axis-label.*?</g>', svg, re.S)
    ticks = {m[2]: float(m[1]) for m in re.finditer(text, axis[0])}
    tick_px = (ticks["20"] - ticks["1"]) / 19
    return [(html.unescape(m[2]), float(m[1])) for m in re.finditer(text, group[1] or "")], ticks["1"] - tick_px, \
        tick_px


@pytest.mark.parametrize("width", [500, 900, 1100])
def test_labels_are_never_cut_they_are_the_full_or_short_form_and_end_before_the_next_mark(width):
    timeline = round_of("fighter-and-mage-vs-orc-archer")
    frame = timeline_frame(timeline)
    spec = timeline_chart(frame, timeline.clock).to_dict()
    drawn, zero, tick_px = labels_drawn(spec, width)
    forms = set(frame["label"]) | set(frame["short"])
    assert drawn and all(text in forms and not text.endswith("…") for text, _ in drawn)
    for text, x in drawn:
        rows = frame[(frame["label"] == text) | (frame["short"] == text)]
        row = min((r for _, r in rows.iterrows()),  # the one it belongs to: the nearest start on its left
                  key=lambda r: min(abs(x - zero - r["x0"] * tick_px), abs(x - zero - r["after_x"] * tick_px)))
        inside = row["mark"] == "bar" and x < zero + row["after_x"] * tick_px
        limit = row["x1"] if inside else row["after_x"] + row["room_after"]
        assert x + text_px(text) <= zero + limit * tick_px + 1, (text, width)
    if width >= 1100:  # room for every label at a dashboard's width (1212 px at 1280)
        assert {text for text, _ in drawn} == set(frame["label"])


def test_frame_of_an_empty_round_has_the_columns():
    frame = timeline_frame(Timeline("phase1", PHASE1.clock, ()))
    assert frame.empty and {"lane", "x0", "mark", "why", "rule"} <= set(frame.columns)


# ---------------------------------------------------------------- the chart


def test_axis_is_the_clock_half_segments_1_to_20_with_the_four_phases_marked():
    timeline = round_of("orc-closes-on-longbowman")
    spec = timeline_chart(timeline_frame(timeline), timeline.clock).to_dict()
    x = layers(spec)["periods"]["encoding"]["x"]
    assert x["axis"]["title"] == "half-segment (3 seconds)"
    assert x["axis"]["values"] == list(range(1, 21))
    assert x["scale"]["domain"] == [0.5, 20.5]
    periods = {p["label"]: (p["x0"], p["x1"]) for p in spec["datasets"]["periods"]}
    assert periods == {"phase 1": (0.5, 6.5), "phase 2": (6.5, 12.5), "phase 3": (12.5, 18.5),
                       "phase 4": (18.5, 19.5), "endphase": (19.5, 20.5)}
    # the two one-tick periods get their labels on two heights, so they do not overlap
    levels = {p["label"]: p["level"] for p in spec["datasets"]["periods"]}
    assert (levels["phase 4"], levels["endphase"]) == (0, 1)
    assert "winner track first" in spec["title"]["subtitle"]


def test_every_action_mark_has_a_tooltip_with_the_action_the_why_and_the_rule():
    timeline = round_of("orc-closes-on-longbowman")
    spec = timeline_chart(timeline_frame(timeline), timeline.clock).to_dict()
    for name in ("bars", "points", "ruins", "labels"):
        fields = {t["field"] for t in layers(spec)[name]["encoding"]["tooltip"]}
        assert {"action", "why", "rule", "when"} <= fields, name
    row = next(r for r in spec["datasets"]["actions"] if r["actor"] == "Grishnak" and r["kind"] == "attack")
    assert row["rule"] == "000 Table 1: loser, SF 4-6"
    assert "repositioning step" in row["why"]


def test_kinds_keep_their_colours_and_status_changes_fill_and_outline():
    timeline = round_of("ct9-spell-vs-sword")
    spec = timeline_chart(timeline_frame(timeline), timeline.clock).to_dict()
    bars = layers(spec)["bars"]["encoding"]
    colour = bars["color"]["scale"]
    assert dict(zip(colour["domain"], colour["range"], strict=True)) == KIND_COLOURS
    dash = dict(zip(bars["strokeDash"]["scale"]["domain"], bars["strokeDash"]["scale"]["range"], strict=True))
    fill = dict(zip(bars["fillOpacity"]["scale"]["domain"], bars["fillOpacity"]["scale"]["range"], strict=True))
    assert dash["done"] == [1, 0] and dash["ruined"] != dash["done"]
    assert fill["ruined"] < fill["done"] and fill["cancelled"] < fill["ruined"]
    assert layers(spec)["ruins"]["transform"] == [{"filter": "datum.status == 'ruined'"}]


def test_the_rendered_svg_has_a_mark_per_action():
    timeline = round_of("ct9-spell-vs-sword")
    counts = rendered_marks({**timeline_chart(timeline_frame(timeline), timeline.clock).to_dict(), "width": 1000})
    # Velanna's ruined CT 9 spell is a bar with a cross at half-segment 10; Korg moves, then strikes
    assert counts["bars"] == 1
    assert counts["ruins"] == 1
    assert counts["points"] == 2
    assert counts["labels"] == 3
    assert counts["periods"] == 5


def test_a_ten_segment_clock_with_other_periods_and_no_tracks_uses_the_same_function():
    timeline = ten_segment_round()
    frame = timeline_frame(timeline)
    spec = timeline_chart(frame, timeline.clock).to_dict()
    x = layers(spec)["periods"]["encoding"]["x"]
    assert x["axis"]["title"] == "segment (6 seconds)" and x["axis"]["values"] == list(range(1, 11))
    assert [p["label"] for p in spec["datasets"]["periods"]] == ["A", "B", "C"]
    assert sorted(set(frame["lane"])) == ["Ann (party)", "Bob (orcs)"]
    assert spec["title"]["subtitle"] == "segments 1-10 across, grouped in 3 periods; hover a mark for why and the rule"
    colour = layers(spec)["bars"]["encoding"]["color"]["scale"]
    assert "effect" in colour["domain"]  # a kind Phase System I does not have gets a spare colour
    assert len(set(colour["range"])) == len(colour["range"])
    assert rendered_marks(spec)["bars"] == 2


def test_an_action_held_into_the_next_round_stretches_the_axis():
    held = Span("Ann", "party", "hold", "holds fireball", 3, 13, "next round", "x", "held", status=Status.CANCELLED)
    timeline = ten_segment_round(held)
    spec = timeline_chart(timeline_frame(timeline), timeline.clock).to_dict()
    assert layers(spec)["periods"]["encoding"]["x"]["scale"]["domain"] == [0.5, 13.5]
    assert spec["datasets"]["periods"][-1]["label"] == "next round"


def test_an_empty_round_still_draws_the_clock():
    timeline = Timeline("phase1", PHASE1.clock, ())
    spec = timeline_chart(timeline_frame(timeline), timeline.clock).to_dict()
    assert spec["height"] == 40 and spec["datasets"]["actions"] == []
    assert rendered_marks(spec)["periods"] == 5


# ---------------------------------------------------------------- the fast path


@pytest.mark.parametrize("name", sorted(example_encounters()))
def test_every_shipped_round_of_every_system_is_drawn_on_its_own_clock(name):
    timeline = round_of(name)
    clock = timeline.clock
    spec = timeline_chart(timeline_frame(timeline), clock).to_dict()
    x = layers(spec)["periods"]["encoding"]["x"]
    assert x["axis"]["title"] == clock.unit_words
    assert x["axis"]["values"][:clock.ticks] == list(range(1, clock.ticks + 1))
    assert [p["label"] for p in spec["datasets"]["periods"]][: len(clock.periods)] == [
        band.label for band in merged_periods(clock)]
    counts = rendered_marks(spec)
    assert counts.get("bars", 0) + counts.get("points", 0) == len(timeline.spans)
    assert counts["periods"] == len(spec["datasets"]["periods"])


@pytest.mark.parametrize("name", sorted(example_encounters()))
def test_fast_spec_equals_the_chart_spec(name):
    timeline = round_of(name)
    frame = timeline_frame(timeline)
    assert timeline_spec(frame, timeline.clock, "t") == timeline_chart(frame, timeline.clock, "t").to_dict()


def test_fast_spec_equals_the_chart_spec_on_other_clocks_and_rounds():
    for timeline in (ten_segment_round(), Timeline("phase1", PHASE1.clock, ())):
        frame = timeline_frame(timeline)
        assert timeline_spec(frame, timeline.clock) == timeline_chart(frame, timeline.clock).to_dict()


def test_fast_spec_is_a_fresh_copy():
    timeline = round_of("orc-closes-on-longbowman")
    frame = timeline_frame(timeline)
    first = timeline_spec(frame, timeline.clock)
    first["layer"][0]["encoding"]["x"]["axis"]["title"] = "changed"
    assert timeline_spec(frame, timeline.clock) == timeline_chart(frame, timeline.clock).to_dict()


def test_a_phase_system_ii_figure_whose_track_changes_has_it_in_each_label_not_in_its_lane():
    timeline = round_of("phase2-tenth-level-caster")
    frame = timeline_frame(timeline)
    grulk = frame[frame["actor"] == "Grulk"]
    assert set(grulk["lane"]) == {"Grulk (ogre)"}  # not "Grulk (ogre, loser)": he wins cycle 2
    assert [(label.rsplit(" · ", 1)[1], track) for label, track in zip(grulk["label"], grulk["track"])] == [
        ("loser", "loser"), ("winner", "winner")]
    spec = timeline_chart(frame, timeline.clock).to_dict()
    assert "a figure whose track changes has it in each label" in spec["title"]["subtitle"]
    panel = panel_frame(timeline, ["Sir Hadrek", "Finchfingle", "Grulk"])
    assert set(panel[panel["actor"] == "Grulk"]["lane"]) == {"Grulk"}


def test_five_phase_steps_make_one_band_each_phase_and_the_subtitle_names_them():
    timeline = round_of("five-phase-erik-the-bold")
    spec = timeline_chart(timeline_frame(timeline), timeline.clock).to_dict()
    bands = spec["datasets"]["periods"]
    assert [b["label"] for b in bands] == ["phase 1", "phase 2", "phase 3", "phase 4", "phase 5", "last actions",
                                           "morale"]
    assert "each phase: delays & distractions, movement, missiles & magic, melee" in spec["title"]["subtitle"]
    svg = vlc.vegalite_to_svg({**spec, "width": 1200})
    written = re.findall(r'period_labels_\d_marks".*?</g>', svg, re.S)
    texts = [t for group in written for t in re.findall(r">([^<]+)</text>", group)]
    assert set(texts) == {b["label"] for b in bands} and not any(t.endswith("…") for t in texts)
