"""Bringing the tables up to date: read the notification log from the tracked position, page by
page, fold each page and write its rows with the new position in one transaction.

This polling catch-up works on both stores and serves the one-shot commands (`project`, `stats`,
`export-tables`, `list`), the HTTP API and the dashboard on SQLite, whose recorder has no
subscriptions. On PostgreSQL a long-running reader follows the store with the library's
ProjectionRunner instead (`projections.postgres.follow`), writing to the same tables and
position. A restart resumes from the position in the tracking table. Notifications are decoded
with the application's transcoder straight into plain fields (the projector needs no event
objects), which keeps the per-event cost to one JSON decode plus the rules' own work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore
from eventsourcing.utils import resolve_topic

from tablelog.domain.matches.match import Match
from tablelog.domain.matches.transcoding import DATETIME
from tablelog.domain.recording.eventsourcing_internals import connections_of
from tablelog.domain.recording.quarantine import finding_of
from tablelog.domain.recording.recorder import Recorder, cycle_collector_paused

from .projector import Event, Projector
from .ratings import Ratings
from .view import Rows, SQLiteTablesView, TablesView

if TYPE_CHECKING:  # psycopg is imported only for a PostgreSQL store
    from eventsourcing.postgres import PostgresApplicationRecorder

    from .pg_view import PostgresTablesView

PAGE = 5000
Progress = Callable[[int, int], None]
"""Called after each page with (events processed so far, events to process in all)."""


class Row(NamedTuple):
    """A notification as the catch-up reads it: no library objects, the id as stored."""

    id: int
    originator_id: UUID | str  # text in SQLite, a UUID from PostgreSQL
    originator_version: int
    topic: str
    state: bytes


@lru_cache(maxsize=8192)
def match_id_of(stored_id: UUID | str) -> UUID:
    """The match a row belongs to (cached: a page holds a few hundred matches' ids many times)."""
    return stored_id if isinstance(stored_id, UUID) else UUID(stored_id)


def _plain(state: bytes) -> dict[str, Any]:
    """A Match event's stored fields: plain JSON but for the timestamp, which the tables hold
    as the ISO text it is stored as (the transcoder would parse it, to be formatted again)."""
    data = orjson.loads(state)
    stamp = data.get("timestamp")
    if isinstance(stamp, dict) and stamp.get("_type_") == DATETIME:
        data["timestamp"] = stamp["_data_"]
    return data


class Decoder:
    """Stored events to `Event`s with the application's own transcoder (no event objects)."""

    def __init__(self, recorder: Recorder) -> None:
        self.mapper = recorder.mapper
        self.transcoder = recorder.mapper.transcoder
        self.plain = recorder.mapper.cipher is None and recorder.mapper.compressor is None
        self.kinds: dict[str, str | None] = {}
        self.versions: dict[str, int] = {}  # a topic's class version, where it is above 1

    def kind(self, topic: str) -> str | None:
        """The Match event class name of a topic; None for anything else."""
        if topic not in self.kinds:
            cls = resolve_topic(topic)
            ours = isinstance(cls, type) and issubclass(cls, Match.Event)
            self.kinds[topic] = cls.__name__ if ours else None
            if ours and getattr(cls, "class_version", 1) > 1:
                self.versions[topic] = cls.class_version
        return self.kinds[topic]

    def decode(self, stored: StoredEvent | Row) -> Event | None:
        kind = self.kinds.get(stored.topic) or self.kind(stored.topic)
        if kind is None:
            return None
        originator_id = match_id_of(stored.originator_id)
        data = _plain(stored.state) if self.plain else None
        version = self.versions.get(stored.topic)
        if version is not None and data is not None:
            # Stored by the class as it is now (the mapper's marker says so): nothing to
            # upcast, so the mapper (an event object, only to be taken apart) is not needed.
            if data.get("class_version") == version:
                del data["class_version"]
            else:
                data = None
        if data is None:  # an older version to upcast, or a cipher or compressor
            as_stored = StoredEvent(
                originator_id, stored.originator_version, stored.topic, stored.state
            )
            data = dict(vars(self.mapper.to_domain_event(as_stored)))
        return Event(originator_id, stored.originator_version, kind, data)

    def decode_all(self, stored: Iterable[StoredEvent | Row]) -> list[Event]:
        return [e for e in map(self.decode, stored) if e is not None]


def _statements(recorder: Recorder, view: TablesView) -> tuple[str, str]:
    """A catch-up's first read and a page of notifications, in the store's own SQL, each a
    statement run on its own (`TablesView.fetch_once`).

    A page: the notifications after a position, up to the newest one when the catch-up
    began, at most so many. The first read gives the newest notification and the tracked
    position; on PostgreSQL the first page too, in the same statement (a new match's few
    events then cost one round trip, where a transaction of three statements cost five)."""
    stored = recorder.recorder  # SQLite's or PostgreSQL's: both name their table
    if isinstance(stored, SQLiteApplicationRecorder):  # the notification id is the rowid
        table, number, marker = stored.events_table_name, "rowid", "?"
        tracking = "tracking"  # the library's SQLite tracking table has this one name
    else:  # the one other store with tables (`open_view`)
        events = cast("PostgresApplicationRecorder", stored)
        table = f'"{events.datastore.schema}"."{events.events_table_name}"'
        pg_view = cast("PostgresTablesView", view)  # a PostgreSQL view names its table
        tracking = f'"{pg_view.datastore.schema}"."{pg_view.tracking_table_name}"'
        number, marker = "notification_id", "%s"
    columns = f"{number}, originator_id, originator_version, topic, state"
    head = f"(SELECT MAX({number}) FROM {table})"
    position = f"(SELECT MAX(notification_id) FROM {tracking} WHERE application_name = {marker})"
    after = f"WHERE {number} > {marker} AND {number} <= {marker} ORDER BY {number} LIMIT {marker}"
    if marker == "?":
        # SQLite: the header alone; the page follows as a second statement. Its rows up to
        # the header's newest one were all committed before it (one writer at a time, rowids
        # in commit order), and SQLite ran this slower as one statement (measured).
        return f"SELECT {head}, {position}", f"SELECT {columns} FROM {table} {after}"
    # PostgreSQL: one statement, one snapshot, one round trip. The page's bounds are scalar
    # subqueries of its own, so joining it to the header needs no LATERAL; an empty page
    # leaves one row, the header's, with NULLs.
    first = (
        f"SELECT header.head, header.position, page.* FROM (SELECT {head} AS head, "
        f"{position} AS position) AS header LEFT JOIN (SELECT {number} AS n, originator_id, "
        f"originator_version, topic, state FROM {table} WHERE {number} > "
        f"COALESCE({position}, 0) AND {number} <= {head} ORDER BY {number} LIMIT {marker}) "
        "AS page ON 1 = 1 ORDER BY page.n"
    )
    return first, f"SELECT {columns} FROM {table} {after}"


Progress1 = Callable[[int], None]
"""Called with the events written so far."""


class _Writes:
    """The tables' writes, one at a time and in order. While more pages follow, a page's rows
    are written in a second thread as the next page is folded, where the view gains by it
    (`TablesView.write_behind`; rows from `Projector.take` change no more); the last page's
    are written at once, so a catch-up of a few events never starts a thread."""

    def __init__(self, view: TablesView) -> None:
        self.view = view
        self._pool: ThreadPoolExecutor | None = None
        self._pending: Future[None] | None = None
        self._count = 0  # the events of the write in flight, or just made

    def start(self, rows: Rows, tracking: Tracking, since: int, count: int, more: bool) -> None:
        self._count = count
        if more and self.view.write_behind:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="tablelog-tables")
            self._pending = self._pool.submit(self.view.write, rows, tracking, since=since)
        else:
            self.view.write(rows, tracking, since=since)
            self._pending = Future()
            self._pending.set_result(None)

    def settle(self) -> int:
        """Wait for the last write started: how many events it wrote (0 if there was none);
        its error, if it failed."""
        pending, self._pending = self._pending, None
        if pending is None:
            return 0
        pending.result()
        return self._count

    def __enter__(self) -> _Writes:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pending is not None:  # an error elsewhere: let the write in flight end
            wait([self._pending])
        if self._pool is not None:
            self._pool.shutdown()


def open_view(recorder: Recorder) -> TablesView:
    """The tables beside the recorder's events, on its own connections (created on first use):
    in the SQLite file, or in the PostgreSQL database. Any other store has no such tables
    (NotImplementedError)."""
    datastore, _ = connections_of(recorder)  # the one eventsourcing adapter
    if isinstance(datastore, SQLiteDatastore):
        view: TablesView = SQLiteTablesView(datastore)
    else:  # psycopg is imported only for a PostgreSQL store
        from .pg_view import PostgresTablesView

        view = PostgresTablesView(datastore)
    view.create_table()
    return view


class TablesProjection:
    """The projection of one recorder's store: its view, its position, and a projector whose
    cache lives as long as this object (so a long-running reader pays O(1) per new event)."""

    def __init__(
        self,
        recorder: Recorder,
        view: TablesView | None = None,
        page: int = PAGE,
        capacity: int = 4096,
    ) -> None:
        self.recorder = recorder
        self.view = view or open_view(recorder)
        self.page = page
        self.capacity = capacity
        self.decoder = Decoder(recorder)
        self._first_statement, self._page_statement = _statements(recorder, self.view)
        self._header_only = isinstance(recorder.recorder, SQLiteApplicationRecorder)
        self.projector = self._new_projector()
        # The tracked position the projector's cache was folded up to (None: no cache yet).
        # Another process may move the tables on between two catch-ups; folding the next
        # events onto a cache made at an older position would then skip what it wrote.
        self._cached_at: int | None = None

    def _new_projector(self) -> Projector:
        return Projector(self._history, self.view, self.capacity)

    @property
    def cached_at(self) -> int | None:
        """The position the projector's cache stands at (None before the first catch-up). The
        tables may be further on: another process may have written since."""
        return self._cached_at

    def forget(self) -> None:
        """Drop the projector's cache: after a failed or refused write it is ahead of the
        tables, and matches missing from it are rebuilt from their events."""
        self.projector = self._new_projector()
        self._cached_at = None

    def forget_ratings(self) -> None:
        """Drop only the ratings the projector read from the tables (the matches it keeps are
        made of events alone): for when another process wrote the very events it folded."""
        self.projector.ratings = Ratings(self.view)

    def _history(self, match_id: UUID, version: int) -> Iterator[Event]:
        """The match's events before `version`, a page at a time (a long match is never held
        whole)."""
        for stored in self._stored(match_id, version - 1):
            yield from self.decoder.decode_all(stored)

    def _stored(self, match_id: UUID, lte: int | None = None) -> Iterator[Sequence[StoredEvent]]:
        """The match's stored rows (up to version `lte`), page by page."""
        after = None
        while True:
            stored = self.recorder.recorder.select_events(
                match_id, gt=after, lte=lte, limit=self.page
            )
            yield stored
            if len(stored) < self.page:
                return
            after = stored[-1].originator_version

    @property
    def name(self) -> str:
        return self.recorder.name

    def position(self) -> int:
        return self.view.max_tracking_id(self.name) or 0

    def behind(self) -> int:
        """How many notifications the tables have not processed yet."""
        return max(0, (self.recorder.recorder.max_notification_id() or 0) - self.position())

    def catch_up(self, progress: Progress | None = None) -> int:
        """Process every notification after the tracked position up to the newest one stored
        when it began (on a busy store it does not chase writers forever); return how many."""
        with cycle_collector_paused():  # a page read is a tuple and a row per event, as a fold
            head, position, page = self._start()
        if self._cached_at is not None and self._cached_at != position:
            self.forget()  # the tables moved on without us: the cache is of an older position
        self._cached_at = position  # (an empty cache is right at any position)
        total = max(0, head - position)

        def written(done: int) -> None:
            if progress:
                progress(done, max(total, done))

        with _Writes(self.view) as writes:
            try:
                return self._pages(head, position, page, writes, written)
            except BaseException:
                self.forget()
                raise

    def _pages(
        self, head: int, folded: int, page: list[Row], writes: _Writes, written: Progress1
    ) -> int:
        """Fold page after page, each written with its position while the next one is folded
        (in a second thread: the database works without holding the GIL)."""
        done = 0
        while True:
            with cycle_collector_paused():
                if not page and folded < head:
                    page = self._read(folded, head)
                for stored in page:
                    self._fold_stored(stored)
                try:
                    done += writes.settle()  # the previous page's: each on the last's position
                    if page:
                        more = len(page) == self.page and page[-1].id < head
                        tracking = Tracking(self.name, page[-1].id)
                        writes.start(self.projector.take(), tracking, folded, len(page), more)
                except IntegrityError:
                    # Another process moved the tables on meanwhile: what we folded may be
                    # stale, so start again from its position with an empty cache.
                    self.forget()
                    folded = self._cached_at = self.position()
                    page = []
                    continue
            if done:
                written(done)
            if not page:
                return done
            folded = self._cached_at = page[-1].id
            page = []

    def _start(self) -> tuple[int, int, list[Row]]:
        """The newest notification, the tracked position and the first page after it
        (`_statements`)."""
        fetch = self.view.fetch_once
        if self._header_only:
            ((head, position),) = fetch(self._first_statement, (self.name,))
            head, position = head or 0, position or 0
            return head, position, self._read(position, head) if position < head else []
        rows = fetch(self._first_statement, (self.name, self.name, self.page))
        head, position = rows[0][:2]
        page = list(map(Row._make, (row[2:] for row in rows))) if rows[0][2] is not None else []
        return head or 0, position or 0, page

    def _read(self, position: int, head: int) -> list[Row]:
        """The next page of notifications after `position`, up to `head` (one plain query:
        the library's recorders build an object per row and convert each id, which cost more
        than decoding the row)."""
        return list(
            map(Row._make, self.view.fetch_once(self._page_statement, (position, head, self.page)))
        )

    def _fold_stored(self, stored: Row) -> None:
        """Fold one stored event; one that does not decode or replay quarantines its match
        (named with the audit's finding) and the catch-up goes on with every other match."""
        match_id = match_id_of(stored.originator_id)
        damaged = self.projector.damaged
        if damaged and match_id in damaged:
            return
        try:
            event = self.decoder.decode(stored)
            if event is not None:
                self.projector.fold(event)
        except Exception as err:  # noqa: BLE001 - a damaged row fails in any way
            self.quarantine(match_id, stored.originator_version, err)

    def quarantine(self, match_id: UUID, version: int, error: BaseException) -> None:
        self.projector.quarantine(match_id, version, finding_of(self.recorder, match_id, error))

    def mark_damaged(self, match_id: UUID, finding: str) -> bool:
        """Quarantine at once a match a reader found damaged (`Recorder.found_damaged`) if its
        stored events no longer fold, as a rebuild of the tables would find: its `matches` row
        says "damaged" and the `damaged` table names it (with `finding`), so no list or
        statistic counts it from now on. A row of a match the tables took in long ago may be
        damaged later, and no event then comes to tell them. A match that still folds (one
        that only this machine cannot replay, or whose hash chain alone is broken) stays.
        Whether it is quarantined."""
        if match_id in self.projector.damaged:  # the tables have it (or its next write does)
            return True
        event = self._unfoldable(match_id)
        if event is None:
            return False
        self.projector.damaged.add(match_id)  # its events are skipped from now on
        self.projector.cache.pop(match_id, None)
        self.view.mark_damaged(str(match_id), event, finding)
        return True

    def _unfoldable(self, match_id: UUID) -> int | None:
        """The stored position at which the match's events stop folding (None: they all
        fold): read afresh and folded by a projector of its own, whose rows are dropped."""
        scratch = self._new_projector()
        scratch.damaged.discard(match_id)
        position = 0
        try:
            for page in self._stored(match_id):
                for stored in page:
                    position = stored.originator_version
                    event = self.decoder.decode(stored)
                    if event is not None:
                        scratch.fold(event)
        except Exception:  # noqa: BLE001 - a damaged row fails in any way
            return position
        return None

    def damaged(self) -> list[dict[str, Any]]:
        """The quarantined matches: match_id, event, finding (as the tables hold them)."""
        return self.view.select("damaged")

    def version(self) -> list[int]:
        """What the tables show, for whoever remembers what it read from them: the tracked
        position and the number of quarantined matches (a list: it goes through JSON)."""
        return list(self.view.version(self.name))

    def reset(self) -> None:
        """Drop the tables' rows and the position: the next catch-up projects every event."""
        self.view.reset(self.name)
        self.forget()


def catch_up(recorder: Recorder, progress: Progress | None = None) -> TablesProjection:
    """Bring the recorder's tables up to date and return the projection (to load or re-use)."""
    projection = TablesProjection(recorder)
    projection.catch_up(progress)
    return projection
