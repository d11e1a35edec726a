"""The demo's planted examples: a wrong claim and an open dispute recorded by a name marked
"(demo)" are listed as the demo's, and fail nothing; the same entries by anyone else fail, and
nothing else in a marked match is excused. A fresh demo store audits clean, exit status 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli import main
from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.integrity.audit_demo import demo_name
from tests.audit.helpers import WIN, delete, play


def test_a_wrong_claim_by_a_demo_name_is_planted_not_a_finding(recorder):
    match_id = play(recorder, WIN)
    recorder.claim(match_id, demo_name("Ann"), {"Ann": 1, "Ben": 0})  # the rules give Ann 2
    report = audit_match(recorder, match_id)
    assert report["clean"] and report["findings"] == []
    (planted,) = report["planted"]
    assert planted["kind"] == "claim" and planted["diverging_move"]["move"] == 15
    assert report["claims"][0]["agrees"] is False  # the claim itself still says it differs


def test_the_same_wrong_claim_by_a_player_fails(recorder):
    match_id = play(recorder, WIN)
    recorder.claim(match_id, "Ann", {"Ann": 1, "Ben": 0})
    report = audit_match(recorder, match_id)
    assert not report["clean"] and report["planted"] == []
    assert [f["kind"] for f in report["findings"]] == ["claim"]


def test_an_open_dispute_by_a_demo_name_is_planted(recorder):
    match_id = play(recorder, WIN[:3])
    recorder.dispute(match_id, demo_name("Ben"), "was that pile placed or moved?")
    report = audit_match(recorder, match_id)
    assert report["clean"] and [p["kind"] for p in report["planted"]] == ["dispute"]
    recorder.dispute(match_id, "Ben", "and that one?")  # a player's own: a finding
    report = audit_match(recorder, match_id)
    assert not report["clean"] and [f["kind"] for f in report["findings"]] == ["dispute"]


def test_a_planted_claim_excuses_nothing_else_in_the_match(store, recorder):
    match_id = play(recorder, WIN)
    recorder.claim(match_id, demo_name("Ann"), {"Ann": 1, "Ben": 0})
    delete(store, match_id, 5)  # a forger removes a move
    report = audit_match(recorder, match_id)
    assert not report["clean"]
    assert {f["kind"] for f in report["findings"]} - {"claim", "dispute"}


def test_the_command_says_it_is_the_demos_and_exits_0(store, recorder):
    planted = play(recorder, WIN)
    recorder.claim(planted, demo_name("Ann"), {"Ann": 1, "Ben": 0})
    shown = CliRunner().invoke(main, ["audit", str(planted), "--store", store])
    assert shown.exit_code == 0, shown.output
    assert "DEMO: the log is intact" in shown.output and "not a fault in this store" in shown.output
    assert "FAILS" not in shown.output
    wrong = play(recorder, WIN)
    recorder.claim(wrong, "Ann", {"Ann": 1, "Ben": 0})
    every = CliRunner().invoke(main, ["audit", "--all", "--store", store])
    assert every.exit_code == 1  # a real finding still fails the store
    last = every.output.strip().splitlines()[-1]
    assert "1 of them holding the demo's planted examples" in last
    assert f"1 with findings ({str(wrong)[:8]})" in last


@pytest.mark.slow
def test_a_fresh_demo_store_passes_its_own_audit(tmp_path):
    """The store the quick start builds (`scripts/serve.sh` calls the same builder as
    `tablelog demo`): its planted slip and open dispute are named as the demo's, exit 0."""
    store = str(tmp_path / "demo.sqlite")
    command = [str(Path(sys.executable).parent / "tablelog")]
    built = subprocess.run([*command, "demo", "--quiet", "--store", store], capture_output=True)
    assert built.returncode == 0, built.stderr
    audited = subprocess.run(
        [*command, "audit", "--all", "--store", store], capture_output=True, text=True
    )
    assert audited.returncode == 0, audited.stdout[-3000:]
    assert "FAILS" not in audited.stdout
    assert audited.stdout.count("  DEMO: ") == 2  # the slipped claim, the open dispute
    last = audited.stdout.strip().splitlines()[-1]
    assert "2 of them holding the demo's planted examples" in last and "with findings" not in last
