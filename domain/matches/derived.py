"""Derived values a match stores beside its events, so readers need not run the rules again.

The recorder has just applied a move (to check it); scoring the new position there costs one
`score`, where every later reader (the projection, a catch-up after a restart) would otherwise
apply and score every move again. So a `MoveRecorded` event stores `derived`:

    {"totals": [points per seat after the move] | None, "change": the mover's change | None}

and an `Ended` event stores what the final position gives:

    {"decided": the rules had decided the game, "scores": [{"total", "categories"}] | None,
     "components": [[[kind, component, count, points], ...] per seat] | None}

None where the rules cannot say (a hidden identity never revealed; a game scored only at its
end has no running totals). A derived value is never part of what a match says: it is left out
of the event's hash (`match.event_hash`), an import recomputes it, and `audit` recomputes every
one and reports any that disagrees with the rules (`audit_derived`). Events stored before
derived values existed have none, and their readers apply the rules as before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypedDict, TypeVar

from ..games import GameRules, RulesError
from ..plain import PlainDict

FIELD = "derived"  # the event field that holds them (MoveRecorded, Ended)

S = TypeVar("S")  # the game's own position type


class MoveDerived(TypedDict):
    """What a `MoveRecorded` event stores as its derived values."""

    totals: list[float] | None
    change: float | None


def totals(rules: GameRules[S], state: S) -> list[float] | None:
    """Each seat's total in `state`; None for a game scored only at its end, or where a
    hidden identity keeps the score from being known."""
    if not rules.scores_as_it_goes:
        return None
    try:
        return rules.totals(state)
    except RulesError:
        return None


def after_move(before: list[float] | None, after: list[float] | None, seat: int) -> MoveDerived:
    """A move's derived values from the totals before and after it."""
    change = None if before is None or after is None else after[seat] - before[seat]
    return {"totals": after, "change": change}


def at_end(
    rules: GameRules[S], state: S, decided: bool, moves: Sequence[tuple[int, Any]]
) -> PlainDict:
    """An ended match's final scores and component rows (`GameRules.components`)."""
    try:
        scores = rules.score(state)
    except RulesError:  # a hidden identity never revealed: no final score to store
        return {"decided": decided, "scores": None, "components": None}
    found = rules.components(state, scores, list(moves))
    return {
        "decided": decided,
        "scores": [
            {
                "total": float(entry["total"]),
                "categories": {k: float(v) for k, v in entry["categories"].items()},
            }
            for entry in scores
        ],
        "components": [
            [[c.kind, c.component, int(c.number), _number(c.points)] for c in seat]
            for seat in found
        ],
    }


def _number(points: float | None) -> float | None:
    """JSON has no NaN: a component that scores nothing by itself is stored as null."""
    return None if points is None or math.isnan(points) else float(points)


def points(stored: float | None) -> float:
    """The inverse of `_number`: null back to NaN."""
    return math.nan if stored is None else float(stored)
