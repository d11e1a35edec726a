"""Players: per game, everyone's results and current rating, and chosen players' ratings over
the matches they played."""

from __future__ import annotations

import dash
import pandas as pd
from dash import Input, Output, State, dcc, html

from tablelog.dashboard import data, kinds
from tablelog.dashboard.callbacks import takes
from tablelog.dashboard.components import (
    LIVE_INTERVAL_MS,
    NUMBER,
    TEXT,
    WHEN,
    control,
    game_options,
    graph,
    grid,
    live,
    options,
    phone_columns,
    records,
)
from tablelog.dashboard.figures import players as figures
from tablelog.domain.plain import PlainDict

dash.register_page(__name__, path="/players", name="Players", order=2, title="Tablelog: players")

SHOWN = 5  # players drawn when nobody is chosen yet: the best rated
COLUMNS: list[PlainDict] = [
    {"field": "player", "headerName": "Player", "pinned": "left", **TEXT, "minWidth": 120},
    {"field": "matches", "headerName": "Matches", **NUMBER},
    {"field": "wins", "headerName": "Wins", **NUMBER},
    {
        "field": "win_rate",
        "headerName": "Win rate",
        **NUMBER,
        "valueFormatter": {"function": "d3.format('.0%')(params.value)"},
    },
    {
        "field": "mean_total",
        "headerName": "Mean points",
        **NUMBER,
        "valueFormatter": {"function": "d3.format('.1f')(params.value)"},
    },
    {
        "field": "ordinal",
        "headerName": "Rating",
        **NUMBER,
        "sort": "desc",
        "valueFormatter": {"function": "d3.format('.2f')(params.value)"},
    },
    {
        "field": "mu",
        "headerName": "mu",
        **NUMBER,
        "valueFormatter": {"function": "d3.format('.2f')(params.value)"},
    },
    {
        "field": "sigma",
        "headerName": "sigma",
        **NUMBER,
        "valueFormatter": {"function": "d3.format('.2f')(params.value)"},
    },
    {"field": "last", "headerName": "Last played", **WHEN},
]
# On a phone: who, and the rating with its two parts.
PHONE = {"player": 100, "ordinal": 86, "mu": 76, "sigma": 80}


def layout(game: str | None = None, **_query):
    return html.Div(
        [
            html.H2("Players"),
            html.P(
                "Ratings are openskill (Plackett-Luce) per game; the rating shown is the "
                "conservative one, mu - 3 sigma.",
                className="lead",
            ),
            html.Div(
                [
                    control(
                        "Game",
                        # The game from the address is an option from the start: Dash's
                        # dropdown drops a value none of its options has.
                        dcc.Dropdown(
                            id="players-game",
                            value=game,
                            options=game_options([game] if game else []),
                            clearable=False,
                        ),
                    ),
                    control("Compare", dcc.Dropdown(id="players-chosen", multi=True), wide=True),
                ],
                className="controls",
            ),
            graph("players-ratings"),
            html.Div(
                [
                    html.H3("Results", style={"margin": "4px"}),
                    grid("players-table", COLUMNS, empty="No ended match of this game yet."),
                ],
                className="card",
            ),
            dcc.Interval(id="players-tick", interval=LIVE_INTERVAL_MS),
            dcc.Store(id="players-position"),
        ]
    )


def results(played: pd.DataFrame, latest: pd.DataFrame) -> pd.DataFrame:
    """Per player of one game: matches, wins, win rate, mean points, current rating, last
    played; best rated first. `played` has per player matches, wins and mean_total
    (`data.player_results`), `latest` each player's latest ratings row (`data.latest_ratings`)."""
    played = played.set_index("player")
    played = played.assign(win_rate=played["wins"] / played["matches"])
    latest = latest.set_index("player")[["mu", "sigma", "ordinal", "played"]]
    table = played.join(latest, how="outer").rename(columns={"played": "last"})
    table = table.rename_axis("player").reset_index()
    return table.sort_values("ordinal", ascending=False, ignore_index=True)


def register(app: dash.Dash, source) -> None:
    live(app, source, "players")
    phone_columns(app, "players-table", PHONE)

    @app.callback(
        Output("players-game", "options"),
        Output("players-game", "value"),
        Input("players-position", "data"),
        State("players-game", "value"),
    )
    @takes(chosen=kinds.TEXT)
    def games(_position, chosen):
        games = list(data.counts(source, "ratings", ["game"])["game"])
        if not games:
            return [], None
        return game_options(games), chosen if chosen in games else games[0]

    @app.callback(
        Output("players-table", "rowData"),
        Output("players-chosen", "options"),
        Output("players-chosen", "value"),
        Input("players-game", "value"),
        Input("players-position", "data"),
        State("players-chosen", "value"),
    )
    @takes(game=kinds.TEXT, chosen=kinds.NAMES)
    def table(game, _position, chosen):
        if game is None:
            return [], [], []
        summary = summary_table(source, game)
        names = list(summary["player"])
        chosen = [p for p in chosen or [] if p in set(names)] or names[:SHOWN]
        return records(summary), options(names), chosen

    @app.callback(
        Output("players-ratings", "figure"),
        Input("players-game", "value"),
        Input("players-chosen", "value"),
        Input("players-position", "data"),
    )
    @takes(game=kinds.TEXT, chosen=kinds.NAMES)
    def ratings(game, chosen, _position):
        return ratings_figure(source, game, chosen or [])


def summary_table(source, game: str) -> pd.DataFrame:
    """`results` of one game from two aggregate reads, once per tracked position."""
    return source.remember(
        ("players", game),
        lambda: results(data.player_results(source, game), data.latest_ratings(source, game)),
    )


def ratings_figure(source, game: str | None, chosen: list[str]):
    """The ratings figure of the chosen players (also what the benchmark times): only their
    rows are read (the ratings key's index finds them)."""
    if game is None:
        return figures.ratings(pd.DataFrame(columns=["player"]), [])
    return source.remember(
        ("ratings", game, tuple(chosen)),
        lambda: figures.ratings(source.table("ratings", game=game, player=list(chosen)), chosen),
    )
