"""Moves that are almost legal (issue 20, item 4): a legal move with any one part replaced by
arbitrary JSON (a list where a piece is named, an object where a cell is, a huge number...) is
accepted or refused with a RulesError naming the rule, in every game, never another exception.
Topitop's `{"place": ["small", "small"], "to": "a1"}` raised TypeError (unhashable list)."""

from __future__ import annotations

import copy
import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.errors import Refused
from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.games.base import Move
from tablelog.domain.matches.values import stored_value
from tests.hostile import JSON


def positions(game: str) -> list[Any]:
    """The start and the first few positions of a seeded random game."""
    rules, rng = GAMES[game], random.Random(7)
    options = rules.options({})
    state = rules.start(rules.min_players, options, rules.deal(rules.min_players, options, rng))
    states = [state]
    while len(states) < 6 and rules.outcome(state) is None:
        state = rules.apply(state, rules.random_move(state, rng))
        states.append(state)
    return states


def parts(value: Any, path: tuple = ()) -> list[tuple]:
    """The path of every part of a JSON value, the whole value included."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += parts(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += parts(inner, (*path, index))
    return found


def replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    inner = value
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = new
    return value


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_legal_move_with_one_part_replaced_is_accepted_or_refused_by_the_rules(game):
    rules, states = GAMES[game], positions(game)

    @settings(max_examples=150, deadline=None, database=None)
    @given(data=st.data(), new=JSON)
    def check(data, new):
        state = data.draw(st.sampled_from(states))
        legal = rules.random_move(state, random.Random(data.draw(st.integers(0, 99))))
        move = replaced(legal, data.draw(st.sampled_from(parts(legal))), new)
        try:
            rules.apply(state, cast(Move, stored_value(move, "the move")))  # as Match.record
        except (RulesError, Refused) as refused:
            assert "\n" not in str(refused)

    check()
