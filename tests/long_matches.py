"""Long legal Topitop matches for the snapshot and quarantine tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tablelog.domain.games import get_rules

RULES = get_rules("topitop")
# Both players place a bucket, then shuffle it back and forth forever (a bucket is never
# neutral, so the no-reversal rule does not stop it): a legal match of any length.
OPENING = [(0, {"place": "bucket", "to": "a1"}), (1, {"place": "bucket", "to": "c3"})]
SHUFFLE = [
    (0, {"from": "a1", "to": "a2"}),
    (1, {"from": "c3", "to": "c2"}),
    (0, {"from": "a2", "to": "a1"}),
    (1, {"from": "c2", "to": "c3"}),
]


def shuffled_moves(count: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """`count` legal moves: the opening, then buckets shuffled back and forth."""
    for number in range(count):
        yield OPENING[number] if number < 2 else SHUFFLE[(number - 2) % 4]


def random_steps(seed: int, count: int) -> Iterator[tuple[str, Any]]:
    """A seeded random playout of `count` entries that avoids winning: ("move", (seat, move)),
    ("undo", None) or ("claim", scores); the caller applies them to a recorder in order."""
    rng = random.Random(seed)
    states = [RULES.start(2, RULES.options({}), {})]
    for _ in range(count):
        if len(states) > 1 and rng.random() < 0.15:
            states.pop()
            yield "undo", None
            continue
        if rng.random() < 0.05:
            yield "claim", {"Ann": rng.randint(0, 2)}
            continue
        state = states[-1]
        moves = RULES.legal_moves(state)
        safe = [m for m in moves if RULES.outcome(RULES.apply(state, m)) is None]
        move = rng.choice(safe or moves)
        after = RULES.apply(state, move)
        yield "move", (RULES.to_move(state)[0], move)
        if RULES.outcome(after) is not None:
            return
        states.append(after)


def apply_steps(recorder, match_id, steps) -> None:
    for kind, value in steps:
        if kind == "move":
            recorder.record(match_id, *value)
        elif kind == "undo":
            recorder.undo(match_id, "Ann", "a slip")
        else:
            recorder.claim(match_id, "Ben", value)
