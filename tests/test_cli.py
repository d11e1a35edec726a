"""The `tablelog` command as a user runs it: real processes, real store file, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.cli_runs import invoked
from tests.conftest import stored_rows
from tests.test_recorder import OPENING, WIN
from tests.unsealed import unsealed

COMMANDS = [
    "new",
    "move",
    "undo",
    "show",
    "score",
    "list",
    "export",
    "import",
    "end",
    "abandon",
    "claim",
    "dispute",
    "resolve",
    "audit",
]


def run(store, *args, stdin=None) -> subprocess.CompletedProcess:
    """The command run in this process (tests/cli_runs.py); `run_process` is the real process,
    for the tests about the process itself."""
    return invoked(*args, env={"TABLELOG_STORE": store}, input=stdin)


def run_process(store, *args, stdin=None):
    env = {**os.environ, "TABLELOG_STORE": store}
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def match(store):
    match_id = run(store, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    for seat, move in OPENING:
        assert run(store, "move", match_id, "--seat", seat, json.dumps(move)).returncode == 0
    return match_id


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["move", "{match}", "--seat", "Ann", '{"place": "small", "to": "b2"}'],
            "empty cells only",
        ),
        (["move", "{match}", "--seat", "Ben", '{"place": "small", "to": "a2"}'], "not Ben's turn"),
        (["move", "{match}", "--seat", "Zoe", '{"place": "small", "to": "a2"}'], "not a seat"),
        (["move", "{match}", "--seat", "Ann", '{"place": "small", '], "not valid JSON"),
        (["move", "00000000-0000-0000-0000-000000000000", "--seat", "Ann", "{}"], "no match"),
        (["move", "zzzz", "--seat", "Ann", "{}"], "no match whose id starts with"),
        (["undo", "{match}", "--by", "Ann", "--reason", " "], "reason"),
        (["end", "{match}"], "not over by the rules"),
        (["new", "chess", "--players", "A,B"], "unknown game 'chess'"),
        (["new", "topitop", "--players", "A,B,C"], "for 2 players"),
        (["new", "topitop", "--players", "A,B", "--option", "small"], "KEY=VALUE"),
        (["show", "{match}", "--at", "99"], "only 4 steps"),
    ],
)
def test_a_refusal_exits_2_with_one_line_and_stores_nothing(store, match, args, words):
    before = stored_rows(store)
    result = run(store, *[a.replace("{match}", match) for a in args])
    assert result.returncode == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert stored_rows(store) == before


def test_a_move_by_unique_prefix_and_the_show_and_score_commands(store, match):
    result = run(store, "move", match[:8], "--seat", "Ann", '{"place": "large", "to": "a3"}')
    assert result.returncode == 0 and "move 5: Ann places a large" in result.stdout
    shown = run(store, "show", match).stdout
    assert "LS" in shown and "to move: Ben (Red)" in shown
    at_start = json.loads(run(store, "show", match, "--at", "0", "--json").stdout)
    assert at_start["state"]["cells"] == [""] * 9 and at_start["to_move"] == ["Ann"]
    scored = json.loads(run(store, "score", match, "--json").stdout)
    assert [s["seat"] for s in scored["seats"]] == ["Ann", "Ben"] and scored["outcome"] is None


def test_a_whole_game_from_the_command_line(any_store):
    """On SQLite and on PostgreSQL (--store URL via $TABLELOG_STORE), each command its own
    process, as a user types them."""
    store = any_store
    match_id = run_process(store, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    for seat, move in WIN:
        moved = run_process(store, "move", match_id, "--seat", seat, json.dumps(move))
        assert moved.returncode == 0
    score = run_process(store, "score", match_id).stdout
    assert "Ann wins (Blue has both buckets on sand castles)" in score
    assert "ended: Ann" in run_process(store, "end", match_id).stdout
    listed = json.loads(run_process(store, "list", "--json").stdout)
    assert listed[0]["status"] == "ended" and listed[0]["moves"] == len(WIN)
    assert listed[0]["outcome"]["winners"] == ["Ann"]


def test_undo_from_the_command_line(store, match):
    result = run(store, "undo", match, "--by", "Ben", "--reason", "wrong cell")
    assert result.returncode == 0 and "withdrew move 4: Ben places a bucket" in result.stdout
    assert json.loads(run(store, "show", match, "--json").stdout)["moves"] == 3


def test_export_then_import_into_an_empty_store(store, match, tmp_path):
    exported = run(store, "export", "--all").stdout
    other = str(tmp_path / "other.sqlite")
    result = run(other, "import", "-", stdin=exported)
    assert result.returncode == 0 and "imported 1 match" in result.stdout
    assert run(other, "export", match).stdout.count('"type": "move"') == len(OPENING)
    for step in range(len(OPENING) + 1):
        shown = [
            json.loads(run(where, "show", match, "--at", str(step), "--json").stdout)
            for where in (other, store)
        ]
        assert shown[0]["state"] == shown[1]["state"]


def test_a_bad_import_names_the_line_and_move_and_keeps_nothing(store, match, tmp_path):
    good = unsealed(json.loads(run(store, "export", match).stdout))
    bad = json.loads(json.dumps(good))
    bad["id"] = "11111111-1111-1111-1111-111111111111"
    bad["events"][2]["move"] = {"from": "a1", "to": "c3"}
    good["id"] = "22222222-2222-2222-2222-222222222222"
    other = str(tmp_path / "other.sqlite")
    result = run(other, "import", "-", stdin=json.dumps(good) + "\n\n" + json.dumps(bad) + "\n")
    assert result.returncode == 2
    assert result.stderr.startswith("tablelog: line 3: event 3 (move 3 by Ann")
    assert stored_rows(other) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_explains_itself(store, command):
    result = run_process(store, command, "--help")
    assert result.returncode == 0 and "Usage: " in result.stdout and "--store" in result.stdout
