"""Tables of Tablelog's own beside the events, in the store itself (SQLite or PostgreSQL): the
signed checkpoints (`ledger`) and the people who may write (`users`). Plain SQL that both
stores speak, run through the event store's own datastore and its transactions."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeAlias
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.sqlite import SQLiteCursor

from .eventsourcing_internals import connections_of

if TYPE_CHECKING:  # psycopg is imported only for a PostgreSQL store
    from psycopg import Cursor as PostgresCursor
    from psycopg.rows import DictRow

Cursor: TypeAlias = "SQLiteCursor | PostgresCursor[DictRow]"  # what `_tx` opens


class SideTables:
    """A recorder's store, with `tables` (CREATE ... IF NOT EXISTS statements) made on open."""

    tables: Sequence[str] = ()

    def __init__(self, recorder: Application[UUID]) -> None:
        self.recorder = recorder
        self.datastore, self.postgres = connections_of(recorder)  # the eventsourcing adapter
        self._make(self.tables)

    def _make(self, statements: Sequence[str]) -> None:
        for attempt in range(3):  # recorders opening a new PostgreSQL store at once may race
            try:
                with self._tx(commit=True) as c:
                    for statement in statements:
                        self._run(c, statement)
                break
            except Exception:  # the catalog race; the third try tells
                if attempt == 2:
                    raise

    def _table_exists(self, name: str) -> bool:
        sql = (
            "SELECT to_regclass(?) IS NOT NULL"
            if self.postgres
            else "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
        )
        with self._tx(commit=False) as c:
            return bool(self._run(c, sql, (name,))[0][0])

    @contextmanager
    def _tx(self, commit: bool) -> Iterator[Cursor]:
        with self.datastore.transaction(commit=commit) as cursor:
            yield cursor

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def _run(
        self, cursor: Cursor, sql: str, params: tuple[object, ...] = ()
    ) -> list[tuple[Any, ...]]:
        cursor.execute(self._sql(sql), params)
        try:
            rows = cursor.fetchall()
        except Exception:  # noqa: BLE001 - a statement without rows (the drivers differ)
            return []
        return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in rows or []]

    def _select(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._tx(commit=False) as c:
            return self._run(c, sql, params)
