"""Simulated matches: seeded bots play whole matches through the recorder's own commands.

Every match is built in memory as a `Match` through the command methods a person's entries go
through (`start_match`, `record`, `end`), so each move is validated by the rules and chained by
hash exactly as if it had been typed; then many finished matches are stored per transaction.

Determinism: match number k of a run with seed s draws everything random (the deal, every bot's
decision) from its own generator seeded by (s, k), so which worker plays it, and when, changes
nothing; matches are stored in match-number order. Two runs with the same arguments store the
same matches, apart from ids and timestamps.

Storing: each finished match's pending events (validated, hash-chained, exactly what `save`
would take from the aggregate) are turned into rows by the recorder's own mapper, the step
`save` takes next, and a batch of matches' rows is stored in one transaction by
`Recorder.save_mapped` (the rest of what `save` does, but taking no snapshots: they are a
cache, and a simulated match is read from its events). With worker processes (both cores by
default) the workers play and map, so the mapping runs on both cores, and only the rows cross
to the main process, which inserts them in match order.

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
from typing import Any, NamedTuple
from uuid import uuid4

from eventsourcing.persistence import Mapper, StoredEvent

from tablelog.domain.bots import BOTS, next_move
from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules
from tablelog.domain.match import Match, start_match
from tablelog.domain.recorder import Recorder
from tablelog.domain.wording import player_count_refusal

# Every game ends by its rules, except where bots can go round in circles: Topitop declares its
# cap (`playout_cap`, 200 actions); any other game still running after RUNAWAY moves is also
# ended as a draw by agreement, and the run's summary counts such matches.
RUNAWAY = 2_000
# Matches are stored a batch per transaction: a batch closes at this many events (or matches).
BATCH_EVENTS = 5_000
BATCH_MATCHES = 200


class SimulationError(Refused):
    """A simulation asked for something that cannot be played (the message says what)."""


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


def make_plan(
    game: str,
    matches: int,
    seed: int,
    players: int | None = None,
    bots: str | Sequence[str] = "random",
    options: Mapping[str, Any] | None = None,
) -> Plan:
    """A checked Plan, or a one-line Refused/InvalidSetup naming what is wrong.

    `bots` is one bot for every seat or one per seat ("greedy,random"); `players` defaults to
    the number of bots given per seat, else 2 (or the game's only count)."""
    rules = get_rules(game)
    if matches < 1:
        raise SimulationError(f"-n, the number of matches, must be 1 or more, got {matches}")
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    unknown = [b for b in names if b not in BOTS]
    if unknown or not names:
        raise SimulationError(f"unknown bot {(unknown or [''])[0]!r}; bots: {', '.join(BOTS)}")
    if players is None:
        players = (
            len(names) if len(names) > 1 else min(max(2, rules.min_players), rules.max_players)
        )
    refusal = player_count_refusal(rules, players)
    if refusal:
        raise SimulationError(refusal)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SimulationError(
            f"give one bot for every seat or one per seat: {len(names)} bots for {players} players"
        )
    return Plan(game, matches, seed, tuple(names), rules.options(dict(options or {})))


def match_rng(seed: int, number: int) -> random.Random:
    """The generator of match `number` of the run seeded `seed` (string seeds hash the same in
    every process, unlike hash())."""
    return random.Random(f"tablelog-simulate:{seed}:{number}")


def move_cap(game: str) -> int:
    """How many moves a simulated match of `game` may take before it is drawn by agreement."""
    return get_rules(game).playout_cap or RUNAWAY


def begin_match(plan: Plan, number: int) -> tuple[Match, random.Random]:
    """Match `number` of the plan, dealt and started in memory, and its generator."""
    rules = get_rules(plan.game)
    rng = match_rng(plan.seed, number)
    setup = rules.deal(plan.players, plan.options, rng)  # the whole deal goes into Started
    return start_match(uuid4(), plan.game, plan.seats, dict(plan.options), setup), rng


def play_on(match: Match, plan: Plan, rng: random.Random, moves: int) -> None:
    """Up to `moves` more moves by the plan's bots, each recorded like a person's entry (the
    rules check it, the hash chain takes it); fewer if the game ends first."""
    rules = match.rules
    bots = [BOTS[name] for name in plan.bots]
    for _ in range(moves):
        if rules.outcome(match.state) is not None:
            return
        seat, move = next_move(rules, match.state, bots, rng)
        match.record(seat, move)


def play_match(plan: Plan, number: int) -> Match:
    """Match `number` of the plan, played to its end and ended, in memory (nothing stored)."""
    match, rng = begin_match(plan, number)
    play_on(match, plan, rng, move_cap(plan.game))
    match.end(agreed_draw=match.rules_outcome() is None)  # at the cap: a draw by agreement
    return match


class Played(NamedTuple):
    """A finished match as it crosses from a worker: its rows, ready to insert, and its result."""

    rows: list[StoredEvent]
    winners: tuple[int, ...]
    capped: bool


def played(plan: Plan, number: int, mapper: Mapper) -> Played:
    match = play_match(plan, number)
    rows = [mapper.to_stored_event(event) for event in match.collect_events()]
    outcome = match.outcome
    assert outcome is not None  # play_match plays every match to its end
    return Played(rows, tuple(outcome["winners"]), outcome["reason"] == "draw by agreement")


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
    capped: int = 0  # drawn by agreement at the move cap

    def count(self, match: Played) -> None:
        self.matches += 1
        self.events += len(match.rows)
        self.wins.update(match.winners)
        self.draws += not match.winners
        self.capped += match.capped

    def summary(self) -> str:
        rate = self.matches / self.seconds if self.seconds else 0.0
        lines = [
            f"stored {self.matches} {self.plan.game} matches ({self.events} events) in "
            f"{self.seconds:.1f} s, {rate:.1f} matches/s"
        ]
        if self.interrupted:
            lines[0] = (
                f"interrupted: {lines[0]}; the other "
                f"{self.plan.matches - self.matches} were not stored"
            )
        if self.matches:
            shares = [
                f"{seat} won {self.wins[i] / self.matches:.0%}"
                for i, seat in enumerate(self.plan.seats)
            ]
            lines.append(f"{', '.join(shares)}, {self.draws / self.matches:.0%} drawn")
        if self.capped:
            lines.append(
                f"{self.capped} matches reached the cap of {move_cap(self.plan.game)} "
                "moves and were drawn by agreement"
            )
        return "\n".join(lines)


def simulate(
    recorder: Recorder, plan: Plan, workers: int | None = None, progress: bool = True
) -> Report:
    """Play and store every match of the plan, in match order, a batch per transaction.
    Ctrl-C stops it: the matches finished so far are stored whole, the rest not at all."""
    return simulate_all(recorder, [plan], workers, progress)[0]


def simulate_all(
    recorder: Recorder,
    plans: Sequence[Plan],
    workers: int | None = None,
    progress: bool | str = True,
) -> list[Report]:
    """`simulate` for several plans one after the other, sharing one pool of workers and one
    progress bar (`progress` may be the bar's label)."""
    from tqdm import tqdm

    reports = [Report(plan) for plan in plans]
    jobs = [(which, number) for which, plan in enumerate(plans) for number in range(plan.matches)]
    started = time.perf_counter()
    batch: list[tuple[int, Played]] = []

    def store() -> None:
        # One transaction: every row of every match in the batch, or none.
        recorder.save_mapped([row for _, match in batch for row in match.rows])
        for which, match in batch:
            reports[which].count(match)
        batch.clear()

    label = progress if isinstance(progress, str) else plans[0].game if len(plans) == 1 else ""
    with (
        _interrupt_flag() as interrupted,
        _played(
            plans, jobs, recorder.mapper, _worker_count(len(jobs), workers), interrupted
        ) as matches,
        tqdm(total=len(jobs), desc=label, unit="match", disable=not progress, leave=False) as bar,
    ):
        for which, match in matches:
            batch.append((which, match))
            bar.update()
            if len(batch) >= BATCH_MATCHES or sum(len(m.rows) for _, m in batch) >= BATCH_EVENTS:
                store()
        if batch:
            store()
    seconds = time.perf_counter() - started
    for report in reports:
        report.interrupted = interrupted() and report.matches < report.plan.matches
        report.seconds = seconds
    return reports


Job = tuple[int, int]  # which plan, and the number of one of its matches


def check_workers(workers: int | None) -> None:
    if workers is not None and workers < 1:
        raise SimulationError(f"--workers must be 1 or more, got {workers}")


def _worker_count(jobs: int, workers: int | None) -> int:
    """Both cores by default; in-process when the run is too small to repay starting workers."""
    check_workers(workers)
    if workers is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        workers = 1 if jobs < 4 * (cores or 1) else cores or 1
    return max(1, min(workers, jobs))


@contextlib.contextmanager
def _played(
    plans: Sequence[Plan], jobs: list[Job], mapper: Mapper, workers: int, stop: Callable[[], bool]
) -> Iterator[Iterator[tuple[int, Played]]]:
    """Every job's match, played, in job order, until all are played or `stop()`."""
    if workers == 1:
        yield (
            (which, played(plans[which], number, mapper)) for which, number in _until(jobs, stop)
        )
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, _init_worker, (plans, mapper))
    try:
        # A task is a run of consecutive jobs: fewer round trips for short matches.
        size = max(1, min(8, len(jobs) // (workers * 16)))
        tasks = [jobs[n : n + size] for n in range(0, len(jobs), size)]
        yield _results(pool.imap(_play_in_worker, tasks), stop)
    finally:
        pool.terminate()
        pool.join()


def _until(jobs: list[Job], stop: Callable[[], bool]) -> Iterator[Job]:
    for job in jobs:
        if stop():
            return
        yield job


def _results(results: Any, stop: Callable[[], bool]) -> Iterator[tuple[int, Played]]:
    """The workers' matches in order, polled so that a Ctrl-C is seen within 0.1 s."""
    while not stop():
        try:
            task = results.next(timeout=0.1)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return
        yield from task


_WORKER: tuple[Sequence[Plan], Mapper] | None = None


def _init_worker(plans: Sequence[Plan], mapper: Mapper) -> None:
    # Ctrl-C reaches the whole process group: only the main process acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER
    _WORKER = (plans, mapper)


def _play_in_worker(jobs: list[Job]) -> list[tuple[int, Played]]:
    assert _WORKER is not None
    plans, mapper = _WORKER
    return [(which, played(plans[which], number, mapper)) for which, number in jobs]


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
