"""What the balance tuner (`tablelog tune geoshapes`, docs/tune.md) may vary in GeoShapes, and
what a candidate board must still be before a match is played on it.

The space is read from the base board (the default unless a designer's SPACE.json names
another), so it fits whatever figures that board has: every deck count within 2 of the base's
(the Wild 1 to 4; the one Equilateral Triangle stays one, as the seed's Wild example needs), each
shape's point value within 2 of the base's, and how many of each shape every figure and circle
takes (0 to one more than the base's; a shape taken 0 times leaves the place), except the two
places of the Equilateral Triangle, which the Wild example fixes. Places are named
by quadrant and figure, so a pointer reads `/quadrants/2/figures/Sail/Parallelogram`.
"""

from __future__ import annotations

import copy
from typing import Any

from ...plain import PlainMapping, PlainValue
from .board import Board, parse_board

BASE = "geoshapes-v3"
TRIANGLE = "Equilateral Triangle"  # "there are only one Equilateral Triangle in the deck"
OPTIONS: dict[str, list[PlainValue]] = {}  # the rules' options are not the board's balance


def fields(base: dict[str, Any]) -> dict[str, list[int]]:
    """JSON pointer -> [low, high] of every whole number a designer may change."""
    out: dict[str, list[int]] = {}
    for shape, count in base["deck"].items():
        if shape == base["wild"]:
            out[f"/deck/{shape}"] = [1, 4]
        elif shape != TRIANGLE:
            out[f"/deck/{shape}"] = [max(1, count - 2), count + 2]
    for shape, points in base["shapes"].items():
        if shape != base["wild"]:
            out[f"/shapes/{shape}"] = [max(1, points - 2), points + 2]
    for number, quadrant in enumerate(base["quadrants"]):
        places = [(f"figures/{name}", needs) for name, needs in quadrant["figures"].items()]
        for where, needs in places + [("circle", quadrant["circle"])]:
            if TRIANGLE in needs:
                continue  # the seed's Wild example: the Triangle's two places stay as they are
            for shape, count in needs.items():
                out[f"/quadrants/{number}/{where}/{shape}"] = [0, count + 1]
    return out


def tidy(content: dict[str, Any]) -> dict[str, Any]:
    """A candidate as a manifest: a shape a place takes 0 times is left out of it."""
    content = copy.deepcopy(content)
    for quadrant in content["quadrants"]:
        places = list(quadrant["figures"].values()) + [quadrant["circle"]]
        for needs in places:
            for shape in [s for s, n in needs.items() if n == 0]:
                del needs[shape]
    return content


def invalid(content: PlainMapping, options: PlainMapping) -> str | None:
    """Why the board cannot be a candidate (None when it can): the manifest's own checks, the
    seed's Wild example, and every place completable from the deck."""
    from ..base import InvalidSetup

    try:
        board = parse_board(content, "candidate")
    except InvalidSetup as err:
        return str(err)
    return wild_example_missing(board) or uncompletable(board)


def wild_example_missing(board: Board) -> str | None:
    """The seed: "there are only one Equilateral Triangle in the GeoShapes deck, but two places
    that it can be used on the board ... a Wild Shape could be placed on the board in place of
    the Equilateral Triangle. Together with the Trapezoid, this Wild Shape would be complete"."""
    if board.deck.get(TRIANGLE) != 1 or board.deck.get(board.wild, 0) < 1:
        return f"the deck must hold one {TRIANGLE} and a Wild (the seed's Wild example)"
    needing = [p for p in board.places if TRIANGLE in p.needs]
    small = [p for p in needing if p.needs == {"Trapezoid": 1, TRIANGLE: 1}]
    if len(needing) != 2 or not small or len({p.quadrant for p in needing}) != 2:
        return (
            f"two places in two quadrants must take the {TRIANGLE}, one of them a Trapezoid "
            "and the Triangle alone (the seed's Wild example)"
        )
    return None


def uncompletable(board: Board) -> str | None:
    """A place that needs more of a shape than the deck holds could never be completed."""
    for place in board.places:
        for shape, count in place.needs.items():
            if count > board.deck.get(shape, 0):
                return (
                    f"{place.name} takes {count} {shape}, the deck holds {board.deck.get(shape, 0)}"
                )
    return None
