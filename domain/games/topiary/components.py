"""Component strength in Topiary: per seat and sculpture type, the sculptures its visitors see
(a sculpture seen by two visitors counts twice, as it scores twice) and what they score - their
values, the type bonus they earn, and the hand tiles of that type that score. The points add up
to the seat's total. Read off the final position's score details."""

from __future__ import annotations

from typing import Any

from ..base import Component, Moves
from .scoring import bonus_by_type, sculpture
from .state import TopiaryState


def components(
    state: TopiaryState, scores: list[dict[str, Any]], moves: Moves
) -> list[list[Component]]:
    # Counted in plain dicts, each tile's type and value read once per process (every
    # simulated match ends here: Counters cost several times as much).
    result = []
    for entry in scores:
        count: dict[str, int] = {}
        points: dict[str, int] = {}
        for view in entry["details"]["visitors"]:
            seen = tuple(sculpture(tile) for tile in view["sees"])
            for value, kind, _ in seen:
                count[kind] = count.get(kind, 0) + 1
                points[kind] = points.get(kind, 0) + value
            for kind, bonus in bonus_by_type(seen).items():
                points[kind] += bonus
        for held in entry["details"]["hand"]:
            kind = sculpture(held["tile"])[1]
            points[kind] = points.get(kind, 0) + held["points"]
        result.append(
            [
                Component("sculpture type", kind, count.get(kind, 0), float(points[kind]))
                for kind in sorted(set(count) | set(points))
            ]
        )
    return result
