"""combatkit.timeline: a span's kind and track are closed sets (SpanKind, Track), rows are plain."""

import pytest

from combatkit import Span, SpanKind, Track


def test_a_span_takes_a_kind_s_value_and_holds_the_enum():
    span = Span("Aldric", "archers", "attack", "long bow -> Grishnak", 4, 4, "phase 1", "000 Table 1", "",
                track="winner")
    assert span.kind is SpanKind.ATTACK and span.track is Track.WINNER
    row = span.row()
    assert (row["kind"], row["track"], row["status"]) == ("attack", "winner", "done")
    assert {type(row[k]) for k in ("kind", "track", "status")} == {str}  # plain types for frames and files


def test_an_unknown_kind_or_track_is_refused_naming_the_value_and_the_closed_set():
    with pytest.raises(ValueError, match=r"^Bob's span 'charges Ann': 'charge' is not a valid SpanKind; "
                                         r"kinds: move, attack, cast, misc, ready, hold, opportunity"):
        Span("Bob", "orcs", "charge", "charges Ann", 7, 8, "C", "003", "")
    with pytest.raises(ValueError, match="'winning' is not a valid Track"):
        Span("Bob", "orcs", SpanKind.MOVE, "moves", 7, 8, "C", "003", "", track="winning")

