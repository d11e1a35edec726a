"""Two recorders signing into one store at once (both stores): every checkpoint verifies, each
extends the one before, and every event ends up signed exactly once."""

from __future__ import annotations

import threading

from tests.audit.helpers import OPENING, play
from tests.checkpoints.helpers import audited, new_signer, signing


def test_two_recorders_claiming_at_once_leave_a_consistent_signed_log(any_store):
    signer, umpire = new_signer(), new_signer()
    first = signing(any_store, signer)
    first.ledger.trust(umpire.key_id, umpire.public_raw, "umpire")
    recorders = [first, signing(any_store, umpire, trust=False)]
    errors: list[Exception] = []

    def table(recorder, name):
        try:
            for _round in range(4):
                match_id = play(recorder, OPENING)
                done = recorder.claim(match_id, name, {"Ann": 0, "Ben": 0})
                assert done.checkpoint_error is None
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [
        threading.Thread(target=table, args=(r, n)) for r, n in zip(recorders, ["Ann", "Ben"])
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    recorders[0].checkpoint()
    reports, ledger = audited(any_store)
    assert ledger["clean"], ledger["findings"]
    assert ledger["uncovered"] == 0 and len(reports) == 8
    assert {c["key"] for c in ledger["checkpoints"]} == {signer.key_id, umpire.key_id}
