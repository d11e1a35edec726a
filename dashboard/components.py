"""Small pieces the pages share: a figure in a card, a number with its label, an AG Grid."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import dash
import dash_ag_grid as dag
import pandas as pd
from dash import Input, Output, State, dcc, html
from dash.development.base_component import Component
from dash.exceptions import PreventUpdate

from tablelog.domain import wording
from tablelog.domain.plain import PlainDict, PlainMapping, PlainValue

from . import kinds
from .callbacks import takes

if TYPE_CHECKING:
    from .data import Source

LIVE_INTERVAL_MS = 3000  # how often a live page asks whether the tables moved on


# The mode bar keeps what a reader uses (zoom, pan, reset, download); the selection tools
# select nothing on these pages and only make the bar wider than a phone's figure.
GRAPH_CONFIG: dcc.Graph.Config = {
    "displaylogo": False,
    "responsive": True,  # the figure follows its card's width (a phone's included)
    "modeBarButtonsToRemove": ["select2d", "lasso2d"],
}


def graph(id: str, **extra: Any) -> html.Div:
    return html.Div(dcc.Graph(id=id, config=GRAPH_CONFIG, **extra), className="card figure")


def stat(value: object, what: str, colour: str = "#23324a") -> html.Div:
    return html.Div(
        [
            html.Div(f"{value:,}" if isinstance(value, int) else str(value), className="value"),
            html.Div(what, className="what"),
        ],
        className="stat",
        style={"borderTopColor": colour},
    )


def control(label: str, component: Component, wide: bool = False) -> html.Div:
    """A control under its label; the label names it for a screen reader too (`for` its id,
    where its id is text: a picker's pattern id is named by its wrapper's label)."""
    target = getattr(component, "id", None)
    tag = html.Label(label, htmlFor=target) if isinstance(target, str) else html.Label(label)
    return html.Div([tag, component], className="control wide" if wide else "control")


# Column widths that fit what the column holds: a column never gets narrower than its
# minWidth (a grid wider than its card scrolls sideways inside it, as on a phone), and text
# longer than its column wraps onto more lines instead of ending in "...".
NUMBER = {"minWidth": 90}
WHEN = {"minWidth": 150}  # "2026-12-01 20:03"
TEXT = {"minWidth": 160, "flex": 2}


# A phone (a screen narrower than PHONE_WIDTH) shows a grid's most important columns only, in
# the order its page names them with the width each gets there (the link into a match first);
# the others are hidden there, and a desktop shows them all. A phone's headers have no filter
# button: its room goes to the words.
PHONE_WIDTH = 600
_PHONE_COLUMNS = """function(_options, columns) {
    const phone = %s;
    if (window.innerWidth >= %d || !columns) return window.dash_clientside.no_update;
    const shown = Object.keys(phone);
    const kept = shown.map(field => columns.find(c => c.field === field))
        .filter(c => c).map(c => ({...c, minWidth: phone[c.field], hide: false,
                                   suppressHeaderMenuButton: true,
                                   suppressHeaderFilterButton: true}));
    const rest = columns.filter(c => !shown.includes(c.field)).map(c => ({...c, hide: true}));
    return kept.concat(rest);
}"""


def phone_columns(app: dash.Dash, grid_id: str, phone: dict[str, int]) -> None:
    """On a phone, `grid_id` shows only the columns `phone` names (field: width in px), in
    that order; done in the browser, which alone knows the screen's width."""
    app.clientside_callback(
        _PHONE_COLUMNS % (json.dumps(phone), PHONE_WIDTH),
        Output(grid_id, "columnDefs"),
        Input(grid_id, "dashGridOptions"),
        State(grid_id, "columnDefs"),
    )


def grid(
    id: str, columns: Sequence[PlainMapping], height: int = 420, empty: str = "Nothing yet."
) -> dag.AgGrid:
    """An AG Grid whose cells are plain text (names are never read as markup), whose headers
    wrap between words, never inside one, and which says `empty` when it has no rows (not AG
    Grid's own "No Rows To Show")."""
    return dag.AgGrid(
        id=id,
        columnDefs=list(columns),
        rowData=[],
        defaultColDef={
            "sortable": True,
            "resizable": True,
            "filter": True,
            "minWidth": 100,
            "wrapText": True,
            "autoHeight": True,
            "wrapHeaderText": True,
            "autoHeaderHeight": True,
        },
        dashGridOptions={
            "domLayout": "normal",
            "animateRows": False,
            # AG Grid's words, as text (a template of markup is refused by dash-ag-grid).
            "localeText": {"noRowsToShow": empty},
        },
        columnSize="responsiveSizeToFit",
        style={"height": height},
        className="ag-theme-alpine",
    )


def names(seats_json: str) -> str:
    """A JSON list of names as one line: "Ann, Ben"."""
    return ", ".join(json.loads(seats_json))


def records(frame: pd.DataFrame) -> list[dict[str, object]]:
    """Grid rows: NaN/NA as empty, timestamps as short text."""
    out = frame.copy()
    for column in out.columns:
        if pd.api.types.is_datetime64_any_dtype(out[column]):
            out[column] = out[column].dt.strftime("%Y-%m-%d %H:%M").astype(object)
    out = out.astype(object).where(out.notna(), None)
    # The frames' column labels are text; pandas types a record's keys as any Hashable.
    return cast(list[dict[str, object]], out.to_dict("records"))


def options(values: Sequence[PlainValue], labels: Sequence[str] | None = None) -> list[PlainDict]:
    return [
        {"label": label, "value": value}
        for value, label in zip(values, labels or [str(v) for v in values])
    ]


def game_options(games: Sequence[str], counts: Sequence[int] | None = None) -> list[PlainDict]:
    """A choice of games: each shown by its name ("Total Landscaping", with its count of
    matches when given), chosen by its id."""
    names = wording.game_names(games)
    if counts is not None:
        names = [f"{name} ({n:,})" for name, n in zip(names, counts)]
    return options(list(games), names)


def live(app: dash.Dash, source: Source, page: str) -> None:
    """`<page>-position` follows the tables' version (`Source.version`), polled by
    `<page>-tick`, and changes only when new events were projected or a match was quarantined:
    a page's callbacks take it as their input, so they run again only when there is something
    new to show."""

    @app.callback(
        Output(f"{page}-position", "data"),
        Input(f"{page}-tick", "n_intervals"),
        State(f"{page}-position", "data"),
    )
    @takes(seen=kinds.POSITION)
    def follow(_tick, seen):
        position = source.version()  # a quarantined match changes it too
        if position == seen:
            raise PreventUpdate
        return position
