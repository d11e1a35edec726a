"""Each engine's answers agree with each other, on random positions per game (every registered
game, the test game too).

What the engines answer (the moves drawn, the legal listings, the states and refusals of `apply`,
the scores) is golden data, compared exactly in test_golden.py: no rule is written twice. These
properties hold whatever the data says:

- `random_move` is always a listed legal move, and over many draws it offers every one;
- a state rebuilt from its JSON (nothing kept on it: no table, no memo) answers as the state
  played to, so that nothing an engine keeps leaks from one state into another;
- `totals` are `score`'s totals, or refused alike.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.games.total_landscaping.rules import RULES as LANDSCAPING

POSITIONS = 1000
DRAWS = 3000  # per position in the coverage test: a move of 1 in 200 is missed with p < 1e-6
OPTIONS: dict[str, list[dict[str, Any]]] = {  # every variant whose moves differ
    "geoshapes": [{}, {"half_board": True}, {"placing_optional": True}, {"empty_deck": "end"}],
    "total-landscaping": [{}, {"hoeing": "after-effects"}],
}


@cache
def positions(game: str, count: int = POSITIONS) -> tuple[Any, ...]:
    """`count` positions of random games (every player count and variant in turn), in play."""
    rules, found = GAMES[game], list[Any]()
    variants: list[dict[str, Any]] = OPTIONS.get(game, [{}])
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        options = rules.options(variants[seed % len(variants)])
        if options.get("half_board"):
            players = 2
        state = rules.start(players, options, rules.deal(players, options, rng))
        for _ in range(rules.playout_cap or 600):
            if rules.outcome(state) is not None or not _has_a_move(rules, state):
                break
            found.append(state)
            state = rules.apply(state, rules.random_move(state, rng))
    return tuple(found[:count])


def _has_a_move(rules, state) -> bool:
    return bool(rules.simultaneous or rules.legal_moves(state))


def offered(game: str, state: Any) -> list[dict]:
    """The moves a random move may be (a simultaneous round: one seat's choices, seat 0)."""
    rules = GAMES[game]
    if rules.simultaneous:
        return rules.choices(state, 0)
    return rules.legal_moves(state)


@pytest.mark.parametrize("game", list(GAMES))
def test_random_move_is_always_legal(game):
    rules = GAMES[game]
    rng = random.Random(7)
    for state in positions(game, POSITIONS // 4):
        move = rules.random_move(state, rng)
        if rules.simultaneous:
            assert move["east"] in rules.choices(state, 0)
            assert move["west"] in rules.choices(state, 1)
        else:
            assert move in rules.legal_moves(state)


# Topas offers dozens of moves even near the end (every card on every free span), Topiary
# a hundred and more (every tile a visitor may take, and what replaces it).
FEW = {"topas": 40, "topiary": 200}


def _few_moves(game: str) -> Iterator[Any]:
    """Positions with a handful of legal moves, where many draws must meet each one."""
    seen = 0
    for state in positions(game)[:300]:
        if 1 < len(offered(game, state)) <= FEW.get(game, 24):
            yield state
            seen += 1
            if seen == 8:
                return


@pytest.mark.parametrize("game", list(GAMES))
def test_random_move_offers_every_legal_move(game):
    rules = GAMES[game]
    rng = random.Random(11)
    checked = 0
    for state in _few_moves(game):
        if rules.simultaneous:
            drawn = [rules.random_choice(state, 0, rng) for _ in range(DRAWS)]
        else:
            drawn = [rules.random_move(state, rng) for _ in range(DRAWS)]
        keys = {json.dumps(m, sort_keys=True) for m in drawn}
        assert keys == {json.dumps(m, sort_keys=True) for m in offered(game, state)}
        checked += 1
    assert checked, f"no {game} position with a handful of moves was found"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_state_rebuilt_from_json_answers_the_same(game):
    """Lookup tables are built per board on first use; a decoded state starts without them."""
    rules = GAMES[game]
    rng = random.Random(3)
    for state in positions(game)[::20]:
        rebuilt = rules.decode(json.loads(json.dumps(rules.encode(state))))
        assert rebuilt == state
        assert rules.score(rebuilt) == rules.score(state)
        if not rules.simultaneous:
            assert rules.legal_moves(rebuilt) == rules.legal_moves(state)
        move = rules.random_move(state, random.Random(rng.random()))
        assert rules.apply(rebuilt, move) == rules.apply(state, move)


def test_total_landscaping_garden_figures_read_as_their_fields():
    for state in positions("total-landscaping")[::4]:
        for seat, entry in enumerate(LANDSCAPING.score(state)):
            figures = LANDSCAPING.figures(state.gardens[seat])
            assert entry["details"]["garden_now"] == dataclasses.asdict(figures)


def totals_of_score(rules, state) -> list[float] | type[Exception]:
    """Each seat's total read off the full `score`, or the error it raises."""
    try:
        return [float(entry["total"]) for entry in rules.score(state)]
    except RulesError as err:
        return type(err)


@pytest.mark.parametrize("game", list(GAMES))
def test_lean_totals_are_the_scores_totals(game):
    rules = GAMES[game]
    for state in positions(game)[::2]:
        expected = totals_of_score(rules, state)
        if isinstance(expected, list):
            assert rules.totals(state) == expected
        else:
            with pytest.raises(expected):
                rules.totals(state)
