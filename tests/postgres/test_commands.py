"""The commands a club runs against a shared PostgreSQL database, as real processes: import,
simulation, the demo, a clean audit, and the statistics over the projection tables."""

from __future__ import annotations

import json

import pytest

from tablelog.domain.games import GAMES
from tests.audit.test_command import clean_store
from tests.conftest import stored_rows
from tests.simulation.helpers import exports, without_ids_and_times
from tests.simulation.helpers import run as run_quietly
from tests.test_cli import run
from tests.test_recorder import OPENING, WIN


def test_import_a_sqlite_store_export_into_postgresql(store, postgres_store):
    ids = []
    for moves in (WIN, OPENING):
        ids.append(run(store, "new", "topitop", "--players", "Ann,Ben").stdout.strip())
        for seat, move in moves:
            assert run(store, "move", ids[-1], "--seat", seat, json.dumps(move)).returncode == 0
    assert run(store, "end", ids[0]).returncode == 0
    exported = run(store, "export", "--all").stdout

    result = run(postgres_store, "import", "-", stdin=exported)
    assert result.returncode == 0, result.stderr
    assert "imported 2 matches" in result.stdout
    exported_again = run(postgres_store, "export", "--all").stdout
    imported = [json.loads(line) for line in exported_again.splitlines() if line]
    originals = [json.loads(line) for line in exported.splitlines() if line]
    assert [r["id"] for r in imported] == ids
    assert imported == originals  # the same records: ids, times and hashes
    rows = stored_rows(postgres_store)
    again = run(postgres_store, "import", "-", stdin=exported)  # nothing stored twice
    assert again.stdout.strip() == "imported 0 matches; 2 already in this store, skipped"
    assert stored_rows(postgres_store) == rows
    listed = json.loads(run(postgres_store, "list", "--json").stdout)
    assert [(m["id"], m["status"]) for m in listed] == [(ids[0], "ended"), (ids[1], "running")]


def test_simulate_into_postgresql_stores_what_it_stores_on_sqlite(store, postgres_store):
    args = [
        "simulate",
        "topiary",
        "-n",
        "12",
        "--seed",
        "5",
        "--players",
        "3",
        "--bots",
        "greedy,random,random",
        "--workers",
        "2",
    ]
    for location in (store, postgres_store):
        done = run_quietly(location, *args)
        assert done.returncode == 0, done.stderr
    on_sqlite, on_postgres = exports(store), exports(postgres_store)
    assert len(on_postgres) == 12
    assert [without_ids_and_times(r) for r in on_postgres] == [
        without_ids_and_times(r) for r in on_sqlite
    ]
    report = json.loads(run(postgres_store, "stats", "--json").stdout)
    assert report["topiary"]["matches"] == 12
    assert sum(s["wins"] for s in report["topiary"]["seats"]) >= 12 - report["topiary"]["draws"]


@pytest.mark.slow
def test_the_demo_builds_on_postgresql(postgres_store):
    done = run_quietly(postgres_store, "demo")
    assert done.returncode == 0, done.stderr
    records = exports(postgres_store)
    assert 200 <= len(records) <= 600
    assert {r["game"] for r in records} == set(GAMES)  # every registered game (Nim in tests)


def test_a_clean_postgresql_store_audits_clean_with_exit_0(postgres_store):
    clean_store(postgres_store)
    result = run(postgres_store, "audit", "--all")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("CLEAN: the log is intact") == 4
    assert result.stdout.rstrip().endswith("4 matches audited: 4 clean")
