"""A forger edits the SQLite file directly; the audit names the match and the position.

Every test stores three matches and tampers with the middle one only, so the audit must also
leave the other two clean. Positions are event numbers: event 1 is the start. The match of
`played_with_everything` stores: 1 start, 2-6 moves 1-5, 7 an undo, 8-18 moves 5-15,
19 a claim, 20 a dispute, 21 its ruling, 22 the end.
"""

from __future__ import annotations

import pytest

from tablelog.domain.integrity.audit import audit_all, audit_match
from tablelog.store import open_recorder
from tests.audit.helpers import (
    delete,
    insert_copy,
    played_with_everything,
    rows,
    swap_states,
    update_state,
)


@pytest.fixture
def matches(recorder):
    return [played_with_everything(recorder) for _ in range(3)]


def audited(store):
    """Audit the whole store afresh (a new process would see the same) -> {match: report}."""
    return {r["match"]: r for r in audit_all(open_recorder(store))["matches"]}


def only_failing(store, matches):
    reports = audited(store)
    assert [r["clean"] for r in reports.values()] == [True, False, True]
    return reports[str(matches[1])]


def test_a_clean_store_audits_clean(store, matches):
    reports = audited(store)
    assert list(reports) == [str(m) for m in matches]
    for report in reports.values():
        assert report["clean"] and report["findings"] == [] and report["notes"] == []
        assert report["events"] == 22 and report["status"] == "ended"


def test_a_changed_byte_in_a_timestamp_is_found_by_the_chain_alone(store, matches):
    state = rows(store, matches[1])[11]  # move 8, Ben slides c1 to c2
    update_state(store, matches[1], 11, state.replace(b'"_data_":"20', b'"_data_":"19', 1))
    report = only_failing(store, matches)
    # The move still replays; only the hash that event 12 holds shows event 11 was changed.
    assert [(f["event"], f["kind"]) for f in report["findings"]] == [(11, "chain")]
    assert "step 10 is not the event that step 11 sealed" in report["findings"][0]["message"]


def test_a_changed_move_breaks_the_chain_where_it_was_changed(store, matches):
    state = rows(store, matches[1])[3]  # move 2: Ben places a small pile on a1
    update_state(store, matches[1], 3, state.replace(b'"to":"a1"', b'"to":"c1"'))
    report = only_failing(store, matches)
    first, *rest = report["findings"]
    assert (first["event"], first["kind"]) == (3, "chain")
    # The forged move also makes move 3 (Ann slides a1 onto b2) impossible.
    assert (rest[0]["event"], rest[0]["kind"]) == (4, "replay")
    assert "move 3 by Ann" in rest[0]["message"]


def test_a_deleted_middle_row_is_named(store, matches):
    delete(store, matches[1], 9)
    report = only_failing(store, matches)
    first = report["findings"][0]
    assert (first["event"], first["kind"]) == (9, "missing")
    assert first["message"] == "step 8 is missing: deleted from the store"
    assert report["events"] == 21


def test_two_swapped_rows_are_both_named(store, matches):
    swap_states(store, matches[1], 4, 15)
    report = only_failing(store, matches)
    chain = [f for f in report["findings"] if f["kind"] == "chain"]
    assert [f["event"] for f in chain] == [4, 15]
    assert chain[0]["message"].startswith(
        "step 3 is not what was recorded between step 2 and step 4"
    )
    assert report["findings"][0]["event"] == 4


def test_an_inserted_row_is_named_where_it_was_put(store, matches):
    insert_copy(store, matches[1], 6, copy_of=10)
    report = only_failing(store, matches)
    first = report["findings"][0]
    assert (first["event"], first["kind"]) == (6, "chain")
    assert first["message"].startswith("steps 5 to 22 are not what was recorded after step 4")


def test_a_row_that_no_longer_decodes_is_a_finding_not_a_crash(store, matches):
    state = rows(store, matches[1])[13]
    update_state(store, matches[1], 13, b"[" + state[1:])
    report = only_failing(store, matches)
    first = report["findings"][0]
    assert (first["event"], first["kind"]) == (13, "undecodable")
    assert "no longer decodes" in first["message"]


def test_a_deleted_start_still_names_the_match(store, matches):
    delete(store, matches[1], 1)
    report = only_failing(store, matches)
    assert [(f["event"], f["kind"]) for f in report["findings"][:2]] == [
        (1, "missing"),
        (1, "replay"),
    ]
    assert report["game"] is None and report["events"] == 21


def test_an_edited_last_event_is_caught_by_the_replay(store, matches):
    # Nothing follows the end to seal it, but the rules recompute who won.
    state = rows(store, matches[1])[22]
    update_state(store, matches[1], 22, state.replace(b'"winners":[0]', b'"winners":[1]'))
    report = only_failing(store, matches)
    assert [(f["event"], f["kind"]) for f in report["findings"]] == [(22, "outcome")]
    assert "Ben winning" in report["findings"][0]["message"]


def test_a_deleted_last_event_is_caught_by_a_receipt(store, recorder, matches):
    receipt = audit_match(recorder, matches[1])["head"]["hash"]
    delete(store, matches[1], 22)
    fresh = open_recorder(store)
    unchecked = audit_match(fresh, matches[1])
    # Without the receipt the shortened log is a consistent match that was never ended.
    assert unchecked["clean"] and unchecked["status"] == "running"
    assert unchecked["notes"] == ["the game is over by the rules but the match was never ended"]
    checked = audit_match(fresh, matches[1], head=receipt)
    assert [f["kind"] for f in checked["findings"]] == ["receipt"]
    assert "deleted or changed" in checked["findings"][0]["message"]


def test_a_receipt_taken_earlier_lists_what_came_after(recorder, matches):
    match_id = matches[0]
    early = audit_match(recorder, match_id)["head"]["hash"][:12]
    recorder.dispute(match_id, "Ben", "the time limit")
    report = audit_match(recorder, match_id, head=early)
    assert report["clean"] is False  # the new dispute is open
    assert "the receipt seals step 21; 1 event was recorded after it" in report["notes"][0]
