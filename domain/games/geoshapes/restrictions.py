"""GeoShapes' restrictions: a player who never offers a trade, and one who never picks up a
shape-discard stack (draws only)."""

from __future__ import annotations

from ..restricting import never

RESTRICTIONS = [
    never("never-trade", "never offers a trade", lambda move: "trade" in move),
    never("never-pick-up", "never picks up a discard stack", lambda move: "pick_up" in move),
]
