"""Auditing a match from its raw stored rows: is the log intact, and does the result hold?

The audit trusts nothing the store hands back. It reads the match's rows as stored, decodes each
one itself (a row that no longer decodes is a finding, not a crash), checks that the positions
run 1, 2, 3... without a gap and that every event holds the hash of the one before it, then
replays the moves through the rules with its own fold (independent of the aggregate's code) to
recompute the score after every move and set it beside each result the players claimed.

The report is plain values (the command line prints it as text or JSON; the HTTP API serves it).
Positions are event numbers: event 1 is the match's start, as stored (`originator_version`).
A *finding* is something wrong (the audit fails); a *note* is something an organiser should
know that is not wrong in itself (a score that hidden information keeps from being recomputed).
See docs/audit.md for what each check can and cannot prove.

The parts: `audit_chain` checks the log as stored (decoding, positions, the hash chain, a
receipt), `audit_claims` replays the moves and compares the claims, both adding to one
`audit_findings.Findings`; this module finds the matches, runs the parts in order and assembles
the report (`audit_text` words it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar
from uuid import UUID

from ..errors import Damaged, MatchNotFound
from ..matches.match import RUNNING
from .audit_chain import (
    Recorder,
    Stored,
    check_before_start,
    check_chain,
    check_positions,
    check_receipt,
    decode,
)
from .audit_claims import Replay, StepView
from .audit_demo import split_planted
from .audit_derived import DerivedReplay, check_derived
from .audit_rulings import check_rulings
from .audit_text import named, step, when

# ---- which matches -----------------------------------------------------------------------------


def match_ids(recorder: Recorder) -> list[UUID]:
    """Every match with at least one stored row, in the order they were first stored. Read from
    the raw notification log, so a match whose start was deleted or mangled is still found."""
    return recorder.match_ids()


# ---- the audit ---------------------------------------------------------------------------------


def audit_all(recorder: Recorder) -> dict[str, Any]:
    reports = [audit_match(recorder, match_id) for match_id in match_ids(recorder)]
    return {"clean": all(r["clean"] for r in reports), "matches": reports}


# The report lists the running score after every move, MOVES_PAGE moves at a time: a long match
# (Topitop can loop for 100,000 moves) would otherwise make an answer of many megabytes.
MOVES_PAGE = 1000


def audit_match(
    recorder: Recorder, match_id: UUID, head: str | None = None, moves_from: int | None = None
) -> dict[str, Any]:
    """The audit report of one match; `head` is a receipt (a head hash, or a prefix of 8 or more
    of its characters) kept from an earlier audit or claim. The report's `moves` are the
    MOVES_PAGE moves from move `moves_from` (default: the newest ones); `moves_page` says which.
    Every move is checked whatever the page. A match the audit finds damaged is quarantined
    there and then (`tell_if_damaged`)."""
    report = audit_report(recorder, match_id, head, moves_from)
    tell_if_damaged(recorder, match_id, report["findings"])
    return report


def audit_report(
    recorder: Recorder, match_id: UUID, head: str | None = None, moves_from: int | None = None
) -> dict[str, Any]:
    """`audit_match`'s report, and nothing else done (what the quarantine asks for its words)."""
    rows = recorder.recorder.select_events(match_id)
    if not rows:
        raise MatchNotFound(f"no match {match_id} in this store")
    audit = DerivedReplay()
    stored = decode(audit, recorder, rows)
    events = check_before_start(audit, stored) or stored
    check_positions(audit, events)
    check_chain(audit, events)
    audit.replay(events)
    check_derived(audit, events)
    audit.compare_claims()
    check_rulings(audit, recorder, events)
    if head is not None:
        check_receipt(audit, events, head)
    return _report(audit, match_id, events, moves_from)


# ---- damage: the findings that make a match unreadable ------------------------------------------

# In the order a person should hear them (`unreadable` picks the first).
UNREADABLE = ("undecodable", "inserted", "missing", "replay", "chain")


F = TypeVar("F", bound=Mapping[str, object])  # a finding, as the audit keeps it


def unreadable(findings: Sequence[F]) -> F | None:
    """The finding that best names why the match may not read, if any does."""
    for kind in UNREADABLE:
        for found in findings:
            if found["kind"] == kind:
                return found
    return None


def tell_if_damaged(recorder: Recorder, match_id: UUID, findings: list[dict[str, Any]]) -> None:
    """Tell the recorder's watchers (the read side) of a match the audit found rows of that may
    not read: the projection quarantines it if its events no longer fold, as a rebuild of the
    tables would (a changed score breaks the chain, yet the match still reads and counts)."""
    first = unreadable(findings)
    if first is not None:
        recorder.found_damaged(Damaged(match_id, first["message"]))


# ---- the report --------------------------------------------------------------------------------


def _moves_page(audit: Replay, moves_from: int | None) -> tuple[list[StepView], dict[str, int]]:
    """The listed moves (`audit.line[0]` is the start) and which they are, numbered from 1."""
    total = len(audit.line) - 1
    first = max(1, total - MOVES_PAGE + 1) if moves_from is None else max(1, moves_from)
    shown = audit.line[first : first + MOVES_PAGE]
    return (
        [step.view(audit.seats) for step in shown],
        {
            "first": first if shown else 0,
            "last": first + len(shown) - 1 if shown else 0,
            "total": total,
            "page": MOVES_PAGE,
        },
    )


def _report(
    audit: Replay, match_id: UUID, events: list[Stored], moves_from: int | None = None
) -> dict[str, Any]:
    for dispute in audit.disputes:
        if dispute["ruling"] is None:
            audit.find(
                dispute["event"],
                "dispute",
                f"the dispute raised by {dispute['by']} "
                f"at {step(dispute['event'])} is still open: {dispute['about']}",
            )
    if audit.replaying and audit.status == RUNNING and audit.outcome_now() is not None:
        audit.notes.append("the game is over by the rules but the match was never ended")
    audit.findings.sort(key=lambda f: (f["event"] is None, f["event"] or 0))
    findings, planted = split_planted(audit.findings, audit.claims, audit.disputes)
    started, last = audit.started, events[-1]
    scores = None
    if audit.replaying:
        final = audit.line[-1]
        scores = {
            "after_move": final.move,
            "totals": final.totals and dict(zip(audit.seats, final.totals)),
            "unknown": final.unknown,
        }
    return {
        "match": str(match_id),
        "game": getattr(started, "game", None),
        "seats": audit.seats,
        "started_at": when(started) if started else None,
        "status": "disputed" if any(d["ruling"] is None for d in audit.disputes) else audit.status,
        "clean": not findings,
        "events": len(events),
        "head": {"event": last.position, "hash": last.hash},
        "findings": findings,
        "planted": planted,  # the demo store's examples (audit_demo.py): they fail nothing
        "notes": audit.notes,
        **dict(zip(("moves", "moves_page"), _moves_page(audit, moves_from))),
        "scores": scores,
        "claims": [
            {
                "event": c.event,
                "by": c.by,
                "at": c.at,
                "scores": c.scores,
                "after_move": c.line[-1].move if c.line else None,
                "over": c.over,
                **c.result,
            }
            for c in audit.claims
        ],
        "undos": audit.undos,
        "disputes": audit.disputes,
        "outcome": {
            "recorded": named(audit.seats, audit.recorded_outcome),
            "rules": named(audit.seats, audit.outcome_now()) if audit.replaying else None,
        },
        "abandoned": audit.abandoned,
        "sheet": audit.sheet and audit.sheet["recorded"],  # a score-sheet match's sheet
    }
