"""Copying an SQLite store whole, as a reader sees it: through SQLite's backup API.

A store is in WAL mode: its newest commits live in the `-wal` file beside it until a checkpoint
folds them into the main file, which SQLite does when the last connection closes. A file copy
of the main file alone (`shutil.copy`) misses whatever is still in the log, and how much that is
depends on when the writer's connections were closed (in a test, on garbage collection). The
backup API copies the database as one read sees it, the log included, and is safe while other
connections write.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path


def copy_store(source: str | os.PathLike, target: str | os.PathLike) -> None:
    """Copy the SQLite store at `source` to the new file `target` (a WAL-mode store, as
    `tablelog.store` makes them)."""
    source, target = Path(source), Path(target)
    if not source.is_file():  # sqlite3.connect would make an empty database there
        raise FileNotFoundError(f"no store at {source}")
    if target.exists():
        raise FileExistsError(f"{target} exists; a store is copied to a new file")
    with (
        contextlib.closing(sqlite3.connect(source)) as reading,
        contextlib.closing(sqlite3.connect(target)) as copy,
    ):
        reading.backup(copy)
        copy.execute("PRAGMA journal_mode=WAL")
