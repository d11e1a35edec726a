"""What an audit collects as it goes: findings (something is wrong) and notes (worth knowing).

Shared by the checks of the log as stored (`audit_chain`) and the replay (`audit_claims`), so
every part of one audit adds to the same two lists.
"""

from __future__ import annotations

from typing import Any


class Findings:
    def __init__(self) -> None:
        self.findings: list[dict[str, Any]] = []
        self.notes: list[str] = []

    def find(self, position: int | None, kind: str, message: str, **details: object) -> None:
        self.findings.append({"event": position, "kind": kind, "message": message, **details})
