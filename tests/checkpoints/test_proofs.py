"""`tablelog proof consistency|inclusion` and /api/v1/proofs/: every printed proof checked by a
verifier written here from RFC 9162 (sections 2.1.3.2 and 2.1.4.2) against the roots of the
signed checkpoints, whose signatures are checked here too, from the C2SP specs with
`cryptography` alone. Nothing of Tablelog's own Merkle or note code is used to check. Both
stores."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.api import create_app
from tablelog.cli import main
from tests.audit.helpers import OPENING, play, played_with_everything
from tests.checkpoints.helpers import new_signer, signing

ORIGIN = "club.example.org/tablelog"


# ---- the independent verifier --------------------------------------------------------------------


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def inclusion_holds(leaf: bytes, index: int, size: int, path: list[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2, step by step; `leaf` is the leaf's data."""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, hashlib.sha256(b"\x00" + leaf).digest()
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node(p, r)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def consistency_holds(
    first: int, second: int, first_hash: bytes, second_hash: bytes, path: list[bytes]
) -> bool:
    """RFC 9162 section 2.1.4.2, step by step (0 < first < second)."""
    if not path:
        return False
    if first & (first - 1) == 0:
        path = [first_hash, *path]
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_hash and sr == second_hash and sn == 0


def checkpoint_root(note: str, public: bytes) -> tuple[int, bytes]:
    """(size, root) of a C2SP checkpoint whose Ed25519 signature under its origin by `public`
    verifies (c2sp.org/signed-note, c2sp.org/tlog-checkpoint); AssertionError otherwise."""
    split = note.rindex("\n\n")
    text, signatures = note[: split + 1], note[split + 2 :].splitlines()
    origin, size, root = text.splitlines()[:3]
    key_id = hashlib.sha256(origin.encode() + b"\n\x01" + public).digest()[:4]
    for line in signatures:
        name, _, encoded = line.removeprefix("\u2014 ").partition(" ")
        raw = base64.b64decode(encoded)
        if name == origin and raw[:4] == key_id:
            Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], text.encode())
            return int(size), base64.b64decode(root)
    raise AssertionError("no signature by the club's key")


def read_tlog_proof(text: str) -> tuple[bytes, int, list[bytes], str]:
    """(extra, index, proof, checkpoint) of a C2SP tlog-proof."""
    head, checkpoint = text.split("\n\n", 1)
    lines = head.splitlines()
    assert lines[0] == "c2sp.org/tlog-proof@v1"
    assert lines[1].startswith("extra ") and lines[2].startswith("index ")
    proof = [base64.b64decode(line) for line in lines[3:]]
    return base64.b64decode(lines[1][6:]), int(lines[2][6:]), proof, checkpoint


def read_witness_body(text: str) -> tuple[int, list[bytes], str]:
    """(old size, proof, checkpoint) of a C2SP witness's add-checkpoint body."""
    head, checkpoint = text.split("\n\n", 1)
    lines = head.splitlines()
    assert lines[0].startswith("old ")
    return int(lines[0][4:]), [base64.b64decode(line) for line in lines[1:]], checkpoint


# ---- the log ------------------------------------------------------------------------------------


@pytest.fixture
def log(any_store):
    """A store signed with checkpoints of many sizes (powers of two among them); the club's
    public key; the matches."""
    signer = new_signer()
    recorder = signing(any_store, signer)
    recorder.checkpoint(ORIGIN)
    matches = [played_with_everything(recorder)]
    matches.append(play(recorder, OPENING))
    recorder.checkpoint()
    matches.append(played_with_everything(recorder))
    ledger = recorder.ledger
    stored = ledger.tree().size + len(ledger.new_leaves(ledger.covered_until()))
    for _ in range(64 - stored):
        recorder.start("topitop", ["Cy", "Di"])
    assert recorder.checkpoint()["size"] == 64
    recorder.close()
    return any_store, signer.public_raw, matches


def tablelog(store: str, *args: str):
    return CliRunner().invoke(main, [*args, "--store", store])


def signed_sizes(store: str) -> list[int]:
    report = json.loads(tablelog(store, "audit", "--all", "--json").output)
    return sorted({c["size"] for c in report["checkpoints"]["checkpoints"]})


def test_every_inclusion_proof_printed_checks_against_the_signed_root(log):
    store, public, matches = log
    from tablelog.store import open_recorder

    recorder = open_recorder(store)  # closed here: a pool left to the collector warns
    try:
        records = [recorder.export(m) for m in matches]
    finally:
        recorder.close()
    sizes = signed_sizes(store)
    assert 64 in sizes and len(sizes) >= 8
    for record in records[:2]:  # every event of two matches (the API test proves others)
        hashes = [record["hash"]] + [e["hash"] for e in record["events"]]  # events 1, 2, ...
        for event, stored in enumerate(hashes, 1):
            printed = tablelog(store, "proof", "inclusion", record["id"][:8], str(event))
            assert printed.exit_code == 0, printed.output
            extra, index, proof, checkpoint = read_tlog_proof(printed.output)
            size, root = checkpoint_root(checkpoint, public)
            assert size == sizes[-1] and extra == bytes.fromhex(stored)
            assert inclusion_holds(extra, index, size, proof, root)
            assert not inclusion_holds(extra, index ^ 1, size, proof, root)
            assert not inclusion_holds(bytes(32), index, size, proof, root)
    # In an older checkpoint, as JSON: the same leaf, a shorter tree.
    first = records[0]
    printed = tablelog(
        store, "proof", "inclusion", first["id"], "3", "--size", str(sizes[1]), "--json"
    )
    assert printed.exit_code == 0, printed.output
    older = json.loads(printed.output)
    size, root = checkpoint_root(older["checkpoint"], public)
    assert (size, base64.b64encode(root).decode()) == (older["size"], older["root"])
    assert older["hash"] == first["events"][1]["hash"]  # event 3
    proof = [base64.b64decode(p) for p in older["proof"]]
    assert inclusion_holds(bytes.fromhex(older["hash"]), older["leaf"], size, proof, root)


def test_every_consistency_proof_printed_joins_the_two_signed_roots(log):
    store, public, _ = log
    sizes = signed_sizes(store)
    notes = {}
    assert sizes[0] == 0  # keys init signed the empty store
    for size in sizes[1:]:
        found = json.loads(tablelog(store, "proof", "consistency", str(size), "--json").output)
        notes[size] = found["old"]["checkpoint"]
        assert checkpoint_root(notes[size], public)[0] == size
    newest = sizes[-1]
    for old in sizes[1:]:
        printed = tablelog(store, "proof", "consistency", str(old))
        assert printed.exit_code == 0, printed.output
        given, proof, checkpoint = read_witness_body(printed.output)
        second, second_root = checkpoint_root(checkpoint, public)
        first, first_root = checkpoint_root(notes[old], public)
        assert (given, second) == (old, newest)
        if old == newest:
            assert proof == [] and first_root == second_root
            continue
        assert consistency_holds(first, second, first_root, second_root, proof)
        assert not consistency_holds(first, second, first_root, second_root, proof[::-1][:1])
        assert not consistency_holds(first, second, second_root, first_root, proof)
    for old, new in zip(sizes[1:], sizes[3:]):  # between two older ones, as JSON
        found = json.loads(
            tablelog(store, "proof", "consistency", str(old), str(new), "--json").output
        )
        first, first_root = checkpoint_root(found["old"]["checkpoint"], public)
        second, second_root = checkpoint_root(found["new"]["checkpoint"], public)
        proof = [base64.b64decode(p) for p in found["proof"]]
        assert consistency_holds(first, second, first_root, second_root, proof)
    from_empty = tablelog(store, "proof", "consistency", "0")
    assert read_witness_body(from_empty.output)[:2] == (0, [])


def test_the_api_gives_the_same_proofs(log):
    store, public, matches = log
    client = create_app(store).test_client()
    sizes = signed_sizes(store)
    for old in sizes[1:-1]:  # 0 is the empty tree: no checkpoint, no proof
        found = client.get(f"/api/v1/proofs/consistency?old={old}").get_json()
        assert found == json.loads(
            tablelog(store, "proof", "consistency", str(old), "--json").output
        )
        first, first_root = checkpoint_root(found["old"]["checkpoint"], public)
        second, second_root = checkpoint_root(found["new"]["checkpoint"], public)
        proof = [base64.b64decode(p) for p in found["proof"]]
        assert consistency_holds(first, second, first_root, second_root, proof)
    match_id = str(matches[1])
    found = client.get(f"/api/v1/proofs/inclusion?match={match_id[:6]}&event=4").get_json()
    assert found["match"] == match_id and found["event"] == 4
    size, root = checkpoint_root(found["checkpoint"], public)
    proof = [base64.b64decode(p) for p in found["proof"]]
    assert inclusion_holds(bytes.fromhex(found["hash"]), found["leaf"], size, proof, root)


def test_what_cannot_be_proven_is_one_line_and_exit_2_or_a_4xx(log, tmp_path):
    store, _, matches = log
    older = str(signed_sizes(store)[1])
    for args, words in [
        (["consistency", "5"], "no checkpoint signs a tree of 5 events"),
        (["consistency", "64", older], "give the older size first"),
        (["inclusion", str(matches[0]), "99"], "is not in the checkpoint of 64 events"),
        (["inclusion", str(matches[0]), "2", "--size", "7"], "no checkpoint signs a tree of 7"),
        (["inclusion", "zzzz", "2"], "no match"),
        (["inclusion", str(matches[0]), "0"], "0 is not in the range"),
        (["consistency", "9" * 5000], "is not a valid integer"),
    ]:
        refused = tablelog(store, "proof", *args)
        assert refused.exit_code == 2 and words in refused.stderr, (args, refused.output)
        assert len(refused.stderr.strip().splitlines()) == 1
    empty = str(tmp_path / "empty.sqlite")
    refused = tablelog(empty, "proof", "consistency", "0")
    assert refused.exit_code == 2 and "nothing in this store is signed" in refused.stderr
    client = create_app(store).test_client()
    for url, status in [
        ("/api/v1/proofs/consistency", 400),
        ("/api/v1/proofs/consistency?old=5", 422),
        ("/api/v1/proofs/consistency?old=x", 400),
        ("/api/v1/proofs/inclusion?match=zzzz&event=2", 404),
        (f"/api/v1/proofs/inclusion?match={matches[0]}", 400),
        (f"/api/v1/proofs/inclusion?match={matches[0]}&event=99", 422),
    ]:
        answer = client.get(url)
        assert answer.status_code == status and answer.get_json()["message"], url


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(what=st.sampled_from(["consistency", "inclusion"]), args=st.lists(st.text(), max_size=3))
def test_any_arguments_get_a_proof_or_one_line(store, what, args):
    """Whatever is typed: exit 0, or one line on stderr and exit 2 (this store signs nothing)."""
    result = CliRunner().invoke(main, ["proof", what, "--", *args], env={"TABLELOG_STORE": store})
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
