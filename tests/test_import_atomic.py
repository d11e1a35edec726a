"""An import stores the whole file or nothing, however it ends: refused, or killed. Records
already stored exactly so are skipped, so an import that was cut short is simply run again."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import stored_rows
from tests.test_cli import run
from tests.unsealed import unsealed


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[str]:
    """300 finished Topitop matches, as the lines of `export --all`."""
    source = str(tmp_path_factory.mktemp("source") / "a.sqlite")
    made = run(source, "simulate", "topitop", "-n", "300", "--seed", "5", "--quiet")
    assert made.returncode == 0, made.stderr
    lines = run(source, "export", "--all").stdout.splitlines()
    assert len(lines) == 300
    return lines


def last_line(stderr: str) -> str:
    """The refusal: the one line after the progress bar of the check."""
    return stderr.strip().splitlines()[-1]


def ids_and_heads(store: str) -> dict[str, str]:
    return {
        record["id"]: (record["events"] or [record])[-1]["hash"]
        for record in map(json.loads, run(store, "export", "--all").stdout.splitlines())
    }


def test_a_file_with_one_record_twice_is_refused_naming_both_lines(any_store, exported, tmp_path):
    doubled = tmp_path / "dup.jsonl"
    doubled.write_text("\n".join(exported + [exported[5]]) + "\n")
    result = run(any_store, "import", str(doubled))
    match_id = json.loads(exported[5])["id"]
    assert result.returncode == 2 and last_line(result.stderr) == (
        f"tablelog: line 301: match {match_id} appears twice in this file (first on line 6)"
    )
    assert stored_rows(any_store) == []


def test_a_record_refused_late_in_the_file_leaves_nothing_of_it(any_store, exported, tmp_path):
    store = any_store
    bad = unsealed(json.loads(exported[-1]))
    bad["events"][0]["move"] = {"place": "bucket", "to": "z9"}
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(exported[:-1] + [json.dumps(bad)]) + "\n")
    result = run(store, "import", str(path))
    assert result.returncode == 2
    assert last_line(result.stderr).startswith("tablelog: line 300: event 1")
    assert stored_rows(store) == []


def test_importing_again_skips_what_is_stored_and_refuses_a_different_record(
    store, exported, tmp_path
):
    first = tmp_path / "first.jsonl"
    first.write_text("\n".join(exported[:100]) + "\n")
    assert run(store, "import", str(first)).stdout.strip() == "imported 100 matches"
    whole = tmp_path / "whole.jsonl"
    whole.write_text("\n".join(exported) + "\n")
    again = run(store, "import", str(whole))
    assert again.stdout.strip() == "imported 200 matches; 100 already in this store, skipped"
    rows = stored_rows(store)
    changed = unsealed(json.loads(exported[10]))
    changed["events"].pop()  # the same id, one event fewer: another record
    path = tmp_path / "changed.jsonl"
    path.write_text(json.dumps(changed) + "\n" + exported[0] + "\n")
    refused = run(store, "import", str(path))
    assert refused.returncode == 2
    assert (
        f"line 1: match {changed['id']} is already in this store with other events"
        in refused.stderr
    )
    assert stored_rows(store) == rows


def test_an_import_killed_at_any_moment_is_completed_by_running_it_again(
    any_store, exported, tmp_path
):
    path = tmp_path / "all.jsonl"
    path.write_text("\n".join(exported) + "\n")
    env = {**os.environ, "TABLELOG_STORE": any_store}
    rng = random.Random(20)
    for _ in range(4):
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "tablelog", "import", str(path)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3, 2.5))  # starting, checking, storing, or done
        process.send_signal(signal.SIGKILL)
        process.wait()
        stored = len(ids_and_heads(any_store))
        assert stored in (0, 300), f"killed after {time.monotonic() - started:.1f} s: {stored}"
    final = run(any_store, "import", str(path))
    assert final.returncode == 0, final.stderr
    expected = {json.loads(line)["id"]: json.loads(line)["events"][-1]["hash"] for line in exported}
    assert ids_and_heads(any_store) == expected  # nothing lost, nothing twice
    assert len(stored_rows(any_store)) == sum(
        1 + len(json.loads(line)["events"]) for line in exported
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"format": "tablelog-match/2"}\n\xff\xfe\n', "line 2: not UTF-8 text"),
        (b'{"n": ' + b"9" * 5000 + b"}\n", "line 1: holds a number of more than 4,300 digits"),
        (b"[" * 100_000 + b"]" * 100_000 + b"\n", "line 1: nested too deep to read"),
        (
            b'{"format": "tablelog-match/2", "game": "topitop", "seats": ["Ann", "Ben"], '
            b'"events": [{"type": "claim", "by": "Ann", "scores": {"Ann": 99999999999999999999}}]}',
            "cannot be stored exactly",
        ),
    ],
)
def test_an_unreadable_import_file_is_one_line_and_stores_nothing(any_store, tmp_path, data, words):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    result = run(any_store, "import", str(path))
    assert result.returncode == 2 and words in last_line(result.stderr)
    assert "Traceback" not in result.stderr
    assert stored_rows(any_store) == []
