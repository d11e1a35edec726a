"""Topas: the cards on the table, each half a cell in its gem colour with its gem count, each
card outlined in the colour of the player who laid it (the start card in black, the latest
card thicker)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text

from .common import Sketch, board_figure, label, rect

GEMS = {"R": ("#e15759", "red"), "G": ("#59a14f", "green"), "Y": ("#edc948", "yellow"),
        "B": ("#4e79a7", "blue")}


def halves(card: str) -> list[str]:
    """A card's two halves in name order: "G3-Y2" -> ["G3", "Y2"]."""
    return card.split("-")


def table(state: dict[str, Any]) -> list[tuple[str, list[tuple[int, int]], int | None]]:
    """The cards on the table now (card, cells of its halves, seat or None for the start card):
    the current column's start card and placements (solitaire clears the table per column)."""
    column = len(state["starts"]) - 1
    if column < 0:
        return []
    cards = [(state["starts"][column], [(0, 0), (1, 0)], None)]
    cards += [(p["card"], [tuple(c) for c in p["cells"]], p["seat"])
              for p in state["placements"] if p["column"] == column]
    return cards


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    cards = table(state)
    cells = [cell for _, where, _ in cards for cell in where] or [(0, 0)]
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    title = "Topas: " + ", ".join(f"<span style='color:{seat_colour(i + 1)}'>{text(n)}</span>"
                                  for i, n in enumerate(seats))
    figure = board_figure(title, (min(xs) - 0.7, max(xs) + 0.7), (-max(ys) - 0.7, -min(ys) + 0.7),
                          height=480)
    sketch = Sketch()
    for number, (card, where, seat) in enumerate(cards):
        for half, (x, y) in zip(halves(card), where):
            colour, _ = GEMS.get(half[0], ("#ccc", half[0]))
            rect(sketch, f"half {x},{y}:{half}", x - 0.45, -y - 0.45, x + 0.45, -y + 0.45,
                 colour, "white")
            label(sketch, x, -y, f"<b>{text(half[1:])}</b>", 14, "white")
        (x0, y0), (x1, y1) = where
        latest = number == len(cards) - 1 and seat is not None
        rect(sketch, f"card {card}", min(x0, x1) - 0.49, -max(y0, y1) - 0.49,
             max(x0, x1) + 0.49, -min(y0, y1) + 0.49, "rgba(0,0,0,0)",
             "black" if seat is None else seat_colour(seat + 1), 5 if latest else 2.5)
    return sketch.onto(figure)
