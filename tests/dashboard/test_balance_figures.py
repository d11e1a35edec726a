"""The Balance page's figures, from hand-made statistics frames: every bar, interval, n and grey
worked out from the input rows."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from tablelog.dashboard.figures import balance
from tablelog.dashboard.figures.style import GREY, REST, WINNERS, seat_colour
from tablelog.projections import stats


def rates_frame(rows):
    columns = [
        "game",
        "players",
        "variant",
        "seat",
        "matches",
        "wins",
        "rate",
        "ci_low",
        "ci_high",
        "fair",
        "p_value",
        "small",
    ]
    return pd.DataFrame(
        [{"game": "topitop", "players": 2, "variant": "standard", **r} for r in rows],
        columns=columns,
    )


def test_seat_bars_show_rate_interval_n_and_fair_line():
    # Seat 1 won 60 of 100, seat 2 won 40 of 100; intervals are given, fair is 1/2.
    frame = rates_frame(
        [
            {
                "seat": 2,
                "matches": 100,
                "wins": 40,
                "rate": 0.4,
                "ci_low": 0.31,
                "ci_high": 0.50,
                "fair": 0.5,
                "p_value": 0.057,
                "small": False,
            },
            {
                "seat": 1,
                "matches": 100,
                "wins": 60,
                "rate": 0.6,
                "ci_low": 0.50,
                "ci_high": 0.69,
                "fair": 0.5,
                "p_value": 0.057,
                "small": False,
            },
        ]
    )
    figure = balance.seat_win_rates(frame)
    bars = figure.data[0]
    assert list(bars.x) == ["Seat 1", "Seat 2"]  # in seat order, whatever the row order
    assert list(bars.y) == [0.6, 0.4]
    assert list(bars.error_y.array) == pytest.approx([0.09, 0.10])
    assert list(bars.error_y.arrayminus) == pytest.approx([0.10, 0.09])
    assert list(bars.text) == ["n=100", "n=100"]
    assert list(bars.marker.color) == [seat_colour(1), seat_colour(2)]
    fair_lines = [s for s in figure.layout.shapes if s.line.dash == "dash"]
    assert len(fair_lines) == 1 and fair_lines[0].y0 == 0.5
    assert "50.0%" in figure.layout.title.subtitle.text


def test_a_small_seat_sample_is_grey_and_says_so():
    frame = rates_frame(
        [
            {
                "seat": 1,
                "matches": 12,
                "wins": 7,
                "rate": 7 / 12,
                "ci_low": 0.3,
                "ci_high": 0.8,
                "fair": 1 / 3,
                "p_value": 0.1,
                "small": True,
            },
            {
                "seat": 2,
                "matches": 40,
                "wins": 10,
                "rate": 0.25,
                "ci_low": 0.14,
                "ci_high": 0.4,
                "fair": 1 / 3,
                "p_value": 0.3,
                "small": False,
            },
        ]
    )
    figure = balance.seat_win_rates(frame)
    assert list(figure.data[0].marker.color) == [GREY, seat_colour(2)]
    # In the title block (a second subtitle line), where no mode bar reaches it.
    assert balance.SMALL_NOTE in figure.layout.title.subtitle.text


def test_the_all_seats_test_is_said_under_the_title():
    # Wins 30, 20, 10 of 60 three-player matches: chi-square 10 on 2 df, p = exp(-5) = 0.007.
    frame = rates_frame(
        [
            {"seat": s, "matches": 60, "wins": w, "rate": w / 60, "ci_low": 0.1}
            | {"ci_high": 0.6, "fair": 1 / 3, "p_value": 0.5, "small": False}
            for s, w in ((1, 30), (2, 20), (3, 10))
        ]
    ).assign(players=3)
    tests = stats.seat_tests(frame[[*stats.GROUP, "seat", "matches", "wins"]])
    subtitle = balance.seat_win_rates(frame, tests).layout.title.subtitle.text
    assert "Any seat favoured? p = 0.007 (chi-square, 2 df)" in subtitle


def test_no_matches_gives_a_message_not_empty_axes():
    figure = balance.seat_win_rates(rates_frame([]))
    assert not figure.data
    assert "no finished matches" in figure.layout.annotations[0].text


def distribution_rows():
    # Worked by hand: winners (n=40) and the rest (n=12, small) in two categories and total.
    rows = []
    for who, n, shift in (("winners", 40, 10), ("rest", 12, 0)):
        for category, base in (("visitors", 20), ("hand", 3), ("total", 23)):
            rows.append(
                {
                    "game": "topiary",
                    "players": 2,
                    "variant": "standard",
                    "category": category,
                    "seats": who,
                    "n": n,
                    "mean": base + shift,
                    "std": 2.0,
                    "min": base + shift - 5,
                    "q25": base + shift - 2,
                    "median": base + shift,
                    "q75": base + shift + 2,
                    "max": base + shift + 5,
                    "small": n < stats.SMALL_SAMPLE,
                }
            )
    return pd.DataFrame(rows)


def test_score_boxes_pair_winners_with_the_rest_per_category_total_last():
    figure = balance.score_distributions(distribution_rows())
    winners, rest = figure.data
    assert list(winners.x) == ["visitors", "hand", "total"]
    assert list(winners.median) == [30, 13, 33]
    assert list(rest.q1) == [18, 1, 21] and list(rest.upperfence) == [25, 8, 28]
    assert winners.name == "winners (n=40)" and winners.marker.color == WINNERS
    # The rest have 12 seats: fewer than SMALL_SAMPLE, so grey and marked small.
    assert rest.name == "rest (n=12, small)" and rest.marker.color == GREY != REST


def test_category_names_are_text_not_markup():
    rows = distribution_rows()
    rows.loc[rows["category"] == "hand", "category"] = "<i>hand</i>"
    figure = balance.score_distributions(rows)
    assert "&lt;i&gt;hand&lt;/i&gt;" in list(figure.data[0].x)


def sculpture_type(component, **values):
    """A component-strength row of one of Topiary's sculpture types."""
    return {"game": "topiary", "kind": "sculpture type", "component": component, **values}


def test_component_bars_sorted_within_kind_with_n_and_grey():
    frame = pd.DataFrame(
        [
            sculpture_type(
                "Swan",
                seats=50,
                count=120,
                mean_count=2.4,
                mean_points=9.0,
                wins=30,
                win_rate=0.6,
                ci_low=0.46,
                ci_high=0.72,
                mean_count_winners=2.8,
                mean_count_rest=2.0,
                small=False,
            ),
            sculpture_type(
                "Whale",
                seats=10,
                count=15,
                mean_count=1.5,
                mean_points=4.0,
                wins=2,
                win_rate=0.2,
                ci_low=0.06,
                ci_high=0.51,
                mean_count_winners=1.0,
                mean_count_rest=1.6,
                small=True,
            ),
            sculpture_type(
                "Pyramid",
                seats=0,
                count=0,
                mean_count=math.nan,
                mean_points=math.nan,
                wins=0,
                win_rate=math.nan,
                ci_low=math.nan,
                ci_high=math.nan,
                mean_count_winners=0.0,
                mean_count_rest=0.0,
                small=True,
            ),
        ]
    )
    figure = balance.component_strength(frame, fair=0.5)
    bars = figure.data[0]
    # Pyramid was never played: no bar. Lowest rate first (plotly draws it at the bottom); n
    # beside the name, clear of the error bars.
    assert list(bars.y) == ["Whale (sculpture type) n=10", "Swan (sculpture type) n=50"]
    assert list(bars.x) == [0.2, 0.6]
    assert bars.marker.color[0] == GREY and bars.marker.color[1] != GREY
    assert [s.x0 for s in figure.layout.shapes] == [0.5]


def test_match_length_draws_a_bar_per_length_with_median_and_n():
    # Matches of 10, 12, 12 and 30 moves (stats.length_tallies counts only ended ones):
    # median of 10, 12, 12, 30 = 12, n = 4.
    lengths = pd.DataFrame(
        {
            "game": "topitop",
            "players": 2,
            "variant": "standard",
            "moves": [30, 10, 12],
            "matches": [1, 1, 2],
        }
    )
    figure = balance.match_length(lengths)
    assert list(figure.data[0].x) == [10, 12, 30] and list(figure.data[0].y) == [1, 2, 1]
    assert figure.layout.title.subtitle.text.startswith("median 12 moves (n=4)")
    assert figure.data[0].marker.color == GREY  # 4 matches is a small sample


def test_match_length_without_matches_says_so():
    lengths = pd.DataFrame({"moves": [], "matches": []})
    assert "no finished matches" in balance.match_length(lengths).layout.annotations[0].text
