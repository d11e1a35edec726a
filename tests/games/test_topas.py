"""Topas: the deck, placement, scoring (both variants), partial information, solitaire.

Cells are (x, y) from the start card's first half, x east, y south (see docs/games/topas.md).
Every expected score below is worked out by hand from the rules; the comments show the working.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from tablelog.domain.games import IllegalMove, InvalidSetup
from tablelog.domain.games.topas.rules import RULES, load_deck
from tablelog.domain.games.topas.table import direction
from tests.packaged import example

DECK = load_deck("topas").cards


def place(card, x, y, direction):
    return {"card": card, "at": [x, y], "dir": direction}


def play(moves, start="R2-B1", players=2, expert=False, setup=None):
    """A logged game (only the start card known) after the given moves."""
    options = RULES.options({"expert": expert})
    state = RULES.start(players, options, setup or {"start": start})
    for move in moves:
        state = RULES.apply(state, move)
    return state


def refused(state, move, *fragments):
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, move)
    for fragment in fragments:
        assert fragment in str(err.value), str(err.value)
    return str(err.value)


def whole_deal(start, hands):
    """A complete deal: the given start and hands, the rest of the deck as the pile in
    manifest order."""
    used = {start, *itertools.chain(*hands)}
    return {"start": start, "hands": hands, "pile": [c for c in DECK if c not in used]}


# ---- the deck -----------------------------------------------------------------------------------


def test_the_deck_has_36_cards_one_per_colour_pair_and_ordered_pair_of_distinct_counts():
    assert len(DECK) == len(set(DECK)) == 36
    expected = {
        frozenset({(a, m), (b, n)})
        for a, b in itertools.combinations("RGYB", 2)
        for m, n in itertools.permutations((1, 2, 3), 2)
    }
    assert {frozenset(load_deck("topas").halves[c]) for c in DECK} == expected
    assert "R2-B1" in DECK


# ---- placement ----------------------------------------------------------------------------------


def test_the_start_card_lies_on_0_0_and_1_0_in_the_order_it_is_named():
    table = RULES.table(play([], start="R2-B1"))
    assert table.halves == {(0, 0): ("R", 2), (1, 0): ("B", 1)}
    flipped = RULES.table(play([], start="B1-R2"))
    assert flipped.halves == {(0, 0): ("B", 1), (1, 0): ("R", 2)}


def test_the_first_named_half_goes_on_at_and_the_second_one_step_in_dir():
    for name, halves in (
        ("R1-G2", {(0, 1): ("R", 1), (0, 2): ("G", 2)}),
        ("G2-R1", {(0, 1): ("G", 2), (0, 2): ("R", 1)}),
    ):
        table = RULES.table(play([place(name, 0, 1, "S")]))
        assert {c: h for c, h in table.halves.items() if c[1] > 0} == halves
    west = RULES.table(play([place("R1-G2", 0, -1, "W")]))
    assert west.halves[(0, -1)] == ("R", 1) and west.halves[(-1, -1)] == ("G", 2)


def test_a_card_may_touch_the_table_with_either_half_on_any_side():
    state = play([])
    accepted = {
        (m["at"][0], m["at"][1], m["dir"]) for m in RULES.legal_moves(state) if m["card"] == "R1-G2"
    }
    assert (-2, 0, "E") in accepted  # second half touches R2 from the west
    assert (1, -2, "S") in accepted  # second half touches B1 from the north
    assert (0, 1, "E") in accepted  # lying along the start card, below it
    assert (2, 1, "E") not in accepted  # only a corner touches B1


# ---- scoring: zero to four lines, both variants -------------------------------------------------

# Start R2-B1: R2 on (0,0), B1 on (1,0).
ONE_LINE = [place("R1-G2", 0, 1, "E")]
# R1 under R2: red 2+1 = 3. G2 under B1, beside R1: nothing.
TWO_LINES = [place("R3-B2", 0, 1, "E")]
# R3 under R2: red 2+3 = 5; B2 under B1: blue 1+2 = 3.
SET_UP_RED = place("R1-G2", -1, 1, "N")
# R1 on (-1,1), G2 on (-1,0) beside R2 (a different colour): no line, 0.
THREE_LINES = [SET_UP_RED, place("R3-B2", 0, 1, "E")]
# R3 on (0,1): with R1 to the west, red 1+3 = 4; under R2, red 2+3 = 5. B2 under B1: blue 3.
SET_UP_BLUE = place("G1-B3", 2, 0, "S")
# G1 on (2,0) beside B1, B3 on (2,1) under G1: no line, 0.
FOUR_LINES = [SET_UP_RED, SET_UP_BLUE, place("R3-B2", 0, 1, "E")]
# R3 on (0,1): red 1+3 = 4 across, red 2+3 = 5 down; B2 on (1,1): blue 2+3 = 5 across, 1+2 = 3 down.


@pytest.mark.parametrize(
    ("moves", "lines", "total", "product"),
    [
        ([SET_UP_RED], [], 0, 0),
        (ONE_LINE, [3], 3, 3),
        (TWO_LINES, [5, 3], 8, 15),
        (THREE_LINES, [4, 5, 3], 12, 60),
        (FOUR_LINES, [4, 5, 5, 3], 17, 300),
    ],
    ids=["no line", "one line", "two lines", "three lines", "four lines"],
)
def test_a_placement_scores_the_sum_of_its_lines_or_in_the_expert_variant_their_product(
    moves, lines, total, product
):
    standard, expert = play(moves), play(moves, expert=True)
    assert sorted(line.gems for line in standard.placements[-1].lines) == sorted(lines)
    assert standard.placements[-1].points == total
    assert expert.placements[-1].points == product


def test_each_scoring_line_is_reported_with_colour_gems_and_cells():
    detail = RULES.score(play(FOUR_LINES))[0]["details"]["placements"][-1]
    assert detail["card"] == "R3-B2" and detail["cells"] == [[0, 1], [1, 1]]
    assert detail["round"] == 2 and detail["points"] == 17
    lines = {
        (line["colour"], line["axis"]): (line["gems"], line["cells"]) for line in detail["lines"]
    }
    assert lines == {
        ("red", "horizontal"): (4, [[-1, 1], [0, 1]]),
        ("red", "vertical"): (5, [[0, 0], [0, 1]]),
        ("blue", "horizontal"): (5, [[1, 1], [2, 1]]),
        ("blue", "vertical"): (3, [[1, 0], [1, 1]]),
    }


def test_points_by_gem_colour_and_the_product_bonus_add_up_to_the_total():
    standard = RULES.score(play(FOUR_LINES))
    # Seat 0 played R1-G2 (0) and R3-B2 (red 4 + 5, blue 5 + 3); seat 1 played G1-B3 (0).
    assert standard[0]["total"] == 17
    assert standard[0]["categories"] == {"red": 9, "green": 0, "yellow": 0, "blue": 8}
    assert standard[1]["total"] == 0
    expert = RULES.score(play(FOUR_LINES, expert=True))
    assert expert[0]["total"] == 300
    assert expert[0]["categories"] == {
        "red": 9,
        "green": 0,
        "yellow": 0,
        "blue": 8,
        "product bonus": 300 - 17,
    }


def test_a_run_of_one_colour_scores_all_its_gems_through_several_cards():
    # R3-B2 under the start card, then R1-B3 under that: red 2+3+1 = 6, blue 1+2+3 = 6.
    state = play([place("R3-B2", 0, 1, "E"), place("R1-B3", 0, 2, "E")])
    assert state.placements[-1].points == 12
    assert (
        play([place("R3-B2", 0, 1, "E"), place("R1-B3", 0, 2, "E")], expert=True)
        .placements[-1]
        .points
        == 36
    )


# ---- the over-7 rule: the rule text's example ---------------------------------------------------

# Start G1-Y3: G1 on (0,0), Y3 on (1,0). Y2-B1 puts Y2 under Y3 (yellow 5); R2-G3 puts R2 under G1.
EIGHT_GEMS = [place("Y2-B1", 1, 1, "E"), place("R2-G3", 0, 1, "W")]


def test_the_red_yellow_card_may_not_be_played_where_yellow_would_reach_eight():
    state = play(EIGHT_GEMS, start="G1-Y3")
    assert [p.points for p in state.placements] == [5, 0]
    # R1-Y3 under them: red 2+1 would score, but yellow 3+2+3 = 8 is refused.
    refused(
        state,
        place("R1-Y3", 0, 2, "E"),
        "yellow vertical line",
        "8 gems",
        "no line of more than 7 gems",
    )
    refused(state, place("Y3-R1", 1, 2, "W"), "8 gems")
    assert {"card": "R1-Y3", "at": [0, 2], "dir": "E"} not in RULES.legal_moves(state)


def test_a_line_of_exactly_seven_gems_is_allowed():
    state = play(EIGHT_GEMS + [place("R1-Y2", 0, 2, "E")], start="G1-Y3")
    # R1 under R2: red 3; Y2 under Y2 under Y3: yellow 3+2+2 = 7. Expert: 3 x 7.
    assert state.placements[-1].points == 10
    assert (
        play(EIGHT_GEMS + [place("R1-Y2", 0, 2, "E")], start="G1-Y3", expert=True)
        .placements[-1]
        .points
        == 21
    )


def test_over_seven_counts_a_run_across_several_cards():
    # R2 (start) + R3 (R3-B2) + R3 (R3-G1) down column 0 would be red 8.
    state = play([place("R3-B2", 0, 1, "E")])
    refused(
        state,
        place("R3-G1", 0, 2, "E"),
        "the red vertical line of 3 halves running down from the cell of the start card's "
        "left half would hold 8 gems",
    )


# A position as a program writes it, "(1,0)" or "(-1, 2)": never in what a player reads.
COORDINATES = re.compile(r"\(\s*-?\d+\s*,")


def test_every_refusal_and_the_last_placement_name_places_in_words_not_coordinates():
    eight = play(EIGHT_GEMS, start="G1-Y3")
    seen = [
        refused(play([]), place("R1-G2", 1, 0, "S"), "may not overlap"),
        refused(play([]), place("R1-G2", -2, 3, "N"), "touches no card"),
        refused(eight, place("R1-Y3", 0, 2, "E"), "8 gems"),
        RULES.render(eight, ["Ann", "Ben"]).split("\nlast: ")[1].split("\n")[0],
    ]
    for text in seen:
        assert not COORDINATES.search(text), text
        assert "start card's left half" in text, text


# ---- illegal placements -------------------------------------------------------------------------


def test_a_card_may_not_overlap_the_table():
    state = play([])
    refused(
        state,
        place("R1-G2", 1, 0, "S"),
        "the cell 1 right from the start card's left half already holds a half of R2-B1",
        "may not overlap",
    )
    refused(
        state,
        place("R1-G2", 0, 1, "N"),
        "the cell of the start card's left half already holds",
        "may not overlap",
    )


def test_a_card_must_touch_the_table_edge_to_edge():
    state = play([])
    refused(
        state,
        place("R1-G2", 0, 2, "E"),
        "R1-G2 there (R1 2 down from the start card's left half, G2 right of it) touches no card",
        "edge to edge",
    )
    refused(state, place("R1-G2", 2, 1, "E"), "touches no card")  # a corner is not an edge


def test_an_unknown_card_is_refused():
    state = play([])
    refused(state, place("R2-G2", 0, 1, "E"), "no card R2-G2 in the Topas deck")
    refused(state, place("P1-B2", 0, 1, "E"), "no gem colour P")
    refused(state, place("ruby", 0, 1, "E"), "not a card name")


def test_a_card_already_seen_is_refused():
    refused(play([]), place("R2-B1", 0, 1, "E"), "R2-B1 is the start card", "exists once")
    state = play(ONE_LINE)
    refused(state, place("R1-G2", 0, -1, "E"), "R1-G2 has already been played (round 1)")
    refused(state, place("G2-R1", 0, -1, "E"), "R1-G2 has already been played")


def test_with_a_known_deal_the_card_must_be_in_the_players_hand():
    setup = whole_deal("R2-B1", [["R1-G2", "R1-G3", "R2-G1"], ["R2-G3", "R3-G1", "R3-G2"]])
    state = RULES.start(2, RULES.options({}), setup)
    refused(
        state,
        place("R3-G2", 0, 1, "E"),
        "R3-G2 is not in the hand of the player to move (R1-G2, R1-G3, R2-G1)",
    )
    assert {m["card"] for m in RULES.legal_moves(state)} == {"R1-G2", "R1-G3", "R2-G1"}
    state = RULES.apply(state, place("R1-G2", 0, 1, "E"))
    # Place, then draw: the pile's top is the first card of the deck not dealt, R1-Y2.
    assert state.hands is not None and state.hands[0] == ("R1-G3", "R2-G1", "R1-Y2")
    assert state.pile is not None and len(state.pile) == 36 - 1 - 6 - 1


def test_no_card_may_be_played_after_the_last_round():
    state = first_legal_game(2, {"start": "R2-B1"})[-1]
    assert len(state.placements) == 14
    assert RULES.outcome(state) is not None and RULES.to_move(state) == ()
    unseen = next(c for c in DECK if c not in state.seen())
    refused(state, place(unseen, -1, 0, "W"), "the game is over", "every player has placed 7 cards")


def test_malformed_moves_name_the_move_format():
    state = play([])
    refused(state, {"card": "R1-G2", "at": [0, 1]}, '"dir"', "got the keys")
    refused(state, place("R1-G2", 0, 1, "up"), "'dir' must be N, E, S or W")
    refused(state, {"card": "R1-G2", "at": "0,1", "dir": "E"}, "'at' must be a cell [x, y]")
    refused(state, {"card": "R1-G2", "at": [True, 1], "dir": "E"}, "'at' must be a cell")
    refused(state, {"start": "R1-G2"}, "a start card is turned up only")


# ---- the game: rounds, the pile, ties -----------------------------------------------------------


def first_legal_game(players, setup, choose=None):
    state = RULES.start(players, RULES.options({}), setup)
    states = [state]
    while RULES.outcome(state) is None:
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, choose(state, moves) if choose else moves[0])
        states.append(state)
    return states


def test_with_four_players_the_pile_runs_out_and_everyone_still_places_seven_cards():
    hands = [list(DECK[1 + 3 * s : 4 + 3 * s]) for s in range(4)]
    states = first_legal_game(4, whole_deal(DECK[0], hands))
    # 36 - start - 12 in hand = 23 in the pile: it is empty after the 23rd placement.
    assert len(states[22].pile) == 1 and len(states[23].pile) == 0
    end = states[-1]
    assert len(end.placements) == 28
    assert [sum(p.seat == s for p in end.placements) for s in range(4)] == [7] * 4
    # Seats 0-2 drew after six placements each (3 + 6 - 7 = 2 left), seat 3 after five (1 left).
    assert [len(h) for h in end.hands] == [2, 2, 2, 1]


@pytest.mark.parametrize("players", [2, 3])
def test_with_two_or_three_players_the_pile_lasts_and_the_game_has_seven_rounds(players):
    hands = [list(DECK[1 + 3 * s : 4 + 3 * s]) for s in range(players)]
    end = first_legal_game(players, whole_deal(DECK[0], hands))[-1]
    assert len(end.placements) == 7 * players
    assert len(end.pile) == 36 - 1 - 3 * players - 7 * players
    assert all(len(h) == 3 for h in end.hands)


def scoring_nothing(state, moves):
    """The first legal move that makes no line (found by trying them)."""
    return next(m for m in moves if RULES.apply(state, m).placements[-1].points == 0)


def test_equal_totals_share_the_win():
    # Seat 0: R1 under R2, red 3. Seat 1: B2 east of B1, blue 1+2 = 3 (G1 above B2 touches
    # nothing green). Then nobody scores.
    opening = [place("R1-G2", 0, 1, "E"), place("G1-B2", 2, -1, "S")]
    state = play(opening)
    assert [p.points for p in state.placements] == [3, 3]
    while RULES.outcome(state) is None:
        state = RULES.apply(state, scoring_nothing(state, RULES.legal_moves(state)))
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.shared and outcome.ranking == ((0, 1),)
    assert "shared win" in outcome.reason
    assert [entry["total"] for entry in RULES.score(state)] == [3, 3]


def test_the_highest_total_wins_alone():
    state = play(ONE_LINE)  # seat 0 leads 3 to 0
    while RULES.outcome(state) is None:
        state = RULES.apply(state, scoring_nothing(state, RULES.legal_moves(state)))
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranking == ((0,), (1,))


# ---- solitaire ----------------------------------------------------------------------------------


def test_solitaire_with_the_deal_plays_four_columns_and_clears_the_table_between_them():
    setup = {"start": DECK[0], "hands": [[DECK[1]]], "pile": list(DECK[2:])}
    states = first_legal_game(1, setup)
    # Each card drawn is played at once: the hand holds one card.
    assert RULES.legal_moves(states[0])[0]["card"] == DECK[1]
    assert {m["card"] for m in RULES.legal_moves(states[0])} == {DECK[1]}
    # Placement 7 ends column 1: the pile's top (card 8) starts column 2, card 9 is drawn.
    after = states[7]
    assert after.starts == (DECK[0], DECK[8]) and after.hands == ((DECK[9],),)
    assert set(RULES.table(after).halves) == {(0, 0), (1, 0)}
    refused(after, place(DECK[9], 5, 5, "E"), "touches no card")
    end = states[-1]
    assert len(end.placements) == 28 and len(end.starts) == 4
    # 4 start cards and 28 placed: the last card drawn and three in the pile are never used.
    assert end.hands == ((DECK[32],),) and end.pile == DECK[33:]
    refused(end, place(DECK[32], 0, 1, "E"), "the game is over", "all four columns")


def test_logged_solitaire_turns_up_each_start_card_and_scores_the_lowest_column():
    # Column openings worked by hand; everything else scores nothing.
    columns = [
        ("R2-B1", place("R1-G2", 0, 1, "E")),  # R1 under R2: 3
        ("G1-Y3", place("Y2-B1", 1, 1, "E")),  # Y2 under Y3: 5
        ("Y1-B2", place("Y3-B1", 0, 1, "E")),  # Y3 under Y1: 4, B1 under B2: 3 -> 7
        ("G2-B3", place("G2-Y1", 0, 1, "E")),
    ]  # G2 under G2: 4
    reserved = {c for start, move in columns for c in (start, move["card"])}
    state = RULES.start(1, RULES.options({}), {"start": "R2-B1"})
    for number, (start, opening) in enumerate(columns):
        if number:
            refusal = refused(state, opening, f"column {number + 1} has no start card yet")
            assert refusal.endswith("turn its start card up first"), refusal  # words, no JSON
            refused(state, {"start": "R1-G2"}, "R1-G2 has already been played (column 1)")
            state = RULES.apply(state, {"start": start})
        state = RULES.apply(state, opening)
        for _ in range(6):
            moves = [m for m in RULES.legal_moves(state) if m["card"] not in reserved]
            state = RULES.apply(state, scoring_nothing(state, moves))
    assert RULES.column_totals(state) == [3, 5, 7, 4]
    entry = RULES.score(state)[0]
    assert entry["total"] == 3
    assert entry["categories"]["column 3"] == 7
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and "lowest of the four columns (3, 5, 7, 4)" in outcome.reason


# ---- partial information ------------------------------------------------------------------------


def test_a_logged_game_knows_no_hands_and_accepts_any_unseen_card():
    state = play([])
    assert state.hands is None and state.pile is None
    offered = {m["card"] for m in RULES.legal_moves(state)}
    assert offered == set(DECK) - {"R2-B1"}


def test_the_table_log_of_a_dealt_game_replays_to_the_same_scores():
    setup = RULES.deal(3, RULES.options({}), random.Random(7))
    states = first_legal_game(3, setup, choose=lambda s, moves: moves[len(moves) // 2])
    moves = [
        {"card": p.card, "at": list(p.cells[0]), "dir": direction(*p.cells)}
        for p in states[-1].placements
    ]
    logged = play(moves, start=setup["start"], players=3)
    assert logged.placements == states[-1].placements
    assert RULES.outcome(logged) == RULES.outcome(states[-1])


# ---- options and setups -------------------------------------------------------------------------


def test_options_accept_strings_from_the_command_line():
    # the rulebook's options are stored as they were before a head start was declared: a
    # simulated match's id is made of them, and a run again must find the matches it stored
    assert RULES.options({"expert": "true"}) == {"expert": True, "manifest": "topas"}
    assert RULES.options({}) == {"expert": False, "manifest": "topas"}
    assert RULES.options({"head_start": "0"}) == {"expert": False, "manifest": "topas"}
    assert RULES.options({"head_start": "2"})["head_start"] == 2
    with pytest.raises(InvalidSetup, match="expert must be true or false"):
        RULES.options({"expert": "sometimes"})
    with pytest.raises(
        InvalidSetup, match="options are expert, manifest, head_start and second_head_start"
    ):
        RULES.options({"rounds": 9})


def test_setups_are_checked_against_the_deck():
    with pytest.raises(InvalidSetup, match="start card"):
        RULES.start(2, {}, {"start": "R2-R1"})
    with pytest.raises(InvalidSetup, match="not 5"):
        RULES.start(5, {}, {"start": "R2-B1"})
    with pytest.raises(InvalidSetup, match="together"):
        RULES.start(2, {}, {"start": "R2-B1", "hands": [["R1-G2", "R1-G3", "R2-G1"]] * 2})
    deal = whole_deal("R2-B1", [["R1-G2", "R1-G3", "R2-G1"], ["R2-G3", "R3-G1", "R3-G2"]])
    deal["pile"][0] = "R1-G2"
    with pytest.raises(InvalidSetup, match=r"twice \['R1-G2'\], missing \['R1-Y2'\]"):
        RULES.start(2, {}, deal)


# ---- showing ------------------------------------------------------------------------------------


def test_render_draws_the_cards_with_their_halves_joined():
    state = play([place("R1-G2", 0, 1, "S")])
    text = RULES.render(state, ["Ann", "Ben"])
    assert (
        "\n".join(["   x 0   1", "  y", "  0  R2--B1", "  1  R1  .", "     |", "  2  G2  ."])
        in text
    )
    # R1 under R2: red 3 for Ann.
    assert "Ann: 3 points" in text and "Ben: 0 points" in text and "to move: Ben" in text


def test_render_names_the_lines_of_the_last_placement_and_how_they_combine():
    assert "red 5 + blue 3 = 8" in RULES.render(play(TWO_LINES), ["Ann", "Ben"])
    assert "red 5 x blue 3 = 15" in RULES.render(play(TWO_LINES, expert=True), ["Ann", "Ben"])


def test_the_example_match_is_legal_finished_and_its_claim_is_right():
    record = example("topas")
    assert record["format"] == "tablelog-match/1" and record["game"] == "topas"
    seats = record["seats"]
    state = RULES.start(len(seats), RULES.options(record["options"]), record["setup"])
    claims = []
    for event in record["events"]:
        if event["type"] == "move":
            assert RULES.to_move(state) == (seats.index(event["seat"]),)
            state = RULES.apply(state, event["move"])
        elif event["type"] == "claim":
            claims.append(event["scores"])
    assert RULES.outcome(state) is not None
    assert claims[-1] == {seats[s]: e["total"] for s, e in enumerate(RULES.score(state))}


def test_a_clubs_own_deck_is_read_from_its_manifest(club_manifests):
    cards = ["R1-G2", "R2-G1", "G1-B2", "G2-B1", "R1-B2", "R2-B1", "Y1-B2", "Y2-B1", "R1-Y2"]
    small = club_manifests(
        "small", {"colours": {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}, "cards": cards}
    )
    options = RULES.options({"manifest": small})
    with pytest.raises(InvalidSetup, match=r"2 player.* need 15 cards, the deck has 9"):
        RULES.start(2, options, {"start": "R2-B1"})
    bad = club_manifests("bad", {"colours": {"R": "red"}, "cards": ["R1-R2"]})
    with pytest.raises(InvalidSetup, match="not a card of two colours"):
        RULES.options({"manifest": bad})
