"""A 100,000-move Topitop match (buckets shuffled back and forth, every move legal) against a
100-move one in the same store: `tablelog show` and `tablelog move` as a person runs them (a
fresh process each), a read in process, the Match page's first load, and the snapshots.

The long match is written the bulk way (built in memory through the Match's commands, stored
with `Recorder.save_new`), as an import or a simulation stores it; the recorder snapshots it as
it is stored. Reads then replay only the events after the newest snapshot
(domain.matches.snapshots). The baseline of every line is the same measurement on the 100-move
match, so the ratio is what the length costs. --quick: a 10,000-move match.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tablelog.domain.matches.match import start_match
from tablelog.domain.matches.snapshot_reads import _fold
from tablelog.store import open_recorder

from .harness import Result, best_of
from .matches import shuffled_moves

ROOT = str(Path(__file__).resolve().parent.parent)
SHORT = 100

PAGE_VISIT = """
import re, sys, time
from benchmarks.bench_dashboard import visit
from tablelog.dashboard.app import create_app
app = create_app(sys.argv[1], refresh_every=None)
source = app.server.extensions["tablelog"]
client = app.server.test_client()
start = time.perf_counter()
visit(client, "match", source.position(), sys.argv[2])
seconds = time.perf_counter() - start
# VmHWM: this process's peak since exec (ru_maxrss would count the parent's before the fork)
print(seconds, re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
"""


def built(recorder, moves: int) -> uuid.UUID:
    """A match of `moves` shuffled moves, stored in one bulk save."""
    match = start_match(uuid.uuid4(), "topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(moves):
        match.record(seat, move)
    recorder.save_new([match])
    return match.id


def cli_seconds(path: str, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "tablelog", *args, "--store", path],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def paired(first, second, repeats: int = 5) -> tuple[float, float]:
    """The best of `repeats` of each of two timed callables, taken in turns (so that a busy
    spell on a shared machine weighs on both alike)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        times[0].append(first())
        times[1].append(second())
    return min(times[0]), min(times[1])


def next_move(recorder, match_id) -> tuple[str, str]:
    """The next shuffle of the match (seat number, JSON): `tablelog move`'s arguments."""
    count = len(recorder.get(match_id).moves)
    seat, move = list(shuffled_moves(count + 1))[count]
    return str(seat + 1), json.dumps(move)


def page_visit(path: str, match_id: uuid.UUID) -> tuple[float, float]:
    """(seconds, peak MB) of the Match page's opening callbacks in a fresh server process."""
    done = subprocess.run(
        [sys.executable, "-c", PAGE_VISIT, path, str(match_id)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak_kb = done.stdout.split()[-2:]
    return float(seconds), float(peak_kb) / 1024


def snapshot_bytes(path: str, match_id: uuid.UUID) -> tuple[int, int, int]:
    """(largest snapshot, all snapshots, all events) of one match, in bytes."""
    with sqlite3.connect(path) as db:
        largest, together = db.execute(
            "SELECT max(length(state)), sum(length(state)) FROM stored_snapshots WHERE "
            "originator_id = ?",
            [match_id.hex],
        ).fetchone()
        events = db.execute(
            "SELECT sum(length(state)) FROM stored_events WHERE originator_id = ?", [match_id.hex]
        ).fetchone()[0]
    return largest or 0, together or 0, events


def run(quick: bool) -> list[Result]:
    long_moves = 10_000 if quick else 100_000
    folder = tempfile.mkdtemp(prefix="tablelog-long-")
    path = str(Path(folder) / "long.sqlite")
    recorder = open_recorder(path)
    print(f"  storing a {long_moves:,}-move match", file=sys.stderr, flush=True)
    short, long = built(recorder, SHORT), built(recorder, long_moves)
    subprocess.run(
        [sys.executable, "-m", "tablelog", "project", "--store", path],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    note = f"Topitop, {long_moves:,} moves vs {SHORT}; baseline: the {SHORT}-move match"
    results = []
    for label in ("show", "show --at half"):

        def show(match_id, moves, label=label):
            args = ("show", str(match_id)) + (("--at", str(moves // 2)) if "--at" in label else ())
            return cli_seconds(path, *args)

        long_s, short_s = paired(lambda: show(long, long_moves), lambda: show(short, SHORT))
        results.append(
            Result(
                f"long match: tablelog {label}",
                1000 * long_s,
                "ms",
                1000 * short_s,
                f"{note}; a fresh process each, best of 5",
            )
        )
    long_s, short_s = paired(
        lambda: cli_seconds(path, "move", str(long), "--seat", *next_move(recorder, long)),
        lambda: cli_seconds(path, "move", str(short), "--seat", *next_move(recorder, short)),
    )
    results.append(
        Result(
            "long match: tablelog move",
            1000 * long_s,
            "ms",
            1000 * short_s,
            f"{note}; a fresh process each, best of 5",
        )
    )
    results += reads(recorder, short, long, note)
    results += pages(path, short, long, note)
    results += sizes(path, short, long, long_moves)
    recorder.close()
    shutil.rmtree(folder, ignore_errors=True)
    return results


def reads(recorder, short, long, note) -> list[Result]:
    """In process: the match now (snapshot + events since), and from its events alone."""
    fresh = open_recorder(recorder.env["SQLITE_DBNAME"])
    now_short = best_of(5, lambda: fresh.get(short))
    now_long = best_of(5, lambda: fresh.get(long))
    replay = best_of(1, lambda: _fold(None, fresh.events.get(long)))
    return [
        Result(
            "long match: read now, in process",
            1000 * now_long,
            "ms",
            1000 * now_short,
            f"{note}; Recorder.get: the newest snapshot and the events after it",
        ),
        Result(
            "long match: read now without snapshots",
            1000 * replay,
            "ms",
            1000 * now_long,
            "every event replayed, as before snapshots; baseline: the same read from its snapshot",
        ),
    ]


def pages(path, short, long, note) -> list[Result]:
    (short_s, short_mb), (long_s, long_mb) = (
        min(page_visit(path, m) for _ in range(2)) for m in (short, long)
    )
    return [
        Result(
            "long match: Match page first load",
            1000 * long_s,
            "ms",
            1000 * short_s,
            f"{note}; every callback the page fires on opening, fresh server process "
            "(the short match also gets its audit and solved values: the long one's "
            "page leaves those to `tablelog audit` and `analyse`)",
        ),
        Result(
            "long match: Match page server peak memory",
            long_mb,
            "MB",
            short_mb,
            f"{note}; peak RSS of the server process that served the page",
        ),
    ]


def sizes(path, short, long, long_moves) -> list[Result]:
    largest_long, all_long, events_long = snapshot_bytes(path, long)
    largest_short, _, _ = snapshot_bytes(path, short)
    return [
        Result(
            "long match: largest snapshot",
            largest_long / 1024,
            "KB",
            largest_short / 1024,
            f"{long_moves:,} moves vs {SHORT}: a snapshot holds "
            "the state and the last 10 moves, whatever the length",
        ),
        Result(
            "long match: all its snapshots",
            all_long / 1024,
            "KB",
            events_long / 1024,
            "baseline: the match's stored events",
        ),
    ]
