"""The lab's endpoints on long work: a start estimated over an hour is refused with the
estimate; the budgets, sample sizes and level are bounded in the request schema; a running
experiment is cancelled by POST .../cancel, whichever process runs it, and the next one may
start."""

from __future__ import annotations

import pytest

from tablelog import lab
from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli.serve import build_app
from tablelog.lab.store import LabStore

from .test_cancel import in_background, wait_for

LONG = {"kind": "skill", "game": "topitop", "budgets": [1, 64], "matches": 400}  # minutes


@pytest.fixture
def served(store):
    return build_app(store, WritePolicy(), refresh=None).server.test_client()


def test_a_running_experiment_is_cancelled_and_the_next_may_start(served):
    started = served.post("/api/v1/lab/experiments", json=LONG)
    assert started.status_code == 202, started.get_json()
    experiment_id = started.get_json()["id"]
    busy = served.post("/api/v1/lab/experiments", json=LONG)
    assert busy.status_code == 422
    assert f"already running here ({experiment_id[:8]}, " in busy.get_json()["message"]
    assert "or cancel it" in busy.get_json()["message"]
    wait_for(
        lambda: served.get(f"/api/v1/lab/experiments/{experiment_id}").status_code == 200,
        "its row was never written",
    )
    stopped = served.post(f"/api/v1/lab/experiments/{experiment_id[:8]}/cancel", json={})
    assert stopped.status_code == 200, stopped.get_json()
    body = stopped.get_json()
    assert body["status"] == "cancelled" and body["planned"] == 400
    assert body["state"] == f"cancelled after {body['stored']} of 400 matches"
    progress = served.get("/api/v1/lab/progress").get_json()
    assert progress["state"] == "cancelled" and progress["id"] == experiment_id
    again = served.post(f"/api/v1/lab/experiments/{experiment_id}/cancel", json={})
    assert again.status_code == 409 and again.get_json()["error"] == "not-running"
    assert "there is nothing to cancel" in again.get_json()["message"]
    following = served.post("/api/v1/lab/experiments", json=LONG)
    assert following.status_code == 202, following.get_json()
    assert served.post(f"/api/v1/lab/experiments/{following.get_json()['id']}/cancel", json={})


def test_the_api_alone_cancels_an_experiment_another_process_runs(recorder):
    client = create_app(recorder, WritePolicy()).test_client()
    definition = lab.skill("topitop", [1, 100_000], matches=2, seed=4)
    experiment_id, thread, outcome = in_background(recorder, definition)
    stopped = client.post(f"/api/v1/lab/experiments/{experiment_id}/cancel", json={})
    assert stopped.status_code == 200, stopped.get_json()
    assert stopped.get_json()["state"] == "cancelled after 0 of 2 matches"
    thread.join(180)
    assert not thread.is_alive() and "cancelled" in outcome
    assert client.post("/api/v1/lab/experiments/ffffffff/cancel", json={}).status_code == 404


def test_the_issue_s_request_is_refused_with_the_estimate(served, store):
    # [1, 100000] on 2 matches was accepted and ran out of sight; on 400 matches no machine
    # runs it within the hour.
    body = {"kind": "skill", "game": "topitop", "budgets": [1, 100_000], "matches": 400}
    answer = served.post("/api/v1/lab/experiments", json=body)
    assert answer.status_code == 422
    message = answer.get_json()["message"]
    assert message.startswith("this experiment would take about ")
    assert "the limit is 1 hour: ask for fewer matches or smaller budgets" in message
    assert "--yes" not in message  # the command line's way out, not the API's
    assert served.get("/api/v1/lab/progress").get_json()["state"] == "idle"


@pytest.mark.parametrize(
    "fields",
    [
        {"alpha": 0},
        {"alpha": 1},
        {"alpha": -0.1},
        {"budgets": [1, 100_001]},
        {"budgets": list(range(1, 14))},
        {"matches": 401},
        {"matches": 1},
        {"agent": "mcts-1" + "0" * 80},
        {"seed": -1},
    ],
)
def test_the_request_schema_bounds_the_work(served, fields):
    answer = served.post("/api/v1/lab/experiments", json={**LONG, **fields})
    assert answer.status_code == 400, answer.get_json()
    assert served.get("/api/v1/lab/progress").get_json()["state"] == "idle"


def test_humans_sample_is_bounded(served):
    answer = served.get("/api/v1/lab/humans/topitop?sample=501")
    assert answer.status_code == 400


def test_cancel_takes_an_empty_body_only(served, recorder):
    LabStore(recorder).create("0badc0de-0000-4000-8000-000000000000", LONG | {"arms": []})
    answer = served.post("/api/v1/lab/experiments/0badc0de/cancel", json={"why": "late"})
    assert answer.status_code == 400
    assert LabStore(recorder).status("0badc0de-0000-4000-8000-000000000000") == "running"
