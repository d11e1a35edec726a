"""Topiary: the setup, the turn, every illegal move, sight lines and scoring (the seed's examples).

Expected values are worked out by hand from the rules (RULES.md, Topiary) and written next to
each test; positions are dealt with `start` and then either played with real moves or, for the
scoring examples, given their face-up tiles and visitors directly.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tablelog.domain.games import GAMES, IllegalMove, InvalidSetup
from tablelog.domain.games.topiary.garden import CELLS, SIGHT_LINES, parse_spot
from tablelog.domain.games.topiary.rules import RULES as TOPIARY
from tablelog.domain.games.topiary.rules import Visitor

RULES = GAMES["topiary"]

# A 2-player deal, Elephants removed. Column c holds the seed's sight-line example from c1
# downwards: Polyhedron 3, a face-down tile, Pom Pom 4 (c3, face up), Polyhedron 4, Spiral 5.
GARDEN_2P = {
    "a1": "Whale 1",
    "b1": "T-Rex 1",
    "c1": "Polyhedron 3",
    "d1": "Whale 3",
    "e1": "Polyhedron 1",
    "a2": "Pyramid 1",
    "b2": "Pyramid 2",
    "c2": "Swan 1",
    "d2": "Whale 4",
    "e2": "T-Rex 2",
    "a3": "Spiral 1",
    "b3": "Spiral 2",
    "c3": "Pom Pom 4",
    "d3": "Swan 2",
    "e3": "T-Rex 3",
    "a4": "Pyramid 3",
    "b4": "Pyramid 4",
    "c4": "Polyhedron 4",
    "d4": "Swan 3",
    "e4": "T-Rex 4",
    "a5": "Pom Pom 1",
    "b5": "Pom Pom 2",
    "c5": "Spiral 5",
    "d5": "Whale 5",
    "e5": "Swan 5",
}
HANDS_2P = [["Polyhedron 2", "Pyramid 5", "Swan 4"], ["Spiral 3", "T-Rex 5", "Whale 2"]]
BOX_2P = ["Polyhedron 5", "Spiral 4", "Pom Pom 3", "Pom Pom 5"]  # the 4 tiles nobody is dealt
DEAL_2P = {"removed": "Elephant", "garden": GARDEN_2P, "hands": HANDS_2P}


def start(setup=DEAL_2P, players=2, **options):
    return RULES.start(players, RULES.options(options), json.loads(json.dumps(setup)))


def deal_for(players, seed=0, **options):
    """A random complete deal, as a simulation makes it."""
    return RULES.deal(players, RULES.options(options), random.Random(seed))


def play(state, *moves):
    for move in moves:
        state = RULES.apply(state, move)
    return state


def refused(state, move, *words):
    with pytest.raises(IllegalMove) as error:
        RULES.apply(state, move)
    for word in words:
        assert word in str(error.value)
    return str(error.value)


def position(state, face_up=(), visitors=()):
    """`state` with the cells `face_up` turned over and `visitors` ((spot, seat) pairs) standing."""
    cells = {CELLS.index(cell) for cell in face_up}
    return dataclasses.replace(
        state,
        face_up=tuple(up or i in cells for i, up in enumerate(state.face_up)),
        visitors=state.visitors + tuple(Visitor(spot, seat) for spot, seat in visitors),
    )


def seat_scores(state, seat):
    return RULES.score(state)[seat]


# ---- the components and the setup --------------------------------------------------------------


def test_the_manifest_has_eight_types_of_five_values():
    state = start(players=4, setup=deal_for(4))
    tiles = state.sculptures.tiles()
    assert len(tiles) == 40 and len(set(tiles)) == 40
    assert {t.rsplit(" ", 1)[0] for t in tiles} == {
        "Polyhedron",
        "Pom Pom",
        "Spiral",
        "Pyramid",
        "T-Rex",
        "Swan",
        "Whale",
        "Elephant",
    }


@pytest.mark.parametrize(
    ("players", "removed", "visitors"), [(2, True, 8), (3, True, 6), (4, False, 5)]
)
def test_a_deal_fills_the_garden_hands_of_three_and_removes_a_type_for_two_or_three(
    players, removed, visitors
):
    setup = deal_for(players)
    state = start(setup, players)
    assert len(setup["garden"]) == 25 and [len(h) for h in setup["hands"]] == [3] * players
    assert ("removed" in setup) == removed
    if removed:
        assert not any(setup["removed"] in tile for tile in setup["garden"].values())
        assert len(state.sculptures.tiles()) == 35
    assert state.visitors_each == visitors
    assert state.face_up == tuple(cell == "c3" for cell in CELLS)  # only the centre shows


def test_the_last_player_chooses_variant_deals_the_rest_to_the_last_player():
    setup = deal_for(3, last_player_chooses=True)
    # 3 players: 35 tiles - 25 in the garden - 9 in hands = 1 more for the last player.
    assert [len(h) for h in setup["hands"]] == [3, 3, 4]


def test_options_are_validated_and_accept_command_line_strings():
    assert RULES.options({}) == {"last_player_chooses": False, "manifest": "topiary"}
    assert RULES.options({"last_player_chooses": "yes"})["last_player_chooses"] is True
    with pytest.raises(InvalidSetup, match="true or false"):
        RULES.options({"last_player_chooses": "maybe"})
    with pytest.raises(InvalidSetup, match="last_player_chooses"):
        RULES.options({"players_variant": "half"})
    with pytest.raises(InvalidSetup, match="no manifest named 'no-such-club'"):
        RULES.options({"manifest": "no-such-club"})


@pytest.mark.parametrize(
    ("players", "setup", "words"),
    [
        (5, DEAL_2P, "2 to 4 players"),
        (2, {"garden": {"c3": "Swan 1"}}, "one sculpture type is removed"),
        (4, {"removed": "Swan", "garden": {"c3": "Swan 1"}}, "no sculpture type is removed"),
        (2, {"removed": "Elephant", "garden": {"a1": "Swan 1"}}, "c3"),
        (2, {"removed": "Elephant", "garden": {"c3": "Elephant 2"}}, "removed"),
        (
            2,
            {"removed": "Elephant", "garden": {"c3": "Swan 1", "a1": "Swan 1"}},
            "Swan 1 dealt twice",
        ),
        (
            2,
            {"removed": "Elephant", "garden": {"c3": "Swan 1"}, "hands": [["Swan 1"], []]},
            "Swan 1 dealt twice",
        ),
        (2, {"removed": "Elephant", "garden": {"c3": "Swan 1"}, "hands": [["Swan 2"]]}, "2 hands"),
        (2, {"removed": "Elephant", "garden": {"c3": "Swan 1", "f9": "Swan 2"}}, "not a cell"),
        (
            2,
            {
                "removed": "Elephant",
                "garden": {"c3": "Swan 1"},
                "hands": [["Swan 2", "Swan 3", "Swan 4", "Swan 5"], []],
            },
            "dealt 3 tiles, not 4",
        ),
    ],
)
def test_a_setup_that_does_not_fit_is_refused_with_its_reason(players, setup, words):
    with pytest.raises(InvalidSetup, match=words):
        RULES.start(players, RULES.options({}), setup)


# ---- the visitor spots ----------------------------------------------------------------------


def test_there_are_56_spots_20_straight_and_36_diagonal():
    straight = [s for s in SIGHT_LINES if len(s.split(":")[1]) == 1]
    assert len(SIGHT_LINES) == 56 and len(straight) == 20
    diagonal_lengths = sorted(len(line) for s, line in SIGHT_LINES.items() if s not in straight)
    # each length 1-4 occurs on 4 diagonals (2 per orientation), length 5 on 2; two ends each
    assert diagonal_lengths == sorted([1, 2, 3, 4] * 8 + [5] * 4)


@pytest.mark.parametrize(
    ("spot", "line"),
    [
        ("c1:S", "c1 c2 c3 c4 c5"),
        ("e3:W", "e3 d3 c3 b3 a3"),
        ("a1:SE", "a1 b2 c3 d4 e5"),
        ("e5:NW", "e5 d4 c3 b2 a1"),
        ("a1:SW", "a1"),
        ("a1:NE", "a1"),
        ("b1:SW", "b1 a2"),
        ("a2:NE", "a2 b1"),
        ("d5:NE", "d5 e4"),
    ],
)
def test_a_spot_looks_from_its_first_tile_along_its_direction(spot, line):
    assert " ".join(CELLS[c] for c in SIGHT_LINES[spot]) == line


def test_spot_names_are_read_in_any_case():
    assert parse_spot("C1:s") == "c1:S"


# ---- turns and rearranging -------------------------------------------------------------------


def test_players_take_turns_in_seat_order_until_every_visitor_is_placed():
    state = start(deal_for(3), 3)
    spots = list(SIGHT_LINES)
    for turn in range(18):  # 3 players x 6 visitors
        assert RULES.to_move(state) == (turn % 3,)
        assert RULES.outcome(state) is None
        state = RULES.apply(state, {"visitor": spots[turn]})
    assert RULES.to_move(state) == ()
    assert RULES.outcome(state) is not None


def test_a_visitor_takes_a_face_down_tile_of_its_line_and_a_hand_tile_goes_face_up_there():
    state = play(start(), {"visitor": "c1:S", "take": "c2", "place": "Swan 4"})
    c2 = CELLS.index("c2")
    assert state.tiles[c2] == "Swan 4" and state.face_up[c2]
    assert state.hands[0] == ("Polyhedron 2", "Pyramid 5", "Swan 1")  # the taken tile stays
    assert state.visitors == (Visitor("c1:S", 0),)


def test_the_tile_just_taken_may_go_straight_back_face_up():
    state = play(start(), {"visitor": "c1:S", "take": "c1", "place": "Polyhedron 3"})
    assert state.face_up[CELLS.index("c1")] and state.hands[0] == tuple(HANDS_2P[0])


def test_legal_moves_of_a_known_deal_are_exact():
    moves = RULES.legal_moves(start())
    c1_from_c2 = {m["place"] for m in moves if m.get("visitor") == "c1:S" and m.get("take") == "c2"}
    assert c1_from_c2 == {"Polyhedron 2", "Pyramid 5", "Swan 4", "Swan 1"}
    assert not any(m.get("take") == "c3" for m in moves)  # c3 is face up
    assert sum(1 for m in moves if set(m) == {"visitor"}) == 56


# ---- every illegal case ---------------------------------------------------------------------


def test_an_occupied_spot_is_refused():
    state = play(start(), {"visitor": "c1:S"})
    refused(state, {"visitor": "c1:S"}, "visitor spot c1:S is taken")


@pytest.mark.parametrize(
    ("spot", "words"),
    [
        ("c3:S", ("no visitor spot c3:S", "c1:S")),  # an inner tile: the spot is at c1
        ("a1:N", ("no visitor spot a1:N", "a5:N")),
        ("b2:SE", ("no visitor spot b2:SE", "a1:SE")),
        ("f1:S", ("not a cell",)),
        ("c1:UP", ("direction",)),
        ("c1", ("not a visitor spot",)),
    ],
)
def test_a_spot_that_does_not_exist_is_refused(spot, words):
    refused(start(), {"visitor": spot}, *words)


def test_taking_a_face_up_tile_is_refused():
    refused(
        start(),
        {"visitor": "c1:S", "take": "c3", "place": "Swan 4"},
        "c3 is face up",
        "only face-down tiles are taken",
    )


def test_taking_a_tile_outside_the_sight_line_is_refused():
    refused(
        start(),
        {"visitor": "c1:S", "take": "d2", "place": "Swan 4"},
        "d2 is not in the sight line of c1:S",
        "c1 c2 c3 c4 c5",
    )


def test_placing_a_tile_not_in_hand_is_refused():
    state = start()
    refused(
        state,
        {"visitor": "c1:S", "take": "c2", "place": "T-Rex 5"},
        "T-Rex 5 is not in your hand",
        "Polyhedron 2, Pyramid 5, Swan 4",
        "took Swan 1",
    )
    refused(
        state,
        {"visitor": "c1:S", "take": "c2", "place": "Elephant 5"},
        "Elephant 5 is not in this game",
        "removed",
    )
    refused(state, {"visitor": "c1:S", "take": "c2", "place": "Swan 6"}, "no Swan 6")
    refused(state, {"visitor": "c1:S", "take": "c2", "place": "Unicorn 2"}, "not a sculpture tile")


def test_taking_without_placing_is_refused():
    refused(start(), {"visitor": "c1:S", "take": "c2"}, "taking and placing go together")


def test_an_identity_that_contradicts_the_deal_is_refused():
    refused(
        start(),
        {"visitor": "c1:S", "take": "c2", "place": "Swan 4", "took": "Swan 2"},
        "the tile at c2 is Swan 1",
        "not Swan 2",
    )


def test_moving_after_the_end_is_refused():
    state = start()
    for spot in list(SIGHT_LINES)[:16]:  # 2 players x 8 visitors
        state = RULES.apply(state, {"visitor": spot})
    assert RULES.outcome(state) is not None and RULES.legal_moves(state) == []
    refused(state, {"visitor": "e5:N"}, "the game is over")
    refused(state, {"reveal": HANDS_2P[0]}, "the game is over")


def test_only_the_player_to_move_is_awaited():
    """The recorder refuses a move from any seat not in `to_move`; the engine keeps it right."""
    state = start(deal_for(4), 4)
    for turn, spot in enumerate(["c1:S", "a1:SE", "e3:W", "c5:N", "a3:E"]):
        assert RULES.to_move(state) == (turn % 4,)
        state = RULES.apply(state, {"visitor": spot})
    assert [v.seat for v in state.visitors] == [0, 1, 2, 3, 0]


# ---- sight and scoring: the seed's examples --------------------------------------------------


def test_the_seeds_sight_line_example_played_out():
    """Polyhedron 3, Pom Pom 4 and Spiral 5 are seen through the face-down tile; the Polyhedron
    4 is hidden behind the Pom Pom 4."""
    state = play(
        start(),
        {"visitor": "c1:S", "take": "c1", "place": "Polyhedron 3"},
        {"visitor": "c5:N", "take": "c4", "place": "Polyhedron 4"},
        {"visitor": "a5:E", "take": "c5", "place": "Spiral 5"},
    )
    assert not state.face_up[CELLS.index("c2")]
    assert TOPIARY.sight(state, "c1:S") == ["Polyhedron 3", "Pom Pom 4", "Spiral 5"]
    assert TOPIARY.sight(state, "c5:N") == ["Spiral 5"]  # from the other end, nothing is larger
    view = seat_scores(state, 0)["details"]["visitors"][0]
    assert view == {
        "spot": "c1:S",
        "sees": ["Polyhedron 3", "Pom Pom 4", "Spiral 5"],
        "points": 12,
        "bonus": 0,
    }


def test_example_b_three_t_rex_give_three_bonus_points_and_the_hidden_swan_none():
    garden = {"a2": "T-Rex 2", "b2": "T-Rex 3", "c2": "Swan 4", "d2": "T-Rex 5", "e2": "Swan 5"}
    state = position(start(_deal_with(garden)), face_up=garden, visitors=[("a2:E", 0)])
    blue = seat_scores(state, 0)
    assert blue["details"]["visitors"][0]["sees"] == ["T-Rex 2", "T-Rex 3", "Swan 4", "T-Rex 5"]
    assert blue["categories"]["visitors"] == 2 + 3 + 4 + 5
    assert blue["categories"]["type bonus"] == 3


def test_two_types_seen_twice_both_give_a_bonus():
    garden = {"a2": "T-Rex 2", "b2": "T-Rex 3", "c2": "Swan 4", "e2": "Swan 5"}  # d2 face down
    state = position(start(_deal_with(garden)), face_up=garden, visitors=[("a2:E", 0)])
    assert seat_scores(state, 0)["categories"]["type bonus"] == 2 + 2


def _deal_with(garden, hands=HANDS_2P):
    """DEAL_2P with the tiles of `garden` moved into those cells; each displaced tile takes the
    moved tile's old place (another cell or a hand), so every tile stays unique."""
    cells, hands = dict(GARDEN_2P), [list(hand) for hand in hands]
    for cell, tile in garden.items():
        displaced = cells[cell]
        for other in [c for c, t in cells.items() if t == tile]:
            cells[other] = displaced
        for hand in hands:
            if tile in hand:
                hand[hand.index(tile)] = displaced
        cells[cell] = tile
    return {"removed": "Elephant", "garden": cells, "hands": hands}


# Red's position in a 4-player game (seed: visitors 9+12+9+5+5 = 40, hand 3 (Example C), 43).
RED_GARDEN = {
    "a1": "Whale 4",
    "b1": "Swan 5",
    "c1": "Polyhedron 2",
    "d1": "Pom Pom 1",
    "e1": "Polyhedron 3",
    "a2": "Elephant 1",
    "b2": "Elephant 2",
    "c2": "Elephant 3",
    "d2": "Elephant 4",
    "e2": "Elephant 5",
    "a3": "Swan 1",
    "b3": "Swan 2",
    "c3": "Pyramid 3",
    "d3": "Swan 3",
    "e3": "Pom Pom 4",
    "a4": "Pyramid 1",
    "b4": "Pyramid 2",
    "c4": "Pyramid 4",
    "d4": "Spiral 1",
    "e4": "Polyhedron 4",
    "a5": "T-Rex 4",
    "b5": "Whale 5",
    "c5": "Spiral 2",
    "d5": "Spiral 3",
    "e5": "Spiral 5",
}
RED_UP = ["a1", "b1", "c1", "e1", "c3", "e3", "e4", "a5", "b5", "e5"]
RED_HANDS = [
    ["T-Rex 1", "Whale 2", "Pyramid 5"],
    ["Polyhedron 1", "Pom Pom 2", "Swan 4"],
    ["T-Rex 2", "Whale 1", "Spiral 4"],
    ["Pom Pom 3", "T-Rex 3", "Whale 3"],
]
RED_VISITORS = [("a1:E", 0), ("e1:S", 0), ("a5:E", 0), ("b1:S", 0), ("e5:NE", 0)]


def red_position():
    state = start({"garden": RED_GARDEN, "hands": RED_HANDS}, players=4)
    return position(state, face_up=RED_UP, visitors=RED_VISITORS)


def test_reds_visitors_see_9_12_9_5_5():
    views = seat_scores(red_position(), 0)["details"]["visitors"]
    assert [(v["spot"], v["sees"]) for v in views] == [
        ("a1:E", ["Whale 4", "Swan 5"]),  # Polyhedra 2 and 3 hidden
        ("e1:S", ["Polyhedron 3", "Pom Pom 4", "Spiral 5"]),  # Polyhedron 4 hidden
        ("a5:E", ["T-Rex 4", "Whale 5"]),  # Spiral 5 is not larger
        ("b1:S", ["Swan 5"]),  # Whale 5 is not larger
        ("e5:NE", ["Spiral 5"]),
    ]
    assert [v["points"] for v in views] == [9, 12, 9, 5, 5]


def test_example_c_hand_tiles_score_when_own_visitors_see_a_larger_one_of_their_type():
    red = seat_scores(red_position(), 0)
    assert red["details"]["hand"] == [
        {"tile": "Pyramid 5", "points": 0},  # nothing is larger
        {"tile": "T-Rex 1", "points": 1},  # T-Rex 4 is seen
        {"tile": "Whale 2", "points": 2},
    ]  # Whales 4, 5 seen
    assert red["categories"] == {"visitors": 40, "type bonus": 0, "hand": 3}
    assert red["total"] == 43


def test_a_larger_sculpture_seen_only_by_someone_else_does_not_score_a_hand_tile():
    # Player 2 holds Swan 4; Swan 5 (b1) is seen by red's b1:S, and by nobody of player 2.
    state = red_position()
    assert seat_scores(state, 1)["details"]["hand"][2] == {"tile": "Swan 4", "points": 0}
    state = position(state, visitors=[("b5:N", 1)])  # b5's Whale 5 hides the Swan 5 at b1
    assert seat_scores(state, 1)["categories"]["hand"] == 0
    state = position(state, visitors=[("b1:SW", 1)])  # b1, a2: sees the Swan 5
    assert seat_scores(state, 1)["details"]["hand"][2] == {"tile": "Swan 4", "points": 4}


# ---- winner and tie-breaks ------------------------------------------------------------------

THROUGH_C3 = ["c1:S", "c5:N", "a3:E", "e3:W"]  # with only c3 (Pom Pom 4) face up: 4 each
BLANK = [
    s for s, line in SIGHT_LINES.items() if not {CELLS.index("c3"), CELLS.index("a1")} & set(line)
]  # see nothing here


def finished(ann, ben, hands=HANDS_2P, face_up=()):
    """A finished 2-player game: Ann (seat 0) and Ben (seat 1) get up to 8 visitors on BLANK."""
    blank = iter([s for s in BLANK if s not in (*ann, *ben)])
    ann = list(ann) + [next(blank) for _ in range(8 - len(ann))]
    ben = list(ben) + [next(blank) for _ in range(8 - len(ben))]
    visitors = [(s, 0) for s in ann] + [(s, 1) for s in ben]
    return position(start(_deal_with({}, hands)), face_up=face_up, visitors=visitors)


def test_the_highest_total_wins():
    state = finished(THROUGH_C3[:3], THROUGH_C3[3:])
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranking == ((0,), (1,))
    assert "highest total, 12 points" in outcome.reason


def test_a_tie_on_points_goes_to_more_hand_points():
    # Ann: 2 visitors through c3 (8) + Pom Pom 3 in hand, smaller than the Pom Pom 4 she sees (3).
    # Ben: 2 through c3 (8) + a1 turned up (Whale 1) seen from a1:NE, a1:SW and a1:E (3).
    hands = [["Polyhedron 2", "Pyramid 5", "Pom Pom 3"], HANDS_2P[1]]
    state = finished(
        ["c1:S", "c5:N"], ["a3:E", "e3:W", "a1:NE", "a1:SW", "a1:E"], hands=hands, face_up=["a1"]
    )
    totals = [(s["total"], s["categories"]["hand"]) for s in RULES.score(state)]
    assert totals == [(11, 3), (11, 0)]
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and "hand points" in outcome.reason


def test_a_tie_on_points_and_hand_points_goes_to_the_later_player():
    state = finished(["c1:S", "c5:N"], ["a3:E", "e3:W"])
    assert [s["total"] for s in RULES.score(state)] == [8, 8]
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.ranking == ((1,), (0,))
    assert "later in turn order" in outcome.reason


# ---- the last player chooses ----------------------------------------------------------------


def choosing_start():
    hands = [HANDS_2P[0], HANDS_2P[1] + BOX_2P]  # Ben is dealt the 4 left-over tiles too
    return start(
        {"removed": "Elephant", "garden": GARDEN_2P, "hands": hands}, last_player_chooses=True
    )


def test_the_last_player_first_keeps_three_of_the_tiles_dealt():
    state = choosing_start()
    assert RULES.to_move(state) == (1,)
    assert len(RULES.legal_moves(state)) == 35  # 3 of 7
    refused(state, {"visitor": "c1:S"}, "player 2 first keeps 3")
    state = RULES.apply(state, {"keep": ["Pom Pom 5", "Polyhedron 5", "T-Rex 5"]})
    assert state.hands[1] == ("Polyhedron 5", "Pom Pom 5", "T-Rex 5")
    assert state.box == ("Pom Pom 3", "Spiral 3", "Spiral 4", "Whale 2")  # seen, then boxed
    assert RULES.to_move(state) == (0,)
    refused(state, {"keep": ["Spiral 3", "Spiral 4", "Whale 2"]}, "only the last player keeps")


def test_keeping_what_was_not_dealt_or_too_few_is_refused():
    state = choosing_start()
    refused(
        state, {"keep": ["Swan 4", "T-Rex 5", "Whale 2"]}, "Swan 4 is already in player 1's hand"
    )
    refused(state, {"keep": ["Pom Pom 5", "T-Rex 5"]}, "dealt 7 tiles", "keep 3")
    refused(state, {"keep": ["Pom Pom 5", "T-Rex 5", "Whale 2", "Spiral 3"]}, "not 4")
    refused(state, {"keep": ["Pom Pom 5", "Pom Pom 5", "T-Rex 5"]}, "Pom Pom 5 is named twice")


def test_a_normal_game_has_no_keeping():
    refused(start(), {"keep": ["Swan 4", "Pyramid 5", "Polyhedron 2"]}, "only the last player")
