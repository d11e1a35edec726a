"""Projection throughput: catching up over a large store, and the cost of one new match, each
beside a raw paged `sqlite3` read plus JSON decode of the same rows in the same run.

The store (>= 1,000,000 events; 20,000 with --quick) is a mix of Topitop, Topiary and Topas
matches of random legal moves, generated once by two worker processes and cached under /tmp
(`tablelog-bench-projections-<events>-<rules versions>.sqlite`); delete it to regenerate.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .harness import Result, best_of, cpu_of, decode_pages

if TYPE_CHECKING:
    from tablelog.domain.integrity.signed import SigningRecorder
    from tablelog.projections.runner import TablesProjection

GAMES = (
    ("topitop", ["Ann", "Ben"]),
    ("topiary", ["Ann", "Ben", "Cat"]),
    ("topas", ["Ann", "Ben", "Cat"]),
)
BATCH = 300  # matches per save: one transaction each
PAGE = 5000


def _cache_path(events: int) -> Path:
    from tablelog.domain.games import GAMES as RULES

    versions = "-".join(f"{game}{RULES[game].version}" for game, _ in GAMES)
    # "derived": events carry the recorder's derived values (domain/matches/derived.py); a store
    # cached before them would measure the projection's slow path for old events instead.
    name = f"tablelog-bench-projections-{events}-{versions}-derived.sqlite"
    return Path(tempfile.gettempdir()) / name


def _generate(path: str, events: int, seed: int) -> None:
    """One worker: save random matches until this worker's share of events is stored."""
    from tablelog.store import open_recorder

    from .matches import random_match

    recorder = open_recorder(path)
    rng, made = random.Random(seed), 0
    while made < events:
        batch = []
        for n in range(BATCH):
            game, seats = GAMES[n % len(GAMES)]
            batch.append(random_match(game, seats, rng, cap=120))
        recorder.save_new(batch)
        made += sum(m.version for m in batch)
    recorder.close()


def store_with(events: int) -> str:
    path = _cache_path(events)
    if path.exists():
        return str(path)
    partial = str(path) + ".partial"
    for leftover in (partial, partial + "-wal", partial + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    from tablelog.store import open_recorder

    open_recorder(partial).close()  # create the tables before the workers race to
    print(f"  generating {events:,} events into {path} (once)...", file=sys.stderr, flush=True)
    workers = [
        multiprocessing.get_context("spawn").Process(
            target=_generate, args=(partial, events // 2, seed)
        )
        for seed in (1, 2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
        if worker.exitcode:
            raise RuntimeError("generating the benchmark store failed")
    db = sqlite3.connect(partial)
    db.execute("PRAGMA journal_mode=DELETE")  # fold the write-ahead log into the one file
    db.close()
    shutil.move(partial, path)
    return str(path)


def raw_read(path: str, after: int = 0) -> int:
    """The baseline: page through stored_events with plain sqlite3 and json-decode each row."""
    db = sqlite3.connect(path)
    try:
        return decode_pages(
            lambda position: db.execute(
                "SELECT rowid, originator_id, originator_version, topic, state "
                "FROM stored_events WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (position, PAGE),
            ).fetchall(),
            after,
        )
    finally:
        db.close()


ONE_MATCH_RUNS = 20
"""How many new matches the projection of one is timed on, the fastest kept (and so for its
baseline): five let a burst of other work on this shared 2-core machine decide the number."""


def time_one_match(
    recorder: SigningRecorder, projection: TablesProjection, raw: Callable[[int], object]
) -> tuple[float, float]:
    """Record a 15-move Topitop match (17 events) and time projecting it, then `raw(position)`:
    the raw read of the same rows (the events after the projection's position before)."""
    from .matches import WIN

    position = projection.position()
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in WIN:
        recorder.record(match_id, seat, move)
    recorder.end(match_id)
    begin = time.perf_counter()
    projection.catch_up()
    projected = time.perf_counter() - begin
    begin = time.perf_counter()
    raw(position)
    return projected, time.perf_counter() - begin


def run(quick: bool) -> list[Result]:
    from tablelog.projections.runner import TablesProjection
    from tablelog.store import open_recorder
    from tablelog.store_copy import copy_store

    size = 20_000 if quick else 1_000_000
    source = store_with(size)
    work = Path(tempfile.mkdtemp(prefix="tablelog-bench-"))
    try:
        path = str(work / "store.sqlite")
        copy_store(source, path)
        recorder = open_recorder(path)
        events = recorder.recorder.max_notification_id() or 0

        projection = TablesProjection(recorder)
        projection.reset()
        started, cpu = time.perf_counter(), time.process_time()
        projection.catch_up()
        catch_up_s, catch_up_cpu = time.perf_counter() - started, time.process_time() - cpu
        raw_s = best_of(3, lambda: raw_read(path))
        raw_cpu = cpu_of(lambda: raw_read(path))

        def raw(at: int) -> int:
            return raw_read(path, after=at)

        time_one_match(recorder, projection, raw)  # warm the statement caches
        timings = [time_one_match(recorder, projection, raw) for _ in range(ONE_MATCH_RUNS)]
        projected = min(t[0] for t in timings)
        baseline = min(t[1] for t in timings)
        recorder.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return [
        Result(
            "projection catch-up",
            events / catch_up_s,
            "events/s",
            baseline=events / raw_s,
            note=f"{events:,} events (Topitop, Topiary, Topas) in {catch_up_s:.1f} s "
            f"(CPU {catch_up_cpu:.2f} s against the baseline's {raw_cpu:.2f} s: "
            f"{catch_up_cpu / raw_cpu:.2f}x); "
            "baseline: raw paged sqlite3 read + json.loads of the same rows",
        ),
        Result(
            "projection of one new match",
            projected * 1000,
            "ms",
            baseline=baseline * 1000,
            note=f"17 events (15 moves + start + end) into a store of {events:,}, fastest of "
            f"{ONE_MATCH_RUNS} matches; baseline: raw read + decode of the same 17 rows",
        ),
    ]
