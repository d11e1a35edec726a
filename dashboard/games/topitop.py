"""Topitop: the 3x3 board, each cell's stack drawn bottom to top (large pile, small pile, bucket in
its player's colour), the supply in a row below it.

The picker (the Record page's questions): the piece (one from the supply, or a piece or stack on
the board), then the cell it goes to. Only the engine's legal moves are offered; a stuck player
gets the pass.
"""

from __future__ import annotations

from typing import Any, TypeVar

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.record.picking import (
    Facet,
    Move,
    Picks,
    Question,
    Step,
    legal_moves,
    walk,
)
from tablelog.domain.games import GameRules, RulesError, cells

from .drawing import Sketch, Tap, board_figure, label, rect

S = TypeVar("S")  # the engine's state

# ---- the board: draw(state, seats) --------------------------------------------------------------

SIZE = 3
BUCKETS = {"B": 1, "R": 2}  # bucket letter -> seat number (seat 1 plays Blue)
# Piece letter -> (width, height, fill) in cell units.
PIECES = {"L": (0.78, 0.24, "#d4a95f"), "S": (0.5, 0.2, "#ecd29a")}
BUCKET = (0.3, 0.22)
SUPPLY_Y = -3.2  # the supply's row, below the board
SUPPLY_X = {"bucket": 0.0, "small": 1.0, "large": 2.0}
EACH = 2  # buckets per player


def cell_name(index: int) -> str:
    return cells.cell_name(index % SIZE, index // SIZE)


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    names = [
        f"{text(seats[i])} ({colour})" for i, colour in enumerate(("Blue", "Red")) if i < len(seats)
    ]
    # The supply's targets lie inside these ranges (a bucket's to x = -0.74, a pile's to
    # y = -3.7): the board keeps its scale whatever is asked, and nothing moves under a finger.
    figure = board_figure("Topitop: " + " vs ".join(names), (-0.8, 2.55), (-3.75, 0.55), height=440)
    sketch = Sketch()
    for index, stack in enumerate(state["cells"]):
        col, row = index % SIZE, index // SIZE
        x, y = col, -row
        rect(
            sketch,
            f"cell {cell_name(index)}",
            x - 0.47,
            y - 0.47,
            x + 0.47,
            y + 0.47,
            "#f6efe0",
            "#bbb",
        )
        label(sketch, x - 0.4, y + 0.38, cell_name(index), 10, "#999", xanchor="left")
        bottom = y - 0.4
        for level, piece in enumerate(stack):
            if piece in BUCKETS:
                width, height = BUCKET
                fill = seat_colour(BUCKETS[piece])
            else:
                width, height, fill = PIECES[piece]
            rect(
                sketch,
                f"{cell_name(index)}:{level}:{piece}",
                x - width / 2,
                bottom,
                x + width / 2,
                bottom + height,
                fill,
                "#444",
            )
            bottom += height + 0.02
    winner = state.get("winner")
    if winner is not None and winner < len(seats):
        label(sketch, 1, -2.65, f"{text(seats[winner])} wins", 14, seat_colour(winner + 1))
    _supply(figure, sketch, state)
    return sketch.onto(figure)


def _supply(figure: go.Figure, sketch: Sketch, state: dict[str, Any]) -> None:
    """The pieces not yet on the board: each player's buckets in their colour, the small and
    large piles, with how many are left. Markers, not shapes: the board's shapes are its cells
    and stacks."""
    on_board = "".join(state["cells"])
    xs, sizes, colours = [], [], []
    for letter, seat in BUCKETS.items():
        left = EACH - on_board.count(letter)
        xs += [bucket_x(seat - 1) + 0.12 * k for k in range(left)]
        sizes += [14] * left
        colours += [seat_colour(seat)] * left
    for kind, letter in (("small", "S"), ("large", "L")):
        # The state holds the match's number of piles; those on the board are not in the supply.
        left = max(0, state.get(kind, 0) - on_board.count(letter))
        if left > 0:
            xs.append(SUPPLY_X[kind])
            sizes.append(18 if kind == "small" else 26)
            colours.append(PIECES[letter][2])
        label(sketch, SUPPLY_X[kind], SUPPLY_Y - 0.3, f"{left} {kind}", 10, "#666")
    label(sketch, SUPPLY_X["bucket"], SUPPLY_Y - 0.3, "buckets", 10, "#666")
    figure.add_scatter(
        x=xs,
        y=[SUPPLY_Y] * len(xs),
        mode="markers",
        name="supply",
        hoverinfo="skip",
        marker={
            "symbol": "square",
            "size": sizes,
            "color": colours,
            "line": {"color": "#444", "width": 1},
        },
    )


def bucket_x(seat: int) -> float:
    """Where a seat's buckets wait in the supply (Blue left, Red right of the column)."""
    return SUPPLY_X["bucket"] - 0.3 + 0.45 * seat


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

SUPPLY = {
    "bucket": "your bucket from the supply",
    "small": "a small sand pile from the supply",
    "large": "a large sand pile from the supply",
}
PIECE_NAMES = {"L": "large pile", "S": "small pile", "B": "Blue bucket", "R": "Red bucket"}


def piece(move: Move) -> str:
    if "pass" in move:
        return "pass"
    return f"supply:{move['place']}" if "place" in move else move["from"]


def target(move: Move) -> str | None:
    return move.get("to")


def menu(
    rules: GameRules[S], state: S, seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    cells = rules.encode(state)["cells"]

    def label(value: str) -> str:
        if value == "pass":
            return "pass (no other move is legal)"
        if value == "supply:bucket" and names:
            return f"{names[seat]}'s bucket from the supply"
        if value.startswith("supply:"):
            return SUPPLY[value.removeprefix("supply:")]
        return f"{value}: {stack_words(cells[cell_index(value)])}"

    facets = [
        Facet(
            "piece",
            "Which piece?",
            piece,
            label,
            lambda v: "from the supply" if v.startswith("supply:") else "on the board",
        ),
        Facet("to", "To which cell?", target, sort=lambda cell: (cell[1], cell[0])),
    ]
    return walk(legal_moves(rules, state), facets, picks)


def taps(state: dict[str, Any], question: Question, picks: Picks, seats: list[str]) -> list[Tap]:
    """Where each answer lies on the board: a supply pile below it, a stack or a cell on it.
    Every cell (and, for the piece, every supply) is a place: those the question does not
    offer answer a tap with the engine's refusal (`refusal`)."""
    if question.key not in ("piece", "to"):
        return []
    every = [cells.cell_name(index % SIZE, index // SIZE) for index in range(SIZE * SIZE)]
    if question.key == "piece":
        every += [f"supply:{kind}" for kind in SUPPLY_X]
    found = []
    for value in every:
        if value.startswith("supply:"):
            kind = value.removeprefix("supply:")
            x = bucket_x(state["turn"]) + 0.06 if kind == "bucket" else SUPPLY_X[kind]
            found.append(Tap(value, x, SUPPLY_Y))
        else:
            col, row = cells.parse_cell(value, SIZE, SIZE)
            found.append(Tap(value, col, -row))
    return found


def refusal(
    rules: GameRules[S], state: S, seat: int, picks: Picks, key: str, value: object
) -> str | None:
    """Why the engine refuses the pick [key, value] after `picks`: its own words for the first
    move that pick would begin (a piece) or finish (a cell); None when it refuses none."""
    piece = value if key == "piece" else next((v for k, v in picks if k == "piece"), None)
    if not isinstance(piece, str) or not isinstance(value, str):
        return None
    for to in [value] if key == "to" else _judged_cells(rules.encode(state)["cells"], piece):
        if piece.startswith("supply:"):
            move = {"place": piece.removeprefix("supply:"), "to": to}
        else:
            move = {"from": piece, "to": to}
        try:
            rules.apply(state, move)
        except RulesError as err:
            return str(err)
    return None


def _judged_cells(stacks: list[str], piece: str) -> list[str]:
    """The cells whose refusal says why a piece cannot move: for a piece from the supply every
    cell, the empty ones first (the supply is judged there); for a piece on the board its
    neighbours (a cell further off is refused for its distance, which says nothing of the
    piece)."""
    if piece.startswith("supply:"):
        return sorted(map(cell_name, range(SIZE * SIZE)), key=lambda c: bool(stacks[cell_index(c)]))
    col, row = cells.parse_cell(piece, SIZE, SIZE)

    def distance(index: int) -> int:
        return max(abs(index % SIZE - col), abs(index // SIZE - row))

    return [cell_name(i) for i in range(SIZE * SIZE) if distance(i) == 1]


def cell_index(cell: str) -> int:
    col, row = cells.parse_cell(cell, SIZE, SIZE)
    return col + SIZE * row


def stack_words(stack: str) -> str:
    """'LSB' -> 'large pile, small pile, Blue bucket' (bottom to top)."""
    return ", ".join(PIECE_NAMES[p] for p in stack) or "empty"
