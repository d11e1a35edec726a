"""The store's signed checkpoints: the tree's leaves as they were signed, the signed heads, and
the public keys the store trusts, in three tables of the store itself (SQLite or PostgreSQL).

The leaves table keeps, for every event a checkpoint covered, its notification id, match,
position and chain hash as they were when signed. The audit recomputes the signed roots from it
and compares it with the events now stored, so it names exactly which events changed after
which checkpoint (see `audit_ledger`). A forger who also edits these tables changes the roots
they give, which the signatures catch; the private key never enters the store.

Signing extends the latest checkpoint's compact frontier with the events stored since, so it
costs O(new events), and a new head is consistent with the old ones by construction: the
signer never blesses a rewrite of what it signed before.
"""

from __future__ import annotations

import base64
import json
import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Notification, OperationalError, StoredEvent

from ..errors import Refused
from ..matches.match import Match, event_hash
from ..plain import PlainMapping
from ..recording.side_tables import SideTables
from .checkpoints import (
    RECEIPT_FORMAT,
    BadReceipt,
    NotVerified,
    Signer,
    check_head_shape,
    check_origin,
    is_checkpoint,
    new_origin,
    verify_head,
)
from .merkle import Frontier, ProofError, Tree, leaf_hash
from .stored_tree import NODE_LEVEL, StoredTree

PAGE = 1000
TABLES = (
    "CREATE TABLE IF NOT EXISTS tablelog_leaves (leaf BIGINT PRIMARY KEY, "
    "notification_id BIGINT NOT NULL, match_id TEXT NOT NULL, position BIGINT NOT NULL, "
    "hash TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS tablelog_leaves_match ON tablelog_leaves (match_id, position)",
    "CREATE TABLE IF NOT EXISTS tablelog_checkpoints (seq BIGINT PRIMARY KEY, "
    "size BIGINT NOT NULL, head TEXT NOT NULL, frontier TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tablelog_nodes (level BIGINT NOT NULL, idx BIGINT NOT NULL, "
    "hash TEXT NOT NULL, PRIMARY KEY (level, idx))",
    "CREATE TABLE IF NOT EXISTS tablelog_keys (key_id TEXT PRIMARY KEY, public_key TEXT NOT NULL, "
    "added_at TEXT NOT NULL, label TEXT NOT NULL)",
)


class Ledger(SideTables):
    """The checkpoint tables of one recorder's store."""

    tables = TABLES

    def __init__(self, recorder: Application[UUID]) -> None:
        super().__init__(recorder)
        self._tree: Tree | None = None

    # ---- keys --------------------------------------------------------------------------------

    def trusted_keys(self) -> dict[str, bytes]:
        return {
            k: base64.b64decode(p)
            for k, p in self._select("SELECT key_id, public_key FROM tablelog_keys")
        }

    def key_rows(self) -> list[dict[str, str]]:
        return [
            {"key": k, "public_key": p, "added_at": a, "label": label}
            for k, p, a, label in self._select(
                "SELECT key_id, public_key, added_at, label FROM tablelog_keys ORDER BY added_at"
            )
        ]

    def trust(self, key: str, public_raw: bytes, label: str) -> bool:
        """Add a public key to those the store trusts; False if it was there already."""
        if key in self.trusted_keys():
            return False
        with self._tx(commit=True) as c:
            self._run(
                c,
                "INSERT INTO tablelog_keys (key_id, public_key, added_at, label) "
                "VALUES (?, ?, ?, ?)",
                (key, base64.b64encode(public_raw).decode(), datetime.now(UTC).isoformat(), label),
            )
        return True

    # ---- checkpoints -------------------------------------------------------------------------

    def heads_exist(self) -> bool:
        return bool(self._select("SELECT 1 FROM tablelog_checkpoints LIMIT 1"))

    def heads(self) -> list[dict[str, Any]]:
        """Every stored signed head, oldest first."""
        return [
            _stored(h)
            for (h,) in self._select("SELECT head FROM tablelog_checkpoints ORDER BY seq")
        ]

    def origin(self) -> str | None:
        """The name of the store's log: the origin of its newest checkpoint (None while it has
        signed none in the C2SP format)."""
        latest = self.latest()
        return latest[1].get("origin") if latest and is_checkpoint(latest[1]) else None

    def latest(self) -> tuple[int, dict[str, Any], Frontier] | None:
        rows = self._select(
            "SELECT seq, size, head, frontier FROM tablelog_checkpoints ORDER BY seq DESC LIMIT 1"
        )
        if not rows:
            return None
        seq, size, head, frontier = rows[0]
        try:
            hashes = Frontier(size, [bytes.fromhex(h) for h in json.loads(frontier)])
        except (ProofError, ValueError, TypeError):
            raise Refused(
                f"the latest checkpoint ({seq}) no longer reads: the checkpoint tables were "
                "altered; run `tablelog audit --all`"
            ) from None
        return seq, _stored(head), hashes

    def covered_until(self) -> int | None:
        """The notification id of the newest event a checkpoint covers."""
        rows = self._select(
            "SELECT notification_id FROM tablelog_leaves ORDER BY leaf DESC LIMIT 1"
        )
        return rows[0][0] if rows else None

    def sign(self, signer: Signer, origin: str | None = None) -> dict[str, Any]:
        """Sign a checkpoint over every event stored now; the latest when nothing is new and it
        is this key's checkpoint. The log keeps the origin of its first checkpoint (`origin`, or
        a new one). Raises Refused (nothing stored) when the store is damaged."""
        for attempt in range(5):
            try:
                return self._sign_once(signer, origin)
            except (IntegrityError, OperationalError):  # another recorder signed meanwhile
                time.sleep(random.random() * 0.02 * 2**attempt)  # apart, not in lockstep
                if attempt == 4:
                    raise Refused(
                        "could not sign a checkpoint: other recorders kept signing "
                        "at the same time; try again"
                    ) from None
        raise AssertionError("unreachable")

    def _sign_once(self, signer: Signer, origin: str | None) -> dict[str, Any]:
        latest = self.latest()
        seq, frontier = (0, Frontier()) if latest is None else (latest[0], latest[2])
        if latest is not None:
            self._check_latest(latest)
        origin = self._origin(latest, origin)
        new = self.new_leaves(self.covered_until())
        if (
            not new
            and latest is not None
            and is_checkpoint(latest[1])
            and latest[1]["key"] == signer.key_id
        ):
            return latest[1]
        nodes = []
        for row in new:
            nodes += [
                n for n in frontier.append(leaf_hash(bytes.fromhex(row[3]))) if n[0] >= NODE_LEVEL
            ]
        head = signer.sign_head(frontier.size, frontier.root(), origin)
        with self._tx(commit=True) as c:
            # Take the write lock first: SQLite would refuse to turn a read that other writers
            # have since overtaken into a write ("database is locked") without waiting.
            self._run(
                c,
                "LOCK TABLE tablelog_checkpoints IN EXCLUSIVE MODE"
                if self.postgres
                else "DELETE FROM tablelog_checkpoints WHERE seq < 0",
            )
            if self._run(c, "SELECT COUNT(*) FROM tablelog_checkpoints WHERE seq > ?", (seq,))[0][
                0
            ]:
                raise IntegrityError("a newer checkpoint was signed meanwhile")
            first = frontier.size - len(new)
            c.executemany(
                self._sql(
                    "INSERT INTO tablelog_leaves (leaf, notification_id, "
                    "match_id, position, hash) VALUES (?, ?, ?, ?, ?)"
                ),
                [(first + i, *row) for i, row in enumerate(new)],
            )
            c.executemany(
                self._sql("INSERT INTO tablelog_nodes (level, idx, hash) VALUES (?, ?, ?)"),
                [(lv, i, h.hex()) for lv, i, h in nodes],
            )
            self._run(
                c,
                "INSERT INTO tablelog_checkpoints (seq, size, head, frontier) VALUES (?, ?, ?, ?)",
                (
                    seq + 1,
                    head["size"],
                    json.dumps(_to_store(head)),
                    json.dumps([h.hex() for h in frontier.hashes]),
                ),
            )
        return head

    @staticmethod
    def _origin(latest: tuple[int, dict[str, Any], Frontier] | None, given: str | None) -> str:
        """The log's origin never changes: the newest checkpoint's, once there is one."""
        current = latest[1].get("origin") if latest and is_checkpoint(latest[1]) else None
        if given is not None and current is not None and check_origin(given) != current:
            raise Refused(
                f"this store's log is named {current} (its checkpoints' origin), and a log's "
                "origin never changes; nothing was signed"
            )
        return current or check_origin(new_origin() if given is None else given)

    def _check_latest(self, latest: tuple[int, dict[str, Any], Frontier]) -> None:
        """Extend only a checkpoint that verifies: a forged head or frontier is refused."""
        seq, head, frontier = latest
        try:
            verify_head(head, self.trusted_keys())
        except NotVerified as err:
            raise Refused(
                f"the latest checkpoint ({seq}) does not verify ({err}); run "
                "`tablelog audit --all` before signing again"
            ) from None
        if frontier.root().hex() != head["root"]:
            raise Refused(
                f"the stored tree no longer gives checkpoint {seq}'s root: the "
                "checkpoint tables were altered; run `tablelog audit --all`"
            )

    def new_leaves(self, after: int | None) -> list[tuple[int, str, int, str]]:
        """(notification id, match, position, chain hash) of every event stored after the
        notification `after`, in notification order. A row that no longer decodes is refused:
        the recorder never signs damage."""
        rows = []
        for notification in self.notifications(after):
            event = self.decoded(notification)
            if event is None:
                raise Refused(
                    f"event {notification.originator_version} of match "
                    f"{notification.originator_id} no longer decodes: the store was "
                    "damaged; run `tablelog audit --all` (nothing was signed)"
                )
            rows.append(
                (
                    notification.id,
                    str(notification.originator_id),
                    notification.originator_version,
                    event_hash(event),
                )
            )
        return rows

    def notifications(self, after: int | None) -> Iterator[Notification]:
        position = after
        while True:
            page = self.recorder.recorder.select_notifications(
                start=position, limit=PAGE, inclusive_of_start=position is None
            )
            yield from page
            if len(page) < PAGE:
                return
            position = page[-1].id

    def decoded(self, notification: StoredEvent) -> Match.Event | None:
        try:
            event = self.recorder.mapper.to_domain_event(notification)
        except Exception:  # noqa: BLE001 - a tampered row may fail in any way
            return None
        return event if isinstance(event, Match.Event) else None

    # ---- the tree and receipts ---------------------------------------------------------------

    def leaves(self) -> list[tuple[int, int, str, int, str]]:
        """(leaf, notification id, match, position, hash) of every signed leaf, in order."""
        return self._select(
            "SELECT leaf, notification_id, match_id, position, hash FROM "
            "tablelog_leaves ORDER BY leaf"
        )

    def tree(self) -> Tree:
        """The tree of every signed leaf, read as proofs need it (`StoredTree`); kept while no
        new leaf is stored (an export of every match asks it for a proof per match)."""
        count = self._select("SELECT COUNT(*) FROM tablelog_leaves")[0][0]
        if self._tree is None or self._tree.size != count:
            self._tree = StoredTree(self, count)
        return self._tree

    def nodes(self) -> dict[tuple[int, int], bytes]:
        return {
            (level, idx): bytes.fromhex(h)
            for level, idx, h in self._select("SELECT level, idx, hash FROM tablelog_nodes")
        }

    def leaf_block(self, lo: int, hi: int) -> list[bytes]:
        return [
            leaf_hash(bytes.fromhex(h))
            for (h,) in self._select(
                "SELECT hash FROM tablelog_leaves WHERE leaf >= ? AND leaf < ? ORDER BY leaf",
                (lo, hi),
            )
        ]

    def leaf_of(self, match_id: UUID, event: int) -> tuple[int, str] | None:
        """(leaf, chain hash as signed) of event `event` of the match, if a checkpoint signed it."""
        if not 0 < event < 1 << 63:  # the store's integers are 64-bit
            return None
        found = self._select(
            "SELECT leaf, hash FROM tablelog_leaves WHERE match_id = ? AND position = ?",
            (str(match_id), event),
        )
        return (found[0][0], found[0][1]) if found else None

    def receipt(self, match_id: UUID | str, proof: bool = True) -> dict[str, Any] | None:
        """The receipt of the match's newest event the latest checkpoint covers (None when no
        checkpoint covers any of its events); without `proof`, the short one (no tree built)."""
        latest = self.latest()
        found = self._select(
            "SELECT leaf, position, hash FROM tablelog_leaves WHERE match_id = "
            "? ORDER BY leaf DESC LIMIT 1",
            (str(match_id),),
        )
        if latest is None or not found:
            return None
        leaf, position, hashed = found[0]
        head = latest[1]
        path = [p.hex() for p in self.tree().inclusion_proof(leaf, head["size"])] if proof else None
        return {
            "format": RECEIPT_FORMAT,
            "match": str(match_id),
            "event": position,
            "hash": hashed,
            "leaf": leaf,
            "head": head,
            "proof": path,
        }


def _to_store(head: PlainMapping) -> PlainMapping:
    """A checkpoint is stored as its note and the id of its key: what is read from the note is
    never kept beside it, where it could be changed alone."""
    return {k: head[k] for k in ("format", "checkpoint", "key")} if is_checkpoint(head) else head


def _stored(text: str) -> dict[str, Any]:
    """A head as stored; a checkpoint's fields read from its note (a row whose note no longer
    reads stays as it is, and fails to verify)."""
    head = json.loads(text)
    if is_checkpoint(head):
        try:
            return check_head_shape(head)
        except BadReceipt:
            return head
    return head
