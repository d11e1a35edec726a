"""Every game's declared restrictions: a restricted agent's choice is always one the restriction
allows (when any is), whichever bot it restricts; the experiments' table works on both stores."""

from __future__ import annotations

import random

import pytest

from tablelog.domain.agents import make_agent
from tablelog.domain.games import GAMES, get_rules
from tablelog.domain.restrictions import restrictions
from tablelog.lab.store import LabStore

CASES = [(game, name) for game in GAMES for name in restrictions(game)]


def positions(game: str, count: int = 6):
    rules, rng = get_rules(game), random.Random(4)
    options = rules.options({})
    state = rules.start(2, options, rules.deal(2, options, rng))
    found: list[object] = []
    while rules.outcome(state) is None and len(found) < count:
        found.append(state)
        for _ in range(rng.randrange(1, 6)):
            if rules.outcome(state) is None:
                state = rules.apply(state, rules.random_move(state, rng))
    return found


@pytest.mark.parametrize("game,name", CASES)
def test_the_restricted_choice_is_always_allowed(game, name):
    rules, rule = get_rules(game), restrictions(game)[name]
    agent = make_agent(game, f"random+{name}")
    for n, state in enumerate(positions(game)):
        seat = rules.to_move(state)[0]
        choices = rules.choices(state, seat)
        choice = agent(rules, state, seat, random.Random(n))
        assert choice in rule.allowed(choices)


def test_some_restrictions_bite():
    """At least one position of each game where a restriction removes a legal choice (else the
    test above could pass for restrictions that never filter anything): one it declares, or
    `first-legal` for a game that declares none (no restrictions is a valid answer)."""
    for game in GAMES:
        rules = get_rules(game)
        declared = [r for r in restrictions(game).values() if r.name != "first-legal"]
        bites = any(
            len(r.allowed(rules.choices(s, rules.to_move(s)[0])))
            < len(rules.choices(s, rules.to_move(s)[0]))
            for s in positions(game)
            for r in declared or restrictions(game).values()
        )
        assert bites, game


def test_experiments_table_on_both_stores(any_recorder):
    store = LabStore(any_recorder)
    store.create(
        "0123abcd-0000-0000-0000-000000000000", {"game": "topas", "kind": "skill", "arms": []}
    )
    store.list_matches("0123abcd-0000-0000-0000-000000000000", {"x": ["m1"]})
    store.finish("0123abcd-0000-0000-0000-000000000000", "done", {"words": ["w"]})
    found = LabStore(any_recorder).get("0123abcd")
    assert found["match_ids"] == {"x": ["m1"]} and found["report"] == {"words": ["w"]}
    assert found["status"] == "done" and store.all("topiary") == []
