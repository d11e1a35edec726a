"""The Players page's figure: ratings over the matches each player played."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from .style import base, empty, text

PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)


MARKERS_UP_TO = 60  # rated matches: past this, the markers hide the line


def ratings(ratings: pd.DataFrame, players: Sequence[str]) -> go.Figure:
    """One line per chosen player: the conservative rating (mu - 3 sigma) after each of their
    rated matches; hovering shows mu and sigma too. `ratings` is the projection table."""
    title = "Ratings over time"
    chosen = ratings[ratings["player"].isin(list(players))]
    if chosen.empty:
        return empty(title, "choose players to compare")
    figure = base(title, height=400, subtitle="after each match; openskill, mu - 3 sigma")
    # One look for every line: markers while the longest line is short enough to show them.
    longest = int(chosen["player"].value_counts().max())
    mode = "lines+markers" if longest < MARKERS_UP_TO else "lines"
    for number, player in enumerate(players):
        rows = chosen[chosen["player"] == player].sort_values("after_match")
        if rows.empty:
            continue
        figure.add_scatter(
            x=rows["after_match"],
            y=rows["ordinal"],
            mode=mode,
            name=text(player),
            line={"color": PALETTE[number % len(PALETTE)]},
            customdata=rows[["mu", "sigma"]].to_numpy(),
            hovertemplate=(
                text(player) + " after match %{x}: %{y:.2f}<br>mu %{customdata[0]:.2f}"
                ", sigma %{customdata[1]:.2f}<extra></extra>"
            ),
        )
    figure.update_xaxes(title="rated matches played")
    figure.update_yaxes(title="rating")
    return figure
