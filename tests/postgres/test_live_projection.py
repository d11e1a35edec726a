"""The projection tables on PostgreSQL kept by eventsourcing's ProjectionRunner (`follow`): the
same tables as one catch-up over the whole log, a restart that resumes, batched writes, and
several dashboards and commands keeping the one set of tables at once."""

from __future__ import annotations

import contextlib
import math
import os
import random
import subprocess
import sys
import threading

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from tablelog.projections.postgres import LiveTables, PostgresTablesView, follow
from tablelog.projections.runner import TablesProjection, open_view
from tablelog.store import open_recorder
from tests.projections.test_projection import assert_same_tables, snapshot, some_matches
from tests.test_recorder import OPENING, WIN, play


def caught_up(runner, recorder):
    runner.wait(recorder.recorder.max_notification_id(), timeout=120)


def rebuilt(location):
    """The tables projected again from the first event, in one catch-up."""
    projection = TablesProjection(open_recorder(location))
    projection.reset()
    projection.catch_up()
    return snapshot(projection)


def covered(writes, start: int) -> list[int]:
    """The positions the writes covered, in order: each write takes up where the one before
    ended (its `since`), beginning at `start`; how many events each write held is left to the
    runner's timing."""
    positions: list[int] = []
    at = start
    for since, position in writes:
        assert since == at and position > at, f"a write from {since} to {position} after {at}"
        positions += range(at + 1, position + 1)
        at = position
    return positions


@pytest.fixture
def writes(monkeypatch):
    """(since, position) of every write of the tables, by any view in this process."""
    seen = []
    original = PostgresTablesView.write

    def counted(self, rows, tracking, since=None):
        original(self, rows, tracking, since=since)
        seen.append((since, tracking.notification_id))

    monkeypatch.setattr(PostgresTablesView, "write", counted)
    return seen


def test_the_runner_builds_as_events_arrive_what_one_catch_up_builds(postgres_store):
    recorder = open_recorder(postgres_store)
    rng = random.Random(8)
    recorder.save_new(some_matches(rng)[:4])  # some before it starts, the rest while it runs
    with follow(recorder) as runner:
        caught_up(runner, recorder)
        running = play(recorder, OPENING[:2])
        caught_up(runner, recorder)
        for seat, move in OPENING[2:]:
            recorder.record(running, seat, move)
        recorder.undo(running, "Ben", "wrong cell")
        recorder.save_new(some_matches(rng)[4:])
        recorder.record(running, "Ben", {"place": "bucket", "to": "a3"})
        recorder.dispute(running, "Ann", "who moved first?")
        finished = play(recorder, WIN)
        recorder.end(finished)
        caught_up(runner, recorder)
        live = snapshot(TablesProjection(recorder))
    assert live["matches"].set_index("match_id").loc[str(running)].status == "disputed"
    assert_same_tables(live, rebuilt(postgres_store))


def test_a_restarted_runner_resumes_from_its_position(postgres_store, writes):
    recorder = open_recorder(postgres_store)
    first = play(recorder, WIN)
    recorder.end(first)
    with follow(recorder) as runner:
        caught_up(runner, recorder)
    stopped_at = recorder.recorder.max_notification_id()
    assert writes[-1][1] == stopped_at

    second = play(recorder, WIN)  # recorded while no runner runs
    recorder.end(second)
    writes.clear()
    again = open_recorder(postgres_store)  # a new process: nothing cached
    with follow(again) as runner:
        caught_up(runner, again)
        tables = snapshot(TablesProjection(again))
    assert writes[0][0] == stopped_at  # it went on from there, not from the first event
    assert len(tables["matches"]) == 2 and len(tables["moves"]) == 2 * len(WIN)
    ann = tables["ratings"][tables["ratings"].player == "Ann"]
    assert list(ann.after_match) == [1, 2]  # rated once per match
    assert ann.mu.iloc[1] > ann.mu.iloc[0]


def test_catching_up_writes_a_batch_per_transaction_not_an_event(
    postgres_store, writes, monkeypatch
):
    recorder = open_recorder(postgres_store)
    recorder.save_new(some_matches(random.Random(3), games=("topitop", "topiary")))
    events = recorder.recorder.max_notification_id() or 0
    monkeypatch.setattr(LiveTables, "batch", 50)
    with follow(recorder) as runner:
        caught_up(runner, recorder)
        assert covered(writes, 0) == list(range(1, events + 1))  # every event once, in order
        assert all(position - since <= 50 for since, position in writes)
        assert len(writes) == math.ceil(events / 50)  # full batches: a transaction per 50
        writes.clear()
        match_id = play(recorder, OPENING[:1])  # at the head, new events are written at once
        caught_up(runner, recorder)
        # Both new events (start and move) are covered, in order, in one batch or two.
        assert covered(writes, events) == [events + 1, events + 2]
        assert TablesProjection(recorder).view.select("moves", {"match_id": str(match_id)})


def _projected_opening(store):
    """The opening's five events projected, the tables as they are, and a changed matches row
    for a write that must be refused."""
    recorder = open_recorder(store)
    play(recorder, OPENING)
    projection = TablesProjection(recorder)
    projection.catch_up()
    rows = {"matches": [{**projection.view.select("matches")[0], "moves": 99}]}
    return recorder, projection, snapshot(projection), rows


def test_a_batch_folded_from_an_old_position_is_refused_and_nothing_written(any_store):
    _, projection, before, rows = _projected_opening(any_store)
    with pytest.raises(IntegrityError, match="moved on to event 5"):
        projection.view.write(rows, Tracking(projection.name, 9), since=3)
    assert projection.position() == 5
    assert_same_tables(snapshot(projection), before)


def test_a_first_write_is_refused_where_a_position_is_already_stored(any_store):
    # Two processes projecting fresh tables at once: the second's first batch (from event 0)
    # must not land on the first's.
    _, projection, before, rows = _projected_opening(any_store)
    with pytest.raises(IntegrityError, match="moved on to event 5 while this batch was folded"):
        projection.view.write(rows, Tracking(projection.name, 5), since=0)
    assert projection.position() == 5
    assert_same_tables(snapshot(projection), before)


def test_a_batch_is_refused_where_the_tables_were_reset_meanwhile(any_store):
    recorder, projection, _, rows = _projected_opening(any_store)
    TablesProjection(recorder).reset()  # another process rebuilds from scratch
    with pytest.raises(IntegrityError, match="moved on to event 0 while this batch was folded"):
        projection.view.write(rows, Tracking(projection.name, 9), since=5)
    assert projection.position() == 0 and projection.view.select("matches") == []


def test_a_batch_that_would_not_advance_the_position_is_refused(any_store):
    _, projection, before, rows = _projected_opening(any_store)
    with pytest.raises(IntegrityError, match="would not advance from event 5 to 5"):
        projection.view.write(rows, Tracking(projection.name, 5), since=5)
    assert projection.position() == 5
    assert_same_tables(snapshot(projection), before)


def test_several_dashboards_and_commands_keep_one_set_of_tables_at_once(postgres_store):
    """Two runners (two dashboards), two polling catch-ups and `tablelog project` processes,
    all while matches are being recorded: the tables end as one catch-up from scratch builds
    them, every event counted once."""
    setup = open_recorder(postgres_store)
    setup.save_new(some_matches(random.Random(1)))
    stop = threading.Event()

    def record():
        writer, rng = open_recorder(postgres_store), random.Random(2)
        while not stop.is_set():
            writer.save_new(some_matches(rng, games=("topitop", "topiary"))[:2])
            play(writer, WIN)

    def poll():
        projection = TablesProjection(open_recorder(postgres_store), page=50)
        while not stop.is_set():
            projection.catch_up()

    env = {**os.environ, "TABLELOG_STORE": postgres_store}
    commands = [
        subprocess.Popen(
            [sys.executable, "-m", "tablelog", "project"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    threads = [threading.Thread(target=work) for work in (record, poll, poll)]
    with contextlib.ExitStack() as stack:  # on leaving, re-raises what a runner's thread raised
        dashboards = [stack.enter_context(follow(open_recorder(postgres_store))) for _ in range(2)]
        for thread in threads:
            thread.start()
        for command in commands:
            _out, err = command.communicate(timeout=120)
            assert command.returncode == 0, err
        stop.wait(4)
        stop.set()
        for thread in threads:
            thread.join()
        for runner in dashboards:
            caught_up(runner, setup)
    projection = TablesProjection(setup)
    projection.catch_up()
    assert projection.position() == setup.recorder.max_notification_id()
    assert_same_tables(snapshot(projection), rebuilt(postgres_store))


def _deliver(live, recorder, after: int, upto: int) -> None:
    """Hand the projection the stored events after `after` up to `upto`, as its runner does."""
    for stored in recorder.recorder.select_notifications(
        start=after, limit=1000, stop=upto, inclusive_of_start=False
    ):
        live.process_event(
            recorder.mapper.to_domain_event(stored), Tracking(recorder.name, stored.id)
        )


def test_a_dashboard_whose_catch_up_another_outran_skips_nothing(postgres_store, monkeypatch):
    """A dashboard's batch is refused because `tablelog project` moved the tables on; it catches
    up, and in that instant another process moves them further still. The dashboard must go on
    from where its own cache stands, not from where the tables are: skipping to there would leave
    a move out of its cache and mark a sound match damaged."""
    recorder = open_recorder(postgres_store)
    match_id = play(recorder, OPENING[:2])

    def newest() -> int:
        return recorder.recorder.max_notification_id() or 0

    live = LiveTables(open_view(recorder))  # type: ignore[arg-type]  # PostgreSQL: its view
    live.attach(recorder)
    _deliver(live, recorder, 0, newest())  # folded and written: the start and two moves
    written = newest()

    recorder.record(match_id, *OPENING[2])
    TablesProjection(open_recorder(postgres_store)).catch_up()  # another process writes it
    recorder.record(match_id, *OPENING[3])  # the dashboard folds both, but cannot write them
    catch_up = live.tables.catch_up

    def outrun(progress=None):
        done = catch_up(progress)
        monkeypatch.undo()  # once
        recorder.record(match_id, *WIN[4])  # projected at once by yet another process
        TablesProjection(open_recorder(postgres_store)).catch_up()
        return done

    monkeypatch.setattr(live.tables, "catch_up", outrun)
    _deliver(live, recorder, written, newest())  # refused: catches up, and is outrun
    recorder.record(match_id, *WIN[5])
    _deliver(live, recorder, live.position or 0, newest())  # the runner goes on from there

    assert live.tables.damaged() == []
    assert_same_tables(snapshot(live.tables), rebuilt(postgres_store))
