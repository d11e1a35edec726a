"""Export then import reproduces every event exactly (id, times, hashes), so a receipt taken on
the source verifies on the copy; bad times are refused whole; a game logged afterwards says when
it was played."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from tablelog.projections.load import load_tables
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.test_cli import run
from tests.test_recorder import OPENING, WIN, play
from tests.unsealed import unsealed


def test_export_then_import_keeps_ids_times_and_hashes_and_receipts_verify(any_store, tmp_path):
    source = str(tmp_path / "source.sqlite")
    recorder = open_recorder(source)
    match_id = play(recorder, WIN)
    recorder.dispute(match_id, "Ben", "was the last slide legal?")
    ended = recorder.resolve(match_id, "Umpire", "it was")
    receipt = ended.head_hash
    original = recorder.stored_events(match_id)
    result = run(any_store, "import", "-", stdin=run(source, "export", str(match_id)).stdout)
    assert result.returncode == 0, result.stderr
    copy = open_recorder(any_store).stored_events(match_id)
    assert [(e.originator_version, e.timestamp, type(e).__name__) for e in copy] == [
        (e.originator_version, e.timestamp, type(e).__name__) for e in original
    ]
    assert [e.prev_hash for e in copy] == [e.prev_hash for e in original]
    audit = json.loads(run(any_store, "audit", str(match_id), "--head", receipt, "--json").stdout)
    assert audit["head"]["hash"] == receipt and audit["clean"]


def test_times_survive_into_the_projections(store, tmp_path):
    source = str(tmp_path / "source.sqlite")
    match_id = play(open_recorder(source), OPENING)
    run(store, "import", "-", stdin=run(source, "export", str(match_id)).stdout)
    ours = load_tables(open_recorder(source))["matches"]
    theirs = load_tables(open_recorder(store))["matches"]
    assert list(theirs["started"]) == list(ours["started"])


def shifted(record: dict, entry: int, by: timedelta) -> dict:
    when = datetime.fromisoformat(record["events"][entry]["at"]) + by
    record["events"][entry]["at"] = when.isoformat()
    return record


def at(record: dict, entry: int, text: str) -> dict:
    record["events"][entry]["at"] = text
    return record


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda r: shifted(r, 2, -timedelta(days=1)),
            "event 3 (move 3 by Ann: {'from': 'a1', 'to': 'b2'}): its time (at) ",
        ),
        (lambda r: shifted(r, 1, timedelta(days=400)), "event 2 (move 2 by Ben"),
        (lambda r: at(r, 0, "2026-11-28T19:30:00"), "has no zone"),
        (lambda r: at(r, 0, "last tuesday"), "ISO 8601"),
        (lambda r: {**r, "started_at": "2999-01-01T00:00:00+00:00"}, "lies in the future"),
    ],
)
def test_bad_times_refuse_the_whole_file_naming_the_record_and_event(
    store, tmp_path, change, words
):
    source = str(tmp_path / "source.sqlite")
    recorder = open_recorder(source)
    good = recorder.export(play(recorder, OPENING))
    bad = change(unsealed(recorder.export(play(recorder, OPENING))))
    result = run(store, "import", "-", stdin=json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    assert result.returncode == 2 and result.stderr.startswith("tablelog: line 2: ")
    assert words in result.stderr and result.stderr.count("\n") == 1
    assert stored_rows(store) == []


def test_an_edited_record_no_longer_matches_its_hashes(store, tmp_path):
    source = str(tmp_path / "source.sqlite")
    recorder = open_recorder(source)
    record = recorder.export(play(recorder, OPENING))
    record["events"][1]["at"] = record["events"][0]["at"]  # still in order, but not as stored
    result = run(store, "import", "-", stdin=json.dumps(record))
    assert result.returncode == 2 and "event 2" in result.stderr
    assert "changed after it was exported" in result.stderr
    assert stored_rows(store) == []


def test_a_game_logged_afterwards_is_listed_by_when_it_was_played(store):
    earlier = run(
        store, "new", "topitop", "--players", "Cy,Di", "--played-at", "2026-11-28T19:30:00+01:00"
    ).stdout.strip()
    now = run(store, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    listed = json.loads(run(store, "list", "--json").stdout)
    assert [row["id"] for row in listed] == [earlier, now]  # oldest played first
    assert listed[0]["played"] == "2026-11-28T18:30:00+00:00"
    assert listed[0]["started"] > listed[0]["played"]  # both are kept
    shown = json.loads(run(store, "show", earlier, "--json").stdout)
    assert shown["played"] == "2026-11-28T18:30:00+00:00"
    record = json.loads(run(store, "export", earlier).stdout)
    assert record["played_at"] == "2026-11-28T19:30:00+01:00"


def test_a_zoneless_played_at_is_the_machines_local_time(store):
    typed = "2026-11-28T19:30"
    match_id = run(
        store, "new", "topitop", "--players", "Ann,Ben", "--played-at", typed
    ).stdout.strip()
    played = json.loads(run(store, "show", match_id, "--json").stdout)["played"]
    local = datetime.fromisoformat(typed).astimezone().astimezone(UTC)
    assert played == local.isoformat()


@pytest.mark.parametrize(
    ("played", "words"),
    [
        ("2999-01-01T00:00:00+00:00", "lies in the future"),
        ("28/11/2026", "ISO 8601"),
    ],
)
def test_a_bad_played_at_is_refused_and_nothing_is_stored(store, played, words):
    result = run(store, "new", "topitop", "--players", "Ann,Ben", "--played-at", played)
    assert result.returncode == 2 and words in result.stderr
    assert stored_rows(store) == []


def test_the_players_page_shows_when_games_were_played(store):
    from tablelog.dashboard.data import Source, latest_ratings

    recorder = open_recorder(store)
    match_id = recorder.start("topitop", ["Ann", "Ben"], played_at="2026-11-20T20:00:00+00:00")
    for seat, move in WIN:
        recorder.record(match_id, seat, move)
    recorder.end(match_id)
    source = Source(recorder)
    source.refresh()
    latest = latest_ratings(source, "topitop")
    assert set(latest["played"].astype(str)) == {"2026-11-20 20:00:00+00:00"}
