"""Cancelling an experiment: from the process that runs it or any other (through its row), on
SQLite and PostgreSQL, within a long MCTS search as between matches. What was stored before
the cancel stays, whole and listed; nothing half-played is ever stored; the row says
"cancelled after N of M matches"."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import uuid4

import pytest

from tablelog import lab
from tablelog.lab.run import Cancelled, run
from tablelog.lab.store import LabStore, NotRunning

LIVENESS = 180  # seconds: far more than a cancel takes, so only a cancel that never acts fails


def wait_for(condition: Callable[[], Any], what: str) -> None:
    deadline = time.monotonic() + LIVENESS
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def in_background(recorder, definition: lab.Definition) -> tuple[str, threading.Thread, dict]:
    """Run the experiment in a thread, as the server does: its id, the thread, its outcome."""
    experiment_id = str(uuid4())
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["report"] = run(recorder, definition, experiment_id=experiment_id)
        except Cancelled as err:
            outcome["cancelled"] = err.experiment

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    store = LabStore(recorder)
    wait_for(lambda: store.status(experiment_id) == "running", "the experiment never started")
    return experiment_id, thread, outcome


def test_a_cancel_stops_a_search_of_hours_at_once(any_recorder):
    # One decision of mcts-100000 takes minutes: only stopping the search itself ends this.
    definition = lab.skill("topitop", [1, 100_000], matches=2, seed=1)
    experiment_id, thread, outcome = in_background(any_recorder, definition)
    stopped, answered = LabStore(any_recorder).cancel(experiment_id[:8])
    thread.join(LIVENESS)
    assert answered and not thread.is_alive()
    assert stopped["status"] == "cancelled" and stopped["report"] is None
    assert stopped["state"] == "cancelled after 0 of 2 matches"
    assert outcome["cancelled"]["id"] == experiment_id
    assert list(any_recorder.started()) == []  # the match being played was never stored


def test_matches_stored_before_a_cancel_are_kept_whole_and_listed(any_recorder):
    definition = lab.restriction("topitop", "never-place-sand", matches=100_000, seed=2)
    experiment_id, thread, _ = in_background(any_recorder, definition)
    store = LabStore(any_recorder)
    wait_for(lambda: store.get(experiment_id)["stored"] >= 20, "no batch was stored")
    stopped, answered = store.cancel(experiment_id)
    thread.join(LIVENESS)
    assert answered and not thread.is_alive()
    listed = stopped["match_ids"]["never-place-sand"]
    assert stopped["state"] == f"cancelled after {len(listed)} of 100000 matches"
    stored = [started.originator_id for started in any_recorder.started()]
    assert sorted(map(str, stored)) == sorted(listed)  # every stored match listed, and no other
    for match_id in listed:
        assert any_recorder.get(match_id).status == "ended"


def test_a_cancel_that_nobody_answers_marks_the_experiment_cancelled(any_recorder):
    # The process running it was killed: its row says "running" and nobody is there.
    store = LabStore(any_recorder)
    definition = lab.skill("topas", [1, 2], matches=3)
    store.create("0badc0de-0000-4000-8000-000000000000", definition.to_json())
    stopped, answered = store.cancel("0badc0de", wait=0.2)
    assert not answered and stopped["state"] == "cancelled after 0 of 3 matches"
    with pytest.raises(NotRunning, match=r"no longer running \(cancelled after 0 of 3 matches\)"):
        store.cancel("0badc0de")


def test_a_finished_experiment_cannot_be_cancelled(recorder):
    experiment_id, _ = run(recorder, lab.skill("topitop", [1, 2], matches=2, seed=3))
    with pytest.raises(NotRunning, match=r"\(done: 2 matches\): there is nothing to cancel"):
        LabStore(recorder).cancel(experiment_id)
    assert LabStore(recorder).get(experiment_id)["status"] == "done"
