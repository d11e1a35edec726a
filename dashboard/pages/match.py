"""Match: one match replayed step by step. The slider picks a step (0 = the start; every event
after it is a step, undos and claims included); the board and the score are drawn as they were
then. Below: the claims beside the result the rules recompute, and the whole event log."""

from __future__ import annotations

import dash
import flask
import pandas as pd
from dash import Input, Output, State, ctx, dcc, html
from dash.exceptions import PreventUpdate

from tablelog.dashboard import games, kinds, replay
from tablelog.dashboard.callbacks import takes
from tablelog.dashboard.checkpoint import checkpoint_state
from tablelog.dashboard.components import (
    LIVE_INTERVAL_MS,
    NUMBER,
    TEXT,
    WHEN,
    control,
    graph,
    grid,
    live,
    names,
    phone_columns,
)
from tablelog.dashboard.figures import match as figures
from tablelog.dashboard.figures.style import empty
from tablelog.domain.errors import MatchNotFound, Refused
from tablelog.domain.games import RulesError, get_rules
from tablelog.domain.matches import views
from tablelog.domain.matches.match import Match
from tablelog.domain.plain import PlainDict
from tablelog.domain.wording import game_name

dash.register_page(__name__, path="/match", name="Match", order=3, title="Tablelog: match")
MESSAGE = "match-notice"  # where a refusal inside a callback is said (dashboard/endpoint.py)

RECENT = 30
# A long match (Topitop can loop for 100,000 moves) is never sent or held whole: the event log
# shows its newest LOG_WINDOW events (the slider still reaches every step, each read from the
# newest snapshot before it), and the audit and the solved values, which read every move, are
# left to `tablelog audit` / `tablelog analyse` past WHOLE_UP_TO events.
LOG_WINDOW = 500
WHOLE_UP_TO = 5_000
# Steps number the match's events as everywhere else (the audit, `tablelog show --at N`, the
# API's `at`): step 0 is the start, step N the Nth event after it.
LOG_COLUMNS = [
    {"field": "step", "headerName": "Step", **NUMBER, "minWidth": 80},
    {"field": "event", "headerName": "Event", "minWidth": 120},
    {"field": "who", "headerName": "Who", **TEXT, "minWidth": 110, "flex": 1},
    {"field": "what", "headerName": "What", **TEXT, "minWidth": 200},
    {"field": "flag", "headerName": "Note", **TEXT, "minWidth": 120, "flex": 1},
    {"field": "entered_by", "headerName": "Entered by", **TEXT, "minWidth": 110},
    # Last: on a phone the step, what happened and by whom fill the screen first.
    {"field": "when", "headerName": "When", **WHEN, "minWidth": 170},
]
CLAIM_COLUMNS: list[PlainDict] = [
    {"field": "step", "headerName": "Step", **NUMBER, "minWidth": 80},
    {"field": "by", "headerName": "Claimed by", **TEXT, "minWidth": 120},
    {"field": "seat", "headerName": "Player", **TEXT, "minWidth": 120},
    {"field": "claimed", "headerName": "Claimed", **NUMBER},
    {"field": "recomputed", "headerName": "Rules give", **NUMBER},
    {"field": "agrees", "headerName": "Agrees", **NUMBER},
]
# On a phone: the step, what happened, by whom and what it was; the claim beside the rules.
LOG_PHONE = {"step": 56, "event": 84, "who": 84, "what": 130}
CLAIM_PHONE = {"seat": 96, "claimed": 84, "recomputed": 90, "agrees": 80}
# What each stored event is, in the words of the table (the log shows these, not class names).


def layout(id: str | None = None, **_query):
    shown, notice = wanted(id)
    return html.Div(
        [
            html.H2("Match"),
            html.Div(
                [
                    control(
                        "Match (type 4+ characters of an id to search)",
                        dcc.Dropdown(
                            id="match-pick",
                            value=shown,
                            options=first_choice(shown),
                            clearable=False,
                            placeholder="choose a match",
                        ),
                        wide=True,
                    )
                ],
                className="controls",
            ),
            html.Div(
                notice, id="match-notice", role="alert", className="warning card", hidden=not notice
            ),
            html.Div(id="match-summary", className="note"),
            stepper(),
            html.Div(id="match-values"),  # Topitop only: the solved value after each move
            html.Div(id="match-caption", className="step-caption"),
            html.Div(
                [
                    graph("match-board", figure=empty("Board", "no match chosen")),
                    graph("match-score", figure=empty("Score", "no match chosen")),
                ],
                className="grid2",
            ),
            html.Div(
                [
                    html.H3("Claimed against recomputed", style={"margin": "4px"}),
                    html.Div(id="match-audit", className="note"),
                    grid(
                        "match-claims",
                        CLAIM_COLUMNS,
                        height=200,
                        empty="Nobody has claimed a result.",
                    ),
                ],
                className="card",
            ),
            html.Div(
                [
                    html.H3("Event log", style={"margin": "4px"}),
                    grid("match-log", LOG_COLUMNS, height=360, empty="No match to show."),
                ],
                className="card",
            ),
            dcc.Store(id="match-log-data"),
            dcc.Interval(id="match-tick", interval=LIVE_INTERVAL_MS),
            dcc.Store(id="match-position"),
        ]
    )


def stepper() -> html.Div:
    """The slider over the match's steps, with a button either side for one step."""
    return html.Div(
        [
            html.Button("◀", id="match-back", title="previous step"),
            html.Div(
                dcc.Slider(
                    id="match-step",
                    min=0,
                    max=0,
                    step=1,
                    value=0,
                    allow_direct_input=False,
                    updatemode="drag",
                    tooltip={"placement": "bottom", "always_visible": False},
                ),
                className="slider",
                title="step of the replay",  # names the slider's handle (dashboard/accessible.py)
            ),
            html.Button("▶", id="match-forward", title="next step"),
        ],
        className="stepper card",
    )


def wanted(id: str | None) -> tuple[str | None, str]:
    """The match the page opens with, and what to say when there is none: the one the address
    names (`/match?id=...`, whole or a unique prefix, as the command line takes it), else the
    latest. An id naming no match, or several, is said so and no other match is shown."""
    if not flask.has_app_context():  # Dash checking the layout, not a visitor
        return None, ""
    source = flask.current_app.extensions["tablelog"]  # the app's Source (dashboard/app.py)
    if not id:
        latest = source.table("matches", order="started DESC", limit=1)
        return (str(latest["match_id"].iloc[0]) if len(latest) else None), ""
    try:
        return str(source.queries.find(id)), ""
    except MatchNotFound as err:
        return None, f"{err}. Choose a match above."


def first_choice(match_id: str | None) -> list[dict[str, str]]:
    """The shown match as the picker's one option until its callback lists the others: its
    label shows at once, not the placeholder."""
    if match_id is None:
        return []
    source = flask.current_app.extensions["tablelog"]
    return [
        {"label": label(r), "value": match_id}
        for r in source.table("matches", match_id=match_id).to_dict("records")
    ]


def label(row: dict) -> str:
    return (
        f"{game_name(row['game'])} · {names(row['seats'])} · {row['status']} · "
        f"{row['started']:%Y-%m-%d %H:%M} · {row['match_id'][:8]}"
    )


def register(app: dash.Dash, source) -> None:
    live(app, source, "match")
    phone_columns(app, "match-log", LOG_PHONE)
    phone_columns(app, "match-claims", CLAIM_PHONE)

    @app.callback(
        Output("match-pick", "options"),
        Output("match-pick", "value"),
        Input("match-pick", "search_value"),
        State("match-pick", "value"),
    )
    @takes(search=kinds.TEXT, value=kinds.TEXT)
    def pick(search, value):
        return _match_choices(source, search, value)

    _register_load(app, source)

    @app.callback(
        Output("match-board", "figure"),
        Output("match-score", "figure"),
        Output("match-caption", "children"),
        Input("match-step", "value"),
        State("match-pick", "value"),
        State("match-log-data", "data"),
    )
    @takes(step=kinds.STEP, match_id=kinds.TEXT, log=kinds.ROWS)
    def at_step(step, match_id, log):
        if not match_id or step is None or not log:
            raise PreventUpdate
        # A step's board and score never change once stored: kept across new events, as
        # plain dicts (Dash encodes those far faster than plotly Figure objects).
        board, score = source.keep(
            ("match step", match_id, step),
            lambda: [f.to_plotly_json() for f in step_figures(source, match_id, step)],
        )
        row = row_at(log, step) or source.remember(
            ("match row", match_id, step), lambda: in_words(step_row(source, match_id, step))
        )
        return board, score, replay.caption(row)


def _match_choices(source, search: str | None, value: str | None):
    """The match picker's options: the most recent matches, or those whose id starts with what
    was typed; the chosen match is kept among them."""
    matches = source.table("matches", order="started DESC", limit=RECENT)
    if search and len(search.strip()) >= 4:
        try:
            found = source.queries.candidates(search, limit=RECENT)
        except MatchNotFound:  # not the start of an id: nothing to offer
            found = []
        matches = (
            pd.concat([source.table("matches", match_id=m) for m in found])
            if found
            else matches.iloc[0:0]
        )
    if value and value not in set(matches["match_id"]):
        matches = pd.concat([source.table("matches", match_id=value), matches])
    rows = matches.to_dict("records")
    return [{"label": label(r), "value": r["match_id"]} for r in rows], value


def _register_load(app: dash.Dash, source) -> None:
    """Loading the picked match (and stepping through it with the back/forward buttons)."""

    @app.callback(
        Output("match-step", "max"),
        Output("match-step", "value"),
        Output("match-step", "marks"),
        Output("match-log", "rowData"),
        Output("match-log-data", "data"),
        Output("match-claims", "rowData"),
        Output("match-audit", "children"),
        Output("match-summary", "children"),
        Output("match-values", "children"),
        Input("match-pick", "value"),
        Input("match-position", "data"),
        Input("match-back", "n_clicks"),
        Input("match-forward", "n_clicks"),
        State("match-step", "value"),
        State("match-step", "max"),
        State("match-log-data", "data"),
    )
    @takes(match_id=kinds.TEXT, step=kinds.STEP, last=kinds.STEP, log=kinds.ROWS)
    def load(match_id, _position, _back, _forward, step, last, log):
        if not match_id:
            raise PreventUpdate
        if ctx.triggered_id in ("match-back", "match-forward") and log:
            move = -1 if ctx.triggered_id == "match-back" else 1
            step = min(max(0, (step or 0) + move), last or 0)
            return (dash.no_update, step, *[dash.no_update] * 7)
        try:
            view = source.remember(("match", match_id), lambda: match_view(source, match_id))
        except Refused as err:
            return 0, 0, {}, [], [], [], str(err), "", []
        end = view["steps"]
        # Follow new events only when the slider was at the end (or the match changed).
        if ctx.triggered_id != "match-position" or step is None or step >= (last or 0):
            step = end
        return _view_outputs(view, step)


def _view_outputs(view: dict, step: int) -> tuple:
    """The load callback's outputs for a loaded match view, the slider at `step`."""
    values = view["values"]
    return (
        view["steps"],
        step,
        view["marks"],
        view["log"],
        view["log"],
        view["claims"],
        view["audit"],
        view["summary"],
        []
        if values is None
        else graph("match-values-figure", figure=figures.value_history(values)),
    )


def match_view(source, match_id: str) -> dict:
    """Everything about a match that does not depend on the step (of a long match: its
    newest LOG_WINDOW events only)."""
    match = source.match(match_id)
    steps = match.version - Match.INITIAL_VERSION
    first = max(0, steps + 1 - LOG_WINDOW)
    log = replay.event_log(source.events(match_id, first), _rules(match.game), match.seats, first)
    flagged = {
        row["step"]: {"label": "undo" if row["event"] == "MoveUndone" else "!"}
        for row in log
        if row["event"] in ("MoveUndone", "DisputeRaised")
    }
    marks: dict[int, str | dict[str, str]] = {
        0: "start",
        **{int(k): v for k, v in flagged.items()},
        steps: "now",
    }
    whole = steps < WHOLE_UP_TO
    claims, audit_text = claims_section(source, match, audit=whole)
    status = views.status(match)
    summary = (
        f"{match.rules.name}, {count(len(match.seats), 'player')} ({', '.join(match.seats)}); "
        f"{status}; {count(len(match.moves), 'effective move')}, {len(match.undos)} undone; "
        f"{count(steps, 'step')}" + (f"; the log shows the newest {len(log)}" if first else "")
    )
    summary += checkpoint_state(source.recorder, match.id)  # who signed it, verified or not
    return {
        "log": [in_words(row) for row in log],
        "steps": steps,
        "marks": marks,
        "claims": claims,
        "audit": audit_text,
        "summary": summary,
        "values": replay.solved_values(match) if whole else None,
    }


def count(number: int, thing: str) -> str:
    """How many, in words: "1 player", "2 players"."""
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


def in_words(row: replay.EventRow) -> replay.EventRow:
    """An event log row as the page shows it: what happened in words, not a class name."""
    return {**row, "event": replay.EVENT_WORDS.get(row["event"], row["event"])}


def _rules(game: str):
    try:
        return get_rules(game)
    except RulesError:
        return None


def row_at(log: list[replay.EventRow], step: int) -> replay.EventRow | None:
    """The log row of `step` when the page holds it (the log may be a long match's tail)."""
    index = step - log[0]["step"]
    return log[index] if 0 <= index < len(log) and log[index]["step"] == step else None


def step_row(source, match_id: str, step: int) -> replay.EventRow:
    """The log row of one step the page does not hold, read alone from the store."""
    match = source.match(match_id, 0)
    (row,) = replay.event_log(
        source.events(match_id, step, step), _rules(match.game), match.seats, step
    )
    return row


def claims_section(source, match, audit: bool = True) -> tuple[list[replay.ClaimRow], str]:
    """The claims beside the rules' result, from the audit (which also checks the hash chain);
    without it (a long match), beside the rules' score now."""
    try:
        from tablelog.domain.integrity.audit import audit_match

        audited = audit
    except ImportError:
        audited = False
    if audited:
        report = audit_match(source.recorder, match.id)
        # The demo's planted slips are listed apart by the audit; show them, marked as such.
        messages = [f["message"] for f in report["findings"]] + [
            f"(the demo's planted example) {f['message']}" for f in report.get("planted", [])
        ]
        findings = (
            "; ".join(messages)
            if messages
            else "no findings: the hash chain is intact and every claim agrees"
        )
        rules = (report.get("outcome") or {}).get("rules")
        outcome = f"By the rules: {views.outcome_text(rules)}. " if rules else ""
        return replay.claims_against_rules(report), f"{outcome}Audit: {findings}."
    try:
        totals = [entry["total"] for entry in match.rules.score(match.state)]
    except RulesError:
        totals = None
    note = (
        ""
        if audit
        else (
            f"A long match: claims beside the score now; `tablelog audit "
            f"{str(match.id)[:8]}` checks every move and the hash chain."
        )
    )
    return replay.claims_without_audit(match.claims, match.seats, totals), note


def sheet_figures(match, title: str):
    """A score-sheet match's figures: no board; each seat's categories, or its total alone
    where the sheet has no categories (docs/interop.md)."""
    entries = [
        {
            **e,
            "categories": e["categories"] or ({} if e["total"] is None else {"total": e["total"]}),
        }
        for e in views.sheet_score_view(match)["seats"]
    ]
    totals = {
        n: float(e["total"]) for n, e in enumerate(entries, start=1) if e["total"] is not None
    }
    return (
        empty("Board", "logged from its score sheet: no board"),
        figures.score_breakdown(
            figures.score_rows(match.seats, entries), totals or None, f"{title} (score sheet)"
        ),
    )


def step_figures(source, match_id: str, step: int):
    """The board and the score figure after `step` (also what the benchmark times)."""
    match = source.match(match_id, step)
    title = f"Score after step {step}"
    if match.kind == "sheet":  # logged from its score sheet: no board, the sheet's scores
        return sheet_figures(match, title)
    try:
        state = match.rules.encode(match.state)
        board = games.draw(match.game, state, match.seats)
    except RulesError as err:
        board = empty("Board", str(err))
    try:
        scores = match.rules.score(match.state)
        rows = figures.score_rows(match.seats, scores)
        totals = {n: float(e["total"]) for n, e in enumerate(scores, start=1)}
        score = figures.score_breakdown(rows, totals, title)
    except RulesError as err:  # a hidden tile the score needs was never revealed
        score = figures.score_breakdown(figures.score_rows([], []), None, f"{title}: {err}")
    return board, score
