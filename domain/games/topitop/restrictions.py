"""Topitop's restriction: a player who never places a sand pile (only its own buckets), leaving
the building of castles to the opponent."""

from __future__ import annotations

from ..restricting import never

RESTRICTIONS = [
    never(
        "never-place-sand",
        "never places a sand pile: only its own buckets",
        lambda move: move.get("place") in ("small", "large"),
    ),
]
