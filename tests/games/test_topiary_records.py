"""Topiary records: partial information (what a table saw), the reveal at the end, the example
match in data/examples, and properties over random games."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games import GAMES, IllegalMove, UnknownInformation
from tests.packaged import data_path

from .test_topiary import DEAL_2P, refused

RULES = GAMES["topiary"]
EXAMPLE = data_path("examples", "topiary.json")
TABLE_SETUP = {"removed": "Elephant", "garden": {"c3": "Pom Pom 4"}}  # all a table sees


def table_start(setup=TABLE_SETUP, players=2, **options):
    return RULES.start(players, RULES.options(options), setup)


def example():
    record = json.loads(EXAMPLE.read_text())
    moves = [
        (event["seat"], event["move"]) for event in record["events"] if event["type"] == "move"
    ]
    return record, moves


def replay(record, moves):
    state = RULES.start(len(record["seats"]), RULES.options(record["options"]), record["setup"])
    for seat, move in moves:
        assert RULES.to_move(state) == (record["seats"].index(seat),)
        state = RULES.apply(state, move)
    return state


# ---- the example match ----------------------------------------------------------------------


def test_the_example_match_replays_to_the_scores_worked_out_by_hand():
    record, moves = example()
    state = replay(record, moves)
    ann, ben = RULES.score(state)
    # Ann's visitors: c1:S 3+4+5, a5:E 3+5, a4:E 5, e5:W 5, e1:SW 4+5, d5:N 5, a3:E 4, a1:E 2+3;
    # bonus: two Spirals (a5:E) and two Polyhedra (a1:E); hand Pyramid 4 < 5, Swan 3 < 5,
    # Whale 1 < 4: all score.
    assert [v["points"] for v in ann["details"]["visitors"]] == [12, 8, 5, 5, 9, 5, 4, 5]
    assert ann["categories"] == {"visitors": 53, "type bonus": 4, "hand": 8}
    # Ben's: c5:N 5, e1:S 4+5, a2:E 2+4, a1:SE 2+4+5, b1:S 2+5, e3:W 4, e5:NW 5, a5:NE 3+5;
    # bonus: two T-Rex (e1:S), two Whales (a2:E); hand Pom Pom 1, Pyramid 2, T-Rex 3 all score.
    assert [v["points"] for v in ben["details"]["visitors"]] == [5, 9, 6, 11, 7, 4, 5, 8]
    assert ben["categories"] == {"visitors": 55, "type bonus": 4, "hand": 6}
    claimed = next(e["scores"] for e in record["events"] if e["type"] == "claim")
    assert claimed == {"Ann": ann["total"], "Ben": ben["total"]} == {"Ann": 65, "Ben": 65}
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and "hand points (8 to 6)" in outcome.reason
    assert RULES.to_move(state) == () and RULES.legal_moves(state) == []


def test_the_example_is_also_legal_against_the_full_deal_it_was_played_from():
    record, moves = example()
    full = dict(record, setup=DEAL_2P)
    state = replay(full, [m for m in moves if "reveal" not in m[1]])
    assert RULES.score(state) == RULES.score(replay(record, moves))


# ---- the end of a logged game -------------------------------------------------------------


def before_the_reveal():
    record, moves = example()
    return replay(record, moves[:-2])


def test_scoring_needs_the_hands_and_says_which_are_missing():
    state = before_the_reveal()
    with pytest.raises(UnknownInformation) as error:
        RULES.score(state)
    assert "player 1's hand has 3 unrevealed" in str(error.value)
    assert "player 2's hand has 3 unrevealed" in str(error.value)
    # Revealing the hands is the last part of play: the game runs until they are recorded.
    assert RULES.outcome(state) is None and RULES.to_move(state) == (0,)
    state = RULES.apply(state, {"reveal": ["Pyramid 4", "Swan 3", "Whale 1"]})
    with pytest.raises(UnknownInformation) as error:
        RULES.score(state)
    assert "player 2's hand" in str(error.value) and "player 1" not in str(error.value)
    assert RULES.to_move(state) == (1,)


def test_mid_game_the_outcome_is_none_and_the_score_names_the_unknown_hands():
    record, moves = example()
    state = replay(record, moves[:5])
    assert RULES.outcome(state) is None
    with pytest.raises(UnknownInformation, match="player 1's hand has 3 unrevealed"):
        RULES.score(state)


def test_a_reveal_is_checked_against_everything_known():
    state = before_the_reveal()
    refused(
        state,
        {"reveal": ["Swan 5", "Swan 3", "Whale 1"]},
        "Swan 5 is already face up at e5",
        "only one Swan 5",
    )
    refused(state, {"reveal": ["Swan 3", "Whale 1"]}, "the whole hand: 3 tiles")
    refused(state, {"reveal": ["Swan 3", "Swan 3", "Whale 1"]}, "Swan 3 is named twice")
    refused(state, {"reveal": ["Elephant 3", "Swan 3", "Whale 1"]}, "not in this game")
    state = RULES.apply(state, {"reveal": ["Pyramid 4", "Swan 3", "Whale 1"]})
    refused(
        state,
        {"reveal": ["Pom Pom 1", "Pyramid 2", "Swan 3"]},
        "Swan 3 is already in player 1's hand",
    )


def test_a_reveal_must_show_the_tiles_the_record_already_knows():
    # Ben takes d2, the record notes it is the Whale 4 and he keeps it: his reveal must show it.
    state = table_start()
    state = RULES.apply(state, {"visitor": "c1:S", "take": "c1", "place": "Polyhedron 3"})
    state = RULES.apply(
        state, {"visitor": "a2:E", "take": "d2", "took": "Whale 4", "place": "Swan 1"}
    )
    assert state.hands[1] == ("Whale 4", None, None)
    state = _fast_forward(state)
    assert RULES.to_move(state) == (0,)
    state = RULES.apply(state, {"reveal": ["Pyramid 4", "Swan 3", "Whale 1"]})
    refused(
        state,
        {"reveal": ["Pom Pom 1", "Pyramid 2", "T-Rex 3"]},
        "known to hold Whale 4",
        "must show it",
    )
    state = RULES.apply(state, {"reveal": ["Pom Pom 1", "Whale 4", "T-Rex 3"]})
    assert RULES.outcome(state) is not None


def _fast_forward(state):
    """Place the remaining visitors without rearranging."""
    while len(state.visitors) < 16:
        state = RULES.apply(state, next(m for m in RULES.legal_moves(state) if len(m) == 1))
    return state


def test_revealing_before_the_end_is_refused():
    refused(
        table_start(), {"reveal": ["Swan 3", "Swan 2", "Whale 1"]}, "hands are revealed at the end"
    )


# ---- identities during play ---------------------------------------------------------------


def test_a_second_copy_of_a_tile_is_refused_with_where_the_first_is():
    state = RULES.apply(table_start(), {"visitor": "c1:S", "take": "c1", "place": "Swan 4"})
    refused(
        state,
        {"visitor": "a1:E", "take": "b1", "place": "Swan 4"},
        "Swan 4 is already face up at c1",
        "there is only one Swan 4",
    )
    refused(
        state,
        {"visitor": "a1:E", "take": "b1", "place": "Pom Pom 4"},
        "Pom Pom 4 is already face up at c3",
    )
    refused(
        state,
        {"visitor": "a1:E", "take": "b1", "took": "Swan 4", "place": "Whale 1"},
        "Swan 4 is already face up at c1",
    )


def test_a_table_records_only_what_it_sees():
    state = RULES.apply(table_start(), {"visitor": "c1:S", "take": "c2", "place": "Swan 4"})
    c2 = 7
    assert state.tiles[c2] == "Swan 4" and state.face_up[c2]
    assert state.hands[0] == (None, None, None)  # which tile went to the hand is not known
    assert state.tiles.count(None) == 23


def test_a_known_own_hand_still_allows_placing_the_unseen_tile_just_taken():
    setup = dict(TABLE_SETUP, hands=[["Polyhedron 2", "Pyramid 5", "Swan 4"], []])
    state = table_start(setup)
    # Whale 1 is not in Ann's known hand, but it may be the tile she just took from c1.
    after = RULES.apply(state, {"visitor": "c1:S", "take": "c1", "place": "Whale 1"})
    assert after.hands[0] == ("Polyhedron 2", "Pyramid 5", "Swan 4")
    # Once the record knows the taken tile, the hand is fully known: Whale 2 is in none of it.
    refused(
        state,
        {"visitor": "c1:S", "take": "c1", "took": "Whale 1", "place": "Whale 2"},
        "Whale 2 is not in your hand",
        "Polyhedron 2, Pyramid 5, Swan 4",
        "took Whale 1",
    )


def test_a_tile_known_in_a_hand_cannot_turn_up_elsewhere():
    setup = dict(TABLE_SETUP, hands=[["Polyhedron 2", "Pyramid 5", "Swan 4"], []])
    state = RULES.apply(table_start(setup), {"visitor": "c1:S"})
    refused(
        state,
        {"visitor": "a1:E", "take": "a1", "place": "Swan 4"},
        "Swan 4 is already in player 1's hand",
    )


def test_legal_moves_offer_every_identity_the_manifest_still_allows():
    moves = RULES.legal_moves(table_start())
    places = {m["place"] for m in moves if m.get("visitor") == "c1:S" and m.get("take") == "c1"}
    everything = set(table_start().sculptures.tiles())
    assert places == everything - {"Pom Pom 4"} and len(places) == 34
    state = RULES.apply(table_start(), {"visitor": "c1:S", "take": "c1", "place": "Swan 4"})
    places = {m["place"] for m in RULES.legal_moves(state) if m.get("take") == "a1"}
    assert "Swan 4" not in places and len(places) == 33


def test_a_partial_state_survives_json():
    state = RULES.apply(table_start(), {"visitor": "c1:S", "take": "c2", "place": "Swan 4"})
    assert RULES.decode(json.loads(json.dumps(RULES.encode(state)))) == state


def test_the_greedy_measure_counts_what_a_player_can_see_mid_game():
    state = RULES.apply(table_start(), {"visitor": "c1:S", "take": "c1", "place": "Polyhedron 3"})
    # Ann's c1:S sees Polyhedron 3 and Pom Pom 4 (7); Ben has no visitor yet; hands are unknown.
    assert RULES.evaluate(state, 0) == 7 and RULES.evaluate(state, 1) == -7


# ---- the last player chooses, at a table ----------------------------------------------------


def test_at_a_table_the_last_player_keeps_unseen_tiles():
    state = table_start(last_player_chooses=True)
    assert state.hands[1] == (None,) * 7
    assert {"keep": []} in RULES.legal_moves(state)
    refused(state, {"keep": ["Pom Pom 4"]}, "Pom Pom 4 is already face up at c3")
    state = RULES.apply(state, {"keep": ["Swan 4"]})  # the record knows one of the three
    assert state.hands[1] == ("Swan 4", None, None) and state.box == ()
    assert RULES.to_move(state) == (0,)


# ---- properties over random games -----------------------------------------------------------


def random_game(players, seed, **options):
    rng = random.Random(seed)
    opts = RULES.options(options)
    setup = RULES.deal(players, opts, rng)
    state = RULES.start(players, opts, setup)
    moves = []
    while RULES.outcome(state) is None:
        move = RULES.random_move(state, rng)
        state = RULES.apply(state, move)
        moves.append(move)
    return opts, setup, moves, state


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), choose=st.booleans())
def test_a_table_record_of_a_dealt_game_scores_the_same(players, seed, choose):
    """The moves of a fully dealt game, recorded from a setup that knows only c3 (and the
    removed type), are accepted; with the hands revealed at the end, the scores are equal."""
    opts, setup, moves, full = random_game(players, seed, last_player_chooses=choose)
    table = {key: value for key, value in setup.items() if key == "removed"}
    table["garden"] = {"c3": setup["garden"]["c3"]}
    state = RULES.start(players, opts, table)
    for move in moves:
        state = RULES.apply(state, move)
    while RULES.to_move(state):
        (seat,) = RULES.to_move(state)
        state = RULES.apply(state, {"reveal": list(full.hands[seat])})
    assert RULES.score(state) == RULES.score(full)
    assert RULES.outcome(state) == RULES.outcome(full)
    for seat in range(players):
        assert RULES.evaluate(state, seat) == RULES.evaluate(full, seat)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_every_step_of_a_last_player_chooses_game_replays_equal(players, seed):
    opts, setup, moves, final = random_game(players, seed, last_player_chooses=True)
    state = RULES.start(players, opts, json.loads(json.dumps(setup)))
    for move in json.loads(json.dumps(moves)):
        state = RULES.apply(state, move)
    assert state == final and len(moves) == 1 + players * state.visitors_each


SPOTS = st.sampled_from(["c1:S", "a1:SE", "e3:W", "c3:S", "a1:N", "z9:S", "c1:", ":S", ""])
TILES = st.sampled_from(["Swan 4", "Pom Pom 4", "Elephant 1", "Swan 0", "swan 4", "Swan", "4"])
JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=8),
    st.booleans(),
    SPOTS,
    TILES,
    st.lists(TILES, max_size=4),
    st.lists(st.integers(), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(
    move=st.dictionaries(
        st.sampled_from(["visitor", "take", "place", "took", "keep", "reveal", "to"]),
        JUNK,
        max_size=4,
    ),
    partial=st.booleans(),
)
def test_junk_moves_are_refused_with_illegal_move_and_nothing_else(move, partial):
    state = table_start() if partial else RULES.start(2, RULES.options({}), DEAL_2P)
    try:
        RULES.apply(state, move)
    except IllegalMove as error:
        assert str(error).strip()
