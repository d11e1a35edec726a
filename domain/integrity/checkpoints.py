"""Signed tree heads and receipts: what a recorder signs and what anyone can check with only
the public key (docs/audit.md, "Signed checkpoints").

A *head* says: the store's first `size` events, in notification order, form the RFC 9162 tree
whose root is `root`, as the holder of a key saw it at `time`. A recorder signs it as a C2SP
checkpoint (`tlog_checkpoint`, `signed_note`): origin line, tree size, root hash in base64, a
`time` line, signed with Ed25519 under the key name `origin`; as a dict it is
`{"format": CHECKPOINT_FORMAT, "checkpoint": <the note>, "key": <key id>}` plus the fields read
from the note (`origin`, `size`, `root` in hex, `time`), which are never taken from anywhere
else. Heads signed before (`tablelog-head/1`: JSON, signed over its canonical JSON) are read and
verified as they always were. A leaf is the 32 bytes of an event's chain hash
(`match.event_hash`, which covers everything the event stores and, through `prev_hash`, every
earlier event of its match); a store event that no longer decodes has no chain hash and so can
never match a signed leaf.

A *receipt* is a head and one event of one match with the inclusion proof of that event's leaf:
with the public key it proves the event, and through its hash chain the whole match up to it,
was in the log the head signed. Nothing here touches a store (see `ledger`).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeGuard

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import Refused
from ..matches.match import canonical_json
from ..plain import PlainMapping
from . import signed_note
from .merkle import ProofError, leaf_hash, verify_inclusion
from .tlog_checkpoint import Checkpoint, MalformedCheckpoint, read_body

HEAD_FORMAT = "tablelog-head/1"  # the first heads: read and verified, no longer signed
CHECKPOINT_FORMAT = "c2sp.org/tlog-checkpoint"
RECEIPT_FORMAT = "tablelog-receipt/1"
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX16 = re.compile(r"[0-9a-f]{16}")
MAX_NOTE = 1 << 16  # a checkpoint is a few hundred characters; cosignatures add a few each


class BadReceipt(Refused):
    """A receipt, head or key that cannot even be read (malformed): a usage error."""


class NotVerified(Exception):
    """A well-formed receipt or head that does not verify: the log is not what it signed."""


def key_id(public_raw: bytes) -> str:
    """A key's short name: the first 16 hex digits of SHA-256 over its 32 raw bytes."""
    return hashlib.sha256(public_raw).hexdigest()[:16]


def public_pem(public_raw: bytes) -> str:
    key = Ed25519PublicKey.from_public_bytes(public_raw)
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


def public_raw_from_text(text: str, what: str = "the public key") -> bytes:
    """A public key given as PEM, as a verifier key (`NAME+KEYID+BASE64`), as both (what `keys
    show --public` prints; they must be the same key) or as 32 raw bytes in base64."""
    text = text.strip()
    pem, _, rest = text.rpartition("-----END PUBLIC KEY-----")
    try:
        raws = []
        if pem:
            raws.append(_pem_raw(pem + "-----END PUBLIC KEY-----"))
        rest = rest.strip()
        if rest or not pem:
            raws.append(_vkey_or_base64_raw(rest))
        if len(set(raws)) != 1:
            raise ValueError("its PEM and its verifier key are two different keys")
        return raws[0]
    except (ValueError, UnsupportedAlgorithm) as err:
        raise BadReceipt(
            f"{what} is not an Ed25519 public key (PEM, verifier key or base64): "
            f"{str(err).splitlines()[0] if str(err) else 'unreadable'}"
        ) from None


def verifier_key_name(text: str) -> str | None:
    """The name a public key given as a verifier key (`NAME+KEYID+BASE64`, alone or after its
    PEM) names its log by; None for a PEM or raw key alone."""
    rest = text.strip().rpartition("-----END PUBLIC KEY-----")[2].strip()
    try:
        return signed_note.read_verifier_key(rest)[0] if rest.count("+") >= 2 else None
    except signed_note.MalformedNote:
        return None


def _pem_raw(text: str) -> bytes:
    key = serialization.load_pem_public_key(text[text.index("-----BEGIN") :].encode())
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 key")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _vkey_or_base64_raw(text: str) -> bytes:
    try:
        return signed_note.read_verifier_key(text)[1]
    except signed_note.MalformedNote as err:
        why = err
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        raw = b""
    if len(raw) == 32:
        return raw
    raise why if text.count("+") >= 2 else ValueError("neither 32 bytes in base64 nor NAME+ID+KEY")


class Signer:
    """A recorder's private key, able to sign heads."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self.private_key = private_key
        self.public_raw = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.key_id = key_id(self.public_raw)

    def sign_head(
        self, size: int, root: bytes, origin: str, when: datetime | None = None
    ) -> dict[str, Any]:
        """A C2SP checkpoint of the tree, signed under the key name `origin`."""
        when = (when or datetime.now(UTC)).replace(microsecond=0)
        body = Checkpoint(origin, size, root, when).body()
        return checkpoint_head(signed_note.sign(body, origin, self.private_key), self.key_id)

    def verifier_key(self, origin: str) -> str:
        """This key as a note verifier key for the log named `origin`."""
        return signed_note.verifier_key(origin, self.public_raw)


def checkpoint_head(note: object, key: object = None) -> dict[str, Any]:
    """The head of a signed checkpoint note: every field read from the note itself, and `key`,
    the id of the key that signed it where known (a hint that verifying checks), else the note's
    own name for it (`origin+keyid`)."""
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise BadReceipt(f"a checkpoint is a signed note of at most {MAX_NOTE} characters")
    try:
        parsed = signed_note.parse(note)
        body = read_body(parsed.text)
    except (signed_note.MalformedNote, MalformedCheckpoint) as err:
        raise BadReceipt(f"not a signed checkpoint: {err}") from None
    if not isinstance(key, str) or not HEX16.fullmatch(key):
        key = next(
            (f"{s.name}+{s.key_id.hex()}" for s in parsed.signatures if s.name == body.origin),
            None,
        )
    return {
        "format": CHECKPOINT_FORMAT,
        "checkpoint": note,
        "origin": body.origin,
        "size": body.size,
        "root": body.root.hex(),
        "time": None if body.time is None else body.time.isoformat(),
        "key": key,
    }


def new_origin() -> str:
    """A name for a store's log, unique without any registry (C2SP asks that origins do not
    collide): the store keeps it in every checkpoint from its first on (`ledger`)."""
    return f"tablelog/{secrets.token_hex(8)}"


def check_origin(origin: str) -> str:
    """An origin the recorder can sign under: it is also the key name of its signatures."""
    if not signed_note.valid_name(origin) or len(origin) > 200:
        raise Refused(
            f"the origin {origin[:60]!r} is not a log's name: no spaces, no '+', at most 200 "
            "characters, such as club.example.org/tablelog"
        )
    return origin


def is_checkpoint(head: object) -> bool:
    return isinstance(head, Mapping) and head.get("format") == CHECKPOINT_FORMAT


def head_message(head: PlainMapping) -> bytes:
    return canonical_json({k: head[k] for k in ("format", "size", "root", "time", "key")})


def _count(value: object) -> TypeGuard[int]:
    """A count of events as a store keeps them: a 64-bit position (a head is signed over
    its size as a 64-bit integer, and a larger one names nothing stored)."""
    return type(value) is int and 0 <= value < 2**63


def check_head_shape(head: object) -> dict[str, Any]:
    """A head as read from a file, a receipt or the store, or BadReceipt naming what is wrong
    with it; a checkpoint's fields are read from its note, whatever the dict says."""
    if not isinstance(head, Mapping) or head.get("format") not in (CHECKPOINT_FORMAT, HEAD_FORMAT):
        raise BadReceipt(
            f"a signed head is a C2SP checkpoint (a signed note) or a JSON object with "
            f"format {CHECKPOINT_FORMAT!r} or {HEAD_FORMAT!r}"
        )
    if head.get("format") == CHECKPOINT_FORMAT:
        return checkpoint_head(head.get("checkpoint"), head.get("key"))
    size, root, key, sig = (head.get(k) for k in ("size", "root", "key", "signature"))
    if not _count(size):
        raise BadReceipt("a head's size is a count of events")
    if not isinstance(root, str) or not HEX64.fullmatch(root):
        raise BadReceipt("a head's root is 64 hex digits")
    if not isinstance(key, str) or not HEX16.fullmatch(key):
        raise BadReceipt("a head's key is a key id of 16 hex digits")
    if not isinstance(head.get("time"), str) or not isinstance(sig, str):
        raise BadReceipt("a head carries its time and signature as text")
    return dict(head)


def verify_head(given: PlainMapping, keys: Mapping[str, bytes]) -> str:
    """The id of the key that signed the head, or NotVerified unless one of `keys` (key id ->
    raw public key) did."""
    head = check_head_shape(given)
    if is_checkpoint(head):
        return _verify_checkpoint(head, keys)
    raw = keys.get(head["key"])
    if raw is None:
        raise NotVerified(f"the head is signed by key {head['key']}, which is not trusted here")
    try:
        signature = base64.b64decode(head["signature"], validate=True)
        Ed25519PublicKey.from_public_bytes(raw).verify(signature, head_message(head))
    except (InvalidSignature, ValueError):
        raise NotVerified(
            f"the signature on the head of {head['size']} events does not "
            f"verify with key {head['key']}: the head was altered"
        ) from None
    return head["key"]


def _verify_checkpoint(head: dict[str, Any], keys: Mapping[str, bytes]) -> str:
    """As the signed-note spec says: signatures under the log's own name (its origin) by a
    trusted key must verify, and at least one must be there. With a key id given, only that
    key's signature counts."""
    hint, size = head["key"], head["size"]
    if HEX16.fullmatch(hint or ""):
        if hint not in keys:
            raise NotVerified(f"the checkpoint is signed by key {hint}, which is not trusted here")
        keys = {hint: keys[hint]}
    by_raw = {raw: key for key, raw in keys.items()}
    try:
        found = signed_note.verified_by(
            signed_note.parse(head["checkpoint"]), [(head["origin"], raw) for raw in by_raw]
        )
    except signed_note.BadSignature:
        raise NotVerified(
            f"the signature on the checkpoint of {size} events does not verify with key "
            f"{hint}: the checkpoint was altered"
        ) from None
    if not found:
        raise NotVerified(
            f"the checkpoint of {size} events carries no signature of "
            f"{'key ' + hint if HEX16.fullmatch(hint or '') else 'a key trusted here'} "
            f"under its origin {head['origin']}"
        )
    return by_raw[found[0][1]]


def check_receipt_shape(receipt: object) -> dict[str, Any]:
    if not isinstance(receipt, Mapping) or receipt.get("format") != RECEIPT_FORMAT:
        raise BadReceipt(
            f"a receipt is a JSON object with format {RECEIPT_FORMAT!r}, or the "
            "text `tablelog receipt` prints"
        )
    receipt = {**receipt, "head": check_head_shape(receipt.get("head"))}
    event, leaf, proof = receipt.get("event"), receipt.get("leaf"), receipt.get("proof")
    if not (_count(event) and _count(leaf) and event >= 1):
        raise BadReceipt("a receipt's event and leaf are numbers")
    if not isinstance(receipt.get("hash"), str) or not HEX64.fullmatch(receipt["hash"]):
        raise BadReceipt("a receipt's hash is 64 hex digits")
    if proof is not None and (
        not isinstance(proof, list)
        or not all(isinstance(p, str) and HEX64.fullmatch(p) for p in proof)
    ):
        raise BadReceipt("a receipt's proof is a list of 64-hex-digit hashes")
    if not isinstance(receipt.get("match"), str):
        raise BadReceipt("a receipt names its match")
    return dict(receipt)


def verify_receipt(given: PlainMapping, keys: Mapping[str, bytes]) -> None:
    """NotVerified unless the head is signed by a trusted key and the proof puts the event's
    hash at its leaf in the signed tree. A receipt without its proof (the short text) needs the
    proof from a store first (`ledger.complete`)."""
    receipt = check_receipt_shape(given)
    verify_head(receipt["head"], keys)
    if receipt.get("proof") is None:
        raise NotVerified(
            "the receipt carries no inclusion proof: verify it against a store "
            "(--store), which supplies it"
        )
    try:
        verify_inclusion(
            leaf_hash(bytes.fromhex(receipt["hash"])),
            receipt["leaf"],
            receipt["head"]["size"],
            [bytes.fromhex(p) for p in receipt["proof"]],
            bytes.fromhex(receipt["head"]["root"]),
        )
    except ProofError as err:
        raise NotVerified(
            f"event {receipt['event']} of match {receipt['match']} is not leaf "
            f"{receipt['leaf']} of the signed tree: {err}"
        ) from None
