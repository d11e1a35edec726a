"""GeoShapes moves, parsed at the boundary: the JSON of a move into a typed action, or an
IllegalMove naming what is malformed. Whether the action is legal is the rules' business
(`geoshapes.py`); this module only needs the board's shape names and the number of seats."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any

from ..base import IllegalMove
from . import declaration as declared
from .declaration import GAME_INFO


@dataclasses.dataclass(frozen=True)
class Draw:
    shape: str


@dataclasses.dataclass(frozen=True)
class PickUp:
    seat: int


@dataclasses.dataclass(frozen=True)
class Item:
    shape: str
    place: str | None  # None: from the hand


@dataclasses.dataclass(frozen=True)
class Trade:
    partner: int
    give: tuple[Item, ...]
    get: tuple[Item, ...]
    accepted: bool


@dataclasses.dataclass(frozen=True)
class PlaceShape:
    shape: str
    on: str


@dataclasses.dataclass(frozen=True)
class Switch:
    figure: str


@dataclasses.dataclass(frozen=True)
class Discard:
    shape: str
    source: str | None  # a place when the hand is empty
    to: str | None  # the quadrant whose SHAPE DISCARDS receive it


@dataclasses.dataclass(frozen=True)
class EndPlay:
    pass


Action = Draw | PickUp | Trade | PlaceShape | Switch | Discard | EndPlay
VOCABULARY = (
    '{"draw": SHAPE}, {"pick_up": SEAT}, {"trade": {"with": SEAT, "give": [...], '
    '"get": [...], "accepted": true|false}}, {"place": SHAPE, "on": PLACE}, '
    '{"switch": FIGURE}, {"discard": SHAPE} (with "to": QUADRANT, "from": PLACE as '
    'needed) or {"end_play": true}'
)


def parse(move: Any, shapes: Collection[str], seats: int) -> Action:
    """The typed action of `move`, checked for shape: known shapes, real seats, names as text."""
    if not isinstance(move, Mapping):
        raise IllegalMove(f"a GeoShapes move is a JSON object: {VOCABULARY}")
    keys, shape = set(move), GAME_INFO.move_shape(move)
    if shape is declared.Draw:
        return Draw(_shape(move["draw"], shapes))
    if shape is declared.PickUp:
        return PickUp(_seat(move["pick_up"], seats))
    if shape is declared.Trade:
        return _trade(move["trade"], shapes, seats)
    if shape is declared.Place:
        return PlaceShape(_shape(move["place"], shapes), _name(move["on"], "a place"))
    if shape is declared.Switch:
        return Switch(_name(move["switch"], "a figure"))
    if shape is declared.Discard:
        source, to = move.get("from"), move.get("to")
        return Discard(
            _shape(move["discard"], shapes),
            None if source is None else _name(source, "a place"),
            None if to is None else _name(to, "a quadrant"),
        )
    if shape is declared.EndPlay and move["end_play"] is True:
        return EndPlay()
    raise IllegalMove(f"a GeoShapes move is one of {VOCABULARY}; got {sorted(keys)}")


def _shape(raw: Any, shapes: Collection[str]) -> str:
    if not isinstance(raw, str) or raw not in shapes:
        raise IllegalMove(f"{raw!r} is not one of the shapes: {', '.join(shapes)}")
    return raw


def _seat(raw: Any, seats: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < seats:
        raise IllegalMove(f"{raw!r} is not a seat (0 to {seats - 1})")
    return raw


def _name(raw: Any, what: str) -> str:
    if not isinstance(raw, str):
        raise IllegalMove(f"{what} is named by a string, got {raw!r}")
    return raw


def _item(raw: Any, shapes: Collection[str]) -> Item:
    if isinstance(raw, Mapping) and set(raw) == {"shape", "from"}:
        return Item(_shape(raw["shape"], shapes), _name(raw["from"], "a place"))
    if isinstance(raw, str):
        return Item(_shape(raw, shapes), None)
    raise IllegalMove(
        'a traded shape is a name (from the hand) or {"shape": SHAPE, '
        f'"from": PLACE}} (off the board), got {raw!r}'
    )


def _trade(raw: Any, shapes: Collection[str], seats: int) -> Trade:
    if not isinstance(raw, Mapping) or set(raw) != {"with", "give", "get", "accepted"}:
        raise IllegalMove(
            'a trade is {"with": SEAT, "give": [...], "get": [...], "accepted": true|false}'
        )
    if not isinstance(raw["give"], list) or not isinstance(raw["get"], list):
        raise IllegalMove("a trade's give and get are lists of shapes")
    if not isinstance(raw["accepted"], bool):
        raise IllegalMove(f"a trade is accepted (true) or refused (false), got {raw['accepted']!r}")
    return Trade(
        _seat(raw["with"], seats),
        tuple(_item(i, shapes) for i in raw["give"]),
        tuple(_item(i, shapes) for i in raw["get"]),
        raw["accepted"],
    )
