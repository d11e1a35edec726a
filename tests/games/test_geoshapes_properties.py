"""Properties of GeoShapes over any legal play: pieces are never made or lost, replays agree, and
junk is always refused with IllegalMove, never another exception."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games import IllegalMove
from tablelog.domain.games.geoshapes.board import load_board
from tablelog.domain.games.geoshapes.rules import RULES

SHAPES = list(load_board("geoshapes").values)


def random_game(seed: int, players: int, half: bool, steps: int):
    rng = random.Random(seed)
    options = RULES.options({"half_board": half})
    setup = RULES.deal(players, options, rng)
    if rng.random() < 0.5:
        # A table's record: the draw order is unknown, and so is every reshuffled order.
        del setup["deck"], setup["reshuffled"]
    state = RULES.start(players, options, setup)
    states, moves = [state], list[dict[str, Any]]()
    while RULES.outcome(state) is None and len(moves) < steps:
        move = RULES.random_move(state, rng)
        state = RULES.apply(state, move)
        moves.append(move)
        states.append(state)
    return options, setup, moves, states


games = st.tuples(
    st.integers(0, 10_000),
    st.sampled_from([(2, False), (3, False), (4, False), (2, True)]),
    st.integers(1, 400),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_no_piece_is_made_and_until_a_reshuffle_every_card_turned_up_gave_its_piece(game):
    seed, (players, half), steps = game
    *_, states = random_game(seed, players, half, steps)
    for state in states:
        where = Counter[str]()
        for player in state.players:
            where.update(player.hand)
        for shapes in state.placed + state.stacks:
            where.update(shapes)
        assert not where - Counter(state.board.deck), "more pieces in play than the box holds"
        if not state.reshuffles:
            assert where == Counter(state.cards_up)


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_recorded_game_replays_from_json_to_equal_states(game):
    seed, (players, half), steps = game
    options, setup, moves, states = random_game(seed, players, half, steps)
    state = RULES.start(players, options, json.loads(json.dumps(setup)))
    assert state == states[0]
    for move, expected in zip(json.loads(json.dumps(moves)), states[1:]):
        state = RULES.apply(state, move)
        assert state == expected
    assert RULES.decode(json.loads(json.dumps(RULES.encode(state)))) == state


shape = st.sampled_from(SHAPES) | st.text(max_size=8)
place = st.sampled_from(["Sailboat", "House", "North-West circle", "Kite"]) | st.text(max_size=8)
item = shape | st.fixed_dictionaries({"shape": shape, "from": place | st.integers()})
near_moves = st.one_of(
    st.fixed_dictionaries({"draw": shape | st.integers()}),
    st.fixed_dictionaries({"pick_up": st.integers(-2, 5) | st.booleans() | st.text()}),
    st.fixed_dictionaries(
        {
            "trade": st.fixed_dictionaries(
                {
                    "with": st.integers(-1, 4),
                    "give": st.lists(item, max_size=5),
                    "get": st.lists(item, max_size=5) | st.text(),
                    "accepted": st.booleans() | st.none(),
                }
            )
        }
    ),
    st.fixed_dictionaries({"place": shape, "on": place | st.none()}),
    st.fixed_dictionaries({"switch": place | st.integers()}),
    st.fixed_dictionaries(
        {"discard": shape}, optional={"from": place | st.none(), "to": place | st.integers()}
    ),
    st.fixed_dictionaries({"end_play": st.booleans() | st.integers()}),
)
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), near_moves | junk)
def test_any_move_is_either_accepted_or_refused_with_a_reason(seed, steps, move):
    *_, states = random_game(seed, 3, False, steps)
    state = states[-1]
    try:
        RULES.apply(state, move)
    except IllegalMove as refusal:
        assert str(refusal).strip()
