"""`tablelog stats`, `export-tables`, `project` and `list` as a user runs them."""

from __future__ import annotations

import csv
import json

import pytest

from tests.test_cli import run
from tests.test_recorder import OPENING, WIN


@pytest.fixture
def store(any_store):
    """Every command here runs on an SQLite file and on a PostgreSQL database."""
    return any_store


def _record(store, moves, end=True):
    match_id = run(store, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    for seat, move in moves:
        assert run(store, "move", match_id, "--seat", seat, json.dumps(move)).returncode == 0
    if end:
        assert run(store, "end", match_id).returncode == 0
    return match_id


def test_stats_json_gives_matches_and_seat_win_rates_per_game(store):
    _record(store, WIN)
    _record(store, OPENING, end=False)
    done = run(store, "stats", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["topitop"]["matches"] == 1 and report["topitop"]["recorded"] == 2
    seats = report["topitop"]["seats"]
    assert [(s["seat"], s["matches"], s["wins"], s["rate"]) for s in seats] == [
        (1, 1, 1, 1.0),
        (2, 1, 0, 0.0),
    ]
    assert {"ci_low", "ci_high", "p_value"} <= set(seats[0])
    # One win in all: the exact test of both seats together (1 of 1 at 1/2) gives p = 1.
    (test,) = report["topitop"]["seat_test"]
    assert (test["method"], test["wins"], test["p_value"]) == ("exact multinomial", 1, 1.0)
    text = run(store, "stats", "topitop")
    assert "seat 1: 1/1" in text.stdout and "small" in text.stdout
    assert "is any seat favoured?" in text.stdout and "exact multinomial test" in text.stdout


def test_stats_of_an_unknown_game_is_refused(store):
    done = run(store, "stats", "chess")
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr


def test_export_tables_writes_one_file_per_table(store, tmp_path):
    match_id = _record(store, WIN)
    done = run(store, "export-tables", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "matches.csv") as f:
        (row,) = list(csv.DictReader(f))
    assert row["match_id"] == match_id and row["status"] == "ended"
    with open(tmp_path / "out" / "moves.csv") as f:
        assert len(list(csv.DictReader(f))) == len(WIN)
    assert (tmp_path / "out" / "ratings.csv").exists()


def test_list_reads_the_matches_table_and_stays_current(store):
    first = _record(store, OPENING, end=False)
    assert run(store, "project").stdout.startswith("tables up to date")
    assert run(store, "undo", first, "--by", "Ben", "--reason", "slip").returncode == 0
    (listed,) = json.loads(run(store, "list", "--json").stdout)
    assert (listed["id"], listed["status"], listed["moves"]) == (first, "running", 3)
    assert listed["outcome"] is None
