"""Seeded bots that play any registered game, for simulations.

A bot is a pure function `(rules, state, seat, rng) -> move`: no clock, no I/O, and every random
decision drawn from the `rng` it is given, so a seed fixes a whole match. A bot answers for one
seat: in turn-based games with the move itself; in simultaneous games (Total Landscaping) with
that seat's choice, which `next_move` combines with the other awaited seats' choices.

- `random`: a random legal move (`rules.random_move`; per seat, `rules.random_choice`), uniform
  unless the game picks the way a player would (a kind of move first, then its details).
- `greedy`: the legal move after which `rules.evaluate(state, seat)` is highest (each game's
  "how good does it look for me now": points, or a heuristic a player would recognise), ties
  broken at random. It looks one move ahead and no further. When no move improves on the
  position as it stands, it ends its turn as well as it can (the best move that hands the turn
  on) rather than shuffle: GeoShapes lets a player place and switch figures back and forth
  within one play, and a one-move-ahead player would otherwise do that forever; when no move
  ends the turn either, it plays a random move. In games where every move ends the turn this
  is plain greedy. A move that records another player's decision
  (a GeoShapes trade marked accepted) is offered only when that player would agree (`CONSENT`).
  Two bounds keep it fast:
  - when more than `GREEDY_CANDIDATES` moves are legal it weighs a random sample of that many
    (Topiary, Topas and Total Landscaping offer hundreds, sometimes thousands);
  - in a simultaneous game it cannot see the other seat's choice, so it assumes one random
    choice for each other seat, drawn once per decision, and weighs every candidate of its own
    against that same guess.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from ..games import GameRules
from ..games.base import Bot, Move

S = TypeVar("S")


class Consent(Protocol):
    """Whether the player whose decision `move` records would agree to it (`CONSENT`)."""

    def __call__(self, rules: GameRules[S], state: S, move: Move, after: S, /) -> bool: ...


GREEDY_CANDIDATES = 40


def random_bot(rules: GameRules[S], state: S, seat: int, rng: random.Random) -> Move:
    """A random legal move as the engine draws one (in a simultaneous game, `seat`'s choice)."""
    if rules.simultaneous:
        return rules.random_choice(state, seat, rng)
    return rules.random_move(state, rng)


def greedy_bot(rules: GameRules[S], state: S, seat: int, rng: random.Random) -> Move:
    """The move (or choice) that looks best for `seat` one move ahead; see the module notes."""
    candidates = rules.choices(state, seat)
    if len(candidates) > GREEDY_CANDIDATES:
        candidates = rng.sample(candidates, GREEDY_CANDIDATES)
    if len(candidates) == 1:
        return candidates[0]
    guess = _guess_others(rules, state, seat, rng) if rules.simultaneous else None
    awaited = rules.to_move(state)
    agrees = CONSENT.get(rules.id, _anyone_agrees)
    weighed = []  # (value, ends the turn, candidate)
    for candidate in candidates:
        move = candidate if guess is None else rules.combine(state, {**guess, seat: candidate})
        after = rules.apply(state, move)
        if agrees(rules, state, move, after):
            weighed.append(
                (rules.evaluate(after, seat), rules.to_move(after) != awaited, candidate)
            )
    if not weighed:  # only moves others would refuse were sampled
        return random_bot(rules, state, seat, rng)
    if max(value for value, _, _ in weighed) <= rules.evaluate(state, seat):
        # Nothing improves: end the turn as well as possible rather than shuffle for nothing,
        # or, when no move ends it, do something at random rather than circle.
        weighed = [w for w in weighed if w[1]]
        if not weighed:
            return random_bot(rules, state, seat, rng)
    best_value = max(value for value, _, _ in weighed)
    return rng.choice([candidate for value, _, candidate in weighed if value == best_value])


def _guess_others(rules: GameRules[S], state: S, seat: int, rng: random.Random) -> dict[int, Move]:
    """One random choice for every other awaited seat (what the greedy seat cannot see)."""
    return {
        other: rules.random_choice(state, other, rng)
        for other in rules.to_move(state)
        if other != seat
    }


# ---- other players' consent -----------------------------------------------------------------
# A few moves record another player's decision (GeoShapes: "accepted": true on a trade). That
# decision is not the greedy seat's to make: it offers such a move only if the other player
# would agree, judged by that player's own `evaluate`.


def _anyone_agrees(rules: GameRules[S], state: S, move: Move, after: S) -> bool:
    return True


def _geoshapes_partner_agrees(rules: GameRules[S], state: S, move: Move, after: S) -> bool:
    """A trade partner accepts only a trade that improves its own position (so two greedy
    players cannot pass the same shapes back and forth forever)."""
    trade = move.get("trade")
    if not isinstance(trade, Mapping) or not trade.get("accepted"):
        return True
    partner = trade["with"]
    return rules.evaluate(after, partner) > rules.evaluate(state, partner)


CONSENT: Mapping[str, Consent] = {
    "geoshapes": _geoshapes_partner_agrees,
}

BOTS: Mapping[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def next_move(
    rules: GameRules[S], state: S, bots: Sequence[Bot], rng: random.Random
) -> tuple[int, Move]:
    """The seat that records the next move and the move, each awaited seat asking its own bot
    (`bots[i]` plays seat i). A simultaneous round is recorded by the first awaited seat."""
    awaited = rules.to_move(state)
    if not awaited:
        raise ValueError("the game is over: no seat is awaited")
    if rules.simultaneous:
        return awaited[0], rules.combine(
            state, {seat: bots[seat](rules, state, seat, rng) for seat in awaited}
        )
    seat = awaited[0]
    return seat, bots[seat](rules, state, seat, rng)
