"""JSON nested too deep is refused before it is read (tablelog.domain.plain.nesting_depth), so
the reader never meets the interpreter's recursion limit; the count ignores brackets in text."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tablelog.domain.plain import READABLE_DEPTH, nesting_depth

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=20,
)


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


@given(JSON)
def test_it_counts_what_the_reader_reads(value):
    assert nesting_depth(json.dumps(value)) == depth(value)


def test_brackets_and_escaped_quotes_in_text_do_not_count():
    assert nesting_depth('{"a": "[[[{"}') == 1
    assert nesting_depth(r'["\"[", "]"]') == 1
    assert nesting_depth('"just text"') == 0


def test_unclosed_text_full_of_escaped_quotes_is_counted_in_one_pass():
    """Hostile text: an unclosed string of 100,000 escaped quotes. Counted by a search that
    started a string at every quote, it took minutes (quadratic); in one pass, at once."""
    assert nesting_depth('"' + '\\"' * 100_000) == 0
    assert nesting_depth("[" + '\\"' * 100_000 + "]") == 1
    assert nesting_depth('["' + "\\" * 100_001) == 1


def test_the_command_line_refuses_it_in_one_line_without_reading_it(tmp_path):
    from click.testing import CliRunner

    from tablelog.cli import main

    deep = "[" * (READABLE_DEPTH + 1) + "]" * (READABLE_DEPTH + 1)
    store = str(tmp_path / "store.sqlite")
    result = CliRunner().invoke(
        main, ["new", "topitop", "--players", "A,B", "--setup", "-", "--store", store], input=deep
    )
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("nested too deep to read"), result.stderr
    assert len(result.stderr.splitlines()) == 1
