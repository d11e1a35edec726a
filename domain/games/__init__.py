"""The registry of games: every package of this one that defines `GAME` (a `plugin.Game`), and
every entry point of the group `tablelog.games` (a game in a distribution of its own).

Discovery (rather than a hand-kept list) lets each game live in its own package, its plugin
(`docs/adding-a-game.md`), registered once: `PLUGINS` holds the whole plugin, `GAMES` its
engine, `declarations()` its declaration.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

from ..quoting import quoted
from .base import (
    GameRules,
    IllegalMove,
    InvalidSetup,
    Outcome,
    RulesError,
    UnknownInformation,
)
from .declaring import GameInfo
from .plugin import ENTRY_POINTS, Game

__all__ = [
    "GAMES",
    "PLUGINS",
    "Game",
    "GameRules",
    "IllegalMove",
    "InvalidSetup",
    "Outcome",
    "RulesError",
    "UnknownInformation",
    "declarations",
    "get_game",
    "get_rules",
]


def _discover() -> dict[str, Game]:
    found: list[Game] = []
    for info in pkgutil.iter_modules(__path__):
        plugin = getattr(importlib.import_module(f"{__name__}.{info.name}"), "GAME", None)
        if isinstance(plugin, Game):
            found.append(plugin)
    for point in entry_points(group=ENTRY_POINTS):
        plugin = point.load()
        if not isinstance(plugin, Game):
            raise TypeError(f"entry point {point.name} ({point.value}) is not a Game plugin")
        found.append(plugin)
    ids = [plugin.id for plugin in found]
    twice = sorted({game for game in ids if ids.count(game) > 1})
    if twice:
        raise TypeError(f"games registered twice: {', '.join(twice)}")
    return {plugin.id: plugin for plugin in sorted(found, key=lambda plugin: plugin.id)}


PLUGINS: dict[str, Game] = _discover()
GAMES: dict[str, GameRules[Any]] = {game: plugin.rules for game, plugin in PLUGINS.items()}


def get_game(game: str) -> Game:
    """The plugin of `game`, or InvalidSetup naming the known games."""
    get_rules(game)
    return PLUGINS[game]


def get_rules(game: str) -> GameRules[Any]:
    try:
        return GAMES[game]
    except KeyError:
        raise InvalidSetup(
            f"unknown game {quoted(game)}; known games: {', '.join(GAMES)}"
        ) from None


def declarations() -> dict[str, GameInfo]:
    """Each registered game's declaration (metadata, options and move classes), by game id."""
    return {game: plugin.declaration for game, plugin in PLUGINS.items()}
