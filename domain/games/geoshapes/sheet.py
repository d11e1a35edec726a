"""GeoShapes' score sheet (RULES.md, GeoShapes).

The winner scores 25 plus the value of the shapes in hand; everyone else loses the value of
theirs. So the winner's total is 25 to 25 + H and everyone else's -H to 0, where H is the value
of every shape in the match's deck (its manifest: no hand can hold more). Categories are the
engine's: `win` (25 for the winner, 0 otherwise) and `hand`. At most one winner; with no winner
(the deck ran out) nobody has the 25.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import Refused
from ...plain import PlainMapping
from ..sheeting import Sheet, SheetRules
from .scoring import WIN_BONUS  # the engine's, said once

DEFAULT_DECK_VALUE = 400  # when the match carries no manifest: above the default deck's 211


def deck_value(components: Any) -> int:
    try:
        content = components["content"]
        return sum(count * content["shapes"][shape] for shape, count in content["deck"].items())
    except (KeyError, TypeError, AttributeError):
        return DEFAULT_DECK_VALUE


class GeoShapesSheet(SheetRules):
    game = "geoshapes"
    tie_rule = "the one who completes a figure and the circle wins"

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        return ("win", "hand")

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        value = deck_value(components)
        return (WIN_BONUS, WIN_BONUS + value) if won else (-value, 0)

    def check_seats(
        self,
        sheet: Sheet,
        seats: Sequence[str],
        options: PlainMapping,
        components: object,
    ) -> None:
        for index, entry in enumerate(sheet["scores"]):
            won = seats[index] in sheet["winners"]
            bonus = ((entry["categories"] if entry else None) or {}).get("win")
            if bonus is not None and bonus != (WIN_BONUS if won else 0):
                raise Refused(
                    f"seat {index + 1} ({seats[index]}): win is {WIN_BONUS} for the "
                    f"winner and 0 for everyone else, not {bonus}"
                )

    def check_winners(self, sheet: Sheet, seats: Sequence[str]) -> None:
        if len(sheet["winners"]) > 1:
            raise Refused(
                "winners: GeoShapes has one winner (or none when the deck ran out), "
                f"the sheet names {', '.join(sheet['winners'])}"
            )
