"""Total Landscaping: two gardeners plant flowers in two growing hexagonal gardens.

The game as one plugin, `GAME` (found by `tablelog.domain.games`): `rules.py` is the engine,
`declaration.py` the game declared,
`components.py` what component strength measures,
`sheet.py` its score sheet's rules, `restrictions.py` the Lab's restricted players,
`telling.py` the last round in words.
`docs/adding-a-game.md` lists the rest: docs page, example match, manifest, and the board,
picker and setup questions in `tablelog.dashboard.games`.
"""

from ..plugin import game
from .declaration import GAME_INFO
from .restrictions import RESTRICTIONS
from .rules import RULES
from .sheet import TotalLandscapingSheet

GAME = game(RULES, GAME_INFO, sheet=TotalLandscapingSheet(), restrictions=RESTRICTIONS)

__all__ = ["GAME", "RULES"]
