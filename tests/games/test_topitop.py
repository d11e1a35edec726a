"""Topitop's rules, one test per rule of the seed text ((1), (2a)-(2e), (3), no reversal, passing,
the win) and one per way to break them. Positions are drawn row by row: a1 b1 c1 / a2 ..."""

from __future__ import annotations

import pytest

from tablelog.domain.games import IllegalMove, InvalidSetup
from tablelog.domain.games.topitop.rules import RULES, TopitopState

BLUE, RED = 0, 1


def position(
    picture: str, turn: int = BLUE, small: int = 4, large: int = 4, no_return=None
) -> TopitopState:
    cells = tuple("" if c == "." else c for row in picture.split("/") for c in row.split())
    assert len(cells) == 9
    return TopitopState(cells=cells, turn=turn, small=small, large=large, no_return=no_return)


def cell(state: TopitopState, name: str) -> str:
    col, row = ord(name[0]) - ord("a"), int(name[1]) - 1
    return state.cells[row * 3 + col]


def refused(state, move, *words):
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, move)
    for word in words:
        assert word in str(err.value)


# ---- (1) placing ---------------------------------------------------------------------------


def test_blue_moves_first_and_places_on_an_empty_cell():
    state = RULES.start(2, RULES.options({}), {})
    assert RULES.to_move(state) == (BLUE,)
    after = RULES.apply(state, {"place": "bucket", "to": "b2"})
    assert cell(after, "b2") == "B"
    assert RULES.to_move(after) == (RED,)


@pytest.mark.parametrize("piece", ["bucket", "small", "large"])
def test_nothing_is_placed_onto_a_piece(piece):
    refused(
        position(". . . / . S . / . . ."),
        {"place": piece, "to": "b2"},
        "placed on empty cells only",
    )


def test_a_player_has_only_two_buckets():
    state = position("B B . / . . . / . . .")
    refused(state, {"place": "bucket", "to": "c1"}, "no Blue buckets are left")
    # Red's buckets are Red's own supply.
    assert (
        cell(
            RULES.apply(
                position("B B . / . . . / . . .", turn=RED), {"place": "bucket", "to": "c1"}
            ),
            "c1",
        )
        == "R"
    )


def test_the_sand_piles_run_out():
    state = position("S S . / S S . / . . .")
    refused(state, {"place": "small", "to": "c3"}, "no small sand piles are left")
    assert cell(RULES.apply(state, {"place": "large", "to": "c3"}), "c3") == "L"


def test_a_castle_counts_against_both_supplies():
    state = position("LS LS . / LS LS . / . . .")
    refused(state, {"place": "small", "to": "c3"}, "no small")
    refused(state, {"place": "large", "to": "c3"}, "no large")


# ---- (2a) sliding to a free neighbour --------------------------------------------------------


@pytest.mark.parametrize("target", ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"])
def test_a_piece_slides_one_step_in_any_of_eight_directions(target):
    after = RULES.apply(position(". . . / . L . / . . ."), {"from": "b2", "to": target})
    assert cell(after, target) == "L" and cell(after, "b2") == ""


def test_a_slide_of_two_steps_is_refused():
    refused(position("L . . / . . . / . . ."), {"from": "a1", "to": "c1"}, "not one step")
    refused(position("L . . / . . . / . . ."), {"from": "a1", "to": "a1"}, "not one step")


def test_an_empty_cell_has_nothing_to_move():
    refused(position(". . . / . . . / . . ."), {"from": "a1", "to": "b1"}, "a1 is empty")


# ---- (2b)-(2e) the four stackings ------------------------------------------------------------


def test_b_a_bucket_goes_onto_a_small_pile():
    assert (
        cell(RULES.apply(position("B S . / . . . / . . ."), {"from": "a1", "to": "b1"}), "b1")
        == "SB"
    )


def test_c_a_small_pile_goes_onto_a_large_pile_making_a_castle():
    assert (
        cell(RULES.apply(position("S L . / . . . / . . ."), {"from": "a1", "to": "b1"}), "b1")
        == "LS"
    )


def test_d_a_small_pile_with_a_bucket_goes_onto_a_large_pile():
    assert (
        cell(RULES.apply(position("SB L . / . . . / . . ."), {"from": "a1", "to": "b1"}), "b1")
        == "LSB"
    )


def test_e_a_bucket_goes_onto_a_sand_castle():
    assert (
        cell(RULES.apply(position("B LS . / . . . / . . ."), {"from": "a1", "to": "b1"}), "b1")
        == "LSB"
    )


@pytest.mark.parametrize(
    ("mover", "target"),
    [
        ("L", "S"),  # a large pile never goes on top
        ("L", "L"),
        ("S", "S"),
        ("B", "L"),  # a bucket needs a small pile or a castle under it
        ("B", "R"),
        ("LS", "L"),  # a castle only moves to a free cell
        ("SB", "S"),
        ("SB", "LS"),
        ("B", "LSR"),  # a crowned castle takes nothing more
    ],
)
def test_every_other_stacking_is_refused(mover, target):
    refused(
        position(f"{mover} {target} . / . . . / . . ."),
        {"from": "a1", "to": "b1"},
        "may not go onto",
    )


def test_stacks_are_never_taken_apart():
    # The bucket on the small pile moves with its pile; the pile stays whole.
    after = RULES.apply(position("SB . . / . . . / . . ."), {"from": "a1", "to": "b1"})
    assert cell(after, "a1") == "" and cell(after, "b1") == "SB"


# ---- (3) who may move what ---------------------------------------------------------------------


@pytest.mark.parametrize("stack", ["R", "SR", "LSR"])
def test_a_player_may_not_move_the_opponents_buckets(stack):
    refused(
        position(f"{stack} . . / . . . / . . ."),
        {"from": "a1", "to": "b1"},
        "may not move the opponent's bucket",
    )


@pytest.mark.parametrize("stack", ["S", "L", "LS"])
def test_either_player_moves_neutral_piles_and_castles(stack):
    for turn in (BLUE, RED):
        after = RULES.apply(
            position(f"{stack} . . / . . . / . . .", turn=turn), {"from": "a1", "to": "b2"}
        )
        assert cell(after, "b2") == stack


def test_a_castle_topped_by_an_own_bucket_moves_to_a_free_cell():
    after = RULES.apply(position("LSB . . / . . . / . . ."), {"from": "a1", "to": "a2"})
    assert cell(after, "a2") == "LSB"


# ---- no reversal --------------------------------------------------------------------------------


def test_the_opponent_may_not_slide_a_neutral_piece_straight_back():
    after_blue = RULES.apply(position("S . . / . . . / . . ."), {"from": "a1", "to": "b1"})
    refused(after_blue, {"from": "b1", "to": "a1"}, "no reversal")
    # Any other slide of that piece is fine, and so is the way back one turn later.
    RULES.apply(after_blue, {"from": "b1", "to": "c1"})
    after_red = RULES.apply(after_blue, {"place": "large", "to": "c3"})
    after_blue_again = RULES.apply(after_red, {"place": "small", "to": "a3"})
    assert cell(RULES.apply(after_blue_again, {"from": "b1", "to": "a1"}), "a1") == "S"


def test_a_castle_may_not_be_slid_straight_back_either():
    after = RULES.apply(position("LS . . / . . . / . . ."), {"from": "a1", "to": "b2"})
    refused(after, {"from": "b2", "to": "a1"}, "no reversal")


def test_a_slide_onto_a_stack_or_of_an_own_bucket_sets_no_restriction():
    stacked = RULES.apply(position("S L . / . . . / . . ."), {"from": "a1", "to": "b1"})
    assert stacked.no_return is None
    bucket = RULES.apply(position("B . . / . . . / . . ."), {"from": "a1", "to": "b1"})
    assert bucket.no_return is None


# ---- passing and winning ------------------------------------------------------------------------

STUCK = "R R L / B B L / L L L"  # full board: no free cell, no stacking for anyone


def test_a_player_with_no_legal_move_passes():
    state = position(STUCK, turn=RED, small=0, large=5)
    assert RULES.legal_moves(state) == [{"pass": True}]
    after = RULES.apply(state, {"pass": True})
    assert RULES.to_move(after) == (BLUE,) and after.cells == state.cells


def test_passing_is_refused_while_a_move_is_legal():
    refused(RULES.start(2, RULES.options({}), {}), {"pass": True}, "only when no other move")


def test_both_buckets_on_castles_wins():
    state = position("LSB SB L / . . . / . . .")
    won = RULES.apply(state, {"from": "b1", "to": "c1"})
    outcome = RULES.outcome(won)
    assert outcome is not None
    assert outcome.winners == (BLUE,) and outcome.ranking == ((BLUE,), (RED,))
    assert "both buckets on sand castles" in outcome.reason
    assert RULES.legal_moves(won) == [] and RULES.to_move(won) == ()
    refused(won, {"place": "small", "to": "a3"}, "the game is over")


def test_one_bucket_on_a_castle_is_not_yet_a_win():
    after = RULES.apply(position("B LS . / . . . / . . ."), {"from": "a1", "to": "b1"})
    assert RULES.outcome(after) is None
    assert [s["total"] for s in RULES.score(after)] == [1, 0]


# ---- input at the boundary ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"place": "castle", "to": "a1"}, "bucket, small or large"),
        ({"place": "small", "to": "d1"}, "not a cell of the board"),
        ({"from": "a0", "to": "a1"}, "not a cell"),
        ({"from": "a1"}, "a Topitop move is"),
        ({"pass": "yes"}, "a Topitop move is"),
        ({"place": "small", "to": "a1", "extra": 1}, "a Topitop move is"),
    ],
)
def test_malformed_moves_name_what_is_wrong(move, words):
    refused(RULES.start(2, RULES.options({}), {}), move, words)


def test_options_set_the_piece_counts_and_are_checked():
    assert RULES.options({"small": "2", "large": 2}) == {"small": 2, "large": 2}
    with pytest.raises(InvalidSetup, match="whole number"):
        RULES.options({"small": "many"})
    with pytest.raises(InvalidSetup, match="small and large"):
        RULES.options({"buckets": 3})
    with pytest.raises(InvalidSetup, match="2 players"):
        RULES.start(3, RULES.options({}), {})
    mini = RULES.start(2, RULES.options({"small": 2, "large": 2}), {})
    assert mini.supply("S") == 2 and mini.supply("L") == 2
