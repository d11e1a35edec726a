"""The projection tables' view on PostgreSQL (`PostgresTablesView`): the tables of
`projections.tables` in the store's database, on the library's `PostgresTrackingRecorder` (the
position lives in its `projection_tracking` table). Writing and reading are the shared ones of
`projections.view`; this class says only how the tables are created and dropped and how
concurrent writers take turns.

Below both `projections.runner` (which opens it) and `projections.postgres` (the library's
runner that keeps it up to date), so that neither imports the other back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any

import orjson
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresTrackingRecorder,
)
from psycopg import Cursor
from psycopg.rows import DictRow, tuple_row
from psycopg.sql import SQL, Composed

from tablelog.domain.recording.recorder import Recorder

from . import pg_write
from .tables import SCHEMA_VERSION, STORED
from .view import (
    INDEXES,
    SCHEMA_TABLE,
    Rows,
    TablesView,
    create_statement,
)

# Stored as on SQLite (times ISO-8601 text, lists JSON text, truth 0 or 1), so rows read back the
# same from either store and one SQL text over the tables (`SUM(won)`) runs on both.
POSTGRES_TYPES = {
    "text": "TEXT",
    "int": "BIGINT",
    "float": "DOUBLE PRECISION",
    "bool": "SMALLINT",
    "time": "TEXT",
    "json": "TEXT",
}

NAME = "projection"
"""The projection's name: the library names the view's tracking table after it."""
TRACKING_TABLE = f"{NAME}_tracking"

CREATE_LOCK = 0x7AB1E107  # advisory lock ids of our own (the store's schema lock is ...106)
WRITE_LOCK = 0x7AB1E108


def is_postgres(recorder: Recorder) -> bool:
    return isinstance(recorder.recorder, PostgresApplicationRecorder)


class PostgresTablesView(PostgresTrackingRecorder, TablesView):
    placeholder = "%s"
    write_behind = True  # the server upserts while this process folds the next page

    def __init__(
        self,
        datastore: PostgresDatastore,
        *,
        tracking_table_name: str = TRACKING_TABLE,
        **kwargs: object,
    ) -> None:
        super().__init__(datastore, tracking_table_name=tracking_table_name, **kwargs)
        self.tracking_table_sql = f'"{datastore.schema}"."{self.tracking_table_name}"'
        self._write_call = pg_write.call(self.tracking_table_name)
        self.sql_create_statements += [
            Composed([SQL(s)])  # the library's list holds Composed (what SQL.format gives)
            for s in (
                f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER)",
                *(create_statement(t, POSTGRES_TYPES) for t in STORED.values()),
                *INDEXES,
            )
        ]

    def plain_rows(self, cursor: Any) -> None:
        cursor.row_factory = tuple_row

    def fetch_once(self, statement: str, params: Sequence[object]) -> list[tuple[Any, ...]]:
        # The library's connections are in autocommit mode: the statement is its own read.
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as c:
            return c.execute(statement, tuple(params), prepare=True).fetchall()

    def create_table(self) -> None:
        """Create the tables (processes starting at once take turns); tables of another schema
        version are dropped first, and the position with them, so they are rebuilt."""
        with self._session_lock(CREATE_LOCK):
            with self.datastore.transaction(commit=True) as c:
                if self._exists(c, SCHEMA_TABLE):
                    row = c.execute(f"SELECT version FROM {SCHEMA_TABLE}").fetchone()
                    if row is None or row["version"] != SCHEMA_VERSION:
                        self._drop(c)
            super().create_table()
            with self.datastore.transaction(commit=True) as c:
                if c.execute(f"SELECT version FROM {SCHEMA_TABLE}").fetchone() is None:
                    c.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES (%s)", (SCHEMA_VERSION,))
                c.execute(
                    pg_write.create_function(
                        self.tracking_table_sql, self.tracking_table_name, WRITE_LOCK
                    )
                )

    def reset(self, application_name: str) -> None:
        with self._session_lock(CREATE_LOCK), self.datastore.transaction(commit=True) as c:
            c.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            self._drop(c)
        self.create_table()

    def _drop(self, c: Cursor[DictRow]) -> None:
        for table in STORED.values():
            c.execute(f"DROP TABLE IF EXISTS {table.sql_name}")
        c.execute(f"DROP TABLE IF EXISTS {SCHEMA_TABLE}")
        if self._exists(c, self.tracking_table_name):
            # Every application position but the library's migration marker.
            c.execute(
                f"DELETE FROM {self.tracking_table_name} WHERE application_name != %s",
                (self.table_migration_identifier,),
            )

    @staticmethod
    def _exists(c: Cursor[DictRow], table: str) -> bool:
        found = c.execute("SELECT to_regclass(%s) AS found", (table,)).fetchone()
        return found is not None and found["found"] is not None  # (it always has a row)

    @contextlib.contextmanager
    def _session_lock(self, key: int) -> Iterator[None]:
        with self.datastore.get_connection() as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                holder.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def write(self, rows: Rows, tracking: Tracking, since: int | None = None) -> None:
        """`TablesView.write` as one call of the database function (`pg_write`): every table's
        rows as one jsonb object of arrays, which orjson's C code writes and the server casts
        column by column, and the position with its check. Replaced, as slower: a statement
        per row for small writes, even pipelined (a new match's write was 21 statements and
        two waits on the server, now one), and for large ones COPY into a scratch table and an
        upsert from it (a catch-up of 25,890 events 1.35-1.49 s before, 0.87-0.95 s with the
        jsonb arrays; benchmarks/RESULTS.md)."""
        payload = {
            name: list(map(itemgetter(*STORED[name].names), table_rows))
            for name, table_rows in rows.items()
        }
        params = (
            orjson.dumps(payload).decode(),
            tracking.application_name,
            since,
            tracking.notification_id,
        )
        # The library's connections are in autocommit mode: the call is its own transaction.
        # A refusal (SQLSTATE pg_write.REFUSED, class 23) comes out as IntegrityError.
        with self.datastore.get_connection() as conn:
            conn.execute(self._write_call, params, prepare=True)
