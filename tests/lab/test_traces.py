"""The two ways to trace a match agree: from the projection tables (no replay) and from the
match in memory give the same metrics wherever the tables can give them, and a replay gives all
of them; where a move changes another seat's score (Topiary) the tables' running totals are not
trusted rather than wrong."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from tablelog import lab
from tablelog.lab.run import play
from tablelog.projections.load import load_tables
from tablelog.projections.metrics import per_match
from tablelog.projections.traces import traces_from_tables, with_replay

OUTCOME = [
    *("advantage_p1", "seat1_share", "completion", "drawishness", "drawn"),
    *("duration_moves", "duration_rounds", "won_1", "won_2", "alone_1", "alone_2"),
]
LEADS = [
    "decisiveness",
    "lead_for_good",
    "lead_change",
    "sole_lead_changes",
    "deficit",
    "score_margin",
]


def traced(recorder, game):
    definition = lab.restriction(game, "first-legal", "random", matches=4, seed=9)
    played = [play(definition, 0, k) for k in range(4)]
    recorder.save_new([match for match, _ in played])
    tables = load_tables(recorder, names=("matches", "moves", "scores"))
    by_id = {
        t.match_id: t
        for t in traces_from_tables(tables["matches"], tables["moves"], tables["scores"])
    }
    memory = per_match([trace for _, trace in played])
    stored = [by_id[str(match.id)] for match, _ in played]
    return memory, stored


@pytest.mark.parametrize("game", ["topas", "topiary", "topitop"])
def test_tables_agree_with_memory_where_they_can_tell(recorder, game):
    memory, stored = traced(recorder, game)
    from_tables = per_match(stored)
    pd.testing.assert_frame_equal(from_tables[OUTCOME], memory[OUTCOME])
    for metric in LEADS:
        for told, truth in zip(from_tables[metric], memory[metric]):
            assert math.isnan(told) or told == truth, (metric, told, truth)


def test_topiary_totals_come_from_a_replay(recorder):
    memory, stored = traced(recorder, "topiary")
    assert all(t.totals is None for t in stored)  # a tile face up changes every visitor's view
    replayed, count = with_replay(stored, recorder.get, sample=4)
    assert count == 4
    pd.testing.assert_frame_equal(per_match(replayed), memory)


def test_topas_totals_need_no_replay(recorder):
    memory, stored = traced(recorder, "topas")
    assert all(t.totals is not None for t in stored)
    pd.testing.assert_frame_equal(per_match(stored)[LEADS], memory[LEADS])
