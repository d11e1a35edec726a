"""Snapshots as properties (issue 42), on SQLite and PostgreSQL: for random Topitop plays with
moves, undos, claims, disputes, rulings and an end, snapshots taken at random points (by saves
and by long reads, with short tails), and reads of random steps among the writes, by two
recorders in one process or by two processes taking turns, reading any step with snapshots is
the whole match a reader without snapshots replays from the events."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings

from tablelog.domain.matches import snapshots
from tablelog.domain.matches.match import Match
from tablelog.domain.recording.recorder import Recorder
from tablelog.store import open_recorder, store_env
from tests.snapshot_steps import Entry, enter, intervals, picture, plays, serve, tails

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Unsnapshotted(Recorder):
    """A reader that neither reads nor takes snapshots: every read replays all the events."""

    name = "tablelog"  # the same tables (the library names a subclass's after it otherwise)
    is_snapshotting_enabled = False


@pytest.fixture
def replayer(any_store: str) -> Iterator[Recorder]:
    open_recorder(any_store).close()  # the store's tables, made as every recorder makes them
    reader = Unsnapshotted(env=store_env(any_store))
    yield reader
    reader.close()


def assert_whole_match(read: dict[str, Any], replayed: dict[str, Any], step: int) -> None:
    """Every part of the match alike (named, so that a failure says which part differs)."""
    assert read.keys() == replayed.keys(), f"at step {step}"
    for part in replayed:
        assert read[part] == replayed[part], f"{part} at step {step}"


def test_reading_any_step_with_snapshots_is_the_full_replay(any_store, replayer):
    recorders = [open_recorder(any_store), open_recorder(any_store)]  # both take snapshots

    def read(who: int, match_id: UUID, step: int) -> dict[str, Any]:
        return picture(recorders[who].get(match_id, step))

    @SETTINGS
    @given(play=plays(40), first=intervals(long_reads=True), second=intervals(), tail=tails())
    def property(play: list[Entry], first, second, tail: int) -> None:
        for recorder, (every, through) in zip(recorders, (first, second)):
            recorder.snapshot_every, recorder.read_through = every, through
        with patch.object(snapshots, "TAIL", tail):
            match_id = recorders[0].start("topitop", ["Ann", "Ben"])

            def make(who: int, entry: Entry) -> int | None:
                return enter(recorders[who], any_store, match_id, entry)

            play_out(play, make, read, replayer, match_id)

    try:
        property()
    finally:
        for recorder in recorders:
            recorder.close()


def test_two_processes_taking_turns_read_every_step_as_the_full_replay(any_store, replayer):
    with recording_process(any_store) as first, recording_process(any_store) as second:
        processes = [first, second]

        def read(who: int, match_id: UUID, step: int) -> dict[str, Any]:
            return processes[who]("read", match_id, step)

        @SETTINGS
        @given(play=plays(30), one=intervals(long_reads=True), other=intervals(), tail=tails())
        def property(play: list[Entry], one, other, tail: int) -> None:
            for ask, (every, through) in zip(processes, (one, other)):
                ask("intervals", every, through, tail)
            match_id = replayer.start("topitop", ["Ann", "Ben"])

            def make(who: int, entry: Entry) -> int | None:
                return processes[who]("enter", match_id, entry)  # made and answered

            play_out(play, make, read, replayer, match_id)

        property()


def play_out(play: list[Entry], make, read, replayer: Recorder, match_id: UUID) -> None:
    """Make the play's entries in turn (`make(who, entry)`: a step to read, or None), comparing
    each read with the replayer's at once; then every step, as the play left the snapshots,
    and again after one long read of the whole match by the first recorder, its snapshots
    deleted first (so that it snapshots the match every `read_through` events on the way)."""
    for entry in play:
        step = make(entry[2], entry)
        if step is not None:
            read_at = read(entry[2], match_id, step)
            assert_whole_match(read_at, picture(replayer.get(match_id, step)), step)
    assert_every_step(replayer, match_id, read)
    make(0, ("forget", 0, 0))
    latest = replayer.get(match_id).version - Match.INITIAL_VERSION
    assert_whole_match(read(0, match_id, latest), picture(replayer.get(match_id)), latest)
    assert_every_step(replayer, match_id, read)


def assert_every_step(replayer: Recorder, match_id: UUID, read) -> None:
    """Each recorder reads every step of the match as the replayer does."""
    steps = replayer.get(match_id).version - Match.INITIAL_VERSION
    for step in range(steps + 1):
        replayed = picture(replayer.get(match_id, step))
        for who in (0, 1):
            assert_whole_match(read(who, match_id, step), replayed, step)


@contextmanager
def recording_process(store: str) -> Iterator[Any]:
    """A process running `snapshot_steps.serve` on `store`; yields ask(*message) -> answer."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=serve, args=(theirs, store))
    process.start()
    theirs.close()  # so that the process dying is an EOFError here, never a wait

    def ask(*message: Any) -> Any:
        ours.send(message)
        outcome, value = ours.recv()
        assert outcome == "ok", f"the recording process failed on {message}: {value}"
        return value

    try:
        yield ask
    finally:
        ours.send(None)
        process.join()
        ours.close()
