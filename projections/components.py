"""Component strength: what each seat of an ended match did with each kind of component.

Each game's plugin (`GameRules.components`, in `domain/games/<game>/components.py`) reads the
final position's `score()` entries (their categories and details) and, where the final position
has forgotten it, the effective moves. Each gives, per seat, `Component(kind, component, number,
points)` rows of the `components` table (`number` is its column `count`):

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

from tablelog.domain.games import get_rules
from tablelog.domain.games.base import Component, Moves
from tablelog.domain.plain import PlainDict

__all__ = ["Component", "extract", "reads_moves"]


def reads_moves(game: str) -> bool:
    """Whether the game's components need its effective moves (kept until the match ends)."""
    return get_rules(game).components_read_moves


def extract(
    game: str, state: object, scores: list[PlainDict], moves: Moves
) -> list[list[Component]]:
    """Per seat, the components of a scored final position (none for games without any)."""
    return get_rules(game).components(state, scores, moves)
