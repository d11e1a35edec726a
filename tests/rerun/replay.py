"""The snapshot/undo replay check (issue 42: a snapshot shared the match's lists, so the Match
page said "11 undone" where the store held 10 undos). One long match of moves, undos and claims
(tests/long_matches.py's `random_steps`), recorded with snapshots taken often by saves and by
long reads, with reads of random steps among the writes; then `size` steps read back with
snapshots, each compared whole (state, moves, undos, claims, head hash: tests/snapshot_steps.py's
`picture`) with a replay of every event by a reader that never uses snapshots."""

from __future__ import annotations

import random

from tablelog.domain.matches.match import Match
from tablelog.store import open_recorder, store_env
from tests.long_matches import random_steps
from tests.rerun.tally import Tally
from tests.snapshot_steps import picture
from tests.test_snapshot_properties import Unsnapshotted


def run(store: str, size: int) -> Tally:
    tally = Tally("snapshot/undo replay").measures("tracebacks", "wrong_replays")
    recorder = open_recorder(store)
    recorder.snapshot_every, recorder.read_through = 7, 11
    reader = open_recorder(store)  # another process's view: reads, and snapshots as it reads
    reader.read_through = 5
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    rng = random.Random(42)
    for kind, value in random_steps(42, size * 5):
        if kind == "move":
            recorder.record(match_id, *value)
        elif kind == "undo":
            recorder.undo(match_id, "Ann", "a slip")
        else:
            recorder.claim(match_id, "Ben", value)
        if rng.random() < 0.2:
            latest = recorder.get(match_id).version - Match.INITIAL_VERSION
            reader.get(match_id, rng.randint(0, latest))  # a long read, leaving snapshots
    replayer = Unsnapshotted(env=store_env(store))
    latest = replayer.get(match_id).version - Match.INITIAL_VERSION
    steps = sorted({latest, *(rng.randint(0, latest) for _ in range(size - 1))})
    for step in steps:
        tally.tried += 1
        replayed = picture(replayer.get(match_id, step))
        for who in (recorder, reader):
            try:
                read = picture(who.get(match_id, step))
            except Exception as err:  # noqa: BLE001 - counted, whatever it is
                tally.add("tracebacks", f"step {step}: {err!r}")
                continue
            if read != replayed:
                differs = [part for part in replayed if read.get(part) != replayed[part]]
                tally.add("wrong_replays", f"step {step} of {latest}: {', '.join(differs)}")
    for one in (recorder, reader, replayer):
        one.close()
    return tally
