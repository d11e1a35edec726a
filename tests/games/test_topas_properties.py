"""Topas properties over random games (hypothesis): invariants a player relies on."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games import IllegalMove
from tablelog.domain.games.topas.rules import RULES
from tablelog.domain.games.topas.table import AXES, direction

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
near_moves = st.fixed_dictionaries(
    {
        "card": st.sampled_from(["R2-B1", "b1-r2", "R1-G2", "R2-G2", "X1-B2", "R1G2"])
        | json_values,
        "at": st.lists(st.integers(-3, 3), min_size=2, max_size=2) | json_values,
        "dir": st.sampled_from(["N", "e", "S", "W", "NE"]) | json_values,
    }
)


def random_game(seed, players, expert=False):
    rng = random.Random(seed)
    options = RULES.options({"expert": expert})
    setup = RULES.deal(players, options, rng)
    state = RULES.start(players, options, setup)
    states = [state]
    while RULES.outcome(state) is None:
        state = RULES.apply(state, RULES.random_move(state, rng))
        states.append(state)
    return setup, states


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.lists(json_values | near_moves, min_size=1, max_size=5))
def test_junk_moves_are_refused_with_illegal_move_and_nothing_else(seed, moves):
    _, states = random_game(seed % 50, 2)
    state = states[seed % len(states)]
    for move in moves:
        try:
            state = RULES.apply(state, move)
        except IllegalMove as refused:
            assert str(refused).strip()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4), expert=st.booleans())
def test_no_line_on_the_table_ever_holds_more_than_seven_gems(seed, players, expert):
    _, states = random_game(seed, players, expert)
    for state in states[1:]:
        table = RULES.table(state)
        for cell, half in table.halves.items():
            for _axis, (dx, dy) in AXES.items():
                gems, x, y = 0, *cell
                while table.halves.get((x, y), ("", 0))[0] == half[0]:
                    gems += table.halves[(x, y)][1]
                    x, y = x + dx, y + dy
                assert gems <= 7


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), expert=st.booleans())
def test_colour_points_and_product_bonus_add_up_to_each_total(seed, players, expert):
    _, states = random_game(seed, players, expert)
    for entry in RULES.score(states[-1]):
        assert sum(entry["categories"].values()) == entry["total"]
        assert entry["total"] == sum(p["points"] for p in entry["details"]["placements"])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_the_table_log_without_the_deal_replays_a_dealt_game_to_the_same_placements(seed, players):
    setup, states = random_game(seed, players)
    end = states[-1]
    logged = RULES.start(players, RULES.options({}), {"start": setup["start"]})
    for placement in end.placements:
        if logged.awaiting_start:  # solitaire: the table log turns up each new start card
            logged = RULES.apply(logged, {"start": end.starts[logged.column]})
        first, second = placement.cells
        logged = RULES.apply(
            logged, {"card": placement.card, "at": list(first), "dir": direction(first, second)}
        )
    assert logged.placements == end.placements
    assert RULES.score(logged)[0]["total"] == RULES.score(end)[0]["total"]
