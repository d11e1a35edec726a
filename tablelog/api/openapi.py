"""The OpenAPI 3.1 document of /api/v1, generated from the route table and the write policy.

Nothing here is written by hand twice: paths, parameters, request schemas and answers come from
`routes.ENDPOINTS`; the answers every endpoint of a kind can give (a malformed body, a missing
token...) are added by the same rules `server.py` enforces. The write policy decides whether the
writes declare the bearer scheme (a token is required) or may answer 403 (open on loopback).
"""

from __future__ import annotations

from typing import Any

from tablelog.access import WritePolicy
from tablelog.domain.plain import PlainDict
from tablelog.domain.recording.users import ROLES
from tablelog.gate import IN_A_MATCH, role_may

from .routes import ENDPOINTS, PREFIX, WRITE_ACTIONS, Answer, Endpoint
from .schemas import COMPONENTS, ref

TITLE = "Tablelog"
API_VERSION = "1.0.0"

DESCRIPTION = """Record tabletop matches move by move, read any match at any step, its score,
legal moves, event log and audit, and the balance statistics per game. Every entry is checked
by the same recorder and rules as the `tablelog` command line: a refusal stores nothing and
answers `{"error": KIND, "message": REASON}`. See docs/api.md."""

# The documentation is not served: it ships in the checkout and the sdist.
DOCS = "docs/api.md in the Tablelog sources (the endpoints, errors and a curl example per game)"

WRITE_AUTH = {
    "open": "Writes are open to this machine (the server is bound to loopback): a write is "
    "refused (403) when it arrives under a host name that is not a loopback one.",
    "token": "Writes need `Authorization: Bearer TOKEN` (401 otherwise); reads are open.",
}


def build_index() -> PlainDict:
    """What `GET /api/v1/` answers: a client (or a person with curl) starts here."""
    return {
        "api": TITLE,
        "version": API_VERSION,
        "description": DESCRIPTION.replace("\n", " "),
        "links": {
            "openapi": PREFIX + "/openapi.json",
            "docs": DOCS,
            "matches": PREFIX + "/matches",
        },
        "endpoints": [
            {"method": e.method, "path": PREFIX + e.path, "summary": e.summary} for e in ENDPOINTS
        ],
    }


def build_document(policy: WritePolicy) -> dict[str, Any]:
    paths: dict[str, dict[str, object]] = {}
    for endpoint in ENDPOINTS:
        paths.setdefault(PREFIX + endpoint.path, {})[endpoint.method.lower()] = _operation(
            endpoint, policy
        )
    paths[PREFIX + "/"] = {
        "get": {
            "operationId": "index",
            "tags": ["meta"],
            "summary": "The API's index",
            "description": "Where to start: links to this document and the documentation, "
            "and every endpoint with its method and summary.",
            "responses": {
                "200": {
                    "description": "The index.",
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
            },
        }
    }
    paths[PREFIX + "/openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "tags": ["meta"],
            "summary": "This document",
            "responses": {
                "200": {
                    "description": "The OpenAPI document.",
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
            },
        }
    }
    components: dict[str, object] = {"schemas": COMPONENTS}
    if not policy.open:
        components["securitySchemes"] = {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "The server's write token (--write-token).",
            }
        }
    document: dict[str, object] = {
        "openapi": "3.1.0",
        "info": {
            "title": TITLE,
            "version": API_VERSION,
            "description": DESCRIPTION + "\n\n" + WRITE_AUTH["open" if policy.open else "token"],
        },
        "paths": paths,
        "components": components,
    }
    return document


def _operation(endpoint: Endpoint, policy: WritePolicy) -> dict[str, object]:
    operation: dict[str, object] = {
        "operationId": endpoint.operation_id,
        "tags": [endpoint.tag],
        "summary": endpoint.summary,
        "description": endpoint.description,
    }
    if endpoint.params:
        operation["parameters"] = [
            {
                "name": p.name,
                "in": p.where,
                "required": p.where == "path" or p.required,
                "description": p.description,
                "schema": p.schema,
            }
            for p in endpoint.params
        ]
    if endpoint.body:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": ref(endpoint.body)}},
        }
    if endpoint.write and not policy.open:
        operation["security"] = [{"bearer": []}]
    responses = operation["responses"] = _responses(endpoint, policy)
    ok = endpoint.answers[0]
    if endpoint.operation_id == "create_match":
        responses[str(ok.status)]["links"] = _links_from_new_match()
    return operation


def _responses(endpoint: Endpoint, policy: WritePolicy) -> dict[str, dict[str, object]]:
    """The endpoint's own answers, and those its kind gives (merged by status)."""
    answers: list[Answer] = list(endpoint.answers)
    if any(p.where == "query" for p in endpoint.params):
        answers.append(
            Answer(
                400, "Error", "A query parameter of the wrong type or out of range (`bad-request`)."
            )
        )
    if any(p.where == "path" for p in endpoint.params):
        answers.append(Answer(404, "Error", "Nothing at this path."))
    if endpoint.body:
        answers += [
            Answer(
                400,
                "Error",
                "The body is not JSON, or not the shape this operation takes "
                "(`bad-request`): the message says which field.",
            ),
            Answer(413, "Error", "The body is larger than the server takes (`too-large`)."),
            Answer(415, "Error", "The body is not `application/json` (`unsupported-media-type`)."),
        ]
    if endpoint.write:
        answers += _role_check(endpoint, policy)
    merged: dict[str, dict[str, object]] = {}
    for answer in answers:
        status = str(answer.status)
        if status in merged:
            merged[status]["description"] = f"{merged[status]['description']} {answer.description}"
            continue
        merged[status] = {
            "description": answer.description,
            "content": {"application/json": {"schema": ref(answer.schema)}},
        }
        if answer.headers:
            merged[status]["headers"] = {name: HEADERS[name] for name in answer.headers}
    return dict(sorted(merged.items()))


def _role_check(endpoint: Endpoint, policy: WritePolicy) -> list[Answer]:
    """The 401 and 403 of the door every write goes through (tablelog/gate.py): the write
    policy's while the store has no people, the role matrix's from its first admin on (which a
    running server may gain at any time, so both are always declared)."""
    action = WRITE_ACTIONS[endpoint.operation_id]
    roles = " or ".join(r for r in ROLES if role_may(r, action))
    policy_401 = (
        ""
        if policy.open
        else "Without people in the store: no bearer token, or not the server's write token. "
    )
    policy_403 = (
        "Without people in the store: a write under a host name that is not loopback, on a "
        "server whose writes are open to this machine only. "
        if policy.open
        else ""
    )
    limited = (
        " or a limited recorder writing in a match they did not start and were not assigned to"
        if action in IN_A_MATCH
        else ""
    )
    return [
        Answer(
            401,
            "Error",
            f"{policy_401}With people in the store (an admin added): no person's bearer token, "
            "or one that is wrong, revoked or expired, or whose holder is disabled "
            "(`unauthorized`).",
            headers=("WWW-Authenticate",),
        ),
        Answer(
            403,
            "Error",
            f"{policy_403}With people in the store: the token's holder may not {action} "
            f"(it takes {roles}){limited} (`forbidden`).",
        ),
    ]


HEADERS = {
    "Location": {
        "description": "The new match's URL.",
        "required": True,
        "schema": {"type": "string"},
    },
    "WWW-Authenticate": {
        "description": "`Bearer`: the scheme writes need.",
        "required": True,
        "schema": {"type": "string"},
    },
}


def _links_from_new_match() -> PlainDict:
    """From a new match to every operation on it (clients and test tools follow these)."""
    return {
        "".join(word.capitalize() for word in e.operation_id.split("_")): {
            "operationId": e.operation_id,
            "parameters": {"match": "$response.body#/id"},
        }
        for e in ENDPOINTS
        if e.path.startswith("/matches/{match}")
    }
