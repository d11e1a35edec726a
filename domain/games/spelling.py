"""Names typed in any case, stored in the game's own spelling.

A person types `Small`, `swan 4` or `rectangle`; the engines read names in any case, and what is
stored is the move as the engine offers it (`legal_moves`), so every stored move spells its names
one way and a match's log, charts and counts never split one name in two.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

M = TypeVar("M")


def folded(value: object) -> object:
    """`value` with every string in it case-folded (keys too: they are the game's words)."""
    if isinstance(value, str):
        return value.strip().casefold()
    if isinstance(value, Mapping):
        return {folded(k): folded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [folded(v) for v in value]
    return value


def as_offered(move: M, offered: Iterable[M]) -> M:
    """The offered move that `move` spells in any case; `move` itself when it is offered as
    typed, or when none matches (the rules then accept it or say why not)."""
    offered = list(offered)
    if move in offered:
        return move
    typed = folded(move)
    return next((candidate for candidate in offered if folded(candidate) == typed), move)
