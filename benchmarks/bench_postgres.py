"""The same measurements on PostgreSQL, beside SQLite's (bench_recorder, bench_projections):
bulk record, replay, one move at the table, projection catch-up, each against raw psycopg work
on the same rows in the same run. Every measurement creates its own database and drops it.

The server is $TABLELOG_BENCH_PG (default postgresql://postgres@127.0.0.1:5432, trust auth);
without one answering, the module reports nothing and says why on stderr.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import time
import uuid
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from .bench_projections import ONE_MATCH_RUNS, time_one_match
from .bench_recorder import build, moves_at_the_table, replays, scripts, simulated
from .harness import Result, best_of, cpu_of, decode_pages

if TYPE_CHECKING:
    from tablelog.domain.integrity.signed import SigningRecorder
    from tablelog.projections.runner import TablesProjection

SERVER = os.environ.get("TABLELOG_BENCH_PG", "postgresql://postgres@127.0.0.1:5432")
PAGE = 5000


def _admin():
    import psycopg

    return psycopg.connect(f"{SERVER}/postgres", autocommit=True, connect_timeout=3)


@contextlib.contextmanager
def database() -> Iterator[str]:
    """The URL of a new empty database, dropped afterwards."""
    name = f"tablelog_bench_{uuid.uuid4().hex[:12]}"
    with _admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{SERVER}/{name}"
    finally:
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _raw_table(db, name: str) -> None:
    """A table shaped as eventsourcing's PostgreSQL events table."""
    db.execute(
        f"CREATE TABLE {name} (originator_id uuid NOT NULL, originator_version bigint "
        "NOT NULL, topic text, state bytea, notification_id bigserial, "
        "PRIMARY KEY (originator_id, originator_version))"
    )


def _rows(url: str) -> list[tuple]:
    import psycopg

    with psycopg.connect(url) as db:
        return db.execute(
            "SELECT originator_id, originator_version, topic, state "
            "FROM tablelog_events ORDER BY notification_id"
        ).fetchall()


def bench_bulk_record(quick: bool) -> list[Result]:
    import psycopg

    from tablelog.store import open_recorder

    games = scripts(300 if quick else 3000, seed=1)
    saving, baseline = float("inf"), float("inf")
    for _ in range(3):
        matches = build(games)
        with database() as url:
            recorder = open_recorder(url)
            warm_up = simulated(2, seed=99)  # connections, statements
            recorder.save(*warm_up)
            start = time.perf_counter()
            for i in range(0, len(matches), 500):
                recorder.save(*matches[i : i + 500])
            saving = min(saving, time.perf_counter() - start)
            recorder.close()
            rows = _rows(url)[sum(m.version for m in warm_up) :]
            with psycopg.connect(url) as db:
                _raw_table(db, "raw_events")
                db.commit()
                start = time.perf_counter()
                with (
                    db.cursor() as cursor,
                    cursor.copy(
                        "COPY raw_events (originator_id, originator_version, topic, state) "
                        "FROM STDIN"
                    ) as copy,
                ):
                    for row in rows:
                        copy.write_row(row)
                db.commit()
                baseline = min(baseline, time.perf_counter() - start)
    events = sum(m.version for m in matches)
    return [
        Result(
            "PostgreSQL bulk record: store checked matches",
            events / saving,
            "events/s",
            events / baseline,
            f"{events} events, 500 matches per transaction; "
            "baseline: one psycopg COPY of the same rows",
        )
    ]


def bench_replay(quick: bool) -> list[Result]:
    import psycopg

    from tablelog.store import open_recorder

    with database() as url:
        recorder = open_recorder(url)
        result = replays(
            recorder,
            200 if quick else 1000,
            lambda: psycopg.connect(url),
            "SELECT topic, state FROM tablelog_events WHERE originator_id=%s "
            "ORDER BY originator_version",
            lambda match_id: match_id,
        )
        recorder.close()
    result.name = f"PostgreSQL {result.name}"
    result.note += "; baseline: psycopg select + json + rules fold per match"
    return [result]


def bench_move_latency(quick: bool) -> list[Result]:
    import psycopg

    from tablelog.store import open_recorder

    wanted = 20_000 if quick else 100_000
    with database() as url:
        recorder = open_recorder(url)
        stored, seed = 0, 100
        while stored < wanted:
            batch = simulated(500, seed=seed)
            recorder.save(*batch)
            stored += sum(m.version for m in batch)
            seed += 1
        with psycopg.connect(url, autocommit=True) as db:
            results = moves_at_the_table(
                recorder,
                lambda match_id: [
                    row[0]
                    for row in db.execute(
                        "SELECT state FROM tablelog_events WHERE originator_id=%s "
                        "ORDER BY originator_version",
                        (match_id,),
                    )
                ],
            )
        recorder.close()
    for result in results:
        result.name = f"PostgreSQL {result.name}"
    note = f"store of {stored:,} events; baseline: psycopg select of the match + rules fold"
    results[0].note = note
    return results


def raw_read(url: str) -> int:
    """The baseline: page through the events with plain psycopg and json-decode each row."""
    import psycopg

    with psycopg.connect(url) as db:
        return read_after(db, 0)


def read_after(db: Any, position: int) -> int:
    """Page through the events after `position` on an open connection, json-decoding each."""
    return decode_pages(
        lambda after: db.execute(
            "SELECT notification_id, originator_id, originator_version, topic, "
            "state FROM tablelog_events WHERE notification_id > %s "
            "ORDER BY notification_id LIMIT %s",
            (after, PAGE),
        ).fetchall(),
        position,
    )


def _store_random_matches(recorder: SigningRecorder, wanted: int) -> None:
    """Save random Topitop, Topiary and Topas matches, a batch at a time, until at least
    `wanted` events are stored."""
    from .bench_projections import BATCH, GAMES
    from .matches import random_match

    rng, stored = random.Random(1), 0
    while stored < wanted:
        batch = [random_match(*GAMES[n % len(GAMES)], rng, cap=120) for n in range(BATCH)]
        recorder.save_new(batch)
        stored += sum(m.version for m in batch)


def _read_ended(db: Any, position: int) -> None:
    """The raw read on an open connection (a new one would cost more than the read), its
    transaction ended as the projection's reads end theirs."""
    read_after(db, position)
    db.rollback()


def _one_match_result(recorder: SigningRecorder, projection: TablesProjection, url: str) -> Result:
    import psycopg

    with psycopg.connect(url) as db:
        time_one_match(recorder, projection, partial(_read_ended, db))  # warm the statement caches
        timings = [
            time_one_match(recorder, projection, partial(_read_ended, db))
            for _ in range(ONE_MATCH_RUNS)
        ]
    return Result(
        "PostgreSQL projection of one new match",
        min(t[0] for t in timings) * 1000,
        "ms",
        min(t[1] for t in timings) * 1000,
        f"17 events (15 moves + start + end), polling catch-up, fastest of {ONE_MATCH_RUNS} "
        "matches; baseline: psycopg read + json.loads of the same 17 rows on an open connection",
    )


def _runner_catch_up(
    recorder: SigningRecorder, projection: TablesProjection, batch: int, upto: int
) -> float:
    """Events per second of the library's runner catching up to event `upto`, writing `batch`
    events per transaction."""
    from tablelog.projections.postgres import LiveTables, follow

    projection.reset()
    LiveTables.batch = batch
    started = time.perf_counter()
    with follow(recorder) as runner:
        runner.wait(upto, timeout=3600)
        return upto / (time.perf_counter() - started)


def bench_projection(quick: bool) -> list[Result]:
    from tablelog.projections.postgres import LiveTables
    from tablelog.projections.runner import TablesProjection
    from tablelog.store import open_recorder

    wanted = 20_000 if quick else 100_000
    with database() as url:
        recorder = open_recorder(url)
        _store_random_matches(recorder, wanted)
        events = recorder.recorder.max_notification_id() or 0
        raw_s = best_of(3, lambda: raw_read(url))
        raw_cpu = cpu_of(lambda: raw_read(url))

        projection = TablesProjection(recorder)
        projection.reset()
        started, cpu = time.perf_counter(), time.process_time()
        projection.catch_up()
        polling_s, polling_cpu = time.perf_counter() - started, time.process_time() - cpu

        one_match = _one_match_result(recorder, projection, url)
        default = LiveTables.batch
        some = min(events, 10_000)  # one transaction per event is slow: time the first ones
        try:
            runner_rate = _runner_catch_up(recorder, projection, default, events)
            one_by_one = _runner_catch_up(recorder, projection, 1, some)
        finally:
            LiveTables.batch = default
        recorder.close()
    note = f"{events:,} events (Topitop, Topiary, Topas); baseline: raw paged psycopg read + json"
    return [
        Result(
            "PostgreSQL projection catch-up (polling, 5,000 per page)",
            events / polling_s,
            "events/s",
            events / raw_s,
            f"{note}; CPU in this process {polling_cpu:.2f} s against the baseline's "
            f"{raw_cpu:.2f} s (the server's upserts are not in it)",
        ),
        one_match,
        Result(
            f"PostgreSQL projection catch-up (library runner, {default} per write)",
            runner_rate,
            "events/s",
            events / raw_s,
            "",
        ),
        Result(
            "PostgreSQL projection catch-up (library runner, 1 per write)",
            one_by_one,
            "events/s",
            events / raw_s,
            f"one transaction per event (its first {some:,} events): what batching saves",
        ),
    ]


def run(quick: bool) -> list[Result]:
    try:
        _admin().close()
    except Exception as err:  # noqa: BLE001 - whatever stops the connection, say it
        print(
            f"  bench_postgres: no PostgreSQL server answers at {SERVER} ({err}); skipped",
            file=sys.stderr,
        )
        return []
    return (
        bench_bulk_record(quick)
        + bench_replay(quick)
        + bench_move_latency(quick)
        + bench_projection(quick)
    )
