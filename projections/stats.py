"""Balance statistics, as functions of the projection tables (DataFrames from `load_tables`).

What counts:
- only matches whose `matches.status` is "ended" count: running and abandoned matches never do, and
  an ended match with an open dispute is left out until the dispute is resolved;
- a WIN is being among the match's winners: a shared win counts as a win for each seat that shares
  it (so the seats' rates of one group can add up to more than 1), a draw is a win for nobody;
- the FAIR rate of a seat is the one it would have if no seat were favoured, given how often
  wins are shared and matches drawn: the mean of the group's seat rates (all the group's wins,
  a shared win once per sharer, over players x matches). With no shared win and no draw it is
  1 / players. Each seat's test is scipy's exact two-sided binomial test of its wins in its
  matches against that rate, and its interval the 95% Wilson score interval (statsmodels);
- "is any seat favoured?" is ONE test of all a group's seats together (`seats_even`): Pearson's
  chi-square of the seats' wins against equal shares (scipy `chisquare`), or the exact
  multinomial test where fewer than EXACT_BELOW wins per seat are expected. One-player games
  (Topas solitaire) have no seat balance and are left out of it;
- every figure carries its n; `small` is True when n < SMALL_SAMPLE, where an interval is wide and a
  p-value says little.

Each statistic is computed in two steps, so that it costs the same whatever the number of matches:
a TALLY folds the rows into a few counts and sums per group (`seat_tallies`, `score_tallies`,
`component_tallies`, `length_tallies`: pandas group-bys here; the dashboard has SQLite make the
same frames with GROUP BY, see `dashboard.data`), and the statistic is worked out from the tally
(`seat_rates`, `distributions`, `strength`, `lengths`): a few rows, whatever the store holds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any, SupportsInt, TypedDict, cast

import numpy as np
import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]  # it ships no stubs
import pyarrow.compute as pc  # type: ignore[import-untyped]
from numpy.typing import ArrayLike, NDArray

SMALL_SAMPLE = 30
CONFIDENCE = 0.95
GROUP = ["game", "players", "variant"]
QUARTILES = {"q25": 0.25, "median": 0.5, "q75": 0.75}


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (nan, nan) when n is 0."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    return float(low), float(high)


def wilson_arrays(
    successes: ArrayLike, n: ArrayLike, confidence: float = CONFIDENCE
) -> tuple[np.ndarray, np.ndarray]:
    """`wilson` of many proportions at once (statsmodels works on arrays); nan where n is 0."""
    from statsmodels.stats.proportion import proportion_confint

    successes, n = np.asarray(successes, dtype=float), np.asarray(n, dtype=float)
    some = n > 0
    low, high = np.full(n.shape, math.nan), np.full(n.shape, math.nan)
    if some.any():
        low[some], high[some] = proportion_confint(
            successes[some], n[some], alpha=1 - confidence, method="wilson"
        )
    return low, high


def binomial_p(successes: int, n: int, rate: float) -> float:
    """Two-sided exact binomial test of `successes` in `n` against `rate`; nan when n is 0."""
    from scipy.stats import binomtest

    if n == 0:
        return math.nan
    return float(binomtest(successes, n, rate, alternative="two-sided").pvalue)


def counted(matches: pd.DataFrame) -> pd.DataFrame:
    """The matches that count in the statistics: ended, no open dispute."""
    return matches[matches["status"] == "ended"]


KINDS = ("moves", "sheet")  # matches.kind: logged move by move, or from a score sheet


def kinds(matches: pd.DataFrame) -> pd.Series:
    """Each match's kind; a frame without the column (made before score sheets existed, as some
    callers build their own) holds matches logged move by move."""
    if "kind" in matches.columns:
        return matches["kind"]
    return pd.Series("moves", index=matches.index, dtype="string")


def of_kind(matches: pd.DataFrame, kind: str | None) -> pd.DataFrame:
    """All matches (None), only those logged move by move ("moves") or only score sheets
    ("sheet"). Every other table is counted through `matches`, so this filters them all."""
    if kind is None:
        return matches
    if kind not in KINDS:
        raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
    return matches[kinds(matches) == kind]


def behind(matches: pd.DataFrame, moves_only: bool = False) -> dict[str, int]:
    """How many counted matches of each kind stand behind a figure (`moves_only`: figures of
    moves or components, which score sheets cannot feed)."""
    ended = kinds(counted(matches))
    return {
        kind: 0 if moves_only and kind == "sheet" else int((ended == kind).sum()) for kind in KINDS
    }


def _only_counted(table: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    return table[_among(table["match_id"], counted(matches)["match_id"])]


def _among(values: pd.Series, wanted: pd.Series) -> pd.Series[bool] | NDArray[np.bool_]:
    """`values.isin(wanted)`, asked of pyarrow's `is_in` (nulls match nulls, as in pandas):
    pandas' `isin` on its arrow strings makes a Python object of each wanted value first,
    3 us an id. What pyarrow does not take (mixed types) goes to pandas."""
    try:
        found = pc.is_in(pa.array(values), value_set=pa.array(wanted), skip_nulls=False)
    except (pa.ArrowException, TypeError):
        return values.isin(wanted)
    return found.to_numpy(zero_copy_only=False)


def filtered(
    table: pd.DataFrame,
    game: str | None = None,
    players: int | None = None,
    variant: str | None = None,
) -> pd.DataFrame:
    keep = pd.Series(True, index=table.index)
    for column, value in (("game", game), ("players", players), ("variant", variant)):
        if value is not None:
            keep &= table[column] == value
    return table[keep]


def describe_counts(values: ArrayLike, counts: ArrayLike) -> dict[str, Any]:
    """n, mean, std (n - 1), min, quartiles (linear interpolation, as pandas) and max of a sample
    given as distinct values and how often each occurs: [10, 12, 30] x [1, 2, 1] is the sample
    10, 12, 12, 30. The sample is never spelled out, so a million matches cost what ten do."""
    raw, counts = np.asarray(values), np.asarray(counts, dtype=np.int64)
    order = np.argsort(raw, kind="stable")
    raw, counts = raw[order][counts[order] > 0], counts[order][counts[order] > 0]
    values = raw.astype(float)
    n = int(counts.sum())
    if n == 0:
        return {
            "n": 0,
            "mean": math.nan,
            "std": math.nan,
            "min": math.nan,
            **{k: math.nan for k in QUARTILES},
            "max": math.nan,
            "small": True,
        }
    ends = np.cumsum(counts)  # the k-th smallest (from 0) is the first value whose end > k
    mean = float((values * counts).sum() / n)
    std = math.sqrt(float((counts * (values - mean) ** 2).sum()) / (n - 1)) if n > 1 else math.nan

    def quantile(q: float) -> float:
        position = (n - 1) * q
        below = math.floor(position)
        a, b = values[np.searchsorted(ends, [below, min(below + 1, n - 1)], side="right")]
        t = position - below  # numpy's linear interpolation, the form it uses (its _lerp)
        return float(b - (b - a) * (1 - t)) if t >= 0.5 else float(a + (b - a) * t)

    return {
        "n": n,
        "mean": mean,
        "std": std,
        "min": raw[0].item(),  # ints stay ints
        **{k: quantile(q) for k, q in QUARTILES.items()},
        "max": raw[-1].item(),
        "small": n < SMALL_SAMPLE,
    }


# ---- seat balance ----------------------------------------------------------------------------

SEAT_TALLY = [*GROUP, "seat", "matches", "wins"]


def seat_tallies(scores: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, player count, variant and seat: counted matches and wins (seats of one-player
    games included; `seat_rates` leaves them out)."""
    won = _only_counted(scores, matches).groupby([*GROUP, "seat"], sort=True)["won"]
    # Plain aggregations rather than one named `agg`: the same frame at half the cost.
    tally = pd.DataFrame({"matches": won.size(), "wins": won.sum()}).reset_index()
    return tally[SEAT_TALLY]


def seat_rates(tallies: pd.DataFrame) -> pd.DataFrame:
    """The seat win rates from `seat_tallies` (or the same columns from SQL): rate, Wilson
    interval, fair rate (the group's mean seat rate), binomial test and small flag per seat;
    one-player games left out."""
    columns = [
        *GROUP,
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
    rates = _seated(tallies)
    if rates.empty:
        return pd.DataFrame(columns=columns)
    low, high = wilson_arrays(rates["wins"], rates["matches"])
    group = rates.groupby(GROUP, sort=False)
    fair = group["wins"].transform("sum") / group["matches"].transform("sum")
    p_values = [
        binomial_p(int(w), int(n), float(f))  # one exact test per seat, not per row
        for w, n, f in zip(rates["wins"], rates["matches"], fair)
    ]
    rates = rates.assign(
        rate=rates["wins"] / rates["matches"],
        ci_low=low,
        ci_high=high,
        fair=fair,
        p_value=p_values,
        small=rates["matches"] < SMALL_SAMPLE,
    )
    return rates[columns]


def _seated(tallies: pd.DataFrame) -> pd.DataFrame:
    """The tallies of games of two or more players, sorted by group and seat, as int64."""
    rates = tallies[(tallies["players"] > 1) & (tallies["matches"] > 0)]
    rates = rates.sort_values([*GROUP, "seat"], ignore_index=True)
    # Only the columns not int64 already (SQL's tallies may differ): a frame's astype costs
    # as much as the sort, even when it changes nothing.
    ints = {c: "int64" for c in ("players", "seat", "matches", "wins") if rates[c].dtype != "int64"}
    return rates.astype(ints) if ints else rates


EXACT_BELOW = 5  # expected wins per seat under which the chi-square's approximation is poor
SEAT_TEST = [*GROUP, "matches", "wins", "expected", "statistic", "df", "p_value", "method", "small"]


class SeatTest(TypedDict):
    """The seat test's figures (`seats_even`)."""

    statistic: float
    df: int
    p_value: float
    method: str


def seats_even(wins: Sequence[int]) -> SeatTest:
    """Is any seat favoured? One test of every seat's wins together against equal shares:
    Pearson's chi-square (scipy `chisquare`, players - 1 degrees of freedom), or, where fewer
    than EXACT_BELOW wins per seat are expected, the exact multinomial test (the chance of an
    outcome no more likely than this one, all ways of sharing out the wins counted; scipy has
    no such test, so its `multinomial` gives each way's chance). The expected share is the
    seats' mean, so shared wins and draws move it as they move the fair rate. NaN p-value when
    there is no win to share out."""
    from scipy.stats import chisquare

    counts = np.asarray(wins, dtype=np.int64)
    total, seats = int(counts.sum()), len(counts)
    if seats < 2 or total == 0:
        return {"statistic": math.nan, "df": seats - 1, "p_value": math.nan, "method": "-"}
    chi = chisquare(counts)
    exact = total / seats < EXACT_BELOW
    return {
        "statistic": float(chi.statistic),
        "df": seats - 1,
        "p_value": _exact_multinomial_p(counts) if exact else float(chi.pvalue),
        "method": "exact multinomial" if exact else "chi-square",
    }


def _exact_multinomial_p(counts: np.ndarray) -> float:
    """The exact multinomial test of `counts` against equal chances: every way of sharing out
    the same total among the seats (bars between stars: C(total + seats - 1, seats - 1) of
    them, a few thousand at most below EXACT_BELOW), summing the chances of those no more
    likely than the one seen."""
    from scipy.stats import multinomial

    total, seats = int(counts.sum()), len(counts)
    ways = np.array(
        [
            np.diff([-1, *bars, total + seats - 1]) - 1
            for bars in combinations(range(total + seats - 1), seats - 1)
        ]
    )
    chances = multinomial.pmf(ways, total, [1 / seats] * seats)
    seen = multinomial.pmf(counts, total, [1 / seats] * seats)
    return float(min(1.0, chances[chances <= seen * (1 + 1e-9)].sum()))


def seat_tests(tallies: pd.DataFrame) -> pd.DataFrame:
    """`seats_even` of every group of `seat_tallies` (or the same columns from SQL): matches,
    all its wins, the wins expected per seat, the statistic, degrees of freedom, p-value, the
    test used and the small flag; one-player games left out."""
    rows = []
    for (game, players, variant), group in _seated(tallies).groupby(GROUP, sort=True):
        wins = [int(w) for w in group["wins"]]
        matches = int(group["matches"].max())
        rows.append(
            {
                "game": game,
                "players": int(cast(SupportsInt, players)),  # a group key: Hashable to pandas
                "variant": variant,
                "matches": matches,
                "wins": sum(wins),
                "expected": sum(wins) / len(wins),
                **seats_even(wins),
                "small": matches < SMALL_SAMPLE,
            }
        )
    return pd.DataFrame(rows, columns=SEAT_TEST)


def seat_win_rates(scores: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, player count, variant and seat: matches, wins, rate, the Wilson interval, the
    fair rate, the binomial test's p-value, and the small-sample flag."""
    return seat_rates(seat_tallies(scores, matches))


# ---- points per scoring category ---------------------------------------------------------------

SCORE_TALLY = [*GROUP, "category", "won", "points", "seats"]
DISTRIBUTION = [
    *GROUP,
    "category",
    "seats",
    "n",
    "mean",
    "std",
    "min",
    "q25",
    "median",
    "q75",
    "max",
    "small",
]


def score_tallies(
    score_categories: pd.DataFrame, scores: pd.DataFrame, matches: pd.DataFrame
) -> pd.DataFrame:
    """Per group, category (the total included, as 'total'), won and points: how many seats of
    counted matches scored exactly those points."""
    totals = scores.assign(category="total", points=scores["total"])
    long = pd.concat([score_categories, totals[score_categories.columns]], ignore_index=True)
    long = _only_counted(long, matches)
    tally = long.groupby([*GROUP, "category", "won", "points"], sort=True).size()
    return tally.rename("seats").reset_index()[SCORE_TALLY]


def distributions(tallies: pd.DataFrame) -> pd.DataFrame:
    """The points of the winners and of the rest per group and category, from `score_tallies`
    (or the same columns from SQL): n, mean, std, min, quartiles, max, small."""
    rows = []
    for (game, players, variant, category, won), group in tallies.groupby(
        [*GROUP, "category", "won"], sort=True
    ):
        rows.append(
            {
                "game": game,
                "players": int(cast(SupportsInt, players)),  # a group key: Hashable to pandas
                "variant": variant,
                "category": category,
                "seats": "winners" if won else "rest",
                **describe_counts(group["points"], group["seats"]),
            }
        )
    return pd.DataFrame(rows, columns=DISTRIBUTION)


def score_distributions(
    score_categories: pd.DataFrame, scores: pd.DataFrame, matches: pd.DataFrame
) -> pd.DataFrame:
    """Per game, player count, variant and category (the total included, as 'total'): the
    distribution of points of the winners and of the rest."""
    return distributions(score_tallies(score_categories, scores, matches))


# ---- component strength ------------------------------------------------------------------------

COMPONENT_TALLY = ["game", "kind", "component", "won", "had", "seats", "count", "points", "scored"]
STRENGTH = [
    "game",
    "kind",
    "component",
    "seats",
    "count",
    "mean_count",
    "mean_points",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_count_winners",
    "mean_count_rest",
    "small",
]


def component_tallies(components: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, kind, component, won and had (count > 0): the seats of counted matches, the sum
    of their counts and of their points, and how many had points (`scored`; NaN is none)."""
    used = _only_counted(components, matches).assign(had=lambda t: t["count"] > 0)
    grouped = used.groupby(["game", "kind", "component", "won", "had"], sort=True)
    points = grouped["points"]
    tally = pd.DataFrame(  # plain aggregations, as in `seat_tallies`
        {
            "seats": grouped.size(),
            "count": grouped["count"].sum(),
            "points": points.sum(),
            "scored": points.count(),
        }
    ).reset_index()
    return tally[COMPONENT_TALLY]


def strength(tallies: pd.DataFrame) -> pd.DataFrame:
    """Component strength from `component_tallies` (or the same columns from SQL): per game, kind
    and component, the seats that had it (count > 0), their count, mean count, mean points, wins,
    win rate and Wilson interval; the mean count among all winners and among the rest."""
    if tallies.empty:
        return pd.DataFrame(columns=STRENGTH)
    t = tallies.astype({"won": bool, "had": bool})
    having, won = t["had"].to_numpy(), t["won"].to_numpy()
    row_seats, count = t["seats"].to_numpy(), t["count"].to_numpy()
    # numpy's `where` on the columns' arrays (the same values and dtypes): pandas' own, a
    # dozen times, cost more than the group-by.
    parts = pd.DataFrame(
        {
            "game": t["game"],
            "kind": t["kind"],
            "component": t["component"],
            "seats": np.where(having, row_seats, 0),
            "count": np.where(having, count, 0),
            "points": np.where(having, t["points"].to_numpy(), 0.0),
            "scored": np.where(having, t["scored"].to_numpy(), 0),
            "wins": np.where(having & won, row_seats, 0),
            "winners": np.where(won, row_seats, 0),
            "count_winners": np.where(won, count, 0),
            "rest": np.where(~won, row_seats, 0),
            "count_rest": np.where(~won, count, 0),
        }
    )
    sums = parts.groupby(["game", "kind", "component"], sort=True).sum().reset_index()
    seats = sums["seats"].astype("int64")
    low, high = wilson_arrays(sums["wins"], seats)
    result = sums.assign(
        seats=seats,
        count=sums["count"].astype("int64"),
        wins=sums["wins"].astype("int64"),
        mean_count=_ratio(sums["count"], seats),
        mean_points=_ratio(sums["points"], sums["scored"]),
        win_rate=_ratio(sums["wins"], seats),
        ci_low=low,
        ci_high=high,
        mean_count_winners=_ratio(sums["count_winners"], sums["winners"]),
        mean_count_rest=_ratio(sums["count_rest"], sums["rest"]),
        small=seats < SMALL_SAMPLE,
    )
    return result[STRENGTH]


def _ratio(part: pd.Series, whole: pd.Series) -> np.ndarray:
    """part / whole, NaN where whole is 0 (a mean of nothing); numpy's division, as pandas'."""
    numerator = part.to_numpy(dtype="float64")
    denominator = whole.to_numpy(dtype="float64")
    ratio = np.full(len(denominator), math.nan)
    return np.divide(numerator, denominator, out=ratio, where=denominator > 0)


def component_strength(components: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, kind and component: in how many seats' games it appeared (`seats`: count > 0),
    how many of it they had and the points it earned (means), and the win rate of those seats
    with its Wilson interval; beside it the mean count among winners and among the rest."""
    return strength(component_tallies(components, matches))


# ---- match length ------------------------------------------------------------------------------

LENGTH_TALLY = [*GROUP, "moves", "matches"]


def length_tallies(matches: pd.DataFrame) -> pd.DataFrame:
    """Per group and number of effective moves: how many counted matches were that long (score
    sheets have no moves: left out)."""
    tally = of_kind(counted(matches), "moves").groupby([*GROUP, "moves"], sort=True).size()
    return tally.rename("matches").reset_index()[LENGTH_TALLY]


def lengths(tallies: pd.DataFrame) -> pd.DataFrame:
    """Per group, the distribution of effective moves per counted match, from `length_tallies`:
    n, moves_mean, moves_std, moves_min, moves_q25, moves_median, moves_q75, moves_max, small."""
    rows = []
    for (game, players, variant), group in tallies.groupby(GROUP, sort=True):
        moves = describe_counts(group["moves"], group["matches"])
        rows.append(
            {
                "game": game,
                "players": int(cast(SupportsInt, players)),  # a group key: Hashable to pandas
                "variant": variant,
                **{k if k in ("n", "small") else f"moves_{k}": v for k, v in moves.items()},
            }
        )
    return pd.DataFrame(rows)


def match_length(matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, player count and variant: the distribution of effective moves per counted
    match, undos per match, and the minutes from start to end."""
    ended = of_kind(counted(matches), "moves")  # a score sheet has no moves to count
    if ended.empty:
        return pd.DataFrame()
    minutes = (ended["ended"] - ended["started"]).dt.total_seconds() / 60
    grouped = ended.assign(minutes=minutes).groupby(GROUP, sort=True)
    per_group = pd.DataFrame(  # plain aggregations, as in `seat_tallies`
        {"undos_mean": grouped["undos"].mean(), "minutes_median": grouped["minutes"].median()}
    ).reset_index()
    return lengths(length_tallies(ended)).merge(per_group, on=GROUP, how="left")


# ---- the report `tablelog stats` prints ------------------------------------------------------


def _plain(value: object) -> object:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _plain(value.item())
    return value


def _records(frame: pd.DataFrame, drop: tuple[str, ...] = ("game",)) -> list[dict[str, object]]:
    return [
        {str(k): _plain(v) for k, v in row.items() if k not in drop}
        for row in frame.to_dict("records")
    ]


# The tables and columns `report` reads (`ratings` and `moves` it does not): a caller that
# reads the tables for it reads only these (`Queries.report`). Each text column costs a
# conversion to pandas' string dtype and a time column a parse, whether used or not.
REPORT_COLUMNS: dict[str, tuple[str, ...]] = {
    "matches": (
        *("match_id", "game", "variant", "players", "status", "moves", "undos", "winners"),
        *("started", "ended", "kind"),
    ),
    "scores": ("match_id", "game", "variant", "players", "seat", "won", "total"),
    "score_categories": ("match_id", "game", "variant", "players", "won", "category", "points"),
    "components": (
        *("match_id", "game", "variant", "players", "won", "kind", "component", "count"),
        "points",
    ),
}


def report(
    tables: dict[str, pd.DataFrame],
    game: str | None = None,
    players: int | None = None,
    variant: str | None = None,
    kind: str | None = None,
) -> dict[str, Any]:
    """Every statistic, per game: JSON-ready (NaN as None). `kind`: see `of_kind`; each
    section says how many matches of each kind stand behind it (`behind`)."""

    picked = {name: filtered(tables[name], game, players, variant) for name in REPORT_COLUMNS}
    matches = of_kind(picked["matches"], kind)
    scores = picked["scores"]
    tallies = seat_tallies(scores, matches)
    seats, tests = seat_rates(tallies), seat_tests(tallies)
    distributions = score_distributions(picked["score_categories"], scores, matches)
    strength = component_strength(picked["components"], matches)
    length = match_length(matches)
    result: dict[str, Any] = {}
    for name in sorted(matches["game"].unique()):
        of_game = matches[matches["game"] == name]
        ended = of_game["status"] == "ended"
        shared = of_game[ended & (of_game["winners"].map(lambda w: len(json.loads(w))) > 1)]
        games = len(counted(of_game))
        every, of_moves = behind(of_game), behind(of_game, moves_only=True)
        result[name] = {
            "matches": games,
            "recorded": len(of_game),
            "by_status": {k: int(v) for k, v in of_game["status"].value_counts().items()},
            "shared_wins": len(shared),
            "draws": int((ended & (of_game["winners"] == "[]")).sum()),
            "small": games < SMALL_SAMPLE,
            "seats": _records(seats[seats["game"] == name]),
            "seat_test": _records(tests[tests["game"] == name]),
            "scores": _records(distributions[distributions["game"] == name]),
            "components": _records(strength[strength["game"] == name]),
            "length": _records(length[length["game"] == name]) if len(length) else [],
            "behind": {
                "seats": every,
                "scores": dict(every),
                "components": of_moves,
                "length": dict(of_moves),
            },
        }
    return result
