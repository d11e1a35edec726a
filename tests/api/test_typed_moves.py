"""Moves over the API in the words a person types, as `tablelog move` takes them: GeoShapes
players by name or number from 1 and names in any case are stored in the record's own form
(a stored seat counted from 0), and a seat that is no player is a 422 naming the players."""

from __future__ import annotations

from tablelog.store import open_recorder
from tests.api.conftest import move, new_match
from tests.games.test_geoshapes_words import _typed_example_moves
from tests.packaged import example


def test_the_geoshapes_example_typed_over_the_api_stores_the_records_own_moves(client, store):
    record = example("geoshapes")
    started = new_match(
        client, "geoshapes", options={"manifest": "geoshapes"}, setup=record["setup"]
    )
    for seat, typed in _typed_example_moves():
        answer = move(client, started["id"], seat, typed)
        assert answer.status_code == 200, (typed, answer.get_json())
    stored = open_recorder(store).get(started["id"])
    assert [m["move"] for m in stored.moves] == [
        e["move"] for e in record["events"] if e["type"] == "move"
    ]
    assert [s["total"] for s in stored.rules.score(stored.state)] == [25, -3]


def test_a_seat_that_is_no_player_is_refused_and_nothing_is_stored(client):
    setup = example("geoshapes")["setup"]
    started = new_match(client, "geoshapes", options={"manifest": "geoshapes"}, setup=setup)
    before = client.get(f"/api/v1/matches/{started['id']}").get_json()["version"]
    answer = move(client, started["id"], "Ann", {"pick_up": "Cid"})
    assert answer.status_code == 422
    assert "1 Ann, 2 Ben" in answer.get_json()["message"]
    assert client.get(f"/api/v1/matches/{started['id']}").get_json()["version"] == before


def test_every_legal_move_the_api_offers_can_be_sent_back_as_it_reads(client, store):
    """The legal moves name players as a person does, so a client posting one it was offered
    records exactly that move (a trade's partner, a pick-up's player)."""
    record = example("geoshapes")
    started = new_match(
        client, "geoshapes", options={"manifest": "geoshapes"}, setup=record["setup"]
    )
    offered = client.get(f"/api/v1/matches/{started['id']}/legal-moves").get_json()["moves"]
    trades = [m for m in offered["Ann"] if "trade" in m]
    assert trades and all(m["trade"]["with"] == "Ben" for m in trades)
    answer = move(client, started["id"], "Ann", trades[0])
    assert answer.status_code == 200, answer.get_json()
    stored = open_recorder(store).get(started["id"])
    assert stored.moves[-1]["move"]["trade"]["with"] == 1  # the record's own form: Ben, from 0
