"""Every time a command takes is checked where it comes in (issue 42): from 1900 (UTC) to now,
whatever its zone. `0001-01-01T00:00:00+05:00` is a valid ISO time with no UTC form Python can
hold; it was stored, and then `show` crashed, `list` dropped the match and the API answered 500.
Now every door refuses it in one line (a JSON 4xx) and the store is unchanged: `tablelog new`,
`tablelog sheet`, POST /matches and /sheets, the Record page's forms, `tablelog import` of our
records and of BG Stats and BGG plays. A match stored before the check still reads everywhere,
its time shown as stored. Step numbers (`--at`, `?at=`) are refused alike when out of range."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.dashboard.record import actions
from tablelog.dashboard.record import sheet as sheets
from tablelog.domain.errors import Refused
from tablelog.domain.matches import match as matches
from tablelog.domain.matches.times import local_unless_zoned, parse_time, utc_text
from tests.conftest import stored_rows
from tests.interop.helpers import BGG, BGSTATS
from tests.test_recorder import OPENING, play

# Refused: none has a UTC time from 1900 to now (the first two none at all).
REFUSED = {
    "0001-01-01T00:00:00+05:00": "lies before 1900",  # the issue's
    "0001-01-01T00:00:00-05:00": "lies before 1900",
    "1899-12-31T23:00:00+05:00": "lies before 1900",
    "1899-12-31T23:59:59+00:00": "lies before 1900",
    "9999-12-31T23:59:59-05:00": "lies in the future",
    "9999-12-31T23:59:59+14:00": "lies in the future",
    "0001-01-01T00:00": "lies before 1900",  # local time, whatever this machine's zone
    "9999-12-31T23:59": "lies in the future",
}
# Taken: 1900-01-01T04:00 and 1900-01-01T00:00 in UTC, written in other zones.
TAKEN = {
    "1899-12-31T23:00:00-05:00": "1900-01-01T04:00",
    "1900-01-01T05:30+05:30": "1900-01-01T00:00",
}
ZONES = ["Asia/Kolkata", "America/New_York", "Pacific/Kiritimati", "UTC"]


def run(store: str, *args: str):
    return CliRunner().invoke(main, [*args, "--store", store], prog_name="tablelog")


def refused(result, words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablelog") and words in lines[0], lines


@pytest.fixture(params=ZONES)
def local_zone(request, monkeypatch):
    """This machine's zone, for times typed without one (restored afterwards)."""
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


# ---- the one check, as properties ------------------------------------------------------------

OFFSETS = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))
ANY_TIME = st.datetimes(min_value=datetime.min, max_value=datetime.max)


@given(when=ANY_TIME, zone=OFFSETS)
def test_a_time_is_taken_exactly_when_it_lies_from_1900_utc_to_now(when, zone):
    text = when.replace(tzinfo=zone).isoformat()
    # The time since 1900 in UTC, without converting it (naive arithmetic never overflows).
    since_1900 = when - datetime(1900, 1, 1) - zone.utcoffset(None)
    now = datetime(2026, 12, 1, tzinfo=UTC)
    to_now = now.replace(tzinfo=None) - datetime(1900, 1, 1) + timedelta(minutes=5)
    if timedelta(0) <= since_1900 <= to_now:
        taken = parse_time(text, "played_at", now)
        assert utc_text(taken.isoformat()) == taken.astimezone(UTC).isoformat()
    else:
        with pytest.raises(Refused, match="played_at lies "):
            parse_time(text, "played_at", now)


@given(when=ANY_TIME)
def test_a_time_typed_without_a_zone_is_read_or_refused_never_a_crash(when):
    try:
        parse_time(local_unless_zoned(when.isoformat()), "played_at")
    except Refused as err:
        assert "played_at lies " in str(err)


@given(when=ANY_TIME, zone=OFFSETS)
def test_any_stored_time_is_shown_in_utc_or_as_stored(when, zone):
    text = when.replace(tzinfo=zone).isoformat()
    shown = utc_text(text)
    assert shown == text or datetime.fromisoformat(shown) == datetime.fromisoformat(text)


# ---- the doors ------------------------------------------------------------------------------


ZONED = [t for t in REFUSED if t[-6] in "+-"]
ZONELESS = [t for t in REFUSED if t not in ZONED]


@pytest.mark.parametrize("played_at", ZONED)
def test_new_refuses_a_time_out_of_range_in_one_line(any_store, played_at):
    run(any_store, "new", "topitop", "--players", "Ann,Ben")
    before = stored_rows(any_store)
    result = run(any_store, "new", "topitop", "--players", "Ann,Ben", "--played-at", played_at)
    refused(result, f"played_at {REFUSED[played_at]}")
    assert stored_rows(any_store) == before


@pytest.mark.parametrize("played_at", ZONELESS)
def test_new_refuses_a_local_time_out_of_range_in_any_zone(store, local_zone, played_at):
    result = run(store, "new", "topitop", "--players", "Ann,Ben", "--played-at", played_at)
    refused(result, f"played_at {REFUSED[played_at]}")
    assert stored_rows(store) == []


@pytest.mark.parametrize("played_at", REFUSED)
def test_sheet_refuses_a_time_out_of_range_in_one_line(store, played_at):
    before = stored_rows(store)
    result = run(
        store,
        "sheet",
        "topitop",
        "--players",
        "Ann,Ben",
        "--winner",
        "Ann",
        "--played-at",
        played_at,
    )
    refused(result, f"played_at {REFUSED[played_at]}")
    assert stored_rows(store) == before


@pytest.mark.parametrize("played_at", TAKEN)
def test_a_time_from_1900_utc_is_taken_and_listed_in_utc(any_store, played_at):
    result = run(any_store, "new", "topitop", "--players", "Ann,Ben", "--played-at", played_at)
    assert result.exit_code == 0
    listed = json.loads(run(any_store, "list", "--json").stdout)
    assert [row["played"][:16] for row in listed] == [TAKEN[played_at]]
    assert run(any_store, "show", result.stdout.strip()).exit_code == 0


@pytest.mark.parametrize("path", ["/api/v1/matches", "/api/v1/sheets"])
@pytest.mark.parametrize("played_at", ZONED)
def test_the_api_refuses_a_time_out_of_range_as_json_and_stores_nothing(
    any_recorder, any_store, path, played_at
):
    client = create_app(any_recorder, WritePolicy()).test_client()
    body = {"game": "topitop", "players": ["Ann", "Ben"], "played_at": played_at}
    if path.endswith("sheets"):
        body["sheet"] = {"winners": ["Ann"]}
    before = stored_rows(any_store)
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    assert answer.get_json() == {"error": "refused", "message": answer.get_json()["message"]}
    assert f"played_at {REFUSED[played_at]}" in answer.get_json()["message"]
    assert stored_rows(any_store) == before


def test_the_api_takes_a_time_from_1900_utc(any_recorder):
    client = create_app(any_recorder, WritePolicy()).test_client()
    body = {"game": "topitop", "players": ["Ann", "Ben"], "played_at": "1899-12-31T23:00:00-05:00"}
    answer = client.post("/api/v1/matches", json=body)
    assert answer.status_code == 201 and answer.get_json()["played"].startswith("1900-01-01T04:00")


# 1899-12-31T00:00 is before 1900 in UTC in every zone (they lie within 14 hours of it).
@pytest.mark.parametrize("played_at", ["0001-01-01T00:00", "1899-12-31T00:00", "9999-12-31T23:59"])
def test_the_record_page_refuses_a_time_out_of_range(recorder, store, local_zone, played_at):
    with pytest.raises(Refused, match="played_at lies "):
        actions.start(recorder, "topitop", "Ann, Ben", [["small", 4], ["large", 4]], played_at)
    form = sheets.SheetForm(
        game="topitop",
        players="Ann, Ben",
        totals=[None, None],
        winners=["Ben"],
        first="Ann",
        played_at=played_at,
    )
    said = sheets.log(recorder, form, WritePolicy(), "127.0.0.1:8050")
    assert isinstance(said, str) and said.startswith("refused: played_at lies ")
    assert stored_rows(store) == []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("played_at", "0001-01-01T00:00:00+05:00"),
        ("started_at", "0001-01-01T00:00:00+05:00"),
        ("at", "0001-01-01T00:00:00+05:00"),
        ("at", "1899-12-31T23:00:00+05:00"),
    ],
)
def test_import_refuses_a_record_time_out_of_range(any_store, tmp_path, field, value):
    source = open_source(tmp_path)
    record = source.export(play(source, OPENING))
    if field == "at":
        record["events"][0]["at"] = value
    else:
        record[field] = value
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n")
    before = stored_rows(any_store)
    refused(run(any_store, "import", str(tmp_path / "bad.jsonl")), "lies before 1900")
    assert stored_rows(any_store) == before


def open_source(tmp_path):
    from tablelog.store import open_recorder

    return open_recorder(str(tmp_path / "source.sqlite"))


@pytest.mark.parametrize(
    ("tool", "fixture", "given", "zone", "words"),
    [
        ("bgstats", BGSTATS, "2024-03-01 19:30:00", "Asia/Kolkata", "lies before 1900"),
        ("bgstats", BGSTATS, "2024-03-01 19:30:00", "America/New_York", "lies before 1900"),
        ("bgg", BGG, "2024-04-02", "Asia/Kolkata", "lies before 1900"),
        ("bgg", BGG, "2024-04-02", "America/New_York", "lies before 1900"),
    ],
)
def test_a_play_dated_year_1_is_not_imported_and_says_why(
    store, tmp_path, tool, fixture, given, zone, words
):
    year_1 = "0001-01-01 00:00:00" if tool == "bgstats" else "0001-01-01"
    changed = tmp_path / fixture.name
    changed.write_text(fixture.read_text().replace(given, year_1, 1))
    whole = run(store, "import", "--from", tool, str(changed), "--zone", zone)
    assert whole.exit_code == 2 and "nothing was imported" in whole.stderr
    assert words in whole.stderr and len(whole.stderr.splitlines()) == 1
    assert json.loads(run(store, "list", "--json").stdout) == []
    rest = run(store, "import", "--from", tool, str(changed), "--zone", zone, "--skip-invalid")
    assert rest.exit_code == 1 and words in rest.output
    dates = json.loads(run(store, "list", "--json").stdout)
    assert dates and all(not row["played"].startswith("0001") for row in dates)


# ---- a match stored before the check ----------------------------------------------------------

LEGACY = ["0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-05:00"]


def stored_before_the_check(recorder, played_at: str) -> UUID:
    """A match as the recorder stored it before every time was checked: `played_at` has no
    UTC form."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            matches, "parse_time", lambda text, what, now=None: datetime.fromisoformat(text)
        )
        match_id = recorder.start("topitop", ["Ann", "Ben"], played_at=played_at)
    recorder.record(match_id, "Ann", OPENING[0][1])
    return match_id


@pytest.mark.parametrize("played_at", LEGACY)
def test_a_match_stored_before_the_check_shows_lists_and_takes_moves(
    any_recorder, any_store, played_at
):
    match_id = str(stored_before_the_check(any_recorder, played_at))
    shown = run(any_store, "show", match_id, "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["played"] == played_at
    listed = run(any_store, "list", "--json")
    assert listed.exit_code == 0 and listed.stderr == ""
    assert [row["played"] for row in json.loads(listed.stdout)] == [played_at]
    assert run(any_store, "score", match_id).exit_code == 0
    client = create_app(any_recorder, WritePolicy()).test_client()
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["played"] == played_at
    assert client.get("/api/v1/matches").get_json()["count"] == 1
    moved = client.post(
        f"/api/v1/matches/{match_id}/moves",
        json={"seat": "Ben", "move": {"place": "small", "to": "a1"}},
    )
    assert moved.status_code == 200 and "warnings" not in moved.get_json()
    assert moved.get_json()["moves"] == 2


def test_matches_stored_before_the_check_sort_first_and_last(store, recorder):
    for played_at in LEGACY:
        stored_before_the_check(recorder, played_at)
    run(store, "new", "topitop", "--players", "Ann,Ben", "--played-at", "2024-03-01T19:30+01:00")
    listed = json.loads(run(store, "list", "--json").stdout)
    assert [row["played"][:4] for row in listed] == ["0001", "2024", "9999"]


# ---- step numbers ---------------------------------------------------------------------------

STEPS = {"-1": "not in the range", "1.5": "not a valid integer", "1" + "0" * 30: "not in the range"}


@pytest.mark.parametrize("command", ["show", "score"])
@pytest.mark.parametrize("at", [*STEPS, "5"])
def test_a_step_out_of_range_is_refused_in_one_line(any_recorder, any_store, command, at):
    match_id = str(play(any_recorder, OPENING[:2]))
    before = stored_rows(any_store)
    result = run(any_store, command, match_id, "--at", at)
    refused(result, STEPS.get(at, "the match has only 2 steps, not 5"))
    assert stored_rows(any_store) == before


@pytest.mark.parametrize("path", ["", "/score", "/legal-moves"])
@pytest.mark.parametrize("at", [*STEPS, "5"])
def test_the_api_refuses_a_step_out_of_range_as_json(any_recorder, path, at):
    match_id = str(play(any_recorder, OPENING[:2]))
    client = create_app(any_recorder, WritePolicy()).test_client()
    answer = client.get(f"/api/v1/matches/{match_id}{path}?at={at}")
    assert answer.status_code == (422 if at == "5" else 400)
    assert set(answer.get_json()) == {"error", "message"}
