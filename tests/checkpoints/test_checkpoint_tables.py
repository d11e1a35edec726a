"""A forger without the key who edits the checkpoint tables themselves (both stores): the
signatures catch it, and the recorder refuses to sign on top of it, saying the entry it just
stored is unsigned."""

from __future__ import annotations

import json

from tests.audit.helpers import OPENING, play, played_with_everything
from tests.checkpoints import surgery
from tests.checkpoints.helpers import audited, new_signer, signing


def test_an_edited_head_no_longer_verifies_and_nothing_is_signed_on_top(any_store):
    recorder = signing(any_store, new_signer())
    played_with_everything(recorder)
    (head,) = surgery.sql(any_store, "SELECT head FROM tablelog_checkpoints WHERE seq = 4")[0:1]
    stored = json.loads(head[0])
    origin, size, rest = stored["checkpoint"].split("\n", 2)
    forged = {**stored, "checkpoint": f"{origin}\n21\n{rest}"}  # the note's size line
    assert size != "21"
    surgery.sql(
        any_store, "UPDATE tablelog_checkpoints SET head = ? WHERE seq = 4", [json.dumps(forged)]
    )
    _, ledger = audited(any_store)
    assert any(
        "checkpoint 4: the signature on the checkpoint of 21 events does not verify" in f["message"]
        for f in ledger["findings"]
    )
    later = play(recorder, OPENING)
    done = recorder.claim(later, "Ann", {"Ann": 0, "Ben": 0})
    assert "does not verify" in done.checkpoint_error and done.checkpoint is None
    assert recorder.get(later).version == 6  # the claim itself is stored, and said so


def test_an_edited_leaf_breaks_the_roots_it_signed(any_store):
    recorder = signing(any_store, new_signer())
    played_with_everything(recorder)
    surgery.sql(any_store, "UPDATE tablelog_leaves SET hash = ? WHERE leaf = 3", ["0" * 64])
    _, ledger = audited(any_store)
    messages = [f["message"] for f in ledger["findings"]]
    assert any("no longer give its root" in m for m in messages)


def test_checkpoints_deleted_while_keys_remain_is_a_finding(any_store):
    recorder = signing(any_store, new_signer())
    played_with_everything(recorder)
    surgery.wipe_checkpoints(any_store)
    _, ledger = audited(any_store)
    assert [f["kind"] for f in ledger["findings"]] == ["checkpoint"]
    assert "holds no checkpoint" in ledger["findings"][0]["message"]


def test_an_altered_tree_node_is_a_finding_and_receipts_still_verify_before(any_store):
    from uuid import uuid4

    from tablelog.domain.integrity.verify import against_store
    from tablelog.domain.matches.match import start_match
    from tests.test_recorder import WIN

    recorder = signing(any_store, new_signer())
    matches = []
    for _ in range(70):  # 70 x 16 events: the tree keeps a node of 1,024 leaves
        match = start_match(uuid4(), "topitop", ["Ann", "Ben"])
        for seat, move in WIN:
            match.record(seat, move)
        matches.append(match)
    recorder.save(*matches)
    recorder.checkpoint()
    receipt = recorder.receipt(matches[3].id)
    assert against_store(recorder, dict(receipt))
    assert surgery.sql(any_store, "SELECT COUNT(*) FROM tablelog_nodes")[0][0] == 1
    surgery.sql(any_store, "UPDATE tablelog_nodes SET hash = ?", ["1" * 64])
    _, ledger = audited(any_store)
    assert [f["message"][:40] for f in ledger["findings"]] == [
        "the tree nodes kept for proofs were alte"
    ]
