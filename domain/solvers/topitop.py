"""The Topitop solver: every position's value (win, lose, draw) and remoteness for the player to
move, the solved table stored compactly, and the analysis of a recorded match.

    table = solve(small=4, large=4, progress=callback)   # minutes for the standard game
    table.save(path); table = load(path)                 # a few MB, loads in well under a second
    table.lookup(state) -> ("win", 31)                   # any TopitopState of that game
    analyse(states, moves, table)                        # per move: values before/after, blunders

How: `topitop_positions` numbers the positions (boards up to the 8 symmetries of the square, seen
by the player to move, with the no-reversal restriction), `topitop_graph` builds every move in
bulk and runs the retrograde analysis, then a breadth-first search from the empty board marks the
positions a game can reach, with whose turn it is (Blue moves first, so reachability is not
colour-blind), for the counts. Remoteness counts moves (passes included) to the end under best
play; a win always has odd remoteness and a loss an even one, which lets the stored table keep
both in one small number per position.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from tablelog.domain.games.topitop.rules import TopitopState
from tablelog.domain.plain import PlainMapping

from .topitop_graph import Progress, TopitopGraph
from .topitop_positions import Layout, Numbering, digits_state, fits, state_digits

__all__ = [
    "DRAW",
    "LOSE",
    "WIN",
    "Progress",
    "SolvedTopitop",
    "TopitopGraph",
    "analyse",
    "load",
    "save",
    "solve",
]

WIN, LOSE, DRAW = "win", "lose", "draw"
FOR_THE_OTHER = {WIN: LOSE, LOSE: WIN, DRAW: DRAW}
FORMAT = "tablelog-topitop-solve/1"
VALUES = ((WIN, 1), (LOSE, -1), (DRAW, 0))


def solve(small: int = 4, large: int = 4, progress: Progress | None = None) -> SolvedTopitop:
    """Solve Topitop with `small` and `large` sand piles (2 buckets a player)."""
    began = time.perf_counter()
    table = SolvedTopitop.from_graph(TopitopGraph(small, large, progress))
    return dataclasses.replace(table, seconds=round(time.perf_counter() - began, 2))


# ---- the solved table ---------------------------------------------------------------------------


def _encode(value: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
    """One number per position: 0 a draw, else remoteness + 1 (odd remoteness: a win)."""
    if np.any(remoteness[value == 1] % 2 != 1) or np.any(remoteness[value == -1] % 2 != 0):
        raise AssertionError("a win must take an odd number of moves, a loss an even one")
    code = np.where(value != 0, remoteness + 1, 0)
    return code.astype(np.uint8 if code.max() < 256 else np.uint16)


def _decode(code: int) -> tuple[str, int | None]:
    if code == 0:
        return DRAW, None
    remoteness = int(code) - 1
    return (WIN if remoteness % 2 else LOSE), remoteness


class SolveDetails(TypedDict):
    """What a solve counted, beyond the values (`SolvedTopitop.details`, saved with the table)."""

    boards: int
    representative_boards: int
    table_positions: int
    reachable_table_positions: int
    table_counts: dict[str, int]
    moves: int
    passing_positions: int
    longest_remoteness: int


@dataclasses.dataclass(frozen=True)
class SolvedTopitop:
    """Every Topitop position's value and remoteness for the player to move."""

    small: int
    large: int
    numbering: Numbering
    code: np.ndarray  # per position: 0 a draw, else remoteness + 1
    counts: dict[str, int]  # positions a game can reach (cells, seat to move, no_return), by
    # value for the player to move, symmetric copies counted
    start_value: str
    start_remoteness: int | None
    seconds: float  # how long the solve took
    details: SolveDetails

    @classmethod
    def from_graph(cls, graph: TopitopGraph) -> SolvedTopitop:
        """Solve a built game graph (retrograde analysis, then the reachable positions)."""
        began = time.perf_counter()
        value, remoteness = graph.retrograde()
        reach = graph.reachable()
        seats = (reach & 1).astype(np.int64) + (reach >> 1 & 1)  # reached with Blue, Red to move
        played = graph.copies() * seats
        counts = {name: int(played[value == v].sum()) for name, v in VALUES}
        code = _encode(value, remoteness)
        start_value, start_remoteness = _decode(code[graph.start()])
        details: SolveDetails = {
            "boards": graph.numbering.layout.boards,
            "representative_boards": len(graph.numbering.rank),
            "table_positions": graph.size,
            "reachable_table_positions": int((reach > 0).sum()),
            "table_counts": {name: int((value == v).sum()) for name, v in VALUES},
            "moves": len(graph.move_board),
            "passing_positions": len(graph.passes),
            "longest_remoteness": int(remoteness.max()),
        }
        return cls(
            graph.small,
            graph.large,
            graph.numbering,
            code,
            counts,
            start_value,
            start_remoteness,
            time.perf_counter() - began,
            details,
        )

    def lookup(self, state: TopitopState) -> tuple[str, int | None]:
        """(value, remoteness) for the player to move in `state`; remoteness None for a draw."""
        self._check_game(state)
        if state.winner is not None:
            return LOSE, 0  # the previous mover has just won
        return _decode(self.code[self.position(state)])

    def position(self, state: TopitopState) -> int:
        """The index of `state` in the table (symmetric states share one)."""
        self._check_game(state)
        digits, pair = state_digits(state)
        if not fits(digits, self.small, self.large):
            raise ValueError(f"more pieces on the board than the game has: {state.cells}")
        return self.numbering.position(digits, pair)

    def _check_game(self, state: TopitopState) -> None:
        if (state.small, state.large) != (self.small, self.large):
            raise ValueError(
                f"this table solves Topitop with {self.small} small and "
                f"{self.large} large sand piles, not {state.small} and {state.large}"
            )

    def state(self, position: int, turn: int = 0) -> TopitopState:
        """A state of the table's `position`, with seat `turn` to move."""
        digits, pair = self.numbering.unnumber(position)
        return digits_state(digits, pair, turn, self.small, self.large)

    def save(self, path: str | Path) -> None:
        """A compressed .npz file: representative ranks as steps, positions per board, codes."""
        meta = {
            "format": FORMAT,
            "small": self.small,
            "large": self.large,
            "counts": self.counts,
            "start_value": self.start_value,
            "start_remoteness": self.start_remoteness,
            "seconds": self.seconds,
            "details": self.details,
        }
        with open(path, "wb") as file:
            np.savez_compressed(
                file,
                meta=np.array(json.dumps(meta)),
                rank_steps=np.diff(self.numbering.rank, prepend=0).astype(np.uint32),
                positions=np.diff(self.numbering.base).astype(np.uint8),
                code=self.code,
            )

    @classmethod
    def load(cls, path: str | Path) -> SolvedTopitop:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path} is not a Topitop solve ({FORMAT})")
            rank = np.cumsum(data["rank_steps"], dtype=np.int64)
            base = np.concatenate([[0], np.cumsum(data["positions"], dtype=np.int64)])
            code = data["code"]
        numbering = Numbering(Layout.build(meta["small"], meta["large"]), rank, base)
        return cls(
            meta["small"],
            meta["large"],
            numbering,
            code,
            meta["counts"],
            meta["start_value"],
            meta["start_remoteness"],
            meta["seconds"],
            meta["details"],
        )


def save(table: SolvedTopitop, path: str | Path) -> None:
    table.save(path)


def load(path: str | Path) -> SolvedTopitop:
    return SolvedTopitop.load(path)


# ---- analysing a match --------------------------------------------------------------------------


def analyse(
    states: Sequence[TopitopState], moves: Sequence[PlainMapping], table: SolvedTopitop
) -> list[dict[str, Any]]:
    """Per move of a match (states[i] before moves[i], states[i + 1] after it): the mover's value
    and remoteness before and after it, and whether it was a blunder: a won game turned into a
    draw or a loss, or a drawn one into a loss."""
    if len(states) != len(moves) + 1:
        raise ValueError(f"{len(moves)} moves need {len(moves) + 1} states, got {len(states)}")
    report = []
    for index, move in enumerate(moves):
        before, remoteness_before = table.lookup(states[index])
        reply, remoteness_after = table.lookup(states[index + 1])
        after = FOR_THE_OTHER[reply]  # the position after the move is valued for the opponent
        report.append(
            {
                "index": index,
                "seat": states[index].turn,
                "move": dict(move),
                "value_before": before,
                "remoteness_before": remoteness_before,
                "value_after": after,
                "remoteness_after": remoteness_after,
                "blunder": (before == WIN and after != WIN) or (before == DRAW and after == LOSE),
            }
        )
    return report
