"""Topitop: buckets on sand castles on a 3x3 board.

The game as one plugin: `rules.py` is the engine (`RULES`, found by `tablelog.domain.games`;
Topitop has no components to measure); `docs/adding-a-game.md` lists the rest
(docs page, example match, manifest, and the board and picker in `tablelog.dashboard.games`).
"""

from .rules import RULES

__all__ = ["RULES"]
