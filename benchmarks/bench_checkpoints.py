"""Signed checkpoints: what signing costs per 1,000 new events, and what verifying a receipt
costs in a store of a million events (quick: 50,000).

Baselines, measured in the same run over the same bytes:
- signing: a raw sqlite3 read of the same new rows and hashlib.sha256 over each row's stored
  bytes (the least any hashing of new events costs);
- the first checkpoint of a store: the same raw read and hash over every row;
- a receipt from its proof alone: hashlib.sha256 over as many 65-byte nodes as the proof has,
  plus one Ed25519 verify with `cryptography` directly;
- a receipt against the store: a raw sqlite3 read of the signed leaves and hashlib over each,
  what rebuilding the tree from its leaves would cost at the least (the store keeps complete
  subtrees of 1,024 leaves and more, so a proof reads a few hundred rows instead).
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablelog.domain.integrity.audit_match_ledger import audit_match_ledger
from tablelog.domain.integrity.checkpoints import Signer, verify_receipt
from tablelog.domain.integrity.verify import against_store
from tablelog.store import open_recorder
from tablelog.store_copy import copy_store

from .bench_recorder import big_store, simulated
from .harness import Result, best_of


def raw_hash_rows(store: str, after_rowid: int) -> tuple[float, int]:
    """Seconds to read and SHA-256 every stored row after `after_rowid`, and how many."""
    start = time.perf_counter()
    with sqlite3.connect(store) as db:
        rows = db.execute(
            "SELECT state FROM stored_events WHERE rowid > ? ORDER BY rowid", (after_rowid,)
        ).fetchall()
    for (state,) in rows:
        hashlib.sha256(state).digest()
    return time.perf_counter() - start, len(rows)


def max_rowid(store: str) -> int:
    with sqlite3.connect(store) as db:
        return db.execute("SELECT MAX(rowid) FROM stored_events").fetchone()[0] or 0


def copied(events: int) -> str:
    """A fresh copy of the benchmark store (the kept one stays unsigned for other benchmarks)."""
    source = Path(big_store(events))
    target = Path(tempfile.mkdtemp()) / "signed.sqlite"
    copy_store(source, target)
    return str(target)


def bench_signing(store: str, recorder, signer: Signer, label: str) -> list[Result]:
    start = time.perf_counter()
    head = recorder.ledger.sign(signer)
    first = time.perf_counter() - start
    base, count = raw_hash_rows(store, 0)
    results = [
        Result(
            "checkpoint: first signature of a whole store",
            head["size"] / first,
            "events/s",
            count / base,
            f"{label}: every event decoded and hashed once, "
            "its leaf stored; baseline: raw read + sha256 of every row",
        )
    ]
    ours, raw, seed = [], [], 7000
    for _ in range(3):
        before = max_rowid(store)
        batch, events = [], 0
        while events < 1000:
            batch += simulated(1, seed=seed)
            events, seed = sum(m.version for m in batch), seed + 1
        recorder.save(*batch)
        start = time.perf_counter()
        recorder.ledger.sign(signer)
        ours.append((time.perf_counter() - start) * 1000 / events)
        seconds, rows = raw_hash_rows(store, before)
        raw.append(seconds * 1000 / rows)
    results.append(
        Result(
            "checkpoint: sign 1,000 new events",
            min(ours) * 1000,
            "ms",
            min(raw) * 1000,
            f"{label}; best of 3 batches; baseline: raw read + sha256 of the same new rows",
        )
    )
    return results


def bench_receipts(store: str, recorder, signer: Signer, label: str) -> list[Result]:
    with sqlite3.connect(store) as db:  # a match from the middle of the log
        (middle,) = db.execute(
            "SELECT match_id FROM tablelog_leaves WHERE leaf = "
            "(SELECT COUNT(*) / 2 FROM tablelog_leaves)"
        ).fetchone()
    receipt = recorder.receipt(middle)
    keys = {signer.key_id: signer.public_raw}
    proof = receipt["proof"]
    ours = best_of(200, lambda: verify_receipt(receipt, keys))

    signature = signer.private_key.sign(b"head")
    public, node = signer.private_key.public_key(), b"\x00" * 65

    def raw_check() -> None:
        for _ in range(len(proof) + 1):
            hashlib.sha256(node).digest()
        public.verify(signature, b"head")

    base = best_of(200, raw_check)
    against = best_of(3, lambda: against_store(recorder, dict(receipt)))

    def raw_leaves() -> None:
        with sqlite3.connect(store) as db:
            for (hashed,) in db.execute("SELECT hash FROM tablelog_leaves ORDER BY leaf"):
                hashlib.sha256(b"\x00" + bytes.fromhex(hashed)).digest()

    leaves = best_of(3, raw_leaves)
    single = best_of(3, lambda: audit_match_ledger(recorder, UUID(middle)))
    return [
        Result(
            "receipt: verify from its proof (signature + inclusion)",
            ours * 1e6,
            "µs",
            base * 1e6,
            f"{label}; a proof of {len(proof)} nodes; baseline: as many raw "
            "sha256 + one Ed25519 verify",
        ),
        Result(
            "receipt: verify against the store",
            against * 1000,
            "ms",
            leaves * 1000,
            f"{label}; proof nodes from the kept subtrees and a block of leaves, the "
            "match's chain audited, consistency with the newest head; baseline: raw read "
            "+ sha256 of every signed leaf (rebuilding the tree)",
        ),
        Result(
            "audit MATCH: the match's signed events by inclusion proofs",
            single * 1000,
            "ms",
            leaves * 1000,
            f"{label}; the newest head's signature, one proof per "
            "signed event, each compared with the stored event; same baseline",
        ),
    ]


def run(quick: bool) -> list[Result]:
    events = 50_000 if quick else 1_000_000
    label = f"store of {'50k' if quick else '1M'} events"
    store = copied(events)
    recorder = open_recorder(store)
    signer = Signer(Ed25519PrivateKey.generate())
    recorder.ledger.trust(signer.key_id, signer.public_raw, "benchmark")
    results = bench_signing(store, recorder, signer, label)
    results += bench_receipts(store, recorder, signer, label)
    recorder.close()
    shutil.rmtree(Path(store).parent, ignore_errors=True)
    return results
