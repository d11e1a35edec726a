"""eventsourcing's internals that Tablelog relies on, in one place.

Every override of a private hook of the library (a name starting with `_`) and every use of a
private name of it lives in this module; the rest of Tablelog uses the library's public API and
the names defined here. Most of these buy measured speed (benchmarks/RESULTS.md, issue 12); the
tracking helpers buy atomicity. Written against eventsourcing 9.5 (`TESTED_WITH`).

The library may change any of these in a minor release. tests/test_library_contract.py pins
what each relies on (the hook exists with the signature overridden here, the public path still
calls it, with values of the shape used here, and the override stores what the library's own
path stores, on SQLite and PostgreSQL), so an upgrade that changes one fails a test named after
the hook instead of storing something else. docs/library.md says what to do then.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from contextvars import ContextVar
from datetime import datetime
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Self, TypeVar, cast
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import (
    BaseAggregate,
    CanInitAggregate,
    CanMutateAggregate,
    DomainEventProtocol,
)
from eventsourcing.persistence import (
    ApplicationRecorder,
    InterfaceError,
    OperationalError,
    Recording,
    StoredEvent,
    Tracking,
)
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteDatastore,
)

if TYPE_CHECKING:  # psycopg is imported only for a PostgreSQL store
    from eventsourcing.postgres import PostgresDatastore

TESTED_WITH = "9.5"
"""The eventsourcing release (major.minor) whose internals this module was written against."""

T = TypeVar("T")
E = TypeVar("E", bound=CanMutateAggregate[UUID])

# ---- aggregates (domain.matches.match, domain.matches.snapshots) ---------------------------------


class LeanAggregate:
    """A mixin for an eventsourcing `Aggregate` (listed before it among the bases)."""

    created_fields: ClassVar[Mapping[str, object]] = {}
    """Fields every created event of the class carries besides those its `__init__` takes."""

    _pending_events: list[CanMutateAggregate[UUID]]

    @classmethod
    def _create(
        cls,
        event_class: type[CanInitAggregate[UUID]],
        *,
        id: UUID | None = None,
        **kwargs: object,
    ) -> Self:
        """Replaces `BaseAggregate._create`, through which every new aggregate is made
        (`Match(...)` and `created_by`), to add `created_fields` to the created event: a
        match's first event starts its hash chain (`prev_hash=""`) although `__init__` takes
        no such argument."""
        return cast(Any, super())._create(event_class, id=id, **cls.created_fields, **kwargs)

    @classmethod
    def created_by(
        cls, event_class: type[CanInitAggregate[UUID]], *, id: UUID | None = None, **kwargs: object
    ) -> Self:
        """A new aggregate made by its created event `event_class` with these fields: the
        library's `_create`, which, unlike calling the class, also takes the `timestamp` (an
        imported match keeps the time it was recorded at)."""
        return cls._create(event_class, id=id, **kwargs)

    def collect_events(self) -> list[CanMutateAggregate[UUID]]:
        """Replaces `BaseAggregate.collect_events`, which pops `_pending_events` one at a time
        from the front of the list (quadratic for a match stored whole): hands the list over.
        With `LeanApplication.save`: a bulk save 2.1-2.3x -> 1.9-2.0x a raw insert."""
        collected, self._pending_events = self._pending_events, []
        return collected


_GIVEN: ContextVar[tuple[object, object] | None] = ContextVar("tablelog_given", default=None)


def trigger(
    aggregate: BaseAggregate[UUID],
    event_class: type[E],
    *,
    timestamp: datetime | None = None,
    given: object = None,
    **fields: object,
) -> E:
    """The library's `BaseAggregate.trigger_event` (the aggregate's next version, the event's
    body run on the aggregate, the event added to its pending events), returning the new event,
    with what an `@event` command cannot say:

    `timestamp`, the event's time (None: now): an import keeps the time an entry was recorded.

    `given`, which the event's body reads with `given_to(aggregate)` while it runs (None on
    replay): the library calls a body with the event's fields only, and a command that has
    already computed what the body computes (a move's position after it, to check the move)
    hands it over rather than have it computed twice. It lives in a context variable for the
    call only, so no attribute of the aggregate (nor of its snapshots) ever holds it.

    An aggregate overriding `trigger_event` (so that its `@event` commands pass through it)
    calls this, which calls the library's own, never the override again."""
    token = _GIVEN.set((aggregate, given))
    try:
        BaseAggregate.trigger_event(aggregate, event_class, timestamp=timestamp, **fields)
    finally:
        _GIVEN.reset(token)
    return cast(E, aggregate.pending_events[-1])


def given_to(aggregate: object) -> object:
    """What `trigger` hands the body of the event it is triggering on `aggregate`; None when
    the body runs otherwise (on replay, or through `trigger` without a `given`)."""
    found = _GIVEN.get()
    return found[1] if found is not None and found[0] is aggregate else None


def amend_event(event: object, **values: object) -> None:
    """Set `values` on a new event, before it is stored. The library's events are frozen
    dataclasses that set their own fields with `object.__setattr__`; a value set so is in the
    event's `vars`, which the mapper stores and a match's hash covers, like any field. Tablelog
    sets `entered_by` only on events someone entered (an event entered by no one lacks it, so it
    hashes as events stored before the field existed), and an imported Started event's
    `originator_topic` as the original stored it."""
    for name, value in values.items():
        object.__setattr__(event, name, value)


AGGREGATE_FIELDS = frozenset({"_id", "_version", "_created_on", "_modified_on", "_pending_events"})
"""The attributes `BaseAggregate.__base_init__` gives every aggregate (the library's names)."""


def bare_aggregate(
    cls: type[T], id: UUID, version: int, created_on: datetime, modified_on: datetime
) -> T:
    """An aggregate of `cls` holding the library's own fields (`AGGREGATE_FIELDS`) and no
    others, without replaying any event: what a compact snapshot restores its fields onto
    (domain.matches.snapshots)."""
    aggregate = object.__new__(cls)
    aggregate.__dict__.update(
        {
            "_id": id,
            "_version": version,
            "_created_on": created_on,
            "_modified_on": modified_on,
            "_pending_events": [],
        }
    )
    return aggregate


# ---- stored events (domain.matches.transcoding) --------------------------------------------------


def stored_event(
    originator_id: UUID | str, originator_version: int, topic: str, state: bytes
) -> StoredEvent:
    """`StoredEvent(...)` without the frozen dataclass's four `object.__setattr__` calls
    (measured: 1.6 -> 1.0 us an event): relies on StoredEvent being a dataclass of exactly
    these four fields kept in its instance `__dict__` (no slots)."""
    stored = object.__new__(StoredEvent)
    object.__setattr__(
        stored,
        "__dict__",
        {
            "originator_id": originator_id,
            "originator_version": originator_version,
            "topic": topic,
            "state": state,
        },
    )
    return stored


class MappedMatch(NamedTuple):
    """One match's stored events as columns: its id and first version once, then each event's
    topic and state: what `save_matches` stores. A simulated match crosses between processes
    as these parts and is stored from them without a StoredEvent per row (on SQLite; the main
    process's CPU per Topitop match of a run with workers 0.36-0.41 -> 0.27-0.33 ms)."""

    originator_id: UUID | str  # as StoredEvent types it (a match's is its UUID)
    first_version: int
    topics: list[str]
    states: list[bytes]

    @classmethod
    def of(cls, stored: Sequence[StoredEvent]) -> MappedMatch:
        """The columns of one match's StoredEvents, consecutive versions from the first."""
        first = stored[0]
        return cls(
            first.originator_id,
            first.originator_version,
            [s.topic for s in stored],
            [s.state for s in stored],
        )

    def versions(self) -> range:
        return range(self.first_version, self.first_version + len(self.topics))

    def stored_events(self) -> list[StoredEvent]:
        return list(map(stored_event, repeat(self.originator_id), self.versions(), *self[2:]))


# ---- saving (domain.recording.recorder, domain.matches.snapshot_reads) ---------------------------


class LeanApplication(Application[UUID]):
    """An eventsourcing Application whose `save` skips the library's per-aggregate checks; the
    subclass says what surrounds a save's recording (`saving`) and which snapshots a save
    takes (`snapshot_saved`)."""

    def construct_recorder(self) -> ApplicationRecorder:
        recorder = super().construct_recorder()
        answer_when_down(recorder)
        return recorder

    def save(self, *aggregates: Any, **kwargs: object) -> list[Recording[UUID]]:
        """The library's `Application.save` (collect, `_record`, `_take_snapshots`,
        `_notify`), less `ProcessingEvent.collect_events`'s two runtime `typing.Protocol`
        checks per aggregate (50-90 ms a thousand matches, 7% of a bulk save) and the
        deprecated `notify`, which does nothing. Only aggregates are saved here, never bare
        events."""
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for aggregate in aggregates:
            if aggregate is not None:
                processing_event.events.extend(aggregate.collect_events())
                processing_event.aggregates[aggregate.id] = aggregate
        processing_event.saved_kwargs.update(kwargs)
        with self.saving(len(processing_event.events)):
            recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        return recordings

    def saving(self, events: int) -> AbstractContextManager[None]:
        """What surrounds the recording of a save of `events` events (nothing here)."""
        return nullcontext()

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Replaces the library's snapshotting at fixed versions (`snapshotting_intervals`)
        with `snapshot_saved`, which snapshots from the aggregates just saved."""
        self.snapshot_saved(processing_event.events, processing_event.aggregates)

    def snapshot_saved(
        self, events: Sequence[DomainEventProtocol[UUID]], aggregates: dict[UUID, Any]
    ) -> None:
        """Take whatever snapshots a save of `events` (made by `aggregates`) calls for."""

    def save_matches(self, matches: Sequence[MappedMatch]) -> None:
        """Store matches whose events this application's mapper already mapped
        (`mapper.to_stored_event`, as a simulation's worker processes do in parallel), in one
        transaction: the rest of what `_record` does (`EventStore.put` inserts its mapped
        events with `recorder.insert_events`), with no snapshots taken and no notifications
        returned. SQLite's recorder takes the columns as they are (`insert_matches`); any
        other gets the StoredEvents back."""
        recorder = self.recorder
        if isinstance(recorder, BatchedSQLiteApplicationRecorder):
            recorder.insert_matches(matches)
        else:
            recorder.insert_events([s for match in matches for s in match.stored_events()])


# ---- SQLite (tablelog.sqlite_store) -----------------------------------------------------------


class ConfiguredSQLitePool(SQLiteConnectionPool):
    """The library's SQLite connection pool, calling `configure` on each new connection."""

    def _create_connection(self) -> SQLiteConnection:
        """Replaces the library's connection creation (which sets WAL mode and nothing else,
        and offers no hook) to run `configure` on the new sqlite3 connection: Tablelog sets
        `synchronous=NORMAL` there (a move's p50 17.6 ms -> 0.9 ms)."""
        connection = super()._create_connection()
        self.configure(connection._sqlite_conn)
        return connection

    def configure(self, db: sqlite3.Connection) -> None:
        """Run settings on a new connection (nothing here)."""


def replace_pool(datastore: SQLiteDatastore, pool_class: type[SQLiteConnectionPool]) -> None:
    """Give the datastore a pool of `pool_class` on the same file with the same lock timeout
    (the library builds its pool in `SQLiteDatastore.__init__`, with no way to name a class).
    Call it before the datastore has made any connection."""
    pool = datastore.pool
    datastore.pool = pool_class(db_name=pool.db_name, lock_timeout=pool.lock_timeout)


class BatchedSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder, inserting a save's rows in one call."""

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: object
    ) -> Sequence[int] | None:
        """Replaces the library's insert (one `execute` per event, collecting each row's id)
        with one `executemany`, and returns no notification ids: nothing in Tablelog follows
        the application in-process (projections poll the notification log), so `EventStore.put`
        need not build a Notification per stored event. Part of a bulk save 6.1x -> 1.8x a raw
        sqlite3 insert. The rows stored are the library's (tested)."""
        rows, last_id, spelled = [], None, ""
        for s in stored_events:
            if s.originator_id is not last_id:  # a match's events share one id: spell it once
                last_id, spelled = s.originator_id, _spelled(s.originator_id)
            rows.append((spelled, s.originator_version, s.topic, s.state))
        c.executemany(self.insert_events_statement, rows)
        return None

    def insert_matches(self, matches: Sequence[MappedMatch]) -> None:
        """`insert_events` of the matches' rows, spelled from the columns as `_insert_events`
        spells a StoredEvent (the id once a match), in one transaction."""
        rows = [
            row
            for match in matches
            for row in zip(repeat(_spelled(match.originator_id)), match.versions(), *match[2:])
        ]
        with self.datastore.transaction(commit=True) as c:
            c.executemany(self.insert_events_statement, rows)


def _spelled(originator_id: object) -> str:
    """How the library's SQLite recorder spells an id in the originator_id column."""
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id)


# ---- the store's connections (domain.recording.side_tables, tablelog.lab.store) ------------------


class StoreConnections(NamedTuple):
    """The connections of an application's store, for tables of our own beside the events."""

    datastore: SQLiteDatastore | PostgresDatastore  # both open `transaction(commit=)`
    postgres: bool  # else SQLite: the SQL placeholder is %s rather than ?


def connections_of(app: Application[UUID]) -> StoreConnections:
    """The datastore an application's recorder keeps its connections in. The library's SQLite
    and PostgreSQL recorders both have one (`recorder.datastore`); the base ApplicationRecorder
    does not say so, so any other store is refused (NotImplementedError) rather than guessed.
    A PostgreSQL datastore is known by its class's name, so that psycopg is imported only for
    one."""
    datastore = getattr(app.recorder, "datastore", None)
    if isinstance(datastore, SQLiteDatastore):
        return StoreConnections(datastore, postgres=False)
    if any(_is_postgres_datastore(c) for c in type(datastore).__mro__):
        return StoreConnections(cast("PostgresDatastore", datastore), postgres=True)
    raise NotImplementedError(f"no table of ours on a {type(app.recorder).__name__} store")


def _is_postgres_datastore(cls: type) -> bool:
    return (cls.__module__, cls.__qualname__) == ("eventsourcing.postgres", "PostgresDatastore")


class StoreDown(ConnectionError):
    """The PostgreSQL server gave no connection within the connect timeout: it is down, or out
    of connections. Deliberately not one of the errors the library retries (its
    `OperationalError`): each retry would wait the timeout again, ten times over."""


# A store that stopped answering: the library's connection-level errors (a dropped connection,
# retried ten times first) and StoreDown. Never a damaged row's doing: reads let them through.
CONNECTION_LOST: tuple[type[Exception], ...] = (InterfaceError, OperationalError, StoreDown)


def answer_when_down(recorder: object) -> None:
    """Have a PostgreSQL recorder's reads and writes fail after one connect timeout when the
    server gives no connection (StoreDown), rather than after the library's ten tries of one
    timeout each (50 s and more for one command). A dropped connection is still retried: the
    retry's new connection comes from the pool. SQLite stores are left as they are."""
    datastore = getattr(recorder, "datastore", None)
    if not any(_is_postgres_datastore(c) for c in type(datastore).__mro__):
        return
    from psycopg_pool import PoolTimeout

    pool = cast("PostgresDatastore", datastore).pool
    getconn = pool.getconn

    def getconn_or_down(timeout: float | None = None) -> object:
        try:
            return getconn(timeout)
        except PoolTimeout as err:
            raise StoreDown(str(err)) from err

    pool.getconn = getconn_or_down  # type: ignore[method-assign,assignment]


# ---- tracking (projections.view) --------------------------------------------------------------


def insert_tracking(recorder: Any, cursor: object, tracking: Tracking) -> None:
    """The library's `_insert_tracking` of a tracking recorder (SQLite or PostgreSQL): the
    position written in the caller's transaction (the public `insert_tracking` opens its own),
    so a view's rows and its position commit together or not at all."""
    recorder._insert_tracking(cursor, tracking)


def max_tracking_id(recorder: Any, cursor: object, application_name: str) -> int | None:
    """The library's `_max_tracking_id`: the position, read in the caller's transaction."""
    return cast("int | None", recorder._max_tracking_id(application_name, cursor))


# ---- snapshots (domain.matches.snapshot_reads) ---------------------------------------------------


def drop_snapshot(recorder: Any, originator_id: UUID, version: int) -> None:
    """Delete one stored snapshot: the library has no such call, and snapshots are a cache. A
    snapshot this code will not use keeps its position, where no new snapshot can be stored, so
    the match would replay from further back on every read until it is gone."""
    table = recorder.events_table_name
    with recorder.datastore.transaction(commit=True) as cursor:
        if isinstance(recorder, SQLiteApplicationRecorder | SQLiteAggregateRecorder):
            cursor.execute(
                f"DELETE FROM {table} WHERE originator_id=? AND originator_version=?",
                (_spelled(originator_id), version),
            )
        else:
            from psycopg.sql import SQL, Identifier

            statement = SQL(
                "DELETE FROM {schema}.{table} WHERE originator_id=%s AND originator_version=%s"
            ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(table))
            cursor.execute(statement, (originator_id, version))
