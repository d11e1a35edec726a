"""`tablelog claim | dispute | resolve | audit` as an organiser runs them: real processes, a real
store file, exit status 0 clean, 1 findings, 2 usage errors."""

from __future__ import annotations

import json
import re

from tablelog.projections.queries import Queries
from tablelog.store import open_recorder
from tests.audit.helpers import OPENING, WIN, delete, play, played_with_everything
from tests.conftest import stored_rows
from tests.test_cli import run


def test_claim_dispute_and_resolve_are_recorded_with_a_receipt(store):
    match_id = str(play(open_recorder(store), WIN))
    claimed = run(store, "claim", match_id[:8], "--by", "Ann", "--scores", '{"Ann": 2, "Ben": 0}')
    assert claimed.returncode == 0, claimed.stderr
    assert claimed.stdout.startswith("step 16: Ann claims Ann 2, Ben 0 (after move 15)\n")
    assert re.search(r"^receipt: [0-9a-f]{64}$", claimed.stdout, re.M)
    raised = run(store, "dispute", match_id, "--by", "Ben", "--about", "Ann moved twice")
    assert raised.stdout.startswith("step 17: dispute raised by Ben: Ann moved twice")
    ruled = run(store, "resolve", match_id, "--by", "Umpire", "--ruling", "she did not")
    assert ruled.stdout.startswith("step 18: dispute ruled by Umpire: she did not")
    audited = json.loads(run(store, "audit", match_id, "--json").stdout)
    assert audited["disputes"][0]["ruling"] == "she did not"
    receipt = ruled.stdout.split("receipt: ")[1].strip()
    assert audited["head"] == {"event": 19, "hash": receipt}


def test_refused_entries_exit_2_and_store_nothing(store):
    match_id = str(play(open_recorder(store), OPENING))
    before = stored_rows(store)
    for args, words in [
        (["claim", match_id, "--by", "Ann", "--scores", '{"Zoe": 1}'], "not a seat"),
        (["claim", match_id, "--by", "Ann", "--scores", '{"Ann": "two"}'], "must be a number"),
        (["claim", match_id, "--by", "Ann", "--scores", "{Ann: 1}"], "not valid JSON"),
        (["claim", match_id, "--scores", '{"Ann": 1}'], "Missing option '--by'"),
        (["dispute", match_id, "--by", "Ben", "--about", " "], "what the dispute is about"),
        (["resolve", match_id, "--by", "Umpire", "--ruling", "fine"], "no open dispute"),
    ]:
        result = run(store, *args)
        assert result.returncode == 2 and words in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert stored_rows(store) == before


def clean_store(store):
    """Two won matches with undos, claims and rulings, a running one with a claim written down
    mid-game, and an abandoned one."""
    recorder = open_recorder(store)
    ids = [played_with_everything(recorder), played_with_everything(recorder)]
    running = play(recorder, WIN[:9])
    recorder.claim(running, "Ben", {"Ann": 1, "Ben": 0})
    abandoned = play(recorder, OPENING)
    recorder.abandon(abandoned, "Ann", "closing time")
    return [str(i) for i in (*ids, running, abandoned)]


def test_a_clean_store_audits_clean_with_exit_0(store):
    ids = clean_store(store)
    result = run(store, "audit", "--all")
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("CLEAN: the log is intact") == 4
    assert result.stdout.rstrip().endswith("4 matches audited: 4 clean")
    assert "withdrew move 5 (Ann places a large sand pile on a3): Ann meant a3, not a1" in (
        result.stdout
    )
    assert "ruled by Umpire" in result.stdout and "abandoned by Ann" in result.stdout
    one = run(store, "audit", ids[2][:6])
    assert one.returncode == 0 and "Ann 1, Ben 0 - agrees with the rules" in one.stdout


def test_a_tampered_store_exits_1_naming_the_match_and_the_event(store):
    ids = clean_store(store)
    delete(store, Queries(open_recorder(store)).find(ids[1]), 12)
    result = run(store, "audit", "--all")
    assert result.returncode == 1
    assert f"4 matches audited: 3 clean, 1 with findings ({ids[1][:8]})" in result.stdout
    block = result.stdout.split("\n\n")[1]
    assert block.startswith(f"topitop match {ids[1]}")
    assert "! step 11 is missing: deleted from the store" in block
    reports = json.loads(run(store, "audit", "--all", "--json").stdout)
    assert reports["clean"] is False
    failing = [r for r in reports["matches"] if not r["clean"]]
    assert [(r["match"], r["findings"][0]["event"]) for r in failing] == [(ids[1], 12)]


def test_a_wrong_claim_exits_1_with_the_diverging_move(store):
    match_id = str(play(open_recorder(store), WIN))
    run(store, "claim", match_id, "--by", "Ben", "--scores", '{"Ann": 1, "Ben": 0}')
    result = run(store, "audit", match_id)
    assert result.returncode == 1
    assert (
        "! At step 16 (after move 15) Ben claimed 1 for Ann; the rules give Ann 2" in result.stdout
    )
    assert "The table and the rules part at move 15" in result.stdout
    assert "Ann 1, Ben 0 - DIFFERS from the rules" in result.stdout


def test_usage_errors_exit_2(store):
    match_id = clean_store(store)[0]
    for args, words in [
        (["audit"], "give a MATCH or --all"),
        (["audit", match_id, "--all"], "give a MATCH or --all"),
        (["audit", "--all", "--head", "abcdef0123"], "--head checks one match"),
        (["audit", "0123456789abcdef0123456789abcdef"], "no match"),
        (["audit", "zzzz"], "no match whose id starts with"),
    ]:
        result = run(store, *args)
        assert result.returncode == 2 and words in result.stderr, (args, result.stderr)
