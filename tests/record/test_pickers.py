"""The Record page's move pickers, without a browser: whatever a player taps ends in a move the
engine accepts; every move of the example games can be tapped in; hidden identities are offered
from what the manifest still allows; the setup questions make setups the engines accept."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tablelog.dashboard.record import Question, Ready, StalePicks, build, menu
from tablelog.dashboard.record import setup as setups
from tablelog.dashboard.record.picking import DONE
from tablelog.domain.games import GAMES, get_rules
from tablelog.domain.matches.records import from_record
from tests.packaged import example_path

from .entering import picks_for

ENTERED_AS_RECORDED = ["topitop", "topiary", "topas", "geoshapes"]


def example(game: str):
    return from_record(json.loads(example_path(game).read_text()))


def question(*args) -> Question:
    """The Record page's next question for a move (not yet a complete move)."""
    step = menu(*args)
    assert isinstance(step, Question), f"a complete move, not a question: {step}"
    return step


def setup_question(*args) -> Question:
    step = setups.menu(*args)
    assert isinstance(step, Question), f"a complete setup, not a question: {step}"
    return step


def tap_at_random(game, rules, state, rng, names=None):
    """A player tapping any offered answer until the move is complete; the move."""
    seat, picks = rules.to_move(state)[0], list[list[Any]]()
    for _ in range(40):
        step = menu(game, rules, state, seat, picks, names)
        if isinstance(step, Ready):
            return step.move, picks
        assert step.options, f"{game}: question {step.key!r} offers nothing"
        picks.append([step.key, rng.choice(step.options).value])
    raise AssertionError(f"{game}: no move after 40 taps: {picks}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_any_series_of_taps_ends_in_a_move_the_engine_accepts(game):
    rules, rng = get_rules(game), random.Random(7)
    for players in sorted({rules.min_players, rules.max_players}):
        for _game in range(2):
            state = rules.start(players, rules.options({}), _table_setup(game, players))
            for _turn in range(30):
                if not rules.to_move(state):
                    break
                move, _picks = tap_at_random(game, rules, state, rng)
                state = rules.apply(state, move)  # raises IllegalMove if a menu lied


def _table_setup(game: str, players: int) -> dict:
    """What a table sees at the start (hidden parts unknown), from the setup questions."""
    picks, rng = list[list[Any]](), random.Random(players)
    while True:
        step = setups.menu(game, players, picks)
        if isinstance(step, Ready):
            return step.move["setup"]
        picks.append(
            [
                step.key,
                rng.choice([o for o in step.options if o.value != DONE] or step.options).value,
            ]
        )


@pytest.mark.parametrize("game", ENTERED_AS_RECORDED)
def test_every_move_of_the_example_game_can_be_tapped_in(game):
    match = example(game)
    for number, entry in enumerate(match.moves):
        state = match.states[number]
        seat = match.rules.to_move(state)[0]
        picks = picks_for(game, match.rules, state, seat, entry["move"], list(match.seats))
        assert build(game, match.rules, state, seat, picks) == entry["move"]


def test_topitop_asks_for_the_piece_then_the_target():
    rules = get_rules("topitop")
    state = rules.apply(rules.start(2, rules.options({}), {}), {"place": "large", "to": "b2"})
    step = question("topitop", rules, state, 1, [], ["Ann", "Ben"])
    labels = {o.value: o.label for o in step.options}
    assert step.key == "piece"
    assert labels["supply:bucket"] == "Ben's bucket from the supply"
    assert labels["b2"] == "b2: large pile"  # a neutral pile may be slid by either player
    step = question("topitop", rules, state, 1, [["piece", "b2"]])
    # b2 slides to any of its 8 neighbours (all empty); a1 first, in reading order
    assert [o.value for o in step.options] == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]
    ready = menu("topitop", rules, state, 1, [["piece", "b2"], ["to", "c3"]])
    assert ready == Ready({"from": "b2", "to": "c3"})


def test_an_answer_the_position_no_longer_offers_is_stale_not_a_move():
    rules = get_rules("topitop")
    state = rules.apply(rules.start(2, rules.options({}), {}), {"place": "large", "to": "b2"})
    with pytest.raises(StalePicks):
        menu("topitop", rules, state, 1, [["piece", "supply:small"], ["to", "b2"]])
    with pytest.raises(StalePicks, match="not complete"):
        build("topitop", rules, state, 1, [["piece", "b2"]])


def test_topiary_offers_where_to_stand_then_which_way_to_look_then_take_then_the_tile_placed():
    rules = get_rules("topiary")
    state = rules.start(
        2, rules.options({}), {"removed": "Elephant", "garden": {"c3": "Pom Pom 4"}}
    )
    step = question("topiary", rules, state, 0, [])
    # 24 squares around the 5x5 garden: 20 beside it, 4 at its corners
    assert step.key == "stand" and len(step.options) == 24
    labels = {o.label: o.value for o in step.options}
    assert {"above b1", "right of e3", "below c5", "left of a2", "corner by a1"} <= set(labels)
    # above b1 a visitor looks down column b, or along a diagonal to a1 or to c1
    step = question("topiary", rules, state, 0, [["stand", labels["above b1"]]])
    assert step.key == "visitor"
    assert {o.value: o.label for o in step.options} == {
        "b1:S": "↓ to b1",
        "c1:SE": "↘ to c1",
        "a1:SW": "↙ to a1",
    }
    # at the corner by a1 only the diagonal into the garden
    step = question("topiary", rules, state, 0, [["stand", labels["corner by a1"]]])
    assert [o.value for o in step.options] == ["a1:SE"]
    picks = [["stand", labels["above c1"]], ["visitor", "c1:S"]]
    step = question("topiary", rules, state, 0, picks)
    # c1:S looks down column c: c1, c2, c4, c5 are face down; c3 is face up (not taken)
    assert [o.value for o in step.options] == ["", "c1", "c2", "c4", "c5"]
    assert menu("topiary", rules, state, 0, [*picks, ["take", ""]]) == Ready({"visitor": "c1:S"})


def test_topiary_took_offers_only_unseen_tiles_and_then_places_it():
    rules = get_rules("topiary")
    state = rules.start(
        2,
        rules.options({}),
        {"removed": "Elephant", "garden": {"c3": "Pom Pom 4"}, "hands": [["Swan 4"], []]},
    )
    picks: list[list[Any]] = [["stand", [2, -1]], ["visitor", "c1:S"], ["take", "c1"]]
    step = question("topiary", rules, state, 0, picks)
    offered = [o.value for o in step.options]
    assert step.key == "took" and offered[0] == ""  # "not shown to the table"
    # 35 tiles in play; Pom Pom 4 is face up and Swan 4 in Ann's hand: 33 may be under c1
    assert len(offered) == 1 + 33
    assert "Pom Pom 4" not in offered and "Swan 4" not in offered
    assert not any(t.startswith("Elephant") for t in offered)
    step = question("topiary", rules, state, 0, [*picks, ["took", "Whale 5"]])
    places = [o.value for o in step.options]
    # Ann's hand: Swan 4 and two unseen tiles, plus the Whale 5 just taken
    assert places[:2] == ["Swan 4", "Whale 5"] and "Pom Pom 4" not in places
    move = build("topiary", rules, state, 0, [*picks, ["took", "Whale 5"], ["place", "Whale 5"]])
    assert move == {"visitor": "c1:S", "take": "c1", "took": "Whale 5", "place": "Whale 5"}
    rules.apply(state, move)


def test_topiary_reveal_is_picked_tile_by_tile_from_what_nobody_has_seen():
    match = example("topiary")
    before_reveal = match.states[16]
    step = question("topiary", match.rules, before_reveal, 0, [])
    assert step.key == "reveal" and step.several
    picks = [["reveal", "Pyramid 4"], ["reveal", "Swan 3"]]
    step = question("topiary", match.rules, before_reveal, 0, picks)
    assert "Pyramid 4" not in [o.value for o in step.options]  # one tile of each
    assert menu("topiary", match.rules, before_reveal, 0, [*picks, ["reveal", "Whale 1"]]) == Ready(
        {"reveal": ["Pyramid 4", "Swan 3", "Whale 1"]}
    )


def test_topas_asks_card_then_the_first_halfs_cell_then_where_the_second_points():
    rules = get_rules("topas")
    state = rules.start(1, rules.options({}), {"start": "R2-B1"})
    step = question("topas", rules, state, 0, [])
    assert step.key == "card" and "R2-B1" not in [o.value for o in step.options]
    assert len(step.options) == 35
    step = question("topas", rules, state, 0, [["card", "R1-G2"]])
    labels = {tuple(o.value): o.label for o in step.options}
    assert labels[(0, 1)] == "below R2 (the start card's left half)"
    assert labels[(2, 0)] == "right of B1 (1 right from the start card's left half)"
    assert len(set(labels.values())) == len(labels)  # a button per cell, told apart in words
    step = question("topas", rules, state, 0, [["card", "R1-G2"], ["at", [0, 1]]])
    # from (0,1) G2 may point down or left; right is free too; up is the start card
    assert {o.value for o in step.options} == {"S", "W", "E"}
    assert menu(
        "topas", rules, state, 0, [["card", "R1-G2"], ["at", [0, 1]], ["dir", "S"]]
    ) == Ready({"card": "R1-G2", "at": [0, 1], "dir": "S"})


def test_total_landscaping_takes_both_players_choices_then_combines_them():
    rules = get_rules("total-landscaping")
    state = rules.start(2, {}, {})
    east = [
        ["east.card", "Red"],
        ["east.garden", "west"],
        ["east.tile", "B3"],
        ["east.remove", "White"],
        ["east.remove", "Blue"],
    ]
    step = question("total-landscaping", rules, state, 0, east, ["Ann", "Ben"])
    assert step.key == "west.card" and step.prompt.startswith("Ben (West)")
    west = [["west.card", "Green"], ["west.garden", "west"], ["west.tile", "A"]]
    move = build("total-landscaping", rules, state, 0, [*east, *west])
    assert move == {
        "east": {"card": "Red", "garden": "west", "tile": "B3", "remove": ["Blue", "White"]},
        "west": {"card": "Green", "garden": "west", "tile": "A"},
    }
    rules.apply(state, move)


def test_geoshapes_trade_is_built_from_what_the_players_hold():
    match = example("geoshapes")
    state, rules = match.states[0], match.rules
    step = question("geoshapes", rules, state, 0, [["action", "trade"], ["with", 1]])
    assert step.key == "give"
    # Ann holds Trapezoid, Right Triangle x2, Hexagon and nothing on the board yet
    assert [o.value for o in step.options] == [
        "hand:Hexagon",
        "hand:Right Triangle",
        "hand:Trapezoid",
    ]
    picks: list[list[Any]] = [
        ["action", "trade"],
        ["with", 1],
        ["give", "hand:Hexagon"],
        ["give", DONE],
        ["get", "hand:Semicircle"],
        ["get", "hand:Semicircle"],
    ]
    step = question("geoshapes", rules, state, 0, picks)
    # Ben held two Semicircles: both are asked for, none is left to offer
    assert "hand:Semicircle" not in [o.value for o in step.options]
    picks += [["get", "hand:Square"], ["accepted", True]]  # the third ends the asking
    assert build("geoshapes", rules, state, 0, picks) == match.moves[0]["move"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_setup_questions_make_a_setup_the_engine_starts_from(game):
    rules = get_rules(game)
    for players in range(rules.min_players, rules.max_players + 1):
        picks: list[list[Any]] = []
        while not isinstance(step := setups.menu(game, players, picks), Ready):
            assert isinstance(step, Question) and step.options
            choice = next((o for o in step.options if o.value != DONE), step.options[0])
            picks.append([step.key, choice.value])
        rules.start(players, rules.options(step.move["options"]), step.move["setup"])


def test_the_topiary_setup_asks_for_the_removed_type_only_with_two_or_three_players():
    asked = setup_question("topiary", 4, [["last_player_chooses", False]])
    assert asked.key == "c3"
    assert setup_question("topiary", 2, [["last_player_chooses", False]]).key == "removed"
    step = setup_question("topiary", 2, [["last_player_chooses", False], ["removed", "Swan"]])
    assert not any(o.value.startswith("Swan") for o in step.options)
