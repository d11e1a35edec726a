"""Topiary: visitors around a garden of sculptures, scoring what they see.

The game as one plugin: `rules.py` is the engine (`RULES`, found by `tablelog.domain.games`),
`components.py` what component strength measures; `docs/adding-a-game.md` lists the rest
(docs page, example match, manifest, and the board and picker in `tablelog.dashboard.games`).
"""

from .rules import RULES

__all__ = ["RULES"]
