"""A store written by release 0.1 (tests/fixtures/release-0.1/README.md) opens with this release
and every match in it means what it meant then: a stored event is forever."""

from __future__ import annotations

import json
import re
from pathlib import Path
from uuid import UUID

import pytest

from tablelog.domain.errors import Refused
from tablelog.domain.games import RulesError
from tablelog.domain.matches.records import from_record
from tablelog.store import open_recorder
from tablelog.store_copy import copy_store
from tests.test_cli import run

FIXTURE = Path(__file__).parent / "fixtures" / "release-0.1"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8"))
CLUB_MATCH = UUID("48019a70-557a-4410-8d5e-fd6f4d990dd5")  # manifest=club-topas.json, a path


def as_json(value):
    return json.loads(json.dumps(value))


# Total Landscaping's last round as release 0.1 told it, and the facts a state now keeps of it
# (issue 43), read off those lines by hand: the same happenings, no longer sentences.
LAST_ROUNDS: dict[str, dict[str, list[list[object]]]] = {
    "37fb88dd-bd9e-4d39-8f0f-f9514e011cdf": {
        "East plays Green on W:C8; West plays Blue on E:D2": [
            ["plays", "east", "Green", "west", "C8"],
            ["plays", "west", "Blue", "east", "D2"],
        ],
        "bout 3 to the Elimination Candidate (east) in round 22: most flowers": [
            ["bout", "east", 3, 22, "most flowers"]
        ],
    },
    "9ae8750d-b4c6-4b42-b8f4-8e09ee1320f3": {
        "East plays Red on E:B1 removing nothing; West hoes B4 and B5": [
            ["plays", "east", "Red", "east", "B1"],
            ["removing", "east"],
            ["hoes", "west", "B4", "B5"],
        ],
        "bout 2 to the Elimination Candidate (east) in round 7: six colours connected": [
            ["bout", "east", 2, 7, "six colours connected"]
        ],
    },
    "ae41f858-d3b8-4b92-8851-5ac0425756cc": {
        "East plays Blue on W:D14; West plays Blue on W:C3": [
            ["plays", "east", "Blue", "west", "D14"],
            ["plays", "west", "Blue", "west", "C3"],
        ],
        "withered: W:D14 (Blue)": [["withered", "west", "D14", "Blue"]],
        "bout 2 to the Death Match Opponent (west) in round 22: most flowers": [
            ["bout", "west", 2, 22, "most flowers"]
        ],
    },
}


def same_state(match, then: dict) -> bool:
    """The state release 0.1 computed, every field of it: a state now names its manifest by the
    content's hash (`sha256:...`, the components embedded in the match), not by a file name, and
    may hold fields later rules versions added (they say which readings the match keeps, e.g.
    Total Landscaping's `hoeing: after-effects`). Total Landscaping's `last_round` held 0.1's
    sentences; it now holds the facts (`LAST_ROUNDS`), one sentence's worth after another."""
    now = as_json(match.rules.encode(match.state))
    if "manifest" in then:
        then = {**then, "manifest": "sha256:" + match.components["sha256"]}
    if "last_round" in then:
        facts = LAST_ROUNDS[str(match.id)]
        assert list(facts) == then["last_round"], "the fixture's lines, every one, in order"
        then = {**then, "last_round": [fact for line in facts.values() for fact in line]}
    return {key: now.get(key) for key in then} == then


def receipt_verifies(store: str, match_id: str, head: str) -> bool:
    report = json.loads(run(store, "audit", match_id, "--head", head, "--json").stdout)
    return not [
        f for f in report["findings"] if f["kind"] == "receipt"
    ] and "the receipt matches the last event" in json.dumps(report["notes"])


@pytest.fixture
def old_store(tmp_path):
    path = tmp_path / "release-0.1.sqlite"
    copy_store(FIXTURE / "store.sqlite", path)
    return str(path)


def test_every_match_replays_to_what_release_0_1_computed(old_store, monkeypatch):
    monkeypatch.chdir(FIXTURE)  # where the club's file was when its match was recorded
    recorder = open_recorder(old_store)
    assert len(EXPECTED) == 13
    for match_id, then in EXPECTED.items():
        match = recorder.get(UUID(match_id))
        assert (match.game, match.status, len(match.moves)) == (
            then["game"],
            then["status"],
            then["moves"],
        )
        assert same_state(match, then["state"]), match_id
        assert match.head_hash == then["head"], match_id  # the chain hashes as it did
        outcome = match.rules.outcome(match.state)
        assert (outcome.to_json() if outcome else None) == then["outcome"]
        if then["score"] is not None:
            assert [e["total"] for e in match.rules.score(match.state)] == then["score"]


def test_release_0_1_matches_embed_the_packaged_components_they_were_played_with(old_store):
    recorder = open_recorder(old_store)
    topas = next(
        UUID(i) for i, m in EXPECTED.items() if m["game"] == "topas" and UUID(i) != CLUB_MATCH
    )
    components = recorder.get(topas).components
    assert components is not None
    assert components["name"] == "topas" and len(components["content"]["cards"]) == 36


def test_a_match_whose_club_file_is_not_here_is_refused_in_one_line(
    old_store, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        (Refused, RulesError),
        match=re.escape("recorded by Tablelog 0.1 with its components in the file club-topas.json"),
    ):
        open_recorder(old_store).get(CLUB_MATCH)
    result = run(old_store, "show", str(CLUB_MATCH)[:8])
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    listed = run(old_store, "list", "--json")  # every other match is still listed
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 13


def test_audit_finds_in_the_old_store_only_what_was_planted_there(old_store, monkeypatch):
    monkeypatch.chdir(FIXTURE)
    result = run(old_store, "audit", "--all")
    assert result.returncode == 1  # the running Topitop match carries a wrong claim
    assert result.stdout.strip().endswith(
        "13 matches audited: 12 clean, 1 with findings (ab2427da)"
    )
    for match_id, then in EXPECTED.items():  # the receipts release 0.1 printed still verify
        assert receipt_verifies(old_store, match_id, then["head"]), match_id


def test_exported_and_imported_into_either_store_every_receipt_verifies(old_store, any_store):
    exported = run(old_store, "export", "--all").stdout.splitlines()
    records = [json.loads(line) for line in exported]
    assert {r["format"] for r in records} == {"tablelog-match/2"}
    portable = [r for r in records if UUID(r["id"]) != CLUB_MATCH]  # a path is not content
    result = run(any_store, "import", "-", stdin="\n".join(map(json.dumps, portable)))
    assert result.returncode == 0 and "imported 12 matches" in result.stdout
    copy = open_recorder(any_store)
    for record in portable:
        then = EXPECTED[record["id"]]
        match = copy.get(UUID(record["id"]))
        assert match.head_hash == then["head"]  # same ids, times, hashes: same receipts
        assert receipt_verifies(any_store, record["id"], then["head"])
        assert match.created_on.isoformat() == record["started_at"]
        assert same_state(match, then["state"])
    club = next(r for r in records if UUID(r["id"]) == CLUB_MATCH)
    with pytest.raises(
        Exception, match=re.escape("names its manifest by the path 'club-topas.json'")
    ):
        from_record(club)


def test_records_release_0_1_exported_import_with_their_receipts(any_store):
    lines = (FIXTURE / "export.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert {r["format"] for r in records} == {"tablelog-match/1"}
    portable = [r for r in records if UUID(r["id"]) != CLUB_MATCH]
    result = run(any_store, "import", "-", stdin="\n".join(map(json.dumps, portable)))
    assert result.returncode == 0, result.stderr
    for record in portable:
        assert (
            open_recorder(any_store).get(UUID(record["id"])).head_hash
            == EXPECTED[record["id"]]["head"]
        )
