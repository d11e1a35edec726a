"""Hostile plays, generated: any field of a BG Stats play replaced by any JSON value, any
attribute of a BGG play by any text. Reading never fails but in its own words: every play is
imported, left out or named as bad. A value the issue names as bad (a NaN, huge or negative
score, a date out of range, a bad duration or quantity) always refuses the file in one line
naming that play, and the store is unchanged; `--skip-invalid` stores exactly the others."""

from __future__ import annotations

import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.interop import bgg, bgstats
from tests.conftest import stored_rows

from .files import ZONE, bgg_file, bgg_play, bgstats_file, bgstats_play
from .helpers import tablelog

UTC = ZoneInfo("UTC")
PLAYS = 4
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=30)
    | st.sampled_from(["2024-03-01 19:30:00", "", "0", "1", "PLAY-00001"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
PLAY_FIELDS = [
    "uuid",
    "gameRefId",
    "playDate",
    "durationMin",
    "locationRefId",
    "ignored",
    "board",
    "playerScores",
]
SEAT_FIELDS = ["playerRefId", "score", "winner", "startPlayer", "seatOrder", "newPlayer", "role"]
SEAT_FIELDS += ["team"]
XML_TEXT = st.characters(blacklist_categories=("Cs", "Cc"))  # what XML 1.0 can hold
BGG_ATTRIBUTES = ["id", "date", "quantity", "length", "location", "incomplete", "nowinstats"]
BGG_ATTRIBUTES += [f"seat_{a}" for a in ("name", "startposition", "score", "new", "win")]
# Values each field must refuse (the list), and the words the refusal uses.
BAD_BGSTATS = st.sampled_from(
    [
        ("seat_score", float("nan"), "not a finite number"),
        ("seat_score", float("inf"), "not a finite number"),
        ("seat_score", "1" * 400, "not a finite number"),
        ("seat_score", 10**30, "beyond what a score can be"),
        ("seat_score", -3, "outside what topas allows"),
        ("seat_score", "999", "outside what topas allows"),
        ("playDate", "9999-12-31 23:59:59", "playDate lies in the future"),
        ("playDate", "1899-12-31 23:00:00", "playDate lies before 1900"),
        ("playDate", "0001-01-01 00:00:00", "playDate lies before 1900"),
        ("playDate", "2024-02-30 10:00:00", "is not a date"),
        ("durationMin", -1, "not a number of minutes"),
        ("durationMin", 10**9, "is not a game's length"),
        ("durationMin", "thirty", "not a number of minutes"),
        ("durationMin", float("nan"), "not a number of minutes"),
    ]
)
BAD_BGG = st.sampled_from(
    [
        ("seat_score", "NaN", "not a number"),
        ("seat_score", "9" * 30, "beyond what a score can be"),
        ("date", "9999-12-31", "date lies in the future"),
        ("date", "0001-01-01", "date lies before 1900"),
        ("length", "-1", "not a number of minutes"),
        ("length", "1000000", "is not a game's length"),
        ("quantity", "0", "not a number of times from 1 to 100"),
        ("quantity", "101", "not a number of times from 1 to 100"),
    ]
)


def accounted(imported, total: int) -> None:
    matches = len({play.number for play in imported.plays})
    assert matches + sum(imported.left_out.values()) + len(imported.bad) == total
    for line in imported.bad:
        assert line.startswith("play ") and "\n" not in line and len(line) < 600


@settings(max_examples=300, deadline=None)
@given(st.integers(1, PLAYS), st.data())
def test_any_value_in_any_bg_stats_field_is_read_or_named(number, data):
    plays = [bgstats_play(n) for n in range(1, PLAYS + 1)]
    if data.draw(st.booleans()):
        field = data.draw(st.sampled_from(PLAY_FIELDS))
        plays[number - 1][field] = data.draw(json_values)
    else:
        field = data.draw(st.sampled_from(SEAT_FIELDS))
        plays[number - 1]["playerScores"][1][field] = data.draw(json_values)
    imported = bgstats.read(bgstats_file(plays), {}, UTC)
    accounted(imported, PLAYS)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, PLAYS), st.sampled_from(BGG_ATTRIBUTES), st.text(XML_TEXT, max_size=40))
def test_any_text_in_any_bgg_attribute_is_read_or_named(number, attribute, value):
    plays = [bgg_play(n, **({attribute: value} if n == number else {})) for n in range(1, 5)]
    accounted(bgg.read(bgg_file(plays), {}, UTC), PLAYS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, PLAYS), st.booleans(), st.data())
def test_a_bad_value_refuses_the_file_and_skip_invalid_stores_the_rest(number, bgg_file_, data):
    field, value, words = data.draw(BAD_BGG if bgg_file_ else BAD_BGSTATS)
    if bgg_file_:
        tool = "bgg"
        text = bgg_file(
            [bgg_play(n, **({field: value} if n == number else {})) for n in (1, 2, 3, 4)]
        )
    else:
        tool = "bgstats"
        text = bgstats_file(
            [bgstats_play(n, **({field: value} if n == number else {})) for n in (1, 2, 3, 4)]
        )
    with tempfile.TemporaryDirectory() as folder:
        store, source = str(Path(folder) / "store.sqlite"), Path(folder) / "plays"
        source.write_text(text)
        tablelog(store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
        before = stored_rows(store)
        code, out, err = tablelog(store, "import", "--from", tool, str(source), *ZONE)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err
        assert f"1 of {PLAYS} play" in err and f"play {number} (" in err and words in err, err
        assert stored_rows(store) == before
        code, out, _ = tablelog(
            store, "import", "--from", tool, str(source), *ZONE, "--skip-invalid"
        )
        assert code == 1 and out.startswith(f"imported {PLAYS - 1} plays")
        assert len(stored_rows(store)) == len(before) + 2 * (PLAYS - 1)
