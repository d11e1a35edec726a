"""Total Landscaping's gardens: hex names and adjacency (RULES.md), the drawing, the example match.

Neighbour sets are worked out by hand on flat-topped hexes numbered clockwise from the top.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tablelog.domain.games.total_landscaping.hexgarden import (
    INDEX,
    NEIGHBOURS,
    TILES,
    TILES_AT_LEVEL,
    adjacent,
)
from tablelog.domain.games.total_landscaping.rules import RULES, new_bout
from tests.packaged import data_path

EXAMPLE = data_path("examples", "total-landscaping.json")


def neighbours(name: str) -> set[str]:
    return {TILES[i] for i in NEIGHBOURS[INDEX[name]]}


def test_levels_hold_the_centre_and_one_two_three_rings():
    assert TILES_AT_LEVEL == {1: 7, 2: 19, 3: 37}
    assert TILES[:7] == ("A", "B1", "B2", "B3", "B4", "B5", "B6")
    assert TILES[7] == "C1" and TILES[18] == "C12" and TILES[19] == "D1" and TILES[-1] == "D18"


@pytest.mark.parametrize(
    ("tile", "expected"),
    [
        ("A", {"B1", "B2", "B3", "B4", "B5", "B6"}),
        ("B1", {"A", "B2", "B6", "C1", "C2", "C12"}),  # C1 straight above B1
        ("B4", {"A", "B3", "B5", "C6", "C7", "C8"}),  # C7 straight below B4
        ("C3", {"B2", "C2", "C4", "D3", "D4", "D5"}),  # a corner of ring C
        ("C2", {"B1", "B2", "C1", "C3", "D2", "D3"}),  # a side tile of ring C
        ("D1", {"C1", "D2", "D18"}),  # the rim: three neighbours
        ("D4", {"C3", "D3", "D5"}),
    ],
)
def test_neighbours(tile, expected):
    assert neighbours(tile) == expected


def test_adjacency_is_symmetric_and_each_ring_closes_on_itself():
    for a in range(len(TILES)):
        assert all(adjacent(b, a) for b in NEIGHBOURS[a])
    for letter, count in (("B", 6), ("C", 12), ("D", 18)):
        ring = [f"{letter}{i}" for i in range(1, count + 1)]
        for here, there in zip(ring, ring[1:] + ring[:1]):
            assert there in neighbours(here)


def _column_and_line(text: str, label: str) -> tuple[int, int]:
    for line_no, line in enumerate(text.splitlines()):
        at = line.find(label)
        if at >= 0:
            return at, line_no
    raise AssertionError(f"{label} not drawn")


def test_the_drawing_puts_b1_straight_above_a_and_b2_up_to_the_right():
    east = list(new_bout(1).gardens[0])
    east[INDEX["A"]], east[INDEX["B1"]] = "GR", "G"
    state = dataclasses.replace(
        new_bout(1), gardens=(tuple(east), new_bout(1).gardens[1]), blocked=(0, INDEX["B3"])
    )
    text = RULES.render(state, ["Ann", "Ben"])
    assert "Eastern garden: Ann, Elimination Candidate" in text
    assert "Western garden: Ben, Death Match Opponent" in text
    # The Western garden is drawn first (left), so look at the Eastern one on the right.
    right = "\n".join(line[40:] for line in text.splitlines())
    a, b1, b2, b4 = (_column_and_line(right, label) for label in ("A:r", "B1:g", "B2:.", "B4:."))
    assert a[0] == b1[0] == b4[0] and b1[1] < a[1] < b4[1]
    assert b2[0] > a[0] and b1[1] < b2[1] < a[1]
    assert "B3:.#" in right  # blocked this round
    assert "C1" not in text  # LVL1: ring C is not there yet


def test_the_example_match_replays_to_a_two_nil_win_by_six_colours():
    record = json.loads(EXAMPLE.read_text())
    assert record["game"] == "total-landscaping" and record["format"] == "tablelog-match/1"
    state = RULES.start(len(record["seats"]), record["options"], record["setup"])
    for event in record["events"]:
        if event["type"] == "move":
            state = RULES.apply(state, event["move"])
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert [(b.winner, b.round, b.condition) for b in state.bouts] == [
        (0, 7, "six colours connected"),
        (0, 7, "six colours connected"),
    ]
    assert record["events"][-1] == {"type": "end"}
