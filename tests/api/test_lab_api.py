"""The lab's endpoints: read experiments on any store; under the served app, start one, follow
its progress and read its report; the humans-against-bots report; refusals in the API's words."""

from __future__ import annotations

import re
import time

import pytest

from tablelog import lab
from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tablelog.lab.run import run
from tablelog.simulation import make_plan, simulate


def test_experiments_are_listed_and_read(client, recorder):
    experiment_id, report = run(recorder, lab.skill("topitop", [1, 2], matches=2, seed=1))
    listed = client.get("/api/v1/lab/experiments?game=topitop").get_json()["experiments"]
    assert [e["id"] for e in listed] == [experiment_id]
    one = client.get(f"/api/v1/lab/experiments/{experiment_id[:6]}").get_json()
    assert one["report"] == report and len(one["match_ids"]["mcts-2 vs mcts-1"]) == 2
    assert client.get("/api/v1/lab/experiments/ffffffff").status_code == 404


# A variant as a program writes it: a key with an underscore, key=value, a Python or JSON value.
RAW = re.compile(r"\w_\w|\w=|\b(?:True|False|None|true|false)\b|[{}]")


def test_a_reports_words_name_the_variants_as_every_screen_does(client, recorder):
    definition = lab.variants("topas", {}, {"expert": True}, matches=2, seed=1)
    experiment_id, _ = run(recorder, definition)
    words = client.get(f"/api/v1/lab/experiments/{experiment_id}").get_json()["report"]["words"]
    assert words[0].startswith("B (expert) against A (standard rules); 2 matches per arm")
    assert not any(RAW.search(line) for line in words), words


def test_the_api_alone_reads_but_does_not_start(client):
    answer = client.post("/api/v1/lab/experiments", json={"kind": "skill", "game": "topitop"})
    assert answer.status_code == 422 and "tablelog serve" in answer.get_json()["message"]
    shape = client.post("/api/v1/lab/experiments", json={"kind": "chess", "game": "topitop"})
    assert shape.status_code == 400


@pytest.fixture
def served(store):
    return build_app(store, WritePolicy(), refresh=None).server.test_client()


def test_the_served_api_starts_one_and_reports_it(served):
    body = {
        "kind": "restriction",
        "game": "topitop",
        "restriction": "never-place-sand",
        "matches": 4,
        "seed": 2,
    }
    answer = served.post("/api/v1/lab/experiments", json=body)
    assert answer.status_code == 202, answer.get_json()
    for _ in range(600):  # a few seconds; the run is small
        progress = served.get("/api/v1/lab/progress").get_json()
        if progress["state"] != "running":
            break
        time.sleep(0.05)
    assert progress["state"] == "done" and progress["done"] == progress["total"] == 4
    report = served.get(f"/api/v1/lab/experiments/{progress['id']}").get_json()["report"]
    assert (
        report["arms"][0]["head_to_head"]["decided"] + report["arms"][0]["head_to_head"]["draws"]
        == 4
    )
    bad = served.post("/api/v1/lab/experiments", json={**body, "restriction": "never-fly"})
    assert bad.status_code == 422 and "never-place-sand" in bad.get_json()["message"]


def test_humans_against_bots(client, recorder):
    simulate(recorder, make_plan("topitop", 6, seed=3), workers=1, progress=False)
    for _n in range(3):
        match_id = recorder.start("topitop", ["Ann", "Ben"])
        match = recorder.get(match_id)
        for move in ({"place": "large", "to": "a1"}, {"place": "large", "to": "c3"}):
            recorder.record(match_id, match.rules.to_move(recorder.get(match_id).state)[0], move)
        recorder.end(match_id, agreed_draw=True)
    report = client.get("/api/v1/lab/humans/topitop?sample=2").get_json()
    arms = {arm["name"]: arm for arm in report["arms"]}
    assert arms["humans"]["matches"] == 3 and arms["bots"]["matches"] == 6
    assert arms["bots"]["replayed"] == 2
    # The match's game and variant as a person reads them, not "topitop" and "large=4, small=4".
    assert report["words"][0].startswith("Topitop, 2 players, standard rules: 3 recorded human")
    metrics = {m["metric"]: m for m in arms["humans"]["metrics"]}
    assert metrics["drawn"]["estimate"] == 1 and metrics["drawn"]["n"] == 3
    # Drawn by agreement, not by the rules: no draw to Ludii's Drawishness.
    assert metrics["drawishness"]["estimate"] == 0
    assert client.get("/api/v1/lab/humans/chess").status_code == 404
