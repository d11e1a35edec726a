"""The report read the cheap way equals the report of every column, and the statistics' quicker
spellings (plain group-by aggregations, numpy's `where`) equal pandas' plainer ones."""

from __future__ import annotations

import math
import random

import numpy as np
import pandas as pd
import pytest

from tablelog.projections import stats
from tablelog.projections.load import load_tables
from tablelog.projections.queries import Queries
from tests.projections.test_projection import some_matches


@pytest.fixture
def tables(recorder):
    rng = random.Random(24)
    recorder.save_new(some_matches(rng) + some_matches(rng))
    return load_tables(recorder)


@pytest.mark.parametrize(
    "pick",
    [{}, {"game": "topiary"}, {"players": 3}, {"game": "total-landscaping", "kind": "moves"}],
)
def test_the_report_of_the_columns_it_reads_is_the_report_of_every_column(recorder, tables, pick):
    assert Queries(recorder).report(**pick) == stats.report(tables, **pick)


def _named_seat_tallies(scores, matches):
    seats = stats._only_counted(scores, matches)
    tally = seats.groupby([*stats.GROUP, "seat"], sort=True).agg(
        matches=("won", "size"), wins=("won", "sum")
    )
    return tally.reset_index()[stats.SEAT_TALLY]


def _named_component_tallies(components, matches):
    used = stats._only_counted(components, matches).assign(had=lambda t: t["count"] > 0)
    tally = used.groupby(["game", "kind", "component", "won", "had"], sort=True).agg(
        seats=("count", "size"),
        count=("count", "sum"),
        points=("points", "sum"),
        scored=("points", "count"),
    )
    return tally.reset_index()[stats.COMPONENT_TALLY]


def _pandas_strength_sums(tallies):
    """`strength`'s sums with pandas' own `where`, column by column."""
    t = tallies.astype({"won": bool, "had": bool})
    having, won = t["had"], t["won"]
    parts = pd.DataFrame(
        {
            "game": t["game"],
            "kind": t["kind"],
            "component": t["component"],
            "seats": t["seats"].where(having, 0),
            "count": t["count"].where(having, 0),
            "points": t["points"].where(having, 0.0),
            "scored": t["scored"].where(having, 0),
            "wins": t["seats"].where(having & won, 0),
            "winners": t["seats"].where(won, 0),
        }
    )
    return parts.groupby(["game", "kind", "component"], sort=True).sum().reset_index()


def test_the_tallies_equal_named_aggregations(tables):
    matches = tables["matches"]
    for frame in (tables, {name: table.iloc[:0] for name, table in tables.items()}):
        pd.testing.assert_frame_equal(
            stats.seat_tallies(frame["scores"], matches),
            _named_seat_tallies(frame["scores"], matches),
            check_exact=True,
        )
        pd.testing.assert_frame_equal(
            stats.component_tallies(frame["components"], matches),
            _named_component_tallies(frame["components"], matches),
            check_exact=True,
        )


def test_strength_equals_pandas_where_and_division(tables):
    tallies = stats.component_tallies(tables["components"], tables["matches"])
    found = stats.strength(tallies)
    sums = _pandas_strength_sums(tallies)
    for column in ("seats", "count", "wins"):
        assert found[column].tolist() == sums[column].astype("int64").tolist()
    for mean, part, whole in (("mean_points", "points", "scored"), ("win_rate", "wins", "seats")):
        denominator = sums[whole].astype("float64")
        expected = sums[part].astype("float64") / denominator.where(denominator > 0)
        assert np.array_equal(found[mean].to_numpy(), expected.to_numpy(), equal_nan=True)


def test_a_ratio_of_nothing_is_nan():
    ratio = stats._ratio(pd.Series([1, 0, 3]), pd.Series([2, 0, 0]))
    assert ratio[0] == 0.5 and math.isnan(ratio[1]) and math.isnan(ratio[2])


@pytest.mark.parametrize("dtype", ["string", object])
@pytest.mark.parametrize(
    ("values", "wanted"),
    [
        (["a", "b", None, "c", "a"], ["a", "c"]),
        (["a", None], ["b", None]),
        ([], ["a"]),
        (["a", "b"], []),
    ],
)
def test_rows_among_the_wanted_ones_are_isins(values, wanted, dtype):
    column, among = pd.Series(values, dtype=dtype), pd.Series(wanted, dtype=dtype)
    found = stats._among(column, among)
    assert list(np.asarray(found, dtype=bool)) == list(column.isin(among))


def test_mixed_types_pyarrow_refuses_are_asked_of_pandas():
    column, among = pd.Series(["a", 1, 2.5], dtype=object), pd.Series(["a", 2.5], dtype=object)
    assert list(stats._among(column, among)) == [True, False, True]
