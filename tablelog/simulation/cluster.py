"""Simulation on a Dask cluster: `tablelog simulate ... --cluster tcp://HOST:8786 | local`.

The client cuts the run into tasks of consecutive matches and keeps a few tasks per worker
thread in flight, so no worker waits for the client and a million-match run holds only a window
of results in memory. A task plays its matches exactly as `--workers` does (same generators,
same rules checks, same hash chain), so the same seed gives the same matches on a cluster as
on one machine.

Where the rows go depends on the store:
- PostgreSQL: each task stores its own matches, one transaction per task, and returns only what
  the run's summary counts. The store takes the writes of every worker; nothing crosses the
  network twice. Match ids derive from the run's arguments and the match numbers
  (plan.match_id), so a task that Dask runs again (its worker was lost after the commit)
  finds its matches stored and stores nothing twice. Matches are stored a task at a time, as
  tasks finish.
- SQLite (local cluster only): the file is written by the client alone; tasks return the mapped
  rows (packed) and the client stores them in match order, as `--workers` does.

Ctrl-C: no new task is started. On SQLite the tasks in flight are cancelled (they wrote
nothing); on PostgreSQL they are waited for, as they may be writing, and counted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from tablelog.domain.recording.recorder import Recorder
from tablelog.store import is_postgres, open_recorder

from .plan import SimulationError
from .playing import Tally, packed, unpacked
from .run import Job, Report, Run, Writer, cores, save_unstored

if TYPE_CHECKING:
    from distributed import Client

LOCAL = "local"
ADDRESS = re.compile(r"^(tcp|tls|ws|wss)://[^\s/]+:\d+/?$")
CONNECT_TIMEOUT = "10s"
WINDOW = 4  # tasks in flight per worker thread
TASK_MATCHES = 25  # at most, in one task (one transaction on PostgreSQL)
POLL = 0.02  # seconds between looks at the oldest task in flight


def check_cluster(cluster: str, store: str, workers: int | None) -> None:
    """A one-line SimulationError for a cluster address or store the run cannot use."""
    if cluster == LOCAL:
        return
    if not ADDRESS.match(cluster):
        raise SimulationError(
            f"--cluster takes 'local' or a scheduler address such as tcp://lab-1:8786, "
            f"not {cluster!r}"
        )
    if workers is not None:
        raise SimulationError(
            "--workers is for this machine (alone or with --cluster local); a remote cluster "
            "plays on the workers it was started with"
        )
    if not is_postgres(store):
        raise SimulationError(
            "a remote cluster needs a PostgreSQL store its workers can reach "
            "(--store postgresql://...); an SQLite store is written by one process on this "
            "machine: use --cluster local"
        )


@dataclasses.dataclass
class Cluster:
    """A connected Dask client and the store (location) the run records into."""

    client: Client
    store: str

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def play(
        self,
        run: Run,
        recorder: Recorder,
        reports: Sequence[Report],
        done: Callable[[int], object],
        stop: Callable[[], bool],
    ) -> None:
        """Play and store every job of the run on the cluster, counting what was stored in
        `reports` and calling `done(matches)` as tasks finish, until all are done or `stop()`."""
        writes = is_postgres(self.store)  # else the client writes, into SQLite
        writer = Writer(recorder, reports)
        size = max(1, min(TASK_MATCHES, len(run.jobs) // (self.threads() * 8)))
        tasks = [run.jobs[n : n + size] for n in range(0, len(run.jobs), size)]
        for jobs, results in self._in_order(run, tasks, writes, stop):
            for (which, _), result in zip(jobs, results):
                if writes:
                    reports[which].count(result)
                else:
                    writer.add(which, unpacked(result))
            done(len(jobs))
        writer.flush()

    def _in_order(
        self, run: Run, tasks: list[list[Job]], writes: bool, stop: Callable[[], bool]
    ) -> Iterator[tuple[list[Job], list[Any]]]:
        """Each task's results in task order; a window of tasks is kept in flight."""
        plays = run._replace(jobs=[])  # what a task needs of the run: not every job
        waiting = iter(tasks)
        flight: deque[tuple[list[Job], Any]] = deque()
        window = WINDOW * self.threads()
        while True:
            while len(flight) < window and not stop() and (jobs := next(waiting, None)):
                future = self.client.submit(play_task, plays, jobs, self.store, writes, pure=False)
                flight.append((jobs, future))
            if not flight:
                return
            if stop() and not writes:
                self.client.cancel([future for _, future in flight])
                return
            jobs, future = flight[0]
            if not future.done():
                # Polled, so that a Ctrl-C is seen at once (not result(timeout=...): in
                # distributed 2026.8 a timeout that races the answer can lose the answer).
                time.sleep(POLL)
                continue
            flight.popleft()
            yield jobs, future.result()


@contextlib.contextmanager
def connect(cluster: str, store: str, workers: int | None = None) -> Iterator[Cluster]:
    """A client of the scheduler at `cluster`, or of a LocalCluster of `workers` processes
    (one per core by default) started here and closed on leaving."""
    from distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if cluster == LOCAL:
            with _sigint_ignored():  # the workers inherit it: Ctrl-C is the client's to handle
                local = LocalCluster(
                    n_workers=workers or cores(),
                    threads_per_worker=1,  # the rules engines are Python: one thread a process
                    processes=True,
                    dashboard_address=None,
                    scheduler_kwargs={"dashboard_address": ":0"},  # its HTTP server: a free port
                    silence_logs=logging.ERROR,
                )
            stack.enter_context(local)
            client = Client(local)
        else:
            try:
                client = Client(cluster, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as err:
                raise SimulationError(
                    f"cannot reach the Dask scheduler at {cluster}: {err}"
                ) from None
        stack.enter_context(client)
        yield Cluster(client, store)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to set
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# ---- on a worker ---------------------------------------------------------------------------


def play_task(run: Run, jobs: list[Job], store: str, write: bool) -> list[Any]:
    """Play `jobs` of the run on a worker. With `write` (a PostgreSQL store) store them in one
    transaction and return a Tally each; otherwise return them packed for the client."""
    recorder = _recorder(store)  # its mapper is the store's own
    matches = run.play(jobs, recorder.mapper)
    if not write:
        return [packed(match) for match in matches]
    # Those already there were stored by an earlier run of this task (its worker was lost
    # before it could answer) or of the same arguments at the same time: counted, not stored.
    save_unstored(recorder, matches)
    return [Tally(match.events, match.winners, match.capped) for match in matches]


@cache
def _recorder(store: str) -> Recorder:
    """One recorder per worker process and store, kept between tasks."""
    return open_recorder(store)
