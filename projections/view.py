"""Where the projection tables live: a small interface, and its SQLite implementation.

A view is a tracking recorder (eventsourcing's `TrackingRecorder`: the position in the
notification log lives in the library's `tracking` table) that also holds the tables of
`projections.tables`, and writes a batch of rows together with the new position in ONE
transaction, so the tables never show events the position has not counted, nor the reverse.
Rows are upserts keyed by each table's key, so writing the same row twice changes nothing.

The SQL is portable where it is cheap (`INSERT ... ON CONFLICT (key) DO UPDATE`, the same in SQLite
and PostgreSQL); only the placeholders and the column types differ, so writing and reading live
here, in the interface, and each store's view says only how it creates, drops and locks
(`SQLiteTablesView` below; `projections.postgres.PostgresTablesView`).

Several processes may keep the same tables (two dashboards, a dashboard and `tablelog stats`).
A batch is written only on top of the position it was folded from (`since`): the projector reads
the tables while folding (a player's latest rating), so a batch folded while another process
moved the tables on could carry stale figures. Such a batch is refused with `IntegrityError`, and
the writer drops its work and carries on from the stored position.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore, SQLiteTrackingRecorder

from tablelog.domain.recording.eventsourcing_internals import insert_tracking, max_tracking_id
from tablelog.domain.recording.side_tables import Cursor

from .tables import PREFIX, SCHEMA_VERSION, STORED, Table

Rows = Mapping[str, Iterable[Mapping[str, object]]]
"""Rows to upsert, by table name (`tables.STORED` keys); each row a dict of every column."""

SCHEMA_TABLE = PREFIX + "schema"


class TablesView(TrackingRecorder, abc.ABC):
    """What the projector needs of a store for its tables.

    Subclasses are also a library tracking recorder (they give `datastore`, and the tracking
    row written inside a transaction: `domain.recording.eventsourcing_internals`) and set
    `placeholder` and `_upserts`."""

    placeholder = "?"
    """The driver's parameter marker, for SQL written against these tables (the dashboard's)."""
    tracking_table_sql = "tracking"
    """The library's tracking table as SQL names it (PostgreSQL's is in the store's schema)."""
    _upserts: dict[str, str]
    datastore: Any
    write_behind = False
    """A catch-up may write a page while it folds the next: worth it where the database does
    the writing without holding the GIL for long stretches (PostgreSQL's server does it; SQLite
    takes the GIL back for every row, so the two threads only took turns)."""

    @abc.abstractmethod
    def create_table(self) -> None:
        """Create the tables (and the tracking table) when they are not there yet."""

    def write(self, rows: Rows, tracking: Tracking, since: int | None = None) -> None:
        """Upsert `rows` and record `tracking`, atomically. With `since` (the position the rows
        were folded from), nothing is written unless the stored position is still that one:
        IntegrityError otherwise, as when the position would not advance. (SQLite's write lock
        makes concurrent writers take turns; PostgreSQL's view writes in a function of its own,
        `pg_write`.)"""
        with self.datastore.transaction(commit=True) as cursor:
            for name, table_rows in rows.items():
                self._upsert(cursor, name, table_rows)
            if since is None:
                insert_tracking(self, cursor, tracking)
            elif self.datastore.single_row_tracking:
                self._advance(cursor, tracking, since)
            else:  # the library's legacy tracking table of a row per position
                self._refuse_unless_at(cursor, tracking, since)
                insert_tracking(self, cursor, tracking)

    def _advance(self, cursor: Cursor, tracking: Tracking, since: int) -> None:
        """Move the position from `since` to the tracking's in one statement that is also the
        check (a read first, then the library's upsert, cost a statement more): the row changes
        only where it still holds `since`."""
        p, table = self.placeholder, self.tracking_table_sql
        name, new = tracking.application_name, tracking.notification_id
        if since:
            cursor.execute(
                f"UPDATE {table} SET notification_id = {p} WHERE application_name = {p} "
                f"AND notification_id = {p} AND notification_id < {p} RETURNING notification_id",
                (new, name, since, new),
            )
        else:  # the first write: no position may be there yet
            cursor.execute(
                f"INSERT INTO {table} (application_name, notification_id) VALUES ({p}, {p}) "
                "ON CONFLICT (application_name) DO NOTHING RETURNING notification_id",
                (name, new),
            )
        if cursor.fetchone() is None:
            self._refuse_unless_at(cursor, tracking, since)
            raise IntegrityError(f"the position would not advance from event {since} to {new}")

    def _refuse_unless_at(self, cursor: Cursor, tracking: Tracking, since: int) -> None:
        stored = max_tracking_id(self, cursor, tracking.application_name) or 0
        if stored != since:
            raise IntegrityError(
                f"the tables moved on to event {stored} while this batch was folded "
                f"from event {since} (another process projected them)"
            )

    def mark_damaged(self, match_id: str, event: int, finding: str) -> None:
        """Record a match a reader found damaged after the tables took it in, and mark its
        `matches` row "damaged", in one transaction (the position stays: no event was folded).
        A match recorded already keeps its first finding."""
        p, damaged, matches = self.placeholder, STORED["damaged"], STORED["matches"]
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"INSERT INTO {damaged.sql_name} (match_id, event, finding) VALUES ({p}, {p}, "
                f"{p}) ON CONFLICT (match_id) DO NOTHING",
                (match_id, event, finding),
            )
            cursor.execute(
                f"UPDATE {matches.sql_name} SET status = 'damaged' WHERE match_id = {p}",
                (match_id,),
            )

    def version(self, application_name: str) -> tuple[int, int]:
        """What the tables show, in one read: the tracked position, and how many matches are
        quarantined (a reader may mark one without moving the position)."""
        p = self.placeholder
        ((position, damaged),) = self.fetch_once(
            f"SELECT (SELECT MAX(notification_id) FROM {self.tracking_table_sql} WHERE "
            f"application_name = {p}), (SELECT COUNT(*) FROM {STORED['damaged'].sql_name})",
            (application_name,),
        )
        return position or 0, damaged

    def _upsert(self, cursor: Cursor, table: str, rows: Iterable[Mapping[str, object]]) -> None:
        """Upsert one table's rows in the caller's transaction (no two with the same key)."""
        values = itemgetter(*STORED[table].names)
        cursor.executemany(self._upserts[table], map(values, rows))

    def fetch(self, statement: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query over the tables, as tuples in the selected order. The statement
        is written once for both stores: `?` marks a parameter (no `?` or `%` in literals)."""
        if self.placeholder != "?":
            statement = statement.replace("%", "%%").replace("?", self.placeholder)
        with self.datastore.transaction(commit=False) as c:
            self.plain_rows(c)
            c.execute(statement, tuple(params))
            return list(c.fetchall())

    @abc.abstractmethod
    def fetch_once(self, statement: str, params: Sequence[object]) -> list[tuple[Any, ...]]:
        """The rows of ONE statement in the store's own SQL, run outside any transaction of
        ours (a statement reads one snapshot by itself; a transaction around it cost two more
        round trips on PostgreSQL): how a catch-up reads the events, which live beside the
        tables in the same database."""

    def plain_rows(self, cursor: Any) -> None:
        """Make the transaction's cursor give plain tuples (the library's give an object or a
        dict per row: converting them cost more than the query, a whole table at a time)."""

    def select(self, table: str, where: Mapping[str, object] | None = None) -> list[dict[str, Any]]:
        """Every row of a table (or those whose columns equal `where`), as stored."""
        return [dict(row) for row in self._select(STORED[table], where or {})]

    def _select(
        self, table: Table, where: Mapping[str, object], order: str = "", limit: int | None = None
    ) -> Sequence[Any]:
        statement = f"SELECT * FROM {table.sql_name}"
        if where:
            statement += " WHERE " + " AND ".join(f"{c} = {self.placeholder}" for c in where)
        statement += f" {order}" + (f" LIMIT {int(limit)}" if limit else "")
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, tuple(where.values()))
            return c.fetchall()

    def latest_rating(self, game: str, player: str) -> dict[str, Any] | None:
        """The player's most recent `ratings` row in that game, or None."""
        rows = self._select(
            STORED["ratings"],
            {"game": game, "player": player},
            "ORDER BY after_match DESC",
            limit=1,
        )
        return dict(rows[0]) if rows else None

    @abc.abstractmethod
    def reset(self, application_name: str) -> None:
        """Drop every table row and the position, so the next run rebuilds from the start."""


def upsert_statement(table: Table, placeholder: str) -> str:
    columns = ", ".join(table.names)
    values = ", ".join(placeholder for _ in table.names)
    updates = ", ".join(f"{c} = excluded.{c}" for c in table.names if c not in table.key)
    return (
        f"INSERT INTO {table.sql_name} ({columns}) VALUES ({values}) "
        f"ON CONFLICT ({', '.join(table.key)}) DO UPDATE SET {updates}"
    )


def create_statement(table: Table, types: Mapping[str, str]) -> str:
    columns = ", ".join(f"{c.name} {types[c.kind]}" for c in table.columns)
    return (
        f"CREATE TABLE IF NOT EXISTS {table.sql_name} "
        f"({columns}, PRIMARY KEY ({', '.join(table.key)}))"
    )


SQLITE_TYPES = {
    "text": "TEXT",
    "int": "INTEGER",
    "float": "REAL",
    "bool": "INTEGER",
    "time": "TEXT",
    "json": "TEXT",
}

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
        self._upserts = {name: upsert_statement(t, "?") for name, t in STORED.items()}

    def plain_rows(self, cursor: SQLiteCursor) -> None:
        cursor.sqlite_cursor.row_factory = None

    def fetch_once(self, statement: str, params: Sequence[object]) -> list[tuple[Any, ...]]:
        # The library's connections are in autocommit mode: the statement is its own read.
        with self.datastore.get_connection(commit=False) as conn, conn.cursor() as cursor:
            cursor.row_factory = None  # the sqlite3 cursor itself: plain tuples
            return cursor.execute(statement, tuple(params)).fetchall()

    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER)",
            *(create_statement(t, SQLITE_TYPES) for t in STORED.values()),
            *INDEXES,
        ]

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
        for table in STORED.values():
            c.execute(f"DROP TABLE IF EXISTS {table.sql_name}")
        c.execute(f"DROP TABLE IF EXISTS {SCHEMA_TABLE}")
        c.execute("SELECT name FROM sqlite_master WHERE name = 'tracking'")
        if c.fetchone() is not None:
            # Every application position but the library's migration marker.
            c.execute(
                "DELETE FROM tracking WHERE application_name != ?",
                (self.table_migration_identifier,),
            )

    def reset(self, application_name: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            self._drop(c)
        self.create_table()
