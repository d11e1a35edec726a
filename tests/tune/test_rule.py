"""The shipping rule (one implementation: the tuner's and scripts/geoshapes_balance.py's)."""

from __future__ import annotations

from tablelog.tune.rule import Rule, met, seat_rows


def test_even_seats_on_both_sets_are_confirmed():
    first = seat_rows(2, 2000, {0: 1000, 1: 1000})
    pooled = seat_rows(2, 4000, {0: 2010, 1: 1990})
    assert met(first, pooled)


def test_a_seat_outside_its_interval_on_the_first_set_is_not_confirmed():
    first = seat_rows(2, 2000, {0: 1100, 1: 900})  # 55%: its interval 52.8-57.2% misses 50%
    assert not first[0]["inside"]
    assert not met(first, seat_rows(2, 4000, {0: 2000, 1: 2000}))


def test_pooled_seats_too_uneven_are_not_confirmed():
    first = seat_rows(3, 2000, {0: 667, 1: 667, 2: 666})
    pooled = seat_rows(3, 4000, {0: 1400, 1: 1300, 2: 1300})  # chi-square 5.0, p = 0.082
    assert met(first, pooled)
    pooled = seat_rows(3, 4000, {0: 1450, 1: 1300, 2: 1250})  # chi-square 16.25, p < 0.001
    assert not met(first, pooled)
    assert not met(first, seat_rows(3, 4000, {0: 1400, 1: 1300, 2: 1300}), Rule(pooled_p=0.1))


def test_the_balance_script_uses_the_rule():
    from tests.games.test_geoshapes_v2 import balance_script

    script = balance_script()
    first = script.rows(2, 2000, {0: 1100, 1: 900})
    assert first[0]["quadrant"] == "North-West" and not first[0]["inside"]
    assert script.confirmed is not None and script.met is met


def test_shared_wins_move_the_fair_rate_as_tablelog_stats_has_it():
    """Wins shared in one match in ten (each sharer counted a winner, as in `tablelog stats`):
    three even seats each win about 36.7% of the matches, and that is fair, not 1 / 3."""
    first = seat_rows(3, 2000, {0: 734, 1: 733, 2: 733})
    assert all(row["inside"] for row in first)
    assert met(first, seat_rows(3, 4000, {0: 1467, 1: 1466, 2: 1467}))
    favoured = seat_rows(3, 2000, {0: 710, 1: 700, 2: 810})  # the third seat 4 points above
    assert not favoured[2]["inside"] and favoured[0]["inside"]


def test_a_seat_deviates_from_the_seats_mean():
    from tablelog.tune.measure import Tally

    shared = Tally(3, matches=1000, wins=[367, 367, 367])  # every seat even, ties counted
    assert shared.deviation() < 1e-9
    assert abs(Tally(2, matches=1000, wins=[550, 450]).deviation() - 0.05) < 1e-9
