"""GeoShapes: fill a figure of your quadrant, and its circle, with GeoShapes.

The game as one plugin, `GAME` (found by `tablelog.domain.games`): `rules.py` is the engine,
composed of `state.py`, `setup.py`, `legality.py`, `playing.py`, `choices.py`, `scoring.py`
and `describing.py` (the board read in `board.py`, moves in `moves.py`); `declaration.py` the
game declared, `components.py` what component strength measures, `sheet.py` its score sheet's
rules, `restrictions.py` the Lab's restricted players,
`tuning.py` what the balance tuner may vary.
`docs/adding-a-game.md` lists the rest: docs page, example match, manifest, and the board,
picker and setup questions in `tablelog.dashboard.games`.
"""

from ..plugin import game
from .declaration import GAME_INFO
from .restrictions import RESTRICTIONS
from .rules import RULES
from .sheet import GeoShapesSheet

GAME = game(
    RULES, GAME_INFO, sheet=GeoShapesSheet(), restrictions=RESTRICTIONS, tuning=f"{__name__}.tuning"
)

__all__ = ["GAME", "RULES"]
