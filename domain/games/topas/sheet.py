"""Topas' score sheet (RULES.md, Topas).

Bounds: a player places one card in each of seven rounds; a card scores up to four lines (the
horizontal and vertical line through each half) and no run may exceed 7 gems, so a card scores
at most 4 x 7 = 28 (sum) or 7^4 = 2401 (expert: the product), and a player at most seven times
that. Solitaire: four columns of seven cards, the final score is the lowest column, bounded the
same way. Never negative.
Categories: points by gem colour, plus `product bonus` in the expert variant (they add up to the
total); solitaire sheets list `column 1`..`column 4` instead, and the total is the lowest.
Head start (options `head_start` and `second_head_start`, a designer's variant): the first and
the second seat's totals start from theirs, as the engine's do (`begins_with`); a sheet may list
it as the category `head start` (the seat's own, 0 for the later seats) or leave it out, and
either way the categories with the head start add up to the total; solitaire has none.
Winner: the highest total; RULES.md names no tie-breaker, so a tie is a shared win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import Refused
from ...plain import PlainMapping
from ..declaring import OptionValueError, whole_number
from ..sheeting import Sheet, SheetRules, num, seat_label
from .declaration import (
    HEAD_START_SEATS,
    HEAD_STARTS,
    begins_with,
    points_words,
    solitaire_refusal,
)

COLOURS = ("red", "green", "yellow", "blue")
ROUNDS, LINES, RUN = 7, 4, 7
COLUMNS = 4
HEAD_START = "head start"


def _expert(options: PlainMapping) -> bool:
    return options.get("expert") in (True, "true", "yes", "1", 1)


def _head_starts(options: PlainMapping) -> tuple[int, ...]:
    """The match's head starts, in the order of HEAD_STARTS (0 when none, or when a record
    wrote something else: the engine refuses a head start that is not a whole number before a
    sheet is stored)."""
    return tuple(_whole(options.get(name, 0)) for name in HEAD_STARTS)


def _whole(value: object) -> int:
    try:
        return whole_number(value)
    except OptionValueError:
        return 0


class TopasSheet(SheetRules):
    game = "topas"

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        colours = _colours(components)
        if players == 1:
            return tuple(f"column {c + 1}" for c in range(COLUMNS))
        return (
            colours
            + (("product bonus",) if _expert(options) else ())
            + ((HEAD_START,) if any(_head_starts(options)) else ())
        )

    def sums_categories(self, options: PlainMapping, players: int) -> bool:
        # Solitaire: the total is the lowest column. With a head start `check_seats` sums them,
        # a seat's head start counted whether the sheet lists it or not.
        return players != 1 and not any(_head_starts(options))

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        card = RUN**LINES if _expert(options) else RUN * LINES
        most = max(begins_with(s, players, _head_starts(options)) for s in range(players))
        return 0, ROUNDS * card + most

    def check_seats(
        self,
        sheet: Sheet,
        seats: Sequence[str],
        options: PlainMapping,
        components: object,
    ) -> None:
        head_starts = _head_starts(options)
        for name, given in zip(HEAD_STARTS, head_starts, strict=True):
            if len(seats) == 1 and given:
                raise Refused(solitaire_refusal(name))
        if len(seats) > 1 and any(head_starts):
            _check_head_starts(sheet, seats, head_starts)
        if len(seats) != 1 or not sheet["scores"][0] or not sheet["scores"][0]["categories"]:
            return
        columns = sheet["scores"][0]["categories"]
        if len(columns) == COLUMNS and min(columns.values()) != sheet["scores"][0]["total"]:
            raise Refused(
                f"seat 1 ({seats[0]}): a solitaire total is the lowest column "
                f"({num(min(columns.values()))}), not {num(sheet['scores'][0]['total'])}"
            )


def _check_head_starts(sheet: Sheet, seats: Sequence[str], head_starts: Sequence[int]) -> None:
    """Each seat's total starts from its own head start (`begins_with`: the first and second
    seats', 0 for the later ones): a `head start` listed must be it, and the categories besides
    it, plus it, are the total."""
    for index, entry in enumerate(sheet["scores"]):
        if not entry:
            continue
        where, given = seat_label(seats, index), begins_with(index, len(seats), head_starts)
        total, categories = entry["total"], entry["categories"]
        if given and total is not None and total < given:
            raise Refused(
                f"{where}: the {HEAD_START_SEATS[index]} player begins with a head start of "
                f"{points_words(given)}, so the total is at least {given}, not {num(total)}"
            )
        if categories is None:
            continue
        listed = categories.get(HEAD_START, given)
        if listed != given:
            raise Refused(f"{where}: head start {num(listed)}, but {_whose(index, head_starts)}")
        scored = sum(v for k, v in categories.items() if k != HEAD_START)
        if scored + given != total:
            raise Refused(
                f"{where}: categories add up to {num(scored)}, with the head start "
                f"{num(scored + given)}, not the total {num(total)}"
            )


def _whose(seat: int, head_starts: Sequence[int]) -> str:
    """What the match gives `seat` as its head start, in words (a sheet listed another)."""
    if seat < len(head_starts) and head_starts[seat]:
        given = points_words(head_starts[seat])
        return f"the {HEAD_START_SEATS[seat]} player's head start is {given}"
    holders = [HEAD_START_SEATS[s] for s, given in enumerate(head_starts) if given]
    if len(holders) > 1:
        return f"only the {' and the '.join(holders)} players begin with one"
    return f"only the {holders[0]} player begins with one"


def _colours(components: Any) -> tuple[str, ...]:
    """The gem colours of the match's own deck (its manifest), else the published four."""
    try:
        return tuple(components["content"]["colours"].values())
    except (KeyError, TypeError, AttributeError):
        return COLOURS
