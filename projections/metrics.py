"""The lab's game-design metrics (docs/metrics.md defines each and cites its source).

Two steps, as in `projections.stats`: `per_match(traces)` turns each match into one row of
numbers (was seat 1 the winner, how often did the lead change...), then `lab_stats.summary`
gives each metric its estimate, its n and a 95% interval.

A metric named after one of Ludii's (`Evaluation/src/metrics/` in github.com/Ludeme/Ludii)
computes Ludii's definition, read from its source; where Ludii judges a position by its search's
evaluation, the evaluation here is the score (`evaluations`). A variant of Tablelog's own keeps
its own name and docs/metrics.md says how it differs.

A metric that a match cannot give (lead change in a game scored only at the end, branching not
measured) is NaN for that match and the match does not count in its n.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import pandas as pd

from .traces import Trace

CONFIDENCE = 0.95
RESAMPLES = 2000
SEED = 20120  # the bootstrap's own seed: the same matches always give the same interval

Row = tuple[float, ...]

# name -> (label, kind): "share" is a 0/1 per match (Wilson), "mean" a number per match. The
# label's words before " (" name the metric on the Lab page.
METRICS: dict[str, tuple[str, str]] = {
    "advantage_p1": ("first-player advantage (Ludii: seat 1's rank as a partial win)", "mean"),
    "seat1_share": ("seat 1's share of the wins (shared wins split, draws 1/players)", "mean"),
    "completion": ("completion (Ludii: one seat won alone)", "share"),
    "ended_by_rules": ("ended by the rules (not drawn at the move cap)", "share"),
    "drawishness": ("drawishness (Ludii: a draw by the rules, not at the cap)", "share"),
    "drawn": ("drawn (nobody won, the cap's draws included)", "share"),
    "duration_moves": ("duration in moves", "mean"),
    "duration_rounds": ("duration in rounds", "mean"),
    "duration_minutes": ("duration in minutes", "mean"),
    "decisiveness": ("decisiveness (Ludii: share of the match before a winner is clear)", "mean"),
    "lead_for_good": (
        "lead for good (share of the match before the winner leads to the end)",
        "mean",
    ),
    "lead_change": ("lead change (Ludii: changes of the leaders per move)", "mean"),
    "sole_lead_changes": ("sole-leader changes (per match, ties not counted)", "mean"),
    "deficit": ("winner's largest deficit (points)", "mean"),
    "branching": ("branching factor (legal moves per position)", "mean"),
    "decision_moves": ("decision moves (share of positions with a choice)", "mean"),
    "score_margin": ("score margin (winner minus runner-up)", "mean"),
}


def per_match(traces: Sequence[Trace]) -> pd.DataFrame:
    """One row per match: every metric's value for that match (NaN where it has none),
    `won_<k>` for every seat k (1-based: among the winners) and `alone_<k>` (won alone)."""
    return pd.DataFrame([_row(t) for t in traces])


def _row(t: Trace) -> dict[str, float]:
    many = t.players > 1  # Ludii has no balance, advantage or draw in a one-player game
    first = t.places[0]  # Ludii's status names a winner when one seat alone is ranked first
    row: dict[str, float] = {"players": t.players}
    row["advantage_p1"] = (utilities(t)[0] + 1) / 2 if many else math.nan
    row["seat1_share"] = _share(t, 0)
    row["completion"] = float(len(first) == 1)
    row["ended_by_rules"] = float(t.completed)
    # Every seat's utility 0: one group of tied seats (a draw, or a win shared by all).
    row["drawishness"] = float(t.completed and len(t.places) == 1) if many else math.nan
    row["drawn"] = float(not t.winners)
    row["duration_moves"] = float(t.moves)
    row["duration_rounds"] = float(rounds(t))
    row["duration_minutes"] = t.minutes
    row.update(_running(t))
    counts = t.branching
    row["branching"] = float(np.mean(counts)) if counts else math.nan
    row["decision_moves"] = float(np.mean([c > 1 for c in counts])) if counts else math.nan
    for seat in range(t.players):
        row[f"won_{seat + 1}"] = float(seat in t.winners)
        row[f"alone_{seat + 1}"] = float(first == (seat,))
    return row


def _running(t: Trace) -> dict[str, float]:
    """The metrics read from the running scores (NaN without them)."""
    names = ("decisiveness", "lead_for_good", "lead_change", "sole_lead_changes", "deficit")
    row = dict.fromkeys(names + ("score_margin",), math.nan)
    totals = t.totals
    if totals is None or t.moves == 0:
        return row
    positions = before_each_move(totals)
    leaders = sole_leaders(totals)
    row["decisiveness"] = decisiveness(positions, t.places[0])
    row["lead_change"] = lead_change(positions)
    row["sole_lead_changes"] = float(sole_lead_changes(leaders))
    if len(t.winners) == 1:
        row["lead_for_good"] = lead_for_good(leaders, t.winners[0])
        row["deficit"] = deficit(totals, t.winners[0])
        row["score_margin"] = margin(totals[-1], t.winners)
    return row


def _share(t: Trace, seat: int) -> float:
    """Tablelog's reading of one match for a seat: 1 for a win alone, 1/k for a k-way shared
    win, 1/players for a draw."""
    if not t.winners:
        return 1.0 / t.players
    return 1.0 / len(t.winners) if seat in t.winners else 0.0


def utilities(t: Trace) -> list[float]:
    """Ludii's utility of each seat (`other/RankUtils.java`): its rank, tied seats sharing the
    mean of the ranks they span (as Ludii ranks ties, `game/rules/end/ByScore.java`), mapped
    to 1 for the first and -1 for the last: 1 - (rank - 1) * 2 / (players - 1)."""
    rank: dict[int, float] = {}
    taken = 0
    for group in t.places:
        for seat in group:
            rank[seat] = taken + (len(group) + 1) / 2
        taken += len(group)
    if t.players == 1:
        return [2 * rank.get(0, 1.0) - 1]
    draw = taken + (t.players - taken + 1) / 2  # a seat left unranked: Ludii's draw rank
    return [1 - (rank.get(s, draw) - 1) * 2 / (t.players - 1) for s in range(t.players)]


def rounds(t: Trace) -> float:
    """Rounds: every seat has had its turn once. A turn is a run of moves by one seat (a
    GeoShapes play is several moves); a simultaneous game records one move per round."""
    if t.simultaneous or not t.movers:
        return float(t.moves)
    turns = 1 + sum(a != b for a, b in pairwise(t.movers))
    return turns / t.players


# ---- Ludii's readings of a match as it goes ------------------------------------------------


def before_each_move(totals: Sequence[Row]) -> list[Row]:
    """The scores of the position each move was made from: the start (every game here starts
    at 0 points) and the totals after every move but the last. Ludii evaluates these, never the
    final position (its LeadChange, DecisivenessMoves and Drama loop over the moves, evaluating
    before applying each)."""
    return [tuple(0.0 for _ in totals[0]), *totals[:-1]]


def evaluations(position: Row) -> Row:
    """Each seat's evaluation of a position as Ludii's `Utils.evaluateState` makes it from a
    heuristic (here the score): the seat's own minus every opponent's, through tanh. tanh and
    the heuristic's weight keep the order, and only order is compared, so they are left out."""
    whole = sum(position)
    return tuple(own - (whole - own) for own in position)


def lead_change(positions: Sequence[Row]) -> float:
    """Ludii's LeadChange (`metrics/single/stateEvaluation/LeadChange.java`): before every move,
    the set of seats with the highest evaluation (ties: all of them); a change counts when the
    set differs from the last one, the first position counting against the empty set; the count
    divided by the number of moves."""
    changes, past = 0, frozenset[int]()
    for position in positions:
        values = evaluations(position)
        leaders = frozenset(s for s, v in enumerate(values) if v == max(values))
        changes += leaders != past
        past = leaders
    return changes / len(positions)


def decisiveness(positions: Sequence[Row], top: Sequence[int]) -> float:
    """Ludii's DecisivenessMoves (`.../decisiveness/DecisivenessMoves.java` with its threshold
    from `DecisivenessThreshold.java`): the threshold is the highest evaluation any other seat
    than the top-ranked ones (`top`, Ludii's `Utils.highestRankedPlayers`: the winners, or every
    seat in a draw) ever has before a move; the value is the FIRST move before which a
    top-ranked seat is above it, as a share of the moves (1 when none ever is). Ludii's
    threshold starts at its lowest evaluation, -1: here minus infinity. This is what the two
    classes describe; their code strays (docs/metrics.md): its highest-ranked seats are read
    from the start's context, where every seat ties, and it divides two whole numbers, which
    makes every match 0 or 1."""
    others = [s for s in range(len(positions[0])) if s not in top]
    values = [evaluations(p) for p in positions]
    threshold = max((v[s] for v in values for s in others), default=-math.inf)
    first = next(
        (i for i, v in enumerate(values) if any(v[s] > threshold for s in top)), len(values)
    )
    return first / len(values)


# ---- Tablelog's own readings of a match's scores -------------------------------------------


def sole_leaders(totals: Sequence[Row]) -> list[int | None]:
    """The sole leader by score after each move (None while tied at the top)."""
    out: list[int | None] = []
    for row in totals:
        top = [s for s, v in enumerate(row) if v == max(row)]
        out.append(top[0] if len(top) == 1 else None)
    return out


def sole_lead_changes(leaders: Sequence[int | None]) -> int:
    """How often the sole leader becomes another seat (ties in between do not count)."""
    sole = [s for s in leaders if s is not None]
    return sum(a != b for a, b in pairwise(sole))


def lead_for_good(leaders: Sequence[int | None], winner: int) -> float:
    """The share of the match played before the eventual winner leads for good: 0 when it led
    from the first move to the end, near 1 when it took the lead only at the last move, 1
    when it never led alone (won on a tie-break)."""
    last_not = max((i for i, s in enumerate(leaders) if s != winner), default=-1)
    return (last_not + 1) / len(leaders)


def deficit(totals: Sequence[Row], winner: int) -> float:
    """How far behind the eventual winner ever was: the largest gap, in points, between the
    leader and the winner after any move (0 for a winner never behind)."""
    return float(max(max(row) - row[winner] for row in totals))


def margin(final: Sequence[float], winners: Sequence[int]) -> float:
    others = [v for s, v in enumerate(final) if s not in winners]
    return float(final[winners[0]] - max(others)) if others else 0.0
