"""A match carries the components it is played with: the manifest's content, its name and hash,
inside its Started event. Nothing about a stored match depends on a file afterwards, and nothing
a request names makes the server open a path."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.domain.games import GAMES
from tablelog.domain.games.manifests import content_hash
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.packaged import data_path
from tests.test_cli import run

TOPAS = json.loads(data_path("manifests", "topas.json").read_text(encoding="utf-8"))
START = {"start": "R1-G2"}
FIRST: dict[str, Any] = {"card": "R2-B1", "at": [0, 1], "dir": "E"}


def club_deck(without: str = "Y3-B2") -> dict:
    """A club's deck: the packaged one less a card (a club that lost one)."""
    deck = json.loads(json.dumps(TOPAS))
    deck["cards"] = [card for card in deck["cards"] if card != without]
    return deck


def started_event(store: str) -> dict:
    with sqlite3.connect(store) as db:
        (state,) = db.execute("SELECT state FROM stored_events ORDER BY rowid LIMIT 1").fetchone()
    return json.loads(state)


def play_club_match(store: str, **start) -> str:
    match_id = open_recorder(store).start("topas", ["Ann", "Ben"], setup=START, **start)
    open_recorder(store).record(match_id, "Ann", FIRST)
    return str(match_id)


def test_a_club_manifest_is_stored_whole_and_editing_or_deleting_it_changes_nothing(
    any_store, club_manifests, tmp_path, monkeypatch
):
    store = any_store
    club_manifests("club", club_deck())
    match_id = play_club_match(store, options={"manifest": "club"})
    components = open_recorder(store).stored_events(match_id)[0].components
    assert components == {
        "name": "club",
        "sha256": content_hash(club_deck()),
        "content": club_deck(),
    }
    before = json.loads(run(store, "score", match_id, "--json").stdout)
    export = run(store, "export", match_id).stdout
    folder = tmp_path / "club-manifests"
    # Edited: the card the match played is gone from the file (replaying from it would fail).
    (folder / "club.json").write_text(json.dumps(club_deck(without=FIRST["card"])))
    assert json.loads(run(store, "score", match_id, "--json").stdout) == before
    (folder / "club.json").unlink()  # and deleted
    monkeypatch.chdir(tmp_path.parent)  # from another directory
    assert json.loads(run(store, "score", match_id, "--json").stdout) == before
    assert run(store, "audit", match_id).returncode == 0
    assert run(store, "export", match_id).stdout == export
    copy = str(tmp_path / "copy.sqlite")  # (and from PostgreSQL into SQLite)
    assert run(copy, "import", "-", stdin=export).returncode == 0
    assert json.loads(run(copy, "score", match_id, "--json").stdout) == before


def test_a_manifest_file_is_read_on_the_client_and_not_needed_again(store, tmp_path):
    deck = tmp_path / "our-deck.json"
    deck.write_text(json.dumps(club_deck()))
    (tmp_path / "setup.json").write_text(json.dumps(START))
    created = run(
        store,
        "new",
        "topas",
        "--players",
        "Ann,Ben",
        "--manifest-file",
        str(deck),
        "--setup",
        str(tmp_path / "setup.json"),
    )
    assert created.returncode == 0, created.stderr
    match_id = created.stdout.strip()
    deck.unlink()
    moved = run(store, "move", match_id, "--seat", "Ann", json.dumps(FIRST))
    assert moved.returncode == 0, moved.stderr
    assert started_event(store)["components"]["name"] == "our-deck"
    assert started_event(store)["options"]["manifest"] == "our-deck"


@pytest.mark.parametrize(
    "name",
    [
        "/etc/passwd",
        "/etc/nonexistent",
        "../../etc/passwd",
        "club/../../x",
        "C:\\boot.ini",
        "club.json",
        "",
    ],
)
def test_a_path_is_never_opened_and_the_refusal_does_not_say_what_exists(store, name):
    result = run(store, "new", "topas", "--players", "Ann,Ben", "--option", f"manifest={name}")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "a manifest is named by letters, digits" in result.stderr
    for telling in ("not valid JSON", "does not exist", "Permission", "No such file"):
        assert telling not in result.stderr
    assert stored_rows(store) == []


def test_a_symlink_out_of_the_club_folder_reads_as_absent(store, club_manifests, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(TOPAS))
    folder = tmp_path / "club-manifests"
    (folder / "linked.json").symlink_to(outside)
    (folder / "dangling.json").symlink_to(tmp_path / "nothing-here.json")
    answers = [
        run(store, "new", "topas", "--players", "Ann,Ben", "--option", f"manifest={n}")
        for n in ("linked", "dangling", "missing")
    ]
    assert {a.returncode for a in answers} == {2}
    said = [a.stderr.replace(n, "NAME") for a, n in zip(answers, ("linked", "dangling", "missing"))]
    assert said[0] == said[1] == said[2] and "no manifest named 'NAME'" in said[0]
    assert stored_rows(store) == []


def test_through_the_api_the_content_is_handed_over_and_paths_are_refused(recorder):
    client = create_app(recorder, WritePolicy()).test_client()
    made = client.post(
        "/api/v1/matches",
        json={
            "game": "topas",
            "players": ["Ann", "Ben"],
            "setup": START,
            "manifest": {"name": "club", "content": club_deck()},
            "played_at": "2026-11-28T19:30:00+01:00",
        },
    )
    assert made.status_code == 201, made.get_json()
    match = recorder.get(made.get_json()["id"])
    assert match.components["content"] == club_deck()
    assert made.get_json()["played"] == "2026-11-28T18:30:00+00:00"
    answers = [
        client.post(
            "/api/v1/matches",
            json={
                "game": "topas",
                "players": ["Ann", "Ben"],
                "setup": START,
                "options": {"manifest": path},
            },
        )
        for path in ("/etc/passwd", "/etc/nonexistent")
    ]
    assert [a.status_code for a in answers] == [422, 422]
    messages = [
        a.get_json()["message"].replace(p, "PATH")
        for a, p in zip(answers, ("/etc/passwd", "/etc/nonexistent"))
    ]
    assert messages[0] == messages[1] and "a manifest is named by" in messages[0]
    assert len(list(recorder.started())) == 1


def test_a_manifest_that_fails_validation_names_the_entry_and_stores_nothing(store, tmp_path):
    deck = club_deck()
    deck["cards"][5] = deck["cards"][4]
    bad = tmp_path / "twice.json"
    bad.write_text(json.dumps(deck))
    result = run(store, "new", "topas", "--players", "Ann,Ben", "--manifest-file", str(bad))
    assert result.returncode == 2 and f"lists {deck['cards'][4]} twice" in result.stderr
    assert stored_rows(store) == []


def test_a_record_whose_components_do_not_match_their_hash_is_refused(
    store, club_manifests, tmp_path
):
    club_manifests("club", club_deck())
    record = json.loads(
        run(store, "export", play_club_match(store, options={"manifest": "club"})).stdout
    )
    record.pop("hash")  # a record without hashes is taken as typed, but its components...
    record["components"]["content"]["cards"].pop()  # ...are checked against theirs
    other = str(tmp_path / "other.sqlite")
    result = run(other, "import", "-", stdin=json.dumps(record))
    assert result.returncode == 2
    assert (
        "line 1: cannot start the match: the manifest 'club' does not match its recorded "
        "hash" in result.stderr
    )
    assert stored_rows(other) == []


def test_audit_flags_stored_components_that_no_longer_match_their_hash(store, club_manifests):
    club_manifests("club", club_deck())
    match_id = play_club_match(store, options={"manifest": "club"})
    with sqlite3.connect(store) as db:
        rowid, state = db.execute(
            "SELECT rowid, state FROM stored_events ORDER BY rowid LIMIT 1"
        ).fetchone()
        body = json.loads(state)
        body["components"]["content"]["cards"].pop()
        db.execute(
            "UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(body).encode(), rowid)
        )
    report = json.loads(run(store, "audit", match_id, "--json").stdout)
    assert not report["clean"]
    assert any("do not match their hash" in f["message"] for f in report["findings"])


def test_games_with_components_declare_their_packaged_default():
    for rules in GAMES.values():
        if rules.default_manifest is not None:
            assert data_path("manifests", f"{rules.default_manifest}.json").is_file()
