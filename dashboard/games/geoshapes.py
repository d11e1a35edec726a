"""GeoShapes: the four quadrants clockwise from the top left, each with its owner, its two figures
and its circle; every slot of a place shows the shape it needs, filled in its owner's colour
once placed (a star where the Wild stands in), and the quadrant's shape discards. Each slot draws
its shape as a small outline (a square, a trapezoid, a quarter circle ...), named in full in the
slot's hover and in a key below the board: no word is cut short to fit a slot.

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

import dataclasses
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any, TypedDict, TypeVar, cast

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
from tablelog.domain.games import GameRules
from tablelog.domain.games.geoshapes.legality import MAX_TRADE
from tablelog.domain.games.geoshapes.rules import DEFAULT_MANIFEST
from tablelog.domain.games.geoshapes.setup import DEALT
from tablelog.domain.games.manifests import load_manifest

from .drawing import Sketch, Tap, board_figure, label, rect
from .setting import YES_NO

S = TypeVar("S")  # the engine's state

# ---- the board: draw(state, seats) --------------------------------------------------------------

# Quadrant i of the board's clockwise list -> (column, row) of its box; 0 is the top left.
BOXES = ((0, 0), (1, 0), (1, 1), (0, 1))
WIDTH, HEIGHT = 7.6, 4.4  # a quadrant: room for a place of 5 slots (geoshapes-v3's Shed)
OPEN, NOBODY = "#ffffff", "#7f7f7f"


def short(shape: str) -> str:
    """ "Right Triangle" -> "RT", "Square" -> "Sq": a slot's label for a shape with no glyph
    (a board of one's own may name new shapes), spelled out in the key."""
    words = shape.split()
    return "".join(w[0] for w in words).upper() if len(words) > 1 else shape[:2]


def abbreviations(shapes: list[str]) -> dict[str, str]:
    """Each shape's slot label, distinct on the board ("Pentagon" beside "Parallelogram"
    gets "Pe" and "Pa"; a clash that remains takes more letters)."""
    found: dict[str, str] = {}
    for shape in shapes:
        mark, length = short(shape), 2
        while mark in found.values() and length < len(shape):
            length += 1
            mark = shape[:length]
        found[shape] = mark
    return found


def _arc(cx: float, cy: float, r: float, start: float, stop: float) -> list[tuple[float, float]]:
    """Corners along a circle's arc, from angle `start` to `stop` (degrees, anticlockwise)."""
    steps = 12
    return [
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (start + (stop - start) * k / steps for k in range(steps + 1))
    ]


def _star() -> list[tuple[float, float]]:
    return [
        (r * math.cos(math.radians(90 + 36 * k)), r * math.sin(math.radians(90 + 36 * k)))
        for k, r in ((k, 1.0 if k % 2 == 0 else 0.42) for k in range(10))
    ]


# Each shape's glyph: the corners of its outline in a box from -1 to 1 each way, y up (plotly's
# shape paths take no arcs, so circle parts are many short sides). The Wild is a star.
GLYPHS: dict[str, list[tuple[float, float]]] = {
    "Square": [(-0.75, -0.75), (0.75, -0.75), (0.75, 0.75), (-0.75, 0.75)],
    "Rectangle": [(-1, -0.55), (1, -0.55), (1, 0.55), (-1, 0.55)],
    "Right Triangle": [(-0.8, -0.8), (0.8, -0.8), (-0.8, 0.8)],
    "Isosceles Triangle": [(-0.5, -0.9), (0.5, -0.9), (0, 0.95)],
    "Equilateral Triangle": [(-0.95, -0.75), (0.95, -0.75), (0, 0.9)],
    "Trapezoid": [(-1, -0.6), (1, -0.6), (0.45, 0.6), (-0.45, 0.6)],
    "Parallelogram": [(-1, -0.6), (0.45, -0.6), (1, 0.6), (-0.45, 0.6)],
    "Rhombus": [(0, -1), (0.7, 0), (0, 1), (-0.7, 0)],
    "Hexagon": _arc(0, 0, 0.95, 0, 360)[::2][:6],
    "Semicircle": _arc(0, -0.5, 1, 0, 180),
    "Quarter Circle": [(-0.8, -0.8), *_arc(-0.8, -0.8, 1.6, 0, 90)],
    "Wild": _star(),
}
GLYPH = 0.28  # board units: half a slot's glyph (a slot is 0.9 x 0.76)


def has_glyph(shape: str) -> bool:
    return shape in GLYPHS


def glyph(
    sketch: Sketch, shape: str, x: float, y: float, size: float, fill: str, line: str
) -> None:
    """The shape's outline centred on (x, y), `size` board units from its middle to its
    box's edge."""
    corners = " L ".join(f"{x + size * gx:.3f} {y + size * gy:.3f}" for gx, gy in GLYPHS[shape])
    sketch.shapes.append(
        {
            "type": "path",
            "name": f"glyph {shape}",
            "path": f"M {corners} Z",
            "fillcolor": fill,
            "line": {"color": line, "width": 1.5},
            "layer": "above",
        }
    )


KEY_COLUMNS, KEY_STEP = 2, 0.55  # the key's columns (a phone's width) and board units per row


def _draw_key(sketch: Sketch, marks: dict[str, str], top: float) -> None:
    """Every shape of the board, and the Wild, drawn as in the slots with its full name."""
    for number, (shape, mark) in enumerate(marks.items()):
        x = 0.4 + (number % KEY_COLUMNS) * WIDTH
        y = top - KEY_STEP * (number // KEY_COLUMNS + 0.5)
        if has_glyph(shape):
            glyph(sketch, shape, x, y, 0.2, OPEN, "#555")
            label(sketch, x + 0.35, y, text(shape), 10, "#555", xanchor="left")
        else:
            entry = f"<b>{text(mark)}</b> {text(shape)}"
            label(sketch, x - 0.2, y, entry, 10, "#555", xanchor="left")


class EncodedPlace(TypedDict):
    """A place of the board as the encoded state holds it (`board.Place`, as JSON)."""

    name: str
    quadrant: str
    is_circle: bool
    needs: dict[str, int]  # shape -> how many


class EncodedBoard(TypedDict):
    """The parts of the encoded state's board the tap targets and the trade read."""

    name: str
    wild: str
    quadrants: list[str]
    places: list[EncodedPlace]


class EncodedPlayer(TypedDict):
    quadrants: list[str]  # those whose discards are the player's stacks
    hand: list[str]


class GeoShapesView(TypedDict):
    """The parts of the encoded state (`rules.encode`) the tap targets and the trade read."""

    board: EncodedBoard
    players: list[EncodedPlayer]
    placed: list[list[str]]  # per place (in the board's order), the shapes placed on it
    stacks: list[list[str]]  # per quadrant, its discards


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
    marks = abbreviations(list(dict.fromkeys(s for p in board["places"] for s in p["needs"])))
    keyed = {**marks, board["wild"]: "W"}
    rows = -(-len(keyed) // KEY_COLUMNS)
    bottom = -2 * HEIGHT - 0.2 - KEY_STEP * rows
    figure = board_figure(
        "GeoShapes: " + text(board["name"]), (-0.1, 2 * WIDTH + 0.1), (bottom, 0.1), height=560
    )
    sketch = Sketch()
    places = list(zip(board["places"], state["placed"]))
    for number, quadrant in enumerate(board["quadrants"]):
        seat = owners.get(quadrant)
        owner = "nobody" if seat is None else text(seats[seat])
        mine = [(p, placed) for p, placed in places if p["quadrant"] == quadrant]
        where = Quadrant(number, quadrant, seat, owner, board["wild"], marks)
        _draw_quadrant(sketch, where, mine, state["stacks"][number])
    _draw_key(sketch, keyed, -2 * HEIGHT - 0.1)
    _slot_names(figure, state)
    return sketch.onto(figure)


def _slot_names(figure: go.Figure, state: dict[str, Any]) -> None:
    """Each slot's shape in full, and what fills it, as the slot's hover (invisible markers:
    a label with a hover would take the taps meant for the board beneath)."""
    board, xs, ys, names = state["board"], [], [], []
    for number, quadrant in enumerate(board["quadrants"]):
        mine = [
            (p, on) for p, on in zip(board["places"], state["placed"]) if p["quadrant"] == quadrant
        ]
        for line, (place, placed) in enumerate(mine):
            left, y = row_at(number, line)
            for k, (shape, mark) in enumerate(slots(place["needs"], placed, board["wild"])):
                xs.append(slot_x(left, k))
                ys.append(y)
                names.append(_slot_words(text(shape), mark, text(board["wild"])))
    figure.add_scatter(
        x=xs,
        y=ys,
        mode="markers",
        name="slots",
        marker={"size": 18, "opacity": 0},
        hovertext=names,
        hovertemplate="%{hovertext}<extra></extra>",
    )


def _slot_words(shape: str, mark: str, wild: str) -> str:
    if mark == "W":
        return f"{shape}: the {wild} stands in"
    return f"{shape}: placed" if mark else f"{shape}: still needed"


@dataclasses.dataclass(frozen=True)
class Quadrant:
    """What a quadrant's box is drawn from: its place in the board's list and its owner."""

    number: int
    name: str
    seat: int | None
    owner: str
    wild: str
    marks: dict[str, str]  # the slots' labels, for shapes without a glyph

    @property
    def corner(self) -> tuple[float, float]:
        """The box's top left corner."""
        col, row = BOXES[self.number]
        return col * WIDTH, -row * HEIGHT

    @property
    def colour(self) -> str:
        return NOBODY if self.seat is None else seat_colour(self.seat + 1)


def _draw_quadrant(
    sketch: Sketch,
    where: Quadrant,
    mine: list[tuple[EncodedPlace, list[str]]],
    stack: list[str],
) -> None:
    """One quadrant's box: its owner, its places' shape slots and its discard stack."""
    left, top = where.corner
    rect(
        sketch,
        f"quadrant {where.name}",
        left + 0.08,
        top - HEIGHT + 0.08,
        left + WIDTH - 0.08,
        top - 0.08,
        "#fafafa",
        where.colour,
        2,
    )
    label(
        sketch,
        left + 0.25,
        top - 0.4,
        f"<b>{text(where.name)}</b>: {where.owner}",
        12,
        where.colour,
        xanchor="left",
    )
    for line, (place, placed) in enumerate(mine):
        _draw_place(sketch, where, line, place, placed)
    if stack:
        _draw_discards(sketch, where, stack)


def _draw_discards(sketch: Sketch, where: Quadrant, stack: list[str]) -> None:
    """The quadrant's discards: how many, and the top one's glyph as in its slots (its name is
    in the key: "Equilateral Triangle" in words ran past a quadrant on a phone)."""
    x, y = discards_at(where.number)
    top = stack[-1]
    words = f"discards ({len(stack)}), on top:"
    if has_glyph(top):
        glyph(sketch, top, x - 0.2, y, 0.2, OPEN, "#555")
    else:
        words += f" <b>{text(where.marks.get(top, short(top)))}</b>"
    label(sketch, x - (0.5 if has_glyph(top) else 0), y, words, 9, "#666", xanchor="right")


NAME_LINE = 9  # characters: a longer place name takes two lines, clear of its first slot


def place_name(name: str) -> str:
    """A place's name as its row shows it: two lines, broken at the space nearest its middle,
    when it is too long for one ("Great Triangle")."""
    spaces = [i for i, c in enumerate(name) if c == " "]
    if len(name) <= NAME_LINE or not spaces:
        return text(name)
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return f"{text(name[:cut])}<br>{text(name[cut + 1 :])}"


def row_at(number: int, line: int) -> tuple[float, float]:
    """Where a quadrant's `line`-th place row starts (its name) and its height."""
    left, top = BOXES[number][0] * WIDTH, -BOXES[number][1] * HEIGHT
    return left, top - 1.2 - line * 0.95


SLOT = 0.45  # board units: half a slot's width (a place's name has 2.55 units before it)


def slot_x(left: float, k: int) -> float:
    return left + 3.2 + k * 0.95


def discards_at(number: int) -> tuple[float, float]:
    """The right end of a quadrant's discards line."""
    col, row = BOXES[number]
    return col * WIDTH + WIDTH - 0.25, -row * HEIGHT - HEIGHT + 0.35


def _draw_place(
    sketch: Sketch, where: Quadrant, line: int, place: EncodedPlace, placed: list[str]
) -> None:
    """One place's row: its name, then a slot per shape it needs (filled once a card is placed)."""
    left, y = row_at(where.number, line)
    name = "circle" if place["is_circle"] else place["name"]
    label(sketch, left + 0.2, y, place_name(name), 9, "#444", xanchor="left", align="left")
    for k, (shape, mark) in enumerate(slots(place["needs"], placed, where.wild)):
        x = slot_x(left, k)
        rect(
            sketch,
            f"{place['name']}:{k}:{shape}:{mark or 'open'}",
            x - SLOT,
            y - 0.38,
            x + SLOT,
            y + 0.38,
            OPEN if not mark else where.colour,
            where.colour,
            1,
            "solid" if mark else "dot",
        )
        shown = where.wild if mark == "W" else shape
        if has_glyph(shown):
            glyph(
                sketch, shown, x, y, GLYPH, "white" if mark else OPEN, "white" if mark else "#777"
            )
        else:  # no hover text: a label with one takes the taps meant for the board beneath
            words = "W" if mark == "W" else where.marks.get(shape, short(shape))
            label(sketch, x, y, text(words), 9, "white" if mark else "#777")


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

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


def holdings(encoded: GeoShapesView, seat: int) -> Counter[str]:
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


def menu(
    rules: GameRules[S], state: S, seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    moves = legal_moves(rules, state)
    encoded = cast(GeoShapesView, rules.encode(state))  # the engine's plain JSON
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
    encoded: GeoShapesView, seat: int, picks: Picks, names: list[str] | None = None
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


ON_A_PLACE = ("switch", "on", "from")


def taps(state: GeoShapesView, question: Question, picks: Picks, seats: list[str]) -> list[Tap]:
    """A figure or circle (to place on, switch to, take from) at its first open slot (its first
    slot when full) on its quadrant drawn alone; on the whole board (places of two quadrants
    asked, or one place) in its line's column (`STAIRS`); a quadrant's discards (to discard
    onto) and a player's stacks (to pick up) over the discards' top shape. Every target lies in
    its own quadrant's box."""
    board = state["board"]
    if question.key in ON_A_PLACE:
        rows = place_rows(state)
        asked = [o.value for o in question.options if o.value in rows]
        if _zoomed(question, [rows[place] for place in asked]) is None:  # on the whole board
            rows = place_stairs(state)
        return [Tap(place, *rows[place]) for place in asked]
    if question.key == "to":
        quadrants = board["quadrants"]
        return [
            Tap(o.value, *_discards_tap(quadrants.index(o.value)))
            for o in question.options
            if o.value in quadrants
        ]
    if question.key == "pick_up":
        return [
            Tap(o.value, *_discards_tap(board["quadrants"].index(quadrant)))
            for o in question.options
            for quadrant in state["players"][_seat(o.value, seats)]["quadrants"]
        ]
    return []


def focus(
    state: GeoShapesView, question: Question, picks: Picks
) -> tuple[list[float], list[float]] | None:
    """The board's ranges while places of one quadrant alone are asked for: that quadrant,
    twice as large, so that two places' targets (rows 0.95 apart, 21 px on a whole board at
    390 px) are a fingertip's width apart; None (the whole board) otherwise."""
    if question.key not in ON_A_PLACE:
        return None
    return _zoomed(question, [(tap.x, tap.y) for tap in taps(state, question, picks, [])])


def _zoomed(
    question: Question, points: list[tuple[float, float]]
) -> tuple[list[float], list[float]] | None:
    """The one quadrant that holds every place asked for, as ranges (when two or more are
    asked); None when they lie in several, or one alone is asked."""
    boxes = {_quadrant_of(x, y) for x, y in points}
    if len(question.options) < 2 or len(boxes) != 1:
        return None
    col, row = boxes.pop()
    return [col * WIDTH - 0.1, (col + 1) * WIDTH + 0.1], [
        -(row + 1) * HEIGHT - 0.1,
        -row * HEIGHT + 0.1,
    ]


def _quadrant_of(x: float, y: float) -> tuple[int, int]:
    return int(x // WIDTH), int(-y // HEIGHT)


def _rows(state: GeoShapesView) -> Iterator[tuple[int, int, EncodedPlace, list[str]]]:
    """Each place with its quadrant's number, its line there and what is placed on it."""
    board = state["board"]
    for number, quadrant in enumerate(board["quadrants"]):
        mine = [
            (place, placed)
            for place, placed in zip(board["places"], state["placed"])
            if place["quadrant"] == quadrant
        ]
        for line, (place, placed) in enumerate(mine):
            yield number, line, place, placed


def place_rows(state: GeoShapesView) -> dict[str, tuple[float, float]]:
    """Each place's tap point: its first open slot, or its first slot when it is full."""
    found = {}
    for number, line, place, placed in _rows(state):
        left, y = row_at(number, line)
        marks = [mark for _shape, mark in slots(place["needs"], placed, state["board"]["wild"])]
        first = marks.index("") if "" in marks else 0
        found[place["name"]] = (slot_x(left, first), y)
    return found


# Board units from a quadrant's left edge: a place's target on the whole board, by its line
# (over the name, the first two slots, the fourth and fifth). Rows stand 0.95 apart (21 px at
# 390 px), so each line's target takes a column of its own, 2.6 apart (56 px): no two
# overlap, and each lies inside its quadrant's box (a 46 px target is 2.1 units across there).
STAIRS = (1.2, 3.8, 6.4)


def place_stairs(state: GeoShapesView) -> dict[str, tuple[float, float]]:
    """Each place's tap point when places of several quadrants are asked on the whole board:
    on its own row, in its line's column."""
    found = {}
    for number, line, place, _placed in _rows(state):
        left, y = row_at(number, line)
        found[place["name"]] = (left + STAIRS[line % len(STAIRS)], y)
    return found


def _discards_tap(number: int) -> tuple[float, float]:
    """Over the discards' top shape, high enough that the target stays in its quadrant."""
    col, row = BOXES[number]
    return (col + 1) * WIDTH - 1.2, -(row + 1) * HEIGHT + 1.2


def _seat(value: int | str, seats: list[str]) -> int:
    """A seat as the picker names it: its number from 0, or its player's name."""
    return seats.index(value) if isinstance(value, str) else int(value)


# ---- the Record page's setup questions: setup(players, picks) ---------------------------------


def setup(players: int, picks: Picks) -> Step:
    """The Record page's setup questions: the half board (two players), then each hand dealt."""
    manifest = load_manifest(DEFAULT_MANIFEST)  # the board a new match is played on
    if players == 2 and answer(picks, "half_board") is None:
        return Question("half_board", "Play on the half board (two quadrants each)?", YES_NO)
    half = bool(answer(picks, "half_board"))
    dealt = DEALT[half]
    deck = Counter(manifest["deck"])
    for seat in range(players):
        key = f"hand{seat + 1}"
        hand = [shape for shape in answers(picks, key) if shape != DONE]
        if len(hand) < dealt:
            left = deck - Counter(
                s for k, v in picks if isinstance(k, str) and k.startswith("hand") for s in [v]
            )
            return Question(
                key,
                f"Player {seat + 1}'s dealt shapes ({len(hand)} of {dealt})",
                tuple(Option(s, s) for s in manifest["deck"] if left[s] > 0),
                several=True,
            )
    hands = [answers(picks, f"hand{seat + 1}") for seat in range(players)]
    return Ready({"options": {"half_board": half}, "setup": {"hands": hands}})
