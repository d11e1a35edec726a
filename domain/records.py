"""The match record: one JSON object per match, the format of `export` and `import`.

    {"format": "tablelog-match/1", "id": "...", "game": "topitop", "rules_version": "1",
     "options": {...}, "seats": ["Ann", "Ben"], "setup": {...}, "started_at": "...",
     "events": [{"type": "move", "seat": "Ann", "move": {...}}, {"type": "undo", ...}, ...]}

A record is turned back into a Match by replaying every entry through the same command methods a
person's entries go through, so an imported match is checked exactly like a recorded one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from uuid import UUID, uuid4

from .errors import BadRecord, Refused
from .games import RulesError
from .match import Match, start_match

FORMAT = "tablelog-match/1"

# Stored event class name -> (record entry type, the fields it carries besides `type`).
ENTRIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "MoveRecorded": ("move", ("seat", "move")),
    "MoveUndone": ("undo", ("by", "reason")),
    "ResultClaimed": ("claim", ("by", "scores")),
    "DisputeRaised": ("dispute", ("by", "about")),
    "DisputeResolved": ("resolve", ("by", "ruling")),
    "Ended": ("end", ("outcome",)),
    "Abandoned": ("abandon", ("by", "reason")),
}


def to_record(events: Iterable[Any]) -> dict[str, Any]:
    """A match record from the match's stored domain events, in order."""
    events = list(events)
    started = events[0]
    record: dict[str, Any] = {
        "format": FORMAT, "id": str(started.originator_id), "game": started.game,
        "rules_version": started.rules_version, "options": started.options,
        "seats": list(started.seats), "setup": started.setup,
        "started_at": started.timestamp.isoformat(), "events": [],
    }
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
        record["events"].append(entry)
    return record


def _apply_entry(match: Match, entry: Mapping[str, Any]) -> None:
    kind = entry.get("type")
    if kind == "move":
        match.record(entry.get("seat"), entry.get("move"))
    elif kind == "undo":
        match.undo(entry.get("by"), entry.get("reason"))
    elif kind == "claim":
        match.claim(entry.get("by"), entry.get("scores"))
    elif kind == "dispute":
        match.dispute(entry.get("by"), entry.get("about"))
    elif kind == "resolve":
        match.resolve(entry.get("by"), entry.get("ruling"))
    elif kind == "end":
        match.end(agreed_draw=bool(entry.get("agreed_draw")))
        if "outcome" in entry and entry["outcome"] != match.outcome:
            raise Refused(f"the record says the match ended {entry['outcome']}, "
                          f"the rules say {match.outcome}")
    elif kind == "abandon":
        match.abandon(entry.get("by"), entry.get("reason"))
    else:
        kinds = ", ".join(kind for kind, _ in ENTRIES.values())
        raise Refused(f"unknown entry type {kind!r} (one of {kinds})")


def from_record(record: Any, keep_id: bool = True) -> Match:
    """A Match (its events pending, nothing stored) rebuilt from a record, or BadRecord saying
    which entry broke which rule."""
    if not isinstance(record, Mapping):
        raise BadRecord("a match record is a JSON object")
    if record.get("format") != FORMAT:
        raise BadRecord(f"format must be {FORMAT!r}, got {record.get('format')!r}")
    missing = {"game", "seats", "events"} - set(record)
    if missing:
        raise BadRecord(f"the record lacks {', '.join(sorted(missing))}")
    try:
        match_id = UUID(record["id"]) if keep_id and record.get("id") else uuid4()
    except (TypeError, ValueError, AttributeError):
        raise BadRecord(f"id {record.get('id')!r} is not a UUID") from None
    try:
        match = start_match(match_id, record["game"], record["seats"], record.get("options"),
                            record.get("setup"), record.get("rules_version"))
    except (Refused, RulesError) as err:
        raise BadRecord(f"cannot start the match: {err}") from None
    entries = record["events"]
    if not isinstance(entries, list):
        raise BadRecord("events must be a list")
    for number, entry in enumerate(entries, start=1):
        try:
            if not isinstance(entry, Mapping):
                raise Refused("an entry is a JSON object")
            _apply_entry(match, entry)
        except (Refused, RulesError) as err:
            what = _describe_entry(match, entry)
            raise BadRecord(f"event {number} ({what}): {err}") from None
    return match


def _describe_entry(match: Match, entry: Any) -> str:
    if isinstance(entry, Mapping) and entry.get("type") == "move":
        return f"move {len(match.moves) + 1} by {entry.get('seat')}: {entry.get('move')}"
    return f"{entry.get('type') if isinstance(entry, Mapping) else entry!r}"


def check_all(records: Iterable[Any], on_each: Callable[[], None] | None = None) -> list[Match]:
    """Rebuild every record; the first bad one raises BadRecord naming its line (1-based)."""
    matches = []
    for line, record in enumerate(records, start=1):
        try:
            matches.append(from_record(record))
        except BadRecord as err:
            raise BadRecord(f"line {line}: {err}") from None
        if on_each:
            on_each()
    return matches
