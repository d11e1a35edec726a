"""Component strength in Topiary: per seat and sculpture type, the sculptures its visitors see
(a sculpture seen by two visitors counts twice, as it scores twice) and what they score - their
values, the type bonus they earn, and the hand tiles of that type that score. The points add up
to the seat's total. Read off the final position's score details."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import Component, Moves


def components(state: Any, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
    result = []
    for entry in scores:
        count: Counter[str] = Counter()
        points: Counter[str] = Counter()
        for view in entry["details"]["visitors"]:
            seen = Counter(_tile_type(tile) for tile in view["sees"])
            for tile in view["sees"]:
                count[_tile_type(tile)] += 1
                points[_tile_type(tile)] += _tile_value(tile)
            for kind, n in seen.items():
                if n >= 2:  # the type bonus: +1 per seen sculpture of a type seen twice or more
                    points[kind] += n
        for held in entry["details"]["hand"]:
            points[_tile_type(held["tile"])] += held["points"]
        result.append(
            [
                Component("sculpture type", kind, count[kind], float(points[kind]))
                for kind in sorted(set(count) | set(points))
            ]
        )
    return result


def _tile_type(tile: str) -> str:
    return tile.rsplit(" ", 1)[0]


def _tile_value(tile: str) -> int:
    return int(tile.rsplit(" ", 1)[1])
