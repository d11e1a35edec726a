"""Simulated matches: deterministic by seed, whole, and indistinguishable from logged ones."""

from __future__ import annotations

import pytest

from tablelog.domain.games import GAMES
from tablelog.domain.matches.records import from_record
from tablelog.simulation import (
    Plan,
    make_plan,
    move_cap,
    play_match,
    simulate,
    simulate_all,
)
from tablelog.simulation.plan import RUNAWAY, match_rng
from tablelog.store import open_recorder

from .helpers import chain_is_whole, exports, run, without_ids_and_times


def mixed_plans(game: str, matches: int, seed: int) -> list[Plan]:
    """Every player count of the game, greedy and random bots side by side."""
    rules = GAMES[game]
    return [
        make_plan(
            game,
            matches,
            seed + players,
            players,
            ",".join(("greedy", "random")[seat % 2] for seat in range(players)),
        )
        for players in range(rules.min_players, rules.max_players + 1)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_the_same_seed_stores_the_same_matches_in_separate_processes(tmp_path, game):
    # Two runs of the command (so two interpreters, each with its own hash seed), one with two
    # worker processes and one in-process: equal records apart from timestamps.
    first, second, other = (str(tmp_path / f"{name}.sqlite") for name in ("a", "b", "c"))
    args = [
        "simulate",
        game,
        "-n",
        "6",
        "--seed",
        "5",
        "--bots",
        "greedy" + ",random" * (GAMES[game].min_players - 1),
    ]
    assert run(first, *args, "--workers", "2").returncode == 0
    assert run(second, *args, "--workers", "1").returncode == 0
    assert run(other, *args[:-2], "--seed", "6", *args[-2:]).returncode == 0
    a, b, c = ([without_ids_and_times(r) for r in exports(s)] for s in (first, second, other))
    assert len(a) == 6 and a == b
    assert a != c  # and the seed does matter
    # The same run is the same matches, ids included; another seed, other matches.
    assert [r["id"] for r in exports(first)] == [r["id"] for r in exports(second)]
    assert not {r["id"] for r in exports(first)} & {r["id"] for r in exports(other)}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_simulated_match_replays_and_rescores_equal(store, game):
    recorder = open_recorder(store)
    plans = mixed_plans(game, 3, seed=20)
    reports = simulate_all(recorder, plans, workers=2, progress=False)
    assert [r.matches for r in reports] == [3] * len(plans)
    records = exports(store)
    assert len(records) == 3 * len(plans)
    for record in records:
        stored = recorder.get(record["id"])
        replayed = from_record(record)  # every entry again through the command methods
        rules = stored.rules
        assert stored.status == replayed.status == "ended"
        assert stored.states == replayed.states
        assert rules.score(stored.state) == rules.score(replayed.state)
        assert stored.outcome == replayed.outcome
        outcome = rules.outcome(stored.state)
        if outcome is None:  # only at the move cap, and then as a draw by agreement
            assert len(stored.moves) == move_cap(game)
            assert stored.outcome is not None and stored.outcome["reason"] == "draw by agreement"
        else:
            assert stored.outcome == outcome.to_json()
        assert chain_is_whole(recorder.stored_events(stored.id))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_started_event_holds_the_whole_deal_of_the_seed(game):
    plan = make_plan(game, 3, seed=8)
    rules = GAMES[game]
    for number in range(3):
        match = play_match(plan, number)
        assert match.setup == rules.deal(plan.players, plan.options, match_rng(8, number))
        assert match.seats == plan.seats == [f"random-{n}" for n in range(1, plan.players + 1)]


@pytest.mark.parametrize("game", [g for g, rules in GAMES.items() if rules.playout_cap is None])
def test_greedy_bots_finish_games_that_end_by_their_rules(game):
    # A greedy seat that went round in circles would be stopped by the runaway cap; in a game
    # that ends by its rules it never needs to be.
    plan = make_plan(game, 6, seed=30, bots="greedy")
    for number in range(plan.matches):
        match = play_match(plan, number)
        assert match.outcome is not None and match.outcome["reason"] != "draw by agreement"
        assert len(match.moves) < RUNAWAY


def test_a_match_that_reaches_the_cap_is_drawn_by_agreement_and_replays(store, monkeypatch):
    monkeypatch.setattr(GAMES["topitop"], "playout_cap", 6)  # no Topitop game ends in 6 actions
    recorder = open_recorder(store)
    report = simulate(recorder, make_plan("topitop", 3, seed=1), workers=1, progress=False)
    assert report.capped == report.draws == 3
    for record in exports(store):
        assert len([e for e in record["events"] if e["type"] == "move"]) == 6
        assert record["events"][-1]["type"] == "end" and record["events"][-1]["agreed_draw"]
        outcome = from_record(record).outcome
        assert outcome is not None and outcome["reason"] == "draw by agreement"


def test_the_report_counts_what_was_stored(store):
    recorder = open_recorder(store)
    report = simulate(
        recorder, make_plan("topitop", 12, seed=2, bots="greedy,random"), workers=2, progress=False
    )
    records = exports(store)
    assert report.matches == len(records) == 12
    assert report.events == sum(len(r["events"]) + 1 for r in records)
    assert report.wins[0] == sum(r["events"][-1]["outcome"]["winners"] == [0] for r in records)
    assert "greedy-1 won" in report.summary() and not report.interrupted


def test_simulations_store_on_every_kind_of_store(any_store):
    recorder = open_recorder(any_store)
    try:
        simulate(recorder, make_plan("topiary", 8, seed=3, players=3), workers=2, progress=False)
        ids = [started.originator_id for started in recorder.started()]
        assert len(ids) == 8
        for match_id in ids:
            assert from_record(recorder.export(match_id)).states == recorder.get(match_id).states
    finally:
        recorder.close()
