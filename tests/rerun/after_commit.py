"""Failures injected around a write's commit (issue 42: two 5xx stored their write anyway; the
rule is that a write answers success exactly when it stored). tests/committing.py's injections,
over the writes of tests/api/test_write_honesty.py and tests/test_cli_write_honesty.py: after
the commit, rendering the state, reading the receipt back, signing the checkpoint and printing
fail; before it, the save itself. Round after round until `size` writes were tried.

Counted: after the commit, a 5xx or a traceback out of the command (before it, an unforeseen
failure of the store may honestly be one); an error answered for a write that stored; a success
answered for a write that stored nothing."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from tablelog import store as stores
from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.domain.integrity.ledger import Ledger
from tests import test_cli_write_honesty as by_cli
from tests.api import test_write_honesty as by_api
from tests.checkpoints.helpers import new_signer, signing
from tests.committing import AfterCommit, before_commit
from tests.conftest import stored_rows
from tests.rerun.tally import Tally, release

# (door, write, what breaks: ("after", target, name) or ("before",)); the signing ones sign.
Attempt = tuple[str, str, tuple]


def attempts() -> list[Attempt]:
    after_api = [
        ("api", w, ("after", *by_api.AFTER[k])) for w in by_api.WRITES for k in by_api.AFTER
    ]
    after_cli = [("cli", w, ("after", *by_cli.PRINTERS[w])) for w in by_cli.PRINTERS]
    signed = [
        (door, w, ("after", Ledger, "sign")) for door in ("api", "cli") for w in by_api.SIGNED
    ]
    before = [("api", w, ("before",)) for w in by_api.WRITES]
    before += [("cli", w, ("before",)) for w in by_cli.WRITES]
    return after_api + after_cli + signed + before


def run(store: str, size: int) -> Tally:
    tally = Tally("failures after the commit").measures(
        "server_errors", "tracebacks", "stored_but_refused", "said_stored_but_lost"
    )
    for door, write, breaks in itertools.islice(itertools.cycle(attempts()), size):
        stored, answered = attempt(store, door, write, breaks)
        tally.tried += 1
        broken = breaks[-1] if breaks[0] == "after" else "the save"
        said = f"{door} {write}, {broken} broken {breaks[0]} the commit"
        # Before the commit the injected failure is an unforeseen one (a store failing): a 500
        # or a traceback is its honest answer. After it, only a success is.
        if answered == "crashed" and breaks[0] == "after":
            tally.add("tracebacks", said)
        elif answered == "5xx" and breaks[0] == "after":
            tally.add("server_errors", said)
        if stored and answered != "success":
            tally.add("stored_but_refused", f"{said}: answered {answered}, yet stored")
        if not stored and answered == "success":
            tally.add("said_stored_but_lost", f"{said}: answered success, nothing stored")
    return tally


def attempt(store: str, door: str, write: str, breaks: tuple) -> tuple[bool, str]:
    """(whether the write stored, how it was answered: success, error, 5xx or crashed)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        signer = new_signer()
        recorder = signing(store, signer)
        monkeypatch.setattr(stores, "load_signer", lambda: signer)
        try:
            by = _by_api if door == "api" else _by_cli
            return by(store, recorder, write, lambda: _inject(monkeypatch, breaks))
        finally:
            recorder.close()


def _inject(monkeypatch: Any, breaks: tuple) -> None:
    if breaks[0] == "before":
        before_commit(monkeypatch)
    else:
        AfterCommit(monkeypatch).breaks(breaks[1], breaks[2])


def _by_api(store: str, recorder, write: str, inject: Callable[[], None]) -> tuple[bool, str]:
    client = create_app(recorder, WritePolicy()).test_client()
    target = by_api.url(recorder, write)
    body = by_api.WRITES[write][2]
    before = stored_rows(store)
    inject()
    answer = client.post(target, json=body)
    stored = len(stored_rows(store)) > len(before)
    if answer.status_code >= 500:
        return stored, "5xx"
    return stored, "success" if answer.status_code < 300 else "error"


def _by_cli(store: str, recorder, write: str, inject: Callable[[], None]) -> tuple[bool, str]:
    args = by_cli.arguments(recorder, write)
    before = stored_rows(store)
    inject()
    result = CliRunner().invoke(main, [*args, "--store", store])
    release(store)
    stored = len(stored_rows(store)) > len(before)
    if not isinstance(result.exception, SystemExit | None):
        return stored, "crashed"
    return stored, "success" if result.exit_code == 0 else "error"
