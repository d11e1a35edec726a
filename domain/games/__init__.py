"""The registry of rules engines: every module in this package that defines `RULES`.

Discovery (rather than a hand-kept list) lets each game live in its own package, its plugin
(`docs/adding-a-game.md`), and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil

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

__all__ = [
    "GAMES",
    "GameRules",
    "IllegalMove",
    "InvalidSetup",
    "Outcome",
    "RulesError",
    "UnknownInformation",
    "declarations",
    "get_rules",
]


def _discover() -> dict[str, GameRules]:
    found: dict[str, GameRules] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        rules = getattr(module, "RULES", None)
        if isinstance(rules, GameRules):
            found[rules.id] = rules
    return dict(sorted(found.items()))


GAMES: dict[str, GameRules] = _discover()


def get_rules(game: str) -> GameRules:
    try:
        return GAMES[game]
    except KeyError:
        raise InvalidSetup(
            f"unknown game {quoted(game)}; known games: {', '.join(GAMES)}"
        ) from None


def declarations() -> dict[str, GameInfo]:
    """Each registered game's declaration (`<game>/declaration.py`: metadata, options and move
    classes), by game id."""
    return {
        game: importlib.import_module(f"{__name__}.{game.replace('-', '_')}.declaration").GAME_INFO
        for game in GAMES
    }
