"""Nim, the test suite's sixth game: a game in a distribution of its own, registered as a third
party registers one, by its entry point (`tablelog_nim-1.0.dist-info/entry_points.txt`, group
`tablelog.games`). It gives its engine, its declaration, its board and picker, its docs page and
its example match, and nothing else: its score sheet, setup questions and (no) restrictions are
read off its declaration."""

from pathlib import Path

from tablelog.domain.games.plugin import game

from .declaration import GAME_INFO
from .rules import RULES

HERE = Path(__file__).resolve().parent

GAME = game(
    RULES,
    GAME_INFO,
    dashboard="tablelog_nim.board",
    docs=HERE / "nim.md",
    example=HERE / "nim.json",
)
