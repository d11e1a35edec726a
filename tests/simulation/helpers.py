"""What the simulation tests share: running the command, reading a store back as records."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from tablelog.domain.match import event_hash
from tablelog.store import open_recorder


def run(store: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "TABLELOG_STORE": store}
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args, "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def exports(store: str) -> list[dict[str, Any]]:
    """Every match of the store as a record, in the order the matches were stored."""
    recorder = open_recorder(store)
    try:
        return [recorder.export(started.originator_id) for started in recorder.started()]
    finally:
        recorder.close()


def without_ids_and_times(record: dict[str, Any]) -> dict[str, Any]:
    """A record as far as two runs of the same simulation must agree: all but ids and clocks
    (and the hashes, which are taken over both)."""
    kept = {key: value for key, value in record.items() if key not in ("id", "started_at", "hash")}
    kept["events"] = [
        {k: v for k, v in entry.items() if k not in ("at", "hash")} for entry in record["events"]
    ]
    return kept


def chain_is_whole(events: list[Any]) -> bool:
    """Every stored event names the hash of the one before it (the first names none)."""
    previous = ""
    for event in events:
        if event.prev_hash != previous:
            return False
        previous = event_hash(event)
    return True
