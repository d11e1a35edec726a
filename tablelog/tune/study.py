"""A study: created with its settings stored before any trial, run by one process, several
(`--workers`, one storage) or a Dask cluster's workers, resumed, cancelled.

Determinism: with one worker the sampler is seeded by the study's seed and every trial plays
the same numbered matches, so the same seed and arguments give the same trials. Workers each
seed their sampler seed + their number; their trials interleave as they finish.

Stopping: the study stops when `trials` candidates have been played (an invalid candidate, cut
before any match, does not count), when the search has spent `budget` matches, or when it is
cancelled (`cancel`: the study's flag, looked at after every rung; or Ctrl-C). A trial cut short
is marked failed and every finished trial is kept; `--resume ID` plays on from there.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from uuid import uuid4

from tablelog.domain.errors import Refused
from tablelog.domain.quoting import quoted

from .objective import Cancelled, directions, objective
from .settings import REDUCTION, SETTINGS, Settings
from .space import Space, base_params
from .storage import open_storage

if TYPE_CHECKING:
    import optuna
    from dask.distributed import Client

INVALID_LIMIT = 10  # invalid candidates allowed per trial asked for, before the study gives up


class StudyError(Refused):
    """A study that cannot be found or run (the message says what)."""


def sampler(settings: Settings, worker: int = 0) -> optuna.samplers.BaseSampler:
    import optuna

    seed = settings.seed + worker
    if settings.also:
        population = max(4, min(20, settings.trials // 3))
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=population)
    return optuna.samplers.TPESampler(
        seed=seed, n_startup_trials=min(10, max(3, settings.trials // 4)), constant_liar=True
    )


def pruner(settings: Settings) -> optuna.pruners.BasePruner:
    import optuna

    return optuna.pruners.SuccessiveHalvingPruner(
        min_resource=settings.rungs[0], reduction_factor=REDUCTION, min_early_stopping_rate=0
    )


def create(url: str, settings: Settings) -> str:
    """A new study with its settings stored, the base variant queued as its first trial."""
    import optuna

    name = f"{settings.game}-{uuid4().hex[:8]}"
    study = optuna.create_study(
        storage=open_storage(url), study_name=name, directions=directions(settings)
    )
    study.set_user_attr(SETTINGS, settings.to_json())
    study.set_user_attr("spent_seeds", [])
    study.set_user_attr("state", "created")
    base = base_params(Space.from_json(settings.space))
    if base is not None:
        study.enqueue_trial(base, user_attrs={"base": True})
    return name


def load(url: str, name: str, worker: int = 0) -> tuple[optuna.Study, Settings]:
    import optuna

    storage = open_storage(url)
    try:
        study = optuna.load_study(study_name=name, storage=storage)
    except KeyError:
        raise StudyError(f"no study {quoted(name)} in this store (tablelog tune list)") from None
    if SETTINGS not in study.user_attrs:  # between Optuna's create_study and our first write
        raise StudyError(f"study {quoted(name)} is still being set up: try again in a moment")
    settings = Settings.from_json(study.user_attrs[SETTINGS])
    study = optuna.load_study(
        study_name=name, storage=storage, sampler=sampler(settings, worker), pruner=pruner(settings)
    )
    return study, settings


def counted(study: optuna.Study) -> tuple[int, int, int]:
    """(candidates played to the end or cut by the pruner, invalid ones, matches spent)."""
    from optuna.trial import TrialState

    played = invalid = matches = 0
    for trial in study.get_trials(deepcopy=False):
        matches += trial.user_attrs.get("matches", 0)
        if trial.state in (TrialState.COMPLETE, TrialState.PRUNED):
            if "invalid" in trial.user_attrs:
                invalid += 1
            else:
                played += 1
    return played, invalid, matches


def finished(study: optuna.Study, settings: Settings) -> bool:
    played, invalid, matches = counted(study)
    return (
        played >= settings.trials
        or invalid >= INVALID_LIMIT * settings.trials
        or (settings.budget is not None and matches >= settings.budget)
        or study.user_attrs.get("cancel", False)
    )


def optimize(url: str, name: str, worker: int, stop: Callable[[], bool], done: Callable) -> None:
    """Play trials until the study is finished (see the module notes)."""
    study, settings = load(url, name, worker)

    def look(study: optuna.Study, trial: optuna.trial.FrozenTrial) -> None:
        done()
        if finished(study, settings) or stop():
            study.stop()

    if not finished(study, settings):
        study.optimize(objective(settings, stop), callbacks=[look], gc_after_trial=False)


def cancel(url: str, name: str) -> None:
    study, _ = load(url, name)
    study.set_user_attr("cancel", True)


def cancelled(url: str, name: str) -> Callable[[], bool]:
    """Whether the study was cancelled, read from its storage at most once a second."""
    study, _ = load(url, name)
    storage, study_id = study._storage, study._study_id
    seen = {"at": 0.0, "cancel": False}

    def look() -> bool:
        if time.monotonic() - seen["at"] >= 1.0:
            seen["at"] = time.monotonic()
            seen["cancel"] = bool(storage.get_study_user_attrs(study_id).get("cancel"))
        return bool(seen["cancel"])

    return look


def mark_interrupted(url: str, name: str) -> int:
    """Trials left running by a process that was killed: marked failed (their matches are not
    counted); the number marked."""
    from optuna.trial import TrialState

    study, _ = load(url, name)
    running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    for trial in running:
        study._storage.set_trial_state_values(trial._trial_id, TrialState.FAIL)
    return len(running)


def run(
    url: str,
    name: str,
    workers: int = 1,
    cluster: Client | None = None,
    progress: Callable[[int], object] = lambda played: None,
) -> None:
    """Run the study to its end here, in `workers` processes, or on a Dask cluster."""
    study, _ = load(url, name)
    study.set_user_attr("state", "running")
    stop = cancelled(url, name)
    try:
        if cluster is not None:
            _on_cluster(url, name, cluster, stop, progress)
        elif workers > 1:
            _in_processes(url, name, workers, stop, progress)
        else:
            optimize(url, name, 0, stop, lambda: progress(counted(study)[0]))
    except KeyboardInterrupt:
        study.set_user_attr("state", "cancelled")
        raise
    except Cancelled:
        pass  # `tablelog tune cancel`: the trial in hand is marked failed, the rest kept
    # The flag as stored now, not `stop`'s last look (up to a second old): a cancel that the
    # end-of-trial check saw (`finished`) before `stop` looked again is still a cancel, never a
    # "searched" study whose confirmation would then be cut short.
    asked = bool(study.user_attrs.get("cancel"))
    study.set_user_attr("state", "cancelled" if asked else "searched")


def _worker(url: str, name: str, worker: int) -> None:
    never = cancelled(url, name)
    try:
        optimize(url, name, worker, never, lambda: None)
    except (KeyboardInterrupt, Cancelled):
        pass  # the study keeps every finished trial


def _in_processes(url: str, name: str, workers: int, stop: Callable, progress: Callable) -> None:
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_worker, args=(url, name, n)) for n in range(workers)]
    for process in processes:
        process.start()
    study, _ = load(url, name)
    try:
        while any(p.is_alive() for p in processes):
            progress(counted(study)[0])
            time.sleep(1.0)
    finally:
        for process in processes:
            process.join()
    progress(counted(study)[0])


def _on_cluster(url: str, name: str, client: Client, stop: Callable, progress: Callable) -> None:
    threads = max(1, sum(client.nthreads().values()))
    futures = [client.submit(_worker, url, name, n, pure=False) for n in range(threads)]
    study, _ = load(url, name)
    while not all(f.done() for f in futures):
        progress(counted(study)[0])
        time.sleep(0.5)
    for future in futures:
        future.result()  # a worker's error, said here
    progress(counted(study)[0])
