"""Nim's dashboard side: the heaps drawn as rows of stones, and the picker (the heap, then how
many stones)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.games.drawing import Sketch, board_figure, label, rect
from tablelog.dashboard.record.picking import Facet, Picks, Step, legal_moves, walk


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    heaps = state["heaps"]
    figure = board_figure("Nim: " + " vs ".join(text(s) for s in seats), (-1.5, 9.5), (-6, 1))
    sketch = Sketch()
    for number, stones in enumerate(heaps):
        y = -number
        label(sketch, -0.8, y, f"heap {number + 1}")
        rect(sketch, f"heap {number + 1}", -0.3, y - 0.45, 9.3, y + 0.45, "#f6efe0", "#bbb")
        for stone in range(stones):
            rect(
                sketch,
                f"stone {number + 1}:{stone + 1}",
                stone,
                y - 0.3,
                stone + 0.6,
                y + 0.3,
                "#777",
            )
    if not any(heaps):
        last = 1 - state["turn"]
        winner = state["turn"] if state["misere"] else last
        label(sketch, 4, -5, f"{text(seats[winner])} wins", 14, seat_colour(winner + 1))
    return sketch.onto(figure)


def menu(rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None) -> Step:
    facets = [
        Facet("from", "From which heap?", lambda move: move["from"], lambda n: f"heap {n}"),
        Facet("take", "How many stones?", lambda move: move["take"], str),
    ]
    return walk(legal_moves(rules, state), facets, picks)
