"""RFC 9162 proofs from the store's signed checkpoints, /api/v1/proofs/...: what `tablelog proof
consistency` and `tablelog proof inclusion --json` print (docs/audit.md, "Proofs"), declared
with the route table's own `endpoint`, their schemas added to the document's components here.
"""

from __future__ import annotations

from tablelog.domain.integrity import proofs

from . import schemas
from .routes import AT_MOST, NOT_FOUND, Answer, Handled, Param, Service, endpoint
from .schemas import COUNT, HASH_TEXT, TEXT, UUID_TEXT, documented, ref

BASE64_HASH = {"type": "string", "description": "A SHA-256 hash in base64."}
CHECKPOINT = {
    "type": ["string", "null"],
    "description": "The C2SP checkpoint (a signed note) that signs this tree; null for the "
    "empty tree, and for a head of the first format (`head`).",
}
SIGNED_TREE = documented(
    {
        "size": COUNT,
        "root": BASE64_HASH,
        "checkpoint": CHECKPOINT,
        "head": {**schemas.ANY_OBJECT, "description": "A `tablelog-head/1` head."},
    },
    ("size", "root", "checkpoint"),
)
PROOF = {"type": "array", "items": BASE64_HASH, "description": "RFC 9162 proof, base64."}
RESPONSES = {
    "SignedTree": SIGNED_TREE,
    "ConsistencyProof": documented(
        {"old": ref("SignedTree"), "new": ref("SignedTree"), "proof": PROOF},
        ("old", "new", "proof"),
    ),
    "InclusionProof": documented(
        {
            "match": UUID_TEXT,
            "event": {"type": "integer", "minimum": 1},
            "hash": {**HASH_TEXT, "description": "The event's chain hash: the leaf's data."},
            "leaf": {**COUNT, "description": "The leaf's index, from 0."},
            **SIGNED_TREE["properties"],
            "proof": PROOF,
        },
        ("match", "event", "hash", "leaf", "size", "root", "checkpoint", "proof"),
    ),
}
schemas.COMPONENTS.update(RESPONSES)

SIZE = {"type": "integer", "minimum": 0, "maximum": AT_MOST}
NO_PROOF = Answer(
    422,
    "Error",
    "`refused`: no checkpoint signs a tree of that size, the event is not in it, or the "
    "store's checkpoint tables were altered (the message says which).",
)


@endpoint(
    "GET",
    "/proofs/consistency",
    "proofs",
    "A consistency proof between two checkpoints",
    params=(
        Param("old", "query", SIZE, "The older checkpoint's size (0: the empty tree).", True),
        Param("new", "query", SIZE, "The newer checkpoint's size; default: the newest."),
    ),
    ok=Answer(
        200, "ConsistencyProof", "Both signed trees, and the proof that one extends the other."
    ),
    refusals=(NO_PROOF,),
)
def consistency_proof(service: Service, old: int, new: int | None) -> Handled:
    """The RFC 9162 consistency proof (section 2.1.4) that the checkpoint of `new` events
    extends the checkpoint of `old` events, as `tablelog proof consistency --json`."""
    return proofs.consistency(service.recorder, old, new)


@endpoint(
    "GET",
    "/proofs/inclusion",
    "proofs",
    "An inclusion proof of one event in a checkpoint",
    params=(
        Param("match", "query", TEXT, "The match id, or a unique prefix of 4 or more.", True),
        Param(
            "event",
            "query",
            {"type": "integer", "minimum": 1, "maximum": AT_MOST},
            "The event number (as receipts give it: event 1 is the start).",
            True,
        ),
        Param("size", "query", SIZE, "The checkpoint's size; default: the newest."),
    ),
    ok=Answer(200, "InclusionProof", "The event's leaf, the signed tree and the proof."),
    refusals=(NOT_FOUND, NO_PROOF),
)
def inclusion_proof(service: Service, match: str, event: int, size: int | None) -> Handled:
    """The RFC 9162 inclusion proof (section 2.1.3) that the event's leaf is in the tree the
    checkpoint signs, as `tablelog proof inclusion --json`."""
    return proofs.inclusion(service.recorder, service.match_id(match), event, size)
