"""The Topitop solver: every position's value (win, lose, draw) and remoteness, by retrograde
analysis over the whole game graph, vectorised with numpy.

How it goes (positions and moves are numbered in `topitop_positions`):
1. every board the piece counts allow is ranked and mapped to its representative under the 8
   symmetries of the square; a position is a representative board plus its no-reversal
   restriction, seen from the player to move (so Blue and Red to move share one entry);
2. the moves of every representative board are generated in bulk once, each leading to a
   position. A restriction forbids exactly one of its board's moves, so the positions of a board
   share its move list and the graph is stored per board, not per position;
3. retrograde analysis from the finished positions (the previous mover has both buckets on sand
   castles: lost for the player to move, remoteness 0), one remoteness level at a time: a position
   with a move to a lost one is won (the winner hurries: the first level found is the smallest),
   a position whose every move leads to a won one is lost (the loser delays: its last child found
   is the furthest). What is never decided is a draw: under best play the game loops;
4. a breadth-first search from the empty board marks the positions a game reaches, with whose turn
   it is (Blue moves first, so reachability is not colour-blind), for the counts.

A player with no legal action passes, and the pass is a move like any other. Remoteness counts
moves (passes included) to the end under best play; a win always has odd remoteness and a loss an
even one, which lets the stored table keep both in one small number per position.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from domain.games.topitop import TopitopState

from .topitop_positions import (PAIRS, SWAP_COLOURS, SYM_FROM, SYM_PAIR, Layout, board_moves,
                                digits_state, fits, is_over, restriction_mask, restriction_slot,
                                state_digits)

Progress = Callable[[str, int, int], None]
"""progress(phase, done, total); the phases, in order: "boards", "moves", "retrograde",
"reachable" (the last two count positions; "reachable" counts them once per seat to move)."""

WIN, LOSE, DRAW = "win", "lose", "draw"
FOR_THE_OTHER = {WIN: LOSE, LOSE: WIN, DRAW: DRAW}
FORMAT = "tablelog-topitop-solve/1"
CHUNK = 1 << 17  # boards or positions per numpy batch: keeps temporaries to a few hundred MB


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """concatenate([arange(s, s + n) for s, n in zip(starts, lengths)]), vectorised."""
    lengths = np.asarray(lengths, np.int64)
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    return np.arange(total) - np.repeat(ends - lengths - starts, lengths)


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (sorting beats numpy 2's hashing np.unique here)."""
    values = np.sort(values)
    return values[np.concatenate([[True], values[1:] != values[:-1]])] if len(values) else values


def _no_progress(phase: str, done: int, total: int) -> None:
    pass


class Numbering:
    """Positions numbered: representative boards in rank order, each followed by its
    restrictions (none first, then the allowed slides in PAIRS order)."""

    def __init__(self, layout: Layout, rank: np.ndarray, base: np.ndarray) -> None:
        self.layout = layout
        self.rank = rank   # the representatives' ranks, ascending
        self.base = base   # board k's positions are base[k] .. base[k + 1] - 1
        self.size = int(base[-1])

    def position(self, digits: np.ndarray, pair: int) -> int:
        """The number of one position: a board (digits (9,)) and restriction (-1: none)."""
        images = digits[SYM_FROM].T                      # (9, 8): the board under each symmetry
        ranks = self.layout.rank(images)
        g = int(np.argmin(ranks))                        # the first smallest, as when solving
        k = int(np.searchsorted(self.rank, ranks[g]))
        if k == len(self.rank) or self.rank[k] != ranks[g]:
            raise ValueError("the table does not know this board")
        pair = int(SYM_PAIR[g, pair]) if pair >= 0 else -1
        slot = restriction_slot(restriction_mask(images[:, g:g + 1]), np.array([pair]))
        return int(self.base[k] + slot[0])

    def unnumber(self, position: int) -> tuple[np.ndarray, int]:
        """The representative board and restriction of a position."""
        k = int(np.searchsorted(self.base, position, "right")) - 1
        digits = self.layout.unrank(int(self.rank[k]))
        slot = position - int(self.base[k])
        allowed = [p for p in range(len(PAIRS))
                   if (restriction_mask(digits[:, None])[0] >> np.uint64(p)) & np.uint64(1)]
        return digits, (allowed[slot - 1] if slot else -1)


class TopitopGraph:
    """The game graph of Topitop with `small` and `large` sand piles, built in bulk."""

    def __init__(self, small: int = 4, large: int = 4, progress: Progress | None = None) -> None:
        self.progress = progress or _no_progress
        self.small, self.large = small, large
        self._representatives(Layout.build(small, large))
        self.board_of = np.repeat(np.arange(len(self.digits[0]), dtype=np.int32),
                                  np.diff(self.numbering.base))
        self.size = self.numbering.size
        self.over = is_over(self.digits)[self.board_of]
        self._restrictions()
        self._moves()

    # ---- building -----------------------------------------------------------------------------

    def _representatives(self, layout: Layout) -> None:
        """Rank every board's 8 images: the smallest rank is the representative, and the first
        symmetry reaching it maps a board and its restriction there."""
        every = layout.all_boards()
        own = np.arange(layout.boards, dtype=np.int64)
        best, sym = own.copy(), np.zeros(layout.boards, np.uint8)
        fixed = np.ones(layout.boards, np.uint8)         # symmetries leaving the board unchanged
        for g in range(1, 8):
            self.progress("boards", g, 8)
            image = np.concatenate([layout.rank(every[SYM_FROM[g], i:i + (1 << 22)])
                                    for i in range(0, layout.boards, 1 << 22)])
            better = image < best
            best[better], sym[better] = image[better], g
            fixed += image == own
        self.progress("boards", 8, 8)
        representative = best == own
        rank = np.flatnonzero(representative)
        self.digits = np.ascontiguousarray(every[:, rank])   # (9, K), cell-major
        del every
        self.mask = restriction_mask(self.digits)
        self.stabiliser = fixed[rank]
        self.numbering = Numbering(layout, rank, np.concatenate(
            [[0], np.cumsum(1 + np.bitwise_count(self.mask).astype(np.int64))]))
        # for every board rank: its representative's index, and the symmetry taking it there
        self.rep_of = (np.cumsum(representative, dtype=np.int64) - 1)[best].astype(np.int32)
        self.sym_of = sym

    def _restrictions(self) -> None:
        """pair_of[p]: the slide position p forbids (-1: none)."""
        base = self.numbering.base
        self.slot = np.arange(self.size) - base[self.board_of]
        self.pair_of = np.full(self.size, -1, np.int8)
        for p in range(len(PAIRS)):
            has = np.flatnonzero((self.mask >> np.uint64(p)) & np.uint64(1))
            self.pair_of[base[has] + restriction_slot(self.mask[has], np.full(len(has), p))] = p

    def positions_of(self, digits: np.ndarray, pair: np.ndarray) -> np.ndarray:
        """The positions of many boards (cell-major, any symmetry) with restrictions `pair`."""
        rank = self.numbering.layout.rank(digits)
        k = self.rep_of[rank]
        pair = np.where(pair >= 0, SYM_PAIR[self.sym_of[rank], pair.clip(0)], -1)
        return self.numbering.base[k] + restriction_slot(self.mask[k], pair)

    def _moves(self) -> None:
        count = len(self.digits[0])
        boards, pairs, children = [], [], []
        for start in range(0, count, CHUNK):
            self.progress("moves", start, count)
            digits = self.digits[:, start:start + CHUNK]
            moves = board_moves(digits, self.small, self.large)
            live = ~is_over(digits)[moves.board]     # a finished game has no moves
            boards.append((moves.board[live] + start).astype(np.int32))
            pairs.append(moves.pair[live].astype(np.int8))
            children.append(self.positions_of(moves.child[:, live],
                                              moves.child_pair[live]).astype(np.int32))
        self.progress("moves", count, count)
        self.move_board, self.move_pair, self.move_child = (
            np.concatenate(x) for x in (boards, pairs, children))
        self.moves_of = np.concatenate(
            [[0], np.cumsum(np.bincount(self.move_board, minlength=count))])
        # A position's actions are its board's, less the slide its restriction forbids (always one
        # of them: a neutral piece may slide back to the empty cell it came from).
        self.moves = np.diff(self.moves_of)[self.board_of] - (self.slot > 0)
        stuck = np.flatnonzero((self.moves == 0) & ~self.over)   # no action at all: a pass
        self.moves[stuck] = 1
        self.pass_to = np.full(self.size, -1, np.int64)
        self.pass_to[stuck] = self.positions_of(SWAP_COLOURS[self.digits[:, self.board_of[stuck]]],
                                                np.full(len(stuck), -1))
        order = np.argsort(self.pass_to[stuck], kind="stable")
        self.passes = stuck[order]                       # the passing positions, by their child
        self.passes_into = self.pass_to[self.passes]
        self.by_child = np.argsort(self.move_child, kind="stable")
        self.into = np.concatenate(
            [[0], np.cumsum(np.bincount(self.move_child, minlength=self.size))])

    # ---- walking the graph --------------------------------------------------------------------

    def children(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every move of `positions`: (the position it leads to, the index in `positions` of the
        one moving). A position reaching one child by two symmetric moves lists it twice."""
        positions = np.asarray(positions, np.int64)
        board = self.board_of[positions]
        start, stop = self.moves_of[board], self.moves_of[board + 1]
        moves = _ranges(start, stop - start)
        mover = np.repeat(np.arange(len(positions)), stop - start)
        pair = self.move_pair[moves]
        keep = (pair < 0) | (pair != np.repeat(self.pair_of[positions], stop - start))
        passing = np.flatnonzero(self.pass_to[positions] >= 0)
        return (np.concatenate([self.move_child[moves[keep]], self.pass_to[positions[passing]]]),
                np.concatenate([mover[keep], passing]))

    def parents(self, children: np.ndarray) -> np.ndarray:
        """The moving position of every move into one of `children`, once per move."""
        entries = self.by_child[_ranges(self.into[children],
                                        self.into[children + 1] - self.into[children])]
        board, pair = self.move_board[entries], self.move_pair[entries]
        base = self.numbering.base
        first, count = base[board], base[board + 1] - base[board]
        slot = _ranges(np.zeros(len(board), np.int64), count)
        # the position of that board whose restriction forbids this very move is no parent
        forbidden = np.where(pair >= 0, restriction_slot(self.mask[board], pair.astype(np.int64)),
                             -1)
        parents = (np.repeat(first, count) + slot)[slot != np.repeat(forbidden, count)]
        lo = np.searchsorted(self.passes_into, children)
        hi = np.searchsorted(self.passes_into, children, "right")
        return np.concatenate([parents, self.passes[_ranges(lo, hi - lo)]])

    # ---- solving ------------------------------------------------------------------------------

    def retrograde(self) -> tuple[np.ndarray, np.ndarray]:
        """value (1 win, -1 lose, 0 draw) and remoteness (-1 for a draw) of every position."""
        value = np.zeros(self.size, np.int8)
        remoteness = np.full(self.size, -1, np.int32)
        left = self.moves.astype(np.int32)             # moves not yet known to lead to a win
        frontier = np.flatnonzero(self.over)
        value[frontier], remoteness[frontier] = -1, 0
        level, decided = 0, len(frontier)
        while len(frontier):
            self.progress("retrograde", decided, self.size)
            found = []
            lost = frontier[value[frontier] == -1]
            for i in range(0, len(lost), CHUNK):       # a move to a lost position wins
                parents = self.parents(lost[i:i + CHUNK])
                new = _distinct(parents[value[parents] == 0])
                value[new], remoteness[new] = 1, level + 1
                found.append(new)
            won = frontier[value[frontier] == 1]
            for i in range(0, len(won), CHUNK):        # all moves to won positions lose
                parents = self.parents(won[i:i + CHUNK])
                np.subtract.at(left, parents, 1)
                new = _distinct(parents[(left[parents] == 0) & (value[parents] == 0)])
                value[new], remoteness[new] = -1, level + 1
                found.append(new)
            frontier = np.concatenate(found)
            decided += len(frontier)
            level += 1
        self.progress("retrograde", self.size, self.size)
        return value, remoteness

    def start(self) -> int:
        return int(self.positions_of(np.zeros((9, 1), np.uint8), np.array([-1]))[0])

    def reachable(self) -> np.ndarray:
        """reach[p] bit t: a game from the empty board reaches p with seat t to move."""
        reach = np.zeros(self.size, np.uint8)
        frontier = np.array([self.start() * 2])        # position * 2 + seat to move
        reach[self.start()] = 1
        found = 1
        while len(frontier):
            self.progress("reachable", found, 2 * self.size)
            found_now = []
            for i in range(0, len(frontier), CHUNK):
                batch = frontier[i:i + CHUNK]
                children, mover = self.children(batch // 2)
                key = children * 2 + 1 - batch[mover] % 2
                bit = np.uint8(1) << (key % 2).astype(np.uint8)
                key = _distinct(key[(reach[key // 2] & bit) == 0])
                reach[key // 2] |= np.uint8(1) << (key % 2).astype(np.uint8)
                found_now.append(key)
            frontier = np.concatenate(found_now)
            found += len(frontier)
        return reach

    def solve(self) -> SolvedTopitop:
        began = time.perf_counter()
        value, remoteness = self.retrograde()
        reach = self.reachable()
        # A table position stands for its board's symmetric copies: 8 / symmetries fixing it.
        copies = (8 // self.stabiliser[self.board_of]).astype(np.int64)
        seats = (reach & 1).astype(np.int64) + (reach >> 1 & 1)
        counts = {name: int((copies * seats)[value == v].sum())
                  for name, v in ((WIN, 1), (LOSE, -1), (DRAW, 0))}
        code = _encode(value, remoteness)
        start_value, start_remoteness = _decode(code[self.start()])
        details = {"boards": self.numbering.layout.boards,
                   "representative_boards": len(self.numbering.rank),
                   "table_positions": self.size,
                   "reachable_table_positions": int((reach > 0).sum()),
                   "table_counts": {name: int((value == v).sum())
                                    for name, v in ((WIN, 1), (LOSE, -1), (DRAW, 0))},
                   "moves": len(self.move_board), "passing_positions": len(self.passes),
                   "longest_remoteness": int(remoteness.max())}
        return SolvedTopitop(self.small, self.large, self.numbering, code, counts, start_value,
                             start_remoteness, time.perf_counter() - began, details)


def solve(small: int = 4, large: int = 4, progress: Progress | None = None) -> SolvedTopitop:
    """Solve Topitop with `small` and `large` sand piles (2 buckets a player)."""
    began = time.perf_counter()
    table = TopitopGraph(small, large, progress).solve()
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


@dataclasses.dataclass(frozen=True)
class SolvedTopitop:
    """Every Topitop position's value and remoteness for the player to move."""

    small: int
    large: int
    numbering: Numbering
    code: np.ndarray          # per position: 0 a draw, else remoteness + 1
    counts: dict[str, int]    # positions a game can reach (cells, seat to move, no_return), by
                              # value for the player to move, symmetric copies counted
    start_value: str
    start_remoteness: int | None
    seconds: float            # how long the solve took
    details: dict[str, Any] = dataclasses.field(default_factory=dict)

    def lookup(self, state: TopitopState) -> tuple[str, int | None]:
        """(value, remoteness) for the player to move in `state`; remoteness None for a draw."""
        if state.winner is not None:
            return LOSE, 0  # the previous mover has just won
        return _decode(self.code[self.position(state)])

    def position(self, state: TopitopState) -> int:
        """The index of `state` in the table (symmetric states share one)."""
        if (state.small, state.large) != (self.small, self.large):
            raise ValueError(f"this table solves Topitop with {self.small} small and "
                             f"{self.large} large sand piles, not {state.small} and {state.large}")
        digits, pair = state_digits(state)
        if not fits(digits, self.small, self.large):
            raise ValueError(f"more pieces on the board than the game has: {state.cells}")
        return self.numbering.position(digits, pair)

    def state(self, position: int, turn: int = 0) -> TopitopState:
        """A state of the table's `position`, with seat `turn` to move."""
        digits, pair = self.numbering.unnumber(position)
        return digits_state(digits, pair, turn, self.small, self.large)

    def save(self, path: str | Path) -> None:
        """A compressed .npz file: representative ranks as steps, positions per board, codes."""
        meta = {"format": FORMAT, "small": self.small, "large": self.large, "counts": self.counts,
                "start_value": self.start_value, "start_remoteness": self.start_remoteness,
                "seconds": self.seconds, "details": self.details}
        with open(path, "wb") as file:
            np.savez_compressed(
                file, meta=np.array(json.dumps(meta)),
                rank_steps=np.diff(self.numbering.rank, prepend=0).astype(np.uint32),
                positions=np.diff(self.numbering.base).astype(np.uint8), code=self.code)

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
        return cls(meta["small"], meta["large"], numbering, code, meta["counts"],
                   meta["start_value"], meta["start_remoteness"], meta["seconds"],
                   meta["details"])


def save(table: SolvedTopitop, path: str | Path) -> None:
    table.save(path)


def load(path: str | Path) -> SolvedTopitop:
    return SolvedTopitop.load(path)


# ---- analysing a match --------------------------------------------------------------------------

def analyse(states: Sequence[TopitopState], moves: Sequence[dict[str, Any]],
            table: SolvedTopitop) -> list[dict[str, Any]]:
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
        report.append({"index": index, "seat": states[index].turn, "move": dict(move),
                       "value_before": before, "remoteness_before": remoteness_before,
                       "value_after": after, "remoteness_after": remoteness_after,
                       "blunder": (before == WIN and after != WIN)
                       or (before == DRAW and after == LOSE)})
    return report
