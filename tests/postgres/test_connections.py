"""A recorder on a shared PostgreSQL server keeps one or two connections while idle (its pool
keeps one, and may have opened a second while the first was still connecting), and grows its
pool only with requests at once: a club's server (100 connections by default) has room for many
commands and dashboards. Counted by the pool itself: the server lists a closed connection for a
moment after it closed, so its own count would depend on timing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from psycopg_pool import ConnectionPool

from tablelog.domain.recording.eventsourcing_internals import connections_of
from tablelog.store import open_recorder


def kept(recorder) -> int:
    """The connections the recorder's pool holds open now."""
    pool = connections_of(recorder).datastore.pool
    assert isinstance(pool, ConnectionPool)  # a PostgreSQL store's
    return pool.get_stats()["pool_size"]


def test_an_idle_recorder_keeps_two_connections_at_most_and_a_busy_one_more(postgres_store):
    recorder = open_recorder(postgres_store)
    try:
        match_id = recorder.start("topitop", ["Ann", "Ben"])
        recorder.get(match_id)
        assert kept(recorder) <= 2  # with the library's own pool size it kept 6
        with ThreadPoolExecutor(4) as threads:  # four requests at once, as a served app's
            assert all(threads.map(lambda _: recorder.get(match_id), range(40)))
        assert 1 <= kept(recorder) <= 11
    finally:
        recorder.close()
