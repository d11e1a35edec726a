"""What the Record page draws: the question as big buttons, the picks so far as chips, the score
table. Sized for a thumb on a phone (tap targets of 48px and more, wrapping rows, no horizontal
scrolling). Every label is a text child, so a player's name is shown as typed, never as markup.
The house stylesheet is the dashboard's; these few rules ride on the components."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from dash import html
from dash.development.base_component import Component

from .picking import DONE, Question

INK, ACCENT, SOFT = "#23324a", "#1f77b4", "#eef3fa"
BUTTON = {
    "minHeight": "48px",
    "minWidth": "64px",
    "padding": "8px 12px",
    "fontSize": "16px",
    "borderRadius": "8px",
    "border": f"1px solid {ACCENT}",
    "background": "#fff",
    "color": INK,
    "cursor": "pointer",
    "touchAction": "manipulation",
    "maxWidth": "100%",
    "whiteSpace": "normal",
    "textAlign": "left",
}
PRIMARY = {
    **BUTTON,
    "background": ACCENT,
    "color": "#fff",
    "fontWeight": "600",
    "minHeight": "56px",
    "width": "100%",
    "textAlign": "center",
}
QUIET = {**BUTTON, "border": "1px solid #bbb", "minHeight": "44px"}
CHIP = {
    **QUIET,
    "background": SOFT,
    "border": "1px solid #c7d4e8",
    "fontSize": "14px",
    "minHeight": "44px",
}
ROW = {"display": "flex", "flexWrap": "wrap", "gap": "8px", "margin": "4px 0 10px"}
FIELD = {
    "width": "100%",
    "boxSizing": "border-box",
    "minHeight": "44px",
    "fontSize": "16px",
    "padding": "6px 10px",
    "border": "1px solid #bbb",
    "borderRadius": "6px",
}
SECTION = {
    "background": "#fff",
    "borderRadius": "8px",
    "padding": "10px 12px",
    "boxShadow": "0 1px 3px rgba(0,0,0,.08)",
    "marginBottom": "12px",
    "minWidth": 0,
}
HIDDEN = {"display": "none"}
GROUP_LABEL = {
    "fontSize": "12px",
    "color": "#666",
    "textTransform": "uppercase",
    "letterSpacing": ".04em",
    "marginTop": "6px",
}


def option_id(kind: str, key: str, value: object) -> dict[str, str]:
    """A button's id carries its answer (as JSON), so a tap says exactly what was chosen."""
    return {"type": kind, "key": key, "value": json.dumps(value)}


def tap_data(key: str, value: object, answered: int) -> dict[str, Any]:
    """What a tap on a move's button gives the page's tap listener (dashboard/record/
    tapping.py): its pick and the number of answers it was drawn after, as a board's tap
    target carries them (its customdata), so the server answers both alike."""
    return {"data-tap": json.dumps([key, value, answered])}


def question(step: Question, kind: str, answered: int | None = None) -> html.Div:
    """The prompt and one button per option, grouped under their headings. With `answered`
    (a move's question, after that many answers), each button carries its tap (`tap_data`)."""
    groups: dict[str, list[Component]] = {}
    for option in step.options:
        taps: dict[str, Any] = {}
        if answered is not None:
            taps = tap_data(step.key, option.value, answered)
        groups.setdefault(option.group, []).append(
            html.Button(
                option.label,
                id=option_id(kind, step.key, option.value),
                n_clicks=0,
                className="record-option",
                style=PRIMARY if option.value == DONE else BUTTON,
                **taps,
            )
        )
    body: list[Component] = [
        html.Div(
            step.prompt, className="record-prompt", style={"fontWeight": "600", "fontSize": "17px"}
        )
    ]
    for group, buttons in groups.items():
        if group:
            body.append(html.Div(group, style=GROUP_LABEL))
        body.append(html.Div(buttons, style=ROW))
    return html.Div(body)


def game_data(game: str) -> dict[str, Any]:
    """What a tap on the start form's game button gives the tap listener: the game."""
    return {"data-game": game}


def back_data(index: int) -> dict[str, Any]:
    """What a tap on a chip gives the tap listener: its place among the answers."""
    return {"data-back": str(index)}


def chips(
    picks: Sequence[Sequence[object]],
    kind: str,
    label_of: Callable[..., str] | None = None,  # (index, key, value) -> words
) -> html.Div:
    """The answers so far; tapping one takes it back, with everything after it.
    `label_of(index, key, value)` words the answer (default: its value)."""
    label_of = label_of or (lambda _index, _key, value: str(value))
    shown = [(i, key, value) for i, (key, value) in enumerate(picks) if value != DONE]
    if not shown:
        return html.Div()
    return html.Div(
        [
            html.Button(
                f"✕ {label_of(i, key, value)}",
                id={"type": kind, "index": i},
                n_clicks=0,
                className="record-chip",
                style=CHIP,
                title="take this answer back",
                **back_data(i),
            )
            for i, key, value in shown
        ],
        style=ROW,
    )


def score_table(seats: Sequence[str], scores: Sequence[dict[str, Any]]) -> html.Table:
    """Categories down, players across, the total last."""
    categories = list(dict.fromkeys(c for entry in scores for c in entry["categories"]))
    cell = {"padding": "4px 8px", "textAlign": "right", "borderBottom": "1px solid #eee"}
    head = html.Tr([html.Th("", style=cell)] + [html.Th(name, style=cell) for name in seats])
    rows = [
        html.Tr(
            [html.Td(category, style={**cell, "textAlign": "left"})]
            + [
                html.Td(_number(entry["categories"].get(category, 0)), style=cell)
                for entry in scores
            ]
        )
        for category in categories
    ]
    total = html.Tr(
        [html.Th("total", style={**cell, "textAlign": "left"})]
        + [html.Th(_number(entry["total"]), style=cell) for entry in scores]
    )
    return html.Table(
        [html.Thead(head), html.Tbody([*rows, total])],
        style={"borderCollapse": "collapse", "width": "100%", "fontSize": "15px"},
        className="record-score",
    )


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)
