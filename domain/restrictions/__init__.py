"""Restricted play (Jaffe, Miller, Andersen, Liu, Karlin & Popovic, "Evaluating Competitive Game
Balance with Restricted Play", AIIDE 2012): a player who never does one thing, played against
the standard player. If the restricted player wins about as often, the thing it gives up is not
worth much; if it loses badly, the thing is strong; if it wins MORE, the thing is a trap.

Each game's plugin carries its restrictions (`domain/games/<game>/restrictions.py`, outside its
engine; none is a valid answer): a `Restriction` (`domain/games/restricting.py`) is a name in
the game's words, a sentence, and a filter over the legal moves of the restricted seat. When a
filter would leave nothing (every legal move is one the player swore off) the restricted seat
plays any legal move: the rules oblige it to move, and the experiment counts how often that
happened nowhere else but here, in the docs.

`restricted(bot, restriction)` makes any bot (random, greedy, MCTS) play under the restriction:
it sees the rules through `RestrictedRules`, which offers the restricted seat only the allowed
moves, in its own decisions and in its search's rollouts of its own turns alike.
"""

from __future__ import annotations

import random
from typing import Any, Generic, TypeVar, cast

from tablelog.domain.games import GameRules, get_game, get_rules
from tablelog.domain.games.base import Bot, Move
from tablelog.domain.games.restricting import FIRST_LEGAL, Restriction, never
from tablelog.domain.quoting import quoted


def restrictions(game: str) -> dict[str, Restriction]:
    """The restrictions `game` declares, by name (every game has `first-legal`)."""
    declared = [*get_game(game).restrictions, FIRST_LEGAL]
    return {r.name: r for r in declared}


def get_restriction(game: str, name: str) -> Restriction:
    from tablelog.domain.errors import Refused

    known = restrictions(game)
    if name not in known:
        raise Refused(
            f"{get_rules(game).name} declares no restriction {quoted(name)}; it declares "
            f"{', '.join(known)}"
        )
    return known[name]


S = TypeVar("S")


class RestrictedRules(Generic[S]):
    """The rules as the restricted seat sees them: everything delegated, except that its own
    moves are filtered (choices, legal moves and random moves alike)."""

    def __init__(self, rules: GameRules[S], restriction: Restriction, seat: int) -> None:
        self._rules, self._restriction, self._seat = rules, restriction, seat

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def choices(self, state: S, seat: int) -> list[Move]:
        moves = self._rules.choices(state, seat)
        return self._restriction.allowed(moves) if seat == self._seat else moves

    def legal_moves(self, state: S) -> list[Move]:
        moves = self._rules.legal_moves(state)
        mine = self._rules.to_move(state)[:1] == (self._seat,)
        return self._restriction.allowed(moves) if mine and moves else moves

    def random_choice(self, state: S, seat: int, rng: random.Random) -> Move:
        if seat != self._seat:
            return self._rules.random_choice(state, seat, rng)
        return rng.choice(self.choices(state, seat))

    def random_move(self, state: S, rng: random.Random) -> Move:
        if self.simultaneous:
            return self.combine(
                state, {seat: self.random_choice(state, seat, rng) for seat in self.to_move(state)}
            )
        return self.random_choice(state, self.to_move(state)[0], rng)


def restricted(bot: Bot, restriction: Restriction) -> Bot:
    """`bot`, playing its seat under `restriction`."""

    def play(rules: GameRules[S], state: S, seat: int, rng: random.Random) -> Move:
        # The proxy answers every question `rules` does (`__getattr__`), the restricted ones
        # its own way: to the bot it is the game's rules.
        return bot(cast(GameRules[S], RestrictedRules(rules, restriction, seat)), state, seat, rng)

    return play


__all__ = [
    "FIRST_LEGAL",
    "RestrictedRules",
    "Restriction",
    "get_restriction",
    "never",
    "restricted",
    "restrictions",
]
