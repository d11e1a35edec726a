"""The dashboard over a PostgreSQL store: its data layer reads the projection tables there, a
page's callback answers through Flask, and the library's runner brings new matches in."""

from __future__ import annotations

import json
import threading
import time

import pytest
from werkzeug.serving import make_server

from tablelog.dashboard.app import create_app
from tablelog.dashboard.data import Source
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder
from tests.dashboard.conftest import EVE, hand_logged_match
from tests.dashboard.test_browser import wait_for_title
from tests.test_recorder import WIN, play


def test_the_data_layer_reads_the_tables_from_postgresql(postgres_store):
    recorder = open_recorder(postgres_store)
    source = Source(recorder)
    first = hand_logged_match(recorder)
    source.refresh()
    matches = source.table("matches", game="topitop")
    assert list(matches["match_id"]) == [str(first)]
    assert matches.iloc[0].status == "disputed" and json.loads(matches.iloc[0].seats)[0] == EVE
    assert str(matches["started"].dtype) == "datetime64[us, UTC]"
    assert source.table("matches", game="topitop") is matches  # nothing new: the same frame
    assert source.queries.candidates(str(first)[:6]) == [str(first)]
    moves = source.table("moves", match_id=str(first))
    assert list(moves["undone"]) == [False] * 5 + [True, False]
    assert moves["score_change"].dtype == "float64"


def test_a_dashboard_on_postgresql_shows_a_new_match_without_a_restart(postgres_store):
    recorder = open_recorder(postgres_store)
    app = create_app(postgres_store, refresh_every=0.5)  # on PostgreSQL: the library's runner
    try:
        client = app.server.test_client()
        assert client.get("/").status_code == 200
        source = app.server.extensions["tablelog"]
        finished = play(recorder, WIN)
        recorder.end(finished)
        deadline = time.monotonic() + 20
        while source.position() < recorder.recorder.max_notification_id():
            assert time.monotonic() < deadline, app.server.extensions["tablelog-refresher"].error
            time.sleep(0.05)
        row = source.table("matches").set_index("match_id").loc[str(finished)]
        assert (row.status, json.loads(row.winners)) == ("ended", ["Ann"])
        answer = client.post("/_dash-update-component", json=overview_request())
        assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
        assert "Topitop" in answer.get_data(as_text=True)  # the game by its name, as shown
    finally:
        app.server.extensions["tablelog-refresher"].stop()


def overview_request() -> dict:
    """What the browser posts when the Overview page asks for its figures."""
    outputs = [
        ("overview-stats", "children"),
        ("overview-games", "figure"),
        ("overview-recent", "rowData"),
    ]
    return {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in outputs) + "..",
        "outputs": [{"id": i, "property": p} for i, p in outputs],
        "inputs": [{"id": "overview-position", "property": "data", "value": 1}],
        "changedPropIds": ["overview-position.data"],
        "state": [],
    }


@pytest.mark.browser
def test_the_pages_render_in_a_browser_and_a_new_match_appears(postgres_store, page):
    recorder = open_recorder(postgres_store)
    for game, matches in (("topitop", 6), ("topiary", 3)):
        simulate(recorder, make_plan(game, matches, seed=11), workers=1, progress=False)
    shown = hand_logged_match(recorder)
    app = create_app(postgres_store, refresh_every=0.5)
    server = make_server("127.0.0.1", 0, app.server, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    try:
        for path, (graph_id, title) in {
            "/": ("overview-games", "Matches by game"),
            "/balance": ("balance-seats", "Win rate by seat"),
            "/players": ("players-ratings", "Ratings over time"),
            f"/match?id={shown}": ("match-board", "Topitop"),
        }.items():
            page.goto(url + path)
            wait_for_title(page, graph_id, title)
        page.goto(url + "/")
        wait_for_title(page, "overview-games", "Matches by game")
        page.wait_for_function("document.querySelector('.stat .value').innerText === '10'")
        simulate(recorder, make_plan("topitop", 1, seed=99), workers=1, progress=False)
        page.wait_for_function("document.querySelector('.stat .value').innerText === '11'")
        assert page.errors == []
    finally:
        server.shutdown()
        app.server.extensions["tablelog-refresher"].stop()
