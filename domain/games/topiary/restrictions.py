"""Topiary's restrictions: a gardener who never puts one sculpture type face up (the type is
seen only when it is placed: a face-down tile is taken blind, so "never take" cannot be chosen),
and one who never takes a tile at all (only places visitors)."""

from __future__ import annotations

from collections.abc import Callable

from ...plain import PlainMapping
from ..restricting import never

TYPES = ("Polyhedron", "Pom Pom", "Spiral", "Pyramid", "T-Rex", "Swan", "Whale", "Elephant")


def _places(kind: str) -> Callable[[PlainMapping], bool]:
    return lambda move: str(move.get("place", "")).rsplit(" ", 1)[0] == kind


RESTRICTIONS = [
    *(
        never(
            f"never-place-{kind.lower().replace(' ', '-')}",
            f"never puts a {kind} face up into the garden",
            _places(kind),
        )
        for kind in TYPES
    ),
    never("never-take", "never takes a tile: only places visitors", lambda m: "take" in m),
]
