"""A study stopped from outside keeps every finished trial: after kill -9 `--resume ID` plays on
to the trials asked for; `tablelog tune cancel ID` stops it after the rung in hand."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import optuna
import pytest
from optuna.trial import TrialState

from tablelog.tune.command import report_of
from tablelog.tune.storage import open_storage, storage_url
from tablelog.tune.study import counted, load

from .helpers import space_file, trials, tuned


def started(store: str, space: str, trials_asked: int) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "tablelog", "tune", "topiary", "--space", space,
        "--players", "2", "--bots", "random", "--trials", str(trials_asked),
        "--matches-per-trial", "64", "--confirm-matches", "8", "--confirm-seeds", "41,14",
        "--seed", "5", "--quiet", "--store", store,
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def first_finished(store: str, process: subprocess.Popen) -> str:
    """The study's id once one of its trials has finished (polled; no time is asserted)."""
    storage = open_storage(storage_url(store))
    while process.poll() is None:
        names = optuna.get_all_study_names(storage)
        for name in names:
            study, _ = load(storage_url(store), name)
            if study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
                return name
        time.sleep(0.2)
    raise AssertionError(f"the study ended first: {process.communicate()}")


def test_a_study_killed_resumes_to_the_trials_asked_for(tmp_path):
    store = str(tmp_path / "s.sqlite")
    process = started(store, space_file(tmp_path), trials_asked=3)
    name = first_finished(store, process)
    kept = [(t.number, t.params, t.values) for t in trials(store, name) if t.values]
    process.send_signal(signal.SIGKILL)
    process.wait()
    code, _ = tuned(store, resume_id=name, trials=None)
    assert code == 0
    after = trials(store, name)
    assert {t.state for t in after} <= {TrialState.COMPLETE, TrialState.PRUNED, TrialState.FAIL}
    assert [(t.number, t.params, t.values) for t in after][: len(kept)] == kept
    study, _ = load(storage_url(store), name)
    assert counted(study)[0] == 3
    assert report_of(store, name)["confirmation"]["seeds"] == [41, 14]


@pytest.mark.xfail(
    strict=False,
    reason="in CI the cancelled study once exited 1, not 130 (issue 46, open: to be found)",
)
def test_a_cancelled_study_keeps_its_finished_trials_and_confirms_nothing(tmp_path):
    store = str(tmp_path / "s.sqlite")
    process = started(store, space_file(tmp_path), trials_asked=200)
    name = first_finished(store, process)
    cancelled = subprocess.run(
        [sys.executable, "-m", "tablelog", "tune", "cancel", name, "--store", store],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "asked to stop" in cancelled.stdout
    out, _ = process.communicate()
    assert process.returncode == 130
    every = trials(store, name)
    assert TrialState.RUNNING not in {t.state for t in every}
    assert [t for t in every if t.state == TrialState.COMPLETE]
    assert len(every) < 200
    report = report_of(store, name)
    assert report["state"] == "cancelled" and report["spent_seeds"] == []
    assert f"study {name} (Topiary, cancelled)" in out
