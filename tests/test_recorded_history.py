"""Matches recorded under GeoShapes and Total Landscaping rules version 1 replay as recorded.

A stored event is forever: when a reading changes (issue 27: hoeing, compulsory placing, the empty
deck, the default board) the rules version is bumped and a version-1 match replays with options
that keep the old readings (`replay_options`). These tests pin what the old matches ended as.

The expected values below are recorded history, not derived from the rules: they were computed
with the version-1 engines (commit 14beb6f, before issue 27 changed anything) and written down
here, so that any change in how an old match replays fails this test.

The fixture `tests/fixtures/release-0.1-geoshapes-total-landscaping.jsonl` is the export of a
store filled by the version-1 engines (`tablelog simulate` with random and greedy bots, then
`tablelog export --all`): GeoShapes at 2, 3 and 4 players and on the half board, with games that
ran the deck out and games where players chose not to place, and Total Landscaping matches with
hoes. Each record ends with an `end` entry holding the outcome the store recorded, which the
import checks against the replay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelog.domain.games import get_rules
from tablelog.domain.records import check_all

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "data" / "examples"
FIXTURE = ROOT / "tests" / "fixtures" / "release-0.1-geoshapes-total-landscaping.jsonl"

# Recorded history (version-1 engines, before issue 27): outcome and score totals per seat.
RECORDED = {
    "geoshapes": {
        "moves": 14,
        "outcome": {"winners": [0], "ranking": [[0], [1]],
                    "reason": "seat 0 completed a figure and the circle with a shape to spare"},
        "categories": [{"win": 25, "hand": 0}, {"win": 0, "hand": -3}],
        "totals": [25, -3],
    },
    "total-landscaping": {
        "moves": 14,
        "outcome": {"winners": [0], "ranking": [[0], [1]],
                    "reason": "the Elimination Candidate (east) wins the match 2-0 (bout 1: "
                              "east, round 7, six colours connected; bout 2: east, round 7, "
                              "six colours connected)"},
        "categories": [{"six colours connected": 2, "biggest patch": 0, "most flowers": 0,
                        "most Blue": 0},
                       {"six colours connected": 0, "biggest patch": 0, "most flowers": 0,
                        "most Blue": 0}],
        "totals": [2, 0],
    },
}


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_an_example_record_replays_to_its_recorded_result(game):
    (match,) = check_all([json.loads((EXAMPLES / f"{game}.json").read_text())])
    expected = RECORDED[game]
    scores = match.rules.score(match.state)
    assert len(match.moves) == expected["moves"]
    assert match.rules.outcome(match.state).to_json() == expected["outcome"]
    assert [entry["categories"] for entry in scores] == expected["categories"]
    assert [entry["total"] for entry in scores] == expected["totals"]


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_an_example_record_replays_the_same_when_its_version_is_named(game):
    """The GeoShapes example names no rules version; read as version 1 it ends the same."""
    record = json.loads((EXAMPLES / f"{game}.json").read_text())
    (match,) = check_all([{**record, "rules_version": "1"}])
    assert match.rules_version == "1"
    assert match.rules.outcome(match.state).to_json() == RECORDED[game]["outcome"]


def _fixture() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]


def test_a_version_1_store_replays_to_the_outcomes_it_recorded():
    records = _fixture()
    assert {r["game"] for r in records} == {"geoshapes", "total-landscaping"}
    assert {r["rules_version"] for r in records} == {"1"}
    # check_all refuses a record whose `end` entry disagrees with the replayed outcome.
    matches = check_all(records)
    for record, match in zip(records, matches):
        assert match.status == "ended"
        assert match.outcome == record["events"][-1]["outcome"]
