"""What an experiment will cost, measured before it starts, so that hours of work are refused up
front with the estimate in the message instead of running out of sight.

A match costs its moves times what a move costs: the recorder's checks and hash chain, and each
deciding seat's agent (a random or greedy choice; for MCTS its budget times the cost of one
search iteration). These are measured here and now, briefly, for the game, player count and
options at hand: one seeded random match gives the moves a match takes, the cost of recording
one, and the positions at which the agents are timed (MCTS for about a quarter of a second). A
measurement is kept for the life of the process. The estimate is rough (matches between strong
agents may run shorter or longer than random ones); it is there to tell minutes from hours.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Callable
from functools import cache
from typing import TypeVar

from tablelog.domain.agents import MCTS, MCTS_SPEC, make_agent
from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules

from .experiments import Arm, Definition

S = TypeVar("S")  # a position: the engine's state

HOUR = 3600.0  # the most an experiment may be estimated to take (the command line's --yes aside)
SEARCH_SAMPLE = 0.25  # seconds spent timing MCTS iterations
POSITIONS = 8  # positions of the random match at which the agents are timed
PROBE = 4  # iterations per timed search


@dataclasses.dataclass(frozen=True)
class Costs:
    """What one match of a game costs on this machine, measured."""

    moves: int  # moves a random match took
    deciders: float  # seats that choose per move (2 where both choose at once)
    per_move: float  # seconds to record a move (rules check, hash) and choose it at random
    greedy: float  # seconds per greedy decision
    iteration: float  # seconds per MCTS iteration

    def decision(self, spec: str) -> float:
        """Seconds for one decision of the agent `spec` (a restriction costs nothing more)."""
        name = spec.partition("+")[0]
        found = MCTS_SPEC.fullmatch(name)
        if found:
            return int(found.group(1)) * self.iteration
        return self.greedy if name == "greedy" else 0.0

    def match(self, arm: Arm) -> float:
        """Seconds for one match of the arm (each seat's agent decides its share of moves)."""
        mean = sum(map(self.decision, arm.agents)) / len(arm.agents)
        return self.moves * (self.per_move + self.deciders * mean)


def estimate(definition: Definition, workers: int = 1) -> float:
    """Seconds the experiment is expected to take on `workers` processes."""
    seconds = sum(
        _costs(definition, arm).match(arm) * definition.matches for arm in definition.arms
    )
    return seconds / max(1, min(workers, definition.matches * len(definition.arms)))


def check_affordable(
    definition: Definition, workers: int = 1, limit: float = HOUR, hint: str = ""
) -> float:
    """The estimate, or a one-line Refused when it is over `limit` (with `hint`, what else the
    person may do)."""
    seconds = estimate(definition, workers)
    if seconds <= limit:
        return seconds
    arm = definition.arms[-1]  # a skill trace's strongest search
    costs = _costs(definition, arm)
    searches = any(MCTS_SPEC.fullmatch(agent.partition("+")[0]) for agent in arm.agents)
    search = f", a search iteration {costs.iteration * 1000:.2g} ms" if searches else ""
    raise Refused(
        f"this experiment would take about {duration(seconds)} here (measured just now: "
        f"a {get_rules(definition.game).name} match about {costs.moves} moves{search}); "
        f"the limit is {duration(limit)}: ask for fewer matches or smaller budgets{hint}"
    )


def _costs(definition: Definition, arm: Arm) -> Costs:
    options = json.dumps(dict(arm.options), sort_keys=True, default=str)
    return measure(definition.game, definition.players, options)


def duration(seconds: float) -> str:
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:.0f} days"
    if seconds >= 5400:
        return f"{seconds / 3600:.1f} hours"
    if seconds >= 3600:
        return "1 hour"
    if seconds >= 90:
        return f"{seconds / 60:.0f} minutes"
    return f"{max(1.0, seconds):.0f} seconds"


@cache
def measure(game: str, players: int, options: str) -> Costs:
    """Costs of `game` with `players` and these options (JSON), measured now (kept)."""
    from .run import play

    calibration = Definition(
        "variants",
        game,
        players,
        1,
        0,
        (Arm("random", json.loads(options), ("random",) * players),),
    )
    started = time.perf_counter()
    match, _ = play(calibration, 0, 0)
    played = time.perf_counter() - started
    rules = match.rules
    moves = max(1, len(match.moves))
    step = max(1, (len(match.states) - 1) // POSITIONS)
    deciders = sum(len(rules.to_move(s)) for s in match.states[:-1]) / moves
    # Where a seat has a real choice (a search with one move to make returns at once).
    positions = [
        (s, seat)
        for s in match.states[:-1:step]
        for seat in rules.to_move(s)[:1]
        if len(rules.choices(s, seat)) > 1
    ][:POSITIONS]
    rng = random.Random(0)
    greedy, search = make_agent(game, "greedy"), MCTS(PROBE)
    greedy_time = _timed(positions, lambda s, seat: greedy(rules, s, seat, rng), 0.0)
    iteration = _timed(positions, lambda s, seat: search(rules, s, seat, rng), SEARCH_SAMPLE)
    return Costs(moves, deciders, played / moves, greedy_time, iteration / PROBE)


def _timed(
    positions: list[tuple[S, int]], decide: Callable[[S, int], object], at_least: float
) -> float:
    """Mean seconds of `decide` over the positions, cycled until `at_least` seconds passed."""
    if not positions:
        return 0.0
    calls, started = 0, time.perf_counter()
    while calls < len(positions) or time.perf_counter() - started < at_least:
        decide(*positions[calls % len(positions)])
        calls += 1
    return (time.perf_counter() - started) / calls
