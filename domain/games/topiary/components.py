"""Component strength in Topiary: per seat and sculpture type, the sculptures its visitors see
(a sculpture seen by two visitors counts twice, as it scores twice) and what they score - their
values, the type bonus they earn, and the hand tiles of that type that score. The points add up
to the seat's total. Read off the final position's score details."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..base import Component, Moves


def components(state: Any, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
    # Counted in plain dicts, each tile's type and value read once per process (every
    # simulated match ends here: Counters cost several times as much).
    result = []
    for entry in scores:
        count: dict[str, int] = {}
        points: dict[str, int] = {}
        for view in entry["details"]["visitors"]:
            kinds = []
            for tile in view["sees"]:
                kind, value = _tile(tile)
                kinds.append(kind)
                count[kind] = count.get(kind, 0) + 1
                points[kind] = points.get(kind, 0) + value
            if len(kinds) > 1:  # the type bonus: +1 per seen sculpture of a type seen twice+
                for kind in set(kinds):
                    seen = kinds.count(kind)
                    if seen >= 2:
                        points[kind] += seen
        for held in entry["details"]["hand"]:
            kind = held["tile"].rsplit(" ", 1)[0]
            points[kind] = points.get(kind, 0) + held["points"]
        result.append(
            [
                Component("sculpture type", kind, count.get(kind, 0), float(points[kind]))
                for kind in sorted(set(count) | set(points))
            ]
        )
    return result


@lru_cache(maxsize=1024)
def _tile(tile: str) -> tuple[str, int]:
    """A tile's type and value ("Peacock 5" -> ("Peacock", 5))."""
    kind, value = tile.rsplit(" ", 1)
    return kind, int(value)
