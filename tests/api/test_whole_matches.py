"""A whole match of each game through the API, and the same match through the command line:
the stored events must be the same, type by type and field by field (ids and times aside).

Each game's example record (data/examples/<game>.json) gives the setup, the options and the
moves; to every match we add an undo and the re-entry of the second move, and a dispute and its
ruling before the end, so every kind of entry goes through both doors. Every API entry carries
the version it was made against, as a careful client sends it.
"""

from __future__ import annotations

import json

import pytest

from tablelog.domain.games import get_rules
from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.matches.entering import os_user
from tablelog.projections.queries import Queries
from tests.test_cli import run

from .conftest import GAME_IDS, example, new_match

# entered_by names the same person both ways (the OS user, on an open loopback server) but says
# how it came in (`via`: api or command line); checked apart.
IGNORED = ("originator_id", "timestamp", "prev_hash", "entered_by")


def script(record: dict) -> list[dict]:
    entries = list(record["events"])
    second = [i for i, entry in enumerate(entries) if entry["type"] == "move"][1]
    entries[second + 1 : second + 1] = [
        {"type": "undo", "by": "Ben", "reason": "entered the wrong piece"},
        entries[second],
    ]
    end = next(i for i, entry in enumerate(entries) if entry["type"] == "end")
    entries[end:end] = [
        {"type": "dispute", "by": "Ben", "about": "the last move"},
        {"type": "resolve", "by": "Umpire", "ruling": "it stands"},
    ]
    # Both doors take a move as a person types it (GeoShapes: a player by name), and store it in
    # the record's own form: the stored events are compared below.
    rules = get_rules(record["game"])
    return [
        {**e, "move": rules.shown_move(e["move"], record["seats"])} if e["type"] == "move" else e
        for e in entries
    ]


def through_api(client, record: dict) -> str:
    created = new_match(
        client,
        record["game"],
        record["seats"],
        options=record.get("options", {}),
        setup=record.get("setup", {}),
    )
    match_id, version = created["id"], created["version"]
    for entry in script(record):
        kind = entry["type"]
        requests: dict[str, tuple[str, dict[str, object]]] = {
            "move": ("moves", {"seat": entry.get("seat"), "move": entry.get("move")}),
            "undo": ("undo", {"by": entry.get("by"), "reason": entry.get("reason")}),
            "claim": ("claims", {"by": entry.get("by"), "scores": entry.get("scores")}),
            "dispute": ("disputes", {"by": entry.get("by"), "about": entry.get("about")}),
            "resolve": ("disputes/resolve", {"by": entry.get("by"), "ruling": entry.get("ruling")}),
            "end": ("end", {"draw": bool(entry.get("agreed_draw"))}),
        }
        path, body = requests[kind]
        answer = client.post(
            f"/api/v1/matches/{match_id}/{path}", json={**body, "version": version}
        )
        assert answer.status_code == 200, (entry, answer.get_json())
        assert answer.get_json()["version"] == version + 1
        version += 1
    return match_id


def through_cli(store: str, record: dict, tmp_path) -> str:
    setup = tmp_path / f"{record['game']}-setup.json"
    setup.write_text(json.dumps(record.get("setup", {})))
    options = [
        arg
        for key, value in record.get("options", {}).items()
        for arg in ("--option", f"{key}={json.dumps(value)}")
    ]
    started = run(
        store,
        "new",
        record["game"],
        "--players",
        ",".join(record["seats"]),
        *options,
        "--setup",
        str(setup),
    )
    assert started.returncode == 0, started.stderr
    match_id = started.stdout.strip()
    for entry in script(record):
        kind = entry["type"]
        args = {
            "move": ["move", match_id, "--seat", entry.get("seat"), json.dumps(entry.get("move"))],
            "undo": ["undo", match_id, "--by", entry.get("by"), "--reason", entry.get("reason")],
            "claim": [
                "claim",
                match_id,
                "--by",
                entry.get("by"),
                "--scores",
                json.dumps(entry.get("scores")),
            ],
            "dispute": [
                "dispute",
                match_id,
                "--by",
                entry.get("by"),
                "--about",
                entry.get("about"),
            ],
            "resolve": [
                "resolve",
                match_id,
                "--by",
                entry.get("by"),
                "--ruling",
                entry.get("ruling"),
            ],
            "end": ["end", match_id, *(["--draw"] if entry.get("agreed_draw") else [])],
        }[kind]
        done = run(store, *args)
        assert done.returncode == 0, (entry, done.stderr)
    return match_id


def stored(recorder, match_id: str) -> list[tuple[str, dict]]:
    return [
        (type(event).__name__, {k: v for k, v in vars(event).items() if k not in IGNORED})
        for event in recorder.stored_events(match_id)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
def test_a_whole_match_stores_the_same_events_as_the_command_line(
    game, client, recorder, store, tmp_path
):
    record = example(game)
    by_api = through_api(client, record)
    by_cli = through_cli(store, record, tmp_path)

    api_events, cli_events = stored(recorder, by_api), stored(recorder, by_cli)
    kinds = [kind for kind, _ in api_events]
    assert kinds[0] == "Started" and kinds[-1] == "Ended"
    assert {"MoveUndone", "DisputeRaised", "DisputeResolved"} <= set(kinds)
    assert len(api_events) == 1 + len(script(record))
    assert api_events == cli_events
    vias = {
        (e.entered_by["name"], e.entered_by["via"])
        for match_id in (by_api, by_cli)
        for e in recorder.stored_events(match_id)
    }
    assert vias == {(os_user(), "api"), (os_user(), "command line")}

    # Both ended as the example says, and both logs audit clean (the claims hold).
    state = client.get(f"/api/v1/matches/{by_api}").get_json()
    assert state["status"] == "ended"
    recorded_end = record["events"][-1]
    if "outcome" in recorded_end:
        assert api_events[-1][1]["outcome"] == recorded_end["outcome"]
    for match_id in (by_api, by_cli):
        assert audit_match(recorder, Queries(recorder).find(match_id))["clean"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_event_log_endpoint_is_the_exported_record(game, client, recorder):
    record = example(game)
    match_id = through_api(client, record)
    served = client.get(f"/api/v1/matches/{match_id[:8]}/events").get_json()
    assert served == recorder.export(Queries(recorder).find(match_id))
    assert [e["type"] for e in served["events"]] == [e["type"] for e in script(record)]
    assert served["setup"] == record.get("setup", {})
