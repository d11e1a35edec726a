"""Score-sheet matches in the domain: what each game's sheet rules accept and refuse (a refusal
names the seat and field, and nothing is stored), the events they make, and that matches logged
move by move hash exactly as before the `kind` field existed."""

from __future__ import annotations

from uuid import uuid4

import pytest

from tablelog.domain.errors import Refused
from tablelog.domain.matches.match import Match, event_hash, start_match
from tablelog.domain.matches.records import from_record, to_record
from tablelog.domain.matches.sheet_matches import sheet_match
from tests.conftest import stored_rows

TOPIARY = {
    "scores": [
        {"total": 43, "categories": {"visitors": 40, "type bonus": 0, "hand": 3}},
        {"total": 38},
    ],
    "winners": ["Ann"],
    "first": "Ben",
    "duration_min": 35,
    "location": "Club",
}


def sheet(game, seats, value, **kw):
    return sheet_match(uuid4(), game, seats, value, **kw)


def test_a_sheet_match_is_started_and_ended_by_its_sheet_with_the_hash_chain():
    match = sheet("topiary", ["Ann", "Ben"], TOPIARY, played_at="2024-03-01T19:30:00+01:00")
    started, recorded = match.collect_events()
    assert type(started).__name__ == "Started" and started.kind == "sheet"
    assert type(recorded).__name__ == "SheetRecorded"
    assert recorded.prev_hash == event_hash(started)
    assert recorded.outcome == {
        "winners": [0],
        "ranking": [[0], [1]],
        "reason": "score sheet: Ann wins",
    }
    assert recorded.sheet["scores"][1] == {
        "total": 38,
        "categories": None,
        "team": None,
        "role": None,
        "colour": None,
        "new": None,
    }


def test_a_record_of_a_sheet_match_imports_to_the_same_events_and_hashes():
    events = sheet("topiary", ["Ann", "Ben"], TOPIARY).collect_events()
    record = to_record(events)
    assert record["kind"] == "sheet" and record["events"][0]["type"] == "sheet"
    rebuilt = from_record(record).collect_events()
    assert [event_hash(e) for e in rebuilt] == [event_hash(e) for e in events]


def test_a_match_of_moves_hashes_as_it_did_before_kind_existed():
    match = start_match(uuid4(), "topitop", ["Ann", "Ben"])
    started = match.collect_events()[0]
    with_field = event_hash(started)
    object.__delattr__(started, "kind") if "kind" in vars(started) else None
    assert "kind" not in vars(started)
    assert event_hash(started) == with_field  # None is left out of the hash, as if absent


@pytest.mark.parametrize(
    ("game", "seats", "value", "words"),
    [
        (
            "topiary",
            ["Ann", "Ben"],
            {"scores": [{"total": 43, "categories": {"visitor": 43}}, None], "winners": ["Ann"]},
            "seat 1 (Ann): category 'visitor' is not one of topiary's",
        ),
        (
            "topiary",
            ["Ann", "Ben"],
            {
                "scores": [
                    {"total": 44, "categories": {"visitors": 40, "type bonus": 0, "hand": 3}},
                    None,
                ],
                "winners": ["Ann"],
            },
            "seat 1 (Ann): categories add up to 43, not the total 44",
        ),
        (
            "topiary",
            ["Ann", "Ben"],
            {"scores": [{"total": 40}, {"total": 41}], "winners": ["Ann"]},
            "winners: the sheet names Ann, but by the totals Ben wins",
        ),
        # Tied totals: most hand points wins; still tied, the later in turn order.
        (
            "topiary",
            ["Ann", "Ben"],
            {
                "scores": [
                    {"total": 40, "categories": {"visitors": 37, "type bonus": 0, "hand": 3}},
                    {"total": 40, "categories": {"visitors": 37, "type bonus": 0, "hand": 3}},
                ],
                "winners": ["Ann"],
            },
            "by the totals and hand points Ben wins",
        ),
        (
            "topiary",
            ["Ann", "Ben"],
            {"scores": [{"total": 200}, None], "winners": ["Ann"]},
            "seat 1 (Ann): total 200 is outside what topiary allows",
        ),
        # Three hand tiles, each scoring only below a seen larger one of its type: 4 each at most.
        (
            "topiary",
            ["Ann", "Ben"],
            {
                "scores": [
                    {"total": 13, "categories": {"visitors": 0, "type bonus": 0, "hand": 13}},
                    None,
                ],
                "winners": ["Ann"],
            },
            "seat 1 (Ann): hand 13 is outside 0 to 12",
        ),
        (
            "total-landscaping",
            ["Ann", "Ben"],
            {"scores": [{"total": 1}, {"total": 0}], "winners": ["Ann"]},
            "seat 1 (Ann): total 1 is outside what total-landscaping allows (the winner: 2 to 2",
        ),
        ("total-landscaping", ["Ann", "Ben"], {"winners": ["Ann", "Ben"]}, "exactly one winner"),
        (
            "geoshapes",
            ["Ann", "Ben"],
            {"scores": [{"total": 20}, {"total": -3}], "winners": ["Ann"]},
            "seat 1 (Ann): total 20 is outside what geoshapes allows (the winner: 25 to",
        ),
        (
            "geoshapes",
            ["Ann", "Ben"],
            {"scores": [{"total": 30}, {"total": 2}], "winners": ["Ann"]},
            "seat 2 (Ben): total 2 is outside",
        ),
        (
            "topas",
            ["Ann", "Ben"],
            {"scores": [{"total": 50}, {"total": 50}], "winners": ["Ann"]},
            "winners: the sheet names Ann, but the highest total (50) is Ann, Ben's",
        ),
        ("topitop", ["Ann", "Ben"], {"winners": ["Cleo"]}, "winners: 'Cleo' is not a seat"),
        (
            "topitop",
            ["Ann", "Ben"],
            {"scores": [{"total": 2}], "winners": ["Ann"]},
            "scores: one entry per seat (2)",
        ),
        ("topiary", ["Ann", "Ben"], {"winners": ["Ann"], "score": []}, "no field 'score'"),
    ],
)
def test_the_sheet_rules_refuse_naming_the_seat_and_field(game, seats, value, words):
    with pytest.raises(Refused) as refused:
        sheet(game, seats, value)
    assert words in str(refused.value)


@pytest.mark.parametrize(
    ("game", "seats", "value", "winners"),
    [
        (
            "topas",
            ["Ann", "Ben", "Cleo"],
            {"scores": [{"total": 61}, {"total": 61}, {"total": 44}], "winners": ["Ann", "Ben"]},
            [0, 1],
        ),  # shared win
        ("topitop", ["Ann", "Ben"], {"winners": ["Ben"]}, [1]),  # no score at all
        ("topitop", ["Ann", "Ben"], {"winners": []}, []),  # a draw by agreement
        (
            "geoshapes",
            ["Ann", "Ben", "Cleo"],
            {
                "scores": [
                    {"total": 31, "categories": {"win": 25, "hand": 6}},
                    {"total": -4},
                    {"total": -9},
                ],
                "winners": ["Ann"],
            },
            [0],
        ),
        (
            "total-landscaping",
            ["Ann", "Ben"],
            {
                "scores": [
                    {"total": 2, "categories": {"biggest patch": 1, "most Blue": 1}},
                    {"total": 1},
                ],
                "winners": ["Ann"],
            },
            [0],
        ),
        (
            "topas",
            ["Solo"],
            {
                "scores": [
                    {
                        "total": 12,
                        "categories": {
                            "column 1": 12,
                            "column 2": 20,
                            "column 3": 15,
                            "column 4": 18,
                        },
                    }
                ],
                "winners": ["Solo"],
            },
            [0],
        ),
    ],
)
def test_the_sheet_rules_accept_what_the_game_allows(game, seats, value, winners):
    match = sheet(game, seats, value)
    assert match.outcome["winners"] == winners and match.status == "ended"


def test_a_sheet_match_takes_no_moves_and_a_match_of_moves_takes_no_sheet():
    match = sheet("topitop", ["Ann", "Ben"], {"winners": ["Ann"]})
    with pytest.raises(Refused):
        match.record("Ann", {"place": "small", "to": "a1"})
    moves = start_match(uuid4(), "topitop", ["Ann", "Ben"])
    with pytest.raises(Refused, match="logged move by move"):
        moves.record_sheet({"winners": ["Ann"]})


def test_through_the_recorder_a_refused_sheet_stores_nothing(any_recorder, any_store):
    any_recorder.start_sheet("topiary", ["Ann", "Ben"], TOPIARY)
    before = stored_rows(any_store)
    with pytest.raises(Refused, match="seat 2"):
        any_recorder.start_sheet(
            "topiary",
            ["Ann", "Ben"],
            {"scores": [{"total": 3}, {"total": "x"}], "winners": ["Ann"]},
        )
    assert stored_rows(any_store) == before
    assert len(before) == 2


def test_a_sheet_match_can_be_claimed_disputed_resolved_and_audited(any_recorder):
    from tablelog.domain.integrity.audit import audit_match

    match_id = any_recorder.start_sheet("topiary", ["Ann", "Ben"], TOPIARY)
    assert audit_match(any_recorder, match_id)["clean"]
    any_recorder.claim(match_id, "Ben", {"Ann": 41, "Ben": 38})
    any_recorder.dispute(match_id, "Ann", "Ben misread my visitors")
    any_recorder.resolve(match_id, "Umpire", "the sheet stands")
    report = audit_match(any_recorder, match_id)
    assert not report["clean"] and report["sheet"]["winners"] == ["Ann"]
    (finding,) = report["findings"]
    assert finding["kind"] == "claim"
    assert "claimed 41 for Ann; the score sheet gives Ann 43" in finding["message"]
    assert isinstance(any_recorder.get(match_id), Match)
