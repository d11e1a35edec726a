"""Topas declared: what the game is, its options and its moves (`declaring.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..declaring import BoardGameGeek, Flag, GameInfo, ManifestName, WholeNumber, key

# A card's name: its halves (the match's manifest gives the deck).
CARD = {"pattern": "^[A-Za-z][1-9]-[A-Za-z][1-9]$"}
CARD_DOC = "a card named by its halves, colour letter and gems (R2-B1), in any case"
HEAD_START_MOST = 10  # a head start's points: a compensation, never a second game's worth
# Who begins with which head start (a designer's variant): the option naming it, seat by seat
# from the first; the later seats begin with none, and solitaire, with nobody to make up to, none.
HEAD_STARTS = ("head_start", "second_head_start")
HEAD_START_SEATS = ("first", "second")  # the seats of HEAD_STARTS, in words


def begins_with(seat: int, players: int, head_starts: Sequence[int]) -> int:
    """The points `seat` begins with, given the match's head starts in the order of HEAD_STARTS:
    the one rule both the engine (rules.py) and a paper score sheet (sheet.py) count by."""
    return head_starts[seat] if players > 1 and seat < len(head_starts) else 0


def points_words(points: int) -> str:
    """A head start's points in words ("1 point", "2 points")."""
    return f"{points} point" if points == 1 else f"{points} points"


def solitaire_refusal(name: str) -> str:
    """Why solitaire refuses the head start option `name` (one of HEAD_STARTS) not 0."""
    if name == HEAD_STARTS[0]:
        return (
            "a head start makes up for playing first: solitaire has nobody to make up "
            "to, so its head start is 0"
        )
    return (
        "a second player's head start makes up for playing before the later seats: solitaire "
        "has no second player, so its second player's head start is 0"
    )


@dataclass(frozen=True)
class Options:
    expert: Flag = field(
        default=Flag(False),
        metadata=key(
            doc="the expert variant: a line scores the product of its gems", label="expert"
        ),
    )
    manifest: ManifestName = field(
        default=ManifestName("topas"), metadata=key(doc="the deck (a manifest name)", label="deck")
    )
    head_start: WholeNumber = field(
        default=WholeNumber(0),
        metadata=key(
            doc=(
                "points the first player begins with (a designer's variant, not in the "
                "rulebook: a compensation for playing first; 0-10)"
            ),
            schema={"minimum": 0, "maximum": HEAD_START_MOST},
            label="head start",
            unit="points",
            later=True,
        ),
    )
    second_head_start: WholeNumber = field(
        default=WholeNumber(0),
        metadata=key(
            doc=(
                "points the second player begins with (a designer's variant, not in the "
                "rulebook: a compensation for playing before the later seats; 0-10)"
            ),
            schema={"minimum": 0, "maximum": HEAD_START_MOST},
            label="second player's head start",
            unit="points",
            later=True,
        ),
    )


@dataclass(frozen=True)
class Place:
    """Place a card: its first named half on `at`, its second one step in `dir`."""

    card: str = field(metadata=key(doc=CARD_DOC, schema=CARD, words="card"))
    at: tuple[int, int] = field(metadata=key(doc="the cell [x, y] of the first named half"))
    dir: str = field(
        metadata=key(
            doc="where the second half lies: N, E, S or W", schema={"pattern": "^[NESWnesw]$"}
        )
    )


@dataclass(frozen=True)
class StartColumn:
    """In a logged solitaire game: turn up the next column's start card."""

    start: str = field(metadata=key(doc=CARD_DOC, schema=CARD, words="card"))


GAME_INFO = GameInfo(
    id="topas",
    name="Topas",
    min_players=1,
    max_players=4,
    simultaneous=False,
    hidden_information=True,  # hands and the pile order, unless the whole deal is recorded
    scoring=("red", "green", "yellow", "blue", "column 1", "column 2", "column 3", "column 4"),
    options=Options,
    moves=(Place, StartColumn),
    bgg=BoardGameGeek(40961, "Topas", 2009),  # BGG's ranked list (docs/interop.md)
)
