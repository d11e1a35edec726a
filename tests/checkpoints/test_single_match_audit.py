"""`audit MATCH` checks the match's signed events by their inclusion proofs against the newest
signed head (time independent of the store's size); both stores."""

from __future__ import annotations

import pytest

from tablelog.domain.integrity.audit_match_ledger import audit_match_ledger
from tablelog.store import open_recorder
from tests.checkpoints import surgery


def findings(location, match_id):
    recorder = open_recorder(location)  # closed here: a pool left to the collector warns
    try:
        report = audit_match_ledger(recorder, match_id)
    finally:
        recorder.close()
    return [(f["event"], f["message"]) for f in report["findings"]]


def test_untouched_matches_audit_clean(signed):
    location, matches = signed
    assert all(findings(location, m) == [] for m in matches)


@pytest.mark.parametrize(
    "tamper, events",
    [
        (lambda loc, m: surgery.delete(loc, m, 9), [9]),
        (lambda loc, m: surgery.swap_states(loc, m, 4, 15), [4, 15]),
        (
            lambda loc, m: surgery.update_state(
                loc, m, 22, surgery.rows(loc, m)[22].replace(b'"winners":[0]', b'"winners":[1]')
            ),
            [22],
        ),
    ],
)
def test_tampering_is_named_by_the_single_match_audit(signed, tamper, events):
    location, matches = signed
    tamper(location, matches[1])
    assert [e for e, _ in findings(location, matches[1])] == events
    assert findings(location, matches[0]) == [] and findings(location, matches[2]) == []


def test_an_altered_signed_leaf_fails_its_inclusion_proof(signed):
    location, matches = signed
    surgery.sql(
        location,
        "UPDATE tablelog_leaves SET hash = ? WHERE match_id = ? AND position = 5",
        ["0" * 64, str(matches[1])],
    )
    (found,) = findings(location, matches[1])  # one finding, no event blamed as changed
    assert "the checkpoint tables no longer prove events" in found[1]
    assert " 5," in found[1] and "checkpoint 12" in found[1]
