"""The checkpoints, the receipt and the proof docs/audit.md shows are real: each checkpoint
verifies with the verifier key the page gives, and the consistency proof joins the checkpoints
of 23 and 67 events, by the RFC 9162 verifier of test_proofs."""

from __future__ import annotations

import base64
import re
import textwrap
from pathlib import Path

from tablelog.domain.integrity import receipt_text, signed_note
from tests.checkpoints.test_proofs import checkpoint_root, consistency_holds, read_witness_body

PAGE = (Path(__file__).parents[2] / "docs" / "audit.md").read_text(encoding="utf-8")


def blocks(page: str) -> list[str]:
    """The page's fenced code blocks, dedented."""
    found: list[str] = []
    inside: list[str] | None = None
    for line in page.splitlines(keepends=True):
        if line.strip().startswith("```"):
            if inside is not None:
                found.append(textwrap.dedent("".join(inside)))
            inside = None if inside is not None else []
        elif inside is not None:
            inside.append(line)
    return found


BLOCKS = blocks(PAGE)


def test_the_page_s_checkpoints_verify_with_its_verifier_key():
    (vkey,) = set(re.findall(r"club\.example\.org/tablelog\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+", PAGE))
    name, public = signed_note.read_verifier_key(vkey)
    notes = [b for b in BLOCKS if b.startswith(name + "\n")]
    receipts = [b for b in BLOCKS if b.startswith("tablelog-receipt/2\n")]
    proofs = [b for b in BLOCKS if b.startswith("old ")]
    assert len(notes) == 1 and len(receipts) == 1 and len(proofs) == 1
    receipt = receipt_text.from_text(receipts[0])
    for note in [*notes, receipt["head"]["checkpoint"]]:
        assert signed_note.verified_by(signed_note.parse(note), [(name, public)])
    first, first_root = checkpoint_root(notes[0], public)
    old, proof, checkpoint = read_witness_body(proofs[0])
    second, second_root = checkpoint_root(checkpoint, public)
    assert (old, first, second) == (23, 23, 67) and receipt["head"]["size"] == 67
    assert consistency_holds(first, second, first_root, second_root, proof)
    assert base64.b64encode(second_root).decode() in PAGE
