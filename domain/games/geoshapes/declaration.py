"""GeoShapes declared: what the game is, its options and its moves (`declaring.py`). The typed
actions the engine plays (`moves.py`) are read from these shapes, with the board's names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..declaring import Flag, GameInfo, ManifestName, key

# The board a new match plays on unless it names another (the engine's default_manifest).
DEFAULT_MANIFEST = "geoshapes-v2"
SHAPE = "a shape of the board (Square, Wild...)"
SEAT = {"minimum": 0, "maximum": 3}


@dataclass(frozen=True)
class Options:
    manifest: ManifestName = field(
        default=ManifestName(DEFAULT_MANIFEST),
        metadata=key(doc="the board (a manifest name)", label="board"),
    )
    half_board: Flag = field(
        default=Flag(False),
        metadata=key(doc="two players, two adjoining quadrants each", label="half board"),
    )
    placing_optional: Flag = field(
        default=Flag(False),
        metadata=key(
            doc="no shape need be placed (the seed's challenging option)", label="placing optional"
        ),
    )
    empty_deck: Literal["reshuffle", "end"] = field(
        default="reshuffle",
        metadata=key(
            doc="when the deck runs out: the discards become a new deck, or the round ends",
            label="when the deck runs out",
        ),
    )


@dataclass(frozen=True)
class Draw:
    """Draw a card and take the shape it shows."""

    draw: str = field(metadata=key(doc=SHAPE))


@dataclass(frozen=True)
class PickUp:
    """Pick up a seat's SHAPE DISCARDS stack."""

    pick_up: int = field(metadata=key(doc="the seat (0 = first in turn order)", schema=SEAT))


@dataclass(frozen=True)
class BoardShape:
    """A traded shape taken off the trader's own figure or circle."""

    shape: str = field(metadata=key(doc=SHAPE))
    from_: str = field(metadata=key("from", doc="the place it comes off"))


@dataclass(frozen=True)
class Offer:
    """1 to 3 shapes for 1 to 3 shapes; a plain name is a shape in hand."""

    with_: int = field(metadata=key("with", doc="the seat traded with", schema=SEAT))
    give: list[str | BoardShape] = field(metadata=key(doc="the shapes given"))
    get: list[str | BoardShape] = field(metadata=key(doc="the shapes received"))
    accepted: bool = field(metadata=key(doc="the other player's answer"))


@dataclass(frozen=True)
class Trade:
    """Offer a trade (one offer per turn), with its answer."""

    trade: Offer = field(metadata=key())


@dataclass(frozen=True)
class Place:
    """Place a shape from the hand on a figure or the circle."""

    place: str = field(metadata=key(doc=SHAPE))
    on: str = field(metadata=key(doc="a figure or a circle (North-West circle)"))


@dataclass(frozen=True)
class Switch:
    """Switch figures: the quadrant's other figure's shapes return to the hand."""

    switch: str = field(metadata=key(doc="the figure switched to"))


@dataclass(frozen=True)
class Discard:
    """End a play after a draw or pick-up by discarding a shape."""

    discard: str = field(metadata=key(doc=SHAPE))
    from_: str | None = field(
        default=None, metadata=key("from", doc="the place it comes off, when the hand is empty")
    )
    to: str | None = field(
        default=None, metadata=key(doc="the quadrant whose discards receive it (half board)")
    )


@dataclass(frozen=True)
class EndPlay:
    """End a play after an accepted trade."""

    end_play: Literal[True] = field(metadata=key())


GAME_INFO = GameInfo(
    id="geoshapes",
    name="GeoShapes",
    min_players=2,
    max_players=4,
    simultaneous=False,
    hidden_information=False,  # hands are dealt face up and every gain is seen
    scoring=("win", "hand"),
    options=Options,
    moves=(Draw, PickUp, Trade, Place, Switch, Discard, EndPlay),
    parts=(Offer, BoardShape),
)
