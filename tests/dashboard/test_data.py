"""The app's data source (projection reads, cached by position) and the Match page's rows."""

from __future__ import annotations

from dashboard import replay
from dashboard.data import Source
from domain.games import get_rules
from tablelog.store import open_recorder

from .conftest import EVE, hand_logged_match


def test_tables_are_read_by_filter_and_reread_only_when_events_arrive(store):
    recorder = open_recorder(store)
    source = Source(recorder)
    first = hand_logged_match(recorder)
    source.refresh()
    matches = source.table("matches", game="topitop")
    assert list(matches["match_id"]) == [str(first)]
    assert source.table("matches", game="topitop") is matches  # nothing new: the same frame
    assert source.table("matches", game="topiary").empty
    second = hand_logged_match(recorder)
    assert source.table("matches", game="topitop") is matches  # not projected yet
    source.refresh()
    assert set(source.table("matches", game="topitop")["match_id"]) == {str(first), str(second)}
    assert source.match_ids(str(second)[:6]) == [str(second)]
    assert list(source.table("matches", columns=["game"]).columns) == ["game"]


def test_event_log_marks_the_withdrawn_move_the_claim_and_the_open_dispute(store):
    recorder = open_recorder(store)
    match_id = hand_logged_match(recorder)
    log = replay.event_log(recorder.stored_events(match_id), get_rules("topitop"))
    assert [row["step"] for row in log] == list(range(11))
    kinds = [row["event"] for row in log]
    assert kinds == ["Started"] + ["MoveRecorded"] * 6 + ["MoveUndone", "MoveRecorded",
                                                          "ResultClaimed", "DisputeRaised"]
    assert log[6]["flag"] == "withdrawn"  # the sixth move was taken back at step 7
    assert log[7]["who"] == "Ben" and log[7]["what"].startswith("withdrew step 6")
    assert log[1]["who"] == EVE
    assert log[9]["what"] == f"{EVE} 0, Ben 3"
    assert log[10]["flag"] == "open"
    assert replay.caption(log[10]).startswith("Step 10 (DisputeRaised): <b>Eve</b>: ")


def test_claims_beside_the_rules_from_the_audit(store):
    from domain.audit import audit_match

    recorder = open_recorder(store)
    match_id = hand_logged_match(recorder)
    rows = replay.claims_against_rules(audit_match(recorder, match_id))
    # The claim came after the last move, so the rules' totals are those of the final position.
    eve, ben = (entry["total"] for entry in get_rules("topitop").score(
        recorder.get(match_id).state))
    assert rows == [
        {"step": 9, "by": "Ben", "seat": EVE, "claimed": 0, "recomputed": eve,
         "agrees": eve == 0},
        {"step": 9, "by": "Ben", "seat": "Ben", "claimed": 3, "recomputed": ben,
         "agrees": ben == 3}]
