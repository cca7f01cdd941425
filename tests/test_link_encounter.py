"""The DM's own encounter in a link (#50): packed under ``enc``, read back by the file reader with all its checks,
hostile payloads refused by name while the link's other values apply, and one too big for a link sent as a file."""

import base64
import dataclasses
import html
import random
import string
import tracemalloc
import zlib

import pytest

from combatkit import load_example
from combatkit.encounter_files import dumps_toml, example_encounters
from combatkit.widgets.state.urlstate import (
    MAX_ENCOUNTER,
    MAX_ENCOUNTER_BYTES,
    MAX_QUERY,
    CopyLink,
    _inflate,
    pack_encounter,
    parse_query,
    shareable,
    unpack_encounter,
)
from combatkit.widgets.views.compare import SystemComparison
from combatkit.widgets.views.system_timeline import SystemTimeline
from combatkit.widgets.views.timeline import TimelineExplorer

VIEWS = {
    "compare": SystemComparison,
    "segments": lambda: SystemTimeline("segments"),
    "phase1": TimelineExplorer,
}
"""Each kind of dashboard that shows an encounter (prep writes its own link keys)."""


def link_of(view) -> CopyLink:
    return next(child for child in view.children if isinstance(child, CopyLink))


def packed(data: bytes) -> str:
    """``data`` packed as a link packs an encounter's file: raw deflate, URL-safe base64 without padding."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.urlsafe_b64encode(deflate.compress(data) + deflate.flush()).decode().rstrip("=")


def noise(count: int, seed: int = 1) -> str:
    """Letters that do not compress: an encounter holding them is too big for a link."""
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters) for _ in range(count))


def test_every_shipped_example_packs_well_within_a_link_and_reads_back_the_same():
    for name in example_encounters():
        encounter = load_example(name)
        text = pack_encounter(encounter)
        assert len(text) < MAX_ENCOUNTER / 4 and set(text) <= set(string.ascii_letters + string.digits + "-_")
        assert unpack_encounter(text) == encounter
    assert MAX_ENCOUNTER + 2000 == MAX_QUERY  # an encounter and the view's other settings are read


def test_an_encounter_too_big_for_a_link_is_not_packed():
    encounter = load_example("ct9-spell-vs-sword")
    assert pack_encounter(dataclasses.replace(encounter, description=noise(12_000))) is None  # over MAX_ENCOUNTER
    squeezed = dataclasses.replace(encounter, description="a" * MAX_ENCOUNTER_BYTES)
    assert len(packed(dumps_toml(squeezed).encode())) < MAX_ENCOUNTER  # it would fit, but unpacks to too much
    assert pack_encounter(squeezed) is None


@pytest.mark.parametrize("make", VIEWS.values(), ids=VIEWS.keys())
def test_an_edited_encounter_goes_into_the_link_and_opens_the_same_view(make):
    first = make()
    link = link_of(shareable(first, ""))
    first.editor.rows[0].note.value = "aims for the knees"
    first.seed.value = 9
    assert link.query.startswith("enc=") and "example=" not in link.query and "&seed=9" in link.query
    assert link.caveat == "" and first.url_caveat() == ""
    second = make()
    view = shareable(second, link.query)
    assert view.children[0].layout.display == "none"  # nothing refused
    assert second.encounter == first.encounter and second.seed.value == 9 and second.error == ""
    assert second.picker.example.value is None  # not a shipped example: opened as a file is
    if isinstance(first, SystemComparison):
        assert second.timelines == first.timelines
    else:
        assert second.timeline == first.timeline
    assert link_of(view).query == link.query

    first.editor.rows[0].note.value = ""  # undone: the shipped example as shipped, named again
    assert not link.query.startswith("enc=")


def test_a_pasted_encounter_and_its_view_s_settings_travel_together():
    first = SystemTimeline("short_form")
    link = link_of(shareable(first, ""))
    first.picker.read(dumps_toml(load_example("segments-speed-bands-dagger-vs-two-handed-sword")))
    name, box = next(iter(first.options.items()))
    box.value = not box.value
    roll = first.timeline.rolls[0]
    face = roll.dice.maximum if roll.total != roll.dice.maximum else roll.dice.minimum
    first.dice._boxes[(roll.purpose, str(roll.dice))].value = str(face)
    assert f"&{name}={int(box.value)}&dice=" in link.query and link.query.startswith("enc=")
    second = SystemTimeline("short_form")
    view = shareable(second, link.query)
    assert view.children[0].layout.display == "none"
    assert second.timeline == first.timeline and second.options[name].value == box.value
    assert link_of(view).query == link.query


def test_a_link_naming_an_example_and_an_encounter_opens_the_encounter():
    mine = dataclasses.replace(load_example("orc-closes-on-longbowman"), title="Tonight's ambush")
    comparison = SystemComparison()
    shareable(comparison, f"example=ct9-spell-vs-sword&enc={pack_encounter(mine)}&seed=4")
    assert comparison.encounter == mine and comparison.seed.value == 4 and comparison.picker.example.value is None


BOMB = packed(b" " * (4 * 2**20))
"""4 MiB of spaces in 5.5 thousand characters: a compression bomb that fits in a link."""

HOSTILE = {
    "too long": ("A" * (MAX_ENCOUNTER + 1),
                 f"enc: the encounter in this link is {MAX_ENCOUNTER + 1:,} characters long; a link carries at most "
                 f"{MAX_ENCOUNTER:,}"),
    "not base64": ("not*base64!", "enc: the encounter in this link is damaged: it is not URL-safe base64"),
    "base64 of one byte too many": ("AAAAA", "enc: the encounter in this link is damaged: it is not URL-safe base64"),
    "not deflate": (base64.urlsafe_b64encode(b"\xff" * 60).decode(),
                    "enc: the encounter in this link is damaged: it is not deflate data"),
    "cut short": (packed(dumps_toml(load_example("ct9-spell-vs-sword")).encode())[:200],
                  "enc: the encounter in this link is damaged: its deflate data is cut short or runs on"),
    "a compression bomb": (BOMB, f"enc: the encounter in this link unpacks to more than {MAX_ENCOUNTER_BYTES:,} "
                                 "bytes"),
    "not UTF-8": (packed(b"title = '\xff'"), "enc: the encounter in this link is not UTF-8 text"),
    "not TOML": (packed(b"<script>alert(1)</script>"), "enc: the encounter in this link cannot be read: file: not "
                                                       "valid TOML"),
    "a bad field": (packed(dumps_toml(load_example("ct9-spell-vs-sword")).replace("dex = 14", "dex = 99").encode()),
                    "enc: the encounter in this link cannot be read: combatants[0].dex: DEX is 1..25 (PH Table 2), "
                    "got 99"),
    "a library on the reader's disk": (packed(b"title = 'x'\nlibrary = '/etc'\n[[combatants]]\nname = 'A'\n"),
                                       "enc: the encounter in this link cannot be read: library:"),
}


def test_a_compression_bomb_is_refused_holding_no_more_than_the_bound():
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = bomb.compress(b"\0" * (256 * 2**20)) + bomb.flush()  # 256 MiB unpacked
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="unpacks to more than"):
            _inflate(data, MAX_ENCOUNTER_BYTES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(data) + 4 * MAX_ENCOUNTER_BYTES < 2**20  # what it was given and the bound, not 256 MiB
    assert len(BOMB) < MAX_ENCOUNTER


@pytest.mark.parametrize("payload, problem", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_encounter_is_refused_by_name_and_the_rest_of_the_link_applies(payload, problem):
    assert problem in " ".join(parse_query(f"enc={payload}", SystemTimeline("segments").url_params()).problems)
    viewer = SystemTimeline("segments")
    default = viewer.encounter
    view = shareable(viewer, f"enc={payload}&seed=5&speed_bands=1")
    message = view.children[0]
    assert message.layout.display is None and "Applied: seed, speed_bands" in message.value
    assert html.escape(problem) in message.value and payload[:40] not in message.value  # named, not quoted
    assert viewer.encounter == default and viewer.seed.value == 5 and viewer.options["speed_bands"].value
    assert link_of(view).query == "seed=5&speed_bands=1"


@pytest.mark.parametrize("make", VIEWS.values(), ids=VIEWS.keys())
def test_an_encounter_too_big_for_a_link_is_said_and_its_file_offered(make):
    view = make()
    link = link_of(shareable(view, ""))
    view.show_encounter(dataclasses.replace(load_example("ct9-spell-vs-sword"), description=noise(12_000)))
    assert "enc=" not in link.query and "example=" not in link.query
    assert link.caveat == ("This encounter is too big for a link (over 6,000 characters packed). The link carries "
                           "only the settings: send the encounter file with it.")
    assert link.offer.startswith("<a download='a-ct-9-spell-against-a-sword.toml' href='data:application/toml;")
    assert "Save the encounter file (.toml)" in link.offer
    view.show_example("orc-closes-on-longbowman")
    assert link.caveat == link.offer == "" and "example=orc-closes-on-longbowman" in link.query


def test_an_example_edited_past_a_link_s_size_is_named_as_shipped_and_the_link_says_so():
    viewer = SystemTimeline("segments")
    link = link_of(shareable(viewer, "seed=4"))
    viewer.editor.rows[0].note.value = noise(12_000)
    assert viewer.error == "" and link.query == "seed=4"
    assert link.caveat == ('This encounter is too big for a link (over 6,000 characters packed). The link opens the '
                           'shipped example "Segment of Action: fighters A, B and C battle Giant X; Orcs Y and Z '
                           'attack A and B" as shipped, not your edits: send the encounter file with it.')
    assert "segment-of-action" in link.offer
