"""The match record: one JSON object per match, the format of `export` and `import`.

    {"format": "tablelog-match/2", "id": "...", "game": "topitop", "rules_version": "1",
     "options": {...}, "seats": ["Ann", "Ben"], "setup": {...}, "components": {...} | null,
     "played_at": null, "started_at": "...", "hash": "...", "entered_by": {...},
     "events": [{"type": "move", "seat": "Ann", "move": {...}, "at": "...",
                 "entered_by": {"id": "...", "name": "Ann", "via": "api"}, "hash": "..."}, ...]}

`entered_by` (who entered the event) is there when the event carries it: an older reader ignores
it, and an event stored before it existed has none (it reads as entered by "unknown"). A ruling
signed by the umpire's own key carries its `signature` (domain.matches.rulings), kept on import.

A record is turned back into a Match by replaying every entry through the same command methods a
person's entries go through, so an imported match is checked exactly like a recorded one. It
keeps its id, its times and so its hashes: a copy verifies against the original's receipts, and a
record whose entries were changed after export no longer matches the hashes it carries.
Format 1 (release 0.1: no components, no hashes) still imports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from ..errors import BadRecord, Refused
from ..games import RulesError
from ..plain import PlainMapping
from ..quoting import quoted
from .entering import check_person
from .match import AGGREGATE_TOPICS, Match, event_hash, start_match
from .times import parse_time

FORMAT = "tablelog-match/2"
FORMATS = ("tablelog-match/1", FORMAT)

# Stored event class name -> (record entry type, the fields it carries besides `type`).
ENTRIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "MoveRecorded": ("move", ("seat", "move")),
    "MoveUndone": ("undo", ("by", "reason")),
    "ResultClaimed": ("claim", ("by", "scores")),
    "DisputeRaised": ("dispute", ("by", "about")),
    "DisputeResolved": ("resolve", ("by", "ruling")),
    "Ended": ("end", ("outcome",)),
    "Abandoned": ("abandon", ("by", "reason")),
    "SheetRecorded": ("sheet", ("sheet", "outcome")),
}


def to_record(events: Iterable[Any]) -> dict[str, Any]:
    """A match record from the match's stored domain events, in order."""
    events = list(events)
    started = events[0]
    record: dict[str, Any] = {
        "format": FORMAT,
        "id": str(started.originator_id),
        "game": started.game,
        "rules_version": started.rules_version,
        "options": started.options,
        "seats": list(started.seats),
        "setup": started.setup,
        "components": started.components,
        "played_at": started.played_at,
        "started_at": started.timestamp.isoformat(),
        "hash": event_hash(started),
        "events": [],
    }
    if started.entered_by is not None:
        record["entered_by"] = started.entered_by
    for stored in events[1:]:
        kind, fields = ENTRIES[type(stored).__name__]
        entry: dict[str, Any] = {"type": kind}
        for field in fields:
            entry[field] = getattr(stored, field)
        if kind == "move":
            entry["seat"] = record["seats"][entry["seat"]]
        if kind == "end" and entry["outcome"]["reason"] == "draw by agreement":
            entry["agreed_draw"] = True
        entry["at"] = stored.timestamp.isoformat()
        if stored.entered_by is not None:
            entry["entered_by"] = stored.entered_by
        if getattr(stored, "signature", None) is not None:
            entry["signature"] = (
                stored.signature
            )  # an umpire's signed ruling (domain.matches.rulings)
        entry["hash"] = event_hash(stored)
        record["events"].append(entry)
    if getattr(started, "kind", None) is not None:
        record["kind"] = started.kind  # a score-sheet match (absent: moves logged)
    if started.originator_topic != AGGREGATE_TOPICS[0]:
        record["originator_topic"] = started.originator_topic  # stored by release 0.1
    return record


def _field(entry: PlainMapping, name: str) -> Any:
    """A field of a record's entry; a missing one is None, which the Match command it is
    handed to refuses in its own words."""
    return entry.get(name)


def _apply_entry(match: Match, entry: PlainMapping) -> None:
    kind = entry.get("type")
    if kind == "move":
        match.record(_field(entry, "seat"), _field(entry, "move"))
    elif kind == "undo":
        match.undo(_field(entry, "by"), _field(entry, "reason"))
    elif kind == "claim":
        match.claim(_field(entry, "by"), _field(entry, "scores"))
    elif kind == "dispute":
        match.dispute(_field(entry, "by"), _field(entry, "about"))
    elif kind == "resolve":
        match.resolve(
            _field(entry, "by"), _field(entry, "ruling"), signature=entry.get("signature")
        )
    elif kind == "end":
        match.end(agreed_draw=bool(_field(entry, "agreed_draw")))
        if "outcome" in entry and entry["outcome"] != match.outcome:
            raise Refused(
                f"the record says the match ended {entry['outcome']}, the rules say {match.outcome}"
            )
    elif kind == "abandon":
        match.abandon(_field(entry, "by"), _field(entry, "reason"))
    elif kind == "sheet":
        match.record_sheet(entry.get("sheet"))
        if "outcome" in entry and entry["outcome"] != match.outcome:
            raise Refused(
                f"the record says the sheet gives {entry['outcome']}, "
                f"the sheet rules say {match.outcome}"
            )
    else:
        kinds = ", ".join(kind for kind, _ in ENTRIES.values())
        raise Refused(f"unknown entry type {quoted(kind)} (one of {kinds})")


def from_record(record: object, keep_id: bool = True, now: datetime | None = None) -> Match:
    """A Match (its events pending, nothing stored) rebuilt from a record, or BadRecord saying
    which entry broke which rule. Times and hashes the record carries are kept and checked."""
    if not isinstance(record, Mapping):
        raise BadRecord("a match record is a JSON object")
    if record.get("format") not in FORMATS:
        raise BadRecord(
            f"format must be {FORMAT!r} (or {FORMATS[0]!r}), got {quoted(record.get('format'))}"
        )
    missing = {"game", "seats", "events"} - set(record)
    if missing:
        raise BadRecord(f"the record lacks {', '.join(sorted(missing))}")
    try:
        match_id = UUID(record["id"]) if keep_id and record.get("id") else uuid4()
    except (TypeError, ValueError, AttributeError):
        raise BadRecord(f"id {quoted(record.get('id'))} is not a UUID") from None
    # Every format-1 record was written by release 0.1: its events were hashed with that
    # release's spelling of the aggregate's name.
    release_0_1 = record["format"] == FORMATS[0]
    try:
        started_at = _time(record.get("started_at"), "started_at", None, now)
        match = start_match(
            match_id,
            record["game"],
            record["seats"],
            record.get("options"),
            record.get("setup"),
            rules_version=record.get("rules_version"),
            components=record.get("components"),
            played_at=record.get("played_at"),
            at=started_at,
            as_recorded=True,
            originator_topic=record.get("originator_topic")
            or (AGGREGATE_TOPICS[1] if release_0_1 else None),
            kind=record.get("kind"),
            entered_by=record.get("entered_by"),
        )
        _check_hash(match, record, keep_id, "the start")
    except (Refused, RulesError) as err:
        raise BadRecord(f"cannot start the match: {err}") from None
    entries = record["events"]
    if not isinstance(entries, list):
        raise BadRecord("events must be a list")
    for number, entry in enumerate(entries, start=1):
        try:
            if not isinstance(entry, Mapping):
                raise Refused("an entry is a JSON object")
            match.at(_time(entry.get("at"), "its time (at)", match, now))
            match.by(check_person(entry.get("entered_by")))
            _apply_entry(match, entry)
            _check_hash(match, entry, keep_id, "the entry")
        except (Refused, RulesError) as err:
            what = _describe_entry(match, entry)
            raise BadRecord(f"event {number} ({what}): {err}") from None
    return match


def _time(text: object, what: str, match: Match | None, now: datetime | None) -> datetime | None:
    """A recorded time (None when the record gives none: then it is now), checked to have a
    zone, not to lie in the future and not to go back before the match's previous event."""
    if text is None:
        return None
    when = parse_time(text, what, now)
    previous = match.pending_events[-1].timestamp if match and match.pending_events else None
    if previous is not None and when < previous:
        raise Refused(
            f"{what} {when.isoformat()} is before the previous event's "
            f"{previous.isoformat()}: times never go backwards within a match"
        )
    return when


def _check_hash(match: Match, entry: PlainMapping, keep_id: bool, what: str) -> None:
    """A record carries each event's hash: the event rebuilt from it must hash the same, or the
    record was changed after it was exported."""
    recorded = entry.get("hash")
    if recorded is None or not keep_id:
        return
    rebuilt = event_hash(match.pending_events[-1])
    if recorded != rebuilt:
        raise Refused(
            f"{what} does not match the hash the record carries ({str(recorded)[:12]}"
            f"... recorded, {rebuilt[:12]}... rebuilt): the record was changed after "
            "it was exported"
        )


def _describe_entry(match: Match, entry: object) -> str:
    if isinstance(entry, Mapping) and entry.get("type") == "move":
        return f"move {len(match.moves) + 1} by {entry.get('seat')}: {entry.get('move')}"
    return f"{entry.get('type') if isinstance(entry, Mapping) else entry!r}"


def check_all(
    records: Iterable[object],
    on_each: Callable[[], object] | None = None,  # its return value, if any, is ignored
    lines: Iterable[int] | None = None,
) -> list[Match]:
    """Rebuild every record; the first bad one raises BadRecord naming its line (`lines`: the
    file's line numbers of the records, else 1, 2, ...). Two records with one id are refused."""
    matches: list[Match] = []
    first_line: dict[UUID, int] = {}
    numbers = iter(lines) if lines is not None else None
    for counted, record in enumerate(records, start=1):
        line = next(numbers) if numbers is not None else counted
        try:
            match = from_record(record)
        except BadRecord as err:
            raise BadRecord(f"line {line}: {err}") from None
        if match.id in first_line:
            raise BadRecord(
                f"line {line}: match {match.id} appears twice in this file (first "
                f"on line {first_line[match.id]})"
            )
        first_line[match.id] = line
        matches.append(match)
        if on_each:
            on_each()
    return matches
