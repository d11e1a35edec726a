"""Building test matches: real matches through the Match aggregate, with random legal moves."""

from __future__ import annotations

import random
from uuid import uuid4

from tablelog.domain.matches.match import Match, start_match


def random_match(
    game: str,
    seats: list[str],
    rng: random.Random,
    options=None,
    finish: str = "end",
    cap: int = 400,
) -> Match:
    """A match of random legal moves, in memory (save it with `recorder.save_new`). `finish`:
    "end" (ended by the rules, or a draw by agreement when it runs past the cap), "abandon",
    or "open" (left running)."""
    match = start_match(uuid4(), game, seats, options, _deal(game, len(seats), options, rng))
    limit = min(cap, match.rules.playout_cap or cap)
    for _ in range(limit):
        if not match.rules.to_move(match.state):
            break
        move = match.rules.random_move(match.state, rng)
        match.record(match.rules.to_move(match.state)[0], move)
    if finish == "end":
        match.end(agreed_draw=match.rules_outcome() is None)
    elif finish == "abandon":
        match.abandon("Ann", "the cafe closed")
    return match


def _deal(game, players, options, rng):
    from tablelog.domain.games import get_rules

    rules = get_rules(game)
    return rules.deal(players, rules.options(options or {}), rng)
