"""A signed receipt against an imported copy of the match (README, "Move records between
stores"): the copy holds the same events, so the receipt verifies there with the signer's public
key; a store trusts only the keys its keeper trusts, and importing a file adds none."""

from __future__ import annotations

import json

from tests.checkpoints.test_commands import env, run  # noqa: F401 - env is a fixture
from tests.test_recorder import WIN


def test_a_receipt_verifies_against_an_imported_copy_with_the_signers_key(env, tmp_path):  # noqa: F811
    assert run(env, "keys", "init").returncode == 0
    match_id = run(env, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    for seat, move in WIN[:3]:
        assert run(env, "move", match_id, "--seat", seat, json.dumps(move)).returncode == 0
    assert (
        run(env, "claim", match_id, "--by", "Ann", "--scores", '{"Ann": 0, "Ben": 0}').returncode
        == 0
    )
    receipt, record, pem = tmp_path / "receipt.txt", tmp_path / "match.jsonl", tmp_path / "club.pem"
    receipt.write_text(run(env, "receipt", match_id).stdout)
    record.write_text(run(env, "export", match_id).stdout)
    pem.write_text(run(env, "keys", "show", "--public").stdout)
    copy = str(tmp_path / "copy.sqlite")
    assert run(env, "import", str(record), "--store", copy).returncode == 0

    untrusted = run(env, "verify", str(receipt), "--store", copy)
    assert untrusted.returncode == 1 and "not trusted here" in untrusted.stdout + untrusted.stderr
    with_key = run(env, "verify", str(receipt), "--store", copy, "--key", str(pem))
    assert with_key.returncode == 0 and with_key.stdout.startswith("VERIFIED"), with_key.stdout
    assert run(env, "keys", "trust", str(pem), "--store", copy).returncode == 0
    trusted = run(env, "verify", str(receipt), "--store", copy)
    assert trusted.returncode == 0 and trusted.stdout.startswith("VERIFIED"), trusted.stdout
