"""The Match page's score figure: each seat's points by category at the chosen step."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .style import base, empty, seat_colour, text

CATEGORY_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#9c755f",
)


LEGEND_ROW = 20  # px a legend entry takes in a list
AT_THE_END = {"xanchor": "left", "showarrow": False, "xshift": 6}
SHEET_ROW = 26  # px a row of a solitaire sheet takes
SHEET_TEXT = {"showarrow": False, "font": {"size": 13}, "xref": "x", "yref": "y"}
HEADER = {"fillcolor": "#eef3fa", "line": {"width": 0}, "layer": "below"}
RULE = {"line": {"width": 1, "color": "#dde3ea"}, "layer": "below"}


def score_rows(seats: list[str], scores: list[dict]) -> pd.DataFrame:
    """The rules' `score()` (one entry per seat) as long rows: seat, player, category, points."""
    rows = [
        {"seat": number, "player": name, "category": category, "points": float(points)}
        for number, (name, entry) in enumerate(zip(seats, scores), start=1)
        for category, points in entry["categories"].items()
    ]
    return pd.DataFrame(rows, columns=["seat", "player", "category", "points"])


def _totals_at_the_end(
    figure: go.Figure,
    seats: pd.Series,
    labels: dict[int, str],
    sums: pd.Series,
    totals: dict[int, float],
) -> None:
    """Each seat's total written at the end of its bar."""
    for seat in seats:
        total = totals.get(seat, sums[seat])
        figure.add_annotation(
            y=labels[seat], x=max(sums[seat], 0), text=f"<b>{total:g}</b>", **AT_THE_END
        )


def score_breakdown(
    rows: pd.DataFrame, totals: dict[int, float] | None = None, title: str = "Score"
) -> go.Figure:
    """Horizontal stacked bars, one per seat, one segment per category; the seat's total (from
    `totals`, else the sum) written at the end of its bar, its name in its seat colour."""
    if rows.empty:
        return empty(title, "no score yet", height=220)
    if rows["seat"].nunique() == 1:  # a solitaire game: its score sheet, not one lone bar
        return solo_sheet(rows, totals, title)
    whole = not adds_up(rows, totals)
    if whole:  # the categories are not parts of the score (solitaire Topas): see whole_scores
        rows = whole_scores(rows, totals or {})
    sums = rows.groupby("seat")["points"].sum()
    seats = rows[["seat", "player"]].drop_duplicates().sort_values("seat", ascending=False)
    labels = {
        seat: f"{seat}. {text(player)}" for seat, player in zip(seats["seat"], seats["player"])
    }
    categories = rows["category"].nunique()
    figure = base(
        title,
        height=120 + 45 * len(seats) + LEGEND_ROW * categories,
        subtitle="the parts do not add up to the score: hover for them" if whole else "",
    )
    for number, category in enumerate(rows["category"].drop_duplicates()):
        part = rows[rows["category"] == category].sort_values("seat", ascending=False)
        figure.add_bar(
            y=[labels[s] for s in part["seat"]],
            x=part["points"],
            orientation="h",
            name=text(category),
            marker_color=CATEGORY_COLOURS[number % 8],
            customdata=part["hover"] if whole else None,
            hovertemplate="%{y}: "
            + text(category)
            + " %{x:g}"
            + ("<br>%{customdata}" if whole else "")
            + "<extra></extra>",
        )
    _totals_at_the_end(figure, seats["seat"], labels, sums, totals or {})
    # The legend is a list at the foot of the figure, a row per category in a margin kept for
    # it under the axis title (placed as a share of the plot's height, it met "points" on a
    # short plot, and a phone wraps a legend in one line into rows nobody counted).
    figure.update_layout(
        barmode="relative",
        margin={"l": 10, "t": 70 if whole else 50, "b": 50 + LEGEND_ROW * categories},
        legend={"orientation": "v", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0},
    )
    figure.update_xaxes(title="points")
    # Each name in its seat colour, as on the board.
    figure.update_yaxes(
        automargin=True,
        tickfont={"size": 13},
        ticktext=[
            f"<span style='color:{seat_colour(s)}'>{labels[s]}</span>" for s in seats["seat"]
        ],
        tickvals=[labels[s] for s in seats["seat"]],
    )
    return figure


def solo_sheet(rows: pd.DataFrame, totals: dict[int, float] | None, title: str) -> go.Figure:
    """One player's score as a solitaire game's sheet: each category's points in a row (Topas:
    each column, each colour), the score last in bold. A lone bar drawn at the usual score of a
    game under way (0, the lowest column not yet played) looked like nothing at all. The sheet
    is written on a blank plot, a row a line: plotly's table trace is not in the part of
    plotly.js the pages load (dashboard/assets/README.md)."""
    seat = int(rows["seat"].iloc[0])
    total = (totals or {}).get(seat, float(rows["points"].sum()))
    names = ["", *(text(c) for c in rows["category"]), "<b>score</b>"]
    points = ["points", *(f"{p:g}" for p in rows["points"]), f"<b>{total:g}</b>"]
    figure = base(title, height=110 + SHEET_ROW * len(names), subtitle=text(rows["player"].iloc[0]))
    figure.add_shape(type="rect", xref="paper", x0=0, x1=1, y0=-0.5, y1=0.5, **HEADER)
    for row, (name, point) in enumerate(zip(names, points)):
        figure.add_annotation(x=0, y=row, text=name, xanchor="left", **SHEET_TEXT)
        figure.add_annotation(x=1, y=row, text=point, xanchor="right", **SHEET_TEXT)
        figure.add_shape(type="line", xref="paper", x0=0, x1=1, y0=row + 0.5, y1=row + 0.5, **RULE)
    figure.update_xaxes(visible=False, range=[-0.02, 1.02], fixedrange=True)
    figure.update_yaxes(visible=False, range=[len(names) - 0.5, -0.5], fixedrange=True)
    figure.update_layout(margin={"l": 10, "r": 10, "t": 70, "b": 10}, plot_bgcolor="white")
    return figure


def adds_up(rows: pd.DataFrame, totals: dict[int, float] | None) -> bool:
    """Whether each seat's categories add up to its total (no totals: taken as the sums)."""
    sums = rows.groupby("seat")["points"].sum()
    return all(abs(sums.get(s, 0.0) - t) <= 1e-9 for s, t in (totals or {}).items())


def whole_scores(rows: pd.DataFrame, totals: dict[int, float]) -> pd.DataFrame:
    """One "score" row per seat, its points the rules' total, its categories as hover text.

    For categories that are not parts of the score: solitaire Topas scores its lowest column
    and lists each column and each colour, which stacked would add up to far more than the
    score (about 95 for a score of 4)."""
    out = []
    for _, part in rows.groupby("seat", sort=True):
        listed = ", ".join(f"{text(c)} {p:g}" for c, p in zip(part["category"], part["points"]))
        number = int(part["seat"].iloc[0])
        out.append(
            {
                "seat": number,
                "player": part["player"].iloc[0],
                "category": "score",
                "points": float(totals.get(number, part["points"].sum())),
                "hover": listed,
            }
        )
    return pd.DataFrame(out)


VALUE_LEVEL = {"win": 1, "draw": 0, "lose": -1}
FOR_THE_OTHER = {"win": "lose", "lose": "win", "draw": "draw"}


def value_rows(analysis: list[dict]) -> pd.DataFrame:
    """The solver's per-move analysis as Blue's value after each move (move 0: the start):
    move, value ('win', 'draw' or 'lose' for Blue), remoteness, player, blunder."""
    if not analysis:
        return pd.DataFrame(columns=["move", "value", "remoteness", "player", "blunder"])
    first = analysis[0]  # Blue moves first: the start is valued for Blue
    rows = [
        {
            "move": 0,
            "value": first["value_before"],
            "remoteness": first["remoteness_before"],
            "player": "",
            "blunder": False,
        }
    ]
    for row in analysis:
        blue_moved = row["seat"] == 0
        value = row["value_after"] if blue_moved else FOR_THE_OTHER[row["value_after"]]
        rows.append(
            {
                "move": row["index"] + 1,
                "value": value,
                "remoteness": row["remoteness_after"],
                "player": row.get("player", ""),
                "blunder": bool(row["blunder"]),
            }
        )
    return pd.DataFrame(rows)


def value_history(rows: pd.DataFrame, title: str = "Solved value for Blue") -> go.Figure:
    """A step line of Blue's value under best play after each move (1 win, 0 draw, -1 loss),
    remoteness in the hover, blunders marked with a cross in the blunderer's colour."""
    if rows.empty:
        return empty(title, "no moves yet", height=220)
    figure = base(title, height=240, subtitle="under best play from each position; ✕ a blunder")
    hover = [
        f"after move {m}: Blue {'draws' if v == 'draw' else v + 's'}"
        + (f" in {int(r)}" if pd.notna(r) else "")
        for m, v, r in zip(rows["move"], rows["value"], rows["remoteness"])
    ]
    figure.add_scatter(
        x=rows["move"],
        y=rows["value"].map(VALUE_LEVEL),
        mode="lines+markers",
        line_shape="hv",
        line_color=seat_colour(1),
        name="Blue's value",
        hovertext=hover,
        hoverinfo="text",
    )
    blunders = rows[rows["blunder"]]
    if not blunders.empty:
        figure.add_scatter(
            x=blunders["move"],
            y=blunders["value"].map(VALUE_LEVEL),
            mode="markers",
            marker={"symbol": "x", "size": 14, "color": "#d62728"},
            name="blunder",
            hovertext=[
                f"move {m}: {text(p)} blundered"
                for m, p in zip(blunders["move"], blunders["player"])
            ],
            hoverinfo="text",
        )
    figure.update_yaxes(
        tickvals=[-1, 0, 1], ticktext=["Red wins", "draw", "Blue wins"], range=[-1.4, 1.4]
    )
    figure.update_xaxes(title="move")
    figure.update_layout(showlegend=False, margin={"l": 10, "t": 50, "b": 40})
    return figure
