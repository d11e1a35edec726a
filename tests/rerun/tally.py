"""What one category of the re-run counts, and the table of them all."""

from __future__ import annotations

import dataclasses
import gc
import itertools
import logging
from collections.abc import Iterator
from contextlib import contextmanager

# The counts, in the table's order, with their headings. A count a category cannot measure is
# None ("-" in the table): a kill answers nothing, so it cannot refuse.
COUNTS = {
    "server_errors": "5xx",
    "tracebacks": "tracebacks",
    "untidy": "refusals not one line",
    "stored_but_refused": "stored but refused",
    "said_stored_but_lost": "said stored, not stored",
    "wrong_replays": "wrong replays",
}
KEPT = 5  # examples of each kind of failure kept for the report


@dataclasses.dataclass
class Tally:
    category: str
    tried: int = 0
    server_errors: int | None = None
    tracebacks: int | None = None
    untidy: int | None = None
    stored_but_refused: int | None = None
    said_stored_but_lost: int | None = None
    wrong_replays: int | None = None
    seconds: float = 0.0
    examples: list[str] = dataclasses.field(default_factory=list)

    def measures(self, *counts: str) -> Tally:
        """Start counting these (0 rather than "not measured")."""
        for count in counts:
            setattr(self, count, 0)
        return self

    def add(self, count: str, what: str) -> None:
        setattr(self, count, (getattr(self, count) or 0) + 1)
        if len(self.examples) < KEPT * len(COUNTS):
            self.examples.append(f"{COUNTS[count]}: {what[:300]}")

    def failures(self) -> int:
        return sum(getattr(self, count) or 0 for count in COUNTS)


def table(tallies: list[Tally]) -> str:
    """A Markdown table of the tallies, one row a category."""
    head = ["category", "tried", *COUNTS.values(), "seconds"]
    rows = [
        [
            t.category,
            str(t.tried),
            *["-" if getattr(t, c) is None else str(getattr(t, c)) for c in COUNTS],
            f"{t.seconds:.0f}",
        ]
        for t in tallies
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


class _Caught(logging.Handler):
    """Log records that carry an exception: a server's traceback, however it was answered."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


@contextmanager
def logged_tracebacks() -> Iterator[list[logging.LogRecord]]:
    """The tracebacks logged meanwhile (Flask logs an unhandled exception before its 500)."""
    handler = _Caught()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


def each_drawn(strategy, size: int, body) -> None:
    """`body(value)` for `size` values drawn from a hypothesis strategy (fewer if it holds
    fewer), the same values every run (derandomized), none shrunk or kept in a database: the
    body counts, it does not fail."""
    from hypothesis import HealthCheck, Phase, given, settings

    @settings(
        max_examples=size,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def run(value):
        if failed:
            return
        try:
            body(value)
        except Exception as err:  # noqa: BLE001 - the harness's own fault: raised below, where
            failed.append(err)  # hypothesis does not try to print a 3,000-deep value first

    failed: list[Exception] = []
    run()
    if failed:
        raise failed[0]


def short(value: object, most: int = 240) -> str:
    """A value as text for a report, however deep (str() of 3,000 nested lists recurses)."""
    if isinstance(value, bytes | str):
        return repr(value[:most])
    from tests.hostile import as_text

    try:
        return as_text(value)[:most]
    except (TypeError, ValueError):
        return type(value).__name__


_invoked = itertools.count()


def release(store: str) -> None:
    """After a command run in this process on PostgreSQL: its recorder's connections close
    when the garbage collector finds them (a real `tablelog` process closes them on exit), about
    five a command. Collect every few commands, so that a long run never holds many of the
    shared server's 100."""
    if store.startswith("postgresql") and next(_invoked) % 4 == 0:
        gc.collect()
