"""GeoShapes: the four quadrants clockwise from the top left, each with its owner, its two figures
and its circle; every slot of a place shows the shape it needs, filled in its owner's colour
once placed (W when the Wild stands in), and the quadrant's shape discards.

Entering a move at the table (the Record page): geoShapes: a turn is several recorded moves.
First the action (draw a card, naming the shape it shows; pick up a discard stack; offer a
trade), then placements and switches, then the discard (or the end of the play after an accepted
trade).

The engine's `legal_moves` offers trades as one-for-one hand swaps only, so the trade menu is
built here from its parts: the partner, up to three shapes each way (from a hand or off the
trading player's own figures and circle), and the answer. Every shape offered is one the player
holds, so the finished offer is a legal one; `apply` still judges it when it is recorded.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.record.picking import (
    DONE,
    Facet,
    Move,
    Option,
    Picks,
    Question,
    Ready,
    Step,
    answer,
    answers,
    legal_moves,
    walk,
)

from .drawing import Sketch, board_figure, label, rect

# ---- the board: draw(state, seats) --------------------------------------------------------------

# Quadrant i of the board's clockwise list -> (column, row) of its box; 0 is the top left.
BOXES = ((0, 0), (1, 0), (1, 1), (0, 1))
WIDTH, HEIGHT = 7.0, 4.4
OPEN, NOBODY = "#ffffff", "#7f7f7f"


def short(shape: str) -> str:
    """ "Right Triangle" -> "RT", "Square" -> "Squa": short enough for a slot."""
    words = shape.split()
    return "".join(w[0] for w in words).upper() if len(words) > 1 else shape[:4]


def slots(needs: dict[str, int], placed: list[str], wild: str) -> list[tuple[str, str]]:
    """Each slot of a place as (shape, mark): "x" filled by its shape, "W" by the Wild,
    "" still open. Real shapes fill their own slots first; Wilds fill the gaps in order."""
    have = Counter(placed)
    wilds = have.pop(wild, 0)
    marks = []
    for shape, count in needs.items():
        for _ in range(count):
            if have[shape] > 0:
                have[shape] -= 1
                marks.append((shape, "x"))
            elif wilds > 0:
                wilds -= 1
                marks.append((shape, "W"))
            else:
                marks.append((shape, ""))
    return marks


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    board = state["board"]
    owners = {q: seat for seat, p in enumerate(state["players"]) for q in p["quadrants"]}
    figure = board_figure(
        "GeoShapes: " + text(board["name"]),
        (-0.1, 2 * WIDTH + 0.1),
        (-2 * HEIGHT - 0.1, 0.1),
        height=520,
    )
    sketch = Sketch()
    places = list(zip(board["places"], state["placed"]))
    for number, quadrant in enumerate(board["quadrants"]):
        seat = owners.get(quadrant)
        owner = "nobody" if seat is None else text(seats[seat])
        mine = [(p, placed) for p, placed in places if p["quadrant"] == quadrant]
        _draw_quadrant(
            sketch, number, quadrant, seat, owner, mine, board["wild"], state["stacks"][number]
        )
    return sketch.onto(figure)


def _draw_quadrant(
    sketch: Sketch,
    number: int,
    quadrant: str,
    seat: int | None,
    owner: str,
    mine: list[tuple[dict[str, Any], list[str]]],
    wild: str,
    stack: list[str],
) -> None:
    """One quadrant's box: its owner, its places' shape slots and its discard stack."""
    col, row = BOXES[number]
    left, top = col * WIDTH, -row * HEIGHT
    colour = NOBODY if seat is None else seat_colour(seat + 1)
    rect(
        sketch,
        f"quadrant {quadrant}",
        left + 0.08,
        top - HEIGHT + 0.08,
        left + WIDTH - 0.08,
        top - 0.08,
        "#fafafa",
        colour,
        2,
    )
    label(
        sketch,
        left + 0.25,
        top - 0.4,
        f"<b>{text(quadrant)}</b>: {owner}",
        12,
        colour,
        xanchor="left",
    )
    for line, (place, placed) in enumerate(mine):
        _draw_place(sketch, left, top - 1.2 - line * 0.95, place, placed, wild, colour)
    if stack:
        label(
            sketch,
            left + WIDTH - 0.25,
            top - HEIGHT + 0.35,
            f"discards: {text(stack[-1])} on top ({len(stack)})",
            9,
            "#666",
            xanchor="right",
        )


def _draw_place(
    sketch: Sketch,
    left: float,
    y: float,
    place: dict[str, Any],
    placed: list[str],
    wild: str,
    colour: str,
) -> None:
    """One place's row: its name, then a slot per shape it needs (filled once a card is placed)."""
    name = "circle" if place["is_circle"] else place["name"]
    label(sketch, left + 0.2, y, text(name), 9, "#444", xanchor="left")
    for k, (shape, mark) in enumerate(slots(place["needs"], placed, wild)):
        x = left + 2.7 + k * 1.05
        fill = OPEN if not mark else colour
        rect(
            sketch,
            f"{place['name']}:{k}:{shape}:{mark or 'open'}",
            x - 0.5,
            y - 0.38,
            x + 0.5,
            y + 0.38,
            fill,
            colour,
            1,
            "solid" if mark else "dot",
        )
        words = "W" if mark == "W" else short(shape)
        label(
            sketch,
            x,
            y,
            words,
            9,
            "white" if mark else "#777",
            hovertext=text(shape + (" (Wild)" if mark == "W" else "")),
        )


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

MAX_TRADE = 3
KINDS = {
    "draw": "draw a card",
    "pick_up": "pick up a discard stack",
    "trade": "offer a trade",
    "place": "place a shape",
    "switch": "switch figures",
    "discard": "discard a shape",
    "end_play": "end the play",
}
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
        return Question(
            "action", "What does the player do?", tuple(Option(k, KINDS[k]) for k in offered)
        )
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


def trade_menu(
    encoded: dict[str, Any], seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    """The offer, part by part: with whom, what is given, what is asked for, the answer."""
    players = len(encoded["players"])
    partner = answer(picks, "with")
    if partner is None:
        return Question(
            "with",
            "Trade with whom?",
            tuple(
                Option(other, names[other] if names else f"seat {other + 1}")
                for other in range(players)
                if other != seat
            ),
        )
    sides = (("give", seat, "What is offered?"), ("get", partner, "What is asked for?"))
    for key, owner, prompt in sides:
        chosen = answers(picks, key)
        if DONE not in chosen and len(chosen) < MAX_TRADE:
            left = holdings(encoded, owner) - Counter(chosen)
            options = tuple(
                Option(
                    item,
                    item_label(item),
                    "in hand" if item.startswith(HAND + ":") else "on the board",
                )
                for item in sorted(left)
            )
            if chosen:
                options += (Option(DONE, "that's all"),)
            return Question(
                key, f"{prompt} (up to {MAX_TRADE}; {len(chosen)} so far)", options, several=True
            )
    accepted = answer(picks, "accepted")
    if accepted is None:
        return Question(
            "accepted",
            "Did the other player accept?",
            (Option(True, "accepted"), Option(False, "refused")),
        )
    return Ready(
        {
            "trade": {
                "with": partner,
                "give": [item_move(i) for i in answers(picks, "give") if i != DONE],
                "get": [item_move(i) for i in answers(picks, "get") if i != DONE],
                "accepted": bool(accepted),
            }
        }
    )
