"""Plain-value views of a match, shared by the command line, the HTTP API and the dashboard."""

from __future__ import annotations

from typing import Any, TypedDict

from ..wording import outcome_text, player_count_refusal, winners_text
from .match import SHEET, Match
from .times import utc_text

__all__ = [
    "draw_offered",
    "named_outcome",
    "outcome_text",
    "played",
    "player_count_refusal",
    "said_outcome",
    "score_view",
    "sheet_score_view",
    "sheet_text",
    "state_view",
    "status",
    "summary",
    "winners_text",
]


class NamedOutcome(TypedDict):
    """An outcome with the players' names for its seats (`named_outcome`)."""

    winners: list[str]
    ranking: list[list[str]]
    reason: str


def named_outcome(match: Match, outcome: dict[str, Any] | None) -> NamedOutcome | None:
    if outcome is None:
        return None
    name = match.seats.__getitem__
    return {
        "winners": [name(s) for s in outcome["winners"]],
        "ranking": [[name(s) for s in group] for group in outcome["ranking"]],
        # The stored reason's words, with the players' names where it names seats.
        "reason": match.rules.named_reason(outcome["reason"], match.seats),
    }


def said_outcome(
    match: Match, outcome: dict[str, Any] | None, undecided: str = "the game is still running"
) -> str:
    """An outcome by seat numbers (`Match.outcome`, `Outcome.to_json()`) in the words every
    front end shows: 'Ann and Ben win (reason)', 'no winner (reason)'."""
    return outcome_text(named_outcome(match, outcome), undecided)


def summary(match: Match) -> dict[str, Any]:
    """One line of `list`: who, what, how far, how it stands."""
    decided = match.rules_outcome()
    outcome = match.outcome or (decided.to_json() if decided else None)
    return {
        "id": str(match.id),
        "game": match.game,
        "seats": list(match.seats),
        "status": status(match),
        "moves": len(match.moves),
        "started": match.created_on.isoformat(),
        "played": played(match),
        "outcome": named_outcome(match, outcome),
    }


def status(match: Match) -> str:
    """The match's status as every list shows it: "disputed" while a dispute is open."""
    return "disputed" if match.open_disputes else match.status


def played(match: Match) -> str:
    """When the game was played: the time given when it was logged afterwards, else its start,
    in UTC as every other time here."""
    if match.played_at:
        return utc_text(match.played_at)
    return match.created_on.isoformat()


def draw_offered(match: Match) -> bool:
    """The match is past its game's move cap and still undecided: the table is offered a draw
    by agreement (`GameRules.move_cap`)."""
    return (
        match.status == "running"
        and len(match.moves) >= match.rules.move_cap
        and match.rules.outcome(match.state) is None
    )


def state_view(match: Match, step: int | None = None) -> dict[str, Any]:
    if match.kind == SHEET:  # no position: the sheet is what there is
        return {
            **summary(match),
            "step": match.version - Match.INITIAL_VERSION if step is None else step,
            "rules_version": match.rules_version,
            "options": match.options,
            "to_move": [],
            "kind": SHEET,
            "sheet": match.sheet,
            "rules_outcome": None,
            "state": None,
            "move_cap": None,
            "draw_offered": False,
        }
    rules, state = match.rules, match.state
    outcome = rules.outcome(state)
    return {
        **summary(match),
        "step": match.version - Match.INITIAL_VERSION if step is None else step,
        "rules_version": match.rules_version,
        "options": match.options,
        "to_move": [match.seats[s] for s in rules.to_move(state)],
        "rules_outcome": named_outcome(match, outcome.to_json() if outcome else None),
        "state": rules.encode(state),
        "move_cap": rules.move_cap,
        "draw_offered": draw_offered(match),
    }


def score_view(match: Match) -> dict[str, Any]:
    """Per seat: total, categories, details; and the outcome by the rules (UnknownInformation
    propagates when a hidden identity the score needs was never revealed)."""
    if match.kind == SHEET:
        return sheet_score_view(match)
    rules = match.rules
    scores = rules.score(match.state)
    outcome = rules.outcome(match.state)
    return {
        "id": str(match.id),
        "game": match.game,
        "seats": [{"seat": name, **entry} for name, entry in zip(match.seats, scores)],
        "outcome": named_outcome(match, outcome.to_json() if outcome else None),
    }


def sheet_score_view(match: Match) -> dict[str, Any]:
    """A score-sheet match's scores as `score_view` gives them: the sheet's totals and the
    categories it has (None where it gives none)."""
    entries = (match.sheet or {}).get("scores") or [None] * len(match.seats)
    return {
        "id": str(match.id),
        "game": match.game,
        "kind": SHEET,
        "seats": [
            {
                "seat": name,
                "total": (entry or {}).get("total"),
                "categories": (entry or {}).get("categories") or {},
                "details": {},
            }
            for name, entry in zip(match.seats, entries)
        ],
        "outcome": named_outcome(match, match.outcome),
    }


def sheet_text(match: Match) -> str:
    """A score sheet as `tablelog show` prints it."""
    sheet = match.sheet
    if sheet is None:
        return "score sheet: not recorded yet"
    lines = [f"score sheet{' (first: ' + sheet['first'] + ')' if sheet['first'] else ''}"]
    for name, entry in zip(match.seats, sheet["scores"]):
        total = "-" if not entry or entry["total"] is None else entry["total"]
        parts = ", ".join(f"{k} {v}" for k, v in ((entry or {}).get("categories") or {}).items())
        won = "  (won)" if name in sheet["winners"] else ""
        lines.append(f"  {name}: {total}{' = ' + parts if parts else ''}{won}")
    extra = [f"{k}: {sheet[k]}" for k in ("duration_min", "location", "board") if sheet[k]]
    return "\n".join(lines + ([", ".join(extra)] if extra else []))
