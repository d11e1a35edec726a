"""Entering a match at the table by tapping (the Record page's logic, without the page).

`menu(game, rules, state, seat, picks, names)` is the next question for the seat to move (or
the finished move), read off the engine's legal moves by the game's picker (its module in
`tablelog.dashboard.games`, beside its board);
`build(...)` is the move a complete set of picks names. `setup` holds the questions that start a
match. All of it is pure: no Dash, no store.
"""

from __future__ import annotations

from types import ModuleType
from typing import TypeVar

from tablelog.dashboard import games
from tablelog.domain.games import GameRules

from .picking import Move, Option, Picks, Question, Ready, StalePicks, Step

S = TypeVar("S")  # the engine's state

__all__ = ["Option", "Question", "Ready", "StalePicks", "Step", "build", "menu", "refusal"]


def picker(game: str) -> ModuleType:
    return games.module(game)


def menu(
    game: str,
    rules: GameRules[S],
    state: S,
    seat: int,
    picks: Picks,
    names: list[str] | None = None,
) -> Step:
    return picker(game).menu(rules, state, seat, picks, names)


def build(game: str, rules: GameRules[S], state: S, seat: int, picks: Picks) -> Move:
    """The move the picks name, or StalePicks when they do not name a whole move."""
    step = menu(game, rules, state, seat, picks)
    if not isinstance(step, Ready):
        raise StalePicks(f"the move is not complete: {step.prompt}")
    return step.move


def refusal(
    game: str, rules: GameRules[S], state: S, seat: int, picks: Picks, key: str, value: object
) -> str:
    """Why the pick [key, value] is not legal after `picks`: the engine's own refusal where the
    game's picker can name the move it would make (`refusal` in its module), else that the
    question does not take that answer now."""
    judge = getattr(picker(game), "refusal", None)
    said = judge(rules, state, seat, picks, key, value) if judge is not None else None
    return said or f"{value} is not a legal answer to this question now"
