"""`tablelog serve` under load (issue 42): 200 readers and 20 writers at once for 60 s, each a
thread with its own keep-alive connection sending its next request as soon as the last is
answered, against the real command in a process of its own on loopback, over a copy of the demo
store (about 300 matches of the five games, its projection tables built).

- Readers pick, at random: the dashboard's page, the list of one game's matches, a match's
  state, or its score.
- Writers each play a Topitop match of their own through the API (the legal moves, then a
  move with the `version` read), starting a new one when it ends. A 409 is a conflict, counted
  apart: no two writers share a match, so none is expected.

The baseline, in the same run: the same load against the same app on the development server
that `tablelog serve` used before (Werkzeug, one thread a connection), over a fresh copy of the
same store. Each phase records its latencies' p50 and p99 and every error: an answer that is not
2xx (409 apart), a connection that failed, or none within 60 s. The load average before and
after each phase goes in the notes: the machine is shared, and the clients run on it too.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .harness import Result

DEMO = "/tmp/tablelog-bench-server-demo.sqlite"
FULL = (200, 20, 60.0)  # readers, writers, seconds
QUICK = (20, 2, 10.0)
WAIT = 60.0  # seconds a client waits for an answer before counting an error
REPO = Path(__file__).resolve().parent.parent
GAMES = ["topitop", "topiary", "topas", "total-landscaping", "geoshapes"]


@dataclass
class Tally:
    """What the clients of one phase saw."""

    reads: list[float] = field(default_factory=list)  # seconds
    writes: list[float] = field(default_factory=list)
    read_errors: list[str] = field(default_factory=list)
    write_errors: list[str] = field(default_factory=list)
    conflicts: int = 0
    seconds: float = 0.0
    load: str = ""


def run(quick: bool) -> list[Result]:
    readers, writers, seconds = QUICK if quick else FULL
    demo = demo_store()
    tallies = {}
    for server in ("waitress", "development"):
        print(
            f"  {server} server: {readers} readers, {writers} writers, {seconds:g} s",
            file=sys.stderr,
            flush=True,
        )
        with tempfile.TemporaryDirectory() as folder:
            store = str(Path(folder) / "store.sqlite")
            copy_store(demo, store)
            with started(server, store) as port:
                tallies[server] = load(port, readers, writers, seconds)
    return results(tallies["waitress"], tallies["development"], readers, writers, seconds)


# ---- the store and the servers -------------------------------------------------------------


def demo_store() -> str:
    """The demo store with its projection tables, built once and kept (the build is atomic)."""
    if not Path(DEMO).exists():
        from tablelog.demo import build_demo_store
        from tablelog.projections.runner import TablesProjection
        from tablelog.store import open_recorder

        print("  building the demo store (once)", file=sys.stderr, flush=True)
        building = DEMO + ".new"
        for leftover in Path("/tmp").glob(Path(building).name + "*"):
            leftover.unlink()
        build_demo_store(building, progress=False)
        TablesProjection(open_recorder(building)).catch_up()
        copy_store(building, DEMO + ".tmp")
        os.replace(DEMO + ".tmp", DEMO)
    return DEMO


def copy_store(source: str, target: str) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


@contextmanager
def started(server: str, store: str) -> Iterator[int]:
    """`tablelog serve` (waitress) or the app on the development server, until the block ends;
    the port it answers on."""
    port = free_port()
    if server == "waitress":
        command = [sys.executable, "-m", "tablelog", "serve", "--store", store, "--port", str(port)]
    else:
        command = [
            sys.executable,
            "-c",
            f"from benchmarks.bench_server import development; development({store!r}, {port})",
        ]
    env = {
        k: v for k, v in os.environ.items() if k not in ("TABLELOG_STORE", "TABLELOG_WRITE_TOKEN")
    }
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        ready(port, process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=WAIT)


def development(store: str, port: int) -> None:
    """The app as `tablelog serve` served it before issue 42: Flask's development server."""
    import logging

    from tablelog.access import WritePolicy
    from tablelog.cli.serve import build_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    app = build_app(store, WritePolicy.for_bind("127.0.0.1"), 2.0)
    app.run(host="127.0.0.1", port=port, debug=False)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ready(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"the server stopped: {process.stderr.read().decode() if process.stderr else ''}"
            )
        try:
            status, _ = request(
                http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT), "GET", "/api/v1/"
            )
            if status == 200:
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("the server did not answer within 600 s")


# ---- the clients ---------------------------------------------------------------------------


def request(
    conn: http.client.HTTPConnection, method: str, path: str, body: dict | None = None
) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"Content-Type": "application/json"}
    conn.request(method, path, data, headers)
    answer = conn.getresponse()
    return answer.status, answer.read()


def load(port: int, readers: int, writers: int, seconds: float) -> Tally:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    _, listed = request(conn, "GET", "/api/v1/matches?limit=500")
    matches = [row["id"] for row in json.loads(listed)["matches"]]
    conn.close()
    tally, stop = Tally(load=f"{os.getloadavg()[0]:.1f}"), threading.Event()
    threads = [
        threading.Thread(target=reader, args=(port, matches, tally, stop, n))
        for n in range(readers)
    ]
    threads += [
        threading.Thread(target=writer, args=(port, tally, stop, n)) for n in range(writers)
    ]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join(WAIT * 2)
    tally.seconds = time.perf_counter() - began
    tally.load += f" -> {os.getloadavg()[0]:.1f}"
    return tally


def reader(port: int, matches: list[str], tally: Tally, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    while not stop.is_set():
        match = rng.choice(matches)
        path = rng.choice(
            [
                "/",
                f"/api/v1/matches?game={rng.choice(GAMES)}&limit=20",
                f"/api/v1/matches/{match}",
                f"/api/v1/matches/{match}/score",
            ]
        )
        began = time.perf_counter()
        try:
            status, _ = request(conn, "GET", path)
        except OSError as err:
            tally.read_errors.append(f"{type(err).__name__}")
            conn.close()
            continue
        tally.reads.append(time.perf_counter() - began)
        if status != 200:
            tally.read_errors.append(str(status))


def writer(port: int, tally: Tally, stop: threading.Event, seed: int) -> None:
    rng = random.Random(1000 + seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    state: dict | None = None
    while not stop.is_set():
        try:
            if state is None:
                state = write(
                    conn,
                    tally,
                    "/api/v1/matches",
                    {"game": "topitop", "players": [f"W{seed}a", f"W{seed}b"]},
                )
                continue
            status, legal = request(conn, "GET", f"/api/v1/matches/{state['id']}/legal-moves")
            if status != 200:
                tally.read_errors.append(f"legal moves: {status}")
                state = None
                continue
            seat = state["to_move"][0]
            move = rng.choice(json.loads(legal)["moves"][seat])
            body = {"seat": seat, "move": move, "version": state["version"]}
            state = write(conn, tally, f"/api/v1/matches/{state['id']}/moves", body)
        except OSError as err:
            tally.write_errors.append(type(err).__name__)
            conn.close()
            state = None
        if state is not None and (state["status"] != "running" or not state["to_move"]):
            state = None


def write(conn: http.client.HTTPConnection, tally: Tally, path: str, body: dict) -> dict | None:
    """POST `body`; the match's state after it, or None (start again) when refused."""
    began = time.perf_counter()
    status, answer = request(conn, "POST", path, body)
    tally.writes.append(time.perf_counter() - began)
    if status == 409:
        tally.conflicts += 1
    elif not 200 <= status < 300:
        tally.write_errors.append(f"{status} {answer[:200]!r}")
    return json.loads(answer) if 200 <= status < 300 else None


# ---- the table -----------------------------------------------------------------------------


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def results(ours: Tally, dev: Tally, readers: int, writers: int, seconds: float) -> list[Result]:
    what = f"{readers} readers + {writers} writers, {seconds:g} s"
    rows = []
    for kind in ("reads", "writes"):
        mine, theirs = getattr(ours, kind), getattr(dev, kind)
        for q in (50, 99):
            mine_q, theirs_q = percentile(mine, q) * 1000, percentile(theirs, q) * 1000
            rows.append(Result(f"serve: {kind[:-1]} p{q} ({what})", mine_q, "ms", theirs_q))
        mean, baseline = statistics.fmean(mine) * 1000, statistics.fmean(theirs) * 1000
        rows.append(Result(f"serve: {kind[:-1]} mean ({what})", mean, "ms", baseline))
        rate, baseline = len(mine) / ours.seconds, len(theirs) / dev.seconds
        rows.append(Result(f"serve: {kind} answered ({what})", rate, f"{kind}/s", baseline))
    rows[0].note = "baseline: the same load on the development server"
    rows[3].note = f"load average {ours.load} (waitress), {dev.load} (development server)"
    for name, mine_errors, theirs_errors in (
        ("read errors", ours.read_errors, dev.read_errors),
        ("write errors, 409 apart", ours.write_errors, dev.write_errors),
    ):
        note = f"{summary(mine_errors)}; development server: {len(theirs_errors)}, "
        note += summary(theirs_errors)
        rows.append(Result(f"serve: {name} ({what})", len(mine_errors), "errors", None, note))
    note = f"development server: {dev.conflicts}"
    rows.append(Result(f"serve: write conflicts, 409 ({what})", ours.conflicts, "409s", None, note))
    return rows


def summary(errors: list[str]) -> str:
    counts: dict[str, int] = {}
    for error in errors:
        counts[error[:60]] = counts.get(error[:60], 0) + 1
    return (
        ", ".join(f"{n} x {what}" for what, n in sorted(counts.items(), key=lambda kv: -kv[1])[:3])
        or "none"
    )
