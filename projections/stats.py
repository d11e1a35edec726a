"""Balance statistics, as functions of the projection tables (DataFrames from `load_tables`).

What counts:
- only matches whose `matches.status` is "ended" count: running and abandoned matches never do, and
  an ended match with an open dispute is left out until the dispute is resolved;
- a WIN is being among the match's winners: a shared win counts as a win for each seat that shares
  it (so the seats' rates of one group can add up to more than 1), a draw is a win for nobody;
- the fair rate of a seat is 1 / players; the test is scipy's exact two-sided binomial test of the
  seat's wins in its matches against that rate, and the interval is the 95% Wilson score interval
  (statsmodels). One-player games (Topas solitaire) have no seat balance and are left out of it;
- every figure carries its n; `small` is True when n < SMALL_SAMPLE, where an interval is wide and a
  p-value says little.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

SMALL_SAMPLE = 30
CONFIDENCE = 0.95
GROUP = ["game", "players", "variant"]


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (nan, nan) when n is 0."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    return float(low), float(high)


def binomial_p(successes: int, n: int, rate: float) -> float:
    """Two-sided exact binomial test of `successes` in `n` against `rate`; nan when n is 0."""
    from scipy.stats import binomtest

    if n == 0:
        return math.nan
    return float(binomtest(successes, n, rate, alternative="two-sided").pvalue)


def counted(matches: pd.DataFrame) -> pd.DataFrame:
    """The matches that count in the statistics: ended, no open dispute."""
    return matches[matches["status"] == "ended"]


def _only_counted(table: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    return table[table["match_id"].isin(counted(matches)["match_id"])]


def filtered(table: pd.DataFrame, game: str | None = None, players: int | None = None,
             variant: str | None = None) -> pd.DataFrame:
    keep = pd.Series(True, index=table.index)
    for column, value in (("game", game), ("players", players), ("variant", variant)):
        if value is not None:
            keep &= table[column] == value
    return table[keep]


def seat_win_rates(scores: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, player count, variant and seat: matches, wins, rate, the Wilson interval, the
    fair rate, the binomial test's p-value, and the small-sample flag."""
    rows = []
    seats = _only_counted(scores, matches)
    seats = seats[seats["players"] > 1]
    for (game, players, variant, seat), group in seats.groupby(GROUP + ["seat"], sort=True):
        n, wins = len(group), int(group["won"].sum())
        low, high = wilson(wins, n)
        fair = 1 / players
        rows.append({"game": game, "players": int(players), "variant": variant,
                     "seat": int(seat), "matches": n, "wins": wins, "rate": wins / n,
                     "ci_low": low, "ci_high": high, "fair": fair,
                     "p_value": binomial_p(wins, n, fair), "small": n < SMALL_SAMPLE})
    return pd.DataFrame(rows, columns=["game", "players", "variant", "seat", "matches", "wins",
                                       "rate", "ci_low", "ci_high", "fair", "p_value", "small"])


def _describe(values: pd.Series) -> dict[str, Any]:
    n = len(values)
    return {"n": n, "mean": values.mean(), "std": values.std() if n > 1 else math.nan,
            "min": values.min(), "q25": values.quantile(0.25), "median": values.median(),
            "q75": values.quantile(0.75), "max": values.max(), "small": n < SMALL_SAMPLE}


def score_distributions(score_categories: pd.DataFrame, scores: pd.DataFrame,
                        matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, player count, variant and category (the total included, as 'total'): the
    distribution of points of the winners and of the rest."""
    totals = scores.assign(category="total", points=scores["total"])
    long = pd.concat([score_categories, totals[score_categories.columns]], ignore_index=True)
    long = _only_counted(long, matches)
    rows = []
    for (game, players, variant, category, won), group in long.groupby(
            GROUP + ["category", "won"], sort=True):
        rows.append({"game": game, "players": int(players), "variant": variant,
                     "category": category, "seats": "winners" if won else "rest",
                     **_describe(group["points"])})
    return pd.DataFrame(rows, columns=["game", "players", "variant", "category", "seats", "n",
                                       "mean", "std", "min", "q25", "median", "q75", "max",
                                       "small"])


def component_strength(components: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, kind and component: in how many seats' games it appeared (`seats`: count > 0),
    how many of it they had and the points it earned (means), and the win rate of those seats
    with its Wilson interval; beside it the mean count among winners and among the rest."""
    used = _only_counted(components, matches)
    rows = []
    for (game, kind, component), group in used.groupby(["game", "kind", "component"],
                                                       sort=True):
        having = group[group["count"] > 0]
        n, wins = len(having), int(having["won"].sum())
        low, high = wilson(wins, n)
        winners, rest = group[group["won"]], group[~group["won"]]
        rows.append({"game": game, "kind": kind, "component": component, "seats": n,
                     "count": int(having["count"].sum()),
                     "mean_count": having["count"].mean() if n else math.nan,
                     "mean_points": having["points"].mean() if n else math.nan,
                     "wins": wins, "win_rate": wins / n if n else math.nan,
                     "ci_low": low, "ci_high": high,
                     "mean_count_winners": winners["count"].mean() if len(winners) else math.nan,
                     "mean_count_rest": rest["count"].mean() if len(rest) else math.nan,
                     "small": n < SMALL_SAMPLE})
    return pd.DataFrame(rows, columns=["game", "kind", "component", "seats", "count",
                                       "mean_count", "mean_points", "wins", "win_rate",
                                       "ci_low", "ci_high", "mean_count_winners",
                                       "mean_count_rest", "small"])


def match_length(matches: pd.DataFrame) -> pd.DataFrame:
    """Per game, player count and variant: the distribution of effective moves per counted
    match, undos per match, and the minutes from start to end."""
    ended = counted(matches)
    rows = []
    for (game, players, variant), group in ended.groupby(GROUP, sort=True):
        minutes = (group["ended"] - group["started"]).dt.total_seconds() / 60
        moves = _describe(group["moves"])
        rows.append({"game": game, "players": int(players), "variant": variant,
                     **{k if k in ("n", "small") else f"moves_{k}": v for k, v in moves.items()},
                     "undos_mean": group["undos"].mean(),
                     "minutes_median": minutes.median()})
    return pd.DataFrame(rows)


# ---- the report `tablelog stats` prints ------------------------------------------------------

def _plain(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _plain(value.item())
    return value


def _records(frame: pd.DataFrame, drop: tuple[str, ...] = ("game",)) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items() if k not in drop}
            for row in frame.to_dict("records")]


def report(tables: dict[str, pd.DataFrame], game: str | None = None,
           players: int | None = None, variant: str | None = None) -> dict[str, Any]:
    """Every statistic, per game: JSON-ready (NaN as None)."""
    pick = {"game": game, "players": players, "variant": variant}
    matches = filtered(tables["matches"], **pick)
    seats = seat_win_rates(filtered(tables["scores"], **pick), matches)
    distributions = score_distributions(filtered(tables["score_categories"], **pick),
                                        filtered(tables["scores"], **pick), matches)
    strength = component_strength(filtered(tables["components"], **pick), matches)
    length = match_length(matches)
    result: dict[str, Any] = {}
    for name in sorted(matches["game"].unique()):
        of_game = matches[matches["game"] == name]
        shared = of_game[(of_game["status"] == "ended")
                         & (of_game["winners"].map(lambda w: len(json.loads(w))) > 1)]
        result[name] = {
            "matches": len(counted(of_game)),
            "recorded": len(of_game),
            "by_status": {k: int(v) for k, v in of_game["status"].value_counts().items()},
            "shared_wins": len(shared),
            "draws": int(((of_game["status"] == "ended") & (of_game["winners"] == "[]")).sum()),
            "small": len(counted(of_game)) < SMALL_SAMPLE,
            "seats": _records(seats[seats["game"] == name]),
            "scores": _records(distributions[distributions["game"] == name]),
            "components": _records(strength[strength["game"] == name]),
            "length": _records(length[length["game"] == name]) if len(length) else [],
        }
    return result
