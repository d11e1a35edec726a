"""Total Landscaping: effects, card withering, clashes, flower withering, hoeing, hands, bout ends.

Every expected value is worked out by hand from the seed and RULES.md. Positions are built
directly: a garden is 37 tile codes, "" empty, "G" grass, a flower letter (R O Y B P W), or
"G" + a flower letter for a flower on grass. East is seat 0 (Elimination Candidate), West seat 1.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from tablelog.domain.games import IllegalMove
from tablelog.domain.games.total_landscaping.hexgarden import INDEX, TILES
from tablelog.domain.games.total_landscaping.rules import CARDS, RULES, GardenFigures, new_bout

EMPTY = ("",) * len(TILES)


def garden(**tiles: str) -> tuple[str, ...]:
    cells = list(EMPTY)
    for name, code in tiles.items():
        cells[INDEX[name]] = code
    return tuple(cells)


def position(east=EMPTY, west=EMPTY, round=1, hands=(CARDS, CARDS), **more):
    return dataclasses.replace(
        new_bout(1),
        gardens=(east, west),
        round=round,
        hands=(tuple(hands[0]), tuple(hands[1])),
        **more,
    )


def card(colour: str, where: str, **parameters) -> dict:
    """card("Red", "E:B1", remove=[...]): a card played onto a tile of either garden."""
    side, tile = where.split(":")
    return {"card": colour, "garden": {"E": "east", "W": "west"}[side], "tile": tile, **parameters}


def hoe(a: str, b: str) -> dict:
    return {"hoe": [a, b]}


def play(state, east, west):
    return RULES.apply(state, {"east": east, "west": west})


def tile(state, where: str) -> str:
    side, name = where.split(":")
    return state.gardens["EW".index(side)][INDEX[name]]


def refused(state, east, west, *words: str) -> str:
    with pytest.raises(IllegalMove) as err:
        play(state, east, west)
    message = str(err.value)
    for word in words:
        assert word in message, message
    return message


QUIET = card("Green", "W:B4")  # fillers: grass away from the action, not a flower
QUIET_EAST = card("Green", "E:B4")


# ---- the seven effects ------------------------------------------------------------------------


def test_red_removes_the_two_named_cards_from_its_players_hand():
    after = play(position(), card("Red", "E:A", remove=["Blue", "White"]), QUIET)
    assert after.hands[0] == ("Orange", "Yellow", "Green", "Purple")
    assert tile(after, "E:A") == "R"


def test_red_with_one_card_left_names_it_and_the_empty_hand_is_refilled():
    state = position(hands=(("Red", "Blue"), CARDS))
    refused(state, card("Red", "E:A", remove=["Blue", "White"]), QUIET, "Red names 1")
    after = play(state, card("Red", "E:A", remove=["Blue"]), QUIET)
    assert after.hands[0] == CARDS  # emptied by Red, a fresh seven at the end of the round


def test_red_must_name_cards_when_its_effect_triggers_but_not_when_negated():
    refused(position(), card("Red", "E:A"), QUIET, "Red takes effect", "name 2 cards")
    after = play(position(), card("Red", "E:A"), card("White", "W:A"))
    assert after.hands[0] == ("Orange", "Yellow", "Green", "Blue", "Purple", "White")


def test_orange_exchanges_the_hands_for_the_next_round_and_still_plants():
    state = position(hands=(CARDS, ("Red", "Green", "Blue")))
    after = play(state, card("Orange", "E:A"), card("Green", "W:A"))
    assert after.hands == (("Red", "Blue"), ("Red", "Yellow", "Green", "Blue", "Purple", "White"))
    assert tile(after, "E:A") == "O"


def test_two_oranges_exchange_the_hands_once():
    state = position(hands=(("Orange", "Red"), ("Orange", "Blue", "White")))
    after = play(state, card("Orange", "E:A"), card("Orange", "W:A"))
    assert after.hands == (("Blue", "White"), ("Red",))


def test_orange_exchanges_after_an_empty_hand_is_refilled():
    state = position(hands=(("Orange",), ("Red", "Blue", "Green")))
    after = play(state, card("Orange", "E:A"), card("Green", "W:A"))
    assert after.hands == (("Red", "Blue"), CARDS)


def test_yellow_also_plants_a_yellow_flower_on_the_named_adjacent_empty_tile():
    after = play(position(), card("Yellow", "E:A", spread="B1"), QUIET)
    assert tile(after, "E:A") == "Y" and tile(after, "E:B1") == "Y"


def test_yellow_does_not_spread_where_the_opponent_plants_this_round():
    after = play(position(), card("Yellow", "E:A", spread="B1"), card("Green", "E:B1"))
    assert tile(after, "E:A") == "Y" and tile(after, "E:B1") == "G"


def test_yellow_spreads_only_to_an_adjacent_empty_tile_and_must_name_one():
    state = position(east=garden(B1="G"))
    refused(state, card("Yellow", "E:A", spread="B1"), QUIET, "empty tile", "grass")
    refused(state, card("Yellow", "E:B2", spread="B5"), QUIET, "not adjacent")
    refused(state, card("Yellow", "E:A"), QUIET, "Yellow takes effect")
    # With no empty tile beside it there is nothing to name.
    full = position(east=garden(B1="R", B2="R", B3="R", B4="R", B5="R", B6="R"))
    assert tile(play(full, card("Yellow", "E:A"), QUIET), "E:A") == "Y"


def test_green_plants_grass_and_a_flower_on_grass_never_withers():
    after = play(position(), card("Green", "E:A"), QUIET)
    assert tile(after, "E:A") == "G"
    # Red on B1 withers Orange beside it, except the Orange growing in grass.
    state = position(east=garden(A="G", B1="R"))
    after = play(state, card("Orange", "E:A"), card("Orange", "E:B2"))
    assert tile(after, "E:A") == "GO" and tile(after, "E:B2") == ""


def test_blue_takes_a_tile_both_players_chose():
    after = play(position(), card("Red", "W:A", remove=["Orange", "Yellow"]), card("Blue", "W:A"))
    assert tile(after, "W:A") == "B" and after.blocked is None


def test_purple_turns_an_adjacent_flower_purple_and_keeps_its_grass():
    state = position(east=garden(B1="GR", B2="Y"))
    after = play(state, card("Purple", "E:A", recolour="B1"), QUIET)
    assert tile(after, "E:A") == "P" and tile(after, "E:B1") == "GP"
    assert tile(play(state, card("Purple", "E:A"), QUIET), "E:B1") == "GR"  # "may"


def test_purple_must_name_an_adjacent_existing_flower():
    state = position(east=garden(B1="G", B4="R"))
    refused(state, card("Purple", "E:A", recolour="B1"), QUIET, "B1", "grass")
    refused(state, card("Purple", "E:B1", recolour="B4"), QUIET, "not adjacent")


def test_white_negates_the_opponents_effect_and_its_own_cannot_be_negated():
    after = play(position(), card("White", "E:A"), card("Red", "W:A", remove=["Blue", "Green"]))
    assert after.hands[1] == ("Orange", "Yellow", "Green", "Blue", "Purple", "White")
    # Purple withers White, yet White's effect still stops Purple's recolouring.
    state = position(west=garden(B1="R"))
    after = play(state, card("White", "E:A"), card("Purple", "W:A", recolour="B1"))
    assert tile(after, "W:B1") == "R" and tile(after, "W:A") == "P"


# ---- card withering ---------------------------------------------------------------------------


def test_red_card_withers_orange_card_no_exchange_but_the_flower_is_planted():
    state = position(hands=(CARDS, ("Red", "Blue", "Green")))
    after = play(state, card("Orange", "E:A"), card("Red", "W:A", remove=["Blue", "Green"]))
    # West's hand, emptied by its Red, is refilled; nothing is exchanged.
    assert after.hands == (("Red", "Yellow", "Green", "Blue", "Purple", "White"), CARDS)
    assert tile(after, "E:A") == "O"


def test_orange_card_withers_yellow_card_no_spread():
    after = play(position(), card("Orange", "W:A"), card("Yellow", "E:A", spread="B1"))
    assert tile(after, "E:A") == "Y" and tile(after, "E:B1") == ""


def test_blue_card_withers_purple_card_no_recolour():
    state = position(east=garden(B1="R"))
    after = play(state, card("Purple", "E:A", recolour="B1"), card("Blue", "W:A"))
    assert tile(after, "E:B1") == "R"


def test_green_is_exempt_nothing_stops_its_grass():
    after = play(position(), card("Green", "E:A"), card("White", "W:A"))
    assert tile(after, "E:A") == "G"


# ---- the same tile ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("east", "west", "planted"),
    [
        ("Blue", "Red", "B"),  # Blue takes it
        ("Yellow", "Blue", "B"),  # even against Yellow, which withers Blue (reading)
        ("Red", "Orange", "R"),  # else the colour that withers the other
        ("Orange", "Red", "R"),
        ("White", "Red", "W"),
        ("Purple", "White", "P"),
        ("Blue", "Blue", None),  # both Blue: as if neither withers
        ("Red", "Yellow", None),  # neither withers the other
        ("Green", "Red", None),
        ("Green", "Green", None),
    ],
)
def test_a_tile_both_players_chose(east, west, planted):
    # Grass all round B1, so Yellow has nowhere to spread and nothing withers the winner.
    state = position(east=garden(A="G", B2="G", B6="G"))
    choices = [
        card(colour, "E:B1", **({"remove": ["Orange", "Yellow"]} if colour == "Red" else {}))
        for colour in (east, west)
    ]
    after = play(state, *choices)
    if planted:
        assert tile(after, "E:B1") == planted and after.blocked is None
    else:
        assert tile(after, "E:B1") == "" and after.blocked == (0, INDEX["B1"])


def test_the_blocked_tile_cannot_be_chosen_next_round_only():
    after = play(position(), card("Blue", "E:B1"), card("Blue", "E:B1"))
    refused(after, card("Green", "E:B1"), QUIET, "B1 in the Eastern garden", "cannot be chosen")
    refused(after, card("Yellow", "E:A", spread="B1"), QUIET, "cannot spread to B1")
    later = play(after, card("Green", "E:A"), card("Green", "W:A"))
    assert later.blocked is None
    assert (
        tile(
            play(later, card("Red", "E:B1", remove=["Orange", "Yellow"]), card("White", "W:B4")),
            "E:B1",
        )
        == "R"
    )


# ---- flower withering -------------------------------------------------------------------------


def test_the_seeds_example_orange_and_yellow_both_wither():
    # A plants orange beside a yellow flower; B plants red beside that orange.
    state = position(east=garden(B1="Y"))
    after = play(state, card("Orange", "E:A"), card("Red", "E:B3", remove=["Blue", "White"]))
    assert tile(after, "E:A") == ""  # Orange beside Red
    assert tile(after, "E:B1") == ""  # Yellow beside Orange, withered all at once
    assert tile(after, "E:B3") == "R"


def last_round(state) -> str:
    """The last round as `tablelog show` tells it to the players."""
    return RULES.render(state, ["Ann", "Ben"]).split("last round: ")[1].split("\n")[0]


def test_what_withered_is_told_by_garden_and_tile_in_the_games_words():
    state = position(east=garden(B1="Y"))
    after = play(state, card("Orange", "E:A"), card("Red", "E:B3", remove=["Blue", "White"]))
    told = last_round(after)
    assert "withered in the Eastern garden: the Orange flower on A, the Yellow flower on B1" in told
    assert not re.search(r"\b[EW]:[A-D]", told), told  # no notation of the docs' shorthand


def test_withering_is_the_cycle_red_orange_yellow_blue_purple_white_red():
    for strong, weak in [
        ("R", "Orange"),
        ("O", "Yellow"),
        ("Y", "Blue"),
        ("B", "Purple"),
        ("P", "White"),
        ("W", "Red"),
    ]:
        state = position(east=garden(B1=strong, B4=strong))
        parameters: dict[str, dict[str, Any]] = {
            "Yellow": {"spread": "B2"},
            "Red": {"remove": ["Green", "Blue"]},
        }
        after = play(state, card(weak, "E:A", **parameters.get(weak, {})), QUIET)
        assert tile(after, "E:A") == "" and tile(after, "E:B1") == strong, (strong, weak)


def test_flowers_that_do_not_wither_each_other_stand():
    state = position(east=garden(B1="R"))
    after = play(state, card("Blue", "E:A"), QUIET)  # Red and Blue: neither withers the other
    assert tile(after, "E:A") == "B" and tile(after, "E:B1") == "R"


# ---- hoeing -----------------------------------------------------------------------------------


def test_hoeing_clears_both_tiles_grass_and_what_was_planted_this_round():
    state = position(east=garden(B1="G", B2="R"))
    after = play(state, hoe("B1", "B2"), card("Blue", "E:B1"))  # Blue on the grass, then hoed
    assert tile(after, "E:B1") == "" and tile(after, "E:B2") == ""
    assert after.hands[0] == CARDS  # hoeing plays no card


def test_hoeing_comes_after_withering():
    # The Red on B1 is hoed, but only at the very end: the Orange beside it withers first.
    state = position(east=garden(B1="R", B2="R"))
    after = play(state, hoe("B1", "B2"), card("Orange", "E:A"))
    assert tile(after, "E:A") == "" and tile(after, "E:B1") == ""


def test_a_hoe_needs_two_adjacent_planted_tiles_of_ones_own_garden():
    state = position(east=garden(B1="G", B3="R"), west=garden(B1="R", B2="R"))
    refused(state, hoe("B1", "B2"), QUIET, "B2 in the Eastern garden", "nothing planted")
    refused(state, hoe("B1", "B3"), QUIET, "not adjacent")
    refused(state, {"hoe": ["B1"]}, QUIET, "two tiles")


# ---- illegal choices --------------------------------------------------------------------------


def test_planting_on_a_flower_is_refused():
    state = position(west=garden(A="R", B1="GB"))
    refused(state, card("Blue", "W:A"), QUIET, "A in the Western garden", "a Red flower")
    refused(state, card("Blue", "W:B1"), QUIET, "a Blue flower on grass")


def test_green_on_grass_is_refused():
    refused(position(east=garden(A="G")), card("Green", "E:A"), QUIET, "Green", "empty tiles")


def test_a_card_not_in_hand_is_refused():
    state = position(hands=(("Red", "Blue"), CARDS))
    refused(state, card("Green", "E:A"), QUIET, "Green is not in the Elimination Candidate's hand")
    refused(state, card("Red", "E:A", remove=["Orange"]), QUIET, "Orange is not there")


def test_a_tile_outside_the_current_garden_is_refused():
    refused(
        position(round=8), card("Green", "E:C1"), QUIET, "C1 is not in the Eastern garden", "LVL1"
    )
    refused(position(round=16), hoe("D1", "D2"), QUIET, "D1", "LVL2")
    refused(position(round=1), card("Green", "W:E5"), QUIET, "'E5' is not a tile")


def test_the_gardens_grow_at_round_9_and_17_keeping_their_tiles():
    state = position(east=garden(A="R", B1="G"), round=8)
    after = play(state, card("Green", "E:B2"), QUIET)
    assert after.round == 9 and tile(after, "E:A") == "R" and tile(after, "E:B1") == "G"
    after = play(after, card("Blue", "E:C1"), card("Blue", "W:C12"))
    assert tile(after, "E:C1") == "B"
    refused(after, card("White", "E:D1"), QUIET, "LVL2")
    assert tile(play(position(round=17), card("Green", "E:D18"), QUIET), "E:D18") == "G"


def test_malformed_rounds_name_the_shape():
    refused(position(), card("Green", "E:A"), None, "card or a hoe")
    with pytest.raises(IllegalMove, match="one round"):
        RULES.apply(position(), {"east": card("Green", "E:A")})
    refused(position(), {"card": "Green", "garden": "north", "tile": "A"}, QUIET, "east, west")
    refused(position(), card("Green", "E:A", spread="B1"), QUIET, "not a parameter of Green")


# ---- bout ends and the match ------------------------------------------------------------------

RING = dict(A="G", B1="R", B2="Y", B3="P", B4="O", B5="W")  # B6 to go: Blue fits beside W and R


def test_six_colours_connected_in_the_first_eight_rounds_win_the_bout():
    state = position(east=garden(**RING), round=5)
    after = play(state, card("Blue", "E:B6"), QUIET)
    assert after.bout == 2 and after.round == 1 and after.gardens == (EMPTY, EMPTY)
    assert after.hands == (CARDS, CARDS)
    result = after.bouts[0]
    assert (result.winner, result.round, result.condition) == (0, 5, "six colours connected")
    assert result.figures[0] == GardenFigures(
        flowers=6, blue=1, biggest_patch=1, colours_connected=6
    )
    assert result.figures[1] == GardenFigures(0, 0, 0, 0)


def test_six_colours_in_both_gardens_at_once_decide_nothing():
    state = position(east=garden(**RING), west=garden(**RING), round=5)
    after = play(state, card("Blue", "E:B6"), card("Blue", "W:B6"))
    assert after.bouts == () and after.round == 6


def test_six_colours_after_round_8_do_not_end_the_bout():
    state = position(east=garden(**RING), round=9)
    after = play(state, card("Blue", "E:B6"), QUIET)
    assert after.bouts == () and after.round == 10


def test_the_biggest_patch_after_round_16_wins():
    east = garden(A="R", B1="R", B2="R", C5="B")  # a Red patch of 3
    west = garden(A="B", B1="B", C7="B")  # a Blue patch of 2 and a single
    after = play(position(east, west, round=16), card("Green", "E:C1"), card("Green", "W:C1"))
    result = after.bouts[0]
    assert (result.winner, result.round, result.condition) == (0, 16, "biggest patch")
    assert (result.figures[0].biggest_patch, result.figures[1].biggest_patch) == (3, 2)


def test_a_tied_biggest_patch_decides_nothing_and_the_gardens_grow():
    east, west = garden(A="R", B1="R"), garden(C3="P", C4="P")
    after = play(position(east, west, round=16), card("Green", "E:C1"), card("Green", "W:C1"))
    assert after.bouts == () and after.round == 17 and after.level == 3


def test_more_flowers_after_round_22_win():
    east = garden(A="R", C1="R", C3="R", C5="R")
    west = garden(A="B", C1="B", C3="B", C5="B", C7="B")
    after = play(position(east, west, round=22), card("Green", "E:D1"), card("Green", "W:D1"))
    result = after.bouts[0]
    assert (result.winner, result.round, result.condition) == (1, 22, "most flowers")
    assert (result.figures[0].flowers, result.figures[1].flowers) == (4, 5)


def test_tied_flowers_after_round_22_decide_nothing():
    east, west = garden(A="R", C1="R"), garden(A="B", C1="B")
    after = play(position(east, west, round=22), card("Green", "E:D1"), card("Green", "W:D1"))
    assert after.bouts == () and after.round == 23


def test_more_blue_after_round_25_wins_and_a_tie_goes_to_the_death_match_opponent():
    east, west = garden(A="B", C1="B", D1="R"), garden(A="B", D1="R", D5="R", D9="R")
    after = play(position(east, west, round=25), card("Green", "E:D3"), card("Green", "W:D3"))
    assert (after.bouts[0].winner, after.bouts[0].condition) == (0, "most Blue")
    tied = play(
        position(garden(A="B"), garden(C1="B"), round=25),
        card("Green", "E:D3"),
        card("Green", "W:D3"),
    )
    assert (tied.bouts[0].winner, tied.bouts[0].round) == (1, 25)


def test_two_bouts_win_the_match_and_the_score_shows_why():
    state = position(east=garden(**RING), round=3)
    state = play(state, card("Blue", "E:B6"), QUIET)  # bout 1 to East
    assert RULES.outcome(state) is None and state.bout == 2
    state = dataclasses.replace(state, gardens=(EMPTY, garden(**RING)), round=7)
    state = play(state, QUIET_EAST, card("Blue", "W:B6"))  # bout 2 to West
    assert RULES.outcome(state) is None and state.bout == 3
    state = dataclasses.replace(state, gardens=(garden(**RING), EMPTY), round=2)
    state = play(state, card("Blue", "E:B6"), QUIET)  # bout 3 to East
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranking == ((0,), (1,))
    assert "2-1" in outcome.reason
    assert RULES.to_move(state) == () and RULES.choices(state, 0) == []
    refused(state, card("Green", "E:A"), QUIET, "the match is over")
    east, west = RULES.score(state)
    assert east["total"] == 2 and west["total"] == 1
    assert east["categories"]["six colours connected"] == 2
    assert [
        (b["bout"], b["won"], b["round"], b["condition"]) for b in east["details"]["bouts"]
    ] == [
        (1, True, 3, "six colours connected"),
        (2, False, 7, "six colours connected"),
        (3, True, 2, "six colours connected"),
    ]
    assert east["details"]["bouts"][1]["other_garden"]["colours_connected"] == 6
    assert tile(state, "E:B6") == "B"  # the last bout's gardens stay on show


# ---- hands, choices, the interface ------------------------------------------------------------


def test_a_played_card_leaves_the_hand_and_the_last_card_brings_a_fresh_seven():
    after = play(position(hands=(("Blue", "White"), ("Green",))), card("Blue", "E:A"), QUIET)
    assert after.hands == (("White",), CARDS)


def test_choices_at_the_start_count_every_card_tile_and_parameter():
    # Per garden, 7 empty tiles: Red 15 pairs of the other six cards each (105); Yellow spreads
    # from A to 6 tiles, from each B tile to 3 (A and its two ring neighbours): 24; Orange,
    # Green, Blue, Purple (nothing to recolour) and White one each: 35. No hoe: nothing planted.
    assert len(RULES.choices(position(), 0)) == 2 * (105 + 24 + 35)


def test_choices_offer_hoes_on_adjacent_planted_pairs_only():
    state = position(west=garden(A="R", B1="G", B4="Y"))
    hoes = [c["hoe"] for c in RULES.choices(state, 1) if "hoe" in c]
    assert sorted(map(sorted, hoes)) == [["A", "B1"], ["A", "B4"]]


def test_legal_moves_points_to_choices_while_a_round_is_awaited():
    with pytest.raises(NotImplementedError, match="choices"):
        RULES.legal_moves(position())
    assert RULES.to_move(position()) == (0, 1)
    move = RULES.combine(position(), {1: QUIET, 0: QUIET_EAST})
    assert move == {"east": QUIET_EAST, "west": QUIET}


def test_evaluate_reads_progress_toward_the_current_condition():
    east, west = garden(A="R", B1="R", B2="R"), garden(A="B", C1="B")
    state = position(east, west, round=12)  # the biggest patch counts: 3 to 1
    assert RULES.evaluate(state, 0) > 0 > RULES.evaluate(state, 1)
    late = position(east, west, round=24)  # now Blue counts: 0 to 2
    assert RULES.evaluate(late, 1) > 0 > RULES.evaluate(late, 0)


def test_describe_and_move_kind():
    move = {"east": card("Red", "W:B3", remove=["Blue", "White"]), "west": hoe("B1", "B2")}
    assert RULES.describe(move) == (
        "East plays Red on B3 in the west garden removing Blue and White; West hoes B1 and B2"
    )
    assert RULES.move_kind(move) == "Red v hoe"
