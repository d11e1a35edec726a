"""Topitop: the 3x3 board, each cell's stack drawn bottom to top (large pile, small pile, bucket in
its player's colour), the supply beside the title.

The picker (the Record page's questions): the piece (one from the supply, or a piece or stack on
the board), then the cell it goes to. Only the engine's legal moves are offered; a stuck player
gets the pass.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.record.picking import (
    Facet,
    Move,
    Picks,
    Step,
    legal_moves,
    walk,
)
from tablelog.domain.games import cells

from .drawing import Sketch, board_figure, label, rect

# ---- the board: draw(state, seats) --------------------------------------------------------------

SIZE = 3
BUCKETS = {"B": 1, "R": 2}  # bucket letter -> seat number (seat 1 plays Blue)
# Piece letter -> (width, height, fill) in cell units.
PIECES = {"L": (0.78, 0.24, "#d4a95f"), "S": (0.5, 0.2, "#ecd29a")}
BUCKET = (0.3, 0.22)


def cell_name(index: int) -> str:
    return cells.cell_name(index % SIZE, index // SIZE)


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    names = [
        f"{text(seats[i])} ({colour})" for i, colour in enumerate(("Blue", "Red")) if i < len(seats)
    ]
    figure = board_figure(
        "Topitop: " + " vs ".join(names), (-0.55, 2.55), (-2.75, 0.55), height=440
    )
    sketch = Sketch()
    for index, stack in enumerate(state["cells"]):
        col, row = index % SIZE, index // SIZE
        x, y = col, -row
        rect(
            sketch,
            f"cell {cell_name(index)}",
            x - 0.47,
            y - 0.47,
            x + 0.47,
            y + 0.47,
            "#f6efe0",
            "#bbb",
        )
        label(sketch, x - 0.4, y + 0.38, cell_name(index), 10, "#999", xanchor="left")
        bottom = y - 0.4
        for level, piece in enumerate(stack):
            if piece in BUCKETS:
                width, height = BUCKET
                fill = seat_colour(BUCKETS[piece])
            else:
                width, height, fill = PIECES[piece]
            rect(
                sketch,
                f"{cell_name(index)}:{level}:{piece}",
                x - width / 2,
                bottom,
                x + width / 2,
                bottom + height,
                fill,
                "#444",
            )
            bottom += height + 0.02
    winner = state.get("winner")
    if winner is not None and winner < len(seats):
        label(sketch, 1, -2.65, f"{text(seats[winner])} wins", 14, seat_colour(winner + 1))
    return sketch.onto(figure)


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

SUPPLY = {
    "bucket": "your bucket from the supply",
    "small": "a small sand pile from the supply",
    "large": "a large sand pile from the supply",
}
PIECE_NAMES = {"L": "large pile", "S": "small pile", "B": "Blue bucket", "R": "Red bucket"}


def piece(move: Move) -> str:
    if "pass" in move:
        return "pass"
    return f"supply:{move['place']}" if "place" in move else move["from"]


def target(move: Move) -> str | None:
    return move.get("to")


def menu(rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None) -> Step:
    cells = rules.encode(state)["cells"]

    def label(value: str) -> str:
        if value == "pass":
            return "pass (no other move is legal)"
        if value == "supply:bucket" and names:
            return f"{names[seat]}'s bucket from the supply"
        if value.startswith("supply:"):
            return SUPPLY[value.removeprefix("supply:")]
        return f"{value}: {stack_words(cells[cell_index(value)])}"

    facets = [
        Facet(
            "piece",
            "Which piece?",
            piece,
            label,
            lambda v: "from the supply" if v.startswith("supply:") else "on the board",
        ),
        Facet("to", "To which cell?", target, sort=lambda cell: (cell[1], cell[0])),
    ]
    return walk(legal_moves(rules, state), facets, picks)


def cell_index(cell: str) -> int:
    col, row = cells.parse_cell(cell, SIZE, SIZE)
    return col + SIZE * row


def stack_words(stack: str) -> str:
    """'LSB' -> 'large pile, small pile, Blue bucket' (bottom to top)."""
    return ", ".join(PIECE_NAMES[p] for p in stack) or "empty"
