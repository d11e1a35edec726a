"""Total Landscaping's restrictions: a gardener who never plays one card colour (the issue's
"never plays Red"), and one who never hoes."""

from __future__ import annotations

from . import never

COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "White")

RESTRICTIONS = [
    *(never(f"never-play-{colour.lower()}", f"never plays a {colour} card",
            lambda move, colour=colour: move.get("card") == colour) for colour in COLOURS),
    never("never-hoe", "never hoes", lambda move: "hoe" in move),
]
