"""The Match page's solved-value history for Topitop (issue 14): the figure from hand-made rows,
and the page's data path with a real solved mini-game table."""

from __future__ import annotations

import pytest

from tablelog.dashboard.figures.match import value_history, value_rows
from tablelog.dashboard.replay import solved_values

# Blue (seat 0) starts winning in 3, Red's reply keeps it, Blue then throws the win away.
ANALYSIS = [
    {
        "index": 0,
        "seat": 0,
        "move": {},
        "value_before": "win",
        "remoteness_before": 5,
        "value_after": "win",
        "remoteness_after": 4,
        "blunder": False,
        "player": "Ann",
    },
    {
        "index": 1,
        "seat": 1,
        "move": {},
        "value_before": "lose",
        "remoteness_before": 4,
        "value_after": "lose",
        "remoteness_after": 3,
        "blunder": False,
        "player": "Ben",
    },
    {
        "index": 2,
        "seat": 0,
        "move": {},
        "value_before": "win",
        "remoteness_before": 3,
        "value_after": "draw",
        "remoteness_after": None,
        "blunder": True,
        "player": "Ann",
    },
]


def test_values_are_read_for_blue_whoever_moved():
    rows = value_rows(ANALYSIS)
    assert list(rows["move"]) == [0, 1, 2, 3]
    # After Red's move Red still loses, so Blue still wins.
    assert list(rows["value"]) == ["win", "win", "win", "draw"]
    assert list(rows["blunder"]) == [False, False, False, True]


def test_the_figure_steps_through_the_values_and_marks_the_blunder():
    figure = value_history(value_rows(ANALYSIS))
    line, crosses = figure.data
    assert list(line.y) == [1, 1, 1, 0] and line.line.shape == "hv"
    assert list(crosses.x) == [3] and crosses.marker.symbol == "x"
    assert "Ann blundered" in crosses.hovertext[0]
    assert "in 3" in line.hovertext[2]


def test_no_moves_gives_an_empty_figure_saying_so():
    figure = value_history(value_rows([]))
    assert not figure.data and "no moves yet" in str(figure.layout.annotations[0].text)


def test_the_page_values_a_recorded_mini_game_from_the_stored_table(
    tmp_path, monkeypatch, recorder
):
    from tablelog.domain.solvers import stored
    from tablelog.domain.solvers.topitop import solve

    monkeypatch.setattr(stored, "SHIPPED", tmp_path / "none")
    monkeypatch.setattr(stored, "BUILT", tmp_path)
    stored.stored_table.cache_clear()
    match_id = recorder.start("topitop", ["Ann", "Ben"], {"small": 2, "large": 2})
    for seat, move in [
        ("Ann", {"place": "large", "to": "b2"}),
        ("Ben", {"place": "small", "to": "a1"}),
    ]:
        recorder.record(match_id, seat, move)
    match = recorder.get(match_id)
    assert solved_values(match) is None  # no table stored: nothing is solved on a request
    table = solve(2, 2)
    table.save(tmp_path / stored.table_name(2, 2))
    stored.stored_table.cache_clear()
    rows = solved_values(match)
    assert rows is not None and list(rows["move"]) == [0, 1, 2]
    assert rows["value"].iloc[0] == table.lookup(match.states[0])[0]
    stored.stored_table.cache_clear()


@pytest.fixture(autouse=True)
def _forget_tables():
    from tablelog.domain.solvers import stored

    yield
    stored.stored_table.cache_clear()
