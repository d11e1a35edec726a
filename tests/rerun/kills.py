"""kill -9 during writes (issue 42: 41 kills, nothing acknowledged lost). A writer process
records moves into one long match, noting each move once the recorder answered it stored; it is
killed with SIGKILL at a random moment (starting, between writes or inside one), and again, one
writer after another on the same match. Counted: a move noted as stored that the store does not
hold, a store that no longer reads (a traceback), and a stored move no writer made."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from uuid import UUID

from tablelog.store import open_recorder
from tests.long_matches import OPENING, SHUFFLE
from tests.rerun.tally import Tally

ROOT = Path(__file__).resolve().parents[2]


def nth_move(number: int) -> tuple[int, dict]:
    """The `number`th move of tests/long_matches.py's endless legal Topitop match."""
    return OPENING[number] if number < 2 else SHUFFLE[(number - 2) % 4]


def run(store: str, folder: Path, size: int) -> Tally:
    tally = Tally("kill -9 during writes").measures(
        "tracebacks", "stored_but_refused", "said_stored_but_lost"
    )
    recorder = open_recorder(store)
    match_id = str(recorder.start("topitop", ["Ann", "Ben"]))
    recorder.close()
    noted = folder / "noted.jsonl"
    rng = random.Random(42)
    for _ in range(max(3, size // 25)):
        writer = subprocess.Popen(
            [sys.executable, "-m", "tests.rerun.kills", store, match_id, str(noted)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        writing(noted, writer)  # past its start: the kill falls among the writes
        time.sleep(rng.uniform(0.0, 1.5))
        if writer.poll() is not None:  # it stopped by itself: a write failed
            tally.add("tracebacks", f"a writer stopped with status {writer.returncode}")
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        tally.tried += 1
        check(store, match_id, noted, tally)
    done = len(noted.read_text().splitlines()) if noted.exists() else 0
    tally.category += f", {done} moves answered stored"
    return tally


def writing(noted: Path, writer: subprocess.Popen, wait: float = 60) -> None:
    """Back once the writer has noted a move (or stopped, or a minute has gone)."""
    already = noted.stat().st_size if noted.exists() else 0
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and writer.poll() is None:
        if noted.exists() and noted.stat().st_size > already:
            return
        time.sleep(0.05)


def check(store: str, match_id: str, noted: Path, tally: Tally) -> None:
    try:
        reader = open_recorder(store)
        stored = [m["move"] for m in reader.get(UUID(match_id)).moves]
        reader.close()
    except Exception as err:  # noqa: BLE001 - a store a kill broke, whatever it raises
        tally.add("tracebacks", f"the store no longer reads after a kill: {err!r}")
        return
    lines = noted.read_text().splitlines() if noted.exists() else []
    for line in lines:
        if not line.endswith("}"):
            continue  # the note itself cut short by the kill: the move may or may not be stored
        number, move = json.loads(line)
        if number >= len(stored) or stored[number] != move:
            tally.add("said_stored_but_lost", f"move {number} was answered stored: {move}")
    made = [nth_move(number)[1] for number in range(len(stored))]
    if stored != made:
        tally.add("stored_but_refused", f"the store holds moves no writer made: {stored[-3:]}")


def write_forever(store: str, match_id: str, noted: str) -> None:
    """Record the match's next move, note it once stored, and again, until killed."""
    recorder = open_recorder(store)
    note = os.open(noted, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    while True:
        match = recorder.get(UUID(match_id))
        number = len(match.moves)
        seat, move = nth_move(number)
        recorder.record(match.id, seat, move, expected_version=match.version)
        os.write(note, (json.dumps([number, move]) + "\n").encode())


if __name__ == "__main__":
    write_forever(*sys.argv[1:4])
