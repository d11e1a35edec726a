"""The Balance page's figures, each drawn from a frame of `projections.stats` for ONE game, player
count and variant (the page's filters): seat win rates, points per category, component
strength, match length. Every figure shows its n; a sample under `stats.SMALL_SAMPLE` is grey."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from tablelog.projections.stats import SMALL_SAMPLE, describe_counts

from .style import GREY, REST, WINNERS, base, empty, seat_colour, text

SUBTITLE_LINE = 20  # px a subtitle's further line takes (12 px text; less meets the top tick)
SMALL_NOTE = f"grey: fewer than {SMALL_SAMPLE} matches, read with care"


def seat_win_rates(rates: pd.DataFrame, tests: pd.DataFrame | None = None) -> go.Figure:
    """Bars of each seat's win rate with its 95% interval and n; the fair rate as a dashed line;
    under the title, the one test of all seats together ("is any seat favoured?").

    `rates` is `stats.seat_win_rates(...)` for one player count and variant, `tests` its
    `stats.seat_tests(...)`."""
    title = "Win rate by seat"
    if rates.empty:
        return empty(title, "no finished matches with more than one player")
    rates = rates.sort_values("seat")
    fair = float(rates["fair"].iloc[0])
    figure = base(title, subtitle=f"95% interval; dashed: the fair rate, {fair:.1%}")
    if tests is not None and not tests.empty:  # a second subtitle line, as `_small_note`'s
        figure.update_layout(
            title_subtitle_text=f"{figure.layout.title.subtitle.text}<br>{favoured(tests.iloc[0])}",
            margin_t=(figure.layout.margin.t or 60) + SUBTITLE_LINE,
        )
    colours = [
        GREY if small else seat_colour(seat) for seat, small in zip(rates["seat"], rates["small"])
    ]
    figure.add_bar(
        x=[f"Seat {s}" for s in rates["seat"]],
        y=rates["rate"],
        marker_color=colours,
        error_y={
            "type": "data",
            "array": rates["ci_high"] - rates["rate"],
            "arrayminus": rates["rate"] - rates["ci_low"],
            "color": "#555",
        },
        text=[f"n={n}" for n in rates["matches"]],
        textposition="inside",
        insidetextanchor="start",
        customdata=rates[["wins", "matches", "ci_low", "ci_high", "p_value"]].to_numpy(),
        hovertemplate=(
            "%{x}: %{customdata[0]} wins of %{customdata[1]} = %{y:.1%}<br>"
            "95% interval %{customdata[2]:.1%} to %{customdata[3]:.1%}<br>"
            "binomial test against fair: p = %{customdata[4]:.3f}<extra></extra>"
        ),
        name="win rate",
        showlegend=False,
    )
    figure.add_hline(y=fair, line_dash="dash", line_color="#333")
    figure.update_yaxes(title="matches won", tickformat=".0%", rangemode="tozero")
    _small_note(figure, bool(rates["small"].any()))
    return figure


def favoured(test: pd.Series) -> str:
    """The all-seats test in words short enough for a phone: "Any seat favoured? p = 0.310
    (chi-square, 2 df)"."""
    if pd.isna(test["p_value"]):
        return "Any seat favoured? No win yet to tell"
    how = f"chi-square, {test['df']} df" if test["method"] == "chi-square" else "exact, few wins"
    return f"Any seat favoured? p = {test['p_value']:.3f} ({how})"


def score_distributions(distributions: pd.DataFrame) -> go.Figure:
    """Box per scoring category: the winners' points beside the rest's (min, quartiles, max,
    mean), from `stats.score_distributions(...)` for one player count and variant."""
    title = "Points per scoring category"
    if distributions.empty:
        return empty(title, "no scored matches")
    order = [c for c in distributions["category"].drop_duplicates() if c != "total"]
    order += ["total"] if (distributions["category"] == "total").any() else []
    figure = base(title, height=420, subtitle="winners beside the rest; dashed: mean")
    for who, colour in (("winners", WINNERS), ("rest", REST)):
        rows = distributions[distributions["seats"] == who].set_index("category")
        rows = rows.reindex([c for c in order if c in rows.index])
        if rows.empty:
            continue
        n = int(rows["n"].max())
        small = n < SMALL_SAMPLE
        figure.add_trace(
            go.Box(
                x=[text(c) for c in rows.index],
                q1=rows["q25"],
                median=rows["median"],
                q3=rows["q75"],
                lowerfence=rows["min"],
                upperfence=rows["max"],
                mean=rows["mean"],
                name=f"{who} (n={n}{', small' if small else ''})",
                offsetgroup=who,
                marker_color=GREY if small else colour,
                line_color=GREY if small else colour,
                fillcolor=_faint(GREY if small else colour),
            )
        )
    figure.update_layout(boxmode="group")
    figure.update_yaxes(title="points")
    _small_note(figure, bool(distributions["small"].any()))
    return figure


def component_strength(strength: pd.DataFrame, fair: float | None = None) -> go.Figure:
    """Per component (grouped by kind): the win rate of the seats that had it, with its interval
    and n, from `stats.component_strength(...)`; `fair` draws the rate of an average seat."""
    title = "Component strength"
    if strength.empty:
        return empty(title, "this game records no component kinds")
    rows = strength[strength["seats"] > 0].sort_values(["kind", "win_rate"])
    if rows.empty:
        return empty(title, "no component was played in these matches")
    # n beside the name, not on the bar, where the error bar would draw over it.
    labels = [
        f"{text(c)} ({text(k)}) n={n}"
        for k, c, n in zip(rows["kind"], rows["component"], rows["seats"])
    ]
    figure = base(
        title,
        height=max(320, 70 + 26 * len(rows)),
        subtitle="win rate of the seats that had it; dashed: an average seat",
    )
    figure.add_bar(
        y=labels,
        x=rows["win_rate"],
        orientation="h",
        marker_color=[GREY if s else "#3b7dd8" for s in rows["small"]],
        error_x={
            "type": "data",
            "array": rows["ci_high"] - rows["win_rate"],
            "arrayminus": rows["win_rate"] - rows["ci_low"],
            "color": "#555",
        },
        customdata=rows[["wins", "seats", "mean_count", "mean_points"]].to_numpy(),
        hovertemplate=(
            "%{y}: %{customdata[0]} wins of %{customdata[1]} seats = %{x:.1%}<br>"
            "mean count %{customdata[2]:.2f}, mean points %{customdata[3]:.1f}"
            "<extra></extra>"
        ),
        showlegend=False,
    )
    if fair is not None:
        figure.add_vline(x=fair, line_dash="dash", line_color="#333")
    # The axis says "win rate" only (the subtitle says whose): a longer title ran past a phone's
    # narrow plot.
    figure.update_xaxes(title="win rate", tickformat=".0%", rangemode="tozero")
    figure.update_layout(margin={"l": 10})
    figure.update_yaxes(automargin=True)
    _small_note(figure, bool(rows["small"].any()))
    return figure


MAX_BARS = 40  # past this many move counts, neighbouring counts share a bar


def match_length(lengths: pd.DataFrame) -> go.Figure:
    """Bars of how many counted matches (ended, no open dispute) had each number of effective
    moves, from `stats.length_tallies(...)` (moves, matches) for one player count and variant.

    Lengths are whole numbers: one bar per number of moves, or, over a wide range, one bar per
    run of neighbouring numbers (at most MAX_BARS bars, so that none is a 1-pixel sliver); a
    game whose matches are always as long says so instead of drawing one block."""
    title = "Match length"
    lengths = lengths[lengths["matches"] > 0].sort_values("moves")
    if lengths.empty:
        return empty(title, "no finished matches")
    spread = describe_counts(lengths["moves"], lengths["matches"])
    n, small = spread["n"], spread["small"]
    if lengths["moves"].nunique() == 1:
        moves = int(lengths["moves"].iloc[0])
        return empty(title, f"always {moves} moves ({n:,} matches)")
    bars = length_bars(lengths)
    figure = base(title, subtitle=f"median {spread['median']:g} moves (n={n})")
    figure.add_bar(
        x=bars["middle"],
        y=bars["matches"],
        width=bars["width"],
        marker_color=GREY if small else "#3b7dd8",
        marker_line={"width": 1, "color": "#fff"},
        customdata=bars["label"],
        hovertemplate="%{customdata}: %{y} matches<extra></extra>",
        showlegend=False,
    )
    span = int(bars["last"].max() - bars["first"].min()) + 1
    figure.update_xaxes(title="moves per match", dtick=1 if span <= 12 else None)
    figure.update_yaxes(title="matches")
    _small_note(figure, small)
    return figure


def length_bars(lengths: pd.DataFrame) -> pd.DataFrame:
    """The bars of `match_length`: per run of `width` neighbouring move counts (1 when the
    range is at most MAX_BARS wide): first, last, middle, width, matches and a label."""
    low, high = int(lengths["moves"].min()), int(lengths["moves"].max())
    width = max(1, -(-(high - low + 1) // MAX_BARS))  # ceiling division
    first = low + (lengths["moves"].astype(int) - low) // width * width
    bars = lengths.groupby(first.rename("first"))["matches"].sum().reset_index()
    bars["last"] = bars["first"] + width - 1
    bars["middle"] = bars["first"] + (width - 1) / 2
    bars["width"] = width
    bars["label"] = [
        f"{a} moves" if width == 1 else f"{a}-{b} moves"
        for a, b in zip(bars["first"], bars["last"])
    ]
    return bars


def _faint(colour: str) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},0.25)"


def _small_note(figure: go.Figure, small: bool) -> None:
    """The small-sample warning as a second subtitle line: inside the title block, it never
    meets the mode bar or the title, whatever the screen's width."""
    if small:
        subtitle = figure.layout.title.subtitle.text or ""
        figure.update_layout(
            title_subtitle_text=f"{subtitle}<br>{SMALL_NOTE}" if subtitle else SMALL_NOTE,
            margin_t=(figure.layout.margin.t or 60) + SUBTITLE_LINE,
        )
