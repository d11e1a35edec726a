"""What a refusal quotes of what a person typed or sent: one rule for every front end.

A refusal names the value it refuses, but a value may be 100 KB of text, a whole object sent
where a name belongs, or characters no terminal can print. `quoted` shows at most 80 characters
of it, then "...", escaped as Python's repr escapes (a lone surrogate, a newline): on one line.
"""

from __future__ import annotations

import reprlib

QUOTE_LIMIT = 80

# Containers are shown a few levels and items deep (repr itself would walk all of them).
_SHORT = reprlib.Repr()
_SHORT.maxlevel = 4
_SHORT.maxdict = _SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = 8
_SHORT.maxstring = _SHORT.maxother = QUOTE_LIMIT + 2


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as a refusal quotes it: its repr, cut after `limit` characters with "..."."""
    try:
        text = repr(value[: limit + 1]) if isinstance(value, str) else _SHORT.repr(value)
    except (ValueError, RecursionError):  # an integer of 4,300+ digits has no repr
        return "a value too large to show"
    return text if len(text) <= limit else text[:limit] + "..."
