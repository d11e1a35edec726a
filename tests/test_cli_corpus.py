"""The command line's fuzz corpus (issue 42), kept: every input that once gave a traceback, a
silent change or 100 KB echoed back, and a fuzz over commands and arguments, on both stores.

The property for every refusal: exit status 2, stderr exactly one line starting `tablelog:`
(quoting at most 80 characters of any input), no traceback, and the store byte-identical before
and after (the SQLite file itself; PostgreSQL's event rows), with no file or directory left
behind. In process (click's CliRunner) so that hundreds of inputs stay fast; two real processes
check the issue's own lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tablelog.domain.errors import Refused
from tablelog.domain.integrity.receipt_text import to_text
from tablelog.domain.integrity.signed import SigningRecorder
from tablelog.keys import create_key
from tablelog.projections.runner import TablesProjection
from tablelog.store import DEFAULT_STORE, is_postgres, open_recorder
from tests.conftest import stored_rows
from tests.hostile import JSON, TEXT, as_text
from tests.test_recorder import OPENING, play

# The longest refusal line: our words (a move's shapes, the known games) and at most 80
# characters of each input quoted. 100 KB echoed back fails it.
LONGEST = 400
HUGE = "x" * 100_000
DEEP = ("[" * 100_000).encode()
DIGITS = "9" * 5000
SIDE = ("-wal", "-shm", "-journal")  # SQLite's own files beside the store


@pytest.fixture(autouse=True)
def own_key_file(tmp_path, monkeypatch):
    """This test's signing key, never the user's ~/.config one."""
    monkeypatch.setenv("TABLELOG_KEY_FILE", str(tmp_path / "key.pem"))
    monkeypatch.delenv("TABLELOG_STORE", raising=False)
    monkeypatch.delenv("TABLELOG_SIGNING_KEY", raising=False)


class Club:
    """A store with a Topitop match after the opening, a signed claim, its receipt, its record
    and the public key, and the projection caught up; every connection closed, so that the
    store's bytes stand still until a command writes."""

    def __init__(self, location: str, folder: Path) -> None:
        self.location, self.folder = location, folder
        recorder = open_recorder(location)
        signer, _ = create_key()
        recorder.ledger.trust(signer.key_id, signer.public_raw, "tests")
        self.match = str(play(recorder, OPENING))
        recorder.claim(self.match, "Ann", {"Ann": 0, "Ben": 0})
        receipt = recorder.receipt(self.match)
        assert receipt is not None  # the claim signed a checkpoint
        self.receipt: dict[str, Any] = receipt
        self.record = recorder.export(self.match)
        TablesProjection(recorder).catch_up()
        recorder.close()
        from tablelog.domain.integrity.checkpoints import public_pem

        self.pem = public_pem(signer.public_raw)

    def file(self, name: str, content: bytes | str) -> str:
        path = self.folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return str(path)

    def state(self) -> tuple:
        """What must not change on a refusal: every row of the store (SQLite: of every table,
        the projection's too, as SQL text; PostgreSQL: the event rows) and what is in the
        test's directory. Rows rather than the SQLite file's bytes: when this process closes a
        connection is up to its garbage collector, and closing folds the write-ahead log into
        the file (the same rows, other bytes)."""
        listing = sorted(p.name for p in self.folder.iterdir() if not p.name.endswith(SIDE))
        if is_postgres(self.location):
            return stored_rows(self.location), listing
        with contextlib.closing(sqlite3.connect(self.location)) as db:
            return "\n".join(db.iterdump()), listing


@pytest.fixture
def club(any_store, tmp_path) -> Club:
    folder = tmp_path / "club"
    folder.mkdir()
    location = any_store if is_postgres(any_store) else str(folder / "store.sqlite")
    return Club(location, folder)


def invoke(club: Club, args: list[str], store: bool = True) -> Result:
    """`tablelog ARGS --store STORE` in this process."""
    return CliRunner().invoke(
        main, [*args, *(["--store", club.location] if store else [])], prog_name="tablelog"
    )


def refused(result: Result, words: str = "") -> str:
    """The refusal's one line (the property every refusal keeps)."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # not a traceback
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablelog: "), result.stderr[:500]
    assert len(lines[0]) <= LONGEST, lines[0][:500]
    assert words in lines[0], lines[0]
    return lines[0]


def refused_unchanged(club: Club, args: list[str], words: str = "") -> str:
    before = club.state()
    line = refused(invoke(club, args), words)
    assert club.state() == before
    return line


# ---- the issue's list ------------------------------------------------------------------------


def _receipt_text(club: Club) -> str:
    return to_text(club.receipt, proof=True)


def _huge_event_text(club: Club) -> str:
    return _receipt_text(club).replace(f" event {club.receipt['event']}", f" event 1{'0' * 5000}")


def _huge_event_json(club: Club) -> str:
    return json.dumps(club.receipt).replace(
        f'"event": {club.receipt["event"]}', f'"event": {DIGITS}'
    )


CORPUS = {
    "import /dev/zero": (lambda c: ["import", "/dev/zero"], "'/dev/zero' is a device"),
    "verify /dev/zero": (lambda c: ["verify", "/dev/zero"], "'/dev/zero' is a device"),
    "new --manifest-file /dev/zero": (
        lambda c: ["new", "topas", "--players", "Ann,Ben", "--manifest-file", "/dev/zero"],
        "is a device",
    ),
    "new --setup /dev/zero": (
        lambda c: ["new", "topiary", "--players", "Ann,Ben", "--setup", "/dev/zero"],
        "is a device",
    ),
    "audit --against /dev/zero": (
        lambda c: ["audit", "--all", "--against", "/dev/zero"],
        "is a device",
    ),
    "export -o /dev/full": (
        lambda c: ["export", c.match, "-o", "/dev/full"],
        "no space left on device",
    ),
    "a binary PEM to keys trust": (
        lambda c: ["keys", "trust", c.file("key.pem", b"\x00\xff\xfe-----BEGIN")],
        "is not UTF-8 text (byte 2 is not)",
    ),
    "a binary PEM to verify --key": (
        lambda c: [
            "verify",
            "--record",
            c.file("match.jsonl", json.dumps(c.record)),
            "--key",
            c.file("bin.pem", b"\xc3\x28"),
        ],
        "is not UTF-8 text",
    ),
    "a binary PEM to audit --key": (
        lambda c: ["audit", c.match, "--key", c.file("bin.pem", bytes(range(256)))],
        "is not UTF-8 text",
    ),
    "a binary heads file": (
        lambda c: ["audit", "--all", "--against", c.file("head.json", b'{"size": \xff}')],
        "is not UTF-8 text",
    ),
    "a binary receipt": (
        lambda c: ["verify", c.file("receipt.txt", b"tablelog-receipt/1\n\xff")],
        "is not UTF-8 text",
    ),
    "a receipt's text with a 5,000-digit event": (
        lambda c: ["verify", c.file("receipt.txt", _huge_event_text(c))],
        "the receipt's event is not a count of events",
    ),
    "a receipt's JSON with a 5,000-digit event": (
        lambda c: ["verify", c.file("receipt.json", _huge_event_json(c))],
        "more than 4,300 digits",
    ),
    "a receipt's JSON with a count past 64 bits": (
        lambda c: [
            "verify",
            c.file("receipt.json", json.dumps({**c.receipt, "leaf": 10**40})),
        ],
        "event and leaf are numbers",
    ),
    "a receipt nested deep": (
        lambda c: ["verify", c.file("receipt.json", b'{"a":' * 50_000)],
        "nested too deep",
    ),
    "deeply nested JSON in audit --against": (
        lambda c: ["audit", "--all", "--against", c.file("heads.json", DEEP)],
        "nested too deep to read",
    ),
    "deeply nested JSON Lines in audit --against": (
        lambda c: ["audit", "--all", "--against", c.file("heads.jsonl", b"{}\n" + DEEP)],
        "line 2, is nested too deep to read",
    ),
    "a 5,000-digit head size": (
        lambda c: ["audit", "--all", "--against", c.file("h.json", '{"size": ' + DIGITS + "}")],
        "more than 4,300 digits",
    ),
    "an over-long --zone on export": (
        lambda c: ["export", "--to", "bgg", "--all", "--zone", "A" * 100_000],
        "is not a time zone",
    ),
    "an over-long --zone on import": (
        lambda c: ["import", "--from", "bgstats", c.file("p.json", "{}"), "--zone", HUGE],
        "is not a time zone",
    ),
    "a --zone naming a directory of the zone database": (
        lambda c: ["export", "--to", "bgstats", "--all", "--zone", "America"],
        "'America' is not a time zone",
    ),
    "export-tables /proc/self": (
        lambda c: ["export-tables", "/proc/self"],
        "cannot write the tables to '/proc/self'",
    ),
    "checkpoint --publish /proc/self": (
        lambda c: ["checkpoint", "--publish", "/proc/self"],
        "cannot write the signed head",
    ),
    "a directory where a file is read (click's 'Could not open file')": (
        lambda c: ["verify", "/tmp"],
        "'/tmp' is a directory",
    ),
    "a directory to import": (lambda c: ["import", str(c.folder)], "is a directory"),
    "a missing file": (
        lambda c: ["import", str(c.folder / "nothing.jsonl")],
        "no such file or directory",
    ),
    "--option small=1.5": (
        lambda c: ["new", "topitop", "--players", "Ann,Ben", "--option", "small=1.5"],
        "option small must be a whole number, got 1.5",
    ),
    "--option small=true": (
        lambda c: ["new", "topitop", "--players", "Ann,Ben", "--option", "small=true"],
        "option small must be a whole number, got True",
    ),
    "--option expert=1.0": (
        lambda c: ["new", "topas", "--players", "Ann,Ben", "--option", "expert=1.0"],
        "option expert must be true or false, got 1.0",
    ),
    "sheet --option small=0.5": (
        lambda c: ["sheet", "topitop", "--players", "Ann,Ben", "--option", "small=0.5"],
        "option small must be a whole number, got 0.5",
    ),
}


@pytest.mark.parametrize("case", CORPUS)
def test_the_corpus_is_refused_in_one_line_and_the_store_is_unchanged(club, case):
    args, words = CORPUS[case]
    refused_unchanged(club, args(club), words)


def test_a_deeply_nested_bg_stats_file_is_one_line(club):
    refused_unchanged(club, ["import", "--from", "bgstats", club.file("plays.json", DEEP)])


@pytest.mark.parametrize(
    ("key_file", "words"), [("/dev/zero", "is a device"), ("/tmp", "directory")]
)
def test_a_signing_key_file_that_is_not_a_file_refuses_the_claim(
    club, monkeypatch, key_file, words
):
    """$TABLELOG_KEY_FILE is read when a claim is signed: /dev/zero is refused, not read."""
    monkeypatch.setenv("TABLELOG_KEY_FILE", key_file)
    claim = ["claim", club.match, "--by", "Ben", "--scores", '{"Ann": 0, "Ben": 0}']
    line = refused_unchanged(club, claim, f"the signing key '{key_file}'")
    assert words in line


# 100 KB typed where a name, an id, a number or a move belongs: quoted to 80 characters.
ECHOES = {
    "a game": lambda c: ["new", HUGE, "--players", "Ann,Ben"],
    "an option": lambda c: ["new", "topitop", "--players", "Ann,Ben", "--option", HUGE],
    "an option's value": lambda c: [
        "new",
        "topitop",
        "--players",
        "A,B",
        "--option",
        "small=" + HUGE,
    ],
    "an option's name": lambda c: ["new", "topitop", "--players", "A,B", "--option", HUGE + "=1"],
    "a match": lambda c: ["show", HUGE],
    "a match prefix": lambda c: ["score", "abcd" * 25_000],
    "a seat": lambda c: ["move", c.match, "--seat", HUGE, '{"pass": true}'],
    "a move": lambda c: ["move", c.match, "--seat", "Ann", json.dumps(HUGE)],
    "a piece": lambda c: [
        "move",
        c.match,
        "--seat",
        "Ann",
        json.dumps({"place": HUGE, "to": "a1"}),
    ],
    "a cell": lambda c: [
        "move",
        c.match,
        "--seat",
        "Ann",
        json.dumps({"place": "small", "to": HUGE}),
    ],
    "a move's key": lambda c: ["move", c.match, "--seat", "Ann", json.dumps({HUGE: 1})],
    "a step": lambda c: ["show", c.match, "--at", HUGE],
    "a claimed score": lambda c: [
        "claim",
        c.match,
        "--by",
        "Ann",
        "--scores",
        json.dumps({"Ann": HUGE}),
    ],
    "a claimed seat": lambda c: [
        "claim",
        c.match,
        "--by",
        "Ann",
        "--scores",
        json.dumps({HUGE: 1}),
    ],
    "a sheet's score": lambda c: ["sheet", "topiary", "--players", "A,B", "--score", "A=" + HUGE],
    "a sheet's category": lambda c: ["sheet", "topiary", "--players", "A,B", "--category", HUGE],
    "a sheet's field": lambda c: [
        "sheet",
        "topiary",
        "--players",
        "A,B",
        "--sheet",
        json.dumps({HUGE: 1}),
    ],
    "a winner": lambda c: ["sheet", "topiary", "--players", "A,B", "--winner", HUGE],
    "a time": lambda c: ["export", "--since", HUGE],
    "a file": lambda c: ["import", HUGE],
    "a heads path": lambda c: ["audit", "--all", "--against", HUGE],
    "a directory": lambda c: ["export-tables", HUGE],
    "a kind": lambda c: ["stats", "--kind", HUGE],
}


@pytest.mark.parametrize("case", ECHOES)
def test_no_refusal_echoes_100_kb(club, case):
    line = refused_unchanged(club, ECHOES[case](club))
    assert "x" * 81 not in line and "abcd" * 21 not in line


def test_a_store_path_is_quoted_short_too(sqlite_club):
    store = f"{sqlite_club.folder}/{'x' * 200}/store.sqlite"
    line = refused(invoke(sqlite_club, ["list", "--store", store], store=False), "does not exist")
    assert "x" * 81 not in line


# ---- where stores and outputs may be made (SQLite paths) --------------------------------------


@pytest.fixture
def sqlite_club(tmp_path) -> Club:
    folder = tmp_path / "club"
    folder.mkdir()
    return Club(str(folder / "store.sqlite"), folder)


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["new", "topitop", "--players", "Ann,Ben"],
        ["demo", "--quiet"],
        ["keys", "show"],
    ],
)
@pytest.mark.parametrize("spelling", ["{}", "sqlite://{}"])
def test_a_store_in_a_missing_directory_is_refused_and_nothing_is_made(sqlite_club, args, spelling):
    missing = sqlite_club.folder / "typo" / "deeper"
    store = spelling.format(missing / "store.sqlite")
    before = sqlite_club.state()
    line = refused(CliRunner().invoke(main, [*args, "--store", store], prog_name="tablelog"))
    assert "does not exist" in line and ".building" not in line
    assert sqlite_club.state() == before  # no directory made, no file


def test_an_empty_store_option_is_refused_not_taken_for_the_default_store():
    existed = DEFAULT_STORE.exists()
    refused(CliRunner().invoke(main, ["list", "--store", ""]), "--store is empty")
    assert DEFAULT_STORE.exists() == existed


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["export-tables", "{missing}/tables"], "does not exist"),
        (["checkpoint", "--publish", "{missing}/heads"], "does not exist"),
        (["export", "M", "-o", "{missing}/match.jsonl"], "does not exist"),
        (["receipt", "M", "--qr", "{missing}/receipt.png"], "does not exist"),
        (["receipt", "M", "--qr", "{folder}/receipt.gif"], "written as .png or .svg"),
        (["export", "M", "-o", "{folder}"], "is a directory"),
        (["export-tables", "{folder}/store.sqlite"], "is a file, not a directory"),
    ],
)
def test_an_output_in_a_missing_directory_is_refused_before_any_work(sqlite_club, args, words):
    spelled = [
        a.format(missing=sqlite_club.folder / "typo" / "deeper", folder=sqlite_club.folder)
        for a in args
    ]
    refused_unchanged(sqlite_club, [sqlite_club.match if a == "M" else a for a in spelled], words)


def test_export_tables_makes_the_last_directory_only_and_writes_every_table(sqlite_club):
    target = sqlite_club.folder / "tables"
    result = invoke(sqlite_club, ["export-tables", str(target)])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in target.iterdir())
    assert written and all(name.endswith(".csv") for name in written)  # no scratch left
    assert len(result.stdout.splitlines()) == len(written)


def test_an_export_that_fails_half_way_leaves_the_file_as_it_was(sqlite_club, monkeypatch):
    """The first match is written, the second refused: neither a partial file nor a scratch
    file beside it is left, and the file that was there is kept."""
    assert invoke(sqlite_club, ["new", "topitop", "--players", "Ann,Ben"]).exit_code == 0
    target = sqlite_club.file("out.jsonl", "kept\n")
    exported = SigningRecorder.export
    done: list[Any] = []  # the matches written before the refusal

    def second_refused(self, match_id):
        if done:
            raise Refused("the second match cannot be exported")
        done.append(match_id)
        return exported(self, match_id)

    monkeypatch.setattr(SigningRecorder, "export", second_refused)
    refused_unchanged(sqlite_club, ["export", "--all", "-o", target], "the second match")
    assert Path(target).read_text() == "kept\n"


def test_export_tables_that_fails_half_way_leaves_no_directory(sqlite_club, monkeypatch):
    import tablelog.projections.load as load

    read = load.read_table
    seen: list[str] = []

    def third_refused(projection, name):
        if len(seen) == 2:
            raise Refused("the third table cannot be read")
        seen.append(name)
        return read(projection, name)

    monkeypatch.setattr(load, "read_table", third_refused)
    target = sqlite_club.folder / "tables"
    refused_unchanged(sqlite_club, ["export-tables", str(target)], "the third table")
    assert not target.exists()


# ---- the fuzz ---------------------------------------------------------------------------------

FUZZ = settings(
    max_examples=int(os.environ.get("CORPUS_EXAMPLES", 60)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# What a file argument holds: bytes, JSON of every kind, deep nesting and huge numbers.
CONTENTS = (
    st.binary(max_size=40)
    | JSON.map(lambda v: as_text(v).encode())
    | st.integers(500, 5000).map(lambda n: ("[" * n).encode())
    | st.integers(4301, 6000).map(lambda n: ('{"size": ' + "7" * n + "}").encode())
    | st.sampled_from([b"tablelog-receipt/1\nmatch x event 99999999999999999999\n", b""])
)
# Where a file is named: devices, directories, /proc, missing paths, any name in the test's
# directory (outputs go nowhere else: a success writes there).
NAMED = st.just("{folder}/missing/x") | TEXT.map(lambda t: "{folder}/" + t.replace("/", "_"))
READ_FROM = NAMED | st.sampled_from(
    ["/dev/zero", "/dev/full", "/dev/null", "/proc/self", "/proc/self/environ", "/tmp", "", "-"]
)
WRITE_TO = NAMED | st.sampled_from(["/dev/full", "/proc/self", "/proc/self/environ", "/x/y"])

READING = [
    ["import", "F"],
    ["verify", "F"],
    ["verify", "--record", "F", "--key", "F"],
    ["keys", "trust", "F"],
    ["audit", "--all", "--against", "F"],
    ["audit", "M", "--key", "F"],
    ["new", "topiary", "--players", "Ann,Ben", "--setup", "F"],
    ["new", "topas", "--players", "Ann,Ben", "--manifest-file", "F"],
]
WRITING = [
    ["export", "M", "-o", "P"],
    ["export", "--to", "bgstats", "--all", "-o", "P"],
    ["export-tables", "P"],
    ["receipt", "M", "--qr", "P"],
]
TYPING = [
    ["move", "M", "--seat", "Ann", "T"],
    ["claim", "M", "--by", "Ann", "--scores", "T"],
    ["new", "topitop", "--players", "Ann,Ben", "--option", "small=T"],
    ["new", "topas", "--players", "Ann,Ben", "--option", "expert=T"],
    ["sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann", "--sheet", "T"],
    ["show", "T"],
    ["show", "M", "--at", "T"],
    ["export", "--to", "bgg", "--all", "--zone", "T"],
    ["export", "--since", "T"],
    ["stats", "T"],
]


@st.composite
def commands(draw) -> tuple[list[str], bytes | None]:
    """A command with one hostile part: a file's content or place, an output's place, or a
    typed value; returns the arguments and the file content to write first (if any)."""
    kind = draw(st.sampled_from(["content", "place", "output", "typed"]))
    if kind == "typed":
        text = draw(TEXT | JSON.map(as_text) | st.sampled_from([HUGE, DIGITS, "1.5", "NaN"]))
        return [text if a == "T" else a for a in draw(st.sampled_from(TYPING))], None
    if kind == "output":
        place = draw(WRITE_TO)
        return [place if a == "P" else a for a in draw(st.sampled_from(WRITING))], None
    template = draw(st.sampled_from(READING))
    if kind == "content":
        return [("{folder}/given" if a == "F" else a) for a in template], draw(CONTENTS)
    place = draw(READ_FROM)
    return [place if a == "F" else a for a in template], None


@FUZZ
@given(command=commands())
def test_hostile_commands_succeed_or_are_refused_in_one_line(club, command):
    args, content = command
    if content is not None:
        club.file("given", content)
    spelled = [club.match if a == "M" else a.replace("{folder}", str(club.folder)) for a in args]
    before = club.state()
    result = invoke(club, spelled)
    if result.exit_code in (0, 1) and isinstance(result.exception, (SystemExit, type(None))):
        assert "Traceback" not in result.stderr
        return  # done, or an audit or verification that answered "no" (exit 1)
    refused(result)
    assert club.state() == before


# ---- two real processes: the issue's own lines ------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [(["import", "/dev/zero"], "is a device"), (["export", "M", "-o", "/dev/full"], "no space")],
)
def test_the_issue_s_lines_in_a_real_process(sqlite_club, args, words):
    before = sqlite_club.state()
    result = _run(
        *[sqlite_club.match if a == "M" else a for a in args], "--store", sqlite_club.location
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("tablelog: ") and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr
    assert sqlite_club.state() == before
