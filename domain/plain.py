"""Plain data: the values JSON holds, as a match's events store them and the API sends them.

A move, a setup, options, a claim and a score's details are plain data; these names say so in
types, where `Any` would let anything through. Parameters take the read-only `PlainMapping`
(a `dict[str, int]` is one; it is not a `dict[str, PlainValue]`, dict being invariant)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

PlainValue: TypeAlias = (
    bool | int | float | str | list["PlainValue"] | dict[str, "PlainValue"] | None
)
"""One JSON value: null, true/false, a number, text, a list or an object of them."""

PlainDict: TypeAlias = dict[str, PlainValue]
"""A JSON object as it is built or read back."""

PlainMapping: TypeAlias = Mapping[str, object]
"""A JSON object only read: what a function takes when it looks keys up and narrows values."""
