"""Topiary: the 5x5 garden of sculpture tiles and the visitors on their spots around it, each an
arrow in its player's colour pointing the way it looks."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text

from .common import Sketch, board_figure, label, rect

SIZE = 5
# Compass direction -> (column step, row step), row 1 on top (as in the rules' garden).
DIRECTIONS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
              "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
ANGLES = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
FACE_UP, KNOWN, UNSEEN = "#e9f5e1", "#d5d5d5", "#8a8a8a"


def spot_position(spot: str) -> tuple[float, float]:
    """Where a visitor on `spot` ("c1:S") stands, in plot units: just outside its first tile,
    against the direction it looks (x to the east, y up, tile a1 at (0, 0))."""
    cell, direction = spot.split(":")
    col, row = ord(cell[0]) - ord("a"), int(cell[1:]) - 1
    dc, dr = DIRECTIONS[direction]
    return col - 0.72 * dc, -(row - 0.72 * dr)


def all_spots() -> list[str]:
    """The 56 spots: a straight or diagonal line starts at the tile whose step back is off."""
    spots = []
    for row in range(SIZE):
        for col in range(SIZE):
            for direction, (dc, dr) in DIRECTIONS.items():
                if not (0 <= col - dc < SIZE and 0 <= row - dr < SIZE):
                    spots.append(f"{'abcde'[col]}{row + 1}:{direction}")
    return spots


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    figure = board_figure("Topiary garden", (-1.2, 5.2), (-5.2, 1.2), height=520)
    sketch = Sketch()
    for index, (tile, up) in enumerate(zip(state["tiles"], state["face_up"])):
        col, row = index % SIZE, index // SIZE
        fill = FACE_UP if up else KNOWN if tile else UNSEEN
        rect(sketch, f"tile {'abcde'[col]}{row + 1}", col - 0.46, -row - 0.46, col + 0.46,
             -row + 0.46, fill, "#7a9a6a" if up else "#999")
        if tile:
            kind, _, value = tile.rpartition(" ")
            words = f"<b>{text(value)}</b><br>{text(kind)}"
            label(sketch, col, -row, words if up else f"<i>{words}</i>", 11,
                  "#222" if up else "#555")
        else:
            label(sketch, col, -row, "?", 16, "white")
    free = [s for s in all_spots() if s not in {v["spot"] for v in state["visitors"]}]
    xs, ys = zip(*map(spot_position, free)) if free else ((), ())
    figure.add_scatter(x=xs, y=ys, mode="markers", name="free spots", hoverinfo="skip",
                       marker={"size": 4, "color": "#ccc"})
    for seat in range(len(seats)):
        mine = [v["spot"] for v in state["visitors"] if v["seat"] == seat]
        if not mine:
            continue
        xs, ys = zip(*map(spot_position, mine))
        figure.add_scatter(
            x=xs, y=ys, mode="markers", name=text(seats[seat]),
            marker={"symbol": "arrow", "size": 15, "color": seat_colour(seat + 1),
                    "angle": [ANGLES[s.split(":")[1]] for s in mine],
                    "line": {"width": 1, "color": "white"}},
            text=mine, hovertemplate=text(seats[seat]) + " at %{text}<extra></extra>")
    return sketch.onto(figure)
