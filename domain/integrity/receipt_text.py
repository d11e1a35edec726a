"""A receipt as a few lines of text, for a phone photo at the table (or a QR code of them).

    tablelog-receipt/1
    match 9aadf8d2-fd52-4f83-8dba-78c90a44ec88 event 22
    hash 3809d991...  (64 hex digits)
    leaf 43 of 66 root 20be1fe9...
    signed 2026-12-01T14:52:54+00:00 key 57666b98a8069372
    sig C8Xng1eL...==
    proof 1f2e... 9a8b...          (only in the full text; the short one leaves it out)

Without the proof it still carries everything that was signed; `tablelog verify --store` takes
the proof from any copy of the store (a proof is no secret: anyone holding the leaves makes it).
"""

from __future__ import annotations

from typing import Any

from . import receipt_note
from .checkpoints import HEAD_FORMAT, RECEIPT_FORMAT, BadReceipt, check_receipt_shape, is_checkpoint


def to_text(receipt: dict[str, Any], proof: bool = False) -> str:
    head = receipt["head"]
    if is_checkpoint(head):  # a C2SP checkpoint: the text of receipt_note
        return receipt_note.to_text(receipt, proof)
    lines = [
        RECEIPT_FORMAT,
        f"match {receipt['match']} event {receipt['event']}",
        f"hash {receipt['hash']}",
        f"leaf {receipt['leaf']} of {head['size']} root {head['root']}",
        f"signed {head['time']} key {head['key']}",
        f"sig {head['signature']}",
    ]
    if proof and receipt.get("proof") is not None:
        lines.append("proof " + " ".join(receipt["proof"]))
    return "\n".join(lines) + "\n"


def from_text(text: str) -> dict[str, Any]:
    """The receipt `to_text` wrote (proof or not), or BadReceipt."""
    if text.lstrip().startswith(receipt_note.TEXT_FORMAT):
        return receipt_note.from_text(text)
    words: dict[str, list[str]] = {}
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    if not lines or lines[0] != [RECEIPT_FORMAT]:
        raise BadReceipt(f"a receipt's text starts with the line {RECEIPT_FORMAT}")
    for line in lines[1:]:
        for key, value in zip(line[::2], line[1::2]):
            words[key] = [value]
        if line[0] == "proof":
            words["proof"] = line[1:]
    try:
        receipt = {
            "format": RECEIPT_FORMAT,
            "match": words["match"][0],
            "event": receipt_note.count(words["event"][0], "event"),
            "hash": words["hash"][0],
            "leaf": receipt_note.count(words["leaf"][0], "leaf"),
            "head": {
                "format": HEAD_FORMAT,
                "size": receipt_note.count(words["of"][0], "size (leaf N of SIZE)"),
                "root": words["root"][0],
                "time": words["signed"][0],
                "key": words["key"][0],
                "signature": words["sig"][0],
            },
            "proof": words.get("proof"),
        }
    except KeyError as err:
        raise BadReceipt(f"the receipt's text lacks its {err.args[0]!r} word") from None
    return check_receipt_shape(receipt)
