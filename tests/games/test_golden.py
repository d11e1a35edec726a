"""The engines answer exactly what their golden data recorded (`golden_record.py`).

The data was written by `scripts/golden_games.py` from the engines, and the engines' worked
examples from the rule texts pass alongside (test_topiary.py, test_topas.py,
test_total_landscaping*.py). A difference here is either a bug or a rule changed on purpose:
then re-record and review the data's diff.
"""

from __future__ import annotations

import json

import pytest

from . import golden_record


@pytest.mark.parametrize("game", sorted(golden_record.VARIANTS))
def test_the_engine_plays_and_scores_as_recorded(game):
    recorded = json.loads(golden_record.path(game).read_text())
    replayed = list(golden_record.matches(game))
    assert len(replayed) == len(recorded)
    for now, then in zip(replayed, recorded):
        now = json.loads(json.dumps(now, sort_keys=True, default=str))  # as stored
        where = f"{game} seed {then['seed']}"
        assert now["moves"] == then["moves"], f"{where}: the random draws differ"
        for number, (position, was) in enumerate(zip(now["positions"], then["positions"])):
            assert position == was, f"{where}, position {number}"
        assert now == then, where
