"""Record: log a match at the table by tapping. Start a match (game, players, variant, the setup
the table sees), then for the seat to move tap the move: only legal moves are offered, grouped
the way a player thinks (`dashboard/games/<game>.py`). Undo (who and why), the live score, the
claimed result and the end of the match, and a link to the match's replay.

The URL carries the match (`/record?match=ID`), so a reload or a second device continues it; a
page that fell behind another device reloads itself (the clock polls the match's version).
Writes go through one callback, which asks the app's write policy first (`tablelog.access`:
open on loopback, the write token elsewhere, kept in this browser session only).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from datetime import datetime
from threading import Lock

import dash
import flask
from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from tablelog.dashboard import games
from tablelog.dashboard.record import Question, Ready, StalePicks, actions, menu
from tablelog.dashboard.record import setup as setups
from tablelog.dashboard.record import sheet as sheets
from tablelog.dashboard.record.widgets import (BUTTON, FIELD, HIDDEN, PRIMARY, QUIET, ROW, SECTION,
                                      chips, question, score_table)
from tablelog.domain import views
from tablelog.domain.errors import Conflict, MatchNotFound
from tablelog.domain.games import GAMES, RulesError

dash.register_page(__name__, path="/record", name="Record", order=4, title="Tablelog: record")

POLL_MS = 3000
CACHED = 16
BOARD = {"displayModeBar": False, "staticPlot": True, "responsive": True}


def WRITE(action) -> dict:  # noqa: N802 - reads as the id it makes
    """The id of a button that writes: one callback takes every one of them."""
    return {"type": "record-write", "action": action}


def layout(match: str | None = None, **_query):
    return html.Div([
        html.H2("Record"),
        dcc.Location(id="record-url", refresh=False),
        dcc.Store(id="record-token", storage_type="session"),
        dcc.Store(id="record-match", data=match),
        dcc.Store(id="record-version"),
        dcc.Store(id="record-picks", data=[]),
        dcc.Store(id="record-setup-picks", data=[]),
        dcc.Interval(id="record-tick", interval=POLL_MS),
        html.Div([
            html.Label("Write token", htmlFor="record-token-input"),
            html.Div([dcc.Input(id="record-token-input", type="password", style=FIELD,
                                placeholder="the token shown when the server started"),
                      html.Button("Use token", id="record-token-save", n_clicks=0,
                                  style=QUIET)], style={**ROW, "flexWrap": "nowrap"}),
            html.Div(id="record-token-note", className="note"),
        ], id="record-token-box", style=HIDDEN),
        html.Div(id="record-message", role="status", **{"aria-live": "polite"},
                 style={"minHeight": "1.4em", "fontSize": "16px", "margin": "4px 0 8px"}),
        html.Div(start_form(), id="record-start", style=HIDDEN if match else SECTION),
        sheets.form(),
        html.Div(play_area(), id="record-play", style=SECTION if match else HIDDEN),
    ], style={"maxWidth": "720px", "margin": "0 auto", "overflowX": "hidden"})


def start_form() -> list:
    return [
        html.H3("Start a match", style={"margin": "4px 0"}),
        html.Label("Players in turn order, separated by commas", htmlFor="record-players"),
        dcc.Input(id="record-players", type="text", style=FIELD, debounce=False,
                  placeholder="Ann, Ben"),
        html.Div("Game", style={"marginTop": "10px"}),
        html.Div([html.Button(rules.name, id={"type": "record-game", "game": game},
                              n_clicks=0, style=BUTTON) for game, rules in GAMES.items()],
                 style=ROW),
        html.Div(id="record-setup"),
        html.Label(f"Played at, if you log a game after it was played (server time, "
                   f"{datetime.now().astimezone():UTC%z}); empty: now",
                   htmlFor="record-played-at", style={"display": "block", "marginTop": "10px"}),
        dcc.Input(id="record-played-at", type="datetime-local", style=FIELD),
        html.Button("Start the match", id=WRITE("start"), n_clicks=0, style=PRIMARY),
    ]


def play_area() -> list:
    return [
        html.Div(id="record-summary", className="note"),
        html.A("Replay this match", id="record-replay", href="#", style={"fontSize": "15px"}),
        html.Div(id="record-to-move", style={"fontSize": "18px", "fontWeight": "600",
                                             "margin": "8px 0"}),
        html.Div(id="record-picker"),
        dcc.Graph(id="record-board", config=BOARD, style={"maxWidth": "100%"}),
        html.H3("Score", style={"margin": "8px 0 4px"}),
        html.Div(id="record-score", style={"overflowX": "auto"}),
        html.Div(id="record-end"),
        html.Details([
            html.Summary("Undo the last move", style={"minHeight": "44px", "fontSize": "16px"}),
            html.Div("Who takes it back?"),
            dcc.RadioItems(id="record-undo-by", options=[], inline=True,
                           inputStyle={"width": "22px", "height": "22px"},
                           labelStyle={"padding": "8px 12px 8px 0"}),
            dcc.Input(id="record-undo-reason", type="text", style=FIELD,
                      placeholder="why (e.g. wrong cell entered)"),
            html.Div(html.Button("Undo the last move", id=WRITE("undo"), n_clicks=0,
                                 style=QUIET), style=ROW),
            html.Button("End now as a draw by agreement", id=WRITE("draw"), n_clicks=0,
                        style=QUIET),
        ], id="record-more", style={"marginTop": "12px"}),
    ]


def end_form(match, seats: list[str], totals: list | None) -> list:
    """When the rules say the game is over: the result, the claim, the end."""
    outcome = match.rules_outcome()
    winners = [seats[s] for s in outcome.winners]
    said = (f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}" if winners
            else "no winner")
    return [
        html.H3("The game is over", style={"margin": "10px 0 4px"}),
        html.Div(f"By the rules: {said} ({outcome.reason})."),
        html.Div("What does the table claim?", style={"marginTop": "8px"}),
        html.Div([html.Div([html.Label(name, htmlFor=f"record-claim-{i}"),
                            dcc.Input(id={"type": "record-claim", "seat": i}, type="number",
                                      value=None if totals is None else totals[i],
                                      style={**FIELD, "width": "110px"})],
                           style={"display": "flex", "flexDirection": "column"})
                  for i, name in enumerate(seats)], style=ROW),
        html.Div("Claimed by"),
        dcc.RadioItems(id={"type": "record-claim-by", "form": "end"},
                       options=[{"label": n, "value": n} for n in seats], value=seats[0],
                       inline=True, inputStyle={"width": "22px", "height": "22px"},
                       labelStyle={"padding": "8px 12px 8px 0"}),
        html.Div([html.Button("Claim this result", id=WRITE("claim"), n_clicks=0, style=QUIET),
                  html.Button("End the match", id=WRITE("end"), n_clicks=0, style=PRIMARY)],
                 style=ROW),
    ]


class Matches:
    """The app's recently shown matches by (id, version): a tap replays nothing. A version is
    one position in the match's event stream, so a cached entry never goes stale."""

    def __init__(self, recorder) -> None:
        self.recorder = recorder
        self._cache: OrderedDict = OrderedDict()
        self._lock = Lock()

    def get(self, match_id: str, version: int | None = None):
        with self._lock:
            if (match_id, version) in self._cache:
                self._cache.move_to_end((match_id, version))
                return self._cache[(match_id, version)]
        match = self.recorder.get(match_id)
        if version is not None and match.version != version:
            raise Conflict(actions.RELOADED)
        self.put(match)
        return match

    def put(self, match) -> None:
        with self._lock:
            self._cache[(str(match.id), match.version)] = match
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)

    def version(self, match_id: str) -> int:
        """The match's version now, read from its last stored event only."""
        from tablelog.domain.recorder import _as_uuid
        last = self.recorder.recorder.select_events(_as_uuid(match_id), desc=True, limit=1)
        if not last:
            raise MatchNotFound(f"no match {match_id} in this store")
        return last[0].originator_version


def pick_label(key: str, value) -> str:
    """A chip: the answer as the player gave it ('piece: a1', 'east.card: Red')."""
    shown = value if not isinstance(value, list) else ", ".join(map(str, value))
    if isinstance(shown, str) and shown.startswith(("supply:", "hand:")):
        shown = shown.split(":", 1)[1]
    return f"{key.split('.')[-1]}: {shown if shown != '' else 'none'}"


def register(app: dash.Dash, source) -> None:
    matches = Matches(source.recorder)
    recorder = source.recorder

    def policy():
        return app.server.extensions.get(actions.POLICY)

    sheets.register(app, recorder, policy)

    @app.callback(Output("record-token-box", "style"), Output("record-token-note", "children"),
                  Input("record-url", "pathname"), State("record-token", "data"))
    def token_box(_path, token):
        rule = policy()
        if rule is None or rule.open:
            return HIDDEN, ""
        return ({"marginBottom": "10px"},
                "A token is kept for this browser session." if token else
                "This server records only with its write token; pages stay open to read.")

    @app.callback(Output("record-token", "data"), Output("record-token-note", "children",
                                                         allow_duplicate=True),
                  Input("record-token-save", "n_clicks"), State("record-token-input", "value"),
                  prevent_initial_call=True)
    def save_token(_clicks, token):
        token = (token or "").strip()
        return token or None, ("The token is kept for this browser session; it is checked "
                               "with every write." if token else "No token given.")

    @app.callback(Output("record-version", "data"), Input("record-match", "data"))
    def load(match_id):
        if not match_id:
            raise PreventUpdate
        try:
            return matches.get(match_id).version
        except MatchNotFound:
            return None

    @app.callback(Output("record-version", "data", allow_duplicate=True),
                  Output("record-picks", "data", allow_duplicate=True),
                  Output("record-message", "children", allow_duplicate=True),
                  Input("record-tick", "n_intervals"), State("record-match", "data"),
                  State("record-version", "data"), prevent_initial_call=True)
    def follow(_tick, match_id, version):
        """Another device recorded meanwhile: show the match as it is now."""
        if not match_id or version is None:
            raise PreventUpdate
        try:
            now = matches.version(match_id)
        except MatchNotFound:
            raise PreventUpdate from None
        if now == version:
            raise PreventUpdate
        return now, [], "the match changed on another device; reloaded"

    @app.callback(Output("record-start", "style"), Output("record-play", "style"),
                  Output("record-summary", "children"), Output("record-replay", "href"),
                  Output("record-to-move", "children"), Output("record-board", "figure"),
                  Output("record-score", "children"), Output("record-end", "children"),
                  Output("record-undo-by", "options"), Output("record-undo-by", "value"),
                  Output("record-more", "style"),
                  Input("record-version", "data"), State("record-match", "data"),
                  State("record-undo-by", "value"))
    def show(version, match_id, undo_by):
        if not match_id:
            return (SECTION, HIDDEN, *[no_update] * 9)
        try:
            match = matches.get(match_id, version)
        except (MatchNotFound, Conflict) as err:
            return (SECTION, HIDDEN, str(err), *[no_update] * 8)
        seats, rules = list(match.seats), match.rules
        status = "disputed" if match.open_disputes else match.status
        if match.kind == "sheet":  # no board, no moves: the sheet and its result
            return (HIDDEN, SECTION, f"{rules.name} · {', '.join(seats)} · {status} · score "
                    f"sheet · match {str(match.id)[:8]}", f"/match?id={match.id}",
                    f"The match has {match.status}: {_result(match)}", {},
                    html.Pre(views.sheet_text(match)), [], [], None, HIDDEN)
        summary = (f"{rules.name} · {', '.join(seats)} · {status} · move {len(match.moves)}"
                   f" · match {str(match.id)[:8]}")
        board = games.draw(match.game, rules.encode(match.state), seats)
        board.update_layout(height=380, margin={"l": 4, "r": 4, "t": 40, "b": 4})
        totals, score = None, None
        try:
            entries = rules.score(match.state)
            totals = [entry["total"] for entry in entries]
            score = score_table(seats, entries)
        except RulesError as err:  # a hidden tile the score needs is not revealed yet
            score = html.Div(str(err), className="note")
        ended = match.status != "running"
        if ended:
            to_move = (f"The match has {match.status}" + (f": {_result(match)}" if match.outcome
                                                         else "."))
        elif rules.outcome(match.state) is not None:
            to_move = "The game is over by the rules."
        else:
            awaited = rules.to_move(match.state)
            to_move = "To move: " + " and ".join(seats[s] for s in awaited)
        end = (end_form(match, seats, totals) if not ended
               and match.rules_outcome() is not None else [])
        people = [{"label": name, "value": name} for name in seats]
        return (HIDDEN, SECTION, summary, f"/match?id={match.id}", to_move, board, score, end,
                people, undo_by if undo_by in seats else seats[0],
                HIDDEN if ended else {"marginTop": "12px"})

    @app.callback(Output("record-picker", "children"), Input("record-picks", "data"),
                  Input("record-version", "data"), State("record-match", "data"))
    def picker(picks, version, match_id):
        if not match_id or version is None:
            return []
        try:
            match = matches.get(match_id, version)
        except (MatchNotFound, Conflict):
            return []
        if match.kind == "sheet":  # logged from its sheet: no moves to pick
            return []
        awaited = match.rules.to_move(match.state)
        if match.status != "running" or not awaited:
            return []
        try:
            step = menu(match.game, match.rules, match.state, awaited[0], picks or [],
                        list(match.seats))
        except StalePicks as err:
            return html.Div(f"{err}: take an answer back", className="warning")
        # The number of answers given, for a test (or a screen reader) to follow the taps.
        answered = html.Div(chips(picks or [], "record-back", pick_label),
                            className="record-answers", **{"data-picks": str(len(picks or []))})
        if isinstance(step, Question):
            return [answered, question(step, "record-option")]
        return [answered,
                html.Div(f"{' and '.join(match.seats[s] for s in awaited)} "
                         f"{match.rules.describe(step.move)}", className="record-ready",
                         style={"fontSize": "17px", "margin": "6px 0"}),
                html.Button("Record this move", id=WRITE("commit"), n_clicks=0, style=PRIMARY)]

    @app.callback(Output("record-picks", "data"),
                  Input({"type": "record-option", "key": ALL, "value": ALL}, "n_clicks"),
                  Input({"type": "record-back", "index": ALL}, "n_clicks"),
                  State("record-picks", "data"), prevent_initial_call=True)
    def pick(_options, _backs, picks):
        return _tapped(picks)

    @app.callback(Output("record-setup-picks", "data"),
                  Input({"type": "record-setup-option", "key": ALL, "value": ALL}, "n_clicks"),
                  Input({"type": "record-setup-back", "index": ALL}, "n_clicks"),
                  Input({"type": "record-game", "game": ALL}, "n_clicks"),
                  State("record-setup-picks", "data"), prevent_initial_call=True)
    def pick_setup(_options, _backs, _games, picks):
        if isinstance(ctx.triggered_id, dict) and ctx.triggered_id.get("type") == "record-game":
            if not ctx.triggered[0]["value"]:
                raise PreventUpdate
            return [["game", ctx.triggered_id["game"]]]
        return _tapped(picks)

    @app.callback(Output("record-setup", "children"), Input("record-setup-picks", "data"),
                  Input("record-players", "value"))
    def show_setup(picks, players):
        picks = picks or []
        game = next((value for key, value in picks if key == "game"), None)
        if game is None:
            return html.Div("Choose the game.", className="note")
        players = len([n for n in (players or "").split(",") if n.strip()])
        rules = GAMES[game]
        head = html.Div(f"{rules.name}, {players} player(s)", style={"fontWeight": "600"})
        answered = html.Div(chips(picks, "record-setup-back", pick_label),
                            className="record-answers", **{"data-picks": str(len(picks))})
        try:
            step = setups.menu(game, max(players, rules.min_players), picks[1:])
        except StalePicks as err:
            return [head, answered, html.Div(str(err), className="warning")]
        if isinstance(step, Ready):
            return [head, answered, html.Div("The setup is complete.", className="note")]
        return [head, answered, question(step, "record-setup-option")]

    @app.callback(Output("record-message", "children"),
                  Output("record-version", "data", allow_duplicate=True),
                  Output("record-picks", "data", allow_duplicate=True),
                  Output("record-match", "data"), Output("record-url", "search"),
                  Input(WRITE(ALL), "n_clicks"),
                  State("record-token", "data"), State("record-match", "data"),
                  State("record-version", "data"), State("record-picks", "data"),
                  State("record-undo-by", "value"), State("record-undo-reason", "value"),
                  State({"type": "record-claim", "seat": ALL}, "value"),
                  State({"type": "record-claim-by", "form": ALL}, "value"),
                  State("record-setup-picks", "data"),
                  State("record-players", "value"), State("record-played-at", "value"),
                  prevent_initial_call=True)
    def write(_taps, token, match_id, version, picks, undo_by, reason, claimed, claim_by,
              setup_picks, players, played_at):
        """Every write of the page, one door: the policy first, then one recorder call."""
        if not ctx.triggered or not ctx.triggered[0]["value"]:
            raise PreventUpdate  # a button drawn afresh, not a tap
        refused = actions.write_refusal(policy(), token, flask.request.host)
        if refused:
            return refused, no_update, no_update, no_update, no_update
        action = ctx.triggered_id["action"]
        try:
            if action == "start":
                setup_picks = setup_picks or []
                game = next((v for k, v in setup_picks if k == "game"), None)
                new_id, said = actions.start(recorder, game, players, setup_picks[1:],
                                             played_at)
                return said, None, [], new_id, f"?match={new_id}"
            if action == "commit":
                done, said = actions.record(recorder, match_id, version, picks or [])
            elif action == "undo":
                done, said = actions.undo(recorder, match_id, version, undo_by, reason)
            elif action == "claim":
                seats = list(matches.get(match_id, version).seats)
                done, said = actions.claim(recorder, match_id, version, (claim_by or [None])[0],
                                           dict(zip(seats, claimed)))
            else:
                done, said = actions.end(recorder, match_id, version,
                                         agreed_draw=action == "draw")
        except Conflict:
            return actions.RELOADED, _now(matches, match_id), [], no_update, no_update
        except actions.REFUSALS as err:
            return f"refused: {err}", no_update, no_update, no_update, no_update
        matches.put(done)
        return said, done.version, [], no_update, no_update


def _tapped(picks: list) -> list:
    """The picks after a tap: an option adds its answer, a chip takes answers back."""
    if not ctx.triggered or not ctx.triggered[0]["value"]:
        raise PreventUpdate  # buttons drawn afresh report n_clicks 0, not a tap
    tapped, picks = ctx.triggered_id, list(picks or [])
    if "index" in tapped:
        return picks[:tapped["index"]]
    return [*picks, [tapped["key"], json.loads(tapped["value"])]]


def _now(matches: Matches, match_id: str) -> int | None:
    try:
        return matches.version(match_id)
    except MatchNotFound:
        return None


def _result(match) -> str:
    winners = [match.seats[s] for s in match.outcome["winners"]]
    return (f"won by {' and '.join(winners)}" if winners else "no winner") + (
        f" ({match.outcome['reason']})")
