"""Topitop: the piece (one from the supply, or a piece or stack on the board), then the cell it
goes to. Only the engine's legal moves are offered; a stuck player gets the pass."""

from __future__ import annotations

from typing import Any

from .picking import Facet, Move, Picks, Step, legal_moves, walk

SUPPLY = {"bucket": "your bucket from the supply", "small": "a small sand pile from the supply",
          "large": "a large sand pile from the supply"}
PIECE_NAMES = {"L": "large pile", "S": "small pile", "B": "Blue bucket", "R": "Red bucket"}


def piece(move: Move) -> str:
    if "pass" in move:
        return "pass"
    return f"supply:{move['place']}" if "place" in move else move["from"]


def target(move: Move) -> str | None:
    return move.get("to")


def menu(rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None) -> Step:
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
        Facet("piece", "Which piece?", piece, label,
              lambda v: "from the supply" if v.startswith("supply:") else "on the board"),
        Facet("to", "To which cell?", target, sort=lambda cell: (cell[1], cell[0])),
    ]
    return walk(legal_moves(rules, state), facets, picks)


def cell_index(cell: str) -> int:
    return "abc".index(cell[0]) + 3 * (int(cell[1]) - 1)


def stack_words(stack: str) -> str:
    """'LSB' -> 'large pile, small pile, Blue bucket' (bottom to top)."""
    return ", ".join(PIECE_NAMES[p] for p in stack) or "empty"
