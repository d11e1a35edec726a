"""A recording process for the concurrency tests (run under multiprocessing's spawn)."""

from __future__ import annotations

import random

from domain.errors import Conflict, MatchClosed, NotYourTurn
from domain.games import IllegalMove
from tablelog.store import open_recorder


def write(store: str, shared: str, own: str, seed: int, rounds: int) -> dict:
    """Record into `own` alone and race the other writer on `shared`; report what was accepted."""
    from uuid import UUID
    recorder = open_recorder(store)
    rng = random.Random(seed)
    accepted, refused, own_moves = [], 0, 0
    for _ in range(rounds):
        match = recorder.get(UUID(own))
        if not match.rules.outcome(match.state):
            seat = match.rules.to_move(match.state)[0]
            recorder.record(match.id, seat, match.rules.random_move(match.state, rng))
            own_moves += 1
        match = recorder.get(UUID(shared))
        if match.rules.outcome(match.state):
            continue
        seat = match.rules.to_move(match.state)[0]
        move = match.rules.random_move(match.state, rng)
        try:
            done = recorder.record(match.id, seat, move)
        except (Conflict, NotYourTurn, IllegalMove, MatchClosed):
            refused += 1  # the other writer got there first; this view was stale
        else:
            accepted.append((done.version, move))
    return {"accepted": accepted, "refused": refused, "own_moves": own_moves}
