"""Experiments: the same definition gives the same report; restricted agents keep their word;
every match is stored whole through the recorder and listed with its experiment."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from tablelog import lab
from tablelog.cli import main
from tablelog.domain.agents import make_agent
from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules
from tablelog.lab.run import play, run
from tablelog.lab.store import LabStore


def test_the_same_seed_gives_the_same_report(recorder):
    definition = lab.variants(
        "topas", {"expert": False}, {"expert": True}, "random", matches=6, seed=3
    )
    _, first = run(recorder, definition)
    _, again = run(recorder, definition)
    assert first == again
    _, other = run(
        recorder,
        lab.variants("topas", {"expert": False}, {"expert": True}, "random", matches=6, seed=4),
    )
    assert other != first


def test_the_same_seed_plays_the_same_matches_on_two_workers(recorder):
    definition = lab.skill("topitop", [1, 2], matches=4, seed=5)
    _, alone = run(recorder, definition, workers=1)
    _, pooled = run(recorder, definition, workers=2)
    assert alone == pooled


def test_every_match_is_stored_and_listed(recorder):
    definition = lab.restriction("topitop", "never-place-sand", "random", matches=5, seed=1)
    experiment_id, report = run(recorder, definition)
    stored = LabStore(recorder).get(experiment_id[:8])
    assert stored["status"] == "done" and stored["report"] == report
    ids = stored["match_ids"]["never-place-sand"]
    assert len(ids) == 5
    for match_id in ids:
        match = recorder.get(match_id)
        assert match.status == "ended" and match.options == get_rules("topitop").options({})


def test_the_restricted_seat_never_does_what_it_swore_off():
    definition = lab.restriction("topiary", "never-place-swan", "random", matches=4, seed=2)
    for number in range(4):
        match, _ = play(definition, 0, number)
        restricted = number % 2  # the restricted agent rotates through the seats
        placed = [m["move"].get("place", "") for m in match.moves if m["seat"] == restricted]
        others = [m["move"].get("place", "") for m in match.moves if m["seat"] != restricted]
        assert placed and not any(p.startswith("Swan") for p in placed)
        assert match.seats[restricted].startswith("random+never-place-swan")
    assert others  # the standard seat plays on (Swans allowed)


def test_a_restriction_that_leaves_nothing_falls_back_to_any_legal_move():
    rules = get_rules("topitop")
    state = rules.start(2, rules.options({}), {})
    bot = make_agent("topitop", "random+first-legal")
    assert bot(rules, state, 0, random.Random(0)) == rules.legal_moves(state)[0]


@pytest.mark.parametrize("spec", ["mcts-0", "minimax", "random+never-fly", "mcts-4+"])
def test_unknown_agents_are_refused(spec):
    with pytest.raises(Refused):
        make_agent("topiary", spec)


def test_the_command_line_runs_lists_and_shows(store):
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "experiment",
            "skill",
            "topitop",
            "--budgets",
            "1,2",
            "-n",
            "2",
            "--quiet",
            "--json",
            "--store",
            store,
        ],
    )
    assert result.exit_code == 0, result.output
    experiment_id = json.loads(result.output)["id"]
    listed = runner.invoke(main, ["experiment", "list", "--json", "--store", store])
    assert [e["id"] for e in json.loads(listed.output)] == [experiment_id]
    shown = runner.invoke(main, ["experiment", "show", experiment_id[:8], "--store", store])
    assert "mcts-2 vs mcts-1" in shown.output
    bad = runner.invoke(
        main, ["experiment", "restriction", "topiary", "never-fly", "--store", store]
    )
    assert bad.exit_code == 2 and "never-place-swan" in bad.output
