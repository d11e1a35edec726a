"""Total Landscaping declared: what the game is, its options and its moves (`declaring.py`).
One recorded move is a round: both seats' choices, each a `Play` or a `Hoe`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..declaring import GameInfo, key
from .hexgarden import TILES
from .state import CARDS, SEATS

CARD_DOC = "a colour: Red, Orange, Yellow, Green, Blue, Purple or White (any case)"
TILE_DOC = "a tile of the garden (A, B1...)"


@dataclass(frozen=True)
class Options:
    hoeing: Literal["stops-effects", "after-effects"] = field(
        default="stops-effects",
        metadata=key(
            doc="stops-effects: a card whose effect involves a hoed tile does not trigger it; "
            "after-effects: every effect triggers, the hoe only clears (version 1)",
            label="hoeing",
        ),
    )


@dataclass(frozen=True)
class Play:
    """Plant a card on a tile of either garden, with the card's parameters."""

    card: str = field(metadata=key(doc=CARD_DOC, names=CARDS))
    garden: str = field(metadata=key(doc="east or west (any case)", names=SEATS))
    tile: str = field(metadata=key(doc=TILE_DOC, names=TILES))
    remove: list[str] | None = field(
        default=None, metadata=key(doc="Red: the cards of the hand it removes", names=CARDS)
    )
    spread: str | None = field(
        default=None,
        metadata=key(doc="Yellow: the adjacent empty tile it spreads to", names=TILES),
    )
    recolour: str | None = field(
        default=None,
        metadata=key(doc="Purple: the adjacent flower it turns purple", names=TILES),
    )


@dataclass(frozen=True)
class Hoe:
    """Hoe two adjacent planted tiles of one's own garden."""

    hoe: tuple[str, str] = field(metadata=key(doc="the two tiles", names=TILES))


@dataclass(frozen=True)
class Round:
    """One round: both players' choices, chosen at once."""

    east: Play | Hoe = field(metadata=key(doc="the Elimination Candidate's choice"))
    west: Play | Hoe = field(metadata=key(doc="the Death Match Opponent's choice"))


GAME_INFO = GameInfo(
    id="total-landscaping",
    name="Total Landscaping",
    min_players=2,
    max_players=2,
    simultaneous=True,
    hidden_information=False,  # cards are played face up; only a round's choices are secret
    scoring=("six colours connected", "biggest patch", "most flowers", "most Blue"),
    options=Options,
    moves=(Round,),
    parts=(Play, Hoe),
    bgg=None,  # a game of a TV show, not on BoardGameGeek's lists (docs/interop.md)
)
