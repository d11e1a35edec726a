"""A long running match in the projection: memory bounded (the newest moves kept), and the
tables the same as if everything were kept, undos past the kept moves included."""

from __future__ import annotations

import pytest

from tablelog.projections import projector
from tablelog.projections.runner import TablesProjection
from tests.long_matches import shuffled_moves


@pytest.fixture
def small_trim(monkeypatch):
    monkeypatch.setattr(projector, "TRIM_AT", 20)
    monkeypatch.setattr(projector, "KEEP", 5)


def tables(recorder):
    projection = TablesProjection(recorder)
    projection.reset()
    projection.catch_up()
    return {
        name: sorted(map(repr, projection.view.select(name)))
        for name in ("matches", "moves", "scores")
    }


def test_a_trimmed_match_projects_what_an_untrimmed_one_does(any_recorder, monkeypatch):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    moves = list(shuffled_moves(80))
    for seat, move in moves[:60]:
        any_recorder.record(match_id, seat, move)
    for _ in range(15):  # past what a trimmed match keeps then (12 of its 5 to 20)
        any_recorder.undo(match_id, "Ann", "back")
    for seat, move in moves[45:70]:
        any_recorder.record(match_id, seat, move)
    any_recorder.end(match_id, agreed_draw=True)
    whole = tables(any_recorder)
    monkeypatch.setattr(projector, "TRIM_AT", 20)
    monkeypatch.setattr(projector, "KEEP", 5)
    refolds = []
    history = TablesProjection._history

    def counted(self, *args):
        refolds.append(args)
        return history(self, *args)

    monkeypatch.setattr(TablesProjection, "_history", counted)
    trimmed = tables(any_recorder)
    assert trimmed == whole
    assert len(refolds) == 1  # the undo that reached past the kept moves folded it again
    (row,) = TablesProjection(any_recorder).view.select("matches")
    assert row["moves"] == 70 and row["undos"] == 15


def test_a_trimmed_match_keeps_only_its_newest_moves(any_recorder, small_trim):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(100):
        any_recorder.record(match_id, seat, move)
    projection = TablesProjection(any_recorder)
    projection.catch_up()
    kept = projection.projector.cache[match_id]
    assert kept.count == 100 and len(kept.moves) <= 20 and len(kept.states) == len(kept.moves) + 1
