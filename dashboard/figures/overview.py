"""The Overview page's figure: how many matches each game has, by status."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .style import STATUS_COLOURS, base, empty

STATUSES = ("ended", "running", "disputed", "abandoned")


def matches_by_game(counts: pd.DataFrame) -> go.Figure:
    """Stacked bars: matches per game, one colour per status, the game's total on top. `counts`
    has a row per game and status with its number of matches, n (`dashboard.data.counts`)."""
    title = "Matches by game"
    if counts.empty or not counts["n"].sum():
        return empty(title, "no matches recorded yet")
    counts = counts.pivot_table(
        index="game", columns="status", values="n", aggfunc="sum", fill_value=0
    )
    counts = counts.loc[counts.sum(axis=1).sort_values(ascending=False).index]
    # No legend: the status cards above the figure wear the same colours, and a legend under
    # the game names met them once they turned to fit a phone.
    figure = base(title, height=340, subtitle="coloured by status, as the counts above")
    for status in STATUSES:
        if status in counts.columns:
            figure.add_bar(
                x=list(counts.index),
                y=counts[status],
                name=status,
                marker_color=STATUS_COLOURS[status],
                hovertemplate="%{x}: %{y} " + status + "<extra></extra>",
            )
    totals = counts.sum(axis=1)
    figure.add_scatter(
        x=list(totals.index),
        y=totals,
        mode="text",
        text=[f"{t:,}" for t in totals],
        textposition="top center",
        showlegend=False,
        hoverinfo="skip",
        cliponaxis=False,  # the tallest bar's total sits above the plot's top edge
    )
    figure.update_layout(barmode="stack", showlegend=False)
    figure.update_yaxes(title="matches", rangemode="tozero")
    return figure
