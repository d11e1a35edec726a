"""A recorder on a shared PostgreSQL server holds one or two connections while idle (its pool
keeps one, and may have opened a second while the first was still connecting), and grows its
pool only with requests at once: a club's server (100 connections by default) has
room for many commands and dashboards."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tablelog.store import open_recorder
from tests.conftest import _pg_admin


def connections(store: str) -> int:
    name = store.rsplit("/", 1)[1]
    with _pg_admin() as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_an_idle_recorder_holds_two_connections_at_most_and_a_busy_one_more(postgres_store):
    recorder = open_recorder(postgres_store)
    try:
        match_id = recorder.start("topitop", ["Ann", "Ben"])
        recorder.get(match_id)
        assert connections(postgres_store) <= 2  # the library's own pool kept 6
        with ThreadPoolExecutor(4) as threads:  # four requests at once, as a served app's
            assert all(threads.map(lambda _: recorder.get(match_id), range(40)))
        assert 1 <= connections(postgres_store) <= 11
    finally:
        recorder.close()
