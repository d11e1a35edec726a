"""A recording process for the concurrency tests (run under multiprocessing's spawn)."""

from __future__ import annotations

import random
from uuid import UUID

from tablelog.domain.errors import Conflict
from tablelog.store import open_recorder


def write(store: str, shared: list[str], seed: int, attempts: int) -> dict:
    """Race the other writers on the `shared` matches: read a match, choose a legal move for the
    seat to move, record it against the version read. Report what was accepted and refused."""
    recorder = open_recorder(store)
    rng = random.Random(seed)
    accepted, conflicts, finished = [], 0, 0
    for _ in range(attempts):
        match = recorder.get(UUID(rng.choice(shared)))
        if match.rules.outcome(match.state):
            finished += 1
            continue
        seat = match.rules.to_move(match.state)[0]
        move = match.rules.random_move(match.state, rng)
        try:
            done = recorder.record(match.id, seat, move, expected_version=match.version)
        except Conflict:
            conflicts += 1  # the only refusal a legal move read from a stale match may get
        else:
            accepted.append((str(match.id), done.version, move))
    recorder.close()
    return {"accepted": accepted, "conflicts": conflicts, "finished": finished}
