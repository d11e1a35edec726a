"""Quarantine: a match whose stored rows no longer decode or replay harms nobody else.

Reads that meet such a match (the recorder's `get`, `export`, the projections) raise or record
`Damaged` with the audit's own words for what is wrong, and every other match is served as
before. The audit is the one judge of what a damaged row is (docs/audit.md), so this module
only asks it, and only for the match at fault: a clean store never pays for it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from .errors import Damaged

# The audit's findings that make a match unreadable, in the order a person should hear them.
UNREADABLE = ("undecodable", "inserted", "missing", "replay", "chain")


def finding_of(recorder: Any, match_id: UUID, error: BaseException | None = None) -> str:
    """The audit's finding that best names why the match does not read (or, when the audit
    itself cannot say, the error's own first line)."""
    try:
        from .audit import audit_match  # the audit reads through the recorder: import late

        findings = audit_match(recorder, match_id)["findings"]
    except Exception:  # noqa: BLE001 - the damage may defeat even the audit; say what we know
        findings = []
    for kind in UNREADABLE:
        for found in findings:
            if found["kind"] == kind:
                return found["message"]
    if findings:
        return findings[0]["message"]
    text = str(error).splitlines()[0] if error is not None and str(error) else ""
    return text or (type(error).__name__ if error is not None else "it does not replay")


def damaged(recorder: Any, match_id: UUID, error: BaseException | None = None) -> Damaged:
    return Damaged(match_id, finding_of(recorder, match_id, error))
