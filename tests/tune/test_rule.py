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
