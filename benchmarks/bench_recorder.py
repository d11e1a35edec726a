"""The recorder against the raw store: bulk record, replay, and one move at the table.

Baselines, measured in the same run on the same rows:
- bulk record: a raw sqlite3 executemany of the very rows the recorder stored, one transaction;
- replay: a plain loop over a raw select that JSON-decodes each row and folds the same rules;
- one move: the recorder's get-check-save for a move at the table, on a store of a million
  events (quick: 50,000), beside a raw select of that match's rows plus the rules check.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from uuid import UUID, uuid4

from tablelog.domain.games import get_rules
from tablelog.domain.matches.match import start_match
from tablelog.store import open_recorder

from .harness import Result, best_of

GAME = "topitop"
BIG_STORE = Path(tempfile.gettempdir()) / "tablelog-bench-1m.sqlite"


def simulated(count: int, seed: int, length: int = 40) -> list:
    """`count` Topitop matches built in memory through the Match's own checks (not stored)."""
    rules, rng = get_rules(GAME), random.Random(seed)
    matches = []
    for _ in range(count):
        match = start_match(uuid4(), GAME, ["Ann", "Ben"])
        for _ in range(length):
            if rules.outcome(match.state):
                break
            match.record(rules.to_move(match.state)[0], rules.random_move(match.state, rng))
        matches.append(match)
    return matches


def raw_rows(store: str) -> list[tuple]:
    with sqlite3.connect(store) as db:
        return db.execute(
            "SELECT originator_id, originator_version, topic, state "
            "FROM stored_events ORDER BY rowid"
        ).fetchall()


def raw_insert(rows: list[tuple]) -> float:
    """Seconds for a raw sqlite3 executemany of `rows` in one transaction (warm, in WAL mode,
    synchronous=NORMAL as the recorder's store runs)."""
    path = tempfile.mktemp(suffix=".sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(
        "CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, "
        "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
    )
    db.execute("INSERT INTO stored_events VALUES ('warm-up', 1, 't', x'00')")
    start = time.perf_counter()
    db.execute("BEGIN")
    db.executemany("INSERT INTO stored_events VALUES (?,?,?,?)", rows)
    db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def timed_save(matches: list) -> tuple[float, str]:
    """Seconds for the recorder to store `matches` (warm store), and the store's path."""
    store = tempfile.mktemp(suffix=".sqlite")
    recorder = open_recorder(store)
    recorder.save(*simulated(2, seed=99))  # warm-up: connection, tables, topics
    start = time.perf_counter()
    for i in range(0, len(matches), 500):
        recorder.save(*matches[i : i + 500])
    elapsed = time.perf_counter() - start
    recorder.close()
    return elapsed, store


def scripts(count: int, seed: int, length: int = 40) -> list[tuple]:
    """(seats, moves) of `count` random Topitop games, for rebuilding matches on the clock."""
    return [
        (m.seats, [(move["seat"], move["move"]) for move in m.moves])
        for m in simulated(count, seed, length)
    ]


def build(games: list[tuple]) -> list:
    matches = []
    for seats, moves in games:
        match = start_match(uuid4(), GAME, seats)
        for seat, move in moves:
            match.record(seat, move)
        matches.append(match)
    return matches


def bench_bulk_record(quick: bool) -> list[Result]:
    games = scripts(300 if quick else 3000, seed=1)
    saving, checking, baseline = float("inf"), float("inf"), float("inf")
    for _ in range(3 if quick else 5):  # best of each, interleaved: the disk here is noisy
        start = time.perf_counter()
        matches = build(games)
        checking = min(checking, time.perf_counter() - start)
        elapsed, store = timed_save(matches)
        saving = min(saving, elapsed)
        baseline = min(baseline, raw_insert(raw_rows(store)))
    events = sum(m.version for m in matches)
    return [
        Result(
            "bulk record: store checked matches",
            events / saving,
            "events/s",
            events / baseline,
            f"{events} events, 500 matches per transaction",
        ),
        Result(
            "bulk record: check every move, then store",
            events / (saving + checking),
            "events/s",
            events / baseline,
            "the rules re-check each move as it is recorded",
        ),
    ]


def fold(rules, rows) -> object:
    """The replay baseline's own fold: the rules applied to (topic, JSON body) rows as stored."""
    state = None
    for topic, body in rows:
        data = json.loads(body)
        if topic.endswith("Started"):
            state = rules.start(len(data["seats"]), data["options"], data["setup"])
        elif topic.endswith("MoveRecorded"):
            state = rules.apply(state, data["move"])
    return state


def replays(recorder, count: int, connect, select: str, spell) -> Result:
    """`count` stored matches replayed by the recorder, beside the plain loop: `select` run on a
    `connect()`ed raw connection for each match id (as `spell(id)`), its rows folded by `fold`."""
    matches = simulated(count, seed=2)
    recorder.save(*matches)
    ids = [m.id for m in matches]
    events = sum(m.version for m in matches)
    rules = get_rules(GAME)

    def replay():
        for match_id in ids:
            recorder.get(match_id)

    def plain_loop():
        with connect() as db:
            for match_id in ids:
                fold(rules, db.execute(select, (spell(match_id),)))

    ours, base = best_of(3, replay), best_of(3, plain_loop)
    return Result(
        "replay all matches",
        events / ours,
        "events/s",
        events / base,
        f"{count} matches, {events} events",
    )


def bench_replay(quick: bool) -> list[Result]:
    store = tempfile.mktemp(suffix=".sqlite")
    return [
        replays(
            open_recorder(store),
            200 if quick else 1000,
            lambda: sqlite3.connect(store),
            "SELECT topic, state FROM stored_events WHERE originator_id=? "
            "ORDER BY originator_version",
            lambda match_id: match_id.hex,
        )
    ]


def big_store(events_wanted: int) -> str:
    """A store of about `events_wanted` events, built once and kept in /tmp between runs."""
    path = BIG_STORE.with_name(f"tablelog-bench-{events_wanted}.sqlite")
    if path.exists():
        return str(path)
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    recorder = open_recorder(str(partial))
    stored, seed = 0, 100
    while stored < events_wanted:
        batch = simulated(500, seed=seed)
        recorder.save(*batch)
        stored += sum(m.version for m in batch)
        seed += 1
    recorder.close()
    partial.rename(path)
    return str(path)


def moves_at_the_table(recorder, stored_bodies: Callable[[UUID], list]) -> list[Result]:
    """300 Topitop moves entered one at a time: the recorder's get-check-save of each, beside the
    baseline `stored_bodies(match_id)` (a raw select of the match's event bodies) plus the rules
    fold. Returns p50, p99 and mean, in that order, without notes."""
    rules, rng = get_rules(GAME), random.Random(3)
    match_id = recorder.start(GAME, ["Ann", "Ben"])
    ours, base = [], []
    for _ in range(300):
        match = recorder.get(match_id)
        if rules.outcome(match.state):
            match_id = recorder.start(GAME, ["Ann", "Ben"])
            continue
        move = rules.random_move(match.state, rng)
        seat = rules.to_move(match.state)[0]
        start = time.perf_counter()
        recorder.record(match_id, seat, move)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        bodies = stored_bodies(match_id)
        state = rules.start(2, json.loads(bodies[0])["options"], {})
        for body in bodies[1:-1]:
            state = rules.apply(state, json.loads(body)["move"])
        base.append(time.perf_counter() - start)
    ours.sort(), base.sort()

    def pct(values, q):
        return values[min(len(values) - 1, int(q * len(values)))] * 1000

    return [
        Result("one move at the table, p50", pct(ours, 0.5), "ms", pct(base, 0.5)),
        Result("one move at the table, p99", pct(ours, 0.99), "ms", pct(base, 0.99)),
        Result(
            "one move at the table, mean",
            statistics.mean(ours) * 1000,
            "ms",
            statistics.mean(base) * 1000,
        ),
    ]


def bench_move_latency(quick: bool) -> list[Result]:
    store = big_store(50_000 if quick else 1_000_000)
    recorder = open_recorder(store)
    with sqlite3.connect(store) as db:
        p50, p99, mean = moves_at_the_table(
            recorder,
            lambda match_id: [
                row[0]
                for row in db.execute(
                    "SELECT state FROM stored_events WHERE originator_id=? "
                    "ORDER BY originator_version",
                    (match_id.hex,),
                )
            ],
        )
    size = Path(store).stat().st_size // 2**20
    p50.note = f"store of {'50k' if quick else '1M'} events ({size} MiB)"
    p99.note = "baseline: raw select of the match + rules fold"
    return [p50, p99, mean]


def run(quick: bool) -> list[Result]:
    return bench_bulk_record(quick) + bench_replay(quick) + bench_move_latency(quick)
