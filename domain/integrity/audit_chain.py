"""The log as stored: does every row still decode, do positions run without a gap, does every
event hold the hash of the one before it, and does a kept receipt still match an event?

Each check adds what it finds to the audit's `Findings`; see docs/audit.md for what a broken
link can and cannot tell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Mapper, StoredEvent

from ..errors import Damaged
from ..matches.match import Match, event_hash
from ..recording.users import Users
from .audit_findings import Findings
from .audit_text import step, steps


class Recorder(Protocol):
    """The store as the audit reads it: `domain.recording.recorder.Recorder` is one. Named by what
    the audit asks of it, so that the audit imports nothing above it: the recorder asks the audit
    why a match is damaged (`domain.recording.quarantine`)."""

    @property
    def mapper(self) -> Mapper[UUID]: ...

    @property
    def recorder(self) -> ApplicationRecorder: ...

    @property
    def people(self) -> Users: ...  # whose keys sign rulings (audit_rulings)

    def match_ids(self) -> list[UUID]: ...

    def found_damaged(self, error: Damaged) -> Damaged: ...


@dataclass
class Stored:
    """One stored row: its position, the event decoded from it (None if it no longer decodes)."""

    position: int
    event: Match.Event | None
    hash: str | None


def decode(found: Findings, recorder: Recorder, rows: Sequence[StoredEvent]) -> list[Stored]:
    events = []
    for row in rows:
        try:
            event = recorder.mapper.to_domain_event(row)
            if not isinstance(event, Match.Event):
                raise TypeError(f"{row.topic} is not an event of a match")
            stored = Stored(row.originator_version, event, event_hash(event))
        except Exception as err:  # noqa: BLE001 - a tampered row may fail in any way
            cause = err.__cause__ or err  # the mapper wraps the decoder's own words
            reason = str(cause).splitlines()[0] if str(cause) else type(cause).__name__
            found.find(
                row.originator_version,
                "undecodable",
                f"{step(row.originator_version)} no longer decodes ({reason}): "
                "its stored bytes were changed",
                topic=row.topic,
            )
            stored = Stored(row.originator_version, None, None)
        events.append(stored)
    return events


def check_before_start(found: Findings, events: list[Stored]) -> list[Stored]:
    """A match's log begins at event 1 (its start), so a row stored at position 0 or below was
    inserted before the start: it is reported as such, and the log is checked without it (the
    start and the events after it are judged on their own, not by the stray row)."""
    log = []
    for stored in events:
        if stored.position >= Match.INITIAL_VERSION:
            log.append(stored)
            continue
        what = f"a {type(stored.event).__name__} event" if stored.event is not None else "a row"
        found.find(
            stored.position,
            "inserted",
            f"{what} was inserted at position "
            f"{stored.position}, before the match's start (step 0, stored at position 1): a "
            "match's log begins there, so it is no event of this match",
        )
    return log


def check_positions(found: Findings, events: list[Stored]) -> None:
    """Positions run 1, 2, 3...: a gap is a deleted row (the store's key forbids duplicates;
    a row moved or inserted elsewhere breaks the hash chain instead)."""
    expected = Match.INITIAL_VERSION
    for stored in events:
        if stored.position > expected:
            missing = (
                f"{step(expected)} is"
                if stored.position == expected + 1
                else f"{steps(expected, stored.position - 1)} are"
            )
            found.find(
                expected,
                "missing",
                f"{missing} missing: deleted from the store",
                missing=list(range(expected, stored.position)),
            )
        expected = stored.position + 1


def check_chain(found: Findings, events: list[Stored]) -> None:
    """Every event holds `prev_hash`, the hash of the event before it; the first holds "".

    A broken link between events j-1 and j means one of the two is not what was recorded.
    Consecutive broken links are read together: an event whose links to BOTH neighbours are
    broken was itself replaced, inserted or moved (or had its seal edited); a lone broken
    link means the earlier event was edited after the later one sealed it (or, when the
    later one is the last, that the last was appended: only a receipt can tell those apart).
    """
    broken: list[tuple[Stored, Stored | None]] = []
    for before, stored in zip([None, *events], events):
        if stored.event is None or (before is not None and before.event is None):
            continue  # an undecodable row is a finding of its own
        if before is None:
            if stored.position == Match.INITIAL_VERSION and _seal(stored) != "":
                broken.append((stored, None))
        elif stored.position == before.position + 1 and _seal(stored) != before.hash:
            broken.append((stored, before))  # (across a gap the deleted row explains it)
    for run in _runs(broken):
        _report_broken_run(found, run, last=events[-1].position)


def _report_broken_run(found: Findings, run: list[tuple[Stored, Stored | None]], last: int) -> None:
    first, before = run[0]
    if before is None:  # the first event's seal is not "": it is not the match's start
        found.find(
            first.position,
            "chain",
            f"{step(first.position)} claims a predecessor "
            "but is stored as the first event: events before it were removed, or it "
            "was edited",
            between=[first.position],
        )
        run = run[1:]
        if not run:
            return
        first, before = run[0]
    assert before is not None  # only the first event stored has no predecessor
    if len(run) == 1:
        position, later = before.position, first.position
        if later == last:
            message = (
                f"{step(later)}, the last, does not follow {step(position)}: event "
                f"{later} was appended or replaced, or {step(position)} was edited"
            )
        else:
            message = (
                f"{step(position)} is not the event that {step(later)} sealed: it "
                "was edited after it was recorded"
            )
        found.find(position, "chain", message, between=[position, later])
        return
    # Links into and out of `first` are broken: the events from `first` on are not what was
    # stored there, up to the one before `end` (or `end` itself when nothing follows it).
    end = run[-1][0].position
    through = end if end == last else end - 1
    span = (
        f"{step(first.position)} is"
        if through == first.position
        else f"{steps(first.position, through)} are"
    )
    where = (
        f"after {step(before.position)}"
        if through == end
        else f"between {step(before.position)} and {step(end)}"
    )
    found.find(
        first.position,
        "chain",
        f"{span} not what was recorded {where}: replaced, inserted, moved or edited",
        between=[before.position, end],
    )


def check_receipt(found: Findings, events: list[Stored], head: str) -> None:
    receipt = head.strip().lower()
    if len(receipt) < 8:
        found.find(None, "receipt", "a receipt is a head hash (8 or more of its characters)")
        return
    for stored in reversed(events):
        if stored.hash and stored.hash.startswith(receipt):
            later = events[-1].position - stored.position
            if later:
                found.notes.append(
                    f"the receipt seals {step(stored.position)}; {later} "
                    f"event{'s were' if later > 1 else ' was'} recorded after "
                    "it (listed in the log): check they belong"
                )
            else:
                found.notes.append(f"the receipt matches the last event ({step(stored.position)})")
            return
    found.find(
        None,
        "receipt",
        f"no event of this match hashes to the receipt {receipt}: the "
        "event it sealed was deleted or changed",
    )


def _seal(stored: Stored) -> object:
    return getattr(stored.event, "prev_hash", None)


def _runs(
    broken: list[tuple[Stored, Stored | None]],
) -> Iterator[list[tuple[Stored, Stored | None]]]:
    """Group broken links whose positions follow one another."""
    run: list[tuple[Stored, Stored | None]] = []
    for link in broken:
        if run and link[0].position != run[-1][0].position + 1:
            yield run
            run = []
        run.append(link)
    if run:
        yield run
