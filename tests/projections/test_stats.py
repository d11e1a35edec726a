"""Balance statistics against values worked out by hand (formulas in the comments)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from tablelog.projections import stats


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
    return pd.DataFrame(
        [
            {
                "match_id": m,
                "game": "topitop",
                "players": 2,
                "variant": "standard",
                "seat": seat,
                "player": f"P{seat}",
                "total": float(won),
                "won": won,
                "shared": False,
                "rank": 1 if won else 2,
            }
            for m, seat, won in results
        ]
    )


def _matches(ids, status="ended"):
    return pd.DataFrame(
        {"match_id": ids, "game": "topitop", "players": 2, "variant": "standard", "status": status}
    )


def test_seat_win_rates_count_each_seat_of_each_ended_match():
    ids = [f"m{i}" for i in range(10)]
    results = [(m, 1, i < 7) for i, m in enumerate(ids)] + [
        (m, 2, i >= 7) for i, m in enumerate(ids)
    ]
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
    assert rates.iloc[0].p_value == pytest.approx(2 * 0.5**30)


def test_component_strength_counts_the_seats_that_had_it():
    rows = [
        ("a", 1, True, "rose", 2),
        ("a", 2, False, "rose", 0),
        ("b", 1, False, "rose", 1),
        ("b", 2, True, "rose", 3),
    ]
    components = pd.DataFrame(
        [
            {
                "match_id": m,
                "game": "topiary",
                "players": 2,
                "variant": "standard",
                "seat": s,
                "player": f"P{s}",
                "won": w,
                "kind": "sculpture type",
                "component": c,
                "count": n,
                "points": float(n),
            }
            for m, s, w, c, n in rows
        ]
    )
    matches = _matches(["a", "b"]).assign(game="topiary")
    strength = stats.component_strength(components, matches).iloc[0]
    # three seats had roses (2, 1 and 3 of them); two of them won.
    assert (strength.seats, strength["count"], strength.wins) == (3, 6, 2)
    assert strength.win_rate == pytest.approx(2 / 3) and strength.mean_count == 2
    assert strength.mean_count_winners == 2.5 and strength.mean_count_rest == 0.5


# ---- the tallies and the statistics worked out from them ----------------------------------------


def test_a_sample_given_as_values_and_counts_is_described_as_if_spelled_out():
    # The sample 10, 12, 12, 30 (given unsorted, with a value that never occurs): n = 4,
    # mean = 64 / 4 = 16; squared deviations 36 + 16 + 16 + 196 = 264, std = sqrt(264 / 3);
    # quartiles by linear interpolation between the sorted values at (n - 1) q:
    # q25 at 0.75: 10 + 0.75 * 2 = 11.5; median at 1.5: 12; q75 at 2.25: 12 + 0.25 * 18 = 16.5.
    spread = stats.describe_counts([30, 12, 10, 99], [1, 2, 1, 0])
    assert (spread["n"], spread["mean"], spread["min"], spread["max"]) == (4, 16, 10, 30)
    assert spread["std"] == pytest.approx(math.sqrt(88))
    assert (spread["q25"], spread["median"], spread["q75"]) == (11.5, 12, 16.5)
    assert spread["small"]
    one = stats.describe_counts([7.5], [1])
    assert one["median"] == 7.5 and math.isnan(one["std"])
    assert stats.describe_counts([], [])["n"] == 0


def test_seat_rates_from_tallies_leave_out_one_player_games():
    tallies = pd.DataFrame(
        {
            "game": ["topas", "topitop", "topitop"],
            "players": [1, 2, 2],
            "variant": "standard",
            "seat": [1, 2, 1],
            "matches": [5, 10, 10],
            "wins": [3, 3, 7],
        }
    )
    rates = stats.seat_rates(tallies)
    assert list(rates.game) == ["topitop", "topitop"] and list(rates.seat) == [1, 2]
    assert list(rates.rate) == [0.7, 0.3] and list(rates.fair) == [0.5, 0.5]
    # As worked out above: 7 of 10 has the Wilson interval 0.396776 to 0.892210, p = 0.34375.
    assert rates.iloc[0].ci_high == pytest.approx(0.892210, abs=1e-5)
    assert rates.iloc[1].p_value == pytest.approx(0.34375)


def test_score_tallies_count_seats_per_points_and_the_total():
    # Match a: seat 1 won with visitors 10 (total 10), seat 2 lost with 4; match b: seat 1 won
    # with 10, seat 2 lost with 6; match c is disputed and left out.
    rows = [
        ("a", 1, True, 10.0),
        ("a", 2, False, 4.0),
        ("b", 1, True, 10.0),
        ("b", 2, False, 6.0),
        ("c", 1, True, 50.0),
        ("c", 2, False, 0.0),
    ]
    group = {"game": "topiary", "players": 2, "variant": "standard"}
    categories = pd.DataFrame(
        [
            {
                "match_id": m,
                **group,
                "seat": s,
                "player": f"P{s}",
                "won": w,
                "category": "visitors",
                "points": p,
            }
            for m, s, w, p in rows
        ]
    )
    scores = pd.DataFrame(
        [
            {
                "match_id": m,
                **group,
                "seat": s,
                "player": f"P{s}",
                "total": p,
                "won": w,
                "shared": False,
                "rank": 1 if w else 2,
            }
            for m, s, w, p in rows
        ]
    )
    matches = pd.concat([_matches(["a", "b"]), _matches(["c"], status="disputed")])
    tallies = stats.score_tallies(categories, scores, matches)
    seen = {
        (c, bool(w), p): n
        for c, w, p, n in zip(tallies.category, tallies.won, tallies.points, tallies.seats)
    }
    assert seen == {
        ("total", False, 4.0): 1,
        ("total", False, 6.0): 1,
        ("total", True, 10.0): 2,
        ("visitors", False, 4.0): 1,
        ("visitors", False, 6.0): 1,
        ("visitors", True, 10.0): 2,
    }
    frame = stats.distributions(tallies).set_index(["category", "seats"])
    rest = frame.loc[[("visitors", "rest")]].iloc[0]
    # The rest scored 4 and 6: mean 5, std sqrt(2), quartiles 4.5, 5, 5.5.
    assert [rest[k] for k in ("n", "mean", "q25", "median", "q75")] == [2, 5, 4.5, 5, 5.5]
    assert rest["std"] == pytest.approx(math.sqrt(2))


def test_component_strength_from_tallies_matches_the_rows_and_skips_missing_points():
    # Two seats with 2 and 1 cards (points unknown: NaN), one winner; one seat without any.
    rows = [("a", 1, True, 2, math.nan), ("a", 2, False, 1, math.nan), ("b", 1, False, 0, 0.0)]
    components = pd.DataFrame(
        [
            {
                "match_id": m,
                "game": "total-landscaping",
                "players": 2,
                "variant": "standard",
                "seat": s,
                "player": f"P{s}",
                "won": w,
                "kind": "card colour",
                "component": "Green",
                "count": n,
                "points": p,
            }
            for m, s, w, n, p in rows
        ]
    )
    matches = _matches(["a", "b"]).assign(game="total-landscaping")
    tallies = stats.component_tallies(components, matches)
    # (won, had): seats, the sum of their counts, how many had points.
    assert sorted(
        zip(tallies.won, tallies.had, tallies.seats, tallies["count"], tallies.scored)
    ) == [(False, False, 1, 0, 1), (False, True, 1, 1, 0), (True, True, 1, 2, 0)]
    row = stats.strength(tallies).iloc[0]
    assert (row.seats, row["count"], row.wins, row.win_rate) == (2, 3, 1, 0.5)
    assert row.mean_count == 1.5 and math.isnan(row.mean_points)
    # Winners: seat 1 of a (2 cards); the rest: seat 2 of a (1) and seat 1 of b (0).
    assert row.mean_count_winners == 2 and row.mean_count_rest == 0.5


def test_length_tallies_count_only_ended_matches():
    matches = _matches(["a", "b", "c", "d", "e"]).assign(
        status=["ended", "ended", "ended", "running", "disputed"], moves=[12, 10, 12, 3, 8]
    )
    tallies = stats.length_tallies(matches)
    assert list(zip(tallies.moves, tallies.matches)) == [(10, 1), (12, 2)]
    row = stats.lengths(tallies).iloc[0]
    assert (row.n, row.moves_min, row.moves_median, row.moves_max) == (3, 10, 12, 12)
