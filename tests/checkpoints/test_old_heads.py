"""Heads and receipts of the first format (`tablelog-head/1`) keep verifying: the ones the code
before issue 45 wrote (tests/fixtures/signed-head-1: a store, the receipts it printed, its
exports and published head), and a store signed the old way on both stores, which then goes on
with C2SP checkpoints consistent with its old heads."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tablelog.domain.integrity import receipt_text
from tablelog.domain.integrity.audit_ledger import audit_ledger
from tablelog.domain.integrity.checkpoints import CHECKPOINT_FORMAT, HEAD_FORMAT
from tablelog.domain.integrity.verify import against_record, against_store
from tablelog.store import open_recorder
from tests.audit.helpers import OPENING, play, played_with_everything
from tests.checkpoints.helpers import new_signer, signing
from tests.checkpoints.legacy import signing_the_old_way
from tests.checkpoints.test_commands import run

FIXTURE = Path(__file__).parents[1] / "fixtures" / "signed-head-1"
ENDED = "ca070966"


@pytest.fixture
def env(tmp_path):
    store = tmp_path / "store.sqlite"
    shutil.copyfile(FIXTURE / "store.sqlite", store)
    return {
        **os.environ,
        "TABLELOG_STORE": str(store),
        "TABLELOG_KEY_FILE": str(tmp_path / "keys" / "signing-key.pem"),
    }


def verified(env, *args) -> str:
    result = run(env, "verify", *args)
    assert result.returncode == 0 and result.stdout.startswith("VERIFIED"), result
    return result.stdout


def test_what_the_old_code_printed_and_published_still_verifies(env, tmp_path):
    for name in ("receipt-short.txt", "receipt-full.txt", "receipt.json"):
        verified(env, str(FIXTURE / name))
    bare = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "TABLELOG_STORE": str(tmp_path / "never-created.sqlite"),
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    for record in ("ended.jsonl", "running.jsonl"):
        checked = verified(
            bare, "--record", str(FIXTURE / record), "--key", str(FIXTURE / "club.pem")
        )
        assert "signed by key 106044eac4cff7b5" in checked
    assert not (tmp_path / "never-created.sqlite").exists()
    audit = run(env, "audit", "--all", "--against", str(FIXTURE / "heads"))
    assert audit.returncode == 0 and "consistent with the head published" in audit.stdout


def test_an_old_store_goes_on_with_c2sp_checkpoints_and_old_receipts_still_verify(env, tmp_path):
    started = run(env, "keys", "init", "--label", "new server", "--origin", "club.example.org/t")
    assert started.returncode == 0, started.stderr  # a second key; the old one stays trusted
    assert "checkpoint 1 signs its 23 events" in started.stdout
    assert started.stdout.strip().splitlines()[-1].startswith("club.example.org/t+")
    report = json.loads(run(env, "audit", "--all", "--json").stdout)["checkpoints"]
    assert report["clean"] and len(report["checkpoints"]) == 6  # five old heads, one new
    short = verified(env, str(FIXTURE / "receipt-short.txt"))
    assert "the newest checkpoint (23 events" in short and "extends it" in short
    audit = run(env, "audit", "--all", "--against", str(FIXTURE / "heads"))
    assert audit.returncode == 0 and "consistent with the head published" in audit.stdout

    # A consistency proof from an old head to the new checkpoint: the old head is in the JSON.
    proof = json.loads(run(env, "proof", "consistency", "18", "--json").stdout)
    assert proof["old"]["head"]["format"] == HEAD_FORMAT and proof["old"]["checkpoint"] is None
    assert proof["new"]["checkpoint"].startswith("club.example.org/t\n23\n")
    assert run(env, "proof", "consistency", "18").stdout.startswith("old 18\n")
    refused = run(env, "proof", "inclusion", ENDED, "18", "--size", "18")
    assert refused.returncode == 2 and "first format (tablelog-head/1)" in refused.stderr
    legacy = json.loads(
        run(env, "proof", "inclusion", ENDED, "18", "--size", "18", "--json").stdout
    )
    assert legacy["head"]["size"] == 18 and legacy["leaf"] == 17

    receipt = run(env, "receipt", ENDED).stdout
    assert receipt.startswith("tablelog-receipt/2\n")
    (tmp_path / "new.txt").write_text(receipt)
    verified(env, str(tmp_path / "new.txt"))
    again = run(env, "checkpoint", "--origin", "elsewhere.example/t")
    assert again.returncode == 2 and "origin never changes" in again.stderr


def test_a_store_signed_the_old_way_goes_on_the_new_way_on_both_stores(any_store, monkeypatch):
    signer = new_signer()
    recorder = signing(any_store, signer)
    with signing_the_old_way(monkeypatch):
        first = played_with_everything(recorder)
        old_receipt = receipt_text.to_text(recorder.receipt(first))
        old_full = recorder.receipt(first)
        record = recorder.export(first)
    assert old_receipt.startswith("tablelog-receipt/1\n")
    assert recorder.ledger.origin() is None
    second = played_with_everything(recorder)
    play(recorder, OPENING)
    recorder.checkpoint()
    new_receipt = recorder.receipt(second)
    recorder.close()

    fresh = open_recorder(any_store)
    formats = [h["format"] for h in fresh.ledger.heads()]
    assert formats[:4] == [HEAD_FORMAT] * 4 and set(formats[4:]) == {CHECKPOINT_FORMAT}
    assert (fresh.ledger.origin() or "").startswith("tablelog/")
    assert audit_ledger(fresh)["clean"]
    for text in (old_receipt, receipt_text.to_text(new_receipt, proof=True)):
        checked = against_store(fresh, receipt_text.from_text(text))
        assert checked[-1].endswith("extends it (consistency proof)") or "leaf" in checked[1]
    keys = {signer.key_id: signer.public_raw}
    assert against_record(record, old_full, keys)
    assert receipt_text.from_text(old_receipt)["head"]["format"] == HEAD_FORMAT
    fresh.close()
