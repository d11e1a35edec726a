"""GeoShapes in words: a move as a line of the match's story, the board as text, and why a
game ended."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...plain import PlainMapping
from .board import Board, Place, missing
from .scoring import DECK_OUT, hand_value
from .state import STAGE_HINT, GeoShapesState, seat_words

MOVE_KINDS = (
    ("draw", "draw"),
    ("pick_up", "pick up"),
    ("trade", "trade"),
    ("place", "place"),
    ("switch", "switch"),
    ("discard", "discard"),
    ("end_play", "end play"),
)  # a stored move's key, and the kind of move it names


def a_shape(shape: str) -> str:
    return f"{'an' if shape[:1] in 'AEIOU' else 'a'} {shape}"


def shape_names(shapes: Sequence[str]) -> str:
    return ", ".join(shapes) if shapes else "nothing"


def move_kind(move: PlainMapping) -> str:
    return next((kind for key, kind in MOVE_KINDS if key in move), "move")


def describe(move: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
    def who(seat: object) -> str:  # a stored seat (counted from 0), as a person reads it
        if isinstance(seat, int) and 0 <= seat < len(seats):
            return seats[seat]
        return f"seat {seat + 1}" if isinstance(seat, int) else str(seat)

    if "draw" in move:
        return f"draws {a_shape(move['draw'])} card and takes the shape"
    if "pick_up" in move:
        return f"picks up {who(move['pick_up'])}'s shape discards"
    if "trade" in move:
        trade = move["trade"]

        def items(side: list[Any]) -> str:
            return ", ".join(
                i if isinstance(i, str) else f"{i['shape']} off the {i['from']}" for i in side
            )

        answer = "accepted" if trade["accepted"] else "refused"
        return (
            f"offers {who(trade['with'])} {items(trade['give'])} for "
            f"{items(trade['get'])}: {answer}"
        )
    if "place" in move:
        return f"places {a_shape(move['place'])} on the {move['on']}"
    if "switch" in move:
        return f"switches figures to the {move['switch']} (shapes return to the hand)"
    if "discard" in move:
        source = f" off the {move['from']}" if move.get("from") else ""
        target = f" to the {move['to']} discards" if move.get("to") else ""
        return f"discards {a_shape(move['discard'])}{source}{target}"
    return "ends the play (no discard after a trade)"


def result(state: GeoShapesState, seats: Sequence[str] = ()) -> str:
    """Why the game ended, in words a person reads: the winner's name where known."""
    if state.winner is None:
        return DECK_OUT
    who = seats[state.winner] if seats else seat_words(state, state.winner)
    return f"{who} completed a figure and the circle with a shape to spare"


def render(state: GeoShapesState, seats: Sequence[str]) -> str:
    board = state.board
    owner = {q: seat for seat, p in enumerate(state.players) for q in p.quadrants}
    lines = [
        f"{board.name}: {state.deck_left} cards to draw, "
        f"{len(state.cards_up)} turned up"
        + (f", the discards reshuffled {state.reshuffles} times" if state.reshuffles else "")
    ]
    for quadrant, stack in zip(board.quadrants, state.stacks):
        seat = owner.get(quadrant)
        lines.append("")
        lines.append(f"{quadrant}: " + ("nobody" if seat is None else seats[seat]))
        for place in board.places_of([quadrant]):
            label = "circle" if place.is_circle else place.name
            lines.append(f"  {label:<15}" + _draw_place(board, place, state.on(place.name)))
        if stack:
            lines.append(f"  shape discards: {shape_names(stack)} (top last)")
    lines.append("")
    for seat, player in enumerate(state.players):
        lines.append(
            f"{seats[seat]}'s hand: {shape_names(player.hand)} ({hand_value(state, seat)} points)"
        )
    lines.append("[x] in place  [W] the Wild standing in  [ ] still needed")
    if state.over:
        lines.append(f"game over: {result(state, seats)}")
    else:
        lines.append(f"to move: {seats[state.turn]}: {STAGE_HINT[state.stage]}")
    return "\n".join(lines)


def _draw_place(board: Board, place: Place, placed: tuple[str, ...]) -> str:
    """Each slot of the completed place: filled by its shape, by a Wild, or still open."""
    gaps = missing(place, placed, board.wild)
    wilds = placed.count(board.wild)
    real = Counter(place.slots()) - Counter(gaps)
    marks = [f"[x] {shape}" for shape, count in real.items() for _ in range(count)]
    marks += [f"[W] {shape}" for shape in gaps[:wilds]]
    marks += [f"[ ] {shape}" for shape in gaps[wilds:]]
    return "  ".join(marks)
