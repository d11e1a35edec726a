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
from tablelog.tune.study import StudyError, cancel, counted, load

from .helpers import attrs, space_file, study_id, trials, tuned


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
            try:
                study, _ = load(storage_url(store), name)
            except StudyError:  # made by Optuna, its settings not written yet: poll again
                continue
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
    confirmation = report_of(store, name)["confirmation"]
    assert confirmation is not None and confirmation["seeds"] == [41, 14]


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


class CancellingBar:
    """The command's progress bar, standing in to cancel the study at a fixed point of its run:
    `at="candidate"` when the first candidate's end is reported (the study's end-of-trial
    check comes after it), `at="match"` when the confirmation's bar is made (before its first
    match). The points are steps of the run, not moments: nothing here depends on timing."""

    def __init__(self, store: str, at: str, unit: str) -> None:
        self.store, self.at, self.unit, self.n = store, at, unit, 0
        if unit == at == "match":
            self.cancel()

    def cancel(self) -> None:
        url = storage_url(self.store)
        for name in optuna.get_all_study_names(open_storage(url)):
            cancel(url, name)

    def update(self, n: int) -> None:
        self.n += n
        if self.unit == self.at == "candidate" and self.n:
            self.cancel()

    def __enter__(self) -> CancellingBar:
        return self

    def __exit__(self, *_: object) -> None:
        return None


@pytest.mark.parametrize("at", ["candidate", "match"])
def test_a_cancel_at_any_step_of_the_run_exits_130_with_the_study_cancelled(
    tmp_path, monkeypatch, at
):
    """The CI failure's cause: a cancel seen by the end-of-trial check, but not yet by the
    study's once-a-second look, left the study "searched"; its confirmation then met the cancel
    and the command died of it (exit 1). Now the study is "cancelled" whichever step saw it."""
    store = str(tmp_path / "s.sqlite")
    monkeypatch.setattr(
        "tablelog.tune.command._bar", lambda given, total, unit: CancellingBar(store, at, unit)
    )
    code, said = tuned(store, space_file=space_file(tmp_path), trials=3)
    assert code == 130
    name = study_id(said)
    assert attrs(store, name)["state"] == "cancelled"
    assert any(line.startswith(f"study {name} (Topiary, cancelled)") for line in said)
    if at == "candidate":  # stopped after the first candidate: no seed spent, nothing confirmed
        assert len([t for t in trials(store, name) if t.values]) == 1
        assert attrs(store, name)["spent_seeds"] == []
    else:  # cut in the confirmation: its seeds were fixed and are spent, no verdict given
        assert attrs(store, name)["spent_seeds"] == [41, 14]
        assert "confirmation" not in attrs(store, name)
