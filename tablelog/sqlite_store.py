"""eventsourcing's SQLite persistence, with WAL commits that skip the per-commit fsync and
batched inserts.

The library opens the file in WAL mode with SQLite's default `synchronous=FULL`, which costs an
fsync on every commit (3-12 ms on this project's machines: the whole budget of a move at the
table). `synchronous=NORMAL` is SQLite's recommended setting for WAL: a commit survives the
application crashing; only an operating-system crash or power cut can lose the last commits, and
it never corrupts the file. Set TABLELOG_SQLITE_SYNC=FULL to pay for the stronger guarantee.
"""

from __future__ import annotations

import os
from uuid import UUID

from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteFactory,
)


class _Pool(SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        if not self.is_sqlite_memory_mode:
            sync = os.environ.get("TABLELOG_SQLITE_SYNC", "NORMAL").upper()
            if sync not in ("NORMAL", "FULL", "EXTRA"):
                sync = "NORMAL"
            connection._sqlite_conn.execute(f"PRAGMA synchronous={sync}")
        return connection


class _ApplicationRecorder(SQLiteApplicationRecorder):
    """Inserts a save's rows with one executemany (the library executes row by row), and
    returns no notification ids: nothing in Tablelog follows the application in-process
    (projections poll the notification log), so the library need not build a Notification
    object per stored event."""

    def _insert_events(self, c, stored_events, **_):
        rows, last_id, spelled = [], None, ""
        for s in stored_events:
            if s.originator_id is not last_id:  # a match's events share one id: spell it once
                last_id, spelled = s.originator_id, _spelled(s.originator_id)
            rows.append((spelled, s.originator_version, s.topic, s.state))
        c.executemany(self.insert_events_statement, rows)


def _spelled(originator_id: object) -> str:
    """How the library's SQLite recorder spells an id in the originator_id column."""
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id)


class Factory(SQLiteFactory):
    application_recorder_class = _ApplicationRecorder

    def __init__(self, env):
        super().__init__(env)
        pool = self.datastore.pool  # not connected yet: swap it for one that sets the pragma
        self.datastore.pool = _Pool(db_name=pool.db_name, lock_timeout=pool.lock_timeout)

