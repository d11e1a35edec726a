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
- nesting at most MAX_DEPTH deep and the whole value at most MAX_BYTES of JSON (as orjson, the
  store's codec, writes it): a move, a setup or a claim is a few hundred bytes, and the check
  below must not recurse without bound.

The rule is written once, in `_plain`, which copies and checks in one pass; a refusal names the
part it met first.
"""

from __future__ import annotations

import json
import math
from typing import cast

import orjson

from ..errors import Refused
from ..plain import PlainValue

MAX_INT = 2**53 - 1
MAX_DEPTH = 32
MAX_BYTES = 256 * 1024


def stored_value(value: object, what: str) -> PlainValue:
    """`value` as the store will give it back (tuples become lists), or a Refused naming
    `what` and the first part that cannot be stored."""
    try:
        plain = _plain(value, 0)
    except _Unstorable as fault:
        where = f"{what}{fault.where}:" if fault.placed else what
        raise Refused(f"{where} {fault.reason}") from None
    if len(orjson.dumps(plain)) > MAX_BYTES:  # orjson writes what the store keeps
        raise Refused(f"{what} is too large: more than {MAX_BYTES // 1024} KiB of JSON")
    return plain


def stored_text(value: object, what: str) -> str:
    """A name, reason or ruling: a string the store keeps exactly (see `stored_value`)."""
    if not isinstance(value, str):
        raise Refused(f"{what} must be text, got {_kind(value)}")
    stored_value(value, what)  # refuses what the store cannot keep; text comes back as it is
    return value


class _Unstorable(Exception):
    """A part that cannot be stored: why, and where (`[key][index]...`, filled in by each
    container on the way out, so that the common case builds no path at all)."""

    def __init__(self, reason: str, where: str = "", placed: bool = True) -> None:
        super().__init__(reason)
        self.reason, self.where, self.placed = reason, where, placed


def _plain(item: object, depth: int) -> PlainValue:
    """A plain copy of `item`, checked part by part (the rule, written once). Depth is checked
    before going deeper, so a value nested ten thousand deep is refused, not a RecursionError."""
    if depth > MAX_DEPTH:
        raise _Unstorable(f"is nested more than {MAX_DEPTH} deep", placed=False)
    if isinstance(item, dict):
        return _plain_object(item, depth)
    if isinstance(item, (list, tuple)):
        copy: list[PlainValue] = []
        for index, inner in enumerate(item):
            try:
                copy.append(_plain(inner, depth + 1))
            except _Unstorable as fault:
                fault.where = f"[{index}]{fault.where}"
                raise
        return copy
    return _scalar(item)


def _plain_object(item: dict[object, object], depth: int) -> dict[str, PlainValue]:
    for name in item:  # every key before any value
        if not isinstance(name, str):
            raise _Unstorable(f"keys must be text, got {_kind(name)}")
        _check_text(name, " key")
    copy: dict[str, PlainValue] = {}
    for name, inner in item.items():
        try:
            copy[cast(str, name)] = _plain(inner, depth + 1)
        except _Unstorable as fault:
            fault.where = f"[{_short(cast(str, name))}]{fault.where}"
            raise
    return copy


def _scalar(item: object) -> PlainValue:
    if item is None or isinstance(item, bool):
        return item
    if isinstance(item, int):
        if -MAX_INT <= item <= MAX_INT:
            return int(item)
        raise _Unstorable(f"an integer beyond +-{MAX_INT:,} cannot be stored exactly")
    if isinstance(item, float):
        if math.isfinite(item):
            return item
        raise _Unstorable(f"{item} is not plain JSON (JSON has no NaN or infinity)")
    if isinstance(item, str):
        _check_text(item)
        return item
    raise _Unstorable(f"{_kind(item)} is not plain JSON")


def _check_text(text: str, where: str = "") -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _Unstorable(
            "the text is not valid UTF-8 (it holds a lone surrogate, as undecodable bytes become)",
            where,
        ) from None
    if "\x00" in text:
        raise _Unstorable("the text holds a NUL character", where)


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
