"""A signing recorder over a test store, with a key made for the test (never a file of the
user's), and the audit a fresh process would run."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablelog.domain.integrity.audit import audit_all
from tablelog.domain.integrity.audit_ledger import attach, audit_ledger
from tablelog.domain.integrity.checkpoints import Signer
from tablelog.store import open_recorder


def new_signer() -> Signer:
    return Signer(Ed25519PrivateKey.generate())


def signing(location: str, signer: Signer, trust: bool = True):
    recorder = open_recorder(location)
    recorder.key_source = lambda: signer
    if trust:
        recorder.ledger.trust(signer.key_id, signer.public_raw, "test")
    return recorder


def audited(location: str, against=()) -> tuple[dict, dict]:
    """{match: report} with the checkpoint findings attached, and the checkpoint report."""
    fresh = open_recorder(location)
    reports = audit_all(fresh)["matches"]
    ledger = audit_ledger(fresh, against)
    attach(reports, ledger)
    fresh.close()
    return {r["match"]: r for r in reports}, ledger


def signed_findings(report: dict) -> list[tuple[int, str]]:
    return [(f["event"], f["message"]) for f in report["findings"] if f["kind"] == "checkpoint"]
