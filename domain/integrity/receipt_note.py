"""A receipt whose head is a C2SP checkpoint, as text (`receipt_text` writes the older ones):
a few lines naming the event and its leaf, then, after a blank line, the signed checkpoint
verbatim, so the part below the blank line checks with any signed-note verifier.

    tablelog-receipt/2
    match 9aadf8d2-fd52-4f83-8dba-78c90a44ec88 event 22
    hash 3809d991...                       (the event's chain hash, 64 hex digits)
    leaf 43 key 57666b98a8069372           (its leaf in the signed tree; the key that signed)
    proof 1f2e... 9a8b...                  (only in the full text, hex; a store supplies it)

    club.example.org/tablelog
    66
    IL4f6eMb...=
    time 1764600774

    — club.example.org/tablelog V2ZrmKj...
"""

from __future__ import annotations

import re
from typing import Any

from ..quoting import quoted
from .checkpoints import CHECKPOINT_FORMAT, RECEIPT_FORMAT, BadReceipt, check_receipt_shape

TEXT_FORMAT = "tablelog-receipt/2"
NUMBER = re.compile(r"[0-9]{1,18}")  # a store's positions are 64-bit


def to_text(receipt: dict[str, Any], proof: bool = False) -> str:
    lines = [
        TEXT_FORMAT,
        f"match {receipt['match']} event {receipt['event']}",
        f"hash {receipt['hash']}",
        f"leaf {receipt['leaf']} key {receipt['head']['key']}",
    ]
    if proof and receipt.get("proof") is not None:
        lines.append("proof " + " ".join(receipt["proof"]))
    return "\n".join(lines) + "\n\n" + receipt["head"]["checkpoint"]


def from_text(text: str) -> dict[str, Any]:
    """The receipt `to_text` wrote (proof or not; indented or not), or BadReceipt."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").strip().split("\n")]
    if lines[0] != TEXT_FORMAT or "" not in lines:
        raise BadReceipt(
            f"a receipt's text starts with the line {TEXT_FORMAT}, and its signed "
            "checkpoint follows a blank line"
        )
    blank = lines.index("")
    words: dict[str, list[str]] = {}
    for line in lines[1:blank]:
        parts = line.split()
        if parts and parts[0] == "proof":
            words["proof"] = parts[1:]
            continue
        for key, value in zip(parts[::2], parts[1::2]):
            words[key] = [value]
    try:
        receipt = {
            "format": RECEIPT_FORMAT,
            "match": words["match"][0],
            "event": count(words["event"][0], "event"),
            "hash": words["hash"][0],
            "leaf": count(words["leaf"][0], "leaf"),
            "head": {
                "format": CHECKPOINT_FORMAT,
                "checkpoint": "\n".join(lines[blank + 1 :]) + "\n",
                "key": words["key"][0],
            },
            "proof": words.get("proof"),
        }
    except KeyError as err:
        raise BadReceipt(f"the receipt's text lacks its {err.args[0]!r} word") from None
    return check_receipt_shape(receipt)


def count(word: str, what: str) -> int:
    """A count in a receipt's text (either format), or BadReceipt naming `what`."""
    if not NUMBER.fullmatch(word):
        raise BadReceipt(f"the receipt's {what} is not a count of events: {quoted(word)}")
    return int(word)
