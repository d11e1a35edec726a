"""Running a lab experiment: play its arms' matches, store them whole, report; or stop when
cancelled, keeping what is stored.

Every match is played in memory through the `Match` commands a person's entries go through
(each move checked by the rules and hash-chained), then stored with `Recorder.save_new`, a batch
per transaction; the experiment's row (`lab.store`) lists the stored ids after each batch.

The matches are played in worker processes (one at least), and arrive in job order, so which
worker played a match changes nothing (see `lab.experiments` for the seeding). A worker is a
process so that a cancel takes effect at once: an MCTS search of a large budget can run for
minutes inside one decision, and stopping its process is the one way to stop it there. The match
it was playing had not been stored, so nothing half-played ever is.

Stopping: `stop()` (the command line's Ctrl-C, the server's cancel) or the experiment's row set
to "cancelling" by any process (`LabStore.cancel`), looked at about once a second. The matches
already finished are stored, the row says "cancelled after N of M matches", and `run` raises
`Cancelled`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.context import BaseContext
from typing import Any
from uuid import uuid4

from tablelog.domain.agents import make_agent
from tablelog.domain.agents.bots import next_move
from tablelog.domain.games import get_rules
from tablelog.domain.matches.match import Match, start_match
from tablelog.domain.recording.recorder import Recorder
from tablelog.projections.traces import Trace, trace_of_match
from tablelog.simulation.plan import move_cap
from tablelog.simulation.run import polled

from .experiments import Definition
from .report import report_of
from .store import CANCELLED, DONE, INTERRUPTED, RUNNING, LabStore

BATCH = 20  # matches stored per transaction at most
SAVE_EVERY = 5.0  # seconds a finished match waits at most to be stored (long MCTS matches)
LOOK_EVERY = 1.0  # seconds between looks at the experiment's row for a cancel
Progress = Callable[[int, int], object]  # (matches played, matches in all); returns ignored
Job = tuple[int, int]  # arm index, match number


class Cancelled(Exception):
    """The experiment stopped before its last match: `experiment` is its row as stored, the
    matches so far whole and listed ("cancelled after N of M matches")."""

    def __init__(self, experiment: dict[str, Any]) -> None:
        super().__init__(experiment["state"])
        self.experiment = experiment


def match_rng(definition: Definition, arm: int, number: int) -> random.Random:
    return random.Random(f"tablelog-lab:{definition.seed}:{arm}:{number}")


def play(definition: Definition, arm_index: int, number: int) -> tuple[Match, Trace]:
    """Match `number` of arm `arm_index`, played to its end (or the game's move cap, where it is
    drawn by agreement, as in `tablelog simulate`) and ended, in memory."""
    arm = definition.arms[arm_index]
    rules = get_rules(definition.game)
    rng = match_rng(definition, arm_index, number)
    seating = arm.seating(number)
    seats = [f"{spec}-{seat}" for seat, spec in enumerate(seating, start=1)]
    setup = rules.deal(definition.players, arm.options, rng)
    match = start_match(uuid4(), definition.game, seats, dict(arm.options), setup)
    bots = [make_agent(definition.game, spec) for spec in seating]
    for _ in range(move_cap(definition.game)):
        if rules.outcome(match.state) is not None:
            break
        seat, move = next_move(rules, match.state, bots, rng)
        match.record(seat, move)
    match.end(agreed_draw=match.rules_outcome() is None)
    return match, trace_of_match(match)


def run(
    recorder: Recorder,
    definition: Definition,
    workers: int = 1,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
    experiment_id: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """Play, store and report the experiment; returns its id and its report. Cancelled (see the
    module notes) when it is stopped first; an error leaves it "interrupted", with the matches
    stored so far listed."""
    store = LabStore(recorder)
    experiment_id = experiment_id or str(uuid4())
    store.create(experiment_id, definition.to_json())
    jobs = [(a, k) for a in range(len(definition.arms)) for k in range(definition.matches)]
    kept = Kept(recorder, store, definition, experiment_id)
    asked = Asked(store, experiment_id, stop)
    try:
        with _played(definition, jobs, workers, asked) as played:
            for done, (arm, match, trace) in enumerate(played, start=1):
                kept.add(arm, match, trace)
                if progress:
                    progress(done, len(jobs))
        kept.save()
    except BaseException:
        store.finish(experiment_id, INTERRUPTED, None)
        raise
    if kept.stored < len(jobs):
        store.finish(experiment_id, CANCELLED, None)
        raise Cancelled(store.get(experiment_id))
    report = report_of(definition, kept.traces)
    store.finish(experiment_id, DONE, report)
    return experiment_id, report


class Kept:
    """The experiment's finished matches: stored whole, a batch per transaction (every BATCH
    matches or SAVE_EVERY seconds), then listed in its row; and their traces for the report."""

    def __init__(
        self, recorder: Recorder, store: LabStore, definition: Definition, experiment_id: str
    ) -> None:
        self.recorder, self.store, self.experiment_id = recorder, store, experiment_id
        self.names = [arm.name for arm in definition.arms]
        self.ids: dict[str, list[str]] = {name: [] for name in self.names}
        self.traces: list[list[Trace]] = [[] for _ in definition.arms]
        self.batch: list[tuple[int, Match]] = []
        self.stored = 0
        self.since = time.monotonic()

    def add(self, arm: int, match: Match, trace: Trace) -> None:
        if not self.batch:
            self.since = time.monotonic()
        self.batch.append((arm, match))
        self.traces[arm].append(trace)
        if len(self.batch) >= BATCH or time.monotonic() - self.since >= SAVE_EVERY:
            self.save()

    def save(self) -> None:
        if not self.batch:
            return
        self.recorder.save_new([match for _, match in self.batch])
        for arm, match in self.batch:
            self.ids[self.names[arm]].append(str(match.id))
        self.store.list_matches(self.experiment_id, self.ids)
        self.stored += len(self.batch)
        self.batch.clear()


class Asked:
    """Whether the experiment is to stop: `stop()`, or its row no longer "running" (a cancel
    from another process), read at most every LOOK_EVERY seconds."""

    def __init__(
        self, store: LabStore, experiment_id: str, stop: Callable[[], bool] | None
    ) -> None:
        self.store, self.experiment_id, self.stop = store, experiment_id, stop
        self.looked = time.monotonic()
        self.seen = False

    def __call__(self) -> bool:
        if not self.seen and self.stop is not None:
            self.seen = self.stop()
        if not self.seen and time.monotonic() - self.looked >= LOOK_EVERY:
            self.looked = time.monotonic()
            self.seen = self.store.status(self.experiment_id) != RUNNING
        return self.seen


@contextlib.contextmanager
def _played(
    definition: Definition, jobs: list[Job], workers: int, stop: Callable[[], bool]
) -> Iterator[Iterator[tuple[int, Match, Trace]]]:
    """Every job's match in job order, played in `workers` processes (at most one a job), until
    all are played or `stop()`; leaving stops the processes, whatever they are doing."""
    pool = _start_method().Pool(max(1, min(workers, len(jobs))), _ignore_ctrl_c)
    try:
        yield polled(pool.imap(_play_job, [(definition, a, k) for a, k in jobs]), stop)
    finally:
        pool.terminate()
        pool.join()


def _start_method() -> BaseContext:
    """fork from the main thread (quick to start); spawn from any other (the server runs an
    experiment in a thread, and forking a process that runs threads can copy a held lock)."""
    main = threading.current_thread() is threading.main_thread()
    fork = main and "fork" in multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if fork else "spawn")


def _ignore_ctrl_c() -> None:
    # Ctrl-C reaches the whole process group: only the main process acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_job(job: tuple[Definition, int, int]) -> tuple[int, Match, Trace]:
    definition, arm, number = job
    return (arm, *play(definition, arm, number))
