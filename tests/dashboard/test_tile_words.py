"""Topiary's tile names broken into lines that fit a tile on a phone (`tile_words`): every letter
kept, in order, no line longer than a line holds, breaks at spaces first."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from tablelog.dashboard.games.topiary import NAME_LINE, tile_words
from tablelog.domain.games.manifests import load_manifest


def lines_of(kind: str) -> list[str]:
    return [html.unescape(line) for line in tile_words(kind).split("<br>")]


def unbroken(lines: list[str]) -> str:
    """The name again: a line ending in the hyphen the break added runs on into the next."""
    out = ""
    for line in lines:
        out += line[:-1] if line.endswith("-") else line + " "
    return out.strip()


def test_every_tile_of_the_published_game_keeps_its_name_and_fits():
    kinds = load_manifest("topiary")["types"]
    assert "Polyhedron" in kinds and "Pom Pom" in kinds
    for kind in kinds:
        lines = lines_of(kind)
        assert unbroken(lines) == kind
        assert all(len(line) <= NAME_LINE + 1 for line in lines), lines
    assert lines_of("Pom Pom") == ["Pom", "Pom"]  # a space is the first place to break


@given(st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=25), min_size=1))
def test_any_name_keeps_its_letters_in_order_and_no_line_is_too_long(words):
    kind = " ".join(words)
    lines = lines_of(kind)
    assert unbroken(lines) == kind
    assert all(len(line) <= NAME_LINE + 1 for line in lines), lines
