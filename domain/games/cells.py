"""Square-grid cell names shared by the grid games: column letter, row number, `a1` top-left."""

from __future__ import annotations

from ..quoting import quoted
from .base import IllegalMove

# The 8 neighbours (column step, row step), clockwise from north.
KING_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def cell_name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(name: object, cols: int, rows: int) -> tuple[int, int]:
    """`"b3"` -> (1, 2); IllegalMove naming the cell when it is not on a cols x rows board."""
    if isinstance(name, str) and len(name) >= 2 and name[0].isalpha() and name[1:].isdigit():
        col, row = ord(name[0].lower()) - ord("a"), int(name[1:]) - 1
        if 0 <= col < cols and 0 <= row < rows:
            return col, row
    last = cell_name(cols - 1, rows - 1)
    raise IllegalMove(f"{quoted(name)} is not a cell of the board (a1 to {last})")
