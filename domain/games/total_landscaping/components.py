"""Component strength in Total Landscaping: per seat, the cards of each colour it played over the
match and the hoes it used (points: none, the game scores bouts, not cards), and the bouts it won
by each condition (points: the same bouts). Reads the effective moves: the final position has
forgotten earlier bouts' cards."""

from __future__ import annotations

from typing import Any

from ..base import NAN, Component, Moves
from .state import LandscapingState


def components(
    state: LandscapingState, scores: list[dict[str, Any]], moves: Moves
) -> list[list[Component]]:
    # Counted in plain dicts, each card's name spelled once per process (every simulated match
    # ends here, reading 30-60 rounds: Counters and str.capitalize cost several times as much).
    played: list[dict[str, int]] = [{} for _ in scores]
    east, west = played
    names = _NAMES
    for _, move in moves:
        for counts, choice in ((east, move.get("east")), (west, move.get("west"))):
            if not choice:
                name = "None"  # str(None).capitalize(): a round without this seat's choice
            elif "hoe" in choice:
                name = "hoe"
            else:
                card = choice.get("card")
                name = (names.get(card) if type(card) is str else None) or _card_name(card)
            counts[name] = counts.get(name, 0) + 1
    result = []
    for seat, entry in enumerate(scores):
        rows = [Component("card colour", card, n, NAN) for card, n in sorted(played[seat].items())]
        rows += [
            Component("bout condition", condition, int(n), float(n))
            for condition, n in entry["categories"].items()
        ]
        result.append(rows)
    return result


_NAMES: dict[str, str] = {}  # a card as a move spells it -> its name here


def _card_name(card: object) -> str:
    """`str(card).capitalize()`, kept for the few spellings moves use."""
    if type(card) is not str:
        return str(card).capitalize()
    name = _NAMES.get(card)
    if name is None:
        name = card.capitalize()
        if len(_NAMES) < 256:
            _NAMES[card] = name
    return name
