"""The Lab page's Tune section (docs/tune.md): start a balance-tuning study of a game, bounded as
the lab's experiments are, from pickers built from the game's declaration; follow it with
Optuna's own figures (`figures.tune`); cancel it; open the confirmed variant's balance table.

The studies come from the tune service the composition root puts in the app
(`dashboard.policy.tune_service`, see tablelog/tune/service.py). Starting or cancelling a study
writes, so it goes through the lab's own door: the app's write policy, and with accounts on a
recorder or above (`record.actions.admit`, the actions "start an experiment" and "cancel an
experiment": a study is one of the lab's experiments).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dash
from dash import Input, Output, State, dcc, html
from dash.exceptions import PreventUpdate

from tablelog.dashboard import kinds
from tablelog.dashboard.callbacks import takes
from tablelog.dashboard.components import control, graph, options
from tablelog.dashboard.doors import service_for_click
from tablelog.dashboard.figures import tune as figures
from tablelog.dashboard.policy import tune_service
from tablelog.domain.errors import Refused
from tablelog.domain.games import PLUGINS

GRAPHS = {name: f"tune-{name}" for name in ("history", "importances", "pareto", "parallel")}
UNAVAILABLE = "The tuner is not available in this app (tablelog serve provides it)."


def tunable() -> dict[str, str]:
    """The games that declare what may vary, id -> name."""
    return {g: p.rules.name for g, p in sorted(PLUGINS.items()) if p.tuning is not None}


def section() -> html.Div:
    games = tunable()
    return html.Div(
        [
            html.H3("Tune: search a game's variants for the fairest seats"),
            html.P(
                "Candidates are played by seeded bots, cut early when clearly unfair, and the "
                "best is confirmed on seeds fixed before the search (docs/tune.md).",
                className="note",
            ),
            html.Div(
                [
                    control(
                        "Game",
                        dcc.Dropdown(
                            id="tune-game",
                            options=options(list(games), list(games.values())),
                            value=next(iter(games), None),
                            clearable=False,
                        ),
                    ),
                    control("Study", dcc.Dropdown(id="tune-study", clearable=False), wide=True),
                ],
                className="controls",
            ),
            html.Ul(id="tune-words", className="note"),
            html.Details(
                [html.Summary(id="tune-table-title"), html.Div(id="tune-table")],
                id="tune-balance",
                hidden=True,
            ),
            html.Div([graph(GRAPHS["history"]), graph(GRAPHS["importances"])], className="grid2"),
            html.Div([graph(GRAPHS["parallel"]), graph(GRAPHS["pareto"])], className="grid2"),
            _new_study(),
            dcc.Interval(id="tune-tick", interval=1000, disabled=True),  # on while one runs
            dcc.Store(id="tune-seen"),
        ],
        className="card",
    )


def _new_study() -> html.Div:
    return html.Div(
        [
            html.H4("New study"),
            html.Div(
                [
                    control(
                        "Player counts",
                        dcc.Checklist(id="tune-players", inline=True, className="choices"),
                    ),
                    control(
                        "What may vary",
                        dcc.Checklist(id="tune-vary", className="choices"),
                        wide=True,
                    ),
                    control(
                        "Further objectives", dcc.Checklist(id="tune-also", className="choices")
                    ),
                    control("Bots", dcc.Dropdown(id="tune-bots", clearable=False)),
                    control(
                        "Candidates",
                        dcc.Input(id="tune-trials", value=10, type="number", min=1, max=60),
                    ),
                    control(
                        "Matches per candidate and player count",
                        dcc.Dropdown(id="tune-top", value=400, clearable=False),
                    ),
                    control(
                        "Search budget",
                        dcc.Dropdown(id="tune-budget", value=0, clearable=False),
                    ),
                    control(
                        "Confirmation matches per seed set",
                        dcc.Dropdown(id="tune-confirm", value=500, clearable=False),
                    ),
                    control("Seed", dcc.Input(id="tune-seed", value=0, type="number", min=0)),
                ],
                className="controls",
            ),
            html.Button("Start", id="tune-start", n_clicks=0),
            html.Button("Cancel", id="tune-cancel", n_clicks=0, disabled=True),
            html.Div(id="tune-progress", className="note"),
        ]
    )


def register(app: dash.Dash, source) -> None:
    def service():
        return tune_service(app.server)

    _register_choices(app, service)
    _register_view(app, service, source)
    _register_start(app, service)
    _register_progress(app, service)


def _register_choices(app: dash.Dash, service) -> None:
    """What a new study of the game may pick, from its declaration."""

    @app.callback(
        Output("tune-players", "options"),
        Output("tune-players", "value"),
        Output("tune-vary", "options"),
        Output("tune-vary", "value"),
        Output("tune-also", "options"),
        Output("tune-bots", "options"),
        Output("tune-bots", "value"),
        Output("tune-top", "options"),
        Output("tune-confirm", "options"),
        Output("tune-budget", "options"),
        Output("tune-tick", "disabled"),
        Input("tune-game", "value"),
    )
    @takes(game=kinds.TEXT)
    def choices(game):
        tuner = service()
        if tuner is None or game not in tunable():
            return [], [], [], [], [], [], None, [], [], [], True
        c = tuner.choices(game)
        return (
            options(c["players"], [f"{k} players" for k in c["players"]]),
            c["players"],
            options(list(c["vary"]), list(c["vary"].values())),
            list(c["vary"]),
            options(list(c["also"]), list(c["also"].values())),
            options(list(c["bots"]), list(c["bots"].values())),
            "greedy",
            options(c["tops"], [f"{n:,} matches" for n in c["tops"]]),
            options(c["confirms"], [f"{n:,} matches" for n in c["confirms"]]),
            options([0, *c["budgets"]], ["no limit", *(f"{n:,} matches" for n in c["budgets"])]),
            tuner.progress["state"] not in ("starting", "running"),  # the timer follows one
        )

    @app.callback(
        Output("tune-study", "options"),
        Output("tune-study", "value"),
        Input("tune-game", "value"),
        Input("tune-seen", "data"),
        State("tune-study", "value"),
    )
    @takes(game=kinds.TEXT, seen=kinds.TEXT, chosen=kinds.TEXT)
    def studies(game, seen, chosen):
        tuner = service()
        found = tuner.studies(game) if tuner is not None else []
        ids = [s["id"] for s in found]
        running = (seen or "").split("|")[0]
        value = running if running in ids else chosen if chosen in ids else (ids or [None])[0]
        return options(ids, [s["label"] for s in found]), value


def _register_view(app: dash.Dash, service, source) -> None:
    """The chosen study: its report in words, its balance table, Optuna's figures."""

    @app.callback(
        Output("tune-words", "children"),
        Output("tune-table-title", "children"),
        Output("tune-table", "children"),
        Output("tune-balance", "hidden"),
        *(Output(graph_id, "figure") for graph_id in GRAPHS.values()),
        Input("tune-study", "value"),
        Input("tune-seen", "data"),
    )
    @takes(name=kinds.TEXT, seen=kinds.TEXT)
    def show(name, seen):
        tuner = service()
        if tuner is None or not name:  # the same every time: drawn once
            return source.keep(("tune", "none", tuner is None), lambda: _nothing(tuner))
        report = tuner.report(name)
        study, names = tuner.worded(name)
        drawn = figures.figures(study, names)
        title, table = balance_table(report.get("confirmation"))
        summary = [html.Li(line) for line in report["lines"] if not line.startswith(" ")]
        return summary, title, table, table is None, *drawn.values()


def balance_table(confirmation: dict[str, Any] | None) -> tuple[str, html.Table | None]:
    """The confirmed (or rejected) variant's seats on the first confirmation seed set: each
    seat's wins, rate, 95% interval and whether the fair rate lies inside, and each player
    count's seats pooled over the seed sets; no table before a confirmation."""
    if not confirmation or "first" not in confirmation:
        return "", None
    verdict = confirmation["state"]
    seed = confirmation["seeds"][0]
    title = f"Balance table of candidate {confirmation['trial']} ({verdict}, seed set {seed})"
    head = ["Players", "Seat", "Wins", "Matches", "Win rate", "95% interval", "Fair rate"]
    rows = [
        [
            r["players"],
            f"seat {r['seat']}",
            f"{r['wins']:,}",
            f"{r['matches']:,}",
            f"{r['rate']:.1%}",
            f"{r['low']:.1%} to {r['high']:.1%}",
            "inside" if r["inside"] else "outside",
        ]
        for r in confirmation["first"]
    ]
    pooled = [
        html.Tr(html.Td(f"{players} players, the seed sets pooled: p = {p:.3f}", colSpan=7))
        for players, p in confirmation["pooled_p"].items()
    ]
    body = [html.Tr([html.Td(str(cell)) for cell in row]) for row in rows]
    table = html.Table(
        [html.Thead(html.Tr([html.Th(h) for h in head])), html.Tbody(body + pooled)],
        className="tune-table",
    )
    return title, table


def _nothing(tuner) -> tuple[object, ...]:
    """The section with no study to show."""
    words = [UNAVAILABLE if tuner is None else "No study of this game yet: start one."]
    drawn = figures.figures(None, ["seat imbalance"])
    return [html.Li(w) for w in words], "", None, True, *drawn.values()


def _register_start(app: dash.Dash, service) -> None:
    """Starting a study (the lab's door: the write policy, and a recorder or above)."""

    @app.callback(
        Output("tune-progress", "children", allow_duplicate=True),
        Output("tune-tick", "disabled", allow_duplicate=True),
        Input("tune-start", "n_clicks"),
        State("tune-game", "value"),
        State("tune-players", "value"),
        State("tune-vary", "value"),
        State("tune-also", "value"),
        State("tune-bots", "value"),
        State("tune-trials", "value"),
        State("tune-top", "value"),
        State("tune-budget", "value"),
        State("tune-confirm", "value"),
        State("tune-seed", "value"),
        prevent_initial_call=True,
    )
    @takes(
        clicks=kinds.COUNT,
        game=kinds.TEXT,
        players=kinds.NUMBERS,
        vary=kinds.NAMES,
        also=kinds.NAMES,
        bots=kinds.TEXT,
        trials=kinds.NUMBER,
        top=kinds.NUMBER,
        budget=kinds.NUMBER,
        confirm=kinds.NUMBER,
        seed=kinds.NUMBER,
    )
    def start(clicks, game, players, vary, also, bots, trials, top, budget, confirm, seed):
        tuner, refused = _writer(app, service, clicks, "experiment")
        if refused:
            return refused, dash.no_update
        request = {
            "game": game,
            "players": players,
            "vary": vary,
            "also": also,
            "bots": bots,
            "trials": trials,
            "top": top,
            "budget": budget or None,
            "confirm_matches": confirm,
            "seed": seed,
        }
        try:
            name = tuner.start(request)
        except Refused as err:
            return f"Not started: {err}", dash.no_update
        return f"Started study {_short(name)}.", False

    _register_cancel(app, service)


def _register_cancel(app: dash.Dash, service) -> None:
    """Cancelling the study running here (the same door as starting one)."""

    @app.callback(
        Output("tune-progress", "children", allow_duplicate=True),
        Input("tune-cancel", "n_clicks"),
        prevent_initial_call=True,
    )
    @takes(clicks=kinds.COUNT)
    def cancel(clicks):
        tuner, refused = _writer(app, service, clicks, "cancel")
        if refused:
            return refused
        try:
            name = tuner.cancel()
        except Refused as err:
            return f"Not cancelled: {err}"
        return f"Stopping study {_short(name)}: the candidates played to the end are kept."


def _writer(app: dash.Dash, service, clicks, action: str) -> tuple[Any, str | None]:
    return service_for_click(app, service, clicks, action, UNAVAILABLE)


def _register_progress(app: dash.Dash, service) -> None:
    """The progress line, asked for by the section's timer; `tune-seen` changes when there is
    something new to draw (a candidate played, the study ended)."""

    @app.callback(
        Output("tune-progress", "children"),
        Output("tune-cancel", "disabled"),
        Output("tune-seen", "data"),
        Output("tune-tick", "disabled"),
        Input("tune-tick", "n_intervals"),
        State("tune-seen", "data"),
    )
    @takes(seen=kinds.TEXT)
    def progress(_tick, seen):
        tuner = service()
        state = tuner.progress if tuner is not None else {"state": "idle"}
        if state["state"] in ("idle", "starting"):
            raise PreventUpdate
        now = "|".join(str(state.get(k, "")) for k in ("id", "played", "phase", "state"))
        if now == seen:
            raise PreventUpdate
        ended = state["state"] != "running"  # the timer stops with the study
        return progress_words(state), ended, now, ended


def progress_words(state: Mapping[str, object]) -> str:
    """The progress line for the tune service's state."""
    study = f"Study {_short(str(state.get('id', '')))}"
    if state["state"] == "failed":
        return f"{study} failed: {state['error']}"
    if state["state"] == "ended":
        return f"{study} ended: {state['ended']}."
    if state.get("phase") == "confirmation":
        return f"{study}: confirming the best candidate, {state.get('confirmed', 0):,} matches"
    return (
        f"{study} running: {state['played']} of {state['trials']} candidates played "
        f"(at most {state['estimate']})"
    )


def _short(name: str) -> str:
    return name.rsplit("-", 1)[-1]
