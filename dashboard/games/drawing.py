"""What the board drawings share: a figure with equal axes and nothing but the board, and the
Record page's tap targets: the answers to the question being asked, marked on the board."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import FONT, INK
from tablelog.dashboard.record.picking import Question
from tablelog.domain.plain import PlainValue


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


# ---- tapping the board: the Record page's question answered on the drawing ---------------------

TAP_TRACE = "tap"  # the trace of tap targets (the page reads a tap's pick off its customdata)
NOT_A_TARGET = "tap-not"  # the unseen trace of places the question does not offer
TAP_FILL, TAP_RING = "rgba(230, 85, 13, 0.16)", "#e6550d"  # unlike any piece or seat colour
TAP_SIZE = 46  # px: a fingertip's target is 44x44 CSS px at the least (WCAG 2.5.5), whatever
# the board's scale; a board spaces its targets so that no two overlap on a phone (390 px)


@dataclasses.dataclass(frozen=True)
class Tap:
    """A place on the board (in board units) that answers the question being asked with
    `value`, the same pick its button gives."""

    value: PlainValue  # the pick, as its button gives it
    x: float
    y: float
    mark: str = ""  # drawn inside the target: what a tap there means (Topiary's ↘)
    size: int = 0  # px across, when larger than the board's (a whole garden); 0: the board's


def tappable(
    figure: go.Figure,
    question: Question,
    taps: Iterable[Tap],
    answered: int,
    size: int = TAP_SIZE,
) -> go.Figure:
    """Put the question's legal answers on the board: a highlighted marker per tap target whose
    value the question offers, carrying the pick as JSON with the number of answers given when
    it was drawn, so a tap on a board drawn for an earlier question is known as stale. A place
    the game names that the question does not offer (a cell that holds a pile) is drawn too,
    unseen (trace `tap-not`), so a tap there is answered with why it is not legal. Plotly
    shapes take no clicks; scatter markers do."""
    labels = {json.dumps(option.value): option.label for option in question.options}
    taps = list(taps)
    shown = [tap for tap in taps if json.dumps(tap.value) in labels]
    others = [tap for tap in taps if json.dumps(tap.value) not in labels]
    if not shown and not others:
        return figure
    # While a question is asked only its answers answer the pointer: a drawing's own hover
    # (GeoShapes names its slots) would otherwise take a tap on a target beside it. Plotly
    # reads no hoverinfo from a trace with a hovertemplate, so that goes too.
    figure.update_traces(hoverinfo="skip", hovertemplate=None)
    if others:
        figure.add_scatter(
            x=[tap.x for tap in others],
            y=[tap.y for tap in others],
            mode="markers",
            name=NOT_A_TARGET,
            marker={"size": size, "color": "rgba(0, 0, 0, 0)"},
            customdata=[json.dumps([question.key, tap.value, answered]) for tap in others],
            hoverinfo="skip",
        )
    if shown:
        marks = [tap.mark for tap in shown]
        sizes = [tap.size or size for tap in shown]
        figure.add_scatter(
            x=[tap.x for tap in shown],
            y=[tap.y for tap in shown],
            mode="markers+text" if any(marks) else "markers",
            text=marks if any(marks) else None,
            textfont={"size": 24, "color": TAP_RING},
            name=TAP_TRACE,
            marker={
                "size": sizes if len(set(sizes)) > 1 or sizes[0] != size else size,
                "color": TAP_FILL,
                "line": {"color": TAP_RING, "width": 3},
            },
            customdata=[json.dumps([question.key, tap.value, answered]) for tap in shown],
            hovertext=[labels[json.dumps(tap.value)] for tap in shown],
            hovertemplate="%{hovertext}<extra></extra>",
        )
    _reach(figure, "xaxis", [tap.x for tap in shown])
    _reach(figure, "yaxis", [tap.y for tap in shown])
    figure.update_layout(hovermode="closest", clickmode="event")
    return figure


def _reach(figure: go.Figure, axis: str, values: list[float]) -> None:
    """Widen a board's range to take in every tap target (a Topas cell beside the cards)."""
    shown = figure.layout[axis].range
    if shown is None:
        return
    low, high = min(shown), max(shown)
    low, high = min([low, *(v - 0.5 for v in values)]), max([high, *(v + 0.5 for v in values)])
    figure.layout[axis].range = [low, high] if shown[0] <= shown[1] else [high, low]


def has_taps(figure: go.Figure) -> bool:
    return any(trace.name == TAP_TRACE for trace in figure.data)


def tapped_pick(click: Any) -> tuple[str, Any, int] | None:
    """The pick a tap on the board gave, with the number of answers the board was drawn for;
    None when the tap hit no tap target."""
    for point in (click or {}).get("points", []):
        data = point.get("customdata")
        if isinstance(data, str):
            try:
                key, value, answered = json.loads(data)
            except (ValueError, TypeError):
                return None
            return key, value, answered
    return None
