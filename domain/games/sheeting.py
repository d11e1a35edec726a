"""What every game's score sheet is checked for (`SheetRules`); a game's `sheet.py` adds its own
rules, and a game without one gets `DeclaredSheet`, read off its declaration.

A sheet arrives as plain JSON (the CLI, the API, the Record page and the BG Stats / BGG
importers all build the same shape):

    {"scores": [{"total": 43, "categories": {"visitors": 40, "type bonus": 0, "hand": 3}},
                {"total": 38}, ...],          # one entry per seat, in turn order (or null)
     "winners": ["Ann"], "first": "Ann",      # names of seats of the match
     "duration_min": 40, "location": "Club", "board": null, "source": null}

`normalise` returns the same shape with every key present (None where unknown), so a stored
sheet fed back through it (an exported record imported again) comes out identical and its event
hashes the same. Refusals name the seat and the field; nothing is stored before they are raised.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, TypedDict

from ..errors import Refused
from ..matches.values import MAX_INT, stored_text
from ..plain import PlainMapping
from ..quoting import quoted

KEYS = ("scores", "winners", "first", "duration_min", "location", "board", "source")
SEAT_KEYS = ("total", "categories", "team", "role", "colour", "new")
TEXT_LIMIT = 200


class SheetSeat(TypedDict):
    """One seat's entry of a normalised sheet (`SEAT_KEYS`, every one present)."""

    total: float | None
    categories: dict[str, float] | None  # every category listed has its points
    team: str | None
    role: str | None
    colour: str | None
    new: bool | None


class Sheet(TypedDict):
    """A sheet as `normalise` returns it (`KEYS`, every one present)."""

    scores: list[SheetSeat | None]  # one per seat, in turn order
    winners: list[str]  # seat names, in turn order
    first: str | None
    duration_min: float | None
    location: str | None
    board: str | None
    source: dict[str, str | None] | None


class SheetRules:
    """One game's sheet rules. Subclasses set `game`, `categories` and override `bounds`,
    `check_seats` and `check_winners` where the game lets more be checked."""

    game: str
    tie_rule: ClassVar[str] = "a tie is a shared win"

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        """The scoring categories a sheet of this game may list (the engine's `score()` names)."""
        raise NotImplementedError

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        """The lowest and highest total a seat can reach (reasoned in each game's module)."""
        raise NotImplementedError

    def sums_categories(self, options: PlainMapping, players: int) -> bool:
        """Whether a seat's categories add up to its total (Topas solitaire: they do not)."""
        return True

    def check_seats(
        self,
        sheet: Sheet,
        seats: Sequence[str],
        options: PlainMapping,
        components: object,
    ) -> None:
        """Checks of one game that need the whole sheet (per-category bounds, sums)."""

    def check_winners(self, sheet: Sheet, seats: Sequence[str]) -> None:
        """Default (RULES.md): the highest total wins, a tie is a shared win. Checked only
        where every seat has a total."""
        totals = [
            entry["total"] for entry in sheet["scores"] if entry and entry["total"] is not None
        ]
        if len(totals) < len(sheet["scores"]):
            return
        best = max(totals)
        expected = [name for name, t in zip(seats, totals) if t == best]
        if sorted(sheet["winners"]) != sorted(expected):
            named = ", ".join(sheet["winners"]) or "nobody"
            raise Refused(
                f"winners: the sheet names {named}, but the "
                f"highest total ({num(best)}) is {', '.join(expected)}'s "
                f"({self.tie_rule})"
            )

    def outcome_reason(self, sheet: Sheet) -> str:
        names = sheet["winners"]
        if not names:
            return "score sheet: nobody won"
        verb = "wins" if len(names) == 1 else "share the win"
        return f"score sheet: {' and '.join(names)} {verb}"


class DeclaredSheet(SheetRules):
    """A game's sheet as its declaration gives it, for a game that says nothing more: the
    declared scoring categories, any total, and the highest total wins (a tie is shared)."""

    def __init__(self, game: str, scoring: Sequence[str]) -> None:
        self.game, self._categories = game, tuple(scoring)

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        return self._categories

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        return (-MAX_INT, MAX_INT)


def num(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def seat_label(seats: Sequence[str], index: int) -> str:
    return f"seat {index + 1} ({seats[index]})"


def number(value: object, where: str) -> float | int | None:
    """A score as the sheet gives it: a finite number or null (text is the importers' job)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise Refused(f"{where} must be a number or null, got {quoted(value)}")
    if abs(value) > MAX_INT:
        raise Refused(f"{where}: {value:g} is beyond what a score can be")
    return int(value) if float(value).is_integer() else float(value)


def text(value: object, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > TEXT_LIMIT:
        raise Refused(f"{where} must be text of up to {TEXT_LIMIT} characters")
    return stored_text(value.strip(), where) or None  # no lone surrogate, no NUL


def name_of(value: object, seats: Sequence[str], where: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(seats):
        return seats[value]
    if isinstance(value, str) and value.strip() in seats:
        return value.strip()
    raise Refused(
        f"{where}: {quoted(value)} is not a seat of this match (seats: {', '.join(seats)})"
    )
