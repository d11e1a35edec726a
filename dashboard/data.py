"""Where the pages get their data: the projection tables of one store, read per request, and the
one match the Match page replays.

A `Source` belongs to one app (`create_app` makes it; nothing is global). Everything it hands out
is remembered by the tables' tracked position, so nothing is read or computed twice while no new
event has been projected:
- `table` selects rows (`game = ?` and so on; a list value is `IN`) and types them with the
  contract's dtypes (`projections.load.frame`);
- `query` runs an aggregate (GROUP BY) and returns its few rows: the many-match pages ask
  SQLite for counts and sums, never for every row (`counts`, and the tallies below, which are the
  frames `projections.stats` works the statistics out from);
- `remember` keeps whatever a page computed from those (its figures), per key.
`refresh()` brings the tables up to date; the server calls it from a background thread every
couple of seconds (on PostgreSQL the library's projection runner keeps them instead). The SQL is
written once for both stores, with "?" markers (`TablesView.fetch` adapts them for PostgreSQL):
keep it to what both run (`SUM(won)` does: truth is stored as 0 or 1 on both).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from uuid import UUID

import pandas as pd

from tablelog.domain.matches.match import Match
from tablelog.domain.recording.recorder import Recorder
from tablelog.projections import stats
from tablelog.projections.load import frame
from tablelog.projections.queries import Queries
from tablelog.projections.runner import TablesProjection
from tablelog.projections.tables import TABLES

CACHED = 128  # reads, aggregates and page results remembered (least recently used go)
STEPS_KEPT = 128  # things fixed once stored (a match's figures at a step) kept, whatever is new


T = TypeVar("T")  # what a remembered read gives


class Source:
    """The projection tables and match replays of one store, for one app."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.projection = TablesProjection(recorder)
        # The read side the pages share with the CLI and the API; it catches these tables up
        # through `refresh`, so one thread at a time folds events into them.
        # Each cache holds reads of every kind (a frame, a match, a figure's JSON), by key.
        self.queries = Queries(recorder, self.projection, catch_up=lambda _: self.refresh())
        self._refreshing = threading.Lock()
        self._cache: OrderedDict[tuple, tuple[list[int], Any]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._kept: OrderedDict[tuple, Any] = OrderedDict()

    # ---- keeping the tables up to date --------------------------------------------------------

    def refresh(self) -> int:
        """Project whatever events are new; how many. One refresh at a time."""
        with self._refreshing:
            return self.projection.catch_up()

    def position(self) -> int:
        """The last notification the tables include."""
        return self.projection.position()

    def version(self) -> list[int]:
        """What the tables show (for caching): their position, and the number of quarantined
        matches, which a reader may add to without moving the position."""
        return self.projection.version()

    def forget(self) -> None:
        """Drop every remembered read (the next ones go to the database)."""
        with self._cache_lock:
            self._cache.clear()
            self._kept.clear()

    # ---- reading ------------------------------------------------------------------------------

    def remember(self, key: tuple, compute: Callable[[], T]) -> T:
        """`compute()`, worked out once per version of the tables (`version`): a repeat with no
        new events gets the remembered value. Keys are tuples whose first item names the page
        or read."""
        position = self.version()
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit and hit[0] == position:
                self._cache.move_to_end(key)
                return hit[1]
        value = compute()
        with self._cache_lock:
            self._cache[key] = (position, value)
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        return value

    def keep(self, key: tuple, compute: Callable[[], T]) -> T:
        """`compute()`, worked out once for good: for what the store can never change, such as
        a match as it was after step N (a stored event is forever). New events elsewhere in
        the store, which move the tracked position, do not drop it as they drop `remember`'s;
        only `forget` and the least recently used rule do."""
        with self._cache_lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = compute()  # an error (no such step yet) is raised, never kept
        with self._cache_lock:
            self._kept[key] = value
            while len(self._kept) > STEPS_KEPT:
                self._kept.popitem(last=False)
        return value

    def table(
        self,
        name: str,
        columns: Sequence[str] | None = None,
        order: str = "",
        limit: int | None = None,
        **where: object,
    ) -> pd.DataFrame:
        """Rows of projection table `name` whose columns equal `where` (None values ignored; a
        list or tuple value: any of them), typed as `projections.tables` says; `columns` picks
        some columns only."""
        where = {
            k: tuple(v) if isinstance(v, (list, tuple)) else v
            for k, v in where.items()
            if v is not None
        }
        key = ("table", name, tuple(columns or ()), order, limit, tuple(sorted(where.items())))
        return self.remember(key, lambda: self._read(name, columns, order, limit, where))

    def query(
        self,
        sql: str,
        params: Sequence[object] = (),
        columns: Sequence[str] = (),
        table: str | None = None,
    ) -> pd.DataFrame:
        """The rows of a query over the projection tables (an aggregate, or a few rows), as a
        DataFrame with `columns`; with `table`, the columns are that table's and are typed as
        the contract says. Remembered per position like the rest."""

        def read() -> pd.DataFrame:
            rows = self.projection.view.fetch(sql, params)
            if table is not None:
                return frame(_subset(TABLES[table], columns), rows)
            return pd.DataFrame.from_records(rows, columns=list(columns))

        return self.remember(("query", sql, tuple(params), tuple(columns)), read)

    def _read(
        self,
        name: str,
        columns: Sequence[str] | None,
        order: str,
        limit: int | None,
        where: Mapping[str, object],
    ) -> pd.DataFrame:
        table = TABLES[name]
        chosen = table if not columns else _subset(table, columns)
        for column in [*where, *order.replace(" DESC", "").split(",")]:
            if column.strip() and column.strip() not in table.names:
                raise KeyError(f"{name} has no column {column.strip()!r}")
        sql = f"SELECT {', '.join(chosen.names)} FROM {table.sql_name}"
        if where:
            sql += " WHERE " + " AND ".join(
                (f"{c} IN ({', '.join('?' * len(v))})" if v else "1 = 0")  # IN () is SQLite's
                if isinstance(v, tuple)
                else f"{c} = ?"
                for c, v in where.items()
            )
        if order:
            sql += f" ORDER BY {order}"
        if limit:
            sql += f" LIMIT {int(limit)}"
        rows = self.projection.view.fetch(
            sql, [x for v in where.values() for x in (v if isinstance(v, tuple) else (v,))]
        )
        return frame(chosen, rows)

    def damaged(self) -> list[dict[str, Any]]:
        """The quarantined matches (match_id, event, finding): the banner names them."""
        return self.remember(("damaged",), self.projection.damaged)

    # ---- one match ----------------------------------------------------------------------------

    def match(self, match_id: str | UUID, step: int | None = None) -> Match:
        """The match as it was after `step` events following its start (None: now)."""
        return self.recorder.get(match_id, step)

    def events(
        self, match_id: str | UUID, first_step: int = 0, last_step: int | None = None
    ) -> list[Any]:
        """The match's events from step `first_step` (0 = its start) to `last_step` (None: the
        newest): a long match is read a page at a time, never whole."""
        return self.recorder.stored_events(
            match_id, gt=first_step or None, lte=None if last_step is None else last_step + 1
        )


def _subset(table, columns: Sequence[str]):
    """The table's contract for `columns` only, in that order."""
    from dataclasses import replace

    known = {c.name: c for c in table.columns}
    missing = [c for c in columns if c not in known]
    if missing:
        raise KeyError(f"{table.name} has no column {missing[0]!r}")
    return replace(table, columns=tuple(known[c] for c in columns))


# ---- aggregates the many-match pages read ------------------------------------------------------
# Each is one GROUP BY in the database: a page's first request costs one pass over the rows it
# needs, and what comes back is a few rows, whatever the store holds. The tallies have exactly
# the columns of `projections.stats`' own (pandas) tallies, so the statistics are the same code.


def _sql(table: str) -> str:
    return TABLES[table].sql_name


def _typed(
    data: pd.DataFrame,
    bools: Sequence[str] = (),
    ints: Sequence[str] = (),
    floats: Sequence[str] = (),
) -> pd.DataFrame:
    """Typed as `projections.stats`' tallies (SQLite gives 0/1 for booleans; text is the
    contract's "string")."""
    types: dict[str, str | type[object]] = {
        **{c: bool for c in bools},
        **{c: "int64" for c in ints},
        **{c: "float64" for c in floats},
    }
    text = {
        c: "string"
        for c in data.columns
        if c not in types and pd.api.types.is_string_dtype(data[c])
    }
    return data.astype({**types, **text})


def counts(source: Source, table: str, by: Sequence[str], **where: object) -> pd.DataFrame:
    """How many rows of `table` have each combination of the `by` columns (column n), among the
    rows whose columns equal `where`; most first."""
    for column in [*by, *where]:
        if column not in TABLES[table].names:
            raise KeyError(f"{table} has no column {column!r}")
    columns = ", ".join(by)
    sql = f"SELECT {columns}, COUNT(*) FROM {_sql(table)}"
    if where:
        sql += " WHERE " + " AND ".join(f"{c} = ?" for c in where)
    sql += f" GROUP BY {columns} ORDER BY COUNT(*) DESC, {columns}"
    data = source.query(sql, tuple(where.values()), [*by, "n"])
    kinds = {c.name: c.kind for c in TABLES[table].columns}
    return _typed(data, ints=["n", *(c for c in by if kinds[c] == "int")])


GROUP_WHERE = "game = ? AND players = ? AND variant = ?"
# `stats.counted` for the seat tables: leave out the rows of the group's matches that are not
# "ended" (only disputed ones have such rows). Asked as NOT IN because that list is short: an
# IN over every ended match costs a lookup in a list of all of them for each row.
COUNTED = (
    f"match_id NOT IN (SELECT match_id FROM {_sql('matches')} "
    f"WHERE status <> 'ended' AND {GROUP_WHERE})"
)
# The kind filter (all / moves logged / sheets only) leaves out the other kind's matches too;
# the SQL is one of these fixed texts, never built from what a visitor sends.
OTHER_KIND = {None: "", "moves": " OR kind <> 'moves'", "sheet": " OR kind <> 'sheet'"}


def counted_sql(kind: str | None) -> str:
    return COUNTED.replace("status <> 'ended'", f"(status <> 'ended'{OTHER_KIND[kind]})")


def _group_query(
    source: Source, sql: str, repeats: int, pick: tuple[str, int, str], columns: Sequence[str]
) -> pd.DataFrame:
    """Run a query on one group (its WHERE fixes game, players and variant, so they are not
    grouped on: comparing the long variant text on every row is what such a sort would cost)
    and put them back as columns, as the tallies have them."""
    data = source.query(sql, pick * repeats, [c for c in columns if c not in stats.GROUP])
    values: tuple[str | int, ...] = pick
    fixed = {c: value for c, value in zip(stats.GROUP, values) if c in columns}
    return data.assign(**fixed)[list(columns)]


def seat_tallies(
    source: Source, game: str, players: int, variant: str, kind: str | None = None
) -> pd.DataFrame:
    """`stats.seat_tallies` of one group: counted matches and wins per seat."""
    sql = (
        f"SELECT seat, COUNT(*), SUM(won) FROM {_sql('scores')} "
        f"WHERE {GROUP_WHERE} AND {counted_sql(kind)} GROUP BY seat"
    )
    data = _group_query(source, sql, 2, (game, players, variant), stats.SEAT_TALLY)
    return _typed(data, ints=["players", "seat", "matches", "wins"])


def score_tallies(
    source: Source, game: str, players: int, variant: str, kind: str | None = None
) -> pd.DataFrame:
    """`stats.score_tallies` of one group: seats per category, won and points, the total
    included (as category 'total')."""
    sql = (
        f"SELECT category, won, points, COUNT(*) FROM {_sql('score_categories')} "
        f"WHERE {GROUP_WHERE} AND {counted_sql(kind)} GROUP BY category, won, points "
        f"UNION ALL SELECT 'total', won, total, COUNT(*) FROM {_sql('scores')} "
        f"WHERE {GROUP_WHERE} AND {counted_sql(kind)} AND total IS NOT NULL "
        "GROUP BY won, total"
    )  # a sheet may give no total
    data = _group_query(source, sql, 4, (game, players, variant), stats.SCORE_TALLY)
    return _typed(data, bools=["won"], ints=["players", "seats"], floats=["points"])


def component_tallies(
    source: Source, game: str, players: int, variant: str, kind: str | None = None
) -> pd.DataFrame:
    """`stats.component_tallies` of one group: seats, counts and points per kind, component,
    won and had (count > 0)."""
    sql = (
        f"SELECT kind, component, won, count > 0, COUNT(*), SUM(count), "
        f"COALESCE(SUM(points), 0), COUNT(points) FROM {_sql('components')} "
        f"WHERE {GROUP_WHERE} AND {counted_sql(kind)} "
        "GROUP BY kind, component, won, count > 0"
    )
    data = _group_query(source, sql, 2, (game, players, variant), stats.COMPONENT_TALLY)
    return _typed(data, bools=["won", "had"], ints=["seats", "count", "scored"], floats=["points"])


def length_tallies(
    source: Source, game: str, players: int, variant: str, kind: str | None = None
) -> pd.DataFrame:
    """`stats.length_tallies` of one group: counted matches per number of effective moves
    (score sheets have no moves: never counted here, whatever `kind`)."""
    sql = (
        f"SELECT moves, COUNT(*) FROM {_sql('matches')} "
        f"WHERE status = 'ended' AND kind = 'moves' AND {GROUP_WHERE} GROUP BY moves"
    )
    data = _group_query(source, sql, 1, (game, players, variant), stats.LENGTH_TALLY)
    return _typed(data, ints=["players", "moves", "matches"])


def player_results(source: Source, game: str) -> pd.DataFrame:
    """Per player of one game: scored matches, wins and mean total (every scores row)."""
    sql = (
        f"SELECT player, COUNT(*), SUM(won), AVG(total) FROM {_sql('scores')} "
        "WHERE game = ? GROUP BY player"
    )
    data = source.query(sql, (game,), ["player", "matches", "wins", "mean_total"])
    return _typed(data, ints=["matches", "wins"], floats=["mean_total"])


def latest_ratings(source: Source, game: str) -> pd.DataFrame:
    """Each player's latest `ratings` row in one game (the key's index finds it)."""
    ratings = _sql("ratings")
    sql = (
        f"SELECT r.player, r.after_match, r.mu, r.sigma, r.ordinal, r.played "
        f"FROM {ratings} r JOIN (SELECT player, MAX(after_match) AS last FROM {ratings} "
        "WHERE game = ? GROUP BY player) l ON l.player = r.player AND l.last = r.after_match "
        "WHERE r.game = ?"
    )
    return source.query(
        sql,
        (game, game),
        ["player", "after_match", "mu", "sigma", "ordinal", "played"],
        table="ratings",
    )


class Refresher(threading.Thread):
    """Keeps a source's tables up to date until stopped: on SQLite by catching up every
    `interval` seconds; on PostgreSQL with the library's ProjectionRunner, which takes each new
    event as it is stored (restarted after `interval` seconds if it fails)."""

    def __init__(self, source: Source, interval: float = 2.0) -> None:
        super().__init__(name="tablelog-projections", daemon=True)
        self.source, self.interval = source, interval
        self.stopped = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        from tablelog.projections.postgres import follow, is_postgres

        pushed = is_postgres(self.source.recorder)
        while not self.stopped.is_set():
            try:
                if pushed:
                    with follow(self.source.recorder) as runner:
                        self.error = None
                        while not (self.stopped.is_set() or runner.is_interrupted.is_set()):
                            runner.run_forever(timeout=self.interval)  # raises its error
                else:
                    self.source.refresh()
                    self.error = None
            except Exception as err:  # noqa: BLE001 - keep serving what is there; the page shows it
                self.error = f"{type(err).__name__}: {err}"
            self.stopped.wait(self.interval)

    def stop(self) -> None:
        self.stopped.set()
