"""An API over a fresh SQLite store, as a Flask test client; and the example matches."""

from __future__ import annotations

import json

import pytest

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tests.packaged import data_path

EXAMPLES = data_path("examples")
GAME_IDS = ["topiary", "total-landscaping", "topas", "geoshapes", "topitop"]
TOKEN = "s3cret-token-for-tests"


def example(game: str) -> dict:
    return json.loads((EXAMPLES / f"{game}.json").read_text())


@pytest.fixture
def app(recorder):
    """The API alone, writes open (as on a loopback bind)."""
    return create_app(recorder, WritePolicy())


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def guarded(recorder):
    """The API as bound to a network address, with a write token."""
    return create_app(recorder, WritePolicy.for_bind("0.0.0.0", TOKEN)).test_client()


def new_match(client, game="topitop", players=("Ann", "Ben"), **fields) -> dict:
    answer = client.post("/api/v1/matches", json={"game": game, "players": list(players), **fields})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def move(client, match_id, seat, the_move, **fields):
    return client.post(
        f"/api/v1/matches/{match_id}/moves", json={"seat": seat, "move": the_move, **fields}
    )
