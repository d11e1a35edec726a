"""`base.per_state`, the engines' one cache: a value kept on one state object, never on another.

Golden data (test_golden.py) shows the engines answer alike with their kept values; these check
the helper itself: worked out once per state, invisible to ==, repr and the encoding, and gone
from every state built anew (`dataclasses.replace`, a decode, GeoShapes' own copy).
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tablelog.domain.games import GAMES
from tablelog.domain.games.base import per_state
from tablelog.domain.games.geoshapes import rules as geoshapes


@dataclasses.dataclass(frozen=True)
class Pile:
    stones: tuple[int, ...]


ASKED: list[Pile] = []


@per_state
def weight(pile: Pile) -> int:
    ASKED.append(pile)
    return sum(pile.stones)


def test_a_value_is_worked_out_once_per_state():
    ASKED.clear()
    pile = Pile((1, 2, 3))
    assert weight(pile) == weight(pile) == 6
    assert ASKED == [pile]


def test_a_kept_value_is_invisible_to_equality_repr_and_fields():
    pile = Pile((4, 5))
    fresh = Pile((4, 5))
    weight(pile)
    assert pile == fresh and repr(pile) == repr(fresh) and hash(pile) == hash(fresh)
    assert dataclasses.asdict(pile) == {"stones": (4, 5)}


def test_a_state_built_anew_starts_with_nothing_kept():
    ASKED.clear()
    pile = Pile((1,))
    weight(pile)
    changed = dataclasses.replace(pile, stones=(1, 1))
    assert weight.known(changed) is None
    assert weight(changed) == 2
    assert ASKED == [pile, changed]


def test_a_value_handed_on_is_the_one_given():
    before, after = Pile((2,)), Pile((2, 3))
    weight.give(after, weight(before) + 3)
    assert weight.known(after) == 5 and weight(after) == 5


def test_only_a_named_function_is_kept():
    with pytest.raises(TypeError, match="named function"):
        per_state(lambda pile: 0)


@per_state
def pieces_in_hands(state: geoshapes.GeoShapesState) -> int:
    return sum(len(player.hand) for player in state.players)


def test_geoshapes_copy_of_a_state_leaves_its_kept_values_behind():
    rules = GAMES["geoshapes"]
    options = rules.options({})
    state = rules.start(2, options, rules.deal(2, options, random.Random(4)))
    pieces_in_hands(state)
    after = rules.apply(state, rules.random_move(state, random.Random(4)))
    assert pieces_in_hands.known(after) is None
    assert rules.encode(after) == rules.encode(
        rules.decode(json.loads(json.dumps(rules.encode(after))))
    )
