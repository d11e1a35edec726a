"""Overview, Players and Match figures, from hand-made frames."""

from __future__ import annotations

import pandas as pd

from tablelog.dashboard.figures import match, overview, players
from tablelog.dashboard.figures.style import STATUS_COLOURS, seat_colour


def test_matches_by_game_stacks_statuses_biggest_game_first():
    counts = pd.DataFrame(
        {
            "game": ["topitop", "topas", "topitop", "topas"],
            "status": ["ended", "ended", "disputed", "running"],
            "n": [2, 1, 1, 1],
        }
    )
    figure = overview.matches_by_game(counts)
    bars = {trace.name: trace for trace in figure.data if trace.type == "bar"}
    assert set(bars) == {"ended", "running", "disputed"}
    assert list(bars["ended"].x) == ["topitop", "topas"]
    assert list(bars["ended"].y) == [2, 1]
    assert list(bars["running"].y) == [0, 1]
    assert bars["disputed"].marker.color == STATUS_COLOURS["disputed"]
    totals = next(t for t in figure.data if t.type == "scatter")
    assert list(totals.text) == ["3", "2"]


def test_ratings_draw_one_line_per_chosen_player_in_match_order():
    ratings = pd.DataFrame(
        {
            "player": ["Ann", "Ann", "Ben", "Ann", "Cy"],
            "after_match": [2, 1, 1, 3, 1],
            "mu": [26, 25, 24, 27, 25],
            "sigma": [7, 8, 8, 6, 8],
            "ordinal": [5.0, 1.0, 0.0, 9.0, 1.0],
        }
    )
    figure = players.ratings(ratings, ["Ann", "<b>Ben</b>", "Ben"])
    assert [t.name for t in figure.data] == ["Ann", "Ben"]  # "<b>Ben</b>" has no rows
    assert list(figure.data[0].x) == [1, 2, 3] and list(figure.data[0].y) == [1.0, 5.0, 9.0]


def test_ratings_escape_player_names():
    ratings = pd.DataFrame(
        {
            "player": ["<b>Eve</b>"],
            "after_match": [1],
            "mu": [25.0],
            "sigma": [8.0],
            "ordinal": [1.0],
        }
    )
    figure = players.ratings(ratings, ["<b>Eve</b>"])
    assert figure.data[0].name == "&lt;b&gt;Eve&lt;/b&gt;"


def test_nobody_chosen_says_so():
    figure = players.ratings(pd.DataFrame({"player": []}), [])
    assert not figure.data and "choose players" in figure.layout.annotations[0].text


def test_score_breakdown_one_segment_per_category_totals_written():
    seats = ["Ann", "<b>Eve</b>"]
    scores = [
        {"total": 9, "categories": {"visitors": 7, "hand": 2}},
        {"total": 4, "categories": {"visitors": 5, "hand": -1}},
    ]
    rows = match.score_rows(seats, scores)
    assert len(rows) == 4
    figure = match.score_breakdown(rows, {1: 9, 2: 4})
    assert [t.name for t in figure.data] == ["visitors", "hand"]
    visitors = figure.data[0]
    # Seat 2 drawn on top (the last category row), so seats run top to bottom in order.
    assert list(visitors.x) == [5, 7]
    assert list(visitors.y) == ["2. &lt;b&gt;Eve&lt;/b&gt;", "1. Ann"]
    assert sorted(a.text for a in figure.layout.annotations) == ["<b>4</b>", "<b>9</b>"]
    assert seat_colour(2) in figure.layout.yaxis.ticktext[0]
