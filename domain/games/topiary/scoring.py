"""Topiary's scoring, each rule written once (`score`, `totals`, `outcome`, `evaluate`, the
board drawn and the component rows all read it):

- a visitor sees the nearest face-up sculpture of its sight line and each further one strictly
  taller than all face-up sculptures in front of it (face-down tiles are not seen, block nothing);
- it scores the values it sees, and a point per seen sculpture of each type it sees twice or more
  (the type bonus);
- a hand tile scores its value if one of its owner's visitors sees a taller sculpture of its type.

Fast enough for a balance study (issue 24): a state's face-up sculptures are read once into a
table of (value, type, name) per cell, and nothing here parses or words anything.
tests/games/golden/topiary.json guards what it answers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..base import per_state
from .garden import SIGHT_LINES
from .state import TopiaryState

Sculpture = tuple[int, str, str]  # a face-up tile as (value, type, name)


class View(NamedTuple):
    """What one visitor sees and scores."""

    spot: str
    seat: int
    seen: tuple[Sculpture, ...]  # nearest first
    points: int  # the values seen
    bonus: int  # the type bonus


@lru_cache(maxsize=256)
def sculpture(tile: str) -> Sculpture:
    kind, _, value = tile.rpartition(" ")
    return int(value), kind, tile


@per_state
def face_up(state: TopiaryState) -> tuple[Sculpture | None, ...]:
    """Per cell, the face-up sculpture, else None."""
    return tuple(
        sculpture(tile) if up and tile is not None else None
        for tile, up in zip(state.tiles, state.face_up)
    )


def seen_along(up: tuple[Sculpture | None, ...], line: tuple[int, ...]) -> tuple[Sculpture, ...]:
    """What a visitor looking along `line` sees, nearest first."""
    seen: list[Sculpture] = []
    top = 0
    for cell in line:
        found = up[cell]
        if found is not None and found[0] > top:
            seen.append(found)
            top = found[0]
    return tuple(seen)


@lru_cache(maxsize=8192)  # a study sees the same few thousand views again and again
def view_points(seen: tuple[Sculpture, ...]) -> tuple[int, int, tuple[tuple[str, int], ...]]:
    """What a view scores: the values seen, the type bonus, and per type the tallest seen."""
    tallest: dict[str, int] = {}
    for value, kind, _ in seen:
        if tallest.get(kind, 0) < value:
            tallest[kind] = value
    bonus = sum(bonus_by_type(seen).values()) if len(seen) > 1 else 0
    return sum(found[0] for found in seen), bonus, tuple(tallest.items())


def bonus_by_type(seen: tuple[Sculpture, ...]) -> dict[str, int]:
    """The type bonus one visitor earns, by type: a point per seen sculpture of a type it sees
    twice or more."""
    kinds = [found[1] for found in seen]  # a handful: counted without a Counter
    return {kind: n for kind in set(kinds) if (n := kinds.count(kind)) >= 2}


def note_tallest(tallest: dict[str, int], seen: tuple[tuple[str, int], ...]) -> None:
    """Keep in `tallest`, per type, the tallest sculpture seen so far (`seen`: a view's)."""
    for kind, value in seen:
        if tallest.get(kind, 0) < value:
            tallest[kind] = value


def hand_tile_points(tile: str, tallest: dict[str, int]) -> int:
    """A hand tile's points: its value, if its owner's visitors see a taller one of its type."""
    value, kind, _ = sculpture(tile)
    return value if tallest.get(kind, 0) > value else 0


def views(state: TopiaryState, seat: int) -> tuple[list[View], dict[str, int]]:
    """`seat`'s visitors' views, in the order placed, and per type the tallest they see."""
    up = face_up(state)
    found, tallest = [], {}  # type: ignore[var-annotated]
    for visitor in state.visitors:
        if visitor.seat == seat:
            seen = seen_along(up, SIGHT_LINES[visitor.spot])
            values, bonus, tallest_here = view_points(seen)
            found.append(View(visitor.spot, seat, seen, values, bonus))
            note_tallest(tallest, tallest_here)
    return found, tallest


def points(state: TopiaryState) -> tuple[list[int], list[int]]:
    """Per seat its total and its hand points (the first tie-break), as `views` and
    `hand_tile_points` count them, without the details; an unseen hand tile counts nothing
    (`totals` and `outcome` ask only once every hand is known)."""
    up = face_up(state)
    totals = [0] * len(state.hands)
    tallest: list[dict[str, int]] = [{} for _ in state.hands]
    for visitor in state.visitors:
        values, bonus, tallest_here = view_points(seen_along(up, SIGHT_LINES[visitor.spot]))
        totals[visitor.seat] += values + bonus
        best = tallest[visitor.seat]  # `note_tallest`, inline: asked of every bot's candidate
        for kind, value in tallest_here:
            if best.get(kind, 0) < value:
                best[kind] = value
    hands = [
        sum(hand_tile_points(tile, tallest[seat]) for tile in hand if tile)
        for seat, hand in enumerate(state.hands)
    ]
    return [total + hand for total, hand in zip(totals, hands)], hands
