"""Lab: the balance lab's experiments for one game. Pick a stored experiment to see every metric
as a forest plot (estimate and 95% interval per arm), the skill trace, the restricted player's
result and the findings in plain words; or start a new one, watch its progress, and cancel it
(the matches stored so far are kept). Its Tune section (`dashboard.tune`) does the same for the
balance tuner's studies.

Experiments come from the lab service the composition root puts in the app
(`dashboard.policy.lab_service`, see tablelog/lab/service.py): its stored reports,
never a replay on a request. Starting or cancelling one writes, so it obeys the app's write
policy like the Record page.
"""

from __future__ import annotations

from typing import Any

import dash
from dash import ALL, Input, Output, State, ctx, dcc, html
from dash.development.base_component import Component
from dash.exceptions import PreventUpdate

from tablelog.dashboard import kinds, tune
from tablelog.dashboard.callbacks import takes
from tablelog.dashboard.components import control, game_options, graph, options
from tablelog.dashboard.doors import service_for_click
from tablelog.dashboard.figures import lab as figures
from tablelog.dashboard.games.setting import option_questions
from tablelog.dashboard.policy import lab_service
from tablelog.domain import wording
from tablelog.domain.errors import Refused
from tablelog.domain.games import GAMES, RulesError, get_game
from tablelog.domain.plain import PlainDict, PlainValue

dash.register_page(__name__, path="/lab", name="Lab", order=5, title="Tablelog: lab")
MESSAGE = "lab-progress"  # where a refusal inside a callback is said (dashboard/endpoint.py)

KINDS = {
    "variants": "variant against variant",
    "restriction": "restricted play",
    "skill": "skill trace (MCTS budgets)",
}
HUMANS = "humans"  # the experiment list's entry for humans against bots


def layout(game: str | None = None, **_query):
    return html.Div(
        [
            html.H2("Lab"),
            html.P(
                "Game-design metrics over seeded bot matches: variant against variant, "
                "restricted against standard play, and how much a stronger search wins "
                "(docs/lab.md, docs/metrics.md).",
                className="lead",
            ),
            html.Div(
                [
                    control(
                        "Game",
                        dcc.Dropdown(
                            id="lab-game",
                            options=game_options(sorted(GAMES)),
                            value=game if game in GAMES else "topitop",
                            clearable=False,
                        ),
                    ),
                    control(
                        "Experiment", dcc.Dropdown(id="lab-experiment", clearable=False), wide=True
                    ),
                ],
                className="controls",
            ),
            html.Ul(id="lab-words", className="note"),
            html.Div([graph("lab-skill"), graph("lab-h2h")], className="grid2"),
            graph("lab-forest"),
            _new_experiment(),
            tune.section(),
            dcc.Interval(id="lab-tick", interval=1000),
            dcc.Store(id="lab-finished"),
        ]
    )


def _new_experiment() -> html.Div:
    return html.Div(
        [
            html.H3("New experiment"),
            html.Div(
                [
                    control(
                        "Kind",
                        dcc.Dropdown(
                            id="lab-kind",
                            value="skill",
                            clearable=False,
                            options=options(list(KINDS), list(KINDS.values())),
                        ),
                    ),
                    control("Restriction", dcc.Dropdown(id="lab-restriction")),
                    control("Agent", dcc.Input(id="lab-agent", value="random", type="text")),
                    control(
                        "Matches per arm",
                        dcc.Input(id="lab-matches", value=10, type="number", min=2, max=400),
                    ),
                    control("Seed", dcc.Input(id="lab-seed", value=0, type="number", min=0)),
                    control("Budgets", dcc.Input(id="lab-budgets", value="1,2,4", type="text")),
                ],
                className="controls",
            ),
            # Variant against variant: each arm's options, picked from the game's declaration.
            html.Div(id="lab-arms", className="controls"),
            html.Div(
                [
                    html.Button("Start", id="lab-start", n_clicks=0, className="action primary"),
                    html.Button(
                        "Cancel", id="lab-cancel", n_clicks=0, disabled=True, className="action"
                    ),
                ],
                className="actions",
            ),
            html.Div(id="lab-progress", className="note"),
        ],
        className="card",
    )


def register(app: dash.Dash, source) -> None:
    def service():
        return lab_service(app.server)

    _register_views(app, service, source)
    _register_runs(app, service)
    _register_cancel(app, service)
    tune.register(app, source)


def _register_views(app: dash.Dash, service, source) -> None:
    """Choosing a game and an experiment, and drawing it."""

    @app.callback(
        Output("lab-experiment", "options"),
        Output("lab-experiment", "value"),
        Input("lab-game", "value"),
        Input("lab-finished", "data"),
        State("lab-experiment", "value"),
    )
    @takes(game=kinds.TEXT, finished=kinds.TEXT, chosen=kinds.TEXT)
    def experiments(game, finished, chosen):
        lab = service()
        found = lab.experiments(game) if lab else []
        ids = [e["id"] for e in found] + ([HUMANS] if lab else [])
        labels = [_label(e) for e in found] + ["humans against bots: the recorded matches"]
        stored = [e["id"] for e in found]  # humans against bots only when asked for
        value = finished if finished in ids else chosen if chosen in ids else (stored or [None])[0]
        return options(ids, labels), value

    @app.callback(
        Output("lab-words", "children"),
        Output("lab-forest", "figure"),
        Output("lab-skill", "figure"),
        Output("lab-h2h", "figure"),
        Input("lab-experiment", "value"),
        State("lab-game", "value"),
    )
    @takes(experiment_id=kinds.TEXT, game=kinds.TEXT)
    def show(experiment_id, game):
        lab = service()
        stored = lab and experiment_id and experiment_id != HUMANS
        # Drawn once per experiment and state (and, for humans against bots, per new match).
        key = (
            "lab",
            lab is None,
            game,
            experiment_id,
            stored and lab.experiment(experiment_id)["state"],
        )
        return source.remember(key, lambda: _drawn(lab, game, experiment_id))

    @app.callback(
        Output("lab-restriction", "options"),
        Output("lab-restriction", "value"),
        Input("lab-game", "value"),
    )
    @takes(game=kinds.TEXT)
    def restrictions(game):
        from tablelog.domain.restrictions import restrictions as declared

        names = list(declared(game)) if game in GAMES else []
        return options(names), names[0] if names else None

    @app.callback(Output("lab-arms", "children"), Input("lab-game", "value"))
    @takes(game=kinds.TEXT)
    def arms(game):
        return arm_pickers(game)


ARMS = {"a": "Variant A", "b": "Variant B"}


def arm_pickers(game: str | None) -> list[Component]:
    """For each arm of a variant experiment, a picker per option the game declares, in the
    Record page's words, each at the game's standard setting."""
    questions = option_questions(get_game(game).declaration) if game in GAMES else []
    if not questions:
        return [html.P("This game declares no options to set a variant apart.", className="note")]
    pickers: list[Component] = []
    for arm, name in ARMS.items():
        for question in questions:
            standard = next(
                (o.value for o in question.options if o.label.endswith("(standard)")),
                question.options[0].value,
            )
            picker = dcc.Dropdown(
                id={"type": "lab-option", "arm": arm, "key": question.key},
                options=[{"label": o.label, "value": o.value} for o in question.options],
                value=standard,
                clearable=False,
            )
            pickers.append(control(f"{name}: {question.prompt}", picker))
    return pickers


def arm_options(chosen: list[PlainValue] | None) -> dict[str, PlainDict]:
    """Each arm's options from the pickers' answers, `chosen` (in the order of the pickers'
    ids, which the request carries beside them); the engine judges the values."""
    pickers = next(
        (
            [one["id"] for one in state]
            for state in ctx.states_list
            if isinstance(state, list) and state and state[0]["id"].get("type") == "lab-option"
        ),
        [],
    )
    found: dict[str, PlainDict] = {arm: {} for arm in ARMS}
    for picker, value in zip(pickers, chosen or []):
        found[picker["arm"]][picker["key"]] = value
    return found


def _register_runs(app: dash.Dash, service) -> None:
    """Starting an experiment (under the app's write policy) and following its progress."""

    @app.callback(
        Output("lab-progress", "children", allow_duplicate=True),
        Input("lab-start", "n_clicks"),
        State("lab-game", "value"),
        State("lab-kind", "value"),
        State("lab-restriction", "value"),
        State("lab-agent", "value"),
        State("lab-matches", "value"),
        State("lab-seed", "value"),
        State("lab-budgets", "value"),
        State({"type": "lab-option", "arm": ALL, "key": ALL}, "value"),
        prevent_initial_call=True,
    )
    @takes(
        clicks=kinds.COUNT,
        game=kinds.TEXT,
        kind=kinds.TEXT,
        restriction=kinds.TEXT,
        agent=kinds.TEXT,
        matches=kinds.NUMBER,
        seed=kinds.NUMBER,
        budgets=kinds.TEXT,
        chosen=kinds.CHOICES,
    )
    def start(clicks, game, kind, restriction, agent, matches, seed, budgets, chosen):
        lab, refused = _writer(app, service, clicks, "experiment")
        if refused:
            return refused
        arms = arm_options(chosen)
        request = {
            "kind": kind,
            "game": game,
            "restriction": restriction,
            "agent": agent,
            "matches": matches,
            "seed": seed,
            "budgets": budgets,
            "a": arms["a"],
            "b": arms["b"],
        }
        try:
            definition = lab.start(request)
        except (Refused, RulesError) as err:
            return f"Not started: {err}"
        return f"Started: {definition.kind}, {definition.matches} matches per arm."

    _register_progress(app, service)


def _register_progress(app: dash.Dash, service) -> None:
    """The progress line, asked for by the page's timer."""

    @app.callback(
        Output("lab-progress", "children"),
        Output("lab-finished", "data"),
        Output("lab-cancel", "disabled"),
        Input("lab-tick", "n_intervals"),
        State("lab-finished", "data"),
    )
    @takes(finished=kinds.TEXT)
    def progress(_tick, finished):
        lab = service()
        state = lab.progress if lab else {"state": "idle"}
        shown = _progress_shown(state, finished)
        if shown is None:
            raise PreventUpdate
        return (*shown, state["state"] != "running")


def _register_cancel(app: dash.Dash, service) -> None:
    """Cancelling the experiment running here (under the app's write policy): the matches
    stored so far are kept."""

    @app.callback(
        Output("lab-progress", "children", allow_duplicate=True),
        Input("lab-cancel", "n_clicks"),
        prevent_initial_call=True,
    )
    @takes(clicks=kinds.COUNT)
    def cancel(clicks):
        lab, refused = _writer(app, service, clicks, "cancel")
        if refused:
            return refused
        try:
            stopped = lab.cancel()
        except Refused as err:
            return f"Not cancelled: {err}"
        return f"{stopped['state'].capitalize()}; the matches stored so far are kept."


def _writer(app: dash.Dash, service, clicks, action: str) -> tuple[Any, str | None]:
    return service_for_click(app, service, clicks, action, "The lab is not available in this app.")


def _progress_shown(state: dict, finished: str | None) -> tuple[str, object] | None:
    """What the progress line says of the lab's state, and the experiment just finished (if it
    is new); None when there is nothing new to say."""
    if state["state"] == "idle":
        return None
    if state["state"] == "running":
        return (
            f"Running {KINDS.get(state['kind'], state['kind'])} of "
            f"{wording.game_name(state['game'])}: {state['done']} of "
            f"{state['total']} matches played"
        ), dash.no_update
    if state["state"] == "failed":
        return f"Failed: {state['error']}", dash.no_update
    if state.get("id") == finished:
        return None
    if state["state"] == "cancelled":
        return (
            f"Cancelled after {state['done']} of {state['total']} matches (kept), "
            f"experiment {state['id'][:8]}",
            state["id"],
        )
    return (f"Done: {state['total']} matches stored, experiment {state['id'][:8]}", state["id"])


def _drawn(lab, game: str | None, experiment_id: str | None) -> tuple[object, ...]:
    """The experiment's report in words and its three figures."""
    report = _report(lab, game, experiment_id)
    words = (report or {}).get("words") or _no_report(lab, experiment_id)
    return (
        [html.Li(w) for w in words],
        figures.forest(report),
        figures.skill_trace(report),
        figures.head_to_head(report),
    )


def _no_report(lab, experiment_id: str | None) -> list[str]:
    """What the page says where there is no report to draw."""
    if lab is None:
        return ["The lab is not available in this app (tablelog serve provides it)."]
    if not experiment_id or experiment_id == HUMANS:
        return ["No experiment for this game yet: start one below, or with `tablelog experiment`."]
    found = lab.experiment(experiment_id)
    if found["status"] in ("running", "cancelling"):
        return [
            f"This experiment is {found['state']}: its report comes when every match is played."
        ]
    return [
        f"This experiment was {found['state']}, so it has no report; the matches it stored "
        "are kept, whole, like any other match."
    ]


def _report(lab, game: str | None, experiment_id: str | None) -> dict | None:
    if lab is None or not experiment_id:
        return None
    if experiment_id != HUMANS:
        return lab.experiment(experiment_id)["report"]
    try:
        return lab.humans(game)
    except Refused as err:
        return {"kind": "humans", "arms": [], "words": [str(err)]}


def _label(e: dict) -> str:
    arms = ", ".join(a["name"] for a in e["definition"]["arms"])
    return f"{e['kind']}: {arms} ({e['state']}, {e['created'][:16]})"
