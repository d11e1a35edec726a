"""The Match page's score figure: each seat's points by category at the chosen step."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .style import base, empty, seat_colour, text

CATEGORY_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                    "#b07aa1", "#9c755f")


def score_rows(seats: list[str], scores: list[dict]) -> pd.DataFrame:
    """The rules' `score()` (one entry per seat) as long rows: seat, player, category, points."""
    rows = [{"seat": number, "player": name, "category": category, "points": float(points)}
            for number, (name, entry) in enumerate(zip(seats, scores), start=1)
            for category, points in entry["categories"].items()]
    return pd.DataFrame(rows, columns=["seat", "player", "category", "points"])


def score_breakdown(rows: pd.DataFrame, totals: dict[int, float] | None = None,
                    title: str = "Score") -> go.Figure:
    """Horizontal stacked bars, one per seat, one segment per category; the seat's total (from
    `totals`, else the sum) written at the end of its bar, its name in its seat colour."""
    if rows.empty:
        return empty(title, "no score yet", height=220)
    seats = rows[["seat", "player"]].drop_duplicates().sort_values("seat", ascending=False)
    labels = {seat: f"{seat}. {text(player)}" for seat, player in zip(seats["seat"],
                                                                       seats["player"])}
    figure = base(title, height=120 + 45 * len(seats))
    for number, category in enumerate(rows["category"].drop_duplicates()):
        part = rows[rows["category"] == category].sort_values("seat", ascending=False)
        figure.add_bar(y=[labels[s] for s in part["seat"]], x=part["points"], orientation="h",
                       name=text(category), marker_color=CATEGORY_COLOURS[number % 8],
                       hovertemplate="%{y}: " + text(category) + " %{x:g}<extra></extra>")
    sums = rows.groupby("seat")["points"].sum()
    for seat in seats["seat"]:
        total = (totals or {}).get(seat, sums[seat])
        figure.add_annotation(y=labels[seat], x=max(sums[seat], 0), text=f"<b>{total:g}</b>",
                              xanchor="left", showarrow=False, xshift=6)
    figure.update_layout(barmode="relative", margin={"l": 10, "t": 50, "b": 40},
                         legend={"y": -0.3})
    figure.update_yaxes(automargin=True, tickfont={"size": 13})
    figure.update_xaxes(title="points")
    # Each name in its seat colour, as on the board.
    figure.update_yaxes(ticktext=[f"<span style='color:{seat_colour(s)}'>{labels[s]}</span>"
                                  for s in seats["seat"]],
                        tickvals=[labels[s] for s in seats["seat"]])
    return figure
