"""The Topas table: an unbounded square grid of card halves, the lines through it, and its drawing.

Cells are integer pairs (x, y) counted from the start card's first half, which lies at (0, 0) with
its second half at (1, 0). x grows to the east (right) and y to the south (down), like the row
numbers of the other games' boards, so the cell north of (0, 0) is (0, -1). The grid has no edge:
any integers are cells.

A half is a colour letter and a gem count, ("R", 2). A line is the unbroken run of same-colour
halves through a cell along one axis. This module knows geometry only; which runs score and which
are too long is the rules module's business.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

Cell = tuple[int, int]
Half = tuple[str, int]  # colour letter, gems

STEPS: dict[str, Cell] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
AXES: dict[str, Cell] = {"horizontal": (1, 0), "vertical": (0, 1)}


def step(cell: Cell, direction: str) -> Cell:
    dx, dy = STEPS[direction]
    return cell[0] + dx, cell[1] + dy


def direction(a: Cell, b: Cell) -> str:
    """The compass direction from a cell to its edge-neighbour."""
    offset = (b[0] - a[0], b[1] - a[1])
    return next(name for name, d in STEPS.items() if d == offset)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four edge-neighbours, in the order of STEPS (N, E, S, W); spelled out, as every
    listing of the places a card may go asks it for each cell near the table."""
    x, y = cell
    return (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)


def cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


@dataclasses.dataclass(frozen=True)
class Line:
    """An unbroken run of same-colour halves along one axis; cells west to east, north to south."""

    colour: str  # colour letter
    gems: int
    cells: tuple[Cell, ...]
    axis: str  # "horizontal" or "vertical"


class Table:
    """The cards lying on the table (of the current solitaire column), by cell.

    Built afresh from a state whenever needed and never stored: the state keeps the placements,
    this is the picture they make.
    """

    def __init__(self) -> None:
        self.halves: dict[Cell, Half] = {}
        self.cards: dict[Cell, str] = {}  # which card covers a cell
        self._spans: list[tuple[Cell, Cell]] | None = None

    def lay(self, card: str, cells: Sequence[Cell], halves: Sequence[Half]) -> None:
        self._spans = None
        for cell, half in zip(cells, halves):
            self.halves[cell] = half
            self.cards[cell] = card

    def touches(self, cells: Iterable[Cell]) -> bool:
        """Whether any of the cells is edge-adjacent to a half on the table."""
        return any(n in self.halves for cell in cells for n in neighbours(cell))

    def runs_with(self, cells: Sequence[Cell], halves: Sequence[Half]) -> tuple[Line, ...]:
        """The runs through each new half, horizontal and vertical, were it laid on `cells`.

        Four runs, since the two halves of a card differ in colour; single halves included.
        """
        grid = {**self.halves, **dict(zip(cells, halves))}
        return tuple(_run(grid, cell, axis) for cell in cells for axis in AXES)

    def most_gems_with(self, cells: Sequence[Cell], halves: Sequence[Half]) -> int:
        """The most gems of the runs `runs_with` finds, counted without copying the table or
        building the lines (listing the legal moves asks it for every card on every span)."""
        new = dict(zip(cells, halves))
        most = 0
        for (x0, y0), (colour, gems) in new.items():
            for dx, dy in AXES.values():
                total = gems
                for sign in (-1, 1):
                    x, y = x0, y0
                    while True:
                        x, y = x + sign * dx, y + sign * dy
                        half = new.get((x, y)) or self.halves.get((x, y))
                        if half is None or half[0] != colour:
                            break
                        total += half[1]
                most = max(most, total)
        return most

    def spans(self) -> list[tuple[Cell, Cell]]:
        """Every ordered pair of free edge-adjacent cells (first half, second half) of which at
        least one touches the table: all the places a card may go, colours aside. Worked out
        once per table (a bot's draw and the legal moves both ask); callers do not change it."""
        if self._spans is None:
            halves = self.halves
            frontier = {n for cell in halves for n in neighbours(cell)}.difference(halves)
            pairs: set[tuple[Cell, Cell]] = set()
            for a in frontier:
                for b in neighbours(a):
                    if b not in halves:
                        pairs.add((a, b))
                        pairs.add((b, a))
            self._spans = sorted(pairs)
        return self._spans

    def drawing(self) -> list[str]:
        """The table as text: a half is its colour letter and gem count ("R2"); the halves of one
        card are joined by "--" or "|"; free cells inside the frame are dots."""
        if not self.halves:
            return ["(the table is empty)"]
        xs = range(min(x for x, _ in self.halves), max(x for x, _ in self.halves) + 1)
        ys = range(min(y for _, y in self.halves), max(y for _, y in self.halves) + 1)
        lines = ["   x " + "".join(f"{x:<4}" for x in xs).rstrip(), "  y"]
        for y in ys:
            row = "".join(
                self._token((x, y)) + ("--" if self._joined((x, y), (x + 1, y)) else "  ")
                for x in xs
            )
            lines.append(f"{y:>3}  {row}".rstrip())
            joins = "".join("|   " if self._joined((x, y), (x, y + 1)) else "    " for x in xs)
            if joins.strip() and y + 1 in ys:
                lines.append(f"     {joins}".rstrip())
        return lines

    def _token(self, cell: Cell) -> str:
        half = self.halves.get(cell)
        return f"{half[0]}{half[1]}" if half else ". "

    def _joined(self, a: Cell, b: Cell) -> bool:
        return a in self.cards and self.cards[a] == self.cards.get(b)


def _run(grid: dict[Cell, Half], cell: Cell, axis: str) -> Line:
    colour = grid[cell][0]
    dx, dy = AXES[axis]
    cells = [cell]
    for sign in (-1, 1):
        x, y = cell
        while True:
            x, y = x + sign * dx, y + sign * dy
            half = grid.get((x, y))
            if half is None or half[0] != colour:
                break
            cells.append((x, y))
    cells.sort()
    return Line(colour, sum(grid[c][1] for c in cells), tuple(cells), axis)
