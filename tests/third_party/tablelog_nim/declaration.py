"""Nim declared: what the game is, its options and its one move."""

from __future__ import annotations

from dataclasses import dataclass, field

from tablelog.domain.games.declaring import Flag, GameInfo, WholeNumber, key


@dataclass(frozen=True)
class Options:
    stones: WholeNumber = field(
        default=WholeNumber(0),
        metadata=key(
            doc="stones added to each of the four heaps of 1, 3, 5 and 7 (0-9)",
            schema={"minimum": 0, "maximum": 9},
            label="stones added to each heap",
        ),
    )
    misere: Flag = field(
        default=Flag(False),
        metadata=key(doc="the player who takes the last stone loses", label="misère"),
    )


@dataclass(frozen=True)
class Take:
    """Take one or more stones from one heap."""

    take: int = field(metadata=key(doc="how many stones", schema={"minimum": 1}))
    from_: int = field(metadata=key("from", doc="the heap, from 1", schema={"minimum": 1}))


GAME_INFO = GameInfo(
    id="nim",
    name="Nim",
    min_players=2,
    max_players=2,
    simultaneous=False,
    hidden_information=False,
    scoring=("stones taken",),
    options=Options,
    moves=(Take,),
)
