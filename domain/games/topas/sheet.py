"""Topas' score sheet (RULES.md, Topas).

Bounds: a player places one card in each of seven rounds; a card scores up to four lines (the
horizontal and vertical line through each half) and no run may exceed 7 gems, so a card scores
at most 4 x 7 = 28 (sum) or 7^4 = 2401 (expert: the product), and a player at most seven times
that. Solitaire: four columns of seven cards, the final score is the lowest column, bounded the
same way. Never negative.
Categories: points by gem colour, plus `product bonus` in the expert variant (they add up to the
total); solitaire sheets list `column 1`..`column 4` instead, and the total is the lowest.
Winner: the highest total; RULES.md names no tie-breaker, so a tie is a shared win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import Refused
from ..sheeting import SheetRules, num

COLOURS = ("red", "green", "yellow", "blue")
ROUNDS, LINES, RUN = 7, 4, 7
COLUMNS = 4


def _expert(options: Mapping[str, Any]) -> bool:
    return options.get("expert") in (True, "true", "yes", "1", 1)


class TopasSheet(SheetRules):
    game = "topas"

    def categories(
        self, options: Mapping[str, Any], components: Any, players: int
    ) -> tuple[str, ...]:
        colours = _colours(components)
        if players == 1:
            return tuple(f"column {c + 1}" for c in range(COLUMNS))
        return colours + (("product bonus",) if _expert(options) else ())

    def sums_categories(self, options: Mapping[str, Any], players: int) -> bool:
        return players != 1  # solitaire: the total is the lowest column

    def bounds(
        self, options: Mapping[str, Any], components: Any, players: int, won: bool
    ) -> tuple[float, float]:
        card = RUN**LINES if _expert(options) else RUN * LINES
        return 0, ROUNDS * card

    def check_seats(
        self,
        sheet: dict[str, Any],
        seats: Sequence[str],
        options: Mapping[str, Any],
        components: Any,
    ) -> None:
        if len(seats) != 1 or not sheet["scores"][0] or not sheet["scores"][0]["categories"]:
            return
        columns = sheet["scores"][0]["categories"]
        if len(columns) == COLUMNS and min(columns.values()) != sheet["scores"][0]["total"]:
            raise Refused(
                f"seat 1 ({seats[0]}): a solitaire total is the lowest column "
                f"({num(min(columns.values()))}), not {num(sheet['scores'][0]['total'])}"
            )


def _colours(components: Any) -> tuple[str, ...]:
    """The gem colours of the match's own deck (its manifest), else the published four."""
    try:
        return tuple(components["content"]["colours"].values())
    except (KeyError, TypeError, AttributeError):
        return COLOURS
