"""Every tampering case of tests/audit/test_tampering.py, on both stores, once a checkpoint
covers the match: the checkpoint audit names the events changed, with no receipt kept.

The match of `played_with_everything` stores: 1 start, 2-6 moves 1-5, 7 an undo, 8-18 moves
5-15, 19 a claim, 20 a dispute, 21 its ruling, 22 the end; the recorder signs a checkpoint at
19, 20, 21 and 22 (claim, dispute, resolve, end).
"""

from __future__ import annotations

from tests.audit.helpers import OPENING, play
from tests.checkpoints import surgery
from tests.checkpoints.helpers import audited, new_signer, signed_findings, signing


def only_middle(location, matches):
    reports, ledger = audited(location)
    assert [bool(signed_findings(reports[str(m)])) for m in matches] == [False, True, False]
    assert all(f.get("match") == str(matches[1]) for f in ledger["findings"])
    return reports[str(matches[1])]


def test_an_untouched_signed_store_audits_clean(signed):
    location, _matches = signed
    reports, ledger = audited(location)
    assert ledger["clean"] and len(ledger["checkpoints"]) == 12
    assert all(c["verified"] for c in ledger["checkpoints"]) and ledger["uncovered"] == 0
    assert all(r["clean"] for r in reports.values())


def test_a_changed_byte_is_named_by_the_checkpoint(signed):
    location, matches = signed
    state = surgery.rows(location, matches[1])[11]
    surgery.update_state(
        location, matches[1], 11, state.replace(b'"_data_":"20', b'"_data_":"19', 1)
    )
    found = signed_findings(only_middle(location, matches))
    assert [event for event, _ in found] == [11]
    # matches[0] was signed 4 times; the claim of matches[1] signed its first 19 events
    assert "is not the event checkpoint 5 (signed " in found[0][1]


def test_a_deleted_row_is_named_by_the_checkpoint(signed):
    location, matches = signed
    surgery.delete(location, matches[1], 9)
    found = signed_findings(only_middle(location, matches))
    assert found == [(9, found[0][1])] and "was deleted after it was signed" in found[0][1]


def test_swapped_rows_are_both_named_by_the_checkpoint(signed):
    location, matches = signed
    surgery.swap_states(location, matches[1], 4, 15)
    assert [e for e, _ in signed_findings(only_middle(location, matches))] == [4, 15]


def test_an_inserted_row_is_named_and_so_is_every_renumbered_one(signed):
    location, matches = signed
    surgery.insert_copy(location, matches[1], 6, copy_of=10)
    found = signed_findings(only_middle(location, matches))
    assert [e for e, _ in found] == list(range(6, 23))
    assert "(now stored as event 7)" in found[0][1]


def test_a_re_chained_middle_passes_the_chain_but_not_the_checkpoint(signed, any_store):
    location, matches = signed
    recorder = signing(location, new_signer(), trust=False)

    def reword(record):
        record["events"][18]["about"] = "nothing, really"  # event 20, the dispute

    surgery.rechain(recorder, location, matches[1], reword, since=20)
    reports, _ = audited(location)
    report = reports[str(matches[1])]
    # The hash chain and the rules see nothing: every link was recomputed.
    assert [f for f in report["findings"] if f["kind"] != "checkpoint"] == []
    assert [e for e, _ in signed_findings(report)] == [20, 21, 22]


def test_a_forged_move_with_a_correct_hash_in_place_of_the_signed_end(any_store):
    recorder = signing(any_store, new_signer())
    match_id = play(recorder, OPENING)
    recorder.end(match_id, agreed_draw=True)  # event 6, signed

    def forge(record):
        ended = record["events"].pop()
        record["events"].append(
            {
                "type": "move",
                "seat": "Ann",
                "at": ended["at"],
                "move": {"place": "large", "to": "a3"},
            }
        )

    surgery.rechain(recorder, any_store, match_id, forge, since=6)
    reports, _ = audited(any_store)
    report = reports[str(match_id)]
    assert [f for f in report["findings"] if f["kind"] != "checkpoint"] == []
    assert report["status"] == "running"  # the forged log is a consistent, legal match
    assert [e for e, _ in signed_findings(report)] == [6]


def test_a_move_appended_after_the_newest_checkpoint_is_only_noted_the_window(any_store):
    """The limit docs/audit.md states: what is stored after the newest checkpoint is signed by
    nobody yet; a forged append there is only reported as not yet signed."""
    recorder = signing(any_store, new_signer())
    match_id = play(recorder, OPENING)
    recorder.checkpoint()
    recorder.record(match_id, "Ann", {"place": "large", "to": "a3"})
    reports, ledger = audited(any_store)
    assert reports[str(match_id)]["clean"] and ledger["clean"]
    assert ledger["notes"] == ["1 event stored after the newest checkpoint, not yet signed"]
