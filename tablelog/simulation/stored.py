"""Which of a simulation's matches a store already holds, so that running the same command again
plays and stores only the rest (`tablelog simulate`: a match's id is a function of the run's
arguments and its number, `tablelog.simulation.plan.match_id`).

A match is stored whole in one transaction or not at all, so its first event being there means
the whole match is. The ids are looked up a few hundred at a time, on the primary key
(originator_id, originator_version): 4 us an id on SQLite, under 30 us on PostgreSQL. Asked one
by one through the library's `select_events` they took 22 us and 320 us (measured, loaded
machine): over five minutes on PostgreSQL before a million-match run could start.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.sqlite import SQLiteApplicationRecorder

from tablelog.domain.matches.match import Match
from tablelog.domain.recording.recorder import Recorder

CHUNK = 500  # ids per query (SQLite allows 32,766 parameters; PostgreSQL takes an array)


def stored_among(recorder: Recorder, ids: Sequence[UUID]) -> set[UUID]:
    """Those of `ids` whose match is in the store."""
    events: Any = recorder.recorder  # SQLite's or PostgreSQL's: both name their table
    found: set[UUID] = set()
    with events.datastore.transaction(commit=False) as cursor:
        for start in range(0, len(ids), CHUNK):
            cursor.execute(*_query(events, ids[start : start + CHUNK]))
            found.update(UUID(str(row["originator_id"])) for row in cursor.fetchall())
    return found


def _query(events: Any, ids: Sequence[UUID]) -> tuple[str, tuple[object, ...]]:
    first = Match.INITIAL_VERSION
    if isinstance(events, SQLiteApplicationRecorder):  # ids spelled as the library stores them
        marks = ", ".join("?" * len(ids))
        return (
            f"SELECT originator_id FROM {events.events_table_name} "
            f"WHERE originator_version = ? AND originator_id IN ({marks})",
            (first, *(i.hex for i in ids)),
        )
    table = f'"{events.datastore.schema}"."{events.events_table_name}"'
    return (
        f"SELECT originator_id FROM {table} WHERE originator_version = %s "
        "AND originator_id = ANY(%s)",
        (first, list(ids)),
    )
