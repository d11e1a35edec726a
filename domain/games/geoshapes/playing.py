"""Playing a legal move (`play`): the position after it. The move was checked (legality.py);
nothing here refuses."""

from __future__ import annotations

from collections.abc import Sequence

from .moves import Action, Discard, Draw, EndPlay, PickUp, PlaceShape, Switch, Trade
from .scoring import complete
from .state import (
    ACT,
    PLAY,
    REFUSED,
    RESHUFFLE,
    TRADED,
    GeoShapesState,
    Player,
    evolve,
    in_supply,
    stack,
)


def play(state: GeoShapesState, action: Action) -> GeoShapesState:
    if isinstance(action, Trade):
        if not action.accepted:
            return evolve(state, stage=REFUSED)
        return _exchange(state, action)
    if isinstance(action, EndPlay):  # after a trade
        return _end_turn(state, spare=bool(state.players[state.turn].hand))
    if isinstance(action, PlaceShape):  # the commonest first: a dispatch table per call
        return _place(state, action)  # cost more than these tests
    if isinstance(action, Draw):
        return _draw(state, action)
    if isinstance(action, Discard):
        return _discard(state, action)
    if isinstance(action, Switch):
        return _switch(state, action)
    return _pick_up(state, action)


def _without(shapes: tuple[str, ...], gone: Sequence[str]) -> tuple[str, ...]:
    rest = list(shapes)
    for shape in gone:
        rest.remove(shape)
    return tuple(rest)


def _with_hand(state: GeoShapesState, seat: int, hand: Sequence[str]) -> tuple[Player, ...]:
    players = list(state.players)
    players[seat] = Player(players[seat].quadrants, tuple(sorted(hand)))
    return tuple(players)


def _draw(state: GeoShapesState, action: Draw) -> GeoShapesState:
    """The card goes face up and the player takes its piece (from the supply: after a
    reshuffle the piece may be in play, and then the card gives nothing)."""
    seat, hand = state.turn, state.players[state.turn].hand
    gained = (action.shape,) if in_supply(state, action.shape) else ()
    drawn = evolve(
        state,
        players=_with_hand(state, seat, hand + gained),
        cards_up=state.cards_up + (action.shape,),
        stage=PLAY,
        deck=None if state.deck is None else state.deck[1:],
    )
    if drawn.deck_left == 0 and drawn.empty_deck == RESHUFFLE:
        return _reshuffle(drawn)
    return drawn


def _reshuffle(state: GeoShapesState) -> GeoShapesState:
    """The last card is drawn: the card DISCARDS become a new deck, in the next dealt order
    (simulations; the dealt orders are used in turn) or an unknown one (a table), and the
    SHAPE DISCARDS go back to the supply, so that the cards have pieces to give."""
    orders = state.reshuffled
    deck = orders[state.reshuffles % len(orders)] if orders else None
    return evolve(
        state,
        cards_up=(),
        deck=deck,
        stacks=((),) * len(state.board.quadrants),
        reshuffles=state.reshuffles + 1,
    )


def _pick_up(state: GeoShapesState, action: PickUp) -> GeoShapesState:
    quads = state.players[action.seat].quadrants
    taken = tuple(s for q in quads for s in stack(state, q))
    stacks = tuple(
        () if q in quads else pile for q, pile in zip(state.board.quadrants, state.stacks)
    )
    hand = state.players[state.turn].hand
    return evolve(
        state,
        players=_with_hand(state, state.turn, hand + taken),
        stacks=stacks,
        stage=PLAY,
    )


def _place(state: GeoShapesState, action: PlaceShape) -> GeoShapesState:
    board, placed = state.board, list(state.placed)
    index = board.where(action.on)
    placed[index] += (action.shape,)
    played = state.played_on
    if not board.places[index].is_circle and action.on not in played:
        played += (action.on,)
    hand = _without(state.players[state.turn].hand, [action.shape])
    return evolve(
        state,
        players=_with_hand(state, state.turn, hand),
        placed=tuple(placed),
        played_on=played,
        placements=state.placements + 1,
    )


def _switch(state: GeoShapesState, action: Switch) -> GeoShapesState:
    board, placed = state.board, list(state.placed)
    quadrant = board.places[board.where(action.figure)].quadrant
    back: tuple[str, ...] = ()
    for index in board.parts[quadrant][1]:
        back += placed[index]
        placed[index] = ()
    hand = state.players[state.turn].hand + back
    return evolve(state, players=_with_hand(state, state.turn, hand), placed=tuple(placed))


def _discard(state: GeoShapesState, action: Discard) -> GeoShapesState:
    seat, board = state.turn, state.board
    players, placed = state.players, state.placed
    if action.source is None:
        players = _with_hand(state, seat, _without(players[seat].hand, [action.shape]))
    else:
        index = board.where(action.source)
        rest = list(placed)
        rest[index] = _without(rest[index], [action.shape])
        placed = tuple(rest)
    target = board.quadrant_at[action.to or players[seat].quadrants[0]]
    stacks = list(state.stacks)
    stacks[target] += (action.shape,)
    after = evolve(state, players=players, placed=placed, stacks=tuple(stacks))
    return _end_turn(after, spare=action.source is None)


def _exchange(state: GeoShapesState, action: Trade) -> GeoShapesState:
    placed = list(state.placed)
    players = list(state.players)
    for giver, taker, items in (
        (state.turn, action.partner, action.give),
        (action.partner, state.turn, action.get),
    ):
        for item in items:
            if item.place is None:
                given = players[giver]
                players[giver] = Player(given.quadrants, _without(given.hand, [item.shape]))
            else:
                index = state.board.where(item.place)
                placed[index] = _without(placed[index], [item.shape])
            took = players[taker]
            players[taker] = Player(took.quadrants, tuple(sorted(took.hand + (item.shape,))))
    return evolve(state, players=tuple(players), placed=tuple(placed), stage=TRADED)


def _end_turn(state: GeoShapesState, spare: bool) -> GeoShapesState:
    """The play is over: the win is checked, then the turn passes to the left."""
    if spare and complete(state, state.turn):
        return evolve(state, winner=state.turn, stage=ACT, played_on=(), placements=0)
    following = (state.turn + 1) % len(state.players)
    # empty_deck=end: the deck is out, the round is finished up to the dealer, then the
    # game ends (with a reshuffle the deck is never empty between turns).
    return evolve(
        state,
        turn=following,
        stage=ACT,
        played_on=(),
        placements=0,
        deck_out=state.deck_left == 0 and following == 0,
    )
