"""Snapshots (domain.matches.snapshots): a read from a snapshot is the full replay, at every step;
they are derivable from the events, invisible to the audit, export and projections, and harmless
to lose or to find stale."""

from __future__ import annotations

import itertools
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.matches.match import Match
from tablelog.domain.matches.snapshot_reads import _fold
from tablelog.domain.matches.snapshots import MatchSnapshot, Trail, usable
from tablelog.domain.recording.recorder import Recorder
from tablelog.store import is_postgres, open_recorder
from tests.long_matches import apply_steps, random_steps, shuffled_moves

FIELDS = (
    "id",
    "version",
    "game",
    "seats",
    "options",
    "status",
    "outcome",
    "claims",
    "disputes",
    "undos",
    "head_hash",
    "created_on",
    "modified_on",
    "state",
)


@pytest.fixture
def small_intervals(monkeypatch):
    """Snapshots every few events, so that short matches exercise them."""
    monkeypatch.setattr(Recorder, "snapshot_every", 5)
    monkeypatch.setattr(Recorder, "read_through", 7)


def full_replay(recorder: Recorder, match_id, version=None) -> Match:
    match = _fold(None, recorder.events.get(match_id, lte=version))
    assert match is not None, f"no events of {match_id}"
    return match


def assert_same(read: Match, replayed: Match) -> None:
    for field in FIELDS:
        assert getattr(read, field) == getattr(replayed, field), field
    assert len(read.moves) == len(replayed.moves) and len(read.states) == len(replayed.states)
    assert list(read.moves) == list(replayed.moves)  # fetches what the snapshot left out
    assert list(read.states) == list(replayed.states)


def snapshot_count(location: str) -> int:
    if is_postgres(location):
        import psycopg

        with psycopg.connect(location) as db:
            row = db.execute("SELECT count(*) FROM tablelog_snapshots").fetchone()
            assert row is not None  # count(*) answers one row
            return row[0]
    with sqlite3.connect(location) as db:
        return db.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(1, 60))
def test_a_read_from_a_snapshot_is_the_full_replay_at_every_step(seed, length):
    with tempfile.TemporaryDirectory() as folder:
        recorder = open_recorder(str(Path(folder) / "store.sqlite"))
        recorder.snapshot_every, recorder.read_through = 5, 7
        match_id = recorder.start("topitop", ["Ann", "Ben"])
        apply_steps(recorder, match_id, random_steps(seed, length))
        last = recorder.get(match_id).version
        for version in range(1, last + 1):
            assert_same(
                recorder.get(match_id, version - 1), full_replay(recorder, match_id, version)
            )
        assert_same(recorder.get(match_id), full_replay(recorder, match_id))
        recorder.close()


def test_undos_past_the_snapshot_fetch_the_earlier_moves(any_recorder, small_intervals):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(40):
        any_recorder.record(match_id, seat, move)
    read = any_recorder.get(match_id)
    assert isinstance(read.moves, Trail) and not read.moves.complete  # from a snapshot
    for _ in range(15):  # more than the snapshot's tail of 10
        any_recorder.undo(match_id, "Ann", "back")
    assert_same(any_recorder.get(match_id), full_replay(any_recorder, match_id))
    assert len(any_recorder.get(match_id).moves) == 25


def test_recording_on_a_restored_match_never_replays_its_history(
    any_recorder, small_intervals, monkeypatch
):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    moves = list(shuffled_moves(60))
    for seat, move in moves[:30]:
        any_recorder.record(match_id, seat, move)

    def refuse(*_):
        raise AssertionError("the whole history was replayed")

    monkeypatch.setattr(Recorder, "_history", refuse)
    for number, (seat, move) in enumerate(moves[30:]):  # snapshots taken every 5 events
        any_recorder.record(match_id, seat, move)
        if number % 7 == 3:
            any_recorder.undo(match_id, "Ann", "back")
            any_recorder.record(match_id, seat, move)
    monkeypatch.undo()
    assert_same(any_recorder.get(match_id), full_replay(any_recorder, match_id))


def test_a_store_without_snapshots_reads_the_same(any_recorder, any_store, small_intervals):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(30):
        any_recorder.record(match_id, seat, move)
    assert snapshot_count(any_store) >= 5
    before = any_recorder.get(match_id)
    _execute(any_store, "DELETE FROM {snapshots}")
    assert_same(open_recorder(any_store).get(match_id), before)


def test_a_store_written_before_snapshots_reads_and_then_gets_them(store):
    class Before(Recorder):  # the recorder of a release without snapshots
        is_snapshotting_enabled = False

    from tablelog.store import store_env

    old = Before(env=store_env(store))
    match_id = old.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(250):
        old.record(match_id, seat, move)
    with sqlite3.connect(store) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert "stored_snapshots" not in tables
    now = open_recorder(store)
    assert_same(now.get(match_id), full_replay(now, match_id))
    assert snapshot_count(store) == 0  # a read under read_through leaves nothing behind
    now.read_through = 100
    now.get(match_id)
    assert snapshot_count(store) == 2  # at events 100 and 200
    assert_same(now.get(match_id), full_replay(now, match_id))


def test_a_snapshot_whose_event_was_changed_is_not_used(store, small_intervals):
    recorder = open_recorder(store)
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(10):
        recorder.record(match_id, seat, move)  # snapshots at events 5 and 10; 11 events
    with sqlite3.connect(store) as db:  # a forger turns move 9 (event 10) into another one
        db.execute(
            'UPDATE stored_events SET state = replace(state, \'"to":"a1"\', '
            '\'"to":"b1"\') WHERE originator_id = ? AND originator_version = 10',
            [match_id.hex],
        )
    read = open_recorder(store).get(match_id)
    assert read.moves[8]["move"] == {"from": "a2", "to": "b1"}  # the events, not the snapshot
    assert_same(read, full_replay(recorder, match_id))


def test_a_damaged_or_foreign_snapshot_is_not_used(any_recorder, any_store, small_intervals):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(12):
        any_recorder.record(match_id, seat, move)
    before = any_recorder.get(match_id)
    if is_postgres(any_store):  # the newest snapshot cut short, an older one of another format
        _execute(
            any_store,
            "UPDATE {snapshots} SET state = substring(state from 1 for 30) "
            "WHERE originator_version = 10",
        )
    else:
        _execute(
            any_store,
            "UPDATE {snapshots} SET state = substr(state, 1, 30) WHERE originator_version = 10",
        )
    assert_same(open_recorder(any_store).get(match_id), before)
    _execute(any_store, "DELETE FROM {snapshots} WHERE originator_version = 10")
    _execute(
        any_store,
        "UPDATE {snapshots} SET state = replace(state, '\"format\":1', '\"format\":99')"
        if not is_postgres(any_store)
        else "UPDATE {snapshots} SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'\"format\":1', '\"format\":99'), 'UTF8')",
    )
    reader = open_recorder(any_store)
    assert reader.snapshots is not None
    older = next(iter(reader.snapshots.get(match_id, desc=True, limit=1)))
    assert isinstance(older, MatchSnapshot)
    assert older.state["format"] == 99 and not usable(older)
    assert_same(reader.get(match_id), before)


def test_snapshots_are_not_events_to_the_audit_export_or_projections(
    any_recorder, any_store, small_intervals
):
    from tablelog.projections.runner import catch_up

    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(30):
        any_recorder.record(match_id, seat, move)
    any_recorder.end(match_id, agreed_draw=True)
    assert snapshot_count(any_store) >= 5
    report = audit_match(any_recorder, match_id)
    assert report["clean"] and report["events"] == 32
    record = any_recorder.export(match_id)
    assert len(record["events"]) == 31 and {e["type"] for e in record["events"]} == {"move", "end"}
    tables = catch_up(any_recorder).view
    (row,) = tables.select("matches")
    assert row["moves"] == 30 and row["status"] == "ended"


def test_a_snapshot_stays_small_however_long_the_match(store):
    recorder = open_recorder(store)
    sizes = []
    for count in (150, 1500):
        match_id = recorder.start("topitop", ["Ann", "Ben"])
        for seat, move in shuffled_moves(count):
            recorder.record(match_id, seat, move)
        with sqlite3.connect(store) as db:
            sizes.append(
                db.execute(
                    "SELECT max(length(state)) FROM stored_snapshots WHERE originator_id = ?",
                    [match_id.hex],
                ).fetchone()[0]
            )
    assert sizes[1] < sizes[0] * 1.2, sizes


def _execute(location: str, statement: str) -> None:
    if is_postgres(location):
        import psycopg

        with psycopg.connect(location) as db:
            db.execute(statement.format(snapshots="tablelog_snapshots"))
        return
    with sqlite3.connect(location) as db:
        db.execute(statement.format(snapshots="stored_snapshots"))


def test_a_snapshot_taken_during_a_long_read_holds_the_match_as_it_was_then(any_recorder):
    """A read that replays past `read_through` snapshots the match at every multiple of it on
    the way; each snapshot is the match at its own step, not shared with the match read on
    (issue 42: undos recorded later showed up at earlier steps, and twice at the end)."""
    any_recorder.snapshot_every = any_recorder.read_through = 10**9  # written, no snapshot
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    moves = iter(shuffled_moves(80))
    for version in range(2, 71):  # undos, claims, disputes after events 20, 40 and 60
        if version in (25, 45, 62):
            withdrawn = any_recorder.undo(match_id, "Ann", f"undo {version}").undos[-1]["move"]
            moves = itertools.chain([(withdrawn["seat"], withdrawn["move"])], moves)
        elif version in (30, 50):
            any_recorder.claim(match_id, "Ben", {"Ann": version})
        elif version in (33, 55):
            any_recorder.dispute(match_id, "Ann", f"dispute {version}")
        elif version in (41, 65):
            any_recorder.resolve(match_id, "Ben", f"ruling {version}")
        else:
            any_recorder.record(match_id, *next(moves))
    assert snapshot_versions(any_recorder, match_id) == []
    any_recorder.read_through = 20
    any_recorder.get(match_id)  # replays all 70 events, snapshots the match at 20, 40, 60
    assert snapshot_versions(any_recorder, match_id) == [20, 40, 60]
    for version in range(1, 71):
        read = any_recorder.get(match_id, version - 1)
        assert_same(read, full_replay(any_recorder, match_id, version))
    now = any_recorder.get(match_id)
    assert [undo["reason"] for undo in now.undos] == ["undo 25", "undo 45", "undo 62"]
    assert [d["ruling"] for d in now.disputes] == ["ruling 41", "ruling 65"]
    assert [d["ruling"] for d in any_recorder.get(match_id, 39).disputes] == [None]


def snapshot_versions(recorder: Recorder, match_id) -> list[int]:
    assert recorder.snapshots is not None
    return [s.originator_version for s in recorder.snapshots.get(match_id)]


def test_a_snapshot_written_before_the_fix_is_not_used(any_recorder, any_store):
    """Stores written before issue 42's fix may hold snapshots that shared the match's lists
    (an undo, a claim or a dispute, raised or resolved, from after the snapshot's event is in
    it) or that undos had left with no state at all. Such a snapshot is passed over; the match
    reads as its events say."""
    any_recorder.snapshot_every = any_recorder.read_through = 10**9
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(11):
        any_recorder.record(match_id, seat, move)  # events 2-12
    any_recorder.dispute(match_id, "Ben", "the count")  # 13
    at = any_recorder.get(match_id)
    any_recorder.undo(match_id, "Ann", "a slip")  # 14
    any_recorder.resolve(match_id, "Ann", "it stands")  # 15
    resolved = any_recorder.get(match_id)
    any_recorder.claim(match_id, "Ben", {"Ann": 1})  # 16
    any_recorder.dispute(match_id, "Ben", "the claim")  # 17
    later = any_recorder.get(match_id)
    spoiled = {
        "an undo after it": {"undos": later.undos},
        "a claim after it": {"claims": later.claims},
        "a ruling after it": {"disputes": resolved.disputes},
        "a dispute after it": {"disputes": later.disputes},
        "no state": {},
    }
    assert any_recorder.snapshots is not None
    for what, fields in spoiled.items():
        old = MatchSnapshot.take(at)
        old.state["fields"].update(fields)
        if not fields:  # undos took every state it held, and it kept none
            old.state.update(states=[], moves=[], dropped=old.state["dropped"] + 1)
        assert not usable(old), what
        any_recorder.snapshots.put([old])  # the newest snapshot at or before event 13
        assert_same(any_recorder.get(match_id, 12), full_replay(any_recorder, match_id, 13))
        assert_same(any_recorder.get(match_id), full_replay(any_recorder, match_id))
        _execute(any_store, "DELETE FROM {snapshots}")
    assert usable(MatchSnapshot.take(at)) and usable(MatchSnapshot.take(later))


def test_a_snapshot_not_used_is_dropped_so_a_good_one_can_take_its_place(any_recorder):
    """A spoiled snapshot holds its position: while it stays, no good snapshot can be stored
    there and every read replays from further back. The first read that passes it over
    deletes it (snapshots are a cache), and the next snapshot taken there is a good one."""
    any_recorder.snapshot_every = any_recorder.read_through = 10**9
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(9):
        any_recorder.record(match_id, seat, move)  # events 2-10
    at = any_recorder.get(match_id)
    any_recorder.undo(match_id, "Ann", "a slip")  # 11
    spoiled = MatchSnapshot.take(at)
    spoiled.state["fields"].update(undos=any_recorder.get(match_id).undos)
    assert any_recorder.snapshots is not None
    any_recorder.snapshots.put([spoiled])
    assert snapshot_versions(any_recorder, match_id) == [10]
    assert_same(any_recorder.get(match_id), full_replay(any_recorder, match_id))
    assert snapshot_versions(any_recorder, match_id) == []  # dropped by that read
    any_recorder.snapshots.put([MatchSnapshot.take(at)])  # the place is free again
    assert_same(any_recorder.get(match_id), full_replay(any_recorder, match_id))
    assert snapshot_versions(any_recorder, match_id) == [10]  # a good one: kept


def test_undos_through_every_state_a_restored_match_holds(any_recorder):
    """Undos that take every state a match restored from a snapshot holds (more than its tail)
    leave it whole: its current state, how many moves it has, and the snapshots taken of it."""
    any_recorder.snapshot_every, any_recorder.read_through = 10, 10**9
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    moves = list(shuffled_moves(20))
    for seat, move in moves[:19]:  # events 2-20: snapshots at 10 and 20
        any_recorder.record(match_id, seat, move)
    for _ in range(11):  # events 21-31; the snapshot at 30 holds no move and one state
        any_recorder.undo(match_id, "Ann", "back")
    any_recorder.read_through = 1  # a read now snapshots the match after each event it replays
    read = any_recorder.get(match_id)  # from the snapshot at 30, and one undo
    assert len(read.moves) == 8 and len(read.states) == 9
    assert read.state == full_replay(any_recorder, match_id).state
    assert any_recorder.snapshots is not None
    newest = next(iter(any_recorder.snapshots.get(match_id, desc=True, limit=1)))
    assert newest.originator_version == 31 and usable(newest)  # the current state fetched
    read = any_recorder.get(match_id)  # from the snapshot at 31
    assert len(read.moves) == 8 and len(read.states) == 9
    assert_same(read, full_replay(any_recorder, match_id))
    any_recorder.record(match_id, *moves[8])  # the move after the eight left
    assert_same(any_recorder.get(match_id), full_replay(any_recorder, match_id))
