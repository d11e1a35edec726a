"""How the recorder reads a match: from its newest usable snapshot and the events after it, and
when it takes snapshots (the snapshots themselves: `domain.matches.snapshots`).

A mixin of `Recorder` (an eventsourcing Application with a snapshot store), kept apart so that
the recorder's module stays about recording.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import ApplicationRecorder, EventStore

from ..recording.eventsourcing_internals import CONNECTION_LOST, drop_snapshot
from .match import Match, MoveEntry, event_hash
from .snapshots import MatchSnapshot, attach, usable


class Snapshotting:
    """Reads and snapshots for a Match application (`events`, `snapshots` are the library's)."""

    # What the library's Application, the other base, provides.
    events: EventStore[UUID]
    snapshots: EventStore[UUID] | None
    recorder: ApplicationRecorder

    # A snapshots table beside the events (domain.matches.snapshots); snapshots are taken by
    # `snapshot_saved` below, not at the library's fixed versions.
    is_snapshotting_enabled = True
    # A save that takes a match past a multiple of `snapshot_every` events snapshots it (so a
    # read replays at most about this many events); a read that replayed `read_through` events
    # past its snapshot leaves a snapshot every `read_through` events behind it (for the next
    # read of any step of a match written in bulk). Measured in benchmarks/bench_long_match.py.
    snapshot_every = 100
    read_through = 1000

    def _replay(self, match_id: UUID, version: int | None) -> Match | None:
        """The match at `version` (None: now) from its newest usable snapshot at or before it
        and the events since; from all its events when there is none."""
        snapshot = self._snapshot(match_id, version)
        match = None if snapshot is None else self._from_snapshot(snapshot, version)
        if match is None:
            match = self._fold_reading(None, self.events.get(match_id, lte=version))
        return match

    def _snapshot(self, match_id: UUID, version: int | None) -> MatchSnapshot | None:
        if self.snapshots is None:
            return None
        try:
            found = [
                cast(MatchSnapshot, snapshot)
                for snapshot in self.snapshots.get(match_id, desc=True, limit=1, lte=version)
            ]
        except CONNECTION_LOST:  # not the snapshot's fault: the read fails as a whole
            raise
        except Exception:  # noqa: BLE001 - a snapshot row that does not decode is not used
            return None
        if found and not usable(found[0]):
            self._drop(found[0])
            return None
        return found[0] if found else None

    def _drop(self, snapshot: MatchSnapshot) -> None:
        """Delete a snapshot this code will not use (an older layout, or one taken by a bug),
        so that the next read may leave a good one in its place; a failure only costs speed."""
        assert self.snapshots is not None
        try:
            drop_snapshot(
                self.snapshots.recorder, snapshot.originator_id, snapshot.originator_version
            )
        except Exception:  # noqa: BLE001 - a read-only store, a lock: the read goes on without
            pass

    def _from_snapshot(self, snapshot: MatchSnapshot, version: int | None) -> Match | None:
        """The match from `snapshot` and the events after it, provided the event the snapshot
        was taken at is still stored and hashes as it did then (else None: replay it all)."""
        at = snapshot.originator_version
        events = iter(self.events.get(snapshot.originator_id, gt=at - 1, lte=version))
        sealed = next(events, None)
        if (
            sealed is None
            or sealed.originator_version != at
            or event_hash(sealed) != snapshot.state["head_hash"]
        ):
            return None
        try:
            match = snapshot.mutate(None)
        except Exception:  # noqa: BLE001 - a snapshot this code cannot restore: replay instead
            return None
        match_id = snapshot.originator_id
        if self.recorder.select_events(match_id, lte=Match.INITIAL_VERSION - 1, limit=1):
            # A row stored before the start: a full replay would fail on it, so this read must
            # too (the match is quarantined alike however it is read).
            raise ValueError("a row is stored before the match's start")
        attach(match, lambda: self._history(match_id, at))
        return self._fold_reading(match, events)

    def _history(self, match_id: UUID, version: int) -> tuple[list[object], list[MoveEntry]]:
        """Every state and effective move of the match at `version`, from all its events."""
        match = _fold(None, self.events.get(match_id, lte=version))
        assert match is not None  # only a match read before is ever attached
        return list(match.states), list(match.moves)

    def _fold_reading(self, match: Match | None, events: Iterable[Any]) -> Match | None:
        """Fold `events` into `match`; a long fold leaves a snapshot every `read_through` events
        behind it, so the next read of any step of this match replays little."""
        since = 0 if match is None else match.version
        taken, every = [], self.read_through
        for stored in events:
            match = stored.mutate(match)
            if match.version % every == 0 and match.version - since >= every:
                taken.append(_snapshot_of(match))
                since = match.version
        self._put_snapshots([s for s in taken if s is not None])
        return match

    def snapshot_saved(
        self, events: Sequence[DomainEventProtocol[UUID]], aggregates: dict[UUID, Match]
    ) -> None:
        """Snapshot each saved match whose version this save took past a multiple of
        `snapshot_every`: from the match in memory, which is the match as just recorded."""
        first: dict[UUID, int] = {}
        every = self.snapshot_every
        for stored in events:
            first.setdefault(stored.originator_id, stored.originator_version)
        taken = [
            _snapshot_of(match)
            for match_id, match in aggregates.items()
            if match_id in first and match.version // every > (first[match_id] - 1) // every
        ]
        self._put_snapshots([s for s in taken if s is not None])

    def _put_snapshots(self, snapshots: list[MatchSnapshot]) -> None:
        """Store snapshots, or not: they are a cache, and a failure to store one (another
        reader stored it first, a read-only store) must never fail the command."""
        if not snapshots or self.snapshots is None:
            return
        try:
            self.snapshots.put(snapshots)
        except Exception:  # noqa: BLE001 - after the commit: the entry is stored regardless
            pass


def _fold(match: Match | None, events: Iterable[Any]) -> Match | None:
    """The repository's replay without its per-event protocol check (measured: a third of a
    replay); our events are all Match events, which mutate."""
    for stored in events:
        match = stored.mutate(match)
    return match


def _snapshot_of(match: Match) -> MatchSnapshot | None:
    """A snapshot of `match`, or None: it is only a cache, and the events are stored already."""
    try:
        return MatchSnapshot.take(match)
    except Exception:  # noqa: BLE001 - whatever went wrong, the match reads from its events
        return None
