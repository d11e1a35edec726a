"""A score-sheet match whole: its Started event (kind "sheet") and its SheetRecorded event,
built and checked together, pending until one save stores both or neither."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from .match import SHEET, Match, start_match


def sheet_match(
    match_id: UUID,
    game: str,
    seats: list[str],
    sheet: object,
    options: object = None,
    *,
    played_at: datetime | str | None = None,
    at: datetime | None = None,
) -> Match:
    """Refused (naming the seat and field) or a Match with both events pending; `at` gives
    both events one time (an import keeps the play's date as `played_at`, not as `at`)."""
    match = start_match(match_id, game, seats, options, played_at=played_at, at=at, kind=SHEET)
    match.at(at).record_sheet(sheet)
    return match


def is_sheet(started: object) -> bool:
    """Whether a Started event (or a Match) is a score-sheet match; events stored before the
    field existed have no `kind` attribute at all."""
    return getattr(started, "kind", None) == SHEET
