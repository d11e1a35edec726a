"""Topas: the cards on the table, each half a cell in its gem colour with its gem count, each card
outlined in the colour of the player who laid it (the start card in black, the latest card
thicker).

The picker (the Record page's questions): the card (a logged game names every card as it is
played), then the cell of its first half and the way the second half points. Cells are offered
with the half they touch, so a player finds them on the table without counting coordinates.
Solitaire's next column starts with the start card turned up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.record.picking import (
    Facet,
    Move,
    Option,
    Picks,
    Question,
    Ready,
    Step,
    answer,
    answers,
    legal_moves,
    walk,
)
from tablelog.domain.games import GameRules
from tablelog.domain.games.manifests import load_manifest
from tablelog.domain.games.topas.declaration import HEAD_START_MOST, HEAD_STARTS
from tablelog.domain.games.topas.table import place_words
from tablelog.domain.wording import game_value_words

from .drawing import Sketch, Tap, board_figure, label, rect
from .setting import YES_NO, first_open

S = TypeVar("S")  # the engine's state

# ---- the board: draw(state, seats) --------------------------------------------------------------

GEMS = {
    "R": ("#e15759", "red"),
    "G": ("#59a14f", "green"),
    "Y": ("#edc948", "yellow"),
    "B": ("#4e79a7", "blue"),
}


def halves(card: str) -> list[str]:
    """A card's two halves in name order: "G3-Y2" -> ["G3", "Y2"]."""
    return card.split("-")


def table(state: dict[str, Any]) -> list[tuple[str, list[tuple[int, int]], int | None]]:
    """The cards on the table now (card, cells of its halves, seat or None for the start card):
    the current column's start card and placements (solitaire clears the table per column)."""
    column = len(state["starts"]) - 1
    if column < 0:
        return []
    cards: list[tuple[str, list[tuple[int, int]], int | None]] = [
        (state["starts"][column], [(0, 0), (1, 0)], None)  # the start card: nobody's
    ]
    cards += [
        (p["card"], [tuple(c) for c in p["cells"]], p["seat"])
        for p in state["placements"]
        if p["column"] == column
    ]
    return cards


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    cards = table(state)
    cells = [cell for _, where, _ in cards for cell in where] or [(0, 0)]
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    title = "Topas: " + ", ".join(
        f"<span style='color:{seat_colour(i + 1)}'>{text(n)}</span>" for i, n in enumerate(seats)
    )
    figure = board_figure(
        title, (min(xs) - 0.7, max(xs) + 0.7), (-max(ys) - 0.7, -min(ys) + 0.7), height=480
    )
    sketch = Sketch()
    for number, (card, where, seat) in enumerate(cards):
        for half, (x, y) in zip(halves(card), where):
            colour, _ = GEMS.get(half[0], ("#ccc", half[0]))
            rect(
                sketch,
                f"half {x},{y}:{half}",
                x - 0.45,
                -y - 0.45,
                x + 0.45,
                -y + 0.45,
                colour,
                "white",
            )
            label(sketch, x, -y, f"<b>{text(half[1:])}</b>", 14, "white")
        (x0, y0), (x1, y1) = where
        latest = number == len(cards) - 1 and seat is not None
        rect(
            sketch,
            f"card {card}",
            min(x0, x1) - 0.49,
            -max(y0, y1) - 0.49,
            max(x0, x1) + 0.49,
            -min(y0, y1) + 0.49,
            "rgba(0,0,0,0)",
            "black" if seat is None else seat_colour(seat + 1),
            5 if latest else 2.5,
        )
    return sketch.onto(figure)


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

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
    """Where `cell` is, said by a half it touches: 'below R2 (the start card's left half)',
    or by its place when it touches none ('2 up from the start card's left half'): one label
    per cell."""
    x, y = cell
    for direction, (dx, dy) in STEPS.items():
        neighbour = (x - dx, y - dy)
        if neighbour in halves:
            return f"{WORDS[direction]} {halves[neighbour]} ({place_words(neighbour)})"
    return place_words(cell)  # a half put here touches the table with its other half


AREA = 5  # cells each way: the part of a large table a card is placed in, drawn alone
SPREAD = 6  # cells: the most the places of a card may spread on a phone's whole table (46 px)


def crowded(moves: list[Move]) -> bool:
    """The cells a card may go to spread over more than SPREAD cells either way: the whole
    table would put them closer than a fingertip's target on a phone, so an area is asked
    first."""
    cells = [m["at"] for m in moves if "at" in m]
    if not cells:
        return False
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return max(xs) - min(xs) > SPREAD or max(ys) - min(ys) > SPREAD


def area(cell: Sequence[int]) -> tuple[int, int]:
    return cell[0] // AREA, cell[1] // AREA


def area_label(block: tuple[int, int]) -> str:
    # Named by its middle cell in the table's own words, not by coordinates.
    middle = (block[0] * AREA + AREA // 2, block[1] * AREA + AREA // 2)
    return f"the cells around {place_words(middle)}"


def menu(
    rules: GameRules[S], state: S, seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    moves = legal_moves(rules, state)
    halves = on_table(rules.encode(state))
    card = next(iter(answers(picks, "card")), None)
    first, second = card.split("-") if card else ("", "")

    def at_label(cell: tuple[int, int]) -> str:
        return beside(halves, cell)

    def dir_label(direction: str) -> str:
        return f"{second} points {POINTS[direction]}"

    wide = crowded(moves)

    def area_of(move: Move) -> tuple[int, int] | None:
        return area(move["at"]) if wide and "at" in move else None

    facets = [
        Facet(
            "start",
            "Which card starts the next column?",
            lambda m: m.get("start"),
            group=colours,
            sort=str,
        ),
        Facet("card", "Which card was played?", lambda m: m.get("card"), group=colours, sort=str),
        Facet(
            "area",
            f"Where on the table does its {first} half lie?",
            area_of,
            area_label,
            sort=lambda block: (block[1], block[0]),
        ),
        Facet(
            "at",
            f"Where does its {first} half lie?",
            lambda m: tuple(m["at"]) if "at" in m else None,
            at_label,
            sort=lambda cell: (cell[1], cell[0]),
        ),
        Facet("dir", f"And its {second} half?", lambda m: m.get("dir"), dir_label),
    ]
    return walk(moves, facets, picks)


def taps(state: object, question: Question, picks: Picks, seats: list[str]) -> list[Tap]:
    """Where the card goes: the cell of its first half, then the cell its second half points
    to (cell (x, y) is drawn at (x, -y))."""
    if question.key == "area":
        middle = (AREA - 1) / 2
        return [
            Tap(o.value, o.value[0] * AREA + middle, -(o.value[1] * AREA + middle), size=96)
            for o in question.options
        ]
    if question.key == "at":
        return [Tap(option.value, option.value[0], -option.value[1]) for option in question.options]
    at = answer(picks, "at")
    if question.key != "dir" or at is None:
        return []
    found = []
    for option in question.options:
        dx, dy = STEPS[option.value]
        found.append(Tap(option.value, at[0] + dx, -(at[1] + dy)))
    return found


def focus(
    state: object, question: Question, picks: Picks
) -> tuple[list[float], list[float]] | None:
    """The board's ranges for a cell asked on a large table: the area chosen, or the cells
    around the first half for the second's (a whole table of 10 cells puts neighbours 28 px
    apart on a phone); None (the whole table) otherwise."""
    chosen, at = answer(picks, "area"), answer(picks, "at")
    if question.key == "dir" and at is not None:
        return [at[0] - 1.6, at[0] + 1.6], [-at[1] - 1.6, -at[1] + 1.6]
    if question.key == "at" and chosen is not None:
        x, y = chosen[0] * AREA, chosen[1] * AREA
        return [x - 0.6, x + AREA - 0.4], [-(y + AREA - 0.4), -(y - 0.6)]
    return None


def colours(card: str) -> str:
    """'R1-G2' -> 'red and green': cards are grouped by their two gem colours."""
    names = {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}
    first, second = card.split("-")
    return f"{names.get(first[0], first[0])} and {names.get(second[0], second[0])}"


# ---- the Record page's setup questions: setup(players, picks) ---------------------------------


# The designer's variant, seat by seat (HEAD_STARTS' order): each head start's question.
HEAD_START_QUESTIONS = {
    "head_start": "Head start: points the first player begins with (a designer's variant)?",
    "second_head_start": (
        "Second player's head start: points the second player begins with (a designer's variant)?"
    ),
}


def head_start(name: str = "head_start") -> Question:
    """The designer's variant: a seat's points before any card (0, the rulebook's, is offered
    first; solitaire is not asked: it has nobody to make up to)."""
    return Question(
        name,
        HEAD_START_QUESTIONS[name],
        tuple(
            Option(n, game_value_words("topas", name, n) + (" (standard)" if not n else ""))
            for n in range(HEAD_START_MOST + 1)
        ),
    )


def setup(players: int, picks: Picks) -> Step:
    """The Record page's setup questions: the options, then what the table shows."""
    cards = load_manifest("topas")["cards"]
    colours = load_manifest("topas")["colours"]
    variants = [head_start(name) for name in HEAD_STARTS] if players > 1 else []
    open_ = first_open(
        [
            Question(
                "expert", "Expert variant (a placement scores the product of its lines)?", YES_NO
            ),
            *variants,
            Question(
                "start",
                "Which start card was turned up? (its first half lies left)",
                tuple(
                    Option(c, c, " and ".join(colours.get(h[0], h[0]) for h in c.split("-")))
                    for c in cards
                ),
            ),
        ],
        picks,
    )
    if open_:
        return open_
    options = {q.key: answer(picks, q.key) for q in variants}
    return Ready(
        {
            "options": {"expert": answer(picks, "expert"), **options},
            "setup": {"start": answer(picks, "start")},
        }
    )
