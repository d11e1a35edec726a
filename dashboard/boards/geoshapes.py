"""GeoShapes: the four quadrants clockwise from the top left, each with its owner, its two
figures and its circle; every slot of a place shows the shape it needs, filled in its owner's
colour once placed (W when the Wild stands in), and the quadrant's shape discards."""

from __future__ import annotations

from collections import Counter
from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text

from .common import Sketch, board_figure, label, rect

# Quadrant i of the board's clockwise list -> (column, row) of its box; 0 is the top left.
BOXES = ((0, 0), (1, 0), (1, 1), (0, 1))
WIDTH, HEIGHT = 7.0, 4.4
OPEN, NOBODY = "#ffffff", "#7f7f7f"


def short(shape: str) -> str:
    """"Right Triangle" -> "RT", "Square" -> "Squa": short enough for a slot."""
    words = shape.split()
    return "".join(w[0] for w in words).upper() if len(words) > 1 else shape[:4]


def slots(needs: dict[str, int], placed: list[str], wild: str) -> list[tuple[str, str]]:
    """Each slot of a place as (shape, mark): "x" filled by its shape, "W" by the Wild,
    "" still open. Real shapes fill their own slots first; Wilds fill the gaps in order."""
    have = Counter(placed)
    wilds = have.pop(wild, 0)
    marks = []
    for shape, count in needs.items():
        for _ in range(count):
            if have[shape] > 0:
                have[shape] -= 1
                marks.append((shape, "x"))
            elif wilds > 0:
                wilds -= 1
                marks.append((shape, "W"))
            else:
                marks.append((shape, ""))
    return marks


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    board = state["board"]
    owners = {q: seat for seat, p in enumerate(state["players"]) for q in p["quadrants"]}
    figure = board_figure("GeoShapes: " + text(board["name"]), (-0.1, 2 * WIDTH + 0.1),
                          (-2 * HEIGHT - 0.1, 0.1), height=520)
    sketch = Sketch()
    places = list(zip(board["places"], state["placed"]))
    for number, quadrant in enumerate(board["quadrants"]):
        col, row = BOXES[number]
        left, top = col * WIDTH, -row * HEIGHT
        seat = owners.get(quadrant)
        colour = NOBODY if seat is None else seat_colour(seat + 1)
        rect(sketch, f"quadrant {quadrant}", left + 0.08, top - HEIGHT + 0.08,
             left + WIDTH - 0.08, top - 0.08, "#fafafa", colour, 2)
        owner = "nobody" if seat is None else text(seats[seat])
        label(sketch, left + 0.25, top - 0.4, f"<b>{text(quadrant)}</b>: {owner}", 12, colour,
              xanchor="left")
        mine = [(p, placed) for p, placed in places if p["quadrant"] == quadrant]
        for line, (place, placed) in enumerate(mine):
            y = top - 1.2 - line * 0.95
            name = "circle" if place["is_circle"] else place["name"]
            label(sketch, left + 0.2, y, text(name), 9, "#444", xanchor="left")
            for k, (shape, mark) in enumerate(slots(place["needs"], placed, board["wild"])):
                x = left + 2.7 + k * 1.05
                fill = OPEN if not mark else colour
                rect(sketch, f"{place['name']}:{k}:{shape}:{mark or 'open'}", x - 0.5, y - 0.38,
                     x + 0.5, y + 0.38, fill, colour, 1, "solid" if mark else "dot")
                words = "W" if mark == "W" else short(shape)
                label(sketch, x, y, words, 9, "white" if mark else "#777",
                      hovertext=text(shape + (" (Wild)" if mark == "W" else "")))
        stack = state["stacks"][number]
        if stack:
            label(sketch, left + WIDTH - 0.25, top - HEIGHT + 0.35,
                  f"discards: {text(stack[-1])} on top ({len(stack)})", 9, "#666",
                  xanchor="right")
    return sketch.onto(figure)
