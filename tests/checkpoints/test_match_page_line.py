"""The Match page says who signed the checkpoint covering a match, when, and whether it still
verifies against the store."""

from __future__ import annotations

from tablelog.dashboard.checkpoint import checkpoint_state
from tablelog.store import open_recorder
from tests.audit.helpers import played_with_everything
from tests.checkpoints import surgery
from tests.checkpoints.helpers import new_signer, signing


def test_the_line_says_signed_by_whom_and_verified_then_not(store):
    signer = new_signer()
    recorder = signing(store, signer)
    match_id = played_with_everything(recorder)
    line = checkpoint_state(recorder, match_id)
    assert f"by key {signer.key_id} (test)" in line and "; verified" in line
    surgery.delete(store, match_id, 9)
    assert "NOT VERIFIED" in checkpoint_state(open_recorder(store), match_id)


def test_an_unsigned_store_shows_nothing(recorder):
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    assert checkpoint_state(recorder, match_id) == ""
