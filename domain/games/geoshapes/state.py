"""A GeoShapes position (`GeoShapesState`), its players and the stages of a turn, with the
counts the rules ask of a position on every move."""

from __future__ import annotations

import dataclasses
from collections import Counter

from ..base import without_memos
from .board import Board, Place

RESHUFFLE, END = "reshuffle", "end"  # what the empty deck does: version 2, version 1

ACT, REFUSED, PLAY, TRADED = "act", "refused", "play", "traded"
STAGE_HINT = {
    ACT: "draw a card, pick up a discard stack or offer a trade",
    REFUSED: "the offer was refused: draw a card or pick up a discard stack",
    PLAY: "place shapes or switch figures, then discard one shape",
    TRADED: "place shapes or switch figures, then end the play (no discard after a trade)",
}


@dataclasses.dataclass(frozen=True)
class Player:
    quadrants: tuple[str, ...]  # one, or two adjoining on the half board
    hand: tuple[str, ...]  # sorted; public (dealt face up, every gain seen)


@dataclasses.dataclass(frozen=True)
class GeoShapesState:
    board: Board  # carried along so that replay needs no file
    half_board: bool
    players: tuple[Player, ...]
    placed: tuple[tuple[str, ...], ...]  # per board place, in board order
    stacks: tuple[tuple[str, ...], ...]  # SHAPE DISCARDS per quadrant, bottom first
    cards_up: tuple[str, ...]  # the face-up card DISCARDS: the deal, then every draw
    deck: tuple[str, ...] | None  # the draw order when the setup dealt it; None at a table
    turn: int = 0
    stage: str = ACT
    played_on: tuple[str, ...] = ()  # figures placed on during this play
    winner: int | None = None
    deck_out: bool = False  # the round after the last draw ended with nobody winning
    placing_optional: bool = False  # the seed's challenging option
    empty_deck: str = RESHUFFLE  # or END: version 1's reading
    placements: int = 0  # shapes placed during this play
    reshuffled: tuple[tuple[str, ...], ...] = ()  # dealt orders of the new decks (simulations)
    reshuffles: int = 0  # how often the discards became a new deck

    @property
    def over(self) -> bool:
        return self.winner is not None or self.deck_out

    @property
    def deck_left(self) -> int:
        return self.board.cards - len(self.cards_up)

    def deck_can_hold(self) -> Counter[str]:
        """What the unseen cards may be: the manifest's deck minus every card turned up (since
        the last reshuffle: the card DISCARDS then went back into the deck)."""
        return Counter(self.board.deck) - Counter(self.cards_up)

    def supply(self) -> Counter[str]:
        """The pieces nobody holds: not in a hand, on the board or in a discard stack. Before
        any reshuffle this is exactly what the deck can hold (each card gave its piece)."""
        in_play = Counter(s for p in self.players for s in p.hand)
        in_play.update(s for shapes in self.placed + self.stacks for s in shapes)
        return Counter(self.board.deck) - in_play

    def on(self, place: str) -> tuple[str, ...]:
        return self.placed[self.board.where(place)]

    def own_places(self, seat: int) -> list[Place]:
        return self.board.places_of(self.players[seat].quadrants)


_FIELDS = len(dataclasses.fields(GeoShapesState))


def evolve(state: GeoShapesState, **changes: object) -> GeoShapesState:
    """`dataclasses.replace` without its per-field checks and `__init__` (a match builds
    thousands of states): a copy of the state's instance dict with the changes is the new
    state, less any value `per_state` kept on the old one (none today: the board keeps the
    tables), which belongs to that state alone."""
    new = object.__new__(GeoShapesState)
    fields = state.__dict__.copy()
    if len(fields) > _FIELDS:
        fields = without_memos(fields)
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    return new


# ---- counts asked on every move: each counts one thing rather than building Counters ---------


def in_supply(state: GeoShapesState, shape: str) -> bool:
    """`state.supply()[shape] > 0`."""
    held = sum(p.hand.count(shape) for p in state.players)
    held += sum(shapes.count(shape) for shapes in state.placed)
    held += sum(shapes.count(shape) for shapes in state.stacks)
    return state.board.deck.get(shape, 0) > held


def deck_holds(state: GeoShapesState, shape: str) -> bool:
    """`state.deck_can_hold()[shape] > 0`."""
    return state.board.deck.get(shape, 0) > state.cards_up.count(shape)


def has_stack(state: GeoShapesState, seat: int) -> bool:
    """The player in that seat has a SHAPE DISCARDS stack to pick up."""
    at = state.board.quadrant_at
    return any(state.stacks[at[q]] for q in state.players[seat].quadrants)


def stack(state: GeoShapesState, quadrant: str) -> tuple[str, ...]:
    return state.stacks[state.board.quadrant_at[quadrant]]


def seat_words(state: GeoShapesState, seat: int) -> str:
    """A seat where names are not known (a refusal): counted from 1, with its quadrants."""
    return f"seat {seat + 1} ({', '.join(state.players[seat].quadrants)})"
