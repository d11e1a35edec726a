"""What a restriction is (docs/lab.md, `tablelog.domain.restrictions`): a name in the game's
words, a sentence, and a filter over the legal moves of the restricted seat. A game declares its
own in `<game>/restrictions.py` (none is a valid answer); every game has `FIRST_LEGAL`.

When a filter would leave nothing (every legal move is one the player swore off) the restricted
seat plays any legal move: the rules oblige it to move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from .base import Move

Filter = Callable[[Sequence[Move]], list[Move]]


@dataclasses.dataclass(frozen=True)
class Restriction:
    name: str  # e.g. "never-place-swan"
    description: str  # e.g. "never puts a Swan face up into the garden"
    keep: Filter

    def allowed(self, moves: Sequence[Move]) -> list[Move]:
        kept = self.keep(moves)
        return kept if kept else list(moves)


def never(name: str, description: str, refuses: Callable[[Move], bool]) -> Restriction:
    return Restriction(name, description, lambda moves: [m for m in moves if not refuses(m)])


FIRST_LEGAL = Restriction(
    "first-legal",
    "always plays the first legal move the engine lists (a player who does not think)",
    lambda moves: list(moves[:1]),
)
