"""Our exports as BG Stats and BoardGameGeek write theirs (issue 45): a BGG play's item carries
its subtype and the game's BoardGameGeek id, which an import matches again; `startposition`
counts from the seat that started, so a score sheet's starter survives; a BG Stats play carries
`playDateYmd`, `entryDate`, `modificationDate`, `rounds` and `comments` with BG Stats' types, a
game its `bggId`, `bggName` and `bggYear`, and `userInfo.meRefId` names a player of the file or
is left out. A match stored before every time was checked (year 1, year 9999) is refused in one
line naming it, never a traceback (issue 42). On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from uuid import uuid4
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablelog.domain.matches import match as matches
from tablelog.interop import bgg
from tablelog.interop.common import game_of, parse_map
from tablelog.interop.ours import Sheet
from tablelog.store import open_recorder
from tests.conftest import stored_rows

from .files import ZONE, bgg_file, bgg_play, bgstats_file, bgstats_play, every_kind
from .helpers import tablelog
from .test_bgstats import sheets_of

# BoardGameGeek's own entries (its ranked-games list; docs/interop.md), not the declarations'.
BGG_ENTRIES = {"Topiary": (210900, 2017), "Topas": (40961, 2009)}
FIVE = {"Topiary", "Topas", "Topitop", "Total Landscaping", "GeoShapes"}
LOCAL_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")


def export(store: str, tmp_path, tool: str, *selection: str) -> tuple[int, str, str]:
    path = tmp_path / f"export.{tool}"
    code, _, err = tablelog(store, "export", "--to", tool, *selection, *ZONE, "-o", str(path))
    return code, path.read_text() if path.exists() else "", err


def imported(store: str, tmp_path, tool: str, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / f"plays.{tool}"
    path.write_text(text)
    return tablelog(store, "import", "--from", tool, str(path), *ZONE, *args)


def a_sheet(
    game: str,
    seats: list[str],
    totals: list[float | int | None],
    first: str | None,
    played: datetime = datetime(2024, 5, 1, 18),
) -> Sheet:
    """A match as the writers take it, won by its starter (without one: the highest total)."""
    winner = first or seats[totals.index(max(t for t in totals if t is not None))]
    return Sheet(
        str(uuid4()),
        game,
        seats,
        totals,
        [winner],
        first,
        played.replace(tzinfo=UTC),
        None,
        None,
        None,
        [None] * len(seats),
    )


# ---- BoardGameGeek ----------------------------------------------------------------------------


def test_a_bgg_item_carries_its_subtype_and_the_games_bgg_id(any_store, tmp_path):
    every_kind(any_store, tmp_path)
    code, xml, err = export(any_store, tmp_path, "bgg", "--all")
    assert code == 0, err
    items = ET.fromstring(xml).findall("play/item")
    assert {item.get("name") for item in items} == FIVE
    for item in items:
        subtypes = [s.get("value") for s in item.findall("subtypes/subtype")]
        assert subtypes == ["boardgame"] and item.get("objecttype") == "thing"
        known = BGG_ENTRIES.get(item.get("name", ""))
        assert item.get("objectid") == (str(known[0]) if known else "0")


def test_a_bgg_play_is_known_by_its_objectid_whatever_its_name(any_store, tmp_path):
    plays = [
        bgg_play(1, item={"name": "Formschnitt", "objectid": "210900"}),  # Topiary in German
        bgg_play(2, item={"objectid": "40961"}),
        bgg_play(3, item={"objectid": "123456"}),  # another game called Topas
    ]
    code, out, err = imported(any_store, tmp_path, "bgg", bgg_file(plays))
    assert code == 0, err
    assert out.splitlines() == [
        "imported 2 plays as score-sheet matches",
        "skipped 1: not one of Tablelog's games (Topas, BGG id 123456: Tablelog's Topas is "
        "BGG id 40961)",
    ]
    found = sheets_of(any_store)
    assert (found["80000001"]["game"], found["80000002"]["game"]) == ("topiary", "topas")
    code, out, _ = imported(
        any_store, tmp_path, "bgg", bgg_file(plays), "--map", "bgg:123456=topas"
    )
    assert code == 0 and out.startswith("imported 1 play as score-sheet matches; 2 already")


def test_a_game_without_a_declared_bgg_id_is_known_by_its_name_whatever_its_id():
    assert game_of("Topitop", "31000", {}) == "topitop"
    assert game_of("GeoShapes", 77, {}) == "geoshapes"
    assert game_of("Topitop", "31000", parse_map(["bgg:31000=topas"])) == "topas"  # --map first


@pytest.mark.parametrize(
    ("first", "positions"),
    [
        ("Ben", ["3", "1", "2"]),
        ("Cleo", ["2", "3", "1"]),
        ("Ann", ["1", "2", "3"]),
        (None, [""] * 3),
    ],
)
def test_startposition_counts_from_the_seat_that_started(any_store, tmp_path, first, positions):
    recorder = open_recorder(any_store)
    typed = recorder.start_sheet(
        "topiary",
        ["Ann", "Ben", "Cleo"],
        {"scores": [{"total": 40}, {"total": 30}, {"total": 20}], "winners": ["Ann"]}
        | {"first": first},
        played_at="2024-05-01T20:15:00+02:00",
    )
    recorder.close()
    code, xml, err = export(any_store, tmp_path, "bgg", str(typed))
    assert code == 0, err
    players = ET.fromstring(xml).findall("play/players/player")
    assert [(p.get("name"), p.get("startposition")) for p in players] == list(
        zip(["Ann", "Ben", "Cleo"], positions)
    )
    away = str(tmp_path / "away.sqlite")
    assert tablelog(away, "import", "--from", "bgg", str(tmp_path / "export.bgg"), *ZONE)[0] == 0
    [there] = sheets_of(away).values()
    assert there["first"] == first  # the starter is not lost
    # Read back, the seats begin with the one that started (BGG numbers them so).
    by_position = [name for _, name in sorted(zip(positions, ["Ann", "Ben", "Cleo"]))]
    assert there["seats"] == (by_position if first else ["Ann", "Ben", "Cleo"])
    code, out, _ = tablelog(
        any_store, "import", "--from", "bgg", str(tmp_path / "export.bgg"), *ZONE
    )
    assert code == 0 and out == "nothing new: 1 play already in this store\n"


@given(seats=st.integers(2, 4), starter=st.data())
def test_positions_are_turn_order_from_the_starter_and_read_back_the_same(seats, starter):
    names = ["Ann", "Ben", "Cleo", "Dev"][:seats]
    first = starter.draw(st.sampled_from(names))
    # A tie the starter won: without hand points, the sheet cannot tell who should have.
    sheet = a_sheet("topiary", names, [10] * seats, first)
    players = ET.fromstring(bgg.write([sheet], UTC)).findall("play/players/player")
    numbers = [int(p.get("startposition", "")) for p in players]
    start = names.index(first)
    assert sorted(numbers) == list(range(1, seats + 1)) and numbers[start] == 1
    assert all(numbers[(start + k) % seats] == k + 1 for k in range(seats))
    [play] = bgg.round_trip(sheet, UTC).plays
    assert play.match.sheet is not None and play.match.sheet["first"] == first
    assert play.match.seats == names[start:] + names[:start]


# ---- BG Stats ---------------------------------------------------------------------------------


def test_a_bg_stats_play_carries_the_fields_bg_stats_writes(any_store, tmp_path):
    ended = every_kind(any_store, tmp_path)
    recorder = open_recorder(any_store)
    late = recorder.start_sheet(  # 01:30 the next day in Berlin
        "topas",
        ["Ann", "Ben"],
        {"scores": [{"total": 50}, {"total": 40}], "winners": ["Ann"]},
        played_at="2024-05-01T23:30:00+00:00",
    )
    recorder.close()
    code, text, err = export(any_store, tmp_path, "bgstats", "--all")
    assert code == 0, err
    data = json.loads(text)
    assert isinstance(data["about"], str) and len(data["plays"]) == ended + 1
    for play in data["plays"]:
        assert type(play["playDateYmd"]) is int
        assert str(play["playDateYmd"]) == play["playDate"][:10].replace("-", "")
        for field in ("playDate", "entryDate", "modificationDate"):
            assert LOCAL_TIME.fullmatch(play[field]), play
        assert play["entryDate"] <= play["modificationDate"]
        assert type(play["rounds"]) is int and type(play["comments"]) is str
    by_uuid = {play["uuid"]: play for play in data["plays"]}
    assert by_uuid[str(late).upper()]["playDateYmd"] == 20240502
    # A play imported from BG Stats was entered and last changed when it was played.
    first = by_uuid["6F1C0001-0000-4000-8000-000000000001"]
    assert first["entryDate"] == first["modificationDate"] == first["playDate"]
    games = {game["name"]: game for game in data["games"]}
    assert set(games) == FIVE
    for name, game in games.items():
        known = BGG_ENTRIES.get(name)
        assert type(game["bggId"]) is int and game["bggId"] == (known[0] if known else 0)
        if known:
            assert (game["bggName"], game["bggYear"]) == (name, known[1])
        else:
            assert "bggName" not in game and "bggYear" not in game
    me = data["userInfo"].get("meRefId")
    assert me is None or me in {player["id"] for player in data["players"]}


def test_a_bg_stats_game_is_known_by_its_bgg_id_whatever_its_name(any_store, tmp_path):
    plays = [bgstats_play(n) for n in (1, 2)]
    text = bgstats_file(plays, name="Topas (Amigo 2009)", bggId=40961)
    code, out, err = imported(any_store, tmp_path, "bgstats", text)
    assert code == 0 and out.startswith("imported 2 plays"), err
    assert {sheet["game"] for sheet in sheets_of(any_store).values()} == {"topas"}
    code, out, _ = imported(any_store, tmp_path, "bgstats", bgstats_file(plays, bggId=5))
    assert code == 0 and "skipped 2: not one of Tablelog's games (Topas, BGG id 5:" in out


# ---- a match stored before every time was checked (issue 42) ----------------------------------

LEGACY = {"0001-01-01T00:00:00+05:00": "--since", "9999-12-31T23:00:00-05:00": "--until"}
BOUNDS = {"--since": "1900-01-01", "--until": "2025-01-01"}


def stored_before_the_check(store: str, played_at: str) -> str:
    """An ended score sheet as the recorder stored it before every time was checked (its time
    has no UTC form), and a match of 2024 beside it."""
    recorder = open_recorder(store)
    sheet = {"scores": [{"total": 50}, {"total": 40}], "winners": ["Ann"]}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matches, "parse_time", lambda text, *_: datetime.fromisoformat(text))
        legacy = recorder.start_sheet("topas", ["Ann", "Ben"], sheet, played_at=played_at)
    recorder.start_sheet("topas", ["Ann", "Ben"], sheet, played_at="2024-03-01T19:30:00Z")
    recorder.close()
    return str(legacy)


@pytest.mark.parametrize("tool", ["bgstats", "bgg"])
@pytest.mark.parametrize("played_at", LEGACY)
def test_a_match_of_year_1_or_9999_is_refused_in_one_line_naming_it(
    any_store, tmp_path, tool, played_at
):
    legacy = stored_before_the_check(any_store, played_at)
    code, text, err = export(any_store, tmp_path, tool, "--all")
    assert code == 2 and text == ""
    assert err.count("\n") == 1
    assert err.startswith(f"tablelog: match {legacy} was played at {played_at} ")
    assert "no date in Europe/Berlin for BG Stats or BGG to hold" in err
    assert f"leave it out of an export with {LEGACY[played_at]}" in err
    bound = LEGACY[played_at]
    code, text, err = export(any_store, tmp_path, tool, bound, BOUNDS[bound])
    assert code == 0 and err == "exported 1 match\n" and "2024-03-01" in text


def test_a_play_naming_such_a_match_is_refused_not_a_traceback(any_store, tmp_path):
    legacy = stored_before_the_check(any_store, "0001-01-01T00:00:00+05:00")
    before = stored_rows(any_store)
    code, out, err = imported(
        any_store, tmp_path, "bgstats", bgstats_file([bgstats_play(1, uuid=legacy.upper())])
    )
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"play 1 (2023-01-01 01:00:00, Topas, {legacy.upper()}): match {legacy} was" in err
    assert stored_rows(any_store) == before


def test_every_zone_writes_the_date_the_play_had_there():
    sheet = a_sheet("topas", ["Ann", "Ben"], [50, 40], None, datetime(2024, 5, 1, 23, 30))
    for zone, day in (("UTC", "2024-05-01"), ("Asia/Tokyo", "2024-05-02")):
        [play] = ET.fromstring(bgg.write([sheet], ZoneInfo(zone))).findall("play")
        assert play.get("date") == day
