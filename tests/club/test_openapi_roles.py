"""The served OpenAPI document declares the role check's answers: every write endpoint names
its 401 and 403, and the 403 names the roles docs/api.md's matrix gives that write; and the
answers a server with people really gives are among those its own document declares."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.api.routes import ENDPOINTS
from tablelog.domain.recording.users import ROLES, Users
from tests.club.test_role_matrix import (
    BODIES,
    SERVICE_TOKEN,
    bearer,
    documented_matrix,
    path_of,
)

WRITES = [e for e in ENDPOINTS if e.write]
BINDS = {"loopback": "127.0.0.1", "network": "0.0.0.0"}


def served_spec(client) -> dict:
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    return answer.get_json()


@pytest.mark.parametrize("bind", BINDS)
def test_every_write_declares_the_401_and_403_of_the_role_check(any_recorder, bind):
    client = create_app(any_recorder, WritePolicy.for_bind(BINDS[bind], SERVICE_TOKEN))
    paths = served_spec(client.test_client())["paths"]
    matrix = documented_matrix()
    for endpoint in WRITES:
        responses = paths["/api/v1" + endpoint.path][endpoint.method.lower()]["responses"]
        assert {"401", "403"} <= set(responses), endpoint.operation_id
        assert "revoked" in responses["401"]["description"]
        assert "WWW-Authenticate" in responses["401"]["headers"]
        forbidden = responses["403"]["description"]
        (action,) = [a for a in matrix if f"may not {a} " in forbidden]
        allowed = [r for r in ROLES if r in matrix[action]]
        assert f"(it takes {' or '.join(allowed)})" in forbidden, endpoint.operation_id


def test_the_answers_of_a_server_with_people_are_the_ones_its_document_declares(any_recorder):
    people = Users(any_recorder)
    people.add("Ada", "admin")
    people.add("Vic", "viewer")
    viewer = people.issue_token("Vic")[1]
    recorder_token = people.issue_token("Ada")[1]
    client = create_app(any_recorder, WritePolicy.for_bind("0.0.0.0", SERVICE_TOKEN)).test_client()
    paths = served_spec(client)["paths"]
    match_id = client.post(
        "/api/v1/matches", json=BODIES["create_match"], headers=bearer(recorder_token)
    ).get_json()["id"]
    for endpoint in WRITES:
        declared = paths["/api/v1" + endpoint.path][endpoint.method.lower()]["responses"]
        for headers, status in (({}, 401), (bearer("tlk_wrong"), 401), (bearer(viewer), 403)):
            answer = client.open(
                path_of(endpoint, match_id),
                method=endpoint.method,
                json=BODIES[endpoint.operation_id],
                headers=headers,
            )
            assert answer.status_code == status, (endpoint.operation_id, answer.get_json())
            assert str(status) in declared, endpoint.operation_id
