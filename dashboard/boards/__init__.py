"""One drawing per game: `draw(game, state, seats)` turns a position (the rules' `encode(state)`,
plain JSON) and the seat names into a plotly figure. Each game's module defines `draw(state,
seats)`; a game without one gets a figure that says so."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import empty


def draw(game: str, state: dict[str, Any], seats: Sequence[str]) -> go.Figure:
    try:
        module = importlib.import_module(f"{__name__}.{game.replace('-', '_')}")
    except ModuleNotFoundError:
        return empty("Board", f"no board drawing for {game} yet")
    return module.draw(state, list(seats))
