"""Topiary: the 5x5 garden of sculpture tiles and the visitors on their spots around it, each an
arrow in its player's colour pointing the way it looks.

The picker (the Record page's questions): the visitor's spot, then the optional take (a face-
down tile on its sight line), what the taken tile turned out to be (when the table saw it), and
the tile placed face up in the gap. At the end each hand is revealed tile by tile; with
`last_player_chooses` the last player first names the tiles kept. Identities the record does not
know yet are offered from what the manifest still allows (the engine's `legal_moves` lists
them); the taken tile's identity is not part of `legal_moves`, so its menu is built here from
the tiles nobody has seen and every place that follows it is checked with the engine's `apply`.
"""

from __future__ import annotations

import functools
from typing import Any, TypedDict, TypeVar, cast

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import seat_colour, text
from tablelog.dashboard.record.picking import (
    Facet,
    Move,
    Option,
    Picks,
    Question,
    Ready,
    Several,
    Step,
    answer,
    legal_moves,
    narrow,
)
from tablelog.domain.games import GameRules, RulesError
from tablelog.domain.games.cells import parse_cell
from tablelog.domain.games.manifests import load_manifest
from tablelog.domain.games.topiary.garden import DIRECTIONS, SIZE
from tablelog.domain.plain import PlainDict

from .drawing import Sketch, Tap, board_figure, label, rect
from .setting import YES_NO, first_open

S = TypeVar("S")  # the engine's state

TAP_SIZE = 46  # px: a place to stand, then the way to look, each a tile (48 px on a phone) apart

# ---- the board: draw(state, seats) --------------------------------------------------------------

ANGLES = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
FACE_UP, KNOWN, UNSEEN = "#e9f5e1", "#d5d5d5", "#8a8a8a"


STRAIGHT, DIAGONAL = 0.72, 1.2  # a spot's distance from its first tile, along each axis


def spot_position(spot: str) -> tuple[float, float]:
    """Where a visitor on `spot` ("c1:S") stands, in plot units: just outside its first tile,
    against the direction it looks (x to the east, y up, tile a1 at (0, 0)). Diagonal spots
    stand farther out, so that no two spots are closer than 0.4 of a tile: each is a place to
    tap on a phone."""
    cell, direction = spot.split(":")
    col, row = parse_cell(cell, SIZE, SIZE)
    dc, dr = DIRECTIONS[direction]
    away = DIAGONAL if dc and dr else STRAIGHT
    return col - away * dc, -(row - away * dr)


def all_spots() -> list[str]:
    """The 56 spots: a straight or diagonal line starts at the tile whose step back is off."""
    spots = []
    for row in range(SIZE):
        for col in range(SIZE):
            for direction, (dc, dr) in DIRECTIONS.items():
                if not (0 <= col - dc < SIZE and 0 <= row - dr < SIZE):
                    spots.append(f"{'abcde'[col]}{row + 1}:{direction}")
    return spots


NAME_LINE = 6  # letters: a line of a tile's name at 10 px fits its tile (46 px on a phone)
VOWELS, DIGRAPHS = set("aeiouy"), ("ch", "ph", "sh", "th", "wh")


def tile_words(kind: str) -> str:
    """A tile's kind in lines that fit the tile on a phone: broken at its spaces ("Pom / Pom"),
    and a word longer than a line between two syllables, with a hyphen ("Poly- / hedron"):
    every letter shown, none run over the next tile."""
    lines: list[str] = []
    for word in kind.split():
        while len(word) > NAME_LINE:
            cut = _syllable_break(word)
            lines.append(word[:cut] + "-")
            word = word[cut:]
        lines.append(word)
    return "<br>".join(text(line) for line in lines)


def _syllable_break(word: str) -> int:
    """Where to hyphenate: before a consonant (or "ph", "th" ...) between two vowels, the one
    nearest the middle ("Ele|phant", "Pyra|mid"), at least two letters in from either end; in
    the middle when there is none. No line keeps more than NAME_LINE letters and the hyphen."""
    low = word.lower()
    cuts = [
        i
        for i in range(2, min(len(low) - 2, NAME_LINE) + 1)
        if low[i - 1] in VOWELS
        and low[i] not in VOWELS
        and low[i + (2 if low[i : i + 2] in DIGRAPHS else 1) :][:1] in VOWELS
    ]
    return min(cuts, key=lambda i: abs(i - len(low) / 2), default=min(len(low) // 2, NAME_LINE))


def draw(state: dict[str, Any], seats: list[str]) -> go.Figure:
    figure = board_figure("Topiary garden", (-1.45, 5.45), (-5.45, 1.45), height=520)
    sketch = Sketch()
    for index, (tile, up) in enumerate(zip(state["tiles"], state["face_up"])):
        col, row = index % SIZE, index // SIZE
        fill = FACE_UP if up else KNOWN if tile else UNSEEN
        rect(
            sketch,
            f"tile {'abcde'[col]}{row + 1}",
            col - 0.46,
            -row - 0.46,
            col + 0.46,
            -row + 0.46,
            fill,
            "#7a9a6a" if up else "#999",
        )
        if tile:
            kind, _, value = tile.rpartition(" ")
            words = f"<b>{text(value)}</b><br>{tile_words(kind)}"
            label(
                sketch, col, -row, words if up else f"<i>{words}</i>", 10, "#222" if up else "#555"
            )
        else:
            label(sketch, col, -row, "?", 16, "white")
    free = [s for s in all_spots() if s not in {v["spot"] for v in state["visitors"]}]
    xs, ys = zip(*map(spot_position, free)) if free else ((), ())
    figure.add_scatter(
        x=xs,
        y=ys,
        mode="markers",
        name="free spots",
        hoverinfo="skip",
        marker={"size": 4, "color": "#ccc"},
    )
    for seat in range(len(seats)):
        mine = [v["spot"] for v in state["visitors"] if v["seat"] == seat]
        if not mine:
            continue
        xs, ys = zip(*map(spot_position, mine))
        figure.add_scatter(
            x=xs,
            y=ys,
            mode="markers",
            name=text(seats[seat]),
            marker={
                "symbol": "arrow",
                "size": 15,
                "color": seat_colour(seat + 1),
                "angle": [ANGLES[s.split(":")[1]] for s in mine],
                "line": {"width": 1, "color": "white"},
            },
            text=mine,
            hovertemplate=text(seats[seat]) + " at %{text}<extra></extra>",
        )
    return sketch.onto(figure)


# ---- the picker: menu(rules, state, seat, picks, names) -----------------------------------------

ARROWS = {"S": "↓", "N": "↑", "E": "→", "W": "←", "SE": "↘", "SW": "↙", "NE": "↗", "NW": "↖"}
SIDES = {
    "S": "above the garden, looking down",
    "W": "right of the garden, looking left",
    "N": "below the garden, looking up",
    "E": "left of the garden, looking right",
    "SE": "diagonals looking ↘",
    "SW": "diagonals looking ↙",
    "NE": "diagonals looking ↗",
    "NW": "diagonals looking ↖",
}
CELLS = [f"{col}{row}" for row in range(1, 6) for col in "abcde"]
NOT_SEEN = ""
VISITOR_ONLY = ""


def tile_type(tile: str) -> str:
    return tile.rsplit(" ", 1)[0]


def spot_label(spot: str) -> str:
    first, direction = spot.split(":")
    return f"{first} {ARROWS[direction]}"


@functools.cache  # asked of every legal visit at each question: thousands of moves, 80 spots
def stand_of(spot: str) -> tuple[int, int]:
    """Where a visitor on `spot` stands: the square outside the garden one step back from its
    first tile, as (column, row) (a1 is (0, 0); -1 and 5 lie outside). A square beside the
    garden has up to three spots (straight in, and the two diagonals), a corner one."""
    cell, direction = spot.split(":")
    col, row = parse_cell(cell, SIZE, SIZE)
    dc, dr = DIRECTIONS[direction]
    return (col - dc, row - dr)


def stand_side(stand: list[int]) -> str:
    col, row = stand
    if col in (-1, SIZE) and row in (-1, SIZE):
        return "at a corner of the garden"
    if row == -1:
        return "above the garden"
    if col == SIZE:
        return "right of the garden"
    if row == SIZE:
        return "below the garden"
    return "left of the garden"


def stand_label(stand: list[int]) -> str:
    """A place to stand in words: "above b1", "right of e3", "corner by a1"."""
    col, row = stand
    near = f"{'abcde'[min(max(col, 0), SIZE - 1)]}{min(max(row, 0), SIZE - 1) + 1}"
    side = stand_side(stand)
    if side.startswith("at a corner"):
        return f"corner by {near}"
    return f"{side.split(' the ')[0]} {near}"


def stand_order(stand: list[int]) -> tuple[int, int]:
    """Around the garden: the top, the right, the bottom, the left, then the corners."""
    col, row = stand
    sides = [stand_side(s) for s in ([0, -1], [SIZE, 0], [0, SIZE], [-1, 0], [-1, -1])]
    along = col if row in (-1, SIZE) else row
    return sides.index(stand_side(stand)), along


def look_label(spot: str) -> str:
    """The way a visitor looks, as an arrow and the first tile it sees: "↘ to c1"."""
    first, direction = spot.split(":")
    return f"{ARROWS[direction]} to {first}"


def spot_order(spot: str) -> tuple[int, str]:
    """Around the garden: the four sides (top, right, bottom, left), then the diagonals."""
    first, direction = spot.split(":")
    return list(SIDES).index(direction), first[1] + first[0]


class Sculptures(TypedDict):
    types: list[str]
    values: list[int]
    removed: str | None  # the type left out of play


class TopiaryView(TypedDict):
    """The parts of the encoded state (`rules.encode`) the picker reads."""

    sculptures: Sculptures
    tiles: list[str | None]  # per cell (CELLS' order); None: face down, not known
    hands: list[list[str | None]]  # per seat; None: a tile the record does not know
    box: list[str]


def unseen_tiles(encoded: TopiaryView) -> list[str]:
    """The tiles in play that the table has not seen anywhere (any of them may turn up)."""
    sculptures = encoded["sculptures"]
    known = (
        {t for t in encoded["tiles"] if t}
        | set(encoded["box"])
        | {t for hand in encoded["hands"] for t in hand if t}
    )
    return [
        f"{kind} {value}"
        for kind in sculptures["types"]
        if kind != sculptures["removed"]
        for value in sculptures["values"]
        if f"{kind} {value}" not in known
    ]


def menu(
    rules: GameRules[S], state: S, seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    moves = legal_moves(rules, state)
    encoded = cast(TopiaryView, rules.encode(state))  # the engine's plain JSON
    if moves and "keep" in moves[0]:
        return _walk(
            moves,
            [
                Several(
                    "keep",
                    "Which tiles do you keep? (name those the record may know)",
                    lambda m: tuple(m["keep"]),
                    group=tile_type,
                )
            ],
            picks,
        )
    if moves and "reveal" in moves[0]:
        known = {t for t in encoded["hands"][seat] if t}
        facet = Several(
            "reveal",
            "Reveal the hand: which tiles does it hold?",
            lambda m: tuple(sorted(set(m["reveal"]) - known)),
            group=tile_type,
        )
        return _walk(moves, [facet], picks)
    return _visit(rules, state, encoded, seat, moves, picks)


def _walk(moves: list[Move], facets: list, picks: Picks) -> Step:
    step = narrow(moves, facets, picks)
    return step if isinstance(step, Question) else Ready(step[0])


def _visit(
    rules: GameRules[S],
    state: S,
    encoded: TopiaryView,
    seat: int,
    moves: list[Move],
    picks: Picks,
) -> Step:
    hand = {t for t in encoded["hands"][seat] if t}
    facets = _spot_and_take(encoded)
    step = narrow(moves, facets, picks)
    if isinstance(step, Question):
        return step
    moves = step
    cell = answer(picks, "take")
    if cell == VISITOR_ONLY:
        return Ready(moves[0])
    took = answer(picks, "took")
    if encoded["tiles"][CELLS.index(cell)] is None:
        if took is None:
            return Question(
                "took",
                f"What was the tile taken from {cell}?",
                (
                    Option(NOT_SEEN, "not shown to the table", ""),
                    *(Option(t, t, tile_type(t)) for t in unseen_tiles(encoded)),
                ),
            )
        if took != NOT_SEEN:
            moves = _with_took(rules, state, moves, took)
    taken = took or encoded["tiles"][CELLS.index(cell)]

    def place_group(tile: str) -> str:
        return "from the hand" if tile in hand or tile == taken else tile_type(tile)

    place = Facet(
        "place",
        "Which tile goes face up into the gap?",
        lambda m: m.get("place"),
        group=place_group,
        sort=lambda t: (t not in hand and t != taken, t),
    )
    return _walk(moves, [place], picks)


def _spot_and_take(encoded: TopiaryView) -> list[Facet]:
    """The visit's first two questions: where the visitor stands, then which face-down tile on
    its sight line (if any) it takes."""

    def take_label(cell: str) -> str:
        if cell == VISITOR_ONLY:
            return "no tile: the visitor only"
        known = encoded["tiles"][CELLS.index(cell)]
        return f"{cell} ({known}, face down)" if known else f"{cell} (face down)"

    return [
        Facet(
            "stand",
            "Where does the visitor stand?",
            lambda m: stand_of(m["visitor"]),
            lambda stand: stand_label(list(stand)),
            lambda stand: stand_side(list(stand)),
            sort=lambda stand: stand_order(list(stand)),
        ),
        Facet(
            "visitor",
            "Which way does the visitor look?",
            lambda m: m["visitor"],
            look_label,
            sort=spot_order,
        ),
        Facet(
            "take",
            "Take a face-down tile from its sight line?",
            lambda m: m.get("take", VISITOR_ONLY),
            take_label,
            lambda cell: "" if cell == VISITOR_ONLY else "take the tile at",
        ),
    ]


def _with_took(rules: GameRules[S], state: S, moves: list[Move], took: str) -> list[Move]:
    """The spot-and-take moves with the taken tile named: each tile that may then be placed
    (those offered before and the taken one itself), as far as `apply` accepts it."""
    places = list(dict.fromkeys([m["place"] for m in moves] + [took]))
    named = [{**moves[0], "took": took, "place": tile} for tile in places]
    accepted = []
    for move in named:
        try:
            rules.apply(state, move)
        except RulesError:
            continue
        accepted.append(move)
    return accepted


def taps(state: object, question: Question, picks: Picks, seats: list[str]) -> list[Tap]:
    """Where the visitor stands (a square around the garden), then the way it looks (an arrow on
    the first tile it sees), then the face-down tile it takes (tile a1 is drawn at (0, 0), x to
    the east, y up). Every target is a tile's width from the next: two steps, where one would
    put 56 spots a finger's width apart or less."""
    if question.key == "stand":
        return [Tap(o.value, o.value[0], -o.value[1]) for o in question.options]
    if question.key == "visitor":
        found = []
        for option in question.options:
            col, row = parse_cell(option.value.split(":")[0], SIZE, SIZE)
            found.append(Tap(option.value, col, -row, ARROWS[option.value.split(":")[1]]))
        return found
    if question.key != "take":
        return []
    found = []
    for option in question.options:
        if option.value != VISITOR_ONLY:
            col, row = parse_cell(option.value, SIZE, SIZE)
            found.append(Tap(option.value, col, -row))
    return found


# ---- the Record page's setup questions: setup(players, picks) ---------------------------------


def setup(players: int, picks: Picks) -> Step:
    """The Record page's setup questions: the options, then what the table shows."""
    manifest = load_manifest("topiary")
    types, values = manifest["types"], manifest["values"]
    questions = [
        Question(
            "last_player_chooses", "Variant: the last player keeps 3 of the leftover tiles?", YES_NO
        )
    ]
    if players in (2, 3):
        questions.append(
            Question(
                "removed", "Which sculpture type was removed?", tuple(Option(t, t) for t in types)
            )
        )
    open_ = first_open(questions, picks)
    if open_:
        return open_
    removed = answer(picks, "removed")
    if answer(picks, "c3") is None:
        return Question(
            "c3",
            "Which tile was turned face up at c3?",
            tuple(Option(f"{t} {v}", f"{t} {v}", t) for t in types if t != removed for v in values),
        )
    table: PlainDict = {"garden": {"c3": answer(picks, "c3")}}
    if removed:
        table["removed"] = removed
    return Ready(
        {"options": {"last_player_chooses": answer(picks, "last_player_chooses")}, "setup": table}
    )
