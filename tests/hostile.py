"""Hostile JSON for the hardening tests (issue 20): what a tester types or sends on purpose.

Arbitrary JSON values whose leaves include integers past 53 and 64 bits, NaN and infinities,
lone surrogates and NUL in text and in keys, plus values nested far deeper than any move. The
tests feed them to the recorder, the command line and the API and require a one-line refusal
(or acceptance) and a store unchanged by every refusal.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

NASTY_TEXT = st.sampled_from(
    ["\udc80", "a\ud800b", "\x00", "Ann\udcff", "²", "١", "-1", "\u202e", "", " ", "x" * 300]
)
TEXT = st.text(max_size=8) | NASTY_TEXT
INTEGERS = (
    st.integers(-(2**53) + 1, 2**53 - 1)
    | st.integers(2**53 - 2, 2**80)
    | st.integers(max_value=-(2**53) + 2, min_value=-(2**80))
    | st.sampled_from([10**23, 2**63, -(2**63) - 1, 2**64])
)
SCALARS = st.none() | st.booleans() | INTEGERS | st.floats() | TEXT


def nested(depth: int, leaf: Any = 0) -> Any:
    """`leaf` inside `depth` lists, built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


DEEP = st.integers(20, 3000).map(nested)
JSON = (
    st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
        max_leaves=10,
    )
    | DEEP
)
OBJECTS = st.dictionaries(TEXT, JSON, max_size=4)


class _Raw(str):
    """Text already written (punctuation), as opposed to a value still to write."""


def as_text(value: Any) -> str:
    """JSON text as a person could type it: NaN and huge numbers spelled out, surrogates as
    \\u escapes. Written without recursion, so 3,000 levels deep are written too."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            out.append(item)
        elif isinstance(item, (list, dict)):
            pairs = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
            parts: list[Any] = [_Raw("{" if isinstance(item, dict) else "[")]
            for index, (key, inner) in enumerate(pairs):
                if index:
                    parts.append(_Raw(","))
                if key is not None:
                    parts.append(_Raw(json.dumps(key) + ":"))
                parts.append(inner)
            parts.append(_Raw("}" if isinstance(item, dict) else "]"))
            stack.extend(reversed(parts))
        else:
            out.append(json.dumps(item))
    return "".join(out)
