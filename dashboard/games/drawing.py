"""What the board drawings share: a figure with equal axes and nothing but the board."""

from __future__ import annotations

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import FONT, INK


def board_figure(
    title: str, x: tuple[float, float], y: tuple[float, float], height: int = 460
) -> go.Figure:
    """An empty board: x and y in board units (one unit per cell), equal scale, no axes, so the
    drawing keeps its shape on a phone as on a wide screen."""
    figure = go.Figure()
    figure.update_layout(
        title={"text": title, "x": 0.01, "xanchor": "left", "font": {"size": 15}},
        height=height,
        font={"family": FONT, "color": INK},
        margin={"l": 8, "r": 8, "t": 50, "b": 8},
        showlegend=False,
        plot_bgcolor="white",
        dragmode=False,
    )
    figure.update_xaxes(range=list(x), visible=False, fixedrange=True)
    figure.update_yaxes(
        range=list(y), visible=False, fixedrange=True, scaleanchor="x", scaleratio=1
    )
    return figure


class Sketch:
    """Shapes and labels gathered first and set on the figure at once: plotly checks its whole
    shape list on every `add_shape`, which makes a board of a hundred pieces take a second.

    Even one `update_layout(shapes=...)` validates every shape (about 40 ms for Topiary's 50,
    most of a new step on the Match page), so the figure is rebuilt from its plain form without
    that check: the shapes are this module's own literal dicts, and
    tests/dashboard/test_board_validity.py puts every game's drawing through plotly's full check
    instead."""

    def __init__(self) -> None:
        self.shapes: list[dict] = []
        self.annotations: list[dict] = []

    def onto(self, figure: go.Figure) -> go.Figure:
        whole = figure.to_plotly_json()
        layout = dict(whole["layout"], shapes=self.shapes, annotations=self.annotations)
        return go.Figure({"data": whole["data"], "layout": layout}, _validate=False)


def rect(
    sketch: Sketch,
    name: str,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    fill: str,
    line: str = "#555",
    width: float = 1,
    dash: str = "solid",
) -> None:
    """A named rectangle (tests and the browser find pieces by their shape names)."""
    sketch.shapes.append(
        {
            "type": "rect",
            "name": name,
            "x0": x0,
            "y0": y0,
            "x1": x1,
            "y1": y1,
            "fillcolor": fill,
            "layer": "below",
            "line": {"color": line, "width": width, "dash": dash},
        }
    )


def label(
    sketch: Sketch, x: float, y: float, words: str, size: int = 11, colour: str = INK, **extra
) -> None:
    sketch.annotations.append(
        {
            "x": x,
            "y": y,
            "text": words,
            "showarrow": False,
            "font": {"size": size, "color": colour},
            **extra,
        }
    )
