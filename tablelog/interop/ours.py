"""Our matches as the neutral score sheet both writers (BG Stats, BGG) take: a sheet match's
own sheet, or for a match logged move by move the rules' final score. Only ended matches have
a result to give; running and abandoned ones are left out and counted."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from numpy import format_float_positional

from tablelog.domain.errors import Refused
from tablelog.domain.games import RulesError
from tablelog.domain.matches.match import ENDED, Match
from tablelog.domain.matches.times import utc_text


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
    # When the match was entered and last changed (an imported play: its own time, both).
    entered: datetime | None = None
    modified: datetime | None = None


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
            match.created_on,
            match.modified_on,
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
        None,
        match.created_on,
        match.modified_on,
    )


def _totals(match: Match) -> list[float | int | None]:
    try:
        return [_plain(entry["total"]) for entry in match.rules.score(match.state)]
    except RulesError:  # a hidden identity never revealed: no score to give
        return [None] * len(match.seats)


def _plain(value: float | int | None) -> float | int | None:
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


def local(sheet: Sheet, when: datetime, zone: tzinfo) -> datetime:
    """One of the sheet's times in `zone`, as both tools write local times; or Refused naming
    the match, for a time stored before every time was checked (year 1, year 9999) that has no
    date there, which neither tool could hold."""
    try:
        return when.astimezone(zone)
    except (OverflowError, ValueError):
        bound = "--since 1900-01-01" if sheet.played.year < 1900 else "--until"
        raise Refused(
            f"match {sheet.match_id} was played at {utc_text(sheet.played.isoformat())} (stored "
            f"before every time was checked), which has no date in {zone} for BG Stats or BGG "
            f"to hold; leave it out of an export with {bound}"
        ) from None


def score_text(value: float | int | None) -> str:
    """A total as both tools write it: every digit kept (a float as its shortest exact
    decimal, never in exponent form, which neither tool reads)."""
    if value is None:
        return ""
    return format_float_positional(value, trim="-") if isinstance(value, float) else str(value)
