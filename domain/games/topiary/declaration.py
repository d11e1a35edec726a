"""Topiary declared: what the game is, its options and its moves (`declaring.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..declaring import BoardGameGeek, Flag, GameInfo, ManifestName, key
from .garden import CELLS, SIGHT_LINES

# A tile's name: its manifest's type and value (the match's manifest gives the tiles).
TILE = {"pattern": r"^.+ [0-9]+$"}
TILE_DOC = "a sculpture tile by type and value (Swan 4), the type in any case"
SPOTS = tuple(SIGHT_LINES)
SPOT_DOC = "a visitor spot: the first tile the visitor sees and the way it looks (c1:S)"


@dataclass(frozen=True)
class Options:
    last_player_chooses: Flag = field(
        default=Flag(False),
        metadata=key(
            doc="the seed's variant: the last player is dealt the tiles left and keeps 3",
            label="last player chooses",
        ),
    )
    manifest: ManifestName = field(
        default=ManifestName("topiary"),
        metadata=key(doc="the tiles (a manifest name)", label="tiles"),
    )


@dataclass(frozen=True)
class Keep:
    """When the last player chooses (the seed's variant), the last seat's first move: the 3 tiles
    it keeps."""

    keep: list[str] = field(metadata=key(doc=TILE_DOC, schema=TILE, words="tile"))


@dataclass(frozen=True)
class Visit:
    """Place a visitor on a free spot, nothing else."""

    visitor: str = field(metadata=key(doc=SPOT_DOC, names=SPOTS))


@dataclass(frozen=True)
class VisitAndTake:
    """Place a visitor, take the face-down tile at `take` on its sight line into hand and place
    `place` from the hand face up into the gap."""

    visitor: str = field(metadata=key(doc=SPOT_DOC, names=SPOTS))
    take: str = field(metadata=key(doc="the garden cell taken from", names=CELLS))
    place: str = field(metadata=key(doc=TILE_DOC, schema=TILE, words="tile"))
    took: str | None = field(
        default=None,
        metadata=key(doc="the taken tile, when the table saw it", schema=TILE, words="tile"),
    )


@dataclass(frozen=True)
class Reveal:
    """After the last visitor: the whole hand of the seat awaited."""

    reveal: list[str] = field(metadata=key(doc=TILE_DOC, schema=TILE, words="tile"))


GAME_INFO = GameInfo(
    id="topiary",
    name="Topiary",
    min_players=2,
    max_players=4,
    simultaneous=False,
    hidden_information=True,  # face-down tiles and hands, until revealed
    scoring=("visitors", "type bonus", "hand"),
    options=Options,
    moves=(Keep, Visit, VisitAndTake, Reveal),
    bgg=BoardGameGeek(210900, "Topiary", 2017),  # BGG's ranked list (docs/interop.md)
)
