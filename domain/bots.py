"""Seeded bots that play any registered game, for simulations.

A bot is a pure function `(rules, state, seat, rng) -> move`: no clock, no I/O, and every random
decision drawn from the `rng` it is given, so a seed fixes a whole match. A bot answers for one
seat: in turn-based games with the move itself; in simultaneous games (Total Landscaping) with
that seat's choice, which `next_move` combines with the other awaited seats' choices.

- `random`: a uniformly random legal move (`rules.random_move`; per seat, a random choice).
- `greedy`: the legal move after which `rules.evaluate(state, seat)` is highest (each game's
  "how good does it look for me now": points, or a heuristic a player would recognise), ties
  broken at random. It looks one move ahead and no further. Two bounds keep it fast:
  - when more than `GREEDY_CANDIDATES` moves are legal it weighs a random sample of that many
    (Topiary, Topas and Total Landscaping offer hundreds, sometimes thousands);
  - in a simultaneous game it cannot see the other seat's choice, so it assumes one random
    choice for each other seat, drawn once per decision, and weighs every candidate of its own
    against that same guess.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .games import GameRules
from .games.base import Move

Bot = Callable[[GameRules, Any, int, random.Random], Move]

GREEDY_CANDIDATES = 40


def random_bot(rules: GameRules, state: Any, seat: int, rng: random.Random) -> Move:
    """A uniformly random legal move (in a simultaneous game, a random choice of `seat`)."""
    if rules.simultaneous:
        return rng.choice(rules.choices(state, seat))
    return rules.random_move(state, rng)


def greedy_bot(rules: GameRules, state: Any, seat: int, rng: random.Random) -> Move:
    """The move (or choice) that looks best for `seat` one move ahead; see the module notes."""
    candidates = rules.choices(state, seat)
    if len(candidates) > GREEDY_CANDIDATES:
        candidates = rng.sample(candidates, GREEDY_CANDIDATES)
    if len(candidates) == 1:
        return candidates[0]
    guess = _guess_others(rules, state, seat, rng) if rules.simultaneous else None
    best: list[Move] = []
    best_value = float("-inf")
    for candidate in candidates:
        move = candidate if guess is None else rules.combine(state, {**guess, seat: candidate})
        value = rules.evaluate(rules.apply(state, move), seat)
        if value > best_value:
            best, best_value = [candidate], value
        elif value == best_value:
            best.append(candidate)
    return rng.choice(best)


def _guess_others(rules: GameRules, state: Any, seat: int,
                  rng: random.Random) -> dict[int, Move]:
    """One random choice for every other awaited seat (what the greedy seat cannot see)."""
    return {other: rng.choice(rules.choices(state, other))
            for other in rules.to_move(state) if other != seat}


BOTS: Mapping[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def next_move(rules: GameRules, state: Any, bots: Sequence[Bot],
              rng: random.Random) -> tuple[int, Move]:
    """The seat that records the next move and the move, each awaited seat asking its own bot
    (`bots[i]` plays seat i). A simultaneous round is recorded by the first awaited seat."""
    awaited = rules.to_move(state)
    if not awaited:
        raise ValueError("the game is over: no seat is awaited")
    if rules.simultaneous:
        return awaited[0], rules.combine(
            state, {seat: bots[seat](rules, state, seat, rng) for seat in awaited})
    seat = awaited[0]
    return seat, bots[seat](rules, state, seat, rng)
