"""Claims against the rules, the diverging move, undos and disputes in the report.

Scores worked out by hand from WIN (tests/test_recorder.py): Topitop's score is the buckets a
seat has on sand castles. Ann's bucket reaches the castle on b2 with move 9 (a1 to b2) and her
second the castle on a3 with move 15 (a2 to a3), which wins; Ben never crowns a castle. So Ann's
running score is 0 after moves 0-8, 1 after moves 9-14 and 2 after move 15; Ben's is always 0.
"""

from __future__ import annotations

import pytest

from tablelog.domain.games import GAMES, UnknownInformation
from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.integrity.audit_claims import Step, diverging_move
from tests.audit.helpers import WIN, play, played_with_everything


def claimed(recorder, scores, moves=WIN, by="Ann"):
    match_id = play(recorder, moves)
    recorder.claim(match_id, by, scores)
    return audit_match(recorder, match_id)


def test_a_right_claim_agrees(recorder):
    report = claimed(recorder, {"Ann": 2, "Ben": 0})
    assert report["clean"]
    assert report["claims"][0]["agrees"] is True
    assert report["claims"][0]["recomputed"] == {"Ann": 2, "Ben": 0}


def test_a_claim_that_missed_the_last_bucket_diverges_at_move_15(recorder):
    report = claimed(recorder, {"Ann": 1, "Ben": 0})
    assert not report["clean"]
    (finding,) = report["findings"]
    assert (finding["event"], finding["kind"]) == (17, "claim")  # 1 start + 15 moves, then it
    assert finding["diverging_move"]["move"] == 15
    assert finding["diverging_move"]["event"] == 16
    assert finding["diverging_move"]["how"] == "left the claimed value"
    assert (
        "At step 16 (after move 15) Ann claimed 1 for Ann; the rules give Ann 2, so the claim "
        "is 1 too low."
    ) in finding["message"]
    assert "The table and the rules part at move 15: " in finding["message"]
    assert "until move 15 (Ann moves a2 to a3) made it 2" in finding["message"]
    # The error does not change who won.
    assert "The claimed scores give the same winner as the rules: Ann wins." in finding["message"]


def test_a_claim_of_nothing_diverges_where_the_first_bucket_landed(recorder):
    report = claimed(recorder, {"Ann": 0, "Ben": 0}, by="Ben")
    (finding,) = report["findings"]
    assert finding["diverging_move"]["move"] == 9
    assert finding["diverging_move"]["described"] == "moves a1 to b2"
    assert (
        "By the claimed scores Ann and Ben would tie for first; by the rules Ann wins."
    ) in finding["message"]


def test_a_claim_never_reached_says_the_totals_cannot_name_the_move(recorder):
    report = claimed(recorder, {"Ann": 3})
    (difference,) = report["claims"][0]["differences"]
    assert difference["diverging_move"]["move"] is None
    assert difference["diverging_move"]["changed"] == [
        {"move": 9, "change": 1},
        {"move": 15, "change": 1},
    ]
    assert "totals alone cannot name the move" in report["findings"][0]["message"]


def test_a_score_sheet_of_claims_narrows_the_stretch(recorder):
    # The table wrote the score down after move 10 (right) and at the end (wrong).
    match_id = play(recorder, WIN[:10])
    recorder.claim(match_id, "Ann", {"Ann": 1, "Ben": 0})
    for seat, move in WIN[10:]:
        recorder.record(match_id, seat, move)
    recorder.claim(match_id, "Ann", {"Ann": 3, "Ben": 0})
    report = audit_match(recorder, match_id)
    first, last = report["claims"]
    assert first["agrees"] and first["after_move"] == 10
    assert last["agrees"] is False
    # Only moves after the agreeing claim are candidates: move 9 is no longer listed.
    assert last["differences"][0]["diverging_move"]["changed"] == [{"move": 15, "change": 1}]
    assert "between move 10 and move 15" in report["findings"][0]["message"]


def test_a_claim_is_compared_with_the_score_when_it_was_made(recorder):
    # A claim after move 9 (Ann 1) is right then, even though Ann has 2 at the end.
    match_id = play(recorder, WIN[:9])
    recorder.claim(match_id, "Ann", {"Ann": 1, "Ben": 0})
    for seat, move in WIN[9:]:
        recorder.record(match_id, seat, move)
    report = audit_match(recorder, match_id)
    assert report["clean"] and report["claims"][0]["after_move"] == 9


def steps(totals):
    return [Step(n, n + 1, "Ann", {}, f"move {n}", None, [total]) for n, total in enumerate(totals)]


@pytest.mark.parametrize(
    ("totals", "claim", "start", "move", "how"),
    [
        ([0, 3, 7, 12, 15], 7, 0, 3, "left the claimed value"),
        ([0, 3, 7, 12, 15], 10, 0, 3, "passed the claimed value"),  # 7 -> 12 jumps over 10
        ([0, 3, 7, 12, 15], 20, 0, None, "never reached"),
        ([0, 3, 7, 12, 15], 2, 0, 1, "passed the claimed value"),
        # Scores that fall: the last time the rules' total was the claim is what counts.
        ([0, 5, 2, 5, 8, 8], 5, 0, 4, "left the claimed value"),
        ([0, 5, 2, 5, 8, 4], 5, 0, 5, "passed the claimed value"),  # 8 -> 4 falls past 5
        ([0, 5, 2, 5, 8, 4], 3, 0, 3, "passed the claimed value"),  # 2 -> 5, then never below 3
        # An earlier agreeing claim at move 3 bounds the stretch.
        ([0, 9, 1, 1, 2, 3], 9, 3, None, "never reached"),
    ],
)
def test_the_diverging_move_by_hand(totals, claim, start, move, how):
    found = diverging_move(steps(totals), 0, "Ann", claim, start)
    assert (found["move"], found["how"]) == (move, how)


def test_undos_and_disputes_are_listed_with_who_when_and_why(recorder):
    match_id = played_with_everything(recorder)
    report = audit_match(recorder, match_id)
    (undo,) = report["undos"]
    assert (undo["event"], undo["by"], undo["reason"]) == (7, "Ben", "Ann meant a3, not a1")
    assert undo["withdrew"] == {
        "move": 5,
        "event": 6,
        "seat": "Ann",
        "described": "places a large sand pile on a3",
    }
    (dispute,) = report["disputes"]
    assert dispute["by"] == "Ben" and dispute["about"] == "the last bucket was lifted, not slid"
    assert dispute["ruling"] == "the slide stands" and dispute["resolved_by"] == "Umpire"
    assert (dispute["event"], dispute["resolved_event"], dispute["after_move"]) == (20, 21, 15)
    started = report["started_at"]
    assert started <= undo["at"] <= dispute["at"] <= dispute["resolved_at"]


def test_an_open_dispute_fails_the_audit(recorder):
    match_id = play(recorder, WIN)
    recorder.dispute(match_id, "Ben", "Ann moved twice")
    report = audit_match(recorder, match_id)
    assert report["status"] == "disputed"
    (finding,) = report["findings"]
    assert finding["kind"] == "dispute" and "still open: Ann moved twice" in finding["message"]


def test_hidden_information_is_noted_not_failed(recorder, monkeypatch):
    match_id = play(recorder, WIN[:4])
    recorder.claim(match_id, "Ann", {"Ann": 0, "Ben": 0})

    def hidden(state):
        raise UnknownInformation("Ben's hand was never shown")

    monkeypatch.setattr(GAMES["topitop"], "score", hidden)
    report = audit_match(recorder, match_id)
    assert report["clean"] and report["claims"][0]["agrees"] is None
    assert "Ben's hand was never shown" in report["notes"][0]
    assert report["scores"]["unknown"] == "Ben's hand was never shown"
