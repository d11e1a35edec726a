"""A balance study end to end, per game, beside the cost of merely storing and reading its rows.

For each game: `simulate` a fixed number of matches with random bots (one worker) into a fresh
SQLite store, bring the projection tables up to date and answer `stats` for the game (the same
`Queries.report` the command line prints). The baseline, measured in the same run on the very
rows that study stored: a raw sqlite3 executemany of them into a table of the store's shape
(`bench_simulation.raw_insert_seconds`) plus a raw paged read and json decode of them
(`bench_projections.raw_read`). The ratio is what the study costs beyond the store itself:
playing (bots and rules), the recorder's checks, the projection and the statistics. The
statistics libraries are imported and warmed up before the timed runs (a once-per-process cost).
"""

from __future__ import annotations

import time

from tablelog.domain.games import GAMES
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder

from .bench_projections import raw_read
from .bench_simulation import SEED, fresh_store, raw_insert_seconds, stored_rows
from .harness import Result, best_of

MATCHES = {  # per game: about a minute of a quiet machine's time at full size, all games
    "topitop": 400,
    "topiary": 300,
    "topas": 300,
    "total-landscaping": 100,
    "geoshapes": 60,
}


def study(game: str, matches: int) -> tuple[str, float, dict[str, float], int, int]:
    """Time the study of `game`; return its store, its seconds, the seconds of each part, the
    events stored and the matches the report counted."""
    from tablelog.projections.queries import Queries

    store = fresh_store()
    recorder = open_recorder(store)
    begin = time.perf_counter()
    report = simulate(recorder, make_plan(game, matches, SEED), workers=1, progress=False)
    simulated = time.perf_counter()
    queries = Queries(recorder)
    tables = queries.tables()
    projected = time.perf_counter()
    answer = queries.report(game)
    done = time.perf_counter()
    assert tables is not None and answer[game]["matches"] > 0  # the study answered
    recorder.close()
    parts = {
        "simulate": simulated - begin,
        "project": projected - simulated,
        "stats": done - projected,
    }
    return store, done - begin, parts, report.events, answer[game]["matches"]


def baseline_seconds(store: str) -> float:
    """The raw insert of the store's rows into a fresh table plus the raw read and decode of
    them, each the fastest of three."""
    ddl, rows = stored_rows(store)
    return raw_insert_seconds(ddl, rows) + best_of(3, lambda: raw_read(store))


def per_game(game: str, matches: int, repeats: int = 3) -> Result:
    # The fastest of a few studies (each a fresh store, the same seeded matches) beside the
    # fastest baseline, the two taken in turns: a burst of other work then spoils one run,
    # not the ratio (measured one after the other, the baseline of 4,704 events swung 44-67 ms
    # between runs while the study's seconds held).
    runs, baseline = [], float("inf")
    for _ in range(repeats):
        runs.append(study(game, matches))
        baseline = min(baseline, baseline_seconds(runs[-1][0]))
    _, seconds, parts, events, counted = min(runs, key=lambda run: run[1])
    split = ", ".join(f"{name} {spent:.2f} s" for name, spent in parts.items())
    return Result(
        f"balance study {game}",
        seconds,
        "s",
        baseline=baseline,
        note=f"{matches} matches ({counted} counted), {events:,} events, random bots, one "
        f"worker, fastest of {repeats} studies: {split}; baseline, taken in turns with them: raw "
        "insert + raw paged read and decode of the same rows",
    )


def run(quick: bool) -> list[Result]:
    scale = 0.1 if quick else 1.0
    # Warm up first (untimed): importing pandas, scipy and statsmodels and pandas' first calls
    # cost seconds once per process, which a tiny study would otherwise mostly measure.
    for game in GAMES:
        study(game, 2)
    return [
        per_game(game, max(12, int(MATCHES.get(game, 100) * scale)), 1 if quick else 3)
        for game in GAMES
    ]
