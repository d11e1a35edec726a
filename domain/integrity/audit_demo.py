"""The demo store's planted examples: a claim with a scoring slip and a dispute left open.

The demo (tablelog/demo.py) shows what the audit finds, so a fresh store holds two findings on
purpose. Their entries are recorded by names ending in DEMO_MARK ("random-2 (demo)"), in the
events themselves, so the mark travels with an export. The audit lists what it finds there as
*planted*, apart from the findings, and a store whose only findings are planted audits clean:
a newcomer is not told their new store is broken. Only a claim's or a dispute's own finding can
be planted; a broken chain, a wrong end or a replay error in the same match still fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

from .audit_claims import Claim

DEMO_MARK = "(demo)"
PLANTABLE = ("claim", "dispute")

F = TypeVar("F", bound=Mapping[str, object])  # a finding, as the audit keeps it


def demo_name(name: str) -> str:
    """The name a planted entry is recorded by."""
    return f"{name} {DEMO_MARK}"


def is_planted(by: object) -> bool:
    return isinstance(by, str) and by.rstrip().endswith(DEMO_MARK)


def split_planted(
    findings: list[F], claims: Iterable[Claim], disputes: Iterable[Mapping[str, object]]
) -> tuple[list[F], list[F]]:
    """(findings, planted): the claim and dispute findings at entries made by a demo name are
    the planted ones."""
    marked: set[object] = {c.event for c in claims if is_planted(c.by)}
    marked |= {d["event"] for d in disputes if is_planted(d["by"])}
    planted = [f for f in findings if f["kind"] in PLANTABLE and f["event"] in marked]
    return [f for f in findings if f not in planted], planted
