"""GeoShapes' two ways into `apply` answer alike: a move in the stored form is read without the
full parser (`moves.quick_parse`), any other by the full one, and both ask the one legality
check (`legality.error`). What either answers, the next position or the refusal's words, is
what the full parser answers for the same move."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games import IllegalMove
from tablelog.domain.games.geoshapes.legality import error
from tablelog.domain.games.geoshapes.moves import quick_parse
from tablelog.domain.games.geoshapes.rules import RULES

from .test_geoshapes_properties import near_moves, random_game


def answer(apply: Any, state: Any, move: Any) -> tuple[str, Any]:
    try:
        return "played", apply(state, move)
    except IllegalMove as refusal:
        return "refused", str(refusal)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 120), st.booleans(), near_moves)
def test_the_fast_path_answers_as_the_full_parser_does(seed, steps, legal_one, near):
    *_, states = random_game(seed, 3, False, steps)
    state = states[-1]
    legal = RULES.legal_moves(state)
    move = random.Random(seed).choice(legal) if legal_one and legal else near
    assert answer(RULES.apply, state, move) == answer(RULES._parsed_apply, state, move)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 120))
def test_every_listed_move_is_played_by_the_fast_path(seed, steps):
    """The moves `legal_moves` lists are in the stored form, so none needs the full parser:
    each is read by `quick_parse` and passes the legality check."""
    *_, states = random_game(seed, 2, seed % 2 == 0, steps)
    state = states[-1]
    for move in RULES.legal_moves(state):
        action = quick_parse(move, state.board, len(state.players))
        assert action is not None, move
        assert error(state, action) is None, move
