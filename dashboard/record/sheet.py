"""The Record page's score-sheet form: log a match from its sheet (players in seat order, each
seat's total and the game's categories where the sheet has them, winners, who started, when,
how long, where). Phone-sized like the rest of the page: one column, big fields. The sheet is
checked whole by the game's sheet rules (domain/sheets) before anything is stored; a refusal
names the seat and field."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

import dash
import flask
from dash import ALL, Input, Output, State, ctx, dcc, html
from dash.development.base_component import Component
from dash.exceptions import PreventUpdate

from tablelog.domain.games import GAMES
from tablelog.domain.matches.entering import entering_as
from tablelog.domain.matches.times import local_unless_zoned
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.sheets import SHEETS

from .. import kinds
from ..callbacks import check, takes
from . import actions
from .steps import named, token_in_use
from .widgets import FIELD, PRIMARY, ROW, SECTION

if TYPE_CHECKING:
    from tablelog.access import WritePolicy

# The ids of the category fields the form drew: a seat, from 0, and the category's name.
CATEGORY_IDS = kinds.kind(
    "the score sheet's own fields",
    {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "seat": {"type": "integer", "minimum": 0},
                "category": {"type": "string"},
            },
        },
    },
)
# What the sheet form holds when it is logged, in the order of its callback's state.
SHEET_FORM = (
    kinds.TEXT,  # the write token
    kinds.GAME,
    kinds.TEXT,  # the players, in seat order
    kinds.NUMBERS,  # each seat's total
    kinds.NUMBERS,  # the categories' points
    kinds.NAMES,  # who won
    kinds.TEXT,  # who started
    kinds.TEXT,  # when it was played
    kinds.NUMBER,  # how long, in minutes
    kinds.TEXT,  # where
    kinds.TEXT,  # the token as typed in its box (steps.token_in_use)
)
LIVE: dict[str, Any] = {"aria-live": "polite"}  # a screen reader reads each message
SMALL = {**FIELD, "width": "96px"}
CHOICE: dict[str, Any] = {
    "inputStyle": {"width": "22px", "height": "22px"},
    "labelStyle": {"padding": "8px 12px 8px 0"},
}


def form() -> html.Details:
    return html.Details(
        [
            html.Summary(
                "Log a match from its score sheet", style={"minHeight": "44px", "fontSize": "17px"}
            ),
            html.Div("Game"),
            dcc.RadioItems(
                id="record-sheet-game",
                inline=True,
                **CHOICE,
                options=[{"label": r.name, "value": g} for g, r in GAMES.items()],
            ),
            html.Label(
                "Players in seat (turn) order, separated by commas", htmlFor="record-sheet-players"
            ),
            dcc.Input(id="record-sheet-players", type="text", style=FIELD, placeholder="Ann, Ben"),
            html.Div(id="record-sheet-seats"),
            html.Label("Played at (server time; empty: now)", htmlFor="record-sheet-played-at"),
            dcc.Input(
                id="record-sheet-played-at",
                type="datetime-local",  # type: ignore[arg-type]
                style=FIELD,
            ),  # Dash's stubs lack the HTML input types it renders
            html.Div(
                [
                    html.Div(
                        [
                            html.Label("Minutes", htmlFor="record-sheet-duration"),
                            dcc.Input(
                                id="record-sheet-duration", type="number", min=0, style=SMALL
                            ),
                        ]
                    ),
                    html.Div(
                        [
                            html.Label("Where", htmlFor="record-sheet-location"),
                            dcc.Input(id="record-sheet-location", type="text", style=FIELD),
                        ],
                        style={"flex": "1"},
                    ),
                ],
                style=ROW,
            ),
            html.Button("Log this score sheet", id="record-sheet-save", n_clicks=0, style=PRIMARY),
            html.Div(
                id="record-sheet-message",
                role="status",
                **LIVE,
                style={"minHeight": "1.4em", "margin": "6px 0"},
            ),
        ],
        id="record-sheet",
        style=SECTION,
    )


def seats_form(game: str | None, players: str | None) -> list:
    """Per seat: the total and the game's categories (all optional: a sheet may have totals
    only, or nothing but the winner); then winners and who started."""
    names = named(players)
    if game is None or not names:
        return [html.Div("Choose the game and name the players.", className="note")]
    categories = SHEETS[game].categories({}, None, len(names))
    rows: list[Component] = []
    for seat, name in enumerate(names):
        fields = [
            html.Div(
                [
                    html.Label("total", htmlFor=f"record-sheet-total-{seat}"),
                    dcc.Input(
                        id={"type": "record-sheet-total", "seat": seat}, type="number", style=SMALL
                    ),
                ]
            )
        ]
        fields += [
            html.Div(
                [
                    html.Label(c),
                    dcc.Input(
                        id={"type": "record-sheet-category", "seat": seat, "category": c},
                        type="number",
                        style=SMALL,
                    ),
                ]
            )
            for c in categories
        ]
        rows.append(
            html.Div(
                [html.Div(name, style={"fontWeight": "600"}), html.Div(fields, style=ROW)],
                className="record-sheet-seat",
            )
        )
    people = [{"label": n, "value": n} for n in names]
    return rows + [
        html.Div("Won"),
        dcc.Checklist(id="record-sheet-winners", options=people, value=[], inline=True, **CHOICE),
        html.Div("Started"),
        dcc.RadioItems(
            id="record-sheet-first", options=people, value=names[0], inline=True, **CHOICE
        ),
    ]


def sheet_of(
    names: list[str],
    totals: list,
    categories: list,
    ids: list,
    winners: list | None,
    first: str | None,
    duration,
    location: str | None,
) -> dict:
    """The form's answers as a sheet (docs/interop.md); blank fields are left out."""
    entries: list[dict | None] = [None] * len(names)
    for seat, total in enumerate(totals[: len(names)]):
        if total is not None:
            entries[seat] = {"total": total}
    for key, points in zip(ids, categories):
        if points is not None and key["seat"] < len(names):
            entry = entries[key["seat"]] or {"total": None}
            entry.setdefault("categories", {})[key["category"]] = points
            entries[key["seat"]] = entry
    return {
        "scores": entries,
        "winners": list(winners or []),
        "first": first,
        "duration_min": duration,
        "location": location or None,
    }


@dataclasses.dataclass(frozen=True)
class SheetForm:
    """The sheet form as the page holds it when **Log this score sheet** is tapped."""

    token: str | None = None
    game: str | None = None
    players: str | None = None
    totals: list = dataclasses.field(default_factory=list)
    categories: list = dataclasses.field(default_factory=list)  # the category fields' values
    ids: list = dataclasses.field(default_factory=list)  # ... and their ids, in order
    winners: list | None = None
    first: str | None = None
    played_at: str | None = None
    duration: object = None  # the minutes field's value, passed along to the sheet
    location: str | None = None


def log(
    recorder: Recorder, form: SheetForm, policy: WritePolicy | None, host: str | None
) -> str | UUID:
    """Log the sheet after the policy's word: the new match's id, or why nothing was stored."""
    who, refused = actions.admit(policy, recorder, form.token, host, "sheet")
    if refused:
        return refused
    if form.game is None:
        return "refused: choose the game first"
    names = named(form.players)
    sheet = sheet_of(
        names,
        form.totals,
        form.categories,
        form.ids,
        form.winners,
        form.first,
        form.duration,
        form.location,
    )
    try:
        with entering_as(who):
            return recorder.start_sheet(
                form.game, names, sheet, played_at=local_unless_zoned(form.played_at)
            )
    except actions.REFUSALS as err:
        return f"refused: {err}"


def logged(game: str | None, done: str | UUID) -> Any:
    """What the form says after a tap: the refusal, or the logged match with a link to it."""
    if isinstance(done, str) or game is None:
        return done
    return html.Span(
        [
            f"logged: {GAMES[game].name} score sheet, match {str(done)[:8]} ",
            html.A("(see it)", href=f"/record?match={done}"),
        ]
    )


def register(app: dash.Dash, recorder: Recorder, policy: Callable[[], WritePolicy | None]) -> None:
    @app.callback(
        Output("record-sheet-seats", "children"),
        Input("record-sheet-game", "value"),
        Input("record-sheet-players", "value"),
    )
    @takes(game=kinds.GAME, players=kinds.TEXT)
    def seats(game, players):
        return seats_form(game, players)

    @app.callback(
        Output("record-sheet-message", "children"),
        Input("record-sheet-save", "n_clicks"),
        State("record-token", "data"),
        State("record-sheet-game", "value"),
        State("record-sheet-players", "value"),
        State({"type": "record-sheet-total", "seat": ALL}, "value"),
        State({"type": "record-sheet-category", "seat": ALL, "category": ALL}, "value"),
        State("record-sheet-winners", "value"),
        State("record-sheet-first", "value"),
        State("record-sheet-played-at", "value"),
        State("record-sheet-duration", "value"),
        State("record-sheet-location", "value"),
        State("record-token-input", "value"),
        prevent_initial_call=True,
    )
    @takes(*SHEET_FORM, clicks=kinds.COUNT)
    def save(clicks, *held):
        if not clicks:
            raise PreventUpdate
        ids = [item["id"] for item in ctx.states_list[4]]  # the category fields, in order
        check(ids, CATEGORY_IDS, "record-sheet-category ids")
        kept, game, players, totals, categories, *rest, typed = held
        token = token_in_use(kept, typed)
        form = SheetForm(token, game, players, totals, categories, ids, *rest)
        return logged(game, log(recorder, form, policy(), flask.request.host))
