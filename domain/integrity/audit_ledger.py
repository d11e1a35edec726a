"""The audit of the store's signed checkpoints: does every head verify, does each newer head
extend each older one (RFC 9162 consistency proofs), and which stored events changed after the
checkpoint that signed them? Optionally against heads kept outside the store.

The match audit (`audit`) checks each match's hash chain and rules; this one checks the log as a
whole. Its findings about one event name the match and the event, so `attach` adds them to that
match's report; the rest (a head that does not verify, a rewritten history) are the store's.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any
from uuid import UUID

from eventsourcing.application import Application

from ..matches.match import event_hash
from .audit_findings import Findings
from .checkpoints import NotVerified, check_head_shape, verify_head
from .ledger import Ledger
from .merkle import ProofError, Tree, leaf_hash, verify_consistency
from .stored_tree import NODE_LEVEL


def audit_ledger(
    recorder: Application[UUID],
    against: Sequence[object] = (),
    keys: Mapping[str, bytes] | None = None,
) -> dict[str, Any]:
    """The checkpoint report; `against`: signed heads kept elsewhere; `keys`: trust only these
    (key id -> raw public key) instead of the keys the store lists."""
    ledger = Ledger(recorder)
    keys = dict(ledger.trusted_keys() if keys is None else keys)
    heads, leaves = ledger.heads(), ledger.leaves()
    tree = Tree([leaf_hash(bytes.fromhex(row[4])) for row in leaves])
    found = Findings()
    verified = [_check_head(found, seq, head, keys, tree) for seq, head in enumerate(heads, 1)]
    _check_consistency(found, heads, tree)
    _check_nodes(found, ledger, tree)
    uncovered = _check_events(found, ledger, leaves, heads) if heads else None
    for head in against:
        _check_published(found, check_head_shape(head), keys, tree, heads)
    if not heads:
        if keys:
            found.find(
                None,
                "checkpoint",
                "the store trusts signing keys but holds no "
                "checkpoint: its checkpoints were deleted, or none was ever signed",
            )
        else:
            found.notes.append(
                "no checkpoint: nothing in this store was ever signed "
                "(`tablelog keys init`, then `tablelog checkpoint`)"
            )
    if uncovered:
        found.notes.append(
            f"{uncovered} event{'s' if uncovered > 1 else ''} stored after the "
            "newest checkpoint, not yet signed"
        )
    return {
        "clean": not found.findings,
        "findings": found.findings,
        "notes": found.notes,
        "keys": sorted(keys),
        "uncovered": uncovered,
        "checkpoints": [
            {
                "checkpoint": seq,
                "size": h.get("size"),
                "time": h.get("time"),
                "key": h.get("key"),
                "verified": ok,
            }
            for seq, (h, ok) in enumerate(zip(heads, verified), 1)
        ],
    }


def _check_head(
    found: Findings, seq: int, head: dict[str, Any], keys: Mapping[str, bytes], tree: Tree
) -> bool:
    try:
        verify_head(head, keys)
    except (NotVerified, ValueError) as err:
        found.find(None, "checkpoint", f"checkpoint {seq}: {err}", checkpoint=seq)
        return False
    if head["size"] > tree.size:
        found.find(
            None,
            "checkpoint",
            f"checkpoint {seq} signs {head['size']} events but only "
            f"{tree.size} signed leaves are stored: the leaves table was cut short",
            checkpoint=seq,
        )
        return False
    if tree.root(head["size"]).hex() != head["root"]:
        found.find(
            None,
            "checkpoint",
            f"checkpoint {seq} ({_signed(head)}): the stored leaves "
            "no longer give its root: the checkpoint tables were altered",
            checkpoint=seq,
        )
        return False
    return True


def _check_consistency(found: Findings, heads: list[dict[str, Any]], tree: Tree) -> None:
    """Each head against the one before it: a consistency proof built from the stored leaves
    must join the two signed roots, or the newer one signs a history that is not an extension
    of the older one's."""
    for seq, (old, new) in enumerate(pairwise(heads), 2):
        try:
            if new["size"] < old["size"] or new["size"] > tree.size:
                raise ProofError("sizes out of order")
            proof = tree.consistency_proof(old["size"], new["size"]) if old["size"] else []
            verify_consistency(
                old["size"],
                new["size"],
                bytes.fromhex(old["root"]),
                bytes.fromhex(new["root"]),
                proof,
            )
        except (ProofError, KeyError, ValueError, TypeError):
            found.find(
                None,
                "consistency",
                f"checkpoint {seq} ({_signed(new)}) is not "
                f"consistent with checkpoint {seq - 1} ({_signed(old)}): it signs a "
                "history that does not extend the earlier one (rewritten)",
                checkpoint=seq,
            )


def _check_nodes(found: Findings, ledger: Ledger, tree: Tree) -> None:
    """The complete subtrees kept for proofs must be the ones the leaves give (a wrong one would
    make every receipt through it fail to verify)."""
    stored = ledger.nodes()
    expected = {
        (level, i)
        for level in range(NODE_LEVEL, len(tree.levels))
        for i in range(len(tree.levels[level]))
    }
    wrong = sorted(
        k for k, h in stored.items() if k not in expected or tree.levels[k[0]][k[1]] != h
    )
    if wrong or set(stored) != expected:
        found.find(
            None,
            "checkpoint",
            f"the tree nodes kept for proofs were altered "
            f"({len(wrong)} wrong, {len(expected - set(stored))} missing): receipts "
            "made from them would not verify",
        )


def _check_events(
    found: Findings, ledger: Ledger, leaves: list[tuple[Any, ...]], heads: list[dict[str, Any]]
) -> int:
    """Every signed leaf against the event now stored under its notification id; returns how
    many events no checkpoint covers yet."""
    now: dict[int, tuple[str, int, str | None]] = {}
    for notification in ledger.notifications(None):
        event = ledger.decoded(notification)
        now[notification.id] = (
            str(notification.originator_id),
            notification.originator_version,
            None if event is None else event_hash(event),
        )
    sizes = [h.get("size", 0) for h in heads]
    signed_ids = set()
    for leaf, nid, match, position, hashed in leaves:
        signed_ids.add(nid)
        seq = bisect_right(sizes, leaf) + 1
        if seq > len(heads):
            continue  # no head covers it (a cut-short checkpoint is its own finding)
        by = f"checkpoint {seq} ({_signed(heads[seq - 1])})"
        if nid not in now:
            found.find(
                position,
                "checkpoint",
                f"event {position}, signed by {by}, was deleted after it was signed",
                match=match,
                checkpoint=seq,
                leaf=leaf,
            )
        elif now[nid] != (match, position, hashed):
            moved = (
                f" (now stored as event {now[nid][1]})" if now[nid][:2] != (match, position) else ""
            )
            found.find(
                position,
                "checkpoint",
                f"event {position}{moved} is not the event "
                f"{by} signed: changed after it was signed",
                match=match,
                checkpoint=seq,
                leaf=leaf,
            )
    last = max(signed_ids, default=None)
    for nid, (match, position, _) in now.items():
        if last is not None and nid < last and nid not in signed_ids:
            found.find(
                position,
                "checkpoint",
                f"event {position} was inserted among events "
                "that a checkpoint signed, after it signed them",
                match=match,
            )
    return sum(1 for nid in now if last is None or nid > last)


def _check_published(
    found: Findings,
    head: dict[str, Any],
    keys: Mapping[str, bytes],
    tree: Tree,
    heads: list[dict[str, Any]],
) -> None:
    where = f"the head published at {head['time']} ({head['size']} events, key {head['key']})"
    try:
        verify_head(head, keys)
    except NotVerified as err:
        found.find(None, "published", f"{where} does not verify here: {err}")
        return
    stored = [h for h in heads if h.get("size") == head["size"]]
    if head["size"] > tree.size:
        found.find(
            None,
            "published",
            f"{where} signs more events than this store's "
            f"checkpoints cover ({tree.size}): events or checkpoints were deleted",
        )
    elif tree.root(head["size"]).hex() != head["root"] or any(
        h.get("root") != head["root"] for h in stored
    ):
        found.find(
            None,
            "published",
            f"{where} is not consistent with this store: the "
            "history it signed was rewritten here (and re-signed)",
        )
    else:
        found.notes.append(f"consistent with {where}")


def _signed(head: Mapping[str, object]) -> str:
    return f"signed {head.get('time')} by key {head.get('key')}"


def attach(reports: list[dict[str, Any]], ledger: dict[str, Any]) -> None:
    """Add the ledger's findings about each match to that match's report."""
    by_match = {r["match"]: r for r in reports}
    for finding in ledger["findings"]:
        report = by_match.get(finding.get("match"))
        if report is not None:
            report["findings"].append(finding)
            report["clean"] = False
