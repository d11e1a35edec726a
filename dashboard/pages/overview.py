"""Overview: how many matches of each game, their status, and the latest matches."""

from __future__ import annotations

import dash
from dash import Input, Output, dcc, html

from tablelog.dashboard import data
from tablelog.dashboard.callbacks import takes
from tablelog.dashboard.components import (
    LIVE_INTERVAL_MS,
    NUMBER,
    TEXT,
    WHEN,
    graph,
    grid,
    live,
    names,
    phone_columns,
    records,
    stat,
)
from tablelog.dashboard.figures import overview as figures
from tablelog.dashboard.figures.style import STATUS_COLOURS
from tablelog.domain.plain import PlainDict
from tablelog.domain.wording import game_name

dash.register_page(__name__, path="/", name="Overview", order=0, title="Tablelog: overview")

RECENT = 50
COLUMNS: list[PlainDict] = [
    {"field": "played", "headerName": "Played", **WHEN},
    {"field": "game", "headerName": "Game", "minWidth": 140},
    {"field": "seats", "headerName": "Players", **TEXT},
    {"field": "status", "headerName": "Status", "minWidth": 105},
    {"field": "moves", "headerName": "Moves", **NUMBER},
    {"field": "winners", "headerName": "Won", **TEXT},
    # Ids are UUIDs the recorder made, so this is the one cell that may be a link.
    {
        "field": "open",
        "headerName": "Match",
        "cellRenderer": "markdown",
        "cellRendererParams": {"linkTarget": "_self"},  # a link opens the match in this tab
        "minWidth": 110,
    },
]
# On a phone: the way into a match first, then what a player scans the list for.
PHONE = {"open": 84, "game": 96, "status": 86, "winners": 86}


def layout(**_query):
    return html.Div(
        [
            html.H2("Overview"),
            html.P("Every match in the store, updated as events arrive.", className="lead"),
            html.Div(id="overview-stats", className="stats"),
            graph("overview-games"),
            html.Div(
                [
                    html.H3("Recent matches", style={"margin": "4px"}),
                    grid(
                        "overview-recent",
                        COLUMNS,
                        empty="No match yet: record one, or build the demo.",
                    ),
                ],
                className="card",
            ),
            dcc.Interval(id="overview-tick", interval=LIVE_INTERVAL_MS),
            dcc.Store(id="overview-position"),
        ]
    )


def register(app: dash.Dash, source) -> None:
    live(app, source, "overview")
    phone_columns(app, "overview-recent", PHONE)

    @app.callback(
        Output("overview-stats", "children"),
        Output("overview-games", "figure"),
        Output("overview-recent", "rowData"),
        Input("overview-position", "data"),
    )
    @takes()
    def refresh(_position):
        return overview(source)


def overview(source):
    """The page's content, worked out once per tracked position (also what the benchmark
    times)."""
    return source.remember(("overview",), lambda: _content(source))


def _content(source):
    """Counts per game and status (one GROUP BY) and the 50 latest matches (a LIMIT query)."""
    counts = data.counts(source, "matches", ["game", "status"])
    counts = counts.assign(game=counts["game"].map(game_name))  # each game by its name
    recent = source.table("matches", order="played DESC", limit=RECENT)
    by_status = counts.groupby("status")["n"].sum()
    stats = [stat(int(counts["n"].sum()), "matches"), stat(int(counts["game"].nunique()), "games")]
    stats += [stat(int(by_status.get(s, 0)), s, STATUS_COLOURS[s]) for s in figures.STATUSES]
    rows = recent.assign(
        game=recent["game"].map(game_name),
        seats=recent["seats"].map(names),
        winners=recent["winners"].map(names),
        open=[f"[{m[:8]}](/match?id={m})" for m in recent["match_id"]],
    )[["played", "game", "seats", "status", "moves", "winners", "open"]]
    return stats, figures.matches_by_game(counts), records(rows)
