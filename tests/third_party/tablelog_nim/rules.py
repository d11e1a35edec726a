"""Nim: heaps of stones; a player takes any number from one heap; who takes the last stone wins
(in the misère game, loses)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tablelog.domain.games.base import (
    GameRules,
    IllegalMove,
    InvalidSetup,
    Move,
    Moves,
    Outcome,
    seat_score,
)
from tablelog.domain.games.declaring import unstructure
from tablelog.domain.quoting import quoted

from .declaration import GAME_INFO


@dataclasses.dataclass(frozen=True)
class NimState:
    heaps: tuple[int, ...]
    misere: bool
    turn: int = 0  # the seat to move
    taken: tuple[int, int] = (0, 0)  # stones each seat took


class Nim(GameRules[NimState]):
    id, name = GAME_INFO.id, GAME_INFO.name
    version = "1"
    min_players, max_players = GAME_INFO.min_players, GAME_INFO.max_players
    state_type = NimState
    move_cap = 60  # 16 stones, 52 with 9 added to each heap: one a move at most

    def options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        declared = GAME_INFO.structure_options(options)
        if not 0 <= declared.stones <= 9:
            raise InvalidSetup(f"option stones must be between 0 and 9, got {declared.stones}")
        return unstructure(declared)

    def start(self, seats: int, options: Mapping[str, Any], setup: Mapping[str, Any]) -> NimState:
        if seats != 2:
            raise InvalidSetup("Nim is played by 2 players")
        if setup:
            raise InvalidSetup("Nim has no setup: the heaps are its options")
        chosen = self.options(options)
        heaps = tuple(stones + chosen["stones"] for stones in (1, 3, 5, 7))
        return NimState(heaps, chosen["misere"])

    def apply(self, state: NimState, move: Mapping[str, Any]) -> NimState:
        if self.outcome(state) is not None:
            raise IllegalMove("the game is over")
        if GAME_INFO.move_shape(move) is None:
            raise IllegalMove(f'a Nim move is {{"take": n, "from": heap}}, got {quoted(move)}')
        take, heap = move["take"], move["from"]
        if type(heap) is not int or not 1 <= heap <= len(state.heaps):
            raise IllegalMove(f"there is no heap {heap!r}: heaps are 1 to {len(state.heaps)}")
        if type(take) is not int or not 1 <= take <= state.heaps[heap - 1]:
            raise IllegalMove(f"heap {heap} holds {state.heaps[heap - 1]}: take 1 to that")
        heaps = list(state.heaps)
        heaps[heap - 1] -= take
        taken = list(state.taken)
        taken[state.turn] += take
        return NimState(tuple(heaps), state.misere, 1 - state.turn, (taken[0], taken[1]))

    def legal_moves(self, state: NimState) -> list[Move]:
        if self.outcome(state) is not None:
            return []
        return [
            {"take": take, "from": heap + 1}
            for heap, stones in enumerate(state.heaps)
            for take in range(1, stones + 1)
        ]

    def to_move(self, state: NimState) -> tuple[int, ...]:
        return () if self.outcome(state) is not None else (state.turn,)

    def score(self, state: NimState) -> list[dict[str, Any]]:
        return [seat_score(t, {"stones taken": t}) for t in state.taken]

    def outcome(self, state: NimState) -> Outcome | None:
        if any(state.heaps):
            return None
        last = 1 - state.turn  # took the last stone
        winner = state.turn if state.misere else last
        reason = "took the last stone" + (" and loses (misère)" if state.misere else "")
        return Outcome((winner,), ((winner,), (1 - winner,)), f"seat {last + 1} {reason}")

    def describe(self, move: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
        return f"takes {move['take']} from heap {move['from']}"

    def render(self, state: NimState, seats: Sequence[str]) -> str:
        return "\n".join(f"heap {n + 1}: {'o' * s}" for n, s in enumerate(state.heaps))

    def components(self, state: NimState, scores: list[dict[str, Any]], moves: Moves) -> list:
        return [[] for _ in state.taken]


RULES = Nim()
