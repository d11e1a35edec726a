"""Total Landscaping, hoeing against a card (issue 27), from the seed's words:

    "Hoeing will always happen strictly at the very end of a round. If your opponent plays a card,
    the flower will always be planted an its effect will always trigger, unless it involves the
    tiles selected by the hoe."

RULES.md reads "involves" as: the card's planting tile, or the tile its effect acts on (Yellow's
spread tile, Purple's recoloured flower). Such a card's effect does not trigger; its flower is
still planted, and then hoed as usual. Rules version 1 let every effect trigger and only then
hoed; its matches replay with the option `hoeing=after-effects`, which keeps that reading.

Every expected value is worked out by hand from the seed and RULES.md.
"""

from __future__ import annotations

import pytest

from tablelog.domain.games import InvalidSetup
from tablelog.domain.games.total_landscaping.rules import CARDS, RULES

from .test_total_landscaping import card, garden, hoe, play, position, refused, tile

OLD_READING = "after-effects"


def test_the_issues_reproduction_the_red_on_a_hoed_tile_removes_nothing():
    # Round 1: both plant grass on W:B1 and W:B2. Round 2: West's Orange triggers (East's Blue
    # does not wither it), so the hands are exchanged: East now holds West's five cards.
    state = RULES.start(2, RULES.options({}), {})
    state = play(state, card("Green", "W:B1"), card("Green", "W:B2"))
    state = play(state, card("Blue", "E:A"), card("Orange", "W:A"))
    assert state.hands[0] == ("Red", "Yellow", "Blue", "Purple", "White")
    # Round 3: East's Red on W:B1 names Yellow and Purple, but West hoes B1 and B2.
    after = play(state, card("Red", "W:B1", remove=["Yellow", "Purple"]), hoe("B1", "B2"))
    assert after.hands[0] == ("Yellow", "Blue", "Purple", "White")  # only the Red left
    assert not any(happening[0] == "removes" for happening in after.last_round)
    assert ("hoed-off", "east", "Red", "west", "B1") in after.last_round
    assert tile(after, "W:B1") == "" and tile(after, "W:B2") == ""  # planted, then hoed


def test_version_1s_reading_lets_the_red_remove_the_cards_before_the_hoe():
    state = RULES.start(2, RULES.options({"hoeing": OLD_READING}), {})
    state = play(state, card("Green", "W:B1"), card("Green", "W:B2"))
    state = play(state, card("Blue", "E:A"), card("Orange", "W:A"))
    after = play(state, card("Red", "W:B1", remove=["Yellow", "Purple"]), hoe("B1", "B2"))
    assert after.hands[0] == ("Blue", "White")
    assert ("removes", "east", "Yellow", "Purple") in after.last_round
    assert "East removes Yellow and Purple" in RULES.render(after, ["Ann", "Ben"])


def test_a_card_whose_tiles_the_hoe_misses_triggers_as_always():
    state = position(west=garden(B1="G", B2="G"))
    after = play(state, card("Red", "W:A", remove=["Blue", "White"]), hoe("B1", "B2"))
    assert after.hands[0] == ("Orange", "Yellow", "Green", "Purple")
    assert tile(after, "W:A") == "R"


def test_an_orange_on_a_hoed_tile_exchanges_no_hands():
    state = position(west=garden(B1="G", B2="G"))
    after = play(state, card("Orange", "W:B1"), hoe("B1", "B2"))
    # No exchange: East keeps its six, West (who played no card) its seven.
    assert after.hands == (tuple(c for c in CARDS if c != "Orange"), CARDS)
    old = play(
        position(west=garden(B1="G", B2="G"), hoeing=OLD_READING),
        card("Orange", "W:B1"),
        hoe("B1", "B2"),
    )
    assert old.hands == (CARDS, tuple(c for c in CARDS if c != "Orange"))


def test_a_yellow_planted_on_a_hoed_tile_does_not_spread():
    state = position(west=garden(B1="G", B2="R"))
    after = play(state, card("Yellow", "W:B1", spread="A"), hoe("B1", "B2"))
    assert tile(after, "W:A") == ""
    assert tile(after, "W:B1") == "" and tile(after, "W:B2") == ""
    old = play(
        position(west=garden(B1="G", B2="R"), hoeing=OLD_READING),
        card("Yellow", "W:B1", spread="A"),
        hoe("B1", "B2"),
    )
    assert tile(old, "W:A") == "Y"


def test_an_effect_the_hoe_stops_needs_no_parameters():
    # Both players see the hoe before naming the planting and the parameters.
    state = position(west=garden(B1="G", B2="G"))
    after = play(state, card("Red", "W:B1"), hoe("B1", "B2"))
    assert after.hands[0] == tuple(c for c in CARDS if c != "Red")
    play(state, card("Yellow", "W:B1"), hoe("B1", "B2"))
    old = position(west=garden(B1="G", B2="G"), hoeing=OLD_READING)
    refused(old, card("Red", "W:B1"), hoe("B1", "B2"), "name")


def test_a_purple_recolouring_a_hoed_flower_leaves_it_as_it_was():
    # LVL2. W:C1's White touches W:B1, not W:A. Turned purple, B1 would wither that White
    # (Purple withers White) before the hoe clears B1; left Red, it withers nothing.
    state = position(west=garden(B1="R", B2="R", C1="W"), round=9)
    after = play(state, card("Purple", "W:A", recolour="B1"), hoe("B1", "B2"))
    assert tile(after, "W:C1") == "W" and tile(after, "W:A") == "P"
    assert tile(after, "W:B1") == "" and tile(after, "W:B2") == ""
    told = RULES.render(after, ["Ann", "Ben"])
    assert "involves A and B1 in the Western garden, hoed this round" in told
    old = play(
        position(west=garden(B1="R", B2="R", C1="W"), round=9, hoeing=OLD_READING),
        card("Purple", "W:A", recolour="B1"),
        hoe("B1", "B2"),
    )
    assert tile(old, "W:C1") == "" and tile(old, "W:A") == "P"


def test_white_still_negates_and_is_never_stopped():
    # No card faces a hoe here, so White's own effect works as always: it negates the Red.
    state = position(west=garden(B1="G", B2="G"))
    after = play(state, card("Red", "W:A", remove=["Blue", "Yellow"]), card("White", "W:B3"))
    assert after.hands[0] == tuple(c for c in CARDS if c != "Red")


def test_the_option_and_the_versions():
    assert RULES.version == "2"
    assert RULES.options({}) == {"hoeing": "stops-effects"}
    assert RULES.options({"hoeing": OLD_READING}) == {"hoeing": OLD_READING}
    with pytest.raises(InvalidSetup, match="hoeing must be"):
        RULES.options({"hoeing": "never"})
    with pytest.raises(InvalidSetup, match="one option is hoeing"):
        RULES.options({"colour": "red"})
    assert RULES.replay_options("1", {}) == {"hoeing": OLD_READING}
    assert RULES.replay_options("1", {"hoeing": "stops-effects"}) == {"hoeing": OLD_READING}
    assert RULES.replay_options("2", {"hoeing": "stops-effects"}) == {"hoeing": "stops-effects"}
    with pytest.raises(InvalidSetup, match="version 3"):
        RULES.replay_options("3", {})


def test_the_reading_survives_into_the_next_bout():
    # The example match's winning garden, but for the Red on B1 that connects six colours.
    east = garden(A="G", B2="Y", B3="P", B4="O", B5="W", B6="B")
    state = position(east=east, round=7, hands=(("Red",), CARDS), hoeing=OLD_READING)
    after = play(state, card("Red", "E:B1", remove=[]), card("Green", "W:A"))
    assert after.bout == 2 and after.bouts[0].winner == 0
    assert after.hoeing == OLD_READING
