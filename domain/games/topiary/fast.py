"""Topiary's quick readings (issue 24): a move or a name in canonical spelling read without
the full parser, which reads (and words the refusal of) everything else; the face-down tiles
each spot sees, which `random_move` counts the moves from.

Per-state tables (the face-up sculptures by cell, the face-down tiles each spot sees) are kept
by `base.per_state`, outside the dataclass fields, so ==, repr and the JSON encoding ignore
them; a state rebuilt from JSON works them out again on first use.
"""

from __future__ import annotations

from ..base import per_state
from .garden import CELLS, SIGHT_LINES, parse_garden_cell, parse_spot
from .scoring import face_up, sculpture
from .state import Sculptures, TopiaryState, canonical_tiles

# Names the parsers give back unchanged: a move naming only these needs no parsing. Built by
# asking the parsers themselves, so the fast path accepts exactly what they map to itself.
SPOTS = frozenset(spot for spot in SIGHT_LINES if parse_spot(spot) == spot)
CELL_INDEX = {name: parse_garden_cell(name) for name in CELLS}
SPOT_LINES = tuple(SIGHT_LINES.items())  # by number
SPOT_NUMBER = {spot: number for number, spot in enumerate(SIGHT_LINES)}
# Per cell, the spots (by number, in SIGHT_LINES order) whose sight line holds it.
SEEN_FROM = tuple(
    tuple(n for n, line in enumerate(SIGHT_LINES.values()) if cell in line)
    for cell in range(len(CELLS))
)


def garden_cell(name: object) -> int:
    """`parse_garden_cell`, a canonical name looked up."""
    index = CELL_INDEX.get(name) if isinstance(name, str) else None
    return parse_garden_cell(name) if index is None else index


def quick_visit(sculptures: Sculptures, move: object) -> tuple[str, int | None, str | None] | None:
    """A well-formed visiting move in canonical spelling as (spot, take, place); None for
    anything else, which the full parser reads (and words the refusal of)."""
    if type(move) is not dict:
        return None
    spot = move.get("visitor")
    if type(spot) is not str or spot not in SPOTS:
        return None
    if len(move) == 1:
        return spot, None, None
    take, place = move.get("take"), move.get("place")
    if len(move) != 3 or type(take) is not str or type(place) is not str:
        return None
    cell = CELL_INDEX.get(take)
    if cell is None or place not in canonical_tiles(sculptures):
        return None
    return spot, cell, place


@per_state
def down_in_sight(state: TopiaryState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per spot (in SIGHT_LINES order), how many face-down tiles its sight line holds, and how
    many of those the record has not seen."""
    return (
        tuple(sum(not state.face_up[cell] for cell in line) for line in SIGHT_LINES.values()),
        tuple(
            sum(not state.face_up[cell] and state.tiles[cell] is None for cell in line)
            for line in SIGHT_LINES.values()
        ),
    )


def give_tables(before: TopiaryState, after: TopiaryState, cell: int | None, tile: str) -> None:
    """Hand `after` (`before` with `tile` turned face up at `cell`, if any) the per-state
    tables `before` has worked out (`face_up`, `down_in_sight`), edited for that one tile,
    rather than working them out again (`per_state`'s `give`)."""
    up, down = face_up.known(before), down_in_sight.known(before)
    if up is not None:
        face_up.give(after, up if cell is None else up[:cell] + (sculpture(tile),) + up[cell + 1 :])
    if down is not None:
        if cell is not None:
            face_down, unseen = list(down[0]), list(down[1])
            for number in SEEN_FROM[cell]:
                face_down[number] -= 1
                unseen[number] -= before.tiles[cell] is None
            down = tuple(face_down), tuple(unseen)
        down_in_sight.give(after, down)
