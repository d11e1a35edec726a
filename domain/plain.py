"""Plain data: the values JSON holds, as a match's events store them and the API sends them.

A move, a setup, options, a claim and a score's details are plain data; these names say so in
types, where `Any` would let anything through. Parameters take the read-only `PlainMapping`
(a `dict[str, int]` is one; it is not a `dict[str, PlainValue]`, dict being invariant)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any, TypeAlias

PlainValue: TypeAlias = (
    bool | int | float | str | list["PlainValue"] | dict[str, "PlainValue"] | None
)
"""One JSON value: null, true/false, a number, text, a list or an object of them."""

PlainDict: TypeAlias = dict[str, PlainValue]
"""A JSON object as it is built or read back."""

PlainMapping: TypeAlias = Mapping[str, object]
"""A JSON object only read: what a function takes when it looks keys up and narrows values."""


READABLE_DEPTH = 400
"""JSON nested deeper than this is refused before it is read. Python's json reader recurses
once per level, and at the interpreter's recursion limit whatever else runs then fails too (a
finalizer the garbage collector calls in the middle of the read printed "Exception ignored"
lines under the one-line refusal)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')  # a string to its end if unclosed: one pass
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting_depth(text: str) -> int:
    """How deep the lists and objects of JSON text nest, counted without reading it (brackets
    inside strings do not count; text that is not JSON gets a number all the same)."""
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(1 if b in "[{" else -1 for b in brackets), default=0)


def read_json(text: str, **options: Any) -> Any:
    """`json.loads(text, **options)`, but text nested deeper than READABLE_DEPTH is not read:
    the RecursionError the reader would meet at the interpreter's limit is raised first."""
    if nesting_depth(text) > READABLE_DEPTH:
        raise RecursionError(f"JSON nested more than {READABLE_DEPTH} deep")
    return json.loads(text, **options)
