"""`simulate` on a Dask cluster: a real LocalCluster of two worker processes on this machine,
recording into a real SQLite file (the client writes) and a real PostgreSQL database (the
workers write). The same seeds must give the same matches as a run on this machine."""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from distributed import Client, LocalCluster

from tablelog.domain.games import GAMES
from tablelog.domain.matches.records import from_record
from tablelog.simulation import make_plan, match_id, simulate_all
from tablelog.simulation.cluster import Cluster, play_task
from tablelog.simulation.run import Run
from tablelog.store import open_recorder

from .simulation.helpers import exports, run, without_ids_and_times


@pytest.fixture(scope="module")
def scheduler():
    """The address of a LocalCluster of 2 worker processes, one thread each."""
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},  # its HTTP server: a free port
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def on_cluster(scheduler):
    """Connect a client to the module's cluster, recording into a given store."""
    clients = []

    def connect(store: str) -> Cluster:
        clients.append(Client(scheduler, timeout="30s"))
        return Cluster(clients[-1], store)

    yield connect
    for client in clients:
        client.close()


def study():
    """Two plans in one run: greedy against random in Topitop, three random Topiary seats."""
    return [
        make_plan("topitop", 10, seed=11, bots="greedy,random"),
        make_plan("topiary", 6, seed=12, players=3),
    ]


def records(store: str) -> list[dict]:
    return [without_ids_and_times(record) for record in exports(store)]


def simulated(store: str, workers: int | None = None, cluster: Cluster | None = None):
    recorder = open_recorder(store)
    try:
        return simulate_all(recorder, study(), workers=workers, progress=False, cluster=cluster)
    finally:
        recorder.close()


def test_the_cluster_stores_the_same_matches_as_one_process_in_sqlite(tmp_path, on_cluster):
    stores = {name: str(tmp_path / f"{name}.sqlite") for name in ("one", "two", "cluster")}
    simulated(stores["one"], workers=1)
    simulated(stores["two"], workers=2)
    reports = simulated(stores["cluster"], cluster=on_cluster(stores["cluster"]))
    one, two, cluster = (records(store) for store in stores.values())
    assert len(one) == 16
    # The client writes an SQLite store: in match order, like a run on this machine.
    assert cluster == one == two
    assert [report.matches for report in reports] == [10, 6]
    assert sum(report.events for report in reports) == sum(len(r["events"]) + 1 for r in one)


def canonical(store: str) -> list[str]:
    """The store's matches, ids and clocks aside, in an order of their own (the workers of a
    cluster store their tasks as they finish)."""
    return sorted(json.dumps(record, sort_keys=True) for record in records(store))


def test_the_cluster_workers_store_the_same_matches_in_postgresql(
    tmp_path, postgres_store, on_cluster
):
    local = str(tmp_path / "one.sqlite")
    simulated(local, workers=1)
    reports = simulated(postgres_store, cluster=on_cluster(postgres_store))
    assert canonical(postgres_store) == canonical(local)
    assert [report.matches for report in reports] == [10, 6]
    wins = reports[0].wins[0]  # what the summary says the greedy seat won, from the workers
    assert wins == sum(r["events"][-1]["outcome"]["winners"] == [0] for r in exports(local)[:10])
    recorder = open_recorder(postgres_store)
    try:  # every match stored by a worker replays through the rules to what was stored
        for record in exports(postgres_store):
            assert from_record(record).states == recorder.get(record["id"]).states
    finally:
        recorder.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_run_again_on_the_cluster_plays_only_what_is_missing(tmp_path, kind, request, on_cluster):
    store = (
        str(tmp_path / "store.sqlite")
        if kind == "sqlite"
        else request.getfixturevalue("postgres_store")
    )
    recorder = open_recorder(store)
    try:  # a run cut short: the first 4 of the study's 10 Topitop matches are stored
        simulate_all(recorder, [make_plan("topitop", 4, seed=11, bots="greedy,random")], 1, False)
    finally:
        recorder.close()
    reports = simulated(store, cluster=on_cluster(store))
    assert [(r.already, r.matches) for r in reports] == [(4, 6), (0, 6)]
    one = str(tmp_path / "one.sqlite")
    simulated(one, workers=1)
    assert canonical(store) == canonical(one)  # exactly the study's 16 matches, once each


def stored_matches(store: str) -> int:
    with psycopg.connect(store) as db:
        (count,) = db.execute(
            "SELECT count(*) FROM tablelog_events WHERE topic LIKE '%Started'"
        ).fetchall()
        return count[0]


def test_a_task_run_again_after_its_commit_stores_nothing_twice(postgres_store):
    # Dask runs a task again when its worker is lost; if that worker had committed, the match
    # ids (derived from the run's arguments and the match numbers) are found stored and
    # counted once.
    open_recorder(postgres_store).close()
    plan = make_plan("topitop", 6, seed=3)
    plays = Run([plan], [])
    jobs = [(0, number) for number in range(4)]
    first = play_task(plays, jobs, postgres_store, True)
    again = play_task(plays, jobs, postgres_store, True)
    assert again == first and [tally.events for tally in first] == [
        len(record["events"]) + 1 for record in exports(postgres_store)
    ]
    assert stored_matches(postgres_store) == 4
    ids = {record["id"] for record in exports(postgres_store)}
    assert ids == {str(match_id(plan, number)) for number in range(4)}
    # A task that overlaps what is stored (another run of the same arguments cut its tasks
    # otherwise) stores only its new matches.
    play_task(plays, [(0, number) for number in range(2, 6)], postgres_store, True)
    assert stored_matches(postgres_store) == 6
    other = Run([make_plan("topitop", 4, seed=4)], [])  # another seed: other matches
    play_task(other, jobs, postgres_store, True)
    assert stored_matches(postgres_store) == 10


@pytest.mark.parametrize("game", list(GAMES))
def test_a_packed_match_unpacks_to_the_same_rows(tmp_path, game):
    recorder = open_recorder(str(tmp_path / "store.sqlite"))
    plays = Run([make_plan(game, 2, seed=4)], [])
    for match in plays.play([(0, 0), (0, 1)], recorder.mapper):
        from tablelog.simulation.playing import packed, unpacked

        assert unpacked(packed(match)) == match
    recorder.close()


@pytest.mark.slow
def test_the_command_on_a_local_cluster_stores_what_one_process_stores(tmp_path):
    args = ["simulate", "topas", "-n", "12", "--seed", "9", "--bots", "greedy,random"]
    cluster, one = str(tmp_path / "cluster.sqlite"), str(tmp_path / "one.sqlite")
    result = run(cluster, *args, "--cluster", "local", "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("stored 12 topas matches")
    assert run(one, *args, "--workers", "1").returncode == 0
    assert records(cluster) == records(one)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--cluster", "lab-1:8786"], "--cluster takes 'local' or a scheduler address"),
        (["--cluster", "tcp://lab-1:8786"], "a remote cluster needs a PostgreSQL store"),
        (["--cluster", "local", "--workers", "0"], "--workers must be 1 or more"),
    ],
)
def test_a_cluster_the_store_cannot_use_is_refused_before_the_store_is_made(tmp_path, args, words):
    store = tmp_path / "store.sqlite"
    result = run(str(store), "simulate", "topitop", *args)
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not store.exists()


def test_workers_are_refused_for_a_remote_cluster(postgres_store):
    args = ["--cluster", "tcp://lab-1:8786", "--workers", "2"]
    result = run(postgres_store, "simulate", "topitop", *args)
    assert result.returncode == 2 and "a remote cluster plays on the workers" in result.stderr


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_and_the_store_is_untouched(postgres_store):
    result = run(postgres_store, "simulate", "topitop", "--cluster", "tcp://127.0.0.1:9")
    assert result.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr
    with psycopg.connect(postgres_store) as db:  # not even the tables were made
        assert db.execute("SELECT to_regclass('tablelog_events')").fetchall() == [(None,)]


@pytest.fixture
def lab_cluster(tmp_path):
    """A cluster started as docs/simulation.md tells a lab: `dask scheduler` and `dask worker`
    processes (here on this machine, on a free port); the scheduler's address."""
    dask = str(Path(sys.executable).with_name("dask"))  # the command pip installed beside us
    found = tmp_path / "scheduler.json"
    started = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
            + ["--scheduler-file", str(found)],
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        deadline = time.monotonic() + 120
        while not found.exists():
            assert time.monotonic() < deadline, "the scheduler did not start in 2 minutes"
            time.sleep(0.2)
        address = json.loads(found.read_text())["address"]
        worker = [dask, "worker", address]
        started.append(
            subprocess.Popen(
                [*worker, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                stderr=subprocess.DEVNULL,
            )
        )
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.wait(timeout=60)


@pytest.mark.slow
def test_a_lab_cluster_plays_the_command_into_postgresql(tmp_path, postgres_store, lab_cluster):
    args = ["simulate", "topitop", "-n", "12", "--seed", "9", "--bots", "greedy,random"]
    result = run(postgres_store, *args, "--cluster", lab_cluster)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("stored 12 topitop matches")
    one = str(tmp_path / "one.sqlite")
    assert run(one, *args, "--workers", "1").returncode == 0
    assert canonical(postgres_store) == canonical(one)


@pytest.mark.slow
def test_ctrl_c_on_a_local_cluster_keeps_whole_matches_and_counts_them(tmp_path):
    store = tmp_path / "store.sqlite"
    command = [sys.executable, "-m", "tablelog", "simulate", "topitop", "-n", "100000"]
    command += ["--cluster", "local", "--workers", "2", "--quiet", "--store", str(store)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        while not started_in(store):  # wait for the first tasks to be stored
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "nothing was stored in 3 minutes"
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert out.startswith("interrupted: stored ") and "Traceback" not in err
    stored = exports(str(store))
    assert 0 < len(stored) == int(out.split()[2]) == started_in(store) < 100000
    for record in stored:  # every stored match is ended and replays through the rules
        assert record["events"][-1]["type"] == "end"
        assert from_record(record).status == "ended"


def started_in(store: Path) -> int:
    """Matches begun in an SQLite store (0 while it is not made yet)."""
    if not store.exists() or not store.stat().st_size:
        return 0
    try:
        with contextlib.closing(sqlite3.connect(store, timeout=10)) as db:
            (count,) = db.execute(
                "SELECT count(*) FROM stored_events WHERE topic LIKE '%Started'"
            ).fetchall()
            return count[0]
    except sqlite3.OperationalError:  # its tables are not made yet
        return 0
