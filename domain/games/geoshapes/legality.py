"""Whether a move may be made: `error` gives the first rule it breaks, in words, or None.

The one legality check, asked by every move, the bots' too: each check is cheap while the move
is legal (counts and the board's tables, no Counters or lists), and words only a refusal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...quoting import quoted
from ..base import Move
from .board import Place, is_complete
from .describing import a_shape
from .moves import Action, Discard, Draw, EndPlay, Item, PickUp, PlaceShape, Switch, Trade
from .state import (
    ACT,
    PLAY,
    REFUSED,
    STAGE_HINT,
    TRADED,
    GeoShapesState,
    deck_holds,
    has_stack,
    seat_words,
)

MAX_TRADE = 3


def error(state: GeoShapesState, action: Action) -> str | None:
    if isinstance(action, PlaceShape):  # the commonest first: a dispatch table per call
        return _place_error(state, action)  # cost more than these tests
    if isinstance(action, Draw):
        return _draw_error(state, action)
    if isinstance(action, Discard):
        return _discard_error(state, action)
    if isinstance(action, Switch):
        return _switch_error(state, action)
    if isinstance(action, PickUp):
        return _pick_up_error(state, action)
    if isinstance(action, Trade):
        return _trade_error(state, action)
    return _end_play_error(state, action)


def _not_now(state: GeoShapesState, doing: str) -> str:
    return f"no {doing} at this point of the turn: {STAGE_HINT[state.stage]}"


def _own_index(state: GeoShapesState, name: str) -> int | str:
    """The index of the player's own place of that name, or what is wrong with it."""
    board = state.board
    index = board.index(name)
    if index is None:
        return f"{quoted(name)} is not a figure or circle of {board.name}"
    quadrant = board.places[index].quadrant
    if quadrant not in state.players[state.turn].quadrants:
        return f"the {name} is in the {quadrant} quadrant, not the player's own"
    return index


def _draw_error(state: GeoShapesState, action: Draw) -> str | None:
    if state.stage not in (ACT, REFUSED):
        return _not_now(state, "draw")
    if state.deck_left == 0:
        return "the draw deck is empty: pick up a discard stack or offer a trade"
    if state.deck is not None and state.deck[0] != action.shape:
        return f"the next card of the dealt deck is a {state.deck[0]}, not a {action.shape}"
    if not deck_holds(state, action.shape):
        return (
            f"no {action.shape} card is left in the deck: it holds "
            f"{state.board.deck.get(action.shape, 0)} and all are turned up"
        )
    return None


def _pick_up_error(state: GeoShapesState, action: PickUp) -> str | None:
    if state.stage not in (ACT, REFUSED):
        return _not_now(state, "pick-up")
    if not has_stack(state, action.seat):
        return (
            f"the shape discards of {seat_words(state, action.seat)} are empty: "
            "there is no stack to pick up"
        )
    return None


def _trade_error(state: GeoShapesState, action: Trade) -> str | None:
    if state.stage == REFUSED:
        return "one offer per turn: after a refused trade, draw a card or pick up a stack"
    if state.stage != ACT:
        return _not_now(state, "trade")
    if action.partner == state.turn:
        return "a trade is offered to another player"
    for side, items in (("offered", action.give), ("asked for", action.get)):
        if not 1 <= len(items) <= MAX_TRADE:
            return (
                f"no more than {MAX_TRADE} GeoShapes may be offered for up to "
                f"{MAX_TRADE}, at least one each way; {len(items)} {side}"
            )
    return _holds_error(state, state.turn, action.give) or _holds_error(
        state, action.partner, action.get
    )


def _holds_error(state: GeoShapesState, seat: int, items: Sequence[Item]) -> str | None:
    """Whether a player holds the traded shapes, in hand or on their own board."""
    player = state.players[seat]
    from_hand = [i.shape for i in items if i.place is None]
    for shape in from_hand:  # the first shape given more often than the hand holds it
        if from_hand.count(shape) > player.hand.count(shape):
            return f"{seat_words(state, seat)} holds no (more) {shape} in hand"
    if len(from_hand) == len(items):
        return None
    for (where, shape), count in Counter((i.place, i.shape) for i in items if i.place).items():
        index = state.board.index(where)
        if index is None or state.board.places[index].quadrant not in player.quadrants:
            return f"{quoted(where)} is not a figure or circle of {seat_words(state, seat)}"
        if state.placed[index].count(shape) < count:
            return f"the {where} holds no (more) {shape}"
    return None


def _place_error(state: GeoShapesState, action: PlaceShape) -> str | None:
    if state.stage not in (PLAY, TRADED):
        return _not_now(state, "placing")
    if action.shape not in state.players[state.turn].hand:
        return f"the hand holds no {action.shape} to place"
    index = _own_index(state, action.on)
    if isinstance(index, str):
        return index
    board, placed, played = state.board, state.placed, state.played_on
    if any(placed[r] or board.places[r].name in played for r in board.rivals[index]):
        return _rival_error(state, board.places[index])
    if action.shape not in board.fitting(index, placed[index]):  # `fits`, kept per board
        return _misfit_error(state, board.places[index], action.shape)
    return None


def _rival_error(state: GeoShapesState, place: Place) -> str:
    """Why the other figure of the quadrant keeps shapes off this one (one of them does)."""
    others = [f for f in state.board.figures(place.quadrant) if f.name != place.name]
    done = [f.name for f in others if f.name in state.played_on]
    if done:
        return (
            f"shapes go on one of the two figures per play, not both: this play "
            f"placed on the {done[0]}, so not on the {place.name}"
        )
    held = [f.name for f in others if state.on(f.name)]
    return (
        f"the {held[0]} still holds shapes: switch figures first (its shapes "
        f"return to the hand) before playing on the {place.name}"
    )


def _misfit_error(state: GeoShapesState, place: Place, shape: str) -> str:
    """Why a shape does not fit a place (`fits` found it does not)."""
    if is_complete(place, state.on(place.name)):
        return f"the {place.name} is already complete"
    need = place.needs.get(shape, 0)
    if not need:
        return f"a {shape} does not fit the {place.name}: it is no part of it"
    return (
        f"a {shape} does not fit the {place.name}: the completed "
        f"{place.name} holds {need} and has them"
    )


def _switch_error(state: GeoShapesState, action: Switch) -> str | None:
    if state.stage not in (PLAY, TRADED):
        return _not_now(state, "switching")
    index = _own_index(state, action.figure)
    if isinstance(index, str):
        return index
    board = state.board
    place = board.places[index]
    if place.is_circle:
        return "figures are switched, not circles: name the figure to switch to"
    if not any(state.placed[r] for r in board.rivals[index]):
        return (
            f"nothing to switch from: no other figure of the {place.quadrant} holds "
            f"shapes; place on the {place.name} directly"
        )
    return None


def _discard_error(state: GeoShapesState, action: Discard) -> str | None:
    if state.stage == TRADED:
        return "after an accepted trade the player does not discard: end the play"
    if state.stage != PLAY:
        return _not_now(state, "discard")
    player = state.players[state.turn]
    if action.to is None and state.half_board:
        return (
            "a half-board player names which of their SHAPE DISCARDS areas takes the "
            'shape: add "to": QUADRANT'
        )
    if action.to is not None and action.to not in player.quadrants:
        return f"discards go to the player's own SHAPE DISCARDS, not the {action.to}'s"
    if unplaced := _unplaced_error(state):
        return unplaced
    if player.hand:
        if action.source is not None:
            return (
                "the hand still holds shapes: a shape comes off the board only when "
                "the hand is empty"
            )
        if action.shape not in player.hand:
            return f"the hand holds no {action.shape} to discard"
        return None
    return _board_discard_error(state, action)


def _board_discard_error(state: GeoShapesState, action: Discard) -> str | None:
    """A discard with the hand empty: a shape off an own figure or circle."""
    if not can_discard(state):
        return 'nothing in hand or on the board to discard: end the play ({"end_play": true})'
    if action.source is None:
        return (
            "the hand is empty: discard a shape from a figure or circle of your "
            'quadrant, naming it with "from": PLACE'
        )
    index = _own_index(state, action.source)
    if isinstance(index, str):
        return index
    if action.shape not in state.placed[index]:
        return f"the {action.source} holds no {action.shape}"
    return None


def _unplaced_error(state: GeoShapesState) -> str | None:
    """Placing is compulsory in the standard game: a play after a draw or a pick-up that
    placed nothing may not end while a shape of the hand fits (the seed: "As a challenging
    option, players are not required to play any GeoShapes on the board")."""
    if state.placing_optional or state.placements or not can_place(state):
        return None
    fit = placements(state)[0]  # the first a player scanning the board would see
    return (
        f"placing is compulsory: the {fit['on']} takes {a_shape(fit['place'])}, so place "
        "at least one shape before the discard (the challenging option "
        "placing_optional lifts this)"
    )


def _end_play_error(state: GeoShapesState, action: EndPlay) -> str | None:
    if state.stage == PLAY:
        if not can_discard(state):
            # Our reading: a card that gave no piece can leave a player with nothing in hand
            # or on the board; with nothing to discard the play ends without a discard.
            return None
        return "after a draw or a pick-up the play ends with a discard: one shape must go"
    if state.stage != TRADED:
        return _not_now(state, "ending the play")
    return None


# ---- what the position allows, asked by the checks above and by the bots (choices.py) -------


def open_indices(state: GeoShapesState) -> list[int]:
    """The indices of the player's places that may take a shape this play (a figure only
    while its quadrant's other figure is empty and was not placed on this play)."""
    board, placed, played = state.board, state.placed, state.played_on
    places, rivals = board.places, board.rivals
    return [
        index
        for index in board.own_indices(state.players[state.turn].quadrants)
        if not any(placed[r] or places[r].name in played for r in rivals[index])
    ]


def can_place(state: GeoShapesState) -> bool:
    """`placements(state)` is not empty (found without listing it)."""
    board, placed, hand = state.board, state.placed, state.players[state.turn].hand
    return bool(hand) and any(
        not board.fitting(index, placed[index]).isdisjoint(hand) for index in open_indices(state)
    )


def placements(state: GeoShapesState) -> list[Move]:
    """Every shape of the hand on every open place it fits, in the order a player would scan
    them: shape by shape, place by place."""
    board, placed = state.board, state.placed
    open_places = [(board.places[i].name, board.fitting(i, placed[i])) for i in open_indices(state)]
    return [
        {"place": shape, "on": name}
        for shape in sorted(set(state.players[state.turn].hand))
        for name, fitting in open_places
        if shape in fitting
    ]


def can_discard(state: GeoShapesState) -> bool:
    """A shape in hand, or else one on an own place, to discard."""
    player, placed = state.players[state.turn], state.placed
    return bool(player.hand) or any(
        placed[index] for index in state.board.own_indices(player.quadrants)
    )
