"""Simulated matches: seeded bots play whole matches through the recorder's own commands.

Every match is built in memory as a `Match` through the command methods a person's entries go
through (`start_match`, `record`, `end`), so each move is validated by the rules and chained by
hash exactly as if it had been typed; then many finished matches are stored per transaction.

Determinism: match number k of a run with seed s draws everything random (the deal, every bot's
decision) from its own generator seeded by (s, k), so which worker plays it, and when, changes
nothing; matches are stored in match-number order. Its id is a function of the run's arguments
and k (`match_id`): the same run is the same matches, so running a command again (after a
Ctrl-C, a kill, a lost machine) finds the matches already stored (`simulate_stored`) and plays
and stores only the others.

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
import functools
import json
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, cast
from uuid import UUID, uuid4, uuid5

from eventsourcing.persistence import IntegrityError, Mapper

from tablelog.domain.agents.bots import BOTS, next_move
from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules
from tablelog.domain.matches.match import Match, start_match
from tablelog.domain.quoting import quoted
from tablelog.domain.recording.eventsourcing_internals import MappedMatch
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.wording import player_count_refusal
from tablelog.simulate_stored import stored_among


class Cluster(Protocol):
    """What a run asks of a cluster (`tablelog.simulate_cluster.Cluster`, which builds on this
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


# Every game ends by its rules, except where bots can go round in circles: Topitop declares its
# cap (`playout_cap`, 200 actions); any other game still running after RUNAWAY moves is also
# ended as a draw by agreement, and the run's summary counts such matches.
RUNAWAY = 2_000
# Matches are stored a batch per transaction: a batch closes at this many events (or matches).
BATCH_EVENTS = 5_000
BATCH_MATCHES = 200
# The most matches one run plays: its job list and id checks are held in memory (about 100 MB
# a million); a larger study is several runs with different seeds.
MAX_MATCHES = 1_000_000
# Simulated matches' ids are uuid5 names in this space (see `match_id`).
SIMULATED = UUID("6a0d3a52-7a3c-5d1e-9b8e-74626c6c6f67")


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
    # A manifest handed over whole ({"name", "content"}: a tuner's candidate board, a file), in
    # place of the one `options` names; `options["manifest"]` is then its `sha256:` reference.
    components: Mapping[str, Any] | None = None

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def seats(self) -> list[str]:
        """Seat names say which bot plays where: "greedy-1", "random-2"..."""
        return [f"{bot}-{number}" for number, bot in enumerate(self.bots, start=1)]

    @functools.cached_property
    def id_space(self) -> UUID:
        """What names the plan's matches: its game, seed, bots (so the player count) and
        options (defaults filled in by `make_plan`), not how many matches it plays: match k is
        the same match whatever -n is."""
        what = {"game": self.game, "seed": self.seed, "bots": self.bots, "options": self.options}
        # options["manifest"] is the content's hash when components are handed over
        return uuid5(SIMULATED, json.dumps(what, sort_keys=True, default=str))


def make_plan(
    game: str,
    matches: int,
    seed: int,
    players: int | None = None,
    bots: str | Sequence[str] = "random",
    options: Mapping[str, Any] | None = None,
    components: Mapping[str, Any] | None = None,
) -> Plan:
    """A checked Plan, or a one-line Refused/InvalidSetup naming what is wrong.

    `bots` is one bot for every seat or one per seat ("greedy,random"); `players` defaults to
    the number of bots given per seat, else 2 (or the game's only count). `components` is a
    manifest handed over whole ({"name", "content"}), played in place of a named one."""
    rules = get_rules(game)
    if not 1 <= matches <= MAX_MATCHES:
        raise SimulationError(
            f"-n, the number of matches, must be 1 to {MAX_MATCHES:,} (a larger study is several "
            f"runs with different seeds), got {matches}"
        )
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    unknown = [b for b in names if b not in BOTS]
    if unknown or not names:
        raise SimulationError(
            f"unknown bot {quoted((unknown or [''])[0])}; bots: {', '.join(BOTS)}"
        )
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
    options = dict(options or {})
    if components is not None:
        options["manifest"] = handed_over(components)
    return Plan(game, matches, seed, tuple(names), rules.options(options), components)


def handed_over(components: Mapping[str, Any]) -> str:
    """The `sha256:` reference of a manifest handed over whole, made known in this process (a
    worker's too: every match registers it again, which costs a dictionary look-up)."""
    from tablelog.domain.games.manifests import embed, register

    return register(embed(components["name"], components["content"]))


def match_rng(seed: int, number: int) -> random.Random:
    """The generator of match `number` of the run seeded `seed` (string seeds hash the same in
    every process, unlike hash())."""
    return random.Random(f"tablelog-simulate:{seed}:{number}")


def move_cap(game: str) -> int:
    """How many moves a simulated match of `game` may take before it is drawn by agreement."""
    return get_rules(game).playout_cap or RUNAWAY


def match_id(plan: Plan, number: int) -> UUID:
    """The id of match `number` of the plan: the same in whichever process plays it and in
    every run of the same arguments, so a match stored once (by a run cut short, or by a
    cluster's task that Dask ran again) is recognised in the store, never stored twice."""
    return uuid5(plan.id_space, str(number))


def begin_match(plan: Plan, number: int, id: UUID | None = None) -> tuple[Match, random.Random]:
    """Match `number` of the plan, dealt and started in memory, and its generator."""
    rules = get_rules(plan.game)
    rng = match_rng(plan.seed, number)
    options, components = dict(plan.options), plan.components
    if components is not None:
        handed_over(components)  # a worker process learns the content from the plan
        options["manifest"] = components["name"]  # as `tablelog new --manifest-file` stores it
    setup = rules.deal(plan.players, plan.options, rng)  # the whole deal goes into Started
    match = start_match(id or uuid4(), plan.game, plan.seats, options, setup, components=components)
    return match, rng


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


def play_match(plan: Plan, number: int, id: UUID | None = None) -> Match:
    """Match `number` of the plan, played to its end and ended, in memory (nothing stored)."""
    match, rng = begin_match(plan, number, id)
    play_on(match, plan, rng, move_cap(plan.game))
    match.end(agreed_draw=match.rules_outcome() is None)  # at the cap: a draw by agreement
    return match


class Played(NamedTuple):
    """A finished match: its rows, ready to insert, and its result."""

    rows: MappedMatch
    winners: tuple[int, ...]
    capped: bool

    @property
    def events(self) -> int:
        return len(self.rows.topics)


class Tally(NamedTuple):
    """What a run counts of a match stored by someone else (a cluster's worker)."""

    events: int
    winners: tuple[int, ...]
    capped: bool


# A played match as it crosses between processes: its id's bytes, first version, topics and
# states. Pickling plain bytes and strings costs a fraction of pickling StoredEvents and UUIDs
# (measured: 4x less CPU at both ends), which a run with workers pays for every event.
Packed = tuple[bytes, int, list[str], list[bytes], tuple[int, ...], bool]


def packed(match: Played) -> Packed:
    id, version, topics, states = match.rows
    assert isinstance(id, UUID)  # the mapper's rows carry the aggregate's own UUID
    return id.bytes, version, topics, states, *match[1:]


def unpacked(wire: Packed) -> Played:
    id_bytes, version, topics, states, winners, capped = wire
    return Played(MappedMatch(UUID(bytes=id_bytes), version, topics, states), winners, capped)


def played(plan: Plan, number: int, mapper: Mapper, id: UUID | None = None) -> Played:
    match = play_match(plan, number, id)
    rows = MappedMatch.of([mapper.to_stored_event(event) for event in match.collect_events()])
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
    Dask `cluster`, tablelog.simulate_cluster) and one progress bar (`progress` may be the
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


def _results(results: Any, stop: Callable[[], bool]) -> Iterator[tuple[int, Played]]:
    """The workers' matches in order."""
    for task in polled(results, stop):
        for which, wire in task:
            yield which, unpacked(wire)


def polled(results: Any, stop: Callable[[], bool]) -> Iterator[Any]:
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
