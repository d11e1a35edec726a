"""`tablelog sheet`, and score-sheet matches in `stats --kind`, `list`, `show` and the API."""

from __future__ import annotations

import json

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.store import open_recorder
from tests.conftest import stored_rows

from .helpers import tablelog


def test_sheet_logs_a_match_from_options(store):
    code, out, err = tablelog(
        store,
        "sheet",
        "topiary",
        "--players",
        "Ann,Ben",
        "--score",
        "Ann=43",
        "--score",
        "Ben=38",
        "--category",
        "Ann:visitors=40",
        "--category",
        "Ann:type bonus=0",
        "--category",
        "Ann:hand=3",
        "--winner",
        "Ann",
        "--first",
        "Ben",
        "--played-at",
        "2024-01-02T19:00:00+01:00",
        "--duration",
        "30",
        "--location",
        "Club",
    )
    assert code == 0, err
    match = open_recorder(store).get(out.strip())
    assert match.sheet is not None and match.outcome is not None
    assert match.sheet["scores"][0]["categories"] == {"visitors": 40, "type bonus": 0, "hand": 3}
    assert match.played_at == "2024-01-02T19:00:00+01:00" and match.outcome["winners"] == [0]
    shown = tablelog(store, "show", out.strip()[:8])[1]
    assert "Ann: 43 = visitors 40, type bonus 0, hand 3  (won)" in shown


def test_a_refused_sheet_is_one_line_exit_2_and_stores_nothing(store):
    tablelog(store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
    before = stored_rows(store)
    code, _, err = tablelog(
        store,
        "sheet",
        "total-landscaping",
        "--players",
        "Ann,Ben",
        "--score",
        "Ann=2",
        "--score",
        "Ben=2",
        "--winner",
        "Ann",
    )
    assert code == 2 and "seat 2 (Ben): total 2 is outside" in err
    assert len(err.strip().splitlines()) == 1
    assert stored_rows(store) == before


def test_stats_say_how_many_of_each_kind_and_filter_by_kind(any_store):
    store = any_store
    tablelog(store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
    tablelog(store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ben")
    moves = open_recorder(store)
    match_id = moves.start("topitop", ["Ann", "Ben"])
    moves.abandon(match_id, "Ann", "bedtime")
    report = json.loads(tablelog(store, "stats", "topitop", "--json")[1])["topitop"]
    assert report["behind"]["seats"] == {"moves": 0, "sheet": 2}
    assert report["behind"]["length"] == {"moves": 0, "sheet": 0}
    assert report["matches"] == 2 and report["length"] == []
    assert [s["matches"] for s in report["seats"]] == [2, 2]
    only_moves = json.loads(tablelog(store, "stats", "--kind", "moves", "--json")[1])
    assert only_moves["topitop"]["matches"] == 0 and only_moves["topitop"]["recorded"] == 1
    text = tablelog(store, "stats", "topitop")[1]
    assert "0 logged move by move, 2 score sheets" in text


def test_the_api_logs_a_sheet_and_filters_stats_by_kind(recorder, store):
    client = create_app(recorder, WritePolicy()).test_client()
    answer = client.post(
        "/api/v1/sheets",
        json={
            "game": "topas",
            "players": ["Ann", "Ben"],
            "played_at": "2024-01-01T10:00:00Z",
            "sheet": {
                "scores": [{"total": 50, "categories": {"red": 20, "green": 30}}, {"total": 44}],
                "winners": ["Ann"],
            },
        },
    )
    assert answer.status_code == 201 and answer.get_json()["status"] == "ended"
    assert answer.headers["Location"].endswith(answer.get_json()["id"])
    before = stored_rows(store)
    refused = client.post(
        "/api/v1/sheets",
        json={
            "game": "topas",
            "players": ["Ann", "Ben"],
            "sheet": {
                "scores": [{"total": 50, "categories": {"red": 20, "mauve": 30}}, None],
                "winners": ["Ann"],
            },
        },
    )
    assert refused.status_code == 422
    assert "seat 1 (Ann): category 'mauve'" in refused.get_json()["message"]
    assert stored_rows(store) == before
    sheets = client.get("/api/v1/stats/topas?kind=sheet").get_json()
    assert sheets["matches"] == 1 and sheets["behind"]["scores"] == {"moves": 0, "sheet": 1}
    assert client.get("/api/v1/stats/topas?kind=moves").get_json()["matches"] == 0
    assert client.get("/api/v1/stats/topas?kind=cards").status_code == 400
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert "/api/v1/sheets" in paths or "/sheets" in paths
