"""Every refusal: its status, its error kind, the command line's reason, and nothing stored."""

from __future__ import annotations

import pytest

from tablelog.api.errors import from_refusal
from tablelog.domain.errors import BadRecord
from tests.conftest import stored_rows
from tests.test_recorder import OPENING, WIN, play

from .conftest import example, move, new_match

UNKNOWN = "00000000-0000-0000-0000-000000000000"


@pytest.fixture
def opened(recorder):
    """A Topitop match after the opening (Ann to move), as text."""
    return str(play(recorder, OPENING))


@pytest.fixture
def finished(recorder):
    match_id = play(recorder, WIN)
    recorder.end(match_id)
    return str(match_id)


# (method, path, body, status, error kind, words of the message)
REFUSED_WRITES = [
    (
        "moves",
        {"seat": "Ann", "move": {"place": "small", "to": "b2"}},
        422,
        "illegal-move",
        "empty cells only",
    ),
    (
        "moves",
        {"seat": "Ben", "move": {"place": "small", "to": "a2"}},
        422,
        "not-your-turn",
        "not Ben's turn",
    ),
    (
        "moves",
        {"seat": "Zoe", "move": {"place": "small", "to": "a2"}},
        422,
        "refused",
        "not a seat",
    ),
    (
        "moves",
        {"seat": "Ann", "move": {"place": "castle", "to": "a2"}},
        400,
        "bad-request",
        "'castle'",
    ),
    ("moves", {"seat": "Ann", "move": {"castle": "a2"}}, 400, "bad-request", "none of: Place"),
    (
        "moves",
        {"seat": "Ann", "move": {"place": "small", "to": "a2"}, "version": 2},
        409,
        "conflict",
        "reload",
    ),
    ("undo", {"by": "Ann", "reason": " "}, 422, "refused", "reason"),
    ("undo", {"by": "Ann", "reason": "oops", "version": 4}, 409, "conflict", "reload"),
    ("claims", {"by": "Ann", "scores": {"Zoe": 3}}, 422, "refused", "not a seat"),
    ("claims", {"by": "Ann", "scores": {}}, 422, "refused", "JSON object"),
    ("disputes", {"by": "", "about": "the slide"}, 422, "refused", "who raises the dispute"),
    ("disputes/resolve", {"by": "Umpire", "ruling": "stands"}, 422, "refused", "no open dispute"),
    ("end", {}, 422, "refused", "not over by the rules"),
    ("abandon", {"by": "Ann", "reason": ""}, 422, "refused", "the reason"),
    # The shape of the request, before anything is asked of the recorder.
    ("moves", {"seat": "Ann"}, 400, "bad-request", "'move' is a required property"),
    ("moves", {"seat": "Ann", "move": [1, 2]}, 400, "bad-request", "request body.move"),
    ("moves", {"seat": 1, "move": {}}, 400, "bad-request", "request body.seat"),
    ("moves", {"seat": "Ann", "move": {}, "sneaky": 1}, 400, "bad-request", "'sneaky'"),
    ("moves", {"seat": "Ann", "move": {}, "version": 0}, 400, "bad-request", "version"),
    ("claims", {"by": "Ann", "scores": {"Ann": "lots"}}, 400, "bad-request", "scores.Ann"),
    ("end", {"draw": "yes"}, 400, "bad-request", "draw"),
    ("end", [], 400, "bad-request", "not of type 'object'"),
]


@pytest.mark.parametrize(("path", "body", "status", "kind", "words"), REFUSED_WRITES)
def test_a_refused_write_answers_why_and_stores_nothing(
    client, store, opened, path, body, status, kind, words
):
    before = stored_rows(store)
    answer = client.post(f"/api/v1/matches/{opened}/{path}", json=body)
    assert (answer.status_code, answer.get_json()["error"]) == (status, kind)
    assert words in answer.get_json()["message"]
    assert set(answer.get_json()) == {"error", "message"}
    assert stored_rows(store) == before


@pytest.mark.parametrize(
    ("data", "content_type", "status", "words"),
    [
        ('{"seat": "Ann", ', "application/json", 400, "not valid JSON"),
        (
            '{"seat": "Ann", "move": {"n": NaN}}',
            "application/json",
            400,
            "NaN is not a JSON number",
        ),
        ('{"seat": "Ann", "move": {"n": 1e999}}', "application/json", 400, "too large a number"),
        (b'{"seat": "\xff"}', "application/json", 400, "not valid JSON"),
        ("[" * 100_000, "application/json", 400, "not valid JSON"),
        ('{"seat": "Ann", "move": {}}', "text/plain", 415, "Content-Type: application/json"),
        ('{"seat": "Ann", "move": {}}', None, 415, "Content-Type: application/json"),
        ('{"seat": "' + "x" * (1 << 20) + '"}', "application/json", 413, "larger than"),
    ],
)
def test_a_body_that_is_not_json_is_refused_before_anything_else(
    client, store, opened, data, content_type, status, words
):
    before = stored_rows(store)
    answer = client.post(f"/api/v1/matches/{opened}/moves", data=data, content_type=content_type)
    assert answer.status_code == status
    assert words in answer.get_json()["message"]
    assert stored_rows(store) == before


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (f"/api/v1/matches/{UNKNOWN}", "no match"),
        ("/api/v1/matches/zz", "too short"),
        ("/api/v1/matches/zzzzzz/score", "no match whose id starts with 'zzzzzz'"),
        ("/api/v1/matches/not-a-match/legal-moves", "no match whose id starts with"),
        (f"/api/v1/matches/{UNKNOWN}/events", "no match"),
        (f"/api/v1/matches/{UNKNOWN}/audit", "no match"),
    ],
)
def test_an_unknown_match_is_404(client, opened, path, words):
    answer = client.get(path)
    assert (answer.status_code, answer.get_json()["error"]) == (404, "match-not-found")
    assert words in answer.get_json()["message"]


def test_a_write_to_an_unknown_match_is_404_and_stores_nothing(client, store, opened):
    before = stored_rows(store)
    answer = move(client, UNKNOWN, "Ann", {"place": "small", "to": "a2"})
    assert answer.status_code == 404
    assert stored_rows(store) == before


def test_the_match_closed_refusals_are_409(client, store, finished):
    before = stored_rows(store)
    for path, body in [
        ("moves", {"seat": "Ben", "move": {"place": "small", "to": "c1"}}),
        ("undo", {"by": "Ann", "reason": "oops"}),
        ("end", {}),
        ("abandon", {"by": "Ann", "reason": "late"}),
    ]:
        answer = client.post(f"/api/v1/matches/{finished}/{path}", json=body)
        assert (answer.status_code, answer.get_json()["error"]) == (409, "match-closed"), path
        assert "the match is ended" in answer.get_json()["message"]
    assert stored_rows(store) == before


def test_starting_a_match_with_a_bad_game_setup_or_seats_is_422(client, store):
    cases = [
        ({"game": "chess", "players": ["A", "B"]}, "invalid-setup", "unknown game 'chess'"),
        ({"game": "topitop", "players": ["A", "B", "C"]}, "refused", "for 2 players"),
        ({"game": "topitop", "players": ["A", "A"]}, "refused", "same name"),
        (
            {"game": "topitop", "players": ["A", "B"], "options": {"small": "many"}},
            "invalid-setup",
            "small",
        ),
        (
            {"game": "topiary", "players": ["A", "B"], "setup": {"removed": "Unicorn"}},
            "invalid-setup",
            "setup 'removed' names one of",
        ),
    ]
    for body, kind, words in cases:
        answer = client.post("/api/v1/matches", json=body)
        assert (answer.status_code, answer.get_json()["error"]) == (422, kind), body
        assert words in answer.get_json()["message"], answer.get_json()
    assert stored_rows(store) == []


def test_a_score_that_needs_hidden_tiles_is_422_unknown_information(client):
    record = example("topiary")
    match = new_match(
        client, "topiary", record["seats"], options=record["options"], setup=record["setup"]
    )
    answer = client.get(f"/api/v1/matches/{match['id']}/score")
    assert (answer.status_code, answer.get_json()["error"]) == (422, "unknown-information")
    assert "unrevealed" in answer.get_json()["message"]


@pytest.mark.parametrize(
    ("query", "status", "kind", "words"),
    [
        ("at=99", 422, "refused", "only 4 steps"),
        ("at=-1", 400, "bad-request", "minimum"),
        ("at=two", 400, "bad-request", "must be an integer"),
        ("at=99999999999999999999999", 400, "bad-request", "must be an integer"),
    ],
)
def test_a_step_out_of_range_is_refused(client, opened, query, status, kind, words):
    for view in ("", "/score", "/legal-moves"):
        answer = client.get(f"/api/v1/matches/{opened}{view}?{query}")
        assert (answer.status_code, answer.get_json()["error"]) == (status, kind)
        assert words in answer.get_json()["message"]


def test_unknown_paths_and_methods_answer_json(client, opened):
    answer = client.get("/api/v1/nowhere")
    assert (answer.status_code, answer.get_json()["error"]) == (404, "not-found")
    answer = client.delete(f"/api/v1/matches/{opened}")
    assert (answer.status_code, answer.get_json()["error"]) == (405, "method-not-allowed")
    assert "GET" in answer.headers["Allow"]
    answer = client.get("/api/v1/stats/chess")
    assert (answer.status_code, answer.get_json()["error"]) == (404, "unknown-game")


def test_every_refusal_of_the_recorder_has_a_status():
    assert (from_refusal(BadRecord("line 1: no")).status, from_refusal(BadRecord("x")).kind) == (
        422,
        "bad-record",
    )
