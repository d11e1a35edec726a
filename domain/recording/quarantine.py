"""Quarantine: a match whose stored rows no longer decode or replay harms nobody else.

Reads that meet such a match (the recorder's `get`, `export`, the projections) raise or record
`Damaged` with the audit's own words for what is wrong, and every other match is served as
before. The audit is the one judge of what a damaged row is (docs/audit.md), so this module
only asks it, and only for the match at fault: a clean store never pays for it.

Whoever finds a match damaged tells the recorder (`Recorder.found_damaged`); its watchers (the
read side, `projections.queries`) quarantine it in the projection tables there and then, so
that no list or statistic counts it from that moment.
"""

from __future__ import annotations

from uuid import UUID

from ..errors import Damaged
from ..integrity.audit_chain import Recorder as AuditedStore  # what the audit reads


def finding_of(recorder: AuditedStore, match_id: UUID, error: BaseException | None = None) -> str:
    """The audit's finding that best names why the match does not read (or, when the audit
    itself cannot say, the error's own first line)."""
    # The audit reads through the recorder: import late. Its report only: the audit proper
    # (`audit_match`) tells the recorder of damage, as our caller is about to.
    from ..integrity.audit import audit_report, unreadable

    try:
        findings = audit_report(recorder, match_id)["findings"]
    except Exception:  # noqa: BLE001 - the damage may defeat even the audit; say what we know
        findings = []
    found = unreadable(findings) or (findings[0] if findings else None)
    if found is not None:
        return found["message"]
    text = str(error).splitlines()[0] if error is not None and str(error) else ""
    return text or (type(error).__name__ if error is not None else "it does not replay")


def damaged(recorder: AuditedStore, match_id: UUID, error: BaseException | None = None) -> Damaged:
    return Damaged(match_id, finding_of(recorder, match_id, error))
