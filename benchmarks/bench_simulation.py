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

import atexit
import functools
import os
import resource
import shutil
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from tablelog.domain.games import GAMES
from tablelog.domain.recording.eventsourcing_internals import MappedMatch
from tablelog.simulation import make_plan, play_match, simulate
from tablelog.store import open_recorder

from .harness import Result

SEED = 1


@functools.cache
def _scratch() -> str:
    """One folder per benchmark process for its stores, removed when the process exits (a
    full run makes a few dozen)."""
    folder = tempfile.mkdtemp(prefix="tablelog-bench-sim-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def fresh_store() -> str:
    """The path of a new SQLite store in a folder of its own (for its -wal and -shm files)."""
    return str(Path(tempfile.mkdtemp(dir=_scratch())) / "store.sqlite")


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
            to_stored = recorder.mapper.to_stored_event
            mapped = [MappedMatch.of([to_stored(e) for e in m.collect_events()]) for m in built]
            recorder.save_matches(mapped)
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


class Workers:
    """Samples the schedstat counters (/proc/PID/schedstat: ns on a core, ns waiting for one)
    of this process's children while a run goes on, to tell the time they were blocked (not
    running, not waiting for a core: waiting for work or for the main process) from the time
    other programs kept them off the cores. Linux only; elsewhere it sees no children."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[float, float, float]] = {}  # pid -> first seen, run, wait
        self.last: dict[int, tuple[float, float, float]] = {}
        self.stop = threading.Event()
        self.cpu = 0.0  # this sampler's own CPU time, which is not the run's
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Workers:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()

    def _sample(self) -> None:
        start = time.thread_time()
        try:
            self._samples()
        finally:
            self.cpu = time.thread_time() - start

    def _samples(self) -> None:
        children = Path(f"/proc/self/task/{os.getpid()}/children")
        while not self.stop.wait(0.02):
            try:
                pids = [int(pid) for pid in children.read_text().split()]
            except OSError:
                return
            for pid in pids:
                try:
                    run, wait, _ = Path(f"/proc/{pid}/schedstat").read_text().split()
                except (OSError, ValueError):
                    continue
                sample = (time.perf_counter(), int(run) / 1e9, int(wait) / 1e9)
                self.seen.setdefault(pid, sample)
                self.last[pid] = sample

    def blocked_share(self) -> float:
        """Of the workers' lives, the share they were blocked (0 with no workers seen)."""
        lived = blocked = 0.0
        for pid, (end, run, wait) in self.last.items():
            start, run0, wait0 = self.seen[pid]
            lived += end - start
            blocked += (end - start) - (run - run0) - (wait - wait0)
        return max(0.0, blocked / lived) if lived else 0.0


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    mine, theirs = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime


def one_run(matches: int, workers: int) -> tuple[float, float, float]:
    """Matches per second, CPU-seconds per match and the workers' blocked share of a run."""
    recorder = open_recorder(fresh_store())
    plan = make_plan("topitop", matches, SEED)
    cpu = cpu_seconds()
    with Workers() as seen:
        report = simulate(recorder, plan, workers=workers, progress=False)
    cpu = cpu_seconds() - cpu - seen.cpu
    recorder.close()
    return report.matches / report.seconds, cpu / report.matches, seen.blocked_share()


def both_cores(matches: int, rounds: int = 3) -> list[Result]:
    """Two workers against one (in-process), alternated `rounds` times, best of each: on a
    loaded machine the wall ratio says little, so CPU per match (what the second process
    costs in pickling and the main process) and the workers' blocked share are given too. On
    an idle 2-core machine two workers run at 2 x (1 - blocked) / (CPU ratio) one worker's
    rate: the projection in the note."""
    runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
    for _ in range(rounds):
        for workers in (1, 2):
            runs[workers].append(one_run(matches, workers))
    rate = {w: max(r[0] for r in rs) for w, rs in runs.items()}
    cpu = {w: min(r[1] for r in rs) for w, rs in runs.items()}
    blocked = min(r[2] for r in runs[2])
    projected = 2 * (1 - blocked) * cpu[1] / cpu[2]
    load = os.getloadavg()[0]
    return [
        Result(
            "simulate topitop: 2 workers (baseline: 1)",
            rate[2],
            "matches/s",
            rate[1],
            f"{matches} matches, best of {rounds}; ratio 0.5 is the ideal; load {load:.1f}",
        ),
        Result(
            "simulate topitop: CPU per match, 2 workers (baseline: 1)",
            cpu[2] * 1e3,
            "ms",
            cpu[1] * 1e3,
            f"all processes; workers blocked {blocked:.1%} of their lives; "
            f"projected idle-machine speed-up {projected:.2f}x",
        ),
    ]


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
    # 2,000 matches: since the engines' fast paths one worker plays 400 Topitop matches in under
    # a second, and the pool's start (forking, the first tasks) would be a fixed share of it.
    results.extend(both_cores(max(16, int(2000 * scale))))
    return results
