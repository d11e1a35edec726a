"""The key holder: can re-sign a rewritten history, so the store alone looks clean, but not one
consistent with a head published earlier or a receipt kept earlier. Both stores."""

from __future__ import annotations

import pytest

from tablelog.domain.integrity.checkpoints import NotVerified
from tablelog.domain.integrity.merkle import ProofError, verify_consistency
from tablelog.domain.integrity.verify import against_store
from tablelog.store import open_recorder
from tests.audit.helpers import played_with_everything
from tests.checkpoints import surgery
from tests.checkpoints.helpers import audited, new_signer, signing


def test_a_re_signed_rewrite_fails_against_published_heads_and_kept_receipts(any_store):
    signer = new_signer()
    recorder = signing(any_store, signer)
    match_id = played_with_everything(recorder)
    published = recorder.checkpoint()  # mailed to the club
    kept = recorder.receipt(match_id)  # photographed at the table
    recorder.close()

    def reword(record):
        record["events"][17]["scores"] = {"Ann": 0, "Ben": 2}  # event 19, the claim

    rewriter = signing(any_store, signer, trust=False)
    surgery.rechain(rewriter, any_store, match_id, reword, since=19)
    surgery.wipe_checkpoints(any_store)
    rewriter.close()
    rewriter = signing(any_store, signer, trust=False)
    rewriter.start("topitop", ["Cy", "Di"])  # the log goes on after the rewrite
    resigned = rewriter.checkpoint()
    rewriter.close()

    reports, ledger = audited(any_store)
    assert ledger["clean"]  # the store alone is consistent with itself
    assert [f["kind"] for f in reports[str(match_id)]["findings"]] == ["claim"]  # rules see it

    _, checked = audited(any_store, against=[published])
    assert [f["kind"] for f in checked["findings"]] == ["published"]
    assert "rewritten here" in checked["findings"][0]["message"]

    with pytest.raises(NotVerified, match="no longer holds what the receipt signed"):
        against_store(open_recorder(any_store), kept)

    tree = open_recorder(any_store).ledger.tree()
    with pytest.raises(ProofError):
        verify_consistency(
            published["size"],
            resigned["size"],
            bytes.fromhex(published["root"]),
            bytes.fromhex(resigned["root"]),
            tree.consistency_proof(published["size"], resigned["size"]),
        )


def test_a_head_signed_by_another_key_is_not_trusted(any_store):
    recorder = signing(any_store, new_signer())
    played_with_everything(recorder)
    stranger = new_signer()
    forged = stranger.sign_head(5, bytes(32), "tablelog/stranger")
    _, checked = audited(any_store, against=[forged])
    assert "not trusted here" in checked["findings"][0]["message"]
