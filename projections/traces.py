"""Matches as the lab's metrics read them: one `Trace` per match.

A trace holds only what the metrics of `projections.metrics` need: who won, the final ranking
(groups of tied seats, best first), how the match ended, the movers in order, the running score
totals and, where measured, the number of legal moves at each position. Traces come from three
places:

- `trace_of_match`: a `Match` in memory (an experiment's match, or one replayed from the store):
  the states are all there, so branching is counted at every position;
- `traces_from_tables`: the projection tables `matches`, `moves` and `scores` (what the store
  already holds, no replay). Running totals are summed from each move's `score_change`, which is
  the MOVER's change only; in games where a move changes another seat's score too (a Topiary
  tile turned face up changes what every visitor sees) that sum is not the score, so the totals
  are kept only where they end at the final totals of the `scores` table, and left out (None)
  otherwise. No branching;
- `with_replay`: replays a seeded sample of table traces' matches and takes their exact running
  totals and branching from the states (replaying thousands of matches on a request would be
  slow; the sample size is reported).

Seats are indices 0..n-1 here (seat 1 of the tables is 0).
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import pandas as pd

from tablelog.domain.games import GameRules, UnknownInformation, get_rules
from tablelog.domain.matches.match import Match

S = TypeVar("S")  # a game's own position type

# Seat names the simulator ("greedy-1") and the lab ("mcts-16+never-play-red-2") give bots.
BOT_SEAT = re.compile(r"(random|greedy|mcts-[0-9]+)(\+[a-z0-9-]+)?-[0-9]+")


@dataclasses.dataclass(frozen=True)
class Trace:
    players: int
    winners: tuple[int, ...]  # empty: a draw (or a match not ended)
    completed: bool  # ended by the rules (not abandoned, not drawn at a cap)
    movers: tuple[int, ...]  # the seat that recorded each effective move
    totals: tuple[tuple[float, ...], ...] | None = None  # every seat's total after each move
    branching: tuple[int, ...] | None = None  # legal moves at each position a move was made in
    minutes: float = math.nan  # played time, where the record says it
    simultaneous: bool = False
    match_id: str = ""
    ranking: tuple[tuple[int, ...], ...] = ()  # groups of tied seats, best first; () unknown

    @property
    def moves(self) -> int:
        return len(self.movers)

    @property
    def places(self) -> tuple[tuple[int, ...], ...]:
        """The ranking, or where it is unknown the one the winners imply: the winners first
        and every other seat tied after them (a draw: every seat tied)."""
        if self.ranking:
            return self.ranking
        everyone = tuple(range(self.players))
        rest = tuple(s for s in everyone if s not in self.winners)
        return tuple(group for group in (self.winners, rest) if group) or (everyone,)


def trace_of_match(match: Match) -> Trace:
    """The trace of a `Match` (its states are all in memory)."""
    rules = match.rules
    outcome = match.outcome or {"winners": [], "ranking": [], "reason": ""}
    ended_by_rules = match.status == "ended" and match.rules_outcome() is not None
    return Trace(
        players=len(match.seats),
        winners=tuple(outcome["winners"]),
        completed=ended_by_rules,
        movers=tuple(m["seat"] for m in match.moves),
        totals=_totals(rules, match.states[1:]),
        simultaneous=rules.simultaneous,
        branching=tuple(_branching(rules, s) for s in match.states[:-1]),
        match_id=str(match.id),
        ranking=tuple(tuple(group) for group in outcome.get("ranking", ())),
    )


def _totals(rules: GameRules[S], states: Sequence[S]) -> tuple[tuple[float, ...], ...] | None:
    if not rules.scores_as_it_goes:
        return None
    try:
        return tuple(tuple(float(e["total"]) for e in rules.score(s)) for s in states)
    except UnknownInformation:
        return None


def _branching(rules: GameRules[S], state: S) -> int:
    """Legal moves in `state`; in a simultaneous round, the first awaited seat's choices (the
    round's joint moves are their product, which says more about the notation than the game)."""
    if rules.simultaneous:
        awaited = rules.to_move(state)
        return len(rules.choices(state, awaited[0])) if awaited else 0
    return len(rules.legal_moves(state))


def traces_from_tables(
    matches: pd.DataFrame, moves: pd.DataFrame, scores: pd.DataFrame | None = None
) -> list[Trace]:
    """Traces of the ended matches in the projection tables, without replaying anything."""
    ended = matches[matches["status"] == "ended"]
    effective = moves[~moves["undone"].astype(bool)].sort_values(["match_id", "number"])
    by_match: dict[object, pd.DataFrame] = {  # keyed by match id (pandas: any scalar)
        key: frame for key, frame in effective.groupby("match_id", sort=False)
    }
    finals = (
        {}
        if scores is None
        else {
            key: tuple(frame.sort_values("seat")["total"].astype(float))
            for key, frame in scores.groupby("match_id", sort=False)
        }
    )
    traces = [_table_trace(row, by_match.get(row.match_id)) for row in ended.itertuples()]
    return [
        t
        if t.totals is None or _adds_up(t.totals[-1], finals.get(t.match_id))
        else dataclasses.replace(t, totals=None)
        for t in traces
    ]


def _adds_up(running: Sequence[float], final: Sequence[float] | None) -> bool:
    return (
        final is not None
        and len(final) == len(running)
        and all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(running, final))
    )


def _table_trace(row: Any, moves: pd.DataFrame | None) -> Trace:
    seats = json.loads(row.seats)
    winners = tuple(seats.index(name) for name in json.loads(row.winners) if name in seats)
    groups = json.loads(getattr(row, "ranking", None) or "[]")
    ranking = tuple(tuple(seats.index(n) for n in group if n in seats) for group in groups)
    rules = get_rules(row.game)
    movers = () if moves is None else tuple(int(s) - 1 for s in moves["seat"])
    totals = None
    if moves is not None and rules.scores_as_it_goes and moves["score_change"].notna().all():
        running, rows = [0.0] * row.players, []
        for seat, change in zip(movers, moves["score_change"]):
            running[seat] += float(change)
            rows.append(tuple(running))
        totals = tuple(rows)
    return Trace(
        players=int(row.players),
        winners=winners,
        completed=not bool(row.agreed_draw),
        movers=movers,
        totals=totals,
        minutes=_minutes(row, seats),
        simultaneous=rules.simultaneous,
        match_id=row.match_id,
        ranking=tuple(group for group in ranking if group),
    )


def _minutes(row: Any, seats: Sequence[str]) -> float:
    """Entered live (played when started) and not a bot match: the minutes from start to end."""
    if is_bot_match(seats) or pd.isna(row.ended):
        return math.nan
    if row.played != row.started:
        return math.nan  # logged afterwards: the entry time says nothing of the play
    return (row.ended - row.started).total_seconds() / 60


def with_replay(
    traces: Sequence[Trace], replay: Callable[[str], Match], sample: int, seed: int = 0
) -> tuple[list[Trace], int]:
    """`traces` with a seeded sample of at most `sample` of them replayed with
    `replay(match_id) -> Match`: exact running totals and branching from the states. Returns the
    traces and how many were replayed."""
    chosen = set(random.Random(seed).sample(range(len(traces)), min(sample, len(traces))))
    out = []
    for i, trace in enumerate(traces):
        if i in chosen:
            match = replay(trace.match_id)
            trace = dataclasses.replace(
                trace,
                totals=_totals(match.rules, match.states[1:]),
                branching=tuple(_branching(match.rules, s) for s in match.states[:-1]),
            )
        out.append(trace)
    return out, len(chosen)


def is_bot_match(seats: Iterable[str]) -> bool:
    return all(BOT_SEAT.fullmatch(str(name)) for name in seats)
