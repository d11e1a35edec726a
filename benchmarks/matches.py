"""Matches the benchmarks record: random ones played by the product's simulation bots, a long
legal Topitop match of any length, and a short Topitop win."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

from tablelog.domain.games import get_rules
from tablelog.domain.matches.match import Match, start_match
from tablelog.simulation import make_plan, move_cap, play_on

# Both players place a bucket, then shuffle it back and forth forever (a bucket is never
# neutral, so the no-reversal rule does not stop it): a legal match of any length.
OPENING = [(0, {"place": "bucket", "to": "a1"}), (1, {"place": "bucket", "to": "c3"})]
SHUFFLE = [
    (0, {"from": "a1", "to": "a2"}),
    (1, {"from": "c3", "to": "c2"}),
    (0, {"from": "a2", "to": "a1"}),
    (1, {"from": "c2", "to": "c3"}),
]

# Ann (Blue) wins a 15-move Topitop match: two castles, then both buckets onto them.
WIN = [
    ("Ann", {"place": "large", "to": "b2"}),
    ("Ben", {"place": "small", "to": "a1"}),
    ("Ann", {"from": "a1", "to": "b2"}),
    ("Ben", {"place": "bucket", "to": "c3"}),
    ("Ann", {"place": "large", "to": "a3"}),
    ("Ben", {"place": "small", "to": "c1"}),
    ("Ann", {"place": "bucket", "to": "a1"}),
    ("Ben", {"from": "c1", "to": "c2"}),
    ("Ann", {"from": "a1", "to": "b2"}),
    ("Ben", {"from": "c2", "to": "b3"}),
    ("Ann", {"place": "small", "to": "b1"}),
    ("Ben", {"from": "b3", "to": "a3"}),
    ("Ann", {"place": "bucket", "to": "a2"}),
    ("Ben", {"from": "c3", "to": "c2"}),
    ("Ann", {"from": "a2", "to": "a3"}),
]


def shuffled_moves(count: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """`count` legal Topitop moves: the opening, then buckets shuffled back and forth."""
    for number in range(count):
        yield OPENING[number] if number < 2 else SHUFFLE[(number - 2) % 4]


def random_match(game: str, seats: list[str], rng: random.Random, cap: int = 400) -> Match:
    """A match played by random bots to its end or `cap` moves (then a draw by agreement), in
    memory: save it with `recorder.save_new`."""
    plan = make_plan(game, 1, 0, players=len(seats))
    rules = get_rules(game)
    match = start_match(
        uuid4(), game, seats, dict(plan.options), rules.deal(len(seats), plan.options, rng)
    )
    play_on(match, plan, rng, min(cap, move_cap(game)))
    match.end(agreed_draw=match.rules_outcome() is None)
    return match
