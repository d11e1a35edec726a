"""Estimates, intervals and tests for the lab's metrics (`projections.metrics` rows in).

- `summary(rows)`: per metric its n, estimate and 95% interval; per seat its win rate; Ludii's
  Balance and Tablelog's (shared wins counted).
- `compare(a, b)`: arm B minus arm A on every metric, with a 95% interval of the difference, a
  p-value and the Holm-adjusted p-value over the metrics compared (statsmodels'
  `multipletests`), and whether the difference is real at the chosen level after that adjustment.
  A metric with one value in every match of both arms has nothing to test: it is marked
  `no_variation` and left out of the Holm family (its p would be 1 by construction).
- `head_to_head(...)`: one agent against another with seats rotated: its win rate among decided
  matches, the difference from the fair rate, its interval and an exact binomial test.
- `skill_trace(results)`: Ludii's SkillTrace, one number from the strong agent's mean utility at
  each doubling of its budget.

Nothing here is hand-rolled: Wilson and Newcombe intervals and the two-proportion test come from
statsmodels, the bootstrap, Welch's t-test and the binomial test from scipy.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from .metrics import CONFIDENCE, METRICS, RESAMPLES, SEED

ALPHA = 0.05


class Estimate(TypedDict):
    """One row of `summary`: a metric's estimate and its interval."""

    metric: str
    label: str
    n: int
    estimate: float
    low: float
    high: float
    interval: str  # the interval's method


def _bootstrap(values: np.ndarray, statistic: Any = np.mean) -> tuple[float, float]:
    """Percentile bootstrap interval of `statistic` over `values` (rows: matches)."""
    from scipy.stats import bootstrap

    if len(values) < 2:
        return math.nan, math.nan
    if np.all(values == values[0]):
        value = float(statistic(values))  # no spread: the interval is the point
        return value, value
    # Resample match numbers, so one code path serves a column of values and a table of seats.
    result = bootstrap(
        (np.arange(len(values)),),
        lambda rows: statistic(values[rows]),
        confidence_level=CONFIDENCE,
        method="percentile",
        vectorized=False,
        n_resamples=RESAMPLES,
        random_state=np.random.default_rng(SEED),
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def _wilson(successes: float, n: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=1 - CONFIDENCE, method="wilson")
    return max(0.0, float(low)), min(1.0, float(high))  # rounding can stray past 0 or 1


def summary(rows: pd.DataFrame) -> pd.DataFrame:
    """metric, label, n, estimate, low, high, interval (the method) for every metric, every
    seat's win rate and the balance."""
    out: list[Estimate] = []
    for metric, (label, kind) in METRICS.items():
        values = rows[metric].dropna().to_numpy(float) if metric in rows else np.array([])
        out.append(_estimate(metric, label, kind, values))
    seats = sorted(c for c in rows.columns if c.startswith("won_"))
    for column in seats:
        values = rows[column].dropna().to_numpy(float)
        out.append(_estimate(column, f"seat {column[4:]} win rate", "share", values))
    alone = sorted(c for c in rows.columns if c.startswith("alone_"))
    out.append(_balance(rows, alone, "balance", BALANCE))
    out.append(_balance(rows, seats, "balance_shared", BALANCE_SHARED))
    return pd.DataFrame(out)


def _estimate(metric: str, label: str, kind: str, values: np.ndarray) -> Estimate:
    n = len(values)
    estimate = float(values.mean()) if n else math.nan
    if kind == "share":
        low, high = _wilson(values.sum(), n)
        method = "Wilson"
    else:
        low, high = _bootstrap(values)
        method = "bootstrap"
    return {
        "metric": metric,
        "label": label,
        "n": n,
        "estimate": estimate,
        "low": low,
        "high": high,
        "interval": method,
    }


BALANCE = "balance (Ludii: 1 - spread of the seats' rates of winning alone)"
BALANCE_SHARED = "balance with shared wins (1 - spread of the seat win rates)"


def balance_of(won: np.ndarray) -> float:
    """1 minus the spread between the best and worst seat's rate (rows: matches, columns:
    seats). Ludii's Balance (`metrics/single/outcome/Balance.java`) over the `alone_` columns:
    it adds (utility + 1) / 2 to a whole-number tally, which keeps only a win alone."""
    rates = won.mean(axis=0)
    return float(1 - (rates.max() - rates.min()))


def _balance(rows: pd.DataFrame, seats: list[str], metric: str, label: str) -> Estimate:
    won = rows[seats].dropna().to_numpy(float) if seats else np.empty((0, 0))
    n = len(won)
    enough = n > 0 and len(seats) >= 2
    low, high = _bootstrap(won, balance_of) if enough else (math.nan, math.nan)
    return {
        "metric": metric,
        "label": label,
        "n": n,
        "estimate": balance_of(won) if enough else math.nan,
        "low": low,
        "high": high,
        "interval": "bootstrap",
    }


# ---- arm against arm ------------------------------------------------------------------------


def compare(a: pd.DataFrame, b: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Arm B minus arm A on every metric both arms measured: difference, 95% interval, p-value
    and Holm-adjusted p-value (over the metrics tested), and `real` at level `alpha`. A metric
    with one value in every match of both arms is `no_variation`: no p, not in the family."""
    rows = []
    for metric, (label, kind) in METRICS.items():
        x = a[metric].dropna().to_numpy(float) if metric in a else np.array([])
        y = b[metric].dropna().to_numpy(float) if metric in b else np.array([])
        if len(x) < 2 or len(y) < 2:
            continue
        same = np.ptp(np.concatenate([x, y])) == 0  # one value in every match of both arms
        low, high, p = (
            (0.0, 0.0, math.nan)
            if same
            else _two_shares(x, y)
            if kind == "share"
            else _two_means(x, y)
        )
        rows.append(
            {
                "metric": metric,
                "label": label,
                "n_a": len(x),
                "n_b": len(y),
                "a": x.mean(),
                "b": y.mean(),
                "difference": y.mean() - x.mean(),
                "low": low,
                "high": high,
                "p": p,
                "no_variation": bool(same),
            }
        )
    return _holm(pd.DataFrame(rows), alpha)


def _holm(frame: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Holm's adjustment over the metrics tested (not those without variation)."""
    from statsmodels.stats.multitest import multipletests

    if frame.empty:
        return frame
    tested = frame["p"].notna()
    frame["p_holm"] = math.nan
    frame["real"] = False
    if tested.any():
        reject, adjusted, _, _ = multipletests(frame.loc[tested, "p"], alpha=alpha, method="holm")
        frame.loc[tested, "p_holm"] = adjusted
        frame.loc[tested, "real"] = reject
    return frame


def _two_shares(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Newcombe's interval of p_b - p_a and the two-proportion score test (statsmodels)."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    counts = (int(y.sum()), len(y), int(x.sum()), len(x))
    with np.errstate(divide="ignore", invalid="ignore"):  # its ratio and odds of a 0 share
        low, high = confint_proportions_2indep(*counts, method="newcomb", alpha=1 - CONFIDENCE)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = test_proportions_2indep(*counts, method="score").pvalue
    return float(low), float(high), float(p)


def _two_means(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Bootstrap interval of mean(y) - mean(x) and Welch's t-test (scipy)."""
    from scipy.stats import bootstrap, ttest_ind

    if np.ptp(x) == 0 and np.ptp(y) == 0:  # each arm one value, not the same: no spread at all
        return float(y[0] - x[0]), float(y[0] - x[0]), 0.0
    result = bootstrap(
        (y, x),
        lambda u, v, axis=-1: u.mean(axis) - v.mean(axis),
        confidence_level=CONFIDENCE,
        method="percentile",
        n_resamples=RESAMPLES,
        random_state=np.random.default_rng(SEED),
    )
    with warnings.catch_warnings():
        # Nearly constant arms make scipy warn of precision; the p-value is still the answer.
        warnings.simplefilter("ignore", RuntimeWarning)
        p = ttest_ind(y, x, equal_var=False).pvalue
    interval = result.confidence_interval
    return float(interval.low), float(interval.high), 1.0 if math.isnan(p) else float(p)


# ---- agent against agent --------------------------------------------------------------------


def head_to_head(
    wins: int, losses: int, draws: int, players: int, shared: float | None = None
) -> dict[str, Any]:
    """The focal agent's win rate among decided matches (a draw decides nothing; in a
    many-player match any other seat's win is a loss; a shared win is a win), against the fair
    rate: the difference, its 95% Wilson interval shifted by the fair rate, and scipy's exact
    binomial test. The fair rate is the chance that a seat is among the winners when seats are
    even: `shared` / decided, where `shared` sums winners / players over the decided matches
    (observed sharing, as the seat test's fair rate is); 1/players when no win was shared."""
    from scipy.stats import binomtest

    decided = wins + losses
    fair = shared / decided if shared is not None and decided else 1.0 / players
    if decided == 0:
        return {
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "decided": 0,
            "rate": math.nan,
            "low": math.nan,
            "high": math.nan,
            "fair": fair,
            "difference": math.nan,
            "p": math.nan,
        }
    low, high = _wilson(wins, decided)
    return {
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "decided": decided,
        "rate": wins / decided,
        "low": low,
        "high": high,
        "fair": fair,
        "shared": decided * fair,
        "difference": wins / decided - fair,
        "diff_low": low - fair,
        "diff_high": high - fair,
        "p": float(binomtest(wins, decided, fair).pvalue),
    }


def skill_trace(results: list[float]) -> float:
    """Ludii's SkillTrace (`metrics/designer/SkillTrace.java`) from the strong agent's mean
    utility at each doubling of the budgets (1 a win, -1 a loss, 0 a draw; between them for
    a middle place): the least-squares line through the steps (numbered 0, 1, ...) predicts
    the step after the next (Ludii predicts at its planned step count + 1), clamped to 0..1;
    the trace is that prediction plus the rest of the way to 1 times the mean of the steps'
    results clamped at 0. NaN with fewer than two steps (a line needs two)."""
    from scipy.stats import linregress

    if len(results) < 2:
        return math.nan
    line = linregress(np.arange(len(results)), results)
    predicted = min(max(line.intercept + line.slope * (len(results) + 1), 0.0), 1.0)
    area = sum(max(r, 0.0) for r in results) / len(results)
    return float(predicted + (1 - predicted) * area)
