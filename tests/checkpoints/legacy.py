"""The signing of the code before issue 45 (commit 1082cc9), kept to make stores and receipts
of the first head format (`tablelog-head/1`) on both stores: a head as JSON, signed with Ed25519
over the canonical JSON of its other five fields."""

from __future__ import annotations

import base64
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from tablelog.domain.integrity.checkpoints import Signer
from tablelog.domain.matches.match import canonical_json


def sign_head(
    self: Signer, size: int, root: bytes, origin: str = "", when: datetime | None = None
) -> dict[str, Any]:
    """Signer.sign_head as it was (the origin did not exist: it is ignored)."""
    when = when or datetime.now(UTC)
    head = {
        "format": "tablelog-head/1",
        "size": size,
        "root": root.hex(),
        "time": when.isoformat(timespec="seconds"),
        "key": self.key_id,
    }
    signature = self.private_key.sign(canonical_json(head))
    return {**head, "signature": base64.b64encode(signature).decode()}


@contextmanager
def signing_the_old_way(monkeypatch):
    """Within: every checkpoint signed is a `tablelog-head/1` head, as that code signed it."""
    with monkeypatch.context() as patched:
        patched.setattr(Signer, "sign_head", sign_head)
        yield
