"""Simulation throughput against a raw sqlite3 insert of the same rows, measured in the same run.

Per game (random bots, the default player count, both cores): matches per second and events per
second recorded by `simulate` into a fresh SQLite store, each beside a raw sqlite3 executemany of
the very rows that run stored (read back from the store), into a table of the same shape (the
store's own DDL), in one transaction. The ratio is how much slower recording a simulated match is
than merely writing its rows: it includes playing the game (bots and rules), the recorder's
validation of every move, the hash chain and the event mapping.

Two more lines separate those costs for one game:
- storing already-played matches (no play): through the application's `save(*aggregates)` and
  through the path `simulate` takes (rows mapped by the recorder's mapper, one insert per batch),
  each beside the same raw insert;
- two worker processes against one (the baseline), to show what the second core buys.
"""

from __future__ import annotations

import sqlite3
import tempfile
import time
from pathlib import Path

from tablelog.domain.games import GAMES
from tablelog.simulate import make_plan, play_match, simulate
from tablelog.store import open_recorder

from .harness import Result

SEED = 1


def fresh_store() -> str:
    return str(Path(tempfile.mkdtemp(prefix="tablelog-bench-sim-")) / "store.sqlite")


def stored_rows(store: str) -> tuple[list[str], list[tuple]]:
    """The store's table DDL and its rows, as stored."""
    with sqlite3.connect(store) as db:
        ddl = [
            sql
            for (sql,) in db.execute(
                "SELECT sql FROM sqlite_master WHERE tbl_name = 'stored_events' AND sql IS NOT NULL"
            )
        ]
        rows = db.execute(
            "SELECT originator_id, originator_version, topic, state "
            "FROM stored_events ORDER BY rowid"
        ).fetchall()
    return ddl, rows


def raw_insert_seconds(ddl: list[str], rows: list[tuple], repeats: int = 3) -> float:
    """Best time of a raw executemany of `rows` into a fresh table of the same shape, in one
    transaction, WAL and synchronous=NORMAL as the recorder's SQLite store runs (creating the
    file and table is not timed)."""
    best = float("inf")
    for _ in range(repeats):
        db = sqlite3.connect(fresh_store(), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        for statement in ddl:
            db.execute(statement)
        start = time.perf_counter()
        db.execute("BEGIN")
        db.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", rows)
        db.execute("COMMIT")
        best = min(best, time.perf_counter() - start)
        db.close()
    return best


def per_game(game: str, matches: int) -> list[Result]:
    store = fresh_store()
    recorder = open_recorder(store)
    report = simulate(recorder, make_plan(game, matches, SEED), progress=False)
    recorder.close()
    ddl, rows = stored_rows(store)
    raw = raw_insert_seconds(ddl, rows)
    note = f"{report.matches} matches, {report.events} events, random bots, {report.plan.players}p"
    return [
        Result(
            f"simulate {game}: matches",
            report.matches / report.seconds,
            "matches/s",
            report.matches / raw,
            note,
        ),
        Result(
            f"simulate {game}: events recorded",
            report.events / report.seconds,
            "events/s",
            report.events / raw,
            note,
        ),
    ]


def storing_only(matches: int) -> list[Result]:
    """Storing pre-played Topitop matches, two ways, beside the raw insert of the same rows."""
    plan = make_plan("topitop", matches, SEED)
    results = []
    seconds = {}
    for way in ("save(*aggregates)", "mapped rows (simulate's path)"):
        built = [play_match(plan, n) for n in range(matches)]
        store = fresh_store()
        recorder = open_recorder(store)
        start = time.perf_counter()
        if way.startswith("save"):
            recorder.save(*built)
        else:
            rows = [recorder.mapper.to_stored_event(e) for m in built for e in m.collect_events()]
            recorder.save_mapped(rows)
        seconds[way] = time.perf_counter() - start
        recorder.close()
    ddl, stored = stored_rows(store)
    raw = raw_insert_seconds(ddl, stored)
    for way, spent in seconds.items():
        results.append(
            Result(
                f"store played topitop matches via {way}",
                len(stored) / spent,
                "events/s",
                len(stored) / raw,
                f"{matches} matches, {len(stored)} events, one transaction",
            )
        )
    return results


def both_cores(matches: int) -> Result:
    rates = {}
    for workers in (1, 2):
        recorder = open_recorder(fresh_store())
        report = simulate(
            recorder, make_plan("topitop", matches, SEED), workers=workers, progress=False
        )
        recorder.close()
        rates[workers] = report.matches / report.seconds
    return Result(
        "simulate topitop: 2 workers (baseline: 1)",
        rates[2],
        "matches/s",
        rates[1],
        f"{matches} matches; ratio < 1 means the second core helps",
    )


def run(quick: bool) -> list[Result]:
    sizes = {
        "topitop": 400,
        "topiary": 300,
        "topas": 200,
        "total-landscaping": 100,
        "geoshapes": 60,
    }
    scale = 0.1 if quick else 1.0
    results = []
    for game in GAMES:
        results.extend(per_game(game, max(12, int(sizes.get(game, 100) * scale))))
    results.extend(storing_only(max(20, int(500 * scale))))
    results.append(both_cores(max(16, int(400 * scale))))
    return results
