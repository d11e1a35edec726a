"""How the audit words times, numbers, steps, seats, claims and outcomes in its messages.

Steps, not events, in everything a person reads (one numbering with `show --at N`, the API's
`at=` and the Match page): step 0 is the start, stored as event 1, so step N is the event stored
at position N + 1. The report's JSON keeps the stored positions (`"event"`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict


def when(event: object) -> str:
    stamp = getattr(event, "timestamp", None)
    return stamp.isoformat(timespec="seconds") if isinstance(stamp, datetime) else repr(stamp)


def num(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def signed(value: float) -> str:
    return f"+{num(value)}" if value > 0 else num(value)


class NamedOutcome(TypedDict):
    """An outcome as stored, with names for its seats (`named`); its reason as stored."""

    winners: list[str]
    ranking: list[list[str]]
    reason: object


def named(seats: list[str], outcome: dict[str, Any] | None) -> NamedOutcome | None:
    if outcome is None:
        return None
    return {
        "winners": [seat_name(seats, s) for s in outcome.get("winners", [])],
        "ranking": [[seat_name(seats, s) for s in group] for group in outcome.get("ranking", [])],
        "reason": outcome.get("reason"),
    }


def seat_name(seats: list[str], index: object) -> str:
    """A seat's name; a stored index that names no seat (a tampered row) is shown as stored."""
    if type(index) is int and 0 <= index < len(seats):
        return seats[index]
    return f"seat {index!r}"


def outcome_text(seats: list[str], outcome: dict[str, Any]) -> str:
    winners = [seat_name(seats, s) for s in outcome.get("winners", [])]
    who = f"{' and '.join(winners)} winning" if winners else "no winner"
    return f"{who} ({outcome.get('reason')})"


def step(position: object) -> str:
    """A stored position as the step a person reads, and can type back: `show --at N`."""
    return f"step {position - 1}" if type(position) is int else f"the event stored at {position!r}"


def steps(first: int, last: int) -> str:
    return f"step {first - 1}" if first == last else f"steps {first - 1} to {last - 1}"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def claim_sentence(
    by: str, position: int, after_move: int | None, difference: dict[str, Any]
) -> str:
    """One seat's claimed score against the rules' (or the sheet's) in one sentence: who
    claimed what for whom, and what the rules give."""
    seat, claimed, given = difference["seat"], difference["claimed"], difference["recomputed"]
    after = f" (after move {after_move})" if after_move is not None else ""
    source = "the rules give" if difference.get("source") != "sheet" else "the score sheet gives"
    high = "high" if claimed > given else "low"
    return (
        f"At {step(position)}{after} {by} claimed {num(claimed)} for {seat}; {source} {seat} "
        f"{num(given)}, so the claim is {num(abs(claimed - given))} too {high}."
    )


def winner_sentence(leaders: list[str], winners: list[str]) -> str:
    """Whether a wrong final claim changes who wins."""
    by_rules = (
        f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"
        if winners
        else "nobody wins"
    )
    if sorted(leaders) == sorted(winners):
        return f"The claimed scores give the same winner as the rules: {by_rules}."
    if len(leaders) == 1:
        return f"By the claimed scores {leaders[0]} would win; by the rules {by_rules}."
    return (
        f"By the claimed scores {' and '.join(leaders)} would tie for first; by the rules "
        f"{by_rules}."
    )
