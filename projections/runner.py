"""Bringing the tables up to date: read the notification log from the tracked position, page by
page, fold each page and write its rows with the new position in one transaction.

On SQLite the library's ProjectionRunner cannot subscribe (the SQLite recorder has no
subscriptions), so `TablesProjection.catch_up` polls `select_notifications` instead; a restart
resumes from the position in the `tracking` table. Notifications are decoded with the
application's transcoder straight into plain fields (the projector needs no event objects), which
keeps the per-event cost to one JSON decode plus the rules' own work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import resolve_topic

from domain.match import Match
from domain.recorder import Recorder

from .projector import Event, Projector
from .view import SQLiteTablesView, TablesView

PAGE = 5000
Progress = Callable[[int, int], None]
"""Called after each page with (events processed so far, events to process in all)."""


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

    def decode(self, stored: StoredEvent) -> Event | None:
        kind = self.kind(stored.topic)
        if kind is None:
            return None
        if kind.startswith("~") or not self.plain:
            data = dict(vars(self.mapper.to_domain_event(stored)))
            kind = kind.lstrip("~")
        else:
            data = self.transcoder.decode(stored.state)
        originator_id = stored.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(originator_id)
        return Event(originator_id, stored.originator_version, kind, data)

    def decode_all(self, stored: Iterable[StoredEvent]) -> list[Event]:
        return [e for e in map(self.decode, stored) if e is not None]


def open_view(recorder: Recorder) -> TablesView:
    """The tables beside the recorder's events (created on first use)."""
    if isinstance(recorder.recorder, SQLiteApplicationRecorder):
        view = SQLiteTablesView(recorder.recorder.datastore)
        view.create_table()
        return view
    raise NotImplementedError(
        "projection tables are implemented on SQLite stores only so far (PostgreSQL: see "
        "docs/projections.md)")


class TablesProjection:
    """The projection of one recorder's store: its view, its position, and a projector whose
    cache lives as long as this object (so a long-running reader pays O(1) per new event)."""

    def __init__(self, recorder: Recorder, view: TablesView | None = None,
                 page: int = PAGE, capacity: int = 4096) -> None:
        self.recorder = recorder
        self.view = view or open_view(recorder)
        self.page = page
        self.capacity = capacity
        self.decoder = Decoder(recorder)
        self.projector = self._new_projector()

    def _new_projector(self) -> Projector:
        return Projector(self._history, self.view, self.capacity)

    def _history(self, match_id: UUID, version: int) -> Sequence[Event]:
        stored = self.recorder.recorder.select_events(match_id, lte=version - 1)
        return self.decoder.decode_all(stored)

    @property
    def name(self) -> str:
        return self.recorder.name

    def position(self) -> int:
        return self.view.max_tracking_id(self.name) or 0

    def behind(self) -> int:
        """How many notifications the tables have not processed yet."""
        return max(0, (self.recorder.recorder.max_notification_id() or 0) - self.position())

    def catch_up(self, progress: Progress | None = None) -> int:
        """Process every notification after the tracked position; return how many."""
        done, total = 0, self.behind()
        position = self.position()
        notifications = self.recorder.recorder
        while True:
            page = notifications.select_notifications(
                start=position, limit=self.page, inclusive_of_start=False)
            if not page:
                return done
            try:
                for stored in page:
                    event = self.decoder.decode(stored)
                    if event is not None:
                        self.projector.fold(event)
                self.view.write(self.projector.take(), Tracking(self.name, page[-1].id))
            except IntegrityError:
                # Another process wrote this page first: what we folded may be stale, so start
                # again from its position with an empty cache.
                self.projector = self._new_projector()
                position = self.position()
                continue
            except BaseException:
                self.projector = self._new_projector()  # its cache is ahead of the tables
                raise
            position = page[-1].id
            done += len(page)
            if progress:
                progress(done, max(total, done))

    def reset(self) -> None:
        """Drop the tables' rows and the position: the next catch-up projects every event."""
        self.view.reset(self.name)
        self.projector = self._new_projector()


def catch_up(recorder: Recorder, progress: Progress | None = None) -> TablesProjection:
    """Bring the recorder's tables up to date and return the projection (to load or re-use)."""
    projection = TablesProjection(recorder)
    projection.catch_up(progress)
    return projection
