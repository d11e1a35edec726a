"""Component strength in Total Landscaping: per seat, the cards of each colour it played over the
match and the hoes it used (points: none, the game scores bouts, not cards), and the bouts it won
by each condition (points: the same bouts). Reads the effective moves: the final position has
forgotten earlier bouts' cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import NAN, Component, Moves


def components(state: Any, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
    played: list[Counter[str]] = [Counter() for _ in scores]
    for _, move in moves:
        for seat, garden in enumerate(("east", "west")):
            choice = move.get(garden) or {}
            card = choice.get("card")
            played[seat]["hoe" if "hoe" in choice else str(card).capitalize()] += 1
    result = []
    for seat, entry in enumerate(scores):
        rows = [Component("card colour", card, n, NAN) for card, n in sorted(played[seat].items())]
        rows += [
            Component("bout condition", condition, int(n), float(n))
            for condition, n in entry["categories"].items()
        ]
        result.append(rows)
    return result
