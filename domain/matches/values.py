"""What an event may carry: values the store gives back exactly as they went in.

Every value a Match event stores (moves, options, setups, claims, names, reasons) passes
`stored_value` BEFORE the event is triggered, so a value the store could not round-trip is a
one-line `Refused` and nothing is stored. Without this check a claim of 10**23 points was saved
by the library's fallback encoder (orjson refuses integers past 64 bits), read back as the float
1e+23, and crashed the receipt's hash after the save: a traceback for a command that had stored.

The bounds, and why:
- integers within +-(2**53 - 1): what a JSON number means in every reader (JavaScript, the
  dashboard's browser) and what orjson, the store's codec, writes and reads exactly;
- floats finite (JSON has no NaN or infinity);
- strings encodable as UTF-8: a lone surrogate ("\\udc80", what Python makes of undecodable
  bytes in argv) has no UTF-8 form; NUL has none in PostgreSQL text, so it is refused too;
- object keys are strings (JSON's rule; an int key would come back as text);
- nesting at most MAX_DEPTH deep and the whole value at most MAX_BYTES of JSON: a move, a setup
  or a claim is a few hundred bytes, and the checks below must not recurse without bound.
"""

from __future__ import annotations

import json
import math
from enum import Enum
from typing import Final, Literal

import orjson

from ..errors import Refused
from ..plain import PlainValue

MAX_INT = 2**53 - 1
MAX_DEPTH = 32
MAX_BYTES = 256 * 1024


def stored_value(value: object, what: str) -> PlainValue:
    """`value` as the store will give it back (tuples become lists), or a Refused naming
    `what` and the first part that cannot be stored."""
    fast = _plain_at_once(value)
    if fast is not _UNSURE:
        return fast
    plain = _walk(value, what)
    text = json.dumps(plain, allow_nan=False, ensure_ascii=False)
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise Refused(f"{what} is too large: more than {MAX_BYTES // 1024} KiB of JSON")
    return plain


class _Unsure(Enum):
    """What the fast check answers when the walk must decide."""

    UNSURE = "unsure"


_UNSURE: Final = _Unsure.UNSURE
_FAST = (
    orjson.OPT_STRICT_INTEGER
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _plain_at_once(value: object) -> PlainValue | Literal[_Unsure.UNSURE]:
    """The common case in C, as every move is checked (measured: 2.5 us for a move; the walk
    below takes 15-19 us, twice the recorder's own cost of storing an event): orjson itself
    refuses integers past 53 bits (OPT_STRICT_INTEGER), lone surrogates, keys that are not text
    and anything not JSON. What it cannot tell is left to the walk, erring on the side of
    asking: a `null` (orjson writes NaN as null), an escaped NUL, more containers than MAX_DEPTH
    (which bounds the depth), or a value over the size limit. _UNSURE when the walk must decide."""
    try:
        data = orjson.dumps(value, option=_FAST)
    except orjson.JSONEncodeError:
        return _UNSURE
    if (
        len(data) > MAX_BYTES
        or b"null" in data
        or b"\\u0000" in data
        or data.count(b"[") + data.count(b"{") > MAX_DEPTH
    ):
        return _UNSURE
    loaded: PlainValue = orjson.loads(data)
    return loaded


def stored_text(value: object, what: str) -> str:
    """A name, reason or ruling: a string the store keeps exactly (see `stored_value`)."""
    if not isinstance(value, str):
        raise Refused(f"{what} must be text, got {_kind(value)}")
    stored_value(value, what)  # refuses what the store cannot keep; text comes back as it is
    return value


def _walk(value: object, what: str) -> PlainValue:
    """A plain copy of `value`, checked part by part; iterative (an explicit stack), so a value
    nested ten thousand deep is refused rather than a RecursionError."""
    root: list[PlainValue] = [None]
    stack: list[tuple[object, _Parent, int | str, int, str]] = [(value, root, 0, 0, "")]
    while stack:
        item, parent, key, depth, path = stack.pop()
        if depth > MAX_DEPTH:
            raise Refused(f"{what} is nested more than {MAX_DEPTH} deep")
        if isinstance(item, dict):
            copy: dict[str, PlainValue] = {}
            for name, inner in item.items():
                if not isinstance(name, str):
                    raise Refused(f"{what}{path}: keys must be text, got {_kind(name)}")
                _check_text(name, what, f"{path} key")
                copy[name] = None
                stack.append((inner, copy, name, depth + 1, f"{path}[{_short(name)}]"))
            _put(parent, key, copy)
        elif isinstance(item, (list, tuple)):
            items: list[PlainValue] = [None] * len(item)
            _put(parent, key, items)
            for index, inner in enumerate(item):
                stack.append((inner, items, index, depth + 1, f"{path}[{index}]"))
        else:
            _put(parent, key, _scalar(item, what, path))
    return root[0]


_Parent = list[PlainValue] | dict[str, PlainValue]  # where the walk puts a copied part


def _put(parent: _Parent, key: int | str, value: PlainValue) -> None:
    if isinstance(parent, dict):
        parent[str(key)] = value
    else:
        parent[int(key)] = value


def _scalar(item: object, what: str, path: str) -> PlainValue:
    if item is None or isinstance(item, bool):
        return item
    if isinstance(item, int):
        if -MAX_INT <= item <= MAX_INT:
            return int(item)
        raise Refused(f"{what}{path}: an integer beyond +-{MAX_INT:,} cannot be stored exactly")
    if isinstance(item, float):
        if math.isfinite(item):
            return item
        raise Refused(f"{what}{path}: {item} is not plain JSON (JSON has no NaN or infinity)")
    if isinstance(item, str):
        _check_text(item, what, path)
        return item
    raise Refused(f"{what}{path}: {_kind(item)} is not plain JSON")


def _check_text(text: str, what: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(
            f"{what}{path}: the text is not valid UTF-8 (it holds a lone surrogate, "
            "as undecodable bytes become)"
        ) from None
    if "\x00" in text:
        raise Refused(f"{what}{path}: the text holds a NUL character")


def _kind(value: object) -> str:
    return {
        dict: "an object",
        list: "a list",
        tuple: "a list",
        type(None): "null",
        bool: "true/false",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def _short(name: str) -> str:
    """A key as it appears in a message: quoted and escaped, so the message stays one line."""
    return json.dumps(name if len(name) <= 40 else name[:37] + "...", ensure_ascii=False)
