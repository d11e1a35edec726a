"""RFC 9162 proofs out of a store's signed tree, for anyone to check with the public key and
nothing else (docs/audit.md, "Proofs"): `tablelog proof` and /api/v1/proofs/.

- consistency (section 2.1.4): the tree a newer checkpoint signs extends the one an older one
  signs. As text, the body of a C2SP witness's `add-checkpoint` (c2sp.org/tlog-witness):
  `old SIZE`, the proof's hashes, a blank line, the newer checkpoint.
- inclusion (section 2.1.3): an event's leaf is in the tree a checkpoint signs. As text, a C2SP
  tlog-proof (c2sp.org/tlog-proof): `extra` (the leaf's data, the event's 32-byte chain hash),
  `index` (the leaf), the proof's hashes, a blank line, the checkpoint.

Hashes are base64 there (as in the checkpoint's root line) and in the JSON, except the event's
chain hash, hex as receipts and the audit print it. Each proof is checked here before it is
given out: one that does not join the signed roots is a store whose tables were altered.
"""

from __future__ import annotations

import base64
from typing import Any, NotRequired, TypedDict
from uuid import UUID

from eventsourcing.application import Application

from ..errors import Refused
from ..plain import PlainMapping
from .checkpoints import HEX64, is_checkpoint
from .ledger import Ledger
from .merkle import EMPTY_ROOT, ProofError, leaf_hash, verify_consistency, verify_inclusion

TLOG_PROOF = "c2sp.org/tlog-proof@v1"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _head_of_size(ledger: Ledger, size: int | None) -> dict[str, Any]:
    """The newest checkpoint signing `size` events (default: the newest of all)."""
    heads = ledger.heads()
    if not heads:
        raise Refused("no checkpoint: nothing in this store is signed (`tablelog keys init`)")
    found = heads[-1:] if size is None else [head for head in heads if head.get("size") == size]
    if found and not (isinstance(found[-1].get("size"), int) and _hex(found[-1].get("root"))):
        raise _altered("its checkpoints (one no longer reads)")
    if not found:
        sizes = sorted({head["size"] for head in heads if isinstance(head.get("size"), int)})
        shown = ", ".join(map(str, sizes[-8:]))
        raise Refused(
            f"no checkpoint signs a tree of {size} events (the checkpoints sign "
            f"{'..., ' if len(sizes) > 8 else ''}{shown})"
        )
    return found[-1]


def _hex(value: object) -> bool:
    return isinstance(value, str) and HEX64.fullmatch(value) is not None


class Side(TypedDict):
    """One side of a proof: a signed tree (`_side`)."""

    size: int
    root: str  # base64
    checkpoint: str | None  # the signed note; None for a head of the first format
    head: NotRequired[PlainMapping]  # that head, as signed


def _side(size: int, head: dict[str, Any] | None) -> Side:
    """One signed tree: its size and root, and the checkpoint that signs it (a head of the
    first format, `tablelog-head/1`, is given as `head` instead)."""
    root = EMPTY_ROOT if head is None else bytes.fromhex(head["root"])
    side: Side = {"size": size, "root": b64(root), "checkpoint": None}
    if head is not None and is_checkpoint(head):
        side["checkpoint"] = head["checkpoint"]
    elif head is not None:
        side["head"] = head
    return side


def consistency(recorder: Application[UUID], old: int, new: int | None = None) -> dict[str, Any]:
    """The consistency proof from the checkpoint of `old` events (0: the empty tree) to the
    checkpoint of `new` (default: the newest)."""
    ledger = Ledger(recorder)
    newer = _head_of_size(ledger, new)
    older = None if old == 0 else _head_of_size(ledger, old)
    if old > newer["size"]:
        raise Refused(
            f"the checkpoint of {old} events is newer than the one of {newer['size']}: "
            "give the older size first"
        )
    proof = {"old": _side(old, older), "new": _side(newer["size"], newer)}
    size = newer["size"]
    try:
        path = [] if old in (0, size) else ledger.tree().consistency_proof(old, size)
        verify_consistency(
            old,
            newer["size"],
            base64.b64decode(proof["old"]["root"]),
            base64.b64decode(proof["new"]["root"]),
            path,
        )
    except ProofError:
        raise _altered(f"the checkpoints of {old} and {newer['size']} events") from None
    return {**proof, "proof": [b64(p) for p in path]}


def inclusion(
    recorder: Application[UUID], match_id: UUID, event: int, size: int | None = None
) -> dict[str, Any]:
    """The inclusion proof of the leaf of event `event` of the match in the checkpoint of
    `size` events (default: the newest)."""
    ledger = Ledger(recorder)
    head = _head_of_size(ledger, size)
    found = ledger.leaf_of(match_id, event)
    if found is None or found[0] >= head["size"]:
        raise Refused(
            f"event {event} of match {match_id} is not in the checkpoint of {head['size']} "
            "events: no such event, or it was stored after that checkpoint "
            "(`tablelog checkpoint` signs what is stored now)"
        )
    leaf, hashed = found
    try:
        path = ledger.tree().inclusion_proof(leaf, head["size"])
        verify_inclusion(
            leaf_hash(bytes.fromhex(hashed)), leaf, head["size"], path, bytes.fromhex(head["root"])
        )
    except ProofError:
        raise _altered(f"event {event} of match {match_id}") from None
    return {
        "match": str(match_id),
        "event": event,
        "hash": hashed,
        "leaf": leaf,
        **_side(head["size"], head),
        "proof": [b64(p) for p in path],
    }


def _altered(what: str) -> Refused:
    return Refused(
        f"the store's checkpoint tables no longer prove {what}: they were altered; "
        "`tablelog audit --all` names what changed"
    )


def consistency_text(proof: dict[str, Any]) -> str:
    """The proof as a C2SP witness's add-checkpoint body."""
    return (
        f"old {proof['old']['size']}\n"
        + "".join(f"{p}\n" for p in proof["proof"])
        + "\n"
        + _note(proof["new"])
    )


def inclusion_text(proof: dict[str, Any]) -> str:
    """The proof as a C2SP tlog-proof."""
    return (
        f"{TLOG_PROOF}\nextra {b64(bytes.fromhex(proof['hash']))}\nindex {proof['leaf']}\n"
        + "".join(f"{p}\n" for p in proof["proof"])
        + "\n"
        + _note(proof)
    )


def _note(side: dict[str, Any]) -> str:
    if side["checkpoint"] is None:
        raise Refused(
            f"the checkpoint of {side['size']} events is of the first format "
            "(tablelog-head/1), which a C2SP proof cannot carry: --json prints the proof "
            "with it, and `tablelog checkpoint` signs a C2SP checkpoint of the store now"
        )
    return side["checkpoint"]
