"""Total Landscaping: one recorded move is a whole round, both players' choices. Each player's
choice is picked in turn from the engine's `choices` (legal whatever the other does): the card
(or the hoe), the garden and tile, then the card's parameters (the two cards Red removes,
Yellow's spread, Purple's optional recolour) or the hoe's two tiles. The engine's `combine`
makes the round."""

from __future__ import annotations

from typing import Any

from .picking import Facet, Picks, Ready, Several, Step, by_seat, narrow, prefixed

GARDENS = ("east", "west")
ROLES = ("East", "West")
NO_RECOLOUR = ""


def ring(tile: str) -> str:
    return "the centre" if tile == "A" else f"ring {tile[0]}"


FACETS = [
    Facet("card", "Which card (or the hoe)?", lambda m: m.get("card", "hoe"),
          lambda card: "hoe two tiles" if card == "hoe" else card),
    Facet("garden", "In which garden?", lambda m: m.get("garden"),
          lambda garden: f"the {garden.capitalize()}ern garden"),
    Facet("tile", "On which tile?", lambda m: m.get("tile"), group=ring),
    Several("remove", "Red removes which cards of the hand?",
            lambda m: tuple(m["remove"]) if "remove" in m else None),
    Facet("spread", "Yellow spreads to which empty tile?", lambda m: m.get("spread"),
          group=ring),
    Facet("recolour", "Purple turns which flower purple?",
          lambda m: m.get("recolour", NO_RECOLOUR) if m.get("card") == "Purple" else None,
          lambda tile: "none" if tile == NO_RECOLOUR else tile),
    Several("hoe", "Hoe which two adjacent tiles of your garden?",
            lambda m: tuple(m["hoe"]) if "hoe" in m else None, group=ring),
]


def menu(rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None) -> Step:
    chosen = {}
    for awaited in rules.to_move(state):
        prefix = GARDENS[awaited]
        step = narrow(rules.choices(state, awaited), FACETS, by_seat(picks, prefix))
        if not isinstance(step, list):
            who = f"{names[awaited]} ({ROLES[awaited]})" if names else ROLES[awaited]
            return prefixed(step, prefix, who)
        chosen[awaited] = step[0]
    return Ready(rules.combine(state, chosen))
