"""Plain rows for the Match page, from one match's stored events: the event log (undone moves,
undos, claims, disputes), what happened at a step, and claims beside the recomputed result.
Pure functions of events and rules; the page only shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tablelog.domain.games import GameRules
from tablelog.domain.matches.entering import entered_by_name
from tablelog.domain.wording import game_name, move_words, outcome_text

if TYPE_CHECKING:
    import pandas as pd

    from tablelog.domain.matches.match import Match

# What each kind of event is called where a person reads the log.
EVENT_WORDS = {
    "Started": "start",
    "MoveRecorded": "move",
    "MoveUndone": "undo",
    "ResultClaimed": "claim",
    "DisputeRaised": "dispute raised",
    "DisputeResolved": "dispute resolved",
    "SheetRecorded": "score sheet",
    "Ended": "end",
    "Abandoned": "abandoned",
}


class EventRow(TypedDict):
    """One event of the log as the Match page and `tablelog log --json` show it."""

    step: int  # 0 = the start
    when: str
    event: str  # the kind of event
    who: str
    what: str
    flag: str  # withdrawn, open, resolved at step N, or nothing
    entered_by: str


class ClaimRow(TypedDict):
    """A claimed score of one seat beside the score the rules give there."""

    step: int
    by: str
    seat: str
    claimed: float
    recomputed: float | None
    agrees: bool | None


def event_log(
    events: Sequence[Any], rules: GameRules | None, seats: Sequence[str] = (), first_step: int = 0
) -> list[EventRow]:
    """One row per event: step (0 = the start), when, what kind, who (the seat or the name the
    entry gives), what it says, who entered it (`entered_by`, "unknown" before it was kept), and
    a flag:
    'withdrawn' for a move a later undo took back, 'open' for a dispute never resolved.

    `events` may be the tail of a long match, from step `first_step` on (then `seats` names its
    players): flags are right for every row shown, since only later events set them; an undo
    of a move before the tail says only why."""
    seats = list(seats)
    rows: list[EventRow] = []
    moves: list[EventRow] = []  # rows of the effective moves so far
    disputes: list[EventRow] = []
    for step, event in enumerate(events, start=first_step):
        kind = type(event).__name__
        row: EventRow = {
            "step": step,
            "when": event.timestamp.strftime("%Y-%m-%d %H:%M:%S"),
            "event": kind,
            "who": "",
            "what": "",
            "flag": "",
            "entered_by": entered_by_name(event),
        }
        if kind == "Started":
            seats = list(event.seats)
            row["what"] = f"{game_name(event.game)} for {', '.join(seats)}"
        elif kind == "MoveRecorded":
            row["who"] = seats[event.seat] if event.seat < len(seats) else str(event.seat)
            row["what"] = _describe(rules, event.move, seats)
            moves.append(row)
        elif kind == "MoveUndone":
            row["who"], withdrawn = event.by, moves.pop() if moves else None
            row["what"] = (
                f"withdrew step {withdrawn['step']} ({withdrawn['what']}): " if withdrawn else ""
            ) + event.reason
            if withdrawn:
                withdrawn["flag"] = "withdrawn"
        elif kind == "DisputeRaised":
            row["who"], row["what"], row["flag"] = event.by, event.about, "open"
            disputes.append(row)
        elif kind == "DisputeResolved":
            row["who"], row["what"] = event.by, event.ruling
            signature = getattr(event, "signature", None)
            if isinstance(signature, dict):  # an umpire's signed ruling (domain.matches.rulings)
                row["what"] += (
                    f" (signed by {signature.get('user', {}).get('name', 'unknown')} "
                    f"with their own key {signature.get('key')})"
                )
            open_ = [d for d in disputes if d["flag"] == "open"]
            if open_:
                open_[0]["flag"] = f"resolved at step {step}"
        else:
            _fill_in(row, kind, event, seats, rules)
        rows.append(row)
    return rows


def _fill_in(
    row: EventRow, kind: str, event: Any, seats: list[str], rules: GameRules | None
) -> None:
    """Who and what of an event that flags no earlier row (a claim, a sheet, the end)."""
    if kind == "ResultClaimed":
        row["who"] = event.by
        row["what"] = ", ".join(
            f"{name} {points:g}" if isinstance(points, (int, float)) else f"{name} {points}"
            for name, points in event.scores.items()
        )
    elif kind == "SheetRecorded":  # a score sheet: its totals and the result it gives
        totals = [(e or {}).get("total") for e in event.sheet.get("scores") or []]
        row["what"] = ", ".join(
            f"{name} {'-' if t is None else t}" for name, t in zip(seats, totals)
        ) + (f" ({event.outcome.get('reason', '')})")
    elif kind == "Ended":
        winners = [seats[s] for s in event.outcome.get("winners", []) if s < len(seats)]
        reason = event.outcome.get("reason")
        if reason and rules is not None:  # "seat 0 completed...": the player's name instead
            reason = rules.named_reason(reason, seats)
        row["what"] = outcome_text({**event.outcome, "winners": winners, "reason": reason})
    elif kind == "Abandoned":
        row["who"], row["what"] = event.by, event.reason


def _describe(rules: GameRules | None, move: object, seats: Sequence[str]) -> str:
    """The move in the game's words (`wording.move_words`), the players by name."""
    if rules is None:
        return "a move of a game this install does not know"
    return move_words(rules, move, seats)


def caption(row: EventRow) -> str:
    """What the step shows, in one line: 'Step 3: Ann moved: place large on b2'."""
    who = f"{row['who']}: " if row["who"] else ""
    flag = f" [{row['flag']}]" if row["flag"] else ""
    return f"Step {row['step']} ({row['event']}): {who}{row['what']}{flag}"


def claims_against_rules(report: dict[str, Any]) -> list[ClaimRow]:
    """From an audit report (`domain.integrity.audit.audit_match`): one row per claim and seat, the
    claimed points beside the points the rules give at that point of the match."""
    rows: list[ClaimRow] = []
    for claim in report.get("claims", []):
        recomputed = claim.get("recomputed") or {}
        for name, claimed in claim["scores"].items():
            again = recomputed.get(name)
            rows.append(
                {
                    "step": claim["event"] - 1,
                    "by": claim["by"],
                    "seat": name,
                    "claimed": claimed,
                    "recomputed": again,
                    "agrees": None if again is None else claimed == again,
                }
            )
    return rows


def claims_without_audit(
    claims: Sequence[dict[str, Any]], seats: Sequence[str], totals: Sequence[float] | None
) -> list[ClaimRow]:
    """The same rows from the match's own claims and the rules' totals now (no audit)."""
    rows: list[ClaimRow] = []
    for claim in claims:
        for name, claimed in claim["scores"].items():
            again = totals[list(seats).index(name)] if totals and name in seats else None
            rows.append(
                {
                    "step": claim["version"] - 1,
                    "by": claim["by"],
                    "seat": name,
                    "claimed": claimed,
                    "recomputed": again,
                    "agrees": None if again is None else claimed == again,
                }
            )
    return rows


def solved_values(match: Match) -> pd.DataFrame | None:
    """Blue's value after each effective move of a Topitop match, from the solved table when
    one is stored for its piece counts (never solved on a request); None otherwise."""
    if match.game != "topitop" or match.kind == "sheet":  # a score sheet has no moves
        return None
    from tablelog.domain.games.declaring import whole_number
    from tablelog.domain.solvers.stored import stored_table
    from tablelog.domain.solvers.topitop import analyse

    small, large = (whole_number(match.options[k]) for k in ("small", "large"))
    table = stored_table(small, large)
    if table is None:
        return None
    analysis = analyse(match.states, [m["move"] for m in match.moves], table)
    for row in analysis:
        row["player"] = match.seats[row["seat"]]
    from tablelog.dashboard.figures.match import value_rows

    return value_rows(analysis)
