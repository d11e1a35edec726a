"""Topitop perft: the fast move generator counts what a walk through `legal_moves` + `apply` counts.

The walk below uses only the engine's public rules (every legal move applied, recursively), so it
is an independent count; it is affordable to depth 3 from the start and from mid-game positions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablelog.domain.games import get_rules
from tablelog.domain.games.topitop.perft import perft

RULES = get_rules("topitop")


def walk(state, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(walk(RULES.apply(state, move), depth - 1) for move in RULES.legal_moves(state))


def start(small: int = 4, large: int = 4):
    return RULES.start(2, RULES.options({"small": small, "large": large}), {})


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_perft_from_the_start_equals_the_walk(depth):
    assert perft(start(), depth) == walk(start(), depth)


def test_the_first_counts_are_the_board_s_own():
    # Depth 1 by hand: 9 empty cells, each taking a bucket, a small or a large pile.
    assert perft(start(), 1) == 9 * 3
    # No sand piles at all: only buckets to place (2 each), and slides of one's own buckets.
    assert perft(start(0, 0), 1) == 9


def _midgame_positions(count: int):
    rng = random.Random(24)
    found: list[Any] = []
    while len(found) < count:
        state = start(rng.choice([1, 2, 4]), rng.choice([1, 2, 4]))
        for _ in range(rng.randrange(4, 40)):
            if RULES.outcome(state) is not None:
                break
            state = RULES.apply(state, RULES.random_move(state, rng))
        found.append(state)
    return found


@pytest.mark.parametrize("position", range(12))
def test_perft_from_midgame_positions_equals_the_walk(position):
    """Positions with slides, stacks, the no-reversal bar, passes and wins within reach."""
    state = _midgame_positions(12)[position]
    for depth in (1, 2, 3):
        assert perft(state, depth) == walk(state, depth)


def test_a_won_game_has_no_continuations():
    rng = random.Random(5)
    state = start()
    while RULES.outcome(state) is None:  # random games until one is won (some go round)
        state = start()
        for _ in range(400):
            if RULES.outcome(state) is not None:
                break
            state = RULES.apply(state, RULES.random_move(state, rng))
    assert perft(state, 0) == 1
    assert perft(state, 2) == 0 == walk(state, 2)
