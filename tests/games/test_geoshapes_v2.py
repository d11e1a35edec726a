"""GeoShapes rules version 2 (issue 27), from the seed's words and RULES.md:

- placing is compulsory: "As a challenging option, players are not required to play any
  GeoShapes on the board during their turn", so in the standard game, after a draw or a pick-up,
  a player who can place a shape must place at least one; option `placing_optional` lifts it;
- the empty deck: the card discards are shuffled into a new deck (RULES.md); the shape-discard
  stacks return to the supply (ours: one piece per card), a card whose pieces are all in play
  gives nothing, and a simulated setup deals the new orders; `empty_deck=end` is version 1's;
- the default board makes the seed's Wild example possible: "there are only one Equilateral
  Triangle in the GeoShapes deck, but two places that it can be used on the board. If the
  existing Equilateral Triangle has already been played, a Wild Shape could be placed on the
  board in place of the Equilateral Triangle. Together with the Trapezoid, this Wild Shape would
  be complete";
- version-1 matches replay with `placing_optional` and `empty_deck=end` on the board they name.

The rules are tested on the version-1 board (the names of test_geoshapes.py: Ann plays the
North-West, Sailboat = Trapezoid, Right Triangle x2, Rectangle; House = Square x2, Isosceles
Triangle, Rectangle; circle = Semicircle x2); the new board's own tests read it from its file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import random
from collections import Counter
from pathlib import Path

import pytest

from tablelog.domain.games import InvalidSetup
from tablelog.domain.games.geoshapes.board import load_board
from tablelog.domain.games.geoshapes.rules import PLAY, RULES
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder
from tests.packaged import data_path

from .test_geoshapes import ANN, BEN, hand, play, position, refused, table

COMPULSORY = "placing is compulsory"


# ---- placing is compulsory ------------------------------------------------------------------


def test_after_a_draw_a_player_who_can_place_must_place_before_discarding():
    state = RULES.apply(table(), {"draw": "Rectangle"})
    refused(state, {"discard": "Square"}, COMPULSORY, "placing_optional")
    after = play(state, {"place": "Trapezoid", "on": "Sailboat"}, {"discard": "Square"})
    assert RULES.to_move(after) == (BEN,) and after.placements == 0


def test_the_discard_is_not_offered_until_a_shape_is_placed():
    state = RULES.apply(table(), {"draw": "Rectangle"})
    kinds = {RULES.move_kind(m) for m in RULES.legal_moves(state)}
    assert "discard" not in kinds and "place" in kinds
    placed = RULES.apply(state, {"place": "Rectangle", "on": "Sailboat"})
    assert "discard" in {RULES.move_kind(m) for m in RULES.legal_moves(placed)}


def test_a_player_with_nothing_that_fits_discards_straight_away():
    # Rhombus, Hexagon and Quarter Circle are no part of the Sailboat, House or North-West circle.
    state = position(table(), hands={ANN: ["Rhombus", "Quarter Circle"]})
    after = play(state, {"draw": "Hexagon"}, {"discard": "Hexagon"})
    assert RULES.to_move(after) == (BEN,)


def test_after_a_pick_up_placing_is_compulsory_too():
    state = position(
        table(), hands={ANN: ["Rhombus"]}, stacks={"North-East": ["Semicircle", "Hexagon"]}
    )
    picked = RULES.apply(state, {"pick_up": BEN})
    refused(picked, {"discard": "Hexagon"}, COMPULSORY, "North-West circle", "Semicircle")
    play(picked, {"place": "Semicircle", "on": "North-West circle"}, {"discard": "Hexagon"})


def test_the_challenging_option_lets_a_player_keep_every_shape_off_the_board():
    state = RULES.apply(table(options={"placing_optional": True}), {"draw": "Rectangle"})
    after = RULES.apply(state, {"discard": "Square"})
    assert hand(after, ANN) == ["Rectangle", "Right Triangle", "Right Triangle", "Trapezoid"]


def test_after_an_accepted_trade_the_play_may_end_without_placing():
    # The seed: "At the end of the play after a trade, a player does not discard", and the
    # compulsory placing of RULES.md follows a draw or a pick-up only.
    trade = {"trade": {"with": BEN, "give": ["Square"], "get": ["Hexagon"], "accepted": True}}
    after = play(table(), trade, {"end_play": True})
    assert RULES.to_move(after) == (BEN,)


def test_switching_figures_does_not_count_as_placing():
    state = position(
        table(), hands={ANN: ["Square", "Hexagon"]}, placed={"Sailboat": ["Trapezoid"]}
    )
    drawn = play(state, {"draw": "Rhombus"}, {"switch": "House"})
    refused(drawn, {"discard": "Hexagon"}, COMPULSORY, "House")


# ---- the empty deck -------------------------------------------------------------------------


def down_to_one(state, last="Square"):
    """Every card but one `last` is turned up (the hands below are set by hand)."""
    rest = Counter(state.board.deck) - Counter([last])
    return dataclasses.replace(
        state, cards_up=tuple(rest.elements()), deck=None if state.deck is None else (last,)
    )


def test_the_last_draw_shuffles_the_discards_into_a_new_deck():
    state = position(
        down_to_one(table(options={"placing_optional": True})),
        hands={ANN: ["Square"], BEN: ["Rectangle"]},
        stacks={"North-West": ["Hexagon"], "North-East": ["Rhombus"]},
    )
    after = RULES.apply(state, {"draw": "Square"})
    assert hand(after, ANN) == ["Square", "Square"]
    assert after.cards_up == () and after.deck_left == after.board.cards == 53
    assert after.stacks == ((), (), (), ()) and after.reshuffles == 1  # back to the supply
    assert RULES.outcome(after) is None and after.stage == PLAY
    # The game goes on: the next draw may be any card of the whole deck again.
    nxt = play(after, {"discard": "Square"}, {"draw": "Equilateral Triangle"})
    assert "Equilateral Triangle" in hand(nxt, BEN)
    refused(
        RULES.apply(nxt, {"discard": "Rectangle"}),
        {"draw": "Equilateral Triangle"},
        "no Equilateral Triangle card is left",
    )


def test_a_reshuffled_card_whose_pieces_are_all_in_play_gives_nothing():
    state = position(
        down_to_one(table(options={"placing_optional": True})),
        hands={ANN: ["Square"], BEN: ["Wild", "Wild", "Rectangle"]},
    )
    after = play(state, {"draw": "Square"}, {"discard": "Square"}, {"draw": "Wild"})
    assert hand(after, BEN) == ["Rectangle", "Wild", "Wild"]  # both Wild pieces were his
    assert after.cards_up == ("Wild",) and after.stage == PLAY


def dealt_table(seed=3, **options):
    opts = RULES.options({"manifest": "geoshapes", **options})
    return RULES.start(2, opts, RULES.deal(2, opts, random.Random(seed)))


def test_a_simulated_deal_records_the_new_decks_and_the_draws_follow_them():
    state = dealt_table()
    assert len(state.reshuffled) == 3
    assert all(Counter(order) == Counter(state.board.deck) for order in state.reshuffled)
    last = state.deck[-1]
    state = position(down_to_one(state, last), hands={ANN: ["Hexagon"], BEN: ["Rhombus"]})
    after = RULES.apply(dataclasses.replace(state, placing_optional=True), {"draw": last})
    assert after.deck == state.reshuffled[0]
    first, other = after.deck[0], next(s for s in after.deck if s != after.deck[0])
    moved = RULES.apply(after, {"discard": last})
    refused(moved, {"draw": other}, "the next card of the dealt deck", first)
    assert RULES.apply(moved, {"draw": first}).deck == after.deck[1:]


def test_the_dealt_orders_are_used_in_turn_and_then_again_from_the_first():
    state = dealt_table(placing_optional=True)
    last = state.deck[-1]
    state = position(down_to_one(state, last), hands={ANN: ["Hexagon"], BEN: ["Rhombus"]})
    third = RULES.apply(dataclasses.replace(state, reshuffles=2), {"draw": last})
    fourth = RULES.apply(dataclasses.replace(state, reshuffles=3), {"draw": last})
    assert third.deck == state.reshuffled[2] and fourth.deck == state.reshuffled[0]


def test_a_table_record_leaves_the_new_order_unknown():
    state = position(
        down_to_one(table(options={"placing_optional": True})),
        hands={ANN: ["Square"], BEN: ["Rectangle"]},
    )
    after = RULES.apply(state, {"draw": "Square"})
    assert after.deck is None
    assert {
        m["draw"] for m in RULES.legal_moves(play(after, {"discard": "Square"})) if "draw" in m
    } == set(after.board.deck)


def test_the_reshuffled_orders_must_each_hold_the_whole_deck():
    setup = RULES.deal(2, RULES.options({"manifest": "geoshapes"}), random.Random(1))
    setup["reshuffled"][1] = setup["reshuffled"][1][:-1]
    with pytest.raises(InvalidSetup, match="every card of the deck"):
        RULES.start(2, RULES.options({"manifest": "geoshapes"}), setup)
    ended = RULES.options({"manifest": "geoshapes", "empty_deck": "end"})
    with pytest.raises(InvalidSetup, match="only when the empty deck is reshuffled"):
        RULES.start(
            2, ended, {**RULES.deal(2, ended, random.Random(1)), "reshuffled": [setup["deck"]]}
        )
    assert "reshuffled" not in RULES.deal(2, ended, random.Random(1))


def test_the_deal_of_hands_and_deck_is_the_same_as_version_1s_for_a_seed():
    # The new decks are dealt after the rest, so a seed still deals the same game.
    ended = RULES.deal(2, RULES.options({"empty_deck": "end"}), random.Random(5))
    reshuffled = RULES.deal(2, RULES.options({}), random.Random(5))
    assert {k: reshuffled[k] for k in ended} == ended


# ---- options and versions -------------------------------------------------------------------


def test_the_options_and_their_defaults():
    assert RULES.version == "2"
    assert RULES.options({}) == {
        "manifest": "geoshapes-v3",
        "half_board": False,
        "placing_optional": False,
        "empty_deck": "reshuffle",
    }
    assert RULES.options({"placing_optional": "yes"})["placing_optional"] is True
    with pytest.raises(InvalidSetup, match="empty_deck must be reshuffle or end"):
        RULES.options({"empty_deck": "stop"})
    with pytest.raises(InvalidSetup, match="placing_optional must be true or false"):
        RULES.options({"placing_optional": "sometimes"})


def test_version_1_matches_replay_with_its_readings_on_the_board_they_name():
    stored = {"manifest": "geoshapes", "half_board": False}
    assert RULES.replay_options("1", stored) == {
        "manifest": "geoshapes",
        "half_board": False,
        "placing_optional": True,
        "empty_deck": "end",
    }
    # Version 1 always stored its board; a hand-made record without one meant version 1's.
    assert RULES.replay_options("1", {})["manifest"] == "geoshapes"
    assert RULES.replay_options("2", RULES.options({})) == RULES.options({})
    with pytest.raises(InvalidSetup, match="version 0"):
        RULES.replay_options("0", stored)


def test_version_1s_board_file_is_never_edited():
    # Stored matches name "geoshapes" and replay with this file's content.
    content = data_path("manifests", "geoshapes.json").read_bytes()
    assert hashlib.sha256(content).hexdigest() == (
        "98f685234bb6f06c73ec17f1d3f5cbaa0c09b975b7dd6858df1e6ba7f5e2b096"
    )


# ---- the default boards (version 2's, and version 3's since 3 December 2026) -----------------

DEFAULT_BOARDS = pytest.mark.parametrize("manifest", ["geoshapes-v2", "geoshapes-v3"])


@DEFAULT_BOARDS
def test_the_board_has_the_seeds_figure_a_trapezoid_and_the_triangle_complete(manifest):
    board = load_board(manifest)
    assert board.deck["Equilateral Triangle"] == 1 and board.deck[board.wild] >= 1
    needing = [p for p in board.places if "Equilateral Triangle" in p.needs]
    assert len(needing) == 2  # "two places that it can be used on the board"
    assert [p.needs for p in needing if p.needs == {"Trapezoid": 1, "Equilateral Triangle": 1}]


@DEFAULT_BOARDS
def test_the_seeds_wild_example_plays_out_on_the_board(manifest):
    board = load_board(manifest)
    small = next(p for p in board.places if p.needs == {"Trapezoid": 1, "Equilateral Triangle": 1})
    other = next(p for p in board.places if "Equilateral Triangle" in p.needs and p is not small)
    assert other.quadrant != small.quadrant  # the Triangle was played by someone else
    state = RULES.start(
        2,
        RULES.options({"manifest": manifest}),
        {
            "hands": [["Square"] * 4, ["Rectangle"] * 4],
            "quadrants": [small.quadrant, other.quadrant],
        },
    )
    # "the existing Equilateral Triangle has already been played" on the other figure.
    state = position(
        state,
        hands={ANN: ["Trapezoid", "Square", "Square"], BEN: ["Rectangle"]},
        placed={other.name: ["Equilateral Triangle"]},
    )
    drawn = RULES.apply(state, {"draw": "Wild"})
    refused(drawn, {"draw": "Equilateral Triangle"}, "no draw at this point")
    after = play(
        drawn, {"place": "Wild", "on": small.name}, {"place": "Trapezoid", "on": small.name}
    )
    # "Together with the Trapezoid, this Wild Shape would be complete."
    assert len(after.on(small.name)) == small.size == 2


# ---- the balance measurement (scripts/geoshapes_balance.py) ---------------------------------


def balance_script():
    path = Path(__file__).parents[2] / "scripts" / "geoshapes_balance.py"
    spec = importlib.util.spec_from_file_location("geoshapes_balance", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_balance_script_counts_what_tablelog_simulate_stores(store):
    # The docs' balance tables come from the script; a seed must play the same matches as
    # `tablelog simulate geoshapes --bots greedy --seed S` on the default board.
    report = simulate(
        open_recorder(store),
        make_plan("geoshapes", 4, 2026, 2, "greedy"),
        workers=1,
        progress=False,
    )
    counted = balance_script().winners(RULES.options({})["manifest"], 2, 2026, range(4))
    assert [counted[0], counted[1], counted[-1]] == [report.wins[0], report.wins[1], report.draws]


def test_the_balance_table_uses_95_percent_wilson_intervals():
    # Wilson's 95% interval for 50 of 100 is 0.404-0.596 (any statistics text).
    script = balance_script()
    even = script.rows(2, 100, Counter({0: 50, 1: 50}))
    lopsided = script.rows(2, 100, Counter({0: 61, 1: 39}))
    assert even[0]["low"] == pytest.approx(0.4038, abs=1e-4)
    assert even[0]["high"] == pytest.approx(0.5962, abs=1e-4)
    assert [r["inside"] for r in even] == [True, True]
    assert [r["inside"] for r in lopsided] == [False, False]


def test_a_board_is_confirmed_only_with_every_seat_inside_and_the_pooled_sets_even():
    # The shipping rule of issue 27's sixth round (the script's docstring).
    script = balance_script()
    inside = script.rows(2, 2000, Counter({0: 1030, 1: 970}))  # 51.5%: 49.3-53.7%, inside
    outside = script.rows(2, 2000, Counter({0: 1060, 1: 940}))  # 53.0%: 50.8-55.2%, outside
    # 4,000 matches 2,040 to 1,960: chi-square (40² + 40²) / 2,000 = 1.6, p = 0.21;
    # 2,100 to 1,900: 10.0, p = 0.0016 (any chi-square table, 1 degree of freedom).
    even = script.rows(2, 4000, Counter({0: 2040, 1: 1960}))
    uneven = script.rows(2, 4000, Counter({0: 2100, 1: 1900}))
    assert script.confirmed(inside, even)
    assert not script.confirmed(inside, uneven)
    assert not script.confirmed(outside, even)
