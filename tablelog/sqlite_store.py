"""eventsourcing's SQLite persistence, with WAL commits that skip the per-commit fsync and
batched inserts (both hooks into the library live in `domain.recording.eventsourcing_internals`).

The library opens the file in WAL mode with SQLite's default `synchronous=FULL`, which costs an
fsync on every commit (3-12 ms on this project's machines: the whole budget of a move at the
table). `synchronous=NORMAL` is SQLite's recommended setting for WAL: a commit survives the
application crashing; only an operating-system crash or power cut can lose the last commits, and
it never corrupts the file. Set TABLELOG_SQLITE_SYNC=FULL to pay for the stronger guarantee.
"""

from __future__ import annotations

import os
import sqlite3

from eventsourcing.sqlite import SQLiteFactory
from eventsourcing.utils import Environment, EnvType

from tablelog.domain.recording.eventsourcing_internals import (
    BatchedSQLiteApplicationRecorder,
    ConfiguredSQLitePool,
    replace_pool,
)


class _Pool(ConfiguredSQLitePool):
    def configure(self, db: sqlite3.Connection) -> None:
        if not self.is_sqlite_memory_mode:
            sync = os.environ.get("TABLELOG_SQLITE_SYNC", "NORMAL").upper()
            if sync not in ("NORMAL", "FULL", "EXTRA"):
                sync = "NORMAL"
            db.execute(f"PRAGMA synchronous={sync}")


class Factory(SQLiteFactory):
    application_recorder_class = BatchedSQLiteApplicationRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        replace_pool(self.datastore, _Pool)  # not connected yet: one that sets the pragma
