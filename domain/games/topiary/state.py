"""Topiary's state: the sculptures in play and the garden, hands and visitors of a position.

Below the rules (`rules.py`), the quick readings (`fast.py`) and the scoring (`scoring.py`),
which all read it.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ...quoting import quoted
from ..base import IllegalMove, per_state


@dataclasses.dataclass(frozen=True)
class Sculptures:
    """The tiles in play: every type of the manifest but the removed one, in every value."""

    types: tuple[str, ...]
    values: tuple[int, ...]
    removed: str | None = None

    def tiles(self) -> tuple[str, ...]:
        return _tiles_in_play(self)

    def parse(self, name: object) -> str:
        """A tile's name in canonical spelling ("swan 4" -> "Swan 4"), or IllegalMove."""
        if isinstance(name, str) and name in canonical_tiles(self):
            return name  # already canonical (a setup or a bot's move): no parsing
        return self.parse_name(name)

    def parse_name(self, name: object) -> str:
        """`parse` without the look-up of canonical names (which this builds)."""
        kind, _, value = name.rpartition(" ") if isinstance(name, str) else ("", "", "")
        by_lower = {t.lower(): t for t in self.types}
        if kind.strip().lower() not in by_lower or not value.isdecimal():
            raise IllegalMove(
                f"{quoted(name)} is not a sculpture tile: name it by type and value, like "
                f"'Swan 4'; the types are {', '.join(self.types)}"
            )
        kind = by_lower[kind.strip().lower()]
        if kind == self.removed:
            raise IllegalMove(
                f"{kind} {value} is not in this game: the {kind} tiles were removed at setup"
            )
        if int(value) not in self.values:
            raise IllegalMove(
                f"there is no {kind} {value}: values run {min(self.values)}-{max(self.values)}"
            )
        return f"{kind} {int(value)}"


@lru_cache(maxsize=16)
def _tiles_in_play(sculptures: Sculptures) -> tuple[str, ...]:
    return tuple(
        f"{kind} {value}"
        for kind in sculptures.types
        if kind != sculptures.removed
        for value in sculptures.values
    )


@dataclasses.dataclass(frozen=True)
class Visitor:
    spot: str
    seat: int


@dataclasses.dataclass(frozen=True)
class TopiaryState:
    sculptures: Sculptures
    visitors_each: int
    tiles: tuple[str | None, ...]  # 25 cells a1 b1 .. e5; None: never seen
    face_up: tuple[bool, ...]
    hands: tuple[tuple[str | None, ...], ...]  # per seat, known tiles sorted, then None per unknown
    box: tuple[str, ...] = ()  # known tiles back in the box (the last player's)
    visitors: tuple[Visitor, ...] = ()  # in the order placed

    @property
    def players(self) -> int:
        return len(self.hands)


@per_state
def canonical_tiles(sculptures: Sculptures) -> frozenset[str]:
    """The tiles in play whose names `Sculptures.parse` returns as they are (kept on the
    Sculptures, which every state of a match shares: no hashing of it per look-up)."""
    return _canonical_tiles(sculptures)


@lru_cache(maxsize=16)
def _canonical_tiles(sculptures: Sculptures) -> frozenset[str]:
    found = set()
    for tile in sculptures.tiles():
        try:
            if sculptures.parse_name(tile) == tile:
                found.add(tile)
        except IllegalMove:  # a manifest type the parser cannot read back (odd spacing)
            pass
    return frozenset(found)
