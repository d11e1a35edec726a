"""MCTS iterations per second per game, against random playouts in a plain loop (same run).

For each game: a few positions from seeded random games (a quarter of the way in); the MCTS agent
spends its budget on each; the baseline plays as many random playouts from the same positions,
with the same depth cap, in a plain `apply(random_move)` loop. An MCTS iteration is one playout
plus the tree walk, the expansion, the backup and (in hidden-information games) a determinisation,
so the ratio is what the search costs on top of its playouts.
"""

from __future__ import annotations

import random
from functools import partial

from tablelog.domain.agents import MCTS
from tablelog.domain.agents.mcts import ROLLOUT_DEPTH
from tablelog.domain.games import GAMES

from .harness import Result, best_of

POSITIONS = 3


def positions(rules, count: int) -> list:
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        options = rules.options({})
        state = rules.start(2, options, rules.deal(2, options, rng))
        played: list[object] = []
        while rules.outcome(state) is None and len(played) < 400:
            played.append(state)
            state = rules.apply(state, rules.random_move(state, rng))
        found.append(played[len(played) // 4])
    return found


def playouts(rules, states: list, each: int) -> None:
    rng = random.Random(0)
    for state in states:
        for _ in range(each):
            s = state
            for _ in range(ROLLOUT_DEPTH):
                if rules.outcome(s) is not None:
                    break
                s = rules.apply(s, rules.random_move(s, rng))


def run(quick: bool) -> list[Result]:
    budget = 16 if quick else 64
    results = []
    for game, rules in GAMES.items():
        states = positions(rules, POSITIONS)
        agent = MCTS(budget)

        def search(agent=agent, rules=rules, states=states) -> None:
            rng = random.Random(0)
            for state in states:
                agent(rules, state, rules.to_move(state)[0], rng)

        iterations = budget * len(states)
        took = best_of(1 if quick else 2, search)
        baseline = best_of(1 if quick else 2, partial(playouts, rules, states, budget))
        results.append(
            Result(
                f"mcts iterations {game}",
                iterations / took,
                "iterations/s",
                iterations / baseline,
                f"budget {budget} at {len(states)} positions; baseline: as "
                "many random playouts in a plain loop",
            )
        )
    return results
