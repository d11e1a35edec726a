"""A game, registered once: one `Game` object carries everything Tablelog needs of it, and the
registry (`tablelog.domain.games.PLUGINS`) finds it once, as a `GAME` in a package of
`tablelog.domain.games` or as an entry point of the group `tablelog.games` (a game in its own
distribution; docs/adding-a-game.md).

What a game does not say is read off its declaration: the score sheet (the declared scoring
categories, any total, the highest wins), no restrictions, and the Record page's setup
questions (one per declared option, asked by the dashboard; its board module's `setup` where
the table has more to say).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .base import GameRules
from .declaring import GameInfo
from .restricting import Restriction
from .sheeting import DeclaredSheet, SheetRules

ENTRY_POINTS = "tablelog.games"


@dataclasses.dataclass(frozen=True)
class Game:
    """One game's plugin: its engine and declaration, its score sheet, its restrictions, the
    module of its board, picker and setup questions (dashboard side: named, not imported, so
    the layers stay), its docs page and its example match (None: this checkout's
    `docs/games/<id>.md` and the packaged `data/examples/<id>.json`), and the module that
    declares what the balance tuner may vary (named, as the tuner's import is heavy; None:
    nothing declared)."""

    rules: GameRules[Any]
    declaration: GameInfo
    sheet: SheetRules
    restrictions: tuple[Restriction, ...]
    dashboard: str
    docs: Path | None
    example: Path | None
    tuning: str | None = None  # the module `tablelog tune` reads its space from (docs/tune.md)

    @property
    def id(self) -> str:
        return self.rules.id


def game(
    rules: GameRules[Any],
    declaration: GameInfo,
    *,
    sheet: SheetRules | None = None,
    restrictions: Sequence[Restriction] = (),
    dashboard: str | None = None,
    docs: Path | None = None,
    example: Path | None = None,
    tuning: str | None = None,
) -> Game:
    """A game's plugin, each piece it does not give read off its declaration."""
    if rules.id != declaration.id:
        raise ValueError(f"the engine is {rules.id!r}, the declaration {declaration.id!r}")
    module = rules.id.replace("-", "_")
    return Game(
        rules=rules,
        declaration=declaration,
        sheet=sheet or DeclaredSheet(rules.id, declaration.scoring),
        restrictions=tuple(restrictions),
        dashboard=dashboard or f"tablelog.dashboard.games.{module}",
        docs=docs,
        example=example,
        tuning=tuning,
    )
