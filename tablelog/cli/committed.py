"""What a write command does once the store has committed its entry.

Printing the entry back (its description, its receipt, its signed receipt) can still fail: a
rule's description with a bug in it, a store that cannot be read back. The entry is stored all the
same, so the command says so in one line on stderr and exits 0, like any write that stored; a
refusal (exit 2) always means that nothing was stored. The signing recorder says `stored, but NOT
signed: REASON` in the same shape (`checkpoints.echo_signed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from tablelog.domain.integrity.audit_text import step
from tablelog.domain.recording.stored import stored_but

from . import one_line


@contextmanager
def after_commit(done: object) -> Iterator[None]:
    """Run what a command prints about `done` (the match after its entry, or a new match's id)
    once the entry is stored: a failure there is `tablelog: stored, but printing it failed:
    REASON (match, step, receipt)` on stderr, and the command goes on to exit 0."""
    try:
        yield
    except Exception as err:  # noqa: BLE001 - anything at all: the entry is stored
        click.echo(
            f"tablelog: {one_line(stored_but('printing it failed', err))}{_where(done)}", err=True
        )


def _where(done: Any) -> str:
    """The stored entry, so that it can be found without the lines that failed."""
    try:
        if not hasattr(done, "version"):
            return f" (match {done})"
        return f" (match {done.id}, {step(done.version)}, receipt {done.head_hash})"
    except Exception:  # noqa: BLE001 - a line without them still says it is stored
        return ""
