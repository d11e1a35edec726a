"""The body of a C2SP transparency log checkpoint (c2sp.org/tlog-checkpoint): the origin line
(who keeps the log), the tree size in decimal, the RFC 6962/9162 root hash in base64, then
optional extension lines. Signed as a note (`signed_note`), it is a checkpoint.

Tablelog adds one extension line, `time <POSIX seconds>`, the moment the recorder signed (the
spelling of tlog-cosignature's timestamp line): the log's key signs it with the rest, so a
receipt says when, as a `tablelog-head/1` head did. Witnesses and monitors ignore it (the spec
calls extension lines opaque); a checkpoint without it reads with no time.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from datetime import UTC, datetime

SIZE = re.compile(r"0|[1-9][0-9]{0,18}")  # ASCII decimal, no leading zero, below 10**19
TIME = re.compile(r"time (0|[1-9][0-9]{0,10})")  # POSIX seconds, before the year 5138


class MalformedCheckpoint(ValueError):
    pass


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes  # 32 bytes
    time: datetime | None = None

    def body(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode()]
        if self.time is not None:
            lines.append(f"time {int(self.time.timestamp())}")
        return "\n".join(lines) + "\n"


def read_body(text: str) -> Checkpoint:
    """A checkpoint body (a note's text, with its final newline), or MalformedCheckpoint."""
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "" or "" in lines[:-1]:  # the origin may hold spaces
        raise MalformedCheckpoint(
            "a checkpoint is at least three non-empty lines: origin, tree size, root hash"
        )
    origin, size, root, *extensions = lines[:-1]
    if not SIZE.fullmatch(size):
        raise MalformedCheckpoint("the checkpoint's tree size is not a decimal number")
    try:
        hashed = base64.b64decode(root, validate=True)
    except (binascii.Error, ValueError):
        hashed = b""
    if len(hashed) != 32:
        raise MalformedCheckpoint("the checkpoint's root hash is not 32 bytes in base64")
    times = [TIME.fullmatch(line) for line in extensions]
    when = next((datetime.fromtimestamp(int(m[1]), UTC) for m in times if m), None)
    return Checkpoint(origin, int(size), hashed, when)
