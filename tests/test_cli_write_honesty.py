"""A write command succeeds exactly when it stored (issue 42), on SQLite and PostgreSQL.

Once the store has committed the entry, whatever fails while the command prints it (a rule's
description, the outcome's words, the receipt read back, signing the checkpoint) is one line on
stderr, `tablelog: stored, but ...`, and the command exits 0: the entry is in the store exactly
once. A failure before the commit exits non-zero and leaves every stored row as it was. In
process (click's runner), as tests/interop do."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tablelog import store as stores
from tablelog.cli import audit as audit_commands
from tablelog.cli import main
from tablelog.domain.games import get_rules
from tablelog.domain.integrity.ledger import Ledger
from tablelog.domain.integrity.signed import SigningRecorder
from tablelog.domain.matches import views
from tablelog.store import open_recorder
from tests.checkpoints.helpers import new_signer, signing
from tests.committing import AfterCommit, before_commit, disputed, opened
from tests.conftest import stored_rows
from tests.test_recorder import OPENING, play

TOPITOP = type(get_rules("topitop"))


def run(store: str, *args: str):
    return CliRunner().invoke(main, [*args, "--store", store])


# name: (the match it needs, the arguments)
WRITES = {
    "move": (opened, ["move", "M", "--seat", "Ann", '{"place": "large", "to": "a3"}']),
    "undo": (opened, ["undo", "M", "--by", "Ben", "--reason", "meant c2"]),
    "claim": (opened, ["claim", "M", "--by", "Ann", "--scores", '{"Ann": 0, "Ben": 0}']),
    "dispute": (opened, ["dispute", "M", "--by", "Ben", "--about", "the slide"]),
    "resolve": (disputed, ["resolve", "M", "--by", "Umpire", "--ruling", "it stands"]),
    "end": (opened, ["end", "M", "--draw"]),
    "abandon": (opened, ["abandon", "M", "--by", "Ann", "--reason", "closing time"]),
}
# What each prints its entry with once stored (`abandon` prints one fixed word).
PRINTERS = {
    "move": (TOPITOP, "describe"),
    "undo": (TOPITOP, "describe"),
    "claim": (audit_commands, "step"),
    "dispute": (audit_commands, "step"),
    "resolve": (audit_commands, "step"),
    "end": (views, "said_outcome"),
}
SIGNED = ["claim", "dispute", "resolve", "end"]


def arguments(recorder, write: str) -> list[str]:
    needs, args = WRITES[write]
    match_id = needs(recorder)
    return [match_id if arg == "M" else arg for arg in args]


def stored_once(before: list, after: list) -> None:
    assert after[: len(before)] == before and len(after) == len(before) + 1


@pytest.mark.parametrize("write", PRINTERS)
def test_printing_failing_after_the_commit_says_stored_and_exits_0(
    any_recorder, any_store, monkeypatch, write
):
    args = arguments(any_recorder, write)
    before = stored_rows(any_store)
    target, name = PRINTERS[write]
    AfterCommit(monkeypatch).breaks(target, name)
    result = run(any_store, *args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    after = stored_rows(any_store)
    stored_once(before, after)
    done = open_recorder(any_store).get(args[1])
    assert lines[0] == (
        f"tablelog: stored, but printing it failed: {name} broke after the commit (match "
        f"{done.id}, step {done.version - 1}, receipt {done.head_hash})"
    )


# Signing the checkpoint, or reading the signed receipt back to print it: what each then says.
SIGNING = {
    "signing": ((Ledger, "sign"), "tablelog: stored, but NOT signed: sign broke after the commit"),
    "receipt": (
        (SigningRecorder, "receipt"),
        "tablelog: stored, but printing it failed: receipt broke after the commit (match ",
    ),
}


@pytest.mark.parametrize("where", SIGNING)
@pytest.mark.parametrize("write", SIGNED)
def test_signing_failing_after_the_commit_says_stored(any_store, monkeypatch, write, where):
    signer = new_signer()
    args = arguments(signing(any_store, signer), write)
    monkeypatch.setattr(stores, "load_signer", lambda: signer)
    before = stored_rows(any_store)
    broken, said = SIGNING[where]
    AfterCommit(monkeypatch).breaks(*broken)
    result = run(any_store, *args)
    assert result.exit_code == 0
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(said)
    assert "receipt: " in result.stdout  # the entry's own receipt is printed before
    stored_once(before, stored_rows(any_store))


SHEET = ["sheet", "topitop", "--players", "Ann,Ben", "--score", "Ann=2", "--score", "Ben=0"]
STARTS = {
    "new": ["new", "topitop", "--players", "Ann,Ben"],
    "sheet": [*SHEET, "--winner", "Ann"],
}


@pytest.mark.parametrize("write", [*WRITES, *STARTS, "import"])
def test_a_failure_before_the_commit_fails_the_command_and_stores_nothing(
    any_recorder, any_store, monkeypatch, tmp_path, write
):
    if write == "import":
        source = open_recorder(str(tmp_path / "source.sqlite"))
        record = source.export(play(source, OPENING))  # a match new to the store
        (tmp_path / "match.jsonl").write_text(json.dumps(record) + "\n")
        args = ["import", str(tmp_path / "match.jsonl")]
    else:
        args = STARTS[write] if write in STARTS else arguments(any_recorder, write)
    before = stored_rows(any_store)
    before_commit(monkeypatch)
    result = run(any_store, *args)
    assert result.exit_code != 0
    assert "stored, but" not in result.output
    assert stored_rows(any_store) == before
