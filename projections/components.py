"""Component strength: what each seat of an ended match did with each kind of component.

One small extractor per game reads the final position's `score()` entries (their categories and
details) and, where the final position has forgotten it, the effective moves. Each gives, per
seat, `Component(kind, component, count, points)` rows of the `components` table:

- Topiary, "sculpture type": count = sculptures of that type the seat's visitors see (a sculpture
  seen by two visitors counts twice, as it scores twice); points = what they score: their values,
  the type bonus they earn, and the hand tiles of that type that score. The points add up to the
  seat's total.
- Topas, "gem colour": count = the lines of that colour the seat scored; points = the gems those
  lines gave (the colour's scoring category).
- Total Landscaping, "card colour": count = cards of that colour the seat played over the match,
  and "hoe" for the hoes it used (points: none, the game scores bouts, not cards); "bout
  condition": count = bouts the seat won by that condition (points: the same bouts).
- GeoShapes, "shape drawn": count = cards of that shape the seat drew (points: none); "shape in
  hand": shapes of that kind left in the hand at the end, points = what they counted (their value
  for the winner, minus their value for everyone else).
Other games (Topitop) have no components to measure.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

NAN = float("nan")

Moves = Sequence[tuple[int, dict[str, Any]]]  # the effective moves: (seat index, move)


class Component(NamedTuple):
    kind: str
    component: str
    count: int
    points: float


Extractor = Callable[[Any, list[dict[str, Any]], Moves], list[list[Component]]]


def topiary(state: Any, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
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
        result.append([Component("sculpture type", kind, count[kind], float(points[kind]))
                       for kind in sorted(set(count) | set(points))])
    return result


def _tile_type(tile: str) -> str:
    return tile.rsplit(" ", 1)[0]


def _tile_value(tile: str) -> int:
    return int(tile.rsplit(" ", 1)[1])


def topas(state: Any, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
    result = []
    for entry in scores:
        lines: Counter[str] = Counter()
        gems: Counter[str] = Counter()
        for placement in entry["details"].get("placements", []):
            for line in placement["lines"]:
                lines[line["colour"]] += 1
                gems[line["colour"]] += line["gems"]
        result.append([Component("gem colour", colour, lines[colour], float(gems[colour]))
                       for colour in sorted(set(lines) | set(gems))])
    return result


def total_landscaping(state: Any, scores: list[dict[str, Any]],
                      moves: Moves) -> list[list[Component]]:
    played: list[Counter[str]] = [Counter() for _ in scores]
    for _, move in moves:
        for seat, garden in enumerate(("east", "west")):
            choice = move.get(garden) or {}
            card = choice.get("card")
            played[seat]["hoe" if "hoe" in choice else str(card).capitalize()] += 1
    result = []
    for seat, entry in enumerate(scores):
        rows = [Component("card colour", card, n, NAN) for card, n in sorted(played[seat].items())]
        rows += [Component("bout condition", condition, int(n), float(n))
                 for condition, n in entry["categories"].items()]
        result.append(rows)
    return result


def geoshapes(state: Any, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
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
        rows += [Component("shape in hand", shape, n, float(sign * n * values[shape]))
                 for shape, n in sorted(held.items())]
        result.append(rows)
    return result


# The games whose extractor reads the effective moves (the others read the final position).
FROM_MOVES = frozenset({"total-landscaping", "geoshapes"})
EXTRACTORS: dict[str, Extractor] = {"topiary": topiary, "topas": topas,
                                    "total-landscaping": total_landscaping,
                                    "geoshapes": geoshapes}


def extract(game: str, state: Any, scores: list[dict[str, Any]],
            moves: Moves) -> list[list[Component]]:
    """Per seat, the components of a scored final position (none for games without any)."""
    extractor = EXTRACTORS.get(game)
    return extractor(state, scores, moves) if extractor else [[] for _ in scores]
