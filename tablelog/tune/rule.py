"""The shipping rule: when is a variant's seat balance confirmed? One implementation, used by
`tablelog tune` and by scripts/geoshapes_balance.py (the manual search's rule, issue 27).

A variant is confirmed on a pair (or more) of seed sets fixed before any run on them when every
seat of the first set lies inside its 95% Wilson interval of the fair rate, at the confirmation
size, AND for each player count the seats of all sets pooled pass the omnibus seat
test (`projections.stats.seats_even`, what `tablelog stats` reports) with p >= 0.05.

The fair rate is the seats' mean rate, as `tablelog stats` has it: a shared win is a win for
each seat that shares it, so in a game where wins are often shared (Topas' ties) every seat wins
more than 1 / players of the matches, and 1 / players would call the fairest variant unfair.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TypedDict

from tablelog.domain.plain import PlainDict
from tablelog.projections.stats import seats_even, wilson


class SeatRow(TypedDict):
    """One seat's line of the rule's table (and of a study's confirmation)."""

    players: int
    seat: int  # from 1
    wins: int
    matches: int
    rate: float
    low: float
    high: float
    inside: bool  # the fair rate lies inside [low, high]


@dataclasses.dataclass(frozen=True)
class Rule:
    matches: int = 2000  # per player count and seed set
    confidence: float = 0.95  # each seat's interval
    pooled_p: float = 0.05  # the omnibus test's p per player count, the sets pooled

    def to_json(self) -> PlainDict:
        return dataclasses.asdict(self)

    def words(self) -> str:
        return (
            f"every seat inside its {self.confidence:.0%} interval of fair on the first seed "
            f"set of {self.matches:,} matches per player count, and each count's seats pooled "
            f"over the sets with p >= {self.pooled_p}"
        )


def seat_rows(
    players: int, matches: int, wins: Mapping[int, int], confidence: float = 0.95
) -> list[SeatRow]:
    """Each seat's wins, rate, Wilson interval and whether the fair rate (the seats' mean: 1 /
    players when no win is shared) lies inside."""
    fair = fair_rate(players, matches, wins)
    table: list[SeatRow] = []
    for seat in range(players):
        low, high = wilson(wins.get(seat, 0), matches, confidence)
        table.append(
            {
                "players": players,
                "seat": seat + 1,
                "wins": wins.get(seat, 0),
                "matches": matches,
                "rate": wins.get(seat, 0) / matches,
                "low": low,
                "high": high,
                "inside": bool(low <= fair <= high),
            }
        )
    return table


def fair_rate(players: int, matches: int, wins: Mapping[int, int]) -> float:
    """The rate every seat would win at if none were favoured: the seats' mean rate."""
    return sum(wins.get(seat, 0) for seat in range(players)) / (players * matches)


def pooled_p(table: list[SeatRow]) -> float:
    """The omnibus seat test of one count's rows (`tablelog stats`'s own)."""
    return float(seats_even([r["wins"] for r in table])["p_value"])


def met(first: list[SeatRow], pooled: list[SeatRow], rule: Rule = Rule()) -> bool:
    """The rule: every seat of the first set inside, each count's pooled seats even enough."""
    counts = {r["players"] for r in pooled}
    even = all(pooled_p([r for r in pooled if r["players"] == k]) >= rule.pooled_p for k in counts)
    return all(r["inside"] for r in first) and even
