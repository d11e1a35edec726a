"""Total Landscaping properties: whole random matches keep the rules' invariants and replay from
JSON to equal states; junk and near-miss moves are refused with IllegalMove, never a crash."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games import IllegalMove
from tablelog.domain.games.total_landscaping.hexgarden import NEIGHBOURS, TILES, TILES_AT_LEVEL
from tablelog.domain.games.total_landscaping.rules import CARDS, RULES, WITHERS, flower


def _unprotected_withering(garden) -> list[str]:
    """Flowers (not on grass) standing beside the colour that withers them."""
    return [
        TILES[t]
        for t, code in enumerate(garden)
        if flower(code)
        and not code.startswith("G")
        and any(WITHERS.get(flower(garden[n]) or "") == flower(code) for n in NEIGHBOURS[t])
    ]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_the_invariants_and_replay_equal(seed):
    rng = random.Random(seed)
    state = RULES.start(2, {}, {})
    moves, states = [], [state]
    while RULES.outcome(state) is None:
        move = RULES.random_move(state, rng)
        state = RULES.apply(state, move)
        moves.append(move)
        states.append(state)
        for garden in state.gardens:
            assert not _unprotected_withering(garden)  # withering left nothing standing
            assert not any(garden[TILES_AT_LEVEL[state.level] :])  # nothing outside the garden
        if RULES.outcome(state) is None:
            for hand in state.hands:
                assert hand and set(hand) <= set(CARDS) and len(set(hand)) == len(hand)
    assert len(state.bouts) in (2, 3) and 1 <= state.round <= 25
    replayed = RULES.start(2, {}, {})
    for move, expected in zip(json.loads(json.dumps(moves)), states[1:]):
        replayed = RULES.apply(replayed, move)
        assert replayed == expected


WORDS: st.SearchStrategy[object] = st.sampled_from(
    [
        "Red",
        "blue",
        "Green",
        "Teal",
        "east",
        "west",
        "north",
        "A",
        "B1",
        "b2",
        "C3",
        "D18",
        "E1",
        "",
        None,
        3,
        [],
        {},
    ]
)
CHOICE = st.one_of(
    st.fixed_dictionaries(
        {"card": WORDS, "garden": WORDS, "tile": WORDS},
        optional={
            "remove": st.lists(WORDS, max_size=3),
            "spread": WORDS,
            "recolour": WORDS,
            "hoe": WORDS,
        },
    ),
    st.fixed_dictionaries({"hoe": st.lists(WORDS, max_size=3)}),
    WORDS,
)


@settings(max_examples=200, deadline=None)
@given(east=CHOICE, west=CHOICE, rounds=st.integers(0, 12), seed=st.integers(0, 99))
def test_near_miss_moves_are_refused_with_illegal_move_or_accepted(east, west, rounds, seed):
    rng, state = random.Random(seed), RULES.start(2, {}, {})
    for _ in range(rounds):
        state = RULES.apply(state, RULES.random_move(state, rng))
    try:
        RULES.apply(state, {"east": east, "west": west})
    except IllegalMove as err:
        assert str(err).strip()
