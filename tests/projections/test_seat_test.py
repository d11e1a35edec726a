"""The seat test when wins can be shared: the fair rate follows the observed sharing, and one
test of all seats together answers "is any seat favoured?" (worked examples in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, chisquare

from tablelog.projections import stats


def tallies(wins, matches, players=None, game="topas"):
    players = players or len(wins)
    return pd.DataFrame(
        {
            "game": game,
            "players": players,
            "variant": "standard",
            "seat": range(1, len(wins) + 1),
            "matches": matches,
            "wins": wins,
        }
    )


def test_the_fair_rate_is_the_seats_mean_when_wins_are_shared():
    # Three players, 10 matches, one win shared by seats 1 and 2: wins 4, 4, 3, 11 in all. A seat
    # that no seat is favoured over expects 11 / 30, not 1/3; seat 3's 3 of 10 is tested
    # against it (exact binomial test).
    rates = stats.seat_rates(tallies([4, 4, 3], 10))
    assert list(rates.fair) == pytest.approx([11 / 30] * 3)
    assert rates.iloc[2].p_value == pytest.approx(binomtest(3, 10, 11 / 30).pvalue)


def test_a_draw_lowers_the_fair_rate_too():
    # Two players, 10 matches, 2 drawn: wins 4 and 4 of 10, fair 8 / 20 = 0.4, both seats on it.
    rates = stats.seat_rates(tallies([4, 4], 10))
    assert list(rates.fair) == [0.4, 0.4] and list(rates.p_value) == pytest.approx([1, 1])


def test_the_all_seats_test_is_pearsons_chi_square():
    # Wins 30, 20, 10: 20 expected each; chi-square (100 + 0 + 100) / 20 = 10 on 2 degrees of
    # freedom, whose tail is exp(-10 / 2) = 0.0067379.
    test = stats.seats_even([30, 20, 10])
    assert test["method"] == "chi-square" and test["df"] == 2
    assert test["statistic"] == pytest.approx(10)
    assert test["p_value"] == pytest.approx(math.exp(-5))
    assert test["p_value"] == pytest.approx(chisquare([30, 20, 10]).pvalue)


def test_few_wins_get_the_exact_multinomial_test():
    # Wins 3, 0, 1 (4.0 / 3 expected a seat, under 5): of the 81 equally likely ways 4 wins fall
    # on 3 seats, 3, 0, 1 has 4 (4! / 3! 0! 1!). No more likely: the 3 of type 4-0-0 (1 way
    # each) and the 6 of type 3-1-0 (4 each): 3 + 24 = 27 of 81.
    test = stats.seats_even([3, 0, 1])
    assert test["method"] == "exact multinomial"
    assert test["p_value"] == pytest.approx(1 / 3)
    # Two seats: the exact multinomial test is the exact binomial test.
    assert stats.seats_even([4, 0])["p_value"] == pytest.approx(binomtest(4, 4, 0.5).pvalue)
    assert math.isnan(stats.seats_even([0, 0])["p_value"])


def test_seat_tests_give_one_row_per_group_and_leave_out_solitaire():
    both = pd.concat([tallies([30, 20, 10], 55), tallies([5], 5, players=1)], ignore_index=True)
    (row,) = stats.seat_tests(both).to_dict("records")
    assert (row["players"], row["matches"], row["wins"], row["expected"]) == (3, 55, 60, 20)
    assert row["p_value"] == pytest.approx(math.exp(-5)) and not row["small"]


def test_a_fair_game_with_shared_wins_is_not_called_unfair():
    # 300 samples of 600 three-player matches, no seat favoured: 8% of matches a win shared by
    # two seats, 2% drawn. At the 5% level a right test calls about 5% of the samples unfair;
    # the old one (each seat against 1/3) called many more, as the seats' rates sum to 1.06.
    rng = np.random.default_rng(45)
    seat_calls = old_calls = all_calls = 0
    samples, matches = 300, 600
    for _ in range(samples):
        wins = np.zeros(3, dtype=int)
        for kind in rng.choice(3, size=matches, p=[0.90, 0.08, 0.02]):
            if kind < 2:  # one winner, or two sharing
                wins[rng.choice(3, size=kind + 1, replace=False)] += 1
        rates = stats.seat_rates(tallies(list(wins), matches))
        seat_calls += bool((rates.p_value < 0.05).any())
        old_calls += any(binomtest(int(w), matches, 1 / 3).pvalue < 0.05 for w in wins)
        all_calls += stats.seats_even(list(wins))["p_value"] < 0.05
    # Any of 3 seats called unfair, each tested at 5%: at most about 3 x 5%.
    assert seat_calls / samples < 0.16 < old_calls / samples
    assert all_calls / samples < 0.08
