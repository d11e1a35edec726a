"""Simulated matches: seeded bots play whole matches through the recorder's own commands.

Every match is built in memory as a `Match` through the command methods a person's entries go
through (`start_match`, `record`, `end`), so each move is validated by the rules and chained by
hash exactly as if it had been typed; then many finished matches are stored per transaction.

Determinism: match number k of a run with seed s draws everything random (the deal, every bot's
decision) from its own generator seeded by (s, k), so which worker plays it, and when, changes
nothing; matches are stored in match-number order. Two runs with the same arguments store the
same matches, apart from ids and timestamps.

Parallel runs: worker processes play matches and send back each finished match's pending events
(validated, hash-chained domain events, exactly what `save` would take from the aggregate); the
main process stores them in match order, a batch per transaction.

Ctrl-C: the main process notes the interrupt, stores the matches already finished (whole
matches, in one last transaction), stops the workers and returns; nothing is half-written
because a match is only ever stored with all its events, in a transaction of its own batch.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from uuid import uuid4

from domain.bots import BOTS, next_move
from domain.errors import Refused
from domain.games import get_rules
from domain.match import Match, start_match
from domain.recorder import Recorder

# A game without a `playout_cap` must end by its rules; one that has not after this many moves
# has an engine bug, reported rather than looped on.
RUNAWAY = 10_000
# Matches are stored a batch per transaction: a batch closes at this many events (or matches).
BATCH_EVENTS = 5_000
BATCH_MATCHES = 200


class SimulationError(Refused):
    """A simulation could not be set up or a bot met a position the rules do not resolve."""


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a simulation run plays: `matches` matches of `game`, one bot per seat."""

    game: str
    matches: int
    seed: int
    bots: tuple[str, ...]  # the bot of each seat, in turn order
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def seats(self) -> list[str]:
        """Seat names say which bot plays where: "greedy-1", "random-2"..."""
        return [f"{bot}-{number}" for number, bot in enumerate(self.bots, start=1)]


def make_plan(game: str, matches: int, seed: int, players: int | None = None,
              bots: str | Sequence[str] = "random",
              options: Mapping[str, Any] | None = None) -> Plan:
    """A checked Plan, or a one-line Refused/InvalidSetup naming what is wrong.

    `bots` is one bot for every seat or one per seat ("greedy,random"); `players` defaults to
    the number of bots given per seat, else 2 (or the game's only count)."""
    rules = get_rules(game)
    if matches < 1:
        raise SimulationError(f"the number of matches must be 1 or more, got {matches}")
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    unknown = [b for b in names if b not in BOTS]
    if unknown or not names:
        raise SimulationError(f"unknown bot {(unknown or [''])[0]!r}; bots: {', '.join(BOTS)}")
    if players is None:
        players = len(names) if len(names) > 1 else min(max(2, rules.min_players),
                                                          rules.max_players)
    if not rules.min_players <= players <= rules.max_players:
        counts = (f"{rules.min_players}" if rules.min_players == rules.max_players
                  else f"{rules.min_players}-{rules.max_players}")
        raise SimulationError(f"{rules.name} is for {counts} players, not {players}")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SimulationError(f"give one bot for every seat or one per seat: {len(names)} bots "
                              f"for {players} players")
    return Plan(game, matches, seed, tuple(names), rules.options(dict(options or {})))


def match_rng(seed: int, number: int) -> random.Random:
    """The generator of match `number` of the run seeded `seed` (string seeds hash the same in
    every process, unlike hash())."""
    return random.Random(f"tablelog-simulate:{seed}:{number}")


def play_match(plan: Plan, number: int) -> Match:
    """Match `number` of the plan, played to its end in memory (nothing stored)."""
    rules = get_rules(plan.game)
    rng = match_rng(plan.seed, number)
    setup = rules.deal(plan.players, plan.options, rng)
    match = start_match(uuid4(), plan.game, plan.seats, dict(plan.options), setup)
    bots = [BOTS[name] for name in plan.bots]
    cap = rules.playout_cap or RUNAWAY
    while rules.outcome(match.state) is None and len(match.moves) < cap:
        seat, move = next_move(rules, match.state, bots, rng)
        match.record(seat, move)
    if rules.outcome(match.state) is None and rules.playout_cap is None:
        raise SimulationError(f"{rules.name} match {number} of seed {plan.seed} did not end "
                              f"after {RUNAWAY} moves (a rules engine bug)")
    # A game that loops (Topitop) is called a draw by agreement at its cap.
    match.end(agreed_draw=rules.outcome(match.state) is None)
    return match


@dataclasses.dataclass
class Report:
    """What a run stored."""

    plan: Plan
    matches: int = 0
    events: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    wins: Counter = dataclasses.field(default_factory=Counter)  # seat index -> matches won
    draws: int = 0

    def summary(self) -> str:
        rate = self.matches / self.seconds if self.seconds else 0.0
        head = (f"stored {self.matches} {self.plan.game} matches ({self.events} events) in "
                f"{self.seconds:.1f} s, {rate:.1f} matches/s")
        if self.interrupted:
            head = f"interrupted: {head}; {self.plan.matches - self.matches} not played"
        if not self.matches:
            return head
        shares = [f"{seat} won {self.wins[i] / self.matches:.0%}"
                  for i, seat in enumerate(self.plan.seats)]
        return f"{head}\n{', '.join(shares)}, {self.draws / self.matches:.0%} drawn"


def simulate(recorder: Recorder, plan: Plan, workers: int | None = None,
             progress: bool = True) -> Report:
    """Play and store every match of the plan; Ctrl-C stops after storing the finished ones."""
    report = Report(plan)
    started = time.perf_counter()
    batch: list[Any] = []
    batch_matches = 0

    def flush() -> None:
        nonlocal batch, batch_matches
        if batch:
            recorder.save(*batch)  # one transaction: whole matches or nothing
            report.matches += batch_matches
            report.events += len(batch)
        batch, batch_matches = [], 0

    from tqdm import tqdm

    with _interrupt_flag() as interrupted, \
            _played(plan, _worker_count(plan, workers), interrupted) as played, \
            tqdm(total=plan.matches, desc=plan.game, unit="match", disable=not progress,
                 leave=False) as bar:
        for events in played:
            batch.extend(events)
            batch_matches += 1
            _tally(report, events[-1])
            bar.update()
            if len(batch) >= BATCH_EVENTS or batch_matches >= BATCH_MATCHES:
                flush()
        flush()
        report.interrupted = interrupted()
    report.seconds = time.perf_counter() - started
    return report


def _tally(report: Report, ended: Any) -> None:
    winners = ended.outcome["winners"]
    report.wins.update(winners)
    report.draws += not winners


def _worker_count(plan: Plan, workers: int | None) -> int:
    """Both cores by default; in-process when the run is too small to repay starting workers."""
    if workers is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        workers = 1 if plan.matches < 4 * (cores or 1) else cores or 1
    if workers < 1:
        raise SimulationError(f"workers must be 1 or more, got {workers}")
    return min(workers, plan.matches)


@contextlib.contextmanager
def _played(plan: Plan, workers: int,
            stop: Callable[[], bool]) -> Iterator[Iterator[list[Any]]]:
    """Every match's pending events, in match order, until all are played or `stop()`."""
    if workers == 1:
        yield _in_process(plan, stop)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, _init_worker, (plan,))
    try:
        chunk = max(1, min(8, plan.matches // (workers * 16)))
        yield _results(pool.imap(_play_in_worker, range(plan.matches), chunk), stop)
    finally:
        pool.terminate()
        pool.join()


def _in_process(plan: Plan, stop: Callable[[], bool]) -> Iterator[list[Any]]:
    for number in range(plan.matches):
        if stop():
            return
        yield play_match(plan, number).collect_events()


def _results(results: Any, stop: Callable[[], bool]) -> Iterator[list[Any]]:
    while not stop():
        try:
            yield results.next(timeout=0.1)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


_PLAN: Plan | None = None


def _init_worker(plan: Plan) -> None:
    # Ctrl-C reaches the whole process group: only the main process acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _PLAN
    _PLAN = plan


def _play_in_worker(number: int) -> list[Any]:
    assert _PLAN is not None
    return play_match(_PLAN, number).collect_events()


@contextlib.contextmanager
def _interrupt_flag() -> Iterator[Callable[[], bool]]:
    """While inside, Ctrl-C only raises a flag, read between matches (never mid-transaction)."""
    raised = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield raised.is_set  # signals reach the main thread only: nothing to catch here
        return
    previous = signal.signal(signal.SIGINT, lambda *_: raised.set())
    try:
        yield raised.is_set
    finally:
        signal.signal(signal.SIGINT, previous)
