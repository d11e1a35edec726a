"""Where the pages get their data: the projection tables of one store, read per request, and the
one match the Match page replays.

A `Source` belongs to one app (`create_app` makes it; nothing is global). Table reads select
only the rows a page asks for (`game = ?` and so on) and convert them with the contract's dtypes
(`projections.load.frame`); results are remembered by the tables' tracked position, so a page
asks the database again only when new events were projected. `refresh()` brings the tables up to
date; the server calls it from a background thread every couple of seconds.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import pandas as pd

from domain.match import Match
from domain.recorder import Recorder
from projections.load import frame
from projections.runner import TablesProjection
from projections.tables import TABLES

CACHED_READS = 64


class Source:
    """The projection tables and match replays of one store, for one app."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.projection = TablesProjection(recorder)
        self._refreshing = threading.Lock()
        self._cache: OrderedDict[tuple, tuple[int, pd.DataFrame]] = OrderedDict()
        self._cache_lock = threading.Lock()

    # ---- keeping the tables up to date --------------------------------------------------------

    def refresh(self) -> int:
        """Project whatever events are new; how many. One refresh at a time."""
        with self._refreshing:
            return self.projection.catch_up()

    def position(self) -> int:
        """The last notification the tables include (their version, for caching)."""
        return self.projection.position()

    def forget(self) -> None:
        """Drop every remembered read (the next ones go to the database)."""
        with self._cache_lock:
            self._cache.clear()

    # ---- reading ------------------------------------------------------------------------------

    def table(self, name: str, columns: Sequence[str] | None = None, order: str = "",
              limit: int | None = None, **where: Any) -> pd.DataFrame:
        """Rows of projection table `name` whose columns equal `where` (None values ignored),
        typed as `projections.tables` says; `columns` picks some columns only."""
        where = {k: v for k, v in where.items() if v is not None}
        key = (name, tuple(columns or ()), order, limit, tuple(sorted(where.items())))
        position = self.position()
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit and hit[0] == position:
                self._cache.move_to_end(key)
                return hit[1]
        data = self._read(name, columns, order, limit, where)
        with self._cache_lock:
            self._cache[key] = (position, data)
            while len(self._cache) > CACHED_READS:
                self._cache.popitem(last=False)
        return data

    def _read(self, name: str, columns: Sequence[str] | None, order: str, limit: int | None,
              where: dict[str, Any]) -> pd.DataFrame:
        table = TABLES[name]
        chosen = table if not columns else _subset(table, columns)
        for column in [*where, *order.replace(" DESC", "").split(",")]:
            if column.strip() and column.strip() not in table.names:
                raise KeyError(f"{name} has no column {column.strip()!r}")
        sql = f"SELECT {', '.join(chosen.names)} FROM {table.sql_name}"
        if where:
            sql += " WHERE " + " AND ".join(f"{c} = ?" for c in where)
        if order:
            sql += f" ORDER BY {order}"
        if limit:
            sql += f" LIMIT {int(limit)}"
        with self.projection.view.datastore.transaction(commit=False) as cursor:
            cursor.execute(sql, tuple(where.values()))
            rows = cursor.fetchall()
        return frame(chosen, (tuple(row) for row in rows))

    def match_ids(self, prefix: str) -> list[str]:
        """Ids of matches starting with `prefix` (at most 20), from the matches table."""
        prefix = prefix.strip().lower()
        sql = (f"SELECT match_id FROM {TABLES['matches'].sql_name} WHERE match_id LIKE ? "
               "ORDER BY started DESC LIMIT 20")
        with self.projection.view.datastore.transaction(commit=False) as cursor:
            cursor.execute(sql, (prefix.replace("%", "").replace("_", "") + "%",))
            return [row[0] for row in cursor.fetchall()]

    # ---- one match ----------------------------------------------------------------------------

    def match(self, match_id: str | UUID, step: int | None = None) -> Match:
        """The match as it was after `step` events following its start (None: now)."""
        return self.recorder.get(match_id, step)

    def events(self, match_id: str | UUID) -> list[Any]:
        return self.recorder.stored_events(match_id)


def _subset(table, columns: Sequence[str]):
    from dataclasses import replace

    wanted = [c for c in table.columns if c.name in columns]
    missing = set(columns) - {c.name for c in wanted}
    if missing:
        raise KeyError(f"{table.name} has no column {sorted(missing)[0]!r}")
    return replace(table, columns=tuple(wanted))


class Refresher(threading.Thread):
    """Brings a source's tables up to date every `interval` seconds until stopped."""

    def __init__(self, source: Source, interval: float = 2.0) -> None:
        super().__init__(name="tablelog-projections", daemon=True)
        self.source, self.interval = source, interval
        self.stopped = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                self.source.refresh()
                self.error = None
            except Exception as err:  # keep serving what is there; the page shows the error
                self.error = f"{type(err).__name__}: {err}"
            self.stopped.wait(self.interval)

    def stop(self) -> None:
        self.stopped.set()
