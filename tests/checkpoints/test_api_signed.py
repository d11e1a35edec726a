"""Receipts from the API are signed (both stores): a claim's answer carries the signed receipt,
which verifies with only the public key; the audit carries the checkpoint report."""

from __future__ import annotations

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.domain.integrity.checkpoints import verify_receipt
from tests.checkpoints.helpers import new_signer, signing
from tests.test_recorder import WIN


def test_a_claim_answers_with_a_signed_receipt_that_verifies(any_store):
    signer = new_signer()
    client = create_app(signing(any_store, signer), WritePolicy()).test_client()
    match_id = client.post(
        "/api/v1/matches", json={"game": "topitop", "players": ["Ann", "Ben"]}
    ).get_json()["id"]
    for seat, move in WIN[:4]:
        answer = client.post(f"/api/v1/matches/{match_id}/moves", json={"seat": seat, "move": move})
        assert answer.get_json()["signed_receipt"] is None  # a move is not signed on its own
    claimed = client.post(
        f"/api/v1/matches/{match_id}/claims", json={"by": "Ann", "scores": {"Ann": 0, "Ben": 0}}
    ).get_json()
    receipt = claimed["signed_receipt"]
    assert receipt["event"] == 6 and receipt["hash"] == claimed["receipt"]
    verify_receipt(receipt, {signer.key_id: signer.public_raw})
    record = client.get(f"/api/v1/matches/{match_id}/events").get_json()
    assert record["receipt"] == receipt
    audit = client.get(f"/api/v1/matches/{match_id}/audit").get_json()
    assert audit["checkpoints"]["clean"] and audit["checkpoints"]["checkpoints"][0]["verified"]


def test_an_unsigned_store_answers_null(recorder):
    client = create_app(recorder, WritePolicy()).test_client()
    state = client.post("/api/v1/matches", json={"game": "topitop", "players": ["A", "B"]})
    assert state.get_json()["signed_receipt"] is None
