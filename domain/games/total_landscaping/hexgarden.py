"""The hexagonal gardens of Total Landscaping: tile names, adjacency, levels and drawing.

The seed's garden pictures are lost; RULES.md fixes the shape (ours): flat-topped hexes, `A` the
centre, then the rings `B1-B6`, `C1-C12`, `D1-D18`, each numbered clockwise from the tile
straight above the centre. LVL1 is A and ring B (7 tiles), LVL2 adds ring C (19), LVL3 ring D
(37); growing keeps every tile. Tiles are indexed in that order, so the tiles of a level are a
prefix of the index: level L holds tiles 0 .. TILES_AT_LEVEL[L] - 1.
"""

from __future__ import annotations

from collections.abc import Sequence

RING_LETTERS = "ABCD"
LEVELS = (1, 2, 3)

# Axial steps (q, r) of a flat-topped hex grid, q to the right, r down the screen.
N, NE, SE, S, SW, NW = (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)
STEPS = (N, NE, SE, S, SW, NW)


def _ring(k: int) -> list[tuple[int, int]]:
    """Ring k clockwise from the tile k steps straight above the centre."""
    if k == 0:
        return [(0, 0)]
    q, r, cells = 0, -k, []
    # Walking clockwise from the top corner, each side of the ring runs along one step.
    for dq, dr in (SE, S, SW, NW, N, NE):
        for _ in range(k):
            cells.append((q, r))
            q, r = q + dq, r + dr
    return cells


COORDS: tuple[tuple[int, int], ...] = tuple(
    cell for k in range(len(RING_LETTERS)) for cell in _ring(k)
)
TILES: tuple[str, ...] = tuple(
    RING_LETTERS[k] + (str(i + 1) if k else "")
    for k in range(len(RING_LETTERS))
    for i in range(len(_ring(k)))
)
INDEX: dict[str, int] = {name: i for i, name in enumerate(TILES)}
RING: tuple[int, ...] = tuple(RING_LETTERS.index(name[0]) for name in TILES)
_AT = {cell: i for i, cell in enumerate(COORDS)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_AT[(q + dq, r + dr)] for dq, dr in STEPS if (q + dq, r + dr) in _AT) for q, r in COORDS
)
TILES_AT_LEVEL = {level: sum(1 for ring in RING if ring <= level) for level in LEVELS}


def level_tiles(level: int) -> str:
    """`"A, B1-B6"`: the tile names of a level, for messages."""
    return ", ".join(
        ["A"] + [f"{RING_LETTERS[k]}1-{RING_LETTERS[k]}{6 * k}" for k in range(1, level + 1)]
    )


def adjacent(a: int, b: int) -> bool:
    return b in NEIGHBOURS[a]


def groups(keys: Sequence[object]) -> list[list[int]]:
    """Connected groups of tiles sharing a key (tile i has keys[i]; None belongs to no group)."""
    seen: set[int] = set()
    found = []
    for start, key in enumerate(keys):
        if key is None or start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            tile = todo.pop()
            group.append(tile)
            for n in NEIGHBOURS[tile]:
                if n not in seen and keys[n] == key:
                    seen.add(n)
                    todo.append(n)
        found.append(group)
    return found


def draw(labels: Sequence[str], level: int, width: int = 5) -> list[str]:
    """The tiles of `level` as text lines, one label per tile, hexes in their true places:
    columns of hexes side by side, each column half a row below the one on its left."""
    size = TILES_AT_LEVEL[level]
    lines = [[" "] * ((2 * level + 1) * width) for _ in range(4 * level + 1)]
    for i in range(size):
        q, r = COORDS[i]
        line, column = 2 * r + q + 2 * level, (q + level) * width
        for offset, char in enumerate(labels[i][:width]):
            lines[line][column + offset] = char
    return ["".join(line).rstrip() for line in lines]
