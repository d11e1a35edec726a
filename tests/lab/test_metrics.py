"""The lab's metrics on small hand-built match sets whose answers are known by construction."""

from __future__ import annotations

import math

import pytest

from tablelog.projections.lab_stats import compare, head_to_head, summary
from tablelog.projections.metrics import per_match
from tablelog.projections.traces import Trace


def seat_one_always_wins(n=20):
    return [
        Trace(2, (0,), True, (0, 1, 0, 1), totals=((2, 0), (2, 1), (4, 1), (4, 3)))
        for _ in range(n)
    ]


def always_drawn(n=20):
    return [Trace(2, (), True, (0, 1), totals=((1, 0), (1, 1))) for _ in range(n)]


def lead_changes_twice():
    # leader: seat 1, tie, seat 2, seat 2, seat 1 (winner) -> changes 1->2 and 2->1
    totals = ((1, 0), (1, 1), (1, 3), (2, 3), (6, 3))
    return Trace(2, (0,), True, (0, 1, 1, 0, 0), totals=totals)


def estimate(table, metric):
    return table.set_index("metric").loc[metric]


def test_a_game_seat_one_always_wins():
    table = summary(per_match(seat_one_always_wins()))
    assert estimate(table, "advantage_p1")["estimate"] == 1
    assert estimate(table, "won_1")["estimate"] == 1 and estimate(table, "won_2")["estimate"] == 0
    assert estimate(table, "balance")["estimate"] == 0
    assert estimate(table, "drawishness")["estimate"] == 0
    assert estimate(table, "lead_changes")["estimate"] == 0
    assert estimate(table, "decisiveness")["estimate"] == 0  # led from the first move
    assert estimate(table, "score_margin")["estimate"] == 1
    low, high = estimate(table, "won_1")[["low", "high"]]
    assert 0.8 < low < 1 and high == pytest.approx(1)  # Wilson: never the point itself


def test_a_game_that_always_draws():
    table = summary(per_match(always_drawn()))
    assert estimate(table, "drawishness")["estimate"] == 1
    assert estimate(table, "advantage_p1")["estimate"] == 0.5
    assert estimate(table, "balance")["estimate"] == 1
    assert estimate(table, "decisiveness")["n"] == 0  # nobody won: nothing to decide
    assert math.isnan(estimate(table, "score_margin")["estimate"])


def test_a_lead_that_changes_exactly_twice():
    row = per_match([lead_changes_twice()]).iloc[0]
    assert row["lead_changes"] == 2
    assert row["drama"] == 2  # the winner was 3 points to 1 behind
    assert row["decisiveness"] == 4 / 5  # it leads for good only from the fifth move
    assert row["duration_rounds"] == 1.5  # three turns (0 | 1 1 | 0 0) by two seats


def test_branching_and_decision_moves():
    trace = Trace(2, (0,), True, (0, 1, 0, 1), branching=(3, 1, 5, 1))
    row = per_match([trace]).iloc[0]
    assert row["branching"] == 2.5 and row["decision_moves"] == 0.5


def test_comparing_two_arms_finds_a_real_difference_and_no_false_one():
    a = per_match(seat_one_always_wins(30))
    b = per_match(always_drawn(30))
    frame = compare(a, b).set_index("metric")
    assert frame.loc["drawishness", "real"] and frame.loc["drawishness", "difference"] == 1
    assert frame.loc["duration_moves", "difference"] == -2
    assert not compare(a, per_match(seat_one_always_wins(30)))["real"].any()
    assert (frame["p_holm"] >= frame["p"]).all()


def test_head_to_head_against_the_fair_rate():
    even = head_to_head(50, 50, 3, 2)
    assert even["rate"] == 0.5 and even["p"] == 1 and even["draws"] == 3
    lopsided = head_to_head(45, 5, 0, 2)
    assert lopsided["difference"] == pytest.approx(0.4) and lopsided["p"] < 0.001
    assert lopsided["diff_low"] < 0.4 < lopsided["diff_high"]
