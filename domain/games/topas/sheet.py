"""Topas' score sheet (RULES.md, Topas).

Bounds: a player places one card in each of seven rounds; a card scores up to four lines (the
horizontal and vertical line through each half) and no run may exceed 7 gems, so a card scores
at most 4 x 7 = 28 (sum) or 7^4 = 2401 (expert: the product), and a player at most seven times
that. Solitaire: four columns of seven cards, the final score is the lowest column, bounded the
same way. Never negative.
Categories: points by gem colour, plus `product bonus` in the expert variant (they add up to the
total); solitaire sheets list `column 1`..`column 4` instead, and the total is the lowest.
Head start (option `head_start`, a designer's variant): the first seat's total starts from it, as
the engine's does; a sheet may list it as the category `head start` (the first seat's, 0 for the
others) or leave it out, and either way the categories with the head start add up to the total;
solitaire has none.
Winner: the highest total; RULES.md names no tie-breaker, so a tie is a shared win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import Refused
from ..declaring import OptionValueError, whole_number
from ..sheeting import SheetRules, num, seat_label

COLOURS = ("red", "green", "yellow", "blue")
ROUNDS, LINES, RUN = 7, 4, 7
COLUMNS = 4
HEAD_START = "head start"


def _expert(options: Mapping[str, Any]) -> bool:
    return options.get("expert") in (True, "true", "yes", "1", 1)


def _head_start(options: Mapping[str, Any]) -> int:
    """The match's head start (0 when none, or when a record wrote something else: the
    engine refuses a head start that is not a whole number before a sheet is stored)."""
    try:
        return whole_number(options.get("head_start", 0))
    except OptionValueError:
        return 0


class TopasSheet(SheetRules):
    game = "topas"

    def categories(
        self, options: Mapping[str, Any], components: Any, players: int
    ) -> tuple[str, ...]:
        colours = _colours(components)
        if players == 1:
            return tuple(f"column {c + 1}" for c in range(COLUMNS))
        return (
            colours
            + (("product bonus",) if _expert(options) else ())
            + ((HEAD_START,) if _head_start(options) else ())
        )

    def sums_categories(self, options: Mapping[str, Any], players: int) -> bool:
        # Solitaire: the total is the lowest column. With a head start `check_seats` sums them,
        # the first seat's head start counted whether the sheet lists it or not.
        return players != 1 and not _head_start(options)

    def bounds(
        self, options: Mapping[str, Any], components: Any, players: int, won: bool
    ) -> tuple[float, float]:
        card = RUN**LINES if _expert(options) else RUN * LINES
        return 0, ROUNDS * card + (_head_start(options) if players > 1 else 0)

    def check_seats(
        self,
        sheet: dict[str, Any],
        seats: Sequence[str],
        options: Mapping[str, Any],
        components: Any,
    ) -> None:
        if len(seats) == 1 and _head_start(options):
            raise Refused(
                "a head start makes up for playing first: solitaire has nobody to make up "
                "to, so its head start is 0"
            )
        if len(seats) > 1 and _head_start(options):
            _check_head_start(sheet, seats, _head_start(options))
        if len(seats) != 1 or not sheet["scores"][0] or not sheet["scores"][0]["categories"]:
            return
        columns = sheet["scores"][0]["categories"]
        if len(columns) == COLUMNS and min(columns.values()) != sheet["scores"][0]["total"]:
            raise Refused(
                f"seat 1 ({seats[0]}): a solitaire total is the lowest column "
                f"({num(min(columns.values()))}), not {num(sheet['scores'][0]['total'])}"
            )


def _check_head_start(sheet: dict[str, Any], seats: Sequence[str], head_start: int) -> None:
    """Each seat's total starts from its head start (the first seat's; 0 for the others): a
    `head start` listed must be it, and the categories besides it, plus it, are the total."""
    for index, entry in enumerate(sheet["scores"]):
        if not entry:
            continue
        where, given = seat_label(seats, index), head_start if index == 0 else 0
        total, categories = entry["total"], entry["categories"]
        if index == 0 and total is not None and total < given:
            raise Refused(
                f"{where}: the first player begins with a head start of {given} points, "
                f"so the total is at least {given}, not {num(total)}"
            )
        if categories is None:
            continue
        listed = categories.get(HEAD_START, given)
        if listed != given:
            whose = "the first player's" if index == 0 else "only the first player has one"
            raise Refused(
                f"{where}: head start {num(listed)}, but the match's head start is "
                f"{head_start} points ({whose})"
            )
        scored = sum(v for k, v in categories.items() if k != HEAD_START)
        if scored + given != total:
            raise Refused(
                f"{where}: categories add up to {num(scored)}, with the head start "
                f"{num(scored + given)}, not the total {num(total)}"
            )


def _colours(components: Any) -> tuple[str, ...]:
    """The gem colours of the match's own deck (its manifest), else the published four."""
    try:
        return tuple(components["content"]["colours"].values())
    except (KeyError, TypeError, AttributeError):
        return COLOURS
