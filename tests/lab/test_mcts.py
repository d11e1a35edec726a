"""The MCTS agent on Topitop positions whose value the solved table knows, found by seeded random
play (not written down here): it must take a win in one, and must not hand the opponent a win in
one when the position is not lost; and it is deterministic by seed."""

from __future__ import annotations

import random

import pytest

from tablelog.domain.agents import MCTS, make_agent
from tablelog.domain.games import get_rules
from tablelog.domain.solvers.stored import stored_table

RULES = get_rules("topitop")
BUDGET = 300  # modest: a Topitop position offers 10-30 moves


def positions(predicate, count, seed=7, games=300):
    """The first `count` positions of seeded random games that satisfy `predicate`."""
    table, rng, found = stored_table(4, 4), random.Random(seed), []
    for _ in range(games):
        state = RULES.start(2, RULES.options({}), {})
        for _ in range(150):
            if RULES.outcome(state) is not None:
                break
            if predicate(table, state):
                found.append(state)
                if len(found) == count:
                    return found
                break  # one position per game, so the cases differ
            state = RULES.apply(state, RULES.random_move(state, rng))
    return found


def wins_at_once(table, state):
    return table.lookup(state) == ("win", 1) and len(RULES.legal_moves(state)) > 5


def gives_away(table, state):
    """Not lost, no win in one, and at least one move lets the opponent win at once."""
    value = table.lookup(state)
    if value[0] == "lose" or value == ("win", 1):
        return False
    after = [table.lookup(RULES.apply(state, m)) for m in RULES.legal_moves(state)]
    return ("win", 1) in after and any(v[0] != "win" for v in after)


@pytest.mark.parametrize("case", range(3))
def test_it_takes_a_win_in_one(case):
    state = positions(wins_at_once, 3)[case]
    seat = RULES.to_move(state)[0]
    move = MCTS(BUDGET)(RULES, state, seat, random.Random(case))
    outcome = RULES.outcome(RULES.apply(state, move))
    assert outcome is not None and outcome.winners == (seat,)


@pytest.mark.parametrize("case", range(3))
def test_it_avoids_handing_over_a_win_in_one(case):
    table = stored_table(4, 4)
    assert table is not None  # the 4/4 table ships with the package
    state = positions(gives_away, 3)[case]
    seat = RULES.to_move(state)[0]
    move = MCTS(BUDGET)(RULES, state, seat, random.Random(case))
    assert table.lookup(RULES.apply(state, move)) != ("win", 1)


def test_a_budget_of_one_is_not_enough_to_know():
    """The test positions are not trivial: a one-iteration search misses some of them."""
    table = stored_table(4, 4)
    assert table is not None
    cases = positions(gives_away, 6, seed=11)
    misses = 0
    for n, state in enumerate(cases):
        move = MCTS(1)(RULES, state, RULES.to_move(state)[0], random.Random(n))
        misses += table.lookup(RULES.apply(state, move)) == ("win", 1)
    assert misses > 0


@pytest.mark.parametrize("game", ["topitop", "topiary", "topas", "total-landscaping"])
def test_the_same_seed_chooses_the_same_move(game):
    rules = get_rules(game)
    deal = rules.deal(2, rules.options({}), random.Random(1))
    state = rules.start(2, rules.options({}), deal)
    seat = rules.to_move(state)[0]
    agent = make_agent(game, "mcts-8")
    first = [agent(rules, state, seat, random.Random(s)) for s in range(3)]
    again = [agent(rules, state, seat, random.Random(s)) for s in range(3)]
    assert first == again
