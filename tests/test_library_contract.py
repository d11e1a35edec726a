"""What `domain.recording.eventsourcing_internals` relies on in eventsourcing, pinned.

Each test is named after a private hook (or private name) of the library that the adapter
overrides or uses, and checks that the hook still exists with the signature overridden, that the
library's public path still goes through it with values of the shape used, and that the
override stores what the library's own path stores (on a real SQLite file and on PostgreSQL).
An eventsourcing upgrade that breaks one fails here, naming the hook (docs/library.md).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import sqlite3
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import Aggregate, BaseAggregate, event
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
    SQLiteTrackingRecorder,
)

from tablelog.domain.matches.match import Match, event_hash, start_match
from tablelog.domain.recording import eventsourcing_internals as internals
from tablelog.domain.recording.recorder import Recorder
from tablelog.projections.runner import open_view
from tablelog.simulation import make_plan, play_match
from tablelog.store import open_recorder, store_env

from .conftest import _pg_admin, stored_rows

KW = inspect.Parameter.KEYWORD_ONLY
VAR_KW = inspect.Parameter.VAR_KEYWORD


def parameters(function: Any) -> list[tuple[str, Any]]:
    return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]


def assert_hook(
    owner: type, name: str, expected: list[str], kinds: dict[str, Any] | None = None
) -> None:
    """`owner.name` exists with these parameter names (and kinds, where given)."""
    hook = f"eventsourcing {owner.__name__}.{name}"
    assert hasattr(owner, name), (
        f"{hook} is gone: domain/recording/eventsourcing_internals.py relies on it"
    )
    found = parameters(getattr(owner, name))
    assert [n for n, _ in found] == expected, (
        f"{hook} now takes {found}, not {expected} "
        "as domain/recording/eventsourcing_internals.py expects"
    )
    for param, kind in (kinds or {}).items():
        assert dict(found)[param] == kind, f"{hook}: parameter {param} is now {dict(found)[param]}"


def a_match(seed: int = 1) -> Match:
    """A finished simulated Topitop match, in memory with all its events pending."""
    return play_match(make_plan("topitop", 1, seed), 0)


# ---- BaseAggregate._create, collect_events, __base_init__'s fields -----------------------------


def test_aggregate_create_hook_signature_and_use():
    assert_hook(
        BaseAggregate, "_create", ["event_class", "id", "kwargs"], {"id": KW, "kwargs": VAR_KW}
    )
    # Calling the class goes through `_create`: Match.Started requires `prev_hash`, which only
    # the override supplies, so the class call fails if the library bypasses it.
    started = start_match(uuid.uuid4(), "topitop", ["Ann", "Ben"]).pending_events[0]
    assert isinstance(started, Match.Started)
    fields = {
        k: v
        for k, v in vars(started).items()
        if k in ("game", "rules_version", "options", "seats", "setup")
    }
    match = Match(id=uuid.uuid4(), **fields)
    first = match.pending_events[0]
    assert isinstance(first, Match.Started), "the class call no longer records a Started event"
    assert first.prev_hash == "", "BaseAggregate._create: the created event lost prev_hash"
    assert (first.originator_version, first.originator_topic) == (1, started.originator_topic)


def test_aggregate_create_hook_takes_the_given_timestamp():
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    match = start_match(uuid.uuid4(), "topitop", ["Ann", "Ben"], at=at)  # Match.created_by
    assert match.pending_events[0].timestamp == at, "BaseAggregate._create ignored `timestamp`"


def test_collect_events_hands_over_what_the_librarys_would():
    mine = a_match()
    theirs = copy.deepcopy(mine)
    assert mine.pending_events is mine._pending_events, (
        "BaseAggregate.pending_events is no longer the `_pending_events` list that "
        "LeanAggregate.collect_events hands over"
    )
    expected = BaseAggregate.collect_events(theirs)
    collected = mine.collect_events()
    assert [vars(e) for e in collected] == [vars(e) for e in expected]
    assert mine.pending_events == [] and theirs.pending_events == []


def test_base_init_sets_exactly_the_aggregate_fields():
    at = datetime(2026, 1, 2, tzinfo=UTC)
    theirs = object.__new__(Match)
    theirs.__base_init__(uuid.UUID(int=7), 5, at)
    assert set(vars(theirs)) == internals.AGGREGATE_FIELDS, (
        "BaseAggregate.__base_init__ now sets other private fields than AGGREGATE_FIELDS: "
        "domain.matches.snapshots restores a match with them"
    )
    mine = internals.bare_aggregate(Match, uuid.UUID(int=7), 5, at, at)
    assert vars(mine) == vars(theirs)
    assert (mine.id, mine.version, mine.created_on, mine.modified_on, mine.pending_events) == (
        uuid.UUID(int=7),
        5,
        at,
        at,
        [],
    )


# ---- BaseAggregate.trigger_event, frozen events (trigger, given_to, amend_event) --------------


class Counter(Aggregate):
    """An aggregate whose one `@event` body notes what `given_to` hands it."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, Any]] = []

    @event("Counted")
    def count(self, n: int) -> None:
        self.seen.append((n, internals.given_to(self)))


COUNTED: Any = Counter.Counted  # type: ignore[attr-defined]  # made by @event


def test_trigger_event_hook_is_the_base_aggregates():
    assert_hook(BaseAggregate, "trigger_event", ["self", "event_class", "kwargs"])
    assert Aggregate.trigger_event is BaseAggregate.trigger_event, (
        "Aggregate now overrides trigger_event: internals.trigger calls BaseAggregate's, "
        "and would skip it"
    )


def test_trigger_runs_the_body_inside_handing_it_the_given():
    counter = Counter()
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    new: Any = internals.trigger(counter, COUNTED, timestamp=at, given="worked out", n=1)
    assert (new.timestamp, new.originator_version, new.n) == (at, 2, 1)
    assert new is counter.pending_events[-1], "trigger_event no longer appends the new event"
    assert counter.seen == [(1, "worked out")], (
        "BaseAggregate.trigger_event no longer runs the event's body before it returns"
    )
    assert internals.given_to(counter) is None  # for the call only
    now = internals.trigger(counter, COUNTED, n=2)
    assert now.timestamp is not None and now.timestamp.tzinfo is not None  # None: now
    counter.count(3)  # the library's own path: the body gets the event's fields only
    assert counter.seen[1:] == [(2, None), (3, None)]
    replayed = None
    for stored in counter.collect_events():
        replayed = stored.mutate(replayed)
    assert isinstance(replayed, Counter)
    assert replayed.seen == [(1, None), (2, None), (3, None)]  # no given on replay


def test_an_amended_event_is_stored_and_read_back_with_the_value(store):
    started: Any = start_match(uuid.uuid4(), "topitop", ["Ann", "Ben"]).pending_events[0]
    who = {"id": None, "name": "Ann", "via": "test"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        started.entered_by = who
    internals.amend_event(started, entered_by=who)
    assert vars(started)["entered_by"] == who
    recorder = open_recorder(store)
    try:
        back: Any = recorder.mapper.to_domain_event(recorder.mapper.to_stored_event(started))
    finally:
        recorder.close()
    assert back.entered_by == who, "the mapper no longer stores a value set on a frozen event"
    assert event_hash(back) == event_hash(started)


def test_at_and_by_give_the_next_event_only_and_leave_nothing_on_the_match():
    match = a_match()
    fields = set(vars(match))
    at = datetime(2026, 1, 2, tzinfo=UTC)
    who = {"id": None, "name": "Umpire", "via": "test"}
    match.at(at).by(who).dispute("Ben", "the last move")
    given: Any = match.pending_events[-1]
    assert (given.timestamp, given.entered_by) == (at, who)
    assert set(vars(match)) == fields, "at/by left something on the match (its snapshot)"
    match.dispute("Ben", "the move before")
    after: Any = match.pending_events[-1]
    assert after.timestamp != at and "entered_by" not in vars(after)  # no one entering now
    assert after.prev_hash == event_hash(given)


# ---- StoredEvent --------------------------------------------------------------------------------


def test_stored_event_is_the_dataclass_the_shortcut_builds():
    names = [f.name for f in dataclasses.fields(StoredEvent)]
    assert names == ["originator_id", "originator_version", "topic", "state"], (
        f"StoredEvent's fields are now {names}: stored_event() builds the old four"
    )
    assert "__slots__" not in vars(StoredEvent), "StoredEvent now has slots: stored_event() fails"
    args = (uuid.UUID(int=1), 3, "a.b:C", b"{}")
    mine, theirs = internals.stored_event(*args), StoredEvent(*args)
    assert mine == theirs and hash(mine) == hash(theirs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.topic = "x"  # type: ignore[misc]


# ---- Application.save: _record, _take_snapshots, _notify ----------------------------------------


def test_application_save_hooks_signatures():
    assert_hook(Application, "_record", ["self", "processing_event"])
    assert_hook(Application, "_take_snapshots", ["self", "processing_event"])
    assert_hook(Application, "_notify", ["self", "recordings"])
    event: ProcessingEvent[uuid.UUID] = ProcessingEvent()
    assert (event.events, event.aggregates, event.saved_kwargs, event.tracking) == (
        [],
        {},
        {},
        None,
    ), "ProcessingEvent no longer starts as LeanApplication.save fills it"


def test_application_save_calls_record_take_snapshots_notify_in_turn():
    calls: list[tuple[str, Any]] = []

    class Spy(Application):
        def _record(self, processing_event):
            calls.append(("_record", processing_event))
            return super()._record(processing_event)

        def _take_snapshots(self, processing_event):
            calls.append(("_take_snapshots", processing_event))

        def _notify(self, recordings):
            calls.append(("_notify", recordings))

    app = Spy(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    aggregate = Aggregate()
    pending = list(aggregate.pending_events)
    recordings = app.save(aggregate, note="x")
    assert [name for name, _ in calls] == ["_record", "_take_snapshots", "_notify"], (
        "Application.save no longer calls _record, _take_snapshots, _notify in turn: "
        "LeanApplication.save copies it"
    )
    processing_event = calls[0][1]
    assert calls[1][1] is processing_event and calls[2][1] == recordings
    assert processing_event.events == pending
    assert processing_event.aggregates == {aggregate.id: aggregate}
    assert processing_event.saved_kwargs == {"note": "x"}


@pytest.fixture(params=["sqlite", "postgres"])
def two_stores(request, tmp_path):
    """Two fresh stores of one kind: SQLite files, or PostgreSQL databases."""
    if request.param == "sqlite":
        yield str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
        return
    first = request.getfixturevalue("postgres_store")
    server, name = first.rsplit("/", 1)
    second = f"{name}_b"
    with _pg_admin() as admin:
        admin.execute(f'CREATE DATABASE "{second}"')
    yield first, f"{server}/{second}"
    with _pg_admin() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{second}" WITH (FORCE)')


def test_lean_save_stores_what_application_save_stores(two_stores):
    """Our `save` (and our SQLite `_insert_events`) against the library's `Application.save`:
    the same rows, notification ids and snapshots."""
    mine_at, theirs_at = two_stores
    matches = [a_match(seed) for seed in (1, 2, 3)]
    copies = copy.deepcopy(matches)
    mine = open_recorder(mine_at)
    mine.snapshot_every = 10  # a snapshot or more per match
    try:
        mine.save(*matches)
        mine_notes = mine.recorder.select_notifications(start=1, limit=1000)
        mine_snaps = _snapshot_rows(mine, matches)
    finally:
        mine.close()
    theirs = open_recorder(theirs_at)
    theirs.snapshot_every = 10
    try:
        Application.save(theirs, *copies)
        theirs_notes = theirs.recorder.select_notifications(start=1, limit=1000)
        theirs_snaps = _snapshot_rows(theirs, copies)
    finally:
        theirs.close()
    assert stored_rows(mine_at) == stored_rows(theirs_at) != []
    assert [vars(n) for n in mine_notes] == [vars(n) for n in theirs_notes]
    assert len(mine_snaps) == len(theirs_snaps) > 0  # taken at the same versions
    assert [(s.originator_id, s.originator_version) for s in mine_snaps] == [
        (s.originator_id, s.originator_version) for s in theirs_snaps
    ]


def _snapshot_rows(recorder: Recorder, matches: list[Match]) -> list[Any]:
    assert recorder.snapshots is not None
    return [s for m in matches for s in recorder.snapshots.recorder.select_events(m.id)]


def test_sqlite_insert_events_hook_stores_the_librarys_rows(tmp_path):
    """Our `_insert_events` against the library's own SQLite application recorder."""
    assert_hook(
        SQLiteApplicationRecorder,
        "_insert_events",
        ["self", "c", "stored_events", "_"],
        {"_": VAR_KW},
    )
    calls: list[Any] = []
    original = internals.BatchedSQLiteApplicationRecorder._insert_events
    mine_at, theirs_at = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    match = a_match()
    copied = copy.deepcopy(match)
    mine = open_recorder(mine_at)
    theirs = Recorder(env={**store_env(theirs_at), "PERSISTENCE_MODULE": "eventsourcing.sqlite"})
    try:
        assert type(theirs.recorder) is SQLiteApplicationRecorder
        assert isinstance(mine.recorder, internals.BatchedSQLiteApplicationRecorder)
        assert (
            mine.recorder.insert_events_statement == "INSERT INTO stored_events VALUES (?,?,?,?)"
        ), "SQLite insert_events_statement changed"

        def spy(self, c, stored_events, **kwargs):
            calls.append(list(stored_events))
            return original(self, c, stored_events, **kwargs)

        internals.BatchedSQLiteApplicationRecorder._insert_events = spy  # type: ignore
        try:
            mine.save(match)
        finally:
            internals.BatchedSQLiteApplicationRecorder._insert_events = original  # type: ignore
        theirs.save(copied)
    finally:
        mine.close()
        theirs.close()
    assert len(calls) == 1, "SQLite insert_events no longer goes through _insert_events"
    assert all(isinstance(s, StoredEvent) for s in calls[0])
    assert stored_rows(mine_at) == stored_rows(theirs_at) != []


def test_save_matches_stores_what_save_stores(two_stores):
    """`save_matches` is `EventStore.put` less the mapping: `put` maps with the mapper and
    inserts with `recorder.insert_events`; SQLite's `insert_matches` spells the same rows."""
    mine_at, theirs_at = two_stores
    matches = [a_match(seed) for seed in (1, 2)]
    copies = copy.deepcopy(matches)
    mine, theirs = open_recorder(mine_at), open_recorder(theirs_at)
    try:
        to_stored = mine.mapper.to_stored_event
        mine.save_matches(
            [internals.MappedMatch.of([to_stored(e) for e in m.collect_events()]) for m in matches]
        )
        theirs.events.put([e for m in copies for e in m.collect_events()])
    finally:
        mine.close()
        theirs.close()
    assert stored_rows(mine_at) == stored_rows(theirs_at) != []


# ---- SQLiteConnectionPool._create_connection, SQLiteConnection._sqlite_conn -------------------


def test_sqlite_create_connection_hook(tmp_path):
    assert_hook(SQLiteConnectionPool, "_create_connection", ["self"])
    assert_hook(
        SQLiteConnectionPool,
        "__init__",
        [
            "self",
            "db_name",
            "lock_timeout",
            "pool_size",
            "max_overflow",
            "pool_timeout",
            "max_age",
            "pre_ping",
        ],
        {"db_name": KW, "lock_timeout": KW},
    )
    configured: list[sqlite3.Connection] = []

    class Pool(internals.ConfiguredSQLitePool):
        def configure(self, db: sqlite3.Connection) -> None:
            configured.append(db)

    datastore = SQLiteDatastore(str(tmp_path / "x.sqlite"), lock_timeout=7)
    internals.replace_pool(datastore, Pool)
    assert (datastore.pool.db_name, datastore.pool.lock_timeout) == (str(tmp_path / "x.sqlite"), 7)
    with datastore.get_connection(commit=True) as connection:
        assert isinstance(connection, SQLiteConnection)
        assert configured, (
            "SQLiteDatastore no longer makes its connections with "
            "SQLiteConnectionPool._create_connection"
        )
        assert configured[-1] is connection._sqlite_conn, "SQLiteConnection._sqlite_conn changed"
        assert isinstance(connection._sqlite_conn, sqlite3.Connection)
    datastore.close()


def test_a_store_connection_is_synchronous_normal_in_wal(store):
    recorder = open_recorder(store)
    try:
        stored = recorder.recorder
        assert isinstance(stored, SQLiteApplicationRecorder)  # `store` is a SQLite file
        assert type(stored.datastore.pool).__name__ == "_Pool"
        with stored.datastore.transaction(commit=False) as c:
            c.execute("PRAGMA synchronous")
            assert c.fetchone()[0] == 1, "the pool's configure did not set synchronous=NORMAL"
            c.execute("PRAGMA journal_mode")
            assert c.fetchone()[0].lower() == "wal"
    finally:
        recorder.close()


# ---- recorder.datastore (connections_of) -------------------------------------------------------


def test_store_recorders_keep_their_datastore(any_store):
    """`connections_of` reads the recorder's `datastore` (the base ApplicationRecorder does not
    declare one) and knows PostgreSQL's by the class's module and name, without psycopg."""
    recorder = open_recorder(any_store)
    try:
        datastore = getattr(recorder.recorder, "datastore", None)
        assert datastore is not None, "the store's recorder no longer keeps a `datastore`"
        connections = internals.connections_of(recorder)
        assert connections.datastore is datastore
        if any_store.startswith("postgres"):
            assert (type(datastore).__module__, type(datastore).__qualname__) == (
                "eventsourcing.postgres",
                "PostgresDatastore",
            ), "PostgresDatastore moved: connections_of no longer knows a PostgreSQL store"
            assert connections.postgres
        else:
            assert isinstance(datastore, SQLiteDatastore) and not connections.postgres
        with connections.datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() is not None
    finally:
        recorder.close()


def test_a_store_without_a_datastore_is_refused():
    app: Application[uuid.UUID] = Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    assert getattr(app.recorder, "datastore", None) is None
    with pytest.raises(NotImplementedError, match="no table of ours"):
        internals.connections_of(app)
    with pytest.raises(NotImplementedError):
        open_view(Recorder())  # the library's in-memory store: no projection tables


# ---- TrackingRecorder._insert_tracking, _max_tracking_id ---------------------------------------


@pytest.mark.parametrize("owner", [SQLiteTrackingRecorder, PostgresTrackingRecorder])
def test_tracking_hooks_signatures(owner):
    # Called positionally (the two stores name the cursor differently): pin the order.
    for name, second, third in (
        ("_insert_tracking", "cursor", "tracking"),
        ("_max_tracking_id", "application_name", "cursor"),
    ):
        assert hasattr(owner, name), f"eventsourcing {owner.__name__}.{name} is gone"
        found = parameters(getattr(owner, name))
        shape = [n if "c" != n[:1] else "cursor" for n, _ in found]
        assert shape == ["self", second, third], (
            f"eventsourcing {owner.__name__}.{name} now takes {found}, not (self, {second}, "
            f"{third}) as domain/recording/eventsourcing_internals.py passes them"
        )


def test_tracking_hooks_write_in_the_callers_transaction(any_store):
    recorder = open_recorder(any_store)
    view = open_view(recorder)
    try:
        # read by name: only the library's concrete recorders declare it
        assert isinstance(getattr(view, "table_migration_identifier", None), str), (
            "TrackingRecorder.table_migration_identifier is gone: the views' reset keeps it"
        )
        with view.datastore.transaction(commit=True) as c:
            internals.insert_tracking(view, c, Tracking("contract", 5))
            assert internals.max_tracking_id(view, c, "contract") == 5
        assert view.max_tracking_id("contract") == 5
        with pytest.raises(RuntimeError), view.datastore.transaction(commit=True) as c:
            internals.insert_tracking(view, c, Tracking("contract", 9))
            raise RuntimeError("the rest of the write failed")
        assert view.max_tracking_id("contract") == 5, "_insert_tracking committed on its own"
        with pytest.raises(IntegrityError), view.datastore.transaction(commit=True) as c:
            internals.insert_tracking(view, c, Tracking("contract", 5))
        assert view.max_tracking_id("contract") == 5
    finally:
        view.datastore.close()
        recorder.close()
