"""Dashboard callbacks with many matches in the store: each page's main callback, timed beside
plain `pandas.read_sql` of the same projection rows in the same run.

The store (100,000 matches; 2,000 with --quick) is built once and kept under /tmp. Simulating
and projecting 100,000 real matches would take hours (GeoShapes plays ~2 matches/s), so a few
hundred real matches of every game are simulated and projected, and the rest are copies of
their projection rows under new match ids and new player names (a pool of 300 per game), with
ratings renumbered per player. The pages read only projection tables (the Match page replays
one real match), so the copies cost them exactly what real matches would. Copies have no
`moves` rows: no page reads that table.

Each page is timed as a person meets it: a VISIT is every callback the page fires when it opens
(dropdowns first, then the figures, then the Match page's board), sent as HTTP requests to the
app (Flask's test client: Dash's own routing and JSON encoding of the figures included, the
network not). Three timings per page, each the best of a few runs:
- "first visit": in a fresh process, right after `create_app` (the server has started, nothing
  read or computed yet; the operating system's file cache is warm, as on a server in use);
- "after new events": the app's remembered reads and figures dropped, in a warm process: what
  the first visitor meets after new events were projected;
- "repeat": the same visit again with no new events (another visitor, or the live pages' poll).
The baseline is `pandas.read_sql` of all the rows of the tables the page's figures are drawn
from (what a page that read them all would cost at least).
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from functools import partial
from pathlib import Path
from typing import Any
from uuid import uuid4

from .harness import Result, best_of

STORE = "/tmp/tablelog-bench-dashboard-{n}.sqlite"
BUILT = "bench_dashboard_built"  # written last: the store is complete
REAL = {"topitop": 120, "topiary": 120, "topas": 120, "total-landscaping": 30, "geoshapes": 6}
REAL_QUICK = {"topitop": 40, "topiary": 40, "topas": 40, "total-landscaping": 10, "geoshapes": 2}
PLAYERS_PER_GAME = 300


def build(path: str, total: int, real: dict[str, int]) -> None:
    """Simulate and project `real` matches, then copy their rows up to `total` matches."""
    from tablelog.projections.runner import TablesProjection
    from tablelog.projections.tables import TABLES
    from tablelog.projections.view import upsert_statement
    from tablelog.simulation import make_plan, simulate
    from tablelog.store import open_recorder

    recorder = open_recorder(path)
    for game, matches in real.items():
        print(f"  simulating {matches} {game} matches", file=sys.stderr, flush=True)
        simulate(recorder, make_plan(game, matches, seed=2024), workers=1, progress=False)
    TablesProjection(recorder).catch_up()
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        rows = {
            n: [dict(r) for r in db.execute(f"SELECT * FROM {TABLES[n].sql_name}")] for n in COPIED
        }
        print(f"  copying rows up to {total:,} matches", file=sys.stderr, flush=True)
        out = _copies(rows, total)
        for name in COPIED:
            table = TABLES[name]
            db.executemany(
                upsert_statement(table, "?"), [tuple(r[c] for c in table.names) for r in out[name]]
            )


COPIED = ["matches", "scores", "score_categories", "components", "ratings"]


def _copies(rows: dict[str, list[dict[str, Any]]], total: int) -> dict[str, list[dict[str, Any]]]:
    """New rows of every copied table, for copies of ended matches up to `total` matches."""
    templates = [m for m in rows["matches"] if m["status"] == "ended"]
    by_match: dict[str, dict] = {n: {} for n in COPIED[1:]}
    for name in COPIED[1:]:
        for row in rows[name]:
            by_match[name].setdefault(row["match_id"], []).append(row)
    played: dict[tuple[str, str], int] = {}
    for row in rows["ratings"]:
        key = (row["game"], row["player"])
        played[key] = max(played.get(key, 0), row["after_match"])
    rng = random.Random(7)
    out: dict[str, list[dict[str, Any]]] = {n: [] for n in COPIED}
    for _ in range(total - len(rows["matches"])):
        _copy_match(rng.choice(templates), by_match, played, rng, out)
    return out


def _copy_match(
    template: dict[str, Any],
    by_match: dict[str, dict],
    played: dict[tuple[str, str], int],
    rng: random.Random,
    out: dict[str, list[dict[str, Any]]],
) -> None:
    """Append one copy of `template`'s rows to `out`: a new match id, its seats renamed to
    players of the game's pool, each rated player's match count carried on."""
    new_id, old_id = str(uuid4()), template["match_id"]
    seats = json.loads(template["seats"])
    pool = [f"{template['game']}-player-{k:03d}" for k in range(PLAYERS_PER_GAME)]
    rename = dict(zip(seats, rng.sample(pool, len(seats))))
    out["matches"].append(
        {
            **template,
            "match_id": new_id,
            "seats": json.dumps([rename[s] for s in seats]),
            "winners": json.dumps([rename[w] for w in json.loads(template["winners"])]),
            "ranking": json.dumps(
                [[rename[p] for p in group] for group in json.loads(template["ranking"])]
            ),
        }
    )
    for name in COPIED[1:]:
        for row in by_match[name].get(old_id, []):
            copy = {
                **row,
                "match_id": new_id,
                "player": rename.get(row["player"], row["player"]),
            }
            if name == "ratings":
                key = (copy["game"], copy["player"])
                played[key] = played.get(key, 0) + 1
                copy["after_match"] = played[key]
            out[name].append(copy)


def store(quick: bool) -> str:
    """The benchmark store's path, built first unless a complete one is there."""
    total = 2_000 if quick else 100_000
    path = STORE.format(n=total)
    if not _complete(path):
        print(
            f"building the dashboard benchmark store ({total:,} matches) at {path}",
            file=sys.stderr,
            flush=True,
        )
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
        return (
            db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (BUILT,)).fetchone()
            is not None
        )


# ---- visiting pages through the app's HTTP callback route ----------------------------------------


def callback(client, outputs, inputs, state=()):
    """POST one Dash callback: `outputs` as (id, property), `inputs` and `state` as (id,
    property, value). The response's values by output id, or {} when the callback did not
    update (PreventUpdate)."""
    multi = len(outputs) > 1
    body = {
        "output": (".." + "...".join(f"{i}.{p}" for i, p in outputs) + "..")
        if multi
        else f"{outputs[0][0]}.{outputs[0][1]}",
        "outputs": [{"id": i, "property": p} for i, p in outputs]
        if multi
        else {"id": outputs[0][0], "property": outputs[0][1]},
        "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
        "changedPropIds": [f"{i}.{p}" for i, p, _ in inputs],
        "state": [{"id": i, "property": p, "value": v} for i, p, v in state],
    }
    response = client.post("/_dash-update-component", json=body)
    if response.status_code == 204:
        return {}
    if response.status_code != 200:
        raise RuntimeError(f"callback {body['output']}: HTTP {response.status_code}")
    return {i: props for i, props in response.get_json()["response"].items()}


def visit(client, page: str, position: int, match_id: str = "", step: int = 0) -> None:
    """Every callback a page fires when it opens, in order, each fed the one before."""
    if page == "overview":
        _visit_overview(client, position)
    elif page == "balance":
        _visit_balance(client, position)
    elif page == "players":
        _visit_players(client, position)
    elif page == "match":
        _visit_match(client, position, match_id, step)


def _visit_overview(client, position: int) -> None:
    """The Overview page: its figures and table in one callback."""
    callback(
        client,
        [
            ("overview-stats", "children"),
            ("overview-games", "figure"),
            ("overview-recent", "rowData"),
        ],
        [("overview-position", "data", position)],
    )


def _visit_balance(client, position: int) -> None:
    """The Balance page: game, seat count and variant dropdowns, then its figures."""
    game = callback(
        client,
        [("balance-game", "options"), ("balance-game", "value")],
        [("balance-position", "data", position)],
        [("balance-game", "value", None)],
    )["balance-game"]["value"]
    players = callback(
        client,
        [("balance-players", "options"), ("balance-players", "value")],
        [("balance-game", "value", game), ("balance-players", "value", None)],
    )["balance-players"]["value"]
    variant = callback(
        client,
        [("balance-variant", "options"), ("balance-variant", "value")],
        [
            ("balance-game", "value", game),
            ("balance-players", "value", players),
            ("balance-variant", "value", None),
        ],
    )["balance-variant"]["value"]
    callback(
        client,
        [
            ("balance-summary", "children"),
            ("balance-seats", "figure"),
            ("balance-scores", "figure"),
            ("balance-components", "figure"),
            ("balance-length", "figure"),
        ],
        [
            ("balance-game", "value", game),
            ("balance-players", "value", players),
            ("balance-variant", "value", variant),
            ("balance-position", "data", position),
            ("balance-kind", "value", "all"),  # every kind of match: logged, sheets, simulated
        ],
    )


def _visit_players(client, position: int) -> None:
    """The Players page: the game dropdown, the table and chosen players, then ratings."""
    game = callback(
        client,
        [("players-game", "options"), ("players-game", "value")],
        [("players-position", "data", position)],
        [("players-game", "value", None)],
    )["players-game"]["value"]
    chosen = callback(
        client,
        [
            ("players-table", "rowData"),
            ("players-chosen", "options"),
            ("players-chosen", "value"),
        ],
        [("players-game", "value", game), ("players-position", "data", position)],
        [("players-chosen", "value", None)],
    )["players-chosen"]["value"]
    callback(
        client,
        [("players-ratings", "figure")],
        [
            ("players-game", "value", game),
            ("players-chosen", "value", chosen),
            ("players-position", "data", position),
        ],
    )


def _visit_match(client, position: int, match_id: str, step: int) -> None:
    """The Match page: the match picker, the match's log, then the board at `step` (the last
    step when 0)."""
    callback(
        client,
        [("match-pick", "options"), ("match-pick", "value")],
        [("match-pick", "search_value", None)],
        [("match-pick", "value", match_id)],
    )
    loaded = callback(
        client,
        [(i, p) for i, p in MATCH_LOAD],
        [
            ("match-pick", "value", match_id),
            ("match-position", "data", position),
            ("match-back", "n_clicks", None),
            ("match-forward", "n_clicks", None),
        ],
        [
            ("match-step", "value", None),
            ("match-step", "max", None),
            ("match-log-data", "data", None),
        ],
    )
    log = loaded["match-log-data"]["data"]
    callback(
        client,
        [("match-board", "figure"), ("match-score", "figure"), ("match-caption", "children")],
        [("match-step", "value", step if step else len(log) - 1)],
        [("match-pick", "value", match_id), ("match-log-data", "data", log)],
    )


MATCH_LOAD = [
    ("match-step", "max"),
    ("match-step", "value"),
    ("match-step", "marks"),
    ("match-log", "rowData"),
    ("match-log-data", "data"),
    ("match-claims", "rowData"),
    ("match-audit", "children"),
    ("match-summary", "children"),
    ("match-values", "children"),
]

FIRST_VISIT = """
import sys, time
from benchmarks.bench_dashboard import visit
from tablelog.dashboard.app import create_app
app = create_app(sys.argv[1], refresh_every=None)
source = app.server.extensions["tablelog"]
client = app.server.test_client()
start = time.perf_counter()
visit(client, sys.argv[2], source.position(), sys.argv[3])
print(time.perf_counter() - start)
"""


def first_visit(path: str, page: str, match_id: str) -> float:
    """Seconds of a page's visit in a fresh process, right after the app was created."""
    import subprocess

    root = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", FIRST_VISIT, path, page, match_id],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def run(quick: bool) -> list[Result]:
    from tablelog.dashboard.app import create_app

    path = store(quick)
    app = create_app(path, refresh_every=None)
    source = app.server.extensions["tablelog"]
    client = app.server.test_client()
    position = source.position()
    db = sqlite3.connect(path)
    repeats, firsts = (3, 1) if quick else (5, 3)
    total = db.execute("SELECT COUNT(*) FROM projection_matches").fetchone()[0]
    note = f"{total:,} matches"
    # A real Topiary match (copies have no stored events); its last step is shown on opening.
    match_id, moves = db.execute(
        "SELECT m.match_id, m.moves FROM projection_matches m JOIN projection_moves v "
        "ON v.match_id = m.match_id WHERE m.game = 'topiary' LIMIT 1"
    ).fetchone()
    results = []
    for page, (baseline, what) in _baselines(db, match_id).items():
        base_ms = 1000 * best_of(repeats, baseline)
        first = min(first_visit(path, page, match_id) for _ in range(firsts))
        results += _visit_results(
            page,
            partial(visit, client, page, position, match_id),
            source,
            repeats,
            first,
            base_ms,
            f"{note}; fresh process right after create_app; every callback "
            f"the page fires on opening, over HTTP; baseline: "
            f"pandas.read_sql of {what}",
            note,
        )
    new_step = _slider(client, match_id, moves, position)
    results.append(
        Result(
            "dashboard match: slider to a new step",
            1000 * best_of(repeats, new_step),
            "ms",
            results[-1].baseline,
            f"{note}; a Topiary match of {moves} moves: replay, board and score",
        )
    )
    db.close()
    return results


def _visit_results(
    page: str,
    visit_page: Any,
    source: Any,
    repeats: int,
    first: float,
    base_ms: float,
    first_note: str,
    note: str,
) -> list[Result]:
    """A page's three timings: the first visit (`first` seconds, timed in a fresh process),
    after new events (remembered reads and figures dropped), and a repeat visit."""

    def again():
        source.forget()
        visit_page()

    results = [Result(f"dashboard {page}: first visit", 1000 * first, "ms", base_ms, first_note)]
    results.append(
        Result(
            f"dashboard {page}: after new events",
            1000 * best_of(repeats, again),
            "ms",
            base_ms,
            f"{note}; remembered reads and figures dropped, warm process",
        )
    )
    visit_page()
    results.append(
        Result(
            f"dashboard {page}: repeat",
            1000 * best_of(repeats, visit_page),
            "ms",
            base_ms,
            f"{note}; no new events since the last visit",
        )
    )
    return results


def _baselines(db: sqlite3.Connection, match_id: str) -> dict[str, tuple[Any, str]]:
    """Each page's baseline: pandas reading the rows the page shows, and what they are."""
    import pandas as pd

    def read_sql(sql: str, *params) -> object:
        return pd.read_sql(sql, db, params=params)

    # The largest group (Balance opens on it) and its game (Players opens on the game with the
    # most rated players' rows; Balance on the game with most matches: the same here).
    game, players, variant = db.execute(
        "SELECT game, players, variant FROM projection_matches GROUP BY game, players, variant "
        "ORDER BY COUNT(*) DESC LIMIT 1"
    ).fetchone()
    pick = "WHERE game = ? AND players = ? AND variant = ?"
    uuid_hex = match_id.replace("-", "")
    return {
        "overview": (lambda: read_sql("SELECT * FROM projection_matches"), "the matches table"),
        "balance": (
            lambda: [
                read_sql(f"SELECT * FROM projection_{t} {pick}", game, players, variant)
                for t in ("matches", "scores", "score_categories", "components")
            ],
            f"the {game} rows of matches, scores, score_categories, components",
        ),
        "players": (
            lambda: [
                read_sql(f"SELECT * FROM projection_{t} WHERE game = ?", game)
                for t in ("scores", "ratings")
            ],
            f"the {game} rows of scores and ratings",
        ),
        "match": (
            lambda: read_sql("SELECT * FROM stored_events WHERE originator_id = ?", uuid_hex),
            "the match's stored events",
        ),
    }


def _slider(client: Any, match_id: str, moves: int, position: int) -> Any:
    """Moving the Match page's slider: a step not shown before (a replay to it, the board, the
    score), as a person stepping through a match meets it."""
    steps = iter(range(1, 10_000))
    log = callback(
        client,
        MATCH_LOAD,
        [
            ("match-pick", "value", match_id),
            ("match-position", "data", position),
            ("match-back", "n_clicks", None),
            ("match-forward", "n_clicks", None),
        ],
        [
            ("match-step", "value", None),
            ("match-step", "max", None),
            ("match-log-data", "data", None),
        ],
    )["match-log-data"]["data"]

    def new_step():
        callback(
            client,
            [("match-board", "figure"), ("match-score", "figure"), ("match-caption", "children")],
            [("match-step", "value", 1 + next(steps) % max(1, moves))],
            [("match-pick", "value", match_id), ("match-log-data", "data", log)],
        )

    return new_step
