"""The audit of a score-sheet match: no moves to replay, so the sheet is checked against the
game's sheet rules again (its own consistency: categories, sums, bounds, winners), the outcome
it recorded against the one the sheet gives, and every claim against the sheet's totals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from ..errors import Refused
from ..games import RulesError
from ..matches import event_fields as fields
from ..matches.match import ENDED, RUNNING, components_of
from ..plain import PlainDict
from ..sheets import check_sheet
from .audit_text import claim_sentence, num, step


class Claim(Protocol):
    """What the sheet's checks read and write of a claim (audit_claims.Claim: that module
    imports this one, so its types are described here, not imported)."""

    event: int
    by: str
    scores: PlainDict
    result: dict[str, Any]


class Replay(Protocol):
    """What the sheet's checks read and write of the audit's replay (audit_claims.Replay)."""

    started: fields.Started | None
    seats: list[str]
    status: str
    notes: list[str]
    recorded_outcome: PlainDict | None
    sheet: dict[str, Any] | None

    @property
    def claims(self) -> Sequence[Claim]: ...

    def find(self, position: int | None, kind: str, message: str, **details: object) -> None: ...


def started(replay: Replay, position: int, event: fields.Started) -> None:
    replay.sheet = {"event": None, "recorded": None}


def recorded(replay: Replay, position: int, event: fields.SheetRecorded) -> None:
    if replay.sheet is None:
        replay.find(
            position,
            "replay",
            f"{step(position)} records a score sheet in a match logged move by move",
        )
        return
    if replay.status != RUNNING:
        replay.find(
            position,
            "replay",
            f"{step(position)} records a score sheet in a match already {replay.status}",
        )
    replay.status = ENDED
    replay.recorded_outcome = dict(event.outcome)
    replay.sheet.update(event=position, recorded=event.sheet)
    begun = replay.started
    assert begun is not None  # the sheet is set only once the start is read
    try:
        sheet, outcome = check_sheet(
            begun.game,
            replay.seats,
            begun.options,
            components_of(begun.options, begun.components),
            event.sheet,
        )
    except (Refused, RulesError) as err:
        replay.find(
            position, "sheet", f"{step(position)}: the score sheet breaks the game's rules: {err}"
        )
        return
    if sheet != event.sheet:
        replay.find(
            position,
            "sheet",
            f"{step(position)}: the score sheet is not as the "
            "recorder writes one (a field was changed or added)",
        )
    if outcome != event.outcome:
        replay.find(
            position,
            "outcome",
            f"{step(position)} ends the match with {event.outcome}; the sheet gives {outcome}",
        )


def compare_claims(replay: Replay) -> None:
    """Each claim beside the sheet's totals (seats the sheet gives no total are noted)."""
    recorded_sheet = replay.sheet["recorded"] if replay.sheet else None
    for claim in replay.claims:
        claim.result = {
            "agrees": None,
            "differences": [],
            "diverging_move": None,
            "recomputed": None,
        }
        if not isinstance(recorded_sheet, dict):
            replay.notes.append(
                f"the claim at {step(claim.event)} cannot be checked: the match has no score sheet"
            )
            continue
        totals = {
            name: (entry or {}).get("total")
            for name, entry in zip(replay.seats, recorded_sheet.get("scores") or [])
        }
        claim.result["recomputed"] = totals
        for name, claimed in claim.scores.items():
            _compare(replay, claim, name, claimed, totals)
        claim.result["agrees"] = not claim.result["differences"]
        if claim.result["differences"]:
            replay.find(
                claim.event,
                "claim",
                " ".join(
                    claim_sentence(claim.by, claim.event, None, {**d, "source": "sheet"})
                    for d in claim.result["differences"]
                ),
            )


def _compare(
    replay: Replay, claim: Claim, name: str, claimed: object, totals: dict[str, Any]
) -> None:
    if name not in totals:
        replay.find(
            claim.event,
            "claim",
            f"the claim at {step(claim.event)} scores {name!r}, who has no seat in this match",
        )
    elif isinstance(claimed, bool) or not isinstance(claimed, (int, float)):
        replay.find(
            claim.event,
            "claim",
            f"the claim at {step(claim.event)} gives {name} {claimed!r}, which is not a score",
        )
    elif totals[name] is None:
        replay.notes.append(
            f"the claim at {step(claim.event)} gives {name} {num(claimed)}; "
            "the score sheet has no total for them to compare"
        )
    elif not math.isclose(claimed, totals[name], abs_tol=1e-9):
        claim.result["differences"].append(
            {
                "seat": name,
                "claimed": claimed,
                "recomputed": totals[name],
                "difference": claimed - totals[name],
                "diverging_move": None,
            }
        )
