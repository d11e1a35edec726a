"""Topitop move-generation counts (perft): how many action sequences of a given length lead on
from a position, the standard check of a move generator and a benchmark of it.

The positions are bare tuples here (stacks, seat to act, the slide barred by no reversal) and
the actions are generated straight from them, by the same rules as `Topitop.legal_moves` and
`apply` (tests/games/test_perft.py compares the counts with a walk through those). Positions
reached by different orders are counted once per depth (a table of counts), as chess perft does.
"""

from __future__ import annotations

from collections.abc import Iterator

from .rules import BUCKET, BUCKETS_PER_SEAT, NEIGHBOURS, STACKINGS, TopitopState

Position = tuple[tuple[str, ...], int, tuple[int, int] | None]  # stacks, turn, barred slide

_SPOTS = range(len(NEIGHBOURS))


def _after(cells: list[str], turn: int, barred: tuple[int, int] | None) -> tuple[Position, bool]:
    """The position after `turn` acted, leaving `cells`, and whether that action won."""
    castle = "LS" + BUCKET[turn]
    won = sum(stack == castle for stack in cells) == BUCKETS_PER_SEAT
    return (tuple(cells), 1 - turn, barred), won


def successors(position: Position, small: int, large: int) -> Iterator[tuple[Position, bool]]:
    """Every legal action's result, in `legal_moves` order, with whether it won: places, then
    slides, or a pass when neither is possible."""
    cells, turn, barred = position
    board = "".join(cells)
    supply = {
        BUCKET[turn]: BUCKETS_PER_SEAT - board.count(BUCKET[turn]),
        "S": small - board.count("S"),
        "L": large - board.count("L"),
    }
    pieces = [letter for letter in (BUCKET[turn], "S", "L") if supply[letter] > 0]
    acted = False
    for to in _SPOTS:
        if not cells[to]:
            for letter in pieces:
                after = list(cells)
                after[to] = letter
                acted = True
                yield _after(after, turn, None)
    for src in _SPOTS:
        moving = cells[src]
        if not moving or (moving[-1] in BUCKET and moving[-1] != BUCKET[turn]):
            continue
        neutral = moving[-1] not in BUCKET
        for dst in NEIGHBOURS[src]:
            target = cells[dst]
            if (target and (moving, target) not in STACKINGS) or barred == (src, dst):
                continue
            after = list(cells)
            after[src], after[dst] = "", STACKINGS.get((moving, target), moving)
            acted = True
            yield _after(after, turn, (dst, src) if not target and neutral else None)
    if not acted:
        yield _after(list(cells), turn, None)  # the pass


def perft(state: TopitopState, depth: int) -> int:
    """The number of action sequences of `depth` actions from `state` (a won game has none)."""
    if state.winner is not None:
        return 0 if depth else 1
    table: dict[tuple[Position, int], int] = {}

    def count(position: Position, left: int) -> int:
        if left == 0:
            return 1
        known = table.get((position, left))
        if known is None:
            known = sum(
                1 if left == 1 else 0 if won else count(child, left - 1)
                for child, won in successors(position, state.small, state.large)
            )
            table[(position, left)] = known
        return known

    return count((state.cells, state.turn, state.no_return), depth)
