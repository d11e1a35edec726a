"""Total Landscaping's score sheet (RULES.md, Total Landscaping).

The total is bouts won; a match is won by the first to two bouts, so the winner has exactly 2,
the other 0 or 1, and there is always exactly one winner. The categories are the bouts won by
each condition (the engine's `score()` names), counting bouts: they add up to the total.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import Refused
from ...plain import PlainMapping
from ..sheeting import Sheet, SheetRules

CONDITIONS = ("six colours connected", "biggest patch", "most flowers", "most Blue")
BOUTS_TO_WIN = 2


class TotalLandscapingSheet(SheetRules):
    game = "total-landscaping"
    tie_rule = "first to two bouts"

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        return CONDITIONS

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        return (BOUTS_TO_WIN, BOUTS_TO_WIN) if won else (0, BOUTS_TO_WIN - 1)

    def check_winners(self, sheet: Sheet, seats: Sequence[str]) -> None:
        if len(sheet["winners"]) != 1:
            raise Refused(
                "winners: Total Landscaping has exactly one winner, the first to two "
                f"bouts; the sheet names {len(sheet['winners'])}"
            )
