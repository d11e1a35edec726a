"""Determinisation redraws only what the searching seat cannot see: its own hand, the face-up
tiles and the counts stay; the hidden identities come from the same pool."""

from __future__ import annotations

import random
from collections import Counter

from tablelog.domain.agents.determinise import determinise
from tablelog.domain.games import get_rules


def dealt(game: str, players: int = 2, moves: int = 4):
    rules, rng = get_rules(game), random.Random(2)
    options = rules.options({})
    state = rules.start(players, options, rules.deal(players, options, rng))
    for _ in range(moves):
        state = rules.apply(state, rules.random_move(state, rng))
    return rules, state


def test_topiary_keeps_what_the_seat_sees():
    rules, state = dealt("topiary", players=3)
    worlds = [determinise(rules, state, 0, random.Random(n)) for n in range(20)]
    hidden = [i for i, up in enumerate(state.face_up) if not up]
    for world in worlds:
        assert world.hands[0] == state.hands[0] and world.face_up == state.face_up
        assert [world.tiles[i] for i, up in enumerate(state.face_up) if up] == [
            state.tiles[i] for i, up in enumerate(state.face_up) if up
        ]
        unseen = [world.tiles[i] for i in hidden] + [t for h in world.hands[1:] for t in h]
        assert Counter(unseen) == Counter(
            [state.tiles[i] for i in hidden] + [t for h in state.hands[1:] for t in h]
        )
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert len({w.tiles for w in worlds}) > 1  # it does redraw


def test_topas_redraws_the_pile_and_the_other_hand():
    rules, state = dealt("topas")
    world = determinise(rules, state, 1, random.Random(0))
    assert world.hands[1] == state.hands[1]
    assert Counter(world.pile + world.hands[0]) == Counter(state.pile + state.hands[0])
    assert (world.pile, world.hands[0]) != (state.pile, state.hands[0])


def test_geoshapes_shuffles_only_the_deck():
    rules, state = dealt("geoshapes")
    world = determinise(rules, state, 0, random.Random(0))
    assert Counter(world.deck) == Counter(state.deck) and world.players == state.players


def test_open_games_are_left_alone():
    for game in ("topitop", "total-landscaping"):
        rules, state = dealt(game)
        assert determinise(rules, state, 0, random.Random(0)) is state
