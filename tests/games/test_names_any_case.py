"""Names in moves and setups are read in any case in every game, and a move typed in any case is
stored as the move the rules offer (`GameRules.typed_move`), so a stored log spells each name one
way. Checked over random positions of every game, and at the command line."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tablelog.domain.games import InvalidSetup, get_rules
from tablelog.domain.games.spelling import as_offered
from tablelog.store import open_recorder

GAMES = ["topiary", "topas", "topitop", "total-landscaping", "geoshapes"]


def recased(value, rng: random.Random):
    """`value` with every letter of every string in a random case (keys left alone)."""
    if isinstance(value, str):
        return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in value)
    if isinstance(value, list):
        return [recased(v, rng) for v in value]
    if isinstance(value, dict):
        return {k: recased(v, rng) for k, v in value.items()}
    return value


def by_name(move, names):
    """GeoShapes' players as a person types them (by name): stored, a seat is an index."""
    if "pick_up" in move:
        return {**move, "pick_up": names[move["pick_up"]]}
    if "trade" in move:
        return {**move, "trade": {**move["trade"], "with": names[move["trade"]["with"]]}}
    return move


def position(game: str, seed: int, moves: int):
    rules, rng = get_rules(game), random.Random(seed)
    seats = rng.randint(rules.min_players, rules.max_players)
    options = rules.options({})
    state = rules.start(seats, options, rules.deal(seats, options, rng))
    for _ in range(moves):
        if not rules.to_move(state):
            break
        state = rules.apply(state, rules.random_move(state, rng))
    return rules, state, seats, rng


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), moves=st.integers(0, 40))
def test_any_case_of_a_legal_move_is_accepted_and_stored_as_the_offered_move(game, seed, moves):
    rules, state, seats, rng = position(game, seed, moves)
    if not rules.to_move(state):
        return
    move = rules.random_move(state, rng)
    variant = recased(move, rng)
    rules.apply(state, variant)  # accepted as typed: no IllegalMove
    names = [f"P{n}" for n in range(seats)]
    stored = rules.typed_move(state, by_name(variant, names), names)
    assert stored == move
    assert rules.apply(state, stored) == rules.apply(state, move)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_case_of_a_dealt_setup_starts_the_same_game(game, seed):
    rules, rng = get_rules(game), random.Random(seed)
    for seats in range(rules.min_players, rules.max_players + 1):
        options = rules.options({})
        setup = rules.deal(seats, options, rng)
        assert rules.start(seats, options, recased(setup, rng)) == rules.start(
            seats, options, setup
        )


def test_topiarys_removed_type_is_read_in_any_case_and_an_unknown_one_refused():
    rules = get_rules("topiary")
    options = rules.options({})
    setup = rules.deal(2, options, random.Random(5))
    typed = {**setup, "removed": setup["removed"].lower()}
    assert rules.start(2, options, typed) == rules.start(2, options, setup)
    with pytest.raises(InvalidSetup, match="one sculpture type is removed"):
        rules.start(2, options, {**setup, "removed": "unicorn"})


def test_as_offered_keeps_a_move_nothing_matches():
    offered = [{"place": "small", "to": "b2"}]
    assert as_offered({"place": "SMALL", "to": "B2"}, offered) == offered[0]
    assert as_offered({"place": "huge", "to": "b2"}, offered) == {"place": "huge", "to": "b2"}


def test_a_move_typed_in_any_case_at_the_command_line_is_stored_as_offered(store):
    def tablelog(*args: str):
        return CliRunner().invoke(main, list(args), env={"TABLELOG_STORE": store})

    match_id = tablelog("new", "topitop", "--players", "Ann,Ben").output.strip()
    done = tablelog("move", match_id, "--seat", "1", json.dumps({"place": "Small", "to": "B2"}))
    assert done.exit_code == 0, done.output
    assert done.output.startswith("move 1: Ann ")
    (recorded,) = open_recorder(store).get(match_id).moves
    assert recorded["move"] == {"place": "small", "to": "b2"}
