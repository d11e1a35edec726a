"""The projection tables on PostgreSQL, kept up to date by eventsourcing's ProjectionRunner.

- `PostgresTablesView` (`projections.pg_view`, named here too): the tables of
  `projections.tables` in the store's database, on the library's `PostgresTrackingRecorder`.
- `LiveTables`: a library `Projection`: `process_event` feeds the same projector as the polling
  catch-up, and writes a batch of events' rows with its position in one transaction.
- `follow(recorder)`: the library's `ProjectionRunner` driving `LiveTables`: it resumes from the
  tracked position, processes what is stored, then each new event as it is stored (the
  PostgreSQL recorder's subscription is LISTEN/NOTIFY), until stopped.

Every process that reads the tables (dashboards, `tablelog stats`, the HTTP API) keeps the same
one set of tables and position. Writes take turns under an advisory lock, and a batch is only
written on top of the position it was folded from (`TablesView.write(..., since=)`), so two
dashboards catching up at once never count an event twice nor mix stale figures in: the one that
comes second drops its batch and catches up from the other's position.
"""

from __future__ import annotations

import dataclasses
import threading
from types import TracebackType
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent, Tracking
from eventsourcing.projection import Projection, ProjectionRunner

from tablelog.domain.matches.match import Match
from tablelog.domain.matches.transcoding import LeanMapper
from tablelog.domain.recording.recorder import Recorder

from .pg_view import (  # named here too: its importers know them as projections.postgres's
    NAME,
    PostgresTablesView,
)
from .pg_view import is_postgres as is_postgres
from .projector import Event
from .runner import TablesProjection, open_view


class LiveTables(Projection[PostgresTablesView]):
    """The tables as a library projection: each event is folded as the runner delivers it, and
    the rows are written with the position once per `batch` events, or as soon as the event in
    hand is the newest stored (so a new move shows at once, and catching up over a large store
    costs one transaction per batch, not per event)."""

    name = NAME
    batch = 1000

    def __init__(self, view: PostgresTablesView) -> None:
        super().__init__(view)
        self._attached = threading.Event()
        self.tables: TablesProjection
        self.position = 0  # what the tables hold: events up to here are skipped
        self._newest = 0  # the newest stored event last seen
        self._held: Tracking | None = None  # the last event folded but not written
        self._count = 0

    def attach(self, recorder: Recorder) -> None:
        """Give the projection the application the runner subscribed to: a match missing from
        the projector's cache is rebuilt from its earlier events there."""
        self.tables = TablesProjection(recorder, self.view)
        self.position = self.tables.position()
        self._attached.set()

    def process_event(self, domain_event: object, tracking: Tracking) -> None:
        self._attached.wait()  # the runner delivers from its own thread as soon as it starts
        if tracking.notification_id <= self.position:  # another process projected it already
            return
        if isinstance(domain_event, Unreadable):
            match_id = domain_event.originator_id
            if not isinstance(match_id, UUID):
                match_id = UUID(str(match_id))
            if match_id not in self.tables.projector.damaged:
                self.tables.quarantine(
                    match_id, domain_event.originator_version, domain_event.error
                )
        elif isinstance(domain_event, Match.Event):
            try:
                self.tables.projector.fold(
                    Event(
                        domain_event.originator_id,
                        domain_event.originator_version,
                        type(domain_event).__name__,
                        vars(domain_event),
                    )
                )
            except Exception as err:  # noqa: BLE001 - quarantine the match, follow the rest
                self.tables.quarantine(
                    domain_event.originator_id, domain_event.originator_version, err
                )
        self._held = tracking
        self._count += 1
        if self._count >= self.batch or self._is_newest(tracking.notification_id):
            self.flush()

    def _is_newest(self, notification_id: int) -> bool:
        if notification_id >= self._newest:  # one query when the known newest is reached
            self._newest = self.tables.recorder.recorder.max_notification_id() or 0
        return notification_id >= self._newest

    def flush(self) -> None:
        """Write what was folded since the last write, with its position."""
        if self._held is None:
            return
        held, self._held, self._count = self._held, None, 0
        try:
            self.view.write(self.tables.projector.take(), held, since=self.position)
        except IntegrityError:
            if self.tables.position() == held.notification_id:
                # Another dashboard wrote these very events first (the usual case when several
                # follow one store): the matches cached are right; the ratings read may not be.
                self.tables.forget_ratings()
                self.position = held.notification_id
            else:
                # It is elsewhere in the log: start again from its position with an empty
                # cache, reading the log (which covers the events of the dropped batch too);
                # the runner's later events up to where that cache stands are skipped. Not up
                # to where the tables are now: another process may have moved them on since,
                # and skipping its events would leave them out of the cache (a sound match
                # would look damaged). They fold again; the next write sorts it out here.
                self.tables.forget()
                self.tables.catch_up()
                self.position = self.tables.cached_at or 0
        except BaseException:
            self.tables.forget()  # its cache is ahead of the tables
            raise
        else:
            self.position = held.notification_id


@dataclasses.dataclass(frozen=True)
class Unreadable:
    """What the runner hands on for a stored row that does not decode (a damaged match)."""

    originator_id: UUID | str
    originator_version: int
    error: Exception


class _TolerantMapper(LeanMapper):
    """The recorder's mapper, but a row that does not decode becomes an `Unreadable` rather
    than an error that would stop the library's runner (and the tables with it, for every
    match): `LiveTables` quarantines its match and follows the rest."""

    def to_domain_event(self, stored: StoredEvent) -> Any:  # or an Unreadable
        try:
            return super().to_domain_event(stored)
        except Exception as err:  # noqa: BLE001 - a damaged row fails in any way
            return Unreadable(stored.originator_id, stored.originator_version, err)


class FollowingRecorder(Recorder):
    """The application the runner reads through (same store, same name, tolerant mapper)."""

    name = Recorder.name

    def construct_mapper(self) -> Mapper[UUID]:
        return _TolerantMapper(transcoder=self.construct_transcoder())


class TablesRunner(ProjectionRunner[Recorder, PostgresTablesView]):
    """eventsourcing's ProjectionRunner over a Tablelog store, driving `LiveTables`."""

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__(
            application_class=FollowingRecorder,
            projection_class=LiveTables,
            view_class=PostgresTablesView,
            env=env,
        )
        assert isinstance(self.projection, LiveTables)  # projection_class above
        self.projection.attach(self.app)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        try:
            super().__exit__(exc_type, exc_val, exc_tb)
        finally:
            self.view.datastore.close()  # the runner closes its application, not the view


def follow(recorder: Recorder) -> TablesRunner:
    """Start the library's runner on the recorder's PostgreSQL database; use it as a context
    manager (`with follow(recorder) as runner: runner.run_forever()`), which stops it."""
    open_view(recorder)  # the tables exist before the runner's connections look for them
    env = {**recorder.env, "CREATE_TABLE": "no", "POSTGRES_POOL_SIZE": "2"}
    return TablesRunner(env)
