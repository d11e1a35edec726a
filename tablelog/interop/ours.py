"""Our matches as the neutral score sheet both writers (BG Stats, BGG) take: a sheet match's
own sheet, or for a match logged move by move the rules' final score. Only ended matches have
a result to give; running and abandoned ones are left out and counted."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from numpy import format_float_positional

from tablelog.domain.games import RulesError
from tablelog.domain.match import ENDED, Match


@dataclass
class Sheet:
    match_id: str
    game: str
    seats: list[str]
    totals: list[float | int | None]
    winners: list[str]
    first: str | None
    played: datetime  # aware
    duration_min: int | None
    location: str | None
    source: dict[str, str] | None
    # Each seat's entry as the sheet holds it (role, colour, new: a first play), or None; and
    # the sheet's board. Written back, so an imported play exports as the same play.
    entries: list[dict[str, Any] | None]
    board: str | None = None


def sheet_of(match: Match) -> Sheet | None:
    """None for a match that has not ended (no result to export)."""
    if match.status != ENDED or match.outcome is None:
        return None
    played = datetime.fromisoformat(match.played_at) if match.played_at else match.created_on
    winners = [match.seats[s] for s in match.outcome["winners"]]
    if match.sheet is not None:
        sheet = match.sheet
        totals = [(entry or {}).get("total") for entry in sheet["scores"]]
        return Sheet(
            str(match.id),
            match.game,
            list(match.seats),
            totals,
            winners,
            sheet["first"],
            played,
            sheet["duration_min"],
            sheet["location"],
            sheet["source"],
            list(sheet["scores"]),
            sheet["board"],
        )
    # Logged move by move: the first seat starts; the length is from start to end unless the
    # game was logged afterwards (then the entry time says nothing about the game's length).
    duration = (
        None
        if match.played_at
        else max(0, round((match.modified_on - match.created_on).total_seconds() / 60))
    )
    return Sheet(
        str(match.id),
        match.game,
        list(match.seats),
        _totals(match),
        winners,
        match.seats[0],
        played,
        duration,
        None,
        None,
        [None] * len(match.seats),
    )


def _totals(match: Match) -> list[Any]:
    try:
        return [_plain(entry["total"]) for entry in match.rules.score(match.state)]
    except RulesError:  # a hidden identity never revealed: no score to give
        return [None] * len(match.seats)


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def sheets(matches: Iterable[Match]) -> tuple[list[Sheet], int]:
    """(the ended matches as sheets, how many were left out because they had not ended)."""
    found, left = [], 0
    for match in matches:
        sheet = sheet_of(match)
        if sheet is None:
            left += 1
        else:
            found.append(sheet)
    return found, left


def score_text(value: Any) -> str:
    """A total as both tools write it: every digit kept (a float as its shortest exact
    decimal, never in exponent form, which neither tool reads)."""
    if value is None:
        return ""
    return format_float_positional(value, trim="-") if isinstance(value, float) else str(value)
