"""What a study may vary and what a candidate must be before a match is played: the games'
declared spaces, a designer's SPACE.json, and GeoShapes' checks (the seed's Wild example, every
place completable from the deck)."""

from __future__ import annotations

import copy

import pytest

from tablelog.domain.games.geoshapes import tuning as geoshapes
from tablelog.domain.games.manifests import find
from tablelog.tune.space import SpaceError, base_params, candidate, invalid, load_space


@pytest.mark.parametrize("board", ["geoshapes-v2", "geoshapes-v3"])
def test_the_default_boards_pass_the_checks(board):
    assert geoshapes.invalid(find(board), {}) is None


def test_a_board_without_the_wild_example_is_no_candidate():
    board = copy.deepcopy(find("geoshapes-v3"))
    board["deck"]["Equilateral Triangle"] = 2  # "only one Equilateral Triangle in the deck"
    assert "Wild example" in str(geoshapes.invalid(board, {}))
    board = copy.deepcopy(find("geoshapes-v3"))
    big = board["quadrants"][3]["figures"]["Big Triangle"]
    big["Trapezoid"] = 2  # no longer "together with the Trapezoid" alone
    assert "Wild example" in str(geoshapes.invalid(board, {}))


def test_a_place_the_deck_cannot_complete_is_no_candidate():
    board = copy.deepcopy(find("geoshapes-v3"))
    board["quadrants"][0]["figures"]["House"]["Square"] = 7  # the deck holds 6 Squares
    reason = str(geoshapes.invalid(board, {}))
    assert "House takes 7 Square" in reason and "holds 6" in reason


def test_a_place_left_with_no_shape_is_no_candidate():
    space = load_space("geoshapes")
    params = base_params(space)
    assert params is not None
    for pointer in [p for p in params if p.startswith("/quadrants/0/circle/")]:
        params[pointer] = 0  # every shape of the North-West circle taken away
    assert invalid(space, candidate(space, params)) is not None


def test_the_declared_space_starts_from_the_default_board_and_keeps_the_triangle():
    space = load_space("geoshapes")
    assert space.base == "geoshapes-v3"
    assert "/deck/Equilateral Triangle" not in space.fields
    assert not [p for p in space.fields if "Big Triangle" in p or "/Sail/" in p]
    base = candidate(space, base_params(space) or {})
    assert base.manifest == find("geoshapes-v3")  # the base variant is the board itself


def test_a_designer_narrows_extends_and_drops():
    space = load_space(
        "topiary",
        {
            "fields": {"/values/0": [1, 2]},
            "options": {"last_player_chooses": [True]},
            "drop": ["/values/4"],
            "fixed": {"manifest": "topiary"},
        },
    )
    assert space.fields["/values/0"] == [1, 2] and "/values/4" not in space.fields
    assert space.options == {"last_player_chooses": [True]}
    only = load_space("topiary", {"only": True, "fields": {"/values/1": [2, 3]}})
    assert only.fields == {"/values/1": [2, 3]} and only.options == {}


@pytest.mark.parametrize(
    ("designer", "words"),
    [
        ({"colour": 1}, "Additional properties"),
        ({"fields": {"/values/9": [1, 2]}}, "points at nothing"),
        ({"fields": {"/values/0": [5, 2]}}, "runs backwards"),
        ({"fields": {"values": [1, 2]}}, "does not match"),
        ({"drop": ["/values/7"]}, "does not hold"),
        ({"only": True}, "the space is empty"),
    ],
)
def test_a_bad_space_is_one_line(designer, words):
    with pytest.raises(SpaceError) as refused:
        load_space("topiary", designer)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_a_game_that_declares_nothing_asks_for_a_space():
    with pytest.raises(SpaceError, match="declares nothing to tune"):
        load_space("topitop")
