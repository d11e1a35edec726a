"""The Topitop game graph, built in bulk with numpy, and the retrograde analysis over it.

Positions are numbered in `topitop_positions` (a representative board under the 8 symmetries of
the square, seen by the player to move, plus its no-reversal restriction). A restriction forbids
exactly one of its board's moves, so the positions of a board share its move list: the graph is
stored per board (about 12 moves each), not per position.

Retrograde analysis starts from the finished positions (the previous mover has both buckets on
sand castles: lost for the player to move, remoteness 0) and goes one remoteness level at a time:
a position with a move to a lost one is won (the winner hurries: the first level found is the
smallest), a position whose every move leads to a won one is lost (the loser delays: its last
child found is the furthest). What is never decided is a draw: under best play the game loops.
A player with no legal action passes, and the pass is a move like any other.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .topitop_positions import (
    PAIRS,
    SWAP_COLOURS,
    SYM_FROM,
    SYM_PAIR,
    Layout,
    Numbering,
    board_moves,
    canonical_pair,
    is_over,
    restriction_mask,
    restriction_slot,
)

Progress = Callable[[str, int, int], None]
"""progress(phase, done, total); the phases, in order: "boards", "moves", "retrograde",
"reachable" (the last two count positions; "reachable" counts them once per seat to move)."""

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


class TopitopGraph:
    """The game graph of Topitop with `small` and `large` sand piles, built in bulk."""

    def __init__(self, small: int = 4, large: int = 4, progress: Progress | None = None) -> None:
        self.progress = progress or _no_progress
        self.small, self.large = small, large
        self._representatives(Layout.build(small, large))
        self.board_of = np.repeat(
            np.arange(len(self.digits[0]), dtype=np.int32), np.diff(self.numbering.base)
        )
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
        fixing = np.ones(layout.boards, np.uint8)  # bit g: symmetry g leaves the board unchanged
        for g in range(1, 8):
            self.progress("boards", g, 8)
            image = np.concatenate(
                [
                    layout.rank(every[SYM_FROM[g], i : i + (1 << 22)])
                    for i in range(0, layout.boards, 1 << 22)
                ]
            )
            better = image < best
            best[better], sym[better] = image[better], g
            fixing |= (image == own).astype(np.uint8) << np.uint8(g)
        self.progress("boards", 8, 8)
        representative = best == own
        rank = np.flatnonzero(representative)
        self.digits = np.ascontiguousarray(every[:, rank])  # (9, K), cell-major
        del every
        self.fixing = fixing[rank]
        # the restrictions a board's positions have: on a symmetric board, one of each set of
        # symmetric ones
        self.mask = restriction_mask(self.digits, self.fixing)
        self.numbering = Numbering(
            layout,
            rank,
            np.concatenate([[0], np.cumsum(1 + np.bitwise_count(self.mask).astype(np.int64))]),
        )
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
        pair = canonical_pair(pair, self.fixing[k])
        return self.numbering.base[k] + restriction_slot(self.mask[k], pair)

    def _moves(self) -> None:
        count = len(self.digits[0])
        boards, pairs, children = [], [], []
        for start in range(0, count, CHUNK):
            self.progress("moves", start, count)
            digits = self.digits[:, start : start + CHUNK]
            moves = board_moves(digits, self.small, self.large)
            live = ~is_over(digits)[moves.board]  # a finished game has no moves
            boards.append((moves.board[live] + start).astype(np.int32))
            pairs.append(moves.pair[live].astype(np.int8))
            children.append(
                self.positions_of(moves.child[:, live], moves.child_pair[live]).astype(np.int32)
            )
        self.progress("moves", count, count)
        self.move_board, self.move_pair, self.move_child = (
            np.concatenate(x) for x in (boards, pairs, children)
        )
        self.moves_of = np.concatenate(
            [[0], np.cumsum(np.bincount(self.move_board, minlength=count))]
        )
        # A position's actions are its board's, less the slide its restriction forbids (always one
        # of them: a neutral piece may slide back to the empty cell it came from).
        self.moves = np.diff(self.moves_of)[self.board_of] - (self.slot > 0)
        stuck = np.flatnonzero((self.moves == 0) & ~self.over)  # no action at all: a pass
        self.moves[stuck] = 1
        self.pass_to = np.full(self.size, -1, np.int64)
        self.pass_to[stuck] = self.positions_of(
            SWAP_COLOURS[self.digits[:, self.board_of[stuck]]], np.full(len(stuck), -1)
        )
        order = np.argsort(self.pass_to[stuck], kind="stable")
        self.passes = stuck[order]  # the passing positions, by their child
        self.passes_into = self.pass_to[self.passes]
        self.by_child = np.argsort(self.move_child, kind="stable")
        self.into = np.concatenate(
            [[0], np.cumsum(np.bincount(self.move_child, minlength=self.size))]
        )

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
        return (
            np.concatenate([self.move_child[moves[keep]], self.pass_to[positions[passing]]]),
            np.concatenate([mover[keep], passing]),
        )

    def parents(self, children: np.ndarray) -> np.ndarray:
        """The moving position of every move into one of `children`, once per move."""
        entries = self.by_child[
            _ranges(self.into[children], self.into[children + 1] - self.into[children])
        ]
        board, pair = self.move_board[entries], self.move_pair[entries]
        base = self.numbering.base
        first, count = base[board], base[board + 1] - base[board]
        slot = _ranges(np.zeros(len(board), np.int64), count)
        # the position of that board whose restriction forbids this very move is no parent (on a
        # symmetric board, it may be a symmetric twin of the position, with a number of its own)
        pair = pair.astype(np.int64)
        bit = (self.mask[board] >> pair.clip(0).astype(np.uint64)) & np.uint64(1)
        restricted = (pair >= 0) & (bit == 1)
        forbidden = np.where(restricted, restriction_slot(self.mask[board], pair), -1)
        parents = (np.repeat(first, count) + slot)[slot != np.repeat(forbidden, count)]
        lo = np.searchsorted(self.passes_into, children)
        hi = np.searchsorted(self.passes_into, children, "right")
        return np.concatenate([parents, self.passes[_ranges(lo, hi - lo)]])

    # ---- solving ------------------------------------------------------------------------------

    def retrograde(self) -> tuple[np.ndarray, np.ndarray]:
        """value (1 win, -1 lose, 0 draw) and remoteness (-1 for a draw) of every position."""
        value = np.zeros(self.size, np.int8)
        remoteness = np.full(self.size, -1, np.int32)
        left = self.moves.astype(np.int32)  # moves not yet known to lead to a win
        frontier = np.flatnonzero(self.over)
        value[frontier], remoteness[frontier] = -1, 0
        level, decided = 0, len(frontier)
        while len(frontier):
            self.progress("retrograde", decided, self.size)
            found = []
            lost = frontier[value[frontier] == -1]
            for i in range(0, len(lost), CHUNK):  # a move to a lost position wins
                parents = self.parents(lost[i : i + CHUNK])
                new = _distinct(parents[value[parents] == 0])
                value[new], remoteness[new] = 1, level + 1
                found.append(new)
            won = frontier[value[frontier] == 1]
            for i in range(0, len(won), CHUNK):  # all moves to won positions lose
                parents = self.parents(won[i : i + CHUNK])
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
        frontier = np.array([self.start() * 2])  # position * 2 + seat to move
        reach[self.start()] = 1
        found = 1
        while len(frontier):
            self.progress("reachable", found, 2 * self.size)
            found_now = []
            for i in range(0, len(frontier), CHUNK):
                batch = frontier[i : i + CHUNK]
                children, mover = self.children(batch // 2)
                key = children * 2 + 1 - batch[mover] % 2
                bit = np.uint8(1) << (key % 2).astype(np.uint8)
                key = _distinct(key[(reach[key // 2] & bit) == 0])
                reach[key // 2] |= np.uint8(1) << (key % 2).astype(np.uint8)
                found_now.append(key)
            frontier = np.concatenate(found_now)
            found += len(frontier)
        return reach

    def copies(self) -> np.ndarray:
        """How many positions each table position stands for: its images under the 8 symmetries
        (8 / the symmetries leaving board and restriction unchanged)."""
        fixed = np.zeros(self.size, np.int64)
        pair = self.pair_of.astype(np.int64)
        for g in range(8):
            fixed += (self.fixing[self.board_of] >> g & 1).astype(bool) & (
                (pair < 0) | (SYM_PAIR[g, pair.clip(0)] == pair)
            )
        return 8 // fixed
