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

The engine is composed of the package's parts, one each: `state.py` (the position), `setup.py`
(options, deal and start), `legality.py` (whether a move may be made, and why not),
`playing.py` (the position after a move), `choices.py` (the legal moves, and a random one),
`scoring.py` (scores, the winner, the bots' evaluation) and `describing.py` (in words).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...plain import PlainMapping
from ..base import Component, GameRules, IllegalMove, Move, Moves, Outcome
from . import choices, describing, scoring, setup
from .components import components as component_rows
from .declaration import DEFAULT_MANIFEST, GAME_INFO
from .legality import error
from .moves import Action, as_json, from_table, parse, quick_parse, to_table
from .playing import play
from .setup import start as first_position
from .state import ACT, PLAY, REFUSED, TRADED, GeoShapesState, Player

# What other modules read here (the names rules.py has always offered).
__all__ = ["ACT", "DEFAULT_MANIFEST", "PLAY", "REFUSED", "RULES", "TRADED", "GeoShapes"]
__all__ += ["GeoShapesState", "Player"]


class GeoShapes(GameRules[GeoShapesState], declared=GAME_INFO):
    # What the game is (id, name, players) comes from its declaration (declaration.py).
    version = "2"
    components_read_moves = True  # what was drawn or played is gone from the end position
    default_manifest = DEFAULT_MANIFEST
    move_cap = 2000  # random bots take 100-535 moves; people far fewer (docs/games)
    state_type = GeoShapesState
    scores_as_it_goes = False  # hands are settled only when somebody wins

    # ---- setting up (setup.py) --------------------------------------------------------------

    def options(self, options: PlainMapping) -> dict[str, Any]:
        return setup.options_and_board(options)[0]

    def replay_options(self, rules_version: str, options: PlainMapping) -> dict[str, object]:
        if rules_version == "1":
            return setup.replay_options_v1(options)
        return super().replay_options(rules_version, options)

    def deal(self, seats: int, options: PlainMapping, rng: random.Random) -> dict[str, Any]:
        return setup.deal(seats, options, rng)

    def start(self, seats: int, options: PlainMapping, setup: PlainMapping) -> GeoShapesState:
        return first_position(seats, options, setup)

    def words(self, state: GeoShapesState) -> Mapping[str, Sequence[str]]:
        """The board's shapes, its places (figures and circles), figures and quadrants."""
        board = state.board
        return {
            "shape": tuple(board.values),
            "place": tuple(place.name for place in board.places),
            "figure": tuple(place.name for place in board.places if not place.is_circle),
            "quadrant": board.quadrants,
        }

    # ---- playing: legality.py says whether, playing.py what follows -------------------------

    def apply(self, state: GeoShapesState, move: PlainMapping) -> GeoShapesState:
        if not state.over:
            # The fast path: a move in the stored form, read without the full parser, that the
            # rules find legal. Any other move (malformed, unusual or refused) takes the full
            # parser below, which words every refusal.
            action = quick_parse(move, state.board, len(state.players))
            if action is not None and error(state, action) is None:
                return play(state, action)
        return self._parsed_apply(state, move)

    def _parsed_apply(self, state: GeoShapesState, move: PlainMapping) -> GeoShapesState:
        """`apply` of any other move: the full parser, then the same rules (what both paths
        answer is golden data: tests/games/test_golden.py)."""
        if state.over:
            raise IllegalMove(f"the game is over: {describing.result(state)}")
        action = self._parse(state, move)
        refusal = error(state, action)
        if refusal:
            raise IllegalMove(refusal)
        return play(state, action)

    @staticmethod
    def _parse(state: GeoShapesState, move: object) -> Action:
        return parse(move, state.board, len(state.players))

    def legal_moves(self, state: GeoShapesState) -> list[Move]:
        return choices.legal_moves(state)

    def random_move(self, state: GeoShapesState, rng: random.Random) -> Move:
        return choices.random_move(state, rng)

    def to_move(self, state: GeoShapesState) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    # ---- scoring (scoring.py) ---------------------------------------------------------------

    def score(self, state: GeoShapesState) -> list[dict[str, Any]]:
        return scoring.score(state)

    def outcome(self, state: GeoShapesState) -> Outcome | None:
        return scoring.outcome(state)

    def named_reason(self, reason: str, seats: Sequence[str]) -> str:
        return scoring.named_reason(reason, seats)

    def evaluate(self, state: GeoShapesState, seat: int) -> float:
        return scoring.evaluate(state, seat)

    def components(
        self, state: GeoShapesState, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        return component_rows(state, scores, moves)

    # ---- describing (describing.py; the table's forms of a move: moves.py) -------------------

    def move_kind(self, move: PlainMapping) -> str:
        return describing.move_kind(move)

    def describe(self, move: PlainMapping, seats: Sequence[str] = ()) -> str:
        return describing.describe(move, seats)

    def render(self, state: GeoShapesState, seats: Sequence[str]) -> str:
        return describing.render(state, seats)

    def typed_move(self, state: GeoShapesState, move: object, seats: Sequence[str]) -> Any:
        """Seats named by player or counted from 1, and names in any case, as stored."""
        stored = from_table(move, seats)
        try:
            return as_json(self._parse(state, stored))
        except IllegalMove:
            return stored  # apply refuses it, in its own words

    def shown_move(self, move: PlainMapping, seats: Sequence[str]) -> dict[str, object]:
        return to_table(move, seats)


RULES = GeoShapes()
