"""The role matrix over the API, on SQLite and PostgreSQL: every write by every role, as
docs/api.md states it; tokens refused at their next use once revoked; a limited recorder;
the write token as a recorder service; no token in any log line or answer."""

from __future__ import annotations

import logging
import re
import uuid
from pathlib import Path

import pytest

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.api.routes import ENDPOINTS
from tablelog.api.server import WRITE_ACTIONS
from tablelog.domain.recording.users import ROLES, Users
from tablelog.gate import ACTIONS

SERVICE_TOKEN = "service-token-for-tests"
DOCS = Path(__file__).parents[2] / "docs" / "api.md"
BODIES = {
    "create_match": {"game": "topitop", "players": ["Ann", "Ben"]},
    "create_sheet": {"game": "topitop", "players": ["Ann", "Ben"], "sheet": {}},
    "record_move": {"seat": "Ann", "move": {"nonsense": True}},
    "undo_move": {"by": "Ann", "reason": "slip"},
    "claim_result": {"by": "Ann", "scores": {"Ann": 1, "Ben": 0}},
    "raise_dispute": {"by": "Ben", "about": "the last move"},
    "resolve_dispute": {"by": "Uma", "ruling": "it stands"},
    "end_match": {},
    "abandon_match": {"by": "Ann", "reason": "closing time"},
    "start_experiment": {"kind": "variants", "game": "topitop"},
    "cancel_experiment": {},
}


def documented_matrix() -> dict[str, set[str]]:
    """write -> the roles docs/api.md says may make it."""
    matrix = {}
    for line in DOCS.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[2:] and set(cells[2:]) <= {"yes", "no", "yes*"}:
            matrix[cells[0]] = {r for r, c in zip(ROLES, cells[2:]) if c.startswith("yes")}
    return matrix


def test_the_documented_matrix_is_the_one_enforced():
    enforced = {
        a: {r for r in ROLES if ROLES.index(r) >= ROLES.index(least)}
        for a, least in ACTIONS.items()
    }
    assert documented_matrix() == enforced


def test_every_write_endpoint_has_its_place_in_the_matrix():
    writes = {e.operation_id for e in ENDPOINTS if e.write}
    assert writes == set(WRITE_ACTIONS) == set(BODIES)
    assert set(WRITE_ACTIONS.values()) == set(ACTIONS)


@pytest.fixture
def club(any_recorder):
    """A network-bound API with accounts on: a token per role, and a match started by the
    recorder."""
    people = Users(any_recorder)
    tokens = {}
    for role in ROLES:
        people.add(role.capitalize(), role)
        tokens[role] = people.issue_token(role.capitalize())[1]
    app = create_app(any_recorder, WritePolicy.for_bind("0.0.0.0", SERVICE_TOKEN))
    client = app.test_client()
    started = client.post(
        "/api/v1/matches", json=BODIES["create_match"], headers=bearer(tokens["recorder"])
    )
    assert started.status_code == 201, started.get_json()
    return client, people, tokens, started.get_json()["id"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def path_of(endpoint, match_id: str) -> str:
    return "/api/v1" + endpoint.path.replace("{match}", match_id).replace(
        "{experiment}", str(uuid.uuid4())
    )


@pytest.mark.parametrize("role", ROLES)
def test_every_write_by_every_role(club, role):
    client, _, tokens, match_id = club
    for endpoint in (e for e in ENDPOINTS if e.write):
        action = WRITE_ACTIONS[endpoint.operation_id]
        answer = client.open(
            path_of(endpoint, match_id),
            method=endpoint.method,
            json=BODIES[endpoint.operation_id],
            headers=bearer(tokens[role]),
        )
        allowed = ROLES.index(role) >= ROLES.index(ACTIONS[action])
        if allowed:
            assert answer.status_code not in (401, 403), (action, answer.get_json())
        else:
            assert answer.status_code == 403, (action, answer.get_json())
            assert answer.get_json()["error"] == "forbidden"
            assert f"is a {role}" in answer.get_json()["message"]


def test_no_token_and_a_wrong_token_are_401_with_accounts_on(club):
    client, *_ = club
    assert client.post("/api/v1/matches", json=BODIES["create_match"]).status_code == 401
    wrong = client.post("/api/v1/matches", json=BODIES["create_match"], headers=bearer("guess"))
    assert wrong.status_code == 401


def test_a_revoked_token_is_refused_at_its_next_request(club):
    client, people, _, _ = club
    people.add("Rob", "recorder")
    row, secret = people.issue_token("Rob", label="phone")
    first = client.post("/api/v1/matches", json=BODIES["create_match"], headers=bearer(secret))
    assert first.status_code == 201
    people.revoke(row.id)
    again = client.post("/api/v1/matches", json=BODIES["create_match"], headers=bearer(secret))
    assert again.status_code == 401 and "revoked" in again.get_json()["message"]


def test_a_disabled_persons_token_stops_working_at_once(club):
    client, people, tokens, _ = club
    people.set_disabled("Umpire")
    answer = client.post(
        "/api/v1/matches", json=BODIES["create_match"], headers=bearer(tokens["umpire"])
    )
    assert answer.status_code == 401


def test_the_write_token_is_a_recorder_service_once_accounts_are_on(club):
    client, _, _, match_id = club
    answer = client.post(
        f"/api/v1/matches/{match_id}/moves",
        json={"seat": "Ann", "move": {"nonsense": 1}},
        headers=bearer(SERVICE_TOKEN),
    )
    assert answer.status_code not in (401, 403)
    dispute = client.post(
        f"/api/v1/matches/{match_id}/disputes",
        json=BODIES["raise_dispute"],
        headers=bearer(SERVICE_TOKEN),
    )
    assert dispute.status_code == 403
    ended = client.post(
        f"/api/v1/matches/{match_id}/abandon",
        json=BODIES["abandon_match"],
        headers=bearer(SERVICE_TOKEN),
    )
    assert ended.status_code == 200
    events = client.get(f"/api/v1/matches/{match_id}/events").get_json()
    assert events["events"][-1]["entered_by"]["name"] == "write token"


def test_each_entry_says_who_entered_it(club):
    client, _, tokens, match_id = club
    client.post(
        f"/api/v1/matches/{match_id}/disputes",
        json=BODIES["raise_dispute"],
        headers=bearer(tokens["umpire"]),
    )
    record = client.get(f"/api/v1/matches/{match_id}/events").get_json()
    assert record["entered_by"]["name"] == "Recorder"
    umpire = club[1].named("Umpire")
    assert record["events"][-1]["entered_by"] == {"id": umpire.id, "name": "Umpire", "via": "api"}


def test_a_limited_recorder_writes_only_in_their_own_or_assigned_matches(club):
    client, people, _, others = club
    people.add("Lou", "recorder", limited=True)
    lou = bearer(people.issue_token("Lou")[1])
    close = {"by": "Ann", "reason": "closing time"}
    assert (
        client.post(f"/api/v1/matches/{others}/abandon", json=close, headers=lou).status_code == 403
    )
    own = client.post("/api/v1/matches", json=BODIES["create_match"], headers=lou).get_json()["id"]
    assert client.post(f"/api/v1/matches/{own}/abandon", json=close, headers=lou).status_code == 200
    people.assign("Lou", others)
    assert (
        client.post(f"/api/v1/matches/{others}/abandon", json=close, headers=lou).status_code == 200
    )


def test_no_token_appears_in_any_log_line_or_answer(club, caplog):
    client, people, tokens, _ = club
    row, secret = people.issue_token("Viewer")
    people.revoke(row.id)
    caplog.set_level(logging.DEBUG)
    answers = [
        client.post("/api/v1/matches", json=BODIES["create_match"], headers=bearer(token))
        for token in (*tokens.values(), secret, SERVICE_TOKEN)
    ]
    texts = caplog.text + "".join(a.get_data(as_text=True) for a in answers)
    for token in (*tokens.values(), secret, SERVICE_TOKEN):
        assert token not in texts
    assert not re.search(r"tlk_[A-Za-z0-9_-]{20,}", texts)
