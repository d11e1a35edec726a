"""GeoShapes: a turn is several recorded moves. First the action (draw a card, naming the shape
it shows; pick up a discard stack; offer a trade), then placements and switches, then the
discard (or the end of the play after an accepted trade).

The engine's `legal_moves` offers trades as one-for-one hand swaps only, so the trade menu is
built here from its parts: the partner, up to three shapes each way (from a hand or off the
trading player's own figures and circle), and the answer. Every shape offered is one the player
holds, so the finished offer is a legal one; `apply` still judges it when it is recorded.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .picking import (DONE, Facet, Move, Option, Picks, Question, Ready, Step, answer, answers,
                      legal_moves, walk)

MAX_TRADE = 3
KINDS = {"draw": "draw a card", "pick_up": "pick up a discard stack", "trade": "offer a trade",
         "place": "place a shape", "switch": "switch figures", "discard": "discard a shape",
         "end_play": "end the play"}
HAND = "hand"


def kind(move: Move) -> str:
    return next(iter(move))


def holdings(encoded: dict[str, Any], seat: int) -> Counter[str]:
    """What a seat can trade: 'hand:SHAPE' per shape in hand, 'PLACE:SHAPE' per shape on its
    own figures and circle."""
    items = Counter(f"{HAND}:{shape}" for shape in encoded["players"][seat]["hand"])
    quadrants = encoded["players"][seat]["quadrants"]
    for place, placed in zip(encoded["board"]["places"], encoded["placed"]):
        if place["quadrant"] in quadrants:
            items.update(f"{place['name']}:{shape}" for shape in placed)
    return items


def item_label(item: str) -> str:
    where, shape = item.split(":", 1)
    return shape if where == HAND else f"{shape} off the {where}"


def item_move(item: str) -> str | dict[str, str]:
    where, shape = item.split(":", 1)
    return shape if where == HAND else {"shape": shape, "from": where}


def menu(rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None) -> Step:
    moves = legal_moves(rules, state)
    encoded = rules.encode(state)
    trading = any(kind(m) == "trade" for m in moves)
    offered = list(dict.fromkeys(kind(m) for m in moves))
    action = answer(picks, "action")
    if action is None:
        return Question("action", "What does the player do?", tuple(
            Option(k, KINDS[k]) for k in offered))
    if action == "trade" and trading:
        return trade_menu(encoded, seat, picks, names)

    def seat_name(other: int) -> str:
        return names[other] if names else f"seat {other + 1}"

    facets = [
        Facet("action", "", kind),
        Facet("draw", "Which shape does the card show?", lambda m: m.get("draw")),
        Facet("pick_up", "Whose discard stack?", lambda m: m.get("pick_up"), seat_name),
        Facet("switch", "Switch to which figure?", lambda m: m.get("switch")),
        Facet("shape", "Which shape?", lambda m: m.get("place") or m.get("discard")),
        Facet("on", "Onto which figure or circle?", lambda m: m.get("on")),
        Facet("from", "Off which figure or circle (the hand is empty)?", lambda m: m.get("from")),
        Facet("to", "Onto which quadrant's discards?", lambda m: m.get("to")),
        Facet("end_play", "", lambda m: "end" if "end_play" in m else None),
    ]
    return walk(moves, facets, picks)


def trade_menu(encoded: dict[str, Any], seat: int, picks: Picks,
               names: list[str] | None = None) -> Step:
    """The offer, part by part: with whom, what is given, what is asked for, the answer."""
    players = len(encoded["players"])
    partner = answer(picks, "with")
    if partner is None:
        return Question("with", "Trade with whom?", tuple(
            Option(other, names[other] if names else f"seat {other + 1}")
            for other in range(players) if other != seat))
    sides = (("give", seat, "What is offered?"), ("get", partner, "What is asked for?"))
    for key, owner, prompt in sides:
        chosen = answers(picks, key)
        if DONE not in chosen and len(chosen) < MAX_TRADE:
            left = holdings(encoded, owner) - Counter(chosen)
            options = tuple(Option(item, item_label(item), "in hand" if item.startswith(HAND + ":")
                                   else "on the board") for item in sorted(left))
            if chosen:
                options += (Option(DONE, "that's all"),)
            return Question(key, f"{prompt} (up to {MAX_TRADE}; {len(chosen)} so far)", options,
                            several=True)
    accepted = answer(picks, "accepted")
    if accepted is None:
        return Question("accepted", "Did the other player accept?",
                        (Option(True, "accepted"), Option(False, "refused")))
    return Ready({"trade": {
        "with": partner,
        "give": [item_move(i) for i in answers(picks, "give") if i != DONE],
        "get": [item_move(i) for i in answers(picks, "get") if i != DONE],
        "accepted": bool(accepted)}})
