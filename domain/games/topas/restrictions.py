"""Topas' restrictions: a player who never lays a card with a half of one gem colour."""

from __future__ import annotations

from collections.abc import Callable

from ...plain import PlainMapping
from ..restricting import never

COLOURS = {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}


def _shows(letter: str) -> Callable[[PlainMapping], bool]:
    return lambda move: any(
        half.startswith(letter) for half in str(move.get("card", "")).split("-")
    )


RESTRICTIONS = [
    never(f"never-play-{name}", f"never lays a card with a {name} half", _shows(letter))
    for letter, name in COLOURS.items()
]
