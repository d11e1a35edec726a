"""`tablelog simulate` and `tablelog demo` as a user runs them: real processes, real files."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tablelog.demo import build_demo_store
from tablelog.domain.games import GAMES
from tablelog.domain.matches.records import from_record

from .helpers import exports, run, without_ids_and_times


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["chess"], "unknown game 'chess'"),
        (["topitop", "--bots", "smart"], "unknown bot 'smart'; bots: random, greedy"),
        (["topitop", "--bots", "greedy,"], "unknown bot ''"),
        (["topitop", "-n", "0"], "must be 1 to 1,000,000 (a larger study is several runs"),
        (["topitop", "-n", "-3"], "got -3"),
        (
            ["topitop", "-n", str(10**40)],
            f"with different seeds), got {10**40}",
        ),
        (["topitop", "--players", "3"], "Topitop is for 2 players, not 3"),
        (["topiary", "--players", "5"], "is for 2-4 players, not 5"),
        (["topiary", "--players", "3", "--bots", "greedy,random"], "2 bots for 3 players"),
        (["topitop", "--option", "small=many"], "option small must be a whole number"),
        (["topitop", "--workers", "0"], "--workers must be 1 or more"),
        (["topitop", "--workers", "4000", "-n", "2"], "the cores of this machine, got 4000"),
        (["topitop", "--cluster", "local", "--workers", "4000"], "the cores of this machine"),
    ],
)
def test_bad_arguments_give_one_line_and_store_nothing(tmp_path, args, words):
    store = tmp_path / "store.sqlite"
    result = run(str(store), "simulate", *args)
    assert result.returncode == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not store.exists()  # not even an empty store was created


def stored_matches(path: Path) -> int:
    if not path.exists():  # sqlite3.connect would create it empty, which is not a store
        return 0
    try:
        with sqlite3.connect(path, timeout=10) as db:
            return db.execute(
                "SELECT count(*) FROM stored_events WHERE topic LIKE '%Started'"
            ).fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_the_finished_matches_whole_and_nothing_else(tmp_path, workers):
    store = tmp_path / "store.sqlite"
    command = [
        sys.executable,
        "-m",
        "tablelog",
        "simulate",
        "topitop",
        "-n",
        "100000",
        "--seed",
        "4",
        "--workers",
        workers,
        "--store",
        str(store),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while stored_matches(store) == 0:  # wait for the first batch to be stored
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no batch was stored in 2 minutes"
            time.sleep(0.05)
        time.sleep(0.3)  # and interrupt midway through the next one
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert out.startswith("interrupted: stored ") and "Traceback" not in err
    records = exports(str(store))
    reported = int(out.split()[2])
    assert 0 < len(records) == reported < 100000
    for record in records:  # every stored match is ended and replays through the rules
        assert record["events"][-1]["type"] == "end"
        assert from_record(record).status == "ended"
    with sqlite3.connect(store) as db:  # and no event of any other match was stored
        ids = {row[0] for row in db.execute("SELECT DISTINCT originator_id FROM stored_events")}
    assert len(ids) == len(records)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo store, built once by the command."""
    store = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    result = run(str(store), "demo")
    assert result.returncode == 0, result.stderr
    return store, result.stdout, exports(str(store))


@pytest.mark.slow
def test_the_demo_store_has_every_game_and_a_few_hundred_matches(demo):
    store, out, records = demo
    games = Counter(record["game"] for record in records)
    assert set(games) == set(GAMES)
    assert 200 <= len(records) <= 600
    assert all(count >= 20 for count in games.values())
    assert {len(record["seats"]) for record in records} >= {1, 2, 3, 4}
    assert {seat.split("-")[0] for r in records for seat in r["seats"]} == {"random", "greedy"}
    assert f"{len(records)} matches of {len(GAMES)} games" in out
    assert not Path(f"{store}.building").exists() and not Path(f"{store}-wal").exists()


@pytest.mark.slow
def test_the_demo_store_shows_every_status_and_kind_of_entry(demo):
    _, _, records = demo
    kinds = Counter(entry["type"] for record in records for entry in record["events"])
    assert {"move", "undo", "claim", "dispute", "resolve", "end", "abandon"} <= set(kinds)
    last = Counter(record["events"][-1]["type"] for record in records)
    assert last["move"] >= 1  # a match still running
    open_disputes = [
        r
        for r in records
        if sum(e["type"] == "dispute" for e in r["events"])
        > sum(e["type"] == "resolve" for e in r["events"])
    ]
    assert len(open_disputes) == 1
    rebuilt = [from_record(record) for record in records]  # all as checked as logged ones
    claimed = [match for match in rebuilt if match.claims]
    slips = [
        match
        for match in claimed
        if [entry["total"] for entry in match.rules.score(match.state)]
        != [match.claims[-1]["scores"][name] for name in match.seats]
    ]
    assert len(claimed) == 3 and len(slips) == 1  # one claim the recount contradicts


@pytest.mark.slow
def test_the_demo_is_built_the_same_every_time_and_never_over_an_existing_store(demo, tmp_path):
    store, _, records = demo
    again = tmp_path / "again.sqlite"
    build_demo_store(again, progress=False)
    assert [without_ids_and_times(r) for r in exports(str(again))] == [
        without_ids_and_times(r) for r in records
    ]
    result = run(str(store), "demo")
    assert result.returncode == 2 and "already exists" in result.stderr
    assert os.path.getsize(store) > 0
