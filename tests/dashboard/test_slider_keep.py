"""The Match page's slider keeps each step's board once drawn (a stored step never changes),
through new events: a move recorded after the page opened shows at its step, never a stale
board or the refusal of a step that did not exist yet. Real SQLite store, real app, its HTTP
callback route."""

from __future__ import annotations

import pytest

from tablelog.dashboard.app import create_app
from tablelog.store import open_recorder

STEP = [("match-board", "figure"), ("match-score", "figure"), ("match-caption", "children")]
LOG = "match-log-data"
LOAD = [  # every output of the page's load callback, in its order
    ("match-step", "max"),
    ("match-step", "value"),
    ("match-step", "marks"),
    ("match-log", "rowData"),
    (LOG, "data"),
    ("match-claims", "rowData"),
    ("match-audit", "children"),
    ("match-summary", "children"),
    ("match-values", "children"),
]


def post(client, outputs, inputs, state):
    body = {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in outputs) + "..",
        "outputs": [{"id": i, "property": p} for i, p in outputs],
        "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
        "changedPropIds": [f"{i}.{p}" for i, p, _ in inputs],
        "state": [{"id": i, "property": p, "value": v} for i, p, v in state],
    }
    return client.post("/_dash-update-component", json=body)


def event_log(client, match_id: str) -> list[dict]:
    """The log the page holds after loading the match (the slider callback reads it)."""
    answer = post(
        client,
        LOAD,
        [("match-pick", "value", match_id), ("match-position", "data", None)]
        + [("match-back", "n_clicks", None), ("match-forward", "n_clicks", None)],
        [("match-step", "value", None), ("match-step", "max", None), (LOG, "data", None)],
    )
    return answer.get_json()["response"][LOG]["data"]


def at_step(client, match_id: str, step: int, log: list[dict]):
    return post(
        client,
        STEP,
        [("match-step", "value", step)],
        [("match-pick", "value", match_id), (LOG, "data", log)],
    )


def pieces(answer) -> set[str]:
    """The pieces on the drawn board, by their shape names ("c3:0:small")."""
    shapes = answer.get_json()["response"]["match-board"]["figure"]["layout"]["shapes"]
    return {s["name"] for s in shapes if not s["name"].startswith("cell ")}


@pytest.fixture
def opened(tmp_path):
    """A Topitop match of two moves, its app opened on it; (recorder, app client, match id)."""
    path = str(tmp_path / "store.sqlite")
    recorder = open_recorder(path)
    match_id = str(recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    recorder.record(match_id, "Ben", {"place": "small", "to": "a1"})
    app = create_app(path, refresh_every=None)
    yield recorder, app.server.test_client(), match_id
    recorder.close()


def test_a_move_recorded_later_shows_at_its_step(opened):
    recorder, client, match_id = opened
    log = event_log(client, match_id)
    before = pieces(at_step(client, match_id, 2, log))
    assert not any(name.startswith("c3:") for name in before)
    # Asked for before it exists: refused on the page (no board), not kept for that step.
    early = at_step(client, match_id, 3, log).get_json()
    assert "match-board" not in early["response"] and "not 3" in str(early["sideUpdate"])

    recorder.record(match_id, "Ann", {"place": "small", "to": "c3"})
    log = event_log(client, match_id)
    after = pieces(at_step(client, match_id, 3, log))
    assert any(name.startswith("c3:") for name in after)
    assert before < after
    # The kept step 2 is still the board as it was after two moves.
    assert pieces(at_step(client, match_id, 2, log)) == before


def test_an_undo_is_a_new_step_and_the_kept_ones_stay_true(opened):
    recorder, client, match_id = opened
    log = event_log(client, match_id)
    two_moves = pieces(at_step(client, match_id, 2, log))
    one_move = pieces(at_step(client, match_id, 1, log))
    recorder.undo(match_id, "Ben", "wrong cell")
    log = event_log(client, match_id)
    assert pieces(at_step(client, match_id, 3, log)) == one_move  # the undo took a1 back
    assert pieces(at_step(client, match_id, 2, log)) == two_moves
