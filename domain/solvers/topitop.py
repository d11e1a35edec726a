"""The Topitop solver: every position's value (win, lose, draw) and remoteness, by retrograde
analysis over the whole game graph, vectorised with numpy.

How it goes (positions and moves are numbered in `topitop_positions`):
1. every board the piece counts allow is ranked and mapped to its representative under the 8
   symmetries of the square; a position is a representative board plus its no-reversal
   restriction, seen from the player to move (so Blue and Red to move share one entry);
2. the moves of every representative board are generated in bulk once, each leading to a
   position. A restriction forbids exactly one of its board's moves, so the positions of one board
   share its move list and the graph is stored per board, not per position;
3. retrograde analysis from the finished positions (the previous mover has both buckets on sand
   castles: lost for the player to move, remoteness 0), one remoteness level at a time: a position
   with a move to a lost one is won (the winner hurries: the first level found is the smallest),
   a position whose every move leads to a won one is lost (the loser delays: its last child found
   is the furthest). What is never decided is a draw: best play loops;
4. a breadth-first pass from the empty board marks the positions a game can reach, with whose turn
   it is (Blue moves first, so reachability is not colour-blind), for the counts.

A player with no legal action passes, and the pass is a move like any other. Remoteness counts
moves (passes included) to the end under best play; a win always has odd remoteness and a loss an
even one, which the stored table uses to keep both in a single number per position.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from domain.games.topitop import BUCKET, TopitopState

from .topitop_positions import (PAIR_INDEX, PAIRS, STACKS, SWAP_COLOURS, SYM_FROM, SYM_PAIR, Layout,
                                board_moves, is_over, restriction_mask, restriction_slot)

Progress = Callable[[str, int, int], None]
"""progress(phase, done, total): phases are "boards", "moves", "retrograde", "reachable"."""

WIN, LOSE, DRAW = "win", "lose", "draw"
FOR_THE_OTHER = {WIN: LOSE, LOSE: WIN, DRAW: DRAW}
FORMAT = "tablelog-topitop-solve/1"
CHUNK = 1 << 17  # boards per batch of move generation: a few hundred MB at most


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """concatenate(arange(s, s + n) for s, n in zip(starts, lengths)), vectorised."""
    lengths = lengths.astype(np.int64)
    ends = np.cumsum(lengths)
    return np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - lengths - starts, lengths)


@dataclasses.dataclass(frozen=True)
class _Boards:
    """The representative boards and where their positions sit in the table."""

    layout: Layout
    rank: np.ndarray       # the representatives' ranks, ascending (K,)
    digits: np.ndarray     # their digits, cell-major (9, K)
    stabiliser: np.ndarray  # how many of the 8 symmetries leave each unchanged
    mask: np.ndarray       # the restrictions each allows (bit per PAIRS index)
    base: np.ndarray       # first position of each board; positions base[k] .. base[k+1]-1
    rep_of: np.ndarray     # for every board rank: the index of its representative
    sym_of: np.ndarray     # and the symmetry taking it there

    @classmethod
    def build(cls, small: int, large: int, progress: Progress) -> _Boards:
        layout = Layout.build(small, large)
        every = layout.all_boards()
        best = np.arange(layout.boards, dtype=np.int64)
        sym = np.zeros(layout.boards, np.uint8)
        fixed = np.ones(layout.boards, np.uint8)
        for g in range(1, 8):
            progress("boards", g, 8)
            image = np.concatenate([layout.rank(every[SYM_FROM[g], i:i + (1 << 22)])
                                    for i in range(0, layout.boards, 1 << 22)])
            better = image < best
            best[better] = image[better]
            sym[better] = g
            fixed += image == np.arange(layout.boards)
        progress("boards", 8, 8)
        representative = np.flatnonzero(best == np.arange(layout.boards))
        index = np.cumsum(best == np.arange(layout.boards), dtype=np.int64) - 1
        digits = np.ascontiguousarray(every[:, representative])
        del every
        mask = restriction_mask(digits)
        positions = 1 + np.bitwise_count(mask).astype(np.int64)
        return cls(layout, representative, digits, fixed[representative], mask,
                   np.concatenate([[0], np.cumsum(positions)]), index[best].astype(np.int32), sym)

    def positions_of(self, digits: np.ndarray, pair: np.ndarray) -> np.ndarray:
        """The table position of boards (any, cell-major) with restriction `pair` (-1: none)."""
        rank = self.layout.rank(digits)
        k = self.rep_of[rank]
        pair = np.where(pair >= 0, SYM_PAIR[self.sym_of[rank], pair.clip(0)], -1)
        return self.base[k] + restriction_slot(self.mask[k], pair)


@dataclasses.dataclass(frozen=True)
class _Graph:
    """The moves of every representative board, sorted by board and, separately, by child."""

    board: np.ndarray       # the moving board (ascending)
    pair: np.ndarray        # the slide a restriction may forbid, or -1
    child: np.ndarray       # the position reached
    moves_of: np.ndarray    # first move of each board: board k moves moves_of[k] .. [k+1]-1
    by_child: np.ndarray    # the moves ordered by child
    into: np.ndarray        # first entry of each position in by_child
    pass_from: np.ndarray   # positions with no action at all, whose only move is a pass
    pass_to: np.ndarray     # and the position after it


class _Solver:
    def __init__(self, small: int, large: int, progress: Progress) -> None:
        self.progress = progress
        self.small, self.large = small, large
        self.boards = _Boards.build(small, large, progress)
        b = self.boards
        self.size = int(b.base[-1])
        self.board_of = np.repeat(np.arange(len(b.rank), dtype=np.int32), np.diff(b.base))
        slot = np.arange(self.size) - b.base[self.board_of]
        self.pair_of = np.full(self.size, -1, np.int8)   # the restriction of each position
        for p in range(len(PAIRS)):
            has = np.flatnonzero((b.mask >> np.uint64(p)) & np.uint64(1))
            below = restriction_slot(b.mask[has], np.full(len(has), p))
            self.pair_of[b.base[has] + below] = p
        self.over = is_over(b.digits)[self.board_of]
        self.graph = self._graph(slot)

    def _graph(self, slot: np.ndarray) -> _Graph:
        b = self.boards
        count = len(b.rank)
        boards, pairs, children = [], [], []
        for start in range(0, count, CHUNK):
            self.progress("moves", start, count)
            digits = b.digits[:, start:start + CHUNK]
            moves = board_moves(digits, self.small, self.large)
            live = ~is_over(digits)[moves.board]     # a finished game has no moves
            boards.append((moves.board[live] + start).astype(np.int32))
            pairs.append(moves.pair[live].astype(np.int8))
            children.append(b.positions_of(moves.child[:, live],
                                           moves.child_pair[live]).astype(np.int32))
        self.progress("moves", count, count)
        board, pair, child = (np.concatenate(x) for x in (boards, pairs, children))
        moves_of = np.concatenate([[0], np.cumsum(np.bincount(board, minlength=count))])
        # A position's actions are its board's, less the slide its restriction forbids (always
        # one of them: a neutral piece may slide to an empty neighbour); none at all: it passes.
        actions = np.diff(moves_of)[self.board_of] - (slot > 0)
        stuck = np.flatnonzero((actions == 0) & ~self.over)
        swapped = b.digits[:, self.board_of[stuck]]
        pass_to = b.positions_of(SWAP_COLOURS[swapped], np.full(len(stuck), -1))
        self.moves = actions
        self.moves[stuck] = 1
        self.pass_target = np.full(self.size, -1, np.int64)
        self.pass_target[stuck] = pass_to
        by_child = np.argsort(child, kind="stable").astype(np.int64)
        into = np.concatenate([[0], np.cumsum(np.bincount(child, minlength=self.size))])
        order = np.argsort(pass_to, kind="stable")
        return _Graph(board, pair, child, moves_of, by_child, into, stuck[order],
                      pass_to[order].astype(np.int64))

    # ---- retrograde analysis ----------------------------------------------------------------

    def _parents(self, children: np.ndarray) -> np.ndarray:
        """Every (position, move) leading to one of `children`, as the moving position; a
        position appears once per such move."""
        g, b = self.graph, self.boards
        entries = g.by_child[_ranges(g.into[children], g.into[children + 1] - g.into[children])]
        board, pair = g.board[entries], g.pair[entries]
        first, count = b.base[board], b.base[board + 1] - b.base[board]
        slot = _ranges(np.zeros(len(board), np.int64), count)
        # the position of that board whose restriction forbids this very move is no parent
        forbidden = np.where(pair >= 0, restriction_slot(b.mask[board], pair.astype(np.int64)), -1)
        keep = slot != np.repeat(forbidden, count)
        parents = (np.repeat(first, count) + slot)[keep]
        lo, hi = np.searchsorted(g.pass_to, children), np.searchsorted(g.pass_to, children, "right")
        passing = g.pass_from[_ranges(lo, hi - lo)]
        return np.concatenate([parents, passing])

    def retrograde(self) -> tuple[np.ndarray, np.ndarray]:
        value = np.zeros(self.size, np.int8)            # 1 win, -1 lose, 0 undecided
        remoteness = np.full(self.size, -1, np.int32)
        left = self.moves.astype(np.int32)              # moves not yet known to lead to a win
        frontier = np.flatnonzero(self.over)
        value[frontier], remoteness[frontier] = -1, 0
        level, decided = 0, len(frontier)
        while len(frontier):
            self.progress("retrograde", decided, self.size)
            found = []
            lost = frontier[value[frontier] == -1]
            for i in range(0, len(lost), CHUNK):
                parents = self._parents(lost[i:i + CHUNK])
                new = np.unique(parents[value[parents] == 0])
                value[new], remoteness[new] = 1, level + 1
                found.append(new)
            won = frontier[value[frontier] == 1]
            for i in range(0, len(won), CHUNK):
                parents = self._parents(won[i:i + CHUNK])
                np.subtract.at(left, parents, 1)
                new = np.unique(parents[(left[parents] == 0) & (value[parents] == 0)])
                value[new], remoteness[new] = -1, level + 1
                found.append(new)
            frontier = np.concatenate(found) if found else np.zeros(0, np.int64)
            decided += len(frontier)
            level += 1
        self.progress("retrograde", self.size, self.size)
        return value, remoteness

    # ---- reachability -----------------------------------------------------------------------

    def _children(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The positions after each move of `positions`, with the index of the mover in
        `positions` for each."""
        g = self.graph
        board = self.board_of[positions]
        start, stop = g.moves_of[board], g.moves_of[board + 1]
        entries = _ranges(start, stop - start)
        mover = np.repeat(np.arange(len(positions)), stop - start)
        keep = g.pair[entries] != np.repeat(self.pair_of[positions], stop - start)
        keep |= g.pair[entries] < 0
        passes = np.flatnonzero(self.pass_target[positions] >= 0)
        pass_child = self.pass_target[positions[passes]]
        return (np.concatenate([g.child[entries[keep]].astype(np.int64), pass_child]),
                np.concatenate([mover[keep], passes]))

    def reachable(self, start: int) -> np.ndarray:
        """Bit t of reach[p] is set when a game from the empty board reaches p with seat t to
        move (the table does not know colours: Blue moves first)."""
        reach = np.zeros(self.size, np.uint8)
        reach[start] = 1
        frontier, turn = np.array([start]), np.array([0])
        found = 1
        while len(frontier):
            self.progress("reachable", found, self.size)
            nxt_positions, nxt_turns = [], []
            for i in range(0, len(frontier), CHUNK):
                children, mover = self._children(frontier[i:i + CHUNK])
                bit = (np.uint8(1) << (1 - turn[i:i + CHUNK][mover]).astype(np.uint8))
                new = (reach[children] & bit) == 0
                key = np.unique(children[new] * 2 + (bit[new] >> 1))
                reach[key // 2] |= (np.uint8(1) << (key % 2).astype(np.uint8))
                nxt_positions.append(key // 2)
                nxt_turns.append(key % 2)
            frontier, turn = np.concatenate(nxt_positions), np.concatenate(nxt_turns)
            found += len(frontier)
        return reach


# ---- the solved table ---------------------------------------------------------------------------

def _encode(value: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
    """One number per position: 0 a draw, else remoteness + 1 (odd remoteness: a win)."""
    assert np.all((remoteness[value == 1] % 2 == 1)) and np.all(remoteness[value == -1] % 2 == 0)
    code = np.where(value != 0, remoteness + 1, 0)
    return code.astype(np.uint8 if code.max() < 256 else np.uint16)


def _decode(code: int) -> tuple[str, int | None]:
    if code == 0:
        return DRAW, None
    remoteness = int(code) - 1
    return (WIN if remoteness % 2 else LOSE), remoteness


@dataclasses.dataclass(frozen=True)
class SolvedTopitop:
    """Every Topitop position's value and remoteness for the player to move."""

    small: int
    large: int
    board_rank: np.ndarray   # the representative boards' ranks, ascending
    base: np.ndarray         # where each board's positions start in `code`
    code: np.ndarray         # per position: 0 draw, else remoteness + 1
    counts: dict[str, int]   # reachable positions of each value (TopitopState, symmetric copies
                             # and both colours counted as they occur in play)
    start_value: str
    start_remoteness: int | None
    seconds: float           # the time the solve took
    details: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def layout(self) -> Layout:
        return _layout(self.small, self.large)

    def lookup(self, state: TopitopState) -> tuple[str, int | None]:
        """(value, remoteness) for the player to move in `state`; remoteness None for a draw."""
        if (state.small, state.large) != (self.small, self.large):
            raise ValueError(f"this table solves Topitop with {self.small} small and "
                             f"{self.large} large sand piles, not {state.small} and {state.large}")
        if state.winner is not None:
            return LOSE, 0  # the previous mover has just won
        return _decode(self.code[self.position(state)])

    def position(self, state: TopitopState) -> int:
        """The index of `state` in the table."""
        digits = _digits(state, self.small, self.large)
        images = digits[SYM_FROM].T                      # (9, 8): the board under each symmetry
        ranks = self.layout.rank(images)
        g = int(np.argmin(ranks))                        # the first smallest, as the solver chose
        k = int(np.searchsorted(self.board_rank, ranks[g]))
        pair = -1
        if state.no_return is not None:
            restriction = PAIR_INDEX.get(tuple(state.no_return))
            if restriction is None or not restriction_mask(digits[:, None])[0] >> np.uint64(
                    restriction) & np.uint64(1):
                raise ValueError(f"no_return {state.no_return} is not a slide a neutral piece "
                                 "could just have made on this board")
            pair = int(SYM_PAIR[g, restriction])
        mask = restriction_mask(images[:, g:g + 1])
        return int(self.base[k] + restriction_slot(mask, np.array([pair]))[0])

    def save(self, path: str | Path) -> None:
        meta = {"format": FORMAT, "small": self.small, "large": self.large, "counts": self.counts,
                "start_value": self.start_value, "start_remoteness": self.start_remoteness,
                "seconds": self.seconds, "details": self.details}
        with open(path, "wb") as file:
            np.savez_compressed(file, meta=np.array(json.dumps(meta)),
                                rank_steps=np.diff(self.board_rank, prepend=0).astype(np.uint32),
                                positions=np.diff(self.base).astype(np.uint8), code=self.code)

    @classmethod
    def load(cls, path: str | Path) -> SolvedTopitop:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path} is not a Topitop solve ({FORMAT})")
            rank = np.cumsum(data["rank_steps"], dtype=np.int64)
            base = np.concatenate([[0], np.cumsum(data["positions"], dtype=np.int64)])
            code = data["code"]
        return cls(meta["small"], meta["large"], rank, base, code, meta["counts"],
                   meta["start_value"], meta["start_remoteness"], meta["seconds"],
                   meta["details"])


def save(table: SolvedTopitop, path: str | Path) -> None:
    table.save(path)


def load(path: str | Path) -> SolvedTopitop:
    return SolvedTopitop.load(path)


_LAYOUTS: dict[tuple[int, int], Layout] = {}


def _layout(small: int, large: int) -> Layout:
    if (small, large) not in _LAYOUTS:
        _LAYOUTS[small, large] = Layout.build(small, large)
    return _LAYOUTS[small, large]


def _digits(state: TopitopState, small: int, large: int) -> np.ndarray:
    """The board of `state` as digits (9,), seen by the player to move."""
    own, opp = BUCKET[state.turn], BUCKET[1 - state.turn]
    swap = str.maketrans({own: "B", opp: "R"})
    try:
        digits = np.array([STACKS.index(stack.translate(swap)) for stack in state.cells], np.uint8)
    except ValueError:
        raise ValueError(f"not a Topitop board: {state.cells}") from None
    return digits


def solve(small: int = 4, large: int = 4, progress: Progress | None = None) -> SolvedTopitop:
    """Solve Topitop with `small` and `large` sand piles (2 buckets a player)."""
    began = time.perf_counter()
    solver = _Solver(small, large, progress or (lambda phase, done, total: None))
    value, remoteness = solver.retrograde()
    b = solver.boards
    empty = np.zeros((9, 1), np.uint8)
    start = int(b.positions_of(empty, np.array([-1]))[0])
    reach = solver.reachable(start)
    # Each table entry stands for its board's symmetric copies (8 / the symmetries fixing it).
    copies = (8 // b.stabiliser[solver.board_of]).astype(np.int64)
    seen = (reach & 1).astype(np.int64) + (reach >> 1 & 1)
    counts = {name: int((copies * seen)[value == v].sum())
              for name, v in ((WIN, 1), (LOSE, -1), (DRAW, 0))}
    code = _encode(value, remoteness)
    start_value, start_remoteness = _decode(code[start])
    details = {"boards": int(b.layout.boards), "representative_boards": len(b.rank),
               "table_positions": solver.size, "moves": len(solver.graph.board),
               "passes": int((solver.pass_target >= 0).sum()),
               "table_counts": {name: int((value == v).sum())
                                for name, v in ((WIN, 1), (LOSE, -1), (DRAW, 0))},
               "reachable_table_positions": int((reach > 0).sum()),
               "max_remoteness": int(remoteness.max())}
    return SolvedTopitop(small, large, b.rank, b.base, code, counts, start_value,
                         start_remoteness, round(time.perf_counter() - began, 2), details)


# ---- analysing a match --------------------------------------------------------------------------

def analyse(states: Sequence[TopitopState], moves: Sequence[dict[str, Any]],
            table: SolvedTopitop) -> list[dict[str, Any]]:
    """For each move of a match (states[i] is the position before moves[i], states[i + 1] after
    it): the mover's value and remoteness before and after, and whether it was a blunder (a won
    game thrown to a draw or a loss, or a drawn one to a loss)."""
    if len(states) != len(moves) + 1:
        raise ValueError(f"{len(moves)} moves need {len(moves) + 1} states, got {len(states)}")
    report = []
    for index, move in enumerate(moves):
        before, remoteness_before = table.lookup(states[index])
        reply, remoteness_after = table.lookup(states[index + 1])
        after = FOR_THE_OTHER[reply]  # the position after is valued for the opponent
        blunder = (before == WIN and after != WIN) or (before == DRAW and after == LOSE)
        report.append({"index": index, "seat": states[index].turn, "move": dict(move),
                       "value_before": before, "remoteness_before": remoteness_before,
                       "value_after": after, "remoteness_after": remoteness_after,
                       "blunder": blunder})
    return report
