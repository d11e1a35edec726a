"""What the simulation tests share: running the command, reading a store back as records."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from typing import Any

from tablelog.domain.matches.match import event_hash
from tablelog.store import open_recorder


def run(store: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "TABLELOG_STORE": store}
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args, "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def exports(store: str) -> list[dict[str, Any]]:
    """Every match of the store as a record, in the order the matches were stored."""
    recorder = open_recorder(store)
    try:
        return [recorder.export(started.originator_id) for started in recorder.started()]
    finally:
        recorder.close()


def without_ids_and_times(record: dict[str, Any]) -> dict[str, Any]:
    """A record as far as two runs of the same simulation must agree: all but ids and clocks
    (and the hashes, which are taken over both)."""
    kept = {key: value for key, value in record.items() if key not in ("id", "started_at", "hash")}
    kept["events"] = [
        {k: v for k, v in entry.items() if k not in ("at", "hash")} for entry in record["events"]
    ]
    return kept


def chain_is_whole(events: list[Any]) -> bool:
    """Every stored event names the hash of the one before it (the first names none)."""
    previous = ""
    for event in events:
        if event.prev_hash != previous:
            return False
        previous = event_hash(event)
    return True


def started_in(location: str) -> int:
    """Matches begun in a store, read straight from its table (0 while it is not made yet):
    what a test polls while a simulation runs in another process."""
    import sqlite3

    from tablelog.store import is_postgres

    query = "SELECT count(*) FROM {} WHERE topic LIKE '%Started'"
    if is_postgres(location):
        import psycopg

        with psycopg.connect(location) as db:
            try:
                row = db.execute(query.format("tablelog_events")).fetchone()
            except psycopg.errors.UndefinedTable:
                return 0
            return row[0] if row else 0
    if not os.path.exists(location) or not os.path.getsize(location):
        return 0
    try:
        with contextlib.closing(sqlite3.connect(location, timeout=10)) as file:
            (count,) = file.execute(query.format("stored_events")).fetchone()
            return count
    except sqlite3.OperationalError:  # its tables are not made yet
        return 0
