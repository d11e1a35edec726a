"""Setting up a GeoShapes match: its options and board, the deal (`deal`, for simulations),
and the first position from a recorded setup (`start`), every part of the setup checked."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...plain import PlainMapping
from ...quoting import quoted
from ..base import InvalidSetup
from .board import Board, load_board
from .declaration import DEFAULT_MANIFEST, GAME_INFO
from .moves import spelled_as
from .state import END, RESHUFFLE, GeoShapesState, Player

V1_MANIFEST = "geoshapes"  # the default board of rules version 1: its matches name it
RESHUFFLES_DEALT = 3  # new deck orders a simulated deal records; they are used in turn
DEALT = {False: 4, True: 8}  # cards per player: full board, half board
QUADRANTS_EACH = {False: 1, True: 2}
SETUP_KEYS = {"hands", "quadrants", "deck", "reshuffled"}


def options_and_board(options: PlainMapping) -> tuple[dict[str, Any], Board]:
    """The options completed, and their board: `deal` and `start` need both, and finding
    a manifest is the costly part of setting up a match, so it is done once."""
    # The engine's default board is filled in here (the declared default documents it).
    chosen = GAME_INFO.structure_options({"manifest": DEFAULT_MANIFEST, **options})
    board = load_board(chosen.manifest)  # a bad manifest is refused here, before any match
    completed = {
        "manifest": chosen.manifest,
        "half_board": chosen.half_board,
        "placing_optional": chosen.placing_optional,
        "empty_deck": chosen.empty_deck,
    }
    return completed, board


def replay_options_v1(options: PlainMapping) -> dict[str, object]:
    """Version 1 placed at will, ended the game when the deck ran out, and named its board
    (the default then was `geoshapes`, so its records name it)."""
    return {
        **options,
        "manifest": options.get("manifest", V1_MANIFEST),
        "placing_optional": True,
        "empty_deck": END,
    }


def _seats_fit(seats: int, half: bool) -> None:
    if not GAME_INFO.min_players <= seats <= GAME_INFO.max_players:
        raise InvalidSetup(f"GeoShapes is for 2 to 4 players, not {seats}")
    if half and seats != 2:
        raise InvalidSetup(f"the half board is for two players, not {seats}")


def _default_quadrants(board: Board, seats: int, half: bool) -> list[list[str]]:
    each = QUADRANTS_EACH[half]
    return [list(board.quadrants[seat * each : (seat + 1) * each]) for seat in range(seats)]


def deal(seats: int, options: PlainMapping, rng: random.Random) -> dict[str, Any]:
    opts, board = options_and_board(options)
    _seats_fit(seats, opts["half_board"])
    cards = [shape for shape, count in board.deck.items() for _ in range(count)]
    rng.shuffle(cards)
    dealt = seats * DEALT[opts["half_board"]]
    # One card at a time to the left, as the dealer does.
    hands = [cards[seat:dealt:seats] for seat in range(seats)]
    setup = {
        "quadrants": _default_quadrants(board, seats, opts["half_board"]),
        "hands": hands,
        "deck": cards[dealt:],
    }
    if opts["empty_deck"] == RESHUFFLE:
        # The new decks' orders, dealt now: `apply` draws no random numbers.
        setup["reshuffled"] = [rng.sample(cards, len(cards)) for _ in range(RESHUFFLES_DEALT)]
    return setup


def start(seats: int, options: PlainMapping, setup: PlainMapping) -> GeoShapesState:
    opts, board = options_and_board(options)
    half = opts["half_board"]
    _seats_fit(seats, half)
    _holds_a_deal(setup)
    quadrants = _setup_quadrants(board, seats, half, setup.get("quadrants"))
    hands = _setup_hands(board, seats, half, setup["hands"])
    dealt = [shape for hand in hands for shape in hand]
    deck = setup.get("deck")
    if deck is not None:
        deck = _order(
            board,
            deck,
            Counter(board.deck) - Counter(dealt),
            "the deck order",
            "the cards not dealt",
        )
    return GeoShapesState(
        board=board,
        half_board=half,
        players=tuple(Player(tuple(q), tuple(sorted(h))) for q, h in zip(quadrants, hands)),
        placed=((),) * len(board.places),
        stacks=((),) * len(board.quadrants),
        cards_up=tuple(dealt),
        deck=None if deck is None else tuple(deck),
        placing_optional=opts["placing_optional"],
        empty_deck=opts["empty_deck"],
        reshuffled=_reshuffled(board, opts["empty_deck"], setup.get("reshuffled", [])),
    )


def _holds_a_deal(setup: PlainMapping) -> None:
    """A setup records the hands dealt, and nothing but the deal's parts."""
    if not isinstance(setup, Mapping) or "hands" not in setup:
        raise InvalidSetup(
            'a GeoShapes setup records the deal: {"hands": [[SHAPE, ...], '
            '...], "quadrants": optional, "deck": optional draw order, '
            '"reshuffled": optional orders of the new decks}'
        )
    extra = set(setup) - SETUP_KEYS
    if extra:
        raise InvalidSetup(
            f"a GeoShapes setup holds hands, quadrants, deck and reshuffled, not {sorted(extra)}"
        )


def _reshuffled(board: Board, empty_deck: str, raw: object) -> tuple[tuple[str, ...], ...]:
    """The dealt orders of the new decks, each holding every card of the deck."""
    if not isinstance(raw, list) or (empty_deck == END and raw):
        raise InvalidSetup(
            "reshuffled lists the orders of the new decks (a list of lists), "
            "and only when the empty deck is reshuffled"
        )
    return tuple(
        tuple(
            _order(
                board,
                order,
                Counter(board.deck),
                "a reshuffled deck order",
                "every card of the deck",
            )
        )
        for order in raw
    )


def _order(board: Board, raw: object, expected: Counter[str], what: str, holding: str) -> list[str]:
    """A recorded deck order, which must hold exactly the `expected` cards."""
    order = _shape_list(board, raw, what)
    if Counter(order) != expected:
        raise InvalidSetup(
            f"{what} must hold exactly {holding}; missing "
            f"{sorted((expected - Counter(order)).elements())}, extra "
            f"{sorted((Counter(order) - expected).elements())}"
        )
    return order


def _shape_list(board: Board, raw: object, what: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise InvalidSetup(f"{what} must be a list of shape names")
    spelled = [spelled_as(s, board.values) for s in raw]  # any case, the board's spelling
    unknown = sorted({s for s in spelled if s not in board.values})
    if unknown:
        raise InvalidSetup(f"{what} names {unknown}, not among the shapes of {board.name}")
    return spelled


def _setup_hands(board: Board, seats: int, half: bool, raw: object) -> list[list[str]]:
    if not isinstance(raw, list) or len(raw) != seats:
        raise InvalidSetup(f"the deal must list one hand per player ({seats})")
    hands = [
        _shape_list(board, hand, f"the hand of seat {seat}") for seat, hand in enumerate(raw, 1)
    ]
    for seat, hand in enumerate(hands, 1):
        if len(hand) != DEALT[half]:
            raise InvalidSetup(
                f"the hand of seat {seat} holds {len(hand)} shapes; each player is dealt "
                f"{DEALT[half]}"
            )
    over = Counter(s for hand in hands for s in hand) - Counter(board.deck)
    if over:
        shape = next(iter(over))
        raise InvalidSetup(
            f"the deal holds more {shape} cards than the deck's {board.deck.get(shape, 0)}"
        )
    return hands


def _setup_quadrants(board: Board, seats: int, half: bool, raw: object) -> list[list[str]]:
    if raw is None:
        return _default_quadrants(board, seats, half)
    if not isinstance(raw, list) or len(raw) != seats:
        raise InvalidSetup(f"quadrants must list one choice per player ({seats})")
    chosen = [
        [spelled_as(q, board.quadrants) if isinstance(q, str) else q for q in quads]
        if isinstance(quads, list)
        else quads
        for quads in ([entry] if isinstance(entry, str) else entry for entry in raw)
    ]
    for seat, quads in enumerate(chosen):
        if (
            not isinstance(quads, list)
            or len(quads) != QUADRANTS_EACH[half]
            or any(q not in board.quadrants for q in quads)
        ):
            raise InvalidSetup(
                f"seat {seat + 1} must play {QUADRANTS_EACH[half]} of the quadrants "
                f"{list(board.quadrants)}, got {quoted(quads)}"
            )
        if half and not board.adjoin(*quads):
            raise InvalidSetup(
                f"seat {seat + 1}'s half board {quads} is not two adjoining quadrants"
            )
    taken = [q for quads in chosen for q in quads]
    if len(set(taken)) != len(taken):
        raise InvalidSetup(f"a quadrant is played by one player only, got {chosen}")
    return chosen
