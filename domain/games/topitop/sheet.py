"""Topitop's score sheet (RULES.md, Topitop).

Topitop has no points: the first player with both buckets on sand castles wins, so a sheet is
usually a winner and no score. Where a total is given it is the engine's: buckets crowning a
castle, 2 for the winner, 0 or 1 for the other. A looping game may end as a draw by agreement:
no winner.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import Refused
from ...plain import PlainMapping
from ..sheeting import Sheet, SheetRules

BUCKETS = 2


class TopitopSheet(SheetRules):
    game = "topitop"
    tie_rule = "the first with both buckets on castles wins"

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        return ("buckets on castles",)

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        return (BUCKETS, BUCKETS) if won else (0, BUCKETS - 1)

    def check_winners(self, sheet: Sheet, seats: Sequence[str]) -> None:
        if len(sheet["winners"]) > 1:
            raise Refused(
                "winners: Topitop has one winner (or none, a draw by agreement), the "
                f"sheet names {', '.join(sheet['winners'])}"
            )

    def outcome_reason(self, sheet: Sheet) -> str:
        if not sheet["winners"]:
            return "score sheet: draw by agreement"
        return super().outcome_reason(sheet)
