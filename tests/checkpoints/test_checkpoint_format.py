"""What a store signs is a C2SP checkpoint of its tree under the log's origin, and nothing beside
the note is believed: the origin is kept for good, a key comes as PEM or as a verifier key, and
a receipt's head fields that disagree with its note change nothing. Both stores."""

from __future__ import annotations

import base64
import hashlib
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablelog.domain.errors import Refused
from tablelog.domain.integrity import receipt_text
from tablelog.domain.integrity.checkpoints import (
    BadReceipt,
    NotVerified,
    public_pem,
    public_raw_from_text,
    verify_receipt,
)
from tablelog.domain.integrity.merkle import Tree, leaf_hash, node_hash
from tablelog.domain.integrity.verify import against_store
from tablelog.store import open_recorder
from tests.audit.helpers import played_with_everything
from tests.checkpoints.helpers import new_signer, signing
from tests.checkpoints.test_commands import run
from tests.conftest import stored_rows


def test_the_stored_checkpoints_are_c2sp_notes_of_the_tree_under_one_origin(any_store):
    signer = new_signer()
    recorder = signing(any_store, signer)
    recorder.checkpoint("club.example.org/tablelog")
    played_with_everything(recorder)
    leaves = [leaf_hash(bytes.fromhex(row[4])) for row in recorder.ledger.leaves()]
    key_id = hashlib.sha256(b"club.example.org/tablelog\n\x01" + signer.public_raw).digest()[:4]
    for head in recorder.ledger.heads():
        text, signature = head["checkpoint"].split("\n\n")
        origin, size, root, time = text.split("\n")
        assert (origin, time[:5]) == ("club.example.org/tablelog", "time ")
        assert base64.b64decode(root) == Tree(leaves[: int(size)]).root()
        name, encoded = signature.removeprefix("\u2014 ").rstrip("\n").split(" ")
        assert name == origin and base64.b64decode(encoded)[:4] == key_id
        assert head["key"] == signer.key_id and head["size"] == int(size)
    row = json.loads(
        recorder.ledger._select("SELECT head FROM tablelog_checkpoints ORDER BY seq")[0][0]
    )
    assert set(row) == {"format", "checkpoint", "key"}  # nothing read from the note kept beside
    recorder.close()


def test_the_origin_is_named_once_and_a_bad_one_stores_nothing(any_store):
    recorder = signing(any_store, new_signer())
    for bad in ("club example", "club+log", "", "x" * 201):
        before = recorder.ledger.heads()
        with pytest.raises(Refused, match="is not a log's name"):
            recorder.checkpoint(bad)
        assert recorder.ledger.heads() == before
    recorder.checkpoint()
    origin = recorder.ledger.origin()
    assert origin.startswith("tablelog/") and len(origin) == len("tablelog/") + 16
    played_with_everything(recorder)
    rotated = new_signer()
    recorder.ledger.trust(rotated.key_id, rotated.public_raw, "rotated")
    recorder.key_source = lambda: rotated
    assert recorder.checkpoint(origin)["origin"] == origin  # the same name is no change
    with pytest.raises(Refused, match="origin never changes"):
        recorder.checkpoint("club.example.org/tablelog")
    assert {h["origin"] for h in recorder.ledger.heads()} == {origin}
    recorder.close()


def test_a_head_field_beside_the_note_is_not_believed(any_store):
    """A receipt whose `root` says another tree, with a proof to that tree, does not verify:
    the root is read from the signed note."""
    signer = new_signer()
    recorder = signing(any_store, signer)
    match_id = played_with_everything(recorder)
    receipt = recorder.receipt(match_id)
    recorder.close()
    keys = {signer.key_id: signer.public_raw}
    verify_receipt(receipt, keys)
    leaf = leaf_hash(bytes.fromhex(receipt["hash"]))
    sibling = bytes(32)
    forged = {
        **receipt,
        "leaf": 0,
        "head": {**receipt["head"], "size": 2, "root": node_hash(leaf, sibling).hex()},
        "proof": [sibling.hex()],
    }
    with pytest.raises(NotVerified):
        verify_receipt(forged, keys)


def test_a_key_is_pem_a_verifier_key_or_both_and_both_must_agree(any_store):
    signer, other = new_signer(), new_signer()
    recorder = signing(any_store, signer)
    recorder.checkpoint("club.example.org/tablelog")
    vkey = signer.verifier_key("club.example.org/tablelog")
    pem = public_pem(signer.public_raw)
    for text in (pem, vkey, pem + vkey + "\n", base64.b64encode(signer.public_raw).decode()):
        assert public_raw_from_text(text) == signer.public_raw
    for text, words in [
        (public_pem(other.public_raw) + vkey, "two different keys"),
        (vkey.replace("+", "+0", 1)[:-1], "key ID"),
        (vkey[:-4] + "AAAA", "not the hash of its key"),
        ("club.example.org/tablelog+00000000+AQ==", "not an Ed25519 key"),
        ("-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----", "not an Ed25519"),
    ]:
        with pytest.raises(BadReceipt, match=words):
            public_raw_from_text(text)
    recorder.close()


def test_keys_show_public_prints_the_verifier_key_verify_takes(any_store, tmp_path):
    env = {**os.environ, "TABLELOG_STORE": any_store, "TABLELOG_KEY_FILE": str(tmp_path / "k.pem")}
    assert run(env, "keys", "init", "--origin", "club.example.org/tablelog").returncode == 0
    shown = run(env, "keys", "show", "--public").stdout
    pem, vkey = shown.rsplit("-----END PUBLIC KEY-----\n", 1)
    assert (
        pem.startswith("-----BEGIN PUBLIC KEY-----")
        and vkey.startswith("club.example.org/tablelog+")
        and vkey.count("\n") == 1
    )
    match_id = run(env, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    claimed = run(env, "claim", match_id, "--by", "Ann", "--scores", '{"Ann": 0, "Ben": 0}')
    short = claimed.stdout.split("checks it):\n", 1)[1]  # as printed: indented by two spaces
    (tmp_path / "receipt.txt").write_text(short)
    (tmp_path / "club.vkey").write_text(vkey)
    checked = run(
        env, "verify", str(tmp_path / "receipt.txt"), "--key", str(tmp_path / "club.vkey")
    )
    assert checked.returncode == 0 and checked.stdout.startswith("VERIFIED"), checked
    tampered = short.replace("\n  time 1", "\n  time 2")  # signed a few decades later
    assert tampered != short
    (tmp_path / "tampered.txt").write_text(tampered)
    refused = run(env, "verify", str(tmp_path / "tampered.txt"))
    assert refused.returncode == 1 and "does not verify" in refused.stdout
    before = stored_rows(any_store)
    bad = run(env, "checkpoint", "--origin", "another.example/log")
    assert bad.returncode == 2 and "origin never changes" in bad.stderr
    assert stored_rows(any_store) == before


def test_a_signed_receipt_text_reads_back_as_it_was(store):
    recorder = signing(store, new_signer())
    match_id = played_with_everything(recorder)
    receipt = recorder.receipt(match_id)
    for proof in (True, False):
        text = receipt_text.to_text(receipt, proof=proof)
        read = receipt_text.from_text("\n  ".join(text.split("\n")))  # indented, as printed
        assert read == {**receipt, "proof": receipt["proof"] if proof else None}
    assert against_store(open_recorder(store), receipt_text.from_text(text))
    recorder.close()


@given(st.text(max_size=400))
def test_any_text_after_the_second_format_line_is_read_or_refused_in_one_line(text):
    for candidate in ("tablelog-receipt/2\n" + text, "tablelog-receipt/2\nmatch x\n\n" + text):
        try:
            receipt_text.from_text(candidate)
        except BadReceipt as err:
            assert str(err) and "\n" not in str(err)
