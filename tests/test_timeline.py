"""combatkit.timeline: a span's kind and track are closed sets (SpanKind, Track), rows are plain."""

import dataclasses

import pytest

from combatkit import Span, SpanKind, Track
from combatkit.timeline import Timeline


def test_a_span_takes_a_kind_s_value_and_holds_the_enum():
    span = Span("Aldric", "archers", "attack", "long bow -> Grishnak", 4, 4, "phase 1", "000 Table 1", "",
                track="winner")
    assert span.kind is SpanKind.ATTACK and span.track is Track.WINNER
    row = span.row()
    assert (row["kind"], row["track"], row["status"]) == ("attack", "winner", "done")
    assert {type(row[k]) for k in ("kind", "track", "status")} == {str}  # plain types for frames and files


def test_a_span_moved_to_another_period_keeps_every_other_field():
    """Span.in_period gives every field (quicker than replace, #18): a field added to Span must be carried there."""
    from combatkit.timeline import Status

    assert [f.name for f in dataclasses.fields(Span)] == [
        "actor", "side", "kind", "action", "start", "end", "period", "rule", "why", "track", "target", "status",
        "placed", "marks", "what"], "a new Span field: carry it in Span.in_period"
    span = Span("Bob", "orcs", SpanKind.CAST, "casts sleep -> Ann", 3, 5, "count 7", "002 II.C", "why",
                track=Track.LOSER, target="Ann", status=Status.RUINED, placed="placed", marks=frozenset({"rushed"}),
                what="casts sleep")
    assert span.in_period("count 9") == dataclasses.replace(span, period="count 9")


def test_an_unknown_kind_or_track_is_refused_naming_the_value_and_the_closed_set():
    with pytest.raises(ValueError, match=r"^Bob's span 'charges Ann': 'charge' is not a valid SpanKind; "
                                         r"kinds: move, attack, cast, misc, ready, hold, opportunity"):
        Span("Bob", "orcs", "charge", "charges Ann", 7, 8, "C", "003", "")
    with pytest.raises(ValueError, match="'winning' is not a valid Track"):
        Span("Bob", "orcs", SpanKind.MOVE, "moves", 7, 8, "C", "003", "", track="winning")



def test_a_clock_works_out_its_phases_once_and_keeps_what_period_of_answers():
    """#18: a round's walk reads Clock.phases and asks period_of of every blow; the clock keeps both answers, in
    the compiled build too (where functools.cached_property had kept nothing)."""
    from combatkit.timeline import Clock, Period

    clock = Clock("half-segment", 8, (Period("phase", 1, 2, "1", "a"), Period("phase", 3, 4, "1", "b"),
                                      Period("phase", 5, 6, "2"), Period("end", 7, 8)))
    assert clock.phases == ((1, 4), (5, 8))
    assert Clock("count", 9, (Period("count", 1, 9, "9"),)).phases == ((1, 3), (4, 6), (7, 9))
    assert clock.period_of(11).label == "phase 1: b" and clock._period_at == {3: clock.periods[1]}
    assert clock == Clock("half-segment", 8, clock.periods) and "phases" not in repr(clock)


def test_a_resolved_timeline_is_the_replace_of_its_spans_and_rolls():
    from combatkit import load_example
    from combatkit.systems.base import find_system

    timeline = find_system("phase1").schedule(load_example("orc-closes-on-longbowman"))
    spans, rolls = tuple(reversed(timeline.spans)), timeline.rolls[:1]
    resolved, replaced = timeline.resolved(spans, rolls), dataclasses.replace(timeline, spans=spans, rolls=rolls)
    for field in dataclasses.fields(Timeline):  # a field added later is carried over too
        assert getattr(resolved, field.name) is getattr(replaced, field.name), field.name


def test_a_period_s_label_is_made_of_its_parts():
    """A chart reads a period's parts apart (its band, its step, its number), never its label (#47)."""
    from combatkit.timeline import Period

    step = Period("phase", 7, 12, "2", "movement")
    assert (step.label, step.band, step.name, step.number, step.step) == (
        "phase 2: movement", "phase 2", "phase", "2", "movement")
    assert (Period("morale", 30, 30, step="rally").label, Period("endphase", 20, 20).label) == (
        "morale: rally", "endphase")


def test_a_clock_s_unit_and_its_note_are_fields_and_the_axis_title_joins_them():
    from combatkit.systems.base import find_system

    clock = find_system("phase1").clock
    assert (clock.unit, clock.note, clock.unit_words) == ("half-segment", "3 seconds", "half-segment (3 seconds)")
    assert clock.describe(9) == "half-segment 9 (phase 2)"


def test_a_span_s_short_form_is_what_it_is_and_never_words_the_action_does_not_begin_with():
    """Span.what is given where the span is made; a copy whose action is written anew (a resolution step turning a
    move into a charge's blow) drops a ``what`` that no longer begins it."""
    span = Span("Ann", "a", SpanKind.ATTACK, "long sword -> Bob", 3, 3, "phase 1", "r", "", target="Bob",
                what="long sword")
    assert (span.what, span.short) == ("long sword", "long sword")
    charge = dataclasses.replace(span, action="charge: long sword -> Bob")
    assert (charge.what, charge.short) == ("", "charge: long sword -> Bob")
    assert Span("Ann", "a", SpanKind.MOVE, "moves 30'", 1, 6, "phase 1", "r", "").short == "moves 30'"


def test_why_is_its_rows_each_made_one_line():
    from combatkit import load_example
    from combatkit.systems.base import find_system

    timeline = find_system("phase1").schedule(load_example("fighter-and-mage-vs-orc-archer"))
    rows = timeline.why_rows()
    assert [row.line() for row in rows] == timeline.why()
    assert [row.text for row in rows[:len(timeline.notes)]] == list(timeline.notes)
    blows = [row for row in rows if row.span is not None]
    assert [row.span for row in blows] == list(timeline.spans)
    first = blows[0]
    assert timeline.why_line(first.span) == f"{first.when}: {first.text} [{first.rule}]"
    assert (first.when, first.rule) == (timeline.clock.describe(first.span.end), first.span.rule)
