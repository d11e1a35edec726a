"""Bulk saves (imports, simulations): every event of every match stored in one transaction, or
none; on PostgreSQL as on SQLite, at the sizes a club's import reaches."""

from __future__ import annotations

import gc
import threading

import pytest

from tablelog.domain.errors import Conflict
from tablelog.domain.matches.match import Match
from tablelog.domain.recording.recorder import BULK
from tablelog.simulation import make_plan, play_match
from tests.conftest import stored_rows

EVENTS = 40_000  # above the ~36,000 at which the library's pipelined PostgreSQL insert stalled


def enough_matches(events: int, seed: int) -> list:
    """Finished Topitop matches played in memory by simulation's random bots (not stored),
    together holding at least `events` events."""
    plan = make_plan("topitop", matches=10**6, seed=seed)
    matches: list[Match] = []
    held = 0
    while held < events:
        matches.append(play_match(plan, len(matches)))
        held += matches[-1].version
    return matches


def within(seconds: float, work) -> None:
    """Run `work`, failing (rather than hanging the suite) if it has not finished in time."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as err:  # noqa: BLE001 - handed to the test thread
            errors.append(err)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"the save had not finished after {seconds} s"
    if errors:
        raise errors[0]


def test_a_bulk_save_stores_every_event_of_every_match(any_recorder, any_store):
    matches = enough_matches(EVENTS, seed=1)
    expected = {m.id: m.version for m in matches}
    within(300, lambda: any_recorder.save(*matches))
    rows = stored_rows(any_store)
    assert len(rows) == sum(expected.values())
    for match_id, version in list(expected.items())[::97]:
        replayed = any_recorder.get(match_id)
        assert replayed.version == version
        assert replayed.head_hash == next(m for m in matches if m.id == match_id).head_hash


def test_a_bulk_save_that_conflicts_stores_nothing(any_recorder, any_store):
    contested = any_recorder.start("topitop", ["Ann", "Ben"])
    first, second = any_recorder.get(contested), any_recorder.get(contested)
    for match in (first, second):
        match.record("Ann", {"place": "small", "to": "b1"})
    any_recorder.save(first)
    before = stored_rows(any_store)
    matches = enough_matches(BULK * 3, seed=2)
    with pytest.raises(Conflict):
        within(300, lambda: any_recorder._save(*matches, second))
    assert stored_rows(any_store) == before


@pytest.mark.parametrize("collecting", [True, False])
def test_a_bulk_save_leaves_the_cycle_collector_as_it_found_it(recorder, collecting):
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        recorder.save(*enough_matches(BULK * 2, seed=3))
        assert gc.isenabled() is collecting
        contested = recorder.start("topitop", ["Ann", "Ben"])
        stale = recorder.get(contested)
        recorder.record(contested, "Ann", {"place": "small", "to": "b1"})
        stale.record("Ann", {"place": "small", "to": "c1"})
        with pytest.raises(Conflict):  # a failed bulk save too
            recorder._save(*enough_matches(BULK * 2, seed=5), stale)
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
