"""One quoting rule for every refusal that echoes input (issue 42): at most 80 characters of
what was typed, then "...", on one line, whatever the value."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tablelog.domain.quoting import QUOTE_LIMIT, quoted
from tests.hostile import JSON, TEXT


@given(st.text(max_size=300) | TEXT)
def test_text_is_quoted_whole_or_as_its_first_80_characters(text):
    shown = quoted(text)
    assert "\n" not in shown and len(shown) <= QUOTE_LIMIT + 3
    if shown.endswith("...") and len(repr(text)) > QUOTE_LIMIT:
        assert repr(text).startswith(shown[:-3])
    else:
        assert shown == repr(text)


@given(JSON)
def test_any_value_is_quoted_on_one_short_line(value):
    """Deep lists, integers past 4,300 digits' worth, NaN: never an error, never long."""
    shown = quoted(value)
    assert "\n" not in shown and len(shown) <= QUOTE_LIMIT + 3


def test_100_kb_is_not_echoed():
    assert quoted("x" * 100_000) == "'" + "x" * (QUOTE_LIMIT - 1) + "..."
    assert quoted(10**5000) == "a value too large to show"
