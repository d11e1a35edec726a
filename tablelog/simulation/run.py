"""A simulation run: every match of its plans played (`tablelog.simulation.playing`), in worker
processes or on a Dask cluster (`tablelog.simulation.cluster`), and stored, in match order.

Storing: each finished match's pending events (validated, hash-chained, exactly what `save`
would take from the aggregate) are turned into rows by the recorder's own mapper, the step
`save` takes next, and a batch of matches' rows is stored in one transaction by
`Recorder.save_matches` (the rest of what `save` does, but taking no snapshots: they are a
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
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.pool import IMapIterator
from typing import NamedTuple, Protocol, TypeVar, cast
from uuid import UUID

from eventsourcing.persistence import IntegrityError, Mapper

from tablelog.domain.recording.recorder import Recorder

from .plan import Plan, SimulationError, match_id, move_cap
from .playing import Packed, Played, Tally, packed, played, unpacked
from .stored import stored_among

T = TypeVar("T")  # what a worker gives back for one task


class Cluster(Protocol):
    """What a run asks of a cluster (`tablelog.simulation.cluster.Cluster`, which builds on this
    module: named here by what it does, so that this module does not import it back)."""

    def play(
        self,
        run: Run,
        recorder: Recorder,
        reports: Sequence[Report],
        done: Callable[[int], object],
        stop: Callable[[], bool],
    ) -> None:
        """Play and store every job of the run, counting into `reports`, until done or stop."""


# Matches are stored a batch per transaction: a batch closes at this many events (or matches).
BATCH_EVENTS = 5_000
BATCH_MATCHES = 200


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
    already: int = 0  # found stored by an earlier run of the same arguments, not played

    def count(self, match: Played | Tally) -> None:
        self.matches += 1
        self.events += match.events
        self.wins.update(match.winners)
        self.draws += not match.winners
        self.capped += match.capped

    def summary(self) -> str:
        lines = [self._stored()]
        if self.matches:
            shares = [
                f"{seat} won {self.wins[i] / self.matches:.0%}"
                for i, seat in enumerate(self.plan.seats)
            ]
            now = f"of the {self.matches} stored now: " if self.already else ""
            lines.append(f"{now}{', '.join(shares)}, {self.draws / self.matches:.0%} drawn")
        if self.capped:
            lines.append(
                f"{self.capped} matches reached the cap of {move_cap(self.plan.game)} "
                "moves and were drawn by agreement"
            )
        return "\n".join(lines)

    def _stored(self) -> str:
        """What was stored now, beside what already was (a run of the same arguments)."""
        game, total = self.plan.game, self.plan.matches
        if self.already == total:
            return f"all {total} {game} matches were already stored; nothing to store"
        rate = self.matches / self.seconds if self.seconds else 0.0
        how = f"({self.events} events) in {self.seconds:.1f} s, {rate:.1f} matches/s"
        if not self.already:
            line = f"stored {self.matches} {game} matches {how}"
        else:
            other = f"{self.matches} more" if self.interrupted else f"the other {self.matches}"
            line = (
                f"{self.already} of {total} {game} matches were already stored; "
                f"stored {other} {how}"
            )
        if self.interrupted:
            missing = total - self.already - self.matches
            line = f"interrupted: {line}; the other {missing} were not stored"
        return line


def simulate(
    recorder: Recorder,
    plan: Plan,
    workers: int | None = None,
    progress: bool = True,
    cluster: Cluster | None = None,
) -> Report:
    """Play and store every match of the plan, in match order, a batch per transaction.
    Ctrl-C stops it: the matches finished so far are stored whole, the rest not at all."""
    return simulate_all(recorder, [plan], workers, progress, cluster)[0]


def simulate_all(
    recorder: Recorder,
    plans: Sequence[Plan],
    workers: int | None = None,
    progress: bool | str = True,
    cluster: Cluster | None = None,
) -> list[Report]:
    """`simulate` for several plans one after the other, sharing one pool of workers (or the
    Dask `cluster`, tablelog.simulation.cluster) and one progress bar (`progress` may be the
    bar's label)."""
    from tqdm import tqdm

    reports = [Report(plan) for plan in plans]
    run = Run(plans, _missing(recorder, plans, reports))
    jobs = run.jobs
    started = time.perf_counter()
    label = progress if isinstance(progress, str) else plans[0].game if len(plans) == 1 else ""
    with (
        interrupt_flag() as interrupted,
        tqdm(total=len(jobs), desc=label, unit="match", disable=not progress, leave=False) as bar,
    ):
        if cluster is not None:
            cluster.play(run, recorder, reports, bar.update, interrupted)
        else:
            writer = Writer(recorder, reports)
            count = _worker_count(len(jobs), workers)
            with _played(run, recorder.mapper, count, interrupted) as matches:
                for which, match in matches:
                    writer.add(which, match)
                    bar.update()
            writer.flush()
    seconds = time.perf_counter() - started
    for report in reports:
        report.interrupted = interrupted() and report.already + report.matches < report.plan.matches
        report.seconds = seconds
    return reports


CHECKED = 10_000  # match ids looked up in the store at a time


def _missing(recorder: Recorder, plans: Sequence[Plan], reports: Sequence[Report]) -> list[Job]:
    """Every (plan, match number) whose match the store does not hold yet, in order; those it
    holds (an earlier run of the same arguments stored them) are counted as already stored."""
    jobs: list[Job] = []
    for which, plan in enumerate(plans):
        for start in range(0, plan.matches, CHECKED):
            numbers = range(start, min(start + CHECKED, plan.matches))
            ids = [match_id(plan, number) for number in numbers]
            stored = stored_among(recorder, ids)
            jobs.extend((which, n) for n, id in zip(numbers, ids) if id not in stored)
            reports[which].already += len(stored)
    return jobs


def save_unstored(recorder: Recorder, matches: Sequence[Played]) -> set[UUID]:
    """Store the matches in one transaction, leaving out any that another run of the same
    arguments stored first (two at once, or a cluster's task run again): their ids."""
    if not matches:
        return set()
    try:
        recorder.save_matches([match.rows for match in matches])
        return set()
    except IntegrityError:
        # The mapper's rows carry the aggregate's own UUID (see `packed`).
        ids = [cast(UUID, match.rows.originator_id) for match in matches]
        stored = stored_among(recorder, ids)
        if not stored:
            raise
    rest = [match.rows for match in matches if match.rows.originator_id not in stored]
    if rest:
        recorder.save_matches(rest)
    return stored


class Writer:
    """Stores whole played matches a batch per transaction, in the order given, and counts
    them in their plans' reports once stored."""

    def __init__(self, recorder: Recorder, reports: Sequence[Report]) -> None:
        self.recorder = recorder
        self.reports = reports
        self.batch: list[tuple[int, Played]] = []
        self.events = 0

    def add(self, which: int, match: Played) -> None:
        self.batch.append((which, match))
        self.events += match.events
        if len(self.batch) >= BATCH_MATCHES or self.events >= BATCH_EVENTS:
            self.flush()

    def flush(self) -> None:
        # One transaction: every row of every match in the batch, or none.
        stored = save_unstored(self.recorder, [match for _, match in self.batch])
        for which, match in self.batch:
            if match.rows.originator_id in stored:
                self.reports[which].already += 1
            else:
                self.reports[which].count(match)
        self.batch.clear()
        self.events = 0


Job = tuple[int, int]  # which plan, and the number of one of its matches


class Run(NamedTuple):
    """What one call of simulate_all plays: its plans, and every (plan, match number) whose
    match is not stored yet."""

    plans: Sequence[Plan]
    jobs: list[Job]

    def play(self, jobs: Sequence[Job], mapper: Mapper) -> list[Played]:
        return [
            played(self.plans[which], number, mapper, match_id(self.plans[which], number))
            for which, number in jobs
        ]


def check_workers(workers: int | None) -> None:
    """--workers as a person gives it: 1 to one per core (more processes than cores only take
    turns on them, and each holds its matches in memory)."""
    if workers is not None and workers < 1:
        raise SimulationError(f"--workers must be 1 or more, got {workers}")
    if workers is not None and workers > cores():
        raise SimulationError(
            f"--workers must be at most {cores()}, the cores of this machine, got {workers}"
        )


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _worker_count(jobs: int, workers: int | None) -> int:
    """Both cores by default; in-process when the run is too small to repay starting workers."""
    if workers is not None and workers < 1:
        check_workers(workers)  # refused, in its words; more than the cores is the caller's
    if workers is None:
        workers = 1 if jobs < 4 * cores() else cores()
    return max(1, min(workers, jobs))


@contextlib.contextmanager
def _played(
    run: Run, mapper: Mapper, workers: int, stop: Callable[[], bool]
) -> Iterator[Iterator[tuple[int, Played]]]:
    """Every job's match, played, in job order, until all are played or `stop()`."""
    if workers == 1:
        yield (
            (job[0], match) for job in _until(run.jobs, stop) for match in run.play([job], mapper)
        )
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, _init_worker, (run, mapper))
    try:
        yield _results(pool.imap(_play_in_worker, _tasks(run.jobs, workers)), stop)
    finally:
        pool.terminate()
        pool.join()


def _tasks(jobs: list[Job], workers: int) -> list[list[Job]]:
    """The jobs cut into tasks of consecutive jobs: fewer round trips for short matches, yet
    small enough (64 a worker) that no worker waits long for the other's last task."""
    size = max(1, min(8, len(jobs) // (workers * 64)))
    return [jobs[n : n + size] for n in range(0, len(jobs), size)]


def _until(jobs: list[Job], stop: Callable[[], bool]) -> Iterator[Job]:
    for job in jobs:
        if stop():
            return
        yield job


def _results(
    results: IMapIterator[list[tuple[int, Packed]]], stop: Callable[[], bool]
) -> Iterator[tuple[int, Played]]:
    """The workers' matches in order."""
    for task in polled(results, stop):
        for which, wire in task:
            yield which, unpacked(wire)


def polled(results: IMapIterator[T], stop: Callable[[], bool]) -> Iterator[T]:
    """A pool's `imap` results in order, polled so that `stop()` (a Ctrl-C, a cancel) is seen
    within 0.1 s, even while a worker is deep in a long match."""
    while not stop():
        try:
            yield results.next(timeout=0.1)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


_WORKER: tuple[Run, Mapper] | None = None


def _init_worker(run: Run, mapper: Mapper) -> None:
    # Ctrl-C reaches the whole process group: only the main process acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER
    _WORKER = (run, mapper)


def _play_in_worker(jobs: list[Job]) -> list[tuple[int, Packed]]:
    assert _WORKER is not None
    run, mapper = _WORKER
    return [(job[0], packed(match)) for job, match in zip(jobs, run.play(jobs, mapper))]


@contextlib.contextmanager
def interrupt_flag() -> Iterator[Callable[[], bool]]:
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
