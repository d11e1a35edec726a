"""GeoShapes declared: what the game is, its options and its moves (`declaring.py`). The typed
actions the engine plays (`moves.py`) are read from these shapes, with the board's names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..declaring import Flag, GameInfo, ManifestName, key

# The board a new match plays on unless it names another (the engine's default_manifest).
DEFAULT_MANIFEST = "geoshapes-v3"
SHAPE = "a shape of the board (Square, Wild...)"
# A player, as the API and the command line take it: the name or the seat's number from 1.
# It is stored (and offered by legal_moves) as the seat's index from 0 (moves.from_table).
SEAT_DOC = "the player: the player's name, or the seat's number from 1 (stored from 0)"


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

    draw: str = field(metadata=key(doc=SHAPE, words="shape"))


@dataclass(frozen=True)
class PickUp:
    """Pick up a player's SHAPE DISCARDS stack."""

    pick_up: int | str = field(metadata=key(doc=SEAT_DOC, player=True))


@dataclass(frozen=True)
class BoardShape:
    """A traded shape taken off the trader's own figure or circle."""

    shape: str = field(metadata=key(doc=SHAPE, words="shape"))
    from_: str = field(metadata=key("from", doc="the place it comes off", words="place"))


@dataclass(frozen=True)
class Offer:
    """1 to 3 shapes for 1 to 3 shapes; a plain name is a shape in hand."""

    with_: int | str = field(metadata=key("with", doc=SEAT_DOC, player=True))
    give: list[str | BoardShape] = field(metadata=key(doc="the shapes given", words="shape"))
    get: list[str | BoardShape] = field(metadata=key(doc="the shapes received", words="shape"))
    accepted: bool = field(metadata=key(doc="the other player's answer"))


@dataclass(frozen=True)
class Trade:
    """Offer a trade (one offer per turn), with its answer."""

    trade: Offer = field(metadata=key())


@dataclass(frozen=True)
class Place:
    """Place a shape from the hand on a figure or the circle."""

    place: str = field(metadata=key(doc=SHAPE, words="shape"))
    on: str = field(metadata=key(doc="a figure or a circle (North-West circle)", words="place"))


@dataclass(frozen=True)
class Switch:
    """Switch figures: the quadrant's other figure's shapes return to the hand."""

    switch: str = field(metadata=key(doc="the figure switched to", words="figure"))


@dataclass(frozen=True)
class Discard:
    """End a play after a draw or pick-up by discarding a shape."""

    discard: str = field(metadata=key(doc=SHAPE, words="shape"))
    from_: str | None = field(
        default=None,
        metadata=key("from", doc="the place it comes off, when the hand is empty", words="place"),
    )
    to: str | None = field(
        default=None,
        metadata=key(doc="the quadrant whose discards receive it (half board)", words="quadrant"),
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
    bgg=None,  # no BoardGameGeek id could be established (docs/interop.md)
)
