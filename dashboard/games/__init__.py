"""Each game's dashboard side, one module per game (`topitop.py`, ...): `draw(state, seats)`
turns a position (the rules' `encode(state)`, plain JSON) and the seat names into a plotly figure
(the Match and Record pages' board), and `menu(rules, state, seat, picks, names)` is the Record
page's next question for the seat to move (the picker, built on `dashboard/record/picking.py`).
`drawing.py` holds what the boards share. A game without a module gets a figure that says so.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import empty


def module(game: str) -> ModuleType:
    """The game's dashboard module; ModuleNotFoundError for a game without one."""
    return importlib.import_module(f"{__name__}.{game.replace('-', '_')}")


def draw(game: str, state: dict[str, Any], seats: Sequence[str]) -> go.Figure:
    try:
        found = module(game)
    except ModuleNotFoundError:
        return empty("Board", f"no board drawing for {game} yet")
    return found.draw(state, list(seats))
