"""GeoShapes' rules on the version-1 default board (data/manifests/geoshapes.json, which stays a
board any match may name): the deal, the three turn actions, placing, the fit restriction, the
Wild, switching, the discard, the win, the deck running out, and every way to break them. What
version 2 changed (compulsory placing, the reshuffled deck, the new default board) is tested in
test_geoshapes_v2.py.

That board's north half, used throughout (values in brackets):
  North-West  Sailboat = Trapezoid [6], Right Triangle x2 [2], Rectangle [4]
              House    = Square x2 [4], Isosceles Triangle [3], Rectangle
              circle   = Semicircle x2 [3]
  North-East  Great Triangle = Trapezoid x2, Rhombus [5], Equilateral Triangle [5] (one card)
              Kite           = Right Triangle x2, Isosceles Triangle x2
              circle         = Quarter Circle x4 [2]
Other values: Hexagon 8, Wild 10. Ann is seat 0 (North-West), Ben seat 1 (North-East).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from tablelog.domain.games import IllegalMove, InvalidSetup
from tablelog.domain.games.geoshapes.rules import ACT, PLAY, REFUSED, RULES, TRADED, GeoShapesState
from tests.packaged import example

ANN, BEN = 0, 1
ANN_DEAL = ["Trapezoid", "Right Triangle", "Right Triangle", "Square"]
BEN_DEAL = ["Semicircle", "Semicircle", "Isosceles Triangle", "Hexagon"]


def table(hands=(ANN_DEAL, BEN_DEAL), half=False, options=None, **setup) -> GeoShapesState:
    options = RULES.options({"half_board": half, "manifest": "geoshapes", **(options or {})})
    return RULES.start(len(hands), options, {"hands": [list(h) for h in hands], **setup})


def position(
    state: GeoShapesState, turn=None, stage=None, hands=None, placed=None, stacks=None, **fields
) -> GeoShapesState:
    """A mid-game position: hands by seat, shapes by place, discard stacks by quadrant; the
    turn and its stage stay as they were unless given."""
    board = state.board
    players = state.players
    for seat, hand in (hands or {}).items():
        players = (
            players[:seat]
            + (dataclasses.replace(players[seat], hand=tuple(sorted(hand))),)
            + players[seat + 1 :]
        )
    on = {place.name: shapes for place, shapes in zip(board.places, state.placed)}
    on.update({name: tuple(shapes) for name, shapes in (placed or {}).items()})
    piles = dict(zip(board.quadrants, state.stacks))
    piles.update({q: tuple(shapes) for q, shapes in (stacks or {}).items()})
    return dataclasses.replace(
        state,
        players=players,
        turn=state.turn if turn is None else turn,
        stage=stage or state.stage,
        placed=tuple(tuple(on[p.name]) for p in board.places),
        stacks=tuple(piles[q] for q in board.quadrants),
        **fields,
    )


def play(state, *moves):
    for move in moves:
        state = RULES.apply(state, move)
    return state


def refused(state, move, *words):
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, move)
    for word in words:
        assert word in str(err.value)


def hand(state, seat):
    return sorted(state.players[seat].hand)


# ---- the deal ---------------------------------------------------------------------------------


def test_four_cards_each_are_dealt_face_up_and_the_dealers_left_plays_first():
    state = table()
    assert hand(state, ANN) == sorted(ANN_DEAL)
    assert state.players[ANN].quadrants == ("North-West",)
    assert state.players[BEN].quadrants == ("North-East",)
    assert state.deck_left == 53 - 8  # the deck's 53 cards less the 8 turned up
    assert RULES.to_move(state) == (ANN,) and state.stage == ACT


def test_a_simulated_deal_gives_every_card_once():
    setup = RULES.deal(4, RULES.options({"manifest": "geoshapes"}), random.Random(3))
    cards = [s for h in setup["hands"] for s in h] + setup["deck"]
    assert [len(h) for h in setup["hands"]] == [4, 4, 4, 4]
    assert len(cards) == 53 and cards.count("Equilateral Triangle") == 1


def test_the_half_board_deals_eight_and_gives_two_adjoining_quadrants():
    eight = ANN_DEAL + ["Rectangle", "Semicircle", "Square", "Rhombus"]
    state = table((eight, BEN_DEAL * 2), half=True)
    assert state.players[ANN].quadrants == ("North-West", "North-East")
    assert state.players[BEN].quadrants == ("South-East", "South-West")
    with pytest.raises(InvalidSetup, match="dealt 8"):
        table(half=True)
    with pytest.raises(InvalidSetup, match="not two adjoining"):
        table(
            (eight, BEN_DEAL * 2),
            half=True,
            quadrants=[["North-West", "South-East"], ["North-East", "South-West"]],
        )
    with pytest.raises(InvalidSetup, match="half board is for two players"):
        table((ANN_DEAL, BEN_DEAL, BEN_DEAL), half=True)


def test_players_choose_their_quadrants_once_each():
    state = table(quadrants=["South-West", "North-East"])
    assert state.players[ANN].quadrants == ("South-West",)
    with pytest.raises(InvalidSetup, match="one player only"):
        table(quadrants=["North-East", "North-East"])


def test_a_deal_needing_a_card_twice_that_the_deck_has_once_is_refused():
    with pytest.raises(InvalidSetup, match="more Equilateral Triangle cards than the deck's 1"):
        table((ANN_DEAL[:3] + ["Equilateral Triangle"], BEN_DEAL[:3] + ["Equilateral Triangle"]))


def test_a_recorded_deck_order_must_be_the_cards_not_dealt():
    with pytest.raises(InvalidSetup, match="exactly the cards not dealt"):
        table(deck=["Square"] * 45)


@pytest.mark.parametrize(("given", "expected"), [("yes", True), ("false", False), (True, True)])
def test_the_half_board_option_reads_command_line_words(given, expected):
    assert RULES.options({"half_board": given})["half_board"] is expected


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"half_board": "maybe"}, "true or false"),
        ({"colours": 3}, "manifest, half_board"),
        ({"manifest": "nowhere/club.json"}, "a manifest is named by"),
    ],
)
def test_bad_options_are_refused(options, words):
    with pytest.raises(InvalidSetup, match=words):
        RULES.options(options)


# ---- A: drawing a card -------------------------------------------------------------------------


def test_a_draw_takes_the_pictured_shape_and_turns_the_card_up():
    after = RULES.apply(table(), {"draw": "Rectangle"})
    assert hand(after, ANN) == sorted(ANN_DEAL + ["Rectangle"])
    assert after.deck_left == 44 and after.stage == PLAY
    assert RULES.to_move(after) == (ANN,)  # Ann's play goes on: place, then discard


def test_a_draw_must_be_a_card_the_deck_can_still_hold():
    # The one Equilateral Triangle card was dealt to Ben.
    state = table((ANN_DEAL, BEN_DEAL[:3] + ["Equilateral Triangle"]))
    refused(state, {"draw": "Equilateral Triangle"}, "no Equilateral Triangle card is left")


def test_with_a_dealt_deck_every_draw_must_agree_with_it():
    undealt = Counter(table().board.deck) - Counter(ANN_DEAL + BEN_DEAL)
    order = ["Rhombus"] + sorted((undealt - Counter(["Rhombus"])).elements())
    state = table(deck=order)
    refused(state, {"draw": "Square"}, "next card of the dealt deck is a Rhombus")
    assert [m for m in RULES.legal_moves(state) if "draw" in m] == [{"draw": "Rhombus"}]
    drawn = RULES.apply(state, {"draw": "Rhombus"}).deck
    assert drawn is not None and drawn[0] == order[1]


# ---- B: picking up a discard stack ------------------------------------------------------------


def test_a_pick_up_takes_a_players_whole_stack():
    state = position(table(), stacks={"North-East": ["Square", "Hexagon"]})
    after = RULES.apply(state, {"pick_up": BEN})
    assert hand(after, ANN) == sorted(ANN_DEAL + ["Square", "Hexagon"])
    assert after.stacks == ((),) * 4 and after.stage == PLAY


def test_an_empty_stack_cannot_be_picked_up():
    refused(table(), {"pick_up": BEN}, "the shape discards of seat 2 (North-East) are empty")


def test_a_half_board_pick_up_takes_both_of_a_players_stacks():
    eight = ANN_DEAL + ["Rectangle", "Semicircle", "Square", "Rhombus"]
    state = position(
        table((eight, BEN_DEAL * 2), half=True),
        stacks={"South-East": ["Square"], "South-West": ["Rhombus", "Hexagon"]},
    )
    after = RULES.apply(state, {"pick_up": BEN})
    assert hand(after, ANN) == sorted(eight + ["Square", "Rhombus", "Hexagon"])
    assert after.stacks == ((),) * 4


# ---- C: trading --------------------------------------------------------------------------------


def trade(give, get, accepted=True, partner=BEN):
    return {"trade": {"with": partner, "give": give, "get": get, "accepted": accepted}}


def test_an_accepted_trade_swaps_the_shapes_and_the_play_ends_without_a_discard():
    after = RULES.apply(table(), trade(["Square"], ["Semicircle", "Semicircle"]))
    assert hand(after, ANN) == sorted(ANN_DEAL[:3] + ["Semicircle", "Semicircle"])
    assert hand(after, BEN) == sorted(["Isosceles Triangle", "Hexagon", "Square"])
    assert after.stage == TRADED
    refused(after, {"discard": "Trapezoid"}, "does not discard")
    done = RULES.apply(after, {"end_play": True})
    assert RULES.to_move(done) == (BEN,) and done.stacks == ((),) * 4


def test_a_refused_trade_changes_nothing_and_is_followed_by_a_draw_or_pick_up():
    state = table()
    after = RULES.apply(state, trade(["Square"], ["Hexagon"], accepted=False))
    assert after.players == state.players and after.stage == REFUSED
    refused(after, trade(["Square"], ["Semicircle"]), "one offer per turn")
    refused(after, {"end_play": True}, "draw a card or pick up")
    assert {RULES.move_kind(m) for m in RULES.legal_moves(after)} == {"draw"}
    assert RULES.apply(after, {"draw": "Square"}).stage == PLAY


def test_no_more_than_three_shapes_are_traded_each_way():
    state = position(table(), hands={BEN: BEN_DEAL})
    refused(state, trade(ANN_DEAL, ["Hexagon"]), "no more than 3", "4 offered")
    refused(state, trade(["Square"], BEN_DEAL), "no more than 3", "4 asked for")
    refused(state, trade([], ["Hexagon"]), "at least one each way")


def test_a_trade_names_shapes_the_players_hold():
    refused(
        table(),
        trade(["Hexagon"], ["Semicircle"]),
        "seat 1 (North-West) holds no (more) Hexagon in hand",
    )
    refused(
        table(),
        trade(["Square"], ["Semicircle"] * 3),
        "seat 2 (North-East) holds no (more) Semicircle",
    )
    refused(table(), trade(["Square"], ["Hexagon"], partner=ANN), "another player")


def test_a_trade_may_take_shapes_off_the_board():
    state = position(table(), placed={"Great Triangle": ["Trapezoid", "Rhombus"]})
    after = RULES.apply(state, trade(["Square"], [{"shape": "Rhombus", "from": "Great Triangle"}]))
    assert after.on("Great Triangle") == ("Trapezoid",)
    assert "Rhombus" in hand(after, ANN) and "Square" in hand(after, BEN)
    refused(
        state,
        trade(["Square"], [{"shape": "Rhombus", "from": "Sailboat"}]),
        "not a figure or circle of seat 2 (North-East)",
    )


# ---- placing: one figure plus the circle, the fit restriction, switching -------------------------


def drawn(shape="Rectangle", state=None):
    return RULES.apply(state or table(), {"draw": shape})


def test_shapes_go_on_one_figure_and_on_the_circle_in_the_same_play():
    state = drawn("Semicircle")
    after = play(
        state,
        {"place": "Trapezoid", "on": "Sailboat"},
        {"place": "Right Triangle", "on": "Sailboat"},
        {"place": "Semicircle", "on": "North-West circle"},
    )
    assert after.on("Sailboat") == ("Trapezoid", "Right Triangle")
    assert after.on("North-West circle") == ("Semicircle",)
    assert hand(after, ANN) == ["Right Triangle", "Square"]


def test_placing_on_both_figures_in_one_play_is_refused():
    state = play(drawn(), {"place": "Trapezoid", "on": "Sailboat"}, {"switch": "House"})
    assert state.on("Sailboat") == () and "Trapezoid" in hand(state, ANN)
    refused(
        state,
        {"place": "Square", "on": "House"},
        "one of the two figures per play",
        "placed on the Sailboat",
    )


def test_a_figure_is_played_only_once_the_other_is_switched_away():
    state = position(
        drawn(),
        stage=PLAY,
        placed={"Sailboat": ["Trapezoid"]},
        hands={ANN: ["Square", "Rectangle"]},
    )
    refused(
        state,
        {"place": "Square", "on": "House"},
        "the Sailboat still holds shapes",
        "switch figures first",
    )
    switched = RULES.apply(state, {"switch": "House"})
    assert switched.on("Sailboat") == ()
    assert hand(switched, ANN) == ["Rectangle", "Square", "Trapezoid"]
    assert RULES.apply(switched, {"place": "Square", "on": "House"}).on("House") == ("Square",)
    refused(drawn(), {"switch": "House"}, "nothing to switch from")


@pytest.mark.parametrize(
    ("shape", "on", "words"),
    [
        ("Square", "Sailboat", "a Square does not fit the Sailboat: it is no part of it"),
        ("Right Triangle", "Sailboat", "the completed Sailboat holds 2 and has them"),
        ("Semicircle", "North-West circle", "already complete"),
        ("Wild", "North-West circle", "already complete"),
    ],
)
def test_a_shape_is_placed_only_where_the_completed_figure_needs_it(shape, on, words):
    state = position(
        drawn(),
        stage=PLAY,
        placed={
            "Sailboat": ["Right Triangle", "Right Triangle"],
            "North-West circle": ["Semicircle", "Semicircle"],
        },
        hands={ANN: [shape]},
    )
    refused(state, {"place": shape, "on": on}, words)


def test_shapes_go_only_on_the_players_own_quadrant_and_from_the_hand():
    refused(
        drawn(),
        {"place": "Trapezoid", "on": "Great Triangle"},
        "in the North-East quadrant, not the player's own",
    )
    refused(drawn(), {"place": "Hexagon", "on": "Sailboat"}, "the hand holds no Hexagon")
    refused(drawn(), {"place": "Square", "on": "Castle"}, "'Castle' is not a figure or circle")
    refused(table(), {"place": "Trapezoid", "on": "Sailboat"}, "draw a card, pick up")


def test_the_seeds_wild_example_the_wild_stands_in_for_the_one_equilateral_triangle():
    # The only Equilateral Triangle is already on the Arrow; Ben's Great Triangle still needs one.
    state = position(
        table(),
        turn=BEN,
        stage=PLAY,
        placed={
            "Arrow": ["Equilateral Triangle"],
            "Great Triangle": ["Trapezoid", "Trapezoid", "Rhombus"],
        },
        hands={BEN: ["Wild", "Hexagon"]},
    )
    after = RULES.apply(state, {"place": "Wild", "on": "Great Triangle"})
    assert after.on("Great Triangle") == ("Trapezoid", "Trapezoid", "Rhombus", "Wild")
    assert "[W] Equilateral Triangle" in RULES.render(after, ["Ann", "Ben"])
    # The Wild is not tied to one slot: a Trapezoid still fits beside Trapezoid + Wild (the Wild
    # then stands for another missing shape), but a second Rhombus never fits.
    more = position(
        after,
        hands={BEN: ["Trapezoid", "Rhombus"]},
        placed={"Great Triangle": ["Trapezoid", "Rhombus", "Wild"]},
    )
    assert RULES.apply(more, {"place": "Trapezoid", "on": "Great Triangle"})
    refused(more, {"place": "Rhombus", "on": "Great Triangle"}, "holds 1 and has them")


# ---- the discard ------------------------------------------------------------------------------


def test_a_play_after_a_draw_or_pick_up_ends_with_a_discard_to_the_players_stack():
    state = drawn(state=table(options={"placing_optional": True}))
    refused(state, {"end_play": True}, "ends with a discard")
    after = RULES.apply(state, {"discard": "Square"})
    assert after.stacks[0] == ("Square",)  # North-West's SHAPE DISCARDS
    assert "Square" not in hand(after, ANN) and RULES.to_move(after) == (BEN,)
    refused(state, {"discard": "Square", "to": "North-East"}, "own SHAPE DISCARDS")
    refused(state, {"discard": "Hexagon"}, "the hand holds no Hexagon")


def test_an_empty_hand_discards_from_the_board_and_only_then():
    state = position(
        drawn(), stage=PLAY, hands={ANN: []}, placed={"Sailboat": ["Trapezoid", "Rectangle"]}
    )
    refused(state, {"discard": "Trapezoid"}, "the hand is empty", '"from": PLACE')
    after = RULES.apply(state, {"discard": "Trapezoid", "from": "Sailboat"})
    assert after.on("Sailboat") == ("Rectangle",) and after.stacks[0] == ("Trapezoid",)
    refused(state, {"discard": "Square", "from": "Sailboat"}, "the Sailboat holds no Square")
    full_hand = position(state, hands={ANN: ["Square"]})
    refused(full_hand, {"discard": "Trapezoid", "from": "Sailboat"}, "only when the hand is empty")


def test_a_half_board_player_names_which_stack_takes_the_discard():
    eight = ANN_DEAL + ["Rectangle", "Semicircle", "Square", "Rhombus"]
    state = RULES.apply(
        table((eight, BEN_DEAL * 2), half=True, options={"placing_optional": True}),
        {"draw": "Hexagon"},
    )
    refused(state, {"discard": "Hexagon"}, 'add "to": QUADRANT')
    after = RULES.apply(state, {"discard": "Hexagon", "to": "North-East"})
    assert after.stacks == ((), ("Hexagon",), (), ())


# ---- winning and scoring ------------------------------------------------------------------------


def nearly_won(hand_shapes, stage=PLAY):
    """Ann's Sailboat lacks only its Rectangle; her circle is complete."""
    return position(
        table(),
        stage=stage,
        hands={ANN: hand_shapes, BEN: ["Isosceles Triangle", "Quarter Circle", "Wild"]},
        placed={
            "Sailboat": ["Trapezoid", "Right Triangle", "Right Triangle"],
            "North-West circle": ["Semicircle", "Semicircle"],
        },
    )


def test_completing_a_figure_and_the_circle_with_a_shape_to_discard_wins():
    state = play(
        nearly_won(["Rectangle", "Square", "Hexagon"]),
        {"place": "Rectangle", "on": "Sailboat"},
        {"discard": "Square"},
    )
    assert state.winner == ANN
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (ANN,) and outcome.ranking == ((ANN,), (BEN,))
    ann, ben = RULES.score(state)
    assert ann["categories"] == {"win": 25, "hand": 8}  # 25 + the Hexagon left in hand
    assert ann["total"] == 33
    assert ben["total"] == -(3 + 2 + 10)  # Isosceles Triangle, Quarter Circle, Wild
    assert RULES.legal_moves(state) == [] and RULES.to_move(state) == ()
    refused(state, {"pick_up": ANN}, "the game is over")


def test_completing_with_the_last_shape_in_hand_does_not_win():
    state = RULES.apply(nearly_won(["Rectangle"]), {"place": "Rectangle", "on": "Sailboat"})
    refused(state, {"discard": "Rectangle"}, "the hand is empty")
    after = RULES.apply(state, {"discard": "Semicircle", "from": "North-West circle"})
    assert after.winner is None and RULES.outcome(after) is None
    assert RULES.to_move(after) == (BEN,)


def test_after_an_accepted_trade_the_win_needs_a_shape_still_in_hand():
    spare = play(
        nearly_won(["Rectangle", "Square"], stage=TRADED),
        {"place": "Rectangle", "on": "Sailboat"},
        {"end_play": True},
    )
    assert spare.winner == ANN
    assert RULES.score(spare)[ANN]["total"] == 25 + 4
    bare = play(
        nearly_won(["Rectangle"], stage=TRADED),
        {"place": "Rectangle", "on": "Sailboat"},
        {"end_play": True},
    )
    assert bare.winner is None and RULES.to_move(bare) == (BEN,)


def test_a_half_board_win_needs_a_figure_and_the_circle_in_both_quadrants():
    eight = ANN_DEAL + ["Rectangle", "Semicircle", "Square", "Rhombus"]
    state = position(
        table((eight, BEN_DEAL * 2), half=True),
        stage=PLAY,
        hands={ANN: ["Rectangle", "Hexagon"]},
        placed={
            "Sailboat": ["Trapezoid", "Right Triangle", "Right Triangle"],
            "North-West circle": ["Semicircle", "Semicircle"],
        },
    )
    one_half = play(
        state, {"place": "Rectangle", "on": "Sailboat"}, {"discard": "Hexagon", "to": "North-West"}
    )
    assert one_half.winner is None
    both = position(
        state,
        placed={
            "Kite": [
                "Right Triangle",
                "Right Triangle",
                "Isosceles Triangle",
                "Isosceles Triangle",
            ],
            "North-East circle": ["Quarter Circle"] * 4,
        },
    )
    won = play(
        both, {"place": "Rectangle", "on": "Sailboat"}, {"discard": "Hexagon", "to": "North-West"}
    )
    assert won.winner == ANN


# ---- the deck running out ---------------------------------------------------------------------


def last_card(state):
    """The deck down to one Square: every other card has been turned up."""
    rest = Counter(state.board.deck) - Counter(["Square"])
    return dataclasses.replace(state, cards_up=tuple(rest.elements()))


def test_with_empty_deck_end_after_the_last_card_the_round_is_finished_and_nobody_wins():
    state = position(
        last_card(table(options={"empty_deck": "end", "placing_optional": True})),
        hands={ANN: ["Square"], BEN: ["Rectangle"]},
    )
    after = play(state, {"draw": "Square"}, {"discard": "Square"})
    assert after.deck_left == 0 and RULES.outcome(after) is None  # Ben, the dealer, plays on
    refused(after, {"draw": "Square"}, "the draw deck is empty")
    over = play(after, {"pick_up": ANN}, {"discard": "Square"})
    outcome = RULES.outcome(over)
    assert outcome is not None
    assert outcome.winners == () and "deck ran out" in outcome.reason
    # Ann holds a Square (4), Ben a Rectangle (4): equal penalties share the place.
    assert [s["total"] for s in RULES.score(over)] == [-4, -4]
    assert outcome.ranking == ((ANN, BEN),)


# ---- malformed moves, describing, the bot's measure --------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        {"draw": "Octagon"},
        {"draw": 3},
        {"pick_up": 7},
        {"pick_up": True},
        {"place": "Square"},
        {"trade": {"with": 1, "give": "Square", "get": ["Hexagon"], "accepted": True}},
        {"trade": {"with": 1, "give": ["Square"], "get": ["Hexagon"], "accepted": "yes"}},
        {"trade": {"with": 1, "give": [{"shape": "Square"}], "get": ["Hexagon"], "accepted": True}},
        {"end_play": False},
        {"discard": "Square", "to": 3},
        {"switch": None},
    ],
)
def test_malformed_moves_are_refused_with_the_vocabulary(move):
    with pytest.raises(IllegalMove):
        RULES.apply(drawn(), move)


def test_every_move_is_described_in_the_games_words():
    assert RULES.describe(trade([{"shape": "Rhombus", "from": "Kite"}], ["Hexagon"], False)) == (
        "offers seat 2 Rhombus off the Kite for Hexagon: refused"
    )
    offer = trade([{"shape": "Rhombus", "from": "Kite"}], ["Hexagon"], False)
    assert RULES.describe(offer, ["Ann", "Ben"]) == (
        "offers Ben Rhombus off the Kite for Hexagon: refused"
    )
    assert RULES.describe({"pick_up": ANN}, ["Ann", "Ben"]) == "picks up Ann's shape discards"
    assert RULES.describe({"discard": "Square", "from": "Sailboat"}) == (
        "discards a Square off the Sailboat"
    )
    assert RULES.describe({"draw": "Isosceles Triangle"}) == (
        "draws an Isosceles Triangle card and takes the shape"
    )
    assert RULES.move_kind({"pick_up": 1}) == "pick up"


def test_the_example_match_replays_to_its_claimed_result():
    record = example("geoshapes")
    seats = record["seats"]
    state = RULES.start(len(seats), record["options"], record["setup"])
    for event in record["events"]:
        if event["type"] == "move":
            assert RULES.to_move(state) == (seats.index(event["seat"]),)
            state = RULES.apply(state, event["move"])
    claim = next(e for e in record["events"] if e["type"] == "claim")
    # Ann completed the Sailboat and her circle and discarded her spare Square: 25 + nothing;
    # Ben still holds an Isosceles Triangle: -3.
    assert claim["scores"] == {"Ann": 25, "Ben": -3}
    assert [s["total"] for s in RULES.score(state)] == [25, -3]
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (ANN,)


def test_the_show_drawing_marks_what_fills_each_figure():
    state = position(
        table(),
        placed={"Sailboat": ["Right Triangle", "Trapezoid"]},
        stacks={"North-West": ["Square"]},
    )
    picture = RULES.render(state, ["Ann", "Ben"])
    assert (
        "Sailboat       [x] Trapezoid  [x] Right Triangle  [ ] Right Triangle  [ ] Rectangle"
    ) in picture
    assert "North-West: Ann" in picture and "South-East: nobody" in picture
    assert "shape discards: Square" in picture
    assert "to move: Ann: draw a card" in picture


def test_the_greedy_measure_rewards_placing_and_drawing_what_the_figure_needs():
    state = drawn("Rectangle")
    placed = RULES.apply(state, {"place": "Trapezoid", "on": "Sailboat"})
    assert RULES.evaluate(placed, ANN) > RULES.evaluate(state, ANN)
    assert RULES.evaluate(drawn("Rectangle"), ANN) > RULES.evaluate(drawn("Hexagon"), ANN)
