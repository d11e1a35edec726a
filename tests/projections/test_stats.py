"""Balance statistics against values worked out by hand (formulas in the comments)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from projections import stats


def test_the_wilson_interval_of_7_wins_in_10():
    # p = 0.7, z = 1.959964, z^2/n = 0.384146; centre = (0.7 + 0.192073) / 1.384146 = 0.644493;
    # half width = z * sqrt(0.7 * 0.3 / 10 + z^2 / 400) / 1.384146 = 0.247717.
    low, high = stats.wilson(7, 10)
    assert low == pytest.approx(0.396776, abs=1e-5)
    assert high == pytest.approx(0.892210, abs=1e-5)


def test_the_wilson_interval_of_no_wins_does_not_go_below_zero():
    # p = 0: centre = (z^2/2n) / (1 + z^2/n) = half width, so the interval is [0, 2 * centre];
    # n = 5: z^2/n = 0.768291, centre = 0.384146 / 1.768291 = 0.217241.
    low, high = stats.wilson(0, 5)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert high == pytest.approx(0.434482, abs=1e-5)


def test_the_binomial_test_against_a_fair_rate():
    # 7 of 10 at 1/2: P(X >= 7) = (120 + 45 + 10 + 1) / 1024, doubled by symmetry = 0.34375.
    assert stats.binomial_p(7, 10, 0.5) == pytest.approx(0.34375)
    # 0 of 3 at 1/3: P(0) = 8/27; the outcomes no more likely are 0, 2 (6/27) and 3 (1/27).
    assert stats.binomial_p(0, 3, 1 / 3) == pytest.approx(15 / 27)
    assert math.isnan(stats.binomial_p(0, 0, 0.5))


def _scores(results):
    """A scores table from (match, seat, won) triples of two-player matches."""
    return pd.DataFrame([{"match_id": m, "game": "topitop", "players": 2, "variant": "standard",
                          "seat": seat, "player": f"P{seat}", "total": float(won),
                          "won": won, "shared": False, "rank": 1 if won else 2}
                         for m, seat, won in results])


def _matches(ids, status="ended"):
    return pd.DataFrame({"match_id": ids, "game": "topitop", "players": 2,
                         "variant": "standard", "status": status})


def test_seat_win_rates_count_each_seat_of_each_ended_match():
    ids = [f"m{i}" for i in range(10)]
    results = [(m, 1, i < 7) for i, m in enumerate(ids)] + [(m, 2, i >= 7)
                                                            for i, m in enumerate(ids)]
    rates = stats.seat_win_rates(_scores(results), _matches(ids))
    first, second = rates.iloc[0], rates.iloc[1]
    assert (first.seat, first.matches, first.wins, first.rate) == (1, 10, 7, 0.7)
    assert (second.seat, second.wins, second.rate) == (2, 3, 0.3)
    assert first.ci_low == pytest.approx(0.396776, abs=1e-5)
    assert first.p_value == pytest.approx(0.34375) and second.p_value == pytest.approx(0.34375)
    assert bool(first.small) and first.fair == 0.5


def test_a_shared_win_is_a_win_for_each_sharer_and_a_draw_for_nobody():
    results = [("a", 1, True), ("a", 2, True), ("b", 1, False), ("b", 2, False)]
    rates = stats.seat_win_rates(_scores(results), _matches(["a", "b"]))
    assert list(rates.wins) == [1, 1] and list(rates.matches) == [2, 2]


def test_matches_not_ended_are_left_out():
    results = [("a", 1, True), ("a", 2, False), ("b", 1, True), ("b", 2, False)]
    matches = pd.concat([_matches(["a"]), _matches(["b"], status="disputed")])
    rates = stats.seat_win_rates(_scores(results), matches)
    assert list(rates.matches) == [1, 1]


def test_thirty_matches_are_no_longer_a_small_sample():
    ids = [f"m{i}" for i in range(30)]
    results = [(m, seat, seat == 1) for m in ids for seat in (1, 2)]
    rates = stats.seat_win_rates(_scores(results), _matches(ids))
    assert not rates.small.any()
    # 30 of 30 at 1/2: two-sided p = 2 * 0.5^30.
    assert rates.iloc[0].p_value == pytest.approx(2 * 0.5 ** 30)


def test_component_strength_counts_the_seats_that_had_it():
    rows = [("a", 1, True, "rose", 2), ("a", 2, False, "rose", 0), ("b", 1, False, "rose", 1),
            ("b", 2, True, "rose", 3)]
    components = pd.DataFrame([{"match_id": m, "game": "topiary", "players": 2,
                                "variant": "standard", "seat": s, "player": f"P{s}", "won": w,
                                "kind": "sculpture type", "component": c, "count": n,
                                "points": float(n)} for m, s, w, c, n in rows])
    matches = _matches(["a", "b"]).assign(game="topiary")
    strength = stats.component_strength(components, matches).iloc[0]
    # three seats had roses (2, 1 and 3 of them); two of them won.
    assert (strength.seats, strength["count"], strength.wins) == (3, 6, 2)
    assert strength.win_rate == pytest.approx(2 / 3) and strength.mean_count == 2
    assert strength.mean_count_winners == 2.5 and strength.mean_count_rest == 0.5
