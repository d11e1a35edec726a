"""Two processes recording into one SQLite store at once lose nothing and duplicate nothing."""

from __future__ import annotations

import multiprocessing

from tablelog.store import open_recorder
from tests.writers import write


def test_two_processes_recording_at_once_lose_nothing(store):
    recorder = open_recorder(store)
    shared = recorder.start("topitop", ["Ann", "Ben"])
    own = [recorder.start("topitop", ["Cat", "Dan"]) for _ in range(2)]
    rounds = 25
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(write, [(store, str(shared), str(own[i]), i, rounds)
                                       for i in range(2)])
    # Each writer's own match holds exactly the moves it made.
    for match_id, result in zip(own, results):
        assert len(recorder.get(match_id).moves) == result["own_moves"] > 0
    # The shared match holds every accepted move once, in the order the store accepted them.
    accepted = sorted(a for r in results for a in r["accepted"])
    versions = [version for version, _ in accepted]
    assert len(versions) == len(set(versions)), "two writers were both told their move landed"
    stored = recorder.get(shared)
    assert [m["move"] for m in stored.moves] == [move for _, move in accepted]
    assert sum(r["refused"] for r in results) + len(accepted) >= rounds
