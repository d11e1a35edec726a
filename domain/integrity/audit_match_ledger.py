"""The checkpoint audit of ONE match, in time that does not grow with the store: what `audit
MATCH` and the API's audit run (`audit --all` runs the whole `audit_ledger`).

Instead of rebuilding the tree from every leaf, it checks the newest head's signature and each
of the match's signed leaves by its inclusion proof against that signed root, as any verifier
of a receipt would: a proof built from altered checkpoint tables does not reach the signed root,
so nothing kept in the store is trusted. Then it compares each signed leaf with the event the
match holds now at that position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import Application

from ..errors import Refused
from ..matches.match import event_hash
from .audit_findings import Findings
from .audit_ledger import _check_published
from .checkpoints import NotVerified, check_head_shape, verify_head
from .ledger import Ledger
from .merkle import ProofError, leaf_hash, verify_inclusion


def audit_match_ledger(
    recorder: Application[UUID],
    match_id: UUID,
    against: Sequence[object] = (),
    keys: Mapping[str, bytes] | None = None,
) -> dict[str, Any]:
    ledger = Ledger(recorder)
    keys = dict(ledger.trusted_keys() if keys is None else keys)
    found = Findings()
    latest = ledger.latest()
    report: dict[str, Any] = {"keys": sorted(keys), "uncovered": None, "checkpoints": []}
    if latest is None:
        if keys:
            found.find(
                None,
                "checkpoint",
                "the store trusts signing keys but holds no "
                "checkpoint: its checkpoints were deleted, or none was ever signed",
            )
        return {
            **report,
            "clean": not found.findings,
            "findings": found.findings,
            "notes": found.notes,
        }
    seq, head, _ = latest
    verified = _newest_head(found, seq, head, keys)
    report["checkpoints"] = [
        {
            "checkpoint": seq,
            "size": head["size"],
            "time": head["time"],
            "key": head["key"],
            "verified": verified,
        }
    ]
    if verified:
        report["uncovered"] = _check_match(found, ledger, match_id, head, seq)
    for published in against:
        try:
            _check_published(found, check_head_shape(published), keys, ledger.tree(), [head])
        except Refused as err:  # the kept tree nodes were altered
            found.find(None, "published", str(err))
    if report["uncovered"]:
        found.notes.append(
            f"{report['uncovered']} event(s) of this match stored after the "
            "newest checkpoint, not yet signed"
        )
    found.notes.append(
        "checked against the newest checkpoint only: `tablelog audit --all` "
        "checks every checkpoint and their consistency"
    )
    return {**report, "clean": not found.findings, "findings": found.findings, "notes": found.notes}


def _newest_head(
    found: Findings, seq: int, head: Mapping[str, object], keys: Mapping[str, bytes]
) -> bool:
    try:
        verify_head(head, keys)
    except (NotVerified, ValueError) as err:
        found.find(None, "checkpoint", f"checkpoint {seq}: {err}", checkpoint=seq)
        return False
    return True


def _check_match(
    found: Findings, ledger: Ledger, match_id: UUID, head: dict[str, Any], seq: int
) -> int:
    """Each signed leaf of the match: in the signed tree (its proof), and still the event the
    match holds at its position. Returns how many of the match's events are not yet signed."""
    signed = ledger._select(
        "SELECT leaf, position, hash FROM tablelog_leaves WHERE match_id = ? ORDER BY leaf",
        (str(match_id),),
    )
    now = {}
    for row in ledger.recorder.recorder.select_events(match_id):
        event = ledger.decoded(row)
        now[row.originator_version] = None if event is None else event_hash(event)
    tree, root = ledger.tree(), bytes.fromhex(head["root"])
    by = f"checkpoint {seq} (signed {head['time']} by key {head['key']})"
    unproven = []
    for leaf, position, hashed in signed:
        try:
            verify_inclusion(
                leaf_hash(bytes.fromhex(hashed)),
                leaf,
                head["size"],
                tree.inclusion_proof(leaf, head["size"]),
                root,
            )
        except (ProofError, Refused):
            unproven.append(position)  # an altered leaf spoils its neighbours' proofs too
            continue
        if position not in now:
            found.find(
                position,
                "checkpoint",
                f"event {position}, signed by {by}, was deleted after it was signed",
                match=str(match_id),
            )
        elif now[position] != hashed:
            found.find(
                position,
                "checkpoint",
                f"event {position} is not the event {by} signed: changed after it was signed",
                match=str(match_id),
            )
    if unproven:
        found.find(
            unproven[0],
            "checkpoint",
            f"the checkpoint tables no longer prove events "
            f"{', '.join(map(str, unproven))} of this match in {by}: they were altered; "
            "`tablelog audit --all` names the leaves",
            match=str(match_id),
        )
    return len(set(now) - {position for _, position, _ in signed})
