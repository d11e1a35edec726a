"""The API mounted on the dashboard's Flask server: one process serves both, and neither takes
the other's paths."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy
from tablelog.api import register_api


@pytest.fixture
def served(store):
    from tablelog.dashboard.app import create_app

    app = create_app(store, refresh_every=None)
    register_api(app.server, app.server.extensions["tablelog"].recorder, WritePolicy())
    return app.server.test_client()


def test_the_dashboard_and_the_api_share_one_server(served):
    created = served.post("/api/v1/matches", json={"game": "topitop", "players": ["A", "B"]})
    assert created.status_code == 201
    assert served.get("/api/v1/matches").get_json()["count"] == 1
    page = served.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"


def test_unknown_api_paths_are_json_not_dashboard_pages(served):
    for path in ("/api/v1/nowhere", "/api/v1/matches/abcd/nothing"):
        answer = served.get(path)
        assert (answer.status_code, answer.get_json()["error"]) == (404, "not-found")
    answer = served.delete("/api/v1/matches")
    assert answer.status_code == 405 and answer.mimetype == "application/json"
