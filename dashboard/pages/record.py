"""Record: log a match at the table by tapping. Start a match (game, players, variant, the setup
the table sees), then for the seat to move tap the move: only legal moves are offered, grouped
the way a player thinks (`dashboard/games/<game>.py`). Undo (who and why), the live score, the
claimed result and the end of the match, and a link to the match's replay.

The URL carries the match (`/record?match=ID`), so a reload or a second device continues it; a
page that fell behind another device reloads itself (the clock polls the match's version).
Writes go through one callback, which asks the app's write policy first (`tablelog.access`:
open on loopback, the write token elsewhere, kept in this browser session only).

Every callback here reads its inputs, asks one function of `dashboard/record/steps.py` (or
`actions.write`) what to do, and draws the answer with `dashboard/record/panels.py`.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import dash
import flask
from dash import ALL, Input, NoUpdate, Output, State, dcc, html
from dash.exceptions import PreventUpdate

from tablelog.dashboard import kinds
from tablelog.dashboard.callbacks import WrongInput, takes
from tablelog.dashboard.policy import write_policy
from tablelog.dashboard.record import actions, panels, steps, tapping
from tablelog.dashboard.record import sheet as sheets
from tablelog.dashboard.record.matches import Matches
from tablelog.dashboard.record.panels import write_id
from tablelog.dashboard.record.widgets import (
    BUTTON,
    FIELD,
    HIDDEN,
    PRIMARY,
    QUIET,
    ROW,
    SECTION,
    game_data,
)
from tablelog.domain.games import GAMES

if TYPE_CHECKING:
    from tablelog.access import WritePolicy
    from tablelog.dashboard.data import Source

dash.register_page(__name__, path="/record", name="Record", order=4, title="Tablelog: record")

POLL_MS = 3000
MESSAGE = "record-message"  # where a refusal inside a callback is said (dashboard/endpoint.py)
# What the page holds when a write button is tapped, in the order of `actions.Form`.
FORM = (
    kinds.TEXT,  # the write token
    kinds.TEXT,  # the match shown
    kinds.COUNT,  # its version
    kinds.PICKS,  # the move's answers so far
    kinds.TEXT,  # who takes the move back
    kinds.TEXT,  # why
    kinds.NUMBERS,  # the claim's scores, seat by seat
    kinds.TEXTS,  # who claims
    kinds.SETUP_PICKS,  # the start form's answers
    kinds.TEXT,  # the players, in turn order
    kinds.TEXT,  # when it was played
    kinds.TEXT,  # this page's own id
    kinds.TEXT,  # the token as typed in its box (steps.token_in_use)
)
LIVE: dict[str, Any] = {"aria-live": "polite"}  # a screen reader reads each message
UNSEEN: dict[str, Any] = {"aria-hidden": "true"}  # room only: nothing to read
# The lines above the board keep their height whatever they say (the board stays put).
ONE_LINE = {"whiteSpace": "nowrap", "overflow": "hidden", "textOverflow": "ellipsis"}
# Not static: the board takes taps (its tap targets answer the question asked); nothing zooms.
BOARD: dcc.Graph.Config = {
    "displayModeBar": False,
    "responsive": True,
    "scrollZoom": False,
    "doubleClick": False,
    "showTips": False,
}

T = TypeVar("T")


def layout(match: str | None = None, **_query):
    """The page; `match` (from `?match=`) is a match id or a unique prefix of it. A prefix that
    names no match, or several, says so above the start form."""
    match, problem = steps.resolved(_find(), match)
    return html.Div(
        [
            html.H2("Record"),
            who_is_signed_in(),
            dcc.Location(id="record-url", refresh=False),
            dcc.Store(id="record-token", storage_type="session"),
            dcc.Store(id="record-match", data=match),
            dcc.Store(id="record-version"),
            # This page load's own id: a write it made is not "another device" (matches.py).
            dcc.Store(id="record-page", data=uuid.uuid4().hex),
            dcc.Store(id="record-picks", data=[]),
            dcc.Store(id="record-setup-picks", data=[]),
            dcc.Store(id=tapping.TAP_STORE),  # a tap on the board (dashboard/record/tapping.py)
            dcc.Store(id=tapping.HEARD),
            dcc.Store(id=tapping.ANSWER),  # the server's answer to each board tap
            dcc.Store(id=tapping.WRITTEN),  # the server's answer to each write button
            dcc.Store(id=tapping.SETUP_TAP),  # a tap on the start form's buttons
            dcc.Store(id=tapping.WRITE_TAP),  # a tap on a write button
            dcc.Interval(id="record-tick", interval=POLL_MS),
            _token_box(),
            html.Div(
                problem,
                id="record-message",
                role="status",
                **LIVE,
                # Three lines kept (an engine's refusal takes three on a phone): a message
                # coming or going never moves the board under a finger about to tap it.
                style={"minHeight": "4.2em", "fontSize": "16px", "margin": "4px 0 8px"},
            ),
            html.Div(start_form(), id="record-start", style=HIDDEN if match else SECTION),
            sheets.form(),
            html.Div(play_area(), id="record-play", style=SECTION if match else HIDDEN),
            # Room below the page's end: when the questions below the board get shorter (a
            # long list of pieces, then a few cells), a page scrolled down to its buttons is
            # not pulled back, and the board does not jump under a finger about to tap it.
            html.Div(style={"height": "60vh"}, **UNSEEN),
        ],
        style={"maxWidth": "720px", "margin": "0 auto", "overflowX": "hidden"},
    )


def _token_box() -> html.Div:
    """Where a write token is typed, shown only when the server asks for one."""
    return html.Div(
        [
            html.Label("Write token", htmlFor="record-token-input"),
            html.Div(
                [
                    dcc.Input(
                        id="record-token-input",
                        type="password",
                        style=FIELD,
                        placeholder="the token shown when the server started",
                    ),
                    html.Button("Use token", id="record-token-save", n_clicks=0, style=QUIET),
                ],
                style={**ROW, "flexWrap": "nowrap"},
            ),
            html.Div(id="record-token-note", className="note"),
        ],
        id="record-token-box",
        style=HIDDEN,
    )


def who_is_signed_in() -> html.Div | html.Form:
    """Who is signed in (with a sign-out button), or a sign-in link where the store has
    accounts; nothing where it has none (one person, no sign-in)."""
    source = flask.current_app.extensions.get("tablelog") if flask.has_app_context() else None
    if source is None or not flask.has_request_context():
        return html.Div(id="record-who")
    from flask_wtf.csrf import generate_csrf

    from tablelog.domain.recording.users import users_of
    from tablelog.signin import signed_in_user

    person = signed_in_user()
    if person is None:
        if not users_of(source.recorder).accounts_on():
            return html.Div(id="record-who")
        return html.Div(
            ["Not signed in: ", html.A("sign in", href="/signin"), " to record."],
            id="record-who",
        )
    return html.Form(
        [
            f"Signed in as {person.name} ({person.role}) ",
            dcc.Input(type="hidden", name="csrf_token", value=generate_csrf()),
            html.Button("Sign out", type="submit", style=QUIET),
        ],
        id="record-who",
        method="post",
        action="/signout",
    )


def _find() -> Callable[[str], uuid.UUID] | None:
    """The app's lookup of a match by id or prefix (None outside a request, as in a test that
    builds the layout alone)."""
    source = flask.current_app.extensions.get("tablelog") if flask.has_app_context() else None
    return None if source is None else source.queries.find


def start_form() -> list:
    return [
        html.H3("Start a match", style={"margin": "4px 0"}),
        html.Label("Players in turn order, separated by commas", htmlFor="record-players"),
        dcc.Input(
            id="record-players", type="text", style=FIELD, debounce=False, placeholder="Ann, Ben"
        ),
        html.Div("Game", style={"marginTop": "10px"}),
        html.Div(
            [
                html.Button(
                    rules.name,
                    id={"type": "record-game", "game": game},
                    n_clicks=0,
                    style=BUTTON,
                    **game_data(game),
                )
                for game, rules in GAMES.items()
            ],
            style=ROW,
        ),
        html.Div(id="record-setup"),
        html.Label(
            f"Played at, if you log a game after it was played (server time, "
            f"{datetime.now().astimezone():UTC%z}); empty: now",
            htmlFor="record-played-at",
            style={"display": "block", "marginTop": "10px"},
        ),
        dcc.Input(
            id="record-played-at",
            type="datetime-local",  # type: ignore[arg-type]
            style=FIELD,
        ),  # Dash's stubs lack the HTML input types it renders
        html.Button("Start the match", id=write_id("start"), n_clicks=0, style=PRIMARY),
    ]


def play_area() -> list:
    return [
        html.Div(id="record-summary", className="note", style=ONE_LINE),
        html.A("Replay this match", id="record-replay", href="#", style={"fontSize": "15px"}),
        html.Div(
            id="record-to-move",
            style={**ONE_LINE, "fontSize": "18px", "fontWeight": "600", "margin": "8px 0"},
        ),
        # Two lines kept for what to tap, asked or not: the board below stays where it is.
        html.Div(id="record-hint", className="note", style={"minHeight": "2.8em"}),
        # The board fills its box's width and height (panels.BOARD_HEIGHT), whatever the
        # screen: in a box of no height the figure would lie over the buttons below it.
        html.Div(
            dcc.Graph(id="record-board", config=BOARD, responsive=True, style={"height": "100%"}),
            id="record-board-box",
            className="board",
            style=HIDDEN,  # until there is a board to draw
        ),
        html.Div(id="record-picker"),
        html.H3("Score", style={"margin": "8px 0 4px"}),
        html.Div(id="record-score", style={"overflowX": "auto"}),
        html.Div(id="record-end"),
        html.Details(
            [
                html.Summary("Undo the last move", style={"minHeight": "44px", "fontSize": "16px"}),
                html.Div("Who takes it back?"),
                dcc.RadioItems(
                    id="record-undo-by",
                    options=[],
                    inline=True,
                    inputStyle={"width": "22px", "height": "22px"},
                    labelStyle={"padding": "8px 12px 8px 0"},
                ),
                dcc.Input(
                    id="record-undo-reason",
                    type="text",
                    style=FIELD,
                    placeholder="why (e.g. wrong cell entered)",
                ),
                html.Div(
                    html.Button("Undo the last move", id=write_id("undo"), n_clicks=0, style=QUIET),
                    style=ROW,
                ),
                html.Button(
                    "End now as a draw by agreement", id=write_id("draw"), n_clicks=0, style=QUIET
                ),
            ],
            id="record-more",
            style={"marginTop": "12px"},
        ),
    ]


def register(app: dash.Dash, source: Source) -> None:
    matches = Matches(source.recorder)

    def policy() -> WritePolicy | None:
        return write_policy(app.server)

    sheets.register(app, source.recorder, policy)
    _token(app, policy)
    _match(app, matches)
    _picks(app, matches)
    _setup_picks(app)
    tapping.register(app)
    _writes(app, matches, policy)


def _changed(value: T | None) -> T:
    if value is None:
        raise PreventUpdate
    return value


def _kept(value: T | None) -> T | NoUpdate:
    return dash.no_update if value is None else value


def _token(app: dash.Dash, policy: Callable[[], WritePolicy | None]) -> None:
    @app.callback(
        Output("record-token-box", "style"),
        Output("record-token-note", "children"),
        Input("record-url", "pathname"),
        State("record-token", "data"),
    )
    @takes(token=kinds.TEXT)
    def token_box(_path, token):
        return panels.token_box(steps.token_box(policy(), token))

    @app.callback(
        Output("record-token", "data"),
        Output("record-token-note", "children", allow_duplicate=True),
        Input("record-token-save", "n_clicks"),
        State("record-token-input", "value"),
        prevent_initial_call=True,
    )
    @takes(token=kinds.TEXT)
    def save_token(_clicks, token):
        return steps.saved_token(token)


def _match(app: dash.Dash, matches: Matches) -> None:
    @app.callback(Output("record-version", "data"), Input("record-match", "data"))
    @takes(match_id=kinds.TEXT)
    def load(match_id):
        if not match_id:
            raise PreventUpdate
        return matches.loaded(match_id)

    @app.callback(
        Output("record-version", "data", allow_duplicate=True),
        Output("record-picks", "data", allow_duplicate=True),
        Output("record-message", "children", allow_duplicate=True),
        Input("record-tick", "n_intervals"),
        State("record-match", "data"),
        State("record-version", "data"),
        State("record-page", "data"),
        prevent_initial_call=True,
    )
    @takes(match_id=kinds.TEXT, version=kinds.COUNT, page=kinds.TEXT)
    def follow(_tick, match_id, version, page):
        """Another device recorded meanwhile: show the match as it is now. A version this
        page wrote itself is left to its write's answer."""

        def mine(match: str, at: int) -> bool:
            return matches.mine(match, at, page)

        return _changed(steps.followed(match_id, version, matches.now, mine))

    @app.callback(
        Output("record-start", "style"),
        Output("record-play", "style"),
        Output("record-summary", "children"),
        Output("record-replay", "href"),
        Output("record-to-move", "children"),
        Output("record-score", "children"),
        Output("record-end", "children"),
        Output("record-undo-by", "options"),
        Output("record-undo-by", "value"),
        Output("record-more", "style"),
        Input("record-version", "data"),
        State("record-match", "data"),
        State("record-undo-by", "value"),
    )
    @takes(version=kinds.COUNT, match_id=kinds.TEXT, undo_by=kinds.TEXT)
    def show(version, match_id, undo_by):
        return panels.play(steps.showing(matches.get, match_id, version, undo_by))


def _picks(app: dash.Dash, matches: Matches) -> None:
    @app.callback(
        Output("record-picker", "children"),
        Output("record-board", "figure"),
        Output("record-board-box", "style"),
        Output("record-hint", "children"),
        Input("record-picks", "data"),
        Input("record-version", "data"),
        State("record-match", "data"),
    )
    @takes(picks=kinds.PICKS, version=kinds.COUNT, match_id=kinds.TEXT)
    def picker(picks, version, match_id):
        """The question as buttons, and the board with its legal answers to tap."""
        asked = steps.asking(matches.get, match_id, version, picks)
        drawn = steps.board(matches.get, match_id, version, asked)
        return panels.picker(asked), *panels.board(drawn)

    @app.callback(
        Output("record-picks", "data"),
        Output("record-message", "children", allow_duplicate=True),
        Output(tapping.ANSWER, "data"),
        Input(tapping.TAP_STORE, "data"),
        State("record-picks", "data"),
        State("record-match", "data"),
        State("record-version", "data"),
        prevent_initial_call=True,
    )
    @takes(tap=tapping.TAP, picks=kinds.PICKS, match_id=kinds.TEXT, version=kinds.COUNT)
    def pick(tap, picks, match_id, version):
        """A button, a chip or the board was tapped: the answer joins the picks (a chip takes
        them back); a tap that gives none says why. Every tap is acknowledged: the page sends
        the next one once this one is answered (dashboard/record/tapping.py). Its only input is
        the listener's store: with the buttons as inputs, each redraw of the question called it
        afresh, and Dash threw away the answer to a tap still under way (issue 44)."""
        after, said = steps.tap_answer(matches.get, match_id, version, picks, tap)
        heard = {"at": (tap or {}).get("at"), "taken": after is not None}
        return _kept(after), _kept(said), heard


def _setup_picks(app: dash.Dash) -> None:
    @app.callback(
        Output("record-setup-picks", "data"),
        Output(tapping.ANSWER, "data", allow_duplicate=True),
        Input(tapping.SETUP_TAP, "data"),
        State("record-setup-picks", "data"),
        prevent_initial_call=True,
    )
    @takes(tap=tapping.SETUP, picks=kinds.SETUP_PICKS)
    def pick_setup(tap, picks):
        """A game, a setup question's button or a chip was tapped. Every tap is acknowledged
        (the page sends the next once this one is answered); the listener's store is the only
        input: with the buttons as inputs, a redraw of the setup questions called this afresh
        and Dash threw away the answer to a tap still under way (issue 44)."""
        after = steps.setup_tapped(picks, tap)
        return _kept(after), {"at": (tap or {}).get("at"), "taken": False}

    @app.callback(
        Output("record-setup", "children"),
        Input("record-setup-picks", "data"),
        Input("record-players", "value"),
    )
    @takes(picks=kinds.SETUP_PICKS, players=kinds.TEXT)
    def show_setup(picks, players):
        return panels.setup(steps.setting_up(picks, players))


def _writes(app: dash.Dash, matches: Matches, policy: Callable[[], WritePolicy | None]) -> None:
    @app.callback(
        Output("record-message", "children"),
        Output("record-version", "data", allow_duplicate=True),
        Output("record-picks", "data", allow_duplicate=True),
        Output("record-match", "data"),
        Output("record-url", "search"),
        Output(tapping.WRITTEN, "data"),
        Input(tapping.WRITE_TAP, "data"),
        State("record-token", "data"),
        State("record-match", "data"),
        State("record-version", "data"),
        State("record-picks", "data"),
        State("record-undo-by", "value"),
        State("record-undo-reason", "value"),
        State({"type": "record-claim", "seat": ALL}, "value"),
        State({"type": "record-claim-by", "form": ALL}, "value"),
        State("record-setup-picks", "data"),
        State("record-players", "value"),
        State("record-played-at", "value"),
        State("record-page", "data"),
        State("record-token-input", "value"),
        prevent_initial_call=True,
    )
    @takes(*FORM, tap=tapping.WRITING)
    def write(tap, *held):
        """Every write of the page, one door (`actions.write`): the policy first. The page
        hears whether the match moved (a tap on the board waits for its next board). The
        tap listener's store is the only input, and each write tap waits for the answer to
        the tap before: with the buttons as inputs, a redraw of the question (Record this
        move is one of its buttons) called this afresh and Dash threw away the answer to a
        write still under way, stored but never said (issue 44)."""
        if not tap:
            raise PreventUpdate
        *fields, typed = held
        form = actions.Form(*fields)
        form = dataclasses.replace(form, token=steps.token_in_use(form.token, typed))
        action = tap["action"]
        if action not in actions.ACTIONS:
            raise WrongInput("record-write: the button tapped is none of the page's writes")
        done = actions.write(matches, action, form, policy(), flask.request.host)
        moved = done.version is not actions.KEEP or done.picks is not actions.KEEP
        return (*panels.written(done), {"moved": moved, "at": tap["at"]})
