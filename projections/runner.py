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
from functools import lru_cache
from typing import Any, NamedTuple
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import resolve_topic

from tablelog.domain.match import Match
from tablelog.domain.quarantine import finding_of
from tablelog.domain.recorder import Recorder
from tablelog.domain.transcoding import DATETIME

from .projector import Event, Projector
from .ratings import Ratings
from .view import SQLiteTablesView, TablesView

PAGE = 5000
Progress = Callable[[int, int], None]
"""Called after each page with (events processed so far, events to process in all)."""


class Row(NamedTuple):
    """A notification as the catch-up reads it: no library objects, the id as stored."""

    id: int
    originator_id: Any  # text in SQLite, a UUID from PostgreSQL
    originator_version: int
    topic: str
    state: bytes


@lru_cache(maxsize=8192)
def match_id_of(stored_id: Any) -> UUID:
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

    def kind(self, topic: str) -> str | None:
        """The Match event class name of a topic; None for anything else."""
        if topic not in self.kinds:
            cls = resolve_topic(topic)
            ours = isinstance(cls, type) and issubclass(cls, Match.Event)
            # An event class with upcasters goes through the mapper, which applies them.
            upcast = getattr(cls, "class_version", 1) > 1
            self.kinds[topic] = None if not ours else ("~" if upcast else "") + cls.__name__
        return self.kinds[topic]

    def decode(self, stored: StoredEvent | Row) -> Event | None:
        kind = self.kind(stored.topic)
        if kind is None:
            return None
        originator_id = match_id_of(stored.originator_id)
        if kind.startswith("~") or not self.plain:
            as_stored = StoredEvent(
                originator_id, stored.originator_version, stored.topic, stored.state
            )
            data = dict(vars(self.mapper.to_domain_event(as_stored)))
            kind = kind.lstrip("~")
        else:
            data = _plain(stored.state)
        return Event(originator_id, stored.originator_version, kind, data)

    def decode_all(self, stored: Iterable[StoredEvent | Row]) -> list[Event]:
        return [e for e in map(self.decode, stored) if e is not None]


def open_view(recorder: Recorder) -> TablesView:
    """The tables beside the recorder's events, on its own connections (created on first use):
    in the SQLite file, or in the PostgreSQL database."""
    if isinstance(recorder.recorder, SQLiteApplicationRecorder):
        view: TablesView = SQLiteTablesView(recorder.recorder.datastore)
    else:  # psycopg is imported only for a PostgreSQL store
        from eventsourcing.postgres import PostgresApplicationRecorder

        from .postgres import PostgresTablesView

        if not isinstance(recorder.recorder, PostgresApplicationRecorder):
            raise NotImplementedError(
                f"no projection tables on a {type(recorder.recorder).__name__} store"
            )
        view = PostgresTablesView(recorder.recorder.datastore)
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
        after = None
        while True:
            stored = self.recorder.recorder.select_events(
                match_id, gt=after, lte=version - 1, limit=self.page
            )
            yield from self.decoder.decode_all(stored)
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
        notifications = self.recorder.recorder
        head = notifications.max_notification_id() or 0
        position = self.position()
        if self._cached_at is not None and self._cached_at != position:
            self.forget()  # the tables moved on without us: the cache is of an older position
        self._cached_at = position  # (an empty cache is right at any position)
        done, total = 0, max(0, head - position)
        while position < head:
            page = self._read(position, head)
            if not page:
                return done
            try:
                for stored in page:
                    self._fold_stored(stored)
                self.view.write(
                    self.projector.take(), Tracking(self.name, page[-1].id), since=position
                )
            except IntegrityError:
                # Another process moved the tables on meanwhile: what we folded may be stale,
                # so start again from its position with an empty cache.
                self.forget()
                position = self._cached_at = self.position()
                continue
            except BaseException:
                self.forget()
                raise
            position = self._cached_at = page[-1].id
            done += len(page)
            if progress:
                progress(done, max(total, done))
        return done

    def _read(self, position: int, head: int) -> Sequence[Row]:
        """The next page of notifications after `position`, up to `head`. On SQLite one plain
        query (the notification id is the rowid); the library's recorder builds an object per
        row and converts each id, which cost more than decoding the row."""
        recorder = self.recorder.recorder
        if not isinstance(recorder, SQLiteApplicationRecorder):
            return [
                Row(n.id, n.originator_id, n.originator_version, n.topic, n.state)
                for n in recorder.select_notifications(
                    start=position, limit=self.page, stop=head, inclusive_of_start=False
                )
            ]
        with recorder.datastore.transaction(commit=False) as c:
            c.execute(
                "SELECT rowid, originator_id, originator_version, topic, state "
                f"FROM {recorder.events_table_name} WHERE rowid > ? AND rowid <= ? "
                "ORDER BY rowid LIMIT ?",
                (position, head, self.page),
            )
            return [Row(*row) for row in c.fetchall()]

    def _fold_stored(self, stored: Row) -> None:
        """Fold one stored event; one that does not decode or replay quarantines its match
        (named with the audit's finding) and the catch-up goes on with every other match."""
        match_id = match_id_of(stored.originator_id)
        if match_id in self.projector.damaged:
            return
        try:
            event = self.decoder.decode(stored)
            if event is not None:
                self.projector.fold(event)
        except Exception as err:  # noqa: BLE001 - a damaged row fails in any way
            self.quarantine(match_id, stored.originator_version, err)

    def quarantine(self, match_id: UUID, version: int, error: BaseException) -> None:
        self.projector.quarantine(match_id, version, finding_of(self.recorder, match_id, error))

    def damaged(self) -> list[dict]:
        """The quarantined matches: match_id, event, finding (as the tables hold them)."""
        return self.view.select("damaged")

    def reset(self) -> None:
        """Drop the tables' rows and the position: the next catch-up projects every event."""
        self.view.reset(self.name)
        self.forget()


def catch_up(recorder: Recorder, progress: Progress | None = None) -> TablesProjection:
    """Bring the recorder's tables up to date and return the projection (to load or re-use)."""
    projection = TablesProjection(recorder)
    projection.catch_up(progress)
    return projection
