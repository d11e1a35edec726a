"""The Record page's panels, drawn from what `steps` decided: each function turns one step's
answer into the components (or the tuple of outputs) its callback writes."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from dash import NoUpdate, dcc, html, no_update

from tablelog.dashboard import games
from tablelog.dashboard.games.drawing import has_taps

from .actions import KEEP, Written
from .steps import Asked, Board, SettingUp, Shown, pick_label
from .widgets import FIELD, HIDDEN, PRIMARY, QUIET, ROW, SECTION, chips, question, score_table

TOKEN_BOX = {"marginBottom": "10px"}
MORE = {"marginTop": "12px"}
READY = {"fontSize": "17px", "margin": "6px 0"}
CHOICE: dict[str, Any] = {
    "inputStyle": {"width": "22px", "height": "22px"},
    "labelStyle": {"padding": "8px 12px 8px 0"},
}


def write_id(action: str) -> dict[str, str]:
    """The id of a button that writes: one callback takes every one of them."""
    return {"type": "record-write", "action": action}


def token_box(note: str | None) -> tuple[dict, str]:
    """The token box's style and note (hidden when the server needs no token)."""
    return (HIDDEN, "") if note is None else (TOKEN_BOX, note)


def answered(picks: list, kind: str, said: list[str] | None = None) -> html.Div:
    """The answers so far as chips, each in the words its question and button gave it
    (`said`); the number given is for a test (or a screen reader) to follow the taps."""
    count: dict[str, Any] = {"data-picks": str(len(picks))}

    def words(index: int, key: str, value: object) -> str:
        return said[index] if said and index < len(said) else pick_label(key, value)

    return html.Div(chips(picks, kind, words), className="record-answers", **count)


def setup(step: SettingUp | None) -> list | html.Div:
    if step is None:
        return html.Div("Choose the game.", className="note")
    asked = step.asked
    head = html.Div(step.head, style={"fontWeight": "600"})
    given = answered(asked.picks, "record-setup-back", asked.said)
    if asked.stale is not None:
        return [head, given, html.Div(asked.stale, className="warning")]
    if asked.question is None:
        return [head, given, html.Div(asked.ready, className="note")]
    return [head, given, question(asked.question, "record-setup-option", len(asked.picks))]


def picker(asked: Asked | None) -> list | html.Div:
    if asked is None:
        return []
    if asked.stale is not None:
        return html.Div(asked.stale, className="warning")
    given = answered(asked.picks, "record-back", asked.said)
    if asked.question is not None:
        return [given, question(asked.question, "record-option", len(asked.picks))]
    return [
        given,
        html.Div(asked.ready, className="record-ready", style=READY),
        html.Button("Record this move", id=write_id("commit"), n_clicks=0, style=PRIMARY),
    ]


def play(shown: Shown | str | None) -> tuple:
    """The outputs of the play area: the start form's and play area's styles, the match line,
    the replay link, who is to move, score, end form, undo choices, the undo box."""
    if shown is None:
        return (SECTION, HIDDEN, *[no_update] * 8)
    if isinstance(shown, str):  # the match cannot be shown: why
        return (SECTION, HIDDEN, shown, *[no_update] * 7)
    if shown.sheet is not None:
        return (
            HIDDEN,
            SECTION,
            shown.summary,
            shown.replay,
            shown.to_move,
            html.Pre(shown.sheet),
            [],
            [],
            None,
            HIDDEN,
        )
    people = [{"label": name, "value": name} for name in shown.seats]
    return (
        HIDDEN,
        SECTION,
        shown.summary,
        shown.replay,
        shown.to_move,
        score(shown),
        end_form(shown),
        people,
        shown.undo_by,
        MORE if shown.running else HIDDEN,
    )


# The board's height in px. The board's box has this height (the figure fills it and follows
# its width): a figure sizing itself inside a box of no height collapses, and its drag layer
# then lies over the buttons below it.
BOARD_HEIGHT = 380
BOARD_BOX = {"height": f"{BOARD_HEIGHT}px"}


def board(
    drawn: Board | None,
) -> tuple[go.Figure | NoUpdate, dict[str, str] | NoUpdate, str | NoUpdate]:
    """The board, its legal answers to the question asked marked for tapping, its box's style,
    and the line above it that says so. Nothing changes when there is no board to draw: a
    match logged from its sheet has none (its box stays hidden), and a page a move behind
    the store is drawn again once it has caught up."""
    if drawn is None:
        return no_update, no_update, no_update
    figure = games.draw(drawn.game, drawn.encoded, drawn.seats, drawn.question, drawn.picks)
    figure.update_layout(height=BOARD_HEIGHT, margin={"l": 4, "r": 4, "t": 40, "b": 4})
    if drawn.question is None or not has_taps(figure):
        return figure, BOARD_BOX, ""
    hint = f"{drawn.question.prompt} Tap a ringed place on the board, or a button below."
    return figure, BOARD_BOX, hint


def score(shown: Shown) -> html.Div | html.Table:
    if shown.scores is None:
        return html.Div(shown.score_note, className="note")
    return score_table(shown.seats, shown.scores)


def end_form(shown: Shown) -> list:
    """When the rules say the game is over: the result, the claim, the end."""
    if shown.verdict is None:
        return []
    totals, seats = shown.totals, shown.seats
    return [
        html.H3("The game is over", style={"margin": "10px 0 4px"}),
        html.Div(shown.verdict),
        html.Div("What does the table claim?", style={"marginTop": "8px"}),
        html.Div(
            [
                html.Div(
                    [
                        html.Label(name, htmlFor=f"record-claim-{i}"),
                        dcc.Input(
                            id={"type": "record-claim", "seat": i},
                            type="number",
                            value=None if totals is None else totals[i],
                            style={**FIELD, "width": "110px"},
                        ),
                    ],
                    style={"display": "flex", "flexDirection": "column"},
                )
                for i, name in enumerate(seats)
            ],
            style=ROW,
        ),
        html.Div("Claimed by"),
        dcc.RadioItems(
            id={"type": "record-claim-by", "form": "end"},
            options=[{"label": n, "value": n} for n in seats],
            value=seats[0],
            inline=True,
            **CHOICE,
        ),
        html.Div(
            [
                html.Button("Claim this result", id=write_id("claim"), n_clicks=0, style=QUIET),
                html.Button("End the match", id=write_id("end"), n_clicks=0, style=PRIMARY),
            ],
            style=ROW,
        ),
    ]


def written(done: Written) -> tuple:
    """The write's outputs: the message, the version, the picks, the match, the address."""
    return tuple(
        no_update if value is KEEP else value
        for value in (done.message, done.version, done.picks, done.match_id, done.search)
    )
