"""Dashboard callbacks with many matches in the store: each page's main callback, timed beside
plain `pandas.read_sql` of the same projection rows in the same run.

The store (100,000 matches; 2,000 with --quick) is built once and kept under /tmp. Simulating
and projecting 100,000 real matches would take hours (GeoShapes plays ~2 matches/s), so a few
hundred real matches of every game are simulated and projected, and the rest are copies of
their projection rows under new match ids and new player names (a pool of 300 per game), with
ratings renumbered per player. The pages read only projection tables (the Match page replays
one real match), so the copies cost them exactly what real matches would. Copies have no
`moves` rows: no page reads that table.

Timings are the best of a few runs. "cold" clears the app's read cache first (the first request
after new events arrive); "cached" is a repeat with no new events (the live pages' poll).
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path
from uuid import uuid4

from .harness import Result, best_of

STORE = "/tmp/tablelog-bench-dashboard-{n}.sqlite"
BUILT = "bench_dashboard_built"  # written last: the store is complete
REAL = {"topitop": 120, "topiary": 120, "topas": 120, "total-landscaping": 30, "geoshapes": 6}
REAL_QUICK = {"topitop": 40, "topiary": 40, "topas": 40, "total-landscaping": 10,
              "geoshapes": 2}
PLAYERS_PER_GAME = 300


def build(path: str, total: int, real: dict[str, int]) -> None:
    """Simulate and project `real` matches, then copy their rows up to `total` matches."""
    from projections.runner import TablesProjection
    from projections.tables import TABLES
    from projections.view import upsert_statement
    from tablelog.simulate import make_plan, simulate
    from tablelog.store import open_recorder

    recorder = open_recorder(path)
    for game, matches in real.items():
        print(f"  simulating {matches} {game} matches", file=sys.stderr, flush=True)
        simulate(recorder, make_plan(game, matches, seed=2024), workers=1, progress=False)
    TablesProjection(recorder).catch_up()
    names = ["matches", "scores", "score_categories", "components", "ratings"]
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        rows = {n: [dict(r) for r in db.execute(f"SELECT * FROM {TABLES[n].sql_name}")]
                for n in names}
        templates = [m for m in rows["matches"] if m["status"] == "ended"]
        by_match = {n: {} for n in names[1:]}
        for name in names[1:]:
            for row in rows[name]:
                by_match[name].setdefault(row["match_id"], []).append(row)
        played: dict[tuple[str, str], int] = {}
        for row in rows["ratings"]:
            key = (row["game"], row["player"])
            played[key] = max(played.get(key, 0), row["after_match"])
        rng = random.Random(7)
        out = {n: [] for n in names}
        print(f"  copying rows up to {total:,} matches", file=sys.stderr, flush=True)
        for _ in range(total - len(rows["matches"])):
            template = rng.choice(templates)
            new_id, old_id = str(uuid4()), template["match_id"]
            seats = json.loads(template["seats"])
            pool = [f"{template['game']}-player-{k:03d}" for k in range(PLAYERS_PER_GAME)]
            rename = dict(zip(seats, rng.sample(pool, len(seats))))
            out["matches"].append({**template, "match_id": new_id,
                                   "seats": json.dumps([rename[s] for s in seats]),
                                   "winners": json.dumps([rename[w] for w in json.loads(
                                       template["winners"])]),
                                   "ranking": json.dumps([[rename[p] for p in group] for group in
                                                          json.loads(template["ranking"])])})
            for name in names[1:]:
                for row in by_match[name].get(old_id, []):
                    copy = {**row, "match_id": new_id, "player": rename.get(row["player"],
                                                                            row["player"])}
                    if name == "ratings":
                        key = (copy["game"], copy["player"])
                        played[key] = played.get(key, 0) + 1
                        copy["after_match"] = played[key]
                    out[name].append(copy)
        for name in names:
            table = TABLES[name]
            db.executemany(upsert_statement(table, "?"),
                           [tuple(r[c] for c in table.names) for r in out[name]])


def store(quick: bool) -> str:
    """The benchmark store's path, built first unless a complete one is there."""
    total = 2_000 if quick else 100_000
    path = STORE.format(n=total)
    if not _complete(path):
        print(f"building the dashboard benchmark store ({total:,} matches) at {path}",
              file=sys.stderr, flush=True)
        for leftover in (path, path + "-wal", path + "-shm"):
            Path(leftover).unlink(missing_ok=True)
        build(path, total, REAL_QUICK if quick else REAL)
        with sqlite3.connect(path) as db:
            db.execute(f"CREATE TABLE {BUILT} (matches INTEGER)")
            db.execute(f"INSERT INTO {BUILT} VALUES (?)", (total,))
    return path


def _complete(path: str) -> bool:
    """A store whose build ran to the end (an interrupted one has no BUILT table)."""
    if not Path(path).exists():
        return False
    with sqlite3.connect(path) as db:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (BUILT,)).fetchone() \
            is not None


def run(quick: bool) -> list[Result]:
    import pandas as pd

    from dashboard.app import create_app

    path = store(quick)
    app = create_app(path, refresh_every=None)
    source = app.server.extensions["tablelog"]
    pages = {name: sys.modules[f"dashboard.pages.{name}"]
             for name in ("overview", "balance", "players", "match")}
    db = sqlite3.connect(path)
    repeats = 3 if quick else 5
    total = len(source.table("matches", columns=["match_id"]))
    note = f"{total:,} matches"

    def read_sql(sql: str, *params) -> object:
        return pd.read_sql(sql, db, params=params)

    def cold(work):
        def again():
            source.forget()
            work()
        return again

    results = []

    def measure(name: str, work, baseline, what: str) -> None:
        results.append(Result(f"dashboard {name} (cold)", 1000 * best_of(repeats, cold(work)),
                              "ms", 1000 * best_of(repeats, baseline), f"{note}; baseline: "
                              f"pandas.read_sql of {what}"))
        work()
        results.append(Result(f"dashboard {name} (cached)", 1000 * best_of(repeats, work), "ms",
                              results[-1].baseline, f"{note}; no new events since last read"))

    # Overview: counts per game and status, the 50 latest matches.
    measure("overview", lambda: pages["overview"].overview(source),
            lambda: read_sql("SELECT * FROM projection_matches"), "the matches table")

    # Balance: the game, player count and variant with the most matches.
    game, players, variant = db.execute(
        "SELECT game, players, variant FROM projection_matches GROUP BY game, players, variant "
        "ORDER BY COUNT(*) DESC LIMIT 1").fetchone()
    pick = "WHERE game = ? AND players = ? AND variant = ?"
    measure("balance", lambda: pages["balance"].figures_for(source, game, players, variant),
            lambda: [read_sql(f"SELECT * FROM projection_{t} {pick}", game, players, variant)
                     for t in ("matches", "scores", "score_categories", "components")],
            f"the {game} rows of matches, scores, score_categories, components")

    # Players: results table and the ratings of the five best.
    def players_page():
        scores, ratings = pages["players"]._tables(source, game)
        summary = pages["players"].results(scores, ratings)
        pages["players"].ratings_figure(source, game, list(summary["player"][:5]))
    measure("players", players_page,
            lambda: [read_sql(f"SELECT * FROM projection_{t} WHERE game = ?", game)
                     for t in ("scores", "ratings")],
            f"the {game} rows of scores and ratings")

    # Match: a real Topiary match, half way through; the baseline reads its stored events.
    match_id, moves = db.execute(
        "SELECT m.match_id, m.moves FROM projection_matches m JOIN projection_moves v "
        "ON v.match_id = m.match_id WHERE m.game = 'topiary' LIMIT 1").fetchone()
    uuid_hex = match_id.replace("-", "")
    results.append(Result(
        "dashboard match step (replay + board + score)",
        1000 * best_of(repeats, lambda: pages["match"].step_figures(source, match_id,
                                                                     moves // 2)),
        "ms", 1000 * best_of(repeats, lambda: read_sql(
            "SELECT * FROM stored_events WHERE originator_id = ?", uuid_hex)),
        f"{note}; a Topiary match at move {moves // 2}; baseline: pandas.read_sql of its "
        "stored events"))
    results.append(Result(
        "dashboard match load (event log + audit)",
        1000 * best_of(repeats, lambda: pages["match"].match_view(source, match_id)), "ms",
        results[-1].baseline, note))
    db.close()
    return results
