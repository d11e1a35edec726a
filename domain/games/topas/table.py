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
from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence

Cell = tuple[int, int]
Half = tuple[str, int]  # colour letter, gems

STEPS: dict[str, Cell] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
AXES: dict[str, Cell] = {"horizontal": (1, 0), "vertical": (0, 1)}
_DIRECTIONS = {offset: name for name, offset in STEPS.items()}


def step(cell: Cell, direction: str) -> Cell:
    dx, dy = STEPS[direction]
    return cell[0] + dx, cell[1] + dy


def direction(a: Cell, b: Cell) -> str:
    """The compass direction from a cell to its edge-neighbour."""
    offset = (b[0] - a[0], b[1] - a[1])
    name = _DIRECTIONS.get(offset)  # one lookup: every move a bot draws is written with it
    return next(n for n, d in STEPS.items() if d == offset) if name is None else name


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four edge-neighbours, in the order of STEPS (N, E, S, W); spelled out, as every
    listing of the places a card may go asks it for each cell near the table."""
    x, y = cell
    return (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)


def _touches(cell: Cell, halves: dict[Cell, Half]) -> bool:
    """Whether a half lies edge-adjacent to `cell` (spelled out: `spans` asks it per cell)."""
    x, y = cell
    north, east, south, west = (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)
    return north in halves or east in halves or south in halves or west in halves


# A span's key orders as the span does (its first cell's x, then y, then the second cell,
# which lies W, N, S or E of it: in that order), while every y is within +-_NEAR (a table of
# cards laid edge to edge from its start card stays far nearer than that).
_SIDE = {(-1, 0): 0, (0, -1): 1, (0, 1): 2, (1, 0): 3}
_NEAR = 2**40
_Y = 2 * _NEAR + 2
# Per neighbour (dx, dy): the side it lies on, and the key of the pair back from it less the
# key of the cell's own pairs (`_key` spelled out for `Table._keys_after`).
_AROUND = tuple(
    (dx, dy, _SIDE[dx, dy], ((dx * _Y + dy) << 2) + _SIDE[-dx, -dy]) for dx, dy in STEPS.values()
)


def _key(pair: tuple[Cell, Cell]) -> int:
    (ax, ay), (bx, by) = pair
    return ((ax * _Y + ay) << 2) + _SIDE[bx - ax, by - ay]


# Per side (`_SIDE`), the step from a span's first cell to its second.
_STEP_OF = {side: offset for offset, side in _SIDE.items()}
_STEPS_BY_SIDE = tuple(_STEP_OF[side] for side in range(4))


def _pair(key: int) -> tuple[Cell, Cell]:
    """The span whose `_key` is `key` (any y within +-_NEAR)."""
    at, side = divmod(key, 4)
    ax = (at + _NEAR) // _Y
    ay = at - ax * _Y
    dx, dy = _STEP_OF[side]
    return (ax, ay), (ax + dx, ay + dy)


def _pairs(keys: list[int]) -> list[tuple[Cell, Cell]]:
    """`_pair` of every key (spelled out in one loop: `spans` asks it of a whole listing)."""
    near, across, steps = _NEAR, _Y, _STEPS_BY_SIDE
    pairs = []
    for key in keys:
        at = key >> 2
        ax = (at + near) // across
        ay = at - ax * across
        dx, dy = steps[key & 3]
        pairs.append(((ax, ay), (ax + dx, ay + dy)))
    return pairs


def _frontier(halves: dict[Cell, Half]) -> set[Cell]:
    """The free cells edge-adjacent to a half."""
    return {n for cell in halves for n in neighbours(cell)}.difference(halves)


START = "the start card's left half"  # cell (0, 0): a start card lies across, its first half left
SIDE = {"N": "above", "E": "right of", "S": "below", "W": "left of"}


def place_words(cell: Cell) -> str:
    """Where a cell lies on the table, as a player sees it: '2 right and 1 up from the start
    card's left half', 'the start card's left half' (cell (0, 0), x east, y south)."""
    x, y = cell
    steps = [f"{abs(x)} {'right' if x > 0 else 'left'}"] if x else []
    steps += [f"{abs(y)} {'down' if y > 0 else 'up'}"] if y else []
    return f"{' and '.join(steps)} from {START}" if steps else START


def cell_words(cell: Cell) -> str:
    """A cell named on its own, as a refusal names it: 'the cell 2 right and 1 up from the start
    card's left half', 'the cell of the start card's left half'."""
    return f"the cell {place_words(cell)}" if cell != (0, 0) else f"the cell of {START}"


def card_words(card: str, cells: Sequence[Cell]) -> str:
    """Where a card lies, in the words a move is described in: 'R2 1 down from the start card's
    left half, B1 right of it' (`cells[i]` holds the half named i-th in `card`)."""
    first, second = card.split("-")
    return f"{first} {place_words(cells[0])}, {second} {SIDE[direction(*cells[:2])]} it"


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
        self._frontier: set[Cell] | None = None  # worked out with the keys
        # `_key` of each span, in the order of `spans` (None: a cell too far out to key, or
        # not worked out yet); the spans themselves are spelled out from them when asked.
        self._keys: list[int] | None = None
        self._known = False  # whether the keys (or, far out, the spans) are worked out
        # The table this one was laid from and the cells laid, until the spans are asked:
        # they then follow from the parent's keys by a few edits instead of a fresh sort.
        self._parent: tuple[Table, Sequence[Cell]] | None = None
        # The last `lines_with` asked: its cells, halves and limit, and its answer.
        self._lines: tuple[Sequence[Cell], Sequence[Half], int, tuple[Line, ...] | None] | None
        self._lines = None

    def laid_with(self, card: str, cells: Sequence[Cell], halves: Sequence[Half]) -> Table:
        """A new table: this one with the card laid (this one is left as it is)."""
        table = Table()
        table.halves, table.cards = self.halves.copy(), self.cards.copy()
        for cell, half in zip(cells, halves):
            table.halves[cell], table.cards[cell] = half, card
        table._parent = (self, cells)
        return table

    def lay(self, card: str, cells: Sequence[Cell], halves: Sequence[Half]) -> None:
        self._spans = self._keys = self._parent = self._frontier = self._lines = None
        self._known = False
        for cell, half in zip(cells, halves):
            self.halves[cell] = half
            self.cards[cell] = card

    def touches(self, cells: Iterable[Cell]) -> bool:
        """Whether any of the cells is edge-adjacent to a half on the table."""
        halves = self.halves
        for cell in cells:
            if _touches(cell, halves):
                return True
        return False

    def runs_with(self, cells: Sequence[Cell], halves: Sequence[Half]) -> tuple[Line, ...]:
        """The runs through each new half, horizontal and vertical, were it laid on `cells`.

        Four runs, since the two halves of a card differ in colour; single halves included.
        """
        new = dict(zip(cells, halves))
        return tuple(_run(new, self.halves, cell, axis) for cell in cells for axis in AXES)

    def lines_with(
        self, cells: Sequence[Cell], halves: Sequence[Half], limit: int
    ) -> tuple[Line, ...] | None:
        """The runs of `runs_with` of two or more halves (the lines a placement scores), or
        None as soon as a run holds more than `limit` gems (the rules ask this of every move a
        bot plays)."""
        last = self._lines
        if last is not None and last[0] == cells and last[1] is halves and last[2] == limit:
            return last[3]  # a bot's draw asked, then the rules' check of the move drawn
        new, laid, lines = dict(zip(cells, halves)), self.halves, []
        for cell in cells:
            colour, gems = new[cell]
            x0, y0 = cell
            for axis, (dx, dy) in AXES.items():
                # `_run` spelled out, building a Line only for a run of two or more halves
                run, total = [cell], gems
                for sx, sy in ((-dx, -dy), (dx, dy)):
                    x, y = x0 + sx, y0 + sy
                    half = new.get((x, y)) or laid.get((x, y))
                    while half is not None and half[0] == colour:
                        run.append((x, y))
                        total += half[1]
                        x, y = x + sx, y + sy
                        half = new.get((x, y)) or laid.get((x, y))
                if total > limit:
                    self._lines = (cells, halves, limit, None)
                    return None
                if len(run) > 1:
                    run.sort()
                    lines.append(Line(colour, total, tuple(run), axis))
        found = tuple(lines)
        self._lines = (cells, halves, limit, found)
        return found

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
            self.drawable()  # lists the spans themselves where it cannot key them
        if self._spans is None:
            assert self._keys is not None  # worked out by `drawable`
            self._spans = _pairs(self._keys)
        return self._spans

    def drawable(self) -> Sequence[int | tuple[Cell, Cell]]:
        """What a bot draws a span from, in the order of `spans`: the spans' keys (`span_of`
        spells the one drawn out), or the spans themselves on a table too far out to key."""
        if not self._known:
            parent, self._parent = self._parent, None
            keys = self._keys_after(*parent) if parent else None
            if keys is None:  # listed afresh, with what the next table's edits start from
                spans, self._frontier = self.listed_spans(), _frontier(self.halves)
                near = all(abs(y) < _NEAR - 1 for _, y in self._frontier)
                keys = [_key(pair) for pair in spans] if near else None
                self._spans = spans
            self._keys, self._known = keys, True
        return self._spans if self._keys is None else self._keys  # type: ignore[return-value]

    @staticmethod
    def span_of(drawn: int | tuple[Cell, Cell]) -> tuple[Cell, Cell]:
        """The span an item of `drawable` stands for."""
        return drawn if isinstance(drawn, tuple) else _pair(drawn)

    def listed_spans(self) -> list[tuple[Cell, Cell]]:
        """`spans` worked out from the halves alone (the reference of the edited listing)."""
        halves = self.halves
        pairs: set[tuple[Cell, Cell]] = set()
        for a in _frontier(halves):
            for b in neighbours(a):
                if b not in halves:
                    pairs.add((a, b))
                    pairs.add((b, a))
        return sorted(pairs)

    def frontier(self) -> set[Cell]:
        """The free cells edge-adjacent to a half (a span holds at least one)."""
        if self._frontier is None:
            self.drawable()
        assert self._frontier is not None  # both ways of listing the spans keep it
        return self._frontier

    def _keys_after(self, parent: Table, laid: Sequence[Cell]) -> list[int] | None:
        """The keys of `spans` from the parent's, edited: the pairs using a laid cell go, the
        pairs of free cells that touch the table only now come (cells only ever fill, so no
        other pair changes). Kept in the sorted order a fresh listing has (a bot's draw picks
        by index), found by bisecting. None when that does not apply (a laid cell was not
        free, or lies too far out)."""
        old, halves, edge = parent.halves, self.halves, parent.frontier()
        if parent._keys is None or any(c in old or abs(c[1]) >= _NEAR - 2 for c in laid):
            return None
        keys = parent._keys.copy()
        gone: set[int] = set()  # the keys of the pairs that go, each once
        for ax, ay in laid:
            base, touched = (ax * _Y + ay) << 2, (ax, ay) in edge
            for dx, dy, side, back in _AROUND:
                b = (ax + dx, ay + dy)
                if b not in old and (touched or b in edge):
                    gone.add(base + side)
                    gone.add(base + back)
        for key in gone:
            del keys[bisect_left(keys, key)]
        near = {n for cell in laid for n in neighbours(cell)}.difference(halves)
        fresh = near - edge  # free cells that touch the table only now
        for a in fresh:
            ax, ay = a
            base = (ax * _Y + ay) << 2
            for dx, dy, side, back in _AROUND:
                b = (ax + dx, ay + dy)
                # (a, b) is new unless b touched the table before; a pair of two fresh cells
                # is added once, from its smaller cell.
                if b not in halves and b not in edge and not (b in fresh and b < a):
                    insort(keys, base + side)
                    insort(keys, base + back)
        self._frontier = edge.difference(laid) | near
        return keys

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


def _run(new: dict[Cell, Half], laid: dict[Cell, Half], cell: Cell, axis: str) -> Line:
    """The run through `cell` on the table `laid` with the halves `new` laid over it (looked up
    in both rather than merged: the rules ask this of every placement)."""
    colour, gems = new[cell] if cell in new else laid[cell]
    dx, dy = AXES[axis]
    cells = [cell]
    for sign in (-1, 1):
        x, y = cell
        while True:
            x, y = x + sign * dx, y + sign * dy
            half = new.get((x, y)) or laid.get((x, y))
            if half is None or half[0] != colour:
                break
            cells.append((x, y))
            gems += half[1]
    cells.sort()
    return Line(colour, gems, tuple(cells), axis)
