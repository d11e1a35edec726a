"""The recording application: get the match, act on it, save its new events.

Every write is one `save()` of the events one command produced, so it is atomic: either all of a
command's events are stored or none. Optimistic concurrency comes from the store's unique
(match, position) key: a writer that lost the race gets `Conflict` and must reload.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from functools import cached_property
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError, JSONTranscoder, Mapper
from eventsourcing.utils import get_topic

from tablelog.domain.commands import described

from .. import legacy_topic
from ..errors import BadRecord, Conflict, Damaged, MatchNotFound, Refused
from ..matches.match import Match, event_hash, start_match
from ..matches.records import to_record
from ..matches.rulings import PersonSigner
from ..matches.snapshot_reads import Snapshotting
from ..matches.transcoding import LeanMapper, LeanTranscoder
from .eventsourcing_internals import CONNECTION_LOST, LeanApplication
from .quarantine import damaged
from .users import Users

# Started events stored by release 0.1 carry the topic of the package's old top-level name.
STARTED_TOPICS = [get_topic(Match.Started), legacy_topic(get_topic(Match.Started))]
PAGE = 1000
BULK = 1000  # events in one save from which the save counts as bulk


# What a failed read says of itself: a refusal, or a store that stopped answering (no row was
# found damaged, so nothing is quarantined).
NOT_DAMAGE: tuple[type[Exception], ...] = (Refused, *CONNECTION_LOST)


class Recorder(Snapshotting, LeanApplication):
    """The match recorder over an eventsourcing store (SQLite file or PostgreSQL); it reads a
    match from its newest snapshot and the events after it (`Snapshotting`)."""

    name = "tablelog"
    _damage_watchers: tuple[Callable[[Damaged], None], ...] = ()

    @cached_property
    def people(self) -> Users:
        """The people of this store (`domain.recording.users`), made once per recorder: their handle
        keeps what it learnt of the store's tables."""
        return Users(self)

    def construct_transcoder(self) -> LeanTranscoder:
        fallback = super().construct_transcoder()
        assert isinstance(fallback, JSONTranscoder)  # the library's, with its transcodings
        return LeanTranscoder(fallback=fallback)

    def construct_mapper(self) -> Mapper[UUID]:
        return LeanMapper(transcoder=self.construct_transcoder())

    # ---- damage ------------------------------------------------------------------------------

    def watch_damage(self, watcher: Callable[[Damaged], None]) -> None:
        """Have `watcher` told of every match this recorder finds damaged, or is told of
        (`found_damaged`): the read side's quarantine (`projections.queries`), which marks it in
        the projection tables, so whoever finds it first takes it out of every list."""
        self._damage_watchers = (*self._damage_watchers, watcher)

    def found_damaged(self, error: Damaged) -> Damaged:
        """Tell the watchers of a damaged match (a read here, or the audit, found it); the
        error, to raise."""
        for watcher in self._damage_watchers:
            try:
                watcher(error)
            except Exception:  # noqa: BLE001 - the refusal stands whatever becomes of the mark;
                pass  # the next reader to meet the match, or `project --rebuild`, marks it
        return error

    # ---- get, act, save ---------------------------------------------------------------------

    def get(self, match_id: UUID | str, step: int | None = None) -> Match:
        """The match now, or as it was after `step` events following its start (0 = start)."""
        match_id = _as_uuid(match_id)
        version = None if step is None else step + Match.INITIAL_VERSION
        if step is not None and step < 0:
            raise Refused(f"step must be 0 or more, got {step}")
        try:
            match = self._replay(match_id, version)
        except NOT_DAMAGE:
            raise
        except Exception as err:  # noqa: BLE001 - a damaged row fails in any way: quarantine
            raise self.found_damaged(damaged(self, match_id, err)) from None
        if match is None:
            raise MatchNotFound(f"no match {match_id} in this store")
        if version is not None and match.version < version:
            raise Refused(f"the match has only {match.version - 1} steps, not {step}")
        return match

    def _act(
        self,
        match_id: UUID | str,
        action: Callable[[Match], None],
        expected_version: int | None = None,
    ) -> Match:
        match = self.current(match_id, expected_version)
        action(match)
        self._save(match)
        return match

    # `save` is LeanApplication's: the library's, less its per-aggregate checks.

    def saving(self, events: int) -> AbstractContextManager[None]:
        return cycle_collector_paused(events >= BULK)

    def _save(self, *matches: Match) -> None:
        try:
            self.save(*matches)
        except IntegrityError:
            # The pending events are gone with the failed save: callers must get() again.
            raise Conflict(
                "the match changed while this entry was being recorded (another "
                "writer got there first); reload it and enter the move again"
            ) from None

    # ---- commands ---------------------------------------------------------------------------

    @described("start")
    def start(
        self,
        game: str,
        seats: list[str],
        options: object = None,
        setup: object = None,
        *,
        components: object = None,
        played_at: datetime | str | None = None,
    ) -> UUID:
        """`components` is a manifest handed over whole ({"name", "content"}), `played_at` when
        a game logged afterwards was played (see `start_match`); its id."""
        match = start_match(
            uuid4(), game, seats, options, setup, components=components, played_at=played_at
        )
        self._save(match)
        return match.id

    @described("start_sheet")
    def start_sheet(
        self,
        game: str,
        seats: list[str],
        sheet: object,
        options: object = None,
        *,
        played_at: datetime | str | None = None,
    ) -> UUID:
        """Its start and its sheet in one save; its id."""
        from ..matches.sheet_matches import sheet_match

        match = sheet_match(uuid4(), game, seats, sheet, options, played_at=played_at)
        self._save(match)
        return match.id

    # Every command takes `expected_version`: the match version the entry was made against.
    # A match that moved on meanwhile is then a Conflict, not an entry on another board.

    @described("record")
    def record(
        self,
        match_id: UUID | str,
        seat: str | int,
        move: object,
        expected_version: int | None = None,
    ) -> Match:
        return self._act(match_id, lambda m: m.record(seat, move), expected_version)

    @described("undo")
    def undo(
        self, match_id: UUID | str, by: str, reason: str, expected_version: int | None = None
    ) -> Match:
        return self._act(match_id, lambda m: m.undo(by, reason), expected_version)

    @described("claim")
    def claim(
        self, match_id: UUID | str, by: str, scores: object, expected_version: int | None = None
    ) -> Match:
        return self._act(match_id, lambda m: m.claim(by, scores), expected_version)

    @described("dispute")
    def dispute(
        self, match_id: UUID | str, by: str, about: str, expected_version: int | None = None
    ) -> Match:
        return self._act(match_id, lambda m: m.dispute(by, about), expected_version)

    @described("resolve")
    def resolve(
        self,
        match_id: UUID | str,
        by: str,
        ruling: str,
        expected_version: int | None = None,
        signer: PersonSigner | None = None,
    ) -> Match:
        """With `signer` (a `rulings.PersonSigner`), signed with that person's key."""
        return self._act(match_id, lambda m: m.resolve(by, ruling, signer), expected_version)

    @described("end")
    def end(
        self, match_id: UUID | str, agreed_draw: bool = False, expected_version: int | None = None
    ) -> Match:
        return self._act(match_id, lambda m: m.end(agreed_draw), expected_version)

    @described("abandon")
    def abandon(
        self, match_id: UUID | str, by: str, reason: str, expected_version: int | None = None
    ) -> Match:
        return self._act(match_id, lambda m: m.abandon(by, reason), expected_version)

    def save_new(self, matches: Sequence[Match]) -> None:
        """Store whole new matches (imported or simulated) in one transaction."""
        for match in matches:
            if self._exists(match.id):
                raise BadRecord(f"match {match.id} is already in this store")
        self._save(*matches)

    def save_imported(self, numbered: Sequence[tuple[int, Match]]) -> tuple[int, int]:
        """Store an import's matches (each with the line of its record) in one transaction, so a
        file is stored whole or not at all. A match already stored with exactly these events is
        skipped, so an import that was cut short can simply be run again; one stored with other
        events is refused, naming its line. Returns (stored, skipped)."""
        new: list[Match] = []
        for line, match in numbered:
            stored = self.recorder.select_events(match.id, limit=None)
            if not stored:
                new.append(match)
                continue
            ours = [event_hash(event) for event in match.pending_events]
            theirs = [event_hash(self.mapper.to_domain_event(row)) for row in stored]
            if ours != theirs:
                raise BadRecord(
                    f"line {line}: match {match.id} is already in this store with "
                    f"other events ({len(theirs)} stored, {len(ours)} in the record"
                    "); nothing was imported"
                )
        self._save(*new)
        return len(new), len(numbered) - len(new)

    # ---- reading ----------------------------------------------------------------------------

    def _exists(self, match_id: UUID) -> bool:
        return bool(self.recorder.select_events(_as_uuid(match_id), limit=1))

    def stored_events(
        self, match_id: UUID | str, gt: int | None = None, lte: int | None = None
    ) -> list[Any]:
        """The match's stored events (those with versions in (gt, lte] when given: a long
        match's page of them)."""
        match_id = _as_uuid(match_id)  # text that is no match id is MatchNotFound, as in `get`
        try:
            events = list(self.events.get(match_id, gt=gt, lte=lte))
        except CONNECTION_LOST:
            raise
        except Exception as err:  # noqa: BLE001 - a row that no longer decodes: quarantine
            raise self.found_damaged(damaged(self, match_id, err)) from None
        if not events:
            raise MatchNotFound(f"no match {match_id} in this store")
        return events

    def export(self, match_id: UUID | str) -> dict[str, Any]:
        match_id = _as_uuid(match_id)
        events = self.stored_events(match_id)
        try:
            if [e.originator_version for e in events] != list(range(1, len(events) + 1)):
                raise ValueError("its events are not numbered 1, 2, 3...")
            return to_record(events)
        except Refused:
            raise
        except Exception as err:  # noqa: BLE001 - a start or an event that lost its fields
            raise self.found_damaged(damaged(self, match_id, err)) from None

    def started(self, game: str | None = None) -> Iterator[Any]:
        """Every match's Started event in the order matches began (the notification log)."""
        position: int | None = None
        while True:
            page = self.recorder.select_notifications(
                start=position, limit=PAGE, topics=STARTED_TOPICS, inclusive_of_start=False
            )
            for notification in page:
                try:
                    started = self.mapper.to_domain_event(notification)
                except Exception:  # noqa: BLE001 - a damaged start: `match_ids` still lists it
                    continue
                if game is None or getattr(started, "game", None) == game:
                    yield started
            if len(page) < PAGE:
                return
            position = page[-1].id

    def match_ids(self) -> list[UUID]:
        """Every match with at least one stored row, in the order they were first stored: from
        the raw notification log, so a match whose start row is damaged is listed too."""
        seen: dict[UUID, None] = {}
        position: int | None = None
        while True:
            page = self.recorder.select_notifications(
                start=position, limit=PAGE, inclusive_of_start=False
            )
            seen.update((_as_uuid(n.originator_id), None) for n in page)
            if len(page) < PAGE:
                return list(seen)
            position = page[-1].id

    # ---- public reads the front ends use (the query service, projections/queries.py, finds
    # a match by id prefix, lists them and reports on them) ----------------------------------

    def exists(self, match_id: UUID | str) -> bool:
        """Whether the store holds any row of the match (MatchNotFound for text that is not a
        match id)."""
        return self._exists(_as_uuid(match_id))

    def version(self, match_id: UUID | str) -> int:
        """The match's version now, read from its last stored event only (nothing replayed):
        what a page polls to notice another device's entry."""
        last = self.recorder.select_events(_as_uuid(match_id), desc=True, limit=1)
        if not last:
            raise MatchNotFound(f"no match {match_id} in this store")
        return last[0].originator_version

    def current(self, match_id: UUID | str, expected_version: int | None = None) -> Match:
        """The match now; with `expected_version`, Conflict when it has moved on since the
        entry was made against that version (`check_version`)."""
        return check_version(self.get(_as_uuid(match_id)), expected_version)


def check_version(match: Match, expected_version: int | None) -> Match:
    """The one stale-version check: `match`, or Conflict when it is no longer at the version an
    entry was made against (None: any version)."""
    if expected_version is not None and match.version != expected_version:
        raise Conflict(
            f"the match is at version {match.version}, not {expected_version} as "
            "this entry expected (another writer got there first); reload it"
        )
    return match


@contextmanager
def cycle_collector_paused(pause: bool = True) -> Iterator[None]:
    """Pause the cycle collector for work that allocates much and makes no reference cycle: a
    bulk save (a stored row per event) or a projection page (a dict or two per event). The
    allocations set off the collector, which then walks every object the process holds (an
    importer's or simulator's batch of matches, every match the projector keeps: measured, a
    tenth of saving 3,000 matches, half of decoding a page). The collector is process-wide, so
    only such work pauses it, only if it was running, and it runs again afterwards whatever
    happens."""
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _as_uuid(match_id: UUID | str) -> UUID:
    """Ids arrive as UUIDs or text; the SQLite store compares its own spelling, so normalise."""
    if isinstance(match_id, UUID):
        return match_id
    try:
        return UUID(str(match_id))
    except ValueError:
        raise MatchNotFound(f"{match_id!r} is not a match id") from None
