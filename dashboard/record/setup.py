"""Starting a match by tapping: the game's options (variants) and the setup the table can see,
as questions like the move pickers'. `menu(game, players, picks)` is the next question or
`Ready({"options": ..., "setup": ...})`: the game's board module's `setup(players, picks)`
where it has one, else the questions its declared options give (`dashboard/games/setting.py`).
The engine's `start` judges the result when the match is started (a refusal names the rule)."""

from __future__ import annotations

from tablelog.dashboard.games import module
from tablelog.dashboard.games.setting import declared_setup
from tablelog.domain.games import get_game

from .picking import Picks, Step


def menu(game: str, players: int, picks: Picks) -> Step:
    own = getattr(module(game), "setup", None)
    if own is not None:
        return own(players, picks)
    return declared_setup(get_game(game).declaration, picks)
