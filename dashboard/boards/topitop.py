"""Topitop: the 3x3 board, each cell's stack drawn bottom to top (large pile, small pile,
bucket in its player's colour), the supply beside the title."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text

from .common import Sketch, board_figure, label, rect

SIZE = 3
BUCKETS = {"B": 1, "R": 2}  # bucket letter -> seat number (seat 1 plays Blue)
# Piece letter -> (width, height, fill) in cell units.
PIECES = {"L": (0.78, 0.24, "#d4a95f"), "S": (0.5, 0.2, "#ecd29a")}
BUCKET = (0.3, 0.22)


def cell_name(index: int) -> str:
    return "abc"[index % SIZE] + str(index // SIZE + 1)


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    names = [f"{text(seats[i])} ({colour})" for i, colour in enumerate(("Blue", "Red"))
             if i < len(seats)]
    figure = board_figure("Topitop: " + " vs ".join(names), (-0.55, 2.55), (-2.75, 0.55),
                          height=440)
    sketch = Sketch()
    for index, stack in enumerate(state["cells"]):
        col, row = index % SIZE, index // SIZE
        x, y = col, -row
        rect(sketch, f"cell {cell_name(index)}", x - 0.47, y - 0.47, x + 0.47, y + 0.47,
             "#f6efe0", "#bbb")
        label(sketch, x - 0.4, y + 0.38, cell_name(index), 10, "#999", xanchor="left")
        bottom = y - 0.4
        for level, piece in enumerate(stack):
            if piece in BUCKETS:
                width, height = BUCKET
                fill = seat_colour(BUCKETS[piece])
            else:
                width, height, fill = PIECES[piece]
            rect(sketch, f"{cell_name(index)}:{level}:{piece}", x - width / 2, bottom,
                 x + width / 2, bottom + height, fill, "#444")
            bottom += height + 0.02
    winner = state.get("winner")
    if winner is not None and winner < len(seats):
        label(sketch, 1, -2.65, f"{text(seats[winner])} wins", 14, seat_colour(winner + 1))
    return sketch.onto(figure)
