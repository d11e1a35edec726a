"""Score-sheet matches: the sheet rules of each game (its plugin's), and `check_sheet`, which
normalises a sheet and checks it before anything is stored.

The engines (domain/games) stay untouched: a sheet has no moves, so what can be checked is
what the game's scoring and winning rules say about final scores (see each module).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from ..errors import Refused
from ..games import PLUGINS
from ..games.base import Outcome
from ..games.sheeting import (
    KEYS,
    SEAT_KEYS,
    Sheet,
    SheetRules,
    SheetSeat,
    name_of,
    number,
    seat_label,
    text,
)
from ..plain import PlainDict, PlainMapping
from ..quoting import quoted

# game id -> its sheet rules (each game's plugin carries them: `domain/games/<game>/sheet.py`,
# or the declaration's categories)
SHEETS: dict[str, SheetRules] = {game: plugin.sheet for game, plugin in PLUGINS.items()}

__all__ = ["SHEETS", "check_sheet", "normalise", "outcome_of"]


def sheet_rules(game: str) -> SheetRules:
    try:
        return SHEETS[game]
    except KeyError:
        raise Refused(
            f"no score sheet is known for {quoted(game)}; games: {', '.join(SHEETS)}"
        ) from None


def check_sheet(
    game: str, seats: Sequence[str], options: PlainMapping, components: object, sheet: object
) -> tuple[PlainDict, PlainDict]:
    """(the sheet normalised, the outcome it gives) or Refused naming the seat and field.
    What comes out is plain JSON the store keeps exactly: every number finite and within 53
    bits, every text checked as `values.stored_text` checks it (so no further walk is needed:
    measured, that walk was half the cost of an import)."""
    rules = sheet_rules(game)
    sheet = normalise(sheet, seats)
    allowed = rules.categories(options, components, len(seats))
    for index, entry in enumerate(sheet["scores"]):
        if entry is not None:
            _check_entry(
                rules,
                entry,
                seat_label(seats, index),
                allowed,
                options,
                components,
                len(seats),
                seats[index] in sheet["winners"],
            )
    rules.check_seats(sheet, seats, options, components)
    rules.check_winners(sheet, seats)
    # The store's plain JSON: a Sheet holds nothing else (a TypedDict is no dict to mypy).
    return cast(PlainDict, sheet), outcome_of(rules, sheet, seats)


def normalise(sheet: object, seats: Sequence[str]) -> Sheet:
    if not isinstance(sheet, Mapping):
        raise Refused('a score sheet is a JSON object {"scores": [...], "winners": [...], ...}')
    unknown = set(sheet) - set(KEYS)
    if unknown:
        raise Refused(
            f"a score sheet has no field {quoted(sorted(unknown)[0])} (fields: {', '.join(KEYS)})"
        )
    scores = sheet.get("scores")
    if scores is None:
        scores = [None] * len(seats)
    if not isinstance(scores, list) or len(scores) != len(seats):
        raise Refused(f"scores: one entry per seat ({len(seats)}), in turn order, or null")
    winners = sheet.get("winners") or []
    if not isinstance(winners, list):
        raise Refused("winners: a list of seat names")
    named = [name_of(w, seats, "winners") for w in winners]
    if len(set(named)) != len(named):
        raise Refused("winners: a seat is named twice")
    first = sheet.get("first")
    duration = number(sheet.get("duration_min"), "duration_min")
    if duration is not None and not 0 <= duration <= 100_000:
        raise Refused(f"duration_min: {duration} minutes is not a game's length")
    return {
        "scores": [_seat(entry, seat_label(seats, i)) for i, entry in enumerate(scores)],
        "winners": [s for s in seats if s in named],  # in turn order: one spelling
        "first": None if first is None else name_of(first, seats, "first"),
        "duration_min": duration,
        "location": text(sheet.get("location"), "location"),
        "board": text(sheet.get("board"), "board"),
        "source": _source(sheet.get("source")),
    }


def _seat(entry: object, where: str) -> SheetSeat | None:
    if entry is None:
        return None
    if not isinstance(entry, Mapping) or set(entry) - set(SEAT_KEYS):
        raise Refused(f"{where}: a seat's entry is an object with {', '.join(SEAT_KEYS)}")
    categories = entry.get("categories")
    if categories is not None:
        if not isinstance(categories, Mapping) or not categories:
            raise Refused(f"{where}: categories is an object {{category: points}}")
        categories = {
            text(k, f"{where}: a category's name") or "": number(
                v, f"{where}: category {quoted(k)}"
            )
            for k, v in categories.items()
        }
        if any(v is None for v in categories.values()):
            raise Refused(f"{where}: every category listed needs its points")
    new = entry.get("new")
    if new is not None and not isinstance(new, bool):
        raise Refused(f"{where}: new is true or false")
    return {
        "total": number(entry.get("total"), f"{where}: total"),
        "categories": categories,
        "team": text(entry.get("team"), f"{where}: team"),
        "role": text(entry.get("role"), f"{where}: role"),
        "colour": text(entry.get("colour"), f"{where}: colour"),
        "new": new,
    }


def _source(source: object) -> dict[str, str | None] | None:
    """Where an imported sheet came from ({"from": "bgstats", "id": play uuid}): provenance."""
    if source is None:
        return None
    if not isinstance(source, Mapping) or set(source) - {"from", "id"}:
        raise Refused('source is {"from": "bgstats" | "bgg" | ..., "id": "..."}')
    return {key: text(value, f"source {key}") for key, value in source.items()}


def _check_entry(
    rules: SheetRules,
    entry: SheetSeat,
    where: str,
    allowed: tuple[str, ...],
    options: PlainMapping,
    components: object,
    players: int,
    won: bool,
) -> None:
    categories, total = entry["categories"], entry["total"]
    if categories is not None:
        for name in categories:
            if name not in allowed:
                raise Refused(
                    f"{where}: category {quoted(name)} is not one of "
                    f"{rules.game}'s ({', '.join(allowed)})"
                )
        if total is None:
            raise Refused(f"{where}: total must be given with the categories")
        if rules.sums_categories(options, players) and sum(categories.values()) != total:
            raise Refused(
                f"{where}: categories add up to {sum(categories.values())}, not the total {total}"
            )
    if total is not None:
        low, high = rules.bounds(options, components, players, won)
        if not low <= total <= high:
            raise Refused(
                f"{where}: total {total} is outside what {rules.game} allows "
                f"({'the winner' if won else 'a seat that did not win'}: {low} to "
                f"{high}, see docs/interop.md)"
            )


def outcome_of(rules: SheetRules, sheet: Sheet, seats: Sequence[str]) -> PlainDict:
    """The outcome as an Ended event holds it: winners first, then the others by total
    (best first; seats without a total last, together)."""
    winners = [seats.index(name) for name in sheet["winners"]]
    rest = [i for i in range(len(seats)) if i not in winners]
    totals = {i: e["total"] if e else None for i, e in enumerate(sheet["scores"])}
    known = sorted({t for i in rest if (t := totals[i]) is not None}, reverse=True)
    groups = [[i for i in rest if totals[i] == t] for t in known]
    unknown = [i for i in rest if totals[i] is None]
    ranking = ([winners] if winners else []) + groups + ([unknown] if unknown else [])
    reason = rules.outcome_reason(sheet)
    return Outcome(tuple(winners), tuple(tuple(g) for g in ranking), reason).to_json()
