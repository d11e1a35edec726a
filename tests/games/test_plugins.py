"""Every registered game is a whole plugin: one `Game` object (`domain/games/plugin.py`) found
once by the registry, and one check per piece it carries (docs/adding-a-game.md), failing with
the names of the pieces a game lacks: engine, declaration, score sheet, restrictions, the
dashboard module of its board, picker and setup questions, its docs page and example match.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tablelog.dashboard.record import Question, Ready
from tablelog.dashboard.record import setup as setups
from tablelog.domain.games import GAMES, PLUGINS, GameRules
from tablelog.domain.games.base import Component
from tablelog.domain.games.declaring import GameInfo
from tablelog.domain.games.plugin import game as plugin_of
from tablelog.domain.games.restricting import Restriction
from tablelog.domain.games.sheeting import SheetRules
from tablelog.domain.games.topitop import GAME as TOPITOP

from ..packaged import data_path

DOCS = Path(__file__).resolve().parents[2] / "docs"


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
    plugin = PLUGINS.get(game)
    if plugin is None:
        return [f"plugin: GAME in tablelog.domain.games.<{game}> or a tablelog.games entry point"]
    missing = []
    if inspect.isabstract(type(plugin.rules)) or plugin.rules.id != game:
        missing.append("rules: a GameRules of " + game)
    declared = plugin.declaration
    if not isinstance(declared, GameInfo) or declared.id != game:
        missing.append("declaration: GAME_INFO (metadata, options and move classes)")
    if not isinstance(plugin.sheet, SheetRules) or plugin.sheet.game != game:
        missing.append("sheet: the score sheet's SheetRules")
    names = [r.name for r in plugin.restrictions if isinstance(r, Restriction)]
    if len(set(names)) != len(plugin.restrictions):
        missing.append("restrictions: Restriction objects, each named once")
    if not (plugin.docs or DOCS / "games" / f"{game}.md").is_file():
        missing.append(f"docs page docs/games/{game}.md")
    if not (plugin.example or data_path("examples", f"{game}.json")).is_file():
        missing.append(f"example match data/examples/{game}.json")
    side = _import(plugin.dashboard)
    for piece, what in (("draw", "board"), ("menu", "picker")):
        if not callable(getattr(side, piece, None)):
            missing.append(f"{what}: {plugin.dashboard}.{piece}")
    if not callable(getattr(side, "setup", setups.menu)):
        missing.append(f"setup questions: {plugin.dashboard}.setup is not a function")
    return missing


@pytest.mark.parametrize("game", GAMES)
def test_a_registered_game_provides_every_piece(game):
    assert missing_pieces(game) == [], f"{game} lacks: {'; '.join(missing_pieces(game))}"


def test_an_unregistered_game_is_told_it_is_not_registered():
    lacking = missing_pieces("sixth-game")
    assert len(lacking) == 1 and "tablelog.games entry point" in lacking[0]


def test_a_registered_game_without_its_pieces_is_told_each(monkeypatch):
    broken = dataclasses.replace(
        TOPITOP,
        declaration=None,  # type: ignore[arg-type]  # deliberately: the lack is the point
        sheet=None,  # type: ignore[arg-type]
        docs=Path("nowhere.md"),
        dashboard="tablelog.dashboard.games.nowhere",
    )
    monkeypatch.setitem(PLUGINS, "topitop", broken)
    assert [line.split(" ")[0] for line in missing_pieces("topitop")] == [
        "declaration:",
        "sheet:",
        "docs",
        "board:",
        "picker:",
    ]


def test_a_game_that_says_nothing_more_gets_its_sheet_and_setup_from_its_declaration(monkeypatch):
    bare = plugin_of(TOPITOP.rules, TOPITOP.declaration)
    assert bare.restrictions == ()  # no restrictions is a valid answer
    assert bare.sheet.categories({}, None, 2) == ("buckets on castles",)
    # the default sheet: any total, the highest wins
    assert bare.sheet.bounds({}, None, 2, won=False)[1] > 1000
    monkeypatch.setitem(PLUGINS, "topitop", bare)
    step = setups.menu("topitop", 2, [])
    assert isinstance(step, Question) and step.prompt == "How many small sand piles?"
    assert [o.label for o in step.options][3:6] == ["3", "4 (standard)", "5"]
    step = setups.menu("topitop", 2, [["small", 2]])
    assert isinstance(step, Question) and step.prompt == "How many large sand piles?"
    ready = setups.menu("topitop", 2, [["small", 2], ["large", 0]])
    assert ready == Ready({"options": {"small": 2, "large": 0}, "setup": {}})
    rules = TOPITOP.rules
    state = rules.start(2, rules.options(ready.move["options"]), ready.move["setup"])
    assert rules.encode(state)  # a match starts on the declared questions' answers


def test_an_engine_and_a_declaration_of_two_games_are_not_one_plugin():
    with pytest.raises(ValueError, match=r"topitop.*topas"):
        plugin_of(TOPITOP.rules, PLUGINS["topas"].declaration)


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


def test_the_sixth_game_is_registered_as_a_third_party_registers_one():
    """Nim (tests/third_party) lives in a distribution of its own, outside tablelog's packages:
    the registry finds it by its entry point, and by nothing else."""
    from importlib.metadata import distribution, entry_points

    (point,) = [p for p in entry_points(group="tablelog.games") if p.name == "nim"]
    assert point.load() is PLUGINS["nim"]
    assert point.dist is not None and point.dist.name == distribution("tablelog-nim").name
    assert not type(PLUGINS["nim"].rules).__module__.startswith("tablelog.")
