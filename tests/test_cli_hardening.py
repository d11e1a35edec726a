"""The command line under hostile input (issue 20, items 2 and 4): every refusal is one line on
stderr and exit status 2, never a traceback, and the store is unchanged. Real processes with raw
bytes in argv for the issue's reproductions; click's CliRunner for the fuzzing (in process, so
hundreds of inputs stay fast)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tests.conftest import stored_rows
from tests.hostile import JSON, OBJECTS, TEXT, as_text
from tests.test_recorder import OPENING, play


def run(store: str | None, *args: str | bytes) -> subprocess.CompletedProcess:
    """`tablelog ARGS` in a process of its own; bytes arguments reach argv undecoded."""
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    env.pop("TABLELOG_STORE", None)
    if store is not None:
        env["TABLELOG_STORE"] = store
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args], env=env, capture_output=True, timeout=60
    )


def refused(result: subprocess.CompletedProcess, words: str) -> None:
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert words in stderr


@pytest.fixture
def opened(any_recorder):
    """A Topitop match after the opening (Ann to move), on SQLite and on PostgreSQL."""
    return str(play(any_recorder, OPENING))


ISSUE_20 = [
    (
        ["move", "M", "--seat", "Ann", '{"place": ["small", "small"], "to": "a1"}'],
        "place must be bucket, small or large",
    ),
    (["move", "M", "--seat", "Ann", '{"place": {"a": 1}, "to": "a1"}'], "place must be"),
    (["move", "M", "--seat", "Ann", "1" * 4301], "more than 4,300 digits"),
    (["move", "M", "--seat", "Ann", "[" * 40 + "]" * 40], "nested more than 32 deep"),
    (["move", "M", "--seat", "Ann", "[" * 900 + "]" * 900], "nested too deep to read"),
    (["move", "M", "--seat", "Ann", "[" * 100_000], "nested too deep"),
    (["move", "M", "--seat", "²", '{"place": "small", "to": "c1"}'], "not a seat"),
    (["move", "M", "--seat", "١", '{"place": "small", "to": "c1"}'], "not a seat"),
    (["move", "M", "--seat", b"\xff", '{"place": "small", "to": "c1"}'], "not a seat"),
    (["move", "M", "--seat", "Ann", "-1"], "a Topitop move is a JSON object, got -1"),
    (["move", "M", "--seat", "Ann", b'{"place": "small", "to": "\xff"}'], "not valid UTF-8"),
    (
        ["claim", "M", "--by", "Ann", "--scores", '{"Ann": 99999999999999999999999}'],
        "cannot be stored exactly",
    ),
    (["claim", "M", "--by", b"Ann\xff", "--scores", '{"Ann": 2}'], "not valid UTF-8"),
    (["dispute", "M", "--by", "Ben", "--about", b"the slide \xc3\x28"], "not valid UTF-8"),
    (
        ["undo", "M", "--by", "Ben", "--reason", "a\x01\udc80".encode("utf-8", "surrogateescape")],
        "not valid UTF-8",
    ),
    (["new", "topitop", "--players", b"A\xffn,Ben"], "not valid UTF-8"),
    (["new", "topitop", "--players", "Ann,Ben", "--option", "x=" + "9" * 30], "cannot be stored"),
    (["show", "M", "--at", "99999999999999999999999"], "not in the range"),
    (["show", "M", "--bogus"], "No such option"),  # click's usage errors: one line too
    (["stats", "topitop", "--players", "-1"], "not in the range x>=1"),  # was "no matches"
    (["stats", "topitop", "--players", "0"], "not in the range x>=1"),
]


@pytest.mark.parametrize(("args", "words"), ISSUE_20)
def test_the_issue_s_reproductions_are_one_line_refusals(any_store, opened, args, words):
    before = stored_rows(any_store)
    refused(run(any_store, *[opened if a == "M" else a for a in args]), words)
    assert stored_rows(any_store) == before


def test_a_seat_number_is_ascii_digits_only(store):
    """'١' (Arabic-Indic one) was taken as seat 1; '1' still is."""
    match_id = run(store, "new", "topitop", "--players", "Ann,Ben").stdout.decode().strip()
    assert (
        run(store, "move", match_id, "--seat", "1", '{"place": "small", "to": "c1"}').returncode
        == 0
    )


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"removed": "Elephant\xff"}', "not UTF-8 text (byte 22 is not)"),
        (b'{"removed": ' + b"[" * 50_000 + b"}", "nested too deep"),
        (b'{"garden": {"c3": ' + b"7" * 5000 + b"}}", "more than 4,300 digits"),
        (b'{"removed": "' + b"x" * (2 << 20) + b'"}', "larger than 1 MiB"),
    ],
)
def test_a_setup_file_that_cannot_be_read_is_one_line(store, tmp_path, content, words):
    setup = tmp_path / "setup.json"
    setup.write_bytes(content)
    refused(run(store, "new", "topiary", "--players", "Ann,Ben", "--setup", str(setup)), words)
    assert stored_rows(store) == []


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: d / "missing-dir" / "a.sqlite", "does not exist"),
        (lambda d: _write(d / "empty.sqlite", b""), "not a Tablelog store (an empty file)"),
        (lambda d: _write(d / "notes.txt", b"shopping list\n"), "not an SQLite database"),
        (lambda d: _other_database(d / "other.db"), "another program's SQLite database"),
    ],
)
def test_a_store_path_that_is_not_a_store_is_refused_and_left_alone(tmp_path, make, words):
    path = make(tmp_path)
    before = path.read_bytes() if path.exists() else None
    for args in (["list"], ["new", "topitop", "--players", "Ann,Ben"]):
        refused(run(None, *args, "--store", str(path)), words)
    assert (path.read_bytes() if path.exists() else None) == before
    assert path.parent.exists() == (before is not None)  # no directory made either


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def _other_database(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    return path


# ---- fuzzing, in process ------------------------------------------------------------------------

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def fuzzed(store):
    """A Topitop match after the opening, entered through CliRunner, and the runner."""
    runner = CliRunner()
    started = runner.invoke(main, ["new", "topitop", "--players", "Ann,Ben", "--store", store])
    match_id = started.stdout.strip()
    for seat, move in OPENING:
        runner.invoke(main, ["move", match_id, "--seat", seat, json.dumps(move), "--store", store])
    return runner, match_id


def _commands(match_id: str, text: str, name: str) -> dict[str, list[str]]:
    return {
        "move": ["move", match_id, "--seat", name, text],
        "claim": ["claim", match_id, "--by", name, "--scores", text],
        "dispute": ["dispute", match_id, "--by", name, "--about", text],
        "new": ["new", "topitop", "--players", f"{name},{text}"],
        "option": ["new", "topitop", "--players", "Ann,Ben", "--option", f"{name}={text}"],
    }


@FUZZ
@given(
    command=st.sampled_from(["move", "claim", "dispute", "new", "option"]),
    value=JSON | OBJECTS,
    name=TEXT,
    raw=st.booleans(),
)
def test_hostile_arguments_get_one_line_or_success_never_a_traceback(
    fuzzed, store, command, value, name, raw
):
    runner, match_id = fuzzed
    text = value if raw and isinstance(value, str) else as_text(value)
    before = stored_rows(store)
    result = runner.invoke(main, [*_commands(match_id, text, name)[command], "--store", store])
    if result.exit_code == 0:
        return
    assert result.exit_code == 2, result.exception
    assert isinstance(result.exception, SystemExit)  # sys.exit(2), not an uncaught error
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert stored_rows(store) == before


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    command=st.sampled_from(["move", "dispute", "new"]),
    first=st.binary(max_size=12).filter(lambda b: b"\x00" not in b),
    second=st.binary(max_size=24).filter(lambda b: b"\x00" not in b),
)
def test_raw_bytes_in_argv_get_one_line_or_success(store, command, first, second):
    """Real processes, real argv: bytes that are not UTF-8 reach Python as lone surrogates."""
    match_id = run(store, "new", "topitop", "--players", "Ann,Ben").stdout.decode().strip()
    before = stored_rows(store)
    args = {
        "move": ["move", match_id, "--seat", first, second],
        "dispute": ["dispute", match_id, "--by", first, "--about", second],
        "new": ["new", "topitop", "--players", first + b"," + second],
    }[command]
    result = run(store, *args)
    if result.returncode != 0:
        refused(result, "tablelog")
        assert stored_rows(store) == before
