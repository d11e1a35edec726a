"""Every board drawing is a figure plotly accepts in full, in the house template.

`Sketch.onto` builds a board without plotly's per-shape validation (it is most of the time of a
new step on the Match page), so this is where a misspelt shape or label property is caught:
each game's board, at several positions of a seeded match, is rebuilt with validation on. Its
traces are ones the pages' plotly.js bundle draws (dashboard/assets/README.md)."""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from tablelog.dashboard import games as boards
from tablelog.dashboard.figures.style import base
from tablelog.dashboard.games.drawing import Sketch, board_figure, rect
from tablelog.domain.games import GAMES
from tablelog.simulation import make_plan, play_match

from .test_plotly_bundle import BUNDLE, traces_in

PAGE_TRACES = traces_in(BUNDLE)  # the part of plotly.js the pages load


def validated(figure: go.Figure) -> go.Figure:
    """The figure rebuilt with plotly's full check (ValueError on any invalid property)."""
    return go.Figure(figure.to_plotly_json())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_drawn_position_passes_plotlys_full_check(game):
    match = play_match(make_plan(game, 1, 5), 0)
    for state in match.states[:: max(1, len(match.states) // 6)]:
        figure = boards.draw(game, match.rules.encode(state), match.seats)
        again = validated(figure)
        assert again.layout.shapes == figure.layout.shapes
        assert len(figure.layout.shapes) + len(figure.layout.annotations) > 0
        assert {trace.type for trace in figure.data} <= PAGE_TRACES


def test_the_full_check_catches_a_misspelt_shape_property():
    sketch = Sketch()
    rect(sketch, "cell a1", 0, 0, 1, 1, "white")
    sketch.shapes[0]["fillcolour"] = "red"  # British spelling: not a plotly property
    figure = sketch.onto(board_figure("t", (0, 1), (0, 1)))
    with pytest.raises(ValueError, match="fillcolour"):
        validated(figure)


def test_boards_and_charts_are_drawn_in_the_house_template():
    white = pio.templates["plotly_white"].layout.plot_bgcolor
    for figure in (board_figure("t", (0, 1), (0, 1)), base("t")):
        assert figure.layout.template.layout.plot_bgcolor == white
        assert figure.layout.template.layout.xaxis.gridcolor == (
            pio.templates["plotly_white"].layout.xaxis.gridcolor
        )
