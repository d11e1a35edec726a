"""Total Landscaping: both hexagonal gardens side by side (West on the left, East on the right, as
the players sit), the tiles of the level in play, each filled with what grows there.

Entering a move at the table (the Record page): total Landscaping: one recorded move is a whole
round, both players' choices. Each player's choice is picked in turn from the engine's `choices`
(legal whatever the other does): the card (or the hoe), the garden and tile, then the card's
parameters (the two cards Red removes, Yellow's spread, Purple's optional recolour) or the hoe's
two tiles. The engine's `combine` makes the round.
"""

from __future__ import annotations

import math
from typing import Any, TypedDict, TypeVar

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.record.picking import (
    Facet,
    Picks,
    Question,
    Ready,
    Several,
    Step,
    answer,
    by_seat,
    narrow,
    prefixed,
)
from tablelog.domain.games import GameRules
from tablelog.domain.games.total_landscaping import hexgarden as hexes
from tablelog.domain.games.total_landscaping.rules import level_of

from .drawing import Sketch, Tap, label

S = TypeVar("S")  # the engine's state

# ---- the board: draw(state, seats) --------------------------------------------------------------

FLOWERS = {
    "R": "#d62728",
    "O": "#ff7f0e",
    "Y": "#f2d129",
    "B": "#1f77b4",
    "P": "#8e44ad",
    "W": "#ffffff",
}
SOIL, GRASS = "#efe6d6", "#8cc084"
GARDENS = ("Eastern garden", "Western garden")  # gardens[0] is East's (seat 1), [1] West's
SPAN = 12.0  # x distance between the two gardens' centres


def centre(tile: int) -> tuple[float, float]:
    """A tile's centre on a flat-topped hex grid of circumradius 1 (x right, y up)."""
    q, r = hexes.COORDS[tile]
    return 1.5 * q, -math.sqrt(3) * (r + q / 2)


def hexagon(x: float, y: float, size: float = 0.96) -> str:
    corners = [
        (x + size * math.cos(math.pi / 3 * k), y + size * math.sin(math.pi / 3 * k))
        for k in range(6)
    ]
    return "M " + " L ".join(f"{cx:.3f},{cy:.3f}" for cx, cy in corners) + " Z"


def looks(tile: str) -> tuple[str, str, str]:
    """(fill, border, label) of a tile: "" soil, "G" grass, "R" a flower, "GR" one on grass."""
    grass = tile.startswith("G")
    flower = tile[1:] if grass else tile
    fill = FLOWERS.get(flower, GRASS if grass else SOIL)
    return fill, ("#2e7d32" if grass else "#a08c6c"), flower


# px, by level: a tile's name, readable on a phone (9 px was about 8 px high there); at level 3
# a tile is 28 px across on a phone (390 px) and "C11" at 12 px ran over "C12" beside it.
TILE_LABEL = {1: 12, 2: 12, 3: 10}


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    level = level_of(state["round"])
    size = hexes.TILES_AT_LEVEL[level]
    reach = 1.5 * level + 1.1
    # The garden's name, half a unit above its top tile's edge (0.83 above its centre): at
    # reach + 0.5 it met the top tile at level 3.
    named = math.sqrt(3) * level + 1.35
    figure, sketch = go.Figure(), Sketch()
    blocked = tuple(state["blocked"]) if state.get("blocked") else None
    # West (garden 1, seat 2) at x = 0, East (garden 0, seat 1) at x = SPAN.
    for garden, offset in ((1, 0.0), (0, SPAN)):
        _tiles(sketch, state["gardens"][garden][:size], garden, offset, level, blocked)
        seat = garden + 1
        name = text(seats[garden]) if garden < len(seats) else "?"
        label(sketch, offset, named, f"{GARDENS[garden]}: <b>{name}</b>", 13, seat_colour(seat))
    wins = [sum(b["winner"] == s for b in state["bouts"]) for s in (0, 1)]
    score = " · ".join(f"{text(n)} {w}" for n, w in zip(seats, wins))
    figure.update_layout(
        title={
            # two short lines, each whole on a phone's width (the page names the game)
            "text": f"Bout {state['bout']}, round {state['round']}, level {level}<br>"
            f"bouts won: {score}",
            "x": 0.01,
            "font": {"size": 15},
        },
        height=440,
        showlegend=False,
        dragmode=False,
        margin={"l": 8, "r": 8, "t": 70, "b": 8},
    )
    figure.update_xaxes(range=[-reach - 0.3, SPAN + reach + 0.3], visible=False, fixedrange=True)
    figure.update_yaxes(
        range=[-reach, max(reach + 1, named + 0.6)],
        visible=False,
        fixedrange=True,
        scaleanchor="x",
        scaleratio=1,
    )
    return sketch.onto(figure)


def _tiles(
    sketch: Sketch,
    tiles: list[str],
    garden: int,
    offset: float,
    level: int,
    blocked: tuple[int, ...] | None,
) -> None:
    """One garden's tiles: each hexagon in its colour, named by its notation."""
    for index, tile in enumerate(tiles):
        x, y = centre(index)
        fill, border, _flower = looks(tile)
        is_blocked = blocked == (garden, index)
        sketch.shapes.append(
            {
                "type": "path",
                "path": hexagon(x + offset, y),
                "fillcolor": fill,
                "name": f"{GARDENS[garden]} {hexes.TILES[index]}:{tile or '-'}",
                "line": {
                    "color": "black" if is_blocked else border,
                    "width": 4 if is_blocked or tile.startswith("G") else 1,
                },
            }
        )
        dark = fill not in (SOIL, GRASS, FLOWERS["W"], FLOWERS["Y"])
        label(
            sketch,
            x + offset,
            y,
            hexes.TILES[index] + ("<br>#" if is_blocked else ""),
            TILE_LABEL.get(level, 10),
            "white" if dark else "#333",
        )


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

GARDEN_KEYS = ("east", "west")  # the move's key for each seat's garden
ROLES = ("East", "West")
NO_RECOLOUR = ""


def ring(tile: str) -> str:
    return "the centre" if tile == "A" else f"ring {tile[0]}"


FACETS: list[Facet | Several] = [
    Facet(
        "card",
        "Which card (or the hoe)?",
        lambda m: m.get("card", "hoe"),
        lambda card: "hoe two tiles" if card == "hoe" else card,
    ),
    Facet(
        "garden",
        "In which garden?",
        lambda m: m.get("garden"),
        lambda garden: f"the {garden.capitalize()}ern garden",
    ),
    Facet("tile", "On which tile?", lambda m: m.get("tile"), group=ring),
    Several(
        "remove",
        "Red removes which cards of the hand?",
        lambda m: tuple(m["remove"]) if "remove" in m else None,
    ),
    Facet("spread", "Yellow spreads to which empty tile?", lambda m: m.get("spread"), group=ring),
    Facet(
        "recolour",
        "Purple turns which flower purple?",
        lambda m: m.get("recolour", NO_RECOLOUR) if m.get("card") == "Purple" else None,
        lambda tile: "none" if tile == NO_RECOLOUR else tile,
    ),
    Several(
        "hoe",
        "Hoe which two adjacent tiles of your garden?",
        lambda m: tuple(m["hoe"]) if "hoe" in m else None,
        group=ring,
    ),
]


def menu(
    rules: GameRules[S], state: S, seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    chosen = {}
    for awaited in rules.to_move(state):
        prefix = GARDEN_KEYS[awaited]
        step = narrow(rules.choices(state, awaited), FACETS, by_seat(picks, prefix))
        if not isinstance(step, list):
            who = f"{names[awaited]} ({ROLES[awaited]})" if names else ROLES[awaited]
            return prefixed(step, prefix, who)
        chosen[awaited] = step[0]
    return Ready(rules.combine(state, chosen))


OFFSETS = (SPAN, 0.0)  # garden 0 (East's) is drawn on the right, garden 1 (West's) on the left
ON_A_TILE = ("tile", "spread", "recolour", "hoe")


class LandscapingView(TypedDict):
    """The part of the encoded state (`rules.encode`) the focus reads."""

    round: int  # the round of the bout: its level sizes the gardens


GARDEN_TAP = 96  # px: a garden's target, within its seven middle tiles on a phone


def taps(state: object, question: Question, picks: Picks, seats: list[str]) -> list[Tap]:
    """The garden (a large target over its middle answers "which garden?"), then the tiles: the
    card's tile, Yellow's spread and Purple's recolour in the garden chosen (drawn alone,
    `focus`), the hoe's in one's own."""
    prefix, _, key = question.key.rpartition(".")
    own = GARDEN_KEYS.index(prefix)
    if key == "garden":
        return [
            Tap(option.value, *_at(GARDEN_KEYS.index(option.value), 0), size=GARDEN_TAP)
            for option in question.options
        ]
    if key not in ON_A_TILE:
        return []
    garden = _garden_asked(question, picks, own)
    return [
        Tap(option.value, *_at(garden, hexes.TILES.index(option.value)))
        for option in question.options
        if option.value in hexes.TILES
    ]


def _garden_asked(question: Question, picks: Picks, own: int) -> int:
    """The garden a tile question is about: one's own for the hoe, else the garden chosen."""
    prefix, _, key = question.key.rpartition(".")
    chosen = answer(by_seat(picks, prefix), "garden")
    return own if key == "hoe" or chosen is None else GARDEN_KEYS.index(chosen)


def focus(
    state: LandscapingView, question: Question, picks: Picks
) -> tuple[list[float], list[float]] | None:
    """The board's ranges while a tile is asked for: its garden alone, so that a hex is a
    fingertip's target on a phone (both gardens side by side put neighbours 34 px apart at
    390 px); None (both gardens) for any other question. Its targets tap the centre tile of
    a garden for "which garden?"."""
    prefix, _, key = question.key.rpartition(".")
    if key not in ON_A_TILE or prefix not in GARDEN_KEYS:
        return None
    offset = OFFSETS[_garden_asked(question, picks, GARDEN_KEYS.index(prefix))]
    level = level_of(state["round"])
    across, up = 1.5 * level + 1.0, math.sqrt(3) * level + 0.9
    return [offset - across, offset + across], [-up, up]


def _at(garden: int, index: int) -> tuple[float, float]:
    x, y = centre(index)
    return x + OFFSETS[garden], y
