"""`tablelog solve` and `tablelog analyse` as a user runs them, on the mini game (2 small and 2
large sand piles), with the solved table built into a temporary data directory."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from tablelog.domain.games.topitop.rules import RULES
from tests.cli_runs import invoked

MINI = ["--option", "small=2", "--option", "large=2"]


@pytest.fixture(scope="module")
def data_home(tmp_path_factory):
    return str(tmp_path_factory.mktemp("xdg"))


def run(data_home, store, *args):
    env = {**os.environ, "XDG_DATA_HOME": data_home, "TABLELOG_STORE": store}
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def solved(data_home, tmp_path_factory):
    """Solve once (stored under the temporary data home) and load the table in-process."""
    store = str(tmp_path_factory.mktemp("s") / "s.sqlite")
    first = run(data_home, store, "solve", "topitop", *MINI, "--json")
    assert first.returncode == 0, first.stderr
    from tablelog.domain.solvers.topitop import load

    path = os.path.join(data_home, "tablelog", "solved", "topitop-small2-large2.npz")
    return json.loads(first.stdout), load(path)


def test_solving_stores_the_table_and_a_second_run_loads_it(solved, data_home, store):
    first, table = solved
    assert first["built_now"] and first["positions"] == table.counts
    again = run(data_home, store, "solve", "topitop", *MINI, "--json")
    assert json.loads(again.stdout)["built_now"] is False
    assert json.loads(again.stdout)["start"] == first["start"]
    assert (
        first["start"]["value"]
        == table.lookup(RULES.start(2, RULES.options({"small": 2, "large": 2}), {}))[0]
    )


def blunder_line(table):
    """A line of play to a position where the mover can win, then a move that throws it away."""
    rng = random.Random(5)
    for _ in range(200):
        state = RULES.start(2, RULES.options({"small": 2, "large": 2}), {})
        moves: list[dict[str, Any]] = []
        for _ in range(30):
            if RULES.outcome(state):
                break
            if table.lookup(state)[0] == "win":
                for move in RULES.legal_moves(state):
                    if table.lookup(RULES.apply(state, move))[0] != "lose":
                        return moves, move
            move = RULES.random_move(state, rng)
            moves.append(move)
            state = RULES.apply(state, move)
    raise AssertionError("no blunder found")


def test_analyse_flags_the_move_that_threw_away_a_win(solved, data_home, store):
    _, table = solved
    moves, blunder = blunder_line(table)
    # Entering the game needs no solved table: in this process (tests/cli_runs.py). Analysing
    # reads the table from the data home, which a process fixes when it starts: a new one.
    at = {"TABLELOG_STORE": store}
    match = invoked("new", "topitop", "--players", "Ann,Ben", *MINI, env=at).stdout.strip()
    for number, move in enumerate(moves + [blunder]):
        seat = "1" if number % 2 == 0 else "2"
        moved = invoked("move", match, "--seat", seat, json.dumps(move), env=at)
        assert moved.returncode == 0
    report = json.loads(run(data_home, store, "analyse", match, "--json").stdout)
    assert report["blunders"][-1] == len(moves) + 1
    last = report["moves"][-1]
    assert last["value_before"] == "win" and last["value_after"] != "win"
    text = run(data_home, store, "analyse", match).stdout
    assert "BLUNDER" in text.splitlines()[len(moves)]


def test_only_topitop_is_analysed(data_home, store):
    match = run(data_home, store, "new", "total-landscaping", "--players", "Ann,Ben").stdout.strip()
    result = run(data_home, store, "analyse", match)
    assert result.returncode == 2 and "only Topitop is solved" in result.stderr
