"""Every registered game is a whole plugin: one check per piece a game must provide
(docs/adding-a-game.md), failing with the names of the pieces a game lacks.

The pieces live on both sides of the layers: the rules package `tablelog.domain.games.<game>`
(engine, declaration, component extractor), its docs page and example match, and its dashboard
module `tablelog.dashboard.games.<game>` (board and picker).
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tablelog.domain.games import GAMES, GameRules
from tablelog.domain.games.base import Component
from tablelog.domain.games.declaring import GameInfo

from ..packaged import data_path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def module_name(game: str) -> str:
    return game.replace("-", "_")


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        return None


def finished_position(rules: GameRules, seed: int = 1) -> tuple[Any, list[tuple[int, Any]]]:
    """A random playout to its end (or the game's cap), with its (seat, move) pairs."""
    rng = random.Random(seed)
    options = rules.options({})
    players = rules.min_players
    state = rules.start(players, options, rules.deal(players, options, rng))
    moves: list[tuple[int, Any]] = []
    while rules.outcome(state) is None and len(moves) < (rules.playout_cap or 10_000):
        move = rules.random_move(state, rng)
        moves.append((rules.to_move(state)[0], move))
        state = rules.apply(state, move)
    return state, moves


def missing_pieces(game: str) -> list[str]:
    """The names of the pieces `game` lacks; empty for a whole plugin."""
    missing = []
    rules = GAMES.get(game)
    package = _import(f"tablelog.domain.games.{module_name(game)}")
    if rules is None or package is None or not hasattr(package, "__path__"):
        missing.append(f"rules package tablelog.domain.games.{module_name(game)} with RULES")
    elif inspect.isabstract(type(rules)):
        missing.append("rules methods: " + ", ".join(sorted(type(rules).__abstractmethods__)))
    declared = getattr(
        _import(f"tablelog.domain.games.{module_name(game)}.declaration"), "GAME_INFO", None
    )
    if not isinstance(declared, GameInfo) or declared.id != game:
        missing.append(
            f"declaration tablelog.domain.games.{module_name(game)}.declaration "
            "with GAME_INFO (metadata, options and move classes)"
        )
    if not (DOCS / "games" / f"{game}.md").is_file():
        missing.append(f"docs page docs/games/{game}.md")
    if not data_path("examples", f"{game}.json").is_file():
        missing.append(f"example match data/examples/{game}.json")
    side = _import(f"tablelog.dashboard.games.{module_name(game)}")
    for piece in ("draw", "menu"):
        if not callable(getattr(side, piece, None)):
            what = "board" if piece == "draw" else "picker"
            missing.append(f"{what}: tablelog.dashboard.games.{module_name(game)}.{piece}")
    return missing


@pytest.mark.parametrize("game", GAMES)
def test_a_registered_game_provides_every_piece(game):
    assert missing_pieces(game) == [], f"{game} lacks: {'; '.join(missing_pieces(game))}"


def test_an_unregistered_game_is_told_everything_it_lacks():
    lacking = missing_pieces("sixth-game")
    assert [line.split(" ")[0] for line in lacking] == [
        "rules",
        "declaration",
        "docs",
        "example",
        "board:",
        "picker:",
    ]


def test_a_registered_game_without_its_declaration_is_told_so(monkeypatch):
    real = _import
    monkeypatch.setattr(
        f"{__name__}._import", lambda name: None if name.endswith(".declaration") else real(name)
    )
    lacking = missing_pieces("topitop")
    assert len(lacking) == 1 and lacking[0].startswith(
        "declaration tablelog.domain.games.topitop.declaration with GAME_INFO"
    )


def test_an_engine_missing_a_rule_method_cannot_be_made():
    class Halfway(GameRules[Any]):  # every method but `components` and `render`
        id = name = version = "halfway"
        min_players = max_players = 2
        state_type = dict

        def start(self, seats, options, setup):
            return {}

        def apply(self, state, move):
            return state

        def legal_moves(self, state):
            return []

        def to_move(self, state):
            return (0,)

        def score(self, state):
            return []

        def outcome(self, state):
            return None

    with pytest.raises(TypeError, match=r"components.*render|render.*components"):
        Halfway()  # type: ignore[abstract]  # deliberately: the refusal is the point


@pytest.mark.parametrize("game", GAMES)
def test_component_extractor_gives_each_seat_rows_of_components(game):
    rules = GAMES[game]
    state, moves = finished_position(rules)
    scores = rules.score(state)
    rows = rules.components(state, scores, json.loads(json.dumps(moves)))
    assert len(rows) == len(scores)
    for seat_rows in rows:
        assert all(isinstance(row, Component) and row.number >= 0 for row in seat_rows)
