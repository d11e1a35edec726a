"""A candidate's seated wins (and, when asked, the lab's metrics) over numbered matches.

Match k of player count K on screening seed S is `tablelog simulate`'s match k of the run with
seed S, K greedy seats and the candidate's options and manifest (`simulate.play_match`), so a
study's numbers can be checked by `tablelog simulate`. Every candidate plays the same numbers on
the same seeds (common random numbers): a difference between two candidates is theirs, not the
deal's. Matches 0..99 are the first rung, 0..399 the second (the first rung's plus 300 more).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Literal

from tablelog.domain.plain import PlainDict
from tablelog.projections.metrics import per_match
from tablelog.projections.stats import seats_even
from tablelog.projections.traces import trace_of_match
from tablelog.simulation import make_plan, play_match

from .rule import fair_rate
from .space import Candidate

NAME = "candidate"  # the manifest's name in a candidate's matches
# The lab's metrics `--also` adds (projections.metrics), each with the way it is better.
Direction = Literal["minimize", "maximize"]
ALSO: dict[str, tuple[str, Direction]] = {
    "decisiveness": ("decisiveness", "maximize"),
    "length": ("duration_moves", "minimize"),  # the change from the base's, see objective
    "drawishness": ("drawishness", "minimize"),
}


@dataclasses.dataclass
class Tally:
    """What `players`-seat matches of a candidate gave: wins per seat, matches nobody won, and
    the sum and count of every metric asked for."""

    players: int
    matches: int = 0
    wins: list[int] = dataclasses.field(default_factory=list)
    none: int = 0
    sums: dict[str, list[float]] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players

    def add(self, other: Tally) -> None:
        self.matches += other.matches
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.none += other.none
        for name, (total, n) in other.sums.items():
            kept = self.sums.setdefault(name, [0.0, 0])
            kept[0], kept[1] = kept[0] + total, kept[1] + n

    def mean(self, metric: str) -> float:
        total, n = self.sums.get(metric, (0.0, 0))
        return total / n if n else math.nan

    def statistic(self) -> float:
        """The omnibus seat test's statistic per 1,000 matches (chi-square grows with the
        matches; per 1,000 it compares candidates measured on different numbers)."""
        value = seats_even(self.wins)["statistic"]
        return 0.0 if math.isnan(value) else value * 1000 / max(1, self.matches)

    def p_value(self) -> float:
        return float(seats_even(self.wins)["p_value"])

    def deviation(self) -> float:
        """The largest distance of a seat's rate from the fair rate (the seats' mean, as the
        shipping rule has it: 1 / players when no win is shared)."""
        played = max(1, self.matches)
        fair = fair_rate(self.players, played, dict(enumerate(self.wins)))
        return max(abs(w / played - fair) for w in self.wins)

    def to_json(self) -> PlainDict:
        return dataclasses.asdict(self)


def tally(
    game: str,
    players: int,
    bots: str,
    seed: int,
    variant: Candidate,
    numbers: range,
    metrics: tuple[str, ...] = (),
    stop: Callable[[], bool] = lambda: False,
) -> Tally:
    """Matches `numbers` of the candidate at `players` seats on seed `seed`, tallied."""
    plan = make_plan(
        game, max(1, len(numbers)), seed, players, bots, variant.options, variant.components(NAME)
    )
    out = Tally(players)
    traces = []
    for number in numbers:
        if stop():
            break
        match = play_match(plan, number)
        assert match.outcome is not None  # play_match plays every match to its end
        winners = match.outcome["winners"]
        for seat in winners:
            out.wins[seat] += 1
        out.none += not winners
        out.matches += 1
        if metrics:
            traces.append(trace_of_match(match))
    if traces:
        rows = per_match(traces)
        for name in metrics:
            values = rows[ALSO[name][0]].dropna()
            out.sums[name] = [float(values.sum()), len(values)]
    return out
