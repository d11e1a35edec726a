"""Total Landscaping's restrictions: a gardener who never plays one card colour (the issue's
"never plays Red"), and one who never hoes."""

from __future__ import annotations

from collections.abc import Callable

from ..base import Move
from ..restricting import never

COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "White")


def _plays(colour: str) -> Callable[[Move], bool]:
    return lambda move: move.get("card") == colour


RESTRICTIONS = [
    *(
        never(f"never-play-{colour.lower()}", f"never plays a {colour} card", _plays(colour))
        for colour in COLOURS
    ),
    never("never-hoe", "never hoes", lambda move: "hoe" in move),
]
