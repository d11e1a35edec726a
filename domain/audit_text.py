"""How the audit words times, numbers, seats and outcomes in its report and its messages."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def when(event: Any) -> str:
    stamp = getattr(event, "timestamp", None)
    return stamp.isoformat(timespec="seconds") if isinstance(stamp, datetime) else repr(stamp)


def num(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def signed(value: float) -> str:
    return f"+{num(value)}" if value > 0 else num(value)


def named(seats: list[str], outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winners": [seat_name(seats, s) for s in outcome.get("winners", [])],
        "ranking": [[seat_name(seats, s) for s in group] for group in outcome.get("ranking", [])],
        "reason": outcome.get("reason"),
    }


def seat_name(seats: list[str], index: Any) -> str:
    """A seat's name; a stored index that names no seat (a tampered row) is shown as stored."""
    if type(index) is int and 0 <= index < len(seats):
        return seats[index]
    return f"seat {index!r}"


def outcome_text(seats: list[str], outcome: dict[str, Any]) -> str:
    winners = [seat_name(seats, s) for s in outcome.get("winners", [])]
    who = f"{' and '.join(winners)} winning" if winners else "no winner"
    return f"{who} ({outcome.get('reason')})"
