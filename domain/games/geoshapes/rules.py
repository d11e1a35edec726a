"""GeoShapes: be the first to fill one figure of your quadrant, and its circle, with GeoShapes.

Rules as RULES.md reads them; the board and deck are a manifest (`geoshapes_board.py`):
- 2-4 players, each on a quadrant (option `half_board`: 2 players on two adjoining quadrants
  each). Four cards each are dealt face up (eight on the half board) and exchanged for their
  shapes, so every hand is public; only the order of the draw deck is hidden.
- The first seat (the dealer's left) plays first. A turn is staged, one recorded move per step:
    act      draw a card (take its shape), pick up a player's whole shape-discard stack, or offer
             a trade of 1-3 shapes for 1-3 shapes (hand or board), accepted or refused;
    refused  after a refused offer: draw or pick up;
    play     place shapes from the hand on one figure per quadrant and on the circle, switch
             figures; then discard one shape (off the board when the hand is empty);
    traded   after an accepted trade: place as above, then end the play without a discard.
- A shape goes only where the completed place needs it; the Wild fills any slot. Placing on a
  figure needs the quadrant's other figure empty: switching returns its shapes to the hand.
- Placing is compulsory (version 2): after a draw or a pick-up, a player who can place a shape
  places at least one before discarding. Option `placing_optional` (the seed's "challenging
  option") lifts this.
- The player who ends a play with one figure and the circle complete in every own quadrant, and
  who had a shape in hand to discard (or still holds one after a trade), wins: 25 points plus
  the value of the hand; everyone else loses the value of theirs.
- The empty deck (version 2, RULES.md): when the last card is drawn, the discards go back: the
  card DISCARDS are shuffled into a new deck, and (ours) the SHAPE DISCARDS stacks return to the
  supply, since there is one piece per card and a card drawn again needs a piece to give. A card
  whose every piece is in play (in a hand or on the board) gives nothing. The new order is
  unknown at a table (each draw is checked against what the deck can still hold); a simulated
  setup deals the new orders too (`reshuffled`), used in turn and again from the first.
  Option `empty_deck=end` keeps version 1's reading: once the last card is drawn the round is
  finished (up to the dealer); if nobody has won by then the game ends with no winner.
- Version 1's matches replay with `placing_optional` and `empty_deck=end` (`replay_options`).
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...quoting import quoted
from ..base import (
    Component,
    GameRules,
    IllegalMove,
    InvalidSetup,
    Move,
    Moves,
    Outcome,
    seat_score,
    without_memos,
)
from .board import GAP_MEMO, Board, Place, is_complete, load_board, missing
from .components import components as component_rows
from .declaration import DEFAULT_MANIFEST, GAME_INFO
from .moves import (
    Action,
    Discard,
    Draw,
    EndPlay,
    Item,
    PickUp,
    PlaceShape,
    Switch,
    Trade,
    as_json,
    from_table,
    parse,
    quick_parse,
    spelled_as,
    to_table,
)

V1_MANIFEST = "geoshapes"  # the default board of rules version 1: its matches name it
RESHUFFLE, END = "reshuffle", "end"
EMPTY_DECK = (RESHUFFLE, END)
RESHUFFLES_DEALT = 3  # new deck orders a simulated deal records; they are used in turn
WIN_BONUS = 25
MAX_TRADE = 3
DEALT = {False: 4, True: 8}  # cards per player: full board, half board
QUADRANTS_EACH = {False: 1, True: 2}

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


def _evolve(state: GeoShapesState, **changes: Any) -> GeoShapesState:
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


def _in_supply(state: GeoShapesState, shape: str) -> bool:
    """`state.supply()[shape] > 0`, counting one shape rather than building Counters."""
    held = sum(p.hand.count(shape) for p in state.players)
    held += sum(shapes.count(shape) for shapes in state.placed)
    held += sum(shapes.count(shape) for shapes in state.stacks)
    return state.board.deck.get(shape, 0) > held


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


def _deck_holds(state: GeoShapesState, shape: str) -> bool:
    """`state.deck_can_hold()[shape] > 0`, counting one shape rather than building Counters."""
    return state.board.deck.get(shape, 0) > state.cards_up.count(shape)


def _has_stack(state: GeoShapesState, seat: int) -> bool:
    """The player in that seat has a SHAPE DISCARDS stack to pick up."""
    at = state.board.quadrant_at
    return any(state.stacks[at[q]] for q in state.players[seat].quadrants)


def _without(shapes: tuple[str, ...], gone: Sequence[str]) -> tuple[str, ...]:
    rest = list(shapes)
    for shape in gone:
        rest.remove(shape)
    return tuple(rest)


def _a(shape: str) -> str:
    return f"{'an' if shape[:1] in 'AEIOU' else 'a'} {shape}"


def _names(shapes: Sequence[str]) -> str:
    return ", ".join(shapes) if shapes else "nothing"


def _seat(state: GeoShapesState, seat: int) -> str:
    """A seat where names are not known (a refusal): counted from 1, with its quadrants."""
    return f"seat {seat + 1} ({', '.join(state.players[seat].quadrants)})"


# The winner's reason as stored (`audit` compares it with the rules', so its words are fixed;
# `named_reason` puts the name in where it is shown).
WON = "seat {} completed a figure and the circle with a shape to spare"  # counted from 0
DECK_OUT = "the deck ran out and the round ended with nobody completing a figure and circle"
WON_STORED = re.compile(r"^seat (\d+) (completed a figure and the circle with a shape to spare)$")


class GeoShapes(GameRules[GeoShapesState]):
    # What the game is comes from its declaration (declaration.py), said once.
    id = GAME_INFO.id
    name = GAME_INFO.name
    version = "2"
    components_read_moves = True  # what was drawn or played is gone from the end position
    default_manifest = DEFAULT_MANIFEST
    min_players, max_players = GAME_INFO.min_players, GAME_INFO.max_players
    move_cap = 2000  # random bots take 100-535 moves; people far fewer (docs/games)
    state_type = GeoShapesState
    scores_as_it_goes = False  # hands are settled only when somebody wins

    # ---- setting up -------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return self._options_and_board(options)[0]

    @staticmethod
    def _options_and_board(options: Mapping[str, Any]) -> tuple[dict[str, Any], Board]:
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

    def words(self, state: GeoShapesState) -> Mapping[str, Sequence[str]]:
        """The board's shapes, its places (figures and circles), figures and quadrants."""
        board = state.board
        return {
            "shape": tuple(board.values),
            "place": tuple(place.name for place in board.places),
            "figure": tuple(place.name for place in board.places if not place.is_circle),
            "quadrant": board.quadrants,
        }

    def replay_options(self, rules_version: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """Version 1 placed at will, ended the game when the deck ran out, and named its board
        (the default then was `geoshapes`, so its records name it)."""
        if rules_version == "1":
            return {
                **options,
                "manifest": options.get("manifest", V1_MANIFEST),
                "placing_optional": True,
                "empty_deck": END,
            }
        return super().replay_options(rules_version, options)

    def _seats_fit(self, seats: int, half: bool) -> None:
        if not self.min_players <= seats <= self.max_players:
            raise InvalidSetup(f"GeoShapes is for 2 to 4 players, not {seats}")
        if half and seats != 2:
            raise InvalidSetup(f"the half board is for two players, not {seats}")

    @staticmethod
    def _default_quadrants(board: Board, seats: int, half: bool) -> list[list[str]]:
        each = QUADRANTS_EACH[half]
        return [list(board.quadrants[seat * each : (seat + 1) * each]) for seat in range(seats)]

    def deal(self, seats: int, options: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        opts, board = self._options_and_board(options)
        self._seats_fit(seats, opts["half_board"])
        cards = [shape for shape, count in board.deck.items() for _ in range(count)]
        rng.shuffle(cards)
        dealt = seats * DEALT[opts["half_board"]]
        # One card at a time to the left, as the dealer does.
        hands = [cards[seat:dealt:seats] for seat in range(seats)]
        setup = {
            "quadrants": self._default_quadrants(board, seats, opts["half_board"]),
            "hands": hands,
            "deck": cards[dealt:],
        }
        if opts["empty_deck"] == RESHUFFLE:
            # The new decks' orders, dealt now: `apply` draws no random numbers.
            setup["reshuffled"] = [rng.sample(cards, len(cards)) for _ in range(RESHUFFLES_DEALT)]
        return setup

    def start(
        self, seats: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> GeoShapesState:
        opts, board = self._options_and_board(options)
        half = opts["half_board"]
        self._seats_fit(seats, half)
        self._setup_holds_a_deal(setup)
        quadrants = self._setup_quadrants(board, seats, half, setup.get("quadrants"))
        hands = self._setup_hands(board, seats, half, setup["hands"])
        dealt = [shape for hand in hands for shape in hand]
        deck = setup.get("deck")
        if deck is not None:
            deck = self._order(
                board,
                deck,
                Counter(board.deck) - Counter(dealt),
                "the deck order",
                "the cards not dealt",
            )
        reshuffled = setup.get("reshuffled", [])
        if not isinstance(reshuffled, list) or (opts["empty_deck"] == END and reshuffled):
            raise InvalidSetup(
                "reshuffled lists the orders of the new decks (a list of lists), "
                "and only when the empty deck is reshuffled"
            )
        orders = tuple(
            tuple(
                self._order(
                    board,
                    order,
                    Counter(board.deck),
                    "a reshuffled deck order",
                    "every card of the deck",
                )
            )
            for order in reshuffled
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
            reshuffled=orders,
        )

    @staticmethod
    def _setup_holds_a_deal(setup: Mapping[str, Any]) -> None:
        """A setup records the hands dealt, and nothing but the deal's parts."""
        if not isinstance(setup, Mapping) or "hands" not in setup:
            raise InvalidSetup(
                'a GeoShapes setup records the deal: {"hands": [[SHAPE, ...], '
                '...], "quadrants": optional, "deck": optional draw order, '
                '"reshuffled": optional orders of the new decks}'
            )
        extra = set(setup) - {"hands", "quadrants", "deck", "reshuffled"}
        if extra:
            raise InvalidSetup(
                f"a GeoShapes setup holds hands, quadrants, deck and "
                f"reshuffled, not {sorted(extra)}"
            )

    def _order(
        self, board: Board, raw: Any, expected: Counter[str], what: str, holding: str
    ) -> list[str]:
        """A recorded deck order, which must hold exactly the `expected` cards."""
        order = self._shape_list(board, raw, what)
        if Counter(order) != expected:
            raise InvalidSetup(
                f"{what} must hold exactly {holding}; missing "
                f"{sorted((expected - Counter(order)).elements())}, extra "
                f"{sorted((Counter(order) - expected).elements())}"
            )
        return order

    @staticmethod
    def _shape_list(board: Board, raw: Any, what: str) -> list[str]:
        if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
            raise InvalidSetup(f"{what} must be a list of shape names")
        spelled = [spelled_as(s, board.values) for s in raw]  # any case, the board's spelling
        unknown = sorted({s for s in spelled if s not in board.values})
        if unknown:
            raise InvalidSetup(f"{what} names {unknown}, not among the shapes of {board.name}")
        return spelled

    def _setup_hands(self, board: Board, seats: int, half: bool, raw: Any) -> list[list[str]]:
        if not isinstance(raw, list) or len(raw) != seats:
            raise InvalidSetup(f"the deal must list one hand per player ({seats})")
        hands = [
            self._shape_list(board, hand, f"the hand of seat {seat}")
            for seat, hand in enumerate(raw, 1)
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

    def _setup_quadrants(self, board: Board, seats: int, half: bool, raw: Any) -> list[list[str]]:
        if raw is None:
            return self._default_quadrants(board, seats, half)
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

    @staticmethod
    def _parse(state: GeoShapesState, move: Any) -> Action:
        return parse(move, state.board, len(state.players))

    # ---- the rules: each returns the broken rule's wording, or None -------------------------

    @staticmethod
    def _stage_error(state: GeoShapesState, allowed: tuple[str, ...], doing: str) -> str | None:
        if state.stage in allowed:
            return None
        return f"no {doing} at this point of the turn: {STAGE_HINT[state.stage]}"

    def _own_place(self, state: GeoShapesState, name: str) -> Place | str:
        """The player's own place of that name, or what is wrong with it."""
        index = state.board.index(name)
        if index is None:
            return f"{quoted(name)} is not a figure or circle of {state.board.name}"
        place = state.board.places[index]
        if place.quadrant not in state.players[state.turn].quadrants:
            return f"the {name} is in the {place.quadrant} quadrant, not the player's own"
        return place

    def _holds_error(self, state: GeoShapesState, seat: int, items: Sequence[Item]) -> str | None:
        """Whether a player holds the traded shapes, in hand or on their own board."""
        player = state.players[seat]
        from_hand = [i.shape for i in items if i.place is None]
        for shape in from_hand:  # the first shape given more often than the hand holds it
            if from_hand.count(shape) > player.hand.count(shape):
                return f"{_seat(state, seat)} holds no (more) {shape} in hand"
        if len(from_hand) == len(items):
            return None
        for (where, shape), count in Counter((i.place, i.shape) for i in items if i.place).items():
            index = state.board.index(where)
            if index is None or state.board.places[index].quadrant not in player.quadrants:
                return f"{quoted(where)} is not a figure or circle of {_seat(state, seat)}"
            if state.placed[index].count(shape) < count:
                return f"the {where} holds no (more) {shape}"
        return None

    def _draw_error(self, state: GeoShapesState, action: Draw) -> str | None:
        if error := self._stage_error(state, (ACT, REFUSED), "draw"):
            return error
        if state.deck_left == 0:
            return "the draw deck is empty: pick up a discard stack or offer a trade"
        if state.deck is not None and state.deck[0] != action.shape:
            return f"the next card of the dealt deck is a {state.deck[0]}, not a {action.shape}"
        if not _deck_holds(state, action.shape):
            return (
                f"no {action.shape} card is left in the deck: it holds "
                f"{state.board.deck.get(action.shape, 0)} and all are turned up"
            )
        return None

    def _pick_up_error(self, state: GeoShapesState, action: PickUp) -> str | None:
        if error := self._stage_error(state, (ACT, REFUSED), "pick-up"):
            return error
        if not _has_stack(state, action.seat):
            return (
                f"the shape discards of {_seat(state, action.seat)} are empty: "
                "there is no stack to pick up"
            )
        return None

    def _trade_error(self, state: GeoShapesState, action: Trade) -> str | None:
        if state.stage == REFUSED:
            return "one offer per turn: after a refused trade, draw a card or pick up a stack"
        if error := self._stage_error(state, (ACT,), "trade"):
            return error
        if action.partner == state.turn:
            return "a trade is offered to another player"
        for side, items in (("offered", action.give), ("asked for", action.get)):
            if not 1 <= len(items) <= MAX_TRADE:
                return (
                    f"no more than {MAX_TRADE} GeoShapes may be offered for up to "
                    f"{MAX_TRADE}, at least one each way; {len(items)} {side}"
                )
        return self._holds_error(state, state.turn, action.give) or self._holds_error(
            state, action.partner, action.get
        )

    def _place_error(self, state: GeoShapesState, action: PlaceShape) -> str | None:
        if error := self._stage_error(state, (PLAY, TRADED), "placing"):
            return error
        if action.shape not in state.players[state.turn].hand:
            return f"the hand holds no {action.shape} to place"
        place = self._own_place(state, action.on)
        if isinstance(place, str):
            return place
        board, placed, played = state.board, state.placed, state.played_on
        index = board.where(place.name)
        if any(placed[r] or board.places[r].name in played for r in board.rivals[index]):
            return self._rival_error(state, place)
        if action.shape not in board.fitting(index, placed[index]):  # `fits`, kept per board
            return self._misfit_error(state, place, action.shape)
        return None

    @staticmethod
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

    @staticmethod
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

    def _switch_error(self, state: GeoShapesState, action: Switch) -> str | None:
        if error := self._stage_error(state, (PLAY, TRADED), "switching"):
            return error
        place = self._own_place(state, action.figure)
        if isinstance(place, str):
            return place
        if place.is_circle:
            return "figures are switched, not circles: name the figure to switch to"
        board = state.board
        if not any(state.placed[r] for r in board.rivals[board.where(place.name)]):
            return (
                f"nothing to switch from: no other figure of the {place.quadrant} holds "
                f"shapes; place on the {place.name} directly"
            )
        return None

    def _discard_error(self, state: GeoShapesState, action: Discard) -> str | None:
        if state.stage == TRADED:
            return "after an accepted trade the player does not discard: end the play"
        if error := self._stage_error(state, (PLAY,), "discard"):
            return error
        player = state.players[state.turn]
        if action.to is None and state.half_board:
            return (
                "a half-board player names which of their SHAPE DISCARDS areas takes the "
                'shape: add "to": QUADRANT'
            )
        if action.to is not None and action.to not in player.quadrants:
            return f"discards go to the player's own SHAPE DISCARDS, not the {action.to}'s"
        if error := self._unplaced_error(state):
            return error
        if player.hand:
            if action.source is not None:
                return (
                    "the hand still holds shapes: a shape comes off the board only when "
                    "the hand is empty"
                )
            if action.shape not in player.hand:
                return f"the hand holds no {action.shape} to discard"
            return None
        if not self._can_discard(state):
            return 'nothing in hand or on the board to discard: end the play ({"end_play": true})'
        if action.source is None:
            return (
                "the hand is empty: discard a shape from a figure or circle of your "
                'quadrant, naming it with "from": PLACE'
            )
        place = self._own_place(state, action.source)
        if isinstance(place, str):
            return place
        if action.shape not in state.on(place.name):
            return f"the {place.name} holds no {action.shape}"
        return None

    def _unplaced_error(self, state: GeoShapesState) -> str | None:
        """Placing is compulsory in the standard game: a play after a draw or a pick-up that
        placed nothing may not end while a shape of the hand fits (the seed: "As a challenging
        option, players are not required to play any GeoShapes on the board")."""
        if state.placing_optional or state.placements or not self._can_place(state):
            return None
        fit = self._legal_places(state)[0]  # the first a player scanning the board would see
        return (
            f"placing is compulsory: the {fit['on']} takes {_a(fit['place'])}, so place "
            "at least one shape before the discard (the challenging option "
            "placing_optional lifts this)"
        )

    def _end_play_error(self, state: GeoShapesState, action: EndPlay) -> str | None:
        if state.stage == PLAY:
            if not self._can_discard(state):
                # Our reading: a card that gave no piece can leave a player with nothing in hand
                # or on the board; with nothing to discard the play ends without a discard.
                return None
            return "after a draw or a pick-up the play ends with a discard: one shape must go"
        return self._stage_error(state, (TRADED,), "ending the play")

    def _error(self, state: GeoShapesState, action: Action) -> str | None:
        """The first rule the action breaks, in words, or None: the one legality check, asked
        by every move (so each check is cheap while the move is legal, and words only a
        refusal)."""
        if isinstance(action, PlaceShape):  # the commonest first: a dispatch table per call
            return self._place_error(state, action)  # cost more than these tests
        if isinstance(action, Draw):
            return self._draw_error(state, action)
        if isinstance(action, Discard):
            return self._discard_error(state, action)
        if isinstance(action, Switch):
            return self._switch_error(state, action)
        if isinstance(action, PickUp):
            return self._pick_up_error(state, action)
        if isinstance(action, Trade):
            return self._trade_error(state, action)
        return self._end_play_error(state, action)

    # ---- applying ---------------------------------------------------------------------------

    def apply(self, state: GeoShapesState, move: Mapping[str, Any]) -> GeoShapesState:
        if not state.over:
            # The fast path: a move in the stored form, read without the full parser, that the
            # rules find legal. Any other move (malformed, unusual or refused) takes the full
            # parser below, which words every refusal.
            action = quick_parse(move, state.board, len(state.players))
            if action is not None and self._error(state, action) is None:
                return self._do(state, action)
        return self._parsed_apply(state, move)

    def _parsed_apply(self, state: GeoShapesState, move: Mapping[str, Any]) -> GeoShapesState:
        """`apply` of any other move: the full parser, every rule's wording checked (what both
        paths answer is golden data: tests/games/test_golden.py)."""
        if state.over:
            raise IllegalMove(f"the game is over: {self._result(state)}")
        action = self._parse(state, move)
        error = self._error(state, action)
        if error:
            raise IllegalMove(error)
        return self._do(state, action)

    @staticmethod
    def _stack(state: GeoShapesState, quadrant: str) -> tuple[str, ...]:
        return state.stacks[state.board.quadrant_at[quadrant]]

    @staticmethod
    def _with_hand(state: GeoShapesState, seat: int, hand: Sequence[str]) -> tuple[Player, ...]:
        players = list(state.players)
        players[seat] = Player(players[seat].quadrants, tuple(sorted(hand)))
        return tuple(players)

    def _do(self, state: GeoShapesState, action: Action) -> GeoShapesState:
        if isinstance(action, Trade):
            if not action.accepted:
                return _evolve(state, stage=REFUSED)
            return self._exchange(state, action)
        if isinstance(action, EndPlay):  # after a trade
            return self._end_turn(state, spare=bool(state.players[state.turn].hand))
        if isinstance(action, PlaceShape):  # the commonest first: a dispatch table per call
            return self._do_place(state, action)  # cost more than these tests
        if isinstance(action, Draw):
            return self._do_draw(state, action)
        if isinstance(action, Discard):
            return self._do_discard(state, action)
        if isinstance(action, Switch):
            return self._do_switch(state, action)
        return self._do_pick_up(state, action)

    def _do_draw(self, state: GeoShapesState, action: Draw) -> GeoShapesState:
        """The card goes face up and the player takes its piece (from the supply: after a
        reshuffle the piece may be in play, and then the card gives nothing)."""
        seat, hand = state.turn, state.players[state.turn].hand
        gained = (action.shape,) if _in_supply(state, action.shape) else ()
        drawn = _evolve(
            state,
            players=self._with_hand(state, seat, hand + gained),
            cards_up=state.cards_up + (action.shape,),
            stage=PLAY,
            deck=None if state.deck is None else state.deck[1:],
        )
        if drawn.deck_left == 0 and drawn.empty_deck == RESHUFFLE:
            return self._reshuffle(drawn)
        return drawn

    @staticmethod
    def _reshuffle(state: GeoShapesState) -> GeoShapesState:
        """The last card is drawn: the card DISCARDS become a new deck, in the next dealt order
        (simulations; the dealt orders are used in turn) or an unknown one (a table), and the
        SHAPE DISCARDS go back to the supply, so that the cards have pieces to give."""
        orders = state.reshuffled
        deck = orders[state.reshuffles % len(orders)] if orders else None
        return _evolve(
            state,
            cards_up=(),
            deck=deck,
            stacks=((),) * len(state.board.quadrants),
            reshuffles=state.reshuffles + 1,
        )

    def _do_pick_up(self, state: GeoShapesState, action: PickUp) -> GeoShapesState:
        quads = state.players[action.seat].quadrants
        taken = tuple(s for q in quads for s in self._stack(state, q))
        stacks = tuple(
            () if q in quads else stack for q, stack in zip(state.board.quadrants, state.stacks)
        )
        hand = state.players[state.turn].hand
        return _evolve(
            state,
            players=self._with_hand(state, state.turn, hand + taken),
            stacks=stacks,
            stage=PLAY,
        )

    def _do_place(self, state: GeoShapesState, action: PlaceShape) -> GeoShapesState:
        board, placed = state.board, list(state.placed)
        index = board.where(action.on)
        placed[index] += (action.shape,)
        played = state.played_on
        if not board.places[index].is_circle and action.on not in played:
            played += (action.on,)
        hand = _without(state.players[state.turn].hand, [action.shape])
        return _evolve(
            state,
            players=self._with_hand(state, state.turn, hand),
            placed=tuple(placed),
            played_on=played,
            placements=state.placements + 1,
        )

    def _do_switch(self, state: GeoShapesState, action: Switch) -> GeoShapesState:
        board, placed = state.board, list(state.placed)
        quadrant = board.places[board.where(action.figure)].quadrant
        back: tuple[str, ...] = ()
        for index in board.parts[quadrant][1]:
            back += placed[index]
            placed[index] = ()
        hand = state.players[state.turn].hand + back
        return _evolve(
            state, players=self._with_hand(state, state.turn, hand), placed=tuple(placed)
        )

    def _do_discard(self, state: GeoShapesState, action: Discard) -> GeoShapesState:
        seat, board = state.turn, state.board
        players, placed = state.players, state.placed
        if action.source is None:
            players = self._with_hand(state, seat, _without(players[seat].hand, [action.shape]))
        else:
            index = board.where(action.source)
            rest = list(placed)
            rest[index] = _without(rest[index], [action.shape])
            placed = tuple(rest)
        target = board.quadrant_at[action.to or players[seat].quadrants[0]]
        stacks = list(state.stacks)
        stacks[target] += (action.shape,)
        after = _evolve(state, players=players, placed=placed, stacks=tuple(stacks))
        return self._end_turn(after, spare=action.source is None)

    def _exchange(self, state: GeoShapesState, action: Trade) -> GeoShapesState:
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
        return _evolve(state, players=tuple(players), placed=tuple(placed), stage=TRADED)

    def _end_turn(self, state: GeoShapesState, spare: bool) -> GeoShapesState:
        """The play is over: the win is checked, then the turn passes to the left."""
        if spare and self._complete(state, state.turn):
            return _evolve(state, winner=state.turn, stage=ACT, played_on=(), placements=0)
        following = (state.turn + 1) % len(state.players)
        # empty_deck=end: the deck is out, the round is finished up to the dealer, then the
        # game ends (with a reshuffle the deck is never empty between turns).
        return _evolve(
            state,
            turn=following,
            stage=ACT,
            played_on=(),
            placements=0,
            deck_out=state.deck_left == 0 and following == 0,
        )

    @staticmethod
    def _complete(state: GeoShapesState, seat: int) -> bool:
        """One figure and the circle of every own quadrant complete."""
        board, placed = state.board, state.placed
        places = board.places
        for quadrant in state.players[seat].quadrants:
            circle, figures = board.parts[quadrant]
            if len(placed[circle]) != places[circle].size:
                return False
            if not any(len(placed[f]) == places[f].size for f in figures):
                return False
        return True

    # ---- what may be played -----------------------------------------------------------------

    def legal_moves(self, state: GeoShapesState) -> list[Move]:
        """Every draw, pick-up, placement, switch and discard the rules allow now. Trades are
        offered as one-for-one swaps of different shapes between hands, accepted or refused:
        the full range (1-3 for 1-3, hand or board) runs to hundreds of thousands and is
        accepted by `apply` all the same. Built kind by kind from what the position allows:
        draws, pick-ups and trades; or placements, switches, the end of the play and discards."""
        if state.over:
            return []
        return [move for kind in self._legal_kinds(state).values() for move in kind()]

    def random_move(self, state: GeoShapesState, rng: random.Random) -> Move:
        """A random legal move, its kind chosen first: trades far outnumber draws, and a player
        trading at random would never run the deck down to the end of the game. Only the chosen
        kind's moves are listed (the draws of `rng` are those of a choice over `legal_moves`);
        the trades not even that: `rng.choice` reads their count and the one drawn."""
        kind = rng.choice(self._kind_names(state))
        if kind == "trade":
            return rng.choice(_OneForOne(state))
        makers: dict[str, Callable[[GeoShapesState], list[Move]]] = {
            "draw": self._legal_draws,
            "pick up": self._legal_pick_ups,
            "place": self._legal_places,
            "switch": self._legal_switches,
            "discard": self._discards,
        }
        # A choice of one still draws from `rng`, as the plain choice did.
        return rng.choice(makers[kind](state) if kind in makers else [{"end_play": True}])

    def _kind_names(self, state: GeoShapesState) -> list[str]:
        """`sorted(self._legal_kinds(state))`, each kind found to exist without a maker or a
        list (the names are appended in sorted order)."""
        if state.stage in (ACT, REFUSED):
            names = ["draw"] if self._legal_draws(state) else []
            if any(_has_stack(state, seat) for seat in range(len(state.players))):
                names.append("pick up")
            if state.stage == ACT and self._can_trade(state):
                names.append("trade")
            return names
        can_place = self._can_place(state)
        names = []
        if state.stage == TRADED:
            names.append("end play")
        elif state.placing_optional or state.placements or not can_place:
            names.append("discard" if self._can_discard(state) else "end play")
        if can_place:
            names.append("place")
        if self._can_switch(state):
            names.append("switch")
        return names

    def _legal_kinds(self, state: GeoShapesState) -> dict[str, Callable[[], list[Move]]]:
        """The kinds of move legal now, each with the maker of its legal moves, in the order of
        `legal_moves`. A kind is listed only when it has a legal move."""
        kinds: dict[str, Callable[[], list[Move]]] = {}

        def offer(kind: str, moves: list[Move]) -> None:
            if moves:
                kinds[kind] = lambda: moves

        if state.stage in (ACT, REFUSED):
            offer("draw", self._legal_draws(state))
            offer("pick up", self._legal_pick_ups(state))
            if state.stage == ACT and self._can_trade(state):
                kinds["trade"] = lambda: self._one_for_one_trades(state)
            return kinds
        # Here each kind is only found to exist: its moves are listed when it is chosen.
        can_place = self._can_place(state)
        if can_place:
            kinds["place"] = lambda: self._legal_places(state)
        if self._can_switch(state):
            kinds["switch"] = lambda: self._legal_switches(state)
        if state.stage == TRADED:
            offer("end play", [{"end_play": True}])
        elif state.placing_optional or state.placements or not can_place:
            # Placing is compulsory: no discard while a shape could be placed.
            if self._can_discard(state):
                kinds["discard"] = lambda: self._discards(state)
            else:  # nothing in hand or on the board (_end_play_error)
                offer("end play", [{"end_play": True}])
        return kinds

    def _can_place(self, state: GeoShapesState) -> bool:
        """`_legal_places(state)` is not empty (found without listing it)."""
        board, placed, hand = state.board, state.placed, state.players[state.turn].hand
        return bool(hand) and any(
            not board.fitting(index, placed[index]).isdisjoint(hand)
            for index in self._open_indices(state)
        )

    @staticmethod
    def _can_switch(state: GeoShapesState) -> bool:
        """`_legal_switches(state)` is not empty."""
        board, placed = state.board, state.placed
        return any(
            placed[r]
            for index in board.own_indices(state.players[state.turn].quadrants)
            for r in board.rivals[index]
        )

    @staticmethod
    def _can_discard(state: GeoShapesState) -> bool:
        """`_discards(state)` is not empty: a shape in hand, or else one on an own place."""
        player, placed = state.players[state.turn], state.placed
        return bool(player.hand) or any(
            placed[index] for index in state.board.own_indices(player.quadrants)
        )

    @staticmethod
    def _legal_draws(state: GeoShapesState) -> list[Move]:
        if state.deck_left == 0:
            return []
        if state.deck is not None:  # the dealt deck: its next card, if the deck can hold it
            shape = state.deck[0]
            return [{"draw": shape}] if _deck_holds(state, shape) else []
        can = state.deck_can_hold()
        return [{"draw": shape} for shape in sorted(can) if can[shape]]

    def _legal_pick_ups(self, state: GeoShapesState) -> list[Move]:
        return [
            {"pick_up": other} for other in range(len(state.players)) if _has_stack(state, other)
        ]

    @staticmethod
    def _can_trade(state: GeoShapesState) -> bool:
        """A one-for-one swap of different shapes with somebody exists."""
        mine = set(state.players[state.turn].hand)
        return any(
            mine and theirs and (len(mine | theirs) > 1)
            for other, partner in enumerate(state.players)
            if other != state.turn
            for theirs in [set(partner.hand)]
        )

    @staticmethod
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

    @staticmethod
    def _open_indices(state: GeoShapesState) -> list[int]:
        """The indices of the player's places that may take a shape this play (a figure only
        while its quadrant's other figure is empty and was not placed on this play)."""
        board, placed, played = state.board, state.placed, state.played_on
        places, rivals = board.places, board.rivals
        return [
            index
            for index in board.own_indices(state.players[state.turn].quadrants)
            if not any(placed[r] or places[r].name in played for r in rivals[index])
        ]

    def _open_places(self, state: GeoShapesState) -> list[Place]:
        places = state.board.places
        return [places[index] for index in self._open_indices(state)]

    def _legal_places(self, state: GeoShapesState) -> list[Move]:
        board, placed = state.board, state.placed
        open_places = [
            (board.places[i].name, board.fitting(i, placed[i])) for i in self._open_indices(state)
        ]
        return [
            {"place": shape, "on": name}
            for shape in sorted(set(state.players[state.turn].hand))
            for name, fitting in open_places
            if shape in fitting
        ]

    @staticmethod
    def _legal_switches(state: GeoShapesState) -> list[Move]:
        board, placed = state.board, state.placed
        return [
            {"switch": board.places[index].name}
            for index in board.own_indices(state.players[state.turn].quadrants)
            if any(placed[r] for r in board.rivals[index])  # a circle has no rivals
        ]

    @staticmethod
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

    def to_move(self, state: GeoShapesState) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    # ---- scoring ----------------------------------------------------------------------------

    def _hand_value(self, state: GeoShapesState, seat: int) -> int:
        return sum(map(state.board.values.__getitem__, state.players[seat].hand))  # no genexpr

    def score(self, state: GeoShapesState) -> list[dict[str, Any]]:
        """The winner: 25 plus the hand's value; everyone else: minus the hand's value. While
        the game runs (or when the deck ran out) nobody has won, so every hand is a penalty."""
        result = []
        for seat, player in enumerate(state.players):
            value = self._hand_value(state, seat)
            won = state.winner == seat
            bonus, hand = (WIN_BONUS, value) if won else (0, -value)
            result.append(
                seat_score(
                    bonus + hand,
                    {"win": bonus, "hand": hand},
                    quadrants=list(player.quadrants),
                    hand=list(player.hand),
                    complete=self._complete(state, seat),
                    shapes_needed=self._shapes_needed(state, seat),
                )
            )
        return result

    def outcome(self, state: GeoShapesState) -> Outcome | None:
        if not state.over:
            return None
        totals = [entry["total"] for entry in self.score(state)]
        ranking = tuple(
            tuple(seat for seat, t in enumerate(totals) if t == total)
            for total in sorted(set(totals), reverse=True)
        )
        winners = () if state.winner is None else (state.winner,)
        reason = DECK_OUT if state.winner is None else WON.format(state.winner)
        return Outcome(winners, ranking, reason)

    @staticmethod
    def _result(state: GeoShapesState, seats: Sequence[str] = ()) -> str:
        """Why the game ended, in words a person reads: the winner's name where known."""
        if state.winner is None:
            return DECK_OUT
        who = seats[state.winner] if seats else _seat(state, state.winner)
        return f"{who} completed a figure and the circle with a shape to spare"

    def named_reason(self, reason: str, seats: Sequence[str]) -> str:
        won = WON_STORED.match(reason)
        if won is None or not int(won[1]) < len(seats):
            return reason
        return f"{seats[int(won[1])]} {won[2]}"

    def _shapes_needed(self, state: GeoShapesState, seat: int) -> int:
        """Slots still empty on the closest figure plus circle of each own quadrant, counting
        twice those no shape in hand can fill (what a player counts to see how close they are).
        Each quadrant's count is kept per board, by what its places hold and the hand: the
        greedy bot asks it of many positions that differ elsewhere (`Board.need_memo`)."""
        board, placed, hand = state.board, state.placed, state.players[seat].hand
        memo = board.need_memo
        total = 0
        for quadrant in state.players[seat].quadrants:
            circle, figures = board.parts[quadrant]
            key = (circle, hand, placed[circle], *(placed[f] for f in figures))
            cost = memo.get(key)
            if cost is None:
                cost = self._quadrant_needs(board, hand, placed, circle, figures)
                if len(memo) >= GAP_MEMO:
                    memo.clear()
                memo[key] = cost
            total += cost
        return total

    @staticmethod
    def _quadrant_needs(
        board: Board,
        hand: tuple[str, ...],
        placed: tuple[tuple[str, ...], ...],
        circle: int,
        figures: tuple[int, ...],
    ) -> int:
        """The count of one quadrant: its closest figure plus the circle."""
        wilds = hand.count(board.wild)
        costs = []
        for figure in figures:
            gaps, counts = board.gap_count(figure, placed[figure], placed[circle])
            uncovered = sum(max(0, n - hand.count(shape)) for shape, n in counts)
            costs.append(gaps + max(0, uncovered - wilds))
        return min(costs)

    def evaluate(self, state: GeoShapesState, seat: int) -> float:
        if state.winner is not None:
            return 1000.0 if state.winner == seat else -1000.0
        return -self._shapes_needed(state, seat) - self._hand_value(state, seat) / 100

    # ---- describing -------------------------------------------------------------------------

    def move_kind(self, move: Mapping[str, Any]) -> str:
        for key, kind in (
            ("draw", "draw"),
            ("pick_up", "pick up"),
            ("trade", "trade"),
            ("place", "place"),
            ("switch", "switch"),
            ("discard", "discard"),
            ("end_play", "end play"),
        ):
            if key in move:
                return kind
        return "move"

    def describe(self, move: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
        def who(seat: Any) -> str:  # a stored seat (counted from 0), as a person reads it
            if isinstance(seat, int) and 0 <= seat < len(seats):
                return seats[seat]
            return f"seat {seat + 1}" if isinstance(seat, int) else str(seat)

        if "draw" in move:
            return f"draws {_a(move['draw'])} card and takes the shape"
        if "pick_up" in move:
            return f"picks up {who(move['pick_up'])}'s shape discards"
        if "trade" in move:
            trade = move["trade"]

            def items(side: list) -> str:
                return ", ".join(
                    i if isinstance(i, str) else f"{i['shape']} off the {i['from']}" for i in side
                )

            answer = "accepted" if trade["accepted"] else "refused"
            return (
                f"offers {who(trade['with'])} {items(trade['give'])} for "
                f"{items(trade['get'])}: {answer}"
            )
        if "place" in move:
            return f"places {_a(move['place'])} on the {move['on']}"
        if "switch" in move:
            return f"switches figures to the {move['switch']} (shapes return to the hand)"
        if "discard" in move:
            source = f" off the {move['from']}" if move.get("from") else ""
            target = f" to the {move['to']} discards" if move.get("to") else ""
            return f"discards {_a(move['discard'])}{source}{target}"
        return "ends the play (no discard after a trade)"

    def typed_move(self, state: GeoShapesState, move: Any, seats: Sequence[str]) -> Any:
        """Seats named by player or counted from 1, and names in any case, as stored."""
        stored = from_table(move, seats)
        try:
            return as_json(self._parse(state, stored))
        except IllegalMove:
            return stored  # apply refuses it, in its own words

    def shown_move(self, move: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
        return to_table(move, seats)

    def render(self, state: GeoShapesState, seats: Sequence[str]) -> str:
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
                lines.append(
                    f"  {label:<15}" + self._draw_place(board, place, state.on(place.name))
                )
            if stack:
                lines.append(f"  shape discards: {_names(stack)} (top last)")
        lines.append("")
        for seat, player in enumerate(state.players):
            lines.append(
                f"{seats[seat]}'s hand: {_names(player.hand)} "
                f"({self._hand_value(state, seat)} points)"
            )
        lines.append("[x] in place  [W] the Wild standing in  [ ] still needed")
        if state.over:
            lines.append(f"game over: {self._result(state, seats)}")
        else:
            lines.append(f"to move: {seats[state.turn]}: {STAGE_HINT[state.stage]}")
        return "\n".join(lines)

    @staticmethod
    def _draw_place(board: Board, place: Place, placed: tuple[str, ...]) -> str:
        """Each slot of the completed place: filled by its shape, by a Wild, or still open."""
        gaps = missing(place, placed, board.wild)
        wilds = placed.count(board.wild)
        real = Counter(place.slots()) - Counter(gaps)
        marks = [f"[x] {shape}" for shape, count in real.items() for _ in range(count)]
        marks += [f"[W] {shape}" for shape in gaps[:wilds]]
        marks += [f"[ ] {shape}" for shape in gaps[wilds:]]
        return "  ".join(marks)

    def components(
        self, state: GeoShapesState, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        return component_rows(state, scores, moves)


RULES = GeoShapes()
