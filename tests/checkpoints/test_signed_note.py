"""C2SP signed notes and checkpoint bodies against the vectors their specs and Go's reference
implementation publish: c2sp.org/signed-note's example, c2sp.org/tlog-checkpoint's and
c2sp.org/tlog-witness's checkpoints, and golang.org/x/mod/sumdb/note's note_test.go (keys,
a note Go signed, the notes it refuses) and sumdb/tlog's tree note. Nothing here is computed
by the code under test first."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from tablelog.domain.integrity import signed_note
from tablelog.domain.integrity.signed_note import BadSignature, MalformedNote
from tablelog.domain.integrity.tlog_checkpoint import Checkpoint, MalformedCheckpoint, read_body

# c2sp.org/signed-note, "Verifier keys", "Example".
C2SP_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
C2SP_NOTE = (
    "This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi"
    "2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
)
# golang.org/x/mod/sumdb/note/note_test.go
PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
TEXT = (
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
)
PETER_SIG = (
    "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotp"
    "RZb6KE6RyyBwJnAM=\n"
)
ENOCH_SIG = (
    "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox3"
    "3WWd1RvMc+QQ=\n"
)
# c2sp.org/tlog-checkpoint's example (its key is not published: the body and the line parse).
C2SP_CHECKPOINT = (
    "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n"
    "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/"
    "Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
    # c2sp.org/tlog-witness's example adds a second signature by the log's next key.
    "— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/"
    "V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=\n"
)
# golang.org/x/mod/sumdb/tlog/note_test.go: a tree of 123456789012 records whose root is the
# RFC 6962 record hash of "hello world" (an origin with spaces: the spec allows it).
GO_TREE = "go.sum database tree\n123456789012\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n"


def peter_key() -> Ed25519PrivateKey:
    seed = base64.b64decode(PETER_SKEY.split("+", 4)[4])[1:]  # after the type byte 0x01
    return Ed25519PrivateKey.from_private_bytes(seed)


def test_the_c2sp_example_note_verifies_with_its_verifier_key():
    name, public = signed_note.read_verifier_key(C2SP_VKEY)
    note = signed_note.parse(C2SP_NOTE)
    assert note.text == "This is an example message.\n"
    assert signed_note.verified_by(note, [(name, public)]) == [(name, public)]
    assert signed_note.verifier_key(name, public) == C2SP_VKEY


def test_signing_go_s_text_with_go_s_key_gives_go_s_signature_byte_for_byte():
    key = peter_key()
    public = key.public_key().public_bytes_raw()
    assert signed_note.verifier_key("PeterNeumann", public) == PETER_VKEY
    assert signed_note.sign(TEXT, "PeterNeumann", key) == TEXT + "\n" + PETER_SIG


def test_only_known_keys_count_and_each_must_verify():
    peter, enoch = (signed_note.read_verifier_key(k) for k in (PETER_VKEY, ENOCH_VKEY))
    both = signed_note.parse(TEXT + "\n" + PETER_SIG + ENOCH_SIG)
    assert both.text == TEXT
    assert signed_note.verified_by(both, [peter]) == [peter]
    assert signed_note.verified_by(both, [peter, enoch]) == [peter, enoch]
    assert signed_note.verified_by(both, []) == []  # nothing verified: the caller refuses
    # A key sharing the name but not the key ID is another key: its signature is ignored.
    assert signed_note.verified_by(both, [("PeterNeumann", enoch[1])]) == []
    spoiled = signed_note.parse(TEXT + "\n" + PETER_SIG[:60] + "ABCD" + PETER_SIG[60:])
    with pytest.raises(BadSignature):
        signed_note.verified_by(spoiled, [peter])
    twice = signed_note.parse(TEXT + "\n" + PETER_SIG + PETER_SIG)
    assert signed_note.verified_by(twice, [peter]) == [peter]


@pytest.mark.parametrize(
    "message",
    [
        TEXT,
        TEXT + "\n",
        TEXT + "\n" + PETER_SIG[:-1],
        "\x01" + TEXT + "\n" + PETER_SIG,
        TEXT
        + "\n"
        + "— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKv"
        "qfqdngotpRZb6KE6RyyBwJnAM=",
        TEXT + "\n" + PETER_SIG + "Unexpected line.\n",
        TEXT + "\n" + PETER_SIG * 101,
        TEXT + "\ud800\n" + PETER_SIG,  # not UTF-8 (Go's "\xff" as Python reads it)
    ],
)
def test_go_s_malformed_notes_are_malformed(message):
    with pytest.raises(MalformedNote):
        signed_note.parse(message)


def test_every_mangling_of_a_verifier_key_is_refused():
    """As Go's TestNewVerifier: every proper substring and every byte changed by one."""
    assert signed_note.read_verifier_key(PETER_VKEY)[0] == "PeterNeumann"
    manglings = {
        PETER_VKEY[i:j]
        for i in range(len(PETER_VKEY) + 1)
        for j in range(i + 1, len(PETER_VKEY) + 1)
        if (i, j) != (0, len(PETER_VKEY))
    }
    manglings |= {
        PETER_VKEY[:i] + chr(ord(c) + 1) + PETER_VKEY[i + 1 :] for i, c in enumerate(PETER_VKEY)
    }
    manglings |= {
        # Go's: a key of the wrong length and an unknown algorithm, each with a matching hash.
        "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
        "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    }
    for mangled in manglings:
        if mangled.strip() == PETER_VKEY:
            continue  # a changed trailing newline or space is the same key
        with pytest.raises(MalformedNote):
            signed_note.read_verifier_key(mangled)


def test_the_specs_checkpoints_read():
    note = signed_note.parse(C2SP_CHECKPOINT)
    body = read_body(note.text)
    assert (body.origin, body.size, body.time) == ("example.com/behind-the-sofa", 20852163, None)
    assert body.root == base64.b64decode("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
    assert [s.name for s in note.signatures] == ["example.com/behind-the-sofa"] * 2
    assert note.signatures[0].key_id == bytes.fromhex("033de0ae")
    assert len(note.signatures[0].signature) == 64
    go = read_body(GO_TREE)
    assert (go.origin, go.size) == ("go.sum database tree", 123456789012)
    assert go.root == hashlib.sha256(b"\x00hello world").digest()


@pytest.mark.parametrize(
    "body",
    [
        "example.com/log\n20\n",  # no root
        "example.com/log\n020\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",  # leading zero
        "example.com/log\n0x14\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
        "example.com/log\n+20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
        "example.com/log\n" + "9" * 30 + "\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
        "example.com/log\n20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2=\n",  # 31 bytes
        "example.com/log\n20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\nmore\n",
        "\n20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",  # no origin
        "example.com/log\n20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=",  # no newline
    ],
)
def test_a_body_that_is_not_a_checkpoint_is_refused(body):
    with pytest.raises(MalformedCheckpoint):
        read_body(body)


@given(
    origin=st.from_regex(r"[a-z0-9.]{1,20}/[a-z0-9-]{1,20}", fullmatch=True),
    size=st.integers(0, 10**18),
    root=st.binary(min_size=32, max_size=32),
    at=st.integers(0, 4_000_000_000),
    where=st.data(),
)
def test_a_signed_checkpoint_reads_back_and_any_changed_character_spoils_it(
    origin, size, root, at, where
):
    from datetime import UTC, datetime

    key = peter_key()
    public = key.public_key().public_bytes_raw()
    when = datetime.fromtimestamp(at, UTC)
    message = signed_note.sign(Checkpoint(origin, size, root, when).body(), origin, key)
    note = signed_note.parse(message)
    assert read_body(note.text) == Checkpoint(origin, size, root, when)
    assert signed_note.verified_by(note, [(origin, public)]) == [(origin, public)]
    i = where.draw(st.integers(0, len(message) - 2))  # the final newline aside
    changed = message[:i] + ("x" if message[i] != "x" else "y") + message[i + 1 :]
    try:
        spoiled = signed_note.parse(changed)
        assert signed_note.verified_by(spoiled, [(origin, public)]) == []
    except (MalformedNote, BadSignature):
        pass
