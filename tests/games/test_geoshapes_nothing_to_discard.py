"""A play with nothing to discard (our reading, beyond the seed text).

After a reshuffle the card drawn can picture a shape whose pieces are all in play: the card gives
nothing (rules.py `_do_draw`). A player whose hand was empty and who has nothing on the board then
has no shape to discard, which the seed demands at the end of every play. Before this reading the
engine offered no move at all: a table could not go on and a random bot raised IndexError (found
by random playouts, 4 players, default options, seed 5). Now the play ends without a discard, as
after a trade, and the turn passes; it can never win (the seed: "the winner must have a GeoShape
in his or her hand to discard").
"""

from __future__ import annotations

import random

from tablelog.domain.games.geoshapes.rules import ACT, PLAY, RULES
from tests.games.test_geoshapes import ANN, BEN, play, position, refused, table


def empty_handed_after_a_draw_that_gave_nothing():
    """Ann, empty-handed, draws a Hexagon card while Ben holds every Hexagon piece."""
    start = table()
    pieces = start.supply()["Hexagon"] + start.players[BEN].hand.count("Hexagon")
    ben = [s for s in start.players[BEN].hand if s != "Hexagon"] + ["Hexagon"] * pieces
    state = position(start, turn=ANN, stage=ACT, hands={ANN: [], BEN: ben})
    assert state.supply()["Hexagon"] == 0 and state.deck_can_hold()["Hexagon"]
    return play(state, {"draw": "Hexagon"})


def test_a_card_whose_pieces_are_all_held_gives_nothing_and_the_play_ends_without_a_discard():
    state = empty_handed_after_a_draw_that_gave_nothing()
    assert state.stage == PLAY and state.players[ANN].hand == ()
    assert RULES.legal_moves(state) == [{"end_play": True}]
    after = play(state, {"end_play": True})
    assert (after.turn, after.stage, after.winner) == (BEN, ACT, None)
    assert after.players == state.players and after.stacks == state.stacks


def test_with_nothing_to_discard_a_discard_is_refused_with_its_reason():
    state = empty_handed_after_a_draw_that_gave_nothing()
    refused(state, {"discard": "Square"}, "nothing in hand or on the board", "end_play")


def test_a_player_with_a_shape_to_discard_may_not_end_the_play_without_one():
    state = position(table(), turn=ANN, stage=PLAY)
    refused(state, {"end_play": True}, "discard")
    assert {"end_play": True} not in RULES.legal_moves(state)


def test_random_four_player_games_always_offer_a_move_until_they_end():
    """The playout that found the dead end, and its neighbours: never a position without a
    legal move before the game is over."""
    for seed in range(5, 9):
        rng = random.Random(seed)
        for _ in range(15):
            options = RULES.options({})
            state = RULES.start(4, options, RULES.deal(4, options, rng))
            while RULES.outcome(state) is None:
                moves = RULES.legal_moves(state)
                assert moves, f"no legal move in a running game (seed {seed})"
                state = RULES.apply(state, rng.choice(moves))
