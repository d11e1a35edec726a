"""Balance: for one game, player count and variant, how fair the seats are, where the points
come from for winners and the rest, which components go with winning, and how long matches run.
Statistics come from `projections.stats`; only ended matches without an open dispute count."""

from __future__ import annotations

from typing import SupportsInt, cast

import dash
import pandas as pd
from dash import Input, Output, State, dcc, html
from dash.exceptions import PreventUpdate

from tablelog.dashboard import data, kinds
from tablelog.dashboard.callbacks import takes
from tablelog.dashboard.components import (
    LIVE_INTERVAL_MS,
    control,
    game_options,
    graph,
    live,
    options,
)
from tablelog.dashboard.figures import balance as figures
from tablelog.domain import wording
from tablelog.projections import stats

dash.register_page(__name__, path="/balance", name="Balance", order=1, title="Tablelog: balance")


# The kind filter: every match, only those logged move by move, or only score sheets (which
# feed seat win rates and scores, never component strength or match length).
KIND_OPTIONS = [
    {"label": "all", "value": "all"},
    {"label": "moves logged", "value": "moves"},
    {"label": "sheets only", "value": "sheet"},
]
SHOWN_KIND = kinds.one_of([o["value"] for o in KIND_OPTIONS])


def layout(game: str | None = None, **_query):
    return html.Div(
        [
            html.H2("Balance"),
            html.P(
                "Seat advantage, scoring categories, component strength and match length. "
                f"n is the number of matches (or seats) behind each figure; grey marks fewer "
                f"than {stats.SMALL_SAMPLE}.",
                className="lead",
            ),
            html.Div(
                [
                    control(
                        "Game",
                        # The game from the address is an option from the start: Dash's
                        # dropdown drops a value none of its options has.
                        dcc.Dropdown(
                            id="balance-game",
                            value=game,
                            options=game_options([game] if game else []),
                            clearable=False,
                        ),
                    ),
                    control("Players", dcc.Dropdown(id="balance-players", clearable=False)),
                    control(
                        "Variant", dcc.Dropdown(id="balance-variant", clearable=False), wide=True
                    ),
                    control(
                        "Matches",
                        dcc.RadioItems(
                            id="balance-kind", value="all", inline=True, options=KIND_OPTIONS
                        ),
                    ),
                ],
                className="controls",
            ),
            html.Div(id="balance-summary", className="note"),
            html.Div([graph("balance-seats"), graph("balance-length")], className="grid2"),
            graph("balance-scores"),
            graph("balance-components"),
            dcc.Interval(id="balance-tick", interval=LIVE_INTERVAL_MS),
            dcc.Store(id="balance-position"),
        ]
    )


def groups(counts: pd.DataFrame) -> pd.DataFrame:
    """Counted matches per (players, variant) of one game, largest first, from the game's
    `data.counts` by players, variant and status."""
    ended = counts[counts["status"] == "ended"]
    sizes = ended.groupby(["players", "variant"])["n"].sum().reset_index()
    return sizes.sort_values(["n", "players"], ascending=[False, True], ignore_index=True)


def register(app: dash.Dash, source) -> None:
    live(app, source, "balance")

    @app.callback(
        Output("balance-game", "options"),
        Output("balance-game", "value"),
        Input("balance-position", "data"),
        State("balance-game", "value"),
    )
    @takes(chosen=kinds.TEXT)
    def games(_position, chosen):
        return _game_choices(source, chosen)

    @app.callback(
        Output("balance-players", "options"),
        Output("balance-players", "value"),
        Input("balance-game", "value"),
        Input("balance-players", "value"),
    )
    @takes(game=kinds.TEXT, chosen=kinds.PLAYERS)
    def player_counts(game, chosen):
        return _player_choices(source, game, chosen)

    @app.callback(
        Output("balance-variant", "options"),
        Output("balance-variant", "value"),
        Input("balance-game", "value"),
        Input("balance-players", "value"),
        Input("balance-variant", "value"),
    )
    @takes(game=kinds.TEXT, players=kinds.PLAYERS, chosen=kinds.TEXT)
    def variants(game, players, chosen):
        return _variant_choices(source, game, players, chosen)

    @app.callback(
        Output("balance-summary", "children"),
        Output("balance-seats", "figure"),
        Output("balance-scores", "figure"),
        Output("balance-components", "figure"),
        Output("balance-length", "figure"),
        Input("balance-game", "value"),
        Input("balance-players", "value"),
        Input("balance-variant", "value"),
        Input("balance-position", "data"),
        Input("balance-kind", "value"),
    )
    @takes(game=kinds.TEXT, players=kinds.PLAYERS, variant=kinds.TEXT, kind=SHOWN_KIND)
    def balance(game, players, variant, _tick, kind="all"):
        if game is None or players is None or variant is None:
            raise PreventUpdate
        return figures_for(source, game, players, variant, None if kind in (None, "all") else kind)


def _game_choices(source, chosen):
    """The recorded games (with their match counts), keeping the chosen one if still there."""
    counts = data.counts(source, "matches", ["game"])
    if counts.empty:
        return [], None
    games = list(counts["game"])
    value = chosen if chosen in games else games[0]
    return game_options(games, list(counts["n"])), value


def _player_choices(source, game, chosen):
    """The game's player counts; by default the one with the most matches."""
    if game is None:
        return [], None
    sizes = groups(_counts(source, game)).groupby("players")["n"].sum()
    if sizes.empty:
        return [], None
    value = chosen if chosen in sizes.index else int(cast(SupportsInt, sizes.idxmax()))
    return options(
        [int(p) for p in sizes.index],
        [f"{p} player{'' if p == 1 else 's'} ({n:,})" for p, n in sizes.items()],
    ), value


def _variant_choices(source, game, players, chosen):
    """The variants played at that player count, keeping the chosen one if still there."""
    if game is None or players is None:
        return [], None
    sizes = groups(_counts(source, game))
    sizes = sizes[sizes["players"] == players]
    if sizes.empty:
        return [], None
    value = chosen if chosen in set(sizes["variant"]) else sizes["variant"].iloc[0]
    # Shown in the game's words; the stored text stays the value the figures filter by.
    return options(
        list(sizes["variant"]),
        [
            f"{wording.game_variant_words(game, v)} ({n:,})"
            for v, n in zip(sizes["variant"], sizes["n"])
        ],
    ), value


def _counts(source, game: str) -> pd.DataFrame:
    return data.counts(source, "matches", ["players", "variant", "status"], game=game)


def figures_for(source, game: str, players: int, variant: str, kind: str | None = None):
    """The page's summary line and four figures (also what the benchmark times), worked out
    once per filter and tracked position: a repeat, or another visitor, gets them at once."""
    return source.remember(
        ("balance", game, players, variant, kind),
        lambda: _figures(source, game, players, variant, kind),
    )


def _figures(source, game: str, players: int, variant: str, kind: str | None = None):
    pick = (game, players, variant)
    counts = _counts(source, game)
    group = counts[(counts["players"] == players) & (counts["variant"] == variant)]
    moves, sheets = kind_counts(source, pick, kind)
    summary = (
        f"{moves + sheets:,} matches count ({int(group['n'].sum()):,} recorded: running, "
        "abandoned and disputed ones are left out"
        + ("" if kind is None else ", and those of the other kind")
        + "). "
        f"Behind seat win rates and scores: {moves:,} logged move by move, {sheets:,} "
        f"score sheets; behind component strength and match length: {moves:,} logged "
        "move by move (a sheet has no moves)."
    )
    seats = data.seat_tallies(source, *pick, kind)
    rates = stats.seat_rates(seats)
    return (
        summary,
        figures.seat_win_rates(rates, stats.seat_tests(seats)),
        figures.score_distributions(stats.distributions(data.score_tallies(source, *pick, kind))),
        figures.component_strength(
            stats.strength(data.component_tallies(source, *pick, kind)),
            fair=float(rates["fair"].iloc[0]) if len(rates) else 1 / players,
        ),
        figures.match_length(
            data.length_tallies(source, *pick)
            if kind != "sheet"
            else data.length_tallies(source, *pick)[:0]
        ),
    )


def kind_counts(source, pick: tuple, kind: str | None) -> tuple[int, int]:
    """(matches logged move by move, score sheets) that count under the kind filter: seat
    rates and scores take both, component strength and match length only the first."""
    game, players, variant = pick
    rows = data.counts(
        source, "matches", ["kind"], game=game, players=players, variant=variant, status="ended"
    )
    by_kind = {str(k): int(n) for k, n in zip(rows["kind"], rows["n"])}
    return (
        by_kind.get("moves", 0) if kind != "sheet" else 0,
        by_kind.get("sheet", 0) if kind != "moves" else 0,
    )
