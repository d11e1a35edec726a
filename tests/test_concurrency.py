"""Four processes recording into the same matches at once, on SQLite and on PostgreSQL: every
accepted move is stored exactly once, every refused one got a Conflict, replay equals what was
accepted."""

from __future__ import annotations

import multiprocessing

from tablelog.store import open_recorder
from tests.writers import write

WRITERS, ATTEMPTS = 4, 30


def test_four_processes_recording_into_the_same_matches_lose_nothing(any_store):
    recorder = open_recorder(any_store)
    shared = [str(recorder.start("topitop", ["Ann", "Ben"])) for _ in range(2)]
    with multiprocessing.get_context("spawn").Pool(WRITERS) as pool:
        results = pool.starmap(
            write, [(any_store, shared, seed, ATTEMPTS) for seed in range(WRITERS)]
        )
    accepted = sorted(a for r in results for a in r["accepted"])
    refused = sum(r["conflicts"] for r in results)
    assert len(accepted) + refused + sum(r["finished"] for r in results) == WRITERS * ATTEMPTS
    assert len(accepted) > ATTEMPTS, "the writers should have landed most of their moves"
    for match_id in shared:
        mine = [(version, move) for m, version, move in accepted if m == match_id]
        versions = [version for version, _ in mine]
        assert versions == list(range(2, len(mine) + 2)), "each position was won exactly once"
        stored = open_recorder(any_store).get(match_id)
        assert [m["move"] for m in stored.moves] == [move for _, move in mine]
    recorder.close()
