"""GeoShapes moves, parsed at the boundary: the JSON of a move into a typed action, or an
IllegalMove naming what is malformed. Whether the action is legal is the rules' business
(`legality.py`); this module only needs the board's names and the number of seats.

Names (shapes, figures, circles, quadrants) are read in any case and become the board's
spelling. A seat is stored as its index counted from 0 (`{"pick_up": 1}` is the second player),
as every stored event and record holds it; a person types the player's name or the seat's
number counted from 1, and `from_table` turns that into the stored form at the edge (CLI, API).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import TypeGuard

from ...plain import PlainDict, PlainMapping, PlainValue
from ...quoting import quoted
from ..base import IllegalMove
from . import declaration as declared
from .board import Board
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
    '{"draw": SHAPE}, {"pick_up": PLAYER}, {"trade": {"with": PLAYER, "give": [...], '
    '"get": [...], "accepted": true|false}}, {"place": SHAPE, "on": PLACE}, '
    '{"switch": FIGURE}, {"discard": SHAPE} (with "to": QUADRANT, "from": PLACE as '
    'needed) or {"end_play": true}'
)


def parse(move: object, board: Board, seats: int) -> Action:
    """The typed action of `move` (stored form), checked for shape: known shapes, real seats,
    names as text in the board's spelling."""
    if not isinstance(move, Mapping):
        raise IllegalMove(f"a GeoShapes move is a JSON object: {VOCABULARY}")
    keys, shape, shapes = set(move), GAME_INFO.move_shape(move), board.values
    if shape is declared.Draw:
        return Draw(_shape(move["draw"], shapes))
    if shape is declared.PickUp:
        return PickUp(_seat(move["pick_up"], seats))
    if shape is declared.Trade:
        return _trade(move["trade"], board, seats)
    if shape is declared.Place:
        return PlaceShape(_shape(move["place"], shapes), _place(move["on"], board, "a place"))
    if shape is declared.Switch:
        return Switch(_place(move["switch"], board, "a figure"))
    if shape is declared.Discard:
        source, to = move.get("from"), move.get("to")
        return Discard(
            _shape(move["discard"], shapes),
            None if source is None else _place(source, board, "a place"),
            None if to is None else spelled_as(_text(to, "a quadrant"), board.quadrants),
        )
    if shape is declared.EndPlay and move["end_play"] is True:
        return EndPlay()
    raise IllegalMove(f"a GeoShapes move is one of {VOCABULARY}; got {quoted(sorted(keys))}")


# ---- the fast path: a well-formed stored move ------------------------------------------------
# Bots and stored moves arrive exactly as `legal_moves` offers them: names in the board's
# spelling, seats as stored indices. `quick_parse` reads that form alone, without the declared
# shapes and per-key checks, and answers None for anything else, which `parse` then reads (and
# refuses in its words). Whatever it returns is what `parse` returns for the same move.


TRADE_KEYS = {"with", "give", "get", "accepted"}


def quick_parse(move: object, board: Board, seats: int) -> Action | None:
    if type(move) is not dict:
        return None
    if len(move) == 1:
        ((key, value),) = move.items()
        return _quick_single(key, value, board, seats)
    if "place" in move:
        shape, on = move["place"], move.get("on")
        if len(move) == 2 and _is_shape(shape, board) and type(on) is str and on in board._indices:
            return PlaceShape(shape, on)
        return None
    if "discard" in move:
        return _quick_discard(move, board)
    return None


def _is_shape(raw: object, board: Board) -> TypeGuard[str]:
    return type(raw) is str and raw in board.values


def _is_seat(raw: object, seats: int) -> TypeGuard[int]:
    return type(raw) is int and 0 <= raw < seats


def _quick_single(key: str, value: object, board: Board, seats: int) -> Action | None:
    if key == "draw":
        return Draw(value) if _is_shape(value, board) else None
    if key == "pick_up":
        return PickUp(value) if _is_seat(value, seats) else None
    if key == "switch":
        return Switch(value) if type(value) is str and value in board._indices else None
    if key == "discard":
        return Discard(value, None, None) if _is_shape(value, board) else None
    if key == "end_play":
        return EndPlay() if value is True else None
    if key == "trade":
        return _quick_trade(value, board, seats)
    return None


def _quick_trade(raw: object, board: Board, seats: int) -> Trade | None:
    """A trade of shapes from the hands only (the form `legal_moves` offers)."""
    if type(raw) is not dict or raw.keys() != TRADE_KEYS:
        return None
    partner, give, get, accepted = raw["with"], raw["give"], raw["get"], raw["accepted"]
    if not _is_seat(partner, seats) or type(accepted) is not bool:
        return None
    if type(give) is not list or type(get) is not list:
        return None
    if not all(_is_shape(s, board) for s in give) or not all(_is_shape(s, board) for s in get):
        return None
    return Trade(
        partner,
        tuple(Item(s, None) for s in give),
        tuple(Item(s, None) for s in get),
        accepted,
    )


def _quick_discard(move: PlainMapping, board: Board) -> Discard | None:
    shape, source, to = move["discard"], move.get("from"), move.get("to")
    if not _is_shape(shape, board) or len(move) != 1 + ("from" in move) + ("to" in move):
        return None
    if source is not None and (type(source) is not str or source not in board._indices):
        return None
    if to is not None and (type(to) is not str or to not in board.quadrant_at):
        return None
    if ("from" in move and source is None) or ("to" in move and to is None):
        return None  # an explicit null: the full parser reads it
    return Discard(shape, source, to)


def as_json(action: Action) -> PlainDict:
    """The stored form of an action: what `legal_moves` offers, names in the board's spelling."""
    if isinstance(action, Draw):
        return {"draw": action.shape}
    if isinstance(action, PickUp):
        return {"pick_up": action.seat}
    if isinstance(action, Trade):
        offer: PlainDict = {
            "with": action.partner,
            "give": _items(action.give),
            "get": _items(action.get),
        }
        return {"trade": {**offer, "accepted": action.accepted}}
    if isinstance(action, PlaceShape):
        return {"place": action.shape, "on": action.on}
    if isinstance(action, Switch):
        return {"switch": action.figure}
    if isinstance(action, Discard):
        extra = {"from": action.source, "to": action.to}
        return {"discard": action.shape, **{k: v for k, v in extra.items() if v is not None}}
    return {"end_play": True}


def _items(items: tuple[Item, ...]) -> list[PlainValue]:
    return [i.shape if i.place is None else {"shape": i.shape, "from": i.place} for i in items]


# ---- seats as a person types them -----------------------------------------------------------


def from_table(move: object, seats: Sequence[str]) -> object:
    """`move` with each seat it names (`pick_up`, a trade's `with`) as the stored index: a
    person names the player (any case) or gives the seat's number counted from 1. Anything
    else is left for `parse` to refuse."""
    if not isinstance(move, Mapping):
        return move
    if "pick_up" in move:
        return {**move, "pick_up": seat_typed(move["pick_up"], seats)}
    trade = move.get("trade")
    if isinstance(trade, Mapping) and "with" in trade:
        return {**move, "trade": {**trade, "with": seat_typed(trade["with"], seats)}}
    return move


def to_table(move: PlainMapping, seats: Sequence[str]) -> dict[str, object]:
    """The inverse of `from_table`: a stored move with each seat as its player's name."""
    pick_up, trade = move.get("pick_up"), move.get("trade")
    if isinstance(pick_up, int):
        return {**move, "pick_up": seats[pick_up]}
    if isinstance(trade, Mapping) and isinstance(trade.get("with"), int):
        return {**move, "trade": {**trade, "with": seats[trade["with"]]}}
    return dict(move)


def seat_typed(raw: object, seats: Sequence[str]) -> int:
    """The stored index of a seat typed as a player's name or a number counted from 1."""
    if isinstance(raw, str):
        by_name = {name.casefold(): index for index, name in enumerate(seats)}
        found = by_name.get(raw.strip().casefold())
        if found is not None:
            return found
        if raw.strip().isascii() and raw.strip().isdigit():
            raw = int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= len(seats):
        return raw - 1
    listed = ", ".join(f"{number} {name}" for number, name in enumerate(seats, 1))
    raise IllegalMove(
        f"{quoted(raw)} is not a player of this match: name one, or give the seat's number "
        f"({listed})"
    )


# ---- names --------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _folded(names: tuple[str, ...]) -> dict[str, str]:
    return {name.casefold(): name for name in names}


def spelled_as(raw: str, names: Collection[str]) -> str:
    """`raw` in the spelling of the name it matches in any case; unchanged if none (the rules
    then refuse it, naming what is wrong)."""
    if raw in names:  # the usual case (legal_moves, bots, stored moves): no folding needed
        return raw
    return _folded(tuple(names)).get(raw.strip().casefold(), raw)


def _shape(raw: object, shapes: Collection[str]) -> str:
    if isinstance(raw, str):
        spelled = spelled_as(raw, shapes)
        if spelled in shapes:
            return spelled
    raise IllegalMove(f"{quoted(raw)} is not one of the shapes: {', '.join(shapes)}")


def _place(raw: object, board: Board, what: str) -> str:
    name = _text(raw, what)
    if board.index(name) is not None:
        return name
    return spelled_as(name, tuple(place.name for place in board.places))


def _seat(raw: object, seats: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < seats:
        raise IllegalMove(
            f"{quoted(raw)} is not a stored seat: stored moves count seats from 0 "
            f"(0 to {seats - 1}); "
            "name the player, or give the seat's number from 1, when typing a move"
        )
    return raw


def _text(raw: object, what: str) -> str:
    if not isinstance(raw, str):
        raise IllegalMove(f"{what} is named by a string, got {quoted(raw)}")
    return raw


def _item(raw: object, board: Board) -> Item:
    if isinstance(raw, Mapping) and set(raw) == {"shape", "from"}:
        return Item(_shape(raw["shape"], board.values), _place(raw["from"], board, "a place"))
    if isinstance(raw, str):
        return Item(_shape(raw, board.values), None)
    raise IllegalMove(
        'a traded shape is a name (from the hand) or {"shape": SHAPE, '
        f'"from": PLACE}} (off the board), got {quoted(raw)}'
    )


def _trade(raw: object, board: Board, seats: int) -> Trade:
    if not isinstance(raw, Mapping) or set(raw) != {"with", "give", "get", "accepted"}:
        raise IllegalMove(
            'a trade is {"with": PLAYER, "give": [...], "get": [...], "accepted": true|false}'
        )
    if not isinstance(raw["give"], list) or not isinstance(raw["get"], list):
        raise IllegalMove("a trade's give and get are lists of shapes")
    if not isinstance(raw["accepted"], bool):
        raise IllegalMove(
            f"a trade is accepted (true) or refused (false), got {quoted(raw['accepted'])}"
        )
    return Trade(
        _seat(raw["with"], seats),
        tuple(_item(i, board) for i in raw["give"]),
        tuple(_item(i, board) for i in raw["get"]),
        raw["accepted"],
    )
