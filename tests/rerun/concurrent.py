"""Concurrent writes (issue 42: 2,347 of them, nothing lost): four processes racing on the same
matches with tests/writers.py's `write` (read a match, record a legal move against the version
read), `size` attempts in all. Counted: a move answered stored that the store does not hold at
that step, and a move the store holds that no writer was told was stored."""

from __future__ import annotations

import multiprocessing

from tablelog.store import open_recorder
from tests.rerun.tally import Tally
from tests.writers import write

WRITERS = 4


def run(store: str, size: int) -> Tally:
    tally = Tally("concurrent writes").measures("stored_but_refused", "said_stored_but_lost")
    recorder = open_recorder(store)
    shared = [str(recorder.start("topitop", ["Ann", "Ben"])) for _ in range(max(2, size // 40))]
    recorder.close()
    attempts = max(1, size // WRITERS)
    with multiprocessing.get_context("spawn").Pool(WRITERS) as pool:
        results = pool.starmap(write, [(store, shared, seed, attempts) for seed in range(WRITERS)])
    tally.tried = WRITERS * attempts
    accepted = [a for r in results for a in r["accepted"]]
    reader = open_recorder(store)
    for match_id in shared:
        told = {version: move for m, version, move in accepted if m == match_id}
        stored = [m["move"] for m in reader.get(match_id).moves]
        for version, move in sorted(told.items()):
            step = version - 2  # the first move makes version 2
            if step >= len(stored) or stored[step] != move:
                tally.add("said_stored_but_lost", f"match {match_id} version {version}: {move}")
        for extra in range(len(told), len(stored)):
            tally.add("stored_but_refused", f"match {match_id}: move {extra + 1} told to no one")
        if len(told) != len([a for a in accepted if a[0] == match_id]):
            tally.add("said_stored_but_lost", f"match {match_id}: one version told twice")
    reader.close()
    return tally
