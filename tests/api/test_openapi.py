"""The OpenAPI document: valid, served as built, and naming exactly the routes the server has."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate

from tablelog.access import WritePolicy
from tablelog.api import build_document, create_app

POLICIES = {"open": WritePolicy(), "token": WritePolicy.for_bind("0.0.0.0", "t0ken")}


@pytest.mark.parametrize("policy", POLICIES.values(), ids=POLICIES.keys())
def test_the_document_is_valid_openapi_31(policy):
    document = build_document(policy)
    assert document["openapi"] == "3.1.0"
    validate(document)


@pytest.mark.parametrize("policy", POLICIES.values(), ids=POLICIES.keys())
def test_the_server_serves_the_document_and_every_route_in_it(recorder, policy):
    app = create_app(recorder, policy)
    served = app.test_client().get("/api/v1/openapi.json")
    assert served.status_code == 200 and served.get_json() == build_document(policy)
    routes = {
        (rule.rule.replace("<", "{").replace(">", "}"), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1")
        and rule.endpoint != "tablelog_api.nothing_here"  # the JSON 404 for the rest
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }
    documented = {
        (path, method) for path, item in served.get_json()["paths"].items() for method in item
    }
    assert routes == documented


def test_writes_declare_what_the_policy_asks():
    open_doc, token_doc = build_document(POLICIES["open"]), build_document(POLICIES["token"])
    move = "/api/v1/matches/{match}/moves"
    assert "security" not in open_doc["paths"][move]["post"]
    assert "403" in open_doc["paths"][move]["post"]["responses"]
    assert token_doc["paths"][move]["post"]["security"] == [{"bearer": []}]
    assert "401" in token_doc["paths"][move]["post"]["responses"]
    assert "securitySchemes" not in open_doc["components"]
    reads = token_doc["paths"]["/api/v1/matches/{match}"]["get"]
    assert "security" not in reads and "401" not in reads["responses"]


def test_the_document_names_every_answer_of_an_operation():
    responses = build_document(POLICIES["open"])["paths"]["/api/v1/matches/{match}/moves"]["post"][
        "responses"
    ]
    assert set(responses) == {"200", "400", "401", "403", "404", "409", "413", "415", "422"}


def test_no_description_a_person_reads_names_an_option_by_its_key():
    """Summaries and descriptions are read by people: a game's option is named in words there
    ("when the last player chooses"), never by its key (`last_player_chooses`), which stays
    what a request sends."""
    import dataclasses

    from tablelog.domain.games import PLUGINS

    keys = {
        f.name
        for plugin in PLUGINS.values()
        if plugin.declaration.options is not None
        for f in dataclasses.fields(plugin.declaration.options)
        if "_" in f.name
    }
    assert "last_player_chooses" in keys
    said: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            said.extend(
                v for k, v in node.items() if k in ("summary", "description") and isinstance(v, str)
            )
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(build_document(WritePolicy()))
    assert said
    assert [(key, text) for text in said for key in keys if key in text] == []
