"""`tablelog experiment` as a person runs it, in real processes: bad numbers and work of hours
refused in one line before the store is touched; a run stopped by Ctrl-C or by
`tablelog experiment cancel` from another terminal keeps what it stored, whole and listed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli import main
from tablelog.lab.store import LabStore
from tablelog.simulation import cores
from tablelog.store import open_recorder

LIVENESS = 180  # seconds: only a stop that never happens runs into it


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["skill", "topitop", "--alpha", "0"], "--alpha, the level of the tests, must be between"),
        (["skill", "topitop", "--alpha", "1"], "must be between 0 and 1, got 1.0"),
        (["skill", "topitop", "--alpha", "nan"], "must be between 0 and 1, got nan"),
        (["variants", "topitop", "--a", "small=2", "--alpha", "-0.5"], "got -0.5"),
        (["skill", "topitop", "--workers", "4000"], "the cores of this machine, got 4000"),
        (["skill", "topitop", "--workers", "0"], "--workers must be 1 or more, got 0"),
        (["skill", "topitop", "--players", "0"], "Topitop experiments are for 2-2 players, not 0"),
        (["restriction", "topitop", "never-place-sand", "--players", "-5"], "not -5"),
        (["skill", "topitop", "-n", str(10**40)], "-n, matches per arm, must be 2-100000"),
        (["humans", "topitop", "--sample", "-1"], "must be 0-500, got -1"),
        (["humans", "topitop", "--sample", "100000"], "must be 0-500, got 100000"),
        (["humans", "topitop", "--players", "-5"], "Topitop is for 2 players, not -5"),
        # The request on the command line, with more matches so that no machine runs
        # it within the hour: refused with the estimate, before anything starts.
        (
            ["skill", "topitop", "--budgets", "1,100000", "-n", "400"],
            "the limit is 1 hour: ask for fewer matches or smaller budgets, or add --yes",
        ),
    ],
)
def test_bad_numbers_and_hours_of_work_are_one_line_and_touch_nothing(tmp_path, args, words):
    store = tmp_path / "store.sqlite"
    result = CliRunner().invoke(main, ["experiment", *args, "--store", str(store)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("tablelog: ") and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not store.exists()


def test_the_estimate_of_hours_is_in_the_message(tmp_path):
    store = tmp_path / "store.sqlite"
    args = ["skill", "topitop", "--budgets", "1,100000", "-n", "400", "--store", str(store)]
    result = CliRunner().invoke(main, ["experiment", *args])
    # e.g. "would take about 85 days here (measured just now: a Topitop match about 36 moves,
    # a search iteration 1.9 ms)"
    assert "this experiment would take about " in result.stderr
    assert " here (measured just now: a Topitop match about " in result.stderr
    assert "a search iteration " in result.stderr


def test_workers_up_to_the_cores_are_taken(store):
    args = ["skill", "topitop", "--budgets", "1,2", "-n", "2", "--quiet", "--json"]
    result = CliRunner().invoke(
        main, ["experiment", *args, "--workers", str(cores()), "--store", store]
    )
    assert result.exit_code == 0, result.output


def started(store: Path, *args: str) -> tuple[subprocess.Popen, str]:
    """`tablelog experiment ARGS` in its own process, and the experiment's id (its first line
    on stderr names it)."""
    command = [sys.executable, "-m", "tablelog", "experiment", *args, "--store", str(store)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    first = process.stderr.readline()
    assert first.startswith("experiment ") and "tablelog experiment cancel" in first, first
    return process, first.split()[1].rstrip(":")


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + LIVENESS
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.slow
def test_cancel_from_another_terminal_stops_a_search_of_hours(tmp_path):
    store = tmp_path / "store.sqlite"
    process, experiment_id = started(
        store, "skill", "topitop", "--budgets", "1,100000", "-n", "2", "--yes"
    )
    try:
        lab = LabStore(open_recorder(str(store)))
        wait_for(lambda: lab.status(experiment_id) == "running", "it never started")
        cancel = subprocess.run(
            [sys.executable, "-m", "tablelog", "experiment", "cancel", experiment_id[:8]]
            + ["--store", str(store)],
            capture_output=True,
            text=True,
            timeout=LIVENESS,
        )
        _, err = process.communicate(timeout=LIVENESS)
    finally:
        process.kill()
    assert cancel.returncode == 0, cancel.stderr
    assert cancel.stdout == f"experiment {experiment_id[:8]}: cancelled after 0 of 2 matches\n"
    assert process.returncode == 130 and "Traceback" not in err
    assert "cancelled after 0 of 2 matches: the matches stored so far are whole" in err
    again = CliRunner().invoke(main, ["experiment", "cancel", experiment_id, "--store", str(store)])
    assert again.exit_code == 2 and "is no longer running (cancelled after 0 of 2" in again.stderr


@pytest.mark.slow
def test_ctrl_c_keeps_the_stored_matches_whole_and_listed(tmp_path):
    store = tmp_path / "store.sqlite"
    process, experiment_id = started(
        store, "restriction", "topitop", "never-place-sand", "-n", "100000", "--yes"
    )
    try:
        lab = LabStore(open_recorder(str(store)))
        wait_for(
            lambda: lab.status(experiment_id) and lab.get(experiment_id)["stored"] >= 20,
            "no batch was stored",
        )
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=LIVENESS)
    finally:
        process.kill()
    assert process.returncode == 130 and "Traceback" not in err
    found = lab.get(experiment_id)
    listed = found["match_ids"]["never-place-sand"]
    assert found["state"] == f"cancelled after {len(listed)} of 100000 matches"
    assert f"cancelled after {len(listed)} of 100000 matches: the matches stored" in err
    recorder = open_recorder(str(store))
    stored = [str(started.originator_id) for started in recorder.started()]
    assert sorted(stored) == sorted(listed)  # nothing stored unlisted, nothing half-stored
    assert all(recorder.get(match_id).status == "ended" for match_id in listed)
    shown = CliRunner().invoke(main, ["experiment", "list", "--store", str(store)])
    assert f"cancelled after {len(listed)} of 100000 matches" in shown.output
