"""The Match page's line about signed checkpoints: which checkpoint covers the match, signed by
whom and when, and whether its receipt verifies against the store now (docs/audit.md)."""

from __future__ import annotations

from uuid import UUID

from tablelog.domain.integrity.checkpoints import NotVerified
from tablelog.domain.integrity.signed import SigningRecorder


def checkpoint_state(recorder: object, match_id: UUID) -> str:
    """'' for a store nobody signs; else one sentence, verified or not."""
    from tablelog.domain.integrity.verify import against_store

    if not isinstance(recorder, SigningRecorder) or not recorder.ledger.heads_exist():
        return ""
    receipt = recorder.receipt(match_id)
    if receipt is None:
        return ". Signed checkpoints: none covers this match yet."
    head = receipt["head"]
    labels = {row["key"]: row["label"] for row in recorder.ledger.key_rows()}
    who = f"key {head['key']} ({labels.get(head['key'], 'a key the store does not trust')})"
    try:
        against_store(recorder, receipt)
        verdict = "verified: the store still holds what it signed"
    except NotVerified as err:
        verdict = f"NOT VERIFIED: {err}"
    return (
        f". Signed: event {receipt['event']} is in the checkpoint of {head['size']} events "
        f"signed {head['time'].replace('T', ' ')} by {who}; {verdict}."
    )
