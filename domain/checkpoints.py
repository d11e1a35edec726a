"""Signed tree heads and receipts: what a recorder signs and what anyone can check with only
the public key (docs/audit.md, "Signed checkpoints").

A *head* says: the store's first `size` events, in notification order, form the RFC 9162 tree
whose root is `root`, as the holder of key `key` saw it at `time`. The signature is Ed25519
(`cryptography`) over the head's canonical JSON without its signature. A leaf is the 32 bytes
of an event's chain hash (`match.event_hash`, which covers everything the event stores and,
through `prev_hash`, every earlier event of its match); a store event that no longer decodes has
no chain hash and so can never match a signed leaf.

A *receipt* is a head and one event of one match with the inclusion proof of that event's leaf:
with the public key it proves the event, and through its hash chain the whole match up to it,
was in the log the head signed. Nothing here touches a store (see `ledger`).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeGuard

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import Refused
from .match import canonical_json
from .merkle import ProofError, leaf_hash, verify_inclusion

HEAD_FORMAT = "tablelog-head/1"
RECEIPT_FORMAT = "tablelog-receipt/1"
HEX64 = re.compile(r"[0-9a-f]{64}")


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
    """A public key given as PEM (what `keys show` prints) or as 32 raw bytes in base64."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode())
            if not isinstance(key, Ed25519PublicKey):
                raise ValueError("not an Ed25519 key")
            return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        raw = base64.b64decode(text, validate=True)
        if len(raw) != 32:
            raise ValueError("not 32 bytes")
        return raw
    except ValueError as err:
        raise BadReceipt(
            f"{what} is not an Ed25519 public key (PEM or base64): "
            f"{str(err).splitlines()[0] if str(err) else 'unreadable'}"
        ) from None


class Signer:
    """A recorder's private key, able to sign heads."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self.private_key = private_key
        self.public_raw = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.key_id = key_id(self.public_raw)

    def sign_head(self, size: int, root: bytes, when: datetime | None = None) -> dict[str, Any]:
        when = when or datetime.now(UTC)
        head = {
            "format": HEAD_FORMAT,
            "size": size,
            "root": root.hex(),
            "time": when.isoformat(timespec="seconds"),
            "key": self.key_id,
        }
        signature = self.private_key.sign(head_message(head))
        return {**head, "signature": base64.b64encode(signature).decode()}


def head_message(head: Mapping[str, Any]) -> bytes:
    return canonical_json({k: head[k] for k in ("format", "size", "root", "time", "key")})


def _count(value: Any) -> TypeGuard[int]:
    """A count of events as a store keeps them: a 64-bit position (a head is signed over
    its size as a 64-bit integer, and a larger one names nothing stored)."""
    return type(value) is int and 0 <= value < 2**63


def check_head_shape(head: Any) -> dict[str, Any]:
    """A head as read from a file or a receipt, or BadReceipt naming what is wrong with it."""
    if not isinstance(head, Mapping) or head.get("format") != HEAD_FORMAT:
        raise BadReceipt(f"a signed head is a JSON object with format {HEAD_FORMAT!r}")
    size, root, key, sig = (head.get(k) for k in ("size", "root", "key", "signature"))
    if not _count(size):
        raise BadReceipt("a head's size is a count of events")
    if not isinstance(root, str) or not HEX64.fullmatch(root):
        raise BadReceipt("a head's root is 64 hex digits")
    if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{16}", key):
        raise BadReceipt("a head's key is a key id of 16 hex digits")
    if not isinstance(head.get("time"), str) or not isinstance(sig, str):
        raise BadReceipt("a head carries its time and signature as text")
    return dict(head)


def verify_head(head: Mapping[str, Any], keys: Mapping[str, bytes]) -> None:
    """NotVerified unless the head was signed by one of `keys` (key id -> raw public key)."""
    head = check_head_shape(head)
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


def check_receipt_shape(receipt: Any) -> dict[str, Any]:
    if not isinstance(receipt, Mapping) or receipt.get("format") != RECEIPT_FORMAT:
        raise BadReceipt(
            f"a receipt is a JSON object with format {RECEIPT_FORMAT!r}, or the "
            "text `tablelog receipt` prints"
        )
    check_head_shape(receipt.get("head"))
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


def verify_receipt(receipt: Mapping[str, Any], keys: Mapping[str, bytes]) -> None:
    """NotVerified unless the head is signed by a trusted key and the proof puts the event's
    hash at its leaf in the signed tree. A receipt without its proof (the short text) needs the
    proof from a store first (`ledger.complete`)."""
    receipt = check_receipt_shape(receipt)
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
