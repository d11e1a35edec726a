"""Topitop declared: what the game is, its options and its moves (`declaring.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..declaring import GameInfo, WholeNumber, key

CELL = {"pattern": "^[A-Ca-c]0*[1-3]$"}
CELL_DOC = "a cell, a1 (top left) to c3"


@dataclass(frozen=True)
class Options:
    small: WholeNumber = field(
        default=WholeNumber(4),
        metadata=key(
            doc="small sand piles in the game (0-9)",
            schema={"minimum": 0, "maximum": 9},
            label="small sand piles",
        ),
    )
    large: WholeNumber = field(
        default=WholeNumber(4),
        metadata=key(
            doc="large sand piles in the game (0-9)",
            schema={"minimum": 0, "maximum": 9},
            label="large sand piles",
        ),
    )


@dataclass(frozen=True)
class Place:
    """Place an own bucket or a sand pile from the supply on an empty cell."""

    place: Literal["bucket", "small", "large"] = field(metadata=key(doc="the piece placed"))
    to: str = field(metadata=key(doc=CELL_DOC, schema=CELL))


@dataclass(frozen=True)
class Slide:
    """Slide a piece or stack one step in any of the 8 directions."""

    from_: str = field(metadata=key("from", doc=CELL_DOC, schema=CELL))
    to: str = field(metadata=key(doc=CELL_DOC, schema=CELL))


@dataclass(frozen=True)
class Pass:
    """Pass: only when no other move is legal."""

    pass_: Literal[True] = field(metadata=key("pass"))


GAME_INFO = GameInfo(
    id="topitop",
    name="Topitop",
    min_players=2,
    max_players=2,
    simultaneous=False,
    hidden_information=False,
    scoring=("buckets on castles",),
    options=Options,
    moves=(Place, Slide, Pass),
    bgg=None,  # no BoardGameGeek id could be established (docs/interop.md)
)
