"""Where a client starts: `GET /api/v1/` is the API's index in JSON, and any other path under
/api/v1/ that names no endpoint is a JSON 404, on the API alone and under the dashboard."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy
from tablelog.api import register_api

UNKNOWN = ("/api/v1/nowhere", "/api/v1/matches/abcd/nothing", "/api/v1/games/x/y/z")


@pytest.fixture
def dashboard(store):
    """The API as `tablelog serve` mounts it: on the dashboard's server, which answers every
    other path with a page."""
    from tablelog.dashboard.app import create_app

    app = create_app(store, refresh_every=None)
    register_api(app.server, app.server.extensions["tablelog"].recorder, WritePolicy())
    return app.server.test_client()


@pytest.fixture(params=["api-alone", "under-dashboard"])
def served(request, client, dashboard):
    return client if request.param == "api-alone" else dashboard


def test_the_index_is_json_and_links_to_the_document_and_the_docs(served):
    answer = served.get("/api/v1/")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    index = answer.get_json()
    assert "docs/api.md" in index["links"]["docs"]
    document = served.get(index["links"]["openapi"])  # the link works
    assert document.status_code == 200 and document.get_json()["openapi"] == "3.1.0"
    assert served.get(index["links"]["matches"]).get_json()["count"] == 0


def test_the_index_lists_every_documented_endpoint(served):
    index = served.get("/api/v1/").get_json()
    listed = {(e["method"].lower(), e["path"]) for e in index["endpoints"]}
    documented = {
        (method, path)
        for path, item in served.get("/api/v1/openapi.json").get_json()["paths"].items()
        for method in item
        if path not in ("/api/v1/", "/api/v1/openapi.json")  # the index and the document
    }
    assert listed == documented


def test_the_prefix_without_its_slash_leads_to_the_index(served):
    answer = served.get("/api/v1", follow_redirects=True)
    assert answer.status_code == 200 and answer.get_json()["links"]


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_an_unknown_path_is_a_json_404_whatever_the_method(served, method):
    for path in UNKNOWN:
        answer = getattr(served, method)(path, json={})
        assert answer.status_code == 404, (method, path)
        body = answer.get_json()
        assert body["error"] == "not-found" and path in body["message"]


def test_a_known_path_with_another_method_is_a_405_naming_the_methods_it_takes(served):
    answer = served.delete("/api/v1/matches")
    assert answer.status_code == 405 and answer.mimetype == "application/json"
    assert set(answer.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    assert "DELETE" not in answer.headers["Allow"]
    assert served.post("/api/v1/", json={}).status_code == 405
