"""What may be played: every legal move (`legal_moves`), and one at random (`random_move`,
the random bots'). Whether each is legal is legality.py's to say; this lists them."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..base import Move
from .legality import can_discard, can_place, placements
from .state import ACT, REFUSED, TRADED, GeoShapesState, deck_holds, has_stack

END_PLAY: Move = {"end_play": True}


def legal_moves(state: GeoShapesState) -> list[Move]:
    """Every draw, pick-up, placement, switch and discard the rules allow now. Trades are
    offered as one-for-one swaps of different shapes between hands, accepted or refused:
    the full range (1-3 for 1-3, hand or board) runs to hundreds of thousands and is
    accepted by `apply` all the same. Built kind by kind from what the position allows:
    draws, pick-ups and trades; or placements, switches, the end of the play and discards."""
    if state.over:
        return []
    return [move for kind in _legal_kinds(state).values() for move in kind()]


def random_move(state: GeoShapesState, rng: random.Random) -> Move:
    """A random legal move, its kind chosen first: trades far outnumber draws, and a player
    trading at random would never run the deck down to the end of the game. Only the chosen
    kind's moves are listed (the draws of `rng` are those of a choice over `legal_moves`);
    the trades not even that: `rng.choice` reads their count and the one drawn."""
    kind = rng.choice(_kind_names(state))
    if kind == "trade":
        return rng.choice(_OneForOne(state))
    makers: dict[str, Callable[[GeoShapesState], list[Move]]] = {
        "draw": _legal_draws,
        "pick up": _legal_pick_ups,
        "place": placements,
        "switch": _legal_switches,
        "discard": _discards,
    }
    # A choice of one still draws from `rng`, as the plain choice did.
    return rng.choice(makers[kind](state) if kind in makers else [dict(END_PLAY)])


def _kind_names(state: GeoShapesState) -> list[str]:
    """`sorted(_legal_kinds(state))`, each kind found to exist without a maker or a list (the
    names are appended in sorted order)."""
    if state.stage in (ACT, REFUSED):
        names = ["draw"] if _legal_draws(state) else []
        if any(has_stack(state, seat) for seat in range(len(state.players))):
            names.append("pick up")
        if state.stage == ACT and _can_trade(state):
            names.append("trade")
        return names
    placing = can_place(state)
    names = []
    if state.stage == TRADED:
        names.append("end play")
    elif state.placing_optional or state.placements or not placing:
        names.append("discard" if can_discard(state) else "end play")
    if placing:
        names.append("place")
    if _can_switch(state):
        names.append("switch")
    return names


def _legal_kinds(state: GeoShapesState) -> dict[str, Callable[[], list[Move]]]:
    """The kinds of move legal now, each with the maker of its legal moves, in the order of
    `legal_moves`. A kind is listed only when it has a legal move."""
    kinds: dict[str, Callable[[], list[Move]]] = {}

    def offer(kind: str, moves: list[Move]) -> None:
        if moves:
            kinds[kind] = lambda: moves

    if state.stage in (ACT, REFUSED):
        offer("draw", _legal_draws(state))
        offer("pick up", _legal_pick_ups(state))
        if state.stage == ACT and _can_trade(state):
            kinds["trade"] = lambda: _one_for_one_trades(state)
        return kinds
    # Here each kind is only found to exist: its moves are listed when it is chosen.
    placing = can_place(state)
    if placing:
        kinds["place"] = lambda: placements(state)
    if _can_switch(state):
        kinds["switch"] = lambda: _legal_switches(state)
    if state.stage == TRADED:
        offer("end play", [dict(END_PLAY)])
    elif state.placing_optional or state.placements or not placing:
        # Placing is compulsory: no discard while a shape could be placed.
        if can_discard(state):
            kinds["discard"] = lambda: _discards(state)
        else:  # nothing in hand or on the board (legality: the end of such a play)
            offer("end play", [dict(END_PLAY)])
    return kinds


def _legal_draws(state: GeoShapesState) -> list[Move]:
    if state.deck_left == 0:
        return []
    if state.deck is not None:  # the dealt deck: its next card, if the deck can hold it
        shape = state.deck[0]
        return [{"draw": shape}] if deck_holds(state, shape) else []
    can = state.deck_can_hold()
    return [{"draw": shape} for shape in sorted(can) if can[shape]]


def _legal_pick_ups(state: GeoShapesState) -> list[Move]:
    return [{"pick_up": other} for other in range(len(state.players)) if has_stack(state, other)]


def _can_trade(state: GeoShapesState) -> bool:
    """A one-for-one swap of different shapes with somebody exists."""
    mine = set(state.players[state.turn].hand)
    return any(
        mine and theirs and (len(mine | theirs) > 1)
        for other, partner in enumerate(state.players)
        if other != state.turn
        for theirs in [set(partner.hand)]
    )


def _one_for_one_trades(state: GeoShapesState) -> list[Move]:
    """Every one-for-one swap of different shapes between hands: legal as they stand (each
    side holds what it gives, one shape each way)."""
    seat = state.turn
    return [
        {"trade": {"with": other, "give": [mine], "get": [theirs], "accepted": accepted}}
        for other, partner in enumerate(state.players)
        if other != seat
        for mine in sorted(set(state.players[seat].hand))
        for theirs in sorted(set(partner.hand))
        if mine != theirs
        for accepted in (True, False)
    ]


class _OneForOne:
    """`_one_for_one_trades(state)` as `rng.choice` reads it (its length, then one item),
    without building the hundred-odd trades a random draw never looks at."""

    def __init__(self, state: GeoShapesState) -> None:
        seat = state.turn
        mine = sorted(set(state.players[seat].hand))
        self.blocks = []  # per partner: (partner, its shapes, how many trades)
        for other, partner in enumerate(state.players):
            if other != seat:
                theirs = sorted(set(partner.hand))
                pairs = len(mine) * len(theirs) - len(set(mine).intersection(theirs))
                self.blocks.append((other, theirs, 2 * pairs))
        self.mine = mine

    def __len__(self) -> int:
        return sum(count for _, _, count in self.blocks)

    def __getitem__(self, number: int) -> Move:
        for other, theirs, count in self.blocks:
            if number < count:
                pairs = [(m, t) for m in self.mine for t in theirs if m != t]
                give, get = pairs[number // 2]
                offer = {"with": other, "give": [give], "get": [get], "accepted": number % 2 == 0}
                return {"trade": offer}
            number -= count
        raise IndexError(number)


def _can_switch(state: GeoShapesState) -> bool:
    """`_legal_switches(state)` is not empty."""
    board, placed = state.board, state.placed
    return any(
        placed[r]
        for index in board.own_indices(state.players[state.turn].quadrants)
        for r in board.rivals[index]
    )


def _legal_switches(state: GeoShapesState) -> list[Move]:
    board, placed = state.board, state.placed
    return [
        {"switch": board.places[index].name}
        for index in board.own_indices(state.players[state.turn].quadrants)
        if any(placed[r] for r in board.rivals[index])  # a circle has no rivals
    ]


def _discards(state: GeoShapesState) -> list[Move]:
    """The discards of a play allowed to end: from the hand, or off the board once the hand
    is empty; on the half board, to either own stack."""
    player, board = state.players[state.turn], state.board
    targets = [{"to": q} for q in player.quadrants] if state.half_board else [{}]
    sources = (
        [{"discard": shape} for shape in sorted(set(player.hand))]
        if player.hand
        else [
            {"discard": shape, "from": board.places[index].name}
            for index in board.own_indices(player.quadrants)
            for shape in sorted(set(state.placed[index]))
        ]
    )
    return [{**source, **target} for source in sources for target in targets]
