"""What a forger with write access to the store does, on SQLite and on PostgreSQL alike: edit,
delete, swap or insert event rows, and rewrite a match re-chaining every later event."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import contextmanager
from uuid import UUID

from tablelog.domain.matches.records import from_record
from tablelog.store import is_postgres


@contextmanager
def _db(location: str):
    if is_postgres(location):
        import psycopg

        with psycopg.connect(location) as db:
            yield db, "tablelog_events", "%s"
    else:
        with sqlite3.connect(location) as db:
            yield db, "stored_events", "?"


def _id(location: str, match_id: UUID):
    return match_id if is_postgres(location) else match_id.hex


def _run(location: str, sql: str, params: list) -> list:
    with _db(location) as (db, table, p):
        rows = (
            db.execute(sql.format(table=table).replace("?", p), params).fetchall()
            if sql.lstrip().startswith("SELECT")
            else db.execute(sql.format(table=table).replace("?", p), params)
        )
        return rows if isinstance(rows, list) else []


def rows(location: str, match_id: UUID) -> dict[int, bytes]:
    return {
        v: bytes(s)
        for v, s in _run(
            location,
            "SELECT originator_version, state FROM {table} WHERE originator_id = ? "
            "ORDER BY originator_version",
            [_id(location, match_id)],
        )
    }


def update_state(
    location: str, match_id: UUID, position: int, state: bytes, topic: str | None = None
) -> None:
    _run(
        location,
        "UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
        [state, _id(location, match_id), position],
    )
    if topic is not None:
        _run(
            location,
            "UPDATE {table} SET topic = ? WHERE originator_id = ? AND originator_version = ?",
            [topic, _id(location, match_id), position],
        )


def delete(location: str, match_id: UUID, position: int) -> None:
    _run(
        location,
        "DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?",
        [_id(location, match_id), position],
    )


def swap_states(location: str, match_id: UUID, first: int, second: int) -> None:
    states = rows(location, match_id)
    update_state(location, match_id, first, states[second])
    update_state(location, match_id, second, states[first])


def insert_copy(location: str, match_id: UUID, position: int, copy_of: int) -> None:
    """Make room at `position` (later rows move up one) and put a copy of a row there."""
    key = _id(location, match_id)
    topic, state = _run(
        location,
        "SELECT topic, state FROM {table} WHERE originator_id = ? AND originator_version = ?",
        [key, copy_of],
    )[0]
    later = [
        v
        for (v,) in _run(
            location,
            "SELECT originator_version FROM {table} WHERE "
            "originator_id = ? AND originator_version >= ? ORDER BY "
            "originator_version DESC",
            [key, position],
        )
    ]
    for version in later:
        _run(
            location,
            "UPDATE {table} SET originator_version = ? WHERE originator_id = ? AND "
            "originator_version = ?",
            [version + 1, key, version],
        )
    _run(
        location,
        "INSERT INTO {table} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
        [key, position, topic, bytes(state)],
    )


def rechain(
    recorder, location: str, match_id: UUID, change: Callable[[dict], None], since: int
) -> None:
    """Rewrite the match as `change` edits its record, recomputing every hash, and store the
    events from `since` on in place: a chain with no broken link."""
    record = recorder.export(match_id)
    record.pop("receipt", None)
    for entry in [record, *record["events"]]:
        entry.pop("hash", None)
    change(record)
    forged = from_record(record)
    for event in forged.pending_events[since - 1 :]:
        stored = recorder.mapper.to_stored_event(event)
        update_state(location, match_id, event.originator_version, stored.state, stored.topic)


def wipe_checkpoints(location: str) -> None:
    """What a key holder rewriting history does first: drop the signed leaves and heads (the
    trusted keys stay), so the recorder signs the rewritten log afresh."""
    _run(location, "DELETE FROM tablelog_leaves", [])
    _run(location, "DELETE FROM tablelog_checkpoints", [])
    _run(location, "DELETE FROM tablelog_nodes", [])


def sql(location: str, statement: str, params: list | None = None) -> list:
    """Any statement on the store (the checkpoint tables are the same on both)."""
    return _run(location, statement, params or [])
