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
hoes (in the last three a hoe meets a card's effect; in the last two that changes what follows).
Each record ends with an `end` entry holding the outcome the store recorded, which the import
checks against the replay;
FINGERPRINTS pins every position of every record as the version-1 engines computed it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tablelog.domain.games import IllegalMove, get_rules
from tablelog.domain.matches.records import check_all
from tests.packaged import data_path

ROOT = Path(__file__).parents[1]
EXAMPLES = data_path("examples")
FIXTURE = ROOT / "tests" / "fixtures" / "release-0.1-geoshapes-total-landscaping.jsonl"

# Recorded history (version-1 engines, before issue 27): outcome and score totals per seat.
RECORDED = {
    "geoshapes": {
        "moves": 14,
        "outcome": {
            "winners": [0],
            "ranking": [[0], [1]],
            "reason": "seat 0 completed a figure and the circle with a shape to spare",
        },
        "categories": [{"win": 25, "hand": 0}, {"win": 0, "hand": -3}],
        "totals": [25, -3],
    },
    "total-landscaping": {
        "moves": 14,
        "outcome": {
            "winners": [0],
            "ranking": [[0], [1]],
            "reason": "the Elimination Candidate (east) wins the match 2-0 (bout 1: "
            "east, round 7, six colours connected; bout 2: east, round 7, "
            "six colours connected)",
        },
        "categories": [
            {"six colours connected": 2, "biggest patch": 0, "most flowers": 0, "most Blue": 0},
            {"six colours connected": 0, "biggest patch": 0, "most flowers": 0, "most Blue": 0},
        ],
        "totals": [2, 0],
    },
}


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_an_example_record_replays_to_its_recorded_result(game):
    (match,) = check_all([json.loads((EXAMPLES / f"{game}.json").read_text())])
    expected = RECORDED[game]
    scores = match.rules.score(match.state)
    assert len(match.moves) == expected["moves"]
    outcome = match.rules.outcome(match.state)
    assert outcome is not None and outcome.to_json() == expected["outcome"]
    assert [entry["categories"] for entry in scores] == expected["categories"]
    assert [entry["total"] for entry in scores] == expected["totals"]


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_an_example_record_replays_the_same_when_its_version_is_named(game):
    """The GeoShapes example names no rules version; read as version 1 it ends the same."""
    record = json.loads((EXAMPLES / f"{game}.json").read_text())
    (match,) = check_all([{**record, "rules_version": "1"}])
    assert match.rules_version == "1"
    outcome = match.rules.outcome(match.state)
    assert outcome is not None and outcome.to_json() == RECORDED[game]["outcome"]


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


# Recorded history: per fixture record, a digest of every position along the replay, computed
# with the version-1 engines (commit 14beb6f) from the fields both versions share.
FINGERPRINTS = [
    "018c632b355d5019",
    "fdc4146e416ea9eb",
    "f3ad04d0fd227951",
    "82bb259c712a2709",
    "cb247cac0e4d8c54",
    "be13ceec0481707d",
    "84bfde8d369ae00a",
    "a27032e2adc08aa2",
    "19631ded1dab0803",
    "01f5fdab9923537f",
    "d18d02195c504d02",
    "92bf0ff3bb13f3ba",
    "a3c74c319ffbd471",
    "8f280600f11f13f4",
    "ccce681942bbc25f",
    "cbe45dd4b25133cc",
    "408c1f772e4b4332",
    "7f77996d07660b3a",
    "1d354f98c317e822",
    "5ee3e0896285e344",
]


def _position(game: str, state) -> list:
    if game == "geoshapes":
        return [
            [list(p.hand) for p in state.players],
            [list(x) for x in state.placed],
            [list(x) for x in state.stacks],
            list(state.cards_up),
            state.turn,
            state.stage,
            state.winner,
            state.deck_out,
        ]
    return [
        state.bout,
        state.round,
        [list(g) for g in state.gardens],
        [list(h) for h in state.hands],
        state.blocked,
        [[b.winner, b.round, b.condition] for b in state.bouts],
    ]


def _fingerprint(record: dict, options: dict) -> str:
    rules = get_rules(record["game"])
    state = rules.start(len(record["seats"]), options, record["setup"])
    trail = [_position(record["game"], state)]
    for entry in record["events"]:
        if entry["type"] == "move":
            state = rules.apply(state, entry["move"])
            trail.append(_position(record["game"], state))
    return hashlib.sha256(json.dumps(trail).encode()).hexdigest()[:16]


def test_every_position_of_the_version_1_store_replays_as_recorded():
    records = _fixture()
    replayed = [
        _fingerprint(r, get_rules(r["game"]).replay_options("1", r["options"])) for r in records
    ]
    assert replayed == FINGERPRINTS


def test_the_fixture_would_not_replay_the_same_under_version_2s_readings():
    """What the version pins is real: read as version 2, the GeoShapes games where a player
    kept every shape off the board are refused, and the hoes change the hands."""
    records = _fixture()
    hoed = records[-2:]
    assert all(r["game"] == "total-landscaping" for r in hoed)
    for record in hoed:
        current = get_rules(record["game"]).options(record["options"])
        assert _fingerprint(record, current) != FINGERPRINTS[records.index(record)]
    with pytest.raises(IllegalMove, match="placing is compulsory"):
        _fingerprint(records[0], get_rules("geoshapes").options(records[0]["options"]))
