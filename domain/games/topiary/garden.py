"""Topiary's garden geometry: the 5x5 tiles, the 56 visitor spots and their sight lines.

A visitor stands outside the garden and looks along one row, column or diagonal. Its spot is
named by the first tile it sees and the direction it looks (`c1:S`, `a1:SE`, `e3:W`): a spot
exists wherever the tile one step behind that first tile, against the direction, is off the
garden. That gives 5 per side looking straight in (20) and both ends of every diagonal, lengths
1 to 5 (36). Pure data and small pure functions; the rules live in `topiary.py`.
"""

from __future__ import annotations

from ...quoting import quoted
from ..base import IllegalMove
from ..cells import cell_name, parse_cell

SIZE = 5
CELLS = tuple(cell_name(i % SIZE, i // SIZE) for i in range(SIZE * SIZE))  # a1 b1 .. e1 a2 ..
CENTRE = CELLS.index("c3")

# Compass direction -> (column step, row step); row 1 is on top, so south is row + 1.
DIRECTIONS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


def _on_garden(col: int, row: int) -> bool:
    return 0 <= col < SIZE and 0 <= row < SIZE


def _line(col: int, row: int, direction: str) -> tuple[int, ...]:
    """The cells from (col, row) onwards in `direction`, nearest first."""
    dc, dr = DIRECTIONS[direction]
    cells = []
    while _on_garden(col, row):
        cells.append(row * SIZE + col)
        col, row = col + dc, row + dr
    return tuple(cells)


def _line_start(col: int, row: int, direction: str) -> tuple[int, int]:
    """Walk back against `direction` to the first tile of the line through (col, row)."""
    dc, dr = DIRECTIONS[direction]
    while _on_garden(col - dc, row - dr):
        col, row = col - dc, row - dr
    return col, row


# Every visitor spot -> its sight line (cell indices, nearest first), in reading order of the
# first tile and then clockwise from north.
SIGHT_LINES: dict[str, tuple[int, ...]] = {
    f"{CELLS[row * SIZE + col]}:{direction}": _line(col, row, direction)
    for row in range(SIZE)
    for col in range(SIZE)
    for direction in DIRECTIONS
    if _line_start(col, row, direction) == (col, row)
}
assert len(SIGHT_LINES) == 56, "4 sides x 5 straight spots + 2 ends of 18 diagonals"

COMPASS = {
    "N": "north",
    "NE": "north-east",
    "E": "east",
    "SE": "south-east",
    "S": "south",
    "SW": "south-west",
    "W": "west",
    "NW": "north-west",
}


def spot_words(spot: str) -> str:
    """A visitor spot as a player says it: the first tile the visitor sees and the way it
    looks ("a1:S" -> "a1, looking south"); a name that is no spot is shown as given."""
    cell, _, direction = str(spot).partition(":")
    looking = COMPASS.get(direction.upper())
    return f"{cell}, looking {looking}" if looking else str(spot)


SPOT_FORMAT = (
    "a spot is the first tile a visitor sees and the direction it looks, e.g. c1:S, a1:SE, e3:W"
)


def parse_spot(name: object) -> str:
    """The spot's canonical name, or IllegalMove saying why it is not a visitor spot."""
    if not isinstance(name, str) or ":" not in name:
        raise IllegalMove(f"{quoted(name)} is not a visitor spot: {SPOT_FORMAT}")
    cell, _, direction = name.partition(":")
    direction = direction.upper()
    if direction not in DIRECTIONS:
        raise IllegalMove(
            f"{quoted(name)} is not a visitor spot: the direction is one of {', '.join(DIRECTIONS)}"
        )
    col, row = parse_cell(cell, SIZE, SIZE)
    spot = f"{CELLS[row * SIZE + col]}:{direction}"
    if spot not in SIGHT_LINES:
        start = _line_start(col, row, direction)
        first = CELLS[start[1] * SIZE + start[0]]
        raise IllegalMove(
            f"there is no visitor spot {spot}: visitors stand outside the garden, "
            f"and the one looking {direction} along that line first sees {first} "
            f"(spot {first}:{direction})"
        )
    return spot


def parse_garden_cell(name: object) -> int:
    col, row = parse_cell(name, SIZE, SIZE)
    return row * SIZE + col


# ---- drawing ----------------------------------------------------------------------------------

ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
WIDTH = 15  # "[Polyhedron 5]" and a space


def draw_garden(labels: list[str], marks: dict[str, str]) -> list[str]:
    """The garden as text lines: a label per cell, and around the edge every spot as its mark
    (the seat's number, or '·' when free) with an arrow for the way it looks."""

    def mark(cell: int, direction: str, shown: bool = True) -> str:
        return marks.get(f"{CELLS[cell]}:{direction}", "·") + ARROWS[direction] if shown else "  "

    def edge(row: int, left: str, middle: str, right: str) -> str:
        return "      " + "".join(
            f" {mark(row * SIZE + col, left)}{mark(row * SIZE + col, middle):^{WIDTH - 6}}"
            f"{mark(row * SIZE + col, right)} "
            for col in range(SIZE)
        )

    last = SIZE - 1
    lines = [
        "      " + "".join(f"{cell_name(col, 0)[0]:^{WIDTH}}" for col in range(SIZE)),
        edge(0, "SE", "S", "SW"),
    ]
    for row in range(SIZE):
        west, east = row * SIZE, row * SIZE + last
        cells = "".join(f"{labels[row * SIZE + col]:^{WIDTH}}" for col in range(SIZE))
        gap = " " * (WIDTH * SIZE)  # corner spots between two rows sit on the rows' edges
        lines += [
            f"   {mark(west, 'SE', row > 0)} {gap} {mark(east, 'SW', row > 0)}",
            f"{row + 1:>2} {mark(west, 'E')} {cells} {mark(east, 'W')}",
            f"   {mark(west, 'NE', row < last)} {gap} {mark(east, 'NW', row < last)}",
        ]
    lines.append(edge(last, "NE", "N", "NW"))
    return [line.rstrip() for line in lines]
