"""Where the projection tables live: a small interface, and its SQLite implementation.

A view is a tracking recorder (eventsourcing's `TrackingRecorder`: the position in the
notification log lives in the library's `tracking` table) that also holds the tables of
`projections.tables`, and writes a batch of rows together with the new position in ONE
transaction, so the tables never show events the position has not counted, nor the reverse.
Rows are upserts keyed by each table's key, so writing the same row twice changes nothing.

The SQL is portable where it is cheap (`INSERT ... ON CONFLICT (key) DO UPDATE`, the same in SQLite
and PostgreSQL); only the placeholders and the column types differ. A PostgreSQL view is the same
shape over `eventsourcing.postgres.PostgresTrackingRecorder`, driven by the library's
ProjectionRunner (see docs/projections.md).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore, SQLiteTrackingRecorder

from .tables import PREFIX, SCHEMA_VERSION, TABLES, Table

Rows = Mapping[str, Iterable[Mapping[str, Any]]]
"""Rows to upsert, by table name (`tables.TABLES` keys); each row a dict of every column."""

SCHEMA_TABLE = PREFIX + "schema"


class TablesView(TrackingRecorder, abc.ABC):
    """What the projector needs of a store for its tables."""

    @abc.abstractmethod
    def write(self, rows: Rows, tracking: Tracking) -> None:
        """Upsert `rows` and record `tracking`, atomically."""

    @abc.abstractmethod
    def select(self, table: str, where: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every row of a table (or those whose columns equal `where`), as stored."""

    @abc.abstractmethod
    def latest_rating(self, game: str, player: str) -> dict[str, Any] | None:
        """The player's most recent `ratings` row in that game, or None."""

    @abc.abstractmethod
    def reset(self, application_name: str) -> None:
        """Drop every table row and the position, so the next run rebuilds from the start."""


def upsert_statement(table: Table, placeholder: str) -> str:
    columns = ", ".join(table.names)
    values = ", ".join(placeholder for _ in table.names)
    updates = ", ".join(f"{c} = excluded.{c}" for c in table.names if c not in table.key)
    return (f"INSERT INTO {table.sql_name} ({columns}) VALUES ({values}) "
            f"ON CONFLICT ({', '.join(table.key)}) DO UPDATE SET {updates}")


def create_statement(table: Table, types: Mapping[str, str]) -> str:
    columns = ", ".join(f"{c.name} {types[c.kind]}" for c in table.columns)
    return (f"CREATE TABLE IF NOT EXISTS {table.sql_name} "
            f"({columns}, PRIMARY KEY ({', '.join(table.key)}))")


SQLITE_TYPES = {"text": "TEXT", "int": "INTEGER", "float": "REAL", "bool": "INTEGER",
                "time": "TEXT", "json": "TEXT"}

INDEXES = [  # what the projector and the statistics look rows up by, besides the keys
    f"CREATE INDEX IF NOT EXISTS {PREFIX}matches_game ON {PREFIX}matches (game)",
    f"CREATE INDEX IF NOT EXISTS {PREFIX}ratings_match ON {PREFIX}ratings (match_id)",
]


class SQLiteTablesView(SQLiteTrackingRecorder, TablesView):
    """The tables in the SQLite file of the events, beside `stored_events` and `tracking`.

    Built on the application's own datastore (its connection pool), so the view shares the
    file and its write lock with the recorder."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)
        self._upserts = {name: upsert_statement(t, "?") for name, t in TABLES.items()}

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(),
                f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER)",
                *(create_statement(t, SQLITE_TYPES) for t in TABLES.values()), *INDEXES]

    def create_table(self) -> None:
        """Create the tables; tables of another schema version are dropped first (and the
        position with them, so they are rebuilt)."""
        with self.datastore.transaction(commit=True) as c:
            c.execute("SELECT name FROM sqlite_master WHERE name = ?", (SCHEMA_TABLE,))
            if c.fetchone() is not None:
                c.execute(f"SELECT version FROM {SCHEMA_TABLE}")
                row = c.fetchone()
                if row is None or row[0] != SCHEMA_VERSION:
                    self._drop(c)
        super().create_table()
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"SELECT version FROM {SCHEMA_TABLE}")
            if c.fetchone() is None:
                c.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES (?)", (SCHEMA_VERSION,))

    def _drop(self, c: SQLiteCursor) -> None:
        for table in TABLES.values():
            c.execute(f"DROP TABLE IF EXISTS {table.sql_name}")
        c.execute(f"DROP TABLE IF EXISTS {SCHEMA_TABLE}")
        c.execute("SELECT name FROM sqlite_master WHERE name = 'tracking'")
        if c.fetchone() is not None:
            # Every application position but the library's migration marker.
            c.execute("DELETE FROM tracking WHERE application_name != ?",
                      (self.table_migration_identifier,))

    def reset(self, application_name: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            self._drop(c)
        self.create_table()

    def write(self, rows: Rows, tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as c:
            for name, table_rows in rows.items():
                names = TABLES[name].names
                c.executemany(self._upserts[name],
                              [tuple(row[n] for n in names) for row in table_rows])
            self._insert_tracking(c, tracking)

    def select(self, table: str, where: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return [dict(row) for row in self._select(TABLES[table], where or {})]

    def _select(self, table: Table, where: Mapping[str, Any], order: str = "",
                limit: int | None = None) -> Sequence[Any]:
        statement = f"SELECT * FROM {table.sql_name}"
        if where:
            statement += " WHERE " + " AND ".join(f"{c} = ?" for c in where)
        statement += f" {order}" + (f" LIMIT {int(limit)}" if limit else "")
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, tuple(where.values()))
            return c.fetchall()

    def latest_rating(self, game: str, player: str) -> dict[str, Any] | None:
        rows = self._select(TABLES["ratings"], {"game": game, "player": player},
                            "ORDER BY after_match DESC", limit=1)
        return dict(rows[0]) if rows else None
