"""The demo store's score-sheet matches: plays logged from their sheets, as an imported BG
Stats or BGG history would be, so that the dashboard's kind filter (all / moves logged / sheets
only) shows something. Built from the demo's seed, with fixed ids and dates: the demo is the
same every time. Players are named like the bots, so the demo's players pages join them up."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import TypedDict
from uuid import UUID, uuid5

from tablelog.domain.games import GAMES
from tablelog.domain.matches.match import Match
from tablelog.domain.matches.sheet_matches import sheet_match

NAMESPACE = UUID("5d0f7c1e-8a2b-5c4d-9e6f-0a1b2c3d4e5f")
FIRST_DAY = datetime(2024, 1, 6, 19, 0, tzinfo=UTC)
CONDITIONS = ("six colours connected", "biggest patch", "most flowers", "most Blue")
PLAN = (
    ("topiary", 2, 4),
    ("topiary", 3, 3),
    ("topas", 2, 4),
    ("total-landscaping", 2, 4),
    ("geoshapes", 2, 3),
    ("topitop", 2, 4),
)


class SeatScore(TypedDict):
    total: int
    categories: dict[str, int]


def _topiary(rng: random.Random, seats: list[str]) -> dict:
    entries: list[SeatScore] = []
    for _ in seats:
        parts = {
            "visitors": rng.randint(20, 60),
            "type bonus": rng.randint(0, 8),
            "hand": rng.randint(0, 6),
        }
        entries.append({"total": sum(parts.values()), "categories": parts})
    # Highest total; tie: most hand points; still tied: later in turn order (RULES.md).
    best = max(
        range(len(seats)), key=lambda i: (entries[i]["total"], entries[i]["categories"]["hand"], i)
    )
    return {"scores": entries, "winners": [seats[best]]}


def _topas(rng: random.Random, seats: list[str]) -> dict:
    totals = [rng.randint(30, 80) for _ in seats]
    return {
        "scores": [{"total": t} for t in totals],
        "winners": [s for s, t in zip(seats, totals) if t == max(totals)],
    }


def _landscaping(rng: random.Random, seats: list[str]) -> dict:
    winner, loser_bouts = rng.randrange(2), rng.randint(0, 1)
    entries = []
    for seat in range(2):
        bouts = 2 if seat == winner else loser_bouts
        won = [rng.choice(CONDITIONS) for _ in range(bouts)]
        entries.append({"total": bouts, "categories": {c: won.count(c) for c in CONDITIONS}})
    return {"scores": entries, "winners": [seats[winner]]}


def _geoshapes(rng: random.Random, seats: list[str]) -> dict:
    winner = rng.randrange(len(seats))
    entries = []
    for seat in range(len(seats)):
        hand = rng.randint(2, 14)
        win = 25 if seat == winner else 0
        hand = hand if seat == winner else -hand
        entries.append({"total": win + hand, "categories": {"win": win, "hand": hand}})
    return {"scores": entries, "winners": [seats[winner]]}


def _winner_only(rng: random.Random, seats: list[str]) -> dict:
    return {"scores": None, "winners": [rng.choice(seats)]}  # a win, no score


# Sheets with scores, in each game's categories; any other game's sheets name the winner only.
SHEETS = {
    "topiary": _topiary,
    "topas": _topas,
    "total-landscaping": _landscaping,
    "geoshapes": _geoshapes,
}


def _plan() -> list[tuple[str, int, int]]:
    """PLAN, and two sheets of every other registered game (a game added later shows too)."""
    planned = {game for game, _, _ in PLAN}
    others = [(game, max(2, rules.min_players), 2) for game, rules in GAMES.items()]
    return [*PLAN, *(entry for entry in others if entry[0] not in planned)]


def sheet_matches(seed: int) -> list[Match]:
    rng = random.Random(seed)
    matches, day = [], 0
    for game, players, count in _plan():
        for number in range(count):
            seats = [f"{rng.choice(('random', 'greedy'))}-{seat}" for seat in range(1, players + 1)]
            sheet = {
                **SHEETS.get(game, _winner_only)(rng, seats),
                "first": seats[0],
                "duration_min": rng.randint(15, 60),
                "location": "Demo club",
            }
            played = FIRST_DAY + timedelta(days=day)
            day += 3
            matches.append(
                sheet_match(
                    uuid5(NAMESPACE, f"{game}:{players}:{number}"),
                    game,
                    seats,
                    sheet,
                    played_at=played,
                    at=played,
                )
            )
    return matches
