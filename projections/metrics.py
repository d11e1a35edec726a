"""The lab's game-design metrics (docs/metrics.md defines each and cites its source).

Two steps, as in `projections.stats`: `per_match(traces)` turns each match into one row of
numbers (was seat 1 the winner, how many lead changes...), then `summary` gives each metric its
estimate, its n and a 95% interval:

- proportions (a seat won, completed, drawn): Wilson score interval (statsmodels);
- everything else (means of per-match values; Ludii's Balance, a function of all seats' rates):
  a percentile bootstrap over matches (scipy.stats.bootstrap, seeded, so a report is the same
  every time it is computed).

A metric that a match cannot give (lead changes in a game scored only at the end, branching not
measured) is NaN for that match and the match does not count in its n.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd

from .traces import Trace

CONFIDENCE = 0.95
RESAMPLES = 2000
SEED = 20120  # the bootstrap's own seed: the same matches always give the same interval

# name -> (label, kind): "share" is a 0/1 per match (Wilson), "mean" a number per match.
METRICS: dict[str, tuple[str, str]] = {
    "advantage_p1": ("first-player advantage (seat 1's wins, draws half)", "mean"),
    "completion": ("completion (ended by the rules)", "share"),
    "drawishness": ("drawishness (no winner)", "share"),
    "duration_moves": ("duration in moves", "mean"),
    "duration_rounds": ("duration in rounds", "mean"),
    "duration_minutes": ("duration in minutes", "mean"),
    "decisiveness": ("decisiveness (share of the match before the winner leads for good)", "mean"),
    "lead_changes": ("lead changes", "mean"),
    "drama": ("drama (the winner's largest deficit, points)", "mean"),
    "branching": ("branching factor (legal moves per position)", "mean"),
    "decision_moves": ("decision moves (share of positions with a choice)", "mean"),
    "score_margin": ("score margin (winner minus runner-up)", "mean"),
}


def per_match(traces: Sequence[Trace]) -> pd.DataFrame:
    """One row per match: every metric's value for that match (NaN where it has none), and
    `won_<k>` for every seat k (1-based)."""
    return pd.DataFrame([_row(t) for t in traces])


def _row(t: Trace) -> dict[str, Any]:
    row: dict[str, Any] = {"players": t.players}
    row["advantage_p1"] = _points(t, 0)
    row["completion"] = float(t.completed)
    row["drawishness"] = float(not t.winners)
    row["duration_moves"] = float(t.moves)
    row["duration_rounds"] = float(rounds(t))
    row["duration_minutes"] = t.minutes
    leaders = _leaders(t)
    totals = t.totals
    decided = totals is not None and len(t.winners) == 1 and t.moves > 0
    row["decisiveness"] = (
        decisiveness(leaders, t.winners[0]) if decided and leaders is not None else math.nan
    )
    row["lead_changes"] = float(lead_changes(leaders)) if leaders is not None else math.nan
    row["drama"] = drama(totals, t.winners[0]) if decided and totals is not None else math.nan
    counts = t.branching
    row["branching"] = float(np.mean(counts)) if counts else math.nan
    row["decision_moves"] = float(np.mean([c > 1 for c in counts])) if counts else math.nan
    row["score_margin"] = (
        margin(totals[-1], t.winners) if decided and totals is not None else math.nan
    )
    for seat in range(t.players):
        row[f"won_{seat + 1}"] = float(seat in t.winners)
    return row


def _points(t: Trace, seat: int) -> float:
    """Ludii's AdvantageP1 reading of one match: 1 for a win, a shared win or a draw split."""
    if not t.winners:
        return 1.0 / t.players
    return 1.0 / len(t.winners) if seat in t.winners else 0.0


def rounds(t: Trace) -> float:
    """Rounds: every seat has had its turn once. A turn is a run of moves by one seat (a
    GeoShapes play is several moves); a simultaneous game records one move per round."""
    if t.simultaneous or not t.movers:
        return float(t.moves)
    turns = 1 + sum(a != b for a, b in zip(t.movers, t.movers[1:]))
    return turns / t.players


def _leaders(t: Trace) -> list[int | None] | None:
    """The sole leader after each move (None while tied at the top)."""
    if t.totals is None:
        return None
    out: list[int | None] = []
    for totals in t.totals:
        best = max(totals)
        top = [s for s, v in enumerate(totals) if v == best]
        out.append(top[0] if len(top) == 1 else None)
    return out


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How often the sole leader becomes another seat (ties in between do not count)."""
    sole = [s for s in leaders if s is not None]
    return sum(a != b for a, b in pairwise(sole))


def decisiveness(leaders: Sequence[int | None], winner: int) -> float:
    """The share of the match played before the eventual winner leads for good: 0 when it led
    from the first move to the end, near 1 when it took the lead only at the last move, 1
    when it never led alone (won on a tie-break)."""
    last_not = max((i for i, s in enumerate(leaders) if s != winner), default=-1)
    return (last_not + 1) / len(leaders)


def drama(totals: Sequence[Sequence[float]], winner: int) -> float:
    """How far behind the eventual winner ever was: the largest gap, in points, between the
    leader and the winner after any move (0 for a winner never behind)."""
    return float(max(max(row) - row[winner] for row in totals))


def margin(final: Sequence[float], winners: Sequence[int]) -> float:
    others = [v for s, v in enumerate(final) if s not in winners]
    return float(final[winners[0]] - max(others)) if others else 0.0
