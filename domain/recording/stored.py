"""What a write says once the store has committed it.

A write answers success exactly when it stored. What follows the commit (signing a checkpoint,
reading the match back, rendering the answer, printing the receipt) can still fail; the entry is
stored all the same, so the command line and the API both say `stored, but WHAT: REASON` and
succeed, rather than answer an error that a person or a client would take for "nothing was
stored" and enter again.
"""

from __future__ import annotations


def stored_but(what: str, reason: BaseException | str) -> str:
    """One line: the entry is stored, but `what` failed, and why."""
    text = reason if isinstance(reason, str) else (str(reason) or type(reason).__name__)
    return f"stored, but {what}: {' '.join(text.split())}"


def not_signed(match: object) -> str | None:
    """Why the signing recorder could not sign a checkpoint after storing the entry
    (`domain.integrity.signed`), or None when nothing went wrong."""
    error = getattr(match, "checkpoint_error", None)
    return stored_but("NOT signed", error) if error else None
