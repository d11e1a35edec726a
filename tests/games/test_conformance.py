"""The contract every registered rules engine keeps (after OpenSpiel's per-game conformance test).

Random legal playouts from several seeds and every player count; each offered move is accepted;
replaying the recorded moves gives equal states at every step; states and moves survive JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tablelog.domain.games import GAMES, IllegalMove, Outcome

SEEDS = range(4)
CASES = [
    (game, players, seed)
    for game, rules in GAMES.items()
    for players in range(rules.min_players, rules.max_players + 1)
    for seed in SEEDS
]


def playout(rules, players, seed, cap=None):
    """Play random legal moves to the end (or the cap); return the start, moves and states."""
    rng = random.Random(seed)
    options = rules.options({})
    setup = rules.deal(players, options, rng)
    state = rules.start(players, options, json.loads(json.dumps(setup)))
    start, moves, states = state, list[dict[str, Any]](), [state]
    cap = cap or rules.playout_cap or 10_000
    while rules.outcome(state) is None and len(moves) < cap:
        move = rules.random_move(state, rng)
        state = rules.apply(state, move)
        moves.append(move)
        states.append(state)
    return setup, start, moves, states


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_random_playout_reaches_an_end_and_replays_equal(game, players, seed):
    rules = GAMES[game]
    setup, start, moves, states = playout(rules, players, seed)
    if rules.playout_cap is None:
        assert rules.outcome(states[-1]) is not None, f"{game} did not end in {len(moves)} moves"
    # Replay from the JSON of the setup and the moves: equal states at every step.
    replayed = rules.start(players, rules.options({}), json.loads(json.dumps(setup)))
    assert replayed == start
    for move, expected in zip(json.loads(json.dumps(moves)), states[1:]):
        replayed = rules.apply(replayed, move)
        assert replayed == expected


@pytest.mark.parametrize(("game", "players", "seed"), CASES[::3])
def test_every_offered_move_is_accepted(game, players, seed):
    rules = GAMES[game]
    _, _, _, states = playout(rules, players, seed)
    rng = random.Random(seed)
    for state in states[:: max(1, len(states) // 12)]:
        if rules.outcome(state) is not None:
            assert rules.legal_moves(state) == []
            continue
        if rules.simultaneous:  # the product of both seats' choices is too large to list
            offered = [rules.random_move(state, rng) for _ in range(30)]
            for seat in rules.to_move(state):
                assert rules.choices(state, seat), f"seat {seat} is awaited but has no choice"
        else:
            offered = rules.legal_moves(state)
            assert offered or rules.outcome(state) is not None
        for move in offered:
            rules.apply(state, json.loads(json.dumps(move)))


@pytest.mark.parametrize(("game", "players", "seed"), CASES[::2])
def test_states_survive_a_json_round_trip(game, players, seed):
    rules = GAMES[game]
    _, _, _, states = playout(rules, players, seed)
    for state in states:
        assert rules.decode(json.loads(json.dumps(rules.encode(state)))) == state


@pytest.mark.parametrize("game", list(GAMES))
def test_a_finished_game_refuses_further_moves_and_reports_its_outcome(game):
    rules = GAMES[game]
    for seed in range(20):
        _, _, moves, states = playout(rules, rules.min_players, seed)
        outcome = rules.outcome(states[-1])
        if outcome is not None:
            break
    else:
        pytest.skip(f"no random {game} playout ended within its cap")
    assert isinstance(outcome, Outcome)
    assert rules.legal_moves(states[-1]) == []
    assert all(rules.choices(states[-1], seat) == [] for seat in range(rules.min_players))
    assert rules.to_move(states[-1]) == ()
    with pytest.raises(IllegalMove):
        rules.apply(states[-1], moves[-1])
    seated = {seat for group in outcome.ranking for seat in group}
    assert seated == set(range(rules.min_players)), "the ranking places every seat once"


@pytest.mark.parametrize("game", list(GAMES))
def test_score_has_one_entry_per_seat_with_categories(game):
    rules = GAMES[game]
    for players in range(rules.min_players, rules.max_players + 1):
        _, _, _, states = playout(rules, players, 1)
        scores = rules.score(states[-1])
        assert len(scores) == players
        for entry in scores:
            assert set(entry) == {"total", "categories", "details"}
            json.dumps(entry)


@pytest.mark.parametrize("game", list(GAMES))
def test_malformed_moves_are_refused_with_a_reason(game):
    rules = GAMES[game]
    _, start, _, _ = playout(rules, rules.min_players, 0, cap=1)
    junks: list[object] = [{}, {"nonsense": 1}, [], "a1", None, {"to": None}]
    for junk in junks:
        with pytest.raises(IllegalMove) as refused:
            rules.apply(start, junk)  # type: ignore[arg-type]  # junk, deliberately
        assert str(refused.value).strip(), "an IllegalMove carries a reason"


@pytest.mark.parametrize("game", list(GAMES))
def test_engine_describes_itself(game):
    rules = GAMES[game]
    assert rules.id == game and rules.name and rules.version
    assert 1 <= rules.min_players <= rules.max_players
    _, _start, moves, states = playout(rules, rules.min_players, 2, cap=5)
    seats = [f"P{i}" for i in range(rules.min_players)]
    for state in states:
        assert rules.render(state, seats).strip()
    for move in moves:
        assert rules.describe(move) and rules.move_kind(move)
