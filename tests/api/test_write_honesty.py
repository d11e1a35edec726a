"""A write answers 2xx exactly when it stored, and an error exactly when nothing was (issue 42),
on SQLite and PostgreSQL.

Once the store has committed an entry, whatever fails while the answer is made (rendering the
state, reading the signed receipt back, signing the checkpoint, the snapshot cache) still answers
2xx: the state when it can be given, else what is certain (`id`, `version`, `receipt`, `stored`),
with `warnings` saying what failed, and the entry is in the store exactly once. A failure before
the commit answers an error and leaves every stored row as it was."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy
from tablelog.api import create_app, routes
from tablelog.domain.integrity.ledger import Ledger
from tablelog.domain.matches import views
from tests.checkpoints.helpers import new_signer, signing
from tests.committing import AfterCommit, before_commit, disputed, opened
from tests.conftest import stored_rows

SHEET = {"scores": [{"total": 2}, {"total": 0}], "winners": ["Ann"]}
# name: (the match it needs, or None to start one; path; body; status; events it stores)
WRITES = {
    "start": (None, "/matches", {"game": "topitop", "players": ["Ann", "Ben"]}, 201, 1),
    "sheet": (
        None,
        "/sheets",
        {"game": "topitop", "players": ["Ann", "Ben"], "sheet": SHEET},
        201,
        2,
    ),
    "move": (opened, "moves", {"seat": "Ann", "move": {"place": "large", "to": "a3"}}, 200, 1),
    "undo": (opened, "undo", {"by": "Ben", "reason": "meant c2"}, 200, 1),
    "claim": (opened, "claims", {"by": "Ann", "scores": {"Ann": 0, "Ben": 0}}, 200, 1),
    "dispute": (opened, "disputes", {"by": "Ben", "about": "the slide"}, 200, 1),
    "resolve": (disputed, "disputes/resolve", {"by": "Umpire", "ruling": "it stands"}, 200, 1),
    "end": (opened, "end", {"draw": True}, 200, 1),
    "abandon": (opened, "abandon", {"by": "Ann", "reason": "closing time"}, 200, 1),
}
SIGNED = ["claim", "dispute", "resolve", "end"]  # the entries a signing recorder signs
# What breaks once the entry is stored: the state's rendering, or its signed receipt read back.
AFTER = {"rendering": (views, "state_view"), "receipt": (routes, "with_receipt")}


def url(recorder, write: str) -> str:
    needs, path, *_ = WRITES[write]
    return f"/api/v1{path}" if needs is None else f"/api/v1/matches/{needs(recorder)}/{path}"


def stored_once(before: list, after: list, events: int) -> None:
    """Every row stored before is still there as it was, and the entry's events once."""
    assert after[: len(before)] == before
    assert len(after) == len(before) + events


@pytest.mark.parametrize("where", AFTER)
@pytest.mark.parametrize("write", WRITES)
def test_a_failure_after_the_commit_answers_2xx_saying_stored(
    any_recorder, any_store, monkeypatch, write, where
):
    client = create_app(any_recorder, WritePolicy()).test_client()
    target = url(any_recorder, write)
    *_, body, status, events = WRITES[write]
    before = stored_rows(any_store)
    AfterCommit(monkeypatch).breaks(*AFTER[where])
    answer = client.post(target, json=body)
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    said = answer.get_json()
    name = AFTER[where][1]
    assert said["stored"] is True
    assert said["warnings"] == [
        f"stored, but its state could not be given: {name} broke after the commit"
    ]
    stored_once(before, stored_rows(any_store), events)
    if status == 201:
        assert answer.headers["Location"] == f"/api/v1/matches/{said['id']}"
    monkeypatch.undo()  # the store reads again: the answer named the entry it holds
    now = client.get(f"/api/v1/matches/{said['id']}").get_json()
    assert (said.get("version", now["version"]), said.get("receipt", now["receipt"])) == (
        now["version"],
        now["receipt"],
    )


@pytest.mark.parametrize("write", SIGNED)
def test_a_signer_failing_after_the_commit_answers_the_state_not_signed(
    any_store, monkeypatch, write
):
    recorder = signing(any_store, new_signer())
    client = create_app(recorder, WritePolicy()).test_client()
    target = url(recorder, write)
    *_, body, status, events = WRITES[write]
    before = stored_rows(any_store)
    AfterCommit(monkeypatch).breaks(Ledger, "sign")
    answer = client.post(target, json=body)
    assert answer.status_code == status
    said = answer.get_json()
    assert said["warnings"] == ["stored, but NOT signed: sign broke after the commit"]
    assert "stored" not in said and said["state"] is not None  # the whole state, as ever
    assert said["version"] == recorder.version(said["id"])
    stored_once(before, stored_rows(any_store), events)
    recorder.close()


@pytest.mark.parametrize("write", ["start", "move", "end"])
def test_a_snapshot_cache_failing_after_the_commit_is_no_concern_of_the_answer(
    any_recorder, any_store, monkeypatch, write
):
    client = create_app(any_recorder, WritePolicy()).test_client()
    target = url(any_recorder, write)
    *_, body, status, events = WRITES[write]
    monkeypatch.setattr(any_recorder, "snapshot_every", 1)  # every save takes one
    AfterCommit(monkeypatch).breaks(any_recorder.snapshots, "put")
    before = stored_rows(any_store)
    answer = client.post(target, json=body)
    assert answer.status_code == status and "warnings" not in answer.get_json()
    stored_once(before, stored_rows(any_store), events)


@pytest.mark.parametrize("write", WRITES)
def test_a_failure_before_the_commit_answers_an_error_and_stores_nothing(
    any_recorder, any_store, monkeypatch, write
):
    client = create_app(any_recorder, WritePolicy()).test_client()
    target = url(any_recorder, write)
    *_, body, _, _ = WRITES[write]
    before = stored_rows(any_store)
    before_commit(monkeypatch)
    answer = client.post(target, json=body)
    assert answer.status_code >= 400
    assert b"stored" not in answer.get_data()
    assert stored_rows(any_store) == before


@pytest.mark.parametrize("write", SIGNED)
def test_a_key_the_store_does_not_trust_refuses_before_the_commit(any_store, write):
    recorder = signing(any_store, new_signer(), trust=False)
    target = url(recorder, write)  # played while the store trusted no key: unsigned
    other = new_signer()
    recorder.ledger.trust(other.key_id, other.public_raw, "another recorder's key")
    client = create_app(recorder, WritePolicy()).test_client()
    before = stored_rows(any_store)
    answer = client.post(target, json=WRITES[write][2])
    assert answer.status_code == 422 and "nothing was stored" in answer.get_json()["message"]
    assert stored_rows(any_store) == before
    recorder.close()


def test_an_answer_without_trouble_carries_no_warnings(any_recorder):
    client = create_app(any_recorder, WritePolicy()).test_client()
    started = client.post("/api/v1/matches", json=WRITES["start"][2])
    moved = client.post(url(any_recorder, "move"), json=WRITES["move"][2])
    for answer in (started, moved):
        said = answer.get_json()
        assert "warnings" not in said and "stored" not in said and said["state"] is not None
