"""The Lab page's figures, drawn from an experiment's stored report (`tablelog.lab.report`):

- `forest`: one small panel per metric, one row per arm: the estimate as a dot and its 95%
  interval as a bar, n in the hover (a forest plot; metrics have their own scales, so their own
  panels);
- `skill_trace`: the stronger agent's win rate at each doubling of the MCTS budget, with its
  interval as a band and the fair rate dashed;
- `head_to_head`: a restricted agent's win rate with its interval against the fair rate.
"""

from __future__ import annotations

from typing import Any, Required, TypedDict

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import INK, base, empty, seat_colour, text

PANEL_HEIGHT = 70


class MetricRow(TypedDict, total=False):
    """One metric of an arm (`lab_stats.summary`'s row, JSON-ready: no figure is null); an arm
    without it reads as no match behind it."""

    metric: str
    label: str
    n: Required[int]
    estimate: Required[float | None]
    low: float | None
    high: float | None
    interval: str  # how the interval was made: Wilson, bootstrap


def forest(report: dict[str, Any] | None) -> go.Figure:
    title = "Every metric, per arm"
    if not report:
        return empty(title, "pick an experiment")
    arms = [arm for arm in report["arms"] if arm["metrics"]]
    if not arms:
        return empty(title, "no matches behind any arm")
    metrics = [
        m["metric"]
        for m in arms[0]["metrics"]
        if any(_metric(arm, m["metric"])["n"] for arm in arms)
    ]
    if not metrics:
        return empty(title, "no metric has any match behind it")
    labels = {m["metric"]: m["label"].split(" (")[0] for m in arms[0]["metrics"]}
    figure = make_subplots(
        rows=len(metrics),
        cols=1,
        vertical_spacing=0.5 / len(metrics),
        subplot_titles=[text(labels[m]) for m in metrics],
    )
    for number, arm in enumerate(arms, start=1):
        for row, metric in enumerate(metrics, start=1):
            _dot(figure, arm, _metric(arm, metric), row, number)
    figure.update_layout(
        height=80 + PANEL_HEIGHT * len(metrics),
        title={"text": title, "x": 0.01},
        font={"color": INK},
        margin={"l": 90, "r": 20, "t": 60, "b": 30},
        showlegend=False,
    )
    figure.update_annotations(font_size=11)
    return figure


def _metric(arm: dict[str, Any], name: str) -> MetricRow:
    missing: MetricRow = {"n": 0, "estimate": None}  # no match behind it
    return next((m for m in arm["metrics"] if m["metric"] == name), missing)


def _dot(figure: go.Figure, arm: dict[str, Any], m: MetricRow, row: int, number: int) -> None:
    if not m["n"] or m["estimate"] is None:
        return
    low = m["low"] if m["low"] is not None else m["estimate"]
    high = m["high"] if m["high"] is not None else m["estimate"]
    figure.add_scatter(
        x=[m["estimate"]],
        y=[text(arm["name"])],
        mode="markers",
        row=row,
        col=1,
        marker={"size": 9, "color": seat_colour(number)},
        error_x={
            "type": "data",
            "array": [high - m["estimate"]],
            "arrayminus": [m["estimate"] - low],
            "color": seat_colour(number),
        },
        hovertemplate=(
            f"{text(arm['name'])}: %{{x:.3g}} (95% {m['interval']} interval "
            f"{low:.3g} to {high:.3g}), n={m['n']}<extra></extra>"
        ),
    )


def skill_trace(report: dict[str, Any] | None) -> go.Figure:
    title = "Skill trace"
    if not report or report.get("kind") != "skill":
        return empty(title, "a skill experiment draws its trace here", height=260)
    arms = [a for a in report["arms"] if a["head_to_head"]["decided"]]
    if not arms:
        return empty(title, "no decided match yet", height=260)
    budgets = [int(a["name"].split()[0].removeprefix("mcts-")) for a in arms]
    h = [a["head_to_head"] for a in arms]
    figure = base(
        title,
        subtitle="the stronger agent's win rate as its budget doubles; band: "
        "95% interval; dashed: fair",
    )
    ludii = report.get("skill_trace")  # None in a report stored before it was computed
    if ludii is not None:  # on a line of its own, as the Balance page's second lines
        figure.update_layout(
            title_subtitle_text=f"{figure.layout.title.subtitle.text}<br>"
            f"Ludii's skill trace {ludii:.2f} (0 to 1)",
            margin_t=(figure.layout.margin.t or 60) + 16,
        )
    figure.add_scatter(
        x=budgets + budgets[::-1],
        y=[x["high"] for x in h] + [x["low"] for x in h][::-1],
        fill="toself",
        mode="none",
        fillcolor="rgba(31,119,180,0.2)",
        hoverinfo="skip",
        showlegend=False,
    )
    figure.add_scatter(
        x=budgets,
        y=[x["rate"] for x in h],
        mode="lines+markers",
        name="stronger wins",
        customdata=[[x["decided"], x["draws"]] for x in h],
        hovertemplate=(
            "budget %{x}: %{y:.0%} of %{customdata[0]} decided "
            "(%{customdata[1]} drawn)<extra></extra>"
        ),
    )
    figure.add_hline(y=h[0]["fair"], line_dash="dash", line_color="#333")
    figure.update_xaxes(title="stronger agent's iterations per move", type="log", tickvals=budgets)
    figure.update_yaxes(title="stronger wins", tickformat=".0%", range=[0, 1])
    return figure


def head_to_head(report: dict[str, Any] | None) -> go.Figure:
    title = "Restricted against standard"
    if not report or report.get("kind") != "restriction":
        return empty(title, "a restriction experiment draws its result here", height=220)
    h = report["arms"][0]["head_to_head"]
    if not h["decided"]:
        return empty(title, "no decided match yet", height=220)
    figure = base(
        title,
        height=220,
        subtitle=f"win rate of {text(h['agent'])} among "
        f"{h['decided']} decided matches; dashed: fair",
    )
    figure.add_scatter(
        x=[h["rate"]],
        y=[text(report["arms"][0]["name"])],
        mode="markers",
        marker={"size": 11, "color": seat_colour(2)},
        error_x={
            "type": "data",
            "array": [h["high"] - h["rate"]],
            "arrayminus": [h["rate"] - h["low"]],
        },
        hovertemplate="%{x:.0%}<extra></extra>",
    )
    figure.add_vline(x=h["fair"], line_dash="dash", line_color="#333")
    figure.update_xaxes(range=[0, 1], tickformat=".0%")
    return figure
