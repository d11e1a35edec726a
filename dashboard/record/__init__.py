"""Entering a match at the table by tapping (the Record page's logic, without the page).

`menu(game, rules, state, seat, picks, names)` is the next question for the seat to move (or
the finished move), read off the engine's legal moves by the game's picker (its module in
`tablelog.dashboard.games`, beside its board);
`build(...)` is the move a complete set of picks names. `setup` holds the questions that start a
match. All of it is pure: no Dash, no store.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from tablelog.dashboard import games

from .picking import Option, Picks, Question, Ready, StalePicks, Step

__all__ = ["Option", "Question", "Ready", "StalePicks", "Step", "build", "menu"]


def picker(game: str) -> ModuleType:
    return games.module(game)


def menu(
    game: str, rules: Any, state: Any, seat: int, picks: Picks, names: list[str] | None = None
) -> Step:
    return picker(game).menu(rules, state, seat, picks, names)


def build(game: str, rules: Any, state: Any, seat: int, picks: Picks) -> dict[str, Any]:
    """The move the picks name, or StalePicks when they do not name a whole move."""
    step = menu(game, rules, state, seat, picks)
    if not isinstance(step, Ready):
        raise StalePicks(f"the move is not complete: {step.prompt}")
    return step.move
