"""Each game's dashboard side, one module per game (`topitop.py`, ...; the game's plugin names
it): `draw(state, seats)` turns a position (the rules' `encode(state)`, plain JSON) and the seat
names into a plotly figure (the Match and Record pages' board), and `menu(rules, state, seat,
picks, names)` is the Record page's next question for the seat to move (the picker, built on
`dashboard/record/picking.py`).
A module may add `setup(players, picks)`, the Record page's setup questions where the table shows
more than the declared options (`setting.py` asks those by default). `drawing.py` holds what
the boards share. A game without a module gets a figure that says so.

Tapping the board (the Record page): `taps(state, question, picks, seats)` says where on the board
each answer to the picker's current question lies (a `drawing.Tap` per answer that has a place);
`draw(..., question, picks)` marks those legal answers, each tap giving the same pick as its
button; a module's `focus(state, question, picks)` may narrow the board's ranges to the part
the question is about (its targets then stand farther apart on a phone). Answers with no
place on the board (a card's identity, a yes or no) stay buttons only.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

import plotly.graph_objects as go

from tablelog.dashboard.figures.style import empty
from tablelog.dashboard.record.picking import Question
from tablelog.domain.games import PLUGINS
from tablelog.domain.plain import PlainMapping

from .drawing import TAP_SIZE, tappable


def module(game: str) -> ModuleType:
    """The game's dashboard module, as its plugin names it; ModuleNotFoundError for a game
    without one."""
    plugin = PLUGINS.get(game)
    if plugin is None:
        raise ModuleNotFoundError(f"no game {game!r}")
    return importlib.import_module(plugin.dashboard)


def draw(
    game: str,
    state: PlainMapping,
    seats: Sequence[str],
    question: Question | None = None,
    picks: Sequence[Sequence[object]] = (),
) -> go.Figure:
    """The board; with the Record page's `question` (and the answers `picks` so far), its legal
    answers marked for tapping."""
    try:
        found = module(game)
    except ModuleNotFoundError:
        return empty("Board", f"no board drawing for {game} yet")
    figure = found.draw(state, list(seats))
    if question is not None and hasattr(found, "taps"):
        taps = found.taps(state, question, picks, list(seats))
        tappable(figure, question, taps, len(picks), getattr(found, "TAP_SIZE", TAP_SIZE))
        ranges = found.focus(state, question, picks) if hasattr(found, "focus") else None
        if ranges is not None:  # the part of the board the question is about, larger
            figure.update_xaxes(range=ranges[0])
            figure.update_yaxes(range=ranges[1])
    return figure
