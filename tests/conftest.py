"""Fixtures shared by the store-level tests: a real SQLite file per test."""

from __future__ import annotations

import sqlite3

import pytest

from tablelog.store import open_recorder


@pytest.fixture
def store(tmp_path):
    """The path of a fresh SQLite store file (created on first use)."""
    return str(tmp_path / "store.sqlite")


@pytest.fixture
def recorder(store):
    return open_recorder(store)


def stored_rows(path: str) -> list[tuple]:
    """Every stored event row, straight from the SQLite file (to prove nothing changed)."""
    with sqlite3.connect(path) as db:
        try:
            return db.execute("SELECT rowid, * FROM stored_events ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:  # no table yet: nothing was ever stored
            return []
