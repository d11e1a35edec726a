"""Component strength in GeoShapes: per seat, the cards of each shape it drew (points: none; read
off the effective moves) and the shapes left in its hand at the end, with what they counted (their
value for the winner, minus their value for everyone else)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from ..base import NAN, Component, Moves
from .state import GeoShapesState


def components(
    state: GeoShapesState, scores: list[dict[str, Any]], moves: Moves
) -> list[list[Component]]:
    drawn: defaultdict[int, Counter[str]] = defaultdict(Counter)
    for seat, move in moves:
        if "draw" in move:
            drawn[seat][move["draw"]] += 1
    values = state.board.values
    result = []
    for seat, entry in enumerate(scores):
        sign = 1 if entry["categories"]["win"] else -1
        held = Counter(entry["details"]["hand"])
        rows = [Component("shape drawn", shape, n, NAN) for shape, n in sorted(drawn[seat].items())]
        rows += [
            Component("shape in hand", shape, n, float(sign * n * values[shape]))
            for shape, n in sorted(held.items())
        ]
        result.append(rows)
    return result
