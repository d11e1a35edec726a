"""The look every figure shares: one colour per seat everywhere, grey for small samples, and the
escaping of any text a person typed (plotly reads `<b>`, `<a href>`... in labels as markup)."""

from __future__ import annotations

import html
import textwrap

import plotly.graph_objects as go
import plotly.io as pio

# Every figure is drawn in one template, set once as plotly's default rather than passed to each
# figure: `template=` makes plotly validate and deep-copy the whole template per figure (about
# 20 ms, most of a new Match page step), while the default is applied without that check.
pio.templates.default = "plotly_white"

# Seat 1 is blue and seat 2 red on every page (Topitop's buckets are Blue and Red, in seat order).
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
GREY = "#c4c4c4"  # a figure drawn from fewer than stats.SMALL_SAMPLE matches
INK = "#333333"
WINNERS, REST = "#e0a100", "#5b6770"
STATUS_COLOURS = {
    "ended": "#4c9a2a",
    "running": "#1f77b4",
    "disputed": "#e07b00",
    "abandoned": "#9e9e9e",
}
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"


def seat_colour(seat: int) -> str:
    """The colour of seat number `seat` (1 = first in turn order)."""
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


def text(value: object) -> str:
    """User text made safe for a plotly label: shown as typed, never read as markup."""
    return html.escape(str(value), quote=False)


def base(title: str, height: int = 380, subtitle: str = "") -> go.Figure:
    """An empty figure in the house style: a short title (it must fit a phone) and the
    details in a subtitle."""
    figure = go.Figure()
    figure.update_layout(
        title={
            "text": title,
            "x": 0.01,
            "xanchor": "left",
            "font": {"size": 16},
            "subtitle": {"text": subtitle, "font": {"size": 12, "color": "#666"}},
        },
        height=height,
        font={"family": FONT, "color": INK},
        margin={"l": 50, "r": 20, "t": 70 if subtitle else 60, "b": 50},
        legend={"orientation": "h", "y": -0.18, "x": 0},
    )
    return figure


def empty(title: str, message: str, height: int = 300) -> go.Figure:
    """A figure with nothing to draw says why, instead of showing empty axes (in short lines,
    which a phone's narrow figure keeps inside its edges)."""
    figure = base(title, height)
    figure.add_annotation(
        text="<br>".join(textwrap.wrap(message, 30)),
        x=0.5,
        y=0.5,
        xref="paper",
        yref="paper",
        showarrow=False,
        font={"size": 14, "color": "#777"},
    )
    figure.update_xaxes(visible=False)
    figure.update_yaxes(visible=False)
    return figure
