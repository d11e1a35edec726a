"""Monte Carlo tree search with an iteration budget: the agent of graded strength.

UCT (Kocsis & Szepesvari 2006; the survey of Browne et al. 2012) in its *open-loop* form: the
tree's edges are moves (keyed by their JSON), not stored positions, and every iteration replays
its path from the root. That one choice covers all five games:

- hidden information (Topiary's face-down tiles and hands, Topas' pile and hands, GeoShapes'
  deck): each iteration first *determinises* the root, drawing the unseen components anew
  (`determinise.py`), then walks the tree using only the moves legal in that draw (single-observer
  information-set MCTS, Cowling, Powley & Whitehouse 2012);
- simultaneous rounds (Total Landscaping): the searching seat's choice is the edge, the other
  seats' choices are drawn at random each iteration, so the tree is a flat UCB1 over its choices.

Determinism: every random draw comes from the `rng` the caller passes (the match's generator),
ties are broken by insertion order, so a seed fixes every decision.

Rollouts play random moves (`rules.random_move`) to the end, or for at most `rollout_depth`
moves, after which the seats the game's own `evaluate` ranks first share the point: GeoShapes
playouts run to hundreds of moves, and a budget must stay affordable on a small machine.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Mapping
from typing import TypeVar

from tablelog.domain.games import GameRules
from tablelog.domain.games.base import Move

from .determinise import determinise

S = TypeVar("S")
K = TypeVar("K")

EXPLORATION = math.sqrt(2)  # UCB1's constant for rewards in [0, 1]
ROLLOUT_DEPTH = 100


def move_key(move: Move) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


@dataclasses.dataclass
class Node:
    """One edge's statistics: visits and the reward summed for every seat (each parent picks
    by the reward of the seat that moved into the child)."""

    mover: int
    rewards: list[float]
    visits: int = 0
    children: dict[str, Node] = dataclasses.field(default_factory=dict)

    def mean(self, seat: int) -> float:
        return self.rewards[seat] / self.visits if self.visits else 0.0


@dataclasses.dataclass(frozen=True)
class MCTS:
    """A bot (see domain/agents/bots.py) that spends `budget` iterations per decision."""

    budget: int
    rollout_depth: int = ROLLOUT_DEPTH
    exploration: float = EXPLORATION

    def __call__(self, rules: GameRules[S], state: S, seat: int, rng: random.Random) -> Move:
        if rules.simultaneous:
            return self._flat(rules, state, seat, rng)
        moves = rules.choices(state, seat)
        if len(moves) == 1:
            return moves[0]
        players = _players(rules, state)
        root = Node(mover=seat, rewards=[0.0] * players)
        for _ in range(self.budget):
            world = determinise(rules, state, seat, rng)
            self._iterate(rules, world, root, rng, players)
        by_key = {move_key(m): m for m in moves}
        tried = [(k, n) for k, n in root.children.items() if k in by_key]
        if not tried:
            return rng.choice(moves)
        # Most visited (the robust child), then best mean; insertion order breaks exact ties.
        best = max(tried, key=lambda kn: (kn[1].visits, kn[1].mean(seat)))
        return by_key[best[0]]

    def _iterate(
        self, rules: GameRules[S], state: S, root: Node, rng: random.Random, players: int
    ) -> None:
        node, path = root, [root]
        while rules.outcome(state) is None:
            mover = rules.to_move(state)[0]
            legal = {move_key(m): m for m in rules.legal_moves(state)}
            untried = [k for k in legal if k not in node.children]
            if untried:
                key = rng.choice(untried)
                node.children[key] = Node(mover=mover, rewards=[0.0] * players)
                node = node.children[key]
                state = rules.apply(state, legal[key])
                path.append(node)
                break
            key = self._select({k: node.children[k] for k in legal})
            node = node.children[key]
            state = rules.apply(state, legal[key])
            path.append(node)
        reward = self.rollout(rules, state, rng, players)
        for visited in path:
            visited.visits += 1
            for s in range(players):
                visited.rewards[s] += reward[s]

    def _select(self, children: Mapping[K, Node]) -> K:
        """UCB1 among the children legal in this iteration's world: the key of the chosen."""
        total = math.log(max(1, sum(c.visits for c in children.values())))
        return max(
            children,
            key=lambda k: (
                children[k].mean(children[k].mover)
                + self.exploration * math.sqrt(total / children[k].visits)
            ),
        )

    def _flat(self, rules: GameRules[S], state: S, seat: int, rng: random.Random) -> Move:
        """Simultaneous rounds: UCB1 over this seat's choices, the others' drawn at random."""
        choices = rules.choices(state, seat)
        if len(choices) == 1:
            return choices[0]
        players = _players(rules, state)
        arms = [Node(mover=seat, rewards=[0.0] * players) for _ in choices]
        order = rng.sample(range(len(choices)), len(choices))  # untried arms, in a drawn order
        for iteration in range(self.budget):
            arm = (
                order[iteration] if iteration < len(order) else self._select(dict(enumerate(arms)))
            )
            others = {
                s: rules.random_choice(state, s, rng) for s in rules.to_move(state) if s != seat
            }
            after = rules.apply(state, rules.combine(state, {**others, seat: choices[arm]}))
            reward = self.rollout(rules, after, rng, players)
            arms[arm].visits += 1
            arms[arm].rewards = [a + r for a, r in zip(arms[arm].rewards, reward)]
        best = max(range(len(arms)), key=lambda i: (arms[i].visits, arms[i].mean(seat)))
        return choices[best]

    def rollout(
        self, rules: GameRules[S], state: S, rng: random.Random, players: int
    ) -> list[float]:
        """Random moves to the end (or `rollout_depth`): a point shared by the winners."""
        for _ in range(self.rollout_depth):
            if rules.outcome(state) is not None:
                break
            state = rules.apply(state, rules.random_move(state, rng))
        outcome = rules.outcome(state)
        if outcome is not None:
            winners = outcome.winners or tuple(range(players))  # a draw: shared by all
        else:
            values = [rules.evaluate(state, s) for s in range(players)]
            winners = tuple(s for s in range(players) if values[s] == max(values))
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]


def _players(rules: GameRules[S], state: S) -> int:
    return len(rules.score(state))
