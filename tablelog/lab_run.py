"""Running a lab experiment: play its arms' matches, store them whole, report.

Every match is played in memory through the `Match` commands a person's entries go through
(each move checked by the rules and hash-chained), then stored with `Recorder.save_new`, a batch
per transaction; the experiment's row (`lab_store`) lists the stored ids after each batch. With
workers the matches are played in worker processes and arrive in job order, so which worker
played a match changes nothing (see `tablelog.lab` for the seeding).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import random
from collections.abc import Callable, Iterator
from typing import Any
from uuid import uuid4

from tablelog.domain.agents import make_agent
from tablelog.domain.bots import next_move
from tablelog.domain.games import get_rules
from tablelog.domain.match import Match, start_match
from tablelog.domain.recorder import Recorder
from tablelog.projections.traces import Trace, trace_of_match
from tablelog.simulate import move_cap

from .lab import Definition
from .lab_report import report_of
from .lab_store import LabStore

BATCH = 20  # matches stored per transaction
Progress = Callable[[int, int], object]  # (matches played, matches in all); returns ignored
Job = tuple[int, int]  # arm index, match number


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
    recorder: Recorder, definition: Definition, workers: int = 1, progress: Progress | None = None
) -> tuple[str, dict[str, Any]]:
    """Play, store and report the experiment; returns its id and its report. Ctrl-C (or an
    error) stops it with the matches stored so far listed and the status "interrupted"."""
    store = LabStore(recorder)
    experiment_id = str(uuid4())
    store.create(experiment_id, definition.to_json())
    jobs = [(a, k) for a in range(len(definition.arms)) for k in range(definition.matches)]
    ids: dict[str, list[str]] = {arm.name: [] for arm in definition.arms}
    traces: list[list[Trace]] = [[] for _ in definition.arms]
    batch: list[tuple[int, Match]] = []

    def save() -> None:
        recorder.save_new([match for _, match in batch])
        for arm, match in batch:
            ids[definition.arms[arm].name].append(str(match.id))
        store.list_matches(experiment_id, ids)
        batch.clear()

    try:
        with _played(definition, jobs, workers) as played:
            for done, (arm, match, trace) in enumerate(played, start=1):
                batch.append((arm, match))
                traces[arm].append(trace)
                if len(batch) >= BATCH:
                    save()
                if progress:
                    progress(done, len(jobs))
        if batch:
            save()
    except BaseException:
        store.finish(experiment_id, "interrupted", None)
        raise
    report = report_of(definition, traces)
    store.finish(experiment_id, "done", report)
    return experiment_id, report


@contextlib.contextmanager
def _played(
    definition: Definition, jobs: list[Job], workers: int
) -> Iterator[Iterator[tuple[int, Match, Trace]]]:
    if workers <= 1 or len(jobs) < 4:
        yield ((arm, *play(definition, arm, number)) for arm, number in jobs)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(workers) as pool:
        yield pool.imap(_play_job, [(definition, arm, k) for arm, k in jobs], chunksize=1)


def _play_job(job: tuple[Definition, int, int]) -> tuple[int, Match, Trace]:
    definition, arm, number = job
    return (arm, *play(definition, arm, number))
