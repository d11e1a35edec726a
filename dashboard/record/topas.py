"""Topas: the card (a logged game names every card as it is played), then the cell of its first
half and the way the second half points. Cells are offered with the half they touch, so a
player finds them on the table without counting coordinates. Solitaire's next column starts
with the start card turned up."""

from __future__ import annotations

from typing import Any

from .picking import Facet, Picks, Step, legal_moves, walk

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
WORDS = {"N": "above", "E": "right of", "S": "below", "W": "left of"}
POINTS = {"N": "up", "E": "right", "S": "down", "W": "left"}


def on_table(encoded: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The halves on the table now (the current column in solitaire), by cell."""
    column = len(encoded["starts"]) - 1
    if column < 0:
        return {}
    first, second = encoded["starts"][column].split("-")
    halves = {(0, 0): first, (1, 0): second}
    for placement in encoded["placements"]:
        if placement["column"] == column:
            for cell, half in zip(placement["cells"], placement["card"].split("-")):
                halves[tuple(cell)] = half
    return halves


def beside(halves: dict[tuple[int, int], str], cell: tuple[int, int]) -> str:
    """Where `cell` is, said by a half it touches: 'below R2 (0,0)'."""
    x, y = cell
    for direction, (dx, dy) in STEPS.items():
        neighbour = (x - dx, y - dy)
        if neighbour in halves:
            return f"{WORDS[direction]} {halves[neighbour]} ({neighbour[0]},{neighbour[1]})"
    return "next to the card below"


def menu(rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None) -> Step:
    moves = legal_moves(rules, state)
    halves = on_table(rules.encode(state))
    card = next((p[1] for p in picks if p[0] == "card"), None)
    first, second = card.split("-") if card else ("", "")

    def at_label(cell: tuple[int, int]) -> str:
        return f"({cell[0]},{cell[1]}) {beside(halves, cell)}"

    def dir_label(direction: str) -> str:
        return f"{second} points {POINTS[direction]}"

    facets = [
        Facet("start", "Which card starts the next column?", lambda m: m.get("start"),
              group=colours, sort=str),
        Facet("card", "Which card was played?", lambda m: m.get("card"), group=colours,
              sort=str),
        Facet("at", f"Where does its {first} half lie?",
              lambda m: tuple(m["at"]) if "at" in m else None, at_label,
              sort=lambda cell: (cell[1], cell[0])),
        Facet("dir", f"And its {second} half?", lambda m: m.get("dir"), dir_label),
    ]
    return walk(moves, facets, picks)


def colours(card: str) -> str:
    """'R1-G2' -> 'red and green': cards are grouped by their two gem colours."""
    names = {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}
    first, second = card.split("-")
    return f"{names.get(first[0], first[0])} and {names.get(second[0], second[0])}"
