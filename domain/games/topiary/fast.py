"""Topiary's fast paths (issue 24): what a balance study asks after every move, answered from
lookup tables instead of parsing, listing and wording. Each one gives exactly what the plain
path gives (tests/games/test_fast_topiary.py compares them on thousands of positions).

Per-state tables (the face-up sculptures by cell, the face-down tiles each spot sees, the
outcome) live in the state's instance `__dict__`, outside the dataclass fields, so ==, repr and
the JSON encoding ignore them; a state rebuilt from JSON builds them again on first use.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..base import IllegalMove, Move
from .garden import CELLS, SIGHT_LINES, parse_garden_cell, parse_spot

if TYPE_CHECKING:
    from .rules import Sculptures, TopiaryState

# Names the parsers give back unchanged: a move naming only these needs no parsing. Built by
# asking the parsers themselves, so the fast path accepts exactly what they map to itself.
SPOTS = frozenset(spot for spot in SIGHT_LINES if parse_spot(spot) == spot)
CELL_INDEX = {name: parse_garden_cell(name) for name in CELLS}
# The spots in SIGHT_LINES order (the order `legal_moves` lists them in), by number, and per
# cell the spots whose sight line holds it.
SPOT_LINES = tuple(SIGHT_LINES.items())
SPOT_NUMBER = {spot: number for number, spot in enumerate(SIGHT_LINES)}
SEEN_FROM = tuple(
    tuple(n for n, (_, line) in enumerate(SPOT_LINES) if cell in line) for cell in range(len(CELLS))
)


def canonical_tiles(sculptures: Sculptures) -> frozenset[str]:
    """The tiles in play whose names `Sculptures.parse` returns as they are (kept on the
    Sculptures, which every state of a match shares: no hashing of it per look-up)."""
    kept = sculptures.__dict__.get("_canonical")
    if kept is None:
        kept = sculptures.__dict__["_canonical"] = _canonical_tiles(sculptures)
    return kept


@lru_cache(maxsize=16)
def _canonical_tiles(sculptures: Sculptures) -> frozenset[str]:
    found = set()
    for tile in sculptures.tiles():
        try:
            if sculptures.parse_name(tile) == tile:
                found.add(tile)
        except IllegalMove:  # a manifest type the parser cannot read back (odd spacing)
            pass
    return frozenset(found)


@lru_cache(maxsize=256)
def _sculpture(tile: str) -> tuple[int, str, str]:
    """A face-up tile as (value, type, name)."""
    kind, _, value = tile.rpartition(" ")
    return int(value), kind, tile


def garden_cell(name: object) -> int:
    """`parse_garden_cell`, a canonical name looked up."""
    index = CELL_INDEX.get(name) if isinstance(name, str) else None
    return parse_garden_cell(name) if index is None else index


def quick_visit(sculptures: Sculptures, move: Any) -> tuple[str, int | None, str | None] | None:
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


def face_up(state: TopiaryState) -> tuple[tuple[int, str, str] | None, ...]:
    """Per cell, the face-up sculpture's (value, type, name), else None."""
    kept = state.__dict__.get("_up")
    if kept is None:
        kept = state.__dict__["_up"] = tuple(
            _sculpture(tile) if up and tile is not None else None
            for tile, up in zip(state.tiles, state.face_up)
        )
    return kept


def down_in_sight(state: TopiaryState) -> tuple[int, ...]:
    """Per spot (by number), how many face-down tiles its sight line holds."""
    kept = state.__dict__.get("_down")
    if kept is None:
        kept = state.__dict__["_down"] = tuple(
            sum(not state.face_up[cell] for cell in line) for _, line in SPOT_LINES
        )
    return kept


def carry_over(before: TopiaryState, after: TopiaryState, cell: int | None, tile: str) -> None:
    """Give `after` (`before` with `tile` turned face up at `cell`, if any) the tables `before`
    has built, updated, rather than building them again."""
    up, down = before.__dict__.get("_up"), before.__dict__.get("_down")
    if cell is None:
        if up is not None:
            after.__dict__["_up"] = up
        if down is not None:
            after.__dict__["_down"] = down
        return
    if up is not None:
        after.__dict__["_up"] = up[:cell] + (_sculpture(tile),) + up[cell + 1 :]
    if down is not None:
        counts = list(down)
        for number in SEEN_FROM[cell]:
            counts[number] -= 1
        after.__dict__["_down"] = tuple(counts)


def totals(state: TopiaryState) -> list[float]:
    """`Topiary.totals` once every hand is known."""
    return [float(p) for p in points(state)[0]]


def points(state: TopiaryState) -> tuple[list[int], list[int]]:
    """Per seat its total (what its visitors see, the type bonus, and each hand tile lower
    than the tallest of its type its visitors see) and its hand points (the first tie-break);
    an unseen hand tile counts nothing (`totals` asks only once every hand is known)."""
    up = face_up(state)
    totals = [0] * len(state.hands)
    tallest: list[dict[str, int]] = [{} for _ in state.hands]
    for visitor in state.visitors:
        best, top, kinds, seen = tallest[visitor.seat], 0, [], 0
        for cell in SIGHT_LINES[visitor.spot]:
            sculpture = up[cell]
            if sculpture is not None and sculpture[0] > top:
                top, kind, _ = sculpture
                seen += top
                kinds.append(kind)
                if best.get(kind, 0) < top:
                    best[kind] = top
        if len(kinds) == 2:  # the type bonus: a point per sculpture of a type seen twice+
            seen += 2 if kinds[0] == kinds[1] else 0  # (two seen, the usual case: one test)
        elif len(kinds) > 2:
            seen += sum(n for n in map(kinds.count, set(kinds)) if n >= 2)
        totals[visitor.seat] += seen
    hand_points = [0] * len(state.hands)
    for seat, hand in enumerate(state.hands):
        best = tallest[seat]
        for tile in hand:
            if tile is None:
                continue
            value, kind, _ = _sculpture(tile)
            if best.get(kind, 0) > value:
                hand_points[seat] += value
    return [p + h for p, h in zip(totals, hand_points)], hand_points


def random_visit(state: TopiaryState, seat: int, rng: random.Random) -> Move | None:
    """`Topiary.random_move`'s draw when the garden and the seat's hand are all known (a
    simulation's every turn): each face-down tile then offers the same number of places (the
    hand and the taken tile), so the moves are counted from each spot's face-down tiles.
    Draws exactly what the plain draw does; None when something is unknown (the plain draw
    decides)."""
    hand = list(state.hands[seat])
    if None in hand or None in state.tiles:
        return None
    ways = len(hand) + 1  # per face-down cell: a hand tile, or the taken one, placed back
    down = down_in_sight(state)
    taken = {SPOT_NUMBER[v.spot] for v in state.visitors}
    moves = len(SPOT_LINES) - len(taken) + ways * (sum(down) - sum(down[n] for n in taken))
    drawn = rng.choice(range(moves))
    for number, count in enumerate(down):
        if number in taken:
            continue
        if not drawn:
            return {"visitor": SPOT_LINES[number][0]}
        drawn -= 1
        if drawn < ways * count:
            nth, place = divmod(drawn, ways)
            spot, line = SPOT_LINES[number]
            cell = [c for c in line if not state.face_up[c]][nth]
            places = hand + [state.tiles[cell]]
            return {"visitor": spot, "take": CELLS[cell], "place": places[place]}
        drawn -= ways * count
    raise AssertionError("the draw falls within the moves counted")
