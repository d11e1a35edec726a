"""The commands as a user runs them: keys, signed receipts printed by claim and end, verify
(also on "another machine": a fresh process with only the exported record and the public key),
publishing heads, and refusals that leave the store as it was."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from tablelog.domain.integrity.signed import SigningRecorder
from tablelog.domain.recording.recorder import Recorder
from tests.cli_runs import invoked
from tests.conftest import stored_rows
from tests.test_recorder import WIN


def run(env, *args, cwd=None):
    """The command in this process (tests/cli_runs.py), or, where it must be a machine with
    nothing but the files in `cwd`, in a new process there."""
    if cwd is None:
        return invoked(*args, env=env)
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def env(store, tmp_path):
    return {
        **os.environ,
        "TABLELOG_STORE": store,
        "TABLELOG_KEY_FILE": str(tmp_path / "keys" / "signing-key.pem"),
    }


@pytest.fixture
def won(env):
    """A match Ann won, recorded with a signing key; returns its id."""
    assert run(env, "keys", "init").returncode == 0
    match_id = run(env, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    for seat, move in WIN:
        assert run(env, "move", match_id, "--seat", seat, json.dumps(move)).returncode == 0
    return match_id


def test_keys_init_writes_a_private_key_only_its_owner_reads(env, tmp_path):
    result = run(env, "keys", "init")
    assert result.returncode == 0, result.stderr
    key = tmp_path / "keys" / "signing-key.pem"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert "BEGIN PUBLIC KEY" in result.stdout and "PRIVATE" not in result.stdout
    again = run(env, "keys", "init")
    assert again.returncode == 2 and "already holds key" in again.stderr


def test_end_prints_a_signed_receipt_that_verifies(env, won, tmp_path):
    ended = run(env, "end", won)
    assert ended.returncode == 0, ended.stderr
    text = ended.stdout.split("signed receipt")[1].split("\n", 1)[1]
    (tmp_path / "r.txt").write_text(text)
    checked = run(env, "verify", str(tmp_path / "r.txt"))
    assert checked.returncode == 0 and checked.stdout.startswith("VERIFIED"), checked.stdout


def test_a_receipt_verifies_on_another_machine_with_only_the_record_and_the_public_key(
    env, won, tmp_path
):
    assert run(env, "end", won).returncode == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "match.jsonl").write_text(run(env, "export", won).stdout)
    (elsewhere / "club.pem").write_text(run(env, "keys", "show", "--public").stdout)
    # No store, no key file, no home of the recorder: just the two files.
    bare = {
        "PATH": os.environ["PATH"],
        "HOME": str(elsewhere),
        "TABLELOG_STORE": str(elsewhere / "never-created.sqlite"),
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    checked = run(bare, "verify", "--record", "match.jsonl", "--key", "club.pem", cwd=elsewhere)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "the record replays by the rules" in checked.stdout
    assert not (elsewhere / "never-created.sqlite").exists()
    # The same record with a player renamed does not verify, nor does it with another key.
    record = json.loads((elsewhere / "match.jsonl").read_text())
    record["seats"][0] = "Anne"
    for event in record["events"]:
        if event.get("seat") == "Ann":
            event["seat"] = "Anne"
    (elsewhere / "changed.jsonl").write_text(json.dumps(record))
    changed = run(bare, "verify", "--record", "changed.jsonl", "--key", "club.pem", cwd=elsewhere)
    assert changed.returncode == 1 and "NOT VERIFIED" in changed.stdout
    (elsewhere / "other.pem").write_text(
        run(
            {
                **env,
                "TABLELOG_KEY_FILE": str(elsewhere / "k.pem"),
                "TABLELOG_STORE": str(elsewhere / "o.sqlite"),
            },
            "keys",
            "init",
        ).stdout.split("\n", 2)[2]
    )
    other = run(bare, "verify", "--record", "match.jsonl", "--key", "other.pem", cwd=elsewhere)
    # Another store's key names another log (its verifier key's name): refused for that first.
    assert other.returncode == 1 and "is not this log's" in other.stdout


def test_a_malformed_receipt_or_key_file_is_one_line_and_rc_2(env, won, tmp_path):
    (tmp_path / "bad.json").write_text('{"format": "tablelog-receipt/1", "match": 1}')
    (tmp_path / "bad.pem").write_text("-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----")
    for args in (
        ["verify", str(tmp_path / "bad.json")],
        ["verify", str(tmp_path / "bad.json"), "--key", str(tmp_path / "bad.pem")],
        ["audit", "--all", "--key", str(tmp_path / "bad.pem")],
    ):
        result = run(env, *args)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result


def test_a_wrong_key_file_refuses_the_claim_and_stores_nothing(env, won, store, tmp_path):
    (tmp_path / "garbage.pem").write_text("not a key at all")
    before = stored_rows(store)
    broken = {**env, "TABLELOG_KEY_FILE": str(tmp_path / "garbage.pem")}
    result = run(broken, "claim", won, "--by", "Ann", "--scores", '{"Ann": 2, "Ben": 0}')
    assert result.returncode == 2 and "not a PEM private key" in result.stderr
    assert stored_rows(store) == before


def test_an_untrusted_key_refuses_the_end_and_stores_nothing(env, won, store, tmp_path):
    other = {**env, "TABLELOG_KEY_FILE": str(tmp_path / "other" / "key.pem")}
    assert (
        run({**other, "TABLELOG_STORE": str(tmp_path / "other.sqlite")}, "keys", "init").returncode
        == 0
    )
    before = stored_rows(store)
    result = run(other, "end", won)
    assert result.returncode == 2 and "not one the store trusts" in result.stderr
    assert stored_rows(store) == before


def test_a_refused_claim_signs_nothing(env, won):
    before = json.loads(run(env, "audit", "--all", "--json").stdout)["checkpoints"]
    refused = run(env, "claim", won, "--by", "Ann", "--scores", '{"Zoe": 1}')
    assert refused.returncode == 2
    after = json.loads(run(env, "audit", "--all", "--json").stdout)["checkpoints"]
    assert after["checkpoints"] == before["checkpoints"]


def test_published_heads_are_checked_by_audit_against(env, won, tmp_path):
    assert run(env, "end", won).returncode == 0
    published = run(env, "checkpoint", "--publish", str(tmp_path / "heads"))
    assert published.returncode == 0
    audit = run(env, "audit", "--all", "--against", str(tmp_path / "heads"))
    assert audit.returncode == 0 and "consistent with the head published" in audit.stdout


def test_receipt_json_short_text_and_qr(env, won, tmp_path):
    assert run(env, "end", won).returncode == 0
    full = json.loads(run(env, "receipt", won, "--json").stdout)
    assert full["event"] == 17 and full["proof"] is not None
    (tmp_path / "r.json").write_text(json.dumps(full))
    assert run(env, "verify", str(tmp_path / "r.json")).returncode == 0
    full["proof"][0] = "0" * 64
    (tmp_path / "r.json").write_text(json.dumps(full))
    wrong = run(env, "verify", str(tmp_path / "r.json"))
    assert wrong.returncode == 1 and "not leaf" in wrong.stdout
    short = run(env, "receipt", won, "--short", "--qr", str(tmp_path / "r.png"))
    assert "proof" not in short.stdout and (tmp_path / "r.png").stat().st_size > 0
    assert len(short.stdout) < 400


def test_the_signing_recorder_uses_the_store_tables_of_the_recorder():
    assert SigningRecorder.name == Recorder.name == "tablelog"


def test_keys_rotate_signs_with_the_new_key_and_old_heads_keep_verifying(env, won, tmp_path):
    old = run(env, "keys", "show").stdout.split()[3]
    rotated = run(env, "keys", "rotate", "--label", "club server, 2027")
    assert rotated.returncode == 0, rotated.stderr
    assert (tmp_path / "keys" / f"signing-key-{old}.pem").exists()
    assert run(env, "end", won).returncode == 0
    audit = json.loads(run(env, "audit", "--all", "--json").stdout)["checkpoints"]
    assert audit["clean"] and len({c["key"] for c in audit["checkpoints"]}) == 2
    assert all(c["verified"] for c in audit["checkpoints"])
    shown = run(env, "keys", "show").stdout
    assert "club server, 2027" in shown and old in shown


def test_a_server_takes_its_key_from_the_environment(env, won, store, tmp_path):
    pem = (tmp_path / "keys" / "signing-key.pem").read_text()
    server = {
        **env,
        "TABLELOG_SIGNING_KEY": pem,
        "TABLELOG_KEY_FILE": str(tmp_path / "no-such-file.pem"),
    }
    claimed = run(server, "claim", won, "--by", "Ann", "--scores", '{"Ann": 2, "Ben": 0}')
    assert claimed.returncode == 0 and "signed receipt" in claimed.stdout
    before = stored_rows(store)
    broken = run({**server, "TABLELOG_SIGNING_KEY": "-----BEGIN PRIVATE KEY-----\nx\n"}, "end", won)
    assert broken.returncode == 2 and "$TABLELOG_SIGNING_KEY" in broken.stderr
    assert stored_rows(store) == before


@pytest.mark.parametrize("number", ["1", "3", "1000"])
def test_a_receipt_naming_another_event_number_is_not_verified(env, won, tmp_path, number):
    """The event number is not under the signature: a receipt whose number was changed (to
    another event of the match, or past its end) must not verify, nor print that the store
    holds that many events before it."""
    ended = run(env, "end", won)
    text = ended.stdout.split("signed receipt")[1].split("\n", 1)[1]
    lines = [line.strip() for line in text.splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("match "))
    words = lines[at].split()
    assert words[2] == "event" and words[3] != number
    lines[at] = " ".join([*words[:3], number, *words[4:]])
    (tmp_path / "r.txt").write_text("\n".join(lines) + "\n")
    checked = run(env, "verify", str(tmp_path / "r.txt"))
    assert checked.returncode != 0 and "VERIFIED" not in checked.stdout.replace("NOT VERIFIED", "")
    assert "receipt names another event" in checked.stdout + checked.stderr
