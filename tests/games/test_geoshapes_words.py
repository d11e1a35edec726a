"""GeoShapes in the words every other game uses: seats counted from 1 or named by their players,
names of shapes, figures and quadrants in any case, while every stored move and every old record
keeps its meaning (a stored seat is an index counted from 0).

The example record (data/examples/geoshapes.json, stored form: Ann is 0, Ben is 1) is logged
again at the command line in the typed vocabulary, and what is stored must be exactly its moves.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tablelog.domain.games import IllegalMove, InvalidSetup
from tablelog.domain.games.geoshapes.rules import RULES
from tablelog.store import open_recorder
from tests.packaged import example

SEATS = ["Ann", "Ben"]


def tablelog(store: str, *args: str):
    return CliRunner().invoke(main, list(args), env={"TABLELOG_STORE": store})


def table(seats: int = 2, seed: int = 1, moves: int = 0):
    """A dealt game on the default board, `moves` random legal moves in."""
    rng = random.Random(seed)
    options = RULES.options({})
    state = RULES.start(seats, options, RULES.deal(seats, options, rng))
    for _ in range(moves):
        if RULES.outcome(state) is not None:
            break
        state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
    return state


# ---- seats as a person types them ---------------------------------------------------------


@pytest.mark.parametrize("typed", ["Ben", "ben", " BEN ", 2, "2"])
def test_a_seat_is_typed_by_its_players_name_or_its_number_from_one(typed):
    state = table()
    assert RULES.typed_move(state, {"pick_up": typed}, SEATS) == {"pick_up": 1}
    offer = {"with": typed, "give": ["Square"], "get": ["Wild"], "accepted": False}
    stored = RULES.typed_move(state, {"trade": offer}, SEATS)
    assert stored["trade"]["with"] == 1


@pytest.mark.parametrize("typed", [0, 3, "0", "Cid", True, None, 1.0])
def test_a_seat_that_is_no_player_is_refused_naming_the_players(typed):
    with pytest.raises(IllegalMove, match="1 Ann, 2 Ben"):
        RULES.typed_move(table(), {"pick_up": typed}, SEATS)


def test_moves_are_described_with_names_and_without_them_from_one():
    offer = {"trade": {"with": 0, "give": ["Square"], "get": ["Wild"], "accepted": True}}
    assert RULES.describe(offer, SEATS) == "offers Ann Square for Wild: accepted"
    assert RULES.describe(offer) == "offers seat 1 Square for Wild: accepted"
    assert RULES.describe({"pick_up": 1}, SEATS) == "picks up Ben's shape discards"
    assert RULES.describe({"pick_up": 1}) == "picks up seat 2's shape discards"


def test_a_refusal_counts_seats_from_one_and_names_the_quadrant():
    with pytest.raises(IllegalMove) as err:
        RULES.apply(table(), {"pick_up": 1})
    assert str(err.value) == (
        "the shape discards of seat 2 (North-East) are empty: there is no stack to pick up"
    )


def test_the_stored_reason_keeps_its_words_and_is_shown_with_the_name():
    # audit compares the stored outcome with the rules' own, so release 0.1's words stay.
    stored = "seat 1 completed a figure and the circle with a shape to spare"
    assert RULES.named_reason(stored, SEATS) == (
        "Ben completed a figure and the circle with a shape to spare"
    )
    other = "the deck ran out and the round ended with nobody completing a figure and circle"
    assert RULES.named_reason(other, SEATS) == other


# ---- names in any case --------------------------------------------------------------------


def _recase(value, rng: random.Random):
    """`value` with every letter of every string in a random case (keys left alone)."""
    if isinstance(value, str):
        return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in value)
    if isinstance(value, list):
        return [_recase(v, rng) for v in value]
    if isinstance(value, dict):
        return {k: _recase(v, rng) for k, v in value.items()}
    return value


def _typed_seats(move: dict, rng: random.Random, seats: list[str]) -> dict:
    """The stored seats of `move` as a person might type them: a name or a number from 1."""

    def typed(seat: int):
        return rng.choice([seats[seat], seats[seat].lower(), seat + 1, str(seat + 1)])

    if "pick_up" in move:
        return {**move, "pick_up": typed(move["pick_up"])}
    if "trade" in move:
        return {**move, "trade": {**move["trade"], "with": typed(move["trade"]["with"])}}
    return move


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60), players=st.integers(2, 4))
def test_any_case_of_a_legal_move_is_accepted_and_stored_as_the_legal_move(seed, moves, players):
    state = table(players, seed, moves)
    if RULES.outcome(state) is not None:
        return
    rng = random.Random(seed)
    seats = [f"Player{n}" for n in range(players)]
    move = rng.choice(RULES.legal_moves(state))
    variant = _recase(move, rng)
    assert RULES.apply(state, variant) == RULES.apply(state, move)
    assert RULES.typed_move(state, _typed_seats(variant, rng, seats), seats) == move


def test_a_setup_reads_shapes_and_quadrants_in_any_case():
    options = RULES.options({"manifest": "geoshapes"})
    hands = [
        ["Trapezoid", "Right Triangle", "Right Triangle", "Square"],
        ["Hexagon", "Hexagon", "Semicircle", "Square"],
    ]
    spelled = {"hands": hands, "quadrants": ["South-East", "North-West"]}
    typed = {
        "hands": [[s.lower() for s in hands[0]], [s.upper() for s in hands[1]]],
        "quadrants": ["south-east", "NORTH-WEST"],
    }
    assert RULES.start(2, options, typed) == RULES.start(2, options, spelled)
    with pytest.raises(InvalidSetup, match="the hand of seat 2 names"):
        RULES.start(
            2, options, {"hands": [hands[0], ["Hexagon", "Semicircle", "Square", "Pentagon"]]}
        )


# ---- at the command line, against the stored form of an old record -----------------------


def _typed_example_moves() -> list[tuple[str, dict]]:
    """The example's moves as a person types them: seats by name or number, names recased."""
    rng = random.Random(22)
    moves = []
    for number, entry in enumerate(
        e for e in example("geoshapes")["events"] if e["type"] == "move"
    ):
        typed = _recase(_typed_seats(entry["move"], rng, ["Ann", "Ben"]), rng)
        seat = entry["seat"] if number % 2 else str(["Ann", "Ben"].index(entry["seat"]) + 1)
        moves.append((seat, typed))
    return moves


def test_the_example_typed_at_the_command_line_stores_the_records_own_moves(store, tmp_path):
    record = example("geoshapes")
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps(record["setup"]))
    started = tablelog(
        store, "new", "geoshapes", "--players", "Ann,Ben", "--option", "manifest=geoshapes",
        "--setup", str(setup),
    )  # fmt: skip
    match_id = started.output.strip()
    said = []
    for seat, move in _typed_example_moves():
        done = tablelog(store, "move", match_id[:8], "--seat", seat, json.dumps(move))
        assert done.exit_code == 0, done.output
        said.append(done.output)
    # The player's name, never the raw --seat argument; seats in a move by name.
    assert said[0].startswith("move 1: Ann offers Ben Hexagon for Semicircle, Semicircle, Square")
    assert said[7].startswith("move 8: Ben offers Ann Quarter Circle for Square: refused")
    assert said[-1].startswith(
        "move 14: Ann discards a Square; game over: Ann completed a figure and the circle"
    )
    stored = open_recorder(store).get(match_id)
    expected = [e["move"] for e in record["events"] if e["type"] == "move"]
    assert [m["move"] for m in stored.moves] == expected
    assert [s["total"] for s in stored.rules.score(stored.state)] == [25, -3]


def test_the_old_record_still_imports_to_the_same_scores_and_is_shown_with_names(store, tmp_path):
    path = tmp_path / "geoshapes.json"
    path.write_text(json.dumps(example("geoshapes")))
    assert tablelog(store, "import", str(path)).exit_code == 0, "import refused"
    (row,) = json.loads(tablelog(store, "list", "--json").output)
    score = json.loads(tablelog(store, "score", row["id"], "--json").output)
    assert [(s["seat"], s["total"]) for s in score["seats"]] == [("Ann", 25), ("Ben", -3)]
    assert score["outcome"]["reason"] == (
        "Ann completed a figure and the circle with a shape to spare"
    )
    # The stored end keeps release 0.1's words, and the rules still agree with it.
    exported = json.loads(tablelog(store, "export", row["id"]).output)
    (end,) = [e for e in exported["events"] if e["type"] == "end"]
    assert (
        end["outcome"]["reason"] == "seat 0 completed a figure and the circle with a shape to spare"
    )
    assert tablelog(store, "audit", row["id"]).exit_code == 0
