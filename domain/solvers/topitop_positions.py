"""Topitop positions as small integers, and their moves generated in bulk with numpy.

A position is seen from the player to move ("own" bucket, "opponent's" bucket), so Blue to move
and Red to move on colour-swapped boards are one position: the rules are the same for both
colours, only who starts differs. Each of the 9 cells holds one of ten stacks, a digit:

    0 empty  1 L  2 S  3 own bucket  4 opponent's bucket  5 LS (a sand castle)
    6 S+own  7 S+opponent's  8 castle+own  9 castle+opponent's

Boards are ranked 0..R-1 in lexicographic order of their digits (cell a1 most significant), only
the boards the piece counts allow; `Layout.rank` computes ranks with one lookup in a small table
per cell, so millions of boards are ranked at once. Of a board's images under the 8 symmetries of
the square, the one of smallest rank is its representative. A position is a representative board
plus its no-reversal restriction: none, or a slide (from, to) that fits the board (a neutral piece
on `from`, `to` empty); on a symmetric board, only the smallest of symmetric restrictions. The
positions are numbered board by board (`Numbering`): none first, then the restrictions in the
order of PAIRS.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from tablelog.domain.games.topitop.rules import BUCKET, NEIGHBOURS, SIZE, TopitopState

CELLS = SIZE * SIZE
# The engine's stack strings for Blue to move; Red to move swaps the bucket letters. A cell's
# digit is its stack's index here.
STACKS = ("", "L", "S", "B", "R", "LS", "SB", "SR", "LSB", "LSR")
(EMPTY, LARGE, SMALL, OWN, CASTLE, OWN_ON_SMALL, OWN_ON_CASTLE, OPP_ON_CASTLE) = (
    STACKS.index(stack) for stack in ("", "L", "S", "B", "LS", "SB", "LSB", "LSR")
)
KINDS = len(STACKS)
HAS_LARGE = np.array([s.count("L") for s in STACKS], np.int64)
HAS_SMALL = np.array([s.count("S") for s in STACKS], np.int64)
HAS_OWN = np.array([s.count("B") for s in STACKS], np.int64)
HAS_OPP = np.array([s.count("R") for s in STACKS], np.int64)
BUCKETS = 2
NEUTRAL = np.zeros(KINDS, bool)
NEUTRAL[[LARGE, SMALL, CASTLE]] = True  # no bucket on top: anyone may move it
_NEUTRAL_KINDS = frozenset(np.flatnonzero(NEUTRAL).tolist())
# After a move the opponent is to move: own and opponent's buckets trade names.
SWAP_COLOURS = np.array([0, 1, 2, 4, 3, 5, 7, 6, 9, 8], np.uint8)

# What a slide of stack `m` onto stack `t` leaves on the target cell (-1: not allowed), for the
# player to move: any neutral piece or own-bucket stack may go to an empty cell, and the stackings
# (b)-(e) of the rules: bucket on small pile, small pile on large, bucket-topped small pile on
# large, bucket on castle. The opponent's stacks never move.
SLIDE_RESULT = np.full((KINDS, KINDS), -1, np.int8)
for _m in (LARGE, SMALL, OWN, CASTLE, OWN_ON_SMALL, OWN_ON_CASTLE):
    SLIDE_RESULT[_m, EMPTY] = _m
SLIDE_RESULT[OWN, SMALL] = OWN_ON_SMALL
SLIDE_RESULT[OWN, CASTLE] = OWN_ON_CASTLE
SLIDE_RESULT[OWN_ON_SMALL, LARGE] = OWN_ON_CASTLE
SLIDE_RESULT[SMALL, LARGE] = CASTLE

# Directed neighbour pairs (from, to): the slides, and the no-reversal restrictions.
PAIRS = tuple((a, b) for a in range(CELLS) for b in NEIGHBOURS[a])
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
REVERSE_PAIR = np.array([PAIR_INDEX[(b, a)] for a, b in PAIRS], np.int64)


def _symmetries() -> np.ndarray:
    """The 8 symmetries of the square as cell maps `to[g, cell]`; the identity first."""
    maps = []
    for turns in range(4):
        for mirror in (False, True):
            image = []
            for cell in range(CELLS):
                r, c = divmod(cell, SIZE)
                if mirror:
                    c = SIZE - 1 - c
                for _ in range(turns):
                    r, c = c, SIZE - 1 - r
                image.append(r * SIZE + c)
            maps.append(image)
    return np.array(maps, np.int64)


SYM_TO = _symmetries()  # cell i goes to SYM_TO[g, i]
SYM_FROM = np.argsort(SYM_TO, axis=1)  # the image's cell j comes from SYM_FROM[g, j]
SYM_PAIR = np.array(
    [[PAIR_INDEX[(int(SYM_TO[g, a]), int(SYM_TO[g, b]))] for a, b in PAIRS] for g in range(8)],
    np.int64,
)


def canonical_pair(pair: np.ndarray, fixing: np.ndarray) -> np.ndarray:
    """The smallest image of each restriction (PAIRS index, -1: none) under the symmetries that
    leave its board unchanged (`fixing`: bit g for symmetry g), so that symmetric positions of a
    symmetric board share one number."""
    best = np.asarray(pair, np.int64).copy()
    for g in range(1, 8):
        moved = SYM_PAIR[g, best.clip(0)]
        best = np.where((fixing >> g & 1).astype(bool) & (best >= 0), np.minimum(best, moved), best)
    return best


def restriction_mask(digits: np.ndarray, fixing: np.ndarray | None = None) -> np.ndarray:
    """Per board (digits cell-major, shape (9, n)): bit p set when PAIRS[p] could be the
    no-reversal restriction, i.e. a neutral piece stands on `from` and `to` is empty; with
    `fixing`, only the restrictions that are the smallest of their symmetric images."""
    neutral = NEUTRAL[digits]
    empty = digits == EMPTY
    mask = np.zeros(digits.shape[1], np.uint64)
    for p, (a, b) in enumerate(PAIRS):
        allowed = neutral[a] & empty[b]
        if fixing is not None:
            allowed &= canonical_pair(np.full(len(allowed), p), fixing) == p
        mask |= allowed.astype(np.uint64) << np.uint64(p)
    return mask


def restriction_slot(mask: np.ndarray, pair: np.ndarray) -> np.ndarray:
    """The slot of restriction `pair` on boards with `mask` (0 when pair < 0: no restriction)."""
    below = (np.uint64(1) << pair.clip(0).astype(np.uint64)) - np.uint64(1)
    return np.where(pair >= 0, 1 + np.bitwise_count(mask & below).astype(np.int64), 0)


@dataclasses.dataclass(frozen=True)
class Layout:
    """Ranking of the boards allowed by the piece counts (`small`, `large` sand piles)."""

    small: int
    large: int
    next_count: np.ndarray  # (count state * KINDS + digit) -> count state after the digit, or sink
    offset: np.ndarray  # (cell, count state * KINDS + digit) -> rank added by that digit
    boards: int  # how many boards there are

    @classmethod
    def build(cls, small: int, large: int) -> Layout:
        # A count state numbers (large piles, small piles, own buckets, opponent's buckets) placed.
        most = (large, small, BUCKETS, BUCKETS)
        shape = tuple(m + 1 for m in most)
        states = int(np.prod(shape))
        sink = states  # an impossible count, never reached by an allowed board
        after = [
            count[:, None] + has
            for count, has in zip(  # (states, KINDS) each
                np.unravel_index(np.arange(states), shape), (HAS_LARGE, HAS_SMALL, HAS_OWN, HAS_OPP)
            )
        ]
        allowed = np.all([a <= m for a, m in zip(after, most)], axis=0)
        nxt = np.full((states + 1, KINDS), sink, np.int64)
        nxt[:states] = np.where(
            allowed, np.ravel_multi_index([a.clip(max=m) for a, m in zip(after, most)], shape), sink
        )
        # completions[i][c]: ways to fill cells i.. from count state c.
        completions = np.zeros((CELLS + 1, states + 1), np.int64)
        completions[CELLS, :states] = 1
        offset = np.zeros((CELLS, states + 1, KINDS), np.int64)
        for i in range(CELLS - 1, -1, -1):
            ways = completions[i + 1][nxt]  # (states+1, KINDS)
            completions[i] = ways.sum(axis=1)
            offset[i] = np.cumsum(ways, axis=1) - ways
        return cls(small, large, nxt.ravel(), offset.reshape(CELLS, -1), int(completions[0, 0]))

    def rank(self, digits: np.ndarray) -> np.ndarray:
        """The rank of each board (digits cell-major, shape (9, n)); boards must be allowed."""
        count = np.zeros(digits.shape[1], np.int64)
        rank = np.zeros(digits.shape[1], np.int64)
        for i in range(CELLS):
            at = count * KINDS + digits[i]
            rank += self.offset[i][at]
            count = self.next_count[at]
        return rank

    def unrank(self, rank: int) -> np.ndarray:
        """The board (digits, shape (9,)) of a rank."""
        digits, count = [], 0
        sink = len(self.next_count) // KINDS - 1
        for i in range(CELLS):
            at = [count * KINDS + d for d in range(KINDS)]
            digit = max(
                d
                for d in range(KINDS)
                if self.next_count[at[d]] != sink and self.offset[i][at[d]] <= rank
            )
            rank -= int(self.offset[i][at[digit]])
            count = int(self.next_count[at[digit]])
            digits.append(digit)
        return np.array(digits, np.uint8)

    def all_boards(self) -> np.ndarray:
        """Every allowed board, in rank order, cell-major uint8 (9, boards)."""
        digits = np.zeros((0, 1), np.uint8)
        count = np.zeros(1, np.int64)
        sink = len(self.next_count) // KINDS - 1
        for _ in range(CELLS):
            at = (count[:, None] * KINDS + np.arange(KINDS)).ravel()
            keep = np.flatnonzero(self.next_count[at] != sink)
            parent = keep // KINDS
            digits = np.vstack([digits[:, parent], (keep % KINDS).astype(np.uint8)[None]])
            count = self.next_count[at[keep]]
        return digits


@dataclasses.dataclass(frozen=True)
class Moves:
    """The moves of a batch of boards (the restriction aside), one entry per move."""

    board: np.ndarray  # which board of the batch moves
    pair: np.ndarray  # the slide's PAIRS index when a restriction could forbid it, else -1
    child: np.ndarray  # the board after the move, seen by the opponent (9, moves)
    child_pair: np.ndarray  # the restriction the move leaves on the opponent, or -1


def board_moves(digits: np.ndarray, small: int, large: int) -> Moves:
    """Every place and slide action of the player to move on each board (cell-major (9, n))."""
    supply = {
        LARGE: large - HAS_LARGE[digits].sum(axis=0),
        SMALL: small - HAS_SMALL[digits].sum(axis=0),
        OWN: BUCKETS - HAS_OWN[digits].sum(axis=0),
    }
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    none = np.int64(-1)
    for cell in range(CELLS):
        empty = digits[cell] == EMPTY
        for piece, left in supply.items():
            at = np.flatnonzero(empty & (left > 0))
            child = digits[:, at]
            child[cell] = piece
            parts.append((at, np.full(len(at), none), child, np.full(len(at), none)))
    for p, (a, b) in enumerate(PAIRS):
        result = SLIDE_RESULT[digits[a], digits[b]]
        at = np.flatnonzero(result >= 0)
        child = digits[:, at]
        moving, target = child[a], child[b]
        restrictable = NEUTRAL[moving] & (target == EMPTY)
        child[b] = result[at]
        child[a] = EMPTY
        pair = np.where(restrictable, p, none)
        parts.append((at, pair, child, np.where(restrictable, REVERSE_PAIR[p], none)))
    board, pair, child, child_pair = (
        np.concatenate([part[k] for part in parts], axis=-1) for k in range(4)
    )
    order = np.argsort(board, kind="stable")
    return Moves(board[order], pair[order], SWAP_COLOURS[child[:, order]], child_pair[order])


def is_over(digits: np.ndarray) -> np.ndarray:
    """The previous mover (the opponent now) has both buckets on sand castles."""
    return (digits == OPP_ON_CASTLE).sum(axis=0) == BUCKETS


def state_digits(state: TopitopState) -> tuple[np.ndarray, int]:
    """The board of an engine state seen by the player to move (digits (9,)), and its
    no-reversal restriction as a PAIRS index (-1: none). ValueError when it is no Topitop
    position: a stack the rules cannot build, or a restriction no slide could have left."""
    own, opp = BUCKET[state.turn], BUCKET[1 - state.turn]
    seen = str.maketrans({own: "B", opp: "R"})
    try:
        digits = np.array([STACKS.index(stack.translate(seen)) for stack in state.cells], np.uint8)
    except ValueError:
        raise ValueError(f"not a Topitop board: {state.cells}") from None
    if state.no_return is None:
        return digits, -1
    src, dst = state.no_return  # a list, when the state was read from JSON
    pair = PAIR_INDEX.get((src, dst), -1)
    if pair < 0 or not (restriction_mask(digits[:, None])[0] >> np.uint64(pair)) & np.uint64(1):
        raise ValueError(
            f"no_return {state.no_return} is not a slide of a neutral piece to an "
            "empty cell that could just have been made on this board"
        )
    return digits, pair


def digits_state(digits: np.ndarray, pair: int, turn: int, small: int, large: int) -> TopitopState:
    """The engine state of a board seen by the player to move, with that player's seat."""
    own, opp = BUCKET[turn], BUCKET[1 - turn]
    seen = str.maketrans({"B": own, "R": opp})
    return TopitopState(
        cells=tuple(STACKS[d].translate(seen) for d in digits),
        turn=turn,
        small=small,
        large=large,
        no_return=PAIRS[pair] if pair >= 0 else None,
    )


def fits(digits: np.ndarray, small: int, large: int) -> bool:
    """Whether a board (digits (9,)) uses no more pieces than the game has."""
    return (
        HAS_LARGE[digits].sum() <= large
        and HAS_SMALL[digits].sum() <= small
        and HAS_OWN[digits].sum() <= BUCKETS
        and HAS_OPP[digits].sum() <= BUCKETS
    )


class Numbering:
    """Positions numbered: representative boards in rank order, each followed by its
    restrictions (none first, then the allowed slides in PAIRS order)."""

    def __init__(self, layout: Layout, rank: np.ndarray, base: np.ndarray) -> None:
        self.layout = layout
        self.rank = rank  # the representatives' ranks, ascending
        self.base = base  # board k's positions are base[k] .. base[k + 1] - 1
        self.size = int(base[-1])
        # one position at a time, plain Python beats numpy's per-call overhead
        self._offset, self._next = layout.offset.tolist(), layout.next_count.tolist()
        self._sym_from, self._sym_pair = SYM_FROM.tolist(), SYM_PAIR.tolist()

    def _rank(self, digits: Sequence[int]) -> int:
        rank = count = 0
        for offset, digit in zip(self._offset, digits):
            rank += offset[count * KINDS + digit]
            count = self._next[count * KINDS + digit]
        return rank

    def _images(self, digits: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
        """(rank, board) of a board under each of the 8 symmetries."""
        images = (tuple(digits[j] for j in cells) for cells in self._sym_from)
        return [(self._rank(image), image) for image in images]

    def _restrictions(self, board: Sequence[int]) -> list[int]:
        """The restrictions a representative board's positions have, in order."""
        ranks = [rank for rank, _ in self._images(board)]
        fixing = [g for g in range(8) if ranks[g] == ranks[0]]
        return [
            p
            for p, (a, b) in enumerate(PAIRS)
            if board[a] in _NEUTRAL_KINDS
            and board[b] == EMPTY
            and min(self._sym_pair[g][p] for g in fixing) == p
        ]

    def position(self, digits: Sequence[int] | np.ndarray, pair: int) -> int:
        """The number of one position: a board (digits (9,)) and restriction (-1: none)."""
        images = self._images([int(d) for d in digits])
        smallest = min(rank for rank, _ in images)
        g = next(g for g, (rank, _) in enumerate(images) if rank == smallest)  # as when solving
        k = int(np.searchsorted(self.rank, smallest))
        if k == len(self.rank) or self.rank[k] != smallest:
            raise ValueError("the table does not know this board")
        if pair < 0:
            return int(self.base[k])
        # every symmetry taking the board to its representative, the smallest restriction
        pair = min(
            self._sym_pair[h][pair] for h, (rank, _) in enumerate(images) if rank == smallest
        )
        return int(self.base[k]) + 1 + self._restrictions(images[g][1]).index(pair)

    def unnumber(self, position: int) -> tuple[np.ndarray, int]:
        """The representative board and restriction of a position."""
        k = int(np.searchsorted(self.base, position, "right")) - 1
        digits = self.layout.unrank(int(self.rank[k]))
        slot = position - int(self.base[k])
        return digits, (self._restrictions(digits.tolist())[slot - 1] if slot else -1)
